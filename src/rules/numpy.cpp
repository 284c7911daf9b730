// §1 numpy — multidirectional (NumPy, ONNX, OpenVINO AutoBroadcastType NUMPY).
//
//   A: [8, 1, 6, 1]
//   B:    [7, 1, 5]
//   ->    [8, 7, 6, 5]   per axis: 1s are ignored, the rest must agree.
//
// Axes are compared from the trailing one, as NumPy describes it; the first
// clash found that way (the highest-numbered clashing axis) fills the error,
// every clashing axis goes into err.clash_axes, and the refused plan is still
// aligned with each operand that takes part in a clash marked on that axis:
//
//   A: [8, 4, 6, 1]
//   B:    [7, 3, 5]
//          ^  ^        axes 1 (4 vs 7) and 2 (6 vs 3) clash for A and B;
//                      err.axis = 2, err.clash_axes = 0b0110
//   [3], [4], [1]  ->  axis 0 clashes for operands 0 and 1; the 1 stretches.
#include "detail.hpp"

namespace tc {

int numpy_static_shape(const double* words, size_t n_words, int n, double* out) {
  int out_rank = 0;
  size_t p = 0;
  for (int k = 0; k < n; ++k) {  // the ranks first: the output's, and each shape inside `words`
    if (p >= n_words) return -1;
    const double r = words[p];
    if (!is_rank_value(r)) return -1;
    if (r > out_rank) out_rank = static_cast<int>(r);
    p += 1 + static_cast<size_t>(r);
  }
  if (p > n_words) return -1;
  for (int a = 0; a < out_rank; ++a) out[a] = 1;
  p = 0;
  for (int k = 0; k < n; ++k) {
    const int r = static_cast<int>(words[p]);
    const double* d = words + p + 1;
    double* o = out + (out_rank - r);
    for (int i = 0; i < r; ++i) {
      const double v = d[i];
      if (!is_dim_value(v)) return -1;
      if (v == 1 || v == o[i]) continue;  // a 1 takes the other dim; equal dims stay
      if (o[i] != 1) return -1;           // a clash: broadcast_numpy names it
      o[i] = v;
    }
    p += 1 + static_cast<size_t>(r);
  }
  return out_rank;
}

Status broadcast_numpy(const Shape* shapes, int n, Plan& plan, Error& err) {
  err = Error{};
  plan.reset(n);
  int out_rank = 0;
  bool unknown = false;
  for (int k = 0; k < n; ++k) {
    if (validate_shape(shapes[k], k, false, err) != Status::Ok) return err.code;
    if (!shapes[k].rank_known()) unknown = true;
    else if (shapes[k].rank > out_rank) out_rank = shapes[k].rank;
  }
  plan.out.rank = out_rank;
  // The dims are read from the shapes themselves (operand k's axis a -
  // (out_rank - rank) feeds output axis a, as align_right maps it): a plan of
  // the output shape only aligns the operands just to finish a refusal.
  bool failed = false;
  for (int a = out_rank - 1; a >= 0; --a) {
    Dim cur = Dim::fixed(1);
    int holder = -1;  // operand whose dim `cur` is (the first other than 1; with
                      // intervals, the last one that changed `cur`)
    for (int k = 0; k < n; ++k) {
      const int src = a - (out_rank - shapes[k].rank);
      if (src < 0) continue;
      const Dim d = shapes[k].dims[src];
      Dim merged;
      if (!broadcast_merge(cur, d, merged)) {
        detail::clash(err, failed, Status::IncompatibleDims, a, holder, k, cur, d);
        break;
      }
      if (!d.is(1) && (holder < 0 || merged != cur)) holder = k;
      cur = merged;
    }
    plan.out.dims[a] = cur;
  }
  for (int k = 0; k < n; ++k) {
    if (plan.shape_only && !failed) plan.ops[k].shape = shapes[k];  // finalize_plan reads whether it is static
    else detail::align_right(plan.ops[k], shapes[k], out_rank);
  }
  if (failed) return detail::refuse(plan, err, detail::Takers::Numpy);
  if (unknown) {  // §7: unknown rank in gives unknown rank out, once the shapes of known rank agree
    plan.out = Shape::unknown_rank();
    for (int k = 0; k < n; ++k) plan.ops[k].shape = shapes[k];
  }
  finalize_plan(plan);
  return Status::Ok;
}

}  // namespace tc

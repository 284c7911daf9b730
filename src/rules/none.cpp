// §2 none — no implicit broadcasting (OpenVINO AutoBroadcastType NONE).
//
//   A: [2, 4]      B: [1, 2, 4]   -> SHAPE_MISMATCH (no rank padding)
//
// With partial shapes (§7) the dims are merged by intersection: "2..6" and
// "5..8" give "5..6"; an empty intersection is a mismatch.
//
// A 1 is no wildcard here, so on every axis whose dims differ both operands
// take part in the clash:  [2, 1] vs [2, 3] -> axis 1 marked for A and B.
#include "detail.hpp"

namespace tc {

Status broadcast_none(const Shape& a, const Shape& b, Plan& plan, Error& err) {
  err = Error{};
  plan.reset(2);
  if (validate_shape(a, 0, false, err) != Status::Ok) return err.code;
  if (validate_shape(b, 1, false, err) != Status::Ok) return err.code;
  if (!a.rank_known() || !b.rank_known()) {
    // An unknown rank takes the other side's shape (OpenVINO merge_into).
    plan.out = a.rank_known() ? a : b;
    plan.ops[0].shape = a;
    plan.ops[1].shape = b;
    const Shape& known = a.rank_known() ? a : b;
    if (known.rank_known()) {
      for (int k = 0; k < 2; ++k) {
        const Shape& s = k == 0 ? a : b;
        if (s.rank_known()) detail::align_right(plan.ops[k], s, known.rank);
        else {
          plan.ops[k].shape = s;
          for (int i = 0; i < known.rank; ++i) { plan.ops[k].src_axis[i] = i; plan.ops[k].aligned[i] = Dim::dynamic(); }
        }
      }
    }
    finalize_plan(plan);
    return Status::Ok;
  }
  const int out_rank = a.rank > b.rank ? a.rank : b.rank;
  detail::align_right(plan.ops[0], a, out_rank);
  detail::align_right(plan.ops[1], b, out_rank);
  plan.out.rank = out_rank;
  for (int i = 0; i < out_rank; ++i) plan.out.dims[i] = plan.ops[0].src_axis[i] >= 0 ? plan.ops[0].aligned[i] : plan.ops[1].aligned[i];
  if (a.rank != b.rank) {
    detail::fail(err, Status::ShapeMismatch, -1, 0, 1, Dim::fixed(a.rank), Dim::fixed(b.rank));
    return detail::refuse(plan, err);
  }
  bool failed = false;
  for (int i = out_rank - 1; i >= 0; --i) {
    Dim m;
    if (!intersect(a.dims[i], b.dims[i], m)) {
      detail::clash(err, failed, Status::ShapeMismatch, i, 0, 1, a.dims[i], b.dims[i]);
      continue;
    }
    plan.out.dims[i] = m;
  }
  if (failed) return detail::refuse(plan, err);
  finalize_plan(plan);
  return Status::Ok;
}

}  // namespace tc

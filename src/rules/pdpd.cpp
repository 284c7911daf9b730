// §3 pdpd — PaddlePaddle element-wise broadcasting (OpenVINO AutoBroadcastType PDPD).
//
//   A: [2, 3, 4, 5]        axis = 1
//   B:    [3, 1]     -> trimmed [3] -> strides [0, 1, 0, 0]
//   -> [2, 3, 4, 5]        the output is always A: B never enlarges A.
//
// Decisions (spec §3): the default axis is computed from B's rank *before*
// trimming; trailing static 1s of B are then dropped (the documented rule,
// which OpenVINO's shape inference skips); B[i] = 0 against A = 1 is refused.
//
// With dynamic dims (§7) B is only checked, never merged into the output
// (OpenVINO type_prop dynamic_shape_intervals_broadcast_pdpd):
//   A: [1..3, 2..7]  B: [?, ?]        -> [1..3, 2..7]
//   A: [?, ?]        B: [1..3, 2..7]  -> [?, ?]
// A clash is between A's dim and B's, so both are marked (a 1 in A is no
// wildcard: B may not enlarge it).
#include "detail.hpp"

namespace tc {

Status broadcast_pdpd(const Shape& a, const Shape& b, i64 axis, Plan& plan, Error& err) {
  err = Error{};
  plan.reset(2);
  if (validate_shape(a, 0, false, err) != Status::Ok) return err.code;
  if (validate_shape(b, 1, false, err) != Status::Ok) return err.code;
  plan.ops[0].shape = a;
  plan.ops[1].shape = b;
  if (!a.rank_known() && axis >= -1) {  // an axis below -1 is refused whatever A's rank
    plan.out = Shape::unknown_rank();
    finalize_plan(plan);
    return Status::Ok;
  }
  plan.out = a;
  detail::align_right(plan.ops[0], a, a.rank);
  for (int i = 0; i < a.rank; ++i) plan.ops[1].src_axis[i] = -1;
  // The axis needs only A's rank: it is checked even when B's rank is unknown.
  if (axis < -1 || axis > a.rank) {
    detail::fail(err, Status::InvalidAxis, -1, 0, 1, a.rank_known() ? Dim::fixed(a.rank) : Dim::dynamic(), b.rank_known() ? Dim::fixed(b.rank) : Dim::dynamic(),
                 static_cast<int>(axis < -1 ? -2 : (axis > kMaxRank ? kMaxRank + 1 : axis)));
    return detail::refuse(plan, err);
  }
  if (!b.rank_known()) {  // nothing else to check: A's shape stands
    finalize_plan(plan);
    return Status::Ok;
  }
  if (axis == -1) {
    axis = a.rank - b.rank;
    if (axis < 0) {
      detail::fail(err, Status::RankMismatch, -1, 0, 1, Dim::fixed(a.rank), Dim::fixed(b.rank), -1);
      return detail::refuse(plan, err);
    }
  }
  int trimmed = b.rank;
  while (trimmed > 0 && b.dims[trimmed - 1].is(1)) --trimmed;
  for (int i = trimmed; i < b.rank; ++i) plan.ops[1].dropped |= std::uint32_t{1} << i;
  if (axis + trimmed > a.rank) {
    detail::fail(err, Status::RankMismatch, -1, 0, 1, Dim::fixed(a.rank), Dim::fixed(trimmed),
                 static_cast<int>(axis));
    return detail::refuse(plan, err);
  }
  // Map B's axes (the trimmed 1s too, where they still land inside A, so the
  // explorer shows them as stretched).
  for (int i = 0; i < b.rank && axis + i < a.rank; ++i) {
    plan.ops[1].src_axis[axis + i] = i;
    plan.ops[1].aligned[axis + i] = b.dims[i];
  }
  bool failed = false;
  for (int i = trimmed - 1; i >= 0; --i) {
    const int o = static_cast<int>(axis) + i;
    const Dim ad = a.dims[o], bd = b.dims[i];
    // The output is A's dim, always: B never enlarges or narrows it, it is
    // only checked (OpenVINO type_prop dynamic_shape_intervals_broadcast_pdpd).
    // A fixed: B must be able to equal it or be 1 (a static 0 in B against
    // A = 1 would enlarge A). A dynamic: B must be able to be 1 or some value
    // A can take.
    bool ok;
    Dim common;
    if (ad.is_static()) {
      ok = bd.is_static() ? (bd.lo == ad.lo || bd.lo == 1) : (bd.may_be(ad.lo) || bd.may_be(1));
    } else {
      ok = bd.may_be(1) || intersect(ad, bd, common);
    }
    if (!ok) {
      detail::clash(err, failed, Status::IncompatibleDims, o, 0, 1, ad, bd, i);
      continue;
    }
  }
  if (failed) return detail::refuse(plan, err);
  finalize_plan(plan);
  return Status::Ok;
}

}  // namespace tc

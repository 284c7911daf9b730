// The reduction axes of a broadcast (reduction_axes.hpp): run the forward rule,
// then read its plan. The plan already says, per output axis, which input axis
// feeds it (src_axis, -1 = none); what is left is the 1 -> d test, made safe
// for intervals.
#include "reduction_axes.hpp"

#include "detail.hpp"

namespace tc {

namespace {

Dim rank_dim(const Shape& s) { return s.rank_known() ? Dim::fixed(s.rank) : Dim::dynamic(); }

// The forward call of `in` and `out` in `mode` (reduction_axes.hpp), itself,
// so the backward refuses exactly what the forward refuses (its refusal, err
// included, is returned as is). `operand`: which of the plan's operands is
// `in` (1 for an element-wise rule's B, where A = out is operand 0).
Status forward(const Shape& in, const Shape& out, BroadcastToMode mode, i64 axis, const i64* mapping,
               int mapping_len, Plan& plan, int& operand, Error& err) {
  operand = 0;
  switch (mode) {
    case BroadcastToMode::numpy: return broadcast_to_numpy(in, out, plan, err);
    case BroadcastToMode::explicit_:
      return broadcast_to_explicit(in, out, mapping, mapping_len, true, plan, err);
    case BroadcastToMode::bidirectional: return broadcast_to_bidirectional(in, out, plan, err);
    case BroadcastToMode::pdpd: return broadcast_to_pdpd(in, out, axis, plan, err);
    case BroadcastToMode::elementwise_numpy: {
      const Shape both[2] = {out, in};
      operand = 1;
      return broadcast_numpy(both, 2, plan, err);
    }
    case BroadcastToMode::elementwise_none: operand = 1; return broadcast_none(out, in, plan, err);
    case BroadcastToMode::elementwise_pdpd: operand = 1; return broadcast_pdpd(out, in, axis, plan, err);
  }
  err = Error{};
  err.code = Status::InvalidShape;
  return err.code;
}

}  // namespace

Status reduction_axes(const Shape& in, const Shape& out, BroadcastToMode mode, i64 axis, const i64* mapping,
                      int mapping_len, std::uint64_t& axes_mask, Error& err) {
  axes_mask = 0;
  err = Error{};
  Plan plan;
  int operand = 0;
  const Status s = forward(in, out, mode, axis, mapping, mapping_len, plan, operand, err);
  if (s != Status::Ok) return s;
  if (!in.rank_known() || !out.rank_known())
    return detail::fail(err, Status::RankMismatch, -1, 0, -1, rank_dim(in), rank_dim(out), kDetailAxesNotKnown);
  if (plan.out.rank != out.rank)
    return detail::fail(err, Status::RankMismatch, -1, 0, -1, rank_dim(plan.out), rank_dim(out));
  for (int a = 0; a < out.rank; ++a)
    if (plan.out.dims[a] != out.dims[a])
      return detail::fail(err, Status::ShapeMismatch, a, 0, -1, plan.out.dims[a], out.dims[a]);

  // Rule none stretches nothing: whatever '?' or interval the forward call accepted, no axis is summed.
  if (mode == BroadcastToMode::elementwise_none) return Status::Ok;
  const OperandPlan& op = plan.ops[static_cast<size_t>(operand)];
  // A scalar under a one-entry mapping is [1] on the mapped axis.
  const int scalar_axis = mode == BroadcastToMode::explicit_ && in.rank == 0 && mapping_len == 1 && mapping
                              ? static_cast<int>(mapping[0])
                              : -1;
  std::uint64_t mask = 0, unknown = 0;
  int first_unknown = -1;
  for (int a = 0; a < out.rank; ++a) {
    const std::uint64_t bit = std::uint64_t{1} << a;
    const int src = op.src_axis[a];
    if (src < 0 && a != scalar_axis) {  // no input axis here
      mask |= bit;
      continue;
    }
    const Dim id = src >= 0 ? in.dims[src] : Dim::fixed(1);
    const Dim od = out.dims[a];
    // Instances of this axis the forward rule accepts: (1, o) for o in od, and
    // (v, v) for v in both. (1, o != 1) needs the sum; (v != 1, v) must keep it.
    Dim both;
    const bool may_sum = id.may_be(1) && !od.is(1);
    const bool may_keep = intersect(id, od, both) && !both.is(1);
    if (may_sum && may_keep) {
      unknown |= bit;
      if (first_unknown < 0) first_unknown = a;
    } else if (may_sum) {
      mask |= bit;
    }
  }
  if (unknown) {
    const int src = op.src_axis[first_unknown];
    detail::fail(err, Status::IncompatibleDims, first_unknown, 0, -1, src >= 0 ? in.dims[src] : Dim::fixed(1),
                 out.dims[first_unknown], kDetailAxesNotKnown);
    err.clash_axes = unknown;
    return err.code;
  }
  axes_mask = mask;
  return Status::Ok;
}

}  // namespace tc

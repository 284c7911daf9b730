// Small helpers shared by the rule files (not part of the public engine API).
#pragma once

#include <cstdint>

#include "rules.hpp"

namespace tc::detail {

inline Status fail(Error& err, Status code, int axis, int operand_a, int operand_b, Dim a, Dim b,
                   int detail = -1) {
  err.code = code;
  err.axis = axis;
  err.operand_a = operand_a;
  err.operand_b = operand_b;
  err.dim_a = a;
  err.dim_b = b;
  err.detail = detail;
  return code;
}

// A disagreement found while scanning the axes. The first one found fills the
// error's fields (that is the one a message names); every dim disagreement
// (INCOMPATIBLE_DIMS, SHAPE_MISMATCH on an output axis) is also recorded in
// err.clash_axes, so the refused plan can mark them all. Rules scan the axes
// from the trailing one (as NumPy compares shapes), except §6, which scans the
// named dims in output order.
inline void clash(Error& err, bool& failed, Status code, int axis, int operand_a, int operand_b, Dim a, Dim b,
                  int detail = -1) {
  if (!failed) fail(err, code, axis, operand_a, operand_b, a, b, detail);
  failed = true;
  if ((code == Status::IncompatibleDims || code == Status::ShapeMismatch) && axis >= 0 && axis < kMaxRank)
    err.clash_axes |= std::uint64_t{1} << axis;
}

// Who takes part in a clash on an axis, per rule family:
//   Numpy — §1 and §4.3, where a 1 stretches: an operand takes part when its
//           dim cannot be 1 and cannot equal the dim of some other operand that
//           cannot be 1 either (a 1, a "?" or "1..n" never clashes with anything).
//           For static dims: the dim is not 1 and differs from another non-1 dim.
//   Every — the other rules, whose clashes are between exactly two dims (§2, §3,
//           §6: two operands, a 1 is no wildcard there; §4.1, §4.2, §4.4: one
//           operand against the target): every operand that has the axis.
enum class Takers { Numpy, Every };

// Mark the recorded clashes on a plan whose verdicts are already derived.
// Costs O(operands) per clashing axis.
inline void mark_clashes(Plan& plan, const Error& err, Takers takers) {
  if (err.clash_axes == 0) {  // a refusal that names one axis (or none)
    mark_clash(plan, err.axis);
    return;
  }
  const int n = static_cast<int>(plan.ops.size());
  for (int a = 0; a < plan.out.rank && a < kMaxRank; ++a) {
    if (!(err.clash_axes >> a & 1)) continue;
    if (takers == Takers::Every) {
      for (auto& op : plan.ops)
        if (op.src_axis[a] >= 0) op.verdict[a] = Verdict::Clash;
      continue;
    }
    // Dims that cannot be 1 must all share a value. Dim k disagrees with one of
    // the others when some other such dim lies wholly below or above it: keep
    // the two smallest upper bounds and the two largest lower bounds, so each
    // operand is compared with "all the others" in O(1).
    i64 hi1 = kUnbounded, hi2 = kUnbounded, lo1 = -1, lo2 = -1;
    int hi1k = -1, lo1k = -1;
    for (int k = 0; k < n; ++k) {
      const OperandPlan& op = plan.ops[static_cast<size_t>(k)];
      if (op.src_axis[a] < 0 || op.aligned[a].may_be(1)) continue;
      const Dim d = op.aligned[a];
      if (d.hi < hi1) { hi2 = hi1; hi1 = d.hi; hi1k = k; }
      else if (d.hi < hi2) hi2 = d.hi;
      if (d.lo > lo1) { lo2 = lo1; lo1 = d.lo; lo1k = k; }
      else if (d.lo > lo2) lo2 = d.lo;
    }
    for (int k = 0; k < n; ++k) {
      OperandPlan& op = plan.ops[static_cast<size_t>(k)];
      if (op.src_axis[a] < 0 || op.aligned[a].may_be(1)) continue;
      const Dim d = op.aligned[a];
      const i64 other_hi = k == hi1k ? hi2 : hi1;
      const i64 other_lo = k == lo1k ? lo2 : lo1;
      if (other_hi < d.lo || other_lo > d.hi) op.verdict[a] = Verdict::Clash;
    }
  }
}

// Right-align `s` into an output of rank `out_rank`: output axis a is fed by
// operand axis a - (out_rank - rank), or by nothing (-1).
inline void align_right(OperandPlan& op, const Shape& s, int out_rank) {
  op.shape = s;
  const int offset = out_rank - s.rank;
  for (int a = 0; a < out_rank; ++a) {
    const int src = a - offset;
    op.src_axis[a] = src >= 0 ? src : -1;
    op.aligned[a] = src >= 0 ? s.dims[src] : Dim::fixed(1);
  }
}

// Finish a refused plan so the explorer can draw it (alignment, verdicts, every
// clash marked), and return the error.
inline Status refuse(Plan& plan, Error& err, Takers takers = Takers::Every) {
  finalize_plan(plan);
  plan.loop.rank = 0;  // nothing to loop over in a refused plan
  mark_clashes(plan, err, takers);
  return err.code;
}

// An i64 mixer for hashed label lookups (the splitmix64 finaliser): label ids
// can be raw timestamps or multiples of a power of two, which an identity hash
// would pile into a few buckets.
struct MixHash {
  std::size_t operator()(i64 v) const {
    std::uint64_t x = static_cast<std::uint64_t>(v);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return static_cast<std::size_t>(x);
  }
};

}  // namespace tc::detail

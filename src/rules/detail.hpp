// Small helpers shared by the rule files (not part of the public engine API).
#pragma once

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

// A disagreement found while scanning the axes: every one is recorded in
// err.clash_axes (so the plan marks them all); the error's fields describe the
// first one found, which the message names.
inline void clash(Error& err, bool& failed, Status code, int axis, int operand_a, int operand_b, Dim a, Dim b,
                  int detail = -1) {
  if (!failed) fail(err, code, axis, operand_a, operand_b, a, b, detail);
  failed = true;
  if ((code == Status::IncompatibleDims || code == Status::ShapeMismatch) && axis >= 0 && axis < 64)
    err.clash_axes |= std::uint64_t{1} << axis;
}

// Mark every recorded clash (or, for a refusal that names one axis, that axis).
inline void mark_clashes(Plan& plan, const Error& err) {
  if (err.clash_axes == 0) {
    mark_clash(plan, err.axis);
    return;
  }
  for (int a = 0; a < 64; ++a)
    if (err.clash_axes >> a & 1) mark_clash(plan, a);
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

// Finish a refused plan so the explorer can draw it, and return the error.
inline Status refuse(Plan& plan, Error& err) {
  finalize_plan(plan);
  plan.loop.rank = 0;  // nothing to loop over in a refused plan
  mark_clashes(plan, err);
  return err.code;
}

}  // namespace tc::detail

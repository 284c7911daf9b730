// The backward direction of the Broadcast rules: which output axes a gradient
// of the broadcast result is summed over to come back to the input
// (TensorFlow BroadcastGradientArgs, tfjs getReductionAxes, OpenVINO
// get_broadcast_axes), for every mode of the Broadcast operation.
//
//   in [3, 1]  out [2, 3, 5]  numpy          -> axes {0, 2}   (0 new, 2 stretched)
//   in [16]    out [1, 16, 50, 50] explicit, axesMapping [1] -> {0, 2, 3}
//   in [3, 1]  out [2, 3, 6]  pdpd, axis 1   -> {0, 2}
#pragma once

#include <cstdint>

#include "rules.hpp"

namespace tc {

// The forward call whose gradient comes back: a mode of broadcast_to_*
// (rules.hpp) with `in` the input and `out` the target, or an element-wise
// rule with `in` its second operand B and `out` its result (A, of that shape:
// the gradient of B).
enum class BroadcastToMode : int {
  numpy, explicit_, bidirectional, pdpd,
  elementwise_numpy, elementwise_none, elementwise_pdpd,
};

// axes_mask gets bit a set for each output axis a to sum over; the axes in
// ascending order are the set bits. `out` is the shape the forward broadcast
// produced. `axis` is read in pdpd mode only, `mapping` / `mapping_len` in
// explicit mode only (both may be anything elsewhere).
//
// Which axes (per output axis a):
//   - the input has no axis there (numpy / bidirectional: leading axes;
//     explicit: not in the mapping; pdpd: outside the span where the input is
//     placed): summed;
//   - the input dim is 1 and the output dim is not (0 included): summed;
//   - otherwise kept. An axis where both are 1 is not listed (summing it
//     changes nothing; TensorFlow lists it, tfjs does not).
//   Explicit mode with a scalar input and a one-entry mapping reads the
//   scalar as [1] (as broadcast_to_explicit does): the mapped axis is summed
//   unless the output dim there is 1.
//   Pdpd: the Broadcast op's placement (start = axis, or rank(out) - rank(in)
//   for -1); an input that does not fit is refused, as the forward refuses it.
//   Elementwise_pdpd: the element-wise rule's placement of B (its trailing 1s
//   dropped first, so they may hang past the end of A = out; those have no
//   output axis). Elementwise_none: B must be `out` itself (no axes).
//
// Validation, in this order:
//   1. the forward rule (broadcast_to_numpy / _explicit / _bidirectional /
//      _pdpd with target = out; broadcast_numpy / _none / _pdpd with A = out
//      and B = in): its refusal is returned as is (err filled by the rule), so
//      the backward refuses exactly what the forward refuses;
//   2. either rank unknown -> RANK_MISMATCH, err.detail = -5 (reduction axes
//      not known), err.dim_a / dim_b = the ranks (Dim::dynamic() if unknown);
//   3. the forward result must be `out` exactly: a different rank ->
//      RANK_MISMATCH (dim_a = rank of the forward result, dim_b = rank(out),
//      detail -1); a different dim -> SHAPE_MISMATCH with err.axis = the first
//      such axis, dim_a = the forward result's dim, dim_b = out's (e.g. in [5]
//      against out [?] in bidirectional mode gives [5], not [?]);
//   4. partial shapes: an axis that is summed for some static instances of the
//      shapes and kept for others (input dim ? against output 5: it may be 1
//      or 5) -> INCOMPATIBLE_DIMS with err.detail = -5 (reduction axis not
//      known), err.axis = the lowest such output axis, dim_a = the input dim,
//      dim_b = the output dim, operand_a = 0, operand_b = -1, and
//      err.clash_axes = every such axis. An axis summed in every instance
//      (input 1 against ?, input 0..1 against 5) or kept in every one (input
//      2..4 against 3) is decided.
// On any refusal axes_mask is 0.
Status reduction_axes(const Shape& in, const Shape& out, BroadcastToMode mode, i64 axis, const i64* mapping,
                      int mapping_len, std::uint64_t& axes_mask, Error& err);

// err.detail of the refusals of steps 2 and 4 above.
constexpr int kDetailAxesNotKnown = -5;

}  // namespace tc

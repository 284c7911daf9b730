// Every broadcasting rule of docs/broadcast-rules.md, one function per
// family. Each fills a Plan (or, on refusal, an Error plus a best-effort Plan
// with every clashing axis marked on the operands that take part, and listed
// in Error::clash_axes, so the explorer can still draw the alignment) and
// returns a Status. Nothing here throws, allocates per element, or knows
// about WebAssembly.
#pragma once

#include <vector>

#include "../core/named_plan.hpp"
#include "../core/plan.hpp"
#include "../core/shape.hpp"

namespace tc {

// Checks spec's notation rules: rank within [0, 32] (or unknown), every dim a
// safe integer or a valid interval. `allow_keep`: -1 (Dim::keep) is allowed
// (only in a §5 target). Reports INVALID_SHAPE with detail = offending axis.
Status validate_shape(const Shape& s, int operand, bool allow_keep, Error& err);

// §1 numpy / ONNX multidirectional, n-ary. n == 0 gives [].
Status broadcast_numpy(const Shape* shapes, int n, Plan& plan, Error& err);

// §1 over static shapes in flat form, without a plan (the shape API's common
// call): `words` holds n shapes one after another, each its rank then its dims
// (doubles holding integers, as the wire carries them). When every shape is
// well formed and static and they broadcast, writes the output's dims to `out`
// (room for kMaxRank) and returns its rank. -1, nothing decided, for anything
// else, a clash included: broadcast_numpy answers those, with the error.
int numpy_static_shape(const double* words, size_t n_words, int n, double* out);

// §2 none: identical shapes only.
Status broadcast_none(const Shape& a, const Shape& b, Plan& plan, Error& err);

// §3 pdpd element-wise: B into A at `axis` (-1 = rank(A) - rank(B)); output is A.
Status broadcast_pdpd(const Shape& a, const Shape& b, i64 axis, Plan& plan, Error& err);

// §4.1 + §5 Broadcast mode numpy: input to exactly `target`; a Dim::keep()
// (-1) in the target keeps the input's dim (MindSpore broadcast_to, torch expand).
Status broadcast_to_numpy(const Shape& input, const Shape& target, Plan& plan, Error& err);

// §4.2 Broadcast mode explicit. `mapping_known == false` models a mapping whose
// values are not known yet (a non-constant input in OpenVINO): checks that need
// it are skipped. With a rank unknown, the mapping checks that do not need it
// still run (non-negative, strictly increasing, one entry per input axis).
Status broadcast_to_explicit(const Shape& input, const Shape& target, const i64* mapping,
                             int mapping_len, bool mapping_known, Plan& plan, Error& err);

// §4.3 Broadcast mode bidirectional (Broadcast-3, ONNX Expand).
Status broadcast_to_bidirectional(const Shape& input, const Shape& target, Plan& plan, Error& err);

// §4.4 Broadcast mode pdpd. With dynamic dims the input never widens the target.
Status broadcast_to_pdpd(const Shape& input, const Shape& target, i64 axis, Plan& plan, Error& err);

// §6 named dimensions ------------------------------------------------------

// Broadcast missing dimensions only (tensorics): shared dims are matched by
// name and never stretched; missing ones are inserted. Output order: left's
// dims, then right's new dims. `plan` gets two operands whose src_axis may be
// a permutation (the right operand's dims can come in another order).
Status broadcast_named(const NamedShape& left, const NamedShape& right, Shaping shaping,
                       NamedPlan& named, Plan& plan, Error& err);

}  // namespace tc

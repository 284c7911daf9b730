// rules/reduction_axes.cpp — the backward direction: the output axes a gradient
// is summed over to come back to the input, for every Broadcast mode.
#include <string>
#include <tuple>
#include <vector>

#include "rules/reduction_axes.hpp"
#include "test_util.hpp"

namespace {

using namespace tct;
using tc::BroadcastToMode;

struct Axes {
  Status st = Status::Ok;
  std::uint64_t mask = 0;
  Error err;
  V list() const {
    V v;
    for (int a = 0; a < 64; ++a)
      if (mask >> a & 1u) v.push_back(a);
    return v;
  }
  std::string describe() const { return str(st) + (st == Status::Ok ? "" : " | " + str(err)); }
};

Axes axes(const Shape& in, const Shape& out, BroadcastToMode mode = BroadcastToMode::numpy, i64 axis = -1,
          std::vector<i64> mapping = {}) {
  Axes r;
  r.st = tc::reduction_axes(in, out, mode, axis, mapping.data(), static_cast<int>(mapping.size()), r.mask, r.err);
  return r;
}

Shape numpy_out(const std::vector<Shape>& shapes) {
  Plan p;
  Error e;
  EXPECT_EQ(tc::broadcast_numpy(shapes.data(), static_cast<int>(shapes.size()), p, e), Status::Ok);
  return p.out;
}

// TensorFlow's gradient arguments list every output axis where an operand's
// (1-padded) dim is 1, the axes where the output is 1 too included (summing
// a size-1 axis changes nothing). reduction_axes lists those only where the
// operand lacks the axis, so the expectation drops the axes where the
// operand has a 1 and so does the output.
V tf_expected(const Shape& operand, const Shape& out, const V& tf) {
  V v;
  for (i64 a : tf) {
    const int src = static_cast<int>(a) - (out.rank - operand.rank);
    const bool one_to_one = src >= 0 && operand.dims[src].is(1) && out.dims[a].is(1);
    if (!one_to_one) v.push_back(a);
  }
  return v;
}

// Both operands of a TF binary broadcast, under numpy and bidirectional modes
// (the forward broadcast of each operand to the common shape).
void expect_tf(const Shape& x, const Shape& y, const V& grad_x, const V& grad_y) {
  const Shape out = numpy_out({x, y});
  for (BroadcastToMode mode : {BroadcastToMode::numpy, BroadcastToMode::bidirectional}) {
    const Axes rx = axes(x, out, mode), ry = axes(y, out, mode);
    ASSERT_EQ(rx.st, Status::Ok) << str(x) << " -> " << str(out) << " " << rx.describe();
    ASSERT_EQ(ry.st, Status::Ok) << str(y) << " -> " << str(out) << " " << ry.describe();
    EXPECT_EQ(rx.list(), tf_expected(x, out, grad_x)) << "x " << str(x) << " y " << str(y);
    EXPECT_EQ(ry.list(), tf_expected(y, out, grad_y)) << "x " << str(x) << " y " << str(y);
  }
}

// ---- TensorFlow: tensorflow/python/kernel_tests/array_ops/bcast_ops_test.py ----------------
// (testBasicGradient, testZeroDimsGradient: BroadcastGradientArgs(x, y) -> r0, r1)
TEST(ReductionAxesTF, BcastOpsTestGradientArgs) {
  expect_tf(S({2, 3, 5}), S({1}), {}, {0, 1, 2});
  expect_tf(S({1}), S({2, 3, 5}), {0, 1, 2}, {});
  expect_tf(S({2, 3, 5}), S({5}), {}, {0, 1});
  expect_tf(S({5}), S({2, 3, 5}), {0, 1}, {});
  expect_tf(S({2, 3, 5}), S({3, 5}), {}, {0});
  expect_tf(S({3, 5}), S({2, 3, 5}), {0}, {});
  expect_tf(S({2, 3, 5}), S({3, 1}), {}, {0, 2});
  expect_tf(S({3, 1}), S({2, 3, 5}), {0, 2}, {});
  expect_tf(S({2, 1, 5}), S({3, 1}), {1}, {0, 2});
  expect_tf(S({3, 1}), S({2, 1, 5}), {0, 2}, {1});
  // zero-size dims: a 1 against 0 is summed (to an empty gradient)
  expect_tf(S({2, 0, 3, 0, 5}), S({3, 0, 5}), {}, {0, 1});
  expect_tf(S({3, 0, 5}), S({2, 0, 3, 0, 5}), {0, 1}, {});
  expect_tf(S({2, 0, 3, 0, 5}), S({3, 1, 5}), {}, {0, 1, 3});
  expect_tf(S({3, 1, 5}), S({2, 0, 3, 0, 5}), {0, 1, 3}, {});
}

// ---- TensorFlow: tensorflow/core/util/bcast_test.cc (grad_x_reduce_idx, grad_y_reduce_idx) ---
TEST(ReductionAxesTF, BcastTestReduceIdx) {
  expect_tf(S({11, 7, 5, 3, 2}), S({11, 7, 5, 3, 2}), {}, {});
  expect_tf(S({11, 7, 0, 3, 2}), S({11, 7, 0, 3, 2}), {}, {});
  // scalars and all-1 shapes (TF lists the 1 -> 1 axes; see tf_expected)
  expect_tf(S({1, 1}), S({}), {0, 1}, {0, 1});
  expect_tf(S({1, 1}), S({1}), {0, 1}, {0, 1});
  expect_tf(S({1}), S({1, 1}), {0, 1}, {0, 1});
  expect_tf(S({}), S({}), {}, {});
  expect_tf(S({}), S({1}), {0}, {0});
  expect_tf(S({}), S({1, 1}), {0, 1}, {0, 1});
  expect_tf(S({1}), S({}), {0}, {0});
  // tensor and scalar
  expect_tf(S({11, 7, 5, 3, 2}), S({1}), {}, {0, 1, 2, 3, 4});
  expect_tf(S({1}), S({11, 7, 5, 3, 2}), {0, 1, 2, 3, 4}, {});
  expect_tf(S({1, 2147483648}), S({1}), {0}, {0, 1});
  expect_tf(S({11, 7, 5, 3, 2, 1}), S({1}), {5}, {0, 1, 2, 3, 4, 5});
  expect_tf(S({1}), S({11, 7, 5, 3, 2, 1}), {0, 1, 2, 3, 4, 5}, {5});
  expect_tf(S({11, 7, 5, 1, 1, 3, 2, 1, 1}), S({1}), {3, 4, 7, 8}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  expect_tf(S({1}), S({11, 7, 5, 1, 1, 3, 2, 1, 1}), {0, 1, 2, 3, 4, 5, 6, 7, 8}, {3, 4, 7, 8});
  // tensor and vector / matrix / column / lower-rank tensor
  expect_tf(S({11, 7, 5, 3, 2}), S({2}), {}, {0, 1, 2, 3});
  expect_tf(S({2}), S({11, 7, 5, 3, 2}), {0, 1, 2, 3}, {});
  expect_tf(S({11, 7, 5, 3, 2}), S({3, 2}), {}, {0, 1, 2});
  expect_tf(S({3, 2}), S({11, 7, 5, 3, 2}), {0, 1, 2}, {});
  expect_tf(S({11, 7, 5, 3, 2}), S({3, 1}), {}, {0, 1, 2, 4});
  expect_tf(S({3, 1}), S({11, 7, 5, 3, 2}), {0, 1, 2, 4}, {});
  expect_tf(S({11, 7, 5, 3, 2}), S({7, 5, 1, 1}), {}, {0, 3, 4});
  expect_tf(S({7, 5, 1, 1}), S({11, 7, 5, 3, 2}), {0, 3, 4}, {});
  // both operands stretched
  expect_tf(S({11, 1, 5, 1, 2}), S({7, 1, 3, 1}), {1, 3}, {0, 2, 4});
  // zero-size
  expect_tf(S({2, 0, 5}), S({5}), {}, {0, 1});
  expect_tf(S({5}), S({2, 0, 5}), {0, 1}, {});
  expect_tf(S({2, 0, 3, 0, 5}), S({5}), {}, {0, 1, 2, 3});
  expect_tf(S({5}), S({2, 0, 3, 0, 5}), {0, 1, 2, 3}, {});
  expect_tf(S({2, 0, 3, 0, 5}), S({3, 1, 5}), {}, {0, 1, 3});
  expect_tf(S({3, 1, 5}), S({2, 0, 3, 0, 5}), {0, 1, 3}, {});
}

// bcast_test.cc BCastListTest.Complex_BCast_To_Each_Other: three operands.
TEST(ReductionAxesTF, ThreeOperands) {
  const Shape x = S({11, 1, 1, 1, 2}), y = S({7, 1, 3, 1}), z = S({5, 1, 1});
  const Shape out = numpy_out({x, y, z});
  ASSERT_SHAPE(out, S({11, 7, 5, 3, 2}));
  EXPECT_EQ(axes(x, out).list(), (V{1, 2, 3}));
  EXPECT_EQ(axes(y, out).list(), (V{0, 2, 4}));
  EXPECT_EQ(axes(z, out).list(), (V{0, 1, 3, 4}));
}

// ---- tfjs: tfjs-core/src/ops/broadcast_util_test.ts, getReductionAxes(inShape, outShape) -----
TEST(ReductionAxesTfjs, GetReductionAxes) {
  EXPECT_EQ(axes(S({}), S({})).list(), V{});
  EXPECT_EQ(axes(S({}), S({5, 4})).list(), (V{0, 1}));
  EXPECT_EQ(axes(S({1}), S({5})).list(), (V{0}));
  EXPECT_EQ(axes(S({5, 1}), S({5, 3})).list(), (V{1}));
  EXPECT_EQ(axes(S({1, 3}), S({5, 3})).list(), (V{0}));
  EXPECT_EQ(axes(S({1, 1}), S({5, 3})).list(), (V{0, 1}));
  EXPECT_EQ(axes(S({4, 1, 3}), S({4, 5, 3})).list(), (V{1}));
}

// ---- OpenVINO Broadcast-3 spec (docs/ops/movement/Broadcast_3.md examples and text) ---------
TEST(ReductionAxesOpenVINO, Broadcast3Examples) {
  // numpy: [16, 1, 1] -> [1, 16, 50, 50]
  EXPECT_EQ(axes(S({16, 1, 1}), S({1, 16, 50, 50})).list(), (V{0, 2, 3}));
  // explicit: [16], axes_mapping [1] -> [1, 16, 50, 50] (a new axis of 1 is still summed away)
  EXPECT_EQ(axes(S({16}), S({1, 16, 50, 50}), BroadcastToMode::explicit_, -1, {1}).list(), (V{0, 2, 3}));
  // explicit: [50, 50], axes_mapping [1, 2] -> [1, 50, 50, 16]
  EXPECT_EQ(axes(S({50, 50}), S({1, 50, 50, 16}), BroadcastToMode::explicit_, -1, {1, 2}).list(), (V{0, 3}));
  // bidirectional: [16, 1, 1] with target [1, 1, 50, 50] gave [1, 16, 50, 50]
  EXPECT_EQ(axes(S({16, 1, 1}), S({1, 16, 50, 50}), BroadcastToMode::bidirectional).list(), (V{0, 2, 3}));
  // the text's examples: [C] -> [N, C, H, W] with [1]; [H, W] -> [N, H, W, C] with [1, 2]
  EXPECT_EQ(axes(S({3}), S({2, 3, 4, 5}), BroadcastToMode::explicit_, -1, {1}).list(), (V{0, 2, 3}));
  EXPECT_EQ(axes(S({4, 5}), S({2, 4, 5, 3}), BroadcastToMode::explicit_, -1, {1, 2}).list(), (V{0, 3}));
}

TEST(ReductionAxesOpenVINO, ExplicitMappedOnesAndScalars) {
  // mapped axes stretched from 1 are summed; mapped 1 -> 1 is not
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 3}), BroadcastToMode::explicit_, -1, {1, 2}).list(), (V{0, 2}));
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 1}), BroadcastToMode::explicit_, -1, {1, 2}).list(), (V{0}));
  EXPECT_EQ(axes(S({1}), S({0, 2}), BroadcastToMode::explicit_, -1, {0}).list(), (V{0, 1})) << "1 -> 0";
  EXPECT_EQ(axes(S({3}), S({3, 4}), BroadcastToMode::explicit_, -1, {0}).list(), (V{1}));
  // a scalar: empty mapping sums everything; a one-entry mapping reads it as [1]
  EXPECT_EQ(axes(S({}), S({2, 3}), BroadcastToMode::explicit_, -1, {}).list(), (V{0, 1}));
  EXPECT_EQ(axes(S({}), S({1, 3}), BroadcastToMode::explicit_, -1, {0}).list(), (V{1}));
  EXPECT_EQ(axes(S({}), S({2, 3}), BroadcastToMode::explicit_, -1, {0}).list(), (V{0, 1}));
}

// OpenVINO broadcast rules (docs/ops/broadcast_rules.md, "PDPD examples"): A the
// output, B the input placed at `axis`; the gradient of B. reduction_axes
// follows the Broadcast op's pdpd mode (spec §4.4: the input placed from
// `axis`, inside the target; an input 1 takes the target dim), and every one of
// these element-wise examples fits that placement too, so each is accepted
// forward (checked first) and its axes are the same as under the element-wise
// rule.
TEST(ReductionAxesOpenVINO, PdpdExamples) {
  const Shape a = S({2, 3, 4, 5});
  auto forward_ok = [](const Shape& in, const Shape& out, i64 axis) {
    Plan p;
    Error e;
    const Status st = tc::broadcast_to_pdpd(in, out, axis, p, e);
    EXPECT_EQ(st, Status::Ok) << str(in) << " at " << axis << " of " << str(out) << " " << str(e);
    if (st == Status::Ok) EXPECT_SHAPE(p.out, out);
  };
  // [3, 4] at axes 1, 2: 3 = 3, 4 = 4
  forward_ok(S({3, 4}), a, 1);
  EXPECT_EQ(axes(S({3, 4}), a, BroadcastToMode::pdpd, 1).list(), (V{0, 3}));
  // [3, 1] at axes 1, 2 (1 + 2 <= 4: it fits): 3 = 3, the 1 takes 4
  forward_ok(S({3, 1}), a, 1);
  EXPECT_EQ(axes(S({3, 1}), a, BroadcastToMode::pdpd, 1).list(), (V{0, 2, 3})) << "the trailing 1 is stretched";
  // [4, 5] at axes 2, 3 (default: 4 - 2)
  forward_ok(S({4, 5}), a, -1);
  forward_ok(S({4, 5}), a, 2);
  EXPECT_EQ(axes(S({4, 5}), a, BroadcastToMode::pdpd, -1).list(), (V{0, 1}));
  EXPECT_EQ(axes(S({4, 5}), a, BroadcastToMode::pdpd, 2).list(), (V{0, 1}));
  // [1, 3] at axes 0, 1: the 1 takes 2, 3 = 3
  forward_ok(S({1, 3}), a, 0);
  EXPECT_EQ(axes(S({1, 3}), a, BroadcastToMode::pdpd, 0).list(), (V{0, 2, 3}));
  // [] at axis 4 (default: 4 - 0), [5] at axis 3 (default: 4 - 1)
  forward_ok(S({}), a, -1);
  forward_ok(S({5}), a, -1);
  EXPECT_EQ(axes(S({}), a, BroadcastToMode::pdpd, -1).list(), (V{0, 1, 2, 3}));
  EXPECT_EQ(axes(S({5}), a, BroadcastToMode::pdpd, -1).list(), (V{0, 1, 2}));
  // the Broadcast op's pdpd mode (spec §4.4): [3, 1] at axis 1 of [2, 3, 6]
  forward_ok(S({3, 1}), S({2, 3, 6}), 1);
  forward_ok(S({3, 1}), S({2, 3, 6}), -1);
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 6}), BroadcastToMode::pdpd, 1).list(), (V{0, 2}));
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 6}), BroadcastToMode::pdpd, -1).list(), (V{0, 2})) << "default 3 - 2";
}

// Backward mirrors forward: where the Broadcast op's pdpd mode refuses to place
// the input (RANK_MISMATCH: it does not fit inside the target from `axis`),
// reduction_axes refuses with the very same error, even where the element-wise
// pdpd rule would accept the input as B against A = out (it drops B's trailing
// 1s, which may then hang past A's end). There is no element-wise fallback.
TEST(ReductionAxesPdpd, RefusesWhatTheForwardRefuses) {
  struct Case {
    Shape in, out;
    i64 axis;
    bool elementwise_accepts;  // broadcast_pdpd(out, in, axis): the old fallback
  };
  const std::vector<Case> cases = {
      {S({4, 1}), S({2, 3, 4}), 2, true},     // 2 + 2 > 3; element-wise trims to [4] at axis 2
      {S({3, 1}), S({2, 3}), 1, true},        // 1 + 2 > 2; element-wise trims to [3] at axis 1
      {S({3, 1, 1}), S({2, 3}), 1, true},     // PaddlePaddle's own example (spec §3.3)
      {S({1}), S({2, 3}), 2, true},           // 2 + 1 > 2; element-wise trims to [] at axis 2
      {S({3, 2}), S({2, 3, 4}), 2, false},    // neither placement works
      {S({1, 2, 3}), S({2, 3}), -1, false},   // default axis 2 - 3 < 0
      {S({2, 3, 1}), S({2, 3}), -1, false},   // default axis 2 - 3 < 0 (trailing 1 counted, §3.1)
  };
  for (const Case& c : cases) {
    const std::string what = str(c.in) + " at " + std::to_string(c.axis) + " of " + str(c.out);
    Plan p;
    Error fe;
    const Status fs = tc::broadcast_to_pdpd(c.in, c.out, c.axis, p, fe);
    ASSERT_EQ(fs, Status::RankMismatch) << what << " " << str(fe);
    Plan ep;
    Error ee;
    EXPECT_EQ(tc::broadcast_pdpd(c.out, c.in, c.axis, ep, ee) == Status::Ok, c.elementwise_accepts) << what;

    const Axes r = axes(c.in, c.out, BroadcastToMode::pdpd, c.axis);
    EXPECT_EQ(r.st, fs) << what << " " << r.describe();
    EXPECT_EQ(r.mask, 0u) << what;
    EXPECT_EQ(r.err.code, fe.code) << what;
    EXPECT_EQ(r.err.axis, fe.axis) << what;
    EXPECT_EQ(r.err.operand_a, fe.operand_a) << what;
    EXPECT_EQ(r.err.operand_b, fe.operand_b) << what;
    EXPECT_DIM(r.err.dim_a, fe.dim_a);
    EXPECT_DIM(r.err.dim_b, fe.dim_b);
    EXPECT_EQ(r.err.detail, fe.detail) << what;
    EXPECT_EQ(r.err.clash_axes, fe.clash_axes) << what;
    // what broadcast_to_pdpd says: the ranks, and the start (-1: the default was negative)
    EXPECT_EQ(r.err.axis, -1) << what;
    EXPECT_DIM(r.err.dim_a, D(c.in.rank));
    EXPECT_DIM(r.err.dim_b, D(c.out.rank));
    EXPECT_EQ(r.err.detail, c.axis == -1 ? -1 : c.axis) << what;
  }
}

// The element-wise rules' B (elementwise_pdpd / elementwise_none): the forward
// is broadcast_pdpd / broadcast_none with A = out, and their refusals are
// returned as they are. Where the Broadcast op's pdpd refuses a B whose
// trailing 1s hang past A's end, the element-wise rule takes it back.
TEST(ReductionAxesElementwise, PdpdOfBMirrorsTheElementwiseRule) {
  EXPECT_EQ(axes(S({3, 1}), S({2, 3}), BroadcastToMode::elementwise_pdpd, 1).list(), (V{0}));
  EXPECT_EQ(axes(S({4, 1}), S({2, 3, 4}), BroadcastToMode::elementwise_pdpd, 2).list(), (V{0, 1}));
  EXPECT_EQ(axes(S({3, 1, 1}), S({2, 3}), BroadcastToMode::elementwise_pdpd, 1).list(), (V{0}));
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 4, 5}), BroadcastToMode::elementwise_pdpd, 1).list(), (V{0, 2, 3}));
  EXPECT_EQ(axes(S({}), S({2, 3}), BroadcastToMode::elementwise_pdpd, -1).list(), (V{0, 1}));
  for (const auto& [in, out, axis] : std::vector<std::tuple<Shape, Shape, i64>>{
           {S({3, 2}), S({2, 3, 4}), 2}, {S({5}), S({2, 3}), -1}, {S({3}), S({2, 3}), 7}, {S({2, 3, 4}), S({3, 4}), -1}}) {
    Plan p;
    Error fe;
    const Status fs = tc::broadcast_pdpd(out, in, axis, p, fe);
    ASSERT_NE(fs, Status::Ok) << str(in) << " at " << axis << " of " << str(out);
    const Axes r = axes(in, out, BroadcastToMode::elementwise_pdpd, axis);
    EXPECT_EQ(r.st, fs);
    EXPECT_EQ(r.err.axis, fe.axis);
    EXPECT_EQ(r.err.detail, fe.detail);
    EXPECT_DIM(r.err.dim_a, fe.dim_a);
    EXPECT_DIM(r.err.dim_b, fe.dim_b);
  }
}

TEST(ReductionAxesElementwise, NumpyOfBReportsTheElementwiseOperandOrder) {
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 5}), BroadcastToMode::elementwise_numpy).list(), (V{0, 2}));
  // The refusal is the element-wise call's: A (the output) is operand 0, B operand 1.
  const Axes r = axes(S({2, 1, 1, 1}), S({2, 0, 2, 2, 1}), BroadcastToMode::elementwise_numpy);
  EXPECT_EQ(r.st, Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 1);
  EXPECT_DIM(r.err.dim_a, D(0));
  EXPECT_DIM(r.err.dim_b, D(2));
  // B wider than A: the element-wise result is not the output.
  EXPECT_EQ(axes(S({2, 3}), S({3}), BroadcastToMode::elementwise_numpy).st, Status::RankMismatch);
}

TEST(ReductionAxesElementwise, NoneTakesBackOnlyTheSameShape) {
  EXPECT_EQ(axes(S({2, 3}), S({2, 3}), BroadcastToMode::elementwise_none).list(), V{});
  Plan p;
  Error fe;
  ASSERT_EQ(tc::broadcast_none(S({2, 3}), S({1, 3}), p, fe), Status::ShapeMismatch);
  const Axes r = axes(S({1, 3}), S({2, 3}), BroadcastToMode::elementwise_none);
  EXPECT_EQ(r.st, Status::ShapeMismatch);
  EXPECT_EQ(r.err.axis, fe.axis);
}

// Rule none stretches nothing, so a '?' or an interval that may be 1 is never
// "maybe summed" (until 0.9.19 refused as not known).
TEST(ReductionAxesElementwise, NoneSumsNoAxisOfAPartialShape) {
  for (const auto& [in, out] : std::vector<std::pair<Shape, Shape>>{
           {P({Q}), P({Q})}, {P({I(1, 5)}), P({I(1, 5)})}, {P({I(0, 5), D(3)}), P({I(0, 5), D(3)})}, {P({Q, D(1)}), P({D(4), D(1)})}}) {
    const Axes r = axes(in, out, BroadcastToMode::elementwise_none);
    EXPECT_EQ(r.st, Status::Ok) << str(in) << " to " << str(out);
    EXPECT_EQ(r.list(), V{}) << str(in) << " to " << str(out);
  }
  // What rule none refuses is still refused.
  EXPECT_NE(axes(P({I(1, 2)}), P({D(3)}), BroadcastToMode::elementwise_none).st, Status::Ok);
}

TEST(ReductionAxesOpenVINO, BidirectionalExamples) {
  // docs/ops/broadcast_rules.md "Bidirectional examples": input A, target B, result
  EXPECT_EQ(axes(S({5}), S({5}), BroadcastToMode::bidirectional).list(), V{});
  EXPECT_EQ(axes(S({2, 3}), S({2, 3}), BroadcastToMode::bidirectional).list(), V{});
  EXPECT_EQ(axes(S({3, 1}), S({3, 4}), BroadcastToMode::bidirectional).list(), (V{1}));
  EXPECT_EQ(axes(S({3, 4}), S({3, 4}), BroadcastToMode::bidirectional).list(), V{});
  EXPECT_EQ(axes(S({3, 1}), S({2, 3, 6}), BroadcastToMode::bidirectional).list(), (V{0, 2}));
}

// ---- refusals -------------------------------------------------------------------------------
TEST(ReductionAxesRefusals, ForwardRefusalsComeThroughAsIs) {
  const Axes c = axes(S({3}), S({4}));
  EXPECT_EQ(c.st, Status::IncompatibleDims);
  EXPECT_EQ(c.err.axis, 0);
  EXPECT_NE(c.err.detail, tc::kDetailAxesNotKnown);
  EXPECT_EQ(c.mask, 0u);
  EXPECT_EQ(axes(S({2, 3}), S({3})).st, Status::RankMismatch);
  EXPECT_EQ(axes(S({2, 2}), S({2, 2, 2}), BroadcastToMode::explicit_, -1, {1, 1}).st, Status::InvalidAxesMapping);
  EXPECT_EQ(axes(S({3}), S({2, 3}), BroadcastToMode::explicit_, -1, {}).st, Status::InvalidAxesMapping);
  EXPECT_EQ(axes(S({3}), S({2, 3, 6}), BroadcastToMode::pdpd, 4).st, Status::InvalidAxis);
  EXPECT_EQ(axes(S({4}), S({2, 3}), BroadcastToMode::bidirectional).st, Status::IncompatibleDims);
  EXPECT_EQ(axes(S({-2}), S({3})).st, Status::InvalidShape);
}

TEST(ReductionAxesRefusals, OutMustBeTheForwardResult) {
  // bidirectional: [2, 1] against [1, 4] gives [2, 4], not [1, 4]
  const Axes r = axes(S({2, 1}), S({1, 4}), BroadcastToMode::bidirectional);
  ASSERT_EQ(r.st, Status::ShapeMismatch) << r.describe();
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_DIM(r.err.dim_a, D(2));
  EXPECT_DIM(r.err.dim_b, D(1));
  // bidirectional: an input of higher rank than out
  const Axes k = axes(S({2, 3}), S({3}), BroadcastToMode::bidirectional);
  ASSERT_EQ(k.st, Status::RankMismatch);
  EXPECT_DIM(k.err.dim_a, D(2));
  EXPECT_DIM(k.err.dim_b, D(1));
  // pdpd: a target 1 takes the input's dim, so out cannot keep it
  EXPECT_EQ(axes(S({3}), S({2, 1}), BroadcastToMode::pdpd, 1).st, Status::ShapeMismatch);
  // numpy: a -1 in out is a target, not a result
  EXPECT_EQ(axes(S({3}), S({2, -1})).st, Status::ShapeMismatch);
  // partial: [5] in bidirectional mode gives [5], never [?]
  EXPECT_EQ(axes(S({5}), P({Q}), BroadcastToMode::bidirectional).st, Status::ShapeMismatch);
}

TEST(ReductionAxesPartial, UnknownRanksAreRefused) {
  for (BroadcastToMode mode : {BroadcastToMode::numpy, BroadcastToMode::bidirectional, BroadcastToMode::pdpd}) {
    const Axes a = axes(U(), S({2, 3}), mode, 0);
    ASSERT_EQ(a.st, Status::RankMismatch) << static_cast<int>(mode) << " " << a.describe();
    EXPECT_EQ(a.err.detail, tc::kDetailAxesNotKnown);
    EXPECT_DIM(a.err.dim_a, Q);
    EXPECT_DIM(a.err.dim_b, D(2));
    const Axes b = axes(S({2}), U(), mode, 0);
    ASSERT_EQ(b.st, Status::RankMismatch) << static_cast<int>(mode) << " " << b.describe();
    EXPECT_EQ(b.err.detail, tc::kDetailAxesNotKnown);
  }
  const Axes e = axes(U(), S({2, 3}), BroadcastToMode::explicit_, -1, {1});
  EXPECT_EQ(e.st, Status::RankMismatch);
  EXPECT_EQ(e.err.detail, tc::kDetailAxesNotKnown);
}

TEST(ReductionAxesPartial, AnAxisThatMayOrMayNotBeSummedIsRefused) {
  const Axes r = axes(P({Q}), S({5}));
  ASSERT_EQ(r.st, Status::IncompatibleDims) << r.describe();
  EXPECT_EQ(r.err.detail, tc::kDetailAxesNotKnown);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_DIM(r.err.dim_a, Q);
  EXPECT_DIM(r.err.dim_b, D(5));
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, -1);
  EXPECT_EQ(r.mask, 0u);
  // every such axis in clash_axes, the lowest named
  const Axes m = axes(P({D(2), Q, D(3), I(1, 4)}), P({D(7), D(2), D(6), D(3), D(4)}));
  ASSERT_EQ(m.st, Status::IncompatibleDims) << m.describe();
  EXPECT_EQ(m.err.axis, 2);
  EXPECT_EQ(m.err.clash_axes, (std::uint64_t{1} << 2) | (std::uint64_t{1} << 4));
  // both sides dynamic
  EXPECT_EQ(axes(P({Q, D(3)}), P({Q, D(3)})).st, Status::IncompatibleDims);
  // explicit and pdpd go through the same test
  EXPECT_EQ(axes(P({Q}), S({2, 5}), BroadcastToMode::explicit_, -1, {1}).err.axis, 1);
  EXPECT_EQ(axes(P({Q}), S({2, 5, 4}), BroadcastToMode::pdpd, 1).err.axis, 1);
  EXPECT_EQ(axes(P({Q, D(4)}), P({D(5), D(4)}), BroadcastToMode::bidirectional).err.detail,
            tc::kDetailAxesNotKnown);
}

TEST(ReductionAxesPartial, DecidedAxesOfPartialShapes) {
  // input 1: summed whatever the output is (or a no-op where it is 1)
  EXPECT_EQ(axes(S({1, 3}), P({Q, D(3)})).list(), (V{0}));
  EXPECT_EQ(axes(S({1}), P({I(0, 4)})).list(), (V{0}));
  // input 0..1 against 5: it can only be 1
  EXPECT_EQ(axes(P({I(0, 1)}), S({5})).list(), (V{0}));
  // input 2..4 against 3, or against 2..8: never 1, so never summed
  EXPECT_EQ(axes(P({I(2, 4)}), S({3})).list(), V{});
  EXPECT_EQ(axes(P({I(2, 4)}), P({I(2, 8)})).list(), V{});
  // any input against an output of 1 (it must be 1 there)
  EXPECT_EQ(axes(P({Q, D(4)}), S({1, 4})).list(), V{});
  // new axes are summed even when dynamic
  EXPECT_EQ(axes(S({4}), P({Q, D(4)})).list(), (V{0}));
  // explicit: unmapped axes whatever their dims
  EXPECT_EQ(axes(P({D(3)}), P({Q, D(3), Q}), BroadcastToMode::explicit_, -1, {1}).list(), (V{0, 2}));
}

// Every static case against the definition, over random shapes and modes.
TEST(ReductionAxesProperty, RandomStaticShapesMatchTheDefinition) {
  unsigned seed = 7;
  auto rnd = [&](unsigned n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
  };
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int out_rank = static_cast<int>(rnd(6));
    Shape out;
    for (int i = 0; i < out_rank; ++i) out.push(D(static_cast<i64>(rnd(4))));
    const int in_rank = static_cast<int>(rnd(static_cast<unsigned>(out_rank) + 1));
    const int start = static_cast<int>(rnd(static_cast<unsigned>(out_rank - in_rank) + 1));
    const int mode = static_cast<int>(rnd(3));  // numpy, explicit (contiguous mapping), pdpd
    const int offset = mode == 0 ? out_rank - in_rank : start;
    Shape in;
    std::vector<i64> mapping;
    for (int i = 0; i < in_rank; ++i) {
      in.push(rnd(3) == 0 ? D(1) : out.dims[offset + i]);
      mapping.push_back(offset + i);
    }
    const BroadcastToMode m =
        mode == 0 ? BroadcastToMode::numpy : mode == 1 ? BroadcastToMode::explicit_ : BroadcastToMode::pdpd;
    const Axes r = axes(in, out, m, offset, mapping);
    ASSERT_EQ(r.st, Status::Ok) << str(in) << " -> " << str(out) << " mode " << mode << " " << r.describe();
    V want;
    for (int a = 0; a < out_rank; ++a) {
      const int src = a - offset;
      const bool present = src >= 0 && src < in_rank;
      if (!present || (in.dims[src].is(1) && !out.dims[a].is(1))) want.push_back(a);
    }
    ASSERT_EQ(r.list(), want) << str(in) << " -> " << str(out) << " mode " << mode;
    ++checked;
  }
  EXPECT_EQ(checked, 2000);
}

}  // namespace

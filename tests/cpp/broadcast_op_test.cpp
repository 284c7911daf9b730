// rules/broadcast_op.cpp — spec §4 (Broadcast: data to a target shape) and §5 (-1 targets).
#include "test_util.hpp"

namespace {

using namespace tct;

// ---- §4.1 mode numpy ----------------------------------------------------------
TEST(ToNumpy, OutputIsExactlyTheTarget) {
  const R r = to_numpy(S({3, 1}), S({2, 3, 6}));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({2, 3, 6}));
  EXPECT_EQ(r.plan.ops.size(), 1u) << "one operand: the input";
  EXPECT_EQ(r.strides(0), (V{0, 1, 0}));
  EXPECT_EQ(r.verdicts(0), (std::vector<Verdict>{Verdict::New, Verdict::Equal, Verdict::Stretched}));
  EXPECT_SHAPE(to_numpy(S({16, 1, 1}), S({1, 16, 50, 50})).out(), S({1, 16, 50, 50}));
  EXPECT_SHAPE(to_numpy(S({}), S({2, 2})).out(), S({2, 2}));
  EXPECT_SHAPE(to_numpy(S({2, 3}), S({2, 3})).out(), S({2, 3}));
}

TEST(ToNumpy, ZeroSizes) {
  EXPECT_SHAPE(to_numpy(S({1}), S({0})).out(), S({0})) << "1 -> 0 is allowed";
  EXPECT_SHAPE(to_numpy(S({1, 2}), S({0, 2})).out(), S({0, 2}));
  const R e = to_numpy(S({}), S({0}));
  ASSERT_TRUE(e.ok()) << "§5: [] -> [0] gives [0] (MindSpore's code refuses, its docs do not)";
  EXPECT_SHAPE(e.out(), S({0}));
  EXPECT_EQ(e.plan.out_size, 0);
  const R z = to_numpy(S({0}), S({1}));
  ASSERT_EQ(z.code(), Status::IncompatibleDims) << "0 -> 1 is an error";
  EXPECT_DIM(z.err.dim_a, D(0));
  EXPECT_DIM(z.err.dim_b, D(1));
  EXPECT_EQ(to_numpy(S({0}), S({5})).code(), Status::IncompatibleDims);
}

TEST(ToNumpy, NoShrinking) {
  const R r = to_numpy(S({3}), S({1}));
  ASSERT_EQ(r.code(), Status::IncompatibleDims) << "3 -> 1 is an error";
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, -1) << "-1: the target";
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(1));
  const R s = to_numpy(S({3}), S({4}));
  ASSERT_EQ(s.code(), Status::IncompatibleDims);
  EXPECT_DIM(s.err.dim_a, D(3));
  EXPECT_DIM(s.err.dim_b, D(4));
  // The error axis is the output axis.
  const R t = to_numpy(S({2, 1}), S({5, 3, 3}));
  ASSERT_EQ(t.code(), Status::IncompatibleDims);
  EXPECT_EQ(t.err.axis, 1);
}

TEST(ToNumpy, SmallerTargetRank) {
  const R r = to_numpy(S({5, 2, 3, 1}), S({4, 3, 6}));
  ASSERT_EQ(r.code(), Status::RankMismatch);
  EXPECT_DIM(r.err.dim_a, D(4)) << "ranks are reported";
  EXPECT_DIM(r.err.dim_b, D(3));
  EXPECT_EQ(to_numpy(S({1, 1}), S({1})).code(), Status::RankMismatch);
  EXPECT_EQ(to_numpy(S({0}), S({})).code(), Status::RankMismatch);
}

// ---- §5 -1 in the target -----------------------------------------------------------
TEST(ToNumpyMinusOne, KeepsTheInputDim) {
  EXPECT_SHAPE(to_numpy(S({2, 1}), S({-1, 2})).out(), S({2, 2}));
  EXPECT_SHAPE(to_numpy(S({3, 1, 5, 1}), S({-1, -1, 5, 6})).out(), S({3, 1, 5, 6})) << "even a 1 is kept";
  EXPECT_SHAPE(to_numpy(S({3, 1, 5, 1}), S({-1, 4, 5, 6})).out(), S({3, 4, 5, 6}));
  EXPECT_SHAPE(to_numpy(S({1, 8, 1}), S({4, -1, 5})).out(), S({4, 8, 5}));
  EXPECT_SHAPE(to_numpy(S({1}), S({-1})).out(), S({1}));
  EXPECT_SHAPE(to_numpy(S({0, 2}), S({-1, 2})).out(), S({0, 2}));
  const R r = to_numpy(S({2, 1}), S({-1, 2}));
  EXPECT_TRUE(r.plan.is_static);
  EXPECT_EQ(r.strides(0), (V{1, 0}));
}

TEST(ToNumpyMinusOne, MinusOneInANewAxis) {
  const R r = to_numpy(S({1, 5, 9}), S({3, -1, 4, 1, 5, 9}));
  ASSERT_EQ(r.code(), Status::MinusOneInNewAxis);
  EXPECT_EQ(r.err.axis, 1);
  const R s = to_numpy(S({4, 5}), S({2, -1, 4, 5}));
  ASSERT_EQ(s.code(), Status::MinusOneInNewAxis);
  EXPECT_EQ(s.err.axis, 1);
  EXPECT_EQ(to_numpy(S({4, 5}), S({-1, 1, -1, -1})).code(), Status::MinusOneInNewAxis);
  EXPECT_EQ(to_numpy(S({}), S({-1})).code(), Status::MinusOneInNewAxis);
}

TEST(ToNumpyMinusOne, OtherNegativesAreInvalidShapes) {
  const R r = to_numpy(S({2}), S({-2}));
  ASSERT_EQ(r.code(), Status::InvalidShape);
  EXPECT_EQ(r.err.operand_a, 1) << "the target";
  EXPECT_EQ(r.err.detail, 0);
  EXPECT_EQ(to_numpy(S({-1}), S({2})).code(), Status::InvalidShape) << "-1 is never allowed in the input";
}

TEST(ToNumpyDynamic, NoCheckWhenEitherSideIsDynamic) {
  EXPECT_SHAPE(to_numpy(P({D(2), Q, Q}), S({1, 2, 3, 4})).out(), S({1, 2, 3, 4}));
  EXPECT_SHAPE(to_numpy(P({I(4, 8), I(2, 4)}), P({D(1), I(5, 6)})).out(), P({D(1), I(5, 6)}));
  const R r = to_numpy(P({Q, Q, Q, D(888)}), S({1, 2, 3, 4}));
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 3);
  EXPECT_EQ(to_numpy(P({D(5), Q, Q, Q}), S({1, 2, 3, 4})).code(), Status::IncompatibleDims);
}

TEST(ToNumpyDynamic, UnknownRanks) {
  EXPECT_FALSE(to_numpy(S({3}), U()).out().rank_known());
  EXPECT_SHAPE(to_numpy(U(), S({2, 3})).out(), S({2, 3}));
  EXPECT_SHAPE(to_numpy(U(), S({-1, 3})).out(), P({Q, D(3)})) << "an unknown input dim behind -1";
  EXPECT_SHAPE(to_numpy(P({I(2, 4)}), S({-1})).out(), P({I(2, 4)}));
}

// ---- §4.2 mode explicit ------------------------------------------------------------
TEST(ToExplicit, SpecExamples) {
  const R r = to_explicit(S({16}), S({1, 16, 50, 50}), {1});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({1, 16, 50, 50}));
  EXPECT_EQ(r.strides(0), (V{0, 1, 0, 0}));
  const R s = to_explicit(S({3, 1}), S({2, 3, 3}), {1, 2});
  ASSERT_TRUE(s.ok()) << "the 1 stretches";
  EXPECT_EQ(s.verdicts(0), (std::vector<Verdict>{Verdict::New, Verdict::Equal, Verdict::Stretched}));
  EXPECT_SHAPE(to_explicit(S({3, 5}), S({2, 3, 4, 5}), {1, 3}).out(), S({2, 3, 4, 5}));
  const R col = to_explicit(S({3}), S({3, 4}), {0});
  ASSERT_TRUE(col.ok());
  EXPECT_EQ(col.strides(0), (V{1, 0}));
}

TEST(ToExplicit, DimClash) {
  const R r = to_explicit(S({3, 2}), S({2, 3, 3}), {1, 2});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 2) << "the output axis";
  EXPECT_EQ(r.err.detail, 1) << "the input axis";
  EXPECT_DIM(r.err.dim_a, D(2));
  EXPECT_DIM(r.err.dim_b, D(3));
  EXPECT_EQ(to_explicit(S({0}), S({1, 2}), {0}).code(), Status::IncompatibleDims) << "0 -> 1";
  EXPECT_TRUE(to_explicit(S({1}), S({0, 2}), {0}).ok()) << "1 -> 0";
}

// Decision §4.2: duplicates and transposes are refused (OpenVINO lets duplicates through).
TEST(ToExplicit, MappingMustBeStrictlyIncreasingAndInRange) {
  const R dup = to_explicit(S({2, 2}), S({2, 2, 2}), {1, 1});
  ASSERT_EQ(dup.code(), Status::InvalidAxesMapping);
  EXPECT_EQ(dup.err.detail, 1) << "mapping index";
  const R uns = to_explicit(S({2, 3}), S({3, 2, 4}), {1, 0});
  ASSERT_EQ(uns.code(), Status::InvalidAxesMapping);
  EXPECT_EQ(uns.err.detail, 1);
  const R out = to_explicit(S({3, 1}), S({2, 3, 1}), {1, 3});
  ASSERT_EQ(out.code(), Status::InvalidAxesMapping) << "3 exceeds target rank 3";
  EXPECT_EQ(out.err.detail, 1);
  EXPECT_EQ(out.err.axis, -1);
  EXPECT_EQ(to_explicit(S({3}), S({3, 4}), {-1}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({3}), S({3, 4}), {INT64_MAX}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({3}), S({3, 4}), {INT64_MIN}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({3, 4}), S({3, 4}), {0}).code(), Status::InvalidAxesMapping) << "length != rank";
  EXPECT_EQ(to_explicit(S({3}), S({3, 4}), {0, 1}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({2, 3}), S({3}), {0, 1}).code(), Status::InvalidAxesMapping)
      << "an input that out-ranks the target cannot be mapped";
}

// §4.2: a scalar takes an empty mapping, or a one-entry one (as OpenVINO does).
TEST(ToExplicit, ScalarInput) {
  const R e = to_explicit(S({}), S({2, 3}), {});
  ASSERT_TRUE(e.ok()) << e.describe();
  EXPECT_SHAPE(e.out(), S({2, 3}));
  EXPECT_EQ(e.strides(0), (V{0, 0}));
  const R one = to_explicit(S({}), S({1, 2}), {0});
  ASSERT_TRUE(one.ok()) << one.describe();
  EXPECT_SHAPE(one.out(), S({1, 2}));
  EXPECT_EQ(one.op(0).src_axis[0], -1) << "the scalar has no axis to feed it";
  EXPECT_TRUE(to_explicit(S({}), S({2, 3}), {1}).ok());
  EXPECT_EQ(to_explicit(S({}), S({2, 3}), {2}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({}), S({2, 3}), {0, 1}).code(), Status::InvalidAxesMapping);
  EXPECT_SHAPE(to_explicit(S({}), S({}), {}).out(), S({}));
}

TEST(ToExplicit, MinusOneIsNotATargetHere) {
  EXPECT_EQ(to_explicit(S({3}), S({-1, 3}), {1}).code(), Status::InvalidShape);
}

TEST(ToExplicitDynamic, UnknownMappingOrRanks) {
  EXPECT_SHAPE(to_explicit(S({4}), S({1, 4, 2, 3}), {}, false).out(), S({1, 4, 2, 3}));
  EXPECT_SHAPE(to_explicit(U(), S({1, 2, 3}), {}, false).out(), S({1, 2, 3}));
  EXPECT_SHAPE(to_explicit(U(), S({1, 2, 3}), {0, 1}).out(), S({1, 2, 3})) << "the length check waits for the input rank";
  // OpenVINO type_prop/broadcast.cpp broadcast_explicit_input_rank_static lets
  // unsorted axes through while the target is unknown; strict increase needs
  // no rank, so it is checked here (the golden case carries a contract_note).
  const R unsorted = to_explicit(P({Q, Q, Q}), U(), {0, 2, 1});
  EXPECT_EQ(unsorted.code(), Status::InvalidAxesMapping);
  EXPECT_FALSE(unsorted.out().rank_known()) << "the refused plan still has the target's (unknown) rank";
  const Shape target = P({D(2), Q, I(6, 8), Q, D(5)});
  EXPECT_SHAPE(to_explicit(P({D(2), I(6, 8), Q}), target, {0, 2, 3}).out(), target);
  EXPECT_EQ(to_explicit(P({D(3), Q}), P({D(2), Q}), {0, 1}).code(), Status::IncompatibleDims);
}

// An interval dim is refused when it can be neither 1 nor the target's dim
// (OpenVINO validate_target_shape_none: target.compatible(in) || in.compatible(1)).
// Until 0.9.16 only two static dims were compared.
TEST(ToExplicitDynamic, IntervalsThatCannotMeet) {
  EXPECT_EQ(to_explicit(S({2}), P({I(3, 5)}), {0}).code(), Status::IncompatibleDims);
  EXPECT_EQ(to_explicit(P({From(4)}), S({1}), {0}).code(), Status::IncompatibleDims);
  EXPECT_EQ(to_explicit(S({0}), P({I(1, 3)}), {0}).code(), Status::IncompatibleDims);
  EXPECT_EQ(to_explicit(P({I(2, 3)}), P({From(4)}), {0}).code(), Status::IncompatibleDims);
  const R r = to_explicit(S({16}), P({D(1), I(17, 20), D(50)}), {1});
  EXPECT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 1);
  // May meet: an input that may be 1, intervals that overlap, an unknown on either side.
  const Shape t = P({I(3, 5)});
  EXPECT_SHAPE(to_explicit(P({I(2, 4)}), t, {0}).out(), t);
  EXPECT_SHAPE(to_explicit(P({I(0, 4)}), S({7}), {0}).out(), S({7}));
  EXPECT_SHAPE(to_explicit(P({Q}), S({7}), {0}).out(), S({7}));
  EXPECT_SHAPE(to_explicit(S({3}), P({Q}), {0}).out(), P({Q}));
}

// ---- §4.3 mode bidirectional ---------------------------------------------------------
TEST(ToBidirectional, SpecExamples) {
  EXPECT_SHAPE(to_bidirectional(S({3, 1}), S({2, 1, 6})).out(), S({2, 3, 6}));
  EXPECT_SHAPE(to_bidirectional(S({1, 3, 1}), S({3, 1})).out(), S({1, 3, 1})) << "target may have lower rank";
  EXPECT_SHAPE(to_bidirectional(S({5}), S({1})).out(), S({5})) << "a 1 in the target yields";
  EXPECT_SHAPE(to_bidirectional(S({1, 3, 1}), S({3, 1, 3})).out(), S({3, 3, 3}));
  const R r = to_bidirectional(S({2, 1}), S({2, 4}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.ops.size(), 1u) << "only the input is planned";
  EXPECT_EQ(r.strides(0), (V{1, 0}));
  EXPECT_EQ(r.plan.loop.strides.size(), 1u);
}

TEST(ToBidirectional, ErrorReportsInputThenTarget) {
  const R r = to_bidirectional(S({4, 3, 2}), S({8, 6, 4}));
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 2);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, -1) << "the target";
  EXPECT_DIM(r.err.dim_a, D(2)) << "the input's dim";
  EXPECT_DIM(r.err.dim_b, D(4)) << "the target's dim";
  EXPECT_EQ(r.op(0).verdict[2], Verdict::Clash);
  const R s = to_bidirectional(S({1, 1, 2}), S({2, 3}));
  ASSERT_EQ(s.code(), Status::IncompatibleDims);
  EXPECT_DIM(s.err.dim_a, D(2));
  EXPECT_DIM(s.err.dim_b, D(3));
  EXPECT_EQ(to_bidirectional(S({0}), S({5})).code(), Status::IncompatibleDims);
  EXPECT_SHAPE(to_bidirectional(S({0}), S({1})).out(), S({0}));
}

TEST(ToBidirectionalDynamic, RulesOfSection7) {
  EXPECT_SHAPE(to_bidirectional(P({Q, Q, Q, Q}), S({8, 6, 4})).out(), P({Q, D(8), D(6), D(4)}));
  EXPECT_SHAPE(to_bidirectional(P({Q, Q, Q, Q}), S({8, 6, 1, 5, 1})).out(), P({D(8), D(6), Q, D(5), Q}));
  EXPECT_SHAPE(to_bidirectional(P({D(16), D(1), Q}), S({1, 1, 50, 50})).out(), S({1, 16, 50, 50}));
  EXPECT_FALSE(to_bidirectional(U(), S({2, 4, 6})).out().rank_known());
  EXPECT_FALSE(to_bidirectional(S({2}), U()).out().rank_known());
  EXPECT_EQ(to_bidirectional(S({2}), S({-1})).code(), Status::InvalidShape);
}

// ---- §4.4 mode pdpd ---------------------------------------------------------------------
TEST(ToPdpd, SpecExample) {
  const R r = to_pdpd(S({3, 1}), S({2, 3, 6}), 1);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({2, 3, 6}));
  EXPECT_EQ(r.strides(0), (V{0, 1, 0}));
  EXPECT_SHAPE(to_pdpd(S({3, 1}), S({2, 3, 6})).out(), S({2, 3, 6})) << "default axis 3 - 2 = 1";
}

TEST(ToPdpd, TargetOneTakesTheInputDim) {
  EXPECT_SHAPE(to_pdpd(S({3, 4}), S({2, 1, 4}), 1).out(), S({2, 3, 4}));
  EXPECT_SHAPE(to_pdpd(S({3}), S({2, 1, 5}), 1).out(), S({2, 3, 5})) << "target dims outside the span are kept";
  EXPECT_SHAPE(to_pdpd(S({0}), S({1, 1}), 0).out(), S({0, 1}));
}

TEST(ToPdpd, Errors) {
  const R c = to_pdpd(S({4}), S({2, 3}), 1);
  ASSERT_EQ(c.code(), Status::IncompatibleDims);
  EXPECT_EQ(c.err.axis, 1);
  EXPECT_DIM(c.err.dim_a, D(4));
  EXPECT_DIM(c.err.dim_b, D(3));
  EXPECT_EQ(to_pdpd(S({3, 1}), S({2, 3, 6}), 2).code(), Status::RankMismatch) << "the input must fit";
  EXPECT_EQ(to_pdpd(S({2, 3, 6, 7}), S({2, 3, 6})).code(), Status::RankMismatch) << "default axis negative";
  EXPECT_EQ(to_pdpd(S({3}), S({2, 3, 6}), -2).code(), Status::InvalidAxis);
  EXPECT_EQ(to_pdpd(S({3}), S({2, 3, 6}), 4).code(), Status::InvalidAxis);
  EXPECT_EQ(to_pdpd(S({3}), S({2, 3, 6}), INT64_MAX).code(), Status::InvalidAxis);
}

TEST(ToPdpdDynamic, UnknownRanks) {
  EXPECT_FALSE(to_pdpd(S({3}), U(), 1).out().rank_known());
  EXPECT_SHAPE(to_pdpd(U(), S({2, 3}), 1).out(), S({2, 3})) << "an input dim can only be 1 or equal against a target 2 or 3";
  EXPECT_SHAPE(to_pdpd(U(), S({2, 1, 3})).out(), P({D(2), Q, D(3)})) << "only a target 1 may take the input's dim";
  EXPECT_SHAPE(to_pdpd(P({Q}), S({2, 3}), 1).out(), S({2, 3}));
}

TEST(ToPdpdDynamic, AxisBelowMinusOneRefusedWhenTheTargetsRankIsUnknown) {
  const R r = to_pdpd(S({3}), U(), -2);
  ASSERT_EQ(r.code(), Status::InvalidAxis);
  EXPECT_EQ(r.err.detail, -2);
  EXPECT_DIM(r.err.dim_b, Q) << "the target's rank is not known";
  EXPECT_TRUE(to_pdpd(S({3}), U(), 9).ok()) << "an axis >= 0 waits for the rank";
}

}  // namespace

namespace {
using namespace tct;
// Issue 11: with the target's rank unknown, the mapping checks that do not need
// it still run (non-negative, strictly increasing, one entry per input axis).
TEST(BroadcastExplicit, MappingCheckedWithoutTargetRank) {
  const Shape unknown = Shape::unknown_rank();
  EXPECT_EQ(to_explicit(S({3}), unknown, {-4}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({2, 3}), unknown, {1, 0}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({2, 3}), unknown, {0, 0}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({2, 3}), unknown, {0}).code(), Status::InvalidAxesMapping) << "one entry per input axis";
  EXPECT_EQ(to_explicit(S({2, 3}), unknown, {1, 0}).err.detail, 1) << "the entry that breaks the order";
  const R ok = to_explicit(S({2, 3}), unknown, {1, 4});
  EXPECT_TRUE(ok.ok()) << "4 may be below the rank: that check waits";
  EXPECT_FALSE(ok.out().rank_known());
  EXPECT_TRUE(to_explicit(S({2, 3}), unknown, {}, false).ok()) << "an unknown mapping checks nothing";
}
}  // namespace

namespace {
using namespace tct;

// Issue 11 item 3, the error fields of each mapping refusal (the JS layer words
// its messages from them): detail = the mapping index, dim_a = the entry (-1
// when negative), dim_b = the entry before it (-1 for the first), axis = the
// entry when it is an output axis, else -1; a wrong length: detail -1, dim_a =
// the mapping's length, dim_b = the input's rank.
TEST(BroadcastExplicit, MappingErrorFields) {
  const Shape unknown = Shape::unknown_rank();
  const R neg = to_explicit(S({3}), unknown, {-4});
  ASSERT_EQ(neg.code(), Status::InvalidAxesMapping);
  EXPECT_EQ(neg.err.detail, 0);
  EXPECT_EQ(neg.err.axis, -1);
  EXPECT_EQ(neg.err.operand_a, 0);
  EXPECT_EQ(neg.err.operand_b, -1);
  EXPECT_EQ(neg.err.dim_a.lo, -1) << "a negative entry reads -1";
  EXPECT_EQ(neg.err.dim_b.lo, -1) << "no entry before the first";
  const R dup = to_explicit(S({2, 3}), unknown, {0, 0});
  ASSERT_EQ(dup.code(), Status::InvalidAxesMapping);
  EXPECT_EQ(dup.err.detail, 1);
  EXPECT_DIM(dup.err.dim_a, D(0));
  EXPECT_DIM(dup.err.dim_b, D(0));
  EXPECT_EQ(dup.err.axis, -1) << "no output axis to name while the rank is unknown";
  const R len = to_explicit(S({2, 3}), unknown, {0, 1, 2});
  ASSERT_EQ(len.code(), Status::InvalidAxesMapping);
  EXPECT_EQ(len.err.detail, -1);
  EXPECT_DIM(len.err.dim_a, D(3));
  EXPECT_DIM(len.err.dim_b, D(2));
  const R scalar = to_explicit(S({}), unknown, {0});
  EXPECT_TRUE(scalar.ok()) << "a scalar's one-entry mapping, as with a known target";
  EXPECT_EQ(to_explicit(S({}), unknown, {-1}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(S({}), unknown, {0, 1}).code(), Status::InvalidAxesMapping);
  // Known target: an out-of-order entry that is an output axis is named.
  const R order = to_explicit(S({2, 3}), S({3, 2, 4}), {2, 1});
  ASSERT_EQ(order.code(), Status::InvalidAxesMapping);
  EXPECT_EQ(order.err.axis, 1);
  EXPECT_EQ(order.err.detail, 1);
  EXPECT_DIM(order.err.dim_b, D(2));
  const R huge = to_explicit(S({3}), unknown, {INT64_MAX});
  EXPECT_TRUE(huge.ok()) << "a large entry may still be below a rank not known yet";
  const R past = to_explicit(S({3, 4}), unknown, {INT64_MAX, INT64_MAX});
  ASSERT_EQ(past.code(), Status::InvalidAxesMapping);
  EXPECT_DIM(past.err.dim_a, D(tc::kMaxDim)) << "clamped to a safe integer";
}

// The checks that need no input rank run when only the target's is known.
TEST(BroadcastExplicit, MappingCheckedWithoutInputRank) {
  EXPECT_EQ(to_explicit(U(), S({2, 3, 4}), {1, 0}).code(), Status::InvalidAxesMapping);
  EXPECT_EQ(to_explicit(U(), S({2, 3, 4}), {-1}).code(), Status::InvalidAxesMapping);
  const R past = to_explicit(U(), S({2, 3, 4}), {0, 3});
  ASSERT_EQ(past.code(), Status::InvalidAxesMapping) << "3 is not an axis of a rank-3 target";
  EXPECT_EQ(past.err.detail, 1);
  EXPECT_EQ(past.err.axis, -1);
  const R ok = to_explicit(U(), S({2, 3, 4}), {0, 2});
  ASSERT_TRUE(ok.ok());
  EXPECT_SHAPE(ok.out(), S({2, 3, 4}));
  EXPECT_TRUE(to_explicit(U(), U(), {3, 7}).ok());
  EXPECT_EQ(to_explicit(U(), U(), {3, 3}).code(), Status::InvalidAxesMapping);
}

// Issue 11 item 2 for the Broadcast op (§4.4 with dynamic dims): the output is
// the target's dim and the input never widens it. A static 1 yields as for
// static shapes; an input that may be 1 leaves the target as it is; one that
// cannot be 1 narrows it to what both can be (nothing in common: a clash).
// Compare OpenVINO type_prop/arithmetic_ops.hpp dynamic_shape_intervals_broadcast_pdpd
// (the element-wise form) and broadcast_shape_inference.hpp set_result_shape_pdpd.
TEST(ToPdpdDynamic, TheInputNeverWidensTheTarget) {
  EXPECT_SHAPE(to_pdpd(P({Q, Q}), P({I(1, 3), I(2, 7)}), 0).out(), P({I(1, 3), I(2, 7)}));
  EXPECT_SHAPE(to_pdpd(P({I(1, 3), I(2, 7)}), P({Q, Q}), 0).out(), P({Q, I(2, 7)}))
      << "1..3 may be 1: the target stays; 2..7 cannot: the target narrows to it";
  EXPECT_SHAPE(to_pdpd(P({I(1, 5)}), P({I(3, 9)})).out(), P({I(3, 9)}));
  EXPECT_SHAPE(to_pdpd(P({I(2, 8)}), P({I(1, 6)})).out(), P({I(2, 6)}));
  EXPECT_SHAPE(to_pdpd(S({3}), P({Q})).out(), S({3}));
  EXPECT_SHAPE(to_pdpd(P({I(2, 4)}), S({1})).out(), P({I(2, 4)})) << "a target 1 takes the input's dim";
  EXPECT_SHAPE(to_pdpd(S({1}), P({I(2, 4)})).out(), P({I(2, 4)})) << "an input 1 takes the target's";
  const R r = to_pdpd(S({5}), P({I(0, 2)}));
  ASSERT_EQ(r.code(), Status::IncompatibleDims) << "5 can meet 0..2 only if the target is 1, which is not static";
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.op(0).verdict[0], Verdict::Clash);
  // Static shapes are unchanged.
  EXPECT_SHAPE(to_pdpd(S({3, 1}), S({2, 1, 6}), 1).out(), S({2, 3, 6}));
}

TEST(ToPdpdDynamic, AxisCheckedWhateverTheInputRank) {
  const R r = to_pdpd(U(), S({2, 3}), 3);
  ASSERT_EQ(r.code(), Status::InvalidAxis);
  EXPECT_EQ(r.err.detail, 3);
  EXPECT_DIM(r.err.dim_b, D(2)) << "the target's rank";
  EXPECT_EQ(to_pdpd(U(), S({2, 3}), -2).code(), Status::InvalidAxis);
}

// Issue 11 item 1: every clashing axis is marked on the input, for each mode.
TEST(BroadcastOpClashes, EveryAxisMarkedOnTheInput) {
  const R n = to_numpy(S({2, 3, 5}), S({4, 6, 5}));
  ASSERT_EQ(n.code(), Status::IncompatibleDims);
  EXPECT_EQ(n.err.clash_axes, 0b011u);
  EXPECT_EQ(n.err.axis, 1);
  EXPECT_EQ(n.verdicts(0), (std::vector<Verdict>{Verdict::Clash, Verdict::Clash, Verdict::Equal}));
  // -1 keeps one axis; the others still clash.
  const R k = to_numpy(S({3, 4, 2}), S({5, -1, 7}));
  EXPECT_EQ(k.err.clash_axes, 0b101u);
  // A new-axis -1 is not a dim clash: not in clash_axes, and the clash found first is reported.
  const R m = to_numpy(S({4, 5}), S({-1, 4, 6}));
  ASSERT_EQ(m.code(), Status::IncompatibleDims);
  EXPECT_EQ(m.err.clash_axes, 0b100u);
  const R mo = to_numpy(S({4, 5}), S({-1, 4, 5}));
  ASSERT_EQ(mo.code(), Status::MinusOneInNewAxis);
  EXPECT_EQ(mo.err.clash_axes, 0u);
  const R e = to_explicit(S({2, 3, 4}), S({5, 2, 6, 7}), {1, 2, 3});
  ASSERT_EQ(e.code(), Status::IncompatibleDims);
  EXPECT_EQ(e.err.clash_axes, 0b1100u);
  EXPECT_EQ(e.err.axis, 3);
  EXPECT_EQ(e.err.detail, 2) << "the input axis of the reported clash";
  EXPECT_EQ(e.verdicts(0), (std::vector<Verdict>{Verdict::New, Verdict::Equal, Verdict::Clash, Verdict::Clash}));
  const R b = to_bidirectional(S({2, 1, 3}), S({4, 5, 6}));
  ASSERT_EQ(b.code(), Status::IncompatibleDims);
  EXPECT_EQ(b.err.clash_axes, 0b101u);
  EXPECT_EQ(b.verdicts(0), (std::vector<Verdict>{Verdict::Clash, Verdict::Stretched, Verdict::Clash}));
  EXPECT_EQ(b.err.operand_a, 0);
  EXPECT_EQ(b.err.operand_b, -1);
  const R p = to_pdpd(S({2, 1, 3}), S({4, 5, 6, 7}), 1);
  ASSERT_EQ(p.code(), Status::IncompatibleDims);
  EXPECT_EQ(p.err.clash_axes, 0b1010u);
  EXPECT_EQ(p.err.axis, 3);
  EXPECT_EQ(p.verdicts(0), (std::vector<Verdict>{Verdict::New, Verdict::Clash, Verdict::Stretched, Verdict::Clash}));
}
}  // namespace

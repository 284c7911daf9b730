// rules/none.cpp — spec §2: identical shapes only (no rank padding), §7 intervals.
#include "test_util.hpp"

namespace {

using namespace tct;

TEST(None, IdenticalShapes) {
  const R r = none(S({2, 3, 224, 128}), S({2, 3, 224, 128}));
  ASSERT_TRUE(r.ok());
  EXPECT_SHAPE(r.out(), S({2, 3, 224, 128}));
  EXPECT_EQ(r.op(1).verdict[0], Verdict::Equal);
  EXPECT_EQ(r.loop_shape(), (V{2 * 3 * 224 * 128}));
  EXPECT_SHAPE(none(S({}), S({})).out(), S({}));
  EXPECT_SHAPE(none(S({0, 2}), S({0, 2})).out(), S({0, 2}));
}

TEST(None, NoRankPadding) {
  const R r = none(S({2, 4}), S({1, 2, 4}));
  ASSERT_EQ(r.code(), Status::ShapeMismatch);
  EXPECT_EQ(r.err.axis, -1) << "a rank difference has no axis";
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 1);
  EXPECT_DIM(r.err.dim_a, D(2)) << "ranks are reported";
  EXPECT_DIM(r.err.dim_b, D(3));
  EXPECT_EQ(none(S({}), S({1})).code(), Status::ShapeMismatch);
}

TEST(None, NoStretching) {
  const R r = none(S({2, 3}), S({2, 1}));
  ASSERT_EQ(r.code(), Status::ShapeMismatch) << "a 1 is not a wildcard here";
  EXPECT_EQ(r.err.axis, 1);
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(1));
  EXPECT_EQ(none(S({1, 0}), S({1, 1})).code(), Status::ShapeMismatch);
  EXPECT_EQ(none(S({4, 3}), S({5, 3})).err.axis, 0);
}

TEST(NoneDynamic, IntervalsIntersect) {
  const R r = none(P({I(2, 6), Q, D(3)}), P({I(5, 8), D(4), Q}));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), P({I(5, 6), D(4), D(3)}));
  const Shape same = P({I(1, 3), I(2, 7), From(6), I(0, 6), Q, D(8)});
  EXPECT_SHAPE(none(same, same).out(), same);
}

TEST(NoneDynamic, EmptyIntersectionIsAMismatch) {
  const R r = none(P({Q, D(4), D(1), D(6), I(1, 6), I(2, 6)}), P({Q, D(1), D(5), D(6), I(5, 8), I(5, 8)}));
  ASSERT_EQ(r.code(), Status::ShapeMismatch);
  EXPECT_EQ(r.err.axis, 2) << "the trailing-most clash: 1 vs 5";
  EXPECT_EQ(none(P({I(2, 4)}), P({I(5, 8)})).code(), Status::ShapeMismatch);
}

TEST(NoneDynamic, UnknownRankTakesTheOtherSide) {
  const R r = none(U(), S({2, 3}));
  ASSERT_TRUE(r.ok());
  EXPECT_SHAPE(r.out(), S({2, 3}));
  EXPECT_FALSE(r.plan.is_static);
  EXPECT_SHAPE(none(P({Q, D(3)}), U()).out(), P({Q, D(3)}));
  EXPECT_FALSE(none(U(), U()).out().rank_known());
}

TEST(None, InvalidShapes) {
  const R r = none(S({2, -3}), S({2, 3}));
  EXPECT_EQ(r.code(), Status::InvalidShape);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.detail, 1) << "offending axis";
  EXPECT_EQ(none(S({2}), S({-1})).code(), Status::InvalidShape) << "-1 (keep) only in a §5 target";
}

}  // namespace

namespace {
using namespace tct;
// Issue 11 item 1: every axis whose dims differ is a clash, for both operands
// (a 1 is no wildcard under none); err.axis is the trailing-most.
TEST(None, EveryClashMarkedOnBothOperands) {
  const R r = none(S({4, 3, 2}), S({5, 3, 1}));
  ASSERT_EQ(r.code(), Status::ShapeMismatch);
  EXPECT_EQ(r.err.clash_axes, 0b101u);
  EXPECT_EQ(r.err.axis, 2);
  EXPECT_DIM(r.err.dim_a, D(2));
  EXPECT_DIM(r.err.dim_b, D(1));
  for (int k = 0; k < 2; ++k)
    EXPECT_EQ(r.verdicts(k), (std::vector<Verdict>{Verdict::Clash, Verdict::Equal, Verdict::Clash})) << k;
  // A rank difference names no axis and marks none.
  const R rank = none(S({2, 4}), S({1, 2, 4}));
  EXPECT_EQ(rank.err.clash_axes, 0u);
  for (int k = 0; k < 2; ++k)
    for (Verdict v : rank.verdicts(k)) EXPECT_NE(v, Verdict::Clash);
  // Intervals: only the axes with an empty intersection.
  const R d = none(P({I(2, 4), Q, D(3)}), P({I(5, 8), D(7), D(4)}));
  ASSERT_EQ(d.code(), Status::ShapeMismatch);
  EXPECT_EQ(d.err.clash_axes, 0b101u);
}

// Property: for random same-rank static pairs, the clash axes are where the dims differ.
TEST(None, ClashPropertyOnRandomShapes) {
  std::uint64_t seed = 0x2545f4914f6cdd1dull;
  auto rnd = [&](int n) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return static_cast<int>(seed % static_cast<std::uint64_t>(n)); };
  for (int c = 0; c < 1000; ++c) {
    const int rank = 1 + rnd(6);
    Shape a, b;
    std::uint64_t want = 0;
    for (int i = 0; i < rank; ++i) {
      const i64 x = rnd(4), y = rnd(4);
      a.push(D(x));
      b.push(D(y));
      if (x != y) want |= std::uint64_t{1} << i;
    }
    const R r = none(a, b);
    EXPECT_EQ(r.err.clash_axes, want) << "case " << c;
    if (!want) continue;
    for (int i = 0; i < rank; ++i)
      for (int k = 0; k < 2; ++k) EXPECT_EQ(r.op(k).verdict[i] == Verdict::Clash, (want >> i & 1) != 0) << c;
  }
}
}  // namespace

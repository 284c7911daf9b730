// rules/pdpd.cpp — spec §3: PaddlePaddle element-wise broadcasting; the output is always A.
#include "test_util.hpp"

namespace {

using namespace tct;

TEST(Pdpd, SpecExamples) {
  const R r = pdpd(S({2, 3, 4, 5}), S({3, 1}), 1);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({2, 3, 4, 5}));
  EXPECT_EQ(r.strides(1), (V{0, 1, 0, 0})) << "the header's picture";
  EXPECT_EQ(r.op(1).src_axis[1], 0);
  EXPECT_EQ(r.op(1).src_axis[2], 1) << "a trimmed 1 still drawn where it lands";
  EXPECT_EQ(r.op(1).verdict[2], Verdict::Stretched);
  EXPECT_EQ(r.op(1).verdict[0], Verdict::New);

  const R d = pdpd(S({2, 3, 4, 5}), S({4, 5}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.op(1).src_axis[2], 0) << "default axis = 4 - 2 = 2";
  EXPECT_EQ(d.strides(1), (V{0, 0, 5, 1}));

  const R s = pdpd(S({2, 3, 4, 5}), S({}));
  ASSERT_TRUE(s.ok());
  EXPECT_SHAPE(s.out(), S({2, 3, 4, 5})) << "B [] gives A's shape";

  const R bad = pdpd(S({8, 1, 6, 1}), S({7, 1, 5}), 1);
  ASSERT_NE(bad.code(), Status::Ok) << "B may never enlarge A";
  EXPECT_EQ(bad.code(), Status::IncompatibleDims);
  EXPECT_EQ(bad.err.axis, 3) << "checked from B's last dim: B 5 against A 1";
  EXPECT_DIM(bad.err.dim_a, D(1));
  EXPECT_DIM(bad.err.dim_b, D(5));
}

TEST(Pdpd, ExplicitAxes) {
  EXPECT_TRUE(pdpd(S({2, 3, 4, 5}), S({4, 5}), 2).ok());
  EXPECT_TRUE(pdpd(S({2, 3, 4, 5}), S({1, 3}), 0).ok());
  EXPECT_TRUE(pdpd(S({2, 3, 4, 5}), S({5}), 3).ok());
  EXPECT_TRUE(pdpd(S({8, 7, 6, 5}), S({8, 1, 6, 5})).ok());
  EXPECT_TRUE(pdpd(S({2, 3}), S({}), 2).ok()) << "axis == rank(A) is allowed";
  const R r = pdpd(S({2, 3, 4, 5}), S({4, 5}), 1);
  ASSERT_EQ(r.code(), Status::IncompatibleDims) << "B[0]=4 against A[1]=3";
  EXPECT_EQ(r.err.axis, 2) << "checked from B's last dim: 5 vs A[2]=4";
  EXPECT_DIM(r.err.dim_a, D(4));
  EXPECT_DIM(r.err.dim_b, D(5));
  EXPECT_EQ(r.err.detail, 1) << "B's axis";
}

// Decision §3.3: trailing 1s of B are dropped (OpenVINO's shape inference refuses this).
TEST(Pdpd, TrailingOnesAreTrimmed) {
  const R r = pdpd(S({2, 3}), S({3, 1, 1}), 1);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({2, 3}));
  EXPECT_EQ(r.strides(1), (V{0, 1}));
  EXPECT_TRUE(pdpd(S({2, 3, 4}), S({3, 1}), 1).ok());
  EXPECT_TRUE(pdpd(S({2}), S({1, 1, 1}), 0).ok()) << "all-ones B trims to a scalar";
  // Without trimming it would not fit; with it, a dim that is not 1 still must.
  EXPECT_EQ(pdpd(S({2, 3}), S({3, 1, 2}), 1).code(), Status::RankMismatch);
}

// Decision §3.1: the default axis uses B's rank before trimming.
TEST(Pdpd, DefaultAxisIsComputedBeforeTrimming) {
  const R r = pdpd(S({2, 3}), S({3, 1, 1}));
  ASSERT_EQ(r.code(), Status::RankMismatch) << "rank(A) - rank(B) = -1 before trimming";
  EXPECT_DIM(r.err.dim_a, D(2));
  EXPECT_DIM(r.err.dim_b, D(3));
  // A (2,3,4), B (3,1): default axis 1 (not 2, which trimming first would give).
  const R s = pdpd(S({2, 3, 4}), S({3, 1}));
  ASSERT_TRUE(s.ok()) << s.describe();
  EXPECT_EQ(s.op(1).src_axis[1], 0);
  // A (2,4,3), B (3,1): default axis 1 puts 3 against 4 -> error, even though axis 2 would fit.
  EXPECT_EQ(pdpd(S({2, 4, 3}), S({3, 1})).code(), Status::IncompatibleDims);
  EXPECT_TRUE(pdpd(S({2, 4, 3}), S({3, 1}), 2).ok());
}

// Decision §3.4: B = 0 against A = 1 would enlarge A to 0.
TEST(Pdpd, ZeroInBAgainstOneInAIsRefused) {
  const R r = pdpd(S({1, 3}), S({0, 3}));
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_DIM(r.err.dim_a, D(1));
  EXPECT_DIM(r.err.dim_b, D(0));
  // A 1 in B stretches to A's dim, including 0.
  const R z = pdpd(S({0, 3}), S({1, 3}));
  ASSERT_TRUE(z.ok());
  EXPECT_SHAPE(z.out(), S({0, 3}));
  EXPECT_TRUE(pdpd(S({0, 3}), S({0, 3})).ok());
}

TEST(Pdpd, InvalidAxis) {
  const R r = pdpd(S({2, 3, 4, 5}), S({3, 1}), -2);
  ASSERT_EQ(r.code(), Status::InvalidAxis);
  EXPECT_EQ(r.err.detail, -2);
  EXPECT_EQ(pdpd(S({2, 3}), S({3}), 3).code(), Status::InvalidAxis) << "axis > rank(A)";
  EXPECT_EQ(pdpd(S({2, 3}), S({3}), INT64_MIN).code(), Status::InvalidAxis);
  const R big = pdpd(S({2, 3}), S({3}), INT64_MAX);
  EXPECT_EQ(big.code(), Status::InvalidAxis);
  EXPECT_EQ(big.err.detail, tc::kMaxRank + 1) << "clamped, no overflow";
}

TEST(Pdpd, BMayNotOutrankA) {
  EXPECT_EQ(pdpd(S({3}), S({2, 3})).code(), Status::RankMismatch);
  EXPECT_EQ(pdpd(S({3, 4}), S({3, 4}), 1).code(), Status::RankMismatch) << "axis + rank(B) > rank(A)";
}

TEST(PdpdDynamic, OutputIsA) {
  const Shape a = P({I(1, 3), I(2, 7), I(1, 6), Q, D(8)});
  const R r = pdpd(a, P({I(1, 3), I(2, 7), D(1), Q, D(8)}));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), a);
  EXPECT_FALSE(pdpd(U(), S({3})).out().rank_known());
  EXPECT_SHAPE(pdpd(S({2, 3}), U()).out(), S({2, 3})) << "unknown B: A's shape stands";
  EXPECT_TRUE(pdpd(S({2, 3}), P({Q})).ok()) << "a dynamic B dim may be 3 or 1";
  EXPECT_EQ(pdpd(S({2, 3}), P({I(4, 8)})).code(), Status::IncompatibleDims);
  EXPECT_EQ(pdpd(P({I(4, 6)}), P({I(7, 8)})).code(), Status::IncompatibleDims);
}

}  // namespace

namespace {
using namespace tct;
// OpenVINO type_prop/arithmetic_ops.hpp, dynamic_shape_intervals_broadcast_pdpd:
// in PDPD the output is A's shape; dynamic B dims are only checked.
TEST(PdpdDynamic, BNeverChangesA) {
  EXPECT_SHAPE(pdpd(P({I(1, 3), I(2, 7)}), P({Q, Q}), 0).out(), P({I(1, 3), I(2, 7)}));
  EXPECT_SHAPE(pdpd(P({Q, Q}), P({I(1, 3), I(2, 7)}), 0).out(), P({Q, Q}));
  EXPECT_SHAPE(pdpd(P({I(1, 5)}), P({I(3, 9)})).out(), P({I(1, 5)})) << "never wider than A can be";
  EXPECT_SHAPE(pdpd(P({I(2, 5), D(4)}), P({D(3)}), 0).out(), P({I(2, 5), D(4)}));
  // Still refused where B can be neither 1 nor any value of A.
  const R r = pdpd(P({I(1, 5)}), P({I(6, 9)}));
  EXPECT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
}
}  // namespace

namespace {
using namespace tct;
// OpenVINO type_prop/arithmetic_ops.hpp dynamic_shape_intervals_broadcast_pdpd,
// the other cases of that test: B is checked against A, the output stays A.
TEST(PdpdDynamic, BIsOnlyChecked) {
  const Shape a = P({I(1, 3), I(2, 7), I(1, 6), Q, D(8)});
  EXPECT_SHAPE(pdpd(a, P({Q, Q, Q, Q, Q})).out(), a);
  EXPECT_SHAPE(pdpd(a, P({D(1), D(1), D(1), D(1), D(1)})).out(), a);
  EXPECT_SHAPE(pdpd(P({Q, Q, Q}), P({I(1, 3), I(2, 7), D(8)})).out(), P({Q, Q, Q}));
  // A static B dim that can never be A's dim (nor 1) is still refused.
  const R z = pdpd(P({I(1, 3)}), S({0}));
  ASSERT_EQ(z.code(), Status::IncompatibleDims) << "a 0 in B cannot fit 1..3";
  EXPECT_DIM(z.err.dim_a, I(1, 3));
  EXPECT_DIM(z.err.dim_b, D(0));
  EXPECT_TRUE(pdpd(P({Q}), S({0})).ok()) << "A may be 0";
  EXPECT_TRUE(pdpd(P({I(4, 6)}), S({5})).ok());
  EXPECT_EQ(pdpd(P({I(4, 6)}), S({7})).code(), Status::IncompatibleDims);
  EXPECT_TRUE(pdpd(S({4}), P({I(0, 9)})).ok()) << "B may be 4";
  EXPECT_EQ(pdpd(S({4}), P({I(5, 9)})).code(), Status::IncompatibleDims);
}

TEST(Pdpd, AxisCheckedWhenBsRankIsUnknown) {
  const R r = pdpd(S({2, 3}), U(), 3);
  ASSERT_EQ(r.code(), Status::InvalidAxis) << "the axis needs only A's rank";
  EXPECT_EQ(r.err.detail, 3);
  EXPECT_DIM(r.err.dim_a, D(2));
  EXPECT_DIM(r.err.dim_b, Q) << "B's rank is not known";
  EXPECT_TRUE(pdpd(S({2, 3}), U(), 2).ok());
}

// A negative axis other than -1 needs no rank at all: refused with A's rank unknown too.
TEST(Pdpd, AxisBelowMinusOneRefusedWhenAsRankIsUnknown) {
  const R r = pdpd(U(), S({3}), -2);
  ASSERT_EQ(r.code(), Status::InvalidAxis);
  EXPECT_EQ(r.err.detail, -2);
  EXPECT_DIM(r.err.dim_a, Q) << "A's rank is not known";
  EXPECT_DIM(r.err.dim_b, D(1));
  EXPECT_FALSE(pdpd(U(), S({3}), -1).out().rank_known()) << "-1 and any axis >= 0 wait for the rank";
  EXPECT_TRUE(pdpd(U(), S({3}), 7).ok());
}

// Issue 11 item 1: every clashing axis, both operands marked (in PDPD a 1 in A
// is no wildcard: B may not enlarge it, so A's dim takes part in the clash).
TEST(Pdpd, EveryClashMarkedOnBothOperands) {
  const R r = pdpd(S({2, 3, 4}), S({5, 6}), 1);
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.clash_axes, 0b110u);
  EXPECT_EQ(r.err.axis, 2) << "from B's last dim";
  EXPECT_EQ(r.err.detail, 1) << "B's axis of the reported clash";
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 1);
  for (int k = 0; k < 2; ++k) {
    EXPECT_NE(r.op(k).verdict[0], Verdict::Clash) << k;
    EXPECT_EQ(r.op(k).verdict[1], Verdict::Clash) << k;
    EXPECT_EQ(r.op(k).verdict[2], Verdict::Clash) << k;
  }
  const R one = pdpd(S({8, 1, 6, 1}), S({7, 1, 5}), 1);
  ASSERT_EQ(one.code(), Status::IncompatibleDims);
  EXPECT_EQ(one.err.clash_axes, 0b1010u) << "7 vs A's 1 and 5 vs A's 1; B's 1 stretches to 6";
  EXPECT_EQ(one.op(0).verdict[1], Verdict::Clash) << "A's 1 takes part";
  EXPECT_EQ(one.op(1).verdict[1], Verdict::Clash);
  EXPECT_EQ(one.op(0).verdict[3], Verdict::Clash);
  EXPECT_NE(one.op(1).verdict[2], Verdict::Clash);
  EXPECT_SHAPE(one.out(), S({8, 1, 6, 1})) << "the refused plan keeps A's shape";
}

TEST(Pdpd, DroppedTrailingOnesAreRecorded) {
  EXPECT_EQ(pdpd(S({2, 3, 4, 5}), S({3, 1}), 1).op(1).dropped, 0b10u) << "trimmed, yet mapped inside A";
  EXPECT_EQ(pdpd(S({2, 3}), S({3, 1, 1}), 1).op(1).dropped, 0b110u) << "trimmed past A's end";
  EXPECT_EQ(pdpd(S({2, 3}), S({4, 1, 1}), 1).op(1).dropped, 0b110u) << "a refused plan records it too";
  EXPECT_EQ(pdpd(S({2, 3, 4, 5}), S({4, 5})).op(1).dropped, 0u);
  EXPECT_EQ(pdpd(S({2, 3, 4, 5}), S({3, 1}), 1).op(0).dropped, 0u) << "A is never trimmed";
  // A reused plan forgets it.
  tc::Plan plan;
  tc::Error err;
  ASSERT_EQ(tc::broadcast_pdpd(S({2, 3}), S({3, 1, 1}), 1, plan, err), tc::Status::Ok);
  EXPECT_EQ(plan.ops[1].dropped, 0b110u);
  const tc::Shape two[2] = {S({2, 3}), S({3, 1, 1})};
  ASSERT_EQ(tc::broadcast_numpy(two, 2, plan, err), tc::Status::Ok);
  EXPECT_EQ(plan.ops[1].dropped, 0u);
}
}  // namespace

// rules/validate.cpp — the notation rules every rule enforces first (spec intro, §5, §8):
// dims are safe integers, at most 32 of them; -1 only in a §5 target.
#include "test_util.hpp"

namespace {

using namespace tct;

Shape rank(int r) {
  Shape s;
  for (int i = 0; i < tc::kMaxRank; ++i) s.push(D(1));
  s.rank = r;  // dims[] holds 32 entries: a rank of 33 must be rejected before any read
  return s;
}

TEST(Validate, AcceptsWellFormedShapes) {
  Error err;
  EXPECT_EQ(tc::validate_shape(S({}), 0, false, err), Status::Ok);
  EXPECT_EQ(tc::validate_shape(S({0, 1, tc::kMaxDim}), 0, false, err), Status::Ok);
  EXPECT_EQ(tc::validate_shape(P({Q, I(2, 5), From(6), I(0, 6)}), 0, false, err), Status::Ok);
  EXPECT_EQ(tc::validate_shape(U(), 0, false, err), Status::Ok);
  Shape full;
  for (int i = 0; i < 32; ++i) full.push(D(1));
  EXPECT_EQ(tc::validate_shape(full, 0, false, err), Status::Ok) << "32 dims are allowed";
  EXPECT_EQ(tc::validate_shape(S({-1, 3}), 1, true, err), Status::Ok) << "keep, where allowed";
}

TEST(Validate, RejectsRankAbove32) {
  Error err;
  ASSERT_EQ(tc::validate_shape(rank(33), 2, false, err), Status::InvalidShape);
  EXPECT_EQ(err.code, Status::InvalidShape);
  EXPECT_EQ(err.operand_a, 2);
  EXPECT_EQ(err.detail, 33);
  EXPECT_EQ(tc::validate_shape(rank(1 << 30), 0, false, err), Status::InvalidShape);
  EXPECT_EQ(tc::validate_shape(rank(-2), 0, false, err), Status::InvalidShape) << "only -1 means unknown rank";
  EXPECT_EQ(tc::validate_shape(rank(INT32_MIN), 0, false, err), Status::InvalidShape);
}

TEST(Validate, RejectsBadDims) {
  Error err;
  ASSERT_EQ(tc::validate_shape(S({2, -3, 4}), 1, false, err), Status::InvalidShape);
  EXPECT_EQ(err.operand_a, 1);
  EXPECT_EQ(err.detail, 1) << "offending axis";
  EXPECT_DIM(err.dim_a, D(-3));
  EXPECT_EQ(tc::validate_shape(S({tc::kMaxDim + 1}), 0, false, err), Status::InvalidShape) << "not a safe integer";
  EXPECT_EQ(tc::validate_shape(S({INT64_MIN}), 0, false, err), Status::InvalidShape);
  EXPECT_EQ(tc::validate_shape(P({I(5, 3)}), 0, false, err), Status::InvalidShape) << "empty interval";
  EXPECT_EQ(tc::validate_shape(P({I(-1, 3)}), 0, false, err), Status::InvalidShape);
  EXPECT_EQ(tc::validate_shape(P({I(2, tc::kUnbounded - 1)}), 0, false, err), Status::InvalidShape);
  EXPECT_EQ(tc::validate_shape(S({-1}), 0, false, err), Status::InvalidShape) << "keep where not allowed";
  EXPECT_EQ(tc::validate_shape(S({-2}), 1, true, err), Status::InvalidShape) << "only -1 is keep";
}

// Every rule validates every operand before anything else.
TEST(Validate, EveryRuleRejectsRank33) {
  const Shape bad = rank(33), ok = S({2, 3});
  EXPECT_EQ(numpy({ok, bad}).code(), Status::InvalidShape);
  EXPECT_EQ(numpy({bad}).err.operand_a, 0);
  EXPECT_EQ(none(ok, bad).code(), Status::InvalidShape);
  EXPECT_EQ(pdpd(bad, ok).code(), Status::InvalidShape);
  EXPECT_EQ(pdpd(ok, bad).code(), Status::InvalidShape);
  EXPECT_EQ(to_numpy(bad, ok).code(), Status::InvalidShape);
  EXPECT_EQ(to_numpy(ok, bad).code(), Status::InvalidShape);
  EXPECT_EQ(to_explicit(bad, ok, {0}).code(), Status::InvalidShape);
  EXPECT_EQ(to_explicit(ok, bad, {0, 1}).code(), Status::InvalidShape);
  EXPECT_EQ(to_bidirectional(bad, ok).code(), Status::InvalidShape);
  EXPECT_EQ(to_bidirectional(ok, bad).code(), Status::InvalidShape);
  EXPECT_EQ(to_pdpd(ok, bad, 0).code(), Status::InvalidShape);
  EXPECT_EQ(to_pdpd(bad, ok, 0).code(), Status::InvalidShape);
}

TEST(Validate, EveryRuleRejectsNegativeDims) {
  const Shape neg = S({2, -5}), ok = S({2, 3});
  const R r = numpy({ok, ok, neg});
  ASSERT_EQ(r.code(), Status::InvalidShape);
  EXPECT_EQ(r.err.operand_a, 2) << "the offending operand";
  EXPECT_EQ(r.err.detail, 1);
  EXPECT_EQ(none(neg, ok).code(), Status::InvalidShape);
  EXPECT_EQ(pdpd(ok, neg).code(), Status::InvalidShape);
  EXPECT_EQ(to_numpy(neg, ok).code(), Status::InvalidShape);
  EXPECT_EQ(to_explicit(neg, S({2, 3, 4}), {0, 1}).code(), Status::InvalidShape);
  EXPECT_EQ(to_bidirectional(ok, neg).code(), Status::InvalidShape);
  EXPECT_EQ(to_pdpd(neg, S({2, 3, 4})).code(), Status::InvalidShape);
}

// -1 (keep) belongs only in a §4.1/§5 target.
TEST(Validate, KeepOutsideNumpyToIsInvalid) {
  const Shape keep = S({-1, 3}), ok = S({2, 3});
  EXPECT_EQ(numpy({keep, ok}).code(), Status::InvalidShape);
  EXPECT_EQ(none(keep, keep).code(), Status::InvalidShape);
  EXPECT_EQ(pdpd(ok, keep).code(), Status::InvalidShape);
  EXPECT_EQ(to_numpy(keep, ok).code(), Status::InvalidShape) << "not in the input";
  EXPECT_EQ(to_explicit(ok, keep, {0, 1}).code(), Status::InvalidShape);
  EXPECT_EQ(to_bidirectional(ok, keep).code(), Status::InvalidShape);
  EXPECT_EQ(to_pdpd(ok, keep, 0).code(), Status::InvalidShape);
  EXPECT_TRUE(to_numpy(ok, keep).ok()) << "the one place it is allowed";
}

TEST(Validate, ErrorIsResetBetweenCalls) {
  R r;
  const Shape bad[2] = {S({3}), S({4})};
  ASSERT_EQ(tc::broadcast_numpy(bad, 2, r.plan, r.err), Status::IncompatibleDims);
  const Shape good[2] = {S({3}), S({3})};
  ASSERT_EQ(tc::broadcast_numpy(good, 2, r.plan, r.err), Status::Ok);
  EXPECT_EQ(r.err.code, Status::Ok) << "a success leaves no stale error behind";
  EXPECT_EQ(r.err.axis, -1);
}

}  // namespace

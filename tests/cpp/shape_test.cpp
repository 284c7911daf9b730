// core/shape.hpp: Dim, interval helpers, broadcast_merge (spec §1 per-axis rule, §7 intervals).
#include <vector>

#include "test_util.hpp"

namespace {

using namespace tct;

TEST(Dim, Constructors) {
  EXPECT_TRUE(Dim::fixed(3).is_static());
  EXPECT_TRUE(Dim::fixed(3).is(3));
  EXPECT_FALSE(Dim::fixed(3).is(4));
  EXPECT_TRUE(Dim::fixed(0).is_static());
  EXPECT_EQ(Dim::dynamic().lo, 0);
  EXPECT_EQ(Dim::dynamic().hi, tc::kUnbounded);
  EXPECT_FALSE(Dim::dynamic().is_static());
  EXPECT_FALSE(Dim::interval(2, 5).is_static());
  EXPECT_TRUE(Dim::interval(4, 4).is_static());
  EXPECT_TRUE(Dim::keep().is_keep());
  EXPECT_FALSE(Dim::keep().is_static());
  EXPECT_FALSE(Dim::fixed(1).is_keep());
}

TEST(Dim, MayBe) {
  EXPECT_TRUE(Dim::dynamic().may_be(0));
  EXPECT_TRUE(Dim::dynamic().may_be(1));
  EXPECT_TRUE(Dim::dynamic().may_be(tc::kMaxDim));
  EXPECT_TRUE(I(2, 5).may_be(2));
  EXPECT_TRUE(I(2, 5).may_be(5));
  EXPECT_FALSE(I(2, 5).may_be(1));
  EXPECT_FALSE(I(2, 5).may_be(6));
  EXPECT_TRUE(I(0, 5).may_be(1));
  EXPECT_FALSE(D(3).may_be(1));
}

TEST(Dim, Validity) {
  EXPECT_TRUE(D(0).is_valid());
  EXPECT_TRUE(D(tc::kMaxDim).is_valid()) << "2^53-1 is a safe integer";
  EXPECT_FALSE(D(tc::kMaxDim + 1).is_valid()) << "beyond safe integers";
  EXPECT_FALSE(D(-2).is_valid());
  EXPECT_TRUE(Dim::keep().is_valid()) << "validity of keep is decided by the caller (allow_keep)";
  EXPECT_TRUE(Dim::dynamic().is_valid());
  EXPECT_TRUE(From(6).is_valid());
  EXPECT_TRUE(I(0, 6).is_valid());
  EXPECT_FALSE(I(5, 3).is_valid()) << "empty interval";
  EXPECT_FALSE(I(-1, 3).is_valid());
  EXPECT_FALSE(I(1, tc::kMaxDim + 1).is_valid()) << "only kUnbounded may exceed kMaxDim";
  EXPECT_FALSE(I(tc::kMaxDim + 1, tc::kUnbounded).is_valid());
}

TEST(Dim, HullAndIntersect) {
  EXPECT_DIM(tc::hull(I(0, 2), I(1, 5)), I(0, 5));
  EXPECT_DIM(tc::hull(D(1), D(7)), I(1, 7));
  Dim out = D(99);
  ASSERT_TRUE(tc::intersect(I(2, 6), I(5, 8), out));
  EXPECT_DIM(out, I(5, 6));
  ASSERT_TRUE(tc::intersect(From(6), D(8), out));
  EXPECT_DIM(out, D(8));
  out = D(99);
  EXPECT_FALSE(tc::intersect(I(2, 4), I(5, 8), out));
  EXPECT_DIM(out, D(99)) << "untouched on failure";
  EXPECT_FALSE(tc::intersect(D(3), D(4), out));
}

// merge(a, b) must be symmetric for these vectors; returns false when refused.
bool merge_both(Dim a, Dim b, Dim& out) {
  Dim ab = D(-7), ba = D(-7);
  const bool ok1 = tc::broadcast_merge(a, b, ab);
  const bool ok2 = tc::broadcast_merge(b, a, ba);
  EXPECT_EQ(ok1, ok2) << str(a) << " vs " << str(b);
  if (ok1 && ok2) {
    EXPECT_DIM(ab, ba) << str(a) << " vs " << str(b);
  }
  out = ab;
  return ok1;
}

TEST(BroadcastMerge, StaticIsExactlyNumpy) {
  Dim out;
  ASSERT_TRUE(merge_both(D(1), D(5), out));
  EXPECT_DIM(out, D(5));
  ASSERT_TRUE(merge_both(D(5), D(5), out));
  EXPECT_DIM(out, D(5));
  ASSERT_TRUE(merge_both(D(1), D(1), out));
  EXPECT_DIM(out, D(1));
  ASSERT_TRUE(merge_both(D(1), D(0), out)) << "§1: 1 with 0 gives 0";
  EXPECT_DIM(out, D(0));
  ASSERT_TRUE(merge_both(D(0), D(0), out));
  EXPECT_DIM(out, D(0));
  EXPECT_FALSE(merge_both(D(0), D(5), out)) << "§1: 0 with 5 is an error";
  EXPECT_FALSE(merge_both(D(3), D(4), out));
  EXPECT_FALSE(merge_both(D(2), D(0), out));
}

// §7: both may be 1 -> union; only one may be 1 -> the other; neither -> intersection.
TEST(BroadcastMerge, Intervals) {
  Dim out;
  ASSERT_TRUE(merge_both(Q, Q, out));
  EXPECT_DIM(out, Q);
  ASSERT_TRUE(merge_both(I(0, 2), I(1, 5), out)) << "both may be 1";
  EXPECT_DIM(out, I(0, 5));
  ASSERT_TRUE(merge_both(I(1, 3), Q, out)) << "both may be 1";
  EXPECT_DIM(out, Q);
  ASSERT_TRUE(merge_both(I(1, 6), I(5, 8), out)) << "only 1..6 may be 1";
  EXPECT_DIM(out, I(5, 8));
  ASSERT_TRUE(merge_both(Q, D(2), out)) << "only ? may be 1";
  EXPECT_DIM(out, D(2));
  ASSERT_TRUE(merge_both(I(0, 5), I(3, 4), out)) << "..5 may be 1";
  EXPECT_DIM(out, I(3, 4));
  ASSERT_TRUE(merge_both(I(2, 6), I(5, 8), out)) << "neither may be 1: intersection";
  EXPECT_DIM(out, I(5, 6));
  ASSERT_TRUE(merge_both(From(6), D(8), out));
  EXPECT_DIM(out, D(8));
  ASSERT_TRUE(merge_both(From(4), I(4, 5), out));
  EXPECT_DIM(out, I(4, 5));
  ASSERT_TRUE(merge_both(D(1), I(5, 8), out)) << "a static 1 yields the other side";
  EXPECT_DIM(out, I(5, 8));
  EXPECT_FALSE(merge_both(I(2, 4), I(5, 8), out)) << "empty intersection";
  EXPECT_FALSE(merge_both(From(6), D(5), out));
  EXPECT_FALSE(merge_both(I(2, 4), D(0), out));
}

TEST(ShapeType, Basics) {
  Shape s;
  EXPECT_EQ(s.rank, 0);
  EXPECT_TRUE(s.rank_known());
  EXPECT_TRUE(s.is_static()) << "[] is a static scalar";
  s.push(D(2));
  s.push(Q);
  EXPECT_EQ(s.rank, 2);
  EXPECT_FALSE(s.is_static());
  EXPECT_DIM(s[1], Q);
  s[1] = D(7);
  EXPECT_TRUE(s.is_static());
  const Shape u = Shape::unknown_rank();
  EXPECT_FALSE(u.rank_known());
  EXPECT_FALSE(u.is_static());
  EXPECT_EQ(u.rank, tc::kUnknownRank);
  EXPECT_FALSE(S({-1}).is_static()) << "keep is not a static dim";
}

TEST(ShapeType, MakeShape) {
  const std::vector<int> v{2, 0, 5};
  EXPECT_SHAPE(tc::make_shape(v.begin(), v.end()), S({2, 0, 5}));
  const std::vector<int> big(40, 1);
  EXPECT_EQ(tc::make_shape(big.begin(), big.end()).rank, tc::kMaxRank) << "stops at kMaxRank, no overflow";
}

TEST(ShapeType, SaturatingSizes) {
  EXPECT_EQ(tc::sat_mul(3, 4), 12);
  EXPECT_EQ(tc::sat_mul(i64{1} << 40, i64{1} << 40), INT64_MAX);
  EXPECT_EQ(tc::sat_mul(INT64_MAX, 2), INT64_MAX);
  EXPECT_EQ(tc::sat_mul(INT64_MAX, 0), 0);
  EXPECT_EQ(tc::shape_size(S({})), 1);
  EXPECT_EQ(tc::shape_size(S({2, 3, 4})), 24);
  EXPECT_EQ(tc::shape_size(S({2, 0, 4})), 0);
  EXPECT_EQ(tc::shape_size(S({1000000000000, 1000000000000})), INT64_MAX);
  EXPECT_EQ(tc::shape_size(S({1000000000000, 1000000000000, 0})), 0) << "a 0 wins over saturation";
}

TEST(StatusNames, Stable) {
  EXPECT_STREQ(tc::status_name(Status::Ok), "OK");
  EXPECT_STREQ(tc::status_name(Status::InvalidShape), "INVALID_SHAPE");
  EXPECT_STREQ(tc::status_name(Status::IncompatibleDims), "INCOMPATIBLE_DIMS");
  EXPECT_STREQ(tc::status_name(Status::ShapeMismatch), "SHAPE_MISMATCH");
  EXPECT_STREQ(tc::status_name(Status::RankMismatch), "RANK_MISMATCH");
  EXPECT_STREQ(tc::status_name(Status::InvalidAxis), "INVALID_AXIS");
  EXPECT_STREQ(tc::status_name(Status::InvalidAxesMapping), "INVALID_AXES_MAPPING");
  EXPECT_STREQ(tc::status_name(Status::MinusOneInNewAxis), "MINUS_ONE_IN_NEW_AXIS");
  EXPECT_STREQ(tc::status_name(Status::DtypeMismatch), "DTYPE_MISMATCH");
  EXPECT_STREQ(tc::status_name(Status::LengthMismatch), "LENGTH_MISMATCH");
  EXPECT_STREQ(tc::status_name(Status::TooLarge), "TOO_LARGE");
  // Numeric values are part of the wasm ABI.
  EXPECT_EQ(static_cast<int>(Status::InvalidShape), 1);
  EXPECT_EQ(static_cast<int>(Status::MinusOneInNewAxis), 7);
  EXPECT_EQ(static_cast<int>(Status::TooLarge), 10);
}

}  // namespace

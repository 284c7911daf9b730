// rules/numpy.cpp — spec §1 (multidirectional) and §7 (dynamic dims).
#include <algorithm>
#include <cmath>

#include "test_util.hpp"

namespace {

using namespace tct;
using tc::kMaxRank;
using tc::numpy_static_shape;

TEST(Numpy, SpecExamples) {
  EXPECT_SHAPE(numpy({S({2, 1, 6}), S({3, 1})}).out(), S({2, 3, 6}));
  EXPECT_SHAPE(numpy({S({1, 0}), S({0, 1})}).out(), S({0, 0}));
  const R r = numpy({S({3}), S({2})});
  EXPECT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
}

TEST(Numpy, RightAlignsAndPadsWithOnes) {
  EXPECT_SHAPE(numpy({S({8, 1, 6, 1}), S({7, 1, 5})}).out(), S({8, 7, 6, 5}));
  EXPECT_SHAPE(numpy({S({5}), S({4, 1})}).out(), S({4, 5}));
  EXPECT_SHAPE(numpy({S({}), S({2, 3})}).out(), S({2, 3}));
  EXPECT_SHAPE(numpy({S({1, 1, 1}), S({})}).out(), S({1, 1, 1})) << "all ones: output 1";
}

TEST(Numpy, NAry) {
  EXPECT_SHAPE(numpy({S({2, 1, 1}), S({1, 3, 1}), S({1, 1, 4})}).out(), S({2, 3, 4}));
  EXPECT_SHAPE(numpy({S({7})}).out(), S({7}));
  EXPECT_SHAPE(numpy({}).out(), S({})) << "no operands gives []";
  std::vector<Shape> many(100, S({1, 2}));
  many[57] = S({3, 1});
  EXPECT_SHAPE(numpy(many).out(), S({3, 2}));
}

TEST(Numpy, ZeroIsAnOrdinarySize) {
  EXPECT_SHAPE(numpy({S({1}), S({0})}).out(), S({0})) << "1 with 0 gives 0";
  EXPECT_SHAPE(numpy({S({0}), S({0})}).out(), S({0}));
  EXPECT_SHAPE(numpy({S({}), S({0})}).out(), S({0}));
  const R r = numpy({S({0}), S({5})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims) << "0 with 5 is an error";
  EXPECT_DIM(r.err.dim_a, D(0));
  EXPECT_DIM(r.err.dim_b, D(5));
}

// §8: the error names the output axis, the two operands and their dims.
TEST(Numpy, ErrorReportsAxisOperandsDims) {
  const R r = numpy({S({3}), S({4})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.code, Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 1);
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(4));
}

TEST(Numpy, ErrorAxisIsAnOutputAxis) {
  // [2,1] vs [8,4,3]: aligned [1,2,1]; output axis 1 has 2 vs 4 (the last axis, 1 vs 3, is fine).
  const R r = numpy({S({2, 1}), S({8, 4, 3})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 1);
  EXPECT_DIM(r.err.dim_a, D(2));
  EXPECT_DIM(r.err.dim_b, D(4));
}

TEST(Numpy, ErrorNamesTheOperandsThatClash) {
  // Operand 1 is a 1 on the clashing axis; the clash is between operands 0 and 2.
  const R r = numpy({S({3, 5}), S({1, 5}), S({4, 5})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 2);
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(4));
  // The holder is the first operand with a non-1 dim.
  const R s = numpy({S({1, 5}), S({3, 5}), S({4, 5})});
  EXPECT_EQ(s.err.operand_a, 1);
  EXPECT_EQ(s.err.operand_b, 2);
}

TEST(Numpy, EveryClashIsMarkedTheFirstFromTheTrailingAxisIsReported) {
  const R r = numpy({S({2, 3}), S({4, 5})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 1) << "NumPy compares from the trailing axis: the message names axis 1";
  EXPECT_EQ(r.err.clash_axes, 0b11u) << "both axes disagree";
  // The refused plan is still fully aligned (the explorer draws it).
  EXPECT_EQ(r.out().rank, 2);
  for (int a = 0; a < 2; ++a)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(r.op(k).verdict[a], Verdict::Clash) << "axis " << a << " operand " << k;
}

// Issue 11's cases: [4,3] vs [7,5] (axis 0 was shown "equal"); three operands.
TEST(Numpy, EveryClashAcrossOperands) {
  const R r = numpy({S({4, 3}), S({7, 5})});
  EXPECT_EQ(r.err.clash_axes, 0b11u);
  EXPECT_EQ(r.op(0).verdict[0], Verdict::Clash);
  EXPECT_EQ(r.op(1).verdict[0], Verdict::Clash);
  const R t = numpy({S({8, 4, 6, 1}), S({7, 3, 5})});
  ASSERT_EQ(t.code(), Status::IncompatibleDims);
  EXPECT_EQ(t.err.clash_axes, 0b0110u) << "4 vs 7 and 6 vs 3; 1 vs 5 stretches";
  EXPECT_EQ(t.err.axis, 2);
  EXPECT_EQ(t.op(0).verdict[1], Verdict::Clash);
  EXPECT_EQ(t.op(1).verdict[1], Verdict::Clash);
  EXPECT_EQ(t.op(0).verdict[3], Verdict::Stretched);
  // A 1 on a clashing axis stretches; it is not part of the clash.
  const R u = numpy({S({3}), S({4}), S({1})});
  EXPECT_EQ(u.err.clash_axes, 0b1u);
  EXPECT_EQ(u.op(0).verdict[0], Verdict::Clash);
  EXPECT_EQ(u.op(1).verdict[0], Verdict::Clash);
  EXPECT_NE(u.op(2).verdict[0], Verdict::Clash);
}

// Property: for random 2–4 operand shapes, the axes marked Clash are exactly
// those where the operands' non-1 dims disagree; per operand, Clash is set
// exactly where its dim is not 1 on such an axis.
TEST(Numpy, ClashPropertyOnRandomShapes) {
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto rnd = [&](int n) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return static_cast<int>(seed % static_cast<std::uint64_t>(n)); };
  int refused = 0, several = 0;
  for (int c = 0; c < 3000; ++c) {
    const int n = 2 + rnd(3);
    const int rank = 1 + rnd(5);
    std::vector<Shape> shapes;
    std::vector<std::vector<i64>> dims;
    for (int k = 0; k < n; ++k) {
      const int r = rank - rnd(2);
      std::vector<i64> d;
      for (int i = 0; i < r; ++i) d.push_back(rnd(3) == 0 ? 1 : 2 + rnd(3));
      Shape s = S({});
      for (i64 x : d) s.push(Dim::fixed(x));
      shapes.push_back(s);
      dims.push_back(d);
    }
    const R res = numpy(shapes);
    int rank_out = 0;
    for (const auto& d : dims) rank_out = std::max(rank_out, static_cast<int>(d.size()));
    std::uint64_t want = 0;
    for (int a = 0; a < rank_out; ++a) {
      i64 seen = 1;
      bool bad = false;
      for (int k = 0; k < n; ++k) {
        const int i = a - (rank_out - static_cast<int>(dims[k].size()));
        if (i < 0 || dims[k][i] == 1) continue;
        if (seen != 1 && seen != dims[k][i]) bad = true;
        seen = dims[k][i];
      }
      if (bad) want |= std::uint64_t{1} << a;
    }
    if (want == 0) { EXPECT_TRUE(res.ok()); continue; }
    ++refused;
    if (want & (want - 1)) ++several;
    // The reported clash is one of them, the trailing-most.
    EXPECT_EQ(res.err.axis, 63 - __builtin_clzll(want)) << "case " << c;
    // Per operand: Clash exactly where its dim is not 1 and differs from
    // another operand's non-1 dim.
    for (int a = 0; a < rank_out; ++a)
      for (int k = 0; k < n; ++k) {
        const int i = a - (rank_out - static_cast<int>(dims[k].size()));
        bool differs = false;
        for (int j = 0; j < n && i >= 0 && dims[k][i] != 1; ++j) {
          const int q = a - (rank_out - static_cast<int>(dims[j].size()));
          if (j != k && q >= 0 && dims[j][q] != 1 && dims[j][q] != dims[k][i]) differs = true;
        }
        EXPECT_EQ(res.op(k).verdict[a] == Verdict::Clash, differs) << "case " << c << " axis " << a << " operand " << k;
      }
    ASSERT_EQ(res.code(), Status::IncompatibleDims);
    EXPECT_EQ(res.err.clash_axes, want);
    for (int a = 0; a < rank_out; ++a)
      for (int k = 0; k < n; ++k) {
        const int i = a - (rank_out - static_cast<int>(dims[k].size()));
        const bool part = (want >> a & 1) && i >= 0 && dims[k][i] != 1;
        EXPECT_EQ(res.op(k).verdict[a] == Verdict::Clash, part) << "case " << c << " axis " << a << " operand " << k;
      }
  }
  EXPECT_GT(refused, 500) << "the generator makes enough clashes";
  EXPECT_GT(several, 200) << "and enough refusals with several clashing axes";
}

// §7 dynamic dims.
TEST(NumpyDynamic, Intervals) {
  const R r = numpy({P({Q, D(4), D(1), D(6), I(1, 6), I(2, 6)}), P({Q, D(1), D(5), D(6), I(5, 8), I(5, 8)})});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), P({Q, D(4), D(5), D(6), I(5, 8), I(5, 6)}));
  EXPECT_FALSE(r.plan.is_static);
  EXPECT_SHAPE(numpy({P({D(2), I(3, 5), Q, I(0, 5), From(6)}), P({D(2), I(3, 4), D(8)})}).out(),
               P({D(2), I(3, 5), D(2), I(3, 4), D(8)}));
  EXPECT_SHAPE(numpy({P({Q}), S({3, 4})}).out(), S({3, 4}));
}

TEST(NumpyDynamic, EmptyIntersectionIsAnError) {
  const R r = numpy({P({I(2, 4)}), P({I(5, 8)})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_DIM(r.err.dim_a, I(2, 4));
  EXPECT_DIM(r.err.dim_b, I(5, 8));
  EXPECT_EQ(numpy({P({D(1), D(2), Q}), S({1, 3, 3})}).code(), Status::IncompatibleDims);
  EXPECT_EQ(numpy({P({D(2), Q, D(3), D(4)}), S({2, 5, 3, 3, 4})}).code(), Status::IncompatibleDims);
}

// Fixed in numpy.cpp: the reported operand_a is the one whose dim is dim_a. Here
// operand 0 is "?", so the 3 that clashes with 4 comes from operand 1 (it used to
// report operand 0 with dim 3).
TEST(NumpyDynamic, ErrorNamesTheOperandHoldingDimA) {
  const R r = numpy({P({Q}), S({3}), S({4})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.operand_a, 1);
  EXPECT_EQ(r.err.operand_b, 2);
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(4));
  const R s = numpy({S({3}), P({Q}), S({4})});
  ASSERT_EQ(s.code(), Status::IncompatibleDims);
  EXPECT_EQ(s.err.operand_a, 0) << "? merged with 3 leaves 3: still operand 0's";
  EXPECT_DIM(s.err.dim_a, D(3));
  const R t = numpy({P({I(2, 6)}), P({I(5, 8)}), S({7})});
  ASSERT_EQ(t.code(), Status::IncompatibleDims);
  EXPECT_EQ(t.err.operand_a, 1) << "5..6 is the intersection, last changed by operand 1";
  EXPECT_DIM(t.err.dim_a, I(5, 6));
}

TEST(NumpyDynamic, UnknownRank) {
  EXPECT_FALSE(numpy({U(), U()}).out().rank_known());
  EXPECT_FALSE(numpy({U(), S({3, 2, 4})}).out().rank_known());
  EXPECT_FALSE(numpy({P({D(2), Q}), U()}).out().rank_known());
  // Unknown rank does not hide invalid shapes elsewhere.
  EXPECT_EQ(numpy({U(), S({-3})}).code(), Status::InvalidShape);
}

// The shapes of known rank align against each other whatever the unknown rank
// turns out to be: a clash among them is a clash (numbered as they align).
TEST(NumpyDynamic, UnknownRankDoesNotHideAClashElsewhere) {
  const R r = numpy({S({3}), S({4}), U()});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 1);
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(4));
  const R r2 = numpy({U(), S({2, 3}), S({4, 3})});
  ASSERT_EQ(r2.code(), Status::IncompatibleDims);
  EXPECT_EQ(r2.err.axis, 0);
  EXPECT_EQ(r2.err.operand_a, 1);
  EXPECT_FALSE(numpy({U(), S({2, 3}), S({1, 3})}).out().rank_known()) << "agreeing shapes: unknown rank out";
  EXPECT_FALSE(numpy({S({5}), U(), P({I(2, 6)})}).out().rank_known());
}

TEST(NumpyDynamic, StaticInputGivesStaticResult) {
  const R r = numpy({P({D(1), Q, D(3)}), P({D(1), D(2), Q})});
  ASSERT_TRUE(r.ok());
  EXPECT_SHAPE(r.out(), S({1, 2, 3}));
  EXPECT_TRUE(r.out().is_static());
  EXPECT_FALSE(r.plan.is_static) << "the operands are not static, so no strides";
}

TEST(Numpy, LargeDescriptionsAreFine) {
  const i64 T = 1000000000000;
  const R r = numpy({S({T, T}), S({1})});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({T, T}));
  EXPECT_EQ(r.plan.out_size, INT64_MAX);
  EXPECT_SHAPE(numpy({S({tc::kMaxDim}), S({1})}).out(), S({tc::kMaxDim}));
}

TEST(Numpy, Rank32IsAllowed) {
  Shape big;
  for (int i = 0; i < tc::kMaxRank; ++i) big.push(D(i % 2 ? 2 : 1));
  const R r = numpy({big, S({3, 1})});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out().rank, 32);
  EXPECT_DIM(r.out()[30], D(3));
  EXPECT_DIM(r.out()[31], D(2));
}

}  // namespace

namespace {
using namespace tct;

// Issue 11 item 1 with dynamic dims: an operand takes part in a clash when its
// dim cannot be 1 and cannot equal another such dim; "?" or "1..n" never clash.
TEST(NumpyDynamic, WhoTakesPartInAClash) {
  const R r = numpy({P({Q}), S({3}), S({4})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.clash_axes, 0b1u);
  EXPECT_NE(r.op(0).verdict[0], Verdict::Clash) << "? may be 1, 3 or 4";
  EXPECT_EQ(r.op(1).verdict[0], Verdict::Clash);
  EXPECT_EQ(r.op(2).verdict[0], Verdict::Clash);
  const R s = numpy({P({I(2, 5)}), S({3}), S({7}), P({I(1, 9)})});
  ASSERT_EQ(s.code(), Status::IncompatibleDims);
  EXPECT_EQ(s.op(0).verdict[0], Verdict::Clash) << "2..5 can never be 7";
  EXPECT_EQ(s.op(1).verdict[0], Verdict::Clash);
  EXPECT_EQ(s.op(2).verdict[0], Verdict::Clash);
  EXPECT_NE(s.op(3).verdict[0], Verdict::Clash) << "1..9 may be 1";
  const R t = numpy({P({I(2, 4)}), P({I(3, 6)}), S({5})});
  ASSERT_EQ(t.code(), Status::IncompatibleDims) << "3..4 (the common part of the first two) cannot be 5";
  EXPECT_EQ(t.op(0).verdict[0], Verdict::Clash) << "2..4 vs 5";
  EXPECT_NE(t.op(1).verdict[0], Verdict::Clash) << "3..6 can meet both others";
  EXPECT_EQ(t.op(2).verdict[0], Verdict::Clash);
  const R z = numpy({S({0}), S({5}), S({0})});
  EXPECT_EQ(z.op(0).verdict[0], Verdict::Clash) << "0 is an ordinary size";
  EXPECT_EQ(z.op(2).verdict[0], Verdict::Clash);
}

// The error fields of an n-ary refusal: axis = the trailing-most clashing axis;
// operand_a holds dim_a, the value the earlier operands merged to on that axis
// (the first non-1 dim); operand_b is the first operand that disagrees with it.
TEST(Numpy, NAryErrorFields) {
  const R r = numpy({S({2, 1}), S({3, 5}), S({1, 6}), S({4, 5})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 1);
  EXPECT_EQ(r.err.clash_axes, 0b11u);
  EXPECT_EQ(r.err.operand_a, 1);
  EXPECT_EQ(r.err.operand_b, 2);
  EXPECT_DIM(r.err.dim_a, D(5));
  EXPECT_DIM(r.err.dim_b, D(6));
  EXPECT_EQ(r.err.detail, -1);
  // Every operand with a non-1 dim on axis 0 differs from another: all marked.
  EXPECT_EQ(r.op(0).verdict[0], Verdict::Clash);
  EXPECT_EQ(r.op(1).verdict[0], Verdict::Clash);
  EXPECT_NE(r.op(2).verdict[0], Verdict::Clash);
  EXPECT_EQ(r.op(3).verdict[0], Verdict::Clash);
  // On axis 1 the 5s disagree with the 6.
  EXPECT_NE(r.op(0).verdict[1], Verdict::Clash);
  EXPECT_EQ(r.op(1).verdict[1], Verdict::Clash);
  EXPECT_EQ(r.op(2).verdict[1], Verdict::Clash);
  EXPECT_EQ(r.op(3).verdict[1], Verdict::Clash);
}

// Marking costs O(operands) per axis (not operand pairs): 4096 operands.
TEST(Numpy, ManyOperandsClash) {
  std::vector<Shape> many(4096, S({1, 2}));
  many[100] = S({3, 2});
  many[4000] = S({4, 5});
  const R r = numpy(many);
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.clash_axes, 0b11u);
  EXPECT_EQ(r.op(100).verdict[0], Verdict::Clash);
  EXPECT_EQ(r.op(4000).verdict[0], Verdict::Clash);
  EXPECT_EQ(r.op(0).verdict[1], Verdict::Clash) << "every 2 differs from the 5";
  EXPECT_NE(r.op(0).verdict[0], Verdict::Clash);
}

// numpy_static_shape: the flat, plan-free answer of the shape API's common
// call. Wherever it answers it agrees with broadcast_numpy; it answers every
// static input that broadcasts, and nothing else.
std::vector<double> words_of(const std::vector<std::vector<double>>& shapes) {
  std::vector<double> w;
  for (const auto& s : shapes) {
    w.push_back(static_cast<double>(s.size()));
    w.insert(w.end(), s.begin(), s.end());
  }
  return w;
}

int flat(const std::vector<std::vector<double>>& shapes, std::vector<double>& out) {
  const std::vector<double> w = words_of(shapes);
  out.assign(kMaxRank + 1, -7);  // one word past the room it may use: never written
  const int r = numpy_static_shape(w.data(), w.size(), static_cast<int>(shapes.size()), out.data());
  EXPECT_EQ(out[kMaxRank], -7);
  if (r >= 0) out.resize(static_cast<size_t>(r));
  return r;
}

TEST(NumpyStatic, AgreesWithTheRuleOnRandomShapes) {
  std::uint64_t seed = 0x2545f4914f6cdd1dull;
  auto rnd = [&](int n) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return static_cast<int>(seed % static_cast<std::uint64_t>(n)); };
  int answered = 0, refused = 0;
  for (int c = 0; c < 4000; ++c) {
    const int n = rnd(5);
    const int rank = rnd(6);
    std::vector<std::vector<double>> shapes;
    std::vector<Shape> s;
    for (int k = 0; k < n; ++k) {
      const int r = std::max(0, rank - rnd(3));
      std::vector<double> d;
      Shape sh = S({});
      for (int i = 0; i < r; ++i) {
        const int pick = rnd(8);
        const i64 v = pick < 3 ? 1 : pick == 3 ? 0 : 2 + rnd(3);
        d.push_back(static_cast<double>(v));
        sh.push(Dim::fixed(v));
      }
      shapes.push_back(d);
      s.push_back(sh);
    }
    std::vector<double> out;
    const int r = flat(shapes, out);
    const R want = numpy(s);
    if (!want.ok()) {
      EXPECT_EQ(r, -1) << "case " << c << ": a clash is left to broadcast_numpy";
      ++refused;
      continue;
    }
    ++answered;
    ASSERT_EQ(r, want.out().rank) << "case " << c;
    for (int a = 0; a < r; ++a) EXPECT_EQ(out[a], static_cast<double>(want.out().dims[a].lo)) << "case " << c << " axis " << a;
  }
  EXPECT_GT(answered, 1000);
  EXPECT_GT(refused, 500);
}

TEST(NumpyStatic, RankLimitsAndNoShapes) {
  std::vector<double> out;
  EXPECT_EQ(flat({}, out), 0) << "no shapes: []";
  EXPECT_EQ(flat({{}, {}}, out), 0);
  std::vector<double> r32(kMaxRank, 1);
  r32[0] = 9007199254740991.0;  // the largest dim
  ASSERT_EQ(flat({r32, {3}}, out), kMaxRank);
  EXPECT_EQ(out[0], 9007199254740991.0);
  EXPECT_EQ(out[kMaxRank - 1], 3);
}

TEST(NumpyStatic, LeavesEveryOtherInputToTheRule) {
  std::vector<double> out;
  // Dims that are not static integers in [0, 2^53): -1 (keep), -2 (an interval's marker), fractions, NaN, too large.
  for (const double bad : {-1.0, -2.0, 1.5, std::nan(""), 9007199254740992.0, -0.5, 1e300})
    EXPECT_EQ(flat({{2, bad}, {1}}, out), -1) << bad;
  // Malformed words: a rank out of range or not an integer, or shapes past the end.
  auto raw = [&](std::vector<double> w, int n) {
    out.assign(kMaxRank, 0);
    return numpy_static_shape(w.data(), w.size(), n, out.data());
  };
  EXPECT_EQ(raw({33}, 1), -1) << "rank over the limit";
  EXPECT_EQ(raw({-1}, 1), -1) << "unknown rank";
  EXPECT_EQ(raw({1.5, 2}, 1), -1);
  EXPECT_EQ(raw({2, 3}, 1), -1) << "a dim past the end";
  EXPECT_EQ(raw({1, 3}, 2), -1) << "a shape past the end";
  EXPECT_EQ(raw({}, 1), -1);
  EXPECT_EQ(raw({1, 3, 0}, 2), 1) << "a rank-0 shape";
  EXPECT_EQ(out[0], 3);
}
}  // namespace


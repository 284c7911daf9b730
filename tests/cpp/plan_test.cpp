// core/plan.cpp: verdicts, strides, out_size and the merged loop that every rule shares.
#include "test_util.hpp"

namespace {

using namespace tct;
using L = tc::LoopPlan;
using VV = std::vector<Verdict>;
constexpr Verdict Eq = Verdict::Equal, St = Verdict::Stretched, Nw = Verdict::New, Cl = Verdict::Clash;

// The header's own picture: A [8,1,6,1], B [7,1,5].
TEST(Plan, VerdictsAndStridesOfTheHeaderExample) {
  const R r = numpy({S({8, 1, 6, 1}), S({7, 1, 5})});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({8, 7, 6, 5}));
  EXPECT_EQ(r.verdicts(0), (VV{Eq, St, Eq, St}));
  EXPECT_EQ(r.strides(0), (V{6, 0, 1, 0}));
  EXPECT_EQ(r.verdicts(1), (VV{Nw, Eq, St, Eq}));
  EXPECT_EQ(r.strides(1), (V{0, 5, 0, 1}));
  EXPECT_EQ(r.op(1).src_axis[0], -1);
  EXPECT_EQ(r.op(1).src_axis[1], 0);
  EXPECT_EQ(r.op(1).src_axis[3], 2);
  EXPECT_DIM(r.op(1).aligned[0], D(1)) << "new axes align as 1";
  EXPECT_TRUE(r.plan.is_static);
  EXPECT_EQ(r.plan.out_size, 8 * 7 * 6 * 5);
}

TEST(Plan, SameShapeIsOneLoopAxis) {
  const R r = numpy({S({2, 3, 4}), S({2, 3, 4})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.loop_shape(), (V{24}));
  EXPECT_EQ(r.loop_strides(0), (V{1}));
  EXPECT_EQ(r.loop_strides(1), (V{1}));
  EXPECT_EQ(r.plan.loop.inner, L::Contiguous);
}

TEST(Plan, RowBroadcast) {  // [1024,1024] + [1024]
  const R r = numpy({S({1024, 1024}), S({1024})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.loop_shape(), (V{1024, 1024}));
  EXPECT_EQ(r.loop_strides(0), (V{1024, 1}));
  EXPECT_EQ(r.loop_strides(1), (V{0, 1}));
  EXPECT_EQ(r.plan.loop.inner, L::Contiguous);
}

TEST(Plan, ColumnBroadcast) {  // [1024,1024] + [1024,1]
  const R r = numpy({S({1024, 1024}), S({1024, 1})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.loop_shape(), (V{1024, 1024}));
  EXPECT_EQ(r.loop_strides(0), (V{1024, 1}));
  EXPECT_EQ(r.loop_strides(1), (V{1, 0}));
  EXPECT_EQ(r.plan.loop.inner, L::SecondScalar);
}

TEST(Plan, OuterProduct) {  // [1,1024] + [1024,1]
  const R r = numpy({S({1, 1024}), S({1024, 1})});
  ASSERT_TRUE(r.ok());
  EXPECT_SHAPE(r.out(), S({1024, 1024}));
  EXPECT_EQ(r.strides(0), (V{0, 1}));
  EXPECT_EQ(r.strides(1), (V{1, 0}));
  EXPECT_EQ(r.loop_shape(), (V{1024, 1024}));
  EXPECT_EQ(r.loop_strides(0), (V{0, 1}));
  EXPECT_EQ(r.loop_strides(1), (V{1, 0}));
  EXPECT_EQ(r.plan.loop.inner, L::SecondScalar);
  // Swapped operands: the scalar side is the first one.
  const R s = numpy({S({1024, 1}), S({1, 1024})});
  EXPECT_EQ(s.plan.loop.inner, L::FirstScalar);
}

TEST(Plan, ScalarOperands) {
  const R r = numpy({S({}), S({5})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.verdicts(0), (VV{Nw}));
  EXPECT_EQ(r.loop_shape(), (V{5}));
  EXPECT_EQ(r.loop_strides(0), (V{0}));
  EXPECT_EQ(r.loop_strides(1), (V{1}));
  EXPECT_EQ(r.plan.loop.inner, L::FirstScalar);
  const R both = numpy({S({1}), S({1}), S({5})});
  EXPECT_EQ(both.plan.loop.inner, L::BothScalar) << "operands 0 and 1 both read one element";
}

TEST(Plan, AdjacentStretchedAxesMerge) {  // [5,1,1] + [5,2,3]: A's two stretched axes fold with B's
  const R r = numpy({S({5, 1, 1}), S({5, 2, 3})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.strides(0), (V{1, 0, 0}));
  EXPECT_EQ(r.loop_shape(), (V{5, 6}));
  EXPECT_EQ(r.loop_strides(0), (V{1, 0}));
  EXPECT_EQ(r.loop_strides(1), (V{6, 1}));
  EXPECT_EQ(r.plan.loop.inner, L::FirstScalar);
}

TEST(Plan, SizeOneAxesAreDropped) {
  const R r = numpy({S({4, 1}), S({1, 4, 1})});
  ASSERT_TRUE(r.ok());
  EXPECT_SHAPE(r.out(), S({1, 4, 1}));
  EXPECT_EQ(r.verdicts(0), (VV{Nw, Eq, Eq})) << "1 against an output 1 is not stretched";
  EXPECT_EQ(r.loop_shape(), (V{4}));
  EXPECT_EQ(r.loop_strides(0), (V{1}));
  EXPECT_EQ(r.loop_strides(1), (V{1}));
}

TEST(Plan, StridedInnerLoop) {
  // Named dims may permute the right operand: (x:2, y:3) + (y:3, x:2) reads the
  // right operand with stride 2 on the inner axis.
  tc::NamedShape l, rt;
  l.rank = 2; l.name[0] = 1; l.size[0] = 2; l.name[1] = 2; l.size[1] = 3;
  rt.rank = 2; rt.name[0] = 2; rt.size[0] = 3; rt.name[1] = 1; rt.size[1] = 2;
  tc::NamedPlan np;
  Plan plan;
  Error err;
  ASSERT_EQ(tc::broadcast_named(l, rt, tc::Shaping::Exact, np, plan, err), Status::Ok);
  EXPECT_EQ(std::vector<i64>(plan.ops[1].strides, plan.ops[1].strides + 2), (V{1, 2}));
  EXPECT_EQ(plan.loop.inner, L::Strided);
  EXPECT_EQ(plan.loop.rank, 2) << "a permuted operand blocks merging";
}

TEST(Plan, ZeroSize) {
  const R r = numpy({S({0, 3}), S({1, 3})});
  ASSERT_TRUE(r.ok());
  EXPECT_SHAPE(r.out(), S({0, 3}));
  EXPECT_EQ(r.plan.out_size, 0);
  EXPECT_TRUE(r.plan.is_static);
  EXPECT_EQ(r.loop_shape(), (V{0})) << "an empty output is one empty loop";
  EXPECT_EQ(r.plan.loop.inner, L::Contiguous);
  const R z = numpy({S({1, 0}), S({0, 1})});
  ASSERT_TRUE(z.ok());
  EXPECT_SHAPE(z.out(), S({0, 0}));
  EXPECT_EQ(z.plan.out_size, 0);
  EXPECT_EQ(z.verdicts(0), (VV{St, Eq})) << "1 stretched to 0";
}

TEST(Plan, RankZero) {
  const R r = numpy({S({}), S({})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.out().rank, 0);
  EXPECT_EQ(r.plan.out_size, 1);
  EXPECT_EQ(r.loop_shape(), (V{1}));
  EXPECT_EQ(r.loop_strides(0), (V{1}));
  EXPECT_EQ(r.plan.loop.inner, L::Contiguous);
  const R none_at_all = numpy({});
  ASSERT_TRUE(none_at_all.ok()) << "§1: no operands gives []";
  EXPECT_EQ(none_at_all.out().rank, 0);
  EXPECT_EQ(none_at_all.plan.out_size, 1);
  EXPECT_TRUE(none_at_all.plan.ops.empty());
}

TEST(Plan, AllOnes) {
  const R r = numpy({S({1, 1}), S({1})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.out_size, 1);
  EXPECT_EQ(r.loop_shape(), (V{1}));
}

TEST(Plan, DynamicPlansHaveNoStridesOrLoop) {
  const R r = numpy({P({Q, D(3)}), S({3})});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.plan.is_static);
  EXPECT_EQ(r.plan.loop.rank, 0);
  EXPECT_EQ(r.op(0).strides[1], -1) << "strides of a dynamic plan are unknown";
  EXPECT_EQ(r.verdicts(1), (VV{Nw, Eq}));
  const R u = numpy({U(), S({3})});
  ASSERT_TRUE(u.ok());
  EXPECT_FALSE(u.out().rank_known());
  EXPECT_EQ(u.plan.out_size, 0);
  EXPECT_EQ(u.plan.loop.rank, 0);
}

TEST(Plan, HugeDescriptionSaturates) {  // spec: [1e12,1e12] is a fine shape
  const i64 T = 1000000000000;
  const R r = numpy({S({T, T}), S({1})});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_SHAPE(r.out(), S({T, T}));
  EXPECT_TRUE(r.plan.is_static);
  EXPECT_EQ(r.plan.out_size, INT64_MAX);
  EXPECT_EQ(r.strides(0), (V{T, 1}));
  EXPECT_EQ(r.strides(1), (V{0, 0}));
  EXPECT_EQ(r.loop_shape(), (V{INT64_MAX})) << "merged extent saturates";
  const i64 M = tc::kMaxDim;
  const R m = numpy({S({M, M, M}), S({M, 1, M})});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.plan.out_size, INT64_MAX);
  EXPECT_EQ(m.op(0).strides[0], INT64_MAX) << "own strides saturate too";
}

TEST(Plan, RefusedPlanMarksTheClash) {
  const R r = numpy({S({2, 3}), S({4, 3})});
  ASSERT_EQ(r.code(), Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.verdicts(0), (VV{Cl, Eq}));
  EXPECT_EQ(r.verdicts(1), (VV{Cl, Eq}));
  // A 1 at the clashing axis is not part of the clash.
  const R t = numpy({S({2, 1}), S({1, 1}), S({4, 3})});
  ASSERT_EQ(t.code(), Status::IncompatibleDims);
  EXPECT_EQ(t.err.axis, 0);
  EXPECT_EQ(t.verdicts(1)[0], St);
  EXPECT_EQ(t.verdicts(0)[0], Cl);
  EXPECT_EQ(t.verdicts(2)[0], Cl);
}

TEST(Plan, ShapeOnlySkipsStridesAndLoop) {
  Plan plan;
  plan.shape_only = true;
  Error err;
  const Shape in[2] = {S({8, 1, 6, 1}), S({7, 1, 5})};
  ASSERT_EQ(tc::broadcast_numpy(in, 2, plan, err), Status::Ok);
  EXPECT_SHAPE(plan.out, S({8, 7, 6, 5}));
  EXPECT_EQ(plan.out_size, 8 * 7 * 6 * 5);
  EXPECT_TRUE(plan.is_static);
  EXPECT_EQ(plan.loop.rank, 0);
  const Shape bad[2] = {S({3}), S({4})};
  EXPECT_EQ(tc::broadcast_numpy(bad, 2, plan, err), Status::IncompatibleDims) << "errors are still found";
  EXPECT_EQ(err.axis, 0);
}

// A shape-only numpy plan of static shapes takes a one-pass path of its own
// (numpy.cpp merge_static): it must answer exactly as the full plan does, for
// every pair and triple of small shapes (dims 0 to 3, ranks 0 to 3), clashes,
// 0s, invalid dims and a reused plan included.
TEST(Plan, ShapeOnlyAnswersAsTheFullPlan) {
  std::vector<Shape> shapes;
  const i64 dims[] = {0, 1, 2, 3};
  for (int rank = 0; rank <= 3; ++rank) {
    int total = 1;
    for (int i = 0; i < rank; ++i) total *= 4;
    for (int code = 0; code < total; ++code) {
      Shape s;
      for (int i = 0, c = code; i < rank; ++i, c /= 4) s.push(Dim::fixed(dims[c % 4]));
      shapes.push_back(s);
    }
  }
  Shape odd;  // not static: the general path
  odd.push(Dim::interval(1, 3));
  shapes.push_back(odd);
  Shape bad;  // an invalid dim: refused by validation, on both paths
  bad.push(Dim::fixed(-5));
  shapes.push_back(bad);
  Plan lean;
  lean.shape_only = true;
  Plan full;
  int compared = 0;
  const auto same = [&](const Shape* in, int n) {
    Error el, ef;
    const Status sl = tc::broadcast_numpy(in, n, lean, el);
    const Status sf = tc::broadcast_numpy(in, n, full, ef);
    ASSERT_EQ(sl, sf);
    ++compared;
    EXPECT_EQ(el.axis, ef.axis);
    EXPECT_EQ(el.operand_a, ef.operand_a);
    EXPECT_EQ(el.operand_b, ef.operand_b);
    EXPECT_EQ(el.dim_a, ef.dim_a);
    EXPECT_EQ(el.dim_b, ef.dim_b);
    EXPECT_EQ(el.clash_axes, ef.clash_axes);
    if (sf != Status::Ok) return;
    EXPECT_SHAPE(lean.out, full.out);
    EXPECT_EQ(lean.out_size, full.out_size);
    EXPECT_EQ(lean.is_static, full.is_static);
    EXPECT_EQ(lean.loop.rank, 0);
  };
  for (const Shape& a : shapes)
    for (const Shape& b : shapes) {
      const Shape two[2] = {a, b};
      same(two, 2);
    }
  for (size_t i = 0; i < shapes.size(); i += 7)
    for (size_t j = 0; j < shapes.size(); j += 5)
      for (size_t k = 0; k < shapes.size(); k += 3) {
        const Shape three[3] = {shapes[i], shapes[j], shapes[k]};
        same(three, 3);
      }
  EXPECT_GT(compared, 7000);
}

TEST(Plan, ResetClearsPreviousResults) {
  Plan plan;
  Error err;
  const Shape big[2] = {S({2, 3, 4}), S({4})};
  ASSERT_EQ(tc::broadcast_numpy(big, 2, plan, err), Status::Ok);
  const Shape one[1] = {S({7})};
  ASSERT_EQ(tc::broadcast_numpy(one, 1, plan, err), Status::Ok);
  EXPECT_EQ(plan.ops.size(), 1u);
  EXPECT_SHAPE(plan.out, S({7}));
  EXPECT_EQ(plan.loop.rank, 1);
  EXPECT_EQ(plan.loop.strides.size(), 1u);
}

}  // namespace

namespace {
using namespace tct;
// Issue 11: every rule marks every axis whose dims disagree, and lists them in
// err.clash_axes; err.axis stays the first one found (from the trailing axis).
TEST(Clashes, EveryRuleMarksEveryDisagreeingAxis) {
  struct Case { const char* name; R r; std::uint64_t axes; int first; };
  const Case cases[] = {
      {"none", none(S({2, 3}), S({4, 5})), 0b11, 1},
      {"pdpd", pdpd(S({2, 3, 4}), S({5, 6}), 1), 0b110, 2},
      {"to numpy", to_numpy(S({2, 3}), S({4, 5})), 0b11, 1},
      {"to explicit", to_explicit(S({2, 3}), S({4, 5, 6}), {0, 2}), 0b101, 2},
      {"to bidirectional", to_bidirectional(S({2, 3}), S({4, 5})), 0b11, 1},
      {"to pdpd", to_pdpd(S({2, 3}), S({4, 5, 6}), 1), 0b110, 2},
  };
  for (const auto& c : cases) {
    EXPECT_NE(c.r.code(), Status::Ok) << c.name;
    EXPECT_EQ(c.r.err.clash_axes, c.axes) << c.name;
    EXPECT_EQ(c.r.err.axis, c.first) << c.name;
    for (int a = 0; a < 3; ++a) {
      if (!(c.axes >> a & 1)) continue;
      EXPECT_EQ(c.r.op(0).verdict[a], Verdict::Clash) << c.name << " axis " << a;
    }
  }
}
}  // namespace

namespace {
using namespace tct;
// Issue 11: who is marked, per rule. Rules where a 1 stretches (§1, §4.3) mark
// the operands whose dims cannot meet another's; the others mark both sides of
// each clash (§2, §3, §6) or the input (§4.1, §4.2, §4.4). A refused plan
// still has every axis aligned, and no loop.
TEST(Clashes, WhoIsMarkedPerRule) {
  const R n = numpy({S({4, 3}), S({7, 5})});
  for (int k = 0; k < 2; ++k) EXPECT_EQ(n.verdicts(k), (VV{Cl, Cl})) << k;
  EXPECT_EQ(n.plan.loop.rank, 0);
  const R three = numpy({S({8, 4, 6, 1}), S({7, 3, 5})});
  EXPECT_EQ(three.verdicts(0), (VV{Eq, Cl, Cl, St}));
  EXPECT_EQ(three.verdicts(1), (VV{Nw, Cl, Cl, Eq}));
  const R none_r = none(S({2, 1}), S({2, 3}));
  EXPECT_EQ(none_r.verdicts(0), (VV{Eq, Cl}));
  EXPECT_EQ(none_r.verdicts(1), (VV{Eq, Cl})) << "a 1 is no wildcard in §2";
  const R pd = pdpd(S({2, 1}), S({3}), 1);
  EXPECT_EQ(pd.verdicts(0), (VV{Eq, Cl}));
  EXPECT_EQ(pd.verdicts(1), (VV{Nw, Cl}));
  const R to = to_numpy(S({3, 1}), S({4, 1}));
  EXPECT_EQ(to.verdicts(0), (VV{Cl, Eq}));
}

// mark_clash (one axis) stays for refusals that name one axis without a dim
// clash; it marks nothing on an axis no operand has.
TEST(Clashes, MinusOneInANewAxisMarksNothing) {
  const R r = to_numpy(S({5}), S({-1, 5}));
  ASSERT_EQ(r.code(), Status::MinusOneInNewAxis);
  EXPECT_EQ(r.err.axis, 0);
  EXPECT_EQ(r.verdicts(0), (VV{Nw, Eq}));
}
}  // namespace

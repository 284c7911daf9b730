// expr/expr.cpp and expr/interp.cpp — compiling a parsed expression (types, the
// tree's broadcast plan, slots, the merged loop, chunked reductions) and the
// block interpreter, natively (and under ASan/UBSan in `npm test`): results
// equal the op-by-op composition through the same kernels, refusals name the
// node, and hostile shapes are refused without touching memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "expr/expr.hpp"
#include "kernels/driver.hpp"
#include "kernels/reduce.hpp"
#include "rules/rules.hpp"

namespace {

using namespace tc;
using namespace tc::expr;

std::u16string u16(const std::string& s) { return std::u16string(s.begin(), s.end()); }

Shape shape(std::initializer_list<i64> d) {
  Shape s;
  s.rank = static_cast<int>(d.size());
  int i = 0;
  for (i64 v : d) s.dims[i++] = Dim::fixed(v);
  return s;
}

Input tensor(DType dt, Shape s) {
  Input in;
  in.kind = Input::tensor;
  in.dtype = dt;
  in.shape = s;
  return in;
}

struct Compiled1 {
  Parsed p;
  Compiled c;
  Failure f;
  Status st;
};

Compiled1 build(const std::string& text, std::vector<Input> inputs, Rule rule = Rule::numpy, i64 axis = -1,
                std::vector<i64> axes = {}, bool all_axes = true) {
  Compiled1 r;
  const std::u16string t = u16(text);
  parse(t.data(), static_cast<int>(t.size()), r.p);
  EXPECT_EQ(r.p.code, SyntaxCode::ok) << text;
  Request q;
  q.rule = rule;
  q.axis = axis;
  q.inputs = inputs.data();
  q.n_inputs = static_cast<int>(inputs.size());
  static bool no_names[kMaxRank] = {};
  q.axes = axes.data();
  q.axis_is_name = no_names;
  q.n_axes = all_axes ? -1 : static_cast<int>(axes.size());
  r.st = compile(r.p, t.data(), q, r.c, r.f);
  return r;
}

std::vector<float> iota(size_t n, float from = 1) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i) * 0.5f;
  return v;
}

// a (op) b through the library's op-by-op path.
std::vector<float> binary(Op op, const std::vector<float>& a, Shape sa, const std::vector<float>& b, Shape sb, Shape& out) {
  Plan plan;
  Error err;
  const Shape two[2] = {sa, sb};
  EXPECT_EQ(broadcast_numpy(two, 2, plan, err), Status::Ok);
  out = plan.out;
  std::vector<float> r(static_cast<size_t>(plan.out_size));
  EXPECT_EQ(run_binary(plan, DType::f32, op, a.data(), b.data(), r.data()), Status::Ok);
  return r;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  return std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(Expr, ChainEqualsOpByOp) {
  const Shape sx = shape({4, 3, 5}), sm = shape({3, 1}), ss = shape({5});
  auto x = iota(60), m = iota(3, -2), s = iota(5, 0.25f);
  auto r = build("(x - m) / s", {tensor(DType::f32, sx), tensor(DType::f32, sm), tensor(DType::f32, ss)});
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.c.out.rank, 3);
  std::vector<float> got(60);
  const void* ptrs[3] = {x.data(), m.data(), s.data()};
  ASSERT_EQ(run(r.c, ptrs, got.data(), nullptr), Status::Ok);
  Shape t1, t2;
  auto d = binary(Op::sub, x, sx, m, sm, t1);
  auto want = binary(Op::div, d, t1, s, ss, t2);
  EXPECT_TRUE(same_bits(got, want));
}

TEST(Expr, ConstantsAdoptTheDtypeAndFold) {
  auto r = build("x * (2 + 3) - 1", {tensor(DType::i32, shape({3}))});
  ASSERT_EQ(r.st, Status::Ok);
  // 2 + 3 folds into one constant: load, constant 5, mul, constant 1, sub.
  ASSERT_EQ(r.c.prog.code.size(), 5u);
  std::vector<std::int32_t> x = {1, -2, 7}, got(3);
  const void* ptrs[1] = {x.data()};
  ASSERT_EQ(run(r.c, ptrs, got.data(), nullptr), Status::Ok);
  EXPECT_EQ(got, (std::vector<std::int32_t>{4, -11, 34}));
}

TEST(Expr, RefusalsNameTheNode) {
  auto r = build("x + y * 2", {tensor(DType::f32, shape({3})), tensor(DType::i32, shape({3}))});
  EXPECT_EQ(r.st, Status::DtypeMismatch);
  EXPECT_EQ(r.f.code, Fail::mismatch);
  EXPECT_EQ(r.f.pos, 0);
  EXPECT_EQ(r.f.len, 9);
  auto b = build("x + (y * 2)", {tensor(DType::f32, shape({3})), tensor(DType::f32, shape({4}))});
  EXPECT_EQ(b.st, Status::IncompatibleDims);
  EXPECT_EQ(b.f.code, Fail::broadcast);
  EXPECT_EQ(b.f.n_shapes, 2);
  auto d = build("sqrt(x)", {tensor(DType::i32, shape({3}))});
  EXPECT_EQ(d.f.code, Fail::domain);
  auto n = build("1 + 2", {});
  EXPECT_EQ(n.f.code, Fail::no_tensor);
}

TEST(Expr, ReductionRunsByChunksAndEqualsMulThenSum) {
  // sum(a * b, [1]) over a [6, 7, 1] and b [7, 5]: chunks over axis 0, each a (7, 5) block.
  const Shape sa = shape({6, 7, 1}), sb = shape({7, 5});
  auto a = iota(42, -3), b = iota(35, 0.125f);
  auto r = build("sum(a * b, [1])", {tensor(DType::f32, sa), tensor(DType::f32, sb)}, Rule::numpy, -1, {1}, false);
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.c.prefix, 1);
  EXPECT_EQ(r.c.chunks, 6);
  std::vector<float> got(30);
  const void* ptrs[2] = {a.data(), b.data()};
  ASSERT_EQ(run(r.c, ptrs, got.data(), nullptr), Status::Ok);
  Shape t;
  auto prod = binary(Op::mul, a, sa, b, sb, t);
  std::vector<float> want(30);
  ASSERT_EQ(run_reduce(t, 2, ReduceOp::sum, DType::f32, DType::f32, prod.data(), want.data()), Status::Ok);
  EXPECT_TRUE(same_bits(got, want));
}

TEST(Expr, ReductionAxisOutOfRangeIsRefused) {
  auto r = build("sum(a, [3])", {tensor(DType::f32, shape({2, 2}))}, Rule::numpy, -1, {3}, false);
  EXPECT_EQ(r.st, Status::InvalidAxis);
  EXPECT_EQ(r.f.code, Fail::bad_axis);
}

TEST(Expr, WhereAndCastThroughTheInterpreter) {
  auto r = build("x > 1 ? cast(x, 'int32') : -1", {tensor(DType::f32, shape({4}))});
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.c.out_dtype, DType::i32);
  std::vector<float> x = {0.5f, 1.5f, 2.75f, -3};
  std::vector<std::int32_t> got(4);
  const void* ptrs[1] = {x.data()};
  ASSERT_EQ(run(r.c, ptrs, got.data(), nullptr), Status::Ok);
  EXPECT_EQ(got, (std::vector<std::int32_t>{-1, 1, 2, -1}));
}

TEST(Expr, ZeroSizeAndRankZero) {
  auto z = build("x * 2", {tensor(DType::f32, shape({0, 3}))});
  ASSERT_EQ(z.st, Status::Ok);
  EXPECT_EQ(z.c.out_size, 0);
  const void* none[1] = {nullptr};
  float sink = 0;
  EXPECT_EQ(run(z.c, none, &sink, nullptr), Status::Ok);
  auto s = build("x + y", {tensor(DType::f64, shape({})), tensor(DType::f64, shape({}))});
  ASSERT_EQ(s.st, Status::Ok);
  double x = 1.25, y = 2.5, got = 0;
  const void* ptrs[2] = {&x, &y};
  ASSERT_EQ(run(s.c, ptrs, &got, nullptr), Status::Ok);
  EXPECT_EQ(got, 3.75);
}

TEST(Expr, HugeShapesAreDescribedNotRun) {
  // The broadcast of two large shapes compiles (a description), and its size says it cannot be held.
  auto r = build("a * b", {tensor(DType::f64, shape({1 << 20, 1})), tensor(DType::f64, shape({1, 1 << 20}))});
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_GT(static_cast<double>(r.c.out_size) * 8, kMaxBytes);
}

TEST(Expr, PdpdFollowsEachOpNode) {
  // pdpd places B into A at `axis` at each op, as op by op does.
  auto r = build("x + y", {tensor(DType::f32, shape({2, 3, 4})), tensor(DType::f32, shape({3}))}, Rule::pdpd, 1);
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.c.out.rank, 3);
  // Inputs are numbered by first appearance: here y (the [3]) is the left operand, as add(y, x) refuses it.
  auto bad = build("y + x", {tensor(DType::f32, shape({3})), tensor(DType::f32, shape({2, 3, 4}))}, Rule::pdpd, 1);
  EXPECT_EQ(bad.st, Status::RankMismatch);
  EXPECT_EQ(bad.f.code, Fail::broadcast);
}

}  // namespace

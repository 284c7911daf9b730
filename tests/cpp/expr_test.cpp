// expr/expr.cpp and expr/interp.cpp — compiling a parsed expression (types, the
// tree's broadcast plan, slots, the merged loop, chunked reductions) and the
// block interpreter, natively (and under ASan/UBSan in `npm test`): results
// equal the op-by-op composition through the same kernels, refusals name the
// node, and hostile shapes are refused without touching memory.
#include <gtest/gtest.h>
#include <pthread.h>

#include <cmath>
#include <cstdint>
#include <functional>
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
  // sum(a * b, [1]) over a [6, 7, 1] and b [7, n]: a chunk takes whole leading
  // axes while it stays within 256 KiB. n = 5: one chunk of (6, 7, 5); n = 12000:
  // a (7, 12000) block is 336 KB, so chunks over axis 0. Both equal mul then sum.
  for (i64 n : {i64{5}, i64{12000}}) {
    const bool big = n > 5;
    const Shape sa = shape({6, 7, 1}), sb = shape({7, n});
    auto a = iota(42, -3), b = iota(static_cast<size_t>(7 * n), 0.125f);
    auto r = build("sum(a * b, [1])", {tensor(DType::f32, sa), tensor(DType::f32, sb)}, Rule::numpy, -1, {1}, false);
    ASSERT_EQ(r.st, Status::Ok);
    EXPECT_EQ(r.c.prefix, big ? 1 : 0);
    EXPECT_EQ(r.c.chunks, big ? 6 : 1);
    std::vector<float> got(static_cast<size_t>(6 * n));
    const void* ptrs[2] = {a.data(), b.data()};
    ASSERT_EQ(run(r.c, ptrs, got.data(), nullptr), Status::Ok);
    Shape t;
    auto prod = binary(Op::mul, a, sa, b, sb, t);
    std::vector<float> want(static_cast<size_t>(6 * n));
    ASSERT_EQ(run_reduce(t, 2, ReduceOp::sum, DType::f32, DType::f32, prod.data(), want.data()), Status::Ok);
    EXPECT_TRUE(same_bits(got, want)) << "n " << n;
  }
}

// sum((P * Q) * R) over the trailing axes with P one value along the run and
// Q, R contiguous: the planner marks it for product rows (the SIMD kernel;
// this native build has none, so run() keeps the chunks) with one result a
// chunk; the other forms keep the chunks' growth. Either way, mul, mul, sum.
TEST(Expr, ProductRowsArePlannedForABilinearForm) {
  const Shape sx = shape({5, 4, 1}), sw = shape({4, 32}), sy = shape({5, 1, 32});
  auto x = iota(20, -2), w = iota(128, 0.25f), y = iota(160, -7);
  struct Case { const char* text; bool rows; i64 runs; };  // runs of 32; over [2] alone, one run a result
  for (const Case k : {Case{"sum(x * w * y, [1, 2])", true, 4}, Case{"sum(w * x * y, [1, 2])", true, 4},
                       Case{"sum(x * (w * y), [1, 2])", false, 0}, Case{"sum(x * w * y, [2])", true, 1}}) {
    const bool all = std::string(k.text).find("[1, 2]") != std::string::npos;
    auto r = build(k.text, {tensor(DType::f32, sx), tensor(DType::f32, sw), tensor(DType::f32, sy)}, Rule::numpy, -1,
                   all ? std::vector<i64>{1, 2} : std::vector<i64>{2}, false);
    ASSERT_EQ(r.st, Status::Ok) << k.text;
    EXPECT_EQ(r.c.rows.on, k.rows) << k.text;
    const size_t n_out = all ? 5 : 20;
    if (k.rows) {
      EXPECT_EQ(r.c.rows.n, 32);
      EXPECT_EQ(r.c.rows.runs, k.runs);
      EXPECT_EQ(r.c.prefix, all ? 1 : 2);  // one result a chunk
      EXPECT_EQ(r.c.chunks, static_cast<i64>(n_out));
    } else {
      EXPECT_EQ(r.c.chunks, 1);  // the chunks' growth: all of it in one
    }
    std::vector<float> got(n_out);
    // The inputs as given to compile: x, w, y.
    const void* in[3] = {x.data(), w.data(), y.data()};
    ASSERT_EQ(run(r.c, in, got.data(), nullptr), Status::Ok) << k.text;
    Shape t1, t2;
    const std::string text = k.text;
    std::vector<float> prod;
    if (text.find("x * (w * y)") != std::string::npos) {
      auto wy = binary(Op::mul, w, sw, y, sy, t1);
      prod = binary(Op::mul, x, sx, wy, t1, t2);
    } else {
      auto pq = text.find("w * x") != std::string::npos ? binary(Op::mul, w, sw, x, sx, t1) : binary(Op::mul, x, sx, w, sw, t1);
      prod = binary(Op::mul, pq, t1, y, sy, t2);
    }
    std::vector<float> want(n_out);
    ASSERT_EQ(run_reduce(t2, all ? 6 : 4, ReduceOp::sum, DType::f32, DType::f32, prod.data(), want.data()), Status::Ok);
    EXPECT_TRUE(same_bits(got, want)) << k.text;
  }
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

TEST(Expr, ReductionOverAZeroSizeAxisPlansWithoutDividingByZero) {
  // sum(x, [1]) over [2, 0]: the chunk planned below the kept axis holds no
  // bytes; the split of that axis into groups must not be computed from 0 bytes
  // (262144 / 0 converted to an integer: undefined behaviour, a UBSan report).
  auto r = build("sum(x, [1])", {tensor(DType::f32, shape({2, 0}))}, Rule::numpy, -1, {1}, false);
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.c.out_size, 2);
  EXPECT_EQ(r.c.group, 1);
  const void* none[1] = {nullptr};
  std::vector<float> got(2, -1.0f);
  ASSERT_EQ(run(r.c, none, got.data(), nullptr), Status::Ok);
  EXPECT_EQ(got, (std::vector<float>{0.0f, 0.0f}));
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


// ---- trees as deep as the node limit, on the wasm module's stack --------------
// The module runs on a 256 KiB stack (CMakeLists.txt TOTAL_STACK); a walk that
// recursed per node overflowed it at about 900 nodes of a chain x+x+...+x. Here
// compile and run go on a thread with a stack of that size (more under
// AddressSanitizer, whose frames are larger), so a recursion per node crashes.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kStack = 1 << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr size_t kStack = 1 << 20;
#else
constexpr size_t kStack = 256 << 10;
#endif
#else
constexpr size_t kStack = 256 << 10;
#endif

void on_small_stack(const std::function<void()>& f) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, kStack), 0);
  pthread_t t;
  auto body = [](void* p) -> void* {
    (*static_cast<const std::function<void()>*>(p))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&t, &attr, body, const_cast<std::function<void()>*>(&f)), 0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
}

// Compile `text` over one float64 [3] operand x on the small stack and run it.
std::vector<double> deep(const std::string& text, Status& st, size_t& nodes) {
  std::vector<double> got(3, -1);
  on_small_stack([&] {
    const std::u16string t = u16(text);
    Parsed p;
    parse(t.data(), static_cast<int>(t.size()), p);
    nodes = p.nodes.size();
    if (p.code != SyntaxCode::ok) {
      st = Status::InvalidShape;
      return;
    }
    Input x = tensor(DType::f64, shape({3}));
    Request q;
    q.inputs = &x;
    q.n_inputs = 1;
    Compiled c;
    Failure f;
    st = compile(p, t.data(), q, c, f);
    if (st != Status::Ok) return;
    const double xs[3] = {1, 2, 0.5};
    const void* ptrs[1] = {xs};
    st = run(c, ptrs, got.data(), nullptr);
  });
  return got;
}

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}

TEST(Expr, TreesAsDeepAsTheNodeLimitTakeNoStackPerNode) {
  Status st = Status::Ok;
  size_t nodes = 0;
  // A left chain of 2048 loads: 4095 nodes, 2047 levels deep.
  auto got = deep("x" + repeat("+x", 2047), st, nodes);
  EXPECT_EQ(nodes, 4095u);
  ASSERT_EQ(st, Status::Ok);
  EXPECT_EQ(got, (std::vector<double>{2048, 4096, 1024}));
  // Every op kind along the chain: (x*1) - -x ... with where, cast and a unary op.
  got = deep("x" + repeat(" + where(x > 0, cast(cast(x, 'float32'), 'float64'), abs(x)) * 1", 290), st, nodes);
  EXPECT_LE(nodes, 4096u);
  ASSERT_EQ(st, Status::Ok);
  EXPECT_EQ(got, (std::vector<double>{291, 582, 145.5}));
  // Constants only on one side: a chain that folds as it goes (1+1+...+1), then meets x.
  got = deep(repeat("1+", 2047) + "x", st, nodes);
  EXPECT_EQ(nodes, 4095u);
  ASSERT_EQ(st, Status::Ok);
  EXPECT_EQ(got, (std::vector<double>{2048, 2049, 2047.5}));
  // A reduction around a chain of the limit.
  got = deep("sum(x" + repeat("-x", 2046) + ")", st, nodes);
  EXPECT_EQ(nodes, 4094u);
  ASSERT_EQ(st, Status::Ok);
  EXPECT_EQ(got[0], (1 + 2 + 0.5) * -2045);
}

// ---- scalars: as the ops store them (operands.js scalarOperand) -----------------
Input number(double v) {
  Input in;
  in.kind = Input::number;
  in.value = v;
  return in;
}
// A BigInt operand: its bits modulo 2^64 and Number() of it, as the wire carries them.
Input bigint(std::uint64_t bits, double value) {
  Input in;
  in.kind = Input::bigint;
  in.bits = static_cast<std::int64_t>(bits);
  in.value = value;
  return in;
}

template <class T>
std::vector<T> run1(const std::string& text, DType dt, std::vector<T> x, std::vector<Input> more) {
  std::vector<Input> inputs = {tensor(dt, shape({static_cast<i64>(x.size())}))};
  inputs.insert(inputs.end(), more.begin(), more.end());
  auto r = build(text, inputs);
  EXPECT_EQ(r.st, Status::Ok) << text;
  std::vector<T> got(x.size());
  if (r.st != Status::Ok) return got;
  std::vector<const void*> ptrs(inputs.size(), nullptr);
  ptrs[0] = x.data();
  EXPECT_EQ(run(r.c, ptrs.data(), got.data(), nullptr), Status::Ok);
  return got;
}

TEST(Expr, NegativeNumbersOverInt64AreExact) {
  // x * k + s with k = -2, s = -3000: mul then add, as BigInt(-2) and BigInt(-3000) (it was [-2048, -2048]).
  EXPECT_EQ(run1<std::int64_t>("x * k + s", DType::i64, {10, 20}, {number(-2), number(-3000)}),
            (std::vector<std::int64_t>{-3020, -3040}));
  EXPECT_EQ(run1<std::uint64_t>("x + k", DType::u64, {10, 0}, {number(-1)}),
            (std::vector<std::uint64_t>{9, UINT64_MAX}));
  // -2^63, -(2^63 + 2048) and -2^64 - 2^12: the number modulo 2^64.
  EXPECT_EQ(run1<std::int64_t>("x + k", DType::i64, {0, 1}, {number(-9223372036854775808.0)}),
            (std::vector<std::int64_t>{INT64_MIN, INT64_MIN + 1}));
  EXPECT_EQ(run1<std::int64_t>("x + k", DType::i64, {0, 1}, {number(-9223372036854777856.0)}),
            (std::vector<std::int64_t>{INT64_MAX - 2047, INT64_MAX - 2046}));
  EXPECT_EQ(run1<std::uint64_t>("x + k", DType::u64, {0, 1}, {number(-18446744073709555712.0)}),
            (std::vector<std::uint64_t>{UINT64_MAX - 4095, UINT64_MAX - 4094}));
  EXPECT_EQ(run1<std::uint64_t>("x + k", DType::u64, {0, 1}, {number(18446744073709549568.0)}),
            (std::vector<std::uint64_t>{18446744073709549568u, 18446744073709549569u}));
}

TEST(Expr, BigIntsOverOtherDtypesAreTheirNumber) {
  // 2^63 over float64 is +9.22e18 (it was read as the int64 -2^63).
  EXPECT_EQ(run1<double>("x + k", DType::f64, {0, 1}, {bigint(std::uint64_t{1} << 63, 9223372036854775808.0)}),
            (std::vector<double>{9223372036854775808.0, 9223372036854775808.0}));
  // 2^64 + 5 over int32: Number() is 2^64, stored as 0 (the bits say 5).
  EXPECT_EQ(run1<std::int32_t>("x + k", DType::i32, {0, 1}, {bigint(5, 18446744073709551616.0)}),
            (std::vector<std::int32_t>{0, 1}));
  // Over the 64-bit dtypes, the bits.
  EXPECT_EQ(run1<std::int64_t>("x + k", DType::i64, {0, 1}, {bigint(5, 18446744073709551616.0)}),
            (std::vector<std::int64_t>{5, 6}));
  EXPECT_EQ(run1<std::uint64_t>("x + k", DType::u64, {0, 1}, {bigint(std::uint64_t{1} << 63, 9223372036854775808.0)}),
            (std::vector<std::uint64_t>{std::uint64_t{1} << 63, (std::uint64_t{1} << 63) + 1}));
  // The same as literals: any BigInt literal, its bits modulo 2^64 and its Number().
  EXPECT_EQ(run1<std::uint64_t>("u & 0xFFFFFFFFFFFFFFFFn", DType::u64, {5, UINT64_MAX}, {}),
            (std::vector<std::uint64_t>{5, UINT64_MAX}));
  EXPECT_EQ(run1<std::int64_t>("x + 18446744073709551621n", DType::i64, {0, -6}, {}),
            (std::vector<std::int64_t>{5, -1}));
  EXPECT_EQ(run1<std::int32_t>("x + 18446744073709551621n", DType::i32, {0, 1}, {}),
            (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(run1<double>("x + 9223372036854775808n", DType::f64, {0, 1}, {}),
            (std::vector<double>{9223372036854775808.0, 9223372036854775808.0}));
}

}  // namespace

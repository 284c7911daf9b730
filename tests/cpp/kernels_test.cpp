// kernels/ — the registry, the element semantics, and the driver over plans.
// Natively every kernel is a scalar reference; the wasm SIMD kernels are swept
// against these references by tests/js/kernels.test.js.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "kernels/driver.hpp"
#include "kernels/half.hpp"
#include "kernels/scalar_ops.hpp"
#include "test_util.hpp"

namespace {

using namespace tct;
using tc::DType;
using tc::Form;
using tc::Op;

constexpr int kDTypes = static_cast<int>(DType::count);
constexpr int kOps = static_cast<int>(Op::count);

TEST(KernelRegistry, EveryDefinedPairHasAllThreeForms) {
  size_t n = 0;
  const tc::KernelInfo* k = tc::kernel_registry(&n);
  ASSERT_GT(n, 0u);
  std::set<std::string> names;
  for (size_t i = 0; i < n; ++i) names.insert(k[i].name);
  EXPECT_EQ(names.size(), n) << "kernel names are unique";
  for (int d = 0; d < kDTypes; ++d)
    for (int o = 0; o < kOps; ++o)
      for (const char* f : {"vv", "vs", "sv"}) {
        const auto dt = static_cast<DType>(d);
        const auto op = static_cast<Op>(o);
        const std::string name = std::string(tc::dtype_name(dt)) + "_" + tc::op_name(op) + "_" + f + "__scalar";
        EXPECT_EQ(names.count(name) == 1, tc::op_defined(dt, op)) << name;
      }
  EXPECT_EQ(tc::find_kernel(DType::f32, Op::bitwise_and, Form::vv), nullptr);
  EXPECT_NE(tc::find_kernel(DType::i32, Op::bitwise_and, Form::vv), nullptr);
}

// Sweep one kernel against element-by-element calls of the same semantics.
template <DType D, Op op>
void sweep_one() {
  using T = typename tc::Storage<D>::T;
  using O = tc::OutT<D, op>;
  std::mt19937 rng(1234 + static_cast<int>(D) * 31 + static_cast<int>(op));
  for (Form f : {Form::vv, Form::vs, Form::sv}) {
    const tc::BinaryKernel k = tc::find_kernel(D, op, f);
    ASSERT_NE(k, nullptr);
    for (size_t n = 1; n <= 3 * 16 + 1; ++n) {
      std::vector<T> a(n), b(n);
      for (size_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          a[i] = static_cast<T>(std::uniform_real_distribution<double>(-8, 8)(rng));
          b[i] = static_cast<T>(std::uniform_real_distribution<double>(-8, 8)(rng));
        } else {
          a[i] = static_cast<T>(rng() % 17) - static_cast<T>(std::is_signed_v<T> ? 8 : 0);
          b[i] = static_cast<T>(rng() % 7) - static_cast<T>(std::is_signed_v<T> ? 3 : 0);
        }
      }
      std::vector<O> out(n), want(n);
      k(a.data(), b.data(), out.data(), n);
      for (size_t i = 0; i < n; ++i)
        want[i] = tc::ops::apply<D, op>(f == Form::sv ? a[0] : a[i], f == Form::vs ? b[0] : b[i]);
      ASSERT_EQ(0, std::memcmp(out.data(), want.data(), n * sizeof(O)))
          << tc::dtype_name(D) << " " << tc::op_name(op) << " form " << static_cast<int>(f) << " n " << n;
    }
  }
}

template <DType D, int O = 0>
void sweep_dtype() {
  if constexpr (O < kOps) {
    if constexpr (tc::defined_for(D, static_cast<Op>(O))) sweep_one<D, static_cast<Op>(O)>();
    sweep_dtype<D, O + 1>();
  }
}

TEST(KernelSweep, EveryKernelEveryLengthMatchesTheElementSemantics) {
  sweep_dtype<DType::f32>();
  sweep_dtype<DType::f64>();
  sweep_dtype<DType::i8>();
  sweep_dtype<DType::u8>();
  sweep_dtype<DType::u8c>();
  sweep_dtype<DType::i16>();
  sweep_dtype<DType::u16>();
  sweep_dtype<DType::i32>();
  sweep_dtype<DType::u32>();
  sweep_dtype<DType::i64>();
  sweep_dtype<DType::u64>();
}

TEST(SelectKernels, EveryWidthAndFormSelectsBytesAtEveryLength) {
  size_t n = 0;
  const tc::SelectInfo* k = tc::select_registry(&n);
  ASSERT_GE(n, 16u);
  std::mt19937 rng(77);
  int swept = 0;
  for (size_t j = 0; j < n; ++j) {
    const size_t w = k[j].elem_size;
    const bool xs = k[j].form == tc::SelectForm::sv || k[j].form == tc::SelectForm::ss;
    const bool ys = k[j].form == tc::SelectForm::vs || k[j].form == tc::SelectForm::ss;
    if (!k[j].simd) EXPECT_EQ(tc::find_select_reference(w, k[j].form), k[j].fn) << k[j].name;
    for (size_t len = 1; len <= 49; ++len) {
      std::vector<uint8_t> mask(len), x(len * w), y(len * w), out(len * w + 8, 0xEE);
      for (auto& v : mask) v = rng() % 3 == 0 ? 0 : static_cast<uint8_t>(1 + rng() % 255);
      for (auto& v : x) v = static_cast<uint8_t>(rng());
      for (auto& v : y) v = static_cast<uint8_t>(rng());
      k[j].fn(mask.data(), x.data(), y.data(), out.data(), len);
      for (size_t i = 0; i < len; ++i)
        for (size_t b = 0; b < w; ++b)
          ASSERT_EQ(out[i * w + b], mask[i] ? x[(xs ? 0 : i) * w + b] : y[(ys ? 0 : i) * w + b]) << k[j].name << " n " << len;
      for (size_t b = len * w; b < out.size(); ++b) ASSERT_EQ(out[b], 0xEE) << k[j].name << " wrote past the end";
      ++swept;
    }
  }
  EXPECT_EQ(swept, static_cast<int>(n) * 49);
  EXPECT_EQ(tc::find_select(3, tc::SelectForm::vv), nullptr);
}

TEST(ElementSemantics, IntegersWrapClampedClampsDivisionNeverTraps) {
  using tc::ops::apply;
  EXPECT_EQ((apply<DType::i8, Op::add>(127, 1)), -128);
  EXPECT_EQ((apply<DType::u8, Op::sub>(0, 1)), 255);
  EXPECT_EQ((apply<DType::u8c, Op::add>(200, 100)), 255);
  EXPECT_EQ((apply<DType::u8c, Op::sub>(5, 10)), 0);
  EXPECT_EQ((apply<DType::u8c, Op::mul>(16, 16)), 255);
  EXPECT_EQ((apply<DType::i32, Op::div>(7, 0)), 0);
  EXPECT_EQ((apply<DType::i32, Op::div>(-7, 2)), -3);
  EXPECT_EQ((apply<DType::i32, Op::div>(INT32_MIN, -1)), INT32_MIN);
  EXPECT_EQ((apply<DType::i64, Op::div>(INT64_MIN, -1)), INT64_MIN);
  EXPECT_EQ((apply<DType::i32, Op::rem>(-7, 2)), -1);
  EXPECT_EQ((apply<DType::i32, Op::rem>(7, 0)), 0);
  EXPECT_EQ((apply<DType::i32, Op::rem>(INT32_MIN, -1)), 0);
  EXPECT_EQ((apply<DType::i16, Op::mul>(300, 300)), static_cast<int16_t>(90000));
  EXPECT_EQ((apply<DType::i32, Op::pow>(3, 40)), static_cast<int32_t>(static_cast<uint32_t>(12157665459056928801ull)));
  EXPECT_EQ((apply<DType::i32, Op::pow>(2, -1)), 0);
  EXPECT_EQ((apply<DType::i32, Op::pow>(-1, -3)), -1);
  EXPECT_EQ((apply<DType::u8c, Op::pow>(2, 9)), 255);
  // Uint8Clamped division is a Uint8ClampedArray store of a / b: half to even, x / 0 = 255, 0 / 0 = 0.
  EXPECT_EQ((apply<DType::u8c, Op::div>(7, 2)), 4);
  EXPECT_EQ((apply<DType::u8c, Op::div>(5, 2)), 2);
  EXPECT_EQ((apply<DType::u8c, Op::div>(3, 2)), 2);
  EXPECT_EQ((apply<DType::u8c, Op::div>(200, 3)), 67);
  EXPECT_EQ((apply<DType::u8c, Op::div>(9, 0)), 255);
  EXPECT_EQ((apply<DType::u8c, Op::div>(0, 0)), 0);
  EXPECT_EQ((apply<DType::u8, Op::div>(7, 2)), 3);
}

TEST(ElementSemantics, FloatMinMaxPropagateNaNAndOrderSignedZeros) {
  using tc::ops::apply;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(apply<DType::f32, Op::minimum>(nan, 1.f)));
  EXPECT_TRUE(std::isnan(apply<DType::f32, Op::maximum>(1.f, nan)));
  EXPECT_TRUE(std::signbit(apply<DType::f32, Op::minimum>(0.f, -0.f)));
  EXPECT_FALSE(std::signbit(apply<DType::f32, Op::maximum>(-0.f, 0.f)));
  EXPECT_EQ((apply<DType::f32, Op::logical_and>(nan, 1.f)), 1);
  EXPECT_EQ((apply<DType::f64, Op::not_equal>(nan, nan)), 1);
  EXPECT_EQ((apply<DType::f64, Op::equal>(nan, nan)), 0);
  EXPECT_EQ((apply<DType::f64, Op::rem>(-5.5, 2)), -1.5);
}

// ---- the driver over real plans, against a naive index loop -------------------------
std::vector<i64> own_strides(const Shape& s) {
  std::vector<i64> st(static_cast<size_t>(s.rank));
  i64 acc = 1;
  for (int i = s.rank - 1; i >= 0; --i) { st[static_cast<size_t>(i)] = acc; acc *= s.dims[i].lo; }
  return st;
}

// Offset of output element `e` in an operand right-aligned to `out`.
i64 naive_offset(const Shape& out, const Shape& in, i64 e) {
  const auto st = own_strides(in);
  i64 off = 0;
  for (int a = out.rank - 1; a >= 0; --a) {
    const i64 idx = e % out.dims[a].lo;
    e /= out.dims[a].lo;
    const int s = a - (out.rank - in.rank);
    if (s >= 0 && in.dims[s].lo != 1) off += idx * st[static_cast<size_t>(s)];
  }
  return off;
}

TEST(Driver, RandomNumpyBroadcastsMatchANaiveLoop) {
  std::mt19937 rng(42);
  int ran = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int rank = static_cast<int>(rng() % 6);
    Shape out;
    for (int i = 0; i < rank; ++i) out.push(D(static_cast<i64>(rng() % 4)));
    Shape in[2];
    for (auto& s : in) {
      const int r = static_cast<int>(rng() % (rank + 1));
      for (int i = rank - r; i < rank; ++i) s.push(rng() % 3 == 0 ? D(1) : out.dims[i]);
    }
    Plan plan;
    Error err;
    ASSERT_EQ(tc::broadcast_numpy(in, 2, plan, err), Status::Ok);
    const i64 n = plan.out_size;
    std::vector<float> a(static_cast<size_t>(tc::shape_size(in[0]))), b(static_cast<size_t>(tc::shape_size(in[1])));
    for (auto& v : a) v = static_cast<float>(rng() % 100);
    for (auto& v : b) v = static_cast<float>(rng() % 100);
    std::vector<float> got(static_cast<size_t>(n) + 1, -1.f);
    ASSERT_EQ(tc::run_binary(plan, DType::f32, Op::sub, a.data(), b.data(), got.data()), Status::Ok);
    for (i64 e = 0; e < n; ++e) {
      const float want = a[static_cast<size_t>(naive_offset(plan.out, in[0], e))] - b[static_cast<size_t>(naive_offset(plan.out, in[1], e))];
      ASSERT_EQ(got[static_cast<size_t>(e)], want) << "trial " << trial << " element " << e;
    }
    EXPECT_EQ(got[static_cast<size_t>(n)], -1.f) << "wrote past the output";
    // Materialise operand 0 to the output shape.
    Plan to;
    ASSERT_EQ(tc::broadcast_to_numpy(in[0], plan.out, to, err), Status::Ok);
    std::vector<float> mat(static_cast<size_t>(n) + 1, -1.f);
    ASSERT_EQ(tc::run_copy(to, sizeof(float), a.data(), mat.data()), Status::Ok);
    for (i64 e = 0; e < n; ++e) ASSERT_EQ(mat[static_cast<size_t>(e)], a[static_cast<size_t>(naive_offset(plan.out, in[0], e))]);
    EXPECT_EQ(mat[static_cast<size_t>(n)], -1.f) << "materialise wrote past the output";
    ++ran;
  }
  EXPECT_EQ(ran, 400);
}

TEST(Driver, MaterialiseRepeatsRowBlocksOfEverySize) {
  // Rows that repeat along the next axis are copied in growing chunks (capped
  // at 32 KB, whole rows past the cap): rows far below, near and above the cap.
  for (const auto& [in_shape, out_shape] : std::vector<std::pair<std::vector<i64>, std::vector<i64>>>{
           {{2, 1, 3}, {2, 40000, 3}}, {{3, 1, 5000}, {3, 4, 5000}}, {{1, 9000}, {7, 9000}}, {{2, 1, 8192}, {2, 3, 8192}},
           {{4, 1, 1, 2}, {4, 3, 5, 2}}}) {
    Shape in, out;
    for (i64 d : in_shape) in.push(tc::Dim::fixed(d));
    for (i64 d : out_shape) out.push(tc::Dim::fixed(d));
    Plan to;
    Error err;
    ASSERT_EQ(tc::broadcast_to_numpy(in, out, to, err), Status::Ok);
    std::vector<int32_t> x(static_cast<size_t>(tc::shape_size(in)));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i * 7 + 1);
    const i64 n = to.out_size;
    std::vector<int32_t> mat(static_cast<size_t>(n) + 1, -1);
    ASSERT_EQ(tc::run_copy(to, sizeof(int32_t), x.data(), mat.data()), Status::Ok);
    for (i64 e = 0; e < n; ++e) {
      ASSERT_EQ(mat[static_cast<size_t>(e)], x[static_cast<size_t>(naive_offset(out, in, e))]) << "element " << e << " of " << n;
    }
    EXPECT_EQ(mat[static_cast<size_t>(n)], -1) << "wrote past the output";
  }
}

TEST(Driver, WhereSelectsWithThreeWayBroadcasting) {
  // cond [3,1], x [1,4], y [] -> [3,4]
  const Shape s[3] = {S({3, 1}), S({1, 4}), S({})};
  Plan plan;
  Error err;
  ASSERT_EQ(tc::broadcast_numpy(s, 3, plan, err), Status::Ok);
  const uint8_t cond[3] = {1, 0, 1};
  const int32_t x[4] = {1, 2, 3, 4};
  const int32_t y = -1;
  int32_t out[12];
  ASSERT_EQ(tc::run_where(plan, DType::u8, 4, cond, x, &y, out), Status::Ok);
  const int32_t want[12] = {1, 2, 3, 4, -1, -1, -1, -1, 1, 2, 3, 4};
  EXPECT_EQ(0, std::memcmp(out, want, sizeof want));
}

TEST(Driver, WhereTakesConditionsOfEveryDtypeAndRowsOfOneCondition) {
  // cond [2,1] (one condition per row: whole rows of x or y), then cond [1,40]
  // of float32 with NaN and -0 (a mask through not_equal, SIMD-length rows).
  Plan plan;
  Error err;
  const Shape rows[3] = {S({2, 1}), S({2, 40}), S({40})};
  ASSERT_EQ(tc::broadcast_numpy(rows, 3, plan, err), Status::Ok);
  const double c2[2] = {0, 3};
  std::vector<int64_t> x(80), y(40), out(80);
  for (int i = 0; i < 80; ++i) x[static_cast<size_t>(i)] = i;
  for (int i = 0; i < 40; ++i) y[static_cast<size_t>(i)] = -i;
  ASSERT_EQ(tc::run_where(plan, DType::f64, 8, c2, x.data(), y.data(), out.data()), Status::Ok);
  for (int i = 0; i < 80; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], i < 40 ? -i : i);
  const Shape cols[3] = {S({1, 40}), S({2, 40}), S({})};
  ASSERT_EQ(tc::broadcast_numpy(cols, 3, plan, err), Status::Ok);
  float c[40];
  for (int i = 0; i < 40; ++i) c[i] = i % 4 == 0 ? 0.f : i % 4 == 1 ? -0.f : i % 4 == 2 ? NAN : 1.f;
  const int64_t fill = 7;
  ASSERT_EQ(tc::run_where(plan, DType::f32, 8, c, x.data(), &fill, out.data()), Status::Ok);
  for (int i = 0; i < 80; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], (i % 40) % 4 >= 2 ? i : 7) << i;
}

TEST(Driver, PdpdAndNamedPermutedPlansRun) {
  Plan plan;
  Error err;
  // pdpd: A [2,3,2], B [3] at axis 1 -> B stretched over axes 0 and 2
  ASSERT_EQ(tc::broadcast_pdpd(S({2, 3, 2}), S({3, 1}), 1, plan, err), Status::Ok);
  std::vector<double> a(12), out(12);
  for (int i = 0; i < 12; ++i) a[static_cast<size_t>(i)] = i;
  const double b[3] = {100, 200, 300};
  ASSERT_EQ(tc::run_binary(plan, DType::f64, Op::add, a.data(), b, out.data()), Status::Ok);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], i + b[(i / 2) % 3]);
}

TEST(Driver, RefusesPlansItCannotRun) {
  Plan plan;
  Error err;
  ASSERT_EQ(tc::broadcast_numpy(nullptr, 0, plan, err), Status::Ok);  // zero operands
  float out[1];
  EXPECT_EQ(tc::run_binary(plan, DType::f32, Op::add, out, out, out), Status::InvalidShape);
  const Shape two[2] = {S({2}), S({2})};
  ASSERT_EQ(tc::broadcast_numpy(two, 2, plan, err), Status::Ok);
  EXPECT_EQ(tc::run_binary(plan, DType::f32, Op::bitwise_and, out, out, out), Status::DtypeMismatch);
}

// ---- float16 -------------------------------------------------------------------------
// The conversions, checked against properties rather than a second copy of the
// algorithm: half -> float is exact and order-preserving; float -> half gives
// the nearest half (ties to the even mantissa), inf from 65520 on, NaN as NaN.
float h2f(uint16_t h) { return tc::half_to_float(h); }
bool is_nan_half(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

TEST(Float16, EveryHalfConvertsExactlyAndBack) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const float f = h2f(static_cast<uint16_t>(h));
    if (is_nan_half(static_cast<uint16_t>(h))) {
      ASSERT_TRUE(std::isnan(f)) << h;
      ASSERT_TRUE(is_nan_half(tc::float_to_half(f))) << h;
      ASSERT_EQ(std::signbit(f), (h & 0x8000u) != 0) << h;
      continue;
    }
    // The value: sign * mantissa * 2^exp, computed independently.
    const int e = static_cast<int>((h >> 10) & 0x1f), m = static_cast<int>(h & 0x3ff);
    const double mag = e == 31 ? INFINITY : e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
    const double want = (h & 0x8000u) ? -mag : mag;
    ASSERT_EQ(static_cast<double>(f), want) << h;
    ASSERT_EQ(std::signbit(f), (h & 0x8000u) != 0) << h;
    ASSERT_EQ(tc::float_to_half(f), h) << h;
    ASSERT_EQ(tc::double_to_half(static_cast<double>(f)), h) << h;
  }
}

// The nearest half by search over the halves around x (positive finite x).
uint16_t nearest_half(double x) {
  if (x >= 65520.0) return 0x7c00u;
  uint16_t lo = 0;
  while (lo < 0x7bffu && static_cast<double>(h2f(static_cast<uint16_t>(lo + 1))) <= x) {
    // binary steps: jump by the largest power of two that stays <= x
    uint16_t step = 0x4000u;
    while (step > 1 && (lo + step > 0x7bffu || static_cast<double>(h2f(static_cast<uint16_t>(lo + step))) > x)) step >>= 1;
    lo = static_cast<uint16_t>(lo + step);
  }
  const double vl = h2f(lo), vh = h2f(static_cast<uint16_t>(lo + 1));
  if (x - vl < vh - x) return lo;
  if (x - vl > vh - x) return static_cast<uint16_t>(lo + 1);
  return (lo & 1u) ? static_cast<uint16_t>(lo + 1) : lo;  // a tie: the even mantissa
}

TEST(Float16, FloatAndDoubleRoundToTheNearestHalfTiesToEven) {
  std::mt19937 rng(16);
  std::vector<double> xs = {0.0, 65504.0, 65519.99, 65520.0, 1e30, 5.960464477539063e-08, 2.9802322387695312e-08,
                            2.9802322387695316e-08, 1.0000000596046448, 1.0009765625, 1.00048828125, 6.1035156e-05};
  // Every midpoint between neighbouring halves, and just off it both ways.
  for (uint32_t h = 0; h < 0x7bffu; ++h) {
    const double mid = (static_cast<double>(h2f(static_cast<uint16_t>(h))) + h2f(static_cast<uint16_t>(h + 1))) / 2;
    xs.push_back(mid);
    xs.push_back(std::nextafter(mid, 0.0));
    xs.push_back(std::nextafter(mid, 1e9));
    xs.push_back(static_cast<double>(std::nextafter(static_cast<float>(mid), 0.0f)));
    xs.push_back(static_cast<double>(std::nextafter(static_cast<float>(mid), 1e9f)));
  }
  for (int i = 0; i < 200000; ++i) xs.push_back(std::ldexp(std::uniform_real_distribution<double>(1, 2)(rng),
                                                           std::uniform_int_distribution<int>(-30, 17)(rng)));
  for (double x : xs) {
    const uint16_t want = nearest_half(x);
    ASSERT_EQ(tc::double_to_half(x), want) << x;
    ASSERT_EQ(tc::double_to_half(-x), want | 0x8000u) << x;
    const float f = static_cast<float>(x);
    ASSERT_EQ(tc::float_to_half(f), nearest_half(static_cast<double>(f))) << x;
    ASSERT_EQ(tc::float_to_half(-f), nearest_half(static_cast<double>(f)) | 0x8000u) << x;
  }
  EXPECT_EQ(tc::float_to_half(INFINITY), 0x7c00u);
  EXPECT_EQ(tc::float_to_half(-INFINITY), 0xfc00u);
  EXPECT_EQ(tc::float_to_half(-0.0f), 0x8000u);
  EXPECT_EQ(tc::float_to_half(1e-10f), 0u);
  EXPECT_EQ(tc::float_to_half(-1e-10f), 0x8000u);
  EXPECT_TRUE(is_nan_half(tc::float_to_half(NAN)));
  EXPECT_TRUE(is_nan_half(tc::double_to_half(-NAN)));
  EXPECT_EQ(tc::double_to_half(-NAN) & 0x8000u, 0x8000u);
}

// Every f16 kernel: the float32 semantics on the converted operands, rounded
// once (bool ops: the float32 comparison), at lengths across block edges.
template <Op op>
void sweep_f16_op() {
  std::mt19937 rng(77 + static_cast<int>(op));
  for (Form f : {Form::vv, Form::vs, Form::sv}) {
    const tc::BinaryKernel k = tc::find_kernel(DType::f16, op, f);
    ASSERT_NE(k, nullptr) << tc::op_name(op);
    for (size_t n : {size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{255}, size_t{256}, size_t{257}, size_t{700}}) {
      std::vector<uint16_t> a(n), b(n);
      for (size_t i = 0; i < n; ++i) {
        // Any bits now and then (NaN, inf, subnormals), else values in [-8, 8).
        a[i] = rng() % 5 == 0 ? static_cast<uint16_t>(rng()) : tc::float_to_half(std::uniform_real_distribution<float>(-8, 8)(rng));
        b[i] = rng() % 5 == 0 ? static_cast<uint16_t>(rng()) : tc::float_to_half(std::uniform_real_distribution<float>(-8, 8)(rng));
        if (rng() % 4 == 0) b[i] = a[i];
      }
      const size_t os = tc::op_yields_bool(op) ? 1 : 2;
      std::vector<uint8_t> out(n * os + 4, 0xAB);
      k(a.data(), b.data(), out.data(), n);
      for (size_t i = 0; i < n; ++i) {
        const float x = h2f(f == Form::sv ? a[0] : a[i]), y = h2f(f == Form::vs ? b[0] : b[i]);
        const auto r = tc::ops::apply<DType::f32, op>(x, y);
        if constexpr (tc::is_bool_op(op)) {
          ASSERT_EQ(out[i], r) << tc::op_name(op) << " n " << n << " i " << i;
        } else {
          uint16_t got;
          std::memcpy(&got, out.data() + 2 * i, 2);
          const uint16_t want = tc::float_to_half(r);
          if (is_nan_half(want)) ASSERT_TRUE(is_nan_half(got)) << tc::op_name(op) << " i " << i;
          else ASSERT_EQ(got, want) << tc::op_name(op) << " " << x << " " << y << " n " << n << " i " << i;
        }
      }
      for (size_t i = n * os; i < n * os + 4; ++i) ASSERT_EQ(out[i], 0xAB) << "wrote past the output";
    }
  }
}

template <int O = 0>
void sweep_f16() {
  if constexpr (O < kOps) {
    if constexpr (tc::defined_for(DType::f16, static_cast<Op>(O))) sweep_f16_op<static_cast<Op>(O)>();
    else EXPECT_EQ(tc::find_kernel(DType::f16, static_cast<Op>(O), Form::vv), nullptr);
    sweep_f16<O + 1>();
  }
}

TEST(Float16, EveryKernelIsTheFloat32OpRoundedOnce) { sweep_f16(); }

TEST(Float16, KnownValues) {
  const uint16_t one = 0x3c00, two = 0x4000, max = 0x7bff, tiny = 0x0001;
  uint16_t out;
  tc::find_kernel(DType::f16, Op::add, Form::vv)(&max, &max, &out, 1);
  EXPECT_EQ(out, 0x7c00) << "65504 + 65504 overflows to inf";
  tc::find_kernel(DType::f16, Op::div, Form::vv)(&one, &two, &out, 1);
  EXPECT_EQ(out, 0x3800) << "1 / 2 = 0.5";
  tc::find_kernel(DType::f16, Op::mul, Form::vv)(&tiny, &one, &out, 1);
  EXPECT_EQ(out, 0x0001) << "subnormals survive";
  const uint16_t third = tc::float_to_half(1.0f / 3.0f);
  EXPECT_EQ(third, 0x3555);
  const uint16_t a = 0x3c01, b = 0x3c00;  // 1 + 2^-10 and 1: sum 2 + 2^-10 is a tie: to even (2)
  tc::find_kernel(DType::f16, Op::add, Form::vv)(&a, &b, &out, 1);
  EXPECT_EQ(out, 0x4000);
  uint8_t m;
  const uint16_t nz = 0x8000, z = 0;
  tc::find_kernel(DType::f16, Op::equal, Form::vv)(&nz, &z, &m, 1);
  EXPECT_EQ(m, 1) << "-0 == +0";
  EXPECT_EQ(tc::find_kernel(DType::f16, Op::bitwise_and, Form::vv), nullptr);
}

}  // namespace

// kernels/ — the unary ops and cast: the registries, and the scalar
// references' semantics (natively every kernel is a reference; the wasm SIMD
// kernels are swept against these by tests/js/unary.test.js).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "kernels/half.hpp"
#include "kernels/unary_ops.hpp"
#include "test_util.hpp"

namespace {

using tc::DType;
using tc::UnaryOp;

constexpr int kDTypes = static_cast<int>(DType::count);
constexpr int kUOps = static_cast<int>(UnaryOp::count);

template <typename T, typename O = T>
std::vector<O> run(DType dt, UnaryOp op, std::vector<T> in) {
  std::vector<O> out(in.size());
  tc::UnaryKernel k = tc::find_unary_reference(dt, op);
  EXPECT_NE(k, nullptr);
  if (k) k(in.data(), out.data(), in.size());
  return out;
}

template <typename F, typename T>
std::vector<T> cast(DType from, DType to, std::vector<F> in) {
  std::vector<T> out(in.size());
  tc::UnaryKernel k = tc::find_cast_reference(from, to);
  EXPECT_NE(k, nullptr);
  if (k) k(in.data(), out.data(), in.size());
  return out;
}

bool neg_zero(double v) { return v == 0 && std::signbit(v); }

TEST(UnaryRegistry, EveryDefinedPairHasOneReferenceNamedByTheGrammar) {
  size_t n = 0;
  const tc::UnaryKernelInfo* k = tc::unary_registry(&n);
  std::set<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    names.insert(k[i].name);
    EXPECT_FALSE(k[i].simd) << "natively every kernel is a reference";
  }
  EXPECT_EQ(names.size(), n);
  size_t defined = 0;
  for (int d = 0; d < kDTypes; ++d)
    for (int o = 0; o < kUOps; ++o) {
      const auto dt = static_cast<DType>(d);
      const auto op = static_cast<UnaryOp>(o);
      const std::string name = std::string(tc::dtype_name(dt)) + "_" + tc::unary_op_name(op) + "__scalar";
      EXPECT_EQ(names.count(name) == 1, tc::unary_defined(dt, op)) << name;
      EXPECT_EQ(tc::find_unary(dt, op) != nullptr, tc::unary_defined(dt, op)) << name;
      defined += tc::unary_defined(dt, op);
    }
  EXPECT_EQ(n, defined);
  EXPECT_TRUE(names.count("f32_sqrt__scalar"));
  EXPECT_TRUE(names.count("u8c_bitwise_not__scalar"));
  EXPECT_FALSE(names.count("f32_bitwise_not__scalar"));
  EXPECT_FALSE(names.count("i32_sqrt__scalar"));
  EXPECT_EQ(tc::find_unary(DType::count, UnaryOp::neg), nullptr);
  EXPECT_EQ(tc::find_unary(DType::f32, UnaryOp::count), nullptr);
  EXPECT_TRUE(tc::unary_yields_bool(UnaryOp::is_nan));
  EXPECT_FALSE(tc::unary_yields_bool(UnaryOp::round));
}

TEST(CastRegistry, EveryPairOfDtypes) {
  size_t n = 0;
  const tc::UnaryKernelInfo* k = tc::cast_registry(&n);
  EXPECT_EQ(n, static_cast<size_t>(kDTypes * kDTypes));
  std::set<std::string> names;
  for (size_t i = 0; i < n; ++i) names.insert(k[i].name);
  EXPECT_EQ(names.size(), n);
  EXPECT_TRUE(names.count("cast_f32_i32__scalar"));
  EXPECT_TRUE(names.count("cast_u64_f16__scalar"));
  for (int f = 0; f < kDTypes; ++f)
    for (int t = 0; t < kDTypes; ++t)
      EXPECT_NE(tc::find_cast(static_cast<DType>(f), static_cast<DType>(t)), nullptr);
  EXPECT_EQ(tc::find_cast(DType::count, DType::f32), nullptr);
}

TEST(UnaryReference, IntegersWrapAndUint8ClampedNegIsZero) {
  EXPECT_EQ((run<int8_t>(DType::i8, UnaryOp::neg, {-128, 127, 0})), (std::vector<int8_t>{-128, -127, 0}));
  EXPECT_EQ((run<int32_t>(DType::i32, UnaryOp::abs, {INT32_MIN, -3})), (std::vector<int32_t>{INT32_MIN, 3}));
  EXPECT_EQ((run<uint16_t>(DType::u16, UnaryOp::neg, {1, 0})), (std::vector<uint16_t>{65535, 0}));
  EXPECT_EQ((run<uint8_t>(DType::u8c, UnaryOp::neg, {0, 9, 255})), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ((run<uint8_t>(DType::u8c, UnaryOp::bitwise_not, {0, 5})), (std::vector<uint8_t>{255, 250}));
  EXPECT_EQ((run<int64_t>(DType::i64, UnaryOp::neg, {INT64_MIN, 5})), (std::vector<int64_t>{INT64_MIN, -5}));
  EXPECT_EQ((run<uint32_t>(DType::u32, UnaryOp::sign, {0, 4000000000u})), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ((run<int16_t>(DType::i16, UnaryOp::sign, {-300, 0, 2})), (std::vector<int16_t>{-1, 0, 1}));
  for (UnaryOp op : {UnaryOp::floor, UnaryOp::ceil, UnaryOp::round, UnaryOp::trunc})
    EXPECT_EQ((run<int32_t>(DType::i32, op, {INT32_MIN, 7, INT32_MAX})), (std::vector<int32_t>{INT32_MIN, 7, INT32_MAX}));
  EXPECT_EQ((run<int32_t, uint8_t>(DType::i32, UnaryOp::is_nan, {1, 2})), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ((run<int32_t, uint8_t>(DType::i32, UnaryOp::is_finite, {1, 2})), (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ((run<uint8_t, uint8_t>(DType::u8, UnaryOp::logical_not, {0, 3})), (std::vector<uint8_t>{1, 0}));
}

TEST(UnaryReference, FloatsFollowNumPy) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto r = run<double>(DType::f64, UnaryOp::round, {0.5, 1.5, 2.5, -0.5, -2.5, 4503599627370497.0});
  EXPECT_EQ(r, (std::vector<double>{0, 2, 2, -0.0, -2, 4503599627370497.0}));
  EXPECT_TRUE(neg_zero(r[3]));
  const auto s = run<double>(DType::f64, UnaryOp::sign, {-0.0, 0.0, nan, -inf, 1e-310});
  EXPECT_FALSE(std::signbit(s[0])) << "np.sign(-0.0) is 0.0";
  EXPECT_EQ(s[1], 0.0);
  EXPECT_TRUE(std::isnan(s[2]));
  EXPECT_EQ(s[3], -1.0);
  EXPECT_EQ(s[4], 1.0);
  EXPECT_TRUE(neg_zero(run<double>(DType::f64, UnaryOp::ceil, {-0.5})[0]));
  EXPECT_TRUE(neg_zero(run<double>(DType::f64, UnaryOp::trunc, {-0.7})[0]));
  const auto a = run<float>(DType::f32, UnaryOp::abs, {-0.0f, -std::numeric_limits<float>::infinity()});
  EXPECT_FALSE(std::signbit(a[0]));
  EXPECT_EQ(a[1], std::numeric_limits<float>::infinity());
  EXPECT_EQ((run<float, uint8_t>(DType::f32, UnaryOp::logical_not, {0.0f, -0.0f, std::nanf(""), 2.0f})),
            (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ((run<double, uint8_t>(DType::f64, UnaryOp::is_finite, {inf, -inf, nan, 1e308})), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ((run<double, uint8_t>(DType::f64, UnaryOp::is_nan, {inf, nan})), (std::vector<uint8_t>{0, 1}));
  // float32 transcendentals: the double result rounded once.
  const std::vector<float> x = {0.5f, -3.25f, 10.0f, 1e-3f};
  const auto e = run<float>(DType::f32, UnaryOp::exp, x);
  const auto l = run<float>(DType::f32, UnaryOp::log1p, x);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(e[i], static_cast<float>(std::exp(static_cast<double>(x[i]))));
    if (x[i] > -1) EXPECT_EQ(l[i], static_cast<float>(std::log1p(static_cast<double>(x[i]))));
    else EXPECT_TRUE(std::isnan(l[i]));
  }
  EXPECT_TRUE(std::isnan(run<double>(DType::f64, UnaryOp::sqrt, {-1.0})[0]));
  EXPECT_EQ(run<double>(DType::f64, UnaryOp::sqrt, {2.0})[0], std::sqrt(2.0));
}

TEST(UnaryReference, Float16GoesThroughFloat32) {
  // -1, 0, NaN, 4, 2.5 as float16 bits.
  const std::vector<uint16_t> h = {0xbc00, 0x0000, 0x7e00, 0x4400, 0x4100};
  EXPECT_EQ((run<uint16_t>(DType::f16, UnaryOp::neg, h)), (std::vector<uint16_t>{0x3c00, 0x8000, 0xfe00, 0xc400, 0xc100}));
  EXPECT_EQ((run<uint16_t>(DType::f16, UnaryOp::sqrt, {0x4400}))[0], 0x4000);
  EXPECT_EQ((run<uint16_t>(DType::f16, UnaryOp::round, {0x4100}))[0], 0x4000);  // round(2.5) = 2
  EXPECT_EQ((run<uint16_t, uint8_t>(DType::f16, UnaryOp::is_nan, h)), (std::vector<uint8_t>{0, 0, 1, 0, 0}));
  // More than one conversion block, in place.
  std::vector<uint16_t> big(600, 0x4400);
  tc::find_unary_reference(DType::f16, UnaryOp::sqrt)(big.data(), big.data(), big.size());
  for (uint16_t v : big) ASSERT_EQ(v, 0x4000);
}

TEST(CastReference, FloatToIntegerTruncatesSaturatesAndMapsNaNToZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> x = {nan, inf, -inf, 1e30, -1e30, -0.9, 0.9, 2.7, -2.7};
  EXPECT_EQ((cast<double, int8_t>(DType::f64, DType::i8, x)), (std::vector<int8_t>{0, 127, -128, 127, -128, 0, 0, 2, -2}));
  EXPECT_EQ((cast<double, uint16_t>(DType::f64, DType::u16, x)), (std::vector<uint16_t>{0, 65535, 0, 65535, 0, 0, 0, 2, 0}));
  EXPECT_EQ((cast<double, int32_t>(DType::f64, DType::i32, {2147483647.9, 2147483648.0, -2147483648.5, -2147483649.0})),
            (std::vector<int32_t>{INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN}));
  EXPECT_EQ((cast<double, int64_t>(DType::f64, DType::i64, {9223372036854775808.0, -9223372036854775808.0, nan})),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, 0}));
  EXPECT_EQ((cast<double, uint64_t>(DType::f64, DType::u64, {18446744073709551616.0, 18446744073709549568.0, -5.0})),
            (std::vector<uint64_t>{UINT64_MAX, 18446744073709549568ull, 0}));
  EXPECT_EQ((cast<float, uint32_t>(DType::f32, DType::u32, {4294967296.0f, -1.0f, 3.9f})), (std::vector<uint32_t>{UINT32_MAX, 0, 3}));
  // float16 -> int16: 65504 and inf saturate.
  EXPECT_EQ((cast<uint16_t, int16_t>(DType::f16, DType::i16, {0x7bff, 0x7c00, 0xfc00, 0x7e00})), (std::vector<int16_t>{32767, 32767, -32768, 0}));
}

TEST(CastReference, Uint8ClampedIntegerWrapAndSingleRounding) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ((cast<double, uint8_t>(DType::f64, DType::u8c, {nan, -3, 0.5, 1.5, 2.5, 254.5, 255.5, 300})),
            (std::vector<uint8_t>{0, 0, 0, 2, 2, 254, 255, 255}));
  EXPECT_EQ((cast<int32_t, uint8_t>(DType::i32, DType::u8c, {-5, 255, 256})), (std::vector<uint8_t>{0, 255, 255}));
  EXPECT_EQ((cast<int32_t, int8_t>(DType::i32, DType::i8, {300, -129, 128})), (std::vector<int8_t>{44, 127, -128}));
  EXPECT_EQ((cast<int8_t, uint32_t>(DType::i8, DType::u32, {-1})), (std::vector<uint32_t>{UINT32_MAX}));
  EXPECT_EQ((cast<uint8_t, int8_t>(DType::u8c, DType::i8, {255})), (std::vector<int8_t>{-1}));
  // 2^24 + 1 -> float32: a tie, to even.
  EXPECT_EQ((cast<int32_t, float>(DType::i32, DType::f32, {16777217})), (std::vector<float>{16777216.0f}));
  // 2^60 + 2^36 + 1 -> float32 rounds up directly (through double it would be a tie, rounded down).
  const int64_t big = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  EXPECT_EQ((cast<int64_t, float>(DType::i64, DType::f32, {big}))[0], std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37));
  // float64 -> float16 once: 1 + 2^-11 + 2^-40 rounds up to 1 + 2^-10 (0x3c01).
  EXPECT_EQ((cast<double, uint16_t>(DType::f64, DType::f16, {1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), 65520.0})),
            (std::vector<uint16_t>{0x3c01, 0x7c00}));
  // Same-size copies, and more than one chunk of the two-step loop.
  std::vector<int32_t> many(1000);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int32_t>(i * 2654435761u);
  const auto d = cast<int32_t, double>(DType::i32, DType::f64, many);
  const auto u = cast<int32_t, uint32_t>(DType::i32, DType::u32, many);
  for (size_t i = 0; i < many.size(); ++i) {
    ASSERT_EQ(d[i], static_cast<double>(many[i]));
    ASSERT_EQ(u[i], static_cast<uint32_t>(many[i]));
  }
}

}  // namespace

// kernels/fast_f32.hpp — the float32 exp, expm1, log, log1p, tanh and sigmoid:
// their error against the correctly rounded result over a dense sample of all
// 2^32 inputs (every 4099th bit pattern: 1,047,809 per function, every sign,
// exponent and subnormal range), and what the special values give. The full
// sweep of all 2^32 inputs is tools/f32_accuracy.cpp (npm run accuracy).
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/f32_reference.hpp"
#include "kernels/unary_ops.hpp"
#include "test_util.hpp"

namespace {

using tc::f32ref::kFunctions;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The bounds docs/accuracy.md gives (measured over all 2^32 inputs by tools/f32_accuracy.cpp).
unsigned bound(const char* name) {
  const std::string n = name;
  return n == "expm1" || n == "sigmoid" ? 2 : 1;
}

TEST(FastF32, WithinTheDocumentedUlpsOfTheCorrectlyRoundedResultOnADenseSample) {
  for (const auto& f : kFunctions) {
    const tc::f32ref::Tally t = tc::f32ref::sweep(f, 0, 1ull << 32, 4099);
    EXPECT_EQ(t.n, 1047809u) << f.name;
    EXPECT_EQ(t.nan_mismatch, 0u) << f.name;
    EXPECT_LE(t.max_ulp, bound(f.name)) << f.name << " worst at " << t.worst;
    // Most results are the correctly rounded one.
    EXPECT_LT(t.inexact, t.n / 20) << f.name;
  }
}

float run(tc::UnaryOp op, float x) {
  float out = 0;
  tc::find_unary_reference(tc::DType::f32, op)(&x, &out, 1);
  return out;
}

bool same(float a, float b) { return std::isnan(a) ? std::isnan(b) : std::signbit(a) == std::signbit(b) && a == b; }

TEST(FastF32, SpecialValues) {
  using tc::UnaryOp;
  const float sub = std::numeric_limits<float>::denorm_min();
  struct Case {
    UnaryOp op;
    float x, want;
  } cases[] = {
      {UnaryOp::exp, 0.0f, 1.0f}, {UnaryOp::exp, -0.0f, 1.0f}, {UnaryOp::exp, kInf, kInf}, {UnaryOp::exp, -kInf, 0.0f},
      {UnaryOp::exp, kNaN, kNaN}, {UnaryOp::exp, 88.7229f, kInf}, {UnaryOp::exp, -104.0f, 0.0f},
      {UnaryOp::expm1, 0.0f, 0.0f}, {UnaryOp::expm1, -0.0f, -0.0f}, {UnaryOp::expm1, sub, sub}, {UnaryOp::expm1, -sub, -sub},
      {UnaryOp::expm1, kInf, kInf}, {UnaryOp::expm1, -kInf, -1.0f}, {UnaryOp::expm1, kNaN, kNaN}, {UnaryOp::expm1, -20.0f, -1.0f},
      {UnaryOp::expm1, 88.7229f, kInf},
      {UnaryOp::log, 1.0f, 0.0f}, {UnaryOp::log, 0.0f, -kInf}, {UnaryOp::log, -0.0f, -kInf}, {UnaryOp::log, -1.0f, kNaN},
      {UnaryOp::log, -kInf, kNaN}, {UnaryOp::log, kInf, kInf}, {UnaryOp::log, kNaN, kNaN},
      {UnaryOp::log1p, 0.0f, 0.0f}, {UnaryOp::log1p, -0.0f, -0.0f}, {UnaryOp::log1p, sub, sub}, {UnaryOp::log1p, -1.0f, -kInf},
      {UnaryOp::log1p, -2.0f, kNaN}, {UnaryOp::log1p, kInf, kInf}, {UnaryOp::log1p, kNaN, kNaN},
      {UnaryOp::tanh, 0.0f, 0.0f}, {UnaryOp::tanh, -0.0f, -0.0f}, {UnaryOp::tanh, sub, sub}, {UnaryOp::tanh, kInf, 1.0f},
      {UnaryOp::tanh, -kInf, -1.0f}, {UnaryOp::tanh, kNaN, kNaN}, {UnaryOp::tanh, 9.1f, 1.0f}, {UnaryOp::tanh, -50.0f, -1.0f},
      {UnaryOp::sigmoid, 0.0f, 0.5f}, {UnaryOp::sigmoid, -0.0f, 0.5f}, {UnaryOp::sigmoid, kInf, 1.0f}, {UnaryOp::sigmoid, -kInf, 0.0f},
      {UnaryOp::sigmoid, kNaN, kNaN}, {UnaryOp::sigmoid, 100.0f, 1.0f}, {UnaryOp::sigmoid, -200.0f, 0.0f},
  };
  // The edges: the largest finite exp, subnormal results, the log of a subnormal, a subnormal sigmoid.
  EXPECT_TRUE(std::isfinite(run(UnaryOp::exp, 88.72283f)));
  EXPECT_GT(run(UnaryOp::exp, -103.0f), 0.0f);
  EXPECT_LT(run(UnaryOp::exp, -103.0f), std::numeric_limits<float>::min());
  EXPECT_NEAR(run(UnaryOp::log, sub), -149 * 0.6931471805599453, 1e-4);
  EXPECT_GT(run(UnaryOp::sigmoid, -100.0f), 0.0f);
  for (const Case& c : cases) {
    const float got = run(c.op, c.x);
    EXPECT_TRUE(same(got, c.want)) << static_cast<int>(c.op) << "(" << c.x << ") = " << got << ", want " << c.want;
  }
}

TEST(FastF32, Float64SigmoidNeitherOverflowsNorLosesTheSmallSide) {
  double x[] = {-800.0, -30.0, 0.0, 30.0, 800.0};
  double out[5];
  tc::find_unary_reference(tc::DType::f64, tc::UnaryOp::sigmoid)(x, out, 5);
  EXPECT_EQ(out[0], 0.0);  // exp(-800) underflows to 0: 0, not NaN
  const long double e30 = std::exp(-30.0L);
  EXPECT_NEAR(out[1], static_cast<double>(e30 / (1 + e30)), 1e-28);
  EXPECT_EQ(out[2], 0.5);
  EXPECT_EQ(out[3], static_cast<double>(1 / (1 + e30)));
  EXPECT_EQ(out[4], 1.0);
}

}  // namespace

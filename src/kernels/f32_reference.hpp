// What the accuracy of src/kernels/fast_f32.hpp is measured against: each
// function in long double, rounded once to float32 (the correctly rounded
// result, but for the rare input whose long double value lies within 2^-64
// of a float32 halfway point). Shared by tests/cpp/fast_f32_test.cpp (a dense
// sample) and tools/f32_accuracy.cpp (every input). Native builds only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "fast_f32.hpp"

namespace tc::f32ref {

inline float fl(uint32_t b) { return f32m::S::from(static_cast<int32_t>(b)); }
inline uint32_t bitsOf(float f) { return static_cast<uint32_t>(f32m::S::bits(f)); }
// Floats in order as integers (-0 and +0 one apart), for distances in ulps.
inline int64_t ordered(float f) {
  const uint32_t b = bitsOf(f);
  return (b & 0x80000000u) ? -static_cast<int64_t>(b & 0x7fffffffu) - 1 : static_cast<int64_t>(b);
}

struct Function {
  const char* name;
  float (*fast)(float);
  long double (*exact)(long double);
};

inline long double sigmoidl(long double x) { return x >= 0 ? 1.0L / (1.0L + std::exp(-x)) : std::exp(x) / (1.0L + std::exp(x)); }

inline const Function kFunctions[] = {
    {"exp", [](float x) { return f32m::exp<f32m::S>(x); }, [](long double x) { return std::exp(x); }},
    {"expm1", [](float x) { return f32m::expm1<f32m::S>(x); }, [](long double x) { return std::expm1(x); }},
    {"log", [](float x) { return f32m::log<f32m::S>(x); }, [](long double x) { return std::log(x); }},
    {"log1p", [](float x) { return f32m::log1p<f32m::S>(x); }, [](long double x) { return std::log1p(x); }},
    {"tanh", [](float x) { return f32m::tanh<f32m::S>(x); }, [](long double x) { return std::tanh(x); }},
    {"sigmoid", [](float x) { return f32m::sigmoid<f32m::S>(x); }, sigmoidl},
};

struct Tally {
  uint64_t n = 0, inexact = 0;
  unsigned max_ulp = 0;
  float worst = 0;
  uint64_t nan_mismatch = 0;  // NaN where the reference is not, or the other way round
  void merge(const Tally& o) {
    n += o.n;
    inexact += o.inexact;
    nan_mismatch += o.nan_mismatch;
    if (o.max_ulp > max_ulp) {
      max_ulp = o.max_ulp;
      worst = o.worst;
    }
  }
};

// Bit patterns from, from + step, ... below to.
inline Tally sweep(const Function& f, uint64_t from, uint64_t to, uint64_t step) {
  Tally t;
  for (uint64_t b = from; b < to; b += step) {
    const float x = fl(static_cast<uint32_t>(b));
    const float got = f.fast(x);
    const float want = static_cast<float>(f.exact(static_cast<long double>(x)));
    ++t.n;
    if (std::isnan(want) || std::isnan(got)) {
      if (std::isnan(want) != std::isnan(got)) {
        ++t.nan_mismatch;
        t.max_ulp = 0xffffffffu;
        t.worst = x;
      }
      continue;
    }
    if (bitsOf(got) == bitsOf(want)) continue;
    ++t.inexact;
    const int64_t d = ordered(got) - ordered(want);
    const unsigned u = static_cast<unsigned>(d < 0 ? -d : d);
    if (u > t.max_ulp) {
      t.max_ulp = u;
      t.worst = x;
    }
  }
  return t;
}

}  // namespace tc::f32ref

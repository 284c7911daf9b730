// float16 (IEEE 754 binary16): the element type of DType::f16 and its exact
// conversions. float16 values are computed in float32 and rounded to nearest
// even on store (as WebNN and NumPy do): the f16 kernels convert blocks of
// their operands to float32, run the float32 kernel, and convert the results
// back (kernels_scalar.cpp, kernels_wasmsimd.cpp).
//
// - half -> float is exact (every float16 is a float32), subnormals included;
//   a NaN stays NaN with its sign and its payload shifted up.
// - float -> half rounds to nearest, ties to even; overflow gives +-inf
//   (65520 and above), values below half the smallest subnormal give +-0; a
//   NaN stays a quiet NaN with its sign and the payload's top 9 bits.
// - double -> half rounds once (through float32 with round-to-odd, which
//   keeps the result correctly rounded: 24 bits >= 11 + 2).
// The scalar forms here are the reference; the wasm SIMD128 forms
// (kernels_wasmsimd.cpp) are the same integer algorithm over 8 lanes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels.hpp"

namespace tc {

inline float half_to_float(uint16_t h) {
  // Shift exponent and mantissa into place, rebias; Inf/NaN keep an all-ones
  // exponent; zeros and subnormals are renormalised by a float subtraction.
  uint32_t o = static_cast<uint32_t>(h & 0x7fffu) << 13;
  const uint32_t exp = o & (0x7c00u << 13);
  o += (127u - 15u) << 23;
  float f;
  if (exp == (0x7c00u << 13)) {
    o += (128u - 16u) << 23;
    std::memcpy(&f, &o, 4);
  } else if (exp == 0) {
    o += 1u << 23;
    std::memcpy(&f, &o, 4);
    f -= 6.103515625e-05f;  // 2^-14 (113 << 23)
  } else {
    std::memcpy(&f, &o, 4);
  }
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u |= static_cast<uint32_t>(h & 0x8000u) << 16;
  std::memcpy(&f, &u, 4);
  return f;
}

inline uint16_t float_to_half(float x) {
  uint32_t f;
  std::memcpy(&f, &x, 4);
  const uint32_t sign = f & 0x80000000u;
  f ^= sign;
  uint32_t o;
  if (f >= 0x47800000u) {  // >= 65536, Inf or NaN
    o = f > 0x7f800000u ? 0x7e00u | ((f >> 13) & 0x3ffu) : 0x7c00u;
  } else if (f < 0x38800000u) {  // below 2^-14: a subnormal or zero half
    // Adding 0.5 (the magic 126 << 23) lines the half's subnormal ulp up with
    // float's last mantissa bit: the float adder rounds to nearest even.
    float v;
    std::memcpy(&v, &f, 4);
    v += 0.5f;
    std::memcpy(&o, &v, 4);
    o -= 0x3f000000u;
  } else {
    const uint32_t odd = (f >> 13) & 1u;
    f += 0xc8000fffu + odd;  // rebias ((15 - 127) << 23) and round to nearest even
    o = f >> 13;
  }
  return static_cast<uint16_t>(o | (sign >> 16));
}

inline uint16_t double_to_half(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d && d == d) {  // inexact: make it round-to-odd
    uint32_t b;
    std::memcpy(&b, &f, 4);
    const double af = f < 0 ? -static_cast<double>(f) : static_cast<double>(f);
    const double ad = d < 0 ? -d : d;
    if (af > ad) b -= 1;  // rounded away from zero: step back to the truncation
    b |= 1u;
    std::memcpy(&f, &b, 4);
  }
  return float_to_half(f);
}

// Blocks of elements. The reference loops; find_* give the SIMD128 forms in
// the wasm SIMD build (bit for bit the same), else the reference.
void half_to_float_reference(const uint16_t* src, float* dst, size_t n);
void float_to_half_reference(const float* src, uint16_t* dst, size_t n);
using HalfToFloatFn = void (*)(const uint16_t*, float*, size_t);
using FloatToHalfFn = void (*)(const float*, uint16_t*, size_t);
HalfToFloatFn find_half_to_float();
FloatToHalfFn find_float_to_half();

// The body of every f16 element-wise loop (kernels_scalar.cpp): a op b over
// n float16 elements with strides sa and sb (0 or 1), as `k32` (the float32
// loop of the op) on blocks converted with `up`, the results converted back
// with `down` (a bool op's uint8 results are written as they are).
void f16_via_f32(const void* a, size_t sa, const void* b, size_t sb, void* out, size_t n, bool boolean,
                 BinaryLoop k32, HalfToFloatFn up, FloatToHalfFn down);

}  // namespace tc

// The element semantics of the unary ops (unary.def) and of cast: what a
// plain scalar loop computes. The reference kernels (unary_scalar.cpp) are
// loops over these; the SIMD128 kernels (unary_wasmsimd.cpp) agree with them
// bit for bit (the tests sweep both).
//
// Unary ops, NumPy's semantics on JS typed arrays:
// - integers wrap: neg of an unsigned value is 2^bits - x, abs(INT_MIN) is
//   INT_MIN; Uint8Clamped's neg is a clamped store of -x (always 0);
// - floor/ceil/round/trunc return integers unchanged; round is half to even
//   (np.round, wasm nearest); float results keep -0 (floor(-0.5) = -0);
// - sign gives -1/0/1, NaN for NaN, and +0 for either zero (np.sign(-0.0) is
//   0.0); unsigned: 0/1;
// - abs clears a float's sign bit (NaN too, as fabs and f32x4.abs do);
// - float32 exp, expm1, log, log1p, tanh and sigmoid: fast_f32.hpp's float32
//   algorithms (at most 2 ulp from the correctly rounded result, the same bits
//   in the scalar and the SIMD128 kernels); float32 sin, cos and tan run in
//   double and round once (like pow); float64 exp, expm1, log, log1p, tanh,
//   sin, cos and tan: the host's Math in the wasm build, the C library in
//   native builds (host_math.hpp); float64 sigmoid from exp (below); float16
//   through the float32 kernel (half.hpp), as NumPy does;
// - logicalNot is x == 0 (NaN is true, so its not is 0); isNaN on integers is
//   0, isFinite 1; bitwiseNot flips the element's bits (Uint8Clamped as
//   uint8: 255 - x).
//
// cast (NumPy astype, where NumPy defines the answer), with these decisions:
// - float -> integer truncates toward zero; NaN gives 0; values out of the
//   type's range saturate to its min/max (wasm's trunc_sat, so the SIMD
//   kernels give the same answer); 64-bit integers likewise;
// - float -> uint8clamped is a Uint8ClampedArray store: NaN -> 0, clamp to
//   [0, 255], round half to even;
// - integer -> integer wraps (two's complement), except to uint8clamped,
//   which clamps to [0, 255];
// - integer -> float rounds to nearest even (once, also from 64-bit integers);
// - float64 -> float32 / float16 and float32 -> float16 round to nearest even
//   (float64 -> float16 once, not through float32: half.hpp double_to_half);
//   overflow gives +-inf; NaN stays NaN;
// - float16 -> anything: exactly through float32 first.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fast_f32.hpp"
#include "half.hpp"
#include "host_math.hpp"
#include "scalar_ops.hpp"

namespace tc {

// The dtype whose kernel computes (d, op) bit for bit (one function serves
// both table entries; the registry lists each under its own name):
// - an unsigned integer is its signed twin where the bits do not depend on
//   the sign (neg wraps, bitwiseNot, logicalNot, the identities);
// - uint8clamped is uint8 everywhere but neg (which clamps);
// - isNaN / isFinite on integers do not read the input: one kernel per
//   constant (int8's).
constexpr DType unary_kernel_dtype(DType d, UnaryOp op) {
  const bool integer = !is_float_dtype(d);
  if (!integer) return d;
  if (op == UnaryOp::is_nan || op == UnaryOp::is_finite) return DType::i8;
  if (d == DType::u8c) {
    if (op == UnaryOp::neg) return d;
    d = DType::u8;
  }
  switch (op) {
    case UnaryOp::neg: case UnaryOp::bitwise_not: case UnaryOp::logical_not:
    case UnaryOp::floor: case UnaryOp::ceil: case UnaryOp::round: case UnaryOp::trunc:
      return d == DType::u8 ? DType::i8 : d == DType::u16 ? DType::i16 : d == DType::u32 ? DType::i32
           : d == DType::u64 ? DType::i64 : d;
    default: return d;
  }
}

// Ops that return an integer operand unchanged (one copy kernel per element size).
constexpr bool unary_is_identity(DType d, UnaryOp op) {
  if (is_float_dtype(d)) return false;
  const bool u = d == DType::u8 || d == DType::u8c || d == DType::u16 || d == DType::u32 || d == DType::u64;
  return op == UnaryOp::floor || op == UnaryOp::ceil || op == UnaryOp::round || op == UnaryOp::trunc ||
         (u && op == UnaryOp::abs);
}

template <DType D, UnaryOp op>
using UnaryOutT = std::conditional_t<unary_yields_bool(op), uint8_t, typename Storage<D>::T>;

namespace unary {

// 1 / (1 + exp(-x)) for x >= 0, exp(x) / (1 + exp(x)) below: e = exp(-|x|)
// in (0, 1], s = 1 + e rounded and its rounding error err (exact: 1 >= e),
// 1 / (1 + e) = r - r^2 err with r = 1 / s. Within 1 ulp for x >= 0; below,
// e * q rounds once more: within 2 ulp (2 at 779 of 49,902 negative samples against mpmath).
inline double sigmoid_f64(double x) {
  const double e = host::exp(-std::fabs(x));
  const double s = 1 + e;
  const double err = e - (s - 1);
  const double r = 1 / s;
  const double q = r - r * r * err;
  return x < 0 ? e * q : q;
}

// float32 through double, one rounding.
template <typename T, typename F>
T via_double(T x, F f) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(f(static_cast<double>(x)));
  else return f(x);
}

template <DType D, UnaryOp op>
inline UnaryOutT<D, op> apply(typename Storage<D>::T x) {
  using T = typename Storage<D>::T;
  constexpr bool F = is_float_dtype(D);
  constexpr bool C = D == DType::u8c;
  constexpr bool S = std::is_signed_v<T>;
  using W = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;  // wrapping arithmetic
  if constexpr (op == UnaryOp::neg) {
    if constexpr (F) return -x;
    else if constexpr (C) return 0;
    else return static_cast<T>(W(0) - static_cast<W>(x));
  } else if constexpr (op == UnaryOp::abs) {
    if constexpr (F) return std::fabs(x);
    else if constexpr (S) return x < 0 ? static_cast<T>(W(0) - static_cast<W>(x)) : x;
    else return x;
  } else if constexpr (op == UnaryOp::sign) {
    if constexpr (F) return x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x;
    else if constexpr (S) return static_cast<T>(x > 0 ? 1 : x < 0 ? -1 : 0);
    else return static_cast<T>(x != 0);
  } else if constexpr (op == UnaryOp::sqrt) { return std::sqrt(x);
  } else if constexpr (op == UnaryOp::exp) {
    if constexpr (D == DType::f32) return f32m::exp<f32m::S>(x); else return host::exp(x);
  } else if constexpr (op == UnaryOp::expm1) {
    if constexpr (D == DType::f32) return f32m::expm1<f32m::S>(x); else return host::expm1(x);
  } else if constexpr (op == UnaryOp::log) {
    if constexpr (D == DType::f32) return f32m::log<f32m::S>(x); else return host::log(x);
  } else if constexpr (op == UnaryOp::log1p) {
    if constexpr (D == DType::f32) return f32m::log1p<f32m::S>(x); else return host::log1p(x);
  } else if constexpr (op == UnaryOp::sigmoid) {
    if constexpr (D == DType::f32) return f32m::sigmoid<f32m::S>(x);
    else return sigmoid_f64(x);
  } else if constexpr (op == UnaryOp::sin) { return via_double(x, [](double v) { return host::sin(v); });
  } else if constexpr (op == UnaryOp::cos) { return via_double(x, [](double v) { return host::cos(v); });
  } else if constexpr (op == UnaryOp::tan) { return via_double(x, [](double v) { return host::tan(v); });
  } else if constexpr (op == UnaryOp::tanh) {
    if constexpr (D == DType::f32) return f32m::tanh<f32m::S>(x); else return host::tanh(x);
  } else if constexpr (op == UnaryOp::floor) {
    if constexpr (F) return std::floor(x);
    else return x;
  } else if constexpr (op == UnaryOp::ceil) {
    if constexpr (F) return std::ceil(x);
    else return x;
  } else if constexpr (op == UnaryOp::round) {
    if constexpr (F) return std::nearbyint(x);  // the default rounding mode: half to even
    else return x;
  } else if constexpr (op == UnaryOp::trunc) {
    if constexpr (F) return std::trunc(x);
    else return x;
  } else if constexpr (op == UnaryOp::logical_not) { return x == 0;
  } else if constexpr (op == UnaryOp::bitwise_not) { return static_cast<T>(~x);
  } else if constexpr (op == UnaryOp::is_nan) {
    if constexpr (F) return x != x;
    else return 0;
  } else {
    static_assert(op == UnaryOp::is_finite, "every op of unary.def needs its element function here");
    if constexpr (F) return std::isfinite(x);
    else return 1;
  }
}

// ---- cast: one element ------------------------------------------------------------------
// Float (double, exact for every float32) to an integer type: truncate,
// NaN -> 0, saturate (wasm trunc_sat). The bounds are exact powers of two.
template <typename To>
To float_to_int(double d) {
  if (!(d == d)) return 0;
  constexpr int bits = static_cast<int>(sizeof(To) * 8);
  if constexpr (std::is_signed_v<To>) {
    const double hi = std::ldexp(1.0, bits - 1);  // 2^(bits-1): the first value past max
    if (d >= hi) return std::numeric_limits<To>::max();
    if (d <= -hi) return std::numeric_limits<To>::min();
  } else {
    const double hi = std::ldexp(1.0, bits);
    if (d >= hi) return std::numeric_limits<To>::max();
    if (d <= -1.0) return 0;
  }
  return static_cast<To>(std::trunc(d));
}

template <DType From, DType To>
inline typename Storage<To>::T cast_one(typename Storage<From>::T v) {
  using FT = typename Storage<From>::T;
  using TT = typename Storage<To>::T;
  if constexpr (From == DType::f16) {
    return cast_one<DType::f32, To>(half_to_float(v.bits));
  } else if constexpr (To == DType::f16) {
    if constexpr (From == DType::f32) return Half{float_to_half(v)};
    else if constexpr (From == DType::f64) return Half{double_to_half(v)};
    else return Half{double_to_half(static_cast<double>(v))};  // |integers| >= 2^53 are inf as halves either way
  } else if constexpr (std::is_floating_point_v<TT>) {
    return static_cast<TT>(v);  // one rounding, to nearest even
  } else if constexpr (To == DType::u8c) {
    if constexpr (std::is_floating_point_v<FT>) {
      if (!(v > 0)) return 0;  // NaN, zeros, negatives
      if (v >= 255) return 255;
      return static_cast<TT>(std::nearbyint(v));  // half to even
    } else if constexpr (std::is_signed_v<FT>) {
      return static_cast<TT>(v < 0 ? 0 : v > 255 ? 255 : v);
    } else {
      return static_cast<TT>(v > 255 ? 255 : v);
    }
  } else if constexpr (std::is_floating_point_v<FT>) {
    return float_to_int<TT>(static_cast<double>(v));
  } else {
    using U = std::make_unsigned_t<TT>;
    return static_cast<TT>(static_cast<U>(v));  // two's complement wrap (sign- or zero-extends first)
  }
}

}  // namespace unary

// The (from, to) pair whose cast kernel computes (from, to) bit for bit:
// - from == to (and the same-size integer pairs that only move bits) is a copy;
// - integer -> integer widening depends on the source's sign only (to's twin);
// - narrowing between integers keeps the low bits (signed twins on both sides).
// Returns from * count + to of the representative; a copy has to == from.
constexpr DType signed_twin(DType d) {
  return d == DType::u8 || d == DType::u8c ? DType::i8 : d == DType::u16 ? DType::i16 : d == DType::u32 ? DType::i32
       : d == DType::u64 ? DType::i64 : d;
}
struct CastPair {
  DType from, to;
};
constexpr CastPair cast_kernel_pair(DType from, DType to) {
  if (from == to) return {signed_twin(from), signed_twin(to)};  // float copies stay themselves
  if (is_float_dtype(from) || is_float_dtype(to) || to == DType::u8c) {
    return {from == DType::u8c ? DType::u8 : from, to};  // uint8clamped elements read as uint8
  }
  const size_t fs = dtype_size(from), ts = dtype_size(to);
  if (fs >= ts) return {signed_twin(from), signed_twin(to)};
  return {from == DType::u8c ? DType::u8 : from, signed_twin(to)};
}

}  // namespace tc

namespace tc {
// float16 unary ops: blocks of float16 converted to float32 (`up`), the float32
// kernel `k32`, the results converted back (`down`), or written as they are
// for a boolean op (unary_scalar.cpp). out may equal in.
void f16_unary_via_f32(const void* in, void* out, size_t n, bool boolean, UnaryKernel k32, HalfToFloatFn up,
                       FloatToHalfFn down);
// Cast tables (unary_scalar.cpp, unary_wasmsimd.cpp): [from * count + to];
// unary tables: [dtype * UnaryOp::count + op]. SIMD ones are nullptr where
// there is no vector form (and natively).
const UnaryKernel* unary_reference_table();
const UnaryKernel* unary_simd_table();
const UnaryKernel* cast_reference_table();
const UnaryKernel* cast_simd_table();
}  // namespace tc

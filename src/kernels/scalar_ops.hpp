// The element semantics of every (dtype, op): what a plain scalar loop
// computes. The reference kernels are loops over these; SIMD kernels must
// agree with them bit for bit (tests sweep both).
//
// Decisions (documented in the README):
// - Integers wrap like a typed-array store (mod 2^bits) of the exact result
//   (so mul is Math.imul, not a double product rounded first); Uint8Clamped
//   results are what a Uint8ClampedArray store of the JS result gives: clamp
//   to [0, 255], and div rounds half to even (7 / 2 = 4, 5 / 2 = 2, x / 0 =
//   255, 0 / 0 = 0). Integer div truncates toward zero; x / 0 and x % 0
//   give 0 (never a trap); INT_MIN / -1 wraps to INT_MIN; rem follows JS %
//   (the sign of the dividend). Integer pow is the exact power wrapped (like
//   NumPy); a negative exponent gives 1/a^|b| truncated (0 unless |a| == 1).
// - Floats are IEEE as a scalar loop computes them; float32 ops run in float32
//   (for + - * / that equals computing in double and rounding on store).
//   pow runs in double and rounds. rem is fmod, exactly JS %.
// - minimum / maximum propagate NaN and order -0 below +0 (Math.min/max,
//   NumPy minimum/maximum, wasm f32x4.min/max).
// - Truthiness for logical ops is "!= 0", so NaN is true (NumPy).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels.hpp"

namespace tc {

template <DType> struct Storage;
template <> struct Storage<DType::f32> { using T = float; };
template <> struct Storage<DType::f64> { using T = double; };
template <> struct Storage<DType::i8> { using T = int8_t; };
template <> struct Storage<DType::u8> { using T = uint8_t; };
template <> struct Storage<DType::u8c> { using T = uint8_t; };
template <> struct Storage<DType::i16> { using T = int16_t; };
template <> struct Storage<DType::u16> { using T = uint16_t; };
template <> struct Storage<DType::i32> { using T = int32_t; };
template <> struct Storage<DType::u32> { using T = uint32_t; };
template <> struct Storage<DType::i64> { using T = int64_t; };
template <> struct Storage<DType::u64> { using T = uint64_t; };

constexpr bool is_bool_op(Op op) { return op >= Op::equal && op <= Op::logical_xor; }
constexpr bool is_bitwise_op(Op op) { return op >= Op::bitwise_and; }
constexpr bool is_float_dtype(DType d) { return d == DType::f32 || d == DType::f64; }
constexpr bool defined_for(DType d, Op op) { return !(is_bitwise_op(op) && is_float_dtype(d)); }

template <DType D, Op op>
using OutT = std::conditional_t<is_bool_op(op), uint8_t, typename Storage<D>::T>;

namespace ops {

template <typename T>
constexpr T clamp_u8(long long v) { return static_cast<T>(v < 0 ? 0 : v > 255 ? 255 : v); }

// Wrapping power by squaring on the unsigned representation.
template <typename T>
T ipow(T a, T b) {
  using U = std::make_unsigned_t<T>;
  using W = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == -1) return (b & 1) ? T(-1) : T(1);
      return 0;
    }
  }
  W base = static_cast<W>(static_cast<U>(a)), r = 1;
  U e = static_cast<U>(b);
  while (e) {
    if (e & 1) r = static_cast<W>(r * base);
    base = static_cast<W>(base * base);
    e >>= 1;
  }
  return static_cast<T>(static_cast<U>(r));
}

// Saturating power for Uint8Clamped.
inline uint8_t pow_clamped(uint8_t a, uint8_t b) {
  unsigned r = 1;
  for (unsigned i = 0; i < b && r <= 255; ++i) r *= a;
  if (b > 0 && a == 0) return 0;
  return static_cast<uint8_t>(r > 255 ? 255 : r);
}

// Uint8Clamped division as a JS store of a / b: 0 / 0 = NaN -> 0, x / 0 =
// Infinity -> 255, otherwise the quotient rounded half to even.
inline uint8_t div_clamped(uint8_t a, uint8_t b) {
  if (b == 0) return a == 0 ? 0 : 255;
  const unsigned q = a / b, r2 = 2u * (a % b);
  return static_cast<uint8_t>(q + (r2 > b || (r2 == b && (q & 1u))));
}

template <typename T>
T fmin_js(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return std::signbit(a) ? a : b;  // -0 below +0
  return a < b ? a : b;
}
template <typename T>
T fmax_js(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

template <DType D, Op op>
inline OutT<D, op> apply(typename Storage<D>::T a, typename Storage<D>::T b) {
  using T = typename Storage<D>::T;
  constexpr bool F = is_float_dtype(D);
  constexpr bool C = D == DType::u8c;
  using W = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;  // wrapping arithmetic
  if constexpr (op == Op::add) {
    if constexpr (F) return a + b;
    else if constexpr (C) return clamp_u8<T>(static_cast<long long>(a) + b);
    else return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
  } else if constexpr (op == Op::sub) {
    if constexpr (F) return a - b;
    else if constexpr (C) return clamp_u8<T>(static_cast<long long>(a) - b);
    else return static_cast<T>(static_cast<W>(a) - static_cast<W>(b));
  } else if constexpr (op == Op::mul) {
    if constexpr (F) return a * b;
    else if constexpr (C) return clamp_u8<T>(static_cast<long long>(a) * b);
    else return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
  } else if constexpr (op == Op::div) {
    if constexpr (F) return a / b;
    else if constexpr (C) return div_clamped(a, b);
    else {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return static_cast<T>(W(0) - static_cast<W>(a));  // INT_MIN / -1 wraps
      }
      return static_cast<T>(a / b);
    }
  } else if constexpr (op == Op::rem) {
    if constexpr (F) return static_cast<T>(std::fmod(a, b));
    else {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
      }
      return static_cast<T>(a % b);
    }
  } else if constexpr (op == Op::pow) {
    if constexpr (F) return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    else if constexpr (C) return pow_clamped(a, b);
    else return ipow<T>(a, b);
  } else if constexpr (op == Op::minimum) {
    if constexpr (F) return fmin_js(a, b);
    else return a < b ? a : b;
  } else if constexpr (op == Op::maximum) {
    if constexpr (F) return fmax_js(a, b);
    else return a > b ? a : b;
  } else if constexpr (op == Op::equal) { return a == b;
  } else if constexpr (op == Op::not_equal) { return a != b;
  } else if constexpr (op == Op::less) { return a < b;
  } else if constexpr (op == Op::less_equal) { return a <= b;
  } else if constexpr (op == Op::greater) { return a > b;
  } else if constexpr (op == Op::greater_equal) { return a >= b;
  } else if constexpr (op == Op::logical_and) { return (a != 0) && (b != 0);
  } else if constexpr (op == Op::logical_or) { return (a != 0) || (b != 0);
  } else if constexpr (op == Op::logical_xor) { return (a != 0) != (b != 0);
  } else if constexpr (op == Op::bitwise_and) { return static_cast<T>(a & b);
  } else if constexpr (op == Op::bitwise_or) { return static_cast<T>(a | b);
  } else { return static_cast<T>(a ^ b);
  }
}

}  // namespace ops
}  // namespace tc

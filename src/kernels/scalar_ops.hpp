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

#include "host_math.hpp"
#include "kernels.hpp"

namespace tc {

template <DType> struct Storage;
#define TC_DTYPE(e, name, ctype, array, kind) \
  template <> struct Storage<DType::e> { using T = ctype; };
#include "dtypes.def"

constexpr bool is_bool_op(Op op) { return op_traits(op).result == OpResult::boolean; }
constexpr bool defined_for(DType d, Op op) {
  switch (op_traits(op).domain) {
    case OpDomain::integer: return !is_float_dtype(d);
    case OpDomain::floating: return is_float_dtype(d);
    default: return true;
  }
}

// The dtype whose kernel computes (d, op) bit for bit, so that one kernel
// serves both table entries (a smaller wasm; the registry still lists both):
// - uint8clamped is uint8 wherever its result cannot leave [0, 255], that is
//   everywhere but + - * / pow floorDiv, which saturate or round;
// - an unsigned integer is its signed twin where the result's bits do not
//   depend on the sign: wrapping + - *, == !=, the logical and bitwise ops.
constexpr DType kernel_dtype(DType d, Op op) {
  if (d == DType::u8c) {
    switch (op) {
      case Op::add: case Op::sub: case Op::mul: case Op::div: case Op::pow: case Op::floor_div: return d;
      default: d = DType::u8;
    }
  }
  switch (op) {
    case Op::add: case Op::sub: case Op::mul: case Op::equal: case Op::not_equal:
    case Op::logical_and: case Op::logical_or: case Op::logical_xor:
    case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor:
      return d == DType::u8 ? DType::i8 : d == DType::u16 ? DType::i16 : d == DType::u32 ? DType::i32
           : d == DType::u64 ? DType::i64 : d;
    default: return d;
  }
}

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

// fmod in double for every float type: the remainder is exact and fits the
// operands' type, so float32's is fmodf's bit for bit, and the module carries
// one fmod, not fmod and fmodf. (The empty asm hides where the double came
// from: the compiler would turn fmod of two widened floats back into fmodf.)
template <typename T>
[[gnu::always_inline]] inline T fmod_exact(T a, T b) {
  double x = a;
#ifdef __wasm__
  if constexpr (!std::is_same_v<T, double>) __asm__("" : "+r"(x));
#endif
  return static_cast<T>(std::fmod(x, static_cast<double>(b)));
}

// NumPy's divmod for floats (np.mod, np.floor_divide; ONNX Mod with fmod=0):
// the remainder takes the divisor's sign; the quotient is floor((a - mod) / b),
// rounded to the nearest integer first so that 1 // 0.1 is 9 as in NumPy.
// Division by zero gives what a / b gives (inf or NaN) and fmod's NaN.
template <typename T>
T mod_float(T a, T b) {
  T m = fmod_exact(a, b);
  if (b == 0) return m;
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(T(0), b);
  }
  return m;
}
template <typename T>
T floor_div_float(T a, T b) {
  if (b == 0) return a / b;
  T m = fmod_exact(a, b);
  T d = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) d -= T(1);
  if (d == 0) return std::copysign(T(0), a / b);
  T f = std::floor(d);
  if (d - f > T(0.5)) f += T(1);
  return f;
}
// Integers: the remainder takes the divisor's sign; x // 0 and x % 0 give 0
// (as NumPy, without its warning); INT_MIN // -1 wraps like div.
template <typename T>
T mod_int(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    const T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  } else {
    return static_cast<T>(a % b);
  }
}
template <typename T>
T floor_div_int(T a, T b) {
  using W = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(W(0) - static_cast<W>(a));
    const T q = static_cast<T>(a / b);
    return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return static_cast<T>(a / b);
  }
}
// Uint8Clamped: a Uint8ClampedArray store of Math.floor(a / b), like div.
inline uint8_t floor_div_clamped(uint8_t a, uint8_t b) {
  if (b == 0) return a == 0 ? 0 : 255;
  return static_cast<uint8_t>(a / b);
}
// hypot: float32 in double (exact squares, one rounding of the sum, as
// glibc's hypotf and the SIMD kernel do), float64 through the C library.
// An infinite side gives +inf even beside NaN (IEEE 754).
inline float hypot_js(float a, float b) {
  if (std::isinf(a) || std::isinf(b)) return std::numeric_limits<float>::infinity();
  const double x = a, y = b;
  return static_cast<float>(std::sqrt(x * x + y * y));
}
inline double hypot_js(double a, double b) { return std::hypot(a, b); }

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
    if constexpr (F) return fmod_exact(a, b);
    else {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
      }
      return static_cast<T>(a % b);
    }
  } else if constexpr (op == Op::pow) {
    if constexpr (F) return static_cast<T>(host::pow(static_cast<double>(a), static_cast<double>(b)));
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
  } else if constexpr (op == Op::bitwise_xor) { return static_cast<T>(a ^ b);
  } else if constexpr (op == Op::mod) {
    if constexpr (F) return mod_float(a, b);
    else return mod_int(a, b);
  } else if constexpr (op == Op::floor_div) {
    if constexpr (F) return floor_div_float(a, b);
    else if constexpr (C) return floor_div_clamped(a, b);
    else return floor_div_int(a, b);
  } else if constexpr (op == Op::atan2) {
    // float32 in double, rounded once (as the float32 transcendentals are).
    if constexpr (std::is_same_v<T, float>) return static_cast<float>(host::atan2(a, b));
    else return host::atan2(a, b);
  } else {
    static_assert(op == Op::hypot, "every op of ops.def needs its element function here");
    return hypot_js(a, b);
  }
}

}  // namespace ops
}  // namespace tc

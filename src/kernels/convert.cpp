// Element conversion (reduce.hpp): a value to another dtype as a typed-array
// store of it gives. convert_elements converts an input to its accumulation
// dtype before a reduction; fill_value and divide_elements write the results
// the driver computes in double (an empty reduction's identity, mean's quotient).
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "half.hpp"
#include "reduce.hpp"
#include "scalar_ops.hpp"

namespace tc {

// ---- one element ---------------------------------------------------------------------
namespace {

template <typename To, DType ToD, typename From>
To convert_one(From v) {
  if constexpr (ToD == DType::f16) {
    return Half{double_to_half(static_cast<double>(v))};  // one rounding (integers: exact up to 2^53, beyond: inf)
  } else if constexpr (std::is_same_v<To, From> && ToD != DType::u8c) {
    return v;
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v);
  } else if constexpr (ToD == DType::u8c) {
    if constexpr (std::is_floating_point_v<From>) {
      if (!(v > 0)) return 0;  // NaN, -0, negatives
      if (v >= 255) return 255;
      return static_cast<To>(std::nearbyint(static_cast<double>(v)));  // ties to even (default rounding)
    } else if constexpr (std::is_signed_v<From>) {
      return static_cast<To>(v < 0 ? 0 : v > 255 ? 255 : v);
    } else {
      return static_cast<To>(v > 255 ? 255 : v);
    }
  } else {
    using U = std::make_unsigned_t<To>;
    if constexpr (std::is_floating_point_v<From>) {
      const double d = static_cast<double>(v);
      if (!std::isfinite(d)) return 0;
      const double t = std::trunc(d);
      // Wrap mod 2^64 (exact in double arithmetic: fmod is exact), then to To.
      const double m = std::fmod(t, 18446744073709551616.0);
      std::uint64_t u = m >= 0 ? static_cast<std::uint64_t>(m) : std::uint64_t{0} - static_cast<std::uint64_t>(-m);
      return static_cast<To>(static_cast<U>(u));
    } else {
      return static_cast<To>(static_cast<U>(v));
    }
  }
}

// Two steps through a wide value that holds every element exactly: int64 for
// the signed integers and the 8-32-bit unsigned ones, uint64 for uint64,
// double for the floats (44 loops instead of 121, the same results).
enum class Wide { i64, u64, f64 };
constexpr Wide wide_of(DType f) { return is_float_dtype(f) ? Wide::f64 : f == DType::u64 ? Wide::u64 : Wide::i64; }
template <Wide W>
using WideT = std::conditional_t<W == Wide::f64, double, std::conditional_t<W == Wide::u64, std::uint64_t, std::int64_t>>;

constexpr size_t kWideChunk = 256;
union WideBuf {
  std::int64_t i64[kWideChunk];
  std::uint64_t u64[kWideChunk];
  double f64[kWideChunk];
};
template <Wide W>
WideT<W>* member(WideBuf& b) {
  if constexpr (W == Wide::f64) return b.f64;
  else if constexpr (W == Wide::u64) return b.u64;
  else return b.i64;
}

template <DType F>
void widen(const void* src, WideBuf& buf, size_t n) {
  using FT = typename Storage<F>::T;
  const FT* s = static_cast<const FT*>(src);
  auto* d = member<wide_of(F)>(buf);
  if constexpr (F == DType::f16) {
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<double>(half_to_float(s[i].bits));
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<WideT<wide_of(F)>>(s[i]);
  }
}

template <Wide W, DType T>
void narrow(WideBuf& buf, void* dst, size_t n) {
  using TT = typename Storage<T>::T;
  const auto* s = member<W>(buf);
  TT* d = static_cast<TT*>(dst);
  for (size_t i = 0; i < n; ++i) d[i] = convert_one<TT, T, WideT<W>>(s[i]);
}

using WidenFn = void (*)(const void*, WideBuf&, size_t);
using NarrowFn = void (*)(WideBuf&, void*, size_t);
constexpr size_t kDT = static_cast<size_t>(DType::count);

template <size_t... I>
constexpr std::array<WidenFn, kDT> make_widen_table(std::index_sequence<I...>) {
  return {&widen<static_cast<DType>(I)>...};
}
template <size_t... I>
constexpr std::array<NarrowFn, 3 * kDT> make_narrow_table(std::index_sequence<I...>) {
  return {&narrow<static_cast<Wide>(I / kDT), static_cast<DType>(I % kDT)>...};
}

}  // namespace

void convert_elements(DType from, DType to, const void* src, void* dst, size_t n) {
  if (from >= DType::count || to >= DType::count || n == 0) return;
  static constexpr std::array<WidenFn, kDT> widen_table = make_widen_table(std::make_index_sequence<kDT>{});
  static constexpr std::array<NarrowFn, 3 * kDT> narrow_table =
      make_narrow_table(std::make_index_sequence<3 * kDT>{});
  const WidenFn w = widen_table[static_cast<size_t>(from)];
  const NarrowFn nw = narrow_table[static_cast<size_t>(wide_of(from)) * kDT + static_cast<size_t>(to)];
  WideBuf buf;
  // float16 <-> float32: the block conversions (SIMD128 in the wasm SIMD build).
  if (from == DType::f16 && to == DType::f32) {
    find_half_to_float()(static_cast<const uint16_t*>(src), static_cast<float*>(dst), n);
    return;
  }
  if (from == DType::f32 && to == DType::f16) {
    find_float_to_half()(static_cast<const float*>(src), static_cast<uint16_t*>(dst), n);
    return;
  }
  const size_t fs = dtype_size(from), ts = dtype_size(to);
  for (size_t i = 0; i < n; i += kWideChunk) {
    const size_t c = n - i < kWideChunk ? n - i : kWideChunk;
    w(static_cast<const char*>(src) + i * fs, buf, c);
    nw(buf, static_cast<char*>(dst) + i * ts, c);
  }
}

// ---- values computed in double ---------------------------------------------------------
namespace {

template <DType D>
void fill_t(void* out, i64 n, double v) {
  using T = typename Storage<D>::T;
  const T c = convert_one<T, D, double>(v);
  T* o = static_cast<T*>(out);
  for (i64 i = 0; i < n; ++i) o[i] = c;
}

// mean: out[i] = out[i] / count in acc_dt (see reduce.hpp).
template <DType D>
void divide_t(void* out, i64 n, double count) {
  using T = typename Storage<D>::T;
  T* o = static_cast<T*>(out);
  for (i64 i = 0; i < n; ++i) {
    if constexpr (D == DType::f64) o[i] = o[i] / count;
    else if constexpr (D == DType::f16) o[i] = Half{float_to_half(static_cast<float>(static_cast<double>(half_to_float(o[i].bits)) / count))};
    else o[i] = convert_one<T, D, double>(static_cast<double>(o[i]) / count);
  }
}

}  // namespace

void fill_value(DType dt, void* out, i64 n, double v) {
  switch (dt) {
#define TC_DTYPE(e, name, ctype, array, kind) \
  case DType::e: fill_t<DType::e>(out, n, v); break;
#include "dtypes.def"
    default: break;
  }
}

void sum_zero_sign(DType dt, void* out, i64 n) {
  if (dt != DType::f32 && dt != DType::f64) return;
  const double zero[1] = {};  // +0 in either dtype (all bits 0); the add kernel, SIMD where there is one
  find_kernel(dt, Op::add, Form::vs)(out, zero, out, static_cast<size_t>(n));
}

void divide_elements(DType dt, void* out, i64 n, i64 count) {
  switch (dt) {
#define TC_DTYPE(e, name, ctype, array, kind) \
  case DType::e: divide_t<DType::e>(out, n, static_cast<double>(count)); break;
#include "dtypes.def"
    default: break;
  }
}

}  // namespace tc

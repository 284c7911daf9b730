// Scalar reference kernels of the unary ops and of cast: the oracle every
// SIMD kernel is tested against and the fallback where none exists. Loops over
// the element functions of unary_ops.hpp; entries whose results agree bit for
// bit share one function (unary_kernel_dtype, cast_kernel_pair).
#include <array>
#include <cstring>
#include <utility>

#include "simd_coverage.hpp"
#include "unary_ops.hpp"

#if defined(__clang__)
#define TC_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define TC_SCALAR_LOOP
#endif

namespace tc {

namespace {

template <DType D, UnaryOp op>
void ref_unary(const void* pi, void* po, size_t n) {
  using T = typename Storage<D>::T;
  const T* in = static_cast<const T*>(pi);
  auto* o = static_cast<UnaryOutT<D, op>*>(po);
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) o[i] = unary::apply<D, op>(in[i]);
}

// isNaN / isFinite of an integer: a constant, the input unread.
template <uint8_t V>
void fill_bool(const void*, void* po, size_t n) {
  std::memset(po, V, n);
}

// The identities and equal-size casts: the bytes, moved (in == out is a no-op).
template <size_t ES>
void copy_elements(const void* pi, void* po, size_t n) {
  if (pi != po) std::memmove(po, pi, n * ES);
}

// Casts in two steps through a wide value that holds every element exactly:
// int64 for the signed integers and the 8-32-bit unsigned ones, uint64 for
// uint64, double for the floats. cast_one of the wide value is cast_one of the
// element (wrapping keeps the low bits, one rounding to a float, saturation
// and clamping compare values): 12 widening and 36 narrowing loops serve the
// 144 pairs, each pair a two-pointer entry into one chunked loop.
enum class Wide { i64, u64, f64 };
constexpr Wide wide_of(DType f) { return is_float_dtype(f) ? Wide::f64 : f == DType::u64 ? Wide::u64 : Wide::i64; }
constexpr DType wide_dtype(Wide w) { return w == Wide::f64 ? DType::f64 : w == Wide::u64 ? DType::u64 : DType::i64; }
constexpr size_t kChunk = 256;

template <DType F>
void widen(const void* src, void* buf, size_t n) {
  using FT = typename Storage<F>::T;
  using WT = typename Storage<wide_dtype(wide_of(F))>::T;
  const FT* s = static_cast<const FT*>(src);
  WT* d = static_cast<WT*>(buf);
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) {
    if constexpr (F == DType::f16) d[i] = static_cast<double>(half_to_float(s[i].bits));
    else d[i] = static_cast<WT>(s[i]);
  }
}

template <Wide W, DType T>
void narrow(const void* buf, void* dst, size_t n) {
  constexpr DType WD = wide_dtype(W);
  const auto* s = static_cast<const typename Storage<WD>::T*>(buf);
  auto* d = static_cast<typename Storage<T>::T*>(dst);
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) d[i] = unary::cast_one<WD, T>(s[i]);
}

using StepFn = void (*)(const void*, void*, size_t);
[[gnu::noinline]] void cast_via_wide(const void* in, void* out, size_t n, size_t fs, size_t ts, StepFn up, StepFn down) {
  alignas(8) unsigned char buf[kChunk * 8];
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t c = n - i < kChunk ? n - i : kChunk;
    up(static_cast<const char*>(in) + i * fs, buf, c);
    down(buf, static_cast<char*>(out) + i * ts, c);
  }
}

template <DType From, DType To>
void ref_cast(const void* in, void* out, size_t n) {
  cast_via_wide(in, out, n, dtype_size(From), dtype_size(To), &widen<From>, &narrow<wide_of(From), To>);
}

template <UnaryOp op>
void f16_ref_unary(const void* pi, void* po, size_t n) {
  f16_unary_via_f32(pi, po, n, unary_yields_bool(op), find_unary_reference(DType::f32, op), &half_to_float_reference,
                    &float_to_half_reference);
}

constexpr size_t kUOps = static_cast<size_t>(UnaryOp::count);
constexpr size_t kDT = static_cast<size_t>(DType::count);

template <size_t I>
constexpr UnaryKernel unary_entry() {
  constexpr DType D = static_cast<DType>(I / kUOps);
  constexpr UnaryOp O = static_cast<UnaryOp>(I % kUOps);
  constexpr DType K = unary_kernel_dtype(D, O);
  if constexpr (!unary_defined(D, O) || (simd::kLean && simd::unary<D, O>())) return nullptr;
  else if constexpr (D == DType::f16) return &f16_ref_unary<O>;
  else if constexpr (unary_is_identity(D, O)) return &copy_elements<dtype_size(D)>;
  else if constexpr (!is_float_dtype(D) && O == UnaryOp::is_nan) return &fill_bool<0>;
  else if constexpr (!is_float_dtype(D) && O == UnaryOp::is_finite) return &fill_bool<1>;
  else return &ref_unary<K, O>;
}

template <size_t I>
constexpr UnaryKernel cast_entry() {
  constexpr DType F = static_cast<DType>(I / kDT);
  constexpr DType T = static_cast<DType>(I % kDT);
  constexpr CastPair P = cast_kernel_pair(F, T);
  if constexpr (simd::kLean && simd::cast<F, T>()) {
    return nullptr;
  } else if constexpr (P.from == P.to || (F == DType::u8 && T == DType::u8c)) {  // uint8 values are all in [0, 255]
    return &copy_elements<dtype_size(F)>;
  } else {
    return &ref_cast<P.from, P.to>;
  }
}

template <size_t... I>
constexpr std::array<UnaryKernel, sizeof...(I)> make_unary(std::index_sequence<I...>) {
  return {unary_entry<I>()...};
}
template <size_t... I>
constexpr std::array<UnaryKernel, sizeof...(I)> make_cast(std::index_sequence<I...>) {
  return {cast_entry<I>()...};
}

}  // namespace

void f16_unary_via_f32(const void* pi, void* po, size_t n, bool boolean, UnaryKernel k32, HalfToFloatFn up,
                       FloatToHalfFn down) {
  constexpr size_t kBlock = 256;
  float x[kBlock];
  const auto* in = static_cast<const uint16_t*>(pi);
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t c = n - i < kBlock ? n - i : kBlock;
    up(in + i, x, c);
    if (boolean) {
      k32(x, static_cast<uint8_t*>(po) + i, c);  // out (bytes) may be in's memory: the block is read already
    } else {
      k32(x, x, c);
      down(x, static_cast<uint16_t*>(po) + i, c);
    }
  }
}

const UnaryKernel* unary_reference_table() {
  static constexpr auto table = make_unary(std::make_index_sequence<kDT * kUOps>{});
  return table.data();
}

const UnaryKernel* cast_reference_table() {
  static constexpr auto table = make_cast(std::make_index_sequence<kDT * kDT>{});
  return table.data();
}

#if !defined(TC_HAVE_SIMD)
const UnaryKernel* unary_simd_table() { return nullptr; }
const UnaryKernel* cast_simd_table() { return nullptr; }
#endif

}  // namespace tc

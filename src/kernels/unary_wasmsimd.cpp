// SIMD128 kernels of the unary ops and of cast (wasm build only), where
// SIMD128 has the instruction: float neg/abs/sqrt/floor/ceil/trunc/nearest,
// integer neg/abs/not, float32 exp/expm1/log/log1p/tanh/sigmoid (fast_f32.hpp), float16 through the float32 kernels, and the
// conversions f32 <-> i32/u32, f64 <-> f32, f64 <-> i32/u32, f16 <-> f32 and
// the integer widenings. Whole vectors, then the same kernel on a padded copy
// of the tail, so every length agrees with the reference bit for bit.
#include <wasm_simd128.h>

#include <array>
#include <cstring>
#include <utility>

#include "simd_coverage.hpp"
#include "unary_ops.hpp"

namespace tc {

namespace {

// ---- unary ops --------------------------------------------------------------------------
using simd::has_uvop;  // simd_coverage.hpp

template <DType D, UnaryOp op>
v128_t uvop(v128_t x) {
  constexpr bool F32 = D == DType::f32, F64 = D == DType::f64;
  using L = f32m::V;
  if constexpr (op == UnaryOp::bitwise_not) {
    return wasm_v128_not(x);
  } else if constexpr (op == UnaryOp::exp) {
    return f32m::exp<L>(x);
  } else if constexpr (op == UnaryOp::expm1) {
    return f32m::expm1<L>(x);
  } else if constexpr (op == UnaryOp::log) {
    return f32m::log<L>(x);
  } else if constexpr (op == UnaryOp::log1p) {
    return f32m::log1p<L>(x);
  } else if constexpr (op == UnaryOp::tanh) {
    return f32m::tanh<L>(x);
  } else if constexpr (op == UnaryOp::sigmoid) {
    return f32m::sigmoid<L>(x);
  } else if constexpr (op == UnaryOp::neg) {
    if constexpr (F32) return wasm_f32x4_neg(x);
    else if constexpr (F64) return wasm_f64x2_neg(x);
    else if constexpr (D == DType::i8) return wasm_i8x16_neg(x);
    else if constexpr (D == DType::i16) return wasm_i16x8_neg(x);
    else if constexpr (D == DType::i32) return wasm_i32x4_neg(x);
    else return wasm_i64x2_neg(x);
  } else if constexpr (op == UnaryOp::abs) {
    if constexpr (F32) return wasm_f32x4_abs(x);
    else if constexpr (F64) return wasm_f64x2_abs(x);
    else if constexpr (D == DType::i8) return wasm_i8x16_abs(x);
    else if constexpr (D == DType::i16) return wasm_i16x8_abs(x);
    else if constexpr (D == DType::i32) return wasm_i32x4_abs(x);
    else return wasm_i64x2_abs(x);
  } else if constexpr (op == UnaryOp::sqrt) {
    if constexpr (F32) return wasm_f32x4_sqrt(x); else return wasm_f64x2_sqrt(x);
  } else if constexpr (op == UnaryOp::floor) {
    if constexpr (F32) return wasm_f32x4_floor(x); else return wasm_f64x2_floor(x);
  } else if constexpr (op == UnaryOp::ceil) {
    if constexpr (F32) return wasm_f32x4_ceil(x); else return wasm_f64x2_ceil(x);
  } else if constexpr (op == UnaryOp::trunc) {
    if constexpr (F32) return wasm_f32x4_trunc(x); else return wasm_f64x2_trunc(x);
  } else {
    static_assert(op == UnaryOp::round, "has_uvop() lists the ops with a vector form");
    if constexpr (F32) return wasm_f32x4_nearest(x); else return wasm_f64x2_nearest(x);
  }
}

// The ones a model's output meets (expm1 and log1p: one vector a step, smaller).
constexpr bool transcendental(UnaryOp op) {
  return op == UnaryOp::exp || op == UnaryOp::log || op == UnaryOp::tanh || op == UnaryOp::sigmoid;
}

template <DType D, UnaryOp op>
void simd_unary(const void* pi, void* po, size_t n) {
  using T = typename Storage<D>::T;
  constexpr size_t L = 16 / sizeof(T);
  const T* in = static_cast<const T*>(pi);
  T* o = static_cast<T*>(po);
  size_t i = 0;
  if constexpr (transcendental(op)) {
    // Two independent vectors a step: a polynomial is a chain of dependent
    // steps, and the second vector's fill the first one's latency (1M exp:
    // 1.18 ms against 1.68 one vector a step, Node).
    for (; i + 2 * L <= n; i += 2 * L) {
      const v128_t x0 = wasm_v128_load(in + i), x1 = wasm_v128_load(in + i + L);
      v128_t a, b;
      if constexpr (D == DType::f32 && (op == UnaryOp::exp || op == UnaryOp::log || op == UnaryOp::sigmoid)) {
        // float32 exp, log and sigmoid: where all 8 lanes are in their common
        // range (exp |x| <= 86, and sigmoid, whose exp's argument is -|x|; log a
        // positive normal) the steps that only the rest need are skipped, with
        // the same bits (fast_f32.hpp exp_near, log_normal).
        using V = f32m::V;
        const auto common = [](v128_t v) {  // all-ones lanes where v is in op's common range
          if constexpr (op == UnaryOp::log) return f32m::log_normal_lanes(v);
          else return f32m::exp_near_lanes(v);
        };
        if (wasm_i32x4_all_true(wasm_v128_and(common(x0), common(x1)))) {
          if constexpr (op == UnaryOp::exp) a = f32m::exp_near<V>(x0), b = f32m::exp_near<V>(x1);
          else if constexpr (op == UnaryOp::sigmoid) a = f32m::sigmoid<V, true>(x0), b = f32m::sigmoid<V, true>(x1);
          else a = f32m::log_normal<V>(x0), b = f32m::log_normal<V>(x1);
        } else {
          a = uvop<D, op>(x0), b = uvop<D, op>(x1);
        }
      } else {
        a = uvop<D, op>(x0), b = uvop<D, op>(x1);
      }
      wasm_v128_store(o + i, a);
      wasm_v128_store(o + i + L, b);
    }
  }
  // One vector a step: these run at memory speed, and the kernels stay small.
  // (A transcendental's last n % (2 L) elements take the padded tail: one copy of
  // its polynomial fewer in the module.)
  if constexpr (!transcendental(op))
    for (; i + L <= n; i += L) wasm_v128_store(o + i, uvop<D, op>(wasm_v128_load(in + i)));
  if (i < n) {  // the same kernel on 16 padded elements
    alignas(16) unsigned char ti[128], to[128];
    simd_unary<D, op>(simd::pad_tail(in + i, 1, n - i, sizeof(T), ti), to, 16);
    std::memcpy(o + i, to, (n - i) * sizeof(T));
  }
}

template <UnaryOp op>
void f16_simd_unary(const void* pi, void* po, size_t n) {
  f16_unary_via_f32(pi, po, n, unary_yields_bool(op), find_unary(DType::f32, op), find_half_to_float(),
                    find_float_to_half());
}

constexpr size_t kUOps = static_cast<size_t>(UnaryOp::count);
constexpr size_t kDT = static_cast<size_t>(DType::count);

template <size_t I>
constexpr UnaryKernel unary_entry() {
  constexpr DType D = static_cast<DType>(I / kUOps);
  constexpr UnaryOp O = static_cast<UnaryOp>(I % kUOps);
  constexpr DType K = unary_kernel_dtype(D, O);
  if constexpr (!simd::unary<D, O>()) return nullptr;  // the lean reference table holds these
  else if constexpr (D == DType::f16) return &f16_simd_unary<O>;
  else return &simd_unary<K, O>;
}

// ---- cast -------------------------------------------------------------------------------
// The pairs with a vector form (cast_kernel_pair's representatives): `step`
// converts a whole number of input vectors into a whole number of output vectors.
using simd::has_vcast;  // simd_coverage.hpp

// The pixel casts (uint8 and uint8clamped, which reads as uint8, to and from the floats).
// u8 -> i32 lanes: 16 bytes as 4 vectors.
inline void widen_bytes(v128_t x, v128_t (&v)[4]) {
  const v128_t lo = wasm_u16x8_extend_low_u8x16(x), hi = wasm_u16x8_extend_high_u8x16(x);
  v[0] = wasm_u32x4_extend_low_u16x8(lo);
  v[1] = wasm_u32x4_extend_high_u16x8(lo);
  v[2] = wasm_u32x4_extend_low_u16x8(hi);
  v[3] = wasm_u32x4_extend_high_u16x8(hi);
}
// 4 float32 -> i32 lanes 0..255 as a store to T (uint8clamped: NaN and negatives 0,
// >= 255 255, nearest ties even; uint8: truncated, saturating): pmax/pmin clamp
// (NaN -> 0), then + 1.5 * 2^23 leaves the integer in the low mantissa bits.
template <DType T>
v128_t f32_to_byte_lanes(v128_t x) {
  v128_t y = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_f32x4_splat(0.0f), x), wasm_f32x4_splat(255.0f));
  if constexpr (T == DType::u8) y = wasm_f32x4_trunc(y);
  return wasm_i32x4_sub(wasm_f32x4_add(y, wasm_f32x4_splat(12582912.0f)), wasm_i32x4_splat(0x4B400000));
}
// 2 float64 -> i32 lanes 0, 1 (the same semantics).
template <DType T>
v128_t f64_to_byte_lanes(v128_t x) {
  v128_t y = wasm_f64x2_pmin(wasm_f64x2_pmax(wasm_f64x2_splat(0.0), x), wasm_f64x2_splat(255.0));
  y = T == DType::u8 ? wasm_f64x2_trunc(y) : wasm_f64x2_nearest(y);
  return wasm_i32x4_trunc_sat_f64x2_zero(y);
}
inline v128_t narrow_bytes(v128_t a, v128_t b, v128_t c, v128_t d) {  // i32 lanes 0..255 -> 16 bytes (exact)
  return wasm_u8x16_narrow_i16x8(wasm_u16x8_narrow_i32x4(a, b), wasm_u16x8_narrow_i32x4(c, d));
}

template <DType F, DType T>
void vcast(const void* pi, void* po) {
  const auto* in = static_cast<const uint8_t*>(pi);
  auto* out = static_cast<uint8_t*>(po);
  if constexpr (F == DType::u8 && (T == DType::i32 || T == DType::f32 || T == DType::f64)) {  // 16 bytes
    v128_t v[4];
    widen_bytes(wasm_v128_load(in), v);
    for (int k = 0; k < 4; ++k) {
      if constexpr (T == DType::i32) wasm_v128_store(out + 16 * k, v[k]);
      else if constexpr (T == DType::f32) wasm_v128_store(out + 16 * k, wasm_f32x4_convert_i32x4(v[k]));
      else {
        wasm_v128_store(out + 32 * k, wasm_f64x2_convert_low_i32x4(v[k]));
        wasm_v128_store(out + 32 * k + 16, wasm_f64x2_convert_low_i32x4(wasm_i64x2_shuffle(v[k], v[k], 1, 0)));
      }
    }
  } else if constexpr (F == DType::f32 && (T == DType::u8 || T == DType::u8c)) {  // 16 floats
    wasm_v128_store(out, narrow_bytes(f32_to_byte_lanes<T>(wasm_v128_load(in)), f32_to_byte_lanes<T>(wasm_v128_load(in + 16)),
                                      f32_to_byte_lanes<T>(wasm_v128_load(in + 32)), f32_to_byte_lanes<T>(wasm_v128_load(in + 48))));
  } else if constexpr (F == DType::f64 && (T == DType::u8 || T == DType::u8c)) {  // 16 doubles
    v128_t q[4];
    for (int k = 0; k < 4; ++k)
      q[k] = wasm_i64x2_shuffle(f64_to_byte_lanes<T>(wasm_v128_load(in + 32 * k)),
                                f64_to_byte_lanes<T>(wasm_v128_load(in + 32 * k + 16)), 0, 2);
    wasm_v128_store(out, narrow_bytes(q[0], q[1], q[2], q[3]));
  } else if constexpr (F == DType::f32 && T == DType::i32) {
    wasm_v128_store(out, wasm_i32x4_trunc_sat_f32x4(wasm_v128_load(in)));
  } else if constexpr (F == DType::f32 && T == DType::u32) {
    wasm_v128_store(out, wasm_u32x4_trunc_sat_f32x4(wasm_v128_load(in)));
  } else if constexpr (F == DType::i32 && T == DType::f32) {
    wasm_v128_store(out, wasm_f32x4_convert_i32x4(wasm_v128_load(in)));
  } else if constexpr (F == DType::u32 && T == DType::f32) {
    wasm_v128_store(out, wasm_f32x4_convert_u32x4(wasm_v128_load(in)));
  } else if constexpr (F == DType::f32 && T == DType::f64) {  // 4 floats -> 4 doubles
    const v128_t x = wasm_v128_load(in);
    wasm_v128_store(out, wasm_f64x2_promote_low_f32x4(x));
    wasm_v128_store(out + 16, wasm_f64x2_promote_low_f32x4(wasm_i64x2_shuffle(x, x, 1, 0)));
  } else if constexpr (F == DType::f64 && T == DType::f32) {  // 4 doubles -> 4 floats
    const v128_t lo = wasm_f32x4_demote_f64x2_zero(wasm_v128_load(in));
    const v128_t hi = wasm_f32x4_demote_f64x2_zero(wasm_v128_load(in + 16));
    wasm_v128_store(out, wasm_i64x2_shuffle(lo, hi, 0, 2));
  } else if constexpr (F == DType::f64 && (T == DType::i32 || T == DType::u32)) {
    const v128_t a = wasm_v128_load(in), b = wasm_v128_load(in + 16);
    const v128_t lo = T == DType::i32 ? wasm_i32x4_trunc_sat_f64x2_zero(a) : wasm_u32x4_trunc_sat_f64x2_zero(a);
    const v128_t hi = T == DType::i32 ? wasm_i32x4_trunc_sat_f64x2_zero(b) : wasm_u32x4_trunc_sat_f64x2_zero(b);
    wasm_v128_store(out, wasm_i64x2_shuffle(lo, hi, 0, 2));
  } else if constexpr ((F == DType::i32 || F == DType::u32) && T == DType::f64) {
    const v128_t x = wasm_v128_load(in);
    const v128_t h = wasm_i64x2_shuffle(x, x, 1, 0);
    wasm_v128_store(out, F == DType::i32 ? wasm_f64x2_convert_low_i32x4(x) : wasm_f64x2_convert_low_u32x4(x));
    wasm_v128_store(out + 16, F == DType::i32 ? wasm_f64x2_convert_low_i32x4(h) : wasm_f64x2_convert_low_u32x4(h));
  } else if constexpr ((F == DType::i32 || F == DType::u32) && T == DType::i64) {
    const v128_t x = wasm_v128_load(in);
    wasm_v128_store(out, F == DType::i32 ? wasm_i64x2_extend_low_i32x4(x) : wasm_u64x2_extend_low_u32x4(x));
    wasm_v128_store(out + 16, F == DType::i32 ? wasm_i64x2_extend_high_i32x4(x) : wasm_u64x2_extend_high_u32x4(x));
  } else if constexpr (T == DType::i16) {  // 16 bytes -> 16 shorts
    const v128_t x = wasm_v128_load(in);
    wasm_v128_store(out, F == DType::i8 ? wasm_i16x8_extend_low_i8x16(x) : wasm_u16x8_extend_low_u8x16(x));
    wasm_v128_store(out + 16, F == DType::i8 ? wasm_i16x8_extend_high_i8x16(x) : wasm_u16x8_extend_high_u8x16(x));
  } else {
    static_assert(T == DType::i32, "has_vcast() lists the pairs with a vector form");
    const v128_t x = wasm_v128_load(in);
    wasm_v128_store(out, F == DType::i16 ? wasm_i32x4_extend_low_i16x8(x) : wasm_u32x4_extend_low_u16x8(x));
    wasm_v128_store(out + 16, F == DType::i16 ? wasm_i32x4_extend_high_i16x8(x) : wasm_u32x4_extend_high_u16x8(x));
  }
}

template <DType F, DType T>
void simd_cast(const void* pi, void* po, size_t n) {
  constexpr size_t S = dtype_size(F) == dtype_size(T) ? 16 / dtype_size(F) : dtype_size(F) == 1 || dtype_size(T) == 1 ? 16 : (dtype_size(F) == 2 || dtype_size(T) == 2) ? 8 : 4;
  const auto* in = static_cast<const uint8_t*>(pi);
  auto* out = static_cast<uint8_t*>(po);
  size_t i = 0;
  for (; i + S <= n; i += S) vcast<F, T>(in + i * dtype_size(F), out + i * dtype_size(T));
  if (i < n) {  // the same kernel on 16 padded elements
    alignas(16) unsigned char ti[128], to[128];
    simd_cast<F, T>(simd::pad_tail(in + i * dtype_size(F), 1, n - i, dtype_size(F), ti), to, 16);
    std::memcpy(out + i * dtype_size(T), to, (n - i) * dtype_size(T));
  }
}

void f16_to_f32(const void* pi, void* po, size_t n) {
  find_half_to_float()(static_cast<const uint16_t*>(pi), static_cast<float*>(po), n);
}
void f32_to_f16(const void* pi, void* po, size_t n) {
  find_float_to_half()(static_cast<const float*>(pi), static_cast<uint16_t*>(po), n);
}

template <size_t I>
constexpr UnaryKernel cast_entry() {
  constexpr DType F = static_cast<DType>(I / kDT);
  constexpr DType T = static_cast<DType>(I % kDT);
  constexpr CastPair P = cast_kernel_pair(F, T);
  if constexpr (F == DType::f16 && T == DType::f32) return &f16_to_f32;
  else if constexpr (F == DType::f32 && T == DType::f16) return &f32_to_f16;
  else if constexpr (simd::cast<F, T>()) return &simd_cast<P.from, P.to>;
  else return nullptr;
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

const UnaryKernel* unary_simd_table() {
  static constexpr auto table = make_unary(std::make_index_sequence<kDT * kUOps>{});
  return table.data();
}

const UnaryKernel* cast_simd_table() {
  static constexpr auto table = make_cast(std::make_index_sequence<kDT * kDT>{});
  return table.data();
}

}  // namespace tc

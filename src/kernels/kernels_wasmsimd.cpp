// SIMD128 kernels (wasm build only). Same section order as kernels_scalar.cpp:
// element loop, table, select (where) loop and table. Each kernel runs whole
// 16-byte vectors and finishes the tail on a padded copy of it, whole vectors
// again (simd_coverage.hpp), so results agree with the reference for every length.
#include <wasm_simd128.h>

#include <array>
#include <cstring>
#include <utility>

#include "half.hpp"
#include "scalar_ops.hpp"
#include "simd_by_type.hpp"
#include "simd_coverage.hpp"

namespace tc {

namespace {

template <typename T>
v128_t splat(T x) {
  if constexpr (std::is_same_v<T, float>) return wasm_f32x4_splat(x);
  else if constexpr (std::is_same_v<T, double>) return wasm_f64x2_splat(x);
  else if constexpr (sizeof(T) == 1) return wasm_i8x16_splat(static_cast<int8_t>(x));
  else if constexpr (sizeof(T) == 2) return wasm_i16x8_splat(static_cast<int16_t>(x));
  else if constexpr (sizeof(T) == 4) return wasm_i32x4_splat(static_cast<int32_t>(x));
  else return wasm_i64x2_splat(static_cast<int64_t>(x));
}

// Lane-wise "x != 0" mask (NaN counts as non-zero, -0 as zero).
template <DType D>
v128_t nonzero(v128_t x) {
  using T = typename Storage<D>::T;
  if constexpr (D == DType::f32) return wasm_f32x4_ne(x, wasm_f32x4_splat(0));
  else if constexpr (D == DType::f64) return wasm_f64x2_ne(x, wasm_f64x2_splat(0));
  else if constexpr (sizeof(T) == 1) return wasm_i8x16_ne(x, wasm_i8x16_splat(0));
  else if constexpr (sizeof(T) == 2) return wasm_i16x8_ne(x, wasm_i16x8_splat(0));
  else if constexpr (sizeof(T) == 4) return wasm_i32x4_ne(x, wasm_i32x4_splat(0));
  else return wasm_i64x2_ne(x, wasm_i64x2_splat(0));
}

using simd::has_vop;  // which (dtype, op) pairs have a vector form (simd_coverage.hpp)

template <DType D, Op op>
v128_t vop(v128_t a, v128_t b) {
  if constexpr (op == Op::add) {
    if constexpr (D == DType::u8c) return wasm_u8x16_add_sat(a, b);
    else { TC_BY_TYPE(wasm_f32x4_add(a, b), wasm_f64x2_add(a, b), wasm_i8x16_add(a, b), wasm_i8x16_add(a, b), wasm_i16x8_add(a, b), wasm_i16x8_add(a, b), wasm_i32x4_add(a, b), wasm_i32x4_add(a, b), wasm_i64x2_add(a, b), wasm_i64x2_add(a, b)) }
  } else if constexpr (op == Op::sub) {
    if constexpr (D == DType::u8c) return wasm_u8x16_sub_sat(a, b);
    else { TC_BY_TYPE(wasm_f32x4_sub(a, b), wasm_f64x2_sub(a, b), wasm_i8x16_sub(a, b), wasm_i8x16_sub(a, b), wasm_i16x8_sub(a, b), wasm_i16x8_sub(a, b), wasm_i32x4_sub(a, b), wasm_i32x4_sub(a, b), wasm_i64x2_sub(a, b), wasm_i64x2_sub(a, b)) }
  } else if constexpr (op == Op::mul) {
    TC_BY_TYPE(wasm_f32x4_mul(a, b), wasm_f64x2_mul(a, b), a, a, wasm_i16x8_mul(a, b), wasm_i16x8_mul(a, b), wasm_i32x4_mul(a, b), wasm_i32x4_mul(a, b), wasm_i64x2_mul(a, b), wasm_i64x2_mul(a, b))
  } else if constexpr (op == Op::div) {
    TC_BY_TYPE(wasm_f32x4_div(a, b), wasm_f64x2_div(a, b), a, a, a, a, a, a, a, a)
  } else if constexpr (op == Op::minimum) {
    TC_BY_TYPE(wasm_f32x4_min(a, b), wasm_f64x2_min(a, b), wasm_i8x16_min(a, b), wasm_u8x16_min(a, b), wasm_i16x8_min(a, b), wasm_u16x8_min(a, b), wasm_i32x4_min(a, b), wasm_u32x4_min(a, b), a, a)
  } else if constexpr (op == Op::maximum) {
    TC_BY_TYPE(wasm_f32x4_max(a, b), wasm_f64x2_max(a, b), wasm_i8x16_max(a, b), wasm_u8x16_max(a, b), wasm_i16x8_max(a, b), wasm_u16x8_max(a, b), wasm_i32x4_max(a, b), wasm_u32x4_max(a, b), a, a)
  } else if constexpr (op == Op::equal) {
    TC_BY_TYPE(wasm_f32x4_eq(a, b), wasm_f64x2_eq(a, b), wasm_i8x16_eq(a, b), wasm_i8x16_eq(a, b), wasm_i16x8_eq(a, b), wasm_i16x8_eq(a, b), wasm_i32x4_eq(a, b), wasm_i32x4_eq(a, b), wasm_i64x2_eq(a, b), wasm_i64x2_eq(a, b))
  } else if constexpr (op == Op::not_equal) {
    TC_BY_TYPE(wasm_f32x4_ne(a, b), wasm_f64x2_ne(a, b), wasm_i8x16_ne(a, b), wasm_i8x16_ne(a, b), wasm_i16x8_ne(a, b), wasm_i16x8_ne(a, b), wasm_i32x4_ne(a, b), wasm_i32x4_ne(a, b), wasm_i64x2_ne(a, b), wasm_i64x2_ne(a, b))
  } else if constexpr (op == Op::less) {
    TC_BY_TYPE(wasm_f32x4_lt(a, b), wasm_f64x2_lt(a, b), wasm_i8x16_lt(a, b), wasm_u8x16_lt(a, b), wasm_i16x8_lt(a, b), wasm_u16x8_lt(a, b), wasm_i32x4_lt(a, b), wasm_u32x4_lt(a, b), wasm_i64x2_lt(a, b), a)
  } else if constexpr (op == Op::less_equal) {
    TC_BY_TYPE(wasm_f32x4_le(a, b), wasm_f64x2_le(a, b), wasm_i8x16_le(a, b), wasm_u8x16_le(a, b), wasm_i16x8_le(a, b), wasm_u16x8_le(a, b), wasm_i32x4_le(a, b), wasm_u32x4_le(a, b), wasm_i64x2_le(a, b), a)
  } else if constexpr (op == Op::greater) {
    TC_BY_TYPE(wasm_f32x4_gt(a, b), wasm_f64x2_gt(a, b), wasm_i8x16_gt(a, b), wasm_u8x16_gt(a, b), wasm_i16x8_gt(a, b), wasm_u16x8_gt(a, b), wasm_i32x4_gt(a, b), wasm_u32x4_gt(a, b), wasm_i64x2_gt(a, b), a)
  } else if constexpr (op == Op::greater_equal) {
    TC_BY_TYPE(wasm_f32x4_ge(a, b), wasm_f64x2_ge(a, b), wasm_i8x16_ge(a, b), wasm_u8x16_ge(a, b), wasm_i16x8_ge(a, b), wasm_u16x8_ge(a, b), wasm_i32x4_ge(a, b), wasm_u32x4_ge(a, b), wasm_i64x2_ge(a, b), a)
  } else if constexpr (op == Op::logical_and) {
    return wasm_v128_and(nonzero<D>(a), nonzero<D>(b));
  } else if constexpr (op == Op::logical_or) {
    return wasm_v128_or(nonzero<D>(a), nonzero<D>(b));
  } else if constexpr (op == Op::logical_xor) {
    return wasm_v128_xor(nonzero<D>(a), nonzero<D>(b));
  } else if constexpr (op == Op::bitwise_and) {
    return wasm_v128_and(a, b);
  } else if constexpr (op == Op::bitwise_or) {
    return wasm_v128_or(a, b);
  } else if constexpr (op == Op::bitwise_xor) {
    return wasm_v128_xor(a, b);
  } else {
    static_assert(op == Op::hypot && D == DType::f32, "has_vop() lists the ops with a vector form");
    // float32 hypot in double, as the reference: two f64x2 halves, squares
    // exact, one rounding of the sum, sqrt, then round to float32. An
    // infinite side gives +inf even beside NaN.
    const v128_t alo = wasm_f64x2_promote_low_f32x4(a), blo = wasm_f64x2_promote_low_f32x4(b);
    const v128_t ahi = wasm_f64x2_promote_low_f32x4(wasm_i64x2_shuffle(a, a, 1, 0));
    const v128_t bhi = wasm_f64x2_promote_low_f32x4(wasm_i64x2_shuffle(b, b, 1, 0));
    const v128_t lo = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sqrt(wasm_f64x2_add(wasm_f64x2_mul(alo, alo), wasm_f64x2_mul(blo, blo))));
    const v128_t hi = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sqrt(wasm_f64x2_add(wasm_f64x2_mul(ahi, ahi), wasm_f64x2_mul(bhi, bhi))));
    const v128_t r = wasm_i64x2_shuffle(lo, hi, 0, 2);
    const v128_t inf = wasm_f32x4_splat(__builtin_inff());
    const v128_t any_inf = wasm_v128_or(wasm_f32x4_eq(wasm_f32x4_abs(a), inf), wasm_f32x4_eq(wasm_f32x4_abs(b), inf));
    return wasm_v128_bitselect(inf, r, any_inf);
  }
}
#undef TC_BY_TYPE

// K lane masks of K-byte lanes (16 elements in all) -> 16 bytes of 0 / 0xFF.
template <size_t K>
v128_t narrow_masks(const v128_t* m) {
  if constexpr (K == 1) return m[0];
  else if constexpr (K == 2) return wasm_i8x16_narrow_i16x8(m[0], m[1]);
  else if constexpr (K == 4) {
    return wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(m[0], m[1]), wasm_i16x8_narrow_i32x4(m[2], m[3]));
  } else {
    // 64-bit masks: keep the low half of each lane, then narrow as 32-bit.
    v128_t q[4];
    for (int k = 0; k < 4; ++k) q[k] = wasm_i32x4_shuffle(m[2 * k], m[2 * k + 1], 0, 2, 4, 6);
    return narrow_masks<4>(q);
  }
}

// ---- element loop --------------------------------------------------------------
template <DType D, Op op>
void simd_loop(const void* a, size_t sa, const void* b, size_t sb, void* o, size_t n);

// The vector loop of one form: a (or b) of form sv (or vs) is one element, splatted.
template <DType D, Op op, Form f>
[[gnu::always_inline]] inline void simd_form(const void* pa, const void* pb, void* po, size_t n) {
  using T = typename Storage<D>::T;
  constexpr size_t L = 16 / sizeof(T);
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  const v128_t sa = f == Form::sv ? splat<T>(a[0]) : wasm_i32x4_splat(0);
  const v128_t sb = f == Form::vs ? splat<T>(b[0]) : wasm_i32x4_splat(0);
  size_t i = 0;
  if constexpr (!is_bool_op(op)) {
    T* o = static_cast<T*>(po);
    // Two vectors a step (32 bytes): as fast as four in cache and in memory
    // (bench/ab-kernels.mjs), and the 98 kernels 0.8 KB smaller gzipped.
    for (; i + 2 * L <= n; i += 2 * L) {
      const v128_t x0 = f == Form::sv ? sa : wasm_v128_load(a + i);
      const v128_t x1 = f == Form::sv ? sa : wasm_v128_load(a + i + L);
      const v128_t y0 = f == Form::vs ? sb : wasm_v128_load(b + i);
      const v128_t y1 = f == Form::vs ? sb : wasm_v128_load(b + i + L);
      wasm_v128_store(o + i, vop<D, op>(x0, y0));
      wasm_v128_store(o + i + L, vop<D, op>(x1, y1));
    }
    for (; i + L <= n; i += L) {
      const v128_t x = f == Form::sv ? sa : wasm_v128_load(a + i);
      const v128_t y = f == Form::vs ? sb : wasm_v128_load(b + i);
      wasm_v128_store(o + i, vop<D, op>(x, y));
    }
  } else {
    uint8_t* o = static_cast<uint8_t*>(po);
    constexpr size_t K = sizeof(T);
    const v128_t one = wasm_i8x16_splat(1);
    for (; i + 16 <= n; i += 16) {
      v128_t m[K];
      for (size_t k = 0; k < K; ++k) {
        const v128_t x = f == Form::sv ? sa : wasm_v128_load(a + i + k * L);
        const v128_t y = f == Form::vs ? sb : wasm_v128_load(b + i + k * L);
        m[k] = vop<D, op>(x, y);
      }
      wasm_v128_store(o + i, wasm_v128_and(narrow_masks<K>(m), one));
    }
  }
  // The last n % lanes elements: the same kernel on 16 padded ones.
  constexpr size_t ra = f == Form::sv ? 0 : 1, rb = f == Form::vs ? 0 : 1;
  if (i < n) {
    alignas(16) unsigned char ta[128], tb[128], to[128];
    simd_loop<D, op>(simd::pad_tail(a + i * ra, ra, n - i, sizeof(T), ta), ra,
                     simd::pad_tail(b + i * rb, rb, n - i, sizeof(T), tb), rb, to, 16);
    std::memcpy(static_cast<OutT<D, op>*>(po) + i, to, (n - i) * sizeof(OutT<D, op>));
  }
}

// op(x, y) == op(y, x) for every x, y: its sv form is its vs form, swapped.
constexpr bool commutes(Op op) {
  switch (op) {
    case Op::add: case Op::mul: case Op::minimum: case Op::maximum: case Op::equal: case Op::not_equal:
    case Op::logical_and: case Op::logical_or: case Op::logical_xor:
    case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor: case Op::hypot: return true;
    default: return false;
  }
}

// The kernel of a (dtype, op), every form (BinaryLoop: strides 0 or 1): one
// vector loop per form, except that a commuting op's sv is its vs swapped.
template <DType D, Op op>
[[gnu::noinline]] void simd_loop(const void* a, size_t sa, const void* b, size_t sb, void* o, size_t n) {
  if constexpr (commutes(op)) {
    if (sa && sb) simd_form<D, op, Form::vv>(a, b, o, n);
    else simd_form<D, op, Form::vs>(sa ? a : b, sa ? b : a, o, n);
  } else {
    if (sa && sb) simd_form<D, op, Form::vv>(a, b, o, n);
    else if (sa) simd_form<D, op, Form::vs>(a, b, o, n);
    else simd_form<D, op, Form::sv>(a, b, o, n);
  }
}

// logicalAnd, logicalOr and logicalXor of one dtype: one loop (the op chosen
// once per 16 elements), as each reads only "!= 0" of its operands: 16
// elements of a as 16 mask bytes, the same of b (or b's one element), then
// the op on bytes. One kernel where there were three: 0.8 KB smaller gzipped.
template <DType D>
[[gnu::noinline]] void simd_logical(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n, Op op) {
  using T = typename Storage<D>::T;
  constexpr size_t L = 16 / sizeof(T), K = sizeof(T);
  if (!sa) {  // the ops commute: the lone element is b
    const void* t = pa;
    pa = pb;
    pb = t;
    sa = sb;
    sb = 0;
  }
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  uint8_t* o = static_cast<uint8_t*>(po);
  const v128_t one = wasm_i8x16_splat(1);
  const v128_t lone = wasm_i8x16_splat(sb ? 0 : b[0] != 0 ? -1 : 0);  // b's mask bytes when it is one element (NaN != 0)
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v128_t m[K];
    for (size_t k = 0; k < K; ++k) m[k] = nonzero<D>(wasm_v128_load(a + i + k * L));
    const v128_t x = narrow_masks<K>(m);
    v128_t y = lone;
    if (sb) {
      for (size_t k = 0; k < K; ++k) m[k] = nonzero<D>(wasm_v128_load(b + i + k * L));
      y = narrow_masks<K>(m);
    }
    const v128_t r = op == Op::logical_and ? wasm_v128_and(x, y) : op == Op::logical_or ? wasm_v128_or(x, y) : wasm_v128_xor(x, y);
    wasm_v128_store(o + i, wasm_v128_and(r, one));
  }
  if (i < n) {  // the same kernel on 16 padded elements
    alignas(16) unsigned char ta[128], tb[128], to[16];
    simd_logical<D>(simd::pad_tail(a + i, 1, n - i, K, ta), 1, simd::pad_tail(b + (sb ? i : 0), sb, n - i, K, tb), sb,
                    to, 16, op);
    std::memcpy(o + i, to, n - i);
  }
}
template <DType D, Op op>
void simd_logical_op(const void* a, size_t sa, const void* b, size_t sb, void* o, size_t n) {
  simd_logical<D>(a, sa, b, sb, o, n, op);
}
constexpr bool is_logical(Op op) { return op == Op::logical_and || op == Op::logical_or || op == Op::logical_xor; }


// greater and greater_equal: less and less_equal with the operands swapped
// (a comparison gives 0 or 1, so the same bits), no loops of their own.
constexpr Op mirror(Op op) {
  return op == Op::greater ? Op::less : op == Op::greater_equal ? Op::less_equal : Op::count;
}
template <DType D, Op op>
void simd_mirrored(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n) {
  simd_loop<D, mirror(op)>(pb, sb, pa, sa, po, n);
}

// ---- float16 <-> float32, 8 lanes a step ----------------------------------------------
// The integer algorithm of half.hpp's scalar forms, lane-wise: every branch
// is computed and the lane's case selected, so results are the reference's
// bit for bit (NaN payloads included).
inline v128_t u32(uint32_t v) { return wasm_i32x4_splat(static_cast<int32_t>(v)); }

// Four halves (the low 16 bits of each 32-bit lane) to four floats.
inline v128_t half_to_float4(v128_t h) {
  v128_t o = wasm_i32x4_shl(wasm_v128_and(h, u32(0x7fffu)), 13);
  const v128_t exp = wasm_v128_and(o, u32(0x7c00u << 13));
  o = wasm_i32x4_add(o, u32((127u - 15u) << 23));
  const v128_t inf_nan = wasm_i32x4_add(o, u32((128u - 16u) << 23));
  const v128_t sub = wasm_f32x4_sub(wasm_i32x4_add(o, u32(1u << 23)), wasm_f32x4_splat(6.103515625e-05f));
  o = wasm_v128_bitselect(inf_nan, o, wasm_i32x4_eq(exp, u32(0x7c00u << 13)));
  o = wasm_v128_bitselect(sub, o, wasm_i32x4_eq(exp, u32(0)));
  return wasm_v128_or(o, wasm_i32x4_shl(wasm_v128_and(h, u32(0x8000u)), 16));
}

// Four floats to four halves (in the low 16 bits of each 32-bit lane). `f` has its
// sign bit clear, so signed compares order it as the unsigned ones would (and
// are single SSE instructions, where unsigned ones are emulated).
inline v128_t float_to_half4(v128_t x) {
  const v128_t sign = wasm_v128_and(x, u32(0x80000000u));
  const v128_t f = wasm_v128_xor(x, sign);
  const v128_t nan = wasm_v128_or(u32(0x7e00u), wasm_v128_and(wasm_u32x4_shr(f, 13), u32(0x3ffu)));
  const v128_t big = wasm_v128_bitselect(nan, u32(0x7c00u), wasm_i32x4_gt(f, u32(0x7f800000u)));
  const v128_t sub = wasm_i32x4_sub(wasm_f32x4_add(f, wasm_f32x4_splat(0.5f)), u32(0x3f000000u));
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(f, 13), u32(1u));
  const v128_t norm = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(f, u32(0xc8000fffu)), odd), 13);
  v128_t o = wasm_v128_bitselect(sub, norm, wasm_i32x4_lt(f, u32(0x38800000u)));
  o = wasm_v128_bitselect(big, o, wasm_i32x4_ge(f, u32(0x47800000u)));
  return wasm_v128_or(o, wasm_u32x4_shr(sign, 16));
}

void half_to_float_simd(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t h = wasm_v128_load(src + i);
    wasm_v128_store(dst + i, half_to_float4(wasm_u32x4_extend_low_u16x8(h)));
    wasm_v128_store(dst + i + 4, half_to_float4(wasm_u32x4_extend_high_u16x8(h)));
  }
  if (i < n) half_to_float_reference(src + i, dst + i, n - i);
}

void float_to_half_simd(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t lo = float_to_half4(wasm_v128_load(src + i));
    const v128_t hi = float_to_half4(wasm_v128_load(src + i + 4));
    wasm_v128_store(dst + i, wasm_u16x8_narrow_i32x4(lo, hi));  // lanes are 0 … 0xffff: exact
  }
  if (i < n) float_to_half_reference(src + i, dst + i, n - i);
}

// float16 element-wise: the float32 loop (SIMD where it has one) between SIMD conversions.
template <Op op>
void f16_simd_loop(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n) {
  f16_via_f32(pa, sa, pb, sb, po, n, is_bool_op(op), find_kernel(DType::f32, op, Form::vv).loop, &half_to_float_simd,
              &float_to_half_simd);
}

// ---- transposed blocks (strided views) ----------------------------------------
// Per 4x4 block: four loads of 4 consecutive elements (4 rows of one column),
// 8 shuffles, four stores of 4 elements (4 columns of one row).
void tile_gather32(char* dst, ptrdiff_t ds, const char* src, ptrdiff_t s, ptrdiff_t rows, ptrdiff_t n) {
  const ptrdiff_t sb = s * 4, db = ds * 4;
  ptrdiff_t i = 0;
#pragma clang loop unroll(disable)
  for (; i + 4 <= n; i += 4) {  // 4 columns: the same 4 cache lines for every row block
#pragma clang loop unroll(disable)
    for (ptrdiff_t r = 0; r < rows; r += 4) {
      const char* p = src + i * sb + r * 4;
      char* o = dst + r * db + i * 4;
      const v128_t x0 = wasm_v128_load(p), x1 = wasm_v128_load(p + sb);
      const v128_t x2 = wasm_v128_load(p + 2 * sb), x3 = wasm_v128_load(p + 3 * sb);
      const v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7);
      const v128_t t2 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
      wasm_v128_store(o, wasm_i64x2_shuffle(t0, t2, 0, 2));
      wasm_v128_store(o + db, wasm_i64x2_shuffle(t0, t2, 1, 3));
      wasm_v128_store(o + 2 * db, wasm_i64x2_shuffle(t1, t3, 0, 2));
      wasm_v128_store(o + 3 * db, wasm_i64x2_shuffle(t1, t3, 1, 3));
    }
  }
#pragma clang loop unroll(disable)
  for (; i < n; ++i)
#pragma clang loop unroll(disable)
    for (ptrdiff_t r = 0; r < rows; ++r) std::memcpy(dst + r * db + i * 4, src + i * sb + r * 4, 4);
}

}  // namespace

TileGather find_tile_gather32() { return &tile_gather32; }
HalfToFloatFn find_half_to_float() { return &half_to_float_simd; }
FloatToHalfFn find_float_to_half() { return &float_to_half_simd; }

// ---- table: [dtype][op], nullptr where there is no vector form ------------------
constexpr size_t kOps = static_cast<size_t>(Op::count);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;

template <size_t I>
constexpr BinaryLoop simd_entry() {
  constexpr DType D = static_cast<DType>(I / kOps);
  constexpr Op O = static_cast<Op>(I % kOps);
  constexpr DType K = kernel_dtype(D, O);  // the same bits (uint32 add is int32's)
  if constexpr (!simd::binary<D, O>()) return nullptr;  // the lean reference table holds these
  else if constexpr (D == DType::f16) return &f16_simd_loop<O>;
  else if constexpr (is_logical(O)) return &simd_logical_op<K, O>;
  else if constexpr (mirror(O) != Op::count && has_vop<K, mirror(O)>()) return &simd_mirrored<K, O>;
  else return &simd_loop<K, O>;
}

template <size_t... I>
constexpr std::array<BinaryLoop, kEntries> make_simd_table(std::index_sequence<I...>) {
  return {simd_entry<I>()...};
}

const BinaryLoop* simd_table() {
  static constexpr std::array<BinaryLoop, kEntries> table = make_simd_table(std::make_index_sequence<kEntries>{});
  return table.data();
}

}  // namespace tc

namespace tc {

// ---- select (where) ---------------------------------------------------------------
// 16 mask bytes per step: "!= 0" as 0x00/0xFF bytes, widened to the element
// width by sign extension, then one bitselect per vector of x and y. The tail
// runs the reference, as in the element loop above.
namespace {

template <size_t ES>
v128_t splat_bits(const void* p) {
  if constexpr (ES == 1) return wasm_v128_load8_splat(p);
  else if constexpr (ES == 2) return wasm_v128_load16_splat(p);
  else if constexpr (ES == 4) return wasm_v128_load32_splat(p);
  else return wasm_v128_load64_splat(p);
}

template <size_t ES>
void widen_mask(v128_t nz, v128_t* out) {
  if constexpr (ES == 1) {
    out[0] = nz;
  } else if constexpr (ES == 2) {
    out[0] = wasm_i16x8_extend_low_i8x16(nz);
    out[1] = wasm_i16x8_extend_high_i8x16(nz);
  } else if constexpr (ES == 4) {
    const v128_t w0 = wasm_i16x8_extend_low_i8x16(nz), w1 = wasm_i16x8_extend_high_i8x16(nz);
    out[0] = wasm_i32x4_extend_low_i16x8(w0);
    out[1] = wasm_i32x4_extend_high_i16x8(w0);
    out[2] = wasm_i32x4_extend_low_i16x8(w1);
    out[3] = wasm_i32x4_extend_high_i16x8(w1);
  } else {
    v128_t q[4];
    widen_mask<4>(nz, q);
    for (int k = 0; k < 4; ++k) {
      out[2 * k] = wasm_i64x2_extend_low_i32x4(q[k]);
      out[2 * k + 1] = wasm_i64x2_extend_high_i32x4(q[k]);
    }
  }
}

template <size_t ES, SelectForm F>
void simd_select(const uint8_t* m, const void* px, const void* py, void* po, size_t n) {
  constexpr size_t L = 16 / ES;  // elements per vector; ES vectors per 16 mask bytes
  constexpr bool xs = F == SelectForm::sv || F == SelectForm::ss;
  constexpr bool ys = F == SelectForm::vs || F == SelectForm::ss;
  const auto* x = static_cast<const uint8_t*>(px);
  const auto* y = static_cast<const uint8_t*>(py);
  auto* o = static_cast<uint8_t*>(po);
  const v128_t zero = wasm_i32x4_splat(0);
  const v128_t sx = xs ? splat_bits<ES>(x) : zero;
  const v128_t sy = ys ? splat_bits<ES>(y) : zero;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v128_t mk[ES];
    widen_mask<ES>(wasm_i8x16_ne(wasm_v128_load(m + i), zero), mk);
    for (size_t k = 0; k < ES; ++k) {
      const size_t e = (i + k * L) * ES;  // byte offset of this vector
      const v128_t xv = xs ? sx : wasm_v128_load(x + e);
      const v128_t yv = ys ? sy : wasm_v128_load(y + e);
      wasm_v128_store(o + e, wasm_v128_bitselect(xv, yv, mk[k]));
    }
  }
  if (i < n) {  // the same kernel on 16 padded elements
    alignas(16) unsigned char tm[16], tx[128], ty[128], to[128];
    simd_select<ES, F>(static_cast<const uint8_t*>(simd::pad_tail(m + i, 1, n - i, 1, tm)),
                       simd::pad_tail(xs ? x : x + i * ES, !xs, n - i, ES, tx),
                       simd::pad_tail(ys ? y : y + i * ES, !ys, n - i, ES, ty), to, 16);
    std::memcpy(o + i * ES, to, (n - i) * ES);
  }
}

template <size_t ES>
constexpr std::array<SelectKernel, 4> simd_select_row() {
  return {&simd_select<ES, SelectForm::vv>, &simd_select<ES, SelectForm::vs>, &simd_select<ES, SelectForm::sv>,
          &simd_select<ES, SelectForm::ss>};
}

}  // namespace

// ---- table: [width 1, 2, 4, 8][form] ------------------------------------------------
const SelectKernel* simd_select_table() {
  static const std::array<std::array<SelectKernel, 4>, 4> table = {
      simd_select_row<1>(), simd_select_row<2>(), simd_select_row<4>(), simd_select_row<8>()};
  return table[0].data();
}

}  // namespace tc

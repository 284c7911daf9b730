// SIMD128 reduction kernels (wasm build only). The order of operations is the
// skeleton's (reduce_pairwise.hpp), the one the references follow, so each
// kernel equals its reference bit for bit; 4 vectors (64 bytes) a step, the
// last n % lanes elements (or columns) one by one with the same element
// function as the reference.
//
// Vector forms: sum for every dtype (uint8clamped: saturating add); prod for
// floats and 16/32/64-bit integers (SIMD128 has no 8-bit multiply); min/max
// for every dtype (64-bit integers through a compare and a select).
#include <wasm_simd128.h>

#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "fast_f32.hpp"
#include "reduce_pairwise.hpp"
#include "simd_by_type.hpp"
#include "simd_coverage.hpp"

namespace tc {

namespace {

template <DType D, ReduceOp op>
constexpr bool has_vector_form() { return simd::reduce<D, op>(); }  // simd_coverage.hpp


// 64-bit lanes: a < b, signed or unsigned (flip the sign bits for unsigned).
inline v128_t lt_i64(v128_t a, v128_t b) { return wasm_i64x2_lt(a, b); }
inline v128_t lt_u64(v128_t a, v128_t b) {
  const v128_t m = wasm_i64x2_splat(INT64_MIN);
  return wasm_i64x2_lt(wasm_v128_xor(a, m), wasm_v128_xor(b, m));
}

// The element function of reduce::apply, lane-wise.
template <DType D, ReduceOp op>
v128_t vop(v128_t a, v128_t b) {
  if constexpr (op == ReduceOp::sum) {
    if constexpr (D == DType::u8c) return wasm_u8x16_add_sat(a, b);
    else { TC_BY_TYPE(wasm_f32x4_add(a, b), wasm_f64x2_add(a, b), wasm_i8x16_add(a, b), wasm_i8x16_add(a, b), wasm_i16x8_add(a, b), wasm_i16x8_add(a, b), wasm_i32x4_add(a, b), wasm_i32x4_add(a, b), wasm_i64x2_add(a, b), wasm_i64x2_add(a, b)) }
  } else if constexpr (op == ReduceOp::prod) {
    TC_BY_TYPE(wasm_f32x4_mul(a, b), wasm_f64x2_mul(a, b), a, a, wasm_i16x8_mul(a, b), wasm_i16x8_mul(a, b), wasm_i32x4_mul(a, b), wasm_i32x4_mul(a, b), wasm_i64x2_mul(a, b), wasm_i64x2_mul(a, b))
  } else if constexpr (op == ReduceOp::min) {
    TC_BY_TYPE(wasm_f32x4_min(a, b), wasm_f64x2_min(a, b), wasm_i8x16_min(a, b), wasm_u8x16_min(a, b), wasm_i16x8_min(a, b), wasm_u16x8_min(a, b), wasm_i32x4_min(a, b), wasm_u32x4_min(a, b), wasm_v128_bitselect(a, b, lt_i64(a, b)), wasm_v128_bitselect(a, b, lt_u64(a, b)))
  } else {
    static_assert(op == ReduceOp::max, "every kernel op of reduce_ops.def needs its vector form here");
    TC_BY_TYPE(wasm_f32x4_max(a, b), wasm_f64x2_max(a, b), wasm_i8x16_max(a, b), wasm_u8x16_max(a, b), wasm_i16x8_max(a, b), wasm_u16x8_max(a, b), wasm_i32x4_max(a, b), wasm_u32x4_max(a, b), wasm_v128_bitselect(b, a, lt_i64(a, b)), wasm_v128_bitselect(b, a, lt_u64(a, b)))
  }
}
#undef TC_BY_TYPE

template <DType D>
typename Storage<D>::T lane0(v128_t v) {
  using T = typename Storage<D>::T;
  if constexpr (D == DType::f32) return wasm_f32x4_extract_lane(v, 0);
  else if constexpr (D == DType::f64) return wasm_f64x2_extract_lane(v, 0);
  else if constexpr (sizeof(T) == 1) return static_cast<T>(wasm_u8x16_extract_lane(v, 0));
  else if constexpr (sizeof(T) == 2) return static_cast<T>(wasm_u16x8_extract_lane(v, 0));
  else if constexpr (sizeof(T) == 4) return static_cast<T>(wasm_i32x4_extract_lane(v, 0));
  else return static_cast<T>(wasm_i64x2_extract_lane(v, 0));
}

// ---- row -------------------------------------------------------------------------
// Lanes of one vector to lane 0 (the skeleton's halving).
template <DType D, ReduceOp op>
typename Storage<D>::T halve(v128_t w) {
  using T = typename Storage<D>::T;
  w = vop<D, op>(w, wasm_i64x2_shuffle(w, w, 1, 0));
  if constexpr (sizeof(T) <= 4) w = vop<D, op>(w, wasm_i32x4_shuffle(w, w, 1, 0, 3, 2));
  if constexpr (sizeof(T) <= 2) w = vop<D, op>(w, wasm_i16x8_shuffle(w, w, 1, 0, 3, 2, 5, 4, 7, 6));
  if constexpr (sizeof(T) == 1)
    w = vop<D, op>(w, wasm_i8x16_shuffle(w, w, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  return lane0<D>(w);
}

// An order-bound row (a float sum or product, n >= K): blocks of B elements,
// each a K-element step (4 vectors, from load(p, v0, v1, v2, v3), p the
// step's first element) at a time into 4 accumulators, the blocks combined by
// the binary counter. i ends at the first of the n % K elements left over.
// The accumulators start from the op's identity (-0 for a sum, 1 for a
// product: x op identity is x, bit for bit), so `load` is inlined once.
template <DType D, ReduceOp op, typename Load>
[[gnu::always_inline]] inline v128_t row_blocks(size_t n, size_t& i, const Load& load) {
  using T = typename Storage<D>::T;
  constexpr size_t K = reduce::kRowAcc<T>;
  constexpr size_t B = reduce::kRowBlock<T>;
  static_assert(op == ReduceOp::sum || op == ReduceOp::prod, "an order-bound op has an identity here");
  auto merge = [](v128_t a, v128_t b) { return vop<D, op>(a, b); };
  const T one = op == ReduceOp::sum ? T(-0.0) : T(1);
  const v128_t id = D == DType::f32 ? wasm_f32x4_splat(static_cast<float>(one)) : wasm_f64x2_splat(static_cast<double>(one));
  reduce::PairCounter<v128_t> counter;
  for (i = 0; n - i >= K;) {
    const size_t m = n - i >= B ? B : (n - i) / K * K;
    v128_t a0 = id, a1 = id, a2 = id, a3 = id;
    for (size_t j = 0; j < m; j += K) {
      v128_t v0, v1, v2, v3;
      load(i + j, v0, v1, v2, v3);
      a0 = vop<D, op>(a0, v0);
      a1 = vop<D, op>(a1, v1);
      a2 = vop<D, op>(a2, v2);
      a3 = vop<D, op>(a3, v3);
    }
    counter.push(vop<D, op>(vop<D, op>(a0, a1), vop<D, op>(a2, a3)), merge);  // the vectors as a tree
    i += m;
  }
  return counter.total(merge);
}

template <DType D, ReduceOp op>
[[gnu::noinline]] void simd_row(const void* px, size_t n, void* out) {
  using T = typename Storage<D>::T;
  constexpr size_t L = reduce::kLanes<T>;
  constexpr size_t K = reduce::kRowAcc<T>;
  static_assert(reduce::kRowVecs == 4, "the loops below name 4 accumulators");
  const T* x = static_cast<const T*>(px);
  T r = x[0];
  size_t i = 1;
  // Named accumulators: an array here becomes a memcpy to the stack, and more
  // than 4 make V8 spill on x64 (16 xmm registers, one of them scratch).
  if constexpr ((D == DType::f32 || D == DType::f64) && (op == ReduceOp::min || op == ReduceOp::max)) {
    // Float min / max: pmin / pmax, one x64 instruction each (V8 lowers
    // f32x4.min / max, which propagate NaN and order -0 below +0, to long
    // sequences; the row ran 4x slower). They pass a NaN over and keep
    // whichever zero came first, so a row is summed beside them, lane-wise:
    // a NaN sum (a NaN in the row, or infinities of both signs) or a zero
    // result is settled by the reference loop below. (A sum, not a per-vector
    // x != x: [8,32000] float32 max 0.79x the time, node bench/ab-softmax.mjs;
    // 46 bytes smaller gzipped.)
    if (n >= K) {
      auto p = [](v128_t a, v128_t b) {
        if constexpr (D == DType::f32) return op == ReduceOp::max ? wasm_f32x4_pmax(a, b) : wasm_f32x4_pmin(a, b);
        else return op == ReduceOp::max ? wasm_f64x2_pmax(a, b) : wasm_f64x2_pmin(a, b);
      };
      constexpr auto add = vop<D, ReduceOp::sum>;  // the lane sum
      v128_t a0 = wasm_v128_load(x), a1 = wasm_v128_load(x + L), a2 = wasm_v128_load(x + 2 * L),
             a3 = wasm_v128_load(x + 3 * L);
      v128_t lanes = add(add(a0, a1), add(a2, a3));
      for (i = K; i + K <= n; i += K) {
        const v128_t v0 = wasm_v128_load(x + i), v1 = wasm_v128_load(x + i + L), v2 = wasm_v128_load(x + i + 2 * L),
                     v3 = wasm_v128_load(x + i + 3 * L);
        a0 = p(a0, v0);
        a1 = p(a1, v1);
        a2 = p(a2, v2);
        a3 = p(a3, v3);
        lanes = add(lanes, add(add(v0, v1), add(v2, v3)));
      }
      r = halve<D, op>(p(p(a0, a1), p(a2, a3)));
      if (r == 0 || !wasm_i32x4_all_true(D == DType::f32 ? wasm_f32x4_eq(lanes, lanes) : wasm_f64x2_eq(lanes, lanes)))
        i = 1, r = x[0];  // -0 or +0, or NaN: the reference loop says
    }
  } else if constexpr (!reduce::order_matters<D, op>()) {  // any order: one pass
    if (n >= K) {
      v128_t a0 = wasm_v128_load(x), a1 = wasm_v128_load(x + L), a2 = wasm_v128_load(x + 2 * L),
             a3 = wasm_v128_load(x + 3 * L);
      for (i = K; i + K <= n; i += K) {
        a0 = vop<D, op>(a0, wasm_v128_load(x + i));
        a1 = vop<D, op>(a1, wasm_v128_load(x + i + L));
        a2 = vop<D, op>(a2, wasm_v128_load(x + i + 2 * L));
        a3 = vop<D, op>(a3, wasm_v128_load(x + i + 3 * L));
      }
      r = halve<D, op>(vop<D, op>(vop<D, op>(a0, a1), vop<D, op>(a2, a3)));
    }
  } else if (n >= K) {  // blocks combined by the binary counter
    r = halve<D, op>(row_blocks<D, op>(n, i, [x](size_t p, v128_t& v0, v128_t& v1, v128_t& v2, v128_t& v3) __attribute__((always_inline)) {
      v0 = wasm_v128_load(x + p), v1 = wasm_v128_load(x + p + L), v2 = wasm_v128_load(x + p + 2 * L),
      v3 = wasm_v128_load(x + p + 3 * L);
    }));
  }
#pragma clang loop vectorize(disable) unroll(disable)
  for (; i < n; ++i) r = reduce::apply<D, op>(r, x[i]);
  *static_cast<T*>(out) = r;
}

// ---- softmax's middle pass ---------------------------------------------------------------
// e = exp(x - m) along a float32 row, then *out = the sum row kernel's sum of
// e: the bits of the sub (form vs), exp and sum row kernels one after another
// (post.cpp's softmax), with x - m and its exp in one pass, 16 elements a
// step, while all 16 are within 86 of 0 (exp_near: the exp kernel's bits,
// fast_f32.hpp); from the first step that is not, and for the n % 16 left
// over, the sub and exp kernels (a masked row breaks off early). e may be x. (Until 0.9.7
// the sum was taken in the same pass: ~340 bytes more of the gzipped module,
// 0.96-1.06x the time; a step of 4 elements, not 16, ran 1.2x (Chromium) to
// 2x (Node) as long.)
[[gnu::noinline]] void simd_exp_sum_row_f32(const void* px, const void* pm, void* pe, size_t n, void* out) {
  using V = f32m::V;
  constexpr size_t L = 4;
  const float* x = static_cast<const float*>(px);
  float* e = static_cast<float*>(pe);
  float mv;
  std::memcpy(&mv, pm, 4);
  const v128_t m = wasm_f32x4_splat(mv);
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    const v128_t v0 = wasm_f32x4_sub(wasm_v128_load(x + i), m), v1 = wasm_f32x4_sub(wasm_v128_load(x + i + L), m);
    const v128_t v2 = wasm_f32x4_sub(wasm_v128_load(x + i + 2 * L), m), v3 = wasm_f32x4_sub(wasm_v128_load(x + i + 3 * L), m);
    using f32m::exp_near_lanes;
    if (!wasm_i32x4_all_true(wasm_v128_and(wasm_v128_and(exp_near_lanes(v0), exp_near_lanes(v1)),
                                           wasm_v128_and(exp_near_lanes(v2), exp_near_lanes(v3)))))
      break;
    wasm_v128_store(e + i, f32m::exp_near<V>(v0)), wasm_v128_store(e + i + L, f32m::exp_near<V>(v1));
    wasm_v128_store(e + i + 2 * L, f32m::exp_near<V>(v2)), wasm_v128_store(e + i + 3 * L, f32m::exp_near<V>(v3));
  }
  find_kernel(DType::f32, Op::sub, Form::vs)(x + i, pm, e + i, n - i);
  find_unary(DType::f32, UnaryOp::exp)(e + i, e + i, n - i);
  simd_row<DType::f32, ReduceOp::sum>(e, n, out);
}

// ---- an expression's product row --------------------------------------------------------
// sum((p * q) * r) along a row of `runs` runs of n elements (reduce.hpp
// ProductRow): the terms in the order the sum row kernel reads the stored
// products, 16 a step (n % 16 == 0: a step stays in one run); p one value a
// run, held in a register (read from memory in every step, the row ran 1.8x
// slower), the run's steps counted down (a 64-bit count and the next run's
// place multiplied out at each step: 1.2x slower in Chromium).
[[gnu::noinline]] float simd_product_row_f32(const ProductRow& row) {
  const float *p = row.f[0], *q = row.f[1], *r = row.f[2], *q0 = q, *r0 = r;
  v128_t pv = wasm_v128_load32_splat(p);
  const std::uint32_t steps = static_cast<std::uint32_t>(row.n / 16);
  std::uint32_t left = steps;
  std::int64_t runs = row.runs;
  size_t i = 0;
  const v128_t sum = row_blocks<DType::f32, ReduceOp::sum>(
      static_cast<size_t>(row.n * row.runs), i,
      [&](size_t, v128_t& v0, v128_t& v1, v128_t& v2, v128_t& v3) __attribute__((always_inline)) {
        const auto term = [&](int o) __attribute__((always_inline)) {
          return wasm_f32x4_mul(wasm_f32x4_mul(pv, wasm_v128_load(q + o)), wasm_v128_load(r + o));
        };
        v0 = term(0), v1 = term(4), v2 = term(8), v3 = term(12);
        q += 16;
        r += 16;
        if (--left == 0) {  // the next run (p read only where there is one)
          left = steps;
          q = q0 += row.step[1];
          r = r0 += row.step[2];
          p += row.step[0];
          if (--runs > 0) pv = wasm_v128_load32_splat(p);
        }
      });
  return halve<DType::f32, ReduceOp::sum>(sum);
}

// ---- col -------------------------------------------------------------------------
// Leaf (col_pairwise_fused): up to R rows combined in registers, 4 vectors
// (64 bytes) of columns at a time, then the pending rows folded in (newest
// first) and one store. With Init, the 4-vector tiles start from a row of
// partial results the rows continue, init op row0 op row1 ... (a float32
// sum's leaf, below: -0, which adds nothing, or its first 8 rows' sums).
template <DType D, ReduceOp op, bool Init = false>
[[gnu::always_inline]] inline void col_leaf(const void* px, size_t rows, size_t w, size_t stride, void* pdst,
                                            const void* const* ppend, int np, const void* init = nullptr) {
  using T = typename Storage<D>::T;
  constexpr size_t L = reduce::kLanes<T>;
  const T* x = static_cast<const T*>(px);
  T* dst = static_cast<T*>(pdst);
  const T* const* pend = reinterpret_cast<const T* const*>(ppend);
  size_t j = 0;
  static_assert(reduce::kColVecs == 4, "the tile below names 4 vectors");
  for (; j + 4 * L <= w; j += 4 * L) {
    const T* p = x + j;
    v128_t a0 = wasm_v128_load(p), a1 = wasm_v128_load(p + L), a2 = wasm_v128_load(p + 2 * L),
           a3 = wasm_v128_load(p + 3 * L);
    if constexpr (Init) {
      const T* q = static_cast<const T*>(init) + j;
      a0 = vop<D, op>(wasm_v128_load(q), a0);
      a1 = vop<D, op>(wasm_v128_load(q + L), a1);
      a2 = vop<D, op>(wasm_v128_load(q + 2 * L), a2);
      a3 = vop<D, op>(wasm_v128_load(q + 3 * L), a3);
    }
    // One row a step: as fast as two rows a step in node (the [1024, 1024]
    // col sums, float32 to int64) and ~100 bytes smaller per kernel; unrolled
    // further, the loads are hoisted ahead of the adds and V8 spills (8 rows
    // unrolled ran ~1.3x slower).
#pragma clang loop unroll(disable)
    for (size_t r = 1; r < rows; ++r) {
      p += stride;
      a0 = vop<D, op>(a0, wasm_v128_load(p));
      a1 = vop<D, op>(a1, wasm_v128_load(p + L));
      a2 = vop<D, op>(a2, wasm_v128_load(p + 2 * L));
      a3 = vop<D, op>(a3, wasm_v128_load(p + 3 * L));
    }
#pragma clang loop unroll(disable)
    for (int k = np - 1; k >= 0; --k) {
      const T* o = pend[k] + j;
      a0 = vop<D, op>(wasm_v128_load(o), a0);
      a1 = vop<D, op>(wasm_v128_load(o + L), a1);
      a2 = vop<D, op>(wasm_v128_load(o + 2 * L), a2);
      a3 = vop<D, op>(wasm_v128_load(o + 3 * L), a3);
    }
    T* o = dst + j;
    wasm_v128_store(o, a0);
    wasm_v128_store(o + L, a1);
    wasm_v128_store(o + 2 * L, a2);
    wasm_v128_store(o + 3 * L, a3);
  }
  for (; j + L <= w; j += L) {
    const T* p = x + j;
    v128_t a = wasm_v128_load(p);
#pragma clang loop unroll(disable)
    for (size_t r = 1; r < rows; ++r) {
      p += stride;
      a = vop<D, op>(a, wasm_v128_load(p));
    }
#pragma clang loop unroll(disable)
    for (int k = np - 1; k >= 0; --k) a = vop<D, op>(wasm_v128_load(pend[k] + j), a);
    wasm_v128_store(dst + j, a);
  }
  // The last w % L columns one by one (fewer instructions than a part of a
  // vector for the few columns there are).
#pragma clang loop vectorize(disable) unroll(disable)
  for (; j < w; ++j) {
    T a = x[j];
#pragma clang loop vectorize(disable) unroll(disable)
    for (size_t r = 1; r < rows; ++r) a = reduce::apply<D, op>(a, x[r * stride + j]);
#pragma clang loop vectorize(disable) unroll(disable)
    for (int k = np - 1; k >= 0; --k) a = reduce::apply<D, op>(pend[k][j], a);
    dst[j] = a;
  }
}

template <DType D, ReduceOp op>
[[gnu::noinline]] void simd_col_leaf(const void* px, size_t rows, size_t w, size_t stride, void* pdst,
                                     const void* const* ppend, int np) {
  using T = typename Storage<D>::T;
  if constexpr (op != ReduceOp::sum || !reduce::order_matters<D, op>() || reduce::kColLeafRows<T> <= 8) {
    col_leaf<D, op>(px, rows, w, stride, pdst, ppend, np);
  } else {
    // A float32 sum's leaf adds up to 16 rows in order. Its 16 rows read at
    // once ran up to 1.3x slower than leaves of 8 (a [256, 2048] sum: rows
    // 2 KiB apart share L1 sets and evict each other's prefetched lines), so
    // the leaf runs over 1 KiB of columns at a time, rows 0-7 into `part`,
    // then rows 8.. continuing it: the same additions in the same order, so
    // the same bits (bench/ab-colsum.mjs). The tiles start from -0, which
    // adds nothing; the last w % 1 KiB columns take all their rows at once.
    constexpr size_t B = 1024 / sizeof(T), G = reduce::kColLeafRowsAnyOrder;
    static constexpr std::array<T, B> negzero = [] {
      std::array<T, B> a{};
      for (T& v : a) v = T(-0.0);
      return a;
    }();
    alignas(16) T part[B];
    const void* pj[reduce::kColMaxPend];
    const T* const* pend = reinterpret_cast<const T* const*>(ppend);
    for (size_t j = 0; j < w;) {
      const size_t bw = w - j < B ? w - j : B;
      const size_t g1 = rows > G && bw == B ? G : rows;  // the first group's rows
      for (int k = 0; k < np; ++k) pj[k] = pend[k] + j;
      for (size_t g = 0;; g = g1) {  // one call site: one copy of the leaf
        const bool last = g || g1 == rows;
        col_leaf<D, op, true>(static_cast<const T*>(px) + g * stride + j, last ? rows - g : G, bw, stride,
                              last ? static_cast<T*>(pdst) + j : part, pj, last ? np : 0, g ? part : negzero.data());
        if (last) break;
      }
      j += bw;
    }
  }
}

// The fused col skeleton, one per element size, the leaf called through a
// pointer (once per <= R rows of a chunk of columns).
using ColLeaf = void (*)(const void*, size_t, size_t, size_t, void*, const void* const*, int);
template <typename U>
[[gnu::noinline]] void col_by_size(const void* px, size_t rows, size_t n, size_t stride, void* po, ColLeaf leaf,
                                   size_t R) {
  auto call = [leaf](const U* x, size_t r, size_t w, size_t st, U* dst, const U* const* pend, int np) {
    leaf(x, r, w, st, dst, reinterpret_cast<const void* const*>(pend), np);
  };
  reduce::col_run_fused<U>(static_cast<const U*>(px), rows, n, stride, static_cast<U*>(po), call, R);
}

template <DType D, ReduceOp op>
void simd_col(const void* px, size_t rows, size_t n, size_t stride, void* po) {
  using T = typename Storage<D>::T;
  using U = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t,
            std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  col_by_size<U>(px, rows, n, stride, po, &simd_col_leaf<D, op>,
                 reduce::order_matters<D, op>() ? reduce::kColLeafRows<T> : reduce::kColLeafRowsAnyOrder);
}

// ---- tables: [dtype][kernel op], nullptr where there is no vector form -------------
constexpr size_t kOps = static_cast<size_t>(kReduceKernelOps);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;

template <size_t I>
constexpr ReduceRowKernel simd_row_entry() {
  constexpr DType D = static_cast<DType>(I / kOps);
  constexpr ReduceOp O = static_cast<ReduceOp>(I % kOps);
  if constexpr (!has_vector_form<D, O>()) return nullptr;
  else return &simd_row<reduce::kernel_dtype<D, O>(), O>;
}
template <size_t I>
constexpr ReduceColKernel simd_col_entry() {
  constexpr DType D = static_cast<DType>(I / kOps);
  constexpr ReduceOp O = static_cast<ReduceOp>(I % kOps);
  if constexpr (!has_vector_form<D, O>()) return nullptr;
  else return &simd_col<reduce::kernel_dtype<D, O>(), O>;
}
template <size_t... I>
constexpr std::array<ReduceRowKernel, kEntries> make_row_table(std::index_sequence<I...>) {
  return {simd_row_entry<I>()...};
}
template <size_t... I>
constexpr std::array<ReduceColKernel, kEntries> make_col_table(std::index_sequence<I...>) {
  return {simd_col_entry<I>()...};
}

}  // namespace

const ReduceRowKernel* reduce_simd_row_table() {
  static constexpr std::array<ReduceRowKernel, kEntries> table = make_row_table(std::make_index_sequence<kEntries>{});
  return table.data();
}
ExpSumRowKernel find_exp_sum_row(DType dt) { return dt == DType::f32 ? &simd_exp_sum_row_f32 : nullptr; }
ProductRowKernel find_product_row(DType dt) { return dt == DType::f32 ? &simd_product_row_f32 : nullptr; }
const ReduceColKernel* reduce_simd_col_table() {
  static constexpr std::array<ReduceColKernel, kEntries> table = make_col_table(std::make_index_sequence<kEntries>{});
  return table.data();
}

}  // namespace tc

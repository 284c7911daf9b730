// Post-processing along the last axis of a row-major block of `rows` rows of
// `n` elements: softmax and logSoftmax (float32, float64), argmax / argmin
// (every dtype) and top-k (every dtype). JS (bindings/js/post.js) moves the
// axis last, makes the block contiguous, and calls these exports directly.
//
// softmax and logSoftmax are the library's own kernels, in the order the ops
// called one by one run them, so the results are theirs bit for bit:
//   m = max(x, [-1], keepdims)            (run_reduce, the reduction's kernels)
//   e = exp(x - m)                        (the sub kernel, form vs; the exp kernel)
//   softmax    = e * (1 / sum(e, [-1], keepdims))   (one division a row, as NNPACK
//                                                    and XNNPACK scale)
//   logSoftmax = (x - m) - log(sum(e, [-1], keepdims))
//   logSumExp  = m0 + log(sum(exp(x - m0), [-1], keepdims)), m0 = where(isFinite(m), m, 0)
// A row at a time, so its passes find it in cache.
// float32 and float64 argmax / argmin and float32 top-k compare a vector at a
// time (SIMD builds): see arg_rows_float and topk().
#include <emscripten/emscripten.h>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "calls.hpp"
#include "kernels/driver.hpp"
#include "kernels/half.hpp"
#include "kernels/kernels.hpp"
#include "kernels/reduce.hpp"
#include "kernels/scalar_ops.hpp"

namespace tc::post {
namespace {

using calls::Addr;
using calls::at;

// m = isfinite(m) ? m : 0, one value of dtype dt (logSumExp's shift).
void finite_or_zero(unsigned char* m, DType dt) {
  if (dt == DType::f32) {
    float v;
    std::memcpy(&v, m, 4);
    if (!(v - v == 0)) v = 0;  // inf - inf and NaN - NaN are NaN
    std::memcpy(m, &v, 4);
  } else {
    double v;
    std::memcpy(&v, m, 8);
    if (!(v - v == 0)) v = 0;
    std::memcpy(m, &v, 8);
  }
}

// s = 1 / s, one value of type T.
template <typename T>
void reciprocal(unsigned char* s) {
  T v;
  std::memcpy(&v, s, sizeof v);
  v = 1 / v;
  std::memcpy(s, &v, sizeof v);
}

// Each of g rows of n elements (x) minus, or times, its row's value of v, into o:
// one row by the sub or mul kernel, short rows by a loop (a kernel call a row
// cost more than the row): float32 rows of 4 or more a vector at a time
// ([50176,21] softmax 0.76x, logSoftmax 0.68x the time of a scalar loop; rows
// of 3 unchanged).
template <typename T>
void rows_vs(const T* x, const T* v, T* o, size_t g, size_t n, bool times) {
  for (size_t r = 0; r < g; ++r, x += n, o += n) {
    size_t i = 0;
#if defined(__wasm_simd128__)
    if constexpr (sizeof(T) == 4) {
      if (n >= 4) {
        const v128_t s = wasm_f32x4_splat(v[r]);
        for (; i + 4 <= n; i += 4) {
          const v128_t a = wasm_v128_load(x + i);
          wasm_v128_store(o + i, times ? wasm_f32x4_mul(a, s) : wasm_f32x4_sub(a, s));
        }
      }
    }
#endif
    for (; i < n; ++i) o[i] = times ? x[i] * v[r] : x[i] - v[r];
  }
}
void rows_vs(const unsigned char* x, const unsigned char* v, unsigned char* o, size_t g, size_t n, DType dt, BinaryKernel k, bool times) {
  if (g == 1) return k(x, v, o, n);  // a long row: the kernel
  if (dt == DType::f32) rows_vs(reinterpret_cast<const float*>(x), reinterpret_cast<const float*>(v), reinterpret_cast<float*>(o), g, n, times);
  else rows_vs(reinterpret_cast<const double*>(x), reinterpret_cast<const double*>(v), reinterpret_cast<double*>(o), g, n, times);
}

// Status codes of these exports: 0 Ok, 1 no memory for the scratch, 2 a dtype or mode out of range.
// mode 0: softmax (out: rows x n; may be in), 1: logSoftmax (out: rows x n, not in), 2: logSumExp
// (out: rows values): m0 = where(isFinite(m), m, 0); m0 + log(sum(exp(x - m0), [-1], keepdims)).
// A row (or a block of short rows) at a time, each pass over it while it is in
// cache: its max and sum by the reductions' row kernels (what run_reduce calls
// on a contiguous row), the element-wise passes by the ops' kernels (short
// rows' x - m and scaling by rows_vs's loop: the same arithmetic, the same bits).
int softmax(const void* in, void* out, size_t rows, size_t n, DType dt, int mode) {
  if ((dt != DType::f32 && dt != DType::f64) || mode < 0 || mode > 2) return 2;
  const size_t es = dtype_size(dt);
  const UnaryKernel exp = find_unary(dt, UnaryOp::exp);
  const UnaryKernel ln = find_unary(dt, UnaryOp::log);
  const ExpSumRowKernel exp_sum = find_exp_sum_row(dt);  // sub and exp in one pass, then sum (SIMD float32)
  const BinaryKernel sub = find_kernel(dt, Op::sub, Form::vs);
  const BinaryKernel mul = find_kernel(dt, Op::mul, Form::vs);
  const BinaryKernel add = find_kernel(dt, Op::add, Form::vv);
  const ReduceRowKernel max_row = find_reduce_row(dt, ReduceOp::max);
  const ReduceRowKernel sum_row = find_reduce_row(dt, ReduceOp::sum);
  // Rows of fewer than 64 elements go g (at most 256) at a time: their exp is
  // one kernel call over the g rows (a call a row cost more than the row).
  constexpr size_t G = 256;
  const size_t g = n == 0 || n >= 64 || rows < 2 ? 1 : 4096 / n < G ? 4096 / n : G;
  alignas(16) unsigned char m[G * 8], s[G * 8];  // the rows' max (logSumExp: m0) and sum (then 1 / sum, or log(sum))
  // logSumExp: the block's exp(x - m0), apart from the output
  auto* scratch = mode == 2 ? static_cast<unsigned char*>(calls::allocate(static_cast<double>(g * n * es + 16))) : nullptr;
  if (mode == 2 && scratch == nullptr) return 1;
  const auto* x = static_cast<const unsigned char*>(in);
  auto* o = static_cast<unsigned char*>(out);
  const size_t row = n * es;
  for (size_t r0 = 0; r0 < rows; r0 += g) {
    const size_t gb = rows - r0 < g ? rows - r0 : g;
    const unsigned char* xb = x + r0 * row;
    unsigned char* eb = mode == 2 ? scratch : o + r0 * row;  // exp(x - m)
    for (size_t r = 0; r < gb; ++r) {
      max_row(xb + r * row, n, m + r * es);
      if (mode == 2) finite_or_zero(m + r * es, dt);
    }
    if (g == 1 && exp_sum) {
      exp_sum(xb, m, eb, n, s);
    } else {
      rows_vs(xb, m, eb, gb, n, dt, sub, false);
      exp(eb, eb, gb * n);
      for (size_t r = 0; r < gb; ++r) sum_row(eb + r * row, n, s + r * es);
    }
    if (mode == 0) {
      for (size_t r = 0; r < gb; ++r) {
        if (dt == DType::f32) reciprocal<float>(s + r * es);
        else reciprocal<double>(s + r * es);
      }
      rows_vs(eb, s, eb, gb, n, dt, mul, true);
    } else {
      ln(s, s, gb);
      if (mode == 2) add(m, s, o + r0 * es, gb);
      if (mode == 1) {
        rows_vs(xb, m, eb, gb, n, dt, sub, false);
        rows_vs(eb, s, eb, gb, n, dt, sub, false);
      }
    }
  }
  calls::release(scratch);
  return 0;
}

// ---- argmax / argmin ----------------------------------------------------------------------
// The first index of the largest (smallest) element of each row; a NaN wins
// at its first occurrence (NumPy). float16 compares as the float32 it is.
template <DType D>
auto value_of(const typename Storage<D>::T& v) {
  if constexpr (D == DType::f16) return half_to_float(v.bits);
  else return v;
}

template <DType D>
void arg_rows(const void* in, std::int32_t* out, size_t rows, size_t n, bool min) {
  using T = typename Storage<D>::T;
  const T* x = static_cast<const T*>(in);
  for (size_t r = 0; r < rows; ++r, x += n) {
    auto best = value_of<D>(x[0]);
    size_t at_best = 0;
    if (best == best) {
      for (size_t i = 1; i < n; ++i) {
        const auto v = value_of<D>(x[i]);
        if (v != v) {  // NaN: the answer
          at_best = i;
          break;
        }
        if (min ? v < best : best < v) {
          best = v;
          at_best = i;
        }
      }
    }
    out[r] = static_cast<std::int32_t>(at_best);
  }
}

#if defined(__wasm_simd128__)
// float32 and float64 rows: the row's max (min) by the reduction's row kernel,
// then the first element equal to it, or the first NaN (the max of a row with
// a NaN is NaN; -0 == +0, so the first of either wins, as in arg_rows). The
// scan compares a vector at a time.
template <DType D>
void arg_rows_float(const void* in, std::int32_t* out, size_t rows, size_t n, bool min) {
  using T = typename Storage<D>::T;
  constexpr size_t L = 16 / sizeof(T);
  const ReduceRowKernel extreme = find_reduce_row(D, min ? ReduceOp::min : ReduceOp::max);
  const T* x = static_cast<const T*>(in);
  for (size_t r = 0; r < rows; ++r, x += n) {
    T m;
    extreme(x, n, &m);
    const v128_t vm = D == DType::f32 ? wasm_f32x4_splat(static_cast<float>(m)) : wasm_f64x2_splat(m);
    size_t i = 0;
    for (; i + L <= n; i += L) {
      const v128_t v = wasm_v128_load(x + i);
      const v128_t hit = D == DType::f32 ? wasm_v128_or(wasm_f32x4_eq(v, vm), wasm_f32x4_ne(v, v))
                                         : wasm_v128_or(wasm_f64x2_eq(v, vm), wasm_f64x2_ne(v, v));
      if (wasm_v128_any_true(hit)) break;
    }
    while (!(x[i] == m || x[i] != x[i])) ++i;  // found within the row: m is one of its elements
    out[r] = static_cast<std::int32_t>(i);
  }
}

// float32 rows of up to 64 elements, 8 rows or more (a pixel's channels, a
// segmentation's class scores): tiles of rows transposed (gather_tile) into
// `t` and scanned 4 rows a vector, element by element in order, each lane
// keeping its best and where: a larger (smaller) element, or a NaN over a
// number, takes it, so the first of equal elements and the first NaN win, as
// in arg_rows. (A call a row took 10-25 ns: [50176, 3] ran 2.5x tfjs-wasm's
// argMax, [50176, 21] 1.3x.)
int arg_short_f32(const float* x, std::int32_t* out, size_t rows, size_t n, bool min) {
  const size_t tile = (16384 / n) & ~size_t{3};  // rows a tile: 64 KiB
  auto* t = static_cast<float*>(calls::allocate(static_cast<double>(tile * n * 4 + 16)));  // + a vector read past the last rows
  if (t == nullptr) return 1;
  for (size_t r0 = 0; r0 < rows; r0 += tile) {
    const size_t w = rows - r0 < tile ? rows - r0 : tile;
    gather_tile(reinterpret_cast<char*>(t), reinterpret_cast<const char*>(x + r0 * n), static_cast<i64>(n), 1, 4,
                static_cast<i64>(n), static_cast<i64>(w));
    for (size_t j = 0; j < w; j += 4) {  // the last rows' vector reads past them, within the tile; not stored
      v128_t best = wasm_v128_load(t + j), where = wasm_i32x4_splat(0);
      for (size_t k = 1; k < n; ++k) {
        const v128_t v = wasm_v128_load(t + k * w + j);
        const v128_t up = wasm_v128_or(min ? wasm_f32x4_lt(v, best) : wasm_f32x4_gt(v, best),
                                       wasm_v128_andnot(wasm_f32x4_ne(v, v), wasm_f32x4_ne(best, best)));
        best = wasm_v128_bitselect(v, best, up);
        where = wasm_v128_bitselect(wasm_i32x4_splat(static_cast<std::int32_t>(k)), where, up);
      }
      alignas(16) std::int32_t at[4];
      wasm_v128_store(at, where);
      std::memcpy(out + r0 + j, at, (w - j < 4 ? w - j : 4) * 4);
    }
  }
  calls::release(t);
  return 0;
}
#endif

// ---- top-k ------------------------------------------------------------------------------
// Each element as an unsigned key in the order of its value (floats: -0 as
// +0, NaN above +inf; the smallest first when `largest` is false: the key
// inverted), a row at a time, so one selection over keys serves every dtype.
template <DType D>
void key_row(const void* p, size_t n, std::uint64_t flip, std::uint64_t* keys) {
  using T = typename Storage<D>::T;
  const T* x = static_cast<const T*>(p);
  for (size_t i = 0; i < n; ++i) {
    std::uint64_t key;
    if constexpr (D == DType::f32 || D == DType::f64 || D == DType::f16) {
      double d = static_cast<double>(value_of<D>(x[i]));
      if (d == 0) d = 0;  // -0 ranks as +0
      std::uint64_t b;
      std::memcpy(&b, &d, 8);
      key = d != d ? ~std::uint64_t{0} : (b >> 63) ? ~b : b | (std::uint64_t{1} << 63);
    } else if constexpr (std::is_signed_v<T>) {
      key = static_cast<std::uint64_t>(static_cast<std::int64_t>(x[i])) ^ (std::uint64_t{1} << 63);
    } else {
      key = static_cast<std::uint64_t>(x[i]);
    }
    keys[i] = key ^ flip;
  }
}

using KeyRow = void (*)(const void*, size_t, std::uint64_t, std::uint64_t*);
template <size_t... I>
constexpr std::array<KeyRow, sizeof...(I)> key_table(std::index_sequence<I...>) {
  // uint8clamped's keys are uint8's
  return {&key_row<static_cast<DType>(I) == DType::u8c ? DType::u8 : static_cast<DType>(I)>...};
}

// The k kept as a min-heap of (key, index) by rank: heap[0] ranks lowest
// (the smaller key; of equal keys, the later index).
inline bool below(std::uint64_t ka, std::uint32_t ia, std::uint64_t kb, std::uint32_t ib) {
  return ka < kb || (ka == kb && ia > ib);
}
void sift_down(std::uint64_t* hk, std::uint32_t* hi, size_t k, size_t i) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= k) return;
    if (c + 1 < k && below(hk[c + 1], hi[c + 1], hk[c], hi[c])) ++c;
    if (!below(hk[c], hi[c], hk[i], hi[i])) return;
    std::swap(hk[c], hk[i]);
    std::swap(hi[c], hi[i]);
    i = c;
  }
}

int topk(const void* in, void* values, std::int32_t* indices, size_t rows, size_t n, size_t k, DType dt, bool largest) {
  static constexpr auto keys_of = key_table(std::make_index_sequence<static_cast<size_t>(DType::count)>{});
  if (k > n || n > 0x7fffffffu) return 2;
  const KeyRow key_row_fn = keys_of[static_cast<size_t>(dt)];
  const std::uint64_t flip = largest ? 0 : ~std::uint64_t{0};
  const size_t es = dtype_size(dt);
  // keys of a row, then the heap's keys and indices
  auto* keys = static_cast<std::uint64_t*>(calls::allocate(static_cast<double>((n + k + 1) * 8 + (k + 1) * 4)));
  if (keys == nullptr) return 1;
  std::uint64_t* hk = keys + n;
  auto* hi = reinterpret_cast<std::uint32_t*>(hk + k + 1);
  const auto* x = static_cast<const unsigned char*>(in);
  auto* v = static_cast<unsigned char*>(values);
  for (size_t r = 0; r < rows; ++r) {
    const unsigned char* row = x + r * n * es;
#if defined(__wasm_simd128__)
    // float32: a key only for the first k and for an element that may enter
    // (below); the rest are passed over four at a time by their values.
    const bool filtered = dt == DType::f32;
    const auto* xf = reinterpret_cast<const float*>(row);
#else
    const bool filtered = false;
#endif
    key_row_fn(row, filtered ? k : n, flip, keys);
    // The first k, heapified; then each key that ranks above the lowest kept replaces it.
    for (size_t i = 0; i < k; ++i) {
      hk[i] = keys[i];
      hi[i] = static_cast<std::uint32_t>(i);
    }
    for (size_t i = k / 2; i-- > 0;) sift_down(hk, hi, k, i);
    for (size_t i = k; k > 0 && i < n; ++i) {
#if defined(__wasm_simd128__)
      if (filtered) {
        // An element enters only if it ranks above the lowest kept, t: largest,
        // x > t or x a NaN while t is not; smallest, x < t or t a NaN while x
        // is not (-0 and +0 are one key). With a NaN kept, each element is tested.
        const float t = xf[hi[0]];
        const v128_t vt = wasm_f32x4_splat(t);
        for (; t == t && i + 4 <= n; i += 4) {
          const v128_t e = wasm_v128_load(xf + i);
          if (wasm_v128_any_true(largest ? wasm_v128_or(wasm_f32x4_gt(e, vt), wasm_f32x4_ne(e, e)) : wasm_f32x4_lt(e, vt))) break;
        }
        if (i == n) break;
        const float e = xf[i];
        if (!(largest ? e > t || (e != e && t == t) : e < t || (t != t && e == e))) continue;
        key_row_fn(row + i * es, 1, flip, keys + i);
      }
#endif
      if (keys[i] <= hk[0]) continue;  // an equal key comes later: it ranks lower
      hk[0] = keys[i];
      hi[0] = static_cast<std::uint32_t>(i);
      sift_down(hk, hi, k, 0);
    }
    // Highest rank first: the lowest kept goes to the last place, k times.
    std::int32_t* ix = indices + r * k;
    unsigned char* vr = v + r * k * es;
    for (size_t j = k; j-- > 0;) {
      ix[j] = static_cast<std::int32_t>(hi[0]);
      std::memcpy(vr + j * es, row + hi[0] * es, es);
      hk[0] = hk[j];
      hi[0] = hi[j];
      sift_down(hk, hi, j, 0);
    }
  }
  calls::release(keys);
  return 0;
}

}  // namespace
}  // namespace tc::post

extern "C" {

using tc::calls::Addr;
using tc::calls::at;

// softmax (mode 0), logSoftmax (1) or logSumExp (2, one value a row) of each row; out is not in.
EMSCRIPTEN_KEEPALIVE int tc_softmax(Addr in, Addr out, double rows, double n, int dt, int mode) {
  if (dt < 0 || dt >= static_cast<int>(tc::DType::count)) return 2;
  return tc::post::softmax(at(in), at(out), static_cast<size_t>(rows), static_cast<size_t>(n), static_cast<tc::DType>(dt), mode);
}

// argmax (min = 0) or argmin (min = 1) of each row, as int32 indices; n >= 1.
EMSCRIPTEN_KEEPALIVE int tc_argreduce(Addr in, Addr out, double rows, double n, int dt, int min) {
  using tc::DType;
  auto* o = static_cast<std::int32_t*>(at(out));
  const size_t r = static_cast<size_t>(rows), c = static_cast<size_t>(n);
  if (c == 0) return 2;
#if defined(__wasm_simd128__)
  if (dt == static_cast<int>(DType::f32) && c <= 64 && r >= 8) return tc::post::arg_short_f32(static_cast<const float*>(at(in)), o, r, c, min != 0);
  if (dt == static_cast<int>(DType::f32)) return tc::post::arg_rows_float<DType::f32>(at(in), o, r, c, min != 0), 0;
  if (dt == static_cast<int>(DType::f64)) return tc::post::arg_rows_float<DType::f64>(at(in), o, r, c, min != 0), 0;
#endif
  switch (static_cast<DType>(dt)) {
#define TC_DTYPE(e, name, ctype, array, kind) \
  case DType::e: tc::post::arg_rows<DType::e == DType::u8c ? DType::u8 : DType::e>(at(in), o, r, c, min != 0); return 0;
#include "kernels/dtypes.def"
    default: return 2;
  }
}

// The k highest-ranked elements of each row (the lowest when largest = 0),
// highest first, ties to the lower index: their values and int32 indices.
EMSCRIPTEN_KEEPALIVE int tc_topk(Addr in, Addr values, Addr indices, double rows, double n, double k, int dt, int largest) {
  if (dt < 0 || dt >= static_cast<int>(tc::DType::count)) return 2;
  return tc::post::topk(at(in), at(values), static_cast<std::int32_t*>(at(indices)), static_cast<size_t>(rows),
                        static_cast<size_t>(n), static_cast<size_t>(k), static_cast<tc::DType>(dt), largest != 0);
}
}

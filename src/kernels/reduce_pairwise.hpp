// The order of operations of every reduction kernel, declared once and shared
// by the scalar references (reduce_scalar.cpp) and the SIMD128 kernels
// (reduce_wasmsimd.cpp): both are these skeletons with their own leaf and
// merge, so a SIMD kernel equals its reference bit for bit.
//
// row (n contiguous elements -> one), in the shape of NumPy's pairwise sum:
//   K = 4 vectors of lanes (float32: 16 accumulators, float64: 8; 64 bytes)
//   leaf (n <= B = 16 K elements, 1 KiB):
//     n < K : r = x[0]; r = r op x[i] for i = 1 .. n-1
//     else  : acc[k] = x[k]; acc[k] = acc[k] op x[i + k] for each further
//             whole group of K; then per lane l of a vector
//               w[l] = (acc[l] op acc[L + l]) op (acc[2L + l] op acc[3L + l])
//             then halving: w[l] = w[l] op w[l + s] for s = L/2, ..., 1;
//             r = w[0], then the last n % K elements one by one.
//   above B (float sum and prod only): split at h = n/2 rounded down to a
//     multiple of K and combine the halves: row(x, h) op row(x + h, n - h).
//   Integer ops and min/max give the same result in any order; they run the
//   leaf over all n.
//
// col (rows of n elements -> a row of n results), per column:
//   rows <= R = 16: sequential, r = row0 op row1 op ... (the leaf)
//   else: split at h = rows/2 rounded down to a multiple of R (at least R):
//     col(top h rows) op col(the rest), element by element (the merge).
//   Columns are independent: kernels may process them in any chunks.
//
// With ~ log2(n / B) levels of halving over leaves of 16-term chains, the
// error of a float32 sum of 2^20 terms stays near 1e-7 relative, where one
// running accumulator drifts to ~1e-6 and beyond.
#pragma once

#include <cstddef>
#include <cstdint>

#include "reduce.hpp"
#include "scalar_ops.hpp"

namespace tc::reduce {

// The element function of a reduction: the op of the element-wise table that
// combines two partial results (add wraps / clamps / is IEEE; minimum and
// maximum propagate NaN and order -0 below +0).
template <DType D, ReduceOp op>
inline typename Storage<D>::T apply(typename Storage<D>::T a, typename Storage<D>::T b) {
  return ops::apply<D, reduce_merge_op(op)>(a, b);
}

// Float sums and products depend on the order; the rest do not.
template <DType D, ReduceOp op>
constexpr bool is_pairwise() {
  return is_float_dtype(D) && (op == ReduceOp::sum || op == ReduceOp::prod);
}

template <typename T>
constexpr size_t kLanes = 16 / sizeof(T);
template <typename T>
constexpr size_t kRowAcc = 4 * kLanes<T>;  // accumulators of a row leaf (K)
template <typename T>
constexpr size_t kRowBlock = 16 * kRowAcc<T>;  // largest row leaf (B): 1 KiB
constexpr size_t kColLeafRows = 16;             // R

inline size_t row_split(size_t n, size_t k) {
  size_t h = n / 2;
  return h - h % k;
}

// Row: pairwise over leaves; `leaf(x, n)` returns the leaf's result.
template <typename T, typename Leaf, typename F>
T row_pairwise(const T* x, size_t n, const Leaf& leaf, const F& f) {
  if (n <= kRowBlock<T>) return leaf(x, n);
  const size_t h = row_split(n, kRowAcc<T>);
  const T a = row_pairwise<T>(x, h, leaf, f);
  const T b = row_pairwise<T>(x + h, n - h, leaf, f);
  return f(a, b);
}

inline size_t col_split(size_t rows) {
  size_t h = rows / 2;
  h -= h % kColLeafRows;
  return h < kColLeafRows ? kColLeafRows : h;
}

// Levels of temporary rows col_pairwise needs for `rows` rows.
inline int col_depth(size_t rows) {
  int d = 0;
  while (rows > kColLeafRows) {
    rows -= col_split(rows);  // the lower part is the larger one
    ++d;
  }
  return d;
}

// Col: `leaf(x, rows, w, stride, dst)` writes the sequential result of up to R
// rows of w columns; `merge(dst, t, w)` does dst[j] = dst[j] op t[j]. `tmp`
// holds one row of `tmp_w` elements per level.
template <typename T, typename Leaf, typename Merge>
void col_pairwise(const T* x, size_t rows, size_t w, size_t stride, T* dst, T* tmp, size_t tmp_w, int lvl,
                  const Leaf& leaf, const Merge& merge) {
  if (rows <= kColLeafRows) {
    leaf(x, rows, w, stride, dst);
    return;
  }
  const size_t h = col_split(rows);
  col_pairwise<T>(x, h, w, stride, dst, tmp, tmp_w, lvl + 1, leaf, merge);
  T* t = tmp + static_cast<size_t>(lvl) * tmp_w;
  col_pairwise<T>(x + h * stride, rows - h, w, stride, t, tmp, tmp_w, lvl + 1, leaf, merge);
  merge(dst, t, w);
}

// Bytes of stack a col kernel uses for its temporary rows (columns are cut
// into chunks whose levels fit).
constexpr size_t kColTmpBytes = 16384;

// A whole col reduction: columns in chunks of at most kColTmpBytes / depth
// bytes (a multiple of 64 bytes), each chunk pairwise over all rows.
template <typename T, typename Leaf, typename Merge>
void col_run(const T* x, size_t rows, size_t n, size_t stride, T* out, const Leaf& leaf, const Merge& merge) {
  const int depth = col_depth(rows);
  if (depth == 0) {
    leaf(x, rows, n, stride, out);
    return;
  }
  alignas(16) T tmp[kColTmpBytes / sizeof(T)];
  constexpr size_t kLine = 64 / sizeof(T);
  size_t chunk = kColTmpBytes / sizeof(T) / static_cast<size_t>(depth);
  chunk -= chunk % kLine;
  if (chunk == 0) chunk = kLine;  // unreachable: depth < 64 keeps chunk >= 4 lines
  for (size_t j = 0; j < n; j += chunk) {
    const size_t w = n - j < chunk ? n - j : chunk;
    col_pairwise<T>(x + j, rows, w, stride, out + j, tmp, chunk, 0, leaf, merge);
  }
}

}  // namespace tc::reduce

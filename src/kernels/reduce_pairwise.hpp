// The order of operations of every reduction kernel, declared once and shared
// by the scalar references (reduce_scalar.cpp) and the SIMD128 kernels
// (reduce_wasmsimd.cpp): both are these skeletons with their own leaf and
// merge, so a SIMD kernel equals its reference bit for bit.
//
// row (n contiguous elements -> one), in the shape of NumPy's pairwise sum:
//   K = 4 vectors of L lanes (float32: 16 accumulators, float64: 8; 64 bytes)
//   n < K: r = x[0]; r = r op x[i] for i = 1 .. n-1. Otherwise:
//   blocks: from the start, blocks of B elements, the last one shorter (the
//     whole groups of K that are left; the last n % K elements are in no
//     block). B = 64 K (4 KiB). Per block: acc[k] = x[k], then
//     acc[k] = acc[k] op x[j + k] for each further group of K; then its 4
//     vectors v0..v3 (v_j = acc[jL .. jL + L)) lane-wise as a tree:
//     (v0 op v1) op (v2 op v3).
//   blocks combined pairwise, lane-wise, by a binary counter: each block's
//     vector is pushed in order, and while the newest two entries have the
//     same level they merge (older op newer) into one of the next level. At
//     the end the entries combine from the newest: v = older op v.
//   lanes: halving, w[l] = w[l] op w[l + s] for s = L/2, ..., 1; r = w[0];
//     then the last n % K elements one by one: r = r op x[i].
//   This order binds float sums and products. Integer sums and products
//   (mod 2^bits, or clamped for uint8clamped: the clamped sum of
//   non-negative terms is the clamp of the exact sum) and min / max (NaN if
//   any term is NaN, -0 below +0) give the same result in any order: their
//   references are plain loops and their SIMD kernels run one pass.
//
// col (rows of n elements -> a row of n results), per column:
//   rows <= R: sequential, r = row0 op row1 op ... (the leaf: 64 bytes of
//     each column, as the row order's blocks of accumulators; float32 R = 16,
//     float64 R = 8)
//   else: split at h = rows/2 rounded down to a multiple of R (at least R):
//     col(top h rows) op col(the rest), element by element (the merge).
//   Columns are independent: kernels may process them in any chunks. As for
//   rows, the order binds float sums and products; the references of the
//   other ops combine the rows one after the other.
//
// Chains of at most 64 terms, then ~ log2(n / B) levels of pairs: the error
// of a float32 sum of 2^20 terms in [0, 1) stays below 1e-7 relative, where
// one running accumulator drifts to ~1e-5. (4 vector accumulators and 4 KiB
// blocks: more accumulators make V8 spill on x64, and shorter blocks cost
// their setup; either way the sum then runs slower than a read of the data.)
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

template <typename T>
constexpr size_t kLanes = 16 / sizeof(T);
constexpr size_t kRowVecs = 4;  // vectors of accumulators of a row block
template <typename T>
constexpr size_t kRowAcc = kRowVecs * kLanes<T>;  // accumulators of a row block (K)
template <typename T>
constexpr size_t kRowBlock = 64 * kRowAcc<T>;  // a row block (B) of a float sum or product: 4 KiB
constexpr size_t kColVecs = 4;  // vectors of columns a SIMD col leaf keeps in registers
// R: the rows of a col leaf, 64 bytes of each column (float32 16, float64 8).
constexpr size_t col_leaf_rows(size_t elem_bytes) { return 64 / elem_bytes; }
template <typename T>
constexpr size_t kColLeafRows = col_leaf_rows(sizeof(T));
// The leaves of the col kernels whose order does not bind (any order gives
// their bits): 8 rows, read at once within an L1 cache's 8 ways.
constexpr size_t kColLeafRowsAnyOrder = 8;

// Float sums and products depend on the order; the rest do not.
template <DType D, ReduceOp op>
constexpr bool order_matters() {
  return is_float_dtype(D) && (op == ReduceOp::sum || op == ReduceOp::prod);
}

// The kernel a (dtype, op) shares: its merge op's (scalar_ops.hpp), so that
// wrapping sums and products of unsigned integers run the signed kernels and
// uint8clamped min/max run uint8's. One kernel serves both table entries.
template <DType D, ReduceOp op>
constexpr DType kernel_dtype() {
  return tc::kernel_dtype(D, reduce_merge_op(op));
}

// The binary counter of the row skeleton over block results of any vector
// type (std::array for the references, v128_t for SIMD).
template <typename Vec>
struct PairCounter {
  Vec stack[64];
  int level[64];
  int depth = 0;
  template <typename Merge>
  void push(Vec v, const Merge& merge) {
    int l = 0;
    while (depth > 0 && level[depth - 1] == l) {
      v = merge(stack[depth - 1], v);
      --depth;
      ++l;
    }
    stack[depth] = v;
    level[depth] = l;
    ++depth;
  }
  template <typename Merge>
  Vec total(const Merge& merge) const {  // depth >= 1
    Vec v = stack[depth - 1];
    for (int k = depth - 2; k >= 0; --k) v = merge(stack[k], v);
    return v;
  }
};

inline size_t col_split(size_t rows, size_t R) {
  size_t h = rows / 2;
  h -= h % R;
  return h < R ? R : h;
}

// Levels of temporary rows col_pairwise needs for `rows` rows.
inline int col_depth(size_t rows, size_t R) {
  int d = 0;
  while (rows > R) {
    rows -= col_split(rows, R);  // the lower part is the larger one
    ++d;
  }
  return d;
}

// Col: `leaf(x, rows, w, stride, dst, into)` computes the sequential result
// of up to R rows of w columns and writes it to dst (into == false) or
// combines it into dst, dst[j] = dst[j] op result[j] (into == true: the merge
// of a lower half that is a leaf, without a temporary row); `merge(dst, t, w)`
// does dst[j] = dst[j] op t[j]. `tmp` holds one row of `tmp_w` elements per
// level.
template <typename T, typename Leaf, typename Merge>
void col_pairwise(const T* x, size_t rows, size_t w, size_t stride, T* dst, T* tmp, size_t tmp_w, int lvl,
                  const Leaf& leaf, const Merge& merge) {
  if (rows <= kColLeafRows<T>) {
    leaf(x, rows, w, stride, dst, false);
    return;
  }
  const size_t h = col_split(rows, kColLeafRows<T>);
  col_pairwise<T>(x, h, w, stride, dst, tmp, tmp_w, lvl + 1, leaf, merge);
  if (rows - h <= kColLeafRows<T>) {
    leaf(x + h * stride, rows - h, w, stride, dst, true);
    return;
  }
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
  const int depth = col_depth(rows, kColLeafRows<T>);
  if (depth == 0) {
    leaf(x, rows, n, stride, out, false);
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

// The same col order with the merges fused into the leaves (the SIMD
// kernels): a part's result S is never stored and merged later; a part is
// solved with a list of pending partial rows pend[0..np) and stores
//   pend[0] op (pend[1] op ( ... op (pend[np-1] op S)))
// into out (out may be pend[0]). A split part solves its top half into a
// temporary row t (into out itself when np == 0), then its lower half with
// pend + [t]: pend ... op (t op S_low) = pend ... op S, the reference's
// merges with the same operands in the same order, so the same bits. Each
// leaf walks its rows once, folds the pending rows (newest first) into its
// registers and stores one row: no separate merge passes.
// `leaf(x, rows, w, stride, out, pend, np)`; `tmp` holds `tmp_w` elements
// per level, lvl the first free level.
constexpr int kColMaxPend = 64;

template <typename T, typename Leaf>
void col_pairwise_fused(const T* x, size_t rows, size_t w, size_t stride, T* out, const T** pend, int np, T* tmp,
                        size_t tmp_w, int lvl, const Leaf& leaf, size_t R) {
  if (rows <= R) {
    leaf(x, rows, w, stride, out, pend, np);
    return;
  }
  const size_t h = col_split(rows, R);
  T* t = out;
  if (np > 0) t = tmp + static_cast<size_t>(lvl++) * tmp_w;
  col_pairwise_fused<T>(x, h, w, stride, t, pend + np, 0, tmp, tmp_w, lvl, leaf, R);  // pend[0, np) stays
  pend[np] = t;
  col_pairwise_fused<T>(x + h * stride, rows - h, w, stride, out, pend, np + 1, tmp, tmp_w, lvl, leaf, R);
}

// Bytes of stack the fused col kernels use for temporary rows: wide enough
// that a [1024, 1024] float32 sum walks whole rows (each 4 KiB row read in one
// pass, a leaf's rows as sequential streams, 8 at a time).
constexpr size_t kColFusedTmpBytes = 32768;

// Levels of temporary rows col_pairwise_fused needs for `rows` rows.
inline int col_fused_depth(size_t rows, size_t R) {
  if (rows <= R) return 0;
  const size_t h = col_split(rows, R);
  const int a = col_fused_depth(h, R), b = 1 + col_fused_depth(rows - h, R);
  return a > b ? a : b;
}

template <typename T, typename Leaf>
void col_run_fused(const T* x, size_t rows, size_t n, size_t stride, T* out, const Leaf& leaf, size_t R) {
  const T* pend[kColMaxPend];
  const int depth = col_fused_depth(rows, R);
  if (depth == 0) {
    leaf(x, rows, n, stride, out, pend, 0);
    return;
  }
  alignas(16) T tmp[kColFusedTmpBytes / sizeof(T)];
  constexpr size_t kLine = 64 / sizeof(T);
  size_t chunk = kColFusedTmpBytes / sizeof(T) / static_cast<size_t>(depth);
  chunk -= chunk % kLine;
  if (chunk == 0) chunk = kLine;  // unreachable: depth < 64 keeps chunk >= 8 lines
  for (size_t j = 0; j < n; j += chunk) {
    const size_t w = n - j < chunk ? n - j : chunk;
    col_pairwise_fused<T>(x + j, rows, w, stride, out + j, pend, 0, tmp, chunk, 0, leaf, R);
  }
}

}  // namespace tc::reduce

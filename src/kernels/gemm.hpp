// Contraction at matrix-multiply speed: out[m, n] = sum over k of A(m, k) * B(k, n),
// summed in the order the reduction kernels use (reduce_pairwise.hpp), so
// that the result is, bit for bit, sum(mul(A, B)) reduced op by op.
//
//   the order of k, per output (the reduction the op-by-op sum runs):
//     col (the product's reduced axis has kept axes after it): leaves of at
//       most 16 consecutive k (float64: 8) summed in order, combined as a
//       tree of halves (col_split);
//     row (the reduced axis is the product's last): 16 (float64: 8)
//       accumulators over k mod 16 in blocks of 1024 (512), the block tree,
//       the binary counter over blocks, the lanes halved, the tail in order.
//   Integer sums wrap: any order gives the same bits (one running sum).
//   float16 (its sums are float32 sums of the stored float16 terms, in parts
//   of 8192: reduce_driver.cpp): k in parts (GemmProblem::part), each in the
//   order above, the parts combined as the driver's pairs are; each product
//   rounded to float16 as the float16 mul stores it; each result rounded once.
//
// The kernel (gemm_wasmsimd.cpp): B packed in blocks of columns (K rows of
// up to 512 KiB), a 4 x 2-vector register tile whose every accumulator
// follows the order above, A's 4 rows packed beside it (one splat per element
// and row).
#pragma once

#include <cstdint>

#include "../core/shape.hpp"
#include "kernels.hpp"

namespace tc {

struct GemmProblem {
  bool row_order = false;    // the order of k: row (reduced axis last) or col
  i64 M = 0, K = 0, N = 0;
  const void* a = nullptr;   // A(m, k) = a[a_off[m] + k * a_k]
  const void* b = nullptr;   // B(k, n) = b[b_off[m] + k * b_k + n * b_n]
  const i64* a_off = nullptr;
  const i64* b_off = nullptr;  // B is packed once per run of equal offsets
  i64 a_k = 0, b_k = 0, b_n = 0;  // element strides
  void* out = nullptr;       // M x N, row-major
  i64 part = 0;              // float16: k in parts of this many terms (the last may be shorter); 0: one part
};

// Bytes of a packed element: float16 is packed as float32 (exact).
inline size_t gemm_packed_size(DType dt) { return dt == DType::f16 ? 4 : dtype_size(dt); }

// The packed block's columns for K rows of `es` bytes: as many whole tiles as
// fit 512 KiB (at least one), no more than N needs: a larger block repacks A
// less often (1024^3 float32 in Node, one run each: 128 KiB 69-88 ms by dim
// order, 512 KiB 62-75 ms).
inline i64 gemm_block_cols(i64 K, i64 N, size_t es) {
  const i64 nr = static_cast<i64>(32 / es);  // tile columns: 2 vectors
  i64 c = static_cast<i64>(524288 / es) / (K > 0 ? K : 1) / nr * nr;
  if (c < nr) c = nr;
  const i64 need = (N + nr - 1) / nr * nr;
  return c < need ? c : need;
}

// Runs the contraction; false when the packed block cannot be allocated (the
// caller then runs the expression as before). nullptr: no kernel in this
// build (native: the scalar references only).
using GemmFn = bool (*)(const GemmProblem&);
GemmFn find_gemm(DType dt);

}  // namespace tc

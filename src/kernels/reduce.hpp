// Reductions: sum, prod, min, max (and mean, composed by the driver) over a
// set of axes of a contiguous row-major array. One naming grammar, one
// registry, as for the element-wise kernels (kernels.hpp):
//
//   <dtype>_<op>_<shape>__<isa>     e.g. f32_sum_row__wasmsimd, i8_max_col__scalar
//   shape: row = contiguous inner reduction: n contiguous elements to one
//          col = outer reduction: out[j] = x[0*stride + j] op x[1*stride + j] op ...
//                (whole rows combined lane-wise into a row of results; never a
//                strided gather)
//   isa:   scalar = the reference (the test oracle and the fallback),
//          wasmsimd = SIMD128 (wasm build only, where a vector form exists).
//
// Element semantics (decisions):
// - Kernels read and write the accumulation dtype. Integers wrap mod 2^bits
//   (sum and prod are the exact result stored like a typed-array store);
//   uint8clamped saturates: each partial result is clamped to [0, 255], which
//   for non-negative terms is exactly a Uint8ClampedArray store of the exact
//   sum (or product) of the whole set.
// - min / max propagate NaN (NumPy) and order -0 below +0 (Math.min/max); a NaN
//   result may be any NaN.
// - Float sums and products are blocked pairwise (reduce_pairwise.hpp): never
//   one running accumulator. The order of the operations is part of each
//   kernel's contract, so every SIMD kernel equals its reference bit for bit
//   (NaN payloads aside).
// - Kernels need n >= 1 and rows >= 1 (the driver handles empty reductions).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../core/plan.hpp"
#include "../core/shape.hpp"
#include "kernels.hpp"

namespace tc {

// Generated from reduce_ops.def.
enum class ReduceOp : int {
#define TC_REDUCE_OP(e, kernel, merge) e,
#include "reduce_ops.def"
  count
};

// The kernels a reduction runs (mean -> sum) and the element-wise op that
// combines two partial results (sum -> add, min -> minimum, ...).
inline constexpr ReduceOp kReduceKernelOf[] = {
#define TC_REDUCE_OP(e, kernel, merge) ReduceOp::kernel,
#include "reduce_ops.def"
};
inline constexpr Op kReduceMergeOf[] = {
#define TC_REDUCE_OP(e, kernel, merge) Op::merge,
#include "reduce_ops.def"
};
constexpr ReduceOp reduce_kernel_op(ReduceOp op) { return kReduceKernelOf[static_cast<int>(op)]; }
constexpr Op reduce_merge_op(ReduceOp op) { return kReduceMergeOf[static_cast<int>(op)]; }
constexpr bool reduce_has_kernels(ReduceOp op) { return op < ReduceOp::count && reduce_kernel_op(op) == op; }
// Ops with kernels come first in reduce_ops.def; they index the kernel tables.
constexpr int count_kernel_ops() {
  int n = 0;
  while (n < static_cast<int>(ReduceOp::count) && reduce_kernel_op(static_cast<ReduceOp>(n)) == static_cast<ReduceOp>(n)) ++n;
  return n;
}
constexpr int kReduceKernelOps = count_kernel_ops();

enum class ReduceShape : int { row, col, count };

// row: *out = x[0] op x[1] op ... op x[n-1]                         (n >= 1)
// col: out[j] = x[j] op x[stride + j] op ... op x[(rows-1)*stride + j], j < n
//      (rows >= 1; out must not overlap x)
using ReduceRowKernel = void (*)(const void* x, size_t n, void* out);
using ReduceColKernel = void (*)(const void* x, size_t rows, size_t n, size_t stride, void* out);

struct ReduceKernelInfo {
  const char* name;  // the grammar above
  DType dtype;
  ReduceOp op;
  ReduceShape shape;
  bool simd;
  ReduceRowKernel row;  // set when shape == row
  ReduceColKernel col;  // set when shape == col
};

// Every reduction kernel of this build (references first, then SIMD ones).
const ReduceKernelInfo* reduce_registry(size_t* count);
// Dispatch: SIMD where the build has one, else the reference. nullptr for an
// op without kernels (mean) or an out-of-range argument.
ReduceRowKernel find_reduce_row(DType dt, ReduceOp op);
ReduceColKernel find_reduce_col(DType dt, ReduceOp op);
// The scalar references, always.
ReduceRowKernel find_reduce_row_reference(DType dt, ReduceOp op);
ReduceColKernel find_reduce_col_reference(DType dt, ReduceOp op);
// softmax's middle pass (bindings/wasm/post.cpp): e[i] = exp(x[i] - *m) and
// *out = the sum row kernel's sum of e, bit for bit the sub (form vs), exp and
// sum row kernels one after another, the first two in one pass (n >= 1; e may be x).
// SIMD builds, float32; nullptr elsewhere (run the three kernels).
using ExpSumRowKernel = void (*)(const void* x, const void* m, void* e, size_t n, void* out);
ExpSumRowKernel find_exp_sum_row(DType dt);
// An expression's sum of a three-factor product along its row (src/expr/interp.cpp):
// the sum row kernel's sum of (p * q) * r, each term rounded as
// mul(mul(p, q), r) rounds it, without storing the terms. The row is `runs`
// runs of n elements (n a multiple of 16); factor k's run i starts at
// f[k] + i * step[k]: p is one value a run, q and r read n contiguous
// elements. SIMD builds, float32; nullptr elsewhere (the expression's chunks).
struct ProductRow {
  const float* f[3];
  std::int64_t step[3];
  std::int64_t n, runs;
};
using ProductRowKernel = float (*)(const ProductRow& row);
ProductRowKernel find_product_row(DType dt);
// "sum", "prod", "min", "max", "mean" (also the names in kernel names).
const char* reduce_op_name(ReduceOp op);
const char* reduce_shape_name(ReduceShape s);

// ---- element conversion (convert.cpp) ----------------------------------------------

// To an accumulation dtype, as a typed-array store of the value: integers
// wrap mod 2^bits, uint8clamped clamps (floats round half to even, NaN -> 0),
// floats to integers truncate toward zero then wrap (NaN and infinities -> 0),
// integers to floats round to nearest once (a 64-bit integer goes straight to
// float32, not through float64).
void convert_elements(DType from, DType to, const void* src, void* dst, size_t n);
// Values the driver computes in double, stored the same way: every element of
// `out` set to v (an empty reduction's identity), and out[i] / count for mean
// (float64 divides in place; the other dtypes store the double quotient).
void fill_value(DType dt, void* out, i64 n, double v);
void divide_elements(DType dt, void* out, i64 n, i64 count);
// NumPy's float sum starts from its identity, +0 (np.sum([-0.0]) is 0.0); the
// kernels start from the first element, which differs only where every
// element is -0. out[i] += +0 over a float32 / float64 sum's results settles
// exactly that (-0 becomes +0, every other value stays). Other dtypes: nothing.
void sum_zero_sign(DType dt, void* out, i64 n);

// ---- the driver (reduce_driver.cpp) ------------------------------------------------

// Axes as given by a caller (negative allowed, counted from the end) to a
// mask (bit i = axis i). n == 0 gives an empty mask (the caller passes every
// axis for "all"). An entry outside [-rank, rank) or naming an axis already
// named -> InvalidAxis with err.axis = the entry's index in `axes` and
// err.detail = its value (clamped to the int range). rank outside [0, 32] ->
// InvalidShape.
Status normalize_axes(int rank, const i64* axes, int n, std::uint64_t& mask, Error& err);

// Shape of the result: the kept axes in order; keepdims keeps reduced axes as 1.
// InvalidShape for an unknown rank, InvalidAxis for mask bits >= rank.
Status reduce_out_shape(const Shape& in, std::uint64_t mask, bool keepdims, Shape& out);
// Number of elements each result combines (product of the reduced dims; 1 for
// an empty mask). Static shapes only; saturates.
i64 reduce_count(const Shape& in, std::uint64_t mask);

// The dtype a reduction gives when no dtype is requested: the input's, except
// mean of integers, which gives float64 (NumPy).
constexpr DType reduce_default_acc(ReduceOp op, DType in_dt) {
  return op == ReduceOp::mean && !is_float_dtype(in_dt) ? DType::f64 : in_dt;
}

// Reduce `in_data` (contiguous row-major, shape `in`, dtype in_dt) over the
// axes of `axes_mask` into `out` (contiguous over the kept axes in order; the
// caller applies keepdims to the shape). Each element is converted to acc_dt
// first (convert_elements) when acc_dt != in_dt; the result has dtype acc_dt.
// mean is the sum divided by reduce_count: float32 as the float32 rounding of
// the double quotient, float64 directly, integer dtypes as a store of the
// double quotient (truncated, wrapped; clamped for uint8clamped).
//
// One pass over the data: adjacent axes that are both reduced or both kept
// are merged and size-1 axes dropped, so [N, C, H, W] keeping C is the loop
// [N, C, H*W] (reduce, keep, reduce): rows of H*W go through the row kernel,
// and the N partial rows of C results are combined pairwise. [R, K] runs
// one col kernel call. Large blocks and conversions are combined pairwise too.
//
// Status:
//   InvalidShape   `in` not static (or rank unknown / > 32)
//   InvalidAxis    a mask bit >= rank (err->axis = that bit, err->detail = -1)
//   InvalidAxis    min / max over zero elements with a non-empty result:
//                  err->detail = -6, err->axis = the first reduced axis of
//                  size 0, err->dim_a = that dim (0). sum gives 0, prod 1,
//                  mean NaN (0 for an integer acc_dt). An empty result is Ok.
//   DtypeMismatch  a dtype or op out of range
// `err` may be nullptr.
// `in_strides`: the input's element strides, one per axis (a view: any
// integer; nullptr: row-major). A view is read in place: axes merge only
// where contiguous, and rows that are not are gathered into scratch.
Status run_reduce(const Shape& in, std::uint64_t axes_mask, ReduceOp op, DType in_dt, DType acc_dt,
                  const void* in_data, void* out, Error* err = nullptr, const i64* in_strides = nullptr);

// err->detail of the empty min / max refusal (InvalidAxis).
constexpr int kDetailEmptyReduction = -6;

}  // namespace tc

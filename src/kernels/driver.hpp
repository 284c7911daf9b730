// Running a plan over data: the strided outer walk around the 1-d kernels.
//
//   loop shape [2, 3, 20]  strides A [60, 20, 1]  B [0, 1, 0]  (pdpd: [2,3,4,5] + [3,1] at axis 1)
//   -> 6 rows of 20; per row A advances, B is one element: form vs.
//
// Every function takes a plan from src/rules (static, with its merged loop)
// and raw pointers; the caller guarantees the buffers hold the shapes. Output
// is always contiguous row-major.
#pragma once

#include <cstddef>

#include "../core/plan.hpp"
#include "../core/named_plan.hpp"
#include "kernels.hpp"

namespace tc {

// Element-wise a (op) b over a two-operand plan. InvalidShape if the plan is
// not a static two-operand plan, DtypeMismatch if op is undefined for dt.
Status run_binary(const Plan& plan, DType dt, Op op, const void* a, const void* b, void* out);

// Materialise a one-operand plan (broadcastTo): whole rows are copied with
// memcpy, stretched rows are filled, and repeated rows are copied from the
// output already written.
Status run_copy(const Plan& plan, size_t elem_size, const void* in, void* out);

// One-operand map (unary ops, casts) over a one-operand plan: `fn` on each
// row, read in place where its inner stride is 1, else gathered in chunks
// (a strided view). In elements of `es` bytes, out of `os`.
Status run_map(const Plan& plan, size_t es, size_t os, UnaryKernel fn, const void* in, void* out);

// rr rows of c elements of es bytes (row r at src + r * step elements, its
// elements `s` apart) gathered into dst one after another: a transpose of
// 4-byte elements (step 1) in 4x4 blocks in registers (SIMD builds).
void gather_tile(char* dst, const char* src, i64 s, i64 step, size_t es, i64 rr, i64 c);

// One element of a condition of dtype dt is true where != 0 (NaN true, -0 false).
bool truthy(DType dt, const void* e);

// where(cond, x, y) over a three-operand plan; cond of dtype cond_dt is true
// where != 0 (NaN true); x, y and out have elements of elem_size bytes.
Status run_where(const Plan& plan, DType cond_dt, size_t elem_size, const void* cond, const void* x,
                 const void* y, void* out);

// Named operands whose shared labeled dims are re-indexed (intersection /
// union): gather element by element through the named plan's index lists;
// cells absent from an operand (union) read `fill_a` / `fill_b` (one element each).
Status run_binary_gather(const Plan& plan, const NamedPlan& named, DType dt, Op op, const void* a,
                         const void* b, const void* fill_a, const void* fill_b, void* out);

}  // namespace tc

// Element-wise kernels: one naming grammar, one registry.
//
//   <dtype>_<op>_<form>__<isa>     e.g. f32_add_vs__wasmsimd, i32_div_vv__scalar
//   form: vv = both operands contiguous, vs = second operand is one element
//         (a scalar along the row), sv = first operand is one element.
//   isa:  scalar = the reference (the test oracle and the fallback),
//         wasmsimd = SIMD128 (wasm build only, where it exists).
//
// The registry (kernel_registry) lists every kernel of the build; dispatch
// (find_kernel), the tests and the benchmarks all read it. Entries whose
// results agree bit for bit share one function (uint32 add is int32's:
// kernel_dtype() in scalar_ops.hpp); each is still listed under its own name
// and tested on its own dtype. The three forms of a (dtype, op) are one loop
// (BinaryLoop) called with the form's strides. Tails: SIMD kernels run whole
// vectors and finish the last (n % lanes) elements with the scalar
// reference's loop, so every length is exact.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tc {

// A float16 element: its IEEE binary16 bits (arithmetic goes through float32, half.hpp).
struct Half {
  uint16_t bits;
};

// Generated from dtypes.def and ops.def: the one declaration of each.
enum class DType : int {
#define TC_DTYPE(e, name, ctype, array, kind) e,
#include "dtypes.def"
  count
};
enum class Op : int {
#define TC_OP(e, js, result, domain) e,
#include "ops.def"
  count
};
// Unary ops (unary.def), the same pattern.
enum class UnaryOp : int {
#define TC_UNARY(e, js, result, domain) e,
#include "unary.def"
  count
};

// What ops.def says of an op: the dtype of its result and the dtypes it takes.
enum class OpResult : int { same, boolean };
enum class OpDomain : int { any, integer, floating };
struct OpTraits {
  const char* name;  // the JS name (add, notEqual, floorDiv, ...)
  OpResult result;
  OpDomain domain;
};
inline constexpr OpTraits kOpTraits[] = {
#define TC_OP(e, js, result, domain) {js, OpResult::result, OpDomain::domain},
#include "ops.def"
};
constexpr const OpTraits& op_traits(Op op) { return kOpTraits[static_cast<int>(op)]; }

enum class Form : int { vv, vs, sv, count };

// The one loop of a (dtype, op), every form: out[i] = a[i * sa] (op) b[i * sb]
// for i < n, each stride 1 (contiguous) or 0 (one element, read n times).
using BinaryLoop = void (*)(const void* a, size_t sa, const void* b, size_t sb, void* out, size_t n);

// A kernel in one form: its (dtype, op)'s loop and the strides the form gives
// it. Called as k(a, b, out, n); false (and == nullptr) where there is none.
struct BinaryKernel {
  BinaryLoop loop = nullptr;
  Form form = Form::vv;
  constexpr BinaryKernel() = default;
  constexpr BinaryKernel(std::nullptr_t) {}
  constexpr BinaryKernel(BinaryLoop l, Form f) : loop(l), form(f) {}
  constexpr explicit operator bool() const { return loop != nullptr; }
  void operator()(const void* a, const void* b, void* out, size_t n) const {
    loop(a, form == Form::sv ? 0 : 1, b, form == Form::vs ? 0 : 1, out, n);
  }
  friend constexpr bool operator==(BinaryKernel k, std::nullptr_t) { return k.loop == nullptr; }
  friend constexpr bool operator!=(BinaryKernel k, std::nullptr_t) { return k.loop != nullptr; }
};

struct KernelInfo {
  const char* name;  // the grammar above
  DType dtype;
  Op op;
  Form form;
  bool simd;
  BinaryKernel fn;
};

// A transposed block: `rows` rows (a multiple of 4) of `n` 4-byte elements,
// element (r, i) read at src[r + i * stride] (the rows one element apart:
// the operand's next axis is its contiguous one), written to dst rows `ds`
// elements apart. The SIMD build's 4x4 register transposes; null without
// SIMD (the driver then gathers row by row).
using TileGather = void (*)(char* dst, ptrdiff_t ds, const char* src, ptrdiff_t stride, ptrdiff_t rows, ptrdiff_t n);
TileGather find_tile_gather32();

// Every kernel of this build (references first, then SIMD ones).
const KernelInfo* kernel_registry(size_t* count);

// The kernel dispatch uses: SIMD where the build has one, else the reference.
// nullptr when the (dtype, op) pair is not defined (bitwise on floats).
BinaryKernel find_kernel(DType dt, Op op, Form form);
// The scalar reference, always.
BinaryKernel find_reference(DType dt, Op op, Form form);

// where(): out[i] = mask[i] != 0 ? x[i] : y[i], for elements of 1, 2, 4 or 8
// bytes (every dtype of that width: selecting moves bits, it never converts).
//   x<bits>_where_<form>__<isa>     e.g. x32_where_vs__wasmsimd
//   form: vv = x and y contiguous, vs = y one element, sv = x one element,
//         ss = both one element.
// The mask is one byte per element (a uint8 condition is its own mask; other
// conditions are turned into 0/1 bytes by the not_equal kernel first).
enum class SelectForm : int { vv, vs, sv, ss, count };
using SelectKernel = void (*)(const uint8_t* mask, const void* x, const void* y, void* out, size_t n);

struct SelectInfo {
  const char* name;
  size_t elem_size;
  SelectForm form;
  bool simd;
  SelectKernel fn;
};

// Every select kernel of this build (references first, then SIMD ones).
const SelectInfo* select_registry(size_t* count);
// SIMD where the build has one, else the reference; nullptr for a bad size.
SelectKernel find_select(size_t elem_size, SelectForm form);
SelectKernel find_select_reference(size_t elem_size, SelectForm form);

inline constexpr std::size_t kDTypeSizes[] = {
#define TC_DTYPE(e, name, ctype, array, kind) sizeof(ctype),
#include "dtypes.def"
};
// Inline: every data call asks these (the small call's budget is tens of ns).
constexpr std::size_t dtype_size(DType dt) { return dt < DType::count ? kDTypeSizes[static_cast<int>(dt)] : 0; }
constexpr bool is_float_dtype(DType d) { return d == DType::f32 || d == DType::f64 || d == DType::f16; }
// Comparisons and logical ops produce uint8 0/1.
constexpr bool op_yields_bool(Op op) { return op < Op::count && op_traits(op).result == OpResult::boolean; }
constexpr bool op_defined(DType dt, Op op) {
  if (dt >= DType::count || op >= Op::count) return false;
  const bool f = dt == DType::f32 || dt == DType::f64 || dt == DType::f16;
  switch (op_traits(op).domain) {
    case OpDomain::integer: return !f;
    case OpDomain::floating: return f;
    default: return true;
  }
}
// Whether this build has a SIMD128 kernel for the op on the dtype (any form).
bool has_simd_kernel(DType dt, Op op);
// ---- unary ops (unary.def) and cast ------------------------------------------
// Kernel names: <dtype>_<op>__<isa> (f32_sqrt__wasmsimd, i8_bitwise_not__scalar)
// and cast_<from>_<to>__<isa> (cast_f32_i32__scalar). One contiguous input, one
// contiguous output of n elements; out may equal in when their elements have
// the same size (every element is read before it is written). Element
// semantics and the cast decisions: unary_ops.hpp.
struct UnaryTraits {
  const char* name;  // the JS name (neg, logicalNot, isNaN, ...)
  OpResult result;
  OpDomain domain;
};
inline constexpr UnaryTraits kUnaryTraits[] = {
#define TC_UNARY(e, js, result, domain) {js, OpResult::result, OpDomain::domain},
#include "unary.def"
};
constexpr const UnaryTraits& unary_traits(UnaryOp op) { return kUnaryTraits[static_cast<int>(op)]; }

using UnaryKernel = void (*)(const void* in, void* out, size_t n);  // out may equal in (same size)

constexpr bool unary_defined(DType dt, UnaryOp op) {
  if (dt >= DType::count || op >= UnaryOp::count) return false;
  const bool f = dt == DType::f32 || dt == DType::f64 || dt == DType::f16;
  switch (unary_traits(op).domain) {
    case OpDomain::integer: return !f;
    case OpDomain::floating: return f;
    default: return true;
  }
}
// Boolean results (logicalNot, isNaN, isFinite) are uint8 0/1.
constexpr bool unary_yields_bool(UnaryOp op) {
  return op < UnaryOp::count && unary_traits(op).result == OpResult::boolean;
}
// SIMD where the build has it, else the reference; nullptr if undefined.
UnaryKernel find_unary(DType dt, UnaryOp op);
UnaryKernel find_unary_reference(DType dt, UnaryOp op);
// Every pair of dtypes (from == to: a copy); nullptr only for a bad dtype.
UnaryKernel find_cast(DType from, DType to);
UnaryKernel find_cast_reference(DType from, DType to);

struct UnaryKernelInfo {
  const char* name;  // the grammar above
  DType dtype;       // the operand's dtype (cast: from)
  UnaryOp op;        // UnaryOp::count for a cast
  DType to;          // a cast's result dtype (DType::count for a unary op)
  bool simd;
  UnaryKernel fn;
};
// Every unary kernel of this build (references first, then SIMD ones), and every cast kernel.
const UnaryKernelInfo* unary_registry(size_t* count);
const UnaryKernelInfo* cast_registry(size_t* count);
// The op's name in kernel names: snake_case of the enumerator (logical_not, is_nan).
const char* unary_op_name(UnaryOp op);
bool has_simd_unary(DType dt, UnaryOp op);

// Short names for kernel names (f32, u8c, i64) and the JS names (float32, ...).
const char* dtype_name(DType dt);
const char* form_name(Form f);              // vv | vs | sv (the kernel names' suffix)
const char* select_form_name(SelectForm f);  // vv | vs | sv | ss
const char* dtype_js_name(DType dt);
const char* dtype_array_name(DType dt);  // the JS typed-array constructor
const char* dtype_kind(DType dt);        // float | int | uint | clamped | bigint | biguint
// The op's name in kernel names: snake_case of the enumerator (not_equal, floor_div).
const char* op_name(Op op);

}  // namespace tc

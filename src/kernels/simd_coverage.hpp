// Which kernels have a SIMD128 form: read by the SIMD tables (which hold
// exactly these) and by the reference tables of a lean build.
//
// A lean build (TC_LEAN_REFERENCES, the shipped module) keeps a scalar
// reference only where no SIMD kernel stands in its place: the fallback of
// the (dtype, op) pairs SIMD128 has no instruction for. The SIMD kernels'
// tails run the SIMD kernel itself on a padded vector (no reference), so the
// shadowed references are never called there and the link drops them. The
// test build (tensorcast-full.wasm) and the native build keep every
// reference: they are the oracle each SIMD kernel is swept against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "reduce.hpp"
#include "scalar_ops.hpp"
#include "unary_ops.hpp"

namespace tc::simd {

// Element-wise: float16 runs the float32 kernels between conversions; the rest
// where SIMD128 has the instruction.
template <DType D, Op op>
constexpr bool has_vop() {
  using T = typename Storage<D>::T;
  constexpr bool F = is_float_dtype(D);
  constexpr bool I64 = sizeof(T) == 8 && !F;
  if (D == DType::f16) return false;  // float16 runs the float32 kernels (f16_simd_loop)
  switch (op) {
    case Op::add: case Op::sub: return true;
    case Op::mul: return F || (sizeof(T) >= 2 && D != DType::u8c);
    case Op::div: return F;
    case Op::minimum: case Op::maximum: return !I64;
    case Op::equal: case Op::not_equal: return true;
    case Op::less: case Op::less_equal: case Op::greater: case Op::greater_equal: return D != DType::u64;
    case Op::logical_and: case Op::logical_or: case Op::logical_xor: return true;
    case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor: return !F;
    case Op::hypot: return D == DType::f32;  // f64 keeps libm's scaled hypot
    default: return false;  // no SIMD128 instructions: rem, pow, mod, floor_div, atan2, integer div
  }
}
template <DType D, Op op>
constexpr bool binary() {
  return defined_for(D, op) && (D == DType::f16 || has_vop<D, op>());
}

template <DType D, UnaryOp op>
constexpr bool has_uvop() {
  constexpr bool F = D == DType::f32 || D == DType::f64;
  constexpr bool I = D == DType::i8 || D == DType::i16 || D == DType::i32 || D == DType::i64;
  switch (op) {
    case UnaryOp::neg: case UnaryOp::abs: return F || I;
    case UnaryOp::sqrt: case UnaryOp::floor: case UnaryOp::ceil: case UnaryOp::trunc: case UnaryOp::round: return F;
    case UnaryOp::bitwise_not: return I;
    case UnaryOp::exp: case UnaryOp::expm1: case UnaryOp::log: case UnaryOp::log1p: case UnaryOp::tanh:
    case UnaryOp::sigmoid: return D == DType::f32;
    default: return false;
  }
}
template <DType D, UnaryOp op>
constexpr bool unary() {
  if constexpr (!unary_defined(D, op)) return false;
  else if constexpr (D == DType::f16) return true;
  else return !unary_is_identity(D, op) && has_uvop<unary_kernel_dtype(D, op), op>();
}

// Cast: the pairs (cast_kernel_pair's representatives) with a vector step.
template <DType F, DType T>
constexpr bool has_vcast() {
  if constexpr (F == DType::f32 || F == DType::f64)
    return T == DType::i32 || T == DType::u32 || T == (F == DType::f32 ? DType::f64 : DType::f32) || T == DType::u8 ||
           T == DType::u8c;
  else if constexpr (F == DType::u8) return T == DType::i16 || T == DType::i32 || T == DType::f32 || T == DType::f64;
  else if constexpr (F == DType::i32 || F == DType::u32) return T == DType::f32 || T == DType::f64 || T == DType::i64;
  else if constexpr (F == DType::i8 || F == DType::u8) return T == DType::i16;
  else if constexpr (F == DType::i16 || F == DType::u16) return T == DType::i32;
  else return false;
}
template <DType F, DType T>
constexpr bool cast() {
  constexpr CastPair P = cast_kernel_pair(F, T);
  return (F == DType::f16 && T == DType::f32) || (F == DType::f32 && T == DType::f16) ||
         (P.from != P.to && has_vcast<P.from, P.to>());
}

// Reductions: sum for every dtype, prod for floats and 16/32/64-bit integers,
// min/max for every dtype; float16 reduces in float32.
template <DType D, ReduceOp op>
constexpr bool reduce() {
  using T = typename Storage<D>::T;
  if constexpr (D == DType::f16) return false;
  else if constexpr (op == ReduceOp::prod) return is_float_dtype(D) || sizeof(T) >= 2;
  else return op == ReduceOp::sum || op == ReduceOp::min || op == ReduceOp::max;
}

// A SIMD kernel's tail: its last n (1 ... 15) elements of `es` bytes copied
// into the 16 slots of `buf` (16 x 8 bytes), the last one repeated: the kernel
// then runs whole vectors on the copy (padding lanes hold real values, so they
// compute nothing the real ones would not). Stride 0 (one element, splatted)
// is read in place. The last element goes into every slot first, a vector at a
// time, then the n over them (a byte at a time, it took ~30 ns of a tail).
[[gnu::noinline]] inline const void* pad_tail(const void* x, size_t stride, size_t n, size_t es, unsigned char* buf) {
  if (!stride) return x;
#if defined(__wasm_simd128__)
  const unsigned char* last = static_cast<const unsigned char*>(x) + (n - 1) * es;
  const v128_t v = es == 1 ? wasm_v128_load8_splat(last) : es == 2 ? wasm_v128_load16_splat(last)
                 : es == 4 ? wasm_v128_load32_splat(last) : wasm_v128_load64_splat(last);
  for (size_t j = 0; j < es; ++j) wasm_v128_store(buf + 16 * j, v);
  std::memcpy(buf, x, (n - 1) * es);
#else
  std::memcpy(buf, x, n * es);
  for (size_t j = n * es; j < 16 * es; ++j) buf[j] = buf[j - es];  // the last element, again and again
#endif
  return buf;
}

#if defined(TC_LEAN_REFERENCES) && defined(TC_HAVE_SIMD)
constexpr bool kLean = true;
#else
constexpr bool kLean = false;
#endif

}  // namespace tc::simd

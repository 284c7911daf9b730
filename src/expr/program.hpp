// A typed expression program: what the expression engine runs, one element
// (or one block of elements) at a time. Produced by lowering a parsed
// expression (parse.hpp) against its operands' dtypes (lower.cpp); run by the
// block interpreter (interp.cpp) or by a wasm module written for it
// (wasmgen.cpp). Registers are instruction indices (SSA): instruction i
// defines register i; the last instruction is the result.
//
//   (x - m) / s     over float32:
//     0 load   input 0 (x)      f32
//     1 load   input 1 (m)      f32
//     2 binary sub  r0 r1       f32 -> f32
//     3 load   input 2 (s)      f32
//     4 binary div  r2 r3       f32 -> f32
#pragma once

#include <cstdint>
#include "core/pod_vector.hpp"

#include "kernels/kernels.hpp"

namespace tc::expr {

enum class Code : std::uint8_t {
  load,      // a = input index; reads the input's element (its dtype = dtype)
  constant,  // the value in `value` / `bits`, of dtype `dtype`
  binary,    // op = Op; a, b registers of dtype `dtype`; result `out`
  unary,     // op = UnaryOp; a register of dtype `dtype`; result `out`
  select,    // where: a = condition register (dtype `cond`), b, c registers of dtype `dtype`
  cast,      // a register of dtype `dtype`, converted to `out` (cast.cpp's semantics)
};

struct Instr {
  Code code;
  std::uint8_t op = 0;         // Op or UnaryOp
  DType dtype = DType::f32;    // the operands' dtype (select: x's and y's; cast: the source)
  DType out = DType::f32;      // the result's dtype
  DType cond = DType::u8;      // select only: the condition's dtype
  std::int32_t a = -1, b = -1, c = -1;
  // constant: the value as the dtype holds it. Floats: `value` (float32 values
  // are exactly representable as double); integers: `bits`, the two's
  // complement bits (64-bit for bigint dtypes), also in `value` when exact.
  double value = 0;
  std::int64_t bits = 0;
  std::int32_t pos = -1;  // offset in the expression text (errors)
};

struct Program {
  PodVector<Instr> code;
  int inputs = 0;  // loads read inputs 0 .. inputs-1
  DType result() const { return code.empty() ? DType::count : code.back().out; }
};

// How the generated loop reads an input on the innermost loop axis.
enum class InnerForm : std::uint8_t {
  contiguous,  // element stride 1
  splat,       // element stride 0: one value for the whole row
  strided,     // any other element stride (named operands reordered): from the descriptor
};

}  // namespace tc::expr

// The code generator: a small wasm module for one program and one loop form,
// written byte by byte here (no JS code generation, no eval). The engine hands
// the bytes to JS, which compiles them once (WebAssembly.Module) and runs the
// export with a descriptor the engine wrote into its own memory.
//
// The module imports the engine's memory ("env" "memory", limits {min 0}, no
// maximum) and exports one function "run": (i32 desc) -> (). It walks the whole
// loop: an outer odometer of rank R around an inner row of n elements; inputs
// read per their InnerForm (contiguous: a SIMD128 body, unrolled, and a scalar tail;
// splat: loaded once per row; strided: one element at a time).
//
// Descriptor, little-endian i32 words at `desc` (4-byte aligned), written by
// the engine before every run:
//   [0] R      rank of the outer walk (0 .. kMaxRank - 1)
//   [1] n      elements per row (>= 1)
//   [2] rows   product of the outer counts (>= 1)
//   [3 .. 3+R) counts[j]: j = 0 is the outer axis next to the inner one
//   then per slot s = 0 .. S-1 (S = inputs + 1; slot 0 the output, slot 1+k input k):
//        ptr (byte address of the first element), inner stride (bytes; read for
//        InnerForm::strided only), outer strides[j] in bytes, j = 0 .. R-1
//   then R words of scratch (the odometer's counters), zeroed by the engine.
// The output is written at slot 0's pointers the same way (its inner form is
// always contiguous).
//
// Results are bit for bit those of the scalar references (scalar_ops.hpp,
// unary.def's elements, cast.cpp): no FMA contraction, exact division, NaN and
// -0 as the references give them. An instruction the generator cannot emit
// with that guarantee (transcendentals, pow, integer division, 64-bit integer
// multiply, ...) makes generate() return false; the engine then runs the
// program in its block interpreter.
#pragma once

#include <cstdint>
#include "core/pod_vector.hpp"

#include "program.hpp"

namespace tc::expr {

struct LoopForm {
  int rank = 0;                      // R, the outer walk's rank (baked in: the cache key has it)
  PodVector<InnerForm> inputs;     // per input (program.inputs of them)
};

// Whether every instruction of `p` can be emitted (cheap; no bytes written).
bool can_generate(const Program& p);

// Append the module's bytes to `out` (cleared first); false (and `out` empty)
// when some instruction cannot be emitted.
bool generate(const Program& p, const LoopForm& form, PodVector<std::uint8_t>& out);

}  // namespace tc::expr

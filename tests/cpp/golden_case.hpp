// The record type of the golden vectors. tests/tools/golden_to_cpp.mjs turns
// tests/fixtures/golden.json into arrays of these (build/.../golden_cases.inc);
// golden_test.cpp runs every one through the engine.
#pragma once

#include "rules/rules.hpp"

namespace golden {

enum class Family : int {
  Numpy,               // broadcast_numpy(shapes...)
  None,                // broadcast_none(A, B)
  Pdpd,                // broadcast_pdpd(A, B, axis)
  NumpyTo,             // broadcast_to_numpy(input, target)       (-1 = Dim::keep(), spec §5)
  Explicit,            // broadcast_to_explicit(input, target, mapping)
  Bidirectional,       // broadcast_to_bidirectional(input, target)
  PdpdBroadcastOp,     // broadcast_to_pdpd(input, target, axis)
  BroadcastToMinus1,   // broadcast_to_numpy(input, target)       (MindSpore / torch expand)
  OnnxUnidirectional,  // broadcast_to_numpy(B, A)                (spec §4.1)
  NamedMissing,        // broadcast_named(left, right)            (spec §6)
};

// A shape in the dim pool: `rank` dims starting at kDims[first]; rank
// tc::kUnknownRank is "[...]".
struct ShapeRef {
  int rank;
  int first;
};

// Expected status when no particular code is implied by the spec.
constexpr int kAnyError = -1;

struct Case {
  const char* id;      // "cases[12]" / "dynamic_cases[3]": index in golden.json
  const char* name;    // "numpy [2,1,3] [4,1] -> [2,4,3]"
  const char* source;  // where the vector comes from
  const char* note;
  Family family;
  int first_operand;   // operands: kOperands[first_operand .. + n_operands)
  int n_operands;      //   numpy/none: the shapes; pdpd: A, B; *_to/explicit/...: input, target
  tc::i64 axis;        // pdpd / pdpd_broadcast_op
  bool mapping_known;  // explicit: false = axes_mapping is a non-constant input
  int first_mapping;   //   mapping values: kInts[first_mapping .. + mapping_len)
  int mapping_len;
  bool expect_ok;
  ShapeRef expect_shape;  // when expect_ok
  int expect_code;        // when !expect_ok: a tc::Status value, or kAnyError
  int named;              // index into kNamed, or -1
  const char* skip;       // why the case cannot run here, or nullptr
};

// §6: one named dim of an operand. Names and labels are interned ids.
struct NamedDim {
  tc::i64 name;
  tc::i64 size;
  int first_label;  // labels: kInts[first_label .. + size), or -1 = unlabeled
};

struct NamedOperand {
  int rank;
  int first;  // into kNamedDims
};

struct NamedCase {
  NamedOperand left, right;
  int shaping;          // tc::Shaping
  int out_rank;         // expected output dim names: kInts[first_out_name .. + out_rank)
  int first_out_name;
  tc::i64 expect_size;  // element count (positions) of the broadcast operands
  int n_positions;      // expected positions (as a set), -1 = not asserted;
  int first_position;   //   each out_rank label ids at kInts[first_position + p * out_rank]
};

}  // namespace golden

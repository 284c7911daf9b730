// A plan is what every rule returns: the output shape, how each operand lines
// up with it, and what a kernel needs to walk the data. Kernels, error messages
// and the explorer page all read this one structure, so each rule exists once.
//
//   A: [8, 1, 6, 1]                 out: [8, 7, 6, 5]
//   B:    [7, 1, 5]   aligned -> [1, 7, 1, 5]
//   verdicts for B:            new equal stretched equal
//   strides   for B (elements): [0,  5,   0,   1]
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <vector>

#include "pod_vector.hpp"

#include "contract.hpp"
#include "shape.hpp"

namespace tc {

const char* status_name(Status s);

// Where and why a rule refused. Fields that do not apply are -1.
struct Error {
  Status code = Status::Ok;
  int axis = -1;       // output axis of the clash (or offending axis / mapping index)
  int operand_a = -1;  // index of the operand holding dim_a
  int operand_b = -1;  // index of the operand holding dim_b (or -1: the target)
  Dim dim_a{-1, -1};
  Dim dim_b{-1, -1};
  int detail = -1;     // rule-specific: input axis, mapping index, ...
  // Every output axis whose dims disagree (bit i = output axis i), not only
  // `axis` (which stays the first one found, the one the message names).
  std::uint64_t clash_axes = 0;
};

struct OperandPlan {
  Shape shape;                 // the operand's own shape
  int src_axis[kMaxRank];      // per output axis: operand axis feeding it, or -1
  Dim aligned[kMaxRank];       // operand dim aligned to the output rank (1 on new axes)
  i64 strides[kMaxRank];       // element strides into the operand; 0 where stretched/new
  Verdict verdict[kMaxRank];
  // The operand's own axes its rule drops before aligning (bit i = axis i):
  // PDPD's trailing 1s of B. A dropped 1 that still lands inside the output is
  // also mapped there (and stretched), so plans read the same either way.
  std::uint32_t dropped = 0;
};

// Loop shape after merging adjacent axes that broadcast alike (xtensor / XNNPACK),
// with size-1 axes dropped. A 1M-element row broadcast becomes [1024, 1024] with
// strides A [1024, 1], B [0, 1]; a same-shape op becomes one axis.
struct LoopPlan {
  int rank = 0;
  i64 shape[kMaxRank];
  PodVector<std::array<i64, kMaxRank>> strides;  // [operand][loop axis], the first `rank` of each
  // Which 1-d inner loop applies to operands 0 and 1 on the innermost loop axis.
  enum Inner : std::int32_t {
#define TC_INNER(e, name) e,
#include "contract.def"
  };
  Inner inner = Contiguous;
};

struct Plan {
  Shape out;
  PodVector<OperandPlan> ops;
  bool is_static = false;  // strides and loop are only meaningful for static plans
  i64 out_size = 0;        // product of out dims, saturated at INT64_MAX
  LoopPlan loop;
  // Set by callers that only want the output shape (the shape API's hot path):
  // finalize_plan then skips verdicts, strides and the loop, and a rule may
  // leave the operands unaligned (numpy does, for static shapes it accepts):
  // such a plan holds out, out_size and is_static only.
  bool shape_only = false;

  void reset(int n_operands) {
    out.rank = 0;
    ops.resize(static_cast<size_t>(n_operands));
    for (auto& op : ops) op.dropped = 0;
    is_static = false;
    out_size = 0;
    loop.rank = 0;
  }
};

// After a rule has filled out, ops[i].shape, ops[i].src_axis and ops[i].aligned:
// derive verdicts, strides, out_size and the merged loop. Shared by every rule.
void finalize_plan(Plan& plan);

// Operand k of a finalized static plan read with element strides `given` (one
// per axis of its own shape, any integer, negative included) instead of its
// row-major ones: a strided view. Stretched and new axes keep stride 0. Call
// rebuild_loop once every operand is set.
void restride(Plan& plan, int k, const i64* given);
void rebuild_loop(Plan& plan);

// Mark one axis as the clash for the explorer (all operands that disagree there).
void mark_clash(Plan& plan, int axis);

// Element count of a static shape, saturated.
i64 shape_size(const Shape& s);

}  // namespace tc

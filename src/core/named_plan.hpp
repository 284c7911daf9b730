// The named-dimension plan (spec §6): what broadcast_named (src/rules/named.cpp)
// returns beside the Plan, and what the gather kernel (src/kernels/driver.cpp)
// walks. It lives in core/ because both the rules and the kernels read it.
#pragma once

#include <vector>

#include "pod_vector.hpp"

#include "shape.hpp"

namespace tc {

// Names and labels are interned ids (the JS layer maps strings to ids), so the
// rule compares integers.
struct NamedShape {
  int rank = 0;
  i64 name[kMaxRank];
  i64 size[kMaxRank];
  const i64* labels[kMaxRank] = {};  // size[i] coordinate ids, or nullptr = unlabeled
};

enum class Shaping : int {
#define TC_SHAPING(e, name) e,
#include "contract.def"
};

struct NamedAxis {
  i64 name = 0;
  i64 size = 0;
  int left_axis = -1;   // axis in the left operand, -1 = broadcast (missing there)
  int right_axis = -1;  // axis in the right operand
  bool labeled = false;
  PodVector<i64> labels;         // output coordinates (when labeled)
  PodVector<i64> left_index;     // per output coordinate: index into left's, -1 = absent (union)
  PodVector<i64> right_index;    // likewise for right
};

struct NamedPlan {
  std::vector<NamedAxis> axes;
  // True when some shared labeled dim is re-indexed (intersection/union that is
  // not the identity): data must be gathered, plan strides alone do not suffice.
  bool needs_gather = false;
};

}  // namespace tc

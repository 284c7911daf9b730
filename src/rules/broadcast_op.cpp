// §4 the Broadcast operation: data to a target shape (OpenVINO Broadcast-1/-3),
// and §5 -1 targets (MindSpore broadcast_to, torch expand). Every function
// plans one operand, the input; the output is the broadcast result.
#include "detail.hpp"

namespace tc {

namespace {

Status check_two(const Shape& input, const Shape& target, bool allow_keep, Error& err) {
  err = Error{};
  if (validate_shape(input, 0, false, err) != Status::Ok) return err.code;
  return validate_shape(target, 1, allow_keep, err);
}

// A target whose rank is known but whose -1s stand for dims we cannot know.
Shape keep_as_dynamic(const Shape& t) {
  Shape s = t;
  for (int i = 0; s.rank_known() && i < s.rank; ++i)
    if (s.dims[i].is_keep()) s.dims[i] = Dim::dynamic();
  return s;
}

// Both static and incompatible in one direction (input dim must be 1 or equal).
bool one_way_clash(Dim in, Dim t) { return in.is_static() && t.is_static() && in.lo != 1 && in.lo != t.lo; }

// §4.2 with intervals (§7): the input dim can be neither 1 nor the target's
// (OpenVINO's explicit check: target.compatible(in) || in.compatible(1)). For
// static dims, one_way_clash.
bool mapped_clash(Dim in, Dim t) { return !in.may_be(1) && (in.lo > t.hi || t.lo > in.hi); }

}  // namespace

// §4.1 / §5
//   input:        [3, 1, 5, 1]
//   target: [-1, -1, 5, 6] -> [3, 1, 5, 6]   -1 keeps the input's dim
//   input:   [1, 5, 9]  target [3, -1, 4, 1, 5, 9] -> MINUS_ONE_IN_NEW_AXIS at axis 1
Status broadcast_to_numpy(const Shape& input, const Shape& target, Plan& plan, Error& err) {
  plan.reset(1);
  if (check_two(input, target, true, err) != Status::Ok) return err.code;
  plan.ops[0].shape = input;
  if (!target.rank_known()) {
    plan.out = Shape::unknown_rank();
    finalize_plan(plan);
    return Status::Ok;
  }
  if (!input.rank_known()) {
    plan.out = keep_as_dynamic(target);
    for (int a = 0; a < target.rank; ++a) { plan.ops[0].src_axis[a] = -1; }
    finalize_plan(plan);
    return Status::Ok;
  }
  plan.out = keep_as_dynamic(target);
  if (target.rank < input.rank) {
    for (int a = 0; a < target.rank; ++a) plan.ops[0].src_axis[a] = -1;
    detail::fail(err, Status::RankMismatch, -1, 0, -1, Dim::fixed(input.rank), Dim::fixed(target.rank));
    return detail::refuse(plan, err);
  }
  detail::align_right(plan.ops[0], input, target.rank);
  bool failed = false;
  for (int a = target.rank - 1; a >= 0; --a) {
    const Dim t = target.dims[a];
    if (plan.ops[0].src_axis[a] < 0) {
      if (t.is_keep()) {
        detail::clash(err, failed, Status::MinusOneInNewAxis, a, -1, -1, t, t);
      }
      continue;
    }
    const Dim in = plan.ops[0].aligned[a];
    if (t.is_keep()) { plan.out.dims[a] = in; continue; }
    if (one_way_clash(in, t)) {
      detail::clash(err, failed, Status::IncompatibleDims, a, 0, -1, in, t);
    }
    // Partial shapes: no check when either side is dynamic; the output is the target.
  }
  if (failed) return detail::refuse(plan, err);
  finalize_plan(plan);
  return Status::Ok;
}

// §4.2
//   input:  [16]   axesMapping [1]
//   target: [1, 16, 50, 50] -> [1, 16, 50, 50]
//
// The mapping is checked as far as what is known allows, whatever else is
// unknown: each entry non-negative and above the one before (needs nothing),
// one entry per input axis (needs the input's rank), each below the target's
// rank (needs the target's rank). Errors, all INVALID_AXES_MAPPING:
//   wrong length:   detail -1, dim_a = mapping length, dim_b = input rank
//   bad entry i:    detail i,  dim_a = the entry (-1 if negative), dim_b = the
//                   entry before it (-1 for i = 0); axis = the entry when it is
//                   an output axis (out of order), else -1
Status broadcast_to_explicit(const Shape& input, const Shape& target, const i64* mapping,
                             int mapping_len, bool mapping_known, Plan& plan, Error& err) {
  plan.reset(1);
  if (check_two(input, target, false, err) != Status::Ok) return err.code;
  plan.ops[0].shape = input;
  plan.out = target.rank_known() ? target : Shape::unknown_rank();
  for (int a = 0; target.rank_known() && a < target.rank; ++a) plan.ops[0].src_axis[a] = -1;
  // A scalar takes an empty mapping, or a one-entry one (as OpenVINO does: the
  // scalar is then [1]).
  Shape in = input;
  if (in.rank_known() && in.rank == 0 && mapping_len == 1) in.push(Dim::fixed(1));
  if (mapping_known) {
    auto clamp = [](i64 m) { return Dim::fixed(m < 0 ? -1 : (m > kMaxDim ? kMaxDim : m)); };
    if (in.rank_known() && mapping_len != in.rank) {
      detail::fail(err, Status::InvalidAxesMapping, -1, 0, -1, Dim::fixed(mapping_len), Dim::fixed(in.rank), -1);
      return detail::refuse(plan, err);
    }
    for (int i = 0; i < mapping_len; ++i) {
      const i64 m = mapping[i];
      const bool non_negative = m >= 0;
      const bool increasing = i == 0 || m > mapping[i - 1];
      const bool below_rank = !target.rank_known() || m < target.rank;
      if (!non_negative || !increasing || !below_rank) {
        const bool is_axis = non_negative && below_rank && target.rank_known();
        detail::fail(err, Status::InvalidAxesMapping, is_axis ? static_cast<int>(m) : -1, 0, -1, clamp(m),
                     i == 0 ? Dim::fixed(-1) : clamp(mapping[i - 1]), i);
        return detail::refuse(plan, err);
      }
    }
  }
  if (!mapping_known || !input.rank_known() || !target.rank_known()) {
    finalize_plan(plan);
    return Status::Ok;
  }
  for (int i = 0; i < mapping_len; ++i) {
    plan.ops[0].src_axis[mapping[i]] = input.rank == 0 ? -1 : i;
    plan.ops[0].aligned[mapping[i]] = in.dims[i];
  }
  bool failed = false;
  for (int i = mapping_len - 1; i >= 0; --i) {
    const int a = static_cast<int>(mapping[i]);
    if (mapped_clash(in.dims[i], target.dims[a])) {
      detail::clash(err, failed, Status::IncompatibleDims, a, 0, -1, in.dims[i], target.dims[a], i);
    }
  }
  if (failed) return detail::refuse(plan, err);
  finalize_plan(plan);
  return Status::Ok;
}

// §4.3: the shape of input * ones(target) — §1 on the pair; the target may
// have lower rank and its 1s yield to the input.
//   input [1, 3, 1]  target [3, 1] -> [1, 3, 1]
Status broadcast_to_bidirectional(const Shape& input, const Shape& target, Plan& plan, Error& err) {
  if (check_two(input, target, false, err) != Status::Ok) { plan.reset(1); return err.code; }
  const Shape pair[2] = {input, target};
  const Status s = broadcast_numpy(pair, 2, plan, err);
  plan.ops.resize(1);
  finalize_plan(plan);
  if (s != Status::Ok) {
    plan.loop.rank = 0;  // as detail::refuse: nothing to loop over in a refused plan
    detail::mark_clashes(plan, err, detail::Takers::Every);  // the input takes part in every clash
    if (err.operand_a == 1) {  // keep "input first, target second" in the report
      std::swap(err.operand_a, err.operand_b);
      std::swap(err.dim_a, err.dim_b);
    }
    if (err.operand_a < 0) err.operand_a = 0;
    err.operand_b = -1;
  }
  return s;
}

// §4.4
//   input:     [3, 1]   axis 1
//   target: [2, 3, 6] -> [2, 3, 6]   input 1 -> target dim; target 1 -> input dim
//
// With dynamic dims (§7) the output is the target's dim and the input never
// widens it: a static 1 on either side yields to the other side, as for static
// shapes; otherwise an input that may be 1 leaves the target's dim as it is,
// and one that cannot be 1 narrows it to the values both can take (none: a
// clash). OpenVINO narrows in the "may be 1" case too; that would drop target
// values an input 1 keeps.
Status broadcast_to_pdpd(const Shape& input, const Shape& target, i64 axis, Plan& plan, Error& err) {
  plan.reset(1);
  if (check_two(input, target, false, err) != Status::Ok) return err.code;
  plan.ops[0].shape = input;
  if (!target.rank_known() && axis >= -1) {  // an axis below -1 is refused whatever the target's rank
    plan.out = Shape::unknown_rank();
    finalize_plan(plan);
    return Status::Ok;
  }
  plan.out = target;
  for (int a = 0; a < target.rank; ++a) plan.ops[0].src_axis[a] = -1;
  // The axis is checked even when the input's rank is unknown (it needs only the target's).
  if (axis < -1 || axis > target.rank) {
    detail::fail(err, Status::InvalidAxis, -1, 0, -1, input.rank_known() ? Dim::fixed(input.rank) : Dim::dynamic(),
                 target.rank_known() ? Dim::fixed(target.rank) : Dim::dynamic(), static_cast<int>(axis < -1 ? -2 : (axis > kMaxRank ? kMaxRank + 1 : axis)));
    return detail::refuse(plan, err);
  }
  if (!input.rank_known()) {
    // Only a target 1 can take the input's (unknown) dim; the rest stand.
    for (int a = 0; a < target.rank; ++a)
      if (target.dims[a].is(1)) plan.out.dims[a] = Dim::dynamic();
    finalize_plan(plan);
    return Status::Ok;
  }
  const i64 start = axis == -1 ? target.rank - input.rank : axis;
  if (start < 0 || start + input.rank > target.rank) {
    detail::fail(err, Status::RankMismatch, -1, 0, -1, Dim::fixed(input.rank), Dim::fixed(target.rank),
                 static_cast<int>(start < 0 ? -1 : start));
    return detail::refuse(plan, err);
  }
  for (int i = 0; i < input.rank; ++i) {
    plan.ops[0].src_axis[start + i] = i;
    plan.ops[0].aligned[start + i] = input.dims[i];
  }
  bool failed = false;
  for (int i = input.rank - 1; i >= 0; --i) {
    const int a = static_cast<int>(start) + i;
    const Dim in = input.dims[i], t = target.dims[a];
    Dim out = t;
    if (in.is(1)) out = t;
    else if (t.is(1)) out = in;
    else if (!in.may_be(1) && !intersect(in, t, out)) {
      detail::clash(err, failed, Status::IncompatibleDims, a, 0, -1, in, t, i);
      continue;
    }
    plan.out.dims[a] = out;
  }
  if (failed) return detail::refuse(plan, err);
  finalize_plan(plan);
  return Status::Ok;
}

}  // namespace tc

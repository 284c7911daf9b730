// §6 named dimensions — tensorics "broadcast missing dimensions only".
//
//   left:  (x: 2)            right: (y: 2)
//   ->     (x: 2, y: 2)      x is missing on the right, y on the left: both inserted
//   left:  (x: [x1, x2])     right: (x: [x1])
//   ->     intersection (x: [x1]); exact: error — a shared dim is never stretched,
//                            even when one side has size 1.
#include <algorithm>
#include <cstdint>

#include "detail.hpp"

namespace tc {

namespace {

int find_name(const NamedShape& s, i64 name) {
  for (int i = 0; i < s.rank; ++i)
    if (s.name[i] == name) return i;
  return -1;
}

// Duplicate names, sizes out of range, duplicate coordinates: INVALID_SHAPE.
Status validate_named(const NamedShape& s, int operand, Error& err) {
  if (s.rank < 0 || s.rank > kMaxRank) return detail::fail(err, Status::InvalidShape, -1, operand, -1, Dim::fixed(s.rank), Dim::fixed(s.rank), -1);
  for (int i = 0; i < s.rank; ++i) {
    if (s.size[i] < 0 || s.size[i] > kMaxDim)
      return detail::fail(err, Status::InvalidShape, -1, operand, -1, Dim::fixed(0), Dim::fixed(0), i);
    // Duplicate name: detail -3, axis = the second occurrence.
    for (int j = 0; j < i; ++j)
      if (s.name[j] == s.name[i])
        return detail::fail(err, Status::InvalidShape, i, operand, -1, Dim::fixed(j), Dim::fixed(i), -3);
    // Duplicate coordinate within a dim: detail -4, axis = that dim.
    if (s.labels[i]) {
      std::vector<i64> sorted(s.labels[i], s.labels[i] + s.size[i]);
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return detail::fail(err, Status::InvalidShape, i, operand, -1, Dim::fixed(s.size[i]), Dim::fixed(s.size[i]), -4);
    }
  }
  return Status::Ok;
}

// Label -> index over one dim's labels: open addressing in one allocation
// (a node per label, as std::unordered_map makes, costs a malloc each).
class LabelIndex {
 public:
  LabelIndex(const i64* labels, i64 n) {
    size_t cap = 16;
    while (cap < static_cast<size_t>(n) * 2) cap <<= 1;
    mask_ = cap - 1;
    slots_.assign(cap, Slot{0, -1});
    for (i64 i = 0; i < n; ++i) {
      size_t h = hash(labels[i]);
      while (slots_[h].index >= 0) h = (h + 1) & mask_;
      slots_[h] = Slot{labels[i], i};
    }
  }
  i64 find(i64 label) const {
    for (size_t h = hash(label);; h = (h + 1) & mask_) {
      if (slots_[h].index < 0) return -1;
      if (slots_[h].label == label) return slots_[h].index;
    }
  }

 private:
  struct Slot {
    i64 label;
    i64 index;  // -1: empty
  };
  size_t hash(i64 x) const {
    auto v = static_cast<std::uint64_t>(x) * 0x9e3779b97f4a7c15ull;
    return static_cast<size_t>(v ^ (v >> 29)) & mask_;
  }
  size_t mask_ = 0;
  std::vector<Slot> slots_;
};

std::vector<i64> iota_index(i64 n) {
  std::vector<i64> v(static_cast<size_t>(n));
  for (i64 i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

}  // namespace

Status broadcast_named(const NamedShape& left, const NamedShape& right, Shaping shaping,
                       NamedPlan& named, Plan& plan, Error& err) {
  err = Error{};
  named.axes.clear();
  named.needs_gather = false;
  plan.reset(2);
  if (validate_named(left, 0, err) != Status::Ok) return err.code;
  if (validate_named(right, 1, err) != Status::Ok) return err.code;

  // Output axes: left's in order, then right's new ones in theirs.
  for (int i = 0; i < left.rank; ++i) {
    NamedAxis ax;
    ax.name = left.name[i];
    ax.left_axis = i;
    ax.right_axis = find_name(right, left.name[i]);
    named.axes.push_back(std::move(ax));
  }
  for (int j = 0; j < right.rank; ++j) {
    if (find_name(left, right.name[j]) >= 0) continue;
    NamedAxis ax;
    ax.name = right.name[j];
    ax.right_axis = j;
    named.axes.push_back(std::move(ax));
  }
  const int out_rank = static_cast<int>(named.axes.size());
  if (out_rank > kMaxRank)
    // The result, not an operand, is too large: detail -2, dim_a the rank it would have.
    return detail::fail(err, Status::InvalidShape, -1, -1, -1, Dim::fixed(out_rank), Dim::fixed(kMaxRank), -2);

  for (int k = 0; k < 2; ++k) {
    const NamedShape& s = k == 0 ? left : right;
    plan.ops[k].shape.rank = s.rank;
    for (int i = 0; i < s.rank; ++i) plan.ops[k].shape.dims[i] = Dim::fixed(s.size[i]);
  }
  plan.out.rank = out_rank;
  bool failed = false;
  for (int a = 0; a < out_rank; ++a) {
    NamedAxis& ax = named.axes[static_cast<size_t>(a)];
    const int l = ax.left_axis, r = ax.right_axis;
    plan.ops[0].src_axis[a] = l;
    plan.ops[1].src_axis[a] = r;
    plan.ops[0].aligned[a] = l >= 0 ? Dim::fixed(left.size[l]) : Dim::fixed(1);
    plan.ops[1].aligned[a] = r >= 0 ? Dim::fixed(right.size[r]) : Dim::fixed(1);
    if (l < 0 || r < 0) {  // missing on one side: broadcast over the other's extent
      const NamedShape& s = l >= 0 ? left : right;
      const int i = l >= 0 ? l : r;
      ax.size = s.size[i];
      if (s.labels[i]) {
        ax.labeled = true;
        ax.labels.assign(s.labels[i], s.labels[i] + s.size[i]);
        (l >= 0 ? ax.left_index : ax.right_index) = iota_index(ax.size);
      }
      plan.out.dims[a] = Dim::fixed(ax.size);
      continue;
    }
    const i64 ln = left.size[l], rn = right.size[r];
    const i64* ll = left.labels[l];
    const i64* rl = right.labels[r];
    if (!ll || !rl) {
      // Positions only (at most one side labeled): sizes must match, never stretched.
      if (ln != rn) {
        detail::clash(err, failed, Status::IncompatibleDims, a, 0, 1, Dim::fixed(ln), Dim::fixed(rn));
        plan.out.dims[a] = Dim::fixed(ln);
        continue;
      }
      ax.size = ln;
      if (ll || rl) {
        ax.labeled = true;
        ax.labels.assign(ll ? ll : rl, (ll ? ll : rl) + ln);
        ax.left_index = ax.right_index = iota_index(ln);
      }
      plan.out.dims[a] = Dim::fixed(ln);
      continue;
    }
    ax.labeled = true;
    const bool same = ln == rn && std::equal(ll, ll + ln, rl);
    if (shaping == Shaping::Exact || same) {
      if (!same) {
        detail::clash(err, failed, Status::IncompatibleDims, a, 0, 1, Dim::fixed(ln), Dim::fixed(rn), 1);
        plan.out.dims[a] = Dim::fixed(ln);
        continue;
      }
      ax.labels.assign(ll, ll + ln);
      ax.left_index = ax.right_index = iota_index(ln);
    } else {
      // Intersection keeps the labels both have, in left's order; union
      // appends right's extra labels after left's (missing cells are filled).
      // Hashed, so matching is O(n + m): a timestamp axis of millions of
      // labels matches in well under a second, where a pairwise scan took hours.
      const LabelIndex right_at(rl, rn);
      std::vector<char> matched(shaping == Shaping::Union ? static_cast<size_t>(rn) : 0);
      for (i64 i = 0; i < ln; ++i) {
        const i64 j = right_at.find(ll[i]);
        if (j >= 0 && shaping == Shaping::Union) matched[static_cast<size_t>(j)] = 1;
        if (j < 0 && shaping == Shaping::Intersection) continue;
        ax.labels.push_back(ll[i]);
        ax.left_index.push_back(i);
        ax.right_index.push_back(j);
      }
      if (shaping == Shaping::Union) {
        for (i64 j = 0; j < rn; ++j) {
          if (matched[static_cast<size_t>(j)]) continue;
          ax.labels.push_back(rl[j]);
          ax.left_index.push_back(-1);
          ax.right_index.push_back(j);
        }
      }
      named.needs_gather = true;
    }
    ax.size = static_cast<i64>(ax.labels.size());
    plan.out.dims[a] = Dim::fixed(ax.size);
    // A gathered axis is read through the index lists: align it to the
    // operand's own extent so its plan stride stays the operand's own.
    plan.ops[0].aligned[a] = Dim::fixed(ln);
    plan.ops[1].aligned[a] = Dim::fixed(rn);
  }
  if (failed) return detail::refuse(plan, err);
  finalize_plan(plan);
  // Shared dims are matched by name, never stretched: a size-1 side of a
  // union is gathered (index 0 or absent), so its verdict is "equal" even
  // though its stride is 0.
  if (!plan.shape_only) {
    for (int a = 0; a < out_rank; ++a) {
      const NamedAxis& ax = named.axes[static_cast<size_t>(a)];
      if (ax.left_axis >= 0 && ax.right_axis >= 0)
        plan.ops[0].verdict[a] = plan.ops[1].verdict[a] = Verdict::Equal;
    }
  }
  return Status::Ok;
}

}  // namespace tc

// §6 named dimensions — tensorics "broadcast missing dimensions only".
//
//   left:  (x: 2)            right: (y: 2)
//   ->     (x: 2, y: 2)      x is missing on the right, y on the left: both inserted
//   left:  (x: [x1, x2])     right: (x: [x1])
//   ->     intersection (x: [x1]); exact: error — a shared dim is never stretched,
//                            even when one side has size 1.
//
// Shared dims are scanned in output order; the first that clashes fills the
// error (so err.axis is the lowest clashing axis here), every one goes into
// err.clash_axes, and both operands are marked on each (a 1 is no wildcard).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "detail.hpp"

namespace tc {

// The loops over labels (validate_named, match_labels, iota_index: a 1M-label
// union spends its time there) are compiled for speed, each a function of its
// own; the rest of the rule (per axis, at most 32) for size: minsize there is
// 0.9 KB smaller gzipped, where -Os on the whole file measured the label union
// 15-20% slower.
#define TC_HOT __attribute__((noinline))
#if defined(__clang__)
#define TC_COLD __attribute__((minsize))
#else
#define TC_COLD
#endif

namespace {

int find_name(const NamedShape& s, i64 name) {
  for (int i = 0; i < s.rank; ++i)
    if (s.name[i] == name) return i;
  return -1;
}

// Label -> index over one dim's labels, in one allocation of 32-bit slots
// (position + 1; 0 = empty), the labels themselves read from the caller's
// array. Labels that span a range of at most 2n + 64 values (interned ids,
// which the JS API numbers 0, 1, 2, ... in order; indices) are addressed
// directly: slot = label - min, no hashing, and ids in order are written and
// read in order. Others go to open addressing. A node per label, as
// std::unordered_map makes, costs a malloc each; 16-byte slots cost four times
// the memory to fault in. Building it finds a repeated label on the way (the
// first position that repeats an earlier one, in either mode), so checking a
// dim for duplicates and matching it against the other side share one O(n)
// pass. Needs n <= kMaxLabels (< 2^32).
class LabelIndex {
 public:
  // Index labels[0..n); on a label seen before, stops and reports the two
  // positions in dup_first / dup_second (else both stay -1).
  void build(const i64* labels, i64 n) {
    labels_ = labels;
    dup_first = dup_second = -1;
    std::uint64_t lo = n > 0 ? static_cast<std::uint64_t>(labels[0]) : 0, hi = lo;
    for (i64 i = 1; i < n; ++i) {  // min and max as unsigned: any i64 labels map into [lo, hi]
      const auto v = static_cast<std::uint64_t>(labels[i]);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    const std::uint64_t span = hi - lo;
    dense_ = span <= 2 * static_cast<std::uint64_t>(n) + 64;
    if (dense_) {
      base_ = lo;
      slots_.assign(static_cast<size_t>(span) + 1, 0);
      for (i64 i = 0; i < n; ++i) {
        std::uint32_t& s = slots_[static_cast<size_t>(static_cast<std::uint64_t>(labels[i]) - lo)];
        if (s != 0) {
          dup_first = s - 1;
          dup_second = i;
          return;
        }
        s = static_cast<std::uint32_t>(i + 1);
      }
      return;
    }
    size_t cap = 16;
    while (cap < static_cast<size_t>(n) + static_cast<size_t>(n) / 2) cap <<= 1;  // load <= 2/3
    mask_ = cap - 1;
    slots_.assign(cap, 0);
    for (i64 i = 0; i < n; ++i) {
      size_t h = hash(labels[i]);
      for (; slots_[h] != 0; h = (h + 1) & mask_) {
        if (labels[slots_[h] - 1] == labels[i]) {
          dup_first = slots_[h] - 1;
          dup_second = i;
          return;
        }
      }
      slots_[h] = static_cast<std::uint32_t>(i + 1);
    }
  }
  bool built() const { return !slots_.empty(); }
  i64 find(i64 label) const {
    if (dense_) {
      const std::uint64_t off = static_cast<std::uint64_t>(label) - base_;
      return off < slots_.size() ? static_cast<i64>(slots_[static_cast<size_t>(off)]) - 1 : -1;
    }
    for (size_t h = hash(label);; h = (h + 1) & mask_) {
      if (slots_[h] == 0) return -1;
      if (labels_[slots_[h] - 1] == label) return slots_[h] - 1;
    }
  }
  i64 dup_first = -1, dup_second = -1;

 private:
  size_t hash(i64 x) const {
    auto v = static_cast<std::uint64_t>(x) * 0x9e3779b97f4a7c15ull;
    return static_cast<size_t>(v ^ (v >> 29)) & mask_;
  }
  const i64* labels_ = nullptr;
  bool dense_ = false;
  std::uint64_t base_ = 0;
  size_t mask_ = 0;
  PodVector<std::uint32_t> slots_;
};

// Refusals of one operand, all INVALID_SHAPE with operand_a = the operand
// (0 left, 1 right), operand_b = -1, checked in this order:
//   rank outside [0, 32]      axis -1, detail -1, dim_a = dim_b = the rank
//   a size outside [0, 2^53)  axis -1, detail = that dim
//   a dim name twice          axis = the second occurrence, detail -3,
//                             dim_a = the first occurrence, dim_b = axis
//   a label twice in one dim  axis = that dim, detail -4, dim_a / dim_b = the
//                             positions of its first and second occurrence
// and TOO_LARGE for a labeled dim of more than kMaxLabels labels (axis = that
// dim, dim_a = its size, dim_b = the limit).
// (A result of rank over 32 is refused by broadcast_named: detail -2.)
// `index`, when given, keeps each labeled dim's label index for matching.
TC_HOT Status validate_named(const NamedShape& s, int operand, Error& err, LabelIndex* index) {
  if (s.rank < 0 || s.rank > kMaxRank) return detail::fail(err, Status::InvalidShape, -1, operand, -1, Dim::fixed(s.rank), Dim::fixed(s.rank), -1);
  for (int i = 0; i < s.rank; ++i) {
    if (s.size[i] < 0 || s.size[i] > kMaxDim)
      return detail::fail(err, Status::InvalidShape, -1, operand, -1, Dim::fixed(0), Dim::fixed(0), i);
    for (int j = 0; j < i; ++j)
      if (s.name[j] == s.name[i])
        return detail::fail(err, Status::InvalidShape, i, operand, -1, Dim::fixed(j), Dim::fixed(i), -3);
  }
  LabelIndex scratch;
  for (int i = 0; i < s.rank; ++i) {
    if (s.labels[i] && s.size[i] > kMaxLabels)  // (the wasm decoder refuses these first)
      return detail::fail(err, Status::TooLarge, i, operand, -1, Dim::fixed(s.size[i]), Dim::fixed(kMaxLabels), -1);
    if (!s.labels[i] || s.size[i] < 2) continue;
    LabelIndex& ix = index ? index[i] : scratch;
    ix.build(s.labels[i], s.size[i]);
    if (ix.dup_first >= 0)
      return detail::fail(err, Status::InvalidShape, i, operand, -1, Dim::fixed(ix.dup_first), Dim::fixed(ix.dup_second), -4);
  }
  return Status::Ok;
}

TC_HOT PodVector<i64> iota_index(i64 n) {
  PodVector<i64> v(static_cast<size_t>(n));
  for (i64 i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

// The hot part of an intersection or union: match left's labels against
// right's index, then fill the axis' label and index lists.
TC_HOT void match_labels(const i64* ll, i64 ln, const i64* rl, i64 rn, LabelIndex& right_at, Shaping shaping, NamedAxis& ax) {
  if (!right_at.built()) right_at.build(rl, rn);
  // Two passes: count the shared labels, then fill lists sized to their
  // exact length (no regrowth copies; in wasm, no memory grown for nothing).
  // The first pass keeps each left label's match (position + 1, 0 = none:
  // labels are at most kMaxLabels < 2^32), so each is looked up once.
  PodVector<std::uint32_t> match(static_cast<size_t>(ln));
  i64 shared = 0;
  for (i64 i = 0; i < ln; ++i) {
    const i64 j = right_at.find(ll[i]);
    match[static_cast<size_t>(i)] = static_cast<std::uint32_t>(j + 1);
    shared += j >= 0;
  }
  const size_t len = static_cast<size_t>(shaping == Shaping::Union ? ln + rn - shared : shared);
  // Written through pointers: no capacity check per label.
  ax.labels.resize(len);
  ax.left_index.resize(len);
  ax.right_index.resize(len);
  i64* labels = ax.labels.data();
  i64* left_index = ax.left_index.data();
  i64* right_index = ax.right_index.data();
  size_t k = 0;
  PodVector<char> matched(shaping == Shaping::Union ? static_cast<size_t>(rn) : 0);
  for (i64 i = 0; i < ln; ++i) {
    const i64 j = static_cast<i64>(match[static_cast<size_t>(i)]) - 1;
    if (j >= 0 && shaping == Shaping::Union) matched[static_cast<size_t>(j)] = 1;
    if (j < 0 && shaping == Shaping::Intersection) continue;
    labels[k] = ll[i];
    left_index[k] = i;
    right_index[k++] = j;
  }
  if (shaping == Shaping::Union) {
    for (i64 j = 0; j < rn; ++j) {
      if (matched[static_cast<size_t>(j)]) continue;
      labels[k] = rl[j];
      left_index[k] = -1;
      right_index[k++] = j;
    }
  }
}

}  // namespace

TC_COLD Status broadcast_named(const NamedShape& left, const NamedShape& right, Shaping shaping,
                       NamedPlan& named, Plan& plan, Error& err) {
  err = Error{};
  named.axes.clear();
  named.needs_gather = false;
  plan.reset(2);
  LabelIndex right_index[kMaxRank];  // built while checking right for duplicates
  if (validate_named(left, 0, err, nullptr) != Status::Ok) return err.code;
  if (validate_named(right, 1, err, right_index) != Status::Ok) return err.code;

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
    // The result, not an operand, is too large: INVALID_SHAPE, axis -1, no
    // operand (-1, -1), detail -2, dim_a = the rank it would have, dim_b = 32.
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
      match_labels(ll, ln, rl, rn, right_index[r], shaping, ax);
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

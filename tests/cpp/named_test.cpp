// rules/named.cpp — spec §6: named dimensions (tensorics "broadcast missing dimensions only").
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

using namespace tct;
using tc::NamedPlan;
using tc::Shaping;

// Builder: dim(name, size) is unlabeled, lab(name, {labels...}) labeled. Names and
// labels are small integers here (the JS layer interns strings).
// Label storage lives in the builder; shape() points into it, so keep the builder alive.
class N {
 public:
  N& dim(i64 name, i64 size) {
    names_.push_back(name);
    sizes_.push_back(size);
    labels_.emplace_back();
    labeled_.push_back(false);
    return *this;
  }
  N& lab(i64 name, std::vector<i64> labels) {
    names_.push_back(name);
    sizes_.push_back(static_cast<i64>(labels.size()));
    labels_.push_back(std::move(labels));
    labeled_.push_back(true);
    return *this;
  }
  tc::NamedShape shape() const {
    tc::NamedShape s;
    s.rank = static_cast<int>(names_.size());
    for (size_t i = 0; i < names_.size() && i < static_cast<size_t>(tc::kMaxRank); ++i) {
      s.name[i] = names_[i];
      s.size[i] = sizes_[i];
      s.labels[i] = labeled_[i] ? labels_[i].data() : nullptr;
    }
    return s;
  }

 private:
  std::vector<i64> names_, sizes_;
  std::vector<std::vector<i64>> labels_;
  std::vector<bool> labeled_;
};

struct NR {
  Status st;
  NamedPlan named;
  Plan plan;
  Error err;
  std::vector<i64> names() const {
    std::vector<i64> v;
    for (const auto& a : named.axes) v.push_back(a.name);
    return v;
  }
  std::vector<i64> sizes() const {
    std::vector<i64> v;
    for (const auto& a : named.axes) v.push_back(a.size);
    return v;
  }
};

NR bcast(const N& l, const N& r, Shaping shaping = Shaping::Intersection) {
  NR out;
  out.st = tc::broadcast_named(l.shape(), r.shape(), shaping, out.named, out.plan, out.err);
  return out;
}

enum : i64 { X = 1, Y = 2, Z = 3, W = 4 };
enum : i64 { x1 = 101, x2, x3, y1, y2, a, b, c, d };

TEST(Named, MissingDimsAreBroadcast) {  // X{x1,x2} + Y{y1,y2} -> (X,Y), 4 elements
  const NR r = bcast(N().lab(X, {x1, x2}), N().lab(Y, {y1, y2}));
  ASSERT_EQ(r.st, Status::Ok) << str(r.err);
  EXPECT_EQ(r.names(), (V{X, Y}));
  EXPECT_EQ(r.sizes(), (V{2, 2}));
  EXPECT_EQ(r.plan.out_size, 4);
  EXPECT_SHAPE(r.plan.out, S({2, 2}));
  EXPECT_EQ(r.named.axes[0].left_axis, 0);
  EXPECT_EQ(r.named.axes[0].right_axis, -1);
  EXPECT_EQ(r.named.axes[1].left_axis, -1);
  EXPECT_EQ(r.named.axes[1].right_axis, 0);
  EXPECT_EQ(r.named.axes[1].labels, (V{y1, y2}));
  EXPECT_FALSE(r.named.needs_gather);
  EXPECT_EQ(std::vector<i64>(r.plan.ops[0].strides, r.plan.ops[0].strides + 2), (V{1, 0}));
  EXPECT_EQ(std::vector<i64>(r.plan.ops[1].strides, r.plan.ops[1].strides + 2), (V{0, 1}));
  EXPECT_EQ(r.plan.ops[0].verdict[1], Verdict::New);
}

TEST(Named, SharedSizeOneDimIsNeverStretched) {  // X{x1,x2} + X{x1}
  const NR inter = bcast(N().lab(X, {x1, x2}), N().lab(X, {x1}));
  ASSERT_EQ(inter.st, Status::Ok);
  EXPECT_EQ(inter.sizes(), (V{1})) << "intersection X{x1}, not a stretch to 2";
  EXPECT_EQ(inter.named.axes[0].labels, (V{x1}));
  EXPECT_EQ(inter.named.axes[0].left_index, (V{0}));
  EXPECT_EQ(inter.named.axes[0].right_index, (V{0}));
  EXPECT_TRUE(inter.named.needs_gather);

  const NR exact = bcast(N().lab(X, {x1, x2}), N().lab(X, {x1}), Shaping::Exact);
  ASSERT_EQ(exact.st, Status::IncompatibleDims);
  EXPECT_EQ(exact.err.axis, 0);
  EXPECT_DIM(exact.err.dim_a, D(2));
  EXPECT_DIM(exact.err.dim_b, D(1));

  // Without labels a shared dim must have the same size: 1 is a position, not a wildcard.
  const NR plain = bcast(N().dim(X, 1), N().dim(X, 3));
  ASSERT_EQ(plain.st, Status::IncompatibleDims);
  EXPECT_DIM(plain.err.dim_a, D(1));
  EXPECT_DIM(plain.err.dim_b, D(3));
  EXPECT_EQ(bcast(N().dim(X, 3), N().dim(X, 1), Shaping::Union).st, Status::IncompatibleDims);
  EXPECT_EQ(bcast(N().dim(X, 3), N().dim(X, 3)).st, Status::Ok);
}

TEST(Named, OutputOrderIsLeftThenRightsNewDims) {
  const NR r = bcast(N().dim(X, 2).dim(Y, 3), N().dim(Z, 4).dim(Y, 3).dim(W, 5));
  ASSERT_EQ(r.st, Status::Ok) << str(r.err);
  EXPECT_EQ(r.names(), (V{X, Y, Z, W}));
  EXPECT_SHAPE(r.plan.out, S({2, 3, 4, 5}));
  // The right operand's axes are matched by name, not position.
  EXPECT_EQ(r.plan.ops[1].src_axis[0], -1);
  EXPECT_EQ(r.plan.ops[1].src_axis[1], 1);
  EXPECT_EQ(r.plan.ops[1].src_axis[2], 0);
  EXPECT_EQ(r.plan.ops[1].src_axis[3], 2);
  EXPECT_EQ(std::vector<i64>(r.plan.ops[1].strides, r.plan.ops[1].strides + 4), (V{0, 5, 15, 1}));
  // Swapping operands changes the order.
  EXPECT_EQ(bcast(N().dim(Y, 3), N().dim(X, 2)).names(), (V{Y, X}));
}

TEST(Named, Scalars) {
  const NR both = bcast(N(), N());
  ASSERT_EQ(both.st, Status::Ok);
  EXPECT_TRUE(both.named.axes.empty());
  EXPECT_EQ(both.plan.out.rank, 0);
  EXPECT_EQ(both.plan.out_size, 1) << "a scalar has one position";
  const NR r = bcast(N(), N().lab(X, {a, b}));
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.names(), (V{X}));
  EXPECT_EQ(r.named.axes[0].labels, (V{a, b}));
  EXPECT_EQ(r.plan.ops[0].verdict[0], Verdict::New);
}

TEST(Named, IntersectionKeepsLeftOrder) {
  const NR r = bcast(N().lab(X, {c, a, b}), N().lab(X, {b, d, c}));
  ASSERT_EQ(r.st, Status::Ok);
  const auto& ax = r.named.axes[0];
  EXPECT_EQ(ax.labels, (V{c, b}));
  EXPECT_EQ(ax.left_index, (V{0, 2}));
  EXPECT_EQ(ax.right_index, (V{2, 0}));
  EXPECT_EQ(ax.size, 2);
  EXPECT_SHAPE(r.plan.out, S({2}));
}

TEST(Named, EmptyIntersectionIsSizeZero) {
  const NR r = bcast(N().lab(X, {a, b}).dim(Y, 3), N().lab(X, {c, d}));
  ASSERT_EQ(r.st, Status::Ok) << "an empty intersection is not an error";
  EXPECT_EQ(r.sizes(), (V{0, 3}));
  EXPECT_EQ(r.plan.out_size, 0);
}

TEST(Named, Union) {
  const NR r = bcast(N().lab(X, {a, b}), N().lab(X, {b, c}), Shaping::Union);
  ASSERT_EQ(r.st, Status::Ok);
  const auto& ax = r.named.axes[0];
  EXPECT_EQ(ax.labels, (V{a, b, c}));
  EXPECT_EQ(ax.left_index, (V{0, 1, -1})) << "-1: filled with the fill value";
  EXPECT_EQ(ax.right_index, (V{-1, 0, 1}));
  EXPECT_TRUE(r.named.needs_gather);
}

TEST(Named, UnionNeverCallsASharedSizeOneDimStretched) {  // X{a} u X{a,b}
  const NR r = bcast(N().lab(X, {a}), N().lab(X, {a, b}), Shaping::Union);
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_EQ(r.sizes(), (V{2}));
  EXPECT_EQ(r.plan.ops[0].verdict[0], tc::Verdict::Equal);
  EXPECT_EQ(r.plan.ops[1].verdict[0], tc::Verdict::Equal);
  EXPECT_EQ(r.named.axes[0].left_index, (V{0, -1}));
}

TEST(Named, IdenticalLabelsNeedNoGather) {
  for (Shaping s : {Shaping::Exact, Shaping::Intersection, Shaping::Union}) {
    const NR r = bcast(N().lab(X, {a, b}), N().lab(X, {a, b}), s);
    ASSERT_EQ(r.st, Status::Ok);
    EXPECT_FALSE(r.named.needs_gather);
    EXPECT_EQ(r.named.axes[0].labels, (V{a, b}));
  }
  // Same labels in another order are not identical.
  const NR p = bcast(N().lab(X, {a, b}), N().lab(X, {b, a}));
  ASSERT_EQ(p.st, Status::Ok);
  EXPECT_TRUE(p.named.needs_gather);
  EXPECT_EQ(p.named.axes[0].right_index, (V{1, 0}));
  EXPECT_EQ(bcast(N().lab(X, {a, b}), N().lab(X, {b, a}), Shaping::Exact).st, Status::IncompatibleDims);
}

TEST(Named, OneSideLabeled) {
  const NR r = bcast(N().lab(X, {a, b}), N().dim(X, 2));
  ASSERT_EQ(r.st, Status::Ok);
  EXPECT_TRUE(r.named.axes[0].labeled);
  EXPECT_EQ(r.named.axes[0].labels, (V{a, b}));
  EXPECT_EQ(bcast(N().lab(X, {a, b}), N().dim(X, 3)).st, Status::IncompatibleDims);
}

TEST(Named, ErrorAxisIsTheOutputAxis) {
  const NR r = bcast(N().dim(X, 2).dim(Y, 3), N().dim(Y, 4));
  ASSERT_EQ(r.st, Status::IncompatibleDims);
  EXPECT_EQ(r.err.axis, 1);
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 1);
  EXPECT_DIM(r.err.dim_a, D(3));
  EXPECT_DIM(r.err.dim_b, D(4));
}

TEST(NamedValidation, InvalidShapes) {
  EXPECT_EQ(bcast(N().dim(X, 2).dim(X, 2), N()).st, Status::InvalidShape) << "duplicate names";
  EXPECT_EQ(bcast(N(), N().dim(X, -1)).st, Status::InvalidShape) << "negative size";
  EXPECT_EQ(bcast(N(), N().dim(X, tc::kMaxDim + 1)).st, Status::InvalidShape);
  const NR dup = bcast(N(), N().lab(X, {a, b, a}));
  EXPECT_EQ(dup.st, Status::InvalidShape) << "duplicate coordinates";
  EXPECT_EQ(dup.err.operand_a, 1);
  tc::NamedShape big = N().shape();
  big.rank = 33;
  NamedPlan np;
  Plan plan;
  Error err;
  EXPECT_EQ(tc::broadcast_named(big, N().shape(), Shaping::Exact, np, plan, err), Status::InvalidShape);
  big.rank = -1;
  EXPECT_EQ(tc::broadcast_named(N().shape(), big, Shaping::Exact, np, plan, err), Status::InvalidShape);
}

TEST(NamedValidation, OutputRankAbove32) {
  N l, r;
  for (int i = 0; i < 20; ++i) l.dim(100 + i, 1);
  for (int i = 0; i < 20; ++i) r.dim(200 + i, 1);
  const NR out = bcast(l, r);
  EXPECT_EQ(out.st, Status::InvalidShape) << "40 distinct names cannot be an output";
  N r2;
  for (int i = 0; i < 12; ++i) r2.dim(200 + i, 1);
  EXPECT_EQ(bcast(l, r2).st, Status::Ok) << "exactly 32 is fine";
}

}  // namespace

namespace {
// Issue 11: every shared dim that disagrees is marked, not only the first.
TEST(Named, EveryClashingSharedDimIsMarked) {
  const NR r = bcast(N().dim(1, 2).dim(2, 3).dim(3, 4), N().dim(1, 5).dim(3, 6));
  ASSERT_EQ(r.st, Status::IncompatibleDims);
  EXPECT_EQ(r.err.clash_axes, 0b101u) << "dims 1 (axis 0) and 3 (axis 2) disagree";
  EXPECT_EQ(r.plan.ops[0].verdict[0], tc::Verdict::Clash);
  EXPECT_EQ(r.plan.ops[0].verdict[2], tc::Verdict::Clash);
  EXPECT_NE(r.plan.ops[0].verdict[1], tc::Verdict::Clash);
}
}  // namespace

namespace {
// Issue 11: a union of rank 40 blames the result, not an operand.
TEST(NamedValidation, ResultRankOverTheLimitBlamesNoOperand) {
  N l, r;
  for (i64 i = 0; i < 20; ++i) l.dim(100 + i, 2);
  for (i64 i = 0; i < 20; ++i) r.dim(200 + i, 2);
  const NR res = bcast(l, r);
  ASSERT_EQ(res.st, Status::InvalidShape);
  EXPECT_EQ(res.err.detail, -2);
  EXPECT_EQ(res.err.operand_a, -1);
  EXPECT_EQ(res.err.operand_b, -1);
  EXPECT_EQ(res.err.dim_a.lo, 40);
}
}  // namespace

namespace {
// Issue 11: labels are matched by hashing. 200k-label axes (a disjoint union,
// a reversed intersection) give the right labels; pairwise matching made
// these take seconds.
TEST(Named, LargeLabelAxes) {
  const i64 n = 200000;
  std::vector<i64> a(n), b(n), rev(n);
  for (i64 i = 0; i < n; ++i) { a[i] = i; b[i] = n + i; rev[i] = n - 1 - i; }
  const NR u = bcast(N().lab(1, a), N().lab(1, b), Shaping::Union);
  ASSERT_EQ(u.st, Status::Ok);
  ASSERT_EQ(u.named.axes[0].labels.size(), static_cast<size_t>(2 * n));
  EXPECT_EQ(u.named.axes[0].labels[n - 1], n - 1);
  EXPECT_EQ(u.named.axes[0].labels[n], n) << "the right's new labels follow the left's";
  EXPECT_EQ(u.named.axes[0].left_index[n], -1);
  EXPECT_EQ(u.named.axes[0].right_index[n], 0);
  const NR x = bcast(N().lab(1, a), N().lab(1, rev), Shaping::Intersection);
  ASSERT_EQ(x.st, Status::Ok);
  ASSERT_EQ(x.named.axes[0].labels.size(), static_cast<size_t>(n));
  EXPECT_EQ(x.named.axes[0].labels[0], 0) << "left's order";
  EXPECT_EQ(x.named.axes[0].right_index[0], n - 1);
  EXPECT_EQ(x.named.axes[0].right_index[n - 1], 0);
}
}  // namespace

namespace {
// Issue 11 item 1 for §6: both operands are marked on every shared dim that
// clashes, a size-1 side too (it is a position, not a wildcard); err.axis is
// the first clashing shared dim in output order (the lowest).
TEST(Named, ClashMarksBothSidesEvenASizeOne) {
  const NR r = bcast(N().dim(X, 1).dim(Y, 3).dim(Z, 4), N().dim(Z, 6).dim(X, 7).dim(W, 2));
  ASSERT_EQ(r.st, Status::IncompatibleDims);
  EXPECT_EQ(r.err.clash_axes, 0b101u) << "X (axis 0) and Z (axis 2)";
  EXPECT_EQ(r.err.axis, 0) << "the lowest";
  EXPECT_EQ(r.err.operand_a, 0);
  EXPECT_EQ(r.err.operand_b, 1);
  EXPECT_DIM(r.err.dim_a, D(1));
  EXPECT_DIM(r.err.dim_b, D(7));
  EXPECT_EQ(r.err.detail, -1) << "sizes, not labels";
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(r.plan.ops[static_cast<size_t>(k)].verdict[0], Verdict::Clash) << k;
    EXPECT_EQ(r.plan.ops[static_cast<size_t>(k)].verdict[2], Verdict::Clash) << k;
  }
  EXPECT_NE(r.plan.ops[1].verdict[1], Verdict::Clash) << "Y is new to the right";
  EXPECT_NE(r.plan.ops[0].verdict[3], Verdict::Clash) << "W is new to the left";
  // Exact shaping: different labels are a clash with detail 1.
  const NR e = bcast(N().lab(X, {a, b}).lab(Y, {c}), N().lab(X, {b, a}).lab(Y, {d}), Shaping::Exact);
  ASSERT_EQ(e.st, Status::IncompatibleDims);
  EXPECT_EQ(e.err.clash_axes, 0b11u);
  EXPECT_EQ(e.err.detail, 1) << "the labels differ";
}

// Issue 11 item 5: the error fields of each named refusal.
TEST(NamedValidation, ErrorFields) {
  // A dim name twice: detail -3, axis = the second occurrence, dim_a = the first.
  const NR n = bcast(N().dim(X, 2), N().dim(Y, 2).dim(Z, 3).dim(Y, 4));
  ASSERT_EQ(n.st, Status::InvalidShape);
  EXPECT_EQ(n.err.detail, -3);
  EXPECT_EQ(n.err.axis, 2);
  EXPECT_EQ(n.err.operand_a, 1);
  EXPECT_EQ(n.err.operand_b, -1);
  EXPECT_DIM(n.err.dim_a, D(0));
  EXPECT_DIM(n.err.dim_b, D(2));
  // A label twice in one dim: detail -4, axis = that dim, dims = the two positions.
  const NR l = bcast(N().dim(X, 2).lab(Y, {a, b, c, b}), N());
  ASSERT_EQ(l.st, Status::InvalidShape);
  EXPECT_EQ(l.err.detail, -4);
  EXPECT_EQ(l.err.axis, 1);
  EXPECT_EQ(l.err.operand_a, 0);
  EXPECT_EQ(l.err.operand_b, -1);
  EXPECT_DIM(l.err.dim_a, D(1));
  EXPECT_DIM(l.err.dim_b, D(3));
  // Names are checked before labels, the left operand before the right.
  EXPECT_EQ(bcast(N().lab(X, {a, a}).dim(Y, 1).dim(Y, 1), N()).err.detail, -3);
  EXPECT_EQ(bcast(N().lab(X, {a, a}), N().dim(Y, 1).dim(Y, 1)).err.operand_a, 0);
  // The same label in two dims, or on both sides, is no duplicate.
  EXPECT_EQ(bcast(N().lab(X, {a, b}).lab(Y, {a, b}), N().lab(X, {b, a})).st, Status::Ok);
  // A result of rank over 32: detail -2, no operand, no axis, dim_a = its rank, dim_b = 32.
  N big_l, big_r;
  for (i64 i = 0; i < 30; ++i) big_l.dim(100 + i, 1);
  for (i64 i = 0; i < 5; ++i) big_r.dim(200 + i, 1);
  const NR big = bcast(big_l, big_r);
  ASSERT_EQ(big.st, Status::InvalidShape);
  EXPECT_EQ(big.err.detail, -2);
  EXPECT_EQ(big.err.axis, -1);
  EXPECT_EQ(big.err.operand_a, -1);
  EXPECT_EQ(big.err.operand_b, -1);
  EXPECT_DIM(big.err.dim_a, D(35));
  EXPECT_DIM(big.err.dim_b, D(32));
  EXPECT_EQ(big.err.clash_axes, 0u);
}

// Large axes: a duplicate among 200k labels is found (hashed, with its
// positions); a union of partly shared labels keeps left's then right's new.
TEST(Named, LargeLabelAxesDuplicatesAndOverlap) {
  const i64 n = 200000;
  std::vector<i64> big(n);
  for (i64 i = 0; i < n; ++i) big[static_cast<size_t>(i)] = i * 1024;  // a power-of-two stride
  std::vector<i64> dup = big;
  dup[static_cast<size_t>(n - 1)] = big[12345];
  const NR d = bcast(N().lab(X, big), N().lab(X, dup));
  ASSERT_EQ(d.st, Status::InvalidShape);
  EXPECT_EQ(d.err.detail, -4);
  EXPECT_EQ(d.err.operand_a, 1);
  EXPECT_DIM(d.err.dim_a, D(12345));
  EXPECT_DIM(d.err.dim_b, D(n - 1));
  // Right: every other label of left (descending) plus n new ones.
  std::vector<i64> right;
  for (i64 i = n - 2; i >= 0; i -= 2) right.push_back(i * 1024);
  for (i64 i = 0; i < n / 2; ++i) right.push_back(-1 - i);
  const NR u = bcast(N().lab(X, big), N().lab(X, right), Shaping::Union);
  ASSERT_EQ(u.st, Status::Ok);
  const auto& ax = u.named.axes[0];
  ASSERT_EQ(ax.labels.size(), static_cast<size_t>(n + n / 2));
  for (i64 i = 0; i < n; ++i) {
    ASSERT_EQ(ax.labels[static_cast<size_t>(i)], i * 1024);
    ASSERT_EQ(ax.left_index[static_cast<size_t>(i)], i);
    ASSERT_EQ(ax.right_index[static_cast<size_t>(i)], i % 2 == 0 ? (n - 2 - i) / 2 : -1) << i;
  }
  EXPECT_EQ(ax.labels[static_cast<size_t>(n)], -1) << "right's new labels follow, in right's order";
  EXPECT_EQ(ax.right_index[static_cast<size_t>(n)], n / 2);
  EXPECT_EQ(ax.labels.back(), -n / 2);
  const NR x = bcast(N().lab(X, right), N().lab(X, big), Shaping::Intersection);
  ASSERT_EQ(x.st, Status::Ok);
  ASSERT_EQ(x.named.axes[0].labels.size(), static_cast<size_t>(n / 2));
  EXPECT_EQ(x.named.axes[0].labels[0], (n - 2) * 1024) << "left's (descending) order";
  EXPECT_EQ(x.named.axes[0].right_index[0], n - 2);
}
}  // namespace

namespace {
// Issue 23: labels spanning a compact range (interned ids, indices) are
// addressed directly; sparse ones hashed. Both give the same matches and the
// same duplicate positions (the first position that repeats an earlier one).
TEST(Named, CompactAndSparseLabelsMatchAlike) {
  const i64 n = 5000;
  for (const i64 scale : {i64{1}, i64{1000003}}) {
    std::vector<i64> a(n), b(n);
    for (i64 i = 0; i < n; ++i) {
      a[i] = i * scale;
      b[i] = ((i * 7919) % n + n / 2) * scale;  // a permutation of [n/2, 3n/2), times scale
    }
    const NR u = bcast(N().lab(1, a), N().lab(1, b), Shaping::Union);
    ASSERT_EQ(u.st, Status::Ok) << scale;
    const auto& ax = u.named.axes[0];
    ASSERT_EQ(ax.labels.size(), static_cast<size_t>(n + n / 2));
    for (i64 i = 0; i < n; ++i) {
      ASSERT_EQ(ax.labels[i], i * scale);
      const i64 j = ax.right_index[i];
      if (i < n / 2) ASSERT_EQ(j, -1) << i;
      else ASSERT_EQ(b[j], a[i]) << i;
    }
    for (size_t k = n; k < ax.labels.size(); ++k) {
      ASSERT_EQ(ax.left_index[k], -1);
      ASSERT_EQ(b[ax.right_index[k]], ax.labels[k]);
      ASSERT_GE(ax.labels[k], n * scale) << "only right's labels that left lacks";
    }
    std::vector<i64> d = b;
    d[4000] = d[1234];
    d[4500] = d[77];
    const NR e = bcast(N().lab(1, a), N().lab(1, d), Shaping::Union);
    ASSERT_EQ(e.st, Status::InvalidShape);
    EXPECT_EQ(e.err.detail, -4);
    EXPECT_EQ(e.err.operand_a, 1);
    EXPECT_EQ(e.err.dim_a.lo, 1234) << "first occurrence of the first repeat";
    EXPECT_EQ(e.err.dim_b.lo, 4000);
  }
  // Negative labels (C++ callers) and a range that wraps: hashed, still right.
  const NR w = bcast(N().lab(1, {-1, 0, INT64_MAX}), N().lab(1, {INT64_MAX, -1, 5}), Shaping::Intersection);
  ASSERT_EQ(w.st, Status::Ok);
  ASSERT_EQ(w.named.axes[0].labels, (std::vector<i64>{-1, INT64_MAX}));
  const NR z = bcast(N().lab(1, {3, 4, 3}), N().lab(1, {1}), Shaping::Union);
  EXPECT_EQ(z.err.detail, -4);
  EXPECT_EQ(z.err.dim_a.lo, 0);
  EXPECT_EQ(z.err.dim_b.lo, 2);
}
}  // namespace

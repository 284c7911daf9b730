#include "plan.hpp"

#include <utility>

namespace tc {

const char* status_name(Status s) {
  static constexpr const char* names[] = {
#define TC_STATUS(e, code) code,
#include "contract.def"
  };
  const auto i = static_cast<std::size_t>(s);
  return i < sizeof names / sizeof names[0] ? names[i] : "UNKNOWN";
}

i64 shape_size(const Shape& s) {
  i64 n = 1;
  for (int i = 0; i < s.rank; ++i) n = sat_mul(n, s.dims[i].lo);
  return n;
}

namespace {

// Row-major element strides of an operand's own shape, saturated (shapes may be
// descriptions too large to exist; their strides are never used to read data).
void own_strides(const Shape& s, i64* st) {
  i64 acc = 1;
  for (int i = s.rank - 1; i >= 0; --i) {
    st[i] = acc;
    acc = sat_mul(acc, s.dims[i].lo);
  }
}

void build_loop(Plan& plan) {
  LoopPlan& L = plan.loop;
  const size_t n = plan.ops.size();
  // Resize without freeing: a reused Plan keeps its capacity, so a warm call
  // allocates nothing.
  L.strides.resize(n);
  L.rank = 0;
  if (plan.out_size == 0) {
    L.rank = 1;
    L.shape[0] = 0;
    for (auto& v : L.strides) v[0] = 1;
    L.inner = LoopPlan::Contiguous;
    return;
  }
  // Walk output axes from innermost to outermost, skipping size-1 axes, and
  // fold an axis into the current group when every operand's stride on it
  // continues the group (stride_outer == stride_inner * extent_inner). Two
  // stretched axes (stride 0) merge too: 0 == 0 * extent. Groups are built
  // innermost-first in L.shape / L.strides and reversed at the end.
  int m = 0;
  for (int a = plan.out.rank - 1; a >= 0; --a) {
    const i64 ext = plan.out.dims[a].lo;
    if (ext == 1) continue;
    bool merge = m > 0;
    for (size_t k = 0; merge && k < n; ++k) {
      const i64 inner = L.strides[k][static_cast<size_t>(m - 1)];
      if (plan.ops[k].strides[a] != sat_mul(inner, L.shape[m - 1])) merge = false;
    }
    if (merge) {
      L.shape[m - 1] = sat_mul(L.shape[m - 1], ext);
    } else {
      L.shape[m] = ext;
      for (size_t k = 0; k < n; ++k) L.strides[k][static_cast<size_t>(m)] = plan.ops[k].strides[a];
      ++m;
    }
  }
  if (m == 0) {  // every axis has extent 1 (or rank 0): one element
    L.shape[0] = 1;
    for (size_t k = 0; k < n; ++k) L.strides[k][0] = 1;
    m = 1;
  }
  for (int i = 0, j = m - 1; i < j; ++i, --j) {
    std::swap(L.shape[i], L.shape[j]);
    for (size_t k = 0; k < n; ++k) std::swap(L.strides[k][static_cast<size_t>(i)], L.strides[k][static_cast<size_t>(j)]);
  }
  L.rank = m;
  // A size-1 innermost extent reads one element either way: call it contiguous.
  auto inner_of = [&](size_t k) -> i64 {
    if (k >= n) return 1;
    if (L.shape[m - 1] == 1) return 1;
    return L.strides[k][static_cast<size_t>(m - 1)];
  };
  const i64 s0 = inner_of(0), s1 = inner_of(1);
  if (s0 == 1 && s1 == 1) L.inner = LoopPlan::Contiguous;
  else if (s0 == 1 && s1 == 0) L.inner = LoopPlan::SecondScalar;
  else if (s0 == 0 && s1 == 1) L.inner = LoopPlan::FirstScalar;
  else if (s0 == 0 && s1 == 0) L.inner = LoopPlan::BothScalar;
  else L.inner = LoopPlan::Strided;
}

}  // namespace

void finalize_plan(Plan& plan) {
  bool all_static = plan.out.is_static();
  for (auto& op : plan.ops) all_static = all_static && op.shape.is_static();
  plan.is_static = all_static;
  plan.out_size = plan.out.rank_known() ? shape_size(plan.out) : 0;
  if (plan.shape_only) {
    plan.loop.rank = 0;
    return;
  }
  if (!plan.out.rank_known()) {
    plan.out_size = 0;
    plan.loop.rank = 0;
    return;
  }
  for (auto& op : plan.ops) {
    i64 own[kMaxRank];
    if (op.shape.rank_known()) own_strides(op.shape, own);
    for (int a = 0; a < plan.out.rank; ++a) {
      const int s = op.src_axis[a];
      const Dim out = plan.out.dims[a];
      if (s < 0) {
        op.aligned[a] = Dim::fixed(1);
        op.verdict[a] = Verdict::New;
        op.strides[a] = 0;
        continue;
      }
      const Dim d = op.aligned[a];
      op.verdict[a] = (d.is(1) && !out.is(1)) ? Verdict::Stretched : Verdict::Equal;
      op.strides[a] = !all_static ? -1 : (d.is(1) ? 0 : own[s]);
    }
  }
  if (all_static) build_loop(plan);
  else plan.loop.rank = 0;
}

void restride(Plan& plan, int k, const i64* given) {
  OperandPlan& op = plan.ops[static_cast<size_t>(k)];
  for (int a = 0; a < plan.out.rank; ++a) {
    const int s = op.src_axis[a];
    if (s >= 0 && !op.aligned[a].is(1)) op.strides[a] = given[s];
  }
}

void rebuild_loop(Plan& plan) {
  if (plan.is_static && !plan.shape_only && plan.out.rank_known()) build_loop(plan);
}

void mark_clash(Plan& plan, int axis) {
  if (axis < 0 || axis >= plan.out.rank) return;
  for (auto& op : plan.ops) {
    if (op.src_axis[axis] >= 0 && !op.aligned[axis].is(1)) op.verdict[axis] = Verdict::Clash;
  }
}

}  // namespace tc

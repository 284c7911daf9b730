#include "driver.hpp"

#include <cstring>
#include <vector>

namespace tc {

namespace {

// Odometer over the outer loop axes (all but the innermost). Calls
// row(offsets...) once per innermost row with each operand's element offset.
template <size_t N, typename Row>
void walk_rows(const LoopPlan& L, Row&& row) {
  const int m = L.rank;
  i64 idx[kMaxRank] = {0};
  i64 off[N] = {0};
  i64 rows = 1;
  for (int d = 0; d < m - 1; ++d) rows *= L.shape[d];
  for (i64 r = 0; r < rows; ++r) {
    row(off, r);
    for (int d = m - 2; d >= 0; --d) {  // advance the odometer
      for (size_t k = 0; k < N; ++k) off[k] += L.strides[k][static_cast<size_t>(d)];
      if (++idx[d] < L.shape[d]) break;
      for (size_t k = 0; k < N; ++k) off[k] -= L.strides[k][static_cast<size_t>(d)] * L.shape[d];
      idx[d] = 0;
    }
  }
}

bool runnable(const Plan& plan, size_t n_ops) {
  return plan.is_static && plan.ops.size() == n_ops && plan.loop.rank >= 1 && plan.loop.strides.size() == n_ops;
}

}  // namespace

Status run_binary(const Plan& plan, DType dt, Op op, const void* a, const void* b, void* out) {
  if (!runnable(plan, 2)) return Status::InvalidShape;
  if (!op_defined(dt, op)) return Status::DtypeMismatch;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const i64 n = L.shape[L.rank - 1];
  const size_t es = dtype_size(dt);
  const size_t os = op_yields_bool(op) ? 1 : es;
  const auto* pa = static_cast<const char*>(a);
  const auto* pb = static_cast<const char*>(b);
  auto* po = static_cast<char*>(out);
  const i64 sa = L.strides[0][static_cast<size_t>(L.rank - 1)];
  const i64 sb = L.strides[1][static_cast<size_t>(L.rank - 1)];
  const LoopPlan::Inner inner = L.inner;
  const BinaryKernel vv = find_kernel(dt, op, Form::vv);
  const BinaryKernel vs = find_kernel(dt, op, Form::vs);
  const BinaryKernel sv = find_kernel(dt, op, Form::sv);
  walk_rows<2>(L, [&](const i64* off, i64 r) {
    const char* ra = pa + off[0] * static_cast<i64>(es);
    const char* rb = pb + off[1] * static_cast<i64>(es);
    char* ro = po + r * n * static_cast<i64>(os);
    switch (inner) {
      case LoopPlan::Contiguous: vv(ra, rb, ro, static_cast<size_t>(n)); break;
      case LoopPlan::SecondScalar: vs(ra, rb, ro, static_cast<size_t>(n)); break;
      case LoopPlan::FirstScalar: sv(ra, rb, ro, static_cast<size_t>(n)); break;
      case LoopPlan::BothScalar:
        vv(ra, rb, ro, 1);
        for (i64 i = 1; i < n; ++i) std::memcpy(ro + i * static_cast<i64>(os), ro, os);
        break;
      default:  // permuted operands (named dims): element by element
        for (i64 i = 0; i < n; ++i) vv(ra + i * sa * static_cast<i64>(es), rb + i * sb * static_cast<i64>(es), ro + i * static_cast<i64>(os), 1);
    }
  });
  return Status::Ok;
}

Status run_copy(const Plan& plan, size_t es, const void* in, void* out) {
  if (!runnable(plan, 1) || es == 0) return Status::InvalidShape;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const i64 n = L.shape[L.rank - 1];
  const i64 s = L.strides[0][static_cast<size_t>(L.rank - 1)];
  const auto* pi = static_cast<const char*>(in);
  auto* po = static_cast<char*>(out);
  const size_t row_bytes = static_cast<size_t>(n) * es;
  // A row whose input offset equals the previous row's is a repeat (an outer
  // stretched axis): copy it from the output, which is hot in cache.
  i64 prev_off = -1;
  char* prev_row = nullptr;
  walk_rows<1>(L, [&](const i64* off, i64 r) {
    char* ro = po + r * static_cast<i64>(row_bytes);
    if (off[0] == prev_off && prev_row) {
      std::memcpy(ro, prev_row, row_bytes);
    } else if (s == 1) {
      std::memcpy(ro, pi + off[0] * static_cast<i64>(es), row_bytes);
    } else if (s == 0) {
      const char* src = pi + off[0] * static_cast<i64>(es);
      // Fill by doubling: one element, then copies of what is written.
      std::memcpy(ro, src, es);
      size_t done = es;
      while (done < row_bytes) {
        const size_t c = done < row_bytes - done ? done : row_bytes - done;
        std::memcpy(ro + done, ro, c);
        done += c;
      }
    } else {
      for (i64 i = 0; i < n; ++i) std::memcpy(ro + i * static_cast<i64>(es), pi + (off[0] + i * s) * static_cast<i64>(es), es);
    }
    prev_off = off[0];
    prev_row = ro;
  });
  return Status::Ok;
}

namespace {

template <typename C>
bool truthy(const char* p) {
  C v;
  std::memcpy(&v, p, sizeof v);
  return v != 0;
}

using TruthFn = bool (*)(const char*);

TruthFn truth_fn(DType dt) {
  switch (dt) {
    case DType::f32: return &truthy<float>;
    case DType::f64: return &truthy<double>;
    case DType::i8: case DType::u8: case DType::u8c: return &truthy<uint8_t>;
    case DType::i16: case DType::u16: return &truthy<uint16_t>;
    case DType::i32: case DType::u32: return &truthy<uint32_t>;
    case DType::i64: case DType::u64: return &truthy<uint64_t>;
    default: return nullptr;
  }
}

template <size_t ES>
void select_row(const char* c, i64 sc, size_t cs, TruthFn t, const char* x, i64 sx, const char* y, i64 sy, char* o, i64 n) {
  for (i64 i = 0; i < n; ++i) {
    const char* src = t(c + i * sc * static_cast<i64>(cs)) ? x + i * sx * static_cast<i64>(ES) : y + i * sy * static_cast<i64>(ES);
    std::memcpy(o + i * static_cast<i64>(ES), src, ES);
  }
}

}  // namespace

Status run_where(const Plan& plan, DType cond_dt, size_t es, const void* cond, const void* x, const void* y, void* out) {
  if (!runnable(plan, 3)) return Status::InvalidShape;
  const TruthFn t = truth_fn(cond_dt);
  if (!t || (es != 1 && es != 2 && es != 4 && es != 8)) return Status::DtypeMismatch;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const size_t last = static_cast<size_t>(L.rank - 1);
  const i64 n = L.shape[last];
  const size_t cs = dtype_size(cond_dt);
  const i64 sc = L.strides[0][last], sx = L.strides[1][last], sy = L.strides[2][last];
  const auto* pc = static_cast<const char*>(cond);
  const auto* px = static_cast<const char*>(x);
  const auto* py = static_cast<const char*>(y);
  auto* po = static_cast<char*>(out);
  walk_rows<3>(L, [&](const i64* off, i64 r) {
    const char* rc = pc + off[0] * static_cast<i64>(cs);
    const char* rx = px + off[1] * static_cast<i64>(es);
    const char* ry = py + off[2] * static_cast<i64>(es);
    char* ro = po + r * n * static_cast<i64>(es);
    switch (es) {
      case 1: select_row<1>(rc, sc, cs, t, rx, sx, ry, sy, ro, n); break;
      case 2: select_row<2>(rc, sc, cs, t, rx, sx, ry, sy, ro, n); break;
      case 4: select_row<4>(rc, sc, cs, t, rx, sx, ry, sy, ro, n); break;
      default: select_row<8>(rc, sc, cs, t, rx, sx, ry, sy, ro, n); break;
    }
  });
  return Status::Ok;
}

Status run_binary_gather(const Plan& plan, const NamedPlan& named, DType dt, Op op, const void* a, const void* b,
                         const void* fill_a, const void* fill_b, void* out) {
  if (!plan.is_static || plan.ops.size() != 2 || named.axes.size() != static_cast<size_t>(plan.out.rank))
    return Status::InvalidShape;
  if (!op_defined(dt, op)) return Status::DtypeMismatch;
  const BinaryKernel k = find_reference(dt, op, Form::vv);
  const int rank = plan.out.rank;
  const size_t es = dtype_size(dt);
  const size_t os = op_yields_bool(op) ? 1 : es;
  i64 own[2][kMaxRank];
  for (int s = 0; s < 2; ++s) {
    const Shape& sh = plan.ops[static_cast<size_t>(s)].shape;
    i64 acc = 1;
    for (int i = sh.rank - 1; i >= 0; --i) { own[s][i] = acc; acc *= sh.dims[i].lo; }
  }
  i64 idx[kMaxRank] = {0};
  for (i64 e = 0; e < plan.out_size; ++e) {
    const void* src[2] = {nullptr, nullptr};
    for (int s = 0; s < 2; ++s) {
      i64 off = 0;
      bool absent = false;
      for (int a = 0; a < rank; ++a) {
        const NamedAxis& ax = named.axes[static_cast<size_t>(a)];
        const int sa = s == 0 ? ax.left_axis : ax.right_axis;
        if (sa < 0) continue;  // a missing dim: broadcast
        i64 j = idx[a];
        if (ax.labeled) {
          const auto& map = s == 0 ? ax.left_index : ax.right_index;
          j = map[static_cast<size_t>(idx[a])];
          if (j < 0) { absent = true; break; }
        }
        off += j * own[s][sa];
      }
      const void* base = s == 0 ? a : b;
      src[s] = absent ? (s == 0 ? fill_a : fill_b) : static_cast<const char*>(base) + off * static_cast<i64>(es);
    }
    k(src[0], src[1], static_cast<char*>(out) + e * static_cast<i64>(os), 1);
    for (int a = rank - 1; a >= 0; --a) {
      if (++idx[a] < plan.out.dims[a].lo) break;
      idx[a] = 0;
    }
  }
  return Status::Ok;
}

}  // namespace tc

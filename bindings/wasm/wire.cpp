// Encoding and decoding of the wire format (wire.hpp). Nothing here throws.
#include "wire.hpp"

namespace tc::wire {

namespace {

bool is_int(double v) { return v == static_cast<double>(static_cast<i64>(v)); }

bool read_dim(Reader& r, Dim& d) {
  const double v = r.next();
  if (v >= 0) {
    d = is_dim_value(v) ? Dim::fixed(static_cast<i64>(v)) : Dim{-3, -3};  // invalid: fails validate_shape
  } else if (v == -1) {
    d = Dim::keep();
  } else if (v == -2) {
    const double lo = r.next(), hi = r.next();
    if (!is_dim_value(lo) || !(hi == -1 || is_dim_value(hi))) d = Dim{-3, -3};
    else d = Dim{static_cast<i64>(lo), hi == -1 ? kUnbounded : static_cast<i64>(hi)};
  } else {
    d = Dim{-3, -3};
  }
  return r.ok;
}

}  // namespace

bool read_shape(Reader& r, Shape& s) {
  const double rank = r.next();
  if (rank == -1) { s = Shape::unknown_rank(); return r.ok; }
  if (!is_rank_value(rank)) {
    s.rank = kMaxRank + 1;  // fails validate_shape; never indexes dims
    return false;
  }
  s.rank = static_cast<int>(rank);
  int i = 0;
  if (r.end - r.p >= s.rank) {  // room for every dim as one word: the static dims without a bounds check each
    for (; i < s.rank; ++i) {
      const double v = r.p[i];
      if (!is_dim_value(v)) break;
      s.dims[i] = Dim::fixed(static_cast<i64>(v));
    }
    r.p += i;
  }
  for (; i < s.rank; ++i)
    if (!read_dim(r, s.dims[i])) return false;
  return r.ok;
}

void point_labels(NamedShape& s, const PodVector<i64>& store, const size_t* offsets) {
  static const i64 kNoLabels = 0;
  for (int i = 0; i < s.rank; ++i)
    s.labels[i] = offsets[i] == SIZE_MAX ? nullptr : store.empty() ? &kNoLabels : store.data() + offsets[i];
}

bool read_named(Reader& r, NamedShape& s, PodVector<i64>& store, size_t* offsets) {
  const double rank = r.next();
  if (!is_rank_value(rank)) return false;
  s.rank = static_cast<int>(rank);
  for (int i = 0; i < s.rank; ++i) {
    const double name = r.next();
    if (!(name >= 0 && name <= 2147483647.0) || !is_int(name)) return false;
    s.name[i] = static_cast<i64>(name);
    const double size = r.next();
    s.size[i] = is_dim_value(size) ? static_cast<i64>(size) : -1;
    const double nl = r.next();
    s.labels[i] = nullptr;
    offsets[i] = SIZE_MAX;
    if (nl >= 0) {
      if (nl != size || !is_int(nl) || nl > static_cast<double>(kMaxLabels) || r.p + static_cast<size_t>(nl) > r.end)
        return false;
      offsets[i] = store.size();
      const size_t k = static_cast<size_t>(nl);
      store.resize(store.size() + k);  // once per dim, not a regrowth per label
      i64* dst = store.data() + offsets[i];
      for (size_t j = 0; j < k; ++j) {
        const double id = *r.p++;
        if (!(id >= 0 && id <= 9007199254740991.0)) return false;
        dst[j] = static_cast<i64>(id);
      }
    }
    if (!r.ok) return false;
  }
  return r.ok;
}

void Writer::dim(Dim d) {
  if (d.is_static()) { put(static_cast<double>(d.lo)); return; }
  if (d.is_keep()) { put(-1); return; }
  put(-2);
  put(static_cast<double>(d.lo));
  put(d.hi == kUnbounded ? -1.0 : static_cast<double>(d.hi));
}

void Writer::shape(const Shape& s) {
  if (!s.rank_known()) { put(-1); return; }
  reserve(1 + 3 * static_cast<size_t>(s.rank));  // room for the longest form: no check per dim
  double* o = buf.data() + n;
  *o++ = s.rank;
  for (int i = 0; i < s.rank; ++i) {
    const Dim d = s.dims[i];
    if (d.is_static()) {
      *o++ = static_cast<double>(d.lo);
    } else if (d.is_keep()) {
      *o++ = -1;
    } else {
      *o++ = -2;
      *o++ = static_cast<double>(d.lo);
      *o++ = d.hi == kUnbounded ? -1.0 : static_cast<double>(d.hi);
    }
  }
  n = static_cast<size_t>(o - buf.data());
}

void Writer::put(double v) {
  if (n >= buf.size()) grow(n + 1);
  buf[n++] = v;
}

void Writer::grow(size_t need) {
  size_t cap = buf.size() < 64 ? 64 : buf.size() * 2;
  while (cap < need) cap *= 2;
  buf.resize(cap);
}

void write_head(PodVector<double>& out, int status, const Error& err) {
  if (out.size() < kRespHead) out.resize(kRespHead);
  const auto hi = [](Dim d) { return d.hi == kUnbounded ? -1.0 : static_cast<double>(d.hi); };
  out[resp_status] = status;
  out[resp_axis] = err.axis;
  out[resp_operandA] = err.operand_a;
  out[resp_operandB] = err.operand_b;
  out[resp_dimALo] = static_cast<double>(err.dim_a.lo);
  out[resp_dimAHi] = hi(err.dim_a);
  out[resp_dimBLo] = static_cast<double>(err.dim_b.lo);
  out[resp_dimBHi] = hi(err.dim_b);
  out[resp_detail] = err.detail;
  out[resp_clashAxes] = static_cast<double>(err.clash_axes);
  out[resp_result] = 0;
  out[resp_dtype] = -1;
}

// Plan layout: is_static, out_size, out shape, n_ops, then per operand: its
// shape, its dropped-axes mask, and per output axis src_axis, aligned dim,
// stride, verdict; then the
// loop: rank, shape[rank], per operand strides[rank], inner kind (-1: none).
void write_plan(Writer& w, const Plan& plan) {
  w.put(plan.is_static ? 1 : 0);
  w.put(static_cast<double>(plan.out_size));
  w.shape(plan.out);
  w.put(static_cast<double>(plan.ops.size()));
  const int out_rank = plan.out.rank_known() ? plan.out.rank : 0;
  for (const auto& op : plan.ops) {
    w.shape(op.shape);
    w.put(static_cast<double>(op.dropped));
    for (int a = 0; a < out_rank; ++a) {
      w.put(op.src_axis[a]);
      w.dim(op.aligned[a]);
      w.put(static_cast<double>(op.strides[a]));
      w.put(static_cast<int>(op.verdict[a]));
    }
  }
  const int lr = plan.is_static ? plan.loop.rank : 0;
  w.put(lr);
  for (int i = 0; i < lr; ++i) w.put(static_cast<double>(plan.loop.shape[i]));
  for (size_t k = 0; k < plan.ops.size(); ++k)
    for (int i = 0; i < lr; ++i) w.put(static_cast<double>(plan.loop.strides[k][static_cast<size_t>(i)]));
  w.put(lr ? static_cast<int>(plan.loop.inner) : -1);
}

// Named axes: count, then per axis name, size, left_axis, right_axis, labeled,
// n, labels[n], and with `with_index` left_index[n], right_index[n]; then
// needs_gather. (Only explain shows the index lists; a million-label union
// would otherwise carry four million numbers nobody reads.)
void write_named(Writer& w, const NamedPlan& named, bool with_index) {
  size_t total = 2;
  for (const auto& ax : named.axes) total += 6 + (ax.labeled ? ax.labels.size() * (with_index ? 3 : 1) : 0);
  w.reserve(total);
  w.put(static_cast<double>(named.axes.size()));
  for (const auto& ax : named.axes) {
    w.put(static_cast<double>(ax.name));
    w.put(static_cast<double>(ax.size));
    w.put(ax.left_axis);
    w.put(ax.right_axis);
    w.put(ax.labeled ? 1 : 0);
    const size_t n = ax.labeled ? ax.labels.size() : 0;
    w.put(static_cast<double>(n));
    for (size_t i = 0; i < n; ++i) w.put(static_cast<double>(ax.labels[i]));
    if (!with_index) continue;
    for (size_t i = 0; i < n; ++i) w.put(static_cast<double>(ax.left_index[i]));
    for (size_t i = 0; i < n; ++i) w.put(static_cast<double>(ax.right_index[i]));
  }
  w.put(named.needs_gather ? 1 : 0);
}

}  // namespace tc::wire

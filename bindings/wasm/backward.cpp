// The backward direction's calls (reductionAxes, reduce, unbroadcast): each
// request carries its shapes, rule and buffers, like the forward calls in
// calls.cpp, and is answered in one go. Nothing here throws.
#include <cstdint>
#include "core/pod_vector.hpp"

#include "calls.hpp"
#ifndef TC_SHAPES_ONLY
#include "kernels/reduce.hpp"
#endif
#include "rules/reduction_axes.hpp"
#include "wire.hpp"

namespace tc::calls {

using namespace tc::wire;

namespace {

bool to_mode(double rule, BroadcastToMode& m) {
  switch (static_cast<Rule>(static_cast<int>(rule))) {
    case Rule::to_numpy: m = BroadcastToMode::numpy; return true;
    case Rule::to_explicit: m = BroadcastToMode::explicit_; return true;
    case Rule::to_bidirectional: m = BroadcastToMode::bidirectional; return true;
    case Rule::to_pdpd: m = BroadcastToMode::pdpd; return true;
    // An element-wise rule: the input is its second operand B, the output its result.
    case Rule::numpy: m = BroadcastToMode::elementwise_numpy; return true;
    case Rule::none: m = BroadcastToMode::elementwise_none; return true;
    case Rule::pdpd: m = BroadcastToMode::elementwise_pdpd; return true;
    default: return false;
  }
}

// Body: input shape, output shape, then for explicit the mapping (length, entries).
Status read_axes_request(const double* h, Reader& r, Shape& in, Shape& out, std::uint64_t& mask, Error& err) {
  BroadcastToMode mode;
  if (!to_mode(h[req_rule], mode) || !read_shape(r, in) || !read_shape(r, out)) {
    err.code = Status::InvalidShape;
    return Status::InvalidShape;
  }
  i64 mapping[kMaxRank + 1];
  int n = 0;
  if (mode == BroadcastToMode::explicit_) {
    const double len = r.next();
    if (!(len >= 0 && len <= kMaxRank + 1) || len != static_cast<double>(static_cast<int>(len))) {
      err.code = Status::InvalidAxesMapping;
      return err.code;
    }
    n = static_cast<int>(len);
    for (int i = 0; i < n; ++i) {
      const double v = r.next();
      mapping[i] = (v >= -1 && v <= kMaxRank + 1 && v == static_cast<double>(static_cast<i64>(v))) ? static_cast<i64>(v) : -1;
    }
    if (!r.ok) { err.code = Status::InvalidShape; return err.code; }
  }
  for (const Shape* s : {&in, &out}) {
    Error e;
    if (validate_shape(*s, s == &in ? 0 : 1, false, e) != Status::Ok) { err = e; return e.code; }
  }
  return reduction_axes(in, out, mode, axis_of(h[req_axis]), mapping, n, mask, err);
}

void write_axes(Writer& w, std::uint64_t mask) {
  int n = 0;
  for (int a = 0; a < 64; ++a) n += static_cast<int>(mask >> a & 1);
  w.put(n);
  for (int a = 0; a < 64; ++a)
    if (mask >> a & 1) w.put(a);
}

#ifndef TC_SHAPES_ONLY  // the shapes-only build has reductionAxes, not the reductions' data path
// The reduced operand's strides (a view): the strides section at the end of
// the body (calls.cpp; h[req_strided] words: 0, or 1 and one stride per axis
// of `rank`). `n` becomes the body's length without it. False: malformed.
bool section_strides(const double* h, const double* body, size_t& n, int rank, i64* st, const i64*& strides) {
  strides = nullptr;
  const double w = h[req_strided];
  if (w == 0) return true;
  if (!(w >= 1 && w <= static_cast<double>(n)) || w != static_cast<double>(static_cast<size_t>(w))) return false;
  const size_t words = static_cast<size_t>(w);
  const double* sec = body + (n - words);
  n -= words;
  if (sec[0] == 0) return words == 1;
  if (sec[0] != 1 || words != 1 + static_cast<size_t>(rank)) return false;
  for (int a = 0; a < rank; ++a) {
    const double v = sec[1 + a];
    if (!(v >= -9007199254740991.0 && v <= 9007199254740991.0) || v != static_cast<double>(static_cast<i64>(v))) return false;
    st[a] = static_cast<i64>(v);
  }
  strides = st;
  return true;
}

// The result buffer of a reduction: `out` with its capacity, or a new allocation.
int reduce_into(const double* h, const Shape& in, std::uint64_t mask, ReduceOp op, DType dt, DType acc,
                const Shape& out_shape, PodVector<double>& resp, Error& err, const i64* strides) {
  const double bytes = static_cast<double>(shape_size(out_shape)) * static_cast<double>(dtype_size(acc));
  if (!(bytes <= kMaxBytes)) return static_cast<int>(Status::TooLarge);
  const double cap = h[req_capacity];
  void* out = ptr(h[req_out]);
  if (out != nullptr && (cap < 0 ? bytes != -cap : !(bytes <= cap))) return signal_outTooSmall;
  if (out != nullptr && out == ptr(h[req_in0])) return signal_outOverlaps;
  void* fresh = nullptr;
  if (out == nullptr) {
    out = fresh = allocate(bytes > 0 ? bytes : 1);
    if (!out) return static_cast<int>(Status::TooLarge);
  }
  const Status st = run_reduce(in, mask, op, dt, acc, ptr(h[req_in0]), out, &err, strides);
  if (st != Status::Ok) {
    release(fresh);
    return static_cast<int>(st);
  }
  resp[resp_result] = addr(fresh);  // unsigned, as every address on the wire
  return 0;
}

bool dtype_of(double v, DType& dt) {
  if (!(v >= 0 && v < static_cast<int>(DType::count))) return false;
  dt = static_cast<DType>(static_cast<int>(v));
  return true;
}

#endif  // TC_SHAPES_ONLY

}  // namespace

#ifndef TC_SHAPES_ONLY
// action reduce: body = input shape, axes count (-1: all), axes.
void call_reduce(const double* h, const double* body, size_t n_body, PodVector<double>& resp) {
  Reader r{body, body + n_body};
  Error err;
  const double sw = h[req_strided];  // a view's strides: after the shape is read (its rank)
  Shape in, out;
  DType dt, acc;
  const double o = h[req_op];
  if (!dtype_of(h[req_dtype], dt) || !(o >= 0 && o < static_cast<int>(ReduceOp::count))) {
    write_head(resp, static_cast<int>(Status::DtypeMismatch), err);
    return;
  }
  const auto op = static_cast<ReduceOp>(static_cast<int>(o));
  if (h[req_acc] < 0) acc = reduce_default_acc(op, dt);
  else if (!dtype_of(h[req_acc], acc)) { write_head(resp, static_cast<int>(Status::DtypeMismatch), err); return; }
  if (!read_shape(r, in) || validate_shape(in, 0, false, err) != Status::Ok) {
    if (err.code == Status::Ok) err.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(err.code), err);
    return;
  }
  i64 st_buf[kMaxRank];
  const i64* strides = nullptr;
  if (sw != 0) {
    size_t n_left = n_body;
    if (!in.is_static() || !section_strides(h, body, n_left, in.rank, st_buf, strides)) {
      err.code = Status::InvalidShape;
      write_head(resp, static_cast<int>(err.code), err);
      return;
    }
    r.end = body + n_left;
  }
  const double n = r.next();
  std::uint64_t mask = 0;
  if (n < 0) {
    for (int a = 0; a < in.rank; ++a) mask |= std::uint64_t{1} << a;
  } else {
    i64 axes[kMaxRank + 1];
    const int k = n > kMaxRank + 1 ? kMaxRank + 1 : static_cast<int>(n);
    for (int i = 0; i < k; ++i) {
      const double v = r.next();
      axes[i] = (v >= -64 && v <= 64 && v == static_cast<double>(static_cast<i64>(v))) ? static_cast<i64>(v) : 64;
    }
    if (!r.ok || n > kMaxRank + 1 || normalize_axes(in.rank, axes, k, mask, err) != Status::Ok) {
      if (err.code == Status::Ok) err.code = Status::InvalidAxis;
      write_head(resp, static_cast<int>(err.code), err);
      return;
    }
  }
  if (reduce_out_shape(in, mask, h[req_keepdims] == 1, out) != Status::Ok) {
    err.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(err.code), err);
    return;
  }
  write_head(resp, 0, err);
  const int st = reduce_into(h, in, mask, op, dt, acc, out, resp, err, strides);
  if (st > 0) write_head(resp, st, err);
  resp[resp_status] = st;
  Writer w{resp};
  w.shape(out);
  w.put(static_cast<double>(acc == DType::count ? 0 : static_cast<int>(acc)));
}

// action unbroadcast: body = input shape, gradient shape, mapping; the
// gradient summed over reduction_axes(input, gradient) into the input's shape.
void call_unbroadcast(const double* h, const double* body, size_t n_body, PodVector<double>& resp) {
  Reader r{body, body + n_body};
  Error err;
  Shape in, grad;
  std::uint64_t mask = 0;
  DType dt, acc;
  if (!dtype_of(h[req_dtype], dt)) { write_head(resp, static_cast<int>(Status::DtypeMismatch), err); return; }
  if (h[req_acc] < 0) acc = dt;
  else if (!dtype_of(h[req_acc], acc)) { write_head(resp, static_cast<int>(Status::DtypeMismatch), err); return; }
  const Status s = read_axes_request(h, r, in, grad, mask, err);
  if (s != Status::Ok) { write_head(resp, static_cast<int>(s), err); return; }
  i64 st_buf[kMaxRank];
  const i64* strides = nullptr;
  size_t n_left = n_body;
  if (!in.is_static() || !grad.is_static() || !section_strides(h, body, n_left, grad.rank, st_buf, strides)) {
    err = Error{};
    err.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(Status::InvalidShape), err);
    return;
  }
  write_head(resp, 0, err);
  // The gradient read as given (a view). Nothing to sum (mask 0): g itself, -0
  // kept (a product of one element is that element; a sum starts from +0).
  const ReduceOp op = mask == 0 ? ReduceOp::prod : ReduceOp::sum;
  const int st = reduce_into(h, grad, mask, op, dt, acc, in, resp, err, strides);
  if (st > 0) write_head(resp, st, err);
  resp[resp_status] = st;
  Writer w{resp};
  w.shape(in);
  write_axes(w, mask);
}

#endif  // TC_SHAPES_ONLY

// action axes: body = input shape, output shape, mapping.
void call_axes(const double* h, const double* body, size_t n, PodVector<double>& resp) {
  Reader r{body, body + n};
  Shape in, out;
  std::uint64_t mask = 0;
  Error err;
  const Status st = read_axes_request(h, r, in, out, mask, err);
  write_head(resp, static_cast<int>(st), err);
  Writer w{resp};
  if (st == Status::Ok) write_axes(w, mask);
}

}  // namespace tc::calls

// The wasm boundary for the rule engine: raw, underscore-named C exports that
// read a request from a scratch buffer of doubles and write a response to
// another. The idiomatic API (validation, BroadcastError, JSON plans) lives in
// bindings/js; this file only moves numbers. Nothing here throws.
//
// Encoding (all float64, so every safe-integer dim is exact):
//   shape := rank dim*            rank -1 = unknown rank (no dims follow)
//   dim   := d                    d >= 0: static
//          | -1                   keep (a -1 in a §5 target)
//          | -2 lo hi             interval [lo, hi]; hi = -1: unbounded ("?" = -2 0 -1)
// Response (tc_out):
//   status, then on Ok:     out shape
//            on error:      axis, operand_a, operand_b, dim_a(lo,hi), dim_b(lo,hi), detail
//   then, when `detail` is 1: the plan (see write_plan) — also on error, best-effort.
// `detail` 0 computes the output shape only; 2 computes the whole plan (strides,
// loop) without writing it, for a data call that runs it next.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "abi.hpp"
#include "rules/rules.hpp"

using namespace tc;

namespace {

constexpr int kInitialScratch = 8192;  // doubles
// Most operands one §1 call may have (bindings/js/rules.js MAX_OPERANDS): each
// costs a Shape and an OperandPlan, and a failed allocation would abort.
constexpr int kMaxOperands = 65536;

std::vector<double> g_in(kInitialScratch);
std::vector<double> g_out(kInitialScratch);
Plan g_plan;         // reused: its vectors keep their capacity between calls
NamedPlan g_named;
Error g_err;

struct Reader {
  const double* p;
  const double* end;
  bool ok = true;
  double next() {
    if (p >= end) { ok = false; return 0; }
    return *p++;
  }
};

// JS validates shapes before they get here; this decoder still refuses
// anything malformed (it becomes INVALID_SHAPE), so no input can read out of
// bounds or overflow a Shape.
bool read_dim(Reader& r, Dim& d) {
  const double v = r.next();
  if (v >= 0) {
    if (!(v <= static_cast<double>(kMaxDim)) || v != static_cast<double>(static_cast<i64>(v))) {
      d = Dim{-3, -3};  // invalid: fails validate_shape
      return r.ok;
    }
    d = Dim::fixed(static_cast<i64>(v));
  } else if (v == -1) {
    d = Dim::keep();
  } else if (v == -2) {
    const double lo = r.next(), hi = r.next();
    const bool lo_ok = lo >= 0 && lo <= static_cast<double>(kMaxDim) && lo == static_cast<double>(static_cast<i64>(lo));
    const bool hi_ok = hi == -1 || (hi >= 0 && hi <= static_cast<double>(kMaxDim) && hi == static_cast<double>(static_cast<i64>(hi)));
    if (!lo_ok || !hi_ok) d = Dim{-3, -3};
    else d = Dim{static_cast<i64>(lo), hi == -1 ? kUnbounded : static_cast<i64>(hi)};
  } else {
    d = Dim{-3, -3};
  }
  return r.ok;
}

bool read_shape(Reader& r, Shape& s) {
  const double rank = r.next();
  if (rank == -1) { s = Shape::unknown_rank(); return r.ok; }
  if (!(rank >= 0 && rank <= kMaxRank) || rank != static_cast<double>(static_cast<int>(rank))) {
    s.rank = kMaxRank + 1;  // fails validate_shape; never indexes dims
    return false;
  }
  s.rank = static_cast<int>(rank);
  for (int i = 0; i < s.rank; ++i)
    if (!read_dim(r, s.dims[i])) return false;
  return r.ok;
}

struct Writer {
  double* p;
  double* end;
  bool ok = true;
  void put(double v) {
    if (p >= end) { ok = false; return; }
    *p++ = v;
  }
  void dim(Dim d) {
    if (d.is_static()) { put(static_cast<double>(d.lo)); return; }
    if (d.is_keep()) { put(-1); return; }
    put(-2);
    put(static_cast<double>(d.lo));
    put(d.hi == kUnbounded ? -1.0 : static_cast<double>(d.hi));
  }
  void raw_dim(Dim d) {  // error dims: always two numbers
    put(static_cast<double>(d.lo));
    put(d.hi == kUnbounded ? -1.0 : static_cast<double>(d.hi));
  }
  void shape(const Shape& s) {
    if (!s.rank_known()) { put(-1); return; }
    put(s.rank);
    for (int i = 0; i < s.rank; ++i) dim(s.dims[i]);
  }
};

// Plan layout: is_static, out_size, n_ops, then per operand: its shape, and per
// output axis src_axis, aligned dim, stride, verdict; then the loop: rank,
// shape[rank], per operand strides[rank], inner kind.
void write_plan(Writer& w, const Plan& plan) {
  w.put(plan.is_static ? 1 : 0);
  w.put(static_cast<double>(plan.out_size));
  w.shape(plan.out);
  w.put(static_cast<double>(plan.ops.size()));
  const int out_rank = plan.out.rank_known() ? plan.out.rank : 0;
  for (const auto& op : plan.ops) {
    w.shape(op.shape);
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

int respond(Status s, int detail) {
  Writer w{g_out.data(), g_out.data() + g_out.size()};
  w.put(static_cast<double>(s));
  if (s == Status::Ok) {
    w.shape(g_plan.out);
  } else {
    w.put(g_err.axis);
    w.put(g_err.operand_a);
    w.put(g_err.operand_b);
    w.raw_dim(g_err.dim_a);
    w.raw_dim(g_err.dim_b);
    w.put(g_err.detail);
  }
  if (detail == 1) write_plan(w, g_plan);
  return w.ok ? static_cast<int>(s) : -1;  // -1: response did not fit (JS grows and retries)
}

Status bad_request() {
  g_err = Error{};
  g_err.code = Status::InvalidShape;
  g_plan.reset(0);
  return Status::InvalidShape;
}

Shape g_shapes_small[8];
std::vector<Shape> g_shapes_big;

}  // namespace

// The last plan, for the data exports (data_abi.cpp) that run it.
Plan& abi_plan() { return g_plan; }
NamedPlan& abi_named_plan() { return g_named; }
Error& abi_error() { return g_err; }

bool abi_read_shapes(int in_len, Shape* shapes, int n) {
  const size_t len = in_len < 0 ? 0 : static_cast<size_t>(in_len) < g_in.size() ? static_cast<size_t>(in_len) : g_in.size();
  Reader r{g_in.data(), g_in.data() + len};
  for (int k = 0; k < n; ++k)
    if (!read_shape(r, shapes[k])) return false;
  return true;
}

const double* abi_request() { return g_in.data(); }
int abi_request_capacity() { return static_cast<int>(g_in.size()); }
double* abi_response(int* capacity) {
  *capacity = static_cast<int>(g_out.size());
  return g_out.data();
}

extern "C" {

// Scratch buffers: JS writes requests to tc_in and reads tc_out. Both can be
// resized; their addresses change then, so JS asks again after a resize.
EMSCRIPTEN_KEEPALIVE double* tc_in() { return g_in.data(); }
EMSCRIPTEN_KEEPALIVE double* tc_out() { return g_out.data(); }
EMSCRIPTEN_KEEPALIVE int tc_in_capacity() { return static_cast<int>(g_in.size()); }
EMSCRIPTEN_KEEPALIVE int tc_out_capacity() { return static_cast<int>(g_out.size()); }
EMSCRIPTEN_KEEPALIVE void tc_reserve(int in_doubles, int out_doubles) {
  if (in_doubles > 0 && static_cast<size_t>(in_doubles) > g_in.size()) g_in.resize(static_cast<size_t>(in_doubles));
  if (out_doubles > 0 && static_cast<size_t>(out_doubles) > g_out.size()) g_out.resize(static_cast<size_t>(out_doubles));
}

// §1: `n` shapes in the request.
EMSCRIPTEN_KEEPALIVE int tc_numpy(int n, int in_len, int detail) {
  g_plan.shape_only = detail == 0;
  Reader r{g_in.data(), g_in.data() + (in_len < 0 ? 0 : in_len)};
  Shape* shapes = g_shapes_small;
  if (n < 0) return respond(bad_request(), detail);
  if (n > kMaxOperands) {
    bad_request();
    g_err.code = Status::TooLarge;
    return respond(Status::TooLarge, detail);
  }
  if (n > 8) {
    g_shapes_big.resize(static_cast<size_t>(n));
    shapes = g_shapes_big.data();
  }
  for (int k = 0; k < n; ++k)
    if (!read_shape(r, shapes[k])) {
      g_plan.reset(0);
      validate_shape(shapes[k], k, false, g_err);
      if (g_err.code == Status::Ok) g_err.code = Status::InvalidShape;
      g_err.operand_a = k;
      return respond(g_err.code, detail);
    }
  return respond(broadcast_numpy(shapes, n, g_plan, g_err), detail);
}

// §2, §3 and the Broadcast-op modes: two shapes in the request (for explicit,
// followed by the mapping: length (-1 = unknown) and entries).
// rule: 0 none, 1 pdpd, 2 to_numpy, 3 to_explicit, 4 to_bidirectional, 5 to_pdpd
EMSCRIPTEN_KEEPALIVE int tc_binary(int rule, double axis, int in_len, int detail) {
  g_plan.shape_only = detail == 0;
  Reader r{g_in.data(), g_in.data() + (in_len < 0 ? 0 : in_len)};
  Shape a, b;
  const bool ok_a = read_shape(r, a);
  const bool ok_b = ok_a && read_shape(r, b);
  if (!ok_a || !ok_b) {
    g_plan.reset(0);
    g_err = Error{};
    g_err.code = Status::InvalidShape;
    g_err.operand_a = ok_a ? 1 : 0;
    return respond(g_err.code, detail);
  }
  const i64 ax = (axis >= -4.0e18 && axis <= 4.0e18) ? static_cast<i64>(axis) : (axis < 0 ? INT64_MIN : INT64_MAX);
  Status s;
  switch (rule) {
    case 0: s = broadcast_none(a, b, g_plan, g_err); break;
    case 1: s = broadcast_pdpd(a, b, ax, g_plan, g_err); break;
    case 2: s = broadcast_to_numpy(a, b, g_plan, g_err); break;
    case 3: {
      const double len = r.next();
      i64 mapping[kMaxRank + 1];
      int n = 0;
      bool known = len >= 0;
      if (known && (len > kMaxRank + 1 || len != static_cast<double>(static_cast<int>(len)))) {
        g_plan.reset(1);
        g_err = Error{};
        g_err.code = Status::InvalidAxesMapping;
        g_err.operand_a = 0;
        return respond(g_err.code, detail);
      }
      if (known) {
        n = static_cast<int>(len);
        for (int i = 0; i < n; ++i) {
          const double v = r.next();
          // Non-integers and out-of-range values become an out-of-range axis.
          mapping[i] = (v >= -1 && v <= kMaxRank + 1 && v == static_cast<double>(static_cast<i64>(v)))
                           ? static_cast<i64>(v) : -1;
        }
      }
      if (!r.ok) return respond(bad_request(), detail);
      s = broadcast_to_explicit(a, b, mapping, n, known, g_plan, g_err);
      break;
    }
    case 4: s = broadcast_to_bidirectional(a, b, g_plan, g_err); break;
    case 5: s = broadcast_to_pdpd(a, b, ax, g_plan, g_err); break;
    default: s = bad_request(); break;
  }
  return respond(s, detail);
}

// §6: request = shaping, then two operands, each: rank, then per dim
// name, size, n_labels (-1 = unlabeled), labels...
// Response after the usual head: the named axes (count, then per axis name,
// size, left_axis, right_axis, labeled, n, labels[n], left_index[n],
// right_index[n]) and the plan when `detail`.
EMSCRIPTEN_KEEPALIVE int tc_named(int shaping, int in_len, int detail) {
  g_plan.shape_only = detail == 0;
  Reader r{g_in.data(), g_in.data() + (in_len < 0 ? 0 : in_len)};
  NamedShape s[2];
  for (auto& ns : s) {
    const double rank = r.next();
    if (!(rank >= 0 && rank <= kMaxRank) || rank != static_cast<double>(static_cast<int>(rank)))
      return respond(bad_request(), detail);
    ns.rank = static_cast<int>(rank);
    for (int i = 0; i < ns.rank; ++i) {
      const double name = r.next();
      if (!(name >= 0 && name <= 2147483647.0)) return respond(bad_request(), detail);
      ns.name[i] = static_cast<i64>(name);
      const double size = r.next();
      ns.size[i] = (size >= 0 && size <= static_cast<double>(kMaxDim)) ? static_cast<i64>(size) : -1;
      const double nl = r.next();
      if (nl >= 0) {
        // Labels stay in the request buffer; the rule reads them in place as i64 copies.
        if (nl != size || r.p + static_cast<size_t>(nl) > r.end) return respond(bad_request(), detail);
        ns.labels[i] = nullptr;
        ns.size[i] = static_cast<i64>(nl);
      } else {
        ns.labels[i] = nullptr;
      }
      if (nl >= 0) {
        // Convert in place: doubles to i64 share the size, so the labels can be
        // reinterpreted as an i64 array after conversion.
        double* base = const_cast<double*>(r.p);
        for (i64 j = 0; j < static_cast<i64>(nl); ++j) {
          const i64 v = static_cast<i64>(base[j]);
          std::memcpy(&base[j], &v, sizeof v);
        }
        ns.labels[i] = reinterpret_cast<const i64*>(base);
        r.p += static_cast<size_t>(nl);
      }
    }
    if (!r.ok) return respond(bad_request(), detail);
  }
  const Shaping sh = shaping == 0 ? Shaping::Exact : shaping == 2 ? Shaping::Union : Shaping::Intersection;
  const Status st = broadcast_named(s[0], s[1], sh, g_named, g_plan, g_err);
  int head = respond(st, detail);
  if (head < 0 || st != Status::Ok) return head;
  // Append the named axes after what respond() wrote.
  Writer w{g_out.data(), g_out.data() + g_out.size()};
  // Find the end of the head: recompute by writing again into a counter.
  Writer probe{g_out.data(), g_out.data() + g_out.size()};
  probe.put(0);
  probe.shape(g_plan.out);
  if (detail == 1) write_plan(probe, g_plan);
  w.p = probe.p;
  w.put(static_cast<double>(g_named.axes.size()));
  for (const auto& ax : g_named.axes) {
    w.put(static_cast<double>(ax.name));
    w.put(static_cast<double>(ax.size));
    w.put(ax.left_axis);
    w.put(ax.right_axis);
    w.put(ax.labeled ? 1 : 0);
    const size_t n = ax.labeled ? ax.labels.size() : 0;
    w.put(static_cast<double>(n));
    for (size_t i = 0; i < n; ++i) w.put(static_cast<double>(ax.labels[i]));
    for (size_t i = 0; i < n; ++i) w.put(static_cast<double>(ax.left_index[i]));
    for (size_t i = 0; i < n; ++i) w.put(static_cast<double>(ax.right_index[i]));
  }
  w.put(g_named.needs_gather ? 1 : 0);
  return w.ok ? static_cast<int>(st) : -1;
}

}  // extern "C"

// embind carries the few calls that are not on a hot path and want rich types.
std::string tc_version() { return "0.1.0"; }

EMSCRIPTEN_BINDINGS(tensorcast) {
  emscripten::function("version", &tc_version);
}

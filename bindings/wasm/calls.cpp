// The hot boundary: raw, underscore-named C exports. Every call carries its
// whole request (header + body, wire.hpp) and is answered in one go: plan,
// and for a data action run the kernel, then write the response. Nothing is
// left for a later call to depend on: a plan cache keyed by the request's
// rule part lets repeated shapes skip planning, never changes an answer.
// Nothing here throws; failures are status values.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/pod_vector.hpp"

#ifndef TC_SHAPES_ONLY
#include "kernels/driver.hpp"
#include "kernels/reduce.hpp"
#endif
#include "rules/rules.hpp"
#include "calls.hpp"
#include "wire.hpp"

using namespace tc;
using namespace tc::wire;
using namespace tc::calls;

namespace tc::calls {

i64 axis_of(double axis) {
  return (axis >= -4.0e18 && axis <= 4.0e18) ? static_cast<i64>(axis) : (axis < 0 ? INT64_MIN : INT64_MAX);
}

// ---- allocation (every block carries its size: memory() and the leak tests) -------
namespace {
constexpr size_t kHeader = 64;  // data starts on a cache line
size_t g_allocated = 0;
size_t g_allocations = 0;
}  // namespace

void* allocate(double bytes) {
  if (!(bytes >= 0) || bytes > kMaxBytes) return nullptr;
  const size_t n = static_cast<size_t>(bytes);
  auto* p = static_cast<unsigned char*>(data_block(kHeader, n + kHeader));
  if (!p) return nullptr;
  std::memcpy(p, &n, sizeof n);
  g_allocated += n;
  ++g_allocations;
  return p + kHeader;
}

void release(void* ptr) {
  if (!ptr) return;
  auto* p = static_cast<unsigned char*>(ptr) - kHeader;
  size_t n;
  std::memcpy(&n, p, sizeof n);
  g_allocated -= n;
  --g_allocations;
  std::free(p);
}

size_t allocated_bytes() { return g_allocated; }
size_t allocation_count() { return g_allocations; }

}  // namespace tc::calls

namespace {

// Globals built in one out-of-line function: inlined into the module's
// constructor, their constructors (plans, keys, shapes: mostly zeros) were
// 1.5 KB of unrolled stores run once at -O2. `Which` tells apart two globals of
// one type.
template <typename T, int Which = 0>
__attribute__((noinline)) T& built() {
  static T t;
  return t;
}

PodVector<double> g_req(4096);  // requests: JS writes here (tc_request)
PodVector<double> g_resp(256);  // responses: read by JS right after the call; only grows
static_assert(kRespHead < 256, "a data call writes its head without growing the buffer");

struct Planned {
  Plan plan;
  NamedPlan named;
  Error err;
  Status st = Status::Ok;
};

// ---- planning a request ---------------------------------------------------------

Status refuse(Planned& P, Status s, int operand) {
  P.plan.reset(0);
  P.err = Error{};
  P.err.code = s;
  P.err.operand_a = operand;
  return s;
}

// The shapes of a numpy request: the first kSmallOperands in a fixed array
// (a call with a few shapes touches no vector), more in a vector.
constexpr int kSmallOperands = 8;
using SmallShapes = Shape[kSmallOperands];
SmallShapes& g_small_shapes = built<SmallShapes>();
PodVector<Shape> g_shapes;
PodVector<i64> g_labels;

Status plan_request(const double* h, Reader& r, Planned& P) {
  P.err = Error{};
  const double rule = h[req_rule];
  const i64 axis = axis_of(h[req_axis]);
  if (rule == static_cast<int>(Rule::numpy)) {
    const double n = h[req_operands];
    if (!(n >= 0) || n != static_cast<double>(static_cast<int>(n))) return refuse(P, Status::InvalidShape, -1);
    if (n > kMaxOperands) return refuse(P, Status::TooLarge, -1);
    Shape* shapes = g_small_shapes;
    if (n > kSmallOperands) {
      g_shapes.resize(static_cast<size_t>(n));
      shapes = g_shapes.data();
    }
    for (int k = 0; k < static_cast<int>(n); ++k) {
      if (!read_shape(r, shapes[k])) {
        refuse(P, Status::InvalidShape, k);
        validate_shape(shapes[k], k, false, P.err);
        if (P.err.code == Status::Ok) P.err.code = Status::InvalidShape;
        P.err.operand_a = k;
        return P.err.code;
      }
    }
    return broadcast_numpy(shapes, static_cast<int>(n), P.plan, P.err);
  }
  if (rule == static_cast<int>(Rule::named)) {
    NamedShape s[2];
    size_t offsets[2][kMaxRank];
    g_labels.clear();
    for (int k = 0; k < 2; ++k)
      if (!read_named(r, s[k], g_labels, offsets[k])) return refuse(P, Status::InvalidShape, k);
    for (int k = 0; k < 2; ++k) point_labels(s[k], g_labels, offsets[k]);
    const double sh = h[req_shaping];
    if (!(sh >= 0 && sh <= static_cast<int>(Shaping::Union))) return refuse(P, Status::InvalidShape, -1);
    return broadcast_named(s[0], s[1], static_cast<Shaping>(static_cast<int>(sh)), P.named, P.plan, P.err);
  }
  Shape a, b;
  if (!read_shape(r, a)) return refuse(P, Status::InvalidShape, 0);
  if (!read_shape(r, b)) return refuse(P, Status::InvalidShape, 1);
  switch (static_cast<Rule>(static_cast<int>(rule))) {
    case Rule::none: return broadcast_none(a, b, P.plan, P.err);
    case Rule::pdpd: return broadcast_pdpd(a, b, axis, P.plan, P.err);
    case Rule::to_numpy: return broadcast_to_numpy(a, b, P.plan, P.err);
    case Rule::to_bidirectional: return broadcast_to_bidirectional(a, b, P.plan, P.err);
    case Rule::to_pdpd: return broadcast_to_pdpd(a, b, axis, P.plan, P.err);
    case Rule::to_explicit: {
      const double len = r.next();
      const bool known = len >= 0;
      if (known && (len > kMaxRank + 1 || len != static_cast<double>(static_cast<int>(len)))) {
        refuse(P, Status::InvalidAxesMapping, 0);
        P.plan.reset(1);
        return Status::InvalidAxesMapping;
      }
      i64 mapping[kMaxRank + 1];
      const int n = known ? static_cast<int>(len) : 0;
      for (int i = 0; i < n; ++i) {
        const double v = r.next();
        // Out of range or not an integer: an axis no output has.
        mapping[i] = (v >= -1 && v <= kMaxRank + 1 && v == static_cast<double>(static_cast<i64>(v))) ? static_cast<i64>(v) : -1;
      }
      if (!r.ok) return refuse(P, Status::InvalidShape, -1);
      return broadcast_to_explicit(a, b, mapping, n, known, P.plan, P.err);
    }
    default: return refuse(P, Status::InvalidShape, -1);
  }
}

// ---- the plan cache of data calls ---------------------------------------------------
// Keyed by everything that decides a plan: rule, axis, shaping, operand count
// and the body (shapes, mapping, names, labels); never by buffers or dtype.
// A few entries, so code that alternates between some shapes plans each once.
constexpr size_t kCacheKeyMax = 512;  // doubles of body; longer requests are planned every time

// A key in fixed storage: comparing and setting it is a loop over words, no
// vector to assign or grow (a shape call that misses sets one every time).
struct Key {
  size_t n = 0;  // words in use: 5 header fields, then the body
  double w[kCacheKeyMax + 5];
};

Planned& g_uncached = built<Planned>();
#ifndef TC_SHAPES_ONLY  // the shapes-only build (tensorcast/shapes) has no data calls
struct CacheEntry {
  Key key;
  Planned p;
  bool valid = false;
  double gen = 0;  // which plan this is: a new one in this entry gets a new number
};
constexpr int kCacheEntries = 4;
using Cache = CacheEntry[kCacheEntries];
Cache& g_cache = built<Cache>();
int g_cache_last = 0;
int g_cache_next = 0;
double g_plan_gen = 0;
#endif

// Bit for bit, a word at a time (libc's memcmp goes byte by byte: 5 ns of a 90 ns call).
bool same_words(const double* a, const double* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    if (x != y) return false;
  }
  return true;
}

bool same_key(const Key& key, const double* h, const double* body, size_t n) {
  return key.n == n + 5 && key.w[0] == h[req_rule] && key.w[1] == h[req_axis] && key.w[2] == h[req_shaping] &&
         key.w[3] == h[req_operands] && key.w[4] == h[req_strided] && same_words(key.w + 5, body, n);
}

// Only for n <= kCacheKeyMax (callers check).
void set_key(Key& key, const double* h, const double* body, size_t n) {
  key.w[0] = h[req_rule];
  key.w[1] = h[req_axis];
  key.w[2] = h[req_shaping];
  key.w[3] = h[req_operands];
  key.w[4] = h[req_strided];
  for (size_t i = 0; i < n; ++i) key.w[5 + i] = body[i];
  key.n = n + 5;
}

// The strides section (the last h[req_strided] words of the body): per
// operand in order, 0 (row-major) or 1 then one stride per axis of its own
// shape, in elements (any integer: a view's). Operands past the section are
// row-major. False: malformed (JS writes it; nothing past its end is read).
bool apply_strides(const double* s, size_t words, Plan& plan) {
  size_t i = 0;
  for (size_t k = 0; k < plan.ops.size() && i < words; ++k) {
    const double flag = s[i++];
    if (flag == 0) continue;
    const int rank = plan.ops[k].shape.rank;
    if (flag != 1 || rank < 0 || i + static_cast<size_t>(rank) > words) return false;
    i64 st[kMaxRank];
    for (int a = 0; a < rank; ++a) {
      const double v = s[i++];
      if (!(v >= -9007199254740991.0 && v <= 9007199254740991.0) || v != static_cast<double>(static_cast<i64>(v))) return false;
      st[a] = static_cast<i64>(v);
    }
    restride(plan, static_cast<int>(k), st);
  }
  if (i != words) return false;
  rebuild_loop(plan);
  return true;
}

// Words of the request's strides section (0 when none; SIZE_MAX: malformed).
size_t strided_words(const double* h, size_t n) {
  const double w = h[req_strided];
  if (w == 0) return 0;
  return w > 0 && w <= static_cast<double>(n) && w == static_cast<double>(static_cast<size_t>(w)) ? static_cast<size_t>(w) : SIZE_MAX;
}

// Plan the request into `p`; `shape_only` skips strides and the loop.
const Planned& plan_into(Planned& p, const double* h, const double* body, size_t n, bool shape_only) {
  const size_t sw = strided_words(h, n);
  if (sw == SIZE_MAX) {
    p.st = refuse(p, Status::InvalidShape, -1);
    return p;
  }
  Reader r{body, body + (n - sw)};
  p.plan.shape_only = shape_only;
  p.st = plan_request(h, r, p);
  if (sw > 0 && p.st == Status::Ok && !shape_only && p.plan.is_static && !apply_strides(body + (n - sw), sw, p.plan))
    p.st = refuse(p, Status::InvalidShape, -1);
  return p;
}

// explain, and requests too long to key: the full plan, every time.
const Planned& planned_once(const double* h, const double* body, size_t n) {
  return plan_into(g_uncached, h, body, n, false);
}

#ifndef TC_SHAPES_ONLY
const Planned& cached_plan(const double* h, const double* body, size_t n) {
  if (g_cache[g_cache_last].valid && same_key(g_cache[g_cache_last].key, h, body, n)) return g_cache[g_cache_last].p;
  for (int k = 0; k < kCacheEntries; ++k)
    if (g_cache[k].valid && same_key(g_cache[k].key, h, body, n)) return g_cache[g_cache_last = k].p;
  if (n > kCacheKeyMax) return planned_once(h, body, n);
  CacheEntry& e = g_cache[g_cache_next];
  e.valid = false;
  plan_into(e.p, h, body, n, false);
  if (e.p.st == Status::Ok) {  // refusals are answered afresh (they are rare and carry the error)
    set_key(e.key, h, body, n);
    e.valid = true;
    e.gen = ++g_plan_gen;
    g_cache_last = g_cache_next;
    g_cache_next = (g_cache_next + 1) % kCacheEntries;
  }
  return e.p;
}

#endif  // TC_SHAPES_ONLY

// Shape calls keep one plan of their own: the last one, in the same hot
// memory every time, and answered again when the next request is the same
// (a broadcastToShape in a loop; numpy_lane answers static numpy calls
// first). A miss costs one key copy; it never evicts the data calls' plans.
Planned& g_shape = built<Planned, 1>();  // apart from g_uncached
Key& g_shape_key = built<Key>();
bool g_shape_valid = false;

const Planned& shape_plan(const double* h, const double* body, size_t n) {
  if (g_shape_valid && same_key(g_shape_key, h, body, n)) return g_shape;
  g_shape_valid = false;
  plan_into(g_shape, h, body, n, true);  // the output shape only: no strides, no loop
  if (g_shape.st == Status::Ok && n <= kCacheKeyMax) {
    set_key(g_shape_key, h, body, n);
    g_shape_valid = true;
  }
  return g_shape;
}

#ifndef TC_SHAPES_ONLY
// ---- running ------------------------------------------------------------------------

// In place is safe only where the operand is read exactly as the output is
// written: same element strides (not broadcast, not reordered).
bool aliases_unsafely(const Plan& plan, int k, const void* in, const void* out) {
  if (in != out) return false;
  const OperandPlan& op = plan.ops[static_cast<size_t>(k)];
  i64 stride = 1;
  for (int a = plan.out.rank - 1; a >= 0; --a) {
    const i64 d = plan.out.dims[a].lo;
    if (d != 1 && op.strides[a] != stride) return true;
    stride *= d;
  }
  return false;
}

int run(const double* h, const Planned& P, PodVector<double>& resp) {
  const Plan& plan = P.plan;
  const auto action = static_cast<Action>(static_cast<int>(h[req_action]));
  if (!plan.is_static) {  // a data call needs a static result
    Error e;
    e.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(Status::InvalidShape), e);
    return static_cast<int>(Status::InvalidShape);
  }
  double elem = h[req_elem];
  DType dt = DType::count;
  Op op = Op::count;
  if (action == Action::binary) {
    const double d = h[req_dtype], o = h[req_op];
    if (!(d >= 0 && d < static_cast<int>(DType::count)) || !(o >= 0 && o < static_cast<int>(Op::count)))
      return static_cast<int>(Status::DtypeMismatch);
    dt = static_cast<DType>(static_cast<int>(d));
    op = static_cast<Op>(static_cast<int>(o));
    if (!op_defined(dt, op)) return static_cast<int>(Status::DtypeMismatch);
    elem = op_yields_bool(op) ? 1 : static_cast<double>(dtype_size(dt));
  } else if (action == Action::where) {
    const double d = h[req_dtype];
    if (!(d >= 0 && d < static_cast<int>(DType::count))) return static_cast<int>(Status::DtypeMismatch);
    dt = static_cast<DType>(static_cast<int>(d));
  } else if (action == Action::unary || action == Action::cast) {
    // One operand, same shape: dtype is the operand's, op the unary op (or the dtype cast to).
    const double d = h[req_dtype], o = h[req_op];
    const int limit = action == Action::unary ? static_cast<int>(UnaryOp::count) : static_cast<int>(DType::count);
    if (plan.ops.size() != 1 || !(d >= 0 && d < static_cast<int>(DType::count)) || !(o >= 0 && o < limit))
      return static_cast<int>(Status::DtypeMismatch);
    dt = static_cast<DType>(static_cast<int>(d));
    if (action == Action::unary) {
      const auto uop = static_cast<UnaryOp>(static_cast<int>(o));
      if (!unary_defined(dt, uop)) return static_cast<int>(Status::DtypeMismatch);
      elem = unary_yields_bool(uop) ? 1 : static_cast<double>(dtype_size(dt));
    } else {
      elem = static_cast<double>(dtype_size(static_cast<DType>(static_cast<int>(o))));
    }
  }
  if (!(elem == 1 || elem == 2 || elem == 4 || elem == 8)) return static_cast<int>(Status::DtypeMismatch);
  const double bytes = static_cast<double>(plan.out_size) * elem;
  if (!(bytes <= kMaxBytes)) return static_cast<int>(Status::TooLarge);
  const double cap = h[req_capacity];
  void* out = ptr(h[req_out]);
  const void* in[4] = {ptr(h[req_in0]), ptr(h[req_in1]), ptr(h[req_in2]), ptr(h[req_in3])};
  if (out != nullptr && (cap < 0 ? bytes != -cap : !(bytes <= cap))) return signal_outTooSmall;
  for (size_t k = 0; k < plan.ops.size() && k < 3; ++k)
    if (out != nullptr && aliases_unsafely(plan, static_cast<int>(k), in[k], out)) return signal_outOverlaps;
  if (out != nullptr && P.named.needs_gather && h[req_rule] == static_cast<int>(Rule::named) && (in[0] == out || in[1] == out))
    return signal_outOverlaps;  // a gather reads cells in another order
  if (out != nullptr && out == in[0] && (action == Action::unary || action == Action::cast) &&
      elem != static_cast<double>(dtype_size(dt)))
    return signal_outOverlaps;  // in place needs elements of one size
  void* fresh = nullptr;
  if (out == nullptr) {
    out = fresh = allocate(bytes > 0 ? bytes : 1);
    if (!out) return static_cast<int>(Status::TooLarge);
  }
  Status st;
  switch (action) {
    case Action::binary:
      st = (h[req_rule] == static_cast<int>(Rule::named) && P.named.needs_gather)
               ? run_binary_gather(plan, P.named, dt, op, in[0], in[1], in[2], in[3], out)
               : run_binary(plan, dt, op, in[0], in[1], out);
      break;
    case Action::where: st = run_where(plan, dt, static_cast<size_t>(elem), in[0], in[1], in[2], out); break;
    case Action::copy: st = run_copy(plan, static_cast<size_t>(elem), in[0], out); break;
    case Action::unary:  // a one-operand numpy plan: the input in the output's order (a view: strided)
      st = run_map(plan, dtype_size(dt), static_cast<size_t>(elem), find_unary(dt, static_cast<UnaryOp>(static_cast<int>(h[req_op]))),
                   in[0], out);
      break;
    case Action::cast:
      st = run_map(plan, dtype_size(dt), static_cast<size_t>(elem), find_cast(dt, static_cast<DType>(static_cast<int>(h[req_op]))),
                   in[0], out);
      break;
    default: st = Status::InvalidShape; break;
  }
  if (st != Status::Ok) {
    release(fresh);
    return static_cast<int>(st);
  }
  resp[resp_result] = addr(fresh);  // unsigned, as every address on the wire
  return 0;
}

#endif  // TC_SHAPES_ONLY

// A numpy shape call whose shapes are static and broadcast (broadcastShapes'
// common call), answered by numpy_static_shape straight from the request: no
// Shape records, no plan, no cache key. Anything else, a refusal included,
// goes on to the planned answer (with its error). A new rank-4 pair measured
// 84-92 ns per raw call against 163-185 ns planned; a repeated one 62-67
// against the cache's 45-55 (Node, min of interleaved rounds).
bool numpy_lane(const double* h, const double* body, size_t n, PodVector<double>& resp) {
  const double k = h[req_operands];
  if (h[req_rule] != static_cast<int>(Rule::numpy) || !(k >= 0 && k <= kMaxOperands) ||
      k != static_cast<double>(static_cast<int>(k)))
    return false;
  Writer w{resp};
  w.reserve(1 + kMaxRank);
  const int rank = numpy_static_shape(body, n, static_cast<int>(k), resp.data() + w.n + 1);
  if (rank < 0) return false;
  // The head of a shape answer that succeeds is its status: JS reads the error fields only from a refusal.
  resp[resp_status] = static_cast<int>(Status::Ok);
  resp[w.n] = rank;
  return true;
}

// actions shape and explain: the plan alone. A numpy shape call over static
// shapes is answered by numpy_lane; any other shape call repeated with the
// same shapes is answered from the last one's plan (shape_plan).
void call_shape(const double* h, const double* body, size_t n, bool explain, PodVector<double>& resp) {
  if (!explain && numpy_lane(h, body, n, resp)) return;
  const Planned& P = explain ? planned_once(h, body, n) : shape_plan(h, body, n);
  write_head(resp, static_cast<int>(P.st), P.err);
  Writer w{resp};
  if (P.st == Status::Ok) w.shape(P.plan.out);
  if (explain) write_plan(w, P.plan);
  if (P.st == Status::Ok && h[req_rule] == static_cast<int>(Rule::named)) write_named(w, P.named, explain);
}


}  // namespace

extern "C" {

// Every address an export takes or returns is an Addr (unsigned: calls.hpp).

// The request buffer, grown to hold `doubles` (its address may change then:
// JS asks before writing each request, and no user code runs in between).
EMSCRIPTEN_KEEPALIVE Addr tc_request(int doubles) {
  if (doubles > 0 && static_cast<size_t>(doubles) > g_req.size()) g_req.resize(static_cast<size_t>(doubles) * 2);
  return addr(g_req.data());
}

// Answer the request of `len` doubles; returns the response's address.
EMSCRIPTEN_KEEPALIVE Addr tc_call(int len) {
  const size_t n = len < 0 ? 0 : static_cast<size_t>(len) < g_req.size() ? static_cast<size_t>(len) : g_req.size();
  const double* h = g_req.data();
  Error none;
  if (n < kReqHeader) {
    none.code = Status::InvalidShape;
    write_head(g_resp, static_cast<int>(Status::InvalidShape), none);
    return addr(g_resp.data());
  }
  const double* body = h + kReqHeader;
  const size_t body_len = n - kReqHeader;
  const double action = h[req_action];
  Writer w{g_resp};
  if (action == static_cast<int>(Action::axes)) {
    call_axes(h, body, body_len, g_resp);
    return addr(g_resp.data());
  }
#ifndef TC_SHAPES_ONLY
  if (action == static_cast<int>(Action::reduce) || action == static_cast<int>(Action::unbroadcast)) {
    if (action == static_cast<int>(Action::reduce)) call_reduce(h, body, body_len, g_resp);
    else call_unbroadcast(h, body, body_len, g_resp);
    return addr(g_resp.data());
  }
  if (action == static_cast<int>(Action::expr_parse)) {
    call_parse(h, body, body_len, g_resp);
    return addr(g_resp.data());
  }
  if (action == static_cast<int>(Action::expr_run) || action == static_cast<int>(Action::expr_explain)) {
    call_expr(h, body, body_len, action == static_cast<int>(Action::expr_explain), g_resp);
    return addr(g_resp.data());
  }
#endif
  if (action == static_cast<int>(Action::shape) || action == static_cast<int>(Action::explain)) {
    call_shape(h, body, body_len, action == static_cast<int>(Action::explain), g_resp);
    return addr(g_resp.data());
  }
#ifdef TC_SHAPES_ONLY
  // No kernels in this build: a data action is not a request it can answer.
  none.code = Status::InvalidShape;
  write_head(g_resp, static_cast<int>(Status::InvalidShape), none);
  (void)w;
  return addr(g_resp.data());
#else
  const Planned& P = cached_plan(h, body, body_len);
  if (P.st != Status::Ok) {
    write_head(g_resp, static_cast<int>(P.st), P.err);
    return addr(g_resp.data());
  }
  // A data call that succeeds answers with its status, result and shape: the
  // head's error fields are written only where JS reads them (a refusal).
  g_resp[resp_result] = 0;
  const int st = run(h, P, g_resp);
  if (st != 0) write_head(g_resp, st, none);
  g_resp[resp_status] = st;
  w.shape(P.plan.out);
  if (st == 0 && h[req_rule] == static_cast<int>(Rule::named)) {
    write_named(w, P.named, false);
  } else if (st == 0 && action == static_cast<int>(Action::binary)) {
    // The plan this call ran, for tc_rerun_binary: its cache entry and generation (-1: not cached).
    int entry = -1;
    for (int k = 0; k < kCacheEntries; ++k)
      if (&g_cache[k].p == &P) entry = k;
    w.put(entry);
    w.put(entry >= 0 ? g_cache[entry].gen : 0);
  }
  return addr(g_resp.data());
#endif
}

#ifdef TC_SHAPES_ONLY
// The shapes-only build says so in its exports: the loader's module check
// (loader.js) tells the two builds apart by this export and by the data
// path's exports below, which only the full build has.
EMSCRIPTEN_KEEPALIVE int tc_shapes_only() { return 1; }
#else
// A block of `bytes` (0: none could be allocated), given back by tc_free.
EMSCRIPTEN_KEEPALIVE Addr tc_malloc(double bytes) { return addr(allocate(bytes)); }
EMSCRIPTEN_KEEPALIVE void tc_free(Addr p) { release(at(p)); }
EMSCRIPTEN_KEEPALIVE double tc_allocated_bytes() { return static_cast<double>(allocated_bytes()); }

// An element-wise call the engine has answered Ok, made again (execute.js
// runBinary): the same request, so the same plan (cache entry `entry`, while
// it still holds plan `gen`), dtype, op and buffers. Answered then as tc_call
// answers it, without reading a request: for the same request every check of
// run() gives what it gave, and only the kernel has work to do. 1: not that
// plan any more (or not a call it can make): the caller sends the request.
EMSCRIPTEN_KEEPALIVE int tc_rerun_binary(int entry, double gen, int dt, int op, Addr a, Addr b, Addr out) {
  if (entry < 0 || entry >= kCacheEntries || !g_cache[entry].valid || g_cache[entry].gen != gen) return 1;
  if (dt < 0 || dt >= static_cast<int>(DType::count) || op < 0 || op >= static_cast<int>(Op::count)) return 1;
  if (!op_defined(static_cast<DType>(dt), static_cast<Op>(op)) || out == 0) return 1;
  return run_binary(g_cache[entry].p.plan, static_cast<DType>(dt), static_cast<Op>(op), at(a), at(b), at(out)) == Status::Ok ? 0 : 1;
}

#endif  // TC_SHAPES_ONLY

}  // extern "C"

// The wasm boundary for data: allocation, and running the last plan a rule
// export computed (called with detail = 2) over buffers in wasm memory.
// Status values come back as ints; nothing throws.
#include <emscripten/emscripten.h>

#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include "abi.hpp"
#include "kernels/driver.hpp"

using namespace tc;

namespace {

// The fast path's plans (kept apart from the rule exports' plan), each with
// the request it answers: a few recent ones, so code that alternates between
// some shapes plans each of them once. Replaced round robin.
struct FastPlan {
  static constexpr int kKeyMax = 2 * (1 + kMaxRank);
  Plan plan;
  Error err;
  double key[kKeyMax];
  int len = 0;
  int rule = 0;
  double axis = 0;
  bool valid = false;

  bool answers(int r, double ax, const double* req, int n) const {
    return valid && rule == r && axis == ax && len == n && std::memcmp(key, req, static_cast<size_t>(n) * sizeof(double)) == 0;
  }
};
constexpr int kFastPlans = 4;
FastPlan g_fast[kFastPlans];
int g_fast_last = 0;  // the entry that answered last (checked first)
int g_fast_next = 0;  // the entry to replace next

// Every allocation carries a header with its size, so memory() can report the
// bytes held and the leak tests can compare against a baseline. Data starts on
// a cache line: 16-byte vector accesses then never straddle two lines.
constexpr size_t kHeader = 64;
size_t g_allocated = 0;
size_t g_allocations = 0;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void* tc_malloc(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967296.0 - 65536.0) return nullptr;
  const size_t n = static_cast<size_t>(bytes);
  auto* p = static_cast<unsigned char*>(memalign(kHeader, n + kHeader));
  if (!p) return nullptr;
  std::memcpy(p, &n, sizeof n);
  g_allocated += n;
  ++g_allocations;
  return p + kHeader;
}

EMSCRIPTEN_KEEPALIVE void tc_free(void* ptr) {
  if (!ptr) return;
  auto* p = static_cast<unsigned char*>(ptr) - kHeader;
  size_t n;
  std::memcpy(&n, p, sizeof n);
  g_allocated -= n;
  --g_allocations;
  std::free(p);
}

EMSCRIPTEN_KEEPALIVE double tc_allocated_bytes() { return static_cast<double>(g_allocated); }
EMSCRIPTEN_KEEPALIVE int tc_allocation_count() { return static_cast<int>(g_allocations); }

// a (op) b over the last two-operand plan.
EMSCRIPTEN_KEEPALIVE int tc_run_binary(int op, int dtype, const void* a, const void* b, void* out) {
  if (op < 0 || op >= static_cast<int>(Op::count) || dtype < 0 || dtype >= static_cast<int>(DType::count))
    return static_cast<int>(Status::DtypeMismatch);
  return static_cast<int>(run_binary(abi_plan(), static_cast<DType>(dtype), static_cast<Op>(op), a, b, out));
}

// Plan and run in one call (the small-call fast path): the two static shapes
// are in the request; rule -1 numpy (§1), 0 none (§2), 1 pdpd with `axis` (§3).
// On Ok the response head is status 0, then the out shape. -2: the result
// needs more than `out_capacity` bytes (or, for a negative capacity, other
// than exactly -out_capacity bytes) and nothing ran (the head holds the out
// shape: grow and call again). Any other status is a refusal whose
// response is NOT written: the caller asks the rule exports for the error.
// A call with the same request as the last successful one reuses its plan.
EMSCRIPTEN_KEEPALIVE int tc_binary_run(int rule, double axis, int op, int dtype, int in_len, const void* a,
                                       const void* b, void* out, double out_capacity) {
  if (op < 0 || op >= static_cast<int>(Op::count) || dtype < 0 || dtype >= static_cast<int>(DType::count))
    return static_cast<int>(Status::DtypeMismatch);
  if (in_len < 0 || in_len > abi_request_capacity()) return static_cast<int>(Status::InvalidShape);
  const double* req = abi_request();
  int e = -1;
  if (g_fast[g_fast_last].answers(rule, axis, req, in_len)) e = g_fast_last;
  for (int k = 0; e < 0 && k < kFastPlans; ++k)
    if (g_fast[k].answers(rule, axis, req, in_len)) e = k;
  if (e < 0) {
    e = g_fast_next;
    FastPlan& f = g_fast[e];
    f.valid = false;
    Shape s[2];
    if (!abi_read_shapes(in_len, s, 2)) return static_cast<int>(Status::InvalidShape);
    f.plan.shape_only = false;
    const i64 ax = (axis >= -4.0e18 && axis <= 4.0e18) ? static_cast<i64>(axis) : (axis < 0 ? INT64_MIN : INT64_MAX);
    Status st;
    switch (rule) {
      case -1: st = broadcast_numpy(s, 2, f.plan, f.err); break;
      case 0: st = broadcast_none(s[0], s[1], f.plan, f.err); break;
      case 1: st = broadcast_pdpd(s[0], s[1], ax, f.plan, f.err); break;
      default: return static_cast<int>(Status::InvalidShape);
    }
    if (st != Status::Ok) return static_cast<int>(st);
    if (!f.plan.is_static) return static_cast<int>(Status::InvalidShape);
    if (in_len <= FastPlan::kKeyMax) {
      std::memcpy(f.key, req, static_cast<size_t>(in_len) * sizeof(double));
      f.rule = rule;
      f.axis = axis;
      f.len = in_len;
      f.valid = true;
      g_fast_next = (g_fast_next + 1) % kFastPlans;
    }
  }
  g_fast_last = e;
  const Plan& plan = g_fast[e].plan;
  int cap = 0;
  double* res = abi_response(&cap);
  if (cap < 2 + plan.out.rank) return static_cast<int>(Status::InvalidShape);
  res[0] = 0;
  res[1] = plan.out.rank;
  for (int i = 0; i < plan.out.rank; ++i) res[2 + i] = static_cast<double>(plan.out.dims[i].lo);
  const DType dt = static_cast<DType>(dtype);
  const Op o = static_cast<Op>(op);
  const double bytes = static_cast<double>(plan.out_size) * static_cast<double>(op_yields_bool(o) ? 1 : dtype_size(dt));
  // A negative capacity asks for exactly -out_capacity bytes (a resident `out`).
  if (out_capacity < 0 ? bytes != -out_capacity : !(bytes <= out_capacity)) return -2;
  return static_cast<int>(run_binary(plan, dt, o, a, b, out));
}

// Named operands with re-indexed labeled dims (last tc_named call, detail 2).
EMSCRIPTEN_KEEPALIVE int tc_run_binary_gather(int op, int dtype, const void* a, const void* b, const void* fill_a,
                                              const void* fill_b, void* out) {
  if (op < 0 || op >= static_cast<int>(Op::count) || dtype < 0 || dtype >= static_cast<int>(DType::count))
    return static_cast<int>(Status::DtypeMismatch);
  return static_cast<int>(run_binary_gather(abi_plan(), abi_named_plan(), static_cast<DType>(dtype),
                                            static_cast<Op>(op), a, b, fill_a, fill_b, out));
}

// Materialise the last one-operand plan (a broadcastTo rule).
EMSCRIPTEN_KEEPALIVE int tc_run_copy(int elem_size, const void* in, void* out) {
  return static_cast<int>(run_copy(abi_plan(), static_cast<size_t>(elem_size), in, out));
}

// where(cond, x, y) over the last three-operand numpy plan.
EMSCRIPTEN_KEEPALIVE int tc_run_where(int cond_dtype, int elem_size, const void* c, const void* x, const void* y,
                                      void* out) {
  if (cond_dtype < 0 || cond_dtype >= static_cast<int>(DType::count)) return static_cast<int>(Status::DtypeMismatch);
  return static_cast<int>(run_where(abi_plan(), static_cast<DType>(cond_dtype), static_cast<size_t>(elem_size), c, x, y, out));
}

// Test hook: run one registry kernel (by index) on raw buffers, so the JS
// tests can sweep every SIMD kernel against its scalar reference.
EMSCRIPTEN_KEEPALIVE int tc_kernel_count() {
  size_t n;
  kernel_registry(&n);
  return static_cast<int>(n);
}

// Writes "name\0" into `name_out` (64 bytes) and returns dtype | op << 8 | form << 16 | simd << 24.
EMSCRIPTEN_KEEPALIVE int tc_kernel_info(int i, char* name_out) {
  size_t n;
  const KernelInfo* k = kernel_registry(&n);
  if (i < 0 || static_cast<size_t>(i) >= n) return -1;
  std::strncpy(name_out, k[i].name, 63);
  name_out[63] = 0;
  return static_cast<int>(k[i].dtype) | static_cast<int>(k[i].op) << 8 | static_cast<int>(k[i].form) << 16 |
         (k[i].simd ? 1 : 0) << 24;
}

EMSCRIPTEN_KEEPALIVE int tc_kernel_run(int i, const void* a, const void* b, void* out, int n) {
  size_t count;
  const KernelInfo* k = kernel_registry(&count);
  if (i < 0 || static_cast<size_t>(i) >= count || n < 0) return -1;
  k[i].fn(a, b, out, static_cast<size_t>(n));
  return 0;
}

// Test hooks for the select (where) kernels, as above: info returns
// elem_size | form << 16 | simd << 24.
EMSCRIPTEN_KEEPALIVE int tc_select_count() {
  size_t n;
  select_registry(&n);
  return static_cast<int>(n);
}

EMSCRIPTEN_KEEPALIVE int tc_select_info(int i, char* name_out) {
  size_t n;
  const SelectInfo* k = select_registry(&n);
  if (i < 0 || static_cast<size_t>(i) >= n) return -1;
  std::strncpy(name_out, k[i].name, 63);
  name_out[63] = 0;
  return static_cast<int>(k[i].elem_size) | static_cast<int>(k[i].form) << 16 | (k[i].simd ? 1 : 0) << 24;
}

EMSCRIPTEN_KEEPALIVE int tc_select_run(int i, const uint8_t* mask, const void* x, const void* y, void* out, int n) {
  size_t count;
  const SelectInfo* k = select_registry(&count);
  if (i < 0 || static_cast<size_t>(i) >= count || n < 0) return -1;
  k[i].fn(mask, x, y, out, static_cast<size_t>(n));
  return 0;
}

}  // extern "C"

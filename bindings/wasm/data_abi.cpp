// The wasm boundary for data: allocation, and running the last plan a rule
// export computed (called with detail = 2) over buffers in wasm memory.
// Status values come back as ints; nothing throws.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>

#include "abi.hpp"
#include "kernels/driver.hpp"

using namespace tc;

namespace {

// Every allocation carries a 16-byte header with its size, so memory() can
// report the bytes held and the leak tests can compare against a baseline.
constexpr size_t kHeader = 16;
size_t g_allocated = 0;
size_t g_allocations = 0;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void* tc_malloc(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967296.0 - 65536.0) return nullptr;
  const size_t n = static_cast<size_t>(bytes);
  auto* p = static_cast<unsigned char*>(std::malloc(n + kHeader));
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

}  // extern "C"

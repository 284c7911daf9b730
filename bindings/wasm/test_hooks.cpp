// The kernel sweeps' hooks (bindings/js/introspect.js runKernel and the
// rest): list a registry, run one registry kernel on raw buffers. Linked into
// the test build only (tensorcast-full.wasm, CMakeLists.txt): the shipped
// module has no use for them, and the public API reaches every kernel through
// its ops (its one listing, kernels(), is tc_listing in contract.cpp).
#include <emscripten/emscripten.h>

#include <cstdint>

#include "kernels/driver.hpp"
#include "kernels/reduce.hpp"
#include "calls.hpp"
#include "listing.hpp"

using namespace tc;
using namespace tc::calls;

extern "C" {

// Kernel registry `which` (1 select, 2 reduction, 3 unary, 4 cast) as
// listing.hpp's records; their fields are pointers to names, except select's
// width (bytes), 0 where unused:
//   1: width, form     2: dtype, op, shape     3: dtype, op     4: from, to
// Writes the first `cap` records at `at` and returns how many the registry
// has, or -1 for another `which` (0, the element-wise kernels: tc_listing).
EMSCRIPTEN_KEEPALIVE int tc_test_listing(int which, Addr at_, int cap) {
  using listing::records;
  using listing::text;
  uint32_t* out = static_cast<uint32_t*>(at(at_));
  size_t n = 0;
  switch (which) {
    case 1:
      return records(select_registry(&n), n, out, cap, [](const SelectInfo& e, uint32_t* f) {
        f[0] = static_cast<uint32_t>(e.elem_size);
        f[1] = text(select_form_name(e.form));
      });
    case 2:
      return records(reduce_registry(&n), n, out, cap, [](const ReduceKernelInfo& e, uint32_t* f) {
        f[0] = text(dtype_js_name(e.dtype));
        f[1] = text(reduce_op_name(e.op));
        f[2] = text(reduce_shape_name(e.shape));
      });
    case 3:
      return records(unary_registry(&n), n, out, cap, [](const UnaryKernelInfo& e, uint32_t* f) {
        f[0] = text(dtype_js_name(e.dtype));
        f[1] = text(unary_traits(e.op).name);
      });
    case 4:
      return records(cast_registry(&n), n, out, cap, [](const UnaryKernelInfo& e, uint32_t* f) {
        f[0] = text(dtype_js_name(e.dtype));
        f[1] = text(dtype_js_name(e.to));
      });
    default:
      return -1;
  }
}

// Test hooks: run one registry kernel on raw buffers (the JS kernel sweeps).
EMSCRIPTEN_KEEPALIVE int tc_kernel_run(int i, Addr a, Addr b, Addr out, int n) {
  size_t count;
  const KernelInfo* k = kernel_registry(&count);
  if (i < 0 || static_cast<size_t>(i) >= count || n < 0) return -1;
  k[i].fn(at(a), at(b), at(out), static_cast<size_t>(n));
  return 0;
}

// Run reduction kernel i: row kernels reduce n elements; col kernels combine
// `rows` rows of n (row stride `stride`) lane-wise.
EMSCRIPTEN_KEEPALIVE int tc_reduce_kernel_run(int i, Addr x, int rows, int n, int stride, Addr out) {
  size_t count;
  const ReduceKernelInfo* k = reduce_registry(&count);
  if (i < 0 || static_cast<size_t>(i) >= count || n < 1 || rows < 1 || stride < n) return -1;
  if (k[i].shape == ReduceShape::row) k[i].row(at(x), static_cast<size_t>(n), at(out));
  else k[i].col(at(x), static_cast<size_t>(rows), static_cast<size_t>(n), static_cast<size_t>(stride), at(out));
  return 0;
}

// Run unary kernel i (unary_registry) or cast kernel i (cast_registry) on n elements.
static int run_unary_entry(const UnaryKernelInfo* k, size_t count, int i, Addr in, Addr out, int n) {
  if (i < 0 || static_cast<size_t>(i) >= count || n < 0) return -1;
  k[i].fn(at(in), at(out), static_cast<size_t>(n));
  return 0;
}
EMSCRIPTEN_KEEPALIVE int tc_unary_kernel_run(int i, Addr in, Addr out, int n) {
  size_t count;
  const UnaryKernelInfo* k = unary_registry(&count);
  return run_unary_entry(k, count, i, in, out, n);
}
EMSCRIPTEN_KEEPALIVE int tc_cast_kernel_run(int i, Addr in, Addr out, int n) {
  size_t count;
  const UnaryKernelInfo* k = cast_registry(&count);
  return run_unary_entry(k, count, i, in, out, n);
}

EMSCRIPTEN_KEEPALIVE int tc_select_run(int i, Addr mask, Addr x, Addr y, Addr out, int n) {
  size_t count;
  const SelectInfo* k = select_registry(&count);
  if (i < 0 || static_cast<size_t>(i) >= count || n < 0) return -1;
  k[i].fn(static_cast<const uint8_t*>(at(mask)), at(x), at(y), at(out), static_cast<size_t>(n));
  return 0;
}
}  // extern "C"

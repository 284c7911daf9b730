// What the harnesses over strided views share (views_fuzz.cpp, eval_fuzz.cpp):
// the input reader, a view of its own exact-size heap block, its row-major
// copy, the element comparison (NaNs compare as NaNs) and exact-size result
// blocks. How a harness reads a view's strides and fills its block from the
// input stays in the harness: each has its own input layout.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/shape.hpp"
#include "kernels/kernels.hpp"

namespace tc::fuzz {

[[noreturn]] inline void violated(const char* what, const char* file) {
  std::fprintf(stderr, "%s: invariant violated: %s\n", file, what);
  std::abort();
}
#define CHECK(cond) \
  do {              \
    if (!(cond)) ::tc::fuzz::violated(#cond, __FILE__); \
  } while (0)

struct Bytes {
  const uint8_t* p;
  const uint8_t* end;
  uint8_t u8() { return p < end ? *p++ : 0; }
};

// A strided view of its own block, which holds exactly the view's span, so
// that a read outside it is an ASan report.
struct View {
  Shape shape;
  i64 strides[kMaxRank] = {};
  i64 elems = 1;       // of the view
  i64 lo = 0, hi = 0;  // element span relative to element 0: [lo, hi]
  std::unique_ptr<unsigned char[]> block;  // exactly the span
  size_t block_bytes = 0;
  const unsigned char* first = nullptr;    // element 0
};

// The view as a row-major copy (exact size).
inline std::vector<unsigned char> gather(const View& v, size_t es) {
  std::vector<unsigned char> out(static_cast<size_t>(v.elems) * es);
  i64 idx[kMaxRank] = {};
  for (i64 k = 0; k < v.elems; ++k) {
    i64 off = 0;
    for (int a = 0; a < v.shape.rank; ++a) off += idx[a] * v.strides[a];
    std::memcpy(out.data() + static_cast<size_t>(k) * es, v.first + off * static_cast<i64>(es), es);
    for (int a = v.shape.rank - 1; a >= 0; --a) {
      if (++idx[a] < v.shape.dims[a].lo) break;
      idx[a] = 0;
    }
  }
  return out;
}

// One element of dtype `dt` the same in both (any NaN equals any NaN).
inline bool same_element(DType dt, const unsigned char* x, const unsigned char* y) {
  if (dt == DType::f32) {
    float a, b;
    std::memcpy(&a, x, 4), std::memcpy(&b, y, 4);
    if (std::isnan(a) && std::isnan(b)) return true;
  } else if (dt == DType::f64) {
    double a, b;
    std::memcpy(&a, x, 8), std::memcpy(&b, y, 8);
    if (std::isnan(a) && std::isnan(b)) return true;
  } else if (dt == DType::f16) {
    uint16_t a, b;
    std::memcpy(&a, x, 2), std::memcpy(&b, y, 2);
    if ((a & 0x7c00) == 0x7c00 && (a & 0x3ff) && (b & 0x7c00) == 0x7c00 && (b & 0x3ff)) return true;
  }
  return std::memcmp(x, y, dtype_size(dt)) == 0;
}

// Exact-size result blocks (at least one byte, so that data() is a heap address).
struct Out {
  std::unique_ptr<unsigned char[]> p;
  size_t n;
  explicit Out(size_t bytes) : p(new unsigned char[bytes ? bytes : 1]), n(bytes) { std::memset(p.get(), 0xab, bytes ? bytes : 1); }
  std::vector<unsigned char> bytes() const { return std::vector<unsigned char>(p.get(), p.get() + n); }
};

}  // namespace tc::fuzz

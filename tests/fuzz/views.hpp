// What the harnesses over strided views share (views_fuzz.cpp, eval_fuzz.cpp):
// the input reader, a view of its own exact-size heap block, its row-major
// copy, the element comparison (NaNs compare as NaNs) and exact-size result
// blocks, the strides a view is laid out with and the block its bytes fill. How
// a harness reads those choices and the values from its input stays in the
// harness: each has its own input layout.
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

// Strides over the view's dims, one choice an axis: `step` 0 row-major, 1 every
// other element, 2 stretched (0), 3 `custom`; `flip` negates it. Sets the
// element count and the span [lo, hi] relative to element 0.
inline void lay_out(View& v, const int* step, const bool* flip, const int* custom) {
  i64 row = 1;
  v.elems = 1;
  v.lo = v.hi = 0;
  for (int a = v.shape.rank - 1; a >= 0; --a) {
    const i64 d = v.shape.dims[a].lo;
    v.elems *= d;
    i64 s = step[a] == 0 ? row : step[a] == 1 ? 2 * row : step[a] == 2 ? 0 : custom[a];
    if (flip[a]) s = -s;
    v.strides[a] = s;
    row *= d ? d : 1;
    if (d > 1) {
      const i64 ext = (d - 1) * s;
      (ext < 0 ? v.lo : v.hi) += ext;
    }
  }
}

// The view's block: exactly its span (nothing when it has no elements), its
// bytes taken from the input's tail in turn from `at`. Returns the block.
inline unsigned char* fill_block(View& v, size_t es, const uint8_t* data, size_t n, size_t& at) {
  const i64 span = v.elems ? v.hi - v.lo + 1 : 0;
  v.block_bytes = static_cast<size_t>(span) * es;
  v.block.reset(new unsigned char[v.block_bytes ? v.block_bytes : 1]);
  unsigned char* p = v.block.get();
  for (size_t i = 0; i < v.block_bytes; ++i) p[i] = n ? data[at++ % n] : 0;
  // A view with no elements gets an address the kernels must not read.
  v.first = p + static_cast<size_t>(-v.lo) * es * (span ? 1 : 0);
  return p;
}

// `x`, one of 0, -0, 1, -1, 2, 0.5 and -3 (each exact in float16), as an element of float dtype `dt`.
inline void store_float(DType dt, unsigned char* e, double x) {
  if (dt == DType::f32) {
    const float f = static_cast<float>(x);
    std::memcpy(e, &f, 4);
  } else if (dt == DType::f64) {
    std::memcpy(e, &x, 8);
  } else {
    const uint16_t h = x == 0 ? (std::signbit(x) ? 0x8000 : 0)
                       : x == 1 ? 0x3c00 : x == -1 ? 0xbc00 : x == 2 ? 0x4000 : x == 0.5 ? 0x3800 : 0xc200;
    std::memcpy(e, &h, 2);
  }
}

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

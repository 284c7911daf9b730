// The kernel listings' records (tc_listing in contract.cpp, tc_test_listing
// in test_hooks.cpp; bindings/js/introspect.js decodes them): five uint32 a
// kernel, its name (the address of NUL-terminated text), three fields, and 1
// for a SIMD kernel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tc::listing {

constexpr int kRecord = 5;

// The address of text in memory, unsigned (as every address JS is given: calls.hpp, Addr).
inline uint32_t text(const char* s) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(s)); }

// Registry k[0..n) as records at `out` (the first `cap`); `fields(entry, record + 1)`
// writes the three fields. Returns n.
template <class Info, class Fields>
int records(const Info* k, size_t n, uint32_t* out, int cap, Fields fields) {
  const size_t room = cap > 0 ? static_cast<size_t>(cap) : 0;
  for (size_t i = 0; i < n && i < room; ++i) {
    uint32_t* r = out + i * kRecord;
    r[0] = text(k[i].name);
    r[1] = r[2] = r[3] = 0;
    fields(k[i], r + 1);
    r[4] = k[i].simd ? 1 : 0;
  }
  return static_cast<int>(n);
}

}  // namespace tc::listing

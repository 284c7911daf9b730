// What the boundary's files share (calls.cpp: the exports and the forward
// calls; backward.cpp: reductionAxes, reduce, unbroadcast). Not part of the
// wire contract: JS never sees these names.
#pragma once

#include <cstddef>
#include <cstdint>
#include "core/pod_vector.hpp"

#include "core/shape.hpp"

namespace tc::calls {

// A request's pdpd axis as an integer (out-of-range doubles saturate).
i64 axis_of(double axis);

// Blocks the library allocates (results, tensors): each carries its size,
// counted by allocated_bytes() / allocation_count() (memory() and the leak tests).
void* allocate(double bytes);
void release(void* ptr);
// A data block below the engine's reserve at the top of memory, or null (malloc.cpp).
void* data_block(std::size_t alignment, std::size_t size);
size_t allocated_bytes();
size_t allocation_count();

// Addresses cross the boundary unsigned. wasm32 memory grows to 4 GB here
// (-sMAXIMUM_MEMORY), and JavaScript reads a wasm i32 as a signed number,
// negative from 2 GiB on: so an export that takes or returns an address says
// Addr (uint32_t) in its signature, a request or response carries one as a
// double in [0, 2^32), and JS makes every address it is given unsigned
// (`>>> 0`) before any arithmetic on it (docs/boundary.md, "Addresses").
using Addr = std::uint32_t;
static_assert(sizeof(void*) == sizeof(Addr), "wasm32: an address is 32 bits");
inline void* at(Addr a) { return reinterpret_cast<void*>(static_cast<uintptr_t>(a)); }
inline Addr addr(const void* p) { return static_cast<Addr>(reinterpret_cast<uintptr_t>(p)); }

// A buffer address carried in a request as a double; a value that is no
// unsigned 32-bit address (JS sends none) is no buffer.
inline void* ptr(double v) {
  return v >= 0 && v < 4294967296.0 ? reinterpret_cast<void*>(static_cast<uintptr_t>(v)) : nullptr;
}

// The backward actions: `h` the request header, `body` its n doubles after it.
void call_axes(const double* h, const double* body, size_t n, PodVector<double>& resp);
void call_reduce(const double* h, const double* body, size_t n, PodVector<double>& resp);
// The expression actions (expr_call.cpp).
void call_parse(const double* h, const double* body, size_t n, PodVector<double>& resp);
void call_expr(const double* h, const double* body, size_t n, bool explain, PodVector<double>& resp);
void call_unbroadcast(const double* h, const double* body, size_t n, PodVector<double>& resp);

}  // namespace tc::calls

// What the boundary's files share (calls.cpp: the exports and the forward
// calls; backward.cpp: reductionAxes, reduce, unbroadcast). Not part of the
// wire contract: JS never sees these names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/shape.hpp"

namespace tc::calls {

// A request's pdpd axis as an integer (out-of-range doubles saturate).
i64 axis_of(double axis);

// Blocks the library allocates (results, tensors): each carries its size,
// counted by allocated_bytes() / allocation_count() (memory() and the leak tests).
void* allocate(double bytes);
void release(void* ptr);
size_t allocated_bytes();
size_t allocation_count();

// A buffer address carried in a request as a double.
inline void* ptr(double v) { return reinterpret_cast<void*>(static_cast<uintptr_t>(v)); }

// The backward actions: `h` the request header, `body` its n doubles after it.
void call_axes(const double* h, const double* body, size_t n, std::vector<double>& resp);
void call_reduce(const double* h, const double* body, size_t n, std::vector<double>& resp);
// The expression actions (expr_call.cpp).
void call_parse(const double* h, const double* body, size_t n, std::vector<double>& resp);
void call_expr(const double* h, const double* body, size_t n, bool explain, std::vector<double>& resp);
void call_unbroadcast(const double* h, const double* body, size_t n, std::vector<double>& resp);

}  // namespace tc::calls

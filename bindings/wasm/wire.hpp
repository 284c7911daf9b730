// The wire format between JavaScript and the engine: float64 words, so every
// safe-integer dim is exact. One request format serves every call; its header
// fields and the response head are declared in src/core/contract.def
// (TC_REQ, TC_RESP) and reach JS in the contract (contract.cpp), so both sides read one list.
//
// Request  := header[TC_REQ...] body
//   body for the elementwise and `to` rules: `operands` shapes; for
//   to_explicit, then the mapping: length (-1 = unknown) and entries
//   body for the named rule: two operands, each: rank, then per dim
//   name id, size, n_labels (-1 = unlabeled), label ids...
//   shape := rank dim*            rank -1 = unknown rank (no dims follow)
//   dim   := d                    d >= 0: static
//          | -1                   keep (a -1 in a §5 target)
//          | -2 lo hi             interval [lo, hi]; hi = -1: unbounded ("?" = -2 0 -1)
// A buffer's address (the header's in0..in3 and out, the head's result, an
// expression's input buffers) is a double in [0, 2^32): unsigned, as every
// address JS sees (calls.hpp, Addr).
// Response := head[TC_RESP...] then, on Ok (or -2: out too small), the output
//   shape; with action explain the plan (write_plan, also on error, best
//   effort); for the named rule on Ok the named axes (write_named).
#pragma once

#include <cstddef>
#include <cstdint>
#include "core/pod_vector.hpp"

#include "core/named_plan.hpp"
#include "core/plan.hpp"

namespace tc::wire {

enum Req : int {
#define TC_REQ(f) req_##f,
#include "core/contract.def"
  kReqHeader
};
enum Resp : int {
#define TC_RESP(f) resp_##f,
#include "core/contract.def"
  kRespHead
};

enum Signal : int {
#define TC_SIGNAL(name, value) signal_##name = value,
#include "core/contract.def"
};

struct Reader {
  const double* p;
  const double* end;
  bool ok = true;
  double next() {
    if (p >= end) { ok = false; return 0; }
    return *p++;
  }
};

// What follows a response's head, written from kRespHead on. The buffer only
// grows (JS reads by position, never by length), so a call in a loop writes
// into memory already there: no reallocation and no clearing per call.
struct Writer {
  PodVector<double>& buf;
  size_t n = kRespHead;
  void put(double v);  // out of line: inlined at every call site it cost ~0.1 KB gzipped of wasm
  void reserve(size_t more) {
    if (n + more > buf.size()) grow(n + more);
  }
  void dim(Dim d);
  void shape(const Shape& s);

 private:
  void grow(size_t need);
};

// Decoders refuse anything malformed (INVALID_SHAPE through validate_shape),
// so no input can read out of bounds or overflow a Shape.
bool read_shape(Reader& r, Shape& s);
// Labels go to `store`; offsets[i] is where dim i's start (SIZE_MAX: none).
// The store may move while it grows: point labels at it once all are read.
bool read_named(Reader& r, NamedShape& s, PodVector<i64>& store, size_t* offsets);
// Point s's labeled dims into `store` once every shape of the request is read
// (offsets from read_named); a labeled dim with no labels is still labeled: never nullptr.
void point_labels(NamedShape& s, const PodVector<i64>& store, const size_t* offsets);

// Every head field; the buffer grows to hold the head (it never shrinks).
void write_head(PodVector<double>& out, int status, const Error& err);
void write_plan(Writer& w, const Plan& plan);
void write_named(Writer& w, const NamedPlan& named, bool with_index);

}  // namespace tc::wire

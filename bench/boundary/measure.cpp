// The same small functions exported two ways, to measure what a call through
// embind costs next to a call of a raw wasm export (bench/boundary/run.mjs).
// Not part of tensorcast: a stand-alone module built into a temp directory.
//
//   count        int()                    raw: _raw_count       embind: count
//   add          int(int, int)            raw: _raw_add         embind: add
//   version      std::string()                                  embind: version
//                (the shape of tensorcast's Module.version(): a string return)
//   bs_heap      NumPy broadcast of two shapes written into a static request
//                buffer ([na, a..., nb, b...]); the result (rank, dims...) goes
//                to a static response buffer. Same C++ function both ways:
//                raw: _raw_bs_heap()      embind: bsHeap()
//   bs4          the same broadcast for two rank-4 shapes passed as 8 ints:
//                raw: _raw_bs4(...) -> rank, dims in the response buffer
//                embind: bs4Val(...)  -> a JS array built in C++ (emscripten::val)
//                embind: bs4View(...) -> typed_memory_view of the response
//   bsVal        the broadcast of two JS arrays (val in, val out), the way an
//                all-embind API would take shapes
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

using emscripten::val;

namespace {

constexpr int kMaxRank = 32;
int32_t g_req[2 + 2 * kMaxRank];
int32_t g_resp[1 + kMaxRank];

// NumPy broadcast: right-aligned, a dim of 1 stretches; -1 on a clash.
int broadcast(const int32_t* a, int na, const int32_t* b, int nb, int32_t* out) {
  const int n = na > nb ? na : nb;
  if (n > kMaxRank) return -1;
  for (int i = 0; i < n; ++i) {
    const int ia = i - (n - na);
    const int ib = i - (n - nb);
    const int32_t da = ia >= 0 ? a[ia] : 1;
    const int32_t db = ib >= 0 ? b[ib] : 1;
    if (da == db || db == 1) out[i] = da;
    else if (da == 1) out[i] = db;
    else return -1;
  }
  return n;
}

int g_count = 0;
int count() { return g_count; }
int add(int a, int b) { return a + b; }
std::string version() { return "0.2.0"; }

int bs_heap() {
  const int na = g_req[0];
  const int nb = g_req[1 + na];
  if (na < 0 || nb < 0 || na > kMaxRank || nb > kMaxRank) return -1;
  const int r = broadcast(g_req + 1, na, g_req + 2 + na, nb, g_resp + 1);
  g_resp[0] = r;
  return r;
}

int bs4(int a0, int a1, int a2, int a3, int b0, int b1, int b2, int b3) {
  const int32_t a[4] = {a0, a1, a2, a3};
  const int32_t b[4] = {b0, b1, b2, b3};
  const int r = broadcast(a, 4, b, 4, g_resp + 1);
  g_resp[0] = r;
  return r;
}

val bs4_val(int a0, int a1, int a2, int a3, int b0, int b1, int b2, int b3) {
  const int r = bs4(a0, a1, a2, a3, b0, b1, b2, b3);
  if (r < 0) return val::null();
  val out = val::array();
  for (int i = 0; i < r; ++i) out.set(i, g_resp[1 + i]);
  return out;
}

val bs4_view(int a0, int a1, int a2, int a3, int b0, int b1, int b2, int b3) {
  const int r = bs4(a0, a1, a2, a3, b0, b1, b2, b3);
  if (r < 0) return val::null();
  return val(emscripten::typed_memory_view(static_cast<size_t>(r), g_resp + 1));
}

val bs_val(val a, val b) {
  const std::vector<int32_t> va = emscripten::vecFromJSArray<int32_t>(a);
  const std::vector<int32_t> vb = emscripten::vecFromJSArray<int32_t>(b);
  int32_t out[kMaxRank];
  const int r = broadcast(va.data(), static_cast<int>(va.size()), vb.data(), static_cast<int>(vb.size()), out);
  if (r < 0) return val::null();
  val res = val::array();
  for (int i = 0; i < r; ++i) res.set(i, out[i]);
  return res;
}

}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE int raw_count() { return count(); }
EMSCRIPTEN_KEEPALIVE int raw_add(int a, int b) { return add(a, b); }
EMSCRIPTEN_KEEPALIVE int raw_bs_heap() { return bs_heap(); }
EMSCRIPTEN_KEEPALIVE int raw_bs4(int a0, int a1, int a2, int a3, int b0, int b1, int b2, int b3) {
  return bs4(a0, a1, a2, a3, b0, b1, b2, b3);
}
EMSCRIPTEN_KEEPALIVE int32_t* raw_request() { return g_req; }
EMSCRIPTEN_KEEPALIVE int32_t* raw_response() { return g_resp; }
}

EMSCRIPTEN_BINDINGS(measure) {
  emscripten::function("count", &count);
  emscripten::function("add", &add);
  emscripten::function("version", &version);
  emscripten::function("bsHeap", &bs_heap);
  emscripten::function("bs4Val", &bs4_val);
  emscripten::function("bs4View", &bs4_view);
  emscripten::function("bsVal", &bs_val);
}

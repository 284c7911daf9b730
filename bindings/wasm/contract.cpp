// The cold surface: the contract JavaScript builds its tables from at init()
// (status codes, dtypes, ops, verdicts, rules, wire layout, limits — all from
// src/core/contract.def, src/kernels/dtypes.def, ops.def, unary.def and
// reduce_ops.def; one JSON text), the version, which dtypes have SIMD kernels,
// and the element-wise kernels' listing. Called once or rarely; the hot calls are raw
// exports (calls.cpp). No embind (its runtime was most of the glue): text and
// numbers in memory, read by loader.js, contract.js and introspect.js.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "core/contract.hpp"
#include "listing.hpp"
#ifndef TC_SHAPES_ONLY
#include "kernels/kernels.hpp"
#include "kernels/reduce.hpp"
#endif

using namespace tc;

namespace {

// The contract is handed over as one JSON text, parsed by JS in one
// JSON.parse. Every name is an identifier of ours (no character needs
// escaping). It is written by the compiler (contract_text() is constexpr: a
// length pass, then the text; see kContract), so the module carries the JSON
// as data and no code to build it.
template <class Out>
class Json {
 public:
  Out out;
  constexpr Json& raw(const char* s) { out += s; return *this; }
  constexpr Json& str(const char* s) { out += '"'; out += s; out += '"'; return *this; }
  // Integers only (every number of the contract is one); no printf in the module.
  constexpr Json& num(double v) {
    long long n = static_cast<long long>(v);
    if (n < 0) { out += '-'; n = -n; }
    char b[24] = {};
    int i = 0;
    do { b[i++] = static_cast<char>('0' + n % 10); n /= 10; } while (n > 0);
    while (i > 0) out += b[--i];
    return *this;
  }
  constexpr Json& key(const char* k) { comma(); str(k); out += ':'; first_ = true; return *this; }
  constexpr Json& open(char c) { comma(); out += c; first_ = true; return *this; }
  constexpr Json& close(char c) { out += c; first_ = false; return *this; }
  constexpr Json& item_str(const char* s) { comma(); str(s); first_ = false; return *this; }
  constexpr Json& item_num(double v) { comma(); num(v); first_ = false; return *this; }
  constexpr Json& field(const char* k, const char* v) { key(k); str(v); first_ = false; return *this; }
  constexpr Json& field(const char* k, double v) { key(k); num(v); first_ = false; return *this; }

 private:
  bool first_ = true;
  constexpr void comma() {
    if (!first_) out += ',';
    first_ = false;
  }
};

#ifndef TC_SHAPES_ONLY
constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
// An element-wise or unary op: [name, domain, kernel (the name in kernel names), 1 for a
// boolean result], the entries after the name left out from the first of those that are
// all defaults ("any"; the name; "same": contract.js); 0 for a default before one that is not.
template <class J, class Traits>
constexpr void op_json(J& j, const Traits& t, const char* kernel) {
  const bool boolean = t.result == OpResult::boolean;
  const bool named = !same_text(kernel, t.name);
  j.open('[').item_str(t.name);
  if (t.domain != OpDomain::any) j.item_str(t.domain == OpDomain::integer ? "integer" : "float");
  else if (named || boolean) j.item_num(0);
  if (named) j.item_str(kernel);
  else if (boolean) j.item_num(0);
  if (boolean) j.item_num(1);
  j.close(']');
}
#endif

template <class Out>
constexpr Out contract_text() {
  Json<Out> j;
  // One array of the parts, in this order (contract.js reads them by place):
  // build, statuses, signals, verdicts, inner, rules, actions, shapings, limits,
  // request, response, dtypes, ops, unaryOps, reduceOps, reduceAcc.
  j.open('[');
  // Which build this is: "full", or "shapes" (tensorcast/shapes: the rules
  // without kernels, whose dtypes, ops and reductions lists are empty).
#ifdef TC_SHAPES_ONLY
  j.item_str("shapes");
#else
  j.item_str("full");
#endif
  j.open('[');
#define TC_STATUS(e, code) j.item_str(code);
#include "core/contract.def"
  j.close(']');
  j.open('{');
#define TC_SIGNAL(name, value) j.field(#name, static_cast<double>(value));
#include "core/contract.def"
  j.close('}');
  j.open('[');
#define TC_VERDICT(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.open('[');
#define TC_INNER(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.open('[');
// A rule: [id, name, family] (contract.js makes it { id, name, family }).
#define TC_RULE(e, name, family) j.open('[').item_str(#e).item_str(name).item_str(family).close(']');
#include "core/contract.def"
  j.close(']');
  j.open('[');
#define TC_ACTION(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.open('[');
#define TC_SHAPING(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.open('{');
#define TC_LIMIT(name, value) j.field(#name, static_cast<double>(value));
#include "core/contract.def"
  j.close('}');
  j.open('[');
#define TC_REQ(f) j.item_str(#f);
#include "core/contract.def"
  j.close(']');
  j.open('[');
#define TC_RESP(f) j.item_str(#f);
#include "core/contract.def"
  j.close(']');
#ifdef TC_SHAPES_ONLY
  j.open('[').close(']');
  j.open('[').close(']');
  j.open('[').close(']');
  j.open('[').close(']');
  j.open('[').close(']');
#else
  j.open('[');
// A dtype: [name, short, array, kind, size] (contract.js names the fields).
#define TC_DTYPE(e, name, ctype, array, kind) \
  j.open('[').item_str(name).item_str(#e).item_str(array).item_str(kind).item_num(static_cast<double>(sizeof(ctype))).close(']');
#include "kernels/dtypes.def"
  j.close(']');
  // Each op's "simd" list (the dtypes with a SIMD kernel in this build) is not
  // a compile-time value of this file: JS asks tc_simd_dtypes() for it.
  j.open('[');
#define TC_OP(e, js, result, domain) op_json(j, op_traits(Op::e), #e);
#include "kernels/ops.def"
  j.close(']');
  j.open('[');
#define TC_UNARY(e, js, result, domain) op_json(j, unary_traits(UnaryOp::e), #e);
#include "kernels/unary.def"
  j.close(']');
  j.open('[');
#define TC_REDUCE_OP(e, kernel, merge) j.item_str(#e);
#include "kernels/reduce_ops.def"
  j.close(']');
  // The result dtype of each reduction without a `dtype` option: reduceAcc[op][dtype]
  // (mean of integers is float64), as an index into dtypes.
  j.open('[');
  for (int i = 0; i < static_cast<int>(ReduceOp::count); ++i) {
    j.open('[');
    for (int d = 0; d < static_cast<int>(DType::count); ++d)
      j.item_num(static_cast<int>(reduce_default_acc(static_cast<ReduceOp>(i), static_cast<DType>(d))));
    j.close(']');
  }
  j.close(']');
#endif
  j.close(']');
  return j.out;
}

// The text written by the compiler: a length pass, then the text.
struct Length {
  int n = 0;
  constexpr Length& operator+=(char) { ++n; return *this; }
  constexpr Length& operator+=(const char* s) { while (*s++) ++n; return *this; }
};
template <int N>
struct Text {
  char s[N + 1] = {};
  int n = 0;
  constexpr Text& operator+=(char c) { s[n++] = c; return *this; }
  constexpr Text& operator+=(const char* p) { while (*p) s[n++] = *p++; return *this; }
};
constexpr int kContractLength = contract_text<Length>().n;
constexpr Text<kContractLength> kContract = contract_text<Text<kContractLength>>();

using tc::listing::text;

}  // namespace

// package.json's version, passed in by CMakeLists.txt: declared once, so the npm
// package and contract().version cannot drift apart.
#ifndef TC_VERSION
#error "TC_VERSION (package.json's version) is defined by CMakeLists.txt for this file"
#endif

extern "C" {
// The contract (JSON) and the version: NUL-terminated UTF-8 in memory, the
// same in both builds (loader.js reads them).
// Their addresses are unsigned (uint32_t: JS reads a wasm i32 as signed, and
// memory grows past 2 GiB; calls.hpp, Addr).
EMSCRIPTEN_KEEPALIVE uint32_t tc_contract() { return text(kContract.s); }
EMSCRIPTEN_KEEPALIVE uint32_t tc_version() { return text(TC_VERSION); }

#ifndef TC_SHAPES_ONLY
// Which dtypes have a SIMD kernel (any form) for element-wise op `op`, or with
// `unary` for unary op `op`: bit d for dtype d (0 for an op out of range).
EMSCRIPTEN_KEEPALIVE uint32_t tc_simd_dtypes(int unary, int op) {
  uint32_t bits = 0;
  for (int d = 0; d < static_cast<int>(DType::count); ++d) {
    const DType dt = static_cast<DType>(d);
    if (unary ? has_simd_unary(dt, static_cast<UnaryOp>(op)) : has_simd_kernel(dt, static_cast<Op>(op))) bits |= 1u << d;
  }
  return bits;
}

// The element-wise kernels (kernels()) as records of five uint32: the
// kernel's name (a pointer to NUL-terminated text), its dtype, op and form
// (pointers to names), and 1 for a SIMD kernel (listing.hpp). Writes the first
// `cap` records at `out` (introspect.js decodes them) and returns how many
// there are; -1 for another `which`: the other registries (select,
// reduction, unary, cast) are the kernel sweeps' and listed by the test
// build alone (test_hooks.cpp, tc_test_listing).
EMSCRIPTEN_KEEPALIVE int tc_listing(int which, uint32_t at, int cap) {
  if (which != 0) return -1;
  size_t n = 0;
  return listing::records(kernel_registry(&n), n, reinterpret_cast<uint32_t*>(static_cast<uintptr_t>(at)), cap,
                          [](const KernelInfo& e, uint32_t* f) {
                            f[0] = text(dtype_js_name(e.dtype));
                            f[1] = text(op_traits(e.op).name);
                            f[2] = text(form_name(e.form));
                          });
}
#endif  // TC_SHAPES_ONLY
}

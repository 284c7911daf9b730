// The cold, rich surface, carried by embind: the contract JavaScript builds
// its tables from at init() (status codes, dtypes, ops, verdicts, rules, wire
// layout, limits — all from src/core/contract.def, src/kernels/dtypes.def and
// src/kernels/ops.def; one JSON text), the kernel registries, the Status enum
// and the version. Called once or rarely; the hot calls are raw exports (calls.cpp).
#ifdef TC_SHAPES_ONLY
#include <emscripten/emscripten.h>
#else
#include <emscripten/bind.h>
#include <emscripten/val.h>
#endif

#include <string>

#include "core/contract.hpp"
#ifndef TC_SHAPES_ONLY
#include "kernels/kernels.hpp"
#include "kernels/reduce.hpp"
#endif

using namespace tc;

namespace {

#ifndef TC_SHAPES_ONLY
using emscripten::val;
val list() { return val::array(); }
void push(val& a, val v) { a.set(a["length"], v); }
val str(const char* s) { return val(std::string(s)); }
#endif

// The contract is handed over as one JSON text: built here in one pass and
// parsed by JS in one JSON.parse, where a tree of emval objects took one
// embind call per property (about 1,500 of them, several ms at init()).
// Every name is an identifier of ours (no character needs escaping).
// `Out` is std::string, or (the shapes build, whose contract is all
// compile-time values) a fixed buffer filled by the compiler: see tc_contract().
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

template <class Out>
constexpr Out contract_text() {
  Json<Out> j;
  j.open('{');
  j.key("statuses").open('[');
#define TC_STATUS(e, code) j.item_str(code);
#include "core/contract.def"
  j.close(']');
  j.key("signals").open('{');
#define TC_SIGNAL(name, value) j.field(#name, static_cast<double>(value));
#include "core/contract.def"
  j.close('}');
  j.key("verdicts").open('[');
#define TC_VERDICT(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.key("inner").open('[');
#define TC_INNER(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.key("rules").open('[');
#define TC_RULE(e, name, family) j.open('{').field("id", #e).field("name", name).field("family", family).close('}');
#include "core/contract.def"
  j.close(']');
  j.key("actions").open('[');
#define TC_ACTION(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.key("shapings").open('[');
#define TC_SHAPING(e, name) j.item_str(name);
#include "core/contract.def"
  j.close(']');
  j.key("limits").open('{');
#define TC_LIMIT(name, value) j.field(#name, static_cast<double>(value));
#include "core/contract.def"
  j.close('}');
  j.key("request").open('[');
#define TC_REQ(f) j.item_str(#f);
#include "core/contract.def"
  j.close(']');
  j.key("response").open('[');
#define TC_RESP(f) j.item_str(#f);
#include "core/contract.def"
  j.close(']');
  // Which build this is: "full", or "shapes" (tensorcast/shapes: the rules
  // without kernels, whose dtypes, ops and reductions lists are empty).
#ifdef TC_SHAPES_ONLY
  j.field("build", "shapes");
  j.key("dtypes").open('[').close(']');
  j.key("ops").open('[').close(']');
  j.key("unaryOps").open('[').close(']');
  j.key("reduceOps").open('[').close(']');
  j.key("reduceAcc").open('[').close(']');
#else
  j.field("build", "full");
  j.key("dtypes").open('[');
  for (int d = 0; d < static_cast<int>(DType::count); ++d) {
    const DType dt = static_cast<DType>(d);
    j.open('{').field("name", dtype_js_name(dt)).field("short", dtype_name(dt)).field("array", dtype_array_name(dt))
        .field("kind", dtype_kind(dt)).field("size", static_cast<double>(dtype_size(dt))).close('}');
  }
  j.close(']');
  j.key("ops").open('[');
  for (int i = 0; i < static_cast<int>(Op::count); ++i) {
    const Op op = static_cast<Op>(i);
    const OpTraits& t = op_traits(op);
    j.open('{').field("name", t.name).field("kernel", op_name(op)).field("result", t.result == OpResult::boolean ? "bool" : "same")
        .field("domain", t.domain == OpDomain::integer ? "integer" : t.domain == OpDomain::floating ? "float" : "any");
    // Which dtypes have a SIMD kernel for the op in this build (any form).
    j.key("simd").open('[');
    for (int d = 0; d < static_cast<int>(DType::count); ++d)
      if (has_simd_kernel(static_cast<DType>(d), op)) j.item_str(dtype_js_name(static_cast<DType>(d)));
    j.close(']').close('}');
  }
  j.close(']');
  j.key("unaryOps").open('[');
  for (int i = 0; i < static_cast<int>(UnaryOp::count); ++i) {
    const UnaryOp op = static_cast<UnaryOp>(i);
    const UnaryTraits& t = unary_traits(op);
    j.open('{').field("name", t.name).field("kernel", unary_op_name(op)).field("result", t.result == OpResult::boolean ? "bool" : "same")
        .field("domain", t.domain == OpDomain::integer ? "integer" : t.domain == OpDomain::floating ? "float" : "any");
    j.key("simd").open('[');
    for (int d = 0; d < static_cast<int>(DType::count); ++d)
      if (has_simd_unary(static_cast<DType>(d), op)) j.item_str(dtype_js_name(static_cast<DType>(d)));
    j.close(']').close('}');
  }
  j.close(']');
  j.key("reduceOps").open('[');
  for (int i = 0; i < static_cast<int>(ReduceOp::count); ++i) j.item_str(reduce_op_name(static_cast<ReduceOp>(i)));
  j.close(']');
  // The result dtype of each reduction without a `dtype` option: reduceAcc[op][dtype]
  // (mean of integers is float64), as an index into dtypes.
  j.key("reduceAcc").open('[');
  for (int i = 0; i < static_cast<int>(ReduceOp::count); ++i) {
    j.open('[');
    for (int d = 0; d < static_cast<int>(DType::count); ++d)
      j.item_num(static_cast<int>(reduce_default_acc(static_cast<ReduceOp>(i), static_cast<DType>(d))));
    j.close(']');
  }
  j.close(']');
#endif
  j.close('}');
  return j.out;
}

#ifndef TC_SHAPES_ONLY
std::string contract() { return contract_text<std::string>(); }
#endif

#ifndef TC_SHAPES_ONLY

const char* const kForms[] = {"vv", "vs", "sv"};
const char* const kSelectForms[] = {"vv", "vs", "sv", "ss"};

// A registry as a list of { index, name, ..., simd }: `fill` sets the fields
// that differ between registries.
template <class Info, class Fill>
val listing(const Info* k, size_t n, Fill fill) {
  val out = list();
  for (size_t i = 0; i < n; ++i) {
    val o = val::object();
    o.set("index", static_cast<int>(i));
    o.set("name", str(k[i].name));
    fill(o, k[i]);
    o.set("simd", k[i].simd);
    push(out, o);
  }
  return out;
}

// Every element-wise kernel of this build: { index, name, dtype, op, form, simd }.
val kernels() {
  size_t n;
  const KernelInfo* k = kernel_registry(&n);
  return listing(k, n, [](val& o, const KernelInfo& e) {
    o.set("dtype", str(dtype_js_name(e.dtype)));
    o.set("op", str(op_traits(e.op).name));
    o.set("form", str(kForms[static_cast<int>(e.form)]));
  });
}

// Every select (where) kernel: { index, name, width (bytes), form, simd }.
val select_kernels() {
  size_t n;
  const SelectInfo* k = select_registry(&n);
  return listing(k, n, [](val& o, const SelectInfo& e) {
    o.set("width", static_cast<int>(e.elem_size));
    o.set("form", str(kSelectForms[static_cast<int>(e.form)]));
  });
}

// Every reduction kernel: { index, name, dtype, op, shape (row | col), simd }.
val reduce_kernels() {
  size_t n;
  const ReduceKernelInfo* k = reduce_registry(&n);
  return listing(k, n, [](val& o, const ReduceKernelInfo& e) {
    o.set("dtype", str(dtype_js_name(e.dtype)));
    o.set("op", str(reduce_op_name(e.op)));
    o.set("shape", str(reduce_shape_name(e.shape)));
  });
}

// Every unary kernel: { index, name, dtype, op, simd }; every cast kernel: { index, name, from, to, simd }.
val unary_kernels() {
  size_t n;
  const UnaryKernelInfo* k = unary_registry(&n);
  return listing(k, n, [](val& o, const UnaryKernelInfo& e) {
    o.set("dtype", str(dtype_js_name(e.dtype)));
    o.set("op", str(unary_traits(e.op).name));
  });
}
val cast_kernels() {
  size_t n;
  const UnaryKernelInfo* k = cast_registry(&n);
  return listing(k, n, [](val& o, const UnaryKernelInfo& e) {
    o.set("from", str(dtype_js_name(e.dtype)));
    o.set("to", str(dtype_js_name(e.to)));
  });
}
#endif  // TC_SHAPES_ONLY

// package.json's version, passed in by CMakeLists.txt: declared once, so the npm
// package and contract().version cannot drift apart.
#ifndef TC_VERSION
#error "TC_VERSION (package.json's version) is defined by CMakeLists.txt for this file"
#endif
std::string version() { return TC_VERSION; }

}  // namespace

#ifdef TC_SHAPES_ONLY
// The shapes-only build has no embind (its runtime is most of a small module's
// glue): the contract and the version are NUL-terminated UTF-8 in memory, and
// the loader gives the module the same contract() and version() (loader.js).
namespace {
// The text written by the compiler (a length pass, then the text), so the
// module carries the JSON as data and no code to build it.
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
}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE const char* tc_contract() { return kContract.s; }
EMSCRIPTEN_KEEPALIVE const char* tc_version() { return TC_VERSION; }
}
#else
EMSCRIPTEN_BINDINGS(tensorcast) {
  emscripten::function("contract", &contract);
  emscripten::function("kernels", &kernels);
  emscripten::function("selectKernels", &select_kernels);
  emscripten::function("reduceKernels", &reduce_kernels);
  emscripten::function("unaryKernels", &unary_kernels);
  emscripten::function("castKernels", &cast_kernels);
  emscripten::function("version", &version);
  // The status enum as embind's own type too (Module.Status.InvalidShape.value),
  // for bindings that prefer it; the JS layer cross-checks it against contract().
  auto status = emscripten::enum_<Status>("Status");
#define TC_STATUS(e, code) status.value(#e, Status::e);
#include "core/contract.def"
}
#endif  // TC_SHAPES_ONLY

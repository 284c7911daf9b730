// The cold, rich surface, carried by embind: the contract JavaScript builds
// its tables from at init() (status codes, dtypes, ops, verdicts, rules, wire
// layout, limits — all from src/core/contract.def, src/kernels/dtypes.def and
// src/kernels/ops.def), the kernel registries, and the version. Called once
// or rarely; the hot calls are raw exports (calls.cpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "core/contract.hpp"
#include "kernels/kernels.hpp"
#include "kernels/reduce.hpp"

using emscripten::val;
using namespace tc;

namespace {

val list() { return val::array(); }
void push(val& a, val v) { a.set(a["length"], v); }
val str(const char* s) { return val(std::string(s)); }

// Which dtypes have a SIMD kernel for `op` in this build (any form).
val simd_dtypes(Op op) {
  val out = list();
  size_t n;
  const KernelInfo* k = kernel_registry(&n);
  bool seen[static_cast<int>(DType::count)] = {};
  for (size_t i = 0; i < n; ++i)
    if (k[i].simd && k[i].op == op && !seen[static_cast<int>(k[i].dtype)]) {
      seen[static_cast<int>(k[i].dtype)] = true;
      push(out, str(dtype_js_name(k[i].dtype)));
    }
  return out;
}

val contract() {
  val c = val::object();
  val statuses = list();
#define TC_STATUS(e, code) push(statuses, str(code));
#include "core/contract.def"
  c.set("statuses", statuses);
  val signals = val::object();
#define TC_SIGNAL(name, value) signals.set(#name, value);
#include "core/contract.def"
  c.set("signals", signals);
  val verdicts = list();
#define TC_VERDICT(e, name) push(verdicts, str(name));
#include "core/contract.def"
  c.set("verdicts", verdicts);
  val inner = list();
#define TC_INNER(e, name) push(inner, str(name));
#include "core/contract.def"
  c.set("inner", inner);
  val rules = list();
#define TC_RULE(e, name, family) { val r = val::object(); r.set("id", str(#e)); r.set("name", str(name)); r.set("family", str(family)); push(rules, r); }
#include "core/contract.def"
  c.set("rules", rules);
  val actions = list();
#define TC_ACTION(e, name) push(actions, str(name));
#include "core/contract.def"
  c.set("actions", actions);
  val shapings = list();
#define TC_SHAPING(e, name) push(shapings, str(name));
#include "core/contract.def"
  c.set("shapings", shapings);
  val limits = val::object();
#define TC_LIMIT(name, value) limits.set(#name, static_cast<double>(value));
#include "core/contract.def"
  c.set("limits", limits);
  val request = list();
#define TC_REQ(f) push(request, str(#f));
#include "core/contract.def"
  c.set("request", request);
  val response = list();
#define TC_RESP(f) push(response, str(#f));
#include "core/contract.def"
  c.set("response", response);
  val dtypes = list();
  for (int d = 0; d < static_cast<int>(DType::count); ++d) {
    const DType dt = static_cast<DType>(d);
    val o = val::object();
    o.set("name", str(dtype_js_name(dt)));
    o.set("short", str(dtype_name(dt)));
    o.set("array", str(dtype_array_name(dt)));
    o.set("kind", str(dtype_kind(dt)));
    o.set("size", static_cast<int>(dtype_size(dt)));
    push(dtypes, o);
  }
  c.set("dtypes", dtypes);
  val ops = list();
  for (int i = 0; i < static_cast<int>(Op::count); ++i) {
    const Op op = static_cast<Op>(i);
    const OpTraits& t = op_traits(op);
    val o = val::object();
    o.set("name", str(t.name));
    o.set("kernel", str(op_name(op)));
    o.set("result", str(t.result == OpResult::boolean ? "bool" : "same"));
    o.set("domain", str(t.domain == OpDomain::integer ? "integer" : t.domain == OpDomain::floating ? "float" : "any"));
    o.set("simd", simd_dtypes(op));
    push(ops, o);
  }
  c.set("ops", ops);
  val reduce_ops = list();
  for (int i = 0; i < static_cast<int>(ReduceOp::count); ++i) push(reduce_ops, str(reduce_op_name(static_cast<ReduceOp>(i))));
  c.set("reduceOps", reduce_ops);
  // The result dtype of each reduction without a `dtype` option: reduceAcc[op][dtype]
  // (mean of integers is float64), as an index into dtypes.
  val reduce_acc = list();
  for (int i = 0; i < static_cast<int>(ReduceOp::count); ++i) {
    val row = list();
    for (int d = 0; d < static_cast<int>(DType::count); ++d)
      push(row, val(static_cast<int>(reduce_default_acc(static_cast<ReduceOp>(i), static_cast<DType>(d)))));
    push(reduce_acc, row);
  }
  c.set("reduceAcc", reduce_acc);
  return c;
}

const char* const kForms[] = {"vv", "vs", "sv"};
const char* const kSelectForms[] = {"vv", "vs", "sv", "ss"};

// Every element-wise kernel of this build: { index, name, dtype, op, form, simd }.
val kernels() {
  val out = list();
  size_t n;
  const KernelInfo* k = kernel_registry(&n);
  for (size_t i = 0; i < n; ++i) {
    val o = val::object();
    o.set("index", static_cast<int>(i));
    o.set("name", str(k[i].name));
    o.set("dtype", str(dtype_js_name(k[i].dtype)));
    o.set("op", str(op_traits(k[i].op).name));
    o.set("form", str(kForms[static_cast<int>(k[i].form)]));
    o.set("simd", k[i].simd);
    push(out, o);
  }
  return out;
}

// Every select (where) kernel: { index, name, width (bytes), form, simd }.
val select_kernels() {
  val out = list();
  size_t n;
  const SelectInfo* k = select_registry(&n);
  for (size_t i = 0; i < n; ++i) {
    val o = val::object();
    o.set("index", static_cast<int>(i));
    o.set("name", str(k[i].name));
    o.set("width", static_cast<int>(k[i].elem_size));
    o.set("form", str(kSelectForms[static_cast<int>(k[i].form)]));
    o.set("simd", k[i].simd);
    push(out, o);
  }
  return out;
}

// Every reduction kernel: { index, name, dtype, op, shape (row | col), simd }.
val reduce_kernels() {
  val out = list();
  size_t n;
  const ReduceKernelInfo* k = reduce_registry(&n);
  for (size_t i = 0; i < n; ++i) {
    val o = val::object();
    o.set("index", static_cast<int>(i));
    o.set("name", str(k[i].name));
    o.set("dtype", str(dtype_js_name(k[i].dtype)));
    o.set("op", str(reduce_op_name(k[i].op)));
    o.set("shape", str(reduce_shape_name(k[i].shape)));
    o.set("simd", k[i].simd);
    push(out, o);
  }
  return out;
}

std::string version() { return "0.2.0"; }

}  // namespace

EMSCRIPTEN_BINDINGS(tensorcast) {
  emscripten::function("contract", &contract);
  emscripten::function("kernels", &kernels);
  emscripten::function("selectKernels", &select_kernels);
  emscripten::function("reduceKernels", &reduce_kernels);
  emscripten::function("version", &version);
  // The status enum as embind's own type too (Module.Status.InvalidShape.value),
  // for bindings that prefer it; the JS layer cross-checks it against contract().
  auto status = emscripten::enum_<Status>("Status");
#define TC_STATUS(e, code) status.value(#e, Status::e);
#include "core/contract.def"
}

// The expression actions (parse, evaluate, explainExpression) on the wire.
//
// Request body (doubles):
//   key_len, then the key (everything that decides the compiled program):
//     units, the text as UTF-16 units packed 4 per double (little-endian),
//     per input: kind (0 tensor, 1 number, 2 bigint, 3 a tensor view), then
//       tensor: dtype, its shape (wire.hpp) or, for the named rule, its named shape;
//       a view: then its strides, one per axis, in elements (any integer)
//       number: the value;  bigint: its high and low 32 bits (two's complement, the
//       BigInt modulo 2^64) and Number() of it (for dtypes other than the 64-bit ones)
//     the reduction's axes: count (-1: every axis), then per entry: is_name, value
//       (an integer; one beyond any rank is out of range, never read as another)
//   then per input its buffer's address (evaluate only; not part of the key).
// Header: rule, axis, shaping, operands (= inputs), keepdims, out, capacity.
//
// A compiled expression is cached by (header fields, key): a repeated call
// costs a key compare and the run. Generated modules are kept by their bytes:
// one module (and one JS instance) per distinct program and loop form.
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include "core/pod_vector.hpp"

#include "calls.hpp"
#include "expr/expr.hpp"
#include "expr/wasmgen.hpp"
#include "kernels/gemm.hpp"
#include "wire.hpp"

using namespace tc;
using namespace tc::wire;
using namespace tc::calls;

// The JS side of generated code: two imports that loader.js's host() provides
// (the module's instance lives in JS, in the store expr.js installs). Compile
// module `id` from `n` bytes at `bytes`: 0 ok, -1 refused (the interpreter runs
// it); run module `id` on the descriptor at `desc`. An address reaches JS as a
// signed i32 (negative from 2 GiB on): host() makes each unsigned (calls.hpp, Addr).
extern "C" {
int tc_gen_compile(int id, Addr bytes, int n);
void tc_gen_run(int id, Addr desc);
}

namespace {

using namespace tc::expr;

constexpr int kMaxModules = 1024;

// Every module's bytes, one after the other in g_module_bytes.
struct Module {
  std::size_t at, size;
  bool ok;
};
PodVector<Module> g_modules;
PodVector<std::uint8_t> g_module_bytes;
PodVector<std::uint8_t> g_bytes;  // module_for's new module

// Reused between calls (namespace-scope: no guard per call).
Parsed g_parsed;                  // call_parse's
PodVector<const void*> g_ptrs;    // call_expr's input pointers

int module_for(const Program& prog, const Loop& loop) {
  if (!can_generate(prog)) return -1;
  LoopForm form;
  form.rank = loop.rank - 1;
  form.inputs.assign(static_cast<size_t>(prog.inputs), InnerForm::contiguous);
  for (int k = 0; k < prog.inputs; ++k) {
    const i64 s = loop.stride(k + 1, loop.rank - 1);
    form.inputs[static_cast<size_t>(k)] = s == 1 ? InnerForm::contiguous : s == 0 ? InnerForm::splat : InnerForm::strided;
  }
  PodVector<std::uint8_t>& bytes = g_bytes;
  if (!generate(prog, form, bytes)) return -1;
  for (size_t i = 0; i < g_modules.size(); ++i) {
    const Module& m = g_modules[i];
    if (m.size == bytes.size() && std::memcmp(g_module_bytes.data() + m.at, bytes.data(), m.size) == 0)
      return m.ok ? static_cast<int>(i) : -1;
  }
  if (g_modules.size() >= kMaxModules) return -1;
  const int id = static_cast<int>(g_modules.size());
  const bool ok = tc_gen_compile(id, addr(bytes.data()), static_cast<int>(bytes.size())) == 0;
  g_modules.push_back(Module{g_module_bytes.size(), bytes.size(), ok});
  g_module_bytes.append(bytes.begin(), bytes.end());
  return ok ? id : -1;
}

// The last generated run (call_expr reports it: see there): its module and its
// descriptor (the run leaves its odometer counters, the last R words, moved).
int g_gen_module = -1;
const std::int32_t* g_gen_desc = nullptr;
int g_gen_words = 0;
int g_gen_count = 0;

void gen_run(int module, const std::int32_t* desc, int words) {
  g_gen_module = module;
  g_gen_desc = desc;
  g_gen_words = words;
  ++g_gen_count;
  tc_gen_run(module, addr(desc));
}

struct Entry {
  PodVector<double> key;
  Parsed parsed;
  Compiled c;
  Status st = Status::Ok;
  Failure fail;
  bool valid = false;
};
constexpr int kEntries = 8;
Entry g_entries[kEntries];
int g_next = 0;
Entry g_once;  // explain, and keys too long to keep

std::unique_ptr<Input[]> g_inputs;
PodVector<i64> g_labels;
PodVector<i64> g_axes;
PodVector<char> g_axis_name;
bool g_axes_all = true;

bool read_text(Reader& r, const char16_t*& text, int& n) {
  const double units = r.next();
  if (!(units >= 0 && units <= kMaxText)) return false;
  n = static_cast<int>(units);
  const size_t words = (static_cast<size_t>(n) + 3) / 4;
  if (static_cast<size_t>(r.end - r.p) < words) return false;
  text = reinterpret_cast<const char16_t*>(r.p);
  r.p += words;
  return true;
}

// Decode the key's inputs and axes (after the text) into g_inputs / g_axes.
bool read_inputs(Reader& r, int n_inputs, bool named) {
  g_inputs.reset(new Input[static_cast<size_t>(n_inputs)]);
  g_labels.clear();
  PodVector<size_t> offsets(static_cast<size_t>(n_inputs) * kMaxRank, SIZE_MAX);
  for (int k = 0; k < n_inputs; ++k) {
    Input& in = g_inputs[static_cast<size_t>(k)];
    const double kind = r.next();
    if (kind == 0 || kind == 3) {
      const double d = r.next();
      if (!(d >= 0 && d < static_cast<int>(DType::count))) return false;
      in.kind = Input::tensor;
      in.dtype = static_cast<DType>(static_cast<int>(d));
      in.strided = kind == 3;
      int rank;
      if (named) {
        if (!read_named(r, in.named, g_labels, offsets.data() + static_cast<size_t>(k) * kMaxRank)) return false;
        rank = in.named.rank;
      } else {
        if (!read_shape(r, in.shape) || !in.shape.is_static()) return false;
        rank = in.shape.rank;
      }
      for (int a = 0; in.strided && a < rank; ++a) {  // kind 3, a view: its strides
        const double v = r.next();
        if (!(v >= -9007199254740991.0 && v <= 9007199254740991.0) || v != std::trunc(v)) return false;
        in.strides[a] = static_cast<i64>(v);
      }
    } else if (kind == 1) {
      in.kind = Input::number;
      in.value = r.next();
    } else if (kind == 2) {
      in.kind = Input::bigint;
      const double hi = r.next(), lo = r.next();
      if (!(hi >= -2147483648.0 && hi <= 4294967295.0 && lo >= 0 && lo <= 4294967295.0)) return false;
      const std::uint64_t bits = (static_cast<std::uint64_t>(static_cast<std::int64_t>(hi)) << 32) | static_cast<std::uint64_t>(lo);
      in.bits = static_cast<std::int64_t>(bits);
      in.value = r.next();
    } else {
      return false;
    }
  }
  if (named) {  // labels point into the store once it is complete
    for (int k = 0; k < n_inputs; ++k) {
      Input& in = g_inputs[static_cast<size_t>(k)];
      if (in.kind == Input::tensor) point_labels(in.named, g_labels, offsets.data() + static_cast<size_t>(k) * kMaxRank);
    }
  }
  const double na = r.next();
  g_axes.clear();
  g_axis_name.clear();
  g_axes_all = na == -1;
  if (na != -1) {
    if (!(na >= 0 && na <= kMaxRank)) return false;
    for (int e = 0; e < static_cast<int>(na); ++e) {
      const double is_name = r.next();
      double v = r.next();
      if (is_name == 1) {
        if (!(v >= -4.0e18 && v <= 4.0e18)) return false;
      } else {
        if (!(std::isfinite(v) && v == std::trunc(v))) return false;  // 1.5, NaN: no axis (JS refuses them first)
        if (v > 4.0e18) v = 4.0e18;  // beyond any rank either way: refused as out of range
        if (v < -4.0e18) v = -4.0e18;
      }
      g_axis_name.push_back(is_name == 1 ? 1 : 0);
      g_axes.push_back(static_cast<i64>(v));
    }
  }
  return r.ok;
}

// The number literals' values, in node order: JavaScript's own (Number() of
// the literal's text, expr.js), so the engine needs no decimal conversion of
// its own (strtod alone was 7 KB of the page's gzipped wasm).
bool read_literals(Reader& r, Parsed& p) {
  const double n = r.next();
  size_t k = 0;
  for (Node& nd : p.nodes) {
    if (nd.kind != Kind::number) continue;
    if (static_cast<double>(k) >= n) return false;
    nd.value = r.next();
    ++k;
  }
  return r.ok && static_cast<double>(k) == n;
}

bool same(const PodVector<double>& key, const double* h, const double* k, size_t n) {
  if (key.size() != n + 5) return false;
  if (key[0] != h[req_rule] || key[1] != h[req_axis] || key[2] != h[req_shaping] || key[3] != h[req_operands] || key[4] != h[req_keepdims])
    return false;
  return std::memcmp(key.data() + 5, k, n * sizeof(double)) == 0;
}

// Compile the request's key into `e` (parse, types, plan, module).
void compile_into(Entry& e, const double* h, const double* k, size_t n, bool generate_code) {
  e.valid = false;
  e.fail = Failure{};
  Reader r{k, k + n};
  const char16_t* text = nullptr;
  int units = 0;
  const double ops = h[req_operands];
  const Rule rule = static_cast<Rule>(static_cast<int>(h[req_rule]));
  if (!read_text(r, text, units) || !(ops >= 0 && ops <= kMaxInputs) ||
      !(h[req_rule] >= 0 && h[req_rule] < static_cast<int>(Rule::count))) {
    e.st = Status::InvalidShape;
    return;
  }
  parse(text, units, e.parsed);
  if (e.parsed.code != SyntaxCode::ok || static_cast<int>(e.parsed.name_pos.size()) != static_cast<int>(ops) ||
      !read_literals(r, e.parsed) || !read_inputs(r, static_cast<int>(ops), rule == Rule::named)) {
    e.st = Status::InvalidShape;
    return;
  }
  Request q;
  q.rule = rule;
  q.axis = axis_of(h[req_axis]);
  const double sh = h[req_shaping];
  q.shaping = sh >= 0 && sh <= static_cast<int>(Shaping::Union) ? static_cast<Shaping>(static_cast<int>(sh)) : Shaping::Exact;
  q.inputs = g_inputs.get();
  q.n_inputs = static_cast<int>(ops);
  q.keepdims = h[req_keepdims] == 1;
  static bool names[kMaxRank];
  for (size_t i = 0; i < g_axis_name.size(); ++i) names[i] = g_axis_name[i] != 0;
  q.axes = g_axes.data();
  q.axis_is_name = names;
  q.n_axes = g_axes_all ? -1 : static_cast<int>(g_axes.size());
  e.st = compile(e.parsed, text, q, e.c, e.fail);
  if (e.st == Status::Ok && generate_code) e.c.module = module_for(e.c.prog, e.c.loop);
}

// The failure's details after the shape: code, span, dtypes, entry, shapes (and, named, their dim names).
void write_failure(Writer& w, const Failure& f) {
  w.put(static_cast<double>(f.code));
  w.put(f.pos);
  w.put(f.len);
  w.put(static_cast<double>(f.a));
  w.put(static_cast<double>(f.b));
  w.put(f.entry);
  w.put(f.n_shapes);
  for (int k = 0; k < f.n_shapes; ++k) w.shape(f.shapes[k]);
  // Named: each shape's dim names (ids), as many as its rank; positional: none.
  w.put(f.named ? 1 : 0);
  if (f.named)
    for (int k = 0; k < f.n_shapes; ++k)
      for (int a = 0; a < f.shapes[k].rank; ++a) w.put(static_cast<double>(f.names[k][a]));
}

void write_names(Writer& w, const Compiled& c) {
  w.put(static_cast<double>(c.root_names.size()));
  const i64* l = c.root_labels.data();
  for (size_t a = 0; a < c.root_names.size(); ++a) {
    const bool kept = !(c.reduce && (c.mask >> a & 1u));
    w.put(kept ? 1 : 0);
    w.put(static_cast<double>(c.root_names[a]));
    const i64 count = c.root_label_count[a];
    w.put(static_cast<double>(count - 1));  // -1: unlabeled (an empty labeled dim is 0)
    for (i64 i = 1; i < count; ++i) w.put(static_cast<double>(*l++));
  }
}

void answer_refusal(PodVector<double>& resp, const Entry& e) {
  Error err = e.fail.err;
  const Status st = e.st;
  write_head(resp, static_cast<int>(st), err);
  Writer w{resp};
  w.put(-1);  // no shape
  write_failure(w, e.fail);
}

// In place only where an input is read exactly as the output is written.
bool overlaps(const Compiled& c, const void* const* ptrs, const void* out) {
  const int R = c.root.rank;
  for (int k = 0; k < c.prog.inputs; ++k) {
    if (ptrs[c.slot_input[static_cast<size_t>(k)]] != out) continue;
    if (c.reduce || dtype_size(c.slot_dtype[static_cast<size_t>(k)]) != dtype_size(c.out_dtype)) return true;
    i64 stride = 1;
    for (int a = R - 1; a >= 0; --a) {
      const i64 d = c.root.dims[a].lo;
      if (d != 1 && c.slot_strides[static_cast<size_t>(k * R + a)] != stride) return true;
      stride *= d;
    }
  }
  return false;
}

void write_program(Writer& w, const Compiled& c) {
  const int R = c.root.rank;
  w.put(c.prog.inputs);
  for (int k = 0; k < c.prog.inputs; ++k) {
    w.put(c.slot_input[static_cast<size_t>(k)]);
    for (int a = 0; a < R; ++a) {
      w.put(c.slot_src[static_cast<size_t>(k * R + a)]);
      w.put(static_cast<double>(c.slot_strides[static_cast<size_t>(k * R + a)]));
    }
  }
  w.put(static_cast<double>(c.prog.code.size()));
  for (const Instr& in : c.prog.code) {
    w.put(static_cast<double>(in.code));
    w.put(in.op);
    w.put(static_cast<double>(in.dtype));
    w.put(static_cast<double>(in.out));
    w.put(static_cast<double>(in.cond));
    w.put(in.a);
    w.put(in.b);
    w.put(in.c);
    w.put(in.value);
    w.put(in.pos);
  }
  w.put(c.loop.rank);
  for (int a = 0; a < c.loop.rank; ++a) w.put(static_cast<double>(c.loop.shape[a]));
  for (int s = 0; s < 1 + c.prog.inputs; ++s)
    for (int a = 0; a < c.loop.rank; ++a) w.put(static_cast<double>(c.loop.stride(s, a)));
  w.put(c.module >= 0 ? 1 : can_generate(c.prog) ? 2 : 0);
  w.put(c.reduce ? static_cast<double>(c.rop) : -1);
  w.put(c.reduce ? static_cast<double>(c.mask) : 0);
  w.put(c.prefix);
  // The contraction kernel, when it runs (1): order (1 row, 0 col), M, K, N, the
  // inputs read as A and B, and the packed block's columns (its rows: K).
  const Contraction& g = c.gemm;
  const bool kernel = g.on && find_gemm(c.out_dtype);
  // Or product rows (2): the results, the terms of each, the inputs read as P, Q and R.
  const bool rows = c.rows.on && find_product_row(c.out_dtype);
  w.put(kernel ? 1 : rows ? 2 : 0);
  if (kernel) {
    for (i64 v : {static_cast<i64>(g.row_order), g.M, g.K, g.N}) w.put(static_cast<double>(v));
    w.put(c.slot_input[static_cast<size_t>(g.a_slot)]);
    w.put(c.slot_input[static_cast<size_t>(g.b_slot)]);
    w.put(static_cast<double>(gemm_block_cols(g.K, g.N, gemm_packed_size(c.out_dtype))));
  } else if (rows) {
    w.put(static_cast<double>(c.chunks));
    w.put(static_cast<double>(c.rows.n * c.rows.runs));
    for (int f : c.rows.slot) w.put(c.slot_input[static_cast<size_t>(f)]);
  }
}

}  // namespace

namespace tc::calls {

void call_parse(const double* h, const double* body, size_t n, PodVector<double>& resp) {
  (void)h;
  Reader r{body, body + n};
  const char16_t* text = nullptr;
  int units = 0;
  Error none;
  if (!read_text(r, text, units)) {
    none.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(Status::InvalidShape), none);
    return;
  }
  Parsed& p = g_parsed;
  parse(text, units, p);
  write_head(resp, 0, none);
  Writer w{resp};
  w.put(static_cast<double>(p.code));
  w.put(p.err_pos);
  w.put(p.err_len);
  if (p.code != SyntaxCode::ok) return;
  w.put(static_cast<double>(p.name_pos.size()));
  for (size_t k = 0; k < p.name_pos.size(); ++k) {
    w.put(p.name_pos[k]);
    w.put(p.name_len[k]);
  }
  // The number literals, in node order: their spans (JS gives their values).
  size_t numbers = 0;
  for (const Node& nd : p.nodes) numbers += nd.kind == Kind::number;
  w.put(static_cast<double>(numbers));
  for (const Node& nd : p.nodes) {
    if (nd.kind != Kind::number) continue;
    w.put(nd.pos);
    w.put(nd.len);
  }
  // The reduction around the root, if any: op, then its axis entries (kind
  // 0 number, 1 string: pos, len of its text), -1 entries: every axis.
  const Node& root = p.nodes[static_cast<size_t>(p.root)];
  if (root.kind != Kind::call || root.fn != Fn::reduce) {
    w.put(-1);
    return;
  }
  w.put(root.op);
  if (root.count < 2) {
    w.put(-1);
    return;
  }
  const Node& ax = p.nodes[static_cast<size_t>(p.args[static_cast<size_t>(root.first + 1)])];
  auto entry = [&](const Node& e) {
    if (e.kind == Kind::string) {
      w.put(1);
      w.put(e.pos + 1);
      w.put(e.len - 2);
    } else {
      w.put(0);
      w.put(e.pos);
      w.put(e.len);
    }
  };
  if (ax.kind == Kind::list) {
    w.put(ax.count);
    for (int i = 0; i < ax.count; ++i) entry(p.nodes[static_cast<size_t>(p.args[static_cast<size_t>(ax.first + i)])]);
  } else {
    w.put(1);
    entry(ax);
  }
}

void call_expr(const double* h, const double* body, size_t n, bool explain, PodVector<double>& resp) {
  Error none;
  const double kl = n > 0 ? body[0] : -1;
  if (!(kl >= 0 && kl + 1 <= static_cast<double>(n))) {
    none.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(Status::InvalidShape), none);
    return;
  }
  const double* key = body + 1;
  const size_t klen = static_cast<size_t>(kl);
  Entry* e = nullptr;
  if (!explain) {
    static int last = 0;
    if (g_entries[last].valid && same(g_entries[last].key, h, key, klen)) e = &g_entries[last];
    for (int i = 0; !e && i < kEntries; ++i)
      if (g_entries[i].valid && same(g_entries[i].key, h, key, klen)) e = &g_entries[last = i];
  }
  if (!e) {
    e = explain || klen > 4096 ? &g_once : &g_entries[g_next];
    compile_into(*e, h, key, klen, !explain);
    if (e->st == Status::Ok && e != &g_once) {
      const double head[5] = {h[req_rule], h[req_axis], h[req_shaping], h[req_operands], h[req_keepdims]};
      e->key.assign(head, head + 5);
      e->key.append(key, key + klen);
      e->valid = true;
      g_next = (g_next + 1) % kEntries;
    }
  }
  if (e->st != Status::Ok) return answer_refusal(resp, *e);
  const Compiled& c = e->c;
  Writer w{resp};
  if (explain) {
    write_head(resp, 0, none);
    w.shape(c.out);
    w.put(static_cast<double>(c.out_dtype));
    w.shape(c.root);
    write_names(w, c);
    write_program(w, c);
    return;
  }
  // The buffers: one per input after the key.
  const double ops = h[req_operands];
  const size_t ni = static_cast<size_t>(ops);
  if (1 + klen + ni > n) {
    none.code = Status::InvalidShape;
    write_head(resp, static_cast<int>(Status::InvalidShape), none);
    return;
  }
  PodVector<const void*>& ptrs = g_ptrs;
  ptrs.assign(ni, nullptr);
  for (size_t k = 0; k < ni; ++k) ptrs[k] = ptr(body[1 + klen + k]);
  const double bytes = static_cast<double>(c.out_size) * static_cast<double>(dtype_size(c.out_dtype));
  if (!(bytes <= kMaxBytes)) {
    write_head(resp, static_cast<int>(Status::TooLarge), none);
    w.shape(c.out);
    return;
  }
  void* out = ptr(h[req_out]);
  const double cap = h[req_capacity];
  const double want = h[req_dtype];  // a resident out's dtype (-1: none)
  if (want >= 0 && want != static_cast<double>(c.out_dtype)) {
    Failure f;
    f.code = Fail::out_dtype;
    f.a = static_cast<DType>(static_cast<int>(want));
    f.b = c.out_dtype;
    none.code = Status::DtypeMismatch;
    write_head(resp, static_cast<int>(Status::DtypeMismatch), none);
    w.put(-1);
    write_failure(w, f);
    return;
  }
  if (out != nullptr && (cap < 0 ? bytes != -cap : !(bytes <= cap))) {
    write_head(resp, signal_outTooSmall, none);
    resp[resp_dtype] = static_cast<double>(c.out_dtype);
    w.shape(c.out);
    return;
  }
  if (out != nullptr && overlaps(c, ptrs.data(), out)) {
    write_head(resp, signal_outOverlaps, none);
    w.shape(c.out);
    return;
  }
  void* fresh = nullptr;
  if (out == nullptr) {
    out = fresh = allocate(bytes > 0 ? bytes : 1);
    if (!out) {
      write_head(resp, static_cast<int>(Status::TooLarge), none);
      w.shape(c.out);
      return;
    }
  }
  const int gen_count = g_gen_count;
  const Status st = run(c, ptrs.data(), out, c.module >= 0 ? &gen_run : nullptr);
  if (st != Status::Ok) {
    release(fresh);
    Error err;
    err.code = st;
    err.detail = kDetailEmptyReduction;
    write_head(resp, static_cast<int>(st), err);
    w.shape(c.out);
    return;
  }
  write_head(resp, 0, none);
  resp[resp_result] = addr(fresh);  // unsigned, as every address on the wire
  resp[resp_dtype] = static_cast<double>(c.out_dtype);
  w.shape(c.out);
  if (c.named) {
    write_names(w, c);
    return;
  }
  // A run that was one call of a generated module into a buffer the caller
  // gave: its module and descriptor. The same request (the key, the buffers,
  // `out` and its capacity) is answered by the same call with the same
  // descriptor, so JS may make it again without this engine (execute.js
  // runExpr). Nothing else here has an effect: no allocation, no state.
  if (fresh == nullptr && !c.reduce && g_gen_count == gen_count + 1) {
    // The descriptor as written before the run: its counters (desc[0] = R of them, last) at 0,
    // each slot's address (the first of its 2 + R words after the 3 + R of the walk) unsigned.
    const int R = g_gen_desc[0];
    w.put(static_cast<double>(g_gen_module));
    w.put(static_cast<double>(g_gen_words));
    for (int i = 0; i < g_gen_words; ++i) {
      const bool address = i >= 3 + R && i < g_gen_words - R && (i - 3 - R) % (2 + R) == 0;
      const double v = i >= g_gen_words - R ? 0.0
                       : address          ? static_cast<double>(static_cast<Addr>(g_gen_desc[i]))
                                          : static_cast<double>(g_gen_desc[i]);
      w.put(v);
    }
  } else {
    w.put(-1);
  }
}

}  // namespace tc::calls

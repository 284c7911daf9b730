// libFuzzer harness for the expression evaluator (src/expr: compile, the
// block interpreter, chunked reductions, the contraction and product-row
// paths), under ASan + UBSan (CMake TC_FUZZ=ON, beside views_fuzz):
//
//   cmake --preset fuzz && cmake --build --preset fuzz
//   build/fuzz/eval_fuzz build/fuzz/eval-corpus tests/fuzz/eval-corpus -max_total_time=60 -max_len=512
//
// From the input: an expression text from a fixed grammar (operands a, b, c;
// numbers; the operators; unary and binary functions; where, ?:, cast; a
// reduction with axes around it), its operands (tensors of one dtype, now and
// then another; numbers; bigints) with shapes drawn from one base shape, each
// a strided view (any stride: reversed, stepped, zero, overlapping) of its own
// exact-size heap block, so that a read outside the view's span is an ASan
// report; the result goes to an exact-size block too. The expression compiled
// and run on the views must give what it gives on row-major copies of them:
// the same status, failure, shape, dtype and bytes (NaNs compare as NaNs). A
// sum, product or mean of one bare view into a float accumulator may reduce
// in another order (views_fuzz): its values are kept to -1, -0, 0, 1 (integers
// 0 to 3), where every order gives one answer. For int32 expressions of + - * & | ^ neg ~ and where over
// comparisons, a reference evaluator in this file gives the result too.
//
// Input (a short input reads as zeros):
//   u8 flags: bits 0-1 rule (numpy, numpy, none, pdpd), bits 2-3 pdpd axis - 1,
//             bit 4 keepdims, bits 5-7 reduction (0-2 none, 3 sum, 4 prod, 5 min, 6 max, 7 mean)
//   u8 dtype % 12
//   base shape: u8 rank % 5, per axis u8 dim (< 0xe0: % 7; < 0xfc: 100 + % 40; else 256 + % 4 * 96)
//   3 operands: u8 kind (bits 0-2: 0-5 a view, 6 a number, 7 a bigint; bit 3: another dtype,
//             the next byte % 12; bits 4-5 rank cut), per axis u8 (bit 0: dim 1, bit 1: dim 1 more,
//             bits 2-3: stride kind as views_fuzz, bit 4 negated; 0xff: a random dim), custom stride
//   reduction: u8 axes (bit 7: every axis; else bits 0-3 mask, bit 4: a negative entry, bit 5: one out of range)
//   the expression: a pre-order tree of u8 choices (depth at most 4)
//   the rest: element values (cycled)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "expr/expr.hpp"
#include "kernels/kernels.hpp"
#include "kernels/reduce.hpp"
#include "views.hpp"

using namespace tc;
using namespace tc::expr;
using namespace tc::fuzz;

namespace {

constexpr i64 kMaxElems = 1 << 17;  // per operand and per root: past the 256 KiB chunk now and then

const char* const kDtypeNames[12] = {"float32", "float64", "int8",  "uint8",    "uint8clamped", "int16",
                                     "uint16",  "int32",   "uint32", "bigint64", "biguint64",    "float16"};

// ---- the expression ---------------------------------------------------------
// Each node as text, and (for the int32 reference) as a tree.
struct Node {
  enum K { leaf, num, bin, un, sel, other } k = other;
  int operand = -1;      // leaf
  std::int64_t value = 0;  // num
  char op = 0;           // bin: + - * & | ^ < > = (==) ! (!=); un: - ~
  int a = -1, b = -1, c = -1;
};

struct Gen {
  Bytes& b;
  std::vector<Node> nodes;
  bool used[3] = {false, false, false};
  int n_nodes = 0;

  int add(Node n) {
    nodes.push_back(n);
    return static_cast<int>(nodes.size()) - 1;
  }

  int leaf(std::string& s) {
    const uint8_t x = b.u8();
    if (x < 0xc0) {
      Node n;
      n.k = Node::leaf;
      n.operand = x % 3;
      used[n.operand] = true;
      s += static_cast<char>('a' + n.operand);
      return add(n);
    }
    static const char* const kLit[16] = {"0", "1", "2", "3", "0.5", "255", "-1", "1e9",
                                         "-0", "2n", "0x7fffffff", "-128", "65536", "1e300", "4294967295", "0.1"};
    static const std::int64_t kVal[16] = {0, 1, 2, 3, 0, 255, -1, 1000000000, 0, 2, 0x7fffffff, -128, 65536, 0, 4294967295LL, 0};
    static const bool kInt[16] = {1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0};
    const int i = x % 16;
    s += '(';
    s += kLit[i];
    s += ')';
    Node n;
    n.k = kInt[i] ? Node::num : Node::other;
    n.value = kVal[i];
    return add(n);
  }

  int expr(int depth, std::string& s) {
    if (depth == 0 || ++n_nodes > 24) return leaf(s);
    const uint8_t x = b.u8();
    switch (x % 16) {
      case 4: case 5: case 6: case 7: {
        static const char* const kOps[17] = {"+", "-", "*", "/", "%", "**", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "&", "|", "^"};
        static const char kRef[17] = {'+', '-', '*', 0, 0, 0, '<', 0, '>', 0, '=', '!', 0, 0, '&', '|', '^'};
        const int o = (x >> 4) % 17;
        s += '(';
        Node n;
        n.a = expr(depth - 1, s);
        s += ' ';
        s += kOps[o];
        s += ' ';
        n.b = expr(depth - 1, s);
        s += ')';
        n.k = kRef[o] ? Node::bin : Node::other;
        n.op = kRef[o];
        return add(n);
      }
      case 8: {
        static const char* const kFns[8] = {"minimum", "maximum", "mod", "floorDiv", "atan2", "hypot", "logicalXor", "pow"};
        s += kFns[(x >> 4) % 8];
        s += '(';
        Node n;
        n.a = expr(depth - 1, s);
        s += ", ";
        n.b = expr(depth - 1, s);
        s += ')';
        return add(n);
      }
      case 9: case 10: {
        static const char* const kUn[24] = {"-", "!", "~", "+", "neg", "abs", "sign", "sqrt", "exp", "expm1", "log", "log1p",
                                            "sin", "cos", "tan", "tanh", "floor", "ceil", "round", "trunc", "logicalNot",
                                            "bitwiseNot", "isNaN", "sigmoid"};
        const int o = b.u8() % 24;
        Node n;
        if (o < 4) {
          s += kUn[o];
          s += '(';
          n.a = expr(depth - 1, s);
          s += ')';
          n.k = o == 0 || o == 2 ? Node::un : o == 3 ? Node::other : Node::other;
          n.op = o == 0 ? '-' : '~';
          if (o == 3) {  // unary + is its operand
            n.k = nodes[static_cast<size_t>(n.a)].k;
            Node copy = nodes[static_cast<size_t>(n.a)];
            return add(copy);
          }
        } else {
          s += kUn[o];
          s += '(';
          n.a = expr(depth - 1, s);
          s += ')';
          if (o == 4) n.k = Node::un, n.op = '-';
          if (o == 21) n.k = Node::un, n.op = '~';
        }
        return add(n);
      }
      case 11: case 12: {
        Node n;
        n.k = Node::sel;
        const bool call = x % 16 == 11;  // where(c, a, b), else (c ? a : b): one node either way
        s += call ? "where(" : "(";
        n.a = expr(depth - 1, s);
        s += call ? ", " : " ? ";
        n.b = expr(depth - 1, s);
        s += call ? ", " : " : ";
        n.c = expr(depth - 1, s);
        s += ')';
        return add(n);
      }
      case 13: {
        s += "cast(";
        Node n;
        n.a = expr(depth - 1, s);
        s += ", '";
        s += kDtypeNames[b.u8() % 12];
        s += "')";
        return add(n);
      }
      default:
        return leaf(s);
    }
  }
};

// ---- operands -----------------------------------------------------------------
// Values: raw bytes (floats: mostly -1 -0 0 1 2 0.5 -3), or (`safe`) -1 -0 0 1 (integers 0 to 3).
void fill(View& v, DType dt, const uint8_t* data, size_t n, size_t& at, bool safe) {
  const size_t es = dtype_size(dt);
  const i64 span = v.elems ? v.hi - v.lo + 1 : 0;
  unsigned char* p = fill_block(v, es, data, n, at);
  if (safe && !is_float_dtype(dt))
    for (size_t i = 0; i < v.block_bytes; ++i) p[i] = i % es ? 0 : p[i] & 3;
  if (is_float_dtype(dt)) {
    static const double kVals[8] = {-1.0, -0.0, 0.0, 1.0, 2.0, 0.5, -3.0, 1.0};
    for (i64 i = 0; i < span; ++i) {
      unsigned char* e = p + static_cast<size_t>(i) * es;
      const double x = kVals[e[0] & (safe ? 3 : 7)];
      if (!safe && (e[0] & 0xf0) == 0xf0) continue;  // raw bits now and then: NaN, inf, subnormals
      store_float(dt, e, x);
    }
  }
}

struct Side {
  std::vector<Input> inputs;
  Compiled c;
  Failure f;
  Status st = Status::Ok;
};

// The int32 reference: numpy broadcasting, every node at the root index.
struct Ref {
  const std::vector<Node>& nodes;
  const View* views;
  const Shape& root;
  const i64* idx;
  bool ok = true;
  std::int32_t load(int k) const {
    const View& v = views[k];
    i64 off = 0;
    for (int a = 0; a < v.shape.rank; ++a) {
      const int ra = root.rank - v.shape.rank + a;
      if (v.shape.dims[a].lo != 1) off += idx[ra] * v.strides[a];
    }
    std::int32_t x;
    std::memcpy(&x, v.first + off * 4, 4);
    return x;
  }
  std::int32_t eval(int i) const {
    const Node& n = nodes[static_cast<size_t>(i)];
    auto u = [](std::int32_t x) { return static_cast<std::uint32_t>(x); };
    auto s = [](std::uint32_t x) { return static_cast<std::int32_t>(x); };
    switch (n.k) {
      case Node::leaf: return load(n.operand);
      case Node::num: return s(static_cast<std::uint32_t>(n.value));
      case Node::un: return n.op == '-' ? s(0u - u(eval(n.a))) : ~eval(n.a);
      case Node::sel: return eval(n.a) ? eval(n.b) : eval(n.c);
      case Node::bin: {
        const std::int32_t x = eval(n.a), y = eval(n.b);
        switch (n.op) {
          case '+': return s(u(x) + u(y));
          case '-': return s(u(x) - u(y));
          case '*': return s(u(x) * u(y));
          case '&': return x & y;
          case '|': return x | y;
          case '^': return x ^ y;
          case '<': return x < y;
          case '>': return x > y;
          case '=': return x == y;
          default: return x != y;
        }
      }
      default: return 0;
    }
  }
};

// Whether the reference covers node i, yielding int32 (`boolean`: a comparison).
bool covered(const std::vector<Node>& nodes, int i, bool& boolean) {
  const Node& n = nodes[static_cast<size_t>(i)];
  bool ba = false, bb = false, bc = false;
  boolean = false;
  switch (n.k) {
    case Node::leaf: return true;
    case Node::num: return n.value >= INT32_MIN && n.value <= INT32_MAX && n.value != 0x7fffffff + 1LL;
    case Node::un: return covered(nodes, n.a, ba) && !ba;
    case Node::sel: return covered(nodes, n.a, ba) && ba && covered(nodes, n.b, bb) && !bb && covered(nodes, n.c, bc) && !bc;
    case Node::bin:
      if (!covered(nodes, n.a, ba) || ba || !covered(nodes, n.b, bb) || bb) return false;
      boolean = n.op == '<' || n.op == '>' || n.op == '=' || n.op == '!';
      return true;
    default: return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes b{data, data + size};
  const uint8_t flags = b.u8();
  static const Rule kRules[4] = {Rule::numpy, Rule::numpy, Rule::none, Rule::pdpd};
  const Rule rule = kRules[flags & 3];
  const i64 axis = static_cast<i64>((flags >> 2) & 3) - 1;
  const bool keepdims = flags & 16;
  const int red = flags >> 5;  // 3.. a reduction
  const DType dt = static_cast<DType>(b.u8() % 12);
  // The base shape.
  const int base_rank = b.u8() % 5;
  i64 base[kMaxRank];
  i64 total = 1;
  for (int a = 0; a < base_rank; ++a) {
    const uint8_t d = b.u8();
    base[a] = d < 0xe0 ? d % 7 : d < 0xfc ? 100 + d % 40 : 256 + (d % 4) * 96;
    total *= base[a] ? base[a] : 1;
    if (total > kMaxElems) return 0;
  }
  // The operands.
  View views[3];
  DType dts[3];
  Input::Kind kinds[3];
  double numbers[3];
  int step[3][kMaxRank], custom[3][kMaxRank];
  bool flip[3][kMaxRank];
  for (int k = 0; k < 3; ++k) {
    const uint8_t kb = b.u8();
    const int kind = kb & 7;
    kinds[k] = kind < 6 ? Input::tensor : kind == 6 ? Input::number : Input::bigint;
    dts[k] = kb & 8 ? static_cast<DType>(b.u8() % 12) : dt;
    numbers[k] = static_cast<double>(static_cast<int8_t>(kb & 0xc0 ? kb : 0)) / ((kb & 0x30) == 0x30 ? 2 : 1);
    const int cut = (kb >> 4) & 3;
    View& v = views[k];
    v.shape.rank = base_rank > cut ? base_rank - cut : 0;
    for (int a = 0; a < v.shape.rank; ++a) {
      const int ba = base_rank - v.shape.rank + a;
      const uint8_t ab = b.u8();
      i64 d = base[ba];
      if (ab == 0xff) d = b.u8() % 7;
      else if ((ab & 1) && (ab & 2)) d = 1;
      step[k][a] = (ab >> 2) & 3;
      flip[k][a] = ab & 16;
      custom[k][a] = step[k][a] == 3 ? static_cast<int8_t>(b.u8()) : 0;
      v.shape.dims[a] = Dim::fixed(d);
    }
    lay_out(v, step[k], flip[k], custom[k]);
    if (v.elems > kMaxElems) return 0;
  }
  // The reduction's axes.
  const uint8_t ab = b.u8();
  std::vector<i64> axes;
  bool all_axes = red < 3 || (ab & 0x80);
  // The text.
  Gen g{b, {}, {}, 0};
  std::string body;
  const int root = g.expr(4, body);
  std::string text;
  static const char* const kRed[5] = {"sum", "prod", "min", "max", "mean"};
  if (red >= 3) {
    text = kRed[red - 3];
    text += '(';
    text += body;
    if (!all_axes) {
      text += ", [";
      for (int a = 0; a < 4; ++a) {
        if (!(ab >> a & 1)) continue;
        i64 e = a;
        if ((ab & 16) && axes.empty()) e = a - 4;
        if ((ab & 32) && axes.empty()) e = a + 4;
        if (!axes.empty()) text += ", ";
        text += std::to_string(e);
        axes.push_back(e);
      }
      text += ']';
    }
    text += ')';
  } else {
    text = body;
  }
  const uint8_t* values = b.p;
  const size_t n_values = static_cast<size_t>(b.end - b.p);

  std::u16string t(text.begin(), text.end());
  Parsed p;
  parse(t.data(), static_cast<int>(t.size()), p);
  if (p.code != SyntaxCode::ok) return 0;  // -x ** 2 and the like
  // Inputs in order of first appearance.
  const int n_in = static_cast<int>(p.name_pos.size());
  int order[3];
  for (int i = 0; i < n_in; ++i) order[i] = text[static_cast<size_t>(p.name_pos[static_cast<size_t>(i)])] - 'a';
  Side side[2];  // 0: views, 1: row-major copies
  static bool no_names[kMaxRank] = {};
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i < n_in; ++i) {
      const int k = order[i];
      Input in;
      in.kind = kinds[k];
      in.dtype = dts[k];
      in.shape = views[k].shape;
      in.value = numbers[k];
      in.bits = static_cast<std::int64_t>(numbers[k] == std::floor(numbers[k]) ? numbers[k] : 0);
      if (in.kind == Input::bigint) in.value = static_cast<double>(in.bits);
      in.strided = s == 0;
      for (int a = 0; a < in.shape.rank; ++a) in.strides[a] = views[k].strides[a];
      side[s].inputs.push_back(in);
    }
    Request q;
    q.rule = rule;
    q.axis = axis;
    q.inputs = side[s].inputs.data();
    q.n_inputs = n_in;
    q.keepdims = keepdims;
    q.axes = axes.data();
    q.axis_is_name = no_names;
    q.n_axes = all_axes ? -1 : static_cast<int>(axes.size());
    side[s].st = compile(p, t.data(), q, side[s].c, side[s].f);
  }
  if (std::getenv("EVAL_FUZZ_DEBUG"))  // what a unit runs: EVAL_FUZZ_DEBUG=1 build/fuzz/eval_fuzz unit
    std::fprintf(stderr, "eval_fuzz: %s: status %d, fail %d, root rank %d (%lld elements), chunks %lld of group %lld\n",
                 text.c_str(), static_cast<int>(side[0].st), static_cast<int>(side[0].f.code), side[0].c.root.rank,
                 static_cast<long long>(shape_size(side[0].c.root)), static_cast<long long>(side[0].c.chunks),
                 static_cast<long long>(side[0].c.group));
  CHECK(side[0].st == side[1].st);
  CHECK(side[0].f.code == side[1].f.code && side[0].f.pos == side[1].f.pos && side[0].f.len == side[1].f.len);
  if (side[0].st != Status::Ok) return 0;
  const Compiled& c0 = side[0].c;
  const Compiled& c1 = side[1].c;
  CHECK(c0.out_dtype == c1.out_dtype && c0.out_size == c1.out_size && c0.out.rank == c1.out.rank);
  for (int a = 0; a < c0.out.rank; ++a) CHECK(c0.out.dims[a].lo == c1.out.dims[a].lo);
  if (c0.out_size > kMaxElems || shape_size(c0.root) > kMaxElems) return 0;
  // The data: a sum / prod / mean of a bare view into a float accumulator
  // keeps to -1 -0 0 1 (integers: 0 to 3), where every order gives one answer.
  const bool bare_float_sum = c0.reduce && c0.prog.code.size() == 1 &&
                              (is_float_dtype(c0.prog.result()) || is_float_dtype(c0.acc)) &&
                              c0.rop != ReduceOp::min && c0.rop != ReduceOp::max;
  size_t at = 0;
  for (int k = 0; k < 3; ++k) fill(views[k], dts[k], values, n_values, at, bare_float_sum);
  std::vector<unsigned char> copies[3];
  for (int k = 0; k < 3; ++k) copies[k] = gather(views[k], dtype_size(dts[k]));
  const void* ptrs[2][3];
  for (int i = 0; i < n_in; ++i) {
    const int k = order[i];
    ptrs[0][i] = views[k].first;
    ptrs[1][i] = copies[k].data();
  }
  const size_t ob = static_cast<size_t>(c0.out_size) * dtype_size(c0.out_dtype);
  Out got(ob), want(ob);
  const Status s0 = run(c0, ptrs[0], got.p.get(), nullptr);
  const Status s1 = run(c1, ptrs[1], want.p.get(), nullptr);
  CHECK(s0 == s1);
  if (s0 != Status::Ok) return 0;
  const size_t es = dtype_size(c0.out_dtype);
  for (size_t i = 0; i < ob; i += es) CHECK(same_element(c0.out_dtype, got.p.get() + i, want.p.get() + i));
  // The int32 reference (numpy, no reduction, every operand an int32 tensor).
  bool boolean = false;
  if (rule != Rule::numpy || c0.reduce || c0.out_dtype != DType::i32 || !covered(g.nodes, root, boolean) || boolean)
    return 0;
  for (int k = 0; k < 3; ++k)
    if (g.used[k] && (kinds[k] != Input::tensor || dts[k] != DType::i32)) return 0;
  const Shape& R = c0.out;
  i64 idx[kMaxRank] = {};
  for (i64 e = 0; e < c0.out_size; ++e) {
    Ref ref{g.nodes, views, R, idx};
    std::int32_t x, want_x = ref.eval(root);
    std::memcpy(&x, got.p.get() + static_cast<size_t>(e) * 4, 4);
    if (x != want_x) {
      std::fprintf(stderr, "eval_fuzz: %s element %lld: %d, the reference %d\n", text.c_str(), static_cast<long long>(e), x, want_x);
      violated("the int32 reference", __FILE__);
    }
    for (int a = R.rank - 1; a >= 0; --a) {
      if (++idx[a] < R.dims[a].lo) break;
      idx[a] = 0;
    }
  }
  return 0;
}

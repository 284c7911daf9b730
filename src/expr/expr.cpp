// Compiling an expression: types, the tree's broadcast plan, slots and the loop
// (expr.hpp has the walk-through).
#include "expr.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "kernels/half.hpp"
#include "rules/rules.hpp"

namespace tc::expr {

namespace {

constexpr DType kUntyped = DType::count;

// What unary.def says of an op (kernels.hpp): its result, and the dtypes it takes.
constexpr bool unary_bool(UnaryOp op) { return unary_yields_bool(op); }
bool unary_takes(DType d, UnaryOp op) { return unary_defined(d, op); }

// ---- constants: a JS number stored as a typed array of the dtype stores it ---------
// (operands.js scalarOperand: floats round, integers wrap after truncation,
// Uint8Clamped rounds half to even and clamps, bigint dtypes need an integer).
// A BigInt (`is_big`): its bits (the BigInt modulo 2^64) for the 64-bit dtypes,
// as BigInt64Array / BigUint64Array store it; for the others `v`, which is
// Number() of it (the host gives it, rounded from the whole BigInt), as the op
// stores Number(v).
bool store_number(double v, bool is_big, std::int64_t big, DType dt, Instr& in) {
  in.code = Code::constant;
  in.dtype = in.out = dt;
  if (is_big && (dt == DType::i64 || dt == DType::u64)) {
    in.bits = big;
    in.value = dt == DType::u64 ? static_cast<double>(static_cast<std::uint64_t>(big)) : static_cast<double>(big);
    return true;
  }
  switch (dt) {
    case DType::f64: in.value = v; return true;
    case DType::f32: in.value = static_cast<float>(v); return true;
    case DType::f16: in.value = half_to_float(double_to_half(v)); return true;
    case DType::u8c: {
      const double c = !(v > 0) ? 0 : v > 255 ? 255 : std::nearbyint(v);  // NaN -> 0; nearest, ties even
      in.bits = static_cast<std::int64_t>(c);
      in.value = c;
      return true;
    }
    case DType::i64: case DType::u64: {
      if (!(v == std::trunc(v)) || !std::isfinite(v)) return false;  // BigInt(v) needs an integer
      // BigInt(v) modulo 2^64, exactly: fmod is exact, |m| < 2^64, and a negative
      // m is negated as an unsigned integer (adding 2^64 in double would round).
      const double m = std::fmod(v, 18446744073709551616.0);
      const std::uint64_t mag = static_cast<std::uint64_t>(m < 0 ? -m : m);
      const std::uint64_t bits = m < 0 ? 0 - mag : mag;
      in.bits = static_cast<std::int64_t>(bits);
      if (dt == DType::u64) in.value = static_cast<double>(bits);
      else in.value = static_cast<double>(in.bits);
      return true;
    }
    default: {  // 8/16/32-bit integers: ToInt32-style modular
      std::uint32_t w = 0;
      if (std::isfinite(v)) {
        const double t = std::trunc(v);
        const double m = std::fmod(t, 4294967296.0);
        w = static_cast<std::uint32_t>(static_cast<std::int64_t>(m < 0 ? m + 4294967296.0 : m));
      }
      std::int64_t r;
      switch (dt) {
        case DType::i8: r = static_cast<std::int8_t>(w); break;
        case DType::u8: r = static_cast<std::uint8_t>(w); break;
        case DType::i16: r = static_cast<std::int16_t>(w); break;
        case DType::u16: r = static_cast<std::uint16_t>(w); break;
        case DType::i32: r = static_cast<std::int32_t>(w); break;
        default: r = static_cast<std::int64_t>(w); break;  // u32
      }
      in.bits = r;
      in.value = static_cast<double>(r);
      return true;
    }
  }
}

}  // namespace

// The element bytes of a constant instruction.
void constant_bytes(const Instr& in, void* dst) {
  switch (in.out) {
    case DType::f64: { const double v = in.value; std::memcpy(dst, &v, 8); return; }
    case DType::f32: { const float v = static_cast<float>(in.value); std::memcpy(dst, &v, 4); return; }
    case DType::f16: { const std::uint16_t v = float_to_half(static_cast<float>(in.value)); std::memcpy(dst, &v, 2); return; }
    default: {
      const std::uint64_t b = static_cast<std::uint64_t>(in.bits);
      std::memcpy(dst, &b, dtype_size(in.out));  // little-endian: the low bytes
      return;
    }
  }
}

// The value of a one-element result as a constant instruction.
void constant_from_bytes(const void* src, DType dt, Instr& in) {
  in.code = Code::constant;
  in.dtype = in.out = dt;
  in.a = in.b = in.c = -1;
  switch (dt) {
    case DType::f64: std::memcpy(&in.value, src, 8); return;
    case DType::f32: { float v; std::memcpy(&v, src, 4); in.value = v; return; }
    case DType::f16: { std::uint16_t v; std::memcpy(&v, src, 2); in.value = half_to_float(v); return; }
    default: break;
  }
  std::int64_t r = 0;
  switch (dt) {
    case DType::i8: { std::int8_t v; std::memcpy(&v, src, 1); r = v; break; }
    case DType::u8: case DType::u8c: { std::uint8_t v; std::memcpy(&v, src, 1); r = v; break; }
    case DType::i16: { std::int16_t v; std::memcpy(&v, src, 2); r = v; break; }
    case DType::u16: { std::uint16_t v; std::memcpy(&v, src, 2); r = v; break; }
    case DType::i32: { std::int32_t v; std::memcpy(&v, src, 4); r = v; break; }
    case DType::u32: { std::uint32_t v; std::memcpy(&v, src, 4); r = v; break; }
    default: std::memcpy(&r, src, 8); break;
  }
  in.bits = r;
  in.value = dt == DType::u64 ? static_cast<double>(static_cast<std::uint64_t>(r)) : static_cast<double>(r);
}

// One instruction on one element each (the interpreter's kernels with n = 1).
void eval_scalar(const Instr& in, const void* a, const void* b, const void* c, void* out);

namespace {

// ---- lowering ------------------------------------------------------------------------------
struct Lowerer {
  const Parsed& p;
  const char16_t* text;
  const Request& req;
  Failure& fail;
  Program& prog;
  PodVector<DType> type;  // per node: its dtype, kUntyped for constant-only subtrees
  PodVector<std::int32_t> node_of;  // per instruction: its node (spans for errors)
  // Per node: its subtree holds a BigInt or an integer-only op, which a double would not
  // hold or take; numbers alone without one are doubles where they meet no dtype (a
  // comparison's operands, cast's argument), with one they are stored as before.
  PodVector<char> ints;

  bool failed(Fail f, const Node& n, DType a = DType::count, DType b = DType::count) {
    fail.code = f;
    fail.pos = n.pos;
    fail.len = n.len;
    fail.a = a;
    fail.b = b;
    return false;
  }
  const Node& node(int i) const { return p.nodes[static_cast<size_t>(i)]; }
  int arg(const Node& n, int k) const { return p.args[static_cast<size_t>(n.first + k)]; }

  bool dtype_of_string(const Node& s, DType& out) const {
    const int from = s.pos + 1, len = s.len - 2;
    for (int d = 0; d < static_cast<int>(DType::count); ++d) {
      const char* name = dtype_js_name(static_cast<DType>(d));
      int i = 0;
      while (i < len && name[i] && name[i] == static_cast<char>(text[from + i])) ++i;
      if (i == len && name[i] == 0) {
        out = static_cast<DType>(d);
        return true;
      }
    }
    return false;
  }

  // Bottom-up: each node's dtype, or kUntyped; checks what op by op checks.
  // The parser leaves the nodes in post-order (every argument before its call,
  // the root last), so one pass in index order visits them as a recursive
  // walk would, with no recursion (a chain a+b+c+... is as deep as it is long).
  bool infer(int root) {
    ints.assign(static_cast<size_t>(root) + 1, 0);
    for (int i = 0; i <= root; ++i)
      if (!infer_node(i)) return false;
    return true;
  }
  bool infer_node(int i) {
    const Node& n = node(i);
    DType t = kUntyped;
    char& exact = ints[static_cast<size_t>(i)];
    switch (n.kind) {
      case Kind::input: {
        const Input& in = req.inputs[n.index];
        t = in.kind == Input::tensor ? in.dtype : kUntyped;
        exact = in.kind == Input::bigint;
        break;
      }
      case Kind::number: exact = n.is_bigint; break;
      case Kind::string: case Kind::list: break;  // arguments only (the parser placed them)
      case Kind::call: {
        auto unify = [&](int x, int y, DType& out) {
          const DType tx = type[static_cast<size_t>(x)], ty = type[static_cast<size_t>(y)];
          if (tx != kUntyped && ty != kUntyped && tx != ty) return failed(Fail::mismatch, n, tx, ty);
          out = tx != kUntyped ? tx : ty;
          return true;
        };
        for (int k = 0; k < n.count; ++k) exact |= ints[static_cast<size_t>(arg(n, k))];
        switch (n.fn) {
          case Fn::binary: {
            const Op op = static_cast<Op>(n.op);
            if (!unify(arg(n, 0), arg(n, 1), t)) return false;
            if (t != kUntyped && !op_defined(t, op)) return failed(Fail::domain, n, t);
            exact |= op_traits(op).domain == OpDomain::integer;
            if (op_yields_bool(op)) t = DType::u8;  // numbers alone too: compared as doubles, or exactly in bigint64 (enter())
            break;
          }
          case Fn::unary: {
            const UnaryOp op = static_cast<UnaryOp>(n.op);
            t = type[static_cast<size_t>(arg(n, 0))];
            if (t != kUntyped && !unary_takes(t, op)) return failed(Fail::domain, n, t);
            exact |= unary_traits(op).domain == OpDomain::integer;
            if (unary_bool(op) && (t != kUntyped || !exact)) t = DType::u8;
            break;
          }
          case Fn::where:
            if (!unify(arg(n, 1), arg(n, 2), t)) return false;
            break;
          case Fn::cast:
            if (!dtype_of_string(node(arg(n, 1)), t)) return failed(Fail::bad_dtype, node(arg(n, 1)));
            break;
          case Fn::reduce:
            t = type[static_cast<size_t>(arg(n, 0))];
            break;
        }
        break;
      }
    }
    type[static_cast<size_t>(i)] = t;
    return true;
  }

  int push(Instr in, int node_index) {
    prog.code.push_back(in);
    node_of.push_back(node_index);
    return static_cast<int>(prog.code.size()) - 1;
  }
  bool is_const(int r) const { return prog.code[static_cast<size_t>(r)].code == Code::constant; }

  // Fold an instruction whose arguments are all constants into one.
  int fold_or_push(Instr in, int node_index) {
    const bool all_const = (in.a < 0 || is_const(in.a)) && (in.b < 0 || is_const(in.b)) && (in.c < 0 || is_const(in.c));
    if (all_const) {
      unsigned char a[8] = {}, b[8] = {}, c[8] = {}, o[8] = {};
      if (in.a >= 0) constant_bytes(prog.code[static_cast<size_t>(in.a)], a);
      if (in.b >= 0) constant_bytes(prog.code[static_cast<size_t>(in.b)], b);
      if (in.c >= 0) constant_bytes(prog.code[static_cast<size_t>(in.c)], c);
      eval_scalar(in, a, b, c, o);
      Instr k;
      constant_from_bytes(o, in.out, k);
      k.pos = in.pos;
      // The folded arguments stay in the program (unread): registers keep their numbers.
      return push(k, node_index);
    }
    return push(in, node_index);
  }

  // Top-down: emit node `root`; an untyped subtree computes in `want`. Each
  // call node's arguments are emitted in its order (binary: a, b; where: x, y,
  // then the condition), then the node itself: a walk with an explicit stack
  // of frames, so that a tree as deep as it is long (a+b+c+... up to the node
  // limit) takes no wasm stack.
  struct Frame {
    int node;
    DType want;       // the dtype an untyped subtree computes in
    DType dt;         // call: its operands' dtype (set on entering)
    int done;         // -1: not entered; else the arguments emitted so far
    int n_args;       // arguments to emit
    int args[3];      // their nodes, in emission order
    DType wants[3];   // the dtype each is emitted in
    int regs[3];      // their registers
  };

  int emit(int root, DType want) {
    PodVector<Frame> stack;
    stack.push_back(frame(root, want));
    for (;;) {
      Frame& f = stack.back();
      int r;
      if (f.done < 0) {
        r = enter(f);  // a leaf's register, kTail (f is now its argument), kArgs or -1
        if (r == kTail) continue;
      } else {
        r = kArgs;
      }
      if (r == kArgs) {
        if (f.done < f.n_args) {
          const Frame child = frame(f.args[f.done], f.wants[f.done]);
          stack.push_back(child);  // f is not used past this point
          continue;
        }
        r = finish(f);
      }
      if (r < 0) return -1;
      stack.pop_back();
      if (stack.empty()) return r;
      Frame& parent = stack.back();
      parent.regs[parent.done++] = r;
    }
  }

  static constexpr int kArgs = -2;  // enter(): the frame's arguments come next
  static constexpr int kTail = -3;  // enter(): the frame now stands for its argument

  static Frame frame(int node, DType want) {
    Frame f;
    f.node = node;
    f.want = want;
    f.dt = kUntyped;
    f.done = -1;
    f.n_args = 0;
    for (int k = 0; k < 3; ++k) {
      f.args[k] = -1;
      f.wants[k] = kUntyped;
      f.regs[k] = -1;
    }
    return f;
  }
  static void add_arg(Frame& f, int node, DType want) {
    f.args[f.n_args] = node;
    f.wants[f.n_args] = want;
    ++f.n_args;
  }

  // Entering node f.node: a leaf's register, or its arguments (kArgs), or the
  // frame replaced by its one argument (kTail), or -1 (failed).
  int enter(Frame& f) {
    const int i = f.node;
    const Node& n = node(i);
    const DType want = f.want;
    const DType t = type[static_cast<size_t>(i)] != kUntyped ? type[static_cast<size_t>(i)] : want;
    Instr in;
    in.pos = n.pos;
    switch (n.kind) {
      case Kind::input: {
        const Input& x = req.inputs[n.index];
        if (x.kind == Input::tensor) {
          in.code = Code::load;
          in.dtype = in.out = x.dtype;
          in.a = n.index;
          return push(in, i);
        }
        if (!store_number(x.value, x.kind == Input::bigint, x.bits, t, in)) return failed(Fail::not_integer, n, t), -1;
        in.pos = n.pos;
        return push(in, i);
      }
      case Kind::number:
        if (!store_number(n.value, n.is_bigint, n.bits, t, in)) return failed(Fail::not_integer, n, t), -1;
        in.pos = n.pos;
        return push(in, i);
      case Kind::string: case Kind::list: return failed(Fail::bad_dtype, n), -1;  // not reached: the parser places them
      case Kind::call: break;
    }
    f.done = 0;
    switch (n.fn) {
      case Fn::binary: {
        const Op op = static_cast<Op>(n.op);
        // Operands: the node's operand dtype (the typed child's), else `want`.
        DType dt = type[static_cast<size_t>(arg(n, 0))];
        if (dt == kUntyped) dt = type[static_cast<size_t>(arg(n, 1))];
        // Numbers alone: compared as JS compares them, as doubles; with a BigInt or an integer-only
        // op among them, exactly, in bigint64 (a number that is no integer is refused there).
        if (dt == kUntyped) dt = !op_yields_bool(op) ? want : ints[static_cast<size_t>(i)] ? DType::i64 : DType::f64;
        if (!op_defined(dt, op)) return failed(Fail::domain, n, dt), -1;
        f.dt = dt;
        add_arg(f, arg(n, 0), dt);
        add_arg(f, arg(n, 1), dt);
        return kArgs;
      }
      case Fn::unary: {
        const UnaryOp op = static_cast<UnaryOp>(n.op);
        DType dt = type[static_cast<size_t>(arg(n, 0))];
        if (dt == kUntyped) dt = unary_bool(op) && !ints[static_cast<size_t>(i)] ? DType::f64 : want;
        if (!unary_takes(dt, op)) return failed(Fail::domain, n, dt), -1;
        f.dt = dt;
        add_arg(f, arg(n, 0), dt);
        return kArgs;
      }
      case Fn::where: {
        const DType ct = type[static_cast<size_t>(arg(n, 0))];
        f.dt = t;
        add_arg(f, arg(n, 1), t);
        add_arg(f, arg(n, 2), t);
        add_arg(f, arg(n, 0), ct == kUntyped ? DType::f64 : ct);  // numbers alone: a double, as JS reads them
        return kArgs;
      }
      case Fn::cast: {
        DType target = DType::count;
        dtype_of_string(node(arg(n, 1)), target);  // checked by infer()
        DType src = type[static_cast<size_t>(arg(n, 0))];
        if (src == kUntyped) {
          // Numbers alone: a double, as JS reads them, cast as cast() casts a float64
          // (truncated, saturated, NaN to 0); with a BigInt or an integer-only op among them,
          // stored as the target stores them (exact in the 64-bit integers).
          if (ints[static_cast<size_t>(arg(n, 0))]) {
            f = frame(arg(n, 0), target);
            return kTail;
          }
          src = DType::f64;
        }
        f.dt = src;
        add_arg(f, arg(n, 0), src);
        return kArgs;
      }
      case Fn::reduce:  // the root's reduction is the caller's
        f = frame(arg(n, 0), want);
        return kTail;
    }
    return -1;
  }

  // Node f.node once its arguments are emitted (f.regs): its instruction.
  int finish(const Frame& f) {
    const int i = f.node;
    const Node& n = node(i);
    Instr in;
    in.pos = n.pos;
    switch (n.fn) {
      case Fn::binary: {
        const Op op = static_cast<Op>(n.op);
        in.code = Code::binary;
        in.op = static_cast<std::uint8_t>(op);
        in.dtype = f.dt;
        in.out = op_yields_bool(op) ? DType::u8 : f.dt;
        in.a = f.regs[0];
        in.b = f.regs[1];
        // x ** 2 over floats is x * x, bit for bit: float pow is the host's Math.pow (fdlibm's, which
        // returns x * x for y = 2, exact in double for float32 and float16 operands), rounded once to
        // the dtype, as mul rounds the exact square once. A mul runs fused in generated code; pow never.
        if (op == Op::pow && is_float_dtype(f.dt) && is_const(in.b) && prog.code[static_cast<size_t>(in.b)].value == 2.0) {
          in.op = static_cast<std::uint8_t>(Op::mul);
          in.b = in.a;
        }
        break;
      }
      case Fn::unary: {
        const UnaryOp op = static_cast<UnaryOp>(n.op);
        in.code = Code::unary;
        in.op = static_cast<std::uint8_t>(op);
        in.dtype = f.dt;
        in.out = unary_bool(op) ? DType::u8 : f.dt;
        in.a = f.regs[0];
        break;
      }
      case Fn::where: {
        const int c = f.regs[2];
        in.code = Code::select;
        in.dtype = in.out = f.dt;
        in.cond = prog.code[static_cast<size_t>(c)].out;
        in.a = c;
        in.b = f.regs[0];
        in.c = f.regs[1];
        break;
      }
      case Fn::cast: {
        DType target = DType::count;
        dtype_of_string(node(arg(n, 1)), target);
        if (f.dt == target) return f.regs[0];
        in.code = Code::cast;
        in.dtype = f.dt;
        in.out = target;
        in.a = f.regs[0];
        break;
      }
      case Fn::reduce: return -1;  // not reached: enter() replaced the frame
    }
    const int r = fold_or_push(in, i);
    if (type[static_cast<size_t>(i)] == kUntyped && prog.code[static_cast<size_t>(r)].out != f.want)
      return failed(Fail::mismatch, n, prog.code[static_cast<size_t>(r)].out, f.want), -1;
    return r;
  }
};

// ---- shapes: the rule at every node, then each load's axes at the root ----------------
struct ShapeFold {
  const Request& req;
  const Program& prog;
  const PodVector<std::int32_t>& node_of;
  const Parsed& p;
  Failure& fail;
  bool named;
  std::unique_ptr<Shape[]> shape;          // positional (one per instruction)
  PodVector<NamedShape> nshape;            // named
  PodVector<i64*> owned;                   // named: the plans' output labels, copied (freed with the fold)
  // Per instruction, per argument (a, b, c): for each of its axes, the argument's axis (-1: none).
  PodVector<std::array<std::array<int, kMaxRank>, 3>> amap;

  const Shape& sh(int r) const { return shape[static_cast<size_t>(r)]; }

  // `ns`, named: the n operands' named shapes, whose dim names the refusal names.
  bool refuse(int i, Status st, const Error& err, const Shape* s, int n, const NamedShape* const* ns = nullptr) {
    const Node& nd = p.nodes[static_cast<size_t>(node_of[static_cast<size_t>(i)])];
    fail.code = Fail::broadcast;
    fail.pos = nd.pos;
    fail.len = nd.len;
    fail.err = err;
    if (fail.err.code == Status::Ok) fail.err.code = st;
    fail.n_shapes = n;
    for (int k = 0; k < n; ++k) fail.shapes[k] = s[k];
    fail.named = ns != nullptr;
    if (ns != nullptr)
      for (int k = 0; k < n; ++k)
        for (int a = 0; a < ns[k]->rank && a < kMaxRank; ++a) fail.names[k][a] = ns[k]->name[a];
    return false;
  }

  // Named operands whose labels the op would have to re-index, at instruction i.
  bool gather(int i) {
    const Node& nd = p.nodes[static_cast<size_t>(node_of[static_cast<size_t>(i)])];
    fail.code = Fail::gather;
    fail.pos = nd.pos;
    fail.len = nd.len;
    return false;
  }

  void identity(int i) {
    for (int k = 0; k < 3; ++k)
      for (int ax = 0; ax < kMaxRank; ++ax) amap[static_cast<size_t>(i)][static_cast<size_t>(k)][static_cast<size_t>(ax)] = ax;
  }

  ~ShapeFold() {
    for (i64* block : owned) std::free(block);
  }

  // The named shape of a plan's output, its labels copied (the plan is reused).
  void named_out(int i, const NamedPlan& np) {
    NamedShape& o = nshape[static_cast<size_t>(i)];
    o.rank = static_cast<int>(np.axes.size());
    for (size_t a = 0; a < np.axes.size(); ++a) {
      static const i64 kNone = 0;
      const NamedAxis& ax = np.axes[a];
      o.name[a] = ax.name;
      o.size[a] = ax.size;
      o.labels[a] = !ax.labeled ? nullptr : &kNone;
      if (!ax.labeled || ax.labels.empty()) continue;
      i64* copy = static_cast<i64*>(std::malloc(ax.labels.size() * sizeof(i64)));
      if (copy == nullptr) std::abort();
      std::memcpy(copy, ax.labels.data(), ax.labels.size() * sizeof(i64));
      owned.push_back(copy);
      o.labels[a] = copy;
    }
    Shape& s = shape[static_cast<size_t>(i)];
    s.rank = o.rank;
    for (int a = 0; a < o.rank; ++a) s.dims[a] = Dim::fixed(o.size[a]);
  }

  // Plan two shapes at instruction i (its arguments x, y as argument slots kx, ky).
  bool pair(int i, int x, int y, int kx, int ky, Plan& plan, NamedPlan& np) {
    Error err;
    Status st;
    if (named) {
      st = broadcast_named(nshape[static_cast<size_t>(x)], nshape[static_cast<size_t>(y)], req.shaping, np, plan, err);
      if (st == Status::Ok && np.needs_gather) return gather(i);
    } else {
      switch (req.rule) {
        case Rule::none: st = broadcast_none(sh(x), sh(y), plan, err); break;
        case Rule::pdpd: st = broadcast_pdpd(sh(x), sh(y), req.axis, plan, err); break;
        default: {
          const Shape two[2] = {sh(x), sh(y)};
          st = broadcast_numpy(two, 2, plan, err);
          break;
        }
      }
    }
    if (st != Status::Ok) {
      const Shape two[2] = {sh(x), sh(y)};
      if (!named) return refuse(i, st, err, two, 2);
      const NamedShape* ns[2] = {&nshape[static_cast<size_t>(x)], &nshape[static_cast<size_t>(y)]};
      return refuse(i, st, err, two, 2, ns);
    }
    auto& m = amap[static_cast<size_t>(i)];
    for (int ax = 0; ax < plan.out.rank; ++ax) {
      m[static_cast<size_t>(kx)][static_cast<size_t>(ax)] = plan.ops[0].src_axis[ax];
      m[static_cast<size_t>(ky)][static_cast<size_t>(ax)] = plan.ops[1].src_axis[ax];
    }
    if (named) named_out(i, np);
    else shape[static_cast<size_t>(i)] = plan.out;
    return true;
  }

  bool run() {
    const size_t n = prog.code.size();
    shape.reset(new Shape[n]);
    amap.assign(n, {});
    if (named) nshape.assign(n, NamedShape{});
    Plan plan;
    NamedPlan np;
    for (size_t i = 0; i < n; ++i) {
      const Instr& in = prog.code[i];
      const int ii = static_cast<int>(i);
      switch (in.code) {
        case Code::load: {
          const Input& x = req.inputs[in.a];
          if (named) {
            nshape[i] = x.named;
            shape[i].rank = x.named.rank;
            for (int a = 0; a < x.named.rank; ++a) shape[i].dims[a] = Dim::fixed(x.named.size[a]);
          } else {
            shape[i] = x.shape;
          }
          break;
        }
        case Code::constant:
          shape[i].rank = 0;
          if (named) nshape[i].rank = 0;
          break;
        case Code::unary: case Code::cast:
          shape[i] = sh(in.a);
          if (named) nshape[i] = nshape[static_cast<size_t>(in.a)];  // its labels live as long as the fold
          identity(ii);
          break;
        case Code::binary:
          if (!pair(ii, in.a, in.b, 0, 1, plan, np)) return false;
          break;
        case Code::select:
          if (named) {
            // cond with x, then that with y: each a named pair.
            if (!pair(ii, in.a, in.b, 0, 1, plan, np)) return false;
            std::array<int, kMaxRank> mc = amap[i][0], mx = amap[i][1];
            const int r1 = shape[i].rank;
            const NamedShape first = nshape[i];
            Error err;
            const Status st = broadcast_named(first, nshape[static_cast<size_t>(in.c)], req.shaping, np, plan, err);
            if (st != Status::Ok || np.needs_gather) {
              if (st == Status::Ok) return gather(ii);
              const Shape two[2] = {shape[i], sh(in.c)};
              const NamedShape* ns[2] = {&first, &nshape[static_cast<size_t>(in.c)]};
              return refuse(ii, st, err, two, 2, ns);
            }
            auto& m = amap[i];
            for (int ax = 0; ax < plan.out.rank; ++ax) {
              const int s1 = plan.ops[0].src_axis[ax];
              m[0][static_cast<size_t>(ax)] = s1 < 0 || s1 >= r1 ? -1 : mc[static_cast<size_t>(s1)];
              m[1][static_cast<size_t>(ax)] = s1 < 0 || s1 >= r1 ? -1 : mx[static_cast<size_t>(s1)];
              m[2][static_cast<size_t>(ax)] = plan.ops[1].src_axis[ax];
            }
            named_out(ii, np);
          } else {
            // where() plans its three operands with the numpy rule, whatever the expression's rule.
            const Shape three[3] = {sh(in.a), sh(in.b), sh(in.c)};
            Error err;
            const Status st = broadcast_numpy(three, 3, plan, err);
            if (st != Status::Ok) return refuse(ii, st, err, three, 3);
            for (int k = 0; k < 3; ++k)
              for (int ax = 0; ax < plan.out.rank; ++ax) amap[i][static_cast<size_t>(k)][static_cast<size_t>(ax)] = plan.ops[static_cast<size_t>(k)].src_axis[ax];
            shape[i] = plan.out;
          }
          break;
      }
    }
    return true;
  }
};

// Merge axes [from, to) of `dims` for slots whose strides are strides[slot * stride_rank + axis].
void merge(const i64* dims, int from, int to, const PodVector<i64>& strides, int stride_rank, int slots, Loop& L) {
  L.rank = 0;
  PodVector<i64> g(static_cast<size_t>(slots) * kMaxRank, 0);  // [group * slots + slot]
  int m = 0;
  for (int a = to - 1; a >= from; --a) {
    const i64 ext = dims[a];
    if (ext == 1) continue;
    bool fold = m > 0;
    for (int k = 0; fold && k < slots; ++k) {
      const i64 inner = g[static_cast<size_t>((m - 1) * slots + k)];
      if (strides[static_cast<size_t>(k * stride_rank + a)] != inner * L.shape[m - 1]) fold = false;
    }
    if (fold) {
      L.shape[m - 1] *= ext;
    } else {
      L.shape[m] = ext;
      for (int k = 0; k < slots; ++k) g[static_cast<size_t>(m * slots + k)] = strides[static_cast<size_t>(k * stride_rank + a)];
      ++m;
    }
  }
  if (m == 0) {
    L.shape[0] = 1;
    for (int k = 0; k < slots; ++k) g[static_cast<size_t>(k)] = 1;
    m = 1;
  }
  L.rank = m;
  L.strides.assign(static_cast<size_t>(slots * m), 0);
  for (int j = 0; j < m; ++j) {  // groups were built innermost first: outermost first now
    const int src = m - 1 - j;
    for (int k = 0; k < slots; ++k) L.strides[static_cast<size_t>(k * m + j)] = g[static_cast<size_t>(src * slots + k)];
  }
  for (int i = 0, j = m - 1; i < j; ++i, --j) std::swap(L.shape[i], L.shape[j]);
}

}  // namespace

// The root's axes of extent > 1, in order (ax[0, n)), and r0 the first of them
// reduced, for the kernels' planners. False: an empty root (the reduction's
// own rules) or no axis of extent > 1 reduced.
static bool kernel_axes(const Compiled& c, int* ax, int& n, int& r0) {
  n = 0;
  for (int a = 0; a < c.root.rank; ++a) {
    if (c.root.dims[a].lo == 0) return false;
    if (c.root.dims[a].lo > 1) ax[n++] = a;
  }
  for (r0 = 0; r0 < n && !(c.mask >> ax[r0] & 1u);) ++r0;
  return r0 < n;
}

// sum(a * b) as a contraction (expr.hpp's Contraction), or off. The product's
// axes of extent > 1, in root order: the reduced ones must stand together (the
// op-by-op sum then has one reduced run, and its order is row or col) and be
// one progression for each operand; the trailing kept axes read by one
// operand only (B) are N; the rest of the kept axes are M.
void plan_contraction(Compiled& c) {  // c.gemm is fresh (compile() builds c anew): on only at the end
  const auto& code = c.prog.code;
  const DType dt = c.out_dtype;
  if (!c.reduce || c.rop != ReduceOp::sum || dt != c.prog.result()) return;
  if (dt != DType::f32 && dt != DType::f64 && dt != DType::i32 && dt != DType::u32 && dt != DType::f16) return;
  if (code.size() != 3 || code[0].code != Code::load || code[1].code != Code::load || code[2].code != Code::binary ||
      code[2].op != static_cast<std::uint8_t>(Op::mul) || code[0].a == code[1].a)
    return;
  const int R = c.root.rank;
  const int s[2] = {code[0].a, code[1].a};
  auto st = [&](int k, int a) { return c.slot_strides[static_cast<size_t>(s[k] * R + a)]; };
  int ax[kMaxRank], n, r0;
  if (!kernel_axes(c, ax, n, r0)) return;
  // The reduced run [r0, r1) of ax, merged into K.
  int r1 = r0 + 1;
  while (r1 < n && (c.mask >> ax[r1] & 1u)) ++r1;
  for (int i = r1; i < n; ++i)
    if (c.mask >> ax[i] & 1u) return;  // a second reduced run
  i64 K = 1, k_st[2] = {st(0, ax[r1 - 1]), st(1, ax[r1 - 1])};
  for (int i = r1 - 1; i >= r0; --i) {
    const i64 d = c.root.dims[ax[i]].lo;
    for (int k = 0; k < 2; ++k)
      if (st(k, ax[i]) != k_st[k] * K) return;
    K *= d;
  }
  // N: the last kept axis, read by one operand only (B), and the kept axes
  // before it that B reads as one progression with it (not across K).
  int last = n - 1;
  while (last >= 0 && (c.mask >> ax[last] & 1u)) --last;
  if (last < 0) return;  // every axis reduced: one output (the reduction as it is)
  int bi;
  if (st(0, ax[last]) == 0 && st(1, ax[last]) != 0) bi = 1;
  else if (st(1, ax[last]) == 0 && st(0, ax[last]) != 0) bi = 0;
  else return;
  const int ai = 1 - bi;
  i64 N = c.root.dims[ax[last]].lo;
  const i64 b_n = st(bi, ax[last]);
  int n0 = last;
  const int floor_ = r1 <= last ? r1 : 0;  // N does not cross the reduced run
  while (n0 - 1 >= floor_ && !(c.mask >> ax[n0 - 1] & 1u) && st(ai, ax[n0 - 1]) == 0 &&
         st(bi, ax[n0 - 1]) == b_n * N) {
    --n0;
    N *= c.root.dims[ax[n0]].lo;
  }
  Contraction& g = c.gemm;
  g.K = K;
  g.N = N;
  g.a_k = k_st[ai];
  g.b_k = k_st[bi];
  g.b_n = b_n;
  g.a_slot = s[ai];
  g.b_slot = s[bi];
  g.row_order = r1 == n;  // nothing kept after the reduced run
  if (dt == DType::f16) {
    // A float16 sum adds float32 copies of its terms 32 KiB at a time
    // (reduce_driver.cpp): a row in parts of 8192, a column in blocks of
    // 8192 / w rows, w the kept extent after k (at most 1024).
    i64 w = 1;
    for (int i = r1; i < n; ++i) w *= c.root.dims[ax[i]].lo;
    g.part = g.row_order ? 8192 : 8192 / (w < 1024 ? w : 1024);
  }
  for (int i = 0; i < n; ++i) {
    if ((c.mask >> ax[i] & 1u) || (i >= n0 && i <= last)) continue;
    g.m_dims[g.m_rank] = c.root.dims[ax[i]].lo;
    g.m_a[g.m_rank] = st(ai, ax[i]);
    g.m_b[g.m_rank] = st(bi, ax[i]);
    g.M *= g.m_dims[g.m_rank];
    ++g.m_rank;
  }
  // Only where it is faster than the chunks. Each costs, in ns (float32 in
  // Node, this machine's medians): the kernel packs B (0.5 an element, 0.9
  // read across rows: the row order's [N, K]), runs 4-row tiles (0.06 a
  // multiply-add) and starts (5 µs); the chunks run the product and reduce it
  // (0.2 an element), each output (row order: 200) or each row of outputs
  // (col: 1000) a step of its own. So a vector times a matrix stays on the
  // chunks (its tile would hold 1 row of 4, and the packing is not repaid):
  // [1, 1024] x [1024, 1024] 0.23 ms there, 0.76 in the kernel.
  const double kn = static_cast<double>(g.K) * static_cast<double>(g.N);
  const double m = static_cast<double>(g.M), tiles = static_cast<double>((g.M + 3) / 4 * 4);
  // float16: the kernel widens each element as it packs it (2.7) and rounds each
  // product (0.25 a multiply-add); the chunks convert the products and their
  // sums' parts (2.2 an element, 9 where B is read across k in the col order;
  // 25 us a row of outputs).
  const bool h = dt == DType::f16;
  const double kernel = kn * (h ? 2.7 : g.row_order && g.b_n != 1 ? 0.9 : 0.5) + tiles * kn * (h ? 0.25 : 0.06) + 5000;
  const double chunks = h ? m * (kn * (!g.row_order && g.b_n != 1 ? 9 : 2.2) + 25000)
                          : g.row_order ? m * static_cast<double>(g.N) * 200 + m * kn * 0.2 : m * (kn * 0.22 + 1000);
  g.on = kernel < chunks;
}

// sum((P * Q) * R) over trailing axes, float32 (expr.hpp ProductRows): the
// last instruction multiplies a load by the product of two loads; the reduced
// axes come last (size-1 axes aside) and read as runs of n % 16 == 0 elements.
// Needs c.mask and c.out_dtype (set before the chunks are chosen).
static void plan_product_rows(Compiled& c) {  // c.rows is fresh
  const auto& code = c.prog.code;
  if (!c.reduce || c.rop != ReduceOp::sum || c.out_dtype != DType::f32 || code.size() != 5) return;
  const auto load = [&](int r) { return code[r].code == Code::load && code[r].dtype == DType::f32; };
  const auto mul = [&](int r) {
    return code[r].code == Code::binary && code[r].op == static_cast<std::uint8_t>(Op::mul) && code[r].dtype == DType::f32;
  };
  const Instr& top = code[4];
  if (!mul(4)) return;
  int pq = top.a, r = top.b;
  if (!load(r)) std::swap(pq, r);
  if (!load(r) || !mul(pq) || !load(code[pq].a) || !load(code[pq].b)) return;
  ProductRows& w = c.rows;
  int s[3] = {code[code[pq].a].a, code[code[pq].b].a, code[r].a};
  const int R = c.root.rank;
  auto st = [&](int k, int a) { return c.slot_strides[static_cast<size_t>(s[k] * R + a)]; };
  int ax[kMaxRank], n, r0;
  if (!kernel_axes(c, ax, n, r0)) return;
  for (int i = r0; i < n; ++i)
    if (!(c.mask >> ax[i] & 1u)) return;  // a kept axis after a reduced one
  // The run: the last axis, with the reduced axes before it that continue it.
  // P is the factor read as one value along it (P and Q trade places: P * Q is Q * P).
  int i = n - 1;
  if (st(0, ax[i]) != 0) std::swap(s[0], s[1]);
  if (st(0, ax[i]) != 0 || st(1, ax[i]) != 1 || st(2, ax[i]) != 1) return;
  w.n = c.root.dims[ax[i]].lo;
  for (int k = 0; k < 3; ++k) w.slot[k] = s[k];
  const auto continues = [&](int a, const i64* want) {
    for (int k = 0; k < 3; ++k)
      if (st(k, a) != want[k]) return false;
    return true;
  };
  for (--i; i >= r0; --i) {
    const i64 want[3] = {0, w.n, w.n};
    if (!continues(ax[i], want)) break;
    w.n *= c.root.dims[ax[i]].lo;
  }
  if (w.n % 16 != 0) return;
  // The runs: the reduced axes left, as one progression.
  if (i >= r0) {
    for (int k = 0; k < 3; ++k) w.run_st[k] = st(k, ax[i]);
    w.runs = c.root.dims[ax[i]].lo;
    for (--i; i >= r0; --i) {
      const i64 want[3] = {w.run_st[0] * w.runs, w.run_st[1] * w.runs, w.run_st[2] * w.runs};
      if (!continues(ax[i], want)) return;
      w.runs *= c.root.dims[ax[i]].lo;
    }
  }
  w.on = true;
}

Status compile(const Parsed& p, const char16_t* text, const Request& req, Compiled& out, Failure& fail) {
  // Fresh results, built in place (cheaper in code than assigning temporaries).
  fail.~Failure();
  new (&fail) Failure();
  out.~Compiled();
  new (&out) Compiled();
  if (p.code != SyntaxCode::ok || p.root < 0) return Status::InvalidShape;
  if (req.n_inputs != static_cast<int>(p.name_pos.size())) return Status::InvalidShape;
  // The reduction, if one wraps the expression (the parser allows it only at the root).
  int root = p.root;
  const Node& rn = p.nodes[static_cast<size_t>(root)];
  if (rn.kind == Kind::call && rn.fn == Fn::reduce) {
    out.reduce = true;
    out.rop = static_cast<ReduceOp>(rn.op);
  }
  Lowerer lo{p, text, req, fail, out.prog, PodVector<DType>(p.nodes.size(), kUntyped), {}};
  if (!lo.infer(root)) return Status::DtypeMismatch;
  const DType top = lo.type[static_cast<size_t>(root)];
  if (top == kUntyped) {
    fail.code = Fail::no_tensor;
    fail.pos = rn.pos;
    fail.len = rn.len;
    return Status::DtypeMismatch;
  }
  out.named = req.rule == Rule::named;
  if (lo.emit(root, top) < 0) return Status::DtypeMismatch;
  Program& prog = out.prog;
  const DType result = prog.result();
  // Only the instructions the result depends on (folded constants leave their
  // arguments behind): renumber so the program is exactly what runs.
  {
    const size_t n = prog.code.size();
    PodVector<char> live(n, 0);
    live[n - 1] = 1;
    for (size_t i = n; i-- > 0;) {
      if (!live[i]) continue;
      const Instr& in = prog.code[i];
      if (in.code == Code::load || in.code == Code::constant) continue;
      if (in.a >= 0) live[static_cast<size_t>(in.a)] = 1;
      if (in.b >= 0) live[static_cast<size_t>(in.b)] = 1;
      if (in.c >= 0) live[static_cast<size_t>(in.c)] = 1;
    }
    PodVector<int> to(n, -1);
    PodVector<Instr> code;
    PodVector<std::int32_t> nodes;
    for (size_t i = 0; i < n; ++i) {
      if (!live[i]) continue;
      Instr in = prog.code[i];
      if (in.code != Code::load && in.code != Code::constant) {
        if (in.a >= 0) in.a = to[static_cast<size_t>(in.a)];
        if (in.b >= 0) in.b = to[static_cast<size_t>(in.b)];
        if (in.c >= 0) in.c = to[static_cast<size_t>(in.c)];
      }
      to[i] = static_cast<int>(code.size());
      code.push_back(in);
      nodes.push_back(lo.node_of[i]);
    }
    prog.code.swap(code);
    lo.node_of.swap(nodes);
  }
  // Shapes.
  ShapeFold sf{req, prog, lo.node_of, p, fail, out.named, {}, {}, {}, {}};
  if (!sf.run()) return fail.err.code != Status::Ok ? fail.err.code : Status::IncompatibleDims;
  const size_t n = prog.code.size();
  out.root = sf.shape[n - 1];
  const int R = out.root.rank;
  if (out.named) {
    const NamedShape& ns = sf.nshape[n - 1];
    out.root_names.assign(ns.name, ns.name + ns.rank);
    out.root_label_count.assign(static_cast<size_t>(ns.rank), 0);
    for (int a = 0; a < ns.rank; ++a) {
      if (!ns.labels[a]) continue;
      out.root_label_count[static_cast<size_t>(a)] = ns.size[a] + 1;
      out.root_labels.append(ns.labels[a], ns.labels[a] + ns.size[a]);
    }
  }
  // Each instruction's axis for each root axis, top-down (every instruction has one reader).
  PodVector<std::array<int, kMaxRank>> at(n);
  for (int a = 0; a < R; ++a) at[n - 1][static_cast<size_t>(a)] = a;
  for (size_t i = n; i-- > 0;) {
    const Instr& in = prog.code[i];
    if (in.code == Code::load || in.code == Code::constant) continue;
    const int args[3] = {in.a, in.b, in.c};
    for (int k = 0; k < 3; ++k) {
      if (args[k] < 0) continue;
      auto& child = at[static_cast<size_t>(args[k])];
      for (int a = 0; a < R; ++a) {
        const int mine = at[i][static_cast<size_t>(a)];
        child[static_cast<size_t>(a)] = mine < 0 ? -1 : sf.amap[i][static_cast<size_t>(k)][static_cast<size_t>(mine)];
      }
    }
  }
  // Slots: loads of one input with the same strides at the root share one.
  PodVector<i64> strides;  // candidate per load
  for (size_t i = 0; i < n; ++i) {
    Instr& in = prog.code[i];
    if (in.code != Code::load) continue;
    const Shape& s = sf.shape[i];
    const Input& x = req.inputs[in.a];
    i64 own[kMaxRank];
    i64 acc = 1;
    for (int a = s.rank - 1; a >= 0; --a) {
      own[a] = x.strided ? x.strides[a] : acc;  // a view's strides, as given
      acc *= s.dims[a].lo;
    }
    i64 st[kMaxRank];
    for (int a = 0; a < R; ++a) {
      const int ax = at[i][static_cast<size_t>(a)];
      st[a] = ax < 0 || s.dims[ax].lo == 1 ? 0 : own[ax];
    }
    int slot = -1;
    for (size_t k = 0; k < out.slot_input.size() && slot < 0; ++k) {
      if (out.slot_input[k] != in.a) continue;
      if (R == 0 || std::memcmp(&out.slot_strides[k * static_cast<size_t>(R)], st, sizeof(i64) * static_cast<size_t>(R)) == 0)
        slot = static_cast<int>(k);
    }
    if (slot < 0) {
      slot = static_cast<int>(out.slot_input.size());
      out.slot_input.push_back(in.a);
      out.slot_dtype.push_back(in.dtype);
      out.slot_strides.append(st, st + R);
      for (int a = 0; a < R; ++a) out.slot_src.push_back(at[i][static_cast<size_t>(a)]);
    }
    in.a = slot;
  }
  prog.inputs = static_cast<int>(out.slot_input.size());
  out.out_dtype = result;
  // The reduction's axes.
  out.out = out.root;
  out.prefix = 0;
  if (out.reduce) {
    const Node& rn2 = p.nodes[static_cast<size_t>(root)];
    auto axis_fail = [&](Fail f, int entry, Status st) {
      fail.code = f;
      fail.pos = rn2.pos;
      fail.len = rn2.len;
      fail.entry = entry;
      return st;
    };
    // Entry e out of range or repeated: INVALID_AXIS with the reduction's details.
    auto bad_axis = [&](int e, i64 detail) {
      fail.err.code = Status::InvalidAxis;
      fail.err.axis = e;
      fail.err.detail = static_cast<int>(detail);
      fail.err.dim_a = Dim::fixed(R);
      return axis_fail(Fail::bad_axis, e, Status::InvalidAxis);
    };
    std::uint64_t mask = 0;
    if (req.n_axes < 0) {
      for (int a = 0; a < R; ++a) mask |= std::uint64_t{1} << a;
    } else {
      for (int e = 0; e < req.n_axes; ++e) {
        i64 a = req.axes[e];
        if (req.axis_is_name[e]) {
          int found = -1;
          for (int k = 0; k < static_cast<int>(out.root_names.size()); ++k)
            if (out.root_names[static_cast<size_t>(k)] == a) found = k;
          if (!out.named || found < 0) return axis_fail(Fail::unknown_dim, e, Status::InvalidAxis);
          a = found;
        } else {
          if (a < -R || a >= R) return bad_axis(e, a < INT32_MIN ? INT32_MIN : a > INT32_MAX ? INT32_MAX : a);
          if (a < 0) a += R;
        }
        if (mask >> a & 1u) return bad_axis(e, req.axes[e]);  // repeated
        mask |= std::uint64_t{1} << a;
      }
    }
    out.mask = mask;
    out.acc = reduce_default_acc(out.rop, result);
    out.out_dtype = out.acc;
    reduce_out_shape(out.root, mask, req.keepdims, out.out);
    int pre = 0;
    while (pre < R && !(mask >> pre & 1u)) ++pre;
    // Whole leading axes join the chunk while it stays within 256 KiB: its rows
    // share a chunk's costs (a generated call, a reduction's setup), and each
    // row is reduced as before (the same bits). A product row's chunk is one
    // result: nothing is stored.
    plan_product_rows(out);
    double bytes = static_cast<double>(dtype_size(result));
    for (int a = pre; a < R; ++a) bytes *= static_cast<double>(out.root.dims[a].lo);
    while (!out.rows.on && pre > 0 && bytes * static_cast<double>(out.root.dims[pre - 1].lo) <= 262144.0)
      bytes *= static_cast<double>(out.root.dims[--pre].lo);
    // And of the next axis as many indices as fit: with a row a chunk, the
    // chunk's costs came a row at a time ([50176, 3] summed over its rows in
    // an expression ran 22x the sum op).
    if (!out.rows.on && pre > 0) {
      const i64 g = static_cast<i64>(262144.0 / bytes);  // < the axis' dim (it did not join whole); bytes > 0 here
      if (g > 1) out.group = g;
    }
    out.prefix = pre;
  }
  // The chunk's first axis, `group` of its indices a chunk (where it is split).
  const int first = out.first();
  i64 dims[kMaxRank];
  for (int a = 0; a < R; ++a) dims[a] = out.root.dims[a].lo;
  out.chunks = 1;
  for (int a = 0; a < out.prefix; ++a) out.chunks *= a < first ? dims[a] : (dims[a] + out.group - 1) / out.group;
  if (first < out.prefix) dims[first] = out.group;
  out.chunk.rank = R - first;
  out.chunk_out = 1;
  for (int a = first; a < R; ++a) {
    out.chunk.dims[a - first] = Dim::fixed(dims[a]);
    if (!(out.mask >> a & 1u)) out.chunk_out *= dims[a];
  }
  out.out_size = shape_size(out.out);
  // The loop over the chunk's axes: slot 0 the (contiguous) chunk, then the slots.
  const int S = 1 + prog.inputs;
  PodVector<i64> all(static_cast<size_t>(S * R), 0);
  {
    i64 acc = 1;
    for (int a = R - 1; a >= first; --a) {
      all[static_cast<size_t>(a)] = acc;
      acc *= dims[a];
    }
  }
  for (int k = 0; k < prog.inputs; ++k)
    for (int a = 0; a < R; ++a)
      all[static_cast<size_t>((k + 1) * R + a)] = out.slot_strides[static_cast<size_t>(k * R + a)];
  merge(dims, first, R, all, R, S, out.loop);
  plan_contraction(out);
  out.chunk_strides.assign(static_cast<size_t>(S * (out.prefix > 0 ? out.prefix : 1)), 0);
  for (int k = 0; k < S; ++k)
    for (int a = 0; a < out.prefix; ++a)
      out.chunk_strides[static_cast<size_t>(k * out.prefix + a)] = all[static_cast<size_t>(k * R + a)] * (a < first ? 1 : out.group);
  return Status::Ok;
}

}  // namespace tc::expr

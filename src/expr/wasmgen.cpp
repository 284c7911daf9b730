// The code generator (wasmgen.hpp): one wasm module per (program, loop form),
// written byte by byte. Layout of the one function "run"(desc):
//
//   prologue   rows, n, the slots' row pointers, the strided inputs' inner
//              strides and the constants (scalar and splatted) into locals
//   row loop   splat inputs read once (and splatted); cursors = row pointers;
//              SIMD body while >= one vector remains (when the program and the
//              form allow it), then the scalar tail, one element at a time
//   carry      the odometer: counter j + 1 below counts[j] moves every row
//              pointer by its outer stride j; otherwise counter j = 0, the
//              pointers rewind by stride * (counts[j] - 1) and j + 1 carries
//
// Register values: floats in f32/f64 locals; every integer dtype of 1-4 bytes
// in an i32 local, sign- or zero-extended as its dtype reads (so comparisons
// and min/max are plain i32 ones; + - * neg abs ~ re-extend their result).
// In the SIMD body a register is a v128 of the computation's lane width W (4
// or 8 bytes): numbers as lanes, boolean (uint8) values as lane masks, narrowed
// to bytes only at the store.
#include "wasmgen.hpp"

#include "core/shape.hpp"

namespace tc::expr {
namespace {

// ---- dtypes ---------------------------------------------------------------------------
enum Cls : std::uint8_t { kNoCls, kI32, kF32, kF64 };
Cls cls(DType d) {
  switch (d) {
    case DType::f32: return kF32;
    case DType::f64: return kF64;
    case DType::i8: case DType::u8: case DType::i16: case DType::u16: case DType::i32: case DType::u32: return kI32;
    default: return kNoCls;
  }
}
bool is_float(DType d) { return d == DType::f32 || d == DType::f64; }
bool is_small(DType d) { return d == DType::i8 || d == DType::u8 || d == DType::i16 || d == DType::u16; }
bool is_unsigned32(DType d) { return d == DType::u32; }
// A dtype whose values are SIMD lanes (its width is the lane width).
bool lane_dtype(DType d) { return d == DType::f32 || d == DType::i32 || d == DType::u32 || d == DType::f64; }
bool bool_unary(UnaryOp u) { return u == UnaryOp::logical_not || u == UnaryOp::is_nan || u == UnaryOp::is_finite; }
bool logical(Op op) { return op == Op::logical_and || op == Op::logical_or || op == Op::logical_xor; }
bool comparison(Op op) { return op >= Op::equal && op <= Op::greater_equal; }

bool binary_ok(Op op, DType d) {
  switch (op) {
    case Op::add: case Op::sub: case Op::mul: case Op::minimum: case Op::maximum:
    case Op::equal: case Op::not_equal: case Op::less: case Op::less_equal: case Op::greater: case Op::greater_equal:
    case Op::logical_and: case Op::logical_or: case Op::logical_xor: return true;
    case Op::div: return is_float(d);  // integer division traps on / 0 in wasm: never emitted
    case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor: return !is_float(d);
    default: return false;  // rem pow mod floorDiv atan2 hypot
  }
}
bool unary_ok(UnaryOp u, DType d) {
  switch (u) {
    case UnaryOp::neg: case UnaryOp::abs: case UnaryOp::sign: case UnaryOp::floor: case UnaryOp::ceil:
    case UnaryOp::round: case UnaryOp::trunc: case UnaryOp::logical_not: case UnaryOp::is_nan:
    case UnaryOp::is_finite: return true;
    case UnaryOp::sqrt: return is_float(d);
    case UnaryOp::bitwise_not: return !is_float(d);
    default: return false;  // transcendentals
  }
}

// ---- opcodes --------------------------------------------------------------------------
enum : std::uint8_t {
  kBlock = 0x02, kLoop = 0x03, kIf = 0x04, kEnd = 0x0B, kBr = 0x0C, kBrIf = 0x0D, kReturn = 0x0F, kSelect = 0x1B,
  kGet = 0x20, kSet = 0x21, kTee = 0x22,
  kI32Load = 0x28, kF32Load = 0x2A, kF64Load = 0x2B, kI32Load8S = 0x2C, kI32Load8U, kI32Load16S, kI32Load16U,
  kI32Store = 0x36, kF32Store = 0x38, kF64Store, kI32Store8, kI32Store16,
  kI32Const = 0x41, kF32Const = 0x43, kF64Const = 0x44,
  kI32Eqz = 0x45, kI32Eq, kI32Ne, kI32LtS, kI32LtU, kI32GtS, kI32GtU, kI32LeS, kI32LeU, kI32GeS, kI32GeU,
  kI32Add = 0x6A, kI32Sub, kI32Mul, kI32And = 0x71, kI32Xor = 0x73,
  kI32Extend8S = 0xC0, kI32Extend16S = 0xC1,
  kVoid = 0x40, kTI32 = 0x7F, kTF32 = 0x7D, kTF64 = 0x7C, kTV128 = 0x7B,
};
// Per float class (f32, f64): scalar and SIMD opcodes, indexed by the op.
struct FloatOps {
  std::uint8_t eq, ne, lt, gt, le, ge, abs, neg, ceil, floor, trunc, nearest, sqrt, add, sub, mul, div, min, max;
  std::uint8_t cst, load, store;
  std::uint16_t veq, vne, vlt, vgt, vle, vge, vabs, vneg, vceil, vfloor, vtrunc, vnearest, vsqrt, vadd, vsub, vmul,
      vdiv, vmin, vmax, vsplat;
};
constexpr FloatOps kF[2] = {
    {0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
     kF32Const, kF32Load, kF32Store,
     0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0xE0, 0xE1, 0x67, 0x68, 0x69, 0x6A, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0x13},
    {0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5,
     kF64Const, kF64Load, kF64Store,
     0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0xEC, 0xED, 0x74, 0x75, 0x7A, 0x94, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0x14},
};
// SIMD opcodes used outside the float table.
enum : std::uint16_t {
  vLoad = 0x00, vLoad16Splat = 0x08, vStore = 0x0B, vConst = 0x0C, vShuffle = 0x0D, vI32Splat = 0x11,
  vI32Eq = 0x37, vI32Ne, vI32LtS, vI32LtU, vI32GtS, vI32GtU, vI32LeS, vI32LeU, vI32GeS, vI32GeU,
  vNot = 0x4D, vAnd = 0x4E, vOr = 0x50, vXor = 0x51, vBitselect = 0x52,
  vStore16Lane = 0x59, vStore32Lane = 0x5A, vLoad32Zero = 0x5C,
  vI32Abs = 0xA0, vI32Neg = 0xA1, vI32Add = 0xAE, vI32Sub = 0xB1, vI32Mul = 0xB5,
  vI32MinS = 0xB6, vI32MinU, vI32MaxS, vI32MaxU, vI64Ne = 0xD7,
  vTruncSatS = 0xF8, vTruncSatU, vConvertS, vConvertU,
};

// ---- the byte writer ------------------------------------------------------------------
constexpr int kMaxOuterRank = kMaxRank;  // R is at most kMaxRank - 1 (wasmgen.hpp)

struct Bytes {
  std::vector<std::uint8_t>& b;
  void op(std::uint8_t x) { b.push_back(x); }
  void uleb(std::uint32_t v) {
    do {
      std::uint8_t c = v & 0x7F;
      v >>= 7;
      b.push_back(v ? c | 0x80 : c);
    } while (v);
  }
  void sleb(std::int32_t v) {
    for (;;) {
      std::uint8_t c = v & 0x7F;
      v >>= 7;  // arithmetic
      if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) { b.push_back(c); return; }
      b.push_back(c | 0x80);
    }
  }
  void raw(const void* p, unsigned n) {
    const auto* c = static_cast<const std::uint8_t*>(p);
    b.insert(b.end(), c, c + n);
  }
  void name(const char* s) {
    unsigned n = 0;
    while (s[n]) ++n;
    uleb(n);
    raw(s, n);
  }
  void simd(std::uint16_t x) { op(0xFD); uleb(x); }
  void mem(std::uint8_t o, unsigned align, std::uint32_t offset) { op(o); uleb(align); uleb(offset); }
  void vmem(std::uint16_t o, std::uint32_t offset) { simd(o); uleb(0); uleb(offset); }
  void get(unsigned l) { op(kGet); uleb(l); }
  void set(unsigned l) { op(kSet); uleb(l); }
  void i32(std::int32_t v) { op(kI32Const); sleb(v); }
  void vconst(const void* lane, unsigned size) {  // a v128 of one repeated lane
    simd(vConst);
    for (unsigned i = 0; i < 16; i += size) raw(lane, size);
  }
};

// The register kinds of the SIMD body.
enum Kind : std::uint8_t {
  kLanes,  // a number per lane (lane_dtype)
  kMask,   // a boolean value (0/1) as a lane mask
  kTruth,  // a uint8/int8 input read only for its truthiness (!= 0), as a lane mask
};

bool valid(const Program& p) {
  const int n = static_cast<int>(p.code.size());
  if (n == 0 || p.inputs < 0) return false;
  auto reg = [&](int r, int i, DType d) { return r >= 0 && r < i && p.code[r].out == d; };
  for (int i = 0; i < n; ++i) {
    const Instr& in = p.code[i];
    if (cls(in.out) == kNoCls) return false;
    switch (in.code) {
      case Code::load:
        if (in.a < 0 || in.a >= p.inputs || in.dtype != in.out) return false;
        break;
      case Code::constant:
        break;
      case Code::binary: {
        const Op op = static_cast<Op>(in.op);
        if (op >= Op::count || cls(in.dtype) == kNoCls || !binary_ok(op, in.dtype)) return false;
        if (in.out != (op_yields_bool(op) ? DType::u8 : in.dtype)) return false;
        if (!reg(in.a, i, in.dtype) || !reg(in.b, i, in.dtype)) return false;
        break;
      }
      case Code::unary: {
        const UnaryOp u = static_cast<UnaryOp>(in.op);
        if (u >= UnaryOp::count || cls(in.dtype) == kNoCls || !unary_ok(u, in.dtype)) return false;
        if (in.out != (bool_unary(u) ? DType::u8 : in.dtype) || !reg(in.a, i, in.dtype)) return false;
        break;
      }
      case Code::select:
        if (cls(in.cond) == kNoCls || in.out != in.dtype) return false;
        if (!reg(in.a, i, in.cond) || !reg(in.b, i, in.dtype) || !reg(in.c, i, in.dtype)) return false;
        break;
      case Code::cast:
        // float -> 8/16-bit integers: no wasm instruction has the reference's semantics.
        if (cls(in.dtype) == kNoCls || (is_float(in.dtype) && is_small(in.out)) || !reg(in.a, i, in.dtype)) return false;
        break;
      default: return false;
    }
  }
  // Every load of an input reads it as one dtype (the cursors advance by it).
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (p.code[i].code == Code::load && p.code[j].code == Code::load && p.code[i].a == p.code[j].a &&
          p.code[i].dtype != p.code[j].dtype)
        return false;
  return true;
}

struct Gen {
  const Program& p;
  const LoopForm& form;
  std::vector<std::uint8_t> code;  // the function's instructions
  Bytes w{code};
  Gen(const Program& prog, const LoopForm& f) : p(prog), form(f) {}
  int R = 0, S = 0, nregs = 0;
  std::vector<std::uint8_t> local_types;  // after the parameter
  // locals
  unsigned l_rows = 0, l_n = 0, l_i = 0, l_tmp = 0;
  std::vector<unsigned> ptr, cur, stride, splat_s, splat_v, reg_s, reg_v;
  std::vector<DType> in_dtype;  // per input, DType::count when never loaded
  // SIMD
  bool simd = false;
  unsigned W = 4, L = 4;
  std::vector<std::uint8_t> kind;

  unsigned local(std::uint8_t t) {
    local_types.push_back(t);
    return static_cast<unsigned>(local_types.size());  // local 0 is desc
  }
  static std::uint8_t vtype(Cls c) { return c == kF32 ? kTF32 : c == kF64 ? kTF64 : kTI32; }
  unsigned slot_word(int s) const { return 3 + R + s * (2 + R); }
  void desc_load(unsigned word) { w.get(0); w.mem(kI32Load, 2, word * 4); }

  // ---- analysis ---------------------------------------------------------------------
  void plan_simd() {
    const int n = nregs;
    kind.assign(n, kLanes);
    for (int k = 0; k < p.inputs; ++k)
      if (form.inputs[k] == InnerForm::strided && in_dtype[k] != DType::count) return;
    std::vector<std::uint8_t> truth_use(n, 0), value_use(n, 0);
    unsigned width = 0;
    for (int i = 0; i < n; ++i) {
      const Instr& in = p.code[i];
      Kind k = kLanes;
      switch (in.code) {
        case Code::load:
          if (lane_dtype(in.dtype)) k = kLanes;
          else if (in.dtype == DType::u8 || in.dtype == DType::i8) k = kTruth;
          else return;
          break;
        case Code::constant:
          if (lane_dtype(in.out)) k = kLanes;
          else if (in.out == DType::u8 && (in.bits == 0 || in.bits == 1)) k = kMask;
          else return;
          break;
        case Code::binary: {
          const Op op = static_cast<Op>(in.op);
          if (logical(op)) {
            truth_use[in.a] = truth_use[in.b] = 1;
            k = kMask;
            break;
          }
          if (!lane_dtype(in.dtype)) return;
          value_use[in.a] = value_use[in.b] = 1;
          k = comparison(op) ? kMask : kLanes;
          break;
        }
        case Code::unary: {
          const UnaryOp u = static_cast<UnaryOp>(in.op);
          if (u == UnaryOp::logical_not) {
            truth_use[in.a] = 1;
            k = kMask;
            break;
          }
          if (!lane_dtype(in.dtype)) return;
          value_use[in.a] = 1;
          k = bool_unary(u) ? kMask : kLanes;
          break;
        }
        case Code::select:
          if (!lane_dtype(in.dtype)) return;
          truth_use[in.a] = 1;
          value_use[in.b] = value_use[in.c] = 1;
          break;
        case Code::cast:
          value_use[in.a] = 1;
          if (in.dtype == in.out) k = static_cast<Kind>(kind[in.a]);
          else if (!lane_dtype(in.out) || !(lane_dtype(in.dtype) || kind[in.a] == kMask)) return;
          break;
      }
      kind[i] = k;
      if (k == kLanes) {
        const unsigned s = static_cast<unsigned>(dtype_size(in.out));
        if (width && width != s) return;  // one lane width per body
        width = s;
      }
    }
    for (int i = 0; i < n; ++i)
      if (kind[i] == kTruth && (value_use[i] || i == n - 1)) return;
    (void)truth_use;
    W = width ? width : 4;
    L = 16 / W;
    simd = true;
  }

  // ---- scalar code ------------------------------------------------------------------
  void normalize(DType d) {  // an i32 result back to its dtype's extension
    switch (d) {
      case DType::i8: w.op(kI32Extend8S); break;
      case DType::i16: w.op(kI32Extend16S); break;
      case DType::u8: w.i32(0xFF); w.op(kI32And); break;
      case DType::u16: w.i32(0xFFFF); w.op(kI32And); break;
      default: break;
    }
  }
  void fzero(Cls c) {
    if (c == kF32) { const float z = 0; w.op(kF32Const); w.raw(&z, 4); }
    else { const double z = 0; w.op(kF64Const); w.raw(&z, 8); }
  }
  void fconst(Cls c, double v) {
    if (c == kF32) { const float f = static_cast<float>(v); w.op(kF32Const); w.raw(&f, 4); }
    else { w.op(kF64Const); w.raw(&v, 8); }
  }
  // Pushes 0/1: register r != 0 (NaN is true).
  void truth(int r) {
    const DType d = p.code[r].out;
    w.get(reg_s[r]);
    if (is_float(d)) { fzero(cls(d)); w.op(kF[cls(d) == kF64].ne); }
    else { w.i32(0); w.op(kI32Ne); }
  }
  void scalar_binary(const Instr& in) {
    const Op op = static_cast<Op>(in.op);
    const DType d = in.dtype;
    const Cls c = cls(d);
    if (logical(op)) {
      truth(in.a);
      truth(in.b);
      w.op(op == Op::logical_and ? kI32And : op == Op::logical_or ? 0x72 : kI32Xor);
      return;
    }
    const bool u = is_unsigned32(d);
    if (c != kI32) {
      const FloatOps& f = kF[c == kF64];
      w.get(reg_s[in.a]);
      w.get(reg_s[in.b]);
      switch (op) {
        case Op::add: w.op(f.add); break;
        case Op::sub: w.op(f.sub); break;
        case Op::mul: w.op(f.mul); break;
        case Op::div: w.op(f.div); break;
        case Op::minimum: w.op(f.min); break;
        case Op::maximum: w.op(f.max); break;
        case Op::equal: w.op(f.eq); break;
        case Op::not_equal: w.op(f.ne); break;
        case Op::less: w.op(f.lt); break;
        case Op::less_equal: w.op(f.le); break;
        case Op::greater: w.op(f.gt); break;
        default: w.op(f.ge); break;
      }
      return;
    }
    if (op == Op::minimum || op == Op::maximum) {  // select(a, b, a < b) / (a > b)
      w.get(reg_s[in.a]);
      w.get(reg_s[in.b]);
      w.get(reg_s[in.a]);
      w.get(reg_s[in.b]);
      w.op(op == Op::minimum ? (u ? kI32LtU : kI32LtS) : (u ? kI32GtU : kI32GtS));
      w.op(kSelect);
      return;
    }
    w.get(reg_s[in.a]);
    w.get(reg_s[in.b]);
    switch (op) {
      case Op::add: w.op(kI32Add); normalize(d); break;
      case Op::sub: w.op(kI32Sub); normalize(d); break;
      case Op::mul: w.op(kI32Mul); normalize(d); break;
      case Op::bitwise_and: w.op(kI32And); break;
      case Op::bitwise_or: w.op(0x72); break;
      case Op::bitwise_xor: w.op(kI32Xor); break;
      case Op::equal: w.op(kI32Eq); break;
      case Op::not_equal: w.op(kI32Ne); break;
      case Op::less: w.op(u ? kI32LtU : kI32LtS); break;
      case Op::less_equal: w.op(u ? kI32LeU : kI32LeS); break;
      case Op::greater: w.op(u ? kI32GtU : kI32GtS); break;
      default: w.op(u ? kI32GeU : kI32GeS); break;
    }
  }
  void scalar_unary(const Instr& in) {
    const UnaryOp u = static_cast<UnaryOp>(in.op);
    const DType d = in.dtype;
    const Cls c = cls(d);
    const unsigned x = reg_s[in.a];
    if (u == UnaryOp::logical_not) {
      w.get(x);
      if (c == kI32) w.op(kI32Eqz);
      else { fzero(c); w.op(kF[c == kF64].eq); }
      return;
    }
    if (c != kI32) {
      const FloatOps& f = kF[c == kF64];
      switch (u) {
        case UnaryOp::sign:  // x > 0 ? 1 : x < 0 ? -1 : x == 0 ? +0 : x  (+0 for -0, as the kernel; NaN kept)
          fconst(c, 1);
          fconst(c, -1);
          fzero(c); w.get(x); w.get(x); fzero(c); w.op(f.eq); w.op(kSelect);
          w.get(x); fzero(c); w.op(f.lt);
          w.op(kSelect);
          w.get(x); fzero(c); w.op(f.gt);
          w.op(kSelect);
          return;
        case UnaryOp::is_nan: w.get(x); w.get(x); w.op(f.ne); return;
        case UnaryOp::is_finite: w.get(x); w.op(f.abs); fconst(c, __builtin_inf()); w.op(f.lt); return;
        default: break;
      }
      w.get(x);
      switch (u) {
        case UnaryOp::neg: w.op(f.neg); break;
        case UnaryOp::abs: w.op(f.abs); break;
        case UnaryOp::sqrt: w.op(f.sqrt); break;
        case UnaryOp::floor: w.op(f.floor); break;
        case UnaryOp::ceil: w.op(f.ceil); break;
        case UnaryOp::round: w.op(f.nearest); break;
        default: w.op(f.trunc); break;
      }
      return;
    }
    const bool sgn = d == DType::i8 || d == DType::i16 || d == DType::i32;
    switch (u) {
      case UnaryOp::neg: w.i32(0); w.get(x); w.op(kI32Sub); normalize(d); return;
      case UnaryOp::abs:
        if (sgn) {  // select(-x, x, x < 0), wrapped: abs(INT_MIN) is INT_MIN
          w.i32(0); w.get(x); w.op(kI32Sub);
          w.get(x);
          w.get(x); w.i32(0); w.op(kI32LtS);
          w.op(kSelect);
          normalize(d);
        } else {
          w.get(x);
        }
        return;
      case UnaryOp::sign:
        if (sgn) {
          w.get(x); w.i32(0); w.op(kI32GtS);
          w.get(x); w.i32(0); w.op(kI32LtS);
          w.op(kI32Sub);
        } else {
          w.get(x); w.i32(0); w.op(kI32Ne);
        }
        return;
      case UnaryOp::bitwise_not: w.get(x); w.i32(-1); w.op(kI32Xor); normalize(d); return;
      case UnaryOp::is_nan: w.i32(0); return;
      case UnaryOp::is_finite: w.i32(1); return;
      default: w.get(x); return;  // floor ceil round trunc: integers unchanged
    }
  }
  void scalar_cast(const Instr& in) {
    const DType f = in.dtype, t = in.out;
    const Cls cf = cls(f), ct = cls(t);
    w.get(reg_s[in.a]);
    if (f == t) return;
    if (ct == kI32) {
      if (cf == kI32) normalize(t);           // wraps, as a typed-array store
      else {                                   // trunc_sat: toward zero, NaN 0, saturating
        w.op(0xFC);
        w.uleb((cf == kF64 ? 2 : 0) + (t == DType::u32 ? 1 : 0));
      }
    } else if (ct == kF32) {
      w.op(cf == kF64 ? 0xB6 : f == DType::u32 ? 0xB3 : 0xB2);  // demote / convert (nearest)
    } else {
      w.op(cf == kF32 ? 0xBB : f == DType::u32 ? 0xB8 : 0xB7);  // promote / convert (exact)
    }
  }
  void scalar_load(DType d, unsigned addr) {
    w.get(addr);
    switch (d) {
      case DType::f32: w.mem(kF32Load, 2, 0); break;
      case DType::f64: w.mem(kF64Load, 3, 0); break;
      case DType::i8: w.mem(kI32Load8S, 0, 0); break;
      case DType::u8: w.mem(kI32Load8U, 0, 0); break;
      case DType::i16: w.mem(kI32Load16S, 1, 0); break;
      case DType::u16: w.mem(kI32Load16U, 1, 0); break;
      default: w.mem(kI32Load, 2, 0); break;
    }
  }
  void scalar_body() {
    for (int i = 0; i < nregs; ++i) {
      const Instr& in = p.code[i];
      switch (in.code) {
        case Code::constant: continue;  // set once, in the prologue
        case Code::load:
          if (form.inputs[in.a] == InnerForm::splat) w.get(splat_s[in.a]);
          else scalar_load(in.dtype, cur[1 + in.a]);
          break;
        case Code::binary: scalar_binary(in); break;
        case Code::unary: scalar_unary(in); break;
        case Code::select:
          w.get(reg_s[in.b]);
          w.get(reg_s[in.c]);
          if (cls(in.cond) == kI32) w.get(reg_s[in.a]);
          else truth(in.a);
          w.op(kSelect);
          break;
        case Code::cast: scalar_cast(in); break;
      }
      w.set(reg_s[i]);
    }
    const DType od = p.code[nregs - 1].out;
    w.get(cur[0]);
    w.get(reg_s[nregs - 1]);
    switch (od) {
      case DType::f32: w.mem(kF32Store, 2, 0); break;
      case DType::f64: w.mem(kF64Store, 3, 0); break;
      case DType::i8: case DType::u8: w.mem(kI32Store8, 0, 0); break;
      case DType::i16: case DType::u16: w.mem(kI32Store16, 1, 0); break;
      default: w.mem(kI32Store, 2, 0); break;
    }
    advance(0, static_cast<int>(dtype_size(od)));
    for (int k = 0; k < p.inputs; ++k) {
      if (in_dtype[k] == DType::count || form.inputs[k] == InnerForm::splat) continue;
      if (form.inputs[k] == InnerForm::strided) {
        w.get(cur[1 + k]); w.get(stride[k]); w.op(kI32Add); w.set(cur[1 + k]);
      } else {
        advance(1 + k, static_cast<int>(dtype_size(in_dtype[k])));
      }
    }
  }
  void advance(int s, int bytes) { w.get(cur[s]); w.i32(bytes); w.op(kI32Add); w.set(cur[s]); }

  // ---- SIMD code --------------------------------------------------------------------
  void vzero() { const std::uint64_t z = 0; w.vconst(&z, 8); }
  void vones() { const std::uint64_t z = ~std::uint64_t{0}; w.vconst(&z, 8); }
  // A lane-dtype register's "!= 0" mask.
  void vne_zero(DType d) {
    vzero();
    if (is_float(d)) w.simd(kF[d == DType::f64].vne);
    else w.simd(vI32Ne);
  }
  void vtruth(int r) {
    w.get(reg_v[r]);
    if (kind[r] == kLanes) vne_zero(p.code[r].out);
  }
  // A 16-byte shuffle of (v, zero): lane j of W bytes takes byte j, the rest zero.
  void spread_bytes() {
    vzero();
    w.simd(vShuffle);
    for (unsigned b = 0; b < 16; ++b) w.op(static_cast<std::uint8_t>(b % W == 0 ? b / W : 16));
  }
  void vec_const(int r) {  // the prologue's splat of a constant register
    const Instr& in = p.code[r];
    if (kind[r] == kMask) {
      if (in.bits) vones(); else vzero();
    } else if (in.out == DType::f32) {
      const float f = static_cast<float>(in.value);
      w.vconst(&f, 4);
    } else if (in.out == DType::f64) {
      w.vconst(&in.value, 8);
    } else {
      const std::uint32_t v = static_cast<std::uint32_t>(in.bits);
      w.vconst(&v, 4);
    }
    w.set(reg_v[r]);
  }
  void vec_binary(const Instr& in) {
    const Op op = static_cast<Op>(in.op);
    if (logical(op)) {
      vtruth(in.a);
      vtruth(in.b);
      w.simd(op == Op::logical_and ? vAnd : op == Op::logical_or ? vOr : vXor);
      return;
    }
    w.get(reg_v[in.a]);
    w.get(reg_v[in.b]);
    const DType d = in.dtype;
    if (is_float(d)) {
      const FloatOps& f = kF[d == DType::f64];
      const std::uint16_t o[] = {f.vadd, f.vsub, f.vmul, f.vdiv, 0, 0, f.vmin, f.vmax,
                                 f.veq, f.vne, f.vlt, f.vle, f.vgt, f.vge};
      w.simd(o[static_cast<int>(op)]);
      return;
    }
    const bool u = is_unsigned32(d);
    switch (op) {
      case Op::add: w.simd(vI32Add); break;
      case Op::sub: w.simd(vI32Sub); break;
      case Op::mul: w.simd(vI32Mul); break;
      case Op::minimum: w.simd(u ? vI32MinU : vI32MinS); break;
      case Op::maximum: w.simd(u ? vI32MaxU : vI32MaxS); break;
      case Op::bitwise_and: w.simd(vAnd); break;
      case Op::bitwise_or: w.simd(vOr); break;
      case Op::bitwise_xor: w.simd(vXor); break;
      case Op::equal: w.simd(vI32Eq); break;
      case Op::not_equal: w.simd(vI32Ne); break;
      case Op::less: w.simd(u ? vI32LtU : vI32LtS); break;
      case Op::less_equal: w.simd(u ? vI32LeU : vI32LeS); break;
      case Op::greater: w.simd(u ? vI32GtU : vI32GtS); break;
      default: w.simd(u ? vI32GeU : vI32GeS); break;
    }
  }
  void lane_const(DType d, double v) {  // a splat of v in d's lanes
    if (d == DType::f32) { const float f = static_cast<float>(v); w.vconst(&f, 4); }
    else if (d == DType::f64) w.vconst(&v, 8);
    else { const std::int32_t i = static_cast<std::int32_t>(v); w.vconst(&i, 4); }
  }
  void vec_unary(const Instr& in) {
    const UnaryOp u = static_cast<UnaryOp>(in.op);
    const DType d = in.dtype;
    const unsigned x = reg_v[in.a];
    if (u == UnaryOp::logical_not) {
      vtruth(in.a);
      w.simd(vNot);
      return;
    }
    if (is_float(d)) {
      const FloatOps& f = kF[d == DType::f64];
      switch (u) {
        case UnaryOp::sign:  // bitselect(1, bitselect(-1, bitselect(+0, x, x == 0), x < 0), x > 0)
          lane_const(d, 1);
          lane_const(d, -1);
          vzero(); w.get(x); w.get(x); vzero(); w.simd(f.veq); w.simd(vBitselect);
          w.get(x); vzero(); w.simd(f.vlt);
          w.simd(vBitselect);
          w.get(x); vzero(); w.simd(f.vgt);
          w.simd(vBitselect);
          return;
        case UnaryOp::is_nan: w.get(x); w.get(x); w.simd(f.vne); return;
        case UnaryOp::is_finite: w.get(x); w.simd(f.vabs); lane_const(d, __builtin_inf()); w.simd(f.vlt); return;
        default: break;
      }
      w.get(x);
      switch (u) {
        case UnaryOp::neg: w.simd(f.vneg); break;
        case UnaryOp::abs: w.simd(f.vabs); break;
        case UnaryOp::sqrt: w.simd(f.vsqrt); break;
        case UnaryOp::floor: w.simd(f.vfloor); break;
        case UnaryOp::ceil: w.simd(f.vceil); break;
        case UnaryOp::round: w.simd(f.vnearest); break;
        default: w.simd(f.vtrunc); break;
      }
      return;
    }
    const bool sgn = d == DType::i32;
    switch (u) {
      case UnaryOp::neg: w.get(x); w.simd(vI32Neg); return;
      case UnaryOp::abs: w.get(x); if (sgn) w.simd(vI32Abs); return;
      case UnaryOp::sign:
        if (sgn) {  // (x > 0 & 1) | (x < 0): 1, -1 or 0
          w.get(x); vzero(); w.simd(vI32GtS); lane_const(d, 1); w.simd(vAnd);
          w.get(x); vzero(); w.simd(vI32LtS);
          w.simd(vOr);
        } else {
          w.get(x); vzero(); w.simd(vI32Ne); lane_const(d, 1); w.simd(vAnd);
        }
        return;
      case UnaryOp::bitwise_not: w.get(x); w.simd(vNot); return;
      case UnaryOp::is_nan: vzero(); return;
      case UnaryOp::is_finite: vones(); return;
      default: w.get(x); return;
    }
  }
  void vec_cast(const Instr& in, int r) {
    const DType f = in.dtype, t = in.out;
    if (f == t) { w.get(reg_v[in.a]); return; }
    if (kind[in.a] == kMask) {  // 0/1 as t's lanes
      lane_const(t, 1);
      vzero();
      w.get(reg_v[in.a]);
      w.simd(vBitselect);
      return;
    }
    (void)r;
    w.get(reg_v[in.a]);
    if (f == DType::f32) w.simd(t == DType::u32 ? vTruncSatU : vTruncSatS);
    else if (t == DType::f32) w.simd(f == DType::u32 ? vConvertU : vConvertS);
    // i32 <-> u32: the same bits
  }
  void vec_load(int r, int k) {
    const DType d = in_dtype[k];
    if (form.inputs[k] == InnerForm::splat) { w.get(splat_v[k]); return; }
    w.get(cur[1 + k]);
    if (kind[r] == kLanes) { w.vmem(vLoad, 0); return; }
    // a uint8/int8 condition: L bytes, spread to lanes, compared with 0
    if (W == 4) w.vmem(vLoad32Zero, 0);
    else w.vmem(vLoad16Splat, 0);
    (void)d;
    spread_bytes();
    vzero();
    w.simd(W == 4 ? vI32Ne : vI64Ne);
  }
  void vec_body() {
    for (int i = 0; i < nregs; ++i) {
      const Instr& in = p.code[i];
      switch (in.code) {
        case Code::constant: continue;
        case Code::load: vec_load(i, in.a); break;
        case Code::binary: vec_binary(in); break;
        case Code::unary: vec_unary(in); break;
        case Code::select:
          w.get(reg_v[in.b]);
          w.get(reg_v[in.c]);
          vtruth(in.a);
          w.simd(vBitselect);
          break;
        case Code::cast: vec_cast(in, i); break;
      }
      w.set(reg_v[i]);
    }
    const int last = nregs - 1;
    w.get(cur[0]);
    w.get(reg_v[last]);
    if (kind[last] == kLanes) {
      w.vmem(vStore, 0);
      advance(0, 16);
    } else {  // a mask: one byte 0/1 per lane
      w.get(reg_v[last]);
      w.simd(vShuffle);
      for (unsigned b = 0; b < 16; ++b) w.op(static_cast<std::uint8_t>(b < L ? b * W : 0));
      const std::uint8_t one = 1;
      w.vconst(&one, 1);
      w.simd(vAnd);
      w.simd(W == 4 ? vStore32Lane : vStore16Lane);
      w.uleb(0);
      w.uleb(0);
      w.op(0);  // lane 0
      advance(0, static_cast<int>(L));
    }
    for (int k = 0; k < p.inputs; ++k) {
      if (in_dtype[k] == DType::count || form.inputs[k] == InnerForm::splat) continue;
      advance(1 + k, lane_dtype(in_dtype[k]) ? 16 : static_cast<int>(L));
    }
  }

  // ---- the function ---------------------------------------------------------------
  void body() {
    // prologue
    desc_load(2); w.op(kTee); w.uleb(l_rows); w.op(kI32Eqz); w.op(kIf); w.op(kVoid); w.op(kReturn); w.op(kEnd);
    desc_load(1); w.set(l_n);
    for (int s = 0; s < S; ++s) {
      if (s > 0 && in_dtype[s - 1] == DType::count) continue;
      desc_load(slot_word(s)); w.set(ptr[s]);
      if (s > 0 && form.inputs[s - 1] == InnerForm::strided) { desc_load(slot_word(s) + 1); w.set(stride[s - 1]); }
    }
    for (int i = 0; i < nregs; ++i) {
      const Instr& in = p.code[i];
      if (in.code != Code::constant) continue;
      const Cls c = cls(in.out);
      if (c == kI32) {
        std::int32_t v = static_cast<std::int32_t>(static_cast<std::uint32_t>(in.bits));
        switch (in.out) {
          case DType::i8: v = static_cast<std::int8_t>(v); break;
          case DType::u8: v &= 0xFF; break;
          case DType::i16: v = static_cast<std::int16_t>(v); break;
          case DType::u16: v &= 0xFFFF; break;
          default: break;
        }
        w.i32(v);
      } else {
        fconst(c, in.value);
      }
      w.set(reg_s[i]);
      if (simd) vec_const(i);
    }
    w.op(kBlock); w.op(kVoid);  // exit
    w.op(kLoop); w.op(kVoid);   // rows
    for (int s = 0; s < S; ++s) {
      if (s > 0 && in_dtype[s - 1] == DType::count) continue;
      if (s > 0 && form.inputs[s - 1] == InnerForm::splat) {
        const int k = s - 1;
        scalar_load(in_dtype[k], ptr[s]);
        w.set(splat_s[k]);
        if (simd) {
          w.get(splat_s[k]);
          const DType d = in_dtype[k];
          if (lane_dtype(d)) {
            w.simd(is_float(d) ? kF[d == DType::f64].vsplat : std::uint16_t{vI32Splat});
          } else {  // a condition's mask: all ones when != 0 (for either lane width)
            w.op(kI32Eqz); w.i32(1); w.op(kI32Sub);   // (x == 0) - 1: 0 or -1
            w.simd(vI32Splat);
          }
          w.set(splat_v[k]);
        }
        continue;
      }
      w.get(ptr[s]); w.set(cur[s]);
    }
    w.get(l_n); w.set(l_i);
    if (simd) {
      w.op(kBlock); w.op(kVoid); w.op(kLoop); w.op(kVoid);
      w.get(l_i); w.i32(static_cast<std::int32_t>(L)); w.op(kI32LtU); w.op(kBrIf); w.uleb(1);
      vec_body();
      w.get(l_i); w.i32(static_cast<std::int32_t>(L)); w.op(kI32Sub); w.set(l_i);
      w.op(kBr); w.uleb(0);
      w.op(kEnd); w.op(kEnd);
    }
    w.op(kBlock); w.op(kVoid); w.op(kLoop); w.op(kVoid);
    w.get(l_i); w.op(kI32Eqz); w.op(kBrIf); w.uleb(1);
    scalar_body();
    w.get(l_i); w.i32(1); w.op(kI32Sub); w.set(l_i);
    w.op(kBr); w.uleb(0);
    w.op(kEnd); w.op(kEnd);
    // next row
    w.get(l_rows); w.i32(1); w.op(kI32Sub); w.op(kTee); w.uleb(l_rows); w.op(kI32Eqz); w.op(kBrIf); w.uleb(1);
    if (R > 0) {
      const unsigned scratch = 3 + R + S * (2 + R);
      w.op(kBlock); w.op(kVoid);
      for (int j = 0; j < R; ++j) {
        // tmp = counter j + 1; below counts[j]: store it, step every pointer, done
        desc_load(scratch + j); w.i32(1); w.op(kI32Add); w.op(kTee); w.uleb(l_tmp);
        desc_load(3 + j); w.op(kI32LtU);
        w.op(kIf); w.op(kVoid);
        w.get(0); w.get(l_tmp); w.mem(kI32Store, 2, (scratch + j) * 4);
        for (int s = 0; s < S; ++s) {
          if (s > 0 && in_dtype[s - 1] == DType::count) continue;
          w.get(ptr[s]); desc_load(slot_word(s) + 2 + j); w.op(kI32Add); w.set(ptr[s]);
        }
        w.op(kBr); w.uleb(1);
        w.op(kEnd);
        // counter j = 0; every pointer back by stride * (counts[j] - 1)
        w.get(0); w.i32(0); w.mem(kI32Store, 2, (scratch + j) * 4);
        for (int s = 0; s < S; ++s) {
          if (s > 0 && in_dtype[s - 1] == DType::count) continue;
          w.get(ptr[s]);
          desc_load(slot_word(s) + 2 + j);
          desc_load(3 + j); w.i32(1); w.op(kI32Sub);
          w.op(kI32Mul); w.op(kI32Sub); w.set(ptr[s]);
        }
      }
      w.op(kEnd);
    }
    w.op(kBr); w.uleb(0);
    w.op(kEnd);  // rows
    w.op(kEnd);  // exit
    w.op(kEnd);  // function
  }

  void run(std::vector<std::uint8_t>& out) {
    R = form.rank;
    S = p.inputs + 1;
    nregs = static_cast<int>(p.code.size());
    in_dtype.assign(p.inputs, DType::count);
    for (const Instr& in : p.code)
      if (in.code == Code::load) in_dtype[in.a] = in.dtype;
    plan_simd();
    // locals
    l_rows = local(kTI32); l_n = local(kTI32); l_i = local(kTI32); l_tmp = local(kTI32);
    ptr.assign(S, 0); cur.assign(S, 0);
    stride.assign(p.inputs, 0); splat_s.assign(p.inputs, 0); splat_v.assign(p.inputs, 0);
    for (int s = 0; s < S; ++s) { ptr[s] = local(kTI32); cur[s] = local(kTI32); }
    for (int k = 0; k < p.inputs; ++k) {
      if (in_dtype[k] == DType::count) continue;
      if (form.inputs[k] == InnerForm::strided) stride[k] = local(kTI32);
      if (form.inputs[k] == InnerForm::splat) {
        splat_s[k] = local(vtype(cls(in_dtype[k])));
        if (simd) splat_v[k] = local(kTV128);
      }
    }
    reg_s.assign(nregs, 0); reg_v.assign(nregs, 0);
    for (int i = 0; i < nregs; ++i) {
      reg_s[i] = local(vtype(cls(p.code[i].out)));
      if (simd) reg_v[i] = local(kTV128);
    }
    body();
    // the function body: its locals, then the code
    std::vector<std::uint8_t> fn;
    Bytes f{fn};
    unsigned groups = 0;
    for (std::size_t i = 0; i < local_types.size(); ++i)
      if (i == 0 || local_types[i] != local_types[i - 1]) ++groups;
    f.uleb(groups);
    for (std::size_t i = 0; i < local_types.size();) {
      std::size_t j = i;
      while (j < local_types.size() && local_types[j] == local_types[i]) ++j;
      f.uleb(static_cast<std::uint32_t>(j - i));
      f.op(local_types[i]);
      i = j;
    }
    fn.insert(fn.end(), code.begin(), code.end());
    // the module
    Bytes m{out};
    static const std::uint8_t head[] = {
        0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00,                  // magic, version 1
        0x01, 0x05, 0x01, 0x60, 0x01, 0x7F, 0x00,                        // type: (i32) -> ()
        0x02, 0x0F, 0x01, 0x03, 'e', 'n', 'v', 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00, 0x00,  // import env.memory {min 0}
        0x03, 0x02, 0x01, 0x00,                                          // function 0: type 0
        0x07, 0x07, 0x01, 0x03, 'r', 'u', 'n', 0x00, 0x00,               // export "run" = function 0
    };
    m.raw(head, sizeof head);
    m.op(0x0A);  // code section
    std::vector<std::uint8_t> len;
    Bytes l{len};
    l.uleb(static_cast<std::uint32_t>(fn.size()));
    m.uleb(static_cast<std::uint32_t>(1 + len.size() + fn.size()));
    m.op(1);
    m.raw(len.data(), static_cast<unsigned>(len.size()));
    m.raw(fn.data(), static_cast<unsigned>(fn.size()));
  }
};

}  // namespace

bool can_generate(const Program& p) { return valid(p); }

bool generate(const Program& p, const LoopForm& form, std::vector<std::uint8_t>& out) {
  out.clear();
  if (!valid(p) || form.rank < 0 || form.rank >= kMaxOuterRank ||
      form.inputs.size() != static_cast<std::size_t>(p.inputs))
    return false;
  for (InnerForm f : form.inputs)
    if (f != InnerForm::contiguous && f != InnerForm::splat && f != InnerForm::strided) return false;
  Gen g(p, form);
  g.run(out);
  return true;
}

}  // namespace tc::expr

// The code generator (wasmgen.hpp): one wasm module per (program, loop form),
// written byte by byte. Layout of the one function "run"(desc):
//
//   prologue   rows, n, the slots' row pointers, the strided inputs' inner
//              strides and the constants (scalar and splatted) into locals
//   row loop   splat inputs read once (and splatted); cursors = row pointers;
//              when the program and the form allow SIMD: the body for U
//              vectors per step (U = 4, 2 for long programs; loads and stores
//              at memarg offsets, the cursors moved once per step) while >= U
//              vectors remain, then one vector per step while >= one remains;
//              then the scalar tail, one element at a time
//   carry      the odometer: counter j + 1 below counts[j] moves every row
//              pointer by its outer stride j; otherwise counter j = 0, the
//              pointers rewind by stride * (counts[j] - 1) and j + 1 carries
//
// Register values: floats in f32/f64 locals; every integer dtype of 1-4 bytes
// (uint8clamped too) in an i32 local, sign- or zero-extended as its dtype reads (so comparisons
// and min/max are plain i32 ones; + - * neg abs ~ re-extend their result).
// In the SIMD body a register is a v128 of the computation's lane width W (4
// or 8 bytes): numbers as lanes, boolean (uint8) values as lane masks, narrowed
// to bytes only at the store.
//
// Emitted: float32/float64 + - * / minimum maximum, comparisons, logical ops,
// neg abs sign sqrt floor ceil round trunc logicalNot isNaN isFinite; int8 ..
// uint32 + - * (wrapping) minimum maximum, bitwise and logical ops,
// comparisons, neg abs sign bitwiseNot logicalNot (floor ceil round trunc are
// the value); uint8clamped likewise, + - * neg clamped to [0, 255] (a
// Uint8ClampedArray store), bitwiseNot 255 - x; select; constants; casts
// between those dtypes (float -> integer is trunc_sat: toward zero, NaN 0, out
// of range saturates to the type's min/max; float -> uint8clamped is nearest,
// ties even, NaN 0, clamped; integer -> uint8clamped clamps: unary_ops.hpp's
// cast); float32 exp, expm1, sigmoid, log and tanh, the kernels' own
// operations in their order (fast_f32.hpp), so their bits. Refused
// (can_generate false): rem pow mod floorDiv atan2 hypot, integer division
// (wasm traps on / 0), the other transcendentals (log1p sin cos tan) and
// float64 exp, expm1, sigmoid, log and tanh, 64-bit integers and float16.
// SIMD body: every input contiguous or splat, every number register of one
// lane width (float32/int32/uint32, or float64); int8/uint8/uint8clamped
// inputs as conditions (truthiness) or read only by casts to a lane dtype
// (kSmall: widened to i32 lanes), and casts of float32/float64/int32/uint32 to
// uint8/uint8clamped (int32/uint32 also to int8), stored or cast again
// (narrowed at the store). Otherwise the whole row runs scalar.
#include "wasmgen.hpp"

#include <iterator>

#include "core/shape.hpp"
#include "kernels/fast_f32.hpp"

namespace tc::expr {
namespace {

// ---- dtypes ---------------------------------------------------------------------------
enum Cls : std::uint8_t { kNoCls, kI32, kF32, kF64 };
Cls cls(DType d) {
  switch (d) {
    case DType::f32: return kF32;
    case DType::f64: return kF64;
    case DType::i8: case DType::u8: case DType::u8c: case DType::i16: case DType::u16: case DType::i32: case DType::u32:
      return kI32;
    default: return kNoCls;
  }
}
bool is_float(DType d) { return d == DType::f32 || d == DType::f64; }
bool is_small(DType d) { return d == DType::i8 || d == DType::u8 || d == DType::i16 || d == DType::u16; }
// A one-byte integer dtype (its SIMD registers: kSmall, below).
bool is_byte(DType d) { return d == DType::i8 || d == DType::u8 || d == DType::u8c; }
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
    case UnaryOp::exp: case UnaryOp::expm1: case UnaryOp::sigmoid: case UnaryOp::log: case UnaryOp::tanh:
      return d == DType::f32;  // fast_f32.hpp's, op for op (emit_exp, emit_expm1, emit_log, emit_tanh)
    // log1p stays on the interpreter: written out (both of its branches and the
    // special cases, one pass), log1p(exp(x)) ran 1.3x the interpreter's time
    // (Node and Chromium, 1M float32), though log1p(x * x) ran 0.84x.
    default: return false;  // the other transcendentals
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
// Binary ops by Op (add .. greaterEqual, the logical ones (not here), the
// bitwise ones), per row: f32, f64, i32 signed, i32 unsigned (0: not one instruction).
constexpr std::uint8_t kBin[4][20] = {
    {0x92, 0x93, 0x94, 0x95, 0, 0, 0x96, 0x97, 0x5B, 0x5C, 0x5D, 0x5F, 0x5E, 0x60},
    {0xA0, 0xA1, 0xA2, 0xA3, 0, 0, 0xA4, 0xA5, 0x61, 0x62, 0x63, 0x65, 0x64, 0x66},
    {0x6A, 0x6B, 0x6C, 0, 0, 0, 0, 0, 0x46, 0x47, 0x48, 0x4C, 0x4A, 0x4E, 0, 0, 0, 0x71, 0x72, 0x73},
    {0x6A, 0x6B, 0x6C, 0, 0, 0, 0, 0, 0x46, 0x47, 0x49, 0x4D, 0x4B, 0x4F, 0, 0, 0, 0x71, 0x72, 0x73},
};
// The same in SIMD128: f32x4, f64x2, i32x4 signed, i32x4 unsigned (after the 0xFD prefix).
constexpr std::uint16_t kVBin[4][20] = {
    {0xE4, 0xE5, 0xE6, 0xE7, 0, 0, 0xE8, 0xE9, 0x41, 0x42, 0x43, 0x45, 0x44, 0x46},
    {0xF0, 0xF1, 0xF2, 0xF3, 0, 0, 0xF4, 0xF5, 0x47, 0x48, 0x49, 0x4B, 0x4A, 0x4C},
    {0xAE, 0xB1, 0xB5, 0, 0, 0, 0xB6, 0xB8, 0x37, 0x38, 0x39, 0x3D, 0x3B, 0x3F, 0, 0, 0, 0x4E, 0x50, 0x51},
    {0xAE, 0xB1, 0xB5, 0, 0, 0, 0xB7, 0xB9, 0x37, 0x38, 0x3A, 0x3E, 0x3C, 0x40, 0, 0, 0, 0x4E, 0x50, 0x51},
};
// Float unary ops of one instruction by UnaryOp (neg abs . sqrt . . . . . . . . floor ceil round trunc).
constexpr std::uint8_t kUn[2][16] = {
    {0x8C, 0x8B, 0, 0x91, 0, 0, 0, 0, 0, 0, 0, 0, 0x8E, 0x8D, 0x90, 0x8F},
    {0x9A, 0x99, 0, 0x9F, 0, 0, 0, 0, 0, 0, 0, 0, 0x9C, 0x9B, 0x9E, 0x9D},
};
constexpr std::uint16_t kVUn[2][16] = {
    {0xE1, 0xE0, 0, 0xE3, 0, 0, 0, 0, 0, 0, 0, 0, 0x68, 0x67, 0x6A, 0x69},
    {0xED, 0xEC, 0, 0xEF, 0, 0, 0, 0, 0, 0, 0, 0, 0x75, 0x74, 0x94, 0x7A},
};
// The row of kBin / kVBin for a dtype.
int bin_row(DType d) { return d == DType::f32 ? 0 : d == DType::f64 ? 1 : d == DType::u32 ? 3 : 2; }
// SIMD opcodes used outside the tables.
enum : std::uint16_t {
  vLoad = 0x00, vLoad16Splat = 0x08, vStore = 0x0B, vConst = 0x0C, vShuffle = 0x0D, vI32Splat = 0x11,
  vI32Eq = 0x37, vI32Ne, vI32LtS, vI32LtU, vI32GtS, vI32GtU, vI32LeS, vI32LeU, vI32GeS, vI32GeU,
  vNot = 0x4D, vAnd = 0x4E, vOr = 0x50, vXor = 0x51, vBitselect = 0x52,
  vStore16Lane = 0x59, vStore32Lane = 0x5A, vLoad32Zero = 0x5C,
  vI32Abs = 0xA0, vI32Neg = 0xA1, vI32Add = 0xAE, vI32Sub = 0xB1, vI32Mul = 0xB5,
  vI32MinS = 0xB6, vI32MinU, vI32MaxS, vI32MaxU, vI64Ne = 0xD7,
  vTruncSatS = 0xF8, vTruncSatU, vConvertS, vConvertU,
  vLoad16Lane = 0x55, vI16ExtendLowU8 = 0x89, vI16ExtendLowS8 = 0x87, vI32ExtendLowU16 = 0xA9, vI32ExtendLowS16 = 0xA7,
  vF32PMin = 0xEA, vF32PMax = 0xEB, vF64PMin = 0xF6, vF64PMax = 0xF7, vI32TruncSatF64SZero = 0xFC,
  vF64ConvertLowI32S = 0xFE, vI32Shl = 0xAB, vI32ShrS = 0xAC, vI64Sub = 0xD1,
};

// exp_steps' constants: fast_f32.hpp's own, so the kernels' values (F(n): kf[n], I(n): ki[n]).
namespace m = f32m;
constexpr float kf[] = {m::kLog2e, m::kMagic, m::kLn2Hi, m::kLn2Lo, m::kExpQ[0], m::kExpQ[1], m::kExpQ[2], m::kExpQ[3],
                        m::kExpQ[4], m::kExpm1Tiny, 1.0f, m::kExpHi, m::kExpLo, 0.0f,  // q(r) from the highest power;
                        // expm1's tiny bound; 1; the clamps; 0
                        m::kLogP[0], m::kLogP[1], m::kLogP[2], m::kLogP[3], m::kLogP[4], m::kLogP[5], m::kLogP[6],
                        m::kLogP[7], m::kLogP[8],  // log's polynomial, from the highest power
                        0x1p-126f, 0x1p23f, 23.0f, -0.5f, -__builtin_inff(), __builtin_inff(), __builtin_nanf(""),
                        86.0f,  // exp_near's range (exp_near_lanes); then tanh's: its polynomial from the highest
                        m::kTanhP[0], m::kTanhP[1], m::kTanhP[2], m::kTanhP[3], m::kTanhP[4],  // power, |x| past which
                        m::kTanhCap, 2.0f, 24.5f, m::kTanhSmall, m::kTanhTiny,  // it is 1, 2, expm1's split, tanh's two;
                        m::kExpm1Lo};  // expm1's clamp
constexpr std::int32_t ki[] = {m::kMagicBits, 127, m::kLogCut, m::kExpMask,  // 1.5 2^23's bits; 2^k's bias; log's split;
                               static_cast<std::int32_t>(0x80000000u)};     // the sign bit
constexpr int kConsts = sizeof kf / sizeof kf[0] + sizeof ki / sizeof ki[0];
// F(n) names kf[n] for n < 32, FF(n) kf[31 + n] (kind 0, n from 1: the byte 0 ends a list).
static_assert(sizeof kf / sizeof kf[0] <= 63 && sizeof ki / sizeof ki[0] <= 32, "a step names a constant in 5 bits");

// exp_steps' raw bytes (R(n)): i32x4.all_true, if (result v128), else, end.
constexpr std::uint8_t kRaw[] = {0xFD, 0xA3, 0x01, kIf, kTV128, 0x05, kEnd};

// ---- the byte writer ------------------------------------------------------------------
// The emitters are called from hundreds of places: calls, not copies (the
// generator ships in the engine's wasm, which has a size budget).
#define NOINLINE __attribute__((noinline))

constexpr int kMaxOuterRank = kMaxRank;  // R is at most kMaxRank - 1 (wasmgen.hpp)
constexpr int kUnrollFourMax = 24;       // programs of up to this many instructions unroll by 4, longer ones by 2

struct Bytes {
  PodVector<std::uint8_t>& b;
  NOINLINE void op(std::uint8_t x) { b.push_back(x); }
  NOINLINE void uleb(std::uint32_t v) {
    do {
      std::uint8_t c = v & 0x7F;
      v >>= 7;
      b.push_back(v ? c | 0x80 : c);
    } while (v);
  }
  NOINLINE void sleb(std::int32_t v) {
    for (;;) {
      std::uint8_t c = v & 0x7F;
      v >>= 7;  // arithmetic
      if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) { b.push_back(c); return; }
      b.push_back(c | 0x80);
    }
  }
  NOINLINE void raw(const void* p, unsigned n) {
    const auto* c = static_cast<const std::uint8_t*>(p);
    for (unsigned i = 0; i < n; ++i) op(c[i]);  // (vector::insert costs more code than it saves)
  }
  NOINLINE void name(const char* s) {
    unsigned n = 0;
    while (s[n]) ++n;
    uleb(n);
    raw(s, n);
  }
  // A fixed byte sequence where each 0xFE byte stands for the next argument,
  // written as a LEB128 (local indices, memarg offsets, small constants < 64).
  NOINLINE void seqn(const char* s, unsigned n, unsigned a, unsigned b2, unsigned c, unsigned d, unsigned e) {
    const unsigned args[5] = {a, b2, c, d, e};
    unsigned k = 0;
    for (unsigned i = 0; i < n; ++i) {
      const std::uint8_t x = static_cast<std::uint8_t>(s[i]);
      if (x == 0xFE) uleb(args[k++]);
      else op(x);
    }
  }
  template <unsigned N>
  void seq(const char (&s)[N], unsigned a = 0, unsigned b2 = 0, unsigned c = 0, unsigned d = 0, unsigned e = 0) {
    seqn(s, N - 1, a, b2, c, d, e);
  }
  NOINLINE void simd(std::uint16_t x) { op(0xFD); uleb(x); }
  NOINLINE void mem(std::uint8_t o, unsigned align, std::uint32_t offset) { op(o); uleb(align); uleb(offset); }
  NOINLINE void vmem(std::uint16_t o, std::uint32_t offset) { simd(o); uleb(0); uleb(offset); }
  NOINLINE void get(unsigned l) { op(kGet); uleb(l); }
  NOINLINE void set(unsigned l) { op(kSet); uleb(l); }
  NOINLINE void i32(std::int32_t v) { op(kI32Const); sleb(v); }
  NOINLINE void vconst(const void* lane, unsigned size) {  // a v128 of one repeated lane
    simd(vConst);
    for (unsigned i = 0; i < 16; i += size) raw(lane, size);
  }
};

// The register kinds of the SIMD body.
enum Kind : std::uint8_t {
  kLanes,  // a number per lane (lane_dtype)
  kMask,   // a boolean value (0/1) as a lane mask
  kTruth,  // a uint8/int8 input read only for its truthiness (!= 0), as a lane mask
  kSmall,  // a one-byte integer (int8/uint8/uint8clamped) as i32 lanes, the first L of them
           // (an input read only by casts to a lane dtype, or a cast's result that is stored
           // or cast again)
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
        if (cls(in.dtype) == kNoCls || !reg(in.a, i, in.dtype)) return false;
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
  PodVector<std::uint8_t> code;  // the function's instructions
  Bytes w{code};
  Gen(const Program& prog, const LoopForm& f) : p(prog), form(f) {}
  int R = 0, S = 0, nregs = 0;
  PodVector<std::uint8_t> local_types;  // after the parameter
  // locals
  unsigned l_rows = 0, l_n = 0, l_i = 0, l_tmp = 0, l_v = 0;
  unsigned l_kf[kConsts] = {};  // exp_steps' constants (kf, then ki), splat in the prologue (SIMD)
  bool consts = false;      // the body has exp, log or sigmoid
  unsigned l_exp[2][9] = {};  // exp's and log's locals (scalar, SIMD; emit_exp), its temporaries made at their first use
  PodVector<unsigned> ptr, cur, stride, splat_s, splat_v, reg_s, reg_v;
  PodVector<DType> in_dtype;  // per input, DType::count when never loaded
  // SIMD
  bool simd = false;
  unsigned W = 4, L = 4;
  unsigned U = 1;  // vectors per step of the unrolled SIMD loop (1: no such loop)
  PodVector<std::uint8_t> kind;

  unsigned local(std::uint8_t t) {
    local_types.push_back(t);
    return static_cast<unsigned>(local_types.size());  // local 0 is desc
  }
  static std::uint8_t vtype(Cls c) { return c == kF32 ? kTF32 : c == kF64 ? kTF64 : kTI32; }
  unsigned slot_word(int s) const { return 3 + R + s * (2 + R); }

  // ---- analysis ---------------------------------------------------------------------
  void plan_simd() {
    const int n = nregs;
    kind.assign(n, kLanes);
    for (int k = 0; k < p.inputs; ++k)
      if (form.inputs[k] == InnerForm::strided && in_dtype[k] != DType::count) return;
    PodVector<std::uint8_t> truth_use(n, 0), value_use(n, 0), other_use(n, 0);  // other: not by a cast
    for (int i = 0; i < n; ++i) {
      const Instr& in = p.code[i];
      switch (in.code) {
        case Code::binary: other_use[in.a] = other_use[in.b] = 1; break;
        case Code::unary: other_use[in.a] = 1; break;
        case Code::select: other_use[in.a] = other_use[in.b] = other_use[in.c] = 1; break;
        default: break;
      }
    }
    unsigned width = 0;
    for (int i = 0; i < n; ++i) {
      const Instr& in = p.code[i];
      Kind k = kLanes;
      switch (in.code) {
        case Code::load:
          if (lane_dtype(in.dtype)) k = kLanes;
          else if (is_byte(in.dtype) && !other_use[i] && i != n - 1) k = kSmall;
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
          static_assert(static_cast<int>(UnaryOp::exp) == 4 && static_cast<int>(UnaryOp::expm1) == 5 &&
                        static_cast<int>(UnaryOp::log) == 6 && static_cast<int>(UnaryOp::tanh) == 11 &&
                        static_cast<int>(UnaryOp::sigmoid) == 20, "the mask below");
          consts |= (0x100870u >> in.op) & 1;  // exp, expm1, log, tanh or sigmoid (float32 only here): exp_steps' constants
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
          else if (kind[in.a] == kSmall) {  // widened: to float32, float64, int32, uint32
            if (!lane_dtype(in.out)) return;
          } else if (is_byte(in.out) && lane_dtype(in.dtype)) {  // narrowed: stored (or cast again)
            if (is_float(in.dtype) && in.out == DType::i8) return;
            k = kSmall;
          } else if (!lane_dtype(in.out) || !(lane_dtype(in.dtype) || kind[in.a] == kMask)) return;
          break;
      }
      kind[i] = k;
      if (k == kLanes) {
        const unsigned s = static_cast<unsigned>(dtype_size(in.out));
        if (width && width != s) return;  // one lane width per body
        width = s;
      }
    }
    for (int i = 0; i < n; ++i) {
      if (kind[i] == kTruth && (value_use[i] || i == n - 1)) return;
      if (kind[i] == kSmall && other_use[i]) return;
    }
    // Every load of an input has one kind (the row's splat of it is one vector).
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j)
        if (p.code[i].code == Code::load && p.code[j].code == Code::load && p.code[i].a == p.code[j].a &&
            (kind[i] == kSmall) != (kind[j] == kSmall))
          return;
    (void)truth_use;
    W = width ? width : 4;
    L = 16 / W;
    simd = true;
    // Four vectors per step (as em++ -O3 unrolls the hand-written loop);
    // two for long programs, whose bodies are long enough on their own.
    U = n <= kUnrollFourMax ? 4 : 2;
  }

  // ---- scalar code ------------------------------------------------------------------
  void normalize(DType d) {  // an i32 result back to its dtype's extension
    switch (d) {
      case DType::i8: w.op(kI32Extend8S); break;
      case DType::i16: w.op(kI32Extend16S); break;
      case DType::u8: w.i32(0xFF); w.op(kI32And); break;
      case DType::u16: w.i32(0xFFFF); w.op(kI32And); break;
      case DType::u8c: clamp_u8(); break;  // a Uint8ClampedArray store of the i32
      default: break;
    }
  }
  // The i32 on the stack clamped to [0, 255] (signed, or unsigned: only > 255).
  void clamp_u8(bool unsigned_ = false) {
    if (!unsigned_) { w.set(l_tmp); w.i32(0); w.get(l_tmp); w.get(l_tmp); w.i32(0); w.op(kI32LtS); w.op(kSelect); }
    w.set(l_tmp); w.i32(255); w.get(l_tmp); w.get(l_tmp); w.i32(255); w.op(unsigned_ ? kI32GtU : kI32GtS); w.op(kSelect);
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
    if (logical(op)) {
      truth(in.a);
      truth(in.b);
      w.op(op == Op::logical_and ? kI32And : op == Op::logical_or ? 0x72 : kI32Xor);
      return;
    }
    const bool u = is_unsigned32(d);
    w.get(reg_s[in.a]);
    w.get(reg_s[in.b]);
    if (cls(d) == kI32 && (op == Op::minimum || op == Op::maximum)) {  // select(a, b, a < b) / (a > b)
      w.get(reg_s[in.a]);
      w.get(reg_s[in.b]);
      w.op(op == Op::minimum ? (u ? kI32LtU : kI32LtS) : (u ? kI32GtU : kI32GtS));
      w.op(kSelect);
      return;
    }
    w.op(kBin[bin_row(d)][static_cast<int>(op)]);
    if (op <= Op::mul) normalize(d);  // 8/16-bit integers wrap
  }
  // ---- float32 exp, scalar (v false) or four lanes: fast_f32.hpp's exp<L>,
  // the same IEEE operations in the same order (no fused steps), so the exp
  // kernel's bits (its exp_near fast path gives these bits too). The steps
  // are bytes (emit_exp's lists), a kind in the top 3 bits and an argument:
  // exp's locals (0 x, 1 the clamped x, 2 t, 3 n, 4 r, 5 ni, 6 ni >> 1, 8 x < -104), its
  // float and int constants (kf, ki; SIMD: their locals, l_kf), a plain i32 (a
  // shift count), an operation.
  NOINLINE void exp_steps(bool v, const unsigned* l, const char* s) {
    // f32 add sub mul, i32 add sub shl shr_s, reinterpret f32 -> i32, i32 -> f32, pmin, pmax,
    // f32 lt, select (SIMD: none), abs, f32 div, select (SIMD: bitselect), f32 eq ne, or, and, f32 le (0: none)
    static const std::uint8_t ops[2][21] = {{0x92, 0x93, 0x94, 0x6A, 0x6B, 0x74, 0x75, 0xBC, 0xBE, 0, 0, 0x5D, kSelect, 0x8B, 0x95, kSelect, 0x5B, 0x5C, 0x72, kI32And, 0x5F},
                                            {0xE4, 0xE5, 0xE6, 0xAE, 0xB1, 0xAB, 0xAC, 0, 0, vF32PMin, vF32PMax, 0x43, 0, 0xE0, 0xE7, vBitselect, 0x41, 0x42, vOr, vAnd, 0x45}};
    for (; *s; ++s) {
      unsigned a = *s & 31;
      switch (static_cast<std::uint8_t>(*s) >> 5) {
        case 1: w.get(l[a]); break;
        case 2: w.set(l[a]); break;
        case 0: a += 31; [[fallthrough]];  // FF(n): kf[31 + n]
        case 3: if (v) w.get(l_kf[a]); else { w.op(kF32Const); w.raw(&kf[a], 4); } break;
        case 4: if (v) w.get(l_kf[std::size(kf) + a]); else w.i32(ki[a]); break;
        case 5: w.i32(static_cast<std::int32_t>(a)); break;
        case 7: w.op(kRaw[a]); break;
        default:
          if (!v) w.op(ops[0][a]);
          else if (ops[1][a]) w.simd(ops[1][a]);
      }
    }
  }
#define G(n) char(0x20 | (n))
#define S(n) char(0x40 | (n))
#define F(n) char(0x60 | (n))
#define I(n) char(0x80 | (n))
#define C(n) char(0xA0 | (n))
#define O(n) char(0xC0 | (n))
#define R(n) char(0xE0 | (n))
#define POW2 I(1), O(3), C(23), O(5), O(8)  // 2^k for k on the stack: the float whose bits are (k + 127) << 23
  unsigned* exp_locals(bool v) {
    unsigned* l = l_exp[v];
    if (l[1] == 0)
      for (int k = 1; k < 9; ++k) l[k] = k == 7 ? 0 : local(v ? kTV128 : k >= 5 ? kTI32 : kTF32);  // 7: sigmoid's x
    return l;
  }
  // Leaves exp(local x) on the stack. Four lanes: where all are within 86 of
  // 0, exp_near (the exp kernel's short path, the same bits: no clamp, n added
  // to y's exponent), else exp. The short path once cost one engine what it gained the
  // other (exp(x - 1) * 2 over 1M: 1.55 ms against 1.33 in Chromium, 1.15 against
  // 1.33 in Node) while each use wrote its constants again; with them in locals
  // (the prologue) it gains in both: 0.88x Node, 0.88x Chromium (both builds in
  // one process, medians of 9 interleaved rounds).
  // Scalar, x clamped to [lo, 89] (exp: -104; expm1: -30) into local 1: pmax(pmin(x, 89), lo),
  // pmin(a, c) = select(c, a, c < a) and pmax(a, c) = select(c, a, a < c) (exp: the same bits as
  // four lanes' +0 below -104).
#define CLAMP_S(lo) F(11), G(0), F(11), G(0), O(11), O(12), S(1), lo, G(1), G(1), lo, O(11), O(12), S(1)
  // Then t = x log2e + magic; n = t - magic; r = (x - n ln2hi) - n ln2lo; ni = bits(t) - bits(magic);
  // y = (r^2 q(r) + r) + 1, q by Horner from the highest coefficient; y 2^k1 2^(ni - k1),
  // k1 = ni >> 1 (arithmetic): each factor a normal float.
#define EXPB_EM G(1), F(0), O(2), F(1), O(0), S(2), G(2), F(1), O(1), S(3),                         \
            G(1), G(3), F(2), O(2), O(1), G(3), F(3), O(2), O(1), S(4),                         \
            G(2), O(7), I(0), O(4), S(5), F(4),                                                 \
            G(4), O(2), F(5), O(0), G(4), O(2), F(6), O(0), G(4), O(2), F(7), O(0),             \
            G(4), O(2), F(8), O(0), G(4), G(4), O(2), O(2), G(4), O(0)
  // (EXPB_EM leaves expm1(r) = r^2 q(r) + r, before the + 1: tanh's expm1 reads it.)
#define EXPB EXPB_EM, F(10), O(0)
#define EXP EXPB, G(5), C(1), O(6), S(6), G(6), POW2, O(2), G(5), G(6), O(4), POW2, O(2)
  NOINLINE void emit_exp(bool v, unsigned x) {
    unsigned* l = exp_locals(v);
    l[0] = x;
    // (else: below -104, +0 in place of a result computed from 0, as the kernel puts it: fast_f32.hpp exp)
    static const char vec[] = {G(0), O(13), F(30), O(20), R(0), R(1), R(2), R(3), R(4), G(0), S(1), EXPB, G(5), C(23), O(5), O(3), R(5),
                               G(0), F(12), O(11), S(8), F(13), G(0), F(11), O(9), G(8), O(15), S(1), F(13), EXP, G(8), O(15), R(6), 0};
    static const char one[] = {CLAMP_S(F(12)), EXP, 0};
    exp_steps(v, l, v ? vec : one);
  }
  // float32 sigmoid, fast_f32.hpp's: e = exp(0 - |x|); d = 1 + e; x < 0 ? e / d : 1 / d.
  // 0 - |x| goes in local 3 (exp reads its argument before it writes n there);
  // e and d in 1 and 2 (free once exp is done); local 7 is x.
  NOINLINE void emit_sigmoid(bool v, unsigned x) {
    unsigned* l = exp_locals(v);
    l[7] = x;
    static const char pre[] = {F(13), G(7), O(13), O(1), S(3), 0};
    static const char post[] = {S(1), F(10), G(1), O(0), S(2), G(1), G(2), O(14), F(10), G(2), O(14), G(7), F(13), O(11), O(15), 0};
    exp_steps(v, l, pre);
    emit_exp(v, l[3]);
    exp_steps(v, l, post);
  }
  // float32 tanh, fast_f32.hpp's op for op: small = (p(z) z) x + x (z = x^2) below
  // |x| 0.625; else t / (t + 2) with x's sign, t = expm1(y), y = min(|x|, 10) 2:
  // exp's reduction and polynomial (EXPB_EM, y in local 1) give expm1(r), then
  // expm1's 2^n expm1(r) + (2^n - 1), from n = 25 on (24.5 < n) (expm1(r) + 1)
  // 2^k1 2^(n - k1). Its clamps to [-30, 89] and its tiny case are left out:
  // y lies in [0, 20] or is NaN, where they change no bit, and where expm1's tiny
  // case would apply, tanh takes `small`. Below |x| 2^-13, x. |x| is abs(x) at
  // each use. Locals: 0 x, 4 z (then expm1(r)), 1 y (then 2^n, t), EXPB_EM's
  // 2, 3 (n) and 5 (n's bits), 6 k1.
#define FF(n) char(n)
#define TANH_HEAD G(0), G(0), O(2), S(4), G(0), \
                  F(31), G(4), O(2), FF(1), O(0), G(4), O(2), FF(2), O(0), G(4), O(2), FF(3), O(0), G(4), O(2), FF(4), O(0), \
                  G(4), O(2), G(0), O(2), G(0), O(0)
// expm1 from EXPB_EM's expm1(r) (local 4) and n (3, its bits 5): 2^n expm1(r) + (2^n - 1), or from
// n = 25 on (24.5 < n) (expm1(r) + 1) 2^k1 2^(n - k1), k1 = n >> 1 (local 6); 2^n in local 1.
#define EXPM1_R G(5), C(1), O(6), S(6), G(4), F(10), O(0), G(6), POW2, O(2), G(5), G(6), O(4), POW2, O(2), \
                G(5), POW2, S(1), G(1), G(4), O(2), G(1), F(10), O(1), O(0), FF(7), G(3), O(11), O(15)
#define TANH_TAIL FF(6), O(2), S(1), EXPB_EM, S(4), EXPM1_R,                                                      \
                  S(1), G(1), G(1), FF(6), O(0), O(14), O(7), G(0), O(7), I(4), O(19), O(18), O(8),                \
                  G(0), O(13), FF(8), O(11), O(15), G(0), O(13), FF(9), O(11), O(15)
  NOINLINE void emit_tanh(bool v, unsigned x) {
    unsigned* l = exp_locals(v);
    l[0] = x;
    // y = pmin(|x|, 10) * 2 (scalar: select(10, |x|, 10 < |x|))
    static const char vec[] = {TANH_HEAD, G(0), O(13), FF(5), O(9), TANH_TAIL, 0};
    static const char one[] = {TANH_HEAD, FF(5), G(0), O(13), FF(5), G(0), O(13), O(11), O(12), TANH_TAIL, 0};
    exp_steps(v, l, v ? vec : one);
  }
  // float32 expm1, fast_f32.hpp's op for op: x clamped to [-30, 89] (local 1),
  // exp's reduction and polynomial (EXPB_EM), then EXPM1_R; below |x| 2^-25, x
  // (pushed first, for the last select). Scalar: the clamps as selects (CLAMP_S).
  NOINLINE void emit_expm1(bool v, unsigned x) {
    unsigned* l = exp_locals(v);
    l[0] = x;
    static const char vec[] = {G(0), G(0), F(11), O(9), FF(10), O(10), S(1), EXPB_EM, S(4), EXPM1_R,
                               G(0), O(13), F(9), O(11), O(15), 0};
    static const char one[] = {G(0), CLAMP_S(FF(10)), EXPB_EM, S(4), EXPM1_R, G(0), O(13), F(9), O(11), O(15), 0};
    exp_steps(v, l, v ? vec : one);
  }
#undef TANH_HEAD
#undef TANH_TAIL
#undef EXPM1_R
#undef EXP
#undef EXPB
#undef EXPB_EM
#undef CLAMP_S
  // float32 log, fast_f32.hpp's log<L> op for op: log_finite (x scaled by 2^23
  // where subnormal; t = bits(x) - bits(sqrt(1/2)); m = x / 2^(t >> 23); e the
  // exponent as a float), log_core(m - 1, e), then the special cases. Four
  // lanes: where all are positive normal floats, log_normal (the kernel's short
  // path, the same bits: no scaling, no special case applies); without it the
  // generated log(x) ran 1.45x the log op (Node, 1M). Locals: 0 x, 1 the scaled
  // x, 2 e, 3 f = m - 1, 4 f^2 (then y, r), 5 subnormal (a mask), 6 t.
  NOINLINE void emit_log(bool v, unsigned x) {
    unsigned* l = exp_locals(v);
    l[0] = x;
#define SPLIT G(1), O(7), I(2), O(4), S(6), G(1), O(7), G(6), I(3), O(19), O(4), O(8), F(10), O(1), S(3), \
              G(6), C(23), O(6), I(0), O(3), O(8), F(1), O(1), S(2)
    // z = f^2; p by Horner; y = (p f) z + e ln2lo + z (-1/2); r = (f + y) + e ln2hi
#define CORE G(3), G(3), O(2), S(4), F(14), G(3), O(2), F(15), O(0), G(3), O(2), F(16), O(0), G(3), O(2), F(17), O(0), \
             G(3), O(2), F(18), O(0), G(3), O(2), F(19), O(0), G(3), O(2), F(20), O(0), G(3), O(2), F(21), O(0),     \
             G(3), O(2), F(22), O(0), G(3), O(2), G(4), O(2), G(2), F(3), O(2), O(0), G(4), F(26), O(2), O(0), S(4), \
             G(3), G(4), O(0), G(2), F(2), O(2), O(0), S(4)
    // x scaled where subnormal; log_finite's split; e - 23 where scaled; the core; then x == 0: -inf;
    // x == inf: x; x < 0 or NaN: NaN (left on the stack)
#define FULL G(0), F(23), O(11), S(5), G(0), F(24), O(2), G(0), G(5), O(15), S(1), SPLIT, \
             G(2), F(25), O(1), G(2), G(5), O(15), S(2), CORE,                             \
             F(27), G(4), G(0), F(13), O(16), O(15), S(4), G(0), G(4), G(0), F(28), O(16), O(15), S(4), \
             F(29), G(4), G(0), F(13), O(11), G(0), G(0), O(17), O(18), O(15)
    // Four lanes: if all_true(x >= 2^-126 & x < inf), log_normal (x as it is, no special case), else log
    static const char vec[] = {F(23), G(0), O(20), G(0), F(28), O(11), O(19), R(0), R(1), R(2), R(3), R(4),
                               G(0), S(1), SPLIT, CORE, G(4), R(5), FULL, R(6), 0};
    static const char one[] = {FULL, 0};
    exp_steps(v, l, v ? vec : one);
  }
#undef SPLIT
#undef CORE
#undef FULL
#undef FF
#undef G
#undef S
#undef F
#undef I
#undef C
#undef O
#undef R
#undef POW2
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
        case UnaryOp::sign:  // x > 0 ? 1 : x < 0 ? -1 : x + 0  (+0 for either zero, NaN for NaN)
          fconst(c, 1);
          fconst(c, -1);
          w.get(x); fzero(c); w.op(kBin[c == kF64][0]);
          w.get(x); fzero(c); w.op(f.lt);
          w.op(kSelect);
          w.get(x); fzero(c); w.op(f.gt);
          w.op(kSelect);
          return;
        case UnaryOp::is_nan: w.get(x); w.get(x); w.op(f.ne); return;
        case UnaryOp::is_finite: w.get(x); w.op(f.abs); fconst(c, __builtin_inf()); w.op(f.lt); return;
        case UnaryOp::exp: emit_exp(false, x); return;
        case UnaryOp::expm1: emit_expm1(false, x); return;
        case UnaryOp::sigmoid: emit_sigmoid(false, x); return;
        case UnaryOp::log: emit_log(false, x); return;
        case UnaryOp::tanh: emit_tanh(false, x); return;
        default: break;
      }
      w.get(x);
      w.op(kUn[c == kF64][static_cast<int>(u)]);  // neg abs sqrt floor ceil round (nearest) trunc
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
      case UnaryOp::bitwise_not:  // (uint8clamped: 255 - x)
        w.get(x); w.i32(d == DType::u8c ? 0xFF : -1); w.op(kI32Xor);
        if (d != DType::u8c) normalize(d);
        return;
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
      if (cf == kI32) {  // wraps, as a typed-array store; to uint8clamped: clamps
        if (t != DType::u8c) normalize(t);
        else if (f == DType::u32) clamp_u8(true);
        else if (f != DType::u8) normalize(t);
      } else if (t == DType::u8c) {  // nearest (ties even), then NaN and negatives 0, > 255 255
        w.op(kF[cf == kF64].nearest);
        w.op(0xFC);
        w.uleb(cf == kF64 ? 3 : 1);
        clamp_u8(true);
      } else {  // trunc_sat: toward zero, NaN 0, saturating (8/16 bits: then clamped to the type's range)
        const bool u = t == DType::u8 || t == DType::u16 || t == DType::u32;
        w.op(0xFC);
        w.uleb((cf == kF64 ? 2 : 0) + (u ? 1 : 0));
        if (is_small(t)) {
          const std::int32_t hi = t == DType::i8 ? 127 : t == DType::u8 ? 255 : t == DType::i16 ? 32767 : 65535;
          // tmp = v; select(hi, tmp, tmp > hi)
          w.set(l_tmp); w.i32(hi); w.get(l_tmp); w.get(l_tmp); w.i32(hi); w.op(u ? kI32GtU : kI32GtS); w.op(kSelect);
          if (!u) {  // then select(lo, tmp, tmp < lo)
            const std::int32_t lo = -hi - 1;
            w.set(l_tmp); w.i32(lo); w.get(l_tmp); w.get(l_tmp); w.i32(lo); w.op(kI32LtS); w.op(kSelect);
          }
        }
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
      case DType::u8: case DType::u8c: w.mem(kI32Load8U, 0, 0); break;
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
          if (form.inputs[in.a] == InnerForm::splat) continue;  // read once per row
          scalar_load(in.dtype, cur[1 + in.a]);
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
      case DType::i8: case DType::u8: case DType::u8c: w.mem(kI32Store8, 0, 0); break;
      case DType::i16: case DType::u16: w.mem(kI32Store16, 1, 0); break;
      default: w.mem(kI32Store, 2, 0); break;
    }
    advance(0, static_cast<unsigned>(dtype_size(od)));
    for (int k = 0; k < p.inputs; ++k) {
      if (in_dtype[k] == DType::count || form.inputs[k] == InnerForm::splat) continue;
      if (form.inputs[k] == InnerForm::strided) {
        w.get(cur[1 + k]); w.get(stride[k]); w.op(kI32Add); w.set(cur[1 + k]);
      } else {
        advance(1 + k, static_cast<unsigned>(dtype_size(in_dtype[k])));
      }
    }
  }
  void advance(int s, unsigned bytes) {  // (bytes may be 64 or more: an sleb128 constant)
    w.get(cur[s]);
    w.i32(static_cast<std::int32_t>(bytes));
    w.op(kI32Add);
    w.set(cur[s]);
  }

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
    w.simd(kVBin[bin_row(in.dtype)][static_cast<int>(op)]);
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
        case UnaryOp::sign:  // bitselect(1, bitselect(-1, x + 0, x < 0), x > 0)
          lane_const(d, 1);
          lane_const(d, -1);
          w.get(x); vzero(); w.simd(kVBin[d == DType::f64][0]);
          w.get(x); vzero(); w.simd(f.vlt);
          w.simd(vBitselect);
          w.get(x); vzero(); w.simd(f.vgt);
          w.simd(vBitselect);
          return;
        case UnaryOp::is_nan: w.get(x); w.get(x); w.simd(f.vne); return;
        case UnaryOp::is_finite: w.get(x); w.simd(f.vabs); lane_const(d, __builtin_inf()); w.simd(f.vlt); return;
        case UnaryOp::exp: emit_exp(true, x); return;
        case UnaryOp::expm1: emit_expm1(true, x); return;
        case UnaryOp::sigmoid: emit_sigmoid(true, x); return;
        case UnaryOp::log: emit_log(true, x); return;
        case UnaryOp::tanh: emit_tanh(true, x); return;
        default: break;
      }
      w.get(x);
      w.simd(kVUn[d == DType::f64][static_cast<int>(u)]);
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
    w.get(reg_v[in.a]);
    if (kind[in.a] == kSmall) {  // i32 lanes to t's (to int32 / uint32: the values as they are)
      if (t == DType::f32) w.simd(vConvertS);
      else if (t == DType::f64) w.simd(vF64ConvertLowI32S);
      return;
    }
    if (kind[r] == kSmall) {  // to a one-byte integer, as i32 lanes
      if (is_float(f)) {
        // y = pmin(pmax(0, x), 255): NaN, zeros and negatives 0, >= 255 255 (pmin/pmax are
        // one instruction each where min/max are long sequences), then round (uint8clamped:
        // nearest, ties even; uint8: toward zero)
        const bool d64 = f == DType::f64;
        w.set(l_v);
        lane_const(f, 0);
        w.get(l_v);
        w.simd(d64 ? vF64PMax : vF32PMax);
        lane_const(f, 255);
        w.simd(d64 ? vF64PMin : vF32PMin);
        if (d64) {
          w.simd(t == DType::u8c ? kF[1].vnearest : kF[1].vtrunc);
          w.simd(vI32TruncSatF64SZero);  // exact: an integer in [0, 255]
        } else {
          if (t == DType::u8) w.simd(kF[0].vtrunc);
          // + 1.5 * 2^23 rounds y to an integer (ties even) in the low mantissa bits
          const float magic = 12582912.0f;
          w.vconst(&magic, 4);
          w.simd(kF[0].vadd);
          const std::int32_t mbits = 0x4B400000;
          w.vconst(&mbits, 4);
          w.simd(vI32Sub);
        }
      } else if (t == DType::u8c) {  // int32: max(x, 0) then min(., 255); uint32: min(x, 255)
        if (f == DType::i32) { lane_const(DType::i32, 0); w.simd(vI32MaxS); }
        lane_const(DType::i32, 255);
        w.simd(f == DType::i32 ? vI32MinS : vI32MinU);
      } else if (t == DType::u8) {
        lane_const(DType::i32, 255);
        w.simd(vAnd);
      } else {  // int8: the low byte, sign-extended
        w.i32(24); w.simd(vI32Shl);
        w.i32(24); w.simd(vI32ShrS);
      }
      return;
    }
    if (f == DType::f32) w.simd(t == DType::u32 ? vTruncSatU : vTruncSatS);
    else if (t == DType::f32) w.simd(f == DType::u32 ? vConvertU : vConvertS);
    // i32 <-> u32: the same bits
  }
  // The bytes one vector of slot s covers (its cursor's step per vector).
  unsigned vstep(int s) const {
    if (s == 0) return kind[nregs - 1] == kLanes ? 16u : L;
    return lane_dtype(in_dtype[s - 1]) ? 16u : L;
  }
  void vec_load(int r, int k, unsigned u) {
    const unsigned off = u * vstep(1 + k);
    w.get(cur[1 + k]);
    if (kind[r] == kLanes) { w.vmem(vLoad, off); return; }
    if (kind[r] == kSmall) {  // L bytes, extended to i32 lanes
      const bool s = in_dtype[k] == DType::i8;
      w.vmem(W == 4 ? vLoad32Zero : vLoad16Splat, off);
      w.simd(s ? vI16ExtendLowS8 : vI16ExtendLowU8);
      w.simd(s ? vI32ExtendLowS16 : vI32ExtendLowU16);
      return;
    }
    // a uint8/int8 condition: L bytes, spread to lanes, compared with 0
    if (W == 4) w.vmem(vLoad32Zero, off);
    else w.vmem(vLoad16Splat, off);
    spread_bytes();
    vzero();
    w.simd(W == 4 ? vI32Ne : vI64Ne);
  }
  // Vector u (0 .. U-1) of one step: its loads and store at byte offset
  // u * vstep(slot) from the cursors (memarg offsets; the cursors move after
  // the last vector, by vec_advance).
  void vec_body(unsigned u) {
    for (int i = 0; i < nregs; ++i) {
      const Instr& in = p.code[i];
      switch (in.code) {
        case Code::constant: continue;
        case Code::load:
          if (form.inputs[in.a] == InnerForm::splat) continue;
          vec_load(i, in.a, u);
          break;
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
      w.vmem(vStore, u * 16);
    } else if (kind[last] == kSmall) {  // the low byte of each of the first L i32 lanes
      w.get(reg_v[last]);
      w.simd(vShuffle);
      for (unsigned b = 0; b < 16; ++b) w.op(static_cast<std::uint8_t>(b < L ? b * 4 : 0));
      w.simd(W == 4 ? vStore32Lane : vStore16Lane);
      w.uleb(0);
      w.uleb(u * L);
      w.op(0);  // lane 0
    } else {  // a mask: one byte 0/1 per lane
      w.get(reg_v[last]);
      w.simd(vShuffle);
      for (unsigned b = 0; b < 16; ++b) w.op(static_cast<std::uint8_t>(b < L ? b * W : 0));
      const std::uint8_t one = 1;
      w.vconst(&one, 1);
      w.simd(vAnd);
      w.simd(W == 4 ? vStore32Lane : vStore16Lane);
      w.uleb(0);
      w.uleb(u * L);
      w.op(0);  // lane 0
    }
  }
  // Every cursor past `vectors` vectors.
  void vec_advance(unsigned vectors) {
    advance(0, vectors * vstep(0));
    for (int k = 0; k < p.inputs; ++k) {
      if (in_dtype[k] == DType::count || form.inputs[k] == InnerForm::splat) continue;
      advance(1 + k, vectors * vstep(1 + k));
    }
  }

  // ---- the function ---------------------------------------------------------------
  // (local.set dst (i32.load offset=word*4 (local.get desc)))
  void desc_set(unsigned word, unsigned dst) { w.seq("\x20\x00\x28\x02\xFE\x21\xFE", word * 4, dst); }
  bool unused(int s) const { return s > 0 && in_dtype[s - 1] == DType::count; }
  bool small_in(int k) const {  // input k's loads are kSmall registers
    for (int i = 0; i < nregs; ++i)
      if (p.code[i].code == Code::load && p.code[i].a == k) return kind[i] == kSmall;
    return false;
  }
  void body() {
    // prologue: rows (none: return), n, the row pointers, the strides, the constants
    w.seq("\x20\x00\x28\x02\x08\x22\xFE\x45\x04\x40\x0F\x0B", l_rows);
    desc_set(1, l_n);
    for (int s = 0; s < S; ++s) {
      if (unused(s)) continue;
      desc_set(slot_word(s), ptr[s]);
      if (s > 0 && form.inputs[s - 1] == InnerForm::strided) desc_set(slot_word(s) + 1, stride[s - 1]);
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
    if (simd && consts)  // exp_steps' constants, splat once: V8 (Chromium 156) built each v128.const again at every use
      for (unsigned a = 0; a < kConsts; ++a) {
        l_kf[a] = local(kTV128);
        w.vconst(a < std::size(kf) ? static_cast<const void*>(&kf[a]) : &ki[a - std::size(kf)], 4);
        w.set(l_kf[a]);
      }
    w.seq("\x02\x40\x03\x40");  // block (exit) loop (rows)
    for (int s = 0; s < S; ++s) {
      if (unused(s)) continue;
      if (s > 0 && form.inputs[s - 1] == InnerForm::splat) {
        const int k = s - 1;
        scalar_load(in_dtype[k], ptr[s]);
        w.set(splat_s[k]);
        if (simd) {
          w.get(splat_s[k]);
          const DType d = in_dtype[k];
          if (lane_dtype(d)) w.simd(is_float(d) ? kF[d == DType::f64].vsplat : std::uint16_t{vI32Splat});
          else if (small_in(k)) w.simd(vI32Splat);  // the extended value in every lane
          else w.seq("\x45\x41\x01\x6B\xFD\x11");  // a condition: splat((x == 0) - 1), all ones when != 0
          w.set(splat_v[k]);
        }
        continue;
      }
      w.seq("\x20\xFE\x21\xFE", ptr[s], cur[s]);
    }
    w.seq("\x20\xFE\x21\xFE", l_n, l_i);
    // Rotated loops, one branch per step: if (i >= L) loop { body; br_if 0 ((i -= L) >= L) }
    // First U vectors per step (their loads and stores at fixed offsets from
    // the cursors, which move once per step), then one vector per step.
    if (simd) {
      if (U > 1) {
        w.seq("\x20\xFE\x41\xFE\x4F\x04\x40\x03\x40", l_i, U * L);
        for (unsigned u = 0; u < U; ++u) vec_body(u);
        vec_advance(U);
        w.seq("\x20\xFE\x41\xFE\x6B\x22\xFE\x41\xFE\x4F\x0D\x00\x0B\x0B", l_i, U * L, l_i, U * L);
      }
      w.seq("\x20\xFE\x41\xFE\x4F\x04\x40\x03\x40", l_i, L);
      vec_body(0);
      vec_advance(1);
      w.seq("\x20\xFE\x41\xFE\x6B\x22\xFE\x41\xFE\x4F\x0D\x00\x0B\x0B", l_i, L, l_i, L);
    }
    // the tail: if (i) loop { body; br_if 0 (i -= 1) }
    w.seq("\x20\xFE\x04\x40\x03\x40", l_i);
    scalar_body();
    w.seq("\x20\xFE\x41\x01\x6B\x22\xFE\x0D\x00\x0B\x0B", l_i, l_i);
    // next row: rows -= 1; none left: exit
    w.seq("\x20\xFE\x41\x01\x6B\x22\xFE\x45\x0D\x01", l_rows, l_rows);
    if (R > 0) {
      const unsigned scratch = 3 + R + S * (2 + R);
      w.op(kBlock); w.op(kVoid);
      for (int j = 0; j < R; ++j) {
        const unsigned cnt = (scratch + j) * 4, count = (3 + j) * 4;
        // tmp = counter j + 1; below counts[j]: store it, step every pointer, done
        w.seq("\x20\x00\x28\x02\xFE\x41\x01\x6A\x22\xFE\x20\x00\x28\x02\xFE\x49\x04\x40"
              "\x20\x00\x20\xFE\x36\x02\xFE", cnt, l_tmp, count, l_tmp, cnt);
        for (int s = 0; s < S; ++s)
          if (!unused(s)) w.seq("\x20\xFE\x20\x00\x28\x02\xFE\x6A\x21\xFE", ptr[s], (slot_word(s) + 2 + j) * 4, ptr[s]);
        w.seq("\x0C\x01\x0B\x20\x00\x41\x00\x36\x02\xFE", cnt);
        // counter j = 0 (above); every pointer back by stride * (counts[j] - 1)
        for (int s = 0; s < S; ++s)
          if (!unused(s))
            w.seq("\x20\xFE\x20\x00\x28\x02\xFE\x20\x00\x28\x02\xFE\x41\x01\x6B\x6C\x6B\x21\xFE",
                  ptr[s], (slot_word(s) + 2 + j) * 4, count, ptr[s]);
      }
      w.op(kEnd);
    }
    w.op(kBr); w.uleb(0);
    w.op(kEnd);  // rows
    w.op(kEnd);  // exit
    w.op(kEnd);  // function
  }

  void run(PodVector<std::uint8_t>& out) {
    R = form.rank;
    S = p.inputs + 1;
    nregs = static_cast<int>(p.code.size());
    in_dtype.assign(p.inputs, DType::count);
    for (const Instr& in : p.code)
      if (in.code == Code::load) in_dtype[in.a] = in.dtype;
    plan_simd();
    // locals
    l_rows = local(kTI32); l_n = local(kTI32); l_i = local(kTI32); l_tmp = local(kTI32);
    if (simd) l_v = local(kTV128);
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
      const Instr& in = p.code[i];
      if (in.code == Code::load && form.inputs[in.a] == InnerForm::splat) {  // the row's value itself
        reg_s[i] = splat_s[in.a];
        reg_v[i] = splat_v[in.a];
        continue;
      }
      reg_s[i] = local(vtype(cls(in.out)));
      if (simd) reg_v[i] = local(kTV128);
    }
    body();
    // the function body: its locals, then the code
    PodVector<std::uint8_t> fn;
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
    fn.append(code.begin(), code.end());
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
    PodVector<std::uint8_t> len;
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

bool generate(const Program& p, const LoopForm& form, PodVector<std::uint8_t>& out) {
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

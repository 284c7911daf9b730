// The wasmgen micro-benchmark's module (bench/wasmgen/run.mjs builds it with
// em++ -O3 -msimd128): the hand-written C++ SIMD128 fused loops of chains A
// `(x - m) / s` and B `a*b + c*d - e` (the limit a generated module is held
// to), and the code generator itself (src/expr/wasmgen.cpp), so that Node can
// time generate() as the engine will run it, in wasm.
#include <wasm_simd128.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "expr/wasmgen.hpp"

using namespace tc;
using namespace tc::expr;

extern "C" {

__attribute__((used)) void* bench_alloc(std::size_t n) { return std::aligned_alloc(16, (n + 15) & ~std::size_t{15}); }

// x [rows, n], m and s [n]
__attribute__((used)) void chain_a_cpp(const float* x, const float* m, const float* s, float* out, int rows, int n) {
  for (int r = 0; r < rows; ++r, x += n, out += n) {
    int i = 0;
    for (; i + 4 <= n; i += 4)
      wasm_v128_store(out + i, wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(x + i), wasm_v128_load(m + i)),
                                              wasm_v128_load(s + i)));
    for (; i < n; ++i) out[i] = (x[i] - m[i]) / s[i];
  }
}

// a, d [rows, n], b [n], c [rows, 1], e a scalar
__attribute__((used)) void chain_b_cpp(const float* a, const float* b, const float* c, const float* d, const float* e,
                                       float* out, int rows, int n) {
  const v128_t ev = wasm_f32x4_splat(*e);
  for (int r = 0; r < rows; ++r, a += n, d += n, out += n) {
    const float cs = c[r];
    const v128_t cv = wasm_f32x4_splat(cs);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
      const v128_t ab = wasm_f32x4_mul(wasm_v128_load(a + i), wasm_v128_load(b + i));
      const v128_t cd = wasm_f32x4_mul(cv, wasm_v128_load(d + i));
      wasm_v128_store(out + i, wasm_f32x4_sub(wasm_f32x4_add(ab, cd), ev));
    }
    for (; i < n; ++i) out[i] = a[i] * b[i] + cs * d[i] - *e;
  }
}

static std::vector<std::uint8_t> g_bytes;
static Program g_prog[4];

static int load(Program& p, int k) {
  Instr in{Code::load};
  in.a = k;
  p.code.push_back(in);
  if (k >= p.inputs) p.inputs = k + 1;
  return static_cast<int>(p.code.size()) - 1;
}
static int bin(Program& p, Op op, int a, int b) {
  Instr in{Code::binary};
  in.op = static_cast<std::uint8_t>(op);
  in.a = a;
  in.b = b;
  if (op >= Op::equal && op <= Op::logical_xor) in.out = DType::u8;
  p.code.push_back(in);
  return static_cast<int>(p.code.size()) - 1;
}
static int un(Program& p, UnaryOp u, int a) {
  Instr in{Code::unary};
  in.op = static_cast<std::uint8_t>(u);
  in.a = a;
  p.code.push_back(in);
  return static_cast<int>(p.code.size()) - 1;
}

// The expressions timed: 0 chain A, 1 chain B, 2 where(x > 0, x, x * 0.01) (leaky relu),
// 3 a 12-instruction mix: abs(x - y) * z + maximum(x, y) / sqrt(z) - floor(x)
__attribute__((used)) void bench_setup() {
  Program& a = g_prog[0];
  bin(a, Op::div, bin(a, Op::sub, load(a, 0), load(a, 1)), load(a, 2));
  Program& b = g_prog[1];
  const int ab = bin(b, Op::mul, load(b, 0), load(b, 1));
  const int cd = bin(b, Op::mul, load(b, 2), load(b, 3));
  bin(b, Op::sub, bin(b, Op::add, ab, cd), load(b, 4));
  Program& c = g_prog[2];
  const int x = load(c, 0);
  Instr k{Code::constant};
  k.value = 0.01;
  c.code.push_back(k);
  const int small = bin(c, Op::mul, x, static_cast<int>(c.code.size()) - 1);
  Instr zero{Code::constant};
  c.code.push_back(zero);
  const int gt = bin(c, Op::greater, x, static_cast<int>(c.code.size()) - 1);
  Instr sel{Code::select};
  sel.a = gt;
  sel.b = x;
  sel.c = small;
  c.code.push_back(sel);
  Program& d = g_prog[3];
  const int dx = load(d, 0), dy = load(d, 1), dz = load(d, 2);
  const int t1 = bin(d, Op::mul, un(d, UnaryOp::abs, bin(d, Op::sub, dx, dy)), dz);
  const int t2 = bin(d, Op::div, bin(d, Op::maximum, dx, dy), un(d, UnaryOp::sqrt, dz));
  bin(d, Op::sub, bin(d, Op::add, t1, t2), un(d, UnaryOp::floor, dx));
}

// generate(): the module's size (its bytes at bench_bytes()), -1 when refused.
// forms: one decimal digit per input, 0 contiguous 1 splat 2 strided (input 0 last).
__attribute__((used)) int bench_generate(int which, int rank, int forms) {
  const Program& p = g_prog[which];
  LoopForm f;
  f.rank = rank;
  for (int k = 0; k < p.inputs; ++k, forms /= 10) f.inputs.push_back(static_cast<InnerForm>(forms % 10));
  return generate(p, f, g_bytes) ? static_cast<int>(g_bytes.size()) : -1;
}
__attribute__((used)) const std::uint8_t* bench_bytes() { return g_bytes.data(); }
}

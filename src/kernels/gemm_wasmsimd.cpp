// The contraction kernel (gemm.hpp) in SIMD128: float32, float64 and int32.
//
// Per run of output rows that share B's offset, B is packed in blocks of
// columns (K rows of up to 128 KiB, zero-padded to whole tiles); each tile of
// 4 rows x 2 vectors of columns keeps its 8 accumulators in registers through
// a chain of k (one splat of A and one product per accumulator a step); the
// chains and their combination are the reduction's order (reduce_pairwise.hpp):
// the col order's leaves of <= 8 rows and their tree, or the row order's 16
// (8) accumulators, block tree, counter and lane halving, each "lane" here a
// whole tile. A's rows past the last are the last one again (their results
// are not stored).
#include <wasm_simd128.h>

#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "gemm.hpp"
#include "reduce_pairwise.hpp"

namespace tc {

namespace {

constexpr int MR = 4;  // tile rows
constexpr int NV = 2;  // tile vectors of columns

struct Tile {
  v128_t v[MR][NV];
};

// Byte pointers and strides: one driver for every dtype; only the chain and
// the tile sum are per dtype.
struct Ctx {
  const char* a[MR];  // A(m_i, 0)
  i64 ak;             // A's k stride, bytes
  const char* b;      // the packed block at this tile's first column, k = 0
  i64 bk;             // the packed block's row, bytes
};

template <typename T>
struct Vec;
template <>
struct Vec<float> {
  static v128_t splat(const void* p) { return wasm_v128_load32_splat(p); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_f32x4_mul(a, b); }
};
template <>
struct Vec<double> {
  static v128_t splat(const void* p) { return wasm_v128_load64_splat(p); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_f64x2_mul(a, b); }
};
template <>
struct Vec<int32_t> {
  static v128_t splat(const void* p) { return wasm_v128_load32_splat(p); }
  static v128_t add(v128_t a, v128_t b) { return wasm_i32x4_add(a, b); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_i32x4_mul(a, b); }
};

// c = the sum, in order, of the products at k = k0, k0 + step, ... (len >= 1
// terms; the first is assigned, as the reduction's first element is).
template <typename T>
[[gnu::noinline]] void chain(const Ctx& x, i64 k0, i64 step, i64 len, Tile& c) {
  using V = Vec<T>;
  const i64 bs = step * x.bk, as = step * x.ak;
  const char* bp = x.b + k0 * x.bk;
  const char* a0 = x.a[0] + k0 * x.ak;
  const char* a1 = x.a[1] + k0 * x.ak;
  const char* a2 = x.a[2] + k0 * x.ak;
  const char* a3 = x.a[3] + k0 * x.ak;
  v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 16);
  v128_t s = V::splat(a0);
  v128_t c00 = V::mul(s, b0), c01 = V::mul(s, b1);
  s = V::splat(a1);
  v128_t c10 = V::mul(s, b0), c11 = V::mul(s, b1);
  s = V::splat(a2);
  v128_t c20 = V::mul(s, b0), c21 = V::mul(s, b1);
  s = V::splat(a3);
  v128_t c30 = V::mul(s, b0), c31 = V::mul(s, b1);
  for (i64 t = 1; t < len; ++t) {
    bp += bs;
    a0 += as;
    a1 += as;
    a2 += as;
    a3 += as;
    b0 = wasm_v128_load(bp);
    b1 = wasm_v128_load(bp + 16);
    s = V::splat(a0);
    c00 = V::add(c00, V::mul(s, b0));
    c01 = V::add(c01, V::mul(s, b1));
    s = V::splat(a1);
    c10 = V::add(c10, V::mul(s, b0));
    c11 = V::add(c11, V::mul(s, b1));
    s = V::splat(a2);
    c20 = V::add(c20, V::mul(s, b0));
    c21 = V::add(c21, V::mul(s, b1));
    s = V::splat(a3);
    c30 = V::add(c30, V::mul(s, b0));
    c31 = V::add(c31, V::mul(s, b1));
  }
  c.v[0][0] = c00;
  c.v[0][1] = c01;
  c.v[1][0] = c10;
  c.v[1][1] = c11;
  c.v[2][0] = c20;
  c.v[2][1] = c21;
  c.v[3][0] = c30;
  c.v[3][1] = c31;
}

template <typename T>
[[gnu::noinline]] void add_tile(Tile& d, const Tile& s) {  // d = d + s, lane-wise
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v) d.v[i][v] = Vec<T>::add(d.v[i][v], s.v[i][v]);
}

struct Ops {
  void (*chain)(const Ctx&, i64, i64, i64, Tile&);
  void (*add)(Tile&, const Tile&);
  i64 es;      // element bytes
  bool order;  // a float sum: the order binds (else one chain)
};

// The col order over rows [k0, k0 + rows): leaves of <= 8 rows in order, a
// part split at col_split and its halves added (top + rest).
void col_tile(const Ops& o, const Ctx& x, i64 k0, i64 rows, Tile& c) {
  if (rows <= static_cast<i64>(reduce::kColLeafRows)) {
    o.chain(x, k0, 1, rows, c);
    return;
  }
  const i64 h = static_cast<i64>(reduce::col_split(static_cast<size_t>(rows)));
  col_tile(o, x, k0, h, c);
  Tile t;
  col_tile(o, x, k0 + h, rows - h, t);
  o.add(c, t);
}

// The row order over k in [0, K): reduce_pairwise.hpp's row skeleton, each of
// its L lanes a tile (L = 16 / es; KA = 4 L accumulators; blocks of 64 KA).
struct Lanes {
  Tile l[4];
};
void row_tile(const Ops& o, const Ctx& x, i64 K, Tile& r) {
  const i64 L = 16 / o.es, KA = 4 * L, B = 64 * KA;
  if (K < KA) {
    o.chain(x, 0, 1, K, r);
    return;
  }
  auto merge = [&o, L](Lanes a, const Lanes& b) {
    for (i64 l = 0; l < L; ++l) o.add(a.l[l], b.l[l]);
    return a;
  };
  reduce::PairCounter<Lanes> counter;
  i64 i = 0;
  while (K - i >= KA) {
    const i64 m = K - i >= B ? B : (K - i) / KA * KA;
    Tile acc[16];
    for (i64 j = 0; j < KA; ++j) o.chain(x, i + j, KA, m / KA, acc[j]);
    Lanes w;
    for (i64 l = 0; l < L; ++l) {  // (v0 + v1) + (v2 + v3), lane-wise
      o.add(acc[l], acc[L + l]);
      o.add(acc[2 * L + l], acc[3 * L + l]);
      o.add(acc[l], acc[2 * L + l]);
      w.l[l] = acc[l];
    }
    counter.push(w, merge);
    i += m;
  }
  Lanes w = counter.total(merge);
  for (i64 s = L / 2; s >= 1; s /= 2)
    for (i64 l = 0; l < s; ++l) o.add(w.l[l], w.l[l + s]);
  r = w.l[0];
  for (Tile t; i < K; ++i) {  // the last K % KA terms, one by one
    o.chain(x, i, 1, 1, t);
    o.add(r, t);
  }
}

template <typename U>  // w elements `stride` apart, to contiguous ones
void strided(char* dst, const char* src, i64 stride, i64 w) {
  const U* s = reinterpret_cast<const U*>(src);
  U* d = reinterpret_cast<U*>(dst);
  for (i64 j = 0; j < w; ++j) d[j] = s[j * stride];
}

bool run(const GemmProblem& p, const Ops& o) {
  const i64 es = o.es;
  const i64 NR = 32 / es;  // two vectors of columns
  const char* A = static_cast<const char*>(p.a);
  const char* Bsrc = static_cast<const char*>(p.b);
  char* out = static_cast<char*>(p.out);
  const i64 nc = gemm_block_cols(p.K, p.N, static_cast<size_t>(es));
  void* raw = std::malloc(static_cast<size_t>(p.K * nc * es) + 16);
  if (!raw) return false;
  char* bp = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(raw) + 15) & ~uintptr_t{15});
  for (i64 m0 = 0; m0 < p.M;) {
    i64 m1 = m0 + 1;
    while (m1 < p.M && p.b_off[m1] == p.b_off[m0]) ++m1;
    const char* B = Bsrc + p.b_off[m0] * es;
    for (i64 n0 = 0; n0 < p.N; n0 += nc) {
      const i64 w = p.N - n0 < nc ? p.N - n0 : nc;
      const i64 wp = (w + NR - 1) / NR * NR;
      for (i64 k = 0; k < p.K; ++k) {  // pack K rows of w columns, zero-padded to wp
        char* row = bp + k * wp * es;
        const char* src = B + (k * p.b_k + n0 * p.b_n) * es;
        if (p.b_n == 1) std::memcpy(row, src, static_cast<size_t>(w * es));
        else if (es == 4) strided<uint32_t>(row, src, p.b_n, w);
        else strided<uint64_t>(row, src, p.b_n, w);
        std::memset(row + w * es, 0, static_cast<size_t>((wp - w) * es));
      }
      for (i64 mt = m0; mt < m1; mt += MR) {
        const i64 rows = m1 - mt < MR ? m1 - mt : MR;
        Ctx x;
        for (int i = 0; i < MR; ++i) x.a[i] = A + p.a_off[mt + (i < rows ? i : rows - 1)] * es;
        x.ak = p.a_k * es;
        x.bk = wp * es;
        for (i64 nt = 0; nt < w; nt += NR) {
          x.b = bp + nt * es;
          Tile c;
          if (!o.order) o.chain(x, 0, 1, p.K, c);  // wrapping: any order
          else if (p.row_order) row_tile(o, x, p.K, c);
          else col_tile(o, x, 0, p.K, c);
          const i64 cols = w - nt < NR ? w - nt : NR;
          for (i64 i = 0; i < rows; ++i)
            std::memcpy(out + ((mt + i) * p.N + n0 + nt) * es, &c.v[i][0], static_cast<size_t>(cols * es));
        }
      }
    }
    m0 = m1;
  }
  std::free(raw);
  return true;
}

template <typename T>
bool gemm(const GemmProblem& p) {
  static constexpr Ops ops = {&chain<T>, &add_tile<T>, sizeof(T), !std::is_integral_v<T>};
  return run(p, ops);
}

}  // namespace

GemmFn find_gemm(DType dt) {
  switch (dt) {
    case DType::f32: return &gemm<float>;
    case DType::f64: return &gemm<double>;
    case DType::i32: case DType::u32: return &gemm<int32_t>;
    default: return nullptr;
  }
}

}  // namespace tc

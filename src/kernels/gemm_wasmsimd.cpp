// The contraction kernel (gemm.hpp) in SIMD128: float32, float64 and int32.
//
// Per run of output rows that share B's offset, B is packed in blocks of
// columns (K rows of up to 512 KiB), panel by panel (K x 8 columns, float64
// K x 4, zero-padded), and per tile of 4 rows A's rows are packed beside it
// (K x 4, interleaved; 4 tiles at once where their 16 rows lie one element
// apart, x read as {in, b}: pack_a_group). A tile of 4 rows x 2 vectors of
// columns keeps its 8 accumulators in registers through each chain of k (one
// splat of A and one product per accumulator a step); the chains and their combination follow
// the reduction's order (reduce_pairwise.hpp), as a schedule built once per
// problem: the col order's leaves of <= 16 k (float64: 8) and their tree of halves, or the
// row order's 16 (8) accumulators, block tree, counter and lane halving, each
// "lane" here a whole tile. A's rows past the last are the last one again
// (their results are not stored).
//
// float16: packed as float32 (exact) and run by the float32 tile, whose every
// product is then rounded to float16 as the float16 mul stores it; k in parts
// (GemmProblem::part) combined as the reduction driver's pairs are; each
// result rounded to float16 once, as it is stored.
#include <wasm_simd128.h>

#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "gemm.hpp"
#include "half.hpp"
#include "reduce_pairwise.hpp"

namespace tc {

namespace {

constexpr int MR = 4;  // tile rows
constexpr int NV = 2;  // tile vectors of columns

struct Tile {
  v128_t v[MR][NV];
};

// Packed operands, one driver for every dtype (only the chain and the tile
// sum are per dtype): A's tile rows interleaved, MR elements per k; B's
// panel, NR elements per k.
struct Ctx {
  const char* a;  // the packed A tile at k = 0
  const char* b;  // the packed B panel at k = 0
  bool half;      // float16 (tile<float>): each product rounded to float16 (round_half)
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
// A float32 product of two float16 values (exact: 22 bits) rounded as the
// float16 mul stores it, and kept as the float32 it is. p + m - m, m = 1.5 *
// 2^(e + 13) with e p's exponent (at least -14, the subnormals' fixed step),
// rounds p to float16's step there, to nearest, ties to even, either sign (p +
// m stays in m's binade; m is an even number of steps). A result of 2^16 or
// more is +-inf: times 2^112 it overflows, and 2^-112 brings the rest back
// exactly. A zero may lose its sign, which no sum shows (its result is added to
// +0); NaN stays NaN.
inline v128_t round_half(v128_t p) {
  const v128_t e = wasm_i32x4_max(wasm_v128_and(p, wasm_i32x4_splat(0x7f800000)), wasm_i32x4_splat(113 << 23));
  const v128_t m = wasm_v128_or(wasm_i32x4_add(e, wasm_i32x4_splat(13 << 23)), wasm_i32x4_splat(0x00400000));
  const v128_t r = wasm_f32x4_sub(wasm_f32x4_add(p, m), m);
  return wasm_f32x4_mul(wasm_f32x4_mul(r, wasm_f32x4_splat(0x1p112f)), wasm_f32x4_splat(0x1p-112f));
}
template <>
struct Vec<int32_t> {
  static v128_t splat(const void* p) { return wasm_v128_load32_splat(p); }
  static v128_t add(v128_t a, v128_t b) { return wasm_i32x4_add(a, b); }
  static v128_t mul(v128_t a, v128_t b) { return wasm_i32x4_mul(a, b); }
};

// The order of k, as a schedule every tile of a problem runs (built once, on
// the host side of the kernel: schedule() below), over a stack of tiles:
//   leaf k0 step len   push the sum, in order, of the products at k = k0,
//                      k0 + step, ... (len >= 1 terms, the first assigned)
//   merge              the two newest: older + newer (one entry); the schedules
//                      put every merge right after a leaf or after such merges,
//                      so the leaf folds them in its registers
//   lanes L            the two newest groups of L entries, entry by entry
//   halve L            the newest L entries: e[l] += e[l + s] for s = L/2 .. 1; one left
enum : i64 { kLeaf = 0, kMerge = 1, kLanes = 2, kHalve = 3 };

template <typename T>
[[gnu::always_inline]] inline void add_tile(Tile& d, const Tile& s) {  // d = d + s, lane-wise
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v) d.v[i][v] = Vec<T>::add(d.v[i][v], s.v[i][v]);
}

// float16's leaf (tile<float> with Ctx::half): each product rounded
// (round_half), then added, from -0 (-0 + p is p, -0 included). A function of
// its own: the float32 leaf keeps its registers.
[[gnu::noinline]] void half_leaf(const float* ap, const float* bp, i64 as, i64 bs, i64 len, Tile& c) {
  for (int i = 0; i < MR; ++i) c.v[i][0] = c.v[i][1] = wasm_i32x4_splat(INT32_MIN);
  for (i64 t = 0; t < len; ++t, ap += as, bp += bs) {
    const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
#pragma clang loop unroll(disable)
    for (int i = 0; i < MR; ++i) {
      const v128_t s = wasm_v128_load32_splat(ap + i);
      c.v[i][0] = wasm_f32x4_add(c.v[i][0], round_half(wasm_f32x4_mul(s, b0)));
      c.v[i][1] = wasm_f32x4_add(c.v[i][1], round_half(wasm_f32x4_mul(s, b1)));
    }
  }
}

// One tile: the schedule's result into the rows at `dst` (`ld` bytes apart), or,
// with dst null (a partial tile), left in st[0] (`st`: the stack). The result
// is added to +0 (all bits 0), as the reductions' sums are (reduce.hpp
// sum_zero_sign): a sum of -0 products is +0, NumPy's.
template <typename T>
[[gnu::noinline]] void tile(const Ctx& x, const i64* op, const i64* end, Tile* st, char* dst, i64 ld) {
  using V = Vec<T>;
  constexpr i64 L = 16 / sizeof(T);
  Tile* top = st;
  while (op < end) {
    if (*op == kLeaf) {
      const T* ap = reinterpret_cast<const T*>(x.a) + op[1] * MR;
      const T* bp = reinterpret_cast<const T*>(x.b) + op[1] * 2 * L;
      const i64 as = op[2] * MR, bs = op[2] * 2 * L, len = op[3];
      op += 4;
      v128_t c00, c01, c10, c11, c20, c21, c30, c31;
      if (std::is_same_v<T, float> && x.half) {
        Tile h;
        half_leaf(reinterpret_cast<const float*>(ap), reinterpret_cast<const float*>(bp), as, bs, len, h);
        c00 = h.v[0][0], c01 = h.v[0][1], c10 = h.v[1][0], c11 = h.v[1][1];
        c20 = h.v[2][0], c21 = h.v[2][1], c30 = h.v[3][0], c31 = h.v[3][1];
      } else {
        v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + L);
        v128_t s = V::splat(ap);
        c00 = V::mul(s, b0), c01 = V::mul(s, b1);
        s = V::splat(ap + 1);
        c10 = V::mul(s, b0), c11 = V::mul(s, b1);
        s = V::splat(ap + 2);
        c20 = V::mul(s, b0), c21 = V::mul(s, b1);
        s = V::splat(ap + 3);
        c30 = V::mul(s, b0), c31 = V::mul(s, b1);
        for (i64 t = 1; t < len; ++t) {
          ap += as;
          bp += bs;
          b0 = wasm_v128_load(bp);
          b1 = wasm_v128_load(bp + L);
          s = V::splat(ap);
          c00 = V::add(c00, V::mul(s, b0));
          c01 = V::add(c01, V::mul(s, b1));
          s = V::splat(ap + 1);
          c10 = V::add(c10, V::mul(s, b0));
          c11 = V::add(c11, V::mul(s, b1));
          s = V::splat(ap + 2);
          c20 = V::add(c20, V::mul(s, b0));
          c21 = V::add(c21, V::mul(s, b1));
          s = V::splat(ap + 3);
          c30 = V::add(c30, V::mul(s, b0));
          c31 = V::add(c31, V::mul(s, b1));
        }
      }
      for (; op < end && *op == kMerge; ++op) {  // merges that follow: older + this, in registers
        --top;
        c00 = V::add(top->v[0][0], c00);
        c01 = V::add(top->v[0][1], c01);
        c10 = V::add(top->v[1][0], c10);
        c11 = V::add(top->v[1][1], c11);
        c20 = V::add(top->v[2][0], c20);
        c21 = V::add(top->v[2][1], c21);
        c30 = V::add(top->v[3][0], c30);
        c31 = V::add(top->v[3][1], c31);
      }
      if (op == end) {  // the result
        const v128_t z = wasm_i64x2_splat(0);
        c00 = V::add(c00, z), c01 = V::add(c01, z), c10 = V::add(c10, z), c11 = V::add(c11, z);
        c20 = V::add(c20, z), c21 = V::add(c21, z), c30 = V::add(c30, z), c31 = V::add(c31, z);
      }
      if (op == end && dst) {  // straight to the output rows
        wasm_v128_store(dst, c00), wasm_v128_store(dst + 16, c01);
        wasm_v128_store(dst + ld, c10), wasm_v128_store(dst + ld + 16, c11);
        wasm_v128_store(dst + 2 * ld, c20), wasm_v128_store(dst + 2 * ld + 16, c21);
        wasm_v128_store(dst + 3 * ld, c30), wasm_v128_store(dst + 3 * ld + 16, c31);
        return;
      }
      top->v[0][0] = c00;
      top->v[0][1] = c01;
      top->v[1][0] = c10;
      top->v[1][1] = c11;
      top->v[2][0] = c20;
      top->v[2][1] = c21;
      top->v[3][0] = c30;
      top->v[3][1] = c31;
      ++top;
    } else {  // lanes or halve (every merge follows a leaf, or merges that do: folded above)
      const i64 n = op[1];
      if (*op == kLanes) {
        for (i64 l = 0; l < n; ++l) add_tile<T>(top[l - 2 * n], top[l - n]);
        top -= n;
      } else {
        Tile* base = top - n;
        for (i64 h = n / 2; h >= 1; h /= 2)
          for (i64 l = 0; l < h; ++l) add_tile<T>(base[l], base[l + h]);
        top = base + 1;
      }
      op += 2;
      if (op == end) {  // the result (a row order's halving ends it)
        for (int i = 0; i < MR; ++i)
          for (int v = 0; v < NV; ++v) st[0].v[i][v] = V::add(st[0].v[i][v], wasm_i64x2_splat(0));
        if (dst)
          for (int i = 0; i < MR; ++i) wasm_v128_store(dst + i * ld, st[0].v[i][0]), wasm_v128_store(dst + i * ld + 16, st[0].v[i][1]);
      }
    }
  }
}

struct Ops {
  void (*tile)(const Ctx&, const i64*, const i64*, Tile*, char*, i64);
  i64 es;      // packed element bytes (float16: 4, as float32)
  bool order;  // a float sum: the order binds (else one chain)
  void (*pack_b)(char*, const char*, i64, i64, i64, i64, i64);
  void (*pack_a)(char*, const char* const*, i64, i64);
  i64 src;     // the operands' and the result's element bytes (float16: 2)
};

// The schedule of K terms: the col order (leaves of <= 16, float64 8; halves at
// col_split), the row order (reduce_pairwise.hpp's row skeleton, each lane
// an entry), or one chain (integers: any order). Appends to `s`; returns the
// deepest stack it needs.
struct Schedule {
  i64* s;
  i64 n = 0, depth = 0, max = 0;
  void put(i64 a) { s[n++] = a; }
  void leaf(i64 k0, i64 step, i64 len) {
    put(kLeaf), put(k0), put(step), put(len);
    if (++depth > max) max = depth;
  }
  void merge() { put(kMerge), --depth; }
  void col(i64 k0, i64 rows, i64 es) {
    const size_t R = reduce::col_leaf_rows(static_cast<size_t>(es));
    if (rows <= static_cast<i64>(R)) return leaf(k0, 1, rows);
    const i64 h = static_cast<i64>(reduce::col_split(static_cast<size_t>(rows), R));
    col(k0, h, es);
    col(k0 + h, rows - h, es);
    merge();
  }
  // A binary counter over entries of L stack tiles each (the row order's
  // blocks, a float16 sum's parts): push one, merging entries of equal level
  // (older + newer); drain: the rest, from the newest.
  struct Counter {
    i64 level[64], d = 0;
  };
  void push(Counter& c, i64 L) {
    i64 lv = 0;
    for (; c.d > 0 && c.level[c.d - 1] == lv; --c.d, ++lv) put(kLanes), put(L), depth -= L;
    c.level[c.d++] = lv;
  }
  void drain(Counter& c, i64 L) {
    for (; c.d > 1; --c.d) put(kLanes), put(L), depth -= L;
  }
  void row(i64 k0, i64 K, i64 es) {  // the K terms from k0
    const i64 L = 16 / es, KA = 4 * L, B = 64 * KA;
    if (K < KA) return leaf(k0, 1, K);
    Counter c;  // over the blocks
    i64 i = k0;
    K += k0;
    while (K - i >= KA) {
      const i64 m = K - i >= B ? B : (K - i) / KA * KA;
      for (i64 l = 0; l < L; ++l) {  // lane l: (a_l + a_{L+l}) + (a_{2L+l} + a_{3L+l})
        leaf(i + l, KA, m / KA);
        leaf(i + L + l, KA, m / KA);
        merge();
        leaf(i + 2 * L + l, KA, m / KA);
        leaf(i + 3 * L + l, KA, m / KA);
        merge();
        merge();
      }
      i += m;
      push(c, L);
    }
    drain(c, L);
    put(kHalve), put(L), depth -= L - 1;
    for (; i < K; ++i) leaf(i, 1, 1), merge();  // the last K % KA terms, one by one
  }
  // K in parts of `len` terms (the last may be shorter), each in the row or
  // col order, combined as the reduction driver's PairStack combines a float16
  // sum's converted parts: a binary counter, then from the newest.
  void parts(i64 K, i64 len, bool by_row, i64 es) {
    Counter c;
    for (i64 k0 = 0; k0 < K; k0 += len) {
      const i64 k = K - k0 < len ? K - k0 : len;
      if (by_row) row(k0, k, es);
      else col(k0, k, es);
      push(c, 1);
    }
    drain(c, 1);
  }
};

// A packed element from an operand's: the same bits, or a float16's float32.
template <typename U, typename S>
U elem(S v) {
  if constexpr (std::is_same_v<U, S>) return v;
  else return half_to_float(v);
}
template <typename U, typename S = U>  // element k of B's panel rows: n columns `bn` apart, zero-padded to NR
void pack_b(char* dst, const char* src, i64 K, i64 bk, i64 bn, i64 n, i64 nr) {
  U* d = reinterpret_cast<U*>(dst);
  const S* s = reinterpret_cast<const S*>(src);
  if (std::is_same_v<U, S> && bn == 1 && n == nr) {  // a whole panel of contiguous rows: a row is 32 bytes, two vectors
    for (i64 k = 0; k < K; ++k, d += nr, s += bk) {
      wasm_v128_store(d, wasm_v128_load(s));
      wasm_v128_store(reinterpret_cast<char*>(d) + 16, wasm_v128_load(reinterpret_cast<const char*>(s) + 16));
    }
    return;
  }
  for (i64 k = 0; k < K; ++k, d += nr)
    for (i64 j = 0; j < nr; ++j) d[j] = j < n ? elem<U>(s[k * bk + j * bn]) : U(0);
}
template <typename U, typename S = U>  // A's MR rows (pointers), interleaved: MR elements per k
void pack_a(char* dst, const char* const* rows, i64 K, i64 ak) {
  U* d = reinterpret_cast<U*>(dst);
  const S* r0 = reinterpret_cast<const S*>(rows[0]);
  const S* r1 = reinterpret_cast<const S*>(rows[1]);
  const S* r2 = reinterpret_cast<const S*>(rows[2]);
  const S* r3 = reinterpret_cast<const S*>(rows[3]);
  for (i64 k = 0; k < K; ++k, d += MR) {
    d[0] = elem<U>(r0[k * ak]);
    d[1] = elem<U>(r1[k * ak]);
    d[2] = elem<U>(r2[k * ak]);
    d[3] = elem<U>(r3[k * ak]);
  }
}

// G tiles of A at once, where their G * MR rows lie one element apart (x read
// as {in, b}: a column of x is K elements ak apart): at each k the rows' elements
// are one 64-byte run (float32), read once for the G tiles, not once a tile.
// Tile t's panel at dst + t * K * MR elements, as pack_a lays it.
constexpr int G = 4;
template <typename U>
void pack_a_group(char* dst, const char* src, i64 K, i64 ak) {
  constexpr i64 w = MR * sizeof(U);  // a tile's bytes at one k: 16 or 32
  for (i64 k = 0; k < K; ++k, src += ak * static_cast<i64>(sizeof(U)))
    for (i64 t = 0; t < G; ++t)
      for (i64 v = 0; v < w; v += 16) wasm_v128_store(dst + (t * K + k) * w + v, wasm_v128_load(src + t * w + v));
}

bool run(const GemmProblem& p, const Ops& o) {
  const i64 es = o.es;
  const i64 NR = 32 / es;  // two vectors of columns
  const i64 ss = o.src;
  const bool half = ss != es;  // float16: every tile through the stack, rounded as it is stored
  const char* A = static_cast<const char*>(p.a);
  const char* Bsrc = static_cast<const char*>(p.b);
  char* out = static_cast<char*>(p.out);
  const i64 nc = gemm_block_cols(p.K, p.N, static_cast<size_t>(es));
  // The schedule (at most 4 words a term, and as many merges) and its stack,
  // the B block (panels of K x NR) and A's tiles (K x MR, or G of them where
  // A's first rows lie one element apart), in one allocation.
  const i64 words = 8 * p.K + 64;
  const bool may_group = !half && p.M >= G * MR && p.a_off[1] == p.a_off[0] + 1;
  const i64 bytes = words * 8 + p.K * (nc + (may_group ? G : 1) * MR) * es + 32;
  if (p.K > (i64{1} << 40) || bytes > i64{0x7fffffff}) return false;  // past the address space (wasm32)
  void* raw = std::malloc(static_cast<size_t>(bytes));
  if (!raw) return false;
  Schedule sc{static_cast<i64*>(raw)};
  if (!o.order) sc.leaf(0, 1, p.K);
  else sc.parts(p.K, p.part > 0 ? p.part : p.K, p.row_order, es);
  Tile* stack = static_cast<Tile*>(std::malloc(static_cast<size_t>(sc.max + 1) * sizeof(Tile)));
  if (!stack) {
    std::free(raw);
    return false;
  }
  char* bp = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(sc.s + words) + 15) & ~uintptr_t{15});
  char* ap = bp + p.K * nc * es;
  auto packg = es == 4 ? &pack_a_group<uint32_t> : &pack_a_group<uint64_t>;
  bool grouped = false;  // A's tiles of this group packed at once (pack_a_group)
  for (i64 m0 = 0; m0 < p.M;) {
    i64 m1 = m0 + 1;
    while (m1 < p.M && p.b_off[m1] == p.b_off[m0]) ++m1;
    const char* B = Bsrc + p.b_off[m0] * ss;
    for (i64 n0 = 0; n0 < p.N; n0 += nc) {
      const i64 w = p.N - n0 < nc ? p.N - n0 : nc;
      for (i64 nt = 0; nt < w; nt += NR)
        o.pack_b(bp + nt * p.K * es, B + (n0 + nt) * p.b_n * ss, p.K, p.b_k, p.b_n, w - nt < NR ? w - nt : NR, NR);
      for (i64 mt = m0; mt < m1; mt += MR) {
        const i64 rows = m1 - mt < MR ? m1 - mt : MR;
        const i64 t = (mt - m0) / MR % G;  // the tile's place in its group
        if (t == 0) {  // a group's first tile: are its G * MR rows one element apart?
          grouped = may_group && m1 - mt >= G * MR;
          for (i64 i = 1; grouped && i < G * MR; ++i) grouped = p.a_off[mt + i] == p.a_off[mt] + i;
          if (grouped) packg(ap, A + p.a_off[mt] * es, p.K, p.a_k);
        }
        if (!grouped) {
          const char* r[MR];
          for (int i = 0; i < MR; ++i) r[i] = A + p.a_off[mt + (i < rows ? i : rows - 1)] * ss;
          o.pack_a(ap, r, p.K, p.a_k);
        }
        Ctx x{grouped ? ap + t * p.K * MR * es : ap, nullptr, half};
        for (i64 nt = 0; nt < w; nt += NR) {
          x.b = bp + nt * p.K * es;
          const i64 cols = w - nt < NR ? w - nt : NR;
          char* o0 = out + (mt * p.N + n0 + nt) * ss;
          // A whole tile goes straight to the output (vector stores: memory.copy is a call in V8).
          const bool whole = !half && cols == NR && rows == MR;
          o.tile(x, sc.s, sc.s + sc.n, stack, whole ? o0 : nullptr, p.N * es);
          if (!whole)
            for (i64 i = 0; i < rows; ++i) {
              char* d = o0 + i * p.N * ss;
              if (half) find_float_to_half()(reinterpret_cast<const float*>(&stack[0].v[i][0]), reinterpret_cast<uint16_t*>(d), static_cast<size_t>(cols));
              else std::memcpy(d, &stack[0].v[i][0], static_cast<size_t>(cols * es));
            }
        }
      }
    }
    m0 = m1;
  }
  std::free(stack);
  std::free(raw);
  return true;
}

template <typename T, typename U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>
bool gemm(const GemmProblem& p) {
  static constexpr Ops ops = {&tile<T>, sizeof(T), !std::is_integral_v<T>, &pack_b<U>, &pack_a<U>, sizeof(T)};
  return run(p, ops);
}

// float16: packed as float32, run by tile<float> with each product rounded (Ctx::half).
bool gemm_half(const GemmProblem& p) {
  static constexpr Ops ops = {&tile<float>, 4, true, &pack_b<float, uint16_t>, &pack_a<float, uint16_t>, 2};
  return run(p, ops);
}

}  // namespace

GemmFn find_gemm(DType dt) {
  switch (dt) {
    case DType::f32: return &gemm<float>;
    case DType::f64: return &gemm<double>;
    case DType::i32: case DType::u32: return &gemm<int32_t>;
    case DType::f16: return &gemm_half;
    default: return nullptr;
  }
}

}  // namespace tc

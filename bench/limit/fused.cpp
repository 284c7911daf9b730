// The limit of the fused-expression rows (issue 22): hand-written SIMD128 loops
// of the same chains, one pass over memory, no temporaries, in a stand-alone
// wasm module with its own memory (built by bench/limit/build.mjs with
// em++ -O3 -msimd128 -mbulk-memory). What a generated per-expression module can
// hope to match. Each float operation is the one the op-by-op path does, in the
// same order (f32x4.sub/div/mul/add are IEEE single precision, and wasm SIMD128
// has no fused multiply-add), so the results are bit-identical to tensorcast's
// op-by-op results.
//
// Exports (every pointer a byte offset in this module's memory):
//   alloc(bytes)                            16-byte aligned bump allocation (memory grows)
//   reset()                                 forget every allocation
//   chain_a_inner(x, m, s, out, rows, cols) out = (x - m) / s, m and s of length cols ([rows,cols] and [cols])
//   chain_a_plane(x, m, s, out, outer, ch, plane)
//                                           the same with m and s one value per channel
//                                           ([outer,ch,plane] and [1,ch,1]: NCHW with [1,C,1,1])
//   chain_b(a, b, c, d, e, out, rows, cols) out = a*b + c*d - e, a and d [rows,cols], b [cols],
//                                           c [rows,1], e a scalar
//   contract(x, w, out, nb, ni, no)         out[b,o] = sum over i of x[b,i] * w[i,o]
//                                           (x [nb,ni], w [ni,no]; sums in i order, so not
//                                           bit-identical to a pairwise sum)
//   bilinear(x, w, y, out, nb, ni, nj)      out[b] = sum over (i, j) of (x[b,i] * w[i,j]) * y[b,j]
//                                           (x [nb,ni], w [ni,nj], y [nb,nj]; nj a multiple of 16):
//                                           the op-by-op order, bit-identical to tensorcast
//   add(a, b, out, n)                       out = a + b over n floats (n a multiple of 16)
//   tadd(a, b, out, n, ti, tj)              out[i,j] = a[j,i] + b[i,j] over [n,n] (n a multiple of
//                                           ti and tj, they of 4, ti * tj <= 65536): per ti x tj
//                                           block of out, `a`'s block transposed into a buffer in
//                                           4x4 register transposes (4 loads, 8 shuffles; 4 rows of
//                                           `a` at a time), then added to b row by row: the best
//                                           transposed add found in SIMD128 (a direct 4x4 loop with
//                                           no buffer measured 2.2x add), the yardstick of
//                                           add(transpose(a), b)
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT extern "C" __attribute__((used, visibility("default")))

extern "C" unsigned char __heap_base;
static uintptr_t top = 0;

EXPORT void reset() { top = 0; }

EXPORT uintptr_t alloc(uint32_t bytes) {
  if (top == 0) top = (reinterpret_cast<uintptr_t>(&__heap_base) + 15) & ~uintptr_t(15);
  uintptr_t p = top;
  uintptr_t end = (p + bytes + 15) & ~uintptr_t(15);
  size_t have = __builtin_wasm_memory_size(0) * 65536;
  if (end > have) {
    size_t pages = (end - have + 65535) / 65536;
    if (__builtin_wasm_memory_grow(0, pages) == SIZE_MAX) return 0;
  }
  top = end;
  return p;
}

// out[j] = (x[j] - m[j]) / s[j] for j < n; 16 floats a step.
static inline void sub_div(const float* x, const float* m, const float* s, float* out, uint32_t n) {
  uint32_t j = 0;
  for (; j + 16 <= n; j += 16) {
    v128_t a0 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(x + j), wasm_v128_load(m + j)), wasm_v128_load(s + j));
    v128_t a1 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(x + j + 4), wasm_v128_load(m + j + 4)), wasm_v128_load(s + j + 4));
    v128_t a2 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(x + j + 8), wasm_v128_load(m + j + 8)), wasm_v128_load(s + j + 8));
    v128_t a3 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(x + j + 12), wasm_v128_load(m + j + 12)), wasm_v128_load(s + j + 12));
    wasm_v128_store(out + j, a0);
    wasm_v128_store(out + j + 4, a1);
    wasm_v128_store(out + j + 8, a2);
    wasm_v128_store(out + j + 12, a3);
  }
  for (; j < n; j++) out[j] = (x[j] - m[j]) / s[j];
}

EXPORT void chain_a_inner(const float* x, const float* m, const float* s, float* out, uint32_t rows, uint32_t cols) {
  for (uint32_t r = 0; r < rows; r++) sub_div(x + size_t(r) * cols, m, s, out + size_t(r) * cols, cols);
}

EXPORT void chain_a_plane(const float* x, const float* m, const float* s, float* out, uint32_t outer, uint32_t ch, uint32_t plane) {
  for (uint32_t o = 0; o < outer; o++) {
    for (uint32_t c = 0; c < ch; c++) {
      const size_t base = (size_t(o) * ch + c) * plane;
      const float* xp = x + base;
      float* op = out + base;
      const float mc = m[c];
      const float sc = s[c];
      const v128_t mv = wasm_f32x4_splat(mc);
      const v128_t sv = wasm_f32x4_splat(sc);
      uint32_t j = 0;
      for (; j + 16 <= plane; j += 16) {
        v128_t a0 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(xp + j), mv), sv);
        v128_t a1 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(xp + j + 4), mv), sv);
        v128_t a2 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(xp + j + 8), mv), sv);
        v128_t a3 = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(xp + j + 12), mv), sv);
        wasm_v128_store(op + j, a0);
        wasm_v128_store(op + j + 4, a1);
        wasm_v128_store(op + j + 8, a2);
        wasm_v128_store(op + j + 12, a3);
      }
      for (; j < plane; j++) op[j] = (xp[j] - mc) / sc;
    }
  }
}

// ((a*b) + (c*d)) - e, JavaScript's order of `a*b + c*d - e`.
static inline v128_t chain_b4(v128_t a, v128_t b, v128_t c, v128_t d, v128_t e) {
  return wasm_f32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(a, b), wasm_f32x4_mul(c, d)), e);
}

EXPORT void chain_b(const float* a, const float* b, const float* c, const float* d, float e, float* out, uint32_t rows, uint32_t cols) {
  const v128_t ev = wasm_f32x4_splat(e);
  for (uint32_t r = 0; r < rows; r++) {
    const size_t base = size_t(r) * cols;
    const float* ap = a + base;
    const float* dp = d + base;
    float* op = out + base;
    const float cr = c[r];
    const v128_t cv = wasm_f32x4_splat(cr);
    uint32_t j = 0;
    for (; j + 16 <= cols; j += 16) {
      v128_t o0 = chain_b4(wasm_v128_load(ap + j), wasm_v128_load(b + j), cv, wasm_v128_load(dp + j), ev);
      v128_t o1 = chain_b4(wasm_v128_load(ap + j + 4), wasm_v128_load(b + j + 4), cv, wasm_v128_load(dp + j + 4), ev);
      v128_t o2 = chain_b4(wasm_v128_load(ap + j + 8), wasm_v128_load(b + j + 8), cv, wasm_v128_load(dp + j + 8), ev);
      v128_t o3 = chain_b4(wasm_v128_load(ap + j + 12), wasm_v128_load(b + j + 12), cv, wasm_v128_load(dp + j + 12), ev);
      wasm_v128_store(op + j, o0);
      wasm_v128_store(op + j + 4, o1);
      wasm_v128_store(op + j + 8, o2);
      wasm_v128_store(op + j + 12, o3);
    }
    for (; j < cols; j++) op[j] = ((ap[j] * b[j]) + (cr * dp[j])) - e;
  }
}

// One output row at a time: out[b,:] = sum over i of x[b,i] * w[i,:], the row
// kept in registers 16 floats at a time while i runs (w read row by row).
EXPORT void contract(const float* x, const float* w, float* out, uint32_t nb, uint32_t ni, uint32_t no) {
  for (uint32_t bi = 0; bi < nb; bi++) {
    const float* xr = x + size_t(bi) * ni;
    float* orow = out + size_t(bi) * no;
    uint32_t o = 0;
    for (; o + 16 <= no; o += 16) {
      v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0, s2 = s0, s3 = s0;
      for (uint32_t i = 0; i < ni; i++) {
        const v128_t xv = wasm_f32x4_splat(xr[i]);
        const float* wr = w + size_t(i) * no + o;
        s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(xv, wasm_v128_load(wr)));
        s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(xv, wasm_v128_load(wr + 4)));
        s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(xv, wasm_v128_load(wr + 8)));
        s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(xv, wasm_v128_load(wr + 12)));
      }
      wasm_v128_store(orow + o, s0);
      wasm_v128_store(orow + o + 4, s1);
      wasm_v128_store(orow + o + 8, s2);
      wasm_v128_store(orow + o + 12, s3);
    }
    for (; o < no; o++) {
      float acc = 0.0f;
      for (uint32_t i = 0; i < ni; i++) acc += xr[i] * w[size_t(i) * no + o];
      orow[o] = acc;
    }
  }
}

// The contraction limit (issue 40): a plain SIMD128 GEMM, out[m,:] = sum over
// k of x[m,k] * w[k,:] (x [M,K], w [K,N], row-major), k in plain order (the
// fastest order, not tensorcast's pairwise one, so not bit-identical): w
// packed once per block of NC columns into K x 8 panels, x packed per 4 rows
// into a 4 x K panel, a 4 x 8 register tile (8 accumulators) over the whole
// of k. `scratch` holds K * (NC + 4) floats. Edge rows and columns padded.
static const uint32_t kGemmNC = 64;
EXPORT uint32_t gemm_scratch_floats(uint32_t K) { return K * (kGemmNC + 4); }
EXPORT void gemm(const float* x, const float* w, float* out, uint32_t M, uint32_t K, uint32_t N, float* scratch) {
  float* bp = scratch;                       // K x NC, panel by panel (K x 8 each)
  float* ap = scratch + size_t(K) * kGemmNC;  // 4 x K, interleaved (k-major)
  for (uint32_t n0 = 0; n0 < N; n0 += kGemmNC) {
    const uint32_t nc = N - n0 < kGemmNC ? N - n0 : kGemmNC;
    const uint32_t panels = (nc + 7) / 8;
    for (uint32_t p = 0; p < panels; p++)
      for (uint32_t k = 0; k < K; k++)
        for (uint32_t j = 0; j < 8; j++) {
          const uint32_t n = p * 8 + j;
          bp[(size_t(p) * K + k) * 8 + j] = n < nc ? w[size_t(k) * N + n0 + n] : 0.0f;
        }
    for (uint32_t m0 = 0; m0 < M; m0 += 4) {
      const uint32_t rows = M - m0 < 4 ? M - m0 : 4;
      for (uint32_t k = 0; k < K; k++)
        for (uint32_t i = 0; i < 4; i++) ap[size_t(k) * 4 + i] = x[size_t(m0 + (i < rows ? i : rows - 1)) * K + k];
      for (uint32_t p = 0; p < panels; p++) {
        const float* b = bp + size_t(p) * K * 8;
        const float* a = ap;
        v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
        for (uint32_t k = 0; k < K; k++, a += 4, b += 8) {
          const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
          v128_t s = wasm_v128_load32_splat(a);
          c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(s, b0));
          c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(s, b1));
          s = wasm_v128_load32_splat(a + 1);
          c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(s, b0));
          c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(s, b1));
          s = wasm_v128_load32_splat(a + 2);
          c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(s, b0));
          c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(s, b1));
          s = wasm_v128_load32_splat(a + 3);
          c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(s, b0));
          c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(s, b1));
        }
        alignas(16) float t[4][8];
        wasm_v128_store(&t[0][0], c00); wasm_v128_store(&t[0][4], c01);
        wasm_v128_store(&t[1][0], c10); wasm_v128_store(&t[1][4], c11);
        wasm_v128_store(&t[2][0], c20); wasm_v128_store(&t[2][4], c21);
        wasm_v128_store(&t[3][0], c30); wasm_v128_store(&t[3][4], c31);
        const uint32_t cols = nc - p * 8 < 8 ? nc - p * 8 : 8;
        for (uint32_t i = 0; i < rows; i++)
          for (uint32_t j = 0; j < cols; j++) out[size_t(m0 + i) * N + n0 + p * 8 + j] = t[i][j];
      }
    }
  }
}

// The exact bilinear form's limit (issue 40): out[b] = sum over (i, j) of
// (x[b,i] * w[i,j]) * y[b,j], each product rounded as mul(mul(x, w), y) rounds
// it and summed in tensorcast's row order (src/kernels/reduce_wasmsimd.cpp
// row_blocks: 16 accumulators over blocks of 1024 terms, each block's 4
// vectors as a tree, the blocks by a binary counter, then the lanes halved),
// so the result is bit-identical to tensorcast's. No product is stored: 2 loads,
// 2 multiplications and 1 addition a vector of 4 terms. A matMul + mul + sum
// rounds each partial sum of x w once and needs 1 multiplication and 1
// addition a term; this order cannot share them across b.
EXPORT void bilinear(const float* x, const float* w, const float* y, float* out, uint32_t nb, uint32_t ni, uint32_t nj) {
  const size_t n = size_t(ni) * nj;
  for (uint32_t b = 0; b < nb; b++) {
    const float* xr = x + size_t(b) * ni;
    const float* yr = y + size_t(b) * nj;
    v128_t stack[64];
    int level[64];
    int depth = 0;
    size_t i = 0, row = 0, col = 0;
    v128_t xs = wasm_f32x4_splat(xr[0]);
    while (n - i >= 16) {
      const size_t m = n - i >= 1024 ? 1024 : (n - i) / 16 * 16;
      v128_t a0 = wasm_f32x4_splat(-0.0f), a1 = a0, a2 = a0, a3 = a0;
      for (size_t k = 0; k < m; k += 16) {
        const float* wp = w + i + k;
        const float* yp = yr + col;
        a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_f32x4_mul(xs, wasm_v128_load(wp)), wasm_v128_load(yp)));
        a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_f32x4_mul(xs, wasm_v128_load(wp + 4)), wasm_v128_load(yp + 4)));
        a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_f32x4_mul(xs, wasm_v128_load(wp + 8)), wasm_v128_load(yp + 8)));
        a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_f32x4_mul(xs, wasm_v128_load(wp + 12)), wasm_v128_load(yp + 12)));
        col += 16;
        if (col == nj) {
          col = 0;
          if (++row < ni) xs = wasm_f32x4_splat(xr[row]);
        }
      }
      v128_t v = wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3));
      int l = 0;
      while (depth > 0 && level[depth - 1] == l) v = wasm_f32x4_add(stack[--depth], v), ++l;
      stack[depth] = v, level[depth] = l, ++depth;
      i += m;
    }
    float r = 0.0f;
    if (depth > 0) {
      v128_t v = stack[depth - 1];
      for (int k = depth - 2; k >= 0; --k) v = wasm_f32x4_add(stack[k], v);
      v = wasm_f32x4_add(v, wasm_i64x2_shuffle(v, v, 1, 0));
      v = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
      r = wasm_f32x4_extract_lane(v, 0);
    }
    out[b] = r + 0.0f;  // a sum of -0 terms is +0 (tensorcast's sums, as NumPy's)
  }
}

EXPORT void add(const float* a, const float* b, float* out, uint32_t n) {
  for (uint32_t i = 0; i < n; i += 16)
    for (uint32_t k = 0; k < 16; k += 4)
      wasm_v128_store(out + i + k, wasm_f32x4_add(wasm_v128_load(a + i + k), wasm_v128_load(b + i + k)));
}

static float tile_buf[64 * 1024];

EXPORT void tadd(const float* a, const float* b, float* out, uint32_t n, uint32_t ti, uint32_t tj) {
  for (uint32_t i0 = 0; i0 < n; i0 += ti)
    for (uint32_t j0 = 0; j0 < n; j0 += tj) {
      // tile_buf[r, c] = a[j0 + c, i0 + r]: 4 rows of `a` (4 cache lines) at a time, used whole
      for (uint32_t c = 0; c < tj; c += 4)
        for (uint32_t r = 0; r < ti; r += 4) {
          const float* p = a + (j0 + c) * n + i0 + r;
          const v128_t x0 = wasm_v128_load(p), x1 = wasm_v128_load(p + n), x2 = wasm_v128_load(p + 2 * n), x3 = wasm_v128_load(p + 3 * n);
          const v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7);
          const v128_t t2 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
          float* o = tile_buf + r * tj + c;
          wasm_v128_store(o, wasm_i64x2_shuffle(t0, t2, 0, 2));
          wasm_v128_store(o + tj, wasm_i64x2_shuffle(t0, t2, 1, 3));
          wasm_v128_store(o + 2 * tj, wasm_i64x2_shuffle(t1, t3, 0, 2));
          wasm_v128_store(o + 3 * tj, wasm_i64x2_shuffle(t1, t3, 1, 3));
        }
      for (uint32_t r = 0; r < ti; ++r) {  // then a plain add, row by row
        const float* x = tile_buf + r * tj;
        const size_t o = (i0 + r) * n + j0;
        for (uint32_t c = 0; c < tj; c += 4) wasm_v128_store(out + o + c, wasm_f32x4_add(wasm_v128_load(x + c), wasm_v128_load(b + o + c)));
      }
    }
}

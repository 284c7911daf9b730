// Contractions run by the contraction kernel (src/kernels/gemm.hpp): sum(x * w)
// over shared axes, in any dim order, named or positional, batched, over two
// reduced dims, on views; each equal, bit for bit, to the ops called one by
// one (sum(mul(x, w))), whose summation order the kernel keeps. explain()
// says when the kernel runs; each case here checks that it did (or, for the
// shapes it leaves to the chunks, that it did not).
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

let seed = 20261128;
const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const pick = (a) => a[Math.floor(rnd() * a.length)];
const CTOR = { float32: Float32Array, float64: Float64Array, int32: Int32Array, uint32: Uint32Array };
function data(dtype, n) {
  const a = new CTOR[dtype](n);
  for (let i = 0; i < n; i++) {
    if (dtype === 'int32' || dtype === 'uint32') a[i] = Math.floor(rnd() * 2 ** 32); // products and sums wrap
    else a[i] = rnd() < 0.05 ? pick([0, -0, 1e30, -1e-30]) : (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 7 - 3);
  }
  return a;
}
const bytes = (t) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
function sameBits(got, want, what) {
  expect(got.shape, what).toEqual(want.shape);
  const g = bytes(got.data), w = bytes(want.data);
  let first = -1;
  for (let i = 0; i < g.length && first < 0; i++) if (g[i] !== w[i]) first = i;
  expect(first, `${what}: first differing byte`).toBe(-1);
}
const shuffle = (a) => { const b = [...a]; for (let i = b.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [b[i], b[j]] = [b[j], b[i]]; } return b; };

// One named contraction: x over xDims, w over wDims, summed over `red`.
function named(dtype, sizes, xDims, wDims, red) {
  const x = { data: data(dtype, xDims.reduce((p, d) => p * sizes[d], 1)), shape: xDims.map((d) => sizes[d]), dims: xDims };
  const w = { data: data(dtype, wDims.reduce((p, d) => p * sizes[d], 1)), shape: wDims.map((d) => sizes[d]), dims: wDims };
  const text = `sum(x * w, [${red.map((d) => `'${d}'`).join(', ')}])`;
  return { x, w, text, want: () => tc.sum(tc.mul(x, w), { dims: red }) };
}

describe('contraction kernel: sum(x * w) bit for bit the ops one by one', () => {
  it('every dim order of x {b, in} and w {in, out}, float32 / float64 / int32 / uint32, K across the order boundaries', () => {
    let ran = 0;
    for (const dtype of ['float32', 'float64', 'int32', 'uint32']) {
      for (const K of [1, 7, 8, 9, 16, 17, 63, 200, 1023, 1025, 2100]) {
        const sizes = { b: pick([1, 3, 8, 9, 33]), in: K, out: pick([3, 8, 13, 40]) };
        for (const xDims of [['b', 'in'], ['in', 'b']]) for (const wDims of [['in', 'out'], ['out', 'in']]) {
          const c = named(dtype, sizes, xDims, wDims, ['in']);
          const info = tc.explain({ expression: c.text, shapes: { x: { shape: c.x.shape, dims: xDims }, w: { shape: c.w.shape, dims: wDims } }, dtypes: { x: dtype, w: dtype } });
          // The kernel runs where it beats the chunks (expr.cpp's cost model): from 8 rows on, always.
          if (sizes.b >= 8 && K > 1) expect(info.contraction, `${dtype} K=${K} ${xDims} ${wDims}`).not.toBeNull();
          if (info.contraction) {
            ran++;
            expect(info.contraction).toMatchObject({ order: 'col', m: sizes.b, k: K, n: sizes.out, a: 'x', b: 'w' });
          }
          sameBits(tc.evaluate(c.text, { x: c.x, w: c.w }), c.want(), `${dtype} K=${K} x{${xDims}} w{${wDims}}`);
        }
      }
    }
    expect(ran).toBeGreaterThan(40);
  });

  it('x {in, b}: its rows one element apart, packed 16 at a time (whole groups, a partial one, a partial tile)', () => {
    for (const dtype of ['float32', 'float64', 'int32']) {
      for (const b of [15, 16, 17, 31, 32, 35, 64]) {
        const K = pick([5, 64, 300]);
        const sizes = { b, in: K, out: pick([3, 8, 21]) };
        for (const wDims of [['in', 'out'], ['out', 'in']]) {
          const c = named(dtype, sizes, ['in', 'b'], wDims, ['in']);
          const info = tc.explain({ expression: c.text, shapes: { x: { shape: c.x.shape, dims: c.x.dims }, w: { shape: c.w.shape, dims: wDims } }, dtypes: { x: dtype, w: dtype } });
          expect(info.contraction, `${dtype} b=${b} K=${K}`).not.toBeNull();
          sameBits(tc.evaluate(c.text, { x: c.x, w: c.w }), c.want(), `${dtype} b=${b} K=${K} w{${wDims}}`);
        }
      }
    }
  });

  it('positional [M, 1, K] x [N, K] over the last axis: the row order (blocks, counter, lanes, tail)', () => {
    for (const dtype of ['float32', 'float64', 'int32']) {
      for (const K of [1, 5, 15, 16, 17, 64, 511, 512, 513, 1024, 1040, 3100, 5000]) {
        const M = pick([1, 3, 8, 11]), N = pick([2, 9, 17]);
        const a = { data: data(dtype, M * K), shape: [M, 1, K] }, b = { data: data(dtype, N * K), shape: [N, K] };
        const info = tc.explain({ expression: 'sum(a * b, [2])', shapes: { a: a.shape, b: b.shape }, dtypes: { a: dtype, b: dtype } });
        if (M >= 8 && N >= 9 && K > 1) expect(info.contraction, `${dtype} ${M} ${K} ${N}`).not.toBeNull();
        if (info.contraction) expect(info.contraction, `${dtype} ${M} ${K} ${N}`).toMatchObject({ order: 'row', m: M, k: K, n: N, a: 'a', b: 'b' });
        sameBits(tc.evaluate('sum(a * b, [2])', { a, b }), tc.sum(tc.mul(a, b), { axes: [2] }), `${dtype} [${M},1,${K}] x [${N},${K}]`);
        sameBits(tc.evaluate('sum(b * a, [-1])', { a, b }), tc.sum(tc.mul(b, a), { axes: [-1] }), `${dtype} b * a`);
      }
    }
  });

  it('random contractions: batched, two reduced dims, any dim order, keepdims', () => {
    let ran = 0;
    for (let t = 0; t < 60; t++) {
      const dtype = pick(['float32', 'float64', 'int32']);
      const sizes = { g: pick([1, 2, 3]), b: pick([1, 4, 6, 11]), i: pick([1, 3, 8, 20]), j: pick([2, 5, 9, 64]), o: pick([1, 7, 16, 24]) };
      const xDims = shuffle(pick([['b', 'i', 'j'], ['g', 'b', 'i', 'j'], ['b', 'i']]));
      const wDims = shuffle(pick([['i', 'j', 'o'], ['g', 'i', 'j', 'o'], ['i', 'o']]).filter((d) => d !== 'j' || xDims.includes('j')));
      const red = ['i', 'j'].filter((d) => xDims.includes(d) && wDims.includes(d));
      const c = named(dtype, sizes, xDims, wDims, red);
      const keepdims = rnd() < 0.3;
      const want = tc.sum(tc.mul(c.x, c.w), { dims: red, keepdims });
      const got = tc.evaluate(c.text, { x: c.x, w: c.w }, { keepdims });
      sameBits(got, want, `${dtype} x{${xDims}} w{${wDims}} over ${red} ${JSON.stringify(sizes)}`);
      expect(got.dims).toEqual(want.dims);
      const info = tc.explain({ expression: c.text, shapes: { x: { shape: c.x.shape, dims: xDims }, w: { shape: c.w.shape, dims: wDims } }, dtypes: { x: dtype, w: dtype } });
      if (info.contraction) ran++;
    }
    expect(ran).toBeGreaterThan(3);
  });

  it("the issue's shapes: batched [8, 128, 64] x [64, 128] and x {b, i, j} x w {i, j, o}", () => {
    for (const dtype of ['float32', 'float64', 'int32']) {
      const cases = [
        named(dtype, { g: 8, m: 128, k: 64, n: 128 }, ['g', 'm', 'k'], ['k', 'n'], ['k']),
        named(dtype, { b: 16, i: 12, j: 10, o: 24 }, ['b', 'i', 'j'], ['i', 'j', 'o'], ['i', 'j']),
      ];
      for (const c of cases) {
        const info = tc.explain({ expression: c.text, shapes: { x: { shape: c.x.shape, dims: c.x.dims }, w: { shape: c.w.shape, dims: c.w.dims } }, dtypes: { x: dtype, w: dtype } });
        expect(info.contraction, c.text).not.toBeNull();
        sameBits(tc.evaluate(c.text, { x: c.x, w: c.w }), c.want(), `${dtype} ${c.text}`);
      }
      // Positional batched: [8, 128, 64, 1] * [64, 128] over axis 2.
      const x = { data: data(dtype, 8 * 128 * 64), shape: [8, 128, 64, 1] }, w = { data: data(dtype, 64 * 128), shape: [64, 128] };
      expect(tc.explain({ expression: 'sum(x * w, [2])', shapes: { x: x.shape, w: w.shape }, dtypes: { x: dtype, w: dtype } }).contraction)
        .toMatchObject({ order: 'col', m: 1024, k: 64, n: 128 });
      sameBits(tc.evaluate('sum(x * w, [2])', { x, w }), tc.sum(tc.mul(x, w), { axes: [2] }), `${dtype} positional batched`);
    }
  });

  it('views (transposed, sliced, flipped operands), read in place by their strides', () => {
    for (const dtype of ['float32', 'float64']) {
      const A = tc.tensor(data(dtype, 40 * 30), [40, 30]);
      const W = tc.tensor(data(dtype, 30 * 50), [30, 50]);
      const views = [
        [A, W], [tc.transpose(tc.transpose(A)), W], [tc.flip(A, 1), tc.flip(W, 0)], [tc.slice(A, [1, 33]), W],
      ];
      for (const [x0, w0] of views) {
        const x = tc.expandDims(x0, 2), w = w0; // [M, K, 1] * [K, N] -> sum over axis 1
        const got = tc.evaluate('sum(x * w, [1])', { x, w });
        const want = tc.sum(tc.mul(x, w), { axes: [1] });
        sameBits({ shape: got.shape, data: got.toArray?.() ?? got.data }, { shape: want.shape, data: want.toArray?.() ?? want.data }, `${dtype} view`);
      }
      A.dispose(); W.dispose();
    }
  });

  it('leaves other shapes to the chunks: an element-wise product, a max, a vector times a matrix', () => {
    const none = (expression, shapes, dtypes) => expect(tc.explain({ expression, shapes, dtypes }).contraction, expression).toBeNull();
    none('sum(x * w, [1])', { x: [64, 64], w: [64, 64] });                  // both read every output axis
    none('max(x * w, [1])', { x: [64, 64, 1], w: [64, 64] });                // not a sum
    none('sum(x * w + 1, [1])', { x: [64, 64, 1], w: [64, 64] });            // not a bare product
    none('sum(x * w, [1])', { x: [1, 64, 1], w: [64, 1024] }, { x: 'float16', w: 'float16' }); // float16's chunks are faster here too
    none("sum(x * w, ['in'])", { x: { shape: [1, 64], dims: ['b', 'in'] }, w: { shape: [64, 64], dims: ['in', 'out'] } });
    none('sum(x * w, [1])', { x: [1024, 1024], w: [1024] }); // a matrix times a vector: the chunks are faster
    none('sum(x * w, [0])', { x: [1024, 1024], w: [1024, 1] });
  });

  it('the col order leaves fewer than 4 rows to the chunks at every size (docs/expressions.md), 4 rows run', () => {
    // A vector times a matrix far past 8192 multiply-adds stays on the chunks, as do 2 and 3 rows.
    for (const dtype of ['float32', 'float64', 'int32', 'uint32']) {
      for (const [M, K, N] of [[1, 128, 128], [1, 4096, 4096], [2, 1024, 1024], [3, 4096, 64]]) {
        const dtypes = { x: dtype, w: dtype };
        expect(tc.explain({ expression: 'sum(x * w, [1])', shapes: { x: [M, K, 1], w: [K, N] }, dtypes }).contraction, `${dtype} ${M} ${K} ${N}`).toBeNull();
        expect(tc.explain({ expression: "sum(x * w, ['in'])", shapes: { x: { shape: [M, K], dims: ['b', 'in'] }, w: { shape: [N, K], dims: ['out', 'in'] } }, dtypes }).contraction).toBeNull();
      }
      expect(tc.explain({ expression: 'sum(x * w, [1])', shapes: { x: [4, 1024, 1], w: [1024, 1024] }, dtypes: { x: dtype, w: dtype } }).contraction)
        .toMatchObject({ order: 'col', m: 4, k: 1024, n: 1024 });
    }
  });
});

// float16 through the contraction kernel: operands packed as float32, each
// product rounded to float16 as the float16 mul stores it, k in the parts the
// float16 sum converts (a row 8192 terms, a column 8192 / min(columns, 1024)
// rows) combined as its pairs are, each result rounded once: the bits of
// sum(mul(x, w)) called one by one, except the sign of a NaN a sum meets
// (which NaN an addition of two keeps is not fixed in WebAssembly).
describe('contraction kernel, float16: the bits of mul then sum in float16', () => {
  const SPECIAL = [0, -0, 65504, -65504, 300, -256, 6e-8, -6e-5, 2 ** -14, Infinity, -Infinity, NaN];
  // float16 bits of values spread over float16's range, some special.
  const half = (shape, special) => {
    const n = shape.reduce((p, d) => p * d, 1);
    const f = new Float32Array(n);
    for (let i = 0; i < n; i++) f[i] = special && rnd() < 0.04 ? pick(SPECIAL) : (rnd() * 2 - 1) * 2 ** Math.floor(rnd() * 24 - 14);
    return tc.cast({ data: f, shape }, 'float16').data;
  };
  const isNaN16 = (v) => (v & 0x7c00) === 0x7c00 && (v & 0x3ff) !== 0;
  function sameHalves(got, want, what) {
    expect(got.shape, what).toEqual(want.shape);
    expect(got.dtype, what).toBe('float16');
    const g = got.data, w = want.data;
    let first = -1;
    for (let i = 0; i < g.length && first < 0; i++) if (g[i] !== w[i] && !(isNaN16(g[i]) && isNaN16(w[i]))) first = i;
    expect(first, `${what}: first differing element (${g[first]?.toString(16)} against ${w[first]?.toString(16)})`).toBe(-1);
  }
  const T = (shape, dims, special) => ({ data: half(shape, special), shape, dtype: 'float16', ...(dims ? { dims } : {}) });
  // Where the order of the float32 sums shows in float16: small terms (about
  // 2^-5), with two of +-2^14 times the same w that cancel: between them the
  // small ones lose bits to the large partial sum, differently in another order.
  // a [M, K] (x, row-major), b [K, N] (w, row-major), as float32 values.
  function cancelling(M, K, N) {
    const a = new Float32Array(M * K), b = new Float32Array(K * N);
    for (let i = 0; i < a.length; i++) a[i] = (rnd() * 2 - 1) * 0.25;
    for (let i = 0; i < b.length; i++) b[i] = 0.125 + rnd() * 0.125;
    for (let m = 0; m < M && K >= 4; m++) {
      const k1 = Math.floor(rnd() * (K / 2)), k2 = K - 1 - Math.floor(rnd() * (K / 2 - 1));
      a[m * K + k1] = 2 ** 14;
      a[m * K + k2] = -(2 ** 14);
      for (let n = 0; n < N; n++) b[k2 * N + n] = b[k1 * N + n];
    }
    return { a, b };
  }
  const f16 = (data, shape, dims) => ({ ...tc.cast({ data, shape }, 'float16'), ...(dims ? { dims } : {}) });
  const transposed = (v, R, C) => { const t = new Float32Array(R * C); for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) t[c * R + r] = v[r * C + c]; return t; };
  const F16 = { x: 'float16', w: 'float16' };

  it('col order: every dim order, K across the parts of 8192 / min(columns, 1024) rows, special values', () => {
    let ran = 0;
    // columns 3: parts of 2730 rows; 40: 204; 1100: 8 (and 2 tiles of blocks)
    for (const [K, out] of [[1, 8], [7, 40], [16, 3], [17, 40], [204, 40], [205, 40], [409, 40], [2730, 3], [2731, 3], [5461, 3], [8200, 3], [7, 1100], [8, 1100], [9, 1100], [17, 1100], [100, 1100]]) {
      const sizes = { b: pick([8, 9, 13]), in: K, out };
      for (const xDims of [['b', 'in'], ['in', 'b']]) for (const wDims of [['in', 'out'], ['out', 'in']]) {
        const special = rnd() < 0.5;
        const x = T(xDims.map((d) => sizes[d]), xDims, special), w = T(wDims.map((d) => sizes[d]), wDims, special);
        const text = "sum(x * w, ['in'])";
        const info = tc.explain({ expression: text, shapes: { x: { shape: x.shape, dims: xDims }, w: { shape: w.shape, dims: wDims } }, dtypes: F16 });
        if (K > 1) expect(info.contraction, `K=${K} out=${out} ${xDims} ${wDims}`).toMatchObject({ order: 'col', m: sizes.b, k: K, n: out });
        if (info.contraction) ran++;
        sameHalves(tc.evaluate(text, { x, w }), tc.sum(tc.mul(x, w), { dims: ['in'] }), `K=${K} out=${out} x{${xDims}} w{${wDims}} special=${special}`);
      }
      const c = cancelling(sizes.b, K, out);
      const cx = f16(c.a, [sizes.b, K], ['b', 'in']), cw = f16(c.b, [K, out], ['in', 'out']);
      sameHalves(tc.evaluate("sum(x * w, ['in'])", { x: cx, w: cw }), tc.sum(tc.mul(cx, cw), { dims: ['in'] }), `cancelling K=${K} out=${out}`);
    }
    expect(ran).toBeGreaterThan(50);
  });

  it('row order: [M, 1, K] x [N, K] with K across the parts of 8192 terms', () => {
    for (const K of [5, 64, 1040, 8191, 8192, 8193, 16384, 16400, 24577, 40000]) {
      const M = pick([4, 8, 9]), N = pick([2, 9]);
      const a = T([M, 1, K], null, rnd() < 0.5), b = T([N, K], null, rnd() < 0.5);
      expect(tc.explain({ expression: 'sum(a * b, [2])', shapes: { a: a.shape, b: b.shape }, dtypes: { a: 'float16', b: 'float16' } }).contraction, `K=${K}`)
        .toMatchObject({ order: 'row', m: M, k: K, n: N });
      sameHalves(tc.evaluate('sum(a * b, [2])', { a, b }), tc.sum(tc.mul(a, b), { axes: [2] }), `[${M},1,${K}] x [${N},${K}]`);
      const c = cancelling(M, K, N);
      const ca = f16(c.a, [M, 1, K]), cb = f16(transposed(c.b, K, N), [N, K]);
      sameHalves(tc.evaluate('sum(a * b, [2])', { a: ca, b: cb }), tc.sum(tc.mul(ca, cb), { axes: [2] }), `cancelling [${M},1,${K}] x [${N},${K}]`);
    }
  });

  it('each product rounded as mul rounds it: ties to even, overflow to Infinity, subnormal steps, -0', () => {
    // Every x value times every w value, twice (K = 2): the result is twice the
    // product as mul stores it, which a product rounded on another step misses.
    const xs = [1 + 2 ** -10, 255.9, 65504, 300, 2 ** -14, 3 * 2 ** -24, 5 * 2 ** -24, -0, 1.5 * 2 ** -12, -1 - 2 ** -10, 32768];
    const ws = [1 + 2 ** -10, 256.1, 1.0009765625, -300, 2 ** -10, 0.5, 7, 2 ** -12, 1 - 2 ** -11, 2, -0.75];
    const M = xs.length, N = ws.length;
    const x = tc.cast({ data: Float32Array.from({ length: M * 2 }, (_, i) => xs[i >> 1]), shape: [M, 2], dims: ['b', 'in'] }, 'float16');
    const w = tc.cast({ data: Float32Array.from({ length: 2 * N }, (_, i) => ws[i % N]), shape: [2, N], dims: ['in', 'out'] }, 'float16');
    expect(tc.explain({ expression: "sum(x * w, ['in'])", shapes: { x: { shape: x.shape, dims: x.dims }, w: { shape: w.shape, dims: w.dims } }, dtypes: F16 }).contraction).not.toBeNull();
    sameHalves(tc.evaluate("sum(x * w, ['in'])", { x, w }), tc.sum(tc.mul(x, w), { dims: ['in'] }), 'each product twice');
  });

  it('every float16 value times 48 others: one product a result, and that product twice', () => {
    // x: all 65,536 float16 bit patterns (NaN and Infinity too); w: specials, a
    // tie maker (1 + 2^-10 squared is halfway), powers of two that shift products
    // into and out of the subnormals and past 65504, and random values.
    const xs = new Uint16Array(65536).map((_, i) => i);
    const wf = [0, -0, 1, -1, 0.5, 2, 1 + 2 ** -10, 1 - 2 ** -11, 1.5, 3, 2 ** -10, 2 ** -14, 2 ** -24, 2 ** 10, 2 ** 15, -(2 ** 15), 65504, Infinity, -Infinity, NaN];
    while (wf.length < 48) wf.push((rnd() * 2 - 1) * 2 ** Math.floor(rnd() * 30 - 15));
    const w16 = tc.cast({ data: Float32Array.from(wf), shape: [48] }, 'float16').data;
    const N = w16.length;
    const one = tc.cast({ data: Float32Array.of(1), shape: [1] }, 'float16').data[0];
    for (const twice of [false, true]) {
      // Two terms a result (one reduced element is no contraction): x (v, 0) and w (c, 1), so a result
      // is the stored product v c; or x (v, v) and w (c, c), twice that product (a product rounded on
      // a finer step than float16's shows there, where the result's own rounding hides it).
      const x = { data: new Uint16Array(65536 * 2).map((_, i) => (i % 2 && !twice ? 0 : xs[i >> 1])), shape: [65536, 2], dtype: 'float16', dims: ['b', 'in'] };
      const w = { data: new Uint16Array(2 * N).map((_, i) => (i >= N && !twice ? one : w16[i % N])), shape: [2, N], dtype: 'float16', dims: ['in', 'out'] };
      expect(tc.explain({ expression: "sum(x * w, ['in'])", shapes: { x: { shape: x.shape, dims: x.dims }, w: { shape: w.shape, dims: w.dims } }, dtypes: F16 }).contraction, `twice=${twice}`).not.toBeNull();
      sameHalves(tc.evaluate("sum(x * w, ['in'])", { x, w }), tc.sum(tc.mul(x, w), { dims: ['in'] }), `every float16 value, twice=${twice}`);
    }
  });

  it('batched, two reduced dims, resident operands into a resident out, and a view', () => {
    for (let t = 0; t < 12; t++) {
      const sizes = { g: pick([1, 3]), b: pick([4, 11]), i: pick([3, 20, 300]), j: pick([2, 9]), o: pick([7, 24, 1100]) };
      const xDims = shuffle(['g', 'b', 'i', 'j']), wDims = shuffle(['i', 'j', 'o']);
      const x = T(xDims.map((d) => sizes[d]), xDims, t % 3 === 0), w = T(wDims.map((d) => sizes[d]), wDims, t % 3 === 0);
      sameHalves(tc.evaluate("sum(x * w, ['i', 'j'])", { x, w }), tc.sum(tc.mul(x, w), { dims: ['i', 'j'] }), `x{${xDims}} w{${wDims}} ${JSON.stringify(sizes)}`);
    }
    const X = tc.tensor(half([40, 60], false), [40, 60], { dtype: 'float16' });
    const W = tc.tensor(half([30, 50], false), [30, 50], { dtype: 'float16' });
    const x = tc.expandDims(tc.slice(X, ':, 0:60:2'), 2); // [40, 30, 1], every second column: a view
    const want = tc.sum(tc.mul(x, W), { axes: [1] });
    const out = tc.tensor(new Uint16Array(40 * 50), [40, 50], { dtype: 'float16' });
    expect(tc.explain({ expression: 'sum(x * w, [1])', shapes: { x: x.shape, w: W.shape }, dtypes: { x: 'float16', w: 'float16' } }).contraction).not.toBeNull();
    expect(tc.evaluate('sum(x * w, [1])', { x, w: W }, { out })).toBe(out);
    sameHalves({ shape: out.shape, dtype: out.dtype, data: out.toArray() }, { shape: want.shape, dtype: want.dtype, data: want.toArray() }, 'a view into a resident out');
    for (const r of [X, W, x, want, out]) r.dispose();
  });
});

// Product rows (src/kernels/reduce_wasmsimd.cpp simd_product_row_f32): a
// float32 bilinear form, sum((p * q) * r) over the last axes with p one value
// along the last of them and q and r contiguous there, summed as the terms are
// made; each result the op-by-op row sum of its terms, bit for bit.
describe('product rows: sum(x * w * y) bit for bit the ops one by one', () => {
  const f32 = (n, special) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = special && rnd() < 0.1 ? pick([0, -0, NaN, Infinity, -Infinity, 3e38, -1e-40]) : (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 5 - 2);
    return a;
  };
  const T = (shape, dims, special) => ({ data: f32(shape.reduce((p, d) => p * d, 1), special), shape, ...(dims ? { dims } : {}) });
  // The op-by-op result of each form (its own association), and whether product rows take it.
  const FORMS = [
    ['x * w * y', (x, w, y) => tc.mul(tc.mul(x, w), y), true],
    ['w * x * y', (x, w, y) => tc.mul(tc.mul(w, x), y), true], // named: the root's dims start from w's, {i, j, b}: the reduced ones first (the column order) unless b is 1
    ['x * (w * y)', (x, w, y) => tc.mul(x, tc.mul(w, y)), false], // the splat factor is the outer one: the chunks
    ['y * w * x', (x, w, y) => tc.mul(tc.mul(y, w), x), false],
  ];

  it('named x {b, i} · w {i, j} · y {b, j} over i and j: every form, batch dims, keepdims, J across multiples of 16', () => {
    let ran = 0;
    for (const J of [15, 16, 17, 32, 48, 64, 100, 256]) {
      for (const I of [1, 2, 5, 17]) {
        const B = pick([1, 3, 8]);
        const G = pick([0, 2]); // a second kept dim, before b
        const bd = G ? ['g', 'b'] : ['b'], bs = G ? [G, B] : [B];
        const x = T([...bs, I], [...bd, 'i'], J === 48);
        const w = T([I, J], ['i', 'j'], J === 48);
        const y = T([...bs, J], [...bd, 'j'], J === 48);
        for (const [text, ops, takes] of FORMS) {
          const expr = `sum(${text}, ['i', 'j'])`;
          const keepdims = rnd() < 0.3;
          const info = tc.explain({ expression: expr, shapes: { x: { shape: x.shape, dims: x.dims }, w: { shape: w.shape, dims: w.dims }, y: { shape: y.shape, dims: y.dims } } });
          const keptLast = text.startsWith('w') && bs.some((d) => d > 1);
          if (takes && J % 16 === 0 && !keptLast) {
            expect(info.contraction, `${expr} I=${I} J=${J}`).toMatchObject({ order: 'row', m: bs.reduce((p, d) => p * d, 1), k: I * J, n: 1, a: 'x', b: 'w', c: 'y', panel: null });
            ran++;
          } else {
            expect(info.contraction, `${expr} I=${I} J=${J}`).toBeNull();
          }
          const got = tc.evaluate(expr, { x, w, y }, keepdims ? { keepdims } : undefined);
          sameBits(got, tc.sum(ops(x, w, y), { dims: ['i', 'j'], keepdims }), `${expr} B=${bs} I=${I} J=${J}`);
        }
      }
    }
    expect(ran).toBeGreaterThan(20);
  });

  it('positional, resident, into out, over a view, and a sum of -0 terms is +0', () => {
    // [B, I, 1] * [I, J] * [B, 1, J] over axes 1 and 2
    const B = 9, I = 7, J = 32;
    const X = tc.tensor(f32(B * I * 2), [B, I, 2]);
    const x = tc.slice(X, ':, :, 0:1'); // every second element: a view, one value along j
    const w = tc.tensor(f32(I * J), [I, J]);
    const y = tc.tensor(f32(B * J), [B, 1, J]);
    const info = tc.explain({ expression: 'sum(x * w * y, [1, 2])', shapes: { x: x.shape, w: w.shape, y: y.shape } });
    expect(info.contraction).toMatchObject({ m: B, k: I * J, a: 'x', b: 'w', c: 'y' });
    const want = tc.sum(tc.mul(tc.mul(x, w), y), { axes: [1, 2] });
    const out = tc.tensor(new Float32Array(B), [B]);
    expect(tc.evaluate('sum(x * w * y, [1, 2])', { x, w, y }, { out })).toBe(out);
    sameBits({ shape: out.shape, data: out.toArray() }, { shape: want.shape, data: want.toArray() }, 'positional, view, out');
    // w * x: the factors of the inner product trade places (the same bits)
    expect(tc.explain({ expression: 'sum(w * x * y, [1, 2])', shapes: { x: x.shape, w: w.shape, y: y.shape } }).contraction).toMatchObject({ a: 'x', b: 'w', c: 'y' });
    const swapped = tc.evaluate('sum(w * x * y, [1, 2])', { x, w, y });
    const wantSwapped = tc.sum(tc.mul(tc.mul(w, x), y), { axes: [1, 2] });
    sameBits({ shape: swapped.shape, data: swapped.toArray() }, { shape: wantSwapped.shape, data: wantSwapped.toArray() }, 'positional w * x * y');
    // Every term -0: the sum is +0 (the row sum starts from -0, then + 0 as run_reduce does).
    const z = tc.evaluate('sum(x * w * y, [1, 2])', { x: tc.tensor(new Float32Array(B * I).fill(-0), [B, I, 1]), w: tc.tensor(new Float32Array(I * J).fill(1), [I, J]), y: tc.tensor(new Float32Array(B * J).fill(1), [B, 1, J]) });
    expect(Array.from(z.toArray()).every((v) => Object.is(v, 0))).toBe(true);
    for (const t of [X, x, w, y, out, want, z, swapped, wantSwapped]) t.dispose();
  });

  it('leaves the rest to the chunks: float64, a mean, a kept axis after the reduced ones, a factor not contiguous along the run', () => {
    const none = (expression, shapes, dtypes) => expect(tc.explain({ expression, shapes, dtypes }).contraction, expression).toBeNull();
    none('sum(x * w * y, [1, 2])', { x: [8, 4, 1], w: [4, 32], y: [8, 1, 32] }, { x: 'float64', w: 'float64', y: 'float64' });
    none('mean(x * w * y, [1, 2])', { x: [8, 4, 1], w: [4, 32], y: [8, 1, 32] });
    none('sum(x * w * y, [0, 1])', { x: [4, 1, 8], w: [4, 32, 1], y: [1, 32, 8] });  // the kept axis last
    none("sum(x * w * y, ['i', 'j'])", { x: { shape: [8, 4], dims: ['b', 'i'] }, w: { shape: [32, 4], dims: ['j', 'i'] }, y: { shape: [8, 32], dims: ['b', 'j'] } }); // w {j, i}: 4 apart along j
  });
});

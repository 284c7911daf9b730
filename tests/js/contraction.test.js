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

  it('leaves other shapes to the chunks: an element-wise product, a max, a float16 sum, a vector times a matrix', () => {
    const none = (expression, shapes, dtypes) => expect(tc.explain({ expression, shapes, dtypes }).contraction, expression).toBeNull();
    none('sum(x * w, [1])', { x: [64, 64], w: [64, 64] });                  // both read every output axis
    none('max(x * w, [1])', { x: [64, 64, 1], w: [64, 64] });                // not a sum
    none('sum(x * w + 1, [1])', { x: [64, 64, 1], w: [64, 64] });            // not a bare product
    none('sum(x * w, [1])', { x: [64, 64, 1], w: [64, 64] }, { x: 'float16', w: 'float16' });
    none("sum(x * w, ['in'])", { x: { shape: [1, 64], dims: ['b', 'in'] }, w: { shape: [64, 64], dims: ['in', 'out'] } });
    none('sum(x * w, [1])', { x: [1024, 1024], w: [1024] }); // a matrix times a vector: the chunks are faster
    none('sum(x * w, [0])', { x: [1024, 1024], w: [1024, 1] });
  });
});

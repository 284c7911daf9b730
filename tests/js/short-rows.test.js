// Short rows (an inner axis under 16 elements: RGB pixels, xyz points, a
// [N,3] + [3] bias) go 32 rows to a kernel call, every operand gathered into
// rows one after another first (a row repeated down the rows copied in
// doubling runs, a transposed operand through the 4x4 block gather); and a
// transposed float32 operand goes through those blocks at any length. Each
// case against the element-by-element oracle of data-oracle.js: every dtype,
// arithmetic, boolean and bitwise ops, the row counts on both sides of a tile
// (32) and its remainders, operands broadcast along either axis, plain and
// strided (transposed, flipped) operands, a typed out and a resident result.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { DTYPES, rng, randomArray, apply, same, defined, product } from './data-oracle.js';

beforeAll(async () => { await tc.init(); });

const OPS = ['add', 'sub', 'mul', 'div', 'rem', 'maximum', 'equal', 'less', 'logicalAnd', 'bitwiseXor'];

/**
 * An operand of the [R, L] result over fresh random data: `shape` one of
 * [R, L], [1, L], [R, 1], [L]; `kind` plain (row-major), transposed (its data
 * laid out [L, R]) or flipped (its rows in reverse order). `at` = its element
 * strides along the result's two axes (0 where it is stretched).
 */
function operand(r, dt, op, role, shape, kind, R, L) {
  const data = randomArray(r, dt, product(shape), op, role);
  const rows = shape.length === 2 ? shape[0] : 1;
  const len = shape.at(-1);
  const z = (d, st) => (d === 1 ? 0 : st);
  if (kind === 'transposed') return { arg: { data, shape, strides: [1, rows], offset: 0 }, data, offset: 0, at: [z(rows, 1), z(len, rows)] };
  if (kind === 'flipped') return { arg: { data, shape, strides: [-len, 1], offset: (rows - 1) * len }, data, offset: (rows - 1) * len, at: [z(rows, -len), z(len, 1)] };
  return { arg: { data, shape }, data, offset: 0, at: [z(rows, len), z(len, 1)] };
}

describe('short rows and transposed float32 operands', () => {
  it('[R, L] op [R, L] / [1, L] / [R, 1] / [L] (either side), L 1-17, R 1-70, every dtype: plain, transposed and flipped operands equal the oracle', () => {
    const r = rng(20261129);
    let cases = 0;
    for (let trial = 0; trial < 900; trial++) {
      const dt = r.pick(DTYPES);
      const op = r.pick(OPS);
      if (!defined(dt, op)) continue;
      const R = r.pick([1, 2, 3, 5, 31, 32, 33, 36, 70]);
      const L = r.int(1, 17);
      const form = r.int(0, 3);
      const shapeY = form === 0 ? [R, L] : form === 1 ? [1, L] : form === 2 ? [R, 1] : [L];
      const kx = r.pick(['plain', 'transposed', 'flipped']);
      const ky = shapeY.length === 2 ? r.pick(['plain', 'transposed', 'flipped']) : 'plain';
      const x = operand(r, dt, op, 'a', [R, L], kx, R, L);
      const y = operand(r, dt, op, 'b', shapeY, ky, R, L);
      const [a, b] = r() < 0.5 ? [x, y] : [y, x];
      const want = [];
      for (let e = 0; e < R * L; e++) {
        const i = Math.floor(e / L), j = e % L;
        want.push(apply(dt, op, a.data[a.offset + i * a.at[0] + j * a.at[1]], b.data[b.offset + i * b.at[0] + j * b.at[1]]));
      }
      const got = tc[op](a.arg, b.arg);
      expect(got.shape).toEqual([R, L]);
      const bad = [];
      for (let e = 0; e < want.length && bad.length < 4; e++) if (!same(dt, op, got.data[e], want[e])) bad.push([e, got.data[e], want[e]]);
      expect([dt, op, a.arg.shape, b.arg.shape, kx, ky, bad]).toEqual([dt, op, a.arg.shape, b.arg.shape, kx, ky, []]);
      cases++;
    }
    expect(cases).toBeGreaterThan(600);
  });

  it('a resident [R, 3] + [3] and a transposed resident [3, R] view, into a fresh result and into out', () => {
    for (const R of [1, 4, 31, 33, 1000]) {
      const xs = Float32Array.from({ length: R * 3 }, (_, i) => (i % 97) - 40.5);
      const x = tc.tensor(xs, [R, 3]);
      const bias = tc.tensor(new Float32Array([0.25, -1, 3]), [3]);
      const s = tc.add(x, bias);
      expect(Array.from(s.toArray())).toEqual(Array.from(xs, (v, i) => Math.fround(v + [0.25, -1, 3][i % 3])));
      const t = tc.tensor(xs, [3, R]).transpose(); // [R, 3], element [i, c] = xs[c * R + i]
      const o = tc.tensor(new Float32Array(R * 3), [R, 3]);
      tc.mul(t, bias, { out: o });
      expect(Array.from(o.toArray())).toEqual(Array.from({ length: R * 3 }, (_, k) => Math.fround(xs[(k % 3) * R + Math.floor(k / 3)] * [0.25, -1, 3][k % 3])));
      const c = tc.less(t, bias); // a boolean result, one byte an element
      expect(Array.from(c.data ?? c.toArray())).toEqual(Array.from({ length: R * 3 }, (_, k) => (xs[(k % 3) * R + Math.floor(k / 3)] < [0.25, -1, 3][k % 3] ? 1 : 0)));
      for (const z of [x, bias, s, t, o, c]) z.dispose();
    }
  });
});

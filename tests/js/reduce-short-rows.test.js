// Reductions along many short rows (fewer than 64 bytes each: an image's
// channels, a point's coordinates, a few class scores) go through tiles
// transposed into scratch and reduced as columns, a kernel call per tile
// (reduce_driver.cpp). The row kernel folds such a row element by element in
// order, and so does the column leaf: the results must be exactly those of
// the same reduction of each row alone (one row takes the row kernel).
// Every dtype and op, rows of 1 to past 64 bytes, row counts on both sides of
// the 8-row threshold and of a tile, plain and strided (transposed, stepped,
// flipped) operands, and the special values (NaN, -0, Infinity, wrapping).
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { DTYPES, CTORS, rng, randomArray } from './data-oracle.js';

beforeAll(async () => { await tc.init(); });

const OPS = ['sum', 'prod', 'min', 'max', 'mean'];
// Bits, a NaN as 'NaN': which NaN an engine's min, max or add returns (its sign) is the engine's
// (x64's default NaN is negative; the column reductions always gave it), no part of the contract.
const bits = (a) => Array.from(a instanceof Float32Array ? new Uint32Array(a.buffer, a.byteOffset, a.length)
  : a instanceof Float64Array ? new BigUint64Array(a.buffer, a.byteOffset, a.length) : a, String)
  .map((b, i) => (typeof a[i] === 'number' && Number.isNaN(a[i]) ? 'NaN' : b));

/** [R, L] data of dtype dt as a plain operand: row-major, transposed ([L, R] data), stepped (every other column of [R, 2L]) or flipped rows. */
function operand(data, R, L, kind) {
  if (kind === 'transposed') return { data, shape: [R, L], strides: [1, R], offset: 0 };
  if (kind === 'stepped') return { data, shape: [R, L], strides: [2 * L, 2], offset: 1 };
  if (kind === 'flipped') return { data, shape: [R, L], strides: [-L, 1], offset: (R - 1) * L };
  return { data, shape: [R, L] };
}

/** Row i of operand o, as its own [1, L] array (the elements the view reads, in order). */
function row(o, dt, i, L) {
  const st = o.strides ?? [L, 1];
  const off = o.offset ?? 0;
  const r = new CTORS[dt](L);
  for (let j = 0; j < L; j++) r[j] = o.data[off + i * st[0] + j * st[1]];
  return { data: r, shape: [1, L] };
}

describe('reductions along many short rows', () => {
  it('sum, prod, min, max and mean over the last axis of [R, L] (L 1 to past 64 bytes, R 7 to 3000), every dtype, plain and strided: each row\'s own reduction, bit for bit', () => {
    const r = rng(20261130);
    let cases = 0;
    let rowsChecked = 0;
    for (let trial = 0; trial < 260; trial++) {
      const dt = r.pick(DTYPES);
      const op = r.pick(OPS);
      const es = CTORS[dt].BYTES_PER_ELEMENT;
      const L = r.int(1, Math.min(64 / es + 2, 70));
      const R = r.pick([7, 8, 9, 31, 64, 300, 3000]);
      const kind = r.pick(['plain', 'plain', 'transposed', 'stepped', 'flipped']);
      const n = kind === 'stepped' ? R * 2 * L : R * L;
      const data = randomArray(r, dt, n, 'add', 'a');
      if (dt === 'float32' || dt === 'float64') {
        // NaN, -0, +-Infinity now and then, zero rows (their sum's sign), big values (their product overflows)
        for (let k = 0; k < n; k += r.int(1, 40)) data[k] = r.pick([NaN, -0, 0, Infinity, -Infinity, 1e30, -1e-30]);
        if (R > 8) for (let j = 0; j < L; j++) data[j] = -0;
      }
      const x = operand(data, R, L, kind);
      let got;
      try {
        got = tc[op](x, { axes: [1] });
      } catch (e) {
        // a dtype an op refuses (mean of integers, say) is refused for a single row too
        expect(() => tc[op](row(x, dt, 0, L), { axes: [1] }), `${op} ${dt}`).toThrow(e.constructor);
        continue;
      }
      cases++;
      expect(got.shape, `${op} ${dt} [${R}, ${L}] ${kind}`).toEqual([R]);
      const step = R > 64 ? r.int(1, 29) : 1;
      for (let i = 0; i < R; i += step) {
        const want = tc[op](row(x, dt, i, L), { axes: [1] }).data;
        expect(bits(got.data.subarray(i, i + 1)), `${op} ${dt} [${R}, ${L}] ${kind}, row ${i}`).toEqual(bits(want));
        rowsChecked++;
      }
    }
    expect(cases).toBeGreaterThan(150);
    expect(rowsChecked).toBeGreaterThan(3000);
  });

  it('resident rows, keepdims and a kept outer axis: [S, R, L] over its last axis, into a resident out', () => {
    const S = 3, R = 500, L = 3;
    const data = Float32Array.from({ length: S * R * L }, (_, i) => Math.sin(i * 0.7) * 1e3 + (i % 11) * 1e-4);
    const t = tc.tensor(data, [S, R, L]);
    const out = tc.tensor(new Float32Array(S * R), [S, R, 1]);
    for (const op of ['sum', 'max', 'mean']) {
      tc[op](t, { axes: [-1], keepdims: true, out });
      const got = out.toArray();
      for (let s = 0; s < S; s++) {
        for (let i = 0; i < R; i += 7) {
          const at = (s * R + i) * L;
          const want = tc[op]({ data: data.slice(at, at + L), shape: [L] }).data;
          expect(bits(got.subarray(s * R + i, s * R + i + 1)), `${op} [${s}, ${i}]`).toEqual(bits(want));
        }
      }
    }
    t.dispose();
    out.dispose();
  });
});

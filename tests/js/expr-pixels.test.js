// The pixel path (issue 38): casts from and to uint8clamped and uint8 in
// generated code, and uint8clamped element-wise ops there. Every result is
// checked bit for bit against the op-by-op calls (tc.cast, tc.add, ...) over
// arrays holding every edge value (NaN, +-Infinity, +-0, the .5 ties around
// 0 and 255, negatives, > 255) and random values, for contiguous, broadcast
// (inner stride 0) and strided-inner (named operands reordered) reads; and the
// expression must run as generated code (it ran in the block interpreter before).
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const ARRAY = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array,
  uint8clamped: Uint8ClampedArray, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
};
const FLOATS = ['float32', 'float64', 'float16'];
const INTS = ['int8', 'int16', 'int32', 'uint16', 'uint32'];
const BYTES = ['uint8clamped', 'uint8'];

// A deterministic generator (xorshift32).
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}
const EDGES = [NaN, Infinity, -Infinity, 0, -0, 0.5, 1.5, 2.5, 3.5, 127.5, 128.5, 253.5, 254.5, 255.5, 256.5, -0.5, -1.5,
  -0.49999997, 0.49999997, 0.5000001, 254.49998, 254.50002, 255, 256, 257, 300, 65535.5, 65536, -1, -128, -129, 127, 128,
  2147483647, 2147483648, 4294967296, -2147483649, 1e10, -1e10, 3.4e38, -3.4e38, 1e300, 1e-40, 5e-324, 1, 2, 254, 253.9];

/** n elements of dtype d: the edges (stored as a typed array of d stores them, or cast for floats) then random ones. */
function values(d, n, seed) {
  const r = rng(seed);
  if (FLOATS.includes(d)) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (i < EDGES.length) v[i] = EDGES[i];
      else {
        const k = r();
        v[i] = k < 0.3 ? Math.floor(r() * 600 - 200) + 0.5 : k < 0.6 ? r() * 600 - 200 : k < 0.8 ? Math.floor(r() * 300) : (r() - 0.5) * 1e6;
      }
    }
    return tc.cast({ data: v, shape: [n], dtype: 'float64' }, d).data;
  }
  const a = new ARRAY[d](n);
  const bytes = new Uint8Array(a.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (r() * 256) | 0;
  const ed = [0, 1, -1, 127, 128, 255, 256, -128, -129, 254, 32767, -32768, 65535, 65536, 2147483647, -2147483648, 4294967295];
  for (let i = 0; i < ed.length && i < n; i++) a[i] = ed[i];
  if (d === 'uint8clamped') for (let i = 0; i < n; i++) if (r() < 0.1) a[i] = [0, 255, 1, 254][i & 3];
  return a;
}

const arr = (x) => (x instanceof tc.Tensor ? x.toArray() : x.data);
function same(a, b) {
  expect(a.dtype).toBe(b.dtype);
  expect(a.shape).toEqual(b.shape);
  const x = arr(a), y = arr(b);
  expect(x.length).toBe(y.length);
  for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) expect(`element ${i}: ${x[i]}`).toBe(`${y[i]}`);
}
const op = (data, shape, dtype, extra) => ({ data, shape, dtype, ...extra });
function execution(expression, shapes, dtypes) {
  return tc.explain({ expression, shapes, dtypes }).execution;
}
// Where the generator takes the pair (float16 stays with the interpreter).
const generated = (...ds) => !ds.includes('float16');

const N = 203; // an unrolled step, single vectors and a scalar tail (4- and 8-byte lanes)

describe('cast to and from uint8clamped / uint8: every pair, contiguous', () => {
  for (const B of BYTES) {
    for (const F of [...FLOATS, ...INTS, ...BYTES.filter((d) => d !== B)]) {
      it(`${F} -> ${B} and ${B} -> ${F}`, () => {
        for (const [from, to] of [[F, B], [B, F]]) {
          const x = op(values(from, N, 7 + from.length), [N], from);
          const e = `cast(x, '${to}')`;
          same(tc.evaluate(e, { x }), tc.cast(x, to));
          if (generated(from, to)) expect(execution(e, { x: [N] }, { x: from }), `${from} -> ${to}`).toBe('generated');
        }
        // uint8clamped in the pair: generated now (not before)
        expect(execution(`cast(x, '${B}') + cast(y, '${B}')`, { x: [N], y: [N] }, { x: 'uint8clamped', y: 'uint8clamped' }))
          .toBe('generated');
      });
    }
  }
});

describe('cast to and from uint8clamped / uint8: broadcast (inner stride 0) and strided inner reads', () => {
  for (const F of ['float32', 'float64', 'int32', 'uint32', 'int8', 'uint16']) {
    it(`${F} <-> uint8clamped and uint8, x [n, 1] against [1, k], and reordered named operands`, () => {
      for (const B of BYTES) {
        for (const [from, to] of [[F, B], [B, F]]) {
          const n = 57, k = 23;
          const x = op(values(from, n, 11), [n, 1], from);
          // maximum(x, lowest) is x (NaN stays NaN) with x's inner stride 0
          const low = op(new ARRAY[from](k).fill(FLOATS.includes(from) ? -Infinity : from.startsWith('u') ? 0 : -(2 ** (8 * ARRAY[from].BYTES_PER_ELEMENT - 1))), [1, k], from);
          const e = `cast(maximum(x, y), '${to}')`;
          same(tc.evaluate(e, { x, y: low }), tc.cast(tc.maximum(x, low), to));
          expect(execution(e, { x: [n, 1], y: [1, k] }, { x: from, y: from })).toBe('generated');
          const e2 = `cast(x, '${to}') * cast(y, '${to}')`;
          same(tc.evaluate(e2, { x, y: low }), tc.mul(tc.cast(x, to), tc.cast(low, to)));
          // strided: y's elements read across its rows (dims reordered)
          const p = 19, q = 31;
          const yv = values(from, p * q, 13);
          const a = op(new ARRAY[from](q * p), [q, p], from, { dims: ['b', 'a'] });
          const y = op(yv, [p, q], from, { dims: ['a', 'b'] });
          // a is all zeros: maximum(0, y) for unsigned types, so use where(a == a, y, y) instead: y read strided
          const e3 = `cast(where(equal(a, a), y, y), '${to}')`;
          const r = tc.evaluate(e3, { a, y });
          expect(r.dims).toEqual(['b', 'a']);
          const c = arr(tc.cast(op(yv, [p * q], from), to));
          const got = arr(r);
          for (let i = 0; i < q; i++)
            for (let j = 0; j < p; j++)
              if (!Object.is(got[i * p + j], c[j * q + i])) expect(`(${i}, ${j}): ${got[i * p + j]}`).toBe(`${c[j * q + i]}`);
          expect(execution(e3, { a: { dims: ['b', 'a'], shape: [q, p] }, y: { dims: ['a', 'b'], shape: [p, q] } },
            { a: from, y: from })).toBe('generated');
        }
      }
    });
  }
});

describe('the pixel expressions', () => {
  const pix = "(cast(x, 'float32') / 255 - m) / s";
  const f32 = (...v) => Float32Array.from(v);
  it('channels last [224, 224, 4] and channels first [3, 224, 224]: generated', () => {
    expect(execution(pix, { x: [224, 224, 4], m: [4], s: [4] }, { x: 'uint8clamped', m: 'float32', s: 'float32' })).toBe('generated');
    expect(execution(pix, { x: [3, 224, 224], m: [3, 1, 1], s: [3, 1, 1] }, { x: 'uint8clamped', m: 'float32', s: 'float32' }))
      .toBe('generated');
    expect(execution(pix, { x: [224, 224, 3], m: [3], s: [3] }, { x: 'uint8', m: 'float32', s: 'float32' })).toBe('generated');
  });
  it('the values: the op-by-op composition, bit for bit (both layouts, and back to pixels)', () => {
    for (const [shape, ms] of [[[37, 29, 4], [4]], [[3, 41, 37], [3, 1, 1]], [[5, 7, 3], [3]]]) {
      const size = shape.reduce((a, b) => a * b, 1);
      const x = op(values('uint8clamped', size, 5), shape, 'uint8clamped');
      const mv = f32(0.485, 0.456, 0.406, 0.5).subarray(0, ms[0]);
      const sv = f32(0.229, 0.224, 0.225, 0.25).subarray(0, ms[0]);
      const m = op(mv, ms, 'float32'), s = op(sv, ms, 'float32');
      const k255 = op(f32(255), [1], 'float32');
      const want = tc.div(tc.sub(tc.div(tc.cast(x, 'float32'), k255), m), s);
      same(tc.evaluate(pix, { x, m, s }), want);
      // and back: cast(y * s + m) * 255 to uint8clamped and uint8
      const y = want;
      for (const B of BYTES) {
        const back = `cast((y * s + m) * 255, '${B}')`;
        same(tc.evaluate(back, { y, m, s }), tc.cast(tc.mul(tc.add(tc.mul(y, s), m), k255), B));
        expect(execution(back, { y: shape, m: ms, s: ms }, { y: 'float32', m: 'float32', s: 'float32' })).toBe('generated');
      }
      // float64 both ways
      const d = `cast(cast(x, 'float64') * 1.5 - 20.25, 'uint8clamped')`;
      const k15 = op(Float64Array.of(1.5), [1], 'float64'), k20 = op(Float64Array.of(20.25), [1], 'float64');
      same(tc.evaluate(d, { x }), tc.cast(tc.sub(tc.mul(tc.cast(x, 'float64'), k15), k20), 'uint8clamped'));
      expect(execution(d, { x: shape }, { x: 'uint8clamped' })).toBe('generated');
    }
  });
});

describe('uint8clamped element-wise ops in generated code', () => {
  const n = 301;
  const a = op(values('uint8clamped', n, 21), [n], 'uint8clamped');
  const b = op(values('uint8clamped', n, 22), [n], 'uint8clamped');
  const dt = { a: 'uint8clamped', b: 'uint8clamped' };
  for (const name of ['add', 'sub', 'mul', 'minimum', 'maximum', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'less', 'equal',
    'logicalAnd']) {
    it(`${name}(a, b)`, () => {
      const e = `${name}(a, b)`;
      same(tc.evaluate(e, { a, b }), tc[name](a, b));
      expect(execution(e, { a: [n], b: [n] }, dt)).toBe('generated');
      const bb = op(b.data.subarray(0, 1), [1], 'uint8clamped'); // a scalar operand (splat)
      same(tc.evaluate(e, { a, b: bb }), tc[name](a, bb));
    });
  }
  for (const name of ['neg', 'abs', 'sign', 'bitwiseNot', 'logicalNot', 'floor']) {
    it(`${name}(a)`, () => {
      const e = `${name}(a)`;
      same(tc.evaluate(e, { a }), tc[name](a));
      expect(execution(e, { a: [n] }, { a: 'uint8clamped' })).toBe('generated');
    });
  }
  it('a chain: where(a > b, a - b, b * 2 + a), clamped at every op', () => {
    const e = 'where(a > b, a - b, b * 2 + a)';
    const two = op(Uint8ClampedArray.of(2), [1], 'uint8clamped');
    same(tc.evaluate(e, { a, b }), tc.where(tc.greater(a, b), tc.sub(a, b), tc.add(tc.mul(b, two), a)));
    expect(execution(e, { a: [n], b: [n] }, dt)).toBe('generated');
  });
});

// float16 through the whole data API, in Node 20 (no Float16Array): float16
// travels as its bits in a Uint16Array marked dtype: 'float16'. Replays
// tests/fixtures/numpy_float16.json (NumPy's float16 results, written by
// tests/tools/gen_numpy_float16.py) bit for bit, then the API's rules: a
// dtype beside a plain operand must agree with its array, `out`, resident
// tensors, scalars, refusals. (tests/browser/float16.test.js runs a real
// Float16Array in Chromium.)
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';
import { halfBits, halfValue } from '../../dist/operands.js';
import { OPS, apply, defined, BOOL_OPS } from './data-oracle.js';

beforeAll(async () => { await tc.init(); });

const fixture = JSON.parse(readFileSync(new URL('../fixtures/numpy_float16.json', import.meta.url), 'utf8'));
const isNanHalf = (h) => (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
const f16 = (t) => ({ data: Uint16Array.from(t.bits), shape: t.shape, dtype: 'float16' });

function check(c, res) {
  const odt = c.outDtype ?? 'float16';
  expect(res.dtype).toBe(odt);
  expect(res.shape).toEqual(c.out.shape);
  if (odt === 'uint8') {
    expect(res.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(res.data)).toEqual(c.out.data);
    return;
  }
  if (odt === 'float32') {
    expect(res.data).toBeInstanceOf(Float32Array);
    const got = new Uint32Array(res.data.buffer, res.data.byteOffset, res.data.length);
    for (let i = 0; i < c.out.bits32.length; i++) {
      const w = c.out.bits32[i];
      const nan = (w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0;
      if (c.anyZeroSign && (w & 0x7fffffff) === 0 && (got[i] & 0x7fffffff) === 0) continue;
      if (nan ? !Number.isNaN(res.data[i]) : got[i] !== w) throw new Error(`element ${i}: got bits ${got[i]}, NumPy ${w}\n${JSON.stringify(c)}`);
    }
    return;
  }
  expect(res.data).toBeInstanceOf(Uint16Array); // the bits, in Node 20
  expect(res.data.length).toBe(c.out.bits.length);
  for (let i = 0; i < c.out.bits.length; i++) {
    const w = c.out.bits[i];
    if (c.anyZeroSign && (w & 0x7fff) === 0 && (res.data[i] & 0x7fff) === 0) continue;
    if (isNanHalf(w) ? !isNanHalf(res.data[i]) : res.data[i] !== w) {
      throw new Error(`element ${i}: got ${halfValue(res.data[i])} (bits ${res.data[i]}), NumPy ${halfValue(w)} (bits ${w})\n${JSON.stringify(c)}`);
    }
  }
}

function run(c) {
  switch (c.family) {
    case 'binary': return tc[c.op](f16(c.a), f16(c.b));
    case 'scalar': return tc[c.op](f16(c.a), c.scalar);
    case 'broadcastTo': return tc.broadcastTo(f16(c.x), c.target);
    case 'where':
      return tc.where(c.condDtype === 'float16' ? f16(c.cond) : { data: Uint8Array.from(c.cond.data), shape: c.cond.shape }, f16(c.a), f16(c.b));
    case 'reduce': {
      const o = { keepdims: c.keepdims };
      if (c.axis) o.axes = c.axis;
      if (c.dtype) o.dtype = c.dtype;
      return tc[c.op](f16(c.x), o);
    }
    case 'unbroadcast': return tc.unbroadcast(f16(c.g), c.inShape);
    default: throw new Error(`unknown family ${c.family}`);
  }
}

describe(`NumPy float16 fixtures (numpy ${fixture.numpy}, ${fixture.cases.length} cases)`, () => {
  it('cover every float op, broadcastTo, where, every reduction and unbroadcast', () => {
    const ops = new Set(fixture.cases.filter((c) => c.family === 'binary').map((c) => c.op));
    const floatOps = tc.contract().ops.filter((o) => o.domain !== 'integer').map((o) => o.name);
    expect([...ops].sort()).toEqual(floatOps.sort());
    const fams = new Set(fixture.cases.map((c) => c.family));
    for (const f of ['binary', 'scalar', 'broadcastTo', 'where', 'reduce', 'unbroadcast']) expect(fams.has(f), f).toBe(true);
    expect(new Set(fixture.cases.filter((c) => c.family === 'reduce').map((c) => c.op))).toEqual(new Set(['sum', 'prod', 'min', 'max', 'mean']));
  });
  const families = new Map();
  for (const c of fixture.cases) {
    const k = c.op ? `${c.family} ${c.op}` : c.family;
    if (!families.has(k)) families.set(k, []);
    families.get(k).push(c);
  }
  for (const [k, cs] of families) {
    it(`${k} (${cs.length})`, () => { for (const c of cs) check(c, run(c)); });
  }
});

describe('float16 as Uint16Array bits (a runtime without Float16Array)', () => {
  it('DTYPES and contract() list float16; a bare Uint16Array is still uint16', () => {
    expect(tc.DTYPES).toContain('float16');
    expect(tc.contract().dtypes.find((d) => d.name === 'float16')).toEqual({ name: 'float16', short: 'f16', array: 'Float16Array', kind: 'float', size: 2 });
    expect(typeof globalThis.Float16Array).toBe('undefined'); // Node 20: this file tests the bits form
    const r = tc.add({ data: new Uint16Array([0x3c00]), shape: [1] }, { data: new Uint16Array([0x3c00]), shape: [1] });
    expect(r.dtype).toBe('uint16');
    expect(r.data[0]).toBe(0x7800);
  });

  it('every op agrees with the float32 op rounded once, over all forms, and -0, NaN, Infinity, subnormals', () => {
    const specials = [0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3555, 0x4248];
    const n = specials.length;
    const a = new Uint16Array(n * n);
    const b = new Uint16Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { a[i * n + j] = specials[i]; b[i * n + j] = specials[j]; }
    let checked = 0;
    for (const op of OPS) {
      if (!defined('float32', op)) {
        expect(() => tc[op]({ data: a, shape: [n * n], dtype: 'float16' }, { data: b, shape: [n * n], dtype: 'float16' })).toThrow(/float16/);
        continue;
      }
      // vv, a row against a column (broadcast), and a scalar
      const rs = [
        [tc[op]({ data: a, shape: [n * n], dtype: 'float16' }, { data: b, shape: [n * n], dtype: 'float16' }), (i) => [a[i], b[i]]],
        [tc[op]({ data: Uint16Array.from(specials), shape: [n, 1], dtype: 'float16' }, { data: Uint16Array.from(specials), shape: [n], dtype: 'float16' }), (i) => [specials[Math.floor(i / n)], specials[i % n]]],
        [tc[op](2.5, { data: Uint16Array.from(specials), shape: [n], dtype: 'float16' }), (i) => [0x4100, specials[i]]],
      ];
      for (const [r, ab] of rs) {
        expect(r.dtype).toBe(BOOL_OPS.has(op) ? 'uint8' : 'float16');
        for (let i = 0; i < r.data.length; i++) {
          const [x, y] = ab(i);
          // C's pow (the engine's, NumPy's): 1 ** y and (-1) ** ±Infinity are 1; JS's Math.pow says NaN.
          const c1 = op === 'pow' && (halfValue(x) === 1 || (halfValue(x) === -1 && Math.abs(halfValue(y)) === Infinity));
          const w = c1 ? 1 : apply('float32', op, halfValue(x), halfValue(y));
          if (BOOL_OPS.has(op)) expect(r.data[i], `${op} ${halfValue(x)} ${halfValue(y)}`).toBe(w);
          else {
            const wb = halfBits(w);
            if (isNanHalf(wb) ? !isNanHalf(r.data[i]) : r.data[i] !== wb) throw new Error(`${op}(${halfValue(x)}, ${halfValue(y)}): got ${halfValue(r.data[i])}, want ${halfValue(wb)}`);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });

  it('rounds to nearest even on store: overflow, ties, subnormals', () => {
    const h = (v) => ({ data: new Uint16Array([halfBits(v)]), shape: [], dtype: 'float16' });
    expect(tc.add(h(65504), h(16)).data[0]).toBe(0x7c00); // 65520: the tie of 65504 (odd) and 65536 (even): Infinity
    expect(tc.add(h(65504), h(15)).data[0]).toBe(0x7bff); // below the tie: 65504
    expect(tc.add(h(2048), h(1)).data[0]).toBe(halfBits(2048)); // 2049: tie, to even (2048)
    expect(tc.add(h(2048), h(3)).data[0]).toBe(halfBits(2052)); // 2051: tie, to even (2052)
    expect(tc.mul(h(2 ** -14), h(0.5)).data[0]).toBe(0x0200); // a subnormal result
    expect(tc.mul(h(2 ** -24), h(0.5)).data[0]).toBe(0); // half the smallest subnormal: tie, to even (0)
    expect(tc.mul(h(-(2 ** -24)), h(0.5)).data[0]).toBe(0x8000); // -0
    expect(tc.sub(h(0), h(0)).data[0]).toBe(0);
    expect(tc.mul(h(-0), h(1)).data[0]).toBe(0x8000);
    expect(isNanHalf(tc.sub(h(Infinity), h(Infinity)).data[0])).toBe(true);
  });

  it('hypot is the float32 hypot rounded to float16, as every float16 op (not the double rounded once)', () => {
    const h = (v) => ({ data: new Uint16Array([halfBits(v)]), shape: [], dtype: 'float16' });
    // sqrt(6492² + 45184²) = 45648.000175…: float32 45648, a float16 tie (ulp 32), to even 45632;
    // the double rounded once to float16 would be 45664.
    expect(halfValue(tc.hypot(h(6492), h(45184)).data[0])).toBe(45632);
    expect(halfValue(tc.evaluate('hypot(a, b)', { a: h(6492), b: h(45184) }).data[0])).toBe(45632);
    // every pair of a grid over the float16 range: the float32 hypot, rounded once to float16
    let s = 5;
    const n = 1 << 16;
    const a = new Uint16Array(n);
    const b = new Uint16Array(n);
    for (let i = 0; i < n; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; a[i] = s >>> 16; b[i] = s & 0xffff; }
    const r = tc.hypot({ data: a, shape: [n], dtype: 'float16' }, { data: b, shape: [n], dtype: 'float16' }).data;
    const w = tc.cast(tc.hypot(tc.cast({ data: a, shape: [n], dtype: 'float16' }, 'float32'), tc.cast({ data: b, shape: [n], dtype: 'float16' }, 'float32')), 'float16').data;
    for (let i = 0; i < n; i++) if (isNanHalf(w[i]) ? !isNanHalf(r[i]) : r[i] !== w[i]) throw new Error(`hypot(${halfValue(a[i])}, ${halfValue(b[i])}): ${halfValue(r[i])}, float32 rounded ${halfValue(w[i])}`);
  });

  it('a dtype beside a plain operand must agree with its array', () => {
    const x = { data: new Float32Array([1, 2]), shape: [2], dtype: 'float16' };
    expect(() => tc.add(x, x)).toThrow(TypeError);
    expect(() => tc.add(x, x)).toThrow(/a\.dtype is 'float16' but the data is a Float32Array.*Uint16Array of its bits/);
    expect(() => tc.add({ data: new Int16Array(1), shape: [1], dtype: 'float16' }, 1)).toThrow(TypeError);
    expect(() => tc.add({ data: new Uint16Array(1), shape: [1], dtype: 'float32' }, 1)).toThrow(/pass a Float32Array/);
    expect(() => tc.add({ data: new Uint16Array(1), shape: [1], dtype: 'half' }, 1)).toThrow(/must be one of .*float16/);
    expect(() => tc.tensor(new Float32Array(1), [1], { dtype: 'float16' })).toThrow(TypeError);
    // agreeing names are accepted
    expect(tc.add({ data: new Float32Array([1]), shape: [1], dtype: 'float32' }, 1).data[0]).toBe(2);
    expect(tc.add({ data: new Uint16Array([1]), shape: [1], dtype: 'uint16' }, 1).data[0]).toBe(2);
  });

  it('mixing float16 with another dtype is a DTYPE_MISMATCH', () => {
    const h = { data: new Uint16Array([0x3c00]), shape: [1], dtype: 'float16' };
    expect(() => tc.add(h, { data: new Uint16Array([1]), shape: [1] })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    expect(() => tc.add(h, { data: new Float32Array([1]), shape: [1] })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
  });

  it('results feed back in as operands (they carry dtype: float16)', () => {
    const x = { data: new Uint16Array([halfBits(1.5), halfBits(-2)]), shape: [2], dtype: 'float16' };
    const r = tc.mul(tc.add(x, x), x);
    expect(r.dtype).toBe('float16');
    expect(Array.from(r.data, halfValue)).toEqual([4.5, 8]);
  });

  it('out: a Uint16Array takes a float16 result as its bits; a resident float16 tensor too', () => {
    const x = { data: new Uint16Array([halfBits(0.1), halfBits(3)]), shape: [2], dtype: 'float16' };
    const out = new Uint16Array(2);
    const r = tc.add(x, 1, { out });
    expect(r.data).toBe(out);
    expect(r.dtype).toBe('float16');
    expect(Array.from(out)).toEqual([halfBits(1.1), halfBits(4)]);
    expect(() => tc.add(x, 1, { out: new Float32Array(2) })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    expect(() => tc.less(x, 1, { out: new Uint16Array(2) })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    const s = new Uint16Array(1);
    expect(tc.sum(x, { out: s }).data).toBe(s);
    expect(halfValue(s[0])).toBe(halfValue(halfBits(halfValue(halfBits(0.1)) + 3)));
    const t = tc.tensor(new Uint16Array(2), [2], { dtype: 'float16' });
    expect(tc.add(x, x, { out: t })).toBe(t);
    expect(Array.from(t.toArray(), halfValue)).toEqual([halfValue(halfBits(0.2)), 6]);
    t.dispose();
  });

  it('concat, stack and contiguous into a Uint16Array out say float16, as every op does (until 0.9.16 the next op read uint16 bits)', () => {
    const x = { data: new Uint16Array([halfBits(1), halfBits(2)]), shape: [2], dtype: 'float16' };
    for (const r of [tc.concat([x, x], 0, { out: new Uint16Array(4) }), tc.stack([x, x], 0, { out: new Uint16Array(4) }),
      tc.contiguous(tc.flip(x), { out: new Uint16Array(2) })]) {
      expect(r.dtype).toBe('float16');
      const y = tc.add(r, 1);
      expect(y.dtype).toBe('float16');
      expect(Array.from(y.data, halfValue)).toEqual(Array.from(r.data, (h) => halfValue(h) + 1));
    }
  });

  it('resident tensors report float16; toArray() gives the bits; ops on them stay resident', () => {
    const t = tc.tensor(new Uint16Array([halfBits(1), halfBits(2), halfBits(NaN), halfBits(-0)]), [2, 2], { dtype: 'float16' });
    expect(t.dtype).toBe('float16');
    expect(t.byteLength).toBe(8);
    expect(t.toArray()).toBeInstanceOf(Uint16Array);
    expect(String(t)).toContain('float16');
    const m = tc.max(t, { axes: [1] });
    expect(m.dtype).toBe('float16');
    expect(Number.isNaN(halfValue(m.toArray()[1]))).toBe(true);
    expect(halfValue(m.toArray()[0])).toBe(2);
    const s32 = tc.sum(t, { axes: [0], dtype: 'float32' });
    expect(s32.dtype).toBe('float32');
    expect(Number.isNaN(s32.toArray()[0])).toBe(true);
    const b = tc.broadcastTo(t, [3, 2, 2]);
    expect(b.dtype).toBe('float16');
    expect(Array.from(b.toArray().subarray(8))).toEqual(Array.from(t.toArray()));
    for (const x of [t, m, s32, b]) x.dispose();
  });

  it('reductions compute in float32 and round once (NumPy mean of float16 does too)', () => {
    const x = { data: new Uint16Array([halfBits(2048), ...new Array(8).fill(halfBits(1))]), shape: [9], dtype: 'float16' };
    expect(halfValue(tc.sum(x).data[0])).toBe(2056); // float16 steps would stay at 2048
    expect(halfValue(tc.mean(x).data[0])).toBe(halfValue(halfBits(2056 / 9)));
    expect(tc.mean(x).dtype).toBe('float16');
    expect(tc.sum(x, { dtype: 'float32' }).data).toBeInstanceOf(Float32Array);
    // dtype: 'float16' on other inputs: each stored as float16 first, then reduced in float32
    const f = tc.sum({ data: new Float32Array([0.1, 0.2]), shape: [2] }, { dtype: 'float16' });
    expect(f.dtype).toBe('float16');
    expect(halfValue(f.data[0])).toBe(halfValue(halfBits(halfValue(halfBits(0.1)) + halfValue(halfBits(0.2)))));
    expect(() => tc.min({ data: new Uint16Array(0), shape: [0], dtype: 'float16' })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    expect(tc.sum({ data: new Uint16Array(0), shape: [0], dtype: 'float16' }).data[0]).toBe(0);
  });

  it('halfBits/halfValue round-trip every half, and round ties to even', () => {
    for (let h = 0; h < 0x10000; h++) {
      const v = halfValue(h);
      if (Number.isNaN(v)) expect(isNanHalf(halfBits(v))).toBe(true);
      else if (halfBits(v) !== h) throw new Error(`bits ${h}`);
    }
    expect(halfBits(65520)).toBe(0x7c00);
    expect(halfBits(65519.99)).toBe(0x7bff);
    expect(halfBits(1 + 2 ** -11)).toBe(0x3c00); // tie: even
    expect(halfBits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie: even
    expect(halfBits(2 ** -25)).toBe(0); // tie with 0: even
    expect(halfBits(2 ** -25 + 2 ** -40)).toBe(1);
    expect(halfBits(1 + 2 ** -11 + 2 ** -40)).toBe(0x3c01); // double rounding through float32 would give 0x3c00
  });
});

describe('named unbroadcast of float16: the result says float16', () => {
  it('a resident gradient with dims in another order (or dtype float16 asked of float32): float16, not uint16', () => {
    const bits = Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600); // 1 .. 6
    const g = tc.tensor(bits, [2, 3], { dims: ['r', 'c'], dtype: 'float16' });
    const m = tc.unbroadcast(g, { dims: ['c', 'r'], shape: [3, 2] });
    expect([m.dtype, m.dims, Array.from(m.toArray())]).toEqual(['float16', ['c', 'r'], [0x3c00, 0x4400, 0x4000, 0x4500, 0x4200, 0x4600]]);
    const twice = tc.add(m, m); // float16 arithmetic: 2, 8, 4, 10, 6, 12
    expect(Array.from(twice.toArray())).toEqual([0x4000, 0x4800, 0x4400, 0x4900, 0x4600, 0x4a00]);
    const f = tc.tensor(Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3], { dims: ['r', 'c'] });
    const h = tc.unbroadcast(f, { dims: ['c', 'r'], shape: [3, 2] }, { dtype: 'float16' });
    expect(h.dtype).toBe('float16');
    for (const t of [g, m, twice, f, h]) t.dispose();
  });
});

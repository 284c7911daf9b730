// The unary ops (neg … isFinite) and cast: NumPy's values for every op and
// dtype (tests/fixtures/numpy_unary.json, tests/tools/gen_numpy_unary.py), the
// cast decisions where NumPy has no answer (NaN, out of range), every SIMD
// kernel against its reference bit for bit, the operand forms and `out`, the
// refusals, and no leak after them.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';
import { unaryKernels, castKernels, runUnaryKernel, runCastKernel } from '../../dist/introspect.js';
import { FULL_ENGINE } from './full-engine.js';

// Every reference kept (full-engine.js): this file sweeps SIMD kernels against them.
beforeAll(async () => { await tc.init({ wasmUrl: FULL_ENGINE }); });

const fixture = JSON.parse(readFileSync(new URL('../fixtures/numpy_unary.json', import.meta.url), 'utf8'));

const CTORS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, bigint64: BigInt64Array, biguint64: BigUint64Array,
  float16: Uint16Array, // Node 20: float16 as its bits in a Uint16Array, marked dtype: 'float16'
};
const SIZE = { float32: 4, float64: 8, int8: 1, uint8: 1, uint8clamped: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, bigint64: 8, biguint64: 8, float16: 2 };
const FLOATS = new Set(['float32', 'float64', 'float16']);
const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
const TRANSCENDENTAL = new Set(['exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh']);
// float32 in float32 (src/kernels/fast_f32.hpp): at most 2 ulp from the correctly rounded result.
const FAST_F32 = new Set(['exp', 'expm1', 'log', 'log1p', 'tanh', 'sigmoid']);
const MATH = { exp: Math.exp, expm1: Math.expm1, log: Math.log, log1p: Math.log1p, sin: Math.sin, cos: Math.cos, tan: Math.tan, tanh: Math.tanh };

function decode(dtype, enc) {
  if (dtype === 'float16') return Uint16Array.from(enc.bits);
  const C = CTORS[dtype];
  const a = new C(enc.length);
  for (let i = 0; i < enc.length; i++) {
    const v = enc[i];
    a[i] = dtype === 'bigint64' || dtype === 'biguint64' ? BigInt(v) : typeof v === 'string' ? SPECIAL[v] : v;
  }
  return a;
}
const operand = (dtype, data) => (dtype === 'float16' ? { data, dtype: 'float16' } : { data });

const isNanHalf = (h) => (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
// Distance in units in the last place between two floats of the same sign (ordered bit patterns).
function ulps(dtype, a, b) {
  if (dtype === 'float16') {
    const key = (h) => (h & 0x8000 ? -(h & 0x7fff) : h);
    return Math.abs(key(a) - key(b));
  }
  const buf = dtype === 'float32' ? new Float32Array(2) : new Float64Array(2);
  buf[0] = a;
  buf[1] = b;
  const ints = dtype === 'float32' ? new Int32Array(buf.buffer) : new BigInt64Array(buf.buffer);
  if (dtype === 'float32') {
    const key = (i) => (ints[i] < 0 ? -(ints[i] & 0x7fffffff) : ints[i]);
    return Math.abs(key(0) - key(1));
  }
  const key = (i) => (ints[i] < 0n ? -(ints[i] & 0x7fffffffffffffffn) : ints[i]);
  const d = key(0) - key(1);
  return Number(d < 0n ? -d : d);
}

// Exact, any NaN equal to any NaN (float16: on the bits).
function same(dtype, got, want) {
  if (dtype === 'float16') return isNanHalf(want) ? isNanHalf(got) : got === want;
  if (typeof want === 'number' && Number.isNaN(want)) return Number.isNaN(got);
  return Object.is(got, want);
}

describe('NumPy fixtures (tests/tools/gen_numpy_unary.py)', () => {
  it('covers every op on every dtype it takes, and every cast pair', () => {
    const ops = tc.contract().unaryOps;
    expect(ops.map((o) => o.name)).toEqual(['neg', 'abs', 'sign', 'sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh',
      'floor', 'ceil', 'round', 'trunc', 'logicalNot', 'bitwiseNot', 'isNaN', 'isFinite', 'sigmoid']);
    const have = new Set(fixture.unary.map((c) => `${c.op} ${c.dtype}`));
    for (const o of ops) {
      for (const dt of tc.DTYPES) {
        const takes = o.domain === 'any' || (o.domain === 'float') === FLOATS.has(dt);
        expect(have.has(`${o.name} ${dt}`), `${o.name} ${dt}`).toBe(takes);
      }
    }
    expect(fixture.cast.length).toBe(tc.DTYPES.length ** 2);
  });

  for (const op of [...new Set(fixture.unary.map((c) => c.op))]) {
    const near1 = TRANSCENDENTAL.has(op) || op === 'sigmoid';
    it(`${op}: NumPy's values${near1 ? ` (within 1 ulp${FAST_F32.has(op) ? ', float32 2' : ''})` : ', exactly'}`, () => {
      for (const c of fixture.unary.filter((x) => x.op === op)) {
        const x = decode(c.dtype, c.x);
        const odt = ['logicalNot', 'isNaN', 'isFinite'].includes(op) ? 'uint8' : c.dtype;
        const want = decode(odt, c.want);
        const r = tc[op](operand(c.dtype, x));
        expect(r.dtype, `${op} ${c.dtype}`).toBe(odt);
        expect(r.shape).toEqual([x.length]);
        expect(r.data).toBeInstanceOf(CTORS[odt]);
        for (let i = 0; i < want.length; i++) {
          if (same(odt, r.data[i], want[i])) continue;
          const bound = odt === 'float32' && FAST_F32.has(op) ? 2 : 1;
          const near = near1 && (odt === 'float16' ? !isNanHalf(want[i]) : Number.isFinite(want[i])) && ulps(odt, r.data[i], want[i]) <= bound;
          if (!near) throw new Error(`${op} ${c.dtype} element ${i} (x = ${x[i]}): got ${r.data[i]}, NumPy ${want[i]}`);
        }
      }
    });
  }

  it('cast: NumPy astype between every pair of dtypes, exactly', () => {
    let n = 0;
    for (const c of fixture.cast) {
      const x = decode(c.from, c.x);
      const want = decode(c.to, c.want);
      const r = tc.cast(operand(c.from, x), c.to);
      expect(r.dtype).toBe(c.to);
      expect(r.data).toBeInstanceOf(CTORS[c.to]);
      for (let i = 0; i < want.length; i++) {
        if (!same(c.to, r.data[i], want[i])) throw new Error(`cast ${c.from} -> ${c.to} element ${i} (x = ${x[i]}): got ${r.data[i]}, NumPy ${want[i]}`);
        n++;
      }
    }
    expect(n).toBeGreaterThan(4000);
  });
});

describe('float64 transcendentals and JS Math', () => {
  // The engine's float64 transcendentals are the host's Math (imports bound
  // to Math.sin, Math.exp, ..., src/kernels/host_math.hpp): bit for bit.
  // NumPy's glibc agrees with them within 1 ulp (the fixtures above).
  it('agree with Math.* bit for bit (sin, cos, tan, exp, expm1, log, log1p, tanh, pow, atan2)', () => {
    let s = 12345;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const xs = Float64Array.from({ length: 20000 }, (_, i) => (i % 2 ? (rnd() - 0.5) * 40 : (rnd() - 0.5) * 2 ** ((i % 40) - 20)));
    const bound = { exp: 0, expm1: 0, log: 0, log1p: 0, sin: 0, cos: 0, tan: 0, tanh: 0 };
    const ps = xs.map((v, i) => xs[(i * 104729) % xs.length] / 4);
    const p64 = tc.pow({ data: xs.map(Math.abs) }, { data: ps }).data;
    for (let i = 0; i < xs.length; i++) if (!Object.is(p64[i], Math.pow(Math.abs(xs[i]), ps[i]))) throw new Error(`pow(${Math.abs(xs[i])}, ${ps[i]})`);
    for (const op of TRANSCENDENTAL) {
      const r = tc[op]({ data: xs }).data;
      let worst = 0;
      for (let i = 0; i < xs.length; i++) {
        const m = MATH[op](xs[i]);
        if (Object.is(r[i], m) || (Number.isNaN(m) && Number.isNaN(r[i]))) continue;
        worst = Math.max(worst, ulps('float64', r[i], m));
        if (worst > bound[op]) throw new Error(`${op}(${xs[i]}): engine ${r[i]}, Math ${m}`);
      }
      expect(worst, op).toBe(bound[op]);
    }
    // atan2 is the host's too: Math.atan2 bit for bit in float64, and its
    // float32 result is Math.atan2 of the float32 inputs rounded once.
    const ys = xs.map((v, i) => xs[(i * 7919) % xs.length] - v);
    const a64 = tc.atan2({ data: ys }, { data: xs }).data;
    for (let i = 0; i < xs.length; i++) if (!Object.is(a64[i], Math.atan2(ys[i], xs[i]))) throw new Error(`atan2(${ys[i]}, ${xs[i]})`);
    const y32 = Float32Array.from(ys), x32 = Float32Array.from(xs);
    const a32 = tc.atan2({ data: y32 }, { data: x32 }).data;
    for (let i = 0; i < xs.length; i++) if (!Object.is(a32[i], Math.fround(Math.atan2(y32[i], x32[i])))) throw new Error(`float32 atan2(${y32[i]}, ${x32[i]})`);
    // sqrt is IEEE exact everywhere: Math.sqrt bit for bit.
    const r = tc.sqrt({ data: xs.map(Math.abs) }).data;
    for (let i = 0; i < xs.length; i++) if (r[i] !== Math.sqrt(Math.abs(xs[i]))) throw new Error(`sqrt(${Math.abs(xs[i])})`);
  });

  it('float32 transcendentals are the float64 result rounded once (Math.fround of Math.*, within 1 ulp)', () => {
    const xs = Float32Array.from({ length: 512 }, (_, i) => (i - 256) / 7.3);
    for (const op of TRANSCENDENTAL) {
      const r = tc[op]({ data: xs }).data;
      for (let i = 0; i < xs.length; i++) {
        const m = Math.fround(MATH[op](xs[i]));
        if (Number.isNaN(m)) expect(Number.isNaN(r[i])).toBe(true);
        else expect(ulps('float32', r[i], m), `${op}(${xs[i]})`).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('semantics NumPy leaves open or the library decides', () => {
  const run = (op, C, values) => Array.from(tc[op]({ data: C.from(values) }).data);

  it('float32 exp underflows to +0 from -104 down (a mask\'s -1e9 and -inf too), and sigmoid with it; 2^-149 just above', () => {
    // Every lane of a vector, and the tail: below -104 the kernels put +0 in place of a product
    // that underflows (fast_f32.hpp exp); the values are the ones computed through the clamp.
    const low = [-104.00001, -104.5, -1e9, -Infinity, -3.4e38, -200, -105, -104];
    for (const n of [1, 3, 8, 16, 37]) {
      const x = Float32Array.from({ length: n }, (_, i) => low[i % low.length]);
      const e = run('exp', Float32Array, x);
      expect(e.every((v) => Object.is(v, 0)), `exp, n=${n}: ${e}`).toBe(true);
      expect(run('sigmoid', Float32Array, x).every((v) => Object.is(v, 0)), `sigmoid, n=${n}`).toBe(true);
      expect(run('sigmoid', Float32Array, x.map((v) => -v)).every((v) => v === 1), `sigmoid of -x, n=${n}`).toBe(true);
    }
    expect(run('exp', Float32Array, [-103.97, -103.28, NaN, 89, 88.8])).toEqual([2 ** -149, 2 ** -149, NaN, Infinity, Infinity]);
    // exp(x - max) of masked logits: the entries a mask sets weigh +0 in softmax.
    const m = Float32Array.from({ length: 64 }, (_, i) => (i % 4 ? -1e9 : i / 10));
    const sm = tc.softmax({ data: m, shape: [2, 32] }).data;
    expect(Array.from(sm).every((v, i) => (i % 4 ? Object.is(v, 0) : v > 0))).toBe(true);
  });

  it('docs/accuracy.md names, for each float32 overflow and underflow, the first float at which it holds', () => {
    // Each figure read as a float32 must be that float: the float before it (toward 0) does not hold.
    const text = readFileSync(new URL('../../docs/accuracy.md', import.meta.url), 'utf8').replace(/\s+/g, ' ').replace(/−/g, '-');
    const fig = (re) => Number(text.match(re)[1]);
    const sub = (v) => v !== 0 && Math.abs(v) < 2 ** -126;
    const rows = [
      ['exp', fig(/`exp` is \+Infinity from ([-\d.]+)/), (v) => v === Infinity],
      ['exp', fig(/subnormal from ([-\d.]+) and \+0/), sub],
      ['exp', fig(/\+0 from ([-\d.]+)/), (v) => Object.is(v, 0)],
      ['expm1', fig(/`expm1` is -1 from ([-\d.]+)/), (v) => v === -1],
      ['sigmoid', fig(/`sigmoid` is 1 from ([-\d.]+)/), (v) => v === 1],
      ['sigmoid', fig(/`sigmoid` is 1 from [-\d.]+ and subnormal from ([-\d.]+)/), sub],
      ['tanh', fig(/`tanh` is first ±1 at \|x\| = ([-\d.]+)/), (v) => v === 1],
      ['tanh', fig(/is ±1 for every \|x\| ≥ ([-\d.]+)/), (v) => v === 1], // (and every float past it: the scan the page cites)
    ];
    for (const [op, x, holds] of rows) {
      const f = Math.fround(x);
      const before = new Float32Array([f]);
      new Uint32Array(before.buffer)[0] -= 1; // one float closer to 0
      const [at, prev] = run(op, Float32Array, [f, before[0]]);
      expect(holds(at) && !holds(prev), `${op} at ${x} (${f}): ${at}, the float before: ${prev}`).toBe(true);
    }
  });

  it('integers wrap; uint8clamped neg is 0; bitwiseNot of uint8clamped is 255 - x', () => {
    expect(run('neg', Int8Array, [-128, 127, 0])).toEqual([-128, -127, 0]);
    expect(run('abs', Int32Array, [-2147483648, -5])).toEqual([-2147483648, 5]);
    expect(run('neg', Uint16Array, [1, 0])).toEqual([65535, 0]);
    expect(run('neg', Uint8ClampedArray, [0, 5, 255])).toEqual([0, 0, 0]);
    expect(run('bitwiseNot', Uint8ClampedArray, [0, 5, 255])).toEqual([255, 250, 0]);
    expect(Array.from(tc.neg({ data: BigInt64Array.of(-(2n ** 63n), 3n) }).data)).toEqual([-(2n ** 63n), -3n]);
    expect(Array.from(tc.abs({ data: BigUint64Array.of(2n ** 64n - 1n) }).data)).toEqual([2n ** 64n - 1n]);
  });

  it('sign: +0 for either zero (np.sign(-0.0) is 0.0), NaN for NaN, -1/0/1 on integers and 0/1 unsigned', () => {
    const r = run('sign', Float64Array, [-0, 0, NaN, -Infinity, 1e-310, -2]);
    expect(Object.is(r[0], 0)).toBe(true);
    expect(Object.is(r[1], 0)).toBe(true);
    expect(r.slice(2)).toEqual([NaN, -1, 1, -1]);
    expect(run('sign', Int16Array, [-300, 0, 7])).toEqual([-1, 0, 1]);
    expect(run('sign', Uint32Array, [0, 4000000000])).toEqual([0, 1]);
  });

  it('round is half to even and keeps -0; floor/ceil/trunc keep the zero sign; integers are unchanged', () => {
    const r = run('round', Float32Array, [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 8388609]);
    expect(r.map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual([0, 2, 2, '-0', -2, -2, 0, 8388609]);
    expect(Object.is(run('floor', Float64Array, [-0])[0], -0)).toBe(true);
    expect(Object.is(run('ceil', Float64Array, [-0.5])[0], -0)).toBe(true);
    expect(Object.is(run('trunc', Float64Array, [-0.7])[0], -0)).toBe(true);
    for (const op of ['floor', 'ceil', 'round', 'trunc']) {
      expect(run(op, Int32Array, [-2147483648, 7, 2147483647])).toEqual([-2147483648, 7, 2147483647]);
      expect(Array.from(tc[op]({ data: BigInt64Array.of(2n ** 63n - 1n) }).data)).toEqual([2n ** 63n - 1n]);
    }
  });

  it('logicalNot is x == 0 (NaN is true, -0 false); isNaN/isFinite on integers are 0/1', () => {
    expect(run('logicalNot', Float32Array, [0, -0, NaN, 2])).toEqual([1, 1, 0, 0]);
    expect(run('isNaN', Int32Array, [0, -1])).toEqual([0, 0]);
    expect(run('isFinite', Uint8Array, [0, 255])).toEqual([1, 1]);
    expect(run('isFinite', Float64Array, [Infinity, -Infinity, NaN, 1e308])).toEqual([0, 0, 0, 1]);
    expect(tc.isNaN({ data: BigInt64Array.of(5n) }).data).toBeInstanceOf(Uint8Array);
  });
});

describe('cast: NaN and out-of-range values (decided, documented in unary_ops.hpp)', () => {
  const cast = (C, values, to) => Array.from(tc.cast({ data: C.from(values) }, to).data);
  const bad = [NaN, Infinity, -Infinity, 1e30, -1e30, -0.9, 0.9];

  it('float -> integer: truncates toward zero, NaN -> 0, saturates to the type\'s min/max', () => {
    for (const C of [Float32Array, Float64Array]) {
      expect(cast(C, bad, 'int8')).toEqual([0, 127, -128, 127, -128, 0, 0]);
      expect(cast(C, bad, 'uint8')).toEqual([0, 255, 0, 255, 0, 0, 0]);
      expect(cast(C, bad, 'int16')).toEqual([0, 32767, -32768, 32767, -32768, 0, 0]);
      expect(cast(C, bad, 'uint16')).toEqual([0, 65535, 0, 65535, 0, 0, 0]);
      expect(cast(C, bad, 'int32')).toEqual([0, 2147483647, -2147483648, 2147483647, -2147483648, 0, 0]);
      expect(cast(C, bad, 'uint32')).toEqual([0, 4294967295, 0, 4294967295, 0, 0, 0]);
      expect(cast(C, bad, 'bigint64')).toEqual([0n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n - 1n, -(2n ** 63n), 0n, 0n]);
      expect(cast(C, bad, 'biguint64')).toEqual([0n, 2n ** 64n - 1n, 0n, 2n ** 64n - 1n, 0n, 0n, 0n]);
    }
    // The edges: 2^31 - 1 is int32's max, 2^31 saturates; -2^31 - 0.5 truncates to -2^31.
    expect(cast(Float64Array, [2147483647.9, 2147483648, -2147483648.5, -2147483649, 4294967295.5, 4294967296], 'int32'))
      .toEqual([2147483647, 2147483647, -2147483648, -2147483648, 2147483647, 2147483647]);
    expect(cast(Float64Array, [4294967295.5, 4294967296, -0.99], 'uint32')).toEqual([4294967295, 4294967295, 0]);
    expect(cast(Float64Array, [2 ** 63, 2 ** 63 - 1024, -(2 ** 63), -(2 ** 64)], 'bigint64'))
      .toEqual([2n ** 63n - 1n, 2n ** 63n - 1024n, -(2n ** 63n), -(2n ** 63n)]);
    expect(cast(Float64Array, [2 ** 64, 2 ** 64 - 2048], 'biguint64')).toEqual([2n ** 64n - 1n, 2n ** 64n - 2048n]);
    // float16 goes through float32 exactly: 65504 (its max) and inf.
    expect(Array.from(tc.cast({ data: Uint16Array.of(0x7bff, 0x7c00, 0xfc00, 0x7e00), dtype: 'float16' }, 'int16').data)).toEqual([32767, 32767, -32768, 0]);
  });

  it('float -> uint8clamped: a Uint8ClampedArray store (NaN -> 0, clamp, half to even)', () => {
    const values = [NaN, -Infinity, Infinity, -3, 0.5, 1.5, 2.5, 254.5, 255.5, 300, 0.50001];
    const want = Array.from(Uint8ClampedArray.from(values));
    expect(cast(Float64Array, values, 'uint8clamped')).toEqual(want);
    expect(cast(Float32Array, values, 'uint8clamped')).toEqual(want);
  });

  it('integer -> integer wraps (two\'s complement); -> uint8clamped clamps', () => {
    expect(cast(Int32Array, [300, -1, 128, -129], 'int8')).toEqual([44, -1, -128, 127]);
    expect(cast(Int32Array, [-1, 65536], 'uint16')).toEqual([65535, 0]);
    expect(cast(Int8Array, [-1, -128], 'uint32')).toEqual([4294967295, 4294967168]);
    expect(cast(Uint8Array, [255], 'int8')).toEqual([-1]);
    expect(Array.from(tc.cast({ data: BigInt64Array.of(-1n, 2n ** 40n + 7n) }, 'int32').data)).toEqual([-1, 7]);
    expect(Array.from(tc.cast({ data: Int32Array.of(-1) }, 'biguint64').data)).toEqual([2n ** 64n - 1n]);
    expect(cast(Int32Array, [-5, 0, 255, 256, 100000], 'uint8clamped')).toEqual([0, 0, 255, 255, 255]);
    expect(Array.from(tc.cast({ data: BigUint64Array.of(2n ** 64n - 1n, 3n) }, 'uint8clamped').data)).toEqual([255, 3]);
  });

  it('to floats: nearest even, rounded once (64-bit integers and float64 -> float16 too)', () => {
    // 2^24 + 1 is a tie between 2^24 and 2^24 + 2: even.
    expect(cast(Int32Array, [16777217, 16777219], 'float32')).toEqual([16777216, 16777220]);
    // 2^60 + 2^36 + 1 rounds up to 2^60 + 2^37 directly; through float64 it would be a tie, rounded down to 2^60.
    expect(Array.from(tc.cast({ data: BigInt64Array.of(2n ** 60n + 2n ** 36n + 1n) }, 'float32').data)).toEqual([2 ** 60 + 2 ** 37]);
    expect(Array.from(tc.cast({ data: BigUint64Array.of(2n ** 64n - 1n) }, 'float64').data)).toEqual([2 ** 64]);
    expect(cast(Float64Array, [1 + 2 ** -24, 1 + 3 * 2 ** -24, 1e39, -1e39, NaN], 'float32')).toEqual([1, 1 + 2 ** -22, Infinity, -Infinity, NaN]);
    // 1 + 2^-11 + 2^-40: float16 rounds up to 1 + 2^-10 (0x3c01); through float32 (1 + 2^-11, a tie) it would round to 1.
    expect(Array.from(tc.cast({ data: Float64Array.of(1 + 2 ** -11 + 2 ** -40, 65520, 1e-8) }, 'float16').data)).toEqual([0x3c01, 0x7c00, 0]);
    expect(Array.from(tc.cast({ data: Int32Array.of(65519, 65520, -70000) }, 'float16').data)).toEqual([0x7bff, 0x7c00, 0xfc00]);
  });
});

// ---- kernels --------------------------------------------------------------------------
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const FLOAT_SPECIAL = [0, -0, Infinity, -Infinity, NaN, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-40, 3e9, -3e9, 4.5e9, 1e20, -1e20, 255.5, 65535.5, 2 ** 31, -(2 ** 31), 2 ** 63, 2 ** 64];
// Inputs of `dtype` over n elements: random bits, special values and moderate values mixed.
function input(r, dtype, n) {
  const bytes = new Uint8Array(n * SIZE[dtype]);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(r() * 256);
  const a = new CTORS[dtype](bytes.buffer);
  if (dtype === 'float32' || dtype === 'float64') {
    for (let i = 0; i < n; i++) {
      const u = r();
      if (u < 0.3) a[i] = FLOAT_SPECIAL[Math.floor(r() * FLOAT_SPECIAL.length)];
      else if (u < 0.8) a[i] = (r() - 0.4) * 2 ** Math.floor(r() * 40);
    }
  }
  return a;
}
const outDtypeOf = (k) => (['logicalNot', 'isNaN', 'isFinite'].includes(k.op) ? 'uint8' : k.dtype);

function sameBits(dtype, got, want) {
  for (let i = 0; i < want.length; i++) if (!same(dtype, got[i], want[i])) return i;
  return -1;
}

describe('unary and cast kernels (wasm build)', () => {
  it('are named <dtype>_<op>__<isa> and cast_<from>_<to>__<isa>, with a reference for every defined pair', () => {
    const uk = unaryKernels();
    const ck = castKernels();
    for (const k of uk) expect(k.name).toMatch(/^(f32|f64|i8|u8|u8c|i16|u16|i32|u32|i64|u64|f16)_[a-z0-9_]+__(scalar|wasmsimd)$/);
    for (const k of ck) expect(k.name).toMatch(/^cast_(f32|f64|i8|u8|u8c|i16|u16|i32|u32|i64|u64|f16)_(f32|f64|i8|u8|u8c|i16|u16|i32|u32|i64|u64|f16)__(scalar|wasmsimd)$/);
    expect(new Set([...uk, ...ck].map((k) => k.name)).size).toBe(uk.length + ck.length);
    const ops = tc.contract().unaryOps;
    let pairs = 0;
    for (const o of ops) for (const dt of tc.DTYPES) if (o.domain === 'any' || (o.domain === 'float') === FLOATS.has(dt)) pairs++;
    expect(uk.filter((k) => !k.simd).length).toBe(pairs);
    expect(ck.filter((k) => !k.simd).length).toBe(tc.DTYPES.length ** 2);
    // The instructions SIMD128 has: float neg/abs/sqrt/floor/ceil/trunc/nearest, integer neg/abs/not, the conversions.
    const simd = new Set([...uk, ...ck].filter((k) => k.simd).map((k) => k.name.replace('__wasmsimd', '')));
    for (const n of ['f32_sqrt', 'f64_sqrt', 'f32_floor', 'f64_ceil', 'f32_trunc', 'f64_round', 'f32_neg', 'f64_abs', 'i32_neg', 'i8_abs', 'u32_bitwise_not', 'f16_exp',
      'cast_f32_i32', 'cast_i32_f32', 'cast_f32_u32', 'cast_u32_f32', 'cast_f64_f32', 'cast_f32_f64', 'cast_f64_i32', 'cast_i32_f64', 'cast_f16_f32', 'cast_f32_f16', 'cast_u8_u16', 'cast_i16_i32']) {
      expect(simd.has(n), n).toBe(true);
    }
    // The contract's simd lists are what the registry holds.
    for (const o of ops) {
      expect(uk.filter((k) => k.simd && k.op === o.name).map((k) => k.dtype).sort(), o.name).toEqual([...o.simd].sort());
    }
  });

  it('every SIMD unary kernel equals its reference bit for bit (NaN where NaN) at every length 0 … 67, and in place', () => {
    const uk = unaryKernels();
    const ref = new Map(uk.filter((k) => !k.simd).map((k) => [`${k.dtype} ${k.op}`, k]));
    const r = rng(7);
    let swept = 0;
    for (const k of uk.filter((x) => x.simd)) {
      const R = ref.get(`${k.dtype} ${k.op}`);
      const odt = outDtypeOf(k);
      for (let n = 0; n <= 67; n++) {
        const x = input(r, k.dtype, n);
        const want = runUnaryKernel(R.index, x, new CTORS[odt](n), n);
        const got = runUnaryKernel(k.index, x, new CTORS[odt](n), n);
        let bad = sameBits(odt, got, want);
        if (bad >= 0) throw new Error(`${k.name} n=${n} element ${bad} (x = ${x[bad]}): SIMD ${got[bad]}, reference ${want[bad]}`);
        if (odt === k.dtype) {
          const inPlace = runUnaryKernel(k.index, x, new CTORS[odt](n), n, true);
          bad = sameBits(odt, inPlace, want);
          if (bad >= 0) throw new Error(`${k.name} in place n=${n} element ${bad}: ${inPlace[bad]}, reference ${want[bad]}`);
        }
        swept++;
      }
      // float16: past a conversion block of 256.
      if (k.dtype === 'float16') {
        const x = input(r, 'float16', 600);
        expect(sameBits(odt, runUnaryKernel(k.index, x, new CTORS[odt](600), 600), runUnaryKernel(R.index, x, new CTORS[odt](600), 600)), k.name).toBe(-1);
      }
    }
    expect(swept).toBeGreaterThan(30 * 68);
  });

  it('float32 exp, sigmoid and log: the vectors in their common range (the kernels\' short path) give the reference\'s bits, over a sweep of every 4099th float32', () => {
    // Bit patterns in order, so that runs of 8 share a range: exp's and sigmoid's |x| <= 86 and
    // log's positive normals take the short path (fast_f32.hpp exp_near, sigmoid<V, true>,
    // log_normal), groups holding a NaN, an infinity, a subnormal, a zero, a negative (log) or
    // |x| > 87 (exp, sigmoid) the whole one.
    const bits = new Uint32Array(Math.ceil(2 ** 32 / 4099));
    for (let i = 0; i < bits.length; i++) bits[i] = i * 4099;
    const x = new Float32Array(bits.buffer);
    const uk = unaryKernels();
    for (const op of ['exp', 'sigmoid', 'log']) {
      const simd = uk.find((k) => k.dtype === 'float32' && k.op === op && k.simd);
      const ref = uk.find((k) => k.dtype === 'float32' && k.op === op && !k.simd);
      const got = runUnaryKernel(simd.index, x, new Float32Array(x.length), x.length);
      const want = runUnaryKernel(ref.index, x, new Float32Array(x.length), x.length);
      const bad = sameBits('float32', got, want);
      if (bad >= 0) throw new Error(`${op}(${x[bad]}) (bits ${bits[bad].toString(16)}): SIMD ${got[bad]}, reference ${want[bad]}`);
      const near = op === 'log' ? (v) => v >= 2 ** -126 && v < Infinity : (v) => Math.abs(v) <= 86;
      let short = 0;
      let whole = 0;
      for (let i = 0; i + 8 <= x.length; i += 8) {
        if (x.subarray(i, i + 8).every(near)) short++;
        else whole++;
      }
      expect(short, op).toBeGreaterThan(10000);
      expect(whole, op).toBeGreaterThan(10000);
    }
  });

  it('float32 exp and sigmoid at the edge of the short path (|x| from 85 to 88, every float32): the kernels, an expression and softmax give the reference\'s bits', () => {
    // The short path adds n to y's exponent (fast_f32.hpp exp_near), right while
    // y 2^n is normal: n >= -125, |x| <= 86. Past it (n = -126 from x = -86.99)
    // the sum would be a wrong subnormal, so a short path that reached further
    // shows here. Each float32 in [85, 88] and its negation, in order (runs of 8 share a side of 86).
    const lo = new Float32Array([85]), hi = new Float32Array([88]);
    const a = new Uint32Array(lo.buffer)[0], b = new Uint32Array(hi.buffer)[0];
    const bits = new Uint32Array(2 * (b - a + 1));
    for (let i = 0; i <= b - a; i++) bits[i] = a + i, bits[b - a + 1 + i] = (a + i) | 0x80000000;
    const x = new Float32Array(bits.buffer);
    const uk = unaryKernels();
    for (const op of ['exp', 'sigmoid']) {
      const ref = uk.find((k) => k.dtype === 'float32' && k.op === op && !k.simd);
      const want = runUnaryKernel(ref.index, x, new Float32Array(x.length), x.length);
      const fromOp = tc[op]({ data: x }).data;
      const fromExpr = tc.evaluate(`${op}(x)`, { x: { data: x } }).data;
      for (const [how, got] of [['the op', fromOp], ['evaluate', fromExpr]]) {
        const bad = sameBits('float32', got, want);
        if (bad >= 0) throw new Error(`${op}(${x[bad]}) by ${how}: ${got[bad]}, reference ${want[bad]}`);
      }
    }
    // softmax's exp(x - max): rows of 64 whose max is 0, the rest in [-88, -85].
    const n = 64;
    const rows = Math.floor(x.length / 2 / (n - 1));
    const s = new Float32Array(rows * n);
    for (let r = 0; r < rows; r++) s.set(x.subarray(x.length / 2 + r * (n - 1), x.length / 2 + (r + 1) * (n - 1)), r * n + 1);
    const e = tc.exp({ data: s, shape: [rows, n] });
    const want = tc.mul(e, tc.div(1, tc.sum(e, { axes: -1, keepdims: true }))).data;
    expect(sameBits('float32', tc.softmax({ data: s, shape: [rows, n] }).data, want)).toBe(-1);
    expect(rows).toBeGreaterThan(6000);
  });

  it('every SIMD cast kernel equals its reference bit for bit at every length 0 … 67', () => {
    const ck = castKernels();
    const ref = new Map(ck.filter((k) => !k.simd).map((k) => [`${k.from} ${k.to}`, k]));
    const r = rng(11);
    let swept = 0;
    for (const k of ck.filter((x) => x.simd)) {
      const R = ref.get(`${k.from} ${k.to}`);
      for (let n = 0; n <= 67; n++) {
        const x = input(r, k.from, n);
        const want = runCastKernel(R.index, x, new CTORS[k.to](n), n);
        const got = runCastKernel(k.index, x, new CTORS[k.to](n), n);
        const bad = sameBits(k.to, got, want);
        if (bad >= 0) throw new Error(`${k.name} n=${n} element ${bad} (x = ${x[bad]}): SIMD ${got[bad]}, reference ${want[bad]}`);
        swept++;
      }
    }
    expect(swept).toBeGreaterThan(15 * 68);
  });

  it('every cast reference agrees with the public cast() and with the typed-array store where they define the same thing', () => {
    // Integer -> integer and integer -> float are what a typed-array store of the value gives (wrap, round to nearest).
    const r = rng(3);
    const ints = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32'];
    for (const from of ints) {
      const x = input(r, from, 40);
      for (const to of [...ints, 'float32', 'float64']) {
        expect(Array.from(tc.cast({ data: x }, to).data), `${from} -> ${to}`).toEqual(Array.from(CTORS[to].from(x)));
      }
    }
  });
});

// ---- the JS functions: operand forms, out, errors ------------------------------------
describe('operand forms and out', () => {
  it('plain data in, plain data out; a resident tensor in, a resident tensor out', () => {
    const p = tc.abs({ data: Float32Array.of(-1, 2, -3, 4), shape: [2, 2] });
    expect(p).toEqual({ data: Float32Array.of(1, 2, 3, 4), shape: [2, 2], dtype: 'float32' });
    const t = tc.tensor(Int16Array.of(-1, 2, -3, 4, -5, 6), [3, 2]);
    const r = tc.neg(t);
    expect(r).toBeInstanceOf(tc.Tensor);
    expect(r.shape).toEqual([3, 2]);
    expect(Array.from(r.toArray())).toEqual([1, -2, 3, -4, 5, -6]);
    const c = tc.cast(t, 'float64');
    expect(c.dtype).toBe('float64');
    expect(Array.from(c.toArray())).toEqual([-1, 2, -3, 4, -5, 6]);
    const b = tc.isFinite(t);
    expect(b.dtype).toBe('uint8');
    for (const x of [t, r, c, b]) x.dispose();
  });

  it('a rank-0 operand, an empty one, and a view (reshape) of a resident tensor', () => {
    expect(tc.sqrt({ data: Float64Array.of(16), shape: [] })).toEqual({ data: Float64Array.of(4), shape: [], dtype: 'float64' });
    expect(tc.cast({ data: new Float32Array(0), shape: [0, 3] }, 'int8')).toEqual({ data: new Int8Array(0), shape: [0, 3], dtype: 'int8' });
    const t = tc.tensor(Float32Array.of(1.5, 2.5, 3.5, 4.5), [4]);
    const v = t.reshape([2, 2]);
    const r = tc.round(v);
    expect(r.shape).toEqual([2, 2]);
    expect(Array.from(r.toArray())).toEqual([2, 2, 4, 4]);
    for (const x of [r, v, t]) x.dispose();
  });

  it('named operands keep their dims and coords (plain and resident)', () => {
    const p = tc.neg({ data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['b', 'c'], coords: { c: ['r', 'g', 'b'] } });
    expect(p.dims).toEqual(['b', 'c']);
    expect(p.coords).toEqual({ c: ['r', 'g', 'b'] });
    expect(Array.from(p.data)).toEqual([-1, -2, -3, -4, -5, -6]);
    const t = tc.tensor(Float32Array.of(1, 2), [2], { dims: ['x'], coords: { x: ['a', 'b'] } });
    const r = tc.cast(t, 'int32');
    expect(r.dims).toEqual(['x']);
    expect(r.coords).toEqual({ x: ['a', 'b'] });
    const q = tc.cast({ data: Float32Array.of(1), dims: ['k'] }, 'uint8');
    expect(q.dims).toEqual(['k']);
    expect(q.coords).toBeUndefined();
    // A resident out with other names is refused before anything runs.
    const o = tc.tensor(new Int32Array(2), [2], { dims: ['y'] });
    expect(() => tc.cast(t, 'int32', { out: o })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    for (const x of [t, r, o]) x.dispose();
  });

  it('float16 as the binary ops take it: bits in a Uint16Array marked dtype float16', () => {
    const r = tc.neg({ data: Uint16Array.of(0x3c00, 0x0000, 0x7e00), dtype: 'float16' });
    expect(r.dtype).toBe('float16');
    expect(Array.from(r.data)).toEqual([0xbc00, 0x8000, 0xfe00]);
    const s = tc.sqrt({ data: Uint16Array.of(0x4400), dtype: 'float16' }); // sqrt(4) = 2
    expect(Array.from(s.data)).toEqual([0x4000]);
    const c = tc.cast({ data: Float32Array.of(1, 65520, 0.1) }, 'float16');
    expect(Array.from(c.data)).toEqual([0x3c00, 0x7c00, 0x2e66]);
    const out = new Uint16Array(1);
    expect(tc.cast({ data: Float64Array.of(2) }, 'float16', { out }).data).toBe(out);
    expect(out[0]).toBe(0x4000);
  });

  it('out: a typed array (returned as data) or a resident tensor (returned itself); in place on a resident input', () => {
    const out = new Float64Array(3);
    const r = tc.floor({ data: Float64Array.of(1.5, -1.5, 2) }, { out });
    expect(r.data).toBe(out);
    expect(Array.from(out)).toEqual([1, -2, 2]);
    const bools = new Uint8Array(2);
    expect(tc.isNaN({ data: Float32Array.of(NaN, 0) }, { out: bools }).data).toBe(bools);
    expect(Array.from(bools)).toEqual([1, 0]);
    const t = tc.tensor(Float32Array.of(1, 4, 9, 16, 25), [5]);
    expect(tc.sqrt(t, { out: t })).toBe(t);
    expect(Array.from(t.toArray())).toEqual([1, 2, 3, 4, 5]);
    // In place over more than a few vectors (the SIMD loop and its tail).
    const big = tc.tensor(Float64Array.from({ length: 67 }, (_, i) => -i), [67]);
    tc.abs(big, { out: big });
    expect(Array.from(big.toArray())).toEqual(Array.from({ length: 67 }, (_, i) => i));
    const i8 = tc.tensor(Int8Array.of(-1, 5), [2]);
    expect(tc.cast(i8, 'uint8', { out: tc.tensor(new Uint8Array(2), [2]) }).toArray()).toEqual(Uint8Array.of(255, 5));
    const u8 = tc.tensor(Uint8Array.of(0, 7), [2]);
    expect(tc.logicalNot(u8, { out: u8 })).toBe(u8); // a bool result into its own uint8 input
    expect(Array.from(u8.toArray())).toEqual([1, 0]);
    const ro = tc.tensor(new Int32Array(3), [3]);
    expect(tc.cast({ data: Float32Array.of(1.9, -1.9, NaN) }, 'int32', { out: ro })).toBe(ro);
    expect(Array.from(ro.toArray())).toEqual([1, -1, 0]);
    for (const x of [t, big, i8, u8, ro]) x.dispose();
  });
});

describe('refusals', () => {
  it('a dtype the op does not take: DTYPE_MISMATCH naming the op, the dtype and the fix', () => {
    for (const op of ['sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh']) {
      let e;
      try { tc[op]({ data: Int32Array.of(1) }); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(tc.BroadcastError);
      expect(e.code).toBe('DTYPE_MISMATCH');
      expect(e.message).toBe(`${op} takes float dtypes (float32, float64, float16), got int32; cast(x, 'float32') first (or 'float64')`);
    }
    expect(() => tc.bitwiseNot({ data: Float64Array.of(1) })).toThrow(/^bitwiseNot takes integer dtypes, got float64; cast\(x, 'int32'\) first/);
    expect(() => tc.bitwiseNot({ data: Uint16Array.of(1), dtype: 'float16' })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
  });

  it('cast: a dtype that is not one, or none', () => {
    expect(() => tc.cast({ data: Int32Array.of(1) }, 'float8')).toThrow(new TypeError('cast: dtype must be one of float32, float64, int8, uint8, uint8clamped, int16, uint16, int32, uint32, bigint64, biguint64, float16, got "float8"'));
    expect(() => tc.cast({ data: Int32Array.of(1) }, Float32Array)).toThrow(/cast: dtype is a name: pass 'float32', not the Float32Array constructor/);
    expect(() => tc.cast({ data: Int32Array.of(1) })).toThrow(/cast: give the dtype to convert to/);
    expect(() => tc.cast({ data: Int32Array.of(1) }, 'toString')).toThrow(TypeError);
  });

  it('out of the wrong size (LENGTH_MISMATCH) or dtype (DTYPE_MISMATCH); a number, a bare array, an unknown option (TypeError)', () => {
    expect(() => tc.neg({ data: Float32Array.of(1, 2) }, { out: new Float32Array(3) })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH', message: 'neg: out has 3 elements but the result (2,) has 2' }));
    expect(() => tc.neg({ data: Float32Array.of(1, 2) }, { out: new Float64Array(2) })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    expect(() => tc.isNaN({ data: Float32Array.of(1, 2) }, { out: new Float32Array(2) })).toThrow(/isNaN: out: a float32 array cannot hold a uint8 result; pass out of dtype uint8/);
    expect(() => tc.cast({ data: Float32Array.of(1) }, 'int8', { out: new Uint8Array(1) })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    const t = tc.tensor(Float32Array.of(1, 2), [2]);
    expect(() => tc.abs({ data: Float32Array.of(1, 2, 3) }, { out: t })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    t.dispose();
    expect(() => tc.neg(3)).toThrow(TypeError);
    expect(() => tc.neg(Float32Array.of(1))).toThrow(/bare Float32Array/);
    expect(() => tc.neg({ data: Float32Array.of(1) }, { outt: 1 })).toThrow(/unknown option "outt"/);
    expect(() => tc.cast({ data: Float32Array.of(1, 2), shape: [3] }, 'int8')).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
  });

  it('no leak after refusals; the engine stays usable', () => {
    const t = tc.tensor(Float32Array.of(1, 2, 3), [3]);
    const i = tc.tensor(Int32Array.of(1), [1]);
    const o2 = tc.tensor(new Float32Array(2), [2]);
    tc.neg(t).dispose(); // the plan and scratch of a first call are not counted as a leak
    const m0 = tc.memory();
    for (let k = 0; k < 50; k++) {
      expect(() => tc.neg({ data: Float32Array.of(1, 2) }, { out: new Float32Array(3) })).toThrow();
      expect(() => tc.neg(t, { out: new Float32Array(4) })).toThrow();
      expect(() => tc.neg(t, { out: o2 })).toThrow();
      expect(() => tc.cast(t, 'int8', { out: new Int8Array(1) })).toThrow();
      expect(() => tc.cast(t, 'nope')).toThrow();
      expect(() => tc.sqrt(i)).toThrow();
      expect(() => tc.isFinite(t, { out: new Float32Array(3) })).toThrow();
      expect(() => tc.exp({ data: Int8Array.of(1) })).toThrow();
    }
    const m1 = tc.memory();
    expect(m1.allocatedBytes).toBe(m0.allocatedBytes);
    expect(m1.liveTensors).toBe(m0.liveTensors);
    const r = tc.neg(t);
    expect(Array.from(r.toArray())).toEqual([-1, -2, -3]);
    for (const x of [r, t, i, o2]) x.dispose();
  });
});

// The backward direction (issue 13) through the package: reductionAxes,
// unbroadcast, sum/prod/min/max/mean, broadcastArrays; the reduction kernels
// of the wasm build (SIMD) against their scalar references.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { mod } from '../../dist/loader.js';
import { reduceKernels } from '../../dist/introspect.js';
import { DTYPES, CTORS, rng, isFloat } from './data-oracle.js';
import { FULL_ENGINE } from './full-engine.js';

// Every reference kept (full-engine.js): this file sweeps SIMD kernels against them.
beforeAll(async () => { await tc.init({ wasmUrl: FULL_ENGINE }); });

const prod = (s) => s.reduce((a, b) => a * b, 1);
const INT_BITS = { int8: [8, true], uint8: [8, false], uint8clamped: [8, false], int16: [16, true], uint16: [16, false], int32: [32, true], uint32: [32, false], bigint64: [64, true], biguint64: [64, false] };

// ---- a naive oracle -----------------------------------------------------------------
function naiveReduce(op, dt, data, shape, axes, outDt = dt) {
  const rank = shape.length;
  const mask = axes === undefined ? shape.map(() => true) : shape.map((_, a) => axes.map((x) => (x + rank) % rank).includes(a));
  const outShape = shape.filter((_, a) => !mask[a]);
  const n = prod(outShape);
  const acc = Array.from({ length: n }, () => []);
  const idx = new Array(rank).fill(0);
  for (let e = 0; e < data.length; e++) {
    let o = 0;
    for (let a = 0; a < rank; a++) if (!mask[a]) o = o * shape[a] + idx[a];
    acc[o].push(data[e]);
    for (let a = rank - 1; a >= 0; a--) { if (++idx[a] < shape[a]) break; idx[a] = 0; }
  }
  const out = new CTORS[outDt](n);
  for (let o = 0; o < n; o++) {
    const v = acc[o];
    if (isFloat(outDt)) {
      const xs = v.map(Number);
      let r;
      if (op === 'sum' || op === 'mean') r = xs.reduce((a, b) => a + b, 0);
      else if (op === 'prod') r = xs.reduce((a, b) => a * b, 1);
      else if (op === 'min') r = xs.reduce((a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b)), Infinity);
      else r = xs.reduce((a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)), -Infinity);
      if (op === 'mean') r /= v.length;
      out[o] = r;
    } else {
      const xs = v.map((x) => BigInt(x));
      let r;
      if (op === 'sum') r = xs.reduce((a, b) => a + b, 0n);
      else if (op === 'prod') r = xs.reduce((a, b) => a * b, 1n);
      else if (op === 'min') r = xs.reduce((a, b) => (b < a ? b : a));
      else r = xs.reduce((a, b) => (b > a ? b : a));
      const [bits, signed] = INT_BITS[outDt];
      if (outDt === 'uint8clamped') r = r < 0n ? 0n : r > 255n ? 255n : r;
      const w = signed ? BigInt.asIntN(bits, r) : BigInt.asUintN(bits, r);
      out[o] = bits === 64 ? w : Number(w);
    }
  }
  return { data: out, shape: outShape };
}

function randomData(r, dt, n, small) {
  const a = new CTORS[dt](n);
  for (let i = 0; i < n; i++) {
    if (isFloat(dt)) a[i] = small ? r.int(-3, 3) : Math.round((r() * 20 - 10) * 8) / 8;
    else if (dt === 'bigint64') a[i] = BigInt(r.int(-5, 5));
    else if (dt === 'biguint64') a[i] = BigInt(r.int(0, 5));
    else a[i] = INT_BITS[dt][1] ? r.int(-5, 5) : r.int(0, 5);
  }
  return a;
}

// Run reduction kernel `idx` (tc_reduce_kernel_run) on x: `rows` rows of n
// elements `stride` apart; returns its outN results as x's array type.
function runReduceKernel(idx, x, rows, n, stride, outN) {
  const M = mod();
  const C = x.constructor;
  const px = M._tc_malloc(Math.max(x.byteLength, 1)) >>> 0; // addresses are unsigned (docs/boundary.md)
  const po = M._tc_malloc(outN * C.BYTES_PER_ELEMENT) >>> 0;
  new Uint8Array(M.HEAPU8.buffer, px, x.byteLength).set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
  expect(M._tc_reduce_kernel_run(idx, px, rows, n, stride, po)).toBe(0);
  const out = new C(M.HEAPU8.buffer.slice(po, po + outN * C.BYTES_PER_ELEMENT));
  M._tc_free(px);
  M._tc_free(po);
  return out;
}

describe('reduction kernels of the wasm build', () => {
  it('every SIMD kernel equals its scalar reference at every length 1 … 9 vector widths + 1, rows 1 … 9', () => {
    const ks = reduceKernels();
    const ref = new Map(ks.filter((k) => !k.simd).map((k) => [`${k.dtype} ${k.op} ${k.shape}`, k]));
    expect(ks.filter((k) => k.simd).length).toBeGreaterThan(20);
    const r = rng(7);
    let swept = 0;
    for (const k of ks.filter((x) => x.simd)) {
      const R = ref.get(`${k.dtype} ${k.op} ${k.shape}`);
      expect(R, k.name).toBeDefined();
      const C = CTORS[k.dtype];
      const width = 16 / C.BYTES_PER_ELEMENT;
      const rowsList = k.shape === 'row' ? [1] : [1, 2, 3, 5, 9];
      for (const rows of rowsList) {
        for (let n = 1; n <= 9 * width + 1; n++) {
          const x = randomData(r, k.dtype, rows * n, k.op === 'prod');
          const run = (idx) => runReduceKernel(idx, x, rows, n, n, k.shape === 'row' ? 1 : n);
          const got = run(k.index);
          const want = run(R.index);
          for (let i = 0; i < got.length; i++) {
            if (!(Object.is(got[i], want[i]) || (Number.isNaN(got[i]) && Number.isNaN(want[i])))) {
              throw new Error(`${k.name} rows ${rows} n ${n} [${i}]: ${got[i]} vs ${want[i]}`);
            }
          }
          swept++;
        }
      }
    }
    expect(swept).toBeGreaterThan(1000);
  });
});

// The col order (reduce_pairwise.hpp) in JS: per column, leaves of up to R
// rows summed in order (float32 R = 16, float64 8), split at half the rows
// rounded down to a multiple of R (at least R), the halves added.
function colOrderSum(x, rows, w, stride, R, round) {
  const out = [];
  for (let j = 0; j < w; j++) {
    const part = (r0, n) => {
      if (n <= R) {
        let a = x[r0 * stride + j];
        for (let r = 1; r < n; r++) a = round(a + x[(r0 + r) * stride + j]);
        return a;
      }
      let h = Math.floor(n / 2);
      h -= h % R;
      if (h < R) h = R;
      return round(part(r0, h) + part(r0 + h, n - h));
    };
    out.push(part(0, rows));
  }
  return out;
}

describe('float sums over a leading axis (the col order)', () => {
  // Rows 2 KiB apart or more share L1 sets: the float32 kernel then runs a
  // leaf of more than 8 rows as two groups over 1 KiB of columns at a time
  // (reduce_wasmsimd.cpp); widths past a multiple of that take the rest
  // whole. Every case against the documented order and the scalar reference.
  const cases = [];
  for (const [dt, R, round] of [['float32', 16, Math.fround], ['float64', 8, (v) => v]]) {
    const es = dt === 'float32' ? 4 : 8;
    for (const stride of [512, 520, 1024, 2048 / es, 4096 / es, 300]) {
      for (const w of [stride, stride - 3, Math.max(1, stride - 1024 / es - 5), 17]) {
        for (const rows of [9, 16, 17, 24, 31, 33, 64, 100]) cases.push([dt, R, round, stride, w, rows]);
      }
    }
  }
  it(`${cases.length} shapes: sum(slice(x, null, [0, w]), { axes: [0] }) is the col order's, bit for bit`, () => {
    const r = rng(97);
    let orderBound = 0;
    for (const [dt, R, round, stride, w, rows] of cases) {
      const C = CTORS[dt];
      const x = new C(rows * stride);
      // Magnitudes far apart, so that the order shows in the bits; a few -0, +0, NaN, ±Inf.
      for (let i = 0; i < x.length; i++) x[i] = (r() - 0.5) * 2 ** r.int(-20, 20);
      for (let k = 0; k < 6; k++) x[r.int(0, x.length - 1)] = [-0, 0, NaN, Infinity, -Infinity, -0][k];
      const t = tc.tensor(x, [rows, stride]);
      const v = tc.slice(t, null, [0, w]);
      const got = tc.sum(v, { axes: [0] });
      const want = colOrderSum(x, rows, w, stride, R, round);
      const plain = colOrderSum(x, rows, w, stride, rows, round); // one chain: shows the data binds the order
      const g = got.toArray();
      for (let j = 0; j < w; j++) {
        if (!Object.is(g[j], want[j]) && !(Number.isNaN(g[j]) && Number.isNaN(want[j]))) {
          throw new Error(`${dt} [${rows}, ${stride}] width ${w} column ${j}: ${g[j]}, the col order ${want[j]}`);
        }
        if (!Object.is(want[j], plain[j]) && !Number.isNaN(want[j])) orderBound++;
      }
      for (const u of [got, v, t]) u.dispose();
    }
    expect(orderBound).toBeGreaterThan(1000);
  });

  it('each col kernel equals its scalar reference on those shapes', () => {
    const ks = reduceKernels().filter((k) => k.shape === 'col' && k.op === 'sum' && (k.dtype === 'float32' || k.dtype === 'float64'));
    const ref = new Map(ks.filter((k) => !k.simd).map((k) => [k.dtype, k]));
    const simd = ks.filter((k) => k.simd);
    expect(simd.map((k) => k.dtype).sort()).toEqual(['float32', 'float64']);
    const r = rng(98);
    for (const k of simd) {
      const C = CTORS[k.dtype];
      for (const [dt, , , stride, w, rows] of cases) {
        if (dt !== k.dtype) continue;
        const x = new C(rows * stride).map(() => (r() - 0.5) * 2 ** r.int(-20, 20));
        const run = (idx) => runReduceKernel(idx, x, rows, w, stride, w);
        const got = run(k.index);
        const want = run(ref.get(k.dtype).index);
        for (let j = 0; j < w; j++) expect(Object.is(got[j], want[j]), `${k.name} [${rows}, ${stride}] width ${w} column ${j}`).toBe(true);
      }
    }
  });
});

describe('sum, prod, min, max, mean', () => {
  const SHAPES = [[7], [3, 5], [2, 3, 4], [4, 1, 6], [2, 3, 2, 5]];
  for (const op of ['sum', 'prod', 'min', 'max', 'mean']) {
    it(`${op}: every dtype, several axes sets and keepdims, against a naive loop`, () => {
      const r = rng(op.length * 31);
      for (const dt of DTYPES) {
        if (op === 'mean' && !isFloat(dt)) continue; // below
        for (const shape of SHAPES) {
          const data = randomData(r, dt, prod(shape), op === 'prod');
          const sets = [undefined, [0], [-1], shape.length > 1 ? [0, shape.length - 1] : [0]];
          for (const axes of sets) {
            for (const keepdims of [false, true]) {
              const got = tc[op]({ data, shape }, { axes, keepdims });
              const want = naiveReduce(op, dt, data, shape, axes);
              const rank = shape.length;
              const ks = axes === undefined ? shape.map((_, a) => a) : axes.map((a) => (a + rank) % rank);
              expect(got.shape).toEqual(keepdims ? shape.map((d, a) => (ks.includes(a) ? 1 : d)) : want.shape);
              expect(got.dtype).toBe(dt);
              for (let i = 0; i < want.data.length; i++) {
                const g = got.data[i];
                const w = want.data[i];
                if (isFloat(dt) && (op === 'sum' || op === 'mean' || op === 'prod')) expect(Math.abs(g - w)).toBeLessThanOrEqual(Math.abs(w) * 1e-6 + 1e-6);
                else expect(Object.is(g, w) || (Number.isNaN(g) && Number.isNaN(w)), `${op} ${dt} ${shape} ${axes} [${i}] ${g} vs ${w}`).toBe(true);
              }
            }
          }
        }
      }
    });
  }
  it('mean of integers is float64 (NumPy); dtype accumulates in another dtype', () => {
    expect(tc.mean({ data: new Int8Array([1, 2, 4]) })).toEqual({ data: Float64Array.of(7 / 3), shape: [], dtype: 'float64' });
    expect(tc.sum({ data: new Int8Array(200).fill(100) }).data[0]).toBe(32); // 20000 wraps in int8
    expect(tc.sum({ data: new Int8Array(200).fill(100) }, { dtype: 'int32' }).data[0]).toBe(20000);
    expect(tc.sum({ data: new Int8Array(200).fill(100) }, { dtype: 'float64' }).data[0]).toBe(20000);
    expect(tc.sum({ data: new BigInt64Array([2n ** 62n, 2n ** 62n]) }).data[0]).toBe(-(2n ** 63n));
  });
  it('NaN propagates in min and max; zero elements: sum 0, prod 1, min/max refused', () => {
    expect(tc.min({ data: Float32Array.of(1, NaN, -3) }).data[0]).toBeNaN();
    expect(tc.max({ data: Float64Array.of(NaN, 5) }).data[0]).toBeNaN();
    expect(tc.sum({ data: new Float32Array(0), shape: [0, 3] }, { axes: 0 }).data).toEqual(new Float32Array(3));
    expect(Array.from(tc.prod({ data: new Int32Array(0), shape: [0, 2] }, { axes: 0 }).data)).toEqual([1, 1]);
    for (const op of ['min', 'max']) {
      let e = null;
      try { tc[op]({ data: new Float32Array(0), shape: [2, 0] }, { axes: 1 }); } catch (x) { e = x; }
      expect(e).toBeInstanceOf(tc.BroadcastError);
      expect(e.code).toBe('INVALID_AXIS');
      expect(e.message).toMatch(/no elements/);
    }
  });
  it('float min and max rows (pmin/pmax, NaNs found by a lane sum): NaN anywhere, both zeros, infinities, sums past the range give the reference\'s answer', () => {
    // The row kernel's vector loop passes a NaN over and keeps whichever zero came
    // first; the answer must still be NumPy's: NaN if any, -0 below +0.
    const r = rng(99);
    const pick = [0, -0, 1, -1, 2.5, -2.5, Infinity, -Infinity, NaN, 0.125];
    const want = (op, xs) => {
      if (xs.some(Number.isNaN)) return NaN;
      let m = xs[0];
      for (const v of xs) if (op === 'max' ? v > m || (v === 0 && m === 0 && Object.is(m, -0)) : v < m || (v === 0 && m === 0 && Object.is(v, -0))) m = v;
      return m;
    };
    let checked = 0;
    for (const [dt, C] of [['float32', Float32Array], ['float64', Float64Array]]) {
      for (const n of [1, 3, 8, 15, 16, 17, 31, 32, 33, 64, 65, 100, 257]) {
        for (let trial = 0; trial < 12; trial++) {
          const x = new C(n);
          // mostly zeros of both signs (the case the scan settles), some other specials
          for (let i = 0; i < n; i++) x[i] = trial < 4 ? (r() < 0.5 ? 0 : -0) : trial < 8 ? pick[Math.floor(r() * 8)] : pick[Math.floor(r() * pick.length)];
          if (trial === 11) x[Math.floor(r() * n)] = NaN;
          for (const op of ['max', 'min']) {
            const got = tc[op]({ data: x }).data[0];
            const w = want(op, Array.from(x));
            expect(Object.is(got, w) || (Number.isNaN(got) && Number.isNaN(w)), `${op} ${dt} n=${n} [${Array.from(x)}]: ${got} vs ${w}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(2 * 13 * 12 * 2);
    // Where the vector loop alone would err: the other zero, or a NaN, only after the first 16 elements;
    // where its lane sum is NaN without a NaN in the row.
    for (const C of [Float32Array, Float64Array]) {
      for (const n of [17, 32, 33, 64, 100]) {
        for (const at of [16, n >> 1, n - 1]) {
          const neg = new C(n).fill(-0);
          neg[at] = 0;
          expect(Object.is(tc.max({ data: neg }).data[0], 0), `max ${C.name} n=${n} +0 at ${at}`).toBe(true);
          expect(Object.is(tc.min({ data: neg }).data[0], -0), `min ${C.name} n=${n}`).toBe(true);
          const pos = new C(n).fill(0);
          pos[at] = -0;
          expect(Object.is(tc.min({ data: pos }).data[0], -0), `min ${C.name} n=${n} -0 at ${at}`).toBe(true);
          expect(Object.is(tc.max({ data: pos }).data[0], 0), `max ${C.name} n=${n}`).toBe(true);
          const nan = C.from({ length: n }, (_, i) => i - 3);
          nan[at] = NaN;
          expect(tc.max({ data: nan }).data[0], `max ${C.name} n=${n} NaN at ${at}`).toBeNaN();
          expect(tc.min({ data: nan }).data[0], `min ${C.name} n=${n} NaN at ${at}`).toBeNaN();
          // No NaN, but a lane sum that is NaN (+Inf and -Inf) or overflows both ways: the real answer.
          const inf = C.from({ length: n }, (_, i) => i - 3);
          inf[at] = Infinity;
          inf[0] = -Infinity;
          expect(tc.max({ data: inf }).data[0], `max ${C.name} n=${n} +-Inf`).toBe(Infinity);
          expect(tc.min({ data: inf }).data[0], `min ${C.name} n=${n} +-Inf`).toBe(-Infinity);
          // Positive in one 64-byte step (16 float32, 8 float64), negative in the next: each step's lane sums
          // overflow, to +Infinity, then -Infinity.
          const M = C === Float32Array ? 3.4e38 : 1.7e308;
          const K = 64 / C.BYTES_PER_ELEMENT;
          const big = C.from({ length: n }, (_, i) => (Math.floor(i / K) % 2 ? -0.9 : 0.9) * M);
          big[at] = Math.floor(at / K) % 2 ? -M : M;
          for (const op of ['max', 'min']) expect(tc[op]({ data: big }).data[0], `${op} ${C.name} n=${n} sums past the range`).toBe(want(op, Array.from(big)));
        }
      }
    }
  });
  it('a float sum of -0 terms is +0, as NumPy\'s (it starts from +0): rows, columns, no axes, expressions, contractions; unbroadcast with nothing to sum keeps g', () => {
    const pos0 = (v) => Object.is(v, 0);
    for (const C of [Float32Array, Float64Array]) {
      for (const n of [1, 2, 16, 17, 1500]) {
        const z = { data: new C(2 * n).fill(-0), shape: [2, n] };
        const what = `${C.name} [2,${n}]`;
        expect(pos0(tc.sum(z).data[0]), `sum ${what}`).toBe(true);
        expect(Array.from(tc.sum(z, { axes: [1] }).data).every(pos0), `rows ${what}`).toBe(true);
        expect(Array.from(tc.sum(z, { axes: [0] }).data).every(pos0), `columns ${what}`).toBe(true);
        expect(Array.from(tc.sum(z, { axes: [] }).data).every(pos0), `no axes ${what}`).toBe(true);
        expect(Array.from(tc.mean(z, { axes: [1] }).data).every(pos0), `mean ${what}`).toBe(true);
        expect(pos0(tc.evaluate('sum(x)', { x: z }).data[0]), `expression ${what}`).toBe(true);
        expect(Array.from(tc.evaluate('sum(x * 2, [0])', { x: z }).data).every(pos0), `expression columns ${what}`).toBe(true);
        // the contraction kernel: x {b, in} . w {in, out}, every product -0
        const x = { data: new C(64 * n).fill(-0), shape: [64, n], dims: ['b', 'in'] };
        const w = { data: new C(n * 64).fill(1), shape: [n, 64], dims: ['in', 'out'] };
        const y = tc.evaluate("sum(x * w, ['in'])", { x, w });
        expect(y.data.length).toBe(64 * 64);
        expect(Array.from(y.data).every(pos0), `contraction ${what}`).toBe(true);
        // a product keeps the sign: (-0)^n
        expect(Object.is(tc.prod({ data: new C(n).fill(-0) }).data[0], n % 2 ? -0 : 0), `prod ${what}`).toBe(true);
        // other sums are unchanged: -0 + 1 is 1, NaN stays NaN
        const m = new C(n).fill(-0);
        m[n - 1] = 1;
        expect(tc.sum({ data: m }).data[0]).toBe(1);
      }
      const g = { data: C.from([-0, 1, -0, 2]), shape: [2, 2] };
      const same = tc.unbroadcast(g, [2, 2]).data;
      expect(Object.is(same[0], -0) && Object.is(same[2], -0), 'unbroadcast to the same shape is g').toBe(true);
      expect(Array.from(tc.unbroadcast({ data: new C(4).fill(-0), shape: [2, 2] }, [1, 2]).data).every(pos0)).toBe(true);
    }
  });

  it('bad axes: duplicates and out of range are INVALID_AXIS; bad options are TypeErrors', () => {
    const x = { data: new Float32Array(6), shape: [2, 3] };
    for (const axes of [[0, 0], [0, -2], [2], [-3]]) {
      let e = null;
      try { tc.sum(x, { axes }); } catch (err) { e = err; }
      expect(e?.code, JSON.stringify(axes)).toBe('INVALID_AXIS');
    }
    expect(() => tc.sum(x, { axis: 0 })).toThrow(TypeError);
    expect(() => tc.sum(x, { dtype: 'bfloat16' })).toThrow(TypeError);
    expect(() => tc.sum(x, { keepdims: 1 })).toThrow(TypeError);
  });
  it('an axes entry of a wrong type (a bigint, a boolean, null, an array, a string, a hole) is a TypeError (§8); a number that is no integer axis stays INVALID_AXIS', () => {
    const x = { data: new Float32Array(6), shape: [2, 3] };
    for (const axes of [[1n], [0, true], [null], [[0]], ['1'], [, 1]]) { // eslint-disable-line no-sparse-arrays
      for (const op of ['sum', 'prod', 'min', 'max', 'mean']) {
        let e = null;
        try { tc[op](x, { axes }); } catch (err) { e = err; }
        expect(e?.name, `${op} ${String(axes)}`).toBe('TypeError');
        expect(e.message).toMatch(new RegExp(`^${op}: axes\\[\\d\\] must be an integer axis, got `));
      }
    }
    for (const axes of [[0.5], [NaN], [0, Infinity]]) {
      expect(() => tc.sum(x, { axes }), String(axes)).toThrow(expect.objectContaining({ name: 'BroadcastError', code: 'INVALID_AXIS', axis: null }));
    }
  });
  it('float32 sums are accurate: 2^20 values in [0, 1) within 1e-6 relative of the exact sum', () => {
    const r = rng(2024);
    const n = 1 << 20;
    const x = new Float32Array(n);
    let exact = 0;
    for (let i = 0; i < n; i++) { x[i] = r(); exact += x[i]; } // float64 accumulation of float32 values: exact enough here
    const got = tc.sum({ data: x }).data[0];
    expect(Math.abs(got - exact) / exact).toBeLessThan(1e-6);
    const cols = tc.sum({ data: x, shape: [1024, 1024] }, { axes: 0 }).data;
    let exact0 = 0;
    for (let i = 0; i < 1024; i++) exact0 += x[i * 1024];
    expect(Math.abs(cols[0] - exact0) / exact0).toBeLessThan(1e-6);
  });
  it('resident in, resident out; out accepted; nothing leaks', () => {
    const before = tc.memory();
    const t = tc.tensor(Float32Array.from({ length: 24 }, (_, i) => i), [2, 3, 4]);
    const s = tc.sum(t, { axes: [0, 2] });
    expect(s).toBeInstanceOf(tc.Tensor);
    expect(Array.from(s.toArray())).toEqual([60, 92, 124]);
    const out = new Float32Array(3);
    expect(tc.sum(t, { axes: [0, 2], out }).data).toBe(out);
    expect(() => tc.sum(t, { axes: [0], out })).toThrow(tc.BroadcastError);
    s.dispose();
    t.dispose();
    expect(tc.memory().allocatedBytes).toBe(before.allocatedBytes);
    expect(tc.memory().liveTensors).toBe(before.liveTensors);
  });
});

describe('reductionAxes and unbroadcast', () => {
  it('each mode (tfjs getReductionAxes / TensorFlow BroadcastGradientArgs / OpenVINO Broadcast spec cases)', () => {
    expect(tc.reductionAxes([3, 1], [2, 3, 5])).toEqual([0, 2]);
    expect(tc.reductionAxes([1, 1], [4, 1, 2])).toEqual([0, 2]); // both-1 axes are not listed
    expect(tc.reductionAxes([2, 3], [2, 3])).toEqual([]);
    expect(tc.reductionAxes([1], [0])).toEqual([0]); // 1 -> 0 is summed
    expect(tc.reductionAxes([16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] })).toEqual([0, 2, 3]);
    expect(tc.reductionAxes([3, 1], [2, 3, 6], { mode: 'pdpd', axis: 1 })).toEqual([0, 2]);
    expect(tc.reductionAxes([1, 3, 1], [2, 3, 4], { mode: 'bidirectional' })).toEqual([0, 2]);
    // A forward broadcast that is refused is refused here too; an undecidable axis is named.
    expect(() => tc.reductionAxes([3], [4])).toThrow(tc.BroadcastError);
    let e = null;
    try { tc.reductionAxes([2, '?'], [2, 5]); } catch (x) { e = x; }
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.axis).toBe(1);
    expect(e.message).toMatch(/not known/);
    // Rule none stretches nothing: a '?' or an interval that may be 1 sums no axis (until 0.9.19 "not known").
    expect(tc.reductionAxes(['?'], ['?'], { type: 'none' })).toEqual([]);
    expect(tc.reductionAxes(['1..5', 3], ['1..5', 3], { type: 'none' })).toEqual([]);
    expect(tc.reductionAxes(['?', 1], [4, 1], { type: 'none' })).toEqual([]);
    // An unknown rank: nothing can be said of any axis (and no "rank ? is lower" nonsense).
    expect(() => tc.reductionAxes([2, 3], '[...]')).toThrow(/which axes are summed is not known: the output's rank is unknown/);
    expect(() => tc.reductionAxes('[...]', [2, 3])).toThrow(/the input's rank is unknown/);
  });
  it('property: unbroadcast(broadcastTo(x, target, o), x.shape, o) is x times the copies of each element', () => {
    const r = rng(99);
    let n = 0;
    for (let c = 0; c < 300; c++) {
      const mode = r.pick(['numpy', 'numpy', 'explicit', 'bidirectional', 'pdpd']);
      const target = Array.from({ length: 1 + r.int(0, 3) }, () => r.int(1, 4));
      let shape;
      const o = { mode };
      if (mode === 'explicit') {
        const keep = target.map((_, a) => a).filter(() => r() < 0.6);
        o.axesMapping = keep;
        shape = keep.map((a) => (r() < 0.4 ? 1 : target[a]));
      } else if (mode === 'pdpd') {
        const start = r.int(0, target.length - 1);
        const len = r.int(1, target.length - start);
        o.axis = start;
        shape = target.slice(start, start + len).map((d) => (r() < 0.4 ? 1 : d));
      } else {
        const len = r.int(0, target.length);
        shape = target.slice(target.length - len).map((d) => (r() < 0.4 ? 1 : d));
      }
      const x = { data: Float64Array.from({ length: prod(shape) }, () => r.int(-9, 9)), shape };
      const b = tc.broadcastTo(x, target, o);
      const copies = prod(b.shape) / Math.max(prod(shape), 1);
      const g = tc.unbroadcast(b, shape, o);
      expect(g.shape, JSON.stringify({ shape, target, o })).toEqual(shape);
      expect(Array.from(g.data)).toEqual(Array.from(x.data, (v) => v * copies));
      expect(tc.sum(b).data[0]).toBe(Array.from(x.data).reduce((s, v) => s + v, 0) * copies);
      n++;
    }
    expect(n).toBe(300);
  });
  it('unbroadcast of an NCHW gradient to a per-channel bias, resident', () => {
    const g = tc.tensor(Float32Array.from({ length: 2 * 3 * 2 * 2 }, (_, i) => i % 5), [2, 3, 2, 2]);
    const db = tc.unbroadcast(g, [1, 3, 1, 1]);
    expect(db.shape).toEqual([1, 3, 1, 1]);
    const want = [0, 0, 0];
    const d = g.toArray();
    for (let i = 0; i < d.length; i++) want[Math.floor(i / 4) % 3] += d[i];
    expect(Array.from(db.toArray())).toEqual(want);
    db.dispose();
    g.dispose();
  });
  it('named: the dims the input lacks are summed, the rest put in the input\'s order', () => {
    const x = { data: Float32Array.of(1, 2, 3), shape: [3], dims: ['c'] };
    const y = { data: Float32Array.of(10, 20, 30, 40, 50, 60), shape: [2, 3], dims: ['b', 'c'] };
    const z = tc.add(x, y);
    expect(z.dims).toEqual(['c', 'b']);
    const g = { data: Float32Array.from({ length: 6 }, (_, i) => i + 1), shape: z.shape, dims: z.dims };
    const gx = tc.unbroadcast(g, { dims: ['c'], shape: [3] });
    expect(gx).toEqual({ data: Float32Array.of(3, 7, 11), shape: [3], dtype: 'float32', dims: ['c'] });
    const gy = tc.unbroadcast(g, { dims: ['b', 'c'], shape: [2, 3] });
    expect(gy.dims).toEqual(['b', 'c']);
    expect(Array.from(gy.data)).toEqual([1, 3, 5, 2, 4, 6]); // g is [c, b]: transposed back
    const gi = tc.unbroadcast(g, { dims: ['b', 'c'], shape: [2, 3] }, { dtype: 'float64', out: new Float64Array(6) });
    expect(gi.data).toBeInstanceOf(Float64Array);
    expect(Array.from(gi.data)).toEqual([1, 3, 5, 2, 4, 6]);
  });
  it('named with coords: a label the gradient lacks gets 0, one the input lacks is dropped', () => {
    const xl = { data: Float32Array.of(1, 2, 3), dims: ['c'], coords: { c: ['a', 'b', 'c'] } };
    const yl = { data: Float32Array.of(10, 20, 30), dims: ['c'], coords: { c: ['b', 'c', 'd'] } };
    const z = tc.add(xl, yl); // intersection: c = [b, c]
    expect(z.coords).toEqual({ c: ['b', 'c'] });
    const g = { data: Float32Array.of(5, 7), shape: z.shape, dims: z.dims, coords: z.coords };
    expect(tc.unbroadcast(g, { dims: ['c'], coords: xl.coords })).toEqual({ data: Float32Array.of(0, 5, 7), shape: [3], dtype: 'float32', dims: ['c'], coords: { c: ['a', 'b', 'c'] } });
    expect(Array.from(tc.unbroadcast(g, { dims: ['c'], coords: yl.coords }).data)).toEqual([5, 7, 0]);
    const u = tc.add(xl, yl, { shaping: 'union', fill: 0 }); // c = [a, b, c, d]
    const gu = { data: Float32Array.of(1, 2, 3, 4), shape: u.shape, dims: u.dims, coords: u.coords };
    expect(Array.from(tc.unbroadcast(gu, { dims: ['c'], coords: yl.coords }).data)).toEqual([2, 3, 4]);
  });
  it('named property: the gradient of ones is, per input cell, the number of output cells that read it', () => {
    const r = rng(1313);
    const names = ['n', 'c', 'h', 'w'];
    for (let t = 0; t < 60; t++) {
      const pick = () => names.filter(() => r() < 0.6);
      const da = pick();
      const db = pick();
      const size = Object.fromEntries(names.map((n) => [n, 1 + Math.floor(r() * 3)]));
      const mk = (dims) => ({ data: new Float64Array(prod(dims.map((d) => size[d]))).fill(1), shape: dims.map((d) => size[d]), dims });
      const a = mk(da);
      const b = mk(db);
      const z = tc.mul(a, b);
      const ones = { data: new Float64Array(z.data.length).fill(1), shape: z.shape, dims: z.dims };
      for (const [x, other] of [[a, db], [b, da]]) {
        const gx = tc.unbroadcast(ones, { dims: x.dims, shape: x.shape });
        expect(gx.shape).toEqual(x.shape);
        expect(gx.dims).toEqual(x.dims);
        const copies = prod(other.filter((d) => !x.dims.includes(d)).map((d) => size[d]));
        expect(Array.from(gx.data)).toEqual(new Array(x.data.length).fill(copies));
      }
    }
  });
  it('named: resident gradients give a named tensor; refusals name the dim', () => {
    const tg = tc.tensor(Float32Array.from({ length: 6 }, (_, i) => i + 1), [3, 2], { dims: ['c', 'b'] });
    const r = tc.unbroadcast(tg, { dims: ['b', 'c'], shape: [2, 3] });
    expect(r.dims).toEqual(['b', 'c']);
    expect(Array.from(r.toArray())).toEqual([1, 3, 5, 2, 4, 6]);
    r.dispose();
    const s = tc.unbroadcast(tg, { dims: ['c'], shape: [3] });
    expect(s.dims).toEqual(['c']);
    expect(Array.from(s.toArray())).toEqual([3, 7, 11]);
    s.dispose();
    expect(() => tc.unbroadcast(tg, { dims: ['q'], shape: [3] })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', axis: 0 }));
    expect(() => tc.unbroadcast(tg, { dims: ['c'], shape: [4] })).toThrow(/size 4 in the input and 3 in the gradient/);
    expect(() => tc.unbroadcast(tg, [3])).toThrow(TypeError);
    expect(() => tc.unbroadcast({ data: new Float32Array(3), shape: [3] }, { dims: ['c'], shape: [3] })).toThrow(/the input is named \(dims \["c"\]\) but the gradient has no dims: give grad its dims .* or pass the input's shape \(\[3\]\) to sum by position/);
    expect(() => tc.unbroadcast(tg, { dims: ['c'], shape: [3] }, { mode: 'numpy' })).toThrow(/matched by name/);
    // A resident out tensor is written and handed back, never replaced or freed.
    const out = tc.tensor(new Float32Array(3), [3]);
    expect(tc.unbroadcast(tg, { dims: ['c'], shape: [3] }, { out })).toBe(out);
    expect(out.disposed).toBe(false);
    expect(Array.from(out.toArray())).toEqual([3, 7, 11]);
    const out2 = tc.tensor(new Float32Array(6), [2, 3]);
    expect(tc.unbroadcast(tg, { dims: ['b', 'c'], shape: [2, 3] }, { out: out2 })).toBe(out2);
    expect(Array.from(out2.toArray())).toEqual([1, 3, 5, 2, 4, 6]);
    out.dispose();
    out2.dispose();
    tg.dispose();
    expect(tc.memory().liveTensors).toBe(0);
  });
  it('broadcastArrays gives each operand at the common shape', () => {
    const [a, b] = tc.broadcastArrays({ data: Float32Array.of(1, 2), shape: [2] }, { data: Float32Array.of(10, 20, 30), shape: [3, 1] });
    expect(a.shape).toEqual([3, 2]);
    expect(Array.from(a.data)).toEqual([1, 2, 1, 2, 1, 2]);
    expect(Array.from(b.data)).toEqual([10, 10, 20, 20, 30, 30]);
  });
  it('broadcastArrays takes as many operands as broadcastShapes (until 0.9.17 past about 62,700 the JS stack overflowed)', () => {
    const many = Array.from({ length: 65536 }, (_, k) => ({ data: k === 0 ? Float32Array.of(0, 0) : Float32Array.of(k) }));
    const r = tc.broadcastArrays(...many);
    expect(r).toHaveLength(65536);
    expect([r[65535].shape, Array.from(r[65535].data)]).toEqual([[2], [65535, 65535]]);
    expect(() => tc.broadcastArrays(...many, { data: Float32Array.of(0) })).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});

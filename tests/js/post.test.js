// Post-processing along an axis (bindings/js/post.js, bindings/wasm/post.cpp):
// softmax, logSoftmax, logSumExp, argmax, argmin and topk. NumPy's values
// (tests/fixtures/numpy_post.json, tests/tools/gen_numpy_post.py) for every
// dtype; softmax, logSoftmax and logSumExp bit for bit the ops called one by
// one; every operand form (plain, resident, views, named by dim name,
// float16) and `out`; the refusals; no leak after any of them.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const fixture = JSON.parse(readFileSync(new URL('../fixtures/numpy_post.json', import.meta.url), 'utf8'));

const CTORS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, bigint64: BigInt64Array, biguint64: BigUint64Array,
  float16: Uint16Array,
};
const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

function decode(dtype, enc) {
  if (dtype === 'float16') return Uint16Array.from(enc.bits);
  const a = new CTORS[dtype](enc.length);
  for (let i = 0; i < enc.length; i++) {
    const v = enc[i];
    a[i] = dtype === 'bigint64' || dtype === 'biguint64' ? BigInt(v) : typeof v === 'string' ? SPECIAL[v] : v;
  }
  return a;
}
const operand = (c) => ({ data: decode(c.dtype, c.x), shape: c.shape, ...(c.dtype === 'float16' ? { dtype: 'float16' } : {}) });
const bitsOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const sameBits = (a, b) => a.length === b.length && bitsOf(a).every((v, i) => v === bitsOf(b)[i]);

function halfValue(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

describe('NumPy fixtures (tests/tools/gen_numpy_post.py)', () => {
  it('argmax and argmin: every dtype, every axis, flattened, keepdims: exactly', () => {
    let n = 0;
    for (const c of fixture.arg) {
      const r = tc[c.fn](operand(c), c.axis ?? undefined, { keepdims: c.keepdims });
      expect(r.dtype).toBe('int32');
      expect(r.shape, `${c.fn} ${c.dtype} ${c.shape} axis ${c.axis}`).toEqual(c.wantShape);
      expect(Array.from(r.data), `${c.fn} ${c.dtype} ${JSON.stringify(c.shape)} axis ${c.axis}`).toEqual(c.want);
      n++;
    }
    expect(n).toBeGreaterThan(500);
  });

  it('topk: every dtype, every axis, largest and smallest, k from 0 to n: values bit for bit, indices exactly', () => {
    for (const c of fixture.topk) {
      const r = tc.topk(operand(c), c.k, { axis: c.axis, largest: c.largest });
      const what = `topk ${c.dtype} ${JSON.stringify(c.shape)} axis ${c.axis} k ${c.k} ${c.largest ? 'largest' : 'smallest'}`;
      expect(r.values.shape, what).toEqual(c.wantShape);
      expect(r.indices.shape, what).toEqual(c.wantShape);
      expect(Array.from(r.indices.data), what).toEqual(c.indices);
      expect(sameBits(r.values.data, decode(c.dtype, c.values)), what).toBe(true);
    }
  });

  it('softmax, logSoftmax, logSumExp: float32, float64, float16, every axis and axis list, within a few ulps of NumPy in float64', () => {
    const eps = { float32: 2 ** -23, float64: 2 ** -52, float16: 2 ** -10 };
    let worst = 0;
    for (const c of fixture.soft) {
      const x = operand(c);
      const r = c.fn === 'logSumExp' ? tc.logSumExp(x, c.axes ?? undefined, { keepdims: c.keepdims }) : tc[c.fn](x, c.axis);
      const want = decode(c.dtype, c.want);
      if (c.wantShape) expect(r.shape).toEqual(c.wantShape);
      else expect(r.shape).toEqual(c.shape);
      const val = c.dtype === 'float16' ? halfValue : (v) => v;
      for (let i = 0; i < want.length; i++) {
        const g = val(r.data[i]);
        const w = val(want[i]);
        const err = Math.abs(g - w) / (eps[c.dtype] * Math.max(Math.abs(w), 1));
        worst = Math.max(worst, err);
        if (!(err <= 8)) throw new Error(`${c.fn} ${c.dtype} ${JSON.stringify(c.shape)} axis ${c.axis ?? c.axes} element ${i}: got ${g}, NumPy ${w}`);
      }
    }
    expect(worst).toBeGreaterThan(0); // a comparison that can fail, and did not
  });
});

// ---- bit for bit the ops called one by one -------------------------------------------
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe('the same bits as the ops one by one', () => {
  const r = rng(41);
  // softmax's pieces along the last axis as the ops give them one by one: the
  // max, x minus it, the exp of that and its sum (keep: the axes option they take).
  const pieces = (x) => {
    const keep = { axes: -1, keepdims: true };
    const m = tc.max(x, keep);
    const d = tc.sub(x, m);
    const e = tc.exp(d);
    return { keep, m, d, e, s: tc.sum(e, keep) };
  };
  const shapes = [[1, 1], [3, 7], [5, 33], [2, 3, 64], [4, 1000], [2, 5000]];
  for (const dtype of ['float32', 'float64']) {
    it(`${dtype}: softmax, logSoftmax and logSumExp over the last axis`, () => {
      for (const shape of shapes) {
        const n = shape.reduce((a, b) => a * b, 1);
        const x = { data: CTORS[dtype].from({ length: n }, () => (r() - 0.5) * 60), shape };
        const { m, d, e, s } = pieces(x);
        const sm = tc.softmax(x).data;
        expect(sameBits(sm, tc.mul(e, tc.div(1, s)).data), `softmax ${shape}`).toBe(true);
        // within 1 ulp of dividing each element by the sum (README)
        const q = tc.div(e, s).data;
        const I = dtype === 'float32' ? Int32Array : BigInt64Array;
        const a = new I(sm.buffer, sm.byteOffset, sm.length), b = new I(q.buffer, q.byteOffset, q.length);
        let worst = 0;
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(Number(a[i] - b[i])));
        expect(worst, `softmax ${shape}: ulps from e / s`).toBeLessThanOrEqual(1);
        expect(sameBits(tc.logSoftmax(x).data, tc.sub(d, tc.log(s)).data), `logSoftmax ${shape}`).toBe(true);
        const lse = tc.add(m, tc.log(s)); // m is finite here
        expect(sameBits(tc.logSumExp(x, -1, { keepdims: true }).data, lse.data), `logSumExp ${shape}`).toBe(true);
        // and as one expression (the interpreter's kernels are the ops')
        expect(sameBits(tc.softmax(x).data, tc.evaluate('exp(x - m) * (1 / s)', { x, m, s }).data)).toBe(true);
      }
    });
  }

  // float32's middle pass is one kernel (exp(x - m) and its sum, reduce_wasmsimd.cpp):
  // every row length about its 16-element steps and 1024-element blocks, logits
  // spread past exp's near range (a step with a lane more than 87 below the max
  // takes the exp kernel), masked (-inf), NaN and +inf rows, and out = x.
  it('float32: the fused exp-and-sum pass gives the three kernels\' bits at every length and spread', () => {
    const ns = [1, 2, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 1023, 1024, 1025, 1039, 1040, 2047, 2048, 2049, 3087, 4113];
    let far = 0;
    for (const n of ns) {
      for (const spread of [4, 60, 90, 200, 2000]) {
        const rows = 3;
        const data = Float32Array.from({ length: rows * n }, () => (r() - 0.5) * spread);
        if (n > 5) { data[n + 3] = -Infinity; data[2 * n + 1] = NaN; }
        const x = { data, shape: [rows, n] };
        const { m, d, e, s } = pieces(x);
        const what = `[${rows},${n}] spread ${spread}`;
        expect(sameBits(tc.softmax(x).data, tc.mul(e, tc.div(1, s)).data), `softmax ${what}`).toBe(true);
        expect(sameBits(tc.logSoftmax(x).data, tc.sub(d, tc.log(s)).data), `logSoftmax ${what}`).toBe(true);
        expect(sameBits(tc.logSumExp(x, -1, { keepdims: true }).data.subarray(0, 1), tc.add(m, tc.log(s)).data.subarray(0, 1)), `logSumExp ${what}`).toBe(true);
        const t = tc.tensor(data.slice(), [rows, n]);
        tc.softmax(t, -1, { out: t });
        expect(sameBits(t.toArray(), tc.softmax(x).data), `softmax in place ${what}`).toBe(true);
        t.dispose();
        // the far range was met: entries of exp(x - m) below exp(-87), some of them 0
        if (n >= 16 && spread >= 200) far += e.data.filter((v) => v < Math.exp(-87)).length;
      }
    }
    expect(far).toBeGreaterThan(1000);
  });

  // Rows of fewer than 64 elements go up to 256 rows (and 4096 elements) a
  // block (post.cpp softmax: the exp one call over the block): whole blocks, a
  // part block, masked, NaN and all -inf rows, every mode, in place, float64 too.
  it('many short rows (blocks of them): every mode bit for bit the ops one by one', () => {
    // A NaN as NaN: the op-by-op max over rows under 64 bytes runs as columns, whose NaN may carry the other sign.
    const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]) || (Number.isNaN(v) && Number.isNaN(b[i])));
    for (const dtype of ['float32', 'float64']) {
      for (const [rows, n] of [[5000, 1], [4097, 1], [3000, 3], [1000, 21], [700, 63], [300, 64], [9, 40]]) {
        const data = CTORS[dtype].from({ length: rows * n }, () => (r() - 0.5) * (r() < 0.5 ? 10 : 300));
        for (let i = 0; i < rows; i += 97) data[i * n + ((i >> 3) % n)] = [-Infinity, NaN, Infinity][i % 3];
        data.fill(-Infinity, 5 * n, 6 * n); // a row all -inf
        const x = { data, shape: [rows, n] };
        const { keep, m, d, e, s } = pieces(x);
        const what = `${dtype} [${rows},${n}]`;
        expect(same(tc.softmax(x).data, tc.mul(e, tc.div(1, s)).data), `softmax ${what}`).toBe(true);
        expect(same(tc.logSoftmax(x).data, tc.sub(d, tc.log(s)).data), `logSoftmax ${what}`).toBe(true);
        const m0 = tc.where(tc.isFinite(m), m, 0);
        const lse = tc.add(m0, tc.log(tc.sum(tc.exp(tc.sub(x, m0)), keep)));
        expect(same(tc.logSumExp(x, -1, { keepdims: true }).data, lse.data), `logSumExp ${what}`).toBe(true);
        expect(tc.logSumExp(x, -1).data[5], `logSumExp of an all -inf row ${what}`).toBe(-Infinity);
        const t = tc.tensor(data.slice(), [rows, n]);
        tc.softmax(t, -1, { out: t });
        expect(same(t.toArray(), tc.softmax(x).data), `softmax in place ${what}`).toBe(true);
        t.dispose();
      }
    }
  });

  it('stable where the naive form overflows; -inf entries (masked logits) weigh 0; a row of -inf gives logSumExp -inf', () => {
    const x = { data: new Float32Array([1000, 1001, 1002, -Infinity, 0, 0]), shape: [2, 3] };
    const sm = tc.softmax(x).data;
    expect(Array.from(sm.slice(0, 3)).every(Number.isFinite)).toBe(true);
    expect(sm[3]).toBe(0);
    expect(sm[4]).toBe(0.5);
    expect(tc.logSumExp({ data: new Float64Array([-Infinity, -Infinity]) }).data[0]).toBe(-Infinity);
    expect(tc.logSumExp({ data: new Float64Array([Infinity, 1]) }).data[0]).toBe(Infinity);
    expect(tc.logSumExp({ data: new Float64Array(0), shape: [0] }).data[0]).toBe(-Infinity);
  });

  it('long rows holding +inf, -inf or NaN beside values past 86 (logSumExp shifts by 0 there): every mode as the ops one by one', () => {
    // logSumExp's shift is 0 where the max is not finite, so x - shift reaches past exp's
    // short path on the large values (the float32 row pass takes x <= max).
    const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]) || (Number.isNaN(v) && Number.isNaN(b[i])));
    for (const dtype of ['float32', 'float64']) {
      for (const n of [16, 100, 1000]) {
        const rows = [];
        for (const special of [Infinity, -Infinity, NaN]) {
          for (const scale of [1, 50, 200]) {
            const row = CTORS[dtype].from({ length: n }, (_, i) => ((i * 37) % 101 - 50) * scale / 10);
            row[(n * 3) >> 2] = special;
            rows.push(row);
          }
        }
        rows.push(CTORS[dtype].from({ length: n }, () => -Infinity));
        const data = new CTORS[dtype](rows.length * n);
        rows.forEach((row, r) => data.set(row, r * n));
        const x = { data, shape: [rows.length, n] };
        const { keep, m, d, e, s } = pieces(x);
        const m0 = tc.where(tc.isFinite(m), m, 0);
        const lse = tc.add(m0, tc.log(tc.sum(tc.exp(tc.sub(x, m0)), keep)));
        const what = `${dtype} n=${n}`;
        expect(same(tc.logSumExp(x, -1, { keepdims: true }).data, lse.data), `logSumExp ${what}`).toBe(true);
        expect(same(tc.softmax(x).data, tc.mul(e, tc.div(1, s)).data), `softmax ${what}`).toBe(true);
        expect(same(tc.logSoftmax(x).data, tc.sub(d, tc.log(s)).data), `logSoftmax ${what}`).toBe(true);
        // +inf rows: logSumExp +inf; -inf entries weigh 0; NaN rows NaN; the all -inf row -inf
        const l = tc.logSumExp(x, -1).data;
        expect([l[0], l[2], l[6], l[9]]).toEqual([Infinity, Infinity, NaN, -Infinity]);
        expect(Number.isFinite(l[3]) && Number.isFinite(l[5])).toBe(true);
      }
    }
  });
});

// ---- operand forms, out, names ----------------------------------------------------------
describe('operand forms and out', () => {
  it('reducing every dim of a named operand gives an unnamed scalar, as sum does: argmax, logSumExp, evaluate (until 0.9.18 dims: [])', () => {
    const x = { data: Float32Array.of(1, 5, 3, 4, 2, 6), shape: [2, 3], dims: ['b', 'c'] };
    for (const r of [tc.sum(x, { dims: ['b', 'c'] }), tc.argmax(x), tc.argmin(x), tc.logSumExp(x, ['b', 'c']), tc.evaluate('sum(x)', { x }), tc.evaluate('max(x * 2)', { x })]) {
      expect(r.shape).toEqual([]);
      expect('dims' in r).toBe(false);
    }
    expect(tc.argmax(x, 'c').dims).toEqual(['b']); // one dim left: named
    const t = tc.tensor(x.data, [2, 3], { dims: ['b', 'c'] });
    for (const r of [tc.evaluate('sum(x)', { x: t }), tc.argmax(t), tc.sum(t)]) {
      expect([r.shape, r.dims]).toEqual([[], undefined]);
      r.dispose();
    }
    t.dispose();
  });
  const X = new Float32Array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8]);
  const plain = () => ({ data: X, shape: [3, 4] });

  it('resident in, resident result (and into a resident out); plain in, plain out; the same values', () => {
    const before = tc.memory().allocatedBytes;
    const t = tc.tensor(X, [3, 4]);
    for (const [fn, args] of [['softmax', [0]], ['logSoftmax', [-1]], ['logSumExp', [[1]]], ['argmax', [1]], ['argmin', [0]]]) {
      const p = tc[fn](plain(), ...args);
      const q = tc[fn](t, ...args);
      expect(q).toBeInstanceOf(tc.Tensor);
      expect(q.shape).toEqual(p.shape);
      expect(sameBits(q.toArray(), p.data), fn).toBe(true);
      const out = tc.tensor(new p.data.constructor(p.data.length), p.shape);
      expect(tc[fn](t, ...args, { out })).toBe(out);
      expect(sameBits(out.toArray(), p.data), `${fn} into out`).toBe(true);
      const typed = new p.data.constructor(p.data.length);
      expect(tc[fn](plain(), ...args, { out: typed }).data).toBe(typed);
      expect(sameBits(typed, p.data)).toBe(true);
      q.dispose();
      out.dispose();
    }
    const k = tc.topk(t, 2, { axis: 0 });
    expect(k.values.shape).toEqual([2, 4]);
    expect(Array.from(k.values.toArray())).toEqual([5, 9, 5, 8, 5, 3, 4, 6]);
    expect(Array.from(k.indices.toArray())).toEqual([1, 1, 2, 2, 2, 2, 0, 1]); // ties: the lower index first
    expect(Array.from(tc.topk(plain(), 2, { axis: 0 }).indices.data)).toEqual([1, 1, 2, 2, 2, 2, 0, 1]);
    k.values.dispose();
    k.indices.dispose();
    t.dispose();
    expect(tc.memory().allocatedBytes).toBe(before);
  });

  it('views: a transposed, sliced or flipped operand gives what its contiguous copy gives', () => {
    const t = tc.tensor(X, [3, 4]);
    const views = [tc.transpose(t), tc.slice(t, null, [null, null, -1]), tc.flip(t, [0]), tc.slice(t, [0, 3, 2])];
    for (const v of views) {
      const c = tc.contiguous(v);
      for (const fn of ['softmax', 'logSoftmax', 'argmax', 'argmin']) {
        const a = tc[fn](v, 0);
        const b = tc[fn](c, 0);
        expect(sameBits(a.toArray(), b.toArray()), fn).toBe(true);
        a.dispose();
        b.dispose();
      }
      const a = tc.topk(v, 1, { axis: -1 });
      const b = tc.topk(c, 1, { axis: -1 });
      expect(Array.from(a.indices.toArray())).toEqual(Array.from(b.indices.toArray()));
      for (const z of [a.values, a.indices, b.values, b.indices, c]) z.dispose();
    }
    for (const v of views) v.dispose();
    // a plain strided operand, and out through a resident view
    const pv = tc.transpose(plain());
    expect(sameBits(tc.softmax(pv, 0).data, tc.softmax(tc.contiguous(pv), 0).data)).toBe(true);
    const base = tc.tensor(new Float32Array(12), [4, 3]);
    const outView = tc.transpose(base);
    expect(tc.softmax(t, -1, { out: outView })).toBe(outView);
    const back = tc.contiguous(tc.transpose({ data: base.toArray(), shape: [4, 3] })).data;
    expect(sameBits(back, tc.softmax(plain()).data)).toBe(true);
    outView.dispose();
    base.dispose();
    t.dispose();
  });

  it('1000 elements or more with the axis not last, or a view: moved by the engine\'s copy, the results of the axis moved last by hand', () => {
    // [C, H, W]-style logits, the reduction over axis 0 (a segmentation's channels) and 1; resident and plain; a flipped view; float32, float64, float16, int32
    const cases = [[21, 7, 9, 'float32'], [3, 50, 40, 'float64'], [5, 30, 8, 'int32'], [4, 20, 20, 'float16'], [2, 700, 1, 'float32']];
    const before = tc.memory().allocatedBytes;
    for (const [C, H, W, dtype] of cases) {
      const n = C * H * W;
      const f = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 1.3) * 8 + ((i * 7) % 5) - 2);
      const data = dtype === 'float16' ? Uint16Array.from(tc.cast({ data: Float32Array.from(f), shape: [n] }, 'float16').data, (v) => v)
        : dtype === 'int32' ? Int32Array.from(f, Math.round) : dtype === 'float64' ? Float64Array.from(f) : Float32Array.from(f);
      const plain = { data, shape: [C, H, W], ...(dtype === 'float16' ? { dtype } : {}) };
      const res = tc.tensor(data, [C, H, W], dtype === 'float16' ? { dtype } : undefined);
      const fl = tc.flip(res, [1]);
      for (const x of [plain, res, fl]) {
        for (const axis of [0, 1]) {
          const perm = axis === 0 ? [1, 2, 0] : [0, 2, 1];
          const tv = tc.transpose(x, perm);
          const moved = tc.contiguous(tv); // the axis last, by hand
          tv.dispose?.();
          const am = tc.argmax(x, axis), want = tc.argmax(moved, 2);
          expect(Array.from(am.data ?? am.toArray()), `argmax ${dtype} axis ${axis}`).toEqual(Array.from(want.data ?? want.toArray()));
          const k = tc.topk(x, 2, { axis }), kw = tc.topk(moved, 2, { axis: 2 });
          const idx = (r) => Array.from(r.indices.data ?? r.indices.toArray());
          expect(idx(k).length).toBe(idx(kw).length);
          if (dtype !== 'int32') {
            const sm = tc.softmax(x, axis);
            const sv = tc.transpose(sm, perm);
            const got = tc.contiguous(sv);
            sv.dispose?.();
            const ws = tc.softmax(moved, 2);
            expect(sameBits(got.data ?? got.toArray(), ws.data ?? ws.toArray()), `softmax ${dtype} axis ${axis}`).toBe(true);
            for (const z of [sm, got, ws]) z.dispose?.();
          }
          for (const z of [am, want, moved, k.values, k.indices, kw.values, kw.indices]) z.dispose?.();
        }
      }
      fl.dispose();
      res.dispose();
    }
    // the result moved back by the engine too: into a typed out, a resident out, as logSoftmax and logSumExp
    const X3 = Float32Array.from({ length: 21 * 300 }, (_, i) => Math.cos(i * 0.37) * 6);
    const r3 = tc.tensor(X3, [21, 300]);
    for (const x of [{ data: X3, shape: [21, 300] }, r3]) {
      for (const [fn, args] of [['softmax', [0]], ['logSoftmax', [0]], ['logSumExp', [[0], { keepdims: true }]]]) {
        const want = tc[fn](x, ...args);
        const w = want.data ?? want.toArray();
        const typed = new Float32Array(w.length);
        const opts = { ...(args[1] ?? {}), out: typed };
        const got = fn === 'logSumExp' ? tc[fn](x, args[0], opts) : tc[fn](x, args[0], opts);
        expect(sameBits(typed, w), `${fn} into a typed out`).toBe(true);
        const ro = tc.tensor(new Float32Array(w.length), fn === 'logSumExp' ? [1, 300] : [21, 300]);
        tc[fn](x, args[0], { ...(args[1] ?? {}), out: ro });
        expect(sameBits(ro.toArray(), w), `${fn} into a resident out`).toBe(true);
        for (const z of [want, got, ro]) z.dispose?.();
      }
    }
    r3.dispose();
    expect(tc.memory().allocatedBytes).toBe(before); // every moved block freed
  });


  it('a plain view that is a run of its data (row-major strides, any offset: squeeze, expandDims, slice), 1000 elements or more, the axis not last: what that run alone gives', () => {
    // Such a view reads as the run itself (operands.js settleView); block() then reads it through the
    // permuted strides by the engine's copy, which must start at the run's first element.
    const before = tc.memory().allocatedBytes;
    for (const [dtype, Ctor] of [['float32', Float32Array], ['float64', Float64Array], ['int16', Int16Array]]) {
      const whole = Ctor.from({ length: 41 * 25 + 9 }, (_, i) => ((i * 37) % 101) - 50 + (Ctor === Int16Array ? 0 : Math.sin(i) / 4));
      const run = (off) => ({ data: whole.subarray(off, off + 1000), shape: [40, 25] }); // the same elements, no strides
      const views = [
        [{ data: whole, shape: [40, 25], strides: [25, 1], offset: 7 }, run(7)],
        [tc.squeeze({ data: whole.subarray(0, 1000), shape: [1, 40, 25] }, 0), run(0)],
        [tc.slice({ data: whole.subarray(0, 1025), shape: [41, 25] }, '1:'), run(25)],
        [tc.expandDims({ data: whole, shape: [40, 25], strides: [25, 1], offset: 3 }, 0), { ...run(3), shape: [1, 40, 25] }],
      ];
      for (const [v, want] of views) {
        const axis = v.shape.length - 2; // the rows' axis: not the last
        const same = (fn, got, exp) => expect(sameBits(got, exp), `${fn} ${dtype} offset ${v.offset ?? 0}`).toBe(true);
        for (const fn of ['argmax', 'argmin']) same(fn, tc[fn](v, axis).data, tc[fn](want, axis).data);
        const k = tc.topk(v, 3, { axis }), kw = tc.topk(want, 3, { axis });
        same('topk values', k.values.data, kw.values.data);
        same('topk indices', k.indices.data, kw.indices.data);
        if (dtype !== 'int16') {
          for (const fn of ['softmax', 'logSoftmax']) same(fn, tc[fn](v, axis).data, tc[fn](want, axis).data);
          same('logSumExp', tc.logSumExp(v, [axis + 1, axis]).data, tc.logSumExp(want, [axis + 1, axis]).data); // axes out of order
          same('logSumExp', tc.logSumExp(v, [axis]).data, tc.logSumExp(want, [axis]).data);
        }
      }
    }
    expect(tc.memory().allocatedBytes).toBe(before);
  });

  it('random plain views of 1000 to 5000 elements (axes permuted, steps, negative strides, offsets, runs of the data): every function along every axis gives what the gathered elements give', () => {
    let seed = 20261130;
    const rnd = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
    const before = tc.memory().allocatedBytes;
    for (let c = 0; c < 48; c++) {
      const [dtype, Ctor] = [['float32', Float32Array], ['float64', Float64Array], ['int32', Int32Array], ['uint8', Uint8Array]][c % 4];
      const rank = 2 + rnd(3);
      const size = (s) => s.reduce((p, d) => p * d, 1);
      let shape;
      do shape = Array.from({ length: rank }, () => 1 + rnd(rank === 2 ? 80 : rank === 3 ? 20 : 10));
      while (size(shape) < 1000 || size(shape) > 5000);
      // Strides: row-major (a run of the data: every third case) or over a larger row-major
      // block, the axes permuted, each with a step of 1 or 2 and either sign.
      const run = c % 3 === 0;
      const steps = shape.map(() => (run ? 1 : (1 + rnd(2)) * (rnd(2) ? -1 : 1)));
      const order = shape.map((_, i) => i);
      if (!run) for (let i = rank - 1; i > 0; i--) { const j = rnd(i + 1); [order[i], order[j]] = [order[j], order[i]]; }
      const strides = new Array(rank);
      let span = 1;
      for (let k = rank - 1; k >= 0; k--) { const a = order[k]; strides[a] = span * steps[a]; span *= shape[a] * Math.abs(steps[a]); }
      let lo = 0;
      for (let a = 0; a < rank; a++) if (strides[a] < 0) lo += (shape[a] - 1) * strides[a];
      const offset = -lo + rnd(5);
      const data = Ctor.from({ length: offset + span + rnd(5) }, (_, i) => (Ctor === Uint8Array ? (i * 73) % 256
        : ((i * 7919) % 1009) - 504 + (dtype.startsWith('float') ? Math.cos(i) / 8 : 0)));
      const view = { data, shape, strides, offset };
      // The elements the view reads, gathered in row-major order by hand.
      const flat = new Ctor(size(shape));
      const idx = new Array(rank).fill(0);
      for (let i = 0; i < flat.length; i++) {
        let p = offset;
        for (let a = 0; a < rank; a++) p += idx[a] * strides[a];
        flat[i] = data[p];
        for (let a = rank - 1; a >= 0 && ++idx[a] === shape[a]; a--) idx[a] = 0;
      }
      const gathered = { data: flat, shape };
      const what = `${dtype} ${JSON.stringify(shape)} strides ${JSON.stringify(strides)} offset ${offset}`;
      for (let axis = 0; axis < rank; axis++) {
        for (const fn of ['argmax', 'argmin']) expect(sameBits(tc[fn](view, axis).data, tc[fn](gathered, axis).data), `${fn} axis ${axis}: ${what}`).toBe(true);
        const largest = c % 5 !== 0;
        const kk = Math.min(3, shape[axis]);
        const k = tc.topk(view, kk, { axis, largest }), kw = tc.topk(gathered, kk, { axis, largest });
        expect(sameBits(k.values.data, kw.values.data) && sameBits(k.indices.data, kw.indices.data), `topk axis ${axis}: ${what}`).toBe(true);
        if (!dtype.startsWith('float')) continue;
        for (const fn of ['softmax', 'logSoftmax']) expect(sameBits(tc[fn](view, axis).data, tc[fn](gathered, axis).data), `${fn} axis ${axis}: ${what}`).toBe(true);
        const axes = [(axis + 1) % rank, axis]; // two axes, out of order but where axis is the last
        expect(sameBits(tc.logSumExp(view, axes).data, tc.logSumExp(gathered, axes).data), `logSumExp ${JSON.stringify(axes)}: ${what}`).toBe(true);
      }
    }
    expect(tc.memory().allocatedBytes).toBe(before);
  });
  it('named operands: the axis by dim name; dims and coords follow (the reduced dim goes, or stays with keepdims)', () => {
    const x = { data: X, shape: [3, 4], dims: ['batch', 'class'], coords: { batch: ['a', 'b', 'c'] } };
    const s = tc.softmax(x, 'class');
    expect(s.dims).toEqual(['batch', 'class']);
    expect(s.coords).toEqual({ batch: ['a', 'b', 'c'] });
    expect(sameBits(s.data, tc.softmax(plain(), -1).data)).toBe(true);
    const a = tc.argmax(x, 'class');
    expect(a.dims).toEqual(['batch']);
    expect(a.coords).toEqual({ batch: ['a', 'b', 'c'] });
    expect(Array.from(a.data)).toEqual([2, 1, 3]);
    const t = tc.tensor(X, [3, 4], { dims: ['batch', 'class'] });
    const k = tc.topk(t, 2, { axis: 'class' });
    expect(k.values.dims).toEqual(['batch', 'class']);
    expect(k.values.shape).toEqual([3, 2]);
    const l = tc.logSumExp(t, ['batch'], { keepdims: true });
    expect(l.dims).toEqual(['batch', 'class']);
    expect(l.shape).toEqual([1, 4]);
    for (const z of [k.values, k.indices, l, t]) z.dispose();
    // a numeric dim name, addressed by its string (names compare as strings, §6); a number is a position
    const n = { data: X, shape: [3, 4], dims: ['b', 1] };
    expect(sameBits(tc.softmax(n, '1').data, tc.softmax(plain(), -1).data)).toBe(true);
    expect(Array.from(tc.argmax(n, '1').data)).toEqual([2, 1, 3]);
    expect(tc.topk(n, 1, { axis: '1' }).values.dims).toEqual(['b', 1]);
  });

  it('softmax and logSoftmax keep the coords of their axis (each element where it was; until 0.9.15 they were dropped), topk does not', () => {
    const x = { data: X, shape: [3, 4], dims: ['batch', 'class'], coords: { batch: ['a', 'b', 'c'], class: ['w', 'x', 'y', 'z'] } };
    for (const f of [tc.softmax, tc.logSoftmax]) {
      const s = f(x, 'class');
      expect(s.coords).toEqual({ batch: ['a', 'b', 'c'], class: ['w', 'x', 'y', 'z'] });
      // So an op by name afterwards aligns by those labels, as after the element-wise ops (which keep them).
      const w = { data: Float32Array.of(1, 2, 3, 4), shape: [4], dims: ['class'], coords: { class: ['z', 'y', 'x', 'w'] } };
      const r = tc.add(s, w);
      expect(sameBits(r.data, tc.add({ ...x, data: s.data }, w).data)).toBe(true);
      expect(sameBits(r.data, tc.add({ data: s.data, shape: [3, 4] }, { data: Float32Array.of(4, 3, 2, 1) }).data)).toBe(true);
    }
    const k = tc.topk(x, 2, { axis: 'class' });
    expect(k.values.coords).toEqual({ batch: ['a', 'b', 'c'] });
  });

  it('a resident out with dims must carry the result\'s names, as for the other calls (until 0.9.15 softmax, argmax, topk and logSumExp wrote into any)', () => {
    const x = { data: X, shape: [3, 4], dims: ['batch', 'class'] };
    const swapped = tc.tensor(new Float32Array(12), [4, 3], { dims: ['class', 'batch'] });
    const labelled = tc.tensor(new Float32Array(12), [3, 4], { dims: ['batch', 'class'], coords: { class: ['p', 'q', 'r', 's'] } });
    const ints = tc.tensor(new Int32Array(3), [3], { dims: ['other'] });
    const column = ints.reshape([3, 1], { dims: ['batch', 'k'] });
    for (const f of [() => tc.softmax(x, 'class', { out: swapped }), () => tc.logSoftmax(x, 'class', { out: labelled }),
      () => tc.argmax(x, 'class', { out: ints }), () => tc.topk(x, 1, { axis: 'class', out: { indices: column } })]) {
      expect(f).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    }
    expect([swapped, labelled, ints].every((t) => Array.from(t.toArray()).every((v) => v === 0))).toBe(true); // nothing written
    const good = tc.tensor(new Float32Array(12), [3, 4], { dims: ['batch', 'class'] });
    expect(tc.softmax(x, 'class', { out: good })).toBe(good);
    expect(sameBits(good.toArray(), tc.softmax(plain(), -1).data)).toBe(true);
    const bare = tc.tensor(new Int32Array(3), [3]);
    expect(Array.from(tc.argmax(x, 'class', { out: bare }).toArray())).toEqual([2, 1, 3]);
    for (const t of [swapped, labelled, column, ints, good, bare]) t.dispose();
  });

  it('a resident view of another shape (the result\'s size) as out is written in its own order, as add writes it (until 0.9.17 its strides were read as the result\'s: cells past it were written)', () => {
    const x = { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [6] };
    const x23 = { data: x.data, shape: [2, 3] };
    const cases = [
      [() => tc.softmax(x), (out) => tc.softmax(x, -1, { out })],
      [() => tc.logSoftmax(x23), (out) => tc.logSoftmax(x23, -1, { out })],
      [() => tc.argmax(x23, 1), (out) => tc.argmax(x23, 1, { out }), Int32Array],
      [() => tc.topk(x23, 3).values, (out) => tc.topk(x23, 3, { out: { values: out } }).values],
      [() => tc.topk(x23, 3, { largest: false }).indices, (out) => tc.topk(x23, 3, { largest: false, out: { indices: out } }).indices, Int32Array],
      [() => tc.logSumExp({ data: x.data, shape: [6, 1] }, -1), (out) => tc.logSumExp({ data: x.data, shape: [6, 1] }, -1, { out })],
    ];
    const live = tc.memory().liveTensors;
    for (const [plainCall, intoView, Kind = Float32Array] of cases) {
      const want = plainCall().data;
      const n = want.length;
      // Views of n elements in another shape: a rectangle of a wider tensor, every other cell, a transposed one.
      const base = tc.tensor(new Kind(2 * 1000), [2, 1000]);
      const guard = tc.tensor(new Kind(4000).fill(7)); // a live tensor next to it: never written
      const flat = base.reshape([2000]);
      const rect = tc.slice(base, null, [0, n / 2]);
      const views = [rect, tc.slice(flat, [0, 2 * n, 2]), tc.transpose(rect)];
      for (const v of views) {
        const got = intoView(v);
        expect(got).toBe(v);
        const expected = tc.contiguous(v);
        expect(Array.from(expected.toArray())).toEqual(Array.from(want)); // element i of the result at the view's element i (row-major)
        expected.dispose();
        expect(Array.from(guard.toArray()).every((e) => e === 7)).toBe(true);
      }
      for (const v of [...views, flat]) v.dispose();
      base.dispose();
      guard.dispose();
    }
    expect(tc.memory().liveTensors).toBe(live);
  });

  it('float16: in float32, rounded once; argmax and topk on the bits as values', () => {
    const h = { data: new Uint16Array([0x3c00, 0x4000, 0x4200, 0xfc00]), dtype: 'float16' }; // 1, 2, 3, -inf
    const s = tc.softmax(h);
    expect(s.dtype).toBe('float16');
    const f = tc.softmax({ data: new Float32Array([1, 2, 3, -Infinity]) }).data;
    expect(Array.from(s.data).map(halfValue)).toEqual(Array.from(tc.cast({ data: f }, 'float16').data).map(halfValue));
    expect(tc.argmax(h).data[0]).toBe(2);
    expect(tc.argmin(h).data[0]).toBe(3);
    expect(Array.from(tc.topk(h, 2).indices.data)).toEqual([2, 1]);
  });
});

// ---- float32 / float64 argmax and float32 top-k (the vector scans of post.cpp) ----------
describe('argmax, argmin and topk against a JS reference: NaN, both zeros, infinities, ties', () => {
  const r = rng(1234);
  const pick = [0, -0, 1, -1, 2.5, -2.5, Infinity, -Infinity, NaN, 0.125, 7, 7];
  // NumPy's order: NaN above everything, -0 equal to +0; ties to the lower index.
  const rank = (a, b) => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a === b ? 0 : a > b ? 1 : -1);
  const argRef = (xs, min) => {
    const nan = xs.findIndex(Number.isNaN);
    if (nan >= 0) return nan;
    let best = 0;
    for (let i = 1; i < xs.length; i++) if (min ? xs[i] < xs[best] : xs[i] > xs[best]) best = i;
    return best;
  };
  const topRef = (xs, k, largest) => xs.map((v, i) => i).sort((i, j) => (largest ? rank(xs[j], xs[i]) : rank(xs[i], xs[j])) || i - j).slice(0, k);
  const row = (C, n, kind) => {
    const x = new C(n);
    for (let i = 0; i < n; i++) {
      x[i] = kind === 0 ? pick[Math.floor(r() * pick.length)] // specials and ties
        : kind === 1 ? Math.round((r() * 20 - 10) * 4) / 4 // many ties
          : kind === 2 ? i // ascending: every element enters the kept k
            : (r() - 0.5) * 100;
    }
    if (kind === 3 && r() < 0.5) x[Math.floor(r() * n)] = NaN;
    return x;
  };
  it('argmax and argmin, float32 and float64, rows of 1 to 300', () => {
    let checked = 0;
    for (const C of [Float32Array, Float64Array]) {
      for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 100, 300]) {
        for (let kind = 0; kind < 4; kind++) {
          const rows = 3;
          const x = new C(rows * n);
          for (let q = 0; q < rows; q++) x.set(row(C, n, kind), q * n);
          for (const min of [false, true]) {
            const got = Array.from((min ? tc.argmin : tc.argmax)({ data: x, shape: [rows, n] }, 1).data);
            const want = [0, 1, 2].map((q) => argRef(Array.from(x.subarray(q * n, (q + 1) * n)), min));
            expect(got, `${C.name} n=${n} kind ${kind} ${min ? 'argmin' : 'argmax'} [${Array.from(x)}]`).toEqual(want);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(2 * 13 * 4 * 2);
  });
  it('argmax and argmin of many short float32 rows (scanned 4 rows a vector in transposed tiles of 64 KiB): 8 to 5000 rows of 1 to 65', () => {
    let checked = 0;
    for (const n of [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 21, 64, 65]) {
      for (const rows of [8, 9, 33, 781, 2049, 5000]) {
        for (let kind = 0; kind < 4; kind++) {
          const x = new Float32Array(rows * n);
          for (let q = 0; q < rows; q++) x.set(row(Float32Array, n, kind), q * n);
          for (const min of [false, true]) {
            const got = (min ? tc.argmin : tc.argmax)({ data: x, shape: [rows, n] }, 1).data;
            for (let q = 0; q < rows; q++) {
              const want = argRef(Array.from(x.subarray(q * n, (q + 1) * n)), min);
              if (got[q] !== want) expect(got[q], `n=${n} rows=${rows} kind ${kind} ${min ? 'argmin' : 'argmax'} row ${q}: [${Array.from(x.subarray(q * n, (q + 1) * n))}]`).toBe(want);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(800000);
  });

  it('topk, float32 (and float64 through its own loop), largest and smallest, k from 0 to n: indices and value bits', () => {
    let checked = 0;
    for (const C of [Float32Array, Float64Array]) {
      for (const n of [1, 3, 4, 5, 8, 9, 17, 40, 129]) {
        for (let kind = 0; kind < 4; kind++) {
          const x = row(C, n, kind);
          for (const k of [0, 1, 2, 5, n].filter((v, i, a) => v <= n && a.indexOf(v) === i)) {
            for (const largest of [true, false]) {
              const t = tc.topk({ data: x }, k, { largest });
              const want = topRef(Array.from(x), k, largest);
              const what = `${C.name} n=${n} kind ${kind} k=${k} ${largest ? 'largest' : 'smallest'} [${Array.from(x)}]`;
              expect(Array.from(t.indices.data), what).toEqual(want);
              expect(sameBits(t.values.data, C.from(want.map((i) => x[i]))), what).toBe(true);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
  });
});

describe('refusals, and no leak after them', () => {
  it('a number or null where only tensors go says so, without offering a number (until 0.9.18 sum(5) said "or a number")', () => {
    for (const f of [() => tc.sum(5), () => tc.topk(null, 1), () => tc.max(7n), () => tc.softmax(2)]) {
      expect(f).toThrow(TypeError);
      expect(f).not.toThrow(/or a number/);
      expect(f).toThrow(/must be \{ data, shape \} or a resident tensor, got/);
    }
  });
  const x = { data: new Float32Array(6), shape: [2, 3] };
  it('each names the function, the axis or dtype, and the fix', () => {
    const before = tc.memory().allocatedBytes;
    const code = (f) => { try { f(); } catch (e) { return [e.code ?? e.name, e.message]; } return null; };
    expect(code(() => tc.softmax(x, 2))).toEqual(['INVALID_AXIS', expect.stringMatching(/softmax: axis 2 is not one of its axes \(x is \(2,3\)\)/)]);
    expect(code(() => tc.softmax(x, 'class'))[0]).toBe('INVALID_AXIS');
    expect(code(() => tc.logSumExp(x, [1, -1]))).toEqual(['INVALID_AXIS', expect.stringMatching(/repeats an axis/)]);
    expect(code(() => tc.softmax({ data: new Int32Array(3) }))).toEqual(['DTYPE_MISMATCH', expect.stringMatching(/cast\(x, 'float32'\)/)]);
    // the same refusal, in the same words, as a float-only unary op's
    expect(code(() => tc.logSumExp({ data: new Int32Array(3) }))[1]).toBe(code(() => tc.sqrt({ data: new Int32Array(3) }))[1].replace('sqrt', 'logSumExp'));
    expect(code(() => tc.softmax(x, -1, { out: new Float64Array(6) }))[0]).toBe('DTYPE_MISMATCH');
    expect(code(() => tc.softmax(x, -1, { out: new Float32Array(5) }))).toEqual(['LENGTH_MISMATCH', expect.stringMatching(/out has 5 elements but the result \(2,3\) has 6/)]);
    expect(code(() => tc.argmax({ data: new Float32Array(0), shape: [2, 0] }, 1))[0]).toBe('INVALID_AXIS');
    expect(code(() => tc.topk(x, 4))).toEqual(['INVALID_AXIS', expect.stringMatching(/k must be an integer from 0 to 3/)]);
    expect(code(() => tc.topk(x, 1.5))[0]).toBe('INVALID_AXIS');
    expect(code(() => tc.argmax(x, [0, 1]))).toEqual(['INVALID_AXIS', expect.stringMatching(/axis \[0,1\] is not one axis/)]);
    expect(code(() => tc.topk(x, 1, { axes: 0 }))[0]).toBe('TypeError');
    // out is { values, indices }: a tensor, a misspelt key or one array for both would write nothing, or
    // both into one (until 0.9.16 the first two were ignored, the third accepted)
    const tt = tc.tensor(new Float32Array(2), [2, 1]);
    for (const out of [tt, { value: new Float32Array(2) }, {}, 5, new Float32Array(2), [1]]) expect(code(() => tc.topk(x, 1, { out }))).toEqual(['TypeError', 'topk: options.out must be { values, indices }']);
    const both = new Int32Array(2);
    expect(code(() => tc.topk(x, 1, { out: { values: both, indices: both } }))[0]).toBe('TypeError');
    // A refused indices out leaves the values out as it was (until 0.9.17 the values were written first)
    const xv = { data: Float32Array.of(3, 1, 2, 9, 7, 8), shape: [2, 3] };
    for (const indices of [new Float32Array(2), new Int32Array(3), tc.tensor(new Int32Array(3))]) {
      const values = new Float32Array(2).fill(-1);
      expect(code(() => tc.topk(xv, 1, { out: { values, indices } }))[1]).toMatch(/^topk: out/);
      expect(Array.from(values)).toEqual([-1, -1]);
      if (indices instanceof tc.Tensor) indices.dispose();
    }
    tt.dispose();
    expect(code(() => tc.softmax(3))[0]).toBe('TypeError');
    expect(code(() => tc.softmax({ data: new Float32Array(1) }, undefined, { keepdims: true }))[0]).toBe('TypeError');
    // The flags are booleans (until 0.9.15 any value was read as truthy or falsy).
    expect(code(() => tc.argmax(x, 1, { keepdims: 'no' }))).toEqual(['TypeError', 'argmax: keepdims must be a boolean']);
    expect(code(() => tc.topk(x, 1, { largest: 'false' }))).toEqual(['TypeError', 'topk: largest must be a boolean']);
    expect(code(() => tc.topk(x, 1, { sorted: 1 }))).toEqual(['TypeError', 'topk: sorted must be a boolean']);
    expect(code(() => tc.logSumExp(x, 1, { keepdims: 1 }))).toEqual(['TypeError', 'logSumExp: keepdims must be a boolean']);
    expect(code(() => tc.sum(x, { keepdims: 0 }))).toEqual(['TypeError', 'sum: keepdims must be a boolean']);
    expect(code(() => tc.softmax({ data: new Float32Array(1), shape: [] }))[0]).toBe('INVALID_AXIS');
    const t = tc.tensor(new Float32Array(6), [2, 3]);
    const o = tc.tensor(new Float32Array(5), [5]);
    expect(code(() => tc.softmax(t, -1, { out: o }))[0]).toBe('LENGTH_MISMATCH');
    o.dispose();
    t.dispose();
    expect(tc.memory().allocatedBytes).toBe(before);
    expect(tc.softmax(x).shape).toEqual([2, 3]); // still usable
  });
});

describe('an axis that is no integer, and k = -0', () => {
  const x = { data: Float32Array.of(3, 1, 2, 9, 7, 8), shape: [2, 3] };
  it('an axis of 1.5, NaN or Infinity is INVALID_AXIS with axis null, as the layout functions and reductions give it (until 0.9.24 the number itself)', () => {
    const err = (f) => { try { f(); } catch (e) { return e; } return null; };
    for (const a of [1.5, NaN, Infinity, -0.5]) {
      for (const f of [() => tc.softmax(x, a), () => tc.logSoftmax(x, a), () => tc.logSumExp(x, [0, a]), () => tc.argmax(x, a), () => tc.argmin(x, a), () => tc.topk(x, 1, { axis: a })]) {
        const e = err(f);
        expect(e?.code).toBe('INVALID_AXIS');
        expect(e.axis).toBe(null);
      }
      expect(err(() => tc.flip(x, a)).axis).toBe(null);
    }
    expect(err(() => tc.argmax(x, 2)).axis).toBe(2); // an integer out of range stays as given
    expect(err(() => tc.topk(x, 1, { axis: -3 })).axis).toBe(-3);
  });
  it('topk with k = -0 (Math.round(-0.2)) gives a dim of +0 (until 0.9.24 the shape held -0)', () => {
    const r = tc.topk(x, Math.round(-0.2));
    expect(Object.is(r.values.shape[1], 0)).toBe(true);
    expect(Object.is(r.indices.shape[1], 0)).toBe(true);
    const t = tc.tensor(x.data, x.shape);
    const rt = tc.topk(t, -0, { axis: 0 });
    expect(Object.is(rt.values.shape[0], 0)).toBe(true);
    expect(rt.values.shape).toEqual([0, 3]);
    rt.values.dispose();
    rt.indices.dispose();
    t.dispose();
  });
});

describe('null for an axis is its default (NumPy axis=None)', () => {
  const x = { data: Float32Array.of(1, 5, 2, 7, 3, 0, 4, 4), shape: [2, 4] };
  const same = (a, b) => {
    expect(a.shape).toEqual(b.shape);
    expect(Array.from(a.data)).toEqual(Array.from(b.data));
  };
  it('argmax, argmin and logSumExp: every axis; softmax, logSoftmax and topk: the last', () => {
    same(tc.argmax(x, null), tc.argmax(x));
    expect(tc.argmax(x, null).data[0]).toBe(3); // the flattened index of 7
    same(tc.argmin(x, null, { keepdims: true }), tc.argmin(x, undefined, { keepdims: true }));
    same(tc.logSumExp(x, null), tc.logSumExp(x));
    same(tc.softmax(x, null), tc.softmax(x, -1));
    same(tc.logSoftmax(x, null), tc.logSoftmax(x, -1));
    const k = tc.topk(x, 2, { axis: null });
    same(k.values, tc.topk(x, 2).values);
    same(k.indices, tc.topk(x, 2, { axis: 1 }).indices);
  });
  it('the reductions\' axes and dims options', () => {
    same(tc.sum(x, { axes: null }), tc.sum(x));
    expect(tc.sum(x, { axes: null }).data[0]).toBe(26);
    same(tc.max(x, { axes: null, keepdims: true }), tc.max(x, { keepdims: true }));
    const n = { data: x.data, shape: [2, 4], dims: ['b', 'c'] };
    same(tc.mean(n, { dims: null }), tc.mean(n));
  });
  it('concat and stack: axis 0', () => {
    same(tc.concat([x, x], null), tc.concat([x, x]));
    expect(tc.concat([x, x], null).shape).toEqual([4, 4]);
    same(tc.stack([x, x], null), tc.stack([x, x], 0));
  });
  it('a PDPD axis: -1, in the shape calls, explain, the ops, evaluate and the backward calls', () => {
    const b = { data: Float32Array.of(1, 2, 3, 4), shape: [4] };
    const pdpd = { type: 'pdpd', axis: null };
    expect(tc.autoBroadcastShape([2, 4], [4], pdpd)).toEqual([2, 4]);
    expect(tc.broadcastToShape([4], [2, 4], { mode: 'pdpd', axis: null })).toEqual([2, 4]);
    const plan = tc.explain({ rule: 'pdpd', shapes: [[2, 4], [4]], axis: null });
    expect(plan.ok).toBe(true);
    expect(plan.shape).toEqual([2, 4]);
    same(tc.add(x, b, { broadcast: pdpd }), tc.add(x, b, { broadcast: { type: 'pdpd' } }));
    same(tc.evaluate('x + b', { x, b }, { broadcast: pdpd }), tc.add(x, b));
    same(tc.broadcastTo(b, [2, 4], { mode: 'pdpd', axis: null }), tc.broadcastTo(b, [2, 4]));
    expect(tc.reductionAxes([4], [2, 4], pdpd)).toEqual([0]);
    same(tc.unbroadcast(x, [4], pdpd), tc.unbroadcast(x, [4]));
    expect(() => tc.autoBroadcastShape([2, 3, 4, 5], [3, 1], { type: 'pdpd', axis: null })).toThrow(expect.objectContaining({
      code: 'INCOMPATIBLE_DIMS', axis: 2,
      message: 'operands could not be broadcast together with shapes (2,3,4,5) (3,1) (pdpd, axis -1): axis 2 has 4 vs 3',
    }));
  });
});

// Views as users hold them: made without memory, disposed in any order, read
// in place by every call family, written through as `out`, and refused with
// the operand, the axis and the dims when they reach outside their data or
// overlap an `out` in another order.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const iota = (n, C = Float32Array) => C.from({ length: n }, (_, i) => i);
const arr = (t) => Array.from(t instanceof tc.Tensor ? t.toArray() : t.data);

/** Row-major reference of a view: element [i...] of data at offset + Σ i·stride. */
function reference(data, shape, strides, offset) {
  const out = [];
  const idx = shape.map(() => 0);
  const n = shape.reduce((a, b) => a * b, 1);
  for (let k = 0; k < n; k++) {
    out.push(data[offset + idx.reduce((s, i, a) => s + i * strides[a], 0)]);
    for (let a = shape.length - 1; a >= 0; a--) { if (++idx[a] < shape[a]) break; idx[a] = 0; }
  }
  return out;
}

function permutations(xs) {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('views of resident tensors: no memory, freed once', () => {
  it('a view allocates no element memory, in any chain of layout functions', () => {
    const t = tc.tensor(iota(24), [2, 3, 4]);
    const before = tc.memory().allocatedBytes;
    const vs = [t.transpose(), t.slice(null, [0, 3, 2]), t.flip(1), t.expandDims(0)];
    vs.push(vs.at(-1).squeeze(0));
    vs.push(vs.at(-1).transpose([1, 0, 2]));
    vs.push(vs.at(-1).slice(1, '::-1'));
    vs.push(vs.at(-1).flip());
    expect(tc.memory().allocatedBytes).toBe(before);
    expect(vs[0].shape).toEqual([4, 3, 2]);
    expect(vs[0].strides).toEqual([1, 4, 12]);
    expect(arr(vs[7])).toEqual(reference(iota(24), [2, 4], [12, -1], 7)); // t[::-1, 1, :] (by way of the transpose), flipped
    for (const v of vs) v.dispose();
    t.dispose();
    expect(tc.memory().allocatedBytes).toBe(before - 24 * 4);
  });

  it('base, view and view of a view disposed in every order free the memory exactly once, at the last', () => {
    for (const order of permutations([0, 1, 2])) {
      const start = tc.memory().allocatedBytes;
      const base = tc.tensor(iota(12), [3, 4]);
      const v1 = base.transpose();
      const v2 = v1.slice('1:, ::-1');
      const all = [base, v1, v2];
      const expected = arr(v2);
      for (let i = 0; i < 3; i++) {
        all[order[i]].dispose();
        all[order[i]].dispose(); // a second dispose does nothing
        if (i < 2) {
          expect(tc.memory().allocatedBytes, `order ${order} step ${i}`).toBe(start + 48);
          // The live views still read their data.
          for (const k of [0, 1, 2]) if (!all[k].disposed && k === 2) expect(arr(v2)).toEqual(expected);
        }
      }
      expect(tc.memory().allocatedBytes, `order ${order}`).toBe(start);
      expect(() => v2.toArray()).toThrow(/disposed/);
    }
  });

  it('a view keeps its shape, strides, dims and coords readable; toString and toJSON show its elements', () => {
    const t = tc.tensor(iota(6), [2, 3], { dims: ['h', 'w'], coords: { w: ['a', 'b', 'c'] } });
    const v = t.transpose(['w', 'h']).slice([null, null, -1]);
    expect(v.dims).toEqual(['w', 'h']);
    expect(v.coords).toEqual({ w: ['c', 'b', 'a'] });
    expect(v.strides).toEqual([-1, 3]);
    expect(arr(v)).toEqual([2, 5, 1, 4, 0, 3]);
    expect(String(v)).toContain('[2, 5, 1, 4, 0, 3]');
    expect(v.toJSON()).toEqual({ dtype: 'float32', shape: [3, 2], dims: ['w', 'h'], disposed: false });
    v.dispose();
    t.dispose();
  });
});

describe('every call family reads views in place', () => {
  const a = iota(12);
  const A = { data: a, shape: [3, 4] };

  it('element-wise, unary, cast, where, broadcastTo, reductions, unbroadcast and evaluate over a transposed, flipped slice', () => {
    const v = tc.flip(tc.transpose(tc.slice(A, null, '1:')), 0); // [3, 3]: columns 1..3 of A, transposed, rows reversed
    const ref = reference(a, [3, 3], [-1, 4], 3);
    const t = tc.tensor(a, [3, 4]);
    const rv = tc.flip(tc.transpose(tc.slice(t, null, '1:')), 0);
    for (const x of [v, rv]) {
      expect(arr(tc.add(x, 1))).toEqual(ref.map((e) => e + 1));
      expect(arr(tc.neg(x))).toEqual(ref.map((e) => -e || 0).map((e, i) => (ref[i] === 0 ? -0 : e)));
      expect(arr(tc.cast(x, 'int32'))).toEqual(ref);
      expect(arr(tc.where(tc.greater(x, 5), x, 0))).toEqual(ref.map((e) => (e > 5 ? e : 0)));
      expect(arr(tc.broadcastTo(x, [2, 3, 3]))).toEqual([...ref, ...ref]);
      expect(arr(tc.sum(x, { axes: [1] }))).toEqual([0, 1, 2].map((r) => ref[3 * r] + ref[3 * r + 1] + ref[3 * r + 2]));
      expect(arr(tc.max(x))).toEqual([Math.max(...ref)]);
      expect(arr(tc.unbroadcast(x, [1, 3]))).toEqual([0, 1, 2].map((c) => ref[c] + ref[3 + c] + ref[6 + c]));
      expect(arr(tc.evaluate('x * 2 - y', { x, y: { data: Float32Array.of(1, 2, 3), shape: [3] } }))).toEqual(ref.map((e, i) => e * 2 - (i % 3 + 1)));
    }
    rv.dispose();
    t.dispose();
  });

  it('unbroadcast takes a plain view as the input operand: its shape, the view checked by its strides (until 0.9.25 its data\'s length held against the shape)', () => {
    const g = { data: iota(24), shape: [2, 3, 4] };
    const params = { data: iota(20), shape: [5, 4] };
    const bias = tc.slice(params, '0:1'); // [1, 4]: a view over the 20 elements
    expect(arr(tc.unbroadcast(g, bias))).toEqual([60, 66, 72, 78]);
    const col = tc.slice({ data: iota(12), shape: [3, 4] }, null, '::-2'); // [3, 2], strides [4, -2]
    expect(arr(tc.unbroadcast({ data: iota(6), shape: [3, 2] }, col))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(arr(tc.unbroadcast({ ...g, dims: ['a', 'b', 'c'] }, { ...tc.slice(params, 1), dims: ['c'] }))).toEqual([60, 66, 72, 78]);
    expect(() => tc.unbroadcast(g, { data: iota(20), shape: [1, 4], strides: [4, 1], offset: 17 })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH', message: expect.stringContaining('reads element 20, outside its data of 20 elements') }));
  });

  it('the same shapes with other strides are planned anew: an op, a compiled expression and a where, alternating', () => {
    const t = tc.tensor(iota(16), [4, 4]);
    const tt = t.transpose();
    const b = tc.tensor(iota(16).map((x) => 100 * x), [4, 4]);
    const e = tc.compile('x + y');
    for (let i = 0; i < 4; i++) {
      const x = i % 2 ? tt : t;
      const ref = i % 2 ? reference(iota(16), [4, 4], [1, 4], 0) : Array.from(iota(16));
      const r1 = tc.add(x, b);
      const r2 = e.run({ x, y: b });
      const r3 = tc.add({ data: iota(16), shape: [4, 4], strides: i % 2 ? [1, 4] : [4, 1] }, { data: new Float32Array(16), shape: [4, 4] });
      expect(arr(r1)).toEqual(ref.map((v, k) => v + 100 * k));
      expect(arr(r2)).toEqual(ref.map((v, k) => v + 100 * k));
      expect(arr(r3)).toEqual(ref);
      r1.dispose();
      r2.dispose();
    }
    tt.dispose();
    t.dispose();
    b.dispose();
  });

  it('a transposed read goes tile by tile (16 rows x 64), remainders and outer axes included, in the ops and in generated code', () => {
    const [A0, B0, C0] = [3, 70, 130];
    const base = iota(A0 * B0 * C0).map((v) => (v % 251) - 125);
    const t = tc.tensor(base, [A0, B0, C0]);
    const y = { data: iota(B0).map((v) => v / 4), shape: [B0] };
    for (const x of [t.transpose([0, 2, 1]), t.transpose([0, 2, 1]).flip(2), t.transpose([0, 2, 1]).slice(null, '::-3')]) {
      const want = Array.from(x.toArray()); // toArray walks the view in JS (execute.js gather)
      const yy = Array.from({ length: want.length }, (_, k) => (k % B0) / 4);
      const e = tc.evaluate('x * 2 + y', { x, y });
      expect(Array.from(e.toArray())).toEqual(want.map((v, k) => v * 2 + yy[k]));
      const a = tc.add(x, y);
      expect(Array.from(a.toArray())).toEqual(want.map((v, k) => v + yy[k]));
      const c = tc.contiguous(x);
      expect(Array.from(c.toArray())).toEqual(want);
      const n = tc.neg(x);
      expect(Array.from(n.toArray())).toEqual(want.map((v) => -v || 0).map((v, k) => (want[k] === 0 ? -0 : v)));
      for (const r of [e, a, c, n, x]) r.dispose();
    }
    t.dispose();
  });

  it('transposed tiles of every element width (4x4 and 2x2 register blocks, their row and column remainders, negative strides): binary ops, casts and broadcastTo equal the view read in JS', () => {
    // [2, 37, 21] transposed to [2, 21, 37]: 21 rows (a tile of 16, then 5 = 4 + 1
    // and 2 + 2 + 1), 37 elements (chunks of 64 or 32 bytes' worth, then 1 over a
    // multiple of 4 and of 2); flip(2): the same blocks read backwards.
    const [A0, B0, C0] = [2, 37, 21];
    const kinds = [[Float64Array, 'float64'], [Float32Array, 'float32'], [Int32Array, 'int32'], [Uint32Array, 'uint32'],
      [Int16Array, 'int16'], [Uint8Array, 'uint8'], [Int8Array, 'int8']];
    for (const [C, dtype] of kinds) {
      const t = tc.tensor(C.from({ length: A0 * B0 * C0 }, (_, i) => (i * 7) % 101), [A0, B0, C0]);
      for (const x of [t.transpose([0, 2, 1]), t.transpose([0, 2, 1]).flip(2), t.transpose([0, 2, 1]).flip([1, 2])]) {
        const want = Array.from(x.toArray());
        const y = tc.tensor(C.from({ length: want.length }, (_, k) => k % 13), x.shape);
        const s = tc.add(x, y);
        expect([dtype, Array.from(s.toArray())]).toEqual([dtype, want.map((v, k) => v + (k % 13))]);
        const s2 = tc.add(y, x); // the strided operand second
        expect([dtype, Array.from(s2.toArray())]).toEqual([dtype, want.map((v, k) => v + (k % 13))]);
        const f = tc.cast(x, 'float64');
        expect([dtype, Array.from(f.toArray())]).toEqual([dtype, want]);
        const b = tc.broadcastTo(x, [3, ...x.shape]);
        expect([dtype, Array.from(b.toArray())]).toEqual([dtype, [...want, ...want, ...want]]);
        for (const r of [s, s2, f, b, y, x]) r.dispose();
      }
      t.dispose();
    }
  });

  it('a large strided run (past the streaming threshold) and a plain view with a negative inner stride', () => {
    const n = 1 << 20;
    const x = { data: iota(2 * n), shape: [n], strides: [-2], offset: 2 * n - 1 };
    const r = tc.evaluate('x + 1', { x });
    expect(r.data[0]).toBe(2 * n);
    expect(r.data[n - 1]).toBe(2);
    const r2 = tc.mul(x, 2);
    const want = Float32Array.from({ length: n }, (_, i) => 2 * (2 * n - 1 - 2 * i));
    // every element (one-axis strided runs go in chunks), compared in a loop: toEqual walks 2^20 elements for ~25 s
    const firstDiff = (a) => (a instanceof Float32Array && a.length === n ? a.findIndex((v, i) => v !== want[i]) : -2);
    expect(firstDiff(r2.data)).toBe(-1);
    expect(firstDiff(tc.evaluate('x * 2', { x }).data)).toBe(-1);
    expect(tc.neg(tc.flip({ data: iota(1000) })).data).toEqual(Float32Array.from({ length: 1000 }, (_, i) => -(999 - i)));
  });
});

describe('reductions read views in place', () => {
  // A small LCG: the same cases every run.
  let seed = 12345;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

  it('random views (permutations, steps, flips, size-1 axes) x every reduction, axes, keepdims and accumulating dtypes equal the same reduction of a row-major copy', () => {
    let n = 0;
    for (let trial = 0; trial < 120; trial++) {
      const rank = 1 + rand(4);
      const shape = Array.from({ length: rank }, () => 1 + rand(6));
      const size = shape.reduce((p, d) => p * d, 1);
      const dtype = ['float32', 'float64', 'int32', 'int8', 'uint8'][rand(5)];
      const C = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int8: Int8Array, uint8: Uint8Array }[dtype];
      const data = C.from({ length: size }, () => rand(9) - (dtype === 'uint8' ? 0 : 4)); // small integers: every order sums exactly
      const resident = rand(2) === 1;
      const base = resident ? tc.tensor(data, shape) : { data, shape };
      let v = tc.transpose(base, shape.map((_, i) => i).sort(() => rand(3) - 1));
      if (rand(2)) v = tc.flip(v, rand(rank));
      if (rand(2)) v = tc.slice(v, ...v.shape.map((d) => (d > 2 && rand(2) ? [null, null, rand(2) ? 2 : -2] : null)));
      const axes = v.shape.map((_, i) => i).filter(() => rand(2));
      const keepdims = rand(2) === 1;
      for (const op of ['sum', 'prod', 'min', 'max', 'mean']) {
        for (const acc of [undefined, 'float64', 'float32']) {
          if (op === 'mean' && acc === undefined && !dtype.startsWith('float')) continue;
          const opts = { axes: axes.length === v.shape.length && rand(2) ? undefined : axes, keepdims, ...(acc ? { dtype: acc } : {}) };
          if (op === 'prod' && v.shape.reduce((p, d) => p * d, 1) > 20) continue; // products of up to 20 small integers stay exact
          const c = tc.contiguous(v);
          let got;
          let want;
          try { got = tc[op](v, opts); } catch (e) { got = e; }
          try { want = tc[op](c, opts); } catch (e) { want = e; }
          if (want instanceof Error) {
            expect(got, `${op} ${JSON.stringify(opts)}`).toBeInstanceOf(Error);
            expect(got.code).toBe(want.code);
          } else {
            expect(got.shape, `${op} ${JSON.stringify(opts)}`).toEqual(want.shape);
            expect(Array.from(arr(got)), `${op} ${dtype} ${JSON.stringify(v.shape)} ${JSON.stringify(v.strides)} ${JSON.stringify(opts)}`).toEqual(Array.from(arr(want)));
            n++;
          }
          for (const r of [got, want, c]) if (r instanceof tc.Tensor) r.dispose();
        }
      }
      const g = tc.unbroadcast(v, [v.shape.at(-1)]);
      const gc = tc.contiguous(v);
      expect(arr(g)).toEqual(arr(tc.unbroadcast(gc, [v.shape.at(-1)])));
      for (const r of [g, gc, v, base]) if (r instanceof tc.Tensor) r.dispose();
    }
    expect(n).toBeGreaterThan(500);
  });

  it('element-wise calls and expressions over random larger views (past one tile and one chunk) equal the row-major copy', () => {
    for (let trial = 0; trial < 60; trial++) {
      const rank = 1 + rand(3);
      const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 ? 60 + rand(200) : 1 + rand(30)));
      const size = shape.reduce((p, d) => p * d, 1);
      const data = Float32Array.from({ length: size }, (_, i) => (i % 251) - 125);
      const resident = rand(2) === 1;
      const base = resident ? tc.tensor(data, shape) : { data, shape };
      let v = tc.transpose(base, shape.map((_, i) => i).sort(() => rand(3) - 1));
      if (rand(2)) v = tc.flip(v, rand(rank));
      if (rand(2)) v = tc.slice(v, ...v.shape.map((d) => (d > 2 && rand(2) ? [null, null, rand(2) ? 2 : -3] : null)));
      const c = tc.contiguous(v);
      const y = { data: Float32Array.from({ length: v.shape.at(-1) }, (_, i) => i / 8), shape: [v.shape.at(-1)] };
      const calls = [
        (x) => tc.add(x, y), (x) => tc.sub(y, x), (x) => tc.neg(x), (x) => tc.cast(x, 'int16'), (x) => tc.where(tc.greater(x, 0), x, y),
        (x) => tc.broadcastTo(x, [2, ...x.shape]), (x) => tc.evaluate('x * 2 - y', { x, y }), (x) => tc.evaluate("cast(x, 'float64') / 3", { x }),
      ];
      for (const [k, f] of calls.entries()) {
        const got = f(v);
        const want = f(c);
        expect(got.shape).toEqual(want.shape);
        // The first element that differs, if any (toEqual over 400k-element arrays takes most of this test's time).
        const [g, w] = [arr(got), arr(want)];
        let at = g.length === w.length ? g.findIndex((x, i) => !Object.is(x, w[i])) : 0;
        if (at < 0) at = null;
        expect(at === null ? null : [at, g[at], w[at]], `trial ${trial} call ${k} ${JSON.stringify(v.shape)} ${JSON.stringify(v.strides)}`).toBeNull();
        for (const r of [got, want]) if (r instanceof tc.Tensor) r.dispose();
      }
      for (const r of [c, v, base]) if (r instanceof tc.Tensor) r.dispose();
    }
  });

  it('a float16 result over a view (its float32 pass over a gathered copy)', () => {
    const h = Uint16Array.from([0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600]); // 1..6 as float16
    const v = tc.transpose({ data: h, shape: [2, 3], dtype: 'float16' });
    expect(Array.from(tc.sum(v, { axes: [1] }).data)).toEqual([0x4500, 0x4700, 0x4880]); // 5, 7, 9
  });
});

describe('out as a view', () => {
  it('writes through the view; other elements stay', () => {
    const t = tc.tensor(new Float32Array(12), [3, 4]);
    const col = t.slice(null, 2); // [3], stride 4
    tc.add({ data: Float32Array.of(1, 2, 3), shape: [3] }, 10, { out: col });
    expect(arr(t)).toEqual([0, 0, 11, 0, 0, 0, 12, 0, 0, 0, 13, 0]);
    tc.evaluate('x * 2', { x: { data: Float32Array.of(1, 2, 3, 4), shape: [4] } }, { out: t.slice(2, '::-1') });
    expect(arr(t).slice(8)).toEqual([8, 6, 4, 2]);
    tc.neg(tc.tensor(Float32Array.of(5, 6, 7), [3]), { out: t.transpose().slice(0) });
    expect([0, 4, 8].map((i) => arr(t)[i])).toEqual([-5, -6, -7]);
    col.dispose();
    t.dispose();
  });

  it('an out that overlaps an operand in another order is refused; the same elements in the same order are in place', () => {
    const t = tc.tensor(iota(6), [2, 3]);
    expect(() => tc.add(t, 1, { out: t.flip() })).toThrow(/shares memory/);
    expect(() => tc.add(t.slice(null, '1:'), 1, { out: t.slice(null, ':2') })).toThrow(/shares memory/);
    expect(() => tc.evaluate('x + 1', { x: t.transpose() }, { out: t.reshape([3, 2]) })).toThrow(/shares memory/);
    expect(arr(t)).toEqual([0, 1, 2, 3, 4, 5]); // nothing written
    tc.add(t, 1, { out: t });
    expect(arr(t)).toEqual([1, 2, 3, 4, 5, 6]);
    const f = t.flip();
    tc.mul(f, 2, { out: f }); // the same view: element for element
    expect(arr(t)).toEqual([2, 4, 6, 8, 10, 12]);
    f.dispose();
    t.dispose();
  });

  it('an out interleaved with an operand, sharing no element, is written (even into odd, a column from another, an RGBA channel from another; refused until 0.9.18)', () => {
    const a = tc.tensor(Float32Array.of(1, 2, 3, 4, 5, 6));
    tc.add(a.slice('1::2'), 100, { out: a.slice('::2') });
    expect(arr(a)).toEqual([102, 2, 104, 4, 106, 6]);
    const m = tc.tensor(iota(12), [4, 3]);
    tc.mul(m.slice(null, 2), 10, { out: m.slice(null, 0) });
    expect(arr(m)).toEqual([20, 1, 2, 50, 4, 5, 80, 7, 8, 110, 10, 11]);
    tc.evaluate('x - y', { x: m.slice(null, 1), y: m.slice(null, 2) }, { out: m.slice(null, 0) });
    expect(arr(m)).toEqual([-1, 1, 2, -1, 4, 5, -1, 7, 8, -1, 10, 11]);
    const img = tc.tensor(Uint8Array.from({ length: 16 }, (_, i) => i), [2, 2, 4]); // RGBA
    tc.contiguous(img.slice(null, null, 2), { out: img.slice(null, null, 0) }); // R = B, in place
    expect(Array.from(img.toArray())).toEqual([2, 1, 2, 3, 6, 5, 6, 7, 10, 9, 10, 11, 14, 13, 14, 15]);
    // Interleaved but meeting: still refused (a[2::2] meets a[::2] at elements 2 and 4).
    expect(() => tc.add(a.slice('::2'), 1, { out: a.slice('2::2') })).toThrow(/shares memory/);
    const b = tc.tensor(iota(12), [12]);
    // Strides of their own: evens [3,2] (strides 4, 2) into odds laid out [3,2] (strides 2, 6).
    tc.add(b.reshape([3, 4]).slice(null, '::2'), 100, { out: b.reshape([2, 6]).slice(null, '1::2').transpose() });
    expect(arr(b)).toEqual([0, 100, 2, 104, 4, 108, 6, 102, 8, 106, 10, 110]);
    expect(() => tc.add(b.slice('::3'), 1, { out: b.slice('1:9:2') })).toThrow(/shares memory/); // 3 in both
    for (const t of [a, m, img, b]) t.dispose();
  });

  it('every call family refuses an out that overlaps its operand elsewhere (a reduction into a row of its own input)', () => {
    const t = tc.tensor(iota(6), [2, 3]);
    const row = t.slice(1); // elements 3..5 of t, contiguous, at another address
    expect(() => tc.sum(t, { axes: [0], out: row })).toThrow(/shares memory/);
    expect(() => tc.neg(t.reshape([6]).slice('1:4'), { out: row })).toThrow(/shares memory/);
    expect(() => tc.where({ data: Uint8Array.of(1, 0, 1), shape: [3] }, t.slice(null, '::-1'), 0, { out: t })).toThrow(/shares memory/);
    expect(arr(t)).toEqual([0, 1, 2, 3, 4, 5]); // nothing written
    tc.neg(t.slice(0), { out: row }); // no overlap: elements 0..2 into 3..5
    expect(arr(t)).toEqual([0, 1, 2, -0, -1, -2]);
    t.dispose();
  });

  it('named results write through an out view too, and are checked against its names (until 0.9.15 named add and unbroadcast wrote past the view; evaluate and where refused it and leaked)', () => {
    const x = { data: iota(6), shape: [2, 3], dims: ['r', 'c'] };
    const big = tc.tensor(new Float32Array(12).fill(-1), [4, 3], { dims: ['r', 'c'] });
    const rest = () => [3, 4, 5, 9, 10, 11].map((i) => arr(big)[i]);
    expect(tc.add(x, 10, { out: big.slice('::2') })).toBeInstanceOf(tc.Tensor);
    expect(arr(big)).toEqual([10, 11, 12, -1, -1, -1, 13, 14, 15, -1, -1, -1]);
    for (const run of [(out) => tc.evaluate('x + 20', { x }, { out }), (out) => tc.where({ data: Uint8Array.of(1, 1, 1, 1, 1, 1), shape: [2, 3], dims: ['r', 'c'] }, tc.add(x, 20), 0, { out })]) {
      const live = tc.memory().liveTensors;
      const out = big.slice('::2');
      run(out);
      expect(arr(out)).toEqual([20, 21, 22, 23, 24, 25]);
      expect(rest()).toEqual([-1, -1, -1, -1, -1, -1]);
      out.dispose();
      expect(tc.memory().liveTensors).toBe(live);
    }
    // Named unbroadcast reorders dims: through a transposed, stepped view.
    const base = tc.tensor(new Float32Array(12).fill(-1), [4, 3]);
    tc.unbroadcast({ data: iota(6), shape: [2, 3], dims: ['r', 'c'] }, { dims: ['c', 'r'], shape: [3, 2] }, { out: base.slice('::2').transpose() });
    expect(arr(base)).toEqual([0, 3, 1, -1, -1, -1, 4, 2, 5, -1, -1, -1].map((v, i) => (i < 3 ? [0, 1, 2][i] : i >= 6 && i < 9 ? [3, 4, 5][i - 6] : v)));
    // Other names are refused, nothing written, nothing left alive.
    const other = tc.tensor(new Float32Array(6), [2, 3], { dims: ['r', 'd'] });
    const ov = other.slice('::-1').slice('::-1'); // a view of other (strides given)
    const xt = tc.tensor(x.data, x.shape, { dims: x.dims });
    const live = tc.memory().liveTensors;
    const bytes = tc.memory().allocatedBytes;
    for (let k = 0; k < 3; k++) {
      expect(() => tc.evaluate('x + 1', { x: xt }, { out: ov })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    }
    expect([tc.memory().liveTensors, tc.memory().allocatedBytes]).toEqual([live, bytes]);
    expect(arr(other)).toEqual([0, 0, 0, 0, 0, 0]);
    for (const t of [big, base, other, ov, xt]) t.dispose();
  });

  it('concat and stack refuse an out that an input views at the same address but other elements (until 0.9.15 read after written)', () => {
    const o = tc.tensor(Int32Array.of(5, 11, 20));
    const a = tc.tensor(Int32Array.of(2, 11));
    expect(() => tc.concat([a, o.slice([0, 1])], 0, { out: o })).toThrow(/shares memory/);
    const s = tc.tensor(Int32Array.of(5, 20), [2, 1]);
    const seven = tc.tensor(Int32Array.of(7));
    expect(() => tc.stack([seven, s.slice([0, 1]).reshape([1])], 0, { out: s })).toThrow(/shares memory/);
    expect([arr(o), arr(s)]).toEqual([[5, 11, 20], [5, 20]]);
    // The same run read and written in place is still taken (a reshape over it: the same elements in the same order).
    tc.neg(o.reshape([3, 1]), { out: o });
    expect(arr(o)).toEqual([-5, -11, -20]);
    for (const t of [o, a, s, seven]) t.dispose();
  });

  it('an out view of another size or dtype is refused', () => {
    const t = tc.tensor(new Float32Array(12), [3, 4]);
    expect(() => tc.add({ data: iota(4), shape: [4] }, 1, { out: t.slice(null, 1) })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    const i = tc.tensor(new Int32Array(6), [2, 3]);
    expect(() => tc.add({ data: iota(3), shape: [3] }, 1, { out: i.slice(0, '::-1') })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    expect(arr(t)).toEqual(Array(12).fill(0));
    t.dispose();
    i.dispose();
  });
});

describe('plain views: refused with the operand, the axis and the dims', () => {
  const data = iota(10);
  const refusal = (fn) => { try { fn(); } catch (e) { return e; } return null; };

  it('reaching outside the data', () => {
    let e = refusal(() => tc.add({ data, shape: [3, 4], strides: [4, 1] }, 1));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('LENGTH_MISMATCH');
    expect(e.axis).toBe(0);
    expect(e.dims).toEqual([10, 12]);
    expect(e.message).toMatch(/^add: a: the view \(3,4\) with strides \[4, 1\] and offset 0 reads element 11, outside its data of 10 elements/);
    e = refusal(() => tc.sum({ data, shape: [5], strides: [-1], offset: 3 }));
    expect(e.code).toBe('LENGTH_MISMATCH');
    expect(e.dims).toEqual([10, -1]);
    e = refusal(() => tc.evaluate('x', { x: { data, shape: [2, 2], strides: [1, 9], offset: 1 } }));
    expect(e.code).toBe('LENGTH_MISMATCH');
    expect(e.axis).toBe(1);
  });

  it('strides that are not integers, or not one per axis; an offset that is not an integer', () => {
    let e = refusal(() => tc.add({ data, shape: [2, 2], strides: [2] }, 1));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.dims).toEqual([1, 2]);
    e = refusal(() => tc.add({ data, shape: [2, 2], strides: [2, 0.5] }, 1));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.axis).toBe(1);
    e = refusal(() => tc.add({ data, shape: [2], offset: 1.5 }, 1));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(() => tc.add({ data, shape: [2], strides: 'ab' }, 1)).toThrow(TypeError);
  });

  it('a zero stride repeats an element; a view of no elements reads nothing; the module stays usable', () => {
    expect(arr(tc.add({ data, shape: [2, 3], strides: [0, 1], offset: 7 }, 0))).toEqual([7, 8, 9, 7, 8, 9]);
    expect(tc.add({ data, shape: [0, 3], strides: [100, 100], offset: 50 }, 1).shape).toEqual([0, 3]);
    expect(arr(tc.add({ data: iota(3), shape: [3] }, 1))).toEqual([1, 2, 3]);
  });
});

describe('layout functions: names, the string form, materialising', () => {
  it('named operands keep dims and coords; transpose by names; add aligns views by name', () => {
    const x = { data: iota(6), shape: [2, 3], dims: ['c', 'w'], coords: { c: ['r', 'g'] } };
    const t = tc.transpose(x, ['w', 'c']);
    expect(t.dims).toEqual(['w', 'c']);
    expect(t.coords).toEqual({ c: ['r', 'g'] });
    const s = tc.slice(t, '::2');
    expect(s.shape).toEqual([2, 2]);
    const r = tc.add(s, { data: Float32Array.of(10, 20), shape: [2], dims: ['c'], coords: { c: ['g', 'r'] } });
    expect(r.dims).toEqual(['w', 'c']);
    expect(arr(r)).toEqual([0 + 20, 3 + 10, 2 + 20, 5 + 10]);
    expect(() => tc.expandDims(x, 0)).toThrow(/name the new axis/);
    expect(tc.expandDims(x, -1, { dims: ['k'] }).dims).toEqual(['c', 'w', 'k']);
  });

  it('options.dims for inputs without dims is a TypeError, as its absence for named ones is (until 0.9.23 ignored)', () => {
    const u = { data: iota(3), shape: [3] };
    const t = tc.tensor(iota(3), [3]);
    const said = (fn) => `${fn}: options.dims names the new axis of inputs with dims, and these have none`;
    for (const x of [u, t]) {
      expect(() => tc.expandDims(x, 0, { dims: ['n'] })).toThrow(new TypeError(said('expandDims')));
      expect(() => tc.stack([x, x], 0, { dims: 's' })).toThrow(new TypeError(said('stack')));
    }
    expect(() => tc.stack([u, u], 0, { dims: 's', out: new Float32Array(6) })).toThrow(TypeError);
    // Without it, as before.
    expect(tc.expandDims(u, 0).shape).toEqual([1, 3]);
    expect(tc.stack([u, u], 0).dims).toBeUndefined();
    t.dispose();
  });

  it('stack of named inputs with options.dims null is refused, as expandDims refuses it (until now the new axis was named "stack")', () => {
    const n = { data: iota(2), shape: [2], dims: ['a'] };
    const t = tc.tensor(iota(2), [2], { dims: ['a'] });
    const live = tc.memory();
    for (const x of [n, t]) {
      expect(() => tc.expandDims(x, 0, { dims: null })).toThrow(TypeError);
      expect(() => tc.stack([x, x], 0, { dims: null })).toThrow(new TypeError('stack: the result.dims entries must be strings or numbers, got object'));
    }
    expect(tc.memory()).toEqual(live);
    expect(tc.stack([n, n], 1, { dims: 's' }).dims).toEqual(['a', 's']);
    t.dispose();
  });

  it('names a result could not carry are refused where it is made: a dim twice, a coordinate twice, other coordinates off concat\'s axis (until 0.9.17 made, then refused by every later call, or relabelled)', () => {
    const t = tc.tensor(iota(6), [2, 3], { dims: ['b', 'c'], coords: { c: ['r', 'g', 'x'] } });
    const p = { data: iota(6), shape: [2, 3], dims: ['b', 'c'], coords: { c: ['r', 'g', 'x'] } };
    const q = { data: iota(6), shape: [2, 3], dims: ['b', 'c'], coords: { c: ['u', 'v', 'w'] } };
    const live = tc.memory();
    for (const x of [t, p]) {
      expect(() => tc.expandDims(x, 0, { dims: ['c'] })).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringContaining('the dim name "c" twice') }));
      expect(() => tc.stack([x, x], 1, { dims: 'b' })).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringContaining('the dim name "b" twice') }));
      expect(() => tc.concat([x, x], 1)).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', axis: 1, message: expect.stringContaining('"r" twice') }));
    }
    expect(() => tc.concat([p, q], 0)).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', axis: 1 }));
    expect(() => tc.concat([t, q], 0, { out: new Float32Array(12) })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    expect(tc.memory()).toEqual(live); // nothing made, nothing left
    // What they can carry is made, and every call takes it.
    const c = tc.concat([p, q], 1);
    expect([c.dims, c.coords]).toEqual([['b', 'c'], { c: ['r', 'g', 'x', 'u', 'v', 'w'] }]);
    // An input with no labels on a dim takes the others', as the ops take them (either side first)
    const bare = { data: iota(6), shape: [2, 3], dims: ['b', 'c'] };
    expect(tc.concat([bare, p], 0).coords).toEqual({ c: ['r', 'g', 'x'] });
    expect(tc.concat([p, bare], 0).coords).toEqual({ c: ['r', 'g', 'x'] });
    expect(tc.concat([p, bare], 1).coords).toBeUndefined(); // the joined dim: labelled only if every input is
    expect(tc.concat([p, p], 0).coords).toEqual({ c: ['r', 'g', 'x'] });
    const e = tc.expandDims(t, 0, { dims: ['n'] });
    const s = tc.add(e, 1);
    expect([s.dims, s.shape, arr(s)]).toEqual([['n', 'b', 'c'], [1, 2, 3], arr(tc.add(p, 1))]);
    for (const r of [e, s, t]) r.dispose();
  });

  it('concat and stack join by position, so inputs with other dims (or some without) are refused, not joined as if alike (until 0.9.19 joined, names dropped); concat takes its axis by name', () => {
    const A = { data: Float32Array.of(1, 2), shape: [1, 2], dims: ['n', 'x'] };
    const B = { data: Float32Array.of(3, 4), shape: [1, 2], dims: ['n', 'z'] };
    const plain = { data: Float32Array.of(3, 4), shape: [1, 2] };
    const t = tc.tensor(Float32Array.of(5, 6), [1, 2], { dims: ['x', 'n'] });
    const live = tc.memory();
    const refused = { code: 'INCOMPATIBLE_DIMS', message: expect.stringContaining('xs[1] and xs[0] have other dims') };
    for (const xs of [[A, B], [A, plain], [plain, A], [A, t]]) {
      expect(() => tc.concat(xs, 0)).toThrow(expect.objectContaining(refused));
      expect(() => tc.stack(xs, 0, { dims: 's' })).toThrow(expect.objectContaining(refused));
    }
    expect(tc.memory()).toEqual(live);
    // 1 and '1' are one name (§6), as everywhere.
    const one = tc.concat([{ ...A, dims: ['n', 1] }, { ...B, dims: ['n', '1'] }], 'n');
    expect([one.shape, one.dims, arr(one)]).toEqual([[2, 2], ['n', 1], [1, 2, 3, 4]]);
    const byName = tc.concat([A, A], 'x');
    expect([byName.shape, byName.dims]).toEqual([[1, 4], ['n', 'x']]);
    expect(() => tc.concat([A, A], 'w')).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', message: 'concat: axis: no dim "w" among [n, x]' }));
    const st = tc.stack([A, A], 1, { dims: 's' });
    expect([st.shape, st.dims]).toEqual([[1, 2, 2], ['n', 's', 'x']]);
    t.dispose();
  });

  it('broadcastTo refuses a named operand, as broadcastArrays does (until 0.9.23 its dims dropped, aligned by position)', () => {
    const c = { data: Float32Array.of(1, 2, 3), shape: [3], dims: ['c'] };
    const t = tc.tensor(Float32Array.of(1, 2, 3), [3], { dims: ['c'] });
    const out = new Float32Array(6);
    const live = tc.memory();
    for (const x of [c, t, { data: Float32Array.of(1), shape: [], dims: [] }]) {
      expect(() => tc.broadcastTo(x, [2, 3])).toThrow(new TypeError('broadcastTo: x has dims; it aligns by position, not by name'));
    }
    expect(() => tc.broadcastTo(c, [2, 3], { out })).toThrow(TypeError);
    expect(Array.from(out)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(tc.memory()).toEqual(live);
    t.dispose();
    // Without dims, as before.
    expect(Array.from(tc.broadcastTo({ data: c.data, shape: [3] }, [2, 3]).data)).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it('broadcastArrays refuses named operands: it aligns by position, and named ones align by name (until 0.9.19 [x] and [y] gave two [2]s)', () => {
    const c = { data: Float32Array.of(1, 2), dims: ['x'] };
    const m = { data: Float32Array.of(10, 20, 30), dims: ['y'] };
    const t = tc.tensor(Float32Array.of(1, 2), [2], { dims: ['x'] });
    const live = tc.memory();
    expect(() => tc.broadcastArrays(c, m)).toThrow('broadcastArrays: #0 has dims; it aligns by position, not by name');
    expect(() => tc.broadcastArrays({ data: Float32Array.of(1, 2), shape: [2, 1] }, t)).toThrow(/#1 has dims/);
    expect(tc.memory()).toEqual(live);
    t.dispose();
    // By name, add broadcasts them: [2] x [3] by name is [2, 3].
    expect(tc.add(c, m).shape).toEqual([2, 3]);
  });

  it('a result past 4 GiB from plain views is TOO_LARGE, as the ops refuse one (until 0.9.17 V8\'s RangeError)', () => {
    const v = { data: new Float32Array(4), shape: [2 ** 20, 2 ** 20, 4], strides: [0, 0, 1] };
    for (const f of [() => tc.contiguous(v), () => tc.concat([v, v]), () => tc.stack([v, v])]) {
      expect(f).toThrow(expect.objectContaining({ name: 'BroadcastError', code: 'TOO_LARGE' }));
    }
    expect(arr(tc.contiguous({ data: iota(4), shape: [2, 4], strides: [0, 1] }))).toEqual([0, 1, 2, 3, 0, 1, 2, 3]); // usable after
  });

  it('a slice step past the data on an axis of one element keeps a usable view; expandDims past 32 axes is refused', () => {
    const x = { data: iota(24), shape: [2, 3, 4] };
    for (const v of [tc.slice(x, [0, null, 2 ** 53]), tc.slice(x, '::99999999999999999999')]) {
      expect(v.shape).toEqual([1, 3, 4]);
      expect(arr(tc.add(v, 1))).toEqual(arr(tc.add(tc.slice(x, 0), 1)));
    }
    expect(() => tc.expandDims(x, Array.from({ length: 30 }, (_, i) => i))).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringContaining('rank 33') }));
    expect(tc.expandDims(x, Array.from({ length: 29 }, (_, i) => i)).shape).toHaveLength(32);
    const r32 = tc.expandDims(x, Array.from({ length: 29 }, (_, i) => i));
    expect(() => tc.stack([r32, r32])).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringContaining('rank 33') }));
  });

  it('the string form and the spec forms agree', () => {
    const x = { data: iota(60), shape: [3, 4, 5] };
    const pairs = [['1:3, ::-1, 0', [[1, 3], [null, null, -1], 0]], ['-1', [-1]], [':, :, -2::-2', [null, null, [-2, null, -2]]], ['::2,1:-1:2', [[null, null, 2], [1, -1, 2]]]];
    for (const [text, specs] of pairs) {
      const a = tc.slice(x, text);
      const b = tc.slice(x, ...specs);
      expect(a.shape, text).toEqual(b.shape);
      expect(arr(tc.contiguous(a)), text).toEqual(arr(tc.contiguous(b)));
    }
    expect(() => tc.slice(x, '1:2:3:4')).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
    expect(() => tc.slice(x, 'a')).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
  });

  it('a malformed text spec among others is named by its own axis (until 0.9.25 spec 0, axis 0, whichever it was)', () => {
    const x = { data: iota(60), shape: [3, 4, 5] };
    expect(() => tc.slice(x, null, null, 'a')).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', axis: 2, message: 'slice: "a": spec 2 is not an index or start:stop:step' }));
    expect(() => tc.slice(x, 0, '1:2:3:4')).toThrow(expect.objectContaining({ axis: 1, message: 'slice: "1:2:3:4": spec 1 ("1:2:3:4") has more than two colons' }));
    expect(() => tc.slice(x, 0, ' ', null)).toThrow(expect.objectContaining({ axis: 1, message: 'slice: " " is 0 specs, in place of one axis\'s' }));
    expect(() => tc.slice(x, 0, 1, '1,2')).toThrow(expect.objectContaining({ axis: 2 }));
    expect(() => tc.slice(x, '0, 1, a')).toThrow(expect.objectContaining({ axis: 2, message: expect.stringContaining('spec 2 is not') })); // one string: as before
  });

  it('a numeric dim name is addressed by its string, as the reductions address it', () => {
    const x = { data: iota(6), shape: [2, 3], dims: ['b', 1] };
    const t = tc.transpose(x, ['1', 'b']);
    expect([t.dims, t.shape]).toEqual([[1, 'b'], [3, 2]]);
    expect(arr(tc.contiguous(t))).toEqual([0, 3, 1, 4, 2, 5]);
    expect(arr(tc.contiguous(tc.flip(x, '1')))).toEqual([2, 1, 0, 5, 4, 3]);
    expect(() => tc.flip(x, 'c')).toThrow(/no dim "c" among \[b, 1\]/);
  });

  it('an axis out of range names the axes there are (a rank-0 view has none)', () => {
    const s = { data: iota(1), shape: [] };
    expect(() => tc.squeeze(s, 0)).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', message: 'squeeze: axis 0 is out of range for a view of rank 0 (it has no axes)' }));
    expect(() => tc.transpose(s, [0])).toThrow(/rank 0 \(it has no axes\)/);
    expect(() => tc.flip({ data: iota(2), shape: [2] }, 2)).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', message: 'flip: axis 2 is out of range for a view of rank 1 (axes -1 to 0)' }));
  });

  it('concat, stack and contiguous into out (typed, resident, a resident view)', () => {
    const a = { data: iota(4), shape: [2, 2] };
    const b = tc.tensor(iota(4).map((v) => v + 10), [2, 2]);
    const out = new Float32Array(8);
    expect(tc.concat([a, tc.transpose(a)], 0, { out }).data).toBe(out);
    expect(Array.from(out)).toEqual([0, 1, 2, 3, 0, 2, 1, 3]);
    const s = tc.stack([a, b], 2);
    expect(s).toBeInstanceOf(tc.Tensor);
    expect(s.shape).toEqual([2, 2, 2]);
    expect(arr(s)).toEqual([0, 10, 1, 11, 2, 12, 3, 13]);
    const big = tc.tensor(new Float32Array(8), [2, 4]);
    tc.contiguous(b.transpose(), { out: big.slice(null, '::2') });
    expect(arr(big)).toEqual([10, 0, 12, 0, 11, 0, 13, 0]);
    const typed = new Float32Array(4); // resident inputs into a typed out
    expect(tc.contiguous(b.transpose(), { out: typed }).data).toBe(typed);
    expect(Array.from(typed)).toEqual([10, 12, 11, 13]);
    const c = tc.contiguous(b.flip());
    expect(c.strides).toEqual([2, 1]);
    expect(arr(c)).toEqual([13, 12, 11, 10]);
    for (const t of [b, s, big, c]) t.dispose();
  });

  it('contiguous, concat and stack read a resident out\'s dims as the ops do, and keep dims into a typed out (until 0.9.23 (c, r) data written under [r, c]; a typed out\'s result lost its dims)', () => {
    const x = tc.tensor(Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3], { dims: ['r', 'c'], coords: { c: ['p', 'q', 's'] } });
    const p = { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['r', 'c'] };
    const wrong = tc.tensor(Float32Array.of(9, 9, 9, 9, 9, 9), [2, 3], { dims: ['r', 'c'] });
    const refused = (fn) => expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', message: expect.stringMatching(new RegExp(`^${fn}: out has dims`)) });
    const neg = (() => { try { tc.neg(x.transpose(), { out: wrong }); } catch (e) { return e; } return null; })();
    expect(neg).toEqual(refused('neg')); // the ops' refusal, which these now give
    expect(() => tc.contiguous(x.transpose(), { out: wrong })).toThrow(refused('contiguous'));
    expect(() => tc.contiguous(x, { out: wrong })).toThrow(refused('contiguous')); // other coordinates
    const wide = tc.tensor(new Float32Array(12), [4, 3], { dims: ['c', 'r'] });
    expect(() => tc.concat([p, p], 0, { out: wide })).toThrow(refused('concat'));
    const three = tc.tensor(new Float32Array(12), [2, 2, 3], { dims: ['x', 'r', 'c'] });
    expect(() => tc.stack([p, p], 0, { out: three, dims: 's' })).toThrow(refused('stack'));
    expect([arr(wrong), arr(wide), arr(three)]).toEqual([[9, 9, 9, 9, 9, 9], new Array(12).fill(0), new Array(12).fill(0)]);
    // An out with the result's names, or none, takes it.
    const right = tc.tensor(new Float32Array(12), [2, 2, 3], { dims: ['s', 'r', 'c'] });
    expect(tc.stack([p, p], 0, { out: right, dims: 's' })).toBe(right);
    expect(arr(right)).toEqual([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]);
    const bare = tc.tensor(new Float32Array(6), [6]);
    expect(arr(tc.contiguous(x.transpose(), { out: bare }))).toEqual([1, 4, 2, 5, 3, 6]);
    // A typed out: the result keeps its names, as neg's does.
    const typed = tc.contiguous(x.transpose(), { out: new Float32Array(6) });
    const negTyped = tc.neg(x.transpose(), { out: new Float32Array(6) });
    expect([typed.dims, typed.coords]).toEqual([negTyped.dims, negTyped.coords]);
    expect([typed.dims, typed.coords]).toEqual([['c', 'r'], { c: ['p', 'q', 's'] }]);
    expect(tc.concat([p, p], 'c', { out: new Float32Array(12) }).dims).toEqual(['r', 'c']);
    expect(tc.stack([p, p], 2, { out: new Float32Array(12), dims: 's' }).dims).toEqual(['r', 'c', 's']);
    for (const t of [x, wrong, wide, three, right, bare]) t.dispose();
  });

  it('contiguous, concat and stack into a typed out over the buffer they read: as if read whole first (NumPy copyto)', () => {
    const d = iota(4);
    expect(Array.from(tc.contiguous(tc.transpose({ data: d, shape: [2, 2] }), { out: d }).data)).toEqual([0, 2, 1, 3]);
    const g = iota(5);
    expect(Array.from(tc.contiguous(tc.flip({ data: g, shape: [5] }), { out: g }).data)).toEqual([4, 3, 2, 1, 0]);
    const e = iota(6);
    expect(Array.from(tc.concat([{ data: e.subarray(3) }, { data: e.subarray(0, 3) }], 0, { out: e }).data)).toEqual([3, 4, 5, 0, 1, 2]);
    const f = iota(4);
    expect(Array.from(tc.stack([{ data: f.subarray(2) }, { data: f.subarray(0, 2) }], 0, { out: f }).data)).toEqual([2, 3, 0, 1]);
    // another kind of array over the same bytes: uint16 pairs of bytes, reversed
    const bytes = Uint8Array.from({ length: 8 }, (_, i) => i);
    const u16 = () => new Uint16Array(bytes.buffer, 0, 4);
    const before = Array.from(u16());
    expect(Array.from(tc.contiguous(tc.flip({ data: u16(), shape: [4] }), { out: u16() }).data)).toEqual(before.reverse());
    // a larger transpose in place, against the same transpose into a separate array
    const big = Float32Array.from({ length: 64 * 48 }, (_, i) => Math.sin(i));
    const want = tc.contiguous(tc.transpose({ data: big, shape: [64, 48] })).data;
    expect(Array.from(tc.contiguous(tc.transpose({ data: big, shape: [64, 48] }), { out: big }).data)).toEqual(Array.from(want));
  });
});

describe('explain shows a view as given', () => {
  it('the operands\' strides and the merged loop of views; a malformed strides entry is the refusal', () => {
    const r = tc.explain({ shapes: [[3, 2], [2]], strides: [[1, 3]] });
    expect(r.ok).toBe(true);
    expect(r.operands[0].strides).toEqual([1, 3]);
    expect(r.loop).toEqual({ shape: [3, 2], strides: [[1, 3], [0, 1]], inner: 'strided' });
    expect(tc.explain({ shapes: [[3, 2], [2]] }).loop.strides).toEqual([[2, 1], [0, 1]]);
    expect(tc.explain({ shapes: [[4, 5]], strides: [[10, 2]] }).loop).toEqual({ shape: [20], strides: [[2]], inner: 'strided' }); // one line, every 2nd element
    expect(tc.explain({ shapes: [[4, 5]], strides: [[11, 2]] }).loop).toEqual({ shape: [4, 5], strides: [[11, 2]], inner: 'strided' });
    expect(tc.explain({ shapes: [[4, 5]], strides: [[5, 1]] }).loop).toEqual({ shape: [20], strides: [[1]], inner: 'contiguous' });
    const b = tc.explain({ rule: 'broadcastTo', shapes: [[3], [2, 3]], strides: [-1] });
    expect(b.operands[0].strides).toEqual([0, -1]);
    const bad = tc.explain({ shapes: [[2]], strides: [[1, 2]] });
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatchObject({ code: 'INVALID_SHAPE', dims: [2, 1], message: 'explain: A has 2 strides for its 1 axes (2,): give one stride per axis' }); // as add() refuses the view
    expect(tc.add({ data: iota(3) }, 1).shape).toEqual([3]); // the request buffer is left as every call expects it
  });
});

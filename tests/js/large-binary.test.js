// A large element-wise call on typed arrays (a binary or unary op, cast or
// where) runs as the one-op expression `name(a, b)` / `name(a)` / `cast(a,
// 'dtype')` / `where(a, b, c)`
// (expr-large.js largeRun), which goes a chunk at a time from its
// second or third run. Every result here is checked against the op's own
// path run on pieces too small to take that route (one row at a time), or on
// resident operands (a new resident result never takes it), byte for byte.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { counted, fill, firstDiff } from './stream-helpers.js';

beforeAll(async () => { await tc.init(); });

const sameBytes = (x, y) => firstDiff(x, y) === -1;
const CTOR = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int16: Int16Array, uint8: Uint8Array };

/** op(a [R, C], b) one row of a at a time (each call far below the large route), joined. */
function byRows(op, a, b, R, C, bRows) {
  let out = null;
  for (let i = 0; i < R; i++) {
    const bi = bRows ? { data: b.data.subarray(i, i + 1), shape: [1] } : b;
    const r = tc[op]({ data: a.data.subarray(i * C, (i + 1) * C), shape: [C] }, bi);
    if (out === null) out = new r.data.constructor(R * C);
    out.set(r.data, i * C);
  }
  return out;
}

describe('a large element-wise call on typed arrays', () => {
  const R = 1024;
  const C = 1024;
  const cases = [
    ['add', 'float32'], ['sub', 'float64'], ['mul', 'int32'], ['div', 'float32'], ['maximum', 'float32'],
    ['less', 'float32'], ['equal', 'int16'], ['mul', 'uint8'], ['bitwiseAnd', 'int32'], ['logicalAnd', 'float32'],
  ];
  for (const [op, dtype] of cases) {
    it(`${op} ${dtype}: [1024,1024] with [1024] and with [1024,1], run after run, as the op row by row`, () => {
      const a = { data: fill(CTOR[dtype], R * C, 1), shape: [R, C] };
      const row = { data: fill(CTOR[dtype], C, 2), shape: [C] };
      const col = { data: fill(CTOR[dtype], R, 3), shape: [R, 1] };
      const refRow = byRows(op, a, row, R, C, false);
      const refCol = byRows(op, a, col, R, C, true);
      const dtypeOf = tc[op]({ data: a.data.subarray(0, C), shape: [C] }, row).dtype; // the op's, on a small call
      const counts = [];
      for (let k = 0; k < 3; k++) {
        const [r1, n1] = counted(() => tc[op](a, row));
        const [r2, n2] = counted(() => tc[op](a, col));
        expect(r1.shape).toEqual([R, C]);
        expect(r1.dtype).toBe(dtypeOf);
        expect(r2.dtype).toBe(dtypeOf);
        expect(r1.data).toBeInstanceOf(refRow.constructor);
        expect(sameBytes(r1.data, refRow), `${op} row, run ${k}`).toBe(true);
        expect(sameBytes(r2.data, refCol), `${op} column, run ${k}`).toBe(true);
        counts.push(n1 + n2);
      }
      // The route really is taken: by the third run both shapes go a chunk at a time.
      expect(counts[2]).toBeGreaterThanOrEqual(1);
    });
  }

  it('with a scalar, a typed out and a resident out', () => {
    const a = { data: fill(Float32Array, R * C, 4), shape: [R, C] };
    const ref = byRows('mul', a, 0.1, R, C, false);
    const typed = new Float32Array(R * C);
    const res = tc.tensor(new Float32Array(R * C), [R, C]);
    // Each form three times in a row (a loop repeats one call; each op keeps the last run per shapes).
    const streamed = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const [r, n] = counted(() => tc.mul(a, 0.1));
      expect(sameBytes(r.data, ref)).toBe(true);
      streamed[0] += n;
    }
    for (let k = 0; k < 3; k++) {
      const [t, n] = counted(() => tc.mul(0.1, a, { out: typed }));
      expect(t.data).toBe(typed);
      expect(sameBytes(typed, ref)).toBe(true);
      streamed[1] += n;
    }
    for (let k = 0; k < 3; k++) {
      const [u, n] = counted(() => tc.mul(a, 0.1, { out: res }));
      expect(u).toBe(res);
      expect(sameBytes(res.toArray(), ref)).toBe(true);
      streamed[2] += n;
    }
    for (const n of streamed) expect(n).toBeGreaterThanOrEqual(1);
    res.dispose();
  });

  it('under the PDPD and NONE rules, as the same call on resident operands', () => {
    const a = { data: fill(Float32Array, 64 * 128 * 128, 5), shape: [64, 128, 128] };
    const b = { data: fill(Float32Array, 128, 6), shape: [128] };
    const opts = { broadcast: { type: 'pdpd', axis: 1 } };
    const ta = tc.tensor(a.data, a.shape);
    const tb = tc.tensor(b.data, b.shape);
    const ref = tc.sub(ta, tb, opts);
    for (let k = 0; k < 3; k++) {
      const r = tc.sub(a, b, opts);
      expect(r.shape).toEqual([64, 128, 128]);
      expect(sameBytes(r.data, ref.toArray())).toBe(true);
    }
    const same = { data: fill(Float32Array, 64 * 128 * 128, 7), shape: [64, 128, 128] };
    const refNone = tc.add(ta, tc.tensor(same.data, same.shape), { broadcast: { type: 'none' } });
    for (let k = 0; k < 3; k++) expect(sameBytes(tc.add(a, same, { broadcast: { type: 'none' } }).data, refNone.toArray())).toBe(true);
    for (const t of [ta, tb, ref, refNone]) t.dispose();
  });

  it('refuses what the op refuses, with the op\'s own error, and stays usable', () => {
    const a = { data: fill(Float32Array, R * C, 8), shape: [R, C] };
    const bad = { data: fill(Float32Array, 1000, 9), shape: [1000] };
    tc.add(a, { data: fill(Float32Array, C, 1), shape: [C] }); // the op's expression is made
    // The op's own error: as the same call on resident operands (which never takes the route) gives it.
    const errorOf = (f) => { try { f(); } catch (e) { return e; } return null; };
    const ta = tc.tensor(a.data, a.shape);
    const tbad = tc.tensor(bad.data, bad.shape);
    const want = errorOf(() => tc.add(ta, tbad));
    const trow = tc.tensor(fill(Float32Array, C, 1), [C]);
    const wantNone = errorOf(() => tc.add(ta, trow, { broadcast: { type: 'none' } }));
    trow.dispose();
    expect(want).toBeInstanceOf(tc.BroadcastError);
    for (let k = 0; k < 2; k++) {
      const err = errorOf(() => tc.add(a, bad));
      expect(err).toBeInstanceOf(tc.BroadcastError);
      expect(err.message).toBe(want.message);
      expect(err.code).toBe('INCOMPATIBLE_DIMS');
      expect(err.axis).toBe(1);
      expect(err.dims).toEqual([1024, 1000]);
      const none = errorOf(() => tc.add(a, { data: fill(Float32Array, C, 1), shape: [C] }, { broadcast: { type: 'none' } }));
      expect(none).toBeInstanceOf(tc.BroadcastError);
      expect(none.message).toBe(wantNone.message);
      expect(none.code).toBe(wantNone.code);
    }
    ta.dispose();
    tbad.dispose();
    expect(() => tc.add(a, a, { out: new Float32Array(10) })).toThrow(/^add: out/);
    const ok = tc.add(a, 1);
    expect(ok.data[5]).toBe(Math.fround(a.data[5] + 1));
  });

  it('gives the op\'s commit error when a getter disposes an operand mid-call', () => {
    const t = tc.tensor(fill(Float32Array, C, 10), [C]);
    const sneaky = { data: fill(Float32Array, R * C, 11), get shape() { t.dispose(); return [R, C]; } };
    expect(() => tc.add(t, sneaky, { out: new Float32Array(R * C) })).toThrow(/^add: a was disposed/);
    expect(tc.add({ data: new Float32Array([1]), shape: [1] }, 2).data[0]).toBe(3);
  });

  it('stays right when a getter makes the same large call while the call reads its arguments', () => {
    const a = { data: fill(Float32Array, R * C, 25), shape: [R, C] };
    const b = { data: fill(Float32Array, C, 26), shape: [C] };
    const ref = byRows('add', a, b, R, C, false);
    let inner = null;
    const sneaky = { data: a.data, get shape() { inner = tc.add(a, b); return [R, C]; } };
    for (let k = 0; k < 3; k++) {
      const r = tc.add(sneaky, b);
      expect(sameBytes(r.data, ref), `outer, run ${k}`).toBe(true);
      expect(sameBytes(inner.data, ref), `inner, run ${k}`).toBe(true);
      expect(r.data.buffer).not.toBe(inner.data.buffer);
    }
  });

  it('keeps ops the generator does not write on their own path (pow, int64), and is right', () => {
    const a = { data: fill(Float32Array, 512 * 1024, 12).map((v) => Math.abs(v) % 4), shape: [512, 1024] };
    const b = { data: new Float32Array(1024).fill(1.5), shape: [1024] };
    const ref = byRows('pow', a, b, 512, 1024, false);
    for (let k = 0; k < 3; k++) {
      const [r, n] = counted(() => tc.pow(a, b));
      expect(n).toBe(0);
      expect(sameBytes(r.data, ref)).toBe(true);
    }
    const big = { data: BigInt64Array.from({ length: 256 * 1024 }, (_, i) => BigInt(i) * 3n), shape: [256, 1024] };
    const one = { data: BigInt64Array.from({ length: 1024 }, (_, i) => BigInt(i)), shape: [1024] };
    for (let k = 0; k < 3; k++) {
      const [r, n] = counted(() => tc.add(big, one));
      expect(n).toBe(0);
      expect(r.data[1024 * 5 + 7]).toBe(BigInt(1024 * 5 + 7) * 3n + 7n);
    }
  });

  it('unary ops and cast: as the op on one row at a time, NaN, ±0, ±Infinity and out-of-range values included', () => {
    const rows = (f, a, R2, C2) => {
      let out = null;
      for (let i = 0; i < R2; i++) {
        const r = f({ data: a.data.subarray(i * C2, (i + 1) * C2), shape: [C2] });
        if (out === null) out = new r.data.constructor(R2 * C2);
        out.set(r.data, i * C2);
      }
      return out;
    };
    const f32 = { data: fill(Float32Array, R * C, 15).map((v, i) => (i % 11 === 0 ? v * 1e7 : v)), shape: [R, C] };
    const f64 = { data: fill(Float64Array, 512 * C, 16).map((v, i) => (i % 13 === 0 ? v * 1e12 : v)), shape: [512, C] };
    const i32 = { data: fill(Int32Array, R * C, 17), shape: [R, C] };
    const calls = [
      ['neg', f32], ['abs', f64], ['sqrt', f32], ['floor', f64], ['ceil', f32], ['trunc', f32], ['round', f32], ['round', f64],
      ['sign', f32], ['isNaN', f32], ['logicalNot', f64], ['neg', i32], ['abs', i32], ['bitwiseNot', i32],
    ].map(([op, x]) => [op, x, (y) => tc[op](y)]);
    for (const to of ['int32', 'uint8', 'int8', 'uint8clamped', 'int16', 'uint32', 'float64']) calls.push([`cast ${to}`, f32, (y) => tc.cast(y, to)]);
    for (const to of ['float32', 'int32', 'uint16']) calls.push([`cast ${to}`, f64, (y) => tc.cast(y, to)]);
    calls.push(['cast float32', i32, (y) => tc.cast(y, 'float32')]);
    let streamed = 0;
    for (const [what, x, f] of calls) {
      const ref = rows(f, x, x.shape[0], C);
      for (let k = 0; k < 3; k++) {
        const [r, n] = counted(() => f(x));
        expect(r.shape).toEqual(x.shape);
        expect(r.data).toBeInstanceOf(ref.constructor);
        expect(sameBytes(r.data, ref), `${what} ${x.data.constructor.name}, run ${k}`).toBe(true);
        streamed += n;
      }
    }
    expect(streamed).toBeGreaterThanOrEqual(calls.length);
  });

  it('where: a float condition (NaN is true), a broadcast branch and a scalar, as where row by row', () => {
    const cond = { data: fill(Float32Array, R * C, 21).map((v, i) => (i % 5 === 0 ? 0 : i % 5 === 1 ? -0 : v)), shape: [R, C] };
    const a = { data: fill(Float32Array, R * C, 22), shape: [R, C] };
    const b = { data: fill(Float32Array, C, 23), shape: [C] };
    const icond = { data: fill(Int32Array, R, 24).map((v) => v % 2), shape: [R, 1] };
    const refs = [[], [], []];
    for (let i = 0; i < R; i++) {
      const ci = { data: cond.data.subarray(i * C, (i + 1) * C), shape: [C] };
      const ai = { data: a.data.subarray(i * C, (i + 1) * C), shape: [C] };
      refs[0].push(tc.where(ci, ai, b).data);
      refs[1].push(tc.where(ci, 2.5, ai).data);
      refs[2].push(tc.where({ data: icond.data.subarray(i, i + 1), shape: [1] }, ai, b).data);
    }
    const joined = refs.map((rows) => { const o = new Float32Array(R * C); rows.forEach((r, i) => o.set(r, i * C)); return o; });
    const calls = [() => tc.where(cond, a, b), () => tc.where(cond, 2.5, a), () => tc.where(icond, a, b)];
    let streamed = 0;
    calls.forEach((f, j) => {
      for (let k = 0; k < 3; k++) {
        const [r, n] = counted(f);
        expect(r.shape).toEqual([R, C]);
        expect(sameBytes(r.data, joined[j]), `where ${j}, run ${k}`).toBe(true);
        streamed += n;
      }
    });
    expect(streamed).toBeGreaterThanOrEqual(3);
  });

  it('keeps each op\'s runs for its last shapes: more shapes in turn than it keeps, each right', () => {
    const b = { data: fill(Float32Array, C, 20), shape: [C] };
    const tb = tc.tensor(b.data, b.shape);
    const shapes = Array.from({ length: 11 }, (_, i) => [128 + 16 * i, C]);
    const xs = shapes.map((sh, i) => ({ data: fill(Float32Array, sh[0] * C, 30 + i), shape: sh }));
    const refs = xs.map((x) => { const t = tc.tensor(x.data, x.shape); const r = tc.sub(t, tb); const d = r.toArray(); r.dispose(); t.dispose(); return d; });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < xs.length; i++) {
        const r = tc.sub(xs[i], b);
        expect(r.shape).toEqual(shapes[i]);
        expect(sameBytes(r.data, refs[i]), `shape ${shapes[i]}, round ${round}`).toBe(true);
      }
    }
    tb.dispose();
  });

  it('leaves named operands to the ops\' own paths, by name: add, neg and where', () => {
    const x = fill(Float32Array, R * C, 40);
    const col = fill(Float32Array, R, 41);
    const cond = fill(Float32Array, R * C, 42);
    // add by name: c {r} against x {r, c} stretches along c (by position [1024] would align with c).
    const tcol = tc.tensor(col, [R, 1]);
    const tx = tc.tensor(x, [R, C]);
    const byName = tc.add(tx, tcol);
    const refAdd = byName.toArray();
    byName.dispose();
    const negRef = tc.neg(tx);
    const refNeg = negRef.toArray();
    negRef.dispose();
    const whereRef = tc.where({ data: cond, shape: [R, C] }, tx, 0.5);
    const refWhere = whereRef.toArray();
    whereRef.dispose();
    tx.dispose();
    tcol.dispose();
    for (let k = 0; k < 3; k++) {
      const [r1, n1] = counted(() => tc.add({ data: x, shape: [R, C], dims: ['r', 'c'] }, { data: col, shape: [R], dims: ['r'] }));
      expect(r1.dims).toEqual(['r', 'c']);
      expect(sameBytes(r1.data, refAdd), `add by name, run ${k}`).toBe(true);
      const [r2, n2] = counted(() => tc.neg({ data: x, shape: [R, C], dims: ['r', 'c'] }));
      expect(r2.dims).toEqual(['r', 'c']);
      expect(sameBytes(r2.data, refNeg), `neg, run ${k}`).toBe(true);
      const [r3, n3] = counted(() => tc.where({ data: cond, shape: [R, C], dims: ['r', 'c'] }, { data: x, shape: [R, C], dims: ['r', 'c'] }, 0.5));
      expect(r3.dims).toEqual(['r', 'c']);
      expect(sameBytes(r3.data, refWhere), `where by name, run ${k}`).toBe(true);
      // A named condition beside plain branches is refused, as add refuses named beside plain.
      expect(() => tc.where({ data: cond, shape: [R, C], dims: ['r', 'c'] }, { data: x, shape: [R, C] }, 0.5)).toThrow(/a" has no dims while other operands do/);
      expect(n1 + n2 + n3, `run ${k}: none of them in chunks`).toBe(0);
    }
  });

  it('leaves no memory behind', () => {
    tc.releaseScratch();
    const was = tc.memory();
    const a = { data: fill(Float32Array, R * C, 13), shape: [R, C] };
    const b = { data: fill(Float32Array, C, 14), shape: [C] };
    for (let k = 0; k < 5; k++) tc.div(a, b);
    tc.releaseScratch();
    const now = tc.memory();
    expect(now.allocatedBytes).toBe(was.allocatedBytes);
    expect(now.liveTensors).toBe(was.liveTensors);
  });
});

// A compiled expression run again with the same key and buffers: JS calls the
// generated module with the engine's last descriptor itself (execute.js
// runExpr, repeatable()). Every repeated run must give what a first run (the
// engine's answer) gives: new values in the same tensors, other tensors, other
// `out`s, refusals, disposed operands, and the same key after other runs.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { mod } from '../../dist/loader.js';

beforeAll(async () => { await tc.init(); });

/** Runs of generated modules the engine made (a repeated run JS makes itself is not one). */
function engineRuns(f) {
  const gen = mod().tcGen;
  const run = gen.run;
  let n = 0;
  gen.run = (id, desc) => { n++; return run(id, desc); };
  try {
    f();
  } finally {
    gen.run = run;
  }
  return n;
}

const f32 = (...v) => Float32Array.from(v);
const data = (r) => Array.from(r instanceof tc.Tensor ? r.toArray() : r.data);
/** (a + b) * a - b over [3,1] and [1,4], float32, as op by op gives it. */
function reference(a, b) {
  const t = tc.add({ data: a, shape: [3, 1] }, { data: b, shape: [1, 4] });
  const u = tc.mul(t, { data: a, shape: [3, 1] });
  return data(tc.sub(u, { data: b, shape: [1, 4] }));
}

describe('a repeated run of a compiled expression', () => {
  it('reads the new contents of the same resident tensors every time', () => {
    const E = tc.compile('(a + b) * a - b');
    const ta = tc.tensor(f32(1, 2, 3), [3, 1]);
    const tb = tc.tensor(f32(10, 20, 30, 40), [1, 4]);
    const out = tc.tensor(new Float32Array(12), [3, 4]);
    try {
      for (let i = 0; i < 6; i++) {
        const a = f32(1 + i, 2 - i, 3 * i);
        const b = f32(10, 20 + i, -30, 0.5 * i);
        // New contents, written into the same tensors (x + 0 into out).
        tc.add({ data: a, shape: [3, 1] }, 0, { out: ta });
        tc.add({ data: b, shape: [1, 4] }, 0, { out: tb });
        const r = E.run({ a: ta, b: tb }, { out });
        expect(r).toBe(out);
        expect(data(out)).toEqual(reference(a, b));
      }
    } finally {
      ta.dispose();
      tb.dispose();
      out.dispose();
    }
  });

  it('follows other tensors, other outs and typed arrays of the same shapes', () => {
    const E = tc.compile('(a + b) * a - b');
    const ts = [];
    try {
      for (let i = 0; i < 5; i++) {
        const a = f32(i, i + 1, i + 2);
        const b = f32(1, -1, 2 * i, 3);
        const ta = tc.tensor(a, [3, 1]);
        const tb = tc.tensor(b, [1, 4]);
        const out = tc.tensor(new Float32Array(12), [3, 4]);
        ts.push(ta, tb, out);
        E.run({ a: ta, b: tb }, { out });
        expect(data(out)).toEqual(reference(a, b));
        // Typed arrays in, a fresh array out (scratch slots: the same buffers every run).
        const r = E.run({ a: { data: a, shape: [3, 1] }, b: { data: b, shape: [1, 4] } });
        expect(r.shape).toEqual([3, 4]);
        expect(data(r)).toEqual(reference(a, b));
        r.shape.push(99); // the caller's array: the next result's shape is its own
        // A typed out.
        const o = new Float32Array(12);
        expect(E.run({ a: { data: a, shape: [3, 1] }, b: { data: b, shape: [1, 4] } }, { out: o }).data).toBe(o);
        expect(Array.from(o)).toEqual(reference(a, b));
      }
      const r = E.run({ a: { data: f32(1, 2, 3), shape: [3, 1] }, b: { data: f32(1, 2, 3, 4), shape: [1, 4] } });
      expect(r.shape).toEqual([3, 4]);
    } finally {
      for (const t of ts) t.dispose();
    }
  });

  it('refuses what the engine refuses, after a run it could repeat', () => {
    const E = tc.compile('a * 2 + b');
    const a = { data: f32(1, 2, 3), shape: [3, 1] };
    const b = { data: f32(1, 2, 3, 4), shape: [1, 4] };
    expect(data(E.run({ a, b }))).toEqual([3, 4, 5, 6, 5, 6, 7, 8, 7, 8, 9, 10]);
    expect(data(E.run({ a, b }))).toEqual([3, 4, 5, 6, 5, 6, 7, 8, 7, 8, 9, 10]);
    // An out of another length: LENGTH_MISMATCH, as on a first run.
    expect(() => E.run({ a, b }, { out: new Float32Array(11) })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    const o = new Float32Array(12);
    E.run({ a, b }, { out: o });
    expect(() => E.run({ a, b }, { out: new Float32Array(13) })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    // An out of another dtype.
    const t = tc.tensor(new Int32Array(12), [3, 4]);
    try {
      expect(() => E.run({ a, b }, { out: t })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    } finally {
      t.dispose();
    }
    // A disposed operand, after runs with it.
    const ta = tc.tensor(f32(1, 2, 3), [3, 1]);
    const out = tc.tensor(new Float32Array(12), [3, 4]);
    E.run({ a: ta, b }, { out });
    E.run({ a: ta, b }, { out });
    expect(data(out)).toEqual([3, 4, 5, 6, 5, 6, 7, 8, 7, 8, 9, 10]);
    ta.dispose();
    expect(() => E.run({ a: ta, b }, { out })).toThrow(/disposed/);
    // In place: out is operand a, broadcast: refused as on a first run.
    const tb = tc.tensor(f32(1, 2, 3, 4), [1, 4]);
    const tx = tc.tensor(new Float32Array(12).fill(1), [3, 4]);
    try {
      expect(() => E.run({ a: tx, b: tb }, { out: tb })).toThrow();
      E.run({ a: tx, b: tb }, { out });
      E.run({ a: tx, b: tb }, { out });
      expect(data(out)).toEqual([3, 4, 5, 6, 3, 4, 5, 6, 3, 4, 5, 6]);
    } finally {
      tb.dispose();
      tx.dispose();
      out.dispose();
    }
  });

  it('stays right when other expressions and ops run in between, and for every loop form', () => {
    const E = tc.compile('x * y - x');
    const F = tc.compile('x + y');
    const cases = [
      [[4, 5], [4, 5]], [[4, 5], [5]], [[4, 1], [1, 5]], [[7], []], [[2, 3, 4], [3, 1]], [[1000], [1000]],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [sx, sy] of cases) {
        const n = (s) => s.reduce((p, d) => p * d, 1);
        const x = Float32Array.from({ length: n(sx) }, (_, i) => (i * 7 + round) % 13 - 6);
        const y = Float32Array.from({ length: n(sy) }, (_, i) => (i * 5 + round) % 11 - 5);
        const X = { data: x, shape: sx };
        const Y = { data: y, shape: sy };
        const want = data(tc.sub(tc.mul(X, Y), X));
        expect(data(E.run({ x: X, y: Y }))).toEqual(want);
        expect(data(F.run({ x: X, y: Y }))).toEqual(data(tc.add(X, Y)));
        expect(data(E.run({ x: X, y: Y }))).toEqual(want);
        expect(data(E.run({ x: X, y: Y }))).toEqual(want);
        // Scratch given back between runs: the descriptor's memory is made again.
        tc.releaseScratch();
        expect(data(E.run({ x: X, y: Y }))).toEqual(want);
        expect(data(E.run({ x: X, y: Y }))).toEqual(want);
      }
    }
  });

  it('is made by JS, not the engine, once the engine has answered the same request', () => {
    const E = tc.compile('(a + b) * a - b');
    const ta = tc.tensor(f32(1, 2, 3), [3, 1]);
    const tb = tc.tensor(f32(10, 20, 30, 40), [1, 4]);
    const out = tc.tensor(new Float32Array(12), [3, 4]);
    const a = { data: f32(1, 2, 3), shape: [3, 1] };
    const b = { data: f32(10, 20, 30, 40), shape: [1, 4] };
    try {
      expect(engineRuns(() => E.run({ a: ta, b: tb }, { out }))).toBe(1);
      expect(engineRuns(() => { for (let i = 0; i < 5; i++) E.run({ a: ta, b: tb }, { out }); })).toBe(0);
      expect(engineRuns(() => E.run({ a, b }))).toBe(1); // typed arrays: another request (other buffers)
      expect(engineRuns(() => { for (let i = 0; i < 5; i++) expect(data(E.run({ a, b }))).toEqual(reference(a.data, b.data)); })).toBe(0);
      expect(engineRuns(() => E.run({ a: ta, b: tb }))).toBe(1); // a fresh tensor out: the engine allocates it
      expect(engineRuns(() => { for (let i = 0; i < 3; i++) E.run({ a: ta, b: tb }).dispose(); })).toBe(3);
    } finally {
      ta.dispose();
      tb.dispose();
      out.dispose();
    }
  });

  it('is not used for what the engine does itself: reductions and interpreted programs', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    const S = tc.compile('sum(x * 2, [1])');
    for (let i = 0; i < 3; i++) expect(data(S.run({ x }))).toEqual([12, 30]);
    const P = tc.compile('x ** 2 + 1');
    for (let i = 0; i < 3; i++) expect(data(P.run({ x }))).toEqual([2, 5, 10, 17, 26, 37]);
  });
});

// Issue 23: coordinate labels interned by a typed hash table (bindings/js/named.js
// LabelIds) and matched by the engine's label index, which addresses compact id
// ranges directly (src/rules/named.cpp). The results are checked against a
// plain Map-based union / intersection written here.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

// Labels keyed as the API documents: by type then value, -0 as 0, NaN as NaN.
const key = (l) => `${typeof l}:${typeof l === 'number' && l === 0 ? 0 : String(l)}`;

function reference(la, lb, shaping) {
  const inB = new Map(lb.map((l, j) => [key(l), j]));
  const out = [];
  const used = new Set();
  for (const l of la) {
    if (inB.has(key(l))) used.add(key(l));
    else if (shaping === 'intersection') continue;
    out.push(l);
  }
  if (shaping === 'union') for (const l of lb) if (!used.has(key(l))) out.push(l);
  return out;
}

const union = (la, lb, shaping = 'union') => tc.namedBroadcastShape({ dims: ['x'], coords: { x: la } }, { dims: ['x'], coords: { x: lb } }, { shaping }).coords.x;

// A deterministic shuffle (LCG) so that runs are repeatable.
function shuffled(a, seed) {
  const out = a.slice();
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('label interning', () => {
  it('keeps types apart (1 and "1", true and "true") and merges -0 with 0 and NaN with NaN', () => {
    const la = [1, '1', -0, NaN, true];
    const lb = [0, NaN, 'true', true, '1', 2.5];
    expect(union(la, lb).map((l) => `${typeof l}:${Object.is(l, -0) ? '-0' : String(l)}`))
      .toEqual(['number:1', 'string:1', 'number:-0', 'number:NaN', 'boolean:true', 'string:true', 'number:2.5']);
    const x = union(la, lb, 'intersection');
    expect(x.length).toBe(4);
    expect(x[0]).toBe('1');
    expect(Object.is(x[1], -0)).toBe(true);
    expect(Number.isNaN(x[2])).toBe(true);
    expect(x[3]).toBe(true);
  });

  it('strings whose hashes are alike (same length, one unit apart) stay distinct', () => {
    const la = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(65 + (i % 26), 97 + Math.floor(i / 26) % 26, 48 + Math.floor(i / 676)));
    const lb = la.map((s) => s.toLowerCase()).concat(['A']);
    const distinct = [...new Set(lb)];
    expect(union(la, distinct)).toEqual(reference(la, distinct, 'union'));
    expect(union(la, distinct, 'intersection')).toEqual(reference(la, distinct, 'intersection'));
  });

  it('a 60k-label union and intersection with half the labels shared, shuffled, equal the reference', () => {
    const n = 60000;
    const la = Array.from({ length: n }, (_, i) => `t${i}`);
    const lb = shuffled(Array.from({ length: n }, (_, i) => `t${i + n / 2}`), 7);
    const u = union(la, lb);
    expect(u.length).toBe(n + n / 2);
    expect(u).toEqual(reference(la, lb, 'union'));
    expect(union(la, lb, 'intersection')).toEqual(reference(la, lb, 'intersection'));
  });

  it('mixed numbers and strings at scale (ids from both sides interleave)', () => {
    const n = 50000;
    const la = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? i / 2 : `s${i}`));
    const lb = shuffled(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? `s${i}` : i * 1.5)), 11);
    expect(union(la, lb)).toEqual(reference(la, lb, 'union'));
    expect(union(la, lb, 'intersection')).toEqual(reference(la, lb, 'intersection'));
  });

  it('integer labels (raw ids): compact and sparse ranges give the same matching', () => {
    const n = 20000;
    for (const scale of [1, 1e9]) {
      const la = Array.from({ length: n }, (_, i) => i * scale);
      const lb = shuffled(Array.from({ length: n }, (_, i) => (i + n / 4) * scale), 3);
      expect(union(la, lb)).toEqual(reference(la, lb, 'union'));
      expect(union(la, lb, 'intersection')).toEqual(reference(la, lb, 'intersection'));
    }
  });

  it('duplicate labels are still refused on the side that has them, whichever side', () => {
    const big = Array.from({ length: 100000 }, (_, i) => `d${i}`);
    const err = (f) => { try { f(); } catch (e) { return e; } return null; };
    const left = err(() => union(big.concat(['d5']), ['z']));
    expect(left?.code).toBe('INVALID_SHAPE');
    expect(left.message).toMatch(/left has duplicate coordinate labels in dim "x"/);
    const right = err(() => union(['z'], big.concat(['d99999'])));
    expect(right?.code).toBe('INVALID_SHAPE');
    expect(right.message).toMatch(/right has duplicate coordinate labels in dim "x"/);
    const raw = err(() => union([0, 1, 2], [5, 6, 5]));
    expect(raw.message).toMatch(/right has duplicate coordinate labels/);
    const nan = err(() => union([NaN, 'a', NaN], ['b']));
    expect(nan.message).toMatch(/left has duplicate coordinate labels/);
    const zero = err(() => union(['a'], [0, -0]));
    expect(zero.message).toMatch(/right has duplicate coordinate labels/);
  });

  it('a labeled add by union gathers each label\'s value', () => {
    const r = tc.add({ data: Float32Array.of(1, 2, 3), dims: ['x'], coords: { x: ['a', 'b', 'c'] } },
      { data: Float32Array.of(10, 20), dims: ['x'], coords: { x: ['c', 'z'] } }, { shaping: 'union', fill: 0 });
    expect(r.coords.x).toEqual(['a', 'b', 'c', 'z']);
    expect(Array.from(r.data)).toEqual([1, 2, 13, 20]);
  });

  it('a labeled dim with no labels keeps its (empty) coords through evaluate and where, as through add', () => {
    // An intersection of disjoint labels is such a dim; evaluate and where dropped its coords.
    const x = { data: new Float32Array(0), shape: [0], dims: ['x'], coords: { x: [] } };
    const y = { data: Float32Array.of(1, 2), shape: [2], dims: ['y'], coords: { y: ['p', 'q'] } };
    const want = { x: [], y: ['p', 'q'] };
    expect(tc.add(x, y).coords).toEqual(want);
    expect(tc.evaluate('x + y', { x, y }).coords).toEqual(want);
    expect(tc.where(x, x, y).coords).toEqual(want);
    expect(tc.evaluate('x * 2', { x }).coords).toEqual({ x: [] });
  });
});

describe('named operands of the layout functions', () => {
  // The messages name the call once: "concat: xs[1] …", not "concat: concat: xs[1] …".
  it('a bad dims list names the call once', () => {
    const f = new Float32Array(2);
    const bad = { data: f, shape: [2], dims: ['a', 'b'] };
    const good = { data: f, shape: [2], dims: ['a'] };
    const cases = [
      [() => tc.concat([good, bad], 0), 'concat: xs[1] has 2 dim names but shape (2,)'],
      [() => tc.stack([good, bad], 0, { dims: 'n' }), 'stack: xs[1] has 2 dim names but shape (2,)'],
      [() => tc.transpose(bad), 'transpose: x has 2 dim names but shape (2,)'],
      [() => tc.flip(bad), 'flip: x has 2 dim names but shape (2,)'],
      [() => tc.squeeze(bad), 'squeeze: x has 2 dim names but shape (2,)'],
      [() => tc.contiguous(bad), 'contiguous: x has 2 dim names but shape (2,)'],
      [() => tc.concat([good, { data: f, shape: [2], dims: ['a'], coords: 5 }], 0), 'concat: xs[1].coords must be an object of { dimName: labels[] }'],
    ];
    for (const [run, message] of cases) {
      let e = null;
      try { run(); } catch (x) { e = x; }
      expect(e?.message).toBe(message);
    }
  });
});

describe('a rank-0 result of named operands', () => {
  // evaluate and the reductions give it without dims (docs/expressions.md); until 0.9.24 the binary ops gave dims [].
  it('has no dims, from every call family', () => {
    const a = { data: Float32Array.of(2), shape: [], dims: [] };
    const b = { data: Float32Array.of(3), shape: [], dims: [] };
    const results = [tc.add(a, b), tc.mul(a, 4), tc.evaluate('x + y', { x: a, y: b }), tc.sum({ data: Float32Array.of(1, 4), dims: ['i'] })];
    for (const r of results) {
      expect(r.shape).toEqual([]);
      expect(r.dims).toBeUndefined();
    }
    expect(results.map((r) => r.data[0])).toEqual([5, 8, 5, 5]);
    const t = tc.add(tc.tensor(Float32Array.of(2), [], { dims: [] }), b);
    expect(t.dims).toBeUndefined();
    expect(t.item()).toBe(5);
    t.dispose();
    // A rank-1 result keeps its name.
    expect(tc.add(a, { data: Float32Array.of(1, 2), dims: ['i'] }).dims).toEqual(['i']);
  });
});

describe('a resident out with the result\'s dim names but other sizes', () => {
  // Until 0.9.24 an out with dims ['a', 'b'] and shape [2, 3] took a result whose a is 3 and b is 2 (same size,
  // same names): the out then read its data with the wrong sizes. It is now refused, by every call family.
  it('is refused as INCOMPATIBLE_DIMS, naming the dim; the out is left unwritten', () => {
    const x = { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [3, 2], dims: ['a', 'b'] };
    const calls = {
      neg: (out) => tc.neg(x, { out }),
      add: (out) => tc.add(x, 1, { out }),
      evaluate: (out) => tc.evaluate('-x', { x }, { out }),
      contiguous: (out) => tc.contiguous(x, { out }),
      concat: (out) => tc.concat([x], 0, { out }),
      softmax: (out) => tc.softmax(x, 'b', { out }),
      unbroadcast: (out) => tc.unbroadcast({ data: new Float32Array(6), shape: [3, 2], dims: ['a', 'b'] }, { dims: ['a', 'b'], shape: [3, 2] }, { out }),
    };
    for (const [name, run] of Object.entries(calls)) {
      const out = tc.tensor(new Float32Array(6), [2, 3], { dims: ['a', 'b'] });
      let e = null;
      try { run(out); } catch (x2) { e = x2; }
      expect(e?.code, name).toBe('INCOMPATIBLE_DIMS');
      expect(e.axis).toBe(0);
      expect(e.message).toBe(`${name}: out has dims ["a", "b"] with other sizes but the result has dims ["a", "b"] (dim "a" differs): its data would be read by the wrong names; pass an out with the result's dims and coords, or one without dims`);
      expect(Array.from(out.toArray())).toEqual([0, 0, 0, 0, 0, 0]);
      out.dispose();
      // The out of the result's sizes takes it.
      const ok = tc.tensor(new Float32Array(6), [3, 2], { dims: ['a', 'b'] });
      expect(run(ok)).toBe(ok);
      ok.dispose();
    }
    const s = tc.tensor(new Float32Array(6), [3, 2], { dims: ['a', 'b'] });
    expect(() => tc.sum(x, { axes: [0], keepdims: true, out: s })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', axis: 0 }));
    s.dispose();
  });
});

// explain() past 2^53: strides and the merged loop come exact (null where a
// value is past 2^53, with every value as decimal text beside, as `size` has
// `sizeText`). They are recomputed in JS by exactPlan, the BigInt twin of
// build_loop (src/core/plan.cpp). So the twin cannot drift from the engine, it
// is run here on random small static shapes (fast-check, fixed seed) and must
// give the engine's own strides, loop and inner kind; then the cases past 2^53
// and past 2^63 (where the engine's int64 saturates), checked by hand in BigInt.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import * as tc from '../../dist/node.js';
import { exactPlan } from '../../dist/explain.js';

beforeAll(async () => { await tc.init(); });

const SEED = 20260126;
const RUNS = 3000; // per rule family

// ---- the twin against the engine ------------------------------------------------------

const nums = (v) => v.map(Number);
const seen = { plans: 0, loops: 0, failed: 0, inner: new Set() };

/** explain(req); when its plan is static, the twin must give its strides and loop exactly. */
function agree(req) {
  const r = tc.explain(req);
  if (!r.static) return true; // a refused request (e.g. an out-of-range axis): no plan to compare
  // Small shapes: nothing past 2^53, so no Text field anywhere (results as before).
  expect(r.sizeText).toBeUndefined();
  for (const o of r.operands) expect(o.stridesText).toBeUndefined();
  // explain's strides: per shape (broadcastTo: the input's alone), the views an ok plan reads.
  const x = exactPlan(r.shape, r.operands, r.ok && (req.rule === 'broadcastTo' && req.strides ? [req.strides] : req.strides));
  expect(x.strides.map(nums)).toEqual(r.operands.map((o) => o.strides));
  seen.plans++;
  if (!r.ok) seen.failed++;
  if (r.loop !== null) {
    expect({ shape: nums(x.loop.shape), strides: x.loop.strides.map(nums), inner: x.loop.inner }).toStrictEqual(r.loop);
    seen.loops++;
    seen.inner.add(r.loop.inner);
  }
  return true;
}

// Dims 0–5, many 1s, so random shapes often broadcast (and merge).
const dim = fc.oneof(
  { weight: 5, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: fc.integer({ min: 2, max: 5 }) },
);
const shape = fc.array(dim, { maxLength: 6 });
/** A 0/1 mask as long as `s`: which dims become 1. */
const ones = (s) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length });
/** An operand that broadcasts to `out`: a suffix of it with some dims 1. */
const under = (out) => fc.tuple(fc.integer({ min: 0, max: out.length }), ones(out))
  .map(([from, m]) => out.slice(from).map((d, i) => (m[from + i] ? 1 : d)));
/** A run of `s` starting at some axis, some dims 1: { at, sub }. */
const run = (s) => fc.tuple(fc.integer({ min: 0, max: s.length }), fc.integer({ min: 0, max: s.length }), ones(s))
  .map(([at, len, m]) => ({ at, sub: s.slice(at, at + len).map((d, i) => (m[at + i] ? 1 : d)) }));

describe('exactPlan is build_loop: the engine\'s own strides, loop and inner on random small shapes', () => {
  it('numpy, 1–4 shapes (broadcastable or not)', () => {
    const broadcastable = shape.chain((out) => fc.array(under(out), { minLength: 1, maxLength: 4 }));
    const random = fc.array(shape, { minLength: 1, maxLength: 4 });
    fc.assert(fc.property(fc.oneof({ weight: 3, arbitrary: broadcastable }, { weight: 1, arbitrary: random }),
      (shapes) => agree({ rule: 'numpy', shapes })), { seed: SEED, numRuns: RUNS });
  });

  it('pdpd (axis -1 or given, B with trailing 1s) and none', () => {
    const pdpd = shape.chain((a) => fc.tuple(run(a), fc.integer({ min: 0, max: 2 }), fc.boolean())
      .map(([{ at, sub }, trail, given]) => {
        const b = [...sub, ...Array(trail).fill(1)].slice(0, 6);
        return given ? { rule: 'pdpd', shapes: [a, b], axis: at } : { rule: 'pdpd', shapes: [a, b] };
      }));
    const none = shape.chain((a) => under(a).map((b) => ({ rule: 'none', shapes: [a, b] })));
    const random = fc.tuple(fc.constantFrom('pdpd', 'none'), shape, shape).map(([rule, a, b]) => ({ rule, shapes: [a, b] }));
    fc.assert(fc.property(fc.oneof({ weight: 3, arbitrary: pdpd }, { weight: 1, arbitrary: none }, { weight: 1, arbitrary: random }), agree),
      { seed: SEED + 1, numRuns: RUNS });
  });

  it('broadcastTo, every mode', () => {
    const numpy = shape.chain((t) => fc.tuple(under(t), fc.constantFrom('numpy', 'bidirectional'))
      .map(([i, mode]) => ({ rule: 'broadcastTo', mode, shapes: [i, t] })));
    const bidirectional = fc.tuple(shape, shape).map(([i, t]) => ({ rule: 'broadcastTo', mode: 'bidirectional', shapes: [i, t] }));
    const explicit = shape.chain((t) => fc.tuple(fc.subarray(t.map((_, a) => a)), ones(t))
      .map(([axesMapping, m]) => ({ rule: 'broadcastTo', mode: 'explicit', shapes: [axesMapping.map((a) => (m[a] ? 1 : t[a])), t], axesMapping })));
    const pdpd = shape.chain((t) => run(t).map(({ at, sub }) => ({ rule: 'broadcastTo', mode: 'pdpd', shapes: [sub, t], axis: at })));
    fc.assert(fc.property(fc.oneof(numpy, bidirectional, explicit, pdpd), agree), { seed: SEED + 2, numRuns: RUNS });
  });

  it('named: shared dims in any order (strided loops), every shaping', () => {
    const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];
    const operand = (size) => fc.tuple(fc.shuffledSubarray(NAMES), ones(NAMES))
      .map(([dims, m]) => ({ dims, shape: dims.map((d) => (m[NAMES.indexOf(d)] && size[d] !== 0 ? 1 : size[d])) }));
    const sizes = fc.tuple(...NAMES.map(() => dim)).map((ds) => Object.fromEntries(NAMES.map((n, i) => [n, ds[i]])));
    const named = sizes.chain((size) => fc.tuple(operand(size), operand(size), fc.constantFrom('exact', 'intersection', 'union')))
      .map(([a, b, shaping]) => ({ rule: 'named', operands: [a, b], shaping }));
    fc.assert(fc.property(named, agree), { seed: SEED + 3, numRuns: RUNS });
  });

  it('views: explain\'s strides (any sign, 0, a permutation) read as the engine reads them (until 0.9.23 the twin took every operand row-major)', () => {
    const stride = fc.integer({ min: -40, max: 40 });
    const view = (s) => fc.option(fc.array(stride, { minLength: s.length, maxLength: s.length }), { nil: null, freq: 3 });
    const numpy = fc.array(shape, { minLength: 1, maxLength: 3 })
      .chain((shapes) => fc.tuple(...shapes.map(view)).map((strides) => ({ rule: 'numpy', shapes, strides })));
    const to = shape.chain((t) => under(t).chain((i) => fc.array(stride, { minLength: i.length, maxLength: i.length })
      .map((st) => ({ rule: 'broadcastTo', shapes: [i, t], strides: st }))));
    fc.assert(fc.property(fc.oneof({ weight: 3, arbitrary: numpy }, { weight: 1, arbitrary: to }), agree), { seed: SEED + 4, numRuns: RUNS });
  });

  it('covered what it should', () => {
    // Enough plans, failed ones (strides, no loop) among them, and every inner kind.
    expect(seen.plans).toBeGreaterThan(RUNS * 2);
    expect(seen.loops).toBeGreaterThan(RUNS);
    expect(seen.failed).toBeGreaterThan(50);
    expect([...seen.inner].sort()).toEqual(['both-scalar', 'contiguous', 'first-scalar', 'second-scalar', 'strided']);
  });
});

// ---- past 2^53 and past 2^63 ----------------------------------------------------------

const INT64_MAX = 2n ** 63n - 1n;

/** No number past 2^53 anywhere in the strides or loop, and no saturated INT64_MAX as text. */
function nothingSaturated(r) {
  const numbers = [...r.operands.flatMap((o) => o.strides), ...r.loop.shape, ...r.loop.strides.flat()];
  for (const v of numbers) expect(v === null || Number.isSafeInteger(v)).toBe(true);
  const texts = [...r.operands.flatMap((o) => o.stridesText ?? []), ...(r.loop.shapeText ?? []), ...(r.loop.stridesText ?? []).flat()];
  for (const t of texts) expect(BigInt(t)).not.toBe(INT64_MAX);
}

/** The expected { numbers, text } of exact values: null past 2^53, text of all when one is. */
function exactly(values) {
  const n = values.map((v) => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null));
  return { n, text: n.includes(null) ? values.map(String) : undefined };
}

function expectStrides(o, values) {
  const { n, text } = exactly(values);
  expect(o.strides).toEqual(n);
  expect(o.stridesText).toEqual(text);
}

function expectLoop(loop, shape, strides, inner) {
  const s = exactly(shape);
  expect(loop.shape).toEqual(s.n);
  expect(loop.shapeText).toEqual(s.text);
  const st = strides.map(exactly);
  expect(loop.strides).toEqual(st.map((x) => x.n));
  expect(loop.stridesText).toEqual(st.some((x) => x.text) ? strides.map((v) => v.map(String)) : undefined);
  expect(loop.inner).toBe(inner);
}

describe('strides and loop past 2^53 are exact, as text beside', () => {
  it('[2^40, 2^30, 1] with [2^30, 7]: size past 2^53, every stride and extent safe (no Text fields)', () => {
    const r = tc.explain({ rule: 'numpy', shapes: [[2 ** 40, 2 ** 30, 1], [2 ** 30, 7]] });
    expect(r.ok).toBe(true);
    expect(r.size).toBe(null);
    expect(r.sizeText).toBe((2n ** 40n * 2n ** 30n * 7n).toString());
    expectStrides(r.operands[0], [2n ** 30n * 1n, 1n, 0n]);
    expectStrides(r.operands[1], [0n, 7n, 1n]);
    expect(r.operands.map((o) => 'stridesText' in o)).toEqual([false, false]);
    expectLoop(r.loop, [2n ** 40n, 2n ** 30n, 7n], [[2n ** 30n, 1n, 0n], [0n, 7n, 1n]], 'first-scalar');
    expect('shapeText' in r.loop || 'stridesText' in r.loop).toBe(false);
    nothingSaturated(r);
  });

  it('[3, q, q, 7] with [1], q = 2^30 + 1: a stride between 2^53 and 2^63 (rounded as a double), a loop extent past 2^63', () => {
    const q = 2n ** 30n + 1n;
    const r = tc.explain({ rule: 'numpy', shapes: [[3, Number(q), Number(q), 7], [1]] });
    expect(r.ok).toBe(true);
    expect(r.size).toBe(null);
    expect(r.sizeText).toBe((21n * q * q).toString());
    expect(7n * q * q > 2n ** 53n && 7n * q * q < INT64_MAX).toBe(true);
    expectStrides(r.operands[0], [7n * q * q, 7n * q, 7n, 1n]);
    expect(r.operands[0].strides[0]).toBe(null);
    expect(r.operands[0].stridesText[0]).toBe('8070450547280314375');
    expectStrides(r.operands[1], [0n, 0n, 0n, 0n]);
    expect('stridesText' in r.operands[1]).toBe(false);
    // One contiguous operand, one scalar: every axis merges into one extent, 21 q² > 2^63.
    expectLoop(r.loop, [21n * q * q], [[1n], [0n]], 'second-scalar');
    expect(r.loop.shapeText).toEqual(['24211351641840943125']);
    expect('stridesText' in r.loop).toBe(false);
    nothingSaturated(r);
  });

  it('[5, G, G, G] with [G, 1, 1], G = 3·2^30: strides and extents past 2^63, merged as the engine merges', () => {
    const G = 3n * 2n ** 30n;
    const g = Number(G);
    const r = tc.explain({ rule: 'numpy', shapes: [[5, g, g, g], [g, 1, 1]] });
    expect(r.ok).toBe(true);
    expect(r.sizeText).toBe((5n * G ** 3n).toString());
    expectStrides(r.operands[0], [G ** 3n, G ** 2n, G, 1n]);
    expect(r.operands[0].strides).toEqual([null, null, g, 1]);
    expectStrides(r.operands[1], [0n, 1n, 0n, 0n]);
    // Axes 2 and 3 merge (both operands continue); axis 1 does not (B's 1 vs 0·G²), nor axis 0.
    expectLoop(r.loop, [5n, G, G * G], [[G ** 3n, G * G, 1n], [0n, 1n, 0n]], 'second-scalar');
    expect(r.loop.shape).toEqual([5, g, null]);
    expect(r.loop.strides).toEqual([[null, null, 1], [0, 1, 0]]);
    nothingSaturated(r);
  });

  it('a 0 dim: size 0, but a stride past 2^63 before it ([0, G, G])', () => {
    const G = 3n * 2n ** 30n;
    const r = tc.explain({ rule: 'numpy', shapes: [[0, Number(G), Number(G)], [1]] });
    expect(r.ok).toBe(true);
    expect(r.size).toBe(0);
    expect(r.sizeText).toBeUndefined();
    expectStrides(r.operands[0], [G * G, G, 1n]);
    expect(r.operands[0].stridesText).toEqual(['10376293541461622784', '3221225472', '1']);
    expect(r.loop).toEqual({ shape: [0], strides: [[1], [1]], inner: 'contiguous' });
    nothingSaturated(r);
  });

  it('pdpd and broadcastTo past 2^63', () => {
    const G = 3n * 2n ** 30n;
    const g = Number(G);
    // B = [G, G, 1] at axis 1 of [G, G, G, 5]: its trailing 1 stretched on axis 3.
    const p = tc.explain({ rule: 'pdpd', shapes: [[g, g, g, 5], [g, g, 1]], axis: 1 });
    expect(p.ok).toBe(true);
    expectStrides(p.operands[0], [5n * G * G, 5n * G, 5n, 1n]);
    expectStrides(p.operands[1], [0n, G, 1n, 0n]);
    expectLoop(p.loop, [G, G * G, 5n], [[5n * G * G, 5n, 1n], [0n, 1n, 0n]], 'second-scalar');
    nothingSaturated(p);
    // The input [G, 1, G] to [7, G, G, G]: safe strides, each axis its own loop extent.
    const t = tc.explain({ rule: 'broadcastTo', shapes: [[g, 1, g], [7, g, g, g]] });
    expect(t.ok).toBe(true);
    expect(t.sizeText).toBe((7n * G ** 3n).toString());
    expectStrides(t.operands[0], [0n, G, 0n, 1n]);
    expectLoop(t.loop, [7n, G, G, G], [[0n, G, 0n, 1n]], 'contiguous');
    nothingSaturated(t);
  });

  it('a failed plan past 2^63: exact strides, no loop', () => {
    const G = 3n * 2n ** 30n;
    const g = Number(G);
    const r = tc.explain({ rule: 'numpy', shapes: [[2, g, g, g], [3, g, g, g]] });
    expect(r.ok).toBe(false);
    expect(r.loop).toBe(null);
    expectStrides(r.operands[0], [G ** 3n, G * G, G, 1n]);
    expectStrides(r.operands[1], [G ** 3n, G * G, G, 1n]);
  });

  it('a view past 2^53 keeps its strides (until 0.9.23 the exact path put row-major strides in their place)', () => {
    const q = 2 ** 27;
    const r = tc.explain({ rule: 'numpy', shapes: [[q, q, 2], [2]], strides: [[1, q, 2 ** 40], null] });
    expect(r.ok).toBe(true);
    expect(r.sizeText).toBe((2n ** 55n).toString());
    expectStrides(r.operands[0], [1n, BigInt(q), 2n ** 40n]);
    expectStrides(r.operands[1], [0n, 0n, 1n]);
    // Nothing merges: A's strides do not continue one another.
    expectLoop(r.loop, [BigInt(q), BigInt(q), 2n], [[1n, BigInt(q), 2n ** 40n], [0n, 0n, 1n]], 'strided');
    nothingSaturated(r);
    // A transposed input of broadcastTo: its strides, stretched on the new axis.
    const t = tc.explain({ rule: 'broadcastTo', shapes: [[q, q], [2, q, q]], strides: [1, q] });
    expectStrides(t.operands[0], [0n, 1n, BigInt(q)]);
    expectLoop(t.loop, [2n, BigInt(q), BigInt(q)], [[0n, 1n, BigInt(q)]], 'strided');
  });

  it('partial shapes: strides stay null, no Text fields', () => {
    const r = tc.explain({ rule: 'numpy', shapes: [[2 ** 40, '?', 2 ** 30], [2 ** 30]] });
    expect(r.static).toBe(false);
    expect(r.operands.map((o) => o.strides)).toEqual([null, null]);
    expect(r.operands.some((o) => 'stridesText' in o)).toBe(false);
    expect(r.loop).toBe(null);
  });
});

// ---- strides refused as the data calls refuse a view's ------------------------------

describe('explain refuses strides as the ops refuse a view\'s', () => {
  /** The error fields of a thrown refusal or of explain's. */
  const fields = (e) => ({ name: e.name, code: e.code ?? null, axis: e.axis ?? null, dims: e.dims ?? null, shapes: e.shapes ?? [] });
  const thrown = (f) => { try { f(); } catch (e) { return e; } throw new Error('no refusal'); };
  const data = new Float32Array(12);

  it('an entry that is no safe integer (1.5, 2^53, \'4\', NaN) is INVALID_SHAPE on its axis; a wrong count INVALID_SHAPE with [given, rank] (until 0.9.23 TypeErrors)', () => {
    for (const [st, msg] of [[[4, 1.5], 'strides[1] is 1.5'], [[2 ** 53, 1], 'strides[0] is 9007199254740992'], [['4', 1], 'strides[0] is "4"'], [[NaN, 1], 'strides[0] is NaN']]) {
      const e = tc.explain({ shapes: [[3, 4], [4]], strides: [st, null] }).error;
      const d = thrown(() => tc.add({ data, shape: [3, 4], strides: st }, { data: new Float32Array(4) }));
      expect(e).toMatchObject(fields(d));
      expect(e).toMatchObject({ name: 'BroadcastError', code: 'INVALID_SHAPE' });
      expect(e.message).toBe(`explain: A.${msg}, not a safe integer`);
      expect(d.message).toBe(`add: a.${msg}, not a safe integer`);
    }
    const e = tc.explain({ shapes: [[3, 4], [4]], strides: [null, [1, 1]] }).error;
    const d = thrown(() => tc.add({ data, shape: [3, 4] }, { data: new Float32Array(4), strides: [1, 1] }));
    expect(e).toMatchObject(fields(d));
    expect(e).toMatchObject({ code: 'INVALID_SHAPE', axis: null, dims: [2, 1], shapes: [[4]] });
    expect(e.message).toBe('explain: B has 2 strides for its 1 axes (4,): give one stride per axis');
    const t = tc.explain({ rule: 'broadcastTo', shapes: [[4], [3, 4]], strides: [0.5] }).error;
    expect(t).toMatchObject(fields(thrown(() => tc.broadcastTo({ data, shape: [4], strides: [0.5] }, [3, 4]))));
    expect(t.message).toBe('explain: input.strides[0] is 0.5, not a safe integer');
  });

  it('broadcastTo names its operand \'input\' in a refusal of its strides, as its plan does (not \'A\')', () => {
    const count = tc.explain({ rule: 'broadcastTo', shapes: [[3, 1], [3, 4]], strides: [1] });
    expect(count.error).toMatchObject({ code: 'INVALID_SHAPE', dims: [1, 2] });
    expect(count.error.message).toBe('explain: input has 1 strides for its 2 axes (3,1): give one stride per axis');
    expect(tc.explain({ rule: 'broadcastTo', shapes: [[3, 1], [3, 4]], strides: 5 }).error.message)
      .toBe('explain: input.strides must be an array of integers (one per axis), got 5');
    expect(tc.explain({ rule: 'broadcastTo', shapes: [[3, 1], [3, 4]], strides: [1, 1] }).operands[0].name).toBe('input');
    expect(tc.explain({ shapes: [[3, 4], [4]], strides: [[1, 1.5], null] }).error.message).toBe('explain: A.strides[1] is 1.5, not a safe integer');
  });

  it('strides that are no array are a TypeError, and a typed array of them is taken, as by the ops', () => {
    const e = tc.explain({ shapes: [[3, 4]], strides: [5] }).error;
    expect(e).toMatchObject({ name: 'TypeError', message: 'explain: A.strides must be an array of integers (one per axis), got 5' });
    expect(tc.explain({ shapes: [[3, 4]], strides: [Int32Array.of(1, 3)] }).operands[0].strides).toEqual([1, 3]);
    expect(tc.add({ data, shape: [3, 4], strides: Int32Array.of(1, 3) }, 0).shape).toEqual([3, 4]);
    expect(tc.explain({ shapes: [['?', 4]], strides: [[4, 1]] }).error.message).toBe('explain: strides[0]: only a static shape has strides');
  });
});

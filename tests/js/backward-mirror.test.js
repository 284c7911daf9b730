// Backward mirrors forward: reductionAxes() and unbroadcast() refuse exactly
// what the forward Broadcast operation, broadcastToShape(), refuses with the
// same options (docs/broadcast-rules.md §4), with the same code; and where the
// forward succeeds, the backward of its result is accepted, sums exactly the
// axes explain() marks 'new' or 'stretched', and gives a gradient of ones back
// as the number of copies of each input element.
//
// In pdpd mode this means the Broadcast op's placement (§4.4: the input placed
// from `axis`, inside the target), never the element-wise pdpd rule (§3),
// which drops B's trailing 1s and so would accept [3, 1] at axis 1 of [2, 3].
//
// Fixed seed, so a run is reproducible.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const SEED = 20250612;
const RUNS = 1000; // per mode
const params = (numRuns) => ({ seed: SEED, numRuns, endOnFailure: false });

const prod = (s) => s.reduce((a, b) => a * b, 1);
const isStatic = (s) => s.every((d) => typeof d === 'number');

/** The call's result, or the BroadcastError it threw (anything else is a test bug). */
function outcome(f) {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof tc.BroadcastError)) throw e;
    return { ok: false, code: e.code, error: e };
  }
}

// ---- generators -----------------------------------------------------------------------

// Dims: mostly 1–4 with many 1s, occasionally 0.
const dim = fc.oneof(
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 5, arbitrary: fc.integer({ min: 2, max: 4 }) },
  { weight: 1, arbitrary: fc.constant(0) },
);
const shape = fc.array(dim, { maxLength: 5 });
/** `arb` one time in `n`, else null. */
const oneIn = (n, arb) => fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
const partialDim = fc.constantFrom('?', '2..5', '1..3');
const flags = fc.array(fc.boolean(), { minLength: 6, maxLength: 6 });
// Each flag set with probability 1/4: a few dims turned into 1s, seldom all of them.
const someFlags = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }).map((xs) => xs.map((x) => x === 0));

/** Some dims of `s` turned into 1s, and sometimes one replaced by any dim (may no longer fit). */
function derive(s, ones, mutate) {
  let r = s.map((d, i) => (ones[i] ? 1 : d));
  if (mutate && r.length) {
    r = r.slice();
    r[mutate[0] % r.length] = mutate[1];
  }
  return r;
}
const mutation = oneIn(5, fc.tuple(fc.nat({ max: 5 }), dim));

/** Sometimes, some dims (never a -1) made partial: shape-only checks then. */
const partialDims = fc.array(oneIn(3, partialDim), { minLength: 8, maxLength: 8 });
const partialize = oneIn(5, fc.tuple(partialDims, partialDims));
function applyPartial(c, p) {
  if (!p) return c;
  const [pi, pt] = p;
  return {
    ...c,
    input: c.input.map((d, i) => pi[i] ?? d),
    target: c.target.map((d, i) => (d === -1 ? d : pt[i] ?? d)),
  };
}
// An unrelated input now and then: mostly refused.
const unrelated = oneIn(8, shape);

// §4.1 / §5: the input is a suffix of the target with some 1s; some target dims -1.
const numpyCase = fc.tuple(shape, fc.nat({ max: 5 }), someFlags, mutation, oneIn(4, flags), unrelated, partialize)
  .map(([target, drop, ones, mut, minus, other, p]) => {
    const input = other ?? derive(target.slice(Math.min(drop, target.length)), ones, mut);
    const t = minus ? target.map((d, i) => (minus[i] ? -1 : d)) : target;
    return applyPartial({ input, target: t, opts: { mode: 'numpy' } }, p);
  });

// §4.2: the input takes the target's dims at increasing axes (some 1s); the
// mapping is sometimes corrupted (any value, too long, too short, unsorted,
// duplicated, not an integer), and a scalar sometimes takes a one-entry mapping.
const explicitCase = fc.tuple(shape, flags, someFlags, mutation, oneIn(3, fc.tuple(fc.nat({ max: 6 }), fc.integer({ min: -2, max: 7 }), fc.nat({ max: 5 }))), unrelated, partialize)
  .map(([target, pick, ones, mut, corrupt, other, p]) => {
    let mapping = target.map((_, i) => i).filter((i) => pick[i]);
    let input = other ?? derive(mapping.map((i) => target[i]), ones, mut);
    if (corrupt) {
      const [kind, v, at] = corrupt;
      mapping = mapping.slice();
      if (kind === 0 && mapping.length) mapping[at % mapping.length] = v; // any value
      else if (kind === 1) mapping.push(v); // too long
      else if (kind === 2) mapping.pop(); // too short
      else if (kind === 3 && mapping.length > 1) mapping.reverse(); // unsorted
      else if (kind === 4 && mapping.length > 1) mapping[1] = mapping[0]; // duplicated
      else if (kind === 5 && mapping.length) mapping[at % mapping.length] = 0.5; // not an integer
      else if (kind === 6) { input = []; mapping = [Math.max(0, Math.min(v, target.length))]; } // the one-entry scalar form
    }
    return applyPartial({ input, target, opts: { mode: 'explicit', axesMapping: mapping } }, p);
  });

// §4.3: input and target both derived from one base (leading axes dropped, 1s
// on either side), so the target may be the lower rank or yield its 1s.
const bidirectionalCase = fc.tuple(shape, fc.nat({ max: 5 }), someFlags, fc.nat({ max: 5 }), someFlags, oneIn(2, fc.tuple(fc.nat({ max: 5 }), dim)), oneIn(3, shape), partialize)
  .map(([base, dropI, onesI, dropT, onesT, mut, other, p]) => {
    const input = other ?? derive(base.slice(Math.min(dropI, base.length)), onesI, mut);
    const target = derive(base.slice(Math.min(dropT, base.length)), onesT, null);
    return applyPartial({ input, target, opts: { mode: 'bidirectional' } }, p);
  });

// §4.4: the input is a window of the target (some 1s on either side), sometimes
// with trailing 1s added (which may no longer fit: the element-wise rule would
// drop them, the Broadcast op does not); the axis is the window's start, the
// default, or anything from -1 to rank + 1.
const pdpdCase = fc.tuple(shape, fc.nat({ max: 5 }), fc.nat({ max: 5 }), someFlags, someFlags, mutation, fc.nat({ max: 2 }),
  fc.oneof(fc.constant('start'), fc.constant('default'), fc.integer({ min: -1, max: 6 })), unrelated, partialize)
  .map(([base, at, len, onesI, onesT, mut, trailing, axisKind, other, p]) => {
    const start = Math.min(at, base.length);
    const window = base.slice(start, start + len);
    const input = other ?? derive(window, onesI, mut).concat(new Array(trailing).fill(1));
    const target = base.map((d, a) => (a >= start && a - start < window.length && onesT[a - start] ? 1 : d));
    let axis;
    if (axisKind === 'start') axis = start;
    else if (axisKind === 'default') axis = undefined;
    else axis = Math.min(axisKind, target.length + 1);
    return applyPartial({ input, target, opts: axis === undefined ? { mode: 'pdpd' } : { mode: 'pdpd', axis } }, p);
  });

// ---- the property -------------------------------------------------------------------

const show = (c) => JSON.stringify(c);

/** The output axes the backward should sum, read from the forward's explain(). */
function explainedAxes(input, out, opts) {
  const ex = tc.explain({ rule: 'broadcastTo', shapes: [input, out], mode: opts.mode, axesMapping: opts.axesMapping, axis: opts.axis });
  expect(ex.ok, `explain ${show({ input, out, opts })}`).toBe(true);
  const v = ex.operands[0].verdicts;
  let want = out.map((_, a) => a).filter((a) => v[a] === 'new' || v[a] === 'stretched');
  // A scalar under a one-entry mapping is [1] on the mapped axis (§4.2): explain
  // calls that axis 'new' (the scalar has no axis), reductionAxes reads it as a
  // 1 and, like every 1 -> 1 axis, does not list it where the output is 1 too.
  if (opts.mode === 'explicit' && input.length === 0 && opts.axesMapping.length === 1 && out[opts.axesMapping[0]] === 1) {
    want = want.filter((a) => a !== opts.axesMapping[0]);
  }
  return want;
}

function mirror(c) {
  const { input, target, opts } = c;
  const ctx = show(c);
  const minusOne = target.includes(-1);
  const statik = isStatic(input) && isStatic(target);
  const F = outcome(() => tc.broadcastToShape(input, target, opts));

  // (1) a refused forward: the backward refuses with the same code.
  if (!F.ok) {
    const R = outcome(() => tc.reductionAxes(input, target, opts));
    expect(R.ok, `reductionAxes accepted what broadcastToShape refused (${F.code}): ${ctx}`).toBe(false);
    // A -1 is a target, never a result: reductionAxes's second shape is the
    // forward's result, and a -1 in it is INVALID_SHAPE before any rule runs.
    if (minusOne) expect([F.code, 'INVALID_SHAPE'], ctx).toContain(R.code);
    else expect(R.code, ctx).toBe(F.code);
    if (statik && !minusOne) {
      const U = outcome(() => tc.unbroadcast({ data: new Float64Array(prod(target)), shape: target }, input, opts));
      expect(U.ok, `unbroadcast accepted what broadcastToShape refused (${F.code}): ${ctx}`).toBe(false);
      expect(U.code, ctx).toBe(F.code);
    }
    return 'refused';
  }

  // (2) an accepted forward: the backward of its result.
  const out = F.value;
  const again = outcome(() => tc.broadcastToShape(input, out, opts));
  const stable = again.ok && JSON.stringify(again.value) === JSON.stringify(out);
  if (statik) expect(stable, `broadcastToShape(input, F) is not F: ${ctx} F ${show(out)} -> ${show(again.value ?? again.code)}`).toBe(true);
  if (!stable) return 'unstable';
  const R = outcome(() => tc.reductionAxes(input, out, opts));
  if (!statik) {
    if (!R.ok) {
      expect(['INCOMPATIBLE_DIMS', 'RANK_MISMATCH'], `${ctx} F ${show(out)}`).toContain(R.code);
      expect(R.error.message, `${ctx} F ${show(out)}`).toMatch(/not known/);
    }
    return 'partial';
  }
  expect(R.ok, `reductionAxes refused the forward's own result ${show(out)} (${R.code}: ${R.error?.message}): ${ctx}`).toBe(true);
  expect(R.value, `${ctx} F ${show(out)}`).toEqual(explainedAxes(input, out, opts));
  const g = tc.unbroadcast({ data: new Float64Array(prod(out)).fill(1), shape: out }, input, opts);
  expect(Array.from(g.shape), `${ctx} F ${show(out)}`).toEqual(input);
  expect(g.data.length).toBe(prod(input));
  if (prod(input) > 0) {
    const copies = prod(out) / prod(input);
    const bad = Array.from(g.data).findIndex((v) => v !== copies);
    expect(bad, `${ctx} F ${show(out)}: cell ${bad} is ${g.data[bad]}, not ${copies}`).toBe(-1);
  }
  return 'accepted';
}

// ---- the tests --------------------------------------------------------------------------

describe('backward mirrors forward (property)', () => {
  const MODES = [['numpy (with -1 in targets)', numpyCase], ['explicit', explicitCase], ['bidirectional', bidirectionalCase], ['pdpd', pdpdCase]];
  for (const [name, gen] of MODES) {
    it(`${name}: ${RUNS} random cases`, () => {
      const seen = { refused: 0, accepted: 0, partial: 0, unstable: 0 };
      fc.assert(fc.property(gen, (c) => { seen[mirror(c)]++; }), params(RUNS));
      // The generators reach both sides of the property.
      expect(seen.refused, show(seen)).toBeGreaterThan(RUNS / 20);
      expect(seen.accepted, show(seen)).toBeGreaterThan(RUNS / 5);
      expect(seen.partial, show(seen)).toBeGreaterThan(0);
    });
  }
});

describe('backward mirrors forward (regressions)', () => {
  // The same refusal: code, axis and dims as the forward's.
  function sameRefusal(input, target, opts) {
    const F = outcome(() => tc.broadcastToShape(input, target, opts));
    expect(F.ok, 'the forward refuses').toBe(false);
    const R = outcome(() => tc.reductionAxes(input, target, opts));
    const U = outcome(() => tc.unbroadcast({ data: new Float64Array(prod(target)), shape: target }, input, opts));
    for (const [name, B] of [['reductionAxes', R], ['unbroadcast', U]]) {
      expect(B.ok, `${name} ${show({ input, target, opts })}`).toBe(false);
      expect(B.code, name).toBe(F.code);
      expect(B.error.axis, name).toEqual(F.error.axis);
      expect(B.error.dims, name).toEqual(F.error.dims);
    }
    return F;
  }

  it('pdpd: [3, 1] at axis 1 of [2, 3] does not fit, so neither direction accepts it', () => {
    const F = sameRefusal([3, 1], [2, 3], { mode: 'pdpd', axis: 1 });
    expect(F.code).toBe('RANK_MISMATCH');
    expect(F.error.message).toMatch(/does not fit into the target/);
    // the element-wise rule, by contrast, drops B's trailing 1 and accepts it
    expect(tc.autoBroadcastShape([2, 3], [3, 1], { type: 'pdpd', axis: 1 })).toEqual([2, 3]);
  });

  it('pdpd: trailing 1s past the end of the target are refused (no element-wise fallback)', () => {
    expect(sameRefusal([4, 1], [2, 3, 4], { mode: 'pdpd', axis: 2 }).code).toBe('RANK_MISMATCH');
    expect(sameRefusal([3, 1, 1], [2, 3], { mode: 'pdpd', axis: 1 }).code).toBe('RANK_MISMATCH'); // PaddlePaddle's own example (§3.3)
    expect(sameRefusal([1], [2, 3], { mode: 'pdpd', axis: 2 }).code).toBe('RANK_MISMATCH');
    expect(sameRefusal([2, 3, 1], [2, 3], { mode: 'pdpd' }).code).toBe('RANK_MISMATCH'); // default axis 2 - 3 < 0
    expect(sameRefusal([3, 2], [2, 3, 4], { mode: 'pdpd', axis: 2 }).code).toBe('RANK_MISMATCH');
    expect(sameRefusal([3], [2, 3, 6], { mode: 'pdpd', axis: 4 }).code).toBe('INVALID_AXIS');
  });

  it('pdpd: windows that fit are accepted as before', () => {
    expect(tc.reductionAxes([3, 1], [2, 3, 6], { mode: 'pdpd', axis: 1 })).toEqual([0, 2]);
    expect(tc.reductionAxes([3, 1], [2, 3, 6], { mode: 'pdpd' })).toEqual([0, 2]);
    // OpenVINO's element-wise PDPD examples all fit the Broadcast op's placement too
    expect(tc.reductionAxes([3, 1], [2, 3, 4, 5], { mode: 'pdpd', axis: 1 })).toEqual([0, 2, 3]);
    expect(tc.reductionAxes([3, 4], [2, 3, 4, 5], { mode: 'pdpd', axis: 1 })).toEqual([0, 3]);
    expect(tc.reductionAxes([1, 3], [2, 3, 4, 5], { mode: 'pdpd', axis: 0 })).toEqual([0, 2, 3]);
    expect(tc.reductionAxes([5], [2, 3, 4, 5], { mode: 'pdpd' })).toEqual([0, 1, 2]);
    const g = tc.unbroadcast({ data: new Float64Array(120).fill(1), shape: [2, 3, 4, 5] }, [3, 1], { mode: 'pdpd', axis: 1 });
    expect(Array.from(g.shape)).toEqual([3, 1]);
    expect(Array.from(g.data)).toEqual([40, 40, 40]);
  });

  it('the other modes: refusals come through with the forward\'s code', () => {
    expect(sameRefusal([2], [4, 3], {}).code).toBe('INCOMPATIBLE_DIMS');
    expect(sameRefusal([2, 3], [3], {}).code).toBe('RANK_MISMATCH');
    expect(sameRefusal([4], [2, 3], { mode: 'explicit', axesMapping: [5] }).code).toBe('INVALID_AXES_MAPPING');
    expect(sameRefusal([2, 2], [2, 2, 2], { mode: 'explicit', axesMapping: [1, 1] }).code).toBe('INVALID_AXES_MAPPING');
    expect(sameRefusal([4], [2, 3], { mode: 'bidirectional' }).code).toBe('INCOMPATIBLE_DIMS');
  });

  it('a -1 is a target, not a result: reductionAxes refuses it as INVALID_SHAPE', () => {
    const F = outcome(() => tc.broadcastToShape([3], [-1, 3]));
    expect(F.code).toBe('MINUS_ONE_IN_NEW_AXIS');
    expect(outcome(() => tc.reductionAxes([3], [-1, 3])).code).toBe('INVALID_SHAPE');
    // an accepted -1: the backward takes the forward's result
    const out = tc.broadcastToShape([3, 1, 5, 1], [-1, -1, 5, 6]);
    expect(out).toEqual([3, 1, 5, 6]);
    expect(tc.reductionAxes([3, 1, 5, 1], out)).toEqual([3]);
  });

  it('explicit: a scalar under a one-entry mapping is [1] there (explain calls the axis new)', () => {
    expect(tc.reductionAxes([], [1, 3], { mode: 'explicit', axesMapping: [0] })).toEqual([1]);
    expect(tc.reductionAxes([], [2, 3], { mode: 'explicit', axesMapping: [0] })).toEqual([0, 1]);
    expect(tc.explain({ rule: 'broadcastTo', shapes: [[], [1, 3]], mode: 'explicit', axesMapping: [0] }).operands[0].verdicts).toEqual(['new', 'new']);
  });
});

// ---- the element-wise rules: reductionAxes(b, out, { type, axis }) is the gradient of B ----
// The forward is autoBroadcastShape(a, b, { type, axis }) with A of the output's
// shape; the backward refuses exactly what it refuses, and sums what it stretched.
const elementwiseCase = fc.record({
  a: fc.array(dim, { maxLength: 5 }),
  type: fc.constantFrom('numpy', 'none', 'pdpd'),
  start: fc.nat({ max: 5 }),
  len: fc.nat({ max: 5 }),
  ones: someFlags,
  trailing: fc.nat({ max: 2 }),
  axis: fc.integer({ min: -1, max: 6 }),
  useAxis: fc.boolean(),
  mutate: mutation,
}).map(({ a, type, start, len, ones, trailing, axis, useAxis, mutate }) => {
  // B: a window of A (some dims 1s), sometimes trailing 1s past it, sometimes one dim changed.
  const s = Math.min(start, a.length);
  const b = derive(a.slice(s, s + len), ones, mutate).concat(new Array(type === 'pdpd' ? trailing : 0).fill(1));
  const opts = { type, ...(type === 'pdpd' && useAxis ? { axis: axis === 6 ? s : axis } : {}) };
  return { a, b, opts };
});

function mirrorElementwise({ a, b, opts }) {
  const ctx = show({ a, b, opts });
  const F = outcome(() => tc.autoBroadcastShape(a, b, opts));
  if (!F.ok) {
    const R = outcome(() => tc.reductionAxes(b, a, opts));
    expect(R.ok, `reductionAxes accepted what autoBroadcastShape refused (${F.code}): ${ctx}`).toBe(false);
    expect(R.code, ctx).toBe(F.code);
    expect(R.error.axis, ctx).toEqual(F.error.axis);
    expect(R.error.dims, ctx).toEqual(F.error.dims);
    const U = outcome(() => tc.unbroadcast({ data: new Float64Array(prod(a)), shape: a }, b, opts));
    expect(U.ok, ctx).toBe(false);
    expect(U.code, ctx).toBe(F.code);
    return 'refused';
  }
  const out = F.value;
  const R = outcome(() => tc.reductionAxes(b, out, opts));
  expect(R.ok, `reductionAxes refused B of the forward's own result ${show(out)} (${R.code}: ${R.error?.message}): ${ctx}`).toBe(true);
  const ex = tc.explain({ rule: opts.type, shapes: [out, b], axis: opts.axis });
  const v = ex.operands[1].verdicts;
  expect(R.value, ctx).toEqual(out.map((_, i) => i).filter((i) => v[i] === 'new' || v[i] === 'stretched'));
  const g = tc.unbroadcast({ data: new Float64Array(prod(out)).fill(1), shape: out }, b, opts);
  expect(Array.from(g.shape), ctx).toEqual(b);
  if (prod(b) > 0) expect(Array.from(g.data).every((x) => x === prod(out) / prod(b)), ctx).toBe(true);
  return 'accepted';
}

describe('backward mirrors forward: the element-wise rules (type)', () => {
  it(`numpy, none, pdpd: ${RUNS} random cases`, () => {
    const seen = { refused: 0, accepted: 0 };
    fc.assert(fc.property(elementwiseCase, (c) => { seen[mirrorElementwise(c)]++; }), params(RUNS));
    expect(seen.refused, show(seen)).toBeGreaterThan(RUNS / 20);
    expect(seen.accepted, show(seen)).toBeGreaterThan(RUNS / 5);
  });
  it('pdpd: B\'s trailing 1s past A\'s end come back under type pdpd, never under mode pdpd', () => {
    expect(tc.reductionAxes([3, 1], [2, 3], { type: 'pdpd', axis: 1 })).toEqual([0]);
    expect(() => tc.reductionAxes([3, 1], [2, 3], { mode: 'pdpd', axis: 1 })).toThrow(expect.objectContaining({ code: 'RANK_MISMATCH' }));
    const g = tc.unbroadcast({ data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] }, [3, 1], { type: 'pdpd', axis: 1 });
    expect(g.shape).toEqual([3, 1]);
    expect(Array.from(g.data)).toEqual([5, 7, 9]);
  });
  it('type and mode together are refused: each names the forward call', () => {
    expect(() => tc.reductionAxes([3], [2, 3], { type: 'pdpd', mode: 'pdpd' })).toThrow(/give one of them/);
    expect(() => tc.unbroadcast({ data: new Float32Array(6), shape: [2, 3] }, [3], { type: 'numpy', axesMapping: [1] })).toThrow(TypeError);
    expect(() => tc.reductionAxes([3], [2, 3], { type: 'pdp' })).toThrow(/type must be 'numpy', 'none' or 'pdpd'/);
  });
});

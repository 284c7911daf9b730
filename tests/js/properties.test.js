// Differential and property tests: random shapes (ranks 0–8, dims biased to
// 0 and 1) through every rule, engine against the independent reference model
// in reference-model.js, plus invariants of the results and of explain().
//
// Fixed seed, so a run is reproducible. A failing case is shrunk by fast-check
// and printed as a fixture line; once understood (engine or model fixed), it
// goes into tests/fixtures/property-regressions.json, which the first test
// replays forever.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';
import { model } from './reference-model.js';

beforeAll(async () => { await tc.init(); });

const SEED = 20250611;
const RUNS = 10000; // per rule property
const INVARIANT_RUNS = 3000;
const REGRESSIONS = JSON.parse(readFileSync(new URL('../fixtures/property-regressions.json', import.meta.url), 'utf8'));

// ---- comparing the engine with the model -------------------------------------------

function engine(fn, args) {
  try {
    return { ok: true, value: tc[fn](...args) };
  } catch (e) {
    if (!(e instanceof tc.BroadcastError)) throw e; // the generators only make well-typed calls
    return { ok: false, code: e.code, axis: e.axis };
  }
}

const fixture = (fn, args) => JSON.stringify({ fn, args });

/** Throws (with a fixture line to keep) when the engine and the model disagree. */
function agree(fn, args) {
  const got = engine(fn, args);
  const want = model[fn](...args);
  const show = (o) => JSON.stringify(o);
  const fail = () => { throw new Error(`engine ${show(got)} vs model ${show(want)}\n  fixture: ${fixture(fn, args)}`); };
  if (want.ok !== got.ok) fail();
  if (want.ok) {
    try { expect(got.value).toEqual(want.value); } catch { fail(); }
    return true;
  }
  if (!want.failures.some((w) => w.code === got.code && w.axis === got.axis)) fail();
  return true;
}

// ---- generators -----------------------------------------------------------------------

// Dims: mostly 1, 0 and small sizes, so random shapes often broadcast.
const dim = fc.oneof(
  { weight: 4, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 2, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 9 }) },
);
const shape = fc.array(dim, { maxLength: 8 });

// A shape derived from a base: leading axes dropped, dims turned into 1s, and
// sometimes one dim replaced by any dim (which may or may not still fit).
const derivation = fc.record({
  drop: fc.nat({ max: 8 }),
  ones: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  mutate: fc.option(fc.tuple(fc.nat({ max: 7 }), dim), { freq: 4 }),
});
function derive(base, d) {
  let s = base.slice(Math.min(d.drop, base.length)).map((x, i) => (d.ones[i] ? 1 : x));
  if (d.mutate && s.length) {
    s = s.slice();
    s[d.mutate[0] % s.length] = d.mutate[1];
  }
  return s;
}
// n shapes: either unrelated, or all derived from one base (mostly compatible).
const shapes = (min, max) => fc.oneof(
  fc.array(shape, { minLength: min, maxLength: max }),
  fc.tuple(shape, fc.array(derivation, { minLength: min, maxLength: max })).map(([b, ds]) => ds.map((d) => derive(b, d))),
);
const pair = shapes(2, 2);
const axisArg = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(-1) }, { weight: 4, arbitrary: fc.integer({ min: -3, max: 10 }) });

// pdpd (§3): B is a window of A with some 1s, sometimes with trailing 1s added.
const pdpdCase = fc.oneof(
  fc.tuple(pair, axisArg).map(([[a, b], axis]) => [a, b, axis]),
  fc.tuple(shape, fc.nat({ max: 8 }), fc.nat({ max: 8 }), derivation, fc.nat({ max: 3 }), fc.boolean())
    .map(([a, at, len, d, trailing, explicitAxis]) => {
      const start = Math.min(at, a.length);
      const window = a.slice(start, start + len);
      const b = derive(window, { ...d, drop: 0 }).concat(new Array(trailing).fill(1));
      return [a, b, explicitAxis ? start : undefined];
    }),
);

// §4.1/§5: the target is a base, some of its dims −1; the input derived from it.
const toNumpyCase = fc.tuple(shape, derivation, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), fc.nat({ max: 4 }))
  .map(([t, d, minus, lead]) => {
    const input = derive(t, d);
    const target = t.map((x, i) => (minus[i] && (i >= lead) ? -1 : x));
    return [input, target];
  });

// §4.2: the input takes the target's dims at increasing axes (some 1s); the
// mapping is sometimes corrupted.
const explicitCase = fc.tuple(shape, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), derivation, fc.option(fc.tuple(fc.nat({ max: 4 }), fc.integer({ min: -2, max: 9 }), fc.nat({ max: 7 })), { freq: 3 }))
  .map(([target, pick, d, corrupt]) => {
    let mapping = target.map((_, i) => i).filter((i) => pick[i]);
    let input = derive(mapping.map((i) => target[i]), { ...d, drop: 0 });
    if (corrupt) {
      const [kind, v, at] = corrupt;
      mapping = mapping.slice();
      if (kind === 0 && mapping.length) mapping[at % mapping.length] = v; // any value
      else if (kind === 1) mapping.push(v); // too long
      else if (kind === 2) mapping.pop(); // too short
      else if (kind === 3 && mapping.length > 1) mapping.reverse(); // unsorted
      else if (kind === 4 && mapping.length > 1) mapping[1] = mapping[0]; // duplicated
    }
    if (input.length === 0 && mapping.length === 1 && corrupt) input = []; // the one-entry scalar form
    return [input, target, { mode: 'explicit', axesMapping: mapping }];
  });

// §4.4: the input is a window of the target; either side may hold the 1s.
const toPdpdCase = fc.oneof(
  fc.tuple(pair, axisArg).map(([[i, t], axis]) => [i, t, axis]),
  fc.tuple(shape, fc.nat({ max: 8 }), fc.nat({ max: 8 }), derivation, derivation, fc.boolean())
    .map(([base, at, len, di, dt, explicitAxis]) => {
      const start = Math.min(at, base.length);
      const input = derive(base.slice(start, start + len), { ...di, drop: 0 });
      const target = derive(base, { ...dt, drop: 0 });
      return [input, target, explicitAxis ? start : undefined];
    }),
).map(([i, t, axis]) => [i, t, { mode: 'pdpd', ...(axis === undefined ? {} : { axis }) }]);

// §2: identical, or one dim or the rank changed.
const noneCase = fc.oneof(
  shape.map((s) => [s, s.slice()]),
  pair,
  fc.tuple(shape, derivation).map(([s, d]) => [s, derive(s, d)]),
);

// §6: dims drawn from a few names, sizes mostly shared, labels sometimes.
const NAMES = ['t', 'x', 'y', 'z', 'k', 'n', 'c', 'h', 'w'];
const LABELS = ['a', 'b', 'c', 1, 2, '1'];
const namedOperand = fc.record({
  dims: fc.shuffledSubarray(NAMES, { minLength: 0, maxLength: 8 }),
  sizeShift: fc.option(fc.nat({ max: 8 }), { freq: 4 }),
  labeled: fc.array(fc.option(fc.shuffledSubarray(LABELS, { maxLength: 4 }), { freq: 2 }), { minLength: NAMES.length, maxLength: NAMES.length }),
  duplicate: fc.option(fc.nat(), { freq: 20 }), // a dim name given twice: INVALID_SHAPE
});
const namedCase = fc.tuple(fc.array(fc.nat({ max: 3 }), { minLength: NAMES.length, maxLength: NAMES.length }), namedOperand, namedOperand, fc.constantFrom(undefined, 'exact', 'intersection', 'union'))
  .map(([sizes, l, r, shaping]) => {
    const op = (o) => {
      if (o.duplicate !== null && o.dims.length) o = { ...o, dims: [...o.dims, o.dims[o.duplicate % o.dims.length]] };
      const shapeOf = o.dims.map((n, i) => (o.sizeShift !== null && i === o.sizeShift ? sizes[NAMES.indexOf(n)] + 1 : sizes[NAMES.indexOf(n)]));
      const coords = {};
      o.dims.forEach((n, i) => { const ls = o.labeled[NAMES.indexOf(n)]; if (ls) coords[n] = ls; });
      // A labeled dim takes its size from its labels.
      const shapeOut = o.dims.map((n, i) => (coords[n] ? coords[n].length : shapeOf[i]));
      return Object.keys(coords).length ? { dims: o.dims, shape: shapeOut, coords } : { dims: o.dims, shape: shapeOut };
    };
    return [op(l), op(r), ...(shaping ? [{ shaping }] : [])];
  });

// Every rule, as (name, fn, generator of argument lists).
const RULES = [
  ['§1 numpy (n-ary, 0–5 operands)', 'broadcastShapes', shapes(0, 5)],
  ['§1 numpy via autoBroadcastShape', 'autoBroadcastShape', pair.map(([a, b]) => [a, b, { type: 'numpy' }])],
  ['§2 none', 'autoBroadcastShape', noneCase.map(([a, b]) => [a, b, { type: 'none' }])],
  ['§3 pdpd', 'autoBroadcastShape', pdpdCase.map(([a, b, axis]) => [a, b, { type: 'pdpd', ...(axis === undefined ? {} : { axis }) }])],
  ['§4.1/§5 broadcastTo numpy (with −1)', 'broadcastToShape', fc.oneof(toNumpyCase, pair)],
  ['§4.2 broadcastTo explicit', 'broadcastToShape', explicitCase],
  ['§4.3 broadcastTo bidirectional', 'broadcastToShape', pair.map(([i, t]) => [i, t, { mode: 'bidirectional' }])],
  ['§4.4 broadcastTo pdpd', 'broadcastToShape', toPdpdCase],
  ['§6 named', 'namedBroadcastShape', namedCase],
];

// ---- explain ---------------------------------------------------------------------------

function explainRequest(fn, args) {
  const o = (fn === 'broadcastShapes' ? {} : args[2]) ?? {};
  if (fn === 'broadcastShapes') return { rule: 'numpy', shapes: args };
  if (fn === 'autoBroadcastShape') return { rule: o.type ?? 'numpy', shapes: [args[0], args[1]], axis: o.axis };
  if (fn === 'broadcastToShape') return { rule: 'broadcastTo', shapes: [args[0], args[1]], mode: o.mode, axis: o.axis, axesMapping: o.axesMapping };
  return { rule: 'named', operands: [args[0], args[1]], shaping: o.shaping };
}

const product = (s) => s.reduce((p, d) => p * d, 1);

function rowMajorStrides(s) {
  const st = new Array(s.length);
  let acc = 1;
  for (let i = s.length - 1; i >= 0; i--) { st[i] = acc; acc *= s[i]; }
  return st;
}

/** The plan of explain() is consistent with the direct call and with itself. */
function checkPlan(fn, args) {
  const direct = engine(fn, args);
  const p = tc.explain(explainRequest(fn, args));
  const where = fixture(fn, args);
  expect(p.ok, where).toBe(direct.ok);
  if (!direct.ok) {
    expect(p.error.code, where).toBe(direct.code);
    expect(p.error.axis, where).toBe(direct.axis);
    expect(p.loop, where).toBe(null);
    return;
  }
  expect(fn === 'namedBroadcastShape' ? p.named : p.shape, where).toEqual(direct.value);
  const out = p.shape;
  expect(p.rank, where).toBe(out.length);
  expect(p.size, where).toBe(product(out));
  for (const op of p.operands) {
    const own = rowMajorStrides(op.shape);
    for (let a = 0; a < out.length; a++) {
      const src = op.srcAxis[a];
      const v = op.verdicts[a];
      // Verdicts: new exactly where no operand axis feeds; stretched exactly where a 1 meets a non-1.
      if (src === null) {
        expect(v, where).toBe('new');
        expect(op.aligned[a], where).toBe(1);
      } else {
        const d = op.shape[src];
        if (fn !== 'namedBroadcastShape') expect(op.aligned[a], where).toBe(d);
        expect(v, where).toBe(d === 1 && out[a] !== 1 && fn !== 'namedBroadcastShape' ? 'stretched' : 'equal');
      }
      // Strides: 0 on new and stretched axes (and wherever the dim is 1); else the operand's own stride.
      const want = src === null || op.aligned[a] === 1 ? 0 : own[src];
      expect(op.strides[a], `${where} operand ${op.name} axis ${a}`).toBe(want);
    }
  }
  // The merged loop covers exactly the output's elements ...
  expect(product(p.loop.shape), where).toBe(product(out));
  // ... and visits every operand's elements in the same order as the plan does.
  if (product(out) > 0 && product(out) <= 256 && !(fn === 'namedBroadcastShape' && p.needsGather)) {
    for (let k = 0; k < p.operands.length; k++) {
      expect(walk(p.loop.shape, p.loop.strides[k]), where).toEqual(walk(out, p.operands[k].strides));
    }
  }
}

/** Element offsets of a row-major walk over `shape` with `strides`. */
function walk(shape, strides) {
  const offsets = [];
  const idx = new Array(shape.length).fill(0);
  const n = product(shape);
  for (let e = 0; e < n; e++) {
    offsets.push(idx.reduce((s, i, a) => s + i * strides[a], 0));
    for (let a = shape.length - 1; a >= 0; a--) {
      if (++idx[a] < shape[a]) break;
      idx[a] = 0;
    }
  }
  return offsets;
}

// ---- the tests --------------------------------------------------------------------------

const params = (numRuns) => ({ seed: SEED, numRuns, endOnFailure: false });

describe('engine agrees with the reference model', () => {
  it(`replays ${REGRESSIONS.length} kept regression cases`, () => {
    expect(REGRESSIONS.length).toBeGreaterThan(0);
    for (const r of REGRESSIONS) {
      agree(r.fn, r.args);
      checkPlan(r.fn, r.args);
    }
  });

  for (const [name, fn, gen] of RULES) {
    it(`${name}: ${RUNS} random cases`, () => {
      fc.assert(fc.property(gen, (args) => agree(fn, args)), params(RUNS));
    });
  }
});

describe('invariants', () => {
  it('broadcastShapes is commutative up to the error code', () => {
    fc.assert(fc.property(shapes(2, 4), fc.nat(), (ss, rot) => {
      const r = rot % ss.length;
      const rotated = [...ss.slice(r), ...ss.slice(0, r)].reverse();
      const x = engine('broadcastShapes', ss);
      const y = engine('broadcastShapes', rotated);
      expect(y.ok, fixture('broadcastShapes', ss)).toBe(x.ok);
      if (x.ok) expect(y.value).toEqual(x.value);
      else expect(y.code).toBe(x.code);
    }), params(INVARIANT_RUNS));
  });

  it('broadcastShapes is idempotent and its result absorbs its operands', () => {
    fc.assert(fc.property(shapes(1, 4), (ss) => {
      expect(tc.broadcastShapes(ss[0], ss[0])).toEqual(ss[0]);
      const r = engine('broadcastShapes', ss);
      if (!r.ok) return;
      expect(tc.broadcastShapes(r.value, ...ss)).toEqual(r.value);
      expect(tc.broadcastShapes(r.value, r.value)).toEqual(r.value);
      // Each operand broadcasts to the result one-directionally, in either direction mode.
      for (const s of ss) {
        expect(tc.broadcastToShape(s, r.value)).toEqual(r.value);
        expect(tc.broadcastToShape(s, r.value, { mode: 'bidirectional' })).toEqual(r.value);
      }
    }), params(INVARIANT_RUNS));
  });

  it('bidirectional is §1 on the pair, and none accepts exactly identical shapes', () => {
    fc.assert(fc.property(pair, ([a, b]) => {
      const bi = engine('broadcastToShape', [a, b, { mode: 'bidirectional' }]);
      const np = engine('broadcastShapes', [a, b]);
      expect(bi).toEqual(np);
      const none = engine('autoBroadcastShape', [a, b, { type: 'none' }]);
      expect(none.ok).toBe(JSON.stringify(a) === JSON.stringify(b));
    }), params(INVARIANT_RUNS));
  });

  for (const [name, fn, gen] of RULES) {
    it(`explain plan for ${name}: same result, strides 0 exactly on stretched/new axes, loop covers the output`, () => {
      fc.assert(fc.property(gen, (args) => { checkPlan(fn, args); }), params(INVARIANT_RUNS / 3 | 0));
    });
  }
});

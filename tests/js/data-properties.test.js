// Property tests of the data ops (fast-check, fixed seed): random broadcastable
// shapes (ranks 0–6, dims biased to 0 and 1), every dtype and op, plain,
// resident, `out` and in-place operands, against a naive index loop
// (tests/js/data-oracle.js) with output shapes from the independent reference
// model (tests/js/reference-model.js), not from the engine.
//
// A failing case is shrunk by fast-check and printed as a fixture line; once
// understood, it goes into tests/fixtures/data-property-regressions.json, which
// the first test replays on every run.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';
import { model } from './reference-model.js';
import {
  DTYPES, OPS, CTORS, rng, randomArray, apply, same, defined, outDtype, product, alignedStrides, offsets,
} from './data-oracle.js';

beforeAll(async () => { await tc.init(); });

const SEED = 20261122;
const RUNS = 3000;
const REGRESSIONS = JSON.parse(readFileSync(new URL('../fixtures/data-property-regressions.json', import.meta.url), 'utf8'));
const VARIANTS = ['plain', 'resident', 'mixed', 'out', 'residentOut', 'inPlace'];

// ---- one case --------------------------------------------------------------------------

/** Run { kind: 'binary' | 'where', dt, op, sa, sb, sc?, seed, variant } and compare; throws with a fixture line. */
function check(c) {
  const fixture = () => JSON.stringify(c);
  const fail = (why) => { throw new Error(`${why}\n  fixture: ${fixture()}`); };
  const r = rng(c.seed);
  const where = c.kind === 'where';
  const dt = c.dt;
  const op = where ? null : c.op;
  const odt = where ? dt : outDtype(dt, op);
  const shapes = where ? [c.sc, c.sa, c.sb] : [c.sa, c.sb];
  const m = model.broadcastShapes(...shapes);
  if (!m.ok) fail('the generator made shapes that do not broadcast');
  const out = m.value;
  const data = shapes.map((s, k) => (where && k === 0
    ? Uint8Array.from({ length: product(s) }, () => (r() < 0.5 ? 0 : 1 + Math.floor(r() * 255)))
    : randomArray(r, dt, product(s), op, k === shapes.length - 1 ? 'b' : 'a')));
  const offs = shapes.map((s) => offsets(out, alignedStrides(out, s)));
  const want = new CTORS[odt](product(out));
  for (let e = 0; e < want.length; e++) {
    want[e] = where ? (data[0][offs[0][e]] !== 0 ? data[1][offs[1][e]] : data[2][offs[2][e]])
      : apply(dt, op, data[0][offs[0][e]], data[1][offs[1][e]]);
  }
  // Operands as the variant asks.
  const temps = [];
  const resident = (k) => { const t = tc.tensor(data[k], shapes[k]); temps.push(t); return t; };
  const operands = shapes.map((s, k) => {
    if (c.variant === 'resident' || c.variant === 'residentOut' || (c.variant === 'mixed' && k === 0)) return resident(k);
    return { data: data[k], shape: s };
  });
  const run = (options) => (where ? tc.where(...operands, options) : tc[op](...operands, options));
  let got;
  let outArg = null;
  try {
    if (c.variant === 'out') {
      outArg = new CTORS[odt](want.length);
      got = run({ out: outArg });
      if (got.data !== outArg) fail('out was not the result');
    } else if (c.variant === 'residentOut') {
      outArg = tc.tensor(new CTORS[odt](want.length), out);
      temps.push(outArg);
      got = run({ out: outArg });
      if (got !== outArg) fail('the resident out was not the result');
    } else if (c.variant === 'inPlace') {
      // Into the last operand's own array when it is not broadcast (same size and rank).
      const k = shapes.length - 1;
      const inPlace = !where && odt === dt && product(shapes[k]) === want.length && shapes[k].length === out.length;
      got = inPlace ? run({ out: data[k] }) : run();
    } else {
      got = run();
    }
    const values = got instanceof tc.Tensor ? got.toArray() : got.data;
    const shape = got instanceof tc.Tensor ? got.shape : got.shape;
    if (JSON.stringify(shape) !== JSON.stringify(out)) fail(`shape ${JSON.stringify(shape)}, want ${JSON.stringify(out)}`);
    if (values.length !== want.length) fail(`length ${values.length}, want ${want.length}`);
    if (got instanceof tc.Tensor ? got.dtype !== odt : got.dtype !== odt) fail(`dtype ${got.dtype}, want ${odt}`);
    for (let e = 0; e < want.length; e++) {
      if (!same(dt, op, values[e], want[e])) fail(`element ${e}: got ${values[e]}, want ${want[e]}`);
    }
    if (got instanceof tc.Tensor && got !== outArg) got.dispose();
  } finally {
    for (const t of temps) if (!t.disposed) t.dispose();
  }
  return true;
}

// ---- generators -------------------------------------------------------------------------

const dim = fc.oneof(
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 2, max: 5 }) },
  { weight: 1, arbitrary: fc.integer({ min: 6, max: 19 }) },
);
// Small enough for a naive loop: the output has at most 2,000 elements.
const outShape = fc.array(dim, { maxLength: 6 }).filter((s) => product(s) <= 2000);
// An operand of `out`: leading axes dropped, some dims set to 1 (numpy).
const operandOf = (out) => fc.tuple(fc.integer({ min: 0, max: out.length }), fc.array(fc.boolean(), { minLength: out.length, maxLength: out.length }))
  .map(([drop, ones]) => out.slice(drop).map((d, i) => (ones[drop + i] ? 1 : d)));
const dtype = fc.constantFrom(...DTYPES);
const variant = fc.constantFrom(...VARIANTS);

const binaryCase = fc.tuple(dtype, fc.constantFrom(...OPS))
  .filter(([dt, op]) => defined(dt, op))
  .chain(([dt, op]) => outShape.chain((out) => fc.record({
    kind: fc.constant('binary'), dt: fc.constant(dt), op: fc.constant(op),
    sa: operandOf(out), sb: operandOf(out), seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), variant,
  })));

const whereCase = dtype.chain((dt) => outShape.chain((out) => fc.record({
  kind: fc.constant('where'), dt: fc.constant(dt), sc: operandOf(out), sa: operandOf(out), sb: operandOf(out),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), variant,
})));

// ---- the tests ----------------------------------------------------------------------------

describe('data op properties (fast-check, naive index loop)', () => {
  it(`replays ${REGRESSIONS.length} kept regression cases`, () => {
    expect(REGRESSIONS.length).toBeGreaterThan(0);
    for (const c of REGRESSIONS) check(c);
  });

  it(`element-wise ops: ${RUNS} random cases over every dtype, op and operand kind`, () => {
    const before = tc.memory();
    const seen = new Set();
    fc.assert(fc.property(binaryCase, (c) => { seen.add(`${c.dt} ${c.variant}`); return check(c); }), { seed: SEED, numRuns: RUNS });
    expect(seen.size).toBeGreaterThan(DTYPES.length * VARIANTS.length * 0.9);
    const after = tc.memory();
    expect(after.liveTensors).toBe(before.liveTensors);
    expect(after.allocatedBytes).toBe(before.allocatedBytes);
  });

  it(`where: ${RUNS / 3} random three-way cases`, () => {
    fc.assert(fc.property(whereCase, check), { seed: SEED + 1, numRuns: RUNS / 3 });
  });
});

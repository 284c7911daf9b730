// Views against NumPy, bit for bit: the fixtures of scripts/gen-view-fixtures.py
// (tests/fixtures/views-numpy.json, NumPy's own answers): transpose, slice
// (every spec form, the string form, negative steps, empty results), flip,
// squeeze, expandDims, concat, stack over every dtype; chains of them (views
// of views), and reshapes of those chains (a view wherever NumPy gives one); element-wise ops, reductions, unary ops, casts and evaluate over
// those views; and random strided plain operands (permutations, steps,
// offsets, negative strides). Every case runs on plain operands and on
// resident tensors, and ends with nothing left allocated.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';

/** Row-major element strides of `shape`. */
const rowMajor = (shape) => shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));

const fixtures = JSON.parse(readFileSync(new URL('../fixtures/views-numpy.json', import.meta.url), 'utf8'));
const cases = fixtures.cases;

beforeAll(async () => { await tc.init(); });

const CTORS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, bigint64: BigInt64Array, biguint64: BigUint64Array,
};

/** A fixture array as { data, shape, dtype? } (float16 as its bits). */
function arr(a) {
  if (a.dtype === 'float16') return { data: Uint16Array.from(a.bits), shape: a.shape, dtype: 'float16' };
  const C = CTORS[a.dtype];
  const data = C === BigInt64Array || C === BigUint64Array ? C.from(a.data, (s) => BigInt(s)) : C.from(a.data);
  return { data, shape: a.shape };
}

/** The bytes of a typed array (bit-for-bit comparison: -0, NaN payloads, float16 bits). */
const bytes = (t) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength);

/** Everything a result is: a Tensor, a plain result or a plain view, as { data (row-major), shape }. */
function read(r) {
  if (r instanceof tc.Tensor) return { data: r.toArray(), shape: r.shape };
  if (r.strides !== undefined) return { data: tc.contiguous(r).data, shape: r.shape };
  return { data: r.data, shape: r.shape };
}

function same(r, expectSpec, id) {
  const got = read(r);
  const want = arr(expectSpec);
  expect(got.shape, `${id}: shape`).toEqual(want.shape);
  expect(Array.from(bytes(got.data)), `${id}: bits`).toEqual(Array.from(bytes(want.data)));
}

class Scope {
  constructor(resident) { this.resident = resident; this.tensors = []; }
  keep(t) { if (t instanceof tc.Tensor) this.tensors.push(t); return t; }
  input(a) {
    const p = arr(a);
    if (!this.resident) return p;
    return this.keep(tc.tensor(p.data, p.shape, p.dtype ? { dtype: p.dtype } : undefined));
  }
  dispose() { for (const t of this.tensors) t.dispose(); }
}

function step(x, s) {
  switch (s.fn) {
    case 'transpose': return tc.transpose(x, s.axes ?? undefined);
    case 'slice': return s.text !== undefined ? tc.slice(x, s.text) : tc.slice(x, ...s.specs);
    case 'flip': return tc.flip(x, s.axes ?? undefined);
    case 'squeeze': return tc.squeeze(x, s.axes ?? undefined);
    case 'expandDims': return tc.expandDims(x, s.axis);
    default: throw new Error(`no step ${s.fn}`);
  }
}

/** A view operand of section 2 ({ x, steps }), or a strided plain operand of section 3 ({ data, shape, strides, offset }). */
function operand(sc, o) {
  if (o.x === undefined) {
    const p = arr({ dtype: o.dtype, shape: [o.data.length], data: o.data, bits: o.data });
    return { data: p.data, shape: o.shape, strides: o.strides, offset: o.offset, ...(p.dtype ? { dtype: p.dtype } : {}) };
  }
  let v = sc.input(o.x);
  for (const s of o.steps) v = sc.keep(step(v, s));
  return v;
}

function run(sc, c) {
  switch (c.fn) {
    case 'transpose': case 'slice': case 'flip': case 'squeeze': case 'expandDims':
      return sc.keep(step(sc.input(c.x), c));
    case 'chain': {
      let v = sc.input(c.x);
      for (const s of c.steps) v = sc.keep(step(v, s));
      return v;
    }
    case 'reshape': {
      const x = sc.input(c.x);
      let v = x;
      for (const s of c.steps) v = sc.keep(step(v, s));
      const before = tc.memory().allocatedBytes;
      const r = sc.keep(tc.reshape(v, c.shape));
      // As NumPy: a view wherever strides read the new shape (no element memory; the same buffer), with NumPy's strides.
      const view = sc.resident ? tc.memory().allocatedBytes === before : r.data.buffer === x.data.buffer;
      expect(view, `${c.id}: a view`).toBe(c.view);
      const strides = r.strides ?? rowMajor(r.shape);
      if (c.strides) c.strides.forEach((st, i) => { if (st !== null) expect(strides[i], `${c.id}: stride ${i}`).toBe(st); });
      return r;
    }
    case 'concat': return sc.keep(tc.concat(c.xs.map((a) => sc.input(a)), c.axis));
    case 'stack': return sc.keep(tc.stack(c.xs.map((a) => sc.input(a)), c.axis));
    case 'binary': return sc.keep(tc[c.op](operand(sc, c.a), operand(sc, c.b)));
    case 'reduce': {
      const x = operand(sc, c.x);
      const dt = c.x.x?.dtype ?? c.x.dtype;
      const opts = { keepdims: c.keepdims };
      if (c.axes !== null && c.axes !== undefined) opts.axes = c.axes;
      if (!dt.startsWith('float')) opts.dtype = dt; // the fixtures keep an integer sum in its own dtype (wrapping)
      return sc.keep(tc[c.op](x, opts));
    }
    case 'unary': return sc.keep(tc[c.op](operand(sc, c.x)));
    case 'cast': return sc.keep(tc.cast(operand(sc, c.x), c.to));
    case 'evaluate': {
      const ops = Object.fromEntries(Object.entries(c.operands).map(([k, o]) => [k, operand(sc, o)]));
      return sc.keep(tc.evaluate(c.expression, ops));
    }
    default: throw new Error(`no fn ${c.fn}`);
  }
}

const groups = new Map();
for (const c of cases) {
  const g = `${c.id.split('/')[0]} ${c.fn}`;
  if (!groups.has(g)) groups.set(g, []);
  groups.get(g).push(c);
}

describe('views: NumPy fixtures, bit for bit', () => {
  it('the fixture file is NumPy\'s, with every kind of case', () => {
    expect(fixtures.generator).toBe('scripts/gen-view-fixtures.py');
    expect(cases.length).toBeGreaterThan(900);
    for (const fn of ['transpose', 'slice', 'flip', 'squeeze', 'expandDims', 'concat', 'stack', 'chain', 'reshape', 'binary', 'reduce', 'unary', 'cast', 'evaluate']) {
      expect(cases.some((c) => c.fn === fn), fn).toBe(true);
    }
  });

  for (const [g, list] of groups) {
    // Section 3's operands are plain by definition ({ data, shape, strides, offset }).
    for (const resident of g.startsWith('strided') ? [false] : [false, true]) {
      it(`${g}: ${list.length} cases, ${resident ? 'resident tensors' : 'plain operands'}`, () => {
        const before = tc.memory().allocatedBytes;
        let checked = 0;
        for (const c of list) {
          const sc = new Scope(resident);
          try {
            if (c.error !== undefined) {
              let err = null;
              try { run(sc, c); } catch (e) { err = e; }
              expect(err, `${c.id}: refused`).toBeInstanceOf(tc.BroadcastError);
              expect(err.code, `${c.id}: ${err.message}`).toBe(c.error);
            } else {
              same(run(sc, c), c.expect, c.id);
            }
            checked++;
          } finally {
            sc.dispose();
          }
        }
        expect(checked).toBeGreaterThan(0);
        expect(tc.memory().allocatedBytes, 'nothing left allocated').toBe(before);
      });
    }
  }
});

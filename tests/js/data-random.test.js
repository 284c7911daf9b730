// Seeded random broadcasts through the wasm build, against a naive JS index
// loop (tests/js/data-oracle.js): ranks 0–6, zero-size dims, scalars, every
// dtype and op, the numpy / none / pdpd rules, plain and resident operands,
// `out`, broadcastTo with -1, and where. A failure prints its seed and case.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import {
  DTYPES, OPS, CTORS, rng, randomArray, randomValue, apply, same, defined, outDtype, product, alignedStrides, offsets,
} from './data-oracle.js';

beforeAll(async () => { await tc.init(); });

const SEED = 0x7c0ffee;
const DIMS = [0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 7];

function randomOut(r, maxElems = 600) {
  for (;;) {
    const rank = r.int(0, 6);
    const s = Array.from({ length: rank }, () => r.pick(DIMS));
    if (product(s) <= maxElems) return s;
  }
}

// A shape that broadcasts to `out` (numpy): leading axes dropped, dims set to 1.
function operandOf(r, out) {
  const s = r() < 0.4 ? out.slice(r.int(0, out.length)) : out.slice();
  return s.map((d) => (r() < 0.35 ? 1 : d));
}

function describeCase(c) {
  return JSON.stringify(c, (k, v) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? Array.from(v, String) : v));
}

function expectData(got, wantShape, want, dt, op, c) {
  expect(got.shape, describeCase(c)).toEqual(wantShape);
  const data = got.data;
  expect(data.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (!same(dt, op, data[i], want[i])) {
      throw new Error(`element ${i}: got ${data[i]}, want ${want[i]}\n${describeCase(c)}`);
    }
  }
}

// Resident results come back as tensors: copy them out (and free them).
function settle(res) {
  if (res instanceof tc.Tensor) {
    const out = { data: res.toArray(), shape: res.shape, dtype: res.dtype };
    res.dispose();
    return out;
  }
  return res;
}

describe('random broadcasts vs a naive JS loop', () => {
  it('element-wise ops: 4000 cases over every dtype, op and rule', () => {
    const r = rng(SEED);
    const before = tc.memory();
    const seen = new Set();
    let ran = 0;
    for (let trial = 0; trial < 4000; trial++) {
      const dt = DTYPES[trial % DTYPES.length];
      const op = OPS[Math.floor(trial / DTYPES.length) % OPS.length];
      if (!defined(dt, op)) continue;
      const rule = r() < 0.75 ? 'numpy' : r() < 0.5 ? 'none' : 'pdpd';
      const out = randomOut(r);
      let sa;
      let sb;
      let stB;
      let options;
      if (rule === 'numpy') {
        sa = operandOf(r, out);
        sb = operandOf(r, out);
      } else if (rule === 'none') {
        sa = out;
        sb = out;
        options = { broadcast: { type: 'none' } };
      } else {
        sa = out;
        const axis = r.int(0, out.length);
        const span = out.slice(axis, axis + r.int(0, out.length - axis)).map((d) => (r() < 0.3 ? 1 : d));
        sb = span.concat(r() < 0.3 ? [1] : []);
        const trimmed = sb.slice();
        while (trimmed.length && trimmed[trimmed.length - 1] === 1) trimmed.pop();
        stB = alignedStrides(out, trimmed, axis);
        options = { broadcast: { type: 'pdpd', axis } };
      }
      const variant = r.pick(['plain', 'plain', 'resident', 'scalarB', 'scalarA', 'out', 'mixed']);
      let a = randomArray(r, dt, product(sa), op, 'a');
      let b = randomArray(r, dt, product(sb), op, 'b');
      let A = { data: a, shape: sa };
      let B = { data: b, shape: sb };
      if (variant === 'scalarB' && rule === 'numpy') { sb = []; B = randomValue(r, dt, op, 'b'); b = CTORS[dt].of(B); }
      if (variant === 'scalarA' && rule === 'numpy') { sa = []; A = randomValue(r, dt, op, 'a'); a = CTORS[dt].of(A); }
      const wantShape = rule === 'numpy' ? tc.broadcastShapes(sa, sb) : out;
      const offA = offsets(wantShape, alignedStrides(wantShape, sa));
      const offB = offsets(wantShape, stB ?? alignedStrides(wantShape, sb));
      const want = new CTORS[outDtype(dt, op)](product(wantShape));
      for (let e = 0; e < want.length; e++) want[e] = apply(dt, op, a[offA[e]], b[offB[e]]);
      const c = { trial, dt, op, rule, variant, sa, sb, options, a, b };
      const temps = [];
      if (variant === 'resident' || variant === 'mixed') {
        A = tc.tensor(a, sa);
        temps.push(A);
        if (variant === 'resident') { B = tc.tensor(b, sb); temps.push(B); }
      }
      let res;
      if (variant === 'out') {
        const o = new CTORS[outDtype(dt, op)](want.length);
        res = tc[op](A, B, { ...options, out: o });
        expect(res.data).toBe(o);
      } else {
        res = settle(tc[op](A, B, options));
      }
      expect(res.dtype).toBe(outDtype(dt, op));
      expectData(res, wantShape, want, dt, op, c);
      for (const t of temps) t.dispose();
      seen.add(`${dt} ${op} ${rule} ${wantShape.length}`);
      ran++;
    }
    expect(ran).toBeGreaterThan(3500);
    expect(seen.size).toBeGreaterThan(800);
    const after = tc.memory();
    expect(after.liveTensors).toBe(before.liveTensors);
    expect(after.allocatedBytes).toBe(before.allocatedBytes);
  });

  it('broadcastTo: 600 cases, numpy with -1, explicit, bidirectional, pdpd', () => {
    const r = rng(SEED + 1);
    for (let trial = 0; trial < 600; trial++) {
      const dt = DTYPES[trial % DTYPES.length];
      const target = randomOut(r);
      const mode = r.pick(['numpy', 'numpy', 'explicit', 'bidirectional', 'pdpd']);
      let shape;
      let t = target;
      let strides;
      let options = { mode };
      let wantShape = target;
      if (mode === 'numpy' || mode === 'bidirectional') {
        shape = operandOf(r, target);
        const off = target.length - shape.length;
        t = target.map((d, i) => (mode === 'numpy' && i >= off && r() < 0.25 ? -1 : mode === 'bidirectional' && r() < 0.3 ? 1 : d));
        wantShape = t.map((d, i) => (d === -1 ? shape[i - off] : i >= off && d === 1 && mode === 'bidirectional' ? Math.max(d, shape[i - off]) : d));
        if (mode === 'bidirectional') wantShape = tc.broadcastShapes(shape, t);
        strides = alignedStrides(wantShape, shape);
      } else if (mode === 'explicit') {
        const mapping = [];
        for (let i = 0; i < target.length; i++) if (r() < 0.5) mapping.push(i);
        shape = mapping.map((m) => (r() < 0.35 ? 1 : target[m]));
        const reshaped = target.map(() => 1);
        mapping.forEach((m, i) => { reshaped[m] = shape[i]; });
        strides = alignedStrides(target, reshaped);
        options = { mode, axesMapping: mapping };
      } else {
        const axis = r.int(0, target.length);
        shape = target.slice(axis, axis + r.int(0, target.length - axis)).map((d) => (r() < 0.35 ? 1 : d));
        strides = alignedStrides(target, shape, axis);
        options = { mode, axis };
      }
      const x = randomArray(r, dt, product(shape));
      const off = offsets(wantShape, strides);
      const want = new CTORS[dt](product(wantShape));
      for (let e = 0; e < want.length; e++) want[e] = x[off[e]];
      const c = { trial, dt, shape, target: t, options };
      const resident = r() < 0.3;
      const X = resident ? tc.tensor(x, shape) : { data: x, shape };
      const res = settle(tc.broadcastTo(X, t, options));
      if (resident) X.dispose();
      expect(res.dtype).toBe(dt);
      expectData(res, wantShape, want, dt, null, c);
    }
  });

  it('where: 600 cases with three-way broadcasting and scalar branches', () => {
    const r = rng(SEED + 2);
    for (let trial = 0; trial < 600; trial++) {
      const dt = DTYPES[trial % DTYPES.length];
      const cdt = r.pick(DTYPES);
      const out = randomOut(r);
      const sc = operandOf(r, out);
      let sa = operandOf(r, out);
      let sb = operandOf(r, out);
      const cond = randomArray(r, cdt, product(sc));
      let a = randomArray(r, dt, product(sa));
      let b = randomArray(r, dt, product(sb));
      let A = { data: a, shape: sa };
      let B = { data: b, shape: sb };
      const v = r();
      if (v < 0.15) { sb = []; B = randomValue(r, dt); b = CTORS[dt].of(B); }
      if (v > 0.85) { sa = []; A = randomValue(r, dt); a = CTORS[dt].of(A); }
      const wantShape = tc.broadcastShapes(sc, sa, sb);
      const oc = offsets(wantShape, alignedStrides(wantShape, sc));
      const oa = offsets(wantShape, alignedStrides(wantShape, sa));
      const ob = offsets(wantShape, alignedStrides(wantShape, sb));
      const want = new CTORS[dt](product(wantShape));
      for (let e = 0; e < want.length; e++) want[e] = cond[oc[e]] != 0 ? a[oa[e]] : b[ob[e]]; // eslint-disable-line eqeqeq
      const res = tc.where({ data: cond, shape: sc }, A, B);
      expect(res.dtype).toBe(dt);
      expectData(res, wantShape, want, dt, null, { trial, dt, cdt, sc, sa, sb, cond, a, b });
    }
  });
});

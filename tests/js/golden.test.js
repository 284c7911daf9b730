// Every vector of tests/fixtures/golden.json (transcribed from NumPy, ONNX,
// OpenVINO, MindSpore, torch, TensorFlow and tensorics test suites), run
// through the public JS API. The same file drives the native gtest suite.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';

const golden = JSON.parse(readFileSync(new URL('../fixtures/golden.json', import.meta.url), 'utf8'));

beforeAll(async () => { await tc.init(); });

// Golden notation -> our shape notation: "[...]" and the values-unknown target.
function shapeOf(s) {
  if (s === '[...]') return '[...]';
  if (s && typeof s === 'object' && !Array.isArray(s) && s.values_unknown) {
    return s.length === '?' ? '[...]' : Array.from({ length: s.length }, () => '?');
  }
  return s.map((d) => (typeof d === 'string' && d.startsWith('$') ? '?' : d));
}

function expected(e) {
  if (Array.isArray(e.shape) && e.shape.join('') === '[...]') return '[...]';
  return e.shape;
}

// Returns a thunk computing the case through the API, or null when the case
// has no meaning in this API (documented per family).
function runner(c) {
  const i = c.inputs;
  switch (c.family) {
    case 'numpy': return () => tc.broadcastShapes(...i.shapes.map(shapeOf));
    case 'none': return () => tc.autoBroadcastShape(shapeOf(i.shapes[0]), shapeOf(i.shapes[1]), { type: 'none' });
    case 'pdpd': return () => tc.autoBroadcastShape(shapeOf(i.A), shapeOf(i.B), { type: 'pdpd', axis: i.axis });
    case 'numpy_to':
    case 'broadcast_to_minus1':
      return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target));
    case 'onnx_unidirectional': return () => tc.broadcastToShape(shapeOf(i.B), shapeOf(i.A));
    case 'bidirectional': return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target), { mode: 'bidirectional' });
    case 'pdpd_broadcast_op': return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target), { mode: 'pdpd', axis: i.axis });
    case 'explicit':
      if (!Array.isArray(i.axes_mapping)) return null; // a mapping not known yet: engine-only (C++ suite)
      return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target), { mode: 'explicit', axesMapping: i.axes_mapping });
    default: return null;
  }
}

function nameOf(c) {
  const i = c.inputs;
  const parts = i.shapes ? i.shapes : i.A ? [i.A, i.B] : [i.input, i.target];
  const s = parts.map((p) => JSON.stringify(p)).join(' ');
  return `${c.family}: ${s}${i.axis !== undefined ? ` axis ${i.axis}` : ''}${i.axes_mapping ? ` map ${JSON.stringify(i.axes_mapping)}` : ''} -> ${c.expect.error ? 'error' : JSON.stringify(c.expect.shape)}`;
}

const all = [...golden.cases, ...golden.dynamic_cases];
// Not expressible here: ONNX symbolic dims in an expected shape (symbols are
// read as '?', so a result cannot carry "$a") and ONNX "no shape inferred".
const runnable = all.filter((c) => c.family !== 'named_missing' && runner(c) && c.expect.shape !== null
  && !JSON.stringify(c.expect).includes('"$'));

describe('golden vectors through the JS API', () => {
  it('covers the transcribed vectors', () => {
    // A suite that silently runs nothing is a failure.
    expect(all.length).toBeGreaterThanOrEqual(250);
    expect(runnable.length).toBeGreaterThanOrEqual(235);
  });

  for (const c of runnable) {
    it(nameOf(c), () => {
      const run = runner(c);
      if (c.expect.error) {
        let err;
        try { run(); } catch (e) { err = e; }
        expect(err, 'expected a BroadcastError').toBeInstanceOf(tc.BroadcastError);
        expect(err.name).toBe('BroadcastError');
        expect(typeof err.message).toBe('string');
      } else {
        expect(run()).toEqual(expected(c.expect));
      }
    });
  }
});

// tensorics' named-dimension vectors: expectations are dims and positions
// (coordinate tuples of the output, in row-major order).
describe('golden named-dimension vectors (tensorics)', () => {
  const named = golden.cases.filter((c) => c.family === 'named_missing');
  it('has the vectors', () => expect(named.length).toBeGreaterThanOrEqual(4));
  const toOperand = (t) => {
    const dims = Object.keys(t.dims);
    return { dims, coords: t.dims };
  };
  const positions = (res) => {
    let acc = [[]];
    for (const d of res.dims) acc = acc.flatMap((p) => res.coords[d].map((l) => [...p, l]));
    return acc;
  };
  for (const c of named) {
    it(`${c.note}`, () => {
      const res = tc.namedBroadcastShape(toOperand(c.inputs.left), toOperand(c.inputs.right));
      const e = c.expect;
      if (e.dims) expect(res.dims).toEqual(e.dims);
      if (e.left_dims) expect(res.dims).toEqual(e.left_dims);
      if (e.right_dims) expect(res.dims).toEqual(e.right_dims); // both sides broadcast to the same dims
      const size = res.shape.reduce((a, b) => a * b, 1);
      for (const k of ['size', 'left_size', 'right_size']) if (e[k] !== undefined) expect(size).toBe(e[k]);
      for (const k of ['positions', 'left_positions', 'right_positions', 'shape_positions']) {
        if (e[k] !== undefined) expect(res.dims.length ? positions(res) : [[]]).toEqual(e[k]);
      }
    });
  }
});

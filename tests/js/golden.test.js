// Every vector of tests/fixtures/golden.json (transcribed from NumPy, ONNX,
// OpenVINO, MindSpore, torch, TensorFlow and tensorics test suites), run
// through the public JS API. The same file drives the native gtest suite.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { golden, all, runnable, runner as goldenRunner, nameOf, expected } from './shape-cases.js';

beforeAll(async () => { await tc.init(); });

const runner = (c) => goldenRunner(tc, c);

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

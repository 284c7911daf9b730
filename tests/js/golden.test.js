// Every vector of tests/fixtures/golden.json (transcribed from NumPy, ONNX,
// OpenVINO, MindSpore, torch, TensorFlow and tensorics test suites), run
// through the public JS API. The same file drives the native gtest suite.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { golden, all, runnable, runner as goldenRunner, nameOf, expected } from './shape-cases.js';

beforeAll(async () => { await tc.init(); });

const runner = (c) => goldenRunner(tc, c);

// The refusal each error vector gets, by the contract (docs/broadcast-rules.md §8): its code and the axis
// it names (null where no one axis is to blame). Keyed by the vector's note and inputs; every error vector
// has a row, and every row a vector.
const REFUSALS = [
  ["broadcast_fail_axes_map", "{\"input\":[3,1],\"target\":[2,3,1],\"axes_mapping\":[1,3]}", 'INVALID_AXES_MAPPING', null],
  ["broadcast_fail_axes_map_shape", "{\"input\":[3,2],\"target\":[2,3,3],\"axes_mapping\":[1,2]}", 'INCOMPATIBLE_DIMS', 2],
  ["broadcast_v3_incorrect_target_shape", "{\"input\":[4,3,2],\"target\":[8,6,4]}", 'INCOMPATIBLE_DIMS', 2],
  ["broadcast_v3_incorrect_target_shape_2", "{\"input\":[1,1,2],\"target\":[2,3]}", 'INCOMPATIBLE_DIMS', 2],
  ["broadcast_v3_bidirectional_data_bigger_rank_numpy (v3 default mode = numpy)", "{\"input\":[5,2,3,1],\"target\":[4,3,6]}", 'RANK_MISMATCH', null],
  ["Numpy examples", "{\"shapes\":[[3],[2]]}", 'INCOMPATIBLE_DIMS', 0],
  ["ArithmeticOperator typed suite: axis_less_than_negative_1_pdpd_incompatible", "{\"A\":[2,3,4,5],\"B\":[3,1],\"axis\":-2}", 'INVALID_AXIS', null],
  ["test_binary_eltwise_bad_argument_shape: NONE requires identical shapes, even [2,4] vs [1,2,4]", "{\"shapes\":[[2,4],[1,2,4]]}", 'SHAPE_MISMATCH', null],
  ["test_incompatible_shapes_raise_valueerror (reversed)", "{\"shapes\":[[4],[3],[3]],\"op\":\"np.broadcast_arrays\"}", 'INCOMPATIBLE_DIMS', 0],
  ["test_broadcast_to_raises", "{\"input\":[0],\"target\":[],\"op\":\"np.broadcast_to\"}", 'RANK_MISMATCH', null],
  ["test_broadcast_to_raises", "{\"input\":[3],\"target\":[],\"op\":\"np.broadcast_to\"}", 'RANK_MISMATCH', null],
  ["test_broadcast_to_raises", "{\"input\":[3],\"target\":[4],\"op\":\"np.broadcast_to\"}", 'INCOMPATIBLE_DIMS', 0],
  ["test_broadcast_to_raises", "{\"input\":[1,1],\"target\":[1],\"op\":\"np.broadcast_to\"}", 'RANK_MISMATCH', null],
  ["test_broadcast_shapes_raises", "{\"shapes\":[[3],[4]],\"op\":\"np.broadcast_shapes\"}", 'INCOMPATIBLE_DIMS', 0],
  ["test_broadcast_shapes_raises", "{\"shapes\":[[2,3],[2]],\"op\":\"np.broadcast_shapes\"}", 'INCOMPATIBLE_DIMS', 1],
  ["test_broadcast_shapes_raises", "{\"shapes\":[[1,2],[3,1],[3,2],[10,5]],\"op\":\"np.broadcast_shapes\"}", 'INCOMPATIBLE_DIMS', 1],
  ["basics.broadcasting: shapes that do not broadcast", "{\"shapes\":[[2,1],[8,4,3]]}", 'INCOMPATIBLE_DIMS', 1],
  ["test_broadcast_dyn_invalid_init", "{\"input\":[4,5],\"target\":[2,-1,4,5],\"system\":\"mindspore\"}", 'MINUS_ONE_IN_NEW_AXIS', 1],
  ["test_broadcast_dyn_invalid_init", "{\"input\":[4,5],\"target\":[-1,1,-1,-1],\"system\":\"mindspore\"}", 'MINUS_ONE_IN_NEW_AXIS', 0],
  ["testBroadcastToInvalidShape", "{\"input\":[3],\"target\":[110,53,104,147,157,123,5,24,188,40,5,2],\"op\":\"tf.broadcast_to\"}", 'INCOMPATIBLE_DIMS', 11],
  ["broadcast_explicit_input_rank_static: unsorted axes not detected while target unknown", "{\"input\":[\"?\",\"?\",\"?\"],\"target\":{\"values_unknown\":true,\"length\":\"?\"},\"axes_mapping\":[0,2,1]}", 'INVALID_AXES_MAPPING', null],
  ["broadcast_explicit_static_input_shape", "{\"input\":[1,2,3,4],\"target\":{\"values_unknown\":true,\"length\":\"?\"},\"axes_mapping\":[0,2,1,3]}", 'INVALID_AXES_MAPPING', null],
  ["broadcast_numpy_static_dims_incorrect", "{\"input\":[\"?\",\"?\",\"?\",888],\"target\":[1,2,3,4]}", 'INCOMPATIBLE_DIMS', 3],
  ["broadcast_numpy_static_dims_incorrect", "{\"input\":[5,\"?\",\"?\",\"?\"],\"target\":[1,2,3,4]}", 'INCOMPATIBLE_DIMS', 0],
  ["default_constructor with NONE", "{\"shapes\":[[\"?\",4,1,6,\"1..6\",\"2..6\"],[\"?\",1,5,6,\"5..8\",\"5..8\"]]}", 'SHAPE_MISMATCH', 2],
  ["left_rank_static_dynamic_inconsistent", "{\"shapes\":[[1,2,\"?\"],[1,3,3]]}", 'INCOMPATIBLE_DIMS', 1],
  ["right_rank_static_dynamic_inconsistent", "{\"shapes\":[[1,3,3],[1,2,\"?\"]]}", 'INCOMPATIBLE_DIMS', 1],
  ["both_rank_static_dynamic_inconsistent", "{\"shapes\":[[\"?\",3,3],[1,2,\"?\"]]}", 'INCOMPATIBLE_DIMS', 1],
  ["partial_shape_broadcast_merge_into_fails", "{\"shapes\":[[2,\"?\",3,4],[4,4]]}", 'INCOMPATIBLE_DIMS', 2],
  ["partial_shape_broadcast_merge_into_fails", "{\"shapes\":[[2,\"?\",3,4],[2,5,3,3,4]]}", 'INCOMPATIBLE_DIMS', 1],
];
const refusalOf = new Map(REFUSALS.map(([note, inputs, code, axis]) => [`${note} ${inputs}`, { code, axis }]));

describe('golden vectors through the JS API', () => {
  it('covers the transcribed vectors', () => {
    // A suite that silently runs nothing is a failure.
    expect(all.length).toBeGreaterThanOrEqual(250);
    expect(runnable.length).toBeGreaterThanOrEqual(235);
    expect(runnable.filter((c) => c.expect.error).length).toBe(REFUSALS.length);
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
        const want = refusalOf.get(`${c.note} ${JSON.stringify(c.inputs)}`);
        expect(want, 'the vector has a row in REFUSALS').toBeDefined();
        expect({ code: err.code, axis: err.axis }).toEqual(want);
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

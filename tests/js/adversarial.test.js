// Bad input, everywhere (spec §8: "No input, however malformed, may abort the
// WebAssembly instance, leak memory, or leave it unusable").
//
// A table of malformed calls across every public function and rule. Each entry
// states its outcome: a TypeError (wrong argument type), a BroadcastError with
// the exact documented code (and the axis where one is meaningful), or — for a
// few inputs that look hostile but are legal per the spec, such as shapes whose
// element count overflows — the value. After every entry the engine must still
// answer normal calls correctly, and explain() must report the same failure as
// { ok: false } without throwing.
//
// The data API adds its entries to CORPUS (with `fn` naming the export) and its
// checks to SANITY; nothing else here needs to change.
import { describe, it, expect, beforeAll, vi } from 'vitest';
import * as tc from '../../dist/node.js';
import { mod } from '../../dist/loader.js';

beforeAll(async () => { await tc.init(); });

const TYPE = 'TypeError';
const err = (code, axis) => ({ code, ...(axis !== undefined ? { axis } : {}) });
const ok = (value) => ({ value });

// ---- the corpus ------------------------------------------------------------------
// { name, fn, args, expect }: tc[fn](...args) must give `expect`.

const CORPUS = [];
const add = (name, fn, args, expect) => CORPUS.push({ name, fn, args, expect });

const sym = Symbol('dim');
// Dims that are not dims: INVALID_SHAPE at their index (spec notation). `-1`
// is legal only in a broadcastTo target of mode numpy (§5), so it is listed
// separately.
const BAD_DIMS = [
  ['-2', -2], ['-0.5', -0.5], ['1.5', 1.5], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
  ['2^53', 2 ** 53], ['2^53+2', 2 ** 53 + 2], ['1e300', 1e300], ['-1e300', -1e300], ['Number.MIN_VALUE', Number.MIN_VALUE],
  ["'3'", '3'], ["'abc'", 'abc'], ["''", ''], ["'-1'", '-1'], ["'5..2'", '5..2'], ["'1.5..2'", '1.5..2'],
  ["'..9007199254740992'", '..9007199254740992'], ['3n', 3n], ['0n', 0n], ['null', null], ['undefined', undefined],
  ['true', true], ['{}', {}], ['[2]', [2]], ['Symbol', sym], ['new Number(3)', Object(3)],
];

// Every place a shape goes, as (label, shape -> [fn, args]). A bad dim is
// always placed at index 1 ([2, bad]), so the error's axis is 1.
const SHAPE_SLOTS = [
  ['broadcastShapes A', (s) => ['broadcastShapes', [s]]],
  ['broadcastShapes C of 3', (s) => ['broadcastShapes', [[2, 1], [1], s]]],
  ['autoBroadcastShape numpy B', (s) => ['autoBroadcastShape', [[2, 2], s]]],
  ['autoBroadcastShape none A', (s) => ['autoBroadcastShape', [s, [2, 2], { type: 'none' }]]],
  ['autoBroadcastShape pdpd B', (s) => ['autoBroadcastShape', [[2, 2], s, { type: 'pdpd' }]]],
  ['broadcastToShape numpy input', (s) => ['broadcastToShape', [s, [2, 2]]]],
  ['broadcastToShape numpy target', (s) => ['broadcastToShape', [[1], s]]],
  ['broadcastToShape explicit target', (s) => ['broadcastToShape', [[2], s, { mode: 'explicit', axesMapping: [0] }]]],
  ['broadcastToShape bidirectional input', (s) => ['broadcastToShape', [s, [1], { mode: 'bidirectional' }]]],
  ['broadcastToShape pdpd target', (s) => ['broadcastToShape', [[2], s, { mode: 'pdpd', axis: 0 }]]],
  ['namedBroadcastShape left.shape', (s) => ['namedBroadcastShape', [{ dims: ['x', 'y'], shape: s }, { dims: [] }]]],
];

// 1. bad dims × every shape slot
for (const [slot, make] of SHAPE_SLOTS) {
  for (const [label, d] of BAD_DIMS) {
    const [fn, args] = make([2, d]);
    add(`${slot}: dim ${label}`, fn, args, err('INVALID_SHAPE', 1));
  }
}

// 2. -1: legal in a numpy-mode target only (§5)
for (const [slot, make] of SHAPE_SLOTS) {
  const [fn, args] = make([2, -1]);
  if (slot === 'broadcastToShape numpy target') add(`${slot}: -1 keeps the input dim`, fn, args, ok([2, 1]));
  else add(`${slot}: dim -1`, fn, args, err('INVALID_SHAPE', 1));
}

// 3. values where a shape belongs: TypeError
const NON_SHAPES = [
  ['null', null], ['undefined', undefined], ['3', 3], ["'abc'", 'abc'], ["'2,3'", '2,3'], ["'[]'", '[]'], ['{}', {}],
  ['array-like {length: 2}', { length: 2, 0: 1, 1: 2 }], ['DataView', new DataView(new ArrayBuffer(8))], ['true', true],
  ['3n', 3n], ['Symbol', sym], ['a function', () => [2]], ['a Set', new Set([1, 2])], ['a Map', new Map()],
  ['ArrayBuffer', new ArrayBuffer(8)],
];
for (const [slot, make] of SHAPE_SLOTS.filter((_, i) => i % 2 === 0)) {
  for (const [label, v] of NON_SHAPES) {
    if (slot.startsWith('named') && v === undefined) continue; // no shape there means no sizes: INVALID_SHAPE, in 10.
    const [fn, args] = make(v);
    add(`${slot}: shape is ${label}`, fn, args, TYPE);
  }
}

// 4. rank: more than 32 dims is INVALID_SHAPE (axis null); 32 is fine
const ones = (n) => new Array(n).fill(1);
for (const [slot, make] of SHAPE_SLOTS) {
  const [fn, args] = make(ones(33));
  add(`${slot}: 33 dims`, fn, args, err('INVALID_SHAPE', null));
}
add('broadcastShapes: 1000 dims', 'broadcastShapes', [ones(1000)], err('INVALID_SHAPE', null));
add('broadcastShapes: sparse array of length 2^32-1', 'broadcastShapes', [new Array(2 ** 32 - 1)], err('INVALID_SHAPE', null));
add('broadcastShapes: 33-dim Uint8Array', 'broadcastShapes', [new Uint8Array(33)], err('INVALID_SHAPE', null));
add('broadcastShapes: array hole', 'broadcastShapes', [[2, , 3]], err('INVALID_SHAPE', 1)); // eslint-disable-line no-sparse-arrays
add('broadcastShapes: Float64Array with 2.5', 'broadcastShapes', [Float64Array.of(2, 2.5)], err('INVALID_SHAPE', 1));
add('broadcastShapes: Float64Array with NaN', 'broadcastShapes', [Float64Array.of(NaN)], err('INVALID_SHAPE', 0));
add('broadcastShapes: Int32Array with -3', 'broadcastShapes', [Int32Array.of(4, -3)], err('INVALID_SHAPE', 1));
add('broadcastShapes: BigInt64Array', 'broadcastShapes', [BigInt64Array.of(2n)], err('INVALID_SHAPE', 0));
add('broadcastShapes: 32 dims is fine', 'broadcastShapes', [ones(32), [5]], ok([...ones(31), 5]));
add('broadcastToShape: 32-dim target', 'broadcastToShape', [[], ones(32)], ok(ones(32)));

// 5. element counts that overflow: a shape is only a description (spec notation)
const MAX = 2 ** 53 - 1;
add('broadcastShapes: [2^53-1, 2^53-1] (count overflows int64)', 'broadcastShapes', [[MAX, MAX], [1]], ok([MAX, MAX]));
add('broadcastShapes: 32 dims of 2^53-1', 'broadcastShapes', [new Array(32).fill(MAX)], ok(new Array(32).fill(MAX)));
add('broadcastShapes: [1e12, 1e12, 1e12] with [1e12]', 'broadcastShapes', [[1e12, 1e12, 1e12], [1e12]], ok([1e12, 1e12, 1e12]));
add('broadcastShapes: 2^32 × 2^32', 'broadcastShapes', [[2 ** 32, 1], [2 ** 32]], ok([2 ** 32, 2 ** 32]));
add('autoBroadcastShape none: huge identical', 'autoBroadcastShape', [[MAX, MAX], [MAX, MAX], { type: 'none' }], ok([MAX, MAX]));
add('autoBroadcastShape pdpd: huge A', 'autoBroadcastShape', [[MAX, MAX, MAX], [MAX, 1], { type: 'pdpd', axis: 1 }], ok([MAX, MAX, MAX]));
add('broadcastToShape numpy: to 2^53-1 ×4', 'broadcastToShape', [[1], [MAX, MAX, MAX, MAX]], ok([MAX, MAX, MAX, MAX]));
add('broadcastToShape explicit: huge target', 'broadcastToShape', [[MAX], [MAX, MAX], { mode: 'explicit', axesMapping: [1] }], ok([MAX, MAX]));
add('broadcastToShape bidirectional: huge', 'broadcastToShape', [[MAX, 1], [MAX], { mode: 'bidirectional' }], ok([MAX, MAX]));
add('broadcastToShape pdpd: huge', 'broadcastToShape', [[1], [MAX, MAX], { mode: 'pdpd' }], ok([MAX, MAX]));
add('namedBroadcastShape: huge sizes', 'namedBroadcastShape', [{ dims: ['x'], shape: [MAX] }, { dims: ['y'], shape: [MAX] }], ok({ dims: ['x', 'y'], shape: [MAX, MAX] }));
add('broadcastShapes: 2^53-1 vs 2^53-2 clash', 'broadcastShapes', [[MAX], [MAX - 1]], err('INCOMPATIBLE_DIMS', 0));

// 6. options that are not objects, unknown rule / mode / shaping names
const NON_OPTIONS = [['null', null], ['5', 5], ["'pdpd'", 'pdpd'], ['true', true], ['3n', 3n], ['Symbol', sym]];
for (const [label, o] of NON_OPTIONS) {
  add(`autoBroadcastShape: options ${label}`, 'autoBroadcastShape', [[2], [2], o], TYPE);
  add(`broadcastToShape: options ${label}`, 'broadcastToShape', [[2], [2], o], TYPE);
  add(`namedBroadcastShape: options ${label}`, 'namedBroadcastShape', [{ dims: [] }, { dims: [] }, o], TYPE);
}
for (const t of ['numpyy', 'NUMPY', 'Numpy', 'none ', '', 'explicit', 'bidirectional', 'broadcastTo', 5, {}, ['numpy'], true]) {
  add(`autoBroadcastShape: type ${JSON.stringify(t)}`, 'autoBroadcastShape', [[2], [2], { type: t }], TYPE);
}
for (const m of ['expand', 'NUMPY', 'Explicit', 'none', 'pdpd ', '', 'numpy\0', 7, {}, ['numpy'], false]) {
  add(`broadcastToShape: mode ${JSON.stringify(m)}`, 'broadcastToShape', [[2], [2], { mode: m }], TYPE);
}
for (const s of ['outer', 'inner', 'Exact', 'left', '', 0, {}, ['exact']]) {
  add(`namedBroadcastShape: shaping ${JSON.stringify(s)}`, 'namedBroadcastShape', [{ dims: ['x'], shape: [2] }, { dims: ['x'], shape: [2] }, { shaping: s }], TYPE);
}

// 7. pdpd axis: out of range -> INVALID_AXIS; non-integer number -> INVALID_AXIS; not a number -> TypeError (null: the default)
const AXES = [
  [-2, 'INVALID_AXIS'], [-3, 'INVALID_AXIS'], [-100, 'INVALID_AXIS'], [5, 'INVALID_AXIS'], [33, 'INVALID_AXIS'],
  [2 ** 31, 'INVALID_AXIS'], [2 ** 53, 'INVALID_AXIS'], [1e300, 'INVALID_AXIS'], [-1e300, 'INVALID_AXIS'],
  [0.5, 'INVALID_AXIS'], [-0.5, 'INVALID_AXIS'], [NaN, 'INVALID_AXIS'], [Infinity, 'INVALID_AXIS'], [-Infinity, 'INVALID_AXIS'],
  ['1', TYPE], [1n, TYPE], [{}, TYPE], [[1], TYPE], [true, TYPE], [sym, TYPE],
];
for (const [axis, want] of AXES) {
  const label = typeof axis === 'symbol' ? 'Symbol' : typeof axis === 'bigint' ? `${axis}n` : JSON.stringify(axis) ?? String(axis);
  const expect = want === TYPE ? TYPE : err(want, null);
  add(`autoBroadcastShape pdpd: axis ${label}`, 'autoBroadcastShape', [[2, 3, 4, 5], [3, 1], { type: 'pdpd', axis }], expect);
  add(`broadcastToShape pdpd: axis ${label}`, 'broadcastToShape', [[3, 1], [2, 3, 6], { mode: 'pdpd', axis }], expect);
}
add('autoBroadcastShape pdpd: axis null is the default, -1', 'autoBroadcastShape', [[2, 3, 4, 5], [4, 1], { type: 'pdpd', axis: null }], ok([2, 3, 4, 5]));
add('broadcastToShape pdpd: axis null is the default, -1', 'broadcastToShape', [[3, 1], [2, 3, 6], { mode: 'pdpd', axis: null }], ok([2, 3, 6]));
add('autoBroadcastShape pdpd: axis -0 is axis 0', 'autoBroadcastShape', [[3, 4], [3], { type: 'pdpd', axis: -0 }], ok([3, 4]));
add('autoBroadcastShape pdpd: axis = rank(A) with an all-1 B', 'autoBroadcastShape', [[3, 4], [1, 1], { type: 'pdpd', axis: 2 }], ok([3, 4]));
add('autoBroadcastShape pdpd: axis = rank(A) with a real B', 'autoBroadcastShape', [[3, 4], [4], { type: 'pdpd', axis: 2 }], err('RANK_MISMATCH', null));
add('autoBroadcastShape pdpd: B out-ranks A (default axis negative)', 'autoBroadcastShape', [[3], [2, 3], { type: 'pdpd' }], err('RANK_MISMATCH', null));
add('autoBroadcastShape pdpd: B does not fit at axis', 'autoBroadcastShape', [[2, 3, 4], [3, 4], { type: 'pdpd', axis: 2 }], err('RANK_MISMATCH', null));
add('autoBroadcastShape pdpd: B enlarges A (0 vs 1)', 'autoBroadcastShape', [[2, 1], [0], { type: 'pdpd', axis: 1 }], err('INCOMPATIBLE_DIMS', 1));
add('broadcastToShape pdpd: input out-ranks target', 'broadcastToShape', [[2, 3, 4], [3, 4], { mode: 'pdpd' }], err('RANK_MISMATCH', null));
add('broadcastToShape pdpd: input does not fit at axis', 'broadcastToShape', [[3, 4], [2, 3, 4], { mode: 'pdpd', axis: 2 }], err('RANK_MISMATCH', null));
add('broadcastToShape pdpd: axis = rank(target)', 'broadcastToShape', [[3], [2, 3], { mode: 'pdpd', axis: 2 }], err('RANK_MISMATCH', null));
add('broadcastToShape pdpd: clash', 'broadcastToShape', [[4], [2, 3], { mode: 'pdpd', axis: 1 }], err('INCOMPATIBLE_DIMS', 1));

// 8. axesMapping (§4.2)
const X = (input, target, axesMapping) => ['broadcastToShape', [input, target, { mode: 'explicit', axesMapping }]];
const MAPPINGS = [
  ['unsorted', [3, 4], [4, 3, 5], [1, 0]], ['unsorted (3)', [2, 3, 4], [2, 3, 4, 5], [0, 2, 1]],
  ['duplicated', [3, 4], [3, 4, 5], [1, 1]], ['duplicated first', [3, 1, 4], [3, 4, 5], [0, 0, 2]],
  ['out of range', [3, 4], [3, 4], [0, 2]], ['out of range (huge)', [3], [3], [2 ** 31]], ['out of range (2^53)', [3], [3], [2 ** 53]],
  ['out of range (1e300)', [3], [3], [1e300]], ['negative', [3, 4], [3, 4], [0, -1]], ['negative first', [3], [3, 4], [-1]],
  ['-2^31', [3], [3], [-(2 ** 31)]], ['-1e300', [3], [3], [-1e300]],
  ['too short', [3, 4], [3, 4], [0]], ['too long', [3, 4], [3, 4, 5], [0, 1, 2]], ['empty for rank 1', [3], [3], []],
  ['scalar with two entries', [], [2, 3], [0, 1]], ['scalar mapped out of range', [], [2], [1]], ['scalar mapped to -1', [], [2], [-1]],
  ['scalar mapped into a scalar', [], [], [0]], ['into a scalar target', [1], [], [0]],
  ['fractional', [3, 4], [3, 4], [0, 1.5]], ['NaN', [3], [3], [NaN]], ['Infinity', [3], [3], [Infinity]], ['-Infinity', [3], [3], [-Infinity]],
  ["'0'", [3], [3], ['0']], ['null entry', [3], [3], [null]], ['undefined entry', [3], [3], [undefined]], ['hole', [3, 4], [3, 4], [0, , 1]], // eslint-disable-line no-sparse-arrays
  ['BigInt entry', [3], [3], [0n]], ['BigInt64Array', [3], [3], BigInt64Array.of(0n)], ['nested array', [3], [3], [[0]]], ['object entry', [3], [3], [{}]],
  ['Float64Array 0.5', [3], [3], Float64Array.of(0.5)], ['34 entries', [3], [3], new Array(34).fill(0)], ['33 increasing', ones(32), ones(32), Array.from({ length: 33 }, (_, i) => i)],
  ['10^6 entries', [3], [3], new Array(1e6).fill(0)],
];
for (const [label, input, target, m] of MAPPINGS) {
  const [fn, args] = X(input, target, m);
  add(`broadcastToShape explicit: axesMapping ${label}`, fn, args, err('INVALID_AXES_MAPPING', null));
}
for (const [label, m] of [['undefined', undefined], ['null', null], ["'01'", '01'], ['5', 5], ['{}', {}], ['{length:1}', { length: 1, 0: 0 }], ['DataView', new DataView(new ArrayBuffer(8))], ['true', true]]) {
  const [fn, args] = X([3], [3], m);
  add(`broadcastToShape explicit: axesMapping is ${label}`, fn, args, TYPE);
}
add('broadcastToShape explicit: clash at the mapped axis', ...X([3, 4], [3, 5, 5], [0, 2]), err('INCOMPATIBLE_DIMS', 2));
add('broadcastToShape explicit: 0 -> 1 clash', ...X([0], [2, 1], [1]), err('INCOMPATIBLE_DIMS', 1));
add('broadcastToShape explicit: Int32Array mapping', ...X([3, 1], [2, 3, 3], Int32Array.of(1, 2)), ok([2, 3, 3]));
add('broadcastToShape explicit: scalar with one entry (OpenVINO)', ...X([], [1, 2], [1]), ok([1, 2]));

// 9. -1 (§5): only in a numpy-mode target, never on a new axis
const T = (input, target, options) => ['broadcastToShape', options ? [input, target, options] : [input, target]];
add('broadcastToShape: -1 into a scalar-input new axis', ...T([], [-1]), err('MINUS_ONE_IN_NEW_AXIS', 0));
add('broadcastToShape: -1 on a new leading axis', ...T([3], [-1, 3]), err('MINUS_ONE_IN_NEW_AXIS', 0));
add('broadcastToShape: the spec example', ...T([1, 5, 9], [3, -1, 4, 1, 5, 9]), err('MINUS_ONE_IN_NEW_AXIS', 1));
add('broadcastToShape: two -1 on new axes', ...T([2], [-1, -1, 2]), err('MINUS_ONE_IN_NEW_AXIS', 1));
add('broadcastToShape: -1 everywhere, one axis too many', ...T([2, 3], [-1, -1, -1]), err('MINUS_ONE_IN_NEW_AXIS', 0));
add('broadcastToShape: -1 kept, another axis clashes', ...T([3, 4], [-1, 5]), err('INCOMPATIBLE_DIMS', 1));
add('broadcastToShape: -2 in the target', ...T([3], [-2]), err('INVALID_SHAPE', 0));
add('broadcastToShape: -1 in the input', ...T([-1], [3]), err('INVALID_SHAPE', 0));
add('broadcastToShape: -1.5 in the target', ...T([3], [-1.5]), err('INVALID_SHAPE', 0));
add("broadcastToShape: '-1' string in the target", ...T([3], ['-1']), err('INVALID_SHAPE', 0));
add('broadcastToShape: -1n in the target', ...T([3], [-1n]), err('INVALID_SHAPE', 0));
add('broadcastToShape explicit: -1 in the target', ...T([3], [-1], { mode: 'explicit', axesMapping: [0] }), err('INVALID_SHAPE', 0));
add('broadcastToShape bidirectional: -1 in the target', ...T([3], [-1, 3], { mode: 'bidirectional' }), err('INVALID_SHAPE', 0));
add('broadcastToShape pdpd: -1 in the target', ...T([3], [-1], { mode: 'pdpd' }), err('INVALID_SHAPE', 0));
add('broadcastToShape: target rank below input rank', ...T([2, 3], [3]), err('RANK_MISMATCH', null));
add('broadcastToShape: 0 -> 1', ...T([0], [1]), err('INCOMPATIBLE_DIMS', 0));
add('broadcastToShape: 3 -> 1', ...T([3], [1]), err('INCOMPATIBLE_DIMS', 0));
add('broadcastToShape: -1 keeps a 0', ...T([0, 1], [4, -1, 3]), ok([4, 0, 3]));
add('broadcastShapes: -1 is not a numpy dim', 'broadcastShapes', [[-1], [3]], err('INVALID_SHAPE', 0));

// 10. named dims (§6)
const N = (a, b, options) => ['namedBroadcastShape', options ? [a, b, options] : [a, b]];
add('named: duplicate dim name left', ...N({ dims: ['x', 'x'], shape: [2, 2] }, { dims: [] }), err('INVALID_SHAPE'));
add('named: duplicate dim name right', ...N({ dims: [] }, { dims: ['y', 'x', 'y'], shape: [1, 2, 1] }), err('INVALID_SHAPE'));
add('named: duplicate dim name with coords', ...N({ dims: ['t', 't'], coords: { t: [1, 2] } }, { dims: [] }), err('INVALID_SHAPE'));
add('named: dim without a size', ...N({ dims: ['x'] }, { dims: [] }), err('INVALID_SHAPE'));
add('named: one of two dims without a size', ...N({ dims: ['x', 'y'], coords: { x: [1] } }, { dims: [] }), err('INVALID_SHAPE'));
add('named: dim named like an Object method, no size', ...N({ dims: ['toString'], coords: {} }, { dims: [] }), err('INVALID_SHAPE'));
add('named: shape longer than dims', ...N({ dims: ['x'], shape: [2, 2] }, { dims: [] }), err('INVALID_SHAPE'));
add('named: shape shorter than dims', ...N({ dims: ['x', 'y'], shape: [2] }, { dims: [] }), err('INVALID_SHAPE'));
add('named: shape without dims', ...N({ shape: [2] }, { dims: [] }), err('INVALID_SHAPE'));
add('named: coords size differs from shape', ...N({ dims: ['x'], shape: [2], coords: { x: ['a'] } }, { dims: [] }), err('INVALID_SHAPE', 0));
add('named: coords for an unknown dim', ...N({ dims: ['x'], shape: [2], coords: { y: [1] } }, { dims: [] }), err('INVALID_SHAPE'));
add('named: duplicate labels', ...N({ dims: ['x'], coords: { x: ['a', 'a'] } }, { dims: [] }), err('INVALID_SHAPE'));
add('named: duplicate numeric labels', ...N({ dims: [] }, { dims: ['x'], coords: { x: [1, 2, 1] } }), err('INVALID_SHAPE'));
add('named: unknown-rank shape', ...N({ dims: [], shape: '[...]' }, { dims: [] }), err('INVALID_SHAPE'));
add("named: dynamic dim '?'", ...N({ dims: ['x'], shape: ['?'] }, { dims: [] }), err('INVALID_SHAPE'));
add('named: 33 dims', ...N({ dims: Array.from({ length: 33 }, (_, i) => `d${i}`), shape: ones(33) }, { dims: [] }), err('INVALID_SHAPE', null));
add('named: 33 dims from coords', ...N({ dims: Array.from({ length: 33 }, (_, i) => `d${i}`), coords: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`d${i}`, [0]])) }, { dims: [] }), err('INVALID_SHAPE', null));
add('named: 20 + 20 dims give 40 > 32', ...N({ dims: Array.from({ length: 20 }, (_, i) => `a${i}`), shape: ones(20) }, { dims: Array.from({ length: 20 }, (_, i) => `b${i}`), shape: ones(20) }), err('INVALID_SHAPE', null));
add('named: shared size-1 dim is not stretched', ...N({ dims: ['x'], shape: [1] }, { dims: ['x'], shape: [3] }), err('INCOMPATIBLE_DIMS', 0));
add('named: shared dim 0 vs 1', ...N({ dims: ['a', 'x'], shape: [2, 0] }, { dims: ['x'], shape: [1] }), err('INCOMPATIBLE_DIMS', 1));
add('named: labeled vs unlabeled sizes differ', ...N({ dims: ['x'], coords: { x: [1, 2] } }, { dims: ['x'], shape: [3] }), err('INCOMPATIBLE_DIMS', 0));
add('named: exact with other labels', ...N({ dims: ['x'], coords: { x: [1, 2] } }, { dims: ['x'], coords: { x: [2, 1] } }, { shaping: 'exact' }), err('INCOMPATIBLE_DIMS', 0));
add('named: exact with a subset', ...N({ dims: ['x'], coords: { x: [1, 2] } }, { dims: ['x'], coords: { x: [1] } }, { shaping: 'exact' }), err('INCOMPATIBLE_DIMS', 0));
add('named: numeric dim name with coords', ...N({ dims: [1], coords: { 1: ['a', 'b'] } }, { dims: [] }), ok({ dims: [1], shape: [2], coords: { 1: ['a', 'b'] } }));
for (const [label, v] of [['null', null], ['undefined', undefined], ['an array', [['x'], [2]]], ['a number', 2], ["a string 'x'", 'x'], ['3n', 3n]]) {
  add(`named: left operand is ${label}`, ...N(v, { dims: [] }), TYPE);
  add(`named: right operand is ${label}`, ...N({ dims: [] }, v), TYPE);
}
for (const [label, dims] of [["'xy'", 'xy'], ['{0: "x"}', { 0: 'x', length: 1 }], ['5', 5], ['[null]', [null]], ['[{}]', [{}]], ['[true]', [true]], ['[["x"]]', [['x']]], ['[1n]', [1n]], ['[Symbol]', [sym]]]) {
  add(`named: dims is ${label}`, ...N({ dims, shape: [2] }, { dims: [] }), TYPE);
}
for (const [label, coords] of [["'x'", 'x'], ['an array', [[1, 2]]], ['5', 5]]) {
  add(`named: coords is ${label}`, ...N({ dims: ['x'], shape: [2], coords }, { dims: [] }), TYPE);
}
for (const [label, c] of [["'ab'", 'ab'], ['null', null], ['{length: 2}', { length: 2 }], ['5', 5]]) {
  add(`named: coords.x is ${label}`, ...N({ dims: ['x'], coords: { x: c } }, { dims: [] }), TYPE);
}
for (const [label, l] of [['{}', {}], ['null', null], ['[1]', [1]], ['1n', 1n], ['undefined', undefined], ['Symbol', sym]]) {
  add(`named: a label is ${label}`, ...N({ dims: ['x'], coords: { x: ['a', l] } }, { dims: [] }), TYPE);
}
add('named: shape is a string', ...N({ dims: ['x'], shape: 'x' }, { dims: [] }), TYPE);
add('named: shape is null', ...N({ dims: ['x'], shape: null }, { dims: [] }), TYPE);

// 11. many operands: a bound keeps the engine's memory in hand
add('broadcastShapes: 65537 operands', 'broadcastShapes', new Array(65537).fill([1]), err('TOO_LARGE', null));
add('broadcastShapes: 65536 operands is fine', 'broadcastShapes', [...new Array(65535).fill([1]), [2, 3]], ok([2, 3]));

// 12. init with bad options: TypeError, also once the engine is loaded
const INIT = [
  ['null', null], ['5', 5], ["'abc'", 'abc'], ['true', true], ['3n', 3n], ['{ module: {} }', { module: {} }],
  ['{ module: bytes }', { module: new Uint8Array(8) }], ["{ wasmBinary: 'x' }", { wasmBinary: 'x' }],
  ['{ wasmBinary: [0, 97, 115, 109] }', { wasmBinary: [0, 97, 115, 109] }], ['{ wasmBinary: null }', { wasmBinary: null }],
  ['{ wasmUrl: 5 }', { wasmUrl: 5 }], ['{ wasmUrl: {} }', { wasmUrl: {} }], ['{ wasmUrl: null }', { wasmUrl: null }],
];
for (const [label, o] of INIT) add(`init: options ${label}`, 'init', [o], TYPE);

// ---- running an entry --------------------------------------------------------------

function outcome(fn, args) {
  try {
    return { value: tc[fn](...args) };
  } catch (e) {
    return { error: e };
  }
}

function describeOutcome(o) {
  if (!o.error) return `value ${JSON.stringify(o.value)}`;
  return `${o.error?.constructor?.name} ${o.error?.code ?? ''} axis ${o.error?.axis}: ${o.error?.message}`;
}

function checkEntry(entry) {
  const got = outcome(entry.fn, entry.args);
  const where = `${entry.name} gave ${describeOutcome(got)}`;
  const want = entry.expect;
  if (want === TYPE) {
    expect(got.error, where).toBeInstanceOf(TypeError);
    expect(got.error, where).not.toBeInstanceOf(tc.BroadcastError);
  } else if ('value' in want) {
    expect(got.error, where).toBeUndefined();
    expect(got.value, where).toEqual(want.value);
  } else {
    expect(got.error, where).toBeInstanceOf(tc.BroadcastError);
    expect(got.error.name, where).toBe('BroadcastError');
    expect(got.error.code, where).toBe(want.code);
    expect(Object.values(tc.ErrorCode), where).toContain(got.error.code);
    if ('axis' in want) expect(got.error.axis, where).toBe(want.axis);
    expect(typeof got.error.message, where).toBe('string');
    expect(JSON.parse(JSON.stringify(got.error.toJSON())).code, where).toBe(want.code);
  }
  return got;
}

// The same request through explain(), which must never throw.
function explainRequest(fn, args) {
  const [a, b, o] = args;
  const plainOptions = o === undefined || (o !== null && typeof o === 'object' && !Array.isArray(o));
  if (!plainOptions) return null;
  const opts = o ?? {};
  switch (fn) {
    case 'broadcastShapes': return args.length > 1000 ? null : { rule: 'numpy', shapes: args };
    case 'autoBroadcastShape': // explain's other rule names are not auto-broadcast types
      return opts.type === 'broadcastTo' || opts.type === 'named' ? null : { rule: opts.type ?? 'numpy', shapes: [a, b], axis: opts.axis };
    case 'broadcastToShape': return { rule: 'broadcastTo', shapes: [a, b], mode: opts.mode, axis: opts.axis, axesMapping: opts.axesMapping };
    case 'namedBroadcastShape': return { rule: 'named', operands: [a, b], shaping: opts.shaping };
    default: return null;
  }
}

function checkExplain(entry) {
  const req = explainRequest(entry.fn, entry.args);
  if (!req) return false;
  let r;
  expect(() => { r = tc.explain(req); }, entry.name).not.toThrow();
  const want = entry.expect;
  const where = `explain for ${entry.name}: ${JSON.stringify(r.error)}`;
  if (want === TYPE) {
    expect(r.ok, where).toBe(false);
    expect(r.error.name, where).toBe('TypeError');
    expect(r.error.code, where).toBe(null);
  } else if ('value' in want) {
    expect(r.ok, where).toBe(true);
    expect(r.named ?? r.shape, where).toEqual(want.value);
  } else {
    expect(r.ok, where).toBe(false);
    expect(r.error.name, where).toBe('BroadcastError');
    expect(r.error.code, where).toBe(want.code);
    if ('axis' in want) expect(r.error.axis, where).toBe(want.axis);
  }
  return true;
}

// Normal calls that must still be right after any entry.
const SANITY = [
  () => expect(tc.broadcastShapes([8, 1, 6, 1], [7, 1, 5])).toEqual([8, 7, 6, 5]),
  () => expect(tc.autoBroadcastShape([2, 3, 4, 5], [3, 1], { type: 'pdpd', axis: 1 })).toEqual([2, 3, 4, 5]),
  () => expect(tc.broadcastToShape([16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] })).toEqual([1, 16, 50, 50]),
  () => expect(tc.broadcastToShape([3, 1, 5, 1], [-1, -1, 5, 6])).toEqual([3, 1, 5, 6]),
  () => expect(tc.namedBroadcastShape({ dims: ['x'], coords: { x: ['a', 'b'] } }, { dims: ['y', 'x'], coords: { x: ['b'] }, shape: [3, 1] }))
    .toEqual({ dims: ['x', 'y'], shape: [1, 3], coords: { x: ['b'] } }),
  () => {
    const p = tc.explain({ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 });
    expect(p.ok).toBe(true);
    expect(p.operands[1].strides).toEqual([0, 1, 0, 0]);
    expect(p.loop.shape).toEqual([2, 3, 20]);
  },
];
const sane = () => { for (const s of SANITY) s(); };

// ---- the tests ---------------------------------------------------------------------

describe('adversarial corpus', () => {
  it('has at least 200 malformed calls to the shape API', () => {
    const shapeApi = new Set(['broadcastShapes', 'autoBroadcastShape', 'broadcastToShape', 'namedBroadcastShape']);
    const malformed = CORPUS.filter((e) => shapeApi.has(e.fn) && !e.expect.value);
    expect(malformed.length).toBeGreaterThanOrEqual(200);
    // Every shape-API function and init are covered, and every documented rule code appears.
    for (const fn of [...shapeApi, 'init']) expect(CORPUS.some((e) => e.fn === fn), fn).toBe(true);
    const codes = new Set(CORPUS.map((e) => e.expect.code).filter(Boolean));
    expect(CORPUS.filter((e) => e.expect === TYPE).length).toBeGreaterThan(50);
    for (const c of ['INVALID_SHAPE', 'INCOMPATIBLE_DIMS', 'RANK_MISMATCH', 'INVALID_AXIS', 'INVALID_AXES_MAPPING', 'MINUS_ONE_IN_NEW_AXIS', 'TOO_LARGE']) {
      expect(codes, c).toContain(c);
    }
  });

  it('every entry gives its documented outcome, and the engine stays right after each', () => {
    let explained = 0;
    for (const entry of CORPUS) {
      checkEntry(entry);
      sane();
      if (checkExplain(entry)) explained++;
      sane();
    }
    expect(explained).toBeGreaterThan(CORPUS.length / 2);
  });

  it('explain never throws, whatever the request', () => {
    const hostile = new Proxy({}, { get() { throw new RangeError('hostile getter'); } });
    const requests = [
      undefined, null, 5, 'numpy', 3n, sym, [], [[2], [3]], {}, { rule: 'nope' }, { rule: 5 }, { rule: null, shapes: [[2], [3]] },
      { rule: 'broadcastto', shapes: [[1], [2]] }, { shapes: 'abc' }, { shapes: [[2], 'x'] }, { shapes: { 0: [1], length: 1 } },
      { rule: 'none', shapes: [[1]] }, { rule: 'none', shapes: [[1], [1], [1]] }, { rule: 'pdpd', shapes: [] },
      { rule: 'broadcastTo', shapes: [[1]] }, { rule: 'broadcastTo', shapes: [[1], [2], [3]] }, { rule: 'broadcastTo', shapes: null },
      { rule: 'named' }, { rule: 'named', operands: [{ dims: [] }] }, { rule: 'named', operands: 'ab' },
      { rule: 'named', operands: [null, null] }, hostile, { get rule() { throw new Error('getter'); } },
    ];
    for (const req of requests) {
      let r;
      expect(() => { r = tc.explain(req); }).not.toThrow();
      expect(r.ok).toBe(false);
      expect(typeof r.error.message).toBe('string');
      expect(r.error.code === null || Object.values(tc.ErrorCode).includes(r.error.code)).toBe(true);
      sane();
    }
    // Overflowing element counts explain fine (the size saturates; nothing is allocated per element).
    const p = tc.explain({ shapes: [[MAX, MAX], [1, MAX]] });
    expect(p.ok).toBe(true);
    expect(p.shape).toEqual([MAX, MAX]);
    expect(p.operands[1].strides).toEqual([0, 1]);
  });

  it('the corpus, run again and again, does not grow the wasm heap', () => {
    const run = () => {
      for (const e of CORPUS) {
        if (e.fn === 'init' || e.args.length >= 1000) continue;
        outcome(e.fn, e.args);
        const req = explainRequest(e.fn, e.args);
        if (req) tc.explain(req);
      }
    };
    run(); // warm: scratch buffers and plans reach their working size
    const heap0 = mod().HEAPU8.length;
    // ~40k failing calls: a leak of even a few dozen bytes per call would
    // outgrow the heap's free space and make memory grow.
    for (let i = 0; i < 30; i++) run();
    expect(mod().HEAPU8.length).toBe(heap0);
    sane();
  });
});

// Arguments whose getters or Proxy traps would change a shape after it was read,
// or call the library from inside. Each value is read once, before any request
// is written: the answer is the one for what was read, and the heap around the
// request is intact.
describe('hostile arguments', () => {
  // A shape whose dim getter runs `act` on its n-th read (reads: check, measure, write).
  const onRead = (n, act, dims = [2]) => {
    const s = dims.slice();
    let reads = 0;
    Object.defineProperty(s, 0, { get() { if (++reads === n) act(); return dims[0]; } });
    return s;
  };
  const grow = (arr, by) => () => { for (let i = 0; i < by; i++) arr.push(1); };
  const nested = () => { try { tc.broadcastShapes(...new Array(3000).fill(ones(32))); } catch { /* refused */ } };

  const HOSTILE = [
    ['a later shape grows while the first is written', () => { const big = [3]; return ['broadcastShapes', [onRead(2, grow(big, 50000)), big]]; }, err('INCOMPATIBLE_DIMS', 0)],
    ['the target grows while the input is written', () => { const t = [3]; return ['broadcastToShape', [onRead(2, grow(t, 50000)), t]]; }, err('INCOMPATIBLE_DIMS', 0)],
    ['B grows while A is written (pdpd)', () => { const b = [3]; return ['autoBroadcastShape', [onRead(2, grow(b, 9000), [3]), b, { type: 'pdpd' }]]; }, ok([3])],
    ['a Proxy whose length jumps after the check', () => {
      let k = 0;
      return ['broadcastShapes', [new Proxy([2, 3], { get: (t, p) => (p === 'length' ? (k++ < 2 ? 2 : 40000) : t[p] ?? 1) })]];
    }, ok([2, 3])],
    ['a getter that calls the library while the request is written', () => ['broadcastShapes', [onRead(2, nested), [3, 1]]], ok([3, 2])],
    ['a getter that calls the library while it is checked', () => ['broadcastShapes', [onRead(1, nested), [3, 1]]], ok([3, 2])],
    ['named labels that grow when read again', () => {
      const labels = ['a', 'b'];
      let reads = 0;
      Object.defineProperty(labels, 0, { get() { if (++reads > 1) grow(labels, 20000)(); return 'a'; } });
      return ['namedBroadcastShape', [{ dims: ['x'], coords: { x: labels } }, { dims: ['y'], shape: [2] }]];
    }, ok({ dims: ['x', 'y'], shape: [2, 2], coords: { x: ['a', 'b'] } })],
    ['named dims that grow when read again', () => {
      const dims = ['x'];
      let reads = 0;
      Object.defineProperty(dims, 0, { get() { if (++reads > 1) for (let i = 0; i < 5000; i++) dims.push(`d${i}`); return 'x'; } });
      return ['namedBroadcastShape', [{ dims, shape: [2] }, { dims: [] }]];
    }, ok({ dims: ['x'], shape: [2] })],
  ];

  it.each(HOSTILE)('%s', (_, make, want) => {
    const M = mod();
    const canary = M._tc_malloc(4096) >>> 3;
    for (let i = 0; i < 512; i++) M.HEAPF64[canary + i] = 12345.5;
    const [fn, args] = make();
    checkEntry({ name: _, fn, args, expect: want });
    const heap = mod().HEAPF64;
    let intact = true;
    for (let i = 0; i < 512; i++) intact &&= heap[canary + i] === 12345.5;
    mod()._tc_free(canary << 3);
    expect(intact).toBe(true);
    sane();
  });
});

describe('init with bad options', () => {
  it('before the engine is loaded: TypeError, and a later good init still works', async () => {
    vi.resetModules();
    const fresh = await import('../../dist/node.js');
    expect(fresh.isReady()).toBe(false);
    for (const [label, o] of INIT) {
      let thrown = null;
      try { fresh.init(o); } catch (e) { thrown = e; }
      expect(thrown, `init(${label})`).toBeInstanceOf(TypeError);
      expect(fresh.isReady()).toBe(false);
    }
    // A load that fails (no such file, bytes that are not wasm) rejects; it can be retried.
    await expect(fresh.init({ wasmUrl: '/nonexistent/tensorcast.wasm' })).rejects.toThrow();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(fresh.init({ wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 255]) })).rejects.toThrow();
    quiet.mockRestore();
    warn.mockRestore();
    expect(fresh.isReady()).toBe(false);
    await fresh.init();
    expect(fresh.isReady()).toBe(true);
    expect(fresh.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
    vi.resetModules();
  });
});

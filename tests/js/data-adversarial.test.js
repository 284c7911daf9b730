// Bad input to the data API (element-wise ops, broadcastTo, where, tensor,
// resident tensors, `out`), the memory it holds, and growth of wasm memory in
// the middle of a chain.
//
// Each corpus entry builds its arguments afresh (some detach or resize their
// buffers) and states its outcome: a TypeError, a BroadcastError with the
// documented code (and axis where one is meaningful), or a value checked
// against a plain JS computation. After every entry a normal call must still be
// right, and the bytes and tensors the engine holds must be back where they were.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { mod } from '../../dist/loader.js';

beforeAll(async () => { await tc.init(); });

const TYPE = 'TypeError';
const err = (code, axis) => ({ code, ...(axis !== undefined ? { axis } : {}) });
// A legal call: `check(result)` asserts the value.
const ok = (check) => ({ check });

const prod = (s) => s.reduce((a, b) => a * b, 1);
const iota = (n, C = Float32Array, from = 1) => {
  const a = new C(n);
  for (let i = 0; i < n; i++) a[i] = C === BigInt64Array || C === BigUint64Array ? BigInt(i + from) : i + from;
  return a;
};
const T = (shape, C = Float32Array) => ({ data: iota(prod(shape), C), shape });
const plain = (r) => Array.from(r instanceof tc.Tensor ? r.toArray() : r.data, Number);
const detached = (C = Float32Array, n = 3) => {
  const a = new C(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
};
const dispose = (...ts) => { for (const t of ts) if (t instanceof tc.Tensor && !t.disposed) t.dispose(); };

// ---- the corpus ------------------------------------------------------------------
// { name, make: () => ({ call: () => result, cleanup? }), expect }
const CORPUS = [];
const add = (name, make, expect) => CORPUS.push({ name, make, expect });
const call = (fn, ...args) => () => ({ call: () => tc[fn](...args) });

// Every place a data operand goes, as (label, operand -> call).
const OPERAND_SLOTS = [
  ['add a', (x) => tc.add(x, T([3]))],
  ['sub b', (x) => tc.sub(T([3]), x)],
  ['mul a, scalar b', (x) => tc.mul(x, 2)],
  ['less b, scalar a', (x) => tc.less(1, x)],
  ['maximum a, pdpd', (x) => tc.maximum(x, T([3]), { broadcast: { type: 'pdpd' } })],
  ['add a, none', (x) => tc.add(x, T([3]), { broadcast: { type: 'none' } })],
  ['bitwiseAnd b', (x) => tc.bitwiseAnd(T([3], Int32Array), x)],
  ['broadcastTo x', (x) => tc.broadcastTo(x, [2, 3])],
  ['where cond', (x) => tc.where(x, T([3]), T([3]))],
  ['where a', (x) => tc.where(T([3], Uint8Array), x, T([3]))],
  ['where b', (x) => tc.where(T([3], Uint8Array), T([3]), x)],
];
const sym = Symbol('x');

// 1. values that are not operands: TypeError in every slot
const NON_OPERANDS = [
  ['null', null], ['undefined', undefined], ["'abc'", 'abc'], ['{}', {}], ['a plain array', [1, 2, 3]],
  ['a bare Float32Array', Float32Array.of(1, 2, 3)], ['a DataView', new DataView(new ArrayBuffer(12))],
  ['an ArrayBuffer', new ArrayBuffer(12)], ['{ data: [1, 2, 3] }', { data: [1, 2, 3], shape: [3] }],
  ['{ data: null }', { data: null, shape: [3] }], ['{ data: DataView }', { data: new DataView(new ArrayBuffer(12)), shape: [3] }],
  ['{ data: ArrayBuffer }', { data: new ArrayBuffer(12), shape: [3] }], ['Symbol', sym], ['true', true],
  ['a function', () => Float32Array.of(1, 2, 3)],
];
for (const [slot, run] of OPERAND_SLOTS) {
  for (const [label, v] of NON_OPERANDS) {
    // A scalar slot's partner must be a tensor: the other side is a number there.
    add(`${slot}: ${label}`, () => ({ call: () => run(v) }), TYPE);
  }
}

// 2. shapes that are not shapes, or do not hold the data
const BAD_DIMS = [
  ['-2', -2], ['-1', -1], ['1.5', 1.5], ['NaN', NaN], ['Infinity', Infinity], ['2^53', 2 ** 53], ["'3'", '3'],
  ["'?'", '?'], ["'2..5'", '2..5'], ['3n', 3n], ['null', null],
];
for (const [slot, run] of OPERAND_SLOTS.filter((_, i) => i % 2 === 0)) {
  for (const [label, d] of BAD_DIMS) {
    add(`${slot}: shape [1, ${label}]`, () => ({ call: () => run({ data: iota(3), shape: [1, d] }) }), err('INVALID_SHAPE'));
  }
  add(`${slot}: shape of 33 dims`, () => ({ call: () => run({ data: iota(1), shape: new Array(33).fill(1) }) }), err('INVALID_SHAPE'));
  add(`${slot}: shape '[...]'`, () => ({ call: () => run({ data: iota(3), shape: '[...]' }) }), err('INVALID_SHAPE'));
  add(`${slot}: shape is a number`, () => ({ call: () => run({ data: iota(3), shape: 3 }) }), TYPE);
  add(`${slot}: data shorter than the shape`, () => ({ call: () => run({ data: iota(2), shape: [3] }) }), err('LENGTH_MISMATCH'));
  add(`${slot}: data longer than the shape`, () => ({ call: () => run({ data: iota(4), shape: [3] }) }), err('LENGTH_MISMATCH'));
  add(`${slot}: a zero dim under 1 element`, () => ({ call: () => run({ data: iota(1), shape: [0] }) }), err('LENGTH_MISMATCH'));
  add(`${slot}: a shape whose count overflows`, () => ({ call: () => run({ data: iota(1), shape: [2 ** 30, 2 ** 30, 2 ** 30] }) }), err('LENGTH_MISMATCH'));
  // A detached buffer says so (issue 11): a TypeError naming the transfer, not a length mismatch.
  add(`${slot}: detached data`, () => ({ call: () => run({ data: detached(), shape: [3] }) }), TYPE);
  // A view of detached data too (until 0.9.27 LENGTH_MISMATCH: "outside its data of 0 elements (axis 0 reaches past -1)").
  add(`${slot}: detached data of a view`, () => ({ call: () => run({ data: detached(Float32Array, 6), shape: [3], strides: [2], offset: 0 }) }), TYPE);
}
// The layout functions, the reductions and the post-processing read a view of detached data as the ops do.
for (const [fn, f] of [['transpose', (x) => tc.transpose(x)], ['contiguous', (x) => tc.contiguous(x)], ['sum', (x) => tc.sum(x)],
  ['softmax', (x) => tc.softmax(x)], ['evaluate', (x) => tc.evaluate('x + 1', { x })]]) {
  add(`${fn}: detached data of a view`, () => ({ call: () => f({ data: detached(Float32Array, 6), shape: [2, 3], strides: [1, 2] }) }), TYPE);
}
for (const [label, d] of BAD_DIMS) {
  add(`tensor: shape [1, ${label}]`, call('tensor', iota(3), [1, d]), err('INVALID_SHAPE'));
}
add('tensor: data is a plain array', call('tensor', [1, 2, 3]), TYPE);
add('tensor: data is null', call('tensor', null), TYPE);
add('tensor: data is a DataView', call('tensor', new DataView(new ArrayBuffer(4))), TYPE);
add('tensor: data shorter than the shape', call('tensor', iota(5), [2, 3]), err('LENGTH_MISMATCH'));
add('tensor: detached data', () => ({ call: () => tc.tensor(detached(), [3]) }), TYPE);
add('tensor: options is a string', call('tensor', iota(3), [3], 'x'), TYPE);
// Detached data without a shape is an empty array (its length is 0), in every function alike (until
// 0.9.16 softmax, logSoftmax and logSumExp threw V8's TypeError and left a byte behind each call, and
// contiguous, concat and stack threw it): nothing is read from it.
for (const [fn, f, want] of [['softmax', (x) => tc.softmax(x), []], ['logSoftmax', (x) => tc.logSoftmax(x), []],
  ['logSumExp', (x) => tc.logSumExp(x), [-Infinity]], ['contiguous', (x) => tc.contiguous(x), []],
  ['concat', (x) => tc.concat([x, x], 0), []], ['stack', (x) => tc.stack([x], 0), []], ['add', (x) => tc.add(x, 1), []]]) {
  add(`${fn}: detached data, no shape`, () => ({ call: () => f({ data: detached() }) }), ok((r) => expect(plain(r)).toEqual(want)));
}
// So is a view of detached data that reads no element (until 0.9.27 V8's "Cannot perform Construct on a detached ArrayBuffer").
for (const [fn, f, shape] of [['add', (x) => tc.add(x, 1), [0, 3]], ['sum', (x) => tc.sum(x, { axes: 1 }), [0]], ['softmax', (x) => tc.softmax(x), [0, 3]],
  ['evaluate', (x) => tc.evaluate('x * 2', { x }), [0, 3]], ['transpose', (x) => tc.transpose(x), [3, 0]], ['contiguous', (x) => tc.contiguous(x), [0, 3]],
  ['concat', (x) => tc.concat([x, x], 0), [0, 3]], ['reshape', (x) => tc.reshape(x, [3, 0]), [3, 0]]]) {
  add(`${fn}: a view of detached data reading no element`, () => ({ call: () => f({ data: detached(Float32Array, 6), shape: [0, 3], strides: [3, 1] }) }),
    ok((r) => { expect(r.shape).toEqual(shape); expect(r.data.length).toBe(0); })); // a view (transpose, reshape) keeps the detached data
}
add('tensor: dims duplicated', call('tensor', iota(6), [2, 3], { dims: ['x', 'x'] }), err('INVALID_SHAPE'));
add('tensor: dims of the wrong length', call('tensor', iota(6), [2, 3], { dims: ['x'] }), err('INVALID_SHAPE'));
add('tensor: coords of the wrong length', call('tensor', iota(6), [2, 3], { dims: ['x', 'y'], coords: { x: ['a'] } }), err('INVALID_SHAPE'));

// 3. dtypes
const PAIRS = [
  [Float32Array, Float64Array], [Int32Array, Uint32Array], [Uint8Array, Uint8ClampedArray], [Int8Array, Uint8Array],
  [Int16Array, Uint16Array], [BigInt64Array, BigUint64Array], [Float64Array, BigInt64Array], [Int32Array, Float32Array],
];
for (const [A, B] of PAIRS) {
  add(`add: ${A.name} + ${B.name}`, call('add', T([3], A), T([3], B)), err('DTYPE_MISMATCH'));
  add(`where: ${A.name} vs ${B.name} branches`, call('where', T([3], Uint8Array), T([3], A), T([3], B)), err('DTYPE_MISMATCH'));
  add(`add: out ${B.name} for a ${A.name} result`, call('add', T([3], A), T([3], A), { out: new B(3) }), err('DTYPE_MISMATCH'));
}
// A dtype outside the op's domain: DTYPE_MISMATCH, as for unary ops and in expressions (a TypeError until 0.9.18).
add('bitwiseOr: float32', call('bitwiseOr', T([3]), T([3])), err('DTYPE_MISMATCH'));
add('bitwiseXor: float64 with a scalar', call('bitwiseXor', T([3], Float64Array), 1), err('DTYPE_MISMATCH'));
add('atan2: int32', call('atan2', T([3], Int32Array), T([3], Int32Array)), err('DTYPE_MISMATCH'));
add('add: two scalars', call('add', 1, 2), TYPE);
add('where: two scalar branches', call('where', T([3], Uint8Array), 1, 2), TYPE);
add('add: a 1.5 scalar to bigint64', call('add', T([3], BigInt64Array), 1.5), TYPE);
add('add: a NaN scalar to biguint64', call('add', NaN, T([3], BigUint64Array)), TYPE);
add('less: out uint8 for a float32 compare is right', call('less', T([3]), 2, { out: new Uint8Array(3) }), ok((r) => expect(plain(r)).toEqual([1, 0, 0])));
add('less: out float32 for a compare', call('less', T([3]), 2, { out: new Float32Array(3) }), err('DTYPE_MISMATCH'));

// 4. rules, axes and options
add('add: clash', call('add', T([2, 3]), T([4])), err('INCOMPATIBLE_DIMS', 1));
add('add: none with different shapes', call('add', T([2, 3]), T([3]), { broadcast: { type: 'none' } }), err('SHAPE_MISMATCH'));
add('add: pdpd, B out-ranks A', call('add', T([3]), T([2, 3]), { broadcast: { type: 'pdpd' } }), err('RANK_MISMATCH'));
for (const axis of [2, 3, -2, 2 ** 31, 1.5, NaN, Infinity, '1', 1n, {}]) {
  // Axis 2 (= rank of A) is in range, for a B that is a scalar after trimming: this B does not fit.
  const expectAxis = axis === 2 ? err('RANK_MISMATCH') : typeof axis === 'number' ? err('INVALID_AXIS') : [err('INVALID_AXIS'), TYPE];
  add(`add: pdpd axis ${String(axis)}`, call('add', T([2, 3]), T([3]), { broadcast: { type: 'pdpd', axis } }), expectAxis);
}
// null is the default axis, -1 (since 0.9.28): A [2,3], B [3] at axis 1.
add('add: pdpd axis null', call('add', T([2, 3]), T([3]), { broadcast: { type: 'pdpd', axis: null } }), ok((r) => expect(r.shape).toEqual([2, 3])));
for (const type of ['NUMPY', 'explicit', 'bidirectional', '', 5, {}]) {
  add(`add: broadcast type ${JSON.stringify(type)}`, call('add', T([3]), T([3]), { broadcast: { type } }), TYPE);
}
for (const o of [null, 5, 'numpy', true, sym]) add(`add: options ${String(o)}`, call('add', T([3]), T([3]), o), TYPE);
add('add: broadcast is a string', call('add', T([3]), T([3]), { broadcast: 'pdpd' }), TYPE);
add('add: fill is a string', call('add', { ...T([2]), dims: ['x'] }, { ...T([2]), dims: ['x'] }, { shaping: 'union', fill: 'x' }), TYPE);
add('add: shaping unknown', call('add', { ...T([2]), dims: ['x'] }, { ...T([2]), dims: ['x'] }, { shaping: 'outer' }), TYPE);
add('add: a result too large for wasm32', call('add', T([1, 65536], Float64Array), T([65536, 1], Float64Array)), err('TOO_LARGE'));
add('where: a result too large', call('where', T([65536, 1, 1], Uint8Array), T([1, 65536, 1]), T([1, 1, 2]), {}), err('TOO_LARGE'));

// 5. broadcastTo targets and modes
const X23 = () => T([2, 3]);
const bt = (name, target, options, expect) => add(`broadcastTo: ${name}`, () => ({ call: () => tc.broadcastTo(X23(), target, options) }), expect);
bt('target null', null, undefined, TYPE);
bt('target a number', 6, undefined, TYPE);
bt("target '2,3'", '2,3', undefined, TYPE);
bt('target with NaN', [2, NaN], undefined, err('INVALID_SHAPE', 1));
bt('target with 1.5', [2, 1.5], undefined, err('INVALID_SHAPE', 1));
bt('target with -2', [2, -2], undefined, err('INVALID_SHAPE', 1));
bt("target with '?'", [2, '?'], undefined, err('INVALID_SHAPE'));
bt('target unknown rank', '[...]', undefined, err('INVALID_SHAPE'));
bt('target of 33 dims', [...new Array(31).fill(1), 2, 3], undefined, err('INVALID_SHAPE'));
bt('clash', [2, 4], undefined, err('INCOMPATIBLE_DIMS', 1));
bt('fewer dims than the input', [3], undefined, err('RANK_MISMATCH'));
bt('-1 in a new axis', [-1, 2, 3], undefined, err('MINUS_ONE_IN_NEW_AXIS', 0));
bt('-1 keeps the input dim', [4, -1, 3], undefined, ok((r) => { expect(r.shape).toEqual([4, 2, 3]); expect(plain(r)).toEqual([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]); }));
bt('too large to materialise', [2 ** 16, 2 ** 16, 3], { mode: 'numpy' }, err('INCOMPATIBLE_DIMS'));
bt('too large to materialise (ones)', [2 ** 20, 2 ** 20, 2, 3], undefined, err('TOO_LARGE'));
for (const mode of ['expand', 'NUMPY', '', 'none', 5, {}]) bt(`mode ${JSON.stringify(mode)}`, [2, 3], { mode }, TYPE);
bt('options a string', [2, 3], 'numpy', TYPE);
const ex = (m) => ({ mode: 'explicit', axesMapping: m });
bt('explicit: mapping unsorted', [2, 3, 4], ex([1, 0]), err('INVALID_AXES_MAPPING'));
bt('explicit: mapping duplicated', [2, 3, 4], ex([1, 1]), err('INVALID_AXES_MAPPING'));
bt('explicit: mapping out of range', [2, 3, 4], ex([0, 3]), err('INVALID_AXES_MAPPING'));
bt('explicit: mapping negative', [2, 3, 4], ex([-1, 0]), err('INVALID_AXES_MAPPING'));
bt('explicit: mapping too short', [2, 3, 4], ex([0]), err('INVALID_AXES_MAPPING'));
bt('explicit: mapping too long', [2, 3, 4], ex([0, 1, 2]), err('INVALID_AXES_MAPPING'));
bt('explicit: mapping missing', [2, 3, 4], { mode: 'explicit' }, [err('INVALID_AXES_MAPPING'), TYPE]);
bt('explicit: mapping not an array', [2, 3, 4], ex('0,1'), [err('INVALID_AXES_MAPPING'), TYPE]);
bt('explicit: mapping with 0.5', [2, 3, 4], ex([0, 0.5]), [err('INVALID_AXES_MAPPING'), TYPE]);
bt('explicit: mapped dims differ', [3, 2, 4], ex([0, 1]), err('INCOMPATIBLE_DIMS'));
bt('explicit: right', [2, 4, 3], ex([0, 2]), ok((r) => { expect(r.shape).toEqual([2, 4, 3]); expect(plain(r).slice(0, 6)).toEqual([1, 2, 3, 1, 2, 3]); }));
bt('bidirectional: clash', [4, 3], { mode: 'bidirectional' }, err('INCOMPATIBLE_DIMS'));
bt('bidirectional: smaller target keeps the input', [1], { mode: 'bidirectional' }, ok((r) => expect(r.shape).toEqual([2, 3])));
bt('pdpd: axis out of range', [2, 3, 4], { mode: 'pdpd', axis: 5 }, err('INVALID_AXIS'));
bt('pdpd: axis 1.5', [2, 3, 4], { mode: 'pdpd', axis: 1.5 }, err('INVALID_AXIS'));
bt('pdpd: does not fit', [4, 3], { mode: 'pdpd', axis: 0 }, [err('INCOMPATIBLE_DIMS'), err('RANK_MISMATCH')]);

// 6. named operands
const N = (dims, shape) => ({ ...T(shape), dims });
add('named: dims on one side only', call('add', N(['x'], [2]), T([2])), TYPE);
add('named: dims duplicated', call('add', N(['x', 'x'], [2, 2]), N(['x'], [2])), err('INVALID_SHAPE'));
add('named: more names than dims', call('add', N(['x', 'y'], [2]), N(['x'], [2])), err('INVALID_SHAPE'));
add('named: a name that is not a string', call('add', N([{}], [2]), N(['x'], [2])), [err('INVALID_SHAPE'), TYPE]);
add('named: dims a string', call('add', N('x', [2]), N(['x'], [2])), [err('INVALID_SHAPE'), TYPE]);
add('named: shared dim of other size', call('add', N(['x'], [2]), N(['x'], [3])), err('INCOMPATIBLE_DIMS'));
add('named: shared dim of size 1 is never stretched', call('add', N(['x'], [1]), N(['x'], [3])), err('INCOMPATIBLE_DIMS'));
add('named: missing dims are inserted', call('add', N(['x'], [2]), N(['y'], [3])),
  ok((r) => { expect(r.shape).toEqual([2, 3]); expect(plain(r)).toEqual([2, 3, 4, 3, 4, 5]); }));

// 7. out
add('out: a plain array', call('add', T([3]), T([3]), { out: [0, 0, 0] }), TYPE);
add('out: a DataView', call('add', T([3]), T([3]), { out: new DataView(new ArrayBuffer(12)) }), TYPE);
add('out: a number', call('add', T([3]), T([3]), { out: 3 }), TYPE);
add('out: null', call('add', T([3]), T([3]), { out: null }), TYPE);
add('out: too short', call('add', T([2, 3]), T([3]), { out: new Float32Array(5) }), err('LENGTH_MISMATCH'));
add('out: too long', call('add', T([2, 3]), T([3]), { out: new Float32Array(7) }), err('LENGTH_MISMATCH'));
add('out: detached', () => ({ call: () => tc.add(T([3]), T([3]), { out: detached() }) }), err('LENGTH_MISMATCH'));
add('broadcastTo: out too short', call('broadcastTo', T([3]), [2, 3], { out: new Float32Array(3) }), err('LENGTH_MISMATCH'));
add('where: out of another dtype', call('where', T([3], Uint8Array), T([3]), T([3]), { out: new Int32Array(3) }), err('DTYPE_MISMATCH'));
add('out: the first input itself (in place)', () => {
  const a = T([2, 3]);
  return { call: () => ({ r: tc.add(a, T([3]), { out: a.data }), a }) };
}, ok(({ r, a }) => { expect(r.data).toBe(a.data); expect(plain(r)).toEqual([2, 4, 6, 5, 7, 9]); }));
add('out: the broadcast input itself, too short', () => {
  const b = T([3]);
  return { call: () => tc.add(T([2, 3]), b, { out: b.data }) };
}, err('LENGTH_MISMATCH'));
add('out: overlapping both inputs (a + a into a)', () => {
  const a = T([4]);
  return { call: () => tc.mul(a, a, { out: a.data }) };
}, ok((r) => expect(plain(r)).toEqual([1, 4, 9, 16])));
add('out: a view overlapping the input at an offset', () => {
  const buf = new Float32Array(8);
  buf.set([1, 2, 3, 4]);
  const a = { data: buf.subarray(0, 4), shape: [4] };
  return { call: () => ({ r: tc.add(a, 10, { out: buf.subarray(2, 6) }), buf }) };
}, ok(({ buf }) => expect(Array.from(buf)).toEqual([1, 2, 11, 12, 13, 14, 0, 0])));
add('out: resident, the same shape as an input (in place)', () => {
  const t = tc.tensor(iota(3));
  return { call: () => plain(tc.add(t, T([3]), { out: t })), cleanup: () => dispose(t) };
}, ok((v) => expect(v).toEqual([2, 4, 6])));
add('out: resident, an input that is broadcast', () => {
  const t = tc.tensor(iota(3));
  return { call: () => tc.add(T([2, 3]), t, { out: t }), cleanup: () => dispose(t) };
}, [TYPE, err('LENGTH_MISMATCH')]);
add('out: resident of the wrong dtype', () => {
  const t = tc.tensor(new Int32Array(3));
  return { call: () => tc.add(T([3]), T([3]), { out: t }), cleanup: () => dispose(t) };
}, err('DTYPE_MISMATCH'));
add('out: resident, of the wrong size, is left untouched', () => {
  const t = tc.tensor(Float32Array.of(7, 7, 7, 7));
  return {
    call: () => {
      let code = null;
      try { tc.add(T([3]), T([3]), { out: t }); } catch (e) { code = e.code; }
      try { tc.add(t, T([2]), { out: t }); } catch (e) { code += ` ${e.code}`; } // [4] + [2]: a clash
      return { code, data: Array.from(t.toArray()) };
    },
    cleanup: () => dispose(t),
  };
}, ok((r) => expect(r).toEqual({ code: 'LENGTH_MISMATCH INCOMPATIBLE_DIMS', data: [7, 7, 7, 7] })));
add('out: resident, a rank-1 operand under a rank-2 result of the same size', () => {
  const t = tc.tensor(iota(3));
  // t is read exactly as the result is written (same strides): in place is safe, and t holds the sum.
  return { call: () => Array.from(tc.add(t, T([1, 3]), { out: t }).toArray()), cleanup: () => dispose(t) };
}, ok((r) => expect(r).toEqual([2, 4, 6])));
add('out: resident, disposed', () => {
  const t = tc.tensor(iota(3));
  t.dispose();
  return { call: () => tc.add(T([3]), T([3]), { out: t }) };
}, TYPE);

// 8. buffers: views at odd offsets, shared and resizable buffers
for (const C of [Float64Array, Int16Array, Int32Array, BigInt64Array, Uint8ClampedArray]) {
  const E = C.BYTES_PER_ELEMENT;
  add(`${C.name} views at byteOffset ${E} and ${3 * E} (not 16-aligned)`, () => {
    const buf = new ArrayBuffer(64 * E);
    const a = new C(buf, E, 20);
    const b = new C(buf, 3 * E + 24 * E, 20);
    for (let i = 0; i < 20; i++) { a[i] = C === BigInt64Array ? BigInt(i) : i; b[i] = C === BigInt64Array ? 2n : 2; }
    return { call: () => tc.add({ data: a, shape: [20] }, { data: b, shape: [20] }) };
  }, ok((r) => expect(plain(r)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2))));
}
add('a view into a SharedArrayBuffer', () => {
  const a = new Float32Array(new SharedArrayBuffer(12));
  a.set([1, 2, 3]);
  return { call: () => tc.add({ data: a, shape: [3] }, 1) };
}, ok((r) => expect(plain(r)).toEqual([2, 3, 4])));
add('a length-tracking view of a resizable buffer', () => {
  const a = new Float32Array(new ArrayBuffer(12, { maxByteLength: 64 }));
  a.set([1, 2, 3]);
  return { call: () => tc.add({ data: a, shape: [3] }, 1) };
}, ok((r) => expect(plain(r)).toEqual([2, 3, 4])));
// A buffer resized by a getter after its length was checked: never a longer copy than the slot.
const resizedBy = (slot, bytes) => () => {
  const buf = new ArrayBuffer(12, { maxByteLength: 1 << 20 });
  const a = new Float32Array(buf);
  a.set([1, 2, 3]);
  const b = { data: iota(3) };
  Object.defineProperty(b, 'shape', { get() { buf.resize(bytes); return [3]; }, enumerable: true });
  if (slot === 'where') return { call: () => tc.where(T([3], Uint8Array), { data: a, shape: [3] }, b) };
  if (slot === 'a-shape') {
    const x = { data: a };
    Object.defineProperty(x, 'shape', { get() { buf.resize(bytes); return [3]; } });
    return { call: () => tc.add(x, 1) };
  }
  if (slot === 'tensor') return { call: () => tc.tensor(a, { length: 1, get 0() { buf.resize(bytes); return 3; } }) };
  return { call: () => tc.add({ data: a, shape: [3] }, b, slot === 'options' ? { out: new Float32Array(3) } : undefined) };
};
for (const bytes of [1 << 16, 1 << 20, 4, 0]) {
  add(`add: a's buffer resized to ${bytes} bytes by b's shape getter`, resizedBy('b', bytes), err('LENGTH_MISMATCH'));
  add(`add with out: a's buffer resized to ${bytes} bytes by b's shape getter`, resizedBy('options', bytes), err('LENGTH_MISMATCH'));
  add(`add: a's buffer resized to ${bytes} bytes by its own shape getter`, resizedBy('a-shape', bytes), err('LENGTH_MISMATCH'));
  add(`where: a's buffer resized to ${bytes} bytes by b's shape getter`, resizedBy('where', bytes), err('LENGTH_MISMATCH'));
  add(`tensor: data resized to ${bytes} bytes by a shape getter`, resizedBy('tensor', bytes), [err('LENGTH_MISMATCH'), TYPE]);
}
add('add: a shape getter detaches a', () => {
  const a = iota(3);
  const b = { data: iota(3) };
  Object.defineProperty(b, 'shape', { get() { structuredClone(a.buffer, { transfer: [a.buffer] }); return [3]; } });
  return { call: () => tc.add({ data: a, shape: [3] }, b) };
}, TYPE);

// 9. resident tensors used after dispose
const disposedT = () => { const t = tc.tensor(iota(3)); t.dispose(); return t; };
add('add: a disposed tensor', () => ({ call: () => tc.add(disposedT(), T([3])) }), TYPE);
add('where: a disposed condition', () => ({ call: () => tc.where(disposedT(), T([3]), T([3])) }), TYPE);
add('broadcastTo: a disposed tensor', () => ({ call: () => tc.broadcastTo(disposedT(), [2, 3]) }), TYPE);
add('dispose twice is a no-op', () => ({ call: () => disposedT().dispose() }), ok((r) => expect(r).toBe(undefined)));
add('toArray after dispose', () => ({ call: () => disposedT().toArray() }), TYPE);
add('Symbol.dispose after dispose is a no-op', () => ({ call: () => disposedT()[Symbol.dispose]() }), ok((r) => expect(r).toBe(undefined)));
add('a getter disposes the resident operand mid-call', () => {
  const t = tc.tensor(iota(3));
  const b = { data: iota(3) };
  Object.defineProperty(b, 'shape', { get() { if (!t.disposed) t.dispose(); return [3]; } });
  return { call: () => tc.add(t, b) };
}, TYPE);
add('a getter disposes the resident out mid-call', () => {
  const t = tc.tensor(iota(3));
  const opts = {};
  const b = { data: iota(3) };
  Object.defineProperty(b, 'shape', { get() { if (!t.disposed) t.dispose(); return [3]; } });
  opts.out = t;
  return { call: () => tc.add(T([3]), b, opts) };
}, TYPE);

// ---- running it --------------------------------------------------------------------------------

function run(entry) {
  const { call: c, cleanup } = entry.make();
  try {
    return { value: c() };
  } catch (e) {
    return { error: e };
  } finally {
    cleanup?.();
  }
}

function matches(got, want) {
  if (want === TYPE) return got.error instanceof TypeError;
  if (want.check) return !got.error;
  return got.error instanceof tc.BroadcastError && got.error.code === want.code
    && (want.axis === undefined || got.error.axis === want.axis)
    && Object.values(tc.ErrorCode).includes(got.error.code);
}

const describeOutcome = (o) => (o.error ? `${o.error.constructor?.name} ${o.error.code ?? ''} axis ${o.error.axis}: ${o.error.message}` : 'a value');

const SANITY = () => {
  const r = tc.add({ data: Float32Array.of(1, 2), shape: [2, 1] }, { data: Float32Array.of(10, 20, 30), shape: [3] });
  expect(Array.from(r.data)).toEqual([11, 21, 31, 12, 22, 32]);
  const t = tc.tensor(Int32Array.of(1, 2, 3));
  const u = tc.mul(t, 3);
  expect(Array.from(u.toArray())).toEqual([3, 6, 9]);
  u.dispose(); t.dispose();
  expect(Array.from(tc.broadcastTo({ data: Uint8Array.of(7) }, [2, -1]).data)).toEqual([7, 7]);
  expect(tc.broadcastShapes([8, 1, 6, 1], [7, 1, 5])).toEqual([8, 7, 6, 5]);
};

describe('data API adversarial corpus', () => {
  it(`has ${CORPUS.length} calls (${CORPUS.filter((e) => !e.expect.check).length} malformed, at least 200) across the data functions, with every data error code`, () => {
    const malformed = CORPUS.filter((e) => !e.expect.check);
    expect(malformed.length).toBeGreaterThanOrEqual(200);
    const codes = new Set(CORPUS.flatMap((e) => [e.expect].flat()).map((x) => x.code).filter(Boolean));
    for (const c of ['INVALID_SHAPE', 'INCOMPATIBLE_DIMS', 'SHAPE_MISMATCH', 'RANK_MISMATCH', 'INVALID_AXIS', 'INVALID_AXES_MAPPING',
      'MINUS_ONE_IN_NEW_AXIS', 'DTYPE_MISMATCH', 'LENGTH_MISMATCH', 'TOO_LARGE']) expect(codes.has(c), c).toBe(true);
  });

  it('every entry gives its documented outcome, and leaves the engine right and holding nothing', () => {
    SANITY();
    const base = tc.memory();
    const wrong = [];
    for (const entry of CORPUS) {
      const got = run(entry);
      const wants = Array.isArray(entry.expect) ? entry.expect : [entry.expect];
      const hit = wants.find((w) => matches(got, w));
      if (!hit) wrong.push(`${entry.name}: got ${describeOutcome(got)}, want ${JSON.stringify(entry.expect)}`);
      else if (hit.check) {
        try { hit.check(got.value); } catch (e) { wrong.push(`${entry.name}: ${e.message}`); }
      }
      if (got.value instanceof tc.Tensor && !got.value.disposed) got.value.dispose();
      SANITY();
      const m = tc.memory();
      if (m.allocatedBytes !== base.allocatedBytes || m.liveTensors !== base.liveTensors) {
        wrong.push(`${entry.name}: left ${m.allocatedBytes - base.allocatedBytes} bytes and ${m.liveTensors - base.liveTensors} tensors`);
        break;
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never hands out a view of wasm memory: results survive growth and later calls', () => {
    const r = tc.add(T([4]), 1);
    const s = tc.broadcastTo(T([2]), [2, 2]);
    expect(r.data.buffer).not.toBe(mod().HEAPU8.buffer);
    expect(s.data.buffer).not.toBe(mod().HEAPU8.buffer);
    const t = tc.tensor(iota(4));
    expect(t.toArray().buffer).not.toBe(mod().HEAPU8.buffer);
    t.dispose();
  });

  it('results of more than a few elements are copies too, of their own type, for every dtype', () => {
    // Beyond 16 elements a result is copied out by the typed-array constructor (execute.js heapCopy).
    const n = 100;
    for (const [ctor, one] of [[Float32Array, 1], [Float64Array, 1], [Int8Array, 1], [Uint8ClampedArray, 1],
      [Int16Array, 1], [Uint32Array, 1], [BigInt64Array, 1n], [BigUint64Array, 1n]]) {
      const data = ctor.from({ length: n }, (_, i) => (typeof one === 'bigint' ? BigInt(i % 100) : i % 100));
      const r = tc.add({ data, shape: [n] }, one);
      expect(r.data.constructor).toBe(ctor);
      expect(r.data.buffer).not.toBe(mod().HEAPU8.buffer);
      expect(r.data.byteOffset).toBe(0);
      expect(r.data.buffer.byteLength).toBe(n * ctor.BYTES_PER_ELEMENT);
      const want = Array.from(data, (v) => v + one);
      expect(Array.from(r.data)).toEqual(want);
      const t = tc.tensor(data, [n]);
      const a = t.toArray();
      expect(a.constructor).toBe(ctor);
      expect(a.buffer).not.toBe(mod().HEAPU8.buffer);
      a[0] = a[1]; // the copy is the caller's: the tensor keeps its values
      expect(t.toArray()[0]).toBe(data[0]);
      t.dispose();
      // memory growth after the call leaves the result as it was
      const big = tc.tensor(new Float64Array(1 << 21), [1 << 21]);
      expect(Array.from(r.data)).toEqual(want);
      big.dispose();
      tc.releaseScratch?.();
    }
  });
});

// ---- memory -------------------------------------------------------------------------------------

describe('memory', () => {
  it('100k mixed calls — successes and failures, every rule, tensors made and disposed — leave nothing behind', () => {
    const a = T([4, 1, 3]);
    const b = T([5, 1]);
    const i32 = T([3, 4], Int32Array);
    const bad = T([4]);
    // Operands are built once: the loop measures the engine, not iota().
    const [t234, t31, t3, t21, t23, t51u8, t2, t3b, t1, t3i, t5x23] = [T([2, 3, 4]), T([3, 1]), T([3]), T([2, 1]), T([2, 3]),
      T([5, 1], Uint8Array), T([2]), T([3]), T([1]), T([3], Int32Array), { data: iota(5), shape: [2, 3] }];
    const [w1, w2] = [T([1, 65536], Float64Array), T([65536, 1], Float64Array)];
    const out12 = new Float32Array(12);
    const kinds = [
      () => tc.add(a, b),
      () => tc.mul(a, 2.5, { out: out12 }),
      () => tc.add(t234, t31, { broadcast: { type: 'pdpd', axis: 1 } }),
      () => tc.sub(i32, i32, { broadcast: { type: 'none' } }),
      () => tc.less(a, b),
      () => tc.bitwiseXor(i32, 7),
      () => tc.broadcastTo(b, [2, -1, 3]),
      () => tc.broadcastTo(t3, [2, 3, 4], { mode: 'explicit', axesMapping: [1] }),
      () => tc.broadcastTo(t21, [3], { mode: 'bidirectional' }),
      () => tc.broadcastTo(t3, [2, 3], { mode: 'pdpd', axis: 1 }),
      () => tc.where(t51u8, a, 0),
      () => tc.add({ ...t2, dims: ['x'] }, { ...t3b, dims: ['y'] }),
      () => tc.add({ ...t2, dims: ['x'], coords: { x: ['p', 'q'] } }, { ...t1, dims: ['x'], coords: { x: ['q'] } }, { shaping: 'union' }),
      () => tc.broadcastShapes([8, 1, 6, 1], [7, 1, 5]),
      () => tc.autoBroadcastShape([2, '?', 4], ['1..3', 4], { type: 'numpy' }),
      () => tc.broadcastToShape([3, 1], [-1, 5]),
      () => tc.namedBroadcastShape({ dims: ['a'], shape: [2] }, { dims: ['b'], shape: [3] }),
      () => tc.explain({ rule: 'pdpd', shapes: [[2, 3, 4], [3]], axis: 1 }),
      // failures
      () => tc.add(a, bad),
      () => tc.add(a, t3i),
      () => tc.add(t5x23, a),
      () => tc.broadcastTo(a, [4, 1]),
      () => tc.broadcastTo(t23, [2, 3, 4], { mode: 'explicit', axesMapping: [1, 0] }),
      () => tc.add(w1, w2),
      () => tc.broadcastShapes([3], [4]),
      () => tc.broadcastToShape([2, 3], [-1, 2, 3]),
      () => tc.autoBroadcastShape([2, 3], [3], { type: 'none' }),
      () => tc.namedBroadcastShape({ dims: ['x', 'x'] }, { dims: [] }),
      // resident tensors
      () => { const t = tc.tensor(iota(12), [4, 1, 3]); const u = tc.add(t, b); const v = tc.mul(u, u); v.dispose(); u.dispose(); t.dispose(); },
      () => { const t = tc.tensor(iota(3)); try { tc.add(t, bad); } finally { t.dispose(); } },
      () => { const t = tc.tensor(iota(3)); t.dispose(); t.dispose(); },
      () => { const t = tc.tensor(Uint8Array.of(1, 0, 1)); const w = tc.where(t, t23, 0); w.dispose(); t.dispose(); },
    ];
    const once = () => { for (const k of kinds) { try { k(); } catch { /* failures are part of the mix */ } } };
    once(); // warm: scratch buffers and plan caches reach their working size
    const base = tc.memory();
    const heap = base.wasmHeapBytes;
    let calls = 0;
    let failures = 0;
    let x = 12345;
    while (calls < 100_000) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      try { kinds[(x >>> 16) % kinds.length](); } catch (e) {
        failures++;
        if (!(e instanceof tc.BroadcastError) && !(e instanceof TypeError)) throw e;
      }
      calls++;
    }
    const m = tc.memory();
    expect(failures).toBeGreaterThan(20_000);
    expect(m.liveTensors).toBe(base.liveTensors);
    expect(m.allocatedBytes).toBe(base.allocatedBytes);
    expect(m.scratchBytes).toBe(base.scratchBytes);
    expect(m.wasmHeapBytes).toBe(heap);
    SANITY();
  });

  it('memory grows in the middle of a chain of ops: every result stays right', () => {
    const n = 257;
    const x = Float64Array.from({ length: n }, (_, i) => i / 4);
    const t0 = tc.tensor(x, [n]);
    let cur = tc.tensor(x, [1, n]);
    let want = Array.from(x);
    const heap0 = tc.memory().wasmHeapBytes;
    const kept = [];
    for (let step = 0; step < 8; step++) {
      if (step === 3) {
        // An allocation larger than the free heap: memory.grow, every HEAP view replaced.
        kept.push(tc.tensor(new Float64Array(heap0 / 8 + 4096)));
      }
      if (step === 5) {
        // A plain-operand call whose scratch slots must grow too.
        const big = new Float64Array(heap0 / 4);
        big[big.length - 1] = 3;
        const r = tc.add({ data: big }, 1);
        expect(r.data[big.length - 1]).toBe(4);
        expect(r.data[0]).toBe(1);
      }
      const next = step % 2 ? tc.mul(cur, t0) : tc.add(cur, { data: Float64Array.of(step), shape: [1, 1] });
      want = want.map((v, i) => (step % 2 ? v * x[i] : v + step));
      cur.dispose();
      cur = next;
      expect(Array.from(cur.toArray())).toEqual(want);
      expect(Array.from(t0.toArray())).toEqual(Array.from(x));
    }
    expect(tc.memory().wasmHeapBytes).toBeGreaterThan(heap0);
    for (const t of [cur, t0, ...kept]) t.dispose();
    SANITY();
  });
});

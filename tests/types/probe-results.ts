// Type probe that also runs: each call's declared result type (`same<>`, checked
// by tsc like every probe here) and what the call returns at run time
// (`results()`, run by tests/js/type-results.test.js against dist/) are
// compared with one expectation, written once: `Tensor float32`, or the data's
// constructor and dtype (`Float32Array float32`), or both parts of topk's pair.
// A call the runtime takes must compile, and give the type it is declared to.
import {
  add, less, neg, sqrt, exp, atan2, cast, sum, mean, argmax, softmax, logSumExp, topk, unbroadcast, where, broadcastTo,
  reshape, transpose, expandDims, concat, evaluate, tensor, Tensor,
  stack, logSoftmax, argmin, flip, squeeze, slice, broadcastArrays, autoBroadcastShape, broadcastToShape, namedBroadcastShape, reductionAxes, explain,
} from 'tensorcast';
import type { TensorData, DataOf, DType, View, Reshaped, OrtTensorLike, Float16View } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

/** What a result is at run time, in the expectations' words. */
function kind(v: unknown): string {
  if (v instanceof Tensor) return `Tensor ${v.dtype}`;
  if (typeof v !== 'object' || v === null) return typeof v;
  if ('values' in v && 'indices' in v) return `{ values: ${kind(v.values)}, indices: ${kind(v.indices)} }`;
  if ('data' in v) {
    const d = v as { data: { constructor: { name: string } }; dtype?: string; dims?: unknown[] };
    // float16 data is the runtime's Float16Array, or its bits in a Uint16Array (Node 20): Float16Data either way.
    const array = d.dtype === 'float16' && /^(Float16|Uint16)Array$/.test(d.data.constructor.name) ? 'Float16Data' : d.data.constructor.name;
    return `${array} ${d.dtype ?? '-'}${d.dims ? ` dims ${d.dims.join(',')}` : ''}`;
  }
  return 'object';
}

const f32 = () => ({ data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] });
const i32 = () => ({ data: Int32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] });
const named = () => ({ data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['a', 'b'] });
const h16 = () => ({ data: new Uint16Array(6), shape: [2, 3], dtype: 'float16' as const });
const ort16 = () => ({ type: 'float16' as const, dims: [2, 3], data: new Uint16Array(6) });
const resident = () => tensor(Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3]);
type F32 = ReturnType<typeof f32>['data']; // Float32Array<ArrayBuffer> where the lib's typed arrays are generic
type Pair<V, I> = { values: V; indices: I };

/** Run every call; each result its kind does not match is a line of the answer. */
export function results(untyped: OrtTensorLike): string[] {
  const bad: string[] = [];
  const is = (what: string, v: unknown, want: string): void => {
    const got = kind(v);
    if (got !== want) bad.push(`${what}: the types say ${want}, it returns ${got}`);
  };
  // A call that does not compile (its line's @ts-expect-error) must throw at run time.
  const refuses = (what: string, call: () => unknown): void => {
    try {
      bad.push(`${what}: does not compile, and returns ${kind(call())}`);
    } catch {
      // refused at run time too
    }
  };

  // Typical calls: plain in, plain out of its dtype; resident in, resident out; a typed `out`, data over it.
  const a1 = add(f32(), 1); same<typeof a1, TensorData<Float32Array>>(true); is('add(f32, 1)', a1, 'Float32Array float32');
  const a2 = add(resident(), f32()); same<typeof a2, Tensor<'float32'>>(true); is('add(tensor, f32)', a2, 'Tensor float32');
  const a3 = add(resident(), 1, { out: new Float32Array(6) }); same<typeof a3, DataOf<'float32'>>(true); is('add(tensor, 1, { out: array })', a3, 'Float32Array float32');
  const a4 = less(i32(), 3); same<typeof a4, TensorData<Uint8Array>>(true); is('less(i32, 3)', a4, 'Uint8Array uint8');
  const a5 = add(named(), named()); same<typeof a5, TensorData<Float32Array>>(true); is('add(named, named)', a5, 'Float32Array float32 dims a,b');
  const u1 = neg(h16()); same<typeof u1, DataOf<'float16'>>(true); is('neg(float16 bits)', u1, 'Float16Data float16');
  const u2 = sqrt(resident()); same<typeof u2, Tensor<'float32'>>(true); is('sqrt(tensor)', u2, 'Tensor float32');
  const c1 = cast(i32(), 'float64'); same<typeof c1, DataOf<'float64'>>(true); is("cast(i32, 'float64')", c1, 'Float64Array float64');
  const r1 = sum(i32(), { axes: 1 }); same<typeof r1, DataOf<'int32'>>(true); is('sum(i32)', r1, 'Int32Array int32');
  const r2 = mean(i32()); same<typeof r2, DataOf<'float64'>>(true); is('mean(i32)', r2, 'Float64Array float64');
  const r3 = sum(named(), { dims: 'a' }); same<typeof r3, DataOf<'float32'>>(true); is("sum(named, { dims: 'a' })", r3, 'Float32Array float32 dims b');
  const r4 = sum(f32(), { out: tensor(new Float32Array(1)) }); same<typeof r4, Tensor<'float32'>>(true); is('sum(f32, { out: tensor })', r4, 'Tensor float32');
  const p1 = argmax(f32(), 1); same<typeof p1, TensorData<Int32Array>>(true); is('argmax(f32, 1)', p1, 'Int32Array int32');
  const p2 = softmax(resident()); same<typeof p2, Tensor<'float32'>>(true); is('softmax(tensor)', p2, 'Tensor float32');
  const p3 = logSumExp(h16(), -1); same<typeof p3, DataOf<'float16'>>(true); is('logSumExp(float16 bits)', p3, 'Float16Data float16');
  const w1 = where({ data: Uint8Array.of(1, 0, 1) }, f32(), 0); same<typeof w1, DataOf<'float32'>>(true); is('where(cond, f32, 0)', w1, 'Float32Array float32');
  const b1 = broadcastTo(resident(), [2, 2, 3]); same<typeof b1, Tensor<'float32'>>(true); is('broadcastTo(tensor)', b1, 'Tensor float32');
  const l1 = transpose(f32()); same<typeof l1, View<F32>>(true); is('transpose(f32)', l1, 'Float32Array -');
  const l2 = reshape(h16(), [6]); same<typeof l2.dtype, 'float16'>(true); is('reshape(float16 bits)', l2, 'Float16Data float16');
  const l3 = concat([f32(), f32()]); same<typeof l3, Reshaped<F32>>(true); is('concat([f32, f32])', l3, 'Float32Array -');
  const e1 = evaluate('x * 2 + y', { x: f32(), y: f32() }); same<typeof e1, TensorData<Float32Array>>(true); is('evaluate(f32)', e1, 'Float32Array float32');
  const e2 = evaluate('x < 2', { x: resident() }); same<typeof e2, Tensor<'uint8'>>(true); is('evaluate(x < 2, tensor)', e2, 'Tensor uint8');

  // topk: each of values and indices is a Tensor when its `out` is one (until 0.9.25 plain data
  // with both outs resident did not compile, float16 bits with a resident out did not compile or
  // typed their values uint16, and onnxruntime's untyped Tensor took no resident out).
  const k1 = topk(f32(), 2, { out: { values: tensor(new Float32Array(4)), indices: tensor(new Int32Array(4)) } });
  same<typeof k1, Pair<Tensor<'float32'>, Tensor<'int32'>>>(true); is('topk(f32, both outs resident)', k1, '{ values: Tensor float32, indices: Tensor int32 }');
  const k2 = topk(h16(), 2, { out: { indices: tensor(new Int32Array(4)) } });
  same<typeof k2, Pair<DataOf<'float16'>, Tensor<'int32'>>>(true); is('topk(float16 bits, indices out resident)', k2, '{ values: Float16Data float16, indices: Tensor int32 }');
  const k3 = topk(ort16(), 2, { out: { values: tensor(new Uint16Array(4), [4], { dtype: 'float16' }) } });
  same<typeof k3, Pair<Tensor<'float16'>, TensorData<Int32Array>>>(true); is('topk(ort float16, values out resident)', k3, '{ values: Tensor float16, indices: Int32Array int32 }');
  const k4 = topk(h16(), 2, { out: { values: tensor(new Uint16Array(4), [4], { dtype: 'float16' }), indices: tensor(new Int32Array(4)) } });
  same<typeof k4, Pair<Tensor<'float16'>, Tensor<'int32'>>>(true); is('topk(float16 bits, both outs resident)', k4, '{ values: Tensor float16, indices: Tensor int32 }');
  const k5 = topk(untyped, 2, { out: { indices: tensor(new Int32Array(4)) } });
  same<typeof k5, Pair<TensorData, Tensor<'int32'>>>(true); is('topk(ort untyped, indices out resident)', k5, '{ values: Float32Array float32, indices: Tensor int32 }');
  const k6 = topk(untyped, 2, { out: { values: tensor(new Float32Array(4)) } });
  same<typeof k6, Pair<Tensor, TensorData<Int32Array>>>(true); is('topk(ort untyped, values out resident)', k6, '{ values: Tensor float32, indices: Int32Array int32 }');
  const k7 = topk(untyped, 2);
  same<typeof k7, Pair<TensorData, TensorData<Int32Array>>>(true); is('topk(ort untyped)', k7, '{ values: Float32Array float32, indices: Int32Array int32 }');
  const k8 = topk(resident(), 2, { out: { values: new Float32Array(4) } });
  same<typeof k8, Pair<DataOf<'float32'>, Tensor<'int32'>>>(true); is('topk(tensor, values out array)', k8, '{ values: Float32Array float32, indices: Tensor int32 }');

  // unbroadcast of a named gradient into a resident out: that tensor (until 0.9.25 plain data and float16 bits did not compile).
  const g1 = unbroadcast(named(), { dims: ['b'], shape: [3] }, { out: tensor(new Float32Array(3)) });
  same<typeof g1, Tensor<'float32'>>(true); is('unbroadcast(named, named input, { out: tensor })', g1, 'Tensor float32');
  const g2 = unbroadcast({ ...h16(), dims: ['a', 'b'] }, { dims: ['b'], shape: [3] }, { out: tensor(new Uint16Array(3), [3], { dtype: 'float16' }) });
  same<typeof g2, Tensor<'float16'>>(true); is('unbroadcast(named float16 bits, { out: tensor })', g2, 'Tensor float16');
  const g3 = unbroadcast(named(), { dims: ['b'], shape: [3] }, { dtype: 'float64', out: tensor(new Float64Array(3)) });
  same<typeof g3, Tensor<'float64'>>(true); is("unbroadcast(named, { dtype: 'float64', out: tensor })", g3, 'Tensor float64');
  const g4 = unbroadcast(named(), { dims: ['b'], shape: [3] });
  same<typeof g4, DataOf<'float32'>>(true); is('unbroadcast(named, named input)', g4, 'Float32Array float32 dims b');

  // where with onnxruntime's untyped Tensor as the condition (until 0.9.25 plain a and b did not compile).
  const w2 = where(untyped, f32(), f32()); same<typeof w2, DataOf<'float32'>>(true); is('where(ort untyped, f32, f32)', w2, 'Float32Array float32');
  const w3 = where(untyped, f32(), 0, { out: tensor(new Float32Array(6)) }); same<typeof w3, Tensor<'float32'>>(true); is('where(ort untyped, f32, 0, { out: tensor })', w3, 'Tensor float32');
  const w4 = where(untyped, h16(), 0); same<typeof w4, DataOf<'float16'>>(true); is('where(ort untyped, float16 bits, 0)', w4, 'Float16Data float16');

  // onnxruntime's untyped Tensor beside a resident one, into a typed-array out: data over it (until 0.9.25 typed a Tensor).
  const o1 = add(untyped, resident(), { out: new Float32Array(6) }); same<typeof o1, TensorData>(true); is('add(ort untyped, tensor, { out: array })', o1, 'Float32Array float32');
  const o2 = less(resident(), untyped, { out: new Uint8Array(6) }); same<typeof o2, DataOf<'uint8'>>(true); is('less(tensor, ort untyped, { out: array })', o2, 'Uint8Array uint8');
  const o3 = add(untyped, resident()); same<typeof o3, Tensor>(true); is('add(ort untyped, tensor)', o3, 'Tensor float32');

  // uint16 data into a float-only op is DTYPE_MISMATCH; under a lib without Float16Array (Float16Data is a
  // Uint16Array) it compiled until 0.9.25, typed as uint16 data. float16 bits say so: dtype 'float16'.
  const u16 = () => ({ data: new Uint16Array(6), shape: [2, 3] });
  // @ts-expect-error uint16 data into sqrt
  refuses('sqrt(uint16 data)', () => sqrt(u16()));
  // @ts-expect-error uint16 data into exp, into a resident out
  refuses('exp(uint16 data, { out: tensor })', () => exp(u16(), { out: tensor(new Uint16Array(6)) }));
  // @ts-expect-error uint16 data into atan2
  refuses('atan2(uint16 data, 1)', () => atan2(u16(), 1));
  // @ts-expect-error uint16 data into softmax
  refuses('softmax(uint16 data)', () => softmax(u16()));
  // @ts-expect-error uint16 data into logSumExp
  refuses('logSumExp(uint16 data)', () => logSumExp(u16()));
  // @ts-expect-error an ort 'uint16' tensor into sqrt
  refuses("sqrt(ort 'uint16')", () => sqrt({ type: 'uint16' as const, dims: [2], data: new Uint16Array(2) }));
  const s1 = sqrt(h16()); same<typeof s1, DataOf<'float16'>>(true); is('sqrt(float16 bits)', s1, 'Float16Data float16');
  const s2 = softmax(ort16()); same<typeof s2, DataOf<'float16'>>(true); is('softmax(ort float16)', s2, 'Float16Data float16');
  const s3 = neg(u16()); same<typeof s3, DataOf<'uint16'>>(true); is('neg(uint16 data)', s3, 'Uint16Array uint16');

  // expandDims names one new axis with the name alone, as stack does (until 0.9.25 only a list compiled).
  const x1 = expandDims(named(), 0, { dims: 'n' }); same<typeof x1, View<F32>>(true); is("expandDims(named, 0, { dims: 'n' })", x1, 'Float32Array - dims n,a,b');
  const x2 = tensor(new Float32Array(6), [2, 3], { dims: ['a', 'b'] }).expandDims(-1, { dims: 'n' }); same<typeof x2, Tensor<'float32'>>(true); is("t.expandDims(-1, { dims: 'n' })", x2, 'Tensor float32');
  // null for an axis, an axis list or a rule's option is its default, as undefined (README, §8's table):
  // the runtime takes it in every call below, and until 0.9.27 none of them compiled.
  const n1 = concat([f32(), f32()], null); same<typeof n1, Reshaped<F32>>(true); is('concat([f32, f32], null)', n1, 'Float32Array -');
  const n2 = stack([resident(), resident()], null); same<typeof n2, Tensor<'float32'>>(true); is('stack([tensor, tensor], null)', n2, 'Tensor float32');
  const n3 = softmax(f32(), null); same<typeof n3, DataOf<'float32'>>(true); is('softmax(f32, null)', n3, 'Float32Array float32');
  const n4 = logSoftmax(resident(), null, {}); same<typeof n4, Tensor<'float32'>>(true); is('logSoftmax(tensor, null)', n4, 'Tensor float32');
  const n5 = logSumExp(f32(), null, { keepdims: true }); same<typeof n5, DataOf<'float32'>>(true); is('logSumExp(f32, null)', n5, 'Float32Array float32');
  const n6 = argmax(f32(), null); same<typeof n6, TensorData<Int32Array>>(true); is('argmax(f32, null)', n6, 'Int32Array int32');
  const n7 = argmin(resident(), null, { keepdims: true }); same<typeof n7, Tensor<'int32'>>(true); is('argmin(tensor, null)', n7, 'Tensor int32');
  const n8 = topk(f32(), 1, { axis: null }); same<typeof n8, Pair<DataOf<'float32'>, TensorData<Int32Array>>>(true);
  is('topk(f32, 1, { axis: null })', n8, '{ values: Float32Array float32, indices: Int32Array int32 }');
  const n9 = topk(resident(), 1, { axis: null }); same<typeof n9, Pair<Tensor<'float32'>, Tensor<'int32'>>>(true);
  is('topk(tensor, 1, { axis: null })', n9, '{ values: Tensor float32, indices: Tensor int32 }');
  const n10 = transpose(named(), null); same<typeof n10, View<F32>>(true); is('transpose(named, null)', n10, 'Float32Array - dims b,a');
  const n11 = flip(resident(), null); same<typeof n11, Tensor<'float32'>>(true); is('flip(tensor, null)', n11, 'Tensor float32');
  const n12 = squeeze({ ...h16(), shape: [1, 6] }, null); same<typeof n12, Float16View>(true); is('squeeze(float16 bits, null)', n12, 'Float16Data float16');
  const n13 = resident().transpose(null).flip(null).squeeze(null); same<typeof n13, Tensor<'float32'>>(true); is('t.transpose(null).flip(null).squeeze(null)', n13, 'Tensor float32');
  const n14 = sum(f32(), { axes: null }); same<typeof n14, DataOf<'float32'>>(true); is('sum(f32, { axes: null })', n14, 'Float32Array float32');
  const n15 = mean(named(), { dims: null, keepdims: false }); same<typeof n15, DataOf<'float32'>>(true); is('mean(named, { dims: null })', n15, 'Float32Array float32');
  const row = () => ({ data: Float32Array.of(1, 2, 3) });
  const n16 = add(f32(), row(), { broadcast: { type: 'pdpd', axis: null } }); same<typeof n16, TensorData<Float32Array>>(true);
  is("add(f32, row, { broadcast: { type: 'pdpd', axis: null } })", n16, 'Float32Array float32');
  const n17 = add(named(), named(), { shaping: null }); same<typeof n17, TensorData<Float32Array>>(true);
  is('add(named, named, { shaping: null })', n17, 'Float32Array float32 dims a,b');
  const n18 = evaluate('x + y', { x: f32(), y: row() }, { broadcast: { type: 'pdpd', axis: null } });
  same<typeof n18, TensorData<Float32Array>>(true); is('evaluate(x + y, { broadcast: { axis: null } })', n18, 'Float32Array float32');
  const n19 = broadcastTo(row(), [2, 3], { mode: null, axis: null }); same<typeof n19, DataOf<'float32'>>(true); is('broadcastTo(row, { mode: null })', n19, 'Float32Array float32');
  const n20 = unbroadcast(f32(), [3], { type: 'pdpd', axis: null }); same<typeof n20, DataOf<'float32'>>(true); is('unbroadcast(f32, [3], { axis: null })', n20, 'Float32Array float32');
  const n21 = unbroadcast(resident(), [3], { type: null }); same<typeof n21, Tensor<'float32'>>(true); is('unbroadcast(tensor, [3], { type: null })', n21, 'Tensor float32');
  const shapes: [string, unknown, string][] = [
    ['autoBroadcastShape', autoBroadcastShape([2, 3], [3], { type: null, axis: null }), '[2,3]'],
    ['broadcastToShape', broadcastToShape([3], [2, 3], { mode: null, axis: null }), '[2,3]'],
    ['namedBroadcastShape', namedBroadcastShape({ dims: ['a'], shape: [2] }, { dims: ['b'], shape: [3] }, { shaping: null }).shape, '[2,3]'],
    ['reductionAxes', reductionAxes([3], [2, 3], { type: 'pdpd', axis: null }), '[0]'],
    ['explain', explain({ rule: null, shapes: [[2, 3], [3]], axis: null, mode: null, shaping: null }).shape, '[2,3]'],
    ['explain(expression)', explain({ expression: 'x + y', shapes: { x: [2, 3], y: [3] }, broadcast: { type: 'pdpd', axis: null } }).shape, '[2,3]'],
  ];
  for (const [what, got, want] of shapes) if (JSON.stringify(got) !== want) bad.push(`${what} with null options: ${JSON.stringify(got)}, not ${want}`);
  // An option left undefined, as a caller's own optional parameter passes it on (`{ keepdims }` of
  // `keepdims?: boolean`): the runtime reads it as left out. Until 0.9.27 none of these compiled
  // under exactOptionalPropertyTypes, which tells `keepdims?: boolean` from `keepdims?: boolean | undefined`.
  const opt = <T,>(v: T): T | undefined => (v === null ? undefined : undefined);
  const v1 = argmax(f32(), opt(1), { keepdims: opt(true) }); same<typeof v1, TensorData<Int32Array>>(true); is('argmax(f32, undefined, { keepdims: undefined })', v1, 'Int32Array int32');
  const v2 = sum(resident(), { axes: opt(0), keepdims: opt(true), dtype: opt('float32' as const) }); same<typeof v2, Tensor<'float32'>>(true); is('sum(tensor, { axes: undefined })', v2, 'Tensor float32');
  const v3 = topk(f32(), 1, { axis: opt(-1), largest: opt(true), sorted: opt(true) }); same<typeof v3, Pair<DataOf<'float32'>, TensorData<Int32Array>>>(true);
  is('topk(f32, 1, { axis: undefined })', v3, '{ values: Float32Array float32, indices: Int32Array int32 }');
  const v4 = add({ data: Float32Array.of(1, 2), shape: opt([2]), dims: opt(['a']) }, 1, { out: opt(new Float32Array(2)), broadcast: { type: opt('numpy' as const), axis: opt(0) } });
  same<typeof v4, TensorData<Float32Array>>(true); is('add({ shape: undefined }, 1, { out: undefined })', v4, 'Float32Array float32');
  const v5 = softmax(f32(), undefined, { out: opt(new Float32Array(6)) }); same<typeof v5, DataOf<'float32'>>(true); is('softmax(f32, undefined, { out: undefined })', v5, 'Float32Array float32');
  const v6 = evaluate('x + 1', { x: f32() }, { out: opt(new Float32Array(6)), keepdims: opt(false), broadcast: opt({ type: 'numpy' as const }) });
  same<typeof v6, TensorData<Float32Array>>(true); is('evaluate(x + 1, { out: undefined })', v6, 'Float32Array float32');
  const v7 = broadcastTo(f32(), [2, 2, 3], { mode: opt('numpy' as const), axesMapping: opt([1, 2]), axis: opt(0) }); same<typeof v7, DataOf<'float32'>>(true); is('broadcastTo(f32, { mode: undefined })', v7, 'Float32Array float32');
  const v8 = unbroadcast(f32(), [3], { type: undefined, out: undefined }); same<typeof v8, DataOf<'float32'>>(true); is('unbroadcast(f32, [3], { out: undefined })', v8, 'Float32Array float32');
  const v9 = concat([f32(), f32()], 0, { out: opt(new Float32Array(12)) }); same<typeof v9, Reshaped<F32>>(true); is('concat(f32, 0, { out: undefined })', v9, 'Float32Array -');
  const v10 = expandDims(f32(), 0, { dims: opt('n') }); same<typeof v10, View<F32>>(true); is('expandDims(f32, 0, { dims: undefined })', v10, 'Float32Array -');
  const v11 = tensor(Float32Array.of(1, 2), [2], { dims: opt(['a']), coords: undefined }); same<typeof v11, Tensor<'float32'>>(true); is('tensor(f32, [2], { dims: undefined })', v11, 'Tensor float32');
  const v12 = transpose(f32(), opt([1, 0])).shape; const v13 = reshape(f32(), [6], { dims: opt(['n']) }).shape;
  const v14 = autoBroadcastShape([2, 3], [3], { type: opt('pdpd' as const), axis: opt(1) }); const v15 = explain({ shapes: [[2, 3], [3]], rule: opt('numpy' as const), strides: undefined }).shape;
  const v16 = namedBroadcastShape({ dims: ['a'], shape: [2], coords: undefined }, { dims: ['b'], shape: [3] }, { shaping: opt('exact' as const) }).shape;
  for (const [what, got, want] of [['transpose', v12, '[3,2]'], ['reshape', v13, '[6]'], ['autoBroadcastShape', v14, '[2,3]'], ['explain', v15, '[2,3]'], ['namedBroadcastShape', v16, '[2,3]']] as const) {
    if (JSON.stringify(got) !== want) bad.push(`${what} with undefined options: ${JSON.stringify(got)}, not ${want}`);
  }
  const v17 = slice(f32(), [undefined, undefined, -1]); same<typeof v17, View<F32>>(true); is('slice(f32, [undefined, undefined, -1])', v17, 'Float32Array -');

  // An onnxruntime-like object kept in a variable without `as const`: its `type` widens to string, and
  // the runtime reads it as the ort tensor it is. Until 0.9.28 no op took it; the dtype is its data's.
  const ortLike = () => { const o = { type: 'float32', dims: [2, 3], data: Float32Array.of(1, 2, 3, 4, 5, 6) }; return o; };
  const ol1 = add(ortLike(), ortLike()); same<typeof ol1, DataOf<'float32'>>(true); is('add(ort-like, ort-like)', ol1, 'Float32Array float32');
  const ol2 = neg(ortLike()); same<typeof ol2, DataOf<'float32'>>(true); is('neg(ort-like)', ol2, 'Float32Array float32');
  const ol3 = less(ortLike(), 3); same<typeof ol3, DataOf<'uint8'>>(true); is('less(ort-like, 3)', ol3, 'Uint8Array uint8');
  const ol4 = add(resident(), ortLike()); same<typeof ol4, Tensor<'float32'>>(true); is('add(tensor, ort-like)', ol4, 'Tensor float32');
  const ol5 = evaluate('a * 2', { a: ortLike() }); same<typeof ol5, TensorData<Float32Array>>(true); is('evaluate(a * 2, { a: ort-like })', ol5, 'Float32Array float32');
  const ol6 = sum(ortLike()); same<typeof ol6, DataOf<DType>>(true); is('sum(ort-like)', ol6, 'Float32Array float32');
  const ol7 = transpose(ortLike()); same<typeof ol7, View>(true); is('transpose(ort-like)', ol7, 'Float32Array -');
  const ol8 = concat([ortLike(), f32()]); same<typeof ol8, Tensor | Reshaped>(true); is('concat([ort-like, f32])', ol8, 'Float32Array -');
  const ol9 = broadcastArrays(ortLike(), f32()); same<typeof ol9, [DataOf<'float32'>, DataOf<'float32'>]>(true); is('broadcastArrays(ort-like, f32)[0]', ol9[0], 'Float32Array float32');
  // Its type a string over a Uint16Array: uint16 or float16 bits, which the types cannot tell (until 0.9.28 broadcastArrays said uint16).
  const halfLike = () => { const o = { type: 'float16', dims: [2, 3], data: new Uint16Array(6) }; return o; };
  const ol10 = broadcastArrays(halfLike()); same<typeof ol10, [DataOf<DType>]>(true); is('broadcastArrays(ort-like float16)[0]', ol10[0], 'Float16Data float16');
  const ol11 = add(halfLike(), 1); same<typeof ol11, DataOf<DType>>(true); is('add(ort-like float16, 1)', ol11, 'Float16Data float16');
  // @ts-expect-error a float16 tensor beside uint16 data: DTYPE_MISMATCH (under lib es2022 Float16Data is a Uint16Array; until 0.9.28 it compiled)
  refuses('add(float16 tensor, uint16 data)', () => add(tensor(new Uint16Array(6), [2, 3], { dtype: 'float16' }), { data: new Uint16Array(6), shape: [2, 3] }));
  // @ts-expect-error the same, the uint16 data first
  refuses('where(c, uint16 data, float16 tensor)', () => where(f32(), { data: new Uint16Array(6), shape: [2, 3] }, tensor(new Uint16Array(6), [2, 3], { dtype: 'float16' })));
  // float16 bits into a Uint16Array `out` (a runtime without Float16Array, whatever the lib declares):
  // float16 under lib esnext too, where until 0.9.28 such a call was declared uint16 or did not compile.
  const th16 = () => tensor(new Uint16Array(6), [2, 3], { dtype: 'float16' });
  const hu1 = neg(h16(), { out: new Uint16Array(6) }); same<typeof hu1, DataOf<'float16'>>(true); is('neg(float16 bits, { out: Uint16Array })', hu1, 'Float16Data float16');
  const hu2 = add(h16(), h16(), { out: new Uint16Array(6) }); same<typeof hu2, DataOf<'float16'>>(true); is('add(float16 bits, float16 bits, { out: Uint16Array })', hu2, 'Float16Data float16');
  const hu3 = sum(h16(), { out: new Uint16Array(1) }); same<typeof hu3, DataOf<'float16'>>(true); is('sum(float16 bits, { out: Uint16Array })', hu3, 'Float16Data float16');
  const hu4 = add(th16(), h16(), { out: new Uint16Array(6) }); same<typeof hu4, DataOf<'float16'>>(true); is('add(float16 tensor, float16 bits, { out: Uint16Array })', hu4, 'Float16Data float16');
  const hu5 = where(f32(), h16(), h16(), { out: new Uint16Array(6) }); same<typeof hu5, DataOf<'float16'>>(true); is('where(c, float16 bits, float16 bits, { out: Uint16Array })', hu5, 'Float16Data float16');
  const hu6 = broadcastTo(h16(), [2, 2, 3], { out: new Uint16Array(12) }); same<typeof hu6, DataOf<'float16'>>(true); is('broadcastTo(float16 bits, { out: Uint16Array })', hu6, 'Float16Data float16');
  const hu7 = sqrt(th16(), { out: new Uint16Array(6) }); same<typeof hu7, DataOf<'float16'>>(true); is('sqrt(float16 tensor, { out: Uint16Array })', hu7, 'Float16Data float16');
  return bad;
}

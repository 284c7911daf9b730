// Type probe of onnxruntime interop (issue 38): an onnxruntime-web / -node
// Tensor is an operand, and evaluate / compile().run results narrow like the
// ops' do, so a result's data goes back into `new ort.Tensor(type, data, dims)`
// under strict. Compiled like probe.ts (scripts/pack-smoke.mjs); every
// `@ts-expect-error` line must not compile. `ort` below declares what
// onnxruntime-common declares (Tensor, TypedTensor, DataTypeMap), so the probe
// needs no onnxruntime package.
import {
  evaluate, compile, add, sub, mul, less, neg, exp, where, unbroadcast, tensor, Tensor, softmax, logSoftmax, logSumExp, argmax, argmin, topk,
  cast, sum, mean, transpose, slice, flip, squeeze, expandDims, reshape, contiguous, concat, stack, broadcastTo, broadcastArrays,
} from 'tensorcast';
import type { TensorData, EvaluateResult, OrtTensorLike, Float16Data, FloatDType, View, Reshaped } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

declare namespace ort {
  type Type = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float16' | 'float32' | 'float64' | 'string' | 'bool' | 'uint64' | 'int64' | 'int4' | 'uint4';
  interface DataTypeMap {
    float32: Float32Array; uint8: Uint8Array; int8: Int8Array; uint16: Uint16Array; int16: Int16Array; int32: Int32Array;
    int64: BigInt64Array; string: string[]; bool: Uint8Array; float16: Uint16Array; float64: Float64Array; uint32: Uint32Array;
    uint64: BigUint64Array; int4: Int8Array; uint4: Uint8Array;
  }
  type DataLocation = 'none' | 'cpu' | 'cpu-pinned' | 'texture' | 'gpu-buffer' | 'ml-tensor';
  interface TypedTensorBase<T extends Type> {
    readonly dims: readonly number[];
    readonly type: T;
    readonly data: DataTypeMap[T];
    readonly location: DataLocation;
    getData(releaseData?: boolean): Promise<DataTypeMap[T]>;
    dispose(): void;
  }
  interface TypedTensorUtils<T extends Type> {
    readonly size: number;
    reshape(dims: readonly number[]): TypedTensor<T>;
  }
  interface TypedTensor<T extends Type> extends TypedTensorBase<T>, TypedTensorUtils<T> {}
  interface Tensor extends TypedTensorBase<Type>, TypedTensorUtils<Type> {}
  interface TensorConstructor {
    new (type: 'float32', data: Float32Array | readonly number[], dims?: readonly number[]): TypedTensor<'float32'>;
    new (type: 'int32', data: Int32Array | readonly number[], dims?: readonly number[]): TypedTensor<'int32'>;
    new (type: 'int64', data: BigInt64Array | readonly bigint[], dims?: readonly number[]): TypedTensor<'int64'>;
    new (type: 'float16', data: Uint16Array, dims?: readonly number[]): TypedTensor<'float16'>;
    new (type: 'bool', data: Uint8Array | readonly boolean[], dims?: readonly number[]): TypedTensor<'bool'>;
  }
}
declare const OrtTensor: ort.TensorConstructor;

export function ortInterop(x: Float32Array, m: Float32Array, s: Float32Array, dims: readonly number[], i: Int32Array, t: Tensor<'float32'>, out: ort.Tensor): void {
  // The line: a result's data back into an ort Tensor, under strict.
  const r = evaluate('(x - m) / s', { x: { data: x, shape: dims }, m: { data: m }, s: { data: s } });
  same<typeof r, TensorData<Float32Array>>(true);
  const back: ort.TypedTensor<'float32'> = new OrtTensor('float32', evaluate('(x - m) / s', { x: { data: x }, m: { data: m }, s: { data: s } }).data, dims);
  const norm = compile('(x - m) / s');
  const viaRun = new OrtTensor('float32', norm.run({ x: { data: x }, m: { data: m }, s: 2 }).data, dims);

  // ort tensors are operands: the result's dtype is their type's.
  const ox = new OrtTensor('float32', x, [2, 3]);
  const om = new OrtTensor('float32', m, [3]);
  const viaOrt = evaluate('(x - m) / s', { x: ox, m: om, s: 2 });
  same<typeof viaOrt, TensorData<Float32Array>>(true);
  new OrtTensor('float32', compile('x * m').run({ x: ox, m: om }).data, ox.dims);
  const bigs = evaluate('x * 2n', { x: new OrtTensor('int64', new BigInt64Array(2), [2]) });
  same<typeof bigs.data, BigInt64Array>(true);
  const bools = evaluate('x & y', { x: new OrtTensor('bool', new Uint8Array(2), [2]), y: { data: new Uint8Array(2) } });
  same<typeof bools.data, Uint8Array>(true);
  const halves = evaluate('x + x', { x: new OrtTensor('float16', new Uint16Array(2), [2]) });
  same<typeof halves.data, Float16Data>(true);
  // A typed float16 ort tensor is float16 in every data call, as it is read (until 0.9.19 uint16, mean float64).
  const o16 = new OrtTensor('float16', new Uint16Array(6), [2, 3]);
  const h1 = add(o16, 1);
  same<typeof h1.dtype, 'float16'>(true);
  const h2 = neg(o16);
  same<typeof h2.dtype, 'float16'>(true);
  const h3 = mean(o16);
  same<typeof h3.dtype, 'float16'>(true);
  const h4 = sum(o16);
  same<typeof h4.dtype, 'float16'>(true);
  const h5 = softmax(o16);
  same<typeof h5.dtype, 'float16'>(true);
  const h6 = logSumExp(o16);
  same<typeof h6.dtype, 'float16'>(true);
  const h7 = topk(o16, 1).values;
  same<typeof h7.dtype, 'float16'>(true);
  const h8 = add(transpose(o16), 1);
  same<typeof h8.dtype, 'float16'>(true);
  const h9 = mean(concat([o16, o16]));
  same<typeof h9.dtype, 'float16'>(true);
  const h10 = where({ data: new Uint8Array(6), shape: [2, 3] }, o16, 0);
  same<typeof h10.dtype, 'float16'>(true);
  const h11 = broadcastTo(o16, [2, 2, 3]);
  same<typeof h11.dtype, 'float16'>(true);
  const h12 = cast(o16, 'float32');
  same<typeof h12.dtype, 'float32'>(true);
  // ort's untyped Tensor (a session's outputs) is an operand too; its dtype is not known.
  const anyType = evaluate('x + 1', { x: out });
  same<typeof anyType, TensorData>(true);
  const asOperand: OrtTensorLike = ox;
  // The ops take ort's typed tensors ({ data, dims } read as data with dims: the structural TensorLike).
  const added = add(ox, 1);
  same<typeof added, TensorData<Float32Array>>(true);
  const picked = where(new OrtTensor('bool', new Uint8Array(6), [2, 3]), { data: x }, 0);
  same<typeof picked, TensorData<Float32Array>>(true);
  unbroadcast({ data: x, shape: [2, 3] }, om);
  // tensor() copies an ort tensor in: shape its dims, dtype its type's.
  const resident = tensor(ox);
  same<typeof resident, Tensor<'float32'>>(true);
  const residentBig = tensor(new OrtTensor('int64', new BigInt64Array(4), [2, 2]), [4]);
  same<typeof residentBig, Tensor<'bigint64'>>(true);
  // @ts-expect-error an ort tensor's dtype is its type: no dtype option
  tensor(ox, undefined, { dtype: 'float32' });

  // What the expression's text tells.
  same<EvaluateResult<{ x: { data: Float32Array }; m: { data: Float32Array } }, 'x > m'>, TensorData<Uint8Array>>(true);
  const e1 = compile('less(x, m)').run({ x: { data: x }, m: { data: m } });
  same<typeof e1.data, Uint8Array>(true);
  const e2 = evaluate("cast(x, 'int32') + 1", { x: { data: x } });
  same<typeof e2.data, Int32Array>(true);
  const e3 = evaluate('mean(x)', { x: { data: i } });
  same<typeof e3.data, Float64Array>(true);
  const e4 = evaluate('mean(x, [1])', { x: { data: x } });
  same<typeof e4.data, Float32Array>(true);
  const e5 = evaluate('sum(x * m, [1]) / 2', { x: { data: x }, m: { data: m } });
  same<typeof e5.data, Float32Array>(true);
  const e6 = evaluate('sqrt(abs(x)) ** 2 - floor(m)', { x: { data: x }, m: ox });
  same<typeof e6.data, Float32Array>(true);
  const e7 = evaluate('i & 3 | ~i', { i: { data: i } });
  same<typeof e7.data, Int32Array>(true);
  // A resident operand: a Tensor of that dtype.
  const e8 = evaluate('x * 2 + m', { x: t, m: om });
  same<typeof e8, Tensor<'float32'>>(true);
  // Not told by the text: any dtype.
  const w1 = evaluate('where(x > 0, x, 0)', { x: { data: x } });
  same<typeof w1, TensorData>(true);
  const w2 = evaluate('x > 0 ? x : 0', { x: { data: x } });
  same<typeof w2, TensorData>(true);
  const text: string = '(x - m) / s';
  const w3 = evaluate(text, { x: { data: x }, m: { data: m }, s: 1 });
  same<typeof w3, TensorData>(true);
  const w4 = evaluate('x + m', { x: { data: x }, m: { data: i } });
  same<typeof w4, TensorData>(true);
  const w5 = evaluate('lessons + 1', { lessons: { data: x } });
  same<typeof w5, TensorData>(true);
  // One explicit type argument (the operands) still compiles: the text is then any string.
  const w6 = evaluate<{ x: { data: Float32Array } }>('x + 1', { x: { data: x } });
  same<typeof w6, TensorData>(true);

  // @ts-expect-error a comparison gives uint8 data: not an ort float32 tensor's
  new OrtTensor('float32', evaluate('x > m', { x: { data: x }, m: { data: m } }).data, dims);
  // @ts-expect-error float32 operands give Float32Array data, not Int32Array
  const wrong: Int32Array = evaluate('x + m', { x: ox, m: om }).data;
  // @ts-expect-error an expression's dtype not told by its text is any typed array
  new OrtTensor('float32', evaluate(text, { x: ox, m: om, s: 2 }).data, dims);
  // @ts-expect-error an ort-like operand's data is a typed array (or ort's string[]), not numbers
  evaluate('x', { x: { type: 'float32', dims: [2], data: [1, 2] } });
  void back; void viaRun; void asOperand; void wrong;
}

// ort's untyped Tensor (what session.run() returns) goes into every data call:
// the result's dtype is known at run time only, unless the call tells it
// (cast, comparisons, argmax, a reduction's dtype). A resident operand or out
// still makes the result a Tensor. Typed ort tensors keep their dtype (above).
export function untypedOrt(o: ort.Tensor, x: Float32Array, t: Tensor<'float32'>, i: Tensor<'int32'>): void {
  const p = softmax(o);
  same<typeof p, TensorData<Float32Array | Float64Array | Float16Data, FloatDType>>(true);
  const ls = logSoftmax(o, -1);
  same<typeof ls, TensorData<Float32Array | Float64Array | Float16Data, FloatDType>>(true);
  const lse = logSumExp(o, [-1], { keepdims: true });
  same<typeof lse, TensorData<Float32Array | Float64Array | Float16Data, FloatDType>>(true);
  const label = argmax(o, -1);
  same<typeof label, TensorData<Int32Array>>(true);
  const intoI = argmin(o, 0, { out: i });
  same<typeof intoI, Tensor<'int32'>>(true);
  const best = topk(o, 5);
  same<typeof best.values, TensorData>(true);
  same<typeof best.indices, TensorData<Int32Array>>(true);
  const r1 = add(o, 1); same<typeof r1, TensorData>(true);
  const r2 = add(1, o); same<typeof r2, TensorData>(true);
  const r3 = mul(o, o); same<typeof r3, TensorData>(true);
  const r4 = add(o, t); same<typeof r4, Tensor>(true);
  const r5 = sub(t, o); same<typeof r5, Tensor>(true);
  const r6 = add(o, { data: x }, { out: t }); same<typeof r6, Tensor>(true);
  const r7 = less(o, 0); same<typeof r7, TensorData<Uint8Array>>(true);
  const r8 = exp(o); same<typeof r8, TensorData<Float32Array | Float64Array | Float16Data, FloatDType>>(true);
  const r9 = neg(o, { out: t }); same<typeof r9, Tensor>(true);
  const c1 = cast(o, 'float32'); same<typeof c1, TensorData<Float32Array>>(true);
  const s1 = sum(o); same<typeof s1, TensorData>(true);
  const s2 = sum(o, { axes: [1], dtype: 'float64' }); same<typeof s2, TensorData<Float64Array>>(true);
  const s3 = mean(o, { out: t }); same<typeof s3, Tensor>(true);
  const v1 = transpose(o); same<typeof v1, View>(true);
  const v2 = slice(o, '0, ::-1'); same<typeof v2, View>(true);
  const v3 = flip(o); same<typeof v3, View>(true);
  const v4 = squeeze(o); same<typeof v4, View>(true);
  const v5 = expandDims(o, 0); same<typeof v5, View>(true);
  const m1 = reshape(o, [-1]); same<typeof m1, Reshaped>(true);
  const m2 = contiguous(o); same<typeof m2, Reshaped>(true);
  const m3 = contiguous(o, { out: t }); same<typeof m3, Tensor>(true);
  const m4 = concat([o, o], 0); same<typeof m4, Tensor | Reshaped>(true);
  const m5 = stack([o, { data: x }]); same<typeof m5, Tensor | Reshaped>(true);
  const b1 = broadcastTo(o, [4, 2, 3]); same<typeof b1, TensorData>(true);
  const w1 = where(o, o, 0); same<typeof w1, TensorData>(true);
  const w2 = where({ data: x }, 0, o); same<typeof w2, TensorData>(true);
  const w3 = where(o, o, t); same<typeof w3, Tensor>(true);
  const w4 = where(i, o, 0); same<typeof w4, Tensor>(true);
  const u1 = unbroadcast(o, [1, 3]); same<typeof u1, TensorData>(true);
  const ba = broadcastArrays(o, { data: x }, t); same<typeof ba, [TensorData, TensorData<Float32Array>, Tensor<'float32'>]>(true);
  // Typed calls still take their own overloads: dtypes told and checked.
  const k1 = softmax({ data: x }); same<typeof k1, TensorData<Float32Array>>(true);
  const k2 = contiguous({ data: x }, { out: t }); same<typeof k2, Tensor<'float32'>>(true);
  const k3 = concat([{ data: x }, t], 0); same<typeof k3, Tensor<'float32'>>(true);
  const k4 = add(t, { data: x }); same<typeof k4, Tensor<'float32'>>(true);
  // @ts-expect-error softmax takes float data
  softmax({ data: new Int32Array(2) });
  // @ts-expect-error operands of one dtype
  add({ data: x }, { data: new Int32Array(2) });
  // @ts-expect-error cast's out is of the dtype cast to
  cast(o, 'int32', { out: x });
}

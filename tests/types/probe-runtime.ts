// Type probe: what the runtime refuses does not compile, and what it takes
// does, with the result it gives (four gaps the types had before 0.9.21, three
// more until 0.9.22: joins of float16 bits and uint16 data, tensor() of an ort
// tensor whose type is not its data's, evaluate's resident out).
// Compiled like probe.ts (scripts/pack-smoke.mjs); every `@ts-expect-error`
// line must not compile.
import { concat, stack, evaluate, compile, add, sum, softmax, transpose, cast, tensor, Tensor } from 'tensorcast';
import type { TensorData, Reshaped, EvaluateOptions, Float16Bits, Float16Copy, OrtTensorLike, TensorLike } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

// concat and stack join one dtype (DTYPE_MISMATCH at run time otherwise).
export function joins(x: Float32Array, i: Int32Array, t: Tensor<'float32'>, ti: Tensor<'int32'>, tw: Tensor, th: Tensor<'float16'>, h: Float16Bits, o: OrtTensorLike): void {
  // @ts-expect-error float32 data and int32 data
  concat([{ data: x }, { data: i }]);
  // @ts-expect-error float32 data and int32 data
  stack([{ data: x }, { data: i }], 0);
  // @ts-expect-error a float32 tensor and int32 data (before 0.9.21 typed Tensor<DType>)
  concat([t, { data: i }]);
  // @ts-expect-error int32 data and a float32 tensor
  stack([{ data: i }, t]);
  // @ts-expect-error tensors of two dtypes
  concat([t, ti]);
  // @ts-expect-error float32 inputs into an Int32Array
  concat([t, t], 0, { out: new Int32Array(4) });
  // @ts-expect-error uint8 and uint8clamped are two dtypes
  concat([{ data: new Uint8Array(2) }, { data: new Uint8ClampedArray(2) }]);
  // @ts-expect-error float32 data and float16 bits
  concat([{ data: x }, { data: new Uint16Array(2), dtype: 'float16' }]);
  // @ts-expect-error onnxruntime's untyped Tensor does not make typed inputs of two dtypes join
  concat([o, { data: x }, { data: i }]);
  // Every form of one dtype: resident, plain, views, named, float16 bits, ort tensors.
  const j1 = concat([t, { data: x }]); same<typeof j1, Tensor<'float32'>>(true);
  const j2 = stack([{ data: x }, { data: x, shape: [2], strides: [1], offset: 0 }]); same<typeof j2, Reshaped<Float32Array>>(true);
  const j3 = concat([tw, { data: i }]); same<typeof j3, Tensor>(true); // a Tensor of any dtype joins any
  const j4 = stack([th, h]); same<typeof j4, Tensor<'float16'>>(true);
  const j5 = concat([{ data: x, dims: ['n'] }, { data: x, dims: ['n'] }], 'n'); same<typeof j5, Reshaped<Float32Array>>(true);
  const j6 = concat([t, t], 0, { out: new Float32Array(4) }); same<typeof j6, Reshaped<Float32Array>>(true);
  const j7: Reshaped<BigInt64Array> = concat([{ type: 'int64', dims: [2], data: new BigInt64Array(2) }, { data: new BigInt64Array(2) }]);
  const j8 = concat([h, { type: 'float16', dims: [2], data: new Uint16Array(2) }]); same<typeof j8, Float16Copy>(true);
  const j9 = stack([o, { data: x }]); same<typeof j9, Tensor | Reshaped>(true);
  void j7;
}

// float16 bits and uint16 data are both a Uint16Array, and two dtypes (DTYPE_MISMATCH; until 0.9.22 they joined).
export function halves(u: Uint16Array, h: Float16Bits, tu: Tensor<'uint16'>, th: Tensor<'float16'>, tw: Tensor, x: TensorLike<Uint16Array>, r: Reshaped<Uint16Array>): void {
  // @ts-expect-error uint16 data and float16 bits
  concat([{ data: u }, { data: u, dtype: 'float16' }]);
  // @ts-expect-error float16 bits and uint16 data
  stack([h, { data: u, dtype: 'uint16' }]);
  // @ts-expect-error an ort 'float16' tensor and uint16 data
  concat([{ type: 'float16', dims: [2], data: u }, { data: u }], 0, { out: u });
  // @ts-expect-error a uint16 tensor and float16 bits
  concat([tu, h]);
  // @ts-expect-error a uint16 tensor and an ort 'float16' tensor, into a typed array
  stack([tu, { type: 'float16', dims: [2], data: u }], 0, { out: u });
  // @ts-expect-error a float16 tensor and uint16 data (under lib es2022 Float16Data is a Uint16Array)
  concat([th, { data: u }]);
  // Inputs of one of the two, and inputs whose type does not tell which (a dtype typed DType, a Tensor<DType>), still join.
  const k1 = concat([{ data: u }, { data: u, dtype: 'uint16' }, { type: 'uint16', dims: [2], data: u }]); same<typeof k1, Reshaped<Uint16Array>>(true);
  const k2 = stack([h, { data: u, dtype: 'float16' }, { type: 'float16', dims: [2], data: u }]); same<typeof k2, Float16Copy>(true);
  const k3 = concat([tu, { data: u }]); same<typeof k3, Tensor<'uint16'>>(true);
  const k4 = concat([th, h], 0, { out: th }); same<typeof k4, Tensor<'float16'>>(true);
  const k5 = concat([x, h]); same<typeof k5, Reshaped<Uint16Array>>(true);
  const k6 = stack([r, h]); same<typeof k6, Reshaped<Uint16Array>>(true);
  const k7 = concat([tw, h]); same<typeof k7, Tensor>(true);
  const k8 = concat([tu, x], 0, { out: u }); same<typeof k8, Reshaped<Uint16Array>>(true);
}

// evaluate's typed-array out is of the result's dtype where the text and operands tell it.
export function outs(x: Float32Array, i: Int32Array, t: Tensor<'float32'>, opts: EvaluateOptions, text: string): void {
  const f = { data: x };
  // @ts-expect-error float32 operands give a float32 result: not into an Int32Array
  evaluate('a + b', { a: f, b: f }, { out: new Int32Array(2) });
  // @ts-expect-error nor a Float64Array
  evaluate('a * b', { a: f, b: t }, { out: new Float64Array(2), keepdims: true });
  // @ts-expect-error a comparison gives uint8
  evaluate('a > b', { a: f, b: f }, { out: new Float32Array(2) });
  // @ts-expect-error compile().run of a literal text too
  compile('a + b').run({ a: f, b: f }, { out: new Int32Array(2) });
  // @ts-expect-error an option evaluate does not have
  evaluate('a + b', { a: f, b: f }, { out: new Float32Array(2), axis: 1 });
  const o1 = evaluate('a + b', { a: f, b: f }, { out: new Float32Array(2) }); same<typeof o1, TensorData<Float32Array>>(true);
  const o2 = evaluate('a > b', { a: f, b: f }, { out: new Uint8Array(2) }); same<typeof o2, TensorData<Uint8Array>>(true);
  const o3 = evaluate('a + b', { a: t, b: f }, { out: new Float32Array(2) }); same<typeof o3, TensorData<Float32Array>>(true);
  const o4 = evaluate('a + a', { a: { data: new Uint16Array(2), dtype: 'float16' as const } }, { out: new Uint16Array(2) }); same<typeof o4.dtype, 'float16'>(true);
  const o5 = compile('a + b').run({ a: f, b: f }, { out: new Float32Array(2) }); same<typeof o5, TensorData<Float32Array>>(true);
  // Where the dtype is not told (a string text, operands of two dtypes), or out is any typed array: any typed array.
  evaluate(text, { a: f }, { out: new Int32Array(2) });
  evaluate('a + b', { a: f, b: { data: i } }, { out: new Int32Array(2) });
  evaluate('a + b', { a: f, b: f }, opts);
  compile(text).run({ a: f }, { out: new Int32Array(2) });
}

// ... and so is a resident out (until 0.9.22 any Tensor: DTYPE_MISMATCH at run time).
export function residentOuts(x: Float32Array, t: Tensor<'float32'>, ti: Tensor<'int32'>, tu8: Tensor<'uint8'>, tw: Tensor, ta: Tensor<'float32'> | Tensor<'int32'>, h: Float16Bits, th: Tensor<'float16'>, text: string): void {
  const f = { data: x };
  // @ts-expect-error float32 operands give a float32 result: not into an int32 tensor
  evaluate('a + b', { a: f, b: f }, { out: ti });
  // @ts-expect-error a comparison gives uint8
  evaluate('a > b', { a: f, b: t }, { out: t, keepdims: true });
  // @ts-expect-error argmax gives int32
  evaluate('argmax(a)', { a: t }, { out: t });
  // @ts-expect-error float16 bits give float16
  evaluate('a * 2', { a: h }, { out: t });
  // @ts-expect-error compile().run of a literal text too
  compile('a + b').run({ a: f, b: f }, { out: ti });
  const q1 = evaluate('a + b', { a: f, b: t }, { out: t }); same<typeof q1, Tensor>(true);
  const q2 = evaluate('a > b', { a: f, b: f }, { out: tu8 }); same<typeof q2, Tensor>(true);
  const q3 = evaluate("cast(a, 'int32')", { a: f }, { out: ti }); same<typeof q3, Tensor>(true);
  const q4 = evaluate('a * 2', { a: h }, { out: th }); same<typeof q4, Tensor>(true);
  const q5 = compile('a + b').run({ a: f, b: f }, { out: t }); same<typeof q5, Tensor>(true);
  // Where the dtype is not told (a string text, operands of two dtypes, a Tensor<DType> operand), or out's is not: any Tensor.
  evaluate(text, { a: f }, { out: ti });
  evaluate('a + b', { a: f, b: { data: new Int32Array(2) } }, { out: ti });
  evaluate('a + 1', { a: tw }, { out: ti });
  evaluate('a + 1', { a: f }, { out: tw });
  evaluate('a + 1', { a: f }, { out: ta });
  compile(text).run({ a: f }, { out: ti });
}

// An onnxruntime Tensor written inline: onnxruntime-common's other members pass the excess-property check.
export function ortInline(x: Float32Array, type: string, ort: OrtTensorLike): void {
  const g1 = add({ type: 'float32', dims: [2], data: x, location: 'cpu', size: 2 }, 1); same<typeof g1, TensorData<Float32Array>>(true);
  const g2 = sum({ type: 'float32', dims: [2], data: x, location: 'cpu', size: 2, dispose() {} }); same<typeof g2, TensorData<Float32Array>>(true);
  const g3 = concat([{ type: 'float32', dims: [2], data: x, location: 'cpu' }, { data: x }]); same<typeof g3, Reshaped<Float32Array>>(true);
  const g4 = tensor({ type: 'float32', dims: [2], data: x, location: 'cpu', size: 2 }); same<typeof g4, Tensor<'float32'>>(true);
  const g5 = softmax({ type: 'float32', dims: [2], data: x, location: 'cpu' }); same<typeof g5, TensorData<Float32Array>>(true);
  const g6 = add({ type: 'float16', dims: [2], data: new Uint16Array(2), location: 'cpu' }, 1); same<typeof g6.dtype, 'float16'>(true);
  const g7 = add({ type: 'int64', dims: [2], data: new BigInt64Array(2), location: 'cpu' }, 1n); same<typeof g7.dtype, 'bigint64'>(true);
  const g8 = evaluate('a + 1', { a: { type: 'float32', dims: [2], data: x, location: 'cpu', size: 2 } }); same<typeof g8, TensorData<Float32Array>>(true);
  transpose({ type: 'float32', dims: [2], data: x, location: 'cpu', getData: async () => x });
  cast({ type: 'bool', dims: [2], data: new Uint8Array(2), location: 'cpu' }, 'float32');
  // @ts-expect-error ort's type names the data's dtype (a TypeError at run time otherwise)
  add({ type: 'int32', dims: [2], data: x, location: 'cpu' }, 1);
  // @ts-expect-error ort has no uint8clamped type
  add({ type: 'uint8', dims: [2], data: new Uint8ClampedArray(2) }, 1);
  // tensor() of one too (until 0.9.22 it took any type beside any data).
  // @ts-expect-error ort's 'int32' data is an Int32Array
  tensor({ type: 'int32', dims: [2], data: x });
  // @ts-expect-error ort's 'int64' data is a BigInt64Array
  tensor({ type: 'int64', dims: [2], data: new Int32Array(2) }, [2], { dims: ['n'] });
  // @ts-expect-error ort has no uint8clamped type
  tensor({ type: 'bool', dims: [2], data: new Uint8ClampedArray(2), location: 'cpu' });
  const g9 = tensor({ type: 'float16', dims: [2], data: new Uint16Array(2) }); same<typeof g9, Tensor<'float16'>>(true);
  const g10 = tensor({ type: 'uint16', dims: [2], data: new Uint16Array(2) }); same<typeof g10, Tensor<'uint16'>>(true);
  const g11 = tensor({ type: 'bool', dims: [2], data: new Uint8Array(2) }); same<typeof g11, Tensor<'uint8'>>(true);
  const g12 = tensor({ type: 'int64', dims: [2], data: new BigInt64Array(2) }, [1, 2]); same<typeof g12, Tensor<'bigint64'>>(true);
  // A type not told (a string, onnxruntime's untyped Tensor): any data, as before.
  const g13 = tensor({ type: type as string, dims: [2], data: x }); same<typeof g13, Tensor>(true);
  const g14 = tensor(ort); same<typeof g14, Tensor>(true);
}

// evaluate gives a Tensor when an operand the expression reads is resident: an operand it does not read changes nothing.
export function unread(x: Float32Array, t: Tensor<'float32'>, tw: Tensor, text: string, maybe: Tensor<'float32'> | { data: Float32Array }): void {
  const f = { data: x };
  const r1 = evaluate('a + 1', { a: f, b: t }); same<typeof r1, TensorData<Float32Array>>(true); // before 0.9.21 typed Tensor
  const r2 = evaluate('a + b', { a: f, b: t }); same<typeof r2, Tensor<'float32'>>(true);
  const r3 = evaluate('s = a + b; s * 2', { a: f, b: t }); same<typeof r3, Tensor>(true);
  const r4 = evaluate('b = a + 1; b * 2', { a: f, b: t }); same<typeof r4, TensorData>(true); // b names the statement's value
  const r5 = evaluate('exp(a)', { a: f, exp: t }); same<typeof r5, TensorData<Float32Array>>(true); // a call, not the operand
  const r6 = evaluate("sum(a, ['b'])", { a: { data: x, dims: ['b'] }, b: t }); same<typeof r6, TensorData<Float32Array>>(true); // a dim name
  const r7 = evaluate('ab + $b + 1', { ab: f, $b: f, b: t }); same<typeof r7, TensorData<Float32Array>>(true);
  const r8 = evaluate('bb+b', { bb: f, b: t }); same<typeof r8, Tensor<'float32'>>(true);
  const r9 = evaluate('a - max(b)', { a: f, b: t }); same<typeof r9, Tensor<'float32'>>(true);
  const r10 = compile('a + 1').run({ a: f, b: t }); same<typeof r10, TensorData<Float32Array>>(true);
  const r11 = evaluate('a + 1', { a: f, b: tw }); same<typeof r11, TensorData>(true);
  // Not told by the types: either.
  const r12 = evaluate(text, { a: f, b: t }); same<typeof r12, Tensor | TensorData>(true);
  const r13 = evaluate('a + 1', { a: maybe }); same<typeof r13, Tensor<'float32'> | TensorData<Float32Array>>(true);
  // Only resident tensor operands: whichever the text reads is resident.
  const r14 = evaluate(text, { a: t, k: 2 }); same<typeof r14, Tensor>(true);
  // @ts-expect-error an unread resident operand does not make the result a Tensor
  const r15: Tensor = evaluate('a * 2', { a: f, b: t });
  void r15;
}

// Type probe of post-processing (issue 41): softmax and friends keep a
// resident tensor's dtype and a typed array's kind; argmax gives int32; topk
// gives { values, indices }. Compiled like probe.ts (scripts/pack-smoke.mjs);
// every `@ts-expect-error` line must not compile.
import { softmax, logSoftmax, logSumExp, argmax, argmin, topk, sigmoid, tensor, Tensor, contiguous } from 'tensorcast';
import type { TensorData, Reshaped } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

const logits = { data: new Float32Array(6), shape: [2, 3] };
const p = softmax(logits);
same<typeof p, TensorData<Float32Array>>(true);
const lp = logSoftmax(logits, -1, { out: new Float32Array(6) });
same<typeof lp, TensorData<Float32Array>>(true);
const t = tensor(new Float64Array(6), [2, 3], { dims: ['b', 'c'] });
const pt = softmax(t, 'c');
same<typeof pt, Tensor<'float64'>>(true);
const l = logSumExp(t, ['c'], { keepdims: true });
same<typeof l, Tensor<'float64'>>(true);
const lp2 = logSumExp({ data: new Float64Array(4) });
same<typeof lp2, TensorData<Float64Array>>(true);
const a = argmax(logits, 1, { keepdims: true });
same<typeof a, TensorData<Int32Array>>(true);
const ai = argmin(t, 'b');
same<typeof ai, Tensor<'int32'>>(true);
const k = topk(t, 2, { axis: 'c', largest: false });
same<typeof k.values, Tensor<'float64'>>(true);
same<typeof k.indices, Tensor<'int32'>>(true);
const kp = topk({ data: new Uint8Array(5) }, 1, { out: { indices: new Int32Array(1) } });
same<typeof kp.values, TensorData<Uint8Array>>(true);
const s = sigmoid(logits);
void s;
// @ts-expect-error softmax takes float data
softmax({ data: new Int32Array(3) });
// @ts-expect-error an axis is a number or a dim name
softmax(logits, [1]);
// @ts-expect-error topk's out is { values, indices }
topk(logits, 1, { out: new Float32Array(2) });

// A resident x written into a typed-array out: plain data over that array, as the runtime gives it
// (until 0.9.16 the types refused the call).
const ts = softmax(t, 'c', { out: new Float64Array(6) });
same<typeof ts, TensorData<Float64Array>>(true);
const tl = logSumExp(t, ['c'], { out: new Float64Array(2) });
same<typeof tl, TensorData<Float64Array>>(true);
const ta = argmax(t, 'c', { out: new Int32Array(2) });
same<typeof ta, TensorData<Int32Array>>(true);

// Overloads added in 0.9.19: a plain input with a resident out gives that Tensor (logSumExp), a
// resident input with both outs typed arrays gives data (topk).
export function outForms(t: Tensor<'float32'>, x: Float32Array): void {
  const l: Tensor<'float32'> = logSumExp({ data: x, shape: [2, 2] }, -1, { out: tensor(new Float32Array(2)) });
  const k = topk(t, 1, { out: { values: new Float32Array(2), indices: new Int32Array(2) } });
  const v: Float32Array = k.values.data;
  const i: Int32Array = k.indices.data;
  void l; void v; void i;
}

// One out of each kind, and a resident input into a typed-array out, typed as they run (0.9.20: before, no overload took them).
export function mixedOuts(t: Tensor<'float32'>, p: { data: Float32Array; shape: number[] }): void {
  const c1 = contiguous(t, { out: new Float32Array(6) });
  same<typeof c1, Reshaped<Float32Array>>(true);
  const c2 = t.contiguous({ out: new Float32Array(6) });
  same<typeof c2, Reshaped<Float32Array>>(true);
  const c3 = contiguous(t);
  same<typeof c3, Tensor<'float32'>>(true);
  // @ts-expect-error an int32 array cannot hold a float32 copy
  contiguous(t, { out: new Int32Array(6) });
  const k1 = topk(t, 2, { out: { values: new Float32Array(4) } });
  same<typeof k1.indices, Tensor<'int32'>>(true);
  const k2 = topk(t, 2, { out: { indices: new Int32Array(4) } });
  same<typeof k2.values, Tensor<'float32'>>(true);
  same<typeof k2.indices, TensorData<Int32Array>>(true);
  const k3 = topk(p, 2, { out: { values: tensor(new Float32Array(4), [2, 2]) } });
  same<typeof k3.values, Tensor<'float32'>>(true);
  same<typeof k3.indices, TensorData<Int32Array>>(true);
  const k4 = topk(p, 2, { out: { indices: tensor(new Int32Array(4), [2, 2]) } });
  same<typeof k4.indices, Tensor<'int32'>>(true);
  const k5 = topk(t, 2);
  same<typeof k5.values, Tensor<'float32'>>(true);
  const k6 = topk(p, 2);
  same<typeof k6.indices, TensorData<Int32Array>>(true);
}

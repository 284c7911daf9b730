// Type probe of float16 given as its bits (Node 20 has no Float16Array): a
// Uint16Array marked `dtype: 'float16'` is a float16 operand of every call,
// and its results are float16 (dtype 'float16', data Float16Data), never
// uint16. Compiled like probe.ts (scripts/pack-smoke.mjs) under lib es2022
// (Float16Data is Uint16Array) and esnext (the lib's Float16Array); every
// `@ts-expect-error` line must not compile.
import {
  add, less, exp, neg, sum, mean, cast, broadcastTo, where, unbroadcast, softmax, logSumExp, argmax, topk,
  concat, stack, contiguous, evaluate, broadcastArrays, tensor, Tensor,
  reshape, transpose, slice, flip, squeeze, expandDims,
} from 'tensorcast';
import type { TensorData, Float16Data, Float16Bits, Reshaped, Float16Copy } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}
type F16 = TensorData<Float16Data, 'float16'>;

const h = { data: Uint16Array.of(0x3c00, 0x4000), shape: [2], dtype: 'float16' as const };
const h2: Float16Bits = h;
void h2;

const a0 = add(h, h);
same<typeof a0, F16>(true);
const s1 = add(h, 2);
same<typeof s1, F16>(true);
const s2 = add(2, h);
same<typeof s2, F16>(true);
const c = less(h, h);
same<typeof c, TensorData<Uint8Array>>(true);
const t = tensor(Uint16Array.of(0x3c00), [1], { dtype: 'float16' });
same<typeof t, Tensor<'float16'>>(true);
const r1 = add(t, h);
same<typeof r1, Tensor<'float16'>>(true);
const r2 = add(h, t);
same<typeof r2, Tensor<'float16'>>(true);
const r3 = add(h, h, { out: t });
same<typeof r3, Tensor<'float16'>>(true);
const u1 = exp(h);
same<typeof u1, F16>(true);
const u2 = neg(h, { out: t });
same<typeof u2, Tensor<'float16'>>(true);
const m1 = sum(h);
same<typeof m1, F16>(true);
const m2 = mean(h, { dtype: 'float32' });
same<typeof m2, TensorData<Float32Array>>(true);
const k1 = cast(h, 'float32');
same<typeof k1, TensorData<Float32Array>>(true);
const k2 = cast({ data: new Float32Array(2) }, 'float16');
same<typeof k2, F16>(true);
const b1 = broadcastTo(h, [2, 2]);
same<typeof b1, F16>(true);
const w1 = where({ data: Uint8Array.of(1, 0) }, h, 0);
same<typeof w1, F16>(true);
const w2 = where({ data: Uint8Array.of(1, 0) }, 0, h);
same<typeof w2, F16>(true);
const g1 = unbroadcast(h, [1]);
same<typeof g1, F16>(true);
const p1 = softmax(h);
same<typeof p1, F16>(true);
const p2 = logSumExp(h);
same<typeof p2, F16>(true);
const a1 = argmax(h);
same<typeof a1, TensorData<Int32Array>>(true);
const k = topk(h, 1);
same<typeof k.values, F16>(true);
const e1 = evaluate('a * b + 1', { a: h, b: h });
same<typeof e1, F16>(true);
const [x1, x2] = broadcastArrays(h, { data: new Float32Array(2) });
same<typeof x1, F16>(true);
same<typeof x2, TensorData<Float32Array>>(true);
const j1 = concat([h, h]);
same<typeof j1, Float16Copy>(true);
const j2 = stack([h, h], 0);
same<typeof j2, Float16Copy>(true);
const j3 = contiguous(h);
same<typeof j3, Float16Copy>(true);
// ... and the next call still reads them as float16 (until 0.9.19, under lib es2022: uint16, and mean float64).
const n1 = mean(j1);
same<typeof n1.dtype, 'float16'>(true);
const n2 = add(j3, 1);
same<typeof n2.dtype, 'float16'>(true);
const n3 = sum(j2);
same<typeof n3.dtype, 'float16'>(true);

// concat and stack give their inputs' dtype: plain in, plain out; any resident, a tensor.
const f = { data: new Float32Array(2), shape: [2] };
const j4 = concat([f, f]);
same<typeof j4, Reshaped<typeof f.data>>(true);
const ft = tensor(new Float32Array(2));
const j5 = stack([ft, f], 1);
same<typeof j5, Tensor<'float32'>>(true);
const j6 = concat([ft, ft], 0, { out: new Float32Array(4) });
same<typeof j6, Reshaped<Float32Array>>(true);

// @ts-expect-error one dtype: float16 bits and float32 data do not mix
add(h, f);

// Views and reshapes of float16 bits stay float16 (until 0.9.19 typed as uint16 by the next call).
export function float16Views(h: Float16Bits): void {
  for (const v of [reshape(h, [4]), transpose(h), slice(h, 0), flip(h), squeeze(h), expandDims(h, 0)]) {
    const d: 'float16' = v.dtype;
    const r = add(v, v);
    same<typeof r.dtype, 'float16'>(true);
    const m = mean(v);
    same<typeof m.dtype, 'float16'>(true);
    void d;
  }
}

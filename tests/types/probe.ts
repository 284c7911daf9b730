// Type probe: compiled with `tsc --noEmit` against the packed tarball,
// installed into a temp project, under each tsconfig.*.json beside this file
// (scripts/pack-smoke.mjs). Every `@ts-expect-error` line must not compile.
import {
  init, initSync, isReady, add, sub, mul, div, mod, floorDiv, atan2, hypot, less, equal, logicalAnd, bitwiseAnd, where,
  broadcastTo, broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape, tensor, explain,
  formatShape, formatDim, BroadcastError, ErrorCode, UNKNOWN_RANK, MAX_RANK, DTYPES, memory, releaseScratch, kernels, contract, Tensor,
  reductionAxes, unbroadcast, sum, prod, min, max, mean, broadcastArrays, reshape,
  neg, sqrt, isNaN, bitwiseNot, logicalNot, round, cast,
} from 'tensorcast';
import type { TensorData, TensorLike, DType, Shape, TypedArray, Operand, ElementwiseOp, Explanation } from 'tensorcast';
import { explain as explainShapes } from 'tensorcast/shapes';

// Exact-type assertion: Equal<X, Y> is true only when X and Y are the same type.
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function expectType<T>(_: T): void {}
function same<X, Y>(_: Equal<X, Y>): void {}

export async function loading(bytes: Uint8Array, buf: ArrayBuffer): Promise<void> {
  await init();
  await init({ wasmUrl: '/assets/tensorcast.wasm' });
  await init({ wasmBinary: bytes });
  initSync();
  initSync({ wasmBinary: buf });
  initSync({ wasmBinary: new DataView(buf) });
  const ready: boolean = isReady();
  // @ts-expect-error initSync takes no URL: it cannot fetch
  initSync({ wasmUrl: '/x.wasm' });
  // @ts-expect-error wasmBinary is bytes, not a string
  await init({ wasmBinary: 'tensorcast.wasm' });
  void ready;
}

export function plainData(): void {
  const a = { data: new Float32Array(6), shape: [2, 3] };
  const b = { data: Float32Array.of(1, 2, 3) };
  const r = add(a, b);
  const d: Float32Array = r.data; // `add(a, b).data` compiles: a plain operand gives plain data
  same<typeof r.dtype, 'float32'>(true);
  const shape: number[] = r.shape;
  expectType<TensorData<Float32Array>>(add(a, 2));
  expectType<TensorData<Float32Array>>(mul(2, a));
  expectType<Float64Array>(sub({ data: new Float64Array(2) }, { data: new Float64Array(1) }).data);
  expectType<Int32Array>(floorDiv({ data: Int32Array.of(7, -7) }, 2).data);
  expectType<Int32Array>(mod({ data: Int32Array.of(7, -7) }, { data: Int32Array.of(-2) }).data);
  expectType<BigInt64Array>(div({ data: BigInt64Array.of(7n) }, 2n).data);
  expectType<Uint8ClampedArray>(add({ data: new Uint8ClampedArray(2) }, 300).data);
  expectType<Float32Array>(atan2({ data: Float32Array.of(1) }, { data: Float32Array.of(1) }).data);
  expectType<Float64Array>(hypot({ data: Float64Array.of(3) }, 4).data);
  // Comparisons and logical ops give Uint8Array.
  const c = less(a, b);
  same<typeof c.data, Uint8Array>(true);
  same<typeof c.dtype, 'uint8'>(true);
  expectType<Uint8Array>(equal({ data: new Int16Array(2) }, 0).data);
  expectType<Uint8Array>(logicalAnd({ data: new Float64Array(2) }, { data: new Float64Array(2) }).data);
  expectType<Int8Array>(bitwiseAnd({ data: Int8Array.of(3) }, 1).data);
  // out: a typed array of the result's dtype.
  add(a, b, { out: new Float32Array(6) });
  less(a, b, { out: new Uint8Array(6) });
  // @ts-expect-error out of the wrong dtype
  add(a, b, { out: new Float64Array(6) });
  // @ts-expect-error a comparison writes uint8, not float32
  less(a, b, { out: new Float32Array(6) });
  // @ts-expect-error float32 + int32: operands share a dtype
  add(a, { data: new Int32Array(3) });
  // @ts-expect-error float64 * float32
  mul({ data: new Float64Array(3) }, a);
  // @ts-expect-error a bigint scalar for float data
  add(a, 1n);
  // @ts-expect-error atan2 takes float data only
  atan2({ data: Int32Array.of(1) }, { data: Int32Array.of(1) });
  // @ts-expect-error hypot takes float data only
  hypot({ data: new Uint8Array(1) }, 4);
  // @ts-expect-error bitwise ops take integer data only
  bitwiseAnd({ data: new Float32Array(1) }, 1);
  // @ts-expect-error plain data has no dispose(): only resident tensors do
  add(a, b).dispose();
  // @ts-expect-error a bare typed array is not an operand: pass { data, shape }
  add(new Float32Array(2), 1);
  void d; void shape;
}

export function resident(): void {
  const t = tensor(new Float32Array(6), [2, 3]);
  same<typeof t, Tensor<'float32'>>(true);
  same<typeof t.dtype, 'float32'>(true);
  const arr: Float32Array = t.toArray();
  same<ReturnType<typeof t.toArray>, Float32Array>(true);
  const u = add(t, t);
  u.dispose(); // `add(t, t).dispose()` compiles
  u.dispose(); // a second dispose is a no-op
  expectType<Tensor<'float32'>>(add(t, 1));
  expectType<Tensor<'float32'>>(add(1, t));
  expectType<Tensor<'float32'>>(add(t, { data: new Float32Array(3) }));
  expectType<Tensor<'float32'>>(add({ data: new Float32Array(3) }, t));
  expectType<Tensor<'uint8'>>(greaterEq(t));
  expectType<Tensor<'float32'>>(add({ data: new Float32Array(3) }, 1, { out: t }));
  expectType<Tensor<'float32'>>(broadcastTo(t, [4, 2, 3]));
  expectType<TensorData<Float32Array>>(broadcastTo({ data: new Float32Array(3) }, [2, 3]));
  expectType<Tensor<'float32'>>(broadcastTo({ data: new Float32Array(3) }, [2, 3], { out: t }));
  const i = tensor(Int32Array.of(1, 2, 3));
  same<typeof i.dtype, 'int32'>(true);
  expectType<Int32Array>(i.toArray());
  const big = tensor(BigUint64Array.of(1n));
  expectType<BigUint64Array>(big.toArray());
  expectType<Tensor<'biguint64'>>(add(big, 2n));
  expectType<string>(String(t));
  expectType<string>(t.toString());
  expectType<{ dtype: 'float32'; shape: number[]; dims?: (string | number)[]; disposed: boolean }>(t.toJSON());
  // @ts-expect-error float32 tensor + int32 tensor
  add(t, i);
  // @ts-expect-error float32 tensor + int32 data
  sub(t, { data: new Int32Array(3) });
  // @ts-expect-error int32 data + float32 tensor
  mul({ data: new Int32Array(3) }, t);
  // @ts-expect-error out tensor of another dtype
  add(t, 1, { out: i });
  // @ts-expect-error broadcastTo into an out tensor of another dtype
  broadcastTo(t, [2, 3], { out: i });
  // @ts-expect-error where into an out tensor of another dtype
  where({ data: Uint8Array.of(1) }, t, 0, { out: i });
  // @ts-expect-error hypot on an int32 tensor
  hypot(i, i);
  // @ts-expect-error a Tensor cannot be made with new: use tensor(data, shape)
  new Tensor();
  expectType<boolean>(t instanceof Tensor);
  // @ts-expect-error the handle is not public
  t._handle;
  // A tensor of unknown dtype still works, with an unknown-dtype result.
  const any: Tensor = t;
  expectType<Tensor>(add(any, 1));
  expectType<DType>(any.dtype);
  expectType<TypedArray>(any.toArray());
  void arr;
}

function greaterEq(t: Tensor<'float32'>): Tensor<'uint8'> {
  return less(t, 0);
}

export function whereOps(): void {
  const cond = { data: Uint8Array.of(1, 0, 1) };
  expectType<Float32Array>(where(cond, { data: new Float32Array(3) }, 0).data);
  expectType<Int32Array>(where(cond, 1, { data: new Int32Array(1) }).data);
  const t = tensor(new Float64Array(3));
  expectType<Tensor<'float64'>>(where(cond, t, 0));
  expectType<Tensor<'float64'>>(where(tensor(Uint8Array.of(1)), { data: new Float64Array(3) }, 0));
  // @ts-expect-error a and b share a dtype
  where(cond, { data: new Float32Array(3) }, { data: new Float64Array(3) });
  // @ts-expect-error a and b share a dtype (resident)
  where(cond, t, { data: new Float32Array(3) });
}

export function shapes(dyn: Shape): void {
  const s = broadcastShapes([2, 1], [3]);
  same<typeof s, number[]>(true);
  tensor(new Float32Array(6), s); // static shapes out are accepted by tensor(data, s)
  tensor(new Float32Array(6), broadcastToShape([3, 1], [-1, 2]));
  tensor(new Float32Array(6), autoBroadcastShape([2, 3], [3]));
  const p = broadcastShapes([2, '?'], [3, 1]);
  // @ts-expect-error a partial shape's result is not a static shape
  tensor(new Float32Array(6), p);
  // @ts-expect-error neither is a shape of unknown rank
  tensor(new Float32Array(6), broadcastShapes(dyn, [1]));
  const ro: readonly number[] = [4, 1];
  expectType<number[]>(broadcastShapes(ro, [3]));
  expectType<number[]>(broadcastShapes());
  const n = namedBroadcastShape({ dims: ['x'], shape: [2] }, { dims: ['y'], coords: { y: ['a', 'b'] } });
  expectType<number[]>(n.shape);
  expectType<string>(formatShape([2, '?', '2..5']));
  expectType<string>(formatShape(UNKNOWN_RANK));
  expectType<string>(formatDim('6..'));
  expectType<32>(MAX_RANK);
  expectType<readonly DType[]>(DTYPES);
  // @ts-expect-error a dim is a number or a string
  broadcastShapes([true]);
}

export function errorsAndPlans(): void {
  try {
    broadcastShapes([3], [4]);
  } catch (e) {
    if (e instanceof BroadcastError) {
      expectType<'BroadcastError'>(e.name);
      expectType<ErrorCode>(e.code);
      expectType<number[] | null>(e.clashes);
      expectType<number | null>(e.axis);
      const j = e.toJSON();
      expectType<number[] | null>(j.clashes);
      if (e.code === ErrorCode.INCOMPATIBLE_DIMS) void 0;
      // @ts-expect-error not a code
      if (e.code === 'NOPE') void 0;
    }
  }
  const x: Explanation = explain({ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 });
  expectType<number | null>(x.size);
  expectType<string | undefined>(x.sizeText);
  // @ts-expect-error no such rule
  explain({ rule: 'numpyy', shapes: [] });
  // The named plan's per-dim alignment, and the error fields every refusal carries (0.9.20: declared as the runtime gives them).
  const nx = explain({ rule: 'named', operands: [{ shape: [2], dims: ['a'] }, { shape: [2], dims: ['a'] }] });
  expectType<number | undefined>(nx.namedAxes?.[0].left);
  expectType<number[] | undefined>(nx.namedAxes?.[0].leftIndex);
  if (nx.error) expectType<null>(nx.error.code === null ? nx.error.dims : null);
  // tensorcast/shapes explains the rules only: an expression needs the full entry (0.9.20; its runtime answers ok: false).
  expectType<Explanation>(explainShapes({ rule: 'numpy', shapes: [[2], [1]] }));
  // @ts-expect-error no expressions in tensorcast/shapes
  explainShapes({ expression: 'x + 1', shapes: { x: [2] } });
  const m = memory();
  expectType<number>(m.liveTensors);
  releaseScratch();
  expectType<string>(kernels()[0].name);
  expectType<DType>(contract().dtypes[0].name);
}

// The generic surface stays usable for code that does not know its dtype.
export function generic(op: ElementwiseOp, x: TensorLike, y: Operand): void {
  const r = op(x, 1);
  expectType<TypedArray>(r.data);
  void y;
}

export function backward(): void {
  expectType<number[]>(reductionAxes([3, 1], [2, 3, 5]));
  expectType<number[]>(reductionAxes([16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] }));
  const g = { data: new Float32Array(30), shape: [2, 3, 5] };
  expectType<TensorData<Float32Array>>(unbroadcast(g, [3, 1]));
  expectType<TensorData<Float64Array>>(unbroadcast(g, [3, 1], { dtype: 'float64' }));
  const tg = tensor(new Float32Array(30), [2, 3, 5]);
  expectType<Tensor<'float32'>>(unbroadcast(tg, [1, 3, 1]));
  expectType<Tensor<'float32'>>(unbroadcast(g, [3, 1], { out: tensor(new Float32Array(3), [3, 1]) }));
  // Named: back to the input's dims; the positional modes are not options there.
  const gn = { data: new Float32Array(6), shape: [3, 2], dims: ['c', 'b'] };
  expectType<TensorData<Float32Array>>(unbroadcast(gn, { dims: ['b'], shape: [2] }));
  expectType<Tensor<'float64'>>(unbroadcast(tensor(new Float64Array(6), [3, 2], { dims: ['c', 'b'] }), { dims: ['c'], coords: { c: ['x', 'y', 'z'] } }));
  // @ts-expect-error a named input takes no broadcast mode
  unbroadcast(gn, { dims: ['b'], shape: [2] }, { mode: 'numpy' });
  // Reductions: the input's dtype, `dtype` to accumulate in another, mean of integers in float64.
  const i8 = { data: Int8Array.of(1, 2, 4), shape: [3] };
  expectType<TensorData<Int8Array>>(sum(i8));
  expectType<TensorData<Int32Array>>(sum(i8, { dtype: 'int32' }));
  expectType<TensorData<Float64Array>>(mean(i8));
  expectType<TensorData<Float32Array>>(mean(g, { axes: [0, -1], keepdims: true }));
  expectType<TensorData<Float32Array>>(max(g, { axes: 1 }));
  expectType<Tensor<'float32'>>(min(tg));
  expectType<Tensor<'float64'>>(prod(tg, { dtype: 'float64' }));
  expectType<Tensor<'float64'>>(mean(tensor(new Int32Array(4))));
  sum(g, { out: new Float32Array(1) });
  // @ts-expect-error out of the wrong dtype (the result is float32)
  sum(g, { out: new Float64Array(1) });
  // @ts-expect-error out tensor of the wrong dtype
  sum(tg, { out: tensor(new Int32Array(1)) });
  // @ts-expect-error not a dtype
  sum(g, { dtype: 'bfloat16' });
  // float16: 'float16' is a dtype; without Float16Array its bits travel in a Uint16Array marked float16
  expectType<Tensor<'float16'>>(sum(tensor(new Uint16Array(4), [4], { dtype: 'float16' })));
  expectType<Tensor<'float16'>>(add(tensor(new Uint16Array(4), [4], { dtype: 'float16' }), 1));
  sum(g, { dtype: 'float16' });
  add({ data: new Uint16Array(2), shape: [2], dtype: 'float16' }, { data: new Uint16Array(2), shape: [2], dtype: 'float16' });
  // @ts-expect-error dtype is a dtype name
  add({ data: new Uint16Array(2), shape: [2], dtype: 'half' }, 1);
  // @ts-expect-error axes are numbers
  sum(g, { axes: ['0'] });
  const [ba, bb] = broadcastArrays({ data: new Float32Array(2), shape: [2, 1] }, tg);
  expectType<TensorData<Float32Array>>(ba);
  expectType<Tensor<'float32'>>(bb);
  // @ts-expect-error a scalar is not an operand of broadcastArrays
  broadcastArrays(1);
}

export function basics(): void {
  const t = tensor(new Float32Array(6), [2, 3]);
  expectType<Tensor<'float32'>>(reshape(t, [3, -1]));
  expectType<Tensor<'float32'>>(t.reshape([-1]));
  expectType<Tensor<'float32'>>(t.reshape([6], { dims: ['i'], coords: { i: [1, 2, 3, 4, 5, 6] } }));
  const p = reshape({ data: new Int16Array(6), shape: [2, 3] }, [6]);
  const pd: Int16Array = p.data;
  const ps: number[] = p.shape;
  // @ts-expect-error a shape is numbers
  reshape(t, ['2', 3]);
  // @ts-expect-error a bare typed array is not an operand
  reshape(new Float32Array(6), [6]);
  // item(): a number, a bigint for the 64-bit dtypes
  const n: number = t.item();
  const b: bigint = tensor(new BigInt64Array(1)).item();
  same<ReturnType<Tensor<'biguint64'>['item']>, bigint>(true);
  same<ReturnType<Tensor<'uint8'>['item']>, number>(true);
  // @ts-expect-error a float32 element is not a bigint
  const wrong: bigint = t.item();
  // Reductions by dim name.
  const x = { data: new Float32Array(6), shape: [2, 3], dims: ['out', 'in'] };
  expectType<TensorData<Float32Array>>(sum(x, { dims: ['in'] }));
  expectType<TensorData<Float32Array>>(mean(x, { dims: 'in', keepdims: true }));
  expectType<Tensor<'float32'>>(max(tensor(new Float32Array(6), [2, 3], { dims: ['a', 'b'] }), { dims: [0, 'b'] }));
  // @ts-expect-error dims are names, not objects
  sum(x, { dims: [{}] });
  // unbroadcast to the operand itself (torch sum_to_size)
  expectType<TensorData<Float32Array>>(unbroadcast({ data: new Float32Array(6), shape: [2, 3] }, { data: new Float32Array(3) }));
  expectType<Tensor<'float32'>>(unbroadcast(t, tensor(new Float32Array(3), [1, 3])));
  // @ts-expect-error a number is not a shape
  unbroadcast(t, 3);
  void pd; void ps; void n; void b; void wrong;
}

export function unaryOps(t: Tensor<'float32'>): void {
  expectType<Float32Array>(neg({ data: Float32Array.of(1) }).data);
  expectType<Uint8Array>(isNaN({ data: Float64Array.of(1) }).data);
  expectType<Int8Array>(round({ data: Int8Array.of(1) }, { out: new Int8Array(1) }).data);
  expectType<Tensor<'float32'>>(sqrt(t));
  expectType<Tensor<'uint8'>>(logicalNot(t));
  expectType<Int32Array>(cast({ data: Float32Array.of(1) }, 'int32').data);
  expectType<Tensor<'int8'>>(cast(t, 'int8'));
  // @ts-expect-error sqrt takes float dtypes only
  sqrt({ data: Int32Array.of(1) });
  // @ts-expect-error bitwiseNot takes integer dtypes only
  bitwiseNot({ data: Float32Array.of(1) });
  // @ts-expect-error a bool result needs a Uint8Array out
  isNaN({ data: Float32Array.of(1) }, { out: new Float32Array(1) });
  // @ts-expect-error out of another dtype than the cast's
  cast({ data: Float32Array.of(1) }, 'int8', { out: new Uint8Array(1) });
  // @ts-expect-error not a dtype
  cast({ data: Float32Array.of(1) }, 'float8');
}

// A resident operand written into a typed-array out: plain data over that array, as the runtime gives
// it (until 0.9.16 typed as a Tensor, whose methods then threw).
export function residentIntoTypedOut(): void {
  const t = tensor(Float32Array.of(1, 2, 3), [3]);
  const a = add(t, t, { out: new Float32Array(3) });
  same<typeof a, TensorData<Float32Array>>(true);
  const b = add({ data: Float32Array.of(1) }, t, { out: new Float32Array(3) });
  same<typeof b, TensorData<Float32Array>>(true);
  const l = less(t, 1, { out: new Uint8Array(3) });
  same<typeof l, TensorData<Uint8Array>>(true);
  const n = neg(t, { out: new Float32Array(3) });
  same<typeof n, TensorData<Float32Array>>(true);
  const s = sum(t, { out: new Float32Array(1) });
  same<typeof s, TensorData<Float32Array>>(true);
  // without out, or into a tensor: a Tensor
  same<typeof t, Tensor<'float32'>>(true);
  const r = add(t, t);
  same<typeof r, Tensor<'float32'>>(true);
  const m = mean(t);
  same<typeof m, Tensor<'float32'>>(true);
}

// A typed-array out gives data over it, whatever the operands, resident ones too (until 0.9.18 typed as a Tensor).
export function typedOutOverResident(t: Tensor<'float32'>, h: Tensor<'int32'>): void {
  const w = where(less(t, 2), t, 0, { out: new Float32Array(6) });
  same<typeof w.data, Float32Array>(true);
  // @ts-expect-error data over out: no dispose()
  w.dispose();
  const w2: Float32Array = where(less(t, 2), 0, t, { out: new Float32Array(6) }).data;
  const w3: Float32Array = where(less(t, 2), { data: new Float32Array(6), shape: [6] }, 0, { out: new Float32Array(6) }).data;
  const c = cast(t, 'int32', { out: new Int32Array(6) });
  same<typeof c.data, Int32Array>(true);
  // @ts-expect-error data over out: no dispose()
  c.dispose();
  const b: Float32Array = broadcastTo(t, [2, 6], { out: new Float32Array(12) }).data;
  const u: Float32Array = unbroadcast(t, [1], { out: new Float32Array(1) }).data;
  // the resident forms stay Tensors
  const wt: Tensor<'float32'> = where(less(t, 2), t, 0);
  const ct: Tensor<'int32'> = cast(t, 'int32', { out: h });
  void w2; void w3; void b; void u; void wt; void ct;
}

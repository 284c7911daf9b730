// Where the lib declares Symbol.dispose (esnext, or @types/node), a Tensor is Disposable.
import { initSync, tensor, add } from 'tensorcast';

export function scoped(): number {
  initSync();
  using t = tensor(new Float32Array(4));
  using u = add(t, 1);
  const d: Disposable = u;
  t[Symbol.dispose]();
  void d;
  return u.size;
}

// Where the lib declares Float16Array (esnext, TypeScript 5.7+), float16 data is a Float16Array.
import { sum, type Tensor, type TensorData, type DTypeOf } from 'tensorcast';
export function halves(): number {
  const r = add({ data: new Float16Array(2), shape: [2] }, { data: new Float16Array(2), shape: [2] });
  const d: TensorData<Float16Array> = r;
  const name: 'float16' = r.dtype;
  const t: Tensor<'float16'> = sum(tensor(new Float16Array(2)));
  const a: Float16Array = t.toArray();
  const u: DTypeOf<Uint16Array> = 'uint16';
  void d; void name; void u;
  return a.length;
}

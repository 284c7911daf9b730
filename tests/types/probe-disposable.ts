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

// tensorcast/inline: the same API, and init()/initSync() need no options.
import { init, initSync, add, tensor, broadcastShapes } from 'tensorcast/inline';
import type { Tensor } from 'tensorcast/inline';

export async function inline(): Promise<void> {
  await init();
  initSync();
  const d: Float64Array = add({ data: new Float64Array(2) }, 1).data;
  const t: Tensor<'int16'> = tensor(new Int16Array(6), broadcastShapes([2, 1], [3]));
  // @ts-expect-error int16 tensor + float64 data
  add(t, { data: new Float64Array(2) });
  void d;
}

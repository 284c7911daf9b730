// Type probe of views (issue 38): the layout functions keep a resident
// tensor's dtype and give a plain operand's view its typed array; a view is an
// operand of every call, and the image recipe type-checks under strict.
// Compiled like probe.ts (scripts/pack-smoke.mjs); every `@ts-expect-error`
// line must not compile.
import { transpose, slice, flip, squeeze, expandDims, concat, stack, contiguous, evaluate, add, tensor, Tensor } from 'tensorcast';
import type { View, SliceSpec, TensorData } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

const pixels = new Uint8ClampedArray(224 * 224 * 4);
const v = expandDims(transpose(slice({ data: pixels, shape: [224, 224, 4] }, null, null, [0, 3]), [2, 0, 1]), 0);
const vv: View<Uint8ClampedArray> = v;
void vv;
const x = evaluate("(cast(x, 'float32') / 255 - m) / s", { x: v, m: { data: new Float32Array(3), shape: [1, 3, 1, 1] }, s: { data: new Float32Array(3), shape: [1, 3, 1, 1] } });
const f: Float32Array | TensorData = x.data instanceof Float32Array ? x.data : x;
void f;

const t = tensor(new Float64Array(6), [2, 3]);
same<typeof t, Tensor<'float64'>>(true);
const tt = t.transpose().slice('::-1').flip(0).squeeze().expandDims(0);
same<typeof tt, Tensor<'float64'>>(true);
same<ReturnType<typeof t.contiguous>, Tensor<'float64'>>(true);
const r = add(transpose(t), slice(t, null, 0));
same<typeof r, Tensor<'float64'>>(true);
const strides: number[] = t.strides;
void strides;

const p = { data: new Int32Array(6), shape: [2, 3], strides: [1, 2], offset: 0 };
const q = add(p, 1);
same<typeof q.data, Int32Array>(true);
const specs: SliceSpec[] = [0, null, [1, null, -1], '::2', [undefined, 3]];
void slice(t, ...specs);
void flip(p, ['a']);
void squeeze(p, 0);
void contiguous(p, { out: new Int32Array(6) });
void concat([t, t], 1);
const byName = concat([p, p], 'n'); // a dim name for named inputs (0.9.20), typed as by number
const byNumber = concat([p, p], 0);
same<typeof byName, typeof byNumber>(true);
void stack([p, p], 0, { dims: 'n' });

// @ts-expect-error: strides are numbers
void add({ data: new Int32Array(6), shape: [2, 3], strides: ['1', '2'] }, 1);
// @ts-expect-error: a slice spec is not an object
void slice(t, { start: 1 });
// @ts-expect-error: a float64 tensor's contiguous copy cannot go into a float32 tensor
void t.contiguous({ out: tensor(new Float32Array(6), [2, 3]) });

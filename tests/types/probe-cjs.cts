// CommonJS: `require('tensorcast')` resolves the require condition (dist/index.d.cts, dist/node.cjs).
import tc = require('tensorcast');
import inline = require('tensorcast/inline');

tc.initSync();
inline.initSync();
const r = tc.add({ data: new Float32Array(4), shape: [2, 2] }, { data: Float32Array.of(1, 2) });
const d: Float32Array = r.data;
const dt: 'float32' = r.dtype;
const t = tc.tensor(new Int32Array(6), tc.broadcastShapes([2, 1], [3]));
const i: Int32Array = t.toArray();
t.dispose();
const c: Uint8Array = tc.less(t, 3).toArray();
// @ts-expect-error float32 + int32
tc.add(r, t);
// @ts-expect-error float data for bitwise ops
tc.bitwiseOr({ data: new Float32Array(1) }, 1);
const e: typeof tc.BroadcastError = inline.BroadcastError;
export = { d, dt, i, c, e };

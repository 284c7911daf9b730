// A single op as a one-node expression against the op itself (issue 22, item 5):
// node bench/lib/onenode.mjs  (from the repository root, after npm run build)
import * as tc from '../../dist/node.js';
await tc.init();
const a = tc.tensor(Float32Array.of(1, 2, 3), [3, 1]);
const b = tc.tensor(Float32Array.of(1, 2, 3, 4), [1, 4]);
const out = tc.tensor(new Float32Array(12), [3, 4]);
const N = 1024;
const X = tc.tensor(new Float32Array(N * N).fill(1.5), [N, N]);
const Y = tc.tensor(new Float32Array(N).fill(2.5), [N]);
const OUT = tc.tensor(new Float32Array(N * N), [N, N]);
const e = tc.compile('a + b');
const ops = { a, b }; const o = { out };
const big = { a: X, b: Y }; const ob = { out: OUT };
function time(f, n) { const ts = []; for (let r = 0; r < 9; r++) { const t0 = performance.now(); for (let i = 0; i < n; i++) f(); ts.push((performance.now() - t0) / n * 1e6); } ts.sort((x, y) => x - y); return ts[4]; }
const s1 = time(() => e.run(ops, o), 100000), s2 = time(() => tc.add(a, b, o), 100000);
const b1 = time(() => e.run(big, ob), 200), b2 = time(() => tc.add(X, Y, ob), 200);
console.log(`small resident: one-node expression ${s1.toFixed(0)} ns, add ${s2.toFixed(0)} ns (${(s1 / s2).toFixed(2)}x)`);
console.log(`[1024,1024]+[1024] resident: one-node expression ${(b1 / 1000).toFixed(0)} us, add ${(b2 / 1000).toFixed(0)} us (${(b1 / b2).toFixed(2)}x)`);

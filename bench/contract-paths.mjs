// Which path a contraction takes, and whether the choice pays: evaluate of
// sum(x * w) (the contraction kernel where expr.cpp's cost model sends it,
// else the chunks) against the same product forced through the chunks
// (`sum(x * w + 0, ...)`: not a bare product), for M = 1 ... 16 output rows
// at K = N = 1024 (or --k, --n), col order (x [M,K,1], w [K,N]) and row order
// (x [M,1,K], w [N,K]), float32 resident into out, in Node.
//   node bench/contract-paths.mjs [--dist=dist] [--k=1024] [--n=1024]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './lib/timing.mjs';

const arg = (k, d) => process.argv.find((x) => x.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const tc = await import(pathToFileURL(path.resolve(arg('dist', 'dist'), 'node.js')).href);
await tc.init();
const K = Number(arg('k', '1024')), N = Number(arg('n', '1024'));
const f32 = (n, s) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + s));
const wc = tc.tensor(f32(K * N, 1), [K, N]);
const wr = tc.tensor(f32(K * N, 2), [N, K]);
const time = (f) => {
  for (let i = 0; i < 3; i++) f();
  let k = 1;
  for (;;) { const t0 = performance.now(); for (let i = 0; i < k; i++) f(); const ms = performance.now() - t0; if (ms > 60) return ms / k; k *= 2; }
};
console.log(`contraction paths, K ${K}, N ${N}, float32 resident into out (ms per call, median of 5 interleaved rounds)`);
console.log('| M | order | path taken | sum(x * w) | chunks (x * w + 0) | taken ÷ chunks |');
console.log('| ---: | --- | --- | ---: | ---: | ---: |');
for (const M of [1, 2, 3, 4, 6, 8, 16]) {
  for (const [order, x, w, ax] of [['col', tc.tensor(f32(M * K, 3), [M, K, 1]), wc, 1], ['row', tc.tensor(f32(M * K, 4), [M, 1, K]), wr, 2]]) {
    const out = tc.tensor(new Float32Array(M * N), [M, N]);
    const e = tc.explain({ expression: `sum(x * w, [${ax}])`, shapes: { x: x.shape, w: w.shape } });
    const a = [], b = [];
    for (let r = 0; r < 5; r++) {
      a.push(time(() => tc.evaluate(`sum(x * w, [${ax}])`, { x, w }, { out })));
      b.push(time(() => tc.evaluate(`sum(x * w + 0, [${ax}])`, { x, w }, { out })));
    }
    const ratios = a.map((v, i) => v / b[i]);
    console.log(`| ${M} | ${order} | ${e.contraction ? 'kernel' : 'chunks'} | ${median(a).toFixed(3)} | ${median(b).toFixed(3)} | ${median(ratios).toFixed(2)}× |`);
    x.dispose();
    out.dispose();
  }
}

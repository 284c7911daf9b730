// Builds side by side on column sums, sum(x, { axes: [0] }) of a resident
// [rows, cols] tensor into a resident `out` (the col reduction kernels and
// their order, reduce_pairwise.hpp): float32 over widths that are powers of
// two (rows 2 KiB apart or more share L1 sets) and widths that are not, and
// float64. Each build runs in its own Node processes, alternating (first one
// first, then the other); per process the minimum of 15 batches of ~4M
// elements; reported: µs per call, the median over the rounds, and B ÷ A.
//   node bench/ab-colsum.mjs <dist dir A> <dist dir B> [--rounds=N] [--only=text]
// (--only: the cases whose name holds the text, e.g. --only=float64)
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate } from './lib/alternate.mjs';

const CASES = [
  [32, 512, 'float32'], [256, 512, 'float32'], [2048, 512, 'float32'],
  [32, 1024, 'float32'], [256, 1024, 'float32'], [2048, 1024, 'float32'],
  [32, 2048, 'float32'], [256, 2048, 'float32'], [2048, 2048, 'float32'],
  [32, 4096, 'float32'], [256, 4096, 'float32'],
  [64, 768, 'float32'], [1024, 768, 'float32'], [100, 1000, 'float32'], [1024, 1000, 'float32'],
  [256, 512, 'float64'], [1024, 512, 'float64'], [1024, 1000, 'float64'],
];
const CTORS = { float32: Float32Array, float64: Float64Array };

async function child(dist, only) {
  const tc = await import(pathToFileURL(path.join(dist, 'node.js')).href);
  await tc.init();
  const out = {};
  for (const [rows, cols, dt] of CASES) {
    if (!`[${rows}, ${cols}] ${dt}`.includes(only)) continue;
    const C = CTORS[dt];
    const x = tc.tensor(new C(rows * cols).map((_, i) => ((i * 7919) % 1000) / 997), [rows, cols]);
    const o = tc.tensor(new C(cols), [cols]);
    const reps = Math.max(2, Math.round(4e6 / (rows * cols)));
    for (const t0 = Date.now(); Date.now() - t0 < 250;) tc.sum(x, { axes: [0], out: o }); // past V8's tier-up
    let best = Infinity;
    for (let k = 0; k < 15; k++) {
      const t0 = process.hrtime.bigint();
      for (let r = 0; r < reps; r++) tc.sum(x, { axes: [0], out: o });
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / reps / 1000);
    }
    out[`[${rows}, ${cols}] ${dt}`] = best;
    x.dispose();
    o.dispose();
  }
  process.stdout.write(JSON.stringify(out));
}

function parent(dists, rounds, only) {
  const res = alternate(fileURLToPath(import.meta.url), dists, rounds, [only]);
  const med = (a) => { const s = a.slice().sort((x, y) => x - y); return s[s.length >> 1]; };
  console.log(`| sum over axis 0 | ${dists[0]} µs | ${dists[1]} µs | B ÷ A |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const k in res[0]) {
    const a = med(res[0][k]);
    const b = med(res[1][k]);
    console.log(`| ${k} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(path.resolve(args[1]), args[2] ?? '');
} else {
  const dists = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 4);
  const only = args.find((a) => a.startsWith('--only='))?.slice(7) ?? '';
  if (dists.length !== 2) {
    console.error('usage: node bench/ab-colsum.mjs <dist dir A> <dist dir B> [--rounds=N] [--only=text]');
    process.exit(2);
  }
  parent(dists, rounds, only);
}

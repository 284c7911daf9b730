// Builds side by side on the element-wise kernels: resident operands and a
// resident `out` (so the call is the kernel and a request repeat), over 4K
// elements (in cache), 64K and 1M, in the three forms (vv, vs; sv through
// the plan of [1] op [n]) and several dtypes. Each build runs in its own Node
// processes, alternating (first one first, then the other); per process the
// minimum of 15 batches of ~16M elements; reported: ns per element, the
// median over the rounds, and the ratio B ÷ A.
//   node bench/ab-kernels.mjs <dist dir A> <dist dir B> [--rounds=N]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate } from './lib/alternate.mjs';

const CASES = [
  ['add', 'vv', 'float32'], ['add', 'vs', 'float32'], ['sub', 'sv', 'float32'], ['mul', 'vv', 'int32'],
  ['less', 'vv', 'float32'], ['greater', 'vs', 'int16'], ['add', 'vv', 'uint8'], ['maximum', 'vs', 'float64'],
];
const SIZES = [4096, 65536, 1 << 20];
const CTORS = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int16: Int16Array, uint8: Uint8Array };

async function child(dist) {
  const tc = await import(pathToFileURL(path.join(dist, 'node.js')).href);
  await tc.init();
  const out = {};
  for (const n of SIZES) {
    for (const [op, form, dt] of CASES) {
      const C = CTORS[dt];
      const data = new C(n).map((_, i) => (i * 7) % 13 + 1);
      const one = tc.tensor(new C([3]), [1]);
      const a = form === 'sv' ? one : tc.tensor(data, [n]);
      const b = form === 'vv' ? tc.tensor(data.slice().reverse(), [n]) : form === 'vs' ? one : tc.tensor(data, [n]);
      const o = tc[op](a, b);
      const reps = Math.max(2, Math.round(1.6e7 / n));
      let best = Infinity;
      for (let k = 0; k < 15; k++) {
        const t0 = process.hrtime.bigint();
        for (let r = 0; r < reps; r++) tc[op](a, b, { out: o });
        best = Math.min(best, Number(process.hrtime.bigint() - t0) / reps / n);
      }
      out[`${op} ${form} ${dt} ${n}`] = best;
      for (const t of new Set([a, b, one, o])) t.dispose();
    }
  }
  process.stdout.write(JSON.stringify(out));
}

function parent(dists, rounds) {
  const res = alternate(fileURLToPath(import.meta.url), dists, rounds);
  const med = (a) => { const s = a.slice().sort((x, y) => x - y); return s[s.length >> 1]; };
  console.log(`| case | ${dists[0]} ns/elem | ${dists[1]} ns/elem | B ÷ A |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const k in res[0]) {
    const a = med(res[0][k]);
    const b = med(res[1][k]);
    console.log(`| ${k} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)} |`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(path.resolve(args[1]));
} else {
  const dists = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 4);
  if (dists.length !== 2) {
    console.error('usage: node bench/ab-kernels.mjs <dist dir A> <dist dir B> [--rounds=N]');
    process.exit(2);
  }
  parent(dists, rounds);
}

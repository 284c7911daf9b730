// A/B of contractions between two builds in one Node process (each dist its
// own engine: two module graphs), interleaved rounds: evaluate of sum(x * w)
// over the same shapes in each dim order, resident operands into a resident
// out. For issue 40's "small: no slower than today" (and any other shape).
//   node bench/ab-contract.mjs --a=<dist dir> --b=<dist dir> [--shape=M,K,N] [--rounds=7] [--dtype=float16]
// (--dtype: the operands cast from the float32 data; float32 by default)
// Prints per form: µs per call in each build (median over rounds) and the
// median of the per-round ratios b ÷ a.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './lib/timing.mjs';

const arg = (k, d) => process.argv.find((x) => x.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const dists = [arg('a'), arg('b')];
if (!dists[0] || !dists[1]) throw new Error('usage: node bench/ab-contract.mjs --a=<dist> --b=<dist> [--shape=M,K,N] [--rounds=7] [--dtype=float16]');
const [M, K, N] = arg('shape', '1,64,64').split(',').map(Number);
const rounds = Number(arg('rounds', '7'));
const dtype = arg('dtype', 'float32');
const f32 = (n, seed) => Float32Array.from({ length: n }, (_, i) => (((i + seed) * 7919) % 1000) / 1000 - 0.5);
const tr = (a, R, C) => { const t = new Float32Array(R * C); for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) t[c * R + r] = a[r * C + c]; return t; };
const x = f32(M * K, 1), w = f32(K * N, 2);

const builds = [];
for (const d of dists) {
  const tc = await import(pathToFileURL(path.resolve(d, 'node.js')).href);
  await tc.init();
  const T = (data, shape, opts) => {
    const t = tc.tensor(data, shape, opts);
    if (dtype === 'float32') return t;
    const c = tc.cast(t, dtype);
    t.dispose();
    return c;
  };
  const forms = {
    'x {b,in} × w {in,out}': [T(x, [M, K], { dims: ['b', 'in'] }), T(w, [K, N], { dims: ['in', 'out'] }), "sum(x * w, ['in'])"],
    'x {b,in} × w {out,in}': [T(x, [M, K], { dims: ['b', 'in'] }), T(tr(w, K, N), [N, K], { dims: ['out', 'in'] }), "sum(x * w, ['in'])"],
    'x {in,b} × w {in,out}': [T(tr(x, M, K), [K, M], { dims: ['in', 'b'] }), T(w, [K, N], { dims: ['in', 'out'] }), "sum(x * w, ['in'])"],
    '[M,1,K] × [N,K]': [T(x, [M, 1, K]), T(tr(w, K, N), [N, K]), 'sum(x * w, [2])'],
  };
  const runs = {};
  for (const [name, [xr, wr, text]] of Object.entries(forms)) {
    try {
      const r0 = tc.evaluate(text, { x: xr, w: wr });
      const out = T(new Float32Array(M * N), r0.shape, r0.dims ? { dims: r0.dims } : undefined);
      r0.dispose();
      const o = { out };
      runs[name] = () => tc.evaluate(text, { x: xr, w: wr }, o);
    } catch (e) {
      runs[name] = `refused: ${String(e.message).split('\n')[0]}`; // this build cannot run the form
    }
  }
  builds.push(runs);
}
const time = (fn) => {
  let k = 1;
  for (;;) { const t0 = performance.now(); for (let i = 0; i < k; i++) fn(); const ms = performance.now() - t0; if (ms > 40) return (ms / k) * 1000; k *= 2; }
};
const res = builds.map((b) => Object.fromEntries(Object.keys(b).map((n) => [n, []])));
const runnable = (n) => builds.every((b) => typeof b[n] === 'function');
for (let r = 0; r < rounds; r++) for (const n of Object.keys(builds[0])) if (runnable(n)) for (const i of [r % 2, 1 - (r % 2)]) res[i][n].push(time(builds[i][n]));
console.log(`contraction [${M},${K}] × [${K},${N}], ${dtype}, resident into out; ${rounds} interleaved rounds, µs per call`);
console.log(`a = ${dists[0]}, b = ${dists[1]}`);
console.log('| form | a µs | b µs | b ÷ a (median of per-round ratios, range) |');
console.log('| --- | ---: | ---: | ---: |');
for (const n of Object.keys(builds[0])) {
  if (!runnable(n)) {
    console.log(`| ${n} | ${typeof builds[0][n] === 'string' ? builds[0][n] : 'ran'} | ${typeof builds[1][n] === 'string' ? builds[1][n] : 'ran'} | — |`);
    continue;
  }
  const ratios = res[1][n].map((v, i) => v / res[0][n][i]);
  console.log(`| ${n} | ${median(res[0][n]).toFixed(2)} | ${median(res[1][n]).toFixed(2)} | ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`);
}

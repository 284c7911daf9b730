// A/B of softmax, logSoftmax and logSumExp between two builds in one Node
// process (each dist its own engine), interleaved rounds: float32 resident in,
// into a resident out, along the last axis of short and long rows; and max
// along that axis (keepdims), softmax's first pass.
//   node bench/ab-softmax.mjs --a=<dist dir> --b=<dist dir> [--rounds=5] [--shapes=50176x3,32x1000] [--dtype=float64]
// Prints per shape and function: µs per call in each build (median over rounds)
// and the median of the per-round ratios b ÷ a.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './lib/timing.mjs';

const arg = (k, d) => process.argv.find((x) => x.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const dists = [arg('a'), arg('b')];
if (!dists[0] || !dists[1]) throw new Error('usage: node bench/ab-softmax.mjs --a=<dist> --b=<dist> [--rounds=5] [--shapes=RxC,...] [--dtype=float64]');
const rounds = Number(arg('rounds', '5'));
const dtype = arg('dtype', 'float32');
const Ctor = { float32: Float32Array, float64: Float64Array }[dtype];
if (!Ctor) throw new Error(`--dtype: float32 or float64, got ${dtype}`);
const shapes = arg('shapes', '50176x3,50176x21,4096x63,4096x64,1024x100,32x1000,8x32000,1x8').split(',').map((s) => s.split('x').map(Number));
const builds = [];
for (const d of dists) {
  const tc = await import(pathToFileURL(path.resolve(d, 'node.js')).href);
  await tc.init();
  builds.push(tc);
}
const time = (fn) => {
  let k = 1;
  for (;;) { const t0 = performance.now(); for (let i = 0; i < k; i++) fn(); const ms = performance.now() - t0; if (ms > 60) return (ms / k) * 1000; k *= 2; }
};
console.log(`softmax, logSoftmax, logSumExp, max along the last axis, ${dtype} resident into out; ${rounds} interleaved rounds, µs per call`);
console.log(`a = ${dists[0]}, b = ${dists[1]}`);
console.log('| shape | function | a µs | b µs | b ÷ a (median of per-round ratios, range) |');
console.log('| --- | --- | ---: | ---: | ---: |');
for (const [R, C] of shapes) {
  const data = Ctor.from({ length: R * C }, (_, i) => Math.sin(i * 0.37) * 4);
  const calls = builds.map((tc) => {
    const x = tc.tensor(data, [R, C]);
    const out = tc.tensor(new Ctor(R * C), [R, C]);
    const col = tc.tensor(new Ctor(R), [R]);
    const colk = tc.tensor(new Ctor(R), [R, 1]);
    return { softmax: () => tc.softmax(x, -1, { out }), logSoftmax: () => tc.logSoftmax(x, -1, { out }), logSumExp: () => tc.logSumExp(x, -1, { out: col }),
      max: () => tc.max(x, { axes: [-1], keepdims: true, out: colk }) };
  });
  for (const f of ['softmax', 'logSoftmax', 'logSumExp', 'max']) {
    const t = [[], []];
    for (let r = 0; r < rounds; r++) for (const i of [r % 2, 1 - (r % 2)]) t[i].push(time(calls[i][f]));
    const ratios = t[1].map((v, i) => v / t[0][i]);
    console.log(`| [${R},${C}] | ${f} | ${median(t[0]).toFixed(1)} | ${median(t[1]).toFixed(1)} | ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`);
  }
}

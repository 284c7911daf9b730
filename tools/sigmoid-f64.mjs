// The largest error of float64 sigmoid, in ulp, on the inputs that
// tools/sigmoid_f64_refs.py wrote with their correctly rounded values, split
// at 0 (docs/accuracy.md). Usage, after npm run build:
//   python3 tools/sigmoid_f64_refs.py /tmp/sig.bin && node tools/sigmoid-f64.mjs /tmp/sig.bin
import fs from 'node:fs';
import { init, sigmoid } from '../dist/node.js';

await init();
const b = fs.readFileSync(process.argv[2]);
const all = new Float64Array(b.buffer, b.byteOffset, b.length / 8);
const n = all.length / 2;
const xs = all.slice(0, n);
const refs = all.slice(n);
const y = sigmoid({ data: xs }).data;
const bits = (v) => new BigInt64Array(new Float64Array([v]).buffer)[0];
const side = { 'x >= 0': { inputs: 0, worst: 0n, over1: 0 }, 'x < 0': { inputs: 0, worst: 0n, over1: 0 } };
for (let i = 0; i < n; i++) {
  let u = bits(y[i]) - bits(refs[i]);
  if (u < 0n) u = -u;
  const s = side[xs[i] >= 0 ? 'x >= 0' : 'x < 0'];
  s.inputs++;
  if (u > s.worst) s.worst = u;
  if (u > 1n) s.over1++;
}
for (const [k, s] of Object.entries(side)) console.log(`${k}: ${s.inputs} inputs, largest error ${s.worst} ulp, ${s.over1} over 1 ulp`);

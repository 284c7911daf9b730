// The largest error, in ulp, of each float64 function against the correctly
// rounded values that tools/f64_refs.py wrote, split at x (the first input) = 0
// (docs/accuracy.md). Usage, after npm run build:
//   python3 tools/f64_refs.py /tmp/f64.bin && node tools/f64-accuracy.mjs /tmp/f64.bin
import fs from 'node:fs';
import * as tc from '../dist/node.js';

await tc.init();
const b = fs.readFileSync(process.argv[2]);
const nl = b.indexOf(10);
const { fns, n } = JSON.parse(b.subarray(0, nl).toString()); // [[name, arity], ...]
const body = b.subarray(nl + 1);
const all = new Float64Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
const bits = (v) => new BigInt64Array(new Float64Array([v]).buffer)[0];
const ulps = (a, r) => { // distance in representable doubles (same sign: bit patterns are ordered)
  if (Number.isNaN(a) || Number.isNaN(r)) return Number.isNaN(a) === Number.isNaN(r) ? 0n : -1n;
  const d = (Math.sign(a) === Math.sign(r) || a === 0 || r === 0) ? bits(Math.abs(a)) - bits(Math.abs(r)) : bits(Math.abs(a)) + bits(Math.abs(r));
  return d < 0n ? -d : d;
};
let at = 0;
const take = () => all.subarray(at, (at += n));
for (const [name, arity] of fns) {
  const xs = take();
  const ys = arity === 2 ? take() : null;
  const refs = take();
  const y = arity === 2 ? tc[name]({ data: xs }, { data: ys }).data : tc[name]({ data: xs }).data;
  const side = { 'x >= 0': { inputs: 0, worst: 0n, over1: 0 }, 'x < 0': { inputs: 0, worst: 0n, over1: 0 } };
  for (let i = 0; i < n; i++) {
    const s = side[xs[i] >= 0 ? 'x >= 0' : 'x < 0'];
    const u = ulps(y[i], refs[i]);
    s.inputs++;
    if (u < 0n) { s.worst = 'NaN where the reference is not'; continue; }
    if (typeof s.worst === 'bigint' && u > s.worst) s.worst = u;
    if (u > 1n) s.over1++;
  }
  const parts = Object.entries(side).filter(([, s]) => s.inputs > 0)
    .map(([k2, s]) => `${k2}: ${s.inputs} inputs, largest ${s.worst} ulp, ${s.over1} over 1 ulp`);
  console.log(`${name.padEnd(8)} ${parts.join('; ')}`);
}

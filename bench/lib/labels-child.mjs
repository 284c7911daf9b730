// The label union (issue 23) in a fresh Node process:
//   node bench/lib/labels-child.mjs [rounds]
// prints one JSON line { cases: { id: { ms: [...], wallMs: [...] } }, n }:
// per case, each round's time on the bench's clock, min(wall, process CPU
// time) (bench/lib/timing.mjs), and its wall time. A round is one call end to
// end: labels read from the caller's arrays, interned, matched by the engine,
// the result's coords built. Cases, 2^20 labels per side, disjoint (2^21 out):
//   union-str   namedBroadcastShape, string labels 'a0'.. / 'b0'..
//   union-int   namedBroadcastShape, integer labels 0.. / 2^20..
//   add-str     add of two float32 operands with those string coords (the gather too)
// Each case is checked (result length, first right label after the left's)
// and called once before it is timed. TENSORCAST_BENCH_ENTRY picks another build.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.env.TENSORCAST_BENCH_ENTRY || path.join(benchDir, '..', 'dist', 'node.js');
const tc = await import(pathToFileURL(path.resolve(entry)).href);
await tc.init();
const rounds = Number(process.argv[2] ?? 5);
const N = 1 << 20;

const strA = Array.from({ length: N }, (_, i) => `a${i}`);
const strB = Array.from({ length: N }, (_, i) => `b${i}`);
const intA = Array.from({ length: N }, (_, i) => i);
const intB = Array.from({ length: N }, (_, i) => N + i);
const named = (labels) => ({ dims: ['x'], coords: { x: labels } });
const dataA = new Float32Array(N).fill(1);
const dataB = new Float32Array(N).fill(2);

const CASES = {
  'union-str': () => tc.namedBroadcastShape(named(strA), named(strB), { shaping: 'union' }).coords.x,
  'union-int': () => tc.namedBroadcastShape(named(intA), named(intB), { shaping: 'union' }).coords.x,
  'add-str': () => tc.add({ data: dataA, shape: [N], ...named(strA) }, { data: dataB, shape: [N], ...named(strB) }, { shaping: 'union', fill: 0 }).coords.x,
};
const FIRST_RIGHT = { 'union-str': strB[0], 'union-int': intB[0], 'add-str': strB[0] };

const clock = () => {
  const u = process.cpuUsage();
  return { wall: performance.now(), cpu: (u.user + u.system) / 1000 };
};
const cases = {};
for (const [id, fn] of Object.entries(CASES)) {
  const x = fn();
  if (x.length !== 2 * N || x[N] !== FIRST_RIGHT[id]) throw new Error(`${id}: wrong result (length ${x.length}, label ${N}: ${x[N]})`);
  const ms = [];
  const wallMs = [];
  for (let r = 0; r < rounds; r++) {
    const a = clock();
    fn();
    const b = clock();
    wallMs.push(b.wall - a.wall);
    ms.push(Math.min(b.wall - a.wall, b.cpu - a.cpu));
  }
  cases[id] = { ms, wallMs };
}
process.stdout.write(`${JSON.stringify({ cases, n: N })}\n`);

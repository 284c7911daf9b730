// Builds of tensorcast side by side, in one process: the per-call sets
// (small [3,1]+[1,4] e2e and resident, broadcastShapes rank 4) of each build
// and a plain-JS control, interleaved run by run; then init() in fresh
// processes (alternating builds) and the gzipped page payload of each.
//   node bench/ab.mjs <dist dir> [<dist dir> ...] [--quick]
// A dist dir holds node.js, index.js, tensorcast.mjs and tensorcast.wasm (a
// `npm run build` of some commit, e.g. from `git archive <commit>` in /tmp).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measure, median, medianRatio } from './lib/timing.mjs';
import { importGraph } from './lib/size.mjs';
import * as plain from './lib/plainjs.mjs';
import { perCallCases } from './lib/percall.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const dirs = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
if (!dirs.length) throw new Error('usage: node bench/ab.mjs <dist dir> [<dist dir> ...]');
const name = (d) => path.relative(process.cwd(), d) || d;

// ---- per call, one process ------------------------------------------------------
const a = new Float32Array([1, 2, 3]);
const b = new Float32Array([10, 20, 30, 40]);
const cases = [];
{
  const run = plain.binaryPrepared('add', 'float32', [3, 1], [1, 4]);
  const out = new Float32Array(12);
  cases.push({ id: 'control', fn: () => run(a, b, out) });
}
for (const d of dirs) {
  const c = await perCallCases(d); // checked before timing (bench/lib/percall.mjs)
  cases.push({ id: `${d}|e2e`, fn: c.e2e });
  cases.push({ id: `${d}|res`, fn: c.resident });
  cases.push({ id: `${d}|shapes`, fn: c.shapes });
}
const opt = quick ? { runs: 7, warmupMs: 60, batchMs: 5 } : { runs: 31, warmupMs: 300, batchMs: 15 };
const { min } = await measure(cases, opt);

// ---- init() in fresh processes, builds alternating ---------------------------------
const child = `
const u = () => { const c = process.cpuUsage(); return [performance.now(), (c.user + c.system) / 1000]; };
const [w0, c0] = u();
const tc = await import(process.argv[1]);
const [w1, c1] = u();
await tc.init();
const [w2, c2] = u();
console.log(JSON.stringify({ importMs: Math.min(w1 - w0, c1 - c0), initMs: Math.min(w2 - w1, c2 - c1), initWallMs: w2 - w1 }));`;
const inits = Object.fromEntries(dirs.map((d) => [d, []]));
for (let i = 0; i < (quick ? 3 : 9); i++) {
  for (const d of dirs) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', child, pathToFileURL(path.join(d, 'node.js')).href], { encoding: 'utf8' });
    try { inits[d].push(JSON.parse(r.stdout.trim().split('\n').pop())); } catch { /* reported as — */ }
  }
}

// ---- payload: the JS a page loads (index.js's import graph), bundled and minified, + the wasm --------
async function payload(d) {
  const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
  const wasm = gz(fs.readFileSync(path.join(d, 'tensorcast.wasm')));
  let js = null;
  try {
    const { rolldown } = await import(pathToFileURL(path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs')).href);
    const bnd = await rolldown({ input: path.join(d, 'index.js'), platform: 'browser', logLevel: 'silent' });
    const out = await bnd.generate({ format: 'esm', minify: true });
    await bnd.close();
    js = gz(Buffer.from(out.output[0].code));
  } catch { /* no bundler */ }
  return { js, wasm, files: importGraph(d, 'index.js').length };
}

const f = (x) => (x === undefined || Number.isNaN(x) ? '—' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const kb = (n) => (n === null ? '—' : `${(n / 1024).toFixed(1)} KB`);
console.log(`| build | small e2e ns | small resident ns | broadcastShapes ns | e2e ÷ control | resident ÷ control | init ms (import ms) | payload gz (JS + wasm) |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const d of dirs) {
  const p = await payload(d);
  const s = inits[d];
  console.log(`| ${name(d)} | ${f(median(min[`${d}|e2e`]))} | ${f(median(min[`${d}|res`]))} | ${f(median(min[`${d}|shapes`]))} | ${medianRatio(min[`${d}|e2e`], min.control).toFixed(1)}× | ${medianRatio(min[`${d}|res`], min.control).toFixed(1)}× | ${s.length ? `${f(median(s.map((x) => x.initMs)))} (${f(median(s.map((x) => x.importMs)))})` : '—'} | ${kb(p.js + p.wasm)} (${kb(p.js)} + ${kb(p.wasm)}) |`);
}
console.log(`\nplain-JS control ([3,1]+[1,4] loop, no allocation): ${f(median(min.control))} ns. Clock: min(wall, process CPU) per batch (bench/lib/timing.mjs); ${opt.runs} interleaved runs, medians; init: ${quick ? 3 : 9} fresh processes per build, min(wall, CPU).`);

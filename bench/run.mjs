// `npm run bench`: tensorcast against its peers.
//
// One child Node process per workload set (bench/lib/set.mjs) runs tensorcast,
// every peer and the memory-traffic limit side by side; this script installs
// what is missing, runs the sets one after another, measures init() in fresh
// processes and the gzipped download sizes, runs the per-call and main kernel
// sets in Node and in headless Chromium (bench/browser/), measures embind
// against raw exports (bench/boundary/), runs the fused-expression rows
// (issue 22, bench/fused/) in Node and Chromium, prints the report as Markdown and
// writes it to BENCHMARKS.md, with the previous run's figures
// (bench/runs/*.json) beside today's.
//
//   node bench/run.mjs [--quick] [--only=row,small,...] [--clock=min|wall|cpu] [--no-write]
//   node bench/run.mjs --quick --only=reduce     # the reduction sets (issue 13), Node and Chromium
//
// --quick: fewer and shorter runs (a smoke test; not for the report).
// --clock: what the medians and ratios are computed from: per batch, min of
//          wall and process CPU time (default; see bench/lib/timing.mjs), wall
//          time, or CPU time. The wall (or, for wall, CPU) median is shown
//          beside it.
// --only:  a subset of the sets (ids from bench/lib/workloads.mjs, plus init,
//          size, browser, boundary and fused; `reduce` = every reduction set in Node
//          and the reduction groups in Chromium, `browser-reduce` = those
//          groups alone); BENCHMARKS.md and bench/runs/ are only written by a
//          full run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKLOADS, describe, numel } from './lib/workloads.mjs';
import { median } from './lib/timing.mjs';
import { previousRun, summarize } from './lib/summary.mjs';
import { browserSection, boundarySection, chromiumTargets } from './browser/report.mjs';
import { FUSED_GROUPS } from './fused/groups.mjs';
import { fusedSection, fusedTargets, fusedSummary } from './fused/report.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const noWrite = args.includes('--no-write');
const onlyArg = args.find((a) => a.startsWith('--only='));
const clockArg = args.find((a) => a.startsWith('--clock='));
const clock = clockArg ? clockArg.slice(8) : 'min';
if (!['min', 'cpu', 'wall'].includes(clock)) throw new Error('--clock=min|cpu|wall');
const otherClock = clock === 'wall' ? 'cpu' : 'wall';
const only = onlyArg ? new Set(onlyArg.slice(7).split(',')) : null;
// --only=fused=chain-b+cold: some groups of the fused-expression rows.
const fusedOnly = only && [...only].find((x) => x.startsWith('fused='));
const fusedGroups = fusedOnly ? fusedOnly.slice(6).split('+') : FUSED_GROUPS;
if (fusedOnly) only.add('fused');
for (const g of fusedGroups) if (!FUSED_GROUPS.includes(g)) throw new Error(`--only=fused=...: no group ${g} (${FUSED_GROUPS.join(', ')})`);
if (only?.has('reduce')) {
  for (const w of WORKLOADS) if (w.group === 'reduce') only.add(w.id);
  only.add('browser-reduce');
}
if (args.includes('--help')) {
  process.stdout.write(`npm run bench [-- options]
  --quick              fewer, shorter runs (a smoke test; not for the report)
  --only=a,b,...       a subset (prints the report, writes nothing): set ids (${WORKLOADS.map((w) => w.id).join(', ')}),
                       init, size, labels, browser, boundary, fused (issue 22: evaluate, Node + Chromium);
                       fused=<group>[+<group>] some of its groups (${FUSED_GROUPS.join(', ')});
                       reduce = the reduction sets (Node)
                       + their Chromium groups; browser-reduce = those groups alone
  --clock=min|wall|cpu the clock of the medians and ratios (default min(wall, CPU))
  --no-write           do not write BENCHMARKS.md / bench/runs/
`);
  process.exit(0);
}
const started = Date.now();
const log = (...a) => process.stderr.write(`${a.join(' ')}\n`);

// ---- set-up: bench dependencies and dist/ ----------------------------------
if (!fs.existsSync(path.join(benchDir, 'node_modules', '.package-lock.json'))) {
  log('installing the peers (npm ci in bench/) ...');
  // onnxruntime-node's install script would download from a host we cannot
  // reach; the CPU binary is in the package, so skip it.
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: benchDir, stdio: 'inherit', env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
  });
  if (r.status !== 0) {
    log('npm ci in bench/ failed');
    process.exit(1);
  }
}
{
  const dist = path.join(root, 'dist');
  const src = path.join(root, 'bindings', 'js');
  const missing = !fs.existsSync(path.join(dist, 'node.js'))
    || fs.readdirSync(src).some((f) => /\.js$/.test(f) && !fs.existsSync(path.join(dist, f)));
  if (missing) {
    log('building dist/ ...');
    const { build } = await import('../scripts/build.mjs');
    build();
  }
}

// What is measured: dist/ as it is now (the lead rebuilds it from time to time;
// a rebuild during the run is reported).
function distStamp() {
  try {
    const wasm = fs.readFileSync(path.join(root, 'dist', 'tensorcast.wasm'));
    const js = fs.readdirSync(path.join(root, 'dist')).filter((f) => /\.m?js$/.test(f)).sort()
      .map((f) => fs.readFileSync(path.join(root, 'dist', f)));
    const h = createHash('sha256');
    h.update(wasm);
    for (const b of js) h.update(b);
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
    return { hash: h.digest('hex').slice(0, 12), mtime: fs.statSync(path.join(root, 'dist', 'tensorcast.wasm')).mtime.toISOString().replace(/\.\d+Z$/, 'Z'), head };
  } catch {
    return null;
  }
}
const distBefore = distStamp();

// ---- the workload sets, one process each -----------------------------------
const results = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tensorcast-bench-'));
for (const w of WORKLOADS) {
  if (only && !only.has(w.id)) continue;
  const file = path.join(tmp, `${w.id}.json`);
  log(`\n== ${w.id}: ${describe(w)}`);
  const r = spawnSync(process.execPath, [path.join(benchDir, 'lib', 'set.mjs'), w.id, file, `--clock=${clock}`, ...(quick ? ['--quick'] : [])], {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0 || !fs.existsSync(file)) {
    log(`set ${w.id} failed (exit ${r.status})`);
    results.push({ id: w.id, title: w.title, description: describe(w), failed: true, unit: w.unit, impls: [] });
    continue;
  }
  results.push(JSON.parse(fs.readFileSync(file, 'utf8')));
}

// ---- init() in fresh processes ---------------------------------------------
const INIT_LIBS = ['tensorcast', 'tfjs-wasm', 'ort-web', 'ort-node (native)'];
const initRuns = quick ? 3 : 9;
const initSamples = Object.fromEntries(INIT_LIBS.map((l) => [l, []]));
if (!only || only.has('init')) {
  log(`\n== init: ${initRuns} fresh processes per library`);
  for (let i = 0; i < initRuns; i++) {
    for (const lib of INIT_LIBS) {
      const r = spawnSync(process.execPath, [path.join(benchDir, 'lib', 'init-child.mjs'), lib], { cwd: root, encoding: 'utf8' });
      const line = (r.stdout || '').trim().split('\n').pop();
      try {
        initSamples[lib].push(JSON.parse(line));
      } catch {
        log(`init ${lib} failed: ${(r.stderr || '').split('\n')[0]}`);
      }
    }
  }
}

// ---- the label union (issue 23), one fresh process ------------------------------
let labels = null;
if (!only || only.has('labels')) {
  log('\n== labels: 1M + 1M label union in a fresh process');
  const r = spawnSync(process.execPath, [path.join(benchDir, 'lib', 'labels-child.mjs'), String(quick ? 2 : 5)], { cwd: root, encoding: 'utf8' });
  try {
    labels = JSON.parse((r.stdout || '').trim().split('\n').pop());
  } catch {
    log(`labels failed: ${(r.stderr || '').split('\n').slice(0, 3).join(' ')}`);
  }
}

// ---- sizes -------------------------------------------------------------------
let sizeRows = [];
let sizeParts = [];
if (!only || only.has('size')) {
  const { sizes, parts } = await import('./lib/size.mjs');
  sizeRows = await sizes(root, benchDir);
  sizeParts = await parts(root, benchDir).catch((e) => (log(`size parts failed: ${e.message}`), []));
}

// ---- Node and headless Chromium, same cases ------------------------------------
let browser = null;
if (!only || only.has('browser') || only.has('browser-reduce')) {
  const { runBrowserSuite } = await import('./browser/run.mjs');
  const { GROUPS, REDUCE_GROUPS } = await import('./browser/groups.mjs');
  const groups = !only || only.has('browser') ? GROUPS : REDUCE_GROUPS;
  log(`\n== browser: ${groups.join(', ')} in Node and headless Chromium`);
  browser = await runBrowserSuite({ quick, groups });
}

// ---- embind vs raw export ------------------------------------------------------
let boundary = null;
if (!only || only.has('boundary')) {
  log('\n== boundary: embind vs raw export (em++ build of bench/boundary/measure.cpp)');
  const { runBoundarySuite } = await import('./boundary/run.mjs');
  boundary = await runBoundarySuite({ quick });
}

// ---- fused expressions (issue 22), Node and Chromium ---------------------------
let fused = null;
if (!only || only.has('fused')) {
  log(`\n== fused: ${fusedGroups.join(', ')} in Node and headless Chromium (the limit: em++ build of bench/limit/fused.cpp)`);
  const { runFusedSuite } = await import('./fused/run.mjs');
  fused = await runFusedSuite({ quick, groups: fusedGroups, clock: clock === 'wall' ? 'wall' : 'min' });
}

// ---- the report --------------------------------------------------------------
const f3 = (x) => (x === undefined || Number.isNaN(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const fx = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${x.toFixed(2)}×`);
const spread = (s) => (s && s.median ? `±${(((s.p75 - s.p25) / 2 / s.median) * 100).toFixed(0)}%` : '');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const tcInfo = (() => {
  for (const r of results) {
    const t = r.impls && r.impls.find((i) => i.name === 'tensorcast');
    if (t && t.info) return t.info;
  }
  return '';
})();
const pendingTc = /pending/.test(tcInfo);

const byIdEarly = Object.fromEntries(results.map((r) => [r.id, r]));
const runDate = new Date(started).toISOString().replace(/\.\d+Z$/, 'Z');
const prev = previousRun(path.join(benchDir, 'runs'), runDate);

const md = [];
const cpu = os.cpus();
md.push('# Benchmarks');
md.push('');
md.push('tensorcast against its peers. Generated by `npm run bench` (bench/run.mjs); numbers from one run on one machine.');
md.push('');
md.push(`- Machine: ${cpu[0] ? cpu[0].model : '?'}, ${cpu.length} cores (shared, noisy), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()} ${os.arch()}`);
md.push(`- Node ${process.version} (V8 ${process.versions.v8})${browser?.chromiumVersion ? `; headless Chromium ${browser.chromiumVersion}` : ''}; date ${runDate}`);
md.push(`- Command: \`npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}\` (${((Date.now() - started) / 60000).toFixed(1)} min)${quick ? ' — QUICK MODE: smoke-test numbers, not for citing' : ''}`);
const opt = results.find((r) => r.options)?.options;
if (opt) md.push(`- Per set: warm-up ${opt.warmupMs} ms per case, then ${opt.runs} interleaved runs of ~${opt.batchMs} ms batches (ns/call sets: ~${quick ? 5 : 15} ms); medians over runs`);
md.push(`- Clock: ${{
  min: 'per batch, the smaller of wall time (process.hrtime.bigint) and the process\'s CPU time (process.cpuUsage, user + system, all threads). Alone on the machine that is the wall time; when another process preempts a batch (the machine is shared), the CPU clock stops and the CPU time is used. The plain wall-clock median is shown beside it.',
  wall: 'wall time (process.hrtime.bigint); the CPU-time median is shown beside it.',
  cpu: 'the process\'s CPU time (process.cpuUsage, user + system, all threads); the wall-clock median is shown beside it.',
}[clock]}`);
if (pendingTc) md.push(`- **tensorcast rows are pending**: ${tcInfo}`);
{
  const after = distStamp();
  if (distBefore) md.push(`- Measured: dist/ built ${distBefore.mtime} (JS + wasm sha256 ${distBefore.hash}), repository HEAD ${distBefore.head}${after && after.hash !== distBefore.hash ? ` — **dist/ was rebuilt during the run** (now ${after.hash}, ${after.mtime}): sets after that point measured the new build` : ''}`);
}
{
  // The load: the plain-JS control beside the per-call sets, today and in the previous run.
  const pl = byIdEarly.small?.impls.find((i) => i.name === 'plain JS' && i.status === 'ok');
  const bits = [];
  if (pl) bits.push(`plain JS [3,1]+[1,4] (no allocation) in the Node small set: ${f3(pl.kernel.median)} ns${prev?.sets?.small?.plainKernel !== undefined ? ` (previous run: ${f3(prev.sets.small.plainKernel)} ns)` : ''}`);
  const cs = browser && ['percall', 'same', 'row', 'nchw'].flatMap((g) => [browser.node[g], browser.chromium[g]]).filter(Boolean).map((r) => r.cases.control.median);
  if (cs && cs.length) bits.push(`the same control in the Node/Chromium groups: ${f3(Math.min(...cs))}–${f3(Math.max(...cs))} ns`);
  const la = os.loadavg();
  bits.push(`load average at the end ${la.map((x) => x.toFixed(2)).join(', ')} on ${cpu.length} cores`);
  md.push(`- Load: ${bits.join('; ')}. Other workers share the machine; compare ratios within a run.`);
}
md.push('');

// Targets, with the previous run's figures (bench/runs/*.json) beside today's.
const tgt = [];
const byId = Object.fromEntries(results.map((r) => [r.id, r]));
const tcRow = (id) => byId[id] && byId[id].impls.find((i) => i.name === 'tensorcast');
const verdict = (ok) => (ok === null ? 'pending' : ok ? 'met' : '**not met**');
function statusOf(id) {
  const t = tcRow(id);
  if (!t) return { t: null, why: byId[id] ? 'no row' : 'not run' };
  if (t.status !== 'ok') return { t: null, why: t.status };
  return { t };
}
const P = prev?.sets ?? {};
const pv = (x, unit = '') => (x === undefined || x === null ? '—' : `${f3(x)}${unit}`);
// "As before or better" for a ratio: ✓ within +0.05 of the previous run's, ≈ within +0.12 (the most a
// ratio moved between three runs of nearly the same build, BENCHMARKS.md of 2026-11-22), ✗ beyond.
const held = (now, before) => {
  if (now === undefined || before === undefined) return '';
  return now <= before + 0.05 ? '✓' : now <= before + 0.12 ? '≈' : '✗';
};
// One row per large workload: the ratio targets.
const mark = (x, ok) => (x === undefined || Number.isNaN(x) ? '—' : `${fx(x)} ${ok ? '✓' : '✗'}`);
const perWorkload = [];
for (const w of WORKLOADS.filter((x) => x.unit === 'elem')) {
  if (!byId[w.id]) continue;
  const { t, why } = statusOf(w.id);
  const f32 = w.dtype === 'float32';
  const big = numel(w.out) >= 1 << 20;
  if (!t) {
    perWorkload.push([w.id, f32 ? why : 'n/t', '', f32 ? why : 'n/t', '', big ? why : 'n/t']);
    continue;
  }
  const fw = byId[w.id].fastest;
  const p = P[w.id] ?? {};
  const samePeer = p.kernelWasmPeer === fw.kernel.wasm;
  perWorkload.push([
    w.id,
    f32 ? mark(t.kernel.xLimit, t.kernel.xLimit <= 1.1) : `${fx(t.kernel.xLimit)} (n/t)`,
    t.kernel.xSimdCopy === undefined ? '—' : `${fx(t.kernel.xSimdCopy)} (the loop: ${fx(byId[w.id].limit?.simd?.xLimit)} of memory.copy)`,
    t.kernel.xWasm === undefined ? '— (no wasm peer)' : `${f32 ? mark(t.kernel.xWasm, t.kernel.xWasm <= 1 / 1.3) : `${fx(t.kernel.xWasm)} (n/t)`} vs ${fw.kernel.wasm}`,
    p.kernelXWasm === undefined ? '—' : `${fx(p.kernelXWasm)} vs ${p.kernelWasmPeer} → ${samePeer ? `${held(t.kernel.xWasm, p.kernelXWasm)} (${t.kernel.xWasm - p.kernelXWasm >= 0 ? '+' : ''}${(t.kernel.xWasm - p.kernelXWasm).toFixed(2)})` : 'other peer'}`,
    t.e2e?.xWasm === undefined ? '— (no wasm peer)' : `${big ? mark(t.e2e.xWasm, t.e2e.xWasm <= 0.4) : `${fx(t.e2e.xWasm)} (n/t)`} vs ${fw.e2e.wasm}`,
  ]);
}
for (const id of ['materialise']) {
  if (!byId[id]) continue;
  const { t, why } = statusOf(id);
  for (const m of ['kernel', 'e2e']) {
    const x = t && t[m] && t[m].xPlain;
    const px = P[id]?.[m === 'kernel' ? 'xPlainKernel' : 'xPlainE2E'];
    tgt.push([`materialise ≥ 1.5× faster than best plain-JS copy (${m})`, id, px === undefined ? '—' : fx(px), t ? fx(x) : why, verdict(t && x !== undefined ? x <= 1 / 1.5 : null)]);
  }
}
if (byId.small) {
  const { t, why } = statusOf('small');
  tgt.push(['small [3,1]+[1,4] ≤ 250 ns per call, e2e (typed arrays in, fresh array out)', 'small', pv(P.small?.e2e, ' ns'), t ? `${f3(t.e2e.median)} ns` : why, verdict(t ? t.e2e.median <= 250 : null)]);
  tgt.push(['small [3,1]+[1,4] ≤ 120 ns per call, resident (tensors in, resident out)', 'small', pv(P.small?.kernel, ' ns'), t ? `${f3(t.kernel.median)} ns` : why, verdict(t ? t.kernel.median <= 120 : null)]);
  const xf = t?.e2e?.xPlain;
  tgt.push(['small [3,1]+[1,4] e2e ≤ 1.0× the plain-JS fresh-array add in the same runs (issue 23)', 'small', P.small?.xPlainE2E === undefined ? '—' : fx(P.small.xPlainE2E), t ? fx(xf) : why, verdict(xf !== undefined ? xf <= 1.0 : null)]);
  const pl = byId.small.impls.find((i) => i.name === 'plain JS' && i.status === 'ok');
  if (pl) tgt.push(['(load control) plain JS [3,1]+[1,4], no allocation', 'small', pv(P.small?.plainKernel, ' ns'), `${f3(pl.kernel.median)} ns`, 'no target']);
}
if (byId.shapes) {
  const { t, why } = statusOf('shapes');
  tgt.push(['broadcastShapes of two rank-4 shapes ≤ 200 ns per call (the same pair: the engine answers from the last shape call\'s plan)', 'shapes', pv(P.shapes?.kernel, ' ns'), t ? `${f3(t.kernel.median)} ns` : why, verdict(t ? t.kernel.median <= 200 : null)]);
}
if (byId['shapes-varied']) {
  const { t, why } = statusOf('shapes-varied');
  tgt.push(['broadcastShapes ≤ 200 ns per call, 8 pairs in turn (every call plans afresh)', 'shapes-varied', '—', t ? `${f3(t.kernel.median)} ns` : why, verdict(t ? t.kernel.median <= 200 : null)]);
}
const initMed = (lib) => median(initSamples[lib].map((s) => s.initMs));
if (initSamples.tensorcast.length) tgt.push(['init() ≤ 30 ms in Node (min(wall, CPU))', 'init', pv(prev?.init?.initMs, ' ms'), `${initMed('tensorcast').toFixed(1)} ms`, verdict(initMed('tensorcast') <= 30)]);
if (labels) {
  const LABEL_CASES = [
    ['union-str', 'namedBroadcastShape, string labels'],
    ['union-int', 'namedBroadcastShape, integer labels'],
    ['add-str', 'add of float32 operands with those string coords (gather included)'],
  ];
  for (const [id, what] of LABEL_CASES) {
    const c = labels.cases[id];
    if (!c) continue;
    const ms = median(c.ms);
    tgt.push([`label union of 1M + 1M disjoint labels < 1 s end to end: ${what} (median of ${c.ms.length} calls, min(wall, CPU); wall ${median(c.wallMs).toFixed(0)} ms)`, 'labels', '—', `${ms.toFixed(0)} ms`, verdict(ms < 1000)]);
  }
}
const tcSize = sizeRows.find((r) => r.name === 'tensorcast');
if (tcSize) {
  // The budget: 115 KB as issues 22 and 23 restated it for what ships (it replaced earlier issues' 60
  // and 66.8 KB), raised by 10 KB for views and post-processing together (issues 38, 41).
  tgt.push(['page payload (JS API, minified, + wasm, with every kernel and the expression engine) ≤ 125 KB gzipped (issues 22, 23; 38, 41)', 'size', pv(prev?.size?.totalKB, ' KB'), `${kb(tcSize.gzip)} (JS ${kb(tcSize.glueGzip)} + wasm ${kb(tcSize.wasmGzip)})`, verdict(tcSize.gzip <= 125 * 1024)]);
}
const shapesSize = sizeRows.find((r) => r.name === 'tensorcast/shapes');
if (shapesSize) tgt.push(['tensorcast/shapes (its JS API, minified, + tensorcast-shapes.wasm) ≤ 30 KB gzipped (issue 23)', 'size', pv(prev?.size?.shapesKB, ' KB'), `${kb(shapesSize.gzip)} (JS ${kb(shapesSize.glueGzip)} + wasm ${kb(shapesSize.wasmGzip)})`, verdict(shapesSize.gzip <= 30 * 1024)]);
if (browser) {
  const prevC = prev?.chromium;
  for (const [name, id, today, v] of chromiumTargets(browser)) {
    const key = /plain-JS fresh/.test(name) ? 'smallE2EvsFresh' : /e2e/.test(name) ? 'smallE2E' : /resident/.test(name) ? 'smallRes' : /in turn/.test(name) ? 'shapesVaried' : /broadcastShapes/.test(name) ? 'shapes' : 'initMs';
    let before = prevC?.[key] !== undefined ? pv(prevC[key], key === 'initMs' ? ' ms' : key === 'smallE2EvsFresh' ? '×' : ' ns') : '—';
    if (!prevC && key === 'smallE2E') before = '200 ns (issue 12, mode not stated)';
    if (!prevC && key === 'shapes') before = '192–217 ns (issue 12, quiet machine)';
    tgt.push([name, id, before, today, v]);
  }
  const pc = browser.chromium?.percall;
  if (pc) tgt.push(['(load control) plain JS [3,1]+[1,4] in Chromium, no allocation', 'browser', prevC?.control !== undefined ? pv(prevC.control, ' ns') : '33 ns quiet, 87 ns busy (issue 12)', `${f3(pc.cases.control.median)} ns`, 'no target']);
  for (const g of ['same', 'row', 'nchw']) {
    const c = browser.chromium?.[g]?.ratios?.['tc/tf'];
    const n = browser.node?.[g]?.ratios?.['tc/tf'];
    if (c === undefined) continue;
    tgt.push([`kernel ÷ tfjs-wasm in Chromium ≤ 0.77× (≥ 1.3× faster); Node, same harness: ${fx(n)}`, `browser ${g}`, prevC?.kernelXtf?.[g] !== undefined ? fx(prevC.kernelXtf[g]) : '0.63× (issue 12: "1.6×", set not stated)', fx(c), verdict(c <= 1 / 1.3)]);
  }
}

// Issue 13: the reductions. Sums on the resident path (x resident), unbroadcast end to end.
// What the kernel does beyond the load loop's one pass (bench/lib/reduce.mjs), per
// set, from src/kernels/reduce_driver.cpp and reduce_wasmsimd.cpp: the reason
// given when a "≤ 1.3× read" target is not met.
const REDUCE_WHY = {
  all: 'one row of 2^20 elements: four f32x4 accumulators per 4 KiB block, the 256 block sums combined pairwise by a binary counter (the float32 accuracy of a pairwise sum), and the JS→wasm call with its argument checks',
  rows: '1,024 row-kernel calls of 1,024 elements, each its own pairwise tree of four f32x4 accumulators ending in a horizontal reduction of the lanes to one value',
  col: 'column order: leaves of up to 8 rows (4 KiB apart) by 4 vectors of columns, a row at a time, each adding the waiting partial rows while its sums are in registers and storing once (the pairwise order, for accuracy); the leaf pass alone measured 1.2–1.3× the read (16 or 32 rows a leaf measured slower; 2 or 8 rows unrolled a step no faster than 1), and partial rows still go to memory between leaves',
  nchw: '512 row-kernel calls of 3,136 elements (one per (n, c) plane), each reduced to one value, then the 8 partial rows of 64 merged pairwise',
};
const reduceWhy = (w) => REDUCE_WHY[{ 'sum-all': 'all', 'sum-axis1': 'rows', 'unb-col': 'rows', 'sum-axis0': 'col', 'unb-row': 'col', 'unb-nchw': 'nchw' }[w.id]];
const us = (ns) => f3(ns / 1000);
const fxr = (x) => (x !== undefined && x < 0.1 ? `${x.toFixed(3)}×` : fx(x)); // small ratios: three decimals
const reduceRows = [];
for (const w of WORKLOADS.filter((x) => x.kind === 'reduce')) {
  if (!byId[w.id]) continue;
  const { t, why } = statusOf(w.id);
  const m = w.primary;
  const r = byId[w.id];
  const sh = (x) => `[${x.join(',')}]`;
  const name = w.op === 'sum' ? `${w.title} of ${sh(w.x)} f32, x resident` : `unbroadcast ${sh(w.x)} → ${sh(w.inShape)} f32, end to end`;
  const need = w.op === 'sum' ? 2 : 1.5;
  const peer = r.fastest?.[m]?.wasm;
  const pRow = peer && r.impls.find((i) => i.name === peer);
  const key = m === 'kernel' ? 'kernelXWasm' : 'e2eXWasm';
  if (!t) {
    reduceRows.push([`${name}: ≥ ${need}× faster than the fastest wasm peer`, w.id, pv(P[w.id]?.[key]), why, 'pending']);
    continue;
  }
  const x = t[m].xWasm;
  if (x === undefined) {
    reduceRows.push([`${name}: ≥ ${need}× faster than the fastest wasm peer`, w.id, '—', 'no wasm peer ran', '**not met**: no wasm peer to compare with']);
  } else {
    const ok = x <= 1 / need;
    let reason = '';
    if (!ok) {
      reason = `: ${peer} takes ${us(pRow[m].median)} µs, tensorcast ${us(t[m].median)} µs`;
      if (m === 'e2e') reason += ` (x resident: ${us(t.kernel.median)} µs; the rest is copying x into the wasm heap and the result out)`;
    }
    reduceRows.push([`${name}: ≥ ${need}× faster than the fastest wasm peer (tensorcast ÷ peer ≤ ${fx(1 / need)})`, w.id, P[w.id]?.[key] === undefined ? '—' : `${fx(P[w.id][key])}`,
      `${fxr(x)} vs ${peer}: ${us(t[m].median)} vs ${us(pRow[m].median)} µs (${(1 / x).toFixed(1)}× faster)`, `${ok ? 'met' : '**not met**'}${reason}`]);
  }
  if (w.op === 'sum') {
    const xr = t.kernel.xRead;
    const ok = xr <= 1.3;
    const gap = t.kernel.median - r.read.median;
    reduceRows.push([`${name}: ≤ 1.3× the time to read the bytes once (wasm SIMD load loop)`, w.id, pv(P[w.id]?.kernelXRead, '×'),
      `${fx(xr)}: ${us(t.kernel.median)} vs ${us(r.read.median)} µs`,
      ok ? 'met' : `**not met**: ${us(gap)} µs (${((gap / r.read.median) * 100).toFixed(0)}%) above one read of the ${(r.read.bytes / 2 ** 20).toFixed(1)} MiB; beyond the load loop's work the kernel does: ${reduceWhy(w)}`]);
  }
}
tgt.push(...reduceRows);
if (fused) tgt.push(...fusedTargets(fused, prev));
if (browser) {
  const pc = (g, k) => { const x = prev?.chromium?.reduce?.[g]?.[k]; return x === undefined ? '—' : fxr(x); };
  for (const g of ['sum-all', 'sum-axis0', 'sum-axis1', 'unb-nchw']) {
    const c = browser.chromium?.[g]?.ratios;
    if (!c) continue;
    const n = browser.node?.[g]?.ratios;
    const w = WORKLOADS.find((x) => x.id === g);
    if (w.op === 'sum') {
      tgt.push([`${w.title} of [1024,1024], x resident, in Chromium: ≥ 2× faster than tfjs-wasm (ort-web not loaded in the page); Node, same harness: ${fxr(n?.['tc/tf'])}`, `browser ${g}`, pc(g, 'xTf'), fxr(c['tc/tf']), verdict(c['tc/tf'] <= 0.5)]);
      tgt.push([`${w.title} of [1024,1024], x resident, in Chromium: ≤ 1.3× the wasm SIMD load loop; Node, same harness: ${fx(n?.['tc/wasm-read'])}`, `browser ${g}`, pc(g, 'xRead'), fx(c['tc/wasm-read']), c['tc/wasm-read'] <= 1.3 ? 'met' : `**not met**: ${reduceWhy(w)}`]);
    } else {
      tgt.push([`unbroadcast [8,64,56,56] → [1,64,1,1], e2e, in Chromium: ≥ 1.5× faster than tfjs-wasm; Node, same harness: ${fxr(n?.['tc-e2e/tf-e2e'])}`, `browser ${g}`, pc(g, 'e2eXTf'), fxr(c['tc-e2e/tf-e2e']), verdict(c['tc-e2e/tf-e2e'] <= 1 / 1.5)]);
    }
  }
}

md.push('## Targets');
md.push('');
md.push(`Ratios are tensorcast ÷ reference, medians of the per-run ratios measured in one process (below 1 = tensorcast faster). ✓ met, ✗ not met, n/t no target for this workload. ${prev ? `"Previous" is the run of ${prev.date} (bench/runs/${prev.file}${prev.source ? `: ${prev.source}` : ''}).` : 'No previous run on file (bench/runs/).'} For "as before or better": ✓ within +0.05 of the previous ratio, ≈ within +0.12 (the most a ratio moved between runs of nearly the same build), ✗ beyond.`);
md.push('');
if (perWorkload.length) md.push('| workload | kernel ÷ limit (target ≤ 1.10×) | kernel ÷ a wasm SIMD copy loop of the same bytes (no target) | kernel ÷ fastest wasm peer (target ≤ 0.77×, i.e. ≥ 1.3× faster) | previous run → as before or better? | e2e ÷ fastest wasm peer (target ≤ 0.40×, i.e. ≥ 2.5× faster; 1M-element sets) |');
if (perWorkload.length) md.push('| --- | --- | --- | --- | --- | --- |');
for (const r of perWorkload) md.push(`| ${r.join(' | ')} |`);
if (perWorkload.length) md.push('');
md.push('| target | workload | previous | today | verdict |');
md.push('| --- | --- | --- | --- | --- |');
for (const r of tgt) md.push(`| ${r.join(' | ')} |`);
md.push('');

const reduceResults = results.filter((r) => r.unit === 'us');
if (reduceResults.length) {
  const NAMES = ['tensorcast', 'tfjs-wasm', 'ort-web', 'ort-node (native)', 'plain JS'];
  md.push('## Reductions (issue 13)');
  md.push('');
  md.push(`Median µs per call on the ${clock === 'min' ? 'min(wall, CPU)' : clock} clock, one Node process per set, every case timed in the same interleaved runs (± = half the interquartile range of tensorcast's runs). **x resident**: x already in the library (tensorcast \`tensor()\`, a tfjs tensor on the wasm backend; ort-web cannot keep a CPU tensor resident, so its input is an \`ort.Tensor\` copied into the wasm heap on every run), and the result read into a JS typed array (tensorcast writes it into a preallocated \`Float32Array\` \`out\`; tfjs \`dataSync()\` then \`dispose()\`; ORT \`.data\` of the output). **e2e**: a typed array in, a fresh typed array out (tfjs: \`tf.tensor(data)\`, \`tf.sum\` (unbroadcast: \`keepDims\` and a reshape to inShape), \`dataSync\`, dispose; ORT: a new \`ort.Tensor\`, \`ReduceSum\` (keepdims for unbroadcast), output \`.data\`). **read once**: a wasm SIMD128 loop over the same bytes, \`v128.load\` + \`f32x4.add\` into four accumulators, 64 B a step, their sum returned (bench/lib/reduce.mjs): the least any reduction of x must do. ÷wasm = tensorcast ÷ the fastest wasm peer (tfjs-wasm, ort-web) in that mode, ÷read = tensorcast ÷ read once; medians of per-run ratios. The mode a target is on is in **bold**. Every result was checked once, before timing, against a float64 reference (each element within 2·10⁻⁶ of the sum of the magnitudes it adds).`);
  md.push('');
  md.push(`| set | mode | ${NAMES.map((n) => (n === 'tensorcast' ? '**tensorcast** µs' : `${n} µs`)).join(' | ')} | read once µs | fastest wasm peer | tensorcast ÷wasm | tensorcast ÷read |`);
  md.push(`| --- | --- | ${NAMES.map(() => '---:').join(' | ')} | ---: | --- | ---: | ---: |`);
  for (const r of reduceResults) {
    const w = WORKLOADS.find((x) => x.id === r.id);
    if (r.failed) {
      md.push(`| ${r.id}: ${r.description} | failed | ${NAMES.map(() => '').join(' | ')} | | | | |`);
      continue;
    }
    for (const m of ['kernel', 'e2e']) {
      const cells = NAMES.map((n) => {
        const i = r.impls.find((x) => x.name === n);
        if (!i) return '—';
        if (i.status !== 'ok') return `${i.status}${i.reason ? ` (${i.reason})` : ''}`;
        return n === 'tensorcast' ? `${us(i[m].median)} ${spread(i[m])}` : us(i[m].median);
      });
      const t = r.impls.find((x) => x.name === 'tensorcast' && x.status === 'ok');
      const label = m === 'kernel' ? 'x resident' : 'e2e';
      md.push(`| ${m === 'kernel' ? `${r.id}: ${r.description}` : ''} | ${m === w?.primary ? `**${label}**` : label} | ${cells.join(' | ')} | ${r.read ? us(r.read.median) : '—'} | ${r.fastest?.[m]?.wasm ?? '—'} | ${fxr(t?.[m]?.xWasm)} | ${fx(t?.[m]?.xRead)} |`);
    }
  }
  md.push('');
  const notes = new Map();
  for (const r of reduceResults) for (const i of r.impls) if (i.notes && !notes.has(`${i.name}|${i.notes}`)) notes.set(`${i.name}|${i.notes}`, `- ${i.name}: ${i.notes}`);
  md.push(...notes.values());
  md.push('');
}

if (results.some((r) => r.unit !== 'us')) md.push('## Workloads', '', `Per workload set, one Node process. **kernel**: operands resident in the library, output preallocated where the library allows it. **e2e**: JS typed arrays in, a fresh JS typed array out, allocation included. ns/el = median ns per output element (ns/call for the per-call sets) on the ${clock === 'min' ? 'min(wall, CPU)' : clock} clock, ± = half the interquartile range of the runs, ${otherClock} = the ${otherClock}-clock median. ×best = ratio to the fastest JS/wasm peer (every peer but the native ort-node) in the same mode; ×wasm = ratio to the fastest wasm peer (tfjs-wasm, ort-web); ×limit = ratio to the memory-traffic limit in the same mode; all ratios are medians of per-run ratios.`, '');
for (const r of results) {
  if (r.unit === 'us') continue; // the reductions: their own section above
  const unit = r.unit === 'call' ? 'ns/call' : 'ns/el';
  const head = r.unit === 'call' ? '' : ` — ${numel(r.out || []).toLocaleString('en-US')} output elements`;
  md.push(`### ${r.id}: ${r.description}${head}`);
  md.push('');
  if (r.failed) {
    md.push('_the set failed to run; see the console output_');
    md.push('');
    continue;
  }
  if (r.note) md.push(`_${r.note}_`), md.push('');
  const f = r.fastest || {};
  const oc = otherClock;
  md.push(`| impl | kernel ${unit} | ${oc} | ×best | ×wasm | ×limit | e2e ${unit} | ${oc} | ×best | ×wasm | ×limit | notes |`);
  md.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const i of r.impls) {
    const name = i.name === 'tensorcast' ? '**tensorcast**' : i.name;
    if (i.status !== 'ok') {
      md.push(`| ${name} | ${i.status} | | | | | | | | | | ${i.reason} |`);
      continue;
    }
    const k = i.kernel || {};
    const e = i.e2e;
    const cells = [
      `${f3(k.median)} ${spread(k)}`, f3(k.other?.median), fx(k.xPeer), fx(k.xWasm), fx(k.xLimit),
      e ? `${f3(e.median)} ${spread(e)}` : 'same call', e ? f3(e.other?.median) : '', e ? fx(e.xPeer) : '', e ? fx(e.xWasm) : '', e ? fx(e.xLimit) : '',
    ];
    md.push(`| ${name} | ${cells.join(' | ')} | ${i.notes || ''} |`);
  }
  if (r.limit) {
    const L = r.limit;
    md.push(`| _limit_ | ${f3(L.kernel.median)} ${spread(L.kernel)} | ${f3(L.kernel.other?.median)} | | | 1.00× | ${f3(L.e2e.median)} ${spread(L.e2e)} | ${f3(L.e2e.other?.median)} | | | 1.00× | wasm memory.copy / new Uint8Array + set of ${L.bytes.toLocaleString('en-US')} B (op reads ${L.read.toLocaleString('en-US')} B, writes ${L.write.toLocaleString('en-US')} B) |`);
    if (L.simd) md.push(`| _SIMD copy loop_ | ${f3(L.simd.median)} ${spread(L.simd)} | ${f3(L.simd.other?.median)} | | | ${fx(L.simd.xLimit)} | | | | | | a wasm loop of v128.load/v128.store, 64 B a step, over the same bytes (bench/lib/limit.mjs) |`);
  }
  md.push('');
  md.push(`Fastest wasm peer: kernel ${f.kernel?.wasm ?? '—'}, e2e ${f.e2e?.wasm ?? '—'}; fastest JS/wasm peer: kernel ${f.kernel?.peer ?? '—'}, e2e ${f.e2e?.peer ?? '—'}.`);
  md.push('');
}

if (browser) md.push(...browserSection(browser));
if (fused) md.push(...fusedSection(fused));
if (boundary && (boundary.node || boundary.chromium)) md.push(...boundarySection(boundary, { command: 'node bench/boundary/run.mjs' }));
else if (boundary) md.push('## embind vs raw export', '', ...boundary.errors.map((e) => `- **${e}**`), '');

if (initSamples.tensorcast.length) {
  md.push('## init()');
  md.push('');
  md.push(`Fresh Node process per sample, ${initRuns} samples, medians, on the min(wall, process CPU) clock of the sets (wall-clock init beside it; the run of 2026-11-22 used wall time, the same on a quiet machine). import = loading the modules; init = from there until the library can compute (tensorcast \`init()\`; tfjs \`setBackend('wasm')\` + \`ready()\`; ORT the first \`InferenceSession.create\` of a one-node model).`);
  md.push('');
  md.push('| library | import ms | init ms | import + init ms | init wall ms |');
  md.push('| --- | ---: | ---: | ---: | ---: |');
  for (const lib of INIT_LIBS) {
    const s = initSamples[lib];
    if (!s.length) {
      md.push(`| ${lib} | failed | | |`);
      continue;
    }
    const w = s.every((x) => x.initWallMs !== undefined) ? median(s.map((x) => x.initWallMs)).toFixed(1) : '';
    md.push(`| ${lib} | ${median(s.map((x) => x.importMs)).toFixed(1)} | ${median(s.map((x) => x.initMs)).toFixed(1)} | ${median(s.map((x) => x.importMs + x.initMs)).toFixed(1)} | ${w} |`);
  }
  md.push('');
}

if (sizeRows.length) {
  md.push('## Download size');
  md.push('');
  md.push('gzip -9 of each file, summed.');
  md.push('');
  md.push('| library | glue gz | wasm gz | total gz | total raw | files |');
  md.push('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const s of sizeRows) {
    if (s.gzip === undefined) md.push(`| ${s.name} | | | — | | ${s.what} |`);
    else md.push(`| ${s.name} | ${kb(s.glueGzip)} | ${s.wasmGzip ? kb(s.wasmGzip) : '—'} | ${kb(s.gzip)} | ${kb(s.raw)} | ${s.what} |`);
  }
  md.push('');
  if (sizeParts.length) {
    md.push('tensorcast by part (bench/lib/size.mjs `parts`): each JS module minified alone and each wasm section, gzipped alone, largest first. Parts gzipped apart sum to more than the bundle above, which is the budget\'s figure; which C++ code the code section holds is measured by hand (a `--profiling-funcs` link: see the Reading).');
    md.push('');
    md.push('| part | gz | raw |');
    md.push('| --- | ---: | ---: |');
    for (const r of [...sizeParts].sort((a, b) => b.gzip - a.gzip)) md.push(`| ${r.part} | ${kb(r.gzip)} | ${kb(r.raw)} |`);
    md.push('');
  }
}

// Peers: versions and configuration, from the first set that initialised each.
md.push('## Peers');
md.push('');
md.push('| impl | version | configuration |');
md.push('| --- | --- | --- |');
const seen = new Set();
for (const r of results) {
  for (const i of r.impls) {
    if (seen.has(i.name) || (!i.info && i.status !== 'ok')) continue;
    seen.add(i.name);
    md.push(`| ${i.name} | ${i.version || ''} | ${i.info || ''} |`);
  }
}
md.push('');
md.push('Every peer is checked once per set before it is timed: the kernel and the e2e output are compared element by element (2,000 sampled elements, or all of them for small outputs) with a plain index-arithmetic reference; a peer that gives a wrong answer is reported as `wrong` and not timed.');
md.push('');

const report = md.join('\n');
process.stdout.write(report + '\n');

if (!noWrite && !only) {
  const file = path.join(root, 'BENCHMARKS.md');
  // Keep the hand-written reading between the markers across re-runs.
  let reading = '<!-- reading -->\n## Reading\n\n_(not written yet)_\n<!-- /reading -->';
  if (fs.existsSync(file)) {
    const m = /<!-- reading -->[\s\S]*?<!-- \/reading -->/.exec(fs.readFileSync(file, 'utf8'));
    if (m) reading = m[0];
  }
  const [title, ...rest] = report.split('\n## Targets');
  fs.writeFileSync(file, `${title}\n${reading}\n\n## Targets${rest.join('\n## Targets')}`);
  log(`\nwrote ${path.relative(process.cwd(), file) || file}`);
  if (!quick) {
    const sum = summarize({ date: runDate, command: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`, results, initSamples, sizeRows, browser, boundary, median });
    sum.dist = distBefore;
    if (fused) sum.fused = fusedSummary(fused);
    const runFile = path.join(benchDir, 'runs', `${runDate.slice(0, 16).replace(':', '')}.json`);
    fs.mkdirSync(path.dirname(runFile), { recursive: true });
    fs.writeFileSync(runFile, JSON.stringify(sum, null, 1) + '\n');
    log(`wrote ${path.relative(process.cwd(), runFile)}`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

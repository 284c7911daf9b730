// The strided-view rows, in Node and headless Chromium (bench/views/groups.mjs):
//
//   pre-224, pre-512  image preprocessing: RGBA Uint8ClampedArray [H,W,4] →
//                     float32 [1,3,H,W], (x/255 - mean[c]) / std[c], as ONE
//                     evaluate over expandDims(transpose(slice(x, :, :, 0:3),
//                     [2,0,1]), 0) (a new array; a typed out) against the plain
//                     JS loop (preallocated; a new array) and tfjs-wasm's chain
//                     (Node: tf.tensor3d int32 → slice; Chromium:
//                     tf.browser.fromPixels(ImageData)). Targets: ≤ 1.0× the JS
//                     loop, ≤ 0.3× tfjs-wasm.
//   tadd              resident float32 [1024,1024]: add(transpose(a), b) against
//                     add(a, b) (target ≤ 1.5×), with contiguous(transpose(a)),
//                     contiguous(a) (the copy, the memory-traffic yardstick),
//                     plain-JS loops and tfjs-wasm for context, and the limit:
//                     a hand-written SIMD128 add and transposed add
//                     (bench/limit/fused.cpp, built with em++ at the start).
//   rows              short rows: float32 [N,3] + [3], [N,4] + [4], [N,3] + [N,1],
//                     a transposed [3,N] view + [N,3] (N = 200,704), resident into out.
//   small             add of [3,1] and [1,4] float32, plain and resident, ns per
//                     call: the before/after row (give two --dist).
//
// Each run is a fresh Node process and a fresh Chromium page per group and
// dist, dists alternating (their order rotated run by run); inside, the cases
// are timed in interleaved batches (bench/lib/wall.mjs; Node: min(wall,
// process CPU) per batch unless --clock=wall; the page: wall). A run's figure
// is its median batch; a run's ratio the median of its per-batch ratios. The
// table gives, over the runs, the median, the range (min–max of the run
// figures) and for a target how many runs met it. A dist that lacks a group's
// functions (an older build: no transpose, slice, ...) skips that group.
// Every run's raw batches go to bench/runs/views/<date>.json (not with
// --quick or --no-write).
//
//   node bench/views.mjs [--dist=<dist dir> ...] [--runs=N] [--groups=pre-224,pre-512,tadd,small]
//                        [--no-chromium] [--no-tf] [--clock=wall] [--quick] [--no-write] [--json=file]
//   node bench/views.mjs --dist=/work/wt-base/dist --dist=dist --groups=small   # before/after of the small call
//   node bench/views.mjs --report=bench/runs/views/<date>.json   # a saved run's table again
//   node bench/views.mjs --help
import { spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { VIEW_GROUPS, NEEDS, USES_TF, SPEC } from './views/groups.mjs';
import { viewsReport } from './views/report.mjs';

const self = fileURLToPath(import.meta.url);
const benchDir = path.dirname(self);
const root = path.resolve(benchDir, '..');
const args = process.argv.slice(2);
const log = (...a) => process.stderr.write(`[views] ${a.join(' ')}\n`);

const lines = fs.readFileSync(self, 'utf8').split('\n');
const HELP = lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'); // the header comment

// ---- one group in a fresh Node process ---------------------------------------------------
if (args[0] === '--child') {
  const [, group, dist, ...flags] = args;
  const { runViewGroup } = await import('./views/groups.mjs');
  const { clockStep } = await import('./lib/wall.mjs');
  const tc = await import(pathToFileURL(path.join(dist, 'node.js')).href);
  await tc.init();
  let tf = null;
  let tfInfo = 'not loaded';
  if (USES_TF.has(group) && !flags.includes('--no-tf') && NEEDS[group].every((f) => typeof tc[f] === 'function')) {
    const { loadTfNode } = await import('./lib/tfnode.mjs');
    ({ tf, info: tfInfo } = await loadTfNode());
  }
  const cpu = flags.includes('--clock=wall') ? undefined : () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const lim = flags.find((f) => f.startsWith('--limit='));
  const limit = lim ? new WebAssembly.Module(fs.readFileSync(path.join(lim.slice(8), 'fused.wasm'))) : null;
  const r = await runViewGroup(group, { tc, tf, where: 'node', limit }, { cpu, ...(flags.includes('--quick') ? { runs: 5, warmupMs: 60 } : {}) });
  r.env = { name: 'Node', version: process.version, tf: tfInfo, clock: cpu ? 'min(wall, CPU)' : 'wall', clockStepMs: clockStep() };
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(0);
}

if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}

// ---- options ------------------------------------------------------------------------------
const opt = (k) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const known = ['--dist=', '--runs=', '--groups=', '--json=', '--clock=', '--report=', '--no-chromium', '--no-tf', '--quick', '--no-write', '--child'];
for (const a of args) if (a.startsWith('--') && !known.some((k) => a === k || (k.endsWith('=') && a.startsWith(k)))) throw new Error(`unknown option ${a} (node bench/views.mjs --help)`);
if (opt('report')) {
  process.stdout.write(viewsReport(JSON.parse(fs.readFileSync(opt('report'), 'utf8'))).join('\n') + '\n');
  process.exit(0);
}
const quick = args.includes('--quick');
const dists = [...args.filter((a) => a.startsWith('--dist=')).map((a) => a.slice(7)), ...args.filter((a) => !a.startsWith('--'))].map((d) => path.resolve(d));
if (dists.length === 0) dists.push(path.join(root, 'dist'));
const runs = Number(opt('runs') ?? (quick ? 2 : 5));
const groups = opt('groups') ? opt('groups').split(',') : VIEW_GROUPS;
for (const g of groups) if (!VIEW_GROUPS.includes(g)) throw new Error(`unknown group ${g} (groups: ${VIEW_GROUPS.join(', ')})`);
const clockWall = opt('clock') === 'wall';
const useTf = !args.includes('--no-tf');
const write = !quick && !args.includes('--no-write');

// ---- the dists: their commit, functions and size ---------------------------------------------
const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
async function payload(d) {
  // As bench/ab.mjs: dist/index.js bundled and minified with the root's rolldown, + the wasm, gzip -9.
  const wasm = gz(fs.readFileSync(path.join(d, 'tensorcast.wasm')));
  let js = null;
  try {
    const { rolldown } = await import(pathToFileURL(path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs')).href);
    const bnd = await rolldown({ input: path.join(d, 'index.js'), platform: 'browser', logLevel: 'silent' });
    const out = await bnd.generate({ format: 'esm', minify: true });
    await bnd.close();
    js = gz(Buffer.from(out.output[0].code));
  } catch { /* no bundler: the JS part is — */ }
  return { jsGzip: js, wasmGzip: wasm };
}
function commitOf(d) {
  try {
    const dir = path.dirname(d);
    const c = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    // Changes to the library's sources (not to bench/ or docs) mark the build as not the commit's.
    const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no', '--', 'src', 'bindings', 'CMakeLists.txt', 'scripts/build.mjs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return c + (dirty ? '+dirty' : '');
  } catch {
    return null;
  }
}
const probe = `const tc = await import(process.argv[1]); await tc.init(); console.log(JSON.stringify(Object.keys(tc).filter((k) => typeof tc[k] === 'function')));`;
const info = [];
for (const [i, d] of dists.entries()) {
  if (!fs.existsSync(path.join(d, 'node.js'))) throw new Error(`${d}: no node.js (a dist dir of npm run build)`);
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, pathToFileURL(path.join(d, 'node.js')).href], { encoding: 'utf8' });
  const fns = JSON.parse(r.stdout.trim().split('\n').pop());
  const commit = commitOf(d);
  const rel = path.relative(process.cwd(), d) || d;
  info.push({ dir: d, mount: `d${i}`, label: `${rel}${commit ? ` (${commit})` : ''}`, commit, functions: fns, size: await payload(d) });
}
const has = (di, g) => NEEDS[g].every((f) => info[di].functions.includes(f));

// ---- the limit (bench/limit/fused.cpp, em++), for the tadd group ------------------------------
let ch = null;
const errors = [];
let limitDir = null;
if (groups.includes('tadd')) {
  try {
    const { build } = await import('./limit/build.mjs');
    limitDir = build();
  } catch (e) {
    errors.push(`the limit (bench/limit/fused.cpp) did not build, its rows are missing: ${e.message.split('\n')[0]}`);
    log(errors.at(-1));
  }
}

// ---- Chromium --------------------------------------------------------------------------------
if (!args.includes('--no-chromium')) {
  try {
    const { startChromium } = await import('./browser/chromium.mjs');
    ch = await startChromium({ mounts: { ...Object.fromEntries(info.map((x) => [x.mount, x.dir])), ...(limitDir ? { limit: limitDir } : {}) } });
    log(`Chromium ${ch.version}`);
  } catch (e) {
    errors.push(`Chromium did not start: ${e.message.split('\n')[0]}`);
    log(errors.at(-1));
  }
}

// ---- the runs --------------------------------------------------------------------------------
const started = new Date();
const loadStart = os.loadavg();
const results = []; // { run, group, dist (index), env: 'node'|'chromium', result | skipped | error }
for (let r = 0; r < runs; r++) {
  for (const g of groups) {
    for (let k = 0; k < dists.length; k++) {
      const di = (k + r) % dists.length; // dists alternate, their order rotated run by run
      const base = { run: r, group: g, dist: di };
      if (!has(di, g)) {
        const missing = NEEDS[g].filter((f) => !info[di].functions.includes(f));
        results.push({ ...base, env: 'node', skipped: `n/a (no ${missing.join(', ')})` });
        if (ch) results.push({ ...base, env: 'chromium', skipped: `n/a (no ${missing.join(', ')})` });
        continue;
      }
      const flags = [...(quick ? ['--quick'] : []), ...(clockWall ? ['--clock=wall'] : []), ...(useTf ? [] : ['--no-tf']), ...(limitDir && g === 'tadd' ? [`--limit=${limitDir}`] : [])];
      const p = spawnSync(process.execPath, [self, '--child', g, info[di].dir, ...flags], { encoding: 'utf8', maxBuffer: 64 << 20 });
      try {
        results.push({ ...base, env: 'node', result: JSON.parse(p.stdout.trim().split('\n').pop()) });
        log(`run ${r + 1}/${runs} ${g} ${info[di].label} Node: done`);
      } catch {
        const err = (p.stderr || '').trim().split('\n').slice(-4).join(' / ');
        results.push({ ...base, env: 'node', error: err });
        errors.push(`run ${r + 1} ${g} ${info[di].label} Node failed: ${err}`);
        log(errors.at(-1));
      }
      if (!ch) continue;
      try {
        const q = `suite=views&group=${g}&dist=${info[di].mount}${useTf ? '&tf=1' : ''}${limitDir && g === 'tadd' ? '&limit=1' : ''}${quick ? '&quick=1' : ''}`;
        results.push({ ...base, env: 'chromium', result: await ch.open(q) });
        log(`run ${r + 1}/${runs} ${g} ${info[di].label} Chromium: done`);
      } catch (e) {
        results.push({ ...base, env: 'chromium', error: e.message.split('\n')[0] });
        errors.push(`run ${r + 1} ${g} ${info[di].label} Chromium failed: ${e.message.split('\n')[0]}`);
        log(errors.at(-1));
      }
    }
  }
}
const chromiumVersion = ch?.version ?? null;
if (ch) await ch.close();

// ---- the report and the saved run -----------------------------------------------------------
const loadEnd = os.loadavg();
const doc = {
  date: started.toISOString(), command: `node bench/views.mjs ${args.join(' ')}`.trim(), node: process.version, chromium: chromiumVersion,
  clock: clockWall ? 'wall' : 'min(wall, CPU) in Node, wall in Chromium', runs, loadavg: { start: loadStart, end: loadEnd }, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null,
  dists: info.map(({ dir, label, commit, size }) => ({ dir, label, commit, size })), groups, spec: SPEC, errors, results,
};
process.stdout.write(viewsReport(doc).join('\n') + '\n');

const json = opt('json');
if (json) fs.writeFileSync(json, JSON.stringify(doc));
if (write) {
  const dir = path.join(benchDir, 'runs', 'views');
  fs.mkdirSync(dir, { recursive: true });
  const f = path.join(dir, `${started.toISOString().slice(0, 16).replace(':', '')}.json`);
  fs.writeFileSync(f, JSON.stringify(doc));
  log(`wrote ${path.relative(process.cwd(), f)}`);
}

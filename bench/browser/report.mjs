// Markdown for the Node/Chromium comparison (bench/browser/run.mjs) and the
// embind-vs-raw measurement (bench/boundary/run.mjs).
import { median } from '../lib/wall.mjs';
const f = (x) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const fx = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${x.toFixed(2)}×`);
const sp = (s) => (s && s.median ? ` ±${(((s.p75 - s.p25) / 2 / s.median) * 100).toFixed(0)}%` : '');
const cell = (s) => (s ? `${f(s.median)}${sp(s)}` : '—');

export const GROUP_TITLE = {
  percall: 'per call: small [3,1]+[1,4] (float32) and broadcastShapes([8,1,6,1], [1,7,1,5]) — ns/call',
  same: 'same: [1048576] + [1048576], float32 — ns per output element',
  row: 'row: [1024,1024] + [1024], float32 — ns per output element',
  nchw: 'NCHW bias: [8,64,56,56] + [1,64,1,1], float32 — ns per output element',
  'sum-all': 'sum over all of [1024,1024] float32 — µs per call',
  'sum-axis0': 'sum over axis 0 of [1024,1024] float32 — µs per call',
  'sum-axis1': 'sum over axis 1 of [1024,1024] float32 — µs per call',
  'unb-nchw': 'unbroadcast [8,64,56,56] → [1,64,1,1] float32 — µs per call',
};

const RATIO_LABEL = {
  'tc-small-e2e/control': 'tensorcast small e2e ÷ control',
  'tc-small-res/control': 'tensorcast small resident ÷ control',
  'tc-small-e2e/js-small-fresh': 'tensorcast small e2e ÷ plain-JS fresh-array add',
  'tc-shapes-varied/js-shapes': 'tensorcast broadcastShapes, 8 pairs in turn ÷ plain-JS broadcastShapes',
  'tc-shapes/js-shapes': 'tensorcast broadcastShapes ÷ plain-JS broadcastShapes',
  'tc-small-res/tf-small-res': 'tensorcast small resident ÷ tfjs-wasm small',
  'tc/tf': 'tensorcast ÷ tfjs-wasm',
  'tc/js-loop': 'tensorcast ÷ plain-JS loop',
  'tc/wasm-copy': 'tensorcast ÷ wasm memory.copy',
  'tc/wasm-simd-copy': 'tensorcast ÷ wasm SIMD copy loop',
  'tc-e2e/tf-e2e': 'tensorcast e2e ÷ tfjs-wasm e2e',
  'tc/wasm-read': 'tensorcast (x resident) ÷ wasm SIMD load loop (read the bytes once)',
};

/** The "Node and Chromium" section. */
export function browserSection(r) {
  const md = [];
  md.push('## Node and Chromium');
  md.push('');
  const anyC = Object.values(r.chromium)[0];
  const anyN = Object.values(r.node)[0];
  md.push(`The same cases in Node and in headless Chromium (${r.chromiumVersion ? `Chromium ${r.chromiumVersion}` : 'Chromium did not run'}, Debian's package driven by playwright-core, \`--headless=new\`; pages served over 127.0.0.1). Same code (bench/browser/groups.mjs), same timing (bench/lib/wall.mjs: wall clock, \`performance.now()\`), one fresh Node process and one fresh page per group, Node then Chromium group by group. Every group carries the **plain-JS control** (the [3,1]+[1,4] loop in plain JS, 12 elements, no allocation), timed in the same interleaved runs: when the machine is busy, the control slows too. Medians of ${anyN?.options?.runs ?? anyC?.options?.runs ?? '?'} runs, ± = half the interquartile range; ratios are medians of per-run ratios.${anyC && !anyC.env.crossOriginIsolated ? ` The page is not cross-origin isolated, so \`performance.now()\` steps by ${f(anyC.env.clockStepMs * 1000)} µs there; a batch lasts ${anyC.options.batchMs}–25 ms.` : ''} The Node column here is wall time; the tables above use min(wall, CPU).`);
  md.push('');
  if (r.errors.length) {
    for (const e of r.errors) md.push(`- **${e}**`);
    md.push('');
  }
  const tfN = anyN?.env?.tf;
  const tfC = anyC?.env?.tf;
  if (tfN || tfC) md.push(`tfjs-wasm: Node ${tfN ?? '—'}; Chromium ${tfC ?? '—'}.`), md.push('');
  for (const g of Object.keys(GROUP_TITLE)) {
    const n = r.node[g];
    const c = r.chromium[g];
    if (!n && !c) continue;
    md.push(`### ${GROUP_TITLE[g]}`);
    md.push('');
    md.push('| case | Node | Chromium |');
    md.push('| --- | ---: | ---: |');
    const ids = [...new Set([...Object.keys(n?.cases ?? {}), ...Object.keys(c?.cases ?? {})])];
    for (const id of ids) {
      const label = (n?.cases[id] ?? c?.cases[id]).label;
      const unit = (n?.cases[id] ?? c?.cases[id]).per > 1 && id === 'control' ? '' : '';
      md.push(`| ${id === 'control' ? `_${label}_, ns/call` : label}${unit} | ${cell(n?.cases[id])} | ${cell(c?.cases[id])} |`);
    }
    const reduceGroup = /^(sum|unb)-/.test(g);
    for (const k of Object.keys(n?.ratios ?? c?.ratios ?? {})) {
      const a = n?.ratios[k];
      const b = c?.ratios[k];
      if (a === undefined && b === undefined) continue;
      md.push(`| _${reduceGroup && k === 'tc/tf' ? 'tensorcast (x resident) ÷ tfjs-wasm (x a tensor)' : RATIO_LABEL[k] ?? k}_ | ${fx(a)} | ${fx(b)} |`);
    }
    md.push('');
  }
  const pc = [r.node.percall, r.chromium.percall];
  if (pc[0] || pc[1]) {
    md.push('init() in the per-call group\'s fresh process / page (one sample each): ' + ['Node', 'Chromium'].map((name, i) => (pc[i] ? `${name} import ${f(pc[i].env.importMs)} ms + init() ${f(pc[i].env.initMs)} ms` : `${name} —`)).join('; ') + '. In Chromium, init() includes fetching and compiling tensorcast.wasm from the local server.');
    md.push('');
  }
  if (r.init?.length) {
    md.push(`init() in Chromium, ${r.init.length} fresh pages (page.html?suite=init), medians: import of dist/index.js (unbundled modules over HTTP) ${f(median(r.init.map((e) => e.importMs)))} ms, init() ${f(median(r.init.map((e) => e.initMs)))} ms (range ${f(Math.min(...r.init.map((e) => e.initMs)))}–${f(Math.max(...r.init.map((e) => e.initMs)))} ms): fetch, compile and instantiate tensorcast.wasm, then the contract read from the module's memory.`);
    md.push('');
  }
  return md;
}

/** The "embind vs raw export" section. */
export function boundarySection(r, { command }) {
  const md = [];
  md.push('## embind vs raw export');
  md.push('');
  md.push(`ns per call of the same C++ function exported both ways, in Node and in headless Chromium. A stand-alone module (bench/boundary/measure.cpp, built by bench/boundary/build.mjs with tensorcast's link flags) in two builds: **DE=0** is \`-sDYNAMIC_EXECUTION=0\`, as tensorcast ships (no \`eval\`/\`new Function\`, so CSP pages load it; embind then calls every function through one generic invoker: \`arguments\`, \`apply\` and a closure per call); **DE=1** lets embind generate a specialised invoker per function with \`new Function\`, for reference. The last two rows call tensorcast's own module (dist/tensorcast.wasm), which has raw exports only: a no-argument call, and its version string read from memory. Medians of ${r.node?.cases?.[0]?.runs ?? r.chromium?.cases?.[0]?.runs ?? '?'} interleaved runs (bench/lib/wall.mjs), wall clock; the control is the same broadcast in plain JS. Command: \`${command}\`.`);
  md.push('');
  if (r.errors?.length) {
    for (const e of r.errors) md.push(`- **${e}**`);
    md.push('');
  }
  md.push('| call | via | Node ns | Chromium ns |');
  md.push('| --- | --- | ---: | ---: |');
  const ids = (r.node ?? r.chromium).cases.map((c) => c.id);
  const by = (side, id) => side?.cases.find((c) => c.id === id);
  for (const id of ids) {
    const a = by(r.node, id);
    const b = by(r.chromium, id);
    md.push(`| ${id} | ${(a ?? b).via} | ${cell(a)} | ${cell(b)} |`);
  }
  md.push('');
  md.push('| build | the same call | embind ÷ raw (Node) | embind − raw (Node) | embind ÷ raw (Chromium) | embind − raw (Chromium) |');
  md.push('| --- | --- | ---: | ---: | ---: | ---: |');
  const pairs = (r.node ?? r.chromium).pairs;
  for (const p of pairs) {
    const q = r.chromium?.pairs.find((x) => x.raw === p.raw && x.embind === p.embind);
    const pn = r.node?.pairs.find((x) => x.raw === p.raw && x.embind === p.embind);
    md.push(`| ${p.tag} | ${p.embind.replace(`${p.tag} `, '')} vs ${p.raw.replace(`${p.tag} `, '')} | ${fx(pn?.ratio)} | ${pn ? `${f(pn.diffNs)} ns` : '—'} | ${fx(q?.ratio)} | ${q ? `${f(q.diffNs)} ns` : '—'} |`);
  }
  md.push('');
  const cn = r.node?.contract;
  const cc = r.chromium?.contract;
  if (cn || cc) {
    md.push(`The cold side: tensorcast's contract (the whole contract as one JSON text in the module's memory, \`_tc_contract()\`, decoded and parsed by \`init()\`, ${(cn ?? cc).jsonChars.toLocaleString('en-US')} characters as JSON), which \`init()\` calls once: the first call after \`init()\` (which made it once already) ${['Node', 'Chromium'].map((n, i) => { const c = [cn, cc][i]; return c ? `${n} ${f(c.first)} ms` : `${n} —`; }).join(', ')}; later calls (median of 5) ${['Node', 'Chromium'].map((n, i) => { const c = [cn, cc][i]; return c ? `${n} ${f(c.warmMedian)} ms` : `${n} —`; }).join(', ')}.`);
    md.push('');
  }
  return md;
}

/** Verdict rows for the Targets table from the Chromium column. */
export function chromiumTargets(r) {
  const c = r.chromium?.percall;
  if (!c) return [];
  const initMs = r.init?.length ? median(r.init.map((e) => e.initMs)) : c.env.initMs;
  const initWhat = r.init?.length ? `median of ${r.init.length} page loads` : 'one page load';
  const v = (x, lim) => (x === undefined ? 'not run' : x <= lim ? 'met' : '**not met**');
  const m = (id) => c.cases[id]?.median;
  return [
    ['small [3,1]+[1,4] ≤ 250 ns per call, e2e (Chromium)', 'browser', `${f(m('tc-small-e2e'))} ns`, v(m('tc-small-e2e'), 250)],
    ['small [3,1]+[1,4] ≤ 120 ns per call, resident (Chromium)', 'browser', `${f(m('tc-small-res'))} ns`, v(m('tc-small-res'), 120)],
    ['broadcastShapes rank 4 ≤ 200 ns per call (Chromium)', 'browser', `${f(m('tc-shapes'))} ns`, v(m('tc-shapes'), 200)],
    ['broadcastShapes rank 4, 8 pairs in turn ≤ 250 ns per call (Chromium)', 'browser', `${f(m('tc-shapes-varied'))} ns`, v(m('tc-shapes-varied'), 250)],
    ['small [3,1]+[1,4] e2e ≤ 1.0× the plain-JS fresh-array add (Chromium)', 'browser', fx(c.ratios?.['tc-small-e2e/js-small-fresh']), v(c.ratios?.['tc-small-e2e/js-small-fresh'], 1.0)],
    [`init() ≤ 30 ms (Chromium, ${initWhat})`, 'browser', `${f(initMs)} ms`, v(initMs, 30)],
  ];
}

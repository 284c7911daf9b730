// Markdown for the fused-expression rows (bench/fused/run.mjs): the section,
// the rows of the Targets table, and the headline figures for bench/runs/.
import { CHAINS, CONTRACT, SMALL_EXPR, FUSED_GROUPS, GEMMS } from './groups.mjs';

const f = (x) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const fx = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${x.toFixed(2)}×`);
const sp = (s) => (s && s.median ? ` ±${(((s.p75 - s.p25) / 2 / s.median) * 100).toFixed(0)}%` : '');
const mib = (n) => (n === undefined ? '—' : `${(n / 2 ** 20).toFixed(1)} MiB`);

const TITLE = {
  ...Object.fromEntries(Object.entries(CHAINS).map(([g, c]) => [g, c.title])),
  cold: 'cold: a new expression every call, `(x - m) / s * <constant>` over [3,1], [1,4], [1,4], float32',
  small: `small: compile('${SMALL_EXPR}').run over [3,1] and [1,4] against one add, float32`,
  contract: `contraction by name: ${CONTRACT.expr}, x {batch: ${CONTRACT.batch}, in: ${CONTRACT.in}}, w {in: ${CONTRACT.in}, out: ${CONTRACT.out}}, float32`,
  ...Object.fromEntries(Object.entries(GEMMS).map(([g, G]) => [g, `contraction at matrix-multiply speed (issue 40): ${G.title}, float32`])),
};

const RATIO_LABEL = {
  'limit/tf-matmul': 'the limit ÷ tfjs-wasm matMul',
  'eval-res/limit': 'evaluate (resident, `out`) ÷ the C++ SIMD128 fused loop',
  'eval-res/tf-kernel': 'evaluate (resident) ÷ tfjs-wasm op by op (resident)',
  'eval-plain/tf-e2e': 'evaluate (typed arrays) ÷ tfjs-wasm op by op end to end',
  'eval-plain/ops-plain': 'evaluate (typed arrays) ÷ tensorcast op by op (typed arrays)',
  'eval-res/ops-res': 'evaluate (resident) ÷ tensorcast op by op (resident, `out` reuse)',
  'ops-res/limit': 'tensorcast op by op (resident) ÷ the C++ SIMD128 fused loop',
  'ops-res/tf-kernel': 'tensorcast op by op (resident) ÷ tfjs-wasm op by op (resident)',
  'ops-plain/tf-e2e': 'tensorcast op by op (typed arrays) ÷ tfjs-wasm end to end',
  'tf-kernel/limit': 'tfjs-wasm op by op (resident) ÷ the C++ SIMD128 fused loop',
  'eval-plain/ort-e2e': 'evaluate (typed arrays) ÷ onnxruntime-web end to end',
  'ort-e2e/tf-e2e': 'onnxruntime-web end to end ÷ tfjs-wasm end to end',
  'cold/warm': 'new expression ÷ the same expression (cached)',
  'compiled-res/add-res': 'compiled run ÷ add, resident',
  'compiled-plain/add-plain': 'compiled run ÷ add, typed arrays',
  'eval/mul-sum': 'evaluate ÷ mul then sum',
  'eval/limit': 'evaluate ÷ the C++ SIMD128 contraction loop',
  'mul-sum/limit': 'mul then sum ÷ the C++ SIMD128 contraction loop',
  'eval/tf-matmul': 'evaluate ÷ tfjs-wasm matMul',
  'tf-matmul/limit': 'tfjs-wasm matMul ÷ the C++ SIMD128 contraction loop',
  'eval-pos/tf-matmul': 'evaluate, positional ÷ tfjs-wasm matMul',
  'eval-pos/limit': 'evaluate, positional ÷ the limit',
  'eval/fastest': 'evaluate x {b, in} × w {in, out} ÷ the fastest dim order (run by run)',
  'eval-xt/fastest': 'evaluate x {in, b} × w {in, out} ÷ the fastest dim order',
  'eval-wt/fastest': 'evaluate x {b, in} × w {out, in} ÷ the fastest dim order',
  'eval-pos/fastest': 'evaluate [M, 1, K] × [N, K] ÷ the fastest dim order',
};
// The gemm groups' limit is a GEMM, not the contraction loop.
const GEMM_LABEL = { 'eval/limit': 'evaluate ÷ the limit (the plain SIMD128 GEMM)', 'tf-matmul/limit': 'tfjs-wasm matMul ÷ the limit (the plain SIMD128 GEMM)' };
// The bilinear group's limit is the exact order's loop (bench/limit/fused.cpp `bilinear`).
const BILINEAR_LABEL = { 'eval/limit': 'evaluate ÷ the limit (the exact order\'s SIMD128 loop)', 'tf-matmul/limit': 'tfjs-wasm matMul + mul + sum ÷ the limit (the exact order\'s SIMD128 loop)', 'eval/tf-matmul': 'evaluate ÷ tfjs-wasm matMul + mul + sum', 'limit/tf-matmul': 'the limit (the exact order) ÷ tfjs-wasm matMul + mul + sum: how far any exact form stays from it' };
// Every ratio a group can show, in order (those whose cases did not run show their reason).
const RATIO_KEYS = {
  chain: ['eval-res/limit', 'eval-res/tf-kernel', 'eval-plain/tf-e2e', 'eval-plain/ops-plain', 'eval-res/ops-res', 'ops-res/limit', 'ops-res/tf-kernel', 'ops-plain/tf-e2e', 'tf-kernel/limit', 'eval-plain/ort-e2e', 'ort-e2e/tf-e2e'],
  cold: ['cold/warm'],
  small: ['compiled-res/add-res', 'compiled-plain/add-plain'],
  contract: ['eval/mul-sum', 'eval/limit', 'mul-sum/limit', 'eval/tf-matmul', 'tf-matmul/limit'],
  gemm: ['eval/tf-matmul', 'eval/limit', 'tf-matmul/limit', 'limit/tf-matmul', 'eval-pos/tf-matmul', 'eval-pos/limit', 'eval/mul-sum', 'eval/fastest', 'eval-xt/fastest', 'eval-wt/fastest', 'eval-pos/fastest'],
};
const kindOf = (g) => (CHAINS[g] ? 'chain' : GEMMS[g] ? 'gemm' : g);

/** The case's figure, or why it has none (n/a (no evaluate), wrong: ..., not run). */
function cell(side, id) {
  if (!side) return '—';
  const c = side.cases[id];
  if (c) return `${f(c.median)}${sp(c)}${side.exact?.[id] ? ' (bit-identical)' : ''}`;
  return side.missing?.[id] ?? '—';
}

/** A ratio, or the reason of the case that keeps it from existing. */
function ratioCell(side, key) {
  if (!side) return '—';
  const x = side.ratios?.[key];
  if (x !== undefined) return fx(x);
  const why = key.split('/').map((id) => side.missing?.[id]).find(Boolean);
  return why ?? '—';
}

/** The "Fused expressions" section. */
export function fusedSection(r) {
  const md = [];
  const anyN = Object.values(r.node)[0];
  const anyC = Object.values(r.chromium)[0];
  md.push('## Fused expressions (issue 22)');
  md.push('');
  md.push(`\`evaluate\` / \`compile\` against tensorcast op by op, tfjs-wasm op by op and **the limit**: a hand-written C++ SIMD128 loop of the same chain (bench/limit/fused.cpp, built by bench/limit/build.mjs with \`em++ -O3 -msimd128 -mbulk-memory -ffp-contract=off\` into a stand-alone wasm module that runs on the same data in its own memory; in the chains its float operations are those of op by op, in the same order, so its output is bit-identical to op by op). Same code in Node and headless Chromium (bench/fused/groups.mjs), one fresh Node process and one fresh page per group (bench/lib/wall.mjs; clock: Node ${anyN?.options?.clock ?? '—'} per batch, as the Node sets, Chromium wall time, the only clock a page has), medians of ${anyN?.options?.runs ?? anyC?.options?.runs ?? '?'} interleaved runs, ± = half the interquartile range, ratios = medians of per-run ratios, each with the plain-JS control of the other groups. **resident**: tensorcast \`tensor()\` inputs and a resident \`out\` (op by op: every intermediate written into a preallocated resident tensor, reused); tfjs tensors on the wasm backend, every output allocated by tfjs and disposed, nothing read back. **typed arrays** / **end to end**: \`{ data, shape }\` in, a fresh typed array out (tfjs: \`tf.tensor\` of every array, the ops, \`dataSync\`, dispose). Every case was checked before timing against a JS reference that rounds to float32 after every op (chains, small, cold; "bit-identical" when every element matched exactly) or a float64 reference (contraction: within 2·10⁻⁶ of the sum of magnitudes). A case whose function is missing from this build says so (n/a) and is not timed. Command: \`node bench/fused/run.mjs\` (or \`npm run bench -- --only=fused\`).`);
  md.push('');
  for (const e of r.errors) md.push(`- **${e}**`);
  if (r.errors.length) md.push('');
  const tfN = anyN?.env?.tf;
  const tfC = anyC?.env?.tf;
  const has = (s, k) => (s ? (s.env?.[k] ? 'yes' : 'no') : '—');
  const ortN = Object.values(r.node).find((x) => x.env?.ort && x.env.ort !== 'not loaded')?.env.ort;
  md.push(`tfjs-wasm: Node ${tfN ?? '—'}; Chromium ${tfC ?? '—'}. ${ortN ? `${ortN}, in Node only (chains). ` : ''} \`evaluate\` in this build: Node ${has(anyN, 'evaluate')}, Chromium ${has(anyC, 'evaluate')}; \`compile\`: Node ${has(anyN, 'compile')}, Chromium ${has(anyC, 'compile')}.`);
  md.push('');
  for (const g of FUSED_GROUPS) {
    const n = r.node[g];
    const c = r.chromium[g];
    if (!n && !c) continue;
    const unit = (n ?? c).unit;
    md.push(`### ${TITLE[g]} — ${unit}`);
    md.push('');
    md.push('| case | Node | Chromium |');
    md.push('| --- | ---: | ---: |');
    const labels = { ...(c?.labels ?? {}), ...(n?.labels ?? {}) };
    for (const id of Object.keys(labels)) md.push(`| ${labels[id]} | ${cell(n, id)} | ${cell(c, id)} |`);
    const ctl = n?.cases.control ?? c?.cases.control;
    if (ctl) md.push(`| _${ctl.label}_ | ${cell(n, 'control')} | ${cell(c, 'control')} |`);
    for (const k of RATIO_KEYS[kindOf(g)]) {
      if (kindOf(g) === 'gemm' && n?.ratios?.[k] === undefined && c?.ratios?.[k] === undefined) continue; // a case this group has not
      md.push(`| _${(g === 'gemm-bilinear' && BILINEAR_LABEL[k]) || (kindOf(g) === 'gemm' && GEMM_LABEL[k]) || RATIO_LABEL[k]}_ | ${ratioCell(n, k)} | ${ratioCell(c, k)} |`);
    }
    md.push('');
    if (g === 'contract') md.push(...memoryLines(n, c), '');
    if (kindOf(g) === 'gemm') md.push(...gemmMemoryLines(n, c), '');
  }
  return md;
}

function memoryLines(n, c) {
  const side = n ?? c;
  const m = side?.memory;
  if (!m) return [];
  const one = (name, s) => {
    const x = s?.memory;
    if (!x) return `${name}: —`;
    const ev = x.eval ? `evaluate grew the wasm heap by ${mib(x.eval.heapGrowth)} and holds ${mib(x.eval.heldAfter)} more after the call` : `evaluate: ${s.missing?.eval ?? 'not measured'}`;
    const ms = x.mulSum ? `mul then sum held ${mib(x.mulSum.heldPeak)} at its peak (the temporary, dims [${x.mulSum.dims}]) and grew the heap by ${mib(x.mulSum.heapGrowth)} more, to ${mib(x.mulSum.heapAfter)}` : 'mul then sum: not measured';
    return `${name}: ${ev}; ${ms}`;
  };
  const lines = [];
  lines.push(`Peak memory, measured once per process/page before timing, from \`memory()\` (allocatedBytes + scratchBytes, sampled after each call; wasmHeapBytes, which never shrinks, so evaluate runs first): ${one('Node', n)}. ${one('Chromium', c)}.${m.evalNote ? ` Note: ${m.evalNote}.` : ''}`);
  if (m.maxBytes) {
    const perBatch = CONTRACT.in * CONTRACT.out * 4;
    lines.push('');
    lines.push(`The memory limit: one buffer may hold at most maxBytes = ${mib(m.maxBytes)} (\`contract().limits.maxBytes\`, wasm32). The [batch, in, out] temporary of mul then sum is ${mib(m.tempBytes)} here (${((m.tempBytes / m.maxBytes) * 100).toFixed(1)}% of it) and grows with the batch: mul then sum cannot run beyond batch ${Math.floor(m.maxBytes / perBatch).toLocaleString('en-US')} at in ${CONTRACT.in}, out ${CONTRACT.out}, where a one-pass contraction needs only its output (before that, the heap's own ceiling: -sMAXIMUM_MEMORY=4GB for everything live at once).`);
  }
  return lines;
}

function gemmMemoryLines(n, c) {
  const side = n ?? c;
  const m = side?.memory;
  if (!m) return [];
  const one = (name, s) => {
    const x = s?.memory;
    if (!x) return `${name}: —`;
    const per = Object.keys(x.explain ?? {}).map((id) => `${id} heap +${mib(x[id]?.heapGrowth)}, held +${mib(x[id]?.heldAfter)}`).join('; ');
    return `${name}: ${per}`;
  };
  const runs = Object.entries(m.explain ?? {}).map(([id, e]) => (e?.c ? `${id}: product rows, ${e.m} results of ${e.k} terms (${e.a} · ${e.b}) · ${e.c}, none stored` : e ? `${id}: contraction kernel, ${e.order} order, m ${e.m} k ${e.k} n ${e.n}, B packed in panels of ${e.panel.rows} × ${e.panel.columns}` : `${id}: the chunks (no contraction kernel)`));
  return [`How each form runs (explain().contraction): ${runs.join('; ')}. Memory per call, from \`memory()\` around one call after a first one (the panels are freed on return; wasmHeapBytes never shrinks): ${one('Node', n)}. ${one('Chromium', c)}. The product the op-by-op path would hold: ${mib(m.productBytes)}; the operands and result: ${mib(m.operandBytes)}.`];
}

/** The contraction targets (issue 40), as data: [name, side, group, ratio key, limit]. */
export function gemmTargets() {
  const list = [];
  for (const side of ['node', 'chromium']) {
    const env = side === 'node' ? 'Node' : 'Chromium';
    for (const g of ['gemm-256', 'gemm-1024']) {
      const t = GEMMS[g].title;
      list.push([`${t}: evaluate ≤ 1.0× tfjs-wasm matMul (${env})`, side, g, 'eval/tf-matmul', 1.0]);
      list.push([`${t}: evaluate ≤ 1.5× the SIMD128 GEMM limit (${env})`, side, g, 'eval/limit', 1.5]);
      for (const o of ['eval', 'eval-xt', 'eval-wt', 'eval-pos']) list.push([`${t}: ${o} ≤ 1.2× the fastest dim order (${env})`, side, g, `${o}/fastest`, 1.2]);
    }
    list.push([`batched [8,128,64] × [64,128]: evaluate ≤ 1.0× tfjs-wasm matMul (${env})`, side, 'gemm-batched', 'eval/tf-matmul', 1.0]);
    list.push([`x {b,i,j} × w {i,j,o}: evaluate ≤ 1.0× tfjs-wasm matMul (${env})`, side, 'gemm-2dim', 'eval/tf-matmul', 1.0]);
    list.push([`bilinear sum(x * w * y, ['i', 'j']): evaluate ≤ 1.0× tfjs-wasm matMul + mul + sum (${env})`, side, 'gemm-bilinear', 'eval/tf-matmul', 1.0]);
    list.push([`bilinear: evaluate ≤ 1.5× the exact order's SIMD128 loop, the limit (${env})`, side, 'gemm-bilinear', 'eval/limit', 1.5]);
  }
  return list;
}

/**
 * The ratio targets of the chains (issue 22), as data: [name, side, group,
 * ratio key, limit] (met when the run's ratio is at most the limit). The
 * Targets table shows them (fusedTargets); bench/fused/history.mjs reads them
 * over the saved runs.
 */
export function chainTargets() {
  const list = [];
  for (const g of Object.keys(CHAINS)) {
    const isB = g === 'chain-b';
    const label = isB ? 'chain B' : g === 'chain-a-row' ? 'chain A [1024,1024]' : 'chain A NCHW';
    for (const side of ['node', 'chromium']) {
      const env = side === 'node' ? 'Node' : 'Chromium';
      list.push([`${label}, resident + \`out\`: evaluate ≤ 1.2× the C++ SIMD128 fused loop (${env})`, side, g, 'eval-res/limit', 1.2]);
      list.push([`${label}, resident: evaluate ≤ ${isB ? '0.25' : '0.6'}× tfjs-wasm op by op (${env})`, side, g, 'eval-res/tf-kernel', isB ? 0.25 : 0.6]);
    }
    list.push([`${label}, typed arrays in Node: evaluate ≤ 0.6× tfjs-wasm end to end`, 'node', g, 'eval-plain/tf-e2e', 0.6]);
    list.push([`${label}, typed arrays in Node: evaluate ≤ ${isB ? '0.35' : '0.6'}× tensorcast op by op`, 'node', g, 'eval-plain/ops-plain', isB ? 0.35 : 0.6]);
    list.push([`${label}, typed arrays in Chromium: evaluate ≤ 1.2× tfjs-wasm end to end`, 'chromium', g, 'eval-plain/tf-e2e', 1.2]);
  }
  return list;
}

/** Rows for the Targets table: [target, workload, previous, today, verdict]. `prev`: the previous run's summary (its `fused`). */
export function fusedTargets(r, prev) {
  const rows = [];
  const P = prev?.fused ?? {};
  const pv = (side, g, k) => (P[side]?.[g]?.[k] === undefined ? '—' : fx(P[side][g][k]));
  const row = (name, side, g, key, lim, what = fx) => {
    const s = r[side]?.[g];
    if (!s) return;
    const x = s.ratios?.[key];
    const today = x !== undefined ? what(x) : ratioCell(s, key);
    const verdict = x === undefined ? 'pending' : x <= lim ? 'met' : '**not met**';
    rows.push([name, `fused ${g} (${side === 'node' ? 'Node' : 'Chromium'})`, pv(side, g, key), today, verdict]);
  };
  for (const t of chainTargets()) row(...t);
  for (const t of gemmTargets()) row(...t);
  for (const [side, lim] of [['node', 1], ['chromium', 3]]) {
    const s = r[side]?.cold;
    if (!s) continue;
    const c = s.cases.cold;
    const ms = c ? c.median / 1000 : undefined; // µs → ms
    const before = P[side]?.cold?.coldMs;
    rows.push([`cold: a new expression (generated + compiled + run) ≤ ${lim} ms (${side === 'node' ? 'Node' : 'Chromium'})`, `fused cold (${side === 'node' ? 'Node' : 'Chromium'})`, before === undefined ? '—' : `${f(before)} ms`,
      c ? `${f(ms)} ms (cached: ${f(s.cases.warm?.median / 1000)} ms)` : s.missing.cold, c ? (ms <= lim ? 'met' : '**not met**') : 'pending']);
  }
  for (const side of ['node', 'chromium']) {
    const env = side === 'node' ? 'Node' : 'Chromium';
    row(`small: a compiled 3-op expression ≤ 2× one small add, resident (${env})`, side, 'small', 'compiled-res/add-res', 2);
    row(`small: a compiled 3-op expression ≤ 2× one small add, typed arrays (${env})`, side, 'small', 'compiled-plain/add-plain', 2);
    row(`contraction ${CONTRACT.expr}: ≥ 3× faster than mul then sum (${env})`, side, 'contract', 'eval/mul-sum', 1 / 3);
    const m = r[side]?.contract?.memory;
    if (m) {
      rows.push([`contraction: no [batch, in, out] temporary (${mib(m.tempBytes)}): evaluate's heap growth and held bytes below it (${env})`, `fused contract (${env})`, '—',
        m.eval ? `heap +${mib(m.eval.heapGrowth)}, held +${mib(m.eval.heldAfter)}; mul then sum held ${mib(m.mulSum?.heldPeak)}` : r[side].contract.missing.eval,
        m.eval ? (Math.max(m.eval.heapGrowth, m.eval.heldAfter) < m.tempBytes / 2 ? 'met' : '**not met**') : 'pending']);
    }
  }
  return rows;
}

/** Headline figures for bench/runs/<date>.json. */
export function fusedSummary(r) {
  const round = (x) => (x === undefined || Number.isNaN(x) ? undefined : Number(x.toPrecision(4)));
  const side = (s) => (s ? Object.fromEntries(Object.entries(s).map(([g, v]) => [g, {
    ...Object.fromEntries(Object.entries(v.ratios).map(([k, x]) => [k, round(x)])),
    ...(v.cases.cold ? { coldMs: round(v.cases.cold.median / 1000) } : {}),
    limit: round(v.cases.limit?.median),
  }])) : null);
  return { node: side(r.node), chromium: side(r.chromium) };
}

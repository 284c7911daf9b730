// The Markdown of a bench/views.mjs run from its saved document (bench/runs/views/*.json):
//   node bench/views.mjs --report=bench/runs/views/<date>.json
import { median } from '../lib/timing.mjs';
import { specOf } from './groups.mjs';

export const TITLES = {
  'pre-224': 'Image preprocessing, 224×224 RGBA → float32 [1,3,224,224]',
  'pre-512': 'Image preprocessing, 512×512 RGBA → float32 [1,3,512,512]',
  tadd: 'Transposed add, resident float32 [1024,1024]',
  rows: 'Short rows, float32 [N,3] + [3], N = 200,704, resident into out',
  manyrows: 'Reductions along many short rows, float32, N = 50,176: sum over [N,3], softmax over [N,21], layer norm over [4096,64], argmax over [N,3], [N,21] and [21,N] axis 0, resident',
  small: 'Small call, add([3,1], [1,4]) float32',
  unary: 'float32 exp, log, tanh (and float64 exp, log, tanh, pow) over 1M elements, resident, into out',
  'post-32x1000': 'Reading logits [32,1000] float32: softmax, argmax, top-5',
  'post-8x32000': 'Reading logits [8,32000] float32: softmax, argmax, top-5',
  layernorm: 'Layer norm over [64,768] float32, resident, into out (issue 41)',
};

/** The report's lines. doc: { date, runs, clock, loadavg, cpus, cpuModel, node, chromium, dists: [{ label, size }], groups, errors, results }. */
export function viewsReport(doc) {
  const { results, runs, groups, errors } = doc;
  const info = doc.dists;
  const ENVS = results.some((x) => x.env === 'chromium') ? ['node', 'chromium'] : ['node'];
  const ENV_NAME = { node: 'Node', chromium: 'Chromium' };
  const UNIT = { ms: 1e6, 'µs': 1e3, ns: 1 };
  const num = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
  const cell = (xs, div = 1) => (xs.length ? `${num(median(xs) / div)} (${num(Math.min(...xs) / div)}–${num(Math.max(...xs) / div)})` : '—');
  const xcell = (xs) => (xs.length ? `${median(xs).toFixed(2)}× (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})` : '—');
  const ok = (g, di, env) => results.filter((x) => x.group === g && x.dist === di && x.env === env && x.result);
  const runMedians = (g, di, env, id) => ok(g, di, env).map((x) => x.result.cases[id]?.median).filter((v) => v !== undefined);
  const runRatios = (g, di, env, id) => ok(g, di, env).map((x) => x.result.ratios[id]).filter((v) => v !== undefined);

  const md = [];
  md.push(`## Strided views: ${doc.date.slice(0, 16)}Z`);
  md.push('');
  md.push(`${runs} runs; each run a fresh Node process and a fresh Chromium page per group and dist. Cells: the median over the runs of each run's median batch, (min–max of the runs). Ratios: per run the median of the per-batch ratios, then median (range) over the runs; "met" counts the runs at or under the target. Node clock: ${doc.clock.startsWith('wall') ? 'wall' : 'min(wall, process CPU) per batch'}; Chromium: wall.`);
  md.push('');
  if (doc.loadavg) md.push(`Machine: ${doc.cpus} cores (${doc.cpuModel ?? '?'}), load average ${doc.loadavg.start[0].toFixed(2)} at the start, ${doc.loadavg.end[0].toFixed(2)} at the end (1 min).`);
  md.push('');
  md.push(`Node ${doc.node}${doc.chromium ? `, Chromium ${doc.chromium}` : ''}; ${results.find((x) => x.result?.env?.tf && x.result.env.tf !== 'not loaded')?.result.env.tf ?? 'tfjs-wasm not loaded'}.`);
  md.push('');
  md.push('| dist | payload gz (JS + wasm) |');
  md.push('| --- | --- |');
  const kb = (n) => (n === null ? '—' : `${(n / 1024).toFixed(1)} KB`);
  for (const x of info) md.push(`| ${x.label} | ${kb(x.size.jsGzip + x.size.wasmGzip)} (${kb(x.size.jsGzip)} + ${kb(x.size.wasmGzip)}) |`);

  for (const g of groups) {
    const spec = specOf(g);
    const div = UNIT[spec.unit];
    const ran = info.map((_, di) => di).filter((di) => ENVS.some((e) => ok(g, di, e).length));
    md.push('');
    md.push(`### ${TITLES[g]} (${spec.unit} per call)`);
    md.push('');
    const skipped = info.map((x, di) => [x, results.find((r) => r.group === g && r.dist === di && r.skipped)]).filter(([, s]) => s);
    for (const [x, s] of skipped) md.push(`${x.label}: ${s.skipped}.`);
    if (skipped.length) md.push('');
    if (!ran.length) { md.push('No run completed.'); continue; }
    const multi = ran.length > 1;
    md.push(`| case |${multi ? ' dist |' : ''} ${ENVS.map((e) => `${ENV_NAME[e]} ${spec.unit}`).join(' | ')} |`);
    md.push(`| --- |${multi ? ' --- |' : ''} ${ENVS.map(() => '---:').join(' | ')} |`);
    const ids = [];
    for (const di of ran) for (const e of ENVS) for (const x of ok(g, di, e)) for (const id of Object.keys(x.result.cases)) if (!ids.includes(id)) ids.push(id);
    const labels = {};
    for (const x of results) if (x.group === g && x.result) for (const [id, c] of Object.entries(x.result.cases)) labels[`${x.env}|${id}`] = c.label;
    for (const id of ids) {
      for (const di of ran) {
        const lab = labels[`node|${id}`] ?? labels[`chromium|${id}`];
        const chLab = labels[`chromium|${id}`];
        const text = chLab && lab !== chLab ? `${lab.replace(/, then the chain.*$/, '')} (Chromium: ${chLab.replace(/^tfjs-wasm: /, '')})` : lab;
        // The control is a few ns whatever the group's unit: shown in ns.
        const cells = ENVS.map((e) => (id === 'control' && div !== 1 ? `${cell(runMedians(g, di, e, id))} ns` : cell(runMedians(g, di, e, id), div)));
        md.push(`| \`${id}\` ${text} |${multi ? ` ${info[di].label} |` : ''} ${cells.join(' | ')} |`);
      }
    }
    md.push('');
    md.push(`| ratio |${multi ? ' dist |' : ''} target | ${ENVS.map((e) => `${ENV_NAME[e]} median (range) | met`).join(' | ')} |`);
    md.push(`| --- |${multi ? ' --- |' : ''} ---: | ${ENVS.map(() => '---: | ---:').join(' | ')} |`);
    for (const [id, , , target, note] of spec.ratios) {
      for (const di of ran) {
        const cols = ENVS.map((e) => {
          const xs = runRatios(g, di, e, id);
          if (!xs.length) return '— | —';
          return `${xcell(xs)} | ${target === null ? 'n/t' : `${xs.filter((v) => v <= target).length} of ${xs.length}`}`;
        });
        if (cols.every((c) => c === '— | —')) continue;
        md.push(`| \`${id}\` ${note} |${multi ? ` ${info[di].label} |` : ''} ${target === null ? 'n/t' : `≤ ${target.toFixed(1)}×`} | ${cols.join(' | ')} |`);
      }
    }
    if (g === 'tadd') {
      // Bytes moved by contiguous(a): 4 MiB read + 4 MiB written.
      const bw = ENVS.map((e) => {
        const xs = runMedians(g, ran[0], e, 'tc-copy');
        return xs.length ? `${ENV_NAME[e]} ${((8 * 1024 * 1024) / median(xs)).toFixed(1)} GB/s` : null;
      }).filter(Boolean);
      md.push('');
      md.push(`contiguous(a) moves 8 MiB (4 MiB read, 4 MiB written): ${bw.join(', ')} at the median. add(a, b) moves 12 MiB, so ~1.5× the copy is its memory-traffic floor.`);
    }
    if (multi) {
      // Before/after: per run, the later dist's run median ÷ the first dist's (the same run), as measured
      // and with each process's figure first divided by its own plain-JS control (which takes out most of
      // a process's JIT placement and of the machine's load at that moment).
      md.push('');
      md.push(`Before/after, per run (the same run of each dist), then median (range) over the runs: the raw ratio, and "÷ control" with each process's figure divided by its own plain-JS control first.`);
      md.push('');
      const heads = ran.slice(1).flatMap((di) => ENVS.flatMap((e) => [`${ENV_NAME[e]}: ${info[di].label} ÷ ${info[ran[0]].label}`, `${ENV_NAME[e]} ÷ control`]));
      md.push(`| case | ${heads.join(' | ')} |`);
      md.push(`| --- | ${heads.map(() => '---:').join(' | ')} |`);
      for (const id of ids) {
        const cols = [];
        for (const di of ran.slice(1)) {
          for (const e of ENVS) {
            const raw = [];
            const norm = [];
            for (let r = 0; r < runs; r++) {
              const a = ok(g, ran[0], e).find((x) => x.run === r)?.result.cases;
              const b = ok(g, di, e).find((x) => x.run === r)?.result.cases;
              if (!a?.[id] || !b?.[id]) continue;
              raw.push(b[id].median / a[id].median);
              if (a.control && b.control) norm.push((b[id].median / b.control.median) / (a[id].median / a.control.median));
            }
            cols.push(xcell(raw), id === 'control' ? '—' : xcell(norm));
          }
        }
        md.push(`| \`${id}\` | ${cols.join(' | ')} |`);
      }
    }
    // Checks: tensorcast's results are checked before timing (a wrong one fails the run); what tfjs and the
    // JS loop gave against the float32-per-op reference is noted here.
    const ck = results.find((x) => x.group === g && x.result)?.result.checks;
    if (g.startsWith('pre-')) {
      md.push('');
      md.push("tfjs-wasm's chain: cast float32 → div 255 → sub mean → div std → transpose [2,0,1] → expandDims(0) → dataSync(), in a tidy, mean and std resident tf.tensor1d. `tf` is the yardstick of the target (Node: tensor3d, as tf.browser.fromPixels needs a canvas or ImageData there, though it takes { data: Uint8Array, width, height }: `tf-alt`; Chromium: fromPixels(ImageData)), `tf-alt` the other reading.");
    }
    if (ck && g.startsWith('pre-')) {
      const d = (c) => (c ? (c.error ? `error: ${c.error}` : `${c.vsRef32?.differing === 0 ? 'bit-identical' : `${c.vsRef32?.differing} of ${c.vsRef32?.n} differ (max abs ${c.vsRef32?.maxAbs?.toExponential(2)})`}`) : '—');
      md.push('');
      md.push(`Checked before timing (first run, Node): against the float32-per-op reference f32(f32(f32(x)/255) − mean) / std: tensorcast ${d(ck['tc-new'])} (out: ${d(ck['tc-out'])}), tfjs-wasm ${d(ck.tf)} (other path: ${d(ck['tf-alt'])}), the JS loop (float64 arithmetic, rounded once) ${d(ck['js-out'])}; tensorcast against the JS loop: max abs ${ck['tc-new']?.vsLoop?.maxAbs?.toExponential(2)}, max rel ${ck['tc-new']?.vsLoop?.maxRel?.toExponential(2)} (tolerance 1e-6 relative to max(|x|, 1)). View: shape [${ck.view?.shape}], strides [${ck.view?.strides}], offset ${ck.view?.offset}.`);
    }
  }
  if (errors.length) {
    md.push('');
    md.push('Errors:');
    for (const e of errors) md.push(`- ${e}`);
  }
  return md;
}

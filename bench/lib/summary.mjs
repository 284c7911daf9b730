// A run's headline figures as one small JSON file (bench/runs/<date>.json),
// so that the next run can show its figures next to this one's.
import fs from 'node:fs';
import path from 'node:path';

/** The newest bench/runs/*.json dated before `beforeIso`, or null. */
export function previousRun(runsDir, beforeIso) {
  if (!fs.existsSync(runsDir)) return null;
  const files = fs.readdirSync(runsDir).filter((f) => /^\d{4}-\d{2}-\d{2}.*\.json$/.test(f)).sort();
  let best = null;
  for (const f of files) {
    try {
      const j = JSON.parse(fs.readFileSync(path.join(runsDir, f), 'utf8'));
      if (j.date < beforeIso && (!best || j.date > best.date)) best = { ...j, file: f };
    } catch { /* not a run file */ }
  }
  return best;
}

const round = (x, d = 4) => (x === undefined || Number.isNaN(x) ? undefined : Number(x.toPrecision(d)));

export function summarize({ date, command, results, initSamples, sizeRows, browser, boundary, median }) {
  const sets = {};
  for (const r of results) {
    const t = r.impls?.find((i) => i.name === 'tensorcast' && i.status === 'ok');
    if (!t) continue;
    const pl = r.impls.find((i) => i.name === 'plain JS' && i.status === 'ok');
    sets[r.id] = {
      kernel: round(t.kernel?.median), e2e: round(t.e2e?.median),
      kernelXWasm: round(t.kernel?.xWasm, 3), e2eXWasm: round(t.e2e?.xWasm, 3), kernelXLimit: round(t.kernel?.xLimit, 3),
      kernelWasmPeer: r.fastest?.kernel?.wasm ?? undefined, e2eWasmPeer: r.fastest?.e2e?.wasm ?? undefined,
      plainKernel: round(pl?.kernel?.median),
      xPlainKernel: round(t.kernel?.xPlain, 3), xPlainE2E: round(t.e2e?.xPlain, 3),
      kernelXRead: round(t.kernel?.xRead, 3), e2eXRead: round(t.e2e?.xRead, 3), read: round(r.read?.median),
    };
  }
  const tc = initSamples.tensorcast ?? [];
  const kb = (n) => (n === undefined ? undefined : Number((n / 1024).toFixed(1)));
  const s = sizeRows.find((x) => x.name === 'tensorcast');
  const shapes = sizeRows.find((x) => x.name === 'tensorcast/shapes');
  let chromium = null;
  const pc = browser?.chromium?.percall;
  if (pc) {
    chromium = {
      smallE2E: round(pc.cases['tc-small-e2e']?.median), smallRes: round(pc.cases['tc-small-res']?.median),
      shapes: round(pc.cases['tc-shapes']?.median), control: round(pc.cases.control?.median),
      shapesVaried: round(pc.cases['tc-shapes-varied']?.median), smallFresh: round(pc.cases['js-small-fresh']?.median),
      smallE2EvsFresh: round(pc.ratios?.['tc-small-e2e/js-small-fresh'], 3),
      initMs: round(browser.init?.length ? median(browser.init.map((e) => e.initMs)) : pc.env.initMs),
      kernelXtf: Object.fromEntries(['same', 'row', 'nchw'].map((g) => [g, round(browser.chromium[g]?.ratios?.['tc/tf'], 3)])),
      reduce: Object.fromEntries(['sum-all', 'sum-axis0', 'sum-axis1', 'unb-nchw'].filter((g) => browser.chromium[g]).map((g) => [g, {
        xTf: round(browser.chromium[g].ratios['tc/tf'], 3), e2eXTf: round(browser.chromium[g].ratios['tc-e2e/tf-e2e'], 3), xRead: round(browser.chromium[g].ratios['tc/wasm-read'], 3),
      }])),
    };
  }
  let nodeSame = null;
  const npc = browser?.node?.percall;
  if (npc) {
    nodeSame = {
      smallE2E: round(npc.cases['tc-small-e2e']?.median), smallRes: round(npc.cases['tc-small-res']?.median),
      shapes: round(npc.cases['tc-shapes']?.median), control: round(npc.cases.control?.median),
      shapesVaried: round(npc.cases['tc-shapes-varied']?.median), smallFresh: round(npc.cases['js-small-fresh']?.median),
      smallE2EvsFresh: round(npc.ratios?.['tc-small-e2e/js-small-fresh'], 3),
      kernelXtf: Object.fromEntries(['same', 'row', 'nchw'].map((g) => [g, round(browser.node[g]?.ratios?.['tc/tf'], 3)])),
    };
  }
  const bpairs = (side) => (side ? Object.fromEntries(side.pairs.map((p) => [`${p.embind} vs ${p.raw}`, { ratio: round(p.ratio, 3), diffNs: round(p.diffNs, 3) }])) : null);
  return {
    date, command, sets,
    init: tc.length ? { importMs: round(median(tc.map((x) => x.importMs)), 3), initMs: round(median(tc.map((x) => x.initMs)), 3) } : null,
    size: s ? { totalKB: kb(s.gzip), glueKB: kb(s.glueGzip), wasmKB: kb(s.wasmGzip), shapesKB: kb(shapes?.gzip) } : null,
    nodeWall: nodeSame,
    chromium,
    boundary: boundary ? { node: bpairs(boundary.node), chromium: bpairs(boundary.chromium) } : null,
  };
}

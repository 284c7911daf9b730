// tensorcast/model (issue 39): how long inferShapes() takes on the corpus's
// real models, in Node and in the model explorer page in headless Chromium,
// and what the entry and the page download.
//
//   node       inferShapes(bytes) on each real model of tests/fixtures/onnx/real,
//              in a fresh Node process per run: the first call (cold: the
//              engine's first explain() calls, V8 not yet warm) and the median
//              of 15 calls after it. Target: the PaddleOCR detection model
//              (4.7 MB) under 100 ms.
//   chromium   dist/explorer/model.html served, a fresh page per run: the file
//              picked (setInputFiles), the time from the page's read of the
//              file to the nodes listed (the page's own data-listed-ms: the
//              worker's inferShapes, the transfer, the summary and the list).
//              Target: within a second.
//   size       the model entry as a page ships it (dist/tensorcast-model.js
//              bundled and minified + tensorcast-shapes.wasm, gzip -9) and the
//              model page's files (its HTML, JS, worker, CSS and wasm, gzip -9).
//
// The table gives, over the runs, the median, the range (min–max) and how
// many runs met the target. Every run's figures go to bench/runs/model/<date>.json.
//
//   node bench/model.mjs [--runs=N] [--no-chromium] [--no-write]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modelSize } from './lib/size.mjs';

const self = fileURLToPath(import.meta.url);
const benchDir = path.dirname(self);
const root = path.resolve(benchDir, '..');
const args = process.argv.slice(2);
const opt = (k) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const runs = Number(opt('runs') ?? 7);
const real = path.join(root, 'tests', 'fixtures', 'onnx', 'real');
const MODELS = fs.readdirSync(real).filter((f) => f.endsWith('.onnx')).sort();
const TARGET_FILE = 'ch_PP-OCRv4_det_infer.onnx';
const log = (...a) => process.stderr.write(`[model] ${a.join(' ')}\n`);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

// ---- a Node run (child process) ----------------------------------------------------------
if (args.includes('--child')) {
  const tc = await import(pathToFileURL(path.join(root, 'dist', 'tensorcast-model-node.js')).href);
  await tc.init();
  const out = {};
  for (const f of MODELS) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(real, f)));
    let t = performance.now();
    const r = tc.inferShapes(bytes);
    const cold = performance.now() - t;
    const warm = [];
    for (let k = 0; k < 15; k++) {
      t = performance.now();
      tc.inferShapes(bytes);
      warm.push(performance.now() - t);
    }
    out[f] = { bytes: bytes.length, nodes: r.nodes.length, cold, warm: median(warm) };
  }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}

// ---- Chromium ---------------------------------------------------------------------------
async function chromiumRuns(n) {
  const { launchChromium } = await import(pathToFileURL(path.join(root, 'tests', 'browser', 'chromium.js')).href);
  const { serve } = await import(pathToFileURL(path.join(root, 'scripts', 'serve.mjs')).href);
  const { server, url } = await serve(path.join(root, 'dist', 'explorer'), 0);
  const browser = await launchChromium();
  const out = [];
  try {
    for (let r = 0; r < n; r++) {
      const page = await browser.newPage();
      await page.goto(`${url}model.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
      const row = {};
      for (const f of MODELS) {
        const before = await page.evaluate(() => document.body.dataset.listedMs ?? null);
        await page.setInputFiles('#file', path.join(real, f));
        await page.waitForFunction((b) => (document.body.dataset.listedMs ?? null) !== b, before, { timeout: 30_000 });
        row[f] = Number(await page.evaluate(() => document.body.dataset.listedMs));
        await page.evaluate(() => { delete document.body.dataset.listedMs; });
      }
      out.push(row);
      await page.close();
    }
  } finally {
    await browser.close();
    await new Promise((res) => server.close(res));
  }
  return out;
}

// ---- the runs -------------------------------------------------------------------------------
if (!fs.existsSync(path.join(root, 'dist', 'tensorcast-model-node.js'))) throw new Error('build first: npm run build');
const node = [];
for (let r = 0; r < runs; r++) {
  const c = spawnSync(process.execPath, [self, '--child'], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`node run ${r} failed: ${c.stderr}`);
  node.push(JSON.parse(c.stdout));
  log(`node run ${r + 1}/${runs}`);
}
const chromium = args.includes('--no-chromium') ? [] : await chromiumRuns(runs);
const size = await modelSize(root, benchDir);

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const stat = (xs, target) => {
  const m = median(xs);
  const met = target === undefined ? '' : ` · ${xs.filter((x) => x < target).length}/${xs.length} under ${target} ms`;
  return `${fmt(m)} ms (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})${met}`;
};
const lines = ['## tensorcast/model: inferShapes()', '', `${runs} runs; median (range) over the runs.`, '',
  '| model | size | broadcasting nodes | Node, first call | Node, warm (median of 15) | Chromium page, file to list |', '| --- | --- | --- | --- | --- | --- |'];
for (const f of MODELS) {
  const t = f === TARGET_FILE ? 100 : undefined;
  lines.push(`| ${f} | ${(node[0][f].bytes / 1048576).toFixed(2)} MB | ${node[0][f].nodes} | ${stat(node.map((r) => r[f].cold), t)} | ${stat(node.map((r) => r[f].warm), t)} | ${chromium.length ? stat(chromium.map((r) => r[f]), f === TARGET_FILE ? 1000 : undefined) : '—'} |`);
}
lines.push('', '| download (gzip -9) | JS | wasm | total |', '| --- | --- | --- | --- |');
for (const row of size) lines.push(`| ${row.name}: ${row.what} | ${(row.glueGzip / 1024).toFixed(1)} KB | ${(row.wasmGzip / 1024).toFixed(1)} KB | ${(row.gzip / 1024).toFixed(1)} KB |`);
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
if (!args.includes('--no-write')) {
  const dir = path.join(benchDir, 'runs', 'model');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().slice(0, 16).replace(/:/g, '');
  fs.writeFileSync(path.join(dir, `${stamp}.json`), `${JSON.stringify({ date: new Date().toISOString(), runs, node, chromium, size, report }, null, 1)}\n`);
  log(`saved bench/runs/model/${stamp}.json`);
}

// The model explorer page's main thread while it lists a large model: an
// 80,000-node OpenVINO IR (26 MB .xml) dropped on dist/explorer/model.html in
// headless Chromium, a fresh page per run. Each run gives every long task
// (PerformanceObserver 'longtask', 50 ms or more) from the drop to 2 s after
// the nodes are listed: the longest, their total, when the first row was
// painted and when the page says the nodes were listed (data-listed-ms). The
// file is fetched into a Blob before the clock starts (a 26 MB string built in
// the page, or playwright's setInputFiles of it, is a long task of its own).
//
//   node bench/model-longtasks.mjs [--runs=N] [--nodes=N] [--explorer=<dir>] [--loaf]
//
// --explorer: another build of the page (before/after); --loaf adds each long
// animation frame's scripts and layout. Prints one JSON line a run, then the
// median and range over the runs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const runs = Number(arg('runs', 5));
const N = Number(arg('nodes', 80000));
const explorer = path.resolve(arg('explorer', path.join(root, 'dist', 'explorer')));
const loaf = process.argv.includes('--loaf');
const { launchChromium } = await import(path.join(root, 'tests', 'browser', 'chromium.js'));
const { serve } = await import(path.join(root, 'scripts', 'serve.mjs'));

const parts = [];
for (let i = 0; i < N; i++) {
  parts.push(`<layer id="${i}" name="add_${i}" type="Add" version="opset1"><data auto_broadcast="numpy"/><input><port id="0" precision="FP32"><dim>-1</dim><dim>3</dim><dim>4</dim></port><port id="1" precision="FP32"><dim>4</dim></port></input><output><port id="2" precision="FP32"><dim>-1</dim><dim>3</dim><dim>4</dim></port></output></layer>`);
}
const xml = Buffer.from(`<?xml version="1.0"?>\n<net name="big" version="11"><layers>${parts.join('')}</layers><edges></edges></net>`);
const { server, url } = await serve(explorer, 0);
const browser = await launchChromium();
const results = [];
try {
  for (let r = 0; r < runs; r++) {
    const page = await browser.newPage();
    await page.route('**/big.xml', (route) => route.fulfill({ body: xml, contentType: 'text/xml' }));
    await page.goto(`${url}model.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate(async () => { window.benchFile = new File([await (await fetch('./big.xml')).blob()], 'big.xml'); });
    await page.waitForTimeout(300);
    await page.evaluate((withLoaf) => {
      window.benchLong = [];
      window.benchLoaf = [];
      window.benchT0 = performance.now();
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) if (e.startTime >= window.benchT0) window.benchLong.push([Math.round(e.startTime - window.benchT0), Math.round(e.duration)]);
      }).observe({ type: 'longtask' });
      if (withLoaf) {
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) {
            if (e.startTime < window.benchT0) continue;
            const end = e.startTime + e.duration;
            window.benchLoaf.push({ at: Math.round(e.startTime - window.benchT0), ms: Math.round(e.duration), layout: Math.round(end - (e.styleAndLayoutStart || end)), scripts: e.scripts.map((s) => `${s.invoker} ${Math.round(s.duration)}`) });
          }
        }).observe({ type: 'long-animation-frame' });
      }
      window.benchFirstRow = null;
      const poll = () => { if (document.querySelector('.node-row')) window.benchFirstRow = performance.now() - window.benchT0; else requestAnimationFrame(poll); };
      requestAnimationFrame(poll);
      const dt = new DataTransfer();
      dt.items.add(window.benchFile);
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, loaf);
    await page.waitForFunction(() => document.body.dataset.listedMs !== undefined, null, { timeout: 120_000 });
    await page.waitForTimeout(2000);
    const out = await page.evaluate(() => ({ long: window.benchLong, loaf: window.benchLoaf, listed: Number(document.body.dataset.listedMs), firstRow: Math.round(window.benchFirstRow) }));
    const run = { longest: Math.max(0, ...out.long.map((x) => x[1])), total: out.long.reduce((a, x) => a + x[1], 0), firstRow: out.firstRow, listed: out.listed, long: out.long };
    results.push(run);
    console.log(JSON.stringify(run));
    if (loaf) for (const f of out.loaf) console.log('  loaf', JSON.stringify(f));
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const stat = (k) => `${med(results.map((x) => x[k]))} ms (${Math.min(...results.map((x) => x[k]))}–${Math.max(...results.map((x) => x[k]))})`;
console.log(`${N} nodes, ${runs} runs, median (range): longest task ${stat('longest')}; long tasks in all ${stat('total')}; first row painted at ${stat('firstRow')}; listed at ${stat('listed')}`);

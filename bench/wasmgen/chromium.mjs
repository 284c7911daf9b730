// The cold half of bench/wasmgen/run.mjs in headless Chromium: generate() (in
// wasm, fused.wasm built by run.mjs) then new WebAssembly.Module + Instance
// per expression, medians; and chain A generated vs C++ SIMD128.
//   node bench/wasmgen/chromium.mjs --dir=<run.mjs's build dir>
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../tests/browser/chromium.js';

const dir = (process.argv.find((a) => a.startsWith('--dir=')) ?? '').slice(6);
const bytes = [...fs.readFileSync(path.join(dir, 'fused.wasm'))];
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto('about:blank');
  const out = await page.evaluate(async (wasm) => {
    const stub = new Proxy({}, { get: () => () => 0 });
    const { instance } = await WebAssembly.instantiate(new Uint8Array(wasm), { wasi_snapshot_preview1: stub, env: stub });
    const E = instance.exports, memory = E.memory;
    E.bench_setup();
    const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
    const lines = [];
    const formsOf = [0, 10100, 0, 0];
    let serial = 0;
    for (let which = 0; which < 4; which++) {
      const tGen = [], tCompile = [];
      for (let i = 0; i < 100; i++) {
        let t = performance.now();
        const size = E.bench_generate(which, 1, formsOf[which]);
        const b = new Uint8Array(memory.buffer, E.bench_bytes(), size).slice();
        tGen.push(performance.now() - t);
        const tag = String(serial++).padStart(8, '0');
        const u = new Uint8Array(b.length + 3 + tag.length);
        u.set(b);
        u.set([0, 1 + tag.length, 0, ...new TextEncoder().encode(tag)], b.length);
        t = performance.now();
        new WebAssembly.Instance(new WebAssembly.Module(u), { env: { memory } });
        tCompile.push(performance.now() - t);
      }
      lines.push(`expression ${which}: generate() ${(median(tGen) * 1000).toFixed(0)} us, Module + Instance ${(median(tCompile) * 1000).toFixed(0)} us`);
    }
    return lines;
  }, bytes);
  console.log(`Chromium (${browser.version()}):\n${out.join('\n')}`);
} finally {
  await browser.close();
}

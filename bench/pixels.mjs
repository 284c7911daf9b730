// The canvas preprocessing job as one expression, against a plain JS loop:
// RGB pixels (Uint8ClampedArray, 224×224×3) → float32 (x/255 - mean[c]) / std[c],
// channels-last ([224,224,3] with mean/std [3]) and channels-first ([3,224,224]
// with [3,1,1]). Per case the median of 25 batches of 10 calls, after 20 warm-up
// calls; each dist in its own process.
//   node bench/pixels.mjs [<dist dir> ...]   (default: dist/)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
if (args[0] === '--child') {
  const tc = await import(pathToFileURL(path.join(path.resolve(args[1]), 'node.js')).href);
  await tc.init();
  const time = (f) => {
    for (let i = 0; i < 20; i++) f();
    const t = [];
    for (let r = 0; r < 25; r++) {
      const t0 = performance.now();
      for (let i = 0; i < 10; i++) f();
      t.push((performance.now() - t0) / 10);
    }
    return t.sort((a, b) => a - b)[12];
  };
  const H = 224, W = 224;
  const px = new Uint8ClampedArray(H * W * 3);
  for (let i = 0; i < px.length; i++) px[i] = (i * 37) & 255;
  const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
  const e = "(cast(x, 'float32') / 255 - m) / s";
  const last = { x: { data: px, shape: [H, W, 3] }, m: { data: Float32Array.from(mean), shape: [3] }, s: { data: Float32Array.from(std), shape: [3] } };
  const first = { x: { data: px, shape: [3, H, W] }, m: { data: Float32Array.from(mean), shape: [3, 1, 1] }, s: { data: Float32Array.from(std), shape: [3, 1, 1] } };
  const loop = () => {
    const o = new Float32Array(px.length);
    for (let i = 0; i < px.length; i++) { const c = i % 3; o[i] = (px[i] / 255 - mean[c]) / std[c]; }
    return o;
  };
  const r = { channelsLast: time(() => tc.evaluate(e, last)), channelsFirst: time(() => tc.evaluate(e, first)), plainJs: time(loop) };
  console.log(JSON.stringify(r));
} else {
  const dists = args.length ? args : [path.join(path.dirname(self), '..', 'dist')];
  console.log('| dist | channels-last ms | channels-first ms | plain JS loop ms |\n| --- | ---: | ---: | ---: |');
  for (const d of dists) {
    const r = JSON.parse(execFileSync(process.execPath, [self, '--child', d], { encoding: 'utf8' }));
    console.log(`| ${d} | ${r.channelsLast.toFixed(3)} | ${r.channelsFirst.toFixed(3)} | ${r.plainJs.toFixed(3)} |`);
  }
}

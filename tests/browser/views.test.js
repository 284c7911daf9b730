// Views in Chromium: the README's canvas recipe on a real ImageData (its
// Uint8ClampedArray sliced, transposed and given a batch axis, then one
// evaluate), equal to the plain-JS loop; and float16 views over a real
// Float16Array (a gathered copy for a reduction keeps the Float16Array kind).
import { describe, it, expect } from 'vitest';
import { sharedScriptPage } from './chromium.js';

const body = `
  const W = 5, H = 3;
  const c = new OffscreenCanvas(W, H).getContext('2d');
  const g = c.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, 'rgb(250, 10, 128)');
  g.addColorStop(1, 'rgb(3, 200, 64)');
  c.fillStyle = g;
  c.fillRect(0, 0, W, H);
  const img = c.getImageData(0, 0, W, H);
  const mean = Float32Array.of(0.485, 0.456, 0.406), std = Float32Array.of(0.229, 0.224, 0.225);
  const rgb = tc.slice({ data: img.data, shape: [H, W, 4] }, null, null, [0, 3]);
  const nchw = tc.expandDims(tc.transpose(rgb, [2, 0, 1]), 0);
  const outArr = new Float32Array(3 * H * W);
  const r = tc.evaluate("(cast(x, 'float32') / 255 - m) / s", { x: nchw, m: { data: mean, shape: [1, 3, 1, 1] }, s: { data: std, shape: [1, 3, 1, 1] } }, { out: outArr });
  const js = new Float32Array(3 * H * W);
  for (let ch = 0; ch < 3; ch++) for (let i = 0; i < H * W; i++) js[ch * H * W + i] = Math.fround(Math.fround(Math.fround(img.data[i * 4 + ch]) / 255) - mean[ch]) / std[ch];
  out.recipe = { shape: r.shape, same: r.data === outArr, got: Array.from(outArr), want: Array.from(js), tag: Object.prototype.toString.call(img.data) };
  const h = new Float16Array([1, 2, 3, 4, 5, 6]);
  const v = tc.transpose({ data: h, shape: [2, 3] });
  out.f16 = { add: Array.from(tc.add(v, 0.5).data, String), sum: Array.from(tc.sum(v, { axes: [1] }).data, String), tag: Object.prototype.toString.call(tc.contiguous(v).data) };
  const t = tc.tensor(h, [2, 3]);
  const tv = t.flip();
  out.f16r = Array.from(tc.mul(tv, 2).toArray(), String);
  tv.dispose(); t.dispose();
`;

const page = sharedScriptPage('views-site', { body });

describe('views in Chromium', () => {
  it('the canvas recipe equals the plain-JS loop (float32 rounding step by step); float16 views keep Float16Array', async () => {
    const r = await page.result(20000);
    expect(r.error).toBeUndefined();
    expect(r.recipe.tag).toBe('[object Uint8ClampedArray]');
    expect(r.recipe.shape).toEqual([1, 3, 3, 5]);
    expect(r.recipe.same).toBe(true);
    expect(r.recipe.got).toEqual(r.recipe.want);
    expect(new Set(r.recipe.got).size).toBeGreaterThan(3); // the gradient: not one value
    expect(r.f16.add).toEqual(['1.5', '4.5', '2.5', '5.5', '3.5', '6.5']);
    expect(r.f16.sum).toEqual(['5', '7', '9']);
    expect(r.f16.tag).toBe('[object Float16Array]');
    expect(r.f16r).toEqual(['12', '10', '8', '6', '4', '2']);
  }, 30000);
});

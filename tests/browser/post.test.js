// Post-processing in Chromium: softmax, argmax and topk on a Float32Array and
// on a real Float16Array (which Node 20 lacks: the float16 result keeps the
// Float16Array kind), and float32 exp in the page equal to Node's algorithm
// (the same bits: the SIMD kernel and its scalar reference are one algorithm).
import { describe, it, expect } from 'vitest';
import { sharedScriptPage } from './chromium.js';
import * as tc from '../../dist/node.js';

const XS = [-3, -0.5, 0, 0.25, 1, 2.5, 10, 88.5, -100, 1e-30];
const body = `
  const logits = { data: new Float32Array([2, 1, 0.1, 0.5, 2.5, 0.3]), shape: [2, 3] };
  out.softmax = Array.from(tc.softmax(logits).data);
  out.argmax = Array.from(tc.argmax(logits, 1).data);
  const k = tc.topk(logits, 2);
  out.topk = { values: Array.from(k.values.data), indices: Array.from(k.indices.data) };
  const h = tc.softmax({ data: new Float16Array([1, 2, 3]) });
  out.f16 = { tag: Object.prototype.toString.call(h.data), values: Array.from(h.data) };
  out.exp = Array.from(tc.exp({ data: new Float32Array(${JSON.stringify(XS)}) }).data);
`;

const page = sharedScriptPage('post-site', { body });

describe('post-processing in Chromium', () => {
  it('softmax, argmax, topk and float32 exp give what Node gives; float16 keeps Float16Array', async () => {
    const r = await page.result(20000);
    expect(r.error).toBeUndefined();
    await tc.init();
    const logits = { data: new Float32Array([2, 1, 0.1, 0.5, 2.5, 0.3]), shape: [2, 3] };
    expect(r.softmax).toEqual(Array.from(tc.softmax(logits).data));
    expect(r.argmax).toEqual([0, 1]);
    expect(r.topk).toEqual({ values: [2, 1, 2.5, 0.5], indices: [0, 1, 1, 0] });
    expect(r.f16.tag).toBe('[object Float16Array]');
    const want = tc.softmax({ data: new Uint16Array([0x3c00, 0x4000, 0x4200]), dtype: 'float16' }).data;
    expect(r.f16.values.map((v) => tc.cast({ data: Float32Array.of(v) }, 'float16').data[0])).toEqual(Array.from(want));
    expect(r.exp).toEqual(Array.from(tc.exp({ data: Float32Array.from(XS) }).data));
  }, 30000);
});

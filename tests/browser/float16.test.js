// float16 with a real Float16Array (headless Chromium has one; Node 20 does
// not: tests/js/data-float16.test.js covers the Uint16Array-bits form). The
// package's browser entry in a page: operands, results, resident tensors,
// reductions and `out` as Float16Array, and a Uint16Array of bits beside it.
import { describe, it, expect } from 'vitest';
import { sharedScriptPage } from './chromium.js';

const body = `
  out.has = typeof Float16Array === 'function';
  const a = new Float16Array([1, 2.5, 65504, -0, 0.1]);
  const b = new Float16Array([2, 0.5, 65504, 0, 0.2]);
  const r = tc.add({ data: a, shape: [5] }, { data: b, shape: [5] });
  out.add = { tag: Object.prototype.toString.call(r.data), dtype: r.dtype, values: Array.from(r.data, String), bits: Array.from(new Uint16Array(r.data.buffer, r.data.byteOffset, 5)) };
  const t = tc.tensor(a, [5]);
  out.tensor = { dtype: t.dtype, tag: Object.prototype.toString.call(t.toArray()), mean: Array.from(tc.mean(t).toArray(), String) };
  // bits in a Uint16Array marked float16: the same numbers
  const bits = new Uint16Array(a.buffer.slice(0));
  const rb = tc.mul({ data: bits, shape: [5], dtype: 'float16' }, 2);
  out.bits = { tag: Object.prototype.toString.call(rb.data), values: Array.from(rb.data, String) };
  const o16 = new Float16Array(5);
  tc.sub({ data: a, shape: [5] }, 1, { out: o16 });
  out.out16 = Array.from(o16, String);
  const ob = new Uint16Array(5);
  tc.sub({ data: a, shape: [5] }, 1, { out: ob });
  out.outBits = Array.from(ob);
  out.outBitsWant = Array.from(new Uint16Array(o16.buffer));
  out.less = Array.from(tc.less({ data: a, shape: [5] }, 1).data);
  out.sum32 = tc.sum({ data: a, shape: [5] }, { dtype: 'float32' }).data[0];
  try { tc.add({ data: a, shape: [5], dtype: 'float32' }, 1); } catch (e) { out.refused = e.constructor.name; }
  t.dispose();
  // A Float16Array of another realm (an iframe's) holds values, as this realm's does (until 0.9.16
  // it was read and written as bits: add gave [1, 1], a reduction into one wrote bits as values).
  const F = document.body.appendChild(document.createElement('iframe')).contentWindow.Float16Array;
  out.foreign = {
    add: Array.from(tc.add({ data: F.of(1, 2) }, 1).data, String),
    cast: Array.from(tc.cast({ data: F.of(1.5, 2) }, 'float32').data, String),
    sum: Array.from(tc.sum({ data: F.of(1, 2, 3) }).data, String),
  };
  const fo = new F(2);
  tc.add({ data: Float16Array.of(1, 2) }, 1, { out: fo });
  const fs = new F(1);
  tc.sum({ data: Float16Array.of(1, 2, 3) }, { out: fs });
  out.foreign.out = Array.from(fo, String).concat(Array.from(fs, String));
  // Bits in: every result in the runtime's form, a Float16Array (until 0.9.16 softmax, logSoftmax,
  // logSumExp, topk, concat, stack and contiguous kept the Uint16Array of bits).
  const xb = { data: Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x3800), shape: [2, 2], dtype: 'float16' };
  out.forms = [tc.softmax(xb), tc.logSoftmax(xb), tc.logSumExp(xb, [1]), tc.topk(xb, 1).values, tc.concat([xb, xb], 0),
    tc.stack([xb, xb], 0), tc.contiguous(tc.transpose(xb)), tc.add(xb, 1)].map((r) => Object.prototype.toString.call(r.data));
  // A named unbroadcast that reorders dims moves float16 cells as bits (until 0.9.27 through a
  // Float16Array, where every NaN came out as 7e00): the NaNs keep their payloads, as in Node.
  const gn = tc.unbroadcast({ data: new Float16Array(Uint16Array.of(0x7e55, 0x3c00, 0x4000, 0xfe01).buffer), dims: ['b', 'a'], shape: [2, 2] },
    { dims: ['a', 'b'], shape: [2, 2] });
  out.unbroadcastBits = { tag: Object.prototype.toString.call(gn.data), bits: Array.from(new Uint16Array(gn.data.buffer, gn.data.byteOffset, 4)) };
  out.concatValues = Array.from(tc.concat([xb, { data: Float16Array.of(5, 6), shape: [1, 2] }], 0).data, String);
`;

const page = sharedScriptPage('float16-site', { body });

describe('float16 in Chromium (a real Float16Array)', () => {
  it('add of two Float16Array operands gives a Float16Array; tensors, out, bits and reductions agree', async () => {
    const r = await page.result(20000);
    expect(r.error).toBeUndefined();
    expect(r.has).toBe(true);
    expect(r.add.tag).toBe('[object Float16Array]');
    expect(r.unbroadcastBits).toEqual({ tag: '[object Float16Array]', bits: [0x7e55, 0x4000, 0x3c00, 0xfe01] });
    expect(r.add.dtype).toBe('float16');
    // 0.1 + 0.2 in float16: 0.0999755859375 + 0.199951171875, rounded once: 0.2998046875
    expect(r.add.values).toEqual(['3', '3', 'Infinity', '0', '0.2998046875']);
    expect(r.add.bits).toEqual([0x4200, 0x4200, 0x7c00, 0x0000, 0x34cc]);
    expect(r.tensor).toEqual({ dtype: 'float16', tag: '[object Float16Array]', mean: ['13104'] }); // 65507.6 / 5 = 13101.5 in float32; float16 steps by 8 there
    expect(r.bits.tag).toBe('[object Float16Array]'); // results take the runtime's Float16Array
    expect(r.bits.values).toEqual(['2', '5', 'Infinity', '0', '0.199951171875']);
    expect(r.out16).toEqual(['0', '1.5', '65504', '-1', '-0.89990234375']);
    expect(r.outBits).toEqual(r.outBitsWant); // a Uint16Array out takes the bits
    expect(r.less).toEqual([0, 0, 0, 1, 1]);
    expect(r.sum32).toBe(Math.fround(65507.599975585938)); // the float32 sum of the float16 values
    expect(r.refused).toBe('TypeError');
    expect(r.foreign).toEqual({ add: ['2', '3'], cast: ['1.5', '2'], sum: ['6'], out: ['2', '3', '6'] });
    expect(r.forms).toEqual(new Array(8).fill('[object Float16Array]'));
    expect(r.concatValues).toEqual(['1', '2', '3', '0.5', '5', '6']);
  }, 30000);
});

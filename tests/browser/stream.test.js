// A large repeated expression run a chunk at a time (bindings/js/execute.js streamed()) in
// headless Chromium: its typed arrays and memcpy are the browser's, not
// Node's. The package's browser entry in a page runs a*b + c*d - e over
// [1024,1024] operands three times (the engine's run, then two in chunks) and
// NCHW (x - m) / s, and compares every result with op by op, byte for byte;
// then a large sub and neg (one-op expressions, expr-large.js largeRun) against the
// ops on one row at a time.
import { describe, it, expect } from 'vitest';
import { sharedScriptPage } from './chromium.js';

const setup = `
const fill = (n, seed) => {
  const a = new Float32Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; a[i] = ((x >>> 8) % 2001 - 1000) / 64; }
  return a;
};
const diff = (x, y) => {
  const a = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const b = new Uint8Array(y.buffer, y.byteOffset, y.byteLength);
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
};
`;

const body = `
  out.runs = [];
  const B = tc.compile('a*b + c*d - e');
  for (let round = 0; round < 3; round++) {
    const o = {
      a: { data: fill(1 << 20, round + 1), shape: [1024, 1024] }, b: { data: fill(1024, round + 2), shape: [1024] },
      c: { data: fill(1024, round + 3), shape: [1024, 1] }, d: { data: fill(1 << 20, round + 4), shape: [1024, 1024] }, e: 0.75,
    };
    const ref = tc.sub(tc.add(tc.mul(o.a, o.b), tc.mul(o.c, o.d)), o.e).data;
    const typed = new Float32Array(1 << 20);
    out.runs.push([diff(B.run(o).data, ref), diff(B.run(o, { out: typed }).data, ref)]);
  }
  const A = tc.compile('(x - m) / s');
  for (let round = 0; round < 3; round++) {
    const o = { x: { data: fill(8 * 64 * 56 * 56, round + 7), shape: [8, 64, 56, 56] }, m: { data: fill(64, round + 8), shape: [1, 64, 1, 1] }, s: { data: fill(64, round + 9), shape: [1, 64, 1, 1] } };
    out.runs.push([diff(A.run(o).data, tc.div(tc.sub(o.x, o.m), o.s).data)]);
  }
  out.streamed = mod().tcGen.stats.streamed;
  // A large single op on typed arrays (expr-large.js largeRun), against the op on one row at a time.
  const x = { data: fill(1 << 20, 11), shape: [1024, 1024] };
  const r = { data: fill(1024, 12), shape: [1024] };
  const rows = new Float32Array(1 << 20);
  for (let i = 0; i < 1024; i++) rows.set(tc.sub({ data: x.data.subarray(i * 1024, (i + 1) * 1024), shape: [1024] }, r).data, i * 1024);
  const negRows = new Float32Array(1 << 20);
  for (let i = 0; i < 1024; i++) negRows.set(tc.neg({ data: x.data.subarray(i * 1024, (i + 1) * 1024), shape: [1024] }).data, i * 1024);
  out.large = [];
  for (let k = 0; k < 3; k++) out.large.push([diff(tc.sub(x, r).data, rows), diff(tc.neg(x).data, negRows)]);
  out.largeStreamed = mod().tcGen.stats.streamed - out.streamed;
`;

const page = sharedScriptPage('stream-site', { imports: "import { mod } from './pkg/loader.js';", setup, body });

describe('a large repeated run in chunks, in Chromium', () => {
  it('gives op by op byte for byte, into a new array and into a typed out', async () => {
    const r = await page.result(60000);
    expect(r.error).toBeUndefined();
    expect(r.runs).toEqual([[-1, -1], [-1, -1], [-1, -1], [-1], [-1], [-1]]);
    // Chain B: 6 runs, the first the engine's (the second, into a typed out, a new key); NCHW: 3, the first the engine's.
    expect(r.streamed).toBeGreaterThanOrEqual(5);
  });

  it('runs a large single op and a unary op in chunks too, as the op on one row at a time', async () => {
    const r = await page.result(60000);
    expect(r.error).toBeUndefined();
    expect(r.large).toEqual([[-1, -1], [-1, -1], [-1, -1]]);
    expect(r.largeStreamed).toBeGreaterThanOrEqual(2);
  });
});

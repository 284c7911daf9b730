// Helpers of the tests of chunked runs (expr-stream, large-binary): a
// counter of the runs that went in chunks, a deterministic fill and a byte
// comparison of large results.
import * as tc from '../../dist/node.js';
import { mod } from '../../dist/loader.js';

const stats = () => mod().tcGen?.stats ?? { streamed: 0, chunks: 0 }; // installed with the first generated module

/** [result, streamed runs during f, chunks during f]. */
export function counted(f) {
  const n = stats().streamed;
  const c = stats().chunks;
  const r = f();
  return [r, stats().streamed - n, stats().chunks - c];
}

/** A deterministic fill: small integers and fractions, with NaN, ±0 and ±Infinity among floats. */
export function fill(ctor, n, seed) {
  const a = new ctor(n);
  let x = seed * 2654435761 >>> 0;
  const float = ctor === Float32Array || ctor === Float64Array;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const v = (x >>> 8) % 2001 - 1000;
    if (float) {
      const r = x % 997;
      a[i] = r === 0 ? NaN : r === 1 ? -0 : r === 2 ? Infinity : r === 3 ? -Infinity : v / 64;
    } else {
      a[i] = v;
    }
  }
  return a;
}

const bytesOf = (r) => {
  const d = r instanceof tc.Tensor ? r.toArray() : r.data ?? r;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
};

/** Index of the first differing byte, -1 when equal (expect().toEqual on MB arrays is slow). */
export function firstDiff(x, y) {
  const a = bytesOf(x);
  const b = bytesOf(y);
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

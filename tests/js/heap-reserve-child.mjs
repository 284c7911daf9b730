// Memory filled to its 4 GB with data, calls that need the engine's own new
// blocks made while it is full (they go to the engine's reserve, the last
// 16 MiB: bindings/wasm/malloc.cpp), then everything freed; twice over, in a
// process of its own (heap-reserve.test.js). Prints one JSON line: what each
// round gave.
//
// TENSORCAST_DIST: another build's dist/ (a directory), to run the same rounds against it.
import { fillMemory } from './heap-fill.mjs';

const dist = process.env.TENSORCAST_DIST ? new URL(`file://${process.env.TENSORCAST_DIST.replace(/\/?$/, '/')}`) : new URL('../../dist/', import.meta.url);
const tc = await import(new URL('node.js', dist).href);
// The module itself (the same instance node.js loads): to fill memory without writing 4 GB.
const { mod } = await import(new URL('loader.js', dist).href);
await tc.init();
const M = mod();
const GIB = 2 ** 30;

const one = tc.tensor(Uint8Array.of(7), [1]);
const out = tc.tensor(Uint8Array.of(0), [1]);
const base = tc.memory();
const run = (f) => { try { return f(); } catch (e) { return `${e.code} ${e.message}`; } };

function round(k) {
  const r = {};
  const blocks = fillMemory(M);
  r.full = tc.memory().wasmHeapBytes > 4 * GIB - 2 ** 26;
  // New expressions and plans while memory is full of data: the engine's own
  // blocks (in the second round, with the reserve plugged by the first: given back).
  let evaluated = 0;
  let explained = 0;
  for (let i = 0; i < 50; i++) {
    const c = 100 * k + i;
    if (run(() => tc.evaluate(`a * ${c} + 1`, { a: one }, { out }).toArray()[0]) === (7 * c + 1) % 256) evaluated++;
    if (run(() => tc.explain({ shapes: [[c + 1, 1], [1, 3]] }).shape.join()) === `${c + 1},3`) explained++;
  }
  r.fullEvaluated = evaluated;
  r.fullExplained = explained;
  for (const p of blocks) M._tc_free(p);
  // Freed: data blocks come again (up to what is left above the break, which
  // stays near 4 GB: malloc.cpp refuses larger ones, where emmalloc could wrap).
  for (const n of [64, 1024, 16384]) r[n] = run(() => { const t = tc.broadcastTo(one, [n]); const v = t.toArray()[n - 1]; t.dispose(); return v; });
  r.add = run(() => tc.add({ data: Float32Array.of(1, 2), shape: [2] }, 1).data.join());
  r.resident = run(() => { const a = tc.tensor(new Float32Array(5000).fill(2), [5000]); const s = tc.add(a, 1); const v = s.toArray()[4999]; a.dispose(); s.dispose(); return v; });
  r.evaluated = run(() => tc.evaluate('a * 2 + 1', { a: { data: Float32Array.of(1, 2, 3), shape: [3] } }).data.join());
  tc.releaseScratch();
  r.allocated = tc.memory().allocatedBytes - base.allocatedBytes;
  r.live = tc.memory().liveTensors - base.liveTensors;
  return r;
}

console.log(JSON.stringify([round(1), round(2)]));

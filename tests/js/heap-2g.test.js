// The library with its WebAssembly heap past 2 GiB (issue 37). Memory grows to
// 4 GB, and JS reads a wasm i32 as a signed number: an address from 2 GiB on
// must be made unsigned wherever it crosses the boundary (docs/boundary.md,
// "Addresses"). heap-2g-child.mjs runs every kind of call twice over, in a
// process of its own: on the heap init() makes, and with two resident 1 GiB
// tensors and the memory below 2 GiB taken, so that every later allocation
// (tensors, scratch, results, the request's buffers) is past 2 GiB. The
// answers must be the same, allocations too large for the 4 GB must fail with
// TOO_LARGE and leave the module usable (also with memory filled to 4 GB), and
// nothing may leak.
//
// The large process holds about 2.2 GB at its peak (the two 1 GiB tensors and
// the 1 GiB typed array copied into the first) and takes 20-40 s.
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./heap-2g-child.mjs', import.meta.url));

function run(mode) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', CHILD, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function parsed(r, mode) {
  if (r.code !== 0 || r.stderr !== '') throw new Error(`heap-2g-child.mjs ${mode} exited with ${r.code ?? r.signal}:\n${r.stderr.slice(0, 4000)}`);
  return JSON.parse(r.stdout);
}

describe('the heap past 2 GiB (issue 37)', () => {
  it('every call gives past 2 GiB what it gives on a small heap; allocations too large fail cleanly; nothing leaks', async () => {
    const [small, large] = (await Promise.all([run('small'), run('large')])).map((r, i) => parsed(r, ['small', 'large'][i]));
    const names = Object.keys(small.results).filter((k) => k.startsWith('pass1:')).map((k) => k.slice(6));
    expect(names.length).toBeGreaterThan(60);
    // On the small heap every pass answers alike (the cases are deterministic).
    for (const pass of ['pass2', 'pass4']) {
      for (const n of names) expect(small.results[`${pass}:${n}`], `small ${pass}:${n}`).toEqual(small.results[`pass1:${n}`]);
    }
    // Past 2 GiB: four passes (the fourth after the 1 GiB tensors are gone), each case as on the small heap.
    expect(Object.keys(large.results).length).toBe(4 * names.length);
    const wrong = [];
    for (const [k, v] of Object.entries(large.results)) {
      const want = small.results[`pass1:${k.slice(k.indexOf(':') + 1)}`];
      if (JSON.stringify(v) !== JSON.stringify(want)) wrong.push({ case: k, got: v, want });
    }
    expect(wrong).toEqual([]);
    const item = -7.25;
    const text = small.checks['pass1:toString'];
    expect(text).toMatch(/^Tensor float32 \(50,100\) \[-70\.5/);
    expect(large.checks).toEqual({
      heapPast2GiB: true,
      maxBig1: 0,
      sumBig2: 3 * 2 ** 30,
      fillers: true,
      // every pass's allocations past 2 GiB (the third after the failures below)
      'pass1:past2GiB': true,
      'pass2:past2GiB': true,
      'pass3:past2GiB': true,
      ...Object.fromEntries(['pass1', 'pass2', 'pass3', 'pass4'].flatMap((p) => [[`${p}:item`, item], [`${p}:toString`, text]])),
      afterPasses: 0, // allocatedBytes back at its baseline after two passes
      liveAfterPasses: 0,
      // more than the 4 GB can hold: a TOO_LARGE BroadcastError, nothing allocated, the module usable
      failTensor: 'BroadcastError TOO_LARGE',
      failPlainOperand: 'BroadcastError TOO_LARGE',
      failBroadcastTo: 'BroadcastError TOO_LARGE',
      failResidentResult: 'BroadcastError TOO_LARGE',
      failPlainResult: 'BroadcastError TOO_LARGE',
      failEvaluateResident: 'BroadcastError TOO_LARGE',
      failEvaluatePlain: 'BroadcastError TOO_LARGE',
      afterFailures: 0,
      // memory filled to 4 GB with blocks: a call that needs a new block is TOO_LARGE, one that
      // needs none runs; the blocks freed, calls run again
      fullHeap: true,
      fullPlainAdd: 'BroadcastError TOO_LARGE',
      fullNewTensor: 'BroadcastError TOO_LARGE',
      fullResidentResult: 'BroadcastError TOO_LARGE',
      fullSum: 'BroadcastError TOO_LARGE',
      fullResidentOut: true,
      fullShapes: '2,4,3',
      fullExplain: '5,6',
      fullPlanned: true,
      fullCompiled: true,
      fullPlainAddAfter: true,
      fullResidentOutAfter: true,
      // the 1 GiB tensors disposed, every scratch slot released: back to the memory init() left
      endAllocated: 0,
      endLive: 0,
      endScratch: 0,
    });
    expect(small.checks).toMatchObject({ afterPasses: 0, liveAfterPasses: 0, endAllocated: 0, endLive: 0, endScratch: 0 });
    expect(large.maxRssBytes).toBeLessThan(3.5 * 2 ** 30);
  }, 600_000);
});

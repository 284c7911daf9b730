// The library with its WebAssembly heap past 2 GiB (issue 37), run by
// heap-2g.test.js in a process of its own:
//
//   node tests/js/heap-2g-child.mjs small   the cases on the heap init() makes (16 MB)
//   node tests/js/heap-2g-child.mjs large   two resident tensors of 1 GiB first, memory below
//                                           2 GiB taken, then the same cases, whose every
//                                           allocation (tensors, scratch, results) is then
//                                           at an address of 2^31 or more
//
// Each prints one JSON line: every case's result by name (shape, dtype and a
// digest of the bytes) and what the process checked itself (memory back to its
// baseline, allocation failures, the addresses the cases got). The test
// compares the two processes' results.
import { createHash } from 'node:crypto';
import { fillMemory } from './heap-fill.mjs';

// TENSORCAST_DIST: another build's dist/ (a directory), to run the same cases against it.
const dist = process.env.TENSORCAST_DIST ? new URL(`file://${process.env.TENSORCAST_DIST.replace(/\/?$/, '/')}`) : new URL('../../dist/', import.meta.url);
const tc = await import(new URL('node.js', dist).href);
// The module itself (the same instance node.js loads): only to see where allocations land.
const { mod } = await import(new URL('loader.js', dist).href);
await tc.init();

const mode = process.argv[2];
if (mode !== 'small' && mode !== 'large') throw new Error('usage: heap-2g-child.mjs small|large');
const TWO_GIB = 2 ** 31;
const GIB = 2 ** 30;
const t0 = performance.now();
const results = {};
const checks = {};

function digest(data) {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return createHash('sha256').update(bytes).digest('hex').slice(0, 24);
}

/** What `r` holds: a Tensor (copied out) or a { data, shape, dtype } result, by shape, dtype and digest. */
function summary(r) {
  if (r instanceof tc.Tensor) {
    const data = r.toArray();
    return { resident: true, shape: r.shape, dtype: r.dtype, n: data.length, first: Array.from(data.subarray(0, 3), String), digest: digest(data) };
  }
  return { resident: false, shape: r.shape, dtype: r.dtype, n: r.data.length, first: Array.from(r.data.subarray(0, 3), String), digest: digest(r.data) };
}

function record(name, r) {
  if (name in results) throw new Error(`case ${name} twice`);
  results[name] = summary(r);
}

// Deterministic data.
function seq(Ctor, n, k = 1) {
  const a = new Ctor(n);
  let s = 12345 + k;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    a[i] = Ctor === Uint8Array ? s >>> 24 : ((s >>> 8) % 20001) / 100 - 100;
  }
  return a;
}

const f32 = (n, k) => seq(Float32Array, n, k);

/** Every case, `tag` naming this pass (each runs more than once: the repeat paths). */
function cases(tag) {
  const made = []; // tensors to dispose, in the order given at the end
  const keep = (t) => { made.push(t); return t; };
  const rec = (name, r) => record(`${tag}:${name}`, r);

  // The call: two plain operands, a [1000,1000] result through scratch (twice: the repeat path).
  const a = { data: f32(1000, 1), shape: [1000, 1] };
  const b = { data: f32(1000, 2), shape: [1, 1000] };
  rec('add plain 1', tc.add(a, b));
  rec('add plain 2', tc.add(a, b));
  // Small calls (copied element by element), plain and resident.
  const s1 = { data: f32(3, 3), shape: [3, 1] };
  const s2 = { data: f32(4, 4), shape: [1, 4] };
  rec('small plain 1', tc.add(s1, s2));
  rec('small plain 2', tc.sub(s1, s2));
  const rs1 = keep(tc.tensor(s1.data, [3, 1]));
  const rs2 = keep(tc.tensor(s2.data, [1, 4]));
  const rsum = keep(tc.add(rs1, rs2));
  rec('small resident', rsum);
  rec('small resident again', keep(tc.add(rs1, rs2)));
  rec('small resident out', tc.mul(rs1, rs2, { out: rsum }));
  rec('small resident out again', tc.mul(rs1, rs2, { out: rsum }));
  // Resident operands: results are new tensors, or an `out` (typed or resident).
  const ra = keep(tc.tensor(a.data, [1000, 1]));
  const rb = keep(tc.tensor(b.data, [1, 1000]));
  rec('add resident', keep(tc.add(ra, rb)));
  rec('add resident plain', keep(tc.add(ra, b)));
  rec('mul resident scalar', keep(tc.mul(rb, 2.5)));
  const outTyped = new Float32Array(1e6);
  rec('add out typed 1', tc.add(a, b, { out: outTyped }));
  rec('add out typed 2', tc.add(ra, b, { out: outTyped }));
  const ro = keep(tc.tensor(new Float32Array(1e6), [1000, 1000]));
  rec('add out resident 1', tc.add(ra, rb, { out: ro }));
  rec('add out resident 2', tc.sub(ra, rb, { out: ro }));
  rec('add out resident 3', tc.sub(ra, rb, { out: ro }));
  // tensor() itself: data in, copied out, one element, the first values as text.
  const t = keep(tc.tensor(f32(5000, 5), [50, 100]));
  rec('tensor', t);
  const one = keep(tc.tensor(Float64Array.of(-7.25), [1, 1]));
  checks[`${tag}:item`] = one.item();
  checks[`${tag}:toString`] = String(t).slice(0, 60);
  // A view, its base disposed first.
  const base = tc.tensor(f32(600, 6), [600]);
  const v = base.reshape([20, 30]);
  base.dispose();
  rec('sum of a view', keep(tc.sum(v, { axes: [1] })));
  v.dispose();
  // Fused expressions: evaluate, compile().run (three runs each: the engine's, then JS's own repeat).
  const x = { data: f32(200 * 300, 7), shape: [200, 300] };
  const m = { data: f32(300, 8), shape: [300] };
  for (let i = 1; i <= 3; i++) rec(`evaluate plain ${i}`, tc.evaluate('(x - m) / s', { x, m, s: 2 }));
  const rx = keep(tc.tensor(x.data, [200, 300]));
  for (let i = 1; i <= 3; i++) rec(`evaluate resident ${i}`, keep(tc.evaluate('(x - m) / s', { x: rx, m, s: 3 })));
  const ex = tc.compile('x * y + 1');
  for (let i = 1; i <= 3; i++) rec(`compile run ${i}`, ex.run({ x, y: m }));
  const eo = keep(tc.tensor(new Float32Array(200 * 300), [200, 300]));
  for (let i = 1; i <= 3; i++) rec(`compile run out ${i}`, ex.run({ x: rx, y: m }, { out: eo }));
  rec('evaluate reduction', tc.evaluate('sum(x * 2, [1])', { x }));
  // Reductions, plain and resident.
  rec('sum plain', tc.sum(x, { axes: [0] }));
  rec('sum resident', keep(tc.sum(rx)));
  rec('mean resident', keep(tc.mean(rx, { axes: [1] })));
  rec('max plain', tc.max(x, { axes: [1], keepdims: true }));
  rec('sum out resident', tc.sum(rx, { axes: [0], out: keep(tc.tensor(new Float32Array(300), [300])) }));
  // unbroadcast, where, cast, broadcastTo, unary.
  rec('unbroadcast plain', tc.unbroadcast(x, [1, 300]));
  rec('unbroadcast resident', keep(tc.unbroadcast(rx, [200, 1])));
  const cond = { data: seq(Uint8Array, 1000, 9).map((q) => q & 1), shape: [1000, 1] };
  rec('where plain', tc.where(cond, { data: f32(1000, 10), shape: [1, 1000] }, -1));
  rec('where resident', keep(tc.where(cond, ra, rb)));
  rec('cast plain', tc.cast(x, 'int32'));
  rec('cast resident', keep(tc.cast(rx, 'float64')));
  rec('broadcastTo', tc.broadcastTo({ data: f32(3, 11), shape: [3, 1] }, [3, 5000]));
  rec('sqrt resident', keep(tc.sqrt(keep(tc.abs(rx)))));
  rec('neg plain', tc.neg(x));
  // Large calls (1 MiB or more copied): they go a chunk at a time from their second or third run.
  const big = { data: f32(512 * 1024, 12), shape: [512, 1024] };
  const row = { data: f32(1024, 13), shape: [1024] };
  for (let i = 1; i <= 3; i++) rec(`large add ${i}`, tc.add(big, row));
  for (let i = 1; i <= 3; i++) rec(`large evaluate ${i}`, tc.evaluate('x * 2 + y', { x: big, y: row }));
  const bigOut = new Float32Array(512 * 1024);
  for (let i = 1; i <= 3; i++) rec(`large evaluate out ${i}`, tc.evaluate('x - y', { x: big, y: row }, { out: bigOut }));
  for (let i = 1; i <= 3; i++) rec(`large neg ${i}`, tc.neg(big));
  for (let i = 1; i <= 3; i++) rec(`large cast ${i}`, tc.cast(big, 'float64'));
  const bigCond = { data: seq(Uint8Array, 1024, 14).map((q) => q & 1), shape: [1024] };
  for (let i = 1; i <= 3; i++) rec(`large where ${i}`, tc.where(bigCond, big, row));
  const rbig = keep(tc.tensor(big.data, [512, 1024]));
  for (let i = 1; i <= 3; i++) rec(`large resident out ${i}`, tc.add(rbig, row, { out: bigOut }));
  rec('large sum', tc.sum(big, { axes: [0] }));
  // Named operands: by dim name (the named request).
  rec('named add', tc.add({ data: f32(1000, 15), shape: [1000], dims: ['i'] }, { data: f32(30, 16), shape: [30], dims: ['j'] }, { shaping: 'union' }));
  return made;
}

/** Dispose tensors in a mixed order: every third first, then the rest backwards. */
function disposeMixed(ts) {
  for (let i = 0; i < ts.length; i += 3) ts[i].dispose();
  for (let i = ts.length - 1; i >= 0; i--) ts[i].dispose(); // a second dispose does nothing
}

const M = mod();
const base0 = tc.memory();
let bigs = [];
let fillers = [];
if (mode === 'large') {
  // Two resident tensors of 1 GiB: the heap is past 2 GiB.
  const big1 = tc.tensor(new Uint8Array(GIB));
  // The 1 GiB typed array copied in is garbage now: its memory goes back before the next GiB
  // (V8 frees an ArrayBuffer's memory after a collection, in a task of its own).
  for (let i = 0; i < 5 && typeof gc === 'function'; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  const big2 = tc.add(big1, 3);
  bigs = [big1, big2];
  checks.heapPast2GiB = tc.memory().wasmHeapBytes > TWO_GIB;
  // The 1 GiB tensors read whole (the second ends past 2 GiB).
  const item = (t) => { const v = t.item(); t.dispose(); return v; };
  checks.maxBig1 = item(tc.max(big1));
  checks.sumBig2 = item(tc.sum(big2, { dtype: 'float64' }));
  tc.releaseScratch(); // scratch is made again, past 2 GiB
  fillBelow();
}

/**
 * What is left free below 2 GiB taken, largest blocks first, so that every later allocation is
 * past it. Again before each pass: the engine's own blocks made before (its caches, vectors that
 * grow) may be given back below 2 GiB during a pass.
 */
function fillBelow() {
  if (mode !== 'large') return;
  for (const size of [2 ** 26, 2 ** 20, 2 ** 16, 2 ** 12, 256, 64, 1]) {
    // The allocator need not hand out the lowest free block first: a size is done after 64
    // blocks in a row past 2 GiB (4 of the large sizes; held meanwhile, so that each asks for
    // another block).
    const high = [];
    while (high.length < (size >= 2 ** 20 ? 4 : 64)) {
      const p = M._tc_malloc(size) >>> 0;
      if (p === 0) throw new Error('filler allocation failed');
      if (p >= TWO_GIB) high.push(p);
      else { fillers.push(p); high.forEach((q) => M._tc_free(q)); high.length = 0; }
    }
    high.forEach((q) => M._tc_free(q));
  }
}

/** A call that must fail: its error's class and code ('no error' if it did not). */
function tooLarge(f) {
  try {
    const r = f();
    if (r instanceof tc.Tensor) r.dispose();
    return 'no error';
  } catch (e) {
    return `${e.constructor.name} ${e.code}`;
  }
}

const base = tc.memory();
/** Where the next allocation lands: past 2 GiB (true) once memory below it is taken. */
function probe(tag) {
  const p = M._tc_malloc(64) >>> 0;
  M._tc_free(p);
  checks[`${tag}:past2GiB`] = p >= TWO_GIB;
}

probe('pass1');
disposeMixed(cases('pass1'));
// The fillers taken now are the test's, not the calls': counted apart.
const before = tc.memory().allocatedBytes;
fillBelow();
const refilled = tc.memory().allocatedBytes - before;
probe('pass2');
disposeMixed(cases('pass2').reverse());
checks.afterPasses = tc.memory().allocatedBytes - base.allocatedBytes - refilled;
checks.liveAfterPasses = tc.memory().liveTensors - base.liveTensors;

if (mode === 'large') {
  // Allocations the 4 GB maximum cannot hold: a clean TOO_LARGE error, nothing leaked, the module usable.
  const huge = new Uint8Array(TWO_GIB); // zero pages: never touched
  const one = tc.tensor(Uint8Array.of(5), [1]);
  // Small operands whose broadcast result is 2 GiB.
  const col = { data: new Uint8Array(1 << 16), shape: [1 << 16, 1] };
  const line = { data: new Uint8Array(1 << 15), shape: [1, 1 << 15] };
  const rcol = tc.tensor(col.data, col.shape);
  const rline = tc.tensor(line.data, line.shape);
  checks.failTensor = tooLarge(() => tc.tensor(huge));
  checks.failPlainOperand = tooLarge(() => tc.add({ data: huge, shape: [TWO_GIB] }, 1));
  checks.failBroadcastTo = tooLarge(() => tc.broadcastTo(one, [TWO_GIB]));
  checks.failResidentResult = tooLarge(() => tc.add(rcol, rline));
  checks.failPlainResult = tooLarge(() => tc.add(col, line));
  checks.failEvaluateResident = tooLarge(() => tc.evaluate('x + y', { x: rcol, y: rline }));
  checks.failEvaluatePlain = tooLarge(() => tc.evaluate('x * y', { x: col, y: line }));
  rcol.dispose();
  rline.dispose();
  one.dispose();
  checks.afterFailures = tc.memory().allocatedBytes - base.allocatedBytes - refilled;
  fillBelow();
  probe('pass3');
  disposeMixed(cases('pass3'));
  // The 1 GiB tensors and the fillers gone: back to the first baseline.
  bigs[1].dispose();
  for (const p of fillers) M._tc_free(p);
  bigs[0].dispose();
  checks.fillers = fillers.length > 0;
  fillers = [];
}
disposeMixed(cases('pass4'));
if (mode === 'large') {
  // Last: memory filled to its 4 GB with the library's blocks (as tensors would fill it), scratch
  // released: a call that needs a new block is a TOO_LARGE error, one that needs none (resident
  // operands and out) still runs; freed, the calls run again. (With the break at 4 GB a block
  // larger than what is left above it is refused even where a free region could hold it:
  // malloc.cpp. So this comes after the passes, and runs small calls again.)
  const ra = tc.tensor(f32(1000, 1), [1000, 1]);
  const rb = tc.tensor(f32(1000, 2), [1, 1000]);
  const ro = tc.tensor(new Float32Array(1e6), [1000, 1000]);
  tc.add(ra, rb, { out: ro }); // the plan cached: planning it again would allocate
  tc.releaseScratch();
  const blocks = fillMemory(M);
  // Filled to within the engine's reserve (16 MiB, malloc.cpp) of 4 GB.
  checks.fullHeap = tc.memory().wasmHeapBytes > 4 * GIB - 2 ** 26;
  const small = { data: f32(12, 17), shape: [3, 4] };
  checks.fullPlainAdd = tooLarge(() => tc.add(small, small));
  checks.fullNewTensor = tooLarge(() => tc.tensor(f32(4, 18)));
  checks.fullResidentResult = tooLarge(() => tc.add(ra, rb));
  checks.fullSum = tooLarge(() => tc.sum(small, { axes: [1] }));
  const digest = (f) => { try { return summary(f()).digest; } catch (e) { return `${e.constructor.name} ${e.code} ${e.message}`; } };
  checks.fullResidentOut = digest(() => tc.add(ra, rb, { out: ro })) === results['pass1:add out resident 1'].digest;
  checks.fullShapes = tc.broadcastShapes([2, 1, 3], [4, 1]).join();
  // What needs the engine's own new blocks (a new plan, a new expression compiled) and no data
  // block: it runs, where it used to abort the module (operator new cannot fail softly).
  const planned = () => tc.sub(ra, rb, { out: ro });
  const compiled = () => tc.evaluate('(a - b) * 2 + a', { a: ra, b: rb }, { out: ro });
  const fullPlanned = digest(planned);
  const fullCompiled = digest(compiled);
  checks.fullExplain = tc.explain({ expression: 'sqrt(a * a + b) - 1', shapes: { a: [5, 1], b: [1, 6] } }).shape.join();
  for (const p of blocks) M._tc_free(p);
  checks.fullPlanned = fullPlanned === digest(planned);
  checks.fullCompiled = fullCompiled === digest(compiled) && !fullCompiled.includes(' ');
  checks.fullPlainAddAfter = digest(() => tc.add(small, small)) === digest(() => ({ data: small.data.map((v) => v + v), shape: [3, 4] }));
  checks.fullResidentOutAfter = digest(() => tc.sub(ra, rb, { out: ro })) === results['pass1:add out resident 2'].digest;
  for (const t of [ra, ro, rb]) t.dispose();
}
tc.releaseScratch();
const end = tc.memory();
checks.endAllocated = end.allocatedBytes - base0.allocatedBytes;
checks.endLive = end.liveTensors - base0.liveTensors;
checks.endScratch = end.scratchBytes;
console.log(JSON.stringify({
  mode, results, checks,
  heapBytes: end.wasmHeapBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024, ms: Math.round(performance.now() - t0),
}));

// embind vs raw export, per call: the cases, the same in Node and in a page.
// `builds`: { de0, de1 } instances of bench/boundary/measure.cpp (see
// build.mjs); `real`: tensorcast's own module as its loader made it (dist/loader.js mod()).
import * as plain from '../lib/plainjs.mjs';
import { measureWall, stats, medianRatio } from '../lib/wall.mjs';

const A = [8, 1, 6, 1];
const B = [1, 7, 1, 5];
const WANT = '8,7,6,5';

/** Loaders: instantiate an Emscripten ES6 factory from a compiled WebAssembly.Module. */
export function instantiate(factory, module) {
  return factory({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((inst) => done(inst, module));
      return {};
    },
  });
}

function copyView(v) {
  const out = new Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i];
  return out;
}

function buildCases(M, tag) {
  const req = M._raw_request() >>> 2;
  const resp = M._raw_response() >>> 2;
  // The request (rank, dims, rank, dims) written into the heap, one call, the
  // response (rank, dims) read into a fresh JS array: the shape of tensorcast's
  // hot path. Only the call in the middle differs between the two cases.
  const viaHeap = (call) => () => {
    const h = M.HEAP32;
    let p = req;
    h[p++] = A.length;
    for (let i = 0; i < A.length; i++) h[p++] = A[i];
    h[p++] = B.length;
    for (let i = 0; i < B.length; i++) h[p++] = B[i];
    const r = call();
    const out = new Array(r);
    for (let i = 0; i < r; i++) out[i] = h[resp + 1 + i];
    return out;
  };
  const readResp = (r) => {
    const h = M.HEAP32;
    const out = new Array(r);
    for (let i = 0; i < r; i++) out[i] = h[resp + 1 + i];
    return out;
  };
  return [
    { id: `${tag} raw count()`, pair: 'count() → int, no arguments', via: 'raw', fn: () => M._raw_count() },
    { id: `${tag} embind count()`, pair: 'count() → int, no arguments', via: 'embind', fn: () => M.count() },
    { id: `${tag} raw add(7, 1)`, pair: 'add(int, int) → int', via: 'raw', fn: () => M._raw_add(7, 1) },
    { id: `${tag} embind add(7, 1)`, pair: 'add(int, int) → int', via: 'embind', fn: () => M.add(7, 1) },
    { id: `${tag} embind version()`, pair: 'version() → std::string', via: 'embind', fn: () => M.version() },
    { id: `${tag} raw bsHeap`, pair: 'broadcast rank 4: shapes written to the heap, result read into a JS array', via: 'raw', fn: viaHeap(() => M._raw_bs_heap()), check: true },
    { id: `${tag} embind bsHeap`, pair: 'broadcast rank 4: shapes written to the heap, result read into a JS array', via: 'embind', fn: viaHeap(() => M.bsHeap()), check: true },
    { id: `${tag} raw bs4(8 ints) + read`, pair: 'broadcast rank 4: 8 int arguments, a JS array out', via: 'raw', fn: () => readResp(M._raw_bs4(8, 1, 6, 1, 1, 7, 1, 5)), check: true },
    { id: `${tag} embind bs4Val(8 ints)`, pair: 'broadcast rank 4: 8 int arguments, a JS array out', via: 'embind (val::array built in C++)', fn: () => M.bs4Val(8, 1, 6, 1, 1, 7, 1, 5), check: true },
    { id: `${tag} embind bs4View(8 ints) + copy`, pair: 'broadcast rank 4: 8 int arguments, a JS array out', via: 'embind (typed_memory_view, copied by a loop)', fn: () => copyView(M.bs4View(8, 1, 6, 1, 1, 7, 1, 5)), check: true },
    { id: `${tag} embind bs4View(8 ints), view only`, pair: 'broadcast rank 4: 8 int arguments, a heap view out (valid until the next call)', via: 'embind (typed_memory_view)', fn: () => M.bs4View(8, 1, 6, 1, 1, 7, 1, 5) },
    { id: `${tag} embind bsVal(array, array)`, pair: 'broadcast rank 4: two JS arrays in, a JS array out', via: 'embind (val in, val out)', fn: () => M.bsVal(A, B), check: true },
  ];
}

/** Every case: [{ id, pair, via, fn }], checked once. */
export function boundaryCases({ de0, de1, real }) {
  const cases = [
    { id: 'control: plain-JS broadcastShapes', pair: 'broadcast rank 4 in plain JS (the same work, no crossing)', via: 'JS', fn: () => plain.broadcastShapes(A, B), check: true },
  ];
  if (de0) cases.push(...buildCases(de0, 'DE=0'));
  if (de1) cases.push(...buildCases(de1, 'DE=1'));
  if (real) {
    // tensorcast's module has no embind: its version is text in memory, read as the loader does.
    cases.push(
      { id: 'tensorcast raw _tc_version()', pair: 'tensorcast module: a no-argument call', via: 'raw', fn: () => real._tc_version() },
      { id: 'tensorcast raw _tc_version() + decode', pair: 'tensorcast module: the version string', via: 'raw (a pointer, then TextDecoder)', fn: () => memoryText(real, real._tc_version()) },
    );
  }
  for (const c of cases) {
    const r = c.fn();
    if (c.check && String(Array.from(r)) !== WANT) throw new Error(`${c.id}: got ${String(r)}, expected ${WANT}`);
  }
  return cases;
}

const UTF8 = new TextDecoder();
/** The NUL-terminated text at `p` in module M's memory (what tensorcast's loader.js does). */
function memoryText(M, p) {
  const h = M.HEAPU8;
  let e = p;
  while (h[e] !== 0) e++;
  return UTF8.decode(h.subarray(p, e));
}

/**
 * The cold side of the boundary: tensorcast's contract (one JSON text in the
 * module's memory, _tc_contract()) decoded and parsed, as init() does, timed
 * on the first call after init() (which parsed it once already) and then
 * five more times; ms.
 */
export function contractCost(real) {
  const t0 = performance.now();
  const text = memoryText(real, real._tc_contract());
  JSON.parse(text);
  const first = performance.now() - t0;
  const warm = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    JSON.parse(memoryText(real, real._tc_contract()));
    warm.push(performance.now() - t);
  }
  warm.sort((x, y) => x - y);
  return { first, warmMedian: warm[2], jsonChars: text.length };
}

export async function runBoundary(env, { runs = 31, warmupMs = 200, batchMs = 10, pause } = {}) {
  const contract = env.real ? contractCost(env.real) : null;
  const cases = boundaryCases(env);
  const samples = await measureWall(cases, { runs, warmupMs, batchMs, pause });
  const control = samples['control: plain-JS broadcastShapes'];
  const out = { cases: [], contract };
  for (const c of cases) {
    out.cases.push({ id: c.id, pair: c.pair, via: c.via, ...stats(samples[c.id]), xControl: medianRatio(samples[c.id], control) });
  }
  // embind ÷ raw for each pair, per build: medians of per-run ratios.
  out.pairs = [];
  for (const tag of ['DE=0', 'DE=1', 'tensorcast']) {
    const mine = cases.filter((c) => c.id.startsWith(`${tag} `));
    const raws = mine.filter((c) => c.via === 'raw');
    for (const r of raws) {
      for (const e of mine.filter((c) => c.pair === r.pair && c.via !== 'raw')) {
        out.pairs.push({ tag, pair: r.pair, raw: r.id, embind: e.id, ratio: medianRatio(samples[e.id], samples[r.id]), diffNs: stats(samples[e.id]).median - stats(samples[r.id]).median });
      }
    }
  }
  return out;
}

// wasmgen micro-benchmark (not part of `npm run bench` nor of the tests):
// a module written by src/expr/wasmgen.cpp against the hand-written C++
// SIMD128 fused loop (fused.cpp, em++ -O3 -msimd128) for chain A `(x - m) / s`,
// x [1024,1024], m and s [1024], and chain B `a*b + c*d - e`, a and d
// [1024,1024], b [1024], c [1024,1], e a scalar; then generate() (in wasm) and
// new WebAssembly.Module + Instance per expression, cold.
//   node bench/wasmgen/run.mjs [--reps=41] [--dir=<build dir>]
// (bench/wasmgen/chromium.mjs --dir=<the same dir>: the cold half in headless Chromium)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const arg = (name, dflt) => (process.argv.find((a) => a.startsWith(`--${name}=`)) ?? `=${dflt}`).split('=')[1];
const reps = Number(arg('reps', 41));
const dir = arg('dir', '') || fs.mkdtempSync(path.join(os.tmpdir(), 'tc-wasmgen-bench-'));
fs.mkdirSync(dir, { recursive: true });
const wasmPath = path.join(dir, 'fused.wasm');
if (!fs.existsSync(wasmPath)) {
  const args = ['-std=c++17', '-O3', '-msimd128', '-mnontrapping-fptoint', '-mbulk-memory', `-I${root}/src`,
    path.join(here, 'fused.cpp'), path.join(root, 'src/expr/wasmgen.cpp'), '-sSTANDALONE_WASM', '--no-entry',
    '-sINITIAL_MEMORY=64MB', '-sEXPORTED_FUNCTIONS=_bench_alloc,_chain_a_cpp,_chain_b_cpp,_bench_setup,_bench_generate,_bench_bytes',
    '-o', wasmPath];
  const r = spawnSync('em++', args, { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`em++ exited with ${r.status}`);
}
const stub = new Proxy({}, { get: () => () => 0 });
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { wasi_snapshot_preview1: stub, env: stub });
const E = instance.exports;
const memory = E.memory;
E.bench_setup();

const ROWS = 1024, N = 1024;
const f32 = (count) => E.bench_alloc(count * 4);
const fill = (ptr, count, seed) => {
  const a = new Float32Array(memory.buffer, ptr, count);
  let s = seed;
  for (let i = 0; i < count; i++) { s = (s * 1103515245 + 12345) >>> 0; a[i] = (s / 2 ** 32) * 4 - 1 + (i % 7 === 0 ? 0.5 : 0); }
};
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const now = () => performance.now();

// A descriptor (wasmgen.hpp): [R, n, rows, counts..., per slot: ptr, inner stride, outer strides..., scratch...]
function descriptor(rank, counts, slots) {
  const words = [rank, N, ROWS, ...counts];
  for (const s of slots) words.push(s.ptr, s.inner, ...s.outer);
  const at = E.bench_alloc((words.length + rank) * 4);
  new Int32Array(memory.buffer, at, words.length + rank).set([...words, ...new Array(rank).fill(0)]);
  return { at, scratch: at + words.length * 4, rank };
}
function moduleFor(which, rank, forms) {
  const size = E.bench_generate(which, rank, forms);
  if (size < 0) throw new Error('generate() refused');
  const bytes = new Uint8Array(memory.buffer, E.bench_bytes(), size).slice();
  return { bytes, run: new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports.run };
}

const x = f32(ROWS * N), m = f32(N), s = f32(N), outG = f32(ROWS * N), outC = f32(ROWS * N);
fill(x, ROWS * N, 1); fill(m, N, 2); fill(s, N, 3);
const d = descriptor(1, [ROWS], [
  { ptr: outG, inner: 4, outer: [N * 4] }, { ptr: x, inner: 4, outer: [N * 4] },
  { ptr: m, inner: 4, outer: [0] }, { ptr: s, inner: 4, outer: [0] }]);
const A = moduleFor(0, 1, 0);
const runA = () => { new Int32Array(memory.buffer, d.scratch, 1)[0] = 0; A.run(d.at); };

const b1 = f32(N), c1 = f32(ROWS), e1 = f32(1), a2 = x, d2 = f32(ROWS * N);
fill(b1, N, 4); fill(c1, ROWS, 5); fill(e1, 1, 6); fill(d2, ROWS * N, 7);
const db = descriptor(1, [ROWS], [
  { ptr: outG, inner: 4, outer: [N * 4] }, { ptr: a2, inner: 4, outer: [N * 4] }, { ptr: b1, inner: 4, outer: [0] },
  { ptr: c1, inner: 0, outer: [4] }, { ptr: d2, inner: 4, outer: [N * 4] }, { ptr: e1, inner: 0, outer: [0] }]);
const B = moduleFor(1, 1, 10100);  // e splat, d contiguous, c splat, b and a contiguous
const runB = () => { new Int32Array(memory.buffer, db.scratch, 1)[0] = 0; B.run(db.at); };

function compare(label, gen, cpp) {
  let t = now(); gen(); const firstGen = now() - t;
  t = now(); cpp(); const firstCpp = now() - t;
  const g = new Uint32Array(memory.buffer, outG, ROWS * N), c = new Uint32Array(memory.buffer, outC, ROWS * N);
  let diff = 0;
  for (let i = 0; i < g.length; i++) if (g[i] !== c[i]) diff++;
  for (let i = 0; i < 5; i++) { gen(); cpp(); }
  const tg = [], tc = [];
  for (let i = 0; i < reps; i++) {
    t = now(); gen(); tg.push(now() - t);
    t = now(); cpp(); tc.push(now() - t);
  }
  const mg = median(tg), mc = median(tc);
  console.log(`${label}: generated ${mg.toFixed(3)} ms, C++ SIMD128 ${mc.toFixed(3)} ms, ratio ${(mg / mc).toFixed(2)}` +
    ` (medians of ${reps}); first call ${firstGen.toFixed(2)} / ${firstCpp.toFixed(2)} ms; elements differing: ${diff}`);
}
console.log(`module sizes: chain A ${A.bytes.length} bytes, chain B ${B.bytes.length} bytes`);
compare('chain A (x - m) / s', runA, () => E.chain_a_cpp(x, m, s, outC, ROWS, N));
compare('chain B a*b + c*d - e', runB, () => E.chain_b_cpp(a2, b1, c1, d2, e1, outC, ROWS, N));

// Cold: generate() in wasm, then compile + instantiate (bytes made unique by a
// custom section, so that no compiled-module cache answers), per expression.
const names = ['chain A', 'chain B', 'where(x > 0, x, x * 0.01)', '12-instruction mix'];
const formsOf = [0, 10100, 0, 0];
let serial = 0;
for (let which = 0; which < 4; which++) {
  const tGen = [], tCompile = [];
  let size = 0;
  for (let i = 0; i < 200; i++) {
    let t = now();
    size = E.bench_generate(which, 1, formsOf[which]);
    const bytes = new Uint8Array(memory.buffer, E.bench_bytes(), size).slice();
    tGen.push(now() - t);
    const tag = String(serial++).padStart(8, '0');
    const unique = new Uint8Array(bytes.length + 3 + tag.length);
    unique.set(bytes);
    unique.set([0, 1 + tag.length, 0, ...new TextEncoder().encode(tag)], bytes.length);
    t = now();
    new WebAssembly.Instance(new WebAssembly.Module(unique), { env: { memory } });
    tCompile.push(now() - t);
  }
  console.log(`cold ${names[which]} (${size} bytes): generate() ${(median(tGen) * 1000).toFixed(1)} us,` +
    ` Module + Instance ${(median(tCompile) * 1000).toFixed(1)} us (medians of 200)`);
}

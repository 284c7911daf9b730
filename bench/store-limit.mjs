// How fast can WebAssembly write the 4 MiB of a broadcast [1024] -> [1024, 1024]?
// The limit of the materialise target (issue 23: a resident materialise
// >= 1.5x faster than the best plain-JS copy). In one Node process, 31
// rounds of 20 calls of each case, the cases in a new order each round
// (a case is slower right after one that filled the caches with other
// memory); medians, ÷ memory.copy of 4 MiB and ÷ the plain-JS copy:
//   store loop        v128.store of one constant over the 4 MiB, 64 bytes a step
//   row copies        memory.copy of the 4 KiB row (hot in L1) onto each output row
//   v128 row copies   the same with v128.load / v128.store, 64 bytes a step
//   memory.fill       one byte value over the 4 MiB
//   ... on tensorcast's memory: the same loops writing its resident `out`, and
//   run_copy's pattern (the first row, then copies from the output's start,
//   doubling up to 32 KiB, then 32 KiB at a time: src/kernels/driver.cpp)
//   tensorcast        broadcastTo(x, [1024, 1024], { out }) on resident tensors
//   plain JS          set() of the row, then copyWithin doubling (the bench's best plain-JS copy)
// The module is written here byte by byte (no toolchain needed) and imports its
// memory: one instance over a memory of its own, one over tensorcast's.
//   node bench/store-limit.mjs [--rounds=N]     (needs dist/: npm run build)
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { leb } from './lib/reduce.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 31);

// run_copy's chunk (src/kernels/driver.cpp kChunk): doubling copies grow to this, then repeat it.
const CHUNK = 32 * 1024;

// ---- the module -----------------------------------------------------------------
// Instruction bytes (the wasm binary format): locals, i32 constants (signed
// LEB128), adds and compares, memory.copy / memory.fill, blocks and loops.
const get = (i) => [0x20, i];
const set = (i) => [0x21, i];
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
const i32 = (v) => [0x41, ...sleb(v)];
const ADD = 0x6a;
const SUB = 0x6b;
const LT_U = 0x49;
const GE_U = 0x4f;
const GT_U = 0x4b;
const COPY = [0xfc, 10, 0, 0];
const FILL = [0xfc, 11, 0];
// block loop br_if(1, p >= end) body; p += step; br 0 end end (`step`: the instructions that push it)
const loopTo = (p, end, body, step) => [0x02, 0x40, 0x03, 0x40, ...get(p), ...get(end), GE_U, 0x0d, 1, ...body, ...get(p), ...step, ADD, ...set(p), 0x0c, 0, 0x0b, 0x0b];
const fn = (locals, code) => {
  const body = [...leb(locals.length), ...locals.flatMap(([n, t]) => [n, t]), ...code, 0x0b];
  return [...leb(body.length), ...body];
};
const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
const name = (s) => [s.length, ...Buffer.from(s)];

// The functions (byte addresses; n bytes, a multiple of 64 and of the row):
//   store(dst, n)          v128.store of one constant, 64 bytes a step
//   fill(dst, n)           memory.fill
//   copy(dst, src, n)      memory.copy
//   rows(src, dst, n, row) memory.copy of the row at src onto each row of dst
//   vrows(src, dst, n, row) the same with v128.load / v128.store, 64 bytes a step
//   dbl(src, dst, n, row)  run_copy: the first row, then dst's start copied on, doubling up to CHUNK, then CHUNK at a time
const STORE = fn([[1, 0x7f], [1, 0x7b]], [ // locals 2 end, 3 v
  0xfd, 0x0c, ...Array.from({ length: 16 }, (_, i) => i + 1), ...set(3),
  ...get(0), ...get(1), ADD, ...set(2),
  ...loopTo(0, 2, [0, 16, 32, 48].flatMap((o) => [...get(0), ...get(3), 0xfd, 0x0b, 4, ...leb(o)]), i32(64)),
]);
const FILLF = fn([], [...get(0), ...i32(7), ...get(1), ...FILL]);
const COPYF = fn([], [...get(0), ...get(1), ...get(2), ...COPY]);
const ROWS = fn([[1, 0x7f]], [ // local 4 end
  ...get(1), ...get(2), ADD, ...set(4),
  ...loopTo(1, 4, [...get(1), ...get(0), ...get(3), ...COPY], get(3)),
]);
const VROWS = fn([[3, 0x7f]], [ // locals 4 end, 5 i, 6 row end
  ...get(1), ...get(2), ADD, ...set(4),
  ...loopTo(1, 4, [
    ...i32(0), ...set(5),
    ...loopTo(5, 3, [0, 16, 32, 48].flatMap((o) => [...get(1), ...get(5), ADD, ...get(0), ...get(5), ADD, 0xfd, 0x00, 4, ...leb(o), 0xfd, 0x0b, 4, ...leb(o)]), i32(64)),
  ], get(3)),
]);
const DBL = fn([[2, 0x7f]], [ // locals 4 done, 5 c ; param 3 = row
  ...get(1), ...get(0), ...get(3), ...COPY,
  ...get(3), ...set(4),
  ...loopTo(4, 2, [
    ...get(4), ...i32(CHUNK), ...get(4), ...i32(CHUNK), LT_U, 0x1b, ...set(5),
    ...get(5), ...get(2), ...get(4), SUB, GT_U, 0x04, 0x40, ...get(2), ...get(4), SUB, ...set(5), 0x0b,
    ...get(1), ...get(4), ADD, ...get(1), ...get(5), ...COPY,
  ], get(5)),
]);
const T2 = [0x60, 2, 0x7f, 0x7f, 0];
const T3 = [0x60, 3, 0x7f, 0x7f, 0x7f, 0];
const T4 = [0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0];
const exportsOf = [['store', 0, 0], ['fill', 0, 1], ['copy', 1, 2], ['rows', 2, 3], ['vrows', 2, 4], ['dbl', 2, 5]];
const bytes = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [3, ...T2, ...T3, ...T4]),
  ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]),
  ...section(3, [exportsOf.length, ...exportsOf.map(([, t]) => t)]),
  ...section(7, [exportsOf.length, ...exportsOf.flatMap(([n, , i]) => [...name(n), 0x00, i])]),
  ...section(10, [exportsOf.length, ...STORE, ...FILLF, ...COPYF, ...ROWS, ...VROWS, ...DBL]),
]);

// ---- the cases -------------------------------------------------------------------
const ownMem = new WebAssembly.Memory({ initial: 256 }); // 16 MiB
const e = { ...(await WebAssembly.instantiate(bytes, { env: { memory: ownMem } })).instance.exports, mem: ownMem };
const tc = await import(pathToFileURL(path.join(root, 'dist', 'node.js')).href);
await tc.init();
const { mod } = await import(pathToFileURL(path.join(root, 'dist', 'loader.js')).href);
const { handleOf } = await import(pathToFileURL(path.join(root, 'dist', 'tensor.js')).href);
const M = mod();
const tcMem = Object.values(M.asm).find((v) => v instanceof WebAssembly.Memory); // the engine's exported memory
const et = (await WebAssembly.instantiate(bytes, { env: { memory: tcMem } })).instance.exports;

const N = 4 << 20;
const ROW = 4096;
const SRC = 65536;
const DST = 1 << 20;
const FAR = 8 << 20;
const row = Float32Array.from({ length: ROW / 4 }, (_, i) => i * 0.5);
new Float32Array(e.mem.buffer, SRC, row.length).set(row);
const tx = tc.tensor(row, [row.length]);
const tout = tc.tensor(new Float32Array(N / 4), [1024, 1024]);
const toOut = { out: tout };
const px = handleOf(tx).ptr; // resident tensors keep their memory until disposed
const pout = handleOf(tout).ptr;
const plain = new Float32Array(N / 4);
const plainCopy = () => {
  plain.set(row, 0);
  let have = row.length;
  while (have < plain.length) {
    const take = Math.min(have, plain.length - have);
    plain.copyWithin(have, 0, take);
    have += take;
  }
};

const cases = {
  'memory.copy 4 MiB': () => e.copy(DST, FAR, N),
  'store loop': () => e.store(DST, N),
  'row copies': () => e.rows(SRC, DST, N, ROW),
  'v128 row copies': () => e.vrows(SRC, DST, N, ROW),
  'memory.fill': () => e.fill(DST, N),
  'tensorcast broadcastTo, resident out': () => tc.broadcastTo(tx, [1024, 1024], toOut),
  'row copies, tensorcast memory': () => et.rows(px, pout, N, ROW),
  'v128 row copies, tensorcast memory': () => et.vrows(px, pout, N, ROW),
  "run_copy's pattern, tensorcast memory": () => et.dbl(px, pout, N, ROW),
  'plain JS set + copyWithin doubling': plainCopy,
};
// Every case that broadcasts writes the row's values everywhere (the fill and store loops write constants).
const check = (what, run, read) => {
  run();
  const got = read();
  for (let i = 0; i < N / 4; i++) if (got[i] !== row[i % row.length]) throw new Error(`${what}: element ${i} is wrong`);
};
const own = () => new Float32Array(ownMem.buffer, DST, N / 4);
check('row copies', () => { own().fill(-1); e.rows(SRC, DST, N, ROW); }, own);
check('v128 row copies', () => { own().fill(-1); e.vrows(SRC, DST, N, ROW); }, own);
for (const f of ['rows', 'vrows', 'dbl']) check(`${f}, tensorcast memory`, () => { tout.toArray(); et[f](px, pout, N, ROW); }, () => tout.toArray());
check('tensorcast', () => tc.broadcastTo(tx, [1024, 1024], toOut), () => tout.toArray());
check('plain JS', plainCopy, () => plain);

for (const f of Object.values(cases)) for (let i = 0; i < 20; i++) f();
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
// Each round runs the cases in another order, chosen by a fixed generator.
let seed = 12345;
const order = Object.keys(cases);
for (let r = 0; r < rounds; r++) {
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const k of order) {
    const f = cases[k];
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) f();
    times[k].push(Number(process.hrtime.bigint() - t0) / 20e3);
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const base = med(times['memory.copy 4 MiB']);
const js = med(times['plain JS set + copyWithin doubling']);
console.log(`| writing 4 MiB (${rounds} rounds of 20 calls, medians) | µs | ÷ memory.copy | ÷ plain JS |`);
console.log('| --- | ---: | ---: | ---: |');
for (const k of Object.keys(cases)) {
  const m = med(times[k]);
  console.log(`| ${k} | ${m.toFixed(0)} | ${(m / base).toFixed(2)}× | ${(m / js).toFixed(2)}× |`);
}

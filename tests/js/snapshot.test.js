// Snapshot by construction: every exported function reads every user value
// (operands, shapes, dims, coords, options and everything inside them) before
// it touches the engine's memory, and checks its tensors again after the last
// user code has run. Here every user-supplied object and array is a Proxy
// whose reads run a hook: the hook disposes the call's tensors, allocates
// canary tensors, grows wasm memory, resizes the operands' buffers or calls
// the library again. It fires at one read at a time (every read position in
// turn, for each kind of hook). After each call:
//   - it either returned what the same call returns without hooks, or threw a
//     TypeError / BroadcastError (never a wasm trap, never a RangeError of a
//     detached view);
//   - a call whose tensor was disposed under it did not succeed;
//   - every canary tensor still holds its values (no write through a freed or
//     reused address);
//   - once everything is disposed, the engine holds exactly what it held before,
//     and a plain call still gives the right answer.
import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as shared from '../../dist/node.js';

// Each function runs in an engine of its own (a copy of dist/, imported
// afresh): memory growth is geometric, so a fresh heap gives every function
// its own growths, and nothing one function leaves in the plan caches is
// counted against another.
let tc = shared;
async function freshEngine() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tc-snapshot-'));
  cpSync(fileURLToPath(new URL('../../dist', import.meta.url)), dir, { recursive: true });
  const m = await import(pathToFileURL(path.join(dir, 'node.js')).href);
  await m.init();
  return m;
}

beforeAll(async () => { await shared.init(); });

const f32 = (...v) => Float32Array.from(v);
const iota = (n, C = Float32Array) => C.from({ length: n }, (_, i) => (C === BigInt64Array ? BigInt(i + 1) : i + 1));

// ---- hooked values ---------------------------------------------------------------
// Typed arrays and tensors stay as they are (a Proxy of either is not one).
function hooked(v, hook) {
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || v instanceof tc.Tensor || v instanceof ArrayBuffer) return v;
  const inner = Array.isArray(v) ? v.map((x) => hooked(x, hook)) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hooked(x, hook)]));
  return new Proxy(inner, {
    get(t, k, r) { hook(); return Reflect.get(t, k, r); },
    has(t, k) { hook(); return Reflect.has(t, k); },
    ownKeys(t) { hook(); return Reflect.ownKeys(t); },
    getOwnPropertyDescriptor(t, k) { hook(); return Reflect.getOwnPropertyDescriptor(t, k); },
    getPrototypeOf(t) { hook(); return Reflect.getPrototypeOf(t); },
  });
}

// ---- a case: one call of one exported function -------------------------------------
// make(env) returns the call's arguments; env.tensor() makes a resident tensor
// owned by the case, env.data() a typed array whose buffer the 'resize' hook may grow.
class Env {
  constructor() { this.tensors = []; this.buffers = []; }
  tensor(data, shape, options) { const t = tc.tensor(data, shape, options); this.tensors.push(t); return t; }
  view(v) { this.tensors.push(v); return v; } // a view of a case's tensor: disposed with them
  data(C, n, fill = (i) => i + 1) {
    const buf = new ArrayBuffer(n * C.BYTES_PER_ELEMENT, { maxByteLength: 4 * (n + 8) * C.BYTES_PER_ELEMENT });
    const a = new C(buf); // length-tracking: its length follows the buffer's
    for (let i = 0; i < n; i++) a[i] = C === BigInt64Array || C === BigUint64Array ? BigInt(fill(i)) : fill(i);
    this.buffers.push(buf);
    return a;
  }
  dispose() { for (const t of this.tensors) if (!t.disposed) t.dispose(); }
}

const CASES = {};
const add = (fn, label, make) => (CASES[fn] ??= []).push({ label, make });

// The shape API.
add('broadcastShapes', 'three shapes', () => [[8, 1, 6, 1], [7, 1, 5], ['?', 1, 1, 1]]);
add('broadcastShapes', 'static (its lane, rules.js laneRead)', () => [[8, 1, 6, 1], [7, 1, 5]]);
add('autoBroadcastShape', 'pdpd', () => [[2, 3, 4, 5], [3, 1], { type: 'pdpd', axis: 1 }]);
add('broadcastToShape', 'explicit', () => [[16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] }]);
add('broadcastToShape', '-1', () => [[3, 1, 5, 1], [-1, -1, 5, 6]]);
add('namedBroadcastShape', 'coords', () => [{ dims: ['x', 'y'], coords: { x: ['a', 'b'] }, shape: [2, 3] }, { dims: ['y', 'z'], shape: [3, 4] }, { shaping: 'union' }]);
add('explain', 'pdpd', () => [{ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 }]);
add('explain', 'broadcastTo explicit', () => [{ rule: 'broadcastTo', shapes: [[3], [2, 3]], mode: 'explicit', axesMapping: [1] }]);
add('explain', 'named', () => [{ rule: 'named', operands: [{ dims: ['x'], coords: { x: [1, 2] } }, { dims: ['y'], shape: [2] }] }]);
add('reductionAxes', 'explicit', () => [[16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] }]);
add('formatShape', 'shape', () => [[2, '?', 3]]);
add('formatDim', 'dim', () => ['2..5']);

// Data: resident operands, `out`, plain operands over resizable buffers, options.
add('tensor', 'named with coords', (e) => [e.data(Float32Array, 6), [2, 3], { dims: ['x', 'y'], coords: { x: ['a', 'b'] } }]);
add('broadcastTo', 'explicit into a resident out', (e) => [e.tensor(f32(1, 2, 3), [3]), [2, 3], { mode: 'explicit', axesMapping: [1], out: e.tensor(new Float32Array(6), [2, 3]) }]);
add('broadcastTo', 'plain, -1', (e) => [{ data: e.data(Float32Array, 2), shape: [2, 1] }, [-1, 4]]);
add('where', 'resident and plain, out', (e) => [{ data: Uint8Array.of(1, 0, 1), shape: [3] }, e.tensor(f32(1, 2, 3), [3]), e.tensor(f32(9), [1]), { out: e.tensor(new Float32Array(3), [3]) }]);
add('unbroadcast', 'explicit, resident out', (e) => [e.tensor(iota(6), [2, 3]), [3], { mode: 'explicit', axesMapping: [1], out: e.tensor(new Float32Array(3), [3]) }]);
add('unbroadcast', 'plain to [1, 3]', (e) => [{ data: e.data(Float32Array, 6), shape: [2, 3] }, [1, 3]]);
add('unbroadcast', 'named, reordered, resident out', (e) => [e.tensor(iota(6), [3, 2], { dims: ['c', 'b'] }), { dims: ['b', 'c'], shape: [2, 3] }, { out: e.tensor(new Float32Array(6), [2, 3]) }]);
add('unbroadcast', 'named plain with coords', (e) => [{ data: e.data(Float32Array, 6), shape: [2, 3], dims: ['x', 'y'], coords: { x: ['p', 'q'] } }, { dims: ['x'], coords: { x: ['q', 'p'] } }]);
for (const r of ['sum', 'prod', 'min', 'max', 'mean']) {
  add(r, 'axes into a resident out', (e) => [e.tensor(iota(6), [2, 3]), { axes: [0, -1], keepdims: true, out: e.tensor(new Float32Array(1), [1, 1]) }]);
  add(r, 'plain, dtype', (e) => [{ data: e.data(Int8Array, 6), shape: [3, 2] }, { axes: 1, dtype: 'float64' }]);
}
add('transpose', 'resident, axes', (e) => [e.tensor(iota(6), [2, 3]), [1, 0]]);
add('transpose', 'plain view, named by dim', (e) => [{ data: e.data(Float32Array, 6), shape: [2, 3], dims: ['a', 'b'] }, ['b', 'a']]);
add('slice', 'resident, ranges and an index', (e) => [e.tensor(iota(12), [3, 4]), [null, null, -1], 1]);
add('slice', 'plain strided, text', (e) => [{ data: e.data(Float32Array, 12), shape: [3, 2], strides: [4, 2], offset: 1 }, '::2, ::-1']);
add('flip', 'resident named with coords', (e) => [e.tensor(iota(6), [2, 3], { dims: ['a', 'b'], coords: { b: ['x', 'y', 'z'] } }), ['b']]);
add('squeeze', 'plain', (e) => [{ data: e.data(Int32Array, 3), shape: [1, 3, 1] }, [0]]);
add('expandDims', 'resident named', (e) => [e.tensor(iota(6), [2, 3], { dims: ['a', 'b'] }), 0, { dims: ['n'] }]);
add('concat', 'resident and plain view, resident out', (e) => [[e.tensor(iota(6), [2, 3]), { data: e.data(Float32Array, 6), shape: [2, 3], strides: [1, 2] }], 0, { out: e.tensor(new Float32Array(12), [4, 3]) }]);
add('stack', 'plain', (e) => [[{ data: e.data(Float32Array, 3) }, { data: e.data(Float32Array, 3) }], 1]);
add('contiguous', 'resident view', (e) => [e.view(e.tensor(iota(6), [2, 3]).transpose())]);
add('contiguous', 'plain strided into a typed out', (e) => [{ data: e.data(Float64Array, 6), shape: [3, 2], strides: [1, 3] }, { out: new Float64Array(6) }]);
add('add', 'plain strided and a resident view', (e) => [{ data: e.data(Float32Array, 6), shape: [3, 2], strides: [1, 3] }, e.view(e.tensor(iota(6), [2, 3]).transpose())]);
add('reshape', 'resident, -1, named with coords', (e) => [e.tensor(iota(6), [2, 3], { dims: ['a', 'b'] }), [3, -1], { dims: ['x', 'y'], coords: { x: ['p', 'q', 'r'] } }]);
add('reshape', 'plain, its shape left to default', (e) => [{ data: e.data(Float32Array, 6) }, [-1, 2, 1]]);
add('reshape', 'plain named, to a scalar-free shape', (e) => [{ data: e.data(Int32Array, 6), shape: [2, 3], dims: ['a', 'b'] }, [6, 1]]);
add('sum', 'dims of a named resident, into a named out', (e) => [e.tensor(iota(6), [2, 3], { dims: ['a', 'b'], coords: { b: ['p', 'q', 'r'] } }), { dims: ['a'], out: e.tensor(new Float32Array(3), [3], { dims: ['b'], coords: { b: ['p', 'q', 'r'] } }) }]);
add('mean', 'dims of a named plain, keepdims', (e) => [{ data: e.data(Int16Array, 6), shape: [3, 2], dims: ['x', 'y'], coords: { x: [1, 2, 3] } }, { dims: ['y', 'x'], keepdims: true }]);
add('unbroadcast', 'to an operand (a named plain one)', (e) => [{ data: e.data(Float32Array, 6), shape: [2, 3], dims: ['x', 'y'] }, { data: e.data(Float32Array, 3), dims: ['y'], coords: { y: [7, 8, 9] } }]);
add('unbroadcast', 'to a resident operand, positional', (e) => [e.tensor(iota(6), [2, 3]), e.tensor(iota(3), [1, 3])]);
add('broadcastArrays', 'resident and plain', (e) => [e.tensor(f32(1, 2, 3), [3]), { data: e.data(Float32Array, 2), shape: [2, 1] }]);
const BINARY = ['add', 'sub', 'mul', 'div', 'rem', 'pow', 'minimum', 'maximum', 'equal', 'notEqual', 'less', 'lessEqual',
  'greater', 'greaterEqual', 'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'mod',
  'floorDiv', 'atan2', 'hypot'];
for (const op of BINARY) {
  const bitwise = op.startsWith('bitwise');
  const C = bitwise ? Int32Array : Float32Array;
  const bool = ['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual', 'logicalAnd', 'logicalOr', 'logicalXor'].includes(op);
  const O = bool ? Uint8Array : C;
  add(op, 'resident, pdpd, resident out', (e) => [e.tensor(iota(6, C), [2, 3]), e.tensor(iota(2, C), [2, 1]), { broadcast: { type: 'pdpd', axis: 0 }, out: e.tensor(new O(6), [2, 3]) }]);
  // Every op runs the same snapshot code (ops.js binary()); the other operand forms once, on add and a bitwise op.
  if (op !== 'add' && op !== 'bitwiseXor') continue;
  add(op, 'plain and a scalar, typed-array out', (e) => [{ data: e.data(C, 6), shape: [3, 2] }, 2, { out: new O(6) }]);
  add(op, 'named, union with fill', (e) => [{ data: e.data(C, 2), shape: [2], dims: ['x'], coords: { x: [1, 2] } }, e.tensor(iota(2, C), [2], { dims: ['x'], coords: { x: [2, 3] } }), { shaping: 'union', fill: 0 }]);
}
// Unary ops and cast (unary.js): one snapshot path for all; the other operand forms on neg and cast.
const UNARY = ['neg', 'abs', 'sign', 'sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh', 'floor', 'ceil',
  'round', 'trunc', 'logicalNot', 'bitwiseNot', 'isNaN', 'isFinite', 'sigmoid'];
for (const op of UNARY) {
  const C = op === 'bitwiseNot' ? Int32Array : Float32Array;
  const O = ['logicalNot', 'isNaN', 'isFinite'].includes(op) ? Uint8Array : C;
  add(op, 'resident, resident out', (e) => [e.tensor(iota(6, C), [2, 3]), { out: e.tensor(new O(6), [2, 3]) }]);
}
add('neg', 'plain named with coords, typed-array out', (e) => [{ data: e.data(Float32Array, 6), shape: [2, 3], dims: ['x', 'y'], coords: { x: ['a', 'b'] } }, { out: new Float32Array(6) }]);
add('neg', 'in place on a resident', (e) => { const t = e.tensor(iota(6), [6]); return [t, { out: t }]; });
add('cast', 'resident to int8, resident out', (e) => [e.tensor(iota(6), [2, 3]), 'int8', { out: e.tensor(new Int8Array(6), [2, 3]) }]);
add('cast', 'plain named to float64, typed-array out', (e) => [{ data: e.data(Int16Array, 6), shape: [3, 2], dims: ['a', 'b'] }, 'float64', { out: new Float64Array(6) }]);
// Post-processing along an axis (post.js): each form of operand, axis and out once.
add('softmax', 'resident named, axis by name, resident out', (e) => [e.tensor(iota(6), [2, 3], { dims: ['a', 'b'] }), 'a', { out: e.tensor(new Float32Array(6), [2, 3]) }]);
add('softmax', 'plain view, typed-array out', (e) => [{ data: e.data(Float32Array, 6), shape: [3, 2], strides: [1, 3] }, -1, { out: new Float32Array(6) }]);
add('logSoftmax', 'plain float64', (e) => [{ data: e.data(Float64Array, 6), shape: [2, 3] }]);
add('logSumExp', 'resident, two axes, keepdims', (e) => [e.tensor(iota(12), [2, 3, 2]), [0, 2], { keepdims: true }]);
add('argmax', 'plain named, axis by name', (e) => [{ data: e.data(Int16Array, 6), shape: [2, 3], dims: ['x', 'y'], coords: { x: ['p', 'q'] } }, 'y']);
add('argmin', 'resident view, into a typed out', (e) => [e.view(e.tensor(iota(6), [2, 3]).transpose()), 0, { out: new Int32Array(2) }]);
add('topk', 'resident, out of both', (e) => [e.tensor(iota(12), [3, 4]), 2, { axis: 0, out: { values: e.tensor(new Float32Array(8), [2, 4]), indices: new Int32Array(8) } }]);
add('topk', 'plain, smallest', (e) => [{ data: e.data(Float32Array, 6), shape: [6] }, 3, { largest: false }]);
// Expressions: the operands object, each operand and the options are hooked (a getter of
// an operand disposes the call's tensors, allocates, grows memory or calls evaluate again).
add('evaluate', 'resident and plain, a number, resident out', (e) => ['(x - m) / s', { x: e.tensor(iota(6), [2, 3]), m: { data: e.data(Float32Array, 3), shape: [3] }, s: 2 }, { out: e.tensor(new Float32Array(6), [2, 3]) }]);
add('evaluate', 'plain, pdpd, typed-array out', (e) => ['x * y + 1', { x: { data: e.data(Float32Array, 6), shape: [2, 3] }, y: { data: e.data(Float32Array, 2), shape: [2] } }, { broadcast: { type: 'pdpd', axis: 0 }, out: new Float32Array(6) }]);
add('evaluate', 'named contraction by name, keepdims', (e) => ["sum(x * w, ['in'])", { x: { data: e.data(Float32Array, 6), shape: [2, 3], dims: ['b', 'in'], coords: { in: ['p', 'q', 'r'] } }, w: e.tensor(iota(6), [3, 2], { dims: ['in', 'o'], coords: { in: ['p', 'q', 'r'] } }) }, { keepdims: true }]);
add('evaluate', 'where, cast and a bigint over a resident int64 tensor', (e) => ["c ? cast(x + k, 'float64') : 0.5", { c: { data: e.data(Uint8Array, 3, (i) => i % 2), shape: [3] }, x: e.tensor(iota(3, BigInt64Array), [3]), k: 5n }]);
add('compile', 'an expression', () => ['sum((x - m) / s, [1])']);
// The rest of the exports take no user value that reaches memory; they are run
// with hooked arguments anyway where they take any.
add('init', 'options', () => [{}]);
add('initSync', 'options', () => [{}]);
for (const fn of ['isReady', 'contract', 'memory', 'releaseScratch', 'kernels']) add(fn, 'no arguments', () => []);

// Exports that are not functions to call (classes, constants).
const NOT_CALLS = new Set(['BroadcastError', 'Tensor', 'ErrorCode', 'DTYPES', 'UNKNOWN_RANK', 'MAX_RANK']);

// ---- what a call returned, in comparable form ----------------------------------------
function norm(r) {
  if (r instanceof tc.Tensor) return { tensor: true, data: Array.from(r.toArray(), String), shape: r.shape, dims: r.dims, coords: r.coords };
  if (Array.isArray(r)) return r.map(norm);
  if (r && typeof r === 'object' && 'values' in r && 'indices' in r) return { values: norm(r.values), indices: norm(r.indices) };
  if (r && typeof r === 'object' && ArrayBuffer.isView(r.data)) return { data: Array.from(r.data, String), shape: r.shape, dims: r.dims, coords: r.coords, dtype: r.dtype };
  if (r instanceof Promise) return 'promise';
  if (r && typeof r === 'object' && 'wasmHeapBytes' in r) return 'memory';
  return JSON.parse(JSON.stringify(r ?? null));
}
function release(r) {
  if (r instanceof tc.Tensor) { if (!r.disposed) r.dispose(); } else if (Array.isArray(r)) r.forEach(release);
  else if (r && typeof r === 'object' && 'values' in r && 'indices' in r) { release(r.values); release(r.indices); }
}

// ---- the hooks -------------------------------------------------------------------------
const CANARY = 7.25;
const GROW_CAP = 128 << 20;
let growths = 0;
function makeHooks(env, victims) {
  const disposeAll = () => { for (const t of env.tensors) if (!t.disposed) t.dispose(); return env.tensors.length > 0; };
  const alloc = () => {
    // Small and large canaries, so a freed block of any size is likely reused by one.
    for (const n of [1, 3, 6, 16, 64, 1024]) victims.push(tc.tensor(new Float64Array(n).fill(CANARY), [n]));
  };
  const grow = () => {
    // More than the heap has free: the heap grows (by 20% or more) and every
    // view of it is detached. Growth never shrinks (and each is geometric), so
    // past GROW_CAP this hook does nothing: each function's engine is fresh,
    // and its first dozen growths land on its first case's reads.
    const m = tc.memory();
    if (m.wasmHeapBytes >= GROW_CAP) return;
    const n = m.wasmHeapBytes - m.allocatedBytes - m.scratchBytes + (1 << 16);
    const big = tc.tensor(new Uint8Array(n), [n]);
    big.dispose();
    if (tc.memory().wasmHeapBytes > m.wasmHeapBytes) growths++;
  };
  const resize = () => { for (const b of env.buffers) if (b.resizable && b.byteLength < b.maxByteLength) b.resize(b.maxByteLength); };
  const reenter = () => {
    const a = tc.tensor(f32(1, 2), [2, 1]);
    const s = tc.add(a, { data: f32(10, 20, 30), shape: [3] });
    s.dispose();
    a.dispose();
    tc.broadcastShapes([2, 1], [3]);
    tc.sum({ data: f32(1, 2, 3) });
    tc.explain({ rule: 'numpy', shapes: [[2], [3]] });
    tc.evaluate('x * 2 + y', { x: { data: f32(1, 2, 3), shape: [3] }, y: 1 });
  };
  return {
    dispose: () => disposeAll(),
    alloc,
    grow,
    resize,
    reenter,
    // What the repro does: free the call's tensors, then hand their memory to new ones.
    all: () => { const d = disposeAll(); grow(); alloc(); reenter(); return d; },
  };
}

function runCase(fn, c, hookAt, kind) {
  const env = new Env();
  const victims = [];
  let reads = 0;
  let fired = false;
  let disposed = false;
  const hooks = makeHooks(env, victims);
  const args = c.make(env);
  const hook = () => {
    if (reads++ !== hookAt || fired) return;
    fired = true;
    if (hooks[kind]() === true) disposed = true;
  };
  const wrapped = args.map((a) => hooked(a, hook));
  let result;
  let error = null;
  try {
    result = tc[fn](...wrapped);
  } catch (e) {
    error = e;
  }
  const out = { reads, fired, disposed, error, value: error ? null : norm(result) };
  // Canaries first: a write through a freed address shows here.
  out.canaries = victims.every((v) => v.toArray().every((x) => x === CANARY));
  if (result instanceof Promise) result.catch(() => {});
  release(result);
  for (const v of victims) v.dispose();
  env.dispose();
  return out;
}

const exported = Object.keys(tc).filter((k) => !NOT_CALLS.has(k));

describe('snapshot by construction: a hook in every user value', () => {
  it('every exported function has a case here (a new export must add one)', () => {
    const missing = exported.filter((k) => typeof tc[k] === 'function' && !CASES[k]);
    expect(missing).toEqual([]);
    for (const k of exported) expect(typeof tc[k], k).toBe('function');
  });

  const KINDS = ['dispose', 'alloc', 'grow', 'resize', 'reenter', 'all'];
  for (const fn of Object.keys(CASES)) {
    it(`${fn}: dispose, allocate, grow, resize and re-enter at every read`, async () => {
      tc = await freshEngine();
      growths = 0;
      // References, and a warm-up (hooks at the first read) so that what the
      // engine keeps between calls (plan caches, request space) is in place.
      const plain = CASES[fn].map((c) => {
        const r = runCase(fn, c, -1, 'reenter'); // no hook fires: the reference answer
        expect(r.error, `${fn} ${c.label}: ${r.error?.message}`).toBe(null);
        return r;
      });
      for (const c of CASES[fn]) for (const kind of KINDS) runCase(fn, c, 0, kind);
      tc.releaseScratch();
      const base = tc.memory();
      CASES[fn].forEach((c, ci) => {
        for (const kind of KINDS) {
          for (let k = 0; k < plain[ci].reads; k++) {
            const r = runCase(fn, c, k, kind);
            const where = `${fn} (${c.label}), hook '${kind}' at read ${k}`;
            expect(r.fired, where).toBe(true);
            expect(r.canaries, `${where}: a canary tensor was overwritten`).toBe(true);
            if (r.error) {
              expect(r.error, `${where}: ${r.error?.stack}`).toSatisfy((e) => e instanceof TypeError || e instanceof tc.BroadcastError);
              expect(String(r.error.message), where).not.toMatch(/memory access out of bounds|detached|undefined/);
              continue;
            }
            // Success: only where nothing the call uses was disposed, and then the same answer.
            expect(r.disposed, `${where}: succeeded although its tensors were disposed`).toBe(false);
            if (kind !== 'resize') expect(r.value, where).toEqual(plain[ci].value);
          }
        }
      });
      tc.releaseScratch();
      const now = tc.memory();
      expect(now.allocatedBytes, `${fn}: bytes held`).toBe(base.allocatedBytes);
      expect(now.liveTensors, `${fn}: live tensors`).toBe(base.liveTensors);
      if (plain.some((p) => p.reads > 0)) expect(growths, `${fn}: the heap grew under the call`).toBeGreaterThan(0);
      // The module is still right.
      const r = tc.add({ data: f32(1, 2, 3), shape: [3] }, { data: f32(10, 20), shape: [2, 1] });
      expect(Array.from(r.data)).toEqual([11, 12, 13, 21, 22, 23]);
      tc = shared;
    });
  }
});

describe('the issue\'s repros', () => {
  beforeAll(() => { tc = shared; });
  it('broadcastTo: an axesMapping getter that frees out and allocates a victim is refused; the victim keeps its data', () => {
    const x = tc.tensor(f32(1, 2, 3), [3]);
    const out = tc.tensor(new Float32Array(6), [2, 3]);
    let victim = null;
    const am = [1];
    Object.defineProperty(am, 0, { get() { out.dispose(); victim = tc.tensor(new Float32Array(6).fill(0.5), [2, 3]); return 1; } });
    expect(() => tc.broadcastTo(x, [2, 3], { mode: 'explicit', axesMapping: am, out })).toThrow(/out was disposed while the call was reading its arguments/);
    expect(Array.from(victim.toArray())).toEqual([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
    victim.dispose();
    x.dispose();
  });

  it('unbroadcast: the same through a positional axesMapping', () => {
    const g = tc.tensor(iota(6), [2, 3]);
    const out = tc.tensor(new Float32Array(3), [3]);
    const victims = [];
    const am = [1];
    Object.defineProperty(am, 0, {
      get() {
        out.dispose();
        for (let i = 0; i < 64; i++) victims.push(tc.tensor(new Float32Array(3).fill(0.5), [3]));
        return 1;
      },
    });
    expect(() => tc.unbroadcast(g, [3], { mode: 'explicit', axesMapping: am, out })).toThrow(TypeError);
    for (const v of victims) {
      expect(Array.from(v.toArray())).toEqual([0.5, 0.5, 0.5]);
      v.dispose();
    }
    g.dispose();
    expect(tc.memory().liveTensors).toBe(0);
  });

  it('unbroadcast by name: a grad disposed by a getter of the input is named grad, as by position', () => {
    // Until 0.9.25 the named path (a reduction inside) said "unbroadcast: x was disposed ...".
    const g = tc.tensor(iota(6), [2, 3], { dims: ['a', 'b'] });
    const input = { dims: ['b'], get coords() { g.dispose(); return { b: ['x', 'y', 'z'] }; } };
    expect(() => tc.unbroadcast(g, input)).toThrow('unbroadcast: grad was disposed while the call was reading its arguments');
    const h = tc.tensor(iota(6), [2, 3]);
    const am = [1];
    Object.defineProperty(am, 0, { get() { h.dispose(); return 1; } });
    expect(() => tc.unbroadcast(h, [3], { mode: 'explicit', axesMapping: am })).toThrow('unbroadcast: grad was disposed while');
    expect(tc.memory().liveTensors).toBe(0);
  });

  it('broadcastArrays reads each operand once, and a refused operand leaves nothing behind', () => {
    let reads = 0;
    const a = { get data() { reads++; return reads === 1 ? f32(1, 2) : f32(9, 9); }, shape: [2, 1] };
    const r = tc.broadcastArrays(a, { data: f32(1, 2, 3), shape: [3] });
    expect(reads).toBe(1);
    expect(Array.from(r[0].data)).toEqual([1, 1, 1, 2, 2, 2]);
    const t = tc.tensor(f32(1, 2), [2, 1]);
    const live = tc.memory().liveTensors;
    // The second operand is refused (its data does not fill its shape): no result of the first is left alive.
    expect(() => tc.broadcastArrays(t, { data: f32(1, 2, 3), shape: [4] })).toThrow(tc.BroadcastError);
    expect(tc.memory().liveTensors).toBe(live);
    t.dispose();
  });

  it('broadcastArrays names the operand a later getter disposed as it names the others (#k), and makes no result', () => {
    // Until 0.9.25 the message said "broadcastArrays: x was disposed ...": a name the call has nowhere else.
    const t = tc.tensor(f32(1, 2), [2, 1]);
    const live = tc.memory().liveTensors;
    const b = { data: f32(1, 2, 3), get shape() { t.dispose(); return [3]; } };
    expect(() => tc.broadcastArrays({ data: f32(5), shape: [] }, t, b)).toThrow('broadcastArrays: #1 was disposed while the call was reading its arguments');
    expect(tc.memory().liveTensors).toBe(live - 1);
  });

  it('a plain operand whose resizable buffer grows while the options are read is refused, not overrun', () => {
    const buf = new ArrayBuffer(12, { maxByteLength: 4096 });
    const data = new Float32Array(buf);
    data.set([1, 2, 3]);
    const victims = [];
    const am = [0];
    Object.defineProperty(am, 0, { get() { buf.resize(4096); for (let i = 0; i < 16; i++) victims.push(tc.tensor(new Float32Array(64).fill(0.5), [64])); return 0; } });
    expect(() => tc.broadcastTo({ data, shape: [3] }, [3, 2], { mode: 'explicit', axesMapping: am })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    for (const v of victims) {
      expect(v.toArray().every((x) => x === 0.5)).toBe(true);
      v.dispose();
    }
  });
});

// After the commit check the library calls nothing of a caller's typed array:
// its kind, length, buffer and offset are read by %TypedArray%.prototype's
// own getters, a window of it is made by the constructor of its kind, and a
// typed out is written by the intrinsic set. A subclass, an own property or a
// species getter (user code that may allocate, dispose or call the library)
// cannot size a copy into the heap or run between the check and the engine.
describe('typed arrays whose methods and getters are the caller\'s', () => {
  beforeAll(() => { tc = shared; });
  const ramp = (n, C = Float32Array) => C.from({ length: n }, (_, i) => i);

  it('an own subarray that returns a larger array neither overruns the heap nor changes what a view reads', () => {
    const canaries = Array.from({ length: 16 }, (_, i) => tc.tensor(new Float32Array(256).fill(i), [256]));
    const d = ramp(60);
    d.subarray = () => new Float32Array(200000).fill(7);
    const r = tc.add(tc.transpose({ data: d, shape: [6, 10] }), 1);
    const want = tc.add(tc.transpose({ data: ramp(60), shape: [6, 10] }), 1);
    expect(Array.from(r.data)).toEqual(Array.from(want.data));
    // the streamed path (1 MiB or more, chunked) reads its chunks the same way
    const big = ramp(400000);
    big.subarray = () => new Float32Array(1 << 20).fill(7);
    for (let rep = 0; rep < 3; rep++) expect(tc.neg({ data: big }).data[399999]).toBe(-399999);
    canaries.forEach((t, i) => {
      expect(t.toArray().every((x) => x === i)).toBe(true);
      t.dispose();
    });
    expect(Array.from(tc.evaluate('a * b + 1', { a: { data: f32(1, 2) }, b: 3 }).data)).toEqual([4, 7]);
  });

  it('a species getter that calls the library or disposes an operand does not run inside a call', () => {
    let ran = 0;
    const t = tc.tensor(new Float32Array(40).fill(3), [10, 4]);
    class X extends Float32Array {
      static get [Symbol.species]() { ran++; t.dispose(); tc.add({ data: new Float32Array(40).fill(1000), shape: [10, 4] }, 0); return Float32Array; }
    }
    const b = X.from({ length: 40 }, (_, i) => 100 * i);
    const r = tc.add(t, tc.transpose({ data: b, shape: [4, 10] }));
    expect(Array.from(r.toArray().slice(0, 4))).toEqual([3, 1003, 2003, 3003]);
    expect(ran).toBe(0);
    r.dispose();
    t.dispose();
  });

  it('an own buffer or length is not what post-processing and the layout copies read, and a throwing one leaks nothing', () => {
    const d = f32(1, 2, 3, 4, 5, 6);
    Object.defineProperty(d, 'buffer', { value: new Float32Array(8).fill(-1).buffer });
    const plain = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    expect(Array.from(tc.contiguous({ data: d, shape: [2, 3] }).data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Array.from(tc.softmax({ data: d, shape: [2, 3] }).data)).toEqual(Array.from(tc.softmax(plain).data));
    const m0 = tc.memory().allocatedBytes;
    for (const f of [(x) => tc.softmax(x), (x) => tc.argmax(x), (x) => tc.topk(x, 2), (x) => tc.logSumExp(x)]) {
      const e = f32(1, 2, 3, 4, 5, 6);
      Object.defineProperty(e, 'length', { value: 999 });
      Object.defineProperty(e, 'BYTES_PER_ELEMENT', { value: 8 });
      const got = f({ data: e, shape: [2, 3] });
      const want = f(plain);
      expect(Array.from((got.values ?? got).data)).toEqual(Array.from((want.values ?? want).data));
    }
    expect(tc.memory().allocatedBytes).toBe(m0);
  });

  it('float16 bits in a Uint16Array of another realm stay float16 through the layout functions (until 0.9.23 instanceof dropped the mark)', async () => {
    const vm = await import('node:vm');
    const bits = vm.runInNewContext('Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x4400)'); // 1, 2, 3, 4
    const x = { data: bits, shape: [2, 2], dtype: 'float16' };
    for (const v of [tc.transpose(x), tc.flip(x), tc.slice(x, '1:'), tc.reshape(x, [4]), tc.expandDims(x, 0), tc.squeeze(tc.expandDims(x, 0))]) {
      expect(v.dtype).toBe('float16');
      expect(tc.sum(v, { dtype: 'float32' }).data[0]).toBe(v.shape.reduce((a, d) => a * d, 1) === 4 ? 10 : 7);
    }
    const out = vm.runInNewContext('new Uint16Array(4)');
    const r = tc.concat([x], 0, { out });
    expect(r.dtype).toBe('float16');
    expect(Array.from(out)).toEqual([0x3c00, 0x4000, 0x4200, 0x4400]);
  });

  it('a global typed-array constructor replaced after the library loaded changes nothing it does, and leaks nothing', () => {
    const F = Float32Array;
    const x = { data: F.of(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    const want = [tc.add(tc.transpose(x), 1), tc.contiguous(tc.flip(x)), tc.softmax(x)].map((r) => Array.from(r.data));
    const m0 = tc.memory().allocatedBytes;
    const U = Uint32Array; // the words a view's copy moves 4-byte elements as
    try {
      globalThis.Float32Array = function replaced() { throw new Error('the page\'s own constructor'); };
      globalThis.Uint32Array = globalThis.Float32Array;
      const got = [tc.add(tc.transpose(x), 1), tc.contiguous(tc.flip(x)), tc.softmax(x)].map((r) => Array.from(r.data));
      expect(got).toEqual(want);
    } finally {
      globalThis.Float32Array = F;
      globalThis.Uint32Array = U;
    }
    expect(tc.memory().allocatedBytes).toBe(m0);
  });

  it('a typed out in another SharedArrayBuffer object over an operand\'s memory is written as if the operand were read first', () => {
    const sab = new SharedArrayBuffer(40);
    const a = new Float32Array(sab, 0, 8);
    a.set([0, 1, 2, 3, 4, 5, 6, 7]);
    const out = new Float32Array(structuredClone(sab), 4, 8); // the same memory, as after postMessage
    tc.contiguous(tc.flip({ data: a }), { out });
    expect(Array.from(out)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    const N = 400000; // streamed in chunks from its second call on
    for (let rep = 0; rep < 3; rep++) {
      const s2 = new SharedArrayBuffer((N + 1) * 4);
      const x = new Float32Array(s2, 0, N);
      for (let i = 0; i < N; i++) x[i] = i % 1000;
      const o2 = new Float32Array(structuredClone(s2), 4, N);
      tc.neg({ data: x }, { out: o2 });
      expect(o2[32768]).toBe(-(32768 % 1000));
      expect(o2[N - 1]).toBe(-((N - 1) % 1000));
    }
  });
});

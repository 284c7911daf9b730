// Adapters: every peer behind one interface.
//
// adapter.binary(w, inputs) / adapter.broadcastTo(w, inputs) / adapter.shapes(w)
// / adapter.reduce(w, inputs) (the reduction sets; an adapter without it is
// left out of them) return { kernel, e2e, readKernel, notes } where
//   kernel:     { fn, async }  operands resident, output preallocated where the
//               library allows it (see notes)
//   e2e:        { fn, async }  JS typed arrays in, a JS typed array out; the fn
//               returns the output array
//   readKernel: () => typed array (or Promise) of the kernel path's output,
//               for the correctness check
// or throw Unsupported(reason).
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { binaryModel, expandModel, reduceSumModel } from './onnx.mjs';
import { plainReduce, tfSumOnce } from './reduce.mjs';
import * as plain from './plainjs.mjs';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(benchDir, 'package.json'));

export class Unsupported extends Error {}

const CTORS = { float32: Float32Array, int32: Int32Array, uint8: Uint8Array };
const numel = (s) => s.reduce((p, d) => p * d, 1);
const OPNAME = { add: 'Add', sub: 'Sub', mul: 'Mul', div: 'Div' };

export function version(pkg) {
  try {
    return JSON.parse(fs.readFileSync(path.join(benchDir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------------------
// plain JS
export const plainjs = {
  name: 'plain JS',
  async init() {},
  binary(w, { a, b }) {
    const out = new CTORS[w.dtype](numel(w.out));
    if (w.scalar !== undefined) {
      return {
        kernel: { fn: () => plain.scalar(w.op, w.dtype, a, w.scalar, out) },
        e2e: { fn: () => plain.scalar(w.op, w.dtype, a, w.scalar) },
        readKernel: () => plain.scalar(w.op, w.dtype, a, w.scalar, out),
      };
    }
    const sa = w.peerA || w.a;
    const sb = w.peerB || w.b;
    const run = plain.binaryPrepared(w.op, w.dtype, sa, sb);
    return {
      kernel: { fn: () => run(a, b, out) },
      e2e: { fn: () => plain.binary(w.op, w.dtype, a, sa, b, sb) },
      readKernel: () => (run(a, b, out), out),
    };
  },
  broadcastTo(w, { x }) {
    const sx = w.peerX || w.x;
    const out = new CTORS[w.dtype](numel(w.out));
    return {
      kernel: { fn: () => plain.broadcastTo(w.dtype, x, sx, w.out, out) },
      e2e: { fn: () => plain.broadcastTo(w.dtype, x, sx, w.out) },
      readKernel: () => plain.broadcastTo(w.dtype, x, sx, w.out, out),
      notes: 'TypedArray set/fill per row, copyWithin doubling for repeated blocks',
    };
  },
  shapes(w) {
    if (w.pairs) {
      let i = 0;
      return { fn: () => { const p = w.pairs[i++ & 7]; return plain.broadcastShapes(p[0], p[1]); } };
    }
    return { fn: () => plain.broadcastShapes(w.shapes[0], w.shapes[1]) };
  },
  reduce(w, { x }) {
    const n = numel(w.out);
    const out = new Float32Array(n);
    const scratch = new Float64Array(n);
    return {
      kernel: { fn: () => plainReduce(x, w.x, w.axes, out, scratch) },
      e2e: { fn: () => plainReduce(x, w.x, w.axes) },
      readKernel: () => plainReduce(x, w.x, w.axes, out, scratch).slice(),
      notes: 'a control: float64 accumulators, the innermost axis a plain loop, the others an odometer',
    };
  },
};

// plain JS materialising with element loops only (for comparison with the
// set/copyWithin copy above; broadcastTo sets only)
export const plainloop = {
  name: 'plain JS (element loop)',
  only: ['broadcastTo'],
  async init() {},
  broadcastTo(w, { x }) {
    const sx = w.peerX || w.x;
    const out = new CTORS[w.dtype](numel(w.out));
    return {
      kernel: { fn: () => plain.broadcastToLoop(w.dtype, x, sx, w.out, out) },
      e2e: { fn: () => plain.broadcastToLoop(w.dtype, x, sx, w.out) },
      readKernel: () => plain.broadcastToLoop(w.dtype, x, sx, w.out, out),
    };
  },
};

// ---------------------------------------------------------------------------
// TensorFlow.js, WebAssembly backend (SIMD build, one thread)
let tf = null;
export const tfjs = {
  name: 'tfjs-wasm',
  info: '',
  async init() {
    if (tf) return;
    // tfjs-core greets Node users on the console; keep stdout for the bench.
    const log = console.log;
    console.log = () => {};
    try {
      tf = require('@tensorflow/tfjs-core');
      const wasmBackend = require('@tensorflow/tfjs-backend-wasm');
      wasmBackend.setWasmPaths(path.join(benchDir, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + '/');
    } finally {
      console.log = log;
    }
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    tf.enableProdMode();
    // Record which .wasm the backend reads, to prove the SIMD build is in use.
    const loaded = [];
    const orig = fs.readFile;
    fs.readFile = function (f, ...rest) {
      loaded.push(String(f));
      return orig.call(this, f, ...rest);
    };
    const origSync = fs.readFileSync;
    fs.readFileSync = function (f, ...rest) {
      loaded.push(String(f));
      return origSync.call(this, f, ...rest);
    };
    try {
      if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: setBackend(wasm) failed');
      await tf.ready();
    } finally {
      fs.readFile = orig;
      fs.readFileSync = origSync;
    }
    const wasmFile = loaded.map((f) => path.basename(f)).find((f) => f.endsWith('.wasm'));
    const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
    const threads = tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT');
    if (!simd || threads || wasmFile !== 'tfjs-backend-wasm-simd.wasm') {
      throw new Error(`tfjs-wasm: expected the SIMD single-thread build, got simd=${simd} threads=${threads} file=${wasmFile}`);
    }
    this.info = `${wasmFile}, SIMD on, threads off`;
  },
  binary(w, { a, b }) {
    if (w.dtype === 'uint8') throw new Unsupported('no uint8 dtype');
    const fn = tf[w.op];
    const sa = w.peerA || w.a;
    const ta = tf.tensor(a, sa, w.dtype);
    if (w.scalar !== undefined) {
      const ts = tf.scalar(w.scalar, w.dtype);
      return {
        kernel: { fn: () => fn(ta, ts).dispose() },
        e2e: { fn: () => tfE2E([tf.tensor(a, sa, w.dtype)], (x) => fn(x, w.scalar)) },
        readKernel: () => read(fn(ta, ts)),
        notes: 'output allocated by tfjs on every call (no `out`)',
      };
    }
    const sb = w.peerB || w.b;
    const tb = tf.tensor(b, sb, w.dtype);
    return {
      kernel: { fn: () => fn(ta, tb).dispose() },
      e2e: { fn: () => tfE2E([tf.tensor(a, sa, w.dtype), tf.tensor(b, sb, w.dtype)], fn) },
      readKernel: () => read(fn(ta, tb)),
      notes: 'output allocated by tfjs on every call (no `out`)',
    };
  },
  broadcastTo(w, { x }) {
    if (w.dtype === 'uint8') throw new Unsupported('no uint8 dtype');
    const sx = w.peerX || w.x;
    const tx = tf.tensor(x, sx, w.dtype);
    return {
      kernel: { fn: () => tf.broadcastTo(tx, w.out).dispose() },
      e2e: { fn: () => tfE2E([tf.tensor(x, sx, w.dtype)], (t) => tf.broadcastTo(t, w.out)) },
      readKernel: () => read(tf.broadcastTo(tx, w.out)),
      notes: 'output allocated by tfjs on every call',
    };
  },
  shapes(w) {
    const f = tf.backend_util.assertAndGetBroadcastShape;
    if (w.pairs) {
      let i = 0;
      return { fn: () => { const p = w.pairs[i++ & 7]; return f(p[0], p[1]); } };
    }
    return { fn: () => f(w.shapes[0], w.shapes[1]) };
  },
  // tf.sum(x, axes) (unbroadcast: with keepDims, then reshaped to inShape),
  // the result read with dataSync (a copy out of the wasm heap) and disposed.
  reduce(w, { x }) {
    const unb = w.op === 'unbroadcast';
    const tx = tf.tensor(x, w.x, 'float32');
    const once = tfSumOnce(tf, w);
    return {
      kernel: { fn: () => once(tx) },
      e2e: {
        fn: () => {
          const t = tf.tensor(x, w.x, 'float32');
          const d = once(t);
          t.dispose();
          return d;
        },
      },
      readKernel: () => once(tx),
      notes: `${unb ? 'tf.sum(x, axes, keepDims = true) + tf.reshape to inShape' : 'tf.sum(x, axes)'}; kernel: x a tfjs tensor on the wasm backend, result read with dataSync and disposed; e2e: + tf.tensor(data) and its dispose`,
    };
  },
};

function read(t) {
  const d = t.dataSync().slice();
  t.dispose();
  return d;
}

function tfE2E(ins, f) {
  // Dispose by hand: tf.tidy would walk the returned 1M-element array looking
  // for tensors. dataSync copies the output out of the wasm heap.
  const out = f(...ins);
  const d = out.dataSync();
  out.dispose();
  for (const t of ins) t.dispose();
  return d;
}

// ---------------------------------------------------------------------------
// ONNX Runtime: web (wasm, one thread) and node (native CPU, one thread)
let ortWeb = null;
let ortNode = null;

function makeOrt(name, load, sessionOptions, { preallocOut }) {
  return {
    name,
    info: '',
    ort: null,
    async init() {
      if (!this.ort) this.ort = await load(this);
    },
    async session(bytes) {
      return this.ort.InferenceSession.create(bytes, sessionOptions());
    },
    async binary(w, { a, b }) {
      const ort = this.ort;
      if (w.dtype === 'uint8') throw new Unsupported('Add/Mul have no uint8 kernel at opset 13');
      const sa = w.peerA || w.a;
      const sb = w.scalar !== undefined ? [] : (w.peerB || w.b);
      const bData = w.scalar !== undefined ? CTORS[w.dtype].of(w.scalar) : b;
      const s = await this.session(binaryModel(OPNAME[w.op], sa, sb, w.out, w.dtype));
      const A = new ort.Tensor(w.dtype, a, sa);
      const B = new ort.Tensor(w.dtype, bData, sb);
      return this.wrap(s, { A, B }, () => ({ A: new ort.Tensor(w.dtype, a, sa), B: new ort.Tensor(w.dtype, bData, sb) }), 'C', w);
    },
    async broadcastTo(w, { x }) {
      const ort = this.ort;
      if (w.dtype === 'uint8') throw new Unsupported('not measured for uint8');
      const sx = w.peerX || w.x;
      const s = await this.session(expandModel(sx, w.out, w.dtype));
      const X = new ort.Tensor(w.dtype, x, sx);
      return this.wrap(s, { X }, () => ({ X: new ort.Tensor(w.dtype, x, sx) }), 'Y', w);
    },
    // ReduceSum (opset 13, axes as an int64 initializer input; keepdims 0 for
    // sum, 1 for unbroadcast: the output is then inShape's data, its shape the
    // keepdims shape, a reshape away). Output read as `.data`.
    async reduce(w, { x }) {
      const ort = this.ort;
      const { bytes } = reduceSumModel(w.x, w.axes, w.op === 'unbroadcast');
      const s = await this.session(bytes);
      const X = new ort.Tensor('float32', x, w.x);
      const run = async (feeds) => (await s.run(feeds)).Y.data;
      const feeds = { X };
      return {
        kernel: { async: true, fn: () => run(feeds) },
        e2e: { async: true, fn: () => run({ X: new ort.Tensor('float32', x, w.x) }) },
        readKernel: () => run(feeds),
        notes: `ReduceSum, keepdims=${w.op === 'unbroadcast' ? 1 : 0}; kernel: x an ort.Tensor made once${this.name === 'ort-web' ? ' (copied into the wasm heap on every run: CPU tensors cannot stay resident)' : ''}, output read; e2e: + a new ort.Tensor per call`,
      };
    },
    wrap(s, feeds, freshFeeds, outName, w) {
      const ort = this.ort;
      const e2e = { async: true, fn: async () => (await s.run(freshFeeds()))[outName].data };
      if (preallocOut) {
        const out = new ort.Tensor(w.dtype, new CTORS[w.dtype](numel(w.out)), w.out);
        const fetches = { [outName]: out };
        return {
          kernel: { async: true, fn: () => s.run(feeds, fetches) },
          e2e,
          readKernel: async () => ((await s.run(feeds, fetches)), out.data),
          notes: 'kernel: inputs and output are JS-side tensors; output preallocated',
        };
      }
      return {
        kernel: { async: true, fn: () => s.run(feeds) },
        e2e,
        readKernel: async () => (await s.run(feeds))[outName].data,
        notes: this.name === 'ort-web'
          ? 'kernel: inputs copied into the wasm heap and the output out of it on every run (CPU tensors cannot stay resident; a preallocated CPU output is not written back)'
          : 'kernel: output allocated by ORT (a preallocated output made the outer case ~20× slower)',
      };
    },
  };
}

export const ortweb = makeOrt('ort-web', async (self) => {
  if (!ortWeb) {
    const entry = require.resolve('onnxruntime-web').replace(/ort\.node\.min\.js$/, 'ort.node.min.mjs');
    ortWeb = await import(entry);
    ortWeb.env.wasm.numThreads = 1;
    ortWeb.env.wasm.simd = true;
    ortWeb.env.logLevel = 'error';
  }
  // Create a first session so the wasm runtime is up, then check the settings.
  await ortWeb.InferenceSession.create(binaryModel('Add', [1], [1], [1]), { executionProviders: ['wasm'] });
  if (ortWeb.env.wasm.numThreads !== 1) throw new Error('ort-web: numThreads is not 1');
  self.info = `ort-wasm-simd-threaded.wasm, numThreads=${ortWeb.env.wasm.numThreads}`;
  return ortWeb;
}, () => ({ executionProviders: ['wasm'], graphOptimizationLevel: 'all' }), { preallocOut: false });

export const ortnode = makeOrt('ort-node (native)', async (self) => {
  if (!ortNode) ortNode = require('onnxruntime-node');
  self.info = 'native CPU EP, intra/inter-op threads 1';
  return ortNode;
}, () => ({ executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' }), { preallocOut: false });

// ---------------------------------------------------------------------------
// @stdlib/ndarray (the namespace package): base/binary with a JS callback over
// broadcast views, base/assign to materialise.
let sl = null;
export const stdlib = {
  name: '@stdlib/ndarray',
  async init() {
    if (sl) return;
    sl = {
      ndarray: require('@stdlib/ndarray/ctor'),
      broadcastArrays: require('@stdlib/ndarray/broadcast-arrays'),
      broadcastArray: require('@stdlib/ndarray/broadcast-array'),
      binary: require('@stdlib/ndarray/base/binary'),
      unary: require('@stdlib/ndarray/base/unary'),
      assign: require('@stdlib/ndarray/base/assign'),
      broadcastShapes: require('@stdlib/ndarray/base/broadcast-shapes'),
      shape2strides: require('@stdlib/ndarray/base/shape2strides'),
    };
  },
  arr(dtype, data, shape) {
    return new sl.ndarray(dtype, data, shape, sl.shape2strides(shape, 'row-major'), 0, 'row-major');
  },
  binary(w, { a, b }) {
    const f = OPFN[w.op];
    const sa = w.peerA || w.a;
    const outN = numel(w.out);
    const out = this.arr(w.dtype, new CTORS[w.dtype](outN), w.out);
    if (w.scalar !== undefined) {
      const s = w.scalar;
      const g = (x) => f(x, s);
      const x = this.arr(w.dtype, a, sa);
      return {
        kernel: { fn: () => sl.unary([x, out], g) },
        e2e: {
          fn: () => {
            const o = this.arr(w.dtype, new CTORS[w.dtype](outN), w.out);
            sl.unary([this.arr(w.dtype, a, sa), o], g);
            return o.data;
          },
        },
        readKernel: () => (sl.unary([x, out], g), out.data),
        notes: 'base/unary with a JS callback',
      };
    }
    const sb = w.peerB || w.b;
    const [x, y] = sl.broadcastArrays([this.arr(w.dtype, a, sa), this.arr(w.dtype, b, sb)]);
    return {
      kernel: { fn: () => sl.binary([x, y, out], f) },
      e2e: {
        fn: () => {
          const [u, v] = sl.broadcastArrays([this.arr(w.dtype, a, sa), this.arr(w.dtype, b, sb)]);
          const o = this.arr(w.dtype, new CTORS[w.dtype](outN), w.out);
          sl.binary([u, v, o], f);
          return o.data;
        },
      },
      readKernel: () => (sl.binary([x, y, out], f), out.data),
      notes: 'broadcast-arrays + base/binary with a JS callback',
    };
  },
  broadcastTo(w, { x }) {
    const sx = w.peerX || w.x;
    const outN = numel(w.out);
    const v = sl.broadcastArray(this.arr(w.dtype, x, sx), w.out);
    const out = this.arr(w.dtype, new CTORS[w.dtype](outN), w.out);
    return {
      kernel: { fn: () => sl.assign([v, out]) },
      e2e: {
        fn: () => {
          const o = this.arr(w.dtype, new CTORS[w.dtype](outN), w.out);
          sl.assign([sl.broadcastArray(this.arr(w.dtype, x, sx), w.out), o]);
          return o.data;
        },
      },
      readKernel: () => (sl.assign([v, out]), out.data),
      notes: 'broadcast-array + base/assign',
    };
  },
  shapes(w) {
    if (w.pairs) {
      let i = 0;
      return { fn: () => sl.broadcastShapes(w.pairs[i++ & 7]) };
    }
    const list = [w.shapes[0], w.shapes[1]];
    return { fn: () => sl.broadcastShapes(list) };
  },
};

const OPFN = {
  add: (x, y) => x + y,
  sub: (x, y) => x - y,
  mul: (x, y) => x * y,
  div: (x, y) => x / y,
};

// ---------------------------------------------------------------------------
// ndarray + ndarray-ops: stride-0 views for the stretched axes.
let nd = null;
let ops = null;
export const ndarrayops = {
  name: 'ndarray-ops',
  async init() {
    if (nd) return;
    nd = require('ndarray');
    ops = require('ndarray-ops');
  },
  view(data, shape, outShape) {
    // A view of `data` (shape) broadcast to outShape: stride 0 on stretched axes.
    const n = outShape.length;
    const stride = new Array(n).fill(0);
    let acc = 1;
    for (let i = shape.length - 1; i >= 0; i--) {
      const o = i + n - shape.length;
      stride[o] = shape[i] === 1 && outShape[o] !== 1 ? 0 : acc;
      acc *= shape[i];
    }
    return nd(data, outShape.slice(), stride, 0);
  },
  binary(w, { a, b }) {
    const outN = numel(w.out);
    const out = nd(new CTORS[w.dtype](outN), w.out.slice());
    const sa = w.peerA || w.a;
    if (w.scalar !== undefined) {
      const f = ops[`${w.op}s`];
      const x = this.view(a, sa, w.out);
      return {
        kernel: { fn: () => f(out, x, w.scalar) },
        e2e: {
          fn: () => {
            const o = nd(new CTORS[w.dtype](outN), w.out.slice());
            f(o, this.view(a, sa, w.out), w.scalar);
            return o.data;
          },
        },
        readKernel: () => (f(out, x, w.scalar), out.data),
      };
    }
    const f = ops[w.op];
    const sb = w.peerB || w.b;
    const x = this.view(a, sa, w.out);
    const y = this.view(b, sb, w.out);
    return {
      kernel: { fn: () => f(out, x, y) },
      e2e: {
        fn: () => {
          const o = nd(new CTORS[w.dtype](outN), w.out.slice());
          f(o, this.view(a, sa, w.out), this.view(b, sb, w.out));
          return o.data;
        },
      },
      readKernel: () => (f(out, x, y), out.data),
    };
  },
  broadcastTo(w, { x }) {
    const sx = w.peerX || w.x;
    const outN = numel(w.out);
    const v = this.view(x, sx, w.out);
    const out = nd(new CTORS[w.dtype](outN), w.out.slice());
    return {
      kernel: { fn: () => ops.assign(out, v) },
      e2e: {
        fn: () => {
          const o = nd(new CTORS[w.dtype](outN), w.out.slice());
          ops.assign(o, this.view(x, sx, w.out));
          return o.data;
        },
      },
      readKernel: () => (ops.assign(out, v), out.data),
    };
  },
};

export const PEERS = [tfjs, ortweb, stdlib, ndarrayops, plainjs, plainloop, ortnode];
export const WASM_PEERS = new Set(['tfjs-wasm', 'ort-web']);

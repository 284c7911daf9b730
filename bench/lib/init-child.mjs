// Start-up cost in a fresh Node process: `node bench/lib/init-child.mjs <lib>`
// prints { importMs, initMs, importWallMs, initWallMs }: the time to import the
// library's modules, and the time from there until it can compute (tensorcast: init(); tfjs:
// setBackend('wasm') + ready(); ORT: the first InferenceSession.create of a
// one-node Add model, which is when ORT loads its runtime).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { binaryModel } from './onnx.mjs';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(benchDir, 'package.json'));
const lib = process.argv[2];
// Each mark reads both clocks; the figures are min(wall, process CPU time),
// the bench's clock (bench/lib/timing.mjs): on a shared machine a process that
// waits for a core shows it in wall time only. The wall figures are kept too.
const marks = [];
const now = () => {
  const u = process.cpuUsage();
  marks.push({ wall: performance.now(), cpu: (u.user + u.system) / 1000 });
  return marks.length - 1;
};
let t0;
let t1;
let t2;

if (lib === 'tensorcast') {
  t0 = now();
  const tc = await import(pathToFileURL(path.join(benchDir, '..', 'dist', 'node.js')).href);
  t1 = now();
  await tc.init();
  t2 = now();
} else if (lib === 'tfjs-wasm') {
  const log = console.log;
  console.log = () => {};
  t0 = now();
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  t1 = now();
  console.log = log;
  wasm.setWasmPaths(path.join(benchDir, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + '/');
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.enableProdMode();
  await tf.setBackend('wasm');
  await tf.ready();
  t2 = now();
} else if (lib === 'ort-web') {
  const model = binaryModel('Add', [4], [4], [4]);
  t0 = now();
  const ort = await import(require.resolve('onnxruntime-web').replace(/ort\.node\.min\.js$/, 'ort.node.min.mjs'));
  t1 = now();
  ort.env.wasm.numThreads = 1;
  await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
  t2 = now();
} else if (lib === 'ort-node (native)') {
  const model = binaryModel('Add', [4], [4], [4]);
  t0 = now();
  const ort = require('onnxruntime-node');
  t1 = now();
  await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  t2 = now();
} else {
  throw new Error(`unknown lib ${lib}`);
}
const span = (a, b, k) => marks[b][k] - marks[a][k];
const min = (a, b) => Math.min(span(a, b, 'wall'), span(a, b, 'cpu'));
process.stdout.write(JSON.stringify({ importMs: min(t0, t1), initMs: min(t1, t2), importWallMs: span(t0, t1, 'wall'), initWallMs: span(t1, t2, 'wall') }) + '\n');
process.exit(0);

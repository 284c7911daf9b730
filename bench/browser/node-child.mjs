// One group of bench/browser/groups.mjs in a fresh Node process:
//   node bench/browser/node-child.mjs <group> [--quick]
// prints one JSON line: the group's figures, plus this process's import and
// init() times of tensorcast.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runGroup } from './groups.mjs';
import { clockStep } from '../lib/wall.mjs';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(benchDir, 'package.json'));
const [group, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');

const t0 = performance.now();
const tc = await import(pathToFileURL(path.join(benchDir, '..', 'dist', 'node.js')).href);
const t1 = performance.now();
await tc.init();
const t2 = performance.now();

let tf = null;
let tfInfo = 'not loaded';
try {
  const log = console.log;
  console.log = () => {};
  try {
    tf = require('@tensorflow/tfjs-core');
    require('@tensorflow/tfjs-backend-wasm').setWasmPaths(path.join(benchDir, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + '/');
  } finally {
    console.log = log;
  }
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.enableProdMode();
  if (!(await tf.setBackend('wasm'))) throw new Error('setBackend(wasm) failed');
  await tf.ready();
  tfInfo = `tfjs-wasm ${tf.version_core}, SIMD ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? 'on' : 'off'}, threads ${tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'on' : 'off'}`;
} catch (e) {
  tf = null;
  tfInfo = `tfjs-wasm did not load: ${e.message}`;
}

const r = await runGroup(group, { tc, tf }, quick ? { runs: 7, warmupMs: 60 } : {});
r.env = { name: 'Node', version: process.version, tf: tfInfo, clockStepMs: clockStep(), importMs: t1 - t0, initMs: t2 - t1 };
process.stdout.write(JSON.stringify(r) + '\n');
process.exit(0);

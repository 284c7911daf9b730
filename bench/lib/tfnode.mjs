// TensorFlow.js on its wasm backend (SIMD, one thread) in a Node process, for
// the groups that run the same code in Node and Chromium (bench/browser/,
// bench/fused/). Returns { tf, info }; tf is null (and info says why) if it did
// not load.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(benchDir, 'package.json'));

export async function loadTfNode() {
  try {
    let tf;
    const log = console.log;
    console.log = () => {}; // tfjs-core greets Node users on stdout
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
    return { tf, info: `tfjs-wasm ${tf.version_core}, SIMD ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? 'on' : 'off'}, threads ${tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'on' : 'off'}` };
  } catch (e) {
    return { tf: null, info: `tfjs-wasm did not load: ${e.message}` };
  }
}

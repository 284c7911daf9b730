// Node entry: the ES6 glue would fetch() a file path, so hand it the bytes.
import { readFileSync } from 'node:fs';
import { init as initCore, initSync as initSyncCore, initPromise, checkInitOptions, isReady } from './loader.js';

export * from './index.js';

const wasmFile = () => readFileSync(new URL('./tensorcast.wasm', import.meta.url));

/**
 * Load the engine; with no options, reads tensorcast.wasm from this package.
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|Uint8Array, module?: WebAssembly.Module}} [options]
 */
export function init(options) {
  const o = checkInitOptions(options, 'init');
  if (initPromise()) return initPromise();
  if (o.wasmBinary === undefined && o.module === undefined && o.wasmUrl === undefined) return initCore({ wasmBinary: wasmFile() });
  if (o.wasmUrl !== undefined && o.wasmBinary === undefined && o.module === undefined) {
    const u = o.wasmUrl instanceof URL ? o.wasmUrl : new URL(o.wasmUrl, 'file://' + process.cwd() + '/');
    if (u.protocol !== 'file:') return initCore(o);
    let bytes;
    // A file that cannot be read is a failed load, as a failed fetch is in a browser: reject.
    try { bytes = readFileSync(u); } catch (e) { return Promise.reject(new Error(`tensorcast: could not load the engine from ${u.href} (${e.code ?? e.message})`, { cause: e })); }
    return initCore({ wasmBinary: bytes });
  }
  return initCore(o);
}

/** Load the engine synchronously; with no options, from this package's tensorcast.wasm. */
export function initSync(options) {
  const o = checkInitOptions(options, 'initSync');
  if (isReady()) return;
  if (o.wasmBinary === undefined && o.module === undefined) return initSyncCore({ wasmBinary: wasmFile() });
  return initSyncCore(o);
}

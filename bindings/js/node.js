// Node entry: the ES6 glue would fetch() a file path, so hand it the bytes.
import { readFileSync } from 'node:fs';
import { init as initCore, initPromise, checkInitOptions } from './core.js';

export * from './index.js';

/**
 * Load the engine; with no options, reads tensorcast.wasm from this package.
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|Uint8Array, module?: WebAssembly.Module}} [options]
 */
export function init(options) {
  checkInitOptions(options);
  if (initPromise()) return initPromise();
  if (options === undefined || (options.wasmBinary === undefined && options.module === undefined && options.wasmUrl === undefined)) {
    return initCore({ wasmBinary: readFileSync(new URL('./tensorcast.wasm', import.meta.url)) });
  }
  if (options.wasmUrl !== undefined && options.wasmBinary === undefined && options.module === undefined) {
    const u = options.wasmUrl instanceof URL ? options.wasmUrl : new URL(options.wasmUrl, 'file://' + process.cwd() + '/');
    let bytes;
    // A file that cannot be read is a failed load, as a failed fetch is in a browser: reject.
    try { bytes = readFileSync(u); } catch (e) { return Promise.reject(e); }
    return initCore({ wasmBinary: bytes });
  }
  return initCore(options);
}

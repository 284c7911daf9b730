// Node entry: the ES6 glue would fetch() a file path, so hand it the bytes.
import { readFileSync } from 'node:fs';
import { init as initCore, initPromise } from './core.js';

export * from './index.js';

/**
 * Load the engine; with no options, reads tensorcast.wasm from this package.
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|Uint8Array, module?: WebAssembly.Module}} [options]
 */
export function init(options) {
  if (initPromise()) return initPromise();
  if (options === undefined || (options && options.wasmBinary === undefined && options.module === undefined && options.wasmUrl === undefined)) {
    return initCore({ wasmBinary: readFileSync(new URL('./tensorcast.wasm', import.meta.url)) });
  }
  if (options && options.wasmUrl !== undefined && options.wasmBinary === undefined && options.module === undefined) {
    const u = options.wasmUrl instanceof URL ? options.wasmUrl : new URL(String(options.wasmUrl), 'file://' + process.cwd() + '/');
    return initCore({ wasmBinary: readFileSync(u) });
  }
  return initCore(options);
}

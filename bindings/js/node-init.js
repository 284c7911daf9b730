// Node's init() and initSync(): fetch() cannot read a file path, so files
// are read here and handed over compiled. The loading itself (one
// engine, its states, a failed load retried from scratch) is loader.js's;
// this file only says where the module comes from. Shared by the Node entries
// of 'tensorcast' (node.js) and 'tensorcast/shapes' (shapes-node.js), each
// reading its own engine's file (engine.js).
import { readFileSync } from 'node:fs';
import { initWith, initSyncWith, moduleFrom, compileModule, compileModuleSync } from './loader.js';
import { ENGINE } from './engine.js';

/** This package's engine file, beside this module: a bundle that is not ESM (esbuild's cjs or iife) has no import.meta.url to find it by. */
function packageWasm() {
  try {
    return ENGINE.url();
  } catch (e) {
    throw new Error(`tensorcast: cannot find ${ENGINE.file}: this bundle has no import.meta.url (the ESM entry bundled as CommonJS or IIFE); pass init({ wasmUrl }) or initSync({ wasmBinary }), or use tensorcast/inline`, { cause: e });
  }
}

// A file that cannot be read is a failed load, as a failed fetch is in a browser.
function readEngine(u) {
  try {
    return readFileSync(u);
  } catch (e) {
    throw new Error(`tensorcast: could not load the engine from ${u.href} (${e.code ?? e.message})`, { cause: e });
  }
}

// init()'s source in Node: { module } and { wasmBinary } as anywhere; a file:
// wasmUrl (or a path, relative to the working directory) is read; another URL
// is fetched; no source at all reads this package's engine (engine.js: tensorcast.wasm, or tensorcast-shapes.wasm for tensorcast/shapes).
function nodeModule(o) {
  if (o.module !== undefined || o.wasmBinary !== undefined) return moduleFrom(o);
  if (o.wasmUrl === undefined) {
    const u = packageWasm();
    return compileModule(readEngine(u), u.href);
  }
  const u = o.wasmUrl instanceof URL ? o.wasmUrl : new URL(o.wasmUrl, 'file://' + process.cwd() + '/');
  if (u.protocol !== 'file:') return moduleFrom(o);
  return compileModule(readEngine(u), u.href);
}

// initSync()'s source in Node: { module }, { wasmBinary }, else this package's tensorcast.wasm.
function nodeModuleSync(o) {
  if (o.module !== undefined) return o.module;
  if (o.wasmBinary !== undefined) return compileModuleSync(o.wasmBinary, 'options.wasmBinary');
  const u = packageWasm();
  return compileModuleSync(readEngine(u), u.href);
}

/**
 * Load the engine; with no options, reads its .wasm from this package.
 * One load, one engine: see init() in loader.js (concurrent calls share the
 * promise; a failed load rejects once and may be retried; initSync() during a
 * pending init() installs its engine and resolves that promise).
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|Uint8Array, module?: WebAssembly.Module}} [options]
 * @returns {Promise<void>}
 */
export function init(options) {
  return initWith(options, nodeModule);
}

/**
 * Load the engine synchronously; with no options, from this package's
 * .wasm (tensorcast.wasm; tensorcast-shapes.wasm for tensorcast/shapes). During a pending init() it installs its own engine and
 * that init() resolves to it (see initSync() in loader.js).
 * @param {{wasmBinary?: ArrayBuffer|Uint8Array, module?: WebAssembly.Module}} [options]
 */
export function initSync(options) {
  initSyncWith(options, nodeModuleSync);
}

// Node's init() and initSync(): fetch() cannot read a file path, so files
// are read here and handed over compiled. The loading itself (one
// engine, its states, a failed load retried from scratch) is loader.js's;
// this file only says where the module comes from. Shared by the Node entries
// of 'tensorcast' (node.js) and 'tensorcast/shapes' (shapes-node.js), each
// reading its own engine's file (engine.js).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initWith, initSyncWith, moduleFrom, compileModule, compileModuleSync } from './loader.js';
import { ENGINE } from './engine.js';

/** This package's engine file, beside this module: a bundle that is not ESM (esbuild's cjs or iife) has no import.meta.url to find it by. */
function packageWasm() {
  try {
    return ENGINE.url();
  } catch (e) {
    throw new Error(`tensorcast: cannot find ${ENGINE.file}: this bundle has no import.meta.url (the ESM entry bundled as CommonJS or IIFE); pass init({ wasmUrl }) or initSync({ wasmBinary })${ENGINE.build === 'full' ? ', or use tensorcast/inline' : ''}`, { cause: e });
  }
}

// A file that cannot be read is a failed load, as a failed fetch is in a browser,
// and says what to do: the package's own file is missing where an app was
// bundled without copying it; a wasmUrl of the caller's names the wrong file.
function readEngine(u, own) {
  try {
    return readFileSync(u);
  } catch (e) {
    const fix = own
      ? `a bundled app: copy ${ENGINE.file} (from the package's dist/) beside the bundle, or pass init({ wasmUrl }) or initSync({ wasmBinary })${ENGINE.build === 'full' ? ', or use tensorcast/inline' : ''}`
      : 'check options.wasmUrl (a file path, relative to the working directory, or a URL)';
    throw new Error(`tensorcast: could not load the engine from ${u.href} (${e.code ?? e.message}); ${fix}`, { cause: e });
  }
}

// options.wasmUrl in Node: a URL object, or a string with a scheme (file:,
// http:, ...), is a URL; any other string is a file path, taken as it is
// written ('#' and '%' are file name characters there; a scheme has two letters
// or more, so C:\ is a drive).
function wasmFile(s) {
  return s instanceof URL ? s : /^[a-z][a-z\d+.-]+:/i.test(s) ? new URL(s) : pathToFileURL(resolve(s));
}

// init()'s source in Node: { module } and { wasmBinary } as anywhere; a file:
// wasmUrl (or a path, relative to the working directory) is read; another URL
// is fetched; no source at all reads this package's engine (engine.js: tensorcast.wasm, or tensorcast-shapes.wasm for tensorcast/shapes).
function nodeModule(o) {
  if (o.module !== undefined || o.wasmBinary !== undefined) return moduleFrom(o);
  if (o.wasmUrl === undefined) {
    const u = packageWasm();
    return compileModule(readEngine(u, true), u.href);
  }
  const u = wasmFile(o.wasmUrl);
  if (u.protocol !== 'file:') return moduleFrom(o);
  return compileModule(readEngine(u, false), u.href);
}

// initSync()'s source in Node: { module }, { wasmBinary }, else this package's tensorcast.wasm.
function nodeModuleSync(o) {
  if (o.module !== undefined) return o.module;
  if (o.wasmBinary !== undefined) return compileModuleSync(o.wasmBinary, 'options.wasmBinary');
  const u = packageWasm();
  return compileModuleSync(readEngine(u, true), u.href);
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

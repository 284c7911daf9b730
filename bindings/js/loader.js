// Loading the WebAssembly module: init() (async, any environment) and
// initSync() (synchronous, from bytes or a compiled module). Both end in
// buildContract(): every table the JS layer uses comes from the module.
import createTensorcastModule from './tensorcast.mjs';
import { buildContract } from './contract.js';
import { refreshRequest } from './wire.js';

let M = null;
let loading = null;

const RECIPE = 'serve tensorcast.wasm beside the bundle and pass its address as init({ wasmUrl }), '
  + "or import 'tensorcast/inline', which carries the wasm inside the JavaScript (see the README's bundler recipes)";

/**
 * Load the engine. Idempotent: later calls return the same promise.
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|ArrayBufferView, module?: WebAssembly.Module}} [options]
 */
export function init(options) {
  const o = checkInitOptions(options, 'init');
  if (M) return loading ?? (loading = Promise.resolve());
  if (loading) return loading;
  loading = (async () => {
    let module = o.module;
    if (!module && o.wasmBinary) module = await WebAssembly.compile(bytesOf(o.wasmBinary));
    if (!module) module = await fetchModule(o.wasmUrl ?? new URL('./tensorcast.wasm', import.meta.url));
    const cfg = { instantiateWasm: (imports, done) => {
      WebAssembly.instantiate(module, imports).then((inst) => done(inst, module));
      return {};
    } };
    const inst = await createTensorcastModule(cfg);
    finish(inst);
  })().catch((e) => {
    loading = null; // a failed load may be retried with other options
    throw e;
  });
  return loading;
}

/**
 * Load the engine synchronously from its bytes or a compiled module (build
 * tools, CLIs, CommonJS, tests). Browsers allow synchronous compilation of a
 * module this size on the main thread. Idempotent.
 * @param {{wasmBinary?: ArrayBuffer|ArrayBufferView, module?: WebAssembly.Module}} options
 */
export function initSync(options) {
  const o = checkInitOptions(options, 'initSync');
  if (M) return;
  if (!o.module && !o.wasmBinary) throw new TypeError('initSync: pass { wasmBinary } (the bytes of tensorcast.wasm) or { module } (a WebAssembly.Module)');
  const module = o.module ?? new WebAssembly.Module(bytesOf(o.wasmBinary));
  const cfg = { instantiateWasm: (imports, done) => {
    const inst = new WebAssembly.Instance(module, imports);
    done(inst, module);
    return inst.exports;
  } };
  createTensorcastModule(cfg);
  // The glue runs to completion synchronously when instantiation does.
  if (!cfg.calledRun) throw new Error('tensorcast: initSync could not start the engine synchronously');
  finish(cfg);
  loading = Promise.resolve();
}

function finish(inst) {
  buildContract(inst);
  M = inst;
  refreshRequest(inst);
}

function bytesOf(b) {
  return b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

async function fetchModule(url) {
  const where = String(url);
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`tensorcast: could not load the engine from ${where} (${e?.message ?? e}); ${RECIPE}`, { cause: e });
  }
  if (!res.ok) throw new Error(`tensorcast: could not load the engine from ${where}: HTTP ${res.status} ${res.statusText}; ${RECIPE}`);
  const bytes = await res.arrayBuffer();
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw new Error(`tensorcast: ${where} is not the engine's WebAssembly (${e?.message ?? e}; got ${bytes.byteLength} bytes${res.headers?.get?.('content-type') ? ` of ${res.headers.get('content-type')}` : ''}); ${RECIPE}`, { cause: e });
  }
}

const INIT_KEYS = ['wasmUrl', 'wasmBinary', 'module'];

/** init()'s options, checked on every call and read once. */
export function checkInitOptions(options, fn = 'init') {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${fn}(options): options must be an object`);
  for (const k of Object.keys(options)) {
    if (!INIT_KEYS.includes(k)) throw new TypeError(`${fn}: unknown option "${k}"; accepted: ${INIT_KEYS.join(', ')}`);
  }
  const o = { module: options.module, wasmBinary: options.wasmBinary, wasmUrl: options.wasmUrl };
  if (o.module !== undefined && !(o.module instanceof WebAssembly.Module)) throw new TypeError(`${fn}: options.module must be a WebAssembly.Module`);
  const b = o.wasmBinary;
  if (b !== undefined && !(b instanceof ArrayBuffer) && !ArrayBuffer.isView(b)) throw new TypeError(`${fn}: options.wasmBinary must be an ArrayBuffer or a typed array`);
  const u = o.wasmUrl;
  if (u !== undefined && typeof u !== 'string' && !(u instanceof URL)) throw new TypeError(`${fn}: options.wasmUrl must be a string or a URL`);
  return o;
}

/** The pending or settled init() promise, or null before the first call. */
export function initPromise() {
  return loading;
}

/** True once the engine is loaded. */
export function isReady() {
  return M !== null;
}

/** The loaded module; throws a clear error before init(). */
export function mod() {
  if (M === null) throw new Error('tensorcast: call `await init()` (or initSync()) before using the library');
  return M;
}

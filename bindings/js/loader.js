// Loading the WebAssembly module: init() (async, any environment) and
// initSync() (synchronous, from bytes or a compiled module). Both end in
// install(): every table the JS layer uses comes from the module.
//
// One engine per copy of this module, by a small state machine:
//
//   idle ──init()──▶ loading ──(engine started)──▶ ready
//     ▲                 │
//     └──(load failed)──┘      initSync(): idle or loading ──▶ ready, or unchanged when it throws
//
// - init() while idle starts a load and returns its promise; init() while
//   loading returns that same promise (one load, one instance); init() once
//   ready returns the settled promise.
// - Every load has a number (`epoch`). Installing an engine bumps it, so a load
//   that has been overtaken (initSync() finished first) finds its number stale
//   at its next step and drops its own instance: it installs nothing and
//   settles nothing (its promise was already resolved by initSync()).
// - Nothing shared is written until the engine has started and its contract
//   has been read and checked; then install() commits it in one synchronous
//   step. A failed load rejects its promise once and goes back to idle with no
//   module state left; the next init() or initSync() starts from scratch.
// - Ready is final: once an engine is installed, it is never replaced.
//
// Which engine (its .wasm, its build, the exports its JS calls) is engine.js's:
// the full one, or in the tensorcast/shapes bundles the rules-only one
// (shapes-engine.js). No Emscripten glue is loaded: host() below is the
// engine's whole host side (its imports, its heap views, its start).
import { ENGINE, FULL, FILE } from './engine.js';
import { readContract, clearContract } from './contract.js';

let M = null;       // the engine (host()'s M: its exports and heap views), once ready
let state = 'idle'; // 'idle' | 'loading' | 'ready'
let epoch = 0;      // the number of the current load; bumped by each new load and by install()
let loading = null; // init()'s promise: the load under way, or the settled one once ready; null when idle
let settle = null;  // { resolve, reject } of `loading` while a load is under way
// The running room's set-up over an engine being installed: execute.js binds it
// (bindInstall), as this module imports nothing of the stages above it.
let refreshRequest = () => {};
export function bindInstall(f) {
  refreshRequest = f;
}

const RECIPE = `serve ${FILE} beside the bundle and pass its address as init({ wasmUrl })`
  + (FULL ? ", or import 'tensorcast/inline', which carries the wasm inside the JavaScript" : '')
  + " (see the README's bundler recipes)";

/**
 * Load the engine. Calls share one load: while it is under way, and after it
 * succeeded, every call returns the same promise, and there is one engine.
 * A load that fails (a fetch failure, bytes that are not WebAssembly, a
 * WebAssembly module that is not this engine, an instantiation or start
 * failure) rejects that promise once with an Error saying why, leaves no state
 * behind, and the next init() or initSync() starts again from scratch (with
 * the options it is given).
 *
 * initSync() while this promise is pending does not make a second engine: it
 * loads the engine synchronously, installs it, and resolves this promise (the
 * pending load is then dropped, whatever its outcome). If that initSync()
 * throws, the pending load goes on unchanged.
 *
 * Options of the wrong type throw a TypeError (also while loading and once loaded).
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|ArrayBufferView, module?: WebAssembly.Module}} [options]
 * @returns {Promise<void>}
 */
export function init(options) {
  return initWith(options, moduleFrom);
}

/**
 * Load the engine synchronously from its bytes or a compiled module (build
 * tools, CLIs, CommonJS, tests). Browsers allow synchronous compilation of a
 * module this size on the main thread. Idempotent: once loaded it returns at
 * once.
 *
 * Called while an init() is pending, it does not wait for it and does not
 * make a second engine: the engine it starts becomes the only one, and the
 * pending init() promise resolves (to that same engine); the pending load's
 * own instance is discarded when it arrives. When initSync() throws (a source
 * that is not this engine, a start failure), nothing changed: the library
 * stays not loaded, or a pending init() goes on as before.
 * @param {{wasmBinary?: ArrayBuffer|ArrayBufferView, module?: WebAssembly.Module}} options
 */
export function initSync(options) {
  initSyncWith(options, moduleFromSync);
}

/**
 * init() with another source of the compiled module (the Node entry reads
 * files): `source(o)` gets the checked options and returns a
 * WebAssembly.Module or a promise of one. It is only called when a load starts.
 */
export function initWith(options, source) {
  const o = checkInitOptions(options, 'init');
  if (loading !== null) return loading; // loading: the load under way; ready: the settled promise
  const my = ++epoch;
  state = 'loading';
  const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  loading = promise;
  const current = () => my === epoch && state === 'loading';
  (async () => {
    try {
      await null; // the load starts after this call returns, so even one failing at once is shared by the calls made meanwhile
      const module = await source(o);
      if (!current()) return;
      checkModule(module);
      const h = host();
      let instance;
      try {
        instance = await WebAssembly.instantiate(module, h.imports);
      } catch (e) {
        throw failure('the WebAssembly module could not be instantiated', e);
      }
      if (!current()) return; // overtaken by initSync(): this instance is dropped unstarted
      install(start(h, instance));
    } catch (e) {
      if (!current()) return; // an overtaken load's failure: nobody waits for it
      const { reject } = settle;
      state = 'idle';
      loading = null;
      settle = null;
      reject(failure('the engine could not be loaded', e));
    }
  })();
  return promise;
}

/**
 * initSync() with another source: `source(o)` gets the checked options and
 * returns a WebAssembly.Module (synchronously). It is only called when the
 * engine is not loaded yet.
 */
export function initSyncWith(options, source) {
  const o = checkInitOptions(options, 'initSync');
  if (state === 'ready') return;
  // Nothing shared is written before install(): a throw anywhere leaves the state as it was.
  const module = source(o);
  checkModule(module);
  const h = host();
  let instance;
  try {
    instance = new WebAssembly.Instance(module, h.imports);
  } catch (e) {
    throw failure('the WebAssembly module could not be instantiated', e);
  }
  install(start(h, instance));
}

/** init()'s source: { module }, { wasmBinary }, or fetch(wasmUrl, by default the .wasm beside this file). */
export function moduleFrom(o) {
  if (o.module) return o.module;
  if (o.wasmBinary) return compileModule(o.wasmBinary, 'options.wasmBinary');
  return fetchModule(o.wasmUrl ?? ENGINE.url); // the default made inside, where its failure gets the recipe
}

function moduleFromSync(o) {
  if (o.module) return o.module;
  if (o.wasmBinary) return compileModuleSync(o.wasmBinary, 'options.wasmBinary');
  throw new TypeError(`initSync: pass { wasmBinary } (the bytes of ${FILE}) or { module } (a WebAssembly.Module)`);
}

/** Compile bytes, with an error naming where they came from (`what`). */
export async function compileModule(bytes, what) {
  const b = bytesOf(bytes);
  try {
    return await WebAssembly.compile(b);
  } catch (e) {
    throw notWasm(what, b, e);
  }
}

/** compileModule(), synchronously. */
export function compileModuleSync(bytes, what) {
  const b = bytesOf(bytes);
  try {
    return new WebAssembly.Module(b);
  } catch (e) {
    throw notWasm(what, b, e);
  }
}

function notWasm(what, b, e) {
  return Error(`tensorcast: ${what} is not WebAssembly (${describe(e)}; got ${b.byteLength} bytes); pass the bytes of this package's ${FILE}`, { cause: e });
}

// ---- the check of a module, and its host side -------------------------------

/**
 * Refuse a module that is not this engine before instantiating it: it must
 * export a memory and every function the JS layer calls (ENGINE.exports), and
 * import nothing but what host() provides.
 */
function checkModule(module) {
  if (!(module instanceof WebAssembly.Module)) throw new TypeError('tensorcast: the engine source gave no WebAssembly.Module');
  const kinds = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
  const missing = ENGINE.exports.filter((name) => kinds.get(name) !== 'function').map((name) => `${name} (function)`);
  if (kinds.get('memory') !== 'memory') missing.push('a memory');
  const env = host().imports.env;
  const unmet = WebAssembly.Module.imports(module)
    .filter((i) => i.module !== 'env' || i.kind !== 'function' || !Object.hasOwn(env, i.name))
    .map((i) => `${i.module}.${i.name} (${i.kind})`);
  if (missing.length === 0 && unmet.length === 0) return;
  const why = [];
  if (missing.length) why.push(`it lacks ${missing.join(', ')}`);
  if (unmet.length) why.push(`it imports ${unmet.join(', ')}, which tensorcast does not provide`);
  throw new Error(`tensorcast: this WebAssembly module is not the ${FULL ? 'tensorcast' : 'tensorcast/shapes'} engine: ${why.join('; ')}. Pass this package's ${FILE} (its bytes, a module compiled from them, or its URL)${OTHER}`);
}

// The other build's module is refused by the check above (each lacks an export the other's JS calls) or, at
// the latest, by its contract's build (install()); both messages name the file this entry loads.
const OTHER = FULL
  ? "; tensorcast-shapes.wasm is the engine of 'tensorcast/shapes' (the rules without the kernels)"
  : "; tensorcast.wasm is the engine of 'tensorcast' (with the kernels)";

/**
 * The engine's host side, before its instance exists: the imports it is
 * instantiated with (module "env", the names the C++ gives them: the link keeps
 * them unminified) and `M`, the object the JS layer calls it through once
 * started: its exports (tc_call as M._tc_call, ...), the memory, the heap views
 * M.HEAPU8, M.HEAPU32 and M.HEAPF64 (made anew when the memory grows, so execute.js view() notices
 * a new M.HEAPU8), and M.tcGen (expr.js puts the store of generated code there).
 */
function host() {
  const M = { memory: null, HEAPU8: null, HEAPU32: null, HEAPF64: null, tcGen: undefined };
  const views = () => {
    const b = M.memory.buffer;
    M.HEAPU8 = new Uint8Array(b);
    M.HEAPU32 = new Uint32Array(b);
    M.HEAPF64 = new Float64Array(b);
  };
  const env = {
    // abort() in the C++ (a failed invariant): the call throws; nothing of it is kept.
    abort() { throw new WebAssembly.RuntimeError('Aborted: the engine called abort()'); },
    // malloc's sbrk asks for `size` bytes in all: a fifth more than now (at most 96 MiB past `size`), or
    // else just `size`, in whole pages; 0 when memory cannot reach `size`. Memory ends a page short of
    // 4 GiB (the module's maximum, -sMAXIMUM_MEMORY: grow() past it throws), so that the engine's
    // addresses are u32; growing to that end and saying yes when `size` is past it had sbrk hand out
    // memory past the end.
    emscripten_resize_heap(size) {
      size >>>= 0;
      const now = M.memory.buffer.byteLength;
      for (const want of [Math.max(size, Math.min(now * 1.2, size + 100663296)), size]) {
        try {
          M.memory.grow(Math.ceil(want / 65536) - now / 65536);
          views();
          return 1;
        } catch {
          // too large for this runtime, or past the end of memory: the smaller step, then 0
        }
      }
      return 0;
    },
    // Generated code (bindings/wasm/expr_call.cpp): compile module `id` (0; -1 refused: the engine
    // interprets), run it. Addresses reach JS as signed i32, made unsigned here.
    tc_gen_compile(id, bytes, n) {
      try {
        const p = bytes >>> 0;
        return M.tcGen !== undefined && M.tcGen.compile(id, M.HEAPU8.subarray(p, p + n), M.memory) ? 0 : -1;
      } catch {
        return -1;
      }
    },
    tc_gen_run(id, desc) { M.tcGen.run(id, desc >>> 0); },
  };
  // The host's Math builtins themselves, not wrappers (src/kernels/host_math.hpp).
  for (const f of ['sin', 'cos', 'tan', 'atan2', 'exp', 'expm1', 'log', 'log1p', 'tanh', 'pow']) env[`tc_math_${f}`] = Math[f];
  return { M, views, imports: { env } };
}

/** Start the engine on its instance: its constructors run. Returns M, with contract() and version(). */
function start({ M, views }, instance) {
  const x = instance.exports;
  M.memory = x.memory;
  views();
  for (const k of Object.keys(x)) if (k.startsWith('tc_')) M[`_${k}`] = x[k];
  try {
    x.__wasm_call_ctors();
  } catch (e) {
    throw failure('the engine failed to start', e);
  }
  // Both builds: the contract (JSON) and the version are NUL-terminated UTF-8 in the module's memory.
  M.contract = () => cString(M, address(M._tc_contract()), 'contract');
  M.version = () => cString(M, address(M._tc_version()), 'version');
  return M;
}

const UTF8 = new TextDecoder();

/**
 * An address an export returned: a wasm i32 reaches JS signed, negative from
 * 2 GiB on (memory grows to 4 GB), so it is made unsigned (docs/boundary.md,
 * "Addresses"). Anything but a number is left for cString() to refuse.
 */
export function address(p) {
  return typeof p === 'number' ? p >>> 0 : p;
}

/**
 * The NUL-terminated UTF-8 text at `p` in the module's memory (to the end of
 * memory at most); `what` names it in the error for a `p` that is not an
 * address in that memory (a module that only looks like the engine).
 */
export function cString(m, p, what = 'text') {
  const heap = m.HEAPU8;
  if (!Number.isInteger(p) || p <= 0 || p >= heap.length) {
    throw new Error(`tensorcast: the WebAssembly module gives no ${what} (its address is ${p}): it is not the tensorcast engine`);
  }
  let end = p;
  while (end < heap.length && heap[end] !== 0) end++;
  return UTF8.decode(heap.subarray(p, end));
}

/**
 * Make `inst` the engine: read its contract, try the request buffer, then
 * commit (C, the wire's request state, M) in one synchronous step. Throws
 * with nothing installed.
 */
function install(inst) {
  let commit;
  try {
    commit = readContract(inst, ENGINE.build);
    // What refreshRequest() does, tried first, while nothing is installed.
    inst._tc_request(4096);
    inst._tc_call(0);
  } catch (e) {
    throw failure(`the engine's contract could not be read (is this ${FILE} from the same build as its JavaScript?)`, e);
  }
  commit();
  try {
    refreshRequest(inst);
  } catch (e) {
    clearContract();
    throw failure('the engine\'s request buffer could not be set up', e);
  }
  M = inst;
  state = 'ready';
  epoch++; // any load still under way is overtaken
  if (settle !== null) {
    const { resolve } = settle;
    settle = null;
    resolve();
  } else {
    loading = Promise.resolve();
  }
}

/** `e` as an Error of ours: kept when it already says what failed, else wrapped with `what`. */
function failure(what, e) {
  if (e instanceof Error && e.message.startsWith('tensorcast')) return e;
  return Error(`tensorcast: ${what} (${describe(e)})`, { cause: e });
}

function describe(e) {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** A plain Uint8Array over the bytes of an ArrayBuffer or a view (a Node Buffer included). */
export function bytesOf(b) {
  return b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

async function fetchModule(url) {
  let where = FILE;
  let res;
  try {
    // A bundle that is not ESM has no import.meta.url: the default URL is then an Invalid URL.
    if (typeof url == 'function') url = url();
    where = String(url);
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
  const keys = INIT_KEYS.slice(fn > 'init'); // initSync (past 'init'): no wasmUrl, it fetches nothing
  for (const k of Object.keys(options)) {
    if (!keys.includes(k)) throw new TypeError(`${fn}: unknown option "${k}"; accepted: ${keys.join(', ')}`);
  }
  const o = { module: options.module, wasmBinary: options.wasmBinary, wasmUrl: options.wasmUrl };
  if (o.module !== undefined && !(o.module instanceof WebAssembly.Module)) throw new TypeError(`${fn}: options.module must be a WebAssembly.Module`);
  const b = o.wasmBinary;
  if (b !== undefined && !(b instanceof ArrayBuffer) && !ArrayBuffer.isView(b)) throw new TypeError(`${fn}: options.wasmBinary must be an ArrayBuffer or a typed array`);
  const u = o.wasmUrl;
  if (u !== undefined && typeof u !== 'string' && !(u instanceof URL)) throw new TypeError(`${fn}: options.wasmUrl must be a string or a URL`);
  return o;
}

/** The pending or settled init() promise, or null while idle (before the first call, or after a failed load). */
export function initPromise() {
  return loading;
}

/** True once the engine is loaded. */
export function isReady() {
  return state === 'ready';
}

/** The loaded module; throws a clear error before init(). */
export function mod() {
  if (M === null) throw new Error('tensorcast: call `await init()` (or initSync()) before using the library');
  return M;
}

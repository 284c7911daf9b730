// Loading the WebAssembly module, and moving shapes across the boundary.
//
// Heap views are read from the module at the point of use (`M.HEAPF64`), never
// kept across a call: memory growth replaces the buffer and the glue updates
// the module's views, so re-reading the property is always current.
import createTensorcastModule from './tensorcast.mjs';
import { BroadcastError } from './errors.js';

let M = null;
let loading = null;
let inPtr = 0; // index (in doubles) of the request scratch buffer
let inCap = 0;
let outPtr = 0;
let outCap = 0;

/**
 * Load the engine. Idempotent: later calls return the same promise.
 * @param {{wasmUrl?: string|URL, wasmBinary?: ArrayBuffer|Uint8Array, module?: WebAssembly.Module}} [options]
 */
export function init(options = {}) {
  checkInitOptions(options);
  if (loading) return loading;
  const cfg = {};
  if (options.module !== undefined) {
    const mod = options.module;
    cfg.instantiateWasm = (imports, done) => {
      WebAssembly.instantiate(mod, imports).then((inst) => done(inst, mod));
      return {};
    };
  } else if (options.wasmBinary !== undefined) {
    const b = options.wasmBinary;
    cfg.wasmBinary = b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } else if (options.wasmUrl !== undefined) {
    const url = String(options.wasmUrl);
    cfg.locateFile = () => url;
  }
  loading = createTensorcastModule(cfg).then((mod) => {
    M = mod;
    refreshScratch();
    return undefined;
  }, (e) => {
    loading = null; // a failed load may be retried with other options
    throw e;
  });
  return loading;
}

/**
 * init()'s argument types, checked on every call (also once the engine is
 * loaded, so a bad call fails the same way whichever call runs first).
 */
export function checkInitOptions(options) {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object') throw new TypeError('init(options): options must be an object');
  if (options.module !== undefined && !(options.module instanceof WebAssembly.Module)) throw new TypeError('init: options.module must be a WebAssembly.Module');
  const b = options.wasmBinary;
  if (b !== undefined && !(b instanceof ArrayBuffer) && !ArrayBuffer.isView(b)) throw new TypeError('init: options.wasmBinary must be an ArrayBuffer or a typed array');
  const u = options.wasmUrl;
  if (u !== undefined && typeof u !== 'string' && !(u instanceof URL)) throw new TypeError('init: options.wasmUrl must be a string or a URL');
}

/** The pending or settled init() promise, or null before the first call. */
export function initPromise() {
  return loading;
}

/** True once init() has resolved. */
export function isReady() {
  return M !== null;
}

/** The loaded module; throws a clear error before init(). */
export function mod() {
  if (M === null) throw new Error('tensorcast: call `await init()` before using the library');
  return M;
}

export function refreshScratch() {
  inPtr = M._tc_in() >>> 3;
  inCap = M._tc_in_capacity();
  outPtr = M._tc_out() >>> 3;
  outCap = M._tc_out_capacity();
}

/** Request buffer start (in doubles), growing it to hold `n` doubles. */
export function requestBase(n) {
  if (n > inCap) {
    M._tc_reserve(Math.max(n, inCap * 2), 0);
    refreshScratch();
  }
  return inPtr;
}

export function responseBase() {
  return outPtr;
}

export function growResponse() {
  M._tc_reserve(0, outCap * 4);
  refreshScratch();
}

// ---- shapes ---------------------------------------------------------------

export const UNKNOWN_RANK = '[...]';
export const MAX_RANK = 32;
const INTERVAL = /^\s*(\d*)\s*\.\.\s*(\d*)\s*$/;

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

function isShapeLike(s) {
  return Array.isArray(s) || (ArrayBuffer.isView(s) && !(s instanceof DataView));
}

function invalidDim(shape, i, d, why, shapes) {
  const list = shapes ?? [shape];
  return new BroadcastError(
    `invalid shape ${safeFormat(shape)}: dim ${i} is ${describe(d)}; ${why}`,
    { code: 'INVALID_SHAPE', shapes: list, axis: i, dims: [d] },
  );
}

function safeFormat(shape) {
  try {
    return `[${Array.from(shape, (d) => (typeof d === 'string' ? JSON.stringify(d) : describe(d))).join(', ')}]`;
  } catch {
    return '[?]';
  }
}

/**
 * Check a shape argument; throws TypeError for a non-shape, BroadcastError
 * INVALID_SHAPE for bad dims. `allowKeep` lets -1 through (a §5 target).
 */
export function checkShape(shape, what, allowKeep, shapes) {
  if (shape === UNKNOWN_RANK) return;
  if (!isShapeLike(shape)) throw new TypeError(`${what} must be an array of dims (e.g. [2, 3]), got ${describe(shape)}`);
  const n = shape.length;
  if (n > MAX_RANK) {
    throw new BroadcastError(`invalid shape: rank ${n} exceeds the maximum of ${MAX_RANK} dims`,
      { code: 'INVALID_SHAPE', shapes: shapes ?? [shape], axis: null, dims: null });
  }
  for (let i = 0; i < n; i++) {
    const d = shape[i];
    if (typeof d === 'number') {
      if (Number.isSafeInteger(d) && d >= 0) continue;
      if (d === -1 && allowKeep) continue;
      throw invalidDim(shape, i, d, d === -1
        ? '-1 is only meaningful in a broadcastTo target (mode numpy)'
        : 'dims must be integers from 0 to 2^53-1', shapes);
    }
    if (typeof d === 'string') {
      if (d.trim() === '?') continue;
      const m = INTERVAL.exec(d);
      if (m) {
        const lo = m[1] === '' ? 0 : Number(m[1]);
        const hi = m[2] === '' ? Infinity : Number(m[2]);
        if (Number.isSafeInteger(lo) && (hi === Infinity || Number.isSafeInteger(hi)) && lo <= hi) continue;
      }
      throw invalidDim(shape, i, d, 'a dim is a number, "?" or an interval like "2..5"', shapes);
    }
    throw invalidDim(shape, i, d, 'dims must be integers from 0 to 2^53-1', shapes);
  }
}

// Writing a request reads the caller's arrays again, and their getters (or a
// Proxy) run then: they may have changed a shape since it was checked, or call
// the library from inside. A nested call would move or overwrite the scratch
// buffer being written, and a grown shape would write past it: refuse both.
let writing = false;

/** Mark the start of writing a request (with endRequest in a finally); refuses nesting. */
export function beginRequest() {
  if (writing) throw new TypeError('tensorcast was called from inside a getter of its own arguments');
  writing = true;
}

export function endRequest() {
  writing = false;
}

/** Write a checked shape at heap index p, never at or past `end`; returns the next index. */
export function writeShape(h, p, shape, end) {
  if (shape === UNKNOWN_RANK) {
    h[p] = -1;
    return p + 1;
  }
  const n = shape.length;
  if (!(n <= MAX_RANK) || p + shapeCost(shape) > end) throw new TypeError('a shape changed while it was being read');
  h[p++] = n;
  for (let i = 0; i < n; i++) {
    const d = shape[i];
    if (typeof d === 'number') {
      h[p++] = d;
    } else {
      const s = d.trim();
      if (s === '?') {
        h[p++] = -2; h[p++] = 0; h[p++] = -1;
      } else {
        const m = INTERVAL.exec(s);
        const lo = m[1] === '' ? 0 : Number(m[1]);
        const hi = m[2] === '' ? -1 : Number(m[2]);
        if (lo === hi) {
          h[p++] = lo;
        } else {
          h[p++] = -2; h[p++] = lo; h[p++] = hi;
        }
      }
    }
  }
  return p;
}

/** Doubles a shape may need in the request. */
export function shapeCost(shape) {
  return shape === UNKNOWN_RANK ? 1 : 1 + 3 * shape.length;
}

/** A dim from its (lo, hi) pair as the library prints it. */
export function dimFrom(lo, hi) {
  if (lo === hi) return lo;
  if (hi === -1) return lo === 0 ? '?' : `${lo}..`;
  return lo === 0 ? `..${hi}` : `${lo}..${hi}`;
}

// Decoding cursor (module-level to avoid allocating a tuple per read).
export let cursor = 0;
export function setCursor(p) {
  cursor = p;
}

/** Read an encoded dim at the cursor. */
export function readDim(h) {
  const v = h[cursor++];
  if (v >= 0) return v;
  if (v === -1) return -1;
  const lo = h[cursor++];
  const hi = h[cursor++];
  return dimFrom(lo, hi);
}

/** Read an encoded shape at the cursor. */
export function readShape(h) {
  const rank = h[cursor++];
  if (rank === -1) return UNKNOWN_RANK;
  const out = new Array(rank);
  for (let i = 0; i < rank; i++) out[i] = readDim(h);
  return out;
}

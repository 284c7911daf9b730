// Shape arguments: read once into arrays the library owns, then checked.
//
// copyShape() is the only place a caller's shape is read: its length once,
// each element once (a getter or Proxy trap runs then, and never again).
// Everything after works on the copy, so a shape cannot change under a call.
import { BroadcastError, formatShape } from './errors.js';
import { C } from './contract.js';

export const UNKNOWN_RANK = '[...]';
/** The most dims a shape may have. */
export const MAX_RANK = 32;
export const INTERVAL = /^\s*(\d*)\s*\.\.\s*(\d*)\s*$/;

// The typed-array intrinsics: a caller's array read as the engine sees it, whatever its class or own properties say.
const TA_PROTO = Object.getPrototypeOf(Int8Array.prototype);
const intrinsic = (k) => Object.getOwnPropertyDescriptor(TA_PROTO, k);
export const taLength = intrinsic('length').get;
export const taTag = intrinsic(Symbol.toStringTag).get;
/** Whether a typed array is a Uint16Array (float16 bits where the dtype says float16), by its kind: any realm, any prototype. */
export const isU16 = (t) => taTag.call(t) === 'Uint16Array';
// The typed-array constructors by kind, as they were when the library loaded (a page may replace a global later).
export const KINDS = {};
for (const k of ['Int8', 'Uint8', 'Uint8Clamped', 'Int16', 'Uint16', 'Int32', 'Uint32', 'Float16', 'Float32', 'Float64', 'BigInt64', 'BigUint64']) KINDS[`${k}Array`] = globalThis[`${k}Array`];
export const taBuffer = intrinsic('buffer').get;
export const taOffset = intrinsic('byteOffset').get;
/** A typed array's element size, by its kind (not its own or its class's BYTES_PER_ELEMENT). */
export const elemSize = (t) => KINDS[taTag.call(t)].BYTES_PER_ELEMENT;
/** %TypedArray%.prototype.set: a typed-array source is read by its slots (no method, getter or species of a caller's array runs). */
export const taSet = intrinsic('set').value;

/**
 * `n` elements of typed array `t` from element `lo`, as a new array of its
 * kind over its memory, made by the intrinsics (after the commit check no
 * getter, method or species of a caller's array runs: a subclass's or an
 * own property's `subarray`, `buffer` or `length` cannot change what is read
 * or how much is written into the heap).
 */
export function part(t, lo, n) {
  const K = KINDS[taTag.call(t)];
  return new K(taBuffer.call(t), taOffset.call(t) + lo * K.BYTES_PER_ELEMENT, n);
}

/** Whether two typed arrays may share memory: one buffer, or two SharedArrayBuffers (two objects may map one memory). */
export const mayShare = (a, b) => {
  const x = taBuffer.call(a);
  const y = taBuffer.call(b);
  return x === y || (!(x instanceof ArrayBuffer) && !(y instanceof ArrayBuffer));
};

export function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'symbol') return 'a symbol';
  return String(v);
}

/**
 * A view's strides as given (operands.js, explain): an array of safe integers,
 * -0 as 0. TypeError for a non-array; INVALID_SHAPE (its axis) for an entry.
 */
export function readStrides(stridesIn, what) {
  if (!Array.isArray(stridesIn) && !ArrayBuffer.isView(stridesIn)) {
    throw new TypeError(`${what}.strides must be an array of integers (one per axis), got ${describe(stridesIn)}`);
  }
  return Array.from(stridesIn, (v, i) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      throw new BroadcastError(`${what}.strides[${i}] is ${describe(v)}, not a safe integer`,
        { code: 'INVALID_SHAPE', axis: i });
    }
    return v + 0; // -0 is 0
  });
}

/** INVALID_SHAPE unless `strides` has one entry per axis of `shape`. */
export function strideCount(strides, shape, what) {
  if (strides.length !== shape.length) {
    throw new BroadcastError(`${what} has ${strides.length} strides for its ${shape.length} axes ${formatShape(shape)}: give one stride per axis`,
      { code: 'INVALID_SHAPE', shapes: [shape], dims: [strides.length, shape.length] });
  }
}

/** An array or a typed array (not a DataView): what a shape may be given as. */
export function isShapeLike(s) {
  return Array.isArray(s) || (ArrayBuffer.isView(s) && !(s instanceof DataView));
}

/**
 * The caller's shape as an owned array (or UNKNOWN_RANK). TypeError for a
 * non-shape; INVALID_SHAPE for a rank over the limit. Dims are not checked yet.
 */
export function copyShape(shape, what, suffix = '') {
  // typeof first: comparing an array with a string directly is a generic builtin call in V8.
  if (typeof shape === 'string' && shape === UNKNOWN_RANK) return shape;
  if (!isShapeLike(shape)) throw new TypeError(`${what}${suffix} must be an array of dims (e.g. [2, 3]), got ${describe(shape)}`);
  const n = Array.isArray(shape) ? shape.length : taLength.call(shape);
  if (!(n <= C.limits.maxRank)) throw rankTooLarge(n, what + suffix);
  // new Array(n): exactly n slots (a push-grown array reserves 17 at its first push).
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = shape[i];
  return out;
}

/** A list of axes or dim names (`what`: its name in the message) longer than any rank: each may be named once. */
export function tooManyEntries(what, key, n, shapes) {
  return new BroadcastError(`${what} has ${n} entries, but a shape has at most ${C.limits.maxRank} ${key} and each may be named once`,
    { code: 'INVALID_AXIS', shapes });
}

/**
 * A list option (axes, dims) read once: a single entry (`isOne`) as a list of
 * it, or an array read by its length once and each entry once. A list longer
 * than any shape's rank is refused by its length, before anything is copied
 * (a rank-r input has r distinct axes). `expected` says what the option
 * takes, for its TypeError.
 */
export function readList(x, fn, key, isOne, expected) {
  if (x == null) return null; // null: the default, as undefined
  if (isOne(x)) return [x];
  if (!Array.isArray(x)) throw new TypeError(`${fn}: ${key} must be ${expected}, got ${describe(x)}`);
  const n = x.length;
  if (!(n <= C.limits.maxRank)) throw tooManyEntries(`${fn}: ${key}`, key, n);
  const out = new Array(n);
  for (let k = 0; k < n; k++) out[k] = x[k];
  return out;
}

/** INVALID_SHAPE for rank `n` over the limit; `what` (if given) names the shape: "add: a.shape". */
export function rankTooLarge(n, what) {
  return new BroadcastError(`${what ?? 'invalid shape'}: rank ${n} exceeds the maximum of ${C.limits.maxRank} dims`,
    { code: 'INVALID_SHAPE' });
}

function invalidDim(shape, i, d, why, shapes, what = 'invalid shape') {
  return new BroadcastError(`${what} ${safeFormat(shape)}: dim ${i} is ${describe(d)}; ${why}`,
    { code: 'INVALID_SHAPE', shapes: shapes ?? [shape], axis: i, dims: [d] });
}

/** A shape as an invalid-shape message prints it: [2, "N", NaN]. */
export function safeFormat(shape) {
  return `[${shape.map(describe).join(', ')}]`;
}

/**
 * Check a copied shape (no user code runs): dims are safe integers, '?' or
 * intervals; `allowKeep` lets -1 through (a §5 target). Strings are trimmed in
 * place. `shapes` is the call's list for the error; `what` (if given) names
 * the shape in its message ("add: a.shape [2, -1]: dim 1 is -1; …").
 */
export function checkShape(s, allowKeep, shapes, what) {
  if (typeof s === 'string') return s; // UNKNOWN_RANK
  for (let i = 0; i < s.length; i++) {
    const d = s[i];
    if (typeof d === 'number') {
      if (Number.isSafeInteger(d) && d >= 0) continue;
      if (d === -1 && allowKeep) continue;
      throw invalidDim(s, i, d, d === -1
        ? '-1 is only meaningful in a broadcastTo target (mode numpy)'
        : 'dims must be integers from 0 to 2^53-1', shapes, what);
    }
    if (typeof d === 'string') {
      const t = d.trim();
      if (t === '?') { s[i] = t; continue; }
      const m = INTERVAL.exec(t);
      if (m) {
        const lo = m[1] === '' ? 0 : Number(m[1]);
        const hi = m[2] === '' ? Infinity : Number(m[2]);
        if (Number.isSafeInteger(lo) && (hi === Infinity || Number.isSafeInteger(hi)) && lo <= hi) { s[i] = t; continue; }
      }
      throw invalidDim(s, i, d, 'a dim is a number, "?" or an interval like "2..5"', shapes, what);
    }
    throw invalidDim(s, i, d, 'dims must be integers from 0 to 2^53-1', shapes, what);
  }
  return s;
}

/**
 * The shape of data: copyShape + checkShape + a static check in one pass over
 * an Array (each element read once, as copyShape does). A dim that is not a
 * plain integer sends the rest of the copy, and the error, to the general checks.
 */
/**
 * A static dim as the fast readers take it: a number that is an integer from
 * 0 to 2^53-1 (Number.isSafeInteger written out: a function this small is
 * inlined where it is called; the builtin is a call, a third of a reader's loop).
 */
export function isDimValue(d) {
  return typeof d === 'number' && d >= 0 && d <= Number.MAX_SAFE_INTEGER && Math.floor(d) === d;
}

export function readStaticShape(shape, what, suffix = '') {
  if (!Array.isArray(shape)) return staticOrThrow(checkShape(copyShape(shape, what, suffix), false, undefined, what + suffix), what, suffix);
  const n = shape.length;
  if (!(n <= C.limits.maxRank)) throw rankTooLarge(n, what + suffix); // its length read once: a Proxy cannot answer twice
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const d = shape[i];
    out[i] = d;
    if (!isDimValue(d)) {
      for (let j = i + 1; j < n; j++) out[j] = shape[j];
      return staticOrThrow(checkShape(out, false, undefined, what + suffix), what, suffix);
    }
  }
  return out;
}

function staticOrThrow(s, what, suffix) {
  if (isStatic(s)) return s;
  throw new BroadcastError(`${what}${suffix} must be static (numbers only) to hold data, got ${formatShape(s)}`,
    { code: 'INVALID_SHAPE', shapes: [s] });
}

/** True when every dim is a number (a shape that can hold data). */
export function isStatic(s) {
  if (typeof s === 'string') return false; // UNKNOWN_RANK
  for (let i = 0; i < s.length; i++) if (typeof s[i] !== 'number') return false;
  return true;
}

/** Product of a static shape, as a number (may be inexact past 2^53). */
export function product(s) {
  let n = 1;
  for (let i = 0; i < s.length; i++) n *= s[i];
  return n;
}

/** The exact element count of a static shape: a number when it is a safe integer, else null; and its decimal text. */
export function exactSize(s) {
  const n = product(s);
  if (Number.isSafeInteger(n)) return { size: n, text: String(n) };
  let b = 1n;
  for (const d of s) b *= BigInt(d);
  return { size: b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : null, text: b.toString() };
}

// Data with broadcasting: element-wise ops, broadcastTo and where over JS
// typed arrays or resident tensors. Every shape question goes to the rule
// engine (rules.js -> wasm); this file moves bytes and checks arguments.
//
// Memory: operands given as typed arrays are copied into reusable scratch
// allocations (grown, never shrunk), results copied out with slice(). Heap
// views are taken after the last call that may allocate, never kept across one.
import { mod, checkShape, requestBase, responseBase, beginRequest, endRequest } from './core.js';
import { BroadcastError, formatShape } from './errors.js';
import { internal as R } from './rules.js';

// ---- dtypes (order = the engine's DType enum) ----------------------------------
export const DTYPES = Object.freeze([
  'float32', 'float64', 'int8', 'uint8', 'uint8clamped', 'int16', 'uint16', 'int32', 'uint32', 'bigint64', 'biguint64',
]);
const CTORS = [Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
const SIZES = [4, 8, 1, 1, 1, 2, 2, 4, 4, 8, 8];
const DT_OF_CTOR = new Map(CTORS.map((c, i) => [c, i]));
const UINT8 = 3;
const MAX_BYTES = 2 ** 32 - 2 ** 26; // what wasm32 memory (4 GiB) can still hold beside the engine

// A typed array's kind and length as the engine sees them: the intrinsic
// getters, which neither a subclass, an own `length`/`constructor` property nor
// a forged prototype can change (what set() copies is the real length; a
// spoofed one would write past a scratch allocation).
const TA_PROTO = Object.getPrototypeOf(Int8Array.prototype);
const taTag = Object.getOwnPropertyDescriptor(TA_PROTO, Symbol.toStringTag).get;
const taLength = Object.getOwnPropertyDescriptor(TA_PROTO, 'length').get;
const DT_OF_TAG = new Map(CTORS.map((c, i) => [c.name, i]));

/** dtype index of a typed array (-1 for anything else). */
function dtypeIndex(data) {
  const d = DT_OF_TAG.get(taTag.call(data));
  return d === undefined ? -1 : d;
}

/** Element count of a typed array (checked with dtypeIndex first). */
function lengthOf(data) {
  return taLength.call(data);
}

// Copy `size` elements of `data` to byte `ptr` of the heap. The length is
// checked again at the copy: a getter read after it was first checked may have
// resized (or detached) the buffer, and a longer copy would overrun the slot.
function copyIn(data, size, dt, ptr) {
  const len = taLength.call(data);
  if (len !== size) {
    throw new BroadcastError(`data changed length from ${size} to ${len} while the call read its other arguments (a resizable or detached buffer)`,
      { code: 'LENGTH_MISMATCH', shapes: [], axis: null, dims: [len, size] });
  }
  if (size > 0) view(dt).set(data, ptr / SIZES[dt]);
}

// Op codes (= the engine's Op enum); bool ops return Uint8Array.
const OPS = {
  add: 0, sub: 1, mul: 2, div: 3, rem: 4, pow: 5, minimum: 6, maximum: 7,
  equal: 8, notEqual: 9, less: 10, lessEqual: 11, greater: 12, greaterEqual: 13,
  logicalAnd: 14, logicalOr: 15, logicalXor: 16, bitwiseAnd: 17, bitwiseOr: 18, bitwiseXor: 19,
};
const isBoolOp = (op) => op >= 8 && op <= 16;
const isBitwiseOp = (op) => op >= 17;
const isFloat = (dt) => dt <= 1;

// ---- heap views ---------------------------------------------------------------------
// The glue replaces M.HEAPU8 whenever memory grows, so comparing that object
// tells whether the cached views still see the current buffer.
let viewHeap = null;
const views = new Array(CTORS.length);
function view(dt) {
  const heap = mod().HEAPU8;
  if (heap !== viewHeap) {
    viewHeap = heap;
    views.fill(undefined);
  }
  return views[dt] ?? (views[dt] = new CTORS[dt](heap.buffer));
}

function malloc(bytes) {
  const p = mod()._tc_malloc(bytes);
  if (p === 0) {
    throw new BroadcastError(`cannot allocate ${bytes} bytes in WebAssembly memory`, { code: 'TOO_LARGE', shapes: [], axis: null, dims: null });
  }
  return p;
}

// Scratch slots: 0..3 operands (incl. fill values), 5 registry names, 7 output. Grown, never shrunk.
const scratch = [];
let scratchBytes = 0;
function slot(k, bytes) {
  let s = scratch[k];
  if (!s) s = scratch[k] = { ptr: 0, bytes: 0 };
  if (s.bytes < bytes || s.ptr === 0) {
    const want = Math.max(bytes, 64, Math.min(s.bytes * 2, MAX_BYTES));
    const p = malloc(want);
    if (s.ptr) mod()._tc_free(s.ptr);
    scratchBytes += want - s.bytes;
    s.ptr = p;
    s.bytes = want;
  }
  return s.ptr;
}

// ---- resident tensors ------------------------------------------------------------------
let liveTensors = 0;
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((ptr) => {
    // Safety net only: the handle was collected without dispose().
    liveTensors--;
    try { mod()._tc_free(ptr); } catch { /* module gone */ }
  })
  : null;
const disposeSymbol = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/** A tensor resident in WebAssembly memory (see `tensor()`). */
export class Tensor {
  #ptr;
  #shape;
  #dtype;
  #size;

  /** @internal use tensor() */
  constructor(ptr, shape, dt, dims, coords) {
    this.#ptr = ptr;
    this.#shape = shape;
    this.#dtype = dt;
    let n = 1;
    for (const d of shape) n *= d;
    this.#size = n;
    if (dims) this.dims = dims;
    if (coords) this.coords = coords;
    liveTensors++;
    registry?.register(this, ptr, this);
  }

  get shape() { return this.#shape.slice(); }
  get dtype() { return DTYPES[this.#dtype]; }
  get size() { return this.#size; }
  get byteLength() { return this.#size * SIZES[this.#dtype]; }
  get disposed() { return this.#ptr === 0; }

  /** @internal */
  _handle() {
    if (this.#ptr === 0) throw new TypeError('tensorcast: this tensor has been disposed');
    return { ptr: this.#ptr, shape: this.#shape, dt: this.#dtype, size: this.#size, dims: this.dims, coords: this.coords };
  }

  /** Copy the data out into a new typed array. */
  toArray() {
    const h = this._handle();
    const off = h.ptr / SIZES[h.dt];
    return view(h.dt).slice(off, off + h.size);
  }

  /** Free the wasm memory now. A second dispose() is a TypeError. */
  dispose() {
    if (this.#ptr === 0) throw new TypeError('tensorcast: this tensor was already disposed');
    registry?.unregister(this);
    mod()._tc_free(this.#ptr);
    this.#ptr = 0;
    liveTensors--;
  }

  [disposeSymbol]() {
    if (this.#ptr !== 0) this.dispose();
  }
}

function product(shape) {
  let n = 1;
  for (let i = 0; i < shape.length; i++) n *= shape[i];
  return n;
}

function checkStaticShape(shape, what) {
  // Fast path: a plain array of safe non-negative integers (the common case).
  if (Array.isArray(shape) && shape.length <= 32) {
    let ok = true;
    for (let i = 0; i < shape.length; i++) {
      const d = shape[i];
      if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) { ok = false; break; }
    }
    if (ok) return shape;
  }
  checkShape(shape, what, false, [shape]);
  if (shape === '[...]' || Array.prototype.some.call(shape, (d) => typeof d !== 'number')) {
    throw new BroadcastError(`${what} must be static (numbers only) to hold data, got ${formatShape(Array.from(shape))}`,
      { code: 'INVALID_SHAPE', shapes: [shape], axis: null, dims: null });
  }
  return Array.from(shape);
}

function checkData(data, what) {
  const dt = dtypeIndex(data);
  if (dt < 0) {
    throw new TypeError(`${what} must be a typed array (Float32Array, Int32Array, …), got ${data === null ? 'null' : ArrayBuffer.isView(data) ? 'a DataView' : typeof data}`);
  }
  return dt;
}

/**
 * Copy data into wasm memory once; ops on resident tensors read it in place.
 * @param {ArrayBufferView} data
 * @param {number[]} [shape] defaults to [data.length]
 * @param {{dims?: (string|number)[], coords?: object}} [options]
 */
export function tensor(data, shape, options) {
  const dt = checkData(data, 'tensor(data)');
  const len = lengthOf(data);
  const s = shape === undefined ? [len] : checkStaticShape(shape, 'tensor(shape)').slice();
  const n = product(s);
  if (n !== len) {
    throw new BroadcastError(`tensor: data has ${len} elements but shape ${formatShape(s)} needs ${n}`,
      { code: 'LENGTH_MISMATCH', shapes: [s], axis: null, dims: [len, n] });
  }
  let dims;
  let coords;
  if (options !== undefined) {
    if (options === null || typeof options !== 'object') throw new TypeError('tensor: options must be an object');
    if (options.dims !== undefined) {
      const nd = R.checkNamed({ dims: options.dims, shape: s, coords: options.coords }, 'tensor');
      dims = nd.dims.slice();
      const seen = new Set();
      for (let i = 0; i < dims.length; i++) {
        if (seen.has(String(dims[i]))) {
          throw new BroadcastError(`tensor: dim name "${dims[i]}" appears twice (axes ${dims.findIndex((d) => String(d) === String(dims[i]))} and ${i})`,
            { code: 'INVALID_SHAPE', shapes: [s], axis: i, dims: null });
        }
        seen.add(String(dims[i]));
      }
      coords = options.coords;
    }
  }
  const bytes = n * SIZES[dt];
  const ptr = malloc(Math.max(bytes, 1));
  try {
    copyIn(data, n, dt, ptr);
  } catch (e) {
    mod()._tc_free(ptr);
    throw e;
  }
  return new Tensor(ptr, s, dt, dims, coords);
}

/** What the engine holds, like tf.memory(). */
export function memory() {
  const M = mod();
  return {
    wasmHeapBytes: M.HEAPU8.length,
    allocatedBytes: M._tc_allocated_bytes() - scratchBytes,
    scratchBytes,
    liveTensors,
  };
}

// ---- operands ------------------------------------------------------------------------------
// { resident, ptr?, data?, shape, dt, size, dims?, coords? }
function operand(x, what) {
  if (x instanceof Tensor) {
    const h = x._handle();
    return { resident: true, tensor: x, ptr: h.ptr, data: null, shape: h.shape, dt: h.dt, size: h.size, dims: h.dims, coords: h.coords };
  }
  if (x === null || typeof x !== 'object') {
    throw new TypeError(`${what} must be { data, shape }, a resident tensor or a number, got ${x === null ? 'null' : typeof x}`);
  }
  if (ArrayBuffer.isView(x)) {
    throw new TypeError(`${what} is a bare ${x.constructor?.name ?? 'typed array'}: pass { data, shape } (shape defaults to [data.length]) or tensor(data, shape)`);
  }
  const data = x.data; // read once: a getter may answer differently each time
  const dt = checkData(data, `${what}.data`);
  const len = lengthOf(data);
  const xs = x.shape;
  const shape = xs === undefined ? [len] : checkStaticShape(xs, `${what}.shape`).slice();
  const size = product(shape);
  if (size !== len) {
    throw new BroadcastError(`${what}: data has ${len} elements but shape ${formatShape(shape)} needs ${size}`,
      { code: 'LENGTH_MISMATCH', shapes: [shape], axis: null, dims: [len, size] });
  }
  const op = { resident: false, ptr: 0, data, shape, dt, size, dims: undefined, coords: undefined };
  if (x.dims !== undefined) {
    R.checkNamed({ dims: x.dims, shape, coords: x.coords }, what);
    op.dims = x.dims;
    op.coords = x.coords;
  }
  return op;
}

// A JS number (or bigint) as a scalar of the other operand's dtype.
function scalarOperand(v, dt, what) {
  if (typeof v !== 'number' && typeof v !== 'bigint') return null;
  const arr = new CTORS[dt](1);
  if (dt >= 9) {
    if (typeof v === 'number' && !Number.isInteger(v)) throw new TypeError(`${what}: ${v} is not an integer, needed for a ${DTYPES[dt]} scalar`);
    arr[0] = BigInt(v);
  } else {
    arr[0] = typeof v === 'bigint' ? Number(v) : v;
  }
  return { resident: false, ptr: 0, data: arr, shape: [], dt, size: 1, dims: undefined, coords: undefined };
}

function place(ops) {
  // A getter read after a resident operand was taken may have disposed it.
  for (const o of ops) if (o.resident && o.tensor.disposed) throw new TypeError('tensorcast: an operand tensor was disposed during the call');
  // Allocate every scratch slot first (allocation may grow memory), then copy.
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k];
    if (!o.resident) o.ptr = slot(k, Math.max(o.size * SIZES[o.dt], 1));
  }
  for (const o of ops) if (!o.resident) copyIn(o.data, o.size, o.dt, o.ptr);
}

function checkOut(out, dt, shape, size) {
  if (out instanceof Tensor) {
    const h = out._handle();
    if (h.dt !== dt || h.size !== size) {
      throw new BroadcastError(`out: a ${DTYPES[h.dt]} tensor of shape ${formatShape(h.shape)} cannot hold a ${DTYPES[dt]} result of shape ${formatShape(shape)}`,
        { code: h.dt !== dt ? 'DTYPE_MISMATCH' : 'LENGTH_MISMATCH', shapes: [h.shape, shape], axis: null, dims: null });
    }
    return { resident: true, ptr: h.ptr, tensor: out };
  }
  if (!ArrayBuffer.isView(out) || out instanceof DataView) throw new TypeError('out must be a typed array or a resident tensor');
  const odt = dtypeIndex(out);
  if (odt !== dt) {
    throw new BroadcastError(`out: a ${odt < 0 ? out.constructor?.name : DTYPES[odt]} array cannot hold a ${DTYPES[dt]} result`,
      { code: 'DTYPE_MISMATCH', shapes: [shape], axis: null, dims: null });
  }
  const olen = lengthOf(out);
  if (olen !== size) {
    throw new BroadcastError(`out has ${olen} elements but the result ${formatShape(shape)} has ${size}`,
      { code: 'LENGTH_MISMATCH', shapes: [shape], axis: null, dims: [olen, size] });
  }
  return { resident: false, array: out };
}

function checkSize(shape, dt, shapes) {
  const size = product(shape);
  if (size * SIZES[dt] > MAX_BYTES) {
    throw new BroadcastError(`the result ${formatShape(shape)} would need ${size * SIZES[dt]} bytes, more than WebAssembly memory can hold`,
      { code: 'TOO_LARGE', shapes, axis: null, dims: null });
  }
  return size;
}

// Run `exec(outPtr)` into the right destination and package the result.
function produce(ops, outDt, shape, size, options, exec, extra) {
  let resident = false;
  for (let k = 0; k < ops.length; k++) if (ops[k].resident) resident = true;
  const dest = options.out !== undefined ? checkOut(options.out, outDt, shape, size) : null;
  if (dest && dest.resident) {
    for (const o of ops) {
      if (o.resident && o.ptr === dest.ptr && (o.size !== size || o.shape.length !== shape.length)) {
        throw new TypeError('out overlaps an input that is broadcast: write to a separate tensor');
      }
    }
  }
  place(ops);
  let outPtr;
  let tensorOut = null;
  if (dest && dest.resident) outPtr = dest.ptr;
  else if (!dest && resident) {
    outPtr = malloc(Math.max(size * SIZES[outDt], 1));
    tensorOut = outPtr;
  } else outPtr = slot(7, Math.max(size * SIZES[outDt], 1));
  const st = exec(outPtr);
  if (st !== 0) {
    if (tensorOut) mod()._tc_free(tensorOut);
    throw new BroadcastError(`internal error running the kernel (status ${st})`, { code: 'INVALID_SHAPE', shapes: ops.map((o) => o.shape) });
  }
  if (dest && dest.resident) return dest.tensor;
  if (tensorOut) return new Tensor(tensorOut, shape, outDt, extra?.dims, extra?.coords);
  const off = outPtr / SIZES[outDt];
  if (dest) {
    dest.array.set(view(outDt).subarray(off, off + size));
    return { data: dest.array, shape, dtype: DTYPES[outDt], ...(extra?.dims ? { dims: extra.dims } : {}), ...(extra?.coords ? { coords: extra.coords } : {}) };
  }
  const result = { data: view(outDt).slice(off, off + size), shape, dtype: DTYPES[outDt] };
  if (extra?.dims) result.dims = extra.dims;
  if (extra?.coords) result.coords = extra.coords;
  return result;
}

// ---- the small-call fast path ----------------------------------------------------------------
// Plain { data, shape } operands (or one JS number), no options but a
// typed-array `out`: each
// argument is read once, its shape written straight into the request, and
// one wasm call plans and runs into the output scratch (tc_binary_run, which
// reuses the plan when the shapes repeat). Anything else — resident tensors,
// names, options — and every refusal returns undefined before any visible
// effect and takes the general path, which reports it.
const FAST_REQUEST = 2 * 33; // two shapes of up to 32 dims, in doubles
let fastData = null; // the operand data fastShape() found (read once)
let fastPtr = 0; // or the resident tensor's bytes
let fastDt = -1;
let fastSize = 0;
let fastRank = 0;

// Check x as a plain operand or an unnamed resident tensor and write its shape
// at h[p]; the next index, or -1 when x is not one (or its shape does not hold
// its data).
function fastShape(x, h, p) {
  if (x === null || typeof x !== 'object') return -1;
  if (x instanceof Tensor) {
    const t = x._handle(); // a disposed tensor: the TypeError of the general path
    if (t.dims !== undefined) return -1;
    const n = t.shape.length;
    h[p++] = n;
    for (let i = 0; i < n; i++) h[p++] = t.shape[i];
    fastData = null;
    fastPtr = t.ptr;
    fastDt = t.dt;
    fastSize = t.size;
    fastRank = n;
    return p;
  }
  const data = x.data;
  const dt = DT_OF_TAG.get(taTag.call(data));
  if (dt === undefined || x.dims !== undefined) return -1;
  const len = taLength.call(data);
  const shape = x.shape;
  if (shape === undefined) {
    h[p++] = 1;
    h[p++] = len;
    fastRank = 1;
  } else {
    if (!Array.isArray(shape)) return -1;
    const n = shape.length;
    if (n > 32) return -1;
    h[p++] = n;
    let size = 1;
    for (let i = 0; i < n; i++) {
      const d = shape[i];
      if (typeof d !== 'number' || !(d >= 0 && d <= Number.MAX_SAFE_INTEGER) || Math.floor(d) !== d) return -1;
      h[p++] = d;
      size *= d;
    }
    if (size !== len) return -1;
    fastRank = n;
  }
  fastData = data;
  fastPtr = 0;
  fastDt = dt;
  fastSize = len;
  return p;
}

// A JS number / bigint as one element of dtype dt at byte p; false when it
// cannot be one (the general path throws the TypeError).
function storeScalar(v, dt, p) {
  if (dt >= 9) {
    if (typeof v === 'number' && !Number.isInteger(v)) return false;
    view(dt)[p / 8] = BigInt(v);
  } else {
    view(dt)[p / SIZES[dt]] = typeof v === 'bigint' ? Number(v) : v;
  }
  return true;
}

function fastBinary(op, a, b, dest) {
  // Reading the operands runs the caller's getters while the request is being
  // written: a nested call from one of them would reuse (or move) the request
  // buffer under us, so it is refused, as in the rule calls.
  beginRequest();
  try {
    return fastBinaryUnguarded(op, a, b, dest);
  } finally {
    endRequest();
  }
}

function fastBinaryUnguarded(op, a, b, dest) {
  const M = mod();
  const base = requestBase(FAST_REQUEST);
  const h = M.HEAPF64;
  const scalarA = typeof a === 'number' || typeof a === 'bigint';
  const scalarB = typeof b === 'number' || typeof b === 'bigint';
  let p = base;
  let dataA = null;
  let dataB = null;
  let ptrA = 0;
  let ptrB = 0;
  let dtA = -1;
  let dtB = -1;
  let sizeA = 1;
  let sizeB = 1;
  let rankA = 0;
  let rankB = 0;
  if (scalarA) h[p++] = 0;
  else {
    p = fastShape(a, h, p);
    if (p < 0) return undefined;
    dataA = fastData; ptrA = fastPtr; dtA = fastDt; sizeA = fastSize; rankA = fastRank;
    fastData = null; // hold no caller data between calls
  }
  if (scalarB) h[p++] = 0;
  else {
    p = fastShape(b, h, p);
    if (p < 0) return undefined;
    dataB = fastData; ptrB = fastPtr; dtB = fastDt; sizeB = fastSize; rankB = fastRank;
    fastData = null;
  }
  const dt = dtA >= 0 ? dtA : dtB;
  if (dt < 0 || (dtA >= 0 && dtB >= 0 && dtA !== dtB) || (isBitwiseOp(op) && isFloat(dt))) return undefined;
  const outDt = isBoolOp(op) ? UINT8 : dt;
  const os = SIZES[outDt];
  // Where the result goes: a resident `out` (exactly its bytes), a typed-array
  // `out` or a fresh array (through scratch), or a new resident tensor.
  let outTensor = null;
  if (dest instanceof Tensor) {
    const t = dest._handle();
    if (t.dt !== outDt || t.dims !== undefined) return undefined;
    // In place over an operand: only where that operand is not broadcast (the
    // general path refuses the rest), i.e. it has the result's rank and size.
    const rank = Math.max(rankA, rankB); // numpy: the result's rank
    if ((t.ptr === ptrA && (rankA !== rank || t.size !== sizeA))
      || (t.ptr === ptrB && (rankB !== rank || t.size !== sizeB))) return undefined;
    outTensor = t;
  } else if (dest !== undefined && DT_OF_TAG.get(taTag.call(dest)) !== outDt) return undefined;
  // A getter of b may have disposed a (or `out`): the general path throws the TypeError.
  if ((ptrA !== 0 && a.disposed) || (ptrB !== 0 && b.disposed) || (outTensor !== null && dest.disposed)) return undefined;
  const resident = ptrA !== 0 || ptrB !== 0 || outTensor !== null;
  const es = SIZES[dt];
  // Scratch next (allocation may grow memory: heap views are taken after).
  const pa = ptrA || slot(0, sizeA * es || 1);
  const pb = ptrB || slot(1, sizeB * es || 1);
  // A getter of b may have resized a's buffer: then the general path reports it.
  if ((dataA !== null && taLength.call(dataA) !== sizeA) || (dataB !== null && taLength.call(dataB) !== sizeB)) return undefined;
  if (scalarA) {
    if (!storeScalar(a, dt, pa)) return undefined;
  } else if (dataA !== null && sizeA > 0) view(dt).set(dataA, pa / es);
  if (scalarB) {
    if (!storeScalar(b, dt, pb)) return undefined;
  } else if (dataB !== null && sizeB > 0) view(dt).set(dataB, pb / es);
  let out;
  let st;
  if (outTensor) {
    out = outTensor.ptr;
    st = M._tc_binary_run(-1, -1, op, dt, p - base, pa, pb, out, -outTensor.size * os);
    if (st !== 0) return undefined; // another size, or a refusal: the general path reports it
  } else {
    out = resident ? 0 : slot(7, 64);
    st = M._tc_binary_run(-1, -1, op, dt, p - base, pa, pb, out, resident ? 0 : scratch[7].bytes);
    if (st !== 0 && st !== -2) return undefined; // a refusal: the general path reports it
  }
  // The head of the response: status, rank, dims.
  const r = M.HEAPF64;
  const rb = responseBase();
  const outRank = r[rb + 1];
  const shape = new Array(outRank);
  let size = 1;
  for (let i = 0; i < outRank; i++) size *= (shape[i] = r[rb + 2 + i]);
  if (outTensor) return dest;
  // A typed-array `out` of another length: the general path reports it.
  if (dest !== undefined && taLength.call(dest) !== size) return undefined;
  if (size * os > MAX_BYTES) return undefined; // TOO_LARGE, reported by the general path
  if (resident) {
    out = malloc(Math.max(size * os, 1));
    if (size > 0) {
      st = M._tc_binary_run(-1, -1, op, dt, p - base, pa, pb, out, size * os);
      if (st !== 0) {
        M._tc_free(out);
        return undefined;
      }
    }
    return new Tensor(out, shape, outDt);
  }
  if (st === -2) {
    out = slot(7, size * os);
    st = M._tc_binary_run(-1, -1, op, dt, p - base, pa, pb, out, scratch[7].bytes);
    if (st !== 0) return undefined;
  }
  const off = out / os;
  if (dest !== undefined) {
    dest.set(view(outDt).subarray(off, off + size));
    return { data: dest, shape, dtype: DTYPES[outDt] };
  }
  return { data: view(outDt).slice(off, off + size), shape, dtype: DTYPES[outDt] };
}

// ---- element-wise ----------------------------------------------------------------------------
function binary(opName, a, b, options) {
  const op = OPS[opName];
  if (options === undefined) {
    const r = fastBinary(op, a, b, undefined);
    if (r !== undefined) return r;
  } else if (options !== null && typeof options === 'object' && options.broadcast === undefined
    && options.shaping === undefined && options.fill === undefined) {
    // No options but `out` (a typed array or a resident tensor, written where
    // the caller wants it, no allocation): also the fast path.
    const dest = options.out;
    if (dest === undefined || dest instanceof Tensor || DT_OF_TAG.get(taTag.call(dest)) !== undefined) {
      const r = fastBinary(op, a, b, dest);
      if (r !== undefined) return r;
    }
  }
  const o = R.checkOptions(options, opName);
  if (o.fill !== undefined && typeof o.fill !== 'number' && typeof o.fill !== 'bigint') {
    throw new TypeError(`${opName}: options.fill must be a number (or a bigint for 64-bit integers), got ${o.fill === null ? 'null' : typeof o.fill}`);
  }
  let A = typeof a === 'number' || typeof a === 'bigint' ? null : operand(a, `${opName}: a`);
  let B = typeof b === 'number' || typeof b === 'bigint' ? null : operand(b, `${opName}: b`);
  if (!A && !B) throw new TypeError(`${opName}: at least one operand must be a tensor ({ data, shape } or a resident tensor)`);
  if (!A) A = scalarOperand(a, B.dt, `${opName}: a`);
  if (!B) B = scalarOperand(b, A.dt, `${opName}: b`);
  if (A.dt !== B.dt) {
    throw new BroadcastError(`${opName}: operands have different dtypes (${DTYPES[A.dt]} vs ${DTYPES[B.dt]}); convert one first`,
      { code: 'DTYPE_MISMATCH', shapes: [A.shape, B.shape], axis: null, dims: [DTYPES[A.dt], DTYPES[B.dt]] });
  }
  const dt = A.dt;
  if (isBitwiseOp(op) && isFloat(dt)) {
    throw new TypeError(`${opName} needs integer data; ${DTYPES[dt]} has no bits to combine (use an integer typed array)`);
  }
  const outDt = isBoolOp(op) ? UINT8 : dt;
  const M = mod();
  if (A.dims !== undefined || B.dims !== undefined) return namedBinary(op, opName, A, B, o, dt, outDt);
  // Plan with the rule the caller picked (numpy by default).
  const bc = o.broadcast === undefined ? {} : o.broadcast;
  if (bc === null || typeof bc !== 'object') throw new TypeError(`${opName}: options.broadcast must be { type, axis }`);
  const type = R.resolveType(bc, opName);
  const shapes = [A.shape, B.shape];
  const ctx = { kind: 'elementwise', rule: type, shapes, axis: bc.axis };
  let st;
  if (type === 'numpy') st = R.callNumpy(shapes, 2);
  else st = R.callBinary(R.TYPES[type], A.shape, B.shape, type === 'pdpd' ? R.checkAxis(bc.axis, ctx) : -1, null, 2);
  R.throwIfFailed(st, ctx);
  const shape = R.outShape();
  const size = checkSize(shape, outDt, shapes);
  return produce([A, B], outDt, shape, size, o, (po) => M._tc_run_binary(op, dt, A.ptr, B.ptr, po));
}

function namedBinary(op, opName, A, B, o, dt, outDt) {
  if (A.dims === undefined || B.dims === undefined) {
    if (A.shape.length === 0 && A.dims === undefined) A.dims = [];
    else if (B.shape.length === 0 && B.dims === undefined) B.dims = [];
    else throw new TypeError(`${opName}: give dims to both operands (or neither) to broadcast by name`);
  }
  const shaping = R.resolveShaping(o);
  const na = R.checkNamed({ dims: A.dims, shape: A.shape, coords: A.coords }, 'left');
  const nb = R.checkNamed({ dims: B.dims, shape: B.shape, coords: B.coords }, 'right');
  const M = mod();
  const { st, nameList, labelList } = R.callNamed(na, nb, R.SHAPING[shaping], 2);
  const ctx = { kind: 'named', shapes: [na.sizes, nb.sizes], describe: [R.describeNamed(na), R.describeNamed(nb)], names: R.namedOutNames(na, nb) };
  R.throwIfFailed(st, ctx);
  const shape = R.outShape();
  const { axes, needsGather } = R.readNamedAxes(M.HEAPF64, labelList);
  const named = R.namedResult(nameList, axes);
  const size = checkSize(shape, outDt, [A.shape, B.shape]);
  if (!needsGather) {
    return produce([A, B], outDt, shape, size, o, (po) => M._tc_run_binary(op, dt, A.ptr, B.ptr, po), named);
  }
  // Union cells one side lacks read the fill value (default NaN / 0).
  const fill = o.fill === undefined ? (isFloat(dt) ? NaN : 0) : o.fill;
  const F = scalarOperand(fill, dt, `${opName}: options.fill`);
  if (!F) throw new TypeError(`${opName}: options.fill must be a number`);
  const F2 = { ...F };
  return produce([A, B, F, F2], outDt, shape, size, o,
    (po) => M._tc_run_binary_gather(op, dt, A.ptr, B.ptr, F.ptr, F2.ptr, po), named);
}

function makeOp(name) {
  const f = (a, b, options) => binary(name, a, b, options);
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

/** a + b with broadcasting. */ export const add = makeOp('add');
/** a - b */ export const sub = makeOp('sub');
/** a * b */ export const mul = makeOp('mul');
/** a / b (integers: truncated toward zero, x / 0 = 0) */ export const div = makeOp('div');
/** a % b, JS semantics (integers: x % 0 = 0) */ export const rem = makeOp('rem');
/** a ** b */ export const pow = makeOp('pow');
/** Element-wise minimum (NaN propagates, -0 < +0). */ export const minimum = makeOp('minimum');
/** Element-wise maximum (NaN propagates, -0 < +0). */ export const maximum = makeOp('maximum');
export const equal = makeOp('equal');
export const notEqual = makeOp('notEqual');
export const less = makeOp('less');
export const lessEqual = makeOp('lessEqual');
export const greater = makeOp('greater');
export const greaterEqual = makeOp('greaterEqual');
export const logicalAnd = makeOp('logicalAnd');
export const logicalOr = makeOp('logicalOr');
export const logicalXor = makeOp('logicalXor');
export const bitwiseAnd = makeOp('bitwiseAnd');
export const bitwiseOr = makeOp('bitwiseOr');
export const bitwiseXor = makeOp('bitwiseXor');

// ---- broadcastTo -------------------------------------------------------------------------------
/**
 * Materialise `x` broadcast to `target` (every Broadcast-op mode, -1 in mode numpy).
 */
export function broadcastTo(x, target, options) {
  const o = R.checkOptions(options, 'broadcastTo');
  const X = operand(x, 'broadcastTo: x');
  const { rule, ctx, axis, mapping } = R.prepareTo(X.shape, target, o, 'broadcastTo');
  const st = R.callBinary(rule, X.shape, target, axis, mapping, 2);
  R.throwIfFailed(st, ctx);
  const shape = R.outShape();
  if (shape === '[...]' || shape.some((d) => typeof d !== 'number')) {
    throw new BroadcastError(`broadcastTo: target ${formatShape(target)} must be static to materialise`, { code: 'INVALID_SHAPE', shapes: [X.shape, target] });
  }
  const size = checkSize(shape, X.dt, [X.shape, target]);
  const M = mod();
  return produce([X], X.dt, shape, size, o, (po) => M._tc_run_copy(SIZES[X.dt], X.ptr, po));
}

// ---- where ---------------------------------------------------------------------------------------
/** where(cond, a, b): a where cond != 0, else b, with three-way numpy broadcasting. */
export function where(cond, a, b, options) {
  const o = R.checkOptions(options, 'where');
  const C = operand(cond, 'where: cond');
  let A = typeof a === 'number' || typeof a === 'bigint' ? null : operand(a, 'where: a');
  let B = typeof b === 'number' || typeof b === 'bigint' ? null : operand(b, 'where: b');
  if (!A && !B) throw new TypeError('where: a or b must be a tensor, to give the result a dtype');
  if (!A) A = scalarOperand(a, B.dt, 'where: a');
  if (!B) B = scalarOperand(b, A.dt, 'where: b');
  if (A.dt !== B.dt) {
    throw new BroadcastError(`where: a and b have different dtypes (${DTYPES[A.dt]} vs ${DTYPES[B.dt]})`,
      { code: 'DTYPE_MISMATCH', shapes: [C.shape, A.shape, B.shape], axis: null, dims: [DTYPES[A.dt], DTYPES[B.dt]] });
  }
  const shapes = [C.shape, A.shape, B.shape];
  R.throwIfFailed(R.callNumpy(shapes, 2), { kind: 'elementwise', rule: 'numpy', shapes });
  const shape = R.outShape();
  const size = checkSize(shape, A.dt, shapes);
  const M = mod();
  return produce([C, A, B], A.dt, shape, size, o, (po) => M._tc_run_where(C.dt, SIZES[A.dt], C.ptr, A.ptr, B.ptr, po));
}

// ---- kernels registry (for tests and benchmarks) ---------------------------------------------
// Each entry of a registry: its name (written into a 64-byte slot) and its packed info.
function readRegistry(count, info) {
  const buf = slot(5, 64);
  const dec = new TextDecoder();
  const list = [];
  for (let i = 0, n = count(); i < n; i++) {
    const bits = info(i, buf);
    const bytes = mod().HEAPU8.subarray(buf, buf + 64); // after the call: a fresh view
    list.push({ index: i, name: dec.decode(bytes.subarray(0, bytes.indexOf(0))), bits });
  }
  return list;
}

/** Every kernel in this build: { index, name, dtype, op, form, simd }. */
export function kernels() {
  const M = mod();
  const ops = Object.keys(OPS);
  return readRegistry(() => M._tc_kernel_count(), (i, buf) => M._tc_kernel_info(i, buf)).map(({ index, name, bits }) => ({
    index, name, dtype: DTYPES[bits & 0xff], op: ops[(bits >> 8) & 0xff], form: ['vv', 'vs', 'sv'][(bits >> 16) & 0xff], simd: (bits >> 24) === 1,
  }));
}

/** The select (where) kernels of this build: { index, name, width (bytes), form, simd } (test hook). */
export function selectKernels() {
  const M = mod();
  return readRegistry(() => M._tc_select_count(), (i, buf) => M._tc_select_info(i, buf)).map(({ index, name, bits }) => ({
    index, name, width: bits & 0xff, form: ['vv', 'vs', 'sv', 'ss'][(bits >> 16) & 0xff], simd: (bits >> 24) === 1,
  }));
}

/** Run select kernel `index` (test hook): out[i] = mask[i] ? x[i] : y[i] over n elements (Uint8Array views of the bytes). */
export function runSelectKernel(index, mask, x, y, out, n) {
  const M = mod();
  const pm = slot(0, Math.max(mask.byteLength, 1));
  const px = slot(1, Math.max(x.byteLength, 1));
  const py = slot(2, Math.max(y.byteLength, 1));
  const po = slot(3, Math.max(out.byteLength, 1));
  M.HEAPU8.set(mask, pm);
  M.HEAPU8.set(x, px);
  M.HEAPU8.set(y, py);
  if (M._tc_select_run(index, pm, px, py, po, n) !== 0) throw new RangeError(`no select kernel ${index}`);
  out.set(M.HEAPU8.subarray(po, po + out.byteLength));
  return out;
}

/** Run registry kernel `index` on typed arrays (test hook): out = a (op) b over n elements. */
export function runKernel(index, a, b, out, n) {
  const M = mod();
  const pa = slot(0, Math.max(a.byteLength, 1));
  const pb = slot(1, Math.max(b.byteLength, 1));
  const po = slot(3, Math.max(out.byteLength, 1));
  M.HEAPU8.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), pa);
  M.HEAPU8.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), pb);
  if (M._tc_kernel_run(index, pa, pb, po, n) !== 0) throw new RangeError(`no kernel ${index}`);
  out.set(new out.constructor(M.HEAPU8.buffer, po, out.length));
  return out;
}

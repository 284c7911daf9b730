// Resident tensors: data copied into wasm memory once, read in place by every
// op. Only the library makes a Tensor (tensor() and op results); what it holds
// is private, and its dims and coords are the library's own copies.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, formatShape } from './errors.js';
import { view, viewFor, heapCopy, malloc, free } from './heap.js';
import { halfValue } from './half.js';
import { readNamed, duplicateLabel } from './named.js';
import { readOptions } from './options.js';
import { readStaticShape, product } from './shapes.js';
import { rowMajor, gather } from './strided.js';

const TOKEN = Symbol('tensorcast.Tensor');
let liveTensors = 0;
// A tensor's memory is its own until a view of it is made (reshape): then an
// allocation record { ptr, count } is shared by the tensor and every view over
// the same memory, each live Tensor counting once, and the memory is freed
// when the last one is disposed (or collected). A tensor without views keeps
// no record (nothing more is allocated per tensor in the hot path).
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((held) => {
    // Safety net only: the tensor was collected without dispose(). `held` is
    // its pointer, or the allocation record it shares with views.
    liveTensors--;
    const ptr = typeof held === 'number' ? held : --held.count === 0 ? held.ptr : 0;
    if (ptr !== 0) {
      try { mod()._tc_free(ptr); } catch { /* module gone */ }
    }
  })
  : null;
const disposeSymbol = Symbol.dispose ?? Symbol.for('Symbol.dispose');
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
// Every copy of tensorcast marks its tensors with this registered symbol, so a
// tensor of another instance (the CommonJS build, tensorcast/inline, a second
// copy of the package) is recognised and refused by name, not misread.
const TENSOR_MARK = Symbol.for('tensorcast.Tensor');

// The brand of a snapshot record: only operand() below sets it, and the commit
// stage (commitCheck) refuses any record without it. Module-private.
const SNAPSHOT = Object.freeze({ snapshot: true });

/**
 * An operand as one call sees it, after its snapshot: a resident tensor's
 * record, a plain { data, shape } copied for the call, a scalar, or `out`.
 * One factory and one object literal, so every call site in the hot path sees
 * one object shape, allocated inline (a class constructor this wide is not
 * inlined by V8 and goes through its generic construct stub).
 */
export function operand(resident, ptr, data, shape, dtype, size, dims, labels, coords, tensor, scalar) {
  return {
    resident, ptr, data, shape, dtype, size, dims, labels, coords, tensor, scalar,
    named: null, // a plain operand's dims and coords as given, until readNames()
    brand: SNAPSHOT,
    // A view (operands.js readView, layout.js): element strides per axis (null:
    // row-major). Resident: `ptr` is the address of element 0. Plain: `offset`
    // is element 0's index in `data`, and the elements [lo, lo + span) are
    // what a call copies in; `len` is the data's length as the snapshot read it.
    strides: null, offset: 0, lo: 0, span: size, len: size,
    shared: false, // a resident tensor whose memory another tensor (a view, or its base) also reads
  };
}

/**
 * The commit stage's check of a record, made after the last user code of a
 * call has run and before its first heap access (execute.js runs it on every
 * operand and `out` it is handed): the record is a snapshot the library made,
 * a resident operand's tensor is still alive (a getter may have disposed it
 * after it was read), and a plain operand's data still has the length its
 * snapshot read (a getter may have resized a resizable buffer). True when all
 * holds; the error comes from commitError() (apart: this one stays small
 * enough for V8 to inline into the hot call).
 */
export function committable(o) {
  if (o.brand !== SNAPSHOT) return false;
  if (o.resident) return isAlive(o.tensor);
  return o.scalar || taLength.call(o.data) === o.len;
}

/** Why committable(o) said no; `what` names the operand in the message. */
export function commitError(o, what) {
  if (o === null || typeof o !== 'object' || o.brand !== SNAPSHOT) {
    return new Error(`tensorcast internal error: ${what} reached the engine without a snapshot`);
  }
  if (o.resident) {
    return new TypeError(`${what} was disposed while the call was reading its arguments (by a getter, Proxy or callback): dispose tensors after the calls that use them`);
  }
  const len = taLength.call(o.data);
  if (len === 0 && isDetached(o.data)) return new TypeError(`${what}.data: its ArrayBuffer was detached (transferred) while the call was reading its arguments`);
  const had = o.shape === null || o.strides !== null ? `${o.len} when the call read it` : `shape ${formatShape(o.shape)} needs ${o.size}`; // null: a typed-array out
  return new BroadcastError(`${what}: data has ${len} elements but ${had} (its buffer was resized while the call was reading its arguments)`,
    { code: 'LENGTH_MISMATCH', shapes: [o.shape], axis: null, dims: [len, o.len] });
}

/** True for a Tensor of another tensorcast instance (one this library cannot read). */
export function isForeignTensor(x) {
  if (x === null || typeof x !== 'object') return false;
  try {
    return x[TENSOR_MARK] === true && !(x instanceof Tensor);
  } catch {
    return false;
  }
}

/** The message for a tensor of another tensorcast instance passed as `what`. */
export function foreignTensor(what) {
  return new TypeError(`${what} is a Tensor of another tensorcast instance (the CommonJS build, tensorcast/inline, `
    + 'or a second copy of the package in node_modules): each instance has its own WebAssembly memory, so its tensors '
    + 'cannot be read here. Import tensorcast one way throughout, or pass { data: t.toArray(), shape: t.shape } to this instance');
}

/** A copy of an operand with other dims and labels (a tensor's own record is never changed). */
export function withNames(o, dims, labels) {
  const c = operand(o.resident, o.ptr, o.data, o.shape, o.dtype, o.size, dims, labels, o.coords, o.tensor, o.scalar);
  c.named = o.named;
  c.strides = o.strides;
  c.offset = o.offset;
  c.lo = o.lo;
  c.span = o.span;
  c.len = o.len;
  return c;
}

/** The library's view of a tensor (its Operand record), or null for anything else. */
export let handleOf;
/** True while a Tensor of this instance is not disposed. */
let isAlive;
/** The allocation record a tensor shares with its views (made at its first view). */
let sharedAlloc;
/** A tensor's record even once disposed (its shape, dtype and names stay readable), or null for anything else. */
export let metaOf;

/** A tensor resident in WebAssembly memory (made by `tensor()` and by ops on resident operands). */
export class Tensor {
  // The library's record of this tensor: what operands and `out` read. One
  // object for the tensor's life (no allocation per use); null once disposed.
  // Nothing in the library writes to it.
  #h;
  // The allocation record shared with every view over the same memory; null
  // while the tensor has had no view (its memory is then its own).
  #alloc;

  static {
    handleOf = (x) => {
      // instanceof first: a cheap no for plain objects (a private-name check on
      // every operand's map is not). A tensor whose prototype was swapped is not one.
      if (!(x instanceof Tensor) || !(#h in x)) return null;
      if (x.#h === null) throw new TypeError('tensorcast: this tensor has been disposed');
      return x.#h;
    };
    isAlive = (t) => t.#h !== null;
    sharedAlloc = (t) => {
      if (t.#alloc === null) {
        t.#alloc = { ptr: t.#h.ptr, count: 1 };
        t.#h.shared = true;
        // The safety net now holds the shared record, not the bare pointer.
        if (registry) {
          registry.unregister(t);
          registry.register(t, t.#alloc, t);
        }
      }
      return t.#alloc;
    };
    metaOf = (x) => (x instanceof Tensor && #h in x ? x.#h ?? x.#gone : null);
  }

  /** Marks tensors of every tensorcast instance (see isForeignTensor). */
  get [TENSOR_MARK]() { return true; }

  /** @internal Only the library makes tensors: use tensor(data, shape). */
  constructor(token, ptr, shape, dtype, dims, coords, alloc, strides) {
    if (token !== TOKEN) throw new TypeError('tensorcast: use tensor(data, shape) to make a Tensor');
    // The record is private (handleOf is the library's own) and not frozen: a
    // frozen object or array has another V8 map than a plain operand's, and the
    // hot path would see two shapes of everything. Its getters hand out copies.
    const sh = shape.slice();
    const ds = dims ? Object.freeze(dims.slice()) : undefined;
    const cs = coords ? Object.freeze(Object.fromEntries(Object.entries(coords).map(([k, v]) => [k, Object.freeze(v.slice())]))) : undefined;
    this.#h = operand(true, ptr, null, sh, dtype, product(sh), ds,
      ds ? Object.freeze(ds.map((d) => cs?.[String(d)] ?? null)) : undefined, cs, this, false);
    if (strides) this.#h.strides = strides.slice(); // a view that is not row-major (layout.js)
    if (alloc) this.#h.shared = true;
    this.#alloc = alloc ?? null;
    if (alloc) alloc.count++;
    liveTensors++;
    registry?.register(this, alloc ?? ptr, this);
  }

  // Shape, dtype and names stay readable after dispose(); the data does not.
  #meta() { return this.#h ?? this.#gone; }
  #gone = null;

  get shape() { return this.#meta().shape.slice(); }
  get dtype() { return this.#meta().dtype.name; }
  get size() { return this.#meta().size; }
  get byteLength() { return this.#meta().size * this.#meta().dtype.size; }
  get disposed() { return this.#h === null; }
  get dims() { const d = this.#meta().dims; return d ? d.slice() : undefined; }
  get coords() { return this.#meta().coords; }

  /** Copy the data out into a new typed array (a view's elements in row-major order). */
  toArray() {
    const h = handleOf(this);
    const off = h.ptr / h.dtype.size;
    if (h.strides !== null) return gather(view(h.dtype), off, h.shape, h.strides, new h.dtype.ctor(h.size));
    return heapCopy(h.dtype, off, h.size);
  }

  /** Element strides of this tensor (row-major unless it is a view made by transpose, slice, flip, …). */
  get strides() {
    const m = this.#meta();
    return m.strides !== null ? m.strides.slice() : rowMajor(m.shape);
  }

  /**
   * The single value of a size-1 tensor (any shape: [], [1], [1, 1], ...), as
   * a JS number (a bigint for bigint64 / biguint64). Any other size is a
   * BroadcastError (INVALID_SHAPE) naming the size: reduce first (sum(t).item()) or copy all out with toArray().
   */
  item() {
    const h = handleOf(this);
    if (h.size !== 1) {
      throw new BroadcastError(`item(): the tensor ${formatShape(h.shape)} has ${h.size} elements, and item() reads a tensor of exactly one; `
        + 'reduce it first (sum(t).item(), mean(t).item()) or copy every element out with toArray()',
      { code: 'INVALID_SHAPE', shapes: [h.shape.slice()], axis: null, dims: [h.size, 1] });
    }
    const v = view(h.dtype)[h.ptr / h.dtype.size];
    return h.dtype.bits ? halfValue(v) : v; // float16 held as bits where the runtime has no Float16Array
  }

  /**
   * Free the wasm memory now (once no view of it, see reshape(), is alive).
   * Disposing again does nothing (using it afterwards throws).
   */
  dispose() {
    if (this.#h === null) return;
    registry?.unregister(this);
    const a = this.#alloc;
    if (a === null) free(this.#h.ptr);
    else if (--a.count === 0) free(a.ptr);
    this.#gone = this.#h;
    this.#h = null;
    liveTensors--;
  }

  [disposeSymbol]() {
    this.dispose();
  }

  /** `Tensor float32 [2,3] [1, 2, 3, 4, 5, 6]` (the first 8 values). */
  toString() {
    const m = this.#meta();
    const head = `Tensor ${m.dtype.name} ${formatShape(m.shape)}${m.dims ? ` dims [${m.dims.join(', ')}]` : ''}`;
    if (this.#h === null) return `${head} (disposed)`;
    const off = m.ptr / m.dtype.size;
    const head8 = m.strides !== null ? this.toArray().subarray(0, 8) : view(m.dtype).subarray(off, off + Math.min(m.size, 8));
    const first = Array.from(head8, m.dtype.bits ? (h) => String(halfValue(h)) : String);
    return `${head} [${first.join(', ')}${m.size > 8 ? `, … ${m.size - 8} more` : ''}]`;
  }

  toJSON() {
    const m = this.#meta();
    return { dtype: m.dtype.name, shape: m.shape.slice(), ...(m.dims ? { dims: m.dims.slice() } : {}), disposed: this.#h === null };
  }

  [inspectSymbol]() {
    return this.toString();
  }

  get [Symbol.toStringTag]() { return 'Tensor'; }
}

/** Make a Tensor over `bytes` at `ptr` (the library's own allocation). */
export function makeTensor(ptr, shape, dtype, dims, coords) {
  return new Tensor(TOKEN, ptr, shape, dtype, dims, coords);
}

/**
 * A new Tensor over the memory of the tensor whose record is `h` (a view: it
 * shares the allocation, which is freed when the last tensor over it is
 * disposed), with `shape` (of h.size elements) and the given names.
 */
export function viewOf(h, shape, dims, coords, strides = null, ptr = h.ptr) {
  return new Tensor(TOKEN, ptr, shape, h.dtype, dims, coords, sharedAlloc(h.tensor), strides);
}

/**
 * `t` (a fresh result tensor the library made and nobody else holds) with
 * names: a view with them over its memory, `t` itself disposed (no copy).
 */
export function renamed(t, dims, coords) {
  const h = handleOf(t);
  const v = viewOf(h, h.shape, dims, coords);
  t.dispose();
  return v;
}

export function liveTensorCount() {
  return liveTensors;
}

// A typed array's kind and length as the engine sees them: the intrinsic
// getters, which neither a subclass, an own property nor a forged prototype can change.
const TA_PROTO = Object.getPrototypeOf(Int8Array.prototype);
const taTag = Object.getOwnPropertyDescriptor(TA_PROTO, Symbol.toStringTag).get;
export const taLength = Object.getOwnPropertyDescriptor(TA_PROTO, 'length').get;

/** The dtype of a typed array, or undefined. */
let lastTag = null;
let lastDtype;
let lastTable = null;
export function dtypeOf(data) {
  const tag = taTag.call(data);
  // The tags are 11 constant strings: the last one answers most calls without a hash lookup.
  if (tag === lastTag && lastTable === C.dtypeByTag) return lastDtype;
  const d = C.dtypeByTag.get(tag);
  if (d !== undefined) {
    lastTag = tag;
    lastDtype = d;
    lastTable = C.dtypeByTag;
  }
  return d;
}

/**
 * The dtype of typed array `data` given with a `dtype` name beside it (an
 * operand's `dtype`, tensor()'s option): the name must agree with the array,
 * except that 'float16' on a Uint16Array means the array holds float16 bits
 * (how float16 travels where the runtime has no Float16Array). undefined: the
 * array's own dtype.
 */
export function declaredDtype(data, name, operand) {
  const d = dtypeOf(data);
  if (name === undefined || d === undefined) return d;
  const what = `${operand}.dtype`; // built here, off the common path (no dtype given)
  const want = typeof name === 'string' ? C.dtypeByName.get(name) : undefined;
  if (want === undefined) {
    throw new TypeError(`${what} must be one of ${[...C.dtypeByName.keys()].join(', ')}, got ${typeof name === 'string' ? JSON.stringify(name) : typeof name}`);
  }
  if (want === d) return d;
  const tag = taTag.call(data);
  if (want.half && tag === 'Uint16Array') return want;
  const fix = want.half
    ? `float16 data is a ${want.bits ? 'Uint16Array of its bits (this runtime has no Float16Array)' : 'Float16Array, or a Uint16Array of its bits'}`
    : `pass a ${want.array} or leave dtype out (it is the array's)`;
  throw new TypeError(`${what} is '${want.name}' but the data is a ${tag} (${d.name}): ${fix}`);
}

/**
 * Whether `out` (its snapshot `dest`) can take a result of dtype `dt`: the
 * same dtype, or a Uint16Array for a float16 result, which receives the
 * result's bits (the snapshot then says float16, so the copy moves bits).
 */
export function outHolds(dest, dt) {
  if (dest.dtype === dt) return true;
  if (dt.half && !dest.resident && taTag.call(dest.data) === 'Uint16Array') {
    dest.dtype = dt;
    return true;
  }
  return false;
}

// onnxruntime's tensor types (Tensor.Type of onnxruntime-common) and the typed array each holds.
const ORT_ARRAYS = new Map([
  ['float32', ['Float32Array']], ['float64', ['Float64Array']], ['int8', ['Int8Array']], ['uint8', ['Uint8Array']],
  ['int16', ['Int16Array']], ['uint16', ['Uint16Array']], ['int32', ['Int32Array']], ['uint32', ['Uint32Array']],
  ['int64', ['BigInt64Array']], ['uint64', ['BigUint64Array']], ['bool', ['Uint8Array']],
  ['float16', ['Uint16Array', 'Float16Array']],
  ['string', null], ['int4', null], ['uint4', null],
]);
const ORT_DTYPES = { int64: 'bigint64', uint64: 'biguint64', bool: 'uint8' };

/** True for a `type` that is an onnxruntime tensor type name ('float32', 'int64', 'bool', …). */
export function isOrtType(type) {
  return typeof type === 'string' && ORT_ARRAYS.has(type);
}

/** The dtype of an onnxruntime Tensor's data, which must be the typed array its `type` names. */
export function ortDtype(data, type, what) {
  const arrays = ORT_ARRAYS.get(type);
  const tag = ArrayBuffer.isView(data) ? taTag.call(data) : undefined;
  const got = tag ?? (Array.isArray(data) ? 'a plain Array' : data === null ? 'null' : typeof data);
  if (arrays === null) {
    throw new TypeError(`${what} is an onnxruntime Tensor of type '${type}' (data: ${got}), which tensorcast has no dtype for: `
      + 'pass numeric tensors (float32, float64, float16, int8 to int64, uint8 to uint64, bool)');
  }
  if (tag === undefined || !arrays.includes(tag)) {
    throw new TypeError(`${what} is an onnxruntime Tensor of type '${type}' but its data is ${tag ? `${tag.startsWith('I') ? 'an' : 'a'} ${tag}` : got}: `
      + `ort's '${type}' data is ${arrays.map((a) => `${a.startsWith('I') ? 'an' : 'a'} ${a}`).join(' or ')}${type === 'float16' ? ' (of float16 bits)' : ''}; make the type and the data agree`);
  }
  const d = C.dtypeByName.get(ORT_DTYPES[type] ?? type);
  if (d === undefined) throw new TypeError(`${what}: this build has no ${type} dtype`);
  return d;
}

/** Whether every entry of `dims` (a copy, read once) is a number: an onnxruntime Tensor's shape, not dim names. */
export const ortShape = (dims) => dims.every((d) => typeof d === 'number');

/** { type, dims, data } of an object that is an onnxruntime Tensor (no shape, an ort type, dims), each read once; else null. */
function readOrt(x) {
  if (x.shape !== undefined) return null;
  const type = x.type;
  if (!isOrtType(type)) return null;
  const dimsIn = x.dims;
  if (!Array.isArray(dimsIn)) return null;
  const dims = Array.from(dimsIn);
  return ortShape(dims) ? { type, dims, data: x.data } : null;
}

/** Why `data` is not a typed array, for a message. */
export function notTypedArray(data, what) {
  if (Array.isArray(data)) {
    return new TypeError(`${what} is a plain Array; pass a typed array, e.g. Float32Array.from(${data.length <= 4 ? JSON.stringify(data) : 'array'})`);
  }
  return new TypeError(`${what} must be a typed array (Float32Array, Int32Array, …), got ${data === null ? 'null' : ArrayBuffer.isView(data) ? 'a DataView' : typeof data}`);
}

/**
 * Why `len` elements of `data` do not fill `shape` (`n` elements): `what`
 * names the call in the message, `dataWhat` the data.
 */
export function lengthError(what, dataWhat, data, len, shape, n) {
  if (len === 0 && isDetached(data)) return new TypeError(`${dataWhat}: its ArrayBuffer was detached (transferred to another thread or context)`);
  return new BroadcastError(`${what}: data has ${len} elements but shape ${formatShape(shape)} needs ${n}`,
    { code: 'LENGTH_MISMATCH', shapes: [shape], axis: null, dims: [len, n] });
}

/** True when a typed array's buffer was detached (transferred). */
export function isDetached(data) {
  try {
    new Uint8Array(data.buffer, 0, 0); // throws on a detached buffer
    return false;
  } catch {
    return true;
  }
}

/**
 * The names a tensor is made with (options { dims, coords } of tensor() and
 * reshape()), read once and checked against its static `shape`: { dims,
 * coords } (coords undefined when no dim has labels). `fn` names the call.
 */
export function readTensorNames(named, shape, fn) {
  const nd = readNamed({ dims: named.dims, shape, coords: named.coords }, fn, fn);
  nd.labels.forEach((l, i) => {
    const dup = l ? duplicateLabel(l) : null;
    if (dup !== null) {
      throw new BroadcastError(`${fn}: dim "${nd.dims[i]}" has the coordinate ${JSON.stringify(l[dup[1]]) ?? String(l[dup[1]])} twice (at ${dup[0]} and ${dup[1]}): duplicate labels`, { code: 'INVALID_SHAPE', shapes: [shape], axis: i, dims: null });
    }
  });
  let coords;
  if (nd.labels.some((l) => l)) coords = Object.fromEntries(nd.dims.map((d, i) => [String(d), nd.labels[i]]).filter(([, l]) => l));
  return { dims: nd.dims, coords };
}

function tensorOfTensor(data) {
  if (isForeignTensor(data)) return foreignTensor('tensor(data)');
  return new TypeError('tensor(data): data is already a Tensor. To give it another shape use reshape(t, shape) or t.reshape(shape) '
    + '(a view over the same memory, no copy; one dim may be -1); to copy it into a new tensor, tensor(t.toArray(), shape)');
}

/**
 * Copy data into wasm memory once; ops on resident tensors read it in place.
 * @param {ArrayBufferView | {type: string, dims: readonly number[], data: ArrayBufferView}} data
 *   a typed array, or an onnxruntime Tensor (its data, of the dtype its type is read as)
 * @param {number[]} [shape] defaults to [data.length] (an onnxruntime Tensor: its dims)
 * @param {{dims?: (string|number)[], coords?: object}} [options]
 */
export function tensor(data, shape, options) {
  mod();
  // Every user value first (options, shape, dims: getters run now, once), the data's length last.
  const o = readOptions(options, 'tensor', ['dims', 'coords', 'dtype']);
  if (data instanceof Tensor || isForeignTensor(data)) throw tensorOfTensor(data);
  let ort = null;
  if (!ArrayBuffer.isView(data)) {
    // An onnxruntime Tensor: its data, its type, and its dims as the default shape.
    ort = data !== null && typeof data === 'object' && !Array.isArray(data) ? readOrt(data) : null;
    if (ort === null) throw notTypedArray(data, 'tensor(data)');
    data = ort.data;
    if (o.dtype !== undefined) throw new TypeError(`tensor: options.dtype is for a typed array; an onnxruntime Tensor's dtype is its type ('${ort.type}')`);
    if (shape === undefined) shape = ort.dims;
  }
  const dt = ort ? ortDtype(data, ort.type, 'tensor(data)') : declaredDtype(data, o.dtype, 'tensor: options');
  if (!dt) throw notTypedArray(data, 'tensor(data)');
  let s = shape === undefined ? null : readStaticShape(shape, 'tensor(shape)');
  let named = null;
  if (o.dims !== undefined) named = { dims: o.dims, coords: o.coords };
  else if (o.coords !== undefined) throw new TypeError('tensor: coords need dims (name the dims the coords label)');
  const len = taLength.call(data);
  if (s === null) s = [len];
  const n = product(s);
  if (n !== len) throw lengthError('tensor', 'tensor(data)', data, len, s, n);
  let dims;
  let coords;
  if (named) {
    ({ dims, coords } = readTensorNames(named, s, 'tensor'));
    if (taLength.call(data) !== len) throw new TypeError('tensor(data): the data changed length while its dims were read');
  }
  const bytes = n * dt.size;
  if (bytes > C.limits.maxBytes) {
    throw new BroadcastError(`tensor: ${bytes} bytes do not fit WebAssembly memory`, { code: 'TOO_LARGE', shapes: [s], axis: null, dims: null });
  }
  const ptr = malloc(Math.max(bytes, 1));
  // From here the block is this call's: whatever fails gives it back.
  try {
    if (n > 0) (dt.half ? viewFor(dt, data) : view(dt)).set(data, ptr / dt.size);
    return makeTensor(ptr, s, dt, dims, coords);
  } catch (e) {
    free(ptr);
    throw e;
  }
}

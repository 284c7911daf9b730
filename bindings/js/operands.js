// The reading stage: data operands and `out`, read once into one record each
// (operand()). An operand is a plain { data, shape, dims?, coords? } (copied
// into wasm memory for the call), a plain view { data, shape, strides, offset }
// (the elements it spans copied in, read with its strides), a resident Tensor
// or a view of one (read in place), an onnxruntime Tensor, or a JS number /
// bigint (a scalar of the other operand's dtype).
import { C, DTYPES } from './contract.js';
import { readStaticShape, product, isDimValue, describe, taLength, taTag, part, isU16, readStrides, strideCount } from './shapes.js';
import { halfBits } from './half.js';
import { namedFrom, checkLabels } from './named.js';
import { BroadcastError, formatShape } from './errors.js';
import { rowMajor, isRowMajor, reach } from './strided.js';

// ---- the record --------------------------------------------------------------------
// What a call reads of an operand, in one place: the record (operand()), its
// commit check, and the typed-array, dtype and onnxruntime facts it is made
// from. tensor.js binds the Tensor class here (bindTensor): this module reads
// tensors without importing tensor.js.

/** The library's view of a tensor (its record), or null for anything else (tensor.js binds it); a disposed one throws, named `${what}${of}` (the call's operand) when given. */
export let handleOf = () => null;
/** True while a Tensor of this instance is not disposed. */
let isAlive = () => false;
/** True for a Tensor of this instance. */
export let isTensor = () => false;

/** tensor.js, once: how a Tensor's record, liveness and class are read. */
export function bindTensor(h, alive, isT) {
  handleOf = h;
  isAlive = alive;
  isTensor = isT;
}

// Every copy of tensorcast marks its tensors with this registered symbol, so a
// tensor of another instance (the CommonJS build, tensorcast/inline, a second
// copy of the package) is recognised and refused by name, not misread.
export const TENSOR_MARK = Symbol.for('tensorcast.Tensor');

// The brand of a snapshot record: only operand() below sets it, and the commit
// stage (committable) refuses any record without it. Module-private.
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
    return Error(`tensorcast internal error: ${what} has no snapshot`);
  }
  if (o.resident) {
    return TypeError(`${what} was disposed while the call was reading its arguments (by a getter, Proxy or callback): dispose tensors after the calls that use them`);
  }
  const len = taLength.call(o.data);
  if (len === 0 && isDetached(o.data)) return TypeError(`${what}.data: its ArrayBuffer was detached (transferred) while the call was reading its arguments`);
  const had = o.shape === null || o.strides !== null ? `${o.len} when the call read it` : `shape ${formatShape(o.shape)} needs ${o.size}`; // null: a typed-array out
  return new BroadcastError(`${what}: data has ${len} elements but ${had} (its buffer was resized while the call was reading its arguments)`,
    { code: 'LENGTH_MISMATCH', shapes: [o.shape], dims: [len, o.len] });
}

/** True for a Tensor of another tensorcast instance (one this library cannot read). */
export function isForeignTensor(x) {
  if (x === null || typeof x !== 'object') return false;
  try {
    return x[TENSOR_MARK] === true && !isTensor(x);
  } catch {
    return false;
  }
}

/** The message for a tensor of another tensorcast instance passed as `what`. */
export function foreignTensor(what) {
  return TypeError(`${what} is a Tensor of another tensorcast instance (the CommonJS build, tensorcast/inline, `
    + 'or a second copy of the package), whose memory is not this one\'s: import tensorcast one way throughout, '
    + 'or copy it out: t.toArray() and t.shape');
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
  c.shared = o.shared;
  return c;
}

/** A new typed array of `n` elements of dtype `dt` of `data`'s kind (float16 as bits stays bits). */
export const arrayLike = (data, dt, n) => (dt.half && isU16(data) ? new Uint16Array(n) : new dt.ctor(n));


// A typed array's kind and length as the engine sees them: the intrinsic
// getters, which neither a subclass, an own property nor a forged prototype can change.
// (taLength and taTag: shapes.js.)
export { taLength };

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
    throw new TypeError(`${what} must be one of ${DTYPES.join(', ')}, got ${typeof name === 'string' ? JSON.stringify(name) : typeof name}`);
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
  if (dt.half && !dest.resident && isU16(dest.data)) {
    dest.dtype = dt;
    return true;
  }
  return false;
}

// onnxruntime's tensor types (Tensor.Type of onnxruntime-common); each numeric one holds the typed
// array of its dtype (float16: its bits in a Uint16Array, or a Float16Array).
const ORT_TYPES = 'float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64 bool float16 string int4 uint4'.split(' ');
const ORT_DTYPES = { int64: 'bigint64', uint64: 'biguint64', bool: 'uint8' };

/** True for a `type` that is an onnxruntime tensor type name ('float32', 'int64', 'bool', …). */
export const isOrtType = (type) => ORT_TYPES.includes(type);

/** The dtype of an onnxruntime Tensor's data, which must be the typed array its `type` names. */
export function ortDtype(data, type, what) {
  const d = C.dtypeByName.get(ORT_DTYPES[type] ?? type); // none for string, int4, uint4
  const arrays = d === undefined ? null : d.half ? ['Uint16Array', d.array] : [d.array];
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
  return d;
}

/** Whether every entry of `dims` (a copy, read once) is a number: an onnxruntime Tensor's shape, not dim names. */
export const ortShape = (dims) => dims.every((d) => typeof d === 'number');

/** { type, dims, data } of an object that is an onnxruntime Tensor (no shape, an ort type, dims), each read once; else null. */
export function readOrt(x) {
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
    return TypeError(`${what} is a plain Array; pass a typed array, e.g. Float32Array.from(${data.length <= 4 ? `[${data}]` : 'array'})`);
  }
  return TypeError(`${what} must be a typed array (Float32Array, Int32Array, …), got ${data === null ? 'null' : ArrayBuffer.isView(data) ? 'a DataView' : typeof data}`);
}

/**
 * Why `len` elements of `data` do not fill `shape` (`n` elements): `what`
 * names the call in the message, `dataWhat` the data.
 */
export function lengthError(what, dataWhat, data, len, shape, n) {
  if (len === 0 && isDetached(data)) return TypeError(`${dataWhat}: its ArrayBuffer was detached (transferred to another thread or context)`);
  return new BroadcastError(`${what}: data has ${len} elements but shape ${formatShape(shape)} needs ${n}`,
    { code: 'LENGTH_MISMATCH', shapes: [shape], dims: [len, n] });
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

/** Whether a read operand carries names: dims as given (until readNames()), or a resident tensor's. */
export const hasNames = (o) => o.named !== null || o.dims !== undefined;

export const isScalar = (x) => typeof x === 'number' || typeof x === 'bigint';

/**
 * Snapshot of operand `x`: every property read once. The data's length is
 * read later (settle()), after the last user code of the call has run.
 */
export function readOperand(x, what) {
  const h = handleOf(x, what);
  if (h) return h; // the tensor's own record: resident operands allocate nothing
  // (an object whose prototype is a Tensor, Object.create(t), is none: its getters are a Tensor's)
  if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x) || Array.isArray(x) || isTensor(x)) throw notOperand(x, what);
  let data;
  try {
    data = x.data;
  } catch (e) { // a getter that throws (an onnxruntime Tensor on the GPU, or disposed): a TypeError that names the operand
    throw new TypeError(`${what}.data: ${e}`);
  }
  const shapeIn = x.shape;
  let dimsIn = x.dims;
  const coords = x.coords;
  const dtypeIn = x.dtype;
  if (mayBeOrt(shapeIn, dimsIn, coords, dtypeIn)) {
    const type = x.type;
    if (isOrtType(type) && Array.isArray(dimsIn)) {
      dimsIn = Array.from(dimsIn); // each element read once, whichever reading follows
      if (ortShape(dimsIn)) return ortOperand(data, dimsIn, type, what);
    }
  }
  const dtype = ArrayBuffer.isView(data) ? declaredDtype(data, dtypeIn, what) : undefined; // `what`: its message says `${what}.dtype`
  if (dtype === undefined) throw notData(x, data, shapeIn, what);
  const shape = shapeIn === undefined ? null : readStaticShape(shapeIn, what, '.shape');
  const op = operand(false, 0, data, shape, dtype, 0, undefined, undefined, undefined, null, false);
  if (dimsIn !== undefined) op.named = { dims: dimsIn, coords: coords ?? null };
  const stridesIn = x.strides;
  const offsetIn = x.offset;
  if (stridesIn !== undefined || offsetIn !== undefined) readView(op, stridesIn, offsetIn, what);
  return op;
}

/**
 * A plain operand's strides and offset (a view: { data, shape, strides,
 * offset }), read once: integers, any sign, in elements. Checked against
 * the shape and the data's length by settle().
 */
function readView(o, stridesIn, offsetIn, what) {
  const offset = offsetIn === undefined ? 0 : offsetIn;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset)) {
    throw new BroadcastError(`${what}.offset must be an integer element index, got ${describe(offset)}`,
      { code: 'INVALID_SHAPE' });
  }
  const strides = stridesIn === undefined ? null : readStrides(stridesIn, what);
  o.strides = strides;
  o.offset = offset + 0;
  o.lo = -1; // settle() makes it a view (or a plain run of the data)
}


/**
 * A plain view's checks once the data's length is known: one stride per
 * axis, every element it reaches inside the data. A view that reads a run of
 * the data in row-major order becomes that run (a subarray: the contiguous
 * path); any other keeps its strides, and a call copies in the elements it
 * spans ([lo, lo + span)).
 */
function settleView(o, len, what) {
  const shape = o.shape;
  let strides = o.strides;
  if (strides === null) strides = rowMajor(shape);
  strideCount(strides, shape, what);
  o.size = product(shape);
  const r = reach(shape, strides);
  if (r !== null) {
    const first = o.offset + r[0];
    const last = o.offset + r[1];
    if (first < 0 || last >= len) {
      if (isDetached(o.data)) throw lengthError(what, `${what}.data`, o.data, 0); // a transferred buffer (its length is 0): as plain data says it
      // The axis that carries it past the data: the one with the largest reach on that side.
      let axis = 0;
      let far = -1;
      for (let i = 0; i < shape.length; i++) {
        const e = (shape[i] - 1) * strides[i];
        const d = first < 0 ? -e : e;
        if (d > far) { far = d; axis = i; }
      }
      throw new BroadcastError(`${what}: the view ${formatShape(shape)} with strides [${strides.join(', ')}] and offset ${o.offset} reads element ${first < 0 ? first : last}, `
        + `outside its data of ${len} elements (axis ${axis} reaches ${first < 0 ? 'below 0' : `past ${len - 1}`})`,
      { code: 'LENGTH_MISMATCH', shapes: [shape], axis, dims: [len, first < 0 ? first : last + 1] });
    }
  }
  o.len = len;
  if (r === null || isRowMajor(shape, strides)) {
    // No element, or a run of the data: the contiguous path over that run.
    const start = r === null ? 0 : o.offset;
    if (len) o.data = part(o.data, start, o.size); // (no element of no data: as it is, it may be detached)
    o.strides = null;
    o.offset = 0;
    o.lo = 0; // no longer a view: a later reading with strides of its own (post.js block()) spans [0, size)
    o.len = o.size;
    o.span = o.size;
    return o;
  }
  o.strides = strides;
  o.lo = o.offset + r[0];
  o.span = r[1] - r[0] + 1;
  return o;
}

/**
 * Whether an operand whose shape, dims, coords and dtype were read as these may
 * be an onnxruntime Tensor, so that its `type` is worth reading: no shape,
 * coords or dtype, and dims (an ort Tensor's dims are its shape, not dim names;
 * string dim names, or a shape beside numeric ones, keep an operand named).
 */
export const mayBeOrt = (shape, dims, coords, dtype) => shape === undefined && dims !== undefined && coords === undefined && dtype === undefined;

/**
 * An onnxruntime-web / -node Tensor as an operand: `dims` its shape, `type`
 * its dtype ('bool' a Uint8Array, read as uint8; 'int64' / 'uint64'
 * BigInt64Array / BigUint64Array; 'float16' a Uint16Array of float16 bits or
 * a Float16Array), which must agree with the data's typed array.
 */
function ortOperand(data, dims, type, what) {
  const dtype = ortDtype(data, type, what);
  if (!dims.every(isDimValue)) {
    throw new BroadcastError(`${what} is an onnxruntime Tensor (type '${type}') with dims [${dims.map(String).join(', ')}]: `
      + 'its dims are its shape and must be an array of integers from 0 to 2^53-1', { code: 'INVALID_SHAPE' });
  }
  const shape = readStaticShape(dims, what, '.dims'); // the rank limit
  const len = taLength.call(data);
  const n = product(shape);
  if (n !== len) throw lengthError(`${what} (an onnxruntime Tensor, type '${type}')`, `${what}.data`, data, len, shape, n); // a transferred buffer: as plain data says it
  return operand(false, 0, data, shape, dtype, 0, undefined, undefined, undefined, null, false);
}

// The errors of readOperand (apart, so the function V8 inlines stays small). A call that
// refuses a number or a BigInt before reading says `got a number` (a = 'a '), and `more`.
export function notOperand(x, what, a = '', more = '') {
  if (x === null || typeof x !== 'object') {
    return TypeError(`${what} must be { data, shape } or a resident tensor, got ${x === null ? 'null' : a + typeof x}${more}`);
  }
  if (ArrayBuffer.isView(x)) {
    return TypeError(`${what} is a bare ${x.constructor?.name ?? 'typed array'}: pass { data, shape } (shape defaults to [data.length]) or tensor(data, shape)`);
  }
  if (isTensor(x)) return TypeError(`${what} inherits from a Tensor but is none (Object.create): pass the tensor`);
  return TypeError(`${what} is a plain Array; pass { data: Float32Array.from(${what.split(': ').pop()}), shape: [${x.length}] } or tensor(Float32Array.from(...), shape)`);
}

function notData(x, data, shapeIn, what) {
  if (isForeignTensor(x)) return foreignTensor(what);
  if (data === undefined && shapeIn === undefined && Object.keys(x).length === 0) {
    return TypeError(`${what} is an empty object. If it was a Tensor sent through postMessage or structuredClone: tensors stay in the thread that made them; send { data: t.toArray(), shape: t.shape } instead`);
  }
  if (Array.isArray(data)) return TypeError(`${what}.data is a plain Array; use a typed array, e.g. { data: Float32Array.from(data), shape }`);
  return notTypedArray(data, `${what}.data`);
}

/**
 * Finish an operand's snapshot: the data's length (the intrinsic getter), the
 * shape it defaults to, and the size. The commit stage (execute.js) checks
 * the record again after the call's last user code: the length unchanged, a
 * resident tensor still alive.
 */
export function settle(o, what) {
  // A resident operand's liveness is the commit check's (execute.js): it runs after the call's last user code.
  if (o.resident || o.scalar) return o;
  const len = taLength.call(o.data);
  if (o.shape === null) o.shape = [len];
  if (o.lo === -1) return settleView(o, len, what);
  o.size = product(o.shape);
  o.len = len;
  o.span = len;
  if (o.size !== len) throw lengthError(what, `${what}.data`, o.data, len, o.shape, o.size);
  return o;
}

/**
 * Names of a plain operand, read (once) after its shape is known. A label
 * twice in a dim is refused, as tensor() refuses it; `engine`: the call's
 * engine checks that itself (the binary ops).
 */
export function readNames(o, what, fn, engine) {
  if (o.resident || !o.named) return o;
  // A shape left to default takes the data's length now; settle() checks it again last.
  if (o.shape === null) o.shape = [taLength.call(o.data)];
  const nd = namedFrom(o.named.dims, o.named.coords, o.shape, what, fn);
  o.dims = nd.dims;
  o.labels = nd.labels;
  if (!engine) checkLabels(fn, what, nd.dims, nd.labels, [o.shape]);
  return o;
}

/** A number or bigint as one element of `dtype`. */
export function scalarOperand(v, dtype, what) {
  const arr = new dtype.ctor(1);
  if (dtype.bits) {
    arr[0] = halfBits(typeof v === 'bigint' ? Number(v) : v); // no Float16Array: the value's float16 bits
  } else if (dtype.big) {
    if (typeof v === 'number' && !Number.isInteger(v)) throw new TypeError(`${what}: ${v} is not an integer, needed for a ${dtype.name} scalar`);
    arr[0] = BigInt(v);
  } else {
    arr[0] = typeof v === 'bigint' ? Number(v) : v;
  }
  return operand(false, 0, arr, [], dtype, 1, undefined, undefined, undefined, null, true);
}

/**
 * Snapshot of options.out: a resident Tensor's record, or a typed array as a
 * plain Operand (its `data`; its length is read by settleOut()).
 */
export function readOut(out, fn) {
  if (out === undefined) return null;
  const h = handleOf(out, fn, ': out');
  if (h) return h;
  if (isForeignTensor(out)) throw foreignTensor(`${fn}: out`);
  if (!ArrayBuffer.isView(out) || out instanceof DataView) throw new TypeError(`${fn}: out must be a typed array or a resident tensor`);
  const dtype = dtypeOf(out);
  if (!dtype) throw new TypeError(`${fn}: out must be a typed array or a resident tensor`);
  // Its length as of the snapshot: the commit stage checks it is still that.
  return operand(false, 0, out, null, dtype, taLength.call(out), undefined, undefined, undefined, null, false); // len: that length
}

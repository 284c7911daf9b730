// The reading room: every argument a data call reads, read once into records
// the library owns, and checked (user code runs only here, and never again
// after a call's snapshot). An operand becomes one record (operand()): a plain
// { data, shape, dims?, coords? } (copied into wasm memory for the call), a
// plain view { data, shape, strides, offset } (the elements it spans copied
// in, read with its strides), a resident Tensor or a view of one (read in
// place), an onnxruntime Tensor, or a JS number / bigint (a scalar of the
// other operand's dtype). Then the call goes to the running room (execute.js)
// with its records, once.
//
// Its sections: the record (and the operand, `out` and scalar readers); dim
// names and coordinates; shape arguments (and the typed-array intrinsics);
// float16 bits; strides.
import { C, DTYPES, none } from './contract.js';
import { BroadcastError, formatShape, tooManyEntries } from './errors.js';

// ---- the record --------------------------------------------------------------------
// What a call reads of an operand, in one place: the record (operand()), and
// the typed-array, dtype and onnxruntime facts it is made from (its commit
// check is execute.js's). tensor.js binds the Tensor class here (bindTensor):
// this module reads tensors, and execute.js makes them, without importing tensor.js.

/** The library's view of a tensor (its record), or null for anything else (tensor.js binds it); a disposed one throws, named `${what}${of}` (the call's operand) when given. */
export let handleOf = () => null;
/** True while a Tensor of this instance is not disposed (execute.js's commit check). */
export let isAlive = () => false;
/** True for a Tensor of this instance. */
export let isTensor = () => false;
/** A new resident Tensor over the engine's allocation at `ptr` (execute.js's results): makeTensor(ptr, shape, dtype, dims?, coords?). */
export let makeTensor = null;

/** tensor.js, once: how a Tensor's record, liveness and class are read, and how a result becomes one. */
export function bindTensor(h, alive, isT, make) {
  handleOf = h;
  isAlive = alive;
  isTensor = isT;
  makeTensor = make;
}

// Every copy of tensorcast marks its tensors with this registered symbol, so a
// tensor of another instance (the CommonJS build, tensorcast/inline, a second
// copy of the package) is recognised and refused by name, not misread.
export const TENSOR_MARK = Symbol.for('tensorcast.Tensor');

// The brand of a snapshot record: only operand() below sets it, and the commit
// stage (execute.js committable) refuses any record without it.
export const SNAPSHOT = Object.freeze({ snapshot: true });

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

// ==== Dim names and coordinates =============================================================
// Named operands (§6): { dims, shape } or { dims, coords }, read once into owned arrays.
/** A dim name's identity: coords keys are strings, so 1 and '1' are the same name. */
export const nameKey = (d) => String(d);

/**
 * Read a named operand once: { dims, sizes, labels } with owned arrays.
 * `which` names it in messages ('left', 'right', 'tensor', 'add: a').
 */
export function readNamed(t, which, fn = 'namedBroadcastShape') {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new TypeError(`${fn}: ${which} must be { dims, shape } or { dims, coords }`);
  const dimsIn = t.dims;
  const coords = t.coords ?? null;
  const shapeIn = t.shape;
  return namedFrom(dimsIn ?? [], coords, shapeIn, which, fn);
}

/** The same from separately read parts (a data operand has read its shape already). */
export function namedFrom(dimsIn, coords, shapeIn, which, fn) {
  if (!Array.isArray(dimsIn)) throw new TypeError(`${fn}: ${which}.dims must be an array of dim names`);
  const dims = Array.from(dimsIn);
  for (const d of dims) {
    if (typeof d !== 'string' && typeof d !== 'number') throw new TypeError(`${fn}: ${which}.dims entries must be strings or numbers, got ${typeof d}`);
  }
  const seen = new Map(none);
  for (let i = 0; i < dims.length; i++) {
    const k = nameKey(dims[i]);
    if (seen.has(k)) {
      throw new BroadcastError(`${fn}: ${which} has the dim name "${k}" twice (axes ${seen.get(k)} and ${i}): duplicate dim names (1 and '1' are the same name)`,
        { code: 'INVALID_SHAPE', axis: i });
    }
    seen.set(k, i);
  }
  if (coords !== null && (typeof coords !== 'object' || Array.isArray(coords))) {
    throw new TypeError(`${fn}: ${which}.coords must be an object of { dimName: labels[] }`);
  }
  let shape;
  if (shapeIn !== undefined) {
    shape = copyShape(shapeIn, `${fn}: ${which}.shape`);
    checkShape(shape, false, [shape], `${fn}: ${which}.shape`);
    if (!isStatic(shape)) {
      throw new BroadcastError(`${fn}: ${which}.shape must be static`, { code: 'INVALID_SHAPE', shapes: [shape] });
    }
    if (shape.length !== dims.length) {
      throw new BroadcastError(`${fn}: ${which} has ${dims.length} dim names but shape ${formatShape(shape)}`,
        { code: 'INVALID_SHAPE', shapes: [shape] });
    }
  }
  const sizes = new Array(dims.length);
  const labels = new Array(dims.length);
  const coordKeys = coords ? Object.keys(coords) : [];
  for (let i = 0; i < dims.length; i++) {
    let c = coords && Object.hasOwn(coords, nameKey(dims[i])) ? coords[nameKey(dims[i])] : undefined;
    if (c !== undefined) {
      if (!Array.isArray(c)) throw new TypeError(`${fn}: ${which}.coords.${dims[i]} must be an array of labels`);
      c = Array.from(c);
      if (c.length > C.limits.maxLabels) {
        throw new BroadcastError(`${fn}: ${which} dim "${dims[i]}" has ${c.length} coordinates; at most ${C.limits.maxLabels}`, { code: 'TOO_LARGE', axis: i });
      }
      for (const l of c) {
        if (typeof l !== 'string' && typeof l !== 'number' && typeof l !== 'boolean') throw new TypeError(`${fn}: coordinate labels must be strings, numbers or booleans, got ${typeof l}`);
      }
      // With coords, the dim's size is its number of labels; a shape given too must agree.
      if (shape !== undefined && shape[i] !== c.length) {
        throw new BroadcastError(`${fn}: ${which} dim "${dims[i]}" has size ${shape[i]} but coordinates of length ${c.length}`,
          { code: 'INVALID_SHAPE', shapes: [shape], axis: i, dims: [shape[i], c.length] });
      }
      labels[i] = c;
      sizes[i] = c.length;
    } else {
      if (shape === undefined) {
        throw new BroadcastError(`${fn}: ${which} dim "${dims[i]}" has neither a size (shape) nor coordinates`, { code: 'INVALID_SHAPE', axis: i });
      }
      labels[i] = null;
      sizes[i] = shape[i];
    }
  }
  for (const k of coordKeys) {
    if (!seen.has(k)) {
      throw new BroadcastError(`${fn}: ${which}.coords names "${k}", which is not one of its dims`, { code: 'INVALID_SHAPE' });
    }
  }
  return { dims, sizes, labels };
}

// Labels keyed by type then value (1 and '1' are different labels; -0 and 0,
// and NaN and NaN, the same): one Map per type, so no key string is built per
// label — a million-label axis is interned in milliseconds.
export class LabelMap {
  constructor() { this.n = new Map(none); this.s = new Map(none); this.b = new Map(none); }
  map(l) { return typeof l === 'number' ? this.n : typeof l === 'string' ? this.s : this.b; }
  get(l) { return this.map(l).get(l); }
  has(l) { return this.map(l).has(l); }
  set(l, v) { this.map(l).set(l, v); }
}

/** [i, j] of the first label j that repeats an earlier one i (1 and '1' differ; NaN repeats NaN), or null. */
export function duplicateLabel(labels) {
  const seen = new LabelMap();
  for (let j = 0; j < labels.length; j++) {
    if (seen.has(labels[j])) return [seen.get(labels[j]), j];
    seen.set(labels[j], j);
  }
  return null;
}

/** Refuse `labels` (per dim of `dims`: an array, or null) that hold a coordinate twice: INVALID_SHAPE at that dim. */
export function checkLabels(fn, which, dims, labels, shapes) {
  labels.forEach((l, a) => {
    const dup = l ? duplicateLabel(l) : null;
    if (dup !== null) {
      throw new BroadcastError(`${fn}: ${which} has the coordinate ${describe(l[dup[1]])} twice in dim "${dims[a]}" (at ${dup[0]} and ${dup[1]}): duplicate labels name no single cell`,
        { code: 'INVALID_SHAPE', shapes, axis: a });
    }
  });
}

// ==== Shape arguments =======================================================================
// Shape arguments: read once into arrays the library owns, then checked.
//
// copyShape() is the only place a caller's shape is read: its length once,
// each element once (a getter or Proxy trap runs then, and never again).
// Everything after works on the copy, so a shape cannot change under a call.
export const UNKNOWN_RANK = '[...]';
/** The most dims a shape may have. */
export const MAX_RANK = 32;
export const INTERVAL = /^\s*(\d*)\s*\.\.\s*(\d*)\s*$/;

// The typed-array intrinsics: a caller's array read as the engine sees it, whatever its class or own properties say.
const TA_PROTO = Object.getPrototypeOf(Int8Array.prototype);
const intrinsic = (k) => Object.getOwnPropertyDescriptor(TA_PROTO, k);
export const taLength = intrinsic('length').get;
const taTag = intrinsic(Symbol.toStringTag).get;
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

// ==== float16 bits ==========================================================================
// float16 bits <-> numbers, for runtimes without Float16Array (Node 20): the
// library's scalars and the display of float16 bits. The engine's conversions
// (src/kernels/half.hpp) are the same algorithm; these agree with them bit for bit.
const f32 = Float32Array.of(0); // (not `new Float32Array(1)`: see contract.js's `none`)
const u32 = new Uint32Array(f32.buffer);

/**
 * The float16 nearest `v` (ties to even), as its 16 bits: one rounding (through
 * float32 with round-to-odd). Overflow gives ±Infinity, NaN a quiet NaN.
 * @param {number} v
 * @returns {number}
 */
export function halfBits(v) {
  f32[0] = v;
  let b = u32[0];
  if (f32[0] !== v && v === v) { // inexact in float32: round to odd, so that one rounding remains
    if (Math.abs(f32[0]) > Math.abs(v)) b = (b - 1) >>> 0;
    b = (b | 1) >>> 0;
  }
  const sign = (b >>> 16) & 0x8000;
  const f = b & 0x7fffffff;
  if (f >= 0x47800000) return sign | (f > 0x7f800000 ? 0x7e00 | ((f >>> 13) & 0x3ff) : 0x7c00);
  if (f < 0x38800000) { // a subnormal or zero half: float32's adder rounds it
    u32[0] = f;
    f32[0] += 0.5;
    return sign | (u32[0] - 0x3f000000);
  }
  return sign | ((f + 0xc8000fff + ((f >>> 13) & 1)) >>> 13);
}

/**
 * The number float16 bits `h` hold (exact).
 * @param {number} h
 * @returns {number}
 */
export function halfValue(h) {
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  const s = h & 0x8000 ? -1 : 1;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return e === 0 ? s * m * 2 ** -24 : s * (1024 + m) * 2 ** (e - 25);
}
// ==== Strides ===============================================================================
// Element strides of a view: pure arithmetic on shapes and strides (NumPy's
// layout: a stretched axis is a stride of 0, a transposed one a permutation, a
// step a multiple, a flip a negative stride).
/** Row-major element strides of `shape`. */
export function rowMajor(shape) {
  const s = new Array(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

/** Whether `strides` read `shape` in row-major order (size-1 axes read either way). */
export function isRowMajor(shape, strides) {
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] !== 1 && strides[i] !== acc) return false;
    acc *= shape[i];
  }
  return true;
}

/**
 * Strides that read the view (`shape`, `strides`) in its row-major order as
 * shape `to` (the same size): numpy.reshape without a copy. From the inside
 * out, the view's axes fall in runs that are contiguous in themselves; each
 * run is cut into new dims that hold exactly its elements, or there are no
 * such strides: null (a row-major copy is needed). Axes of 1 keep row-major strides.
 */
export function restride(shape, strides, to) {
  const ns = rowMajor(to);
  if (to.includes(0)) return ns; // no element: any strides read it
  let i = shape.length;
  let left = 1; // elements of the current run not yet cut
  let st = 0; // the stride of the next new dim in that run
  for (let j = to.length; j--;) {
    const d = to[j];
    if (d === 1) continue;
    if (left === 1) {
      while (shape[--i] === 1);
      st = strides[i];
      left = shape[i];
      for (let k = i; k--;) {
        if (shape[k] === 1) continue;
        if (strides[k] !== strides[i] * shape[i]) break;
        left *= shape[i = k];
      }
    }
    if (left % d) return null;
    ns[j] = st;
    st *= d;
    left /= d;
  }
  return ns;
}

/**
 * The element indices a view reaches relative to its offset: [lo, hi]
 * (inclusive), or null when it has no elements.
 */
export function reach(shape, strides) {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 0) return null;
    const e = (shape[i] - 1) * strides[i];
    if (e < 0) lo += e;
    else hi += e;
  }
  return [lo, hi];
}


// Data operands and `out`, read once. An operand is a plain { data, shape,
// dims?, coords? } (copied into wasm memory for the call), a resident Tensor,
// or a JS number / bigint (a scalar of the other operand's dtype).
import { operand, handleOf, dtypeOf, declaredDtype, notTypedArray, taLength, lengthError, isForeignTensor, foreignTensor, isOrtType, ortDtype, ortShape } from './tensor.js';
import { readStaticShape, product, isDimValue, describe } from './shapes.js';
import { halfBits } from './half.js';
import { namedFrom } from './named.js';
import { BroadcastError, formatShape } from './errors.js';
import { rowMajor, isRowMajor, reach } from './strided.js';

export const isScalar = (x) => typeof x === 'number' || typeof x === 'bigint';

/**
 * Snapshot of operand `x`: every property read once. The data's length is
 * read later (settle()), after the last user code of the call has run.
 */
export function readOperand(x, what) {
  const h = handleOf(x);
  if (h) return h; // the tensor's own record: resident operands allocate nothing
  if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x) || Array.isArray(x)) throw notOperand(x, what);
  const data = x.data;
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
    throw new BroadcastError(`${what}.offset must be an integer (an element index into its data), got ${describe(offset)}`,
      { code: 'INVALID_SHAPE', shapes: [], axis: null, dims: null });
  }
  let strides = null;
  if (stridesIn !== undefined) {
    if (!Array.isArray(stridesIn) && !ArrayBuffer.isView(stridesIn)) {
      throw new TypeError(`${what}.strides must be an array of integers (element strides, one per axis), got ${describe(stridesIn)}`);
    }
    strides = Array.from(stridesIn);
    for (let i = 0; i < strides.length; i++) {
      const v = strides[i];
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
        throw new BroadcastError(`${what}.strides[${i}] is ${describe(v)}: a stride is an integer number of elements (negative allowed)`,
          { code: 'INVALID_SHAPE', shapes: [], axis: i, dims: null });
      }
      strides[i] += 0; // -0 is 0
    }
  }
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
  if (strides.length !== shape.length) {
    throw new BroadcastError(`${what} has ${strides.length} strides for its ${shape.length} axes ${formatShape(shape)}: give one stride per axis`,
      { code: 'INVALID_SHAPE', shapes: [shape], axis: null, dims: [strides.length, shape.length] });
  }
  o.size = product(shape);
  const r = reach(shape, strides);
  if (r !== null) {
    const first = o.offset + r[0];
    const last = o.offset + r[1];
    if (first < 0 || last >= len) {
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
    o.data = o.data.subarray(start, start + o.size);
    o.strides = null;
    o.offset = 0;
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
      + 'its dims are its shape and must be an array of integers from 0 to 2^53-1', { code: 'INVALID_SHAPE', shapes: [], axis: null, dims: null });
  }
  const shape = readStaticShape(dims, what, '.dims'); // the rank limit
  const len = taLength.call(data);
  const n = product(shape);
  if (n !== len) {
    throw new BroadcastError(`${what} is an onnxruntime Tensor (type '${type}') whose data has ${len} elements, but its dims ${formatShape(shape)} need ${n}`,
      { code: 'LENGTH_MISMATCH', shapes: [shape], axis: null, dims: [len, n] });
  }
  return operand(false, 0, data, shape, dtype, 0, undefined, undefined, undefined, null, false);
}

// The errors of readOperand (apart, so the function V8 inlines stays small).
function notOperand(x, what) {
  if (x === null || typeof x !== 'object') {
    return new TypeError(`${what} must be { data, shape }, a resident tensor or a number, got ${x === null ? 'null' : typeof x}`);
  }
  if (ArrayBuffer.isView(x)) {
    return new TypeError(`${what} is a bare ${x.constructor?.name ?? 'typed array'}: pass { data, shape } (shape defaults to [data.length]) or tensor(data, shape)`);
  }
  return new TypeError(`${what} is a plain Array; pass { data: Float32Array.from(${what.split(': ').pop()}), shape: [${x.length}] } or tensor(Float32Array.from(...), shape)`);
}

function notData(x, data, shapeIn, what) {
  if (isForeignTensor(x)) return foreignTensor(what);
  if (data === undefined && shapeIn === undefined && Object.keys(x).length === 0) {
    return new TypeError(`${what} is an empty object. If it was a Tensor sent through postMessage or structuredClone: tensors stay in the thread that made them; send { data: t.toArray(), shape: t.shape } instead`);
  }
  if (Array.isArray(data)) return new TypeError(`${what}.data is a plain Array; use a typed array, e.g. { data: Float32Array.from(data), shape }`);
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

/** Names of a plain operand, read (once) after its shape is known. */
export function readNames(o, what, fn) {
  if (o.resident || !o.named) return o;
  // A shape left to default takes the data's length now; settle() checks it again last.
  if (o.shape === null) o.shape = [taLength.call(o.data)];
  const nd = namedFrom(o.named.dims, o.named.coords, o.shape, what, fn);
  o.dims = nd.dims;
  o.labels = nd.labels;
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
  const h = handleOf(out);
  if (h) return h;
  if (isForeignTensor(out)) throw foreignTensor(`${fn}: out`);
  if (!ArrayBuffer.isView(out) || out instanceof DataView) throw new TypeError(`${fn}: out must be a typed array or a resident tensor`);
  const dtype = dtypeOf(out);
  if (!dtype) throw new TypeError(`${fn}: out must be a typed array or a resident tensor`);
  // Its length as of the snapshot: the commit stage checks it is still that.
  return operand(false, 0, out, null, dtype, taLength.call(out), undefined, undefined, undefined, null, false); // len: that length
}

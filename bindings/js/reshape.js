// reshape: the same elements in another shape, NumPy's rules (one -1
// inferred). As NumPy, a view where strides can read the new shape (always,
// for a row-major operand): a resident tensor's result shares its memory
// (tensor.js viewOf), a plain operand's its typed array. Otherwise a copy.
import { mod } from './loader.js';
import { BroadcastError, formatShape } from './errors.js';
import { readOptions } from './options.js';
import { readOperand, settle, commitError, taLength, handleOf, isScalar, notOperand, copyShape, describe, product, isU16, restride } from './operands.js';
import { Tensor, viewOf, readTensorNames } from './tensor.js';
import { contiguous } from './layout.js';
import { committable } from './execute.js';

/**
 * The requested shape, copied once and checked (no user code runs here): every
 * dim an integer from 0, at most one -1. `size` is the element count it must hold.
 * Returns the shape with the -1 resolved.
 */
function resolveShape(req, size, from) {
  const shapes = [from, req];
  let unknown = -1;
  let known = 1;
  for (let i = 0; i < req.length; i++) {
    const d = req[i];
    if (d === -1) {
      if (unknown >= 0) {
        throw new BroadcastError(`cannot reshape into shape ${formatReq(req)}: only one dim may be -1 (inferred), and dims ${unknown} and ${i} both are`,
          { code: 'INVALID_SHAPE', shapes, axis: i, dims: [-1] });
      }
      unknown = i;
      continue;
    }
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      throw new BroadcastError(`cannot reshape into shape ${formatReq(req)}: dim ${i} is ${describe(d)}; a dim is an integer from 0, or -1 (once) for the size inferred from the rest`,
        { code: 'INVALID_SHAPE', shapes, axis: i, dims: [d] });
    }
    known *= d;
  }
  const out = req.map((d) => d + 0); // -0 is 0
  if (unknown >= 0) {
    if (known === 0 || size % known !== 0) {
      const why = known === 0
        ? 'a 0 among the other dims leaves the -1 undetermined'
        : `the other dims make ${known}, which does not divide ${size}`;
      throw new BroadcastError(`cannot reshape a tensor of size ${size} into shape ${formatReq(req)}: ${why}`,
        { code: 'INVALID_SHAPE', shapes, axis: unknown, dims: [size, known] });
    }
    out[unknown] = size / known;
  } else if (known !== size) {
    throw new BroadcastError(`cannot reshape a tensor of size ${size} into shape ${formatReq(req)}: that shape holds ${known} elements`,
      { code: 'INVALID_SHAPE', shapes, dims: [size, known] });
  }
  return out;
}

// A requested shape as messages print it: NumPy's tuple, whatever its entries.
const formatReq = (req) => formatShape(req.map((d) => (typeof d === 'number' ? d : describe(d))));

/**
 * `x` in another shape, with the same elements in the same (row-major) order,
 * as numpy.reshape: one dim of `shape` may be -1, inferred from the size.
 *
 * - A resident Tensor gives a Tensor over the same memory (a view, nothing
 *   copied): writing through either is seen through the other (`out` included),
 *   and the memory is freed when the last tensor over it is disposed, in any order.
 *   A view whose elements are not in row-major order (a transpose, a flip, a
 *   step) stays a view where strides can read the new shape, as in NumPy;
 *   otherwise it is copied first: the result is a tensor of its own.
 * - A plain operand `{ data, shape }` gives `{ data, shape }`: the same typed
 *   array with the new shape (a plain view: the same data with new strides,
 *   or a copy where none can).
 *
 * Names do not survive a reshape: the result has no dims, unless
 * `options.dims` (and `coords`) name the new shape's dims.
 * Refusals are BroadcastErrors with code INVALID_SHAPE: a size the shape does
 * not hold (`cannot reshape a tensor of size 6 into shape (4,-1)`), two -1s,
 * another negative or a non-integer dim.
 */
export function reshape(x, shape, options) {
  mod();
  // The snapshot: options, the operand, the shape, then the names (user code runs only here).
  const o = readOptions(options, 'reshape', ['dims', 'coords']);
  if (isScalar(x)) throw notOperand(x, 'reshape: x', 'a ');
  const X = readOperand(x, 'reshape: x');
  const req = copyShape(shape, 'reshape: shape');
  if (typeof req === 'string') throw new TypeError(`reshape: shape must be an array of dims (e.g. [2, -1]), got ${describe(req)}`);
  if (o.dims === undefined && o.coords !== undefined) throw new TypeError('reshape: coords need dims (name the dims the coords label)');
  // A plain operand's shape left to default is its data's length now; settle() checks it again last.
  if (!X.resident && X.shape === null) X.shape = [taLength.call(X.data)];
  const size = product(X.shape);
  const to = resolveShape(req, size, X.shape.slice());
  const names = o.dims !== undefined ? readTensorNames({ dims: o.dims, coords: o.coords }, to, 'reshape') : null;
  // No user code runs past this point: the commit check.
  if (X.resident) {
    if (!committable(X)) throw commitError(X, 'reshape: x');
    // A view's new strides (its elements keep their order: not row-major, as the view is not).
    const s = X.strides && restride(X.shape, X.strides, to);
    if (!X.strides || s) return viewOf(X, to, names?.dims, names?.coords, s);
    // No strides read this view in the new shape (NumPy copies too): a row-major copy, in the new shape.
    const c = contiguous(X.tensor);
    const v = viewOf(handleOf(c), to, names?.dims, names?.coords);
    c.dispose();
    return v;
  }
  settle(X, 'reshape: x');
  const s = X.strides && restride(X.shape, X.strides, to);
  const r = s ? { data: X.data, shape: to, strides: s, offset: X.offset }
    : { data: X.strides ? contiguous({ data: X.data, shape: X.shape, strides: X.strides, offset: X.offset }).data : X.data, shape: to };
  const data = r.data;
  if (X.dtype.half && isU16(data)) r.dtype = 'float16'; // bits stay marked as float16
  if (names) {
    r.dims = names.dims;
    if (names.coords) r.coords = names.coords;
  }
  return r;
}

// t.reshape(shape, options): not enumerable, as a class's own method.
Object.defineProperty(Tensor.prototype, 'reshape', {
  /**
   * The same data in another shape: a view over this tensor's memory (no
   * copy; as NumPy, a view not in row-major order is copied first where no strides express the new shape),
   * as reshape(this, shape, options). One dim may be -1 (inferred).
   */
  value: function reshape_(shape, options) { return reshape(this, shape, options); },
  writable: true, configurable: true, enumerable: false,
});

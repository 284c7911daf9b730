// Strided views: an operand read with element strides and an offset (NumPy's
// layout: a stretched axis is a stride of 0, a transposed one a permutation, a
// step a multiple, a flip a negative stride). Pure arithmetic on shapes and
// strides, and the one JS loop that walks a view (gather); no engine, no heap.
import { taLength, taBuffer, taOffset, elemSize, KINDS } from './shapes.js';

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

/** The view of `src` (`shape`, `strides` at element `base`) into `dst` in row-major order. Returns dst. */
export function gather(src, base, shape, strides, dst) {
  copyView(src, base, shape, strides, dst, 0, rowMajor(shape));
  return dst;
}

/** `src` (row-major, `shape`) into the view of `dst` at `base` with `strides`. */
export function scatter(src, dst, base, shape, strides) {
  copyView(src, 0, shape, rowMajor(shape), dst, base, strides);
}

/** `t`'s bytes as unsigned integers of its element size (8 bytes: pairs of 32-bit words), read by the intrinsics. */
function bits(t) {
  const es = elemSize(t);
  const K = KINDS[es === 1 ? 'Uint8Array' : es === 2 ? 'Uint16Array' : 'Uint32Array']; // as part(): the constructors of when the library loaded
  return new K(taBuffer.call(t), taOffset.call(t), (es === 8 ? 2 : 1) * taLength.call(t));
}

/**
 * Copy the view (`shape`, `sStrides` at `sBase`) of `src` into the view
 * (`dStrides` at `dBase`) of `dst`, element by element in row-major order,
 * bit for bit (as integers of the element's size: a float's NaN payload, a
 * float16's bits and a 64-bit integer move unchanged, no BigInt made). The
 * arrays may be heap views (a resident tensor's memory).
 */
export function copyView(src, sBase, shape, sStrides, dst, dBase, dStrides) {
  if (elemSize(src) === 8) { // two words per element: one more axis
    shape = [...shape, 2];
    sStrides = [...sStrides.map((x) => 2 * x), 1];
    dStrides = [...dStrides.map((x) => 2 * x), 1];
    sBase *= 2;
    dBase *= 2;
  }
  const r = shape.length;
  let n = 1;
  for (let i = 0; i < r; i++) n *= shape[i];
  if (n === 0) return; // nothing read (an array may be detached: its length 0, no view of it made)
  src = bits(src);
  dst = bits(dst);
  if (r === 0) {
    dst[dBase] = src[sBase];
    return;
  }
  if (isRowMajor(shape, sStrides) && isRowMajor(shape, dStrides)) { // both contiguous: one memmove
    dst.set(src.subarray(sBase, sBase + n), dBase);
    return;
  }
  const last = r - 1;
  const len = shape[last];
  const ss = sStrides[last];
  const ds = dStrides[last];
  const rows = ss === 1 && ds === 1 && len >= 16; // contiguous rows: one memmove each (set)
  const idx = new Array(r).fill(0);
  let so = sBase;
  let dof = dBase;
  for (let q = n / len; q > 0; q--) {
    if (rows) dst.set(src.subarray(so, so + len), dof);
    else for (let i = 0, p = so, o = dof; i < len; i++, p += ss, o += ds) dst[o] = src[p];
    for (let a = last - 1; a >= 0; a--) {
      so += sStrides[a];
      dof += dStrides[a];
      if (++idx[a] < shape[a]) break;
      so -= sStrides[a] * shape[a];
      dof -= dStrides[a] * shape[a];
      idx[a] = 0;
    }
  }
}

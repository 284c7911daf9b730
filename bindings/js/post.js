// Reading a model's output along one axis: argmax, argmin and topk here,
// softmax, logSoftmax and logSumExp in softmax.js (on these helpers: they
// alone need cast, whose module reaches the expressions, and program.js
// imports argmax from here), on typed arrays, resident tensors and views,
// named operands by dim name. Each reads its arguments once, moves the axis
// (logSumExp: its axes) last into a contiguous block in wasm memory (no copy
// for a resident tensor that already is one), runs one engine export over
// the block's rows (bindings/wasm/post.cpp), and writes the result back in
// the operand's axis order: into `out`, a new resident tensor (resident x)
// or a new typed array.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, formatShape, outLengthError, cannotHold } from './errors.js';
import { readOptions } from './options.js';
import { readOperand, settle, readNames, readOut, isScalar, notOperand, commitError, withNames, handleOf, product, describe, taLength, nameKey, rowMajor, isRowMajor } from './operands.js';
import { request, execute, view, malloc, free, heapCopy, fresh, copyView, outHolds, committable, checkOutNames } from './execute.js';
import { makeTensor } from './tensor.js';

/**
 * x, the axes named by `axesIn` (one axis, or a list: logSumExp; TOPK: the
 * options' axis), options.out and the other keys, each read once.
 */
export function read(x, axesIn, options, fn, keys, many) {
  mod();
  const o = readOptions(options, fn, keys);
  if (axesIn === TOPK) axesIn = o.axis;
  if (isScalar(x)) throw notOperand(x, `${fn}: x`, 'a ');
  const X = readOperand(x, `${fn}: x`);
  if (X.named !== null) readNames(X, 'x', fn);
  const list = many && Array.isArray(axesIn) ? [...axesIn] : axesIn;
  const out = o.out;
  const dest = out === undefined || fn === 'topk' ? null : readOut(out, fn);
  const pair = fn === 'topk' && out !== undefined ? readPair(out) : null;
  settle(X, `${fn}: x`);
  const r = X.shape.length;
  let axes;
  if (!many && Array.isArray(list)) throw axisError(fn, X, list, 'is not one axis');
  if (list != null) axes = (Array.isArray(list) ? list : [list]).map((a) => axisOf(a, X, fn));
  else if (many || fn.startsWith('arg')) axes = [...X.shape.keys()];
  else if (r > 0) axes = [r - 1];
  else throw axisError(fn, X, -1, 'is not one of its axes');
  if (axes.length > 1 && new Set(axes).size !== axes.length) throw axisError(fn, X, list, 'repeats an axis');
  // The commit check: user code ran while reading (getters); from here none does.
  commit(X, fn, 'x');
  commit(dest, fn, 'out');
  if (pair) {
    commit(pair.values, fn, 'out.values');
    commit(pair.indices, fn, 'out.indices');
  }
  return { X, axes, dest, pair, o };
}

function commit(r, fn, what) {
  if (r && !committable(r)) throw commitError(r, `${fn}: ${what}`);
}

const TOPK = Symbol(); // read(): the axis is options.axis

function readPair(out) {
  const { values, indices } = out ?? 0;
  // neither given (a tensor or an array passed as out, a misspelt key; an array's `values` is its method): nothing would be written
  if (typeof out !== 'object' || values === indices || typeof values === 'function') throw new TypeError('topk: options.out must be { values, indices }');
  return { values: values === undefined ? null : readOut(values, 'topk'), indices: indices === undefined ? null : readOut(indices, 'topk') };
}

function axisOf(a, X, fn) {
  const r = X.shape.length;
  if (typeof a === 'string' && X.dims !== undefined) {
    const i = X.dims.map(nameKey).indexOf(a); // a dim name as a string
    if (i >= 0) return i;
  } else if (Number.isInteger(a) && a >= -r && a < r) {
    return a < 0 ? a + r : a;
  }
  if (typeof a !== 'number' && typeof a !== 'string') throw TypeError(`${fn}: an axis is an integer${X.dims ? ' or a dim name' : ''}, got ${describe(a)}`); // a wrong type
  throw axisError(fn, X, a, 'is not one of its axes');
}

export function axisError(fn, X, a, why) {
  return new BroadcastError(`${fn}: axis ${Array.isArray(a) ? `[${a}]` : describe(a)} ${why} (x is ${formatShape(X.shape)}${X.dims !== undefined ? `, dims ${X.dims.join(', ')}` : ''})`,
    { code: 'INVALID_AXIS', shapes: [X.shape], axis: Number.isInteger(a) ? a : null }); // 1.5, NaN: no axis, as the other calls say
}

/**
 * X's elements in a contiguous block with `axes` last, in order (the others
 * keep theirs): { ptr, own (the block is ours to free), t (or a tensor that
 * holds it, ours to dispose), perm, inOrder (perm is the identity), rows, n }.
 * `fn` names the call in the engine's refusals (a block too large).
 */
export function block(X, axes, fn, copy = false) {
  const perm = [];
  let rows = 1;
  let n = 1;
  X.shape.forEach((d, i) => {
    if (axes.includes(i)) return;
    perm.push(i);
    rows *= d;
  });
  for (const a of axes) {
    perm.push(a);
    n *= X.shape[a];
  }
  const inOrder = perm.every((p, i) => p === i);
  if (X.resident && X.strides === null && inOrder && !copy) return { ptr: X.ptr, own: false, perm, inOrder, rows, n };
  const dt = X.dtype;
  const es = dt.size;
  const ptr = malloc(X.size * es);
  const st = X.strides ?? rowMajor(X.shape);
  const shape = perm.map((i) => X.shape[i]);
  if (X.size > 999 && !(inOrder && X.strides === null)) {
    // Axes moved, or a view: the engine's copy (broadcastTo's tiles, 4x4 register transposes for
    // 4-byte elements) of X read through the permuted strides, into a tensor that holds the block.
    // argmax over the channels of a [21, 50176] float32 (a segmentation's NCHW logits): 5.7 -> 2.4 ms
    // in Node (bench/views.mjs, group manyrows).
    const t = makeTensor(ptr, shape, dt);
    try {
      engineCopy(X, shape, perm.map((i) => st[i]), readOut(t, fn), fn);
    } catch (e) {
      t.dispose();
      throw e;
    }
    return { ptr, own: false, t, perm, inOrder, rows, n };
  }
  const heap = view(dt); // after the allocation (memory may have grown)
  const src = X.resident ? heap : X.data;
  const base = X.resident ? X.ptr / es : X.offset;
  try {
    copyView(src, base, shape, perm.map((i) => st[i]), heap, ptr / es, null);
  } catch (e) { // (no user code runs here; a failure of the environment's, a replaced global, leaves nothing behind)
    free(ptr);
    throw e;
  }
  return { ptr, own: true, perm, inOrder, rows, n };
}

/**
 * The elements of operand record `o` read as `shape` through element `strides`
 * (from its element 0), copied by the engine (broadcastTo's copy, its tiles)
 * into `dest` (readOut()'s record; null: a new resident tensor). ops.js
 * `materialise`, which this module cannot import (ops.js reaches the
 * expressions, which import this module), for a target of the view's own shape.
 */
function engineCopy(o, shape, strides, dest, fn) {
  const v = withNames(o, undefined, undefined);
  v.shape = shape;
  v.strides = strides;
  const c = request(C.A.copy, fn, C.modes.get('numpy'), -1, [v], [shape, shape], o.dtype, dest, null);
  c.elem = o.dtype.size;
  return execute(c);
}

/**
 * The result block at `ptr` (dtype dt; X's rows in perm's order, each `k`
 * long) written in X's axis order, the reduced axes as `keep` says ('k': of
 * length k, 1: kept as 1, 0: gone): into dest, else a new resident tensor
 * (X resident) or a new typed array.
 */
export function emit(ptr, dt, X, perm, axes, k, keep, dest, fn, temps = null, checkOnly = false) {
  const shape = [];
  const order = []; // per result axis, its stride in the block
  let dims = X.dims === undefined ? undefined : [];
  let coords;
  const kept = perm.filter((i) => !axes.includes(i));
  const bs = rowMajor([...kept.map((i) => X.shape[i]), k]);
  for (let i = 0; i < X.shape.length; i++) {
    const reduced = axes.includes(i);
    if (reduced && keep === 0) continue;
    shape.push(reduced ? (keep === 'k' ? k : 1) : X.shape[i]);
    order.push(reduced ? (keep === 'k' ? 1 : 0) : bs[kept.indexOf(i)]);
    if (dims !== undefined) {
      dims.push(X.dims[i]);
      // The axis softmax keeps (each element where it was) keeps its labels; topk's elements are others.
      if ((!reduced || (keep === 'k' && fn !== 'topk')) && X.labels[i]) (coords ??= {})[X.dims[i]] = X.labels[i].slice();
    }
  }
  const size = product(shape);
  const es = dt.size;
  const src = view(dt);
  if (dest?.resident && dims) checkOutNames(fn, dest, dims, dims.map((d) => coords?.[d] ?? null), shape);
  if (dims?.length === 0) dims = undefined; // every dim reduced: an unnamed scalar, as the reductions give
  if (dest !== null) {
    const have = dest.resident ? dest.size : taLength.call(dest.data);
    if (!outHolds(dest, dt)) throw cannotHold(fn, dest, dt, [shape]);
    if (have !== size) throw outLengthError(fn, have, shape, size);
  }
  if (checkOnly) return;
  // A result of 1000 elements or more in another order than the block's (softmax over an axis
  // moved last): the engine's copy reads the block through `order`, broadcastTo's tiles, from a
  // tensor that holds the block (a block of temps' own becomes one, still freed with temps).
  const at = temps === null || size < 1000 || dims !== undefined || dt.half || isRowMajor(shape, order) ? -1
    : temps.findIndex((t) => t === ptr || (typeof t === 'object' && handleOf(t).ptr === ptr));
  if (at >= 0) {
    if (typeof temps[at] === 'number') temps[at] = makeTensor(ptr, [size], dt);
    return engineCopy(handleOf(temps[at]), shape, order, dest ?? (X.resident ? null : readOut(fresh(dt, size), fn)), fn);
  }
  if (dest !== null) {
    if (dest.resident) {
      // A view (of any shape of this size) is written in its own order, as the ops write one.
      if (dest.strides !== null) copyView(copyView(src, ptr / es, shape, order, new src.constructor(size), 0, null), 0, dest.shape, null, view(dt), dest.ptr / es, dest.strides);
      else copyView(src, ptr / es, shape, order, view(dt), dest.ptr / es, null);
      return dest.tensor;
    }
    copyView(src, ptr / es, shape, order, dest.data, 0, null);
    return named({ data: dest.data, shape, dtype: dt.name }, dims, coords);
  }
  if (X.resident) {
    const at = temps === null ? -1 : temps.indexOf(ptr);
    if (at >= 0 && isRowMajor(shape, order)) { // the block is the result: no copy
      temps.splice(at, 1);
      return makeTensor(ptr, shape, dt, dims, coords);
    }
    const q = malloc(size * es);
    copyView(view(dt), ptr / es, shape, order, view(dt), q / es, null);
    return makeTensor(q, shape, dt, dims, coords);
  }
  let data;
  if (dt.half) copyView(src, ptr / es, shape, order, data = new dt.ctor(size), 0, null); // the runtime's form, whatever x's
  else if (isRowMajor(shape, order)) data = heapCopy(dt, ptr / es, size); // one copy, no zeroing first
  else copyView(src, ptr / es, shape, order, data = fresh(dt, size), 0, null);
  return named({ data, shape, dtype: dt.name }, dims, coords);
}

function named(r, dims, coords) {
  if (dims !== undefined) r.dims = dims;
  if (coords !== undefined) r.coords = coords;
  return r;
}

export function check(st, fn) {
  if (st === 1) throw new BroadcastError(`${fn}: no WebAssembly memory left for its scratch`, { code: 'TOO_LARGE' });
  if (st !== 0) throw new Error(`${fn}: engine status ${st}`);
}

/** INVALID_AXIS when `axes` of `shape` hold no element: argmax and argmin have no index to give (program.js explains it too). */
export function emptyArg(fn, shape, axes) {
  if (product(axes.map((i) => shape[i])) === 0) {
    throw new BroadcastError(`${fn}: x ${formatShape(shape)} is empty along the axis`, { code: 'INVALID_AXIS', shapes: [shape], axis: axes.length === 1 ? axes[0] : null, dims: [0] });
  }
}

function arg(fn, x, axis, options, min) {
  const s = read(x, axis, options, fn, ['out', 'keepdims'], false);
  const { X, axes } = s;
  emptyArg(fn, X.shape, axes);
  const b = block(X, axes, fn);
  let q = 0;
  try {
    q = malloc(b.rows * 4);
    if (b.rows > 0) check(mod()._tc_argreduce(b.ptr, q, b.rows, b.n, X.dtype.id, min ? 1 : 0), fn);
    return emit(q, C.dtypeByName.get('int32'), X, b.perm, axes, 1, s.o.keepdims ? 1 : 0, s.dest, fn);
  } finally {
    if (q) free(q);
    if (b.own) free(b.ptr);
    b.t?.dispose();
  }
}

/** The index (int32) of the largest element along `axis` (default: of all, flattened); the first of equals, a NaN first. */
export const argmax = (x, axis, options) => arg('argmax', x, axis, options, false);
/** The index (int32) of the smallest element along `axis`; the first of equals, a NaN first. */
export const argmin = (x, axis, options) => arg('argmin', x, axis, options, true);


/**
 * The k largest (options.largest false: smallest) elements along
 * options.axis (default the last), highest first (ties: the lower index
 * first; NaN above +Infinity): { values, indices } (int32), the axis of size
 * k. options.out: { values, indices }, either may be left out.
 */
export function topk(x, k, options) {
  const s = read(x, TOPK, options, 'topk', ['axis', 'largest', 'sorted', 'out'], false);
  const { X, axes, pair } = s;
  const n = X.shape[axes[0]];
  if (typeof k !== 'number') throw TypeError(`topk: k must be a number, got ${describe(k)}`);
  if (!Number.isInteger(k) || k < 0 || k > n) {
    throw new BroadcastError(`topk: k must be an integer from 0 to ${n} (the axis length), got ${describe(k)}`, { code: 'INVALID_AXIS', shapes: [X.shape], axis: axes[0], dims: [n] });
  }
  k += 0; // -0 (Math.round(-0.2)) as 0: it is the result's dim
  const b = block(X, axes, 'topk');
  const dt = X.dtype;
  const I32 = C.dtypeByName.get('int32');
  let v = 0;
  let ix = 0;
  try {
    v = malloc(b.rows * k * dt.size);
    ix = malloc(b.rows * k * 4);
    if (b.rows > 0 && k > 0) check(mod()._tc_topk(b.ptr, v, ix, b.rows, b.n, k, dt.id, s.o.largest === false ? 0 : 1), 'topk');
    // Both outs checked before either is written (a refused indices out leaves values as they were).
    if (pair?.indices) emit(ix, I32, X, b.perm, axes, k, 'k', pair.indices, 'topk', null, true);
    return {
      values: emit(v, dt, X, b.perm, axes, k, 'k', pair?.values ?? null, 'topk'),
      indices: emit(ix, I32, X, b.perm, axes, k, 'k', pair?.indices ?? null, 'topk'),
    };
  } finally {
    if (v) free(v);
    if (ix) free(ix);
    if (b.own) free(b.ptr);
    b.t?.dispose();
  }
}

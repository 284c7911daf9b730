// The backward direction: reductionAxes, unbroadcast, the reductions (sum,
// prod, min, max, mean) and broadcastArrays, on the same one-call contract as
// the forward ops (ops.js): arguments read once, one wasm call.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError, formatShape } from './errors.js';
import { copyShape, checkShape } from './shapes.js';
import { readOptions } from './options.js';
import { readBack, snapTo, shapeCall, BACK_KEYS } from './rules.js';
import { readOperand, settle, readOut, readNames } from './operands.js';
import { readNamed, nameKey, LabelMap, duplicateLabel, ownObject, checkOutNames, describeDims } from './named.js';
import { product, describe } from './shapes.js';
import { view } from './heap.js';
import { tensor, taLength, committable, commitError, outHolds } from './tensor.js';
import { request, execute } from './execute.js';
import { materialise } from './ops.js';
import { broadcastShapes } from './rules.js';

/**
 * The output axes, ascending, over which a gradient of shape `outShape` (the
 * result of broadcasting `inShape` with `options`, as broadcastToShape takes
 * them; or with `type`, the element-wise rule whose operand B is `inShape`)
 * is summed to come back to `inShape`. It refuses exactly what that forward
 * call refuses. Partial shapes: an axis that may or may not be summed is
 * refused (INCOMPATIBLE_DIMS, the axis named).
 */
export function reductionAxes(inShape, outShape, options) {
  mod();
  const o = readOptions(options, 'reductionAxes', BACK_KEYS);
  const i = copyShape(inShape, 'reductionAxes: input shape');
  const t = copyShape(outShape, 'reductionAxes: output shape');
  const { rule, ctx, axis, mapping } = readBack(i, t, snapTo(o, [i, t], 'reductionAxes'), 'reductionAxes');
  checkShape(t, false, [i, t]);
  const res = shapeCall(C.A.reductionAxes, rule, axis, [i, t], mapping);
  if (res.status !== 0) throw makeError(ctx, res.error());
  const n = res.next();
  const axes = new Array(n);
  for (let k = 0; k < n; k++) axes[k] = res.next();
  return axes;
}

function accDtype(name, fn) {
  if (name === undefined) return undefined;
  const d = typeof name === 'string' ? C.dtypeByName.get(name) : undefined;
  if (d) return d;
  const names = [...C.dtypeByName.keys()].join(', ');
  if (typeof name === 'function') {
    const named = C.dtypeByTag.get(name.name);
    if (named) throw new TypeError(`${fn}: dtype is a name: pass '${named.name}', not the ${name.name} constructor`);
    throw new TypeError(`${fn}: dtype is a name (one of ${names}), got a function`);
  }
  throw new TypeError(`${fn}: dtype must be one of ${names}, got ${describe(name)}`);
}

/**
 * Sum `grad` back to `inShape`: over reductionAxes(inShape, grad.shape,
 * options), the result given exactly `inShape` (its 1s kept). Same result
 * forms as the other data calls; `dtype` accumulates in another dtype.
 *
 * Named (§6): `grad` with dims and `inShape` a named shape `{ dims, shape?,
 * coords? }`: the dims the input lacks are summed, and the rest given the
 * input's order (and, where the input has coords, its labels: a label the
 * gradient lacks gets 0, one the input lacks is dropped).
 */
export function unbroadcast(grad, inShape, options) {
  mod();
  const o = readOptions(options, 'unbroadcast', [...BACK_KEYS, 'dtype', 'out']);
  const G = readOperand(grad, 'unbroadcast: grad');
  const namedIn = inShape !== null && typeof inShape === 'object' && !Array.isArray(inShape) && !ArrayBuffer.isView(inShape);
  if (namedIn || G.named !== null || G.dims !== undefined) return unbroadcastNamed(G, inShape, namedIn, o);
  const i = copyShape(inShape, 'unbroadcast: input shape');
  const dest = readOut(o.out, 'unbroadcast');
  const to = snapTo(o, [i, G.shape], 'unbroadcast');
  // No user code runs past this point.
  settle(G, 'unbroadcast: grad');
  const { rule, ctx, axis, mapping } = readBack(i, G.shape, to, 'unbroadcast');
  const acc = accDtype(o.dtype, 'unbroadcast') ?? G.dtype;
  if (dest && !outHolds(dest, acc)) {
    throw new BroadcastError(`unbroadcast: out: a ${dest.dtype.name} cannot hold a ${acc.name} result`, { code: 'DTYPE_MISMATCH', shapes: [i, G.shape], axis: null, dims: null });
  }
  const c = request(C.A.unbroadcast, 'unbroadcast', rule, axis, [G], [i, G.shape], acc, dest, ctx);
  c.mapping = mapping;
  c.dtype = G.dtype.id;
  c.acc = acc.id;
  return execute(c);
}

function unbroadcastNamed(G, inShape, namedIn, o) {
  const fn = 'unbroadcast';
  if (!namedIn) throw new TypeError(`${fn}: a named gradient (with dims) goes back to a named input: pass { dims, shape } (or { dims, coords }) as the input`);
  if (G.named === null && G.dims === undefined) throw new TypeError(`${fn}: a named input ({ dims, ... }) needs a named gradient: give grad its dims`);
  for (const k of BACK_KEYS) {
    if (o[k] !== undefined) throw new TypeError(`${fn}: options.${k} applies to positional shapes; named dims are matched by name`);
  }
  const input = readNamed(inShape, 'input', fn);
  readNames(G, 'grad', fn);
  const dest = readOut(o.out, fn);
  // No user code runs past this point.
  settle(G, `${fn}: grad`);
  const acc = accDtype(o.dtype, fn) ?? G.dtype;
  if (dest && !outHolds(dest, acc)) {
    throw new BroadcastError(`${fn}: out: a ${dest.dtype.name} cannot hold a ${acc.name} result`, { code: 'DTYPE_MISMATCH', shapes: [input.sizes, G.shape], axis: null, dims: null });
  }
  // Labels name cells: a dim that has one twice is refused, as in every named call.
  for (const [which, t] of [['input', { dims: input.dims, labels: input.labels }], ['grad', G]]) {
    for (let a = 0; a < t.dims.length; a++) {
      const dup = t.labels?.[a] ? duplicateLabel(t.labels[a]) : null;
      if (dup !== null) {
        throw new BroadcastError(`${fn}: ${which} has the coordinate ${describe(t.labels[a][dup[1]])} twice in dim "${t.dims[a]}" (at ${dup[0]} and ${dup[1]}): duplicate labels name no single cell`,
          { code: 'INVALID_SHAPE', shapes: [input.sizes, G.shape], axis: a, dims: null });
      }
    }
  }
  // A resident `out` with names must carry the result's (the input's): its data is read by them.
  if (dest !== null && dest.resident && dest.dims !== undefined) checkOutNames(fn, dest, input.dims, input.labels);
  const gPos = new Map(G.dims.map((d, k) => [nameKey(d), k]));
  const inKeys = new Set(input.dims.map(nameKey));
  // Per input axis: the gradient axis it comes from, and where labels decide, the index map.
  const src = [];
  const index = [];
  for (let a = 0; a < input.dims.length; a++) {
    const k = gPos.get(nameKey(input.dims[a]));
    if (k === undefined) {
      throw new BroadcastError(`${fn}: the gradient (dims ${describeDims(G.dims)}) has no dim "${input.dims[a]}" of the input (dims ${describeDims(input.dims)}): it is not a gradient of this input`,
        { code: 'INCOMPATIBLE_DIMS', shapes: [input.sizes, G.shape], axis: a, dims: [input.sizes[a], null] });
    }
    src.push(k);
    const li = input.labels[a];
    const lg = G.labels ? G.labels[k] : null;
    if (li && lg) {
      const at = new LabelMap();
      lg.forEach((l, j) => at.set(l, j));
      const m = li.map((l) => (at.has(l) ? at.get(l) : -1));
      index.push(m.every((v, j) => v === j) && li.length === lg.length ? null : m);
    } else {
      if (G.shape[k] !== input.sizes[a]) {
        throw new BroadcastError(`${fn}: dim "${input.dims[a]}" has size ${input.sizes[a]} in the input and ${G.shape[k]} in the gradient; a named dim is never stretched`,
          { code: 'INCOMPATIBLE_DIMS', shapes: [input.sizes, G.shape], axis: a, dims: [input.sizes[a], G.shape[k]] });
      }
      index.push(null);
    }
  }
  // 1. Sum the gradient's dims the input lacks (one wasm call; the rest keep the gradient's order).
  const axes = [];
  for (let k = 0; k < G.dims.length; k++) if (!inKeys.has(nameKey(G.dims[k]))) axes.push(k);
  const kept = [];
  for (let k = 0; k < G.dims.length; k++) if (inKeys.has(nameKey(G.dims[k]))) kept.push(k);
  const inOrder = src.every((k, a) => k === kept[a]) && index.every((m) => m === null);
  const coords = namedCoords(input);
  if (inOrder) {
    // Already the input's order and labels: the sum is the result.
    const r = runReduce('sum', fn, G, axes, false, acc, dest);
    if (dest !== null && dest.resident) return r; // the caller's own out tensor, as it is
    return named(r, input, coords);
  }
  const r = runReduce('sum', fn, G, axes, false, acc, null);
  // 2. Reorder (and align labels) to the input: a gather over the summed cells.
  const from = r.data ?? r.toArray();
  if (r.dispose) r.dispose();
  const rank = input.dims.length;
  const keptStride = new Array(kept.length);
  for (let j = kept.length - 1, st = 1; j >= 0; j--) { keptStride[j] = st; st *= G.shape[kept[j]]; }
  const strideOf = src.map((k) => keptStride[kept.indexOf(k)]);
  const size = product(input.sizes);
  const to = new acc.ctor(size);
  const idx = new Array(rank).fill(0);
  for (let e = 0; e < size; e++) {
    let off = 0;
    let absent = false;
    for (let a = 0; a < rank; a++) {
      const j = index[a] === null ? idx[a] : index[a][idx[a]];
      if (j < 0) { absent = true; break; }
      off += j * strideOf[a];
    }
    if (!absent) to[e] = from[off];
    for (let a = rank - 1; a >= 0; a--) {
      if (++idx[a] < input.sizes[a]) break;
      idx[a] = 0;
    }
  }
  if (dest === null && G.resident) return tensor(to, input.sizes, { dims: input.dims, coords });
  if (dest) {
    if (dest.resident) {
      if (dest.size !== size) throw new BroadcastError(`${fn}: out has ${dest.size} elements but the result ${formatShape(input.sizes)} has ${size}`, { code: 'LENGTH_MISMATCH', shapes: [input.sizes], axis: null, dims: [dest.size, size] });
      if (!committable(dest)) throw commitError(dest, `${fn}: out`); // the commit check of a write made here
      view(acc).set(to, dest.ptr / acc.size);
      return dest.tensor;
    }
    if (taLength.call(dest.data) !== size) throw new BroadcastError(`${fn}: out has ${taLength.call(dest.data)} elements but the result ${formatShape(input.sizes)} has ${size}`, { code: 'LENGTH_MISMATCH', shapes: [input.sizes], axis: null, dims: [taLength.call(dest.data), size] });
    // A Uint16Array out of a float16 result takes the bits (where `to` is a Float16Array).
    dest.data.set(acc.half && !(dest.data instanceof acc.ctor) ? new Uint16Array(to.buffer, to.byteOffset, to.length) : to);
    return named({ data: dest.data, shape: input.sizes.slice(), dtype: acc.name }, input, coords);
  }
  return named({ data: to, shape: input.sizes.slice(), dtype: acc.name }, input, coords);
}


function namedCoords(input) {
  const entries = [];
  input.dims.forEach((d, a) => {
    if (input.labels[a]) entries.push([nameKey(d), input.labels[a].slice()]);
  });
  return entries.length ? ownObject(entries) : undefined;
}

/** A result with the input's names: a plain result gets dims (and coords); a tensor is remade with them. */
function named(r, input, coords) {
  if (typeof r.dispose === 'function') {
    if (r.dims !== undefined) return r; // an `out` tensor keeps its own names
    const t = tensor(r.toArray(), input.sizes, { dims: input.dims, coords });
    r.dispose();
    return t;
  }
  r.shape = input.sizes.slice();
  r.dims = input.dims.slice();
  if (coords) r.coords = coords;
  return r;
}

const REDUCE_KEYS = ['axes', 'keepdims', 'dtype', 'out'];

/**
 * The axes option read once: a number, or an array read by its length once
 * and each entry once. A list longer than any shape's rank is refused by its
 * length, before anything is copied (a rank-r input has r distinct axes).
 */
function readAxes(axes, fn) {
  if (axes === undefined) return null;
  if (typeof axes === 'number') axes = [axes];
  else if (!Array.isArray(axes)) throw new TypeError(`${fn}: axes must be an integer or an array of integers, got ${describe(axes)}`);
  const n = axes.length;
  if (!(n <= C.limits.maxRank)) {
    throw new BroadcastError(`${fn}: axes has ${n} entries, but a shape has at most ${C.limits.maxRank} axes and each may be named once`,
      { code: 'INVALID_AXIS', shapes: [], axis: null, dims: null });
  }
  const out = new Array(n);
  for (let k = 0; k < n; k++) out[k] = axes[k];
  for (let k = 0; k < n; k++) {
    if (typeof out[k] !== 'number' || !Number.isInteger(out[k])) {
      throw new BroadcastError(`${fn}: axes[${k}] = ${describe(out[k])} is not an integer axis`, { code: 'INVALID_AXIS', shapes: [], axis: null, dims: null });
    }
  }
  return out;
}

function reduce(name, x, options) {
  mod();
  const o = readOptions(options, name, REDUCE_KEYS);
  const X = readOperand(x, `${name}: x`);
  const axes = readAxes(o.axes, name);
  const keepdims = o.keepdims;
  if (keepdims !== undefined && typeof keepdims !== 'boolean') throw new TypeError(`${name}: keepdims must be a boolean`);
  const dest = readOut(o.out, name);
  settle(X, `${name}: x`);
  // The result's dtype: `dtype` to accumulate in another, else the engine's
  // default (the input's, integers wrap; for mean of integers float64, NumPy).
  const acc = accDtype(o.dtype, name) ?? C.reduceAcc.get(name)[X.dtype.id];
  if (dest && !outHolds(dest, acc)) {
    throw new BroadcastError(`${name}: out: a ${dest.dtype.name} cannot hold a ${acc.name} result`, { code: 'DTYPE_MISMATCH', shapes: [X.shape], axis: null, dims: null });
  }
  return runReduce(name, name, X, axes, keepdims === true, acc, dest);
}

/** Reduce a settled operand over `axes` (null: all) in one wasm call. */
function runReduce(name, fn, X, axes, keepdims, acc, dest) {
  const tail = axes === null ? [-1] : [axes.length, ...axes];
  const rank = X.shape.length;
  const pre = fn === name ? '' : `${fn}: `;
  const refuse = (res) => {
    const e = res.error();
    const code = C.statuses[e.status] ?? 'INVALID_SHAPE';
    if (code === 'INVALID_AXIS' && e.detail === -6) {
      return new BroadcastError(`${pre}${name} of shape ${formatShape(X.shape)} over axis ${e.axis}: that axis has size 0, and ${name} of no elements has no value (sum gives 0, prod 1)`,
        { code, shapes: [X.shape], axis: e.axis, dims: [0] });
    }
    if (code === 'INVALID_AXIS') {
      const v = axes?.[e.axis];
      // Out of range first: an axis past the rank is that, whatever it equals modulo the rank.
      if (!(v >= -rank && v < rank)) {
        const why = rank === 0 ? 'a rank-0 input has no axes (reduce it with no axes given)' : `x has rank ${rank}: use -${rank} to ${rank - 1}`;
        return new BroadcastError(`${fn}: axes[${e.axis}] = ${v} is out of range: ${why}`, { code, shapes: [X.shape], axis: null, dims: null });
      }
      const norm = (x) => (x < 0 ? x + rank : x);
      const first = axes.findIndex((x) => norm(x) === norm(v));
      return new BroadcastError(`${fn}: axes[${e.axis}] = ${v} names axis ${norm(v)}, already named by axes[${first}] = ${axes[first]}: name each axis once`,
        { code, shapes: [X.shape], axis: null, dims: null });
    }
    return new BroadcastError(`${pre}${name} of shape ${formatShape(X.shape)}: ${code}`, { code, shapes: [X.shape], axis: null, dims: null });
  };
  const c = request(C.A.reduce, fn, 0, -1, [X], [X.shape], acc, dest, null);
  c.tail = tail;
  c.op = C.reduceOps.get(name);
  c.dtype = X.dtype.id;
  c.acc = acc.id;
  c.keepdims = keepdims;
  c.refuse = refuse;
  return execute(c);
}

function reduction(name) {
  const f = (x, options) => reduce(name, x, options);
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

/** Sum over `axes` (default all); integers wrap in their dtype unless `dtype` says otherwise; floats are summed pairwise. */
export const sum = reduction('sum');
/** Product over `axes`. */
export const prod = reduction('prod');
/** Minimum over `axes` (NaN propagates; over zero elements: a BroadcastError). */
export const min = reduction('min');
/** Maximum over `axes` (NaN propagates; over zero elements: a BroadcastError). */
export const max = reduction('max');
/** Mean over `axes`; of integers it is float64 (NumPy). */
export const mean = reduction('mean');

/**
 * Every operand materialised to the common NumPy shape (numpy.broadcast_arrays).
 * All of them are read first (each getter once); if one cannot be made, the
 * results made before it are freed.
 */
export function broadcastArrays(...xs) {
  mod();
  const ops = new Array(xs.length);
  for (let k = 0; k < xs.length; k++) ops[k] = readOperand(xs[k], `broadcastArrays: #${k}`);
  // No user code runs past this point.
  for (let k = 0; k < ops.length; k++) settle(ops[k], `broadcastArrays: #${k}`);
  const shape = broadcastShapes(...ops.map((o) => o.shape));
  const to = snapTo({}, [], 'broadcastArrays');
  const out = [];
  try {
    for (let k = 0; k < ops.length; k++) out.push(materialise(ops[k], shape, to, null, 'broadcastArrays'));
  } catch (e) {
    for (const r of out) if (typeof r.dispose === 'function') r.dispose();
    throw e;
  }
  return out;
}

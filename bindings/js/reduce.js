// The backward direction: reductionAxes, unbroadcast, the reductions (sum,
// prod, min, max, mean) and broadcastArrays, on the same one-call contract as
// the forward ops (ops.js): arguments read once, one wasm call.
import { C, DTYPES, none } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, formatShape, outLengthError, noValueOf, cannotHold } from './errors.js';
import { readOptions } from './options.js';
import { readBack, snapTo, BACK_KEYS } from './rules.js';
import { safeFormat, readOperand, settle, readOut, readNames, mayBeOrt, taLength, isForeignTensor, foreignTensor, hasNames, isTensor, notOperand, commitError, copyShape, isShapeLike, readNamed, nameKey, LabelMap, checkLabels, product, describe, isU16, taSet, readList } from './operands.js';
import { tensor, renamed, metaOf } from './tensor.js';
import { request, execute, intoOut, view, outHolds, committable, ownObject, checkOutNames } from './execute.js';
import { materialise, byPosition } from './ops.js';
import { broadcastList } from './rules.js';

// reductionAxes is a shape rule (rules.js), also in tensorcast/shapes; exported here beside unbroadcast.
export { reductionAxes } from './rules.js';

export function accDtype(name, fn) {
  if (name === undefined) return undefined;
  const d = typeof name === 'string' ? C.dtypeByName.get(name) : undefined;
  if (d) return d;
  const names = DTYPES.join(', ');
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
 * `inShape` may also be the operand itself (a Tensor, or { data, shape }),
 * as torch's `grad.sum_to_size(b)`: its shape is used (its data is not read),
 * and for a named operand its dims and coords.
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
  const I = readInput(inShape, 'unbroadcast');
  if (I.named !== null || hasNames(G)) return unbroadcastNamed(G, I, o);
  const i = I.shape;
  const dest = readOut(o.out, 'unbroadcast');
  const to = snapTo(o, [i, G.shape], 'unbroadcast');
  // No user code runs past this point.
  settle(G, 'unbroadcast: grad');
  const { rule, ctx, axis, mapping } = readBack(i, G.shape, to, 'unbroadcast');
  const acc = accDtype(o.dtype, 'unbroadcast') ?? G.dtype;
  if (dest && !outHolds(dest, acc)) {
    throw cannotHold('unbroadcast', dest, acc, [i, G.shape]);
  }
  const c = request(C.A.unbroadcast, 'unbroadcast', rule, axis, [G], [i, G.shape], acc, dest, ctx);
  c.mapping = mapping;
  c.dtype = G.dtype.id;
  c.acc = acc.id;
  return execute(c);
}

/**
 * unbroadcast's second argument, read once: { shape, named, what } with
 * `shape` a copied positional shape (or null) and `named` a read named input
 * { dims, sizes, labels } (or null); `what` says what it was, for messages.
 * A shape, a named shape { dims, shape | coords }, or an operand: a Tensor
 * (disposed or not: only its shape and names are used) or { data, shape, dims?, coords? }.
 */
function readInput(x, fn) {
  const t = metaOf(x);
  if (t !== null) {
    if (t.dims === undefined) return { shape: t.shape.slice(), named: null, what: 'the input tensor' };
    return { shape: null, named: { dims: t.dims.slice(), sizes: t.shape.slice(), labels: t.labels.slice() }, what: 'the input tensor' };
  }
  if (isForeignTensor(x)) throw foreignTensor(`${fn}: input`);
  if (isTensor(x)) throw notOperand(x, `${fn}: input`); // Object.create(t): a Tensor's getters, no tensor
  if (typeof x === 'string' || isShapeLike(x)) {
    return { shape: copyShape(x, `${fn}: input shape`), named: null, what: 'the input shape' };
  }
  if (x === null || typeof x !== 'object') {
    throw new TypeError(`${fn}: the input must be its shape (e.g. [3, 1]), the operand itself (a Tensor or { data, shape }) or a named shape ({ dims, shape }), got ${describe(x)}: pass its shape`);
  }
  // Each property read once; an operand is read from these values.
  const data = x.data;
  const shape = x.shape;
  const dims = x.dims;
  const coords = x.coords;
  if (data !== undefined) {
    // An operand: its shape (its data's length when it has none) and its names; its data is not read.
    // (An onnxruntime Tensor's `type` is read only where it can be one; a view's strides and offset, to check it.)
    const type = mayBeOrt(shape, dims, coords, undefined) ? x.type : undefined;
    const X = readOperand(type === undefined ? { data, shape, dims, coords, strides: x.strides, offset: x.offset } : { data, dims, type }, `${fn}: input`);
    if (X.named !== null) readNames(X, 'input', fn);
    settle(X, `${fn}: input`);
    if (X.dims === undefined) return { shape: X.shape.slice(), named: null, what: 'the input operand' };
    return { shape: null, named: { dims: X.dims, sizes: X.shape.slice(), labels: X.labels }, what: 'the input operand' };
  }
  if (dims === undefined) {
    throw new TypeError(`${fn}: the input is an object with neither dims (a named shape) nor data (an operand): pass its shape${shape !== undefined ? ' itself (the array, not { shape })' : ''}, or the operand`);
  }
  return { shape: null, named: readNamed({ dims, shape, coords }, 'input', fn), what: 'the input' };
}

function unbroadcastNamed(G, I, o) {
  const fn = 'unbroadcast';
  if (I.named === null) {
    throw new TypeError(`${fn}: a named gradient (with dims) goes back to a named input, but ${I.what} has no dims: `
      + 'pass { dims, shape } (or { dims, coords }), or the named operand itself');
  }
  if (G.named === null && G.dims === undefined) {
    throw new TypeError(`${fn}: ${I.what} is named (dims ${safeFormat(I.named.dims)}) but the gradient has no dims: give grad its dims (the forward result's) to sum by name, `
      + `or pass the input's shape ([${I.named.sizes.join(', ')}]) to sum by position`);
  }
  for (const k of BACK_KEYS) {
    if (o[k] !== undefined) throw new TypeError(`${fn}: options.${k} applies to positional shapes; named dims are matched by name`);
  }
  const input = I.named;
  readNames(G, 'grad', fn);
  const dest = readOut(o.out, fn);
  // No user code runs past this point.
  settle(G, `${fn}: grad`);
  const acc = accDtype(o.dtype, fn) ?? G.dtype;
  if (dest && !outHolds(dest, acc)) {
    throw cannotHold(fn, dest, acc, [input.sizes, G.shape]);
  }
  // Labels name cells: a dim that has one twice is refused, as in every named call (grad's: when read).
  checkLabels(fn, 'input', input.dims, input.labels, [input.sizes, G.shape]);
  // A resident `out` with names must carry the result's (the input's): its data is read by them.
  if (dest !== null && dest.resident) checkOutNames(fn, dest, input.dims, input.labels, input.sizes);
  const gPos = new Map(G.dims.map((d, k) => [nameKey(d), k]));
  const inKeys = new Set(input.dims.map(nameKey));
  // Per input axis: the gradient axis it comes from, and where labels decide, the index map.
  const src = [];
  const index = [];
  for (let a = 0; a < input.dims.length; a++) {
    const k = gPos.get(nameKey(input.dims[a]));
    if (k === undefined) {
      throw new BroadcastError(`${fn}: the gradient (dims ${safeFormat(G.dims)}) has no dim "${input.dims[a]}" of the input (dims ${safeFormat(input.dims)}): it is not a gradient of this input`,
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
  // float16 cells move as bits: read through a Float16Array, every NaN would come out as one NaN.
  const [src16, dst] = acc.half ? [bits16(from), bits16(to)] : [from, to];
  const idx = new Array(rank).fill(0);
  for (let e = 0; e < size; e++) {
    let off = 0;
    let absent = false;
    for (let a = 0; a < rank; a++) {
      const j = index[a] === null ? idx[a] : index[a][idx[a]];
      if (j < 0) { absent = true; break; }
      off += j * strideOf[a];
    }
    if (!absent) dst[e] = src16[off];
    for (let a = rank - 1; a >= 0; a--) {
      if (++idx[a] < input.sizes[a]) break;
      idx[a] = 0;
    }
  }
  if (dest === null && G.resident) return tensor(to, input.sizes, { dims: input.dims, coords, dtype: acc.name }); // float16 bits stay float16
  if (dest) {
    // Into a resident out through its strides, if a view (made apart: no operand to overlap).
    if (dest.resident) return intoOut(dest, fn, [], () => ({ data: to, shape: input.sizes.slice(), dtype: acc.name }));
    if (taLength.call(dest.data) !== size) throw outLengthError(fn, taLength.call(dest.data), input.sizes, size);
    // A Uint16Array out of a float16 result takes the bits (where `to` is a Float16Array).
    taSet.call(dest.data, acc.half && isU16(dest.data) ? bits16(to) : to);
    return named({ data: dest.data, shape: input.sizes.slice(), dtype: acc.name }, input, coords);
  }
  return named({ data: to, shape: input.sizes.slice(), dtype: acc.name }, input, coords);
}


/** The bits of float16 cells (a Float16Array or a Uint16Array). */
const bits16 = (t) => new Uint16Array(t.buffer, t.byteOffset, t.length);

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
    return renamed(r, input.dims, coords); // the same memory, named: no copy
  }
  r.shape = input.sizes.slice();
  r.dims = input.dims.slice();
  if (coords) r.coords = coords;
  return r;
}

const REDUCE_KEYS = ['axes', 'dims', 'keepdims', 'dtype', 'out'];

/** The axes option: integers (range and repeats are the engine's to check, against the rank). */
function readAxes(axes, fn) {
  const out = readList(axes, fn, 'axes', (v) => typeof v === 'number', 'an integer or an array of integers');
  if (out !== null) {
    for (let k = 0; k < out.length; k++) {
      if (typeof out[k] !== 'number') throw TypeError(`${fn}: axes[${k}] must be an integer axis, got ${describe(out[k])}`); // a wrong type (§8)
      if (!Number.isInteger(out[k])) {
        throw new BroadcastError(`${fn}: axes[${k}] = ${describe(out[k])} is not an integer axis`, { code: 'INVALID_AXIS' });
      }
    }
  }
  return out;
}

/** The dims option: dim names (checked against the operand later). */
function readDimNames(dims, fn) {
  const out = readList(dims, fn, 'dims', (v) => typeof v === 'string' || typeof v === 'number', 'a dim name or an array of dim names');
  if (out !== null) {
    for (let k = 0; k < out.length; k++) {
      if (typeof out[k] !== 'string' && typeof out[k] !== 'number') throw new TypeError(`${fn}: dims[${k}] must be a dim name (a string or number), got ${describe(out[k])}`);
    }
  }
  return out;
}

/** The axes of the dims named by `names` in the named operand `X` (each once). */
function axesOfDims(names, X, fn) {
  const at = new Map(X.dims.map((d, a) => [nameKey(d), a]));
  const axes = new Array(names.length);
  const first = new Map(none);
  for (let k = 0; k < names.length; k++) {
    const key = nameKey(names[k]);
    const a = at.get(key);
    if (a === undefined) {
      throw new BroadcastError(`${fn}: x has no dim ${JSON.stringify(key)}; its dims are ${safeFormat(X.dims)}`,
        { code: 'INVALID_AXIS', shapes: [X.shape] });
    }
    if (first.has(key)) {
      throw new BroadcastError(`${fn}: dims[${k}] names dim ${JSON.stringify(key)}, already named by dims[${first.get(key)}]: name each dim once`,
        { code: 'INVALID_AXIS', shapes: [X.shape], axis: a });
    }
    first.set(key, k);
    axes[k] = a;
  }
  return axes;
}

/**
 * The names of a reduction's result over the named operand `X`: its dims
 * without the reduced `axes` (null: all) and their coords; with `keepdims`
 * every dim, the reduced ones (now of size 1) without coords. A reduction
 * that leaves no dim gives an unnamed scalar (dims undefined).
 */
function reducedNames(X, axes, keepdims) {
  const rank = X.dims.length;
  const gone = new Array(rank).fill(axes === null);
  if (axes !== null) for (const a of axes) gone[a < 0 ? a + rank : a] = true;
  const dims = [];
  const labels = [];
  const entries = [];
  const shape = [];
  for (let a = 0; a < rank; a++) {
    if (gone[a] && !keepdims) continue;
    dims.push(X.dims[a]);
    shape.push(gone[a] ? 1 : X.shape[a]);
    const l = gone[a] ? null : X.labels?.[a] ?? null;
    labels.push(l);
    if (l) entries.push([nameKey(X.dims[a]), l.slice()]);
  }
  if (dims.length === 0) return null;
  return { dims, labels, shape, coords: entries.length ? ownObject(entries) : undefined };
}

function reduce(name, x, options) {
  mod();
  const o = readOptions(options, name, REDUCE_KEYS);
  const X = readOperand(x, `${name}: x`);
  let axes = readAxes(o.axes, name);
  const byName = readDimNames(o.dims, name);
  if (axes !== null && byName !== null) {
    throw new TypeError(`${name}: give axes (positions) or dims (names), not both`);
  }
  const keepdims = o.keepdims;
  if (X.named !== null) readNames(X, 'x', name);
  const dest = readOut(o.out, name);
  // No user code runs past this point.
  settle(X, `${name}: x`);
  if (byName !== null) {
    if (X.dims === undefined) {
      throw new TypeError(`${name}: options.dims names the dims of a named operand, and x has no dims: give x its dims (tensor(data, shape, { dims }) or { data, shape, dims }), or reduce by position with axes`);
    }
    axes = axesOfDims(byName, X, name);
  }
  // The result's dtype: `dtype` to accumulate in another, else the engine's
  // default (the input's, integers wrap; for mean of integers float64, NumPy).
  const acc = accDtype(o.dtype, name) ?? C.reduceAcc.get(name)[X.dtype.id];
  if (dest && !outHolds(dest, acc)) {
    throw cannotHold(name, dest, acc, [X.shape]);
  }
  if (X.dims === undefined) return runReduce(name, name, X, axes, keepdims === true, acc, dest);
  return reduceNamed(name, X, axes, keepdims === true, acc, dest);
}

/**
 * A reduction of a named operand: the result keeps the remaining dims and
 * their coords (a plain result gets dims / coords fields, a resident one is a
 * named Tensor). A resident `out` with dims must carry the result's names.
 */
function reduceNamed(name, X, axes, keepdims, acc, dest) {
  const rank = X.shape.length;
  // Axes the engine would refuse are left to it (its messages); names come after.
  const valid = axes === null || (axes.every((a) => Number.isInteger(a) && a >= -rank && a < rank)
    && new Set(axes.map((a) => (a < 0 ? a + rank : a))).size === axes.length);
  const names = valid ? reducedNames(X, axes, keepdims) : null;
  if (valid && dest !== null && dest.resident) {
    checkOutNames(name, dest, names ? names.dims : [], names ? names.labels : [], names ? names.shape : []);
  }
  const r = runReduce(name, name, X, axes, keepdims, acc, dest);
  if (names === null || (dest !== null && dest.resident)) return r; // a scalar, or the caller's own out tensor as it is
  if (typeof r.dispose === 'function') return renamed(r, names.dims, names.coords);
  r.dims = names.dims;
  if (names.coords) r.coords = names.coords;
  return r;
}

/** Reduce a settled operand over `axes` (null: all) in one wasm call. */
function runReduce(name, fn, X, axes, keepdims, acc, dest) {
  const tail = axes === null ? [-1] : [axes.length, ...axes];
  const rank = X.shape.length;
  const pre = fn === name ? '' : `${fn}: `;
  const refuse = (res) => {
    const e = res.error();
    const code = C.statuses[e.status] ?? 'INVALID_SHAPE';
    // An empty reduction (detail -6) names the input's axis of size 0 (dims [0]); an axes entry of value -6
    // out of range or repeated has that detail too, with dims [rank] (and a rank-0 input has no empty axis).
    if (code === 'INVALID_AXIS' && e.detail === -6 && rank && !e.a) {
      return new BroadcastError(`${pre}${name} of shape ${formatShape(X.shape)} over axis ${e.axis}: that axis has size 0, and ${noValueOf(name)}`,
        { code, shapes: [X.shape], axis: e.axis, dims: [0] });
    }
    if (code === 'INVALID_AXIS') {
      const v = axes?.[e.axis];
      // Out of range first: an axis past the rank is that, whatever it equals modulo the rank.
      if (!(v >= -rank && v < rank)) {
        const why = rank === 0 ? 'a rank-0 input has no axes (reduce it with no axes given)' : `x has rank ${rank}: use -${rank} to ${rank - 1}`;
        return new BroadcastError(`${fn}: axes[${e.axis}] = ${v} is out of range: ${why}`, { code, shapes: [X.shape] });
      }
      const norm = (x) => (x < 0 ? x + rank : x);
      const first = axes.findIndex((x) => norm(x) === norm(v));
      return new BroadcastError(`${fn}: axes[${e.axis}] = ${v} names axis ${norm(v)}, already named by axes[${first}] = ${axes[first]}: name each axis once`,
        { code, shapes: [X.shape] });
    }
    return new BroadcastError(`${pre}${name} of shape ${formatShape(X.shape)}: ${code}`, { code, shapes: [X.shape] });
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
  for (let k = 0; k < ops.length; k++) {
    const what = `broadcastArrays: #${k}`;
    if (hasNames(ops[k])) throw byPosition('broadcastArrays', `#${k}`);
    settle(ops[k], what);
    if (!committable(ops[k])) throw commitError(ops[k], what); // a tensor a later operand's getter disposed
  }
  const shape = broadcastList(ops.map((o) => o.shape)); // no spread: 65,536 operands fit
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

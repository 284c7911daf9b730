// The backward direction: reductionAxes, unbroadcast, the reductions (sum,
// prod, min, max, mean) and broadcastArrays, on the same one-call contract as
// the forward ops (ops.js): arguments read once, one wasm call.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError, formatShape } from './errors.js';
import { copyShape, checkShape } from './shapes.js';
import { readOptions } from './options.js';
import { readTo, shapeCall, TO_KEYS } from './rules.js';
import { readOperand, settle, readOut } from './operands.js';
import { Call, execute } from './ops.js';
import { broadcastTo } from './ops.js';
import { broadcastShapes } from './rules.js';

/**
 * The output axes, ascending, over which a gradient of shape `outShape` (the
 * result of broadcasting `inShape` with `options`, as broadcastToShape takes
 * them) is summed to come back to `inShape`. Partial shapes: an axis that may
 * or may not be summed is refused (INCOMPATIBLE_DIMS, the axis named).
 */
export function reductionAxes(inShape, outShape, options) {
  mod();
  const o = readOptions(options, 'reductionAxes', TO_KEYS);
  const i = copyShape(inShape, 'reductionAxes: input shape');
  const t = copyShape(outShape, 'reductionAxes: output shape');
  const { rule, ctx, axis, mapping } = readTo(i, t, o, 'reductionAxes');
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
  if (!d) throw new TypeError(`${fn}: dtype must be one of ${[...C.dtypeByName.keys()].join(', ')}, got ${JSON.stringify(name)}`);
  return d;
}

/**
 * Sum `grad` back to `inShape`: over reductionAxes(inShape, grad.shape,
 * options), the result given exactly `inShape` (its 1s kept). Same result
 * forms as the other data calls; `dtype` accumulates in another dtype.
 */
export function unbroadcast(grad, inShape, options) {
  mod();
  const o = readOptions(options, 'unbroadcast', [...TO_KEYS, 'dtype', 'out']);
  const G = readOperand(grad, 'unbroadcast: grad');
  const i = copyShape(inShape, 'unbroadcast: input shape');
  const dest = readOut(o.out, 'unbroadcast');
  settle(G, 'unbroadcast: grad');
  if (G.dims !== undefined) throw new TypeError('unbroadcast: named operands are not supported yet; pass { data, shape }');
  const { rule, ctx, axis, mapping } = readTo(i, G.shape, o, 'unbroadcast');
  const acc = accDtype(o.dtype, 'unbroadcast') ?? G.dtype;
  if (dest && dest.dtype !== acc) {
    throw new BroadcastError(`unbroadcast: out: a ${dest.dtype.name} cannot hold a ${acc.name} result`, { code: 'DTYPE_MISMATCH', shapes: [i, G.shape], axis: null, dims: null });
  }
  const c = new Call(C.A.unbroadcast, 'unbroadcast', rule, axis, [G], [i, G.shape], acc, dest, ctx);
  c.mapping = mapping;
  c.dtype = G.dtype.id;
  c.acc = acc.id;
  return execute(c);
}

const REDUCE_KEYS = ['axes', 'keepdims', 'dtype', 'out'];

function readAxes(axes, fn) {
  if (axes === undefined) return null;
  if (typeof axes === 'number') axes = [axes];
  if (!Array.isArray(axes)) throw new TypeError(`${fn}: axes must be an integer or an array of integers`);
  const out = Array.from(axes);
  for (let k = 0; k < out.length; k++) {
    if (typeof out[k] !== 'number' || !Number.isInteger(out[k])) {
      throw new BroadcastError(`${fn}: axes[${k}] = ${String(out[k])} is not an integer axis`, { code: 'INVALID_AXIS', shapes: [], axis: null, dims: null });
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
  // The result's dtype: the input's (integers wrap), `dtype` to accumulate in
  // another, and for mean of integers float64 (NumPy).
  const acc = accDtype(o.dtype, name) ?? (name === 'mean' && !X.dtype.float ? C.dtypeByName.get('float64') : X.dtype);
  if (dest && dest.dtype !== acc) {
    throw new BroadcastError(`${name}: out: a ${dest.dtype.name} cannot hold a ${acc.name} result`, { code: 'DTYPE_MISMATCH', shapes: [X.shape], axis: null, dims: null });
  }
  const tail = axes === null ? [-1] : [axes.length, ...axes];
  const refuse = (res) => {
    const e = res.error();
    const code = C.statuses[e.status] ?? 'INVALID_SHAPE';
    if (code === 'INVALID_AXIS' && e.detail === -6) {
      return new BroadcastError(`${name} of shape ${formatShape(X.shape)} over axis ${e.axis}: that axis has size 0, and ${name} of no elements has no value (sum gives 0, prod 1)`,
        { code, shapes: [X.shape], axis: e.axis, dims: [0] });
    }
    if (code === 'INVALID_AXIS') {
      const v = axes?.[e.axis];
      const dup = axes && axes.some((a, k) => k < e.axis && ((a % X.shape.length) + X.shape.length) % X.shape.length === ((v % X.shape.length) + X.shape.length) % X.shape.length);
      return new BroadcastError(`${name}: axes[${e.axis}] = ${v} ${dup ? 'names an axis already named' : `is out of range for rank ${X.shape.length} (use -${X.shape.length} to ${X.shape.length - 1})`}`,
        { code, shapes: [X.shape], axis: null, dims: null });
    }
    return new BroadcastError(`${name} of shape ${formatShape(X.shape)}: ${code}`, { code, shapes: [X.shape], axis: null, dims: null });
  };
  const c = new Call(C.A.reduce, name, 0, -1, [X], [X.shape], acc, dest, null);
  c.tail = tail;
  c.op = C.reduceOps.get(name);
  c.dtype = X.dtype.id;
  c.acc = acc.id;
  c.keepdims = keepdims === true;
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

/** Every operand materialised to the common NumPy shape (numpy.broadcast_arrays). */
export function broadcastArrays(...xs) {
  mod();
  const ops = xs.map((x, k) => settle(readOperand(x, `broadcastArrays: #${k}`), `broadcastArrays: #${k}`));
  const shape = broadcastShapes(...ops.map((o) => o.shape));
  return xs.map((x) => broadcastTo(x, shape));
}

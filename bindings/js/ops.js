// Data with broadcasting: element-wise ops, broadcastTo and where, on typed
// arrays or resident tensors. One path for every form of operand and `out`:
//
//   1. snapshot: every argument and option read once (user code runs only here);
//   2. place: scratch and request space allocated (memory may grow), data copied in;
//   3. one wasm call plans (cached by shape) and runs the kernel;
//   4. the result is copied out, or handed over as a Tensor.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError, formatShape } from './errors.js';
import { view, slot, slotBytes, trimScratch } from './heap.js';
import { makeTensor } from './tensor.js';
import { readOptions, choose, EMPTY } from './options.js';
import { readType, readTo, TO_KEYS, namedContext } from './rules.js';
import { copyShape } from './shapes.js';
import { begin, dataHeader, setOut, writeShape, shapeCost, call, recall, requestBuffer, requestLength } from './wire.js';
import { internNamed, writeNamed, namedResult } from './named.js';
import { readOperand, settle, readNames, scalarOperand, readOut, isScalar } from './operands.js';

const OUT_SLOT = 7;

// ---- the one call ---------------------------------------------------------------------
// req: { action, rule, axis, shaping, ops, op, dtype, elem, outDtype, dest, shapes, mapping, named, ctx, fn }
export function execute(req) {
  try {
    return executeInner(req);
  } finally {
    trimScratch();
  }
}

function executeInner(req) {
  const { ops, dest, outDtype } = req;
  // Request space first, then scratch: both may grow memory, so views come after.
  let need;
  if (req.named) need = req.named.need;
  else {
    need = req.mapping ? 1 + req.mapping.length : 0;
    if (req.tail) need += req.tail.length;
    for (const s of req.shapes) need += shapeCost(s);
  }
  begin(need);
  let resident = false;
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k];
    if (o.resident) resident = true;
    else o.ptr = slot(k, Math.max(o.size * o.dtype.size, 1));
  }
  let out = 0;
  let cap = 0;
  if (dest && dest.resident) {
    out = dest.ptr;
    cap = -dest.size * outDtype.size;
  } else if (dest) {
    const bytes = dest.array.length * outDtype.size;
    out = slot(OUT_SLOT, Math.max(bytes, 1));
    cap = -bytes;
  } else if (!resident) {
    out = slot(OUT_SLOT, 64);
    cap = slotBytes(OUT_SLOT);
  }
  for (const o of ops) if (!o.resident && o.size > 0) view(o.dtype).set(o.data, o.ptr / o.dtype.size);
  // The request: no allocation from here to the call.
  const h = requestBuffer();
  let p = begin(0);
  dataHeader(h, req.action, req.rule, req.axis, req.named ? 2 : req.shapes.length, req.named ? C.shapings.get(req.shaping) : 0,
    req.op ?? 0, req.dtype ?? 0, req.elem ?? 0, ops, out, cap, req.acc ?? -1, req.keepdims ? 1 : 0);
  if (req.named) p = writeNamed(h, p, req.named.enc);
  else {
    for (const s of req.shapes) p = writeShape(h, p, s);
    if (req.mapping) {
      h[p++] = req.mapping.length;
      for (const v of req.mapping) h[p++] = v;
    }
    if (req.tail) for (const v of req.tail) h[p++] = v;
  }
  const len = requestLength(p);
  let res = call(p);
  if (res.status === C.signals.outTooSmall) {
    const shape = res.shape();
    const size = shape.reduce((a, d) => a * d, 1);
    if (dest) {
      const have = dest.resident ? dest.size : dest.array.length;
      throw new BroadcastError(`${req.fn}: out has ${have} elements but the result ${formatShape(shape)} has ${size}`,
        { code: 'LENGTH_MISMATCH', shapes: [shape], axis: null, dims: [have, size] });
    }
    const bytes = size * outDtype.size;
    out = slot(OUT_SLOT, Math.max(bytes, 1));
    setOut(requestBuffer(), out, slotBytes(OUT_SLOT));
    res = recall(len);
  }
  const st = res.status;
  if (st === C.signals.outOverlaps) throw new TypeError(`${req.fn}: out is also an operand that is broadcast or reordered; in place would read cells already written: write to a separate tensor`);
  if (st !== 0) {
    if (C.statuses[st] === 'TOO_LARGE') {
      const shape = res.shape();
      throw new BroadcastError(`${req.fn}: the result ${formatShape(shape)} would need more bytes than WebAssembly memory can hold`,
        { code: 'TOO_LARGE', shapes: ops.map((o) => o.shape), axis: null, dims: null });
    }
    throw req.refuse ? req.refuse(res) : makeError(req.ctx, res.error());
  }
  const shape = res.shape();
  let named = null;
  if (req.named) named = namedResult(req.named.nameList, res.namedAxes(req.named.labelList, req.named.rawName).axes);
  if (dest && dest.resident) return dest.tensor;
  if (out === 0) return makeTensor(res.field('result'), shape, outDtype, named?.dims, named?.coords);
  const size = shape.reduce((a, d) => a * d, 1);
  const off = out / outDtype.size;
  const data = dest ? dest.array : view(outDtype).slice(off, off + size);
  if (dest) data.set(view(outDtype).subarray(off, off + size));
  const r = { data, shape, dtype: outDtype.name };
  if (named) {
    r.dims = named.dims;
    if (named.coords) r.coords = named.coords;
  }
  return r;
}

// ---- element-wise ------------------------------------------------------------------------
const BINARY_KEYS = ['out', 'broadcast', 'shaping', 'fill'];

function binary(name, a, b, options) {
  mod();
  const op = C.opByName.get(name);
  const o = options === undefined ? EMPTY : readOptions(options, name, BINARY_KEYS);
  const sa = isScalar(a);
  const sb = isScalar(b);
  let A = sa ? null : readOperand(a, `${name}: a`);
  let B = sb ? null : readOperand(b, `${name}: b`);
  if (!A && !B) throw new TypeError(`${name}: at least one operand must be a tensor ({ data, shape } or a resident tensor)`);
  const bc = o.broadcast === undefined ? EMPTY : o.broadcast;
  if (bc === null || typeof bc !== 'object') throw new TypeError(`${name}: options.broadcast must be { type, axis }`);
  const bo = bc === EMPTY ? EMPTY : readOptions(bc, `${name}: options.broadcast`, ['type', 'axis']);
  const shapingIn = o.shaping;
  const fillIn = o.fill;
  const dest0 = o.out;
  if (A && A.named) readNames(A, 'left', name);
  if (B && B.named) readNames(B, 'right', name);
  const dest = readOut(dest0, name);
  // No user code runs past this point.
  if (A) settle(A, `${name}: a`);
  if (B) settle(B, `${name}: b`);
  if (!A) A = scalarOperand(a, B.dtype, `${name}: a`);
  if (!B) B = scalarOperand(b, A.dtype, `${name}: b`);
  if (A.dtype !== B.dtype) {
    throw new BroadcastError(`${name}: operands have different dtypes (${A.dtype.name} vs ${B.dtype.name}); convert one first`,
      { code: 'DTYPE_MISMATCH', shapes: [A.shape, B.shape], axis: null, dims: [A.dtype.name, B.dtype.name] });
  }
  const dt = A.dtype;
  if (op.domain === 'integer' && dt.float) throw new TypeError(`${name} needs integer data; ${dt.name} has no bits to combine (use an integer typed array)`);
  if (op.domain === 'float' && !dt.float) throw new TypeError(`${name} needs float data (Float32Array or Float64Array), got ${dt.name}`);
  const outDtype = op.bool ? C.dtypeByName.get('uint8') : dt;
  if (dest && dest.dtype !== outDtype) {
    throw new BroadcastError(`${name}: out: a ${dest.dtype.name} ${dest.resident ? 'tensor' : 'array'} cannot hold a ${outDtype.name} result`,
      { code: 'DTYPE_MISMATCH', shapes: [A.shape, B.shape], axis: null, dims: null });
  }
  if (fillIn !== undefined && typeof fillIn !== 'number' && typeof fillIn !== 'bigint') {
    throw new TypeError(`${name}: options.fill must be a number (or a bigint for 64-bit integers), got ${fillIn === null ? 'null' : typeof fillIn}`);
  }
  if (A.dims !== undefined || B.dims !== undefined) {
    // A rank-0 operand without names joins a named one (a resident record is frozen: copy it).
    if (A.dims === undefined && A.shape.length === 0) A = { ...A, dims: [], labels: [] };
    if (B.dims === undefined && B.shape.length === 0) B = { ...B, dims: [], labels: [] };
    if (A.dims === undefined || B.dims === undefined) throw new TypeError(`${name}: give dims to both operands (or neither) to broadcast by name`);
    const shaping = choose(shapingIn, C.shapings, 'intersection', name, 'shaping');
    const na = { dims: A.dims, sizes: A.shape, labels: A.labels };
    const nb = { dims: B.dims, sizes: B.shape, labels: B.labels };
    // Union cells one side lacks read the fill value (default NaN / 0).
    const fill = fillIn ?? (dt.float ? NaN : 0);
    const F = scalarOperand(fill, dt, `${name}: options.fill`);
    return execute({ action: C.A.binary, op: op.id, dtype: dt.id, outDtype, dest, fn: name, rule: C.namedRule, axis: -1, shaping, ops: [A, B, F, { ...F }], named: internNamed(na, nb), ctx: namedContext(na, nb) });
  }
  if (shapingIn !== undefined) throw new TypeError(`${name}: options.shaping applies to named operands (with dims) only`);
  const shapes = [A.shape, B.shape];
  const { rule, ctx, axis } = readType(bo, shapes, name);
  // One literal shape for every request object (a spread here costs microseconds in V8).
  return execute({ action: C.A.binary, op: op.id, dtype: dt.id, outDtype, dest, fn: name, rule, axis, ops: [A, B], shapes, ctx });
}

/** An element-wise op by its name in ops.def (the engine's op table). */
export function elementwise(name) {
  const f = (a, b, options) => binary(name, a, b, options);
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

// ---- broadcastTo -------------------------------------------------------------------------
/** Materialise `x` broadcast to `target` (every Broadcast-op mode, -1 in mode numpy). */
export function broadcastTo(x, target, options) {
  mod();
  const o = readOptions(options, 'broadcastTo', ['out', ...TO_KEYS]);
  const X = readOperand(x, 'broadcastTo: x');
  const t = copyShape(target, 'broadcastTo: target');
  const dest = readOut(o.out, 'broadcastTo');
  settle(X, 'broadcastTo: x');
  const { rule, ctx, axis, mapping } = readTo(X.shape, t, o, 'broadcastTo');
  if (t === '[...]' || t.some((d) => typeof d !== 'number')) {
    throw new BroadcastError(`broadcastTo: target ${formatShape(t)} must be static to materialise`, { code: 'INVALID_SHAPE', shapes: [X.shape, t] });
  }
  if (dest && dest.dtype !== X.dtype) {
    throw new BroadcastError(`broadcastTo: out: a ${dest.dtype.name} cannot hold a ${X.dtype.name} result`, { code: 'DTYPE_MISMATCH', shapes: [X.shape, t], axis: null, dims: null });
  }
  return execute({ action: C.A.copy, rule, axis, ops: [X], shapes: [X.shape, t], mapping, elem: X.dtype.size, outDtype: X.dtype, dest, ctx, fn: 'broadcastTo' });
}

// ---- where -------------------------------------------------------------------------------
/** where(cond, a, b): a where cond != 0, else b, with three-way numpy broadcasting. */
export function where(cond, a, b, options) {
  mod();
  const o = readOptions(options, 'where', ['out']);
  const Cd = readOperand(cond, 'where: cond');
  const sa = isScalar(a);
  const sb = isScalar(b);
  let A = sa ? null : readOperand(a, 'where: a');
  let B = sb ? null : readOperand(b, 'where: b');
  if (!A && !B) throw new TypeError('where: a or b must be a tensor, to give the result a dtype');
  const dest = readOut(o.out, 'where');
  settle(Cd, 'where: cond');
  if (A) settle(A, 'where: a');
  if (B) settle(B, 'where: b');
  if (!A) A = scalarOperand(a, B.dtype, 'where: a');
  if (!B) B = scalarOperand(b, A.dtype, 'where: b');
  if (A.dtype !== B.dtype) {
    throw new BroadcastError(`where: a and b have different dtypes (${A.dtype.name} vs ${B.dtype.name})`,
      { code: 'DTYPE_MISMATCH', shapes: [Cd.shape, A.shape, B.shape], axis: null, dims: [A.dtype.name, B.dtype.name] });
  }
  if (dest && dest.dtype !== A.dtype) {
    throw new BroadcastError(`where: out: a ${dest.dtype.name} cannot hold a ${A.dtype.name} result`, { code: 'DTYPE_MISMATCH', shapes: [Cd.shape, A.shape, B.shape], axis: null, dims: null });
  }
  const shapes = [Cd.shape, A.shape, B.shape];
  return execute({ action: C.A.where, rule: C.types.get('numpy'), axis: -1, ops: [Cd, A, B], shapes, dtype: Cd.dtype.id, elem: A.dtype.size, outDtype: A.dtype, dest,
    ctx: { kind: 'elementwise', rule: 'numpy', shapes }, fn: 'where' });
}

// Data with broadcasting: element-wise ops, broadcastTo and where, on typed
// arrays or resident tensors. Each reads its arguments once (the snapshot),
// checks them, and hands one request to execute.js. One path for every form
// of operand and `out`.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, castAdvice, formatShape, domainRefusal, cannotHold, numpyCtx } from './errors.js';
import { readOptions, checkKeys, choose, readBroadcast, byName } from './options.js';
import { readType, readTo, snapTo, TO_KEYS, namedContext } from './rules.js';
import { internNamed } from './named.js';
import { readOperand, settle, readNames, scalarOperand, readOut, isScalar, hasNames, copyShape, withNames } from './operands.js';
import { request, execute, runBinary, outHolds, runLarge } from './execute.js';
import { largeRun, LARGE } from './expr-large.js';
import { namedWhere } from './expr.js';

// ---- element-wise ------------------------------------------------------------------------
const BINARY_KEYS = ['out', 'broadcast', 'shaping', 'fill'];

function binary(op, name, whatA, whatB, a, b, options) {
  mod();
  // The options, each read once (own and inherited keys checked first, without running getters).
  let outIn;
  let bc;
  let shapingIn;
  let fillIn;
  if (options !== undefined) {
    checkKeys(options, name, BINARY_KEYS);
    outIn = options.out;
    bc = options.broadcast;
    shapingIn = options.shaping;
    fillIn = options.fill;
  }
  let A = isScalar(a) ? null : readOperand(a, whatA);
  let B = isScalar(b) ? null : readOperand(b, whatB);
  if (A === null && B === null) throw new TypeError(`${name}: at least one operand must be a tensor ({ data, shape } or a resident tensor)`);
  const { type: typeIn, axis: axisIn } = readBroadcast(bc, name);
  if (A !== null && A.named !== null) readNames(A, 'left', name, 1);
  if (B !== null && B.named !== null) readNames(B, 'right', name, 1);
  const dest = outIn === undefined ? null : readOut(outIn, name);
  // No user code runs past this point.
  if (A !== null) settle(A, whatA);
  if (B !== null) settle(B, whatB);
  if (A === null) A = scalarOperand(a, B.dtype, whatA);
  if (B === null) B = scalarOperand(b, A.dtype, whatB);
  const dt = A.dtype;
  const outDtype = op.bool ? C.dtypeByName.get('uint8') : dt;
  // The checks here, their errors (rare) in a function of its own: a small hot
  // function is one V8 inlines its callees into. (out's dtype: execute.js runBinary.)
  if (dt !== B.dtype || (op.domain === 'integer' && dt.float) || (op.domain === 'float' && !dt.float)
    || (fillIn !== undefined && typeof fillIn !== 'number' && typeof fillIn !== 'bigint')) {
    throw refuseBinary(op, name, A, B, fillIn);
  }
  let rule = C.numpy; // the default rule, NumPy/ONNX multidirectional (its ctx made on failure)
  let axis = -1;
  let ctx = null;
  let named = null;
  if (A.dims !== undefined || B.dims !== undefined) { // by dim name (§6), with the labels' shaping
    if (typeIn !== undefined || axisIn !== undefined) throw byName(name); // as evaluate refuses it
    // A rank-0 operand without names joins a named one (as a copy: a tensor's record is never changed).
    if (A.dims === undefined && A.shape.length === 0) A = withNames(A, [], []);
    if (B.dims === undefined && B.shape.length === 0) B = withNames(B, [], []);
    if (A.dims === undefined || B.dims === undefined) throw new TypeError(`${name}: give dims to both operands (or neither) to broadcast by name`);
    const shaping = choose(shapingIn, C.shapings, 'intersection', name, 'shaping');
    const na = { dims: A.dims, sizes: A.shape, labels: A.labels };
    const nb = { dims: B.dims, sizes: B.shape, labels: B.labels };
    // Union cells one side lacks read the fill value (default NaN / 0).
    const fill = fillIn ?? (dt.float ? NaN : 0);
    const F = scalarOperand(fill, dt, `${name}: options.fill`);
    rule = C.named;
    ctx = namedContext(na, nb);
    // (The fill is the engine's third and fourth operand, one for each side: one record, read twice.)
    named = { ops: [A, B, F, F], shaping: C.shapings.get(shaping), interned: internNamed(na, nb) };
  } else {
    if (shapingIn !== undefined) throw new TypeError(`${name}: options.shaping applies to named operands (with dims) only`);
    if (bc !== undefined && (typeIn !== undefined || axisIn !== undefined)) {
      ({ rule, ctx, axis } = readType(typeIn, axisIn, [A.shape, B.shape], name));
    }
  }
  const large = A.size + B.size >= LARGE ? largeRun(`${name}(a, b)`, [A, B], dest, outDtype, rule, axis) : null; // (named operands: none)
  return runBinary(name, op, A, B, dest, outDtype, rule, axis, ctx, named, large);
}

/** The error of an element-wise call binary() refuses, the first that applies. */
function refuseBinary(op, name, A, B, fillIn) {
  const dt = A.dtype;
  if (dt !== B.dtype) {
    return new BroadcastError(`${name}: operands have different dtypes (${dt.name} vs ${B.dtype.name}); ${castAdvice(dt.name, B.dtype.name)}`,
      { code: 'DTYPE_MISMATCH', shapes: [A.shape, B.shape], dims: [dt.name, B.dtype.name] });
  }
  const refused = domainRefusal(op, name, dt, A.shape);
  if (refused !== null) return refused;
  return TypeError(`${name}: options.fill must be a number (or a bigint for 64-bit integers), got ${fillIn === null ? 'null' : typeof fillIn}`);
}

/** An element-wise op by its name in ops.def (the engine's op table). */
export function elementwise(name) {
  let op = null; // the contract's entry, once the module is loaded
  const whatA = `${name}: a`; // the operands' names in messages, made once (not per call)
  const whatB = `${name}: b`;
  const f = (a, b, options) => binary(op ?? (op = opOf(name)), name, whatA, whatB, a, b, options);
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

function opOf(name) {
  mod();
  return C.opByName.get(name);
}

// ---- broadcastTo -------------------------------------------------------------------------
/** Materialise `x` broadcast to `target` (every Broadcast-op mode, -1 in mode numpy). */
export function broadcastTo(x, target, options) {
  mod();
  // The snapshot: every user value, nested ones included, before any check.
  const o = readOptions(options, 'broadcastTo', ['out', ...TO_KEYS]);
  const X = readOperand(x, 'broadcastTo: x');
  const t = copyShape(target, 'broadcastTo: target');
  const dest = readOut(o.out, 'broadcastTo');
  const to = snapTo(o, [X.shape, t], 'broadcastTo');
  if (hasNames(X)) throw byPosition('broadcastTo', 'x'); // §6: named operands align by name, never by position
  settle(X, 'broadcastTo: x');
  return materialise(X, t, to, dest, 'broadcastTo');
}

/** The refusal of a named operand by a call that aligns its operands by position (broadcastTo, broadcastArrays). */
export const byPosition = (fn, what) => TypeError(`${fn}: ${what} has dims; it aligns by position, not by name`);

/**
 * broadcastTo on snapshots: `X` a settled operand record, `t` a copied target,
 * `to` snapTo()'s options, `dest` readOut()'s record or null. Reads nothing
 * the caller owns (broadcastArrays runs it on its own snapshots).
 */
export function materialise(X, t, to, dest, fn) {
  const { rule, ctx, axis, mapping } = readTo(X.shape, t, to, fn);
  if (t === '[...]' || t.some((d) => typeof d !== 'number')) {
    throw new BroadcastError(`${fn}: target ${formatShape(t)} must be static to materialise`, { code: 'INVALID_SHAPE', shapes: [X.shape, t] });
  }
  if (dest && !outHolds(dest, X.dtype)) {
    throw cannotHold(fn, dest, X.dtype, [X.shape, t]);
  }
  const c = request(C.A.copy, fn, rule, axis, [X], [X.shape, t], X.dtype, dest, ctx);
  c.mapping = mapping;
  c.elem = X.dtype.size;
  return execute(c);
}

// ---- where -------------------------------------------------------------------------------
const WHERE_KEYS = ['out'];

/** where(cond, a, b): a where cond != 0, else b, with three-way numpy broadcasting. */
export function where(cond, a, b, options) {
  mod();
  let outIn;
  if (options !== undefined) {
    checkKeys(options, 'where', WHERE_KEYS);
    outIn = options.out;
  }
  const Cd = readOperand(cond, 'where: cond');
  const sa = isScalar(a);
  const sb = isScalar(b);
  let A = sa ? null : readOperand(a, 'where: a');
  let B = sb ? null : readOperand(b, 'where: b');
  if (!A && !B) throw new TypeError('where: a or b must be a tensor, to give the result a dtype');
  const dest = readOut(outIn, 'where');
  // Named operands align by name: the expression where(c, a, b) does that for three.
  if ([Cd, A, B].some((o) => o !== null && hasNames(o))) return namedWhere([Cd, A ?? a, B ?? b], dest);
  settle(Cd, 'where: cond');
  if (A) settle(A, 'where: a');
  if (B) settle(B, 'where: b');
  if (!A) A = scalarOperand(a, B.dtype, 'where: a');
  if (!B) B = scalarOperand(b, A.dtype, 'where: b');
  if (A.dtype !== B.dtype) {
    throw new BroadcastError(`where: a and b have different dtypes (${A.dtype.name} vs ${B.dtype.name}); ${castAdvice(A.dtype.name, B.dtype.name)}`,
      { code: 'DTYPE_MISMATCH', shapes: [Cd.shape, A.shape, B.shape], dims: [A.dtype.name, B.dtype.name] });
  }
  if (dest && !outHolds(dest, A.dtype)) {
    throw cannotHold('where', dest, A.dtype, [Cd.shape, A.shape, B.shape]);
  }
  if (Cd.size + A.size + B.size >= LARGE) {
    const r = runLarge(largeRun('where(a, b, c)', [Cd, A, B], dest, A.dtype, C.numpy, -1));
    if (r !== null) return r;
  }
  const shapes = [Cd.shape, A.shape, B.shape];
  const c = request(C.A.where, 'where', C.numpy, -1, [Cd, A, B], shapes, A.dtype, dest, numpyCtx(shapes));
  c.dtype = Cd.dtype.id;
  c.elem = A.dtype.size;
  return execute(c);
}

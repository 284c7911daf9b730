// The shape API: every rule of the spec (docs/broadcast-rules.md), computed by
// the engine. Each function reads its arguments once (a snapshot), writes one
// request, makes one call, and turns a refusal into a BroadcastError.
import { C, none } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError, operandName, head, tail, numpyCtx } from './errors.js';
import { readOptions, choose } from './options.js';
import { internNamed, describeNamed, namedOutNames } from './named.js';
import { begin, header, writeShape, shapeCost, call, requestBuffer, stridesCost, writeStrides, writeNamed, namedResult } from './execute.js';
import { copyShape, checkShape, rankTooLarge, isDimValue, describe, isShapeLike, UNKNOWN_RANK, MAX_RANK, readNamed } from './operands.js';

// ---- snapshots of the arguments -------------------------------------------------

/** An axis option: undefined or null (the default, -1) or an integer. */
export function readAxis(axis, ctx) {
  if (axis == null) return -1;
  if (typeof axis !== 'number') throw new TypeError(`axis must be an integer, got ${typeof axis}`);
  if (!Number.isInteger(axis)) {
    throw new BroadcastError(`axis must be an integer, got ${axis}`, { code: 'INVALID_AXIS', shapes: ctx.shapes });
  }
  return axis;
}

/**
 * axesMapping read once (length once, each entry once) into an owned array,
 * or undefined when not given; refused by length before anything is copied.
 * Its entries are checked later (checkMapping), with the call's context.
 */
function copyMapping(m, shapes, fn) {
  if (m === undefined) return undefined;
  if (!isShapeLike(m)) {
    throw new TypeError(`${fn}: axesMapping must be an array of integers, got ${m === null ? 'null' : typeof m}`);
  }
  const n = m.length;
  if (!(n <= C.limits.maxRank + 1)) {
    throw new BroadcastError(`${fn}: axesMapping has ${n} entries; an input has at most ${C.limits.maxRank} axes`,
      { code: 'INVALID_AXES_MAPPING', shapes });
  }
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = m[i];
  return out;
}

function checkMapping(m, ctx, fn) {
  if (m === undefined) throw new TypeError(`${fn}: mode 'explicit' needs options.axesMapping (an array of output axes)`);
  for (let i = 0; i < m.length; i++) {
    const v = m[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new BroadcastError(`${head(ctx)}: axesMapping[${i}] = ${describe(v)} is not an integer axis${tail(ctx)}`,
        { code: 'INVALID_AXES_MAPPING', shapes: ctx.shapes });
    }
  }
  return m;
}

/**
 * The element-wise rule of the options `type` and `axis` (§1–§3), already
 * read. `back`: the backward call mirroring it (its messages say so).
 */
export function readType(typeIn, axisIn, shapes, fn, back = false) {
  const type = choose(typeIn, C.types, 'numpy', fn, 'type');
  const ctx = { kind: 'elementwise', rule: type, shapes, axis: axisIn, back };
  const axis = type === 'pdpd' ? readAxis(axisIn, ctx) : -1;
  return { rule: C.types.get(type), ctx, axis };
}

export const TO_KEYS = ['mode', 'axesMapping', 'axis'];

/**
 * The Broadcast-op options (§4, §5) of `o` (readOptions' record) as a
 * snapshot: mode and axis as read, axesMapping copied. Part of a call's
 * snapshot stage: after it, readTo() reads nothing the caller owns.
 */
export function snapTo(o, shapes, fn) {
  return { mode: o.mode, axis: o.axis, axesMapping: copyMapping(o.axesMapping, shapes, fn), type: o.type };
}

/**
 * The Broadcast-op request of (input, target, `o`) (§4, §5), from copied
 * shapes and snapTo()'s record: no user code runs here. `back`: the backward
 * call mirroring it (its messages say so).
 */
export function readTo(input, target, o, fn, back = false) {
  const mode = choose(o.mode, C.modes, 'numpy', fn, 'mode');
  const shapes = [input, target];
  checkShape(input, false, shapes);
  checkShape(target, mode === 'numpy', shapes);
  const ctx = { kind: 'to', mode, shapes, axis: o.axis, axesMapping: undefined, back };
  const axis = mode === 'pdpd' ? readAxis(o.axis, ctx) : -1;
  const mapping = mode === 'explicit' ? checkMapping(o.axesMapping, ctx, fn) : null;
  ctx.axesMapping = mapping;
  return { rule: C.modes.get(mode), ctx, axis, mapping };
}

/** The options of the backward calls: a Broadcast-op mode's, or an element-wise rule's `type`. */
export const BACK_KEYS = [...TO_KEYS, 'type'];

/**
 * The forward call a backward request (reductionAxes, unbroadcast) mirrors,
 * from copied shapes and snapTo()'s record: the Broadcast operation in `mode`
 * (input to target = `output`), or with `type` the element-wise rule whose
 * second operand B is `input` and whose result (A's shape) is `output`. Its
 * refusals are the forward call's: the same rule runs in the engine.
 */
export function readBack(input, output, o, fn) {
  if (o.type === undefined) return readTo(input, output, o, fn, true);
  if (o.mode !== undefined || o.axesMapping !== undefined) {
    throw new TypeError(`${fn}: options.type (an element-wise rule, for an operand of add, mul, ...) and options.mode / axesMapping (the Broadcast operation, for broadcastTo) each name the forward call: give one of them`);
  }
  const shapes = [output, input]; // as the element-wise call sees them: A (the result's shape), then B
  const { rule, ctx, axis } = readType(o.type, o.axis, shapes, fn, true);
  checkShape(input, false, shapes);
  checkShape(output, false, shapes);
  return { rule, ctx, axis, mapping: null };
}

// ---- requests -------------------------------------------------------------------

/** One call over `shapes` (and an explicit mapping) with `action`; returns the Response. */
export function shapeCall(action, rule, axis, shapes, mapping, strides = null) {
  let need = mapping ? 1 + mapping.length : 0;
  for (let k = 0; k < shapes.length; k++) need += shapeCost(shapes[k]);
  if (strides) need += stridesCost(strides);
  let p = begin(need);
  const body = p;
  const h = requestBuffer();
  header(h, action, rule, axis, shapes.length);
  for (let k = 0; k < shapes.length; k++) p = writeShape(h, p, shapes[k]);
  if (mapping) {
    h[p++] = mapping.length;
    for (let i = 0; i < mapping.length; i++) h[p++] = mapping[i];
  }
  if (strides) p = writeStrides(h, p, strides, body); // explain({ strides }): operands read as views
  return call(p);
}

/** One call over two named operands. */
export function namedCall(action, na, nb, shaping) {
  const { enc, need, nameList, labelList, rawName } = internNamed(na, nb);
  const p = begin(need);
  const h = requestBuffer();
  header(h, action, C.named, -1, 2);
  h[p - C.REQ_LEN + C.REQ.shaping] = C.shapings.get(shaping);
  return { res: call(writeNamed(h, p, enc)), nameList, labelList, rawName };
}

export function namedContext(na, nb) {
  return { kind: 'named', shapes: [na.sizes, nb.sizes], describe: [describeNamed(na), describeNamed(nb)], names: namedOutNames(na, nb), dimNames: [na.dims, nb.dims] };
}

// ': shape A', ': shape B', ...: message suffixes made once, not per call.
const SHAPE_SUFFIX = Array.from({ length: 8 }, (_, k) => `: shape ${operandName(k)}`);

const shapeSuffix = (k) => (k < 8 ? SHAPE_SUFFIX[k] : `: shape ${operandName(k)}`);

function copyAll(shapes, fn) {
  const out = new Array(shapes.length);
  for (let k = 0; k < shapes.length; k++) out[k] = copyShape(shapes[k], fn, shapeSuffix(k));
  return out;
}

function result(res, ctx) {
  if (res.status !== 0) throw makeError(ctx, res.error());
  return res.shape();
}

// ---- public -----------------------------------------------------------------------

// broadcastShapes' lane for the common call: up to LANE shapes, each an Array
// of integer dims. Each dim is read once, checked and kept in `lane` (memory
// the library owns: a getter or Proxy trap met while reading may call the
// library, which may write a request or grow wasm memory, so nothing goes to
// the request until every dim is read), then copied to the request. Anything
// else leaves the lane where it stands: the general path goes on from what is
// already read (laneExit) and reads nothing twice. `laneBusy`: a call made
// from such a getter while the lane is reading takes the general path.
const LANE = 8;
const lane = new Float64Array(none.length + LANE * (1 + MAX_RANK)); // (none.length: a size the minifier cannot fold, see contract.js)
let laneBusy = false;
let laneDone = 0; // where the lane stopped: shapes fully read,
let laneAt = -1; // dims of the next one read (-1: its length not read)
let laneRank = 0; // its length
let laneDim = 0; // the value that stopped it

/** The lane: the request's length in doubles (shapes in `lane`), or -1 where it stopped (laneDone, laneAt, ...). */
function laneRead(shapes, n) {
  let q = 0;
  for (let k = 0; k < n; k++) {
    const s = shapes[k];
    laneDone = k;
    laneAt = -1;
    if (!Array.isArray(s)) return -1;
    const r = s.length;
    laneRank = r;
    if (!(r <= MAX_RANK)) return -1;
    lane[q] = r;
    for (let i = 0; i < r; i++) {
      const d = s[i];
      if (!isDimValue(d)) {
        laneAt = i;
        laneDim = d;
        return -1;
      }
      lane[q + 1 + i] = d;
    }
    q += 1 + r;
  }
  return q;
}

/** The first `k` shapes the lane read into out[0 .. k-1], as owned arrays; returns where the next one starts in `lane`. */
function laneShapes(out, k) {
  let q = 0;
  for (let j = 0; j < k; j++) {
    const r = lane[q];
    const s = new Array(r);
    for (let i = 0; i < r; i++) s[i] = lane[q + 1 + i];
    out[j] = s;
    q += 1 + r;
  }
  return q;
}

/**
 * The general path's snapshot, going on from where the lane stopped. What the
 * lane read is taken out of `lane` and its globals before any further read:
 * a getter met from here on may call broadcastShapes, whose lane reuses them.
 */
function laneExit(shapes) {
  const n = shapes.length;
  const k = laneDone;
  const at = laneAt;
  const rank = laneRank;
  const out = new Array(n);
  const q = laneShapes(out, k);
  if (at < 0 && !Array.isArray(shapes[k])) {
    out[k] = copyShape(shapes[k], 'broadcastShapes', shapeSuffix(k)); // not read yet
  } else {
    if (!(rank <= MAX_RANK)) throw rankTooLarge(rank);
    // Its length, its first `at` dims and the one that stopped the lane are read: the rest is not.
    const cur = new Array(rank);
    for (let i = 0; i < at; i++) cur[i] = lane[q + 1 + i];
    cur[at] = laneDim;
    const s = shapes[k];
    for (let i = at + 1; i < rank; i++) cur[i] = s[i];
    out[k] = cur;
  }
  for (let j = k + 1; j < n; j++) out[j] = copyShape(shapes[j], 'broadcastShapes', shapeSuffix(j));
  return out;
}

/**
 * §1 NumPy / ONNX multidirectional broadcasting of any number of shapes.
 * broadcastShapes([2,1,6], [3,1]) -> [2,3,6]
 */
export function broadcastShapes(...shapes) {
  mod();
  const n = shapes.length;
  if (n <= LANE && !laneBusy) {
    laneBusy = true;
    let q;
    try {
      q = laneRead(shapes, n);
    } finally {
      laneBusy = false;
    }
    if (q >= 0) {
      let p = begin(q);
      const h = requestBuffer();
      header(h, C.A.shape, C.numpy, -1, n);
      for (let i = 0; i < q; i++) h[p++] = lane[i];
      const res = call(p);
      if (res.status === 0) return res.shape();
      const err = res.error();
      const s = new Array(n);
      laneShapes(s, n);
      throw makeError(numpyCtx(s), err);
    }
    return numpyShape(laneExit(shapes));
  }
  return broadcastList(shapes);
}

/** broadcastShapes of an array of shapes, as many as the engine takes (no spread: broadcastArrays' operands). */
export function broadcastList(shapes) {
  checkCount(shapes.length);
  return numpyShape(copyAll(shapes, 'broadcastShapes'));
}

/** The engine broadcasts at most maxOperands shapes in one call (broadcastShapes and explain's numpy rule). */
export function checkCount(n) {
  if (n > C.limits.maxOperands) {
    throw new BroadcastError(`cannot broadcast ${n} shapes in one call: at most ${C.limits.maxOperands}`,
      { code: 'TOO_LARGE' });
  }
}

function numpyShape(s) {
  for (let k = 0; k < s.length; k++) checkShape(s[k], false, s);
  const res = shapeCall(C.A.shape, C.numpy, -1, s, null);
  if (res.status !== 0) throw makeError(numpyCtx(s), res.error());
  return res.shape();
}

/**
 * Element-wise auto-broadcast of two shapes (OpenVINO AutoBroadcastSpec):
 * type 'numpy' (default, §1), 'none' (§2) or 'pdpd' with `axis` (§3).
 */
export function autoBroadcastShape(a, b, options) {
  mod();
  const o = readOptions(options, 'autoBroadcastShape', ['type', 'axis']);
  const s = [copyShape(a, 'autoBroadcastShape: shape A'), copyShape(b, 'autoBroadcastShape: shape B')];
  const { rule, ctx, axis } = readType(o.type, o.axis, s, 'autoBroadcastShape');
  checkShape(s[0], false, s);
  checkShape(s[1], false, s);
  return result(shapeCall(C.A.shape, rule, axis, s, null), ctx);
}

/**
 * The Broadcast operation (§4): `input` to `target`. mode 'numpy' (default;
 * -1 in the target keeps the input's dim, §5), 'explicit' with `axesMapping`,
 * 'bidirectional' (ONNX Expand), 'pdpd' with `axis`.
 */
export function broadcastToShape(input, target, options) {
  mod();
  const o = readOptions(options, 'broadcastToShape', TO_KEYS);
  const i = copyShape(input, 'broadcastToShape: input shape');
  const t = copyShape(target, 'broadcastToShape: target shape');
  const to = snapTo(o, [i, t], 'broadcastToShape');
  const { rule, ctx, axis, mapping } = readTo(i, t, to, 'broadcastToShape');
  return result(shapeCall(C.A.shape, rule, axis, [i, t], mapping), ctx);
}

/**
 * §6 named-dimension broadcasting (tensorics "broadcast missing dimensions only").
 * namedBroadcastShape({dims:['x'], shape:[2]}, {dims:['y'], shape:[2]}) -> {dims:['x','y'], shape:[2,2]}
 */
export function namedBroadcastShape(a, b, options) {
  mod();
  const o = readOptions(options, 'namedBroadcastShape', ['shaping']);
  const shaping = choose(o.shaping, C.shapings, 'intersection', 'namedBroadcastShape', 'shaping');
  const na = readNamed(a, 'left');
  const nb = readNamed(b, 'right');
  const { res, nameList, labelList, rawName } = namedCall(C.A.shape, na, nb, shaping);
  if (res.status !== 0) throw makeError(namedContext(na, nb), res.error());
  res.shape();
  return namedResult(nameList, res.namedAxes(labelList, rawName).axes);
}

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

export { UNKNOWN_RANK };

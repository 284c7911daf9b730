// The shape API: every rule of the spec, computed by the engine in wasm.
// This layer checks argument types, encodes, calls, and turns a status into a
// BroadcastError with a message that names the axis and both dims.
import {
  mod, requestBase, responseBase, growResponse, checkShape, writeShape, shapeCost, beginRequest, endRequest,
  readShape, readDim, setCursor, cursor, dimFrom, UNKNOWN_RANK,
} from './core.js';
import { BroadcastError, STATUS_CODES, formatShape } from './errors.js';

const RULE_NONE = 0;
const RULE_PDPD = 1;
const TO_NUMPY = 2;
const TO_EXPLICIT = 3;
const TO_BIDIRECTIONAL = 4;
const TO_PDPD = 5;

const MODES = { numpy: TO_NUMPY, explicit: TO_EXPLICIT, bidirectional: TO_BIDIRECTIONAL, pdpd: TO_PDPD };
const TYPES = { numpy: -1, none: RULE_NONE, pdpd: RULE_PDPD };
const VERDICTS = ['equal', 'stretched', 'new', 'clash'];
const INNER = ['contiguous', 'second-scalar', 'first-scalar', 'both-scalar', 'strided'];
const OPERAND_NAMES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function operandName(i) {
  return i < OPERAND_NAMES.length ? OPERAND_NAMES[i] : `#${i}`;
}

function checkOptions(options, fn) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${fn}: options must be an object`);
  return options;
}

function checkAxis(axis, ctx) {
  if (axis === undefined) return -1;
  if (typeof axis !== 'number') throw new TypeError(`axis must be an integer, got ${typeof axis}`);
  if (!Number.isInteger(axis)) {
    throw new BroadcastError(`axis must be an integer, got ${axis}`,
      { code: 'INVALID_AXIS', shapes: ctx.shapes, axis: null, dims: null });
  }
  return axis;
}

// ---- errors ----------------------------------------------------------------

function head(ctx) {
  if (ctx.kind === 'to') {
    return `cannot broadcast shape ${formatShape(ctx.shapes[0])} to ${formatShape(ctx.shapes[1])} (mode ${ctx.mode}${ctx.mode === 'pdpd' && ctx.axis !== undefined ? `, axis ${ctx.axis}` : ''})`;
  }
  if (ctx.kind === 'named') {
    return `cannot broadcast named dims ${ctx.describe[0]} with ${ctx.describe[1]}`;
  }
  const tail = ctx.rule === 'pdpd' ? ` (pdpd, axis ${ctx.axis === undefined ? -1 : ctx.axis})` : ctx.rule === 'none' ? ' (broadcast none: shapes must be identical)' : '';
  return `operands could not be broadcast together with shapes ${ctx.shapes.map(formatShape).join(' ')}${tail}`;
}

function makeError(ctx, st, h, p) {
  const code = STATUS_CODES[st] ?? 'INVALID_SHAPE';
  const axis = h[p + 1];
  const opA = h[p + 2];
  const opB = h[p + 3];
  const a = dimFrom(h[p + 4], h[p + 5]);
  const b = dimFrom(h[p + 6], h[p + 7]);
  const detail = h[p + 8];
  const H = head(ctx);
  let msg;
  let outAxis = axis >= 0 ? axis : null;
  let dims = null;
  const name = (k) => (ctx.kind === 'to' ? (k === 0 ? 'input' : 'target') : operandName(k));
  switch (code) {
    case 'INCOMPATIBLE_DIMS':
    case 'SHAPE_MISMATCH':
      if (axis < 0) { // §2 rank difference
        msg = `${H}: rank ${a} vs ${b}`;
        dims = [a, b];
        break;
      }
      dims = [a, b];
      if (ctx.kind === 'named') {
        msg = `${H}: dim "${ctx.names[axis]}" (axis ${axis}) has ${a} vs ${b}${detail === 1 ? ' with different coordinates (shaping exact)' : ''}; a shared named dim is never stretched`;
      } else {
        msg = `${H}: axis ${axis} has ${a} vs ${b}`;
        if (ctx.kind !== 'to' && ctx.shapes.length > 2 && opA >= 0) msg += ` (${name(opA)} vs ${name(opB)})`;
      }
      break;
    case 'RANK_MISMATCH':
      dims = [a, b];
      if (ctx.kind === 'to') {
        if (ctx.mode === 'pdpd') msg = `${H}: the input (rank ${a}) does not fit into the target (rank ${b}) at axis ${detail < 0 ? ctx.axis ?? -1 : detail}`;
        else msg = `${H}: the target has rank ${b}, lower than the input's rank ${a}`;
      } else if (detail < 0) {
        msg = `${H}: B has rank ${b}, higher than A's rank ${a}, so the default axis -1 (rank(A) - rank(B)) is negative`;
      } else {
        msg = `${H}: B (rank ${b} after dropping trailing 1s) does not fit into A (rank ${a}) at axis ${detail}`;
      }
      break;
    case 'INVALID_AXIS': {
      const given = ctx.axis;
      msg = `${H}: axis ${given} is out of range: use -1 or an axis from 0 to ${ctx.kind === 'to' ? b : a}`;
      outAxis = null;
      break;
    }
    case 'INVALID_AXES_MAPPING': {
      const m = ctx.axesMapping;
      if (detail < 0) {
        msg = `${H}: axesMapping [${m ?? ''}] has ${a} entries; it needs one per input axis (${b})`;
      } else {
        const v = m[detail];
        const rank = Array.isArray(ctx.shapes[1]) ? ctx.shapes[1].length : '?';
        if (!(Number.isInteger(v) && v >= 0 && v < rank)) msg = `${H}: axesMapping[${detail}] = ${v} is not an output axis (0 to ${rank - 1})`;
        else msg = `${H}: axesMapping must be strictly increasing, but axesMapping[${detail}] = ${v} follows ${m[detail - 1]}`;
      }
      outAxis = null;
      break;
    }
    case 'MINUS_ONE_IN_NEW_AXIS':
      msg = `${H}: -1 at axis ${axis} is on a new leading axis, where the input has no dim to keep`;
      dims = [-1];
      break;
    case 'INVALID_SHAPE':
      msg = `${H}: invalid shape${opA >= 0 ? ` (${name(opA)})` : ''}${detail >= 0 ? `, dim ${detail}` : ''}`;
      outAxis = null;
      break;
    default:
      msg = `${H}: ${code}`;
  }
  return new BroadcastError(msg, {
    code, shapes: ctx.shapes, axis: outAxis, dims,
    operands: opA >= 0 || opB >= 0 ? [opA, opB] : null,
  });
}

// ---- calls -------------------------------------------------------------------

// Each operand costs the engine a plan entry (~2 KB, more in an explain
// response); millions of them would exhaust the wasm heap, which an instance
// cannot survive. No real broadcast comes near this bound.
const MAX_OPERANDS = 65536;

function callNumpy(shapes, detail) {
  const M = mod();
  const n = shapes.length;
  if (n > MAX_OPERANDS) {
    throw new BroadcastError(`cannot broadcast ${n} shapes in one call: at most ${MAX_OPERANDS}`,
      { code: 'TOO_LARGE', shapes, axis: null, dims: null });
  }
  let need = 0;
  for (let k = 0; k < n; k++) need += shapeCost(shapes[k]);
  beginRequest();
  try {
    for (;;) {
      const base = requestBase(need);
      const h = M.HEAPF64;
      let p = base;
      for (let k = 0; k < n; k++) p = writeShape(h, p, shapes[k], base + need);
      const st = M._tc_numpy(n, p - base, detail);
      if (st !== -1) return st;
      growResponse(); // the detailed plan did not fit: grow and ask again
    }
  } finally {
    endRequest();
  }
}

function callBinary(rule, a, b, axis, mapping, detail) {
  const M = mod();
  const write = () => {
    const need = shapeCost(a) + shapeCost(b) + 2 + (mapping ? mapping.length : 0);
    const base = requestBase(need);
    const h = M.HEAPF64;
    const end = base + need - (rule === TO_EXPLICIT ? 1 + mapping.length : 0);
    let p = writeShape(h, base, a, end);
    p = writeShape(h, p, b, end);
    if (rule === TO_EXPLICIT) {
      h[p++] = mapping.length;
      for (let i = 0; i < mapping.length; i++) h[p++] = mapping[i];
    }
    return p - base;
  };
  beginRequest();
  try {
    let st = M._tc_binary(rule, axis, write(), detail);
    while (st === -1) { growResponse(); st = M._tc_binary(rule, axis, write(), detail); }
    return st;
  } finally {
    endRequest();
  }
}

function outShape() {
  const h = mod().HEAPF64;
  setCursor(responseBase() + 1);
  return readShape(h);
}

function throwIfFailed(st, ctx) {
  if (st !== 0) throw makeError(ctx, st, mod().HEAPF64, responseBase());
}

// ---- public: element-wise rules ---------------------------------------------

/**
 * §1 NumPy / ONNX multidirectional broadcasting of any number of shapes.
 * broadcastShapes([2,1,6], [3,1]) -> [2,3,6]
 */
export function broadcastShapes(...shapes) {
  for (let k = 0; k < shapes.length; k++) checkShape(shapes[k], `broadcastShapes: shape ${operandName(k)}`, false, shapes);
  const st = callNumpy(shapes, 0);
  throwIfFailed(st, { kind: 'elementwise', rule: 'numpy', shapes });
  return outShape();
}

function resolveType(options, fn) {
  const type = options.type ?? 'numpy';
  if (typeof type !== 'string' || !(type in TYPES)) {
    throw new TypeError(`${fn}: type must be 'numpy', 'none' or 'pdpd', got ${JSON.stringify(type)}`);
  }
  return type;
}

/**
 * Element-wise auto-broadcast of two shapes (OpenVINO AutoBroadcastSpec):
 * type 'numpy' (default, §1), 'none' (§2) or 'pdpd' with `axis` (§3).
 */
export function autoBroadcastShape(a, b, options) {
  const o = checkOptions(options, 'autoBroadcastShape');
  const type = resolveType(o, 'autoBroadcastShape');
  const shapes = [a, b];
  checkShape(a, 'autoBroadcastShape: shape A', false, shapes);
  checkShape(b, 'autoBroadcastShape: shape B', false, shapes);
  const ctx = { kind: 'elementwise', rule: type, shapes, axis: o.axis };
  if (type === 'numpy') {
    throwIfFailed(callNumpy(shapes, 0), ctx);
    return outShape();
  }
  const axis = type === 'pdpd' ? checkAxis(o.axis, ctx) : -1;
  throwIfFailed(callBinary(TYPES[type], a, b, axis, null, 0), ctx);
  return outShape();
}

function checkMapping(m, ctx) {
  if (m === undefined) throw new TypeError("broadcastToShape: mode 'explicit' needs options.axesMapping (an array of output axes)");
  if (!Array.isArray(m) && !(ArrayBuffer.isView(m) && !(m instanceof DataView))) {
    throw new TypeError(`broadcastToShape: axesMapping must be an array of integers, got ${m === null ? 'null' : typeof m}`);
  }
  if (m.length > 33) {
    throw new BroadcastError(`axesMapping has ${m.length} entries; an input has at most 32 axes`,
      { code: 'INVALID_AXES_MAPPING', shapes: ctx.shapes, axis: null, dims: null });
  }
  const out = new Array(m.length);
  for (let i = 0; i < m.length; i++) {
    const v = m[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new BroadcastError(`${head(ctx)}: axesMapping[${i}] = ${typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : String(v)} is not an integer axis`,
        { code: 'INVALID_AXES_MAPPING', shapes: ctx.shapes, axis: null, dims: null });
    }
    out[i] = v;
  }
  return out;
}

function prepareTo(input, target, o, fn) {
  const mode = o.mode ?? 'numpy';
  if (typeof mode !== 'string' || !(mode in MODES)) {
    throw new TypeError(`${fn}: mode must be 'numpy', 'explicit', 'bidirectional' or 'pdpd', got ${JSON.stringify(mode)}`);
  }
  const shapes = [input, target];
  checkShape(input, `${fn}: input shape`, false, shapes);
  checkShape(target, `${fn}: target shape`, mode === 'numpy', shapes);
  const ctx = { kind: 'to', mode, shapes, axis: o.axis, axesMapping: o.axesMapping };
  const axis = mode === 'pdpd' ? checkAxis(o.axis, ctx) : -1;
  const mapping = mode === 'explicit' ? checkMapping(o.axesMapping, ctx) : null;
  ctx.axesMapping = mapping;
  return { rule: MODES[mode], ctx, axis, mapping };
}

/**
 * The Broadcast operation (§4): `input` to `target`. mode 'numpy' (default;
 * -1 in the target keeps the input's dim, §5), 'explicit' with `axesMapping`,
 * 'bidirectional' (ONNX Expand), 'pdpd' with `axis`.
 */
export function broadcastToShape(input, target, options) {
  const o = checkOptions(options, 'broadcastToShape');
  const { rule, ctx, axis, mapping } = prepareTo(input, target, o, 'broadcastToShape');
  throwIfFailed(callBinary(rule, input, target, axis, mapping, 0), ctx);
  return outShape();
}

// ---- named dimensions (§6) ---------------------------------------------------

const SHAPING = { exact: 0, intersection: 1, union: 2 };

function checkNamed(t, which) {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) {
    throw new TypeError(`namedBroadcastShape: ${which} must be { dims, shape } or { dims, coords }`);
  }
  // The caller's arrays are read once, here: what is checked is what is sent.
  const dimsIn = t.dims ?? [];
  if (!Array.isArray(dimsIn)) throw new TypeError(`namedBroadcastShape: ${which}.dims must be an array of dim names`);
  const dims = Array.from(dimsIn);
  for (const d of dims) {
    if (typeof d !== 'string' && typeof d !== 'number') throw new TypeError(`namedBroadcastShape: ${which}.dims entries must be strings, got ${typeof d}`);
  }
  const coords = t.coords ?? null;
  if (coords !== null && (typeof coords !== 'object' || Array.isArray(coords))) {
    throw new TypeError(`namedBroadcastShape: ${which}.coords must be an object of { dimName: labels[] }`);
  }
  let shape = t.shape;
  if (shape !== undefined) {
    checkShape(shape, `namedBroadcastShape: ${which}.shape`, false, [shape]);
    if (shape !== UNKNOWN_RANK) checkShape(shape = Array.from(shape), `namedBroadcastShape: ${which}.shape`, false, [shape]);
    if (shape === UNKNOWN_RANK || shape.some((d) => typeof d !== 'number')) {
      throw new BroadcastError(`namedBroadcastShape: ${which}.shape must be static`, { code: 'INVALID_SHAPE', shapes: [shape] });
    }
    if (shape.length !== dims.length) {
      throw new BroadcastError(`namedBroadcastShape: ${which} has ${dims.length} dim names but shape ${formatShape(shape)}`,
        { code: 'INVALID_SHAPE', shapes: [shape], axis: null, dims: null });
    }
  }
  const sizes = new Array(dims.length);
  const labels = new Array(dims.length);
  for (let i = 0; i < dims.length; i++) {
    let c = coords && Object.prototype.hasOwnProperty.call(coords, dims[i]) ? coords[dims[i]] : undefined;
    if (c !== undefined) {
      if (!Array.isArray(c)) throw new TypeError(`namedBroadcastShape: ${which}.coords.${dims[i]} must be an array of labels`);
      c = Array.from(c);
      for (const l of c) {
        if (typeof l !== 'string' && typeof l !== 'number' && typeof l !== 'boolean') throw new TypeError(`namedBroadcastShape: coordinate labels must be strings or numbers`);
      }
      if (shape !== undefined && shape[i] !== c.length) {
        throw new BroadcastError(`namedBroadcastShape: ${which} dim "${dims[i]}" has size ${shape[i]} but ${c.length} coordinates`,
          { code: 'INVALID_SHAPE', shapes: [shape], axis: i, dims: [shape[i], c.length] });
      }
      labels[i] = c;
      sizes[i] = c.length;
    } else {
      if (shape === undefined) throw new BroadcastError(`namedBroadcastShape: ${which} dim "${dims[i]}" has neither a size (shape) nor coordinates`, { code: 'INVALID_SHAPE', shapes: [], axis: i, dims: null });
      labels[i] = null;
      sizes[i] = shape[i];
    }
  }
  if (coords) {
    for (const k of Object.keys(coords)) {
      if (!dims.some((d) => String(d) === k)) throw new BroadcastError(`namedBroadcastShape: ${which}.coords names "${k}", which is not one of its dims`, { code: 'INVALID_SHAPE', shapes: [], axis: null, dims: null });
    }
  }
  return { dims, sizes, labels };
}

function labelKey(l) {
  return `${typeof l}:${String(l)}`;
}

function describeNamed(n) {
  return `(${n.dims.map((d, i) => `${d}: ${n.sizes[i]}`).join(', ')})`;
}

function callNamed(a, b, shaping, detail) {
  const M = mod();
  const names = new Map();
  const nameList = [];
  const labelIds = new Map();
  const labelList = [];
  const nameId = (d) => {
    let id = names.get(d);
    if (id === undefined) { id = nameList.length; names.set(d, id); nameList.push(d); }
    return id;
  };
  const labelId = (l) => {
    const k = labelKey(l);
    let id = labelIds.get(k);
    if (id === undefined) { id = labelList.length; labelIds.set(k, id); labelList.push(l); }
    return id;
  };
  let need = 2;
  for (const t of [a, b]) for (let i = 0; i < t.dims.length; i++) need += 3 + (t.labels[i] ? t.labels[i].length : 0);
  const write = () => {
    const base = requestBase(need);
    const h = M.HEAPF64;
    let p = base;
    for (const t of [a, b]) {
      h[p++] = t.dims.length;
      for (let i = 0; i < t.dims.length; i++) {
        h[p++] = nameId(t.dims[i]);
        h[p++] = t.sizes[i];
        const ls = t.labels[i];
        h[p++] = ls ? ls.length : -1;
        if (ls) for (const l of ls) h[p++] = labelId(l);
      }
    }
    return p - base;
  };
  beginRequest();
  try {
    let st = M._tc_named(shaping, write(), detail);
    while (st === -1) { growResponse(); st = M._tc_named(shaping, write(), detail); }
    return { st, nameList, labelList };
  } finally {
    endRequest();
  }
}

function readNamedAxes(h, labelList) {
  const n = h[cursor];
  setCursor(cursor + 1);
  const axes = [];
  let p = cursor;
  for (let i = 0; i < n; i++) {
    const ax = { name: h[p], size: h[p + 1], left: h[p + 2], right: h[p + 3], labeled: h[p + 4] === 1 };
    const k = h[p + 5];
    p += 6;
    if (ax.labeled) {
      ax.labels = Array.from(h.subarray(p, p + k), (id) => labelList[id]);
      ax.leftIndex = Array.from(h.subarray(p + k, p + 2 * k));
      ax.rightIndex = Array.from(h.subarray(p + 2 * k, p + 3 * k));
    }
    p += 3 * k;
    axes.push(ax);
  }
  const needsGather = h[p] === 1;
  setCursor(p + 1);
  return { axes, needsGather };
}

function resolveShaping(o) {
  const s = o.shaping ?? 'intersection';
  if (typeof s !== 'string' || !(s in SHAPING)) throw new TypeError(`namedBroadcastShape: shaping must be 'exact', 'intersection' or 'union', got ${JSON.stringify(s)}`);
  return s;
}

function namedResult(nameList, axes) {
  const out = { dims: axes.map((ax) => nameList[ax.name]), shape: axes.map((ax) => ax.size) };
  const coords = {};
  let any = false;
  for (const ax of axes) {
    if (ax.labeled) { coords[nameList[ax.name]] = ax.labels; any = true; }
  }
  if (any) out.coords = coords;
  return out;
}

/**
 * §6 named-dimension broadcasting (tensorics "broadcast missing dimensions only").
 * namedBroadcastShape({dims:['x'], shape:[2]}, {dims:['y'], shape:[2]}) -> {dims:['x','y'], shape:[2,2]}
 */
export function namedBroadcastShape(a, b, options) {
  const o = checkOptions(options, 'namedBroadcastShape');
  const shaping = resolveShaping(o);
  const na = checkNamed(a, 'left');
  const nb = checkNamed(b, 'right');
  const { st, nameList, labelList } = callNamed(na, nb, SHAPING[shaping], 0);
  const M = mod();
  if (st !== 0) {
    throw makeError({ kind: 'named', shapes: [na.sizes, nb.sizes], describe: [describeNamed(na), describeNamed(nb)], names: namedOutNames(na, nb) }, st, M.HEAPF64, responseBase());
  }
  const h = M.HEAPF64;
  setCursor(responseBase() + 1);
  readShape(h);
  const { axes } = readNamedAxes(h, labelList);
  return namedResult(nameList, axes);
}

function namedOutNames(na, nb) {
  const out = [...na.dims];
  for (const d of nb.dims) if (!na.dims.includes(d)) out.push(d);
  return out;
}

// ---- explain -----------------------------------------------------------------

function readPlan(h, nOperandNames) {
  const isStatic = h[cursor] === 1;
  const size = h[cursor + 1];
  setCursor(cursor + 2);
  const shape = readShape(h);
  const nOps = h[cursor];
  setCursor(cursor + 1);
  const rank = shape === UNKNOWN_RANK ? 0 : shape.length;
  const operands = [];
  for (let k = 0; k < nOps; k++) {
    const opShape = readShape(h);
    const srcAxis = new Array(rank);
    const aligned = new Array(rank);
    const strides = new Array(rank);
    const verdicts = new Array(rank);
    for (let a = 0; a < rank; a++) {
      srcAxis[a] = h[cursor];
      setCursor(cursor + 1);
      aligned[a] = readDim(h);
      strides[a] = h[cursor];
      verdicts[a] = VERDICTS[h[cursor + 1]];
      setCursor(cursor + 2);
    }
    operands.push({
      name: nOperandNames ? nOperandNames[k] : operandName(k),
      shape: opShape,
      srcAxis: srcAxis.map((s) => (s < 0 ? null : s)),
      aligned,
      strides: isStatic ? strides : null,
      verdicts,
    });
  }
  const lr = h[cursor];
  setCursor(cursor + 1);
  let loop = null;
  if (lr > 0) {
    const lshape = Array.from(h.subarray(cursor, cursor + lr));
    setCursor(cursor + lr);
    const lstrides = [];
    for (let k = 0; k < nOps; k++) {
      lstrides.push(Array.from(h.subarray(cursor, cursor + lr)));
      setCursor(cursor + lr);
    }
    loop = { shape: lshape, strides: lstrides, inner: INNER[h[cursor]] };
  }
  setCursor(cursor + 1);
  const axes = [];
  for (let a = 0; a < rank; a++) {
    axes.push({ index: a, negative: a - rank, dim: shape[a], verdicts: operands.map((o) => o.verdicts[a]) });
  }
  return { shape, rank: shape === UNKNOWN_RANK ? null : rank, static: isStatic, size: isStatic ? size : null, operands, axes, loop };
}

function explainInner(req) {
  if (req === null || typeof req !== 'object') throw new TypeError('explain: the request must be an object like { rule, shapes }');
  const rule = req.rule ?? 'numpy';
  const M = () => mod();
  if (rule === 'numpy' || rule === 'none' || rule === 'pdpd') {
    const shapes = req.shapes;
    if (!Array.isArray(shapes)) throw new TypeError('explain: shapes must be an array of shapes');
    if (rule !== 'numpy' && shapes.length !== 2) throw new TypeError(`explain: rule '${rule}' takes exactly two shapes`);
    shapes.forEach((s, k) => checkShape(s, `explain: shape ${operandName(k)}`, false, shapes));
    const ctx = { kind: 'elementwise', rule, shapes, axis: req.axis };
    const axis = rule === 'pdpd' ? checkAxis(req.axis, ctx) : -1;
    const st = rule === 'numpy' ? callNumpy(shapes, 1) : callBinary(TYPES[rule], shapes[0], shapes[1], axis, null, 1);
    return finishExplain(ctx, st, M(), null);
  }
  if (rule === 'broadcastTo') {
    const shapes = req.shapes;
    if (!Array.isArray(shapes) || shapes.length !== 2) throw new TypeError("explain: rule 'broadcastTo' takes shapes [input, target]");
    const { rule: r, ctx, axis, mapping } = prepareTo(shapes[0], shapes[1], { mode: req.mode, axis: req.axis, axesMapping: req.axesMapping }, 'explain');
    const st = callBinary(r, shapes[0], shapes[1], axis, mapping, 1);
    return finishExplain(ctx, st, M(), ['input']);
  }
  if (rule === 'named') {
    const ops = req.operands;
    if (!Array.isArray(ops) || ops.length !== 2) throw new TypeError("explain: rule 'named' takes operands [left, right]");
    const shaping = resolveShaping(req);
    const na = checkNamed(ops[0], 'left');
    const nb = checkNamed(ops[1], 'right');
    const { st, nameList, labelList } = callNamed(na, nb, SHAPING[shaping], 1);
    const ctx = { kind: 'named', shapes: [na.sizes, nb.sizes], describe: [describeNamed(na), describeNamed(nb)], names: namedOutNames(na, nb) };
    const res = finishExplain(ctx, st, M(), null);
    res.rule = 'named';
    res.shaping = shaping;
    res.dimNames = st === 0 ? null : ctx.names;
    if (st === 0) {
      const { axes, needsGather } = readNamedAxes(M().HEAPF64, labelList);
      res.named = namedResult(nameList, axes);
      res.dimNames = res.named.dims;
      res.needsGather = needsGather;
      res.namedAxes = axes.map((ax) => ({ ...ax, name: nameList[ax.name] }));
    }
    res.operands.forEach((o, k) => { o.dims = k === 0 ? na.dims : nb.dims; });
    return res;
  }
  throw new TypeError(`explain: unknown rule ${JSON.stringify(rule)}; use 'numpy', 'none', 'pdpd', 'broadcastTo' or 'named'`);
}

function finishExplain(ctx, st, M, names) {
  const h = M.HEAPF64;
  const base = responseBase();
  setCursor(base + (st === 0 ? 1 : 9));
  if (st === 0) readShape(h);
  const plan = readPlan(h, names);
  // After the plan: formatting the message runs the caller's toString()s.
  const error = st === 0 ? null : makeError(ctx, st, h, base);
  return {
    ok: st === 0,
    rule: ctx.kind === 'to' ? 'broadcastTo' : ctx.rule,
    ...(ctx.kind === 'to' ? { mode: ctx.mode } : {}),
    ...plan,
    error: error ? error.toJSON() : null,
  };
}

/**
 * The plan of a rule as plain JSON: output shape, each operand aligned with
 * its strides (0 where stretched) and per-axis verdicts, the merged loop.
 * Never throws: failures come back as { ok: false, error }.
 */
export function explain(request) {
  try {
    return explainInner(request);
  } catch (e) {
    const error = e instanceof BroadcastError ? e.toJSON() : { name: e?.name ?? 'Error', code: null, message: String(e?.message ?? e), shapes: [], axis: null, dims: null };
    let rule = null;
    try { rule = request && typeof request === 'object' ? request.rule ?? 'numpy' : null; } catch { /* a throwing getter: no rule to report */ }
    return { ok: false, rule, shape: null, rank: null, static: false, size: null, operands: [], axes: [], loop: null, error };
  }
}

/** Internal: the data API (data.js) plans through these; not re-exported by the package. */
export const internal = {
  TYPES, MODES, SHAPING, callNumpy, callBinary, callNamed, throwIfFailed, outShape, prepareTo,
  checkOptions, checkAxis, resolveType, checkNamed, resolveShaping, readNamedAxes, namedResult,
  describeNamed, namedOutNames, operandName,
};

// A deliberately naive model of the broadcasting contract (spec §1–§6, static
// shapes only), written from the spec's text and nothing else: no plans, no
// intervals, no sharing with the engine. The property tests run random shapes
// through both and require the same answer.
//
// Every function mirrors the public API's signature and returns
//   { ok: true, value }                       the result
//   { ok: false, failures: [{ code, axis }] } every failure the spec allows here
// Where the spec fixes an order of checks (argument types, then notation, then
// ranks/axes, then dims) only the first stage that fails is listed. Within the
// per-axis dim checks the spec does not say which clash is reported, so every
// clashing axis is an acceptable answer. `axis` is the output axis, or null
// when the failure has none (rank, axis argument, mapping, notation).

const MAX_RANK = 32;

const okv = (value) => ({ ok: true, value });
const fail = (...failures) => ({ ok: false, failures });
const f = (code, axis = null) => ({ code, axis });

// Spec notation: dims are safe integers 0 ≤ d ≤ 2^53−1; a −1 only in a §5 target.
function checkShape(s, allowMinusOne) {
  if (!Array.isArray(s)) return 'type';
  if (s.length > MAX_RANK) return f('INVALID_SHAPE');
  for (let i = 0; i < s.length; i++) {
    const d = s[i];
    const good = Number.isSafeInteger(d) && (d >= 0 || (allowMinusOne && d === -1));
    if (!good) return f('INVALID_SHAPE', i);
  }
  return null;
}

function firstBadShape(shapes, allowMinusOne = []) {
  for (let k = 0; k < shapes.length; k++) {
    const bad = checkShape(shapes[k], allowMinusOne[k] === true);
    if (bad === 'type') throw new TypeError('not a shape');
    if (bad) return bad;
  }
  return null;
}

// §1: right-align, ignore 1s, the rest must agree.
function numpyOf(shapes) {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = [];
  const clashes = [];
  for (let axis = 0; axis < rank; axis++) {
    const dims = [];
    for (const s of shapes) {
      const i = axis - (rank - s.length);
      if (i >= 0) dims.push(s[i]);
    }
    const notOne = [...new Set(dims.filter((d) => d !== 1))];
    if (notOne.length > 1) clashes.push(f('INCOMPATIBLE_DIMS', axis));
    out.push(notOne.length === 0 ? 1 : notOne[0]);
  }
  return clashes.length ? fail(...clashes) : okv(out);
}

export function broadcastShapes(...shapes) {
  const bad = firstBadShape(shapes);
  if (bad) return fail(bad);
  return numpyOf(shapes);
}

// §2: identical or nothing.
function none(a, b) {
  if (a.length !== b.length) return fail(f('SHAPE_MISMATCH'));
  const diffs = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diffs.push(f('SHAPE_MISMATCH', i));
  return diffs.length ? fail(...diffs) : okv(a.slice());
}

// §3, steps as the spec numbers them.
function pdpd(A, B, axis) {
  if (axis === -1) {
    axis = A.length - B.length; // 1. from B's rank before trimming
    if (axis < 0) return fail(f('RANK_MISMATCH'));
  } else if (axis < 0 || axis > A.length) {
    return fail(f('INVALID_AXIS')); // 2.
  }
  const b = B.slice();
  while (b.length > 0 && b[b.length - 1] === 1) b.pop(); // 3.
  if (axis + b.length > A.length) return fail(f('RANK_MISMATCH')); // 4.
  const clashes = [];
  for (let i = 0; i < b.length; i++) {
    if (!(b[i] === A[axis + i] || b[i] === 1)) clashes.push(f('INCOMPATIBLE_DIMS', axis + i));
  }
  return clashes.length ? fail(...clashes) : okv(A.slice());
}

function axisOption(axis) {
  if (axis === undefined) return -1;
  if (typeof axis !== 'number') throw new TypeError('axis');
  return axis;
}

export function autoBroadcastShape(a, b, options = {}) {
  const type = options.type ?? 'numpy';
  if (!['numpy', 'none', 'pdpd'].includes(type)) throw new TypeError('type');
  const bad = firstBadShape([a, b]);
  if (bad) return fail(bad);
  if (type === 'numpy') return numpyOf([a, b]);
  if (type === 'none') return none(a, b);
  const axis = axisOption(options.axis);
  if (!Number.isInteger(axis)) return fail(f('INVALID_AXIS'));
  return pdpd(a, b, axis);
}

// §4.1 with §5's −1: compare right-aligned from the last dim.
function toNumpy(input, target) {
  if (target.length < input.length) return fail(f('RANK_MISMATCH'));
  const out = [];
  const failures = [];
  const lead = target.length - input.length;
  for (let axis = 0; axis < target.length; axis++) {
    const t = target[axis];
    const has = axis >= lead;
    const d = has ? input[axis - lead] : undefined;
    if (t === -1) {
      if (!has) failures.push(f('MINUS_ONE_IN_NEW_AXIS', axis));
      out.push(d);
    } else {
      if (has && !(d === t || d === 1)) failures.push(f('INCOMPATIBLE_DIMS', axis));
      out.push(t);
    }
  }
  return failures.length ? fail(...failures) : okv(out);
}

// §4.2
function toExplicit(input, target, mapping) {
  let inp = input;
  if (input.length === 0 && mapping.length === 1) inp = [1]; // the OpenVINO one-entry form
  if (mapping.length !== inp.length) return fail(f('INVALID_AXES_MAPPING'));
  for (let i = 0; i < mapping.length; i++) {
    const m = mapping[i];
    if (!Number.isInteger(m) || m < 0 || m >= target.length) return fail(f('INVALID_AXES_MAPPING'));
    if (i > 0 && !(m > mapping[i - 1])) return fail(f('INVALID_AXES_MAPPING'));
  }
  const clashes = [];
  for (let i = 0; i < inp.length; i++) {
    const t = target[mapping[i]];
    if (!(inp[i] === t || inp[i] === 1)) clashes.push(f('INCOMPATIBLE_DIMS', mapping[i]));
  }
  return clashes.length ? fail(...clashes) : okv(target.slice());
}

// §4.4
function toPdpd(input, target, axis) {
  let start;
  if (axis === -1) {
    start = target.length - input.length;
    if (start < 0) return fail(f('RANK_MISMATCH'));
  } else if (axis < 0 || axis > target.length) {
    return fail(f('INVALID_AXIS'));
  } else {
    start = axis;
  }
  if (start + input.length > target.length) return fail(f('RANK_MISMATCH'));
  const out = target.slice();
  const clashes = [];
  for (let i = 0; i < input.length; i++) {
    const d = input[i];
    const t = target[start + i];
    if (d === 1) out[start + i] = t;
    else if (t === 1) out[start + i] = d;
    else if (d === t) out[start + i] = d;
    else clashes.push(f('INCOMPATIBLE_DIMS', start + i));
  }
  return clashes.length ? fail(...clashes) : okv(out);
}

export function broadcastToShape(input, target, options = {}) {
  const mode = options.mode ?? 'numpy';
  if (!['numpy', 'explicit', 'bidirectional', 'pdpd'].includes(mode)) throw new TypeError('mode');
  const bad = firstBadShape([input, target], [false, mode === 'numpy']);
  if (bad) return fail(bad);
  if (mode === 'numpy') return toNumpy(input, target);
  if (mode === 'bidirectional') return numpyOf([input, target]); // §4.3: §1 on the pair
  if (mode === 'explicit') {
    const m = options.axesMapping;
    if (!Array.isArray(m)) throw new TypeError('axesMapping');
    return toExplicit(input, target, m);
  }
  const axis = axisOption(options.axis);
  if (!Number.isInteger(axis)) return fail(f('INVALID_AXIS'));
  return toPdpd(input, target, axis);
}

// §6: operands { dims, shape?, coords? }. Sizes come from shape, or from coords.
function namedOperand(t) {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new TypeError('operand');
  const dims = t.dims ?? [];
  const coords = t.coords ?? {};
  if (t.shape !== undefined) {
    const bad = checkShape(t.shape, false);
    if (bad === 'type') throw new TypeError('shape');
    if (bad || t.shape.length !== dims.length) return { bad: f('INVALID_SHAPE') };
  }
  // Dim names are compared as strings (coords keys are strings: 1 and '1' are one name);
  // a duplicate is reported at its second occurrence.
  const keys = dims.map(String);
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (dup >= 0) return { bad: f('INVALID_SHAPE', dup) };
  const axes = [];
  for (let i = 0; i < dims.length; i++) {
    const labels = Object.hasOwn(coords, dims[i]) ? coords[dims[i]] : null;
    if (labels && new Set(labels.map((l) => `${typeof l}:${l}`)).size !== labels.length) return { bad: f('INVALID_SHAPE', i) };
    const size = labels ? labels.length : t.shape?.[i];
    if (size === undefined) return { bad: f('INVALID_SHAPE') };
    if (labels && t.shape !== undefined && t.shape[i] !== labels.length) return { bad: f('INVALID_SHAPE') };
    axes.push({ name: dims[i], size, labels });
  }
  return { axes };
}

export function namedBroadcastShape(a, b, options = {}) {
  const shaping = options.shaping ?? 'intersection';
  if (!['exact', 'intersection', 'union'].includes(shaping)) throw new TypeError('shaping');
  const L = namedOperand(a);
  const R = namedOperand(b);
  if (L.bad) return fail(L.bad);
  if (R.bad) return fail(R.bad);
  const same = (x, y) => typeof x === typeof y && x === y;
  const has = (list, x) => list.some((y) => same(x, y));
  // Output order: the left's dims, then the right's new ones.
  const out = [...L.axes.map((ax) => ({ name: ax.name, left: ax, right: R.axes.find((r) => r.name === ax.name) }))];
  for (const r of R.axes) if (!L.axes.some((l) => l.name === r.name)) out.push({ name: r.name, right: r });
  const failures = [];
  if (out.length > MAX_RANK) failures.push(f('INVALID_SHAPE'));
  const result = { dims: [], shape: [] };
  const coords = {};
  out.forEach((o, axis) => {
    result.dims.push(o.name);
    if (!o.left || !o.right) { // broadcast: the dim one side lacks is inserted
      const s = o.left ?? o.right;
      result.shape.push(s.size);
      if (s.labels) coords[o.name] = s.labels.slice();
      return;
    }
    const l = o.left;
    const r = o.right;
    if (!l.labels || !r.labels) { // positions only: the sizes must be equal, never stretched
      if (l.size !== r.size) failures.push(f('INCOMPATIBLE_DIMS', axis));
      result.shape.push(l.size);
      if (l.labels || r.labels) coords[o.name] = (l.labels ?? r.labels).slice();
      return;
    }
    let labels;
    const equal = l.labels.length === r.labels.length && l.labels.every((x, i) => same(x, r.labels[i]));
    if (shaping === 'exact' || equal) {
      if (!equal) failures.push(f('INCOMPATIBLE_DIMS', axis));
      labels = l.labels.slice();
    } else if (shaping === 'intersection') {
      labels = l.labels.filter((x) => has(r.labels, x));
    } else {
      labels = [...l.labels, ...r.labels.filter((x) => !has(l.labels, x))];
    }
    result.shape.push(labels.length);
    coords[o.name] = labels;
  });
  if (failures.length) return fail(...failures);
  if (Object.keys(coords).length) result.coords = coords;
  return okv(result);
}

/** The four shape functions by name, as the property tests call them. */
export const model = { broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape };

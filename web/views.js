// What the explorer draws from a plan: counts and sizes as text, each axis's
// verdict, the backward view (the axes a gradient is summed over), the memory
// view and the data preview's read indices. No DOM, no globals.
import { formatShape, reductionAxes, add, broadcastTo, unbroadcast, DTYPES, contract } from 'tensorcast';
import { labelReads, clashAxes, rightAlign } from './plan-words.js';

// ---- dtypes ------------------------------------------------------------------

/**
 * The library's dtypes with their element size and typed-array name, in the
 * engine's order: [{ name, size, array }]. Empty before init().
 */
let dtypeCache = { from: null, list: [] };
export function dtypeList() {
  if (!DTYPES.length) return [];
  if (dtypeCache.from !== DTYPES) { // DTYPES is replaced (not mutated) when init() fills it
    const info = new Map(contract().dtypes.map((d) => [d.name, d]));
    dtypeCache = { from: DTYPES, list: DTYPES.map((name) => ({ name, size: info.get(name)?.size ?? null, array: info.get(name)?.array ?? null })) };
  }
  return dtypeCache.list;
}

/** Bytes per element of a dtype the library knows, else null. */
export function itemSize(dtype) {
  return dtypeList().find((d) => d.name === dtype)?.size ?? null;
}

// ---- formatting --------------------------------------------------------------

/** A list of numbers (strides, a mapping) as `[24, 0, 4]`. */
export function formatList(list) {
  return `[${list.map(String).join(', ')}]`;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An exact count as a Number when it is a safe integer, else as a BigInt. */
function exact(b) {
  return b <= MAX_SAFE && b >= -MAX_SAFE ? Number(b) : b;
}

/** Digits in groups of three: "1234567" -> "1,234,567" (exact, never rounded). */
function groupDigits(text) {
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * 1234567 -> "1,234,567". BigInts and decimal strings (explain's `sizeText`)
 * print exactly, whatever their size; only a Number that is not a safe
 * integer (an approximate ratio) uses exponent form.
 */
export function formatCount(n) {
  if (typeof n === 'bigint') return groupDigits(n.toString());
  if (typeof n === 'string' && /^\d+$/.test(n)) return groupDigits(n);
  if (n === null || n === undefined || Number.isNaN(n) || typeof n !== 'number') return '?';
  if (!Number.isFinite(n)) return '∞';
  if (Number.isSafeInteger(n)) return groupDigits(String(n));
  if (n > Number.MAX_SAFE_INTEGER) return n.toExponential(2).replace('e+', 'e');
  return Math.round(n).toLocaleString('en-US');
}

/**
 * The exact element count of a plan: explain's `size` when it is a safe
 * integer, else its `sizeText` as a BigInt; null when there is none (dynamic).
 */
export function planSize(plan) {
  if (!plan) return null;
  if (typeof plan.size === 'number') return plan.size;
  if (typeof plan.sizeText === 'string' && /^\d+$/.test(plan.sizeText)) return exact(BigInt(plan.sizeText));
  return null;
}

/** Bytes in B / KiB / MiB / GiB / TiB / PiB; past 2^53 bytes, the exact count in B. */
export function formatBytes(n) {
  if (typeof n === 'bigint') {
    if (n > MAX_SAFE) return `${groupDigits(n.toString())} B`;
    n = Number(n);
  }
  if (n === null || n === undefined || Number.isNaN(n)) return '?';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return u === 0 ? `${formatCount(v)} B` : `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[u]}`;
}

// ---- reading a plan --------------------------------------------------------------


export { axisVerdict, clashAxes, droppedAxes, VERDICT_WORDS, shownVerdicts, labelReads, rightAlign } from './plan-words.js';

/**
 * Why a named plan has no data preview when its labels need a gather, naming
 * the operands they trim, reorder or pad: "These labels trim A: reading it is
 * a gather, …".
 */
export function gatherText(plan) {
  const reads = labelReads(plan);
  const VERB = { trimmed: 'trim', reordered: 'reorder', filled: 'pad' };
  const parts = (plan?.operands ?? []).map((op, k) => {
    const kinds = ['trimmed', 'reordered', 'filled'].filter((w) => reads[k].includes(w));
    return kinds.length ? `${kinds.map((w) => VERB[w]).join(' and ')} ${op.name}` : null;
  }).filter(Boolean);
  if (!parts.length) return 'These labels select or reorder elements: reading the operands is a gather, not a strided view, so there is no preview.';
  return `These labels ${parts.join(' and ')}${reads.some((r) => r.includes('filled')) ? ' (with the fill value)' : ''}: reading ${parts.length > 1 ? 'them' : 'it'} is a gather, not a strided view, so there is no preview.`;
}

// ---- the backward view ----------------------------------------------------------

/**
 * The reductionAxes() options (broadcastToShape's) under which operand k of
 * a plan reached the output shape: numpy for the element-wise NumPy rule,
 * pdpd at the axis for PDPD's B, the Broadcast op's own mode (with its
 * mapping or axis). null where the rule never broadcasts the operand, so
 * nothing is summed: NONE (identical shapes) and PDPD's A (it is the output).
 * Named dims are matched by name, not by these options (see backwardView).
 */
export function backwardOptions(request, k) {
  if (!request) return null;
  if (request.rule === 'numpy') return { mode: 'numpy' };
  // B of an element-wise pdpd op: its own rule (trailing 1s may hang past A's end), not the Broadcast op's.
  if (request.rule === 'pdpd') return k === 0 ? null : { type: 'pdpd', axis: request.axis };
  if (request.rule === 'broadcastTo') {
    const o = { mode: request.mode };
    if (request.mode === 'explicit') o.axesMapping = request.axesMapping;
    if (request.mode === 'pdpd') o.axis = request.axis;
    return o;
  }
  return null;
}

const sameShape = (x, y) => (Array.isArray(x) && Array.isArray(y) ? x.length === y.length && x.every((d, i) => String(d) === String(y[i])) : x !== null && x === y);

/** The text of one operand's way back: "sum over axes [1, 3], then reshape to (8,1,6,1)". */
function backwardText(axes, kept, shape, extra = null) {
  let text;
  if (!axes.length) text = sameShape(kept, shape) ? `nothing to sum: the gradient already has shape ${formatShape(shape)}` : `nothing to sum; reshape to ${formatShape(shape)}`;
  else text = `sum over axes ${formatList(axes)}${sameShape(kept, shape) ? `: that is already ${formatShape(shape)}` : `, then reshape to ${formatShape(shape)}`}`;
  return extra ? `${text}; ${extra}` : text;
}

// A dim's labels in a coords object: own keys only. Dim names are typed by a
// person, so `constructor` or `toString` must not find Object.prototype's
// members; and coords objects are built with Object.fromEntries (own keys),
// never `obj[name] = v`, which for `__proto__` would set the prototype.
const labelsOf = (coords, d) => (coords && Object.hasOwn(coords, d) ? coords[d] : undefined);

/** A list of dim names as the page writes them: (x, t). */
const dimList = (dims) => `(${dims.join(', ')})`;

/**
 * The named input unbroadcast() takes to bring a named gradient back to
 * operand k: { dims, shape }, or { dims, coords } when every dim is labelled
 * (the labels give the sizes), or both where only some are.
 */
function namedTarget(request, plan, k) {
  const op = request.operands[k];
  const dims = op.dims.slice();
  const coords = op.coords ? Object.fromEntries(dims.filter((d) => labelsOf(op.coords, d)).map((d) => [d, labelsOf(op.coords, d).slice()])) : null;
  const labelled = coords ? Object.keys(coords).length : 0;
  if (labelled && labelled === dims.length) return { dims, coords };
  const target = { dims, shape: plan.operands[k].shape.slice() };
  if (labelled) target.coords = coords;
  return target;
}

/**
 * The backward view of a plan: for each operand, the output axes a gradient
 * of the result is summed over to come back to that operand's shape — the
 * reversed arrows of its stretched and added axes. The axes are the
 * library's reductionAxes(operand shape, output shape, options) with the
 * rule's options (backwardOptions); where it refuses (a dynamic dim that may
 * or may not be 1, an unknown rank) the entry carries its BroadcastError.
 * Named dims: the output dims (the library's named result) the operand
 * lacks; unbroadcast() takes the gradient by name, with the operand's
 * { dims, shape } or { dims, coords } (`target`), and puts the rest in the
 * operand's order ("then reorder to") and labels.
 *
 * Returns { ok: true, outShape, outDims?, outCoords?, operands: [{ name,
 * shape, axes, kept, options, target?, dims?, reorder?, relabel?, error,
 * text }] }, or { ok: false, reason } when there is nothing to reverse.
 * `options` is what unbroadcast() takes for a positional operand (undefined:
 * the default); `target` its second argument for a named one.
 */
export function backwardView(request, plan) {
  if (!plan || !request) return { ok: false, reason: 'Fix the input to see the backward view.' };
  if (!plan.ok) return { ok: false, reason: 'No backward view for a failed broadcast: there is no result to take a gradient of.' };
  const out = plan.shape;
  const view = { ok: true, outShape: out, operands: null };
  if (request.rule === 'named') {
    view.outDims = (plan.named?.dims ?? plan.dimNames).slice();
    if (plan.named?.coords) view.outCoords = plan.named.coords;
  }
  view.operands = plan.operands.map((op, k) => {
    const entry = { name: op.name, shape: op.shape, axes: null, kept: null, options: undefined, error: null, text: '' };
    if (request.rule === 'named') {
      // By name: the output dims this operand lacks (from the library's named result).
      const outDims = view.outDims;
      const dims = request.operands[k].dims;
      entry.dims = dims;
      entry.target = namedTarget(request, plan, k);
      entry.axes = outDims.map((d, a) => (dims.includes(d) ? null : a)).filter((a) => a !== null);
      const keptDims = outDims.filter((d) => dims.includes(d));
      entry.kept = out.filter((_, a) => !entry.axes.includes(a));
      // What unbroadcast does past the sum: the operand's order, and its labels where they differ from the result's.
      entry.reorder = !sameShape(keptDims, dims);
      const oc = request.operands[k].coords;
      entry.relabel = !!oc && dims.some((d) => labelsOf(oc, d) && !sameShape(labelsOf(oc, d), labelsOf(view.outCoords, d)));
      const then = [];
      if (entry.reorder) then.push(`reorder to ${dimList(dims)}`);
      if (entry.relabel) then.push(`align to ${op.name}'s labels`);
      if (entry.axes.length) entry.text = [`sum over axes ${formatList(entry.axes)} ${dimList(entry.axes.map((a) => outDims[a]))}`, ...then.map((t) => `then ${t}`)].join(', ');
      else entry.text = then.length ? `nothing to sum; ${then.join(', then ')}` : `nothing to sum: the gradient already has dims ${dimList(dims)}`;
      return entry;
    }
    const options = backwardOptions(request, k);
    if (options === null) {
      // NONE, PDPD's A: the operand is never broadcast; the result has its shape.
      entry.axes = [];
      entry.kept = Array.isArray(out) ? out.slice() : out;
      entry.options = undefined;
      entry.text = backwardText([], entry.kept, op.shape);
      return entry;
    }
    entry.options = options.mode === 'numpy' ? undefined : options;
    try {
      // The library says which axes, or why not (a dynamic dim that may be 1, an unknown rank).
      entry.axes = reductionAxes(op.shape, out, options);
    } catch (e) {
      entry.error = { code: e.code ?? e.name, message: e.message };
      return entry;
    }
    entry.kept = out.filter((_, a) => !entry.axes.includes(a));
    entry.text = backwardText(entry.axes, entry.kept, op.shape);
    return entry;
  });
  return view;
}

/** Output axis labels: [{ index: 0, negative: -4 }, ...]. */
export function axisLabels(rank) {
  return Array.from({ length: rank }, (_, a) => ({ index: a, negative: a - rank }));
}


// ---- memory view ---------------------------------------------------------------

export function product(shape) {
  return shape.reduce((p, d) => p * d, 1);
}

function isStaticShape(shape) {
  return Array.isArray(shape) && shape.every((d) => typeof d === 'number' && d >= 0);
}

/** Row-major strides (in elements) of a contiguous tensor. */
export function contiguousStrides(shape) {
  const s = new Array(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc = exactMul(acc, Math.max(shape[i], 1)); // exact past 2^53 (a BigInt)
  }
  return s;
}

/** Exact product of a static shape: a Number when safe, else a BigInt. */
export function exactProduct(shape) {
  const n = product(shape);
  if (Number.isSafeInteger(n)) return n;
  return exact(shape.reduce((p, d) => p * BigInt(d), 1n));
}

/** a * b or a + b, exact: Numbers while the result is a safe integer, else BigInts. */
function exactMul(a, b) {
  const n = Number(a) * Number(b);
  return Number.isSafeInteger(n) && typeof a === 'number' && typeof b === 'number' ? n : exact(BigInt(a) * BigInt(b));
}
function exactAdd(a, b) {
  const n = Number(a) + Number(b);
  return Number.isSafeInteger(n) && typeof a === 'number' && typeof b === 'number' ? n : exact(BigInt(a) + BigInt(b));
}

/**
 * The memory view of a plan: per operand its own contiguous strides, the
 * broadcast strides the plan gives (0 on stretched and new axes), the bytes it
 * holds, and the bytes a materialised (copied-out) broadcast would take.
 * Every count is exact: a Number while it is a safe integer, a BigInt past
 * 2^53 (the plan's `sizeText` then gives the element count). A plan stride
 * that is not a safe integer (the engine saturates there) is null.
 */
export function memoryView(plan, itemsize) {
  if (!plan || !plan.ok || !plan.static || !Array.isArray(plan.shape)) return null;
  const outElems = planSize(plan);
  if (outElems === null) return null;
  const safe = (x) => (Number.isSafeInteger(x) ? x : null);
  const operands = plan.operands.map((op) => {
    const shape = op.shape;
    const elems = isStaticShape(shape) ? exactProduct(shape) : null;
    const own = isStaticShape(shape) ? contiguousStrides(shape) : null;
    return {
      name: op.name,
      shape,
      strides: own,
      byteStrides: op.strides ? op.strides.map((s) => (safe(s) === null ? null : exactMul(s, itemsize))) : null,
      ownByteStrides: own ? own.map((s) => exactMul(s, itemsize)) : null,
      broadcastStrides: op.strides ? op.strides.map(safe) : null,
      zeroAxes: op.strides ? op.strides.map((s, a) => s === 0 && plan.shape[a] > 1) : null,
      bytesRead: elems === null ? null : exactMul(elems, itemsize),
      bytesCopy: exactMul(outElems, itemsize),
    };
  });
  const read = operands.reduce((s, o) => exactAdd(s, o.bytesRead ?? 0), 0);
  const copy = operands.reduce((s, o) => exactAdd(s, o.bytesCopy), 0);
  const saved = typeof copy === 'number' && typeof read === 'number' ? copy - read : exact(BigInt(copy) - BigInt(read));
  return { operands, outBytes: exactMul(outElems, itemsize), bytesRead: read, bytesCopy: copy, saved };
}

// ---- data preview ------------------------------------------------------------------

export const PREVIEW_LIMIT = 64;

/**
 * Whether the plan is small enough to draw as grids: static, every tensor at
 * most PREVIEW_LIMIT elements (every pass of a program too), and readable with strides alone (labelled
 * named dims that reorder need a gather, which strides cannot express).
 */
export function previewable(plan, limit = PREVIEW_LIMIT) {
  if (!plan || !plan.ok || !plan.static || !Array.isArray(plan.shape)) return false;
  if (plan.needsGather) return false;
  if (typeof plan.size !== 'number' || plan.size > limit || plan.size < 1) return false;
  // A program's plan is its last pass: the earlier passes read the inputs the preview fills, and must fit too.
  if (plan.expr?.passes?.some((p) => product(p.broadcastShape) > limit)) return false;
  return plan.operands.every((op) => op.strides && isStaticShape(op.shape) && product(op.shape) <= limit);
}

/** Why the data preview draws nothing for `plan` (previewable() false), in words for the page. */
export function previewWhy(plan) {
  if (!plan) return 'Fix the input to see data.';
  if (!plan.ok) return 'No data preview for a failed broadcast.';
  // An empty result first: labels that meet in none (X{} with X{a}) leave nothing to gather either.
  if (plan.static && plan.size === 0) return 'The result has no elements (a dim is 0): there is nothing to draw.';
  if (plan.needsGather) return gatherText(plan);
  return `The preview draws tensors of up to ${PREVIEW_LIMIT} elements with static shapes. Try the “NumPy, small” example.`;
}

/** Flat row-major index -> multi-index. */
export function unravel(index, shape) {
  const out = new Array(shape.length);
  let r = index;
  for (let i = shape.length - 1; i >= 0; i--) {
    const d = shape[i];
    out[i] = d > 0 ? r % d : 0;
    r = d > 0 ? Math.floor(r / d) : 0;
  }
  return out;
}

/**
 * For each operand, which of its elements each output element reads: an
 * Int32Array of plan.size flat indices into the operand.
 *
 * THE ONE PLACE that knows how broadcasting reads memory. Today it walks the
 * output with the plan's strides (0 on stretched axes) from explain(). Once the
 * library has broadcastTo, this becomes
 *   plan.operands.map((op) => broadcastTo(arange(size(op.shape)), plan.shape, …))
 * and nothing else in the page changes.
 */
export function sourceIndexMaps(plan) {
  const shape = plan.shape;
  const rank = shape.length;
  return plan.operands.map((op) => {
    const out = new Int32Array(plan.size);
    const idx = new Array(rank).fill(0);
    for (let flat = 0; flat < plan.size; flat++) {
      let off = 0;
      for (let a = 0; a < rank; a++) off += idx[a] * op.strides[a];
      out[flat] = off;
      for (let a = rank - 1; a >= 0; a--) { // odometer
        if (++idx[a] < shape[a]) break;
        idx[a] = 0;
      }
    }
    return out;
  });
}

/**
 * Split a shape into 2-D slices for drawing: the last two axes are rows and
 * columns, leading axes index the slices. Returns [{ label, prefix, rows, cols, start }].
 */
export function gridSlices(shape) {
  const rank = shape.length;
  const rows = rank >= 2 ? shape[rank - 2] : 1;
  const cols = rank >= 1 ? shape[rank - 1] : 1;
  const lead = shape.slice(0, Math.max(0, rank - 2));
  const nSlices = product(lead);
  const per = rows * cols;
  const slices = [];
  for (let s = 0; s < nSlices; s++) {
    const prefix = unravel(s, lead);
    const label = lead.length ? `[${[...prefix, ...(rank >= 2 ? [':'] : []), ':'].join(', ')}]` : '';
    slices.push({ label, prefix, rows, cols, start: s * per });
  }
  return slices;
}

// ---- the preview's values ---------------------------------------------------------

/**
 * The dtype the data preview computes in: the page's dtype when this runtime
 * has its typed array (a float16 without Float16Array falls back), else
 * float64. Returns the library's dtype entry { name, size, array } and
 * `fallback` (the page's dtype name) when it is not the page's.
 * "Copy as code" builds its inputs in the same dtype, so both show the same
 * numbers.
 */
export function previewDtype(name) {
  const list = dtypeList();
  const entry = list.find((d) => d.name === name);
  const usable = (d) => d && typeof d.array === 'string' && typeof globalThis[d.array] === 'function'
    && (d.name !== 'float16' || d.array === 'Float16Array');
  if (usable(entry)) return entry;
  const f64 = list.find((d) => d.name === 'float64') ?? { name: 'float64', size: 8, array: 'Float64Array' };
  return { ...f64, fallback: name };
}

const isBigArray = (array) => array === 'BigInt64Array' || array === 'BigUint64Array';

/**
 * arange(n) in a dtype entry's typed array: what every preview input (and,
 * in the backward view, the result's upstream gradient) holds. Built as
 * `Array.from({ length: n }, (_, i) => i)` through the typed array's own
 * `from`, exactly as the copied code writes it (see code.js arangeCode).
 */
export function arange(n, dtype) {
  const Ctor = globalThis[dtype.array];
  return isBigArray(dtype.array) ? Ctor.from({ length: n }, (_, i) => BigInt(i)) : Ctor.from({ length: n }, (_, i) => i);
}

/** The data-call options a request's rule takes (the forward op the preview runs). */
/**
 * The target a data call of the Broadcast op is given: the one typed, or,
 * where it holds dims that are not numbers (an interval, '?') and the plan's
 * result is static anyway, that result (the data broadcastTo needs numbers; the
 * input broadcasts to its own result under every mode).
 */
export function dataTarget(plan, request) {
  const t = request.shapes[1];
  return Array.isArray(t) && t.every((d) => typeof d === 'number') ? t : plan.shape;
}

export function forwardOptions(request) {
  if (request.rule === 'broadcastTo') {
    const o = { mode: request.mode };
    if (request.axesMapping !== undefined) o.axesMapping = request.axesMapping;
    if (request.axis !== undefined) o.axis = request.axis;
    return o;
  }
  if (request.rule === 'named') return request.shaping && request.shaping !== 'intersection' ? { shaping: request.shaping } : undefined;
  if (request.rule === 'pdpd') return { broadcast: { type: 'pdpd', axis: request.axis } };
  if (request.rule === 'none') return { broadcast: { type: 'none' } };
  return undefined;
}

/**
 * The data preview's forward values, computed by the library's own data ops:
 * each input holds arange(size) in the preview's dtype (previewDtype), and the
 * output is broadcastTo(A) or A + B (+ C …) under the request's rule.
 * Returns { dtype, inputs: [typed arrays], output: typed array }.
 */
export function previewValues(plan, request, dtypeName = 'float64') {
  const dtype = previewDtype(dtypeName);
  const inputs = plan.operands.map((op) => arange(product(op.shape), dtype));
  const operand = (k) => {
    const o = { data: inputs[k], shape: plan.operands[k].shape };
    if (request.rule === 'named') {
      o.dims = request.operands[k].dims;
      if (request.operands[k].coords) o.coords = request.operands[k].coords;
    }
    return o;
  };
  const opts = forwardOptions(request);
  let out;
  if (request.rule === 'broadcastTo') out = broadcastTo(operand(0), dataTarget(plan, request), opts);
  else {
    out = operand(0);
    for (let k = 1; k < inputs.length; k++) out = add(out, operand(k), opts);
  }
  return { dtype, inputs, output: out.data };
}

/**
 * The data preview's backward values: the upstream gradient of the result
 * holds arange(size) in the result's shape (and, named, its dims and labels),
 * and each operand's gradient is the library's unbroadcast() of it to that
 * operand, with the options of the backward view (backwardView: `options`
 * positional, `target` named). Returns { dtype, upstream, grads: [typed
 * arrays] }, or null when the view has no way back.
 */
export function backwardValues(plan, request, view, dtypeName = 'float64') {
  if (!view || !view.ok || view.operands.some((o) => o.error)) return null;
  const dtype = previewDtype(dtypeName);
  const upstream = arange(product(plan.shape), dtype);
  const grad = { data: upstream, shape: plan.shape };
  if (request.rule === 'named') {
    grad.dims = view.outDims;
    if (view.outCoords) grad.coords = view.outCoords;
  }
  const grads = view.operands.map((o) => (o.target ? unbroadcast(grad, o.target) : unbroadcast(grad, o.shape, o.options)).data);
  return { dtype, upstream, grads };
}

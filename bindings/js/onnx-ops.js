// The output shapes of one ONNX node from its inputs' infos, attributes and
// opset (infer.js walks the graph and calls them): an op's shape function, the
// dims arithmetic it needs (a name times 1 is the name; a product of names is
// unknown), the small integer values that shape arithmetic carries (Shape →
// Gather → Concat → Reshape), and the tables of op types (which ones broadcast,
// which keep their input's shape). A malformed node throws; the walk makes its
// outputs unknown.
import { BroadcastError } from './errors.js';
import { tensorValues, MAX_VALUES } from './onnx-read.js';
import { isSymbol } from './symbolic.js';

export const num = (d) => typeof d === 'number';
const INT_BIG = 2 ** 53;

// ---- dims arithmetic ------------------------------------------------------------

export function mulDims(a, b) {
  if (num(a) && num(b)) return a * b;
  if (a === 1) return b;
  if (b === 1) return a;
  if (a === 0 || b === 0) return 0;
  return '?';
}

export function addDims(a, b) {
  if (num(a) && num(b)) return a + b;
  if (a === 0) return b;
  if (b === 0) return a;
  return '?';
}

/** A product of dims as a number times a multiset of symbols, or null when a dim is unknown. */
function factor(dims) {
  let c = 1;
  const syms = [];
  for (const d of dims) {
    if (num(d)) c *= d;
    else if (isSymbol(d) && !d.includes('|')) syms.push(d);
    else return null;
  }
  return { c, syms };
}

/** The dim that makes `known` × it = `total` (Reshape's -1), or '?'. */
function quotient(total, known) {
  const t = factor(total);
  const k = factor(known);
  if (t === null || k === null) return '?';
  const rest = t.syms.slice();
  for (const s of k.syms) {
    const i = rest.indexOf(s);
    if (i < 0) return '?';
    rest.splice(i, 1);
  }
  if (k.c === 0) return '?';
  if (t.c % k.c !== 0) return '?';
  const c = t.c / k.c;
  if (rest.length === 0) return c;
  if (rest.length === 1 && c === 1) return rest[0];
  return '?';
}

const prod = (dims) => dims.reduce(mulDims, 1);

// ---- what is known of a tensor -------------------------------------------------

/** What is known of a tensor: its shape (null: unknown rank), element type, and (small ints) values; `elem`: a sequence's element. */
export function info(shape, elemType = 0, value = null, lostAt = null) {
  return { shape, elemType, value, lostAt, elem: null };
}

/** A sequence (an optional) holding `elem` (null: elements not known). */
export function holding(elem) {
  const v = info(null);
  v.elem = elem;
  return v;
}

/** The info of a declared type: a tensor's shape, or a sequence (optional) of them. */
export function fromType(t) {
  if (t.kind === 'tensor') return info(t.shape ? t.shape.slice() : null, t.elemType);
  return holding((t.kind === 'sequence' || t.kind === 'optional') && t.elem ? fromType(t.elem) : null);
}

/** What two tensors share: their dims where equal, '?' where not; no rank where their ranks differ or one is unknown; an empty sequence's none (the other's). */
export function union(a, b) {
  if (a && a.empty) return b;
  if (b && b.empty) return a;
  const [s, t] = [a ? a.shape : null, b ? b.shape : null];
  return info(s && t && s.length === t.length ? s.map((d, i) => (d === t[i] ? d : '?')) : null, a ? a.elemType : 0);
}

/**
 * Values as the shape functions read them: Numbers. A 64-bit value past 2^53 - 1 is kept as the
 * file has it (a BigInt: tensorValues) while ops only move it (Concat, Gather, Slice, Cast to a wide
 * type...), so that Expand's target names it exactly; arithmetic takes the Number nearest it.
 */
export const numbers = (vs) => (vs && vs.some((d) => typeof d === 'bigint') ? vs.map((d) => (typeof d === 'bigint' ? Number(d) : d)) : vs);

// ---- the op types -------------------------------------------------------------

// Outputs with the shape of input 0.
const SAME = new Set(('Abs Acos Acosh Asin Asinh Atan Atanh Bernoulli Ceil Celu Clip Cos Cosh CumSum ' +
  'DequantizeLinear Dropout Elu Erf Exp Floor Gelu HardSigmoid HardSwish Hardmax InstanceNormalization IsInf IsNaN ' +
  'LeakyRelu Log LogSoftmax LpNormalization LRN MeanVarianceNormalization Mish Neg Not ' +
  'QuantizeLinear Reciprocal Relu Round Selu Shrink Sigmoid Sign Sin Sinh Softmax Softplus ' +
  'Softsign Sqrt Tan Tanh ThresholdedRelu Trilu BitwiseNot ScatterElements ScatterND Scatter ReverseSequence ' +
  'FastGelu BiasGelu QuickGelu EyeLike').split(' '));
const SOFTMAX = new Set(['Softmax', 'LogSoftmax', 'Hardmax']);
// Same shape and, for small integer tensors, the same values (a cast to an integer type truncates them).
const PASS = new Set(['Identity', 'Cast', 'CastLike']);
const INTEGER = new Set([2, 3, 4, 5, 6, 7, 9, 12, 13]); // ONNX's integer element types, bool (9) among them
export const FLOAT = new Set([1, 10, 11, 16]);
// The bits of ONNX's narrow integer element types: a cast wraps a value into them (uint8 2, int8 3, uint16 4, int16 5, int32 6, uint32 12).
const WRAP = new Map([[2, -8], [3, 8], [4, -16], [5, 16], [6, 32], [12, -32]]);

/**
 * A shape value as Cast to element type `to` gives it: a float to an integer type truncated, then
 * wrapped into a narrow one; to bool 0 or 1; to float32 rounded; to float16 or bfloat16 an integer
 * they hold exactly (to 2048, to 256), else unknown. A name keeps only through a cast that holds
 * every dim a model has (int32 and wider, float, double).
 */
function castValue(d, to) {
  const bits = WRAP.get(to);
  if (typeof d === 'bigint') { // past 2^53 - 1: exact in the 64-bit types, wrapped into a narrow one, a float's nearest
    if (to === 7 || to === 13) { // wrapped (uint64 2^64 - 1 to int64 is -1), a Number where one holds it
      const w = to === 7 ? BigInt.asIntN(64, d) : BigInt.asUintN(64, d);
      return w >= -Number.MAX_SAFE_INTEGER && w <= Number.MAX_SAFE_INTEGER ? Number(w) : w;
    }
    if (to === 9) return 1;
    if (bits) return castValue(Number(bits > 0 ? BigInt.asIntN(bits, d) : BigInt.asUintN(-bits, d)), to);
    return to === 10 || to === 16 ? '?' : castValue(Number(d), to);
  }
  if (to === 10 || to === 16) return Number.isInteger(d) && Math.abs(d) <= (to === 10 ? 2048 : 256) ? d : '?';
  if (!num(d)) return to === 9 || (bits && Math.abs(bits) < 32) ? '?' : d;
  if (to === 9) return +(d !== 0);
  if (to === 1) return Math.fround(d);
  if (!INTEGER.has(to)) return d;
  const t = Math.trunc(d);
  if (!bits || !Number.isFinite(t)) return t;
  const m = 2 ** Math.abs(bits);
  const u = ((t % m) + m) % m;
  return bits > 0 && u >= m / 2 ? u - m : u;
}

// Element-wise ops that broadcast (opset 7 on: multidirectional; before: the
// `broadcast`/`axis` attributes, the PDPD rule, or equal shapes).
export const BINARY = new Set(['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Equal', 'Greater', 'Less', 'And', 'Or', 'Xor']);
export const BINARY_NEW = new Set(['GreaterOrEqual', 'LessOrEqual', 'BitShift', 'Mod', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor']);
export const VARIADIC = new Set(['Sum', 'Max', 'Min', 'Mean']);
const REDUCE = new Set(['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2',
  'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare']);

/** True for the op types whose nodes are reported (they broadcast). */
export function broadcasts(op) {
  return BINARY.has(op) || BINARY_NEW.has(op) || VARIADIC.has(op) || op === 'Where' || op === 'PRelu' || op === 'Expand' ||
    op === 'Gemm' || op === 'MatMul' || op === 'MatMulInteger' || op === 'QLinearMatMul' || op === 'Einsum';
}

export function attr(n, name) {
  return n.attrs.get(name);
}
export function attrInt(n, name, def) {
  const a = attr(n, name);
  return a && a.i !== undefined ? a.i : def;
}
export function attrInts(n, name) {
  const a = attr(n, name);
  return a ? a.ints : null;
}
export function attrStr(n, name, def) {
  const a = attr(n, name);
  return a && a.s !== undefined ? a.s : def;
}

export const normAxis = (a, r) => (a < 0 ? a + r : a);
/** Axis `a` of a rank-`r` shape as ONNX takes it (−r ≤ a < r); any other is a malformed node (its outputs unknown). */
function axisIn(a, r, op) {
  if (!Number.isInteger(a) || a < -r || a >= r) throw new RangeError(`${op}: axis ${a} is outside a shape of rank ${r}`);
  return a < 0 ? a + r : a;
}
/** Axes `as` of a rank-`r` shape, each once (as axisIn). */
function axesIn(as, r, op) {
  const set = new Set(as.map((a) => axisIn(a, r, op)));
  if (set.size !== as.length) throw new RangeError(`${op}: an axis is given twice in [${as.join(', ')}]`);
  return set;
}

// Ops whose outputs follow from their inputs' shapes and attributes in a line or two (moreShapes).
const MORE = new Set(('NegativeLogLikelihoodLoss SoftmaxCrossEntropyLoss Unique Adagrad Adam Momentum NonMaxSuppression ' +
  'TfIdfVectorizer DynamicQuantizeLinear GridSample GatherND OneHot StringNormalizer Einsum HannWindow HammingWindow ' +
  'BlackmanWindow MelWeightMatrix Compress Det RoiAlign DFT STFT OptionalHasElement MaxUnpool MaxRoiPool RandomNormal ' +
  'RandomUniform Multinomial RandomNormalLike RandomUniformLike').split(' '));
// The optimisers of ai.onnx.preview.training. Their inputs after R and T are groups of n: X, its
// gradient G, then the states (Adagrad H; Adam V, H; Momentum V); their outputs are X and the states,
// new: each output group's input group.
export const OPTIMISERS = { Adagrad: [0, 2], Adam: [0, 2, 3], Momentum: [0, 2] };

/**
 * The outputs of an op of MORE: `ins` its inputs' infos, `vals(k)` input k's values (or null).
 * Dims it cannot know are '?'; null where not even the rank is known.
 */
function moreShapes(n, op, ins, vals, v) {
  const shape = (k) => (ins[k] ? ins[k].shape : null);
  const x = shape(0);
  const et = ins[0] ? ins[0].elemType : 0;
  const scalar = (k) => { const w = vals(k); return w && w.length === 1 && num(w[0]) ? w[0] : '?'; };
  // what a condition keeps of x: along the `axis` attribute (that dim unknown), or all of it flattened
  const keptOf = (a) => (a ? (x ? x.map((d, i) => (i === normAxis(a.i, x.length) ? '?' : d)) : null) : ['?']);
  switch (op) {
    case 'NegativeLogLikelihoodLoss':
    case 'SoftmaxCrossEntropyLoss': { // [N, C, d1...] and labels [N, d1...]: per element ('none') or one value
      const t = shape(1) ?? (x ? [x[0], ...x.slice(2)] : null);
      const loss = info(attrStr(n, 'reduction', 'mean') === 'none' ? (t ? t.slice() : null) : [], et);
      return op === 'SoftmaxCrossEntropyLoss' ? [loss, info(x, et)] : [loss];
    }
    case 'Unique': { // Y, indices, inverse_indices, counts: as many as there are distinct values
      if (n.domain === 'com.microsoft') return [info(['?'], et), info(x, 7), info(['?'], 7)]; // its own: Y, inverse_indices of a 1-D x, counts
      const a = attr(n, 'axis');
      const y = keptOf(a);
      const inv = a ? (x ? [x[normAxis(a.i, x.length)]] : ['?']) : [x ? prod(x) : '?'];
      return [info(y, et), info(['?'], 7), info(inv, 7), info(['?'], 7)];
    }
    case 'Adagrad':
    case 'Adam':
    case 'Momentum': { // the new X (and H, V): the shapes of the inputs they replace, in groups of n
      const groups = OPTIMISERS[op];
      const k = (ins.length - 2) / (groups.length + 1); // the input groups: the output groups and G
      return n.outputs.map((_, j) => {
        const i = 2 + groups[Math.floor(j / k)] * k + (j % k);
        return info(shape(i), ins[i] ? ins[i].elemType : 0);
      });
    }
    case 'NonMaxSuppression':
      return [info(['?', 3], 7)];
    case 'TfIdfVectorizer': { // [C] or [N, C] to [max ngram index + 1] or [N, that]
      const idx = attrInts(n, 'ngram_indexes');
      const m = idx && idx.length ? Math.max(...idx) + 1 : '?';
      return [info(x ? (x.length === 1 ? [m] : [x[0], m]) : null, 1)];
    }
    case 'DynamicQuantizeLinear':
      return [info(x, 2), info([], 1), info([], 2)];
    case 'GridSample': { // X [N, C, D...] sampled at grid [N, D_out..., r]: [N, C, D_out...]
      const g = shape(1);
      return [info(x && g ? [x[0], x[1], ...g.slice(1, -1)] : null, et)];
    }
    case 'GatherND': { // indices' dims but its last, then data's past batch_dims + that last dim
      const q = shape(1);
      const b = attrInt(n, 'batch_dims', 0);
      if (!x || !q || !num(q[q.length - 1])) return [info(null, et)];
      if (q[q.length - 1] > x.length - b) throw new RangeError(`GatherND: indices index ${q[q.length - 1]} of ${x.length - b} axes`);
      return [info([...q.slice(0, -1), ...x.slice(b + q[q.length - 1])], et)];
    }
    case 'OneHot': { // indices' dims, with depth inserted at axis
      if (!x) return [info(null, ins[2] ? ins[2].elemType : 0)];
      const d = scalar(1);
      const r = x.length + 1;
      const a = normAxis(attrInt(n, 'axis', -1), r);
      const out = x.slice();
      out.splice(a, 0, num(d) ? Math.trunc(d) : '?');
      return [info(out, ins[2] ? ins[2].elemType : 0)];
    }
    case 'StringNormalizer': // stop words may drop any number of strings
      return [info(x ? [...x.slice(0, -1), '?'] : null, et)];
    case 'HannWindow':
    case 'HammingWindow':
    case 'BlackmanWindow': {
      const size = scalar(0);
      return [info([num(size) ? Math.trunc(size) : '?'], attrInt(n, 'output_datatype', 1))];
    }
    case 'MelWeightMatrix': { // [dft_length / 2 + 1, num_mel_bins]
      const bins = scalar(0);
      const len = scalar(1);
      return [info([num(len) ? Math.floor(len / 2) + 1 : '?', num(bins) ? bins : '?'], attrInt(n, 'output_datatype', 1))];
    }
    case 'Compress': { // as many as the condition keeps
      return [info(keptOf(attr(n, 'axis')), et)];
    }
    case 'Det':
      return [info(x ? x.slice(0, -2) : null, et)];
    case 'RoiAlign': { // [num_rois, C, output_height, output_width]
      const rois = shape(1);
      return [info([rois ? rois[0] : '?', x ? x[1] : '?', attrInt(n, 'output_height', 1), attrInt(n, 'output_width', 1)], et)];
    }
    case 'DFT': { // along axis (an attribute, default 1; from opset 20 input 2, default -2): dft_length (or the axis), half of it + 1 when onesided; last dim 2
      if (!x) return [info(null, et)];
      const given = v < 20 ? attrInt(n, 'axis', 1) : n.inputs[2] ? scalar(2) : -2;
      if (!num(given)) return [info(x.map((d, i) => (i === x.length - 1 ? 2 : '?')), et)]; // an axis input whose value is not known
      const a = normAxis(given, x.length);
      const size = n.inputs[1] ? scalar(1) : x[a];
      const len = attrInt(n, 'inverse', 0) === 0 && attrInt(n, 'onesided', 0) === 1 ? (num(size) ? Math.floor(size / 2) + 1 : '?') : size;
      return [info(x.map((d, i) => (i === a ? len : i === x.length - 1 ? 2 : d)), et)];
    }
    case 'STFT': { // [batch, frames, bins, 2]: frames from the signal's length, the step and the frame's length
      const step = scalar(1);
      const w = n.inputs[2] ? shape(2) : null;
      const fl = n.inputs[3] ? scalar(3) : w ? w[0] : '?';
      const frames = x && num(x[1]) && num(step) && num(fl) && step > 0 ? Math.floor((x[1] - fl) / step) + 1 : '?';
      const bins = num(fl) ? (attrInt(n, 'onesided', 1) === 1 ? Math.floor(fl / 2) + 1 : fl) : '?';
      return [info([x ? x[0] : '?', frames, bins, 2], et)];
    }
    case 'OptionalHasElement':
      return [info([], 9)];
    case 'MaxUnpool': { // each spatial dim (d - 1) * stride + kernel - pads (onnxruntime refuses one below 1), or output_shape's values
      const [k, st, p] = ['kernel_shape', 'strides', 'pads'].map((a) => attrInts(n, a) ?? []);
      const sp = x ? x.length - 2 : 0;
      const out = x && x.map((d, i) => (i < 2 ? d : num(d) && num(k[i - 2]) ? (d - 1) * (st[i - 2] ?? 1) + k[i - 2] - (p[i - 2] ?? 0) - (p[i - 2 + sp] ?? 0) : '?'));
      if (out && out.some((d, i) => i > 1 && d < 1)) throw new RangeError(`MaxUnpool: an output dim of ${out.find((d, i) => i > 1 && d < 1)}`);
      if (!n.inputs[2]) return [info(out, et)];
      const os = vals(2) ?? (shape(2)?.length === 1 && num(shape(2)[0]) && shape(2)[0] <= MAX_VALUES ? new Array(shape(2)[0]).fill('?') : null);
      // one dim a dim of x, none smaller than the one computed (onnx and onnxruntime refuse the node)
      if (os && out && (os.length !== out.length || os.some((d, i) => num(d) && num(out[i]) && d < out[i]))) throw new RangeError(`MaxUnpool: output_shape [${os}] for [${out}]`);
      return [info(os, et)];
    }
    case 'MaxRoiPool': { // [num_rois, C, pooled_shape]
      const rois = shape(1);
      const ps = attrInts(n, 'pooled_shape');
      return [info([rois ? rois[0] : '?', x ? x[1] : '?', ...(ps && ps.length === 2 ? ps : ['?', '?'])], et)];
    }
    case 'RandomNormalLike':
    case 'RandomUniformLike': // x's shape, in `dtype` (else x's type)
      return [info(x, attrInt(n, 'dtype', et))];
    case 'RandomNormal':
    case 'RandomUniform':
      return [info(attrInts(n, 'shape'), attrInt(n, 'dtype', 1))];
    case 'Multinomial': // [batch_size, sample_size]
      return [info([x ? x[0] : '?', attrInt(n, 'sample_size', 1)], attrInt(n, 'dtype', 6))];
    default:
      return null;
  }
}

/**
 * Einsum as a broadcast (NumPy's einsum): each input laid out as [its ellipsis dims, then one dim per
 * letter of the equation, 1 where it lacks the letter], so the NumPy rule over those shapes merges
 * each letter's dims and the ellipses (a 1 stretches; two others must agree). A letter repeated in
 * one input (a diagonal) must be the same dim there: `same(x, y, what)` says so, or gives the error.
 * Returns { shapes, rule, wrap } (wrap: the output from the merged shape), a BroadcastError, or null
 * (an equation this cannot read: the output is unknown).
 */
export function einsumPlan(equation, shapes, where, same) {
  const eq = equation.replace(/\s+/g, '');
  const [lhs, rhs, more] = eq.split('->');
  const raw = lhs.split(',');
  // Letters and at most one '...' a term (NumPy and onnxruntime refuse any other)
  const term = (t) => /^[A-Za-z]*(\.\.\.)?[A-Za-z]*$/.test(t);
  if (raw.length !== shapes.length || !raw.every(term)) return null;
  const terms = raw.map((t) => t.replace('...', '.'));
  const letters = [...new Set(terms.join('').replace(/\./g, ''))];
  const rows = [];
  let ellDims = 0;
  for (let k = 0; k < terms.length; k++) {
    const t = terms[k];
    const s = shapes[k];
    const count = t.replace('.', '').length; // its letters
    const e = s.length - count; // the ellipsis's dims
    if (e < 0 || (e > 0 && !t.includes('.'))) {
      return new BroadcastError(`Einsum at ${where}: input ${k} has rank ${s.length}; its term '${t.replace('.', '...')}' has ${count} letter${count === 1 ? '' : 's'}`,
        { code: 'RANK_MISMATCH', shapes, dims: [s.length, count] });
    }
    const dim = new Map();
    const ell = [];
    let at = 0;
    for (const c of t) {
      if (c === '.') { ell.push(...s.slice(at, at + e)); at += e; continue; }
      const d = s[at++];
      if (dim.has(c)) {
        const err = same(dim.get(c), d, `Einsum: letter ${c} repeats in input ${k} with another dim`);
        if (err) return err;
        if (!num(dim.get(c))) dim.set(c, d);
      } else dim.set(c, d);
    }
    rows.push([...ell, ...letters.map((c) => (dim.has(c) ? dim.get(c) : 1))]);
    ellDims = Math.max(ellDims, e);
  }
  // The output: one '->', its letters once each and each an input's
  const outL = (rhs ?? '').replace('...', '');
  if (more !== undefined || !term(rhs ?? '') || new Set(outL).size < outL.length || [...outL].some((c) => !lhs.includes(c))) return null;
  // An output without '...' drops no ellipsis dims: NumPy and onnxruntime refuse it unless the ellipses have none
  if (ellDims > 0 && rhs !== undefined && !rhs.includes('...')) {
    return new BroadcastError(`Einsum at ${where}: the inputs' '...' has ${ellDims} dim${ellDims === 1 ? '' : 's'}; the output '${rhs}' has no '...' to hold them`,
      { code: 'RANK_MISMATCH', shapes, dims: [ellDims, 0] });
  }
  const out = rhs ?? `${lhs.includes('...') ? '.' : ''}${letters.filter((c) => lhs.split(c).length === 2).sort().join('')}`;
  const L = letters.length;
  return {
    shapes: rows,
    rule: `numpy over [ellipsis, ${letters.join(' ')}] (Einsum)`,
    wrap: (m) => [...out.replace('...', '.')].flatMap((c) => (c === '.' ? m.slice(0, m.length - L) : [m[m.length - L + letters.indexOf(c)]])),
  };
}

// ---- the ops that do not broadcast ---------------------------------------------

/**
 * The outputs of a non-broadcasting node (not If, Loop or Scan: their subgraphs are the walk's), or
 * null when its op has no shape function. `ins`: its inputs' infos (null: an omitted input); `v`: the
 * opset of its domain; `bytes`: the model's (a Constant's tensor is read from them).
 */
export function outputsOf(n, ins, v, bytes) {
  const op = n.opType;
  const x = ins[0] ? ins[0].shape : null;
  const et = ins[0] ? ins[0].elemType : 0;
  const vals = (k) => numbers(ins[k]?.value ?? null); // input k's small integer values (or null)
  const rankKnown = x !== null;
  if ((op === 'Neg' || op === 'Abs') && ins[0] && ins[0].value) { // shape arithmetic: a name is not negative
    const big = (d) => (op === 'Neg' ? -d : d < 0n ? -d : d); // a value past 2^53 - 1, exactly
    return [info(x, et, ins[0].value.map((d) => (num(d) ? (op === 'Neg' ? 0 - d : Math.abs(d)) : typeof d === 'bigint' ? big(d) : op === 'Abs' ? d : '?')))];
  }
  // The softmax family's axis (from opset 11: onnx checked none before) must name an axis of its input.
  if (SOFTMAX.has(op) && rankKnown && v >= 11) axisIn(attrInt(n, 'axis', v < 13 ? 1 : -1), x.length, op);
  if (SAME.has(op)) return n.outputs.map(() => info(x, et));
  if (PASS.has(op)) {
    const to = op === 'Cast' ? attrInt(n, 'to', et) : op === 'CastLike' && ins[1] ? ins[1].elemType : et;
    const value = ins[0] ? ins[0].value : null;
    return [info(x, to, value && to !== et ? value.map((d) => castValue(d, to)) : value)];
  }
  switch (op) {
    case 'BatchNormalization': // training mode's running mean and variance (and opset < 14's saved ones): one per channel
      return n.outputs.map((_, k) => info(k === 0 ? x : rankKnown && x.length > 1 ? [x[1]] : null, et));
    case 'LayerNormalization':
    case 'SimplifiedLayerNormalization':
    case 'SkipLayerNormalization': { // Mean and InvStdDev: the normalised axes kept as 1, in stash_type (SkipLayerNormalization's output 3, the sum: x)
      const a = rankKnown ? normAxis(attrInt(n, 'axis', -1), x.length) : 0;
      return n.outputs.map((_, k) => (k === 0 || k === 3 ? info(x, et) : info(rankKnown ? x.map((d, i) => (i < a ? d : 1)) : null, attrInt(n, 'stash_type', 1))));
    }
    case 'Constant': {
      const t = attr(n, 'value');
      if (t && t.t) return [info(t.t.dims.slice(), t.t.dataType, t.t.dims.length <= 1 ? tensorValues(t.t, bytes) : null)];
      const vi = attr(n, 'value_ints');
      if (vi) return [info([vi.ints.length], 7, vi.ints.slice())];
      const v1 = attr(n, 'value_int');
      if (v1) return [info([], 7, [v1.i])];
      const vf = attr(n, 'value_floats');
      if (vf) return [info([vf.floats.length], 1, vf.floats.slice())];
      const f1 = attr(n, 'value_float');
      if (f1) return [info([], 1, [f1.f])];
      if (attr(n, 'value_strings')) return [info([attr(n, 'value_strings').strings.length], 8)];
      if (attr(n, 'value_string')) return [info([], 8)];
      const sv = attr(n, 'sparse_value');
      if (sv && sv.sparse) return [info(sv.sparse.dims.slice(), sv.sparse.dataType)];
      return null;
    }
    case 'Shape': {
      if (!rankKnown) return [info(['?'], 7)]; // a rank unknown: one dim, of unknown length
      let s = attrInt(n, 'start', 0);
      let e = attrInt(n, 'end', x.length);
      s = Math.min(Math.max(normAxis(s, x.length), 0), x.length);
      e = Math.min(Math.max(normAxis(e, x.length), 0), x.length);
      const value = x.slice(s, Math.max(s, e));
      return [info([value.length], 7, value)];
    }
    case 'Size':
      return [info([], 7, rankKnown && x.every(num) ? [prod(x)] : null)];
    case 'Reshape': {
      const target = v < 5 ? attrInts(n, 'shape') : vals(1);
      const ts = v < 5 ? null : ins[1] && ins[1].shape;
      if (ts && ts.length !== 1) throw new RangeError(`Reshape: the shape input has rank ${ts.length}, not 1`);
      if (target === null) {
        // a target of known length, its values not known: that many unknown dims; a length past
        // MAX_VALUES (a shape input that declares 10^9 elements) is no rank to build: unknown
        const len = ts && num(ts[0]) && ts[0] <= MAX_VALUES ? ts[0] : null;
        return [info(len === null ? null : new Array(len).fill('?'), et)];
      }
      const allowZero = attrInt(n, 'allowzero', 0) === 1;
      const k = target.indexOf(-1);
      if (k !== target.lastIndexOf(-1)) throw new RangeError('Reshape: two -1s');
      if (allowZero && k >= 0 && target.includes(0)) throw new RangeError('Reshape: a 0 beside a -1 (allowzero)');
      // An input of unknown rank: the target's own dims are the output's (a copying 0 and the -1 unknown).
      if (!rankKnown) return [info(target.map((d) => (d === -1 || (d === 0 && !allowZero) ? '?' : d)), et)];
      const out = target.map((d, i) => {
        if (d !== 0 || allowZero) return d;
        if (i >= x.length) throw new RangeError(`Reshape: a 0 past rank ${x.length}`);
        return x[i];
      });
      const total = prod(x);
      const rest = prod(out.filter((_, i) => i !== k));
      if (k >= 0) {
        // Other dims of no elements leave the -1 any size (0 / 0): no output.
        if (rest === 0) throw new RangeError('Reshape: the -1 is any size');
        // A dim that a 0 copies cancels out of the -1's quotient, an unknown one too (as onnx's inference
        // does): [?, 3, 4] to [0, -1] is [?, 12]. Numbers left that do not divide leave no -1: [?, 4] to [0, 3, -1].
        const copied = (i) => target[i] === 0 && !allowZero;
        const [has, fill] = [x.filter((_, i) => !copied(i)), out.filter((_, i) => i !== k && !copied(i))];
        out[k] = quotient(has, fill);
        if (out[k] === '?' && has.every(num) && fill.every(num)) throw new RangeError('Reshape: no -1 fits');
      } else if (num(total) && num(rest) && total !== rest) throw new RangeError(`Reshape: ${total} elements are not ${rest}`); // the spec asks as many
      return [info(out, et, ins[0].value && ins[0].value.length === (num(out[0]) ? out[0] : -1) ? ins[0].value : (out.length <= 1 ? ins[0].value : null))];
    }
    case 'Flatten': {
      if (!rankKnown) return [info(null, et)];
      const a = attrInt(n, 'axis', 1);
      if (a < -x.length || a > x.length) throw new RangeError(`Flatten: axis ${a} is outside [-${x.length}, ${x.length}]`); // r itself is an axis here: [all, 1]
      const at = normAxis(a, x.length);
      return [info([prod(x.slice(0, at)), prod(x.slice(at))], et)];
    }
    case 'Transpose': {
      if (!rankKnown) return [info(null, et)];
      const perm = attrInts(n, 'perm');
      const p = perm && perm.length ? perm : x.map((_, i) => x.length - 1 - i);
      if (p.length !== x.length || new Set(p).size !== p.length) throw new RangeError(`Transpose: perm [${p}] is no permutation`);
      return [info(p.map((i) => x[i]), et)];
    }
    case 'Squeeze': {
      const axes = v < 13 ? attrInts(n, 'axes') : vals(1);
      if (!rankKnown || (v >= 13 && n.inputs[1] && !axes)) return [info(null, et)]; // axes given, their values not known
      if (!axes || axes.length === 0) {
        if (!x.every(num)) return [info(null, et)];
        return [info(x.filter((d) => d !== 1), et, ins[0].value)];
      }
      const drop = axesIn(axes, x.length, op);
      if (x.some((d, i) => drop.has(i) && num(d) && d !== 1)) throw new RangeError('Squeeze: a squeezed dim is not 1');
      return [info(x.filter((_, i) => !drop.has(i)), et, ins[0].value)];
    }
    case 'Unsqueeze': {
      const axes = v < 13 ? attrInts(n, 'axes') : vals(1);
      if (!rankKnown || !axes) return [info(null, et)];
      const r = x.length + axes.length;
      const set = axesIn(axes, r, op);
      const out = [];
      let j = 0;
      for (let i = 0; i < r; i++) out.push(set.has(i) ? 1 : x[j++]);
      return [info(out, et, ins[0].value)];
    }
    case 'Concat': {
      const shapes = ins.map((i) => (i ? i.shape : null));
      if (shapes.some((s) => s === null)) return [info(null, et)];
      const r = shapes[0].length;
      if (shapes.some((sh) => sh.length !== r)) throw new RangeError('Concat: the inputs differ in rank');
      // before opset 4 the axis may be left out: 1; from 4 on it is required (onnx and onnxruntime refuse the node)
      if (v >= 4 && !attr(n, 'axis')) throw new RangeError('Concat: no axis (required from opset 4)');
      const a = axisIn(attrInt(n, 'axis', 1), r, op);
      const out = shapes[0].slice();
      for (let i = 0; i < r; i++) {
        if (i === a) out[i] = shapes.map((s) => s[i]).reduce(addDims);
        else {
          const known = shapes.map((s) => s[i]).filter(num);
          if (known.some((d) => d !== known[0])) throw new RangeError(`Concat: the inputs differ at axis ${i}`);
          out[i] = known[0] ?? shapes.map((s) => s[i]).find(isSymbol) ?? '?';
        }
      }
      let value = null; // at most MAX_VALUES, as any tensor's: Concat(v, v) repeated would double them at each node
      if (r === 1 && ins.every((i) => i.value) && ins.reduce((s, i) => s + i.value.length, 0) <= MAX_VALUES) value = ins.flatMap((i) => i.value);
      return [info(out, et, value)];
    }
    case 'Split': {
      if (!rankKnown) return n.outputs.map(() => info(null, et));
      const a = axisIn(attrInt(n, 'axis', 0), x.length, op);
      const split = v < 13 ? attrInts(n, 'split') : vals(1);
      // Before opset 18, no sizes means equal parts (18 lets the last be smaller).
      if (v < 18 && !(split && split.length) && num(x[a]) && x[a] % n.outputs.length !== 0) throw new RangeError(`Split: ${x[a]} is not ${n.outputs.length} equal parts`);
      const unknown = v >= 13 && n.inputs[1] && !split; // sizes given, their values not known
      if (split && split.length && num(x[a]) && split.every(num) && split.reduce((s, d) => s + d, 0) !== x[a]) throw new RangeError(`Split: the sizes do not sum to ${x[a]}`);
      return n.outputs.map((_, k) => {
        const s = x.slice();
        if (split && split.length) s[a] = split[k];
        else if (num(x[a]) && !unknown) {
          const parts = n.outputs.length;
          const each = Math.ceil(x[a] / parts);
          // opset 18's uneven parts: a last part of none (more parts than the dim has) is refused, as onnxruntime does
          if (v >= 18 && x[a] - each * (parts - 1) <= 0) throw new RangeError(`Split: ${x[a]} is not ${parts} parts`);
          s[a] = k < parts - 1 ? each : x[a] - each * (parts - 1);
        } else s[a] = '?';
        return info(s, et);
      });
    }
    case 'Slice':
      return [sliceShape(n, ins, vals, v)];
    case 'Gather': {
      const idx = ins[1] ? ins[1].shape : null;
      if (!rankKnown || idx === null) return [info(null, et)];
      const a = axisIn(attrInt(n, 'axis', 0), x.length, op);
      const out = [...x.slice(0, a), ...idx, ...x.slice(a + 1)];
      let value = null;
      const data = ins[0].value;
      const iv = vals(1);
      if (data && iv && x.length === 1) value = iv.map((i) => data[i < 0 ? i + data.length : i] ?? '?');
      return [info(out, et, value)];
    }
    case 'GatherElements':
      return [info(ins[1] ? ins[1].shape : null, et)];
    case 'ConstantOfShape': {
      // shape arithmetic may give a negative: no dim; an input of a known length whose values are not known: that many unknown dims
      const len = ins[0] && ins[0].shape && ins[0].shape.length === 1 && num(ins[0].shape[0]) && ins[0].shape[0] <= MAX_VALUES ? ins[0].shape[0] : null;
      const s = vals(0)?.map((d) => (num(d) && d < 0 ? '?' : d)) ?? (len === null ? null : new Array(len).fill('?'));
      const t = attr(n, 'value');
      return [info(s ? s.slice() : null, t && t.t ? t.t.dataType : 1, s && s.length === 1 && num(s[0]) && s[0] <= MAX_VALUES && t && t.t ? new Array(s[0]).fill(tensorValues(t.t, bytes)?.[0] ?? 0) : null)];
    }
    case 'Range': {
      const [s, l, d] = [vals(0), vals(1), vals(2)];
      if (s && l && d && num(s[0]) && num(l[0]) && num(d[0]) && d[0] !== 0) {
        const len = Math.max(Math.ceil((l[0] - s[0]) / d[0]), 0);
        return [info([len], et, len <= MAX_VALUES && Number.isInteger(s[0]) && Number.isInteger(d[0]) ? Array.from({ length: len }, (_, i) => s[0] + i * d[0]) : null)];
      }
      return [info(['?'], et)];
    }
    case 'Tile': {
      const rep = vals(1);
      if (!rankKnown) return [info(null, et)];
      const len = rep ? rep.length : ins[1] && ins[1].shape && ins[1].shape.length === 1 ? ins[1].shape[0] : '?';
      if (num(len) && len !== x.length) throw new RangeError(`Tile: ${len} repeats for rank ${x.length}`);
      return [info(rep ? x.map((d, i) => mulDims(d, rep[i])) : x.map(() => '?'), et)];
    }
    case 'Pad': {
      const pads = v < 11 ? attrInts(n, 'pads') ?? attrInts(n, 'paddings') : vals(1);
      if (!rankKnown) return [info(null, et)];
      if (!pads) return [info(x.map(() => '?'), et)];
      const axesV = v >= 18 && n.inputs[3] ? vals(3) : null;
      if (v >= 18 && n.inputs[3] && !axesV) return [info(x.map(() => '?'), et)]; // axes given, their values not known
      const axes = axesV ? axesV.map((a) => normAxis(a, x.length)) : x.map((_, i) => i);
      const out = x.slice();
      // begin + end first: pads of -1 and 1 keep a name (N - 1 + 1 is N)
      axes.forEach((a, k) => { out[a] = addDims(out[a], addDims(pads[k], pads[k + axes.length])); });
      return [info(out, et)];
    }
    case 'ArgMax':
    case 'ArgMin': {
      if (!rankKnown) return [info(null, 7)];
      const a = axisIn(attrInt(n, 'axis', 0), x.length, op);
      const keep = attrInt(n, 'keepdims', 1) === 1;
      return [info(keep ? x.map((d, i) => (i === a ? 1 : d)) : x.filter((_, i) => i !== a), 7)];
    }
    case 'TopK': {
      if (!rankKnown) return [info(null, et), info(null, 7)];
      const a = axisIn(attrInt(n, 'axis', -1), x.length, op);
      const k = v < 10 ? attrInt(n, 'k', '?') : vals(1)?.[0] ?? '?';
      if (num(k) && num(x[a]) && k > x[a]) throw new RangeError(`TopK: k ${k} is past the axis's ${x[a]}`);
      const s = x.map((d, i) => (i === a ? k : d));
      return [info(s, et), info(s, 7)];
    }
    case 'Conv':
    case 'ConvInteger':
    case 'QLinearConv':
    case 'ConvTranspose':
    case 'MaxPool':
    case 'AveragePool':
    case 'LpPool':
      return windowShapes(n, ins, op);
    case 'GlobalAveragePool':
    case 'GlobalMaxPool':
    case 'GlobalLpPool':
      return [info(rankKnown ? x.map((d, i) => (i < 2 ? d : 1)) : null, et)];
    case 'Resize':
    case 'Upsample':
      return [resizeShape(n, ins, vals, v)];
    case 'DepthToSpace':
    case 'SpaceToDepth': {
      if (!rankKnown || x.length !== 4) return [info(null, et)];
      const b = attrInt(n, 'blocksize', 1);
      const [N, C, H, W] = x;
      const f = (d, m) => (num(d) ? (op === 'DepthToSpace' ? d * m : d / m) : '?');
      return [info(op === 'DepthToSpace' ? [N, num(C) ? C / (b * b) : '?', f(H, b), f(W, b)] : [N, num(C) ? C * b * b : '?', f(H, b), f(W, b)], et)];
    }
    case 'NonZero':
      return [info(rankKnown ? [x.length, '?'] : [ '?', '?'], 7)];
    case 'SequenceAt':
    case 'OptionalGetElement': // an optional's element; opset 18's tensor input: itself
      return [ins[0] && ins[0].elem ? ins[0].elem : info(op === 'SequenceAt' ? null : x, et)];
    case 'Optional': // an empty one: its `type`
      return [holding(ins[0] ?? (attr(n, 'type')?.tp ? fromType(attr(n, 'type').tp) : null))];
    case 'SequenceEmpty': // no elements: what is inserted is what it holds
      return [holding({ ...info(null, attrInt(n, 'dtype', 1)), empty: true })];
    case 'SequenceConstruct':
      return [holding(ins.reduce((a, b) => union(a, b)))];
    case 'SequenceInsert': // the elements it holds and the one inserted: the dims they agree on
      return [holding(ins[0] && ins[0].elem && ins[1] ? union(ins[0].elem, ins[1]) : null)];
    case 'SequenceErase':
      return [holding(ins[0] ? ins[0].elem : null)];
    case 'SequenceLength':
      return [info([], 7)];
    case 'SplitToSequence': {
      if (!rankKnown) return [holding(info(null, et))];
      const a = axisIn(attrInt(n, 'axis', 0), x.length, op);
      const split = n.inputs[1] ? vals(1) : null;
      const d = x[a];
      let part = '?'; // the elements' dim at the axis: the parts' size where all are one size
      if (!n.inputs[1]) return [holding(info(attrInt(n, 'keepdims', 1) === 1 ? x.map((e, i) => (i === a ? 1 : e)) : x.filter((_, i) => i !== a), et))];
      if (split && ins[1].shape?.length === 0) { // a scalar: parts of that size, the last the rest
        if (!(split[0] > 0)) throw new RangeError(`SplitToSequence: a split of ${split[0]}`);
        part = num(d) && d <= split[0] ? d : num(d) && d % split[0] === 0 ? split[0] : '?';
      } else if (split) {
        if (num(d) && split.every(num) && split.reduce((t, e) => t + e, 0) !== d) throw new RangeError(`SplitToSequence: the sizes do not sum to ${d}`);
        part = split.every((e) => e === split[0]) ? split[0] : '?';
      }
      return [holding(info(x.map((e, i) => (i === a ? part : e)), et))];
    }
    case 'ConcatFromSequence': { // the elements joined at axis (or stacked on a new one): how many is not known
      const e = ins[0] && ins[0].elem ? ins[0].elem.shape : null;
      if (e === null) return [info(null, ins[0]?.elem?.elemType ?? 0)];
      const stack = attrInt(n, 'new_axis', 0) === 1;
      const a = axisIn(attrInt(n, 'axis', 0), e.length + (stack ? 1 : 0), op);
      const out = e.slice();
      out.splice(a, stack ? 0 : 1, '?');
      return [info(out, ins[0].elem.elemType)];
    }
    case 'LSTM':
    case 'GRU':
    case 'RNN': {
      if (!rankKnown || x.length !== 3) return n.outputs.map(() => info(null, et));
      const layout = attrInt(n, 'layout', 0);
      const dirs = attrStr(n, 'direction', 'forward') === 'bidirectional' ? 2 : 1;
      const hidden = attrInt(n, 'hidden_size', '?');
      const [seq, batch] = layout === 0 ? [x[0], x[1]] : [x[1], x[0]];
      const Y = layout === 0 ? [seq, dirs, batch, hidden] : [batch, seq, dirs, hidden];
      const H = layout === 0 ? [dirs, batch, hidden] : [batch, dirs, hidden];
      return n.outputs.map((_, k) => info(k === 0 ? Y : H, et));
    }
    default:
      if (MORE.has(op)) return moreShapes(n, op, ins, vals, v);
      if (REDUCE.has(op)) {
        if (!rankKnown) return [info(null, et)];
        const fromInput = op === 'ReduceSum' ? v >= 13 : v >= 18;
        const axes = fromInput ? (n.inputs.length > 1 && n.inputs[1] !== '' ? vals(1) : []) : attrInts(n, 'axes') ?? [];
        if (axes === null) return [info(attrInt(n, 'keepdims', 1) === 1 ? x.map(() => '?') : null, et)];
        const keep = attrInt(n, 'keepdims', 1) === 1;
        if (axes.length === 0 && fromInput && attrInt(n, 'noop_with_empty_axes', 0) === 1) return [info(x, et)];
        const set = axes.length ? axesIn(axes, x.length, op) : new Set(x.map((_, i) => i));
        return [info(keep ? x.map((d, i) => (set.has(i) ? 1 : d)) : x.filter((_, i) => !set.has(i)), et)];
      }
      return null;
  }
}

function sliceShape(n, ins, vals, v) {
  const x = ins[0] ? ins[0].shape : null;
  const et = ins[0] ? ins[0].elemType : 0;
  if (x === null) return info(null, et);
  let starts;
  let ends;
  let axes;
  let steps;
  if (v < 10) {
    starts = attrInts(n, 'starts');
    ends = attrInts(n, 'ends');
    axes = attrInts(n, 'axes');
    steps = null;
  } else {
    starts = vals(1);
    ends = vals(2);
    axes = n.inputs.length > 3 && n.inputs[3] !== '' ? vals(3) : undefined;
    steps = n.inputs.length > 4 && n.inputs[4] !== '' ? vals(4) : undefined;
    if (axes === null || steps === null) return info(x.map(() => '?'), et);
  }
  if (!starts || !ends) return info(x.map(() => '?'), et);
  const ax = axes && axes.length ? [...axesIn(axes, x.length, 'Slice')] : starts.map((_, i) => i);
  const out = x.slice();
  let value = ins[0].value && x.length === 1 ? ins[0].value.slice() : null;
  ax.forEach((a, k) => {
    const st = steps ? steps[k] : 1;
    const d = x[a];
    if (!num(d)) {
      out[a] = starts[k] === 0 && st === 1 && ends[k] >= INT_BIG / 4 ? d : '?';
      if (out[a] !== d) value = null;
      return;
    }
    const clamp = (p, lo, hi) => Math.min(Math.max(p, lo), hi);
    let s = starts[k] < 0 ? starts[k] + d : starts[k];
    let e = ends[k] < 0 ? ends[k] + d : ends[k];
    if (st > 0) {
      s = clamp(s, 0, d);
      e = clamp(e, 0, d);
      out[a] = Math.max(0, Math.ceil((e - s) / st));
    } else {
      s = clamp(s, 0, d - 1); // the spec's clamping (not Python's): a start below -d still keeps element 0
      e = clamp(e, -1, d - 1);
      out[a] = Math.max(0, Math.ceil((s - e) / -st));
    }
    if (value && a === 0) {
      const vv = [];
      for (let i = s, c = 0; c < out[a]; i += st, c++) vv.push(value[i]);
      value = vv;
    }
  });
  return info(out, et, value);
}

/**
 * The strides a window takes past its first position over `span` (input and
 * pads less the window): floor(span / s); a window wider than the padded
 * input by less than a stride takes none but still makes one output, as
 * onnx's inference and onnxruntime divide (toward zero) and give.
 */
const steps = (span, s) => (span < 0 && span > -s ? 0 : Math.floor(span / s));

function windowShapes(n, ins, op) {
  const last = attrInt(n, 'channels_last', 0) === 1; // com.microsoft's QLinearConv: x and y are [N, D..., C]
  let x = ins[0] ? ins[0].shape : null;
  if (last && x) x = [x[0], x[x.length - 1], ...x.slice(1, -1)];
  const et = ins[0] ? ins[0].elemType : 0;
  const w = ins[1] ? ins[1].shape : null;
  const conv = op.startsWith('Conv') || op === 'QLinearConv';
  const wIn = op === 'QLinearConv' ? (ins[3] ? ins[3].shape : null) : w;
  if (x === null) return n.outputs.map(() => info(null, et));
  const sp = x.length - 2;
  const kernel = attrInts(n, 'kernel_shape')?.length ? attrInts(n, 'kernel_shape') : conv && wIn ? wIn.slice(2) : null;
  const strides = attrInts(n, 'strides')?.length ? attrInts(n, 'strides') : new Array(sp).fill(1);
  const dil = attrInts(n, 'dilations')?.length ? attrInts(n, 'dilations') : new Array(sp).fill(1);
  const pads = attrInts(n, 'pads')?.length ? attrInts(n, 'pads') : new Array(2 * sp).fill(0);
  const autoPad = attrStr(n, 'auto_pad', 'NOTSET');
  const ceil = attrInt(n, 'ceil_mode', 0) === 1;
  const group = attrInt(n, 'group', 1);
  let C = x[1];
  if (conv) C = op === 'ConvTranspose' ? (wIn ? mulDims(wIn[1], group) : '?') : wIn ? wIn[0] : '?';
  const out = [x[0], C];
  const given = attrInts(n, 'output_shape');
  for (let i = 0; i < sp; i++) {
    const d = x[i + 2];
    if (op === 'ConvTranspose' && given && given.length) { out.push(given[given.length - sp + i]); continue; }
    if (kernel === null || !num(kernel[i])) { out.push('?'); continue; }
    const k = (kernel[i] - 1) * dil[i] + 1;
    if (!num(d)) {
      // A name survives a window that keeps the size: stride 1 with 'same' padding.
      const same = autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER' || (autoPad === 'NOTSET' && pads[i] + pads[i + sp] === k - 1);
      out.push(op !== 'ConvTranspose' && strides[i] === 1 && same && !ceil ? d : '?');
      continue;
    }
    if (op === 'ConvTranspose') {
      const op2 = attrInts(n, 'output_padding')?.[i] ?? 0;
      const full = strides[i] * (d - 1) + op2 + k; // no padding
      // SAME pads to d × stride; pads are never negative, so a kernel (and output_padding) short of the stride gives less, as onnxruntime makes it
      if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') out.push(Math.min(d * strides[i], full));
      else out.push(full - (autoPad === 'VALID' ? 0 : pads[i] + pads[i + sp]));
      continue;
    }
    if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') out.push(Math.ceil(d / strides[i]));
    else if (autoPad === 'VALID') out.push(steps(d - k, strides[i]) + 1);
    else {
      const span = d + pads[i] + pads[i + sp] - k;
      let o = (ceil ? Math.ceil(span / strides[i]) : steps(span, strides[i])) + 1;
      if (ceil && (o - 1) * strides[i] >= d + pads[i]) o--; // the last window must start inside the input
      out.push(o);
    }
  }
  if (last) out.push(out.splice(1, 1)[0]);
  const outs = [info(out, op === 'ConvInteger' ? 6 : et)];
  if (n.outputs.length > 1) outs.push(info(out, 7)); // MaxPool's indices
  return outs;
}

/**
 * Resize's sizes under keep_aspect_ratio_policy (opset 18): one scale for the given axes, the least
 * (not_larger) or greatest (not_smaller) of sizes[i] / x[axes[i]], each dim times it rounded half up.
 * The ratios are compared, and the products rounded, as fractions: exact, as the spec states them.
 */
function keptRatio(x, ax, sizes, policy) {
  if (policy !== 'not_larger' && policy !== 'not_smaller') throw new RangeError(`Resize: no policy ${policy}`);
  const out = x.slice();
  if (!ax.every((a) => num(x[a]) && x[a] > 0) || !sizes.every(num)) {
    for (const a of ax) out[a] = '?'; // the scale depends on every dim given
    return out;
  }
  let best = 0; // the index whose ratio is the scale
  ax.forEach((a, k) => {
    const diff = sizes[k] * x[ax[best]] - sizes[best] * x[a]; // sizes[k] / x[a] - sizes[best] / x[ax[best]], scaled
    if (policy === 'not_larger' ? diff < 0 : diff > 0) best = k;
  });
  const [s, d] = [sizes[best], x[ax[best]]];
  for (const a of ax) out[a] = Math.floor((2 * s * x[a] + d) / (2 * d)); // round(s * x[a] / d), halves up
  return out;
}

function resizeShape(n, ins, vals, v) {
  const x = ins[0] ? ins[0].shape : null;
  const et = ins[0] ? ins[0].elemType : 0;
  if (x === null) return info(null, et);
  let scales = null;
  let sizes = null;
  if (n.opType === 'Upsample') scales = v < 9 ? attr(n, 'scales')?.floats : null;
  else if (v < 11) scales = null;
  else {
    sizes = n.inputs.length > 3 && n.inputs[3] !== '' ? vals(3) : null;
    if (!sizes && n.inputs.length > 2 && n.inputs[2] !== '') scales = vals(2);
  }
  if (n.opType === 'Upsample' && v >= 9) scales = vals(1);
  if (n.opType === 'Resize' && v < 11) scales = vals(1);
  const axes = attrInts(n, 'axes');
  const ax = axes && axes.length ? axes.map((a) => normAxis(a, x.length)) : x.map((_, i) => i);
  const out = x.slice();
  const policy = v >= 18 && sizes ? attrStr(n, 'keep_aspect_ratio_policy', 'stretch') : 'stretch';
  if (sizes && sizes.length === ax.length && policy !== 'stretch') return info(keptRatio(x, ax, sizes, policy), et);
  if (sizes && sizes.length === ax.length) ax.forEach((a, k) => { out[a] = sizes[k]; });
  else if (scales && scales.length === ax.length) ax.forEach((a, k) => { out[a] = num(x[a]) ? Math.floor(x[a] * scales[k]) : scales[k] === 1 ? x[a] : '?'; });
  else return info(x.map(() => '?'), et);
  return info(out, et);
}

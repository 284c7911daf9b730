// inferShapes() for ONNX models: shapes flow from the graph inputs and the
// initializers through each node in order; every broadcasting node is checked
// by the engine's rule for its op and opset (symbolic.js puts symbols back),
// and reported. Small integer tensors (Shape → Gather → Concat → Reshape)
// carry their values, so Reshape, Expand, Slice, Tile... get their shapes.
// An op without a shape function takes the shape the file declares.
import { BroadcastError } from './errors.js';
import { readOnnx, tensorValues, MAX_VALUES } from './onnx-read.js';
import { Symbols, nodePlan, isSymbol, requestOf } from './symbolic.js';
import { isDimValue } from './shapes.js';

const num = (d) => typeof d === 'number';
const INT_BIG = 2 ** 53;
/** A dim a shape may hold: a count (0 to 2^53 - 1, as the library's own shapes), a name, '?'. */
const isDim = (d) => (num(d) ? isDimValue(d) : typeof d === 'string' && d !== '' && d.trim() === d);
const describeDim = (d) => (typeof d === 'string' ? JSON.stringify(d) : String(d));

// ---- dims arithmetic ------------------------------------------------------------

function mulDims(a, b) {
  if (num(a) && num(b)) return a * b;
  if (a === 1) return b;
  if (b === 1) return a;
  if (a === 0 || b === 0) return 0;
  return '?';
}

function addDims(a, b) {
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

// ---- a graph's values -----------------------------------------------------------

/** What is known of a tensor: its shape (null: unknown rank), element type, and (small ints) values; `elem`: a sequence's element. */
function info(shape, elemType = 0, value = null, lostAt = null) {
  return { shape, elemType, value, lostAt, elem: null };
}

/** The info of a declared type: a tensor's shape, or a sequence (optional) of them. */
function fromType(t) {
  if (t.kind === 'tensor') return info(t.shape ? t.shape.slice() : null, t.elemType);
  const v = info(null);
  if ((t.kind === 'sequence' || t.kind === 'optional') && t.elem) v.elem = fromType(t.elem);
  return v;
}

const UNKNOWN = info(null);

class Scope {
  constructor(parent) {
    this.parent = parent;
    this.map = new Map();
  }

  get(name) {
    if (name === '') return null; // an omitted optional input
    for (let s = this; s; s = s.parent) {
      const v = s.map.get(name);
      if (v !== undefined) return v;
    }
    return UNKNOWN;
  }

  set(name, v) {
    if (name !== '') this.map.set(name, v);
  }
}

// ---- the op types -------------------------------------------------------------

// Outputs with the shape of input 0.
const SAME = new Set(('Abs Acos Acosh Asin Asinh Atan Atanh Bernoulli Ceil Celu Clip Cos Cosh CumSum ' +
  'DequantizeLinear Dropout Elu Erf Exp Floor Gelu HardSigmoid HardSwish Hardmax InstanceNormalization IsInf IsNaN ' +
  'LeakyRelu Log LogSoftmax LpNormalization LRN MeanVarianceNormalization Mish Neg Not ' +
  'QuantizeLinear RandomNormalLike RandomUniformLike Reciprocal Relu Round Selu Shrink Sigmoid Sign Sin Sinh Softmax Softplus ' +
  'Softsign Sqrt Tan Tanh ThresholdedRelu Trilu BitwiseNot ScatterElements ScatterND Scatter ReverseSequence ' +
  'SimplifiedLayerNormalization SkipLayerNormalization FastGelu BiasGelu QuickGelu EyeLike').split(' '));
// Same shape and, for small integer tensors, the same values (a cast to an integer type truncates them).
const PASS = new Set(['Identity', 'Cast', 'CastLike']);
const INTEGER = new Set([2, 3, 4, 5, 6, 7, 9, 12, 13]); // ONNX's integer element types, bool (9) among them
const FLOAT = new Set([1, 10, 11, 16]);
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
const BINARY = new Set(['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Equal', 'Greater', 'Less', 'And', 'Or', 'Xor']);
const BINARY_NEW = new Set(['GreaterOrEqual', 'LessOrEqual', 'BitShift', 'Mod', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor']);
const VARIADIC = new Set(['Sum', 'Max', 'Min', 'Mean']);
const REDUCE = new Set(['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2',
  'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare']);

/** True for the op types whose nodes are reported (they broadcast). */
export function broadcasts(op) {
  return BINARY.has(op) || BINARY_NEW.has(op) || VARIADIC.has(op) || op === 'Where' || op === 'PRelu' || op === 'Expand' ||
    op === 'Gemm' || op === 'MatMul' || op === 'MatMulInteger' || op === 'QLinearMatMul' || op === 'Einsum';
}

function attr(n, name) {
  return n.attrs.get(name);
}
function attrInt(n, name, def) {
  const a = attr(n, name);
  return a && a.i !== undefined ? a.i : def;
}
function attrInts(n, name) {
  const a = attr(n, name);
  return a ? a.ints : null;
}
function attrStr(n, name, def) {
  const a = attr(n, name);
  return a && a.s !== undefined ? a.s : def;
}

const normAxis = (a, r) => (a < 0 ? a + r : a);
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
  'BlackmanWindow MelWeightMatrix Compress Det RoiAlign DFT STFT OptionalHasElement').split(' '));
// The optimisers of ai.onnx.preview.training. Their inputs after R and T are groups of n: X, its
// gradient G, then the states (Adagrad H; Adam V, H; Momentum V); their outputs are X and the states,
// new: each output group's input group.
const OPTIMISERS = { Adagrad: [0, 2], Adam: [0, 2, 3], Momentum: [0, 2] };

/**
 * The outputs of an op of MORE: `ins` its inputs' infos, `vals(k)` input k's values (or null).
 * Dims it cannot know are '?'; null where not even the rank is known.
 */
function moreShapes(n, op, ins, vals) {
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
    case 'DFT': { // along axis (default 1; an input from opset 20): dft_length (or the axis), half of it + 1 when onesided; last dim 2
      if (!x) return [info(null, et)];
      const a = normAxis(attrInt(n, 'axis', 1), x.length);
      const given = n.inputs[1] ? scalar(1) : x[a];
      const len = attrInt(n, 'inverse', 0) === 0 && attrInt(n, 'onesided', 0) === 1 ? (num(given) ? Math.floor(given / 2) + 1 : '?') : given;
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
function einsumPlan(equation, shapes, where, same) {
  const eq = equation.replace(/\s+/g, '');
  const [lhs, rhs] = eq.split('->');
  const terms = lhs.split(',').map((t) => t.replace('...', '.'));
  if (terms.length !== shapes.length || terms.some((t) => /[^.A-Za-z]/.test(t))) return null;
  const letters = [...new Set(terms.join('').replace(/\./g, ''))];
  const rows = [];
  for (let k = 0; k < terms.length; k++) {
    const t = terms[k];
    const s = shapes[k];
    const count = t.replace('.', '').length; // its letters
    const e = s.length - count; // the ellipsis's dims
    if (e < 0 || (e > 0 && !t.includes('.'))) {
      return new BroadcastError(`Einsum at ${where}: input ${k} has rank ${s.length}; its term '${t.replace('.', '...')}' has ${count} letters`,
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
  }
  const out = rhs ?? `${lhs.includes('...') ? '.' : ''}${letters.filter((c) => lhs.split(c).length === 2).sort().join('')}`;
  const L = letters.length;
  return {
    shapes: rows,
    rule: `numpy over [ellipsis, ${letters.join(' ')}] (Einsum)`,
    wrap: (m) => [...out.replace('...', '.')].flatMap((c) => (c === '.' ? m.slice(0, m.length - L) : [letters.includes(c) ? m[m.length - L + letters.indexOf(c)] : '?'])),
  };
}

/** A broadcasting node's report before its rule runs: where it is, its inputs as known, status 'ok'. */
function nodeReport(n, index, ins, graphName) {
  return {
    graph: graphName, index, name: n.name || null, opType: n.opType, rule: 'numpy',
    inputs: n.inputs.map((name, k) => ({ name, shape: ins[k] ? ins[k].shape : null })),
    output: { name: n.outputs[0], shape: null },
    status: 'ok',
  };
}

// ---- the model walk -------------------------------------------------------------

class Run {
  constructor(model, bytes) {
    this.model = model;
    this.bytes = bytes;
    this.syms = new Symbols();
    this.nodes = [];
    this.coverage = { nodes: 0, inferred: 0, declared: 0, unknownOps: new Set() };
    this.walked = new Set();
    this.functions = new Map((model.functions ?? []).map((f) => [`${f.domain}:${f.name}`, f]));
    this.active = new Set(); // the functions being walked (a recursive call is not followed)
    this.fnOpsets = null;
  }

  opset(domain = '') {
    return (this.fnOpsets ?? this.model.opsets)[domain === 'ai.onnx' ? '' : domain] ?? this.model.opsets[domain] ?? 1;
  }

  /**
   * A call of a model-local function: its body walked in a scope of its own
   * (the call's inputs under the function's input names; attribute references
   * resolved against the call's attributes or the function's defaults; the
   * function's opsets), its broadcasting nodes reported under the graph
   * `<graph>/<call>`; the outputs are the body's. null for a recursive call.
   */
  callFunction(fn, n, ins, graphName, where) {
    const key = `${fn.domain}:${fn.name}`;
    if (this.active.has(key)) return null;
    const inner = new Scope(null);
    fn.inputs.forEach((name, k) => { if (ins[k]) inner.set(name, ins[k]); });
    const nodes = fn.nodes.map((b) => {
      const attrs = new Map();
      for (const [name, a] of b.attrs) {
        if (a.ref === undefined) { attrs.set(name, a); continue; }
        const given = n.attrs.get(a.ref) ?? fn.defaults.get(a.ref);
        if (given) attrs.set(name, { ...given, name });
      }
      return { ...b, attrs };
    });
    const saved = this.fnOpsets;
    this.active.add(key);
    this.fnOpsets = { ...this.model.opsets, ...fn.opsets };
    try {
      this.graph({ nodes, initializers: [], inputs: [], outputs: [], valueInfo: [] }, inner, `${graphName}/${where}`);
    } finally {
      this.fnOpsets = saved;
      this.active.delete(key);
    }
    return fn.outputs.map((o) => inner.get(o));
  }

  /** Values of an input: the small integer values known for it, or null. */
  values(scope, name) {
    const v = scope.get(name);
    return v && v.value ? v.value : null;
  }

  /** Walk graph `g` in `scope`; `seed`: what the caller knows of its inputs (a Loop's body), used where the body declares no shape. */
  graph(g, scope, graphName, seed = []) {
    this.walked.add(g);
    // options.tensors: the main graph's values by name; a subgraph's (or a function call's) in a table
    // of its own under its node reports' graph, as sibling branches may name values alike. Maps: a
    // name such as '__proto__' is a name like any other (an object's would reach Object.prototype).
    let table = this.tensors;
    if (table && g !== this.model.graph) {
      if (!this.subgraphTensors.has(graphName)) this.subgraphTensors.set(graphName, new Map());
      table = this.subgraphTensors.get(graphName);
    }
    const declared = new Map();
    for (const v of [...g.valueInfo, ...g.outputs]) {
      if (v.type.kind === 'tensor' && (v.type.shape || !declared.has(v.name))) declared.set(v.name, v.type);
    }
    for (const t of g.initializers) {
      const value = t.dims.length <= 1 ? tensorValues(t, this.bytes) : null;
      scope.set(t.name, info(t.dims.slice(), t.dataType, value && value.every(Number.isFinite) ? value : null));
    }
    g.inputs.forEach((v, k) => {
      if (scope.map.has(v.name) && g.initializers.some((t) => t.name === v.name)) {
        // An initializer's default, which the caller may replace: the shape the input declares, the values only where it is theirs.
        const d = fromType(v.type);
        const t = scope.get(v.name);
        if (d.shape !== null && !(d.shape.length === t.shape.length && d.shape.every((x, i) => x === t.shape[i]))) scope.set(v.name, info(d.shape, t.elemType, null));
        return;
      }
      const d = fromType(v.type);
      scope.set(v.name, d.shape === null && d.elem === null && seed[k] ? seed[k] : d);
    });
    g.nodes.forEach((n, index) => this.node(n, index, scope, graphName, declared, table));
  }

  node(n, index, scope, graphName, declared, table) {
    this.coverage.nodes++;
    const where = n.name || `${n.opType}_${index}`;
    const ins = n.inputs.map((x) => scope.get(x));
    let outs = null;
    const reported = this.nodes.length;
    try {
      const fn = this.functions.get(`${n.domain}:${n.opType}`);
      if (fn) outs = this.callFunction(fn, n, ins, graphName, where);
      else if (n.domain !== '' && n.domain !== 'ai.onnx' && n.domain !== 'com.microsoft' && !(n.domain === 'ai.onnx.preview.training' && OPTIMISERS[n.opType])) outs = null;
      else if (broadcasts(n.opType)) outs = this.broadcastNode(n, index, ins, scope, graphName, where, declared);
      else {
        outs = this.shapeOf(n, ins, scope, graphName, where);
        // A malformed node (a perm past the rank, two -1s in a Reshape's target, a Slice step of 0,
        // a Split that does not divide) makes a dim that counts nothing: its outputs are unknown from
        // here (lost at this node), not passed on for the next node to be blamed for.
        const dims = outs ? outs.flatMap((o) => (o && o.shape ? o.shape : [])) : [];
        const bad = dims.findIndex((d) => !isDim(d));
        if (bad >= 0) throw new RangeError(`${n.opType} makes a dim of ${describeDim(dims[bad])}`);
      }
    } catch (e) {
      // A readable file whose values make no sense (a shape input of 10^12
      // elements, ...): this node's outputs are unknown, and a broadcasting node
      // is reported so; the walk goes on.
      this.nodes.length = reported;
      if (broadcasts(n.opType)) {
        this.nodes.push({
          ...nodeReport(n, index, ins, graphName), status: 'unknown', lostAt: where,
          error: { name: e?.name ?? 'Error', code: null, message: `${where}: ${String(e?.message ?? e)}`, shapes: [], axis: null, dims: null },
        });
      }
      outs = n.outputs.map(() => info(null, 0, null, where));
    }
    if (outs === null) {
      // an op without a shape function: its subgraphs are still walked (their nodes are reported)
      for (const a of n.attrs.values()) {
        for (const sg of a.g ? [a.g] : a.graphs) if (!this.walked.has(sg)) this.graph(sg, new Scope(scope), sg.name || `${graphName}/${where}.${a.name}`);
      }
      this.coverage.unknownOps.add(n.domain && n.domain !== 'ai.onnx' ? `${n.domain}.${n.opType}` : n.opType);
      const got = n.outputs.map((o) => declared.get(o));
      if (got.some((t) => t && t.shape)) this.coverage.declared++;
      outs = n.outputs.map((o, k) => (got[k] && got[k].shape ? info(got[k].shape.slice(), got[k].elemType) : info(null, 0, null, where)));
    } else {
      this.coverage.inferred++;
    }
    n.outputs.forEach((o, k) => {
      let v = outs[k] ?? info(null, 0, null, where);
      // What the ops cannot know (an unknown rank, a '?'), the file may declare; a name it
      // declares as a number is that number (a constraint on the name, as at a broadcasting node).
      const d = declared.get(o);
      if (d && d.shape) {
        if (v.shape === null) v = { ...v, shape: d.shape.slice(), lostAt: null };
        else if (v.shape.length === d.shape.length) {
          const shape = v.shape.map((x, i) => {
            const w = d.shape[i];
            const holds = x === '?' || (isSymbol(x) && num(w) && !this.declaredNumber(x, w, where, o));
            return holds ? w : x;
          });
          if (shape.some((x, i) => x !== v.shape[i])) v = { ...v, shape };
        }
      }
      if (v.shape === null && v.lostAt === null) {
        const up = ins.find((x) => x && x.shape === null && x.lostAt);
        v.lostAt = up ? up.lostAt : where;
      }
      scope.set(o, v);
      if (table) table.set(o, v.shape);
    });
  }

  // ---- broadcasting nodes ----------------------------------------------------

  broadcastNode(n, index, ins, scope, graphName, where, declared) {
    const op = n.opType;
    const v = this.opset();
    const report = nodeReport(n, index, ins, graphName);
    const since = this.syms.mark(); // the plan lists what this node adds (a MatMul's contraction too), not all that is known of its names
    const outName = n.outputs[0];
    const decl = declared.get(outName);
    if (decl) report.output.declared = decl.shape ? decl.shape.slice() : null;
    let req = null; // the explain() request of the node's rule
    let wrap = (shape) => shape; // the node's output from the plan's shape
    let unknown = false;
    const shapeOfIn = (k) => (ins[k] ? ins[k].shape : null);
    const elemType = ins[0] ? ins[0].elemType : 0;
    if (BINARY.has(op) || BINARY_NEW.has(op)) {
      const [a, b] = [shapeOfIn(0), shapeOfIn(1)];
      unknown = a === null || b === null;
      if (v < 7 && BINARY.has(op)) {
        if (attrInt(n, 'broadcast', 0) === 1) {
          const axis = attr(n, 'axis') ? attrInt(n, 'axis', -1) : -1;
          req = { rule: 'pdpd', shapes: [a, b], axis };
          report.rule = axis === -1 ? 'pdpd' : `pdpd(axis=${axis})`;
          // The legacy broadcast takes B as a contiguous part of A's shape ("1-dim expansion doesn't work
          // yet"; Caffe2 strips B's outer 1s): a 1 inside B may not stretch where PDPD would let it.
          if (!unknown) {
            const [first, last] = [b.findIndex((d) => d !== 1), b.findLastIndex((d) => d !== 1)];
            const start = axis === -1 ? a.length - b.length : axis; // where B's axis 0 lies in A
            const i = b.findIndex((d, k) => k > first && k < last && d === 1 && num(a[start + k]) && a[start + k] !== 1);
            if (i >= 0) {
              return this.clash(report, new BroadcastError(`${op} at ${where} (opset ${v}, broadcast=1): B's 1 at axis ${i} meets ${a[start + i]}; before opset 7 B is a contiguous part of A's shape and a 1 inside it does not stretch`,
                { code: 'INCOMPATIBLE_DIMS', shapes: [a, b], axis: start + i, dims: [a[start + i], 1] }), decl, where);
            }
          }
        } else {
          req = { rule: 'none', shapes: [a, b] };
          report.rule = 'none';
        }
      } else {
        req = { rule: 'numpy', shapes: [a, b] };
      }
    } else if (VARIADIC.has(op)) {
      const shapes = n.inputs.map((_, k) => shapeOfIn(k));
      unknown = shapes.some((s) => s === null);
      if (v < 8) {
        report.rule = 'none';
        req = shapes.length === 1 ? { rule: 'numpy', shapes } : { rule: 'none', shapes, chain: true };
      } else {
        req = { rule: 'numpy', shapes };
      }
    } else if (op === 'Where') {
      const shapes = [0, 1, 2].map(shapeOfIn);
      unknown = shapes.some((s) => s === null);
      req = { rule: 'numpy', shapes };
    } else if (op === 'PRelu') {
      const [x, slope] = [shapeOfIn(0), shapeOfIn(1)];
      unknown = x === null || slope === null;
      if (v < 7) {
        // PRelu-1/6: one slope per channel (axis 1), or one for all
        if (slope && slope.length === 1) {
          req = { rule: 'broadcastTo', shapes: [slope, x], mode: 'explicit', axesMapping: [1] };
          report.rule = 'broadcastTo explicit [1] (per channel)';
          if (slope[0] === 1 || (x && x.length < 2)) {
            req = { rule: 'broadcastTo', shapes: [slope, x], mode: 'numpy' };
            report.rule = 'broadcastTo numpy';
          }
        } else {
          req = { rule: 'none', shapes: [slope, x] };
          report.rule = 'none';
        }
      } else {
        req = { rule: 'broadcastTo', shapes: [slope, x], mode: 'numpy' };
        report.rule = 'broadcastTo numpy (slope to X)';
      }
      wrap = () => x;
    } else if (op === 'Expand') {
      const x = shapeOfIn(0);
      const target = this.values(scope, n.inputs[1]);
      if (x !== null && target === null && decl && decl.shape) {
        // The target's values are not known; the output the file declares is
        // what Expand gives: x must broadcast with it to itself.
        req = { rule: 'numpy', shapes: [x, decl.shape] };
        report.rule = 'bidirectional (to the declared output)';
        report.inputs[1] = { name: n.inputs[1], shape: decl.shape, values: true, declared: true };
      } else if (x !== null && target === null && ins[1] && ins[1].shape && num(ins[1].shape[0])) {
        // the target's length is known, its values are not
        const r = Math.max(x.length, ins[1].shape[0]);
        report.rule = 'bidirectional';
        // a number other than 1 in x is the output's dim there (the target's is 1 or it); the rest unknown
        report.output.shape = Array.from({ length: r }, (_, i) => {
          const d = x[i - r + x.length];
          return num(d) && d !== 1 ? d : '?';
        });
        report.status = 'unknown';
        report.inputs.push({ name: '(shape values)', shape: null });
        this.nodes.push(report);
        return [info(report.output.shape, elemType)];
      }
      if (req === null) {
        unknown = x === null || target === null;
        req = { rule: 'broadcastTo', shapes: [x, target], mode: 'bidirectional' };
        report.rule = 'bidirectional';
        report.inputs[1] = { name: n.inputs[1], shape: target, values: true };
      }
    } else if (op === 'Gemm') {
      const [A, B, C] = [shapeOfIn(0), shapeOfIn(1), n.inputs.length > 2 ? shapeOfIn(2) : undefined];
      unknown = A === null || B === null || C === null;
      if (!unknown) {
        const bad = A.length !== 2 ? ['A', A] : B.length !== 2 ? ['B', B] : null;
        if (bad) { // the spec's A and B are matrices (onnx refuses other ranks)
          return this.clash(report, new BroadcastError(`Gemm at ${where}: ${bad[0]} has rank ${bad[1].length}, not 2`,
            { code: 'RANK_MISMATCH', shapes: [A, B], dims: [bad[1].length, 2] }), decl, where);
        }
        const ta = attrInt(n, 'transA', 0);
        const tb = attrInt(n, 'transB', 0);
        const [M, Ka] = ta ? [A[1], A[0]] : A;
        const [Kb, N] = tb ? [B[1], B[0]] : B;
        const err = this.inner(Ka, Kb, where, [A, B], 'Gemm: A and B do not contract');
        if (err) return this.clash(report, err, decl, where);
        const mn = [M, N];
        if (C === undefined) {
          report.rule = 'matmul';
          report.output.shape = mn;
          this.check(report, decl, where);
          this.nodes.push(report);
          return [info(mn, elemType)];
        }
        req = v < 7 && attrInt(n, 'broadcast', 0) !== 1 ? { rule: 'none', shapes: [C, mn] } : { rule: 'broadcastTo', shapes: [C, mn], mode: 'numpy' };
        report.rule = req.rule === 'none' ? 'none (C equals (M, N))' : 'broadcastTo numpy (C to (M, N))';
        wrap = () => mn;
      }
    } else if (op === 'Einsum') {
      const shapes = n.inputs.map((_, k) => shapeOfIn(k));
      unknown = shapes.some((s) => s === null);
      if (!unknown) {
        const e = einsumPlan(attrStr(n, 'equation', ''), shapes, where, (x, y, what) => this.inner(x, y, where, shapes, what));
        if (e instanceof BroadcastError) return this.clash(report, e, decl, where);
        unknown = e === null;
        if (e !== null) {
          req = { rule: 'numpy', shapes: e.shapes };
          report.rule = e.rule;
          wrap = e.wrap;
        }
      }
    } else {
      // MatMul (and its quantized forms): the batch dims broadcast (numpy), the last two contract.
      const [a, b] = op === 'QLinearMatMul' ? [shapeOfIn(0), shapeOfIn(3)] : [shapeOfIn(0), shapeOfIn(1)];
      unknown = a === null || b === null;
      if (!unknown) {
        if (a.length === 0 || b.length === 0) return this.clash(report, new BroadcastError(`${where}: MatMul needs operands of rank 1 or more, got ${a.length === 0 ? 'a' : 'b'} scalar`, { code: 'RANK_MISMATCH', shapes: [a, b] }), decl, where);
        const a2 = a.length === 1 ? [1, a[0]] : a;
        const b2 = b.length === 1 ? [b[0], 1] : b;
        const err = this.inner(a2[a2.length - 1], b2[b2.length - 2], where, [a, b], 'MatMul: the contracted dims differ');
        if (err) return this.clash(report, err, decl, where);
        req = { rule: 'numpy', shapes: [a2.slice(0, -2), b2.slice(0, -2)] };
        report.rule = 'numpy (batch dims); last two contract';
        wrap = (batch) => [...batch, ...(a.length === 1 ? [] : [a2[a2.length - 2]]), ...(b.length === 1 ? [] : [b2[b2.length - 1]])];
      }
    }
    if (unknown) {
      report.status = 'unknown';
      const lost = ins.find((x) => x && x.shape === null);
      if (lost && lost.lostAt) report.lostAt = lost.lostAt;
      const d = decl && decl.shape ? decl.shape.slice() : null;
      report.output.shape = null;
      this.nodes.push(report);
      return [info(d, elemType, null, d ? null : (report.lostAt ?? where))];
    }
    const plan = nodePlan(req, this.syms, where, since);
    report.plan = plan;
    report.request = requestOf(req);
    if (!plan.ok) {
      return this.clash(report, plan.error, decl, where);
    }
    report.output.shape = wrap(plan.shape);
    this.check(report, decl, where);
    this.nodes.push(report);
    const out = [info(report.output.shape, op === 'Where' ? (ins[1] ? ins[1].elemType : 0) : elemType, this.arith(op, n, scope, report.output.shape, FLOAT.has(elemType)))];
    return out;
  }

  /** The values of Add/Sub/Mul/Div on small integer tensors (shape arithmetic), or null. */
  arith(op, n, scope, shape, float) {
    if (!['Add', 'Sub', 'Mul', 'Div'].includes(op) || shape.length > 1) return null;
    const a = this.values(scope, n.inputs[0]);
    const b = this.values(scope, n.inputs[1]);
    if (a === null || b === null) return null;
    const len = shape.length === 0 ? 1 : shape[0];
    if (!num(len) || len > MAX_VALUES) return null;
    const out = [];
    for (let i = 0; i < len; i++) {
      const x = a.length === 1 ? a[0] : a[i];
      const y = b.length === 1 ? b[0] : b[i];
      if (op === 'Mul') out.push(mulDims(x, y));
      else if (!num(x) || !num(y)) {
        out.push(op === 'Add' ? addDims(x, y) : op === 'Sub' && y === 0 ? x : op === 'Div' && y === 1 ? x : '?');
      } else out.push(op === 'Add' ? x + y : op === 'Sub' ? x - y : y === 0 ? '?' : float ? x / y : Math.trunc(x / y));
    }
    return out;
  }

  /** The contracted dims of a MatMul or Gemm: an error when two numbers differ; two names must be equal. */
  inner(x, y, where, shapes, what) {
    const bad = [x, y].find((d) => num(d) && !isDim(d)); // a dim_value past 2^53 - 1, or negative, as the file has it
    if (bad !== undefined) return new BroadcastError(`${what} at ${where}: ${bad} is no dim (dims are integers from 0 to 2^53-1)`, { code: 'INVALID_SHAPE', shapes, dims: [x, y] });
    if (num(x) && num(y)) {
      if (x === y) return null;
      return new BroadcastError(`${what} at ${where}: ${x} vs ${y}`, { code: 'INCOMPATIBLE_DIMS', shapes, dims: [x, y] });
    }
    let msg = null;
    if (isSymbol(x) && num(y)) msg = this.syms.equal(x, y, where, ` (contracted with ${y} at ${where})`, `${y} at ${where} (contracted)`);
    else if (num(x) && isSymbol(y)) msg = this.syms.equal(y, x, where, ` (contracted with ${x} at ${where})`, `${x} at ${where} (contracted)`);
    else if (isSymbol(x) && isSymbol(y)) msg = this.syms.relate(x, y, 'equal', where); // merged dims ('M|N') as they are
    return msg ? new BroadcastError(msg, { code: 'INCOMPATIBLE_DIMS', shapes, dims: [x, y] }) : null;
  }

  clash(report, error, decl, where) {
    report.status = 'clash';
    report.error = error instanceof BroadcastError ? error.toJSON() : error;
    report.output.shape = null;
    this.nodes.push(report);
    const d = decl && decl.shape ? decl.shape.slice() : null;
    return [info(d, 0, null, d ? null : where)];
  }

  /** Name `x` (or a merged dim), inferred at `where`, is the number `w` that output `out` declares: null, or the contradiction. */
  declaredNumber(x, w, where, out) {
    return this.syms.equal(x, w, where, ` (inferred at ${where}, declared ${w} at ${out})`, `${w} at ${out} (declared)`);
  }

  /** Compare the inferred output with the declared one: a mismatch of numbers or ranks; a declared name meeting a number is a constraint. */
  check(report, decl, where) {
    if (!decl || !decl.shape) return;
    const got = report.output.shape;
    const want = decl.shape;
    if (got.length !== want.length) {
      report.status = 'declared-mismatch';
      report.error = new BroadcastError(`${where}: the output has rank ${got.length}, the file declares rank ${want.length}`,
        { code: 'RANK_MISMATCH', shapes: [got, want] }).toJSON();
      return;
    }
    for (let i = 0; i < got.length; i++) {
      const g = got[i];
      const w = want[i];
      if (g === '?' && w !== '?') got[i] = w; // what the rule cannot know, the file says
      if (num(g) && num(w) && g !== w) {
        report.status = 'declared-mismatch';
        report.error = new BroadcastError(`${where}: output axis ${i} is ${g}, the file declares ${w}`,
          { code: 'SHAPE_MISMATCH', shapes: [got, want], axis: i, dims: [g, w] }).toJSON();
        return;
      }
      if (isSymbol(g) && num(w)) { // the file says what the name is: a constraint, and the number goes on
        const msg = this.declaredNumber(g, w, where, report.output.name);
        if (msg) {
          report.status = 'declared-mismatch';
          report.error = new BroadcastError(msg, { code: 'SHAPE_MISMATCH', shapes: [got, want], axis: i, dims: [g, w] }).toJSON();
          return;
        }
        got[i] = w;
      }
      if (isSymbol(w) && num(g)) {
        const msg = this.syms.restrict(w, new Set([g]), where, ` (declared at ${report.output.name}, inferred ${g} at ${where})`, `${g} at ${where} (declared)`);
        if (msg) {
          report.status = 'declared-mismatch';
          report.error = new BroadcastError(msg, { code: 'SHAPE_MISMATCH', shapes: [got, want], axis: i, dims: [g, w] }).toJSON();
          return;
        }
      }
    }
  }

  // ---- the other ops -------------------------------------------------------------

  /** The outputs of a non-broadcasting node, or null when its op has no shape function. */
  shapeOf(n, ins, scope, graphName, where) {
    const op = n.opType;
    const x = ins[0] ? ins[0].shape : null;
    const et = ins[0] ? ins[0].elemType : 0;
    const vals = (k) => (k < n.inputs.length ? this.values(scope, n.inputs[k]) : null);
    const v = this.opset();
    const rankKnown = x !== null;
    if ((op === 'Neg' || op === 'Abs') && ins[0] && ins[0].value) { // shape arithmetic: a name is not negative
      return [info(x, et, ins[0].value.map((d) => (num(d) ? (op === 'Neg' ? 0 - d : Math.abs(d)) : op === 'Abs' ? d : '?')))];
    }
    if (SAME.has(op)) return n.outputs.map(() => info(x, et));
    if (PASS.has(op)) {
      const to = op === 'Cast' ? attrInt(n, 'to', et) : op === 'CastLike' && ins[1] ? ins[1].elemType : et;
      const value = ins[0] ? ins[0].value : null;
      return [info(x, to, value && to !== et ? value.map((d) => castValue(d, to)) : value)];
    }
    switch (op) {
      case 'BatchNormalization': // training mode's running mean and variance (and opset < 14's saved ones): one per channel
        return n.outputs.map((_, k) => info(k === 0 ? x : rankKnown && x.length > 1 ? [x[1]] : null, et));
      case 'LayerNormalization': { // Mean and InvStdDev: the normalised axes kept as 1, in stash_type
        const a = rankKnown ? normAxis(attrInt(n, 'axis', -1), x.length) : 0;
        return n.outputs.map((_, k) => (k === 0 ? info(x, et) : info(rankKnown ? x.map((d, i) => (i < a ? d : 1)) : null, attrInt(n, 'stash_type', 1))));
      }
      case 'Constant': {
        const t = attr(n, 'value');
        if (t && t.t) return [info(t.t.dims.slice(), t.t.dataType, t.t.dims.length <= 1 ? tensorValues(t.t, this.bytes) : null)];
        const vi = attr(n, 'value_ints');
        if (vi) return [info([vi.ints.length], 7, vi.ints.slice())];
        const v1 = attr(n, 'value_int');
        if (v1) return [info([], 7, [v1.i])];
        const vf = attr(n, 'value_floats');
        if (vf) return [info([vf.floats.length], 1, vf.floats.slice())];
        const f1 = attr(n, 'value_float');
        if (f1) return [info([], 1, [f1.f])];
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
        if (target === null || !rankKnown) {
          const len = ins[1] && ins[1].shape && num(ins[1].shape[0]) ? ins[1].shape[0] : null;
          return [info(len === null ? null : new Array(len).fill('?'), et)];
        }
        const allowZero = attrInt(n, 'allowzero', 0) === 1;
        const out = target.map((d, i) => (d === 0 && !allowZero ? (i < x.length ? x[i] : '?') : d));
        const k = out.indexOf(-1);
        // A dim that a 0 copies cancels out of the -1's quotient, an unknown one too (as onnx's inference
        // does): [?, 3, 4] to [0, -1] is [?, 12].
        const copied = (i) => target[i] === 0 && !allowZero && i < x.length && x[i] !== 0; // a copied 0 leaves the -1 undetermined (0 / 0)
        if (k >= 0) out[k] = quotient(x.filter((_, i) => !copied(i)), out.filter((_, i) => i !== k && !copied(i)));
        return [info(out, et, ins[0].value && ins[0].value.length === (num(out[0]) ? out[0] : -1) ? ins[0].value : (out.length <= 1 ? ins[0].value : null))];
      }
      case 'Flatten': {
        if (!rankKnown) return [info(null, et)];
        const a = normAxis(attrInt(n, 'axis', 1), x.length);
        return [info([prod(x.slice(0, a)), prod(x.slice(a))], et)];
      }
      case 'Transpose': {
        if (!rankKnown) return [info(null, et)];
        const perm = attrInts(n, 'perm');
        const p = perm && perm.length ? perm : x.map((_, i) => x.length - 1 - i);
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
        const a = axisIn(attrInt(n, 'axis', 0), r, op);
        const out = shapes[0].slice();
        for (let i = 0; i < r; i++) {
          if (i === a) out[i] = shapes.map((s) => s[i]).reduce(addDims);
          else out[i] = shapes.map((s) => s[i]).find(num) ?? shapes.map((s) => s[i]).find(isSymbol) ?? '?';
        }
        let value = null;
        if (r === 1 && ins.every((i) => i.value)) value = ins.flatMap((i) => i.value);
        return [info(out, et, value)];
      }
      case 'Split': {
        if (!rankKnown) return n.outputs.map(() => info(null, et));
        const a = axisIn(attrInt(n, 'axis', 0), x.length, op);
        const split = v < 13 ? attrInts(n, 'split') : vals(1);
        // Before opset 18, no sizes means equal parts (18 lets the last be smaller).
        if (v < 18 && !(split && split.length) && num(x[a]) && x[a] % n.outputs.length !== 0) throw new RangeError(`Split: ${x[a]} is not ${n.outputs.length} equal parts`);
        const unknown = v >= 13 && n.inputs[1] && !split; // sizes given, their values not known
        return n.outputs.map((_, k) => {
          const s = x.slice();
          if (split && split.length) s[a] = split[k];
          else if (num(x[a]) && !unknown) {
            const parts = n.outputs.length;
            const each = Math.ceil(x[a] / parts);
            s[a] = k < parts - 1 ? each : x[a] - each * (parts - 1);
          } else s[a] = '?';
          return info(s, et);
        });
      }
      case 'Slice':
        return [this.slice(n, ins, vals, v)];
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
        return [info(s ? s.slice() : null, t && t.t ? t.t.dataType : 1, s && s.length === 1 && num(s[0]) && s[0] <= MAX_VALUES && t && t.t ? new Array(s[0]).fill(tensorValues(t.t, this.bytes)?.[0] ?? 0) : null)];
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
        return [info(rep ? x.map((d, i) => mulDims(d, rep[i])) : x.map(() => '?'), et)];
      }
      case 'Pad': {
        const pads = v < 11 ? attrInts(n, 'pads') ?? attrInts(n, 'paddings') : vals(1);
        if (!rankKnown) return [info(null, et)];
        if (!pads) return [info(x.map(() => '?'), et)];
        const axesV = v >= 18 && n.inputs.length > 3 ? vals(3) : null;
        const axes = axesV ? axesV.map((a) => normAxis(a, x.length)) : x.map((_, i) => i);
        const out = x.slice();
        axes.forEach((a, k) => { out[a] = addDims(addDims(out[a], pads[k]), pads[k + axes.length]); });
        return [info(out, et)];
      }
      case 'ArgMax':
      case 'ArgMin': {
        if (!rankKnown) return [info(null, 7)];
        const a = normAxis(attrInt(n, 'axis', 0), x.length);
        const keep = attrInt(n, 'keepdims', 1) === 1;
        return [info(keep ? x.map((d, i) => (i === a ? 1 : d)) : x.filter((_, i) => i !== a), 7)];
      }
      case 'TopK': {
        if (!rankKnown) return [info(null, et), info(null, 7)];
        const a = normAxis(attrInt(n, 'axis', -1), x.length);
        const k = v < 10 ? attrInt(n, 'k', '?') : vals(1)?.[0] ?? '?';
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
        return this.window(n, ins, op);
      case 'GlobalAveragePool':
      case 'GlobalMaxPool':
      case 'GlobalLpPool':
        return [info(rankKnown ? x.map((d, i) => (i < 2 ? d : 1)) : null, et)];
      case 'Resize':
      case 'Upsample':
        return [this.resize(n, ins, vals, v)];
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
        return [ins[0] && ins[0].elem ? ins[0].elem : info(null)];
      case 'SequenceInsert':
      case 'SequenceErase': {
        const v = info(null);
        v.elem = ins[0] ? ins[0].elem : null;
        return [v];
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
      case 'If':
        return this.ifNode(n, ins, scope, graphName, where);
      case 'Loop':
      case 'Scan':
        return this.loopNode(n, ins, scope, graphName, where);
      default:
        if (MORE.has(op)) return moreShapes(n, op, ins, vals);
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

  slice(n, ins, vals, v) {
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
    const ax = axes && axes.length ? axes.map((a) => normAxis(a, x.length)) : starts.map((_, i) => i);
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

  window(n, ins, op) {
    const x = ins[0] ? ins[0].shape : null;
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
        if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') out.push(d * strides[i]);
        else out.push(strides[i] * (d - 1) + op2 + k - (autoPad === 'VALID' ? 0 : pads[i] + pads[i + sp]));
        continue;
      }
      if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') out.push(Math.ceil(d / strides[i]));
      else if (autoPad === 'VALID') out.push(Math.floor((d - k) / strides[i]) + 1);
      else {
        const span = d + pads[i] + pads[i + sp] - k;
        let o = (ceil ? Math.ceil(span / strides[i]) : Math.floor(span / strides[i])) + 1;
        if (ceil && (o - 1) * strides[i] >= d + pads[i]) o--; // the last window must start inside the input
        out.push(o);
      }
    }
    const outs = [info(out, op === 'ConvInteger' ? 6 : et)];
    if (n.outputs.length > 1) outs.push(info(out, 7)); // MaxPool's indices
    return outs;
  }

  resize(n, ins, vals, v) {
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
    if (sizes && sizes.length === ax.length) ax.forEach((a, k) => { out[a] = sizes[k]; });
    else if (scales && scales.length === ax.length) ax.forEach((a, k) => { out[a] = num(x[a]) ? Math.floor(x[a] * scales[k]) : scales[k] === 1 ? x[a] : '?'; });
    else return info(x.map(() => '?'), et);
    return info(out, et);
  }

  ifNode(n, ins, scope, graphName, where) {
    const outs = [];
    const branches = ['then_branch', 'else_branch'].map((b) => attr(n, b)?.g).filter(Boolean);
    const results = branches.map((g, k) => {
      const inner = new Scope(scope);
      this.graph(g, inner, g.name || `${graphName}/${where}.${['then_branch', 'else_branch'][k]}`);
      return g.outputs.map((o) => {
        const v = inner.get(o.name);
        return v.shape === null && o.type.kind === 'tensor' && o.type.shape ? info(o.type.shape.slice(), o.type.elemType) : v;
      });
    });
    for (let k = 0; k < n.outputs.length; k++) {
      const a = results[0]?.[k];
      const b = results[1]?.[k];
      if (!a || !b || a.shape === null || b.shape === null || a.shape.length !== b.shape.length) { outs.push(info(null, a ? a.elemType : 0)); continue; }
      outs.push(info(a.shape.map((d, i) => (d === b.shape[i] ? d : '?')), a.elemType));
    }
    return outs;
  }

  loopNode(n, ins, scope, graphName, where) {
    const g = attr(n, 'body')?.g;
    if (!g) return null;
    const inner = new Scope(scope);
    // The body's inputs: what it declares; else, for a Loop, the iteration
    // number and the condition (scalars) and each carried value as it starts.
    // For a Scan (opset 9 on), its states as they start and each scan input without its scan axis.
    const loop = n.opType === 'Loop';
    const scans = loop ? 0 : attrInt(n, 'num_scan_inputs', 0);
    const first = loop ? 2 : 0; // the first carried value (state) among the inputs
    const carried = n.inputs.length - first - scans;
    const inAxes = attrInts(n, 'scan_input_axes');
    const axisOf = (x, j, axes) => normAxis(axes?.[j] ?? 0, x.length);
    const slices = ins.slice(first + carried).map((x, j) => (x && x.shape ? info(x.shape.filter((_, i) => i !== axisOf(x.shape, j, inAxes)), x.elemType) : info(null, x ? x.elemType : 0)));
    const seed = loop ? [info([], 7), info([], 9), ...ins.slice(2)] : [...ins.slice(0, carried), ...slices];
    this.graph(g, inner, g.name || `${graphName}/${where}.body`, seed);
    if (!loop && this.opset() < 9) return null; // Scan-8 (a batch axis, sequence lengths): the shapes the file declares
    // Each carried value keeps the shape it starts with (when the body returns
    // the same); each scan output stacks the body's along a new axis (Loop:
    // the first, of a length not known; Scan: scan_output_axes, of the scan's length).
    const lead = ins[first + carried];
    const len = loop || !lead || !lead.shape ? '?' : lead.shape[axisOf(lead.shape, 0, inAxes)];
    const outAxes = attrInts(n, 'scan_output_axes');
    return n.outputs.map((_, k) => {
      const body = inner.get(g.outputs[k + (loop ? 1 : 0)]?.name ?? '');
      if (k < carried) {
        const start = ins[k + first];
        const same = start && body && start.shape && body.shape && start.shape.length === body.shape.length;
        return info(same ? start.shape.map((d, i) => (d === body.shape[i] ? d : '?')) : null, start ? start.elemType : 0);
      }
      if (!body || !body.shape) return info(null, body ? body.elemType : 0);
      const s = body.shape.slice();
      s.splice(loop ? 0 : normAxis(outAxes?.[k - carried] ?? 0, s.length + 1), 0, len);
      return info(s, body.elemType);
    });
  }
}

/** inferShapes for the bytes of an ONNX model (a plain Uint8Array: model-entry.js makes it one). */
export function inferOnnx(bytes, options = {}) {
  const model = readOnnx(bytes);
  const run = new Run(model, bytes);
  run.tensors = options.tensors ? new Map() : null;
  run.subgraphTensors = new Map();
  run.graph(model.graph, new Scope(null), model.graph.name || 'main');
  return {
    format: 'onnx',
    opsets: { ...model.opsets },
    nodes: run.nodes,
    symbols: run.syms.list(),
    coverage: { nodes: run.coverage.nodes, inferred: run.coverage.inferred, declared: run.coverage.declared, unknownOps: [...run.coverage.unknownOps].sort() },
    ...(run.tensors ? {
      tensors: Object.fromEntries(run.tensors),
      subgraphTensors: Object.fromEntries([...run.subgraphTensors].map(([g, t]) => [g, Object.fromEntries(t)])),
    } : {}),
  };
}

// inferShapes() for ONNX models: shapes flow from the graph inputs and the
// initializers through each node in order; every broadcasting node is checked
// by the engine's rule for its op and opset (symbolic.js puts symbols back),
// and reported. Small integer tensors (Shape → Gather → Concat → Reshape)
// carry their values, so Reshape, Expand, Slice, Tile... get their shapes.
// Each other op's outputs come from its shape function (onnx-ops.js); an op
// without one takes the shape the file declares.
import { BroadcastError } from './errors.js';
import { readOnnx, tensorValues, MAX_VALUES } from './onnx-read.js';
import { Symbols, nodePlan, isSymbol, requestOf } from './symbolic.js';
import { isDimValue } from './operands.js';
import { num, info, numbers, mulDims, addDims, normAxis, attr, attrInt, attrInts, attrStr, FLOAT, BINARY, BINARY_NEW, VARIADIC,
  OPTIMISERS, broadcasts, einsumPlan, outputsOf, fromType, union, holding } from './onnx-ops.js';

/** A dim a shape may hold: a count (0 to 2^53 - 1, as the library's own shapes), a name, '?'. */
const isDim = (d) => (num(d) ? isDimValue(d) : typeof d === 'string' && d !== '' && d.trim() === d);
const describeDim = (d) => (typeof d === 'string' ? JSON.stringify(d) : String(d));

// ---- a graph's values -----------------------------------------------------------

const UNKNOWN = info(null);

// A model-local function's call walks its body, so calls that call functions expand. Two bounds keep
// the walk of a small file small (and off the JS stack's limit, which varies): graphs open at once
// (the main graph, If/Loop/Scan bodies, function bodies; subgraphs alone nest 32 deep at most: onnx-read),
// and the nodes walked in function bodies (their subgraphs too), all calls together: 100,000, counted
// from the file before the walk (fnExpansion: f calling g twice, g calling h twice, ... doubles at
// each level; a 30-level file of 2.5 KB is refused at once), and again as the walk goes. A model
// whose layers are calls of one function expands to a few thousand nodes per hundred layers (an
// exporter's Block > Attention/MLP > Linear: 128 layers, 15,104). Past either, the model is refused
// (refusal()), as onnx-read refuses graphs nested too deep.
const MAX_WALK_DEPTH = 64;
const FUNCTION_NODES = 100000;

const refusals = new WeakSet();
/** A TypeError for the whole model, which no node's catch turns into an unknown output. */
function refusal(message) {
  const e = new TypeError(`inferShapes: ${message}`);
  refusals.add(e);
  return e;
}
const tooDeep = (at) => refusal(`model-local functions call each other too deep (a walk holds at most ${MAX_WALK_DEPTH} graphs open: the main graph, If, Loop and Scan bodies and the body of each call; at ${at})`);
const tooMany = (at) => refusal(`model-local function calls expand to more than ${FUNCTION_NODES} nodes (each call walks its function's body, and a walk takes at most ${FUNCTION_NODES} nodes in function bodies; at ${at})`);

/**
 * The nodes a walk of `nodes` takes in function bodies, counted from the file (memoised per function,
 * so a doubling file costs its size): each call of a model-local function its body's nodes, and their
 * If, Loop and Scan bodies' (as Run walks them); a call of a function being counted is not followed
 * (as callFunction), nor one past MAX_WALK_DEPTH (the walk refuses it). Stops past FUNCTION_NODES,
 * with `at` the main graph's call that crossed it.
 */
function fnExpansion(nodes, functions) {
  const memo = new Map();
  const open = new Set();
  const count = (list, inBody, depth) => {
    let s = 0;
    for (const n of list) {
      if (inBody) s++;
      const key = `${n.domain}:${n.opType}`;
      const fn = functions.get(key);
      if (fn) {
        if (!open.has(key) && depth < MAX_WALK_DEPTH) {
          if (!memo.has(key)) {
            open.add(key);
            memo.set(key, count(fn.nodes, true, depth + 1));
            open.delete(key);
          }
          s += memo.get(key);
        }
      } else {
        for (const a of n.attrs.values()) if (a.g) s += count(a.g.nodes, inBody, depth + 1);
      }
      if (s > FUNCTION_NODES) return s;
    }
    return s;
  };
  let total = 0;
  for (const n of nodes) {
    total += count([n], false, 1);
    if (total > FUNCTION_NODES) return `call ${n.name || n.opType} of ${n.opType}`;
  }
  return null;
}

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

/** A shape with each dim past 2^53 - 1 (a BigInt) as its decimal text, as the report gives it. */
const asText = (s) => (Array.isArray(s) ? s.map((d) => (typeof d === 'bigint' ? String(d) : d)) : s);

/** The same, through a report's nodes and tables (plain objects and arrays). */
const textsOf = (v) => (Array.isArray(v) ? asText(v).map(textsOf)
  : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, textsOf(x)])) : v);

/**
 * An input dim past 2^53 - 1 at a broadcasting node (a BigInt: onnx-read keeps such a dim_value
 * exact), refused by the value in the file (a Number would name its neighbour: 2^53 + 1 is 2^53);
 * and one below 0 (a declared dim_value of -1), which a rule whose target may hold -1 ("keep this
 * dim": PRelu's slope to X) would otherwise take.
 */
function badDim(n, ins, where) {
  for (let k = 0; k < ins.length; k++) {
    const s = ins[k] ? ins[k].shape : null;
    const i = s ? s.findIndex((d) => typeof d === 'bigint' || (typeof d === 'number' && d < 0)) : -1;
    if (i >= 0) {
      return new BroadcastError(`${n.opType} at ${where}: ${n.inputs[k]} has ${s[i]} at axis ${i}, which is no dim (dims are integers from 0 to 2^53-1)`,
        { code: 'INVALID_SHAPE', shapes: ins.map((x) => (x ? asText(x.shape) : null)), axis: i, dims: [String(s[i])] });
    }
  }
  return null;
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
    this.depth = 0; // graphs open in the walk (MAX_WALK_DEPTH)
    this.fnNodes = 0; // nodes walked in function bodies, at most FUNCTION_NODES
    this.work = 0; // nodes walked in all; past FUNCTION_NODES a Loop body is walked again no more
    const over = this.functions.size ? fnExpansion(model.graph.nodes, this.functions) : null;
    if (over !== null) throw tooMany(over);
    this.fnName = null; // the function whose body is being walked (the innermost call's)
    this.fnOpsets = null;
    this.graphNames = new Map(); // each graph name taken (node reports' graph, subgraphTensors' keys) → its next suffix
  }

  /**
   * The graph name a walk reports under: `name`, or when an earlier walk took it (ONNX does not
   * ask subgraphs for names of their own: both branches of an If may be 'g'; a function called
   * twice), `name#2`, `name#3`, … so that each walk has its own table in subgraphTensors.
   */
  uniqueName(name) {
    let out = name;
    for (let k = this.graphNames.get(name) ?? 2; this.graphNames.has(out); k++) { // from the last suffix (a thousand bodies named 'body')
      out = `${name}#${k}`;
      this.graphNames.set(name, k + 1);
    }
    this.graphNames.set(out, 2);
    return out;
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
    if (this.depth >= MAX_WALK_DEPTH) throw tooDeep(`call ${where} of ${fn.name}`);
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
    const [saved, savedName] = [this.fnOpsets, this.fnName];
    this.active.add(key);
    this.fnOpsets = { ...this.model.opsets, ...fn.opsets };
    this.fnName = fn.name;
    try {
      this.graph({ nodes, initializers: [], inputs: [], outputs: [], valueInfo: [] }, inner, `${graphName}/${where}`);
    } finally {
      this.fnOpsets = saved;
      this.fnName = savedName;
      this.active.delete(key);
    }
    return fn.outputs.map((o) => inner.get(o));
  }

  /** Values of an input: the small integer values known for it, or null. */
  values(scope, name) {
    const v = scope.get(name);
    return v && v.value ? v.value : null;
  }

  /**
   * Walk graph `g` in `scope`, its nodes reported under `name` (uniqueName()); `seed`: what the caller
   * knows of its inputs (a Loop's body), used where the body declares no shape.
   */
  graph(g, scope, name, seed = []) {
    // Without function calls at most 32 graphs are open (onnx-read's MAX_NESTING): past MAX_WALK_DEPTH, calls nest
    // (callFunction refuses a call's body; here a subgraph in one).
    if (this.depth >= MAX_WALK_DEPTH) throw tooDeep(name);
    this.depth++;
    try {
      this.walkGraph(g, scope, name, seed);
    } finally {
      this.depth--;
    }
  }

  walkGraph(g, scope, name, seed) {
    this.walked.add(g);
    const graphName = this.uniqueName(name);
    // options.tensors: the main graph's values by name; a subgraph's (or a function call's) in a table
    // of its own under its node reports' graph, as sibling branches may name values alike. Maps: a
    // name such as '__proto__' is a name like any other (an object's would reach Object.prototype).
    let table = this.tensors;
    if (table && g !== this.model.graph) this.subgraphTensors.set(graphName, (table = new Map()));
    const declared = new Map();
    for (const v of [...g.valueInfo, ...g.outputs]) {
      if (v.type.kind === 'tensor' && (v.type.shape || !declared.has(v.name))) declared.set(v.name, v.type);
    }
    for (const t of g.initializers) {
      const value = t.dims.length <= 1 ? tensorValues(t, this.bytes) : null;
      const finite = value && value.every((d) => typeof d === 'bigint' || Number.isFinite(d));
      scope.set(t.name, info(t.dims.slice(), t.dataType, finite ? value : null));
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
    this.work++; // nodes walked, second walks of Loop bodies too (bounds them: loopNode)
    if (this.fnName !== null && ++this.fnNodes > FUNCTION_NODES) throw tooMany(`${n.name || n.opType} in ${this.fnName}`);
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
        // If, Loop and Scan walk their subgraphs; another op's outputs are its shape function's.
        if (n.opType === 'If') outs = this.ifNode(n, ins, scope, graphName, where);
        else if (n.opType === 'Loop' || n.opType === 'Scan') outs = this.loopNode(n, ins, scope, graphName, where);
        else if (n.opType === 'SequenceMap') outs = this.mapNode(n, ins, scope, graphName, where);
        else outs = outputsOf(n, ins, this.opset(), this.bytes);
        // A malformed node (a perm past the rank, two -1s in a Reshape's target, a Slice step of 0,
        // a Split that does not divide) makes a dim that counts nothing: its outputs are unknown from
        // here (lost at this node), not passed on for the next node to be blamed for.
        const dims = outs ? outs.flatMap((o) => (o && o.shape ? o.shape : [])) : [];
        const bad = dims.findIndex((d) => !isDim(d));
        if (bad >= 0) throw new RangeError(`${n.opType} makes a dim of ${describeDim(dims[bad])}`);
      }
    } catch (e) {
      if (refusals.has(e)) throw e; // the whole model's refusal, from a function call inside
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
        // a copy: outs[k] may be another value's info (a function output its body never makes is the shared UNKNOWN)
        const up = ins.find((x) => x && x.shape === null && x.lostAt);
        v = { ...v, lostAt: up ? up.lostAt : where };
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
    const bad = badDim(n, ins, where);
    if (bad) return this.clash(report, bad, decl, where);
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
            const first = b.findIndex((d) => d !== 1);
            let last = b.length - 1;
            while (last >= 0 && b[last] === 1) last--;
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
      } else if (x !== null && target === null && ins[1] && ins[1].shape && num(ins[1].shape[0]) && ins[1].shape[0] <= MAX_VALUES) {
        // the target's length is known, its values are not (a length past MAX_VALUES, a shape input
        // that declares 10^9 elements, is no rank to build: the output's rank is unknown, below)
        const r = Math.max(x.length, ins[1].shape[0]);
        report.rule = 'bidirectional';
        report.lostAt = where; // the output's dims, but x's numbers, are lost here
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
      // a target value past 2^53 - 1 (a BigInt: tensorValues keeps it as the file has it) is refused by that value
      const big = target ? target.findIndex((d) => typeof d === 'bigint') : -1;
      if (big >= 0) {
        report.rule = 'bidirectional';
        report.inputs[1] = { name: n.inputs[1], shape: asText(target), values: true };
        return this.clash(report, new BroadcastError(`Expand at ${where}: ${n.inputs[1]} holds ${target[big]} at index ${big}, which is no dim (dims are integers from 0 to 2^53-1)`,
          { code: 'INVALID_SHAPE', shapes: [x, asText(target)], axis: big, dims: [String(target[big])] }), decl, where);
      }
      if (req === null) {
        unknown = x === null || target === null;
        req = { rule: 'broadcastTo', shapes: [x, target], mode: 'bidirectional' };
        report.rule = 'bidirectional';
        report.inputs[1] = { name: n.inputs[1], shape: target, values: true };
      }
    } else if (op === 'Gemm') {
      const [A, B, C] = [shapeOfIn(0), shapeOfIn(1), n.inputs[2] ? shapeOfIn(2) : undefined]; // C omitted: absent or '' (opset 11 on)
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
      // where the shape was lost: an input's lostAt, else this node (an input the file gives no shape,
      // an Expand target whose values are not known), as its output's lostAt says to the nodes after it
      const lost = ins.find((x) => x && x.shape === null && x.lostAt);
      report.lostAt = lost ? lost.lostAt : where;
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
    const a = numbers(this.values(scope, n.inputs[0]));
    const b = numbers(this.values(scope, n.inputs[1]));
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
    const bad = [x, y].find((d) => num(d) && !isDim(d)); // a negative dim_value, as the file has it (one past 2^53 - 1: bigDim)
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
      if (num(g) && (num(w) || typeof w === 'bigint') && g !== w) {
        report.status = 'declared-mismatch';
        report.error = new BroadcastError(`${where}: output axis ${i} is ${g}, the file declares ${w}`,
          { code: 'SHAPE_MISMATCH', shapes: [got, asText(want)], axis: i, dims: asText([g, w]) }).toJSON();
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

  // ---- If, Loop and Scan: their subgraphs walked ---------------------------------

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
      if (a && b && a.elem && b.elem) { outs.push(holding(union(a.elem, b.elem))); continue; } // two sequences (optionals)
      if (!a || !b || a.shape === null || b.shape === null || a.shape.length !== b.shape.length) { outs.push(info(null, a ? a.elemType : 0)); continue; }
      outs.push(info(a.shape.map((d, i) => (d === b.shape[i] ? d : '?')), a.elemType));
    }
    return outs;
  }

  /**
   * SequenceMap: the body walked once, seeded with an element of each sequence input (a tensor
   * input as it is); each output is a sequence of what the body makes of them.
   */
  mapNode(n, ins, scope, graphName, where) {
    const g = attr(n, 'body')?.g;
    if (!g) return null;
    const inner = new Scope(scope);
    this.graph(g, inner, g.name || `${graphName}/${where}.body`, ins.map((x) => (x && x.elem ? x.elem : x && x.shape ? x : UNKNOWN)));
    return g.outputs.map((o) => {
      const v = inner.get(o.name);
      const e = v.shape === null && o.type.kind === 'tensor' && o.type.shape ? info(o.type.shape.slice(), o.type.elemType) : v;
      return holding({ ...e, value: null });
    });
  }

  loopNode(n, ins, scope, graphName, where) {
    const g = attr(n, 'body')?.g;
    if (!g) return null;
    let inner = new Scope(scope);
    // The body's inputs: what it declares; else, for a Loop, the iteration
    // number and the condition (scalars) and each carried value as it starts.
    // For a Scan (opset 9 on), its states as they start and each scan input without its scan axis;
    // Scan-8's inputs are sequence_lens, then states and scan inputs that have a batch axis 0 (and the scan axis 1).
    const loop = n.opType === 'Loop';
    const v8 = !loop && this.opset() < 9;
    const scans = loop ? 0 : attrInt(n, 'num_scan_inputs', 0);
    const first = loop ? 2 : v8 ? 1 : 0; // the first carried value (state) among the inputs
    const carried = n.inputs.length - first - scans;
    const inAxes = attrInts(n, 'scan_input_axes');
    const axisOf = (x, j, axes) => normAxis(axes?.[j] ?? 0, x.length);
    const past = (x, k) => info(x && x.shape ? x.shape.slice(k) : null, x ? x.elemType : 0); // Scan-8's without its batch (and scan) axis
    const slices = ins.slice(first + carried).map((x, j) => (v8 ? past(x, 2) : x && x.shape ? info(x.shape.filter((_, i) => i !== axisOf(x.shape, j, inAxes)), x.elemType) : info(null, x ? x.elemType : 0)));
    const states = ins.slice(first, first + carried).map((x) => (v8 ? past(x, 1) : x));
    const seed = loop ? [info([], 7), info([], 9), ...ins.slice(2)] : [...states, ...slices];
    // The body walked with the state as it starts; a carried value it changes (a dim, the rank, a value
    // known) is generalised ('?', unknown rank, no value) and the body walked again from there, that
    // walk's reports and tables replacing the first's. If the second walk still changes one (or the walk is past
    // FUNCTION_NODES nodes: nested Loops), the outputs are unknown.
    const name = g.name || `${graphName}/${where}.body`;
    const mark = [this.nodes.length, { ...this.coverage }, new Map(this.graphNames), this.subgraphTensors?.size];
    this.graph(g, inner, name, seed);
    const at = loop ? 2 : 0; // the first carried value among the body's inputs
    const outOf = (k) => inner.get(g.outputs[k + (loop ? 1 : 0)]?.name ?? '');
    const states2 = states.map((_, k) => general(inner.get(g.inputs[at + k]?.name ?? ''), outOf(k)));
    let vary = states2.some((x) => x !== null);
    if (vary && this.work <= FUNCTION_NODES) {
      this.nodes.length = mark[0];
      Object.assign(this.coverage, { ...mark[1], unknownOps: this.coverage.unknownOps });
      this.graphNames = mark[2];
      if (this.subgraphTensors) [...this.subgraphTensors.keys()].slice(mark[3]).forEach((t) => this.subgraphTensors.delete(t));
      inner = new Scope(scope);
      this.graph(g, inner, name, seed.map((x, j) => (j >= at && j - at < carried ? states2[j - at] ?? x : x)));
      vary = states2.some((_, k) => general(inner.get(g.inputs[at + k]?.name ?? ''), outOf(k)) !== null);
    }
    // Each carried value keeps the shape it starts with (when the body returns
    // the same); each scan output stacks the body's along a new axis (Loop:
    // the first, of a length not known; Scan: scan_output_axes, of the scan's length;
    // Scan-8: axis 1, after the batch axis, which states keep too).
    const lead = ins[first + carried];
    const len = loop || !lead || !lead.shape ? '?' : v8 ? lead.shape[1] ?? '?' : lead.shape[axisOf(lead.shape, 0, inAxes)];
    const batch = (x) => (v8 ? [x && x.shape && x.shape.length ? x.shape[0] : '?'] : []);
    const outAxes = attrInts(n, 'scan_output_axes');
    return n.outputs.map((_, k) => {
      const body = outOf(k);
      if (vary) return info(null, (k < carried ? states[k] : body)?.elemType ?? 0); // no state that holds for every iteration
      if (k < carried) {
        const start = (loop ? ins.slice(2) : states)[k];
        const same = start && body && start.shape && body.shape && start.shape.length === body.shape.length;
        return info(same ? [...batch(ins[k + first]), ...start.shape.map((d, i) => (d === body.shape[i] ? d : '?'))] : null, start ? start.elemType : 0);
      }
      if (!body || !body.shape) return info(null, body ? body.elemType : 0);
      const s = body.shape.slice();
      s.splice(loop || v8 ? 0 : normAxis(outAxes?.[k - carried] ?? 0, s.length + 1), 0, len);
      return info([...batch(lead), ...s], body.elemType);
    });
  }
}

/**
 * null when a Loop's (Scan's) carried value `a`, as its body sees it, comes out of the body as `b`
 * (the same rank, dims, values known); else `a` generalised: a dim that differs '?', a rank that differs unknown, no values.
 */
function general(a, b) {
  if (!a || !b) return a || b ? UNKNOWN : null;
  const same = (x, y) => x === y || (x && y && x.length === y.length && x.every((d, i) => d === y[i]));
  if (a.elem || b.elem) return a.elem && b.elem && general(a.elem, b.elem) === null ? null : UNKNOWN;
  if (same(a.shape, b.shape) && same(a.value, b.value)) return null;
  return union(a, b);
}

/** inferShapes for the bytes of an ONNX model (a plain Uint8Array: model-entry.js makes it one). */
export function inferOnnx(bytes, options = {}) {
  const model = readOnnx(bytes);
  const run = new Run(model, bytes);
  run.tensors = options.tensors ? new Map() : null;
  run.subgraphTensors = new Map();
  run.graph(model.graph, new Scope(null), model.graph.name || 'main');
  if (model.bigDims) { // a dim past 2^53 - 1 in a report is its decimal text (a BigInt would not serialise)
    run.nodes = run.nodes.map(textsOf);
    if (run.tensors) run.tensors = new Map([...run.tensors].map(([k, v]) => [k, asText(v)]));
    for (const [g, t] of run.subgraphTensors) run.subgraphTensors.set(g, new Map([...t].map(([k, v]) => [k, asText(v)])));
  }
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

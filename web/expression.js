// The explorer's expression mode, pure logic: the operands an expression
// reads (the library's compile().inputs), keeping the shapes a person typed
// for names that stay, the explain() call and the plan the page draws from
// it, the exact error (a SyntaxError's caret, a BroadcastError's node), and
// the data preview's values (the library's evaluate()). No DOM, no globals.
// Nothing here parses the expression or decides a broadcast: compile() and
// explain() do, and a failed node is drawn from the library's own explain().
import { compile, explain, evaluate } from 'tensorcast';
import { parseShape, MAX_TEXT } from './parse.js';
import { previewDtype, product, exactProduct } from './views.js';

export const DEFAULT_EXPRESSION = '(x - m) / s';
export const DEFAULT_VARS = [['x', '2,3'], ['m', '3'], ['s', '2,1']];
/** The longest expression the page keeps (the URL carries it). */
export const MAX_EXPRESSION = 2000;
export { MAX_TEXT };

/**
 * The operand names an expression reads, in the library's order:
 * { ok: true, inputs } or { ok: false, error: { name, message, offset, length } }.
 */
export function expressionInputs(text) {
  try {
    return { ok: true, inputs: [...compile(text).inputs] };
  } catch (e) {
    return { ok: false, error: errorInfo(e, text) };
  }
}

/**
 * The state after the expression became `text`: one shape per operand it
 * reads, the shape typed before for a name that stays, '1' for a new name.
 * `earlier` (a Map, name -> shape) holds the shapes of names the expression
 * read before: a name typed back gets its shape again, not '1' (typing `z * `
 * before `y` passes through `x + z`, which reads no `y`).
 * While the text does not parse, the operand rows stay as they were.
 */
export function withExpression(state, text, earlier = null) {
  const next = { ...state, expr: String(text).slice(0, MAX_EXPRESSION) };
  const r = expressionInputs(next.expr);
  if (!r.ok) return next;
  const typed = new Map([...(earlier ?? []), ...(state.vars ?? [])]);
  next.vars = r.inputs.map((n) => [n, typed.has(n) ? typed.get(n) : '1']);
  return next;
}

/**
 * Where a library error points in the expression: a SyntaxError's own
 * offset/length; a BroadcastError's node, from the caret its message ends
 * with (the library prints the expression and a caret under the node).
 * Returns { name, code?, message, first (the message without the excerpt),
 * offset, length } (offset null when the error points nowhere).
 */
export function errorInfo(e, text) {
  const message = String(e?.message ?? e);
  const lines = message.split('\n');
  let offset = Number.isInteger(e?.offset) ? e.offset : null;
  let length = Number.isInteger(e?.length) ? e.length : null;
  let first = message;
  // The excerpt: "  <expression>" then "  <spaces>^^^".
  if (lines.length >= 3 && /^\s*\^+\s*$/.test(lines[lines.length - 1])) {
    first = lines.slice(0, -2).join('\n');
    const caret = lines[lines.length - 1];
    if (offset === null) {
      offset = caret.indexOf('^') - 2;
      length = (caret.match(/\^+/) ?? [''])[0].length;
    }
  }
  if (offset !== null && (offset < 0 || offset > text.length)) offset = null;
  return { name: e?.name ?? 'Error', code: e?.code, message, first, offset, length: Math.max(1, length ?? 1) };
}

/** The two lines that point at an error: the expression, and carets under [offset, offset + length). */
export function caretLines(text, offset, length = 1) {
  if (offset === null || offset === undefined) return null;
  const n = Math.max(1, Math.min(length, Math.max(1, text.length - offset)));
  return { text, caret: `${' '.repeat(offset)}${'^'.repeat(n)}` };
}

/**
 * The explain() request of an expression state: { ok: true, request: {
 * expression, shapes: { name: shape }, dtypes } } or { ok: false, errors:
 * [{ field: 'shape', index, message }] }. Expressions run on data, so every
 * shape must be static.
 */
export function expressionRequest(state) {
  const errors = [];
  const shapes = {};
  const dtypes = {};
  (state.vars ?? []).forEach(([name, text], i) => {
    const r = parseShape(text);
    if (!r.ok) errors.push({ field: 'shape', index: i, message: `Shape ${name}: ${r.error}` });
    else if (!Array.isArray(r.shape) || r.shape.some((d) => typeof d !== 'number' || d < 0)) {
      errors.push({ field: 'shape', index: i, message: `Shape ${name}: an expression runs on data, so its shapes are static: whole dims ≥ 0, no ?, intervals, −1 or [...]` });
    } else {
      Object.defineProperty(shapes, name, { value: r.shape, enumerable: true, writable: true, configurable: true });
      Object.defineProperty(dtypes, name, { value: state.dtype, enumerable: true, writable: true, configurable: true });
    }
  });
  if (errors.length) return { ok: false, errors };
  return { ok: true, request: { expression: state.expr, shapes, dtypes } };
}

/**
 * The plan the page draws for an expression request: the library's
 * explain({ expression, shapes, dtypes }) in the form the other modes'
 * plans have (operands aligned to the broadcast shape, axes with their
 * dims), plus `expr`, the library's own answer (result shape and dtype,
 * program, execution, reduce).
 * Failures: { ok: false, kind: 'syntax', error } for text that does not
 * parse; { ok: false, kind: 'broadcast', error, node } for a node whose
 * operands do not broadcast, with that node's operands aligned and its
 * clashes marked by the library's explain() of the node's shapes.
 */
export function explainExpression(request) {
  const text = request.expression;
  let info;
  try {
    // compile() throws the SyntaxError with its offset; explain() answers a refusal with the
    // BroadcastError's fields (naming the node), which are read below as the error itself.
    info = compile(text).explain(request.shapes, { dtypes: request.dtypes });
    if (!info.ok) throw info.error;
  } catch (e) {
    const error = errorInfo(e, text);
    if (e?.name === 'SyntaxError') return { ok: false, rule: 'expression', source: text, kind: 'syntax', error, operands: [], axes: [] };
    const failed = { ok: false, rule: 'expression', source: text, kind: e?.name === 'BroadcastError' ? 'broadcast' : 'other', error: { ...error, code: e?.code ?? e?.name, message: error.first }, operands: [], axes: [] };
    if (e?.code === 'INCOMPATIBLE_DIMS' && Array.isArray(e.shapes) && e.shapes.length >= 2) {
      // The failed node, aligned as the other modes draw a clash: the library's own plan of its operands' shapes.
      const node = explain({ rule: 'numpy', shapes: e.shapes });
      const names = nodeNames(text, error, e.shapes.length);
      failed.operands = node.operands.map((op, k) => ({ ...op, name: names[k] }));
      failed.axes = node.axes;
      failed.error.clashes = node.error?.clashes ?? e.clashes;
      failed.error.axis = node.error?.axis ?? e.axis;
    }
    return failed;
  }
  const shape = info.broadcastShape;
  const rank = shape.length;
  const size = exactProduct(shape);
  return {
    ok: true,
    rule: 'expression',
    source: text,
    static: true,
    shape,
    // exact past 2^53, as explain() reports a size: null there, and sizeText the exact count
    ...(typeof size === 'number' ? { size } : { size: null, sizeText: String(size) }),
    axes: shape.map((dim, a) => ({ dim, negative: a - rank, verdicts: info.operands.map((o) => o.verdicts[a]) })),
    operands: info.operands,
    expr: info,
  };
}

/** Row labels for a failed node's operands: "left of x - m", "right of …" for binary nodes, else "operand k". */
function nodeNames(text, error, n) {
  const node = error.offset !== null ? text.slice(error.offset, error.offset + error.length) : '';
  if (n === 2) return [`left of ${node}`, `right of ${node}`];
  return Array.from({ length: n }, (_, k) => `operand ${k + 1}`);
}

/** 1, 2, 3, …: what each preview input holds in expression mode (no zero, so a quotient stays finite). */
export function ones(n, dtype) {
  const Ctor = globalThis[dtype.array];
  const big = dtype.array === 'BigInt64Array' || dtype.array === 'BigUint64Array';
  return big ? Ctor.from({ length: n }, (_, i) => BigInt(i + 1)) : Ctor.from({ length: n }, (_, i) => i + 1);
}

/**
 * The data preview of an expression plan: each operand holds 1, 2, 3, … in
 * the preview's dtype, and the output is the library's evaluate() of the
 * expression on them. Returns { dtype, inputs, output, shape }.
 */
export function expressionValues(plan, dtypeName = 'float32') {
  const dtype = previewDtype(dtypeName);
  const ops = previewOperands(plan);
  const inputs = ops.map((op) => ones(product(op.shape), dtype));
  const operands = {};
  ops.forEach((op, k) => {
    Object.defineProperty(operands, op.name, { value: { data: inputs[k], shape: op.shape }, enumerable: true, writable: true, configurable: true });
  });
  const out = evaluate(plan.expr.expression, operands);
  return { dtype, inputs, output: out.data, shape: out.shape };
}

/**
 * The operands the preview fills: the plan's, or for a program (its passes) the
 * program's own inputs, each with its shape as the pass that reads it shows it
 * (the plan's operands are then the last pass's, which reads earlier results).
 */
export function previewOperands(plan) {
  const x = plan.expr;
  if (!x?.passes) return plan.operands;
  const all = x.passes.flatMap((p) => p.operands);
  return x.inputs.map((name) => all.find((o) => o.name === name));
}

/** The shape text of each operand row, for the URL: `x:2,3`. */
export function varsToParams(vars) {
  return vars.map(([n, s]) => `${n}:${s}`);
}

/** `x:2,3` params -> [[name, shape text]] (names are identifiers: no colon). */
export function paramsToVars(params) {
  const out = [];
  for (const p of params) {
    const i = p.indexOf(':');
    if (i <= 0) continue;
    const name = p.slice(0, i);
    if (out.some(([n]) => n === name)) continue;
    out.push([name, p.slice(i + 1).slice(0, MAX_TEXT)]);
  }
  return out.slice(0, 64);
}



// explain(): the plan of a rule as plain JSON — output shape, each operand
// aligned with its strides (0 where stretched) and per-axis verdicts (every
// clashing axis marked), the merged loop. Never throws.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError, operandName } from './errors.js';
import { readOptions, choose } from './options.js';
import { readType, readTo, snapTo, shapeCall, namedCall, namedContext, checkCount } from './rules.js';
import { FULL } from './engine.js';
import { copyShape, checkShape, exactSize, UNKNOWN_RANK, readStrides, strideCount, describe, readNamed } from './operands.js';
import { namedResult } from './execute.js';

let explainExpression = null;
/** expr.js hands explain() its expression explainer (kept out of the shapes entry's bundle). */
export function registerExpressions(fn) {
  explainExpression = fn;
}

// Every key explain() knows: a misspelt one is refused whatever the rule;
// keys of another rule (axis with numpy) are ignored, so generic callers can pass them.
const KEYS = ['rule', 'shapes', 'operands', 'axis', 'mode', 'axesMapping', 'shaping', 'expression', 'dtypes', 'broadcast', 'keepdims', 'strides'];
const RULES = ['numpy', 'none', 'pdpd', 'broadcastTo', 'named'];

/**
 * The BigInt twin of build_loop (src/core/plan.cpp), with the operands'
 * strides of finalize_plan before it: the same rules on exact integers where
 * the engine's int64 saturates at 2^63 and its doubles round past 2^53. Used
 * only past 2^53 (see exact() below); tests/js/explain-exact.test.js holds it
 * to the engine's own plan on small shapes so the two cannot drift (it imports
 * it from explain.js; index.js does not re-export it: not public API).
 * `shape` is the static output shape; each operand { shape, srcAxis, aligned, verdicts };
 * `views`, per operand, null (row-major) or its strides (explain's `strides`).
 * Returns { strides: bigint[][], loop: { shape: bigint[], strides: bigint[][], inner } }.
 */
export function exactPlan(shape, operands, views) {
  const n = operands.length;
  const strides = operands.map((o, k) => {
    const own = views?.[k]?.map(BigInt) ?? []; // a view's strides, else row-major strides of its own shape
    if (!views?.[k]) for (let i = o.shape.length - 1, acc = 1n; i >= 0; acc *= BigInt(o.shape[i]), i--) own[i] = acc;
    return shape.map((_, a) => (o.srcAxis[a] === null || o.aligned[a] === 1 || o.verdicts[a] === 'stretched' ? 0n : own[o.srcAxis[a]]));
  });
  // Inner kinds by their LoopPlan::Inner number (contract.def): 0 contiguous,
  // 1 second-scalar, 2 first-scalar, 3 both-scalar, 4 strided.
  if (shape.includes(0)) return { strides, loop: { shape: [0n], strides: strides.map(() => [1n]), inner: C.inner[0] } };
  // Innermost to outermost, extent-1 axes skipped; an axis joins the current
  // group when every operand's stride on it is the group's innermost stride
  // times the group's extent. Groups are built innermost-first, then reversed.
  const ls = [];
  const lst = strides.map(() => []);
  for (let a = shape.length - 1; a >= 0; a--) {
    const ext = BigInt(shape[a]);
    if (ext === 1n) continue;
    const m = ls.length;
    if (m > 0 && strides.every((st, k) => st[a] === lst[k][m - 1] * ls[m - 1])) ls[m - 1] *= ext;
    else { ls.push(ext); strides.forEach((st, k) => lst[k].push(st[a])); }
  }
  if (ls.length === 0) { ls.push(1n); lst.forEach((v) => v.push(1n)); } // every extent 1 (or rank 0): one element
  ls.reverse();
  lst.forEach((v) => v.reverse());
  const last = ls.length - 1;
  const innerOf = (k) => (k >= n || ls[last] === 1n ? 1n : lst[k][last]);
  const s0 = innerOf(0), s1 = innerOf(1);
  const inner = s0 === 1n && s1 === 1n ? 0 : s0 === 1n && s1 === 0n ? 1 : s0 === 0n && s1 === 1n ? 2 : s0 === 0n && s1 === 0n ? 3 : 4;
  return { strides, loop: { shape: ls, strides: lst, inner: C.inner[inner] } };
}

/** Exact values as numbers, null where past 2^53 (then also `text`: every value as decimal text). */
function exactList(values) {
  const nums = values.map((v) => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null));
  return { nums, text: nums.includes(null) ? values.map(String) : null };
}

/**
 * Past 2^53 the decoded strides and loop may be rounded or saturated: put the
 * exact ones in their place (null past 2^53, with a Text field of every value
 * beside, as size has sizeText). Every stride and loop extent is at most the
 * product of the nonzero dims of an operand or of the output (a 0 dim zeroes
 * the strides before it, not those after: [0, 2**40, 2**40] has a stride
 * 2**80); that product, as a double, is exact below 2^53, so below it
 * nothing changes. A view's strides (`views`, into an ok plan as the engine
 * reads them) are safe integers as given.
 */
function exact(shape, operands, loop, views) {
  const big = (s) => s.reduce((p, d) => (d === 0 ? p : p * d), 1) >= 2 ** 53;
  if (!big(shape) && !operands.some((o) => big(o.shape))) return loop;
  const x = exactPlan(shape, operands, views);
  operands.forEach((o, k) => {
    const { nums, text } = exactList(x.strides[k]);
    o.strides = nums;
    if (text) o.stridesText = text;
  });
  if (loop === null) return null;
  const ls = exactList(x.loop.shape);
  const lst = x.loop.strides.map(exactList);
  return {
    shape: ls.nums,
    ...(ls.text ? { shapeText: ls.text } : {}),
    strides: lst.map((l) => l.nums),
    ...(lst.some((l) => l.text) ? { stridesText: x.loop.strides.map((v) => v.map(String)) } : {}),
    inner: x.loop.inner,
  };
}

function finish(ctx, res, names, views) {
  const ok = res.status === 0;
  if (ok) res.shape();
  const plan = res.plan(names);
  const { shape, isStatic, rank, operands } = plan;
  const loop = isStatic ? exact(shape, operands, plan.loop, ok && views) : plan.loop; // (the engine reads views into a plan it made)
  // After the plan: formatting the message may run the caller's toString()s.
  const error = ok ? null : makeError(ctx, res.error());
  const axes = [];
  for (let a = 0; a < rank; a++) axes.push({ index: a, negative: a - rank, dim: shape[a], verdicts: operands.map((o) => o.verdicts[a]) });
  const sz = isStatic ? exactSize(shape) : null;
  return {
    ok,
    rule: ctx.kind === 'to' ? 'broadcastTo' : ctx.rule,
    ...(ctx.kind === 'to' ? { mode: ctx.mode } : {}),
    shape,
    rank: shape === UNKNOWN_RANK ? null : rank,
    static: isStatic,
    size: sz ? sz.size : null,
    ...(sz && sz.size === null ? { sizeText: sz.text } : {}),
    operands,
    axes,
    loop,
    error: error ? error.toJSON() : null,

  };
}

/**
 * explain's `strides`: per shape, null (row-major) or one integer per dim (a
 * view's, as an operand gives them and refused as its are), the plan then
 * reads each view so (its operands' strides and the merged loop). Only static
 * shapes have strides.
 */
function viewStrides(given, shapes, names = operandName) {
  if (given === undefined || given === null) return null;
  if (!Array.isArray(given) || given.length > shapes.length) throw new TypeError(`explain: strides must be an array with one entry (null, or one stride per dim) per shape, at most ${shapes.length}`);
  return Array.from(given, (st, k) => {
    if (st === null || st === undefined) return null;
    const s = shapes[k];
    const what = `explain: ${names(k)}`;
    st = readStrides(st, what);
    if (typeof s === 'string' || !s.every((d) => typeof d === 'number')) throw new TypeError(`explain: strides[${k}]: only a static shape has strides`);
    strideCount(st, s, what);
    return st;
  });
}

function explainInner(req) {
  mod();
  if (req === null || typeof req !== 'object' || Array.isArray(req)) throw new TypeError('explain: the request must be an object like { rule, shapes }');
  const rule = req.rule ?? 'numpy';
  if (typeof rule !== 'string' || !RULES.includes(rule)) {
    throw new TypeError(`explain: unknown rule ${describe(rule)}; use 'numpy', 'none', 'pdpd', 'broadcastTo' or 'named'`);
  }
  const o = readOptions(req, 'explain', KEYS);
  if (o.expression !== undefined) {
    // Expressions are the full entry's (expr.js registers itself); tensorcast/shapes has none.
    // The full entry always has it (index.js loads expr.js); FULL is a constant, so its page carries no refusal.
    if (!FULL) throw new TypeError("explain: expressions need the full entry: import from 'tensorcast'");
    return explainExpression(o);
  }
  if (rule === 'numpy' || rule === 'none' || rule === 'pdpd') {
    if (!Array.isArray(o.shapes)) throw new TypeError('explain: shapes must be an array of shapes');
    const n = o.shapes.length;
    if (rule !== 'numpy' && n !== 2) throw new TypeError(`explain: rule '${rule}' takes exactly two shapes`);
    checkCount(n);
    const shapes = new Array(n);
    for (let k = 0; k < n; k++) shapes[k] = copyShape(o.shapes[k], `explain: shape ${operandName(k)}`);
    const { rule: r, ctx, axis } = readType(rule, o.axis, shapes, 'explain');
    for (const s of shapes) checkShape(s, false, shapes);
    const strides = viewStrides(o.strides, shapes);
    return finish(ctx, shapeCall(C.A.explain, r, axis, shapes, null, strides), operandName, strides);
  }
  if (rule === 'broadcastTo') {
    if (!Array.isArray(o.shapes) || o.shapes.length !== 2) throw new TypeError("explain: rule 'broadcastTo' takes shapes [input, target]");
    const i = copyShape(o.shapes[0], 'explain: input shape');
    const t = copyShape(o.shapes[1], 'explain: target shape');
    const { rule: r, ctx, axis, mapping } = readTo(i, t, snapTo(o, [i, t], 'explain'), 'explain');
    const strides = viewStrides(o.strides === undefined ? undefined : [o.strides], [i], () => 'input'); // the input's (the target is no operand)
    return finish(ctx, shapeCall(C.A.explain, r, axis, [i, t], mapping, strides), () => 'input', strides);
  }
  // named
  if (!Array.isArray(o.operands) || o.operands.length !== 2) throw new TypeError("explain: rule 'named' takes operands [left, right]");
  const shaping = choose(o.shaping, C.shapings, 'intersection', 'explain', 'shaping');
  const na = readNamed(o.operands[0], 'left', 'explain');
  const nb = readNamed(o.operands[1], 'right', 'explain');
  const { res, nameList, labelList, rawName } = namedCall(C.A.explain, na, nb, shaping);
  const ctx = namedContext(na, nb);
  const out = finish(ctx, res, operandName);
  out.rule = 'named';
  out.shaping = shaping;
  out.dimNames = ctx.names;
  if (out.ok) {
    const { axes, needsGather } = res.namedAxes(labelList, rawName, true);
    out.named = namedResult(nameList, axes);
    out.dimNames = out.named.dims;
    out.needsGather = needsGather;
    out.namedAxes = axes.map((ax) => ({ ...ax, name: nameList[ax.name] }));
  }
  out.operands.forEach((op, k) => { op.dims = k === 0 ? na.dims : nb.dims; });
  return out;
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
    let rule = null;
    try { rule = request && typeof request === 'object' ? request.rule ?? 'numpy' : null; } catch { /* a throwing getter: no rule to report */ }
    return refusedPlan(e, rule);
  }
}

/** What explain() returns for a refusal `e` (also compile().explain()'s: neither throws). */
export function refusedPlan(e, rule) {
  const error = e instanceof BroadcastError ? e.toJSON() : { name: e?.name ?? 'Error', code: null, message: String(e?.message ?? e), shapes: [], axis: null, dims: null };
  if (e instanceof SyntaxError && typeof e.offset === 'number') { // an expression's: where it is
    error.offset = e.offset;
    error.length = e.length;
  }
  return { ok: false, rule, shape: null, rank: null, static: false, size: null, operands: [], axes: [], loop: null, error };
}

// explain(): the plan of a rule as plain JSON — output shape, each operand
// aligned with its strides (0 where stretched) and per-axis verdicts (every
// clashing axis marked), the merged loop. Never throws.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError, operandName } from './errors.js';
import { copyShape, checkShape, exactSize, UNKNOWN_RANK } from './shapes.js';
import { readOptions, choose } from './options.js';
import { readType, readTo, shapeCall, namedCall, namedContext } from './rules.js';
import { readNamed, namedResult } from './named.js';

// Every key explain() knows: a misspelt one is refused whatever the rule;
// keys of another rule (axis with numpy) are ignored, so generic callers can pass them.
const KEYS = ['rule', 'shapes', 'operands', 'axis', 'mode', 'axesMapping', 'shaping'];
const RULES = ['numpy', 'none', 'pdpd', 'broadcastTo', 'named'];

function finish(ctx, res, names) {
  const ok = res.status === 0;
  if (ok) res.shape();
  const plan = res.plan(names);
  const { shape, isStatic, rank, operands, loop } = plan;
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

function explainInner(req) {
  mod();
  if (req === null || typeof req !== 'object' || Array.isArray(req)) throw new TypeError('explain: the request must be an object like { rule, shapes }');
  const rule = req.rule ?? 'numpy';
  if (typeof rule !== 'string' || !RULES.includes(rule)) {
    throw new TypeError(`explain: unknown rule ${typeof rule === 'string' ? JSON.stringify(rule) : String(rule)}; use 'numpy', 'none', 'pdpd', 'broadcastTo' or 'named'`);
  }
  const o = readOptions(req, 'explain', KEYS);
  if (rule === 'numpy' || rule === 'none' || rule === 'pdpd') {
    if (!Array.isArray(o.shapes)) throw new TypeError('explain: shapes must be an array of shapes');
    const n = o.shapes.length;
    if (rule !== 'numpy' && n !== 2) throw new TypeError(`explain: rule '${rule}' takes exactly two shapes`);
    if (n > C.limits.maxOperands) throw new BroadcastError(`cannot broadcast ${n} shapes in one call: at most ${C.limits.maxOperands}`, { code: 'TOO_LARGE', shapes: [], axis: null, dims: null });
    const shapes = new Array(n);
    for (let k = 0; k < n; k++) shapes[k] = copyShape(o.shapes[k], `explain: shape ${operandName(k)}`);
    const { rule: r, ctx, axis } = readType(rule, o.axis, shapes, 'explain');
    for (const s of shapes) checkShape(s, false, shapes);
    return finish(ctx, shapeCall(C.A.explain, r, axis, shapes, null), operandName);
  }
  if (rule === 'broadcastTo') {
    if (!Array.isArray(o.shapes) || o.shapes.length !== 2) throw new TypeError("explain: rule 'broadcastTo' takes shapes [input, target]");
    const i = copyShape(o.shapes[0], 'explain: input shape');
    const t = copyShape(o.shapes[1], 'explain: target shape');
    const { rule: r, ctx, axis, mapping } = readTo(i, t, o, 'explain');
    return finish(ctx, shapeCall(C.A.explain, r, axis, [i, t], mapping), () => 'input');
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
    const error = e instanceof BroadcastError ? e.toJSON() : { name: e?.name ?? 'Error', code: null, message: String(e?.message ?? e), shapes: [], axis: null, dims: null };
    let rule = null;
    try { rule = request && typeof request === 'object' ? request.rule ?? 'numpy' : null; } catch { /* a throwing getter: no rule to report */ }
    return { ok: false, rule, shape: null, rank: null, static: false, size: null, operands: [], axes: [], loop: null, error };
  }
}

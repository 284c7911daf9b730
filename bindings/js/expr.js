// Fused expressions: evaluate('(x - m) / s', { x, m, s }) runs the whole
// expression in one pass over memory, with no temporary per op.
//
// The engine does the work (src/expr): it parses the text (JS syntax and
// precedence), types it (the ops' own dtype rules), plans the broadcast of the
// whole tree with the chosen rule, merges the loop, and either writes a small
// wasm module for it (src/expr/wasmgen.cpp; compiled here once, then cached)
// or runs its block interpreter over the library's 1-d kernels. Either way the
// result is, bit for bit, what the same ops called one by one give.
//
// This file takes the snapshot (every user value read once) and makes the
// request, which execute.js runs as every data call runs; beside it:
// expr-parse.js (the text, once), expr-codec.js (the key sent and the answers
// read back), expr-explain.js (explain) and expr-large.js (large single ops
// run as one-op expressions).
import { C, none } from './contract.js';
import { mod } from './loader.js';
import { checkKeys, readBroadcast } from './options.js';
import { readOperand, settle, readNames, isScalar, readOut, withNames, hasNames } from './operands.js';
import { request, execute, runExpr, sameInts } from './execute.js';
import { Tensor, renamed } from './tensor.js';
import { registerExpressions, refusedPlan } from './explain.js';
import { generatedCode } from './generated.js';
import { parseText } from './expr-parse.js';
import { shapesOf, NO_TENSOR, encode, readResultNames, refusal, ruleOf, noDims, keepdimsOf } from './expr-codec.js';
import { explainExpr } from './expr-explain.js';
import { plan, explainProgram } from './program.js';

const RUN_KEYS = ['out', 'broadcast', 'shaping', 'keepdims'];
const CACHE_MAX = 256;
const cache = new Map(none); // text -> Expression (least recently used first)

// ---- the snapshot of one run -----------------------------------------------------------

function readRun(E, fn, operands, options) {
  let outIn;
  let bc;
  let shapingIn;
  let keepdims = false;
  if (options !== undefined) {
    checkKeys(options, fn, RUN_KEYS);
    outIn = options.out;
    bc = options.broadcast;
    shapingIn = options.shaping;
    keepdims = keepdimsOf(options.keepdims, fn);
  }
  const { type: typeIn, axis: axisIn } = readBroadcast(bc, fn);
  if (operands === null || typeof operands !== 'object' || Array.isArray(operands)) {
    throw new TypeError(`${fn}: operands must be an object of named operands, e.g. { ${E.inputs.map((n) => `${n}: ...`).join(', ') || 'x: ...'} }`);
  }
  const names = E.inputs;
  const what = E.what; // `evaluate: x`, made once per expression
  const values = new Array(names.length);
  let tensors = 0;
  let named = false;
  for (let k = 0; k < names.length; k++) {
    const name = names[k];
    // Own properties only: a name such as "constructor" or "__proto__" is never read from a prototype.
    if (!Object.hasOwn(operands, name)) {
      throw new TypeError(`${fn}: the expression reads "${name}" but operands has no own property "${name}"`);
    }
    const v = operands[name];
    if (isScalar(v)) {
      values[k] = v;
    } else {
      const o = readOperand(v, what[k]);
      values[k] = o;
      tensors++;
      if (hasNames(o)) named = true;
    }
  }
  const dest = outIn === undefined ? null : readOut(outIn, fn);
  if (tensors === 0) throw new TypeError(NO_TENSOR(fn));
  const ops = settleAll(fn, values, names, what, named);
  const s = { values, ops, dest, rule: C.numpy, axis: -1, shaping: 0, keepdims, named, shapes: null };
  ruleOf(fn, s, typeIn, axisIn, shapingIn);
  return s;
}

/**
 * The last reads of a run's operand records (`values`, scalars as their values),
 * then their lengths checked: named, every tensor operand's names; no user code
 * runs after. Returns the tensor operands, in order (`values` itself when every
 * operand is one: no second array).
 */
function settleAll(fn, values, names, what, named) {
  let tensors = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (typeof v !== 'object') continue;
    tensors++;
    if (!named) continue;
    // A rank-0 operand without names joins named ones (as a copy: a tensor's record is never changed), as in the ops.
    if (!v.named && v.dims === undefined) {
      if (v.shape?.length !== 0) throw noDims(fn, names[k]);
      values[k] = withNames(v, [], []);
    }
    readNames(v, names[k], fn);
  }
  // No user code runs past this point.
  for (let k = 0; k < values.length; k++) if (typeof values[k] === 'object') settle(values[k], what[k]);
  return tensors === values.length ? values : values.filter((v) => typeof v === 'object');
}

// ---- the request -----------------------------------------------------------------------

/**
 * The key of this run: the last one's when the inputs have the same dtypes,
 * shapes and scalar values (a compiled expression in a loop), else encoded.
 */
export function keyOf(E, fn, s) {
  const L = E.last;
  const v = s.values;
  if (L !== null && !s.named && L.rule === s.rule && L.axis === s.axis && L.keepdims === s.keepdims && sameInputs(L.values, v)) {
    return HIT.at(L.key);
  }
  const r = encode(E, fn, s);
  r.key = Float64Array.from(r.key);
  if (!s.named) {
    E.last = { rule: s.rule, axis: s.axis, keepdims: s.keepdims, key: r.key,
      // No operand's record is kept: a resident one's leads to its tensor, which the
      // expression (cached, as is the op of a large call in expr-large.js) would keep alive
      // past its last use, so that the FinalizationRegistry never frees it. A resident
      // operand's shape array is kept instead: its record's own, which never changes (the
      // Tensor hands out copies) and holds nothing, so the same tensor is the same array;
      // a plain operand's is copied (its record is new every run).
      values: v.map((x) => (typeof x === 'object' ? { dtype: x.dtype, shape: x.resident ? x.shape : x.shape.slice(), strides: x.strides } : x)),
      memo: null, // execute.js runExpr: the engine's last answer to this key, when it can be repeated
      outBytes: 64 }; // execute.js runExpr: the bytes of this key's last new typed-array result
  }
  return r;
}

// keyOf's answer on a hit: one object, refilled (read before the next run's keyOf).
const HIT = { key: null, interned: null, at(key) { this.key = key; return this; } };

function sameInputs(last, v) {
  if (last.length !== v.length) return false;
  for (let k = 0; k < v.length; k++) {
    const a = last[k];
    const b = v[k];
    if (typeof a !== 'object' || typeof b !== 'object') {
      if (!Object.is(a, b)) return false;
      continue;
    }
    // A resident tensor's shape is its record's own array: the same tensor, the same array (see keyOf).
    if (a.dtype !== b.dtype || !sameInts(a.strides ?? null, b.strides ?? null) || !sameInts(a.shape, b.shape)) return false;
  }
  return true;
}

// Where this engine's generated modules live (expr_call.cpp asks for Module.tcGen):
// made on the first run, so the loader (and tensorcast/shapes) carry none of it.
export function codeStore() {
  const M = mod();
  if (M.tcGen === undefined) M.tcGen = generatedCode();
}

function run(E, fn, operands, options) {
  codeStore();
  const s = readRun(E, fn, operands, options);
  const { key, interned } = keyOf(E, fn, s);
  if (!s.named) return runExpr(E, fn, s, key, s.ops, exprRequest);
  return execute(exprRequest(E, fn, s, key, s.ops, interned));
}

/**
 * where(cond, a, b) over named operands (ops.js, on the call's own records,
 * read and not yet settled; a scalar a or b as its value): the expression
 * where(c, a, b), which aligns cond, a and b by name as the element-wise ops
 * align two (shaping exact). The op's own kernel is positional only.
 */
export function namedWhere(values, dest) {
  codeStore();
  const E = compiled('where', 'where(c, a, b)');
  const ops = settleAll('where', values, WHERE_NAMES, WHERE_NAMES.map((n) => `where: ${n}`), true);
  const s = { values, ops, dest, rule: C.named, axis: -1, shaping: C.shapings.get('exact'), keepdims: false, named: true, shapes: null };
  const { key, interned } = keyOf(E, 'where', s);
  return execute(exprRequest(E, 'where', s, key, ops, interned));
}
const WHERE_NAMES = ['cond', 'a', 'b'];

/** The run as one request of execute.js (named operands; and a positional run's refusals, from runExpr). */
export function exprRequest(E, fn, s, key, ops, interned) {
  const out = s.dest;
  const c = request(C.A.evaluate, fn, s.rule, s.axis, ops, shapesOf(s), out !== null ? out.dtype : null, out, null);
  c.engineDtype = true;
  c.shaping = s.shaping;
  c.keepdims = s.keepdims;
  c.need = 1 + key.length + s.values.length;
  c.body = (h, p) => {
    const n = key.length;
    h[p++] = n;
    if (n > 32) {
      h.set(key, p);
      p += n;
    } else {
      for (let i = 0; i < n; i++) h[p++] = key[i]; // a loop: set() costs more on a short key
    }
    let t = 0;
    for (let k = 0; k < s.values.length; k++) h[p++] = typeof s.values[k] === 'object' ? ops[t++].ptr : 0;
    return p;
  };
  c.refuse = (res) => refusal(E, fn, s, res, interned);
  c.dtype = out !== null && out.resident ? out.dtype.id : -1; // the engine checks a resident out's dtype before writing
  if (s.named) {
    c.after = (res, r) => {
      const d = c.dest; // null when made apart for a view or a named out (execute.js intoOut checks the names then)
      if (d !== null && d.resident) return r; // the caller's out, which has no dims (those with dims are made apart)
      const names = readResultNames(res, interned, s.keepdims && E.reduce !== null);
      if (names.dims.length === 0) return r; // every dim reduced: an unnamed scalar, as the reductions give
      // A fresh resident result: a view with the names over its memory (renamed disposes the nameless one).
      if (r instanceof Tensor) return renamed(r, names.dims, names.coords ?? undefined);
      r.dims = names.dims;
      if (names.coords) r.coords = names.coords;
      return r;
    };
  }
  return c;
}

// ---- the public API --------------------------------------------------------------------

export class Expression {
  constructor(text, parsed) {
    this.source = text;
    this.inputs = Object.freeze(parsed.inputs.slice());
    this.what = this.inputs.map((n) => `evaluate: ${n}`);
    this.reduce = parsed.reduce;
    this.packed = parsed.packed;
    this.literals = parsed.literals;
    this.last = null; // keyOf(): the last run's inputs and key
    Object.freeze(this.reduce?.axes ?? []);
  }

  /** Run over `operands` ({ name: operand }); options { out, broadcast, shaping, keepdims }. */
  run(operands, options) {
    return run(this, 'evaluate', operands, options);
  }

  /**
   * The alignment of every operand and the program, for `shapes` ({ name: shape }); never runs data.
   * Never throws, as explain({ expression, shapes }) (the same answer): a refusal is { ok: false, error }.
   */
  explain(shapes, options) {
    try {
      return explainExpr(this, 'explain', shapes, options);
    } catch (e) {
      return refusedPlan(e, 'numpy');
    }
  }

  toString() {
    return this.source;
  }
}

function compiled(fn, text, shown) {
  if (typeof text !== 'string') throw new TypeError(`${fn}: the expression must be a string, got ${text === null ? 'null' : typeof text}`);
  let E = cache.get(text);
  if (E !== undefined) {
    cache.delete(text);
    cache.set(text, E);
    return E;
  }
  mod();
  // A program (statements, reductions inside): its passes are expressions of this cache (program.js).
  E = plan(fn, text, HOST) ?? new Expression(text, parseText(fn, text, shown));
  cache.set(text, E);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value);
  return E;
}

/**
 * Parse an expression once: returns { inputs, run(operands, options), explain(shapes, options), source }.
 * Syntax: JavaScript's operators and precedence over operand names and numbers, and calls of
 * the library's ops (add, minimum, where, sqrt, cast(x, 'int32'), ...); a reduction
 * (sum, prod, min, max, mean) may wrap the whole expression: sum(x * w, ['in']).
 * A syntax error is a SyntaxError naming the offset, with a caret under the token.
 */
export function compile(expression) {
  return compiled('compile', expression);
}

/**
 * Evaluate an expression over named operands in one pass, without a temporary per op:
 * evaluate('(x - m) / s', { x, m, s }). Operands are what the element-wise ops take
 * ({ data, shape }, resident tensors, named operands, numbers and bigints). Returns what they
 * return: { data, shape, dtype } for plain operands, a Tensor when an operand or out is resident.
 * Options: out, broadcast ({ type, axis }), shaping (named operands), keepdims (a reduction).
 */
export function evaluate(expression, operands, options) {
  const E = compiled('evaluate', expression);
  return E.passes === undefined ? run(E, 'evaluate', operands, options) : E.run(operands, options);
}

// How a program (program.js) compiles, runs and explains each of its passes.
const HOST = {
  compile: compiled,
  run: (E, operands, options) => run(E, 'evaluate', operands, options),
  explain: (E, shapes, options) => explainExpr(E, 'explain', shapes, options),
};

/** explain({ expression, shapes, dtypes?, broadcast?, shaping?, keepdims? }) (explain.js routes here). */
export function explainExpression(req) {
  const E = compiled('explain', req.expression);
  return (E.passes === undefined ? explainExpr : explainProgram)(E, 'explain', req.shapes, { dtypes: req.dtypes, broadcast: req.broadcast, shaping: req.shaping, keepdims: req.keepdims });
}

registerExpressions(explainExpression);

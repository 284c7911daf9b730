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
// This file takes the snapshot (every user value read once), encodes the
// request and reads the answer; execute.js runs it as every data call runs.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, makeError } from './errors.js';
import { checkKeys } from './options.js';
import { readType } from './rules.js';
import { copyShape, checkShape, UNKNOWN_RANK } from './shapes.js';
import { readOperand, settle, readNames, isScalar, readOut } from './operands.js';
import { internNamed, nameKey, checkOutNames, readNamed } from './named.js';
import { request, execute, runExpr } from './execute.js';
import { begin, call, header, requestBuffer } from './wire.js';
import { Tensor, renamed } from './tensor.js';
import { registerExpressions } from './explain.js';
import { generatedCode } from './generated.js';
import { STREAM_MIN } from './stream.js';

const RUN_KEYS = ['out', 'broadcast', 'shaping', 'keepdims'];
const BROADCAST_KEYS = ['type', 'axis'];
const CACHE_MAX = 256;
const cache = new Map(); // text -> Expression (least recently used first)

// ---- syntax errors ---------------------------------------------------------------------
// SyntaxCode (src/expr/parse.hpp), in order.
const SYNTAX = [
  null,
  (t) => `unexpected character ${quote(t)}`,
  (t) => `unexpected ${quote(t)}`,
  () => 'the expression ends too early',
  (t) => `${quote(t)} is not a function of tensorcast (the element-wise ops, unary ops, where, cast, sum, prod, min, max, mean)`,
  (t) => `wrong number of arguments to ${quote(t)}`,
  (t) => `${quote(t)} cannot stand here: strings name a dtype (cast's second argument) or a dim (a reduction's axes), and lists hold a reduction's axes`,
  () => 'a unary operator cannot be the left operand of ** (JavaScript refuses -x ** 2): write (-x) ** 2 or -(x ** 2)',
  (t) => `malformed number ${quote(t)}`,
  () => 'unterminated string',
  (t) => `${quote(t)}: a reduction (sum, prod, min, max, mean) may only wrap the whole expression`,
  () => null, // too long: its own message
  () => `more than ${C.limits.maxExpressionNodes} nodes`,
  () => `nested more than ${C.limits.maxExpressionDepth} levels deep`,
  () => `more than ${C.limits.maxExpressionInputs} distinct operand names`,
];

const quote = (t) => (t.length > 40 ? `"${t.slice(0, 37)}..."` : JSON.stringify(t));

/** The text around `pos` with a caret under [pos, pos + len). */
function excerpt(text, pos, len) {
  const from = Math.max(0, pos - 40);
  const to = Math.min(text.length, pos + Math.max(len, 1) + 40);
  const line = (from > 0 ? '…' : '') + text.slice(from, to).replace(/[\r\n\t]/g, ' ') + (to < text.length ? '…' : '');
  const lead = (from > 0 ? 1 : 0) + pos - from;
  return `\n  ${line}\n  ${' '.repeat(lead)}${'^'.repeat(Math.max(1, Math.min(len, to - pos)))}`;
}

function syntaxError(fn, text, code, pos, len) {
  const token = text.slice(pos, pos + len);
  const what = SYNTAX[code]?.(token) ?? 'syntax error';
  const e = new SyntaxError(`${fn}: ${what} at offset ${pos}${excerpt(text, pos, len)}`);
  e.offset = pos;
  e.length = len;
  return e;
}

// ---- parsing (once per text) -----------------------------------------------------------

/** The text as the request carries it: its length, then UTF-16 units, 4 per double. */
function pack(text) {
  const n = text.length;
  const packed = new Float64Array(1 + Math.ceil(n / 4));
  packed[0] = n;
  const u = new Uint16Array(packed.buffer, 8, Math.ceil(n / 4) * 4);
  for (let i = 0; i < n; i++) u[i] = text.charCodeAt(i);
  return packed;
}

/**
 * A number literal's value as JavaScript gives it (the engine checked its syntax):
 * separators dropped, a BigInt literal's value as a number (its exact bits are
 * the engine's), a sign folded into an axis literal kept.
 */
function literalValue(t) {
  const s = t.replace(/[\s_]/g, '');
  if (s.endsWith('n')) {
    const neg = s[0] === '-';
    return Number(BigInt(neg ? s.slice(1, -1) : s.slice(0, -1))) * (neg ? -1 : 1);
  }
  return Number(s);
}

function parseText(fn, text) {
  if (text.length > C.limits.maxExpressionLength) {
    const e = new SyntaxError(`${fn}: the expression is ${text.length} characters long; at most ${C.limits.maxExpressionLength}`);
    e.offset = 0;
    e.length = 0;
    throw e;
  }
  const packed = pack(text);
  const p = begin(packed.length);
  const h = requestBuffer();
  header(h, C.A.parse, 0, -1, 0);
  h.set(packed, p);
  const res = call(p + packed.length);
  const code = res.next();
  const pos = res.next();
  const len = res.next();
  if (code !== 0) throw syntaxError(fn, text, code, pos, len);
  const n = res.next();
  const inputs = [];
  for (let k = 0; k < n; k++) {
    const q = res.next();
    inputs.push(text.slice(q, q + res.next()));
  }
  const nLit = res.next();
  const literals = new Float64Array(nLit);
  for (let k = 0; k < nLit; k++) {
    const q = res.next();
    literals[k] = literalValue(text.slice(q, q + res.next()));
  }
  let reduce = null;
  const op = res.next();
  if (op >= 0) {
    const count = res.next();
    let axes = null;
    if (count >= 0) {
      axes = [];
      for (let i = 0; i < count; i++) {
        const kind = res.next();
        const a = res.next();
        const b = res.next();
        axes.push(kind === 1 ? { name: text.slice(a, a + b) } : { value: literalValue(text.slice(a, a + b)), pos: a });
      }
    }
    reduce = { op: [...C.reduceOps.keys()][op], axes };
  }
  return { packed, inputs, reduce, literals };
}

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
    const kd = options.keepdims;
    if (kd !== undefined && typeof kd !== 'boolean') throw new TypeError(`${fn}: options.keepdims must be a boolean`);
    keepdims = kd === true;
  }
  let typeIn;
  let axisIn;
  if (bc !== undefined) {
    if (bc === null || typeof bc !== 'object') throw new TypeError(`${fn}: options.broadcast must be { type, axis }`);
    checkKeys(bc, fn, BROADCAST_KEYS, ': options.broadcast');
    typeIn = bc.type;
    axisIn = bc.axis;
  }
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
    if (!hasOwn.call(operands, name)) {
      throw new TypeError(`${fn}: the expression reads "${name}" but operands has no own property "${name}"`);
    }
    const v = operands[name];
    if (isScalar(v)) {
      values[k] = v;
    } else {
      const o = readOperand(v, what[k]);
      values[k] = o;
      tensors++;
      if (o.named || o.dims !== undefined) named = true;
    }
  }
  const dest = outIn === undefined ? null : readOut(outIn, fn);
  if (tensors === 0) throw new TypeError(NO_TENSOR(fn));
  if (named) {
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      if (typeof v !== 'object') continue;
      if (!v.named && v.dims === undefined) throw new TypeError(`${fn}: "${names[k]}" has no dims while other operands do: give every tensor operand dims (named) or none`);
      readNames(v, names[k], fn);
    }
  }
  // No user code runs past this point.
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (typeof v === 'object') settle(v, what[k]);
  }
  // The tensor operands, in order: `values` itself when every operand is one (no second array).
  const ops = tensors === values.length ? values : values.filter((v) => typeof v === 'object');
  const s = { values, ops, dest, rule: C.numpyRule, axis: -1, shaping: 0, keepdims, named, shapes: null };
  if (named) {
    if (typeIn !== undefined || axisIn !== undefined) throw new TypeError(`${fn}: options.broadcast applies to positional operands; named operands align by name (options.shaping)`);
    s.rule = C.namedRule;
    s.shaping = C.shapings.get(shapingIn ?? 'exact');
    if (s.shaping === undefined) throw new TypeError(`${fn}: options.shaping must be 'exact', 'intersection' or 'union'`);
  } else {
    if (shapingIn !== undefined) throw new TypeError(`${fn}: options.shaping applies to named operands (with dims) only`);
    if (typeIn !== undefined || axisIn !== undefined) ({ rule: s.rule, axis: s.axis } = readType(typeIn, axisIn, shapesOf(s), fn));
  }
  return s;
}

/**
 * The run's operand shapes (a scalar's is []), for its request and its
 * errors: made when first asked (a repeated run needs none), from the settled
 * records, which hold the shapes as read.
 */
function shapesOf(s) {
  if (s.shapes === null) s.shapes = s.values.map((v) => (typeof v === 'object' ? v.shape : SCALAR));
  return s.shapes;
}

const hasOwn = Object.prototype.hasOwnProperty;
const SCALAR = Object.freeze([]);
const NO_TENSOR = (fn) => `${fn}: the expression reads no tensor operand, so nothing gives it a dtype and a shape: pass at least one operand as { data, shape } or a tensor`;

// ---- the request -----------------------------------------------------------------------

/** The key (everything the engine compiles from) as an array of doubles, and the tensor records. */
function encode(E, fn, s) {
  const key = Array.from(E.packed);
  key.push(E.literals.length);
  for (let i = 0; i < E.literals.length; i++) key.push(E.literals[i]);
  let enc = null;
  let interned = null;
  if (s.named) {
    const tensors = s.values.filter((v) => typeof v === 'object').map((v) => ({ dims: v.dims, sizes: v.shape, labels: v.labels ?? v.dims.map(() => null) }));
    interned = internNamed(...tensors);
    enc = interned.enc;
  }
  let t = 0;
  for (let k = 0; k < s.values.length; k++) {
    const v = s.values[k];
    if (typeof v === 'number') {
      key.push(1, v);
    } else if (typeof v === 'bigint') {
      const b = BigInt.asUintN(64, v);
      key.push(2, Number(BigInt.asIntN(32, b >> 32n)), Number(b & 0xffffffffn));
    } else {
      key.push(0, v.dtype.id);
      if (s.named) {
        const e = enc[t];
        key.push(e.ids.length);
        for (let i = 0; i < e.ids.length; i++) {
          key.push(e.ids[i], e.sizes[i]);
          const ls = e.lab[i];
          key.push(ls ? ls.length : -1);
          if (ls) for (let j = 0; j < ls.length; j++) key.push(ls[j]);
        }
      } else {
        key.push(v.shape.length, ...v.shape);
      }
      t++;
    }
  }
  const axes = E.reduce?.axes ?? null;
  if (axes === null) {
    key.push(-1);
  } else {
    key.push(axes.length);
    for (const a of axes) {
      if (a.name !== undefined) {
        const id = s.named ? interned.names.get(nameKey(a.name)) : undefined;
        if (id === undefined) {
          throw new BroadcastError(`${fn}: ${E.reduce.op} over dim "${a.name}", but ${s.named ? `no operand has a dim "${a.name}"` : 'the operands have no dim names (give them dims to reduce by name)'}`,
            { code: 'INVALID_AXIS', shapes: shapesOf(s), axis: null, dims: null });
        }
        key.push(1, id);
      } else {
        key.push(0, a.value);
      }
    }
  }
  return { key, interned };
}

/**
 * The key of this run: the last one's when the inputs have the same dtypes,
 * shapes and scalar values (a compiled expression in a loop), else encoded.
 */
function keyOf(E, fn, s) {
  const L = E.last;
  const v = s.values;
  if (L !== null && !s.named && L.rule === s.rule && L.axis === s.axis && L.keepdims === s.keepdims && sameInputs(L.values, v)) {
    return HIT.at(L.key);
  }
  const r = encode(E, fn, s);
  r.key = Float64Array.from(r.key);
  if (!s.named) {
    E.last = { rule: s.rule, axis: s.axis, keepdims: s.keepdims, key: r.key,
      // A resident operand's record (its tensor's own, the same every run); a plain one's is new
      // every run and not kept (it holds the caller's array).
      values: v.map((x) => (typeof x === 'object' ? { rec: x.resident ? x : null, dtype: x.dtype, shape: x.shape.slice() } : x)),
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
    // The same record: a resident tensor's own, whose dtype and shape never change (a plain
    // operand's record is new every run).
    if (a.rec === b) continue;
    if (a.dtype !== b.dtype) return false;
    const sa = a.shape;
    const sb = b.shape;
    if (sa.length !== sb.length) return false;
    for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return false;
  }
  return true;
}

// Where this engine's generated modules live (expr_call.cpp asks for Module.tcGen):
// made on the first run, so the loader (and tensorcast/shapes) carry none of it.
function codeStore() {
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

/** The run as one request of execute.js (named operands; and a positional run's refusals, from runExpr). */
function exprRequest(E, fn, s, key, ops, interned) {
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
  c.refuse = (res) => refusal(E, fn, s, res);
  c.dtype = out !== null && out.resident ? out.dtype.id : -1; // the engine checks a resident out's dtype before writing
  if (s.named) {
    c.after = (res, r) => {
      if (out !== null && out.resident) res.shape(); // result() returned out without reading the shape
      const names = readNames2(res, interned);
      if (out !== null && out.resident) {
        checkOutNames(fn, out, names.dims, names.labels);
        return r;
      }
      // A fresh resident result: a view with the names over its memory (renamed disposes the nameless one).
      if (r instanceof Tensor) return renamed(r, names.dims, names.coords ?? undefined);
      r.dims = names.dims;
      if (names.coords) r.coords = names.coords;
      return r;
    };
  }
  return c;
}

/** The named result's dims (and coords) from the response, after its shape. */
function readNames2(res, interned) {
  const n = res.next();
  const dims = [];
  const labels = [];
  const coords = [];
  for (let a = 0; a < n; a++) {
    const kept = res.next() === 1;
    const id = res.next();
    const k = res.next();
    let ls = null;
    if (k >= 0) {
      ls = [];
      const name = interned.nameList[id];
      const raw = interned.rawName.has(id);
      for (let j = 0; j < k; j++) {
        const l = res.next();
        ls.push(raw ? l : interned.labelList[l]);
      }
      if (kept) coords.push([nameKey(name), ls]);
    }
    if (!kept) continue;
    dims.push(interned.nameList[id]);
    labels.push(ls);
  }
  return { dims, labels, coords: coords.length ? Object.fromEntries(coords) : null };
}

function explainCall(s, key) {
  const p = begin(1 + key.length);
  const h = requestBuffer();
  const b = p - C.REQ_LEN;
  header(h, C.A.explainExpression, s.rule, s.axis, s.values.length);
  h[b + C.REQ.shaping] = s.shaping;
  h[b + C.REQ.keepdims] = s.keepdims ? 1 : 0;
  h[p] = key.length;
  for (let i = 0; i < key.length; i++) h[p + 1 + i] = key[i];
  const res = call(p + 1 + key.length);
  return res;
}

// Fail codes (src/expr/expr.hpp), in order.
const FAIL = ['ok', 'mismatch', 'domain', 'no_tensor', 'not_integer', 'bad_dtype', 'broadcast', 'gather', 'bad_axis', 'unknown_dim', 'out_dtype'];

/** The error of a refused expression, from the response (its cursor after the head). */
function refusal(E, fn, s, res) {
  const head = res.error();
  // A refusal of the compile step has no shape (-1) and a failure block; one of the run
  // (min/max of no elements, no memory) has the result's shape and no block.
  if (res.shape() !== UNKNOWN_RANK) return runFailure(E, fn, s, head);
  const code = FAIL[res.next()] ?? 'ok';
  const pos = res.next();
  const len = res.next();
  const a = C.dtypes[res.next()]?.name;
  const b = C.dtypes[res.next()]?.name;
  const entry = res.next();
  const nShapes = res.next();
  const shapes = [];
  for (let k = 0; k < nShapes; k++) shapes.push(res.shape());
  const text = E.source;
  const at = `${fn}: ${quote(text.slice(pos, pos + len))} (offset ${pos})`;
  const where = excerpt(text, pos, len);
  switch (code) {
    case 'mismatch':
      return new BroadcastError(`${at} mixes ${a} and ${b}: the operands of an op share one dtype; convert one with cast(..., '${a}')${where}`,
        { code: 'DTYPE_MISMATCH', shapes: shapesOf(s), axis: null, dims: [a, b] });
    case 'domain':
      return new BroadcastError(`${at}: the op does not take ${a}${/float/.test(a) ? ' (it takes integer dtypes)' : " (it takes float dtypes: cast(x, 'float32') first)"}${where}`,
        { code: 'DTYPE_MISMATCH', shapes: shapesOf(s), axis: null, dims: [a] });
    case 'out_dtype':
      return new BroadcastError(`${fn}: out: a ${a} tensor cannot hold the ${b} result`, { code: 'DTYPE_MISMATCH', shapes: shapesOf(s), axis: null, dims: [a, b] });
    case 'no_tensor':
      return new TypeError(NO_TENSOR(fn));
    case 'not_integer':
      return new TypeError(`${at}: a number that is not an integer cannot be a ${a} element${where}`);
    case 'bad_dtype':
      return new TypeError(`${at}: not a dtype; one of ${C.dtypes.map((d) => d.name).join(', ')}${where}`);
    case 'broadcast': {
      const e = makeError({ kind: 'elementwise', rule: C.ruleList[s.rule]?.name ?? 'numpy', shapes, axis: s.axis }, head);
      return new BroadcastError(`${at}: ${e.message}${where}`, { code: e.code, shapes, axis: e.axis, dims: e.dims, operands: e.operands, clashes: e.clashes });
    }
    case 'gather':
      return new BroadcastError(`${at}: these named operands' coordinates differ, and shaping '${[...C.shapings.keys()][s.shaping]}' would re-index them; expressions run without re-indexing: align them first with the element-wise op (e.g. add(a, b, { shaping }))${where}`,
        { code: 'INCOMPATIBLE_DIMS', shapes: shapesOf(s), axis: null, dims: null });
    case 'bad_axis':
      return new BroadcastError(`${fn}: ${E.reduce?.op ?? 'reduction'} axis ${head.detail} (entry ${entry}) is out of range or repeated for the expression's result of rank ${head.a}`,
        { code: 'INVALID_AXIS', shapes: shapesOf(s), axis: entry, dims: null });
    case 'unknown_dim':
      return new BroadcastError(`${fn}: ${E.reduce?.op ?? 'reduction'} over a dim name the expression's result does not have (entry ${entry})`,
        { code: 'INVALID_AXIS', shapes: shapesOf(s), axis: entry, dims: null });
    default: {
      const st = C.statuses[head.status] ?? 'INVALID_SHAPE';
      return new BroadcastError(`${fn}: the engine refused the expression (${st})`, { code: st, shapes: shapesOf(s), axis: null, dims: null });
    }
  }
}

/** The error of an expression the engine compiled but could not run. */
function runFailure(E, fn, s, head) {
  const st = C.statuses[head.status] ?? 'INVALID_SHAPE';
  if (st === 'INVALID_AXIS' && head.detail === -6) { // kDetailEmptyReduction (src/kernels/reduce.hpp)
    const op = E.reduce?.op ?? 'the reduction';
    return new BroadcastError(`${fn}: ${op} over an axis of size 0: ${op} of no elements has no value (sum gives 0, prod 1); reduce with sum or prod, or over axes of nonzero size`,
      { code: st, shapes: shapesOf(s), axis: null, dims: [0] });
  }
  return new BroadcastError(`${fn}: the engine could not run the expression (${st})`, { code: st, shapes: shapesOf(s), axis: null, dims: null });
}

// ---- explain ---------------------------------------------------------------------------

/** { name: shape | { dims, shape, coords } } as snapshot values (number inputs: a number). */
function readShapes(E, fn, shapesIn, dtypesIn) {
  if (shapesIn === null || typeof shapesIn !== 'object' || Array.isArray(shapesIn)) throw new TypeError(`${fn}: shapes must be an object { operandName: shape }`);
  const values = [];
  for (const name of E.inputs) {
    if (!Object.prototype.hasOwnProperty.call(shapesIn, name)) throw new TypeError(`${fn}: the expression reads "${name}" but shapes has no own property "${name}"`);
    const v = shapesIn[name];
    let dt = 'float32';
    if (dtypesIn !== undefined && dtypesIn !== null && Object.prototype.hasOwnProperty.call(dtypesIn, name)) dt = dtypesIn[name];
    if (typeof v === 'number' || typeof v === 'bigint') { values.push(v); continue; }
    const dtype = C.dtypeByName.get(dt);
    if (!dtype) throw new TypeError(`${fn}: dtypes.${name} must be one of ${C.dtypes.map((d) => d.name).join(', ')}`);
    if (Array.isArray(v)) {
      const shape = copyShape(v, `${fn}: shapes.${name}`);
      checkShape(shape, false, [shape]);
      values.push({ shape, dtype });
    } else {
      const n = readNamed(v, name, fn);
      values.push({ shape: n.sizes, dtype, dims: n.dims, labels: n.labels, named: true });
    }
  }
  return values;
}

function explainExpr(E, fn, shapesIn, options) {
  mod();
  let dtypesIn;
  let bc;
  let shapingIn;
  let keepdims = false;
  if (options !== undefined) {
    checkKeys(options, fn, ['dtypes', 'broadcast', 'shaping', 'keepdims']);
    dtypesIn = options.dtypes;
    bc = options.broadcast;
    shapingIn = options.shaping;
    keepdims = options.keepdims === true;
  }
  const values = readShapes(E, fn, shapesIn, dtypesIn);
  const named = values.some((v) => typeof v === 'object' && v.named);
  const shapes = values.map((v) => (typeof v === 'object' ? v.shape : []));
  let rule = C.numpyRule;
  let axis = -1;
  let shaping = 0;
  if (named) {
    rule = C.namedRule;
    shaping = C.shapings.get(shapingIn ?? 'exact') ?? 0;
  } else if (bc !== undefined && bc !== null) {
    ({ rule, axis } = readType(bc.type, bc.axis, shapes, fn));
  }
  const s = { values, dest: null, rule, axis, shaping, keepdims, named, shapes };
  const { key, interned } = encode(E, fn, s);
  const res = explainCall(s, key);
  if (res.status !== 0) throw refusal(E, fn, s, res);
  const shape = res.shape();
  const dtype = C.dtypes[res.next()].name;
  const root = res.shape();
  const rootRank = root.length;
  const names = readNames2(res, interned);
  const dims = named ? names.dims : null;
  const nSlots = res.next();
  const slots = [];
  for (let k = 0; k < nSlots; k++) {
    const input = res.next();
    const srcAxis = [];
    const strides = [];
    for (let a = 0; a < rootRank; a++) {
      const sa = res.next();
      srcAxis.push(sa < 0 ? null : sa);
      strides.push(res.next());
    }
    slots.push({ input, srcAxis, strides });
  }
  const nCode = res.next();
  const program = [];
  const CODES = ['load', 'constant', 'binary', 'unary', 'select', 'cast'];
  for (let i = 0; i < nCode; i++) {
    const f = [];
    for (let j = 0; j < 10; j++) f.push(res.next());
    const [code, op, dt, out, cond, ra, rb, rc, value, pos] = f;
    const ins = { op: CODES[code], dtype: C.dtypes[out].name, pos };
    if (code === 0) { ins.operand = E.inputs[slots[ra].input]; ins.slot = ra; }
    else if (code === 1) ins.value = value;
    else if (code === 2) { ins.op = C.ops[op].name; ins.args = [ra, rb]; ins.inputDtype = C.dtypes[dt].name; }
    else if (code === 3) { ins.op = C.unaryOps[op].name; ins.args = [ra]; ins.inputDtype = C.dtypes[dt].name; }
    else if (code === 4) { ins.op = 'where'; ins.args = [ra, rb, rc]; ins.condDtype = C.dtypes[cond].name; }
    else { ins.op = 'cast'; ins.args = [ra]; ins.from = C.dtypes[dt].name; }
    program.push(ins);
  }
  const lr = res.next();
  const lshape = [];
  for (let a = 0; a < lr; a++) lshape.push(res.next());
  const lstrides = [];
  for (let sl = 0; sl < 1 + nSlots; sl++) {
    const st = [];
    for (let a = 0; a < lr; a++) st.push(res.next());
    lstrides.push(st);
  }
  const gen = res.next();
  const rop = res.next();
  const mask = res.next();
  const prefix = res.next();
  const operands = slots.map((sl) => {
    const v = values[sl.input];
    const aligned = sl.srcAxis.map((sa) => (sa === null ? 1 : v.shape[sa]));
    const verdicts = sl.srcAxis.map((sa, a) => (sa === null ? 'new' : aligned[a] === 1 && root[a] !== 1 ? 'stretched' : 'equal'));
    return { name: E.inputs[sl.input], shape: v.shape, ...(v.dims ? { dims: v.dims } : {}), srcAxis: sl.srcAxis, aligned, verdicts, strides: sl.strides };
  });
  const axesReduced = [];
  for (let a = 0; a < rootRank; a++) if (Math.floor(mask / 2 ** a) % 2 === 1) axesReduced.push(a);
  return {
    ok: true,
    expression: E.source,
    inputs: [...E.inputs],
    broadcastShape: root,
    shape,
    dtype,
    ...(dims ? { dims } : {}),
    operands,
    program: program.map((ins, i) => ({ register: i, ...ins, text: programLine(ins, i) })),
    loop: { shape: lshape, strides: lstrides },
    execution: gen !== 0 ? 'generated' : 'interpreter',
    reduce: rop >= 0 ? { op: [...C.reduceOps.keys()][rop], axes: axesReduced, chunkAxes: prefix } : null,
  };
}

function programLine(ins, i) {
  const r = (k) => `r${k}`;
  switch (ins.op) {
    case 'load': return `r${i} = ${ins.operand} (${ins.dtype})`;
    case 'constant': return `r${i} = ${ins.value} (${ins.dtype})`;
    case 'cast': return `r${i} = cast(${r(ins.args[0])}, '${ins.dtype}')`;
    default: return `r${i} = ${ins.op}(${ins.args.map(r).join(', ')}) (${ins.dtype})`;
  }
}

// ---- a large element-wise call, as a one-op expression --------------------------------

const opCalls = new Map(); // `name(a, b)` / `name(a)` / `cast(a, 'dtype')` / `where(a, b, c)` -> { parsed, runs, generated }
/** Operand elements from which a call may be large enough for largeCall() (which decides by bytes): 1 MiB of 8-byte elements. */
export const LARGE = (1 << 20) / 8;
const NAMES = ['a', 'b', 'c']; // the operands of `text`, in order
const OP_RUNS = 8; // per op: the Expressions of its last 8 (dtypes, rule, axis, shapes); each repeats its own last run

/**
 * A large element-wise call (a binary or unary op, cast or where; after its
 * snapshot and checks, on the same records): run as the one-op expression
 * `text` (operands a, b, c in order), which from its second or third run goes a chunk at
 * a time (stream.js) instead of copying whole operands in, running the kernel
 * over them and copying the whole result out. Its result is the op's, bit for
 * bit (one op, the same operations). Null to run the call on its own path:
 * when an operand has dims (or names not read yet), when it copies under
 * STREAM_MIN bytes, when its result would be a new
 * resident tensor, when the generator does not write the op for these dtypes
 * (the interpreter does not go in chunks), or when the engine refuses the run
 * (the op's own path then refuses it with its own error).
 */
export function largeCall(text, ops, dest, outDtype, rule, axis) {
  let resident = false;
  let bytes = 0;
  let size = 0;
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k];
    if (o.dims !== undefined || o.named !== null) return null; // named operands: by name (§6), the op's own path
    if (o.resident) resident = true;
    else bytes += o.size * o.dtype.size;
    if (o.size > size) size = o.size;
  }
  if (dest === null && resident) return null; // a new resident result: the engine allocates it either way
  if (dest === null || !dest.resident) bytes += size * outDtype.size;
  if (bytes < STREAM_MIN) return null;
  codeStore();
  let c = opCalls.get(text);
  if (c === undefined) opCalls.set(text, (c = { parsed: parseText('evaluate', text), runs: new Map(), generated: new Map() }));
  let k = '';
  for (let i = 0; i < ops.length; i++) k += `${ops[i].dtype.id} `;
  if (!generates(c, text, k, ops)) return null;
  k += ` ${rule} ${axis}`;
  for (let i = 0; i < ops.length; i++) k += `|${ops[i].shape}`;
  let E = c.runs.get(k);
  if (E !== undefined) {
    c.runs.delete(k);
  } else {
    E = new Expression(text, c.parsed);
    if (c.runs.size >= OP_RUNS) c.runs.delete(c.runs.keys().next().value);
  }
  c.runs.set(k, E);
  const s = { values: ops, ops, dest, rule, axis, shaping: 0, keepdims: false, named: false, shapes: null };
  try {
    return runExpr(E, 'evaluate', s, keyOf(E, 'evaluate', s).key, ops, exprRequest);
  } catch {
    return null;
  }
}

/**
 * Whether the generator writes op call `text` (opCalls entry `c`) for the
 * dtypes of `ops` (`k` their ids): asked once per dtypes, by explaining the
 * call on any shapes.
 */
function generates(c, text, k, ops) {
  let generated = c.generated.get(k);
  if (generated === undefined) {
    const shapes = {};
    const dtypes = {};
    ops.forEach((o, i) => { shapes[NAMES[i]] = [2]; dtypes[NAMES[i]] = o.dtype.name; });
    try {
      generated = explainExpr(new Expression(text, c.parsed), 'explain', shapes, { dtypes }).execution === 'generated';
    } catch {
      generated = false; // dtypes the expression engine does not take: the op's own path answers
    }
    c.generated.set(k, generated);
  }
  return generated;
}

// ---- the public API --------------------------------------------------------------------

class Expression {
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

  /** The alignment of every operand and the program, for `shapes` ({ name: shape }); never runs data. */
  explain(shapes, options) {
    return explainExpr(this, 'explain', shapes, options);
  }

  toString() {
    return this.source;
  }
}

function compiled(fn, text) {
  if (typeof text !== 'string') throw new TypeError(`${fn}: the expression must be a string, got ${text === null ? 'null' : typeof text}`);
  let E = cache.get(text);
  if (E !== undefined) {
    cache.delete(text);
    cache.set(text, E);
    return E;
  }
  mod();
  E = new Expression(text, parseText(fn, text));
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
  return run(compiled('evaluate', expression), 'evaluate', operands, options);
}

/** explain({ expression, shapes, dtypes?, broadcast?, shaping?, keepdims? }) (explain.js routes here). */
export function explainExpression(req) {
  const E = compiled('explain', req.expression);
  return explainExpr(E, 'explain', req.shapes, { dtypes: req.dtypes, broadcast: req.broadcast, shaping: req.shaping, keepdims: req.keepdims });
}

registerExpressions(explainExpression);

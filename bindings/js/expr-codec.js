// Expressions: the key a run sends the engine (everything it compiles from:
// the parsed text, the operands' dtypes and shapes or names, scalar values,
// reduction axes), and what its answers say back: a named result's dims and
// coordinates, and the error of a refused expression.
import { C } from './contract.js';
import { BroadcastError, castAdvice, makeError, aDtype, noValueOf, tooManyEntries } from './errors.js';
import { internNamed } from './named.js';
import { namedContext, readType } from './rules.js';
import { byName, choose } from './options.js';
import { quote, excerpt } from './expr-parse.js';
import { UNKNOWN_RANK, nameKey } from './operands.js';

const SCALAR = Object.freeze([]);

/**
 * The run's operand shapes (a scalar's is []), for its request and its
 * errors: made when first asked (a repeated run needs none), from the settled
 * records, which hold the shapes as read.
 */
export function shapesOf(s) {
  if (s.shapes === null) s.shapes = s.values.map((v) => (typeof v === 'object' ? v.shape : SCALAR));
  return s.shapes;
}

export const NO_TENSOR = (fn) => `${fn}: the expression reads no tensor operand, so nothing gives it a dtype and a shape: pass at least one operand as { data, shape } or a tensor`;

/** The refusal of an operand without dims among named ones (but one of rank 0, which joins them). */
export const noDims = (fn, name) => TypeError(`${fn}: "${name}" has no dims while other operands do: give every tensor operand dims (named) or none`);

/** options.keepdims as a run reads it: true, false or left out. */
export function keepdimsOf(kd, fn) {
  if (kd !== undefined && typeof kd !== 'boolean') throw new TypeError(`${fn}: options.keepdims must be a boolean`);
  return kd === true;
}

/**
 * The rule of a run (or of its explain) into `s`: by name for named operands,
 * with options.shaping; else options.broadcast's type and axis, and no shaping.
 */
export function ruleOf(fn, s, typeIn, axisIn, shapingIn) {
  if (s.named) {
    if (typeIn !== undefined || axisIn !== undefined) throw byName(fn);
    s.rule = C.named;
    s.shaping = C.shapings.get(choose(shapingIn, C.shapings, 'exact', fn, 'options.shaping'));
  } else {
    if (shapingIn !== undefined) throw new TypeError(`${fn}: options.shaping applies to named operands (with dims) only`);
    if (typeIn !== undefined || axisIn !== undefined) ({ rule: s.rule, axis: s.axis } = readType(typeIn, axisIn, shapesOf(s), fn));
  }
}

// ---- the key -----------------------------------------------------------------------

/** The key (everything the engine compiles from) as an array of doubles, and the tensor records. */
export function encode(E, fn, s) {
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
      // Its bits modulo 2^64 (what a BigInt64Array or BigUint64Array stores) and Number(v)
      // (what an array of any other dtype is given): as the ops store it (operands.js scalarOperand).
      const b = BigInt.asUintN(64, v);
      key.push(2, Number(BigInt.asIntN(32, b >> 32n)), Number(b & 0xffffffffn), Number(v));
    } else {
      key.push(v.strides ? 3 : 0, v.dtype.id); // 3: a view, its strides after its shape
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
      if (v.strides) key.push(...v.strides);
      t++;
    }
  }
  const axes = E.reduce?.axes ?? null;
  if (axes === null) {
    key.push(-1);
  } else {
    // As the reductions' own `axes` option (operands.js readList): a list longer than any rank, by its length.
    if (axes.length > C.limits.maxRank) throw tooManyEntries(`${fn}: ${E.reduce.op} axes`, 'axes', axes.length, shapesOf(s));
    key.push(axes.length);
    for (let k = 0; k < axes.length; k++) {
      const a = axes[k];
      if (a.name !== undefined) {
        const id = s.named ? interned.names.get(nameKey(a.name)) : undefined;
        if (id === undefined) {
          throw new BroadcastError(`${fn}: ${E.reduce.op} over dim "${a.name}", but ${s.named ? `no operand has a dim "${a.name}"` : 'the operands have no dim names (give them dims to reduce by name)'}`,
            { code: 'INVALID_AXIS', shapes: shapesOf(s) });
        }
        key.push(1, id);
      } else {
        // As the reductions' own `axes` option: an integer Number (not a BigInt: `axes: [1n]` is
        // refused too), else INVALID_AXIS (reduce.js readAxes).
        if (!Number.isInteger(a.value) || /n\)*$/.test(E.source.slice(a.pos, a.pos + a.len))) {
          throw new BroadcastError(`${fn}: ${E.reduce.op} axis ${E.source.slice(a.pos, a.pos + a.len)} (entry ${k}) is not an integer axis${excerpt(E.source, a.pos, a.len)}`,
            { code: 'INVALID_AXIS', shapes: shapesOf(s) });
        }
        key.push(0, a.value);
      }
    }
  }
  return { key, interned };
}

// ---- the answers ---------------------------------------------------------------------

/**
 * The named result's dims (and coords) from the response, after its shape. The
 * engine lists every axis of the broadcast shape with whether the result keeps
 * it; with `keepdims` a reduced axis stays (size 1, its name kept, its coords
 * gone), as the reductions' own { dims, keepdims: true } give.
 */
export function readResultNames(res, interned, keepdims = false) {
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
    if (!kept && !keepdims) continue;
    dims.push(interned.nameList[id]);
    labels.push(kept ? ls : null);
  }
  return { dims, labels, coords: coords.length ? Object.fromEntries(coords) : null };
}

// Fail codes (src/expr/expr.hpp), in order.
const FAIL = ['ok', 'mismatch', 'domain', 'no_tensor', 'not_integer', 'bad_dtype', 'broadcast', 'gather', 'bad_axis', 'unknown_dim', 'out_dtype'];

/** The error of a refused expression, from the response (its cursor after the head). */
export function refusal(E, fn, s, res, interned = null) {
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
  // Named: each shape's dim names, so that a clash names its dim as the element-wise ops do.
  const dimNames = res.next() === 1 ? shapes.map((sh) => sh.map(() => interned?.nameList[res.next()])) : null;
  const text = E.source;
  // Named where() runs as the text "where(c, a, b)", which its caller never wrote: no quote of it.
  const own = fn !== 'where';
  const at = own ? `${fn}: ${quote(text.slice(pos, pos + len))} (offset ${pos})` : fn;
  const where = own ? excerpt(text, pos, len) : '';
  switch (code) {
    case 'mismatch':
      return new BroadcastError(`${at} mixes ${a} and ${b}: the operands of an op share one dtype; ${castAdvice(a, b).replace('(x,', '(...,')}${where}`,
        { code: 'DTYPE_MISMATCH', shapes: shapesOf(s), dims: [a, b] });
    case 'domain':
      return new BroadcastError(`${at}: the op does not take ${a}${/float/.test(a) ? ' (it takes integer dtypes)' : " (it takes float dtypes: cast(x, 'float32') first)"}${where}`,
        { code: 'DTYPE_MISMATCH', shapes: shapesOf(s), dims: [a] });
    case 'out_dtype':
      return new BroadcastError(`${fn}: out: ${aDtype(a)} tensor cannot hold ${aDtype(b)} result`, { code: 'DTYPE_MISMATCH', shapes: shapesOf(s), dims: [a, b] });
    case 'no_tensor': // (operands read, but not where the result takes its dtype: `where(x < 2, 3, 4)`)
      return TypeError(s.values.some((v) => typeof v === 'object') ? `${at} takes no dtype from numbers alone: cast one (cast(3, 'float32'))${where}` : NO_TENSOR(fn));
    case 'not_integer':
      return TypeError(`${at}: a number that is not an integer cannot be a ${a} element${where}`);
    case 'bad_dtype':
      return TypeError(`${at}: not a dtype; one of ${C.dtypes.map((d) => d.name).join(', ')}${where}`);
    case 'broadcast': {
      const ctx = dimNames !== null && dimNames.every((d) => d.every((n) => n !== undefined))
        ? namedContext(...shapes.map((sizes, k) => ({ dims: dimNames[k], sizes })))
        : { kind: 'elementwise', rule: C.ruleList[s.rule]?.name ?? 'numpy', shapes, axis: s.axis };
      const e = makeError(ctx, head);
      return new BroadcastError(`${at}: ${e.message}${where}`, { code: e.code, shapes, axis: e.axis, dims: e.dims, operands: e.operands, clashes: e.clashes });
    }
    case 'gather':
      return new BroadcastError(`${at}: these named operands' coordinates differ, and shaping '${[...C.shapings.keys()][s.shaping]}' would re-index them; expressions run without re-indexing: align them first with the element-wise op (e.g. add(a, b, { shaping }))${where}`,
        { code: 'INCOMPATIBLE_DIMS', shapes: shapesOf(s) });
    case 'bad_axis': {
      // The axis as written (the engine's detail is clamped to int32: 1e300 would read 2147483647).
      const ax = E.reduce?.axes?.[entry];
      const as = ax?.name !== undefined ? JSON.stringify(ax.name) : ax?.len !== undefined ? text.slice(ax.pos, ax.pos + ax.len) : head.detail;
      return new BroadcastError(`${fn}: ${E.reduce?.op ?? 'reduction'} axis ${as} (entry ${entry}) is out of range or repeated for the expression's result of rank ${head.a}`,
        { code: 'INVALID_AXIS', shapes: shapesOf(s) });
    }
    case 'unknown_dim':
      return new BroadcastError(`${fn}: ${E.reduce?.op ?? 'reduction'} over a dim name the expression's result does not have (entry ${entry})`,
        { code: 'INVALID_AXIS', shapes: shapesOf(s) });
    default: {
      const st = C.statuses[head.status] ?? 'INVALID_SHAPE';
      return new BroadcastError(`${fn}: the engine refused the expression (${st})`, { code: st, shapes: shapesOf(s) });
    }
  }
}

/** The error of an expression the engine compiled but could not run. */
function runFailure(E, fn, s, head) {
  const st = C.statuses[head.status] ?? 'INVALID_SHAPE';
  if (st === 'INVALID_AXIS' && head.detail === -6) return noValue(E, fn, s); // kDetailEmptyReduction (src/kernels/reduce.hpp)
  return new BroadcastError(`${fn}: the engine could not run the expression (${st})`, { code: st, shapes: shapesOf(s) });
}

/** min or max over an axis of size 0 (a run's refusal; explain's, from the shapes). */
export function noValue(E, fn, s) {
  const op = E.reduce?.op ?? 'the reduction';
  return new BroadcastError(`${fn}: ${op} over an axis of size 0: ${noValueOf(op)}; reduce with sum or prod, or over axes of nonzero size`,
    { code: 'INVALID_AXIS', shapes: shapesOf(s), dims: [0] });
}

// BroadcastError (every refusal of a rule, spec §8) and how a refusal the
// engine reports becomes one: the message names the axis, both dims and the
// operands, like NumPy's.
import { C } from './contract.js';

/** Stable error codes. */
export const ErrorCode = Object.freeze(Object.fromEntries(('INVALID_SHAPE INCOMPATIBLE_DIMS SHAPE_MISMATCH RANK_MISMATCH INVALID_AXIS '
  + 'INVALID_AXES_MAPPING MINUS_ONE_IN_NEW_AXIS DTYPE_MISMATCH LENGTH_MISMATCH TOO_LARGE').split(' ').map((c) => [c, c])));

export class BroadcastError extends Error {
  /**
   * @param {string} message
   * @param {{code: string, shapes?: unknown[], axis?: number|null, dims?: unknown[]|null, operands?: number[]|null, clashes?: number[]|null}} info
   */
  constructor(message, info) {
    super(message);
    this.name = 'BroadcastError';
    this.code = info.code;
    this.shapes = info.shapes ?? [];
    this.axis = info.axis ?? null;
    this.dims = info.dims ?? null;
    this.operands = info.operands ?? null;
    this.clashes = info.clashes ?? null;
  }

  toJSON() {
    return { name: this.name, code: this.code, message: this.message, shapes: jsonSafe(this.shapes), axis: this.axis, dims: jsonSafe(this.dims), operands: this.operands, clashes: this.clashes };
  }
}

// The shapes and dims of a rejected call are what the caller passed, which may
// hold BigInts, symbols or cycles; toJSON() must still serialise.
function jsonSafe(v, depth = 0) {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function') return String(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth > 3) return '…';
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v.length <= 64 ? v : Array.prototype.slice.call(v, 0, 64), (x) => jsonSafe(x, depth + 1));
  return Object.fromEntries(Object.entries(v).slice(0, 64).map(([k, x]) => [k, jsonSafe(x, depth + 1)]));
}

/** The refusal of an `out` of `have` elements for a result of `shape` (`size` elements): LENGTH_MISMATCH. */
export function outLengthError(fn, have, shape, size) {
  return new BroadcastError(`${fn}: out has ${have} elements but the result ${formatShape(shape)} has ${size}`,
    { code: 'LENGTH_MISMATCH', shapes: [shape], dims: [have, size] });
}

/** What a reduction `op` over no elements gives, as the refusals of an empty axis say it. */
export const noValueOf = (op) => `${op} of no elements has no value (sum gives 0, prod 1)`;

/** A dtype's name with its article, as a message says it: 'an int32', 'a float32'. */
export const aDtype = (name) => `${name[0] === 'i' ? 'an' : 'a'} ${name}`;

/**
 * The refusal of `out` (a snapshot: its dtype, resident or not) for a result of dtype `want`, as
 * every call says it (`more` ends the message): DTYPE_MISMATCH, dims [out's, want].
 */
export const cannotHold = (fn, dest, want, shapes, more = '') => new BroadcastError(`${fn}: out: ${aDtype(dest.dtype.name)} ${dest.resident ? 'tensor' : 'array'} cannot hold ${aDtype(want.name)} result${more}`,
  { code: 'DTYPE_MISMATCH', shapes, dims: [dest.dtype.name, want.name] });

/**
 * The refusal of dtype `dt` by an op that takes only floats or only integers (op.domain), or
 * null: names the op, the dtype and the fix. Element-wise, unary and in expressions alike.
 */
export function domainRefusal(op, name, dt, shape) {
  const takes = op.domain === 'float' ? dt.float : op.domain === 'integer' ? !dt.float : true;
  if (takes) return null;
  return new BroadcastError(op.domain === 'float'
    ? `${name} takes float dtypes (float32, float64, float16), got ${dt.name}; cast(x, 'float32') first (or 'float64')`
    : `${name} takes integer dtypes, got ${dt.name}; cast(x, 'int32') first (bits of a float are not an integer)`,
  { code: 'DTYPE_MISMATCH', shapes: [shape], dims: [dt.name] });
}

/** A list of axes or dim names (`what`: its name in the message) longer than any rank: each may be named once. */
export function tooManyEntries(what, key, n, shapes) {
  return new BroadcastError(`${what} has ${n} entries, but a shape has at most ${C.limits.maxRank} ${key} and each may be named once`,
    { code: 'INVALID_AXIS', shapes });
}

/** Format a dim the way the library prints it: 3, ?, 2..5, 6.., ..4, -1. */
export function formatDim(d) {
  return String(d);
}

/** NumPy-style tuple: () for a scalar, (3,) for rank 1, (2,3) otherwise; [...] for unknown rank. */
export function formatShape(shape) {
  if (!Array.isArray(shape)) return String(shape); // '[...]' (unknown rank) as itself
  if (shape.length === 1) return `(${formatDim(shape[0])},)`;
  return `(${shape.map(formatDim).join(',')})`;
}

/**
 * The dtype that holds every value of both `a` and `b` (NumPy's result_type of
 * the two): beside a float, the float wide enough for the integer's values;
 * beside an unsigned integer, the signed one a step wider (float64 past 64
 * bits). What a dtype refusal suggests casting to, so that the suggestion
 * never loses a value (a float mean cast to uint8clamped would).
 */
export function commonDtype(a, b) {
  const x = C.dtypeByName.get(a), y = C.dtypeByName.get(b);
  if (!x || !y) return null;
  const sg = (d) => d.kind === 'int' || d.kind === 'bigint';
  // In bytes: the float an integer's values need (twice its size, at most 8); the signed integer an unsigned one's.
  const fl = (d) => (d.float ? d.size : Math.min(2 * d.size, 8));
  const si = (d) => (sg(d) ? d.size : 2 * d.size);
  if (x.float || y.float) return `float${8 * Math.max(fl(x), fl(y))}`;
  if (sg(x) === sg(y)) return x.size !== y.size ? (x.size > y.size ? a : b) : x === y ? a : 'uint8'; // uint8 with uint8clamped
  const m = Math.max(si(x), si(y));
  return m > 8 ? 'float64' : m === 8 ? 'bigint64' : `int${8 * m}`;
}

/** How to resolve two dtypes that an op would mix: cast to the one that keeps both operands' values. */
export function castAdvice(a, b) {
  const c = commonDtype(a, b);
  if (c === null) return 'convert one first';
  const how = c === a || c === b ? `cast the ${c === a ? b : a} one to ${c}` : `cast both to ${c}`;
  // Beside a 64-bit integer float64 comes nearest: it rounds past 2^53.
  const near = c === 'float64' && (C.dtypeByName.get(a).big || C.dtypeByName.get(b).big);
  return `${how} (cast(x, '${c}')), which holds ${near ? 'them nearest (it rounds integers past 2^53)' : 'every value of both'}`;
}

const OPERAND_NAMES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export function operandName(i) {
  return i < OPERAND_NAMES.length ? OPERAND_NAMES[i] : `#${i}`;
}

/**
 * The first words of a refusal: the call and its shapes. A backward call
 * (ctx.back: reductionAxes, unbroadcast) speaks in its own direction, the
 * gradient summed back to the input (`cannot sum (4,2) back to (3,)`), and
 * names the forward rule it mirrors at the end of the message (tail()).
 */
export function head(ctx) {
  if (ctx.back) {
    // 'to': [input, output]; element-wise: [A = the output, B = the input].
    const [input, output] = ctx.kind === 'to' ? ctx.shapes : [ctx.shapes[1], ctx.shapes[0]];
    return `cannot sum ${formatShape(output)} back to ${formatShape(input)}`;
  }
  if (ctx.kind === 'to') {
    return `cannot broadcast shape ${formatShape(ctx.shapes[0])} to ${formatShape(ctx.shapes[1])} (mode ${ctx.mode}${ctx.mode === 'pdpd' && ctx.axis != null ? `, axis ${ctx.axis}` : ''})`;
  }
  if (ctx.kind === 'named') return `cannot broadcast named dims ${ctx.describe[0]} with ${ctx.describe[1]}`;
  const tail = ctx.rule === 'pdpd' ? ` (pdpd, axis ${ctx.axis ?? -1})` : ctx.rule === 'none' ? ' (broadcast none: shapes must be identical)' : '';
  return `operands could not be broadcast together with shapes ${ctx.shapes.map(formatShape).join(' ')}${tail}`;
}

/** The end of a backward refusal: the forward rule it mirrors, ` (mode numpy)`; '' for a forward one. */
export function tail(ctx) {
  if (!ctx.back) return '';
  if (ctx.kind === 'to') return ` (mode ${ctx.mode}${ctx.mode === 'pdpd' && ctx.axis != null ? `, axis ${ctx.axis}` : ''})`;
  if (ctx.rule === 'pdpd') return ` (type pdpd, axis ${ctx.axis ?? -1})`;
  return ` (type ${ctx.rule}${ctx.rule === 'none' ? ': shapes must be identical' : ''})`;
}

/** The context of a refusal under the element-wise NumPy rule (makeError()'s ctx) for `shapes`. */
export const numpyCtx = (shapes) => ({ kind: 'elementwise', rule: 'numpy', shapes });

/** A BroadcastError from the engine's refusal `e` (Response.error()) of the call described by `ctx`. */
export function makeError(ctx, e) {
  const code = C.statuses[e.status] ?? 'INVALID_SHAPE';
  const { axis, opA, opB, a, b, detail } = e;
  const H = head(ctx);
  let msg;
  let outAxis = axis >= 0 ? axis : null;
  let dims = null;
  const back = ctx.back === true;
  // The operands as the message names them: forward, the input and target (or A, B, ...); backward, the input and output.
  const name = (k) => (ctx.kind === 'to' ? (k === 0 ? 'input' : back ? 'output' : 'target') : back ? (k === 0 ? 'output' : 'input') : operandName(k));
  const others = e.clashes.filter((x) => x !== axis);
  const more = others.length === 1 ? `; axis ${others[0]} clashes too` : others.length ? `; axes ${others.join(', ')} clash too` : '';
  switch (code) {
    case 'INCOMPATIBLE_DIMS':
    case 'SHAPE_MISMATCH':
      dims = [a, b];
      if (axis < 0) { msg = `${H}: rank ${a} vs ${b}`; break; } // §2 rank difference
      if (ctx.kind === 'named') {
        msg = `${H}: dim "${ctx.names[axis]}" (axis ${axis}) has ${a} vs ${b}${detail === 1 ? ' with different coordinates (shaping exact)' : ''}; a shared named dim is never stretched${more}`;
      } else if (detail === -5) {
        msg = `${H}: whether axis ${axis} is summed is not known (the input's ${a} may or may not be 1 against ${b})`;
      } else {
        msg = `${H}: axis ${axis} has ${a} vs ${b}`;
        if (ctx.kind !== 'to' && ctx.shapes.length > 2 && opA >= 0) msg += ` (${name(opA)} vs ${name(opB)})`;
        msg += more;
      }
      break;
    case 'RANK_MISMATCH':
      dims = [a, b];
      if (ctx.kind === 'to' && detail === -5) {
        msg = `${H}: which axes are summed is not known: the ${a === '?' ? 'input' : 'output'}'s rank is unknown`;
      } else if (ctx.kind === 'to') {
        if (ctx.mode === 'pdpd') msg = `${H}: the input (rank ${a}) does not fit into the ${name(1)} (rank ${b}) at axis ${detail < 0 ? ctx.axis ?? -1 : detail}`;
        else msg = `${H}: the ${name(1)} has rank ${b}, lower than the input's rank ${a}`;
      } else if (detail < 0) {
        msg = back
          ? ctx.rule !== 'pdpd' ? `${H}: the output has rank ${b}, lower than the input's rank ${a}` // numpy: no axis (dims [input, output] as mode numpy's)
            : `${H}: the input has rank ${b}, higher than the output's rank ${a}, so the default axis -1 (rank(output) - rank(input)) is negative`
          : `${H}: B has rank ${b}, higher than A's rank ${a}, so the default axis -1 (rank(A) - rank(B)) is negative`;
      } else {
        msg = back
          ? `${H}: the input (rank ${b} after dropping trailing 1s) does not fit into the output (rank ${a}) at axis ${detail}`
          : `${H}: B (rank ${b} after dropping trailing 1s) does not fit into A (rank ${a}) at axis ${detail}`;
      }
      break;
    case 'INVALID_AXIS':
      msg = `${H}: axis ${ctx.axis} is out of range: use -1 or an axis from 0 to ${ctx.kind === 'to' ? b : a}`;
      outAxis = null;
      break;
    case 'INVALID_AXES_MAPPING': {
      const m = ctx.axesMapping ?? [];
      const rank = Array.isArray(ctx.shapes[1]) ? ctx.shapes[1].length : null;
      if (detail < 0) {
        msg = `${H}: axesMapping [${m}] has ${m.length} entries; it needs one per input axis (${Array.isArray(ctx.shapes[0]) ? ctx.shapes[0].length : '?'})`;
      } else {
        const v = m[detail];
        if (!(Number.isInteger(v) && v >= 0 && (rank === null || v < rank))) {
          msg = `${H}: axesMapping[${detail}] = ${v} is not an output axis (${rank === null ? 'axes are non-negative' : `0 to ${rank - 1}`})`;
        } else {
          msg = `${H}: axesMapping must be strictly increasing, but axesMapping[${detail}] = ${v} follows ${m[detail - 1]}`;
        }
      }
      outAxis = null;
      break;
    }
    case 'MINUS_ONE_IN_NEW_AXIS':
      msg = `${H}: -1 at axis ${axis} is on a new leading axis, where the input has no dim to keep`;
      dims = [-1];
      break;
    case 'INVALID_SHAPE':
      if (detail === -2) {
        msg = `${H}: the result would have rank ${a} > ${C.limits.maxRank}, the most a shape may have`;
      } else if (detail === -3) {
        msg = `${H}: ${ctx.kind === 'named' ? ['left', 'right'][opA] ?? name(opA) : name(opA)} has the dim name "${ctx.dimNames?.[opA]?.[axis] ?? axis}" twice (axis ${axis}): duplicate dim names`;
      } else if (detail === -4) {
        msg = `${H}: ${ctx.kind === 'named' ? ['left', 'right'][opA] ?? name(opA) : name(opA)} has duplicate coordinate labels in dim ${ctx.dimNames?.[opA]?.[axis] !== undefined ? `"${ctx.dimNames[opA][axis]}"` : axis}`;
      } else {
        msg = `${H}: invalid shape${opA >= 0 ? ` (${name(opA)})` : ''}${detail >= 0 ? `, dim ${detail}` : ''}`;
      }
      if (detail > -3) outAxis = null; // a name or label twice: the operand's axis, as the JS checks give it
      break;
    default:
      msg = `${H}: ${code}`;
  }
  return new BroadcastError(msg + tail(ctx), {
    code, shapes: ctx.shapes, axis: outAxis, dims,
    operands: opA >= 0 || opB >= 0 ? [opA, opB] : null,
    clashes: e.clashes.length ? e.clashes : (outAxis !== null && (code === 'INCOMPATIBLE_DIMS' || code === 'SHAPE_MISMATCH') ? [outAxis] : null),
  });
}

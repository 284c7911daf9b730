// A large element-wise call (ops.js, unary.js) run as the one-op expression
// of its op, so that it goes a chunk at a time (execute.js streamed()) like evaluate().
import { STREAM_MIN } from './execute.js';
import { parseText } from './expr-parse.js';
import { explainExpr } from './expr-explain.js';
import { Expression, codeStore, keyOf, exprRequest } from './expr.js';
import { none } from './contract.js';

const opCalls = new Map(none); // `name(a, b)` / `name(a)` / `cast(a, 'dtype')` / `where(a, b, c)` -> { parsed, runs, generated }
/** Operand elements from which a call may be large enough for largeRun() (which decides by bytes): 1 MiB of 8-byte elements. */
export const LARGE = (1 << 20) / 8;
const NAMES = ['a', 'b', 'c']; // the operands of `text`, in order
const OP_RUNS = 8; // per op: the Expressions of its last 8 (dtypes, rule, axis, shapes); each repeats its own last run

/**
 * A large element-wise call (a binary or unary op, cast or where; after its
 * snapshot and checks, on the same records) as the one-op expression `text`
 * (operands a, b, c in order), which from its second or third run goes a
 * chunk at a time (execute.js streamed()) instead of copying whole operands
 * in, running the kernel over them and copying the whole result out. Its
 * result is the op's, bit for bit (one op, the same operations). Returns the
 * run for execute.js runLarge(): { E, s, key, request }. Null to run the call
 * on its own path: when an operand has dims (or names not read yet), when it
 * copies under STREAM_MIN bytes, when its result would be a new resident
 * tensor, when the generator does not write the op for these dtypes (the
 * interpreter does not go in chunks), or when the expression engine refuses
 * it (the op's own path then refuses it with its own error; runLarge() says
 * null when the engine does).
 */
export function largeRun(text, ops, dest, outDtype, rule, axis) {
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
  if (c === undefined) opCalls.set(text, (c = { parsed: parseText('evaluate', text), runs: new Map(none), generated: new Map(none) }));
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
    return { E, s, key: keyOf(E, 'evaluate', s).key, request: exprRequest };
  } catch {
    return null; // a run the expression engine refuses: the op's own path refuses it with its own error
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

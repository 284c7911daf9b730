// Unary element-wise ops (src/kernels/unary.def) and cast, on typed arrays or
// resident tensors. Each reads its arguments once (the snapshot), checks them,
// and hands one request to execute.js: a one-operand plan (the numpy rule
// with one shape), the result contiguous and of the same shape. Named
// operands keep their dims and coords.
import { C, DTYPES } from './contract.js';
import { mod } from './loader.js';
import { cannotHold, domainRefusal } from './errors.js';
import { renamed } from './tensor.js';
import { checkKeys } from './options.js';
import { readOperand, settle, readNames, readOut, isScalar, notOperand, handleOf } from './operands.js';
import { request, execute, outHolds, checkOutNames, runLarge } from './execute.js';
import { accDtype } from './reduce.js';
import { largeRun, LARGE } from './expr-large.js';

const OUT_KEYS = ['out'];

/** Snapshot of a unary call's x and options.out (every user value read once), x settled. */
function snapshot(x, options, name, what) {
  let outIn;
  if (options !== undefined) {
    checkKeys(options, name, OUT_KEYS);
    outIn = options.out;
  }
  if (isScalar(x)) {
    throw notOperand(x, what, 'a ', '; wrap a single value as { data: Float64Array.of(v) }');
  }
  const X = readOperand(x, what);
  if (X.named !== null) readNames(X, 'x', name);
  const dest = readOut(outIn, name);
  // No user code runs past this point.
  settle(X, what);
  return { X, dest };
}

/** Run request `c` on X into dest, and give the result X's names. */
function run(c, X, dest, name) {
  const dims = X.dims;
  if (dims !== undefined && dest !== null && dest.resident) checkOutNames(name, dest, dims, X.labels, X.shape);
  const r = execute(c);
  if (dims === undefined || (dest !== null && dest.resident)) return r;
  let coords;
  if (X.labels.some((l) => l)) coords = Object.fromEntries(dims.map((d, i) => [String(d), X.labels[i]]).filter(([, l]) => l));
  if (handleOf(r) !== null) return renamed(r, dims, coords);
  r.dims = dims.slice();
  if (coords !== undefined) r.coords = Object.fromEntries(Object.entries(coords).map(([k, v]) => [k, v.slice()]));
  return r;
}

function unaryCall(op, name, what, x, options) {
  mod();
  const { X, dest } = snapshot(x, options, name, what);
  const dt = X.dtype;
  const refused = domainRefusal(op, name, dt, X.shape);
  if (refused !== null) throw refused;
  const outDtype = op.bool ? C.dtypeByName.get('uint8') : dt;
  if (dest !== null && !outHolds(dest, outDtype)) throw cannotHold(name, dest, outDtype, [X.shape], `; pass out of dtype ${outDtype.name}`);
  if (X.size >= LARGE) {
    const r = runLarge(largeRun(`${name}(a)`, [X], dest, outDtype, C.numpy, -1));
    if (r !== null) return r;
  }
  const c = request(C.A.unary, name, C.numpy, -1, [X], [X.shape], outDtype, dest, null);
  c.op = op.id;
  c.dtype = dt.id;
  return run(c, X, dest, name);
}

/** A unary op by its name in unary.def (the engine's table). */
export function unaryOp(name) {
  let op = null; // the contract's entry, once the module is loaded
  const what = `${name}: x`;
  const f = (x, options) => unaryCall(op ?? (op = mod() && C.unaryOpByName.get(name)), name, what, x, options);
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

/**
 * `x` converted to `dtype`, NumPy's astype: float → integer truncates toward
 * zero, NaN gives 0 and out-of-range values saturate to the type's min/max;
 * float → uint8clamped rounds half to even and clamps (a Uint8ClampedArray
 * store); integer → integer wraps (two's complement), → uint8clamped clamps;
 * integer → float and float64 → float32/float16 round to nearest even.
 * @param {object} x `{ data, shape }` or a resident Tensor (named operands keep their dims)
 * @param {string} dtype the result's dtype name (one of DTYPES)
 * @param {{ out?: object }} [options] write into a typed array or resident tensor of `dtype`
 */
export function cast(x, dtype, options) {
  mod();
  if (dtype === undefined) throw new TypeError(`cast: give the dtype to convert to, one of ${DTYPES.join(', ')}: cast(x, 'float32')`);
  const to = accDtype(dtype, 'cast');
  const { X, dest } = snapshot(x, options, 'cast', 'cast: x');
  if (dest !== null && !outHolds(dest, to)) throw cannotHold('cast', dest, to, [X.shape], `; pass out of dtype ${to.name}`);
  if (X.size >= LARGE) {
    const r = runLarge(largeRun(`cast(a, '${to.name}')`, [X], dest, to, C.numpy, -1));
    if (r !== null) return r;
  }
  const c = request(C.A.cast, 'cast', C.numpy, -1, [X], [X.shape], to, dest, null);
  c.op = to.id;
  c.dtype = X.dtype.id;
  return run(c, X, dest, 'cast');
}

// The element semantics of the data API written once more, in plain JS, as
// the oracle of the random and sweep tests (tests/js/data-*.test.js): what a
// scalar JS loop storing into the result's typed array computes, with the
// library's documented choices where JS has none:
//   integers: the exact result wrapped (BigInt arithmetic, then asIntN) — a
//     JS `a * b` would round a product above 2^53 before the store;
//   integer div truncates, x / 0 = 0, x % 0 = 0 (a JS store of Infinity/NaN
//     gives 0 too), pow with a negative exponent is 1 / a^|b| truncated;
//   Uint8Clamped: the JS double result stored into a Uint8ClampedArray;
//   truthiness (logical ops, where) is `!= 0`, so NaN is true (NumPy).
export const DTYPES = ['float32', 'float64', 'int8', 'uint8', 'uint8clamped', 'int16', 'uint16', 'int32', 'uint32', 'bigint64', 'biguint64'];
export const CTORS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, bigint64: BigInt64Array, biguint64: BigUint64Array,
};
export const OPS = ['add', 'sub', 'mul', 'div', 'rem', 'pow', 'minimum', 'maximum',
  'equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual',
  'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor',
  'mod', 'floorDiv', 'atan2', 'hypot'];
export const BOOL_OPS = new Set(['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual', 'logicalAnd', 'logicalOr', 'logicalXor']);
export const BITWISE = new Set(['bitwiseAnd', 'bitwiseOr', 'bitwiseXor']);
export const FLOAT_ONLY = new Set(['atan2', 'hypot']);
const INT_BITS = { int8: [8, true], uint8: [8, false], uint8clamped: [8, false], int16: [16, true], uint16: [16, false], int32: [32, true], uint32: [32, false], bigint64: [64, true], biguint64: [64, false] };

export const isFloat = (dt) => dt === 'float32' || dt === 'float64';
export const defined = (dt, op) => !(BITWISE.has(op) && isFloat(dt)) && !(FLOAT_ONLY.has(op) && !isFloat(dt));
export const outDtype = (dt, op) => (BOOL_OPS.has(op) ? 'uint8' : dt);

// ---- deterministic randomness ----------------------------------------------------
export function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  next.pick = (arr) => arr[Math.floor(next() * arr.length)];
  return next;
}

/** A random element of `dt` (typed-array storable), with edge values now and then. */
export function randomValue(r, dt, op = null, role = 'a') {
  if (isFloat(dt)) {
    const x = r();
    if (x < 0.05) return r.pick([NaN, Infinity, -Infinity, -0, 0]);
    if (op === 'pow') return role === 'a' ? r.pick([0.5, 2, 3, -2, 1.5, 0, 10]) : r.pick([0, 1, 2, -1, 0.5, 3, -2.5]);
    if (x < 0.1) return r.pick([1e38, -1e38, 1e-40, 3.4e38, 1.5]);
    return Math.round((r() * 40 - 20) * 1000) / 1000;
  }
  const [bits, signed] = INT_BITS[dt];
  const lo = signed ? -(2n ** BigInt(bits - 1)) : 0n;
  const hi = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
  let v;
  const x = r();
  if (op === 'pow' && role === 'b') v = BigInt(r() < 0.9 ? r.int(signed ? -2 : 0, 9) : r.int(10, 70));
  else if (x < 0.12) v = r.pick(signed ? [lo, hi, 0n, -1n, 1n] : [lo, hi, 0n, 1n]);
  else if (x < 0.6) v = BigInt(r.int(signed ? -20 : 0, 20));
  else v = lo + BigInt(Math.floor(r() * 2 ** 30)) * (hi - lo) / 2n ** 30n;
  return bits === 64 ? v : Number(v);
}

export function randomArray(r, dt, n, op, role) {
  const a = new CTORS[dt](n);
  for (let i = 0; i < n; i++) a[i] = randomValue(r, dt, op, role);
  return a;
}

// ---- semantics -----------------------------------------------------------------------
const f32 = new Float32Array(1);
const clamped = new Uint8ClampedArray(1);
const truthy = (x) => x != 0; // eslint-disable-line eqeqeq -- NaN is true, -0 false

function jsMin(a, b) { return Math.min(a, b); }
function jsMax(a, b) { return Math.max(a, b); }

function wrap(dt, v) {
  const [bits, signed] = INT_BITS[dt];
  const w = signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
  return bits === 64 ? w : Number(w);
}

function ipow(dt, a, b) {
  const [bits, signed] = INT_BITS[dt];
  if (b < 0n) {
    if (a === 1n) return 1n;
    if (a === -1n) return b % 2n === 0n ? 1n : -1n;
    return 0n;
  }
  const mod = 2n ** BigInt(bits);
  let base = ((a % mod) + mod) % mod;
  let r = 1n;
  let e = b;
  while (e > 0n) {
    if (e & 1n) r = (r * base) % mod;
    base = (base * base) % mod;
    e >>= 1n;
  }
  return signed ? BigInt.asIntN(bits, r) : r;
}

/** out = a (op) b for one element of dtype dt (result in the output dtype). */
export function apply(dt, op, a, b) {
  switch (op) {
    case 'equal': return a === b ? 1 : 0; // NaN never equal, -0 === +0
    case 'notEqual': return a != b ? 1 : 0; // eslint-disable-line eqeqeq
    case 'less': return a < b ? 1 : 0;
    case 'lessEqual': return a <= b ? 1 : 0;
    case 'greater': return a > b ? 1 : 0;
    case 'greaterEqual': return a >= b ? 1 : 0;
    case 'logicalAnd': return truthy(a) && truthy(b) ? 1 : 0;
    case 'logicalOr': return truthy(a) || truthy(b) ? 1 : 0;
    case 'logicalXor': return truthy(a) !== truthy(b) ? 1 : 0;
    default: break;
  }
  if (isFloat(dt)) {
    let v;
    switch (op) {
      case 'add': v = a + b; break;
      case 'sub': v = a - b; break;
      case 'mul': v = a * b; break;
      case 'div': v = a / b; break;
      case 'rem': v = a % b; break;
      case 'pow': v = a ** b; break;
      case 'minimum': v = jsMin(a, b); break;
      case 'maximum': v = jsMax(a, b); break;
      case 'mod': v = npMod(a, b, dt === 'float32' ? Math.fround : (x) => x); break;
      case 'floorDiv': v = npFloorDiv(a, b, dt === 'float32' ? Math.fround : (x) => x); break;
      case 'atan2': v = Math.atan2(a, b); break;
      case 'hypot': v = dt === 'float32' && !(Math.abs(a) === Infinity || Math.abs(b) === Infinity) ? Math.sqrt(a * a + b * b) : Math.hypot(a, b); break;
      default: throw new Error(op);
    }
    if (dt === 'float32') { f32[0] = v; return f32[0]; }
    return v;
  }
  if (dt === 'uint8clamped' && (op === 'add' || op === 'sub' || op === 'mul' || op === 'div' || op === 'pow' || op === 'rem' || op === 'floorDiv')) {
    clamped[0] = op === 'add' ? a + b : op === 'sub' ? a - b : op === 'mul' ? a * b : op === 'div' ? a / b : op === 'rem' ? a % b : op === 'floorDiv' ? Math.floor(a / b) : a ** b;
    return clamped[0];
  }
  const A = BigInt(a);
  const B = BigInt(b);
  switch (op) {
    case 'add': return wrap(dt, A + B);
    case 'sub': return wrap(dt, A - B);
    case 'mul': return wrap(dt, A * B);
    case 'div': return B === 0n ? wrap(dt, 0n) : wrap(dt, A / B);
    case 'rem': return B === 0n ? wrap(dt, 0n) : wrap(dt, A % B);
    case 'pow': return wrap(dt, ipow(dt, A, B));
    case 'minimum': return A < B ? a : b;
    case 'maximum': return A > B ? a : b;
    case 'bitwiseAnd': return wrap(dt, A & B);
    case 'bitwiseOr': return wrap(dt, A | B);
    case 'bitwiseXor': return wrap(dt, A ^ B);
    case 'mod': {
      if (B === 0n) return wrap(dt, 0n);
      let r = A % B;
      if (r !== 0n && (r < 0n) !== (B < 0n)) r += B;
      return wrap(dt, r);
    }
    case 'floorDiv': {
      if (B === 0n) return wrap(dt, 0n);
      let q = A / B;
      if (A % B !== 0n && (A < 0n) !== (B < 0n)) q -= 1n;
      return wrap(dt, q);
    }
    default: throw new Error(op);
  }
}

// NumPy's float divmod, each step rounded to the dtype (`r`): the remainder
// takes the divisor's sign; the quotient is floor((a - mod) / b) rounded to
// the nearest integer first; x / 0 is what IEEE division gives.
function npMod(a, b, r) {
  let m = r(a % b);
  if (b === 0) return m;
  if (m !== 0) { if ((b < 0) !== (m < 0)) m = r(m + b); } else m = b < 0 ? -0 : 0;
  return m;
}
function npFloorDiv(a, b, r) {
  if (b === 0) return r(a / b);
  const m = r(a % b);
  let d = r(r(a - m) / b);
  if (m !== 0 && (b < 0) !== (m < 0)) d = r(d - 1);
  if (d === 0) return Object.is(r(a / b), -0) || r(a / b) < 0 ? -0 : 0;
  let f = Math.floor(d);
  if (r(d - f) > 0.5) f += 1;
  return f;
}

/**
 * Equal as results: bit-exact (-0 vs +0 distinguished), any NaN equal to any
 * NaN; float pow may differ from V8's Math.pow in the last place (the engine
 * uses musl's pow, documented).
 */
export function same(dt, op, got, want) {
  if (typeof want === 'bigint' || typeof got === 'bigint') return got === want;
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (Object.is(got, want)) return true;
  // The C library's atan2 and float64 hypot may differ from V8's in the last place.
  if ((op === 'pow' || op === 'atan2' || op === 'hypot') && isFloat(dt) && Number.isFinite(want)) {
    return Math.abs(got - want) <= Math.abs(want) * (dt === 'float32' ? 2 ** -23 : 2 ** -51);
  }
  return false;
}

// ---- naive broadcasting: an index loop per output element ----------------------------
export const product = (s) => s.reduce((p, d) => p * d, 1);

/** Per output axis: the operand's stride there (0 where it is new or stretched). */
export function alignedStrides(out, shape, offset = out.length - shape.length) {
  const st = new Array(out.length).fill(0);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] !== 1) st[offset + i] = acc;
    acc *= shape[i];
  }
  return st;
}

/** Element offsets of each output element (row-major) for the given strides. */
export function offsets(out, strides) {
  const n = product(out);
  const res = new Array(n);
  const idx = new Array(out.length).fill(0);
  for (let e = 0; e < n; e++) {
    let off = 0;
    for (let a = 0; a < out.length; a++) off += idx[a] * strides[a];
    res[e] = off;
    for (let a = out.length - 1; a >= 0; a--) {
      if (++idx[a] < out[a]) break;
      idx[a] = 0;
    }
  }
  return res;
}

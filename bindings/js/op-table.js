// The element-wise and unary ops, one export each (index.js re-exports them).
// Apart from index.js, which package.json lists as having side effects: an
// app's bundle keeps only the ops it imports.
import { elementwise } from './ops.js';
import { unaryOp } from './unary.js';

// Element-wise ops: one line each; what they do is declared in src/kernels/ops.def.
/** a + b with broadcasting. */ export const add = elementwise('add');
/** a - b */ export const sub = elementwise('sub');
/** a * b */ export const mul = elementwise('mul');
/** a / b (integers: truncated toward zero, x / 0 = 0; uint8clamped: x / 0 = 255 for x > 0) */ export const div = elementwise('div');
/** a % b, JS semantics: the sign of the dividend (integers: x % 0 = 0) */ export const rem = elementwise('rem');
/** a ** b */ export const pow = elementwise('pow');
/** Element-wise minimum (NaN propagates, -0 < +0). */ export const minimum = elementwise('minimum');
/** Element-wise maximum (NaN propagates, -0 < +0). */ export const maximum = elementwise('maximum');
export const equal = elementwise('equal');
export const notEqual = elementwise('notEqual');
export const less = elementwise('less');
export const lessEqual = elementwise('lessEqual');
export const greater = elementwise('greater');
export const greaterEqual = elementwise('greaterEqual');
export const logicalAnd = elementwise('logicalAnd');
export const logicalOr = elementwise('logicalOr');
export const logicalXor = elementwise('logicalXor');
export const bitwiseAnd = elementwise('bitwiseAnd');
export const bitwiseOr = elementwise('bitwiseOr');
export const bitwiseXor = elementwise('bitwiseXor');
/** a mod b, NumPy's np.mod (ONNX Mod, fmod=0): the result takes the divisor's sign. */ export const mod = elementwise('mod');
/** floor(a / b), NumPy's np.floor_divide (integers: x // 0 = 0; uint8clamped: x // 0 = 255 for x > 0). */ export const floorDiv = elementwise('floorDiv');
/** atan2(a, b), the angle of (b, a); float dtypes. */ export const atan2 = elementwise('atan2');
/** sqrt(a² + b²) without undue overflow; float dtypes. */ export const hypot = elementwise('hypot');

// Unary ops: one line each; what they do is declared in src/kernels/unary.def.
export { cast } from './unary.js';
/** -x (integers wrap; uint8clamped: 0). */ export const neg = unaryOp('neg');
/** |x| (integers wrap: abs of INT_MIN is INT_MIN; floats clear the sign bit). */ export const abs = unaryOp('abs');
/** -1, 0 or 1 by the sign of x (NaN for NaN, +0 for ±0; unsigned: 0 or 1). */ export const sign = unaryOp('sign');
/** Square root; float dtypes. */ export const sqrt = unaryOp('sqrt');
/** e^x; float dtypes (float32 within 2 ulp, SIMD). */ export const exp = unaryOp('exp');
/** e^x - 1, exact near 0; float dtypes. */ export const expm1 = unaryOp('expm1');
/** Natural logarithm; float dtypes. */ export const log = unaryOp('log');
/** log(1 + x), exact near 0; float dtypes. */ export const log1p = unaryOp('log1p');
/** Sine (radians); float dtypes. */ export const sin = unaryOp('sin');
/** Cosine (radians); float dtypes. */ export const cos = unaryOp('cos');
/** Tangent (radians); float dtypes. */ export const tan = unaryOp('tan');
/** Hyperbolic tangent; float dtypes. */ export const tanh = unaryOp('tanh');
/** 1 / (1 + e^-x), without overflow either side; float dtypes. */ export const sigmoid = unaryOp('sigmoid');
/** Round toward -Infinity (integers unchanged). */ export const floor = unaryOp('floor');
/** Round toward +Infinity (integers unchanged). */ export const ceil = unaryOp('ceil');
/** Round to nearest, half to even as np.round (integers unchanged). */ export const round = unaryOp('round');
/** Round toward zero (integers unchanged). */ export const trunc = unaryOp('trunc');
/** 1 where x == 0, else 0 (a Uint8Array; NaN is true, so its not is 0). */ export const logicalNot = unaryOp('logicalNot');
/** ~x, every bit flipped; integer dtypes (uint8clamped as uint8: 255 - x). */ export const bitwiseNot = unaryOp('bitwiseNot');
/** 1 where x is NaN (a Uint8Array; integers: 0). */ export const isNaN = unaryOp('isNaN');
/** 1 where x is neither infinite nor NaN (a Uint8Array; integers: 1). */ export const isFinite = unaryOp('isFinite');

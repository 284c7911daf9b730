// tensorcast — every tensor-broadcasting rule, one engine in WebAssembly.
// Browser / worker / bundler entry: init() fetches tensorcast.wasm beside this
// file (`new URL(..., import.meta.url)`) unless told otherwise.
import { elementwise } from './ops.js';

export { init, initSync, isReady } from './loader.js';
export { contract, DTYPES } from './contract.js';
export { BroadcastError, ErrorCode, formatShape, formatDim } from './errors.js';
export { UNKNOWN_RANK, MAX_RANK } from './shapes.js';
export { broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape } from './rules.js';
export { explain } from './explain.js';
export { Tensor, tensor } from './tensor.js';
export { reshape } from './reshape.js';
export { broadcastTo, where } from './ops.js';
export { memory, releaseScratch, kernels } from './introspect.js';
export { reductionAxes, unbroadcast, sum, prod, min, max, mean, broadcastArrays } from './reduce.js';

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

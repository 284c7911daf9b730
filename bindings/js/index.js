// tensorcast — every tensor-broadcasting rule, one engine in WebAssembly.
// Browser / worker / bundler entry: init() finds tensorcast.wasm beside the
// glue with `new URL(..., import.meta.url)` unless told otherwise.
export { init, isReady, UNKNOWN_RANK, MAX_RANK } from './core.js';
export { BroadcastError, ErrorCode } from './errors.js';
export { broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape, explain } from './rules.js';
export {
  add, sub, mul, div, rem, pow, minimum, maximum, equal, notEqual, less, lessEqual, greater, greaterEqual,
  logicalAnd, logicalOr, logicalXor, bitwiseAnd, bitwiseOr, bitwiseXor, broadcastTo, where, tensor, memory,
  Tensor, DTYPES, kernels,
} from './data.js';

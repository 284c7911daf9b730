// tensorcast — every tensor-broadcasting rule, one engine in WebAssembly.
// Browser / worker / bundler entry: init() finds tensorcast.wasm beside the
// glue with `new URL(..., import.meta.url)` unless told otherwise.
export { init, isReady, UNKNOWN_RANK, MAX_RANK } from './core.js';
export { BroadcastError, ErrorCode } from './errors.js';
export { broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape, explain } from './rules.js';

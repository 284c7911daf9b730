// tensorcast — every tensor-broadcasting rule, one engine in WebAssembly.
// Browser / worker / bundler entry: init() fetches tensorcast.wasm beside this
// file (`new URL(..., import.meta.url)`) unless told otherwise.
// Only exports: loading it loads layout.js, reshape.js and expr.js, whose
// side effects the API needs (package.json lists the four), and nothing an app
// does not use (the ops' table is op-table.js).
export { init, initSync, isReady } from './loader.js';
export { contract, DTYPES } from './contract.js';
export { BroadcastError, ErrorCode, formatShape, formatDim } from './errors.js';
export { UNKNOWN_RANK, MAX_RANK } from './operands.js';
export { broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape } from './rules.js';
export { Tensor, tensor } from './tensor.js';
export { explain } from './explain.js';
export { reshape } from './reshape.js';
export { transpose, slice, flip, squeeze, expandDims, concat, stack, contiguous } from './layout.js';
export { broadcastTo, where } from './ops.js';
export { memory, releaseScratch, kernels } from './introspect.js';
export { reductionAxes, unbroadcast, sum, prod, min, max, mean, broadcastArrays } from './reduce.js';
export { argmax, argmin, topk } from './post.js';
export { softmax, logSoftmax, logSumExp } from './softmax.js';
export { evaluate, compile } from './expr.js';
export * from './op-table.js';

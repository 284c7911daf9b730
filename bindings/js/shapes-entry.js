// tensorcast/shapes — the broadcasting rules without the kernels: the shape
// functions, explain, reductionAxes and the errors, the same modules as the
// full entry (index.js) on a module of the rules alone (tensorcast-shapes.wasm).
// Source of dist/tensorcast-shapes.js (browsers, workers, bundlers), bundled
// with shapes-engine.js in engine.js's place (scripts/entries.mjs); the Node
// entry is shapes-node.js.
export { init, initSync, isReady } from './loader.js';
export { contract } from './contract.js';
export { BroadcastError, ErrorCode, formatShape, formatDim } from './errors.js';
export { UNKNOWN_RANK, MAX_RANK } from './operands.js';
export { broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape, reductionAxes } from './rules.js';
export { explain } from './explain.js';

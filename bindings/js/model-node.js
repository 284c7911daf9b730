// tensorcast/model in Node: model-entry.js's API, with init() and initSync()
// reading tensorcast-shapes.wasm from this package (node-init.js). Source of
// dist/tensorcast-model-node.js and tensorcast-model.cjs (scripts/entries.mjs).
export * from './model-entry.js';
export { init, initSync } from './node-init.js';

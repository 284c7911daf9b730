// tensorcast/shapes in Node: shapes-entry.js's API, with init() and initSync()
// reading tensorcast-shapes.wasm from this package (node-init.js). Source of
// dist/tensorcast-shapes-node.js and tensorcast-shapes.cjs (scripts/entries.mjs).
export * from './shapes-entry.js';
export { init, initSync } from './node-init.js';

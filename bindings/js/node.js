// Node entry: the API of index.js, with init() and initSync() reading the
// engine's file from this package (node-init.js).
export * from './index.js';
export { init, initSync } from './node-init.js';

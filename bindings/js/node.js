// Node entry: the API of index.js, with init() and initSync() reading the
// engine's file from this package (node-init.js).
import { useUnzeroed } from './heap.js';

export * from './index.js';
export { init, initSync } from './node-init.js';

// Large new results are not zeroed first (heap.js fresh()): Node's allocation, which the page has not.
useUnzeroed(Buffer.allocUnsafeSlow);

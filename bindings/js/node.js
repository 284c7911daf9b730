// Node entry: the API of index.js, with init() and initSync() reading the
// engine's file from this package (node-init.js).
import { useUnzeroed } from './execute.js';

export * from './index.js';
export { init, initSync } from './node-init.js';

// Large new results are not zeroed first (execute.js fresh()): Node's allocation, which the page has not.
useUnzeroed(Buffer.allocUnsafeSlow);

// tensorcast/shapes: the broadcasting rules of 'tensorcast' without the kernels.
// The same declarations as the full entry's (index.d.ts, data.d.ts) for what
// this entry has: the shape functions, explain, reductionAxes, the errors and
// the loader. Its contract() reports build 'shapes' and empty dtypes, ops and
// reductions; init() loads tensorcast-shapes.wasm.
// BroadcastError is declared as the full entry's; at run time each entry has a class of its own
// (an error of one entry is no instanceof another's: test e.name or e.code across entries).
export {
  init, initSync, isReady, contract,
  BroadcastError, ErrorCode, formatShape, formatDim, UNKNOWN_RANK, MAX_RANK,
  broadcastShapes, autoBroadcastShape, broadcastToShape, namedBroadcastShape,
  reductionAxes,
} from './index.js';
import type { ExplainRequest, Explanation } from './index.js';
/** explain() of the rules (an expression needs the full entry: this entry answers it ok: false). */
export declare function explain(request: ExplainRequest): Explanation;
export type {
  Dim, Shape, StaticShape, ShapeResult, InitOptions, InitSyncOptions,
  AutoBroadcastOptions, BroadcastToOptions, Label, NamedShapeInput, NamedShapeResult, NamedBroadcastOptions,
  Verdict, OperandPlan, ExplainRequest, Explanation, BackwardOptions,
} from './index.js';

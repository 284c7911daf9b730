// BroadcastError: every rejection of a broadcasting rule (spec §8).

/** Stable error codes, in the order of the engine's Status enum. */
export const ErrorCode = Object.freeze({
  INVALID_SHAPE: 'INVALID_SHAPE',
  INCOMPATIBLE_DIMS: 'INCOMPATIBLE_DIMS',
  SHAPE_MISMATCH: 'SHAPE_MISMATCH',
  RANK_MISMATCH: 'RANK_MISMATCH',
  INVALID_AXIS: 'INVALID_AXIS',
  INVALID_AXES_MAPPING: 'INVALID_AXES_MAPPING',
  MINUS_ONE_IN_NEW_AXIS: 'MINUS_ONE_IN_NEW_AXIS',
  DTYPE_MISMATCH: 'DTYPE_MISMATCH',
  LENGTH_MISMATCH: 'LENGTH_MISMATCH',
  TOO_LARGE: 'TOO_LARGE',
});

/** Engine status number -> code (index = status). */
export const STATUS_CODES = [
  'OK', 'INVALID_SHAPE', 'INCOMPATIBLE_DIMS', 'SHAPE_MISMATCH', 'RANK_MISMATCH', 'INVALID_AXIS',
  'INVALID_AXES_MAPPING', 'MINUS_ONE_IN_NEW_AXIS', 'DTYPE_MISMATCH', 'LENGTH_MISMATCH', 'TOO_LARGE',
];

export class BroadcastError extends Error {
  /**
   * @param {string} message
   * @param {{code: string, shapes?: unknown[], axis?: number|null, dims?: unknown[]|null, operands?: number[]|null}} info
   */
  constructor(message, info) {
    super(message);
    this.name = 'BroadcastError';
    this.code = info.code;
    this.shapes = info.shapes ?? [];
    this.axis = info.axis ?? null;
    this.dims = info.dims ?? null;
    this.operands = info.operands ?? null;
  }

  toJSON() {
    return { name: this.name, code: this.code, message: this.message, shapes: jsonSafe(this.shapes), axis: this.axis, dims: jsonSafe(this.dims), operands: this.operands };
  }
}

// The shapes and dims of a rejected call are what the caller passed, which may
// hold BigInts, symbols or cycles; toJSON() must still serialise.
function jsonSafe(v, depth = 0) {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function') return String(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth > 3) return '…';
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v.length <= 64 ? v : Array.prototype.slice.call(v, 0, 64), (x) => jsonSafe(x, depth + 1));
  return Object.fromEntries(Object.entries(v).slice(0, 64).map(([k, x]) => [k, jsonSafe(x, depth + 1)]));
}

/** Format a dim the way the library prints it: 3, ?, 2..5, 6.., ..4, -1. */
export function formatDim(d) {
  return typeof d === 'number' ? String(d) : String(d);
}

/** NumPy-style tuple: () for a scalar, (3,) for rank 1, (2,3) otherwise; [...] for unknown rank. */
export function formatShape(shape) {
  if (!Array.isArray(shape)) return shape === '[...]' ? '[...]' : String(shape);
  if (shape.length === 1) return `(${formatDim(shape[0])},)`;
  return `(${shape.map(formatDim).join(',')})`;
}

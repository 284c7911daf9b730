// Data with broadcasting: element-wise ops, broadcastTo and where on every JS typed array.
import type { Shape, NamedBroadcastOptions, Label } from './index.js';

/** Every JS typed array is a dtype. */
export type DType =
  | 'float32' | 'float64' | 'int8' | 'uint8' | 'uint8clamped' | 'int16' | 'uint16' | 'int32' | 'uint32'
  | 'bigint64' | 'biguint64';

export type TypedArray =
  | Float32Array | Float64Array | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array
  | Int32Array | Uint32Array | BigInt64Array | BigUint64Array;

/** The dtypes, in the engine's order. */
export declare const DTYPES: readonly DType[];

/** Data with a shape (default `[data.length]`); `dims` (and `coords`) make it a named operand (§6). */
export interface TensorLike<A extends TypedArray = TypedArray> {
  data: A;
  shape?: readonly number[];
  dims?: readonly (string | number)[];
  coords?: { readonly [dim: string]: readonly Label[] };
}

/** A result copied out to JS. */
export interface TensorData<A extends TypedArray = TypedArray> {
  data: A;
  shape: number[];
  dtype: DType;
  dims?: (string | number)[];
  coords?: { [dim: string]: Label[] };
}

/**
 * A tensor resident in WebAssembly memory: ops on resident tensors read and
 * write in place (no copies) and return resident tensors. Free it with
 * `dispose()` (or `using`); a FinalizationRegistry frees forgotten ones as a
 * safety net only. Using a disposed tensor, or disposing twice, is a TypeError.
 */
export declare class Tensor {
  private constructor();
  readonly shape: number[];
  readonly dtype: DType;
  readonly size: number;
  readonly byteLength: number;
  readonly disposed: boolean;
  readonly dims?: (string | number)[];
  readonly coords?: { [dim: string]: Label[] };
  /** Copy the data out into a new typed array. */
  toArray(): TypedArray;
  dispose(): void;
  [Symbol.dispose](): void;
}

/** Copy data into wasm memory once. `shape` defaults to `[data.length]`. */
export declare function tensor(data: TypedArray, shape?: readonly number[], options?: { dims?: readonly (string | number)[]; coords?: { readonly [dim: string]: readonly Label[] } }): Tensor;

/** What the engine holds, like tf.memory(). `allocatedBytes` excludes the reusable scratch. */
export declare function memory(): { wasmHeapBytes: number; allocatedBytes: number; scratchBytes: number; liveTensors: number };

/** An operand: data with a shape, a resident tensor, or a JS number / bigint (a scalar of the other operand's dtype). */
export type Operand = TensorLike | Tensor | number | bigint;

export interface ElementwiseOptions extends NamedBroadcastOptions {
  /** The element-wise rule: numpy (default), none, or pdpd with axis (§1–§3). */
  broadcast?: { type?: 'numpy' | 'none' | 'pdpd'; axis?: number };
  /** Write the result here: a typed array of the result's dtype and size, or a resident tensor. */
  out?: TypedArray | Tensor;
  /** Named union: the value of cells one side lacks (default NaN for floats, 0 for integers). */
  fill?: number | bigint;
}

/**
 * An element-wise op with broadcasting. Operands share a dtype (else
 * BroadcastError DTYPE_MISMATCH). Integers wrap like a typed-array store of the
 * exact result (mul is Math.imul); Uint8Clamped results are a Uint8ClampedArray
 * store of the JS result (clamped; div rounds half to even, x / 0 = 255);
 * integer div truncates, x / 0 and x % 0 give 0; rem is JS %; float pow is
 * computed in double and rounded once; minimum/maximum propagate NaN and put
 * -0 below +0.
 * Returns a Tensor when any operand (or `out`) is resident, else TensorData.
 */
export type ElementwiseOp = {
  (a: Tensor | Operand, b: Tensor | Operand, options?: ElementwiseOptions): TensorData | Tensor;
};

export declare const add: ElementwiseOp;
export declare const sub: ElementwiseOp;
export declare const mul: ElementwiseOp;
export declare const div: ElementwiseOp;
export declare const rem: ElementwiseOp;
export declare const pow: ElementwiseOp;
export declare const minimum: ElementwiseOp;
export declare const maximum: ElementwiseOp;
/** Comparisons and logical ops return uint8 0/1 data. Truthiness is `!= 0` (NaN is true, as in NumPy). */
export declare const equal: ElementwiseOp;
export declare const notEqual: ElementwiseOp;
export declare const less: ElementwiseOp;
export declare const lessEqual: ElementwiseOp;
export declare const greater: ElementwiseOp;
export declare const greaterEqual: ElementwiseOp;
export declare const logicalAnd: ElementwiseOp;
export declare const logicalOr: ElementwiseOp;
export declare const logicalXor: ElementwiseOp;
/** Bitwise ops take integer dtypes only (a float operand is a TypeError). */
export declare const bitwiseAnd: ElementwiseOp;
export declare const bitwiseOr: ElementwiseOp;
export declare const bitwiseXor: ElementwiseOp;

/**
 * Materialise `x` broadcast to `target`: every Broadcast-op mode (numpy with
 * -1, explicit with axesMapping, bidirectional, pdpd with axis).
 */
export declare function broadcastTo(
  x: TensorLike | Tensor,
  target: Shape,
  options?: { mode?: 'numpy' | 'explicit' | 'bidirectional' | 'pdpd'; axesMapping?: readonly number[]; axis?: number; out?: TypedArray | Tensor },
): TensorData | Tensor;

/** a where cond != 0, else b, with three-way numpy broadcasting. */
export declare function where(cond: TensorLike | Tensor, a: Operand, b: Operand, options?: { out?: TypedArray | Tensor }): TensorData | Tensor;

/** The kernel registry of this build. */
export declare function kernels(): { index: number; name: string; dtype: DType; op: string; form: 'vv' | 'vs' | 'sv'; simd: boolean }[];

// Data with broadcasting: element-wise ops, broadcastTo and where on every JS typed array.
//
// The declarations narrow: a plain operand ({ data, shape }) gives plain data of
// the same dtype (comparisons and logical ops give Uint8Array), a resident
// operand (Tensor<D>) gives a Tensor<D>, and operands of different dtypes do
// not compile. They need lib es2020 (BigInt64Array) or later, and nothing from
// @types/node or lib esnext.
import type { Shape, NamedBroadcastOptions, Label, BroadcastToOptions, NamedShapeInput, OperandDType } from './index.js';

/**
 * The runtime's Float16Array where the TypeScript lib declares one (lib
 * esnext, TypeScript 5.7+), else `never`. Nothing here declares a global.
 */
export type Float16ArrayOfLib = typeof globalThis extends { Float16Array: { prototype: infer P } } ? P : never;
/**
 * float16 data: a Float16Array where the runtime has one; where it does not
 * (Node 20), the float16 bits in a Uint16Array, marked `dtype: 'float16'` on
 * the operand (results come back the same way, with `dtype: 'float16'`). As a
 * type: the lib's Float16Array where the project's lib declares one, else Uint16Array.
 */
export type Float16Data = [Float16ArrayOfLib] extends [never] ? Uint16Array : Float16ArrayOfLib;

/** Each dtype and its typed array: every JS typed array is a dtype (float16: see Float16Data). */
export interface DTypeArrays {
  float32: Float32Array;
  float64: Float64Array;
  int8: Int8Array;
  uint8: Uint8Array;
  uint8clamped: Uint8ClampedArray;
  int16: Int16Array;
  uint16: Uint16Array;
  int32: Int32Array;
  uint32: Uint32Array;
  bigint64: BigInt64Array;
  biguint64: BigUint64Array;
  float16: Float16Data;
}

/** A dtype name: `'float32'`, `'int32'`, … */
export type DType = keyof DTypeArrays;
/** The float dtypes (the only ones `atan2` and `hypot` take). */
export type FloatDType = 'float32' | 'float64' | 'float16';
/** The integer dtypes (the only ones the bitwise ops take), 64-bit ones included. */
export type IntegerDType = Exclude<DType, FloatDType>;
/** The dtypes whose elements are bigints. */
export type BigIntDType = 'bigint64' | 'biguint64';

export type TypedArray = DTypeArrays[DType];

/** The typed array of dtype `D`: `ArrayOf<'int32'>` is `Int32Array`. */
export type ArrayOf<D extends DType> = DTypeArrays[D];

/** The dtype of typed array `A`: `DTypeOf<Float32Array>` is `'float32'` (a Node Buffer is `'uint8'`). */
export type DTypeOf<A extends TypedArray> =
  [A] extends [never] ? never
  : A extends Float16ArrayOfLib ? 'float16'
  : A extends Float32Array ? 'float32'
  : A extends Float64Array ? 'float64'
  : A extends Int8Array ? 'int8'
  : A extends Uint8ClampedArray ? 'uint8clamped'
  : A extends Uint8Array ? 'uint8'
  : A extends Int16Array ? 'int16'
  : A extends Uint16Array ? 'uint16'
  : A extends Int32Array ? 'int32'
  : A extends Uint32Array ? 'uint32'
  : A extends BigInt64Array ? 'bigint64'
  : A extends BigUint64Array ? 'biguint64'
  : never;

/** The JS value of one element of dtype `D`: a bigint for the 64-bit integer dtypes, else a number. */
export type ElementOf<D extends DType> = D extends BigIntDType ? bigint : number;

/** A JS scalar of dtype `D`: a number, or for 64-bit integer dtypes also a bigint. */
export type ScalarOf<D extends DType> = D extends BigIntDType ? bigint | number : number;

/** The dtype names of this build, in the engine's order (filled by init()). */
export declare const DTYPES: readonly DType[];

/**
 * Data with a shape (default `[data.length]`); `dims` (and `coords`) make it a
 * named operand (§6). An onnxruntime Tensor of a typed array is one too (its
 * `dims` a shape, its `type` the data's dtype as ort names it), written
 * inline or not (see {@link OrtTensorMembers}).
 */
export interface TensorLike<A extends TypedArray = TypedArray> extends OrtTensorMembers {
  data: A;
  /** onnxruntime's name of the data's dtype ('int64' for BigInt64Array, 'bool' or 'uint8' for Uint8Array, …): read, with numeric `dims` and no shape, as an ort Tensor. */
  readonly type?: OrtTypeOf<A> | undefined;
  shape?: readonly number[] | undefined;
  /**
   * Must agree with `data` (a TypeError otherwise), except `'float16'` on a
   * Uint16Array: the array holds float16 bits (for runtimes without Float16Array).
   */
  dtype?: DType | undefined;
  dims?: readonly (string | number)[] | undefined;
  coords?: { readonly [dim: string]: readonly Label[] } | undefined;
  /**
   * A view (NumPy's strided layout): element `[i0, i1, …]` is
   * `data[offset + i0*strides[0] + i1*strides[1] + …]`. Strides in elements,
   * one per axis, any integer (0 repeats, negative reverses); default
   * row-major. Every element the view reaches must lie inside `data`
   * (LENGTH_MISMATCH naming the axis otherwise). Read in place by every call.
   */
  strides?: readonly number[] | undefined;
  /** Element 0's index in `data` (default 0); with it, `shape` may cover less than `data`. */
  offset?: number | undefined;
}

/** onnxruntime's tensor type names (`Tensor.Type` of onnxruntime-common). */
export type OrtTensorType = 'float32' | 'float64' | 'float16' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32'
  | 'int64' | 'uint64' | 'bool' | 'string' | 'int4' | 'uint4';

/** The dtype an onnxruntime tensor type is read as: 'int64' is bigint64, 'uint64' biguint64, 'bool' uint8 (string, int4, uint4: none). */
export type OrtDType<T extends string> =
  T extends 'int64' ? 'bigint64' : T extends 'uint64' ? 'biguint64' : T extends 'bool' ? 'uint8' : T extends DType ? T : never;

/** The onnxruntime type names whose data is each dtype's typed array (ort has no uint8clamped; its float16 data is a Uint16Array of the bits). */
export interface OrtTypeNames {
  float32: 'float32'; float64: 'float64'; int8: 'int8'; uint8: 'uint8' | 'bool'; uint8clamped: never; int16: 'int16'; uint16: 'uint16' | 'float16';
  int32: 'int32'; uint32: 'uint32'; bigint64: 'int64'; biguint64: 'uint64'; float16: 'float16';
}
/** The onnxruntime type names of typed array `A`'s data (a Uint16Array of type 'float16' is read as float16: see {@link OrtFloat16}). */
export type OrtTypeOf<A extends TypedArray> = OrtTypeNames[DTypeOf<A>];

/**
 * The members of onnxruntime-common's `Tensor` that tensorcast never reads
 * (it reads `type`, `dims` and `data`), optional on every type an ort tensor
 * is passed as: so that one written inline as an object literal (`{ type,
 * dims, data, location: 'cpu', size }`) passes TypeScript's excess-property
 * check, as the runtime takes it. Typed loosely: they are not read.
 */
export interface OrtTensorMembers {
  readonly location?: string | undefined;
  readonly size?: number | undefined;
  readonly texture?: unknown;
  readonly gpuBuffer?: unknown;
  readonly mlTensor?: unknown;
  readonly getData?: unknown;
  readonly dispose?: unknown;
  readonly reshape?: unknown;
  readonly toDataURL?: unknown;
  readonly toImageData?: unknown;
}

/**
 * An onnxruntime-web / onnxruntime-node `Tensor` as an operand (no `shape`):
 * its `dims` are its shape and its `type` its dtype ('float16': the bits in a
 * Uint16Array; 'bool': a Uint8Array, read as uint8; 'int64': a BigInt64Array).
 * A `type` the data's typed array disagrees with, 'string' tensors (which
 * ort's `Tensor` type admits), and a tensor whose `data` cannot be read (on the
 * GPU: download it first, `new ort.Tensor(t.type, await t.getData(), t.dims)`;
 * disposed) are a TypeError at run time.
 */
export interface OrtTensorLike extends OrtTensorMembers {
  readonly type: OrtTensorType | (string & {});
  readonly dims: readonly number[];
  readonly data: TypedArray | readonly string[];
  readonly shape?: undefined;
}

/**
 * `X` when it is onnxruntime's untyped `Tensor` (what `session.run()`
 * returns: its `data` any of ort's arrays), or an ort-like object whose `type`
 * is a `string` (`{ type: 'float32', dims, data }` written without `as const`),
 * else never. Every data call takes one, and gives data whose dtype is known
 * at run time only (`r.dtype`); a typed ort tensor (`TypedTensor<'float32'>`,
 * or `type` a literal) is a TensorLike and keeps its dtype.
 */
export type UntypedOrt<X extends OrtTensorLike> = X & (IsUntypedOrt<X> extends true ? unknown : never);

/**
 * float16 bits in a Uint16Array marked `dtype: 'float16'` (a runtime without
 * Float16Array, such as Node 20): a float16 operand whatever the lib declares.
 * Written inline or `as const`, so that `dtype` stays the literal.
 */
export type Float16Bits = (TensorLike<Uint16Array> & { dtype: 'float16' }) | OrtFloat16;
/** An onnxruntime `Tensor` of type 'float16' (ort declares its data a Uint16Array of the bits): float16, as it is read. */
export interface OrtFloat16 extends OrtTensorMembers {
  readonly type: 'float16';
  readonly dims: readonly number[];
  readonly data: Uint16Array;
  readonly shape?: undefined;
}
/** A plain float16 result of concat, stack or contiguous: the runtime's Float16Array, or (no Float16Array in the lib) the bits marked float16. */
export type Float16Copy = [Float16ArrayOfLib] extends [never] ? Reshaped<Uint16Array> & { dtype: 'float16' } : Reshaped<Float16Data>;
/** A view or reshape of {@link Float16Bits}: the same bits, still float16. */
export type Float16View = View<Uint16Array> & { dtype: 'float16' };

/** A plain result of dtype `D`: its typed array (float16: Float16Data) and `D` itself. */
export type DataOf<D extends DType> = TensorData<ArrayOf<D>, D>;

/**
 * A typed-array `out` of a result of dtype `D`: its typed array, and for a
 * float16 result also a Uint16Array for the bits (a runtime without
 * Float16Array, whatever the lib declares).
 */
export type HalfOut<D extends DType> = ArrayOf<D> | ('float16' extends D ? Uint16Array : never);

/** Float16Bits where `D` admits float16, else never. */
export type BitsOf<D extends DType> = 'float16' extends D ? Float16Bits : never;

/** A plain operand of a dtype not told: data, an ort tensor, or a JS number / bigint. */
export type AnyPlainOperand = TensorLike | OrtTensorLike | number | bigint;

/**
 * A result copied out to JS: `data` is a new typed array of the result's dtype
 * (or the `out` you passed). `D` is its dtype: `A`'s, except float16, whose
 * data may be a Uint16Array of its bits (see Float16Data).
 */
export interface TensorData<A extends TypedArray = TypedArray, D extends DType = TypedArray extends A ? DType : DTypeOf<A>> {
  data: A;
  shape: number[];
  dtype: D;
  dims?: (string | number)[];
  coords?: { [dim: string]: Label[] };
}

// `[Symbol.dispose]` where the project's lib declares Symbol.dispose (esnext.disposable,
// or @types/node); nothing where it does not, so a browser-only project with
// lib es2022 still compiles. `using t = tensor(...)` type-checks where it exists.
type DisposeSymbol = SymbolConstructor extends { readonly dispose: infer K } ? K & symbol : never;
type DisposableMember = { [K in DisposeSymbol]: () => void };

/**
 * A tensor resident in WebAssembly memory: ops on resident tensors read and
 * write in place (no copies) and return resident tensors. Free it with
 * `dispose()` (or `using`); a FinalizationRegistry frees forgotten ones as a
 * safety net only. A second `dispose()` does nothing; using a disposed tensor
 * throws a TypeError. `String(t)` (and, in Node, `console.log(t)`) shows the
 * dtype, shape and first elements: `Tensor float32 (2,3) [1, 2, 3, 4, 5, 6]`.
 */
export declare class Tensor<D extends DType = DType> {
  private constructor();
  /** A copy of the shape. */
  readonly shape: number[];
  readonly dtype: D;
  /** Element count. */
  readonly size: number;
  readonly byteLength: number;
  readonly disposed: boolean;
  readonly dims?: (string | number)[];
  readonly coords?: { readonly [dim: string]: readonly Label[] };
  /** Copy the data out into a new typed array of the tensor's dtype. */
  toArray(): ArrayOf<D>;
  /**
   * The single value of a size-1 tensor (any shape: `[]`, `[1]`, `[1, 1]`), as
   * a number (a bigint for bigint64 / biguint64): `sum(loss).item()`. Any other
   * size throws a BroadcastError (INVALID_SHAPE) naming the size.
   */
  item(): ElementOf<D>;
  /**
   * The same elements in another shape: a view over this tensor's memory (no
   * copy; as NumPy, a view not in row-major order is copied first where no strides can read it in the new shape), as {@link reshape}. One dim may be `-1` (inferred). Names are
   * dropped unless `options.dims` (and `coords`) name the new dims.
   */
  reshape(shape: readonly number[], options?: ReshapeOptions): Tensor<D>;
  /** Element strides (row-major unless this tensor is a view made by transpose, slice, flip, …). */
  readonly strides: number[];
  /** {@link transpose} of this tensor: a view. */
  transpose(axes?: readonly (number | string)[] | null): Tensor<D>;
  /** {@link slice} of this tensor: a view. */
  slice(...specs: SliceSpec[]): Tensor<D>;
  /** {@link flip} of this tensor: a view. */
  flip(axes?: number | string | readonly (number | string)[] | null): Tensor<D>;
  /** {@link squeeze} of this tensor: a view. */
  squeeze(axes?: number | string | readonly (number | string)[] | null): Tensor<D>;
  /** {@link expandDims} of this tensor: a view. */
  expandDims(axis: number | readonly number[], options?: { dims?: string | number | readonly (string | number)[] | undefined }): Tensor<D>;
  /** {@link contiguous}: a row-major copy (a new tensor, or into `out`). */
  contiguous(options: { out: ArrayOf<D> }): Reshaped<ArrayOf<D>>;
  contiguous(options?: { out?: Tensor<D> | undefined }): Tensor<D>;
  /** Free the wasm memory now (once no view of it is alive). Disposing again does nothing. */
  dispose(): void;
  /** `Tensor float32 (2,3) [1, 2, 3, 4, 5, 6]` (the first 8 elements; `(disposed)` once disposed). */
  toString(): string;
  /** What JSON.stringify shows: dtype, shape, dims, whether disposed (never the data). */
  toJSON(): { dtype: D; shape: number[]; dims?: (string | number)[]; disposed: boolean };
  readonly [Symbol.toStringTag]: 'Tensor';
}
export interface Tensor<D extends DType = DType> extends DisposableMember {}

/** Copy data into wasm memory once. `shape` defaults to `[data.length]`. */
export declare function tensor<A extends TypedArray>(
  data: A,
  shape?: readonly number[],
  options?: { dims?: readonly (string | number)[] | undefined; coords?: { readonly [dim: string]: readonly Label[] } | undefined; dtype?: DTypeOf<A> | undefined },
): Tensor<DTypeOf<A>>;
/** float16 bits in a Uint16Array (a runtime without Float16Array): a float16 tensor; toArray() gives the bits. */
export declare function tensor(
  data: Uint16Array,
  shape: readonly number[] | undefined,
  options: { dims?: readonly (string | number)[] | undefined; coords?: { readonly [dim: string]: readonly Label[] } | undefined; dtype: 'float16' },
): Tensor<'float16'>;
/**
 * An onnxruntime Tensor: its data with `shape` defaulting to its dims, of the
 * dtype its type is read as (no `dtype` option). A type that names another
 * dtype than its typed array's (a TypeError at run time) does not compile.
 */
export declare function tensor<T extends string, A extends OrtTensorLike['data'] = OrtTensorLike['data']>(
  data: OrtTensorLike & { readonly type: T; readonly data: A } & OrtTypeAgrees<T, A>,
  shape?: readonly number[],
  options?: { dims?: readonly (string | number)[] | undefined; coords?: { readonly [dim: string]: readonly Label[] } | undefined },
): Tensor<[OrtDType<T>] extends [never] ? DType : OrtDType<T>>;

// unknown when ort type `T` names typed array `A`'s dtype (OrtTypeOf), or when
// either is not told (a `string` or ort's union of type names, data of several
// arrays, string data); else never.
type OrtTypeAgrees<T extends string, A> =
  string extends T ? unknown : [T] extends [Intersected<T>] ? ([A] extends [TypedArray] ? ([T] extends [OrtTypeOf<A>] ? unknown : never) : unknown) : unknown;

/** Options of {@link reshape}: names for the result's dims (a reshape drops the input's). */
export interface ReshapeOptions {
  dims?: readonly (string | number)[] | undefined;
  coords?: { readonly [dim: string]: readonly Label[] } | undefined;
}

/**
 * A plain operand reshaped: its typed array (a view's subarray) with the new shape; a view not
 * in row-major order keeps its data with new `strides` and its `offset` where strides can read
 * it in the new shape (NumPy's view), and is a row-major copy where none can.
 */
export interface Reshaped<A extends TypedArray = TypedArray> {
  data: A;
  shape: number[];
  /** Element strides: only on a reshaped view not in row-major order. */
  strides?: number[];
  /** Element 0's index in `data`, beside `strides`. */
  offset?: number;
  /** 'float16' when `data` holds float16 bits (a Uint16Array given with dtype 'float16'). */
  dtype?: 'float16';
  dims?: (string | number)[];
  coords?: { [dim: string]: Label[] };
}

/**
 * `x` in another shape, the same elements in the same row-major order
 * (numpy.reshape): one dim may be `-1`, inferred from the size. A resident
 * tensor gives a Tensor over the same memory (a view, nothing copied; the
 * memory is freed when the last tensor over it is disposed, in any order).
 * As NumPy, a view not in row-major order (a transpose, a flip, a step) stays
 * a view where strides can read it in the new shape, and is copied first where
 * none can (`transpose(x).reshape([-1])`); a plain operand gives
 * `{ data, shape }` with the same typed array (a view `{ data, shape, strides, offset }` in
 * row-major order: the subarray it covers; any other view: the same data with
 * new strides, or a copy where none can read it)
 * (float16 bits keep `dtype: 'float16'`). Names are
 * dropped unless `options.dims` (and `coords`) name the new dims.
 * @example reshape(t, [3, -1]) // (2,3) -> (3,2)
 * @throws {BroadcastError} INVALID_SHAPE: `cannot reshape a tensor of size 6 into shape (4,-1)`, two -1s, another negative or a non-integer dim
 */
export declare function reshape<X extends OrtTensorLike>(x: UntypedOrt<X>, shape: readonly number[], options?: ReshapeOptions): Reshaped;
export declare function reshape<D extends DType>(x: Tensor<D>, shape: readonly number[], options?: ReshapeOptions): Tensor<D>;
export declare function reshape(x: Float16Bits, shape: readonly number[], options?: ReshapeOptions): Reshaped<Uint16Array> & { dtype: 'float16' };
export declare function reshape<A extends TypedArray>(x: TensorLike<A>, shape: readonly number[], options?: ReshapeOptions): Reshaped<A>;

/**
 * One axis's spec of {@link slice}: an index (the axis goes; negative from
 * the end), `null` (the whole axis), `[start, stop, step]` (NumPy's slice:
 * null / undefined for the defaults, negative indices, clamped, negative
 * steps), or the same as text (`'::-1'`, `'1:'`, `'0'`).
 */
export type SliceSpec = number | null | undefined | string | readonly [(number | null | undefined)?, (number | null | undefined)?, (number | null | undefined)?];

/** A plain operand's view: the same typed array with a shape, element strides and an offset. */
export interface View<A extends TypedArray = TypedArray> {
  data: A;
  shape: number[];
  strides: number[];
  offset: number;
  dtype?: 'float16';
  dims?: (string | number)[];
  coords?: { [dim: string]: Label[] };
}

/**
 * The axes in the order `axes` gives (numpy.transpose; reversed by default):
 * each axis once, negative from the end, or dim names of a named operand. A
 * view: a resident tensor gives a Tensor over the same memory, a plain
 * operand `{ data, shape, strides, offset }` over the same array. Dims and
 * coords follow their axes.
 * @throws {BroadcastError} INVALID_AXIS: an axis out of range, repeated, or not every axis
 */
export declare function transpose<X extends OrtTensorLike>(x: UntypedOrt<X>, axes?: readonly (number | string)[] | null): View;
export declare function transpose<D extends DType>(x: Tensor<D>, axes?: readonly (number | string)[] | null): Tensor<D>;
export declare function transpose(x: Float16Bits, axes?: readonly (number | string)[] | null): Float16View;
export declare function transpose<A extends TypedArray>(x: TensorLike<A>, axes?: readonly (number | string)[] | null): View<A>;
/**
 * NumPy's basic indexing, one spec per leading axis (the rest whole), or one
 * string of them all: `slice(x, '1:3, ::-1, 0')`. A view (see {@link transpose}).
 * @throws {BroadcastError} INVALID_SHAPE: more specs than axes, an index out of range, a step of 0, text that is not a spec
 */
export declare function slice<X extends OrtTensorLike>(x: UntypedOrt<X>, ...specs: SliceSpec[]): View;
export declare function slice<D extends DType>(x: Tensor<D>, ...specs: SliceSpec[]): Tensor<D>;
export declare function slice(x: Float16Bits, ...specs: SliceSpec[]): Float16View;
export declare function slice<A extends TypedArray>(x: TensorLike<A>, ...specs: SliceSpec[]): View<A>;
/** The elements in reverse order along `axes` (all by default), numpy.flip. A view. */
export declare function flip<X extends OrtTensorLike>(x: UntypedOrt<X>, axes?: number | string | readonly (number | string)[] | null): View;
export declare function flip<D extends DType>(x: Tensor<D>, axes?: number | string | readonly (number | string)[] | null): Tensor<D>;
export declare function flip(x: Float16Bits, axes?: number | string | readonly (number | string)[] | null): Float16View;
export declare function flip<A extends TypedArray>(x: TensorLike<A>, axes?: number | string | readonly (number | string)[] | null): View<A>;
/**
 * Without its size-1 axes (or only `axes`, each of size 1), numpy.squeeze. A view.
 * @throws {BroadcastError} INVALID_AXIS: an axis whose size is not 1
 */
export declare function squeeze<X extends OrtTensorLike>(x: UntypedOrt<X>, axes?: number | string | readonly (number | string)[] | null): View;
export declare function squeeze<D extends DType>(x: Tensor<D>, axes?: number | string | readonly (number | string)[] | null): Tensor<D>;
export declare function squeeze(x: Float16Bits, axes?: number | string | readonly (number | string)[] | null): Float16View;
export declare function squeeze<A extends TypedArray>(x: TensorLike<A>, axes?: number | string | readonly (number | string)[] | null): View<A>;
/** A new axis of size 1 at `axis` of the result (numpy.expand_dims); a named operand names it: `options.dims`, a name per new axis (one axis: the name alone, as stack's; a TypeError for an operand without dims). A view. */
export declare function expandDims<X extends OrtTensorLike>(x: UntypedOrt<X>, axis: number | readonly number[], options?: { dims?: string | number | readonly (string | number)[] | undefined }): View;
export declare function expandDims<D extends DType>(x: Tensor<D>, axis: number | readonly number[], options?: { dims?: string | number | readonly (string | number)[] | undefined }): Tensor<D>;
export declare function expandDims(x: Float16Bits, axis: number | readonly number[], options?: { dims?: string | number | readonly (string | number)[] | undefined }): Float16View;
export declare function expandDims<A extends TypedArray>(x: TensorLike<A>, axis: number | readonly number[], options?: { dims?: string | number | readonly (string | number)[] | undefined }): View<A>;
/** A row-major copy: a new resident tensor of a resident one (or into `out`), a new `{ data, shape }` of a plain one. */
export declare function contiguous<X extends OrtTensorLike>(x: UntypedOrt<X>, options: { out: Tensor }): Tensor;
export declare function contiguous<X extends OrtTensorLike>(x: UntypedOrt<X>, options?: { out?: TypedArray | undefined }): Reshaped;
/** A resident input written into a typed-array `out`: plain data over that array. */
export declare function contiguous<D extends DType>(x: Tensor<D>, options: { out: ArrayOf<NoInferFrom<D>> }): Reshaped<ArrayOf<D>>;
export declare function contiguous<D extends DType>(x: Tensor<D>, options?: { out?: Tensor<D> | undefined }): Tensor<D>;
export declare function contiguous(x: Float16Bits, options: { out: Tensor<'float16'> }): Tensor<'float16'>;
export declare function contiguous(x: Float16Bits, options?: { out?: HalfOut<'float16'> | undefined }): Float16Copy;
export declare function contiguous<A extends TypedArray>(x: TensorLike<A>, options: { out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
export declare function contiguous<A extends TypedArray>(x: TensorLike<A>, options?: { out?: A | undefined }): Reshaped<A>;
/** An input of {@link concat} or {@link stack}. */
export type JoinInput = TensorLike | OrtTensorLike | Tensor;
// One input's dtype where its type tells one (never for onnxruntime's untyped
// Tensor, a Tensor<DType> or data of any typed array); whether it is ort's untyped Tensor.
type KnownDType<V> = V extends unknown ? (OperandDType<V> extends infer D extends DType ? ([D] extends [never] ? never : [D] extends [Intersected<D>] ? D : never) : never) : never;
// The intersection of union D's members: D itself only when D is one type.
type Intersected<D> = (D extends unknown ? (x: D) => void : never) extends (x: infer I) => void ? I : never;
type IsUntypedOrt<V> = V extends OrtTensorLike ? (string[] extends V['data'] ? true : string extends V['type'] ? true : false) : false;
/**
 * Inputs with a resident one: `D` is read from the Tensors only (data of
 * another dtype beside them does not widen it; with no Tensor, D is the
 * overloads' default never and nothing matches), and Tensors of two dtypes do
 * not compile (a Tensor<DType>, whose dtype is not told, joins any).
 */
type WithResident<D extends DType> = readonly (Tensor<D> | TensorLike<ArrayOf<NoInferFrom<D>>> | BitsOf<NoInferFrom<D>>)[] & (DType extends D ? unknown : [D] extends [Intersected<D>] ? unknown : never);
/**
 * `unknown` when inputs `T` hold onnxruntime's untyped Tensor (a session's
 * output: its dtype known at run time only) and the inputs whose type tells a
 * dtype tell one; else never. Inputs of typed dtypes alone take the overloads
 * before it, so inputs of two dtypes (a DTYPE_MISMATCH at run time) do not compile.
 */
type UntypedJoin<T extends readonly JoinInput[]> =
  true extends (T[number] extends infer V ? (V extends unknown ? IsUntypedOrt<V> : never) : never)
    ? ([KnownDType<T[number]>] extends [Intersected<KnownDType<T[number]>>] ? unknown : never)
    : never;

// float16 bits and uint16 data share the Uint16Array, so the inference of A
// (or D) above cannot tell them apart. Per input: 'float16' when its type
// says float16 bits (dtype 'float16', an ort 'float16' tensor, a
// Tensor<'float16'>), 'uint16' when it says uint16 (no dtype, dtype
// 'uint16', ort 'uint16', a Tensor<'uint16'>), 'other' when it says
// neither (another dtype, or a dtype that may be either: TensorLike's `dtype?: DType`).
type HalfKind<V> =
  V extends Tensor<infer D> ? ([D] extends ['float16'] ? 'float16' : [D] extends ['uint16'] ? 'uint16' : 'other')
  : V extends { readonly type: infer T extends string; readonly dims: readonly number[]; readonly shape?: undefined } ? ([T] extends ['float16'] ? 'float16' : [T] extends ['uint16'] ? 'uint16' : 'other')
  : V extends { readonly data: Uint16Array; readonly dtype: 'float16' } ? 'float16'
  : V extends { readonly data: infer A extends TypedArray } ? (DTypeOf<A> extends 'uint16' ? ('float16' extends ('dtype' extends keyof V ? V[keyof V & 'dtype'] : undefined) ? 'other' : 'uint16') : 'other')
  : 'other';
/** never when inputs `T` hold float16 bits and uint16 data (a DTYPE_MISMATCH at run time), else unknown. */
type NoHalfMix<T extends readonly JoinInput[]> = 'float16' | 'uint16' extends HalfKind<T[number]> ? never : unknown;

/**
 * numpy.concatenate: `xs` (one dtype and rank, the same dims but on `axis`)
 * one after another along `axis` (default 0; a dim name for named inputs): a
 * new resident tensor when any input is resident, else `{ data, shape }`; or
 * into `options.out`. Inputs join by position: named ones need the same dim
 * names (all named, or none).
 * @throws {BroadcastError} DTYPE_MISMATCH, INVALID_SHAPE (dims differ off the axis), INVALID_AXIS, INCOMPATIBLE_DIMS (other dim names or coords)
 */
export declare function concat(xs: readonly Float16Bits[], axis: number | string | null | undefined, options: { out: Tensor<'float16'> }): Tensor<'float16'>;
export declare function concat(xs: readonly Float16Bits[], axis?: number | string | null, options?: { out?: HalfOut<'float16'> | undefined }): Float16Copy;
export declare function concat<A extends TypedArray, T extends readonly JoinInput[] = []>(xs: readonly TensorLike<A>[] & T & NoHalfMix<T>, axis: number | string | null | undefined, options: { out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
export declare function concat<A extends TypedArray, T extends readonly JoinInput[] = []>(xs: readonly TensorLike<A>[] & T & NoHalfMix<T>, axis?: number | string | null, options?: { out?: A | undefined }): Reshaped<A>;
export declare function concat<D extends DType = never, T extends readonly JoinInput[] = []>(xs: WithResident<D> & T & NoHalfMix<T>, axis: number | string | null | undefined, options: { out: ArrayOf<NoInferFrom<D>> }): Reshaped<ArrayOf<D>>;
export declare function concat<D extends DType = never, T extends readonly JoinInput[] = []>(xs: WithResident<D> & T & NoHalfMix<T>, axis?: number | string | null, options?: { out?: Tensor<NoInferFrom<D>> | undefined }): Tensor<D>;
export declare function concat<T extends readonly JoinInput[]>(xs: T & UntypedJoin<T>, axis?: number | string | null, options?: { out?: Tensor | TypedArray | undefined }): Tensor | Reshaped;
/** numpy.stack: `xs` (one dtype and shape) along a new axis `axis` (default 0); named inputs name it (`options.dims`, a TypeError for inputs without dims). As {@link concat}. */
export declare function stack(xs: readonly Float16Bits[], axis: number | null | undefined, options: { out: Tensor<'float16'>; dims?: string | number | undefined }): Tensor<'float16'>;
export declare function stack(xs: readonly Float16Bits[], axis?: number | null, options?: { out?: HalfOut<'float16'> | undefined; dims?: string | number | undefined }): Float16Copy;
export declare function stack<A extends TypedArray, T extends readonly JoinInput[] = []>(xs: readonly TensorLike<A>[] & T & NoHalfMix<T>, axis: number | null | undefined, options: { out: Tensor<DTypeOf<A>>; dims?: string | number | undefined }): Tensor<DTypeOf<A>>;
export declare function stack<A extends TypedArray, T extends readonly JoinInput[] = []>(xs: readonly TensorLike<A>[] & T & NoHalfMix<T>, axis?: number | null, options?: { out?: A | undefined; dims?: string | number | undefined }): Reshaped<A>;
export declare function stack<D extends DType = never, T extends readonly JoinInput[] = []>(xs: WithResident<D> & T & NoHalfMix<T>, axis: number | null | undefined, options: { out: ArrayOf<NoInferFrom<D>>; dims?: string | number | undefined }): Reshaped<ArrayOf<D>>;
export declare function stack<D extends DType = never, T extends readonly JoinInput[] = []>(xs: WithResident<D> & T & NoHalfMix<T>, axis?: number | null, options?: { out?: Tensor<NoInferFrom<D>> | undefined; dims?: string | number | undefined }): Tensor<D>;
export declare function stack<T extends readonly JoinInput[]>(xs: T & UntypedJoin<T>, axis?: number | null, options?: { out?: Tensor | TypedArray | undefined; dims?: string | number | undefined }): Tensor | Reshaped;

/** What the engine holds, like tf.memory(). `allocatedBytes` excludes the reusable scratch (an empty tensor holds 1 byte); `liveTensors` counts views too. */
export declare function memory(): { wasmHeapBytes: number; allocatedBytes: number; scratchBytes: number; liveTensors: number };

/** Free the scratch memory kept between calls (it is reused, and regrown when needed). */
export declare function releaseScratch(): void;

// Inference goes from the first operand that can carry it; `NoInferFrom<T>`
// keeps a later operand from widening a dtype (so float32 + int32 is an error,
// not a union), and works before TypeScript 5.4's NoInfer.
type NoInferFrom<T> = [T][T extends unknown ? 0 : never];

/**
 * The typed arrays of plain data (no `dtype: 'float16'` mark) of the dtypes `In`: a Uint16Array
 * only when `In` has uint16, for without Float16Array in the lib it is also float16's
 * (Float16Data), and float16 bits take the Float16Bits overloads.
 */
type PlainArrayOf<In extends DType> = ArrayOf<Exclude<In, 'float16'>> | ('float16' extends In ? Float16ArrayOfLib : never);

/** A plain operand of dtype `D`: data with a shape, or a JS scalar. */
export type PlainOperand<D extends DType> = TensorLike<PlainArrayOf<D>> | BitsOf<D> | ScalarOf<D>;

/** An operand of dtype `D`: data with a shape, a resident tensor, or a JS number / bigint (a scalar of the other operand's dtype). */
export type Operand<D extends DType = DType> = TensorLike<PlainArrayOf<D>> | BitsOf<D> | Tensor<D> | ScalarOf<D>;

export interface ElementwiseOptions<R extends DType = DType> extends NamedBroadcastOptions {
  /** The element-wise rule: numpy (default), none, or pdpd with axis (§1–§3); positional operands only (named ones align by name: a TypeError). */
  broadcast?: { type?: 'numpy' | 'none' | 'pdpd' | null | undefined; axis?: number | null | undefined } | undefined;
  /**
   * Write the result here: a typed array of the result's dtype and size, or a resident tensor (then the result is that tensor).
   * Only the size is checked: the result's elements go to out's in row-major order (a resident out keeps its own shape).
   */
  out?: HalfOut<R> | Tensor<R> | undefined;
  /** Named union: the value of cells one side lacks (default NaN for floats, 0 for integers). */
  fill?: number | bigint | undefined;
}

/** The dtype an op gives for operands of dtype `D`: `D`, or `'uint8'` for comparisons and logical ops. */
type Result<D extends DType, Bool extends boolean> = Bool extends true ? 'uint8' : D;

/**
 * An element-wise op with broadcasting, over operands of the dtypes `In`.
 * Operands share a dtype (else BroadcastError DTYPE_MISMATCH at run time; a
 * compile error here). Integers wrap like a typed-array store of the exact
 * result (mul is Math.imul); Uint8Clamped results are a Uint8ClampedArray
 * store of the JS result (clamped; div rounds half to even, x / 0 = 255);
 * integer div truncates, x / 0 and x % 0 give 0; rem is JS %; float pow is
 * computed in double and rounded once; minimum/maximum propagate NaN and put
 * -0 below +0.
 *
 * Returns a `Tensor` when any operand (or `out`) is resident, else `TensorData`; a typed-array `out`
 * gives `TensorData` over that array, whatever the operands.
 */
export interface ElementwiseOp<In extends DType = DType, Bool extends boolean = false> {
  /** onnxruntime's untyped Tensor (a session's output) on either side: the dtype is known at run time; a typed-array `out`, plain data over it. */
  <X extends OrtTensorLike>(a: UntypedOrt<X>, b: Tensor, options: ElementwiseOptions & { out: TypedArray }): DataOf<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: Tensor, b: UntypedOrt<X>, options: ElementwiseOptions & { out: TypedArray }): DataOf<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: UntypedOrt<X>, b: Tensor, options?: ElementwiseOptions): Tensor<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: Tensor, b: UntypedOrt<X>, options?: ElementwiseOptions): Tensor<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: UntypedOrt<X>, b: AnyPlainOperand, options: ElementwiseOptions & { out: Tensor }): Tensor<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: AnyPlainOperand, b: UntypedOrt<X>, options: ElementwiseOptions & { out: Tensor }): Tensor<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: UntypedOrt<X>, b: AnyPlainOperand, options?: ElementwiseOptions & { out?: TypedArray | undefined }): DataOf<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(a: AnyPlainOperand, b: UntypedOrt<X>, options?: ElementwiseOptions & { out?: TypedArray | undefined }): DataOf<Result<OrtIn<X, In>, Bool>>;
  /** A resident operand written into a typed-array `out`: plain data over that array. */
  <D extends In>(a: Tensor<D>, b: Operand<NoInferFrom<D>>, options: ElementwiseOptions<Result<NoInferFrom<D>, Bool>> & { out: HalfOut<Result<NoInferFrom<D>, Bool>> }): DataOf<Result<D, Bool>>;
  <D extends In>(a: PlainOperand<NoInferFrom<D>>, b: Tensor<D>, options: ElementwiseOptions<Result<NoInferFrom<D>, Bool>> & { out: HalfOut<Result<NoInferFrom<D>, Bool>> }): DataOf<Result<D, Bool>>;
  /** A resident first operand: a resident result. */
  <D extends In>(a: Tensor<D>, b: Operand<NoInferFrom<D>>, options?: ElementwiseOptions<Result<NoInferFrom<D>, Bool>>): Tensor<Result<D, Bool>>;
  /** A resident second operand: a resident result. */
  <D extends In>(a: PlainOperand<NoInferFrom<D>>, b: Tensor<D>, options?: ElementwiseOptions<Result<NoInferFrom<D>, Bool>>): Tensor<Result<D, Bool>>;
  /** float16 bits on either side (Float16Bits): float16 data, or into a resident `out`, that tensor. */
  (a: BitsOf<In>, b: PlainOperand<'float16'>, options: ElementwiseOptions<Result<'float16', Bool>> & { out: Tensor<Result<'float16', Bool>> }): Tensor<Result<'float16', Bool>>;
  (a: PlainOperand<'float16'>, b: BitsOf<In>, options: ElementwiseOptions<Result<'float16', Bool>> & { out: Tensor<Result<'float16', Bool>> }): Tensor<Result<'float16', Bool>>;
  (a: BitsOf<In>, b: PlainOperand<'float16'>, options?: ElementwiseOptions<Result<'float16', Bool>> & { out?: HalfOut<Result<'float16', Bool>> | undefined }): DataOf<Result<'float16', Bool>>;
  (a: PlainOperand<'float16'>, b: BitsOf<In>, options?: ElementwiseOptions<Result<'float16', Bool>> & { out?: HalfOut<Result<'float16', Bool>> | undefined }): DataOf<Result<'float16', Bool>>;
  /** A scalar first and plain data second: into a resident `out`, that tensor; else plain data. */
  <A extends PlainArrayOf<In>>(a: ScalarOf<DTypeOf<A>>, b: TensorLike<A>, options: ElementwiseOptions<Result<DTypeOf<A>, Bool>> & { out: Tensor<Result<DTypeOf<A>, Bool>> }): Tensor<Result<DTypeOf<A>, Bool>>;
  <A extends PlainArrayOf<In>>(a: ScalarOf<DTypeOf<A>>, b: TensorLike<A>, options?: ElementwiseOptions<Result<DTypeOf<A>, Bool>> & { out?: ArrayOf<Result<DTypeOf<A>, Bool>> | undefined }): DataOf<Result<DTypeOf<A>, Bool>>;
  /** Plain data first, written into a resident `out`: that tensor. */
  <A extends PlainArrayOf<In>>(a: TensorLike<A>, b: PlainOperand<DTypeOf<A>>, options: ElementwiseOptions<Result<DTypeOf<A>, Bool>> & { out: Tensor<Result<DTypeOf<A>, Bool>> }): Tensor<Result<DTypeOf<A>, Bool>>;
  /** Plain operands: plain data of their dtype (Uint8Array for comparisons and logical ops). Last, so a mismatch is reported against it. */
  <A extends PlainArrayOf<In>>(a: TensorLike<A>, b: PlainOperand<DTypeOf<A>>, options?: ElementwiseOptions<Result<DTypeOf<A>, Bool>> & { out?: ArrayOf<Result<DTypeOf<A>, Bool>> | undefined }): DataOf<Result<DTypeOf<A>, Bool>>;
}

/** The dtype untyped ort operand `X` is read as where its data tells one (`type` a `string` over a Float32Array: float32), else any of `In`. */
type OrtIn<X, In extends DType> = OperandDType<X> extends infer D extends DType ? ([D] extends [never] ? In : [D] extends [Intersected<D>] ? ([D] extends [In] ? D : In) : In) : In;

/** Element-wise ops giving uint8 0/1. Truthiness is `!= 0` (NaN is true, as in NumPy). */
export type ComparisonOp = ElementwiseOp<DType, true>;

export declare const add: ElementwiseOp;
export declare const sub: ElementwiseOp;
export declare const mul: ElementwiseOp;
/** a / b (integers: truncated toward zero, x / 0 = 0; uint8clamped: rounded half to even, x / 0 = 255 for x > 0, 0 / 0 = 0). */
export declare const div: ElementwiseOp;
/** a % b, JS semantics: the result takes the dividend's sign (integers: x % 0 = 0). */
export declare const rem: ElementwiseOp;
/** a mod b, NumPy's np.mod (ONNX Mod with fmod=0): the result takes the divisor's sign (integers: x mod 0 = 0). */
export declare const mod: ElementwiseOp;
/** floor(a / b), NumPy's np.floor_divide (integers: x // 0 = 0; uint8clamped: x // 0 = 255 for x > 0, as a Uint8ClampedArray store of Infinity). */
export declare const floorDiv: ElementwiseOp;
export declare const pow: ElementwiseOp;
/** Element-wise minimum (NaN propagates, -0 < +0). */
export declare const minimum: ElementwiseOp;
/** Element-wise maximum (NaN propagates, -0 < +0). */
export declare const maximum: ElementwiseOp;
/** atan2(a, b), the angle of the point (b, a). Float dtypes only. */
export declare const atan2: ElementwiseOp<FloatDType>;
/** sqrt(a² + b²) without undue overflow or underflow (float64: the C library's, within 1 ulp of NumPy; float32: in double, rounded once; float16: the float32 result rounded to float16). Float dtypes only. */
export declare const hypot: ElementwiseOp<FloatDType>;
/** Comparisons and logical ops return uint8 0/1 data. Truthiness is `!= 0` (NaN is true, as in NumPy). */
export declare const equal: ComparisonOp;
export declare const notEqual: ComparisonOp;
export declare const less: ComparisonOp;
export declare const lessEqual: ComparisonOp;
export declare const greater: ComparisonOp;
export declare const greaterEqual: ComparisonOp;
export declare const logicalAnd: ComparisonOp;
export declare const logicalOr: ComparisonOp;
export declare const logicalXor: ComparisonOp;
/** Bitwise ops take integer dtypes only (a float operand is `DTYPE_MISMATCH` at run time, a compile error here). */
export declare const bitwiseAnd: ElementwiseOp<IntegerDType>;
export declare const bitwiseOr: ElementwiseOp<IntegerDType>;
export declare const bitwiseXor: ElementwiseOp<IntegerDType>;

/** Options of a unary op and of cast: `out`, a typed array of the result's dtype and size, or a resident tensor (then the result is that tensor; it may be the input). */
export interface UnaryOptions<R extends DType = DType> {
  out?: HalfOut<R> | Tensor<R> | undefined;
}

/**
 * A unary element-wise op over operands of the dtypes `In` (NumPy's
 * semantics: integers wrap, floor/ceil/round/trunc leave integers unchanged,
 * round is half to even; `Bool`: a Uint8Array of 0/1). Another dtype is
 * BroadcastError DTYPE_MISMATCH at run time and a compile error here. Named
 * operands keep their dims and coords. Returns a `Tensor` when `x` (or `out`)
 * is resident, else `TensorData`.
 */
export interface UnaryOp<In extends DType = DType, Bool extends boolean = false> {
  /** onnxruntime's untyped Tensor (a session's output): the dtype is known at run time. */
  <X extends OrtTensorLike>(x: UntypedOrt<X>, options: UnaryOptions & { out: Tensor }): Tensor<Result<OrtIn<X, In>, Bool>>;
  <X extends OrtTensorLike>(x: UntypedOrt<X>, options?: UnaryOptions & { out?: TypedArray | undefined }): DataOf<Result<OrtIn<X, In>, Bool>>;
  /** A resident operand written into a typed-array `out`: plain data over that array. */
  <D extends In>(x: Tensor<D>, options: UnaryOptions<Result<NoInferFrom<D>, Bool>> & { out: HalfOut<Result<NoInferFrom<D>, Bool>> }): DataOf<Result<D, Bool>>;
  /** A resident operand: a resident result. */
  <D extends In>(x: Tensor<D>, options?: UnaryOptions<Result<NoInferFrom<D>, Bool>>): Tensor<Result<D, Bool>>;
  /** float16 bits (Float16Bits): float16 data, or into a resident `out`, that tensor. */
  (x: BitsOf<In>, options: UnaryOptions<Result<'float16', Bool>> & { out: Tensor<Result<'float16', Bool>> }): Tensor<Result<'float16', Bool>>;
  (x: BitsOf<In>, options?: UnaryOptions<Result<'float16', Bool>> & { out?: HalfOut<Result<'float16', Bool>> | undefined }): DataOf<Result<'float16', Bool>>;
  /** Plain data written into a resident `out`: that tensor. */
  <A extends PlainArrayOf<In>>(x: TensorLike<A>, options: UnaryOptions<Result<DTypeOf<A>, Bool>> & { out: Tensor<Result<DTypeOf<A>, Bool>> }): Tensor<Result<DTypeOf<A>, Bool>>;
  /** Plain data: plain data of its dtype (Uint8Array for logicalNot, isNaN, isFinite). */
  <A extends PlainArrayOf<In>>(x: TensorLike<A>, options?: UnaryOptions<Result<DTypeOf<A>, Bool>> & { out?: ArrayOf<Result<DTypeOf<A>, Bool>> | undefined }): DataOf<Result<DTypeOf<A>, Bool>>;
}

/** -x (integers wrap; uint8clamped gives 0). */
export declare const neg: UnaryOp;
/** |x| (abs of INT_MIN wraps to INT_MIN; floats clear the sign bit). */
export declare const abs: UnaryOp;
/** -1, 0 or 1 by the sign of x; NaN for NaN, +0 for either zero. */
export declare const sign: UnaryOp;
/** Float dtypes only: square root. */
export declare const sqrt: UnaryOp<FloatDType>;
export declare const exp: UnaryOp<FloatDType>;
export declare const expm1: UnaryOp<FloatDType>;
export declare const log: UnaryOp<FloatDType>;
export declare const log1p: UnaryOp<FloatDType>;
export declare const sin: UnaryOp<FloatDType>;
export declare const cos: UnaryOp<FloatDType>;
export declare const tan: UnaryOp<FloatDType>;
export declare const tanh: UnaryOp<FloatDType>;
/** Float dtypes only: 1 / (1 + e^-x), computed without overflow for either sign. */
export declare const sigmoid: UnaryOp<FloatDType>;
/** Integers unchanged. */
export declare const floor: UnaryOp;
export declare const ceil: UnaryOp;
/** Half to even, as np.round. */
export declare const round: UnaryOp;
export declare const trunc: UnaryOp;
/** 1 where x == 0 (NaN is true, so 0). */
export declare const logicalNot: UnaryOp<DType, true>;
/** Every bit flipped; integer dtypes only. */
export declare const bitwiseNot: UnaryOp<IntegerDType>;
/** 1 where x is NaN (integers: 0). */
export declare const isNaN: UnaryOp<DType, true>;
/** 1 where x is finite (integers: 1). */
export declare const isFinite: UnaryOp<DType, true>;

/**
 * `x` converted to `dtype`, NumPy's astype: float → integer truncates toward
 * zero, NaN gives 0, out-of-range values saturate to the type's min/max;
 * float → uint8clamped rounds half to even and clamps; integer → integer
 * wraps (→ uint8clamped clamps); integer → float and float64 → float32 /
 * float16 round to nearest even. Any dtype to any dtype (the same: a copy).
 */
export declare function cast<X extends OrtTensorLike, R extends DType>(x: UntypedOrt<X>, dtype: R, options: UnaryOptions<NoInferFrom<R>> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function cast<X extends OrtTensorLike, R extends DType>(x: UntypedOrt<X>, dtype: R, options?: UnaryOptions<NoInferFrom<R>> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;
export declare function cast<D extends DType, R extends DType>(x: Tensor<D>, dtype: R, options: { out: ArrayOf<NoInferFrom<R>> }): DataOf<R>;
export declare function cast<D extends DType, R extends DType>(x: Tensor<D>, dtype: R, options?: UnaryOptions<NoInferFrom<R>>): Tensor<R>;
export declare function cast<A extends TypedArray, R extends DType>(x: TensorLike<A>, dtype: R, options: UnaryOptions<NoInferFrom<R>> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function cast<A extends TypedArray, R extends DType>(x: TensorLike<A>, dtype: R, options?: UnaryOptions<NoInferFrom<R>> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;

export interface BroadcastToDataOptions<D extends DType = DType> {
  /** 'numpy' (default, with -1 keeping the input's dim), 'explicit' (with axesMapping), 'bidirectional' or 'pdpd' (with axis). */
  mode?: 'numpy' | 'explicit' | 'bidirectional' | 'pdpd' | null | undefined;
  axesMapping?: readonly number[] | undefined;
  axis?: number | null | undefined;
  /** Write the result here: a typed array of x's dtype and the result's size, or a resident tensor. */
  out?: HalfOut<D> | Tensor<D> | undefined;
}

/**
 * Materialise `x` broadcast to `target`: every Broadcast-op mode (numpy with
 * -1, explicit with axesMapping, bidirectional, pdpd with axis). The target
 * must be static. By position, so a named operand is a TypeError (as for {@link broadcastArrays}).
 */
export declare function broadcastTo<X extends OrtTensorLike>(x: UntypedOrt<X>, target: Shape, options: BroadcastToDataOptions & { out: Tensor }): Tensor;
export declare function broadcastTo<X extends OrtTensorLike>(x: UntypedOrt<X>, target: Shape, options?: BroadcastToDataOptions & { out?: TypedArray | undefined }): TensorData;
export declare function broadcastTo<D extends DType>(x: Tensor<D>, target: Shape, options: BroadcastToDataOptions<NoInferFrom<D>> & { out: ArrayOf<NoInferFrom<D>> }): DataOf<D>;
export declare function broadcastTo<D extends DType>(x: Tensor<D>, target: Shape, options?: BroadcastToDataOptions<NoInferFrom<D>>): Tensor<D>;
export declare function broadcastTo(x: Float16Bits, target: Shape, options: BroadcastToDataOptions<'float16'> & { out: Tensor<'float16'> }): Tensor<'float16'>;
export declare function broadcastTo(x: Float16Bits, target: Shape, options?: BroadcastToDataOptions<'float16'> & { out?: HalfOut<'float16'> | undefined }): DataOf<'float16'>;
export declare function broadcastTo<A extends TypedArray>(x: TensorLike<A>, target: Shape, options: BroadcastToDataOptions<DTypeOf<A>> & { out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
export declare function broadcastTo<A extends TypedArray>(x: TensorLike<A>, target: Shape, options?: BroadcastToDataOptions<DTypeOf<A>> & { out?: ArrayOf<DTypeOf<A>> | undefined }): DataOf<DTypeOf<A>>;

/** `cond` of {@link where}: data of any dtype, or a resident tensor; truthy where `!= 0`. */
export type Condition = TensorLike | OrtTensorLike | Tensor;

/**
 * `a` where `cond != 0`, else `b`, with three-way numpy broadcasting. `a` and
 * `b` share a dtype (the result's); `cond` may have any dtype. Returns a
 * `Tensor` when any of the three (or `out`) is resident.
 */
// A typed-array out gives data over it, whatever the operands (resident ones too): those overloads come first.
export declare function where<X extends OrtTensorLike>(cond: Condition, a: UntypedOrt<X>, b: Tensor | AnyPlainOperand, options: { out: TypedArray }): TensorData;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: Tensor | AnyPlainOperand, b: UntypedOrt<X>, options: { out: TypedArray }): TensorData;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: UntypedOrt<X>, b: Tensor, options?: { out?: TypedArray | Tensor | undefined }): Tensor;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: Tensor, b: UntypedOrt<X>, options?: { out?: TypedArray | Tensor | undefined }): Tensor;
export declare function where<X extends OrtTensorLike>(cond: Tensor, a: UntypedOrt<X>, b: AnyPlainOperand, options?: { out?: TypedArray | Tensor | undefined }): Tensor;
export declare function where<X extends OrtTensorLike>(cond: Tensor, a: AnyPlainOperand, b: UntypedOrt<X>, options?: { out?: TypedArray | Tensor | undefined }): Tensor;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: UntypedOrt<X>, b: AnyPlainOperand, options: { out: Tensor }): Tensor;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: AnyPlainOperand, b: UntypedOrt<X>, options: { out: Tensor }): Tensor;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: UntypedOrt<X>, b: AnyPlainOperand, options?: { out?: TypedArray | undefined }): TensorData;
export declare function where<X extends OrtTensorLike>(cond: Condition, a: AnyPlainOperand, b: UntypedOrt<X>, options?: { out?: TypedArray | undefined }): TensorData;
export declare function where<D extends DType>(cond: Condition, a: Tensor<D>, b: Operand<NoInferFrom<D>>, options: { out: ArrayOf<NoInferFrom<D>> }): DataOf<D>;
export declare function where<D extends DType>(cond: Condition, a: PlainOperand<NoInferFrom<D>>, b: Tensor<D>, options: { out: ArrayOf<NoInferFrom<D>> }): DataOf<D>;
export declare function where<D extends DType>(cond: Condition, a: Tensor<D>, b: Operand<NoInferFrom<D>>, options?: { out?: ArrayOf<NoInferFrom<D>> | Tensor<NoInferFrom<D>> | undefined }): Tensor<D>;
export declare function where<D extends DType>(cond: Condition, a: PlainOperand<NoInferFrom<D>>, b: Tensor<D>, options?: { out?: ArrayOf<NoInferFrom<D>> | Tensor<NoInferFrom<D>> | undefined }): Tensor<D>;
export declare function where(cond: Condition, a: Float16Bits, b: PlainOperand<'float16'>, options: { out: HalfOut<'float16'> }): DataOf<'float16'>;
export declare function where(cond: Condition, a: PlainOperand<'float16'>, b: Float16Bits, options: { out: HalfOut<'float16'> }): DataOf<'float16'>;
export declare function where(cond: Tensor, a: Float16Bits, b: PlainOperand<'float16'>, options?: { out?: HalfOut<'float16'> | Tensor<'float16'> | undefined }): Tensor<'float16'>;
export declare function where(cond: Tensor, a: PlainOperand<'float16'>, b: Float16Bits, options?: { out?: HalfOut<'float16'> | Tensor<'float16'> | undefined }): Tensor<'float16'>;
export declare function where(cond: TensorLike | OrtTensorLike, a: Float16Bits, b: PlainOperand<'float16'>, options: { out: Tensor<'float16'> }): Tensor<'float16'>;
export declare function where(cond: TensorLike | OrtTensorLike, a: PlainOperand<'float16'>, b: Float16Bits, options: { out: Tensor<'float16'> }): Tensor<'float16'>;
export declare function where(cond: TensorLike | OrtTensorLike, a: Float16Bits, b: PlainOperand<'float16'>, options?: { out?: HalfOut<'float16'> | undefined }): DataOf<'float16'>;
export declare function where(cond: TensorLike | OrtTensorLike, a: PlainOperand<'float16'>, b: Float16Bits, options?: { out?: HalfOut<'float16'> | undefined }): DataOf<'float16'>;
export declare function where<A extends TypedArray>(cond: Condition, a: TensorLike<A>, b: PlainOperand<DTypeOf<A>>, options: { out: ArrayOf<DTypeOf<A>> }): DataOf<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: Condition, a: ScalarOf<DTypeOf<A>>, b: TensorLike<A>, options: { out: ArrayOf<DTypeOf<A>> }): DataOf<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: Tensor, a: TensorLike<A>, b: PlainOperand<DTypeOf<A>>, options?: { out?: ArrayOf<DTypeOf<A>> | Tensor<DTypeOf<A>> | undefined }): Tensor<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: Tensor, a: ScalarOf<DTypeOf<A>>, b: TensorLike<A>, options?: { out?: ArrayOf<DTypeOf<A>> | Tensor<DTypeOf<A>> | undefined }): Tensor<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: TensorLike | OrtTensorLike, a: TensorLike<A>, b: PlainOperand<DTypeOf<A>>, options: { out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: TensorLike | OrtTensorLike, a: ScalarOf<DTypeOf<A>>, b: TensorLike<A>, options: { out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: TensorLike | OrtTensorLike, a: TensorLike<A>, b: PlainOperand<DTypeOf<A>>, options?: { out?: ArrayOf<DTypeOf<A>> | undefined }): DataOf<DTypeOf<A>>;
export declare function where<A extends TypedArray>(cond: TensorLike | OrtTensorLike, a: ScalarOf<DTypeOf<A>>, b: TensorLike<A>, options?: { out?: ArrayOf<DTypeOf<A>> | undefined }): DataOf<DTypeOf<A>>;

// ---- the backward direction: reductionAxes, unbroadcast, reductions, broadcastArrays ----

/**
 * The forward call a backward call mirrors: the Broadcast operation's options
 * (as {@link broadcastToShape} takes them: the input broadcast to the output),
 * or `type` (and `axis`) of the element-wise rule whose second operand B is the
 * input and whose result is the output (the gradient of B in `add(a, b, {
 * broadcast: { type: 'pdpd', axis } })`, where B's trailing 1s may hang past
 * A's end). Give one or the other.
 */
export type BackwardOptions =
  | (BroadcastToOptions & { type?: undefined })
  | { type: 'numpy' | 'none' | 'pdpd' | null; axis?: number | null | undefined; mode?: undefined; axesMapping?: undefined };

/**
 * The output axes, ascending, over which a gradient of shape `outShape` (what
 * the forward call of `options` produced from `inShape`) is summed to come
 * back to `inShape`. It refuses exactly what that forward call refuses.
 * Partial shapes: an axis that may or may not be summed is refused
 * (INCOMPATIBLE_DIMS, the axis named).
 * @example reductionAxes([3, 1], [2, 3, 5]) // [0, 2]
 * @example reductionAxes([3, 1], [2, 3], { type: 'pdpd', axis: 1 }) // [0]: B's trailing 1 hangs past A's end
 */
export declare function reductionAxes(inShape: Shape, outShape: Shape, options?: BackwardOptions): number[];

/** Options of {@link unbroadcast}: the forward call (see {@link BackwardOptions}), and the result's dtype. */
export type UnbroadcastOptions<R extends DType = DType> = BackwardOptions & {
  /** Accumulate (and return) in this dtype; default the gradient's. Each element converted as a typed-array store converts it (a float to an integer dtype truncates and wraps, NaN and ±Infinity give 0; `cast` saturates). */
  dtype?: R | undefined;
  /** Write the result here: a typed array of the result's dtype and size, or a resident tensor. */
  out?: HalfOut<NoInferFrom<R>> | Tensor<NoInferFrom<R>> | undefined;
};

/**
 * What {@link unbroadcast} sums back to: the input's shape, or the input
 * operand itself (torch's `grad.sum_to_size(b)`): a Tensor (disposed or not)
 * or `{ data, shape }`, whose shape (and, when named, dims and coords) is used.
 */
export type UnbroadcastInput = Shape | Tensor | TensorLike | OrtTensorLike;

/**
 * `grad` summed over {@link reductionAxes}(inShape, grad.shape, options) and
 * given exactly `inShape` (its 1s kept): the gradient of a broadcast operand.
 * `inShape` may be the operand itself (its shape is used). Same result forms
 * as the other data calls.
 * @example unbroadcast(grad, [1, 64, 1, 1]) // an NCHW gradient summed to a per-channel bias
 * @example unbroadcast(grad, bias) // the same, from the bias tensor
 */
export declare function unbroadcast<X extends OrtTensorLike, R extends DType = DType>(grad: UntypedOrt<X>, inShape: UnbroadcastInput, options: UnbroadcastOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function unbroadcast<X extends OrtTensorLike, R extends DType = DType>(grad: UntypedOrt<X>, inShape: UnbroadcastInput, options?: UnbroadcastOptions<R> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;
export declare function unbroadcast<D extends DType, R extends DType = D>(grad: Tensor<D>, inShape: UnbroadcastInput, options: UnbroadcastOptions<R> & { out: ArrayOf<NoInferFrom<R>> }): DataOf<R>;
export declare function unbroadcast<D extends DType, R extends DType = D>(grad: Tensor<D>, inShape: UnbroadcastInput, options?: UnbroadcastOptions<R>): Tensor<R>;
export declare function unbroadcast<R extends DType = 'float16'>(grad: Float16Bits, inShape: UnbroadcastInput, options: UnbroadcastOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function unbroadcast<R extends DType = 'float16'>(grad: Float16Bits, inShape: UnbroadcastInput, options?: UnbroadcastOptions<R> & { out?: HalfOut<NoInferFrom<R>> | undefined }): DataOf<R>;
export declare function unbroadcast<A extends TypedArray, R extends DType = DTypeOf<A>>(grad: TensorLike<A>, inShape: UnbroadcastInput, options: UnbroadcastOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function unbroadcast<A extends TypedArray, R extends DType = DTypeOf<A>>(grad: TensorLike<A>, inShape: UnbroadcastInput, options?: UnbroadcastOptions<R> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;
/** Options of a named {@link unbroadcast}: dims are matched by name, so there is no mode. */
export interface NamedUnbroadcastOptions<R extends DType = DType> {
  dtype?: R | undefined;
  out?: HalfOut<NoInferFrom<R>> | Tensor<NoInferFrom<R>> | undefined;
}
/**
 * Named (§6): a gradient with dims summed over the dims `input` lacks and
 * given the input's dim order (and its coords: a label the gradient lacks
 * gets 0). The result carries the input's dims and coords.
 * @example unbroadcast({ data, shape: [3, 2], dims: ['c', 'b'] }, { dims: ['b'], shape: [2] })
 */
export declare function unbroadcast<D extends DType, R extends DType = D>(grad: Tensor<D>, input: NamedShapeInput, options: NamedUnbroadcastOptions<R> & { out: ArrayOf<NoInferFrom<R>> }): DataOf<R>;
export declare function unbroadcast<D extends DType, R extends DType = D>(grad: Tensor<D>, input: NamedShapeInput, options?: NamedUnbroadcastOptions<R>): Tensor<R>;
export declare function unbroadcast<R extends DType = 'float16'>(grad: Float16Bits, input: NamedShapeInput, options: NamedUnbroadcastOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function unbroadcast<R extends DType = 'float16'>(grad: Float16Bits, input: NamedShapeInput, options?: NamedUnbroadcastOptions<R> & { out?: HalfOut<NoInferFrom<R>> | undefined }): DataOf<R>;
export declare function unbroadcast<A extends TypedArray, R extends DType = DTypeOf<A>>(grad: TensorLike<A>, input: NamedShapeInput, options: NamedUnbroadcastOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
export declare function unbroadcast<A extends TypedArray, R extends DType = DTypeOf<A>>(grad: TensorLike<A>, input: NamedShapeInput, options?: NamedUnbroadcastOptions<R> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;

/** Options of the reductions. */
export interface ReduceOptions<R extends DType = DType> {
  /** An axis or a list of axes (negative count from the end); default all. Duplicates and out-of-range axes are refused (INVALID_AXIS). Not with `dims`. */
  axes?: number | readonly number[] | null | undefined;
  /**
   * Named operands: the dims to reduce, by name (`{ dims: ['in'] }`, as
   * xarray's `dim=`); not with `axes`. A name the operand lacks is refused
   * (INVALID_AXIS, listing its dims). Either way, a named operand's result
   * keeps the remaining dims and their coords (with `keepdims`, the reduced
   * dims stay with size 1 and no coords; a reduction over every dim gives an
   * unnamed scalar).
   */
  dims?: string | number | readonly (string | number)[] | null | undefined;
  /** Keep the reduced axes as 1s. */
  keepdims?: boolean | undefined;
  /** Accumulate (and return) in this dtype, e.g. int8 data summed as int32. Each element converted as a typed-array store converts it (a float to an integer dtype truncates and wraps, NaN and ±Infinity give 0; `cast` saturates). */
  dtype?: R | undefined;
  /** Write the result here: a typed array of the result's dtype and size, or a resident tensor. */
  out?: HalfOut<NoInferFrom<R>> | Tensor<NoInferFrom<R>> | undefined;
}

/** The dtype a reduction gives without `dtype`: the input's, or float64 for the mean of integers (NumPy). */
export type ReducedDType<D extends DType, Mean extends boolean = false> = Mean extends true ? (D extends FloatDType ? D : 'float64') : D;

/** An axis: a number (negative counts from the end) or, for a named operand, a dim name. */
export type Axis = number | string;

/** Along one axis (softmax, logSoftmax): a resident input gives a Tensor, plain data plain data of its dtype. */
export interface AlongAxis {
  <X extends OrtTensorLike>(x: UntypedOrt<X>, axis: Axis | null | undefined, options: { out: Tensor<FloatDType> }): Tensor<FloatDType>;
  <X extends OrtTensorLike>(x: UntypedOrt<X>, axis?: Axis | null, options?: { out?: ArrayOf<FloatDType> | undefined }): DataOf<FloatDType>;
  <D extends FloatDType>(x: Tensor<D>, axis: Axis | null | undefined, options: { out: ArrayOf<D> }): DataOf<D>;
  <D extends FloatDType>(x: Tensor<D>, axis?: Axis | null, options?: { out?: Tensor<D> | undefined }): Tensor<D>;
  (x: Float16Bits, axis: Axis | null | undefined, options: { out: Tensor<'float16'> }): Tensor<'float16'>;
  (x: Float16Bits, axis?: Axis | null, options?: { out?: HalfOut<'float16'> | undefined }): DataOf<'float16'>;
  <A extends PlainArrayOf<FloatDType>>(x: TensorLike<A>, axis: Axis | null | undefined, options: { out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
  <A extends PlainArrayOf<FloatDType>>(x: TensorLike<A>, axis?: Axis | null, options?: { out?: ArrayOf<DTypeOf<A>> | undefined }): DataOf<DTypeOf<A>>;
}

/**
 * softmax along `axis` (default the last): exp(x - max) * (1 / sum(exp(x - max))),
 * bit for bit those ops called one by one (within 1 ulp of dividing by the
 * sum). Float dtypes (float16 in float32, rounded once).
 */
export declare const softmax: AlongAxis;
/** log(softmax(x)) along `axis`: (x - max) - log(sum(exp(x - max))), stable. */
export declare const logSoftmax: AlongAxis;

/** log(sum(exp(x))) over `axes` (default all), stable: m + log(sum(exp(x - m))), m the max (0 where not finite). */
export declare function logSumExp<X extends OrtTensorLike>(x: UntypedOrt<X>, axes: Axis | readonly Axis[] | null | undefined, options: { keepdims?: boolean | undefined; out: Tensor<FloatDType> }): Tensor<FloatDType>;
export declare function logSumExp<X extends OrtTensorLike>(x: UntypedOrt<X>, axes?: Axis | readonly Axis[] | null, options?: { keepdims?: boolean | undefined; out?: ArrayOf<FloatDType> | undefined }): DataOf<FloatDType>;
export declare function logSumExp<D extends FloatDType>(x: Tensor<D>, axes: Axis | readonly Axis[] | null | undefined, options: { keepdims?: boolean | undefined; out: ArrayOf<D> }): DataOf<D>;
export declare function logSumExp<D extends FloatDType>(x: Tensor<D>, axes?: Axis | readonly Axis[] | null, options?: { keepdims?: boolean | undefined; out?: Tensor<D> | undefined }): Tensor<D>;
export declare function logSumExp(x: Float16Bits, axes: Axis | readonly Axis[] | null | undefined, options: { keepdims?: boolean | undefined; out: Tensor<'float16'> }): Tensor<'float16'>;
export declare function logSumExp<A extends PlainArrayOf<FloatDType>>(x: TensorLike<A>, axes: Axis | readonly Axis[] | null | undefined, options: { keepdims?: boolean | undefined; out: Tensor<DTypeOf<A>> }): Tensor<DTypeOf<A>>;
export declare function logSumExp(x: Float16Bits, axes?: Axis | readonly Axis[] | null, options?: { keepdims?: boolean | undefined; out?: HalfOut<'float16'> | undefined }): DataOf<'float16'>;
export declare function logSumExp<A extends PlainArrayOf<FloatDType>>(x: TensorLike<A>, axes?: Axis | readonly Axis[] | null, options?: { keepdims?: boolean | undefined; out?: ArrayOf<DTypeOf<A>> | undefined }): DataOf<DTypeOf<A>>;

/** argmax / argmin: int32 indices along `axis` (default: into the flattened x), the first of equals, a NaN first (NumPy). */
export interface ArgReduction {
  (x: Tensor, axis: Axis | null | undefined, options: { keepdims?: boolean | undefined; out: Int32Array }): TensorData<Int32Array>;
  (x: Tensor, axis?: Axis | null, options?: { keepdims?: boolean | undefined; out?: Tensor<'int32'> | undefined }): Tensor<'int32'>;
  (x: TensorLike | OrtTensorLike, axis: Axis | null | undefined, options: { keepdims?: boolean | undefined; out: Tensor<'int32'> }): Tensor<'int32'>;
  (x: TensorLike | OrtTensorLike, axis?: Axis | null, options?: { keepdims?: boolean | undefined; out?: Int32Array | undefined }): TensorData<Int32Array>;
}
export declare const argmax: ArgReduction;
export declare const argmin: ArgReduction;

/** Options of topk. */
export interface TopkOptions<V, I> {
  /** The axis to select along (default the last, also for null; a dim name for named operands). */
  axis?: Axis | null | undefined;
  /** false: the k smallest, smallest first. Default true. */
  largest?: boolean | undefined;
  /** Accepted for ONNX/tfjs parity: the result is always sorted (highest rank first). */
  sorted?: boolean | undefined;
  /** Write the values and/or the indices here. */
  out?: { values?: V | undefined; indices?: I | undefined } | undefined;
}
/** The k largest (or smallest) elements along an axis, highest first, ties to the lower index, NaN above +Infinity. */
/** onnxruntime's untyped Tensor: each of values and indices a Tensor when its `out` is one, else plain data. */
export declare function topk<X extends OrtTensorLike, V extends TypedArray | Tensor | undefined = undefined, I extends Int32Array | Tensor<'int32'> | undefined = undefined>(x: UntypedOrt<X>, k: number, options?: Omit<TopkOptions<never, never>, 'out'> & { out?: { values?: V | undefined; indices?: I | undefined } | undefined }): { values: [V] extends [Tensor] ? Tensor : TensorData; indices: [I] extends [Tensor] ? Tensor<'int32'> : TensorData<Int32Array> };
// A resident x with both outs typed arrays: data over them (each out given alone keeps the other a Tensor).
export declare function topk<D extends DType>(x: Tensor<D>, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values: ArrayOf<NoInferFrom<D>>; indices: Int32Array } }): { values: DataOf<D>; indices: TensorData<Int32Array> };
/** A resident input with one typed-array `out`: that one plain data, the other a Tensor. */
export declare function topk<D extends DType>(x: Tensor<D>, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values: ArrayOf<NoInferFrom<D>>; indices?: Tensor<'int32'> | undefined } }): { values: DataOf<D>; indices: Tensor<'int32'> };
export declare function topk<D extends DType>(x: Tensor<D>, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values?: Tensor<NoInferFrom<D>> | undefined; indices: Int32Array } }): { values: Tensor<D>; indices: TensorData<Int32Array> };
export declare function topk<D extends DType>(x: Tensor<D>, k: number, options?: TopkOptions<Tensor<D>, Tensor<'int32'>>): { values: Tensor<D>; indices: Tensor<'int32'> };
/** float16 bits with a resident `out`: that one a Tensor, the other plain data. */
export declare function topk(x: Float16Bits, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values: Tensor<'float16'>; indices: Tensor<'int32'> } }): { values: Tensor<'float16'>; indices: Tensor<'int32'> };
export declare function topk(x: Float16Bits, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values: Tensor<'float16'>; indices?: Int32Array | undefined } }): { values: Tensor<'float16'>; indices: TensorData<Int32Array> };
export declare function topk(x: Float16Bits, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values?: HalfOut<'float16'> | undefined; indices: Tensor<'int32'> } }): { values: DataOf<'float16'>; indices: Tensor<'int32'> };
export declare function topk(x: Float16Bits, k: number, options?: TopkOptions<HalfOut<'float16'>, Int32Array>): { values: DataOf<'float16'>; indices: TensorData<Int32Array> };
/** Plain data with a resident `out`: that one a Tensor, the other plain data. */
export declare function topk<A extends TypedArray>(x: TensorLike<A>, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values: Tensor<DTypeOf<A>>; indices: Tensor<'int32'> } }): { values: Tensor<DTypeOf<A>>; indices: Tensor<'int32'> };
export declare function topk<A extends TypedArray>(x: TensorLike<A>, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values: Tensor<DTypeOf<A>>; indices?: Int32Array | undefined } }): { values: Tensor<DTypeOf<A>>; indices: TensorData<Int32Array> };
export declare function topk<A extends TypedArray>(x: TensorLike<A>, k: number, options: Omit<TopkOptions<never, never>, 'out'> & { out: { values?: ArrayOf<DTypeOf<A>> | undefined; indices: Tensor<'int32'> } }): { values: DataOf<DTypeOf<A>>; indices: Tensor<'int32'> };
export declare function topk<A extends TypedArray>(x: TensorLike<A>, k: number, options?: TopkOptions<ArrayOf<DTypeOf<A>>, Int32Array>): { values: DataOf<DTypeOf<A>>; indices: TensorData<Int32Array> };

/** A reduction over axes: a resident input gives a Tensor, plain data gives plain data; a typed-array `out`, plain data over it. */
export interface Reduction<Mean extends boolean = false> {
  <X extends OrtTensorLike, R extends DType = DType>(x: UntypedOrt<X>, options: ReduceOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
  <X extends OrtTensorLike, R extends DType = DType>(x: UntypedOrt<X>, options?: ReduceOptions<R> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;
  <D extends DType, R extends DType = ReducedDType<D, Mean>>(x: Tensor<D>, options: ReduceOptions<R> & { out: ArrayOf<NoInferFrom<R>> }): DataOf<R>;
  <D extends DType, R extends DType = ReducedDType<D, Mean>>(x: Tensor<D>, options?: ReduceOptions<R>): Tensor<R>;
  <R extends DType = 'float16'>(x: Float16Bits, options: ReduceOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
  <R extends DType = 'float16'>(x: Float16Bits, options?: ReduceOptions<R> & { out?: HalfOut<NoInferFrom<R>> | undefined }): DataOf<R>;
  <A extends TypedArray, R extends DType = ReducedDType<DTypeOf<A>, Mean>>(x: TensorLike<A>, options: ReduceOptions<R> & { out: Tensor<NoInferFrom<R>> }): Tensor<R>;
  <A extends TypedArray, R extends DType = ReducedDType<DTypeOf<A>, Mean>>(x: TensorLike<A>, options?: ReduceOptions<R> & { out?: ArrayOf<NoInferFrom<R>> | undefined }): DataOf<R>;
}

/** Sum over `axes` (default all); integers wrap in their dtype (uint8clamped saturates at 255) unless `dtype` says otherwise; floats are summed pairwise. Zero elements sum to 0. */
export declare const sum: Reduction;
/** Product over `axes` (integers wrap; uint8clamped saturates at 255). Zero elements give 1. */
export declare const prod: Reduction;
/** Minimum over `axes` (NaN propagates; over zero elements: a BroadcastError). */
export declare const min: Reduction;
/** Maximum over `axes` (NaN propagates; over zero elements: a BroadcastError). */
export declare const max: Reduction;
/** Mean over `axes`; of integers it is float64 (NumPy). */
export declare const mean: Reduction<true>;

/** What {@link broadcastArrays} gives for each operand: a Tensor for a resident one, else plain data. */
export type Broadcasted<T> = T extends Tensor<infer D> ? Tensor<D> : T extends Float16Bits ? DataOf<'float16'> : T extends OrtTensorLike ? DataOf<OrtIn<T, DType>> : T extends { data: infer A extends TypedArray } ? DataOf<DTypeOf<A>> : never;

/** Every operand materialised to the common NumPy shape (numpy.broadcast_arrays), in the order given; by position, so a named operand is a TypeError. */
export declare function broadcastArrays<T extends readonly (TensorLike | OrtTensorLike | Tensor)[]>(...xs: T): { -readonly [K in keyof T]: Broadcasted<T[K]> };

/** The element-wise kernels of this build: one per dtype × op × form, the SIMD128 kernel where there is one, else the scalar reference. */
export declare function kernels(): { index: number; name: string; dtype: DType; op: string; form: 'vv' | 'vs' | 'sv'; simd: boolean }[];

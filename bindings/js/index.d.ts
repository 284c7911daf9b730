// tensorcast — every tensor-broadcasting rule, one engine in WebAssembly.
// Rules are specified in the project's broadcast-rules contract; section numbers (§) refer to it.

/**
 * A dimension: a non-negative safe integer; or, for partial shapes (§7), `'?'`
 * (unknown) or an interval `'lo..hi'` (`'2..5'`, `'6..'` unbounded, `'..4'` = 0..4).
 * In a {@link broadcastToShape} target with mode `'numpy'`, `-1` keeps the input's dim (§5).
 */
export type Dim = number | string;

/** A shape: a list of dims (`[]` is a scalar), or `'[...]'` for a shape of unknown rank (§7). */
export type Shape = readonly Dim[] | '[...]';

/** A shape of plain numbers, as returned for static inputs. */
export type StaticShape = number[];

/** A shape the rules return: a fresh array (or `'[...]'`); `number[]` when every input is static. */
export type ShapeResult = Dim[] | '[...]';

/** The marker of an unknown-rank shape: `'[...]'`. */
export declare const UNKNOWN_RANK: '[...]';
/** The largest rank a shape may have: 32. */
export declare const MAX_RANK: 32;

// The platform's WebAssembly.Module and URL types where the project's lib has
// them (dom, or @types/node); `object` / nothing where it has neither.
type WasmModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : object;
type URLType = typeof globalThis extends { URL: abstract new (...args: never[]) => infer U } ? U : never;

export interface InitOptions {
  /**
   * Where to fetch `tensorcast.wasm` from, when a bundler did not emit it beside
   * the JavaScript (browsers/bundlers; in Node, a file path or file: URL).
   */
  wasmUrl?: string | URLType | undefined;
  /** The module's bytes, already loaded. */
  wasmBinary?: ArrayBuffer | ArrayBufferView | undefined;
  /** A compiled module, e.g. one posted to a worker. */
  module?: WasmModule | undefined;
}

export interface InitSyncOptions {
  /** The bytes of `tensorcast.wasm`. */
  wasmBinary?: ArrayBuffer | ArrayBufferView | undefined;
  /** A compiled module. */
  module?: WasmModule | undefined;
}

/**
 * Load the engine. Idempotent: every call returns the same promise. In Node the
 * `.wasm` is read from the package; in browsers it is fetched beside the JS
 * (or from `wasmUrl`); `tensorcast/inline` uses the bytes it carries.
 * Options of the wrong type throw a `TypeError` (also once loaded); a load that
 * fails rejects with an Error naming the URL, the status and the fix, and
 * init() may then be called again.
 */
export declare function init(options?: InitOptions): Promise<void>;

/**
 * Load the engine synchronously (build tools, CLIs, CommonJS, tests): no
 * `await` before the first call. In Node (ESM or `require`) and with
 * `tensorcast/inline`, the options may be left out; in browsers with the
 * default entry, pass `{ wasmBinary }` or `{ module }`. Idempotent.
 */
export declare function initSync(options?: InitSyncOptions): void;

/** True once the engine is loaded. */
export declare function isReady(): boolean;

/** The contract the engine declares (its dtypes, ops, rules and limits), as plain JSON. */
export declare function contract(): {
  version: string;
  /** 'full' (this entry), or 'shapes' (tensorcast/shapes: no dtypes, ops or reductions, their lists empty). */
  build: 'full' | 'shapes';
  statuses: string[];
  dtypes: { name: DType; short: string; array: string; kind: string; size: number }[];
  ops: { name: string; kernel: string; result: 'bool' | 'same'; domain: 'any' | 'integer' | 'float'; simd: string[] }[];
  /** The unary ops (neg … isFinite), the same fields; cast is not among them. */
  unaryOps: { name: string; kernel: string; result: 'bool' | 'same'; domain: 'any' | 'integer' | 'float'; simd: string[] }[];
  verdicts: string[];
  inner: string[];
  rules: { family: string; name: string; [key: string]: unknown }[];
  shapings: string[];
  limits: { [name: string]: number };
};

/** Stable error codes of {@link BroadcastError} (§8). */
export declare const ErrorCode: {
  readonly INVALID_SHAPE: 'INVALID_SHAPE';
  readonly INCOMPATIBLE_DIMS: 'INCOMPATIBLE_DIMS';
  readonly SHAPE_MISMATCH: 'SHAPE_MISMATCH';
  readonly RANK_MISMATCH: 'RANK_MISMATCH';
  readonly INVALID_AXIS: 'INVALID_AXIS';
  readonly INVALID_AXES_MAPPING: 'INVALID_AXES_MAPPING';
  readonly MINUS_ONE_IN_NEW_AXIS: 'MINUS_ONE_IN_NEW_AXIS';
  readonly DTYPE_MISMATCH: 'DTYPE_MISMATCH';
  readonly LENGTH_MISMATCH: 'LENGTH_MISMATCH';
  readonly TOO_LARGE: 'TOO_LARGE';
};
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Every rejection of a rule. The message reads like NumPy's and names the axis
 * and both dims: `operands could not be broadcast together with shapes (3,) (4,): axis 0 has 3 vs 4`.
 * Wrong argument *types* throw `TypeError` instead.
 */
export declare class BroadcastError extends Error {
  readonly name: 'BroadcastError';
  /** Stable code, see {@link ErrorCode}. */
  readonly code: ErrorCode;
  /** The shapes the call was given. */
  readonly shapes: unknown[];
  /** The output axis where the rule failed (or the offending dim's index for INVALID_SHAPE), else null. */
  readonly axis: number | null;
  /** The two dims that clashed (or the offending value), else null. */
  readonly dims: Dim[] | null;
  /** Indices of the two operands involved (-1 = the target), else null. */
  readonly operands: number[] | null;
  /** Every output axis that clashes, ascending (`axis` is one of them: the highest for §1–§5, the lowest for named dims, §6), else null. */
  readonly clashes: number[] | null;
  constructor(message: string, info: { code: ErrorCode; shapes?: unknown[] | undefined; axis?: number | null | undefined; dims?: Dim[] | null | undefined; operands?: number[] | null | undefined; clashes?: number[] | null | undefined });
  toJSON(): { name: string; code: ErrorCode; message: string; shapes: unknown[]; axis: number | null; dims: Dim[] | null; operands: number[] | null; clashes: number[] | null };
}

/**
 * A shape in the messages' notation, NumPy's tuple: `()`, `(3,)`, `(2,?,2..5)`; `[...]` for unknown rank.
 * A string dim is printed as given (`'..'` as `..`, `' 2 .. 5'` as ` 2 .. 5`); a message prints the
 * dims as the call read them (`?`, `2..5`).
 */
export declare function formatShape(shape: Shape): string;
/** A dim in the messages' notation: `3`, `?`, `2..5`, `6..`, `..4`, `-1`; a string dim as given (not normalised). */
export declare function formatDim(d: Dim): string;

/**
 * §1 NumPy / ONNX multidirectional broadcasting of any number of shapes.
 * @example broadcastShapes([2, 1, 6], [3, 1]) // [2, 3, 6]
 * @example broadcastShapes() // []
 * @throws {BroadcastError} INCOMPATIBLE_DIMS, INVALID_SHAPE; TOO_LARGE for more than 65536 shapes
 */
export declare function broadcastShapes(...shapes: (readonly number[])[]): number[];
export declare function broadcastShapes(...shapes: Shape[]): ShapeResult;

export interface AutoBroadcastOptions {
  /** 'numpy' (default, §1; also null), 'none' (§2: identical shapes only) or 'pdpd' (§3). */
  type?: 'numpy' | 'none' | 'pdpd' | null | undefined;
  /** pdpd only: where B starts in A; -1 (default; also null) = rank(A) - rank(B). */
  axis?: number | null | undefined;
}

/**
 * Element-wise auto-broadcast of two shapes, as OpenVINO's AutoBroadcastSpec.
 * @example autoBroadcastShape([2, 3, 4, 5], [3, 1], { type: 'pdpd', axis: 1 }) // [2, 3, 4, 5]
 * @throws {BroadcastError} INCOMPATIBLE_DIMS, SHAPE_MISMATCH, RANK_MISMATCH, INVALID_AXIS, INVALID_SHAPE
 */
export declare function autoBroadcastShape(a: readonly number[], b: readonly number[], options?: AutoBroadcastOptions): number[];
export declare function autoBroadcastShape(a: Shape, b: Shape, options?: AutoBroadcastOptions): ShapeResult;

export interface BroadcastToOptions {
  /**
   * 'numpy' (default; np.broadcast_to, with -1 keeping the input's dim as MindSpore
   * broadcast_to / torch expand), 'explicit' (needs `axesMapping`), 'bidirectional'
   * (ONNX Expand) or 'pdpd' (with `axis`).
   */
  mode?: 'numpy' | 'explicit' | 'bidirectional' | 'pdpd' | null | undefined;
  /** explicit: the output axis of each input axis, strictly increasing. */
  axesMapping?: readonly number[] | undefined;
  /** pdpd: where the input starts in the target; -1 (default; also null) = rank(target) - rank(input). */
  axis?: number | null | undefined;
}

/**
 * The Broadcast operation (§4, §5): the shape of `input` broadcast to `target`.
 * @example broadcastToShape([16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] }) // [1, 16, 50, 50]
 * @example broadcastToShape([3, 1, 5, 1], [-1, -1, 5, 6]) // [3, 1, 5, 6]
 * @throws {BroadcastError} INCOMPATIBLE_DIMS, RANK_MISMATCH, MINUS_ONE_IN_NEW_AXIS, INVALID_AXES_MAPPING, INVALID_AXIS, INVALID_SHAPE
 */
export declare function broadcastToShape(input: readonly number[], target: readonly number[], options?: BroadcastToOptions): number[];
export declare function broadcastToShape(input: Shape, target: Shape, options?: BroadcastToOptions): ShapeResult;

/** A coordinate label of a named dim. */
export type Label = string | number | boolean;

/** An operand with named dims: sizes from `shape`, or from `coords` (labels per dim). */
export interface NamedShapeInput {
  dims: readonly (string | number)[];
  shape?: readonly number[] | undefined;
  coords?: { readonly [dim: string]: readonly Label[] } | undefined;
}

export interface NamedShapeResult {
  dims: (string | number)[];
  shape: number[];
  /** Output coordinates of the labeled dims. */
  coords?: { [dim: string]: Label[] };
}

export interface NamedBroadcastOptions {
  /**
   * How shared dims are reconciled: 'intersection' (default: labels both have,
   * in the left's order), 'exact' (labels/sizes must be equal) or 'union'.
   * Without labels a shared dim must have the same size on both sides.
   */
  shaping?: 'exact' | 'intersection' | 'union' | null | undefined;
}

/**
 * §6 named-dimension broadcasting: dims are matched by name, never by
 * position; a dim one side lacks is inserted, a shared dim is never stretched.
 * @example namedBroadcastShape({ dims: ['x'], shape: [2] }, { dims: ['y'], shape: [2] }) // { dims: ['x', 'y'], shape: [2, 2] }
 */
export declare function namedBroadcastShape(a: NamedShapeInput, b: NamedShapeInput, options?: NamedBroadcastOptions): NamedShapeResult;

export type Verdict = 'equal' | 'stretched' | 'new' | 'clash';

export interface OperandPlan {
  /** 'A', 'B', … ('input' for broadcastTo). */
  name: string;
  shape: Shape;
  /** Per output axis: the operand axis that feeds it, or null for a new axis. */
  srcAxis: (number | null)[];
  /** The operand's dims aligned to the output rank (1 on new axes). */
  aligned: Dim[];
  /**
   * Element strides per output axis, 0 where stretched or new; null for partial
   * shapes. An entry is null when the stride is past 2^53 (see stridesText).
   */
  strides: (number | null)[] | null;
  /** Every stride as exact decimal text, when one of them is past 2^53 (its `strides` entry is then null). */
  stridesText?: string[];
  verdicts: Verdict[];
  /**
   * The operand's own axes its rule drops before aligning, as the engine's
   * plan records them: PDPD's trailing 1s of B (§3). A dropped 1 that still
   * lands inside the output is also mapped in srcAxis (and stretched).
   */
  dropped: number[];
  /** Named rule: the operand's dim names. */
  dims?: (string | number)[];
}

export interface ExplainRequest {
  /** 'numpy' (default), 'none', 'pdpd', 'broadcastTo' or 'named'. */
  rule?: 'numpy' | 'none' | 'pdpd' | 'broadcastTo' | 'named' | null | undefined;
  /** numpy: any number of shapes; none/pdpd: [A, B]; broadcastTo: [input, target]. */
  shapes?: Shape[] | undefined;
  /** pdpd / broadcastTo mode pdpd. */
  axis?: number | null | undefined;
  /** broadcastTo. */
  mode?: BroadcastToOptions['mode'] | undefined;
  axesMapping?: readonly number[] | undefined;
  /** named: [left, right]. */
  operands?: [NamedShapeInput, NamedShapeInput] | undefined;
  shaping?: NamedBroadcastOptions['shaping'] | undefined;
  /**
   * Operands read as views: per shape, null (row-major) or its element
   * strides, one per dim (broadcastTo: the input's strides alone). The plan's
   * strides and loop are then the ones a call over those views runs. Strides
   * are refused as a call refuses a view's: not an array, a TypeError; an entry
   * that is no safe integer, or not one per dim, INVALID_SHAPE.
   */
  strides?: readonly (readonly number[] | null)[] | readonly number[] | undefined;
}

export interface Explanation {
  ok: boolean;
  rule: string | null;
  mode?: string;
  /** The output shape (best effort when ok is false), null when the request was malformed. */
  shape: Shape | null;
  rank: number | null;
  static: boolean;
  /** Output element count of a static plan, when it is a safe integer (else null). */
  size: number | null;
  /** The exact element count as decimal text, when it is past 2^53 (`size` is then null). */
  sizeText?: string;
  operands: OperandPlan[];
  /** Per output axis: index, negative index, dim and the operands' verdicts. */
  axes: { index: number; negative: number; dim: Dim; verdicts: Verdict[] }[];
  /**
   * The merged loop kernels run: adjacent axes that broadcast alike folded
   * together. An extent or stride past 2^53 is null, and the exact values of
   * all of them come beside as decimal text (shapeText, stridesText per operand).
   */
  loop: {
    shape: (number | null)[];
    /** Every extent as decimal text, when one is past 2^53. */
    shapeText?: string[];
    strides: (number | null)[][];
    /** Every operand's strides as decimal text, when one is past 2^53. */
    stridesText?: string[][];
    inner: 'contiguous' | 'second-scalar' | 'first-scalar' | 'both-scalar' | 'strided';
  } | null;
  error: ReturnType<BroadcastError['toJSON']> | {
    name: string; code: null; message: string; shapes: never[]; axis: null; dims: null;
    /** A SyntaxError of an expression: where, in the text. */ offset?: number; length?: number;
  } | null;
  /** named rule */
  named?: NamedShapeResult;
  /**
   * named rule, when ok: per result dim, its name and size, its axis in the
   * left and the right operand (-1: that operand lacks the dim), and for a
   * labelled dim its labels with, per label, its index in each operand's
   * coordinates (-1: that operand lacks the label).
   */
  namedAxes?: { name: string | number; size: number; left: number; right: number; labeled: boolean; labels?: Label[]; leftIndex?: number[]; rightIndex?: number[] }[];
  shaping?: string;
  dimNames?: (string | number)[] | null;
  needsGather?: boolean;
}

/**
 * The plan of a rule as plain JSON. Never throws: failures (including wrong
 * argument types) come back as `{ ok: false, error }`, with the clashing axis
 * marked 'clash' in the operands' verdicts.
 * @example explain({ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 })
 */
export declare function explain(request: ExplainRequest): Explanation;

// ---- Fused expressions ---------------------------------------------------------------

/** An operand of an expression: a plain operand, an onnxruntime Tensor, a resident tensor (named or not), a number or a bigint. */
export type ExpressionOperand = TensorLike | OrtTensorLike | Tensor | number | bigint;

/** The operands of an expression by name (own properties only: `constructor` or `__proto__` are plain names). */
export type ExpressionOperands = { readonly [name: string]: ExpressionOperand };

/** A rule for every op node of an expression (where() is planned with numpy whatever it is). */
export interface ExpressionBroadcast {
  type?: 'numpy' | 'none' | 'pdpd' | null | undefined;
  /** pdpd: where the second operand's axes start in the first (-1: aligned at the end). */
  axis?: number | null | undefined;
}

export interface EvaluateOptions {
  /** Where the result goes: a typed array of the result's dtype and size, or a resident tensor of its dtype (in place where no operand is read broadcast or reordered). */
  out?: TypedArray | Tensor | undefined;
  /** The rule of every op node, for positional operands (default numpy). */
  broadcast?: ExpressionBroadcast | undefined;
  /** Named operands: how dims present in some operands only combine (default 'exact'). */
  shaping?: NamedBroadcastOptions['shaping'] | undefined;
  /** A reduction wrapping the expression keeps its reduced axes as 1. */
  keepdims?: boolean | undefined;
}

/** The dtype of one operand of an expression (never for a scalar). */
export type OperandDType<V> =
  V extends Tensor<infer D> ? D
  : V extends { readonly type: infer T extends string; readonly dims: readonly number[]; readonly shape?: undefined } ? (string extends T ? OrtDataDType<V> : OrtDType<T>)
  : V extends { readonly data: TypedArray; readonly dtype: 'float16' } ? 'float16'
  : V extends { readonly data: infer A extends TypedArray } ? DTypeOf<A>
  : never;

// An ort-like operand whose `type` is a `string`: the dtype of its data (a Uint16Array: uint16 or float16 bits).
type OrtDataDType<V> = V extends { readonly data: infer A extends TypedArray } ? (DTypeOf<A> extends 'uint16' ? 'uint16' | 'float16' : DTypeOf<A>) : never;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** U when it is one dtype, else every dtype. */
type IsOne<U> = [U] extends [UnionToIntersection<U>] ? true : false;
type OneDType<U extends DType> = [U] extends [never] ? DType : IsOne<U> extends true ? U : DType;
type Has<E extends string, T extends string> = E extends `${string}${T}${string}` ? true : false;
type Quoted<E extends string> = E extends `${string}'${infer Q}'${infer R}` ? Q | Quoted<R> : E extends `${string}"${infer Q}"${infer R}` ? Q | Quoted<R> : never;
// What makes an expression's dtype differ from its operands': comparisons and logical ops (uint8), cast, mean.
type BoolToken = '<' | '>' | '=' | '!' | '&&' | '||' | 'equal(' | 'Equal(' | 'less(' | 'lessEqual(' | 'greater(' | 'greaterEqual(' | 'logicalAnd(' | 'logicalOr(' | 'logicalXor(' | 'logicalNot(' | 'isNaN(' | 'isFinite(';
type BoolName = 'qual' | 'less' | 'greater' | 'logical' | 'isNaN' | 'isFinite';

/**
 * The result dtype of expression `E` over operands of dtypes `D`, as far as the
 * text tells: the operands' one dtype for arithmetic, bitwise and
 * dtype-keeping calls; uint8 for a comparison or logical op (outside where()
 * and `?:`); cast's target; mean's (float64 for integers). Any dtype where the
 * text does not settle it (a non-literal string, operands of several dtypes, a comparison beside a mean,
 * where() over a comparison, an operand named like an op, a program of
 * statements).
 */
export type ExpressionDType<E extends string, D extends DType> =
  string extends E ? DType
  : Has<E, 'argmax(' | 'argmin('> extends true ? 'int32'
  : Has<E, ';'> extends true ? DType
  : Has<E, 'cast'> extends true ? (Has<E, BoolName | BoolToken | 'mean' | 'where' | '?'> extends true ? DType : OneDType<Extract<Quoted<E>, DType>>)
  : Has<E, BoolName | BoolToken> extends true ? (
    Has<E, 'where' | '?'> extends true ? DType
    : Has<E, BoolToken> extends false ? DType
    : Has<E, 'mean'> extends true ? DType // mean of a comparison (float64) or a comparison of a mean (uint8): the text alone does not say
    : 'uint8')
  : Has<E, 'mean'> extends true ? (Has<E, 'mean('> extends true ? MeanDType<OneDType<D>> : DType)
  : OneDType<D>;
type MeanDType<D extends DType> = DType extends D ? DType : D extends FloatDType ? D : 'float64';

/** The dtype of `evaluate(E, O)`'s result. */
export type EvaluateDType<O extends ExpressionOperands, E extends string = string> = ExpressionDType<E, OperandDType<O[keyof O]>>;

/**
 * `{ data, shape, dtype }` for plain operands (ort tensors too), a `Tensor` when
 * an operand the expression reads, or `out`, is resident (a typed-array `out`
 * gives data over it, whatever the operands); of the dtype the expression gives where its
 * text and operands tell it (see ExpressionDType): `evaluate('(x - m) / s', { x, m, s })`
 * over Float32Array operands has `data: Float32Array`.
 *
 * An operand the text does not read changes nothing: `evaluate('a + 1', { a, b })`
 * with `b` resident gives plain data. A literal text is searched for each
 * resident operand's name standing as an operand (not inside a longer name or
 * a string, not a call `b(…)`, not a statement's name `b = …`). Where the
 * types cannot tell (a `string` text, an operand typed as maybe resident) and
 * some operand is plain, the result is either: `Tensor | { data, shape, dtype }`.
 * With no plain tensor operand, whichever the run reads is resident: a `Tensor`.
 */
export type EvaluateResult<O extends ExpressionOperands, E extends string = string> =
  [Extract<O[keyof O], Tensor>] extends [never] ? DataOf<EvaluateDType<O, E>>
  : [Exclude<O[keyof O], Tensor | number | bigint>] extends [never] ? Tensor<EvaluateDType<O, E>> // a run reads a tensor operand: a resident one
  : ResidentRead<O, E> extends infer R ? ('yes' extends R ? Tensor<EvaluateDType<O, E>> : [R] extends [never] ? DataOf<EvaluateDType<O, E>> : Tensor<EvaluateDType<O, E>> | DataOf<EvaluateDType<O, E>>) : never;

// Whether the run reads a resident operand: per operand that may be one,
// 'yes' (resident, and read), 'maybe' (the text or the operand's type does not say), or never.
type ResidentRead<O extends ExpressionOperands, E extends string> = {
  [K in keyof O & string]: [Extract<O[K], Tensor>] extends [never] ? never
    : (string extends E ? 'maybe' : string extends K ? 'maybe' : Reads<E, K> extends true ? ([O[K]] extends [Tensor] ? 'yes' : 'maybe') : never);
}[keyof O & string];
// The lexer's whitespace, and what ends a name (whitespace and the punctuators; strings are removed first).
type Blank = ' ' | '\t' | '\r' | '\n';
type NameEnd = Blank | '(' | ')' | '[' | ']' | ',' | '+' | '-' | '*' | '/' | '%' | '<' | '>' | '=' | '!' | '&' | '|' | '^' | '~' | '?' | ':' | ';' | '.';
type TrimStart<S extends string> = S extends `${Blank}${infer R}` ? TrimStart<R> : S;
/** The text with its strings ('int32', "in": dtype and dim names, never operands) blanked. */
type Unquoted<E extends string> =
  E extends `${infer A}'${string}'${infer R}` ? (A extends `${string}"${string}` ? UnquotedDouble<E> : `${A} ${Unquoted<R>}`) : UnquotedDouble<E>;
type UnquotedDouble<E extends string> = E extends `${infer A}"${string}"${infer R}` ? `${A} ${Unquoted<R>}` : E;
/**
 * How text `T` uses name `K`, per place it stands as a whole name: 'read' (an
 * operand), 'set' (a statement's name, `K = …`), nothing for a call (`K(…)`).
 * `_` stands for the end of the previous match (a name character), so that
 * the next match must start after a name end.
 */
type NameUses<T extends string, K extends string, U = never> =
  T extends `${infer A}${K}${infer R}`
    ? NameUses<`_${R}`, K, U | (A extends '' | `${string}${NameEnd}` ? (R extends '' | `${NameEnd}${string}` ? Use<TrimStart<R>> : never) : never)>
    : U;
type Use<R extends string> = R extends `(${string}` ? never : R extends `==${string}` ? 'read' : R extends `=${string}` ? 'set' : 'read';
/** Whether the run reads operand `K`: its name stands as an operand, and no statement names a value so (which every later use then reads instead). */
type Reads<E extends string, K extends string> = NameUses<Unquoted<E>, K> extends infer U ? ('set' extends U ? false : 'read' extends U ? true : false) : never;

/**
 * The typed-array `out` a result of dtype `D` takes: `D`'s typed array (a
 * float16 result: also a Uint16Array for its bits). Any typed array when the
 * dtype is not told, or when `A`, the `out` given, is any typed array (an
 * EvaluateOptions variable: it does not say which; the run checks it).
 */
type OutOf<A, D extends DType> =
  DType extends D ? unknown : TypedArray extends A ? unknown
  : [Exclude<A, Tensor | undefined>] extends [ArrayOf<D> | ('float16' extends D ? Uint16Array : never)] ? unknown
  : { readonly 'out must be the typed array of the result dtype': ArrayOf<D> };

/**
 * The resident `out` a result of dtype `D` takes: a Tensor of `D`
 * (DTYPE_MISMATCH at run time otherwise). Any Tensor when the dtype is not
 * told, or when `A`, the `out` given, does not tell its own (a Tensor<DType>).
 */
type TensorOutOf<A, D extends DType> =
  DType extends D ? unknown
  : Extract<A, Tensor> extends infer T ? ([T] extends [never] ? unknown : Tensor extends T ? unknown
    : [Extract<T extends Tensor<infer O> ? O : never, D>] extends [never] ? { readonly 'out must be a tensor of the result dtype': Tensor<D> } : unknown)
  : never;

/** explain()'s shapes of an expression's operands: a shape, a named shape, or a number / bigint for a scalar operand. */
export type ExpressionShapes = { readonly [name: string]: readonly number[] | NamedShapeInput | number | bigint };

export interface ExpressionExplainOptions {
  /** Each tensor operand's dtype (default 'float32'). */
  dtypes?: { readonly [name: string]: DType } | undefined;
  broadcast?: ExpressionBroadcast | undefined;
  shaping?: NamedBroadcastOptions['shaping'] | undefined;
  keepdims?: boolean | undefined;
}

export interface ExpressionExplainRequest extends ExpressionExplainOptions {
  /** The expression text (JavaScript syntax over operand names, numbers and the library's op names). */
  expression: string;
  shapes: ExpressionShapes;
}

/** One instruction of an expression's program: register `register` holds its value. */
export interface ExpressionInstruction {
  register: number;
  /** 'load', 'constant', 'cast', 'where' or the op's name ('add', 'sqrt', ...). */
  op: string;
  /** The dtype of the register. */
  dtype: DType;
  /** Where the node starts in the expression text (UTF-16 offset). */
  pos: number;
  /** load: the operand's name and slot. */
  operand?: string;
  slot?: number;
  /** constant: its value. */
  value?: number;
  /** The registers it reads. */
  args?: number[];
  /** An op's operand dtype (a comparison's inputs are not its uint8 result). */
  inputDtype?: DType;
  /** where: the condition's dtype. */
  condDtype?: DType;
  /** cast: the dtype it converts from. */
  from?: DType;
  /** The line as text: `r2 = sub(r0, r1) (float32)`. */
  text: string;
}

/** An operand of an expression aligned to the element-wise result. */
export interface ExpressionOperandPlan {
  name: string;
  shape: number[];
  dims?: (string | number)[];
  /** Per result axis: the operand's axis read there, or null where the operand has none. */
  srcAxis: (number | null)[];
  /** Per result axis: the operand's extent there (1 where it has no axis). */
  aligned: number[];
  /** Per result axis: 'equal', 'stretched' (a 1 read again) or 'new' (an axis the operand lacks). */
  verdicts: ('equal' | 'stretched' | 'new')[];
  /** Per result axis, in elements (0 where broadcast). */
  strides: number[];
}

/** The plan of an expression: every operand aligned to the output, the program and the merged loop. */
export interface ExpressionPlan {
  ok: true;
  expression: string;
  inputs: string[];
  /** The element-wise result's shape (before a reduction). */
  broadcastShape: number[];
  /** The result's shape (after a reduction). */
  shape: number[];
  dtype: DType;
  /** The result's dims, for named operands (none for a rank-0 result, as evaluate gives it). */
  dims?: (string | number)[];
  operands: ExpressionOperandPlan[];
  program: ExpressionInstruction[];
  /** The loop that runs: adjacent axes that broadcast alike merged; strides[0] is the result's, then one per operand slot. */
  loop: { shape: number[]; strides: number[][] };
  /** A generated wasm module, or the block interpreter over the library's kernels. */
  execution: 'generated' | 'interpreter';
  /** The reduction around the expression (argmax / argmin: a program's terminal pass, over the pass before it). */
  reduce: { op: 'sum' | 'prod' | 'min' | 'max' | 'mean' | 'argmax' | 'argmin'; axes: number[]; chunkAxes: number } | null;
  /**
   * sum(a * b) over shared axes run as a contraction kernel (matrix-multiply
   * tiles), bit for bit the op-by-op sum: out[m, n] = Σ_k a(m, k) · b(k, n),
   * with k in the op-by-op sum's order ('col': leaves of 16 k, float64 8, and their tree;
   * 'row': 16 accumulators in blocks, the reduced axes being the last), and b
   * packed in panels of `panel.rows` × `panel.columns`. A float32 bilinear
   * form, sum((a * b) * c) over the last axes with a one value along the
   * last of them and b and c contiguous (x {b, i} * w {i, j} * y {b, j} over
   * i and j, k a multiple of 16), runs as product rows: `c` the third factor,
   * n 1, panel null, each of the m results the op-by-op row sum of its k
   * terms, none stored. float16 runs in float32 with its ops' bits: each
   * product rounded to float16, k in the float16 sum's parts of 8192 terms
   * (a column: 8192 / min(columns, 1024) rows), each result rounded once.
   * null: the chunks run it (another dtype, a max, more than a bare product,
   * reduced axes apart or in different orders in a and b, or a product the
   * chunks run as fast: in the col order, fewer than 4 rows, a vector times a
   * matrix among them, at every size but float16's small ones).
   */
  contraction: { order: 'col' | 'row'; m: number; k: number; n: number; a: string; b: string; c?: string; panel: { rows: number; columns: number } | null } | null;
  /**
   * A program (statements, or a reduction inside the expression): each pass in
   * the order it runs, with the name its result is read by (null: the last,
   * the result; `_t0`...: a reduction lifted out of its expression) and the
   * keepdims it runs with. The fields above are the last pass's.
   */
  passes?: (ExpressionPlan & { name: string | null; keepdims: boolean })[];
  /** A program: the last pass's `name` (null: it makes the result) and `keepdims`, as its entry in `passes` has them. */
  name?: string | null;
  keepdims?: boolean;
}

/** explain() of an expression: its plan, or `{ ok: false, error }` (a SyntaxError, a BroadcastError, a TypeError) as explain() reports any refusal. */
export type ExpressionExplanation = ExpressionPlan | (Explanation & { ok: false });

/**
 * The plan of an expression over operand shapes, as JSON: the n-ary alignment
 * of every operand, the program and the loop. Never throws.
 * @example explain({ expression: '(x - m) / s', shapes: { x: [2, 3], m: [3], s: [1] } })
 */
export declare function explain(request: ExpressionExplainRequest): ExpressionExplanation;

/** A parsed expression (compile()): run it any number of times; generated code is cached per dtypes and loop form. */
export interface Expression {
  /** The expression text. */
  readonly source: string;
  /** The operand names it reads, each once: in order of first appearance in each pass, the passes in the order they run (a reduction inside the text is a pass before it). */
  readonly inputs: readonly string[];
  /**
   * Run over `operands`; what evaluate() returns. `S` is the text's type, read
   * from `this.source`: compile() of a literal text makes `source` that literal
   * (ExpressionOf), so these overloads too hold an `out` (a typed array, or a resident tensor) to the dtype it tells.
   */
  run<O extends ExpressionOperands, S extends string = string, T extends Tensor = Tensor>(this: { readonly source: S }, operands: O, options: EvaluateOptions & { out: T & TensorOutOf<T, EvaluateDType<O, S>> }): Tensor;
  run<O extends ExpressionOperands, S extends string = string, A extends TypedArray = TypedArray>(this: { readonly source: S }, operands: O, options: EvaluateOptions & { out: A & OutOf<A, EvaluateDType<O, S>> }): DataOf<EvaluateDType<O, S>>;
  run<O extends ExpressionOperands, S extends string = string, A extends EvaluateOptions['out'] = EvaluateOptions['out']>(this: { readonly source: S }, operands: O, options?: EvaluateOptions & { out?: A & OutOf<A, EvaluateDType<O, S>> & TensorOutOf<A, EvaluateDType<O, S>> | undefined }): EvaluateResult<O, S>;
  /**
   * The plan for these shapes. Never throws, as explain({ expression, shapes }), whose answer it is:
   * a refusal (a BroadcastError's or TypeError's fields) comes back as `{ ok: false, error }`.
   */
  explain(shapes: ExpressionShapes, options?: ExpressionExplainOptions): ExpressionExplanation;
  toString(): string;
}

/**
 * Parse an expression once. Syntax is JavaScript's, with its precedence:
 * operand names, numbers, `+ - * / % **`, unary `- + ! ~`, comparisons,
 * `&& || & | ^`, `c ? a : b`, and calls of the library's ops (`minimum(a, b)`,
 * `sqrt(x)`, `where(c, a, b)`, `cast(x, 'int32')`); a reduction
 * (`sum(x * w, ['in'])`, `max(x, [-1], true)`: its axes, then keepdims) may
 * stand anywhere, and statements name values for the ones after them:
 * `m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)`. A syntax
 * error throws a SyntaxError with `offset` (and the text with a caret in its
 * message).
 * @example const norm = compile('(x - m) / s'); norm.run({ x, m, s })
 */
export declare function compile<E extends string = string>(expression: E): ExpressionOf<E> & Expression;

/**
 * What compile() knows of an expression whose text is a literal type: run()'s
 * result has the dtype the text and the operands tell (EvaluateResult<O, E>).
 * An `ExpressionOf<E> & Expression` is an Expression.
 */
export interface ExpressionOf<E extends string> {
  readonly source: E;
  run<O extends ExpressionOperands, T extends Tensor = Tensor>(operands: O, options: EvaluateOptions & { out: T & TensorOutOf<T, EvaluateDType<O, E>> }): Tensor;
  run<O extends ExpressionOperands, A extends TypedArray = TypedArray>(operands: O, options: EvaluateOptions & { out: A & OutOf<A, EvaluateDType<O, E>> }): DataOf<EvaluateDType<O, E>>;
  run<O extends ExpressionOperands, A extends EvaluateOptions['out'] = EvaluateOptions['out']>(operands: O, options?: EvaluateOptions & { out?: A & OutOf<A, EvaluateDType<O, E>> & TensorOutOf<A, EvaluateDType<O, E>> | undefined }): EvaluateResult<O, E>;
}

/**
 * Evaluate an expression over named operands in one pass, without a temporary
 * per op. Bit for bit what the same ops called one by one give. A program
 * (statements, or a reduction inside the expression) runs a pass per
 * reduction and statement, each fused, and is bit for bit the same too.
 * @example evaluate('(x - m) / s', { x, m, s })
 * @example evaluate("sum(x * w, ['in'])", { x, w }) // a contraction by dim name
 */
export declare function evaluate<O extends ExpressionOperands, E extends string = string, T extends Tensor = Tensor>(expression: E, operands: O, options: EvaluateOptions & { out: T & TensorOutOf<T, EvaluateDType<O, E>> }): Tensor;
export declare function evaluate<O extends ExpressionOperands, E extends string = string, A extends TypedArray = TypedArray>(expression: E, operands: O, options: EvaluateOptions & { out: A & OutOf<A, EvaluateDType<O, E>> }): DataOf<EvaluateDType<O, E>>;
export declare function evaluate<O extends ExpressionOperands, E extends string = string, A extends EvaluateOptions['out'] = EvaluateOptions['out']>(expression: E, operands: O, options?: EvaluateOptions & { out?: A & OutOf<A, EvaluateDType<O, E>> & TensorOutOf<A, EvaluateDType<O, E>> | undefined }): EvaluateResult<O, E>;

import type { DType, FloatDType, ArrayOf, DTypeOf, OrtDType, OrtTensorLike, Tensor, TensorData, DataOf, TensorLike, TypedArray } from './data.js';
export * from './data.js';

// tensorcast/model: tensorcast/shapes' rules, where a dim may also be a name
// ('batch'), and inferShapes() for ONNX models and OpenVINO IR. Its own entry
// (on tensorcast-shapes.wasm), so that the main entry does not carry the model readers.
import type { Dim, Shape, ShapeResult, AutoBroadcastOptions, BroadcastToOptions, ExplainRequest, Explanation } from './index.js';

// BroadcastError is declared as the full entry's; at run time each entry has a class of its own
// (an error of one entry is no instanceof another's: test e.name or e.code across entries).
export {
  init, initSync, isReady, contract,
  BroadcastError, ErrorCode, formatShape, formatDim, UNKNOWN_RANK, MAX_RANK,
  namedBroadcastShape, reductionAxes,
} from './index.js';
export type {
  Dim, Shape, StaticShape, ShapeResult, InitOptions, InitSyncOptions,
  AutoBroadcastOptions, BroadcastToOptions, Label, NamedShapeInput, NamedShapeResult, NamedBroadcastOptions,
  Verdict, OperandPlan, ExplainRequest, Explanation,
} from './index.js';

/** A relation between two names, recorded where they met (either may be a merged dim 'M|N', the dim of M ⊕ N). */
export interface SymbolRelation {
  a: string;
  /** A name, a merged dim, or a number ('M|N' = 3: rule none, or a one-way target 'M|N' of 3). */
  b: string | number;
  /** 'bcast': a = b ∨ a = 1 ∨ b = 1 (they broadcast together); 'equal': a = b; 'to': a = b ∨ a = 1 (a stretches to b). */
  kind: 'bcast' | 'equal' | 'to';
  /** The node (inferShapes), or null (one call). */
  where: string | null;
}

/** What is known of a name: the values it may take (null: any), and why, as text and as relations. */
export interface SymbolInfo {
  name: string;
  values: number[] | null;
  constraints: string[];
  relations: SymbolRelation[];
}

/**
 * broadcastShapes (§1), where a dim may be a name: `N ⊕ N → N`, `N ⊕ 1 → N`,
 * `N ⊕ 3 → 3` (N ∈ {1, 3}), `N ⊕ M → 'M|N'` (the dim that is M or N). A
 * contradiction is a BroadcastError naming the name.
 */
export declare function broadcastShapes(...shapes: (readonly number[])[]): number[];
export declare function broadcastShapes(...shapes: Shape[]): ShapeResult;
/** autoBroadcastShape (§1–§3) with names as dims: under 'none', `N` vs 3 means N = 3. */
export declare function autoBroadcastShape(a: readonly number[], b: readonly number[], options?: AutoBroadcastOptions): number[];
export declare function autoBroadcastShape(a: Shape, b: Shape, options?: AutoBroadcastOptions): ShapeResult;
/** broadcastToShape (§4, §5) with names as dims. */
export declare function broadcastToShape(input: readonly number[], target: readonly number[], options?: BroadcastToOptions): number[];
export declare function broadcastToShape(input: Shape, target: Shape, options?: BroadcastToOptions): ShapeResult;
/** explain() with names as dims: the plan also lists `symbols`. Never throws. */
export declare function explain(request: ExplainRequest): Explanation & { symbols?: SymbolInfo[] };

/** True when `d` is a name: a string that is not '?', an interval or '[...]' (spaces around it ignored), nor empty. */
export declare function isSymbol(d: unknown): d is string;

export interface InferShapesOptions {
  /** OpenVINO IR: the .bin's bytes, to read Broadcast's target_shape and axes_mapping constants. */
  bin?: Uint8Array | ArrayBuffer | ArrayBufferView | undefined;
  /** ONNX: also return `tensors` and `subgraphTensors`, the shape of every value a node makes, by name. */
  tensors?: boolean | undefined;
}

export interface NodeReport {
  /**
   * The graph's name ('main' when it has none); a subgraph without one is named by its node and
   * attribute ('main/if.then_branch'). A name an earlier graph took is taken again as 'name#2',
   * 'name#3', …: each graph (and its subgraphTensors table) has its own.
   */
  graph: string;
  /** The node's index in its graph. */
  index: number;
  name: string | null;
  opType: string;
  /** The rule the node was checked by: 'numpy', 'none', 'pdpd(axis=1)', 'broadcastTo numpy (slope to X)', ... */
  rule: string;
  inputs: { name: string; shape: Dim[] | null; values?: boolean; declared?: boolean }[];
  output: { name: string; shape: Dim[] | null; declared?: Dim[] | null };
  status: 'ok' | 'clash' | 'declared-mismatch' | 'unknown';
  /**
   * Why the node clashed or was lost: a rule's refusal (a BroadcastError's JSON), or, with `code`
   * null and no `operands` or `clashes`, a refusal of another kind, as explain() reports one (a
   * TypeError: an IR layer with a mode, auto_broadcast or inputs its op does not take; a node whose
   * values make no sense, status 'unknown').
   */
  error?: NonNullable<Explanation['error']>;
  /** The explain() request the node was checked by (names kept): what the explorer draws. */
  request?: ExplainRequest;
  /**
   * The rule's plan (explain()'s JSON, names put back). Its `symbols`: the names this node met or
   * constrained (a contraction too), each with its values as the rule left them and only the
   * constraints and relations this node recorded (the whole of each name is the report's `symbols`).
   */
  plan?: Explanation & { symbols?: SymbolInfo[] };
  /** status 'unknown': the first node upstream whose output shape could not be known. */
  lostAt?: string;
}

export interface ModelReport {
  format: 'onnx' | 'openvino';
  /** ONNX: each domain's opset version ('' is ai.onnx); OpenVINO: { ir: version }. */
  opsets: Record<string, number>;
  /** Every broadcasting node of every graph and subgraph. */
  nodes: NodeReport[];
  symbols: SymbolInfo[];
  coverage: { nodes: number; inferred: number; declared: number; unknownOps: string[] };
  /** options.tensors: the shape of every value the main graph's nodes make, by name (null: unknown rank). */
  tensors?: Record<string, Dim[] | null>;
  /**
   * options.tensors: each subgraph's values (If branches, Loop and Scan bodies, a function call's
   * body), by its node reports' `graph` (one per subgraph: two of one name are 'b' and 'b#2') and
   * then by name; branches may name values alike.
   * A node's output: `(subgraphTensors[n.graph] ?? tensors)[n.output.name]`.
   */
  subgraphTensors?: Record<string, Record<string, Dim[] | null>>;
}

/**
 * Check every broadcasting node of a model: ONNX bytes, or an OpenVINO IR
 * (the .xml text or its bytes, decoded as its byte-order mark or declared
 * encoding says; options.bin its weights). Shapes flow from the
 * inputs and initializers, names kept as names. Never throws on a readable
 * model; what is not a model is a TypeError, and so is an ONNX model nested
 * past its bounds (graphs past 32 deep; model-local function calls past 64
 * graphs open, or expanding past 100,000 nodes in function bodies).
 * Call init() first.
 */
export declare function inferShapes(model: Uint8Array | ArrayBuffer | ArrayBufferView | string, options?: InferShapesOptions): ModelReport;

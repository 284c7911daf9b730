// Type probe of the fused-expression API (evaluate, compile, explain of an
// expression); compiled like probe.ts (scripts/pack-smoke.mjs). Every
// `@ts-expect-error` line must not compile.
import { evaluate, compile, explain, tensor, Tensor } from 'tensorcast';
import type { TensorData, Expression, ExpressionPlan, ExpressionExplanation, EvaluateOptions, DType } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

export function expressions(x: Float32Array, m: Float32Array, t: Tensor<'float32'>): void {
  // Plain operands: { data, shape, dtype }.
  const r = evaluate('(x - m) / s', { x: { data: x, shape: [2, 3] }, m: { data: m, shape: [3] }, s: 2 });
  same<typeof r, TensorData<Float32Array>>(true);
  // A resident operand: a Tensor.
  const rt = evaluate('x * 2 + k', { x: t, k: 3n });
  same<typeof rt, Tensor<'float32'>>(true);
  // A resident out: a Tensor, whatever the operands.
  const ro = evaluate('x + 1', { x: { data: x } }, { out: t });
  same<typeof ro, Tensor>(true);
  // A typed-array out, a rule, keepdims.
  const opts: EvaluateOptions = { out: new Float32Array(6), broadcast: { type: 'pdpd', axis: 0 }, keepdims: true };
  evaluate('sum(x, [1])', { x: { data: x, shape: [2, 3] } }, opts);
  evaluate("sum(x * w, ['in'])", { x: { data: x, shape: [2, 3], dims: ['b', 'in'] }, w: { data: m, shape: [3], dims: ['in'] } }, { shaping: 'exact' });
  // Names that are Object.prototype members are plain operand names.
  evaluate('constructor + __proto__', { constructor: { data: x }, ['__proto__']: 1 });

  // @ts-expect-error the expression is a string
  evaluate(42, { x: t });
  // @ts-expect-error operands are an object of named operands, not a list
  evaluate('x + y', [t, t]);
  // @ts-expect-error an operand is a typed array inside { data }, not a bare array
  evaluate('x', { x: [1, 2, 3] });
  // @ts-expect-error broadcast types are numpy, none and pdpd
  evaluate('x + y', { x: t, y: t }, { broadcast: { type: 'bidirectional' } });
  // @ts-expect-error keepdims is a boolean
  evaluate('sum(x)', { x: t }, { keepdims: 1 });

  // A program: statements and reductions inside; its dtype is not read from the text.
  const sm = evaluate('m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)', { x: { data: x, shape: [2, 3] } });
  same<typeof sm, TensorData>(true);
  const ln = evaluate('x - mean(x, [-1], true)', { x: t });
  same<typeof ln, Tensor<'float32'>>(true);
  const passes = compile('a = x * 2; a + sum(a, [0], true)').explain({ x: [2, 3] });
  if (passes.ok) { const names: (string | null)[] | undefined = passes.passes?.map((p) => p.name); void names; }

  const e: Expression = compile('(x - m) / s');
  const inputs: readonly string[] = e.inputs;
  const src: string = e.source;
  const run1 = e.run({ x: { data: x }, m: 1, s: 2 });
  same<typeof run1, TensorData>(true); // an Expression of any text: any dtype
  const run2 = e.run({ x: t, m: 1, s: 2 });
  same<typeof run2, Tensor>(true);
  const typed = compile('(x - m) / s'); // its text tells the dtype
  const run3 = typed.run({ x: { data: x }, m: 1, s: 2 });
  same<typeof run3, TensorData<Float32Array>>(true);
  const run4 = typed.run({ x: t, m: 1, s: 2 });
  same<typeof run4, Tensor<'float32'>>(true);
  const planned: ExpressionExplanation = e.explain({ x: [2, 3], m: [3], s: [1] }, { dtypes: { x: 'float64' } });
  // @ts-expect-error a refusal is an answer too: narrow on ok first
  const unnarrowed: ExpressionPlan = planned;
  void unnarrowed;
  if (!planned.ok) throw new Error(planned.error?.message);
  const plan: ExpressionPlan = planned;
  const d: DType = plan.dtype;
  const lines: string[] = plan.program.map((p) => p.text);
  const verdicts: ('equal' | 'stretched' | 'new')[] = plan.operands[0].verdicts;
  // @ts-expect-error compile takes the text only
  compile((x: number) => x);
  // @ts-expect-error inputs are read-only
  e.inputs.push('y');

  const ex: ExpressionExplanation = explain({ expression: 'sum(x * w, [1])', shapes: { x: [2, 3], w: { dims: ['in'], shape: [3] } }, dtypes: { x: 'int32' } });
  if (ex.ok) {
    const shape: number[] = ex.shape;
    const gen: 'generated' | 'interpreter' = ex.execution;
    const red = ex.reduce?.axes;
    void shape; void gen; void red;
  } else {
    const msg: string = ex.error!.message;
    void msg;
  }
  // @ts-expect-error shapes of an expression are by operand name
  explain({ expression: 'x + y', shapes: [[2], [3]] });
  void inputs; void src; void d; void lines; void verdicts; void tensor;
}

// A comparison beside a mean: the text alone does not say whose dtype wins (until 0.9.16 float64,
// though `mean(x, [-1], true) < x` is uint8 at run time).
export function comparisonBesideMean(): void {
  const x = { data: new Float32Array(6), shape: [2, 3] };
  const c = evaluate('mean(x, [-1], true) < x', { x });
  const u: typeof c.dtype = 'uint8'; // what it is at run time
  const f: typeof c.dtype = 'float64';
  void u; void f;
}

// A typed-array out gives data over it, whatever the operands, resident ones too (until 0.9.18 typed as a Tensor).
export function typedOutOverResident(t: Tensor<'float32'>): void {
  const r = evaluate('x * 2', { x: t }, { out: new Float32Array(6) });
  const data: Float32Array = r.data;
  // @ts-expect-error data over out: no dispose()
  r.dispose();
  const run = compile('x * 2').run({ x: t }, { out: new Float32Array(6) });
  const rd: Float32Array = run.data;
  const e: Expression = compile('x * 2');
  // @ts-expect-error data over out: no dispose()
  e.run({ x: t }, { out: new Float32Array(6) }).dispose();
  // a resident out still gives that Tensor
  const kept: Tensor = evaluate('x * 2', { x: t }, { out: t });
  void data; void rd; void kept;
}

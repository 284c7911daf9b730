// Type probe that also runs: the reports of explain() and inferShapes(), every key
// each may have as the declarations name them (held to `keyof` by tsc) and as the
// runtime gives them (`results()`, run by tests/js/type-results.test.js against
// dist/): a key the runtime gives and the types do not name is a line of the answer.
import { explain, compile } from 'tensorcast';
import type { ExpressionPlan, ExpressionShapes } from 'tensorcast';
import { inferShapes } from 'tensorcast/model';
import type { NodeReport } from 'tensorcast/model';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}
type KeysOf<U> = U extends unknown ? keyof U : never;

/** Every key of an expression's plan (and of each of a program's passes). */
const planKeys = ['ok', 'expression', 'inputs', 'broadcastShape', 'shape', 'dtype', 'dims', 'operands', 'program', 'loop', 'execution',
  'reduce', 'contraction', 'passes', 'name', 'keepdims'] as const;
same<(typeof planKeys)[number], keyof ExpressionPlan>(true);

/** Every key of a node's error: a BroadcastError's JSON, or a refusal of another kind (code null). */
type NodeError = NonNullable<NodeReport['error']>;
const errorKeys = ['name', 'code', 'message', 'shapes', 'axis', 'dims', 'operands', 'clashes', 'offset', 'length'] as const;
same<(typeof errorKeys)[number], KeysOf<NodeError>>(true);

/** An OpenVINO IR of one layer: a Broadcast-1 with mode `mode`, [3, 1] to the target [3]. */
const broadcastIR = (mode: string): string => `<?xml version="1.0"?>
<net name="m" version="11"><layers><layer id="3" name="bc" type="Broadcast" version="opset1"><data mode="${mode}"/><input>`
  + '<port id="0" precision="FP32"><dim>3</dim><dim>1</dim></port><port id="1" precision="I64"><dim>1</dim></port></input>'
  + '<output><port id="2" precision="FP32"><dim>2</dim><dim>3</dim><dim>5</dim></port></output></layer></layers><edges></edges></net>';

/** Run every call; each key the types do not declare, and each value they do not allow, is a line of the answer. */
export function results(): string[] {
  const bad: string[] = [];
  const undeclared = (what: string, v: object, keys: readonly string[]): void => {
    for (const k of Object.keys(v)) if (!keys.includes(k)) bad.push(`${what}: the runtime gives ${k}, which the types do not declare`);
  };

  // A program's plan has its last pass's name and keepdims at the top as well (until 0.9.26 not declared).
  const plans: [string, ExpressionShapes][] = [
    ['x + y', { x: [2, 3], y: [3] }],
    ['sum(x * w, [1])', { x: [4, 32], w: [32] }],
    ['argmax(x, 1)', { x: [2, 3] }],
    ['m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)', { x: [2, 3] }],
    ['sum(x, [0]) + y', { x: [2, 3], y: [3] }],
    ["sum(x * w, ['in'])", { x: { dims: ['b', 'in'], shape: [2, 3] }, w: { dims: ['in', 'out'], shape: [3, 4] } }],
  ];
  for (const [text, shapes] of plans) {
    const p = explain({ expression: text, shapes });
    if (!p.ok) { bad.push(`${text}: refused (${p.error?.message})`); continue; }
    undeclared(text, p, planKeys);
    for (const q of p.passes ?? []) undeclared(`${text}, pass ${q.name}`, q, planKeys);
  }
  const program = compile('m = max(x, [-1], true); x - m').explain({ x: [2, 3] }, { keepdims: true });
  if (program.ok) {
    const name: string | null | undefined = program.name;
    const keepdims: boolean | undefined = program.keepdims;
    if (name !== null || keepdims !== true) bad.push(`a program's plan: name ${name}, keepdims ${keepdims}, not its last pass's (null, true)`);
  } else bad.push('a program: refused');

  // A node refused by no rule: code null, and neither operands nor clashes (until 0.9.26 declared a BroadcastError's).
  const refused = inferShapes(broadcastIR('bidirectional')).nodes[0];
  const e = refused?.error;
  if (refused?.status !== 'clash' || e === undefined) bad.push(`a Broadcast-1 of mode bidirectional: ${refused?.status}, not a clash with an error`);
  else {
    undeclared('its error', e, errorKeys);
    if (e.code === null) {
      same<typeof e.axis, null>(true);
      if (e.name !== 'TypeError' || e.axis !== null || e.dims !== null || 'operands' in e) bad.push(`its error: ${JSON.stringify(e)}`);
    } else bad.push(`its error has code ${e.code}, not null`);
  }
  // A rule's refusal is a BroadcastError's JSON, as declared.
  const clash = inferShapes(broadcastIR('numpy').replace('<dim>3</dim><dim>1</dim>', '<dim>4</dim><dim>1</dim>')).nodes[0]?.error;
  if (clash === undefined || clash.code === null) bad.push(`a Broadcast-1 of [4, 1] to (2,3,5): ${JSON.stringify(clash)}`);
  else {
    undeclared('a rule\'s refusal', clash, errorKeys);
    const operands: number[] | null = clash.operands;
    if (clash.code !== 'INCOMPATIBLE_DIMS' || operands === undefined) bad.push(`a rule's refusal: ${JSON.stringify(clash)}`);
  }
  return bad;
}

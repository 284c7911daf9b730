// Type probe that also runs: the reports explain() gives, every key each may have
// as the declarations name them (held to `keyof` by tsc) and as the
// runtime gives them (`results()`, run by tests/js/type-results.test.js against
// dist/): a key the runtime gives and the types do not name is a line of the answer.
import { explain, compile } from 'tensorcast';
import type { ExpressionPlan, ExpressionShapes } from 'tensorcast';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
function same<X, Y>(_: Equal<X, Y>): void {}

/** Every key of an expression's plan (and of each of a program's passes). */
const planKeys = ['ok', 'expression', 'inputs', 'broadcastShape', 'shape', 'dtype', 'dims', 'operands', 'program', 'loop', 'execution',
  'reduce', 'contraction', 'passes', 'name', 'keepdims'] as const;
same<(typeof planKeys)[number], keyof ExpressionPlan>(true);

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

  return bad;
}

// The explorer's expression mode, pure logic: operand rows from the
// library's compile().inputs, URL state, the plan drawn from explain(), the
// exact errors with their caret, the data preview (evaluate) and the copied
// evaluate() snippet, run against the library.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../dist/node.js';
import {
  defaultState, stateToQuery, stateFromQuery, canonicalState, applyPatch, buildRequest, switchRule, EXAMPLES, exampleState,
  withExpression, expressionInputs, explainExpression, expressionValues, caretLines, errorInfo, paramsToVars, shownVerdicts, clashAxes,
  memoryView, previewable, planSize,
} from './logic.js';
import { codeFor } from './code.js';

beforeAll(async () => { await tc.init(); });

const exprState = (expr, vars, patch = {}) => applyPatch(defaultState(), { rule: 'expression', expr, vars, ...patch });
const planOf = (state) => {
  const b = buildRequest(state);
  expect(b.ok, JSON.stringify(b.errors)).toBe(true);
  return explainExpression(b.request);
};

describe('the result size', () => {
  it('past 2^53 is exact, as explain() reports it (until 0.9.17 a rounded product)', () => {
    const p = planOf(exprState('a + b', [['a', '134217729'], ['b', '134217729, 1']]));
    expect([p.size, p.sizeText]).toEqual([null, '18014398777917441']); // 134217729^2
    expect(planSize(p)).toBe(18014398777917441n);
    const q = planOf(exprState('a + b', [['a', '3'], ['b', '2, 1']]));
    expect([q.size, q.sizeText]).toEqual([6, undefined]);
  });
});

describe('operand rows', () => {
  it('reads the names the library parses, in its order', () => {
    expect(expressionInputs('(x - m) / s')).toEqual({ ok: true, inputs: ['x', 'm', 's'] });
    expect(expressionInputs('sum(a * b, [1]) ').inputs).toEqual(['a', 'b']);
  });
  it('keeps the shapes typed for names that stay, and gives a new name 1', () => {
    const s = exprState('(x - m) / s', [['x', '4,5'], ['m', '5'], ['s', '4,1']]);
    const t = withExpression(s, '(x - mu) / s');
    expect(t.vars).toEqual([['x', '4,5'], ['mu', '1'], ['s', '4,1']]);
    expect(withExpression(t, 's * x').vars).toEqual([['s', '4,1'], ['x', '4,5']]);
  });
  it('gives a name typed back the shape it had, not 1', () => {
    // Typing `z * ` before `y` in `x + y` passes through `x + z`, which reads no y.
    const s = exprState('x + y', [['x', '2,3'], ['y', '3']]);
    const earlier = new Map(s.vars);
    const t = withExpression(s, 'x + z', earlier);
    expect(t.vars).toEqual([['x', '2,3'], ['z', '1']]);
    for (const [n, v] of t.vars) earlier.set(n, v);
    expect(withExpression(t, 'x + z * y', earlier).vars).toEqual([['x', '2,3'], ['z', '1'], ['y', '3']]);
  });
  it('leaves the rows as they were while the text does not parse', () => {
    const s = exprState('x + y', [['x', '2'], ['y', '3']]);
    const t = withExpression(s, 'x + (');
    expect(t.expr).toBe('x + (');
    expect(t.vars).toEqual(s.vars);
  });
});

describe('URL state', () => {
  it('round-trips the expression and the shapes, without the other modes\' parameters', () => {
    const s = exprState('where(x > 0, x, 0.1 * x) + b', [['x', '2,3'], ['b', '3']], { dtype: 'float64' });
    const q = stateToQuery(s);
    expect(q).toBe('rule=expression&e=where(x%20%3E%200%2C%20x%2C%200.1%20*%20x)%20%2B%20b&v=x:2,3&v=b:3&dtype=float64'.replace('%2C', ',').replace('%2C', ','));
    expect(q).not.toMatch(/(^|&)s=/);
    const back = stateFromQuery(q);
    expect(back.rule).toBe('expression');
    expect(back.expr).toBe(s.expr);
    expect(back.vars).toEqual(s.vars);
    expect(stateToQuery(back)).toBe(q);
  });
  it('derives the rows from the expression when a link names too few or too many', () => {
    const s = stateFromQuery('rule=expression&e=a%2Bb&v=a:4&v=zz:9');
    expect(s.vars).toEqual([['a', '4'], ['b', '1']]);
  });
  it('a link without e= in expression mode gets the default expression\'s rows, the shapes it gives kept (until 0.9.18 only its own rows: an error naming "m")', () => {
    const s = stateFromQuery('rule=expression&v=x:5');
    expect(s.vars.map(([n]) => n)).toEqual(expressionInputs(s.expr).inputs);
    expect(s.vars.length).toBeGreaterThan(1);
    expect(s.vars[0]).toEqual(['x', '5']);
    expect(stateFromQuery(stateToQuery(s))).toEqual(s); // one link, one view
  });
  it('operands set aside come back when numpy is chosen after expression mode (until 0.9.18 lost)', () => {
    const four = canonicalState({ ...defaultState(), rule: 'numpy', shapes: ['2,3', '3', '1,3', '2,1'], names: ['', '', '', ''] });
    const pd = switchRule(four, 'pdpd');
    expect(pd.setAside.map((g) => g.shape)).toEqual(['1,3', '2,1']);
    const ex = switchRule(pd.state, 'expression', pd.setAside);
    expect(ex.setAside).toEqual(pd.setAside);
    const back = switchRule(ex.state, 'numpy', ex.setAside);
    expect(back.state.shapes).toEqual(['2,3', '3', '1,3', '2,1']);
    expect(back.note).toMatch(/^Restored C \(1,3\), D \(2,1\)/);
    expect(back.setAside).toEqual([]);
  });
  it('ignores malformed operand params', () => {
    expect(paramsToVars(['x:2', ':3', 'nocolon', 'x:5', 'y:'])).toEqual([['x', '2'], ['y', '']]);
  });
  it('turns the backward view off and keeps the other modes\' shapes across a switch', () => {
    const s = applyPatch(defaultState(), { shapes: ['5,1', '1,6', '5,6'], backward: true });
    const e = switchRule(s, 'expression').state;
    expect(e.rule).toBe('expression');
    expect(e.backward).toBe(false);
    const n = switchRule(e, 'numpy');
    expect(n.state.shapes).toEqual(['5,1', '1,6', '5,6']);
    expect(n.note).toBeNull();
    expect(canonicalState(e).vars).toEqual(defaultState().vars);
  });
});

describe('the plan', () => {
  it('aligns every operand to the broadcast shape with the library\'s verdicts and strides', () => {
    const p = planOf(exprState('(x - m) / s', [['x', '2,3'], ['m', '3'], ['s', '2,1']]));
    expect(p.ok).toBe(true);
    expect(p.shape).toEqual([2, 3]);
    expect(p.size).toBe(6);
    expect(p.operands.map((o) => o.name)).toEqual(['x', 'm', 's']);
    expect(p.operands[1].verdicts).toEqual(['new', 'equal']);
    expect(p.operands[2].verdicts).toEqual(['equal', 'stretched']);
    expect(p.operands[2].strides).toEqual([1, 0]);
    expect(shownVerdicts(p).axes).toEqual(['new', 'stretched']);
    expect(p.expr.program.map((i) => i.text)).toEqual(['r0 = x (float32)', 'r1 = m (float32)', 'r2 = sub(r0, r1) (float32)', 'r3 = s (float32)', 'r4 = div(r2, r3) (float32)']);
    expect(['generated', 'interpreter']).toContain(p.expr.execution);
    expect(previewable(p)).toBe(true);
    expect(memoryView(p, 4).operands[2].byteStrides).toEqual([4, 0]);
  });
  it('shows a reduction\'s result shape beside the broadcast one', () => {
    const p = planOf(exprState('sum(x * w, [1])', [['x', '2,3'], ['w', '3']]));
    expect(p.shape).toEqual([2, 3]);
    expect(p.expr.shape).toEqual([2]);
    expect(p.expr.reduce).toMatchObject({ op: 'sum', axes: [1] });
  });
  it('names the result dtype the engine gives', () => {
    const p = planOf(exprState('x > y', [['x', '2'], ['y', '2']], { dtype: 'int32' }));
    expect(p.expr.dtype).toBe('uint8'); // comparisons give uint8, as the element-wise ops do
  });
});

describe('errors', () => {
  it('a syntax error carries the offset and a caret under the token', () => {
    const p = explainExpression({ expression: '(x - ) / s', shapes: {}, dtypes: {} });
    expect(p.ok).toBe(false);
    expect(p.kind).toBe('syntax');
    expect(p.error.offset).toBe(5);
    expect(p.error.first).toBe('compile: unexpected ")" at offset 5');
    expect(caretLines(p.source, p.error.offset, p.error.length)).toEqual({ text: '(x - ) / s', caret: '     ^' });
  });
  it('a broadcast error names its node and draws that node\'s clash from the library\'s plan', () => {
    const p = planOf(exprState('a * b + c', [['a', '2,3'], ['b', '3'], ['c', '2']]));
    expect(p.ok).toBe(false);
    expect(p.kind).toBe('broadcast');
    expect(p.error.code).toBe('INCOMPATIBLE_DIMS');
    expect(p.error.message).toContain('"a * b + c"');
    expect(p.error.message).not.toContain('\n');
    expect(p.source.slice(p.error.offset, p.error.offset + p.error.length)).toBe('a * b + c');
    expect(p.operands.map((o) => o.shape)).toEqual([[2, 3], [2]]);
    expect(clashAxes(p)).toEqual([1]);
  });
  it('reads the caret of an error that has no offset from its message', () => {
    const e = errorInfo({ name: 'BroadcastError', message: 'explain: "x - m" (offset 1): no\n  (x - m) / s\n   ^^^^^' }, '(x - m) / s');
    expect(e).toMatchObject({ offset: 1, length: 5, first: 'explain: "x - m" (offset 1): no' });
  });
  it('refuses dynamic dims before the engine sees them, naming the operand', () => {
    const b = buildRequest(exprState('x + 1', [['x', '?,3']]));
    expect(b.ok).toBe(false);
    expect(b.errors[0]).toMatchObject({ field: 'shape', index: 0 });
    expect(b.errors[0].message).toMatch(/^Shape x: .*static/);
  });
});

describe('data preview and copy as code', () => {
  async function runSnippet(code) {
    const body = code.replace(/^import \{([^}]*)\} from 'tensorcast';$/m, 'const {$1} = lib;');
    const logs = [];
    // eslint-disable-next-line no-new-func
    const run = new Function('lib', 'console', `return (async () => { ${body}\n })();`);
    await run(tc, { log: (...a) => logs.push(a.map(String).join(' ')) });
    return logs;
  }
  for (const [expr, vars, dtype] of [
    ['(x - m) / s', [['x', '2,3'], ['m', '3'], ['s', '2,1']], 'float32'],
    ['sum(x * w, [1])', [['x', '2,3'], ['w', '3']], 'float64'],
    ['a % b + (a > 2 ? a : b)', [['a', '4'], ['b', '1']], 'int32'],
  ]) {
    it(`the evaluate() snippet prints the preview's values: ${expr} (${dtype})`, async () => {
      const s = exprState(expr, vars, { dtype });
      const b = buildRequest(s);
      const p = explainExpression(b.request);
      const v = expressionValues(p, dtype);
      expect(v.inputs[0][0]).toBe(1); // 1, 2, 3, …
      const c = codeFor('tensorcast', s, b, p);
      expect(c.code).toContain(`evaluate('${expr}'`);
      const logs = await runSnippet(c.code);
      expect(logs).toEqual([`out ${tc.formatShape(v.shape)}: ${[...v.output].join(' ')}`]);
    });
  }
  it('a program whose last pass is small but whose input is not draws no preview (until 0.9.24 it filled and drew every input: a 1000 × 1000 x froze the page)', () => {
    for (const [expr, x] of [['m = sum(x); m + 1', '1000, 1000'], ['m = sum(x, [0]); m + 1', '100000, 3']]) {
      const p = planOf(exprState(expr, [['x', x]]));
      expect(p.ok).toBe(true);
      expect(p.size).toBeLessThanOrEqual(64); // the last pass alone would fit
      expect(previewable(p), expr).toBe(false);
    }
    const small = planOf(exprState('m = sum(x); m + 1', [['x', '2, 3']]));
    expect(previewable(small)).toBe(true);
    expect([...expressionValues(small, 'float32').output]).toEqual([22]);
  });
  it('the (x - m) / s preview is the arithmetic', () => {
    const p = planOf(exprState('(x - m) / s', [['x', '2,3'], ['m', '3'], ['s', '2,1']]));
    expect([...expressionValues(p, 'float32').output]).toEqual([0, 0, 0, 1.5, 1.5, 1.5]);
  });
  it('other tabs say why they have no code; a refused expression copies the call that throws', () => {
    const s = exprState('a * b + c', [['a', '2,3'], ['b', '3'], ['c', '2']]);
    const b = buildRequest(s);
    const p = explainExpression(b.request);
    expect(codeFor('numpy', s, b, p).code).toBeNull();
    const c = codeFor('tensorcast', s, b, p);
    expect(c.code).toContain("compile('a * b + c')");
    expect(c.code).toContain('// → false INCOMPATIBLE_DIMS ');
    expect(c.code).toContain('console.log(info.ok, info.error.code ?? info.error.name,');
    const refused = tc.compile('a * b + c').explain(b.request.shapes);
    expect(refused.ok).toBe(false);
    expect(refused.error.message).toMatch(/could not be broadcast/);
  });
});

describe('examples', () => {
  it('each expression example shows what its note says', () => {
    const got = Object.fromEntries(EXAMPLES.filter((x) => x.state.rule === 'expression').map((e) => {
      const p = planOf(exampleState(e));
      return [e.id, p.ok ? tc.formatShape(p.expr.shape) : p.error.code];
    }));
    expect(got).toEqual({ 'expr-norm': '(2,3)', 'expr-sum': '(2,)', 'expr-softmax': '(2,4)', 'expr-clash': 'INCOMPATIBLE_DIMS' });
  });
  it('the softmax example is a program: its passes, in order, each with its shape', () => {
    const p = planOf(exampleState(EXAMPLES.find((e) => e.id === 'expr-softmax')));
    expect(p.ok).toBe(true);
    expect(p.expr.passes.map((q) => [q.name, q.expression, tc.formatShape(q.shape), q.keepdims])).toEqual([
      ['m', 'max(x, [-1])', '(2,1)', true],
      ['e', 'exp(x - m)', '(2,4)', false],
      [expect.stringMatching(/^_+t2$/), 'sum(e, [-1])', '(2,1)', true],
      [null, expect.stringMatching(/^e \/ _+t2$/), '(2,4)', false],
    ]);
  });
  it('every expression example\'s rows match its expression', () => {
    for (const e of EXAMPLES.filter((x) => x.state.rule === 'expression')) {
      const s = exampleState(e);
      expect(s.vars.map((v) => v[0])).toEqual(expressionInputs(s.expr).inputs);
    }
  });
});

// The explorer's pure logic: parsing what a person types, URL state, the
// explain() request, suggestions (each verified with the real library), the
// memory view and the data preview's read indices.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../dist/node.js';
import {
  parseShape, parseMapping, parseDimNames, formatShape, formatDim, shapeToText, formatBytes, formatCount, formatList,
  defaultState, stateToQuery, stateFromQuery, canonicalState, applyPatch, buildRequest, activeOperands,
  axisVerdict, axisLabels, rightAlign, contiguousStrides, memoryView, previewable, previewWhy, unravel, planSize, exactProduct,
  sourceIndexMaps, gridSlices, product, reshapeCandidates, suggest, EXAMPLES, exampleState, clashAxes, droppedAxes,
  RULES, UNKNOWN_RANK, CODE_TABS, letter, withDefaultNames, withNamedSizes, dtypeList, itemSize, backwardView, backwardOptions,
  encodeQueryValue, switchRule, shownVerdicts, VERDICT_WORDS, SHAPING_HINTS, SHAPINGS, labelReads, gatherText,
  previewValues, backwardValues, previewDtype, arange, forwardOptions, MAX_NAMES,
} from './logic.js';

beforeAll(async () => { await tc.init(); });

// The rules that broadcast shapes through explain({ rule, shapes }); expression mode has its own tests (expression.test.js).
const SHAPE_RULES = RULES.filter((r) => r.value !== 'expression');

const plan = (state) => {
  const b = buildRequest(state);
  if (!b.ok) throw new Error(JSON.stringify(b.errors));
  return tc.explain(b.request);
};
const st = (patch) => applyPatch(defaultState(), patch);

describe('parseShape', () => {
  it.each([
    ['8,1,6,1', [8, 1, 6, 1]],
    ['8, 1, 6, 1', [8, 1, 6, 1]],
    [' 8 1 6 1 ', [8, 1, 6, 1]],
    ['[2,3]', [2, 3]],
    ['[2, 3]', [2, 3]],
    ['(2, 3)', [2, 3]],
    ['(3,)', [3]],
    ['3', [3]],
    ['()', []],
    ['[]', []],
    ['( )', []],
    ['0', [0]],
    ['-0', [0]],
    ['-1, -1, 5, 6', [-1, -1, 5, 6]],
    ['?, 3, 2..128', ['?', 3, '2..128']],
    ['6.., ..4', ['6..', '..4']],
    ['9007199254740991', [2 ** 53 - 1]],
  ])('%j -> %j', (text, shape) => {
    expect(parseShape(text)).toEqual({ ok: true, shape });
  });

  it('reads [...] and ... as a shape of unknown rank', () => {
    expect(parseShape('[...]')).toEqual({ ok: true, shape: UNKNOWN_RANK });
    expect(parseShape('...')).toEqual({ ok: true, shape: UNKNOWN_RANK });
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['x', /"x" is not a dim/],
    ['2, x', /"x" is not a dim/],
    ['2,,3', /empty dim/],
    [',', /empty dim/],
    [',2', /empty dim/],
    ['(,)', /empty dim/],
    ['[ , 3]', /empty dim/],
    ['[[2]]', /nested/],
    ['[2, 3)', /brackets/],
    ['1e3', /"1e3" is not a dim/],
    ['2.5', /"2.5" is not a dim/],
    ['9007199254740993', /too large/],
    ['alert(1)', /brackets|not a dim/],
    ['constructor', /not a dim/],
    ['__proto__', /not a dim/],
    [Array(33).fill(1).join(','), /at most 32/],
  ])('%j is an input error', (text, msg) => {
    const r = parseShape(text);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(msg);
  });

  it('rejects non-strings without evaluating anything', () => {
    expect(parseShape(undefined).ok).toBe(false);
    expect(parseShape({ toString: () => '2' }).ok).toBe(false);
  });
});

describe('parseMapping', () => {
  it.each([
    ['1, 2', [1, 2]],
    ['[1,2]', [1, 2]],
    ['1 2', [1, 2]],
    ['', []],
    ['[]', []],
    ['2, 1', [2, 1]], // not increasing: the library, not the parser, rejects it
    ['-1', [-1]],
  ])('%j -> %j', (text, mapping) => {
    expect(parseMapping(text)).toEqual({ ok: true, mapping });
  });
  it.each(['a', '1.5', '1,,x', '[[1]]'])('%j is an input error', (text) => {
    expect(parseMapping(text).ok).toBe(false);
  });
  it.each(['1,,2', ',1', ',', '[, 2]'])('%j (an empty entry) is an input error, not a shorter mapping', (text) => {
    expect(parseMapping(text)).toEqual({ ok: false, error: 'an empty entry before a comma' });
  });
});

describe('parseDimNames', () => {
  it('reads plain names', () => {
    expect(parseDimNames('x, y')).toEqual({ ok: true, dims: ['x', 'y'], coords: null });
    expect(parseDimNames('[batch time]')).toEqual({ ok: true, dims: ['batch', 'time'], coords: null });
    expect(parseDimNames('')).toEqual({ ok: true, dims: [], coords: null });
  });
  it('reads coordinate labels in braces', () => {
    expect(parseDimNames('X{x1,x2}, t')).toEqual({ ok: true, dims: ['X', 't'], coords: { X: ['x1', 'x2'] } });
    expect(parseDimNames('X {x1, x2} Y{y1}')).toEqual({ ok: true, dims: ['X', 'Y'], coords: { X: ['x1', 'x2'], Y: ['y1'] } });
    expect(parseDimNames('X{}')).toEqual({ ok: true, dims: ['X'], coords: { X: [] } });
  });
  it.each([
    ['x, x', /twice/],
    ['X{x1', /not closed/],
    ['x}', /without/],
    ['{a}', /unexpected/],
  ])('%j is an input error', (text, msg) => {
    const r = parseDimNames(text);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(msg);
  });
});

describe('formatting', () => {
  it('prints shapes with the library\'s own formatShape / formatDim (no copy in the page)', () => {
    expect(formatShape).toBe(tc.formatShape);
    expect(formatDim).toBe(tc.formatDim);
    expect(formatShape([8, 7, 6, 5])).toBe('(8,7,6,5)');
    expect(formatShape([])).toBe('()');
    expect(formatShape([3])).toBe('(3,)');
    expect(formatShape(['?', '2..5'])).toBe('(?,2..5)');
    expect(formatShape(UNKNOWN_RANK)).toBe('[...]');
    expect(shapeToText([])).toBe('()');
    expect(shapeToText([3, 1])).toBe('3, 1');
    expect(parseShape(shapeToText([3, '?', 1])).shape).toEqual([3, '?', 1]);
    expect(formatList([24, 0, 4])).toBe('[24, 0, 4]');
  });
  it('lists the library\'s own dtypes, with its element sizes', () => {
    expect(dtypeList().map((d) => d.name)).toEqual([...tc.DTYPES]);
    for (const d of tc.contract().dtypes) expect(itemSize(d.name)).toBe(d.size);
    expect(itemSize('float16x')).toBeNull();
    expect(tc.DTYPES).toContain(defaultState().dtype);
  });
  it('prints counts and bytes', () => {
    expect(formatCount(1680)).toBe('1,680');
    expect(formatCount(1e24)).toBe('1.00e24'); // an approximate Number stays approximate
    expect(formatBytes(332)).toBe('332 B');
    expect(formatBytes(13440)).toBe('13.1 KiB');
    expect(formatBytes(4 * 2 ** 30)).toBe('4.00 GiB');
  });
  it('prints sizes past 2^53 exactly (explain\'s sizeText), never rounded', () => {
    const M = 2 ** 53 - 1;
    const r = tc.explain({ shapes: [[M, M, M], [1]] });
    const exact = (BigInt(M) ** 3n).toString();
    if (r.size === null) expect(r.sizeText).toBe(exact); // the library reports it exactly
    expect(planSize(r)).toBe(BigInt(exact));
    expect(formatCount(planSize(r)).replace(/,/g, '')).toBe(exact);
    expect(formatCount(exact)).toBe('730,750,818,665,451,215,712,927,172,538,123,444,058,715,062,271');
    expect(formatCount(12345678901234567890n)).toBe('12,345,678,901,234,567,890');
    expect(planSize({ size: 12 })).toBe(12);
    expect(planSize({ size: null })).toBeNull();
    expect(exactProduct([M, 2])).toBe(BigInt(M) * 2n);
    expect(exactProduct([3, 4])).toBe(12);
    // Bytes too: exact past 2^53, with units below.
    expect(formatBytes(BigInt(M) * 4n)).toBe(`${formatCount(BigInt(M) * 4n)} B`);
    expect(formatBytes(2n ** 20n)).toBe('1.00 MiB');
    const mv = memoryView(r, 4);
    expect(mv.outBytes).toBe(BigInt(exact) * 4n);
    expect(mv.operands[0].bytesRead).toBe(BigInt(exact) * 4n);
    expect(mv.operands[0].ownByteStrides).toEqual([BigInt(M) * BigInt(M) * 4n, BigInt(M) * 4n, 4]);
    // A plan stride the engine cannot represent is null, never a rounded number.
    for (const s of mv.operands[0].broadcastStrides) expect(s === null || Number.isSafeInteger(s)).toBe(true);
  });
  it('names operands A, B, …', () => {
    expect(letter(0)).toBe('A');
    expect(letter(25)).toBe('Z');
    expect(letter(26)).toBe('#26');
  });
});

describe('URL state', () => {
  it('round-trips every example', () => {
    for (const e of EXAMPLES) {
      const s = exampleState(e);
      expect(stateFromQuery(`?${stateToQuery(s)}`)).toEqual(s);
    }
  });
  it('an axis the slider cannot show (below -1) is not read from a link (until 0.9.17 the label said -999, the slider -1)', () => {
    for (const a of ['-999', '-2', '-5']) expect(stateFromQuery(`?rule=pdpd&s=2,3&s=3&axis=${a}`).axis).toBe(defaultState().axis);
    expect(stateFromQuery('?rule=pdpd&s=2,3&s=3&axis=-1').axis).toBe(-1);
    expect(stateFromQuery('?rule=pdpd&s=2,3&s=3&axis=1').axis).toBe(1);
  });
  it('round-trips odd text without losing it', () => {
    const s = st({ rule: 'named', shapes: ['[3, 1]', '(2,3)'], shaping: 'union', dtype: 'int8', names: ['a&b=c, d', '#x{1,2}, y'], code: 'torch' });
    expect(stateFromQuery(stateToQuery(s))).toEqual(s);
    const t = st({ rule: 'to-explicit', shapes: ['[3, 1]', '(2,3,3)'], mapping: '[1, 2]', dtype: 'uint16' });
    expect(stateFromQuery(stateToQuery(t))).toEqual(t);
  });
  it('a dim-names text as long as one may type round-trips; a longer one is refused alike typed or linked (until 0.9.15 a link cut it at 400)', () => {
    const long = `T{${Array.from({ length: 80 }, (_, i) => `city${i}`).join(',')}}, Y`;
    expect(long.length).toBeGreaterThan(400);
    const s = st({ rule: 'named', shapes: ['80, 2', '2'], names: [long, 'Y'] });
    expect(stateFromQuery(`?${stateToQuery(s)}`)).toEqual(s);
    expect(parseDimNames(long)).toMatchObject({ ok: true, dims: ['T', 'Y'] });
    const over = `T{${'x,'.repeat(MAX_NAMES)}y}`;
    expect(parseDimNames(over)).toMatchObject({ ok: false, error: expect.stringMatching(/too long/) });
    const back = stateFromQuery(`?${stateToQuery(st({ rule: 'named', shapes: ['2', '2'], names: [over, 'Y'] }))}`);
    expect(parseDimNames(back.names[0]).ok).toBe(false);
  });
  it('holds the current state only: switching rule leaves no parameter of the old one', () => {
    const dirty = st({ rule: 'named', shapes: ['2, 3', '4', '5'], names: ['x, t', 'y', 'z'], axis: 3, mapping: '0', shaping: 'exact', dtype: 'int32' });
    const params = (q) => [...new URLSearchParams(q).keys()];
    const want = {
      numpy: ['rule', 's', 's', 's', 'dtype'],
      none: ['rule', 's', 's', 'dtype'],
      pdpd: ['rule', 's', 's', 'axis', 'dtype'],
      'to-numpy': ['rule', 's', 's', 'dtype'],
      'to-explicit': ['rule', 's', 's', 'map', 'dtype'],
      'to-bidirectional': ['rule', 's', 's', 'dtype'],
      'to-pdpd': ['rule', 's', 's', 'axis', 'dtype'],
      named: ['rule', 's', 's', 'n', 'n', 'shaping', 'dtype'],
      expression: ['rule', 'e', 'v', 'v', 'v', 'dtype'],
    };
    for (const r of RULES) {
      const q = stateToQuery({ ...dirty, rule: r.value });
      expect(params(q), r.value).toEqual(want[r.value]);
      // What the URL holds is exactly the state the page keeps (and shows).
      const c = canonicalState({ ...dirty, rule: r.value });
      // Expression mode shows its own rows; the other rules' shapes wait in the page, not in its link.
      const shown = (x) => (r.value === 'expression' ? { rule: x.rule, expr: x.expr, vars: x.vars, dtype: x.dtype, code: x.code, backward: x.backward } : x);
      expect(shown(stateFromQuery(q)), r.value).toEqual(shown(c));
      expect(stateToQuery(c)).toBe(q);
    }
    expect(stateToQuery({ ...dirty, rule: 'numpy' })).toBe('rule=numpy&s=2,%203&s=4&s=5&dtype=int32');
    // A link with stale parameters loads as the canonical state.
    expect(stateFromQuery('?rule=numpy&s=3&s=4&n=x&n=y&axis=3&map=0&shaping=exact')).toEqual(st({ shapes: ['3', '4'] }));
    expect(canonicalState({ ...dirty, rule: 'pdpd' })).toMatchObject({ shapes: ['2, 3', '4'], names: ['', ''], axis: 3, mapping: '', shaping: 'intersection' });
  });
  it('keeps the code tab in the link', () => {
    expect(CODE_TABS[0]).toBe(defaultState().code);
    expect(stateToQuery(st({ code: 'openvino' }))).toContain('code=openvino');
    expect(stateFromQuery('?code=numpy').code).toBe('numpy');
    expect(stateFromQuery('?code=tf').code).toBe(CODE_TABS[0]);
  });
  it('keeps shapes readable in the address bar: , ? . [ ] { } as typed, a space as %20', () => {
    expect(stateToQuery(st({ shapes: ['8, 1, 6, 1', '[7,1,5]'] }))).toBe('rule=numpy&s=8,%201,%206,%201&s=[7,1,5]');
    expect(stateToQuery(defaultState())).toBe('rule=numpy&s=8,1,6,1&s=7,1,5'); // the page's own texts have no spaces
    expect(stateToQuery(st({ shapes: ['?,3,2..128', '(3,)'] }))).toBe('rule=numpy&s=?,3,2..128&s=(3,)');
    expect(stateToQuery(st({ rule: 'named', shapes: ['2, 3', '3'], names: ['X{x1,x2}, t', 't'] })))
      .toBe('rule=named&s=2,%203&s=3&n=X{x1,x2},%20t&n=t');
    // What would break the query is always encoded: & = # % + and non-ASCII.
    expect(encodeQueryValue('a&b=c#d%e+f g')).toBe('a%26b%3Dc%23d%25e%2Bf%20g');
    expect(encodeQueryValue('é')).toBe('%C3%A9');
    expect(encodeQueryValue('1, 2')).not.toContain('+');
  });
  it('reads both forms of a space: %20 (new links) and + (older links)', () => {
    const want = st({ shapes: ['8, 1, 6, 1', '7, 1, 5'] });
    expect(stateFromQuery('?rule=numpy&s=8,%201,%206,%201&s=7,%201,%205')).toEqual(want);
    expect(stateFromQuery('?rule=numpy&s=8,+1,+6,+1&s=7,+1,+5')).toEqual(want);
    const old = stateFromQuery('?rule=to-explicit&s=3,1&s=2,3,3&map=1,+2');
    expect(old.mapping).toBe('1, 2');
    expect(stateToQuery(old)).toBe('rule=to-explicit&s=3,1&s=2,3,3&map=1,%202'); // rewritten in the new form
    expect(stateFromQuery(`?${stateToQuery(old)}`)).toEqual(old);
    // A literal + typed in a shape survives the round trip (it is %2B, never a space).
    const plus = st({ shapes: ['+3', '4'] });
    expect(stateFromQuery(`?${stateToQuery(plus)}`).shapes).toEqual(['+3', '4']);
  });
  it('falls back to defaults for anything unknown', () => {
    expect(stateFromQuery('')).toEqual(defaultState());
    const s = stateFromQuery('?rule=eval&axis=1e9&shaping=left&dtype=__proto__&s=3');
    expect(stateFromQuery('?dtype=toString').dtype).toBe('float32');
    expect(s.rule).toBe('numpy');
    expect(s.axis).toBe(-1);
    expect(s.shaping).toBe('intersection');
    expect(s.dtype).toBe('float32');
    expect(s.shapes).toEqual(['3', '1']); // at least two operands
  });
  it('caps the number of operands', () => {
    const s = stateFromQuery(Array(40).fill('s=1').join('&'));
    expect(s.shapes.length).toBe(8);
  });
});

describe('buildRequest', () => {
  it('builds each rule family', () => {
    expect(buildRequest(st({ shapes: ['2,1', '3', '()'] }))).toEqual({ ok: true, request: { rule: 'numpy', shapes: [[2, 1], [3], []] } });
    expect(buildRequest(st({ rule: 'none', shapes: ['2', '2', '5'] })).request).toEqual({ rule: 'none', shapes: [[2], [2]] });
    expect(buildRequest(st({ rule: 'pdpd', shapes: ['2,3,4,5', '3,1'], axis: 1 })).request).toEqual({ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 });
    expect(buildRequest(st({ rule: 'to-explicit', shapes: ['16', '1,16,50,50'], mapping: '1' })).request)
      .toEqual({ rule: 'broadcastTo', mode: 'explicit', shapes: [[16], [1, 16, 50, 50]], axesMapping: [1] });
    expect(buildRequest(st({ rule: 'to-pdpd', shapes: ['3,1', '2,3,6'], axis: 1 })).request)
      .toEqual({ rule: 'broadcastTo', mode: 'pdpd', shapes: [[3, 1], [2, 3, 6]], axis: 1 });
    expect(buildRequest(st({ rule: 'to-numpy', shapes: ['3,1,5,1', '-1,-1,5,6'] })).request)
      .toEqual({ rule: 'broadcastTo', mode: 'numpy', shapes: [[3, 1, 5, 1], [-1, -1, 5, 6]] });
  });
  it('builds named operands, with labels and an optional shape', () => {
    const r = buildRequest(st({ rule: 'named', shapes: ['', '3'], names: ['X{x1,x2}', 't'], shaping: 'exact' }));
    expect(r).toEqual({ ok: true, request: { rule: 'named', shaping: 'exact', operands: [{ dims: ['X'], coords: { X: ['x1', 'x2'] } }, { dims: ['t'], shape: [3] }] } });
  });
  it('reports which input does not parse', () => {
    const r = buildRequest(st({ shapes: ['2', 'x', '3,,'] }));
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => [e.field, e.index])).toEqual([['shape', 1], ['shape', 2]]);
    expect(r.errors[0].message).toMatch(/^Shape B: "x" is not a dim/);
    const m = buildRequest(st({ rule: 'to-explicit', shapes: ['3', '3'], mapping: 'one' }));
    expect(m.errors[0].field).toBe('mapping');
    expect(m.errors[0].message).toMatch(/^Axes mapping:/);
    const n = buildRequest(st({ rule: 'named', shapes: ['2', ''], names: ['x', 'y'] }));
    expect(n.errors[0]).toMatchObject({ field: 'shape', index: 1 });
  });
  it('names axes from the right when switching to named dims with none typed', () => {
    const s = withDefaultNames(st({ rule: 'named', shapes: ['8, 1, 6, 1', '7, 1, 5'] }));
    expect(s.names).toEqual(['d4, d3, d2, d1', 'd3, d2, d1']);
    // Shared names are never stretched: the 1 in A against B's 7 is now a clash.
    expect(plan(s).error.message).toContain('dim "d3" (axis 1) has 1 vs 7');
    const typed = st({ rule: 'named', names: ['x', ''] });
    expect(withDefaultNames(typed)).toBe(typed);
    const other = st({ rule: 'numpy' });
    expect(withDefaultNames(other)).toBe(other);
  });
  it('uses only the operands a rule takes', () => {
    expect(activeOperands(st({ rule: 'numpy', shapes: ['1', '2', '3'] }))).toEqual([0, 1, 2]);
    expect(activeOperands(st({ rule: 'pdpd', shapes: ['1', '2', '3'] }))).toEqual([0, 1]);
  });
  it('every rule in the select builds a request the library understands', () => {
    for (const r of RULES) {
      const b = buildRequest(st({ rule: r.value, shapes: ['3', '2, 3'], names: ['a', 'b'], mapping: '1' }));
      expect(b.ok).toBe(true);
      expect(tc.explain(b.request).error?.name ?? 'ok').not.toBe('TypeError');
    }
  });
});

describe('reading a plan', () => {
  it('one verdict per axis: clash > stretched > new > equal', () => {
    expect(axisVerdict(['equal', 'new'])).toBe('new');
    expect(axisVerdict(['stretched', 'new'])).toBe('stretched');
    expect(axisVerdict(['equal', 'clash'])).toBe('clash');
    expect(axisVerdict(['equal', 'equal'])).toBe('equal');
    expect(axisVerdict(['new'], true)).toBe('clash');
  });
  it('labels axes both ways', () => {
    expect(axisLabels(3)).toEqual([{ index: 0, negative: -3 }, { index: 1, negative: -2 }, { index: 2, negative: -1 }]);
  });
  it('right-aligns a target for display', () => {
    expect(rightAlign([3, 1], 3)).toEqual([null, 3, 1]);
    expect(rightAlign(UNKNOWN_RANK, 2)).toEqual([null, null]);
  });
});

describe('named dims: coordinates decide the size', () => {
  const named = (names, shapes, prev) => withNamedSizes(st({ rule: 'named', names, shapes }), 0, prev);
  it('editing labels rewrites the labelled dim\'s size', () => {
    expect(named(['X{x1}', 'Y{y1,y2}'], ['2', '2'], 'X{x1,x2}').shapes).toEqual(['1', '2']);
    expect(named(['X{x1,x2,x3}, t', 't'], ['2, 3', '3'], 'X{x1,x2}, t').shapes[0]).toBe('3, 3');
    // Unlabelled dims keep their size, found by name when they move.
    expect(named(['t, X{x1}', 't'], ['2, 3', '3'], 'X{x1,x2}, t').shapes[0]).toBe('3, 1');
    // Labels typed before any shape: the shape is derived.
    expect(named(['X{a,b,c}', 'y'], ['', '1'], '').shapes[0]).toBe('3');
  });
  it('leaves the shape alone when a size is unknown or nothing is labelled', () => {
    const s = named(['X{x1}, u', 'y'], ['2', '1'], 'X{x1,x2}');
    expect(s.shapes[0]).toBe('2'); // u has no size yet: the person types it
    expect(named(['x, y', 'y'], ['2, 3', '3'], 'x').shapes[0]).toBe('2, 3');
    const other = st({ rule: 'numpy', names: ['X{a}', ''] });
    expect(withNamedSizes(other, 0)).toBe(other);
  });
  it('X{x1} no longer clashes with a stale size', () => {
    const s = named(['X{x1}', 'Y{y1,y2}'], ['2', '2'], 'X{x1,x2}');
    const r = plan(s);
    expect(r.ok).toBe(true);
    expect(formatShape(r.shape)).toBe('(1,2)');
  });
});

describe('every clash, every dropped dim', () => {
  it('lists every clashing axis', () => {
    expect(clashAxes(plan(st({ shapes: ['4, 3', '7, 5'] })))).toEqual([0, 1]);
    expect(clashAxes(plan(st({ shapes: ['8, 4, 6, 1', '7, 3, 5'] })))).toEqual([1, 2]);
    expect(clashAxes(plan(st({ shapes: ['2, 3, 5', '4, 5'] })))).toEqual([1]);
    expect(clashAxes(plan(st({})))).toEqual([]);
    // Without the library's list (an older build), the axis and the verdicts still count.
    expect(clashAxes({ ok: false, error: { axis: 1 }, axes: [{ verdicts: ['clash', 'clash'] }, { verdicts: ['equal', 'equal'] }] })).toEqual([0, 1]);
  });
  it('PDPD: B\'s trailing 1s are dropped', () => {
    const r = plan(st({ rule: 'pdpd', shapes: ['2, 3, 4, 5', '3, 1'], axis: 1 }));
    expect(droppedAxes(r, 1)).toEqual([1]);
    expect(droppedAxes(r, 0)).toEqual([]);
    expect(droppedAxes(plan(st({ rule: 'pdpd', shapes: ['2, 3', '3, 1, 1'], axis: 1 })), 1)).toEqual([1, 2]);
    expect(droppedAxes(plan(st({ rule: 'numpy', shapes: ['2, 3', '3, 1'] })), 1)).toEqual([]);
    // The plan's own list wins once explain() gives one.
    expect(droppedAxes({ rule: 'pdpd', operands: [{ shape: [2] }, { shape: [1, 1], dropped: [1] }] }, 1)).toEqual([1]);
  });
});

describe('switching rule sets operands aside, and switching back restores them', () => {
  it('numpy → pdpd sets C aside with a note; pdpd → numpy puts it back', () => {
    const s = st({ shapes: ['2, 3', '3', '1, 3'] });
    const a = switchRule(s, 'pdpd');
    expect(a.state.rule).toBe('pdpd');
    expect(a.state.shapes).toEqual(['2, 3', '3']);
    expect(a.setAside).toEqual([{ shape: '1, 3', names: '' }]);
    expect(a.note).toBe('pdpd takes 2 operands: C (1, 3) is set aside. Switch back to numpy to get it back.');
    // Through other two-operand rules, and edits of A and B, C stays aside.
    const b = switchRule({ ...a.state, shapes: ['4, 3', '3'] }, 'none', a.setAside);
    expect(b.setAside).toEqual(a.setAside);
    expect(b.note).toBeNull();
    const c = switchRule(b.state, 'numpy', b.setAside);
    expect(c.state.shapes).toEqual(['4, 3', '3', '1, 3']);
    expect(c.setAside).toEqual([]);
    expect(c.note).toBe('Restored C (1, 3).');
    expect(buildRequest(c.state).request.shapes).toEqual([[4, 3], [3], [1, 3]]);
  });
  it('names every operand set aside, and restores no more than the page takes', () => {
    const s = st({ shapes: ['2', '2', '3', '4'] });
    const a = switchRule(s, 'to-numpy');
    expect(a.note).toBe('Broadcast numpy takes 2 operands: C (3), D (4) are set aside. Switch back to numpy to get them back.');
    const full = st({ shapes: Array.from({ length: 7 }, () => '1') });
    const back = switchRule(full, 'numpy', a.setAside);
    expect(back.state.shapes).toHaveLength(8);
    expect(back.state.shapes[7]).toBe('3');
    // Two operands to a two-operand rule: nothing set aside, no note.
    expect(switchRule(st({}), 'pdpd')).toMatchObject({ setAside: [], note: null });
    expect(switchRule(st({}), 'numpy')).toMatchObject({ setAside: [], note: null });
  });
});

describe('the words the page gives verdicts (shownVerdicts)', () => {
  it('named dims: labels that trim, reorder or pad an operand read so, not "equal" (the library\'s verdict stays in the plan)', () => {
    const named = (a, b, shaping = 'intersection') => tc.explain({ rule: 'named', shaping, operands: [a, b] });
    const X = (...labels) => ({ dims: ['X'], coords: { X: labels } });
    let r = named(X('a', 'b', 'c', 'd'), X('a', 'b', 'c'));
    expect(r.operands.map((o) => o.verdicts)).toEqual([['equal'], ['equal']]);
    expect(labelReads(r)).toEqual([['trimmed'], [null]]);
    expect(shownVerdicts(r)).toEqual({ cells: [['trimmed'], ['equal']], axes: ['trimmed'] });
    expect(gatherText(r)).toBe('These labels trim A: reading it is a gather, not a strided view, so there is no preview.');
    r = named(X('a', 'b', 'c'), X('c', 'b', 'a'));
    expect(shownVerdicts(r).cells).toEqual([['equal'], ['reordered']]);
    expect(gatherText(r)).toMatch(/^These labels reorder B: reading it/);
    r = named(X('a', 'b'), X('b', 'c'), 'union');
    expect(shownVerdicts(r)).toEqual({ cells: [['filled'], ['filled']], axes: ['filled'] });
    expect(gatherText(r)).toMatch(/^These labels pad A and pad B \(with the fill value\): reading them/);
    r = named(X('a', 'b'), X('a', 'b'));
    expect(shownVerdicts(r)).toEqual({ cells: [['equal'], ['equal']], axes: ['equal'] });
    expect(r.needsGather).toBe(false);
    for (const w of ['trimmed', 'reordered', 'filled']) expect(VERDICT_WORDS[w]).toBe(w);
  });
  it('\'?\' against \'?\' may differ: explain() says equal, the page does not', () => {
    const r = plan(st({ shapes: ['?', '?'] }));
    expect(r.axes[0].verdicts).toEqual(['equal', 'equal']); // the library's, unchanged
    expect(shownVerdicts(r)).toEqual({ cells: [['unknown'], ['unknown']], axes: ['unknown'] });
    expect(VERDICT_WORDS.unknown).toBe('may differ');
    // ? with 3, and two equal intervals: not provably equal either.
    expect(shownVerdicts(plan(st({ shapes: ['?', '3'] }))).axes).toEqual(['unknown']);
    expect(shownVerdicts(plan(st({ shapes: ['2..5', '2..5'] }))).axes).toEqual(['unknown']);
  });
  it('static equal dims, and a lone dynamic dim against a 1 or a ghost, keep the library\'s words', () => {
    expect(shownVerdicts(plan(st({ shapes: ['3', '3'] })))).toEqual({ cells: [['equal'], ['equal']], axes: ['equal'] });
    expect(shownVerdicts(plan(st({ shapes: ['?', '1'] })))).toEqual({ cells: [['equal'], ['stretched']], axes: ['stretched'] });
    const dyn = shownVerdicts(plan(st({ shapes: ['?, 3, 1, 2..128', '?, 3, 2..224, 1'] })));
    expect(dyn.axes).toEqual(['unknown', 'equal', 'stretched', 'stretched']);
    expect(dyn.cells).toEqual([['unknown', 'equal', 'stretched', 'equal'], ['unknown', 'equal', 'equal', 'stretched']]);
    expect(shownVerdicts(plan(st({ shapes: ['?, 1', '5'] }))).axes).toEqual(['new', 'stretched']); // B's ghost: new
    // A clash stays a clash.
    expect(shownVerdicts(plan(st({ shapes: ['?, 3', '?, 4'] }))).axes).toEqual(['unknown', 'clash']);
  });
  it('a PDPD dropped trailing 1 reads "dropped" only, and counts as new for its axis', () => {
    const r = plan(st({ rule: 'pdpd', shapes: ['2, 3, 4, 5', '3, 1'], axis: 1 }));
    expect(r.operands[1].verdicts[2]).toBe('stretched'); // what the engine gives the 1 it put there
    const w = shownVerdicts(r);
    expect(w.cells[1]).toEqual(['new', 'equal', 'dropped', 'new']);
    expect(w.axes).toEqual(['new', 'equal', 'new', 'new']);
    expect(w.cells[0]).toEqual(['equal', 'equal', 'equal', 'equal']);
    expect(shownVerdicts(null)).toEqual({ cells: [], axes: [] });
  });
  it('every shaping has a hint (the select shows only its name)', () => {
    for (const s of SHAPINGS) expect(SHAPING_HINTS[s]).toMatch(/\.$/);
  });
});

describe('memory view', () => {
  it('has 0 strides on stretched axes and counts bytes', () => {
    const r = plan(st({ shapes: ['8,1,6,1', '7,1,5'] }));
    const mv = memoryView(r, 4);
    expect(mv.operands[0].strides).toEqual([6, 6, 1, 1]);
    expect(mv.operands[0].byteStrides).toEqual([24, 0, 4, 0]);
    expect(mv.operands[1].byteStrides).toEqual([0, 20, 0, 4]);
    expect(mv.operands[0].zeroAxes).toEqual([false, true, false, true]);
    expect(mv.bytesRead).toBe((48 + 35) * 4);
    expect(mv.bytesCopy).toBe(2 * 1680 * 4);
    expect(mv.outBytes).toBe(1680 * 4);
  });
  it('is null for failures and dynamic shapes', () => {
    expect(memoryView(plan(st({ shapes: ['3', '4'] })), 4)).toBeNull();
    expect(memoryView(plan(st({ shapes: ['?, 3', '3'] })), 4)).toBeNull();
  });
  it('row-major strides', () => {
    expect(contiguousStrides([2, 3, 4])).toEqual([12, 4, 1]);
    expect(contiguousStrides([])).toEqual([]);
  });
});

// An independent oracle for the read indices: NumPy's rule for one output
// index, right-aligned, index 0 on size-1 and missing axes.
function oracle(outShape, inShape, outIndex) {
  const off = outShape.length - inShape.length;
  let flat = 0;
  for (let i = 0; i < inShape.length; i++) {
    const ix = inShape[i] === 1 ? 0 : outIndex[off + i];
    flat = flat * inShape[i] + ix;
  }
  return flat;
}

describe('data preview', () => {
  it.each([
    [['2,1,3', '2,1']],
    [['3,1', '1,4']],
    [['()', '2,3']],
    [['4', '2,1,1', '1,3,1']],
    [['1,1,1', '1']],
  ])('sourceIndexMaps(%j) agrees with the NumPy oracle', (shapes) => {
    const r = plan(st({ shapes }));
    expect(previewable(r)).toBe(true);
    const maps = sourceIndexMaps(r);
    for (let f = 0; f < r.size; f++) {
      const idx = unravel(f, r.shape);
      r.operands.forEach((op, k) => expect(maps[k][f]).toBe(oracle(r.shape, op.shape, idx)));
    }
  });
  it('follows explicit axes mappings and named-dim transposes', () => {
    const r = plan(st({ rule: 'to-explicit', shapes: ['3,1', '2,3,3'], mapping: '1, 2' }));
    expect(Array.from(sourceIndexMaps(r)[0])).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2]);
    const n = plan(st({ rule: 'named', shapes: ['2,3', '3,2'], names: ['x, y', 'y, x'] }));
    // B is stored (y, x): output (x, y) element [i, j] reads B[j, i] = j*2 + i.
    expect(Array.from(sourceIndexMaps(n)[1])).toEqual([0, 2, 4, 1, 3, 5]);
  });
  it('only for small static successes', () => {
    expect(previewable(plan(st({ shapes: ['8,1,6,1', '7,1,5'] })))).toBe(false);
    expect(previewable(plan(st({ shapes: ['3', '4'] })))).toBe(false);
    expect(previewable(plan(st({ shapes: ['?', '3'] })))).toBe(false);
    expect(previewable(plan(st({ shapes: ['0', '1'] })))).toBe(false);
    // Why not, in the page's words: an empty result is not "too large".
    expect(previewWhy(plan(st({ shapes: ['0', '1'] })))).toBe('The result has no elements (a dim is 0): there is nothing to draw.');
    expect(previewWhy(plan(st({ shapes: ['8,1,6,1', '7,1,5'] })))).toContain('up to 64 elements');
    expect(previewWhy(plan(st({ shapes: ['3', '4'] })))).toBe('No data preview for a failed broadcast.');
    expect(previewWhy(null)).toBe('Fix the input to see data.');
    expect(previewable(plan(st({ rule: 'named', shapes: ['', ''], names: ['X{a,b}', 'X{b,a}'] })))).toBe(false); // a gather
    // Labels that meet in none: the result is empty, not a gather to skip (until 0.9.28 "These labels trim B …").
    expect(previewWhy(plan(st({ rule: 'named', shapes: ['', ''], names: ['X{}', 'X{a}'] })))).toBe('The result has no elements (a dim is 0): there is nothing to draw.');
  });
});

describe('data preview values: forward (arange inputs) and backward (arange gradient, unbroadcast)', () => {
  // Every rule and mode the page has, at preview size.
  const cases = [
    ['numpy', st({ shapes: ['2,1,3', '2,1'] })],
    ['numpy 3 operands', st({ shapes: ['2,1', '3', '1,1,1'] })],
    ['numpy scalar', st({ shapes: ['()', '2,3'] })],
    ['none', st({ rule: 'none', shapes: ['2,3', '2,3'] })],
    ['pdpd', st({ rule: 'pdpd', shapes: ['2,3,2', '3'], axis: 1 })],
    ['pdpd dropped 1s', st({ rule: 'pdpd', shapes: ['2,3', '3,1,1'], axis: 1 })],
    ['pdpd -1', st({ rule: 'pdpd', shapes: ['2,3,2', '3,2'], axis: -1 })],
    ['to-numpy', st({ rule: 'to-numpy', shapes: ['3,1', '2,3,4'] })],
    ['to-numpy -1', st({ rule: 'to-numpy', shapes: ['3,1', '2,-1,4'] })],
    ['to-explicit', st({ rule: 'to-explicit', shapes: ['3,1', '2,3,3'], mapping: '1, 2' })],
    ['to-bidirectional', st({ rule: 'to-bidirectional', shapes: ['2,1,3', '4,1'] })],
    ['to-pdpd', st({ rule: 'to-pdpd', shapes: ['3,1', '2,3,6'], axis: 1 })],
    ['named', st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] })],
    ['named transposed', st({ rule: 'named', shapes: ['2,3', '3,2,4'], names: ['x, t', 't, x, z'] })],
    ['named coords', st({ rule: 'named', shapes: ['', '3'], names: ['X{x1,x2}', 'y'] })],
    ['int8 (wraps as the library does)', st({ shapes: ['8,8', '8,1'], dtype: 'int8' })],
    ['bigint64', st({ shapes: ['2,1', '3'], dtype: 'bigint64' })],
  ];
  it.each(cases)('%s: every output cell is the sum of the cells it reads; every gradient cell the sum of the gradient cells that read it', (_, state) => {
    const b = buildRequest(state);
    const r = tc.explain(b.request);
    expect(previewable(r)).toBe(true);
    const maps = sourceIndexMaps(r); // the strides' oracle, independent of add/unbroadcast
    const v = previewValues(r, b.request, state.dtype);
    const arr = dtypeList().find((d) => d.name === state.dtype).array;
    expect(v.dtype.name).toBe(state.dtype);
    v.inputs.forEach((x, k) => {
      expect(x.constructor.name).toBe(arr);
      expect(Array.from(x, Number)).toEqual(Array.from({ length: product(r.operands[k].shape) }, (_, i) => i));
    });
    const Arr = globalThis[arr];
    const big = arr.startsWith('Big');
    // The oracle sums in the dtype's own arithmetic (int8 wraps), one store per step as the engine does.
    const fwd = new Arr(r.size);
    for (let f = 0; f < r.size; f++) {
      let acc = big ? 0n : 0;
      maps.forEach((m, k) => { const t = new Arr(1); t[0] = acc + v.inputs[k][m[f]]; acc = t[0]; });
      fwd[f] = acc;
    }
    expect(Array.from(v.output)).toEqual(Array.from(fwd));
    const view = backwardView(b.request, r);
    const g = backwardValues(r, b.request, view, state.dtype);
    expect(Array.from(g.upstream, Number)).toEqual(Array.from({ length: r.size }, (_, i) => i));
    view.operands.forEach((o, k) => {
      const want = new Arr(product(o.shape));
      maps[k].forEach((src, f) => { want[src] += g.upstream[f]; });
      expect(g.grads[k].constructor.name, o.name).toBe(arr);
      expect(Array.from(g.grads[k]), o.name).toEqual(Array.from(want));
    });
  });
  it('the int8 case wraps on the way back, as NumPy with dtype=int8 does', () => {
    const b = buildRequest(st({ shapes: ['8,8', '8,1'], dtype: 'int8' }));
    const r = tc.explain(b.request);
    const g = backwardValues(r, b.request, backwardView(b.request, r), 'int8');
    // B (8,1): row i sums 8i..8i+7 = 64i + 28, wrapped to int8.
    expect(Array.from(g.grads[1])).toEqual(Array.from(Int8Array.from({ length: 8 }, (_, i) => 64 * i + 28)));
    expect(Math.max(...Array.from({ length: 8 }, (_, i) => 64 * i + 28))).toBeGreaterThan(127);
  });
  it('no way back: null for a failed plan or a refused operand', () => {
    const b = buildRequest(st({ shapes: ['3', '4'] }));
    const r = tc.explain(b.request);
    expect(backwardValues(r, b.request, backwardView(b.request, r), 'float32')).toBeNull();
  });
  it('previewDtype: the page\'s dtype where this runtime has its typed array, else float64 with the name kept', () => {
    expect(previewDtype('int16').array).toBe('Int16Array');
    expect(previewDtype('int16').fallback).toBeUndefined();
    const f = previewDtype('no-such-dtype');
    expect(f.name).toBe('float64');
    expect(f.fallback).toBe('no-such-dtype');
    expect(Array.from(arange(4, previewDtype('biguint64')))).toEqual([0n, 1n, 2n, 3n]);
    expect(forwardOptions({ rule: 'named', shaping: 'intersection' })).toBeUndefined();
    expect(forwardOptions({ rule: 'pdpd', axis: 1 })).toEqual({ broadcast: { type: 'pdpd', axis: 1 } });
    expect(forwardOptions({ rule: 'broadcastTo', mode: 'explicit', axesMapping: [1] })).toEqual({ mode: 'explicit', axesMapping: [1] });
  });
  it('slices into 2-D grids', () => {
    expect(gridSlices([2, 2, 3]).map((s) => [s.label, s.rows, s.cols, s.start])).toEqual([['[0, :, :]', 2, 3, 0], ['[1, :, :]', 2, 3, 6]]);
    expect(gridSlices([3]).map((s) => [s.label, s.rows, s.cols])).toEqual([['', 1, 3]]);
    expect(gridSlices([]).map((s) => [s.rows, s.cols])).toEqual([[1, 1]]);
    expect(unravel(5, [2, 3])).toEqual([1, 2]);
  });
});

describe('suggestions', () => {
  const texts = (state) => suggest(state, plan(state), tc).map((s) => s.text);
  // Every suggestion the explorer shows must be accepted by the library.
  const allVerified = (state) => {
    for (const s of suggest(state, plan(state), tc)) {
      const r = plan(applyPatch(state, s.patch));
      expect(r.ok, `${s.text} for ${JSON.stringify(state)}`).toBe(true);
      expect(formatShape(r.shape)).toBe(s.result);
    }
  };

  it('numpy: reshape the clashing operand with a 1', () => {
    const s = st({ shapes: ['3, 4', '3'] });
    expect(texts(s)[0]).toBe('reshape B to (3,1)');
    expect(suggest(s, plan(s), tc)[0]).toMatchObject({ result: '(3,4)', patch: { shapes: ['3, 4', '3, 1'] } });
    allVerified(s);
  });
  it('numpy: a pdpd axis where one works', () => {
    expect(texts(st({ shapes: ['2,3,4,5', '3,1'] }))).toEqual(['reshape B to (3,1,1)', 'use rule pdpd with axis 1']);
  });
  it('numpy: [3] with [4] offers an outer broadcast', () => {
    expect(texts(st({ shapes: ['3', '4'] }))).toEqual(['reshape A to (3,1) for an outer broadcast']);
  });
  it('none: use numpy, or make the shapes identical', () => {
    const s = st({ rule: 'none', shapes: ['2,4', '1,2,4'] });
    expect(texts(s)).toEqual(['use rule numpy (implicit broadcasting)', 'reshape B to (2,4)', 'reshape A to (1,2,4)']);
    allVerified(s);
  });
  it('pdpd: use another axis', () => {
    expect(texts(st({ rule: 'pdpd', shapes: ['2,3,4,5', '3,1'], axis: -1 }))[0]).toBe('use axis 1');
    expect(texts(st({ rule: 'pdpd', shapes: ['8,1,6,1', '7,1,5'], axis: 1 }))).toEqual(['use rule numpy (there B may enlarge A)']);
  });
  it('explicit: a working axes mapping', () => {
    const s = st({ rule: 'to-explicit', shapes: ['3,1', '2,3,3'], mapping: '2, 1' });
    expect(texts(s)).toEqual(['use axes mapping [1, 2]']);
    expect(suggest(s, plan(s), tc)[0].patch).toEqual({ rule: 'to-explicit', mapping: '1, 2' });
  });
  it('broadcast numpy: reshape the input, or map it explicitly', () => {
    expect(texts(st({ rule: 'to-numpy', shapes: ['16', '1,16,50,50'] })))
      .toEqual(['reshape the input to (16,1,1)', 'use mode explicit with axes mapping [1]']);
  });
  it('-1 on a new axis: put a size there', () => {
    const s = st({ rule: 'to-numpy', shapes: ['1,5,9', '3,-1,4,1,5,9'] });
    expect(texts(s)).toEqual(['put a size instead of −1 at axis 1, e.g. (3,1,4,1,5,9)']);
    allVerified(s);
  });
  it('broadcast pdpd: another axis', () => {
    expect(texts(st({ rule: 'to-pdpd', shapes: ['3,1', '2,3,6'], axis: 0 }))[0]).toBe('use axis -1');
  });
  it('named: another shaping, or rename a dim that only shares a name', () => {
    expect(texts(st({ rule: 'named', shapes: ['', ''], names: ['X{x1,x2}', 'X{x1}'], shaping: 'exact' })))
      .toEqual(['use shaping intersection (keep the labels both sides have)', 'use shaping union (an outer join of the labels)']);
    const s = st({ rule: 'named', shapes: ['2,3', '4'], names: ['X, t', 't'] });
    expect(texts(s)).toEqual(['if B\'s "t" is a different dimension, rename it to "t_B" (then it broadcasts)']);
    allVerified(s);
  });
  it('nothing for a success or an unparsed input', () => {
    const ok = st({});
    expect(suggest(ok, plan(ok), tc)).toEqual([]);
    expect(suggest(st({ shapes: ['x', '3'] }), { ok: false, error: { code: 'INVALID_SHAPE' } }, tc)).toEqual([]);
  });
  it('never shows an unverified suggestion (random failing pairs, every rule)', () => {
    let seed = 7;
    const rnd = (n) => { // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const dims = [1, 1, 2, 3, 4];
    const shape = () => Array.from({ length: rnd(4) }, () => dims[rnd(dims.length)]);
    let failures = 0;
    for (let i = 0; i < 150; i++) {
      const rule = SHAPE_RULES[rnd(SHAPE_RULES.length)].value;
      const a = shape();
      const b = shape();
      const s = st({ rule, shapes: [shapeToText(a), shapeToText(b)], axis: rnd(4) - 1, mapping: a.map((_, k) => k).join(', '), names: [a.map((_, k) => 'xyz'[k]).join(','), b.map((_, k) => 'zyx'[k]).join(',')] });
      const r = plan(s);
      if (!r.ok) { failures++; allVerified(s); }
    }
    expect(failures).toBeGreaterThan(30);
  });
  it('asks the library at most 1000 times, so a keystroke stays quick (until 0.9.24 eight rank-32 operands took about 3000 explain() calls, over a second)', () => {
    const r32 = (f) => Array.from({ length: 32 }, (_, i) => f(i)).join(',');
    const s = st({ shapes: ['3', ...Array.from({ length: 7 }, () => r32((i) => (i < 16 ? 1 : 4)))] });
    let calls = 0;
    const counting = { explain: (req) => { calls++; return tc.explain(req); } };
    const list = suggest(s, plan(s), counting);
    expect(calls).toBeLessThanOrEqual(1000);
    expect(list.map((x) => x.text)).toEqual([`reshape A to (3,${Array(16).fill(1).join(',')})`]);
    allVerified(s);
  });
  it('candidate reshapes keep data order: only 1s move', () => {
    expect(reshapeCandidates([3], 2)).toEqual([[3, 1], [1, 3]]);
    for (const c of reshapeCandidates([2, 1, 3], 4)) expect(c.filter((d) => d !== 1)).toEqual([2, 3]);
  });
});

describe('examples from the spec', () => {
  const expected = {
    numpy: '(8,7,6,5)',
    'numpy-small': '(2,2,3)',
    clash: null,
    pdpd: '(2,3,4,5)',
    explicit: '(1,16,50,50)',
    'explicit-small': '(2,3,3)',
    bidirectional: '(2,3,6)',
    mindspore: '(3,1,5,6)',
    named: '(2,2)',
    dynamic: '(?,3,2..224,2..128)',
  };
  it.each(EXAMPLES.filter((e) => e.state.rule !== 'expression').map((e) => [e.id, e]))('%s', (id, e) => {
    const r = plan(exampleState(e));
    if (expected[id] === null) {
      expect(r.ok).toBe(false);
      expect(r.error.message).toContain('axis 0 has 3 vs 4');
    } else {
      expect(r.ok).toBe(true);
      expect(formatShape(r.shape)).toBe(expected[id]);
    }
  });
});

describe('backward view: the axes a gradient is summed over, from the library', () => {
  const view = (state) => {
    const b = buildRequest(state);
    return backwardView(b.request, tc.explain(b.request));
  };
  const axesOf = (v) => v.operands.map((o) => o.axes);
  // Independent of reductionAxes: the output axes where the plan stretched or added the operand.
  const stretchedOrNew = (state) => plan(state).operands.map((o) => o.verdicts.flatMap((v, a) => (v === 'stretched' || v === 'new' ? [a] : [])));
  const refused = (...args) => { try { tc.reductionAxes(...args); return null; } catch (e) { return e; } };

  it('numpy (NumPy/ONNX, OpenVINO NUMPY): each operand against the output, mode numpy', () => {
    const s = st({ shapes: ['8, 1, 6, 1', '7, 1, 5'] });
    const v = view(s);
    expect(v.ok).toBe(true);
    expect(v.outShape).toEqual([8, 7, 6, 5]);
    expect(axesOf(v)).toEqual([tc.reductionAxes([8, 1, 6, 1], [8, 7, 6, 5], { mode: 'numpy' }), tc.reductionAxes([7, 1, 5], [8, 7, 6, 5], { mode: 'numpy' })]);
    expect(axesOf(v)).toEqual(stretchedOrNew(s));
    expect(axesOf(v)).toEqual([[1, 3], [0, 2]]);
    expect(v.operands[0].text).toBe('sum over axes [1, 3], then reshape to (8,1,6,1)');
    expect(v.operands[1].kept).toEqual([7, 5]);
    expect(v.operands[0].options).toBeUndefined(); // numpy is unbroadcast's default
    // Three operands; one that needs no reshape after the sum.
    const t = view(st({ shapes: ['2, 1', '3', '4, 1, 1'] }));
    expect(axesOf(t)).toEqual([tc.reductionAxes([2, 1], [4, 2, 3]), tc.reductionAxes([3], [4, 2, 3]), tc.reductionAxes([4, 1, 1], [4, 2, 3])]);
    expect(t.operands[1].text).toBe('sum over axes [0, 1]: that is already (3,)');
  });
  it('none: identical shapes, nothing summed', () => {
    const v = view(st({ rule: 'none', shapes: ['2, 3', '2, 3'] }));
    expect(axesOf(v)).toEqual([[], []]);
    expect(v.operands[0].text).toMatch(/^nothing to sum/);
  });
  it('pdpd: A is the output, B is summed under the element-wise rule (type pdpd) at the axis', () => {
    const s = st({ rule: 'pdpd', shapes: ['2, 3, 4, 5', '3, 1'], axis: 1 });
    const v = view(s);
    expect(backwardOptions(buildRequest(s).request, 1)).toEqual({ type: 'pdpd', axis: 1 });
    expect(v.operands[0].axes).toEqual([]);
    expect(v.operands[1].axes).toEqual(tc.reductionAxes([3, 1], [2, 3, 4, 5], { type: 'pdpd', axis: 1 }));
    expect(v.operands[1].axes).toEqual([0, 2, 3]); // B's dropped trailing 1 is summed too
    expect(v.operands[1].options).toEqual({ type: 'pdpd', axis: 1 });
    expect(v.operands[1].text).toBe('sum over axes [0, 2, 3], then reshape to (3,1)');
    // Under numpy B (3,1) does not even reach the output: the mode matters.
    expect(refused([3, 1], [2, 3, 4, 5])).toBeInstanceOf(tc.BroadcastError);
    const w = view(st({ rule: 'pdpd', shapes: ['2, 3, 4', '4'], axis: -1 }));
    expect(w.operands[1].axes).toEqual(tc.reductionAxes([4], [2, 3, 4], { type: 'pdpd', axis: -1 }));
    // B's trailing 1 past A's end: the element-wise rule accepts it (the Broadcast op would not),
    // and the way back follows the forward rule the page shows.
    const x = view(st({ rule: 'pdpd', shapes: ['2, 3', '3, 1'], axis: 1 }));
    expect(x.operands[1].error ?? null).toBe(null);
    expect(x.operands[1].axes).toEqual([0]);
    expect(refused([3, 1], [2, 3], { mode: 'pdpd', axis: 1 })).toBeInstanceOf(tc.BroadcastError);
  });
  it('Broadcast op modes: the input with the op\'s mode, mapping or axis', () => {
    const cases = [
      [st({ rule: 'to-explicit', shapes: ['3, 1', '2, 3, 3'], mapping: '1, 2' }), [3, 1], [2, 3, 3], { mode: 'explicit', axesMapping: [1, 2] }],
      [st({ rule: 'to-explicit', shapes: ['16', '1, 16, 50, 50'], mapping: '1' }), [16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] }],
      [st({ rule: 'to-bidirectional', shapes: ['3, 1', '2, 1, 6'] }), [3, 1], [2, 3, 6], { mode: 'bidirectional' }],
      [st({ rule: 'to-pdpd', shapes: ['3, 1', '2, 3, 6'], axis: 1 }), [3, 1], [2, 3, 6], { mode: 'pdpd', axis: 1 }],
      [st({ rule: 'to-numpy', shapes: ['2, 1', '4, 2, 5'] }), [2, 1], [4, 2, 5], { mode: 'numpy' }],
    ];
    for (const [s, input, out, options] of cases) {
      const v = view(s);
      expect(v.outShape, s.rule).toEqual(out);
      expect(v.operands).toHaveLength(1);
      expect(v.operands[0].name).toBe('input');
      expect(v.operands[0].axes, s.rule).toEqual(tc.reductionAxes(input, out, options));
      expect(v.operands[0].axes, s.rule).toEqual(stretchedOrNew(s)[0]);
      expect(v.operands[0].options ?? { mode: 'numpy' }).toEqual(options);
    }
    // Bidirectional: against the result, not the target (the target grew here).
    expect(view(cases[2][0]).operands[0].axes).toEqual([0, 2]);
  });
  it('torch expand / MindSpore broadcast_to: the −1s resolved to the output first, then numpy', () => {
    const s = exampleState(EXAMPLES.find((e) => e.id === 'mindspore'));
    const v = view(s);
    expect(v.outShape).toEqual([3, 1, 5, 6]);
    expect(v.operands[0].axes).toEqual(tc.reductionAxes([3, 1, 5, 1], [3, 1, 5, 6], { mode: 'numpy' }));
    expect(v.operands[0].axes).toEqual([3]);
    // The unresolved target is refused by the library: the view never hands it a −1.
    expect(refused([3, 1, 5, 1], [-1, -1, 5, 6], { mode: 'numpy' })?.code).toBe('INVALID_SHAPE');
  });
  it('named: the output dims the operand lacks, by name; unbroadcast takes the operand by name', () => {
    const v = view(st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] }));
    expect(axesOf(v)).toEqual([[1], [0]]);
    expect(v.outDims).toEqual(['x', 'y']);
    expect(v.operands[0].target).toEqual({ dims: ['x'], shape: [2] });
    expect(v.operands[0].options).toBeUndefined();
    expect(v.operands[0].text).toBe('sum over axes [1] (y)');
    // Matched by name, not position: B (t) sits on output axis 1, not at the right.
    const w = view(st({ rule: 'named', shapes: ['2, 3', '2'], names: ['x, t', 'x'] }));
    expect(axesOf(w)).toEqual([[], [1]]);
    expect(refused([2], [2, 3])).toBeInstanceOf(tc.BroadcastError); // numpy's right alignment puts x on the wrong axis
    // A transposed operand: the remaining dims come out in the output's order, and unbroadcast reorders them.
    const s = st({ rule: 'named', shapes: ['2, 3', '3, 2, 4'], names: ['x, t', 't, x, z'] });
    const tr = view(s);
    expect(tr.outShape).toEqual(plan(s).shape);
    const out = plan(s).named.dims;
    expect(tr.operands[0].axes).toEqual([out.indexOf('z')]);
    expect(tr.operands[1].axes).toEqual([]);
    expect(tr.operands[1].reorder).toBe(true);
    expect(tr.operands[1].text).toBe('nothing to sum; reorder to (t, x, z)');
    expect(tr.operands[0].reorder).toBe(false);
    // The axes are those of the library's named unbroadcast: what it sums is what the view says.
    const g = tc.unbroadcast({ data: new Float64Array(24).fill(1), shape: tr.outShape, dims: out }, tr.operands[0].target);
    expect(g.dims).toEqual(['x', 't']);
    expect([...g.data]).toEqual(Array(6).fill(4)); // z (4) summed
    // Labels: an operand with labels goes as { dims, coords }; a partly labelled one with its shape too.
    const l = view(st({ rule: 'named', shapes: ['', '2, 3'], names: ['X{x1,x2,x3}', 'X{x2,x1}, t'] }));
    expect(l.outCoords).toEqual({ X: ['x1', 'x2'] });
    expect(l.operands[0].target).toEqual({ dims: ['X'], coords: { X: ['x1', 'x2', 'x3'] } });
    expect(l.operands[1].target).toEqual({ dims: ['X', 't'], shape: [2, 3], coords: { X: ['x2', 'x1'] } });
    expect(l.operands[0].text).toBe("sum over axes [1] (t), then align to A's labels");
    expect(l.operands[1].relabel).toBe(true);
  });
  it('dynamic dims: the library\'s refusal, word for word', () => {
    const s = exampleState(EXAMPLES.find((e) => e.id === 'dynamic'));
    const v = view(s);
    const p = plan(s);
    expect(v.ok).toBe(true);
    v.operands.forEach((o, k) => {
      const e = refused(p.operands[k].shape, p.shape, { mode: 'numpy' });
      expect(e).toBeInstanceOf(tc.BroadcastError);
      expect(o.axes).toBeNull();
      expect(o.error).toEqual({ code: e.code, message: e.message });
      expect(o.error.message).toMatch(/not known/);
    });
    // An axis the operand lacks is summed whatever the dim: that is known.
    const w = view(st({ shapes: ['3', '?, 3'] }));
    expect(w.operands[0].axes).toEqual([0]);
    expect(w.operands[0].error).toBeNull();
  });
  it('nothing to reverse for a failure', () => {
    expect(view(st({ shapes: ['3', '4'] }))).toMatchObject({ ok: false, reason: expect.stringMatching(/failed/) });
    expect(backwardView(null, null).ok).toBe(false);
  });
  it('unknown rank: the library\'s refusal per operand, not the page\'s own note', () => {
    const s = st({ shapes: ['[...]', '3'] });
    const v = view(s);
    const p = plan(s);
    expect(v.ok).toBe(true);
    v.operands.forEach((o, k) => {
      const e = refused(p.operands[k].shape, p.shape, { mode: 'numpy' });
      expect(e?.code).toBe('RANK_MISMATCH');
      expect(o.error).toEqual({ code: e.code, message: e.message });
    });
    expect(v.operands[0].error.message).toMatch(/which axes are summed is not known: the input's rank is unknown/);
    expect(v.operands[1].error.message).toMatch(/the output's rank is unknown/);
    // An input of unknown rank broadcast to a known target: the library names the input.
    const t = view(st({ rule: 'to-numpy', shapes: ['[...]', '2, 3'] }));
    expect(t.operands[0].error.message).toMatch(/the input's rank is unknown/);
    // PDPD's A is the result itself: nothing to sum, whatever its rank.
    const a = view(st({ rule: 'pdpd', shapes: ['[...]', '3'] }));
    expect(a.operands[0].axes).toEqual([]);
    expect(a.operands[0].text).toMatch(/^nothing to sum: the gradient already has shape/);
    expect(backwardView(null, null).ok).toBe(false);
  });
  it('is kept in the link as back=1', () => {
    expect(stateToQuery(st({}))).not.toContain('back');
    expect(stateToQuery(st({ backward: true }))).toContain('back=1');
    expect(stateFromQuery('?rule=pdpd&s=2,3&s=3&back=1').backward).toBe(true);
    expect(stateFromQuery('?back=yes').backward).toBe(false);
    const s = st({ rule: 'to-explicit', shapes: ['3, 1', '2, 3, 3'], mapping: '1, 2', backward: true });
    expect(stateFromQuery(stateToQuery(s))).toEqual(s);
    expect(canonicalState({ ...s, rule: 'numpy' }).backward).toBe(true); // survives a rule switch
  });
  it('random static pairs, every rule: summed axes are the stretched or added ones, and unbroadcast comes back', () => {
    let seed = 11;
    const rnd = (n) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const dims = [1, 1, 2, 3];
    const shape = () => Array.from({ length: rnd(4) }, () => dims[rnd(dims.length)]);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const rule = SHAPE_RULES[rnd(SHAPE_RULES.length)].value;
      if (rule === 'named') continue;
      const a = shape();
      const b = shape();
      const s = st({ rule, shapes: [shapeToText(a), shapeToText(b)], axis: rnd(3) - 1, mapping: a.map((_, k) => k + rnd(2)).join(', ') });
      const b2 = buildRequest(s);
      if (!b2.ok) continue;
      const p = tc.explain(b2.request);
      if (!p.ok) continue;
      const v = backwardView(b2.request, p);
      const want = stretchedOrNew(s);
      v.operands.forEach((o, k) => {
        expect(o.error, JSON.stringify(s)).toBeNull();
        expect(o.axes, JSON.stringify(s)).toEqual(want[k]);
        const g = tc.unbroadcast({ data: new Float64Array(product(p.shape)).fill(1), shape: p.shape }, o.shape, o.options);
        expect([...g.shape]).toEqual(o.shape);
        // Each element sums one gradient per output element it was read by.
        const reads = product(p.shape) / Math.max(1, product(o.shape));
        if (product(o.shape) > 0) expect(g.data[0]).toBe(reads);
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });
});

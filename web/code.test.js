// "Copy as code": tensorcast's snippet is run against the library and must
// reproduce the page's plan exactly; the NumPy snippet is run by Debian's
// python3-numpy when it is installed; the other frameworks' snippets are
// checked for the calls they must make, and for saying so where the
// framework has no such rule.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as tc from '../dist/node.js';
import { codeFor, jsBlock, jsKey, jsLiteral, pyTuple } from './code.js';
import {
  applyPatch, defaultState, buildRequest, dtypeList, EXAMPLES, exampleState, formatShape, backwardView, previewable, previewValues, backwardValues,
  PREVIEW_LIMIT,
} from './logic.js';

beforeAll(async () => { await tc.init(); });

const st = (patch) => applyPatch(defaultState(), patch);
const dtypeOf = (name) => dtypeList().find((d) => d.name === name);
function snippet(tab, state) {
  const built = buildRequest(state);
  const plan = built.ok ? tc.explain(built.request) : null;
  return { ...codeFor(tab, state, built, plan, dtypeOf(state.dtype)), built, plan };
}

// Run a tensorcast snippet: its import line becomes a destructuring of the
// library, the rest runs as written (top-level await inside an async
// function), with a console that records what it prints.
async function runTensorcast(code, lib = tc) {
  const body = code.replace(/^import \{([^}]*)\} from 'tensorcast';$/m, 'const {$1} = lib;');
  expect(body).not.toContain('import ');
  const logs = [];
  const console = { log: (...args) => logs.push(args.map(String).join(' ')) };
  const vars = [...body.matchAll(/^const ((?:axes|grad|plan|out)\w*) =/gm)].map((m) => m[1]);
  // eslint-disable-next-line no-new-func
  const run = new Function('lib', 'console', `return (async () => { ${body}\n; return { ${vars.join(', ')} }; })();`);
  const got = await run(lib, console);
  return { ...got, logs };
}

/** A printed tensor line `name (2,3) dims (x, t): 0 1 2 …` -> { name, shape, dims, values, all }. */
function parseLog(line) {
  const m = /^(\w+) \(([^)]*)\)(?: dims \(([^)]*)\))?: (.*)$/.exec(line);
  expect(m, line).not.toBeNull();
  const shape = m[2].split(',').filter((x) => x !== '').map(Number);
  const all = !m[4].endsWith(' …');
  const values = m[4].replace(/ …$/, '').split(' ').filter((x) => x !== '');
  return { name: m[1], shape, dims: m[3] === undefined ? undefined : m[3].split(', '), values, all };
}

/** The page's own values for a state: previewValues / backwardValues, as the data preview computes them. */
function pageValues(state) {
  const built = buildRequest(state);
  const plan = tc.explain(built.request);
  if (!plan.ok || !plan.static) return { built, plan, view: backwardView(built.request, plan), fwd: null, back: null };
  const fwd = previewValues(plan, built.request, state.dtype);
  const view = backwardView(built.request, plan);
  const back = backwardValues(plan, built.request, view, state.dtype);
  return { built, plan, view, fwd, back };
}

const states = [
  ...EXAMPLES.filter((e) => e.state.rule !== 'expression').map((e) => [e.id, exampleState(e)]), // expression mode: expression.test.js
  ['numpy 3 operands', st({ shapes: ['2, 1', '3', '1, 1, 1'] })],
  ['numpy clash', st({ shapes: ['4, 3', '7, 5'] })],
  ['none', st({ rule: 'none', shapes: ['2, 3', '2, 3'] })],
  ['pdpd -1', st({ rule: 'pdpd', shapes: ['2, 3, 4', '4, 1'] })],
  ['to-pdpd', st({ rule: 'to-pdpd', shapes: ['3, 1', '2, 3, 6'], axis: 1 })],
  ['named exact', st({ rule: 'named', shapes: ['', ''], names: ['X{x1,x2}', 'X{x1,x2}'], shaping: 'exact' })],
  ['int8', st({ shapes: ['2, 1', '3'], dtype: 'int8' })],
  ['bigint64', st({ shapes: ['2, 1', '3'], dtype: 'bigint64' })],
  ['scalar', st({ shapes: ['()', '2, 3'] })],
  ['huge', st({ shapes: ['9007199254740991, 9007199254740991', '1'] })],
  // Every rule and mode the page has, at preview size.
  ['pdpd dropped 1s', st({ rule: 'pdpd', shapes: ['2, 3', '3, 1, 1'], axis: 1 })],
  ['pdpd axis -1', st({ rule: 'pdpd', shapes: ['2, 3, 2', '3, 2'], axis: -1 })],
  ['to-numpy -1 small', st({ rule: 'to-numpy', shapes: ['3, 1', '2, -1, 4'] })],
  ['to-bidirectional grows', st({ rule: 'to-bidirectional', shapes: ['2, 1, 3', '4, 1'] })],
  ['to-explicit small', st({ rule: 'to-explicit', shapes: ['2', '3, 2, 2'], mapping: '1' })],
  ['named transposed', st({ rule: 'named', shapes: ['2, 3', '3, 2, 4'], names: ['x, t', 't, x, z'] })],
  ['named coords union', st({ rule: 'named', shapes: ['', '2'], names: ['X{x1,x2}', 'y'], shaping: 'union' })],
  ['named labels reorder', st({ rule: 'named', shapes: ['', '2, 3'], names: ['X{x1,x2,x3}', 'X{x2,x1}, t'] })],
  ['int8 wraps back', st({ shapes: ['8, 8', '8, 1'], dtype: 'int8' })],
  ['uint8clamped', st({ shapes: ['2, 1', '3'], dtype: 'uint8clamped' })],
  ['float64 mid-size', st({ shapes: ['20, 1', '1, 30'], dtype: 'float64' })],
  // A pdpd target 1 takes the input's dim (the code broadcasts to the result, not the target: until 0.9.15 NumPy refused it).
  ['to-pdpd target 1', st({ rule: 'to-pdpd', shapes: ['1, 4, 2', '1, 4, 1'] })],
  // An interval target whose result is static (the data call is given the result: until 0.9.15 it threw).
  ['to-pdpd interval target', st({ rule: 'to-pdpd', shapes: ['3', '1..3, 3'], axis: 0 })],
];

describe('tensorcast snippet: exactly the page\'s call', () => {
  it.each(states)('%s', async (_, state) => {
    const c = snippet('tensorcast', state);
    expect(c.lang).toBe('js');
    const { plan, out, logs } = await runTensorcast(c.code);
    // The plan the snippet computes is the one the page draws.
    expect(JSON.parse(JSON.stringify(plan))).toEqual(JSON.parse(JSON.stringify(c.plan)));
    expect(logs.length).toBe(1);
    if (out !== undefined) {
      expect([...out.shape]).toEqual(c.plan.shape);
      expect(out.data.constructor.name).toBe(dtypeOf(state.dtype).array);
      // It prints the data preview's values: the page's own previewValues.
      const { fwd } = pageValues(state);
      const printed = parseLog(logs[0]);
      expect(printed.name).toBe('out');
      expect(printed.shape).toEqual(c.plan.shape);
      const want = Array.from(fwd.output, String);
      expect(printed.values).toEqual(printed.all ? want : want.slice(0, 8));
      expect(printed.all).toBe(c.plan.size <= PREVIEW_LIMIT);
      expect(c.note).toMatch(/data preview's values/);
    } else {
      expect(logs[0]).toBe(c.plan.ok ? `result ${formatShape(c.plan.shape)}` : `${c.plan.error.code} ${c.plan.error.message}`);
    }
  });
  it('prints the request as a readable literal', () => {
    expect(snippet('tensorcast', st({})).code).toContain("explain({ rule: 'numpy', shapes: [[8, 1, 6, 1], [7, 1, 5]] })");
    expect(jsLiteral({ a: "it's", 'b-c': ['x', 1] })).toBe(`{ a: "it's", 'b-c': ['x', 1] }`);
    expect(jsLiteral({ q: 'say "hi"' })).toBe(`{ q: 'say "hi"' }`);
    expect(pyTuple([3])).toBe('(3,)');
    expect(pyTuple([])).toBe('()');
  });
  it('names the refusal when the plan fails', () => {
    expect(snippet('tensorcast', st({ shapes: ['3', '4'] })).code).toContain("plan.error.code: 'INCOMPATIBLE_DIMS'");
  });
  it('says why when the input does not parse', () => {
    const c = codeFor('tensorcast', st({ shapes: ['x', '3'] }), buildRequest(st({ shapes: ['x', '3'] })), null, dtypeOf('float32'));
    expect(c.code).toBeNull();
    expect(c.note).toMatch(/Fix the input/);
  });
});

/**
 * NumPy's or PyTorch's printout, `print(name, shape)` then `print(array)`:
 * { name: { shape, values } }, the values read as numbers, row-major.
 */
function parsePython(stdout) {
  const out = {};
  let cur = null;
  for (const line of stdout.split('\n')) {
    const m = /^(\w+) \(([^)]*)\)$/.exec(line);
    if (m) {
      cur = { shape: m[2].split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number), text: '' };
      out[m[1]] = cur;
    } else if (cur) cur.text += ` ${line}`;
  }
  for (const v of Object.values(out)) {
    v.values = v.text.replace(/[[\]]/g, ' ').split(/\s+/).filter((x) => x !== '').map(Number);
    delete v.text;
  }
  return out;
}

const python = '/usr/bin/python3';
const hasNumpy = existsSync(python) && spawnSync(python, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;
// NumPy has no uint8clamped (its twin, uint8, wraps): compared where no sum passes 255.
const npStates = states.filter(([name]) => name !== 'huge');

describe('NumPy snippet', () => {
  it.skipIf(!hasNumpy).each(npStates)('%s runs in NumPy and prints the page\'s shape and values', (_, state) => {
    const c = snippet('numpy', state);
    if (c.code === null) {
      expect(c.note).toMatch(/NumPy (has no|always)/);
      return;
    }
    const r = spawnSync(python, ['-c', c.code], { encoding: 'utf8', timeout: 30_000 });
    if (!c.plan.ok) {
      expect(r.status).not.toBe(0); // NumPy refuses too
      return;
    }
    expect(r.status, r.stderr).toBe(0);
    const got = parsePython(r.stdout);
    expect(Object.keys(got)).toEqual(['out']);
    expect(got.out.shape).toEqual(c.plan.shape);
    const { fwd } = pageValues(state);
    if (previewable(c.plan)) expect(got.out.values).toEqual(Array.from(fwd.output, Number));
    else expect(got.out.values.slice(0, 3)).toEqual(Array.from(fwd.output.subarray(0, 3), Number)); // NumPy summarises large arrays
    expect(previewable(c.plan) || c.plan.size > PREVIEW_LIMIT || !!c.plan.needsGather).toBe(true);
  });
  it.skipIf(!hasNumpy).each(npStates)('%s, backward: runs in NumPy and prints each operand\'s gradient as the page computes it', (_, state) => {
    const back = { ...state, backward: true };
    const c = snippet('numpy', back);
    const { view, back: values } = pageValues(state);
    if (c.code === null) {
      expect(c.note).toMatch(/NumPy (has no|always)|failed broadcast|too large/);
      return;
    }
    expect(view.ok).toBe(true);
    const r = spawnSync(python, ['-c', c.code], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const got = parsePython(r.stdout);
    expect(Object.keys(got)).toEqual(view.operands.map((o) => `grad_${o.name.toLowerCase()}`));
    view.operands.forEach((o, k) => {
      const g = got[`grad_${o.name.toLowerCase()}`];
      expect(g.shape, o.name).toEqual(o.shape);
      const want = Array.from(values.grads[k], Number);
      // At the preview's size every sum is exact; past it (float32 sums past 2^24) the order of the sum shows.
      const close = (x, y) => expect(Math.abs(x - y), `${o.name}: ${x} vs ${y}`).toBeLessThanOrEqual(previewable(c.plan) ? 0 : Math.abs(y) * 1e-6);
      if (g.values.length === want.length) g.values.forEach((x, i) => close(x, want[i]));
      else g.values.slice(0, 3).forEach((x, i) => close(x, want[i])); // NumPy summarises large arrays
    });
  });
  it('says where NumPy has no such rule', () => {
    expect(snippet('numpy', st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] })).note).toMatch(/NumPy has no named dims/);
    expect(snippet('numpy', st({ rule: 'none', shapes: ['2', '2'] })).note).toMatch(/NumPy always broadcasts/);
    expect(snippet('numpy', st({ shapes: ['?, 3', '3'] })).note).toMatch(/NumPy has no dynamic dims/);
    const p = snippet('numpy', st({ rule: 'pdpd', shapes: ['2, 3, 4, 5', '3, 1'], axis: 1 }));
    expect(p.note).toMatch(/NumPy has no PDPD/);
    expect(p.code).toContain('b.reshape((1, 3, 1, 1))');
    expect(snippet('numpy', st({ rule: 'pdpd', shapes: ['2, 3, 4, 5', '3, 1'], axis: 0 })).code).toBeNull();
    const m = snippet('numpy', exampleState(EXAMPLES.find((e) => e.id === 'mindspore')));
    expect(m.note).toMatch(/no −1/);
    expect(m.code).toContain('np.broadcast_to(x, (3, 1, 5, 6))');
  });
  it('maps the dtype', () => {
    expect(snippet('numpy', st({ shapes: ['2', '2'], dtype: 'bigint64' })).code).toContain('dtype=np.int64');
    expect(snippet('numpy', st({ shapes: ['2', '2'], dtype: 'uint8clamped' })).code).toMatch(/no twin here: uint8/);
  });
});

describe('PyTorch snippet', () => {
  it('the preview\'s data (arange per operand) and a printout of the result', () => {
    const c = snippet('torch', st({}));
    expect(c.code).toContain('a = torch.arange(48, dtype=torch.float32).reshape((8, 1, 6, 1))');
    expect(c.code).toContain('b = torch.arange(35, dtype=torch.float32).reshape((7, 1, 5))');
    expect(c.code).toContain('out = a + b');
    expect(c.code).toMatch(/print\('out', tuple\(out\.shape\)\)\nprint\(out\)$/);
    expect(c.code).not.toContain('zeros');
    const p = snippet('torch', exampleState(EXAMPLES.find((e) => e.id === 'pdpd')));
    expect(p.code).toContain('out = a + b.reshape((1, 3, 1, 1))');
    expect(p.code).toContain("print('out', tuple(out.shape))");
  });
  it('backward: sum_to_size per operand (the plan\'s alignment first where the rule does not right-align), printed', () => {
    const c = snippet('torch', { ...st({}), backward: true });
    expect(c.code).toContain('grad = torch.arange(1680, dtype=torch.float32).reshape((8, 7, 6, 5))');
    expect(c.code).toContain('grad_a = grad.sum_to_size((8, 1, 6, 1))');
    expect(c.code).toContain('grad_b = grad.sum_to_size((7, 1, 5))');
    expect(c.code).toContain("print('grad_b', tuple(grad_b.shape))\nprint(grad_b)");
    expect(c.note).toMatch(/sum_to_size/);
    const p = snippet('torch', { ...exampleState(EXAMPLES.find((e) => e.id === 'pdpd')), backward: true });
    expect(p.code).toContain('grad_a = grad.sum_to_size((2, 3, 4, 5))');
    expect(p.code).toContain('grad_b = grad.sum_to_size((1, 3, 1, 1)).reshape((3, 1))');
    const x = snippet('torch', { ...exampleState(EXAMPLES.find((e) => e.id === 'explicit')), backward: true });
    expect(x.code).toContain('grad_input = grad.sum_to_size((1, 16, 1, 1)).reshape((16,))');
    // Right-aligned already: sum_to_size takes the operand's own shape.
    expect(snippet('torch', { ...exampleState(EXAMPLES.find((e) => e.id === 'explicit-small')), backward: true }).code).toContain('grad_input = grad.sum_to_size((3, 1))');
    // Integers: torch sums them in int64; the page's dtype back.
    const i = snippet('torch', { ...st({ shapes: ['2, 1', '3'], dtype: 'int8' }), backward: true });
    expect(i.code).toContain('grad_a = grad.sum_to_size((2, 1)).to(grad.dtype)');
    expect(i.note).toMatch(/int64/);
    // The sums torch would compute are the page's: the same axes and values (checked against the page's own numbers).
    const v = pageValues(st({}));
    expect(v.view.operands[0].axes).toEqual([1, 3]);
    expect(snippet('torch', { ...st({ rule: 'none', shapes: ['2', '2'] }), backward: true }).note).toMatch(/PyTorch always broadcasts/);
    expect(snippet('torch', { ...st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] }), backward: true }).note).toMatch(/no broadcasting by name/);
    expect(snippet('torch', { ...st({ shapes: ['3', '4'] }), backward: true }).note).toMatch(/failed broadcast/);
  });
  it('expand keeps -1 (torch has it)', () => {
    const c = snippet('torch', exampleState(EXAMPLES.find((e) => e.id === 'mindspore')));
    expect(c.code).toContain('x.expand((-1, -1, 5, 6))');
  });
  it('explicit mapping via the plan\'s alignment, and no named broadcasting', () => {
    const c = snippet('torch', exampleState(EXAMPLES.find((e) => e.id === 'explicit')));
    expect(c.code).toContain('x.reshape((1, 16, 1, 1)).expand((1, 16, 50, 50))');
    expect(c.note).toBe('PyTorch has no axes mapping ([1]): the same result from PyTorch\'s own broadcasting once the input is reshaped as the plan aligns it.');
    expect(snippet('torch', st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] })).note).toMatch(/PyTorch has no broadcasting by name/);
  });
});

describe('OpenVINO snippet', () => {
  it('runs on the preview\'s data: compiled, arange per input, the result printed', () => {
    const c = snippet('openvino', st({ shapes: ['2, 1, 3', '2, 1'] }));
    expect(c.code).toContain('compiled = ov.Core().compile_model(ov.Model([out], [a, b]), "CPU")');
    expect(c.code).toContain('results = compiled([np.arange(6, dtype=np.float32).reshape((2, 1, 3)), np.arange(2, dtype=np.float32).reshape((2, 1))])');
    expect(c.code).toMatch(/print\('out', results\[0\]\.shape\)\nprint\(results\[0\]\)$/);
    expect(c.note).toMatch(/data preview's values/);
    const x = snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'explicit-small')));
    expect(x.code).toContain('results = compiled([np.arange(3, dtype=np.float32).reshape((3, 1))])');
    // PDPD in C++: the same data with std::iota, the result printed value by value.
    const p = snippet('openvino', st({ rule: 'pdpd', shapes: ['2, 3', '3'], axis: 1 }));
    expect(p.code).toContain('std::iota(b_data.begin(), b_data.end(), float(0));');
    expect(p.code).toContain('request.set_input_tensor(1, ov::Tensor(ov::element::f32, ov::Shape{3}, b_data.data()));');
    expect(p.code).toContain('std::cout << +result.data<float>()[i]');
    expect(p.code).toMatch(/^int main\(\) \{$/m);
    expect(snippet('openvino', st({ rule: 'pdpd', shapes: ['2, 3', '3'], axis: 1, dtype: 'int8' })).code).toContain('std::vector<int8_t> a_data(6);');
    // Dynamic dims: the shapes only, nothing to run.
    expect(snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'dynamic'))).code).not.toContain('compile_model');
  });
  it('backward: ReduceSum over the page\'s axes, then Reshape, run on the arange gradient', () => {
    const c = snippet('openvino', { ...st({}), backward: true });
    expect(c.lang).toBe('python');
    expect(c.code).toContain('grad = ops.parameter([8, 7, 6, 5], ov.Type.f32)');
    expect(c.code).toContain('grad_a = ops.reshape(ops.reduce_sum(grad, np.array([1, 3], dtype=np.int64), keep_dims=False), np.array([8, 1, 6, 1], dtype=np.int64), special_zero=False)');
    expect(c.code).toContain('compiled = ov.Core().compile_model(ov.Model([grad_a, grad_b], [grad]), "CPU")');
    expect(c.code).toContain('results = compiled([np.arange(1680, dtype=np.float32).reshape((8, 7, 6, 5))])');
    expect(c.code).toContain("print('grad_b', results[1].shape)\nprint(results[1])");
    expect(c.note).toMatch(/OpenVINO has no unbroadcast or sum_to_size: the way back is ReduceSum/);
    const p = snippet('openvino', { ...exampleState(EXAMPLES.find((e) => e.id === 'pdpd')), backward: true });
    expect(p.lang).toBe('python'); // the way back needs no PDPD op
    expect(p.code).toContain('grad_a = ops.reshape(grad, np.array([2, 3, 4, 5], dtype=np.int64), special_zero=False)');
    expect(snippet('openvino', { ...exampleState(EXAMPLES.find((e) => e.id === 'dynamic')), backward: true }).note).toMatch(/cannot tell which axes are summed/);
    expect(snippet('openvino', { ...st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] }), backward: true }).note).toMatch(/no named dims/);
    // shapes the library leaves unknown or dynamic (rule none with [...], a ? that is not summed): a note, no code
    // (until 0.9.23 an uncaught TypeError, and the panel kept the previous state's code)
    for (const shapes of [['[...]', '2'], ['[...]', '[...]'], ['?, 3', '?, 3']]) {
      const n = snippet('openvino', { ...st({ rule: 'none', shapes }), backward: true });
      expect(n.code).toBeNull();
      expect(n.note).toMatch(/dynamic|cannot tell|No backward view/);
    }
  });
  it('ops.add with auto_broadcast, Python API', () => {
    const c = snippet('openvino', st({}));
    expect(c.lang).toBe('python');
    expect(c.code).toContain('import openvino.opset13 as ops');
    expect(c.code).toContain('a = ops.parameter([8, 1, 6, 1], ov.Type.f32)');
    expect(c.code).toContain('out = ops.add(a, b, auto_broadcast="numpy")');
    expect(snippet('openvino', st({ rule: 'none', shapes: ['2', '2'] })).code).toContain('auto_broadcast="none"');
  });
  it('dynamic dims as ov.Dimension', () => {
    const c = snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'dynamic')));
    expect(c.code).toContain('ov.PartialShape([ov.Dimension(), ov.Dimension(3), ov.Dimension(1), ov.Dimension(2, 128)])');
  });
  it('Broadcast modes, and the PDPD axis in C++ (the Python API cannot set it)', () => {
    expect(snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'explicit'))).code)
      .toContain('ops.broadcast(x, np.array([1, 16, 50, 50], dtype=np.int64), np.array([1], dtype=np.int64), broadcast_spec="EXPLICIT")');
    expect(snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'bidirectional'))).code).toContain('broadcast_spec="BIDIRECTIONAL"');
    const p = snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'pdpd')));
    expect(p.lang).toBe('cpp');
    expect(p.code).toContain('ov::op::AutoBroadcastSpec(ov::op::AutoBroadcastType::PDPD, 1)');
    expect(p.note).toMatch(/Python ops\.add\(\) takes auto_broadcast by name only/);
    expect(snippet('openvino', st({ rule: 'to-pdpd', shapes: ['3, 1', '2, 3, 6'], axis: 1 })).code).toContain('ov::op::BroadcastModeSpec(ov::op::BroadcastType::PDPD, 1)');
    expect(snippet('openvino', st({ rule: 'named', shapes: ['2', '3'], names: ['x', 'y'] })).note).toMatch(/OpenVINO has no named dims/);
  });
  it('no -1 in target_shape: filled in from the plan', () => {
    const c = snippet('openvino', exampleState(EXAMPLES.find((e) => e.id === 'mindspore')));
    expect(c.code).toContain('np.array([3, 1, 5, 6], dtype=np.int64)');
    expect(formatShape(c.plan.shape)).toBe('(3,1,5,6)');
  });
  it('a −1 that keeps a dynamic input dim has no number to fill in: no code, and why (until 0.9.24 np.array([3, ?]), no Python)', () => {
    for (const [input, kept] of [['?', '?'], ['2..5', '2..5'], ['[...]', '?']]) {
      const c = snippet('openvino', st({ rule: 'to-numpy', shapes: [input, '3, -1'] }));
      expect(c.plan.ok).toBe(true);
      expect(c.plan.shape).toEqual([3, kept]);
      expect(c.code, input).toBeNull();
      expect(c.note).toMatch(/no −1 .* in target_shape, and the input's dim it keeps is not a number here/);
    }
  });
});

describe('PyTorch and OpenVINO (not installable here): the calls compute the page\'s axes and shapes', () => {
  const tuple = (t) => t.split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number);
  it.each(npStates)('%s', (_, state) => {
    const { plan, view, fwd } = pageValues(state);
    for (const tab of ['torch', 'openvino']) {
      const c = snippet(tab, state);
      if (c.code !== null && plan.ok && previewable(plan) && c.lang === 'python') {
        // Forward: one arange per input, of that input's size and shape.
        const ar = [...c.code.matchAll(/(?:np|torch)\.arange\((\d+), dtype=[\w.]+\)\.reshape\(\(([^)]*)\)\)/g)];
        expect(ar.map((m) => Number(m[1])), tab).toEqual(fwd.inputs.map((x) => x.length));
        expect(ar.map((m) => tuple(m[2])), tab).toEqual(plan.operands.map((o) => o.shape));
        expect(c.code, tab).toMatch(/print\((out|results\[0\])\)$/);
      }
      const b = snippet(tab, { ...state, backward: true });
      if (b.code === null || !view.ok) continue;
      const out = view.outShape;
      view.operands.forEach((o, k) => {
        const v = `grad_${o.name.toLowerCase()}`;
        if (tab === 'torch') {
          // sum_to_size(t) sums the axes NumPy's rule gives t against the gradient: the page's axes, then its shape.
          const m = new RegExp(`^${v} = grad\\.sum_to_size\\(\\(([^)]*)\\)\\)(?:\\.to\\(grad\\.dtype\\))?(?:\\.reshape\\(\\(([^)]*)\\)\\))?`, 'm').exec(b.code);
          expect(m, `${tab} ${v}`).not.toBeNull();
          const t = tuple(m[1]);
          // (an axis of size 1 in the gradient sums nothing: the library may list it, NumPy's rule does not)
          const real = (axes) => axes.filter((a) => out[a] !== 1);
          expect(real(tc.reductionAxes(t, out)), `${v} axes`).toEqual(real(o.axes));
          expect(m[2] === undefined ? t : tuple(m[2]), `${v} shape`).toEqual(o.shape);
          expect(b.code).toContain(`print('${v}', tuple(${v}.shape))\nprint(${v})`);
        } else {
          const m = new RegExp(`^${v} = ops\\.reshape\\((?:ops\\.reduce_sum\\(grad, np\\.array\\(\\[([^\\]]*)\\], dtype=np\\.int64\\), keep_dims=False\\)|grad), np\\.array\\(\\[([^\\]]*)\\], dtype=np\\.int64\\), special_zero=False\\)$`, 'm').exec(b.code);
          expect(m, `${tab} ${v}`).not.toBeNull();
          expect(m[1] === undefined ? [] : tuple(m[1]), `${v} axes`).toEqual(o.axes);
          expect(tuple(m[2]), `${v} shape`).toEqual(o.shape);
          expect(b.code).toContain(`print('${v}', results[${k}].shape)\nprint(results[${k}])`);
        }
      });
      expect(b.code).toContain(`${tab === 'torch' ? 'torch' : 'np'}.arange(${out.reduce((x, y) => x * y, 1)}, `);
    }
  });
});

describe('layout of long literals', () => {
  it('breaks a long request one key per line, still the same value', async () => {
    const { jsBlock } = await import('./code.js');
    const req = { rule: 'named', operands: [{ dims: ['X', 't'], shape: [2, 3], coords: { X: ['x1', 'x2'] } }, { dims: ['t'], shape: [3] }], shaping: 'union' };
    const text = jsBlock(req, 64);
    expect(text.split('\n').length).toBeGreaterThan(3);
    // eslint-disable-next-line no-new-func
    expect(new Function(`return ${text}`)()).toEqual(req);
    expect(jsBlock({ rule: 'numpy', shapes: [[2], [3]] }, 64)).toBe("{ rule: 'numpy', shapes: [[2], [3]] }");
  });
});

describe('backward: the unbroadcast() call for the current state', () => {
  // Run a backward snippet: every `const axesX` / `gradX` it declares, and what it prints.
  const runBackward = (code) => runTensorcast(code);
  const back = (state) => snippet('tensorcast', { ...state, backward: true });
  const view = (state) => {
    const b = buildRequest(state);
    return backwardView(b.request, tc.explain(b.request));
  };
  const named = (shapes, names, shaping = 'intersection') => st({ rule: 'named', shapes, names, shaping });
  const cases = [
    ...EXAMPLES.filter((e) => e.id !== 'clash' && e.state.rule !== 'expression').map((e) => [e.id, exampleState(e)]),
    ['numpy 3 operands', st({ shapes: ['2, 1', '3', '4, 1, 1'] })],
    ['none', st({ rule: 'none', shapes: ['2, 3', '2, 3'] })],
    ['to-pdpd', st({ rule: 'to-pdpd', shapes: ['3, 1', '2, 3, 6'], axis: 1 })],
    ['unknown rank', st({ shapes: ['[...]', '3'] })],
    ['to-numpy unknown rank', st({ rule: 'to-numpy', shapes: ['[...]', '2, 3'] })],
    ['named by name', named(['2, 3', '2'], ['x, t', 'x'])],
    ['named transposed', named(['2, 3', '3, 2, 4'], ['x, t', 't, x, z'])],
    ['named disjoint', named(['2', '3'], ['x', 'y'])],
    ['named labels, union', named(['', ''], ['X{x1,x2}', 'X{x2,x3}'], 'union')],
    ['named labels, intersection', named(['', '2, 3'], ['X{x1,x2,x3}', 'X{x2,x1}, t'])],
    ['named labels, transposed', named(['', '3, 2'], ['X{x1,x2}', 't, X{x2,x1}'])],
    ['named int16', { ...named(['2, 3', '3'], ['x, t', 't']), dtype: 'int16' }],
    ['bigint64', st({ shapes: ['2, 1', '3'], dtype: 'bigint64' })],
  ];
  it.each(cases)('%s: runs, and computes the axes the page shows', async (_, state) => {
    const c = back(state);
    expect(c.lang).toBe('js');
    expect(c.code).toMatch(/^import \{ init(, reductionAxes)?(, unbroadcast, formatShape)? \} from 'tensorcast';$/m);
    const v = view(state);
    expect(v.ok).toBe(true);
    const got = await runBackward(c.code);
    // What it prints is the backward data preview's values: the page's backwardValues, per operand.
    const withData = c.code.includes('unbroadcast(grad');
    const bv = withData && !c.code.includes('// const grad') ? pageValues(state).back : null;
    if (bv) {
      expect(got.logs.length).toBe(v.operands.length);
      v.operands.forEach((o, k) => {
        const printed = parseLog(got.logs[k]);
        expect(printed.name).toBe(`grad${o.name[0].toUpperCase()}${o.name.slice(1)}`);
        expect(printed.shape).toEqual(o.shape);
        if (o.dims) expect(printed.dims).toEqual(o.dims);
        const want = Array.from(bv.grads[k], String);
        expect(printed.values, o.name).toEqual(printed.all ? want : want.slice(0, 8));
      });
      expect(c.note).toMatch(/backward data preview/);
    }
    // Every positional operand the library answered for has its axes computed by the snippet.
    expect(Object.keys(got).filter((k) => k.startsWith('axes') && got[k] !== undefined).length).toBe(v.operands.filter((o) => !o.error && !o.dims).length);
    for (const o of v.operands) {
      const name = o.name[0].toUpperCase() + o.name.slice(1);
      if (o.error) {
        expect(c.code).toContain(`throws ${o.error.code}`);
        expect(c.code).toContain(o.error.message);
        expect(got[`axes${name}`]).toBeUndefined();
        continue;
      }
      if (o.dims) {
        // Named: unbroadcast by name, no axes mapping; the result is the operand (dims, shape, labels).
        expect(c.code).not.toMatch(/axesMapping|reductionAxes/);
        const g = got[`grad${name}`];
        expect(g, name).toBeDefined();
        expect(g.dims).toEqual(o.dims);
        expect([...g.shape]).toEqual(o.shape);
        expect(g.coords).toEqual(o.target.coords);
        expect(g.data.constructor.name).toBe(dtypeOf(state.dtype).array);
        continue;
      }
      expect(got[`axes${name}`], name).toEqual(o.axes);
      if (got[`grad${name}`]) expect([...got[`grad${name}`].shape]).toEqual(o.shape);
    }
  });
  it('the numpy example: unbroadcast per operand, with its axes', () => {
    const c = back(st({}));
    expect(c.code).toContain("import { init, reductionAxes, unbroadcast, formatShape } from 'tensorcast';");
    const a = tc.reductionAxes([8, 1, 6, 1], [8, 7, 6, 5]);
    expect(c.code).toContain(`const axesA = reductionAxes([8, 1, 6, 1], [8, 7, 6, 5]); // ${jsLiteral(a)}`);
    expect(c.code).toContain('const gradA = unbroadcast(grad, [8, 1, 6, 1]);');
    expect(c.code).toContain('const gradB = unbroadcast(grad, [7, 1, 5]);');
    expect(c.code).toContain('const grad = { data: Float32Array.from({ length: 1680 }, (_, i) => i), shape: [8, 7, 6, 5] };');
    expect(c.code).toContain("console.log(`gradA ${formatShape(gradA.shape)}: ${gradA.data.join(' ')}`);");
    expect(c.code).not.toContain('explain(');
    // Off: the forward snippet, unchanged.
    expect(snippet('tensorcast', st({})).code).toContain('explain(');
    expect(snippet('tensorcast', st({})).code).not.toContain('unbroadcast');
    // The other tabs follow the toggle: NumPy's sum over the same axes, then the reshape.
    const np = snippet('numpy', { ...st({}), backward: true }).code;
    expect(np).toContain('grad = np.arange(1680, dtype=np.float32).reshape((8, 7, 6, 5))');
    expect(np).toContain(`grad_a = grad.sum(axis=${pyTuple(a)}, dtype=grad.dtype).reshape((8, 1, 6, 1))`);
    expect(np).not.toContain('broadcast_shapes');
  });
  it('pdpd: B with the element-wise rule (type pdpd) at the axis, A as it is', () => {
    const c = back(exampleState(EXAMPLES.find((e) => e.id === 'pdpd')));
    expect(c.code).toContain("const gradB = unbroadcast(grad, [3, 1], { type: 'pdpd', axis: 1 });");
    expect(c.code).toContain('const gradA = unbroadcast(grad, [2, 3, 4, 5]);');
  });
  it('Broadcast op modes and −1 targets: the op\'s own options, against the result', () => {
    expect(back(exampleState(EXAMPLES.find((e) => e.id === 'explicit'))).code)
      .toContain("unbroadcast(grad, [16], { mode: 'explicit', axesMapping: [1] })");
    expect(back(exampleState(EXAMPLES.find((e) => e.id === 'bidirectional'))).code)
      .toContain("reductionAxes([3, 1], [2, 3, 6], { mode: 'bidirectional' })");
    const m = back(exampleState(EXAMPLES.find((e) => e.id === 'mindspore'))).code;
    expect(m).toContain('reductionAxes([3, 1, 5, 1], [3, 1, 5, 6])');
    expect(m).not.toContain('-1');
  });
  it('named: a named gradient and unbroadcast(grad, { dims, shape | coords }) per operand, transposes and labels included', async () => {
    const c = back(named(['2, 3', '2'], ['x, t', 'x']));
    expect(c.code).toContain("import { init, unbroadcast, formatShape } from 'tensorcast';");
    expect(c.code).toContain("const grad = { data: Float32Array.from({ length: 6 }, (_, i) => i), shape: [2, 3], dims: ['x', 't'] };");
    expect(c.code).toContain("const gradB = unbroadcast(grad, { dims: ['x'], shape: [2] }); // gradB.dims: ['x'], gradB.shape: [2]");
    expect(c.code).toContain("// B ['x']: sum over axes [1] (t).");
    expect(c.code).not.toMatch(/axesMapping|cannot|by hand/);
    expect(c.note).toMatch(/by name/);
    // A transposed operand: the library reorders it; the snippet says so and calls it like any other.
    const t = back(named(['2, 3', '3, 2, 4'], ['x, t', 't, x, z']));
    expect(t.code).toContain("const gradB = unbroadcast(grad, { dims: ['t', 'x', 'z'], shape: [3, 2, 4] });");
    expect(t.code).toContain('reorder to (t, x, z)');
    // Labels: the gradient carries the result's coords, an operand with labels goes as { dims, coords }.
    const l = back(named(['', ''], ['X{x1,x2}', 'X{x2,x3}'], 'union'));
    expect(l.code).toContain("const grad = { data: Float32Array.from({ length: 3 }, (_, i) => i), shape: [3], dims: ['X'], coords: { X: ['x1', 'x2', 'x3'] } };");
    expect(l.code).toContain("const gradB = unbroadcast(grad, { dims: ['X'], coords: { X: ['x2', 'x3'] } });");
    const got = await runBackward(l.code);
    expect([...got.gradB.data]).toEqual([1, 2]); // B's labels picked from the result's (x2, x3 of arange 0 1 2)
    expect(got.logs).toContain('gradB (2,) dims (X): 1 2');
    expect(got.gradB.coords).toEqual({ X: ['x2', 'x3'] });
  });
  it('dynamic dims: the library\'s refusal instead of a call; a failed plan has no way back', () => {
    const c = back(exampleState(EXAMPLES.find((e) => e.id === 'dynamic')));
    expect(c.code).toMatch(/throws INCOMPATIBLE_DIMS/);
    expect(c.code).toMatch(/whether axis 0 is summed is not known/);
    expect(c.code).not.toContain('unbroadcast(');
    // An unknown rank: the library's own words for it.
    const u = back(st({ shapes: ['[...]', '3'] }));
    expect(u.code).toMatch(/throws RANK_MISMATCH/);
    expect(u.code).toMatch(/which axes are summed is not known: the input's rank is unknown/);
    expect(u.code).toMatch(/the output's rank is unknown/);
    const f = back(st({ shapes: ['3', '4'] }));
    expect(f.code).toBeNull();
    expect(f.note).toMatch(/failed broadcast/);
  });
});

describe('dim names that are not identifiers: every key the snippets write is an own key', () => {
  // `{ __proto__: v }` (and `{ '__proto__': v }`) set a literal's prototype
  // instead of adding a key, so a copied snippet would hand the library other
  // coords than the page did. Names a person may type: `__proto__`,
  // Object.prototype's members, quotes, digits, and (built by hand, as the
  // parser splits on spaces) a space.
  const DIMS = ['__proto__', 'constructor', 'a b', '1'];
  const LABELS = [['p1', 'p2'], ['c1', 'c2', 'c3'], ['s'], ['u', 'v']];
  const coordsOf = (dims, labels) => Object.fromEntries(dims.map((d, i) => [d, labels[i]]));
  const expectOwn = (obj, want) => {
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(Object.keys(obj).sort()).toEqual(Object.keys(want).sort());
    for (const k of Object.keys(want)) {
      expect(Object.hasOwn(obj, k), k).toBe(true);
      expect(obj[k], k).toEqual(want[k]);
    }
  };
  // The library with its entry points recording what the snippet hands them.
  function recording() {
    const calls = [];
    const lib = { ...tc };
    for (const fn of ['explain', 'add', 'unbroadcast']) lib[fn] = (...args) => { calls.push({ fn, args }); return tc[fn](...args); };
    return { lib, calls };
  }
  const hand = () => {
    const request = {
      rule: 'named',
      operands: [
        { dims: DIMS, coords: coordsOf(DIMS, LABELS) },
        { dims: ['1', '__proto__', 'toString'], shape: [2, 2, 4], coords: coordsOf(['__proto__'], [['p1', 'p2']]) },
      ],
      shaping: 'union',
    };
    const built = { ok: true, request };
    const plan = tc.explain(request);
    const state = st({ rule: 'named', shaping: 'union' });
    return { request, built, plan, state };
  };

  it('keys: bare identifiers, quoted others, a computed key for __proto__', () => {
    expect(jsKey('x')).toBe('x');
    expect(jsKey('constructor')).toBe('constructor');
    expect(jsKey('toString')).toBe('toString');
    expect(jsKey('$a_1')).toBe('$a_1');
    expect(jsKey('__proto__')).toBe("['__proto__']");
    expect(jsKey('a b')).toBe("'a b'");
    expect(jsKey('1')).toBe("'1'");
    expect(jsKey("it's")).toBe(`"it's"`);
    expect(jsKey('say"hi"')).toBe(`'say"hi"'`);
    const want = coordsOf([...DIMS, "it's", 'say"hi"', 'back\\slash'], [...LABELS, ['q'], ['h'], ['b']]);
    const flat = jsLiteral({ coords: want });
    expect(flat).toContain("['__proto__']: ['p1', 'p2']");
    expect(flat).toContain("constructor: ['c1', 'c2', 'c3']");
    expect(flat).not.toMatch(/[{,] '?__proto__'?:/);
    const block = jsBlock({ coords: want }, 20);
    expect(block.split('\n').length).toBeGreaterThan(3);
    for (const text of [flat, block]) {
      // eslint-disable-next-line no-new-func
      const got = new Function(`return ${text}`)();
      expectOwn(got, { coords: want });
      expectOwn(got.coords, want);
    }
  });

  it('tensorcast: the request and the data operands the snippet builds are the page\'s, own keys and all', async () => {
    const { request, built, plan, state } = hand();
    expect(plan.ok).toBe(true);
    const c = codeFor('tensorcast', state, built, plan, dtypeOf('float32'));
    expect(c.code).toContain("['__proto__']: ['p1', 'p2']");
    expect(c.code).toContain("'a b': ['s']");
    expect(c.code).toContain("'1': ['u', 'v']");
    const { lib, calls } = recording();
    const got = await runTensorcast(c.code, lib);
    expect(JSON.parse(JSON.stringify(got.plan))).toEqual(JSON.parse(JSON.stringify(plan)));
    expect([...got.out.shape]).toEqual(plan.shape);
    const sent = calls.find((x) => x.fn === 'explain').args[0];
    const added = calls.find((x) => x.fn === 'add').args;
    request.operands.forEach((op, k) => {
      expectOwn(sent.operands[k].coords, op.coords);
      expect(sent.operands[k].dims).toEqual(op.dims);
      expectOwn(added[k].coords, op.coords);
      expect(added[k].dims).toEqual(op.dims);
    });
    expect(Object.keys(sent.operands[0].coords)).toContain('__proto__');
  });

  it('tensorcast, backward: the targets handed to unbroadcast() keep __proto__ as an own key', async () => {
    const { request, built, plan, state } = hand();
    const c = codeFor('tensorcast', { ...state, backward: true }, built, plan, dtypeOf('float32'));
    expect(c.code).toContain("['__proto__']: ['p1', 'p2']");
    const { lib, calls } = recording();
    const body = c.code.replace(/^import \{([^}]*)\} from 'tensorcast';$/m, 'const {$1} = lib;');
    // eslint-disable-next-line no-new-func
    await new Function('lib', `return (async () => { ${body}\n; })();`)(lib);
    const targets = calls.filter((x) => x.fn === 'unbroadcast').map((x) => x.args[1]);
    expect(targets.length).toBe(2);
    targets.forEach((t, k) => {
      expect(t.dims).toEqual(request.operands[k].dims);
      expectOwn(t.coords, request.operands[k].coords);
    });
  });

  it('typed names: the parsed coords keep __proto__ as an own key, and constructor is not taken for labels', async () => {
    const state = st({ rule: 'named', shapes: ['', '2, 2, 4'], names: ["__proto__{p1,p2}, constructor{c1,c2,c3}, it's{s}, 1{u,v}", '1{u,v}, __proto__{p1,p2}, toString'], shaping: 'union' });
    const c = snippet('tensorcast', state);
    expect(c.built.ok).toBe(true);
    expect(c.plan.ok).toBe(true);
    expect(c.plan.shape).toEqual([2, 3, 1, 2, 4]);
    const coords = c.built.request.operands[0].coords;
    expectOwn(coords, coordsOf(['__proto__', 'constructor', "it's", '1'], LABELS));
    const { lib, calls } = recording();
    const got = await runTensorcast(c.code, lib);
    expect(JSON.parse(JSON.stringify(got.plan))).toEqual(JSON.parse(JSON.stringify(c.plan)));
    expectOwn(calls.find((x) => x.fn === 'explain').args[0].operands[0].coords, coords);
    // An unlabelled `constructor` or `toString` is no labelled dim: the shape is still needed.
    expect(buildRequest(st({ rule: 'named', shapes: ['', '2'], names: ['x{x1}, constructor', 'x'] })).ok).toBe(false);
    expect(buildRequest(st({ rule: 'named', shapes: ['', '2'], names: ['toString, x{x1}', 'x'] })).ok).toBe(false);
  });

  it('NumPy, PyTorch, OpenVINO: no named dims, so no code and no name written unquoted', () => {
    const state = st({ rule: 'named', shapes: ['', '2, 2, 4'], names: ["__proto__{p1,p2}, constructor{c1,c2,c3}, it's{s}, 1{u,v}", '1{u,v}, __proto__{p1,p2}, toString'] });
    for (const tab of ['numpy', 'torch', 'openvino']) {
      const c = snippet(tab, state);
      expect(c.lang, tab).toBe('python');
      expect(c.code, tab).toBeNull();
      expect(c.note, tab).toMatch(/no (named dims|broadcasting by name)/);
      expect(c.note, tab).not.toMatch(/__proto__|constructor|toString|it's/);
    }
  });
});

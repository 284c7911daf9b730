// inferShapes on OpenVINO IR the fuzzer broke: what a file says badly is a
// node's error or a TypeError for the whole file, never an accidental throw
// and never a silent answer. Each test fails on the reader before its fix.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/tensorcast-model-node.js';

beforeAll(async () => { await tc.init(); });

function layer(id, type, { data = null, inputs = [], outputs = [], name = `${type}_${id}`, inner = '' } = {}) {
  const port = (p, dims) => `<port id="${p}" precision="FP32">${dims.map((d) => `<dim>${d}</dim>`).join('')}</port>`;
  return `<layer id="${id}" name="${name}" type="${type}" version="opset1">${data ? `<data ${Object.entries(data).map(([k, v]) => `${k}="${v}"`).join(' ')}/>` : ''}`
    + (inputs.length ? `<input>${inputs.map((d, k) => port(k, d)).join('')}</input>` : '')
    + (outputs.length ? `<output>${outputs.map((d, k) => port(inputs.length + k, d)).join('')}</output>` : '')
    + `${inner}</layer>`;
}
const ir = (layers, edges = '') => `<?xml version="1.0"?>\n<net name="m" version="11"><layers>${layers.join('')}</layers><edges>${edges}</edges><rt_info/></net>`;
const add = (options) => layer(1, 'Add', { inputs: [[2, 3], [3]], outputs: [[2, 3]], ...options });
const only = (xml) => tc.inferShapes(xml).nodes[0];

describe('OpenVINO IR: what the file says badly', () => {
  it('a declared output that differs names the first axis where the dims really differ', () => {
    const n = only(ir([add({ inputs: [[-1, 3], [3]], outputs: [[2, 4]] })]));
    expect(n.status).toBe('declared-mismatch');
    expect(n.error).toMatchObject({ code: 'SHAPE_MISMATCH', axis: 1, dims: [3, 4] });
    expect(n.error.message).toBe('Add_1: the rule gives 3 at output axis 1, the file records 4');
    // '?' and intervals match any number, on either side
    expect(only(ir([add({ inputs: [['1..4', 3], [3]], outputs: [[2, 5]] })])).error).toMatchObject({ axis: 1, dims: [3, 5] });
  });

  it('a character reference to no character is a TypeError naming it; good ones are read', () => {
    // XML's Char also leaves out 0, the other control characters, the surrogates, 0xFFFE and 0xFFFF (until 0.9.18 read)
    for (const ref of ['&#99999999;', '&#x110000;', '&#1000000000000000000000;', '&#0;', '&#x1F;', '&#xD800;', '&#57343;', '&#xFFFE;']) {
      expect(() => tc.inferShapes(ir([add({ name: `a${ref}` })]))).toThrow(new TypeError(`inferShapes: not an OpenVINO IR (${ref} is no character)`));
    }
    expect(only(ir([add({ name: '&#65;&#x42;&lt;&amp;' })])).name).toBe('AB<&');
    expect(only(ir([add({ name: '&#9;&#xE000;&#x10FFFF;' })])).name).toBe('\t\uE000\u{10FFFF}');
    expect(tc.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
  });

  it('bodies nested thousands deep are read, in the order of a recursive walk', () => {
    const depth = 5000;
    const deep = ir(['<layer id="1" name="l" type="Loop"><body><layers>'.repeat(depth) + add() + '</layers></body></layer>'.repeat(depth)]);
    const r = tc.inferShapes(deep);
    expect(r.coverage.nodes).toBe(depth + 1);
    expect(r.nodes).toHaveLength(1);
    expect(r.nodes[0].graph.split('/')).toHaveLength(depth + 1);
    // a layer's bodies come before it, and before the layers after it
    const loop = layer(2, 'Loop', { inner: `<body><layers>${layer(0, 'Multiply', { inputs: [[3], [3]], outputs: [[3]] })}</layers></body>` });
    const flat = tc.inferShapes(ir([add(), loop, layer(3, 'Subtract', { inputs: [[3], [1]], outputs: [[3]] })]));
    expect(flat.nodes.map((n) => [n.graph, n.index, n.opType])).toEqual([['m', 0, 'Add'], ['m/Loop_2.body', 0, 'Multiply'], ['m', 2, 'Subtract']]);
  });

  it('a dim that is no integer from 0, -1, ? or an interval is INVALID_SHAPE at its node, as in ONNX', () => {
    const n = only(ir([add({ inputs: [[-5, 3], [3]], outputs: [[-5, 3]] })]));
    expect(n.status).toBe('clash');
    expect(n.error).toMatchObject({ name: 'BroadcastError', code: 'INVALID_SHAPE', axis: 0, dims: ['-5'] });
    expect(n.error.message).toContain('port 0 records dim -5 at axis 0');
    // past 2^53 a dim would be rounded: refused, its text quoted as the file writes it (until 0.9.18 rounded in the message)
    for (const bad of ['1.5', 'abc', '1e3', '0x10', '-2..4', '1152921504606846976']) {
      expect(only(ir([add({ inputs: [[2, 3], [3]], outputs: [[bad, 3]] })])).error, bad).toMatchObject({ code: 'INVALID_SHAPE', axis: 0, dims: [bad] });
    }
    const good = only(ir([add({ inputs: [[-1, 3], ['?', 1, 3]], outputs: [['?', '2..', 3]] })]));
    expect(good.status).toBe('ok');
    expect(good.output.shape).toEqual(['?', '?', 3]);
  });

  it('auto_broadcast: explicit is none, the case is free, anything else is refused at its node', () => {
    const rule = (value, inputs = [[2, 3], [2, 3]]) => only(ir([add({ data: { auto_broadcast: value }, inputs })]));
    expect(rule('explicit')).toMatchObject({ status: 'ok', rule: 'none' });
    expect(rule('explicit', [[2, 3], [3]]).status).toBe('clash');
    expect(rule('NumPy', [[2, 3], [3]])).toMatchObject({ status: 'ok', rule: 'numpy' });
    for (const value of ['bogus', '', 'constructor']) {
      const n = rule(value);
      expect(n, value).toMatchObject({ status: 'clash', rule: value, error: { name: 'TypeError', code: null } });
      expect(n.error.message).toBe(`Add_1: auto_broadcast "${value}" is not none, explicit, numpy or pdpd`);
    }
  });

  it('the pdpd axis is auto_broadcast_axis, 0 when absent or empty, as OpenVINO reads it (until 0.9.23 axis, -1 when absent); one that is no integer is refused', () => {
    const pdpd = (data, inputs) => only(ir([add({ data: { auto_broadcast: 'pdpd', ...data }, inputs, outputs: [inputs[0]] })]));
    expect(pdpd({ auto_broadcast_axis: 1 }, [[2, 3, 4, 5], [3, 4]])).toMatchObject({ status: 'ok', rule: 'pdpd(axis=1)', output: { shape: [2, 3, 4, 5] } });
    for (const data of [{}, { auto_broadcast_axis: '' }]) {
      expect(pdpd(data, [[2, 3], [2]]), JSON.stringify(data)).toMatchObject({ status: 'ok', rule: 'pdpd(axis=0)' });
      expect(pdpd(data, [[2, 3], [3]]).status, JSON.stringify(data)).toBe('clash'); // the suffix placement took it
    }
    // axis is no attribute of an element-wise op: OpenVINO leaves it unread, and so the axis 0
    expect(pdpd({ axis: 1 }, [[2, 3, 4], [2, 3]])).toMatchObject({ status: 'ok', rule: 'pdpd(axis=0)' });
    expect(pdpd({ axis: 1 }, [[2, 3, 4, 5], [3, 4]]).status).toBe('clash');
    expect(pdpd({ axis: 'x' }, [[2, 3], [2]]).status).toBe('ok');
    for (const axis of ['x', '1.5', '1e0']) {
      expect(pdpd({ auto_broadcast_axis: axis }, [[2, 3], [3]]).error, axis)
        .toMatchObject({ code: 'INVALID_AXIS', message: `Add_1: auto_broadcast_axis "${axis}" is not an integer` });
    }
    // read only under pdpd
    expect(only(ir([add({ data: { auto_broadcast: 'numpy', auto_broadcast_axis: 'x' } })])).status).toBe('ok');
    // the name with its visitor context, as OpenVINO's attribute visitor joins it; the plain name first
    expect(pdpd({ 'auto_broadcast.auto_broadcast_axis': 1 }, [[2, 3, 4, 5], [3, 4]])).toMatchObject({ status: 'ok', rule: 'pdpd(axis=1)' });
    expect(pdpd({ auto_broadcast_axis: 0, 'auto_broadcast.auto_broadcast_axis': 1 }, [[2, 3], [2]])).toMatchObject({ status: 'ok', rule: 'pdpd(axis=0)' });
  });

  it('a layer without the input ports its op takes is a node error naming it', () => {
    const n = only(ir(['<layer id="1" name="a" type="Add"/>']));
    expect(n).toMatchObject({ name: 'a', status: 'clash', error: { name: 'TypeError', code: null } });
    expect(n.error.message).toBe('a: Add takes 2 inputs; the file records 0');
    const bc = only(ir([layer(1, 'Broadcast', { data: { mode: 'numpy' }, inputs: [[3]], outputs: [[2, 3]] })]));
    expect(bc.error.message).toBe('Broadcast_1: Broadcast takes 2 inputs; the file records 1');
    const select = only(ir([layer(1, 'Select', { inputs: [[2], [2]], outputs: [[2]] })]));
    expect(select.error.message).toBe('Select_1: Select takes 3 inputs; the file records 2');
    // Broadcast-3 in explicit mode takes its axes_mapping too: OpenVINO refuses the layer without it (until 0.9.24 unknown)
    const bc3 = only(ir([layer(1, 'Broadcast', { data: { mode: 'explicit' }, inputs: [[3], [2]], outputs: [[2, 3]] }).replace('opset1', 'opset3')]));
    expect(bc3).toMatchObject({ status: 'clash', rule: 'broadcastTo explicit', error: { name: 'TypeError', code: null } });
    expect(bc3.error.message).toBe('Broadcast_1: Broadcast-3 takes 3 inputs in explicit mode (its axes_mapping); the file records 2');
  });

  it('Select with pdpd: else into then one way, then the condition, as OpenVINO\'s select shape inference (until 0.9.16 numpy over all three)', () => {
    const sel = (inputs, outputs, data) => only(ir([layer(1, 'Select', { data, inputs, outputs })]));
    // else may not enlarge then under pdpd (numpy took it)
    expect(sel([[2, 3], [1, 3], [2, 3]], [[2, 3]], { auto_broadcast: 'pdpd' }).status).toBe('clash');
    // else [3] at axis 1 of then [2,3,4], the condition too (numpy refused 4 vs 3)
    const at1 = { auto_broadcast: 'pdpd', auto_broadcast_axis: 1 };
    expect(sel([[3], [2, 3, 4], [3]], [[2, 3, 4]], at1)).toMatchObject({ status: 'ok', output: { shape: [2, 3, 4] } });
    expect(sel([[4], [2, 3, 4], [3]], [[2, 3, 4]], at1).status).toBe('clash');
    // a shape placed at axis 1 of one of its own rank runs past it: refused, equal or not (until 0.9.23
    // equal shapes merged whatever the axis); at axis 0, the default, it merges
    expect(sel([[3], [2, 3, 4], [2, 3, 4]], [[2, 3, 4]], at1).status).toBe('clash');
    expect(sel([[2, 3, 4], [2, 3, 4], [3]], [[2, 3, 4]], at1).status).toBe('clash');
    expect(sel([[2, 3, 4], [2, 3, 4], [2, 3, 4]], [[2, 3, 4]], { auto_broadcast: 'pdpd' })).toMatchObject({ status: 'ok', rule: 'pdpd(axis=0)' });
  });

  it('layers inside an If\'s then_body and else_body are checked, as a Loop\'s body is (until 0.9.16 never)', () => {
    const body = (tag, name) => `<${tag}><layers>${layer(0, 'Add', { name, inputs: [[2, 3], [4]], outputs: [[2, 3]] })}</layers></${tag}>`;
    const r = tc.inferShapes(ir([layer(1, 'If', { name: 'cf', inner: body('then_body', 'addT') + body('else_body', 'addE') })]));
    expect(r.nodes.map((n) => [n.graph, n.name, n.status])).toEqual([['m/cf.then_body', 'addT', 'clash'], ['m/cf.else_body', 'addE', 'clash']]);
  });

  it('Broadcast: mode none is explicit (OpenVINO reads it so), Broadcast-1 has no bidirectional, an unknown mode names the layer', () => {
    const bc = (mode) => only(ir([layer(1, 'Broadcast', { data: { mode }, inputs: [[3, 1], [3]], outputs: [[2, 3, 5]] })]));
    const mapped = only(ir([layer(1, 'Broadcast', { data: { mode: 'none' }, inputs: [[3, 1], [3], [2]], outputs: [[2, 3, 5]] })]));
    expect(mapped).toMatchObject({ rule: 'broadcastTo explicit', status: 'unknown' }); // its mapping is not known without the .bin
    for (const mode of ['bogus', '', 'bidirectional']) {
      expect(bc(mode), mode).toMatchObject({ status: 'clash', error: { name: 'TypeError', message: `Broadcast_1: Broadcast-1 has no mode "${mode}"` } });
    }
  });

  it('a Const is as many elements as its shape says, and a negative size is no values (until 0.9.16 size\'s count, and a RangeError)', () => {
    const bin = new Uint8Array(24);
    const dv = new DataView(bin.buffer);
    [2, 3, 6].forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
    const konst = (shape, size) => `<layer id="1" name="t" type="Const" version="opset1"><data element_type="i64" shape="${shape}" offset="0" size="${size}"/><output><port id="0" precision="I64"><dim>${shape || 1}</dim></port></output></layer>`;
    const bc = layer(3, 'Broadcast', { data: { mode: 'numpy' }, inputs: [[3, 1], [2]], outputs: [[2, 3]], name: 'bc' });
    const edge = '<edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>';
    // shape 2 of 24 bytes: the target [2, 3]; (3,1) to it clashes, as OpenVINO refuses it (size's three values gave [2,3,6])
    expect(tc.inferShapes(ir([konst('2', 24), bc], edge), { bin }).nodes[0]).toMatchObject({ status: 'clash', request: { shapes: [[3, 1], [2, 3]] } });
    const neg = tc.inferShapes(ir([konst('3', -8), bc], edge), { bin }).nodes[0]; // read, not thrown
    expect(neg).toMatchObject({ request: { shapes: [[3, 1], [2, 3]] } }); // no values: the output port [2, 3] stands for the target
  });

  it('a Broadcast mode is read in any case, as auto_broadcast is', () => {
    const n = only(ir([layer(1, 'Broadcast', { data: { mode: 'NUMPY' }, inputs: [[3, 1], [2]], outputs: [[3, 4]] })]));
    expect([n.status, n.rule, n.output.shape]).toEqual(['ok', 'broadcastTo numpy', [3, 4]]);
  });

  /** A Broadcast of a [data] input to the i64 Const `target` (and `mapping`), in the .bin; its version and mode data given. */
  function broadcast(version, data, dims, target, out, mapping) {
    const values = [...target, ...(mapping ?? [])];
    const bin = new Uint8Array(values.length * 8);
    values.forEach((v, i) => new DataView(bin.buffer).setBigInt64(i * 8, BigInt(v), true));
    const konst = (id, offset, n) => `<layer id="${id}" name="c${id}" type="Const" version="opset1"><data element_type="i64" shape="${n}" offset="${offset}" size="${n * 8}"/><output><port id="0" precision="I64"><dim>${n}</dim></port></output></layer>`;
    const inputs = [dims, [target.length], ...(mapping ? [[mapping.length]] : [])];
    const bc = layer(3, 'Broadcast', { data, inputs, outputs: [out], name: 'bc' }).replace('version="opset1"', `version="${version}"`);
    const edges = '<edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>' + (mapping ? '<edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>' : '');
    const layers = [konst(1, 0, target.length), ...(mapping ? [konst(2, target.length * 8, mapping.length)] : []), bc];
    return tc.inferShapes(ir(layers, edges), { bin }).nodes[0];
  }

  it('Broadcast pdpd: Broadcast-1 places the data at auto_broadcast_axis, Broadcast-3 at axis, each 0 when absent (until 0.9.23 axis for both, -1 when absent)', () => {
    expect(broadcast('opset1', { mode: 'pdpd', auto_broadcast_axis: 1 }, [3], [2, 3, 6], [2, 3, 6])).toMatchObject({ status: 'ok', output: { shape: [2, 3, 6] } });
    expect(broadcast('opset1', { mode: 'pdpd', axis: 1 }, [3], [2, 3, 6], [2, 3, 6]).status).toBe('clash'); // axis 0: 3 vs 2
    expect(broadcast('opset1', { mode: 'pdpd' }, [2], [2, 3, 6], [2, 3, 6]).status).toBe('ok');
    expect(broadcast('opset3', { mode: 'pdpd', axis: 1 }, [3], [2, 3, 6], [2, 3, 6]).status).toBe('ok');
    expect(broadcast('opset3', { mode: 'pdpd', auto_broadcast_axis: 1 }, [3], [2, 3, 6], [2, 3, 6]).status).toBe('clash');
    expect(broadcast('opset3', { mode: 'pdpd' }, [6], [2, 3, 6], [2, 3, 6]).status).toBe('clash'); // the suffix placement took it
    expect(broadcast('opset3', { mode: 'pdpd', axis: 'x' }, [3], [2, 3, 6], [2, 3, 6]).error)
      .toMatchObject({ code: 'INVALID_AXIS', message: 'bc: axis "x" is not an integer' });
  });

  it('Broadcast-1 explicit (or none) with no axes_mapping input is numpy, as OpenVINO\'s Broadcast-1 takes it (until 0.9.23 unknown)', () => {
    for (const mode of ['explicit', 'none']) {
      expect(broadcast('opset1', { mode }, [3], [2, 3], [2, 3]), mode).toMatchObject({ status: 'ok', rule: 'broadcastTo numpy', output: { shape: [2, 3] } });
      expect(broadcast('opset1', { mode }, [4], [2, 3], [2, 3]).status, mode).toBe('clash');
    }
    // with its axes_mapping it stays explicit; Broadcast-3 has no such reading
    expect(broadcast('opset1', { mode: 'explicit' }, [3], [2, 3], [2, 3], [1])).toMatchObject({ status: 'ok', rule: 'broadcastTo explicit' });
    expect(broadcast('opset3', { mode: 'explicit' }, [3], [2, 3], [2, 3])).toMatchObject({ status: 'clash', rule: 'broadcastTo explicit' });
  });

  it('Broadcast-3 with a third input in a mode other than explicit is refused, as OpenVINO refuses it (until 0.9.28 ok, the input ignored)', () => {
    for (const mode of ['numpy', 'bidirectional', 'pdpd']) {
      const n = broadcast('opset3', { mode }, [2, 3], [2, 3], [2, 3], [0, 1]);
      expect(n, mode).toMatchObject({ status: 'clash', rule: `broadcastTo ${mode}`, error: { name: 'TypeError', code: null } });
      expect(n.error.message).toBe(`bc: Broadcast-3 takes at most 2 inputs in ${mode} mode (an axes_mapping only in explicit mode); the file records 3`);
      expect(broadcast('opset3', { mode }, [2, 3], [2, 3], [2, 3]).status, mode).toBe('ok');
    }
    // Broadcast-1 takes a third input in any mode
    expect(broadcast('opset1', { mode: 'numpy' }, [3], [2, 3], [2, 3], [1])).toMatchObject({ status: 'ok', rule: 'broadcastTo numpy' });
    const four = only(ir([layer(1, 'Broadcast', { data: { mode: 'explicit' }, inputs: [[3], [2], [1], [1]], outputs: [[2, 3]] })]));
    expect(four.error.message).toBe('Broadcast_1: Broadcast-1 takes at most 3 inputs; the file records 4');
  });

  it('a Broadcast target_shape, or explicit axes_mapping, of a rank other than 1 is refused, as OpenVINO refuses it (until 0.9.28 its values were read flat)', () => {
    const bin = new Uint8Array(24);
    [2, 3, 1].forEach((v, i) => new DataView(bin.buffer).setBigInt64(i * 8, BigInt(v), true));
    const konst = (id, shape, offset, dims) => `<layer id="${id}" name="c${id}" type="Const" version="opset1"><data element_type="i64" shape="${shape}" offset="${offset}" size="${dims.reduce((p, d) => p * d, 1) * 8}"/><output><port id="0" precision="I64">${dims.map((d) => `<dim>${d}</dim>`).join('')}</port></output></layer>`;
    const edges = '<edge from-layer="1" from-port="0" to-layer="3" to-port="1"/><edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>';
    const run = (mode, target, mapping) => tc.inferShapes(ir([konst(1, target.join(','), 0, target), konst(2, mapping.join(','), 16, mapping),
      layer(3, 'Broadcast', { data: { mode }, inputs: [[3], target, ...(mode === 'explicit' ? [mapping] : [])], outputs: [[2, 3]], name: 'bc' }).replace('opset1', 'opset3')], edges), { bin }).nodes[0];
    const two = run('numpy', [1, 2], [1]);
    expect(two).toMatchObject({ status: 'clash', error: { name: 'TypeError', code: null, message: 'bc: target_shape (port 1) has rank 2, not 1' } });
    expect(run('explicit', [2], [1, 1]).error.message).toBe('bc: axes_mapping (port 2) has rank 2, not 1');
    expect(run('explicit', [2], [1])).toMatchObject({ status: 'ok', output: { shape: [2, 3] } });
    expect(run('numpy', [2], [1])).toMatchObject({ status: 'ok', output: { shape: [2, 3] } });
  });

  it('a scalar under a one-entry axes_mapping takes a target dim of 1 there, as OpenVINO checks it (until 0.9.24 any dim: the scalar stretched)', () => {
    const n = broadcast('opset3', { mode: 'explicit' }, [], [2, 3], [2, 3], [1]);
    expect(n).toMatchObject({ status: 'clash', error: { name: 'BroadcastError', code: 'INCOMPATIBLE_DIMS', axis: 1, dims: [1, 3] } });
    expect(n.error.message).toBe('bc: a scalar under axes_mapping [1] needs target dim 1 there; the target has 3');
    expect(broadcast('opset1', { mode: 'explicit' }, [], [4], [4], [0]).status).toBe('clash');
    // a target dim of 1 is what OpenVINO takes; an empty mapping broadcasts the scalar anywhere
    expect(broadcast('opset3', { mode: 'explicit' }, [], [2, 1], [2, 1], [1])).toMatchObject({ status: 'ok', output: { shape: [2, 1] } });
    expect(broadcast('opset3', { mode: 'explicit' }, [], [2, 3], [2, 3], [])).toMatchObject({ status: 'ok', output: { shape: [2, 3] } });
  });

  it('a Broadcast of version opset2 is Broadcast-1, as OpenVINO\'s opset2 holds it (until 0.9.24 read as Broadcast-3)', () => {
    // Broadcast-1's pdpd axis is auto_broadcast_axis, it has no bidirectional, and explicit without axes_mapping is numpy
    expect(broadcast('opset2', { mode: 'pdpd', auto_broadcast_axis: 1 }, [3], [2, 3, 6], [2, 3, 6])).toMatchObject({ status: 'ok', rule: 'broadcastTo pdpd' });
    expect(broadcast('opset2', { mode: 'bidirectional' }, [3], [2, 3], [2, 3]).error.message).toBe('bc: Broadcast-1 has no mode "bidirectional"');
    expect(broadcast('opset2', { mode: 'explicit' }, [3], [2, 3], [2, 3])).toMatchObject({ status: 'ok', rule: 'broadcastTo numpy' });
    expect(broadcast('opset4', { mode: 'bidirectional' }, [3], [2, 3], [2, 3])).toMatchObject({ status: 'ok', rule: 'broadcastTo bidirectional' });
  });

  it('a target_shape or axes_mapping value past 2^53 is named as the .bin holds it (until 0.9.23 rounded: 2^53 + 1 read 2^53)', () => {
    const big = '9007199254740993';
    const t = broadcast('opset3', { mode: 'numpy' }, [1], [big], ['?']);
    expect(t).toMatchObject({ status: 'clash', error: { code: 'INVALID_SHAPE', axis: 0, dims: [big] } });
    expect(t.error.message).toBe(`bc: target_shape holds ${big} at index 0, which is no dim (dims are integers from 0 to 2^53-1)`);
    expect(t.inputs[1].shape).toEqual([big]);
    expect(JSON.parse(JSON.stringify(t)).inputs[1].shape).toEqual([big]);
    expect(broadcast('opset3', { mode: 'numpy' }, [1], [`-${big}`], ['?']).error.dims).toEqual([`-${big}`]);
    const m = broadcast('opset3', { mode: 'explicit' }, [3], [2, 3], [2, 3], [big]);
    expect(m.error).toMatchObject({ code: 'INVALID_AXES_MAPPING', message: `bc: axes_mapping[0] = ${big} is not an output axis (0 to 1)` });
    // below 2^53 the values are Numbers, as before
    expect(broadcast('opset3', { mode: 'numpy' }, [1], [2 ** 53 - 1], ['?']).inputs[1].shape).toEqual([2 ** 53 - 1]);
  });

  it('BitwiseLeftShift and BitwiseRightShift are checked by their auto_broadcast, as the other bitwise ops (until 0.9.23 not checked)', () => {
    for (const type of ['BitwiseLeftShift', 'BitwiseRightShift']) {
      const r = tc.inferShapes(ir([layer(1, type, { inputs: [[2, 3], [4]], outputs: [[2, 3]] })]));
      expect(r.coverage, type).toMatchObject({ nodes: 1, inferred: 1, declared: 0 });
      expect(r.nodes[0], type).toMatchObject({ opType: type, status: 'clash', rule: 'numpy', error: { code: 'INCOMPATIBLE_DIMS' } });
      expect(only(ir([layer(1, type, { data: { auto_broadcast: 'none' }, inputs: [[2, 3], [3]], outputs: [[2, 3]] })])).status).toBe('clash');
    }
  });

  it('an attribute given twice keeps its first value, as pugixml (OpenVINO\'s reader) answers (until 0.9.23 the last)', () => {
    const twice = (first, second) => only(ir([add({ data: { auto_broadcast: first } })]).replace(`auto_broadcast="${first}"`, `auto_broadcast="${first}" auto_broadcast="${second}"`));
    expect(twice('none', 'numpy')).toMatchObject({ status: 'clash', rule: 'none' });
    expect(twice('numpy', 'none')).toMatchObject({ status: 'ok', rule: 'numpy' });
  });

  it('a DOCTYPE outside the root element is skipped, its internal subset with it, nothing of it expanded (until 0.9.23 malformed)', () => {
    const xml = ir([add({ name: 'a&x;' })]);
    for (const doctype of ['<!DOCTYPE net>', '<!DOCTYPE net SYSTEM "a>b.dtd">', '<!DOCTYPE net [<!ENTITY x "y"> <!ELEMENT net ANY>]>']) {
      const n = only(xml.replace('<net ', `${doctype}\n<net `));
      expect(n, doctype).toMatchObject({ name: 'a&x;', status: 'ok' });
    }
    // inside <net> it is no markup the reader takes
    expect(() => tc.inferShapes(xml.replace('<layers>', '<!DOCTYPE net><layers>'))).toThrow(/malformed XML at character/);
  });
});

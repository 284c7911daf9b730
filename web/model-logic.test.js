// The model explorer's pure logic (model-logic.js) on reports inferShapes()
// made from the corpus's models.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/tensorcast-model-node.js';
import { summarize, nodeLine, nodeName, filterNodes, sortNodes, listRows, pickFiles, sizeText, STATUSES } from './model-logic.js';

const load = (f) => tc.inferShapes(readFileSync(fileURLToPath(new URL(`../tests/fixtures/onnx/${f}`, import.meta.url))));
let checks;
beforeAll(async () => {
  await tc.init();
  checks = load('built/sample_checks.onnx');
});

describe('the model explorer\'s logic', () => {
  it('counts nodes by status and op', () => {
    const s = summarize(checks);
    expect(s.byStatus).toEqual({ clash: 1, 'declared-mismatch': 1, unknown: 1, ok: 5 });
    expect(s.ops).toEqual([{ op: 'Add', count: 3 }, { op: 'Mul', count: 3 }, { op: 'MatMul', count: 1 }, { op: 'Sub', count: 1 }]);
    expect(STATUSES.map((x) => x.value)).toEqual(['clash', 'declared-mismatch', 'unknown', 'ok']);
  });

  it('writes one line per node', () => {
    const lines = checks.nodes.map((n) => nodeLine(n, tc.formatShape));
    expect(lines).toContain('Add (batch,seq,8) ⊕ (1,seq,8) → (batch,seq,8)');
    expect(lines).toContain('Mul (batch,seq,16) ⊕ (batch,1,12) → ✕');
    expect(lines).toContain('Add (rank unknown) ⊕ (8,) → ?');
    const expand = load('built/expand_shape_of.onnx').nodes.find((n) => n.opType === 'Expand');
    expect(nodeLine(expand, tc.formatShape)).toBe('Expand (3,1) to (B,3,4) → (B,3,4)');
  });

  it('filters and orders: problems first, then file order', () => {
    expect(sortNodes(checks.nodes).map((n) => n.status)).toEqual(['clash', 'declared-mismatch', 'unknown', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(sortNodes(checks.nodes)[0].name).toBe('apply_gate'); // the node the page opens first: the first problem
    expect(filterNodes(checks.nodes, { status: 'ok', op: 'Mul' }).map(nodeName)).toEqual(['scale_3', 'scale_5']);
    expect(filterNodes(checks.nodes, { text: 'GATE' }).map(nodeName)).toEqual(['apply_gate']);
    expect(filterNodes(checks.nodes, {}).length).toBe(8);
  });

  it('makes the list\'s rows: each node\'s place, line and what the filters read, no plan, in the list\'s order', () => {
    const rows = listRows(checks.nodes, tc.formatShape);
    expect(rows.map((r) => checks.nodes[r.k])).toEqual(sortNodes(checks.nodes));
    expect(rows.map((r) => r.line)).toEqual(sortNodes(checks.nodes).map((n) => nodeLine(n, tc.formatShape)));
    expect(rows.every((r) => r.plan === undefined && r.inputs === undefined)).toBe(true);
    // the filters and names read a row as they read its node
    expect(filterNodes(rows, { status: 'ok', op: 'Mul' }).map(nodeName)).toEqual(['scale_3', 'scale_5']);
    expect(filterNodes(rows, { text: 'GATE' }).map(nodeName)).toEqual(['apply_gate']);
  });

  it('picks the model from what was dropped', () => {
    const f = (name, size = 1) => ({ name, size });
    expect(pickFiles([f('m.onnx')])).toMatchObject({ kind: 'onnx', bin: null });
    expect(pickFiles([f('m.bin'), f('m.xml')])).toMatchObject({ kind: 'openvino', model: { name: 'm.xml' }, bin: { name: 'm.bin' } });
    expect(pickFiles([f('weights')])).toMatchObject({ kind: 'onnx', model: { name: 'weights' } });
    // an IR's weights alone are no model (until 0.9.21 read as a damaged ONNX file)
    expect(pickFiles([f('m.BIN')]).error).toBe("m.BIN holds an OpenVINO IR's weights: drop it together with its .xml");
    expect(pickFiles([f('a.txt'), f('b.txt')]).error).toContain('a.txt, b.txt');
    expect(pickFiles([]).error).toBe('No file');
    // One model at a time (the second was ignored), and an IR's own .bin first.
    expect(pickFiles([f('a.onnx'), f('b.onnx')]).error).toBe('Drop one model at a time (an .onnx, or an .xml with its .bin), not a.onnx, b.onnx');
    expect(pickFiles([f('a.xml'), f('b.ONNX')]).error).toContain('not a.xml, b.ONNX');
    expect(pickFiles([f('other.bin'), f('m (1).xml'), f('M (1).bin')])).toMatchObject({ kind: 'openvino', model: { name: 'm (1).xml' }, bin: { name: 'M (1).bin' } });
    expect(pickFiles([f('other.bin'), f('m.xml')])).toMatchObject({ bin: { name: 'other.bin' } });
    expect([sizeText(551), sizeText(1228), sizeText(4745517)]).toEqual(['551 B', '1.2 KB', '4.5 MB']);
  });
});

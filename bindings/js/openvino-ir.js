// inferShapes() for OpenVINO IR (the .xml text; the .bin optional): the file
// records every port's dims, so nothing is inferred; each element-wise layer
// is checked by its `auto_broadcast` rule (none, numpy, pdpd with axis) and
// each Broadcast-1/3 by its mode, against the output port the file records.
import { BroadcastError } from './errors.js';
import { Symbols, nodePlan, requestOf } from './symbolic.js';
import { readElements, INTEGER_KINDS } from './onnx-read.js';

// Element-wise layers that take `auto_broadcast` (numpy unless the file says otherwise).
const ELEMENTWISE = new Set(['Add', 'Subtract', 'Multiply', 'Divide', 'Power', 'Maximum', 'Minimum', 'SquaredDifference',
  'FloorMod', 'Mod', 'Equal', 'NotEqual', 'Less', 'LessEqual', 'Greater', 'GreaterEqual', 'LogicalAnd', 'LogicalOr',
  'LogicalXor', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor', 'Select']);

const ENTITY = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unescape = (s) => s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e) => (e[0] === '#'
  ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITY[e]));

/** The XML as a tree of { tag, attrs, children, text }: enough for IR (no DTD, no CDATA in practice). */
function parseXml(text) {
  const root = { tag: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  const attrRe = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let m;
  let last = 0;
  while ((m = re.exec(text)) !== null) {
    if (m.index !== last) throw new TypeError(`inferShapes: not an OpenVINO IR (malformed XML at character ${last})`);
    last = re.lastIndex;
    const top = stack[stack.length - 1];
    if (m[6] !== undefined) { top.text += unescape(m[6]); continue; }
    if (m[1] !== undefined) { top.text += m[1]; continue; }
    if (m[3] === undefined) continue; // comment, declaration
    if (m[2] === '/') {
      if (top.tag !== m[3]) throw new TypeError(`inferShapes: not an OpenVINO IR (</${m[3]}> closes <${top.tag}>)`);
      stack.pop();
      continue;
    }
    const attrs = {};
    let a;
    attrRe.lastIndex = 0;
    while ((a = attrRe.exec(m[4])) !== null) attrs[a[1]] = unescape(a[2] ?? a[3]);
    const el = { tag: m[3], attrs, children: [], text: '' };
    top.children.push(el);
    if (m[5] !== '/') stack.push(el);
  }
  if (last !== text.length) throw new TypeError(`inferShapes: not an OpenVINO IR (malformed XML at character ${last})`);
  if (stack.length !== 1) throw new TypeError(`inferShapes: not an OpenVINO IR (<${stack[stack.length - 1].tag}> is not closed)`);
  return root;
}

const child = (el, tag) => el.children.find((c) => c.tag === tag);
const kids = (el, tag) => (el ? el.children.filter((c) => c.tag === tag) : []);

/** An IR dim: a number, '?' (-1 or ?), or an interval such as '1..10'. */
function dim(text) {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  if (t === '-1' || t === '?' || t === '') return '?';
  const m = /^(-1|\d*)\s*\.\.\s*(-1|\d*)$/.exec(t);
  if (m) {
    const lo = m[1] === '-1' ? '' : m[1];
    const hi = m[2] === '-1' ? '' : m[2];
    return lo === '' && hi === '' ? '?' : `${lo}..${hi}`;
  }
  return t; // a name
}

function ports(el) {
  return kids(el, 'port').map((p) => ({ id: p.attrs.id, precision: p.attrs.precision ?? null, shape: kids(p, 'dim').map((d) => dim(d.text)) }));
}

/** The integer values of a Const layer, read from the .bin, or null. */
function constValues(layer, bin) {
  if (!bin) return null;
  const d = child(layer, 'data');
  if (!d || !INTEGER_KINDS.has(d.attrs.element_type)) return null;
  const off = Number(d.attrs.offset);
  const len = Number(d.attrs.size);
  if (!Number.isSafeInteger(off) || !Number.isSafeInteger(len)) return null;
  return readElements(bin, off, len, d.attrs.element_type);
}

function sameShape(a, b) {
  return a.length === b.length && a.every((d, i) => d === b[i] || typeof d !== 'number' || typeof b[i] !== 'number');
}

/** inferShapes for an OpenVINO IR: the .xml text and, optionally, the .bin bytes. */
export function inferOpenVino(xml, bin) {
  const root = parseXml(xml);
  const net = child(root, 'net');
  if (!net || !child(net, 'layers')) throw new TypeError('inferShapes: not an OpenVINO IR (no <net> with <layers>)');
  const syms = new Symbols();
  const nodes = [];
  const coverage = { nodes: 0, inferred: 0, declared: 0, unknownOps: [] };
  const walk = (body, graphName) => {
    const layers = kids(child(body, 'layers'), 'layer');
    const byId = new Map(layers.map((l) => [l.attrs.id, l]));
    // each (layer, input port) → the producing layer and port
    const from = new Map();
    for (const e of kids(child(body, 'edges'), 'edge')) from.set(`${e.attrs['to-layer']}:${e.attrs['to-port']}`, e.attrs);
    const source = (layer, port) => {
      const e = from.get(`${layer.attrs.id}:${port.id}`);
      return e ? byId.get(e['from-layer']) : null;
    };
    layers.forEach((layer, index) => {
      coverage.nodes++;
      const type = layer.attrs.type;
      const data = child(layer, 'data')?.attrs ?? {};
      for (const sub of kids(layer, 'body')) walk(sub, `${graphName}/${layer.attrs.name ?? layer.attrs.id}.body`);
      const ins = ports(child(layer, 'input') ?? { children: [] });
      const outs = ports(child(layer, 'output') ?? { children: [] });
      const isBroadcast = type === 'Broadcast';
      if (!ELEMENTWISE.has(type) && !isBroadcast) { coverage.declared++; return; }
      coverage.inferred++;
      const where = layer.attrs.name || `${type}_${layer.attrs.id}`;
      const out = outs[0] ?? { shape: null };
      const report = {
        graph: graphName, index, name: layer.attrs.name ?? null, opType: type, rule: 'numpy',
        inputs: ins.map((p) => ({ name: `${layer.attrs.name ?? layer.attrs.id}:${p.id}`, shape: p.shape })),
        output: { name: `${layer.attrs.name ?? layer.attrs.id}:${out.id ?? ''}`, shape: null, declared: out.shape },
        status: 'ok',
      };
      let req;
      if (isBroadcast) {
        const mode = data.mode ?? 'numpy';
        const target = ins[1] ? constValues(source(layer, ins[1]) ?? { children: [] }, bin) : null;
        const mapping = ins[2] ? constValues(source(layer, ins[2]) ?? { children: [] }, bin) : null;
        const t = target ?? (mode === 'bidirectional' ? null : out.shape);
        report.rule = mode === 'explicit' ? `broadcastTo explicit` : `broadcastTo ${mode}`;
        if (t === null || (mode === 'explicit' && mapping === null)) {
          report.status = 'unknown';
          nodes.push(report);
          return;
        }
        report.inputs[1] = { name: report.inputs[1].name, shape: t, values: true };
        req = { rule: 'broadcastTo', shapes: [ins[0].shape, t], mode, axesMapping: mode === 'explicit' ? mapping : undefined, axis: data.axis !== undefined ? Number(data.axis) : undefined };
      } else {
        const rule = (data.auto_broadcast ?? 'numpy').toLowerCase();
        const axis = data.axis !== undefined ? Number(data.axis) : undefined;
        report.rule = rule === 'pdpd' && axis !== undefined ? `pdpd(axis=${axis})` : rule;
        if (type === 'Select') {
          // Select's rule is numpy over all three; pdpd broadcasts then and else, then the condition
          req = rule === 'none' ? { rule: 'none', shapes: ins.map((p) => p.shape), chain: true } : { rule: 'numpy', shapes: ins.map((p) => p.shape) };
        } else {
          req = { rule: rule === 'none' ? 'none' : rule === 'pdpd' ? 'pdpd' : 'numpy', shapes: [ins[0].shape, ins[1]?.shape ?? []], axis };
        }
      }
      const plan = nodePlan(req, syms, where);
      report.plan = plan;
      report.request = requestOf(req);
      if (!plan.ok) {
        report.status = 'clash';
        report.error = plan.error;
      } else {
        report.output.shape = plan.shape;
        if (out.shape && !sameShape(plan.shape, out.shape)) {
          report.status = 'declared-mismatch';
          const i = plan.shape.length === out.shape.length ? plan.shape.findIndex((d, k) => d !== out.shape[k]) : null;
          report.error = new BroadcastError(i === null
            ? `${where}: the rule gives rank ${plan.shape.length}, the file records rank ${out.shape.length}`
            : `${where}: the rule gives ${plan.shape[i]} at output axis ${i}, the file records ${out.shape[i]}`,
          { code: i === null ? 'RANK_MISMATCH' : 'SHAPE_MISMATCH', shapes: [plan.shape, out.shape], axis: i, dims: i === null ? null : [plan.shape[i], out.shape[i]] }).toJSON();
        }
      }
      nodes.push(report);
    });
  };
  walk(net, net.attrs.name || 'main');
  return {
    format: 'openvino',
    opsets: { ir: Number(net.attrs.version) || 0 },
    nodes,
    symbols: syms.list(),
    coverage,
  };
}

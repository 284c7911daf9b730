// inferShapes() for OpenVINO IR (the .xml text; the .bin optional): the file
// records every port's dims, so nothing is inferred; each element-wise layer
// is checked by its `auto_broadcast` rule (none, numpy, pdpd with its
// auto_broadcast_axis) and each Broadcast-1/3 by its mode, against the output
// port the file records.
import { BroadcastError } from './errors.js';
import { Symbols, nodePlan, requestOf } from './symbolic.js';
import { readElements, INTEGER_KINDS } from './onnx-read.js';

// Element-wise layers that take `auto_broadcast` (numpy unless the file says otherwise).
const ELEMENTWISE = new Set(['Add', 'Subtract', 'Multiply', 'Divide', 'Power', 'Maximum', 'Minimum', 'SquaredDifference',
  'FloorMod', 'Mod', 'Equal', 'NotEqual', 'Less', 'LessEqual', 'Greater', 'GreaterEqual', 'LogicalAnd', 'LogicalOr',
  'LogicalXor', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor', 'BitwiseLeftShift', 'BitwiseRightShift', 'Select']);

// auto_broadcast by name (OpenVINO reads it in any case): explicit is OpenVINO's name of none for element-wise ops.
const AUTO_BROADCAST = { __proto__: null, none: 'none', explicit: 'none', numpy: 'numpy', pdpd: 'pdpd' };

const ENTITY = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Text with its entities and character references replaced; a reference to no character is a TypeError. */
const unescape = (s) => s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (ref, e) => {
  if (e[0] !== '#') return ENTITY[e];
  const c = e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
  // XML's Char: tab, newline, carriage return, and the code points from 0x20 but the surrogates, 0xFFFE and 0xFFFF.
  const char = c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
  if (!char) throw new TypeError(`inferShapes: not an OpenVINO IR (${ref} is no character)`);
  return String.fromCodePoint(c);
});

/**
 * An IR .xml's bytes as text, in the encoding they are saved in: a byte-order mark (UTF-8, UTF-16
 * either way) says it; without one, the XML declaration's `encoding` does (ISO-8859-1,
 * windows-1252, … as TextDecoder names them), else UTF-8. A declared encoding this platform cannot
 * decode is a TypeError naming it; so is UTF-16 declared in bytes that are not (no byte-order mark,
 * and the declaration read one byte a character).
 */
export function xmlText(bytes) {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes);
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder().decode(bytes);
  // The declaration is ASCII in every encoding that can be told from it: its first 256 bytes as Latin-1.
  const head = String.fromCharCode(...bytes.subarray(0, 256));
  const label = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(head);
  if (!label) return new TextDecoder().decode(bytes);
  const name = label[1] ?? label[2];
  let decoder;
  try {
    decoder = new TextDecoder(name);
  } catch {
    throw new TypeError(`inferShapes: the IR .xml declares encoding "${name}", which this platform cannot decode`);
  }
  if (decoder.encoding.startsWith('utf-16')) {
    throw new TypeError(`inferShapes: the IR .xml declares encoding "${name}" but is not saved as UTF-16 (no byte-order mark)`);
  }
  return decoder.decode(bytes);
}

/**
 * The XML as a tree of { tag, attrs, children, text }: enough for IR (no CDATA in practice). A
 * DOCTYPE before or after the root element is skipped whole, its internal subset too (nothing it
 * declares is expanded); an attribute given twice keeps its first value, as pugixml (OpenVINO's
 * reader) answers it.
 */
function parseXml(text) {
  const root = { tag: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE(?:\s(?:[^[>"']|"[^"]*"|'[^']*')*)?(?:\[[\s\S]*?\]\s*)?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  const attrRe = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let m;
  let last = 0;
  while ((m = re.exec(text)) !== null) {
    if (m.index !== last || (stack.length > 1 && m[0].startsWith('<!D'))) {
      throw new TypeError(`inferShapes: not an OpenVINO IR (malformed XML at character ${last})`);
    }
    last = re.lastIndex;
    const top = stack[stack.length - 1];
    if (m[6] !== undefined) { top.text += unescape(m[6]); continue; }
    if (m[1] !== undefined) { top.text += m[1]; continue; }
    if (m[3] === undefined) continue; // comment, declaration, DOCTYPE
    if (m[2] === '/') {
      if (top.tag !== m[3]) throw new TypeError(`inferShapes: not an OpenVINO IR (</${m[3]}> closes <${top.tag}>)`);
      stack.pop();
      continue;
    }
    const attrs = {};
    let a;
    attrRe.lastIndex = 0;
    while ((a = attrRe.exec(m[4])) !== null) if (!Object.hasOwn(attrs, a[1])) attrs[a[1]] = unescape(a[2] ?? a[3]);
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

/** An IR dim: a number, '?' (-1 or ?), an interval such as '1..10', or null: no dim. */
function dim(t) {
  if (/^\d+$/.test(t)) return Number.isSafeInteger(Number(t)) ? Number(t) : null; // past 2^53: no dim (its text is reported)
  if (t === '-1' || t === '?' || t === '') return '?';
  const m = /^(-1|\d*)\s*\.\.\s*(-1|\d*)$/.exec(t);
  if (m) {
    const lo = m[1] === '-1' ? '' : m[1];
    const hi = m[2] === '-1' ? '' : m[2];
    return lo === '' && hi === '' ? '?' : `${lo}..${hi}`;
  }
  return null;
}

/** The ports of an <input> or <output>: id, precision, dims (a text that is no dim kept as written) and `bad`, the axis of the first such text or -1. */
function ports(el) {
  return kids(el, 'port').map((p) => {
    const texts = kids(p, 'dim').map((d) => d.text.trim());
    const shape = texts.map(dim);
    return { id: p.attrs.id, precision: p.attrs.precision ?? null, shape: shape.map((d, k) => d ?? texts[k]), bad: shape.indexOf(null) };
  });
}

/** An integer attribute: undefined when absent or empty, NaN when it is no integer. */
const integer = (v) => (v?.trim() ? (/^[-+]?\d+$/.test(v.trim()) ? Number(v) : NaN) : undefined);

/** A node error that is no broadcast failure, in the form explain() gives one. */
const typeError = (message) => ({ name: 'TypeError', code: null, message, shapes: [], axis: null, dims: null });

/**
 * The integer values of a Const layer, read from the .bin, or null. Its `shape` attribute, where
 * the file gives one, says how many (the IR reader takes that many of the `size` bytes, and refuses
 * a `size` too small for them: null here). A 64-bit value past 2^53 is a BigInt (readElements' exact read):
 * as a Number it would name its neighbour (2^53 + 1 is 2^53) in the messages.
 */
function constValues(layer, bin) {
  if (!bin) return null;
  const d = child(layer, 'data');
  if (!d || !INTEGER_KINDS.has(d.attrs.element_type)) return null;
  const off = Number(d.attrs.offset);
  const len = Number(d.attrs.size);
  if (!Number.isSafeInteger(off) || !Number.isSafeInteger(len) || len < 0) return null;
  const all = readElements(bin, off, len, d.attrs.element_type, true);
  const shape = d.attrs.shape;
  if (all === null || shape === undefined) return all;
  const n = shape.trim() === '' ? 1 : shape.split(',').reduce((p, s) => p * Number(s), 1); // '' is a scalar
  return Number.isSafeInteger(n) && n >= 0 && n <= all.length ? all.slice(0, n) : null;
}

/** The index of the first BigInt (a value past 2^53) in a Const's values, or -1. */
const bigAt = (values) => (values ? values.findIndex((v) => typeof v === 'bigint') : -1);

/** Whether two dims differ for certain: both numbers ('?', names and intervals match anything). */
const differ = (a, b) => a !== b && typeof a === 'number' && typeof b === 'number';

function sameShape(a, b) {
  return a.length === b.length && !a.some((d, i) => differ(d, b[i]));
}

/** inferShapes for an OpenVINO IR: the .xml text and, optionally, the .bin bytes. */
export function inferOpenVino(xml, bin) {
  const root = parseXml(xml);
  const net = child(root, 'net');
  if (!net || !child(net, 'layers')) throw new TypeError('inferShapes: not an OpenVINO IR (no <net> with <layers>)');
  const syms = new Symbols();
  const nodes = [];
  const coverage = { nodes: 0, inferred: 0, declared: 0, unknownOps: [] };
  // A stack of bodies to open and layers to check, so that nesting costs no call depth: a body's
  // layers are checked in order, each after the bodies it holds (a recursive walk's order).
  const todo = [{ body: net, graph: net.attrs.name || 'main' }];
  while (todo.length) {
    const t = todo.pop();
    if (t.layer) { check(t.layer, t.index, t.graph, t.source); continue; }
    const layers = kids(child(t.body, 'layers'), 'layer');
    const byId = new Map(layers.map((l) => [l.attrs.id, l]));
    // each (layer, input port) → the producing layer and port
    const from = new Map();
    for (const e of kids(child(t.body, 'edges'), 'edge')) from.set(`${e.attrs['to-layer']}:${e.attrs['to-port']}`, e.attrs);
    const source = (layer, port) => {
      const e = from.get(`${layer.attrs.id}:${port.id}`);
      return e ? byId.get(e['from-layer']) : null;
    };
    for (let index = layers.length - 1; index >= 0; index--) {
      const layer = layers[index];
      todo.push({ layer, index, graph: t.graph, source });
      // Loop and TensorIterator hold a <body>; If its <then_body> and <else_body>
      for (const tag of ['else_body', 'then_body', 'body']) {
        for (const sub of kids(layer, tag).reverse()) todo.push({ body: sub, graph: `${t.graph}/${layer.attrs.name ?? layer.attrs.id}.${tag}` });
      }
    }
  }
  return {
    format: 'openvino',
    opsets: { ir: Number(net.attrs.version) || 0 },
    nodes,
    symbols: syms.list(),
    coverage,
  };

  /** Check one layer of a body: count it and, if it broadcasts, report it. */
  function check(layer, index, graphName, source) {
    coverage.nodes++;
    const type = layer.attrs.type;
    const data = child(layer, 'data')?.attrs ?? {};
    const ins = ports(child(layer, 'input') ?? { children: [] });
    const outs = ports(child(layer, 'output') ?? { children: [] });
    const isBroadcast = type === 'Broadcast';
    if (!ELEMENTWISE.has(type) && !isBroadcast) { coverage.declared++; return; }
    coverage.inferred++;
    const where = layer.attrs.name || `${type}_${layer.attrs.id}`;
    const out = outs[0] ?? { shape: null };
    const kind = isBroadcast ? data.mode ?? 'numpy' : data.auto_broadcast ?? 'numpy';
    const lower = kind.toLowerCase(); // either attribute is read in any case
    const rule = AUTO_BROADCAST[lower];
    const report = {
      graph: graphName, index, name: layer.attrs.name ?? null, opType: type, rule: isBroadcast ? `broadcastTo ${lower}` : rule ?? kind,
      inputs: ins.map((p) => ({ name: `${layer.attrs.name ?? layer.attrs.id}:${p.id}`, shape: p.shape })),
      output: { name: `${layer.attrs.name ?? layer.attrs.id}:${out.id ?? ''}`, shape: null, declared: out.shape },
      status: 'ok',
    };
    // what the file does not say well enough to check: a clash with the reason
    const refuse = (error) => { report.status = 'clash'; report.error = error; nodes.push(report); };
    const arity = type === 'Select' ? 3 : 2;
    if (ins.length < arity) return refuse(typeError(`${where}: ${type} takes ${arity} inputs; the file records ${ins.length}`));
    const bad = [...ins, ...outs].find((p) => p.bad >= 0);
    if (bad) {
      return refuse(new BroadcastError(`${where}: port ${bad.id} records dim ${bad.shape[bad.bad]} at axis ${bad.bad}; an IR dim is an integer from 0, -1, ? or an interval such as 1..10`,
        { code: 'INVALID_SHAPE', shapes: [bad.shape], axis: bad.bad, dims: [bad.shape[bad.bad]] }).toJSON());
    }
    // The pdpd axis: OpenVINO's AutoBroadcastSpec (element-wise ops, Select, Broadcast-1) reads it
    // from auto_broadcast_axis, Broadcast-3's BroadcastModeSpec from axis; absent, it stays 0 (not
    // -1, the suffix placement). Another attribute (an element-wise op's axis) is not read.
    // OpenVINO's attribute visitor names a structure's member with its context ("auto_broadcast.auto_broadcast_axis",
    // "mode.axis"): both spellings are read, the plain one first.
    // Broadcast-1 is opset1's and opset2's Broadcast, Broadcast-3 that of opset3 on
    const v1 = /^opset[12]$/.test(layer.attrs.version);
    const axisName = isBroadcast && !v1 ? 'axis' : 'auto_broadcast_axis';
    const axisText = data[axisName] ?? data[`${isBroadcast ? 'mode' : 'auto_broadcast'}.${axisName}`];
    const axis = lower === 'pdpd' ? integer(axisText) ?? 0 : undefined;
    if (Number.isNaN(axis)) {
      return refuse(new BroadcastError(`${where}: ${axisName} "${axisText}" is not an integer`, { code: 'INVALID_AXIS' }).toJSON());
    }
    let req;
    const since = syms.mark(); // the plan lists what this layer adds (Select's two steps), as inferShapes' ONNX nodes
    if (isBroadcast) {
      // OpenVINO reads mode "none" as explicit; Broadcast-1 has no bidirectional mode
      let mode = lower === 'none' ? 'explicit' : lower;
      if (!['numpy', 'explicit', 'bidirectional', 'pdpd'].includes(mode) || (mode === 'bidirectional' && v1)) {
        return refuse(typeError(`${where}: Broadcast${v1 ? '-1' : ''} has no mode "${kind}"`));
      }
      // Broadcast-1 explicit without an axes_mapping input is numpy (OpenVINO's validate_and_infer_types)
      if (v1 && mode === 'explicit' && ins.length < 3) mode = 'numpy';
      report.rule = `broadcastTo ${mode}`;
      // Broadcast-3 takes it in explicit mode (OpenVINO refuses the layer without it)
      if (mode === 'explicit' && ins.length < 3) return refuse(typeError(`${where}: Broadcast-3 takes 3 inputs in explicit mode (its axes_mapping); the file records ${ins.length}`));
      // and only then: OpenVINO refuses a third input in another mode; Broadcast-1 takes 2 or 3 in any
      const most = v1 || mode === 'explicit' ? 3 : 2;
      if (ins.length > most) return refuse(typeError(`${where}: Broadcast${v1 ? '-1' : '-3'} takes at most ${most} inputs${v1 ? '' : ` in ${mode} mode (an axes_mapping only in explicit mode)`}; the file records ${ins.length}`));
      // target_shape is 1-D, and so is axes_mapping in explicit mode (OpenVINO refuses another rank)
      const k = ins[1].shape.length !== 1 ? 1 : mode === 'explicit' && ins[2].shape.length !== 1 ? 2 : 0;
      if (k) return refuse(typeError(`${where}: ${k === 1 ? 'target_shape' : 'axes_mapping'} (port ${ins[k].id}) has rank ${ins[k].shape.length}, not 1`));
      const target = constValues(source(layer, ins[1]) ?? { children: [] }, bin);
      const mapping = ins[2] ? constValues(source(layer, ins[2]) ?? { children: [] }, bin) : null;
      const t = target ?? (mode === 'bidirectional' ? null : out.shape);
      if (t === null || (mode === 'explicit' && mapping === null)) {
        report.status = 'unknown';
        nodes.push(report);
        return;
      }
      const text = (values) => values.map((v) => (typeof v === 'bigint' ? String(v) : v));
      report.inputs[1] = { name: report.inputs[1].name, shape: text(t), values: true };
      // a value past 2^53, named as the .bin holds it
      const bt = bigAt(target);
      if (bt >= 0) {
        return refuse(new BroadcastError(`${where}: target_shape holds ${t[bt]} at index ${bt}, which is no dim (dims are integers from 0 to 2^53-1)`,
          { code: 'INVALID_SHAPE', shapes: [ins[0].shape, text(t)], axis: bt, dims: [String(t[bt])] }).toJSON());
      }
      const bm = mode === 'explicit' ? bigAt(mapping) : -1;
      if (bm >= 0) {
        return refuse(new BroadcastError(`${where}: axes_mapping[${bm}] = ${mapping[bm]} is not an output axis (0 to ${t.length - 1})`,
          { code: 'INVALID_AXES_MAPPING', shapes: [ins[0].shape, t] }).toJSON());
      }
      // A scalar under a one-entry mapping: OpenVINO asks for 1 at that target dim (the engine reads the scalar as [1], which stretches)
      const m0 = mode === 'explicit' && !ins[0].shape.length && mapping.length === 1 ? mapping[0] : -1;
      if (differ(t[m0], 1)) {
        return refuse(new BroadcastError(`${where}: a scalar under axes_mapping [${m0}] needs target dim 1 there; the target has ${t[m0]}`,
          { code: 'INCOMPATIBLE_DIMS', shapes: [ins[0].shape, t], axis: m0, dims: [1, t[m0]] }).toJSON());
      }
      req = { rule: 'broadcastTo', shapes: [ins[0].shape, t], mode, axesMapping: mode === 'explicit' ? mapping : undefined, axis };
    } else {
      if (!rule) return refuse(typeError(`${where}: auto_broadcast "${kind}" is not none, explicit, numpy or pdpd`));
      report.rule = rule === 'pdpd' ? `pdpd(axis=${axis})` : rule;
      if (type === 'Select' && rule === 'pdpd') {
        // pdpd (OpenVINO's select shape inference): else into then, one way, then the condition into
        // that, each by the axis: a shape equal to the one it goes into but placed past it is refused
        const [c, a, b] = ins.map((p) => p.shape);
        const merge = (x, y) => ({ rule, shapes: [x, y], axis });
        const first = nodePlan(merge(a, b), syms, where, since);
        req = first.ok ? merge(first.shape, c) : merge(a, b);
      } else if (type === 'Select') {
        // Select's rule is numpy over all three
        req = rule === 'none' ? { rule: 'none', shapes: ins.map((p) => p.shape), chain: true } : { rule: 'numpy', shapes: ins.map((p) => p.shape) };
      } else {
        req = { rule, shapes: [ins[0].shape, ins[1].shape], axis };
      }
    }
    const plan = nodePlan(req, syms, where, since);
    report.plan = plan;
    report.request = requestOf(req);
    if (!plan.ok) {
      report.status = 'clash';
      report.error = plan.error;
    } else {
      report.output.shape = plan.shape;
      if (out.shape && !sameShape(plan.shape, out.shape)) {
        report.status = 'declared-mismatch';
        const i = plan.shape.length === out.shape.length ? plan.shape.findIndex((d, k) => differ(d, out.shape[k])) : null;
        report.error = new BroadcastError(i === null
          ? `${where}: the rule gives rank ${plan.shape.length}, the file records rank ${out.shape.length}`
          : `${where}: the rule gives ${plan.shape[i]} at output axis ${i}, the file records ${out.shape[i]}`,
        { code: i === null ? 'RANK_MISMATCH' : 'SHAPE_MISMATCH', shapes: [plan.shape, out.shape], axis: i, dims: i === null ? null : [plan.shape[i], out.shape[i]] }).toJSON();
      }
    }
    nodes.push(report);
  }
}

// tensorcast/model — the rules with symbolic dims, and inferShapes() for ONNX
// models and OpenVINO IR: tensorcast/shapes' API (the same modules on
// tensorcast-shapes.wasm), where broadcastShapes, autoBroadcastShape,
// broadcastToShape and explain also take names ('batch') as dims. Its own
// entry, so that the main entry does not carry the model readers. Source of
// dist/tensorcast-model.js (browsers, workers, bundlers); the Node entry is
// model-node.js (scripts/entries.mjs).
import { BroadcastError } from './errors.js';
import * as rules from './rules.js';
import { explain as explainPlain, refusedPlan } from './explain.js';
import { symbolicPlan, isSymbol } from './symbolic.js';
import { readOptions } from './options.js';
import { inferOnnx } from './infer.js';
import { readsAsOnnx } from './onnx-read.js';
import { inferOpenVino, xmlText } from './openvino-ir.js';

export { init, initSync, isReady } from './loader.js';
import { bytesOf } from './loader.js';
export { contract } from './contract.js';
export { BroadcastError, ErrorCode, formatShape, formatDim } from './errors.js';
export { UNKNOWN_RANK, MAX_RANK } from './operands.js';
export { namedBroadcastShape, reductionAxes } from './rules.js';
export { isSymbol };

const named = (shapes) => shapes.some((s) => Array.isArray(s) && s.some(isSymbol));

/** A refused dim's message as this entry reads dims: a name is a dim here too. */
const withNames = (message) => message.replace('"?" or an interval like "2..5"', '"?", an interval like "2..5" or a name');

/** A call without names (tensorcast/shapes' own), its refusal of a dim told as above. */
function plain(call) {
  try {
    return call();
  } catch (e) {
    if (e instanceof BroadcastError) e.message = withNames(e.message);
    throw e;
  }
}

/** The plan's shape, or its error thrown as the call's own: `fn` in place of explain's name, the class kept. */
function answer(plan, fn) {
  if (plan.ok) return plan.shape;
  const e = plan.error;
  const message = withNames(e.message.replace(/^explain: /, `${fn}: `));
  if (e.name === 'BroadcastError') throw new BroadcastError(message, e);
  throw new (e.name === 'Error' ? Error : e.name === 'RangeError' ? RangeError : TypeError)(message);
}

/** broadcastShapes, with names as dims: N ⊕ 3 → 3 (N ∈ {1, 3}); N ⊕ M → 'N|M'. */
export function broadcastShapes(...shapes) {
  // Many shapes go as the array they already are: spread again, 65,536 of them overflowed the stack
  // (rules.broadcastShapes hands any count past its 8-shape lane to broadcastList itself).
  if (!named(shapes)) return plain(() => (shapes.length > 64 ? rules.broadcastList(shapes) : rules.broadcastShapes(...shapes)));
  return answer(symbolicPlan({ rule: 'numpy', shapes }), 'broadcastShapes');
}

/** autoBroadcastShape (OpenVINO none, numpy, pdpd), with names as dims. */
export function autoBroadcastShape(a, b, options) {
  if (!named([a, b])) return plain(() => rules.autoBroadcastShape(a, b, options));
  const o = readOptions(options, 'autoBroadcastShape', ['type', 'axis']); // as the numbers-only call reads them
  return answer(symbolicPlan({ rule: o.type ?? 'numpy', shapes: [a, b], axis: o.axis }), 'autoBroadcastShape');
}

/** broadcastToShape (the Broadcast op's modes), with names as dims. */
export function broadcastToShape(input, target, options) {
  if (!named([input, target])) return plain(() => rules.broadcastToShape(input, target, options));
  const o = readOptions(options, 'broadcastToShape', rules.TO_KEYS);
  return answer(symbolicPlan({ rule: 'broadcastTo', shapes: [input, target], mode: o.mode, axesMapping: o.axesMapping, axis: o.axis }), 'broadcastToShape');
}

/** explain(), with names as dims: the plan also lists `symbols` and what each must satisfy. Never throws. */
export function explain(request) {
  let req = request;
  try {
    // A plain object is read once, here: its getters (or a proxy's) run once, as the main entry's explain runs them.
    if (req && typeof req === 'object' && !Array.isArray(req) && [Object.prototype, null].includes(Object.getPrototypeOf(req))) req = { ...req };
    const shapes = req && typeof req === 'object' && req.expression === undefined && req.rule !== 'named' ? req.shapes : null;
    const plan = !Array.isArray(shapes) || !named(shapes) ? explainPlain(req) : symbolicPlan({ ...req, shapes: shapes.slice() });
    if (!plan.ok && req.expression === undefined) plan.error.message = withNames(plan.error.message);
    return plan;
  } catch (e) { // a getter or proxy that throws: reported as explain() reports it
    let rule = null;
    try { rule = req.rule ?? 'numpy'; } catch { /* no rule to report */ }
    return refusedPlan(e, rule);
  }
}

/** Bytes of an ArrayBuffer or a view as a plain Uint8Array, or null. */
const toView = (x) => (x instanceof ArrayBuffer || ArrayBuffer.isView(x) ? bytesOf(x) : null);

/**
 * Every broadcasting node of a model, checked: ONNX bytes (Uint8Array,
 * ArrayBuffer) or an OpenVINO IR (.xml text, or its bytes; `options.bin` its
 * weights, to read Broadcast's target shapes). Never throws on a readable
 * model; a buffer that is no model is a TypeError.
 */
export function inferShapes(model, options) {
  const o = readOptions(options, 'inferShapes', ['bin', 'tensors']);
  const bin = o.bin == null ? null : toView(o.bin);
  // A bin that is not bytes is refused, not read as no bin (its weights would be silently unread).
  if (bin === null && o.bin != null) throw new TypeError('inferShapes: options.bin must be the bytes of the .bin (Uint8Array, ArrayBuffer or another ArrayBuffer view)');
  if (typeof model === 'string') return inferOpenVino(model, bin);
  const bytes = toView(model);
  if (bytes === null) throw new TypeError('inferShapes: expected the bytes of an ONNX model (Uint8Array or ArrayBuffer) or the text of an OpenVINO IR .xml');
  // An .xml: saved as UTF-16 (its byte-order mark first), or '<' first. Its text in the encoding it
  // is saved in (xmlText), as an XML reader takes it. Blanks then '<' may also begin a protobuf
  // (0x20 0x3c: model_version 60): such bytes are an .xml only when they are no ONNX model.
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  let k = 0;
  while (k < bytes.length && k < 64 && (bytes[k] === 0x20 || bytes[k] === 0x0a || bytes[k] === 0x0d || bytes[k] === 0x09 || bytes[k] === 0xef || bytes[k] === 0xbb || bytes[k] === 0xbf)) k++;
  if (utf16 || (bytes[k] === 0x3c && (k === 0 || !readsAsOnnx(bytes)))) return inferOpenVino(xmlText(bytes), bin);
  return inferOnnx(bytes, o);
}

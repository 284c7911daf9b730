// The shape cases the tests share, written once: the golden vectors
// (tests/fixtures/golden.json) and the NumPy shape corpus
// (tests/fixtures/numpy_shapes.json), each with the call a case stands for,
// made against an entry's API (`tc`: 'tensorcast' or 'tensorcast/shapes').
// Used by golden.test.js, numpy-corpus.test.js and shapes-entry.test.js.
import { readFileSync } from 'node:fs';

export const golden = JSON.parse(readFileSync(new URL('../fixtures/golden.json', import.meta.url), 'utf8'));

// Golden notation -> our shape notation: "[...]" and the values-unknown target.
export function shapeOf(s) {
  if (s === '[...]') return '[...]';
  if (s && typeof s === 'object' && !Array.isArray(s) && s.values_unknown) {
    return s.length === '?' ? '[...]' : Array.from({ length: s.length }, () => '?');
  }
  return s.map((d) => (typeof d === 'string' && d.startsWith('$') ? '?' : d));
}

export function expected(e) {
  if (Array.isArray(e.shape) && e.shape.join('') === '[...]') return '[...]';
  return e.shape;
}

// Returns a thunk computing the case through `tc` (an entry's API), or null when the case
// has no meaning in this API (documented per family).
export function runner(tc, c) {
  const i = c.inputs;
  switch (c.family) {
    case 'numpy': return () => tc.broadcastShapes(...i.shapes.map(shapeOf));
    case 'none': return () => tc.autoBroadcastShape(shapeOf(i.shapes[0]), shapeOf(i.shapes[1]), { type: 'none' });
    case 'pdpd': return () => tc.autoBroadcastShape(shapeOf(i.A), shapeOf(i.B), { type: 'pdpd', axis: i.axis });
    case 'numpy_to':
    case 'broadcast_to_minus1':
      return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target));
    case 'onnx_unidirectional': return () => tc.broadcastToShape(shapeOf(i.B), shapeOf(i.A));
    case 'bidirectional': return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target), { mode: 'bidirectional' });
    case 'pdpd_broadcast_op': return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target), { mode: 'pdpd', axis: i.axis });
    case 'explicit':
      if (!Array.isArray(i.axes_mapping)) return null; // a mapping not known yet: engine-only (C++ suite)
      return () => tc.broadcastToShape(shapeOf(i.input), shapeOf(i.target), { mode: 'explicit', axesMapping: i.axes_mapping });
    default: return null;
  }
}

export function nameOf(c) {
  const i = c.inputs;
  const parts = i.shapes ? i.shapes : i.A ? [i.A, i.B] : [i.input, i.target];
  const s = parts.map((p) => JSON.stringify(p)).join(' ');
  return `${c.family}: ${s}${i.axis !== undefined ? ` axis ${i.axis}` : ''}${i.axes_mapping ? ` map ${JSON.stringify(i.axes_mapping)}` : ''} -> ${c.expect.error ? 'error' : JSON.stringify(c.expect.shape)}`;
}

export const all = [...golden.cases, ...golden.dynamic_cases];
// Not expressible here: ONNX symbolic dims in an expected shape (symbols are
// read as '?', so a result cannot carry "$a") and ONNX "no shape inferred".
export const runnable = all.filter((c) => c.family !== 'named_missing' && runner(null, c) && c.expect.shape !== null
  && !JSON.stringify(c.expect).includes('"$'));

export const numpyCorpus = JSON.parse(readFileSync(new URL('../fixtures/numpy_shapes.json', import.meta.url), 'utf8'));

// Per family: the call the case stands for (§ of the spec), through `tc` (an entry's API).
export const numpyFamilies = (tc) => ({
  numpy: (c) => tc.broadcastShapes(...c.shapes), // §1
  to_numpy: (c) => tc.broadcastToShape(c.input, c.target), // §4.1
  bidirectional: (c) => tc.broadcastToShape(c.input, c.target, { mode: 'bidirectional' }), // §4.3
  explicit: (c) => tc.broadcastToShape(c.input, c.target, { mode: 'explicit', axesMapping: c.axesMapping }), // §4.2
  pdpd: (c) => tc.autoBroadcastShape(c.a, c.b, { type: 'pdpd', ...('axis' in c ? { axis: c.axis } : {}) }), // §3
});

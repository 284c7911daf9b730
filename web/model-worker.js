// The model explorer's worker: the model is read here, off the page's thread,
// by the library itself (tensorcast/model: its inferShapes, its engine). In
// this page's Vite build 'tensorcast' is the model entry (vite.model.config.js).
// The page gets the list's rows (in parts) and the report without its nodes; it
// asks for one node at a time (the detail panel), from the last read, kept here.
import { init, inferShapes, formatShape } from 'tensorcast';
import { summarize, listRows } from './model-logic.js';

const ROWS_A_MESSAGE = 2000;
let ready = null;
let last = null; // { id, report }: the last model read

self.onmessage = async (e) => {
  const { id, model, bin, xml, of, k } = e.data;
  if (of !== undefined) { // node k of read `of`; a read since then makes the question stale
    self.postMessage(last?.id === of ? { id, ok: true, node: last.report.nodes[k] } : { id, ok: false, stale: true });
    return;
  }
  try {
    last = null;
    ready ??= init();
    await ready;
    const t0 = performance.now();
    const report = inferShapes(model, bin ? { bin } : {});
    const ms = performance.now() - t0;
    last = { id, report };
    const { nodes, ...rest } = report;
    // The rows in parts, each a short task for the page to receive (80,000 at once took it 0.2 s), then the rest.
    const rows = listRows(nodes, formatShape);
    for (let i = 0; i < rows.length; i += ROWS_A_MESSAGE) self.postMessage({ id, rows: rows.slice(i, i + ROWS_A_MESSAGE) });
    // The node the page opens first (the first row: the first problem, else the first node) comes with it.
    self.postMessage({ id, ok: true, report: { ...rest, count: nodes.length }, summary: summarize(report), first: rows.length ? nodes[rows[0].k] : null, ms });
  } catch (err) {
    ready = err && err.name === 'TypeError' ? ready : null;
    let message = String(err?.message ?? err);
    // An .xml goes as its bytes (inferShapes decodes them as they declare); bytes with no '<' first are read as ONNX.
    if (xml && /^inferShapes: not an ONNX model/.test(message)) message = 'inferShapes: not an OpenVINO IR (the .xml does not start with <)';
    self.postMessage({ id, ok: false, error: { name: err?.name ?? 'Error', message } });
  }
};

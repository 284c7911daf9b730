// The model explorer's pure logic: what it shows of inferShapes()'s report
// (tensorcast/model). Nothing here infers or checks a shape: the report says
// everything; this file counts, words and filters it. No DOM, no globals.

/** The statuses of a node, in the order the page lists them, with their words. */
export const STATUSES = [
  { value: 'clash', label: 'clash', note: 'the rule refuses the shapes' },
  { value: 'declared-mismatch', label: 'declared mismatch', note: 'the rule and the file disagree' },
  { value: 'unknown', label: 'unknown', note: 'an input shape could not be known' },
  { value: 'ok', label: 'ok', note: 'the shapes broadcast' },
];

const ORDER = new Map(STATUSES.map((s, i) => [s.value, i]));

/** Nodes by status and by op type: { byStatus: {status: n}, ops: [{ op, count }] } (ops by count, then name). */
export function summarize(report) {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s.value, 0]));
  const ops = new Map();
  for (const n of report.nodes) {
    byStatus[n.status] = (byStatus[n.status] ?? 0) + 1;
    ops.set(n.opType, (ops.get(n.opType) ?? 0) + 1);
  }
  return {
    byStatus,
    ops: [...ops].map(([op, count]) => ({ op, count })).sort((a, b) => b.count - a.count || (a.op < b.op ? -1 : 1)),
  };
}

/** A shape as the page prints it: (batch,seq,768); `?` for an unknown rank. */
export function shapeText(shape, formatShape) {
  return shape === null || shape === undefined ? '(rank unknown)' : formatShape(shape);
}

/**
 * One line per node: `Add (batch,seq,768) ⊕ (768) → (batch,seq,768)`; the
 * output is ✕ for a clash and ? for an unknown. A Broadcast-like node's target
 * (Expand's shape, the values) is written `to`.
 */
export function nodeLine(node, formatShape) {
  const ins = node.inputs.filter((i) => !i.values).map((i) => shapeText(i.shape, formatShape));
  const target = node.inputs.find((i) => i.values);
  const lhs = ins.join(' ⊕ ') + (target ? ` to ${shapeText(target.shape, formatShape)}` : '');
  const out = node.status === 'clash' ? '✕' : node.status === 'unknown' && node.output.shape === null ? '?' : shapeText(node.output.shape, formatShape);
  return `${node.opType} ${lhs} → ${out}`;
}

/** The node's name for a person: its own, else `<op> #<index>` in its graph. */
export function nodeName(node) {
  return node.name || `${node.opType} #${node.index}`;
}

/** The nodes that pass the filters: status ('' any), op ('' any), text (in the name, op or graph, any case). */
export function filterNodes(nodes, { status = '', op = '', text = '' } = {}) {
  const t = text.trim().toLowerCase();
  return nodes.filter((n) => (!status || n.status === status) && (!op || n.opType === op)
    && (!t || nodeName(n).toLowerCase().includes(t) || n.opType.toLowerCase().includes(t) || n.graph.toLowerCase().includes(t)));
}

/** The nodes in the order the page lists them: problems first, then each graph in file order. */
export function sortNodes(nodes) {
  return nodes.map((n, i) => [n, i]).sort((a, b) => (ORDER.get(a[0].status) - ORDER.get(b[0].status)) || a[1] - b[1]).map(([n]) => n);
}

/**
 * What the list needs of each node, in the order it lists them (sortNodes): { k (the node's place
 * in `nodes`), status, opType, name, index, graph, line (nodeLine) }, no plan. The worker sends
 * these, not the report's nodes: 80,000 nodes with their plans took the page's thread 2–4 s to
 * receive. filterNodes and nodeName take a row as they take a node.
 */
export function listRows(nodes, formatShape) {
  return sortNodes(nodes.map((n, k) => ({ k, status: n.status, opType: n.opType, name: n.name, index: n.index, graph: n.graph, line: nodeLine(n, formatShape) })));
}

/**
 * What a person dropped: the model (an .onnx, or an .xml IR with its .bin
 * beside it) as { kind: 'onnx' | 'openvino', model: File, bin: File | null },
 * or { error } naming what is missing.
 */
export function pickFiles(files) {
  const list = [...files];
  const by = (re) => list.find((f) => re.test(f.name));
  // One model at a time: a second one was read as nothing, silently.
  const models = list.filter((f) => /\.(onnx|xml)$/i.test(f.name));
  if (models.length > 1) return { error: `Drop one model at a time (an .onnx, or an .xml with its .bin), not ${models.map((f) => f.name).join(', ')}` };
  const xml = models[0]?.name.match(/\.xml$/i) ? models[0] : null;
  if (xml) {
    // Its own weights (m.xml, m.bin) before any other .bin dropped with it.
    const own = `${xml.name.slice(0, -4)}.bin`.toLowerCase();
    const bin = list.find((f) => f.name.toLowerCase() === own) ?? by(/\.bin$/i) ?? null;
    return { kind: 'openvino', model: xml, bin };
  }
  if (list.length === 1 && /\.bin$/i.test(list[0].name)) return { error: `${list[0].name} holds an OpenVINO IR's weights: drop it together with its .xml` };
  const onnx = by(/\.onnx$/i) ?? (list.length === 1 ? list[0] : null);
  if (onnx) return { kind: 'onnx', model: onnx, bin: null };
  return { error: list.length ? `Drop an .onnx file, or an OpenVINO IR .xml (with its .bin), not ${list.map((f) => f.name).join(', ')}` : 'No file' };
}

/** A byte count for the summary: 4.7 MB, 551 B. */
export function sizeText(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

// The model explorer page: a dropped (or picked, or sample) model goes to a
// worker that reads it with the library's inferShapes() (model-worker.js);
// this file draws the report: the summary, the names and what they must
// satisfy, the broadcasting nodes (filterable), and one node's alignment
// table, the broadcast explorer's own (align.js). The worker sends the list's
// rows, not the nodes; a node is asked for when it is shown. DOM through dom.js only.
import { formatShape } from 'tensorcast';
import { STATUSES, nodeName, filterNodes, pickFiles, sizeText } from './model-logic.js';
import { renderTable } from './align.js';
import { $, h } from './dom.js';

const SAMPLES = [
  { file: 'attention.onnx', label: 'Attention block', note: 'names kept through Reshape and Transpose; a (batch,1,1,seq) mask' },
  { file: 'checks.onnx', label: 'Every status', note: 'a clash, a declared mismatch, an unknown op, batch forced to 1' },
];

// The worker, started again when a model is picked while another is still being read (its
// answer would be stale, and the new one would wait behind it), or after it failed (a worker
// whose script did not load never answers).
let worker = null;
const pending = new Map(); // the reads in flight, by id
let nextId = 0;
let broken = false; // the worker failed: the next read starts another
function startWorker() {
  worker?.terminate();
  broken = false;
  for (const p of pending.values()) p({ ok: false, stale: true });
  pending.clear();
  worker = new Worker(new URL('./model-worker.js', import.meta.url), { type: 'module' });
  const received = new Map(); // a read's rows so far, by id: they come in parts, before its answer
  worker.onmessage = (e) => {
    const { id, rows: part } = e.data;
    if (part) {
      if (!received.has(id)) received.set(id, []);
      for (const r of part) received.get(id).push(r);
      return;
    }
    const p = pending.get(id);
    pending.delete(id);
    if (p) p(e.data.report ? { ...e.data, rows: received.get(id) ?? [] } : e.data);
    received.delete(id);
  };
  worker.onerror = (e) => {
    broken = true;
    for (const p of pending.values()) p({ ok: false, error: { name: 'Error', message: e.message || 'the worker failed' } });
    pending.clear();
  };
}
startWorker();

/** A question to the worker (a read, or one node of it); its answer, with the question's id. */
function ask(message, transfer = []) {
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, (res) => resolve({ ...res, id }));
    worker.postMessage({ id, ...message }, transfer);
  });
}

function infer(model, bin, xml) {
  if (pending.size > 0 || broken) startWorker();
  return ask({ model, bin, xml }, [model, bin].filter((x) => x instanceof ArrayBuffer));
}

// Each pick (a file, a drop, a sample) is one generation: a later pick makes every step of an
// earlier one that is still running return without drawing, so the page shows the last pick only.
let generation = 0;

let report = null; // the report without its nodes, and `count`, how many
let summary = null; // summarize(report), made by the worker
let rows = null; // listRows(report.nodes), the list's rows in its order
let readId = 0; // the worker's read of the report shown: the one it answers nodes of
let current = null; // the row (its k) in the node panel
let source = '';

// ---- loading ----------------------------------------------------------------

async function open(gen, model, bin, xml = false) {
  const t0 = performance.now();
  const res = await infer(model, bin, xml);
  if (gen !== generation) return; // a later pick: its answer is the one to show
  if (!res.ok) { fail(res.error); return; }
  ({ report, summary, rows } = res);
  readId = res.id;
  current = null;
  showSummary({ ms: res.ms });
  buildFilters();
  renderList();
  await selectNode(rows[0] ?? null, res.first); // the first problem, else the first node (sent with the report)
  if (gen !== generation) return;
  // For the benchmarks: the time from the drop to the listed nodes (the first rows and node drawn).
  const listed = performance.now() - t0;
  document.body.dataset.listedMs = String(Math.round(listed));
  document.body.dataset.nodes = String(report.count);
}

/** No report: the error in the summary, and nothing of an earlier model left on the page. */
function fail(error) {
  report = null;
  rows = null;
  current = null;
  showSummary({ error });
  $('nodes-section').hidden = true;
  $('node-section').hidden = true;
}

/** A new pick: `name` is being read (`bytes` long, when known). Returns its generation. */
function begin(name, bytes) {
  const gen = ++generation;
  source = bytes === null ? name : `${name} (${sizeText(bytes)})`;
  showSummary({ busy: `Reading ${source}…` });
  return gen;
}

async function openFiles(files) {
  const pick = pickFiles(files);
  if (pick.error) { ++generation; fail({ name: 'Error', kind: 'Cannot open', message: pick.error }); return; }
  const gen = begin(pick.model.name + (pick.bin ? ` + ${pick.bin.name}` : ''), pick.model.size + (pick.bin ? pick.bin.size : 0));
  let model;
  let bin;
  try {
    model = await pick.model.arrayBuffer(); // an .xml too: inferShapes decodes it as it declares
    bin = pick.bin ? await pick.bin.arrayBuffer() : null;
  } catch (e) { // a folder, or a file gone or unreadable since it was picked
    if (gen === generation) fail({ name: 'Error', kind: 'Cannot open', message: `could not read ${pick.model.name}${pick.bin ? ` or ${pick.bin.name}` : ''} (a folder is not a model: drop the files in it): ${e?.message ?? e}` });
    return;
  }
  if (gen !== generation) return;
  await open(gen, model, bin, pick.kind === 'openvino');
}

async function openSample(s) {
  const gen = begin(s.file, null);
  let buf;
  try {
    const r = await fetch(`./samples/${s.file}`);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    buf = await r.arrayBuffer();
  } catch (e) {
    if (gen === generation) fail({ name: 'Error', message: `could not load the sample ${s.file}: ${e?.message ?? e}` });
    return;
  }
  if (gen !== generation) return;
  source = `${s.file} (${sizeText(buf.byteLength)})`;
  await open(gen, buf, null);
}

// ---- the summary ----------------------------------------------------------------

function showSummary({ busy, error, ms }) {
  const el = $('summary');
  el.replaceChildren();
  el.className = 'status';
  $('symbols').replaceChildren();
  $('coverage').textContent = '';
  if (busy) { el.textContent = busy; return; }
  if (error) {
    el.classList.add('is-error');
    el.append(h('span', { class: 'status-kind', text: error.kind ?? (error.name === 'TypeError' ? 'Not a model' : 'Error') }), h('span', { class: 'status-msg', text: error.message }));
    return;
  }
  const { byStatus, ops } = summary;
  const problems = byStatus.clash + byStatus['declared-mismatch'];
  el.classList.add(problems ? 'is-error' : 'is-ok');
  el.append(h('span', { class: 'status-kind', text: `${report.format === 'onnx' ? 'ONNX' : 'OpenVINO IR'} · ${source}` }),
    h('span', { class: 'status-meta', text: `${report.count} broadcasting node${report.count === 1 ? '' : 's'} of ${report.coverage.nodes} · read in ${ms.toFixed(1)} ms` }));
  const counts = h('div', { class: 'counts' });
  for (const s of STATUSES) counts.append(h('span', { class: `chip s-${s.value}`, title: s.note, text: `${byStatus[s.value]} ${s.label}` }));
  el.append(counts);
  const opsets = Object.entries(report.opsets).map(([d, v]) => `${d || 'ai.onnx'} ${v}`).join(', ');
  const cov = report.coverage;
  $('coverage').textContent = `Opsets: ${opsets}. Ops: ${ops.map((o) => `${o.op} ×${o.count}`).join(', ') || 'none'}. `
    + `Shapes inferred for ${cov.inferred} of ${cov.nodes} nodes${cov.declared ? `, taken from the file for ${cov.declared}` : ''}`
    + `${cov.unknownOps.length ? `; ops without a shape function: ${cov.unknownOps.join(', ')}` : ''}.`;
  if (report.symbols.length) {
    const list = h('ul', { class: 'symbol-list', 'aria-label': 'Named dims' });
    for (const s of report.symbols) {
      const values = s.values === null ? 'any size' : s.values.length ? `∈ {${s.values.join(', ')}}` : 'no possible size';
      list.append(h('li', null, h('code', { text: s.name }), ` ${values}`,
        s.constraints.length ? h('ul', null, s.constraints.map((c) => h('li', { text: c }))) : null));
    }
    $('symbols').append(h('p', { class: 'hint', text: 'Named dims, and what the model asks of them:' }), list);
  }
}

// ---- the node list ----------------------------------------------------------------

function buildFilters() {
  const st = $('filter-status');
  st.replaceChildren(h('option', { value: '', text: 'all' }));
  const { byStatus, ops } = summary;
  for (const s of STATUSES) if (byStatus[s.value]) st.append(h('option', { value: s.value, text: `${s.label} (${byStatus[s.value]})` }));
  const op = $('filter-op');
  op.replaceChildren(h('option', { value: '', text: 'all' }));
  for (const o of ops) op.append(h('option', { value: o.op, text: `${o.op} (${o.count})` }));
  $('filter-text').value = '';
}

const LIST_LIMIT = 2000;
const FIRST_ROWS = 60; // drawn at once: more than the list's height shows
const MORE_ROWS = 250; // then this many a task, so that a long list never holds the page
let rowOf = new Map(); // each listed row's button, by k
let listing = 0; // each listing's number: a newer one stops the rest of an older one

function renderList() {
  const shown = filterNodes(rows, { status: $('filter-status').value, op: $('filter-op').value, text: $('filter-text').value });
  // The panel shows a listed node only: one the filters now hide is closed with its row.
  if (current !== null && !shown.some((r) => r.k === current)) selectNode(null);
  const list = $('node-list');
  list.replaceChildren();
  rowOf = new Map();
  const n = ++listing;
  const end = Math.min(shown.length, LIST_LIMIT);
  const add = (from, to) => {
    const part = document.createDocumentFragment();
    for (const r of shown.slice(from, to)) {
      const b = h('button', { type: 'button', class: 'node-row', 'aria-current': r.k === current ? 'true' : null },
        h('span', { class: `chip s-${r.status}`, text: STATUSES.find((s) => s.value === r.status).label }),
        h('span', { class: 'line', text: r.line }),
        h('span', { class: 'where', text: `${nodeName(r)} · ${r.graph}` }));
      b.addEventListener('click', () => selectNode(r));
      rowOf.set(r.k, b);
      part.append(h('li', null, b));
    }
    list.append(part);
    if (to < end) setTimeout(() => { if (n === listing) add(to, Math.min(end, to + MORE_ROWS)); });
  };
  add(0, Math.min(end, FIRST_ROWS));
  $('nodes-count').textContent = `${shown.length} of ${report.count} nodes${shown.length > LIST_LIMIT ? ` (the first ${LIST_LIMIT} listed: filter to see the rest)` : ''}.`;
  $('nodes-section').hidden = false;
}

// ---- one node ----------------------------------------------------------------------

/** Show row `r`'s node (`node` when the page has it, else asked of the worker), or none for null. */
async function selectNode(r, node = null) {
  const k = r === null ? null : r.k;
  rowOf.get(current)?.removeAttribute('aria-current');
  rowOf.get(k)?.setAttribute('aria-current', 'true');
  current = k;
  if (k === null) { $('node-section').hidden = true; return; }
  if (node !== null) { drawNode(node); return; }
  const res = await ask({ of: readId, k });
  if (res.ok && current === k) drawNode(res.node); // else another node, or another model, since
}

function drawNode(n) {
  $('node-section').hidden = false;
  const fields = [
    ['node', `${nodeName(n)} (${n.opType}) in ${n.graph}`],
    ['rule', n.rule],
    ...n.inputs.map((i) => [i.values ? 'target' : 'input', `${i.name}: ${i.shape === null ? 'unknown' : formatShape(i.shape)}${i.declared ? ' (the declared output)' : ''}`]),
    ['inferred', n.output.shape === null ? 'unknown' : formatShape(n.output.shape)],
  ];
  if (n.output.declared) fields.push(['declared', formatShape(n.output.declared)]);
  if (n.lostAt) fields.push(['lost at', `${n.lostAt}: the first node upstream whose output shape could not be known`]);
  if (n.error) fields.push([n.status === 'clash' ? 'error' : 'mismatch', `${n.error.code ?? n.error.name}: ${n.error.message}`]);
  const dl = h('dl', { class: 'detail-grid' });
  for (const [k, v] of fields) dl.append(h('dt', { text: k }), h('dd', { text: v }));
  $('node-detail').replaceChildren(dl);
  if (n.plan && n.plan.operands && n.plan.operands.length) renderTable(n.plan, n.request ?? null);
  else {
    $('align-scroll').replaceChildren(h('p', { class: 'empty', text: n.status === 'unknown' ? 'No alignment: an input shape is unknown.' : 'No alignment to draw for this node.' }));
    for (const id of ['legend-unknown', 'legend-dropped', 'legend-labels']) $(id).hidden = true; // no table: none of its marks
  }
}

// ---- wiring -----------------------------------------------------------------------

function wire() {
  for (const s of SAMPLES) {
    const b = h('button', { type: 'button', class: 'example', title: s.note },
      h('span', { class: 'example-name', text: s.label }), h('span', { class: 'example-note', text: s.note }));
    b.addEventListener('click', () => openSample(s));
    $('samples').append(b);
  }
  $('file').addEventListener('change', (e) => {
    const picked = [...e.target.files];
    e.target.value = ''; // the same file picked again is a change again (a retry, a model saved anew)
    if (picked.length) openFiles(picked);
  });
  // A file dropped anywhere on the page is opened (outside the zone the browser would open it in
  // the page's place, and the report would be lost).
  // Only files: text dragged into the filter box is the browser's to drop, and lights no zone.
  const files = (e) => e.dataTransfer?.types.includes('Files');
  const zone = $('dropzone');
  zone.addEventListener('dragover', (e) => { if (files(e)) zone.classList.add('is-over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('is-over'));
  window.addEventListener('dragover', (e) => { if (files(e)) e.preventDefault(); });
  window.addEventListener('drop', (e) => {
    if (!files(e)) return;
    e.preventDefault();
    zone.classList.remove('is-over');
    if (e.dataTransfer.files.length) openFiles(e.dataTransfer.files);
  });
  for (const id of ['filter-status', 'filter-op']) $(id).addEventListener('change', () => report && renderList());
  $('filter-text').addEventListener('input', () => report && renderList());
  showSummary({ busy: 'Drop a model, pick one, or try a sample.' });
  document.body.dataset.ready = 'true';
}

wire();

// The model explorer page: a dropped (or picked, or sample) model goes to a
// worker that reads it with the library's inferShapes() (model-worker.js);
// this file draws the report: the summary, the names and what they must
// satisfy, the broadcasting nodes (filterable), and one node's alignment
// table, the broadcast explorer's own (align.js). DOM through dom.js only.
import { formatShape } from 'tensorcast';
import { STATUSES, summarize, nodeLine, nodeName, filterNodes, sortNodes, firstNode, pickFiles, sizeText } from './model-logic.js';
import { renderTable } from './align.js';
import { $, h } from './dom.js';

const SAMPLES = [
  { file: 'attention.onnx', label: 'Attention block', note: 'names kept through Reshape and Transpose; a (batch,1,1,seq) mask' },
  { file: 'checks.onnx', label: 'Every status', note: 'a clash, a declared mismatch, an unknown op, batch forced to 1' },
];

// The worker, started again when a model is picked while another is still being read (its
// answer would be stale, and the new one would wait behind it).
let worker = null;
const pending = new Map(); // the reads in flight, by id
let nextId = 0;
function startWorker() {
  worker?.terminate();
  for (const p of pending.values()) p({ ok: false, stale: true });
  pending.clear();
  worker = new Worker(new URL('./model-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (e) => {
    const p = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (p) p(e.data);
  };
  worker.onerror = (e) => {
    for (const p of pending.values()) p({ ok: false, error: { name: 'Error', message: e.message || 'the worker failed' } });
    pending.clear();
  };
}
startWorker();

function infer(model, bin) {
  if (pending.size > 0) startWorker();
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ id, model, bin }, [model, bin].filter((x) => x instanceof ArrayBuffer));
  });
}

// Each pick (a file, a drop, a sample) is one generation: a later pick makes every step of an
// earlier one that is still running return without drawing, so the page shows the last pick only.
let generation = 0;

let report = null;
let current = null;
let source = '';

// ---- loading ----------------------------------------------------------------

async function open(gen, model, bin) {
  const t0 = performance.now();
  const res = await infer(model, bin);
  if (gen !== generation) return; // a later pick: its answer is the one to show
  if (!res.ok) { fail(res.error); return; }
  report = res.report;
  showSummary({ ms: res.ms });
  buildFilters();
  renderList();
  const first = firstNode(report.nodes);
  selectNode(first);
  // For the benchmarks: the time from the drop to the listed nodes.
  const listed = performance.now() - t0;
  document.body.dataset.listedMs = String(Math.round(listed));
  document.body.dataset.nodes = String(report.nodes.length);
}

/** No report: the error in the summary, and nothing of an earlier model left on the page. */
function fail(error) {
  report = null;
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
    model = pick.kind === 'openvino' ? await pick.model.text() : await pick.model.arrayBuffer();
    bin = pick.bin ? await pick.bin.arrayBuffer() : null;
  } catch (e) { // a folder, or a file gone or unreadable since it was picked
    if (gen === generation) fail({ name: 'Error', kind: 'Cannot open', message: `could not read ${pick.model.name}${pick.bin ? ` or ${pick.bin.name}` : ''} (a folder is not a model: drop the files in it): ${e?.message ?? e}` });
    return;
  }
  if (gen !== generation) return;
  await open(gen, model, bin);
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
  const { byStatus, ops } = summarize(report);
  const problems = byStatus.clash + byStatus['declared-mismatch'];
  el.classList.add(problems ? 'is-error' : 'is-ok');
  el.append(h('span', { class: 'status-kind', text: `${report.format === 'onnx' ? 'ONNX' : 'OpenVINO IR'} · ${source}` }),
    h('span', { class: 'status-meta', text: `${report.nodes.length} broadcasting node${report.nodes.length === 1 ? '' : 's'} of ${report.coverage.nodes} · read in ${ms.toFixed(1)} ms` }));
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
  const { byStatus, ops } = summarize(report);
  for (const s of STATUSES) if (byStatus[s.value]) st.append(h('option', { value: s.value, text: `${s.label} (${byStatus[s.value]})` }));
  const op = $('filter-op');
  op.replaceChildren(h('option', { value: '', text: 'all' }));
  for (const o of ops) op.append(h('option', { value: o.op, text: `${o.op} (${o.count})` }));
  $('filter-text').value = '';
}

const LIST_LIMIT = 2000;
let rowOf = new Map(); // each listed node's button

function renderList() {
  const shown = sortNodes(filterNodes(report.nodes, { status: $('filter-status').value, op: $('filter-op').value, text: $('filter-text').value }));
  const list = $('node-list');
  list.replaceChildren();
  rowOf = new Map();
  for (const n of shown.slice(0, LIST_LIMIT)) {
    const b = h('button', { type: 'button', class: 'node-row', 'aria-current': n === current ? 'true' : null },
      h('span', { class: `chip s-${n.status}`, text: STATUSES.find((s) => s.value === n.status).label }),
      h('span', { class: 'line', text: nodeLine(n, formatShape) }),
      h('span', { class: 'where', text: `${nodeName(n)} · ${n.graph}` }));
    b.addEventListener('click', () => selectNode(n));
    rowOf.set(n, b);
    list.append(h('li', null, b));
  }
  $('nodes-count').textContent = `${shown.length} of ${report.nodes.length} nodes${shown.length > LIST_LIMIT ? ` (the first ${LIST_LIMIT} listed: filter to see the rest)` : ''}.`;
  $('nodes-section').hidden = false;
}

// ---- one node ----------------------------------------------------------------------

function selectNode(n) {
  rowOf.get(current)?.removeAttribute('aria-current');
  rowOf.get(n)?.setAttribute('aria-current', 'true');
  current = n;
  $('node-section').hidden = n === null;
  if (n === null) return;
  const rows = [
    ['node', `${nodeName(n)} (${n.opType}) in ${n.graph}`],
    ['rule', n.rule],
    ...n.inputs.map((i) => [i.values ? 'target' : 'input', `${i.name}: ${i.shape === null ? 'unknown' : formatShape(i.shape)}${i.declared ? ' (the declared output)' : ''}`]),
    ['inferred', n.output.shape === null ? 'unknown' : formatShape(n.output.shape)],
  ];
  if (n.output.declared) rows.push(['declared', formatShape(n.output.declared)]);
  if (n.lostAt) rows.push(['lost at', `${n.lostAt}: the first node upstream whose output shape could not be known`]);
  if (n.error) rows.push([n.status === 'clash' ? 'error' : 'mismatch', `${n.error.code ?? n.error.name}: ${n.error.message}`]);
  const dl = h('dl', { class: 'detail-grid' });
  for (const [k, v] of rows) dl.append(h('dt', { text: k }), h('dd', { text: v }));
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
  const zone = $('dropzone');
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('is-over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('is-over'));
  // A file dropped anywhere on the page is opened (outside the zone the browser would open it in
  // the page's place, and the report would be lost).
  // Only files: text dragged into the filter box is the browser's to drop.
  const files = (e) => e.dataTransfer?.types.includes('Files');
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

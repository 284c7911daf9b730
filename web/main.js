// The broadcast explorer page: wires inputs to the library's explain() and
// draws the plan it returns. Every verdict, stride and error comes from the
// library; this file only builds DOM (createElement/textContent, never
// innerHTML) and keeps the state in the URL.
import { init, explain, add, broadcastTo } from 'tensorcast';
import {
  RULES, EXAMPLES, MAX_OPERANDS, CODE_TABS, letter, operandArity,
  usesAxis, operandRole, parseShape, parseMapping, formatShape, formatList, formatCount, formatBytes,
  stateFromQuery, stateToQuery, canonicalState, applyPatch, buildRequest, axisVerdict, clashAxes, droppedAxes,
  rightAlign, memoryView, previewable, sourceIndexMaps, gridSlices, unravel, product, planSize,
  suggest, exampleState, withDefaultNames, withNamedSizes, dtypeList, itemSize, UNKNOWN_RANK, backwardView,
} from './logic.js';
import { codeFor, CODE_LABELS } from './code.js';

const lib = { explain };
const $ = (id) => document.getElementById(id);

/** createElement with attributes and children; text is always textContent. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Read from the URL once the engine is loaded (the dtype list is the library's).
let state = null;
let result = null;

// ---- controls ---------------------------------------------------------------

function buildStaticControls() {
  const rule = $('rule');
  const groups = new Map();
  for (const r of RULES) {
    if (!groups.has(r.group)) {
      const g = h('optgroup', { label: r.group });
      groups.set(r.group, g);
      rule.append(g);
    }
    groups.get(r.group).append(h('option', { value: r.value, text: r.label }));
  }
  const dtype = $('dtype');
  for (const d of dtypeList()) dtype.append(h('option', { value: d.name, text: d.size ? `${d.name} (${d.size} B)` : d.name }));
  const ex = $('examples');
  for (const e of EXAMPLES) {
    const b = h('button', { type: 'button', class: 'example', 'data-example': e.id, title: e.note },
      h('span', { class: 'example-name', text: e.label }), h('span', { class: 'example-note', text: e.note }));
    b.addEventListener('click', () => setState(exampleState(e), { push: true, structure: true }));
    ex.append(b);
  }

  // A new rule keeps only what it uses (canonicalState), so no stale parameter stays on screen or in the URL.
  rule.addEventListener('change', () => setState(withDefaultNames(canonicalState({ ...state, rule: rule.value })), { structure: true }));
  $('add-operand').addEventListener('click', () => {
    if (state.shapes.length >= MAX_OPERANDS) return;
    setState(applyPatch(state, { shapes: [...state.shapes, '1'], names: [...state.names, ''] }), { structure: true });
    const inputs = $('operands').querySelectorAll('input.shape-input');
    inputs[inputs.length - 1]?.focus();
    inputs[inputs.length - 1]?.select();
  });
  const axis = $('axis');
  axis.addEventListener('input', () => setState({ ...state, axis: Number(axis.value) }));
  $('mapping').addEventListener('input', (e) => setState({ ...state, mapping: e.target.value }));
  $('shaping').addEventListener('change', (e) => setState({ ...state, shaping: e.target.value }));
  dtype.addEventListener('change', (e) => setState({ ...state, dtype: e.target.value }));
  $('backward-toggle').addEventListener('change', (e) => setState({ ...state, backward: e.target.checked }));
  window.addEventListener('popstate', () => setState(stateFromQuery(location.search), { structure: true, noUrl: true }));

  // "Copy as code": one tab per framework (arrow keys move between them).
  const tabs = $('code-tabs');
  for (const t of CODE_TABS) {
    const b = h('button', { type: 'button', role: 'tab', id: `code-tab-${t}`, class: 'tab', 'data-tab': t, 'aria-controls': 'code-panel', text: CODE_LABELS[t] });
    b.addEventListener('click', () => setState({ ...state, code: t }));
    tabs.append(b);
  }
  tabs.addEventListener('keydown', (e) => {
    const i = CODE_TABS.indexOf(state.code);
    const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: CODE_TABS.length - 1 }[e.key];
    if (j === undefined) return;
    e.preventDefault();
    const t = CODE_TABS[(j + CODE_TABS.length) % CODE_TABS.length];
    setState({ ...state, code: t });
    $(`code-tab-${t}`).focus();
  });
  $('copy-code').addEventListener('click', copyCode);
}

/** Rebuild the operand rows (only when their number or kind changes, so typing keeps focus). */
function buildOperandRows() {
  const box = $('operands');
  box.replaceChildren();
  const arity = operandArity(state.rule);
  const shown = arity === null ? state.shapes.length : 2;
  while (state.shapes.length < shown) { state.shapes.push('1'); state.names.push(''); }
  const named = state.rule === 'named';
  for (let i = 0; i < shown; i++) {
    const L = letter(i);
    const role = operandRole(state.rule, i);
    const id = `shape-${i}`;
    const errId = `shape-${i}-error`;
    const row = h('div', { class: 'operand', 'data-operand': L });
    const labelRow = h('div', { class: 'label-row' },
      h('label', { for: id }, `Shape ${L}`, role ? h('span', { class: 'role', text: ` · ${role}` }) : null));
    if (arity === null && state.shapes.length > 1) {
      const rm = h('button', { type: 'button', class: 'icon-btn', 'aria-label': `Remove ${L}`, title: `Remove operand ${L}`, text: '×' });
      rm.addEventListener('click', () => {
        const shapes = state.shapes.filter((_, k) => k !== i);
        const names = state.names.filter((_, k) => k !== i);
        setState(applyPatch(state, { shapes, names }), { structure: true });
        $('operands').querySelector('input.shape-input')?.focus();
      });
      labelRow.append(rm);
    }
    const input = h('input', {
      id, class: 'shape-input', type: 'text', value: state.shapes[i], autocomplete: 'off', spellcheck: 'false',
      autocapitalize: 'off', 'aria-describedby': errId, 'data-index': i,
    });
    input.value = state.shapes[i];
    input.addEventListener('input', () => {
      const shapes = [...state.shapes];
      shapes[i] = input.value;
      setState({ ...state, shapes });
    });
    row.append(labelRow, input);
    if (named) {
      const nid = `names-${i}`;
      const names = h('input', {
        id: nid, class: 'names-input', type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
        placeholder: i === 0 ? 'x, y  or  X{x1,x2}' : 'y', 'aria-describedby': errId,
      });
      names.value = state.names[i] ?? '';
      names.addEventListener('input', () => {
        const ns = [...state.names];
        const prev = ns[i];
        ns[i] = names.value;
        // Coordinates decide a labelled dim's size: the shape follows them.
        setState(withNamedSizes({ ...state, names: ns }, i, prev));
      });
      row.append(h('label', { for: nid, class: 'sub-label', text: `Dims ${L}` }), names);
      if (i === 0) row.append(h('p', { class: 'hint', text: 'A dim with coordinates, X{x1,x2}, takes its size from them.' }));
    }
    row.append(h('p', { class: 'field-error', id: errId, 'aria-live': 'off' }));
    box.append(row);
  }
  $('add-operand').hidden = arity !== null;
  $('add-operand').disabled = state.shapes.length >= MAX_OPERANDS;
}

function syncControls() {
  $('rule').value = state.rule;
  const info = RULES.find((r) => r.value === state.rule);
  $('rule-hint').textContent = info ? `${info.hint} Spec ${info.spec}.` : '';
  // Axis slider: -1 .. rank of A (pdpd) or of the target (Broadcast pdpd).
  const axisField = $('axis-field');
  axisField.hidden = !usesAxis(state.rule);
  if (usesAxis(state.rule)) {
    const ref = parseShape(state.shapes[state.rule === 'pdpd' ? 0 : 1] ?? '');
    const rank = ref.ok && Array.isArray(ref.shape) ? ref.shape.length : 8;
    const axis = $('axis');
    axis.max = String(Math.max(rank, state.axis, 0));
    axis.value = String(state.axis);
    $('axis-value').textContent = String(state.axis);
    axis.setAttribute('aria-valuetext', state.axis === -1 ? '-1 (from the right)' : String(state.axis));
    $('axis-hint').textContent = state.rule === 'pdpd'
      ? '−1: B aligned to A from the right (rank(A) − rank(B)); otherwise B starts at this axis of A.'
      : '−1: rank(target) − rank(input); otherwise the input starts at this axis of the target.';
  }
  $('mapping-field').hidden = state.rule !== 'to-explicit';
  if (document.activeElement !== $('mapping')) $('mapping').value = state.mapping;
  $('shaping-field').hidden = state.rule !== 'named';
  $('shaping').value = state.shaping;
  $('dtype').value = state.dtype;
  $('backward-toggle').checked = state.backward;
  $('backward-hint').hidden = !state.backward;
  $('legend-summed').hidden = !state.backward;
  for (const el of $('operands').querySelectorAll('input.shape-input')) {
    const i = Number(el.dataset.index);
    if (document.activeElement !== el && el.value !== state.shapes[i]) el.value = state.shapes[i];
  }
}

// ---- state ------------------------------------------------------------------

function setState(next, opts = {}) {
  next = canonicalState(next);
  const structural = opts.structure
    || next.rule !== state.rule
    || next.shapes.length !== state.shapes.length;
  state = next;
  if (!opts.noUrl) {
    const url = `${location.pathname}?${stateToQuery(state)}`;
    if (opts.push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }
  if (structural) buildOperandRows();
  syncControls();
  render();
}

// ---- rendering --------------------------------------------------------------

function render() {
  const built = buildRequest(state);
  for (const el of document.querySelectorAll('.field-error')) el.textContent = '';
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  if (!built.ok) {
    result = null;
    for (const e of built.errors) {
      const target = e.field === 'shape' ? $(`shape-${e.index}`) : e.field === 'names' ? $(`names-${e.index}`) : e.field === 'mapping' ? $('mapping') : null;
      if (target) target.setAttribute('aria-invalid', 'true');
      const msg = e.field === 'mapping' ? null : $(`shape-${e.index}-error`);
      if (msg) msg.textContent = e.message;
    }
    renderStatus({ parseErrors: built.errors });
    renderSuggestions([]);
    renderTable(null);
    renderBackward(null);
    renderMemory(null);
    renderPreview(null);
    renderMappingEditor();
    renderCode(built, null);
    return;
  }
  result = explain(built.request);
  renderStatus({ result });
  renderSuggestions(result.ok ? [] : suggest(state, result, lib));
  // The backward view: the library's reductionAxes per operand (logic.js backwardView).
  const back = state.backward ? backwardView(built.request, result) : null;
  renderTable(result, built.request, back);
  renderBackward(back);
  renderMemory(result);
  renderPreview(result, built.request);
  renderMappingEditor();
  renderCode(built, result);
}

function resultText(r) {
  if (r.rule === 'named' && r.named) {
    return `${formatShape(r.shape)} with dims (${r.named.dims.join(', ')})`;
  }
  return formatShape(r.shape);
}

function renderStatus({ result: r, parseErrors }) {
  const st = $('status');
  st.replaceChildren();
  st.className = 'status';
  if (parseErrors) {
    st.classList.add('is-input-error');
    st.append(h('span', { class: 'status-kind', text: 'Cannot read the input' }), h('span', { class: 'sr-only', text: ': ' }), h('span', { class: 'status-msg', text: parseErrors.map((e) => e.message).join(' · ') }));
    return;
  }
  if (r.ok) {
    st.classList.add('is-ok');
    const bits = [];
    // The exact count: explain's sizeText past 2^53, never a rounded number.
    const size = r.static ? planSize(r) : null;
    if (size !== null) bits.push(`${formatCount(size)} element${size === 1 ? '' : 's'}`);
    else if (r.static) bits.push('size unknown');
    else if (r.shape === UNKNOWN_RANK) bits.push('unknown rank');
    else bits.push('dynamic dims');
    st.append(
      h('span', { class: 'status-kind', text: 'Result' }), h('span', { class: 'sr-only', text: ' ' }),
      h('code', { class: 'status-shape', 'data-shape': formatShape(r.shape), text: resultText(r) }), h('span', { class: 'sep', 'aria-hidden': 'true', text: ' · ' }),
      h('span', { class: 'status-meta', text: bits.join(' · ') }),
    );
    return;
  }
  st.classList.add('is-error');
  const e = r.error;
  st.append(
    h('span', { class: 'status-kind' }, 'Error ', h('code', { class: 'code', 'data-code': e.code ?? e.name, text: e.code ?? e.name })), h('span', { class: 'sr-only', text: ': ' }),
    h('span', { class: 'status-msg', text: e.message }),
  );
  // Every clashing axis (the error's `clashes` list, or the plan's clash verdicts), not only the one the message names.
  const clashes = clashAxes(r);
  if (clashes.length) {
    const names = r.rule === 'named' && Array.isArray(r.dimNames) ? r.dimNames : null;
    st.append(h('span', { class: 'status-clashes', 'data-clashes': clashes.join(',') },
      clashes.length === 1 ? 'Clashing axis: ' : 'Clashing axes: ',
      clashes.map((a) => (names && names[a] !== undefined ? `${a} (${names[a]})` : String(a))).join(', ')));
  }
}

function renderSuggestions(list) {
  const box = $('suggestions');
  const ul = $('suggestion-list');
  ul.replaceChildren();
  if (!result || result.ok) { box.hidden = true; return; }
  box.hidden = false;
  if (!list.length) {
    ul.append(h('li', { class: 'none', text: 'No reshape, axis or mode change the explorer tried makes these shapes broadcast.' }));
    return;
  }
  for (const s of list) {
    const id = `suggestion-${ul.children.length}`;
    const btn = h('button', { type: 'button', class: 'btn btn-apply', 'aria-describedby': id, text: 'Apply' });
    btn.addEventListener('click', () => {
      setState(applyPatch(state, s.patch), { structure: true, push: true });
      $('status').focus();
    });
    ul.append(h('li', { 'data-kind': s.kind },
      h('span', { class: 'sugg-text', id, text: s.text }), ' ', h('span', { class: 'sugg-result' }, '→ ', h('code', { text: s.result })), btn));
  }
}

/** The dims a Broadcast target row shows (the target is not an operand of the plan). */
function targetRow(request, rank) {
  if (!request || request.rule !== 'broadcastTo') return null;
  const t = request.shapes[1];
  if (!Array.isArray(t)) return null;
  if (request.mode === 'bidirectional') return rightAlign(t, rank);
  return t.length === rank ? t : null;
}

function renderTable(r, request, back = null) {
  const box = $('align-scroll');
  box.replaceChildren();
  if (!r) {
    box.append(h('p', { class: 'empty', text: 'Fix the input to see the alignment.' }));
    return;
  }
  if (r.shape === UNKNOWN_RANK || (!r.ok && r.operands.length === 0)) {
    box.append(h('p', { class: 'empty', text: r.shape === UNKNOWN_RANK
      ? 'An operand has unknown rank ([...]), so the result has unknown rank: there are no axes to align.'
      : 'No plan: the library rejected the input before aligning it.' }));
    return;
  }
  const rank = r.axes.length;
  // Every clashing axis is drawn as one: the error's list and every clash verdict.
  const clash = new Set(clashAxes(r));
  const verdictOf = (a) => axisVerdict(r.axes[a].verdicts, clash.has(a));
  const colAttrs = (a) => ({
    'data-axis': a,
    'data-clash': clash.has(a) ? 'true' : null,
    class: clash.has(a) ? 'col-error' : null,
  });

  const table = h('table', { class: 'align', 'data-rank': rank });
  table.append(h('caption', { class: 'sr-only', text: `Alignment of ${r.operands.length} operand(s) to ${rank} output axes` }));
  const thead = h('thead');
  const r1 = h('tr', null, h('th', { scope: 'row', class: 'row-head', text: 'axis' }));
  const r2 = h('tr', { class: 'neg' }, h('th', { scope: 'row', class: 'row-head', text: 'from right' }));
  for (let a = 0; a < rank; a++) {
    r1.append(h('th', { scope: 'col', ...colAttrs(a), text: String(a) }));
    r2.append(h('td', { ...colAttrs(a), text: String(r.axes[a].negative).replace('-', '−') }));
  }
  thead.append(r1, r2);
  const dimNames = r.rule === 'named' ? r.dimNames : null;
  if (Array.isArray(dimNames) && dimNames.length === rank) {
    const r3 = h('tr', { class: 'names' }, h('th', { scope: 'row', class: 'row-head', text: 'dim' }));
    for (let a = 0; a < rank; a++) r3.append(h('td', { ...colAttrs(a), text: String(dimNames[a]) }));
    thead.append(r3);
  }
  table.append(thead);

  const tbody = h('tbody');
  const dropNotes = [];
  r.operands.forEach((op, k) => {
    const label = op.name === 'input' ? 'input' : op.name;
    // Backward: the output axes the library sums this operand's gradient over, drawn pointing back.
    const summed = new Set(back && back.ok && back.operands[k]?.axes ? back.operands[k].axes : []);
    // Dims the rule drops before aligning (PDPD: B's trailing 1s): greyed, marked "dropped".
    const dropped = new Set(droppedAxes(r, k));
    const head = h('th', { scope: 'row', class: 'row-head' }, h('span', { class: 'op-name', text: label }), h('span', { class: 'op-shape', text: formatShape(op.shape) }));
    if (dropped.size) {
      head.append(h('span', { class: 'op-dropped', text: `${dropped.size} trailing 1${dropped.size === 1 ? '' : 's'} dropped` }));
      const kept = op.shape.slice(0, Math.min(...dropped));
      const outside = [...dropped].filter((i) => !op.srcAxis.includes(i)).length;
      const past = `past ${r.operands[0].name}'s last axis: no column`;
      const where = !outside ? '' : outside === dropped.size ? ` (${outside === 1 ? 'it' : 'they'} would fall ${past})` : ` (${outside} of them would fall ${past})`;
      dropNotes.push(`PDPD drops ${label}'s trailing 1${dropped.size === 1 ? '' : 's'} before placing it: ${label} ${formatShape(op.shape)} is aligned as ${formatShape(kept)}${where}.`);
    }
    const tr = h('tr', { class: 'operand-row', 'data-operand': op.name }, head);
    for (let a = 0; a < rank; a++) {
      const v = op.verdicts[a];
      const ghost = op.srcAxis[a] === null;
      const drop = !ghost && dropped.has(op.srcAxis[a]);
      const sum = summed.has(a);
      const title = ghost ? `${label} has no axis here: a padded 1 (${v})`
        : drop ? `${label} axis ${op.srcAxis[a]}: a trailing 1, dropped before ${label} is placed`
          : `${label} axis ${op.srcAxis[a]}: ${op.aligned[a]} (${v})`;
      const cell = h('td', {
        ...colAttrs(a),
        class: ['dim', `v-${v}`, ghost ? 'ghost' : null, drop ? 'dropped' : null, sum ? 'summed' : null, clash.has(a) ? 'col-error' : null].filter(Boolean).join(' '),
        'data-verdict': v,
        'data-dropped': drop ? 'true' : null,
        'data-summed': sum ? 'true' : null,
        title: sum ? `${title}; backward: the gradient is summed over output axis ${a} (${r.axes[a].dim} → ${ghost ? 'gone' : op.aligned[a]})` : title,
      }, h('span', { class: 'dim-val' }, String(op.aligned[a]),
        sum ? [h('span', { class: 'dim-mark back', 'aria-hidden': 'true', text: `←${r.axes[a].dim}` }), h('span', { class: 'sr-only', text: ', summed on the way back' })]
          : drop ? h('span', { class: 'dim-mark dim-dropped', text: 'dropped' })
            : v === 'stretched' || (v === 'new' && r.ok) ? h('span', { class: 'dim-mark', 'aria-hidden': 'true', text: `→${r.axes[a].dim}` }) : null));
      tr.append(cell);
    }
    tbody.append(tr);
  });
  const target = targetRow(request, rank);
  if (target) {
    const tr = h('tr', { class: 'target-row' },
      h('th', { scope: 'row', class: 'row-head' }, h('span', { class: 'op-name', text: 'target' }), h('span', { class: 'op-shape', text: formatShape(request.shapes[1]) })));
    for (let a = 0; a < rank; a++) {
      const d = target[a];
      tr.append(h('td', { ...colAttrs(a), class: ['dim', d === null ? 'ghost' : null, d === -1 ? 'keep' : null, clash.has(a) ? 'col-error' : null].filter(Boolean).join(' '), title: d === -1 ? '−1: keep the input’s dim' : null },
        h('span', { class: 'dim-val', text: d === null ? '1' : String(d) })));
    }
    tbody.append(tr);
  }
  const res = h('tr', { class: r.ok ? 'result-row' : 'result-row failed' }, h('th', { scope: 'row', class: 'row-head' }, h('span', { class: 'op-name', text: 'result' }),
    h('span', { class: 'op-shape', text: r.ok ? formatShape(r.shape) : '—' })));
  for (let a = 0; a < rank; a++) {
    res.append(h('td', { ...colAttrs(a), class: ['dim', clash.has(a) ? 'col-error' : null].filter(Boolean).join(' ') },
      h('span', { class: 'dim-val', text: r.ok ? String(r.axes[a].dim) : clash.has(a) ? '✕' : '·' })));
  }
  tbody.append(res);
  const vr = h('tr', { class: 'verdict-row' }, h('th', { scope: 'row', class: 'row-head', text: 'verdict' }));
  for (let a = 0; a < rank; a++) {
    const v = verdictOf(a);
    vr.append(h('td', { ...colAttrs(a), class: ['verdict', `verdict-${v}`, clash.has(a) ? 'col-error' : null].filter(Boolean).join(' '), 'data-verdict': v },
      h('span', { class: `chip v-${v}` }, h('span', { class: 'long', text: v }), h('span', { class: 'short', 'aria-hidden': 'true', text: SHORT[v] }))));
  }
  tbody.append(vr);
  table.append(tbody);
  box.append(table);
  for (const note of dropNotes) box.append(h('p', { class: 'hint dropped-note', text: note }));
  if (rank === 0) box.append(h('p', { class: 'empty', text: 'Rank 0: every operand is a scalar, and so is the result.' }));
  if (r.ok && r.named && r.named.coords) {
    const p = h('p', { class: 'hint coords' }, 'Coordinates of the result: ');
    Object.entries(r.named.coords).forEach(([dim, labels], i) => {
      if (i) p.append(' · ');
      p.append(h('code', { text: `${dim} {${labels.join(', ')}}` }));
    });
    box.append(p);
  }
}

/** The backward view's text: per operand, the axes summed and the reshape, or the library's refusal. */
function renderBackward(back) {
  const box = $('backward');
  const ul = $('backward-list');
  ul.replaceChildren();
  box.hidden = !state.backward;
  if (!state.backward) return;
  if (!back || !back.ok) {
    ul.append(h('li', { class: 'empty', text: back ? back.reason : 'Fix the input to see the backward view.' }));
    return;
  }
  for (const o of back.operands) {
    const head = [h('span', { class: 'op-name', text: o.name }), ' ', h('code', { class: 'op-shape', text: formatShape(o.shape) }), h('span', { class: 'sr-only', text: ':' }), ' '];
    if (o.error) {
      ul.append(h('li', { class: 'is-error', 'data-operand': o.name, 'data-code': o.error.code },
        head, h('code', { class: 'code', text: o.error.code }), ' ', h('span', { class: 'back-msg', text: o.error.message })));
    } else {
      ul.append(h('li', { 'data-operand': o.name, 'data-axes': o.axes.join(',') }, head, h('span', { class: 'back-msg', text: o.text })));
    }
  }
}

function renderMemory(r) {
  const box = $('memory');
  box.replaceChildren();
  if (!r || !r.ok) {
    box.append(h('p', { class: 'empty', text: r ? 'No memory plan for a failed broadcast.' : 'Fix the input to see the memory plan.' }));
    return;
  }
  const itemsize = itemSize(state.dtype) ?? 4; // the library's own dtype table
  const mv = memoryView(r, itemsize);
  if (!mv) {
    box.append(h('p', { class: 'empty', text: 'Dynamic dims: strides and byte counts are only known for static shapes.' }));
    return;
  }
  const table = h('table', { class: 'mem' },
    h('thead', null, h('tr', null,
      h('th', { scope: 'col', text: 'operand' }),
      h('th', { scope: 'col', text: 'own strides' }),
      h('th', { scope: 'col', text: 'broadcast strides' }),
      h('th', { scope: 'col', text: 'bytes held' }),
      h('th', { scope: 'col', text: 'copy would need' }))));
  const tb = h('tbody');
  for (const o of mv.operands) {
    const bs = h('code', { class: 'strides' }, '[');
    (o.byteStrides ?? []).forEach((s, a) => {
      if (a) bs.append(', ');
      // A stride the engine could not represent (past 2^53) is shown as such, never rounded.
      bs.append(h('span', { class: o.zeroAxes && s === 0 ? 'zero' : null, text: s === null ? '>2⁵³' : String(s) }));
    });
    bs.append(']');
    tb.append(h('tr', null,
      h('th', { scope: 'row' }, h('span', { class: 'op-name', text: o.name }), ' ', h('code', { class: 'op-shape', text: formatShape(o.shape) })),
      h('td', { 'data-label': 'own strides' }, h('code', { text: o.ownByteStrides ? formatList(o.ownByteStrides) : '?' })),
      h('td', { 'data-label': 'broadcast strides' }, bs),
      h('td', { class: 'num', 'data-label': 'bytes held', text: formatBytes(o.bytesRead) }),
      h('td', { class: 'num', 'data-label': 'copy would need', text: formatBytes(o.bytesCopy) })));
  }
  table.append(tb);
  box.append(h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'Strides per operand' }, table));
  box.append(h('p', { class: 'hint', text: `Strides in bytes (${state.dtype}); a 0 stride re-reads the same element along a stretched or new axis.` }));
  if (r.needsGather) {
    box.append(h('p', { class: 'hint', text: 'The coordinate labels select or reorder elements here, so the kernel gathers them: these strides do not describe that read.' }));
  }

  // Bar widths only: an approximate ratio is fine here (the numbers beside them are exact).
  const max = Math.max(Number(mv.bytesRead), Number(mv.bytesCopy), 1);
  const bar = (label, bytes, cls) => {
    const fill = h('span', { class: `bar-fill ${cls}` });
    fill.style.width = `${Math.max(1.5, (Number(bytes) / max) * 100)}%`; // CSSOM, allowed under style-src 'self'
    return h('div', { class: 'bar-row' }, h('span', { class: 'bar-label', text: label }), h('span', { class: 'bar' }, fill), h('span', { class: 'bar-val num', text: formatBytes(bytes) }));
  };
  const ratio = typeof mv.bytesRead === 'number' && typeof mv.bytesCopy === 'number' && mv.bytesRead > 0 ? mv.bytesCopy / mv.bytesRead : null;
  box.append(h('div', { class: 'bars' },
    bar('read (broadcast)', mv.bytesRead, 'is-read'),
    bar('materialised', mv.bytesCopy, 'is-copy')));
  box.append(h('p', { class: 'mem-summary' },
    `Broadcasting reads ${formatBytes(mv.bytesRead)}; copying every operand out to ${formatShape(r.shape)} would take ${formatBytes(mv.bytesCopy)}`,
    ratio && ratio > 1 ? ` (${ratio < 100 ? ratio.toFixed(1) : formatCount(ratio)}× more).` : '.'));
  if (r.loop && r.loop.shape.every((d) => Number.isSafeInteger(d))) {
    box.append(h('p', { class: 'hint' }, 'The kernel runs a merged loop of shape ', h('code', { text: formatShape(r.loop.shape) }),
      `, inner loop ${r.loop.inner}.`));
  }
}

// ---- copy as code ---------------------------------------------------------------

function renderCode(built, r) {
  const dtype = dtypeList().find((d) => d.name === state.dtype);
  const c = codeFor(state.code, state, built, r, dtype);
  for (const b of $('code-tabs').querySelectorAll('[role="tab"]')) {
    const on = b.dataset.tab === state.code;
    b.setAttribute('aria-selected', on ? 'true' : 'false');
    b.tabIndex = on ? 0 : -1;
  }
  const panel = $('code-panel');
  panel.setAttribute('aria-labelledby', `code-tab-${state.code}`);
  panel.dataset.tab = state.code;
  panel.dataset.lang = c.lang;
  $('code-note').textContent = c.note ?? '';
  $('code-note').hidden = !c.note;
  $('code-text').textContent = c.code ?? '';
  $('code-pre').hidden = c.code === null;
  $('copy-code').disabled = c.code === null;
  $('copy-status').textContent = '';
  $('copy-code').textContent = 'Copy';
}

async function copyCode() {
  const text = $('code-text').textContent;
  if (!text) return;
  const done = (msg) => {
    $('copy-status').textContent = msg;
    $('copy-code').textContent = msg === 'Copied' ? 'Copied ✓' : 'Copy';
  };
  try {
    await navigator.clipboard.writeText(text);
    done('Copied');
  } catch {
    // No clipboard permission: select the code so Ctrl+C / ⌘C copies it.
    const range = document.createRange();
    range.selectNodeContents($('code-text'));
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    done('Selected: press Ctrl+C (⌘C) to copy');
  }
}

// ---- data preview -------------------------------------------------------------

function drawGrid(shape, values, attrs, cellAttrs) {
  const wrap = h('div', { class: 'grid-wrap', ...attrs });
  for (const sl of gridSlices(shape)) {
    const g = h('div', { class: 'grid', role: 'grid', 'aria-label': `${attrs['data-name']}${sl.label}` });
    g.style.setProperty('--cols', String(sl.cols));
    for (let rr = 0; rr < sl.rows; rr++) {
      const row = h('div', { class: 'grid-row', role: 'row' });
      for (let c = 0; c < sl.cols; c++) {
        const flat = sl.start + rr * sl.cols + c;
        row.append(h('div', { class: 'cell', role: 'gridcell', 'data-flat': flat, ...cellAttrs(flat), text: String(values[flat]) }));
      }
      g.append(row);
    }
    wrap.append(sl.label ? h('figure', { class: 'slice' }, h('figcaption', { text: sl.label }), g) : g);
  }
  return wrap;
}

// The preview's numbers come from the library's own data ops: each input holds
// arange(size), and the output is broadcastTo(A) or A + B (+ C …) under the
// chosen rule.
function libraryValues(r, request) {
  const inputs = r.operands.map((op) => Float64Array.from({ length: product(op.shape) }, (_, i) => i));
  const operand = (k) => ({ data: inputs[k], shape: r.operands[k].shape });
  let out;
  if (request.rule === 'broadcastTo') {
    const o = { mode: request.mode };
    if (request.axesMapping !== undefined) o.axesMapping = request.axesMapping;
    if (request.axis !== undefined) o.axis = request.axis;
    out = broadcastTo(operand(0), request.shapes[1], o);
  } else if (request.rule === 'named') {
    const named = (k) => ({ ...operand(k), dims: request.operands[k].dims, coords: request.operands[k].coords });
    out = add(named(0), named(1), request.shaping ? { shaping: request.shaping } : undefined);
  } else {
    const o = request.rule === 'pdpd' ? { broadcast: { type: 'pdpd', axis: request.axis } }
      : request.rule === 'none' ? { broadcast: { type: 'none' } } : undefined;
    out = operand(0);
    for (let k = 1; k < inputs.length; k++) out = add(out, operand(k), o);
  }
  return { inputs: inputs.map((a) => Array.from(a)), output: Array.from(out.data) };
}

const fmtIndex = (flat, shape) => (shape.length ? `[${unravel(flat, shape).join(', ')}]` : '[]');

function renderPreview(r, request) {
  const box = $('preview');
  box.replaceChildren();
  if (!r || !previewable(r)) {
    let why = 'Fix the input to see data.';
    if (r && !r.ok) why = 'No data preview for a failed broadcast.';
    else if (r && r.needsGather) why = 'These labels reorder B: reading it is a gather, not a strided view, so there is no preview.';
    else if (r) why = 'The preview draws tensors of up to 64 elements with static shapes. Try the “NumPy, small” example.';
    box.append(h('p', { class: 'empty', text: why }));
    return;
  }
  const maps = sourceIndexMaps(r);
  let values;
  try {
    values = libraryValues(r, request);
  } catch (e) {
    box.append(h('p', { class: 'empty', text: `No data preview: ${e.message}` }));
    return;
  }
  const { inputs, output } = values;
  const isTo = r.rule === 'broadcastTo';
  const names = r.operands.map((op) => op.name);
  const expr = isTo ? `broadcast(${names[0]})` : names.join(' + ');
  box.append(h('p', { class: 'hint' }, 'Each input holds ', h('code', { text: 'arange(size)' }), '; the output is ', h('code', { text: expr }),
    '. Hover or focus an output cell (arrow keys move) to see which input cells it reads; hover an input cell to see every output cell that reads it.'));
  const readout = h('p', { class: 'readout', 'aria-live': 'polite', text: ' ' });
  const inputsBox = h('div', { class: 'preview-inputs' });
  r.operands.forEach((op, k) => {
    inputsBox.append(h('div', { class: 'tensor' },
      h('div', { class: 'tensor-title' }, h('span', { class: 'op-name', text: op.name }), ' ', h('code', { text: formatShape(op.shape) })),
      drawGrid(op.shape, inputs[k], { 'data-name': op.name, 'data-operand-index': k }, () => ({}))));
  });
  const outBox = h('div', { class: 'tensor tensor-out' },
    h('div', { class: 'tensor-title' }, h('span', { class: 'op-name', text: 'output' }), ' ', h('code', { text: formatShape(r.shape) })),
    drawGrid(r.shape, output, { 'data-name': 'output', class: 'grid-wrap out' }, (f) => ({ tabindex: f === 0 ? '0' : '-1' })));
  box.append(h('div', { class: 'preview' }, inputsBox, h('div', { class: 'preview-arrow', 'aria-hidden': 'true', text: '⟶' }), outBox), readout);

  const inputWraps = [...inputsBox.querySelectorAll('.grid-wrap')];
  const clear = () => {
    for (const el of box.querySelectorAll('.cell.is-read, .cell.is-hot, .cell.is-reader')) el.classList.remove('is-read', 'is-hot', 'is-reader');
  };
  const showOut = (flat) => {
    clear();
    const cell = outBox.querySelector(`.cell[data-flat="${flat}"]`);
    cell?.classList.add('is-hot');
    const parts = [];
    const vals = [];
    maps.forEach((m, k) => {
      const src = m[flat];
      inputWraps[k].querySelector(`.cell[data-flat="${src}"]`)?.classList.add('is-read');
      parts.push(`${names[k]}${fmtIndex(src, r.operands[k].shape)}`);
      vals.push(inputs[k][src]);
    });
    readout.textContent = `output${fmtIndex(flat, r.shape)} = ${parts.join(' + ')}${parts.length > 1 ? ` = ${vals.join(' + ')}` : ''} = ${output[flat]}`;
  };
  const showIn = (k, src) => {
    clear();
    inputWraps[k].querySelector(`.cell[data-flat="${src}"]`)?.classList.add('is-hot');
    let n = 0;
    maps[k].forEach((s, f) => {
      if (s === src) { outBox.querySelector(`.cell[data-flat="${f}"]`)?.classList.add('is-reader'); n++; }
    });
    readout.textContent = `${names[k]}${fmtIndex(src, r.operands[k].shape)} is read by ${n} output cell${n === 1 ? '' : 's'}`;
  };
  outBox.addEventListener('pointerover', (e) => {
    const c = e.target.closest?.('.cell');
    if (c) showOut(Number(c.dataset.flat));
  });
  outBox.addEventListener('focusin', (e) => {
    const c = e.target.closest?.('.cell');
    if (c) showOut(Number(c.dataset.flat));
  });
  outBox.addEventListener('keydown', (e) => {
    const c = e.target.closest?.('.cell');
    if (!c) return;
    const flat = Number(c.dataset.flat);
    const cols = r.shape.length ? r.shape[r.shape.length - 1] : 1;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -flat, End: r.size - 1 - flat }[e.key];
    if (step === undefined) return;
    const next = flat + step;
    if (next < 0 || next >= r.size) return;
    e.preventDefault();
    const n = outBox.querySelector(`.cell[data-flat="${next}"]`);
    c.setAttribute('tabindex', '-1');
    n.setAttribute('tabindex', '0');
    n.focus();
  });
  inputWraps.forEach((w, k) => w.addEventListener('pointerover', (e) => {
    const c = e.target.closest?.('.cell');
    if (c) showIn(k, Number(c.dataset.flat));
  }));
  box.querySelector('.preview').addEventListener('pointerleave', () => { clear(); readout.textContent = ' '; });
}

// ---- the axes-mapping editor (explicit mode) -------------------------------------

let drag = null;
const SHORT = { equal: 'eq', stretched: 'str', new: 'new', clash: 'clash' };

function renderMappingEditor() {
  const box = $('mapping-editor');
  if (state.rule !== 'to-explicit') { box.replaceChildren(); return; }
  const inS = parseShape(state.shapes[0] ?? '');
  const tgS = parseShape(state.shapes[1] ?? '');
  if (!inS.ok || !tgS.ok || !Array.isArray(inS.shape) || !Array.isArray(tgS.shape)) {
    box.replaceChildren(h('p', { class: 'hint', text: 'The grid needs an input and a target of known rank.' }));
    return;
  }
  const input = inS.shape;
  const target = tgS.shape;
  const m = parseMapping(state.mapping);
  const mapping = m.ok ? m.mapping : [];
  const key = `${input.join(',')}|${target.join(',')}`;
  if (box.dataset.key === key && box.firstChild) {
    // Same grid: only move the checks, so a drag in progress keeps its elements.
    for (const cell of box.querySelectorAll('.map-cell')) {
      const on = mapping[Number(cell.dataset.in)] === Number(cell.dataset.out);
      cell.setAttribute('aria-checked', on ? 'true' : 'false');
      cell.tabIndex = on || (mapping[Number(cell.dataset.in)] === undefined && cell.dataset.out === '0') ? 0 : -1;
    }
    return;
  }
  box.dataset.key = key;
  box.replaceChildren();
  if (input.length === 0) {
    box.append(h('p', { class: 'hint', text: 'A scalar input takes an empty mapping.' }));
    return;
  }
  const grid = h('div', { class: 'map-grid' });
  grid.style.setProperty('--cols', String(target.length));
  const headRow = h('div', { class: 'map-row map-head', 'aria-hidden': 'true' }, h('span', { class: 'map-label', text: 'output →' }));
  target.forEach((d, j) => headRow.append(h('span', { class: 'map-col' }, h('span', { class: 'map-axis', text: String(j) }), h('span', { class: 'map-dim', text: String(d) }))));
  grid.append(headRow);
  input.forEach((d, i) => {
    const row = h('div', { class: 'map-row', role: 'radiogroup', 'aria-label': `Input dim ${i} (size ${d}) goes to`, 'data-in': i },
      h('span', { class: 'map-label', 'aria-hidden': 'true' }, `in ${i}`, h('span', { class: 'map-dim', text: ` ${d}` })));
    target.forEach((t, j) => {
      const on = mapping[i] === j;
      const cell = h('button', {
        type: 'button', class: 'map-cell', role: 'radio', 'aria-checked': on ? 'true' : 'false',
        'aria-label': `out ${j} (size ${t})`, 'data-in': i, 'data-out': j, tabindex: on || (mapping[i] === undefined && j === 0) ? '0' : '-1',
      });
      row.append(cell);
    });
    grid.append(row);
  });
  box.append(grid);

  const setEntry = (i, j, focus) => {
    const cur = parseMapping(state.mapping);
    const arr = cur.ok ? cur.mapping.slice(0, input.length) : [];
    // Missing entries start right-aligned, as NumPy would place them.
    for (let k = arr.length; k < input.length; k++) arr[k] = k + target.length - input.length;
    arr[i] = j;
    const text = arr.join(', ');
    $('mapping').value = text;
    setState({ ...state, mapping: text });
    if (focus) box.querySelector(`.map-cell[data-in="${i}"][data-out="${j}"]`)?.focus();
  };
  grid.addEventListener('click', (e) => {
    const c = e.target.closest('.map-cell');
    if (c) setEntry(Number(c.dataset.in), Number(c.dataset.out), true);
  });
  grid.addEventListener('keydown', (e) => {
    const c = e.target.closest('.map-cell');
    if (!c) return;
    const i = Number(c.dataset.in);
    const j = Number(c.dataset.out);
    let nj = j;
    if (e.key === 'ArrowRight') nj = Math.min(target.length - 1, j + 1);
    else if (e.key === 'ArrowLeft') nj = Math.max(0, j - 1);
    else if (e.key === 'Home') nj = 0;
    else if (e.key === 'End') nj = target.length - 1;
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const ni = i + (e.key === 'ArrowDown' ? 1 : -1);
      const next = box.querySelector(`.map-cell[data-in="${ni}"][aria-checked="true"]`) ?? box.querySelector(`.map-cell[data-in="${ni}"]`);
      if (next) { e.preventDefault(); next.focus(); }
      return;
    } else return;
    e.preventDefault();
    setEntry(i, nj, true);
  });
  // Drag along a row: pointer events work for mouse, pen and touch alike.
  grid.addEventListener('pointerdown', (e) => {
    const c = e.target.closest('.map-cell');
    if (!c) return;
    drag = { i: Number(c.dataset.in) };
    grid.setPointerCapture?.(e.pointerId);
    setEntry(drag.i, Number(c.dataset.out), false);
  });
  grid.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const c = el && el.closest ? el.closest('.map-cell') : null;
    if (!c) return;
    const j = Number(c.dataset.out);
    const cur = parseMapping(state.mapping);
    if (cur.ok && cur.mapping[drag.i] === j) return;
    setEntry(drag.i, j, false);
  });
  const end = () => { drag = null; };
  grid.addEventListener('pointerup', end);
  grid.addEventListener('pointercancel', end);
}

// ---- start --------------------------------------------------------------------

async function start() {
  try {
    await init();
  } catch (e) {
    const st = $('status');
    st.className = 'status is-error';
    st.textContent = `Could not load the WebAssembly engine: ${e && e.message ? e.message : e}`;
    return;
  }
  // After init(): the dtype list (and so the dtypes a link may name) is the library's.
  state = stateFromQuery(location.search);
  buildStaticControls();
  buildOperandRows();
  syncControls();
  document.documentElement.dataset.ready = 'true';
  history.replaceState(null, '', `${location.pathname}?${stateToQuery(state)}`);
  render();
}

start();

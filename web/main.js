// The broadcast explorer page: wires inputs to the library's explain() and
// draws the plan it returns (draw.js). Every verdict, stride and error comes
// from the library; this file builds the controls, keeps the state in the URL,
// offers the suggestions, the code tabs and the axes-mapping editor (DOM only
// through dom.js: createElement/textContent, never innerHTML).
import { init, explain } from 'tensorcast';
import {
  RULES, EXAMPLES, MAX_OPERANDS, CODE_TABS, letter, operandArity, usesAxis, operandRole,
  parseShape, parseMapping, stateFromQuery, stateToQuery, canonicalState, applyPatch, buildRequest,
  suggest, exampleState, withDefaultNames, withNamedSizes, dtypeList, backwardView, switchRule, SHAPING_HINTS,
  withExpression, explainExpression, MAX_EXPRESSION, MAX_TEXT,
} from './logic.js';
import { codeFor, CODE_LABELS } from './code.js';
import { $, h } from './dom.js';
import { renderStatus, renderTable, renderBackward, renderMemory, renderPreview, renderProgram, renderExprError } from './draw.js';

const lib = { explain };

// Read from the URL once the engine is loaded (the dtype list is the library's).
let state = null;
let result = null;
// Operands a two-operand rule could not take (numpy → pdpd drops C…): kept
// here, named in a note, and put back when numpy is chosen again.
let setAside = [];

function showSetAside(note) {
  const el = $('set-aside');
  el.textContent = note ?? '';
  el.hidden = !note;
}

/**
 * The state an address holds. A named link without names (no n=) gets the ones the Rule select
 * gives; one with them, empty ones included (the page writes n= for every operand), is the view it was.
 */
function stateFromLink(query) {
  const s = stateFromQuery(query);
  return new URLSearchParams(query).has('n') ? s : withDefaultNames(s);
}

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
    b.addEventListener('click', () => {
      setAside = [];
      showSetAside(null);
      setState(exampleState(e), { push: true, structure: true });
    });
    ex.append(b);
  }

  // A new rule keeps only what it uses (canonicalState), so no stale parameter stays on screen or in the URL.
  // Operands the new rule cannot take are set aside (switchRule), and the note says so.
  rule.addEventListener('change', () => {
    const sw = switchRule(state, rule.value, setAside);
    setAside = sw.setAside;
    showSetAside(sw.note);
    setState(withDefaultNames(sw.state), { structure: true });
  });
  // The field holds no more than the page keeps (and a link carries): a longer text is never cut unseen.
  $('expr').maxLength = MAX_EXPRESSION;
  $('mapping').maxLength = MAX_TEXT; // what a link keeps of a shape or mapping: a longer text is never cut unseen
  // The shapes of the operands the expression has read: one edited away while typing comes back with its shape.
  const earlier = new Map();
  $('expr').addEventListener('input', (e) => {
    for (const [n, t] of state.vars) earlier.set(n, t);
    setState(withExpression(state, e.target.value, earlier));
  });
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
  window.addEventListener('popstate', () => {
    setAside = [];
    showSetAside(null);
    setState(stateFromLink(location.search), { structure: true, noUrl: true });
  });
  $('copy-link').addEventListener('click', copyLink);

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
  if (state.rule === 'expression') { buildExpressionRows(box); return; }
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
      autocapitalize: 'off', 'aria-describedby': errId, 'data-index': i, maxlength: MAX_TEXT,
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

/** Expression mode: one shape per operand the expression reads (compile().inputs). */
function buildExpressionRows(box) {
  state.vars.forEach(([name], i) => {
    const id = `shape-${i}`;
    const errId = `shape-${i}-error`;
    const input = h('input', {
      id, class: 'shape-input', type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off', 'aria-describedby': errId, 'data-index': i, 'data-var': name, maxlength: MAX_TEXT,
    });
    input.value = state.vars[i][1];
    input.addEventListener('input', () => {
      const vars = state.vars.map((v) => [...v]);
      vars[i][1] = input.value;
      setState({ ...state, vars });
    });
    box.append(h('div', { class: 'operand', 'data-operand': name },
      h('div', { class: 'label-row' }, h('label', { for: id }, 'Shape ', h('code', { text: name }))), input,
      h('p', { class: 'field-error', id: errId, 'aria-live': 'off' })));
  });
  if (!state.vars.length) box.append(h('p', { class: 'hint', text: 'The expression reads no operand yet.' }));
  $('add-operand').hidden = true;
}

// The controls from `state`; a field being typed in keeps its text unless the state came from
// outside it (`fromOutside`: the browser's Back and Forward, a link).
function syncControls(fromOutside = false) {
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
  if (fromOutside || document.activeElement !== $('mapping')) $('mapping').value = state.mapping;
  $('shaping-field').hidden = state.rule !== 'named';
  $('shaping').value = state.shaping;
  $('shaping-hint').textContent = SHAPING_HINTS[state.shaping] ?? '';
  $('dtype').value = state.dtype;
  $('backward-toggle').checked = state.backward;
  const exprMode = state.rule === 'expression';
  $('expr-field').hidden = !exprMode;
  if (fromOutside || document.activeElement !== $('expr')) $('expr').value = state.expr;
  $('backward-toggle').disabled = exprMode;
  $('backward-toggle').parentElement.hidden = exprMode;
  $('program-section').hidden = !exprMode;
  document.querySelector('.syntax').hidden = exprMode; // '?', intervals and [...] are not for expressions
  $('backward-hint').hidden = !state.backward;
  $('legend-summed').hidden = !state.backward;
  for (const el of $('operands').querySelectorAll('input.shape-input')) {
    const i = Number(el.dataset.index);
    const v = exprMode ? state.vars[i]?.[1] : state.shapes[i];
    if (document.activeElement !== el && v !== undefined && el.value !== v) el.value = v;
  }
}

// ---- state ------------------------------------------------------------------

function setState(next, opts = {}) {
  next = canonicalState(next);
  const structural = opts.structure
    || next.rule !== state.rule
    || next.shapes.length !== state.shapes.length
    || (next.rule === 'expression' && next.vars.map((v) => v[0]).join() !== state.vars.map((v) => v[0]).join());
  state = next;
  if (!opts.noUrl) {
    const url = `?${stateToQuery(state)}`; // relative: the path stays as it is (a `//` path would read as another host)
    if (opts.push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }
  if (structural) buildOperandRows();
  syncControls(opts.noUrl === true);
  render();
}

// ---- rendering --------------------------------------------------------------

function render() {
  const built = buildRequest(state);
  if (state.rule === 'expression') { renderExpression(built); return; }
  renderProgram(null);
  renderExprError(null);
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
    renderSuggestions(null, []);
    renderTable(null);
    renderBackward(null, state.backward);
    renderMemory(null, state.dtype);
    renderPreview(null);
    renderMappingEditor();
    renderCode(built, null);
    return;
  }
  result = explain(built.request);
  renderStatus({ result });
  renderSuggestions(result, result.ok ? [] : suggest(state, result, lib));
  // The backward view: the library's reductionAxes per operand (logic.js backwardView).
  const back = state.backward ? backwardView(built.request, result) : null;
  renderTable(result, built.request, back);
  renderBackward(back, state.backward);
  renderMemory(result, state.dtype);
  renderPreview(result, built.request, back, state.dtype);
  renderMappingEditor();
  renderCode(built, result);
}
/** Expression mode: the library's compile()/explain() of the expression, drawn as the other modes draw a plan. */
function renderExpression(built) {
  for (const el of document.querySelectorAll('.field-error')) el.textContent = '';
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  renderSuggestions(null, []); // expression mode offers none: the box a clash of another mode left goes
  renderBackward(null, false);
  renderMappingEditor();
  if (!built.ok) {
    result = null;
    for (const e of built.errors) {
      $(`shape-${e.index}`)?.setAttribute('aria-invalid', 'true');
      const msg = $(`shape-${e.index}-error`);
      if (msg) msg.textContent = e.message;
    }
    // The expression itself may still be wrong: say so first.
    const plan = explainExpression({ expression: state.expr, shapes: {}, dtypes: {} });
    if (!plan.ok && plan.kind === 'syntax') return showExpressionFailure(plan, built);
    renderExprError(null);
    renderStatus({ parseErrors: built.errors });
    renderTable(null);
    renderProgram(null);
    renderMemory(null, state.dtype);
    renderPreview(null);
    renderCode(built, null);
    return;
  }
  result = explainExpression(built.request);
  if (!result.ok) { showExpressionFailure(result, built); return; }
  renderExprError(null);
  renderStatus({ result });
  renderTable(result, built.request);
  renderProgram(result);
  renderMemory(result, state.dtype);
  renderPreview(result, built.request, null, state.dtype);
  renderCode(built, result);
}

function showExpressionFailure(plan, built) {
  result = plan;
  $('expr').setAttribute('aria-invalid', 'true');
  renderExprError(plan.error, state.expr);
  renderStatus({ result: plan });
  renderTable(plan.kind === 'broadcast' && plan.operands.length ? plan : null, null);
  renderProgram(null, plan);
  // A syntax error has no broadcast to speak of: the memory and preview ask for a fix, as for unreadable input.
  const drawn = plan.kind === 'syntax' ? null : plan;
  renderMemory(drawn, state.dtype);
  renderPreview(drawn);
  renderCode(built, plan);
}

/** The "Try instead" box for the plan `r` just drawn (hidden unless it is a failed plan of a mode that offers suggestions). */
function renderSuggestions(r, list) {
  const box = $('suggestions');
  const ul = $('suggestion-list');
  ul.replaceChildren();
  if (!r || r.ok || r.rule === 'expression') { box.hidden = true; return; }
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

// ---- copy link ------------------------------------------------------------------

let linkTimer = null;

/**
 * Copy the address of this view (the state is in it). The clipboard API
 * first; where it is refused (no permission, an insecure origin), a hidden
 * textarea and execCommand('copy'); where that fails too, the link is shown
 * selected in a read-only field for Ctrl+C / ⌘C. The outcome is said in a
 * polite live region beside the button.
 */
async function copyLink() {
  const link = location.href;
  const field = $('link-fallback');
  const say = (msg) => {
    $('link-status').textContent = msg;
    clearTimeout(linkTimer);
    linkTimer = setTimeout(() => { $('link-status').textContent = ''; }, 4000);
  };
  field.hidden = true;
  try {
    await navigator.clipboard.writeText(link);
    say('Link copied');
    return;
  } catch { /* fall through */ }
  const ta = h('textarea', { class: 'offscreen', readonly: true, 'aria-hidden': 'true', tabindex: '-1' });
  ta.value = link;
  document.body.append(ta);
  ta.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  ta.remove();
  $('copy-link').focus();
  if (ok) { say('Link copied'); return; }
  field.value = link;
  field.hidden = false;
  field.focus();
  field.select();
  say('Press Ctrl+C (⌘C) to copy the selected link');
}

// ---- the axes-mapping editor (explicit mode) -------------------------------------

let drag = null;

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
  state = stateFromLink(location.search);
  buildStaticControls();
  buildOperandRows();
  syncControls();
  document.documentElement.dataset.ready = 'true';
  history.replaceState(null, '', `?${stateToQuery(state)}`);
  render();
}

start();

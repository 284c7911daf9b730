// What the explorer draws from the library's plan: the status line, the
// right-aligned table, the backward view, the memory view and the data
// preview (computed by the library's own add / broadcastTo, and unbroadcast in
// the backward view: views.js previewValues / backwardValues). Each function
// draws from its arguments into its element of the page; the page state and
// its handlers stay in main.js. DOM only through dom.js's h() (textContent,
// never innerHTML).
import {
  formatShape, formatList, formatCount, formatBytes, clashAxes, droppedAxes,
  rightAlign, memoryView, previewable, sourceIndexMaps, gridSlices, unravel, planSize,
  itemSize, UNKNOWN_RANK, shownVerdicts, VERDICT_WORDS, previewValues, backwardValues, exactProduct,
  caretLines, expressionValues, previewOperands, previewWhy,
} from './logic.js';
import { $, h } from './dom.js';

// ---- status and table ---------------------------------------------------------

function resultText(r) {
  if (r.rule === 'named' && r.named) {
    return `${formatShape(r.shape)} with dims (${r.named.dims.join(', ')})`;
  }
  return formatShape(r.shape);
}

export function renderStatus({ result: r, parseErrors }) {
  const st = $('status');
  st.replaceChildren();
  st.className = 'status';
  if (parseErrors) {
    st.classList.add('is-input-error');
    st.append(h('span', { class: 'status-kind', text: 'Cannot read the input' }), h('span', { class: 'sr-only', text: ': ' }), h('span', { class: 'status-msg', text: parseErrors.map((e) => e.message).join(' · ') }));
    return;
  }
  if (r.rule === 'expression') { expressionStatus(st, r); return; }
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

/** The status line of expression mode: the result's shape and dtype, how it runs; or the exact error. */
function expressionStatus(st, r) {
  if (r.ok) {
    const x = r.expr;
    // The result's elements (a reduction's, not those of the broadcast it reduces), exact past 2^53 as the other rules print them
    const n = x.reduce ? exactProduct(x.shape) : planSize(r);
    st.classList.add('is-ok');
    st.append(
      h('span', { class: 'status-kind', text: 'Result' }), h('span', { class: 'sr-only', text: ' ' }),
      h('code', { class: 'status-shape', 'data-shape': formatShape(x.shape), 'data-dtype': x.dtype, text: `${formatShape(x.shape)} ${x.dtype}` }),
      h('span', { class: 'sep', 'aria-hidden': 'true', text: ' · ' }),
      h('span', { class: 'status-meta', 'data-execution': x.execution, text: [`${formatCount(n)} element${n === 1 ? '' : 's'}`,
        x.contraction?.c ? `runs as product rows (${x.contraction.m} × ${x.contraction.k} terms)`
          : x.contraction ? `runs as a contraction kernel (${x.contraction.order} order, ${x.contraction.m}×${x.contraction.k}×${x.contraction.n})`
          : x.execution === 'generated' ? 'runs as generated wasm' : 'runs in the block interpreter',
        x.reduce ? `${x.reduce.op} over axes ${formatList(x.reduce.axes)} of ${formatShape(x.broadcastShape)}` : null].filter(Boolean).join(' · ') }),
    );
    return;
  }
  const e = r.error;
  st.classList.add('is-error');
  const kind = r.kind === 'syntax' ? 'Syntax error' : 'Error ';
  st.append(
    h('span', { class: 'status-kind' }, kind, r.kind === 'syntax' ? null : h('code', { class: 'code', 'data-code': e.code ?? e.name, text: e.code ?? e.name })), h('span', { class: 'sr-only', text: ': ' }),
    h('span', { class: 'status-msg', text: e.first ?? e.message }),
  );
  const lines = caretLines(r.source ?? '', e.offset, e.length);
  if (lines) st.append(h('pre', { class: 'status-caret', 'data-offset': e.offset, 'aria-hidden': 'true', text: `${lines.text}\n${lines.caret}` }));
  const clashes = clashAxes(r);
  if (clashes.length) st.append(h('span', { class: 'status-clashes', 'data-clashes': clashes.join(',') }, clashes.length === 1 ? 'Clashing axis: ' : 'Clashing axes: ', clashes.join(', ')));
}

/** Under the expression input: the expression with a caret under what the error names (nothing when it is fine). */
export function renderExprError(error, text = '') {
  const pre = $('expr-error');
  const lines = error ? caretLines(text, error.offset, error.length) : null;
  pre.hidden = !lines;
  pre.textContent = lines ? `${lines.text}\n${lines.caret}` : '';
  if (lines) pre.dataset.offset = String(error.offset);
  else $('expr').removeAttribute('aria-invalid');
}

/** The program explain() returns for an expression: one line per register, how it runs, the reduction and the merged loop. */
export function renderProgram(r, failed = null) {
  const box = $('program');
  box.replaceChildren();
  if (!r || !r.ok) {
    box.append(h('p', { class: 'empty', text: failed ? 'No program: the expression is refused (see the error above).' : 'Fix the input to see the program.' }));
    return;
  }
  const x = r.expr;
  box.append(h('p', { class: 'hint program-how', 'data-execution': x.contraction ? 'contraction' : x.execution },
    x.contraction?.c
      ? `Product rows: each of the ${x.contraction.m} results sums its ${x.contraction.k} terms (${x.contraction.a} · ${x.contraction.b}) · ${x.contraction.c} as they are made, none stored, in the row order of the op-by-op sum, so bit for bit the same.`
      : x.contraction
      ? `A contraction: out[m, n] = Σ_k ${x.contraction.a}(m, k) · ${x.contraction.b}(k, n) runs as a matrix multiply (m ${x.contraction.m}, k ${x.contraction.k}, n ${x.contraction.n}; ${x.contraction.b} packed in panels of ${x.contraction.panel.rows} × ${x.contraction.panel.columns}), its sums in the ${x.contraction.order} order of the op-by-op sum, so bit for bit the same.`
      : x.execution === 'generated'
      ? 'Generated: the engine writes a small wasm module for this loop and program, compiled once and cached.'
      : 'Interpreted: an op the code generator does not emit runs through the block interpreter over the library\'s 1-d kernels.'));
  if (x.passes) {
    // A program: its passes in order, each one run of the engine; the lines below are the last pass's program.
    const passes = h('ol', { class: 'program-passes' });
    for (const p of x.passes) {
      passes.append(h('li', { 'data-pass': p.name ?? '' }, h('code', { text: `${p.name ?? 'result'} = ${p.expression}` }),
        ` → ${formatShape(p.shape)} ${p.dtype}${p.keepdims ? ', keepdims' : ''} (${p.execution})`));
    }
    box.append(h('p', { class: 'hint', text: `A program of ${x.passes.length} passes: each reduction inside an expression and each statement runs once, the element-wise work inside a reduction fused into it; the later passes read the earlier results by name. The last pass's program:` }), passes);
  }
  const ol = h('ol', { class: 'program-lines', start: '0' });
  for (const ins of x.program) ol.append(h('li', { 'data-op': ins.op }, h('code', { text: ins.text })));
  box.append(ol);
  const bits = [`result ${formatShape(x.shape)} ${x.dtype}`];
  if (x.reduce) bits.push(`${x.reduce.op} over axes ${formatList(x.reduce.axes)} of the broadcast ${formatShape(x.broadcastShape)}, without materialising it`);
  if (x.loop?.shape) bits.push(`merged loop ${formatShape(x.loop.shape)}`);
  box.append(h('p', { class: 'hint program-meta', text: bits.join(' · ') }));
}

export { renderTable } from './align.js';

// ---- backward and memory views -------------------------------------------------

/** The backward view's text (when `on`): per operand, the axes summed and the reshape, or the library's refusal. */
export function renderBackward(back, on) {
  const box = $('backward');
  const ul = $('backward-list');
  ul.replaceChildren();
  box.hidden = !on;
  if (!on) return;
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

export function renderMemory(r, dtype) {
  const box = $('memory');
  box.replaceChildren();
  if (!r || !r.ok) {
    box.append(h('p', { class: 'empty', text: r ? 'No memory plan for a failed broadcast.' : 'Fix the input to see the memory plan.' }));
    return;
  }
  const itemsize = itemSize(dtype) ?? 4; // the library's own dtype table
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
  box.append(h('p', { class: 'hint', text: `Strides in bytes (${dtype}); a 0 stride re-reads the same element along a stretched or new axis.` }));
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

const fmtIndex = (flat, shape) => (shape.length ? `[${unravel(flat, shape).join(', ')}]` : '[]');

/**
 * The data preview. Forward: each input holds arange(size) in the preview's
 * dtype and the output is the library's add / broadcastTo of them. Backward
 * (`back`, the backward view): the result's upstream gradient holds
 * arange(size) and each operand's grid shows its gradient, the library's
 * unbroadcast() of it: the sum of the upstream cells that read the operand's
 * cell.
 */
export function renderPreview(r, request, back = null, dtypeName = 'float64') {
  const box = $('preview');
  box.replaceChildren();
  if (!r || !previewable(r)) {
    box.append(h('p', { class: 'empty', text: previewWhy(r) }));
    return;
  }
  const isExpr = r.rule === 'expression';
  // A reduction, or a program (its passes), reads more than one cell per output cell: no hover map.
  const maps = isExpr && (r.expr.reduce || r.expr.passes) ? null : sourceIndexMaps(r);
  const ops = isExpr ? previewOperands(r) : r.operands;
  let values;
  try {
    values = isExpr ? expressionValues(r, dtypeName) : previewValues(r, request, dtypeName);
    if (back) {
      const b = backwardValues(r, request, back, dtypeName);
      if (!b) throw new Error(back.ok ? 'an operand has no way back' : back.reason);
      values = { ...values, back: b };
    }
  } catch (e) {
    box.append(h('p', { class: 'empty', text: `No data preview: ${e.message}` }));
    return;
  }
  const backward = !!values.back;
  const inputs = backward ? values.back.grads : values.inputs;
  const output = backward ? values.back.upstream : values.output;
  const dt = values.dtype;
  const dtText = dt.fallback ? `${dt.name} (this browser has no typed array for ${dt.fallback})` : dt.name;
  const isTo = r.rule === 'broadcastTo';
  const names = ops.map((op) => op.name);
  const gname = (k) => `grad ${names[k]}`;
  if (backward) {
    box.append(h('p', { class: 'hint', 'data-direction': 'backward' }, 'Backward: the result’s gradient holds ', h('code', { text: `arange(size)` }), ` (${dtText}); each operand’s gradient is `,
      h('code', { text: 'unbroadcast(grad, operand)' }), ', the sum of the gradient cells that read it. Hover or focus a gradient cell to see where it flows; hover an operand’s cell to see what is summed into it.'));
  } else if (isExpr) {
    box.append(h('p', { class: 'hint', 'data-direction': 'forward' }, 'Each operand holds ', h('code', { text: '1, 2, 3, …' }), ` (${dtText}); the output is `, h('code', { text: `evaluate('${r.expr.expression}', …)` }),
      maps ? '. Hover or focus an output cell (arrow keys move) to see which operand cells it reads.' : '.'));
  } else {
    const expr = isTo ? `broadcast(${names[0]})` : names.join(' + ');
    box.append(h('p', { class: 'hint', 'data-direction': 'forward' }, 'Each input holds ', h('code', { text: 'arange(size)' }), ` (${dtText}); the output is `, h('code', { text: expr }),
      '. Hover or focus an output cell (arrow keys move) to see which input cells it reads; hover an input cell to see every output cell that reads it.'));
  }
  const readout = h('p', { class: 'readout', 'aria-live': 'polite', text: ' ' });
  const inputsBox = h('div', { class: 'preview-inputs' });
  ops.forEach((op, k) => {
    inputsBox.append(h('div', { class: 'tensor' },
      h('div', { class: 'tensor-title' }, h('span', { class: 'op-name', text: backward ? gname(k) : op.name }), ' ', h('code', { text: formatShape(op.shape) })),
      drawGrid(op.shape, inputs[k], { 'data-name': op.name, 'data-operand-index': k }, () => ({}))));
  });
  const outBox = h('div', { class: 'tensor tensor-out' },
    h('div', { class: 'tensor-title' }, h('span', { class: 'op-name', text: backward ? 'grad (of the output)' : 'output' }), ' ', h('code', { text: formatShape(values.shape ?? r.shape) })),
    drawGrid(values.shape ?? r.shape, output, { 'data-name': 'output', class: 'grid-wrap out' }, (f) => ({ tabindex: f === 0 ? '0' : '-1' })));
  box.append(h('div', { class: 'preview', 'data-direction': backward ? 'backward' : 'forward' }, inputsBox, h('div', { class: 'preview-arrow', 'aria-hidden': 'true', text: backward ? '⟵' : '⟶' }), outBox), readout);

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
    if (!maps) { readout.textContent = `output${fmtIndex(flat, values.shape)} = ${output[flat]}`; return; }
    maps.forEach((m, k) => {
      const src = m[flat];
      inputWraps[k].querySelector(`.cell[data-flat="${src}"]`)?.classList.add('is-read');
      parts.push(`${names[k]}${fmtIndex(src, r.operands[k].shape)}`);
      vals.push(inputs[k][src]);
    });
    if (isExpr) { readout.textContent = `output${fmtIndex(flat, r.shape)} = ${r.expr.expression} at ${parts.join(', ')} = ${output[flat]}`; return; }
    readout.textContent = backward
      ? `grad${fmtIndex(flat, r.shape)} = ${output[flat]} flows back to ${parts.map((p) => `grad ${p}`).join(', ')}`
      : `output${fmtIndex(flat, r.shape)} = ${parts.join(' + ')}${parts.length > 1 ? ` = ${vals.join(' + ')}` : ''} = ${output[flat]}`;
  };
  const showIn = (k, src) => {
    clear();
    inputWraps[k].querySelector(`.cell[data-flat="${src}"]`)?.classList.add('is-hot');
    const readers = [];
    if (!maps) return;
    maps[k].forEach((s, f) => {
      if (s === src) { outBox.querySelector(`.cell[data-flat="${f}"]`)?.classList.add('is-reader'); readers.push(f); }
    });
    const n = readers.length;
    const at = `${names[k]}${fmtIndex(src, r.operands[k].shape)}`;
    if (backward) {
      const sum = readers.length > 8 ? `the ${n} gradient cells that read ${at}` : readers.map((f) => output[f]).join(' + ');
      readout.textContent = `grad ${at} = ${sum} = ${inputs[k][src]}`;
    } else {
      readout.textContent = `${at} is read by ${n} output cell${n === 1 ? '' : 's'}`;
    }
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
    const oshape = values.shape ?? r.shape;
    const cols = oshape.length ? oshape[oshape.length - 1] : 1;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -flat, End: output.length - 1 - flat }[e.key];
    if (step === undefined) return;
    const next = flat + step;
    if (next < 0 || next >= output.length) return;
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

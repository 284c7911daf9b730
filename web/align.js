// The alignment table: a plan (explain()'s JSON) drawn as rows of operands
// over the output axes, each cell with its verdict, the target row of a
// Broadcast, the result and the verdict row. Shared by the broadcast explorer
// (draw.js) and the model explorer (model.js); the library is 'tensorcast' in
// one page's bundle and 'tensorcast/model' in the other's (each Vite config's alias).
import { formatShape } from 'tensorcast';
import { clashAxes, droppedAxes, shownVerdicts, VERDICT_WORDS, rightAlign } from './plan-words.js';
import { $, h } from './dom.js';

const UNKNOWN_RANK = '[...]';

/** The verdict chips' short forms, shown on narrow screens. */
const SHORT = { equal: 'eq', stretched: 'str', new: 'new', clash: 'clash', unknown: 'may≠', dropped: 'drop', trimmed: 'trim', reordered: 'reord', filled: 'fill' };

function targetRow(request, rank) {
  if (!request || request.rule !== 'broadcastTo') return null;
  const t = request.shapes[1];
  if (!Array.isArray(t)) return null;
  if (request.mode === 'bidirectional') return rightAlign(t, rank);
  return t.length === rank ? t : null;
}

export function renderTable(r, request, back = null) {
  const box = $('align-scroll');
  box.replaceChildren();
  // The legend lists "may differ" and "dropped" only when the table uses them.
  const words = r && Array.isArray(r.axes) && r.shape !== UNKNOWN_RANK ? shownVerdicts(r) : { cells: [], axes: [] };
  const used = new Set([...words.axes, ...words.cells.flat()]);
  $('legend-unknown').hidden = !used.has('unknown');
  $('legend-dropped').hidden = !used.has('dropped');
  $('legend-labels').hidden = !['trimmed', 'reordered', 'filled'].some((w) => used.has(w));
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
  // The library's verdicts as the page words them: "may differ" for dims not provably equal, "dropped" for PDPD's dropped 1s.
  const verdictOf = (a) => words.axes[a];
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
      const v = words.cells[k][a];
      const ghost = op.srcAxis[a] === null;
      const drop = v === 'dropped';
      const sum = summed.has(a);
      const title = ghost ? `${label} has no axis here: a padded 1 (${VERDICT_WORDS[v]})`
        : drop ? `${label} axis ${op.srcAxis[a]}: dropped. PDPD drops ${label}'s trailing 1s before placing it, so ${label} has no dim of its own on this axis and its values repeat along it`
          : v === 'unknown' ? `${label} axis ${op.srcAxis[a]}: ${op.aligned[a]} (may differ: a dim known only at run time meets another here; they broadcast only if they agree then, or one is 1)`
            : `${label} axis ${op.srcAxis[a]}: ${op.aligned[a]} (${VERDICT_WORDS[v]})`;
      const cell = h('td', {
        ...colAttrs(a),
        class: ['dim', `v-${v}`, ghost ? 'ghost' : null, drop ? 'dropped' : null, sum ? 'summed' : null, clash.has(a) ? 'col-error' : null].filter(Boolean).join(' '),
        'data-verdict': op.verdicts[a], // explain()'s own verdict
        'data-shown': v, // the word the page shows for it (shownVerdicts)
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
  const res = h('tr', { class: r.ok ? 'result-row' : 'result-row failed' }, h('th', { scope: 'row', class: 'row-head' }, h('span', { class: 'op-name', text: r.expr?.reduce ? 'broadcast' : 'result' }),
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
      h('span', { class: `chip v-${v}` }, h('span', { class: 'long', text: VERDICT_WORDS[v] }), h('span', { class: 'short', 'aria-hidden': 'true', text: SHORT[v] }))));
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

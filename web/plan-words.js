// The words the explorers give a plan's verdicts, and its clashing and dropped
// axes: read from explain()'s JSON alone (no library import), so that both
// pages (the broadcast explorer and the model explorer) draw alike. Re-exported
// by views.js.

/** One verdict per output axis: clash > stretched > new > equal. */
export function axisVerdict(verdicts, isErrorAxis = false) {
  if (isErrorAxis || verdicts.includes('clash')) return 'clash';
  if (verdicts.includes('stretched')) return 'stretched';
  if (verdicts.includes('new')) return 'new';
  return 'equal';
}

/**
 * Every clashing output axis of a failed plan, ascending: the error's
 * `clashes` list (when the library gives one), its `axis`, and every axis
 * where some operand's verdict is `clash`.
 */
export function clashAxes(plan) {
  const set = new Set();
  if (!plan || plan.ok) return [];
  const e = plan.error;
  if (e && Array.isArray(e.clashes)) for (const a of e.clashes) if (Number.isInteger(a)) set.add(a);
  if (e && Number.isInteger(e.axis)) set.add(e.axis); // the axis the message names
  (plan.axes ?? []).forEach((ax, a) => { if (ax.verdicts.includes('clash')) set.add(a); });
  return [...set].filter((a) => a >= 0 && a < (plan.axes?.length ?? 0)).sort((x, y) => x - y);
}

/**
 * The axes of operand k (its own axis numbers) that its rule drops before
 * aligning it, as explain() reports them (`dropped`: the axes no output axis
 * reads, e.g. PDPD's trailing 1s of B when they overflow). The page greys them
 * and marks them "dropped"; it never works them out itself.
 */
export function droppedAxes(plan, k) {
  const op = plan?.operands?.[k];
  if (!op || !Array.isArray(op.shape) || !Array.isArray(op.dropped)) return [];
  return op.dropped.slice();
}

/** The words the page shows for verdicts, beyond the library's four (see shownVerdicts). */
export const VERDICT_WORDS = {
  equal: 'equal', stretched: 'stretched', new: 'new', clash: 'clash', unknown: 'may differ', dropped: 'dropped',
  trimmed: 'trimmed', reordered: 'reordered', filled: 'filled',
};

const isStaticDim = (d) => typeof d === 'number' && Number.isInteger(d) && d >= 0;

/**
 * The verdicts the page draws for a plan: explain()'s, worded for a person.
 * Returns { cells: [[word per output axis] per operand], axes: [word per axis] }.
 * Three rewordings, none of which changes what the library decided:
 *  - `dropped`: a cell of an operand axis its rule drops before aligning it
 *    (PDPD: B's trailing 1s, explain's `dropped`) reads "dropped" only, not
 *    the verdict the engine gives the 1 it put there; for the axis verdict it
 *    counts as `new` (the operand has no dim of its own there).
 *  - `unknown` ("may differ"): explain() calls dims `equal` when they may be
 *    equal at run time; where two or more operands meet on one axis with
 *    `equal` and one of their dims is not static ('?' or an interval), they are
 *    not provably equal, so those cells, and the axis when nothing else
 *    happens there, read "may differ". Static dims the library calls equal are equal.
 */
export function shownVerdicts(plan) {
  if (!plan || !Array.isArray(plan.axes)) return { cells: [], axes: [] };
  const clash = new Set(clashAxes(plan));
  const reads = labelReads(plan);
  const cells = plan.operands.map((op, k) => {
    const dropped = new Set(droppedAxes(plan, k));
    return plan.axes.map((_, a) => {
      const src = op.srcAxis?.[a];
      if (src !== null && src !== undefined && dropped.has(src)) return 'dropped';
      return op.verdicts[a] === 'equal' && reads[k]?.[a] ? reads[k][a] : op.verdicts[a];
    });
  });
  const axes = plan.axes.map((_, a) => {
    const meeting = plan.operands.map((op, k) => k).filter((k) => cells[k][a] === 'equal' && plan.operands[k].srcAxis?.[a] !== null);
    const dims = meeting.map((k) => plan.operands[k].aligned[a]);
    const open = meeting.length >= 2 && dims.some((d) => !isStaticDim(d));
    if (open) for (const k of meeting) cells[k][a] = 'unknown';
    if (clash.has(a)) return 'clash';
    const base = axisVerdict(cells.map((c) => (c[a] === 'dropped' ? 'new' : c[a] === 'unknown' || LABEL_READS.includes(c[a]) ? 'equal' : c[a])));
    const byLabel = LABEL_READS.find((w) => cells.some((c) => c[a] === w));
    return base === 'equal' && byLabel ? byLabel : base === 'equal' && open ? 'unknown' : base;
  });
  return { cells, axes };
}

// How coordinate labels read an operand's dim, strongest first.
const LABEL_READS = ['filled', 'trimmed', 'reordered'];

/**
 * Named dims with coordinate labels: how each operand's labelled dims are
 * read into the result, from explain()'s namedAxes (the result's labels and,
 * per operand, the index of each in the operand's own labels, −1 where it has
 * none). Per operand, per output axis: null (read as it lies), `filled` (the
 * result has labels the operand lacks: those cells read the fill value),
 * `trimmed` (the operand has labels the result drops) or `reordered` (the
 * same labels in another order). The library calls all of these `equal` (the
 * labels agree); any of them makes reading the operand a gather.
 */
export function labelReads(plan) {
  const ops = plan?.operands ?? [];
  const reads = ops.map(() => (plan?.axes ?? []).map(() => null));
  if (!plan || !plan.ok || plan.rule !== 'named' || !Array.isArray(plan.namedAxes)) return reads;
  plan.namedAxes.forEach((ax, a) => {
    if (!ax.labeled) return;
    [[ax.left, ax.leftIndex], [ax.right, ax.rightIndex]].forEach(([own, index], k) => {
      if (!ops[k] || !Number.isInteger(own) || own < 0 || !Array.isArray(index) || a >= reads[k].length) return;
      const size = ops[k].shape?.[own];
      if (index.includes(-1)) reads[k][a] = 'filled';
      else if (typeof size === 'number' && size > index.length) reads[k][a] = 'trimmed';
      else if (index.some((j, i) => j !== i)) reads[k][a] = 'reordered';
    });
  });
  return reads;
}

/**
 * Right-align a raw shape (e.g. a Broadcast target) under `rank` output
 * columns, for display only: null where the shape has no axis.
 */
export function rightAlign(shape, rank) {
  if (!Array.isArray(shape)) return Array(rank).fill(null);
  const out = Array(rank).fill(null);
  const off = rank - shape.length;
  for (let i = 0; i < shape.length; i++) if (off + i >= 0) out[off + i] = shape[i];
  return out;
}

// Suggestions when shapes do not broadcast: candidate edits of the page state,
// each kept only after the library's explain() accepted it (`suggest` is
// handed the library). No DOM, no globals.
import { formatShape } from 'tensorcast';
import { activeOperands, applyPatch, buildRequest, letter, parseDimNames, parseMapping, parseShape, shapeToText } from './state.js';

// ---- suggestions -------------------------------------------------------------------

function combinations(n, k, limit, visit) {
  // Visit k-subsets of 0..n-1 in lexicographic order; stop after `limit`.
  let count = 0;
  const c = Array.from({ length: k }, (_, i) => i);
  if (k > n) return;
  for (;;) {
    if (count++ >= limit) return;
    if (visit(c) === false) return;
    let i = k - 1;
    while (i >= 0 && c[i] === n - k + i) i--;
    if (i < 0) return;
    c[i]++;
    for (let j = i + 1; j < k; j++) c[j] = c[j - 1] + 1;
  }
}

/**
 * Shapes holding the same data in the same order as `shape` — its non-1 dims
 * in order, with 1s inserted or removed — nearest rank first. These are plain
 * reshapes (np.reshape / expand_dims / squeeze), never transposes.
 */
export function reshapeCandidates(shape, maxRank, limit = 400) {
  if (!Array.isArray(shape)) return [];
  const core = shape.filter((d) => d !== 1);
  const r = shape.length;
  const k = core.length;
  const ranks = [];
  for (let t = Math.max(k, 0); t <= Math.min(32, Math.max(maxRank, r)); t++) ranks.push(t);
  ranks.sort((x, y) => Math.abs(x - r) - Math.abs(y - r) || x - y);
  const key = JSON.stringify(shape);
  const out = [];
  const seen = new Set([key]);
  for (const t of ranks) {
    // Prefer the non-1 dims to the left, so trailing 1s come first: [3] -> [3, 1].
    combinations(t, k, limit, (pos) => {
      const s = Array(t).fill(1);
      pos.forEach((p, i) => { s[p] = core[i]; });
      const sk = JSON.stringify(s);
      if (!seen.has(sk)) { seen.add(sk); out.push(s); }
      return out.length < limit;
    });
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Suggestions for a failed plan. `lib` is the library ({ explain }); each
 * candidate is turned into a page state, built into a request exactly as the
 * page does, and kept only if the library's explain() accepts it.
 * Returns up to `max` of [{ kind, text, patch, shape }].
 */
export function suggest(state, result, lib, max = 3) {
  if (!result || result.ok || !result.error) return [];
  const out = [];
  const seen = new Set();
  const code = result.error.code;
  const rule = state.rule;
  const active = activeOperands(state);
  const parsed = active.map((i) => parseShape(state.shapes[i] ?? ''));
  if (rule !== 'named' && parsed.some((p) => !p.ok)) return [];
  const shapes = parsed.map((p) => (p.ok ? p.shape : null));
  const rankOf = (s) => (Array.isArray(s) ? s.length : null);

  // At most this many explain() calls: clashes of many rank-32 operands have thousands of candidate
  // reshapes, and the page runs this on every keystroke (a few hundred at most otherwise).
  let budget = 1000;
  const verify = (patch) => {
    if (budget-- <= 0) return null;
    const b = buildRequest(applyPatch(state, patch));
    if (!b.ok) return null;
    const r = lib.explain(b.request);
    return r && r.ok ? r : null;
  };
  // Keep a candidate only if the library accepts it (and `accept` likes the result).
  const add = (kind, text, patch, accept) => {
    if (out.length >= max || seen.has(text)) return false;
    const r = verify(patch);
    if (!r || (accept && !accept(r))) return false;
    seen.add(text);
    out.push({ kind, text, patch, shape: r.shape, result: formatShape(r.shape) });
    return true;
  };
  // Another pdpd axis; `asRule` switches an element-wise rule to pdpd too.
  const tryAxes = (rank, asRule) => {
    if (typeof rank !== 'number') return;
    for (let axis = -1; axis <= rank; axis++) {
      if (!asRule && axis === state.axis) continue;
      const text = asRule ? `use rule pdpd with axis ${axis}` : `use axis ${axis}`;
      if (add('axis', text, asRule ? { rule: 'pdpd', axis } : { axis })) return;
    }
  };
  // Reshape operand k (same data, same order: only 1s inserted or removed).
  const tryReshape = (k, name, maxRank, accept, suffix = '') => {
    for (const cand of reshapeCandidates(shapes[k], maxRank)) {
      if (accept && cand.length > maxRank) continue;
      const next = [...state.shapes];
      next[active[k]] = shapeToText(cand);
      if (add('reshape', `reshape ${name} to ${formatShape(cand)}${suffix}`, { shapes: next }, accept)) return true;
    }
    return false;
  };
  const maxRank = Math.max(0, ...shapes.map((s) => rankOf(s) ?? 0));
  const clashFirst = () => {
    const ops = result.error.operands;
    const list = [];
    if (Array.isArray(ops)) for (const k of [ops[1], ops[0]]) if (k >= 0 && k < shapes.length && !list.includes(k)) list.push(k);
    for (let k = shapes.length - 1; k >= 0; k--) if (!list.includes(k)) list.push(k);
    return list;
  };
  // Broadcast op: a reshaped input is only useful if it reaches the target.
  const reachesTarget = (r) => {
    const t = shapes[1];
    return Array.isArray(t) && Array.isArray(r.shape) && r.shape.length === t.length
      && t.every((d, a) => d === -1 || String(d) === String(r.shape[a]));
  };

  if (rule === 'numpy' || rule === 'none') {
    if (rule === 'none') add('rule', 'use rule numpy (implicit broadcasting)', { rule: 'numpy' });
    if (code === 'INVALID_SHAPE') return out;
    // First reshapes that keep the output rank, then (numpy) an outer broadcast.
    const sameRank = (r) => rankOf(r.shape) !== null && r.shape.length <= maxRank;
    let found = false;
    for (const k of clashFirst()) found = tryReshape(k, letter(k), maxRank, sameRank) || found;
    if (shapes.length === 2) tryAxes(rankOf(shapes[0]), true);
    if (!found && rule === 'numpy') {
      for (let k = 0; k < shapes.length && out.length < max; k++) {
        if (tryReshape(k, letter(k), maxRank + 1, null, ' for an outer broadcast')) break;
      }
    }
  } else if (rule === 'pdpd') {
    tryAxes(rankOf(shapes[0]), false);
    tryReshape(1, 'B', maxRank, (r) => String(r.shape) === String(shapes[0]));
    add('rule', 'use rule numpy (there B may enlarge A)', { rule: 'numpy' });
  } else if (rule === 'to-numpy') {
    if (code === 'MINUS_ONE_IN_NEW_AXIS' && Array.isArray(shapes[1]) && result.error.axis !== null) {
      const t = [...shapes[1]];
      t[result.error.axis] = 1;
      add('target', `put a size instead of −1 at axis ${result.error.axis}, e.g. ${formatShape(t)}`, { shapes: [state.shapes[0], shapeToText(t), ...state.shapes.slice(2)] });
      return out;
    }
    tryReshape(0, 'the input', rankOf(shapes[1]) ?? 0, reachesTarget);
    tryMappings(state, shapes, add);
    add('rule', 'use mode bidirectional (the target may grow too)', { rule: 'to-bidirectional' });
  } else if (rule === 'to-explicit') {
    tryMappings(state, shapes, add);
    tryReshape(0, 'the input', rankOf(shapes[1]) ?? 0, reachesTarget);
  } else if (rule === 'to-bidirectional') {
    tryReshape(0, 'the input', maxRank, (r) => rankOf(r.shape) !== null && r.shape.length <= maxRank);
  } else if (rule === 'to-pdpd') {
    tryAxes(rankOf(shapes[1]), false);
    tryReshape(0, 'the input', rankOf(shapes[1]) ?? 0, reachesTarget);
  } else if (rule === 'named') {
    if (state.shaping === 'exact') {
      add('shaping', 'use shaping intersection (keep the labels both sides have)', { shaping: 'intersection' });
      add('shaping', 'use shaping union (an outer join of the labels)', { shaping: 'union' });
    }
    const axis = result.error.axis;
    const dimNames = result.dimNames;
    if (code === 'INCOMPATIBLE_DIMS' && axis !== null && Array.isArray(dimNames)) {
      const name = dimNames[axis];
      const nb = parseDimNames(state.names[1] ?? '');
      if (nb.ok && nb.dims.includes(name) && !(nb.coords && Object.hasOwn(nb.coords, name))) {
        let fresh = `${name}_B`;
        while (nb.dims.includes(fresh)) fresh += '_';
        const renamed = nb.dims.map((d) => (d === name ? fresh : d));
        const text = renamed.map((d) => (nb.coords && Object.hasOwn(nb.coords, d) ? `${d}{${nb.coords[d].join(',')}}` : d)).join(', ');
        add('rename', `if B's "${name}" is a different dimension, rename it to "${fresh}" (then it broadcasts)`, { names: [state.names[0], text, ...state.names.slice(2)] });
      }
    }
  }
  return out;
}

function tryMappings(state, shapes, add) {
  const [input, target] = shapes;
  if (!Array.isArray(input) || !Array.isArray(target)) return;
  if (input.length > target.length || target.length > 16) return;
  const current = parseMapping(state.mapping);
  const cur = current.ok ? JSON.stringify(current.mapping) : '';
  combinations(target.length, input.length, 2000, (m) => {
    if (JSON.stringify(m) === cur && state.rule === 'to-explicit') return true;
    const mapping = m.join(', ');
    const done = add('mapping', state.rule === 'to-explicit' ? `use axes mapping [${mapping}]` : `use mode explicit with axes mapping [${mapping}]`, { rule: 'to-explicit', mapping });
    return !done;
  });
}

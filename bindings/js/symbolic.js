// Symbolic dims (tensorcast/model): a dim may be a name such as 'batch'
// beside numbers, '?' and intervals. The engine never sees a name: each is
// handed to it as '?', so the engine checks the numbers and aligns the axes
// (explain()'s srcAxis), and this module reads, axis by axis, what the rule
// asks of the names that met there:
//
//   N ⊕ N → N      N ⊕ 1 → N      N ⊕ 3 → 3, and N ∈ {1, 3}
//   N ⊕ M → 'N|M'  (the dim that is N or M), and N = M ∨ N = 1 ∨ M = 1
//   rule none:     N vs 3 → N = 3;   N vs M → N = M
//   broadcastTo:   N to 3 → N ∈ {1, 3};   3 to T → T = 3
//
// Names are never unified silently: what a call learns about a name is a
// constraint, kept in a Symbols table (per call, or per model in inferShapes).
// Each name's possible values are 'any' or a finite set; a set that becomes
// empty is a contradiction, reported as a BroadcastError naming the symbol
// and every place that constrained it.
import { BroadcastError, formatShape } from './errors.js';
import { explain } from './explain.js';
import { INTERVAL, UNKNOWN_RANK, safeFormat } from './operands.js';

/**
 * True when `d` is a symbol: a string other than '?', an interval and the
 * unknown-rank marker '[...]' (which is no dim), spaces around it ignored as
 * around those (symbolicPlan trims it).
 */
export function isSymbol(d) {
  if (typeof d !== 'string') return false;
  const t = d.trim();
  return t !== '' && t !== '?' && t !== UNKNOWN_RANK && !INTERVAL.test(t);
}

/** A shape with its names trimmed (' N ' is N, as ' ? ' is '?'); other dims as they are, for the engine to read. */
const trimNames = (s) => (Array.isArray(s) ? s.map((d) => (isSymbol(d) ? d.trim() : d)) : s);

/** The names a symbolic dim stands for: 'N|M' is N or M (the dim of N ⊕ M). */
export const members = (d) => d.split('|');

const union = (names) => [...new Set(names.flatMap(members))].sort().join('|');
const setText = (s) => `{${[...s].sort((x, y) => x - y).join(', ')}}`;

export class Symbols {
  constructor() {
    /** name → { order, values: Set<number> | null, notes: string[], meets: string[], relations: {a, b, kind, where}[] } */
    this.table = new Map();
    /** Every note recorded, in order ({ name, note, relation }): what a node added is the part after its mark(). */
    this.log = [];
    /** The relations recorded, by text: one met again (a chain of Adds of new names meets every pair again) is recorded once. */
    this.related = new Set();
    /** The merged dims ('M|N|K') whose names were all related pairwise ('bcast') when the dim was made. */
    this.merged = new Set();
  }

  entry(name) {
    let e = this.table.get(name);
    if (e === undefined) this.table.set(name, (e = { order: this.table.size, values: null, notes: [], meets: [], relations: [] }));
    return e;
  }

  /** Keep `note` (and `relation`) among what is known of `name`. */
  record(name, note, relation = null) {
    const e = this.entry(name);
    e.notes.push(note);
    if (relation) e.relations.push(relation);
    this.log.push({ name, note, relation });
  }

  /**
   * The point from which added() counts: a node's plan lists what the node
   * added, not all that is known of its names (a chain of n new names that all
   * meet would copy every relation at every node: n^3).
   * `names` collects the names the calls met (symbolicPlan adds them).
   */
  mark() {
    return { at: this.log.length, names: new Set() };
  }

  /**
   * What was recorded since `since` (a mark()), for the names met then and
   * those recorded against: [{ name, values, constraints, relations }] as
   * list(), `values` what the name may take now, `constraints` and `relations`
   * only those recorded since.
   */
  added(since) {
    const by = new Map([...since.names].map((n) => [n, { notes: [], relations: [] }]));
    for (let i = since.at; i < this.log.length; i++) {
      const { name, note, relation } = this.log[i];
      let a = by.get(name);
      if (a === undefined) by.set(name, (a = { notes: [], relations: [] }));
      a.notes.push(note);
      if (relation) a.relations.push(relation);
    }
    return [...by].sort((x, y) => this.entry(x[0]).order - this.entry(y[0]).order).map(([name, a]) => info(name, this.entry(name), a.notes, a.relations));
  }

  /**
   * Restrict the name(s) of `d` to `allowed` (numbers), at `where`; `meets` says
   * what it met ('3 at Add_7'). Returns null, or the message of a contradiction.
   */
  restrict(d, allowed, where, note, meets) {
    for (const name of members(d)) {
      const e = this.entry(name);
      const before = e.values;
      const next = before === null ? new Set(allowed) : new Set([...before].filter((v) => allowed.has(v)));
      this.record(name, `${name} ∈ ${setText(allowed)}${note}`);
      if (meets) e.meets.push(meets);
      e.values = next;
      if (next.size === 0) {
        return `${name} has no possible value: it meets ${e.meets.join(' and ')}`;
      }
      if (next.size === 1 && (before === null || before.size > 1) && e.meets.length > 1) {
        this.record(name, `${name} must be ${[...next][0]}: it meets ${e.meets.join(' and ')}`);
      }
      const bad = this.checkRelations(name) ?? (next.size < (before?.size ?? Infinity) ? this.spread(name, where) : null);
      if (bad) return bad;
    }
    return null;
  }

  /**
   * The names equal to `name` ('equal' relations between single names, rule
   * none's N = M) take its values too: N = M with N ∈ {3} makes M ∈ {3}, so a
   * chain through names that are otherwise free (M = N, K = M, N = 3, K = 5)
   * is found a contradiction. Sets only shrink, so this ends.
   */
  spread(name, where) {
    if (name.includes('|')) return null; // a merged dim ('M|N') is no one name
    const v = this.entry(name).values;
    if (v === null) return null;
    for (const r of this.entry(name).relations) {
      if (r.kind !== 'equal' || typeof r.b !== 'string' || r.a.includes('|') || r.b.includes('|')) continue;
      const other = r.a === name ? r.b : r.a;
      const o = this.entry(other).values;
      if (o !== null && [...o].every((x) => v.has(x))) continue; // nothing new for it
      const bad = this.restrict(other, v, where, ` (${other} = ${name})`, `${name} ∈ ${setText(v)}`);
      if (bad) return bad;
    }
    return null;
  }

  /** Dim `d` (a name, or 'M|N') equal to the number `n`: a name is n; each name of 'M|N' is 1 or n, and one of them n. */
  equal(d, n, where, note, meets) {
    return members(d).length === 1 ? this.restrict(d, new Set([n]), where, note, meets)
      : this.restrict(d, new Set([1, n]), where, note, meets) ?? this.relate(d, n, 'equal', where);
  }

  /**
   * A relation between two dims: 'bcast' (a = b ∨ a = 1 ∨ b = 1), 'equal' (a = b) or 'to' (a = b ∨
   * a = 1). `a` is a name or a merged dim ('M|N', the dim of M ⊕ N); `b` one too, or a number
   * ('M|N' = 3 under rule none: one of them is 3, the other 1 or 3). Kept with each of their names.
   */
  relate(a, b, kind, where) {
    if (a === b) return null;
    if (kind !== 'to' && typeof b === 'string' && b < a) [a, b] = [b, a]; // one text whichever side each name is on
    const key = `${kind} ${a} ${typeof b} ${b}`;
    if (this.related.has(key)) return null; // checked when recorded, and again whenever a name's values shrink
    this.related.add(key);
    const r = { a, b, kind, where };
    const text = kind === 'equal' ? `${a} = ${b}` : kind === 'to' ? `${a} = ${b} ∨ ${a} = 1` : `${a} = ${b} ∨ ${a} = 1 ∨ ${b} = 1`;
    for (const n of [a, b].filter((d) => typeof d === 'string').flatMap(members)) this.record(n, `${text}${where ? ` (${where})` : ''}`, r);
    // only the new relation can fail: the others held, and no set has shrunk since (checking all of a's made a chain of n names n^3)
    return this.violated(r) ?? (kind === 'equal' && typeof b === 'string' ? this.spread(a, where) ?? this.spread(b, where) : null);
  }

  /** The values dim `d` may take (a number, a name, or 'M|N': each way its names broadcast together); null: any. */
  valuesOf(d) {
    if (typeof d === 'number') return [d];
    let acc = [1]; // 1 ⊕ x = x
    for (const m of members(d)) {
      const v = this.entry(m).values;
      if (v === null) return null;
      const next = new Set();
      for (const x of acc) for (const y of v) if (x === y || x === 1 || y === 1) next.add(x === 1 ? y : x);
      acc = [...next];
    }
    return acc;
  }

  checkRelations(name) {
    for (const r of this.entry(name).relations) {
      const bad = this.violated(r);
      if (bad) return bad;
    }
    return null;
  }

  /** The message of relation `r` when its dims' values cannot satisfy it, or null. */
  violated(r) {
    const A = this.valuesOf(r.a);
    const B = this.valuesOf(r.b);
    if (A === null || B === null) return null;
    for (const x of A) {
      for (const y of B) {
        if (x === y || (r.kind !== 'equal' && x === 1) || (r.kind === 'bcast' && y === 1)) return null;
      }
    }
    return `${r.a} ∈ ${setText(A)} and ${r.b} ∈ ${setText(B)} cannot meet${r.where ? ` at ${r.where}` : ''}: ${r.kind === 'equal' ? 'they must be equal' : 'one must be 1 or both equal'}`;
  }

  /** The value a name must have, or undefined. */
  value(name) {
    const v = this.table.get(name)?.values;
    return v && v.size === 1 ? [...v][0] : undefined;
  }

  /**
   * [{ name, values, constraints, relations }], in the order the names were
   * met: `values` the values it may take (null: any), `constraints` as text,
   * `relations` with other names ({ a, b, kind: 'bcast' | 'equal' | 'to', where }).
   */
  list() {
    return [...this.table].map(([name, e]) => info(name, e, e.notes, e.relations));
  }
}

/** A name as list() and added() give it: its values now, with `notes` and `relations` (copies). */
function info(name, e, notes, relations) {
  return {
    name,
    values: e.values === null ? null : [...e.values].sort((x, y) => x - y),
    constraints: [...new Set(notes)],
    relations: relations.map(({ a, b, kind, where }) => ({ a, b, kind, where })),
  };
}

/** A node's explain() request as it reports it: the rule's fields, names kept (pairwise rules chained: all their shapes). */
export function requestOf(req) {
  const out = { rule: req.rule ?? 'numpy', shapes: req.shapes.map((s) => (Array.isArray(s) ? [...s] : s)) };
  for (const k of ['axis', 'mode', 'axesMapping']) if (req[k] !== undefined) out[k] = Array.isArray(req[k]) ? [...req[k]] : req[k];
  return out;
}

const engineDim = (d) => (isSymbol(d) ? '?' : d);
const engineShape = (s) => (Array.isArray(s) ? s.map(engineDim) : s);

/**
 * The engine's message with the caller's shapes: each operand's shape as the
 * engine printed it ('?' for a name) replaced, in operand order, at its next
 * place in the text (two operands may print alike: (?,3) (?,3)).
 */
function rewrite(message, from, to) {
  let m = message;
  let at = 0;
  // a shape as the rules' messages print it, (2,N), or as an invalid shape's does, [2, "N"]
  const forms = [formatShape, safeFormat];
  for (let k = 0; k < from.length; k++) {
    if (!Array.isArray(from[k]) || !Array.isArray(to[k])) continue;
    for (const form of forms) {
      const a = form(from[k]);
      const i = m.indexOf(a, at);
      if (i < 0) continue;
      const b = form(to[k]);
      m = m.slice(0, i) + b + m.slice(i + a.length);
      at = i + b.length;
      break;
    }
  }
  return m;
}

/** The caller's dims (names) back in a plan's operands, where the engine saw '?'. */
function namesBack(plan, shapes) {
  plan.operands.forEach((op, k) => {
    if (!Array.isArray(shapes[k])) return;
    op.shape = [...shapes[k]];
    if (op.aligned) op.aligned = op.aligned.map((d, i) => (op.srcAxis[i] === null || op.srcAxis[i] === undefined ? d : shapes[k][op.srcAxis[i]]));
  });
}

/**
 * A rule applied to shapes that may hold symbols. `req` is an explain()
 * request ({ rule, shapes, axis, mode, axesMapping }); `syms` collects the
 * constraints; `where` names the node (or null). Returns explain()'s plan with
 * the symbols put back: `shape`, operands' `shape`/`aligned`, axes' `dim`,
 * `error` (shapes and message in the caller's dims) and `symbols` (the names
 * met or constrained since `since`, a syms.mark(), with their values now and
 * what was recorded of them since: added(); with a new table, everything
 * known of them).
 */
export function symbolicPlan(req, syms = new Symbols(), where = null, since = syms.mark()) {
  const hasSym = Array.isArray(req.shapes) && req.shapes.some((s) => Array.isArray(s) && s.some(isSymbol));
  if (!hasSym) return explain(req);
  const shapes = req.shapes.map(trimNames);
  const eShapes = shapes.map(engineShape);
  const plan = explain({ ...req, shapes: eShapes });
  const at = where ? ` at ${where}` : '';
  if (!plan.ok) {
    if (plan.error && Array.isArray(plan.error.shapes)) {
      plan.error.message = rewrite(plan.error.message, eShapes, shapes);
      plan.error.shapes = shapes.map((s) => (Array.isArray(s) ? [...s] : s));
    }
    namesBack(plan, shapes);
    return plan;
  }
  // An operand of unknown rank: the result's rank is unknown too, and no name has a place in it
  if (!Array.isArray(plan.shape)) return plan;
  const rule = req.rule ?? 'numpy';
  const to = rule === 'broadcastTo';
  const mode = to ? (req.mode ?? 'numpy') : null;
  const out = plan.shape.slice();
  const target = to ? shapes[1] : null;
  const touched = new Set();
  const fail = (message, axis, dims) => {
    plan.ok = false;
    plan.error = new BroadcastError(message, { code: 'INCOMPATIBLE_DIMS', shapes: shapes.map((s) => [...s]), axis, dims }).toJSON();
  };
  for (let i = 0; i < out.length && plan.ok; i++) {
    const dims = [];
    const from = []; // the operand of each of dims
    plan.operands.forEach((op, k) => {
      const j = op.srcAxis[i];
      if (j !== null && j !== undefined) { dims.push(shapes[k][j]); from.push(k); }
    });
    let t = null;
    if (to) {
      // The target's dim at output axis i: numpy and explicit give the output the
      // target's rank; bidirectional right-aligns both.
      const ti = i - (out.length - target.length);
      t = ti >= 0 ? target[ti] : null;
      if (t === -1) t = null; // a keep (§5): the input's dim
    }
    const named = dims.filter(isSymbol);
    if (named.length === 0 && !(t !== null && isSymbol(t))) continue;
    for (const d of named) for (const n of members(d)) touched.add(n);
    if (t !== null && isSymbol(t)) for (const n of members(t)) touched.add(n);
    let err = null;
    const dim = (d) => (isSymbol(d) ? d : plan.shape[i]); // a dim that is no name: the engine's (intervals normalised)
    if (rule === 'pdpd') {
      // pdpd (element-wise): the output is A's; B stretches from 1 into it, one way.
      t = dims[from.indexOf(0)];
      const kb = from.indexOf(1);
      if (kb < 0) { out[i] = dim(t); continue; }
      dims.splice(0, dims.length, dims[kb]);
    }
    if ((to && mode !== 'bidirectional' && mode !== 'pdpd') || rule === 'pdpd') {
      // Unidirectional: the output dim is the target's; the input stretches from 1.
      const d = dims[0];
      if (t === null) { out[i] = dim(d); continue; }
      out[i] = dim(t);
      if (isSymbol(d) && typeof t === 'number') err = syms.restrict(d, new Set([1, t]), where, ` (it meets ${t}${at})`, `${t}${at}`);
      else if (isSymbol(d) && isSymbol(t)) err = syms.relate(d, t, 'to', where);
      else if (typeof d === 'number' && d !== 1 && isSymbol(t)) err = syms.equal(t, d, where, ` (the input has ${d}${at})`, `${d}${at}`);
      if (err) fail(err, i, [d, t]);
      continue;
    }
    const all = t === null ? dims : [...dims, t];
    const nums = all.filter((d) => typeof d === 'number');
    const unknown = all.some((d) => typeof d === 'string' && !isSymbol(d));
    const names = [...new Set(all.filter(isSymbol))];
    if (rule === 'none') {
      const n = nums[0];
      if (n !== undefined) {
        out[i] = n;
        for (const s of names) if (!err) err = syms.equal(s, n, where, ` (rule none: equal to ${n}${at})`, `${n}${at} (rule none)`);
      } else {
        out[i] = names[0];
        for (let k = 1; k < names.length && !err; k++) err = syms.relate(names[0], names[k], 'equal', where);
      }
      if (err) fail(err, i, all);
      continue;
    }
    // numpy, pdpd and bidirectional: the dims that are not 1 must agree.
    const big = nums.find((d) => d !== 1);
    if (big !== undefined) {
      out[i] = big;
      for (const s of names) if (!err) err = syms.restrict(s, new Set([1, big]), where, ` (it meets ${big}${at})`, `${big}${at}`);
    } else if (names.length === 1) {
      out[i] = unknown ? plan.shape[i] : names[0];
    } else {
      out[i] = unknown ? plan.shape[i] : union(names); // beside a '?' or an interval the names still meet each other
      // Each pair of names meets once. The names a merged dim made here brings (in a run of `flat`) met
      // when it was made: from a name of it, the pairs start past its run (a chain t = Add(t, x_i)
      // of n names tried every pair at every node, n^3/6; relate() found each but the new ones recorded).
      const flat = [];
      const from = []; // from[a]: the first b that flat[a] meets
      const seen = new Set();
      for (const d of names) {
        const start = flat.length;
        for (const m of members(d)) if (!seen.has(m)) { seen.add(m); flat.push(m); }
        for (let a = start; a < flat.length; a++) from.push(syms.merged.has(d) ? flat.length : a + 1);
      }
      for (let a = 0; a < flat.length && !err; a++) {
        for (let b = from[a]; b < flat.length && !err; b++) err = syms.relate(flat[a], flat[b], 'bcast', where);
      }
      if (!err) syms.merged.add(union(names));
    }
    if (err) fail(err, i, all);
  }
  if (plan.ok) {
    plan.shape = out;
    plan.static = out.every((d) => typeof d === 'number');
    // a static result has a size, as the plain plan's; its loop needs the operands' own dims, which names leave open
    if (plan.static) {
      const n = out.reduce((p, d) => p * d, 1);
      plan.size = Number.isSafeInteger(n) ? n : null;
      if (plan.size === null) plan.sizeText = String(out.reduce((p, d) => p * BigInt(d), 1n)); // past 2^53, as the plain plan
    }
    plan.axes.forEach((ax, i) => { ax.dim = out[i]; });
  } else {
    plan.shape = null;
  }
  namesBack(plan, shapes);
  for (const n of touched) { syms.entry(n); since.names.add(n); }
  plan.symbols = syms.added(since);
  return plan;
}

/**
 * symbolicPlan() of a node's request; `chain: true` (rule none over more than
 * two shapes: Sum before opset 8, Select under auto_broadcast none) runs the
 * pairs in turn and answers the first refusal, or the last pair's plan. Its
 * `symbols` are what the node added since `since` (its start, or the caller's
 * mark(): a MatMul's contraction, checked first), all pairs included.
 */
export function nodePlan(req, syms, where, since = syms.mark()) {
  let plan = null;
  if (!req.chain) plan = symbolicPlan(req, syms, where, since);
  let acc = req.shapes[0];
  for (let k = 1; req.chain && k < req.shapes.length; k++) {
    plan = symbolicPlan({ rule: 'none', shapes: [acc, req.shapes[k]] }, syms, where, since);
    if (!plan.ok) break;
    acc = plan.shape;
  }
  // A plan without names (a chain's last pair after N = 3 made it 3; a MatMul whose names were only contracted) still lists the node's
  if (plan.symbols === undefined && (since.names.size || since.at < syms.log.length)) plan.symbols = syms.added(since);
  return plan;
}

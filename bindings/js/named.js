// Named operands (§6): { dims, shape } or { dims, coords }, read once into
// owned arrays, and their encoding (names and labels become integer ids).
import { BroadcastError, formatShape } from './errors.js';
import { copyShape, checkShape, isStatic, UNKNOWN_RANK, describe, safeFormat } from './shapes.js';
import { C, none } from './contract.js';

/** A dim name's identity: coords keys are strings, so 1 and '1' are the same name. */
export const nameKey = (d) => String(d);

/**
 * Read a named operand once: { dims, sizes, labels } with owned arrays.
 * `which` names it in messages ('left', 'right', 'tensor', 'add: a').
 */
export function readNamed(t, which, fn = 'namedBroadcastShape') {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new TypeError(`${fn}: ${which} must be { dims, shape } or { dims, coords }`);
  const dimsIn = t.dims;
  const coords = t.coords ?? null;
  const shapeIn = t.shape;
  return namedFrom(dimsIn ?? [], coords, shapeIn, which, fn);
}

/** The same from separately read parts (a data operand has read its shape already). */
export function namedFrom(dimsIn, coords, shapeIn, which, fn) {
  if (!Array.isArray(dimsIn)) throw new TypeError(`${fn}: ${which}.dims must be an array of dim names`);
  const dims = Array.from(dimsIn);
  for (const d of dims) {
    if (typeof d !== 'string' && typeof d !== 'number') throw new TypeError(`${fn}: ${which}.dims entries must be strings or numbers, got ${typeof d}`);
  }
  const seen = new Map(none);
  for (let i = 0; i < dims.length; i++) {
    const k = nameKey(dims[i]);
    if (seen.has(k)) {
      throw new BroadcastError(`${fn}: ${which} has the dim name "${k}" twice (axes ${seen.get(k)} and ${i}): duplicate dim names (1 and '1' are the same name)`,
        { code: 'INVALID_SHAPE', axis: i });
    }
    seen.set(k, i);
  }
  if (coords !== null && (typeof coords !== 'object' || Array.isArray(coords))) {
    throw new TypeError(`${fn}: ${which}.coords must be an object of { dimName: labels[] }`);
  }
  let shape;
  if (shapeIn !== undefined) {
    shape = copyShape(shapeIn, `${fn}: ${which}.shape`);
    checkShape(shape, false, [shape], `${fn}: ${which}.shape`);
    if (!isStatic(shape)) {
      throw new BroadcastError(`${fn}: ${which}.shape must be static`, { code: 'INVALID_SHAPE', shapes: [shape] });
    }
    if (shape.length !== dims.length) {
      throw new BroadcastError(`${fn}: ${which} has ${dims.length} dim names but shape ${formatShape(shape)}`,
        { code: 'INVALID_SHAPE', shapes: [shape] });
    }
  }
  const sizes = new Array(dims.length);
  const labels = new Array(dims.length);
  const coordKeys = coords ? Object.keys(coords) : [];
  for (let i = 0; i < dims.length; i++) {
    let c = coords && Object.hasOwn(coords, nameKey(dims[i])) ? coords[nameKey(dims[i])] : undefined;
    if (c !== undefined) {
      if (!Array.isArray(c)) throw new TypeError(`${fn}: ${which}.coords.${dims[i]} must be an array of labels`);
      c = Array.from(c);
      if (c.length > C.limits.maxLabels) {
        throw new BroadcastError(`${fn}: ${which} dim "${dims[i]}" has ${c.length} coordinates; at most ${C.limits.maxLabels}`, { code: 'TOO_LARGE', axis: i });
      }
      for (const l of c) {
        if (typeof l !== 'string' && typeof l !== 'number' && typeof l !== 'boolean') throw new TypeError(`${fn}: coordinate labels must be strings, numbers or booleans, got ${typeof l}`);
      }
      // With coords, the dim's size is its number of labels; a shape given too must agree.
      if (shape !== undefined && shape[i] !== c.length) {
        throw new BroadcastError(`${fn}: ${which} dim "${dims[i]}" has size ${shape[i]} but coordinates of length ${c.length}`,
          { code: 'INVALID_SHAPE', shapes: [shape], axis: i, dims: [shape[i], c.length] });
      }
      labels[i] = c;
      sizes[i] = c.length;
    } else {
      if (shape === undefined) {
        throw new BroadcastError(`${fn}: ${which} dim "${dims[i]}" has neither a size (shape) nor coordinates`, { code: 'INVALID_SHAPE', axis: i });
      }
      labels[i] = null;
      sizes[i] = shape[i];
    }
  }
  for (const k of coordKeys) {
    if (!seen.has(k)) {
      throw new BroadcastError(`${fn}: ${which}.coords names "${k}", which is not one of its dims`, { code: 'INVALID_SHAPE' });
    }
  }
  return { dims, sizes, labels };
}

// Labels keyed by type then value (1 and '1' are different labels; -0 and 0,
// and NaN and NaN, the same): one Map per type, so no key string is built per
// label — a million-label axis is interned in milliseconds.
export class LabelMap {
  constructor() { this.n = new Map(none); this.s = new Map(none); this.b = new Map(none); }
  map(l) { return typeof l === 'number' ? this.n : typeof l === 'string' ? this.s : this.b; }
  get(l) { return this.map(l).get(l); }
  has(l) { return this.map(l).has(l); }
  set(l, v) { this.map(l).set(l, v); }
}

/** [i, j] of the first label j that repeats an earlier one i (1 and '1' differ; NaN repeats NaN), or null. */
export function duplicateLabel(labels) {
  const seen = new LabelMap();
  for (let j = 0; j < labels.length; j++) {
    if (seen.has(labels[j])) return [seen.get(labels[j]), j];
    seen.set(labels[j], j);
  }
  return null;
}

/** Refuse `labels` (per dim of `dims`: an array, or null) that hold a coordinate twice: INVALID_SHAPE at that dim. */
export function checkLabels(fn, which, dims, labels, shapes) {
  labels.forEach((l, a) => {
    const dup = l ? duplicateLabel(l) : null;
    if (dup !== null) {
      throw new BroadcastError(`${fn}: ${which} has the coordinate ${describe(l[dup[1]])} twice in dim "${dims[a]}" (at ${dup[0]} and ${dup[1]}): duplicate labels name no single cell`,
        { code: 'INVALID_SHAPE', shapes, axis: a });
    }
  });
}

/**
 * An object keyed by names the caller chose, every key an own data property:
 * `obj[name] = v` would set the prototype for a dim named "__proto__", and
 * Object.fromEntries defines each key instead.
 */
export function ownObject(entries) {
  return Object.fromEntries(entries);
}

/**
 * null when names (dims, per-axis labels or null) a and b are the same: the
 * same dims in the same order, and per dim the same labels or none on both;
 * else { axis, labels } of the first difference (labels: it is the coords).
 */
export function sameNames(dimsA, labelsA, dimsB, labelsB) {
  const n = Math.max(dimsA.length, dimsB.length);
  for (let i = 0; i < n; i++) {
    if (i >= dimsA.length || i >= dimsB.length || nameKey(dimsA[i]) !== nameKey(dimsB[i])) return { axis: i, labels: false };
    const la = labelsA?.[i] ?? null;
    const lb = labelsB?.[i] ?? null;
    if (la === null && lb === null) continue;
    if (la === null || lb === null || la.length !== lb.length) return { axis: i, labels: true };
    for (let j = 0; j < la.length; j++) {
      const x = la[j];
      const y = lb[j];
      if (!(x === y || (typeof x === typeof y && Object.is(x, y)) || (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y)))) return { axis: i, labels: true };
    }
  }
  return null;
}

/** Dim names as a message prints them: ["a", 0] (shapes.js safeFormat: a string quoted, a number as it is). */
export const describeDims = safeFormat;

/**
 * Refuse a resident `out` whose dims, sizes or coords are not the result's
 * `dims`, `shape` / `labels` (an out of the result's size whose dims have
 * other sizes would be read with them).
 */
export function checkOutNames(fn, dest, dims, labels, shape) {
  if (dest.dims === undefined) return; // an out without dims takes any names
  const diff = sameNames(dest.dims, dest.labels, dims, labels);
  const i = diff ? diff.axis : shape.findIndex((n, k) => n !== dest.shape[k]);
  if (i < 0) return;
  const other = diff ? diff.labels && 'coordinates' : 'sizes';
  throw new BroadcastError(`${fn}: out has dims ${describeDims(dest.dims)}${other ? ` with other ${other}` : ''} but the result has dims ${describeDims(dims)}`
    + `${other ? ` (dim "${dims[i]}" differs)` : ''}: its data would be read by the wrong names; pass an out with the result's dims and coords, or one without dims`,
  { code: 'INCOMPATIBLE_DIMS', shapes: [dest.shape], axis: i });
}

export function describeNamed(n) {
  return `(${n.dims.map((d, i) => `${d}: ${n.sizes[i]}`).join(', ')})`;
}

/** Names of the output dims: left's, then the right's new ones. */
export function namedOutNames(na, nb) {
  const out = [...na.dims];
  const have = new Set(na.dims.map(nameKey));
  for (const d of nb.dims) if (!have.has(nameKey(d))) out.push(d);
  return out;
}

// Label -> id for interning, without a Map: open addressing over one
// Int32Array of (hash, id + 1) pairs sized once for every label of the call
// (load <= 1/2, never rehashed), ids and labels as LabelIds says. A label's hash is
// computed from its type and value (strings: their UTF-16 units; numbers: the
// float64 bits, -0 as 0, every NaN one); equal labels are then compared with
// === (NaN by type). A JS Map of two million string keys spent seconds in its
// lookups and growth; this table interns them in a fraction of that.
const F64 = Float64Array.of(0); // (not `new Float64Array(1)`: see contract.js's `none`)
const U32 = new Uint32Array(F64.buffer);

function labelHash(l) {
  let h;
  if (typeof l === 'string') {
    h = 0x811c9dc5 ^ l.length;
    for (let i = 0; i < l.length; i++) h = Math.imul(h ^ l.charCodeAt(i), 0x01000193);
  } else if (typeof l === 'number') {
    F64[0] = l === 0 || l !== l ? (l === 0 ? 0 : NaN) : l; // -0 -> 0; any NaN -> the one NaN
    h = Math.imul(U32[0] ^ 0x5bd1e995, 0x01000193) ^ Math.imul(U32[1] ^ 0x27d4eb2f, 0x85ebca6b);
  } else {
    h = l ? 0x3c6ef372 : 0x1b873593;
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

const sameLabel = (x, y) => x === y || (x !== x && y !== y); // (=== holds within one type only; x !== x only for NaN)

// An id is the position of the label's first occurrence in `all`, the
// interned label lists one after the other (so no list is built label by
// label; ids of a dim stay within a compact range, which the engine indexes
// directly).
class LabelIds {
  /** Interning of the label lists `lists`, in that order. */
  constructor(lists) {
    this.all = lists.length === 1 ? lists[0] : [].concat(...lists);
    const n = this.all.length;
    let cap = 16;
    while (cap < 2 * n) cap *= 2;
    this.mask = cap - 1;
    this.slots = new Int32Array(2 * cap);
    this.next = 0;
  }

  /** Ids of the next list given to the constructor (a Float64Array: a 1M-entry new Array() would be a dictionary). */
  ids(ls) {
    const out = new Float64Array(ls.length);
    const { slots, mask, all } = this;
    for (let j = 0, k = this.next; j < ls.length; j++, k++) {
      const l = ls[j];
      const h = labelHash(l);
      for (let i = h & mask; ; i = (i + 1) & mask) {
        const s = slots[2 * i + 1];
        if (s === 0) {
          slots[2 * i] = h;
          slots[2 * i + 1] = k + 1;
          out[j] = k;
          break;
        }
        if (slots[2 * i] === h && sameLabel(all[s - 1], l)) {
          out[j] = s - 1;
          break;
        }
      }
    }
    this.next += ls.length;
    return out;
  }
}

const isRawLabel = (l) => typeof l === 'number' && Number.isSafeInteger(l) && l >= 0 && !Object.is(l, -0);
const allRaw = (ls) => {
  for (let i = 0; i < ls.length; i++) if (!isRawLabel(ls[i])) return false;
  return true;
};

/**
 * The ids a named request uses, and the request body's length. Labels of a
 * shared dim are ids the engine compares (and hashes): where both sides' labels
 * are non-negative integers (indices, timestamps) a label is its own id;
 * otherwise labels are interned, keyed by type then value (1 and '1' differ).
 * Duplicates are found by the engine in both cases.
 */
export function internNamed(...ts) {
  const names = new Map(none);
  const nameList = [];
  const rawName = new Set(none); // name ids whose labels go raw
  const nameId = (d) => {
    const k = nameKey(d);
    let id = names.get(k);
    if (id === undefined) { id = nameList.length; names.set(k, id); nameList.push(d); }
    return id;
  };
  const ids = ts.map((t) => t.dims.map(nameId));
  // A name's labels go raw only when every labeled occurrence of it is all integers.
  const notRaw = new Set(none);
  ts.forEach((t, k) => t.labels.forEach((ls, i) => { if (ls && !allRaw(ls)) notRaw.add(ids[k][i]); }));
  for (const id of ids.flat()) if (!notRaw.has(id)) rawName.add(id);
  const lists = [];
  ts.forEach((t, k) => t.labels.forEach((ls, i) => { if (ls && !rawName.has(ids[k][i])) lists.push(ls); }));
  const labelIds = new LabelIds(lists);
  let need = ts.length;
  const enc = ts.map((t, k) => {
    const lab = t.labels.map((ls, i) => (ls ? (rawName.has(ids[k][i]) ? ls : labelIds.ids(ls)) : null));
    for (let i = 0; i < t.dims.length; i++) need += 3 + (lab[i] ? lab[i].length : 0);
    return { ids: ids[k], lab, sizes: t.sizes };
  });
  return { enc, need, nameList, labelList: labelIds.all, rawName, names };
}

/** Write the interned operands at h[p]; returns the next index. */
export function writeNamed(h, p, enc) {
  for (const t of enc) {
    h[p++] = t.ids.length;
    for (let i = 0; i < t.ids.length; i++) {
      h[p++] = t.ids[i];
      h[p++] = t.sizes[i];
      const ls = t.lab[i];
      h[p++] = ls ? ls.length : -1;
      if (ls) for (let j = 0; j < ls.length; j++) h[p++] = ls[j];
    }
  }
  return p;
}

/** The { dims, shape, coords? } of a named result. */
export function namedResult(nameList, axes) {
  const out = { dims: axes.map((ax) => nameList[ax.name]), shape: axes.map((ax) => ax.size) };
  const entries = [];
  for (const ax of axes) if (ax.labeled) entries.push([nameKey(nameList[ax.name]), ax.labels]);
  if (entries.length) out.coords = ownObject(entries);
  return out;
}

export { UNKNOWN_RANK };

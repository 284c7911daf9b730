// Named operands (§6) encoded for a request: names and labels become integer
// ids (internNamed). Reading them is operands.js's (namedFrom); writing the
// encoding and reading a named result, execute.js's (writeNamed, namedResult).
import { none } from './contract.js';
import { UNKNOWN_RANK, nameKey } from './operands.js';

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

export { UNKNOWN_RANK };

// Post-link step, second part (scripts/wasm-post.mjs runs it): put the
// module's function bodies in an order gzip compresses better.
//
// wasm-ld lays functions out in link order, so the instances of one kernel
// template (the same loop for another dtype or op) lie scattered over the code
// section, often further apart than gzip's 32 KB window. Sorted by their type
// and then by their bytes (the function table's functions first: see the
// default order), those near-copies sit side by side and gzip finds the
// repeats. Nothing else changes: every call, ref.func, export, start and
// function-table entry is renumbered to the function's new index, and the
// table slots (the numbers C++ function pointers hold) keep their functions.
import { uleb, sleb32, encU, wasmSections } from './wasm-data.mjs';

export class Unsupported extends Error {}

/** The index past the signed LEB128 number at buf[i] (a block type, a constant, an offset). */
const pastSleb = (buf, i) => sleb32(buf, i)[1];

// SIMD (0xfd) sub-opcodes with a memarg, with a lane byte, with 16 bytes.
const simdMemarg = (op) => op <= 11 || op === 92 || op === 93;
const simdLane = (op) => op >= 21 && op <= 34;
const simdMemargLane = (op) => op >= 84 && op <= 91;

/** The index in a code body where its instructions start (past its locals' declarations). */
function pastLocals(body) {
  let [nLocals, p] = uleb(body, 0);
  for (let k = 0; k < nLocals; k++) p = uleb(body, p)[1] + 1;
  return p;
}

/**
 * Copy one code body, calling `fix(index)` for each function index it names
 * (call, return_call, ref.func) and writing the result in its place; with
 * `vconst`, calling vconst(bytes) for each v128.const's 16 bytes: a global's
 * index written as a global.get in its place, or null (the constant stays).
 * Returns the new body bytes (without its size prefix).
 */
export function mapBody(body, fix, vconst = null) {
  const out = [];
  let i = 0;
  const copyTo = (j) => {
    for (let k = i; k < j; k++) out.push(body[k]);
    i = j;
  };
  const skipU = () => copyTo(uleb(body, i)[1]);
  copyTo(pastLocals(body));
  let depth = 0; // open blocks; the body's own end closes depth 0
  while (i < body.length) {
    const op = body[i];
    if (depth < 0) throw new Unsupported('instructions after the body\'s end');
    if (op === 0x0b) depth--;
    if (op === 0x10 || op === 0x12 || op === 0xd2) {
      const [f, j] = uleb(body, i + 1);
      out.push(op, ...encU(fix(f)));
      i = j;
      continue;
    }
    copyTo(i + 1);
    if (op === 0x02 || op === 0x03 || op === 0x04) {
      depth++;
      const t = body[i];
      if (t === 0x40 || (t >= 0x6f && t <= 0x7f)) copyTo(i + 1);
      else copyTo(pastSleb(body, i));
    } else if (op === 0x0c || op === 0x0d || (op >= 0x20 && op <= 0x26)) {
      skipU();
    } else if (op === 0x0e) {
      const [n] = uleb(body, i);
      skipU();
      for (let k = 0; k <= n; k++) skipU();
    } else if (op === 0x11 || op === 0x13) {
      skipU();
      skipU();
    } else if (op === 0x1c) {
      const [n] = uleb(body, i);
      skipU();
      copyTo(i + n);
    } else if (op >= 0x28 && op <= 0x3e) {
      skipU();
      skipU();
    } else if (op === 0x3f || op === 0x40 || op === 0xd0) {
      copyTo(i + 1);
    } else if (op === 0x41 || op === 0x42) {
      copyTo(pastSleb(body, i));
    } else if (op === 0x43) {
      copyTo(i + 4);
    } else if (op === 0x44) {
      copyTo(i + 8);
    } else if (op === 0xfc) {
      const [sub] = uleb(body, i);
      skipU();
      if (sub === 8) { skipU(); copyTo(i + 1); }
      else if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) skipU();
      else if (sub === 10) copyTo(i + 2);
      else if (sub === 11) copyTo(i + 1);
      else if (sub === 12 || sub === 14) { skipU(); skipU(); }
      else if (sub > 17) throw new Unsupported(`0xfc ${sub}`);
    } else if (op === 0xfd) {
      const [sub, at] = uleb(body, i);
      const g = sub === 12 && vconst !== null ? vconst(body.subarray(at, at + 16)) : null;
      if (g !== null) {
        out.pop(); // the 0xfd: a global.get instead
        out.push(0x23, ...encU(g));
        i = at + 16;
        continue;
      }
      skipU();
      if (simdMemarg(sub)) { skipU(); skipU(); }
      else if (sub === 12 || sub === 13) copyTo(i + 16);
      else if (simdLane(sub)) copyTo(i + 1);
      else if (simdMemargLane(sub)) { skipU(); skipU(); copyTo(i + 1); }
    } else if (!(op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b ||
      (op >= 0x45 && op <= 0xc4) || op === 0xd1)) {
      throw new Unsupported(`opcode 0x${op.toString(16)}`);
    }
  }
  if (depth !== -1) throw new Unsupported('a body whose blocks do not close at its end');
  return Uint8Array.from(out);
}

function vec(bytes, p, read) {
  let n;
  [n, p] = uleb(bytes, p);
  const items = [];
  for (let k = 0; k < n; k++) {
    let it;
    [it, p] = read(bytes, p);
    items.push(it);
  }
  return [items, p];
}

/** How many functions and globals the import section `imp` (or none) brings: they come first in their index spaces. */
export function imports(bytes, imp) {
  const n = { functions: 0, globals: 0 };
  if (!imp) return n;
  let [count, p] = uleb(bytes, imp.start);
  for (let k = 0; k < count; k++) {
    for (let s = 0; s < 2; s++) { const [l, q] = uleb(bytes, p); p = q + l; }
    const kind = bytes[p++];
    if (kind === 0) { n.functions++; p = uleb(bytes, p)[1]; }
    else if (kind === 1) { p++; const fl = bytes[p++]; p = uleb(bytes, p)[1]; if (fl & 1) p = uleb(bytes, p)[1]; }
    else if (kind === 2) { const fl = bytes[p++]; p = uleb(bytes, p)[1]; if (fl & 1) p = uleb(bytes, p)[1]; }
    else if (kind === 3) { n.globals++; p += 2; }
    else throw new Unsupported(`import kind ${kind}`);
  }
  return n;
}

/** The code section's function bodies (each without its size prefix). */
export const codeBodies = (bytes, code) => vec(bytes, code.start, (b, p) => { const [l, q] = uleb(b, p); return [b.subarray(q, q + l), q + l]; })[0];

export const section = (id, payload) => Buffer.concat([Buffer.from([id, ...encU(payload.length)]), payload]);

/**
 * The module with its defined functions laid out as `order` says (a
 * permutation of 0 … count-1 over the defined functions, imports excluded;
 * by default: the function table's first, each part by type, then by body
 * bytes). Returns null for a module the step does not read (a section or
 * instruction it has no rule for), so that the build keeps the module as
 * linked.
 */
export function reorderFunctions(bytes, order) {
  try {
    return reorder(bytes, order);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

function reorder(bytes, order) {
  const sections = wasmSections(bytes);
  const find = (id) => sections.find((s) => s.id === id);
  const imp = find(2), fn = find(3), code = find(10);
  if (!fn || !code) return null;
  const nImports = imports(bytes, imp).functions;
  const [types] = vec(bytes, fn.start, uleb);
  const bodies = codeBodies(bytes, code);
  const n = bodies.length;
  if (types.length !== n) throw new Unsupported('function and code sections disagree');
  if (!order) {
    // The function table's functions (the kernels) first, then the rest; each
    // part by type, then by its first instructions, then by bytes. Table first
    // measured 0.8 KB smaller gzipped on the engine than one sort over all.
    // The first instructions (8 bytes past the locals) open the code of a
    // template's instances alike where their locals differ (another dtype
    // declares other locals): grouped by them, the engine is 0.2 KB smaller
    // gzipped than sorted by bytes alone.
    const inTable = new Set();
    const el = find(9);
    if (el) elements(bytes, el, (f) => { if (f >= nImports) inTable.add(f - nImports); return f; });
    const part = (k) => (inTable.has(k) ? 0 : 1);
    const head = bodies.map((b) => { const at = pastLocals(b); return b.subarray(at, at + 8); });
    order = [...Array(n).keys()];
    order.sort((x, y) => part(x) - part(y) || types[x] - types[y] || Buffer.compare(head[x], head[y]) ||
      Buffer.compare(bodies[x], bodies[y]) || x - y);
  }
  if (order.length !== n || new Set(order).size !== n || order.some((k) => !(k >= 0 && k < n))) {
    throw new RangeError('order is not a permutation of the defined functions');
  }
  const newIndex = new Array(n);
  order.forEach((k, pos) => { newIndex[k] = nImports + pos; });
  const fix = (f) => (f < nImports ? f : newIndex[f - nImports]);

  const out = [Buffer.from(bytes.subarray(0, 8))];
  for (const s of sections) {
    if (s.id === 3) {
      out.push(section(3, Buffer.from([...encU(n), ...order.flatMap((k) => encU(types[k]))])));
    } else if (s.id === 10) {
      const parts = [Buffer.from(encU(n))];
      for (const k of order) {
        const b = mapBody(bodies[k], fix);
        parts.push(Buffer.from(encU(b.length)), Buffer.from(b));
      }
      out.push(section(10, Buffer.concat(parts)));
    } else if (s.id === 7) {
      const parts = [];
      const [items, end] = vec(bytes, s.start, (b, p) => {
        const [l, q] = uleb(b, p);
        const name = b.subarray(p, q + l);
        const kind = b[q + l];
        const [idx, r] = uleb(b, q + l + 1);
        parts.push(Buffer.from(name), Buffer.from([kind, ...encU(kind === 0 ? fix(idx) : idx)]));
        return [null, r];
      });
      if (end !== s.end) throw new Unsupported('export section');
      out.push(section(7, Buffer.concat([Buffer.from(encU(items.length)), ...parts])));
    } else if (s.id === 8) {
      out.push(section(8, Buffer.from(encU(fix(uleb(bytes, s.start)[0])))));
    } else if (s.id === 9) {
      out.push(section(9, elements(bytes, s, fix)));
    } else if (s.id === 0) {
      const [l, q] = uleb(bytes, s.start);
      const name = Buffer.from(bytes.subarray(q, q + l)).toString();
      if (name === 'name') out.push(section(0, names(bytes, q + l, s.end, fix)));
      else out.push(Buffer.from(bytes.subarray(s.from, s.end)));
    } else {
      out.push(Buffer.from(bytes.subarray(s.from, s.end)));
    }
  }
  return Buffer.concat(out);
}

// Element segments of the forms wasm-ld writes: flags 0 (active, table 0,
// i32.const offset, function indices) and 1 (passive, elemkind, indices).
function elements(bytes, s, fix) {
  let [count, p] = uleb(bytes, s.start);
  const parts = [Buffer.from(encU(count))];
  for (let k = 0; k < count; k++) {
    const flags = bytes[p];
    const from = p;
    p++;
    if (flags === 0) {
      if (bytes[p] !== 0x41) throw new Unsupported('element offset');
      p = pastSleb(bytes, p + 1);
      if (bytes[p++] !== 0x0b) throw new Unsupported('element offset');
    } else if (flags === 1) {
      if (bytes[p++] !== 0x00) throw new Unsupported('element kind');
    } else {
      throw new Unsupported(`element segment flags ${flags}`);
    }
    parts.push(Buffer.from(bytes.subarray(from, p)));
    const [idx, q] = vec(bytes, p, uleb);
    p = q;
    parts.push(Buffer.from([...encU(idx.length), ...idx.flatMap((f) => encU(fix(f)))]));
  }
  if (p !== s.end) throw new Unsupported('element section');
  return Buffer.concat(parts);
}

// The name section (a profiling link's; the shipped module has none): the
// module name kept, function and local names renumbered (both are indexed by
// function), the other subsections dropped.
function names(bytes, p, end, fix) {
  const parts = [Buffer.from([4, ...Buffer.from('name')])];
  while (p < end) {
    const from = p;
    const id = bytes[p];
    const [size, start] = uleb(bytes, p + 1);
    p = start + size;
    if (id === 0) parts.push(Buffer.from(bytes.subarray(from, p)));
    if (id !== 1 && id !== 2) continue;
    let [n, i] = uleb(bytes, start);
    const entries = [];
    for (let k = 0; k < n; k++) {
      const [f, j] = uleb(bytes, i);
      // function names: a name; local names: a vector of (index, name)
      let e = j;
      if (id === 1) { const [l, m] = uleb(bytes, e); e = m + l; }
      else {
        let c;
        [c, e] = uleb(bytes, e);
        for (let t = 0; t < c; t++) { e = uleb(bytes, e)[1]; const [l, m] = uleb(bytes, e); e = m + l; }
      }
      entries.push([fix(f), bytes.subarray(j, e)]);
      i = e;
    }
    entries.sort((x, y) => x[0] - y[0]);
    const body = Buffer.concat([Buffer.from(encU(n)), ...entries.flatMap(([f, rest]) => [Buffer.from(encU(f)), Buffer.from(rest)])]);
    parts.push(Buffer.from([id, ...encU(body.length)]), body);
  }
  return Buffer.concat(parts);
}

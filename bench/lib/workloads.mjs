// The workload sets. Each runs in its own Node process (bench/lib/set.mjs).
//
// kind 'binary':      out = a <op> b (or a <op> scalar); `tc` holds tensorcast's
//                     broadcast options, peerA/peerB the equivalent NumPy-rule
//                     shapes for peers that lack the mode.
// kind 'broadcastTo': out = x materialised to `target` (tensorcast options in
//                     `tc`); peers materialise peerX to `out` with the NumPy rule.
// kind 'shapes':      broadcastShapes of two shapes, per call.
// kind 'reduce':      issue 13. op 'sum': sum of x over `axes` (null: all),
//                     keepdims off; op 'unbroadcast': x (a gradient) summed back
//                     to `inShape` (peers: ReduceSum over `axes` with keepdims,
//                     reshaped to inShape). `primary` is the mode the targets
//                     are on: 'kernel' (x resident) or 'e2e' (typed arrays).
//                     group 'reduce' (`--only=reduce` selects them all).
// unit 'elem': ns per output element; 'call': ns per call; 'us': µs per call.
import { checkReduce } from './reduce.mjs';

export const WORKLOADS = [
  {
    id: 'same', title: 'same shape', kind: 'binary', op: 'add', dtype: 'float32',
    a: [1048576], b: [1048576], out: [1048576], unit: 'elem',
  },
  {
    id: 'row', title: 'row', kind: 'binary', op: 'add', dtype: 'float32',
    a: [1024, 1024], b: [1024], out: [1024, 1024], unit: 'elem',
  },
  {
    id: 'column', title: 'column', kind: 'binary', op: 'add', dtype: 'float32',
    a: [1024, 1024], b: [1024, 1], out: [1024, 1024], unit: 'elem',
  },
  {
    id: 'outer', title: 'outer', kind: 'binary', op: 'add', dtype: 'float32',
    a: [1024, 1], b: [1, 1024], out: [1024, 1024], unit: 'elem',
  },
  {
    id: 'nchw', title: 'NCHW bias', kind: 'binary', op: 'add', dtype: 'float32',
    a: [8, 64, 56, 56], b: [1, 64, 1, 1], out: [8, 64, 56, 56], unit: 'elem',
  },
  {
    id: 'scalar', title: 'scalar', kind: 'binary', op: 'mul', dtype: 'float32',
    a: [1048576], scalar: 2.5, out: [1048576], unit: 'elem',
  },
  {
    id: 'materialise', title: 'materialise', kind: 'broadcastTo', dtype: 'float32',
    x: [1024], target: [1024, 1024], out: [1024, 1024], unit: 'elem',
  },
  {
    id: 'pdpd', title: 'PDPD axis 1', kind: 'binary', op: 'add', dtype: 'float32',
    a: [64, 128, 128], b: [128], out: [64, 128, 128], unit: 'elem',
    tc: { broadcast: { type: 'pdpd', axis: 1 } }, peerB: [1, 128, 1],
    note: 'peers: b reshaped to [1,128,1]',
  },
  {
    id: 'explicit', title: 'explicit broadcastTo', kind: 'broadcastTo', dtype: 'float32',
    x: [64], target: [16, 64, 32, 32], out: [16, 64, 32, 32], unit: 'elem',
    tc: { mode: 'explicit', axesMapping: [1] }, peerX: [1, 64, 1, 1],
    note: 'axesMapping [1]; peers: x reshaped to [1,64,1,1]',
  },
  {
    id: 'int32', title: 'int32 row', kind: 'binary', op: 'add', dtype: 'int32',
    a: [1024, 1024], b: [1024], out: [1024, 1024], unit: 'elem',
  },
  {
    id: 'uint8', title: 'uint8 row', kind: 'binary', op: 'add', dtype: 'uint8',
    a: [1024, 1024], b: [1024], out: [1024, 1024], unit: 'elem',
  },
  {
    id: 'sum-all', title: 'sum over all', kind: 'reduce', op: 'sum', dtype: 'float32', group: 'reduce',
    x: [1024, 1024], axes: null, out: [], unit: 'us', primary: 'kernel',
  },
  {
    id: 'sum-axis0', title: 'sum over axis 0', kind: 'reduce', op: 'sum', dtype: 'float32', group: 'reduce',
    x: [1024, 1024], axes: [0], out: [1024], unit: 'us', primary: 'kernel',
  },
  {
    id: 'sum-axis1', title: 'sum over axis 1', kind: 'reduce', op: 'sum', dtype: 'float32', group: 'reduce',
    x: [1024, 1024], axes: [1], out: [1024], unit: 'us', primary: 'kernel',
  },
  {
    id: 'unb-row', title: 'unbroadcast to a row', kind: 'reduce', op: 'unbroadcast', dtype: 'float32', group: 'reduce',
    x: [1024, 1024], inShape: [1024], axes: [0], out: [1024], unit: 'us', primary: 'e2e',
  },
  {
    id: 'unb-col', title: 'unbroadcast to a column', kind: 'reduce', op: 'unbroadcast', dtype: 'float32', group: 'reduce',
    x: [1024, 1024], inShape: [1024, 1], axes: [1], out: [1024, 1], unit: 'us', primary: 'e2e',
  },
  {
    id: 'unb-nchw', title: 'unbroadcast NCHW to a bias', kind: 'reduce', op: 'unbroadcast', dtype: 'float32', group: 'reduce',
    x: [8, 64, 56, 56], inShape: [1, 64, 1, 1], axes: [0, 2, 3], out: [1, 64, 1, 1], unit: 'us', primary: 'e2e',
  },
  {
    id: 'small', title: 'small', kind: 'binary', op: 'add', dtype: 'float32',
    a: [3, 1], b: [1, 4], out: [3, 4], unit: 'call',
  },
  {
    id: 'shapes', title: 'broadcastShapes', kind: 'shapes',
    shapes: [[8, 1, 6, 1], [1, 7, 1, 5]], out: [8, 7, 6, 5], unit: 'call',
  },
  {
    // Eight different pairs of the same ranks in turn: the engine keeps the
    // plan of the last shape call only, so every tensorcast call plans afresh.
    id: 'shapes-varied', title: 'broadcastShapes, 8 pairs in turn (no cache hit)', kind: 'shapes',
    shapes: [[8, 1, 6, 1], [1, 7, 1, 5]], out: [8, 7, 6, 5], unit: 'call',
    pairs: Array.from({ length: 8 }, (_, k) => [[8, 1, 6 + k, 1], [1, 7, 1, 5 + k]]),
  },
];

export const numel = (s) => s.reduce((p, d) => p * d, 1);
export const BYTES = { float32: 4, int32: 4, uint8: 1 };

export function describe(w) {
  const sh = (s) => `[${s.join(',')}]`;
  if (w.kind === 'binary') {
    const sym = { add: '+', mul: '·', sub: '-', div: '/' }[w.op];
    const rhs = w.scalar !== undefined ? `s` : sh(w.b);
    const mode = w.tc && w.tc.broadcast ? ` (${w.tc.broadcast.type}, axis ${w.tc.broadcast.axis})` : '';
    return `${sh(w.a)} ${sym} ${rhs}${mode}, ${w.dtype}`;
  }
  if (w.kind === 'broadcastTo') {
    const mode = w.tc && w.tc.mode ? ` (${w.tc.mode}${w.tc.axesMapping ? `, axesMapping [${w.tc.axesMapping}]` : ''})` : '';
    return `broadcastTo ${sh(w.x)} → ${sh(w.target)}${mode}, ${w.dtype}`;
  }
  if (w.kind === 'reduce') {
    if (w.op === 'unbroadcast') return `unbroadcast ${sh(w.x)} → ${sh(w.inShape)} (sum over axes [${w.axes}]), ${w.dtype}`;
    return `sum ${sh(w.x)} over ${w.axes === null ? 'all axes' : `axis ${w.axes.join(', ')}`} → ${sh(w.out)}, ${w.dtype}`;
  }
  return `broadcastShapes(${w.shapes.map(sh).join(', ')})`;
}

/** Bytes read (each operand once) and written by the op. */
export function traffic(w) {
  if (w.kind === 'shapes') return { read: 0, write: 0 };
  const e = BYTES[w.dtype];
  const write = numel(w.out) * e;
  if (w.kind === 'broadcastTo' || w.kind === 'reduce') return { read: numel(w.x) * e, write };
  const read = (numel(w.a) + (w.scalar !== undefined ? 0 : numel(w.b))) * e;
  return { read, write };
}

// ---- deterministic inputs -------------------------------------------------
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export function makeData(dtype, n, seed) {
  const r = lcg(seed);
  if (dtype === 'float32') return Float32Array.from({ length: n }, () => Math.round((r() * 16 - 8) * 1024) / 1024 + 1e-3 * r());
  if (dtype === 'int32') return Int32Array.from({ length: n }, () => Math.floor(r() * 2000000) - 1000000);
  if (dtype === 'uint8') return Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
  throw new Error(dtype);
}

export function inputs(w) {
  if (w.kind === 'binary') {
    return { a: makeData(w.dtype, numel(w.a), 1), b: w.scalar !== undefined ? null : makeData(w.dtype, numel(w.b), 2) };
  }
  if (w.kind === 'broadcastTo') return { x: makeData(w.dtype, numel(w.x), 3) };
  if (w.kind === 'reduce') return { x: makeData(w.dtype, numel(w.x), 5) };
  return {};
}

// ---- reference: one output element at a time, by index arithmetic ----------
function srcIndex(i, outShape, shape) {
  // flat index into an operand of `shape` (NumPy-aligned to outShape)
  let rem = i;
  let idx = 0;
  let mul = 1;
  for (let k = outShape.length - 1; k >= 0; k--) {
    const c = rem % outShape[k];
    rem = Math.floor(rem / outShape[k]);
    const j = k - (outShape.length - shape.length);
    if (j >= 0) {
      idx += (shape[j] === 1 ? 0 : c) * mul;
      mul *= shape[j];
    }
  }
  return idx;
}

const FIX = {
  float32: Math.fround,
  int32: (v) => v | 0,
  uint8: (v) => v & 255,
};
const APPLY = { add: (x, y) => x + y, sub: (x, y) => x - y, mul: (x, y) => x * y, div: (x, y) => x / y };

export function reference(w, data) {
  if (w.kind === 'broadcastTo') {
    const sx = w.peerX || w.x;
    return (i) => data.x[srcIndex(i, w.out, sx)];
  }
  const f = APPLY[w.op];
  const fix = FIX[w.dtype];
  const sa = w.peerA || w.a;
  if (w.scalar !== undefined) return (i) => fix(f(data.a[srcIndex(i, w.out, sa)], w.scalar));
  const sb = w.peerB || w.b;
  return (i) => fix(f(data.a[srcIndex(i, w.out, sa)], data.b[srcIndex(i, w.out, sb)]));
}

/** Spot-check `got` against the reference: returns null or a description of the first mismatch. */
export function check(w, data, got) {
  if (w.kind === 'reduce') return checkReduce(w, data.x, got);
  const n = numel(w.out);
  if (!got || typeof got.length !== 'number') return `no output (${Object.prototype.toString.call(got)})`;
  if (got.length !== n) return `output has ${got.length} elements, expected ${n}`;
  const ref = reference(w, data);
  const r = lcg(99);
  const idx = [0, 1, n - 1, n >> 1];
  for (let k = 0; k < Math.min(n, 2000); k++) idx.push(Math.floor(r() * n));
  if (n <= 4096) for (let i = 0; i < n; i++) idx.push(i);
  for (const i of idx) {
    const want = ref(i);
    const have = got[i];
    const ok = w.dtype === 'float32' ? Math.abs(have - want) <= 1e-6 * Math.max(1, Math.abs(want)) : have === want;
    if (!ok) return `element ${i}: got ${have}, expected ${want}`;
  }
  return null;
}

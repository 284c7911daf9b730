// A repeated expression run over large plain operands, a chunk at a time.
//
// A run JS makes again itself (execute.js runExpr: one generated module and
// its descriptor, src/expr/wasmgen.hpp) would copy every plain operand into
// scratch, run the loop over all of it, then copy the result out: three
// passes over memory larger than the caches. Here the output is cut into
// chunks of a few hundred KiB along one axis of the descriptor's walk; per
// chunk, the operands' rows it reads are copied into the start of their
// scratch, the module runs on the chunk (its descriptor's counts and pointers
// patched) and the chunk is copied out, each while the previous step's bytes
// are still in the core's cache. Each element is computed by the same operations
// on the same values, so the result is bit for bit the whole run's (but for a
// NaN's sign from float min/max: a chunk's tail runs scalar, docs/expressions.md).
//
// Descriptor words (wasmgen.hpp): [0] R, [1] n (the row), [2] rows,
// [3, 3+R) the outer counts (j = 0 next to the row), then per slot s (0 the
// output, 1 + k input k) ptr, the row's stride and the R outer strides (bytes),
// then R odometer counters. Here axis t = 0 is the row and t = 1..R outer axis
// j = t - 1. The words are i32s (an Int32Array here): a slot's pointer is read
// back `>>> 0`, an unsigned address (memory grows past 2 GiB), and written as
// it is (an Int32Array store keeps the low 32 bits, which the module reads as
// an unsigned address).
import { view, viewFor, copyIn, fresh, slot, DESC_SLOT, OUT_SLOT } from './heap.js';
import { mod } from './loader.js';
import { part, taSet, mayShare } from './shapes.js';

/** Bytes copied in and out by a run below which it runs whole. */
export const STREAM_MIN = 1 << 20;
/** Bytes of every copied slot together per chunk: half a core's L2 cache here (512 KiB). */
export const CHUNK = 256 << 10;

const count = (desc, t) => (t === 0 ? desc[1] : desc[2 + t]);
const slotAt = (R, s) => 3 + R + s * (2 + R);
const stride = (desc, R, s, t) => desc[slotAt(R, s) + 1 + t];

/**
 * How to cut the run of descriptor `desc` into chunks, or null to run it
 * whole. `es[s]` is slot s's element size when its data is copied per chunk
 * (0: it stays where it is, in full). A slot whose elements a chunk reads are
 * not one run of its data (stride on the chunk axis ≠ the span below it) is
 * dropped from `es` (set to 0): its data is then copied whole; a copied
 * output (slot 0) must be such a run, or there is no plan.
 *
 * The chunk is `k` steps of axis `t`, every axis below it whole: the largest
 * block that keeps every copied slot's bytes within `budget`.
 */
export function streamPlan(desc, es, budget) {
  const R = desc[0];
  let bpe = 0;
  for (let s = 0; s < es.length; s++) bpe += es[s];
  if (bpe === 0) return null;
  let t = 0;
  let below = 1; // output elements in one step of axis t
  while (t < R && below * count(desc, t) * bpe <= budget) below *= count(desc, t++);
  const k = Math.max(1, Math.min(count(desc, t), Math.floor(budget / (below * bpe))));
  if (t === R && k === count(desc, R)) return null; // the whole run is one chunk
  for (let s = 0; s < es.length; s++) {
    if (es[s] === 0) continue;
    let span = es[s];
    for (let i = 0; i < t; i++) span += (count(desc, i) - 1) * stride(desc, R, s, i);
    if (stride(desc, R, s, t) !== span) {
      if (s === 0) return null;
      es[s] = 0;
    }
  }
  return { t, k };
}

/**
 * Run module `run` with descriptor `desc` (written at heap byte `d`) a chunk
 * at a time, per `plan` (streamPlan). `at[s]` is where slot s's data is (its
 * descriptor pointer is replaced): where its chunk goes when it is copied per
 * chunk (es[s] > 0; `src[s]` its typed array, `dtypes[s]` its dtype), else
 * its whole data (resident, or copied before). `target` receives the output
 * (slot 0, dtype `dtypes[0]`) when es[0] > 0. Returns the number of chunks.
 */
export function runChunks(run, desc, d, plan, es, src, dtypes, at, target) {
  const R = desc[0];
  const S = es.length;
  const { t, k } = plan;
  const w = d >>> 2;
  const i32 = new Int32Array(view(dtypes[0]).buffer); // no allocation in wasm from here on: the buffer stays
  i32.set(desc, w);
  // The chunk's walk: axes below t whole, k steps of t, one step of each axis above.
  if (t === 0) for (let j = 0; j < R; j++) i32[w + 3 + j] = 1;
  else for (let j = t; j < R; j++) i32[w + 3 + j] = 1;
  const outer = [];
  let steps = 1;
  for (let a = t + 1; a <= R; a++) {
    outer.push(a);
    steps *= count(desc, a);
  }
  const idx = new Array(outer.length).fill(0);
  const base = new Array(S).fill(0); // per slot: the byte offset of the outer step
  const n = count(desc, t);
  let chunks = 0;
  let rowsBelow = 1; // outer rows of one step of axis t (t >= 1)
  for (let a = 1; a < t; a++) rowsBelow *= count(desc, a);
  const counters = w + desc.length - R;
  for (let step = 0; step < steps; step++) {
    for (let r0 = 0; r0 < n; r0 += k) {
      const kk = Math.min(k, n - r0);
      if (t === 0) {
        i32[w + 1] = kk;
        i32[w + 2] = 1;
      } else {
        i32[w + 3 + t - 1] = kk;
        i32[w + 2] = rowsBelow * kk;
      }
      for (let s = 0; s < S; s++) {
        const off = base[s] + r0 * stride(desc, R, s, t);
        if (es[s] === 0) {
          i32[w + slotAt(R, s)] = at[s] + off;
        } else {
          i32[w + slotAt(R, s)] = at[s];
          if (s === 0) continue;
          const e = es[s];
          const lo = off / e;
          const len = (kk * stride(desc, R, s, t)) / e;
          const from = src[s];
          (dtypes[s].half ? viewFor(dtypes[s], from) : view(dtypes[s])).set(part(from, lo, len), at[s] / e);
        }
      }
      for (let j = 0; j < R; j++) i32[counters + j] = 0;
      run(d);
      chunks++;
      if (es[0] !== 0) {
        const e = es[0];
        const lo = (base[0] + r0 * stride(desc, R, 0, t)) / e;
        const len = (kk * stride(desc, R, 0, t)) / e;
        const from = at[0] / e;
        taSet.call(target, (dtypes[0].half ? viewFor(dtypes[0], target) : view(dtypes[0])).subarray(from, from + len), lo);
      }
    }
    // The next outer step (an odometer over the axes above t).
    for (let i = 0; i < outer.length; i++) {
      const a = outer[i];
      for (let s = 0; s < S; s++) base[s] += stride(desc, R, s, a);
      if (++idx[i] < count(desc, a)) break;
      for (let s = 0; s < S; s++) base[s] -= stride(desc, R, s, a) * count(desc, a);
      idx[i] = 0;
    }
  }
  return chunks;
}

/**
 * Memo `m`'s run (execute.js repeatable()) again a chunk at a time, when it
 * copies at least STREAM_MIN bytes in and out: the result, or null to run it
 * as before (nothing done yet). An operand of at least CHUNK bytes that one slot reads
 * is copied per chunk, the others whole first.
 *
 * The plain operands and the result may be elsewhere in scratch than when the
 * engine answered (a slot over KEEP bytes is given back after each call): a
 * memo's descriptor is of a run in one piece, whose slot pointers are the
 * request's buffers as given (slot 1 + k's is its input's buffer; slot 0's is
 * `out`), so each is set here to where that buffer is now. Resident operands
 * and a resident `out` must be the ones the engine checked. The descriptor
 * slot holds the last chunk's words afterwards.
 */
export function streamed(m, ops, dest, out, cap) {
  if (out === 0) return null; // a new resident result: the engine makes it
  const plainOut = dest === null || !dest.resident;
  if (!plainOut && (m.out !== out || m.cap !== cap)) return null;
  if (dest !== null && !dest.resident && m.cap !== cap) return null;
  let bytes = plainOut ? m.size * m.outDtype.size : 0;
  for (let k = 0; k < ops.length; k++) {
    if (!ops[k].resident) bytes += ops[k].size * ops[k].dtype.size;
    else if (ops[k].ptr !== m.ptrs[k]) return null;
  }
  if (bytes < STREAM_MIN) return null;
  // An `out` sharing memory with an operand is written only after every operand is read.
  if (dest !== null && !dest.resident) {
    for (let k = 0; k < ops.length; k++) if (!ops[k].resident && mayShare(ops[k].data, dest.data)) return null;
  }
  const desc = m.desc;
  const R = desc[0];
  const S = (desc.length - 3 - 2 * R) / (2 + R);
  const es = new Array(S).fill(0);
  const src = new Array(S).fill(null);
  const dtypes = new Array(S).fill(null);
  const at = new Array(S).fill(0); // per slot: where its data (or chunk) is now
  const of = new Array(S).fill(-1); // per slot: the plain operand it reads, -1: none
  dtypes[0] = m.outDtype;
  if (plainOut) es[0] = m.outDtype.size;
  for (let s = 1; s < S; s++) {
    at[s] = desc[3 + R + s * (2 + R)] >>> 0; // an address, unsigned (an Int32Array holds it signed)
    const k = m.ptrs.indexOf(at[s]); // the operand the slot read in the memo's run
    // Two of its operands at one address (one tensor twice): which slot reads which is not known.
    if (k !== m.ptrs.lastIndexOf(at[s])) return null;
    if (k >= 0 && !ops[k].resident) {
      of[s] = k;
      at[s] = ops[k].ptr;
    }
  }
  for (let s = 1; s < S; s++) {
    const k = of[s];
    if (k < 0 || of.indexOf(k) !== s || of.lastIndexOf(k) !== s) continue;
    const o = ops[k];
    if (o.size * o.dtype.size < CHUNK) continue;
    es[s] = o.dtype.size;
    src[s] = o.data;
    dtypes[s] = o.dtype;
  }
  const plan = streamPlan(desc, es, CHUNK);
  if (plan === null) return null;
  // Scratch first (memory may grow), then the copies.
  at[0] = plainOut ? slot(OUT_SLOT, CHUNK) : desc[3 + R] >>> 0;
  const d = slot(DESC_SLOT, desc.length * 4);
  for (let k = 0; k < ops.length; k++) {
    // Not copied per chunk (an operand is, by the one slot that reads it): copied whole, here.
    if (!es[of.indexOf(k)] && !ops[k].resident) copyIn(ops[k].dtype, ops[k].data, ops[k].ptr / ops[k].dtype.size, ops[k].size);
  }
  const target = !plainOut ? null : dest !== null ? dest.data : fresh(m.outDtype, m.size); // every element is written below
  const stats = mod().tcGen.stats;
  stats.streamed++;
  stats.chunks += runChunks(m.run, desc, d, plan, es, src, dtypes, at, target);
  if (!plainOut) return dest.tensor;
  return { data: target, shape: m.shape.slice(), dtype: m.outDtype.name };
}

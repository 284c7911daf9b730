// Running a data request, for every call family (element-wise, broadcastTo,
// where, reduce, unbroadcast), once its caller has taken the snapshot:
//
//   1. snapshot (the caller, ops.js / reduce.js): every argument and option
//      read once into records (user code runs only there);
//   2. commit check (here, first): every record is a snapshot the library
//      made, every resident one still alive, every plain one still the length
//      it was read with (operands.js committable). From here no user code runs;
//   3. place: scratch and request space allocated (memory may grow), data copied in;
//   4. one wasm call plans (cached by shape) and runs the kernel;
//   5. the result is copied out, or handed over as a Tensor.
import { C } from './contract.js';
import { BroadcastError, makeError, formatShape, outLengthError, numpyCtx, cannotHold } from './errors.js';
import { view, viewFor, copyIn, copyOut, slot, slotBytes, slotMade, trimScratch, malloc, free, DESC_SLOT, OUT_SLOT } from './heap.js';
import { mod } from './loader.js';
import { makeTensor } from './tensor.js';
import { taLength, committable, commitError, outHolds, handleOf, withNames, arrayLike } from './operands.js';
import { product, part, taSet } from './shapes.js';
import { begin, dataHeader, binaryRequest, setOut, writeShape, shapeCost, call, recall, requestBuffer, requestLength, rerunBinary, stridesCost, writeStrides } from './wire.js';
import { gather, scatter, copyView, rowMajor, reach } from './strided.js';
import { writeNamed, namedResult, checkOutNames, nameKey } from './named.js';
import { streamed, STREAM_MIN } from './stream.js';


// ---- the one call ---------------------------------------------------------------------
/**
 * One request, as every caller builds it: one factory and one object literal,
 * so the hot path sees a single object shape, allocated inline (fields a call
 * family does not use keep their defaults; callers set the ones they use).
 */
export function request(action, fn, rule, axis, ops, shapes, outDtype, dest, ctx) {
  return {
    action, fn, rule, axis, ops,
    shapes, // snapshot shapes written to the body, in order
    outDtype,
    dest, // null, or the operand of options.out
    ctx, // what an error message needs (errors.js makeError); null: element-wise numpy
    shaping: 0, op: 0, dtype: 0, elem: 0, acc: -1, keepdims: false,
    mapping: null, // explicit axes mapping, after the shapes
    tail: null, // further body values (reduce: its axes)
    named: null, // internNamed() of two named operands: replaces shapes
    refuse: null, // (res) => Error, instead of makeError(ctx, ...)
    body: null, // (h, p, c) => end: a body of the caller's own (evaluate), `need` doubles
    need: 0,
    after: null, // (res, result) => result: the caller's last step (evaluate's named results)
    engineDtype: false, // the result's dtype comes with the answer (evaluate); outDtype is out's until then
    strided: false, // operands with strides: the body ends with the strides section
  };
}

export function execute(c) {
  const dest = c.dest;
  // Into a view, or an out with names (checked against the result's, known once planned, before it is written).
  if (dest !== null && (dest.strides !== null || dest.dims !== undefined)) {
    return intoOut(dest, c.fn, c.ops, () => {
      c.dest = null; // made apart, then written into out (through its strides)
      if (c.engineDtype) c.dtype = -1;
      return execute(c);
    });
  }
  if (dest !== null && dest.shared) checkOverlap(dest, c.ops, c.fn); // only memory shared with another tensor can overlap
  const temps = hasViews(c.ops) ? views(c) : null;
  // try/catch, not finally: with finally the resident small call measured ~10 ns slower.
  let r;
  try {
    r = executeInner(c);
  } catch (e) {
    trimScratch();
    if (temps !== null) freeAll(temps);
    throw e;
  }
  trimScratch();
  if (temps !== null) freeAll(temps);
  return r;
}

// ---- views ------------------------------------------------------------------------------

function hasViews(ops) {
  for (let k = 0; k < ops.length; k++) if (ops[k].strides !== null) return true;
  return false;
}

/**
 * A request with views among its operands. Every kernel reads a view's
 * strides as given: the strides section of the request (calls.cpp
 * apply_strides, backward.cpp section_strides), an expression's key
 * (expr-codec.js). Named alignment (its label gather) and a float16
 * reduction are given a row-major copy of each view instead: returned, the
 * blocks to free after the call.
 */
function views(c) {
  // A float16 reduction sums a contiguous float16 copy of its input (reduce_driver.cpp): given one here.
  const half = (c.action === C.A.reduce || c.action === C.A.unbroadcast) && (c.outDtype.half || c.ops[0].dtype.half);
  if (c.named === null && !half) {
    c.strided = c.action !== C.A.evaluate;
    return null;
  }
  const temps = [];
  const ops = c.ops.slice();
  try {
    for (let k = 0; k < ops.length; k++) {
      if (ops[k].strides === null) continue;
      if (!committable(ops[k])) throw commitError(ops[k], operandWhat(c, k));
      ops[k] = rowMajorCopy(ops[k], temps);
    }
  } catch (e) {
    freeAll(temps);
    throw e;
  }
  c.ops = ops;
  return temps;
}

function freeAll(ptrs) {
  for (let i = 0; i < ptrs.length; i++) free(ptrs[i]);
}

/**
 * A view's elements in row-major order, as an operand record of the call: a
 * plain one gathered into a new array; a resident one copied by the engine
 * into a block of its own (its address pushed on `temps`, freed after the call).
 */
export function rowMajorCopy(o, temps) {
  if (!o.resident) {
    const c = withNames(o, o.dims, o.labels);
    c.data = gather(o.data, o.offset, o.shape, o.strides, arrayLike(o.data, o.dtype, o.size));
    c.strides = null;
    c.offset = 0;
    c.lo = 0;
    c.span = c.len = o.size;
    return c;
  }
  const es = o.dtype.size;
  const ptr = malloc(o.size * es);
  temps.push(ptr);
  const heap = view(o.dtype); // after the allocation (memory may have grown)
  copyView(heap, o.ptr / es, o.shape, o.strides, heap, ptr / es, rowMajor(o.shape));
  const c = withNames(o, o.dims, o.labels);
  c.ptr = ptr;
  c.strides = null;
  return c;
}

/**
 * A result written into the resident `dest` (a view or not): `run()` makes it
 * (a new tensor or array), then it is copied into dest's elements. The result
 * must have dest's size and dtype, and, when named, names dest has or none.
 */
export function intoOut(dest, fn, ops, run) {
  if (!committable(dest)) throw commitError(dest, `${fn}: out`);
  checkOverlap(dest, ops, fn);
  const r = run();
  const h = handleOf(r);
  const dt = h !== null ? h.dtype : C.dtypeByName.get(r.dtype);
  const size = h !== null ? h.size : r.data.length;
  try {
    const dims = h !== null ? h.dims : r.dims;
    if (dims !== undefined) checkOutNames(fn, dest, dims, h !== null ? h.labels : dims.map((d) => r.coords?.[nameKey(d)] ?? null), h !== null ? h.shape : r.shape);
    if (dt !== dest.dtype) {
      throw cannotHold(fn, dest, dt, [dest.shape]);
    }
    if (size !== dest.size) {
      const shape = h !== null ? h.shape : r.shape;
      throw outLengthError(fn, dest.size, shape, size);
    }
    const strides = dest.strides ?? rowMajor(dest.shape);
    if (h !== null) copyView(view(dt), h.ptr / dt.size, dest.shape, rowMajor(dest.shape), view(dt), dest.ptr / dt.size, strides);
    else scatter(r.data, view(dt), dest.ptr / dt.size, dest.shape, strides); // bit for bit, whatever the array kind
  } finally {
    if (h !== null) r.dispose();
  }
  return dest.tensor;
}

/**
 * A resident `out` that shares memory with a resident operand other than as
 * the very same elements in the same order (which the engine checks for
 * broadcasting) would read cells already written: refused.
 */
export function checkOverlap(dest, ops, fn) {
  if (!dest.shared) return; // memory of its own: no other tensor reads it
  const d = span(dest);
  if (d === null) return;
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k];
    if (!o.resident || !o.shared || o === dest) continue;
    const s = span(o);
    if (s === null || s[1] <= d[0] || d[1] <= s[0]) continue;
    if ((o.ptr === dest.ptr && sameLayout(o, dest)) || apart(o, dest)) continue;
    throw new TypeError(`${fn}: out shares memory with an operand read in another order or place: in place would read cells already written; write to a separate tensor`);
  }
}

/** The bytes [from, to) a resident record's elements lie in (null: none). */
function span(o) {
  const es = o.dtype.size;
  if (o.strides === null) return o.size === 0 ? null : [o.ptr, o.ptr + o.size * es];
  const r = reach(o.shape, o.strides);
  return r === null ? null : [o.ptr + r[0] * es, o.ptr + (r[1] + 1) * es];
}

/**
 * Interleaved views that share no element (a[::2] and a[1::2], two columns): every element of
 * each starts on a grid of g bytes (g the gcd of both views' byte strides), and the two grids
 * lie at least an element apart on both sides.
 */
function apart(a, b) {
  const es = a.dtype.size;
  let g = 0;
  if (b.dtype.size === es && a.strides && b.strides) {
    for (const v of [a, b]) v.shape.forEach((n, i) => { if (n > 1) g = gcd(g, Math.abs(v.strides[i]) * es); });
  }
  const r = (((b.ptr - a.ptr) % g) + g) % g; // NaN without a stride (g = 0): not apart
  return r >= es && g - r >= es;
}

const gcd = (x, y) => (y ? gcd(y, x % y) : x);

function sameLayout(a, b) {
  if (a.strides === null || b.strides === null) return a.strides === b.strides && a.size === b.size; // row-major: the same run
  if (a.strides.length !== b.strides.length) return false;
  for (let i = 0; i < a.strides.length; i++) if (a.strides[i] !== b.strides[i] || a.shape[i] !== b.shape[i]) return false;
  return true;
}

// The hot part is kept small (the rare branches are functions of their own),
// so V8 inlines what it calls.
function executeInner(c) {
  const ops = c.ops;
  const dest = c.dest;
  const outDtype = c.outDtype;
  for (let k = 0; k < ops.length; k++) if (!committable(ops[k])) throw commitError(ops[k], operandWhat(c, k));
  if (dest !== null && !committable(dest)) throw commitError(dest, `${c.fn}: out`);
  // Request space first, then scratch: both may grow memory, so views come after.
  begin(c.named !== null ? c.named.need : bodyNeed(c));
  let resident = false;
  for (let k = 0; k < ops.length; k++) resident = place(ops[k], k) || resident;
  const out = outBuffer(dest, outDtype, resident);
  for (let k = 0; k < ops.length; k++) copyOperand(ops[k]);
  // The request: no allocation from here to the call.
  const end = writeRequest(c, out, outCapacity(dest, outDtype, out));
  return answer(c, call(end), requestLength(end), out);
}

/**
 * The element-wise call on two operands (the numpy, none and pdpd rules): the
 * steps of execute(), written out for its fixed request (two static shapes).
 * It is the call made in loops: a generic request costs it ~35 ns more.
 */
export function runBinary(name, op, A, B, dest, outDtype, rule, axis, ctx) {
  // The commit check (see execute()), before runBinaryInner, which is written
  // flat for V8 to inline its helpers.
  if (!committable(A) || !committable(B) || (dest !== null && !committable(dest))) throw binaryCommitError(name, A, B, dest);
  if (A.strides !== null || B.strides !== null || (dest !== null && dest.strides !== null)) {
    // Views: the generic request (its strides section; out through a view).
    const c = request(C.A.binary, name, rule, axis, [A, B], [A.shape, B.shape], outDtype, dest, ctx);
    c.op = op.id;
    c.dtype = A.dtype.id;
    return execute(c);
  }
  if (dest !== null && dest.shared) checkOverlap(dest, [A, B], name);
  let r;
  try {
    r = runBinaryInner(name, op, A, B, dest, outDtype, rule, axis, ctx);
  } catch (e) {
    trimScratch();
    throw e;
  }
  trimScratch();
  return r;
}

// Written flat, with only helpers small enough for V8 to inline (slot, view,
// begin, the header writer). Built from place(), outBuffer(), copyIn() and
// outCapacity(), which V8 left as calls, the small call [3,1]+[1,4] measured
// 374 ns end to end (the minimum over 15 processes) against 292 ns flat (with
// the result read below); docs/boundary.md.
function runBinaryInner(name, op, A, B, dest, outDtype, rule, axis, ctx) {
  const sa = A.shape;
  const sb = B.shape;
  begin(2 + sa.length + sb.length);
  const dt = A.dtype;
  const es = dt.size;
  const residentA = A.resident;
  const residentB = B.resident;
  // Scratch (may grow memory), then the views, then the request.
  if (!residentA) A.ptr = slot(0, A.size * es || 1);
  if (!residentB) B.ptr = slot(1, B.size * es || 1);
  const os = outDtype.size;
  let out;
  let cap; // bytes at `out`: negative for exactly that many (an `out` the caller gave)
  if (dest === null) {
    out = residentA || residentB ? 0 : slot(OUT_SLOT, 64);
    cap = out === 0 ? 0 : slotBytes(OUT_SLOT);
  } else if (dest.resident) {
    out = dest.ptr;
    cap = -dest.size * os;
  } else {
    cap = -taLength.call(dest.data) * os;
    out = slot(OUT_SLOT, -cap || 1);
  }
  if (!residentA) copyIn(dt, A.data, A.ptr / es, A.size);
  if (!residentB) copyIn(dt, B.data, B.ptr / es, B.size);
  // The same request as this op's last answered one (see remember()): the engine runs its plan again.
  const m = memos[op.id];
  if (m !== undefined && m.out === out && m.a === A.ptr && m.b === B.ptr && m.dt === dt && m.cap === cap
    && m.rule === rule && m.axis === axis && sameInts(m.sa, sa) && sameInts(m.sb, sb)
    && rerunBinary(m.entry, m.gen, dt.id, op.id, A.ptr, B.ptr, out) === 0) {
    if (dest !== null && dest.resident) return dest.tensor;
    return resultAt(m.shape.slice(), m.size, out, dest, outDtype);
  }
  const p = binaryRequest(requestBuffer(), rule, axis, op.id, dt.id, A.ptr, B.ptr, out, cap, sa, sb);
  const res = call(p);
  if (res.status === 0) {
    // result() and produce() written out (a data result's dims are integers):
    // as calls, which V8 inlines only in part here, ~40 ns more per call.
    const h = res.h;
    let q = res.p;
    const rank = h[q++];
    const shape = new Array(rank);
    let size = 1;
    for (let i = 0; i < rank; i++) {
      const d = h[q++];
      size *= (shape[i] = d <= 0x3fffffff ? d | 0 : d); // a small integer: shapes stay SMI arrays
    }
    if (out !== 0 && h[q] >= 0) remember(op.id, dt, rule, axis, sa, sb, A.ptr, B.ptr, out, cap, h[q], h[q + 1], shape, size);
    if (dest !== null && dest.resident) return dest.tensor;
    if (out === 0) return makeTensor(res.field('result'), shape, outDtype);
    return resultAt(shape, size, out, dest, outDtype);
  }
  // A result larger than the scratch guess, or a refusal: as execute() answers them.
  const c = request(C.A.binary, name, rule, axis, [A, B], [sa, sb], outDtype, dest, ctx);
  c.op = op.id;
  c.dtype = dt.id;
  return answer(c, res, requestLength(p), out);
}

/**
 * An expression run on positional operands (expr.js run()): execute()'s steps,
 * with one more before the request: a run the engine has answered before is
 * made again without it (repeatable()). `s` is the run's snapshot (readRun),
 * `ops` its tensor operands in order, `key` the engine's cache key, and
 * `request(E, fn, s, key, ops)` makes the run's request (expr.js).
 */
export function runExpr(E, fn, s, key, ops, request) {
  const dest = s.dest;
  if (dest !== null && dest.strides !== null) return intoOut(dest, fn, ops, () => runExpr(E, fn, { ...s, dest: null }, key, ops, request));
  if (dest !== null && dest.shared) checkOverlap(dest, ops, fn); // only memory shared with another tensor can overlap
  for (let k = 0; k < ops.length; k++) if (!committable(ops[k])) return execute(request(E, fn, s, key, ops));
  if (dest !== null && !committable(dest)) return execute(request(E, fn, s, key, ops));
  try {
    return runExprInner(E, fn, s, key, ops, request);
  } finally {
    trimScratch();
  }
}

function runExprInner(E, fn, s, key, ops, request) {
  const dest = s.dest;
  const values = s.values;
  const n = key.length;
  begin(1 + n + values.length);
  let resident = false;
  // A new result's scratch: what this key's last such result took, else as
  // large as the largest operand (unless the run reduces); too small, and the
  // engine answers "out too small" before it is asked again.
  let guess = E.last.outBytes;
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k];
    resident = place(o, k) || resident;
    if (E.reduce === null && o.size * o.dtype.size > guess) guess = o.size * o.dtype.size;
  }
  const destDtype = dest !== null ? dest.dtype : null;
  const out = outBuffer(dest, destDtype, resident, guess);
  const cap = outCapacity(dest, destDtype, out);
  const want = dest !== null && dest.resident ? dest.dtype.id : -1; // the engine checks a resident out's dtype
  // The engine's answer to this request again (see repeatable()): the same
  // key (E.last is this run's, keyOf), buffers, `out` and capacity; or, for
  // a run large enough to go a chunk at a time, the same key (stream.js streamed()).
  const m = E.last.memo;
  const usable = m !== null && m.want === want && (dest === null || dest.resident || outHolds(dest, m.outDtype));
  if (usable && m.size * 8 * (ops.length + 1) >= STREAM_MIN && !hasViews(ops)) {
    const r = streamed(m, ops, dest, out, cap);
    if (r !== null) {
      descOwner = null; // the descriptor slot holds the last chunk's words
      return r;
    }
  }
  if (usable && m.out === out && m.cap === cap && samePtrs(m.ptrs, ops)) {
    const d = slot(DESC_SLOT, m.desc.length * 4);
    for (let k = 0; k < ops.length; k++) copyOperand(ops[k]);
    const i32 = view(I32 ?? (I32 = C.dtypeByName.get('int32')));
    const w = d >>> 2;
    const words = m.desc.length;
    if (descOwner === m && descMade === slotMade(DESC_SLOT)) {
      // The slot still holds this descriptor: only the odometer's counters (its last R words) start again at 0.
      for (let j = words - m.desc[0]; j < words; j++) i32[w + j] = 0;
    } else {
      i32.set(m.desc, w);
      descOwner = m;
      descMade = slotMade(DESC_SLOT);
    }
    m.run(d);
    if (dest !== null && dest.resident) return dest.tensor;
    return produce(m.shape.slice(), out, dest, m.outDtype);
  }
  for (let k = 0; k < ops.length; k++) copyOperand(ops[k]);
  const c = request(E, fn, s, key, ops); // the request (its body: the key and the buffers)
  const p = writeRequest(c, out, cap);
  const res = call(p);
  if (res.status === 0) {
    const outDtype = C.dtypes[res.field('dtype')]; // the result's dtype is the engine's to say
    if (dest === null || (dest.resident ? dest.dtype === outDtype : outHolds(dest, outDtype))) {
      const shape = res.shape();
      const module = res.next();
      if (module >= 0) E.last.memo = repeatable(res, module, ops, out, cap, want, shape, outDtype);
      if (dest !== null && dest.resident) return dest.tensor;
      if (out === 0) return makeTensor(res.field('result'), shape, outDtype);
      return produce(shape, out, dest, outDtype);
    }
  }
  const r = answer(c, res, requestLength(p), out);
  if (dest === null && out !== 0) E.last.outBytes = Math.max(r.data.byteLength, 64);
  return r;
}

let I32 = null; // the int32 dtype (C is filled at init)
let descOwner = null; // the record whose descriptor DESC_SLOT holds (as of slotMade() = descMade)
let descMade = -1;

/**
 * The engine's answer to an expression run, as JS can give it again: the run
 * was one call of a generated module with a descriptor, into a buffer the
 * caller gave (expr_call.cpp says so after the shape: the module and the
 * descriptor's words). The engine's answer is a function of the request alone
 * (the key, the buffers, `out`, its capacity and dtype): for the same request
 * it plans, checks and writes the same, and keeps no state. So a repeated
 * run with the same key and buffers (resident tensors, or the same scratch
 * slots) calls that module with that descriptor itself: no request, no
 * engine call (the small compiled run of issue 22).
 */
function repeatable(res, module, ops, out, cap, want, shape, outDtype) {
  const words = res.next();
  const desc = new Int32Array(words);
  for (let i = 0; i < words; i++) desc[i] = res.next();
  const ptrs = new Array(ops.length);
  for (let k = 0; k < ops.length; k++) ptrs[k] = ops[k].ptr;
  return { run: mod().tcGen.fn(module), desc, ptrs, out, cap, want, shape, size: product(shape), outDtype };
}

function samePtrs(ptrs, ops) {
  for (let k = 0; k < ops.length; k++) if (ptrs[k] !== ops[k].ptr) return false;
  return true;
}

/** The typed-array result of `size` elements at `out` (scratch), copied into `out`'s array or a new one. */
function resultAt(shape, size, out, dest, outDtype) {
  const off = out / outDtype.size;
  if (dest !== null) {
    // (no element: nothing written, as to an out whose buffer was detached: its length is 0)
    if (size) taSet.call(dest.data, (outDtype.half ? viewFor(outDtype, dest.data) : view(outDtype)).subarray(off, off + size));
    return { data: dest.data, shape, dtype: outDtype.name };
  }
  return { data: copyOut(outDtype, off, size), shape, dtype: outDtype.name };
}

// Per op, the last two-operand request the engine answered Ok into a buffer
// the caller gave (a resident or typed `out`, or the result's scratch), and
// the plan that answered it (its cache entry and generation, from the
// response). The engine's answer is a function of the request: the same
// rule, axis, dtype, shapes, buffers and capacity are planned, checked and
// run the same way. So the same request again is sent as tc_rerun_binary(plan,
// dtype, op, buffers): the kernel runs on the cached plan, with no request to
// write or read (the engine says 1 when that plan has left its cache; the
// request is then sent as always). One record per op, rewritten in place.
const memos = [];

function remember(id, dt, rule, axis, sa, sb, a, b, out, cap, entry, gen, shape, size) {
  let m = memos[id];
  if (m === undefined) memos[id] = m = { dt, rule, axis, sa: [], sb: [], a, b, out, cap, entry, gen, shape, size };
  m.dt = dt; m.rule = rule; m.axis = axis; m.a = a; m.b = b; m.out = out; m.cap = cap;
  m.entry = entry; m.gen = gen; m.shape = shape.slice(); m.size = size;
  copyDims(m.sa, sa);
  copyDims(m.sb, sb);
}

function copyDims(to, from) {
  to.length = from.length;
  for (let i = 0; i < from.length; i++) to[i] = from[i];
}

/** Whether two arrays of integers (dims, strides; null for row-major strides) hold the same values. */
export function sameInts(x, y) {
  if (x === y) return true; // both null, or the same array
  if (x === null || y === null || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The commit check's error of a two-operand call. */
function binaryCommitError(name, A, B, dest) {
  if (!committable(A)) return commitError(A, `${name}: a`);
  if (!committable(B)) return commitError(B, `${name}: b`);
  return commitError(dest, `${name}: out`);
}

/** Operand k of request `c` as its call's messages name it. */
function operandWhat(c, k) {
  const A = C.A;
  const names = c.action === A.where ? ['cond', 'a', 'b'] : c.action === A.binary ? ['a', 'b', 'fill', 'fill']
    : c.fn === 'unbroadcast' ? ['grad'] : ['x'];
  return `${c.fn}: ${names[k] ?? `operand ${k}`}`;
}

/** Scratch for a plain operand (slot k, past OUT_SLOT from operand 7 on: an expression's); true for a resident one. */
function place(o, k) {
  if (o.resident) return true;
  if (o.strides !== null) { // a plain view: the elements it spans; ptr is its element 0
    o.ptr = slot(k < OUT_SLOT ? k : k + 1, Math.max(o.span * o.dtype.size, 1)) + (o.offset - o.lo) * o.dtype.size;
    return false;
  }
  o.ptr = slot(k < OUT_SLOT ? k : k + 1, Math.max(o.size * o.dtype.size, 1));
  return false;
}

/** A plain operand's data into its scratch. */
function copyOperand(o) {
  if (o.resident) return;
  if (o.strides !== null) copyIn(o.dtype, part(o.data, o.lo, o.span), o.ptr / o.dtype.size - (o.offset - o.lo), o.span);
  else copyIn(o.dtype, o.data, o.ptr / o.dtype.size, o.size);
}

/** Where the result goes: `out`'s buffer, a scratch guess, or 0 (the engine allocates a new tensor). */
function outBuffer(dest, outDtype, resident, guess = 64) {
  if (dest !== null) return dest.resident ? dest.ptr : slot(OUT_SLOT, Math.max(taLength.call(dest.data) * outDtype.size, 1));
  return resident ? 0 : slot(OUT_SLOT, guess);
}

/** Bytes at `out`: negative for exactly that many (an `out` the caller gave). */
function outCapacity(dest, outDtype, out) {
  if (dest !== null) return -(dest.resident ? dest.size : taLength.call(dest.data)) * outDtype.size;
  return out === 0 ? 0 : slotBytes(OUT_SLOT);
}

/** The call's result from its response (`len`: the request's length, for a second call). */
function answer(c, res, len, out) {
  const dest = c.dest;
  let st = res.status;
  if (c.engineDtype && (st === 0 || st === C.signals.outTooSmall)) {
    c.outDtype = C.dtypes[res.field('dtype')]; // evaluate: the result's dtype is the engine's to say
    if (dest !== null && !outHolds(dest, c.outDtype)) {
      throw cannotHold(c.fn, dest, c.outDtype, c.shapes);
    }
  }
  if (st === C.signals.outTooSmall) {
    out = growOut(c, res);
    res = recall(len);
    st = res.status;
  }
  if (st !== 0) throw failure(c, res, st);
  if (c.named !== null && !(dest !== null && dest.resident)) return namedTensor(c, res, out);
  if (c.after !== null) return c.after(res, result(res, out, dest, c.outDtype));
  return result(res, out, dest, c.outDtype);
}

/** The result of a call the engine answered with Ok: `out` itself, a new Tensor, or a typed array. */
function result(res, out, dest, outDtype) {
  if (dest !== null && dest.resident) return dest.tensor;
  const shape = res.shape();
  if (out === 0) return makeTensor(res.field('result'), shape, outDtype);
  return produce(shape, out, dest, outDtype);
}

/** A result in scratch at `out`, copied into `out`'s typed array or a new one. */
function produce(shape, out, dest, outDtype) {
  return resultAt(shape, product(shape), out, dest, outDtype);
}

/** Doubles the request body needs (shapes, mapping, tail; the strides section). */
function bodyNeed(c) {
  if (c.body !== null) return c.need;
  if (c.strided) return bodyNeed1(c) + stridesCost(stridesOf(c.ops));
  return bodyNeed1(c);
}

const stridesOf = (ops) => ops.map((o) => o.strides);

function bodyNeed1(c) {
  let need = c.mapping !== null ? 1 + c.mapping.length : 0;
  if (c.tail !== null) need += c.tail.length;
  const shapes = c.shapes;
  for (let k = 0; k < shapes.length; k++) need += shapeCost(shapes[k]);
  return need;
}

/** Write the request (header, then body); returns the heap index past its end. */
function writeRequest(c, out, cap) {
  const h = requestBuffer();
  let p = begin(0);
  const start = p;
  dataHeader(h, c, out, cap);
  if (c.body !== null) return c.body(h, p, c);
  if (c.named !== null) return writeNamed(h, p, c.named.enc);
  const shapes = c.shapes;
  for (let k = 0; k < shapes.length; k++) p = writeShape(h, p, shapes[k]);
  const m = c.mapping;
  if (m !== null) {
    h[p++] = m.length;
    for (let i = 0; i < m.length; i++) h[p++] = m[i];
  }
  const t = c.tail;
  if (t !== null) for (let i = 0; i < t.length; i++) h[p++] = t[i];
  if (c.strided) p = writeStrides(h, p, stridesOf(c.ops), start);
  return p;
}

/**
 * The engine answered outTooSmall (a result larger than the 64-byte scratch
 * guess, or an `out` of another size): a larger scratch, or the LENGTH_MISMATCH
 * of `out`. Returns the new result buffer, set in the request.
 */
function growOut(c, res) {
  const shape = res.shape();
  const size = product(shape);
  const dest = c.dest;
  if (dest !== null) {
    const have = dest.resident ? dest.size : taLength.call(dest.data);
    throw outLengthError(c.fn, have, shape, size);
  }
  const out = slot(OUT_SLOT, Math.max(size * c.outDtype.size, 1));
  setOut(requestBuffer(), out, slotBytes(OUT_SLOT));
  return out;
}

/** The result of named operands: with the engine's dims and coords (rank 0: none, as evaluate and the reductions give it). */
function namedTensor(c, res, out) {
  const shape = res.shape();
  const named = namedResult(c.named.nameList, res.namedAxes(c.named.labelList, c.named.rawName).axes);
  const dims = shape.length ? named.dims : undefined;
  if (out === 0) return makeTensor(res.field('result'), shape, c.outDtype, dims, named.coords);
  const r = produce(shape, out, c.dest, c.outDtype);
  if (dims) r.dims = dims;
  if (named.coords) r.coords = named.coords;
  return r;
}

/** The error of a refused call. */
function failure(c, res, st) {
  if (st === C.signals.outOverlaps) {
    if (c.action === C.A.reduce || c.action === C.A.unbroadcast) {
      return TypeError(`${c.fn}: out shares memory with the ${c.action === C.A.reduce ? 'input x' : 'gradient'}; a reduction reads input cells after it has written output cells, so it cannot work in place: pass a separate tensor as out (or none)`);
    }
    return TypeError(`${c.fn}: out is also an operand that is broadcast or reordered; in place would read cells already written: write to a separate tensor`);
  }
  if (C.statuses[st] === 'TOO_LARGE') {
    const shape = res.shape();
    return new BroadcastError(`${c.fn}: the result ${formatShape(shape)} would need more bytes than WebAssembly memory can hold`,
      { code: 'TOO_LARGE', shapes: c.ops.map((o) => o.shape) });
  }
  if (c.refuse !== null) return c.refuse(res);
  // The default element-wise rule builds its message context only when it is needed.
  return makeError(c.ctx ?? numpyCtx(c.shapes), res.error());
}

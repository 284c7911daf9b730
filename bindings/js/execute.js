// The running room: a data request run, for every call family (element-wise,
// broadcastTo, where, reduce, unbroadcast, expressions), once its caller has
// taken the snapshot in the reading room (operands.js). A data call comes in
// once and goes no further up: what it needs of memory, strides, the wire and
// the result is here.
//
//   1. snapshot (the caller, ops.js / reduce.js, with operands.js): every
//      argument and option read once into records (user code runs only there);
//   2. commit check (here, first): every record is a snapshot the library
//      made, every resident one still alive, every plain one still the length
//      it was read with (committable, below). From here no user code runs;
//   3. place: scratch and request space allocated (memory may grow), data copied in;
//   4. one wasm call plans (cached by shape) and runs the kernel;
//   5. the result is copied out, or handed over as a Tensor (made by the
//      maker tensor.js binds into operands.js).
//
// Its sections: WebAssembly memory (scratch slots, copies, views); the wire
// codec (requests and responses; loader.js has it set up over each engine it
// installs: bindInstall); streaming (a large repeated run a chunk at a
// time); strides and strided copies; named results; the call.
import { bindInstall } from './loader.js';
import { C, none } from './contract.js';
import { BroadcastError, makeError, formatShape, outLengthError, numpyCtx, cannotHold } from './errors.js';
import { FULL } from './engine.js';
import { taLength, commitError, handleOf, isAlive, makeTensor, isU16, SNAPSHOT, UNKNOWN_RANK, INTERVAL, taSet, mayShare, nameKey, KINDS, elemSize, taBuffer, taOffset, safeFormat } from './operands.js';

// ==== WebAssembly memory: scratch slots, copies and views ===================================
// WebAssembly memory: allocation, scratch slots and typed views.
//
// Views are taken from the module at the point of use and never kept across a
// call that may allocate: memory growth replaces the buffer (loader.js's host()
// then replaces M.HEAPU8, which is how view() notices).

/** The engine: the module loader.js installed last (refreshRequest, below). */
let M = null;
let viewHeap = new Uint8Array(none);
let heapViews = [];

/**
 * A typed view of the whole heap for dtype `d` (a C.dtypes entry). The heapViews
 * are kept until memory growth detaches them (a detached view's length is 0). The
 * fast path is two loads, small enough for V8 to inline into every caller.
 */
export function view(d) {
  const v = heapViews[d.id];
  return v !== null && viewHeap.length !== 0 ? v : freshView(d);
}

/**
 * A new typed array of dtype `d` holding the `n` heap elements from element
 * `off`. The typed-array constructor over a view of the same type copies the
 * bytes into a buffer it does not zero first; slice() zeroes its new buffer,
 * then copies: a 4 MB result measured 0.51 ms against 0.87 ms in Node
 * (medians of 30 interleaved copies).
 */
export function heapCopy(d, off, n) {
  return new d.ctor(view(d).subarray(off, off + n));
}

// Node's Buffer.allocUnsafeSlow: a buffer of its own whose memory is not
// zeroed first. Browsers have no such allocation: the Node entries hand it
// over (useUnzeroed()), so the page carries no test for it.
let unzeroed = null;

/** Node's entries: `alloc(bytes)` (Buffer.allocUnsafeSlow) makes fresh()'s large arrays. */
export function useUnzeroed(alloc) {
  unzeroed = alloc;
}
const UNZEROED_MIN = 1 << 16;

/**
 * A new typed array of dtype `d` and `n` elements whose contents are
 * unspecified: the caller writes every element before anyone else sees it.
 * In Node, 64 KiB or more come from Buffer.allocUnsafeSlow (an ArrayBuffer
 * of exactly those bytes, not zeroed): a 4 MiB result filled in chunks took
 * 1.3-1.45 ms against 1.75-1.9 ms zeroed first (medians, fresh processes in
 * turn); elsewhere, and for small arrays, the constructor.
 */
export function fresh(d, n) {
  const bytes = n * d.size;
  // (past 4 GiB, what wasm32 holds: what the engine refuses for a result, a RangeError of V8's here)
  if (!(bytes < 2 ** 32)) throw new BroadcastError(`cannot allocate ${bytes} bytes for the result`, { code: 'TOO_LARGE' });
  if (unzeroed !== null && bytes >= UNZEROED_MIN) {
    const b = unzeroed(bytes);
    if (b.byteOffset === 0 && b.buffer.byteLength === bytes) return new d.ctor(b.buffer, 0, n);
  }
  return new d.ctor(n);
}

// Arrays up to SMALL elements are copied by a loop: TypedArray set() and
// slice() are builtin calls whose fixed cost is most of the copy of a few
// elements (docs/boundary.md). Not for float16 (its view may be another array
// kind: set() moves bits) or 64-bit integers (each element a BigInt).
const SMALL = 16;

/** `n` elements of typed array `data` (dtype `d`) into the heap at element `off`. */
function copyIn(d, data, off, n) {
  if (n > SMALL || !d.loop) {
    if (n > 0) (d.half ? viewFor(d, data) : view(d)).set(data, off);
    return;
  }
  const v = view(d);
  for (let i = 0; i < n; i++) v[off + i] = data[i];
}

/** A new typed array of dtype `d` holding the `n` heap elements from element `off`. */
function copyOut(d, off, n) {
  if (n > SMALL || !d.loop) return heapCopy(d, off, n);
  const v = view(d);
  const r = new d.ctor(n);
  for (let i = 0; i < n; i++) r[i] = v[off + i];
  return r;
}

function freshView(d) {
  if (viewHeap.length === 0) {
    viewHeap = M.HEAPU8;
    heapViews = new Array(C.dtypes.length).fill(null);
  }
  return (heapViews[d.id] = new d.ctor(viewHeap.buffer));
}

/**
 * The view to copy typed array `data` of dtype `d` through: the dtype's own,
 * or a Uint16Array view where `data` holds float16 bits (a Uint16Array given
 * as float16, in a runtime that has Float16Array: the bits, not the values).
 */
export function viewFor(d, data) {
  if (d.half && !d.bits && isU16(data)) return view(C.dtypeByName.get('uint16'));
  return view(d);
}

/**
 * Allocate `bytes` in wasm memory, at least 1 (TOO_LARGE when it cannot); returns the
 * block's address. Every address is unsigned (0 to 2^32): memory may grow to
 * 4 GB, and a wasm i32 reaches JS as a signed number, negative from 2 GiB on
 * (docs/boundary.md, "Addresses").
 */
export function malloc(bytes) {
  const p = M._tc_malloc(bytes || 1) >>> 0; // an empty result's block too: an address, never 0
  if (p === 0) {
    throw new BroadcastError(`cannot allocate ${bytes} bytes in WebAssembly memory`, { code: 'TOO_LARGE' });
  }
  return p;
}

export function free(p) {
  if (p) M._tc_free(p);
}

// Scratch slots hold copies of plain operands and plain results for the
// length of one call. Small ones are kept for the next call; one larger than
// KEEP is given back when its call ends, so a single large result does not
// hold its memory for the life of the process (releaseScratch() frees all).
const KEEP = 1 << 20;
// 8 for the ops (slot 7 is OUT_SLOT), one per further operand of an expression
// (up to C.limits.maxExpressionInputs of them, execute.js place()), and DESC_SLOT.
const SLOTS = 8 + 64 + 1;
/** The last slot: a repeated expression run's descriptor (execute.js runExpr). */
const DESC_SLOT = SLOTS - 1;
/** The slot of a call's result when it goes to a typed array (the call below; streamed() its chunks). */
const OUT_SLOT = 7;
// made: counts the slot's allocations and frees (what its memory held may be gone when it changes).
const slots = Array.from({ length: SLOTS }, () => ({ ptr: 0, raw: 0, bytes: 0, held: 0, made: 0 })); // bytes 0: none yet; held: what was allocated (bytes and the page skew)
let scratchBytes = 0;
let large = 0; // slots now holding more than KEEP

// Where a slot starts within its 4 KiB page. Copying between a typed array
// and the heap (TypedArray set(), the constructor over a view: memcpy) runs
// at about a fifteenth of its speed for 4 KiB to 1 MiB when the destination
// starts 4 to 28 bytes past the source modulo 4 KiB (measured on this
// project's AMD EPYC machines: the string move memcpy uses for those sizes).
// A large typed array starts 16 bytes into a page in Node (glibc maps it,
// after its 16-byte header), so a slot of 4 KiB or more starts half a page
// away from that: 2064 bytes into a page.
const PAGE = 4096;
const SKEW = 2048 + 16;

/**
 * Scratch slot k (0 to 7), holding at least `bytes` (at least 1). The fast
 * path is small enough for V8 to inline into the hot calls.
 */
export function slot(k, bytes) {
  const s = slots[k];
  return s.bytes >= bytes ? s.ptr : growSlot(s, bytes);
}

function growSlot(s, bytes) {
  const want = Math.max(bytes, 64, Math.min(s.bytes * 2, KEEP));
  const pad = want >= PAGE ? PAGE : 0;
  const raw = malloc(want + pad);
  free(s.raw);
  scratchBytes += want + pad - s.held;
  if (want > KEEP && !(s.bytes > KEEP)) large++;
  s.raw = raw;
  s.ptr = pad === 0 ? raw : raw + (((SKEW - raw) % PAGE) + PAGE) % PAGE;
  s.bytes = want;
  s.held = want + pad;
  s.made++;
  return s.ptr;
}

function slotBytes(k) {
  return slots[k].bytes;
}

/** Changes whenever slot k's memory is allocated or freed: while it is the same, so is what the slot holds. */
function slotMade(k) {
  return slots[k].made;
}

/** Free the slots holding more than `over` bytes (they are made again when needed). */
function freeSlots(over) {
  for (const s of slots) {
    if (s.raw && s.bytes > over) {
      free(s.raw);
      scratchBytes -= s.held;
      s.ptr = 0;
      s.raw = 0;
      s.bytes = 0;
      s.held = 0;
      s.made++;
    }
  }
  large = 0;
}

/** End of a call: give back the slots that grew past KEEP. */
function trimScratch() {
  if (large !== 0) freeSlots(KEEP);
}

/** Free every scratch slot now. */
export function releaseScratch() {
  freeSlots(-1);
}

export function scratchInUse() {
  return scratchBytes;
}

// ==== The wire codec: requests and responses ================================================
// The wire codec: writing a request (header + body, bindings/wasm/wire.hpp)
// into the engine's request buffer and reading its response. Field positions
// come from the contract (C.REQ, C.RESP), never from literals here.
//
// Callers take a snapshot of every user value first (operands.js,
// options.js): from the first write of a request to the end of its call, no
// user code runs, so nothing can move the buffers or change the request.
let reqPtr = 0; // request buffer start, in doubles
let reqCap = 0;
// The hot exports are taken once, and the heap view is kept and replaced when
// memory growth detaches it (its length becomes 0).
let tcCall = null;
let tcRequest = null;
/** The full engine's tc_rerun_binary (execute.js runBinary); null in tensorcast/shapes. */
let rerunBinary = null;
let f64 = new Float64Array(none);

/**
 * The engine loader.js installs, each time (bound there: bindInstall, below):
 * its request buffer and hot exports, and from then on this room's engine
 * (M). Each export is tried once before anything is kept (a module that only
 * looks like the engine fails here, in install(), and the engine before it
 * stays this room's).
 */
function refreshRequest(module) {
  const ptr = module._tc_request(4096) >>> 3;
  module._tc_call(0); // an empty request: answered with a refusal, changes nothing
  // The full build's engine has it (tensorcast/shapes' has not): a constant the minifier folds.
  const rerun = FULL ? module._tc_rerun_binary : null;
  if (FULL) rerun(-1, 0, 0, 0, 0, 0, 0); // no plan -1: answered 1, changes nothing
  layout();
  M = module;
  reqCap = 4096;
  reqPtr = ptr;
  tcRequest = M._tc_request;
  tcCall = M._tc_call;
  rerunBinary = rerun;
}
bindInstall(refreshRequest);

/** The heap as doubles, current after any growth. */
function heapF64() {
  if (f64.length === 0) f64 = M.HEAPF64;
  return f64;
}

/** Doubles a (snapshot) shape needs in a request. */
export function shapeCost(shape) {
  return typeof shape === 'string' ? 1 : 1 + 3 * shape.length; // a string: UNKNOWN_RANK
}

/**
 * Start a request of at most `bodyDoubles` after the header; returns the heap
 * index of the body. May allocate (and grow memory): call it before taking
 * any other heap view.
 */
export function begin(bodyDoubles) {
  const need = REQ_LEN + bodyDoubles;
  if (need > reqCap) {
    reqPtr = tcRequest(need) >>> 3;
    reqCap = need;
  }
  return reqPtr + REQ_LEN;
}

let R_STATUS = 0;
let REQ_LEN = 0;
let R_STRIDED = 0;

/** The contract's request and response positions, and the header writers made over them. */
function layout() {
  R_STATUS = C.RESP.status;
  REQ_LEN = C.REQ_LEN;
  R_STRIDED = C.REQ.strided;
  ({ header, dataHeader, binaryRequest, setOut } = compileWriters(C.REQ, C.REQ_LEN, C.A.binary));
}

// The header writers, made at init over the contract's field positions. They
// are closures on purpose: V8 folds a closure's `const`s into the code it
// compiles, not a module variable assigned at init (on the 16 stores of a
// header, measured ~35 ns per call).

/** The header of a shape call (the data fields are 0): header(h, action, rule, axis = -1, operands = 2). */
export let header = null;
/**
 * The header of a data call, every field, from its request `c` (execute.js
 * request()): dataHeader(h, c, out, capacity), with the operands' buffers,
 * `out` and its capacity in bytes.
 */
let dataHeader = null;
/**
 * The request of a two-operand element-wise call: its header (every field: the
 * engine keys its plan cache on some it does not use here), then the two
 * static shapes: binaryRequest(h, rule, axis, op, dtype, in0, in1, out,
 * capacity, sa, sb). Returns the heap index past its end.
 */
let binaryRequest = null;
/** Point the request at another result buffer (after an outTooSmall answer): setOut(h, out, capacity). */
let setOut = null;

function compileWriters(R, LEN, A_BINARY) {
  const ACTION = R.action; const RULE = R.rule; const AXIS = R.axis; const SHAPING = R.shaping; const OPERANDS = R.operands;
  const OP = R.op; const DTYPE = R.dtype; const ELEM = R.elem; const IN0 = R.in0; const IN1 = R.in1; const IN2 = R.in2;
  const IN3 = R.in3; const OUT = R.out; const CAPACITY = R.capacity; const ACC = R.acc; const KEEPDIMS = R.keepdims;
  const STRIDED = R.strided;
  const named = [ACTION, RULE, AXIS, SHAPING, OPERANDS, OP, DTYPE, ELEM, IN0, IN1, IN2, IN3, OUT, CAPACITY, ACC, KEEPDIMS, STRIDED];
  const OTHER = Array.from({ length: LEN }, (_, i) => i).filter((i) => !named.includes(i));
  return {
    header(h, action, rule, axis = -1, operands = 2) {
      const b = reqPtr;
      // Every field once, at positions V8 folds (no clearing loop first, no h.fill(): a builtin call).
      h[b + ACTION] = action;
      h[b + RULE] = rule;
      h[b + AXIS] = axis;
      h[b + OPERANDS] = operands;
      h[b + SHAPING] = 0;
      h[b + OP] = 0;
      h[b + DTYPE] = 0;
      h[b + ELEM] = 0;
      h[b + IN0] = 0;
      h[b + IN1] = 0;
      h[b + IN2] = 0;
      h[b + IN3] = 0;
      h[b + OUT] = 0;
      h[b + CAPACITY] = 0;
      h[b + ACC] = 0;
      h[b + KEEPDIMS] = 0;
      h[b + STRIDED] = 0;
      for (let i = 0; i < OTHER.length; i++) h[b + OTHER[i]] = 0; // fields TC_REQ gains later (none today)
    },
    dataHeader(h, c, out, capacity) {
      const b = reqPtr;
      const ops = c.ops;
      const n = ops.length;
      h[b + ACTION] = c.action;
      h[b + RULE] = c.rule;
      h[b + AXIS] = c.axis;
      h[b + OPERANDS] = c.named !== null ? 2 : c.shapes.length;
      h[b + SHAPING] = c.shaping;
      h[b + OP] = c.op;
      h[b + DTYPE] = c.dtype;
      h[b + ELEM] = c.elem;
      h[b + IN0] = ops[0].ptr; // every data call has an operand
      h[b + IN1] = n > 1 ? ops[1].ptr : 0;
      h[b + IN2] = n > 2 ? ops[2].ptr : 0;
      h[b + IN3] = n > 3 ? ops[3].ptr : 0;
      h[b + OUT] = out;
      h[b + CAPACITY] = capacity;
      h[b + ACC] = c.acc;
      h[b + KEEPDIMS] = c.keepdims ? 1 : 0;
      h[b + STRIDED] = 0; // execute.js writeStrides sets it for a request with views
    },
    binaryRequest(h, rule, axis, op, dtype, in0, in1, out, capacity, sa, sb) {
      const b = reqPtr;
      h[b + ACTION] = A_BINARY;
      h[b + RULE] = rule;
      h[b + AXIS] = axis;
      h[b + OPERANDS] = 2;
      h[b + SHAPING] = 0;
      h[b + OP] = op;
      h[b + DTYPE] = dtype;
      h[b + ELEM] = 0;
      h[b + IN0] = in0;
      h[b + IN1] = in1;
      h[b + IN2] = 0;
      h[b + IN3] = 0;
      h[b + OUT] = out;
      h[b + CAPACITY] = capacity;
      h[b + ACC] = -1;
      h[b + KEEPDIMS] = 0;
      h[b + STRIDED] = 0;
      return writeStatic(h, writeStatic(h, b + LEN, sa), sb);
    },
    setOut(h, out, capacity) {
      h[reqPtr + OUT] = out;
      h[reqPtr + CAPACITY] = capacity;
    },
  };
}

/** Write a (snapshot) shape at h[p]; returns the next index. */
export function writeShape(h, p, shape) {
  if (typeof shape === 'string') { // UNKNOWN_RANK (snapshot shapes are arrays or this)
    h[p] = -1;
    return p + 1;
  }
  const n = shape.length;
  h[p++] = n;
  for (let i = 0; i < n; i++) {
    const d = shape[i];
    if (typeof d === 'number') {
      h[p++] = d;
    } else if (d === '?') {
      h[p++] = -2; h[p++] = 0; h[p++] = -1;
    } else {
      const m = INTERVAL.exec(d);
      const lo = m[1] === '' ? 0 : Number(m[1]);
      const hi = m[2] === '' ? -1 : Number(m[2]);
      if (lo === hi) h[p++] = lo;
      else { h[p++] = -2; h[p++] = lo; h[p++] = hi; }
    }
  }
  return p;
}

/** Write a static shape (numbers only: a data operand's) at h[p]; returns the next index. */
function writeStatic(h, p, shape) {
  const n = shape.length;
  h[p++] = n;
  for (let i = 0; i < n; i++) h[p++] = shape[i];
  return p;
}

/** Send the request whose body ends before heap index `end`; returns a Response. */
export function call(end) {
  const rp = tcCall(end - reqPtr) >>> 3;
  return RESPONSE.at(heapF64(), rp);
}

/** Call again with the same request (after changing header fields). */
function recall(len) {
  const rp = tcCall(len) >>> 3;
  return RESPONSE.at(heapF64(), rp);
}

function requestLength(end) {
  return end - reqPtr;
}

export function requestBuffer() {
  return heapF64();
}

/** The set bits of an axis mask (a double: exact up to 2^53), ascending. */
function bitsOf(mask) {
  const out = [];
  for (let i = 0, b = mask; b > 0 && i < 64; i++, b = Math.floor(b / 2)) if (b % 2 === 1) out.push(i);
  return out;
}

/** A dim from its (lo, hi) pair as the library prints it. */
export function dimFrom(lo, hi) {
  if (lo === hi) return lo;
  if (hi === -1) return lo === 0 ? '?' : `${lo}..`;
  return lo === 0 ? `..${hi}` : `${lo}..${hi}`;
}

/** A response: its head as fields, then a cursor over what follows. */
class Response {
  constructor(h, base) {
    this.h = h;
    this.base = base;
    this.p = base + C.RESP_LEN;
  }

  /** Point at the response of the call just made (the reader is reused: a response is read before the next call). */
  at(h, base) {
    this.h = h;
    this.base = base;
    this.p = base + C.RESP_LEN;
    return this;
  }

  field(name) { return this.h[this.base + C.RESP[name]]; }
  get status() { return this.h[this.base + R_STATUS]; }

  /** The head's error fields, decoded. */
  error() {
    const f = (n) => this.field(n);
    const clashes = bitsOf(f('clashAxes'));
    return {
      status: f('status'), axis: f('axis'), opA: f('operandA'), opB: f('operandB'),
      a: dimFrom(f('dimALo'), f('dimAHi')), b: dimFrom(f('dimBLo'), f('dimBHi')), detail: f('detail'), clashes,
    };
  }

  next() { return this.h[this.p++]; }

  dim() {
    const v = this.h[this.p++];
    if (v >= 0 && v <= 0x3fffffff) return v | 0; // a small integer: shapes stay SMI arrays
    if (v >= 0 || v === -1) return v;
    const lo = this.h[this.p++];
    const hi = this.h[this.p++];
    return dimFrom(lo, hi);
  }

  shape() {
    const rank = this.h[this.p++];
    if (rank === -1) return UNKNOWN_RANK;
    const out = new Array(rank); // exactly rank slots (see copyShape)
    let size = 1;
    for (let i = 0; i < rank; i++) size *= (out[i] = this.dim());
    this.size = size; // a data result's elements (its dims are integers): what the last shape() read
    return out;
  }

  /** The plan (write_plan); `names` labels the operands. */
  plan(names) {
    const isStatic = this.next() === 1;
    this.next(); // out_size, saturated: the exact size is computed from the shape
    const shape = this.shape();
    const nOps = this.next();
    const rank = shape === UNKNOWN_RANK ? 0 : shape.length;
    const operands = [];
    for (let k = 0; k < nOps; k++) {
      const opShape = this.shape();
      const droppedMask = this.next();
      const srcAxis = new Array(rank);
      const aligned = new Array(rank);
      const strides = new Array(rank);
      const verdicts = new Array(rank);
      for (let a = 0; a < rank; a++) {
        const s = this.next();
        srcAxis[a] = s < 0 ? null : s;
        aligned[a] = this.dim();
        strides[a] = this.next();
        verdicts[a] = C.verdicts[this.next()];
      }
      const dropped = bitsOf(droppedMask);
      operands.push({ name: names(k), shape: opShape, srcAxis, aligned, strides: isStatic ? strides : null, verdicts, dropped });
    }
    const lr = this.next();
    let loop = null;
    if (lr > 0) {
      const lshape = Array.from(this.h.subarray(this.p, this.p + lr));
      this.p += lr;
      const lstrides = [];
      for (let k = 0; k < nOps; k++) {
        lstrides.push(Array.from(this.h.subarray(this.p, this.p + lr)));
        this.p += lr;
      }
      loop = { shape: lshape, strides: lstrides, inner: C.inner[this.next()] };
    } else {
      this.next();
    }
    return { shape, isStatic, rank, operands, loop };
  }

  /**
   * The named axes (write_named), labels mapped back through `labelList` (raw
   * for the names in `rawName`); the per-label index lists only `withIndex`.
   */
  namedAxes(labelList, rawName, withIndex = false) {
    const h = this.h;
    const n = this.next();
    const axes = [];
    let p = this.p;
    for (let i = 0; i < n; i++) {
      const ax = { name: h[p], size: h[p + 1], left: h[p + 2], right: h[p + 3], labeled: h[p + 4] === 1 };
      const k = h[p + 5];
      p += 6;
      if (ax.labeled) {
        const ls = []; // pushed: faster than Array.from(subarray, fn) for a million labels
        if (rawName && rawName.has(ax.name)) for (let j = p; j < p + k; j++) ls.push(h[j]);
        else for (let j = p; j < p + k; j++) ls.push(labelList[h[j]]);
        ax.labels = ls;
        if (withIndex) {
          ax.leftIndex = Array.from(h.subarray(p + k, p + 2 * k));
          ax.rightIndex = Array.from(h.subarray(p + 2 * k, p + 3 * k));
        }
      }
      p += (withIndex ? 3 : 1) * k; // the index lists come with explain only
      axes.push(ax);
    }
    const needsGather = h[p] === 1;
    this.p = p + 1;
    return { axes, needsGather };
  }
}

// The one reader of responses: each call's response is read before the next call is made.
const RESPONSE = new Response(new Float64Array(none), 0);

/** Doubles the strides section of `strides` (per operand: null, or its strides) takes. */
export function stridesCost(strides) {
  let n = 0;
  for (let k = 0; k < strides.length; k++) n += strides[k] === null ? 1 : 1 + strides[k].length;
  return n;
}

/**
 * The strides section (calls.cpp apply_strides; docs/boundary.md, "Views") at
 * h[p]: per operand 0 (row-major) or 1 and its strides; its length goes in
 * the header field `strided` of the request whose body starts at `body`.
 * Returns the index past its end.
 */
export function writeStrides(h, p, strides, body) {
  const from = p;
  for (let k = 0; k < strides.length; k++) {
    const st = strides[k];
    h[p++] = st === null ? 0 : 1;
    if (st !== null) for (let i = 0; i < st.length; i++) h[p++] = st[i];
  }
  h[body - REQ_LEN + R_STRIDED] = p - from;
  return p;
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

/**
 * An object keyed by names the caller chose, every key an own data property:
 * `obj[name] = v` would set the prototype for a dim named "__proto__", and
 * Object.fromEntries defines each key instead.
 */
export function ownObject(entries) {
  return Object.fromEntries(entries);
}

// ==== Streaming: a large repeated run a chunk at a time =====================================
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
          copyView(src[s], lo, [len], null, view(dtypes[s]), at[s] / e, null); // (bits: any view of the element's size)
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
  const stats = M.tcGen.stats;
  stats.streamed++;
  stats.chunks += runChunks(m.run, desc, d, plan, es, src, dtypes, at, target);
  if (!plainOut) return dest.tensor;
  return { data: target, shape: m.shape.slice(), dtype: m.outDtype.name };
}

// ==== Strided copies ================================================================
// A view's elements moved between memories (the one JS loop that walks a view);
// null strides are row-major. (Strides themselves: operands.js.)
/** `t`'s bytes as unsigned integers of its element size (8 bytes: pairs of 32-bit words), read by the intrinsics. */
function bits(t) {
  const es = elemSize(t);
  const K = KINDS[es === 1 ? 'Uint8Array' : es === 2 ? 'Uint16Array' : 'Uint32Array']; // as part(): the constructors of when the library loaded
  return new K(taBuffer.call(t), taOffset.call(t), (es === 8 ? 2 : 1) * taLength.call(t));
}

/**
 * Copy the view (`shape`, `sStrides` at `sBase`) of `src` into the view
 * (`dStrides` at `dBase`) of `dst`, element by element in row-major order,
 * bit for bit (as integers of the element's size: a float's NaN payload, a
 * float16's bits and a 64-bit integer move unchanged, no BigInt made). The
 * arrays may be heap views (a resident tensor's memory).
 */
export function copyView(src, sBase, shape, sStrides, dst, dBase, dStrides) {
  // One pass over the axes: the size, the row-major strides (a side given as
  // null reads them), and whether both sides read row-major (one memmove).
  let n = 1;
  let run = true;
  const rm = new Array(shape.length);
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] !== 1 && ((sStrides !== null && sStrides[i] !== n) || (dStrides !== null && dStrides[i] !== n))) run = false;
    rm[i] = n;
    n *= shape[i];
  }
  if (n === 0) return dst; // nothing read (an array may be detached: its length 0, no view of it made)
  sStrides ??= rm;
  dStrides ??= rm;
  if (elemSize(src) === 8) { // two words per element: one more axis
    shape = [...shape, 2];
    sStrides = [...sStrides.map((x) => 2 * x), 1];
    dStrides = [...dStrides.map((x) => 2 * x), 1];
    sBase *= 2;
    dBase *= 2;
    n *= 2;
  }
  const r = shape.length;
  const to = dst;
  src = bits(src);
  dst = bits(dst);
  if (r === 0) {
    dst[dBase] = src[sBase];
    return to;
  }
  if (run) { // both contiguous: one memmove
    dst.set(src.subarray(sBase, sBase + n), dBase);
    return to;
  }
  const last = r - 1;
  const len = shape[last];
  const ss = sStrides[last];
  const ds = dStrides[last];
  const rows = ss === 1 && ds === 1 && len >= 16; // contiguous rows: one memmove each (set)
  const idx = new Array(r).fill(0);
  let so = sBase;
  let dof = dBase;
  for (let q = n / len; q > 0; q--) {
    if (rows) dst.set(src.subarray(so, so + len), dof);
    else for (let i = 0, p = so, o = dof; i < len; i++, p += ss, o += ds) dst[o] = src[p];
    for (let a = last - 1; a >= 0; a--) {
      so += sStrides[a];
      dof += dStrides[a];
      if (++idx[a] < shape[a]) break;
      so -= sStrides[a] * shape[a];
      dof -= dStrides[a] * shape[a];
      idx[a] = 0;
    }
  }
  return to;
}

// ==== Named results =================================================================
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
  throw new BroadcastError(`${fn}: out has dims ${safeFormat(dest.dims)}${other ? ` with other ${other}` : ''} but the result has dims ${safeFormat(dims)}`
    + `${other ? ` (dim "${dims[i]}" differs)` : ''}: its data would be read by the wrong names; pass an out with the result's dims and coords, or one without dims`,
  { code: 'INCOMPATIBLE_DIMS', shapes: [dest.shape], axis: i });
}

// ==== The call =============================================================================

/**
 * The commit stage's check of a record, made after the last user code of a
 * call has run and before its first heap access (execute.js runs it on every
 * operand and `out` it is handed): the record is a snapshot the library made,
 * a resident operand's tensor is still alive (a getter may have disposed it
 * after it was read), and a plain operand's data still has the length its
 * snapshot read (a getter may have resized a resizable buffer). True when all
 * holds; the error comes from commitError() (apart: this one stays small
 * enough for V8 to inline into the hot call).
 */
export function committable(o) {
  if (o.brand !== SNAPSHOT) return false;
  if (o.resident) return isAlive(o.tensor);
  return o.scalar || taLength.call(o.data) === o.len;
}

/**
 * Whether `out` (its snapshot `dest`) can take a result of dtype `dt`: the
 * same dtype, or a Uint16Array for a float16 result, which receives the
 * result's bits (the snapshot then says float16, so the copy moves bits).
 */
export function outHolds(dest, dt) {
  if (dest.dtype === dt) return true;
  if (dt.half && !dest.resident && isU16(dest.data)) {
    dest.dtype = dt;
    return true;
  }
  return false;
}

/** A new typed array of `n` elements of dtype `dt` of `data`'s kind (float16 as bits stays bits). */
export const arrayLike = (data, dt, n) => (dt.half && isU16(data) ? new Uint16Array(n) : new dt.ctor(n));

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
    const c = { ...o }; // a copy (a tensor's record is never changed)
    c.data = copyView(o.data, o.offset, o.shape, o.strides, arrayLike(o.data, o.dtype, o.size), 0, null);
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
  copyView(heap, o.ptr / es, o.shape, o.strides, heap, ptr / es, null);
  const c = { ...o }; // a copy (a tensor's record is never changed)
  c.ptr = ptr;
  c.strides = null;
  c.lo = 0;
  c.span = o.size;
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
    if (h !== null) copyView(view(dt), h.ptr / dt.size, dest.shape, null, view(dt), dest.ptr / dt.size, dest.strides);
    else copyView(r.data, 0, dest.shape, null, view(dt), dest.ptr / dt.size, dest.strides); // bit for bit, whatever the array kind
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
  return o.size === 0 ? null : [o.ptr + o.lo * es, o.ptr + (o.lo + o.span) * es]; // (a resident view: the reach its tensor keeps)
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
  return sameInts(a.strides, b.strides) && sameInts(a.shape, b.shape);
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
 * The element-wise call on two operands, after its snapshot and checks
 * (ops.js binary()): `out`'s dtype checked, then by dim name (`named`: the
 * request of rule C.named), as its one-op expression (`large`), or (the numpy,
 * none and pdpd rules) the steps of execute(), written out for its fixed
 * request (two static shapes). It is the call made in loops: a generic
 * request costs it ~35 ns more.
 */
export function runBinary(name, op, A, B, dest, outDtype, rule, axis, ctx, named, large) {
  if (dest !== null && !outHolds(dest, outDtype)) throw cannotHold(name, dest, outDtype, [A.shape, B.shape]);
  if (named !== null) { // by dim name (§6): the operands and the fill value, the labels interned (ops.js binary())
    const c = binaryCall(name, op, rule, axis, named.ops, null, outDtype, dest, ctx); // (rule: C.named)
    c.shaping = named.shaping;
    c.named = named.interned;
    return execute(c);
  }
  if (large !== null) { // as its one-op expression, when the engine runs that (expr-large.js largeRun())
    const r = runLarge(large);
    if (r !== null) return r;
  }
  // The commit check (see execute()), before runBinaryInner, which is written
  // flat for V8 to inline its helpers.
  if (!committable(A) || !committable(B) || (dest !== null && !committable(dest))) throw binaryCommitError(name, A, B, dest);
  if (A.strides !== null || B.strides !== null || (dest !== null && dest.strides !== null)) {
    // Views: the generic request (its strides section; out through a view).
    return execute(binaryCall(name, op, rule, axis, [A, B], [A.shape, B.shape], outDtype, dest, ctx));
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
    // result() written out (a data result's dims are integers):
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
  return answer(binaryCall(name, op, rule, axis, [A, B], [sa, sb], outDtype, dest, ctx), res, requestLength(p), out);
}

/** The generic request of an element-wise call (execute()'s), on `ops` (the first's dtype the op's). */
function binaryCall(name, op, rule, axis, ops, shapes, outDtype, dest, ctx) {
  const c = request(C.A.binary, name, rule, axis, ops, shapes, outDtype, dest, ctx);
  c.op = op.id;
  c.dtype = ops[0].dtype.id;
  return c;
}

/**
 * A large element-wise call's one-op expression run (`L`: expr-large.js
 * largeRun()), or null when there is none or the engine refuses it: the op's
 * own path then answers (and refuses it with its own error).
 */
export function runLarge(L) {
  if (L !== null) {
    try {
      return runExpr(L.E, 'evaluate', L.s, L.key, L.s.ops, L.request);
    } catch { /* the op's own path */ }
  }
  return null;
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
  // a run large enough to go a chunk at a time, the same key (streamed()).
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
    return resultAt(m.shape.slice(), m.size, out, dest, m.outDtype);
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
      return resultAt(shape, res.size, out, dest, outDtype);
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
  return { run: M.tcGen.fn(module), desc, ptrs, out, cap, want, shape, size: res.size, outDtype };
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
  if (o.strides !== null) copyView(o.data, o.lo, [o.span], null, view(o.dtype), o.ptr / o.dtype.size - (o.offset - o.lo), null); // the elements it spans
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
  return resultAt(shape, res.size, out, dest, outDtype);
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
  const size = res.size;
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
  const r = resultAt(shape, res.size, out, c.dest, c.outDtype);
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

// The wire codec: writing a request (header + body, bindings/wasm/wire.hpp)
// into the engine's request buffer and reading its response. Field positions
// come from the contract (C.REQ, C.RESP), never from literals here.
//
// Callers take a snapshot of every user value first (shapes.js, operands.js,
// options.js): from the first write of a request to the end of its call, no
// user code runs, so nothing can move the buffers or change the request.
import { C, none } from './contract.js';
import { UNKNOWN_RANK, INTERVAL } from './shapes.js';
import { FULL } from './engine.js';

let reqPtr = 0; // request buffer start, in doubles
let reqCap = 0;
let M = null;
// The hot exports are taken once, and the heap view is kept and replaced when
// memory growth detaches it (its length becomes 0).
let tcCall = null;
let tcRequest = null;
/** The full engine's tc_rerun_binary (execute.js runBinary); null in tensorcast/shapes. */
export let rerunBinary = null;
let f64 = new Float64Array(none);

export function refreshRequest(module) {
  M = module;
  layout();
  reqCap = 4096;
  // Each export is tried once (a module that only looks like the engine fails here, in install()).
  reqPtr = M._tc_request(reqCap) >>> 3;
  M._tc_call(0); // an empty request: answered with a refusal, changes nothing
  tcRequest = M._tc_request;
  tcCall = M._tc_call;
  // The full build's engine has it (tensorcast/shapes' has not): a constant the minifier folds.
  rerunBinary = FULL ? M._tc_rerun_binary : null;
  if (FULL) rerunBinary(-1, 0, 0, 0, 0, 0, 0); // no plan -1: answered 1, changes nothing
}

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
export let dataHeader = null;
/**
 * The request of a two-operand element-wise call: its header (every field: the
 * engine keys its plan cache on some it does not use here), then the two
 * static shapes: binaryRequest(h, rule, axis, op, dtype, in0, in1, out,
 * capacity, sa, sb). Returns the heap index past its end.
 */
export let binaryRequest = null;
/** Point the request at another result buffer (after an outTooSmall answer): setOut(h, out, capacity). */
export let setOut = null;

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
export function recall(len) {
  const rp = tcCall(len) >>> 3;
  return RESPONSE.at(heapF64(), rp);
}

export function requestLength(end) {
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
    for (let i = 0; i < rank; i++) out[i] = this.dim();
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

// WebAssembly memory: allocation, scratch slots and typed views.
//
// Views are taken from the module at the point of use and never kept across a
// call that may allocate: memory growth replaces the buffer (loader.js's host()
// then replaces M.HEAPU8, which is how view() notices).
import { mod } from './loader.js';
import { C, none } from './contract.js';
import { BroadcastError } from './errors.js';
import { isU16 } from './shapes.js';

let viewHeap = new Uint8Array(none);
let views = [];

/**
 * A typed view of the whole heap for dtype `d` (a C.dtypes entry). The views
 * are kept until memory growth detaches them (a detached view's length is 0). The
 * fast path is two loads, small enough for V8 to inline into every caller.
 */
export function view(d) {
  const v = views[d.id];
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
export function copyIn(d, data, off, n) {
  if (n > SMALL || !d.loop) {
    if (n > 0) (d.half ? viewFor(d, data) : view(d)).set(data, off);
    return;
  }
  const v = view(d);
  for (let i = 0; i < n; i++) v[off + i] = data[i];
}

/** A new typed array of dtype `d` holding the `n` heap elements from element `off`. */
export function copyOut(d, off, n) {
  if (n > SMALL || !d.loop) return heapCopy(d, off, n);
  const v = view(d);
  const r = new d.ctor(n);
  for (let i = 0; i < n; i++) r[i] = v[off + i];
  return r;
}

function freshView(d) {
  if (viewHeap.length === 0) {
    viewHeap = mod().HEAPU8;
    views = new Array(C.dtypes.length).fill(null);
  }
  return (views[d.id] = new d.ctor(viewHeap.buffer));
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
  const p = mod()._tc_malloc(bytes || 1) >>> 0; // an empty result's block too: an address, never 0
  if (p === 0) {
    throw new BroadcastError(`cannot allocate ${bytes} bytes in WebAssembly memory`, { code: 'TOO_LARGE' });
  }
  return p;
}

export function free(p) {
  if (p) mod()._tc_free(p);
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
export const DESC_SLOT = SLOTS - 1;
/** The slot of a call's result when it goes to a typed array (execute.js; stream.js its chunks). */
export const OUT_SLOT = 7;
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

export function slotBytes(k) {
  return slots[k].bytes;
}

/** Changes whenever slot k's memory is allocated or freed: while it is the same, so is what the slot holds. */
export function slotMade(k) {
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
export function trimScratch() {
  if (large !== 0) freeSlots(KEEP);
}

/** Free every scratch slot now. */
export function releaseScratch() {
  freeSlots(-1);
}

export function scratchInUse() {
  return scratchBytes;
}

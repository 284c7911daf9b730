// The reduction sets (issue 13): the float64 reference, the correctness check,
// the plain-JS control loop and the "read the bytes once" reference, a wasm
// SIMD load loop. Environment-neutral (used by bench/lib/set.mjs in Node and
// by bench/browser/groups.mjs in Node and Chromium).

const numel = (s) => s.reduce((p, d) => p * d, 1);

/** Output strides per input axis (0 on a reduced axis) and the output size. */
function plan(shape, axes) {
  const r = shape.length;
  const red = shape.map((_, i) => axes === null || axes.includes(i));
  const ostr = new Array(r).fill(0);
  let n = 1;
  for (let i = r - 1; i >= 0; i--) {
    if (!red[i]) {
      ostr[i] = n;
      n *= shape[i];
    }
  }
  return { ostr, outN: n };
}

/**
 * acc[o] += x[i] (or |x[i]|) over the reduction of `shape` over `axes` (null:
 * all); acc is zeroed by the caller. The innermost axis runs in a plain loop
 * (a scalar sum when it is reduced, a vector add when it is kept), the others
 * in an odometer.
 */
function accumulate(x, shape, axes, acc, abs = false) {
  const r = shape.length;
  const { ostr } = plan(shape, axes);
  const inner = shape[r - 1];
  const innerRed = ostr[r - 1] === 0;
  const outer = x.length / inner;
  const idx = new Array(r).fill(0);
  let base = 0;
  for (let o = 0, p = 0; o < outer; o++, p += inner) {
    if (innerRed) {
      let s0 = 0;
      let s1 = 0;
      let j = 0;
      if (abs) for (; j < inner; j++) s0 += Math.abs(x[p + j]);
      else {
        for (; j + 1 < inner; j += 2) {
          s0 += x[p + j];
          s1 += x[p + j + 1];
        }
        for (; j < inner; j++) s0 += x[p + j];
      }
      acc[base] += s0 + s1;
    } else if (abs) {
      for (let j = 0; j < inner; j++) acc[base + j] += Math.abs(x[p + j]);
    } else {
      for (let j = 0; j < inner; j++) acc[base + j] += x[p + j];
    }
    for (let k = r - 2; k >= 0; k--) {
      idx[k]++;
      base += ostr[k];
      if (idx[k] < shape[k]) break;
      base -= ostr[k] * shape[k];
      idx[k] = 0;
    }
  }
}

/** The plain-JS control: float64 accumulators, the result rounded into `out` (a Float32Array, fresh if absent). */
export function plainReduce(x, shape, axes, out, scratch) {
  const n = plan(shape, axes).outN;
  const acc = scratch || new Float64Array(n);
  acc.fill(0);
  accumulate(x, shape, axes, acc);
  const o = out || new Float32Array(n);
  for (let i = 0; i < n; i++) o[i] = acc[i];
  return o;
}

const refCache = new WeakMap();
/** { sum, abs }: float64 sums and sums of magnitudes per output element. */
export function reduceReference(w, x) {
  let r = refCache.get(x);
  if (r && r.w === w) return r;
  const n = plan(w.x, w.axes).outN;
  const sum = new Float64Array(n);
  const abs = new Float64Array(n);
  accumulate(x, w.x, w.axes, sum);
  accumulate(x, w.x, w.axes, abs, true);
  r = { w, sum, abs };
  refCache.set(x, r);
  return r;
}

/**
 * null, or the first output element off the float64 reference by more than
 * 2e-6 of the sum of magnitudes it adds (float32 accumulation in any order:
 * a naive loop over 2^20 elements errs by ~1e-7 of it on these inputs; one
 * element missing or counted twice is ~1e-6 of it on average).
 */
export function checkReduce(w, x, got) {
  const ref = reduceReference(w, x);
  const n = ref.sum.length;
  if (!got || typeof got.length !== 'number') return `no output (${Object.prototype.toString.call(got)})`;
  if (got.length !== n) return `output has ${got.length} elements, expected ${n}`;
  for (let i = 0; i < n; i++) {
    const tol = 2e-6 * ref.abs[i] + 1e-6;
    const err = Math.abs(got[i] - ref.sum[i]);
    if (!(err <= tol)) return `element ${i}: got ${got[i]}, expected ${ref.sum[i]} (±${tol.toPrecision(2)})`;
  }
  return null;
}

// ---- "read the bytes once": a wasm SIMD128 load loop ---------------------------
// Every 16-byte vector of the input is loaded once (v128.load) and added into
// one of four f32x4 accumulators (f32x4.add), 64 bytes a step; the
// accumulators are summed and returned, so no load can be dropped. This is the
// least a reduction must do: read its input once.
// (module
//   (import "m" "mem" (memory 1))
//   (func (export "vsum") (param $src i32) (param $n i32) (result f32)
//     (local $end i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
//     (local.set $end (i32.add (local.get $src) (local.get $n)))
//     (block (loop
//       (br_if 1 (i32.ge_u (local.get $src) (local.get $end)))
//       (local.set $a0 (f32x4.add (local.get $a0) (v128.load offset=0 (local.get $src))))   ;; a1..a3 at 16, 32, 48
//       (local.set $src (i32.add (local.get $src) (i32.const 64)))
//       (br 0)))
//     (local.set $a0 (f32x4.add (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (local.get $a2)) (local.get $a3)))
//     (f32.add (f32.add (f32.add (f32x4.extract_lane 0 $a0) (lane 1)) (lane 2)) (lane 3))))
/** An unsigned LEB128 encoding of n (wasm's sizes and indices), as a list of bytes. */
export function leb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
const LOAD_BODY = [
  0x02, 0x01, 0x7f, 0x04, 0x7b, // locals: one i32 ($end, 2), four v128 ($a0..$a3, 3..6)
  0x20, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x02, // end = src + n
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x00, 0x20, 0x02, 0x4f, 0x0d, 0x01, // br_if 1 (src >= end)
  ...[0, 1, 2, 3].flatMap((k) => [0x20, 3 + k, 0x20, 0x00, 0xfd, 0x00, 0x04, 16 * k, 0xfd, 0xe4, 0x01, 0x21, 3 + k]),
  0x20, 0x00, 0x41, 0xc0, 0x00, 0x6a, 0x21, 0x00, // src += 64
  0x0c, 0x00, 0x0b, 0x0b, // br 0, end loop, end block
  0x20, 0x03, 0x20, 0x04, 0xfd, 0xe4, 0x01, 0x20, 0x05, 0xfd, 0xe4, 0x01, 0x20, 0x06, 0xfd, 0xe4, 0x01, 0x21, 0x03,
  0x20, 0x03, 0xfd, 0x1f, 0x00, 0x20, 0x03, 0xfd, 0x1f, 0x01, 0x92, 0x20, 0x03, 0xfd, 0x1f, 0x02, 0x92, 0x20, 0x03, 0xfd, 0x1f, 0x03, 0x92,
  0x0b, // end func
];
const LOAD_WASM = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7d, // type (i32, i32) -> f32
  0x02, 0x0a, 0x01, 0x01, 0x6d, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01, // import "m" "mem"
  0x03, 0x02, 0x01, 0x00, // one function
  0x07, 0x08, 0x01, 0x04, 0x76, 0x73, 0x75, 0x6d, 0x00, 0x00, // export "vsum"
  0x0a, ...leb(LOAD_BODY.length + 1 + leb(LOAD_BODY.length).length), 0x01, ...leb(LOAD_BODY.length), ...LOAD_BODY,
]);
let loadMod = null;

/**
 * The load loop over a copy of `x` (a Float32Array) in its own wasm memory.
 * Returns { bytes, fn(): the f32 sum of the bytes read, verify(): true when
 * the loop read every element }.
 */
export function makeLoadLoop(x) {
  const bytes = Math.ceil(x.byteLength / 64) * 64;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((bytes + 65536) / 65536) });
  if (!loadMod) loadMod = new WebAssembly.Module(LOAD_WASM);
  const { vsum } = new WebAssembly.Instance(loadMod, { m: { mem: memory } }).exports;
  const view = new Float32Array(memory.buffer, 0, bytes / 4);
  return {
    bytes,
    fn: () => vsum(0, bytes),
    verify() {
      // All ones: the sum counts the elements read.
      view.fill(1);
      const n = vsum(0, bytes);
      view.fill(0);
      view.set(x);
      return n === bytes / 4;
    },
  };
}

/**
 * tfjs's side of a reduction set: tf.sum over w.axes (unbroadcast: with
 * keepDims, then reshaped to the input's shape), the result read with
 * dataSync (a copy out of the wasm heap), every tensor it made disposed.
 */
export function tfSumOnce(tf, w) {
  const unb = w.op === 'unbroadcast';
  return (t) => {
    const r = tf.sum(t, w.axes, unb);
    const y = unb ? tf.reshape(r, w.out) : r;
    const d = y.dataSync();
    if (y !== r) y.dispose();
    r.dispose();
    return d;
  };
}

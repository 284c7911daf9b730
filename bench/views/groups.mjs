// The strided-view rows (bench/views.mjs), the same code in Node and in a
// headless Chromium page. Environment-neutral: the caller passes the
// tensorcast module (`tc`, after init()), TensorFlow.js on its wasm backend
// (`tf`, or null) and `where` ('node' or 'chromium': tfjs reads pixels with
// tf.tensor3d in Node, tf.browser.fromPixels(ImageData) in the page).
//
// Groups:
//   pre-224, pre-512  RGBA Uint8ClampedArray [H,W,4] → float32 [1,3,H,W],
//                     (x/255 - mean[c]) / std[c]: one evaluate over the view
//                     expandDims(transpose(slice(x, :, :, 0:3), [2,0,1]), 0)
//                     (a new array; a typed out), the plain-JS loop (a typed
//                     out; a new array), tfjs-wasm's chain (dataSync)
//   tadd              resident float32 [1024,1024]: add(transpose(a), b)
//                     against add(a, b) (fresh resident results, disposed; and
//                     into a resident out), contiguous(transpose(a)),
//                     contiguous(a) (the copy: the memory-traffic yardstick),
//                     plain-JS loops, tfjs-wasm for context, and the limit
//                     (bench/limit/fused.cpp: a hand-written SIMD128 add and
//                     transposed add, when views.mjs could build it)
//   rows              short rows: float32 [N,3] + [3], [N,4] + [4], [N,3] +
//                     [N,1], a transposed [3,N] view + [N,3], N = 200,704, resident
//                     into out; the plain-JS loop and tfjs-wasm for context
//   manyrows          reductions along many short rows (a 224x224 image's
//                     pixels, N = 50,176): sum over [N,3] as an expression
//                     (sum(x * 2, [1])) and as the op, softmax over [N,21] as
//                     the op and as a program, layer norm over [4096,64] as
//                     one expression; argmax over [N,3], [N,21] and axis 0
//                     of [21,N]; resident; tfjs-wasm for context
//   small             add of [3,1] and [1,4] float32: typed arrays (a fresh
//                     array out), resident operands (a resident out; a fresh
//                     resident result, disposed): per-call cost, before/after
//
// Every case is checked against a JS reference before it is timed: a wrong
// tensorcast result throws (the group fails and says why); tfjs's agreement is
// recorded in `checks`. A group whose functions the build lacks returns
// { skipped } (an older dist: no transpose, slice, ...).
import { measureWall, median, medianRatio } from '../lib/wall.mjs';
import { fusedLimit, instantiateLimit } from '../limit/fused.mjs';

export const VIEW_GROUPS = ['pre-224', 'pre-512', 'tadd', 'rows', 'manyrows', 'small', 'unary', 'post-32x1000', 'post-8x32000', 'layernorm'];

/** What each group needs of the build. */
export const NEEDS = {
  'pre-224': ['evaluate', 'slice', 'transpose', 'expandDims'],
  'pre-512': ['evaluate', 'slice', 'transpose', 'expandDims'],
  tadd: ['tensor', 'add', 'transpose', 'contiguous'],
  rows: ['tensor', 'add', 'transpose'],
  manyrows: ['tensor', 'evaluate', 'compile', 'softmax', 'sum', 'argmax'],
  small: ['tensor', 'add'],
  unary: ['tensor', 'exp', 'log', 'tanh'],
  'post-32x1000': ['tensor', 'softmax', 'argmax', 'topk'],
  'post-8x32000': ['tensor', 'softmax', 'argmax', 'topk'],
  layernorm: ['tensor', 'evaluate', 'mean'],
};

/** The groups that time tfjs-wasm (the others do not load it). */
export const USES_TF = new Set(['pre-224', 'pre-512', 'tadd', 'rows', 'manyrows', 'unary', 'post-32x1000', 'post-8x32000', 'layernorm']);

/** Per group: the unit of its table, timing options, and the ratios [id, numerator, denominator, target or null, note]. */
export const SPEC = {
  pre: {
    unit: 'ms', timing: { runs: 11, warmupMs: 400, batchMs: 30 },
    ratios: [
      ['tc-out/js-out', 'tc-out', 'js-out', 1.0, 'evaluate into out ÷ JS loop into a preallocated array'],
      ['tc-new/js-new', 'tc-new', 'js-new', 1.0, 'evaluate, new array ÷ JS loop, new array'],
      ['tc-new/tf', 'tc-new', 'tf', 0.3, 'evaluate, new array ÷ tfjs-wasm (its reading of pixels in this environment)'],
      ['tc-out/tf', 'tc-out', 'tf', 0.3, 'evaluate into out ÷ tfjs-wasm'],
      ['tc-new/new-floor', 'tc-new', 'new-floor', null, 'evaluate, new array ÷ the floor of any new-array row (a new Float32Array filled by set)'],
      ['new-floor/tf', 'new-floor', 'tf', null, 'that floor ÷ tfjs-wasm: no new-array row can go below this ratio'],
    ],
  },
  tadd: {
    unit: 'µs', timing: { runs: 11, warmupMs: 400, batchMs: 30, shuffle: true }, // 12 MB a case: no fixed neighbour (bench/lib/wall.mjs)
    ratios: [
      ['tadd/add', 'tc-tadd', 'tc-add', 1.5, 'add(transpose(a), b) ÷ add(a, b), fresh resident results'],
      ['tadd-view/add', 'tc-tadd-view', 'tc-add', null, 'the same with the view made once'],
      ['tadd-out/add-out', 'tc-tadd-out', 'tc-add-out', null, 'both into a resident out'],
      ['tadd/copy', 'tc-tadd', 'tc-copy', null, 'add(transpose(a), b) ÷ contiguous(a)'],
      ['add/copy', 'tc-add', 'tc-copy', null, 'add(a, b) ÷ contiguous(a)'],
      ['copy-t/copy', 'tc-copy-t', 'tc-copy', null, 'contiguous(transpose(a)) ÷ contiguous(a)'],
      ['tadd/js-tadd', 'tc-tadd', 'js-tadd', null, 'add(transpose(a), b) ÷ the plain-JS transposed loop'],
      ['tadd/tf-tadd', 'tc-tadd', 'tf-tadd', null, 'add(transpose(a), b) ÷ tfjs-wasm add(transpose(a), b)'],
      ['lim-tadd/lim-add', 'lim-tadd', 'lim-add', null, 'the limit: a hand-written SIMD128 transposed add ÷ its plain add (bench/limit/fused.cpp), the least this ratio can be here'],
      ['tadd-out/lim-tadd', 'tc-tadd-out', 'lim-tadd', null, 'add(at, b, { out }) ÷ the limit\'s transposed add'],
      ['add-out/lim-add', 'tc-add-out', 'lim-add', null, 'add(a, b, { out }) ÷ the limit\'s add'],
    ],
  },
  unary: {
    unit: 'ms', timing: { runs: 11, warmupMs: 400, batchMs: 40 },
    ratios: [
      ['exp/tf', 'tc-exp', 'tf-exp', 0.5, 'exp ÷ tfjs-wasm tf.exp'],
      ['log/tf', 'tc-log', 'tf-log', 0.5, 'log ÷ tfjs-wasm tf.log'],
      ['tanh/tf', 'tc-tanh', 'tf-tanh', 0.5, 'tanh ÷ tfjs-wasm tf.tanh'],
      ['exp/js', 'tc-exp', 'js-exp', null, 'exp ÷ the plain-JS Math.exp loop'],
      ['expr-exp/exp', 'tc-expr-exp', 'tc-exp', null, 'exp(x - 1) * 2 as one expression ÷ exp alone'],
      ['expr-exp/ops', 'tc-expr-exp', 'tc-ops-exp', null, 'exp(x - 1) * 2 as one expression ÷ sub, exp, mul one by one'],
      ['expr-sigmoid/sigmoid', 'tc-expr-sigmoid', 'tc-sigmoid', null, '1 / (1 + exp(-x)) as one expression ÷ the sigmoid op'],
      ['expr-bce/log', 'tc-expr-bce', 'tc-log', null, 'a cross-entropy\'s terms (two logs) as one expression ÷ log alone'],
      ['expr-bce/ops', 'tc-expr-bce', 'tc-ops-bce', null, 'the cross-entropy as one expression ÷ its ops one by one'],
      ['expr-log/log', 'tc-expr-log', 'tc-log', null, 'log(p) * 2 - 1 as one expression ÷ log alone'],
    ],
  },
  post: {
    unit: 'µs', timing: { runs: 11, warmupMs: 400, batchMs: 30 },
    ratios: [
      ['softmax/tf', 'tc-softmax', 'tf-softmax', 1.0, 'softmax, typed array in and out ÷ tfjs-wasm tf.softmax (tensor in, dataSync)'],
      ['softmax-out/exp-out', 'tc-softmax-out', 'tc-exp-out', 1.3, 'softmax, resident into out ÷ exp, resident into out'],
      ['softmax-prog/softmax-out', 'tc-softmax-prog', 'tc-softmax-out', null, 'softmax written as a program (statements), resident into out ÷ the softmax op, resident into out'],
      ['softmax/js', 'tc-softmax', 'js-softmax', null, 'softmax, typed array in and out ÷ the plain-JS loop'],
      ['softmax/new-floor', 'tc-softmax', 'new-floor', null, 'softmax, typed array in and out ÷ the floor of any new-array row (a new Float32Array filled by set)'],
      ['new-floor/tf', 'new-floor', 'tf-softmax', null, 'that floor ÷ tfjs-wasm tf.softmax (its dataSync makes a new array too)'],
      ['argmax/tf', 'tc-argmax', 'tf-argmax', 1.0, 'argmax along the last axis, resident ÷ tfjs-wasm tf.argMax'],
      ['topk/tf', 'tc-topk', 'tf-topk', 1.0, 'top-5 along the last axis, resident ÷ tfjs-wasm tf.topk'],
    ],
  },
  layernorm: {
    unit: 'µs', timing: { runs: 11, warmupMs: 400, batchMs: 30 },
    ratios: [
      ['ln/tf', 'tc-ln', 'tf-ln', 0.5, 'layer norm as one expression ÷ tfjs-wasm op by op (tf.moments, sub, div, mul, add)'],
      ['ln-stmt/tf', 'tc-ln-stmt', 'tf-ln', null, 'the same written as statements ÷ tfjs-wasm'],
      ['ln/ops', 'tc-ln', 'tc-ln-ops', null, 'one expression ÷ tensorcast op by op'],
      ['ln/js', 'tc-ln', 'js-ln', null, 'one expression ÷ the plain-JS loop'],
    ],
  },
  rows: {
    unit: 'µs', timing: { runs: 11, warmupMs: 300, batchMs: 30 },
    ratios: [
      ['rows3/rows4', 'tc-rows3', 'tc-rows4', null, '[N,3] + [3] ÷ [N,4] + [4] (a third fewer elements)'],
      ['rows3/js', 'tc-rows3', 'js-rows3', null, '[N,3] + [3] ÷ the plain-JS loop'],
      ['rows3/tf', 'tc-rows3', 'tf-rows3', null, '[N,3] + [3] ÷ tfjs-wasm'],
      ['t3/rows3', 'tc-t3', 'tc-rows3', null, 'the transposed [3,N] view + [N,3] ÷ [N,3] + [3]'],
      ['col3/rows3', 'tc-col3', 'tc-rows3', null, '[N,3] + [N,1] (a column) ÷ [N,3] + [3]'],
    ],
  },
  manyrows: {
    unit: 'µs', timing: { runs: 11, warmupMs: 300, batchMs: 30 },
    ratios: [
      ['expr-sum3/sum3', 'tc-expr-sum3', 'tc-sum3', null, 'sum(x * 2, [1]) over [N,3] as one expression ÷ the sum op over [N,3] (x alone)'],
      ['sum3/js', 'tc-sum3', 'js-sum3', null, 'the sum op over [N,3] ÷ the plain-JS loop'],
      ['sum3/tf', 'tc-sum3', 'tf-sum3', null, 'the sum op over [N,3] ÷ tfjs-wasm tf.sum(x, 1)'],
      ['prog21/softmax21', 'tc-prog21', 'tc-softmax21', null, 'softmax over [N,21] as a program ÷ the softmax op'],
      ['softmax21/tf', 'tc-softmax21', 'tf-softmax21', null, 'the softmax op over [N,21] ÷ tfjs-wasm tf.softmax'],
      ['ln64/tf', 'tc-ln64', 'tf-ln64', null, 'layer norm over [4096,64] as one expression ÷ tfjs-wasm op by op'],
      ['argmax3/tf', 'tc-argmax3', 'tf-argmax3', null, 'argmax over the last axis of [N,3] ÷ tfjs-wasm tf.argMax'],
      ['argmax21/tf', 'tc-argmax21', 'tf-argmax21', null, 'argmax over the last axis of [N,21] ÷ tfjs-wasm tf.argMax'],
      ['argmaxc/tf', 'tc-argmaxc', 'tf-argmaxc', null, 'argmax over axis 0 of [21,N] (channels first) ÷ tfjs-wasm tf.argMax'],
    ],
  },
  small: {
    unit: 'ns', timing: { runs: 15, warmupMs: 300, batchMs: 15 },
    ratios: [
      ['e2e/control', 'tc-e2e', 'control', null, 'typed arrays ÷ the plain-JS control'],
      ['res/control', 'tc-res', 'control', null, 'resident, out ÷ the plain-JS control'],
    ],
  },
};
export const specOf = (group) => SPEC[group.startsWith('pre-') ? 'pre' : group.startsWith('post-') ? 'post' : group];

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
export const PRE_EXPR = "(cast(x, 'float32') / 255 - m) / s";

/** Deterministic RGBA pixels, alpha 255. */
export function makePixels(H, W) {
  const px = new Uint8ClampedArray(H * W * 4);
  let s = 0x9e3779b9 | 0;
  for (let i = 0; i < H * W; i++) {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    px[i * 4] = s & 255;
    px[i * 4 + 1] = (s >>> 8) & 255;
    px[i * 4 + 2] = (s >>> 16) & 255;
    px[i * 4 + 3] = 255;
  }
  return px;
}

/** The obvious loop, into `out` (float64 arithmetic, rounded on store). */
export function preLoop(px, HW, out, mean = MEAN, std = STD) {
  for (let c = 0; c < 3; c++) {
    const m = mean[c];
    const s = std[c];
    const o = c * HW;
    for (let i = 0; i < HW; i++) out[o + i] = (px[i * 4 + c] / 255 - m) / s;
  }
  return out;
}

/** The same, each op rounded to float32 with float32 mean/std: what the library (and tfjs) promise, bit for bit. */
function preRef32(px, HW, mean32, std32) {
  const f = Math.fround;
  const out = new Float32Array(3 * HW);
  for (let c = 0; c < 3; c++) for (let i = 0; i < HW; i++) out[c * HW + i] = f(f(f(px[i * 4 + c]) / 255) - mean32[c]) / std32[c];
  return out;
}

/** { maxAbs, maxRel (relative to max(|ref|, 1)), differing (not bit-equal), n }. */
function compare(got, ref) {
  let maxAbs = 0;
  let maxRel = 0;
  let differing = 0;
  let firstAt = -1;
  if (got.length !== ref.length) return { n: ref.length, lengthMismatch: [got.length, ref.length] };
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i] - ref[i]);
    if (!(got[i] === ref[i])) { differing++; if (firstAt < 0) firstAt = i; }
    if (!(d <= maxAbs)) maxAbs = d; // NaN sticks
    const r = d / Math.max(Math.abs(ref[i]), 1);
    if (!(r <= maxRel)) maxRel = r;
  }
  return { n: ref.length, maxAbs, maxRel, differing, ...(firstAt >= 0 ? { first: { at: firstAt, got: got[firstAt], want: ref[firstAt] } } : {}) };
}

const TOL = 1e-6;
const ok = (c) => !c.lengthMismatch && c.maxRel <= TOL;

/** The plain-JS control of every group: [3,1]+[1,4] into a preallocated array, no allocation. */
function control() {
  const a = new Float32Array([1, 2, 3]);
  const b = new Float32Array([10, 20, 30, 40]);
  const out = new Float32Array(12);
  return {
    id: 'control', label: 'plain-JS control ([3,1]+[1,4] loop, no allocation)',
    fn: () => { for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) out[i * 4 + j] = a[i] + b[j]; return out; },
  };
}

function preGroup(size, { tc, tf, where }, checks) {
  const H = size;
  const W = size;
  const HW = H * W;
  const px = makePixels(H, W);
  const mean32 = Float32Array.from(MEAN);
  const std32 = Float32Array.from(STD);
  const m = { data: mean32, shape: [1, 3, 1, 1] };
  const s = { data: std32, shape: [1, 3, 1, 1] };
  const view = () => tc.expandDims(tc.transpose(tc.slice({ data: px, shape: [H, W, 4] }, null, null, [0, 3]), [2, 0, 1]), 0);
  const tcOut = new Float32Array(3 * HW);
  const outOpt = { out: tcOut };
  const tcNew = () => tc.evaluate(PRE_EXPR, { x: view(), m, s }).data;
  const tcInto = () => tc.evaluate(PRE_EXPR, { x: view(), m, s }, outOpt).data;
  const jsOut = new Float32Array(3 * HW);
  const jsInto = () => preLoop(px, HW, jsOut);
  const jsNew = () => preLoop(px, HW, new Float32Array(3 * HW));
  // The floor of every "new array" row: a fresh result-sized Float32Array, each
  // element written once (by set() from a ready array, no arithmetic). Where
  // the allocator maps a large buffer afresh on each call, the first write of
  // each page is what this times.
  const ready = new Float32Array(3 * HW).fill(0.5);
  const newFloor = () => { const f = new Float32Array(3 * HW); f.set(ready); return f; };

  const loopRef = jsNew();
  const ref32 = preRef32(px, HW, mean32, std32);
  const v = view();
  checks.view = { shape: v.shape, strides: v.strides, offset: v.offset };
  const r = tc.evaluate(PRE_EXPR, { x: v, m, s });
  if (r.shape.join() !== [1, 3, H, W].join() || r.dtype !== 'float32') throw new Error(`tensorcast preprocessing: result ${r.dtype} [${r.shape}], want float32 [1,3,${H},${W}]`);
  const cases = [control()];
  for (const [id, fn, label] of [
    ['tc-new', tcNew, 'tensorcast: one evaluate over the view, a new array'],
    ['tc-out', tcInto, 'tensorcast: one evaluate over the view, into a typed out'],
  ]) {
    const got = fn();
    const vsLoop = compare(got, loopRef);
    const vsRef32 = compare(got, ref32);
    checks[id] = { vsLoop, vsRef32, ok: ok(vsLoop) };
    if (!ok(vsLoop)) throw new Error(`tensorcast ${id} differs from the JS loop beyond ${TOL} relative: ${JSON.stringify(vsLoop)}`);
    cases.push({ id, label, fn });
  }
  cases.push({ id: 'js-out', label: 'plain-JS loop into a preallocated Float32Array', fn: jsInto });
  cases.push({ id: 'js-new', label: 'plain-JS loop, a new Float32Array', fn: jsNew });
  cases.push({ id: 'new-floor', label: 'the floor of a new array: new Float32Array(3·H·W), then set() from a ready one', fn: newFloor });
  checks['js-out'] = { vsRef32: compare(jsInto(), ref32) };
  if (tf) {
    const tm = tf.tensor1d(mean32, 'float32');
    const ts = tf.tensor1d(std32, 'float32');
    const chain = (rgb) => tf.expandDims(tf.transpose(tf.div(tf.sub(tf.div(tf.cast(rgb, 'float32'), 255), tm), ts), [2, 0, 1]), 0);
    const readT3 = () => tf.slice(tf.tensor3d(px, [H, W, 4], 'int32'), [0, 0, 0], [H, W, 3]);
    const viaTensor3d = () => {
      const t = tf.tidy(() => chain(readT3()));
      const d = t.dataSync();
      t.dispose();
      return d;
    };
    // fromPixels: ImageData in a page; in Node its { data: Uint8Array, width, height } form (a Uint8Array over the same bytes).
    const pixelsArg = where === 'chromium' ? () => new ImageData(px, W, H) : () => ({ data: new Uint8Array(px.buffer, px.byteOffset, px.length), width: W, height: H });
    const viaFromPixels = () => {
      const t = tf.tidy(() => chain(tf.browser.fromPixels(pixelsArg(), 3)));
      const d = t.dataSync();
      t.dispose();
      return d;
    };
    const main = where === 'chromium' ? viaFromPixels : viaTensor3d;
    const other = where === 'chromium' ? viaTensor3d : viaFromPixels;
    const t3 = "tf.tensor3d(pixels, [H,W,4], 'int32'), slice off alpha";
    const fp = where === 'chromium' ? 'tf.browser.fromPixels(new ImageData(pixels, W, H))' : 'tf.browser.fromPixels({ data: Uint8Array over the pixels, width, height })';
    const mainLabel = where === 'chromium' ? fp : t3;
    const otherLabel = where === 'chromium' ? t3 : fp;
    for (const [id, fn, label] of [['tf', main, mainLabel], ['tf-alt', other, otherLabel]]) {
      let c;
      try {
        const got = fn();
        c = { vsLoop: compare(got, loopRef), vsRef32: compare(got, ref32) };
        c.ok = ok(c.vsLoop);
      } catch (e) {
        checks[id] = { error: String(e.message || e) };
        continue;
      }
      checks[id] = c;
      cases.push({ id, label: `tfjs-wasm: ${label}, then the chain${id === 'tf' ? ' (the target\'s yardstick)' : ''}`, fn });
    }
  }
  return cases;
}

function taddGroup({ tc, tf, limit }, checks) {
  const N = 1024;
  const A = new Float32Array(N * N);
  const B = new Float32Array(N * N);
  for (let i = 0; i < A.length; i++) { A[i] = ((i * 7919) % 1000) / 8; B[i] = ((i * 104729) % 997) / 16; }
  const a = tc.tensor(A, [N, N]);
  const b = tc.tensor(B, [N, N]);
  const at = tc.transpose(a);
  const tout = tc.tensor(new Float32Array(N * N), [N, N]);
  const outOpt = { out: tout };
  const refT = new Float32Array(N * N);
  const refAdd = new Float32Array(N * N);
  const refTr = new Float32Array(N * N);
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) { refT[i * N + j] = A[j * N + i] + B[i * N + j]; refAdd[i * N + j] = A[i * N + j] + B[i * N + j]; refTr[i * N + j] = A[j * N + i]; }
  const cases = [control()];
  const res = (fn) => () => { const r = fn(); const d = r.toArray(); r.dispose(); return d; };
  const defs = [
    ['tc-tadd', () => { const t = tc.transpose(a); const r = tc.add(t, b); r.dispose(); t.dispose(); return r; },
      res(() => { const t = tc.transpose(a); const r = tc.add(t, b); t.dispose(); return r; }), refT, 'tensorcast add(transpose(a), b): view made per call, fresh resident result, disposed'],
    ['tc-tadd-view', () => { const r = tc.add(at, b); r.dispose(); return r; }, res(() => tc.add(at, b)), refT, 'tensorcast add(at, b), at = transpose(a) made once, fresh resident result, disposed'],
    ['tc-add', () => { const r = tc.add(a, b); r.dispose(); return r; }, res(() => tc.add(a, b)), refAdd, 'tensorcast add(a, b), fresh resident result, disposed'],
    ['tc-tadd-out', () => tc.add(at, b, outOpt), () => { tc.add(at, b, outOpt); return tout.toArray(); }, refT, 'tensorcast add(at, b, { out }) (resident out)'],
    ['tc-add-out', () => tc.add(a, b, outOpt), () => { tc.add(a, b, outOpt); return tout.toArray(); }, refAdd, 'tensorcast add(a, b, { out }) (resident out)'],
    ['tc-copy-t', () => { const t = tc.transpose(a); const r = tc.contiguous(t); r.dispose(); t.dispose(); return r; },
      res(() => { const t = tc.transpose(a); const r = tc.contiguous(t); t.dispose(); return r; }), refTr, 'tensorcast contiguous(transpose(a)), disposed'],
    ['tc-copy', () => { const r = tc.contiguous(a); r.dispose(); return r; }, res(() => tc.contiguous(a)), A, 'tensorcast contiguous(a): a copy of 4 MiB, the memory-traffic yardstick'],
  ];
  for (const [id, fn, read, ref, label] of defs) {
    const c = compare(read(), ref);
    checks[id] = { ...c, ok: c.differing === 0 };
    if (c.differing !== 0) throw new Error(`tensorcast ${id} is wrong: ${JSON.stringify(c)}`);
    cases.push({ id, label, fn });
  }
  const jo = new Float32Array(N * N);
  const jsT = () => {
    for (let i = 0; i < N; i++) { const r = i * N; for (let j = 0; j < N; j++) jo[r + j] = A[j * N + i] + B[r + j]; }
    return jo;
  };
  const jsAdd = () => { for (let i = 0; i < jo.length; i++) jo[i] = A[i] + B[i]; return jo; };
  checks['js-tadd'] = compare(jsT(), refT);
  cases.push({ id: 'js-tadd', label: 'plain-JS transposed add loop, preallocated out', fn: jsT });
  cases.push({ id: 'js-add', label: 'plain-JS add loop, preallocated out', fn: jsAdd });
  if (limit) { // the limit (bench/limit/fused.cpp): the same data in its own memory
    const L = fusedLimit(limit);
    const pa = L.put(A), pb = L.put(B), po = L.zeros(N * N);
    const ex = L.exports;
    for (const [id, fn, ref, label] of [
      ['lim-add', () => ex.add(pa, pb, po, N * N), refAdd, 'the limit: a SIMD128 add loop (bench/limit/fused.cpp), own memory'],
      ['lim-tadd', () => ex.tadd(pa, pb, po, N, 32, 256), refT, 'the limit: a SIMD128 transposed add, 32x256 blocks transposed into a buffer (4x4 in registers), then added (bench/limit/fused.cpp)'],
    ]) {
      fn();
      const c = compare(L.read(po, N * N), ref);
      checks[id] = { ...c, ok: c.differing === 0 };
      if (c.differing !== 0) throw new Error(`limit ${id} is wrong: ${JSON.stringify(c)}`);
      cases.push({ id, label, fn });
    }
  }
  if (tf) {
    const xa = tf.tensor2d(A, [N, N], 'float32');
    const xb = tf.tensor2d(B, [N, N], 'float32');
    const t = tf.tidy(() => tf.add(tf.transpose(xa), xb));
    checks['tf-tadd'] = compare(t.dataSync(), refT);
    t.dispose();
    cases.push({ id: 'tf-tadd', label: 'tfjs-wasm add(transpose(a), b), resident, disposed', fn: () => tf.tidy(() => tf.add(tf.transpose(xa), xb)).dispose() });
    cases.push({ id: 'tf-add', label: 'tfjs-wasm add(a, b), resident, disposed', fn: () => tf.add(xa, xb).dispose() });
  }
  return cases;
}

// 1M float32, resident, into a resident out: exp and tanh over [-10, 10), log over (0, 100].
function unaryGroup({ tc, tf }, checks) {
  const N = 1 << 20;
  const X = new Float32Array(N);
  const P = new Float32Array(N);
  for (let i = 0; i < N; i++) { X[i] = ((i * 7919) % 20000) / 1000 - 10; P[i] = ((i * 104729) % 10000 + 1) / 100; }
  const x = tc.tensor(X, [N]);
  const p = tc.tensor(P, [N]);
  const out = tc.tensor(new Float32Array(N), [N]);
  const o = { out };
  const cases = [control()];
  for (const [op, t, src, f] of [['exp', x, X, Math.exp], ['log', p, P, Math.log], ['tanh', x, X, Math.tanh]]) {
    tc[op](t, o);
    const ref = Float32Array.from(src, f);
    const c = compare(out.toArray(), ref);
    checks[`tc-${op}`] = { ...c, ok: c.maxRel <= 4e-7 };
    if (c.maxRel > 4e-7) throw new Error(`tensorcast ${op} is off: ${JSON.stringify(c)}`);
    cases.push({ id: `tc-${op}`, label: `tensorcast ${op}(x, { out }), 1M float32 resident`, fn: () => tc[op](t, o) });
  }
  // float64 (the host's Math since 0.6.0; musl's before): exp, log, tanh, pow(x, 2.5).
  const x64 = tc.tensor(Float64Array.from(X), [N]);
  const p64 = tc.tensor(Float64Array.from(P), [N]);
  const y64 = tc.tensor(new Float64Array(N).fill(2.5), [N]);
  const o64 = { out: tc.tensor(new Float64Array(N), [N]) };
  for (const [op, args] of [['exp', [x64]], ['log', [p64]], ['tanh', [x64]], ['pow', [p64, y64]]]) {
    cases.push({ id: `tc-${op}64`, label: `tensorcast ${op} float64, 1M resident, into out`, fn: () => tc[op](...args, o64) });
  }
  // exp inside an expression (generated code since 0.9.5, the block interpreter before), against
  // the same ops one by one into resident blocks, and the sigmoid op against its expression.
  const tmp = { out: tc.tensor(new Float32Array(N), [N]) };
  const ops = () => { tc.sub(x, 1, tmp); tc.exp(tmp.out, tmp); return tc.mul(tmp.out, 2, o); };
  const viaExpr = () => tc.evaluate('exp(x - 1) * 2', { x }, o);
  viaExpr();
  const e1 = out.toArray();
  ops();
  const e2 = out.toArray();
  checks['tc-expr-exp'] = { ok: e1.every((v, i) => Object.is(v, e2[i])) };
  if (!checks['tc-expr-exp'].ok) throw new Error('tensorcast exp(x - 1) * 2 differs from the ops one by one');
  cases.push({ id: 'tc-expr-exp', label: "tensorcast evaluate('exp(x - 1) * 2', { x }, { out }), 1M float32 resident", fn: viaExpr });
  cases.push({ id: 'tc-ops-exp', label: 'tensorcast sub, exp, mul one by one, resident into out', fn: ops });
  cases.push({ id: 'tc-expr-log', label: "tensorcast evaluate('log(p) * 2 - 1', { p }, { out }), 1M float32 resident", fn: () => tc.evaluate('log(p) * 2 - 1', { p }, o) });
  // A binary cross-entropy's terms (log generated since 0.9.7, the block interpreter before), checked
  // against the ops one by one, which it is timed against too.
  const q = tc.tensor(Float32Array.from(P, (v) => v / 101), [N]); // in (0, 1)
  const y = tc.tensor(Float32Array.from(P, (v, i) => i % 3 === 0 ? 1 : 0), [N]);
  const BCE = '-(y * log(q) + (1 - y) * log(1 - q))';
  const bceOps = () => {
    const a = tc.log(q);
    const b = tc.mul(y, a);
    const c = tc.sub(1, q);
    const d = tc.log(c);
    const e = tc.sub(1, y);
    const f = tc.mul(e, d);
    const g = tc.add(b, f);
    const r = tc.neg(g, o);
    for (const t of [a, b, c, d, e, f, g]) t.dispose();
    return r;
  };
  tc.evaluate(BCE, { y, q }, o);
  const b1 = out.toArray();
  bceOps();
  const b2 = out.toArray();
  checks['tc-expr-bce'] = { ok: b1.every((v, i) => Object.is(v, b2[i])) };
  if (!checks['tc-expr-bce'].ok) throw new Error('tensorcast\'s cross-entropy expression differs from the ops one by one');
  cases.push({ id: 'tc-expr-bce', label: `tensorcast evaluate('${BCE}', { y, q }, { out }), 1M float32 resident`, fn: () => tc.evaluate(BCE, { y, q }, o) });
  cases.push({ id: 'tc-ops-bce', label: 'the same ops one by one (log, mul, sub, log, sub, mul, add, neg), resident', fn: bceOps });
  if (typeof tc.sigmoid === 'function') {
    cases.push({ id: 'tc-sigmoid', label: 'tensorcast sigmoid(x, { out }), 1M float32 resident', fn: () => tc.sigmoid(x, o) });
    cases.push({ id: 'tc-expr-sigmoid', label: "tensorcast evaluate('1 / (1 + exp(-x))', { x }, { out })", fn: () => tc.evaluate('1 / (1 + exp(-x))', { x }, o) });
  }
  const jo = new Float32Array(N);
  cases.push({ id: 'js-exp', label: 'plain-JS loop: Math.exp over a Float32Array, preallocated out', fn: () => { for (let i = 0; i < N; i++) jo[i] = Math.exp(X[i]); return jo; } });
  if (tf) {
    const xt = tf.tensor1d(X, 'float32');
    const pt = tf.tensor1d(P, 'float32');
    for (const [op, t] of [['exp', xt], ['log', pt], ['tanh', xt]]) {
      cases.push({ id: `tf-${op}`, label: `tfjs-wasm tf.${op}(x), resident, disposed`, fn: () => tf[op](t).dispose() });
    }
  }
  return cases;
}

// Reading a model's output: logits [R, C] float32 (the group's name says R x C).
export const LN_EXPR = '(x - mean(x, [-1], true)) / sqrt(mean((x - mean(x, [-1], true)) ** 2, [-1], true) + 1e-5) * g + b';
export const LN_STATEMENTS = 'mu = mean(x, [-1], true); d = x - mu; d / sqrt(mean(d * d, [-1], true) + 1e-5) * g + b';

/** Layer norm over [64,768] float32, resident with out: one expression, statements, op by op, tfjs-wasm, plain JS. */
function layerNormGroup({ tc, tf }, checks) {
  const R = 64;
  const C = 768;
  const X = new Float32Array(R * C);
  for (let i = 0; i < X.length; i++) X[i] = (((i * 7919) % 10007) / 10007 - 0.5) * 8 + (i % 5);
  const G = Float32Array.from({ length: C }, (_, i) => 1 + (i % 7) / 10);
  const B = Float32Array.from({ length: C }, (_, i) => (i % 3) / 10);
  const x = tc.tensor(X, [R, C]);
  const g = tc.tensor(G, [C]);
  const b = tc.tensor(B, [C]);
  const out = tc.tensor(new Float32Array(R * C), [R, C]);
  const o = { out };
  const ref = new Float32Array(R * C);
  for (let r = 0; r < R; r++) {
    let m = 0;
    for (let c = 0; c < C; c++) m += X[r * C + c];
    m /= C;
    let v = 0;
    for (let c = 0; c < C; c++) v += (X[r * C + c] - m) ** 2;
    v /= C;
    for (let c = 0; c < C; c++) ref[r * C + c] = ((X[r * C + c] - m) / Math.sqrt(v + 1e-5)) * G[c] + B[c];
  }
  const ops = () => {
    const mu = tc.mean(x, { axes: [-1], keepdims: true });
    const d = tc.sub(x, mu);
    const d2 = tc.mul(d, d);
    const v = tc.mean(d2, { axes: [-1], keepdims: true });
    const ve = tc.add(v, 1e-5);
    const sd = tc.sqrt(ve);
    const q = tc.div(d, sd);
    const qg = tc.mul(q, g);
    tc.add(qg, b, o);
    for (const t of [mu, d, d2, v, ve, sd, q, qg]) t.dispose();
    return out;
  };
  for (const [id, fn] of [['tc-ln', () => tc.evaluate(LN_EXPR, { x, g, b }, o)], ['tc-ln-stmt', () => tc.evaluate(LN_STATEMENTS, { x, g, b }, o)], ['tc-ln-ops', ops]]) {
    const c = compare(fn().toArray(), ref);
    checks[id] = { ...c, ok: c.maxRel <= 1e-4 };
    if (!checks[id].ok) throw new Error(`tensorcast ${id} is off: ${JSON.stringify(c)}`);
  }
  const js = new Float32Array(R * C);
  const jsLn = () => {
    for (let r = 0; r < R; r++) {
      const base = r * C;
      let m = 0;
      for (let c = 0; c < C; c++) m += X[base + c];
      m /= C;
      let v = 0;
      for (let c = 0; c < C; c++) { const d = X[base + c] - m; v += d * d; }
      const inv = 1 / Math.sqrt(v / C + 1e-5);
      for (let c = 0; c < C; c++) js[base + c] = (X[base + c] - m) * inv * G[c] + B[c];
    }
    return js;
  };
  const cases = [
    control(),
    { id: 'tc-ln', label: `tensorcast evaluate('${LN_EXPR}'), resident, into out`, fn: () => tc.evaluate(LN_EXPR, { x, g, b }, o) },
    { id: 'tc-ln-stmt', label: `tensorcast evaluate('${LN_STATEMENTS}'), resident, into out`, fn: () => tc.evaluate(LN_STATEMENTS, { x, g, b }, o) },
    { id: 'tc-ln-ops', label: 'tensorcast op by op (mean, sub, mul, mean, add, sqrt, div, mul, add into out), resident, disposed', fn: ops },
    { id: 'js-ln', label: 'plain-JS loop (double sums), preallocated out', fn: jsLn },
  ];
  if (tf) {
    const xt = tf.tensor2d(X, [R, C], 'float32');
    const gt = tf.tensor1d(G, 'float32');
    const bt = tf.tensor1d(B, 'float32');
    const tfLn = () => tf.tidy(() => {
      const { mean, variance } = tf.moments(xt, -1, true);
      return tf.add(tf.mul(tf.div(tf.sub(xt, mean), tf.sqrt(tf.add(variance, 1e-5))), gt), bt);
    });
    const y = tfLn();
    const c = compare(y.dataSync(), ref);
    checks['tf-ln'] = { ...c, ok: c.maxRel <= 1e-4 };
    y.dispose();
    cases.push({ id: 'tf-ln', label: 'tfjs-wasm op by op: tf.moments(x, -1, true), sub, div(sqrt(add(variance, 1e-5))), mul, add; resident, disposed', fn: () => tfLn().dispose() });
  }
  return cases;
}

function postGroup(R, C, { tc, tf }, checks) {
  const N = R * C;
  const X = new Float32Array(N);
  for (let i = 0; i < N; i++) X[i] = (((i * 7919) % 10007) / 10007 - 0.5) * 20;
  const x = { data: X, shape: [R, C] };
  const t = tc.tensor(X, [R, C]);
  const out = tc.tensor(new Float32Array(N), [R, C]);
  const o = { out };
  // References: softmax in double, argmax, the top 5 (ties: the lower index).
  const ref = new Float32Array(N);
  const am = new Int32Array(R);
  const top = [];
  for (let r = 0; r < R; r++) {
    let m = -Infinity;
    for (let c = 0; c < C; c++) if (X[r * C + c] > m) { m = X[r * C + c]; am[r] = c; }
    let s = 0;
    for (let c = 0; c < C; c++) s += Math.exp(X[r * C + c] - m);
    for (let c = 0; c < C; c++) ref[r * C + c] = Math.exp(X[r * C + c] - m) / s;
    top.push(...[...X.subarray(r * C, r * C + C).keys()].sort((a, b) => X[r * C + b] - X[r * C + a] || a - b).slice(0, 5));
  }
  const c1 = compare(tc.softmax(x).data, ref);
  checks['tc-softmax'] = { ...c1, ok: c1.maxRel <= 1e-6 };
  if (!checks['tc-softmax'].ok) throw new Error(`tensorcast softmax is off: ${JSON.stringify(c1)}`);
  const a = tc.argmax(t, 1);
  const k = tc.topk(t, 5);
  checks['tc-argmax'] = { ok: a.toArray().every((v, i) => v === am[i]) };
  checks['tc-topk'] = { ok: k.indices.toArray().every((v, i) => v === top[i]) };
  for (const z of [a, k.values, k.indices]) z.dispose();
  if (!checks['tc-argmax'].ok || !checks['tc-topk'].ok) throw new Error(`tensorcast argmax/topk is wrong: ${JSON.stringify(checks)}`);
  // softmax written as a program (statements; its passes' bits are the ops one by one, a division not a reciprocal).
  const prog = tc.compile ? tc.compile('m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)') : null;
  if (prog) {
    prog.run({ x: t }, o);
    const c3 = compare(out.toArray(), ref);
    checks['tc-softmax-prog'] = { ...c3, ok: c3.maxRel <= 1e-6 };
    if (!checks['tc-softmax-prog'].ok) throw new Error(`tensorcast's softmax program is off: ${JSON.stringify(c3)}`);
  }
  const js = new Float32Array(N);
  const jsSoftmax = () => {
    for (let r = 0; r < R; r++) {
      const b = r * C;
      let m = -Infinity;
      for (let c = 0; c < C; c++) if (X[b + c] > m) m = X[b + c];
      let s = 0;
      for (let c = 0; c < C; c++) s += (js[b + c] = Math.exp(X[b + c] - m));
      const inv = 1 / s;
      for (let c = 0; c < C; c++) js[b + c] *= inv;
    }
    return js;
  };
  const cases = [
    control(),
    { id: 'tc-softmax', label: 'tensorcast softmax(x) of a typed array, a new typed array out', fn: () => tc.softmax(x) },
    { id: 'tc-softmax-out', label: 'tensorcast softmax(t, -1, { out }), resident', fn: () => tc.softmax(t, -1, o) },
    { id: 'tc-exp-out', label: 'tensorcast exp(t, { out }), resident (the yardstick)', fn: () => tc.exp(t, o) },
    ...(prog ? [{ id: 'tc-softmax-prog', label: "tensorcast compile('m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)').run({ x: t }, { out }), resident", fn: () => prog.run({ x: t }, o) }] : []),
    { id: 'tc-argmax', label: 'tensorcast argmax(t, 1), resident, disposed', fn: () => tc.argmax(t, 1).dispose() },
    { id: 'tc-topk', label: 'tensorcast topk(t, 5), resident, disposed', fn: () => { const r = tc.topk(t, 5); r.values.dispose(); r.indices.dispose(); } },
    { id: 'js-softmax', label: 'plain-JS softmax loop (Math.exp in double), preallocated out', fn: jsSoftmax },
    // What any typed-array-out row pays before computing anything: a new array of the result's size, written once.
    { id: 'new-floor', label: 'the floor of a new array: new Float32Array(R·C), then set() from a ready one', fn: () => { const a = new Float32Array(N); a.set(X); return a; } },
  ];
  if (tf) {
    const xt = tf.tensor2d(X, [R, C], 'float32');
    const y = tf.softmax(xt);
    const c2 = compare(y.dataSync(), ref);
    checks['tf-softmax'] = { ...c2, ok: c2.maxRel <= 1e-5 };
    y.dispose();
    cases.push({ id: 'tf-softmax', label: 'tfjs-wasm tf.softmax(x) (resident tensor in), dataSync, disposed', fn: () => { const r = tf.softmax(xt); r.dataSync(); r.dispose(); } });
    cases.push({ id: 'tf-argmax', label: 'tfjs-wasm tf.argMax(x, 1), resident, disposed', fn: () => tf.argMax(xt, 1).dispose() });
    cases.push({ id: 'tf-topk', label: 'tfjs-wasm tf.topk(x, 5), resident, disposed', fn: () => { const r = tf.topk(xt, 5); r.values.dispose(); r.indices.dispose(); } });
  }
  return cases;
}

// Short rows: float32 [N,3] + [3] and [N,4] + [4] (RGB(A) pixels, xyz points),
// [N,3] + [N,1], and a transposed [3,N] view + [N,3], N = 200,704 (a 448x448 image), resident
// into a resident out; the plain-JS [N,3] loop and tfjs-wasm for context.
function rowsGroup({ tc, tf }, checks) {
  const N = 200704;
  const X3 = Float32Array.from({ length: N * 3 }, (_, i) => (i % 251) / 8);
  const X4 = Float32Array.from({ length: N * 4 }, (_, i) => (i % 251) / 8);
  const B3 = new Float32Array([0.5, -1, 2]);
  const B4 = new Float32Array([0.5, -1, 2, 4]);
  const x3 = tc.tensor(X3, [N, 3]), x4 = tc.tensor(X4, [N, 4]);
  const b3 = tc.tensor(B3, [3]), b4 = tc.tensor(B4, [4]);
  const xt = tc.tensor(X3, [3, N]).transpose(); // [N, 3], element [i, c] = X3[c * N + i]
  const C1 = Float32Array.from({ length: N }, (_, i) => (i % 7) - 3);
  const c1 = tc.tensor(C1, [N, 1]);
  const wantC = X3.map((v, i) => v + C1[Math.floor(i / 3)]);
  const o3 = tc.tensor(new Float32Array(N * 3), [N, 3]), o4 = tc.tensor(new Float32Array(N * 4), [N, 4]);
  const want3 = X3.map((v, i) => v + B3[i % 3]);
  const want4 = X4.map((v, i) => v + B4[i % 4]);
  const wantT = Float32Array.from({ length: N * 3 }, (_, k) => X3[(k % 3) * N + Math.floor(k / 3)] + X3[k]);
  const defs = [
    ['tc-rows3', () => tc.add(x3, b3, { out: o3 }), o3, want3, 'tensorcast add([N,3], [3]) resident into out'],
    ['tc-rows4', () => tc.add(x4, b4, { out: o4 }), o4, want4, 'tensorcast add([N,4], [4]) resident into out'],
    ['tc-t3', () => tc.add(xt, x3, { out: o3 }), o3, wantT, 'tensorcast add(transpose([3,N]), [N,3]) resident into out'],
    ['tc-col3', () => tc.add(x3, c1, { out: o3 }), o3, wantC, 'tensorcast add([N,3], [N,1]) resident into out'],
  ];
  const cases = [control()];
  for (const [id, fn, o, want, label] of defs) {
    fn();
    const c = compare(o.toArray(), want);
    checks[id] = { ...c, ok: c.differing === 0 };
    if (c.differing !== 0) throw new Error(`tensorcast ${id} is wrong: ${JSON.stringify(c)}`);
    cases.push({ id, label, fn });
  }
  const jo = new Float32Array(N * 3);
  const js3 = () => { for (let i = 0; i < N; i++) { const r = i * 3; jo[r] = X3[r] + B3[0]; jo[r + 1] = X3[r + 1] + B3[1]; jo[r + 2] = X3[r + 2] + B3[2]; } return jo; };
  checks['js-rows3'] = compare(js3(), want3);
  cases.push({ id: 'js-rows3', label: 'plain-JS [N,3] + [3] loop, preallocated out', fn: js3 });
  if (tf) {
    const tx = tf.tensor2d(X3, [N, 3], 'float32');
    const tb = tf.tensor1d(B3, 'float32');
    const t = tf.add(tx, tb);
    checks['tf-rows3'] = compare(t.dataSync(), want3);
    t.dispose();
    cases.push({ id: 'tf-rows3', label: 'tfjs-wasm add([N,3], [3]), resident, disposed', fn: () => tf.add(tx, tb).dispose() });
  }
  return cases;
}

// Reductions along many short rows: an image's pixels (N = 224 * 224) with 3
// channels summed, 21 class scores (a segmentation's logits, channels last)
// softmaxed, and 4096 rows of 64 layer-normed.
function manyRowsGroup({ tc, tf }, checks) {
  const N = 50176;
  const X3 = Float32Array.from({ length: N * 3 }, (_, i) => ((i * 37) % 255) / 32 - 4);
  const X21 = Float32Array.from({ length: N * 21 }, (_, i) => ((i * 7919) % 10007) / 1000 - 5);
  const X64 = Float32Array.from({ length: 4096 * 64 }, (_, i) => ((i * 7919) % 10007) / 2000 - 2.5);
  const x3 = tc.tensor(X3, [N, 3]), x21 = tc.tensor(X21, [N, 21]), x64 = tc.tensor(X64, [4096, 64]);
  const o3 = tc.tensor(new Float32Array(N), [N]), o21 = tc.tensor(new Float32Array(N * 21), [N, 21]), o64 = tc.tensor(new Float32Array(4096 * 64), [4096, 64]);
  const prog = tc.compile('m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)');
  const LN = '(x - mean(x, [-1], true)) / sqrt(mean((x - mean(x, [-1], true)) ** 2, [-1], true) + 1e-5)';
  // References: the ops one by one (their bits are the expressions' and the program's).
  const want3 = tc.sum(tc.mul(x3, 2), { axes: [1] });
  const want21 = tc.softmax(x21);
  const d = tc.sub(x64, tc.mean(x64, { axes: [-1], keepdims: true }));
  const want64 = tc.div(d, tc.sqrt(tc.add(tc.mean(tc.mul(d, d), { axes: [-1], keepdims: true }), 1e-5)));
  const defs = [
    ['tc-expr-sum3', () => tc.evaluate('sum(x * 2, [1])', { x: x3 }, { out: o3 }), o3, want3, 'tensorcast evaluate(\'sum(x * 2, [1])\') over [N,3], resident into out'],
    ['tc-sum3', () => tc.sum(x3, { axes: [1], out: o3 }), o3, null, 'tensorcast sum(x, { axes: [1] }) over [N,3], resident into out'],
    ['tc-softmax21', () => tc.softmax(x21, -1, { out: o21 }), o21, want21, 'tensorcast softmax(x) over [N,21], resident into out'],
    ['tc-prog21', () => prog.run({ x: x21 }, { out: o21 }), o21, want21, 'tensorcast softmax as a program over [N,21], resident into out'],
    ['tc-ln64', () => tc.evaluate(LN, { x: x64 }, { out: o64 }), o64, want64, 'tensorcast layer norm as one expression over [4096,64], resident into out'],
  ];
  const cases = [control()];
  for (const [id, fn, o, want, label] of defs) {
    fn();
    if (want !== null) {
      // The program divides by the sum (the op scales by its reciprocal): within 1e-6, as the post groups check it.
      const c = compare(o.toArray(), want.toArray());
      checks[id] = { ...c, ok: id === 'tc-prog21' ? ok(c) : c.differing === 0 };
      if (!checks[id].ok) throw new Error(`tensorcast ${id} is wrong: ${JSON.stringify(c)}`);
    }
    cases.push({ id, label, fn });
  }
  for (const t of [want3, want21, d, want64]) t.dispose();
  // argmax per pixel: 3 channels, 21 classes last, 21 classes first (NCHW logits)
  const xc = tc.tensor(X21, [21, N]);
  const argRef = (X, R, C, rs, cs) => Int32Array.from({ length: R }, (_, r) => {
    let b = 0;
    for (let c = 1; c < C; c++) if (X[r * rs + c * cs] > X[r * rs + b * cs]) b = c;
    return b;
  });
  for (const [id, fn, want, label] of [
    ['tc-argmax3', () => tc.argmax(x3, 1), argRef(X3, N, 3, 3, 1), 'tensorcast argmax(x, 1) over [N,3], resident, disposed'],
    ['tc-argmax21', () => tc.argmax(x21, 1), argRef(X21, N, 21, 21, 1), 'tensorcast argmax(x, 1) over [N,21], resident, disposed'],
    ['tc-argmaxc', () => tc.argmax(xc, 0), argRef(X21, N, 21, 1, N), 'tensorcast argmax(x, 0) over [21,N], resident, disposed'],
  ]) {
    const r = fn();
    checks[id] = { ok: r.toArray().every((v, i) => v === want[i]) };
    r.dispose();
    if (!checks[id].ok) throw new Error(`tensorcast ${id} is wrong`);
    cases.push({ id, label, fn: () => fn().dispose() });
  }
  const js = new Float32Array(N);
  const jsSum3 = () => { for (let i = 0; i < N; i++) js[i] = X3[i * 3] + X3[i * 3 + 1] + X3[i * 3 + 2]; return js; };
  cases.push({ id: 'js-sum3', label: 'plain-JS loop: the sum of each row of [N,3], preallocated out', fn: jsSum3 });
  if (tf) {
    const t3 = tf.tensor2d(X3, [N, 3], 'float32'), t21 = tf.tensor2d(X21, [N, 21], 'float32'), t64 = tf.tensor2d(X64, [4096, 64], 'float32');
    cases.push({ id: 'tf-sum3', label: 'tfjs-wasm tf.sum(x, 1) over [N,3], resident, disposed', fn: () => tf.sum(t3, 1).dispose() });
    cases.push({ id: 'tf-softmax21', label: 'tfjs-wasm tf.softmax(x) over [N,21], resident, disposed', fn: () => tf.softmax(t21).dispose() });
    const tc21 = tf.tensor2d(X21, [21, N], 'float32');
    cases.push({ id: 'tf-argmax3', label: 'tfjs-wasm tf.argMax(x, 1) over [N,3], resident, disposed', fn: () => tf.argMax(t3, 1).dispose() });
    cases.push({ id: 'tf-argmax21', label: 'tfjs-wasm tf.argMax(x, 1) over [N,21], resident, disposed', fn: () => tf.argMax(t21, 1).dispose() });
    cases.push({ id: 'tf-argmaxc', label: 'tfjs-wasm tf.argMax(x, 0) over [21,N], resident, disposed', fn: () => tf.argMax(tc21, 0).dispose() });
    cases.push({
      id: 'tf-ln64', label: 'tfjs-wasm layer norm op by op (tf.moments, sub, div by sqrt(var + 1e-5)), resident, disposed',
      fn: () => tf.tidy(() => { const { mean, variance } = tf.moments(t64, -1, true); return tf.div(tf.sub(t64, mean), tf.sqrt(tf.add(variance, 1e-5))); }).dispose(),
    });
  }
  return cases;
}

function smallGroup({ tc }, checks) {
  const a = new Float32Array([1, 2, 3]);
  const b = new Float32Array([10, 20, 30, 40]);
  const want = '11,21,31,41,12,22,32,42,13,23,33,43';
  const sa = [3, 1];
  const sb = [1, 4];
  const pa = { data: a, shape: sa };
  const pb = { data: b, shape: sb };
  const ta = tc.tensor(a, sa);
  const tb = tc.tensor(b, sb);
  const tout = tc.tensor(new Float32Array(12), [3, 4]);
  const opts = { out: tout };
  const e2e = () => tc.add(pa, pb).data;
  const res = () => tc.add(ta, tb, opts);
  const resNew = () => { const r = tc.add(ta, tb); r.dispose(); return r; };
  const got = { 'tc-e2e': Array.from(e2e()).join(), 'tc-res': (res(), Array.from(tout.toArray()).join()) };
  { const r = tc.add(ta, tb); got['tc-res-new'] = Array.from(r.toArray()).join(); r.dispose(); }
  for (const [k, v] of Object.entries(got)) {
    checks[k] = { ok: v === want };
    if (v !== want) throw new Error(`tensorcast small ${k}: ${v}, want ${want}`);
  }
  return [
    control(),
    { id: 'tc-e2e', label: 'tensorcast add([3,1], [1,4]) of plain { data, shape } (fresh array out)', fn: e2e },
    { id: 'tc-res', label: 'tensorcast add on resident operands into a resident out', fn: res },
    { id: 'tc-res-new', label: 'tensorcast add on resident operands, fresh resident result, disposed', fn: resNew },
  ];
}

/**
 * One group: { group, skipped } when the build lacks a function, else
 * { group, unit, cases: { id: { label, ns: [per batch], median } }, ratios: { id: median per-batch ratio }, checks }.
 * opts: measureWall's (runs, warmupMs, batchMs, pause, cpu), over the group's defaults.
 */
export async function runViewGroup(group, { tc, tf, where, limit = null }, opts = {}) {
  const missing = (NEEDS[group] ?? []).filter((f) => typeof tc[f] !== 'function');
  if (!NEEDS[group]) throw new Error(`unknown group ${group} (groups: ${VIEW_GROUPS.join(', ')})`);
  if (missing.length) return { group, skipped: `n/a (no ${missing.join(', ')})` };
  const checks = {};
  const cases = group === 'tadd' ? taddGroup({ tc, tf, limit: limit && await instantiateLimit(limit) }, checks)
    : group === 'small' ? smallGroup({ tc }, checks)
      : group === 'rows' ? rowsGroup({ tc, tf }, checks)
      : group === 'manyrows' ? manyRowsGroup({ tc, tf }, checks)
      : group === 'unary' ? unaryGroup({ tc, tf }, checks)
        : group.startsWith('post-') ? postGroup(...group.slice(5).split('x').map(Number), { tc, tf }, checks)
          : group === 'layernorm' ? layerNormGroup({ tc, tf }, checks)
      : preGroup(Number(group.slice(4)), { tc, tf, where }, checks);
  const spec = specOf(group);
  const ns = await measureWall(cases, { ...spec.timing, ...opts });
  const out = { group, unit: spec.unit, cases: {}, ratios: {}, checks };
  for (const c of cases) out.cases[c.id] = { label: c.label, ns: ns[c.id].map((x) => Number(x.toPrecision(6))), median: median(ns[c.id]) };
  for (const [id, num, den] of spec.ratios) if (ns[num] && ns[den]) out.ratios[id] = medianRatio(ns[num], ns[den]);
  return out;
}

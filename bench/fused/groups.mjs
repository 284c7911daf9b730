// The fused-expression rows (issue 22), the same code in Node and in headless
// Chromium (bench/fused/run.mjs runs each group in a fresh Node process and a
// fresh page). Environment-neutral: the caller passes the tensorcast module
// (`tc`, after init()), TensorFlow.js on its wasm backend (`tf`, or null),
// onnxruntime-web (`ort`, or null: Node only, as in bench/browser/) and the
// compiled limit module (`limit`: bench/limit/fused.cpp as a
// WebAssembly.Module, or null; runFusedGroup instantiates it).
//
// Groups:
//   chain-a-row   (x - m) / s, x [1024,1024], m, s [1024]
//   chain-a-nchw  (x - m) / s, x [8,64,56,56], m, s [1,64,1,1]
//   chain-b       a*b + c*d - e, a, d [1024,1024], b [1024], c [1024,1], e a scalar
//   cold          a new expression text every call through evaluate, small shapes
//   small         a compiled 3-op expression over [3,1] and [1,4] against one add
//   contract      sum(x * w, ['in']) by name against mul then sum, and peak memory
//   gemm-*        contraction at matrix-multiply speed (issue 40): every dim order,
//                 batched, two contracted dims, small; tfjs-wasm matMul; a SIMD128 GEMM (the limit)
//
// Every case is checked once against a JS reference before it is timed; a case
// whose library lacks the function (evaluate, compile: not in every build yet)
// is reported as n/a with the reason, and the rest of the group still runs.
import { makeData } from '../lib/workloads.mjs';
import * as plain from '../lib/plainjs.mjs';
import { measureWall, stats, medianRatio } from '../lib/wall.mjs';
import { fusedLimit, instantiateLimit } from '../limit/fused.mjs';
import { chainModel } from '../lib/onnx.mjs';

export const FUSED_GROUPS = ['chain-a-row', 'chain-a-nchw', 'chain-b', 'cold', 'small', 'contract', 'gemm-256', 'gemm-1024', 'gemm-batched', 'gemm-2dim', 'gemm-bilinear', 'gemm-small'];

export const CHAINS = {
  'chain-a-row': {
    title: 'chain A (x - m) / s: x [1024,1024], m, s [1024], float32',
    expr: '(x - m) / s', shapes: { x: [1024, 1024], m: [1024], s: [1024] }, out: [1024, 1024],
  },
  'chain-a-nchw': {
    title: 'chain A (x - m) / s: x [8,64,56,56], m, s [1,64,1,1], float32',
    expr: '(x - m) / s', shapes: { x: [8, 64, 56, 56], m: [1, 64, 1, 1], s: [1, 64, 1, 1] }, out: [8, 64, 56, 56],
  },
  'chain-b': {
    title: 'chain B a*b + c*d - e: a, d [1024,1024], b [1024], c [1024,1], e a scalar, float32',
    expr: 'a*b + c*d - e', shapes: { a: [1024, 1024], b: [1024], c: [1024, 1], d: [1024, 1024] }, scalar: { e: 0.75 }, out: [1024, 1024],
  },
};
export const CONTRACT = { batch: 256, in: 512, out: 256, expr: "sum(x * w, ['in'])" };
export const SMALL_EXPR = '(a + b) * a - b';

const NO_EVAL = 'n/a (no evaluate)';
const NO_COMPILE = 'n/a (no compile)';
const numel = (s) => s.reduce((p, d) => p * d, 1);
const fr = Math.fround;

/** The plain-JS control of every group: [3,1]+[1,4] in a JS loop, no allocation (as bench/browser/groups.mjs). */
function control() {
  const a = makeData('float32', 3, 1);
  const b = makeData('float32', 4, 2);
  const run = plain.binaryPrepared('add', 'float32', [3, 1], [1, 4]);
  const out = new Float32Array(12);
  return { id: 'control', label: 'plain-JS control ([3,1]+[1,4] JS loop, no allocation), ns/call', fn: () => run(a, b, out), per: 1 };
}

/** Flat index into an operand of `shape` (NumPy-aligned to outShape) for each output index. */
function indexer(shape, outShape) {
  const n = outShape.length;
  const str = new Array(n).fill(0);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    const o = i + n - shape.length;
    str[o] = shape[i] === 1 ? 0 : acc;
    acc *= shape[i];
  }
  const idx = new Int32Array(numel(outShape));
  const pos = new Array(n).fill(0);
  let k = 0;
  for (let i = 0; i < idx.length; i++) {
    idx[i] = k;
    for (let d = n - 1; d >= 0; d--) {
      pos[d]++;
      k += str[d];
      if (pos[d] < outShape[d]) break;
      k -= str[d] * outShape[d];
      pos[d] = 0;
    }
  }
  return idx;
}

/** Inputs of a chain: positive divisors for s, the rest as the other sets' data. */
function chainInputs(spec) {
  const data = {};
  let seed = 11;
  for (const [name, shape] of Object.entries(spec.shapes)) {
    const d = makeData('float32', numel(shape), seed++);
    if (name === 's') for (let i = 0; i < d.length; i++) d[i] = fr(0.5 + Math.abs(d[i]));
    data[name] = d;
  }
  return data;
}

/** The chain's output, one float32 rounding per op in JavaScript's order (what op by op computes). */
function chainReference(id, spec, data) {
  const n = numel(spec.out);
  const ref = new Float32Array(n);
  const ix = Object.fromEntries(Object.entries(spec.shapes).map(([k, s]) => [k, indexer(s, spec.out)]));
  if (id === 'chain-b') {
    const { a, b, c, d } = data;
    const e = spec.scalar.e;
    for (let i = 0; i < n; i++) ref[i] = fr(fr(fr(a[ix.a[i]] * b[ix.b[i]]) + fr(c[ix.c[i]] * d[ix.d[i]])) - e);
  } else {
    const { x, m, s } = data;
    for (let i = 0; i < n; i++) ref[i] = fr(fr(x[ix.x[i]] - m[ix.m[i]]) / s[ix.s[i]]);
  }
  return ref;
}

/** null when `got` equals `ref` within 1e-6 relative; else the first mismatch. Sets `exact` on `info`. */
function compare(got, ref, info) {
  if (!got || typeof got.length !== 'number') return `no output (${Object.prototype.toString.call(got)})`;
  if (got.length !== ref.length) return `output has ${got.length} elements, expected ${ref.length}`;
  let exact = true;
  for (let i = 0; i < ref.length; i++) {
    const g = got[i];
    const r = ref[i];
    if (g === r || (g !== g && r !== r)) continue;
    exact = false;
    if (!(Math.abs(g - r) <= 1e-6 * Math.max(1, Math.abs(r)))) return `element ${i}: got ${g}, expected ${r}`;
  }
  if (info) info.exact = exact;
  return null;
}

/** Dispose what a call returned unless it is `keep` (the resident `out`). */
function settle(r, keep) {
  if (r && r !== keep && typeof r.dispose === 'function') r.dispose();
}

/**
 * Collects a group's cases: await add(id, label, setup, per) runs setup()
 * (which returns { fn, check(info): error string or null, async? }, or a
 * promise of it, or a string: why the case cannot run), checks once, and keeps
 * the case; a setup that throws or a wrong answer becomes a `missing` entry.
 */
function collector(per) {
  const cases = [control()];
  const missing = {};
  const exact = {};
  const labels = {};
  return {
    cases, missing, exact, labels,
    async add(id, label, setup, perCase = per) {
      labels[id] = label;
      try {
        const c = await setup();
        if (typeof c === 'string') {
          missing[id] = c;
          return;
        }
        const info = {};
        const err = await c.check(info);
        if (err) {
          missing[id] = `wrong: ${err}`;
          return;
        }
        if (info.exact !== undefined) exact[id] = info.exact;
        cases.push({ id, label, fn: c.fn, per: perCase, async: !!c.async });
      } catch (e) {
        missing[id] = `error: ${String(e && e.message ? e.message : e).split('\n')[0]}`;
      }
    },
  };
}

const US = 1000; // `per` that turns ns of the timing into µs per call
const MS = 1e6;

// ---- chains A and B -----------------------------------------------------------
async function chainCases(id, { tc, tf, limit, ort }) {
  const spec = CHAINS[id];
  const data = chainInputs(spec);
  const ref = chainReference(id, spec, data);
  const n = ref.length;
  const col = collector(US);
  const names = Object.keys(spec.shapes);
  const scal = spec.scalar || {};
  const isB = id === 'chain-b';
  const hasEval = typeof tc.evaluate === 'function';

  const res = Object.fromEntries(names.map((k) => [k, tc.tensor(data[k], spec.shapes[k])]));
  const plainOps = () => Object.fromEntries(names.map((k) => [k, { data: data[k], shape: spec.shapes[k] }]));
  const tout = tc.tensor(new Float32Array(n), spec.out); // evaluate's `out`
  const toutOps = tc.tensor(new Float32Array(n), spec.out); // op by op's

  await col.add('eval-res', `tensorcast evaluate('${spec.expr}'), resident inputs, resident \`out\``, () => {
    if (!hasEval) return NO_EVAL;
    const ops = { ...res, ...scal };
    const o = { out: tout };
    const fn = () => tc.evaluate(spec.expr, ops, o);
    return { fn, check: (info) => { settle(fn(), tout); return compare(tout.toArray(), ref, info); } };
  });
  await col.add('eval-plain', 'tensorcast evaluate, typed arrays in, result allocated (end to end)', () => {
    if (!hasEval) return NO_EVAL;
    const fn = () => tc.evaluate(spec.expr, { ...plainOps(), ...scal }).data;
    return { fn, check: (info) => compare(fn(), ref, info) };
  });

  // Op by op, resident: every intermediate written into a preallocated resident tensor (reused every call).
  const t1 = tc.tensor(new Float32Array(n), spec.out);
  const t2 = isB ? tc.tensor(new Float32Array(n), spec.out) : null;
  await col.add('ops-res', isB ? 'tensorcast op by op, resident, `out` reuse: mul, mul, add (in place), sub' : 'tensorcast op by op, resident, `out` reuse: sub, div', () => {
    const o1 = { out: t1 };
    const o2 = { out: t2 };
    const oo = { out: toutOps };
    const fn = isB
      ? () => { tc.mul(res.a, res.b, o1); tc.mul(res.c, res.d, o2); tc.add(t1, t2, o1); return tc.sub(t1, scal.e, oo); }
      : () => { tc.sub(res.x, res.m, o1); return tc.div(t1, res.s, oo); };
    return { fn, check: (info) => { fn(); return compare(toutOps.toArray(), ref, info); } };
  });
  await col.add('ops-plain', 'tensorcast op by op, typed arrays (a fresh array per op)', () => {
    const p = plainOps();
    const fn = isB
      ? () => tc.sub(tc.add(tc.mul(p.a, p.b), tc.mul(p.c, p.d)), scal.e).data
      : () => tc.div(tc.sub(p.x, p.m), p.s).data;
    return { fn, check: (info) => compare(fn(), ref, info) };
  });

  if (tf) {
    const tt = Object.fromEntries(names.map((k) => [k, tf.tensor(data[k], spec.shapes[k], 'float32')]));
    const te = isB ? tf.scalar(scal.e, 'float32') : null;
    // The chain on tfjs tensors; every intermediate disposed, the result returned.
    const chain = isB
      ? (t) => {
        const p = tf.mul(t.a, t.b);
        const q = tf.mul(t.c, t.d);
        const r = tf.add(p, q);
        const y = tf.sub(r, te);
        p.dispose(); q.dispose(); r.dispose();
        return y;
      }
      : (t) => {
        const d = tf.sub(t.x, t.m);
        const y = tf.div(d, t.s);
        d.dispose();
        return y;
      };
    await col.add('tf-kernel', `tfjs-wasm op by op, tensors resident (${isB ? 'mul, mul, add, sub' : 'sub, div'}; outputs allocated and disposed, no read)`, () => ({
      fn: () => chain(tt).dispose(),
      check: (info) => { const y = chain(tt); const d = y.dataSync(); y.dispose(); return compare(d, ref, info); },
    }));
    await col.add('tf-e2e', 'tfjs-wasm op by op, end to end (tf.tensor of each array, the ops, dataSync, dispose)', () => {
      const fn = () => {
        const t = Object.fromEntries(names.map((k) => [k, tf.tensor(data[k], spec.shapes[k], 'float32')]));
        const y = chain(t);
        const d = y.dataSync();
        y.dispose();
        for (const k of names) t[k].dispose();
        return d;
      };
      return { fn, check: (info) => compare(fn(), ref, info) };
    });
  } else {
    col.missing['tf-kernel'] = 'n/a (tfjs-wasm did not load)';
    col.missing['tf-e2e'] = 'n/a (tfjs-wasm did not load)';
  }

  const ortLabel = `onnxruntime-web, a ${isB ? 'Mul/Mul/Add/Sub' : 'Sub/Div'} graph (graphOptimizationLevel all), end to end (an ort.Tensor per array, run, output .data)`;
  if (!ort) {
    col.labels['ort-e2e'] = ortLabel;
    col.missing['ort-e2e'] = 'n/a (not loaded here; Node only)';
  } else {
    await col.add('ort-e2e', ortLabel, async () => {
      const nodes = isB
        ? [['Mul', ['a', 'b'], 'p'], ['Mul', ['c', 'd'], 'q'], ['Add', ['p', 'q'], 'r'], ['Sub', ['r', 'e'], 'y']]
        : [['Sub', ['x', 'm'], 't'], ['Div', ['t', 's'], 'y']];
      const inputs = { ...spec.shapes, ...Object.fromEntries(Object.keys(scal).map((k) => [k, []])) };
      const session = await ort.InferenceSession.create(chainModel(nodes, inputs, 'y', spec.out), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      const scalData = Object.fromEntries(Object.entries(scal).map(([k, v]) => [k, Float32Array.of(v)]));
      const fn = async () => {
        const feeds = {};
        for (const k of names) feeds[k] = new ort.Tensor('float32', data[k], spec.shapes[k]);
        for (const k of Object.keys(scal)) feeds[k] = new ort.Tensor('float32', scalData[k], []);
        return (await session.run(feeds)).y.data;
      };
      return { fn, async: true, check: async (info) => compare(await fn(), ref, info) };
    });
  }

  await col.add('limit', 'the limit: hand-written C++ SIMD128 fused loop (bench/limit/fused.cpp), own memory', () => {
    if (!limit) return 'n/a (the limit module was not built: em++ missing or failed)';
    const L = fusedLimit(limit);
    const p = Object.fromEntries(names.map((k) => [k, L.put(data[k])]));
    const po = L.zeros(n);
    const ex = L.exports;
    const [d0, d1, ...rest] = spec.out; // [rows, cols] or [n, c, h, w]
    let fn;
    if (isB) fn = () => ex.chain_b(p.a, p.b, p.c, p.d, scal.e, po, d0, d1);
    else if (id === 'chain-a-row') fn = () => ex.chain_a_inner(p.x, p.m, p.s, po, d0, d1);
    else fn = () => ex.chain_a_plane(p.x, p.m, p.s, po, d0, d1, numel(rest));
    return { fn, check: (info) => { fn(); return compare(L.read(po, n), ref, info); } };
  });
  return col;
}

// ---- cold: a new expression every call ------------------------------------------
async function coldCases({ tc }) {
  const col = collector(US);
  const shapes = { x: [3, 1], m: [1, 4], s: [1, 4] };
  const data = { x: makeData('float32', 3, 21), m: makeData('float32', 4, 22), s: Float32Array.from(makeData('float32', 4, 23), (v) => fr(0.5 + Math.abs(v))) };
  const ops = Object.fromEntries(Object.keys(shapes).map((k) => [k, { data: data[k], shape: shapes[k] }]));
  const ix = Object.fromEntries(Object.keys(shapes).map((k) => [k, indexer(shapes[k], [3, 4])]));
  // The constant: 1 + k/2^20, exact in float32 for k < 2^23, written in full by String().
  const text = (k) => `(x - m) / s * ${1 + k / 1048576}`;
  const ref = (k) => Float32Array.from({ length: 12 }, (_, i) => fr(fr(fr(data.x[ix.x[i]] - data.m[ix.m[i]]) / data.s[ix.s[i]]) * fr(1 + k / 1048576)));
  let k = 1;
  await col.add('cold', 'tensorcast evaluate of a new expression every call (the constant changes: parse, plan, module generated and compiled, run), [3,1], [1,4], [1,4], typed arrays', () => {
    if (typeof tc.evaluate !== 'function') return NO_EVAL;
    const fn = () => tc.evaluate(text(k++), ops).data;
    return { fn, check: (info) => { const kk = k; return compare(fn(), ref(kk), info); } };
  });
  await col.add('warm', 'tensorcast evaluate of the same expression every call (cached)', () => {
    if (typeof tc.evaluate !== 'function') return NO_EVAL;
    const t = text(0);
    const fn = () => tc.evaluate(t, ops).data;
    return { fn, check: (info) => compare(fn(), ref(0), info) };
  });
  return col;
}

// ---- small: a compiled 3-op expression against one add ----------------------------
async function smallCases({ tc }) {
  const col = collector(1);
  const a = makeData('float32', 3, 1);
  const b = makeData('float32', 4, 2);
  const ia = indexer([3, 1], [3, 4]);
  const ib = indexer([1, 4], [3, 4]);
  const refExpr = Float32Array.from({ length: 12 }, (_, i) => fr(fr(fr(a[ia[i]] + b[ib[i]]) * a[ia[i]]) - b[ib[i]]));
  const refAdd = Float32Array.from({ length: 12 }, (_, i) => fr(a[ia[i]] + b[ib[i]]));
  const ta = tc.tensor(a, [3, 1]);
  const tb = tc.tensor(b, [1, 4]);
  const tout = tc.tensor(new Float32Array(12), [3, 4]); // compiled run's `out`
  const toutAdd = tc.tensor(new Float32Array(12), [3, 4]); // add's
  const pa = { data: a, shape: [3, 1] };
  const pb = { data: b, shape: [1, 4] };
  const hasCompile = typeof tc.compile === 'function';
  await col.add('compiled-res', `tensorcast compile('${SMALL_EXPR}').run, resident, resident \`out\``, () => {
    if (!hasCompile) return NO_COMPILE;
    const f = tc.compile(SMALL_EXPR);
    const operands = { a: ta, b: tb };
    const o = { out: tout };
    const fn = () => f.run(operands, o);
    return { fn, check: (info) => { settle(fn(), tout); return compare(tout.toArray(), refExpr, info); } };
  });
  await col.add('add-res', 'tensorcast add, resident, resident `out`', () => {
    const o = { out: toutAdd };
    const fn = () => tc.add(ta, tb, o);
    return { fn, check: (info) => { fn(); return compare(toutAdd.toArray(), refAdd, info); } };
  });
  await col.add('compiled-plain', 'tensorcast compile(...).run, typed arrays in, fresh array out', () => {
    if (!hasCompile) return NO_COMPILE;
    const f = tc.compile(SMALL_EXPR);
    const fn = () => f.run({ a: pa, b: pb }).data;
    return { fn, check: (info) => compare(fn(), refExpr, info) };
  });
  await col.add('add-plain', 'tensorcast add, typed arrays in, fresh array out', () => {
    const fn = () => tc.add(pa, pb).data;
    return { fn, check: (info) => compare(fn(), refAdd, info) };
  });
  return col;
}

// ---- contraction by name -----------------------------------------------------------
/** float64 sums and sums of magnitudes of out[b,o] = Σ_i x[b,i] w[i,o]. */
function contractReference(x, w, B, I, O) {
  const sum = new Float64Array(B * O);
  const abs = new Float64Array(B * O);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < I; i++) {
      const xv = x[b * I + i];
      const wr = i * O;
      const base = b * O;
      for (let o = 0; o < O; o++) {
        const p = xv * w[wr + o];
        sum[base + o] += p;
        abs[base + o] += Math.abs(p);
      }
    }
  }
  return { sum, abs };
}

/** The bilinear form's reference from the contraction's: out[m] = Σ_n c[m, n] y[m, n] (abs: Σ |x w y| bound). */
function bilinearReference(c, y, M, N) {
  const sum = new Float64Array(M);
  const abs = new Float64Array(M);
  for (let m = 0; m < M; m++) {
    for (let n = 0; n < N; n++) {
      sum[m] += c.sum[m * N + n] * y[m * N + n];
      abs[m] += c.abs[m * N + n] * Math.abs(y[m * N + n]);
    }
  }
  return { sum, abs };
}

function checkContract(got, ref) {
  if (!got || typeof got.length !== 'number') return `no output (${Object.prototype.toString.call(got)})`;
  if (got.length !== ref.sum.length) return `output has ${got.length} elements, expected ${ref.sum.length}`;
  for (let i = 0; i < got.length; i++) {
    const tol = 2e-6 * ref.abs[i] + 1e-6;
    if (!(Math.abs(got[i] - ref.sum[i]) <= tol)) return `element ${i}: got ${got[i]}, expected ${ref.sum[i]} (±${tol.toPrecision(2)})`;
  }
  return null;
}

async function contractCases({ tc, tf, limit }) {
  const col = collector(MS);
  const { batch: B, in: I, out: O, expr } = CONTRACT;
  const x = makeData('float32', B * I, 31);
  const w = makeData('float32', I * O, 32);
  const ref = contractReference(x, w, B, I, O);
  const tx = tc.tensor(x, [B, I], { dims: ['batch', 'in'] });
  const tw = tc.tensor(w, [I, O], { dims: ['in', 'out'] });
  const tout = tc.tensor(new Float32Array(B * O), [B, O], { dims: ['batch', 'out'] }); // evaluate's `out`
  const toutMS = tc.tensor(new Float32Array(B * O), [B, O], { dims: ['batch', 'out'] }); // mul then sum's
  const mem = () => { const m = tc.memory(); return { heap: m.wasmHeapBytes, held: m.allocatedBytes + m.scratchBytes }; };
  const memory = { tempBytes: B * I * O * 4, maxBytes: tc.contract?.().limits?.maxBytes, base: mem() };

  // evaluate first, so that its heap growth is not hidden by the temporary's.
  await col.add('eval', `tensorcast evaluate("${expr}"), x {batch: ${B}, in: ${I}}, w {in: ${I}, out: ${O}} resident, resident \`out\``, () => {
    if (typeof tc.evaluate !== 'function') return NO_EVAL;
    const operands = { x: tx, w: tw };
    let o = { out: tout };
    try {
      settle(tc.evaluate(expr, operands, o), tout);
    } catch (e) {
      // Only if `out` is refused here: a fresh resident result per call, disposed.
      memory.evalNote = `\`out\` refused (${String(e.message).split('\n')[0]}): a resident result per call, disposed`;
      o = undefined;
    }
    const fn = o ? () => tc.evaluate(expr, operands, o) : () => tc.evaluate(expr, operands).dispose();
    return {
      fn,
      check: () => {
        let got;
        if (o) { settle(fn(), tout); got = tout.toArray(); } else { const r = tc.evaluate(expr, operands); got = r.toArray(); r.dispose(); }
        const m = mem();
        memory.eval = { heapGrowth: m.heap - memory.base.heap, heldAfter: m.held - memory.base.held };
        return checkContract(got, ref);
      },
    };
  });
  await col.add('mul-sum', "tensorcast today: mul(x, w) (the [batch, in, out] temporary, resident), sum(·, { dims: ['in'], out }), dispose", () => {
    const o = { dims: ['in'], out: toutMS };
    const fn = () => { const p = tc.mul(tx, tw); tc.sum(p, o); p.dispose(); };
    return {
      fn,
      check: () => {
        const before = mem();
        const p = tc.mul(tx, tw);
        const during = mem();
        tc.sum(p, o);
        const after = mem();
        p.dispose();
        memory.mulSum = { heapGrowth: after.heap - before.heap, heldPeak: Math.max(during.held, after.held) - memory.base.held, heapAfter: after.heap, dims: p.dims };
        return checkContract(toutMS.toArray(), ref);
      },
    };
  });
  if (tf) {
    const txf = tf.tensor(x, [B, I], 'float32');
    const twf = tf.tensor(w, [I, O], 'float32');
    await col.add('tf-matmul', 'tfjs-wasm matMul (x, w tensors resident; output disposed): a dedicated GEMM kernel, for scale', () => ({
      fn: () => tf.matMul(txf, twf).dispose(),
      check: () => { const y = tf.matMul(txf, twf); const d = y.dataSync(); y.dispose(); return checkContract(d, ref); },
    }));
  }
  await col.add('limit', 'a hand-written C++ SIMD128 loop of the same contraction (bench/limit/fused.cpp: one pass, each output row kept in registers 16 floats at a time, sums in `in` order; not a tuned GEMM), own memory', () => {
    if (!limit) return 'n/a (the limit module was not built)';
    const L = fusedLimit(limit);
    const px = L.put(x);
    const pw = L.put(w);
    const po = L.zeros(B * O);
    const fn = () => L.exports.contract(px, pw, po, B, I, O);
    return { fn, check: () => { fn(); return checkContract(L.read(po, B * O), ref); } };
  });
  col.memory = memory;
  return col;
}

// ---- contraction at matrix-multiply speed (issue 40) ---------------------------------------
// out[m, n] = Σ_k x[m, k] w[k, n] as evaluate sees it in each dim order, against
// tfjs-wasm matMul (XNNPACK) and the bench's own SIMD128 GEMM (bench/limit/fused.cpp
// `gemm`: packed panels, a 4 x 8 register tile, k in plain order): the limit.
export const GEMMS = {
  'gemm-256': { title: '256×512×256', M: 256, K: 512, N: 256, orders: true },
  'gemm-1024': { title: '1024×1024×1024', M: 1024, K: 1024, N: 1024, orders: true },
  'gemm-batched': { title: 'batched x [8,128,64] × w [64,128] (x {g, m, k}, w {k, n})', M: 1024, K: 64, N: 128, batched: true },
  'gemm-2dim': { title: "two contracted dims: x {b: 256, i: 16, j: 32} × w {i: 16, j: 32, o: 256}, sum over ['i', 'j']", M: 256, K: 512, N: 256, twoDims: true },
  'gemm-bilinear': { title: "bilinear form: x {b: 256, i: 256} · w {i: 256, j: 256} · y {b: 256, j: 256}, sum over ['i', 'j']", M: 256, K: 256, N: 256, bilinear: true },
  'gemm-small': { title: '[1,64] × [64,64]', M: 1, K: 64, N: 64, orders: true, mulSum: true },
};
const GEMM_ORDERS = ['eval', 'eval-xt', 'eval-wt', 'eval-pos'];

const transposed = (a, R, C) => { const t = new Float32Array(R * C); for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) t[c * R + r] = a[r * C + c]; return t; };

async function gemmCases(group, { tc, tf, limit }) {
  const G = GEMMS[group];
  const { M, K, N } = G;
  const col = collector(MS);
  const x = makeData('float32', M * K, 41);
  const w = makeData('float32', K * N, 42);
  // The bilinear form's third factor y [M, N]: out[m] = Σ_n (Σ_k x[m, k] w[k, n]) y[m, n].
  const y = G.bilinear ? makeData('float32', M * N, 43) : null;
  const ref = G.bilinear ? bilinearReference(contractReference(x, w, M, K, N), y, M, N) : contractReference(x, w, M, K, N); // the contract group's: out[m, n] = Σ_k x[m, k] w[k, n] in float64
  const outSize = G.bilinear ? M : M * N;
  const mem = () => { const m = tc.memory(); return { heap: m.wasmHeapBytes, held: m.allocatedBytes + m.scratchBytes }; };
  const memory = { base: mem(), operandBytes: (M * K + K * N + M * N) * 4, productBytes: M * K * N * 4 };
  // Each case: its operands (resident), the text, and a resident `out` of the result's shape.
  const forms = {};
  if (G.batched) {
    forms.eval = { x: tc.tensor(x, [8, 128, 64], { dims: ['g', 'm', 'k'] }), w: tc.tensor(w, [64, 128], { dims: ['k', 'n'] }), text: "sum(x * w, ['k'])", label: 'evaluate, x {g: 8, m: 128, k: 64} × w {k: 64, n: 128}' };
  } else if (G.bilinear) {
    forms.eval = { x: tc.tensor(x, [M, K], { dims: ['b', 'i'] }), w: tc.tensor(w, [K, N], { dims: ['i', 'j'] }), y: tc.tensor(y, [M, N], { dims: ['b', 'j'] }), text: "sum(x * w * y, ['i', 'j'])", label: "evaluate, x {b, i} · w {i, j} · y {b, j}, over ['i', 'j']" };
  } else if (G.twoDims) {
    forms.eval = { x: tc.tensor(x, [256, 16, 32], { dims: ['b', 'i', 'j'] }), w: tc.tensor(w, [16, 32, 256], { dims: ['i', 'j', 'o'] }), text: "sum(x * w, ['i', 'j'])", label: "evaluate, x {b, i, j} × w {i, j, o}, over ['i', 'j']" };
  } else {
    forms.eval = { x: tc.tensor(x, [M, K], { dims: ['b', 'in'] }), w: tc.tensor(w, [K, N], { dims: ['in', 'out'] }), text: "sum(x * w, ['in'])", label: 'evaluate, x {b, in} × w {in, out}' };
    forms['eval-xt'] = { x: tc.tensor(transposed(x, M, K), [K, M], { dims: ['in', 'b'] }), w: tc.tensor(w, [K, N], { dims: ['in', 'out'] }), text: "sum(x * w, ['in'])", label: 'evaluate, x {in, b} × w {in, out}' };
    forms['eval-wt'] = { x: tc.tensor(x, [M, K], { dims: ['b', 'in'] }), w: tc.tensor(transposed(w, K, N), [N, K], { dims: ['out', 'in'] }), text: "sum(x * w, ['in'])", label: 'evaluate, x {b, in} × w {out, in} (a linear layer\'s weight)' };
    forms['eval-pos'] = { x: tc.tensor(x, [M, 1, K]), w: tc.tensor(transposed(w, K, N), [N, K]), text: 'sum(x * w, [2])', label: 'evaluate, positional [M, 1, K] × [N, K] over axis 2' };
  }
  memory.explain = {};
  for (const [id, F] of Object.entries(forms)) {
    await col.add(id, `${F.label}, resident, into a resident \`out\``, () => {
      if (typeof tc.evaluate !== 'function') return NO_EVAL;
      const ins = F.y ? { x: F.x, w: F.w, y: F.y } : { x: F.x, w: F.w };
      const r0 = tc.evaluate(F.text, ins);
      const out = tc.tensor(new Float32Array(outSize), r0.shape, r0.dims ? { dims: r0.dims } : undefined);
      settle(r0);
      const o = { out };
      const fn = () => tc.evaluate(F.text, ins, o);
      return {
        fn,
        check: () => {
          const before = mem();
          fn();
          const after = mem();
          memory[id] = { heapGrowth: after.heap - before.heap, heldAfter: after.held - before.held };
          const sh = (t) => (t.dims ? { shape: t.shape, dims: t.dims } : t.shape);
          const e = tc.explain({ expression: F.text, shapes: F.y ? { x: sh(F.x), w: sh(F.w), y: sh(F.y) } : { x: sh(F.x), w: sh(F.w) } });
          memory.explain[id] = e.contraction ?? null;
          // The result's layout: [m, n] in every form here (out's dims follow x's kept dims, then w's).
          return checkContract(out.toArray(), ref);
        },
      };
    });
  }
  if (G.mulSum) {
    const F = forms.eval;
    const out = tc.tensor(new Float32Array(M * N), [M, N], { dims: ['b', 'out'] });
    await col.add('mul-sum', "tensorcast op by op: mul(x, w), sum(·, { dims: ['in'], out }), the temporary disposed", () => ({
      fn: () => { const p = tc.mul(F.x, F.w); tc.sum(p, { dims: ['in'], out }); p.dispose(); },
      check: () => { const p = tc.mul(F.x, F.w); tc.sum(p, { dims: ['in'], out }); p.dispose(); return checkContract(out.toArray(), ref); },
    }));
  }
  if (tf) {
    const txf = tf.tensor(x, [M, K], 'float32'); // batched and two-dim: x reshaped for matMul ([8·128, 64], [256, 16·32])
    const twf = tf.tensor(w, [K, N], 'float32');
    if (G.bilinear) {
      const tyf = tf.tensor(y, [M, N], 'float32');
      const run = () => tf.tidy(() => tf.sum(tf.mul(tf.matMul(txf, twf), tyf), 1));
      await col.add('tf-matmul', `tfjs-wasm matMul [${M},${K}] × [${K},${N}], mul y [${M},${N}], sum over axis 1 (resident; temporaries and output disposed)`, () => ({
        fn: () => run().dispose(),
        check: () => { const r = run(); const d = r.dataSync(); r.dispose(); return checkContract(d, ref); },
      }));
    } else await col.add('tf-matmul', `tfjs-wasm matMul [${M},${K}] × [${K},${N}] (resident; output disposed)`, () => ({
      fn: () => tf.matMul(txf, twf).dispose(),
      check: () => { const y = tf.matMul(txf, twf); const d = y.dataSync(); y.dispose(); return checkContract(d, ref); },
    }));
  }
  if (G.bilinear) {
    // The limit of the exact order (the bits of mul, mul, sum one by one): bench/limit/fused.cpp `bilinear`.
    await col.add('limit', 'the limit of the exact order: a SIMD128 loop of (x w) y summed in tensorcast\'s row order, no product stored (bench/limit/fused.cpp `bilinear`), own memory', () => {
      if (!limit) return 'n/a (the limit module was not built)';
      if (typeof limit.exports.bilinear !== 'function') return 'n/a (no bilinear in the limit module)';
      const L = fusedLimit(limit);
      const px = L.put(x);
      const pw = L.put(w);
      const py = L.put(y);
      const po = L.zeros(M);
      const fn = () => L.exports.bilinear(px, pw, py, po, M, K, N);
      return {
        fn,
        check: () => {
          fn();
          const got = L.read(po, M);
          const tcOut = tc.evaluate(forms.eval.text, { x: forms.eval.x, w: forms.eval.w, y: forms.eval.y });
          const want = tcOut.toArray();
          settle(tcOut);
          const diff = got.findIndex((v, i) => !Object.is(v, want[i]));
          return diff >= 0 ? `element ${diff}: the limit gives ${got[diff]}, tensorcast ${want[diff]} (not the same order)` : checkContract(got, ref);
        },
      };
    });
  }
  if (!G.bilinear) await col.add('limit', 'the limit: a plain SIMD128 GEMM (bench/limit/fused.cpp `gemm`: packed panels, 4 × 8 register tile, k in plain order), own memory', () => {
    if (!limit) return 'n/a (the limit module was not built)';
    if (typeof limit.exports.gemm !== 'function') return 'n/a (no gemm in the limit module)';
    const L = fusedLimit(limit);
    const px = L.put(x);
    const pw = L.put(w);
    const po = L.zeros(M * N);
    const ps = L.zeros(limit.exports.gemm_scratch_floats(K));
    const fn = () => L.exports.gemm(px, pw, po, M, K, N, ps);
    return { fn, check: () => { fn(); return checkContract(L.read(po, M * N), ref); } };
  });
  col.memory = memory;
  col.orders = G.orders ? GEMM_ORDERS : null;
  return col;
}

// ---- running a group ------------------------------------------------------------------
const RATIOS = {
  chain: [
    ['eval-res', 'limit'], ['eval-res', 'tf-kernel'], ['eval-plain', 'tf-e2e'], ['eval-plain', 'ops-plain'], ['eval-res', 'ops-res'],
    ['ops-res', 'limit'], ['ops-res', 'tf-kernel'], ['ops-plain', 'tf-e2e'], ['tf-kernel', 'limit'], ['eval-plain', 'ort-e2e'], ['ort-e2e', 'tf-e2e'],
  ],
  cold: [['cold', 'warm']],
  small: [['compiled-res', 'add-res'], ['compiled-plain', 'add-plain']],
  contract: [['eval', 'mul-sum'], ['eval', 'limit'], ['mul-sum', 'limit'], ['eval', 'tf-matmul'], ['tf-matmul', 'limit']],
  gemm: [['eval', 'tf-matmul'], ['eval', 'limit'], ['tf-matmul', 'limit'], ['limit', 'tf-matmul'], ['eval-pos', 'tf-matmul'], ['eval-pos', 'limit'], ['eval', 'mul-sum'],
    ...GEMM_ORDERS.map((o) => [o, 'fastest'])],
};
export const UNITS = { chain: 'µs per call', cold: 'µs per call', small: 'ns per call', contract: 'ms per call', gemm: 'ms per call' };
export const kindOf = (g) => (CHAINS[g] ? 'chain' : GEMMS[g] ? 'gemm' : g);

/**
 * Build, check and time one group; returns { group, unit, cases, missing,
 * exact, ratios, memory?, options }. `cpu` (Node): a process CPU clock in ms,
 * for min(wall, CPU) per batch (bench/lib/wall.mjs); a page times wall only.
 */
export async function runFusedGroup(group, env, { runs = 15, warmupMs = 150, pause, cpu } = {}) {
  const kind = kindOf(group);
  if (env.limit) env = { ...env, limit: await instantiateLimit(env.limit) };
  let col;
  if (kind === 'chain') col = await chainCases(group, env);
  else if (kind === 'cold') col = await coldCases(env);
  else if (kind === 'small') col = await smallCases(env);
  else if (kind === 'contract') col = await contractCases(env);
  else if (kind === 'gemm') col = await gemmCases(group, env);
  else throw new Error(`unknown fused group ${group} (${FUSED_GROUPS.join(', ')})`);
  const batchMs = kind === 'small' ? 15 : 20;
  const samples = await measureWall(col.cases, { runs, warmupMs, batchMs, pause, cpu });
  const clock = cpu ? 'min(wall, CPU)' : 'wall';
  const out = { group, unit: UNITS[kind], cases: {}, missing: col.missing, exact: col.exact, labels: col.labels, ratios: {}, options: { runs, warmupMs, batchMs, clock } };
  for (const c of col.cases) out.cases[c.id] = { label: c.label, per: c.per, ...stats(samples[c.id], c.per) };
  // The fastest dim order, run by run: each order is timed against it.
  const orders = (col.orders ?? []).filter((o) => samples[o]);
  if (orders.length > 1) samples.fastest = samples[orders[0]].map((_, i) => Math.min(...orders.map((o) => samples[o][i])));
  for (const [a, b] of RATIOS[kind]) if (samples[a] && samples[b]) out.ratios[`${a}/${b}`] = medianRatio(samples[a], samples[b]);
  if (col.memory) out.memory = col.memory;
  return out;
}

// The sets measured in both Node and headless Chromium, with the same code in
// both (bench/browser/run.mjs): the per-call sets, three kernel sets and four
// reduction sets (issue 13: tensorcast, tfjs-wasm, the plain-JS loop and the
// wasm SIMD load loop; ORT is not loaded in the page).
// Environment-neutral: the caller passes the tensorcast module (`tc`, after
// init()) and, if it loaded, TensorFlow.js with its wasm backend (`tf`).
//
// Each group is timed in its own process (Node) or page (Chromium), in
// interleaved runs, with a plain-JS control in the same runs: the tiny
// [3,1]+[1,4] JS loop (12 elements, no allocation). When the machine is busy
// the control slows with everything else.
import { WORKLOADS, inputs, check, numel } from '../lib/workloads.mjs';
import * as plain from '../lib/plainjs.mjs';
import { makeLimit } from '../lib/limit.mjs';
import { traffic } from '../lib/workloads.mjs';
import { measureWall, stats, medianRatio } from '../lib/wall.mjs';
import { plainReduce, makeLoadLoop, tfSumOnce } from '../lib/reduce.mjs';

export const REDUCE_GROUPS = ['sum-all', 'sum-axis0', 'sum-axis1', 'unb-nchw'];
export const GROUPS = ['percall', 'same', 'row', 'nchw', ...REDUCE_GROUPS];
const W = (id) => WORKLOADS.find((w) => w.id === id);

/** The control: plain JS [3,1]+[1,4] into a preallocated output. */
function control() {
  const w = W('small');
  const { a, b } = inputs(w);
  const run = plain.binaryPrepared('add', 'float32', w.a, w.b);
  const out = new Float32Array(12);
  return { id: 'control', label: 'plain-JS control ([3,1]+[1,4] JS loop, no allocation)', fn: () => run(a, b, out) };
}

function assert(err, what) {
  if (err) throw new Error(`${what}: ${err}`);
}

/**
 * The cases of `group`: [{ id, label, fn, per }] (per: elements per call for
 * ns/el, 1 for ns/call), each checked once against the reference first.
 */
export function makeGroup(group, { tc, tf }) {
  const cases = [control()];
  if (group === 'percall') {
    const w = W('small');
    const { a, b } = inputs(w);
    const e2e = () => tc.add({ data: a, shape: w.a }, { data: b, shape: w.b }).data;
    assert(check(w, { a, b }, e2e()), 'tensorcast small e2e');
    const ta = tc.tensor(a, w.a);
    const tb = tc.tensor(b, w.b);
    const tout = tc.tensor(new Float32Array(12), w.out);
    const opts = { out: tout };
    const res = () => tc.add(ta, tb, opts);
    res();
    assert(check(w, { a, b }, tout.toArray()), 'tensorcast small resident');
    cases.push({ id: 'tc-small-e2e', label: 'tensorcast small [3,1]+[1,4], e2e (typed arrays in, fresh array out)', fn: e2e, per: 1 });
    cases.push({ id: 'tc-small-res', label: 'tensorcast small [3,1]+[1,4], resident (tensors in, resident out)', fn: res, per: 1 });
    const s = W('shapes');
    const [s0, s1] = s.shapes;
    const bs = () => tc.broadcastShapes(s0, s1);
    if (bs().join() !== s.out.join()) throw new Error('tensorcast broadcastShapes: wrong answer');
    cases.push({ id: 'tc-shapes', label: 'tensorcast broadcastShapes([8,1,6,1], [1,7,1,5])', fn: bs, per: 1 });
    cases.push({ id: 'js-shapes', label: 'plain-JS broadcastShapes (same shapes)', fn: () => plain.broadcastShapes(s0, s1), per: 1 });
    // Issue 23: a new pair every call (the engine's shape cache keeps one plan: every call plans afresh).
    const pairs = W('shapes-varied').pairs;
    let turn = 0;
    const varied = () => { const p = pairs[turn++ & 7]; return tc.broadcastShapes(p[0], p[1]); };
    for (let k = 0; k < 8; k++) if (varied().join() !== plain.broadcastShapes(pairs[k][0], pairs[k][1]).join()) throw new Error('tensorcast broadcastShapes (varied): wrong answer');
    cases.push({ id: 'tc-shapes-varied', label: 'tensorcast broadcastShapes, 8 rank-4 pairs in turn (every call plans afresh)', fn: varied, per: 1 });
    // The plain-JS add a user would write instead, with a fresh result (issue 23's yardstick for e2e).
    const fresh = () => plain.binary('add', 'float32', a, w.a, b, w.b);
    assert(check(w, { a, b }, fresh()), 'plain-JS small fresh add');
    cases.push({ id: 'js-small-fresh', label: 'plain-JS small [3,1]+[1,4] (shape rule, strides, loop, a fresh array)', fn: fresh, per: 1 });
    if (tf) {
      const xa = tf.tensor(a, w.a, 'float32');
      const xb = tf.tensor(b, w.b, 'float32');
      const r = tf.add(xa, xb);
      assert(check(w, { a, b }, r.dataSync()), 'tfjs-wasm small');
      r.dispose();
      cases.push({ id: 'tf-small-res', label: 'tfjs-wasm small, resident (tf.add + dispose)', fn: () => tf.add(xa, xb).dispose(), per: 1 });
    }
    return cases;
  }
  const w = W(group);
  if (!w) throw new Error(`unknown group ${group}`);
  if (w.kind === 'reduce') return cases.concat(reduceCases(w, { tc, tf }));
  const data = inputs(w);
  const n = numel(w.out);
  const ta = tc.tensor(data.a, w.a);
  const tb = tc.tensor(data.b, w.b);
  const tout = tc.tensor(new Float32Array(n), w.out);
  const opts = { out: tout };
  tc.add(ta, tb, opts);
  assert(check(w, data, tout.toArray()), `tensorcast ${group}`);
  cases.push({ id: 'tc-kernel', label: `tensorcast ${group}, resident`, fn: () => tc.add(ta, tb, opts), per: n });
  if (tf) {
    const xa = tf.tensor(data.a, w.a, 'float32');
    const xb = tf.tensor(data.b, w.b, 'float32');
    const r = tf.add(xa, xb);
    assert(check(w, data, r.dataSync()), `tfjs-wasm ${group}`);
    r.dispose();
    cases.push({ id: 'tf-kernel', label: `tfjs-wasm ${group}, resident (output allocated per call)`, fn: () => tf.add(xa, xb).dispose(), per: n });
  }
  const run = plain.binaryPrepared('add', 'float32', w.a, w.b);
  const pout = new Float32Array(n);
  run(data.a, data.b, pout);
  assert(check(w, data, pout), `plain JS ${group}`);
  cases.push({ id: 'js-loop', label: 'plain-JS broadcasting loop (preallocated output)', fn: () => run(data.a, data.b, pout), per: n });
  const { read, write } = traffic(w);
  const lim = makeLimit(read, write);
  if (!lim.verify()) throw new Error('limit copy did not move the bytes');
  cases.push({ id: 'wasm-copy', label: `wasm memory.copy of ${lim.bytes.toLocaleString('en-US')} B (the memory-traffic limit)`, fn: lim.kernel, per: n });
  cases.push({ id: 'wasm-simd-copy', label: 'wasm SIMD copy loop of the same bytes', fn: lim.simd, per: n });
  return cases;
}

/**
 * A reduction set (bench/lib/workloads.mjs, kind 'reduce') as a group, in µs
 * per call (`per` 1000 turns the ns of the timing into µs): the same calls as
 * bench/lib/set.mjs makes for tensorcast and tfjs-wasm.
 */
function reduceCases(w, { tc, tf }) {
  const US = 1000;
  const data = inputs(w);
  const { x } = data;
  const n = numel(w.out);
  const unb = w.op === 'unbroadcast';
  const what = unb ? `unbroadcast → [${w.inShape}]` : `sum ${w.axes === null ? 'all' : `axis ${w.axes}`}`;
  const cases = [];
  const tx = tc.tensor(x, w.x);
  const out = new Float32Array(n);
  const o = unb || w.axes === null ? { out } : { axes: w.axes, out };
  const res = unb ? () => tc.unbroadcast(tx, w.inShape, o) : () => tc.sum(tx, o);
  const p = w.axes === null ? undefined : { axes: w.axes };
  const e2e = unb ? () => tc.unbroadcast({ data: x, shape: w.x }, w.inShape).data : () => tc.sum({ data: x, shape: w.x }, p).data;
  res();
  assert(check(w, data, out), `tensorcast ${w.id} resident`);
  assert(check(w, data, e2e()), `tensorcast ${w.id} e2e`);
  cases.push({ id: 'tc-kernel', label: `tensorcast ${what}, x resident, \`out\` a JS array`, fn: res, per: US });
  cases.push({ id: 'tc-e2e', label: `tensorcast ${what}, e2e (typed array in, fresh array out)`, fn: e2e, per: US });
  if (tf) {
    const once = tfSumOnce(tf, w);
    const tt = tf.tensor(x, w.x, 'float32');
    const tfE2E = () => {
      const t = tf.tensor(x, w.x, 'float32');
      const d = once(t);
      t.dispose();
      return d;
    };
    assert(check(w, data, once(tt)), `tfjs-wasm ${w.id}`);
    assert(check(w, data, tfE2E()), `tfjs-wasm ${w.id} e2e`);
    cases.push({ id: 'tf-kernel', label: `tfjs-wasm tf.sum${unb ? ' (keepDims) + reshape' : ''}, x a tensor, result dataSync + dispose`, fn: () => once(tt), per: US });
    cases.push({ id: 'tf-e2e', label: 'tfjs-wasm, e2e (+ tf.tensor(data) and its dispose)', fn: tfE2E, per: US });
  }
  const pout = new Float32Array(n);
  const scratch = new Float64Array(n);
  assert(check(w, data, plainReduce(x, w.x, w.axes, pout, scratch)), `plain JS ${w.id}`);
  cases.push({ id: 'js-loop', label: 'plain-JS loop (float64 accumulators, preallocated output)', fn: () => plainReduce(x, w.x, w.axes, pout, scratch), per: US });
  const read = makeLoadLoop(x);
  if (!read.verify()) throw new Error('the load loop did not read every element');
  cases.push({ id: 'wasm-read', label: `wasm SIMD load loop: read the ${read.bytes.toLocaleString('en-US')} B once`, fn: read.fn, per: US });
  return cases;
}

/** Time a group; returns { cases: { id: { label, per, ...stats } }, ratios }. */
export async function runGroup(group, env, { runs = 31, warmupMs = 300, pause } = {}) {
  const cases = makeGroup(group, env);
  const batchMs = group === 'percall' ? 15 : 25;
  const samples = await measureWall(cases, { runs, warmupMs, batchMs, pause });
  const out = { group, cases: {}, ratios: {}, options: { runs, warmupMs, batchMs } };
  for (const c of cases) out.cases[c.id] = { label: c.label, per: c.per || 1, ...stats(samples[c.id], c.per || 1) };
  const ratio = (x, y) => (samples[x] && samples[y] ? medianRatio(samples[x], samples[y]) : undefined);
  if (group === 'percall') {
    out.ratios = {
      'tc-small-e2e/control': ratio('tc-small-e2e', 'control'),
      'tc-small-e2e/js-small-fresh': ratio('tc-small-e2e', 'js-small-fresh'),
      'tc-shapes-varied/js-shapes': ratio('tc-shapes-varied', 'js-shapes'),
      'tc-small-res/control': ratio('tc-small-res', 'control'),
      'tc-shapes/js-shapes': ratio('tc-shapes', 'js-shapes'),
      'tc-small-res/tf-small-res': ratio('tc-small-res', 'tf-small-res'),
    };
  } else if (REDUCE_GROUPS.includes(group)) {
    out.ratios = {
      'tc/tf': ratio('tc-kernel', 'tf-kernel'),
      'tc-e2e/tf-e2e': ratio('tc-e2e', 'tf-e2e'),
      'tc/wasm-read': ratio('tc-kernel', 'wasm-read'),
      'tc/js-loop': ratio('tc-kernel', 'js-loop'),
    };
  } else {
    out.ratios = {
      'tc/tf': ratio('tc-kernel', 'tf-kernel'),
      'tc/js-loop': ratio('tc-kernel', 'js-loop'),
      'tc/wasm-copy': ratio('tc-kernel', 'wasm-copy'),
      'tc/wasm-simd-copy': ratio('tc-kernel', 'wasm-simd-copy'),
    };
  }
  return out;
}

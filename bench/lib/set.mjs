// One workload set in one Node process: tensorcast, every peer and the limit,
// checked once for the right answer, then timed side by side.
//   node bench/lib/set.mjs <workload id> <result.json> [--quick]
import fs from 'node:fs';
import { WORKLOADS, describe, traffic, inputs, check, numel } from './workloads.mjs';
import { PEERS, WASM_PEERS, Unsupported, version } from './peers.mjs';
import { tensorcast, Pending } from './tensorcast.mjs';
import { makeLimit } from './limit.mjs';
import { makeLoadLoop } from './reduce.mjs';
import { measure, median, quantile, medianRatio } from './timing.mjs';

const [id, resultFile, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
// The clock the table and the ratios use: 'min' (default: min(wall, CPU) per
// batch, see timing.mjs), 'wall' or 'cpu'.
const clock = (flags.find((f) => f.startsWith('--clock=')) || '--clock=min').slice(8);
const w = WORKLOADS.find((x) => x.id === id);
if (!w) throw new Error(`unknown workload ${id}`);

const log = (...a) => process.stderr.write(`[${id}] ${a.join(' ')}\n`);
const result = { id, title: w.title, description: describe(w), unit: w.unit, note: w.note || '', out: w.out, impls: [], limit: null };

const impls = [tensorcast, ...PEERS];
const data = inputs(w);

async function tryPrepare(impl) {
  const row = { name: impl.name, status: 'ok', reason: '', notes: '', info: '' };
  try {
    await impl.init();
    row.info = impl.info || '';
  } catch (e) {
    row.status = 'error';
    row.reason = `init failed: ${e.message}`;
    return { row };
  }
  try {
    if (w.kind === 'shapes') {
      if (!impl.shapes) throw new Unsupported('no broadcast-shape function');
      const c = impl.shapes(w);
      const got = c.fn();
      if (!Array.isArray(got) || got.join() !== w.out.join()) {
        row.status = 'wrong';
        row.reason = `returned ${JSON.stringify(got)}, expected ${JSON.stringify(w.out)}`;
        return { row };
      }
      return { row, kernel: c };
    }
    const p = await (w.kind === 'binary' ? impl.binary(w, data) : w.kind === 'reduce' ? impl.reduce(w, data) : impl.broadcastTo(w, data));
    row.notes = p.notes || '';
    // The right answer, once, on both paths, before any timing.
    const k = await p.readKernel();
    const errK = check(w, data, k);
    const e = await p.e2e.fn();
    const errE = check(w, data, e);
    const errShape = p.checkE2E ? p.checkE2E() : [];
    if (errK || errE || errShape.length) {
      row.status = 'wrong';
      row.reason = [errK && `kernel: ${errK}`, errE && `e2e: ${errE}`, ...errShape].filter(Boolean).join('; ');
      return { row };
    }
    return { row, kernel: p.kernel, e2e: p.e2e };
  } catch (e) {
    if (e instanceof Pending) row.status = 'pending';
    else if (e instanceof Unsupported) row.status = 'n/a';
    else row.status = 'error';
    row.reason = e.message.split('\n')[0];
    if (row.status === 'error') log(`${impl.name}: ${e.stack}`);
    return { row };
  }
}

const cases = [];
const prepared = [];
for (const impl of impls) {
  if (impl.only && !impl.only.includes(w.kind)) continue; // exists for other sets only
  if (w.kind === 'reduce' && !impl.reduce) continue; // no reduction measured for this library
  const p = await tryPrepare(impl);
  log(`${impl.name}: ${p.row.status}${p.row.reason ? ` (${p.row.reason})` : ''}`);
  prepared.push(p);
  if (p.kernel) cases.push({ id: `${impl.name}|kernel`, fn: p.kernel.fn, async: !!p.kernel.async });
  if (p.e2e) cases.push({ id: `${impl.name}|e2e`, fn: p.e2e.fn, async: !!p.e2e.async });
}

const { read, write } = traffic(w);
let limit = null;
let loadLoop = null;
if (w.kind === 'reduce') {
  // The reference of the reduction sets: a wasm SIMD loop that reads the input's bytes once.
  loadLoop = makeLoadLoop(data.x);
  if (!loadLoop.verify()) throw new Error('the load loop did not read every element');
  cases.push({ id: 'read|kernel', fn: loadLoop.fn });
} else if (w.kind !== 'shapes') {
  limit = makeLimit(read, write);
  if (!limit.verify()) throw new Error('limit copy did not move the bytes');
  cases.push({ id: 'limit|kernel', fn: limit.kernel }, { id: 'limit|e2e', fn: limit.e2e }, { id: 'simdcopy|kernel', fn: limit.simd });
}

const big = w.unit === 'elem' || w.unit === 'us'; // long batches
const opts = quick
  ? { runs: 7, warmupMs: 60, batchMs: big ? 8 : 5 }
  : { runs: 31, warmupMs: 300, batchMs: big ? 25 : 15 };
const t0 = performance.now();
const both = await measure(cases, { ...opts, onProgress: (r, n) => { if (r === n || r % 7 === 0) log(`run ${r}/${n}`); } });
const samples = both[clock];
const other = both[clock === 'wall' ? 'cpu' : 'wall'];
log(`timed ${cases.length} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const perUnit = w.unit === 'elem' ? numel(w.out) : 1;
const stats = (s) => ({
  median: median(s) / perUnit,
  p25: quantile(s, 0.25) / perUnit,
  p75: quantile(s, 0.75) / perUnit,
  runs: s.length,
});

// Reference rows per mode: the fastest wasm peer, and the fastest JS/wasm peer.
const modes = ['kernel', 'e2e'];
const fastest = {};
for (const m of modes) {
  let wasm = null;
  let any = null;
  for (const p of prepared) {
    const s = samples[`${p.row.name}|${m}`];
    if (!s || p.row.name === 'tensorcast' || p.row.name.includes('native')) continue;
    const med = median(s);
    if (WASM_PEERS.has(p.row.name) && (!wasm || med < wasm.med)) wasm = { name: p.row.name, med };
    if (!any || med < any.med) any = { name: p.row.name, med };
  }
  fastest[m] = { wasm: wasm && wasm.name, peer: any && any.name };
}
result.fastest = fastest;

for (const p of prepared) {
  const row = { ...p.row, version: p.row.name === 'tensorcast' ? 'dist/' : peerVersion(p.row.name) };
  for (const m of modes) {
    const s = samples[`${p.row.name}|${m}`];
    if (!s) continue;
    const r = { ...stats(s), other: stats(other[`${p.row.name}|${m}`]) };
    if (limit) r.xLimit = medianRatio(s, samples[`limit|${m}`]);
    if (loadLoop) r.xRead = medianRatio(s, samples['read|kernel']);
    if (limit && m === 'kernel') r.xSimdCopy = medianRatio(s, samples['simdcopy|kernel']);
    if (fastest[m].wasm) r.xWasm = medianRatio(s, samples[`${fastest[m].wasm}|${m}`]);
    if (fastest[m].peer) r.xPeer = medianRatio(s, samples[`${fastest[m].peer}|${m}`]);
    const plain = samples[`plain JS|${m}`];
    if (plain) r.xPlain = medianRatio(s, plain);
    const loop = samples[`plain JS (element loop)|${m}`];
    if (loop) r.xPlainLoop = medianRatio(s, loop);
    row[m] = r;
  }
  result.impls.push(row);
}
if (limit) {
  result.limit = {
    bytes: limit.bytes, read, write,
    kernel: { ...stats(samples['limit|kernel']), other: stats(other['limit|kernel']) },
    e2e: { ...stats(samples['limit|e2e']), other: stats(other['limit|e2e']) },
    simd: { ...stats(samples['simdcopy|kernel']), other: stats(other['simdcopy|kernel']), xLimit: medianRatio(samples['simdcopy|kernel'], samples['limit|kernel']) },
  };
}
if (loadLoop) {
  result.read = { bytes: loadLoop.bytes, ...stats(samples['read|kernel']), other: stats(other['read|kernel']) };
}
result.options = { ...opts, clock };
fs.writeFileSync(resultFile, JSON.stringify(result, null, 1));

function peerVersion(name) {
  return {
    'tfjs-wasm': version('@tensorflow/tfjs-backend-wasm'),
    'ort-web': version('onnxruntime-web'),
    'ort-node (native)': version('onnxruntime-node'),
    '@stdlib/ndarray': version('@stdlib/ndarray'),
    'ndarray-ops': version('ndarray-ops'),
    'plain JS': '',
    'plain JS (element loop)': '',
  }[name] ?? '';
}
process.exit(0);

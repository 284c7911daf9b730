// onnxruntime-node's answer on the ONNX corpus (tests/fixtures/onnx/corpus.json),
// recorded in tests/fixtures/onnx/ort.json for tests/js/model.test.js. Run after
// gen_onnx_corpus.py and a build, with the bench's dependencies installed:
//
//     (cd bench && npm ci --ignore-scripts) && node tests/tools/ort_agreement.mjs
//
// Each model is run with the output of every broadcasting node of its main graph
// made a graph output (a nested graph's values cannot be fetched). The inputs:
// the backend test's own (feeds.json), or ones, each dim that is a name given a
// value inferShapes allows for it (2 where it allows any). onnxruntime is not a
// devDependency (its install fetches binaries), so CI reads the record.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../../dist/tensorcast-model-node.js';
import { readOnnx } from '../../dist/onnx-read.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ort = createRequire(path.join(root, 'bench', 'package.json'))('onnxruntime-node');
const dir = path.join(root, 'tests', 'fixtures', 'onnx');
const corpus = JSON.parse(readFileSync(path.join(dir, 'corpus.json'), 'utf8'));
const feeds = JSON.parse(readFileSync(path.join(dir, 'feeds.json'), 'utf8'));

// ---- protobuf: add graph outputs ------------------------------------------------
function varint(n) {
  const out = [];
  while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); }
  out.push(n);
  return out;
}
function readVarint(b, p) {
  let x = 0;
  let mul = 1;
  for (;;) {
    const c = b[p++];
    x += (c & 0x7f) * mul;
    if (c < 0x80) return [x, p];
    mul *= 128;
  }
}
function field(num, bytes) {
  return [...varint(num * 8 + 2), ...varint(bytes.length), ...bytes];
}
/** The model with `names` appended to its main graph's outputs (ValueInfoProto with a name only). */
function exposing(bytes, names) {
  const extra = names.flatMap((n) => field(12, field(1, [...new TextEncoder().encode(n)])));
  const parts = [];
  let p = 0;
  while (p < bytes.length) {
    const start = p;
    let key;
    [key, p] = readVarint(bytes, p);
    const wire = key & 7;
    const num = Math.floor(key / 8);
    if (wire === 0) [, p] = readVarint(bytes, p);
    else if (wire === 5) p += 4;
    else if (wire === 1) p += 8;
    else {
      let len;
      [len, p] = readVarint(bytes, p);
      const at = p;
      p += len;
      if (num === 7) {
        // the graph: its bytes, then the new outputs, under a new length
        parts.push(Uint8Array.from([...varint(7 * 8 + 2), ...varint(len + extra.length)]), bytes.subarray(at, p), Uint8Array.from(extra));
        continue;
      }
    }
    parts.push(bytes.subarray(start, p));
  }
  const out = new Uint8Array(parts.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of parts) { out.set(a, o); o += a.length; }
  return out;
}

// onnxruntime cannot run these: a kernel it lacks, a custom op, a sequence input (no answer either way).
// Sizes for the real models' named dims, and their inputs, as their users feed them.
const SIZES = {
  'real/ch_PP-OCRv4_det_infer.onnx': { 'p2o.DynamicDimension.0': 1, 'p2o.DynamicDimension.1': 64, 'p2o.DynamicDimension.2': 96 },
  'real/ch_ppocr_mobile_v2.0_cls_infer.onnx': { 'p2o.DynamicDimension.0': 2 },
  'real/silero_vad_legacy.onnx': { batch: 1, sequence: 512 },
};
const FEEDS = {
  'real/silero_vad_legacy.onnx': { sr: { type: 'int64', dims: [], data: [16000] } },
};

const CANNOT_RUN = /Could not find an implementation|is not a registered function\/op|is not a tensor/;

const ARRAYS = { float32: Float32Array, float64: Float64Array, int8: Int8Array, int16: Int16Array, int32: Int32Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, bool: Uint8Array, float16: Uint16Array };

function tensor(type, dims, data) {
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 'int64' || type === 'uint64') {
    const A = type === 'int64' ? BigInt64Array : BigUint64Array;
    return new ort.Tensor(type, A.from(data ?? new Array(n).fill(1), (v) => BigInt(v)), dims);
  }
  const A = ARRAYS[type];
  if (!A) throw new Error(`no feed for type ${type}`);
  const a = new A(n);
  if (type === 'float16') a.fill(data ? 0 : 0x3c00); // backend float16 feeds are rare: ones
  else if (data) a.set(data.map((v) => (type === 'bool' ? (v ? 1 : 0) : v)));
  else a.fill(1);
  return new ort.Tensor(type, type === 'bool' ? new Uint8Array(a) : a, dims);
}

await tc.init();
const out = { generator: 'tests/tools/ort_agreement.mjs', onnxruntime: ort.env?.versions?.node ?? JSON.parse(readFileSync(path.join(root, 'bench', 'node_modules', 'onnxruntime-node', 'package.json'), 'utf8')).version, models: {} };
let ran = 0;
let failed = 0;
for (const model of corpus.models) {
  const bytes = new Uint8Array(readFileSync(path.join(dir, model.file)));
  const report = tc.inferShapes(bytes);
  const graphName = readOnnx(bytes).graph.name || 'main';
  const exposed = [...new Set(report.nodes.filter((n) => n.graph === graphName).map((n) => n.output.name))];
  // a value for each name: one the report allows
  const sigma = { ...(SIZES[model.file] ?? {}) };
  for (const s of report.symbols) if (!(s.name in sigma)) sigma[s.name] = s.values && s.values.length ? Math.max(...s.values) : 2;
  let session;
  const rec = { symbols: sigma, outputs: {} };
  try {
    session = await ort.InferenceSession.create(exposing(bytes, exposed), { graphOptimizationLevel: 'disabled' });
  } catch (e) {
    rec[CANNOT_RUN.test(e.message) ? 'cannotRun' : 'error'] = String(e.message).split('\n')[0].slice(0, 300);
    out.models[model.file] = rec;
    failed++;
    continue;
  }
  const given = { ...(feeds[model.file] ?? {}), ...(FEEDS[model.file] ?? {}) };
  const inputs = {};
  try {
    for (const meta of session.inputMetadata) {
      if (!meta.isTensor) throw new Error(`input ${meta.name} is not a tensor`);
      if (given && given[meta.name]) {
        const g = given[meta.name];
        inputs[meta.name] = tensor(g.type, g.dims, g.data);
      } else {
        for (const d of meta.shape) if (typeof d === 'string' && !(d in sigma)) sigma[d] = 2;
        const dims = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : typeof d === 'string' ? sigma[d] : 2));
        inputs[meta.name] = tensor(meta.type, dims, null);
      }
    }
    const res = await session.run(inputs);
    for (const name of exposed) if (res[name]) rec.outputs[name] = [...res[name].dims];
    ran++;
  } catch (e) {
    rec[CANNOT_RUN.test(e.message) ? 'cannotRun' : 'error'] = String(e.message).split('\n')[0].slice(0, 300);
    failed++;
  }
  out.models[model.file] = rec;
}
writeFileSync(path.join(dir, 'ort.json'), JSON.stringify(out, null, 1) + '\n');
console.log(`${ran} models ran, ${failed} refused or failed`);

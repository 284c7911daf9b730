// tensorcast/shapes (dist/tensorcast-shapes-node.js, its .cjs and its browser
// bundle): the rules without the kernels. It must answer exactly as the full
// entry does — the same shapes, the same BroadcastError codes and messages, the
// same explain() JSON — on the cases the other suites use (shape-cases.js: the
// golden vectors and the NumPy corpus), load the way the full entry loads, and
// refuse the other build's module. Both entries run side by side here, each
// with its own engine.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, mkdtempSync, cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as full from '../../dist/node.js';
import * as shapes from '../../dist/tensorcast-shapes-node.js';
import { golden, runnable, runner, nameOf, expected, numpyCorpus, numpyFamilies } from './shape-cases.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const fullWasm = readFileSync(path.join(dist, 'tensorcast.wasm'));
const shapesWasm = readFileSync(path.join(dist, 'tensorcast-shapes.wasm'));
// A fresh copy of an entry (its own loader state). The shapes bundle is one file, so a query string makes it
// fresh; the full entry's modules are shared by its files, so it is a copy of dist/ (as loader.test.js does).
let fresh = 0;
const freshShapes = () => import(`${pathToFileURL(path.join(dist, 'tensorcast-shapes-node.js')).href}?fresh=${++fresh}`);
async function freshFull() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tc-shapes-full-'));
  cpSync(dist, dir, { recursive: true });
  return import(pathToFileURL(path.join(dir, 'node.js')).href);
}

beforeAll(async () => {
  await full.init();
  await shapes.init();
});

/** A call's outcome, comparable across entries: its value, or the error's class, code and message. */
function outcome(call) {
  try {
    return { value: call() };
  } catch (e) {
    return { error: e.constructor.name, code: e.code, message: e.message };
  }
}

const EXPORTS = ['BroadcastError', 'ErrorCode', 'MAX_RANK', 'UNKNOWN_RANK', 'autoBroadcastShape', 'broadcastShapes', 'broadcastToShape',
  'contract', 'explain', 'formatDim', 'formatShape', 'init', 'initSync', 'isReady', 'namedBroadcastShape', 'reductionAxes'];

describe('tensorcast/shapes: what it exports', () => {
  it('the rules, explain, reductionAxes, the errors and the loader: names the full entry has too', () => {
    expect(Object.keys(shapes).sort()).toEqual(EXPORTS);
    for (const k of EXPORTS) expect(typeof shapes[k], k).toBe(typeof full[k]);
    expect(shapes.MAX_RANK).toBe(full.MAX_RANK);
    expect(shapes.UNKNOWN_RANK).toBe(full.UNKNOWN_RANK);
    expect(shapes.ErrorCode).toEqual(full.ErrorCode);
  });

  it('explain() of an expression points to the full entry, and blames no entry the caller may not have used', async () => {
    // tensorcast/model shares this refusal: it must not tell a model user to stop importing tensorcast/shapes.
    const model = await import('../../dist/tensorcast-model-node.js');
    await model.init();
    for (const entry of [shapes, model]) {
      const r = entry.explain({ expression: 'x * 2', shapes: { x: [2] } });
      expect(r.ok).toBe(false);
      expect(r.error.name).toBe('TypeError');
      expect(r.error.message).toBe("explain: expressions need the full entry: import from 'tensorcast'");
    }
  });

  it('its contract: the same rules, statuses, limits and version; build "shapes", no dtypes, ops or reductions', () => {
    const s = shapes.contract();
    const f = full.contract();
    expect(s.build).toBe('shapes');
    expect(f.build).toBe('full');
    expect(s.dtypes).toEqual([]);
    expect(s.ops).toEqual([]);
    expect(f.ops.length).toBeGreaterThan(0);
    for (const k of ['version', 'statuses', 'verdicts', 'inner', 'rules', 'shapings', 'limits']) expect(s[k], k).toEqual(f[k]);
  });

  it('the browser bundle holds the shape modules and no data-path module', () => {
    const text = readFileSync(path.join(dist, 'tensorcast-shapes.js'), 'utf8');
    // esbuild heads each bundled module with its path.
    const modules = [...text.matchAll(/^\/\/ ([\w.-]+\.m?js)$/gm)].map((m) => m[1]).sort();
    // The reading room (operands.js: shape arguments) and the running room (execute.js: the wire
    // codec) are shared with the data path: of them only what the shape calls use is bundled.
    expect(modules).toEqual(['contract.js', 'engine.js', 'errors.js', 'execute.js', 'explain.js', 'loader.js', 'named.js', 'operands.js', 'options.js', 'rules.js']);
    for (const dataPath of ['readOperand', 'settle', 'committable', 'runBinary', 'executeInner', 'copyIn', 'streamed', 'copyView', 'makeTensor']) {
      expect(text, dataPath).not.toMatch(new RegExp(`function ${dataPath}\\b`));
    }
    expect(text).toContain("new URL(\"./tensorcast-shapes.wasm\", import.meta.url)");
    expect(text).not.toContain('tensorcast.wasm"');
    // Its messages name its own file (until 0.9.28 an unreadable contract asked "is this tensorcast.wasm …?").
    expect(text).not.toMatch(/is this tensorcast\.wasm/);
  });
});

describe('tensorcast/shapes answers as tensorcast does', () => {
  it(`the golden vectors (${runnable.length}): the same shapes, and the same errors word for word`, () => {
    expect(runnable.length).toBeGreaterThanOrEqual(235);
    let errors = 0;
    for (const c of runnable) {
      const want = outcome(runner(full, c));
      const got = outcome(runner(shapes, c));
      expect(got, nameOf(c)).toEqual(want);
      if (c.expect.error) {
        expect(got.error, nameOf(c)).toBe('BroadcastError');
        errors++;
      } else {
        expect(got.value, nameOf(c)).toEqual(expected(c.expect));
      }
    }
    expect(errors).toBeGreaterThan(20);
  });

  it('the named golden vectors (tensorics)', () => {
    const named = golden.cases.filter((c) => c.family === 'named_missing');
    expect(named.length).toBeGreaterThanOrEqual(4);
    const operand = (t) => ({ dims: Object.keys(t.dims), coords: t.dims });
    for (const c of named) {
      for (const shaping of ['intersection', 'exact', 'union']) {
        const call = (tc) => () => tc.namedBroadcastShape(operand(c.inputs.left), operand(c.inputs.right), { shaping });
        expect(outcome(call(shapes)), `${c.note} ${shaping}`).toEqual(outcome(call(full)));
      }
    }
  });

  for (const [family, call] of Object.entries(numpyFamilies(shapes))) {
    it(`the NumPy corpus, ${family}: NumPy's answers, and the full entry's messages`, () => {
      const cases = numpyCorpus[family];
      const fullCall = numpyFamilies(full)[family];
      expect(cases.length).toBeGreaterThanOrEqual(500);
      for (let i = 0; i < cases.length; i++) {
        const c = cases[i];
        const got = outcome(() => call(c));
        expect(got, `${family} case ${i}`).toEqual(outcome(() => fullCall(c)));
        if ('error' in c) expect(got.code, `${family} case ${i}`).toBe(c.error);
        else expect(got.value, `${family} case ${i}`).toEqual(c.out);
      }
    });
  }

  it('reductionAxes: the same axes and refusals over the corpus\' Broadcast-op cases', () => {
    let n = 0;
    for (const [family, mode] of [['to_numpy', 'numpy'], ['bidirectional', 'bidirectional'], ['explicit', 'explicit']]) {
      for (const c of numpyCorpus[family]) {
        const out = 'out' in c ? c.out : c.target;
        const options = mode === 'explicit' ? { mode, axesMapping: c.axesMapping } : { mode };
        const want = outcome(() => full.reductionAxes(c.input, out, options));
        expect(outcome(() => shapes.reductionAxes(c.input, out, options)), `${family} ${JSON.stringify(c)}`).toEqual(want);
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
    expect(shapes.reductionAxes([3, 1], [2, 3, 5])).toEqual([0, 2]);
    expect(shapes.reductionAxes([3, 1], [2, 3], { type: 'pdpd', axis: 1 })).toEqual([0]);
  });

  it('explain(): the same JSON, refusals included, for every rule', () => {
    const requests = [];
    for (const c of numpyCorpus.numpy.slice(0, 300)) requests.push({ shapes: c.shapes });
    for (const c of numpyCorpus.pdpd.slice(0, 150)) requests.push({ rule: 'pdpd', shapes: [c.a, c.b], ...('axis' in c ? { axis: c.axis } : {}) });
    for (const c of numpyCorpus.explicit.slice(0, 150)) requests.push({ rule: 'broadcastTo', mode: 'explicit', shapes: [c.input, c.target], axesMapping: c.axesMapping });
    for (const c of numpyCorpus.bidirectional.slice(0, 150)) requests.push({ rule: 'broadcastTo', mode: 'bidirectional', shapes: [c.input, c.target] });
    requests.push({ rule: 'none', shapes: [[2, 3], [2, 3]] }, { rule: 'none', shapes: [[2, 3], [3]] });
    requests.push({ shapes: [['?', 4, 1], ['2..8', 1, 5]] }, { shapes: ['[...]', [3]] });
    requests.push({ rule: 'named', operands: [{ dims: ['x'], shape: [2] }, { dims: ['y', 'x'], shape: [3, 2] }] });
    requests.push({ rule: 'named', operands: [{ dims: ['x'], coords: { x: ['a', 'b'] } }, { dims: ['x'], coords: { x: ['b', 'c'] } }], shaping: 'exact' });
    requests.push({ rule: 'bogus' }, null, { shapes: 'nope' });
    let refused = 0;
    for (const r of requests) {
      const got = shapes.explain(r);
      expect(got, JSON.stringify(r)).toEqual(full.explain(r));
      if (!got.ok) refused++;
    }
    expect(refused).toBeGreaterThan(10);
  });

  it('TypeErrors and invalid input: the same messages', () => {
    const calls = [
      (tc) => tc.broadcastShapes('x'),
      (tc) => tc.broadcastShapes([1.5]),
      (tc) => tc.autoBroadcastShape([2], [2], { type: 'sideways' }),
      (tc) => tc.broadcastToShape([2], [2], { mode: 'explicit' }),
      (tc) => tc.namedBroadcastShape({ dims: 'x' }, { dims: ['x'] }),
      (tc) => tc.reductionAxes([2], [2], { bogus: 1 }),
      (tc) => tc.namedBroadcastShape({ dims: ['x', 'x'], shape: [2, 2] }, { dims: ['x'] }),
      (tc) => tc.init(42),
    ];
    for (const call of calls) {
      const want = outcome(() => call(full));
      expect(want.error, String(call)).toMatch(/^(TypeError|BroadcastError)$/);
      expect(outcome(() => call(shapes)), String(call)).toEqual(want);
    }
  });
});

describe('tensorcast/shapes loads as tensorcast does', () => {
  it('before init(): the same refusal; init() reads tensorcast-shapes.wasm from the package', async () => {
    const s = await freshShapes();
    expect(s.isReady()).toBe(false);
    expect(() => s.broadcastShapes([1], [2])).toThrow(/call `await init\(\)`/);
    const p = s.init();
    expect(s.init()).toBe(p); // one load
    await p;
    expect(s.isReady()).toBe(true);
    expect(s.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
  });

  it('initSync() with no options, with { wasmBinary } and with { module }', async () => {
    for (const options of [undefined, { wasmBinary: shapesWasm }, { module: new WebAssembly.Module(shapesWasm) }]) {
      const s = await freshShapes();
      s.initSync(options);
      expect(s.broadcastShapes([8, 1, 6, 1], [7, 1, 5])).toEqual([8, 7, 6, 5]);
    }
  });

  it('refuses the full engine, and the full entry refuses the shapes engine, naming the file each needs', async () => {
    const s = await freshShapes();
    const msgShapes = /not the tensorcast\/shapes engine: .*Pass this package's tensorcast-shapes\.wasm.*tensorcast\.wasm is the engine of 'tensorcast'/;
    expect(() => s.initSync({ wasmBinary: fullWasm })).toThrow(msgShapes);
    await expect(s.init({ module: new WebAssembly.Module(fullWasm) })).rejects.toThrow(msgShapes);
    expect(s.isReady()).toBe(false);
    await s.init(); // a failed load leaves nothing behind
    expect(s.contract().build).toBe('shapes');

    const f = await freshFull();
    const msgFull = /not the tensorcast engine: .*Pass this package's tensorcast\.wasm.*tensorcast-shapes\.wasm is the engine of 'tensorcast\/shapes'/;
    expect(() => f.initSync({ wasmBinary: shapesWasm })).toThrow(msgFull);
    await expect(f.init({ wasmBinary: shapesWasm })).rejects.toThrow(msgFull);
    expect(f.isReady()).toBe(false);
  });

  it("a contract of the other build is refused by the contract reader (the loader's second check)", async () => {
    const { readContract } = await import('../../dist/contract.js');
    const other = { contract: () => JSON.stringify(['shapes']), version: () => '0' };
    expect(() => readContract(other, 'full')).toThrow(/this module is tensorcast-shapes\.wasm, the engine of 'tensorcast\/shapes'; this entry needs tensorcast\.wasm/);
    const fullOne = { contract: () => JSON.stringify(['full']), version: () => '0' };
    expect(() => readContract(fullOne, 'shapes')).toThrow(/this module is tensorcast\.wasm.*this entry needs tensorcast-shapes\.wasm/);
  });

  it('require() gives the same API (tensorcast-shapes.cjs, initSync reading the package file)', () => {
    const require = createRequire(import.meta.url);
    const s = require(path.join(dist, 'tensorcast-shapes.cjs'));
    expect(Object.keys(s).sort()).toEqual(EXPORTS);
    s.initSync();
    expect(s.broadcastToShape([3, 1, 5, 1], [-1, -1, 5, 6])).toEqual([3, 1, 5, 6]);
    expect(() => s.broadcastShapes([3], [4])).toThrow(s.BroadcastError);
  });

  it('the whole entry is at most 30 KB gzipped, measured as the bench measures it (bench/lib/size.mjs)', async () => {
    const { shapesSize } = await import('../../bench/lib/size.mjs');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const row = await shapesSize(root, mkdtempSync(path.join(tmpdir(), 'tc-shapes-size-')));
    expect(row, 'rolldown (a devDependency) bundles the entry').not.toBe(null);
    expect(row.wasmGzip).toBeGreaterThan(5000);
    expect(row.gzip, `JS ${row.glueGzip} + wasm ${row.wasmGzip} bytes gzipped`).toBeLessThanOrEqual(30 * 1024);
  });
});

// The C++/JS boundary (issue 12): a call reads every user value once, before
// it touches the heap, and plans and runs in one wasm call, so user code that
// runs inside a getter, a Proxy trap or valueOf (calling the library again,
// allocating, growing memory, lying about a length) can never make a kernel
// run over another call's plan or buffers. And the JS view of the engine's
// tables is built from the module, checked here against what JS knows.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { selectKernels, reduceKernels, unaryKernels, castKernels } from '../../dist/introspect.js';
import { mod } from '../../dist/loader.js';
import { model } from './reference-model.js';
import { FULL_ENGINE } from './full-engine.js';

// Every reference kept (full-engine.js): this file sweeps SIMD kernels against them.
beforeAll(async () => { await tc.init({ wasmUrl: FULL_ENGINE }); });

const f32 = (...v) => Float32Array.from(v);
const A = () => ({ data: f32(1, 2, 3), shape: [3, 1] });
const B = () => ({ data: f32(10, 20), shape: [1, 2] });
const RIGHT = [11, 21, 12, 22, 13, 23];
const values = (r) => Array.from(r instanceof tc.Tensor ? r.toArray() : r.data);

// What user code does while the library reads its arguments.
const nested = {
  'another add (another plan)': () => tc.add({ data: new Float32Array(8).fill(5), shape: [8] }, { data: new Float32Array(8).fill(1), shape: [8, 1] }),
  'a much larger plan': () => tc.explain({ shapes: [[200000], [200000]] }),
  'a broadcastTo': () => tc.broadcastTo({ data: f32(1, 2), shape: [2] }, [64, 2]),
  'a where': () => tc.where({ data: new Uint8Array([1, 0]) }, { data: f32(7, 8) }, 0),
  // 48 MiB at a time: past the heap the first time (memory grows), reused afterwards.
  'memory growth (a large tensor)': () => { const t = tc.tensor(new Float32Array(12 << 20)); t.dispose(); },
  'a named add with fill': () => tc.add({ data: f32(1, 2), dims: ['x'], coords: { x: ['a', 'b'] } }, { data: f32(3), dims: ['x'], coords: { x: ['c'] } }, { shaping: 'union' }),
};

function sane() {
  expect(tc.broadcastShapes([3, 1], [1, 4])).toEqual([3, 4]);
  expect(values(tc.add(A(), B()))).toEqual(RIGHT);
  const t = tc.tensor(f32(0.5, 1.5, 2.5, 3.5));
  expect(values(tc.mul(t, 2))).toEqual([1, 3, 5, 7]);
  t.dispose();
}

describe('user code inside a call never changes the call', () => {
  it('the memory-growth hook does grow wasm memory', () => {
    const before = tc.memory().wasmHeapBytes;
    const out = new Float32Array(6);
    const r = tc.add(A(), B(), { get out() { nested['memory growth (a large tensor)'](); return out; } });
    expect(tc.memory().wasmHeapBytes).toBeGreaterThan(before);
    expect(Array.from(r.data)).toEqual(RIGHT);
  });

  for (const [what, act] of Object.entries(nested)) {
    it(`the out getter runs ${what}`, () => {
      const out = new Float32Array(6);
      const r = tc.add(A(), B(), { broadcast: { type: 'numpy' }, get out() { act(); return out; } });
      expect(Array.from(r.data)).toEqual(RIGHT);
      expect(r.data).toBe(out);
      sane();
    });
    it(`a resident out's getter runs ${what}`, () => {
      const keep = tc.tensor(f32(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5));
      const out = tc.tensor(new Float32Array(6), [3, 2]);
      const r = tc.add(A(), B(), { get out() { act(); return out; } });
      expect(r).toBe(out);
      expect(values(out)).toEqual(RIGHT);
      expect(values(keep)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]);
      keep.dispose();
      out.dispose();
      sane();
    });
    it(`the broadcast getter runs ${what}`, () => {
      const r = tc.add(A(), B(), { get broadcast() { act(); return { type: 'numpy' }; } });
      expect(values(r)).toEqual(RIGHT);
      sane();
    });
    it(`the data getter runs ${what}`, () => {
      const a = { get data() { act(); return f32(1, 2, 3); }, shape: [3, 1] };
      expect(values(tc.add(a, B()))).toEqual(RIGHT);
      sane();
    });
    it(`the shape getter runs ${what}`, () => {
      const b = { data: f32(10, 20), get shape() { act(); return [1, 2]; } };
      expect(values(tc.add(A(), b))).toEqual(RIGHT);
      sane();
    });
    it(`a dim's getter runs ${what} (broadcastTo, where, fill)`, () => {
      const target = [3, 2];
      Object.defineProperty(target, 0, { get() { act(); return 3; } });
      expect(values(tc.broadcastTo({ data: f32(1, 2), shape: [2] }, target))).toEqual([1, 2, 1, 2, 1, 2]);
      const c = { data: new Uint8Array([1, 0, 1]), get shape() { act(); return [3]; } };
      expect(values(tc.where(c, { data: f32(1, 2, 3) }, 9))).toEqual([1, 9, 3]);
      const r = tc.add({ data: f32(1, 12, 20), dims: ['x'], coords: { x: ['a', 'b', 'c'] } }, { data: f32(20), dims: ['x'], coords: { x: ['d'] } },
        { shaping: 'union', get fill() { act(); return 0; } });
      expect(values(r)).toEqual([1, 12, 20, 20]);
      expect(r.coords).toEqual({ x: ['a', 'b', 'c', 'd'] });
      sane();
    });
    it(`a Proxy shape's traps run ${what} (broadcastShapes)`, () => {
      const p = new Proxy([3, 1], { get(t, k) { if (k === '0') act(); return Reflect.get(t, k); } });
      expect(tc.broadcastShapes(p, [1, 4])).toEqual([3, 4]);
      sane();
    });
  }

  it("a dim's valueOf is never called: a dim must be a number", () => {
    let called = 0;
    const d = { valueOf() { called++; return 3; } };
    expect(() => tc.broadcastShapes([d], [3])).toThrow(tc.BroadcastError);
    expect(called).toBe(0);
    sane();
  });

  it('a Proxy shape whose length answers differently each time is read once', () => {
    let k = 0;
    const p = new Proxy([2, 3], { get: (t, key) => (key === 'length' ? (k++ === 0 ? 2 : 40000) : Reflect.get(t, key) ?? 1) });
    expect(tc.broadcastShapes(p, [4, 1, 1])).toEqual([4, 2, 3]);
    for (let i = 0; i < 3; i++) expect(tc.broadcastShapes([2, 3, 4, 5], [5])).toEqual([2, 3, 4, 5]);
    expect(tc.explain({ shapes: [[2, 3], [3]] }).ok).toBe(true);
    sane();
  });

  it('a data shape whose length answers too long first, then short, is refused on its one read', () => {
    // The data operand's shape reader (readStaticShape) and tensor(): the
    // rank over the limit is reported from the first answer, never re-read.
    for (const call of [(p) => tc.add({ data: f32(1, 2, 3), shape: p }, B()), (p) => tc.tensor(f32(1, 2, 3), p)]) {
      let reads = 0;
      const p = new Proxy([3, 1], { get: (t, key) => (key === 'length' ? (reads++ === 0 ? 100 : 2) : Reflect.get(t, key)) });
      expect(() => call(p)).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringContaining('rank 100') }));
      expect(reads).toBe(1);
    }
    sane();
  });

  it('a Proxy over [3, 1] whose trap grows memory gives [3, 4]', () => {
    const p = new Proxy([3, 1], { get(t, key) { if (key === '1') nested['memory growth (a large tensor)'](); return Reflect.get(t, key); } });
    expect(tc.broadcastShapes(p, [1, 4])).toEqual([3, 4]);
    expect(values(tc.add({ data: f32(1, 2, 3, 4), shape: p.length === 2 ? [4] : [4] }, { data: f32(1, 1, 1, 1), get shape() { nested['memory growth (a large tensor)'](); return [4]; } }))).toEqual([2, 3, 4, 5]);
    sane();
  });

  it('a getter that disposes a resident operand is refused with a TypeError, and nothing leaks', () => {
    const before = tc.memory();
    const t = tc.tensor(f32(1, 2, 3));
    expect(() => tc.add(t, { data: f32(1, 1, 1), get shape() { t.dispose(); return [3]; } })).toThrow(TypeError);
    const after = tc.memory();
    expect(after.allocatedBytes).toBe(before.allocatedBytes);
    expect(after.liveTensors).toBe(before.liveTensors);
    sane();
  });

  it('scratch larger than 1 MiB is given back when its call ends; releaseScratch() frees the rest', () => {
    const big = new Float32Array(1 << 20);
    const r = tc.add({ data: big }, 1);
    expect(r.data.length).toBe(1 << 20);
    expect(tc.memory().scratchBytes).toBeLessThanOrEqual(4 << 20);
    tc.releaseScratch();
    expect(tc.memory().scratchBytes).toBe(0);
    sane();
  });
});

describe('in place: never reads a cell it already wrote', () => {
  it('a resident out that is a transposed named operand is refused', () => {
    const a = tc.tensor(f32(1, 2, 3, 4, 5, 6), [2, 3], { dims: ['x', 'y'] });
    const b = tc.tensor(f32(10, 20, 30, 40, 50, 60), [3, 2], { dims: ['y', 'x'] });
    // b's own names (y, x) are not the result's (x, y): refused for that, before anything is written.
    expect(() => tc.add(a, b, { out: b })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', message: expect.stringMatching(/out has dims \["y", "x"\] but the result has dims \["x", "y"\]/) }));
    expect(values(b)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(values(tc.add(a, b))).toEqual([11, 32, 53, 24, 45, 66]);
    // In place over the operand read in output order is fine.
    expect(values(tc.add(a, b, { out: a }))).toEqual([11, 32, 53, 24, 45, 66]);
    a.dispose();
    b.dispose();
  });
  it('a resident out that is a broadcast operand is refused', () => {
    const a = tc.tensor(f32(1, 2, 3), [3]);
    const out = tc.tensor(new Float32Array(3), [3]);
    expect(() => tc.add(a, { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] }, { out: a })).toThrow(tc.BroadcastError);
    a.dispose();
    out.dispose();
  });
});

describe('the contract: one declaration in C++, one view in JS', () => {
  it('JS builds its tables from the module, and they agree with JS itself and with the error codes', () => {
    const c = tc.contract();
    expect(c.dtypes.map((d) => d.name)).toEqual([...tc.DTYPES]);
    for (const d of c.dtypes) {
      // float16 where the runtime has no Float16Array (Node 20): its bits in a Uint16Array.
      const ctor = globalThis[d.array] ?? (d.name === 'float16' ? Uint16Array : undefined);
      expect(ctor.BYTES_PER_ELEMENT, d.name).toBe(d.size);
      if (ctor !== Uint16Array || d.name !== 'float16') expect(ctor.name).toBe(d.array);
    }
    expect(c.dtypes.at(-1)).toEqual({ name: 'float16', short: 'f16', array: 'Float16Array', kind: 'float', size: 2 });
    // Every op of the engine's table is exported, under its own name.
    for (const o of c.ops) expect(typeof tc[o.name], o.name).toBe('function');
    // The engine's status list is OK and then exactly the codes BroadcastError carries (ErrorCode):
    // a status added or renamed on one side only fails here.
    expect(c.statuses[0]).toBe('OK');
    expect(new Set(c.statuses).size).toBe(c.statuses.length);
    expect(c.statuses.slice(1).sort()).toEqual(Object.keys(tc.ErrorCode).sort());
    for (const code of c.statuses.slice(1)) expect(tc.ErrorCode[code]).toBe(code);
    // The numbers the engine returns name those codes (a refusal's status is read through the list).
    const refusal = (fn) => { try { fn(); } catch (e) { return e.code; } return 'no refusal'; };
    expect(refusal(() => tc.broadcastShapes([2, 3], [4]))).toBe('INCOMPATIBLE_DIMS');
    expect(refusal(() => tc.broadcastShapes([2, -3]))).toBe('INVALID_SHAPE');
    expect(refusal(() => tc.autoBroadcastShape([2, 3, 4, 5], [3, 4], { type: 'pdpd', axis: 7 }))).toBe('INVALID_AXIS');
    expect(refusal(() => tc.broadcastTo({ data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] }, [3]))).toBe('RANK_MISMATCH');
    expect(c.limits.maxRank).toBe(tc.MAX_RANK);
    expect(c.verdicts).toEqual(['equal', 'stretched', 'new', 'clash']);
    expect(c.rules.map((r) => `${r.family}:${r.name}`)).toContain('to:explicit');
    // Each kernel of the registry names a dtype and an op of the contract.
    const ops = new Set(c.ops.map((o) => o.name));
    for (const k of tc.kernels()) {
      expect(tc.DTYPES).toContain(k.dtype);
      expect(ops.has(k.op), k.name).toBe(true);
    }
    // SIMD availability in the contract is what the registry holds.
    for (const o of c.ops) {
      const simd = new Set(tc.kernels().filter((k) => k.simd && k.op === o.name).map((k) => k.dtype));
      expect([...simd].sort(), o.name).toEqual([...o.simd].sort());
    }
  });

  it("the contract's ops: the fields the module leaves out where they are the default read as the default", () => {
    const c = tc.contract();
    const op = (list, name) => { const o = c[list].find((x) => x.name === name); return [o.kernel, o.result, o.domain]; };
    expect(op('ops', 'add')).toEqual(['add', 'same', 'any']);
    expect(op('ops', 'notEqual')).toEqual(['not_equal', 'bool', 'any']);
    expect(op('ops', 'bitwiseAnd')).toEqual(['bitwise_and', 'same', 'integer']);
    expect(op('ops', 'logicalAnd')).toEqual(['logical_and', 'bool', 'any']);
    expect(op('unaryOps', 'exp')).toEqual(['exp', 'same', 'float']);
    expect(op('unaryOps', 'neg')).toEqual(['neg', 'same', 'any']);
    for (const o of [...c.ops, ...c.unaryOps]) {
      expect(typeof o.kernel === 'string' && ['same', 'bool'].includes(o.result) && ['any', 'integer', 'float'].includes(o.domain), o.name).toBe(true);
    }
  });

  it('the kernel listings (records in wasm memory) agree with their names and with the contract', () => {
    const c = tc.contract();
    const short = new Map(c.dtypes.map((d) => [d.name, d.short]));
    const opKernel = new Map([...c.ops, ...c.unaryOps].map((o) => [o.name, o.kernel]));
    const isa = (k) => (k.simd ? '__wasmsimd' : '__scalar');
    const lists = {
      kernels: [tc.kernels(), ['dtype', 'op', 'form'], (k) => `${short.get(k.dtype)}_${opKernel.get(k.op)}_${k.form}${isa(k)}`],
      selectKernels: [selectKernels(), ['width', 'form'], (k) => `x${k.width * 8}_where_${k.form}${isa(k)}`],
      reduceKernels: [reduceKernels(), ['dtype', 'op', 'shape'], (k) => `${short.get(k.dtype)}_${k.op}_${k.shape}${isa(k)}`],
      unaryKernels: [unaryKernels(), ['dtype', 'op'], (k) => `${short.get(k.dtype)}_${opKernel.get(k.op)}${isa(k)}`],
      castKernels: [castKernels(), ['from', 'to'], (k) => `cast_${short.get(k.from)}_${short.get(k.to)}${isa(k)}`],
    };
    for (const [what, [list, fields, name]] of Object.entries(lists)) {
      expect(list.length, what).toBeGreaterThan(0);
      expect(list.some((k) => k.simd) && list.some((k) => !k.simd), what).toBe(true);
      expect(new Set(list.map((k) => k.name)).size, what).toBe(list.length);
      list.forEach((k, i) => {
        expect(Object.keys(k), k.name).toEqual(['index', 'name', ...fields, 'simd']);
        expect(k.index).toBe(i);
        expect(typeof k.simd).toBe('boolean');
        expect(k.name, what).toBe(name(k)); // each field is the one its name says
      });
    }
    expect([...new Set(lists.selectKernels[0].map((k) => k.width))].sort()).toEqual([1, 2, 4, 8]);
    // Two calls give equal lists, and new objects (a caller may change what it got).
    const again = tc.kernels();
    expect(again).toEqual(lists.kernels[0]);
    expect(again[0]).not.toBe(lists.kernels[0][0]);
    // The raw exports behind them answer "nothing" for what is out of range, never another entry.
    const M = mod();
    for (const unary of [0, 1]) for (const op of [-1, -100, 1000]) expect(M._tc_simd_dtypes(unary, op), `${unary} ${op}`).toBe(0);
    expect(M._tc_listing(5, 0, 0)).toBe(-1);
    expect(M._tc_listing(-1, 0, 0)).toBe(-1);
  });

  it('no JS file keeps a copy of a C++ table', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../bindings/js/', import.meta.url);
    const src = readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => [f, readFileSync(new URL(f, dir), 'utf8')]);
    const tables = [/'INVALID_SHAPE',\s*'INCOMPATIBLE_DIMS'/, /Float32Array,\s*Float64Array,\s*Int8Array/, /\[\s*4,\s*8,\s*1,\s*1,\s*1,\s*2/,
      /add:\s*0,\s*sub:\s*1/, /'equal',\s*'stretched',\s*'new'/, /'contiguous',\s*'second-scalar'/, /_tc_numpy|_tc_binary|_tc_run_/, /op >= 8/];
    for (const [f, text] of src) for (const t of tables) expect(t.test(text), `${f} holds ${t}`).toBe(false);
  });
});

describe('plans kept between calls never change an answer', () => {
  it('a repeated shape call, the same shapes under another rule or axis, a refusal, explain and data calls in between', () => {
    const a = [8, 1, 6, 1];
    const b = [7, 1, 5];
    for (let i = 0; i < 3; i++) expect(tc.broadcastShapes(a, b)).toEqual([8, 7, 6, 5]);
    // The same body under another rule, axis or operand count is another request.
    expect(tc.autoBroadcastShape([2, 3, 4, 5], [3, 4], { type: 'pdpd', axis: 1 })).toEqual([2, 3, 4, 5]);
    expect(() => tc.autoBroadcastShape([2, 3, 4, 5], [3, 4], { type: 'pdpd', axis: 2 })).toThrow(tc.BroadcastError);
    expect(tc.autoBroadcastShape([2, 3, 4, 5], [3, 4], { type: 'pdpd', axis: 1 })).toEqual([2, 3, 4, 5]);
    expect(tc.broadcastShapes([2, 3, 4, 5], [4, 5], [1])).toEqual([2, 3, 4, 5]);
    expect(() => tc.broadcastShapes([2, 3, 4, 5], [3, 4])).toThrow(/axis 3 has 5 vs 4/);
    expect(() => tc.broadcastShapes([2, 3, 4, 5], [3, 4])).toThrow(/axis 3 has 5 vs 4/); // a refusal is never kept
    expect(tc.broadcastToShape([3, 1], [2, 3, 6], { mode: 'pdpd', axis: 1 })).toEqual([2, 3, 6]);
    // explain (the full plan) and a data call over the same shapes, then the shape call again.
    const e = tc.explain({ shapes: [a, b] });
    expect(e.operands[1].strides).toEqual([0, 5, 0, 1]);
    const r = tc.add({ data: new Float32Array(48), shape: a }, { data: Float32Array.from({ length: 35 }, (_, i) => i), shape: b });
    expect(r.shape).toEqual([8, 7, 6, 5]);
    expect(r.data[((0 * 7 + 1) * 6 + 0) * 5 + 2]).toBe(7); // out [0,1,0,2] reads b[1][0][2]
    expect(tc.broadcastShapes(a, b)).toEqual([8, 7, 6, 5]);
    // Named shapes with the same sizes but other names or labels.
    expect(tc.namedBroadcastShape({ dims: ['x'], shape: [2] }, { dims: ['y'], shape: [3] })).toEqual({ dims: ['x', 'y'], shape: [2, 3] });
    expect(tc.namedBroadcastShape({ dims: ['x'], shape: [2] }, { dims: ['x'], shape: [2] })).toEqual({ dims: ['x'], shape: [2] });
    expect(tc.namedBroadcastShape({ dims: ['x'], coords: { x: ['a', 'b'] } }, { dims: ['x'], coords: { x: ['b', 'c'] } })).toMatchObject({ dims: ['x'], shape: [1] });
    expect(tc.namedBroadcastShape({ dims: ['x'], coords: { x: ['a', 'b'] } }, { dims: ['x'], coords: { x: ['a', 'b'] } })).toMatchObject({ dims: ['x'], shape: [2] });
  });
});

// broadcastShapes reads up to 8 Array shapes of integer dims in a lane of its
// own (rules.js laneRead) and hands anything else to the general path from the
// point it stopped. Wherever it stops, each length and dim is read once and
// the answer (or the error, message included) is the general path's. A call
// made from a getter while the lane reads takes the general path: the same
// shapes asked that way must answer alike.
describe("broadcastShapes' lane and the general path answer alike, reading each value once", () => {
  const outcome = (f) => {
    try {
      return { ok: f() };
    } catch (e) {
      return { name: e.constructor.name, code: e.code, axis: e.axis, dims: e.dims, message: e.message };
    }
  };
  // `shapes` as Proxies counting each read of each key; a read of dim 0 of the
  // first shape also asks the same question from inside (the general path).
  const ask = (shapes) => {
    const reads = shapes.map(() => new Map());
    let inner = null;
    const hooked = shapes.map((s, k) => new Proxy(s.slice(), {
      get(t, key, r) {
        reads[k].set(key, (reads[k].get(key) ?? 0) + 1);
        if (k === 0 && key === '0' && inner === null) inner = outcome(() => tc.broadcastShapes(...shapes.map((x) => x.slice())));
        return Reflect.get(t, key, r);
      },
    }));
    return { lane: outcome(() => tc.broadcastShapes(...hooked)), inner, reads };
  };
  const STOPS = ['?', ' 2..5 ', '3..', -1, 1.5, NaN, 2 ** 53, '3', null, {}, 7n];
  const BASE = [[8, 1, 6, 1], [7, 1, 5], [1, 1]];
  const cases = [];
  for (const x of STOPS) for (let k = 0; k < BASE.length; k++) for (let p = 0; p < BASE[k].length; p++) {
    if (k === 0 && p === 0) continue; // dim 0 of shape 0 asks the inner question
    cases.push([x, k, p]);
  }
  it.each(cases)('a %o at shape %i, dim %i', (x, k, p) => {
    const shapes = BASE.map((s) => s.slice());
    shapes[k][p] = x;
    const { lane, inner, reads } = ask(shapes);
    expect(inner).not.toBe(null);
    expect(lane).toEqual(inner);
    // Never a wasm trap or a RangeError: an answer, a BroadcastError or a TypeError.
    expect(lane.ok !== undefined || lane.name === 'BroadcastError' || lane.name === 'TypeError', String(lane.message)).toBe(true);
    for (let j = 0; j < shapes.length; j++) {
      expect(reads[j].get('length'), `shape ${j}: its length read once`).toBe(1);
      for (let i = 0; i < shapes[j].length; i++) expect(reads[j].get(String(i)), `shape ${j} dim ${i} read once`).toBe(1);
    }
  });

  it('static shapes that broadcast or clash, 0 to 8 of them, ranks 0 to 32: the same answers and errors', () => {
    let seed = 7;
    const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    let clashes = 0;
    for (let c = 0; c < 400; c++) {
      const n = rnd(9);
      const rank = rnd(5) === 0 ? 32 : rnd(6);
      // (shape 0 has a dim: its read asks the inner question)
      const shapes = Array.from({ length: n }, (_, k) => Array.from({ length: Math.max(k === 0 ? 1 : 0, rank - rnd(3)) }, () => [1, 1, 0, 2, 3, 2 ** 53 - 1][rnd(6)]));
      if (!n) { expect(tc.broadcastShapes()).toEqual([]); continue; }
      const { lane, inner } = ask(shapes);
      expect(lane, JSON.stringify(shapes)).toEqual(inner);
      const want = model.broadcastShapes(...shapes);
      if (want.ok) expect(lane.ok).toEqual(want.value);
      else { clashes++; expect(lane.code).toBe(want.failures[0].code); }
    }
    expect(clashes).toBeGreaterThan(50);
  });

  it('a rank over 32, typed-array shapes, 9 shapes: the general path, the same answers', () => {
    expect(outcome(() => tc.broadcastShapes([2], new Array(33).fill(1))).code).toBe('INVALID_SHAPE');
    expect(tc.broadcastShapes(Int32Array.of(3, 1), [4])).toEqual([3, 4]);
    expect(tc.broadcastShapes(...new Array(9).fill([2, 1]), [1, 5])).toEqual([2, 5]);
    const nine = outcome(() => tc.broadcastShapes(...new Array(8).fill([2, 1]), [3, 1]));
    expect(nine.code).toBe('INCOMPATIBLE_DIMS');
    expect(nine.message).toMatch(/\(A vs I\)/);
  });

  it('a getter that throws while the lane reads: the error is the caller\'s, and the next calls answer', () => {
    const s = [3, 1];
    Object.defineProperty(s, 1, { get() { throw new RangeError('from the getter'); } });
    expect(() => tc.broadcastShapes([2, 1, 1], s)).toThrow('from the getter');
    sane();
    const { lane, inner } = ask([[8, 1, 6, 1], [7, 1, 5]]);
    expect(lane).toEqual({ ok: [8, 7, 6, 5] });
    expect(inner).toEqual(lane);
  });
});

describe('hostile arguments found by a fuzz of 169,166 calls (0.9.24): refused or taken by the library, not by V8', () => {
  it('an axes list longer than any rank is refused by its length at once, as sum\'s axes are (until 0.9.23 flip, squeeze, transpose and expandDims walked a sparse list of 2^32 - 1 holes for 15-47 s, then V8\'s "Invalid array length")', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    const t = tc.tensor(f32(1, 2, 3, 4, 5, 6), [2, 3]);
    const holes = () => { const a = []; a.length = 2 ** 32 - 1; return a; };
    const started = Date.now();
    const refusal = (f) => { try { f(); } catch (e) { return [e.name, e.code, e.message]; } return null; };
    for (const [fn, f] of [['flip', () => tc.flip(x, holes())], ['squeeze', () => tc.squeeze(x, holes())], ['transpose', () => tc.transpose(x, holes())], ['flip', () => t.flip(holes())]]) {
      expect(refusal(f)).toEqual(['BroadcastError', 'INVALID_AXIS', `${fn}: axes has 4294967295 entries, but a shape has at most 32 axes and each may be named once`]);
    }
    expect(refusal(() => tc.expandDims(x, holes()))).toEqual(['BroadcastError', 'INVALID_SHAPE', 'invalid shape: rank 4294967297 exceeds the maximum of 32 dims']);
    expect(Date.now() - started).toBeLessThan(2000);
    const v = t.flip([0, 1]); // a list as long as the rank still works
    expect(Array.from(v.toArray())).toEqual([6, 5, 4, 3, 2, 1]);
    v.dispose();
    t.dispose();
  });

  it('an out whose buffer was detached, for a result of no elements: nothing to write, taken as every call takes it (until 0.9.23 tanh, add, sum, cast, unbroadcast and evaluate threw V8\'s "Cannot perform %TypedArray%.prototype.set on a detached ArrayBuffer"; contiguous and softmax took it)', () => {
    const before = tc.memory().allocatedBytes;
    const detached = () => { const a = new Float32Array(4); structuredClone(a.buffer, { transfer: [a.buffer] }); expect(a.length).toBe(0); return a; };
    const x = () => ({ data: new Float32Array(0), shape: [0, 3] });
    for (const [name, f, shape] of [['tanh', (out) => tc.tanh(x(), { out }), [0, 3]], ['add', (out) => tc.add(x(), 1, { out }), [0, 3]],
      ['sum', (out) => tc.sum(x(), { axes: [1], out }), [0]], ['cast', (out) => tc.cast(x(), 'float32', { out }), [0, 3]],
      ['unbroadcast', (out) => tc.unbroadcast({ data: new Float32Array(0), shape: [2, 0] }, [0], { out }), [0]],
      ['evaluate', (out) => tc.evaluate('x * 2', { x: x() }, { out }), [0, 3]], ['contiguous', (out) => tc.contiguous(x(), { out }), [0, 3]],
      ['softmax', (out) => tc.softmax(x(), -1, { out }), [0, 3]]]) {
      const out = detached();
      const r = f(out);
      expect([name, r.data === out, r.shape]).toEqual([name, true, shape]);
    }
    expect(values(tc.add(A(), B()))).toEqual(RIGHT);
    expect(tc.memory().allocatedBytes).toBe(before);
  });

  it('an object that inherits from a Tensor (Object.create(t)) is refused as none, by the library (until 0.9.23 V8\'s "Receiver must be an instance of class Tensor" from a getter)', () => {
    const t = tc.tensor(f32(1, 2, 3), [3]);
    for (const fake of [Object.create(t), Object.create(tc.Tensor.prototype)]) {
      expect(() => tc.add(fake, 1)).toThrow(new TypeError('add: a inherits from a Tensor but is none (Object.create): pass the tensor'));
      expect(() => tc.evaluate('x + 1', { x: fake })).toThrow(/^evaluate: x inherits from a Tensor but is none/);
      expect(() => tc.concat([t, fake])).toThrow(new TypeError('concat: xs[1] inherits from a Tensor but is none (Object.create): pass the tensor'));
      expect(() => tc.add(t, 1, { out: fake })).toThrow(new TypeError('add: out must be a typed array or a resident tensor'));
      expect(() => tc.unbroadcast({ data: f32(1, 2, 3) }, fake)).toThrow(new TypeError('unbroadcast: input inherits from a Tensor but is none (Object.create): pass the tensor'));
    }
    expect(values(tc.add(t, 1))).toEqual([2, 3, 4]);
    t.dispose();
  });
});

describe('a data shape that is refused names its operand (0.9.25)', () => {
  // Until 0.9.24 these said only "invalid shape [2, -1]: …", not whose shape it was.
  const f = new Float32Array(2);
  const msg = (run) => { try { run(); } catch (e) { return [e.code, e.message]; } return null; };
  it('binary ops, evaluate, tensor() and the layout functions', () => {
    expect(msg(() => tc.add({ data: f, shape: [2] }, { data: f, shape: [2, -1] })))
      .toEqual(['INVALID_SHAPE', 'add: b.shape [2, -1]: dim 1 is -1; -1 is only meaningful in a broadcastTo target (mode numpy)']);
    expect(msg(() => tc.mul({ data: f, shape: [1.5] }, 2)))
      .toEqual(['INVALID_SHAPE', 'mul: a.shape [1.5]: dim 0 is 1.5; dims must be integers from 0 to 2^53-1']);
    expect(msg(() => tc.evaluate('x + y', { x: { data: f, shape: [2] }, y: { data: f, shape: [-3] } }))?.[1])
      .toMatch(/^evaluate: y\.shape \[-3\]: dim 0 is -3/);
    expect(msg(() => tc.add({ data: f, shape: new Array(33).fill(1) }, 1)))
      .toEqual(['INVALID_SHAPE', 'add: a.shape: rank 33 exceeds the maximum of 32 dims']);
    expect(msg(() => tc.add({ data: f, shape: new Int32Array(33) }, 1)))
      .toEqual(['INVALID_SHAPE', 'add: a.shape: rank 33 exceeds the maximum of 32 dims']);
    expect(msg(() => tc.tensor(f, [-2]))?.[1]).toMatch(/^tensor\(shape\) \[-2\]: dim 0 is -2/);
    expect(msg(() => tc.transpose({ data: f, shape: [NaN] }))?.[1]).toMatch(/^transpose: x\.shape \[NaN\]: dim 0 is NaN/);
    expect(msg(() => tc.add({ data: f, shape: [2, 'x'], dims: ['a', 'b'] }, 1))?.[1]).toMatch(/^add: a\.shape \[2, "x"\]: dim 1 is "x"/);
    // The shape functions name the shape they were given as before.
    expect(msg(() => tc.broadcastShapes([2, NaN], [3]))?.[1]).toMatch(/^invalid shape \[2, NaN\]: dim 1 is NaN/);
  });
});

// Issue 11, the API's half: misspelt options, inherited names as values,
// first-time mistakes, forged tensors, detached buffers, names 1 and '1',
// sizes past 2^53. Each refusal says what is wrong and how to fix it.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const f32 = (...v) => Float32Array.from(v);
const thrown = (f) => { try { f(); } catch (e) { return e; } return null; };

describe('an unknown option key is a TypeError naming it and the accepted ones', () => {
  const cases = [
    ['autoBroadcastShape typ', () => tc.autoBroadcastShape([2, 3], [3], { typ: 'none' }), 'typ', ['type', 'axis']],
    ['broadcastToShape axes_mapping', () => tc.broadcastToShape([3], [2, 3], { axes_mapping: [1] }), 'axes_mapping', ['mode', 'axesMapping', 'axis']],
    ['namedBroadcastShape shape', () => tc.namedBroadcastShape({ dims: [], shape: [] }, { dims: [], shape: [] }, { shapeing: 'union' }), 'shapeing', ['shaping']],
    ['add brodcast', () => tc.add({ data: f32(1) }, { data: f32(1) }, { brodcast: { type: 'none' } }), 'brodcast', ['out', 'broadcast', 'shaping', 'fill']],
    ['add broadcast.tpye (nested)', () => tc.add({ data: f32(1) }, { data: f32(1) }, { broadcast: { tpye: 'none' } }), 'tpye', ['type', 'axis']],
    ['broadcastTo mdoe', () => tc.broadcastTo({ data: f32(1) }, [2], { mdoe: 'numpy' }), 'mdoe', ['mode']],
    ['where outt', () => tc.where({ data: new Uint8Array([1]) }, { data: f32(1) }, 0, { outt: null }), 'outt', ['out']],
    ['tensor dim', () => tc.tensor(f32(1, 2), [2], { dim: ['x'] }), 'dim', ['dims', 'coords']],
    ['explain shape', () => tc.explain({ shape: [[2]] }), null, null],
    ['init wasmURL', () => tc.init({ wasmURL: 'x' }), 'wasmURL', ['wasmUrl']],
  ];
  it.each(cases)('%s', (_, call, key, accepted) => {
    if (key === null) {
      const r = call(); // explain never throws: it reports
      expect(r.ok).toBe(false);
      expect(r.error.message).toMatch(/unknown option "shape"/);
      return;
    }
    const e = thrown(call);
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toContain(`"${key}"`);
    for (const k of accepted) expect(e.message).toContain(k);
  });
  it('options that are spelt right still work, and undefined values are fine', () => {
    expect(tc.autoBroadcastShape([2, 3], [3], { type: 'numpy', axis: undefined })).toEqual([2, 3]);
    expect(tc.broadcastToShape([3], [2, 3], { axesMapping: [1], mode: 'explicit' })).toEqual([2, 3]);
  });
});

describe("inherited names are not rules: 'valueOf', 'toString', 'constructor', '__proto__', 'hasOwnProperty'", () => {
  const NAMES = ['valueOf', 'toString', 'constructor', '__proto__', 'hasOwnProperty'];
  it.each(NAMES)('%s', (n) => {
    for (const f of [
      () => tc.autoBroadcastShape([3], [3], { type: n }),
      () => tc.broadcastToShape([3], [3], { mode: n }),
      () => tc.namedBroadcastShape({ dims: ['x'], shape: [3] }, { dims: ['x'], shape: [3] }, { shaping: n }),
      () => tc.add({ data: f32(1) }, { data: f32(1) }, { broadcast: { type: n } }),
    ]) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(TypeError);
      expect(e.message).toMatch(/must be '/);
    }
    expect(tc.explain({ rule: n, shapes: [[3], [3]] }).ok).toBe(false);
  });
});

describe('first mistakes get a message with the fix', () => {
  it('a plain Array operand', () => {
    const e = thrown(() => tc.add([1, 2, 3], [4, 5, 6]));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/plain Array/);
    expect(e.message).toMatch(/Float32Array\.from/);
    expect(e.message).toMatch(/shape: \[3\]/);
  });
  it('plain Array data', () => {
    expect(thrown(() => tc.add({ data: [1, 2], shape: [2] }, 1)).message).toMatch(/plain Array.*Float32Array\.from/);
  });
  it('a BigInt axis or dim name, or BigInt Array data, gets the library\'s message, naming it (until 0.9.16 JSON.stringify\'s "Do not know how to serialize a BigInt")', () => {
    const nx = { data: new Float32Array(6), shape: [2, 3], dims: ['a', 'b'] };
    const x = { data: new Float32Array(6), shape: [2, 3] };
    // a wrong type (a TypeError since 0.9.23) where the operand has no dims; a name none of its dims has where it has
    for (const [f, fn, Kind] of [[() => tc.softmax(x, 1n), 'softmax', TypeError], [() => tc.argmax(x, 1n), 'argmax', TypeError], [() => tc.topk(x, 1, { axis: 1n }), 'topk', TypeError],
      [() => tc.logSumExp(x, [1n]), 'logSumExp', TypeError], [() => tc.transpose(nx, [1n, 0]), 'transpose', tc.BroadcastError], [() => tc.flip(nx, 1n), 'flip', tc.BroadcastError], [() => tc.squeeze(nx, 1n), 'squeeze', tc.BroadcastError]]) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(Kind);
      expect(e.message).toContain(`${fn}: `);
      expect(e.message).toContain('1n');
    }
    expect(thrown(() => tc.tensor([1n, 2n])).message).toMatch(/plain Array.*Float32Array\.from\(\[1,2\]\)/);
  });
  it('a Tensor that went through structuredClone (postMessage) says so', () => {
    const t = tc.tensor(f32(1, 2));
    const copy = structuredClone(t);
    const e = thrown(() => tc.add(copy, 1));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/postMessage|structuredClone/);
    t.dispose();
  });
  it('a detached buffer says so', () => {
    const a = f32(1, 2, 3);
    structuredClone(a.buffer, { transfer: [a.buffer] });
    expect(thrown(() => tc.add({ data: a, shape: [3] }, 1)).message).toMatch(/detached/);
    expect(thrown(() => tc.tensor(a, [3])).message).toMatch(/detached/);
  });
  it('before init, every call says to call init()', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const fresh = await import('../../dist/node.js');
    expect(thrown(() => fresh.broadcastShapes([1], [2])).message).toMatch(/init\(\)/);
  });
});

describe('only the library makes a Tensor', () => {
  it('new Tensor(...) is refused and reads nothing', () => {
    expect(thrown(() => new tc.Tensor(8, [4], 0))).toBeInstanceOf(TypeError);
    expect(Object.keys(tc.tensor(f32(1)))).toEqual([]);
  });
  it('a tensor prints its dtype, shape and first values; dispose twice is safe', () => {
    const t = tc.tensor(Float32Array.from({ length: 10 }, (_, i) => i), [2, 5]);
    expect(String(t)).toBe('Tensor float32 (2,5) [0, 1, 2, 3, 4, 5, 6, 7, … 2 more]');
    expect(JSON.parse(JSON.stringify(t))).toEqual({ dtype: 'float32', shape: [2, 5], disposed: false });
    t.dispose();
    t.dispose();
    expect(String(t)).toMatch(/disposed/);
    expect(t.shape).toEqual([2, 5]);
    expect(() => t.toArray()).toThrow(TypeError);
  });
});

describe("dim names 1 and '1' are one name everywhere", () => {
  it('tensor(), namedBroadcastShape and data ops call them duplicates', () => {
    expect(thrown(() => tc.tensor(f32(1, 2), [1, 2], { dims: [1, '1'] })).message).toMatch(/duplicate/);
    const e = thrown(() => tc.namedBroadcastShape({ dims: [1, '1'], shape: [2, 2] }, { dims: [], shape: [] }));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.message).toMatch(/duplicate/);
    expect(thrown(() => tc.add({ data: f32(1, 2, 3, 4), shape: [2, 2], dims: ['1', 1] }, { data: f32(1), shape: [], dims: [] })).message).toMatch(/duplicate/);
  });
  it('and coords keyed "1" label the dim named 1', () => {
    expect(tc.namedBroadcastShape({ dims: [1], coords: { 1: ['a', 'b'] } }, { dims: [], shape: [] })).toEqual({ dims: [1], shape: [2], coords: { 1: ['a', 'b'] } });
  });
  it('duplicate labels say so', () => {
    expect(thrown(() => tc.namedBroadcastShape({ dims: ['x'], coords: { x: ['a', 'a'] } }, { dims: [], shape: [] })).message).toMatch(/duplicate/);
  });
});

describe('sizes that do not fit a JS number are reported exactly', () => {
  it('explain: size null and sizeText the exact count', () => {
    const M = 2 ** 53 - 1;
    const r = tc.explain({ shapes: [[M, M, M], [1]] });
    expect(r.ok).toBe(true);
    expect(r.size).toBe(null);
    expect(r.sizeText).toBe((BigInt(M) ** 3n).toString());
    const small = tc.explain({ shapes: [[2, 3], [3]] });
    expect(small.size).toBe(6);
    expect(small.sizeText).toBeUndefined();
  });
});

describe('explain marks every clash (issue 11)', () => {
  it('[4,3] vs [7,5]: both axes, both operands; the error names axis 1 and lists both', () => {
    const r = tc.explain({ shapes: [[4, 3], [7, 5]] });
    expect(r.operands.map((o) => o.verdicts)).toEqual([['clash', 'clash'], ['clash', 'clash']]);
    expect(r.axes.map((a) => a.verdicts)).toEqual([['clash', 'clash'], ['clash', 'clash']]);
    expect(r.error.axis).toBe(1);
    expect(r.error.clashes).toEqual([0, 1]);
    const e = thrown(() => tc.broadcastShapes([8, 4, 6, 1], [7, 3, 5]));
    expect(e.axis).toBe(2);
    expect(e.clashes).toEqual([1, 2]);
    expect(e.message).toMatch(/axis 2 has 6 vs 3; axis 1 clashes too/);
    expect(thrown(() => tc.broadcastShapes([2, 3, 4], [5, 6, 7])).message).toMatch(/axis 2 has 4 vs 7; axes 0, 1 clash too/);
  });
  it('property: random 2–4 operand shapes; marked axes = axes where the non-1 dims disagree', () => {
    let seed = 12345;
    const rnd = (n) => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; };
    let refused = 0;
    for (let c = 0; c < 2000; c++) {
      const n = 2 + rnd(3);
      const shapes = Array.from({ length: n }, () => Array.from({ length: 1 + rnd(4) }, () => (rnd(3) === 0 ? 1 : 2 + rnd(3))));
      const rank = Math.max(...shapes.map((s) => s.length));
      const want = [];
      for (let a = 0; a < rank; a++) {
        const ds = shapes.map((s) => s[a - (rank - s.length)]).filter((d) => d !== undefined && d !== 1);
        if (new Set(ds).size > 1) want.push(a);
      }
      const r = tc.explain({ shapes });
      const marked = r.axes.filter((ax) => ax.verdicts.includes('clash')).map((ax) => ax.index);
      expect(marked, JSON.stringify(shapes)).toEqual(want);
      if (want.length) {
        refused++;
        expect(r.error.clashes).toEqual(want);
        expect(want).toContain(r.error.axis);
      }
    }
    expect(refused).toBeGreaterThan(300);
  });
});

describe('a named union too large to be a shape says so', () => {
  it('rank 40 > 32, no operand blamed', () => {
    const a = { dims: Array.from({ length: 20 }, (_, i) => `a${i}`), shape: Array(20).fill(2) };
    const b = { dims: Array.from({ length: 20 }, (_, i) => `b${i}`), shape: Array(20).fill(2) };
    const e = thrown(() => tc.namedBroadcastShape(a, b));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.message).toMatch(/the result would have rank 40 > 32/);
    expect(e.operands).toBe(null);
  });
});

// Refusals that several calls share one function for (the page bundle holds one
// copy of each: tests/js/page-bundle.test.js); each call's words stay its own.
describe('shared refusals keep each call\'s words', () => {
  it('too many shapes: broadcastShapes throws, explain reports, the same message and code', () => {
    const n = tc.contract().limits.maxOperands + 1;
    const shapes = new Array(n).fill([1]);
    const e = thrown(() => tc.broadcastShapes(...shapes));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('TOO_LARGE');
    expect(e.message).toBe(`cannot broadcast ${n} shapes in one call: at most ${n - 1}`);
    const r = tc.explain({ rule: 'numpy', shapes });
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('TOO_LARGE');
    expect(r.error.message).toBe(e.message);
  });

  it('a view call given null or a number names the call and the operand', () => {
    expect(thrown(() => tc.transpose(null)).message).toBe('transpose: x must be { data, shape } or a resident tensor, got null');
    expect(thrown(() => tc.flip(3)).message).toBe('flip: x must be { data, shape } or a resident tensor, got number');
    const e = thrown(() => tc.concat([{ data: f32(1), shape: [1] }, 'a']));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('concat: xs[1] must be { data, shape } or a resident tensor, got string');
  });
});

// The tensor basics (issue 25, item 4): reshape (a view for resident tensors,
// the same typed array for plain operands, NumPy's -1), the memory of views
// disposed in any order, Tensor#item(), reductions by dim name keeping the
// remaining names, unbroadcast(g, operand), and backward refusals worded in
// the backward direction.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const f32 = (...v) => Float32Array.from(v);
const iota = (n, C = Float32Array) => C.from({ length: n }, (_, i) => (C === BigInt64Array || C === BigUint64Array ? BigInt(i + 1) : i + 1));
const arr = (t) => Array.from(t instanceof tc.Tensor ? t.toArray() : t.data);

/** The error `f` throws (the test fails if it returns). */
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

// Every test leaves the engine as it found it: no tensor alive, no byte held.
let base;
beforeAll(() => { tc.releaseScratch(); base = tc.memory(); });
afterEach(() => {
  tc.releaseScratch();
  const m = tc.memory();
  const was = base;
  base = m; // one test's leak is reported once, not by every test after it
  expect(m.liveTensors, 'a test left tensors alive').toBe(was.liveTensors);
  expect(m.allocatedBytes, 'a test left bytes allocated').toBe(was.allocatedBytes);
});

describe('reshape: resident tensors are views', () => {
  it('the same elements, row-major, in the new shape; -1 inferred anywhere', () => {
    const t = tc.tensor(iota(24), [2, 3, 4]);
    for (const [shape, want] of [[[6, 4], [6, 4]], [[-1, 4], [6, 4]], [[4, -1], [4, 6]], [[2, -1, 3], [2, 4, 3]], [[-1], [24]], [[1, 24, 1], [1, 24, 1]], [[24, -1], [24, 1]]]) {
      const v = tc.reshape(t, shape);
      expect(v).toBeInstanceOf(tc.Tensor);
      expect(v.shape, JSON.stringify(shape)).toEqual(want);
      expect(v.dtype).toBe('float32');
      expect(v.size).toBe(24);
      expect(arr(v)).toEqual(arr(t));
      v.dispose();
    }
    t.dispose();
  });

  it('Tensor#reshape is reshape(t, ...); a view of a view; a scalar and size 0', () => {
    const t = tc.tensor(f32(7), [1, 1]);
    const s = t.reshape([]);
    expect(s.shape).toEqual([]);
    expect(s.item()).toBe(7);
    const u = s.reshape([-1]);
    expect(u.shape).toEqual([1]);
    const z = tc.tensor(new Float32Array(0), [0, 3]);
    const z2 = z.reshape([3, 0]);
    expect(z2.shape).toEqual([3, 0]);
    const z3 = z.reshape([-1]);
    expect(z3.shape).toEqual([0]);
    for (const x of [t, s, u, z, z2, z3]) x.dispose();
  });

  it('no copy: writes through either are seen through the other (out into a view, and into the base)', () => {
    const before = tc.memory().allocatedBytes;
    const t = tc.tensor(iota(6), [2, 3]);
    const held = tc.memory().allocatedBytes;
    const v = t.reshape([3, 2]);
    const w = v.reshape([6]);
    expect(tc.memory().allocatedBytes).toBe(held); // views allocate nothing
    expect(held).toBeGreaterThan(before);
    // An element-wise op written into a view: the base sees it.
    const r = tc.add({ data: f32(10, 20), shape: [2] }, { data: f32(1, 2, 3, 4, 5, 6), shape: [3, 2] }, { out: v });
    expect(r).toBe(v);
    expect(arr(t)).toEqual([11, 22, 13, 24, 15, 26]);
    expect(arr(w)).toEqual([11, 22, 13, 24, 15, 26]);
    // In place through the base into its own view (same cells, read as written): allowed.
    tc.mul(t, 2, { out: w.reshape([2, 3]) }).dispose();
    expect(arr(v)).toEqual([22, 44, 26, 48, 30, 52]);
    // A reduction cannot write into its own input's memory (a view of it included): refused, nothing written.
    const col = tc.tensor(f32(1, 2, 3), [3, 1]);
    const flat = col.reshape([3]);
    const e = thrown(() => tc.sum(col, { axes: 1, out: flat }));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/out shares memory with the input x/);
    expect(arr(flat)).toEqual([1, 2, 3]);
    const w3 = tc.tensor(new Float32Array(3), [3]);
    expect(arr(tc.sum(t, { axes: 0, out: w3 }))).toEqual([70, 74, 78]);
    for (const x of [w3, t, v, w, col, flat]) x.dispose();
  });

  it('memory: the allocation is freed when the last tensor over it is disposed, in every order', () => {
    const start = tc.memory();
    const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for (const order of orders) {
      const t = tc.tensor(iota(12, Float64Array), [3, 4]);
      const held = tc.memory().allocatedBytes;
      const v = t.reshape([4, 3]); // a view of the base
      const w = v.reshape([2, -1, 2]); // a view of a view
      const all = [t, v, w];
      expect(tc.memory().liveTensors).toBe(start.liveTensors + 3);
      for (let k = 0; k < 3; k++) {
        all[order[k]].dispose();
        all[order[k]].dispose(); // a second dispose does nothing
        expect(tc.memory().liveTensors, `${order} after ${k + 1}`).toBe(start.liveTensors + 2 - k);
        const alive = all.filter((x) => !x.disposed);
        if (alive.length) {
          expect(tc.memory().allocatedBytes, `${order}: freed while a view is alive`).toBe(held);
          // Still readable and writable through every survivor, and an op reads them in place.
          for (const x of alive) expect(arr(x)).toEqual(Array.from(iota(12, Float64Array)));
          const s = tc.sum(alive[0]);
          expect(s.item()).toBe(78);
          s.dispose();
        }
      }
      expect(tc.memory().allocatedBytes, `${order}: not freed`).toBe(start.allocatedBytes);
      expect(tc.memory().liveTensors).toBe(start.liveTensors);
      // A disposed one throws on use, whichever it is; its shape stays readable.
      expect(() => w.toArray()).toThrow(/disposed/);
      expect(() => v.reshape([12])).toThrow(/disposed/);
      expect(v.shape).toEqual([4, 3]);
    }
  });

  it('the FinalizationRegistry safety net counts views the same way (a child process with --expose-gc)', () => {
    // Tensors dropped without dispose(): the memory goes when the last tensor
    // over it is collected, whichever that is, and never while one is alive.
    const script = `
      const tc = await import(${JSON.stringify(new URL('../../dist/node.js', import.meta.url).href)});
      await tc.init();
      const settle = async (cond) => { for (let i = 0; i < 200 && !cond(); i++) { gc(); await new Promise((r) => setTimeout(r, 5)); } };
      const m0 = tc.memory();
      const d = () => [tc.memory().liveTensors - m0.liveTensors, tc.memory().allocatedBytes - m0.allocatedBytes];
      const out = {};
      let view = (() => { const t = tc.tensor(new Float64Array(1000).fill(2), [1000]); return t.reshape([10, -1]); })();
      await settle(() => d()[0] === 1);
      out.baseCollected = d();
      const s = tc.sum(view); out.viewReads = s.item(); s.dispose();
      view.dispose();
      out.viewDisposed = d();
      (() => { const t = tc.tensor(new Float64Array(1000), [1000]); t.reshape([2, 500]); t.reshape([500, 2]).reshape([-1]); })();
      await settle(() => d()[0] === 0);
      out.allCollected = d();
      const b = tc.tensor(new Float64Array(1000), [1000]);
      (() => { b.reshape([10, 100]); b.reshape([-1, 10]); })();
      await settle(() => d()[0] === 1);
      out.viewsCollected = d();
      b.dispose();
      out.baseDisposed = d();
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      baseCollected: [1, 8000], // the base collected, its view alive: the memory held
      viewReads: 2000,
      viewDisposed: [0, 0], // the last one disposed: freed
      allCollected: [0, 0], // a base and three views collected: freed once
      viewsCollected: [1, 8000], // views collected, the base alive: held
      baseDisposed: [0, 0],
    });
  });

  it('a view is a tensor like any other: ops take it and give resident results; its disposal leaves the base intact', () => {
    const t = tc.tensor(iota(6), [2, 3]);
    const v = t.reshape([3, 2]);
    const r = tc.add(v, { data: f32(100, 200), shape: [2] });
    expect(r.shape).toEqual([3, 2]);
    expect(arr(r)).toEqual([101, 202, 103, 204, 105, 206]);
    v.dispose();
    expect(arr(t)).toEqual([1, 2, 3, 4, 5, 6]);
    const r2 = tc.add(t, 1);
    expect(arr(r2)).toEqual([2, 3, 4, 5, 6, 7]);
    for (const x of [t, r, r2]) x.dispose();
  });

  it('refusals: NumPy\'s words, code INVALID_SHAPE with the shapes and dims', () => {
    const t = tc.tensor(iota(6), [2, 3]);
    let e = thrown(() => tc.reshape(t, [4, -1]));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.message).toMatch(/^cannot reshape a tensor of size 6 into shape \(4,-1\): the other dims make 4, which does not divide 6$/);
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.shapes).toEqual([[2, 3], [4, -1]]);
    expect(e.dims).toEqual([6, 4]);
    expect(e.axis).toBe(1);
    e = thrown(() => t.reshape([4, 2]));
    expect(e.message).toBe('cannot reshape a tensor of size 6 into shape (4,2): that shape holds 8 elements');
    expect(e.dims).toEqual([6, 8]);
    expect(e.axis).toBe(null);
    e = thrown(() => t.reshape([-1, -1]));
    expect(e.message).toMatch(/only one dim may be -1/);
    expect([e.code, e.axis, e.dims]).toEqual(['INVALID_SHAPE', 1, [-1]]);
    e = thrown(() => t.reshape([-2, -3]));
    expect(e.message).toMatch(/dim 0 is -2; a dim is an integer from 0, or -1 \(once\)/);
    expect([e.code, e.axis, e.dims]).toEqual(['INVALID_SHAPE', 0, [-2]]);
    for (const bad of [2.5, NaN, Infinity, '3', '?', null, 3n]) {
      e = thrown(() => t.reshape([2, bad]));
      expect(e, String(bad)).toBeInstanceOf(tc.BroadcastError);
      expect(e.code).toBe('INVALID_SHAPE');
      expect(e.axis).toBe(1);
    }
    // Size 0: a -1 beside a 0 has no single answer (NumPy refuses it too).
    const z = tc.tensor(new Float32Array(0), [0, 3]);
    expect(thrown(() => z.reshape([0, -1])).message).toMatch(/size 0 into shape \(0,-1\): a 0 among the other dims leaves the -1 undetermined/);
    z.dispose();
    // Argument types: TypeErrors.
    expect(() => t.reshape(6)).toThrow(TypeError);
    expect(() => t.reshape('[...]')).toThrow(/shape must be an array of dims/);
    expect(() => tc.reshape(5, [5])).toThrow(/got a number/);
    expect(() => tc.reshape(f32(1, 2), [2])).toThrow(/bare Float32Array: pass \{ data, shape \}/);
    expect(() => t.reshape([6], { dim: ['x'] })).toThrow(/unknown option "dim"/);
    expect(() => t.reshape(new Array(33).fill(1))).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
    t.dispose();
    expect(() => t.reshape([6])).toThrow(TypeError);
  });

  it('names: a reshape drops them unless options { dims, coords } name the new shape (checked against it)', () => {
    const t = tc.tensor(iota(6), [2, 3], { dims: ['b', 'c'], coords: { c: ['x', 'y', 'z'] } });
    const v = t.reshape([6]);
    expect(v.dims).toBe(undefined);
    expect(v.coords).toBe(undefined);
    const n = t.reshape([3, -1], { dims: ['p', 'q'], coords: { q: [10, 20] } });
    expect(n.dims).toEqual(['p', 'q']);
    expect(n.coords).toEqual({ q: [10, 20] });
    expect(n.shape).toEqual([3, 2]);
    // The base keeps its own names.
    expect(t.dims).toEqual(['b', 'c']);
    expect(t.coords).toEqual({ c: ['x', 'y', 'z'] });
    // Named views broadcast by name like any named tensor.
    const s = tc.add(n, { data: f32(1, 2, 3), shape: [3], dims: ['p'] });
    expect(s.dims).toEqual(['p', 'q']);
    expect(arr(s)).toEqual([2, 3, 5, 6, 8, 9]);
    expect(() => t.reshape([6], { dims: ['a', 'b'] })).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringMatching(/2 dim names but shape \(6,\)/) }));
    expect(() => t.reshape([3, 2], { dims: ['a', 'b'], coords: { b: [1, 2, 3] } })).toThrow(/dim "b" has size 2 but coordinates of length 3/);
    expect(() => t.reshape([3, 2], { dims: ['a', 'b'], coords: { b: [1, 1] } })).toThrow(/coordinate 1 twice/);
    expect(() => t.reshape([3, 2], { dims: ['a', 'a'] })).toThrow(/dim name "a" twice/);
    expect(() => t.reshape([3, 2], { coords: { a: [1, 2, 3] } })).toThrow(/coords need dims/);
    for (const x of [t, v, n, s]) x.dispose();
  });

  it('plain operands: the same typed array with the new shape, the same checks', () => {
    const data = iota(6);
    const r = tc.reshape({ data, shape: [2, 3] }, [3, -1]);
    expect(r).toEqual({ data, shape: [3, 2] });
    expect(r.data).toBe(data); // no copy
    expect(tc.reshape({ data }, [-1, 2, 1]).shape).toEqual([3, 2, 1]); // shape defaults to [data.length]
    const named = tc.reshape({ data, shape: [2, 3], dims: ['a', 'b'] }, [6]);
    expect(named).toEqual({ data, shape: [6] }); // the names are dropped
    expect(tc.reshape({ data, shape: [2, 3] }, [6], { dims: ['i'], coords: { i: [1, 2, 3, 4, 5, 6] } }))
      .toEqual({ data, shape: [6], dims: ['i'], coords: { i: [1, 2, 3, 4, 5, 6] } });
    // The result is an operand like any other.
    expect(arr(tc.sum(r, { axes: 1 }))).toEqual([3, 7, 11]);
    expect(thrown(() => tc.reshape({ data, shape: [2, 3] }, [4, -1])).message).toMatch(/^cannot reshape a tensor of size 6 into shape \(4,-1\)/);
    // A shape the data does not fill: the operand's own error.
    expect(() => tc.reshape({ data, shape: [2, 2] }, [4])).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    expect(() => tc.reshape({ data: [1, 2], shape: [2] }, [2])).toThrow(TypeError);
  });

  it('tensor(t, shape) with a Tensor: a TypeError pointing at reshape (and at the copy idiom)', () => {
    const t = tc.tensor(iota(6), [2, 3]);
    const e = thrown(() => tc.tensor(t, [3, 2]));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/data is already a Tensor. To give it another shape use reshape\(t, shape\) or t.reshape\(shape\)/);
    expect(e.message).toMatch(/tensor\(t.toArray\(\), shape\)/);
    expect(() => tc.tensor(t)).toThrow(/already a Tensor/);
    // What it points at works.
    const v = t.reshape([3, 2]);
    const c = tc.tensor(t.toArray(), [3, 2]);
    expect(arr(v)).toEqual(arr(c));
    for (const x of [t, v, c]) x.dispose();
  });

  it('a view not in row-major order is copied first (as NumPy); float16 bits stay float16', () => {
    const r = tc.tensor(iota(6), [2, 3]);
    const tr = r.transpose();
    const copied = tr.reshape([6]);
    tc.add(copied, 100, { out: copied });
    expect(arr(r)).toEqual([1, 2, 3, 4, 5, 6]); // a tensor of its own
    expect(arr(copied)).toEqual([101, 104, 102, 105, 103, 106]);
    const view = r.reshape([3, 2]);
    tc.add(view, 100, { out: view });
    expect(arr(r)).toEqual([101, 102, 103, 104, 105, 106]); // written through
    for (const t of [copied, view, tr, r]) t.dispose();
    const h = { data: Uint16Array.of(0x3c00, 0x4000), shape: [2], dtype: 'float16' }; // 1, 2 as bits
    const hr = tc.reshape(h, [2, 1]);
    expect(hr.dtype).toBe('float16');
    expect(hr.data).toBe(h.data);
    const sum = tc.add(hr, 1);
    expect([sum.dtype, Array.from(sum.data)]).toEqual(['float16', [0x4000, 0x4200]]); // 2, 3
    expect(tc.reshape({ data: Uint16Array.of(1, 2), shape: [2] }, [1, 2]).dtype).toBeUndefined(); // uint16 stays uint16
  });

  it('a view not in row-major order stays a view where strides can read the new shape (as NumPy; until 0.9.29 copied)', () => {
    const r = tc.tensor(iota(24), [4, 6]);
    const cols = r.slice(null, '::2'); // [4,3], strides [6,2]
    const before = tc.memory().allocatedBytes;
    const v = cols.reshape([2, 2, 3]);
    expect(tc.memory().allocatedBytes).toBe(before); // no element memory
    expect([v.shape, v.strides]).toEqual([[2, 2, 3], [12, 6, 2]]); // NumPy's (96, 48, 16) bytes
    tc.add(v, 100, { out: v });
    expect(arr(r).slice(0, 6)).toEqual([101, 2, 103, 4, 105, 6]); // written through to the base
    const tr = r.transpose();
    const t = tr.reshape([3, 2, 4]); // splits an axis of the transpose: a view too
    expect([t.strides, tc.memory().allocatedBytes]).toEqual([[2, 1, 6], before]);
    const flat = tr.reshape([24]); // no strides read a transpose flat: a copy
    expect(tc.memory().allocatedBytes).toBeGreaterThan(before);
    for (const x of [flat, t, tr, v, cols, r]) x.dispose();
    // A plain view: the same data, with strides and its offset; float16 bits stay float16.
    const h = { data: Uint16Array.from(iota(12)), shape: [3, 4], dtype: 'float16' };
    const p = tc.reshape(tc.slice(h, '::-1', '::-2'), [6]); // strides [-4,-2]: one run, read at -2
    expect([p.data, p.shape, p.strides, p.offset, p.dtype]).toEqual([h.data, [6], [-2], 11, 'float16']);
    expect(Array.from(tc.contiguous(p).data)).toEqual([12, 10, 8, 6, 4, 2]);
    const q = tc.reshape(tc.slice(h, '::-1', '1::2'), [6]); // strides [-4,2]: no run, a copy
    expect([q.data === h.data, q.strides, Array.from(q.data)]).toEqual([false, undefined, [10, 12, 6, 8, 2, 4]]);
  });
});

describe('Tensor#item()', () => {
  it('the single value of a size-1 tensor, any shape, as a number (a bigint for 64-bit dtypes)', () => {
    const cases = [
      [f32(2.5), []], [Float64Array.of(0.1), [1]], [Float64Array.of(-0), [1, 1, 1]], [Int32Array.of(-7), [1]],
      [Uint8Array.of(255), []], [Uint8ClampedArray.of(3), [1]], [Int8Array.of(-128), []], [Uint32Array.of(4294967295), []],
    ];
    for (const [data, shape] of cases) {
      const t = tc.tensor(data, shape);
      expect(Object.is(t.item(), data[0]), `${data.constructor.name} ${JSON.stringify(shape)}`).toBe(true);
      expect(typeof t.item()).toBe('number');
      t.dispose();
    }
    const b = tc.tensor(BigInt64Array.of(-(2n ** 63n)), []);
    expect(b.item()).toBe(-(2n ** 63n));
    const u = tc.tensor(BigUint64Array.of(2n ** 64n - 1n), [1]);
    expect(u.item()).toBe(2n ** 64n - 1n);
    b.dispose();
    u.dispose();
  });

  it('a scalar loss: sum(...).item(), mean(...).item(); a named tensor and a view too', () => {
    const x = tc.tensor(iota(4), [2, 2], { dims: ['i', 'j'] });
    const s = tc.sum(x);
    expect(s.item()).toBe(10);
    const m = tc.mean(x);
    expect(m.item()).toBe(2.5);
    const one = tc.sum(x, { dims: ['i', 'j'], keepdims: true });
    expect(one.dims).toEqual(['i', 'j']);
    expect(one.item()).toBe(10);
    const scalar = one.reshape([]);
    expect(scalar.item()).toBe(10);
    for (const t of [x, s, m, one, scalar]) t.dispose();
  });

  it('any other size: a BroadcastError saying the size and suggesting sum() or toArray()', () => {
    const t = tc.tensor(iota(6), [2, 3]);
    const e = thrown(() => t.item());
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.message).toBe('item(): the tensor (2,3) has 6 elements, and item() reads a tensor of exactly one; reduce it first (sum(t).item(), mean(t).item()) or copy every element out with toArray()');
    expect(e.dims).toEqual([6, 1]);
    const z = tc.tensor(new Float32Array(0), [0]);
    expect(thrown(() => z.item()).message).toMatch(/\(0,\) has 0 elements/);
    z.dispose();
    t.dispose();
    expect(() => t.item()).toThrow(/disposed/);
  });
});

describe('reductions by dim name', () => {
  const X = () => tc.tensor(iota(24), [2, 3, 4], { dims: ['batch', 'out', 'in'], coords: { out: ['a', 'b', 'c'], batch: [10, 20] } });

  it('dims: [...] on a resident named tensor: the remaining dims and coords stay on a named Tensor', () => {
    const x = X();
    for (const name of ['sum', 'prod', 'min', 'max', 'mean']) {
      const byName = tc[name](x, { dims: ['in'] });
      const byAxis = tc[name](x, { axes: 2 });
      expect(byName).toBeInstanceOf(tc.Tensor);
      expect(byName.dims, name).toEqual(['batch', 'out']);
      expect(byName.coords).toEqual({ batch: [10, 20], out: ['a', 'b', 'c'] });
      expect(byName.shape).toEqual([2, 3]);
      expect(arr(byName)).toEqual(arr(byAxis));
      // positional axes on a named operand keep the remaining names too
      expect(byAxis.dims).toEqual(['batch', 'out']);
      expect(byAxis.coords).toEqual(byName.coords);
      byName.dispose();
      byAxis.dispose();
    }
    const two = tc.sum(x, { dims: ['in', 'batch'] });
    expect(two.dims).toEqual(['out']);
    expect(two.coords).toEqual({ out: ['a', 'b', 'c'] });
    expect(arr(two)).toEqual([68, 100, 132]);
    const one = tc.mean(x, { dims: 'out' }); // a single name
    expect(one.dims).toEqual(['batch', 'in']);
    expect(one.coords).toEqual({ batch: [10, 20] });
    const neg = tc.max(x, { axes: [-1, -3] });
    expect(neg.dims).toEqual(['out']);
    for (const t of [x, two, one, neg]) t.dispose();
  });

  it('keepdims: the reduced dims stay with size 1 and lose their coords', () => {
    const x = X();
    const k = tc.sum(x, { dims: ['out'], keepdims: true });
    expect(k.dims).toEqual(['batch', 'out', 'in']);
    expect(k.shape).toEqual([2, 1, 4]);
    expect(k.coords).toEqual({ batch: [10, 20] });
    const all = tc.sum(x, { keepdims: true });
    expect(all.dims).toEqual(['batch', 'out', 'in']);
    expect(all.coords).toBe(undefined);
    expect(all.item()).toBe(300);
    // A reduction over every dim without keepdims: an unnamed scalar, which joins named operands
    const s = tc.sum(x);
    expect(s.dims).toBe(undefined);
    expect(s.shape).toEqual([]);
    const centred = tc.sub(x, s);
    expect(centred.dims).toEqual(['batch', 'out', 'in']);
    for (const t of [x, k, all, s, centred]) t.dispose();
  });

  it('plain named operands: results get dims and coords fields', () => {
    const data = Float64Array.from({ length: 6 }, (_, i) => i);
    const x = { data, shape: [2, 3], dims: ['in', 'out'], coords: { out: ['p', 'q', 'r'] } };
    expect(tc.sum(x, { dims: ['in'] })).toEqual({ data: Float64Array.of(3, 5, 7), shape: [3], dtype: 'float64', dims: ['out'], coords: { out: ['p', 'q', 'r'] } });
    expect(tc.sum(x, { dims: ['out'] })).toEqual({ data: Float64Array.of(3, 12), shape: [2], dtype: 'float64', dims: ['in'] });
    expect(tc.mean(x, { axes: 0, keepdims: true })).toEqual({ data: Float64Array.of(1.5, 2.5, 3.5), shape: [1, 3], dtype: 'float64', dims: ['in', 'out'], coords: { out: ['p', 'q', 'r'] } });
    // the mean of integers is float64, names kept; a typed-array out is filled and named in the result
    const out = new Float64Array(3);
    const m = tc.mean({ data: Int32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: [0, 1] }, { dims: [0], out });
    expect(m).toEqual({ data: out, shape: [3], dtype: 'float64', dims: [1] });
    expect(Array.from(out)).toEqual([2.5, 3.5, 4.5]);
    // numeric and string names are the same name, as everywhere
    expect(tc.sum({ data, shape: [2, 3], dims: [0, 1] }, { dims: ['1'] }).dims).toEqual([0]);
  });

  it('refusals: axes with dims; an unknown or repeated name; dims on an unnamed operand; a wrong type', () => {
    const x = X();
    let e = thrown(() => tc.sum(x, { dims: ['in'], axes: [0] }));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('sum: give axes (positions) or dims (names), not both');
    e = thrown(() => tc.sum(x, { dims: ['inn'] }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('INVALID_AXIS');
    expect(e.message).toBe('sum: x has no dim "inn"; its dims are ["batch", "out", "in"]');
    e = thrown(() => tc.max({ data: f32(1, 2), dims: ['a'] }, { dims: ['a', 'b'] }));
    expect(e.message).toBe('max: x has no dim "b"; its dims are ["a"]');
    e = thrown(() => tc.sum(x, { dims: ['in', 'out', 'in'] }));
    expect(e.message).toMatch(/dims\[2\] names dim "in", already named by dims\[0\]/);
    expect(e.code).toBe('INVALID_AXIS');
    e = thrown(() => tc.mean({ data: f32(1, 2, 3) }, { dims: ['x'] }));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/x has no dims: give x its dims .* or reduce by position with axes/);
    expect(() => tc.sum(x, { dims: [{}] })).toThrow(/dims\[0\] must be a dim name/);
    expect(() => tc.sum(x, { dims: true })).toThrow(/dims must be a dim name or an array of dim names/);
    // The engine's own axis refusals come through unchanged on a named operand.
    expect(() => tc.sum(x, { axes: [3] })).toThrow(/axes\[0\] = 3 is out of range/);
    expect(() => tc.sum(x, { axes: [0, -3] })).toThrow(/already named/);
    x.dispose();
  });

  it('a resident out: with dims it must carry the result\'s names; without dims it is filled as it is', () => {
    const x = X();
    const good = tc.tensor(new Float32Array(6), [2, 3], { dims: ['batch', 'out'], coords: { batch: [10, 20], out: ['a', 'b', 'c'] } });
    expect(tc.sum(x, { dims: ['in'], out: good })).toBe(good);
    expect(arr(good)).toEqual([10, 26, 42, 58, 74, 90]);
    const bare = tc.tensor(new Float32Array(6), [6]);
    expect(tc.sum(x, { dims: ['in'], out: bare })).toBe(bare);
    expect(bare.dims).toBe(undefined);
    expect(arr(bare)).toEqual([10, 26, 42, 58, 74, 90]);
    const wrong = tc.tensor(new Float32Array(6), [2, 3], { dims: ['batch', 'in'], coords: { batch: [10, 20] } });
    const e = thrown(() => tc.sum(x, { dims: ['in'], out: wrong }));
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.message).toMatch(/out has dims \["batch", "in"\] but the result has dims \["batch", "out"\]/);
    const otherCoords = tc.tensor(new Float32Array(6), [2, 3], { dims: ['batch', 'out'], coords: { batch: [10, 20], out: ['a', 'b', 'z'] } });
    expect(() => tc.sum(x, { dims: ['in'], out: otherCoords })).toThrow(/with other coordinates/);
    expect(arr(wrong)).toEqual([0, 0, 0, 0, 0, 0]); // refused before anything was written
    for (const t of [x, good, bare, wrong, otherCoords]) t.dispose();
  });

  it('evaluate and where() take a rank-0 operand without names beside named ones, as the ops do (until 0.9.15 refused)', () => {
    const x = { data: Float32Array.of(1, 2, 3), shape: [3], dims: ['i'] };
    const m = tc.max(x); // over every dim: an unnamed scalar
    expect(tc.evaluate('x - m', { x, m })).toEqual(tc.sub(x, m));
    const s = tc.tensor(Float32Array.of(10), []);
    const r = tc.evaluate('x * s', { x, s });
    expect([r.dims, arr(r)]).toEqual([['i'], [10, 20, 30]]);
    expect(s.dims).toBe(undefined); // the tensor itself gains no names
    const c = { data: Uint8Array.of(1, 0, 1), shape: [3], dims: ['i'] };
    const w = tc.where(c, x, s);
    expect([w.dims, arr(w)]).toEqual([['i'], [1, 10, 3]]);
    expect(arr(tc.where(c, x, { data: Float32Array.of(7), shape: [] }))).toEqual([1, 7, 3]);
    // Rank 1 without names is still refused: which dim it is cannot be told.
    expect(() => tc.evaluate('x * y', { x, y: { data: Float32Array.of(1, 2, 3) } })).toThrow(/"y" has no dims while other operands do/);
    for (const t of [s, r, w]) t.dispose();
  });

  it('evaluate over named operands fills a resident out without dims as the ops do (until 0.9.15 an internal TypeError)', () => {
    const x = { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['b', 'i'] };
    const w = { data: Float32Array.of(1, 0, 0, 1, 1, 1), shape: [3, 2], dims: ['i', 'o'] };
    const out = tc.tensor(new Float32Array(4), [2, 2]);
    expect(tc.evaluate("sum(x * w, ['i'])", { x, w }, { out })).toBe(out);
    expect(arr(out)).toEqual(arr(tc.sum(tc.mul(x, w), { dims: ['i'] })));
    expect(out.dims).toBe(undefined);
    const bare = tc.tensor(new Float32Array(6), [2, 3]);
    expect(tc.evaluate('x + x', { x }, { out: bare })).toBe(bare);
    expect(arr(bare)).toEqual([2, 4, 6, 8, 10, 12]);
    // With dims, they must be the result's.
    const named = tc.tensor(new Float32Array(6), [2, 3], { dims: ['b', 'j'] });
    expect(thrown(() => tc.evaluate('x + x', { x }, { out: named })).code).toBe('INCOMPATIBLE_DIMS');
    for (const t of [out, bare, named]) t.dispose();
  });
});

describe('unbroadcast(g, operand): torch sum_to_size(b) style', () => {
  const g = () => ({ data: iota(6), shape: [2, 3] });

  it('a Tensor or a plain operand as the input: its shape is used (its data never read)', () => {
    const b = tc.tensor(new Float32Array(3), [3]);
    expect(tc.unbroadcast(g(), b)).toEqual({ data: f32(5, 7, 9), shape: [3], dtype: 'float32' });
    expect(tc.unbroadcast(g(), { data: new Float32Array(3) })).toEqual({ data: f32(5, 7, 9), shape: [3], dtype: 'float32' });
    expect(tc.unbroadcast(g(), { data: new Float64Array(2), shape: [2, 1] })).toEqual({ data: f32(6, 15), shape: [2, 1], dtype: 'float32' });
    // Its dtype does not matter (only its shape), and a disposed tensor's shape is still known.
    const bi = tc.tensor(new Int32Array(3), [1, 3]);
    bi.dispose();
    expect(tc.unbroadcast(g(), bi).shape).toEqual([1, 3]);
    // A resident gradient gives a Tensor, as with a shape.
    const G = tc.tensor(iota(6), [2, 3]);
    const r = tc.unbroadcast(G, b);
    expect(arr(r)).toEqual([5, 7, 9]);
    // The forward's options still apply.
    expect(tc.unbroadcast(g(), { data: new Float32Array(2) }, { mode: 'explicit', axesMapping: [0] }).data).toEqual(f32(6, 15));
    for (const t of [b, G, r]) t.dispose();
  });

  it('a named operand gives its dims and coords: the gradient is summed by name', () => {
    const G = tc.tensor(iota(6), [3, 2], { dims: ['c', 'b'] });
    const bn = tc.tensor(new Float32Array(2), [2], { dims: ['b'] });
    const r = tc.unbroadcast(G, bn);
    expect(r.dims).toEqual(['b']);
    expect(arr(r)).toEqual([9, 12]);
    const p = tc.unbroadcast({ data: f32(5, 7), shape: [2], dims: ['c'], coords: { c: ['y', 'z'] } },
      { data: new Float32Array(3), dims: ['c'], coords: { c: ['x', 'y', 'z'] } });
    expect(p).toEqual({ data: f32(0, 5, 7), shape: [3], dtype: 'float32', dims: ['c'], coords: { c: ['x', 'y', 'z'] } });
    for (const t of [G, bn, r]) t.dispose();
  });

  it('what it cannot use says so: pass its shape', () => {
    let e = thrown(() => tc.unbroadcast(g(), 3));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/the input must be its shape \(e.g. \[3, 1\]\), the operand itself .* got 3: pass its shape/);
    e = thrown(() => tc.unbroadcast(g(), { shape: [3] }));
    expect(e.message).toMatch(/neither dims \(a named shape\) nor data \(an operand\): pass its shape itself \(the array, not \{ shape \}\)/);
    // An unnamed gradient to a named input: it names both ways out, and is not "needs a named gradient".
    e = thrown(() => tc.unbroadcast(g(), { data: new Float32Array(3), dims: ['c'] }));
    expect(e.message).toBe('unbroadcast: the input operand is named (dims ["c"]) but the gradient has no dims: give grad its dims (the forward result\'s) to sum by name, or pass the input\'s shape ([3]) to sum by position');
    // A named gradient to an unnamed operand.
    const b = tc.tensor(new Float32Array(3), [3]);
    e = thrown(() => tc.unbroadcast({ ...g(), dims: ['a', 'b'] }, b));
    expect(e.message).toMatch(/a named gradient \(with dims\) goes back to a named input, but the input tensor has no dims/);
    b.dispose();
    // An operand whose data does not fill its shape is refused as an operand.
    expect(() => tc.unbroadcast(g(), { data: new Float32Array(2), shape: [3] })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
  });
});

describe('backward refusals speak backward', () => {
  // The forward call a backward refusal mirrors: same code, axis and dims, other words.
  function both(input, output, opts) {
    const F = thrown(() => (opts?.type ? tc.autoBroadcastShape(output, input, opts) : tc.broadcastToShape(input, output, opts)));
    const R = thrown(() => tc.reductionAxes(input, output, opts));
    const U = thrown(() => tc.unbroadcast({ data: new Float64Array(output.reduce((a, b) => a * b, 1)), shape: output }, input, opts));
    for (const B of [R, U]) {
      expect(B).toBeInstanceOf(tc.BroadcastError);
      expect([B.code, B.axis, B.dims]).toEqual([F.code, F.axis, F.dims]);
      expect(B.message).toBe(R.message);
    }
    return { F, R };
  }

  it('cannot sum (4,2) back to (3,) ... (mode numpy)', () => {
    const { F, R } = both([3], [4, 2]);
    expect(R.message).toBe('cannot sum (4,2) back to (3,): axis 1 has 3 vs 2 (mode numpy)');
    expect(F.message).toBe('cannot broadcast shape (3,) to (4,2) (mode numpy): axis 1 has 3 vs 2'); // the forward as it was
    expect(both([2, 3], [3]).R.message).toBe('cannot sum (3,) back to (2,3): the output has rank 1, lower than the input\'s rank 2 (mode numpy)');
  });

  it('every mode and type names the forward rule at the end', () => {
    expect(both([3, 1], [2, 3], { mode: 'pdpd', axis: 1 }).R.message)
      .toBe('cannot sum (2,3) back to (3,1): the input (rank 2) does not fit into the output (rank 2) at axis 1 (mode pdpd, axis 1)');
    expect(both([4], [2, 3], { mode: 'explicit', axesMapping: [5] }).R.message)
      .toBe('cannot sum (2,3) back to (4,): axesMapping[0] = 5 is not an output axis (0 to 1) (mode explicit)');
    expect(both([4], [2, 3], { mode: 'explicit', axesMapping: [0.5] }).R.message)
      .toBe('cannot sum (2,3) back to (4,): axesMapping[0] = 0.5 is not an integer axis (mode explicit)');
    expect(both([4], [2, 3], { mode: 'bidirectional' }).R.message).toBe('cannot sum (2,3) back to (4,): axis 1 has 4 vs 3 (mode bidirectional)');
    expect(both([4], [2, 3], { type: 'numpy' }).R.message).toBe('cannot sum (2,3) back to (4,): axis 1 has 3 vs 4 (type numpy)');
    expect(both([2, 3, 1], [2, 3], { type: 'pdpd' }).R.message)
      .toBe('cannot sum (2,3) back to (2,3,1): the input has rank 3, higher than the output\'s rank 2, so the default axis -1 (rank(output) - rank(input)) is negative (type pdpd, axis -1)');
    // type numpy: no default axis to blame (the message was pdpd's, its ranks the other way round)
    // (the forward accepts the pair: (3,) is not its result, so no forward refusal to mirror)
    for (const f of [() => tc.reductionAxes([2, 3], [3], { type: 'numpy' }), () => tc.unbroadcast({ data: new Float64Array(3), shape: [3] }, [2, 3], { type: 'numpy' })]) {
      const e = thrown(f);
      expect([e.code, e.axis, e.dims]).toEqual(['RANK_MISMATCH', null, [2, 1]]);
      expect(e.message).toBe('cannot sum (3,) back to (2,3): the output has rank 1, lower than the input\'s rank 2 (type numpy)');
    }
    expect(both([3], [2, 3], { type: 'none' }).R.message).toBe('cannot sum (2,3) back to (3,): rank 2 vs 1 (type none: shapes must be identical)');
    expect(tc.reductionAxes([3], [2, 3])).toEqual([0]); // accepted calls unchanged
  });
});

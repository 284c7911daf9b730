// The data API's contract, case by case: results, dtypes, the documented
// element decisions (Uint8Clamped, integer div, NaN and -0 in min/max, pow),
// scalars, `out`, resident tensors and memory(), named operands, zero-size and
// rank-0 shapes, and every error (DTYPE_MISMATCH, LENGTH_MISMATCH, TOO_LARGE,
// TypeError for bitwise on floats), with nothing leaked.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

let baseline;
beforeAll(() => { baseline = tc.memory(); });
afterEach(() => {
  // Every test frees what it made: the engine holds what it held before.
  const m = tc.memory();
  expect(m.liveTensors).toBe(baseline.liveTensors);
  expect(m.allocatedBytes).toBe(baseline.allocatedBytes);
});

const f32 = (...v) => Float32Array.from(v);
const i32 = (...v) => Int32Array.from(v);

function throws(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a throw');
}

describe('element-wise ops', () => {
  it('adds with NumPy broadcasting: the issue example', () => {
    const y = tc.add({ data: f32(1, 2, 3), shape: [3] }, { data: f32(10, 20), shape: [2, 1] });
    expect(y.shape).toEqual([2, 3]);
    expect(y.dtype).toBe('float32');
    expect(y.data).toBeInstanceOf(Float32Array);
    expect(Array.from(y.data)).toEqual([11, 12, 13, 21, 22, 23]);
  });

  it('defaults the shape to [data.length]', () => {
    expect(Array.from(tc.sub({ data: i32(5, 6) }, { data: i32(1, 2) }).data)).toEqual([4, 4]);
  });

  it('takes a JS number as a scalar of the other operand\'s dtype, on either side', () => {
    expect(Array.from(tc.add({ data: f32(1, 2), shape: [2] }, 2.5).data)).toEqual([3.5, 4.5]);
    expect(Array.from(tc.sub(10, { data: i32(1, 2) }).data)).toEqual([9, 8]);
    // The scalar is stored in the dtype first: 2.5 as an int32 is 2; 300 as an int8 is 44.
    expect(Array.from(tc.mul({ data: i32(3) }, 2.5).data)).toEqual([6]);
    expect(Array.from(tc.add({ data: Int8Array.of(0) }, 300).data)).toEqual([44]);
    expect(tc.add({ data: BigInt64Array.of(2n) }, 3n).data[0]).toBe(5n);
    expect(tc.add({ data: BigUint64Array.of(2n) }, 3).data[0]).toBe(5n);
  });

  it('selects the rule with options.broadcast: numpy | none | pdpd', () => {
    const a = { data: new Float64Array(24).map((_, i) => i), shape: [2, 3, 4] };
    const b = { data: Float64Array.from([100, 200, 300]), shape: [3, 1] };
    const r = tc.add(a, b, { broadcast: { type: 'pdpd', axis: 1 } });
    expect(r.shape).toEqual([2, 3, 4]);
    for (let i = 0; i < 24; i++) expect(r.data[i]).toBe(i + [100, 200, 300][Math.floor(i / 4) % 3]);
    const e = throws(() => tc.add({ data: f32(1, 2), shape: [2] }, { data: f32(1), shape: [1] }, { broadcast: { type: 'none' } }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('SHAPE_MISMATCH');
    expect(Array.from(tc.mul({ data: f32(1, 2) }, { data: f32(3, 4) }, { broadcast: { type: 'none' } }).data)).toEqual([3, 8]);
    // pdpd places B at the axis; numpy right-aligns it, where [3] meets 4.
    const b3 = { data: Float64Array.from([1, 2, 3]), shape: [3] };
    expect(tc.add(a, b3, { broadcast: { type: 'pdpd', axis: 1 } }).data[4]).toBe(6);
    expect(throws(() => tc.add(a, b3, { broadcast: { type: 'numpy' } })).code).toBe('INCOMPATIBLE_DIMS');
  });

  it('reports a clash like the shape API: code, shapes, axis, dims', () => {
    const e = throws(() => tc.add({ data: f32(1, 2, 3), shape: [3] }, { data: f32(1, 2, 3, 4), shape: [4] }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.shapes).toEqual([[3], [4]]);
    expect(e.axis).toBe(0);
    expect(e.message).toMatch(/\(3,\) \(4,\)/);
  });

  it('returns Uint8Array 0/1 from comparisons and logical ops', () => {
    const a = { data: f32(1, NaN, 3, -0) };
    const b = { data: f32(1, NaN, 2, 0) };
    const eq = tc.equal(a, b);
    expect(eq.dtype).toBe('uint8');
    expect(eq.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(eq.data)).toEqual([1, 0, 0, 1]);
    expect(Array.from(tc.notEqual(a, b).data)).toEqual([0, 1, 1, 0]);
    expect(Array.from(tc.greater(a, b).data)).toEqual([0, 0, 1, 0]);
    // Truthiness is != 0: NaN is true, -0 is false (NumPy).
    expect(Array.from(tc.logicalAnd(a, { data: f32(1, 1, 1, 1) }).data)).toEqual([1, 1, 1, 0]);
    expect(Array.from(tc.logicalXor({ data: i32(0, 0, 5, 5) }, { data: i32(0, 7, 0, 7) }).data)).toEqual([0, 1, 1, 0]);
  });

  it('integers wrap like a typed-array store of the exact result', () => {
    expect(Array.from(tc.add({ data: Int8Array.of(127, -128) }, { data: Int8Array.of(1, -1) }).data)).toEqual([-128, 127]);
    expect(Array.from(tc.sub({ data: Uint16Array.of(0) }, 1).data)).toEqual([65535]);
    // Math.imul, not a rounded double product.
    expect(tc.mul({ data: i32(0x7fffffff) }, { data: i32(0x7fffffff) }).data[0]).toBe(Math.imul(0x7fffffff, 0x7fffffff));
    expect(tc.mul({ data: Uint32Array.of(0xffffffff) }, 0xffffffff).data[0]).toBe(1);
    expect(tc.mul({ data: BigInt64Array.of(2n ** 62n) }, 4n).data[0]).toBe(0n);
    expect(tc.add({ data: BigUint64Array.of(2n ** 64n - 1n) }, 1n).data[0]).toBe(0n);
  });

  it('integer div truncates toward zero, x / 0 = 0, INT_MIN / -1 wraps; rem is JS %, x % 0 = 0', () => {
    const a = { data: i32(7, -7, 7, -7, 5, 0, -2147483648, -2147483648) };
    const b = { data: i32(2, 2, -2, -2, 0, 0, -1, 1) };
    expect(Array.from(tc.div(a, b).data)).toEqual([3, -3, -3, 3, 0, 0, -2147483648, -2147483648]);
    expect(Array.from(tc.rem(a, b).data)).toEqual([1, -1, 1, -1, 0, 0, 0, 0]);
    // Never a trap, for every integer width, BigInt included.
    expect(tc.div({ data: BigInt64Array.of(-(2n ** 63n), 5n) }, { data: BigInt64Array.of(-1n, 0n) }).data).toEqual(BigInt64Array.of(-(2n ** 63n), 0n));
    expect(tc.rem({ data: Int8Array.of(-128, 9) }, { data: Int8Array.of(-1, 0) }).data).toEqual(Int8Array.of(0, 0));
    expect(Array.from(tc.div({ data: Uint8Array.of(200, 9) }, { data: Uint8Array.of(3, 0) }).data)).toEqual([66, 0]);
  });

  it('integer pow is the exact power wrapped; a negative exponent gives 1 / a^|b| truncated', () => {
    expect(Array.from(tc.pow({ data: i32(2, 3, -2, 2, 1, -1, -1, 0) }, { data: i32(10, 40, 31, -1, -5, -3, -4, 0) }).data))
      .toEqual([1024, Number(BigInt.asIntN(32, 3n ** 40n)), -2147483648, 0, 1, -1, 1, 1]);
    expect(tc.pow({ data: BigUint64Array.of(3n) }, 41n).data[0]).toBe(BigInt.asUintN(64, 3n ** 41n));
  });

  it('Uint8Clamped results are a Uint8ClampedArray store of the JS result (pinned)', () => {
    const a = { data: Uint8ClampedArray.of(200, 5, 16, 7, 5, 1, 0, 3, 250, 2) };
    const b = { data: Uint8ClampedArray.of(100, 10, 16, 2, 2, 0, 0, 2, 3, 9) };
    const store = (f) => Uint8ClampedArray.from(a.data, (x, i) => f(x, b.data[i]));
    const add = tc.add(a, b);
    expect(add.dtype).toBe('uint8clamped');
    expect(add.data).toBeInstanceOf(Uint8ClampedArray);
    expect(add.data).toEqual(store((x, y) => x + y));
    expect(tc.sub(a, b).data).toEqual(store((x, y) => x - y));
    expect(tc.mul(a, b).data).toEqual(store((x, y) => x * y));
    // Division rounds half to even (7/2 = 4, 5/2 = 2, 3/2 = 2); x/0 = 255, 0/0 = 0.
    const div = tc.div(a, b);
    expect(div.data).toEqual(store((x, y) => x / y));
    expect(Array.from(div.data.subarray(3, 8))).toEqual([4, 2, 255, 0, 2]);
    expect(tc.pow(a, b).data).toEqual(store((x, y) => x ** y));
    expect(tc.rem(a, b).data).toEqual(store((x, y) => x % y));
  });

  it('float ops are IEEE as a scalar loop computes them, in the dtype', () => {
    const a = f32(0.1, 1e38, 16777216, 1, -1);
    const b = f32(0.2, 10, 1, 3, 0);
    expect(tc.add({ data: a }, { data: b }).data).toEqual(Float32Array.from(a, (x, i) => x + b[i]));
    expect(tc.mul({ data: a }, { data: b }).data).toEqual(Float32Array.from(a, (x, i) => x * b[i]));
    expect(tc.div({ data: a }, { data: b }).data).toEqual(Float32Array.from(a, (x, i) => x / b[i]));
    // rem is JS % (fmod: the sign of the dividend), exact.
    expect(Array.from(tc.rem({ data: Float64Array.of(-5.5, 5.5, 1, Infinity) }, { data: Float64Array.of(2, -2, 0, 2) }).data))
      .toEqual([-1.5, 1.5, NaN, NaN]);
    // float32 pow runs in double and rounds once (as Math.pow stored into a Float32Array).
    const p = tc.pow({ data: f32(1.1, 2, -8, 0.5) }, { data: f32(7.5, 0.5, 1 / 3, -1) });
    expect(p.data).toEqual(Float32Array.from([1.1, 2, -8, 0.5].map((x) => Math.fround(x)), (x, i) => x ** Math.fround([7.5, 0.5, 1 / 3, -1][i])));
  });

  it('minimum / maximum propagate NaN and order -0 below +0 (Math.min / Math.max)', () => {
    for (const C of [Float32Array, Float64Array]) {
      const a = { data: C.of(NaN, 1, 0, -0, 2, -Infinity) };
      const b = { data: C.of(1, NaN, -0, 0, 3, 5) };
      const mn = tc.minimum(a, b).data;
      const mx = tc.maximum(a, b).data;
      for (let i = 0; i < 6; i++) {
        expect(Object.is(mn[i], Math.min(a.data[i], b.data[i])), `min ${i}`).toBe(true);
        expect(Object.is(mx[i], Math.max(a.data[i], b.data[i])), `max ${i}`).toBe(true);
      }
      // Also on the SIMD path (16+ elements, scalar second operand).
      const long = { data: C.from({ length: 37 }, (_, i) => (i % 3 === 0 ? -0 : i % 5 === 0 ? NaN : i)) };
      const m0 = tc.maximum(long, 0).data;
      for (let i = 0; i < 37; i++) expect(Object.is(m0[i], Math.max(long.data[i], 0)), `max(x, 0) ${i}`).toBe(true);
    }
  });

  it('bitwise ops reject float dtypes with DTYPE_MISMATCH, float-only ops integer ones, as unary ops and expressions do (a TypeError until 0.9.18)', () => {
    const e = throws(() => tc.bitwiseAnd({ data: f32(1) }, { data: f32(1) }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('DTYPE_MISMATCH');
    expect(e.dims).toEqual(['float32']);
    expect(e.message).toBe(throws(() => tc.bitwiseNot({ data: f32(1) })).message.replace('bitwiseNot', 'bitwiseAnd'));
    expect(e.message).toMatch(/bitwiseAnd takes integer dtypes, got float32; cast\(x, 'int32'\) first/);
    const h = throws(() => tc.hypot({ data: Int32Array.of(3) }, { data: Int32Array.of(4) }));
    expect([h.code, h.message]).toEqual(['DTYPE_MISMATCH', throws(() => tc.sqrt({ data: Int32Array.of(3) })).message.replace('sqrt', 'hypot')]);
    expect(throws(() => tc.evaluate('a & a', { a: { data: f32(1) } })).code).toBe('DTYPE_MISMATCH');
    expect(Array.from(tc.bitwiseXor({ data: Uint8Array.of(0b1100) }, 0b1010).data)).toEqual([0b0110]);
    expect(tc.bitwiseOr({ data: BigInt64Array.of(-(2n ** 63n)) }, 1n).data[0]).toBe(-(2n ** 63n) + 1n);
  });

  it('operands must share a dtype: DTYPE_MISMATCH', () => {
    const e = throws(() => tc.add({ data: f32(1) }, { data: new Float64Array(1) }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('DTYPE_MISMATCH');
    expect(e.message).toMatch(/float32.*float64/);
    expect(throws(() => tc.add({ data: Uint8Array.of(1) }, { data: Uint8ClampedArray.of(1) })).code).toBe('DTYPE_MISMATCH');
  });

  it('data length must equal the product of the shape: LENGTH_MISMATCH', () => {
    const e = throws(() => tc.add({ data: f32(1, 2, 3), shape: [2, 2] }, 1));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('LENGTH_MISMATCH');
    expect(throws(() => tc.tensor(f32(1, 2), [3])).code).toBe('LENGTH_MISMATCH');
    expect(throws(() => tc.broadcastTo({ data: f32(1, 2), shape: [] }, [2])).code).toBe('LENGTH_MISMATCH');
  });

  it('a result that cannot fit wasm32 memory is TOO_LARGE, before anything is allocated', () => {
    const heap = tc.memory().wasmHeapBytes;
    const a = { data: new Float32Array(65536), shape: [65536, 1] };
    const b = { data: new Float32Array(65536), shape: [1, 65536] };
    const e = throws(() => tc.add(a, b));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('TOO_LARGE');
    expect(throws(() => tc.broadcastTo({ data: f32(1) }, [1e6, 1e6])).code).toBe('TOO_LARGE');
    expect(throws(() => tc.broadcastTo({ data: f32(1) }, [2 ** 53 - 1, 2 ** 53 - 1])).code).toBe('TOO_LARGE');
    expect(tc.memory().wasmHeapBytes).toBe(heap);
    // The engine is still fine.
    expect(Array.from(tc.add({ data: f32(1) }, 1).data)).toEqual([2]);
  });

  it('zero-size shapes and rank 0 work everywhere', () => {
    const z = tc.add({ data: new Float32Array(0), shape: [0, 3] }, { data: f32(1, 2, 3), shape: [1, 3] });
    expect(z.shape).toEqual([0, 3]);
    expect(z.data.length).toBe(0);
    const s = tc.mul({ data: f32(3), shape: [] }, { data: f32(4), shape: [] });
    expect(s.shape).toEqual([]);
    expect(Array.from(s.data)).toEqual([12]);
    expect(tc.add({ data: f32(2), shape: [] }, { data: f32(1, 2), shape: [2, 1] }).shape).toEqual([2, 1]);
    expect(tc.broadcastTo({ data: f32(7), shape: [] }, [0]).shape).toEqual([0]);
    expect(tc.broadcastTo({ data: f32(7), shape: [] }, []).data).toEqual(f32(7));
    expect(tc.where({ data: Uint8Array.of(1), shape: [] }, 1, { data: new Float32Array(0), shape: [0] }).shape).toEqual([0]);
    const t = tc.tensor(new Int16Array(0), [4, 0]);
    const r = tc.add(t, t);
    expect(r.shape).toEqual([4, 0]);
    expect(r.toArray().length).toBe(0);
    r.dispose();
    t.dispose();
  });

  it('reads typed arrays that are views at an offset into a larger buffer', () => {
    const buf = new Float64Array(10).map((_, i) => i);
    const r = tc.add({ data: buf.subarray(3, 6) }, { data: buf.subarray(7, 10) });
    expect(Array.from(r.data)).toEqual([10, 12, 14]);
  });
});

describe('out', () => {
  it('writes into a preallocated typed array and returns it as data', () => {
    const out = new Float32Array(6);
    const r = tc.add({ data: f32(1, 2, 3) }, { data: f32(10, 20), shape: [2, 1] }, { out });
    expect(r.data).toBe(out);
    expect(r.shape).toEqual([2, 3]);
    expect(Array.from(out)).toEqual([11, 12, 13, 21, 22, 23]);
    const bool = new Uint8Array(3);
    expect(tc.less({ data: f32(1, 2, 3) }, 2, { out: bool }).data).toBe(bool);
    expect(Array.from(bool)).toEqual([1, 0, 0]);
  });

  it('refuses an out of the wrong dtype or length', () => {
    expect(throws(() => tc.add({ data: f32(1, 2) }, 1, { out: new Float64Array(2) })).code).toBe('DTYPE_MISMATCH');
    expect(throws(() => tc.add({ data: f32(1, 2) }, 1, { out: new Float32Array(3) })).code).toBe('LENGTH_MISMATCH');
    expect(throws(() => tc.equal({ data: f32(1, 2) }, 1, { out: new Float32Array(2) })).code).toBe('DTYPE_MISMATCH');
  });

  it('broadcastTo and where take out too', () => {
    const out = new Int32Array(6);
    expect(tc.broadcastTo({ data: i32(1, 2, 3) }, [2, 3], { out }).data).toBe(out);
    expect(Array.from(out)).toEqual([1, 2, 3, 1, 2, 3]);
    const o2 = new Int32Array(3);
    tc.where({ data: Uint8Array.of(1, 0, 1) }, { data: i32(1, 2, 3) }, -1, { out: o2 });
    expect(Array.from(o2)).toEqual([1, -1, 3]);
  });
});

describe('broadcastTo', () => {
  it('materialises with every Broadcast-op mode and -1', () => {
    const x = { data: i32(1, 2), shape: [2, 1] };
    const r = tc.broadcastTo(x, [-1, 4]);
    expect(r.shape).toEqual([2, 4]);
    expect(Array.from(r.data)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    expect(tc.broadcastTo(x, [3, -1, 2], { mode: 'numpy' }).shape).toEqual([3, 2, 2]);
    const e = throws(() => tc.broadcastTo({ data: f32(1, 2, 3), shape: [3] }, [-1, 3]));
    expect(e.code).toBe('MINUS_ONE_IN_NEW_AXIS');
    const ex = tc.broadcastTo({ data: i32(1, 2, 3), shape: [3] }, [2, 3, 2], { mode: 'explicit', axesMapping: [1] });
    expect(Array.from(ex.data)).toEqual([1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]);
    const bi = tc.broadcastTo({ data: i32(1, 2, 3), shape: [3, 1] }, [2, 1, 2], { mode: 'bidirectional' });
    expect(bi.shape).toEqual([2, 3, 2]);
    expect(Array.from(bi.data)).toEqual([1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]);
    const pd = tc.broadcastTo({ data: i32(1, 2, 3), shape: [3, 1] }, [2, 3, 2], { mode: 'pdpd', axis: 1 });
    expect(Array.from(pd.data)).toEqual([1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]);
    expect(throws(() => tc.broadcastTo({ data: f32(1, 2, 3), shape: [3] }, [4])).code).toBe('INCOMPATIBLE_DIMS');
  });

  it('copies every dtype bit for bit (NaN payloads, -0, 64-bit integers)', () => {
    const nan = new Float64Array(new BigUint64Array([0x7ff8dead0000beefn]).buffer);
    const r = tc.broadcastTo({ data: Float64Array.of(nan[0], -0), shape: [2] }, [3, 2]);
    const bits = new BigUint64Array(r.data.buffer);
    expect(bits[4]).toBe(0x7ff8dead0000beefn);
    expect(Object.is(r.data[5], -0)).toBe(true);
    expect(tc.broadcastTo({ data: BigInt64Array.of(-1n) }, [3]).data).toEqual(BigInt64Array.of(-1n, -1n, -1n));
  });
});

describe('where', () => {
  it('selects with three-way NumPy broadcasting', () => {
    const r = tc.where({ data: Uint8Array.of(1, 0, 1), shape: [3, 1] }, { data: i32(1, 2, 3, 4), shape: [1, 4] }, -1);
    expect(r.shape).toEqual([3, 4]);
    expect(Array.from(r.data)).toEqual([1, 2, 3, 4, -1, -1, -1, -1, 1, 2, 3, 4]);
  });

  it('takes a condition of any dtype (!= 0, NaN true) and refuses mixed branch dtypes', () => {
    const r = tc.where({ data: Float32Array.of(0, NaN, -0, 2) }, { data: f32(1, 1, 1, 1) }, { data: f32(0, 0, 0, 0) });
    expect(Array.from(r.data)).toEqual([0, 1, 0, 1]);
    expect(throws(() => tc.where({ data: Uint8Array.of(1) }, { data: f32(1) }, { data: i32(1) })).code).toBe('DTYPE_MISMATCH');
    expect(throws(() => tc.where({ data: Uint8Array.of(1, 0) }, { data: f32(1, 2, 3) }, 0)).code).toBe('INCOMPATIBLE_DIMS');
  });
});

describe('named operands (§6)', () => {
  it('broadcast by name: missing dims are inserted, output dims are the left\'s then the right\'s new ones', () => {
    const r = tc.add({ data: f32(1, 2), shape: [2], dims: ['x'] }, { data: f32(10, 20, 30), shape: [3], dims: ['y'] });
    expect(r.shape).toEqual([2, 3]);
    expect(r.dims).toEqual(['x', 'y']);
    expect(Array.from(r.data)).toEqual([11, 21, 31, 12, 22, 32]);
    // The right operand's dims in another order are matched by name.
    const p = tc.sub({ data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['a', 'b'] }, { data: f32(1, 2, 3, 4, 5, 6), shape: [3, 2], dims: ['b', 'a'] });
    expect(p.dims).toEqual(['a', 'b']);
    expect(Array.from(p.data)).toEqual([0, -1, -2, 2, 1, 0]);
  });

  it('never stretches a shared dim, even of size 1', () => {
    const e = throws(() => tc.add({ data: f32(1), shape: [1], dims: ['x'] }, { data: f32(1, 2), shape: [2], dims: ['x'] }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.message).toMatch(/never stretched/);
  });

  it('aligns labeled coordinates: intersection by default, union with a fill', () => {
    const a = { data: f32(1, 2, 3), shape: [3], dims: ['t'], coords: { t: ['a', 'b', 'c'] } };
    const b = { data: f32(10, 20), shape: [2], dims: ['t'], coords: { t: ['c', 'a'] } };
    const r = tc.add(a, b);
    expect(r.coords).toEqual({ t: ['a', 'c'] });
    expect(Array.from(r.data)).toEqual([21, 13]);
    const u = tc.add(a, b, { shaping: 'union', fill: 0 });
    expect(u.coords.t).toEqual(['a', 'b', 'c']);
    expect(Array.from(u.data)).toEqual([21, 2, 13]);
  });
});

describe('resident tensors', () => {
  it('copy once, chain ops without copies, and free on dispose', () => {
    const before = tc.memory();
    const a = tc.tensor(f32(1, 2, 3, 4), [2, 2]);
    expect(a).toBeInstanceOf(tc.Tensor);
    expect(a.shape).toEqual([2, 2]);
    expect(a.dtype).toBe('float32');
    const b = tc.mul(a, 10);
    expect(b).toBeInstanceOf(tc.Tensor);
    const c = tc.add(b, a);
    expect(c.shape).toEqual([2, 2]);
    expect(Array.from(c.toArray())).toEqual([11, 22, 33, 44]);
    expect(tc.memory().liveTensors).toBe(before.liveTensors + 3);
    expect(tc.memory().allocatedBytes).toBe(before.allocatedBytes + 3 * 16);
    // A resident out is written in place and returned.
    const out = tc.tensor(new Float32Array(4), [2, 2]);
    expect(tc.sub(c, a, { out })).toBe(out);
    expect(Array.from(out.toArray())).toEqual([10, 20, 30, 40]);
    for (const t of [a, b, c, out]) t.dispose();
    expect(tc.memory().liveTensors).toBe(before.liveTensors);
    expect(tc.memory().allocatedBytes).toBe(before.allocatedBytes);
  });

  it('mix with plain operands, keep dims names, and support Symbol.dispose', () => {
    const t = tc.tensor(i32(1, 2, 3), [3], { dims: ['x'] });
    expect(t.dims).toEqual(['x']);
    const r = tc.add(t, { data: i32(10, 20), shape: [2], dims: ['y'] });
    expect(r).toBeInstanceOf(tc.Tensor);
    expect(r.shape).toEqual([3, 2]);
    expect(Array.from(r.toArray())).toEqual([11, 21, 12, 22, 13, 23]);
    r[Symbol.dispose]();
    expect(r.disposed).toBe(true);
    r[Symbol.dispose](); // a second Symbol.dispose is a no-op
    t.dispose();
  });

  it('refuses a disposed tensor with a TypeError', () => {
    const t = tc.tensor(f32(1));
    t.dispose();
    expect(throws(() => t.toArray())).toBeInstanceOf(TypeError);
    expect(throws(() => tc.add(t, 1))).toBeInstanceOf(TypeError);
    // A second dispose() is a no-op (as in tfjs), so `finally { t.dispose() }` is safe.
    expect(() => t.dispose()).not.toThrow();
    expect(t.disposed).toBe(true);
  });

  it('stay valid when memory grows (views are never kept across a call)', () => {
    const small = tc.tensor(f32(1, 2, 3));
    const heap = tc.memory().wasmHeapBytes;
    const big = tc.tensor(new Float32Array(heap / 4 + 1024), [heap / 4 + 1024]); // forces growth
    expect(tc.memory().wasmHeapBytes).toBeGreaterThan(heap);
    expect(Array.from(small.toArray())).toEqual([1, 2, 3]);
    const r = tc.add(small, 1);
    expect(Array.from(r.toArray())).toEqual([2, 3, 4]);
    for (const t of [small, big, r]) t.dispose();
  });

  it('broadcastTo and where on resident tensors return resident tensors', () => {
    const x = tc.tensor(f32(1, 2), [2, 1]);
    const y = tc.broadcastTo(x, [2, 3]);
    expect(y).toBeInstanceOf(tc.Tensor);
    expect(Array.from(y.toArray())).toEqual([1, 1, 1, 2, 2, 2]);
    const c = tc.tensor(Uint8Array.of(1, 0, 1));
    const w = tc.where(c, y, 0);
    expect(w).toBeInstanceOf(tc.Tensor);
    expect(Array.from(w.toArray())).toEqual([1, 0, 1, 2, 0, 2]);
    for (const t of [x, y, c, w]) t.dispose();
  });

  it('memory() reports the heap, the bytes held and the live tensors', () => {
    const m = tc.memory();
    expect(m.wasmHeapBytes).toBeGreaterThanOrEqual(16 << 20);
    expect(typeof m.allocatedBytes).toBe('number');
    expect(typeof m.liveTensors).toBe('number');
  });
});

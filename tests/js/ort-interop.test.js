// onnxruntime interop (issue 38): an onnxruntime-web / -node Tensor ({ type,
// dims, data, size, location }, no shape) is an operand whose shape is its
// dims, in every call that takes operands, and gives what the same call gives
// with { data, shape }. onnxruntime-node is not a devDependency (its
// postinstall downloads binaries from api.nuget.org), so the tensors here are
// objects shaped exactly like ort's Tensor: a class with type, dims (frozen),
// data, size and location getters.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

let baseline;
beforeAll(() => { baseline = tc.memory(); });
afterEach(() => {
  const m = tc.memory();
  expect(m.liveTensors).toBe(baseline.liveTensors);
  expect(m.allocatedBytes).toBe(baseline.allocatedBytes);
});

/** onnxruntime-common's Tensor as its users see it (read-only getters; dims frozen). */
class OrtTensor {
  #type; #data; #dims;
  constructor(type, data, dims) {
    this.#type = type;
    this.#data = data;
    this.#dims = Object.freeze([...dims]);
  }
  get type() { return this.#type; }
  get data() { return this.#data; }
  get dims() { return this.#dims; }
  get size() { return this.#dims.reduce((a, b) => a * b, 1); }
  get location() { return 'cpu'; }
  getData() { return Promise.resolve(this.#data); }
  dispose() {}
}
const ort = (type, data, dims) => new OrtTensor(type, data, dims);

// float16 bits of 1..6 and of 10, 20, 30.
const H = { 1: 0x3c00, 2: 0x4000, 3: 0x4200, 4: 0x4400, 5: 0x4500, 6: 0x4600, 10: 0x4900, 20: 0x4d00, 30: 0x4f80 };

// Per ort type: x of dims [2, 3], y of dims [3], c (a bool mask) of dims [2, 3], each
// beside its { data, shape } twin (float16: the bits with dtype 'float16').
const CASES = [
  { type: 'float32', x: Float32Array.of(1, 2, 3, 4, 5, 6), y: Float32Array.of(10, 20, 30) },
  { type: 'int32', x: Int32Array.of(1, -2, 3, -4, 5, -6), y: Int32Array.of(10, 20, 30) },
  { type: 'int64', x: BigInt64Array.of(1n, -2n, 3n, -4n, 5n, -6n), y: BigInt64Array.of(10n, 20n, 30n) },
  { type: 'float16', x: Uint16Array.of(H[1], H[2], H[3], H[4], H[5], H[6]), y: Uint16Array.of(H[10], H[20], H[30]), dtype: 'float16' },
  { type: 'bool', x: Uint8Array.of(1, 0, 1, 1, 0, 0), y: Uint8Array.of(0, 1, 1) },
  { type: 'uint8', x: Uint8Array.of(1, 2, 3, 4, 5, 6), y: Uint8Array.of(10, 20, 30) },
];
const MASK = Uint8Array.of(1, 0, 1, 0, 1, 0);

function operands(k) {
  const plain = (data, shape) => (k.dtype ? { data, shape, dtype: k.dtype } : { data, shape });
  return {
    x: ort(k.type, k.x, [2, 3]), y: ort(k.type, k.y, [3]), c: ort('bool', MASK, [2, 3]),
    px: plain(k.x, [2, 3]), py: plain(k.y, [3]), pc: { data: MASK, shape: [2, 3] },
  };
}

/** A result as plain values: data as an array, shape, dtype, dims / coords if any. */
function norm(r) {
  if (r instanceof tc.Tensor) {
    const out = { data: Array.from(r.toArray()), shape: r.shape, dtype: r.dtype, dims: r.dims };
    r.dispose();
    return out;
  }
  return { ...r, data: Array.from(r.data) };
}

const same = (viaOrt, viaPlain) => expect(norm(viaOrt())).toEqual(norm(viaPlain()));

function throws(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a throw');
}

describe.each(CASES)('an ort Tensor of type $type is an operand of shape dims', (k) => {
  const { x, y, c, px, py, pc } = operands(k);

  it('element-wise ops: add, mul, maximum, less, with another ort tensor and with a scalar', () => {
    same(() => tc.add(x, y), () => tc.add(px, py));
    same(() => tc.mul(y, x), () => tc.mul(py, px));
    same(() => tc.maximum(x, py), () => tc.maximum(px, py));
    same(() => tc.less(x, y), () => tc.less(px, py));
    same(() => tc.add(x, 1), () => tc.add(px, 1));
    expect(tc.add(x, y).shape).toEqual([2, 3]);
  });

  it('unary ops and cast', () => {
    same(() => tc.abs(x), () => tc.abs(px));
    same(() => tc.neg(x), () => tc.neg(px));
    same(() => tc.logicalNot(x), () => tc.logicalNot(px));
    same(() => tc.cast(x, 'float64'), () => tc.cast(px, 'float64'));
    same(() => tc.cast(y, 'int32'), () => tc.cast(py, 'int32'));
  });

  it('where (an ort bool tensor as the condition) and broadcastTo', () => {
    same(() => tc.where(c, x, y), () => tc.where(pc, px, py));
    same(() => tc.where(pc, y, x), () => tc.where(pc, py, px));
    same(() => tc.broadcastTo(y, [2, 3]), () => tc.broadcastTo(py, [2, 3]));
    same(() => tc.broadcastTo(x, [4, 2, 3]), () => tc.broadcastTo(px, [4, 2, 3]));
  });

  it('reductions, broadcastArrays and unbroadcast (the ort tensor as grad and as the input)', () => {
    same(() => tc.sum(x, { axes: [1] }), () => tc.sum(px, { axes: [1] }));
    same(() => tc.max(x), () => tc.max(px));
    same(() => tc.mean(x, { axes: [0] }), () => tc.mean(px, { axes: [0] }));
    same(() => tc.unbroadcast(x, [3]), () => tc.unbroadcast(px, [3]));
    same(() => tc.unbroadcast(x, y), () => tc.unbroadcast(px, py));
    same(() => tc.unbroadcast(px, y), () => tc.unbroadcast(px, py));
    const [a, b] = tc.broadcastArrays(x, y);
    const [pa, pb] = tc.broadcastArrays(px, py);
    expect(norm(a)).toEqual(norm(pa));
    expect(norm(b)).toEqual(norm(pb));
  });

  it('evaluate and compile().run', () => {
    same(() => tc.evaluate('x * y + x', { x, y }), () => tc.evaluate('x * y + x', { x: px, y: py }));
    same(() => tc.evaluate('sum(x * y, [1])', { x, y }), () => tc.evaluate('sum(x * y, [1])', { x: px, y: py }));
    same(() => tc.evaluate('where(c, x, y)', { c, x, y }), () => tc.evaluate('where(c, x, y)', { c: pc, x: px, y: py }));
    const e = tc.compile('maximum(x, y) - y');
    same(() => e.run({ x, y }), () => e.run({ x: px, y: py }));
  });

  it('tensor(ortTensor) and reshape', () => {
    same(() => tc.tensor(x), () => tc.tensor(k.x, [2, 3], k.dtype ? { dtype: k.dtype } : undefined));
    same(() => tc.tensor(x, [3, 2]), () => tc.tensor(k.x, [3, 2], k.dtype ? { dtype: k.dtype } : undefined));
    const r = tc.reshape(x, [3, -1]);
    expect(r.shape).toEqual([3, 2]);
    expect(r.data).toBe(k.x);
  });
});

describe('ort tensors: the edges', () => {
  it('rank 0 (dims []) and zero-size tensors', () => {
    const s = ort('float32', Float32Array.of(7), []);
    expect(norm(tc.add(s, { data: Float32Array.of(1, 2), shape: [2] }))).toEqual({ data: [8, 9], shape: [2], dtype: 'float32' });
    expect(norm(tc.mul(ort('int32', new Int32Array(0), [0, 3]), ort('int32', Int32Array.of(1, 2, 3), [3])))).toEqual({ data: [], shape: [0, 3], dtype: 'int32' });
  });

  it('uint64, int8, uint16 and float64 map to biguint64, int8, uint16, float64', () => {
    expect(tc.add(ort('uint64', BigUint64Array.of(1n, 2n), [2, 1]), 1n).dtype).toBe('biguint64');
    expect(tc.add(ort('int8', Int8Array.of(1, 2), [1, 2]), 1).dtype).toBe('int8');
    expect(tc.add(ort('uint16', Uint16Array.of(1, 2), [2, 1]), 1).dtype).toBe('uint16');
    expect(tc.add(ort('float64', Float64Array.of(1, 2), [1, 2]), 1).dtype).toBe('float64');
  });

  it('a float16 ort tensor is read as float16 bits (not uint16), as { data, dtype: \'float16\' }', () => {
    const r = tc.add(ort('float16', Uint16Array.of(H[1], H[2]), [2, 1]), ort('float16', Uint16Array.of(H[1]), [1]));
    expect(r.dtype).toBe('float16');
    expect(Array.from(r.data)).toEqual([H[2], H[3]]);
    expect(r.shape).toEqual([2, 1]);
  });

  it('a result turns back into an ort-shaped tensor: new Tensor(r.dtype, r.data, r.shape)', () => {
    const x = ort('float32', Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3]);
    const m = ort('float32', Float32Array.of(1, 2, 3), [3]);
    const r = tc.evaluate('(x - m) / s', { x, m, s: 2 });
    const back = ort('float32', r.data, r.shape);
    expect(back.dims).toEqual([2, 3]);
    expect(Array.from(tc.mul(back, 2).data)).toEqual([0, 0, 0, 3, 3, 3]);
  });
});

describe('ort tensors: read once', () => {
  it('type, dims and data are each read once per call (and each dim once); size and location never', () => {
    const reads = {};
    const count = (k, v) => { reads[k] = (reads[k] ?? 0) + 1; return v; };
    const dims = new Proxy([2, 3], { get: (t, k) => (typeof k === 'string' && /^\d$/.test(k) ? count(`dims[${k}]`, t[k]) : Reflect.get(t, k)) });
    const x = {
      get type() { return count('type', 'float32'); },
      get dims() { return count('dims', dims); },
      get data() { return count('data', Float32Array.of(1, 2, 3, 4, 5, 6)); },
      get size() { return count('size', 6); },
      get location() { return count('location', 'cpu'); },
    };
    for (const call of [() => tc.add(x, 1), () => tc.evaluate('x * 2', { x }), () => tc.sum(x, { axes: [0] }), () => tc.unbroadcast({ data: new Float32Array(6), shape: [2, 3] }, x)]) {
      for (const k of Object.keys(reads)) delete reads[k];
      call();
      expect(reads).toEqual({ type: 1, dims: 1, data: 1, 'dims[0]': 1, 'dims[1]': 1 });
    }
    for (const k of Object.keys(reads)) delete reads[k];
    tc.tensor(x).dispose();
    expect(reads).toEqual({ type: 1, dims: 1, data: 1, 'dims[0]': 1, 'dims[1]': 1 });
  });
});

describe('ort tensors: refusals', () => {
  it('a type that disagrees with the typed array is a TypeError naming both', () => {
    let e = throws(() => tc.add(ort('float32', Int32Array.of(1, 2), [2]), 1));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe("add: a is an onnxruntime Tensor of type 'float32' but its data is an Int32Array: ort's 'float32' data is a Float32Array; make the type and the data agree");
    e = throws(() => tc.evaluate('x + 1', { x: ort('int64', Int32Array.of(1, 2), [2]) }));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/evaluate: x is an onnxruntime Tensor of type 'int64' but its data is an Int32Array: ort's 'int64' data is a BigInt64Array/);
    e = throws(() => tc.abs(ort('bool', Int8Array.of(1, 0), [2])));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/type 'bool' but its data is an Int8Array: ort's 'bool' data is a Uint8Array/);
    e = throws(() => tc.sum(ort('float16', Float32Array.of(1, 0), [2])));
    expect(e.message).toMatch(/type 'float16' but its data is a Float32Array: ort's 'float16' data is a Uint16Array or a Float16Array \(of float16 bits\)/);
  });

  it("a 'string' (or int4 / uint4) ort tensor is a TypeError: no such dtype", () => {
    const e = throws(() => tc.add(ort('string', ['a', 'b'], [2]), ort('string', ['c', 'd'], [2])));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/^add: a is an onnxruntime Tensor of type 'string' \(data: a plain Array\), which tensorcast has no dtype for/);
    expect(throws(() => tc.neg(ort('int4', Int8Array.of(1), [2])))).toBeInstanceOf(TypeError);
    expect(throws(() => tc.tensor(ort('string', ['a'], [1])))).toBeInstanceOf(TypeError);
  });

  it('dims whose product is not the data length: BroadcastError LENGTH_MISMATCH', () => {
    const e = throws(() => tc.mul(1, ort('float32', Float32Array.of(1, 2, 3, 4, 5), [2, 3])));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('LENGTH_MISMATCH');
    expect(e.message).toBe("mul: b (an onnxruntime Tensor, type 'float32'): data has 5 elements but shape (2,3) needs 6");
    expect(throws(() => tc.tensor(ort('int32', Int32Array.of(1, 2, 3), [2, 2]))).code).toBe('LENGTH_MISMATCH');
    expect(throws(() => tc.unbroadcast({ data: Float32Array.of(1, 2, 3) }, ort('float32', Float32Array.of(1, 2), [3]))).code).toBe('LENGTH_MISMATCH');
  });

  it('a tensor whose buffer was transferred is the TypeError plain data gets (until 0.9.21 LENGTH_MISMATCH: "data has 0 elements")', () => {
    const detached = () => { const a = new Float32Array(3); structuredClone(a.buffer, { transfer: [a.buffer] }); return a; };
    for (const call of [() => tc.add(ort('float32', detached(), [3]), 1), () => tc.softmax(ort('float32', detached(), [3])),
      () => tc.evaluate('x * 2', { x: ort('float32', detached(), [3]) }), () => tc.transpose(ort('float32', detached(), [3]))]) {
      const e = throws(call);
      expect(e).toBeInstanceOf(TypeError);
      expect(e.message).toMatch(/: (a|x)\.data: its ArrayBuffer was detached \(transferred to another thread or context\)$/);
    }
  });

  it("a tensor whose data getter throws (on the GPU, or disposed: ort's own Error) is a TypeError naming the operand (until 0.9.21 ort's Error as it was)", () => {
    class GpuTensor extends OrtTensor {
      get location() { return 'gpu-buffer'; }
      get data() { throw new Error('The data is not on CPU. Use `getData()` to download GPU data to CPU'); }
    }
    const g = new GpuTensor('float32', Float32Array.of(1, 2, 3), [3]);
    const t = tc.tensor(Float32Array.of(1), [1]); // a resident first operand: read, then the throw; nothing is left allocated
    let e = throws(() => tc.add(t, g));
    t.dispose();
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('add: b.data: Error: The data is not on CPU. Use `getData()` to download GPU data to CPU');
    e = throws(() => tc.evaluate('x + 1', { x: g }));
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/^evaluate: x\.data: Error: The data is not on CPU/);
    expect(Array.from(tc.add(ort('float32', Float32Array.of(1, 2, 3), [3]), 1).data)).toEqual([2, 3, 4]); // still usable
  });

  it('negative or fractional dims: BroadcastError INVALID_SHAPE naming the tensor', () => {
    let e = throws(() => tc.add(ort('float32', Float32Array.of(1, 2, 3), [-1, 3]), 1));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.message).toBe("add: a is an onnxruntime Tensor (type 'float32') with dims [-1, 3]: its dims are its shape and must be an array of integers from 0 to 2^53-1");
    e = throws(() => tc.evaluate('x', { x: ort('int32', Int32Array.of(1, 2, 3), [1.5, 2]) }));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.message).toMatch(/^evaluate: x is an onnxruntime Tensor \(type 'int32'\) with dims \[1\.5, 2\]/);
  });
});

describe('named operands are not taken for ort tensors', () => {
  const data = Float32Array.of(1, 2, 3, 4, 5, 6);

  it('{ data, shape: [2, 3], dims: [0, 1] } keeps numeric dim names; an ort tensor with the same numbers is positional', () => {
    const named = tc.add({ data, shape: [2, 3], dims: [0, 1] }, { data: Float32Array.of(1, 2), shape: [2], dims: [0] });
    expect(named.dims).toEqual([0, 1]);
    expect(Array.from(named.data)).toEqual([2, 3, 4, 6, 7, 8]);
    // A `type` beside a shape does not make it an ort tensor either.
    expect(tc.add({ data, shape: [2, 3], dims: [0, 1], type: 'float32' }, { data: Float32Array.of(1, 2), shape: [2], dims: [0] }).dims).toEqual([0, 1]);
    const positional = tc.add(ort('float32', data, [2, 3]), ort('float32', Float32Array.of(1, 2, 3), [3]));
    expect(positional.dims).toBeUndefined();
    expect(positional.shape).toEqual([2, 3]);
  });

  it("{ data, dims: ['a', 'b'] } (string names, with or without a type) reads as before", () => {
    // No shape: the shape is [data.length], so two names do not fit, as before.
    expect(throws(() => tc.add({ data, dims: ['a', 'b'] }, 1)).message).toBe('add: left has 2 dim names but shape (6,)');
    expect(throws(() => tc.add({ data, dims: ['a', 'b'], type: 'float32' }, 1)).message).toBe('add: left has 2 dim names but shape (6,)');
    const one = tc.add({ data: Float32Array.of(1, 2), dims: ['a'] }, { data: Float32Array.of(3, 4), dims: ['a'], type: 'float32' });
    expect(one.dims).toEqual(['a']);
    expect(Array.from(one.data)).toEqual([4, 6]);
    // The same data as an ort tensor: its dims are the shape.
    expect(tc.add(ort('float32', data, [3, 2]), 1).shape).toEqual([3, 2]);
  });
});

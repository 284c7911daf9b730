// Named data and the errors of the "safe by construction" round: duplicate
// labels refused in every named call, a named resident `out` read by its own
// names, names such as "__proto__" kept as own keys, a tensor of another
// tensorcast instance refused by name, and reduction errors that say the cause
// and the fix.
import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as tc from '../../dist/node.js';
import { commonDtype } from '../../dist/errors.js';

beforeAll(async () => { await tc.init(); });

const f32 = (...v) => Float32Array.from(v);
const values = (r) => Array.from(r instanceof tc.Tensor ? r.toArray() : r.data);

describe('duplicate labels are refused in every named call', () => {
  it('named unbroadcast: a gradient with a label twice', () => {
    const g = { data: f32(5, 7), shape: [2], dims: ['x'], coords: { x: ['a', 'a'] } };
    expect(() => tc.unbroadcast(g, { dims: ['x'], coords: { x: ['a'] } }))
      .toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', axis: 0, message: expect.stringMatching(/grad has the coordinate "a" twice in dim "x" \(at 0 and 1\)/) }));
  });
  it('named unbroadcast: an input with a label twice, NaN included', () => {
    const g = { data: f32(1, 2), shape: [2], dims: ['x'], coords: { x: [NaN, 1] } };
    expect(() => tc.unbroadcast(g, { dims: ['x'], coords: { x: [NaN, NaN] } })).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', message: expect.stringMatching(/input has the coordinate NaN twice/) }));
    // 1 and '1' are different labels.
    const r = tc.unbroadcast({ data: f32(1, 2), shape: [2], dims: ['x'], coords: { x: [1, '1'] } }, { dims: ['x'], coords: { x: ['1', 1] } });
    expect(values(r)).toEqual([2, 1]);
  });
  it('the other named calls refuse them too', () => {
    const a = { dims: ['x'], coords: { x: ['a', 'a'] } };
    const b = { dims: ['x'], coords: { x: ['a'] } };
    expect(() => tc.namedBroadcastShape(a, b)).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
    expect(() => tc.add({ data: f32(1, 2), shape: [2], ...a }, { data: f32(1), shape: [1], ...b })).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
    expect(() => tc.tensor(f32(1, 2), [2], a)).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
  });
  it('a plain operand with a label twice is refused by the calls of one operand too', () => {
    // They passed the labels on: sum gave coords { y: ['p', 'p'] }, which tensor() refuses.
    const x = { data: f32(1, 2, 3, 4), shape: [2, 2], dims: ['x', 'y'], coords: { y: ['p', 'p'] } };
    const calls = {
      sum: () => tc.sum(x, { dims: ['x'] }),
      max: () => tc.max(x, { axes: 0 }),
      exp: () => tc.exp(x),
      softmax: () => tc.softmax(x, 'x'),
      transpose: () => tc.transpose(x, ['y', 'x']),
      contiguous: () => tc.contiguous(x),
      evaluate: () => tc.evaluate('-x', { x }),
      'evaluate sum': () => tc.evaluate("sum(x, ['x'])", { x }),
    };
    for (const [fn, call] of Object.entries(calls)) {
      expect(call, fn).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE', axis: 1, message: expect.stringMatching(/x has the coordinate "p" twice in dim "y" \(at 0 and 1\): duplicate labels/) }));
    }
    // explain() of an expression refuses what evaluate refuses.
    const e = tc.explain({ expression: '-x', shapes: { x: { dims: x.dims, shape: x.shape, coords: x.coords } } });
    expect(e.ok).toBe(false);
    expect(e.error).toMatchObject({ code: 'INVALID_SHAPE', axis: 1, message: expect.stringMatching(/explain: x has the coordinate "p" twice/) });
  });
});

describe('a resident out with dims is read by them', () => {
  const setup = () => ({
    a: tc.tensor(f32(1, 2, 3, 4, 5, 6), [2, 3], { dims: ['x', 'y'] }),
    b: tc.tensor(f32(10, 20, 30), [3], { dims: ['y'] }),
  });
  it('out with the result\'s dims receives the data', () => {
    const { a, b } = setup();
    const out = tc.tensor(new Float32Array(6), [2, 3], { dims: ['x', 'y'] });
    expect(tc.add(a, b, { out })).toBe(out);
    expect(values(out)).toEqual([11, 22, 33, 14, 25, 36]);
    // In place over an operand with the same names works (the result is made apart, then copied).
    expect(values(tc.add(a, b, { out: a }))).toEqual([11, 22, 33, 14, 25, 36]);
    for (const t of [a, b, out]) t.dispose();
  });
  it('out with other dims, another order or other coords is refused, and left as it was', () => {
    const { a, b } = setup();
    const swapped = tc.tensor(f32(9, 9, 9, 9, 9, 9), [3, 2], { dims: ['y', 'x'] });
    expect(() => tc.add(a, b, { out: swapped })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS', axis: 0 }));
    expect(values(swapped)).toEqual([9, 9, 9, 9, 9, 9]);
    const labelled = tc.tensor(f32(9, 9, 9, 9, 9, 9), [2, 3], { dims: ['x', 'y'], coords: { x: ['p', 'q'] } });
    expect(() => tc.add(a, b, { out: labelled })).toThrow(/with other coordinates .*dim "x" differs/);
    expect(values(labelled)).toEqual([9, 9, 9, 9, 9, 9]);
    // Without dims, out is positional and takes the result as laid out.
    const positional = tc.tensor(new Float32Array(6), [6]);
    expect(values(tc.add(a, b, { out: positional }))).toEqual([11, 22, 33, 14, 25, 36]);
    for (const t of [a, b, swapped, labelled, positional]) t.dispose();
    expect(tc.memory().liveTensors).toBe(0);
  });
  it('named unbroadcast checks out\'s names before it writes', () => {
    const g = tc.tensor(f32(1, 2, 3, 4, 5, 6), [3, 2], { dims: ['c', 'b'] });
    const wrong = tc.tensor(f32(0, 0, 0, 0, 0, 0), [3, 2], { dims: ['c', 'b'] });
    expect(() => tc.unbroadcast(g, { dims: ['b', 'c'], shape: [2, 3] }, { out: wrong })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    expect(values(wrong)).toEqual([0, 0, 0, 0, 0, 0]);
    const right = tc.tensor(new Float32Array(6), [2, 3], { dims: ['b', 'c'] });
    expect(values(tc.unbroadcast(g, { dims: ['b', 'c'], shape: [2, 3] }, { out: right }))).toEqual([1, 3, 5, 2, 4, 6]);
    for (const t of [g, wrong, right]) t.dispose();
  });
});

describe('names are own keys, "__proto__" included', () => {
  it('namedBroadcastShape and explain give coords whose keys are the dims', () => {
    const a = { dims: ['__proto__', 'y'], coords: Object.fromEntries([['__proto__', ['b', 'a']]]), shape: [2, 2] };
    const b = { dims: ['__proto__'], coords: Object.fromEntries([['__proto__', ['a', 'b']]]) };
    const r = tc.namedBroadcastShape(a, b);
    expect(r.dims).toEqual(['__proto__', 'y']);
    expect(Object.getPrototypeOf(r.coords)).toBe(Object.prototype);
    expect(Object.keys(r.coords)).toEqual(['__proto__']);
    expect(Object.hasOwn(r.coords, '__proto__')).toBe(true);
    expect(r.coords.__proto__).toEqual(['b', 'a']); // eslint-disable-line no-proto
    const e = tc.explain({ rule: 'named', operands: [a, b] });
    expect(Object.keys(e.named.coords)).toEqual(['__proto__']);
  });
  it('a named result passed back gives the same answer (its labels are read, not a prototype)', () => {
    const x = { data: f32(1, 2), shape: [2], dims: ['__proto__'], coords: Object.fromEntries([['__proto__', ['p', 'q']]]) };
    const y = { data: f32(10, 20), shape: [2], dims: ['__proto__'], coords: Object.fromEntries([['__proto__', ['q', 'p']]]) };
    const s = tc.add(x, y);
    expect(values(s)).toEqual([21, 12]);
    expect(Object.keys(s.coords)).toEqual(['__proto__']);
    const again = tc.add(s, y);
    expect(values(again)).toEqual([41, 22]);
    // The gradient back to x by its labels, and a resident tensor's coords.
    const g = tc.unbroadcast({ ...s, data: f32(5, 7) }, { dims: ['__proto__'], coords: Object.fromEntries([['__proto__', ['q', 'p']]]) });
    expect(values(g)).toEqual([7, 5]);
    expect(Object.hasOwn(g.coords, '__proto__')).toBe(true);
    const t = tc.tensor(f32(1, 2), [2], { dims: ['__proto__'], coords: Object.fromEntries([['__proto__', ['p', 'q']]]) });
    expect(Object.keys(t.coords)).toEqual(['__proto__']);
    t.dispose();
  });
});

describe('errors that say the cause and the fix', () => {
  it('an out-of-range axis is called out of range, even when it equals an earlier one modulo the rank', () => {
    const x = { data: new Float32Array(6), shape: [2, 3] };
    expect(() => tc.sum(x, { axes: [0, 1, 7] })).toThrow(/axes\[2\] = 7 is out of range: x has rank 2: use -2 to 1/);
    expect(() => tc.sum(x, { axes: [1, -1] })).toThrow(/axes\[1\] = -1 names axis 1, already named by axes\[0\] = 1/);
  });
  it('an axes entry -6 out of range or repeated is called that, not an empty reduction (the engine gives both detail -6)', () => {
    const err = (f) => { try { f(); } catch (e) { return e; } return null; };
    const x5 = { data: new Float32Array(2), shape: [1, 1, 1, 2, 1] };
    const x6 = { data: new Float32Array(2), shape: [1, 1, 1, 2, 1, 1] };
    const cases = [
      [() => tc.sum(x5, { axes: [-6] }), 'sum: axes[0] = -6 is out of range: x has rank 5: use -5 to 4'],
      [() => tc.prod(x5, { axes: [-4, -6], keepdims: true }), 'prod: axes[1] = -6 is out of range: x has rank 5: use -5 to 4'],
      [() => tc.sum(x6, { axes: [0, -6] }), 'sum: axes[1] = -6 names axis 0, already named by axes[0] = 0: name each axis once'],
      [() => tc.max(x6, { axes: [-6, -6] }), 'max: axes[1] = -6 names axis 0, already named by axes[0] = -6: name each axis once'],
      [() => tc.mean({ data: Float32Array.of(1), shape: [] }, { axes: -6 }), 'mean: axes[0] = -6 is out of range: a rank-0 input has no axes (reduce it with no axes given)'],
    ];
    for (const [f, msg] of cases) {
      const e = err(f);
      expect(e?.code).toBe('INVALID_AXIS');
      expect(e.message).toBe(msg);
      expect(e.dims).toBe(null);
    }
    // A valid -6 over an axis of size 0 is still the empty reduction.
    const e = err(() => tc.min({ data: new Float32Array(0), shape: [0, 1, 1, 1, 1, 1] }, { axes: [-6] }));
    expect(e.message).toBe('min of shape (0,1,1,1,1,1) over axis 0: that axis has size 0, and min of no elements has no value (sum gives 0, prod 1)');
    expect([e.axis, e.dims]).toEqual([0, [0]]);
  });
  it('an axes list longer than any rank is refused by its length, before its entries are read', () => {
    let reads = 0;
    const big = new Proxy(new Array(10_000_000).fill(0), {
      get(t, k, r) { if (k !== 'length' && typeof k === 'string' && /^\d+$/.test(k)) reads++; return Reflect.get(t, k, r); },
    });
    const heap = tc.memory().wasmHeapBytes;
    expect(() => tc.sum({ data: new Float32Array(4), shape: [4] }, { axes: big })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', message: expect.stringMatching(/axes has 10000000 entries, but a shape has at most 32 axes/) }));
    expect(reads).toBe(0);
    expect(tc.memory().wasmHeapBytes).toBe(heap);
    expect(() => tc.sum({ data: new Float32Array(4) }, { axes: new Array(33).fill(0) })).toThrow(/axes has 33 entries/);
  });
  it('out equal to a reduction\'s input gets a reduction\'s message', () => {
    const x = tc.tensor(f32(1, 2, 3, 4), [4]);
    const y = tc.tensor(f32(1, 2, 3, 4), [4]);
    expect(() => tc.sum(x, { axes: [], out: x })).toThrow(/sum: out shares memory with the input x; a reduction .* cannot work in place/);
    expect(() => tc.unbroadcast(y, [4], { out: y })).toThrow(/unbroadcast: out shares memory with the gradient/);
    x.dispose();
    y.dispose();
  });
  it('a dtype is named with its article, a k with its type, and expandDims\' one axis as `axis` (until 0.9.22 "a int32", "got 1" for 1n and \'1\', "axes[0]" for 5)', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    expect(() => tc.add(x, x, { out: new Int32Array(6) })).toThrow(/add: out: an int32 array cannot hold a float32 result$/);
    expect(() => tc.equal(x, x, { out: new Float32Array(6) })).toThrow(/equal: out: a float32 array cannot hold a uint8 result$/);
    expect(() => tc.isNaN(x, { out: new Int8Array(6) })).toThrow(/isNaN: out: an int8 array cannot hold a uint8 result; pass out of dtype uint8/);
    expect(() => tc.sum(x, { out: new Int32Array(1) })).toThrow(/sum: out: an int32 array cannot hold a float32 result$/);
    expect(() => tc.evaluate('x * 2', { x }, { out: tc.tensor(new Int16Array(6), [2, 3]) })).toThrow(/out: an int16 tensor cannot hold a float32 result$/);
    expect(() => tc.topk(x, 1n)).toThrow(/topk: k must be a number, got 1n$/);
    expect(() => tc.topk(x, '1')).toThrow(/got "1"$/);
    expect(() => tc.expandDims(x, 5)).toThrow(/expandDims: axis 5 is out of range/);
    expect(() => tc.expandDims(x, [0, 5])).toThrow(/expandDims: axes\[1\] 5 is out of range/);
    expect(() => tc.expandDims(x)).toThrow(/^expandDims: axis must be an integer axis, got undefined$/); // no axis: NumPy's expand_dims needs one (until 0.9.28 "axes[0]")
  });
  it('an element-wise call refuses its operands and options before out\'s dtype, which it checks where it runs (until 0.9.29 out came before fill and shaping)', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    const out = new Int32Array(6);
    expect(() => tc.add(x, { data: new Int32Array(6), shape: [2, 3] }, { out })).toThrow(/add: operands have different dtypes/);
    expect(() => tc.add(x, x, { out, fill: 'x' })).toThrow(/add: options\.fill must be a number/);
    const n = { data: f32(1, 2, 3), shape: [3], dims: ['a'] };
    expect(() => tc.add(n, n, { out: new Int32Array(3), shaping: 'outer' })).toThrow(/add: shaping must be 'exact', 'intersection' or 'union'/);
    expect(() => tc.add(n, n, { out: new Int32Array(3) })).toThrow(/add: out: an int32 array cannot hold a float32 result$/);
    expect(() => tc.add(x, 1, { out })).toThrow(/add: out: an int32 array cannot hold a float32 result$/);
    // The module stays usable.
    expect(Array.from(tc.add(n, n).data)).toEqual([2, 4, 6]);
  });
  it('an out of the wrong dtype gives dims [out\'s dtype, the result\'s] in the element-wise calls as in the unary ones (until 0.9.27 null there)', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    const named = { data: f32(1, 2), dims: ['x'], shape: [2] };
    const cases = [
      [() => tc.add(x, x, { out: new Int32Array(6) }), ['int32', 'float32']],
      [() => tc.equal(x, x, { out: new Float32Array(6) }), ['float32', 'uint8']],
      [() => tc.add(named, named, { out: new Int32Array(2) }), ['int32', 'float32']],
      [() => tc.neg(x, { out: new Int32Array(6) }), ['int32', 'float32']],
      [() => tc.where({ data: new Uint8Array(6), shape: [2, 3] }, x, x, { out: new Int32Array(6) }), ['int32', 'float32']],
    ];
    for (const [f, dims] of cases) expect(f).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH', dims }));
  });
  it('dtype given as a constructor names the string to pass', () => {
    expect(() => tc.sum({ data: f32(1) }, { dtype: Float64Array })).toThrow(/dtype is a name: pass 'float64', not the Float64Array constructor/);
    expect(() => tc.unbroadcast({ data: f32(1, 2), shape: [2] }, [1], { dtype: Int32Array })).toThrow(/pass 'int32'/);
    expect(() => tc.sum({ data: f32(1) }, { dtype: 7 })).toThrow(/dtype must be one of .*, got 7/);
  });
  it('named where() refuses without quoting an expression its caller never wrote', () => {
    // Named where() runs as the expression "where(c, a, b)"; until 0.9.27 its refusals quoted that
    // text with an offset and carets.
    const c = { data: Uint8Array.of(1, 0), dims: ['x'], shape: [2] };
    const a = { data: Float32Array.of(1, 2), dims: ['x'], shape: [2] };
    const b = { data: Int32Array.of(1, 2), dims: ['x'], shape: [2] };
    const err = (f) => { try { f(); } catch (e) { return e; } return null; };
    const mixed = err(() => tc.where(c, a, b));
    expect(mixed.code).toBe('DTYPE_MISMATCH');
    expect(mixed.dims).toEqual(['float32', 'int32']);
    expect(mixed.message).toMatch(/^where mixes float32 and int32: .*cast\(\.\.\., 'float64'\)/);
    const clash = err(() => tc.where(c, a, { data: Float32Array.of(1, 2, 3), dims: ['x'], shape: [3] }));
    expect(clash.code).toBe('INCOMPATIBLE_DIMS');
    expect(clash.message).toMatch(/^where: cannot broadcast named dims \(x: 2\) with \(x: 3\)/);
    for (const e of [mixed, clash]) expect(e.message).not.toMatch(/where\(c, a, b\)|offset|\^/);
    // evaluate() of the same text still quotes it: the caller wrote it.
    expect(err(() => tc.evaluate('where(c, a, b)', { c, a, b })).message).toMatch(/^evaluate: "where\(c, a, b\)" \(offset 0\) mixes/);
  });
  it('a tensor of another tensorcast instance is refused by name, as an operand and as out', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-other-'));
    cpSync(fileURLToPath(new URL('../../dist', import.meta.url)), dir, { recursive: true });
    const other = await import(pathToFileURL(path.join(dir, 'node.js')).href);
    await other.init();
    const foreign = other.tensor(f32(1, 2, 3), [3]);
    const mine = tc.tensor(f32(1, 2, 3), [3]);
    expect(() => tc.add(mine, foreign)).toThrow(/add: b is a Tensor of another tensorcast instance/);
    expect(() => tc.sum(foreign)).toThrow(/sum: x is a Tensor of another tensorcast instance/);
    expect(() => tc.add(mine, mine, { out: foreign })).toThrow(/add: out is a Tensor of another tensorcast instance/);
    expect(() => tc.broadcastTo(foreign, [2, 3])).toThrow(TypeError);
    // The way out it names works for tensor() too (until 0.9.27 it said to pass
    // { data: t.toArray(), shape: t.shape }, which tensor() refuses).
    expect(() => tc.tensor(foreign)).toThrow(/tensor\(data\) is a Tensor of another tensorcast instance.*copy it out: t\.toArray\(\) and t\.shape/);
    const copied = tc.tensor(foreign.toArray(), foreign.shape);
    expect(Array.from(tc.add(copied, mine).toArray())).toEqual([2, 4, 6]);
    copied.dispose();
    // Its own instance still reads it.
    expect(Array.from(other.add(foreign, foreign).toArray())).toEqual([2, 4, 6]);
    foreign.dispose();
    mine.dispose();
  });
});

describe('a dtype refusal suggests the cast that keeps every value', () => {
  // NumPy 1.24.2's np.result_type(a, b) over tensorcast's dtypes (uint8clamped read as uint8,
  // bigint64/biguint64 as int64/uint64), row by row in DTYPES order: what the suggestion casts to.
  const DTYPES = ['float16', 'float32', 'float64', 'int8', 'uint8', 'uint8clamped', 'int16', 'uint16', 'int32', 'uint32', 'bigint64', 'biguint64'];
  const NUMPY = `
    float16 float32 float64 float16 float16 float16 float32 float32 float64 float64 float64 float64
    float32 float32 float64 float32 float32 float32 float32 float32 float64 float64 float64 float64
    float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 float64 float64
    float16 float32 float64 int8 int16 int16 int16 int32 int32 bigint64 bigint64 float64
    float16 float32 float64 int16 uint8 uint8 int16 uint16 int32 uint32 bigint64 biguint64
    float16 float32 float64 int16 uint8 uint8 int16 uint16 int32 uint32 bigint64 biguint64
    float32 float32 float64 int16 int16 int16 int16 int32 int32 bigint64 bigint64 float64
    float32 float32 float64 int32 uint16 uint16 int32 uint16 int32 uint32 bigint64 biguint64
    float64 float64 float64 int32 int32 int32 int32 int32 int32 bigint64 bigint64 float64
    float64 float64 float64 bigint64 uint32 uint32 bigint64 uint32 bigint64 uint32 bigint64 biguint64
    float64 float64 float64 bigint64 bigint64 bigint64 bigint64 bigint64 bigint64 bigint64 bigint64 float64
    float64 float64 float64 float64 biguint64 biguint64 float64 biguint64 float64 biguint64 float64 biguint64`
    .trim().split('\n').map((r) => r.trim().split(/\s+/));

  it("is NumPy's result type for every pair of distinct dtypes", () => {
    DTYPES.forEach((a, i) => DTYPES.forEach((b, j) => {
      if (a === b) return;
      const want = (a === 'uint8clamped' && b === 'uint8') || (a === 'uint8' && b === 'uint8clamped') ? 'uint8' : NUMPY[i][j];
      expect(commonDtype(a, b), `${a} with ${b}`).toBe(want);
    }));
  });

  it('an image minus a float mean: cast the pixels to float32, never the mean to uint8clamped', () => {
    // Issue 37 #14: the refusal suggested cast(..., 'uint8clamped'), which makes 0.485 zero.
    const img = { data: Uint8ClampedArray.of(0, 128, 255, 64), shape: [4] };
    const mean = { data: f32(0.485), shape: [1] };
    for (const call of [() => tc.sub(img, mean), () => tc.evaluate('x - m', { x: img, m: mean }), () => tc.where({ data: Uint8Array.of(1, 0, 1, 0) }, img, { data: f32(0.5, 0.5, 0.5, 0.5) })]) {
      let e;
      try { call(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(tc.BroadcastError);
      expect(e.code).toBe('DTYPE_MISMATCH');
      expect(e.message).toMatch(/cast the uint8clamped one to float32 \(cast\((x|\.\.\.), 'float32'\)\)/);
      expect(e.message).not.toMatch(/'uint8clamped'\)/);
    }
    // And the suggestion works: the cast pixels minus the mean.
    expect(Array.from(tc.sub(tc.cast(img, 'float32'), mean).data)).toEqual(Array.from(f32(0 - 0.485, 128 - 0.485, 255 - 0.485, 64 - 0.485)));
    // Neither dtype holds both: cast both; past 2^53 float64 only comes nearest, and says so.
    expect(() => tc.add({ data: new Int32Array(2) }, { data: f32(0.5, 1) })).toThrow(/cast both to float64/);
    expect(() => tc.add({ data: new BigInt64Array(1) }, { data: new BigUint64Array(1) })).toThrow(/cast both to float64 .*rounds integers past 2\^53/);
    expect(() => tc.evaluate('a + b', { a: { data: new Int8Array(1) }, b: { data: new Uint8Array(1) } })).toThrow(/cast both to int16 \(cast\(\.\.\., 'int16'\)\)/);
  });
});

describe('named refusals name the dim, in expressions and where as in the element-wise ops', () => {
  const x = { data: new Float32Array(6), shape: [2, 3], dims: ['b', 'in'] };
  const w = { data: new Float32Array(8), shape: [4, 2], dims: ['in', 'out'] };
  const thrown = (f) => { try { f(); } catch (e) { return e; } throw new Error('did not throw'); };

  it('evaluate over named operands: dim "in" has 3 vs 4, the named shapes, as mul says it', () => {
    // Issue 37 #15: the expression said "axis 1 has 3 vs 4" with positional shapes.
    const op = thrown(() => tc.mul(x, w));
    const e = thrown(() => tc.evaluate('x * w + 1', { x, w }));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.message).toMatch(/^evaluate: "x \* w" \(offset 0\): cannot broadcast named dims \(b: 2, in: 3\) with \(in: 4, out: 2\): dim "in" \(axis 1\) has 3 vs 4/);
    expect(e.message).toContain(op.message);
    expect([e.code, e.axis, e.dims]).toEqual([op.code, op.axis, op.dims]);
    // Deeper in the tree: the node's own operands (an intermediate result's dims included).
    const y = { data: new Float32Array(5), shape: [5], dims: ['out'] };
    const d = thrown(() => tc.evaluate('x * w2 + y', { x, w2: { data: new Float32Array(6), shape: [3, 2], dims: ['in', 'out'] }, y }));
    expect(d.message).toMatch(/"x \* w2 \+ y" \(offset 0\): cannot broadcast named dims \(b: 2, in: 3, out: 2\) with \(out: 5\): dim "out" \(axis 2\) has 2 vs 5/);
    // explain() says the same.
    const plan = tc.explain({ expression: 'x * w', shapes: { x: { dims: ['b', 'in'], shape: [2, 3] }, w: { dims: ['in', 'out'], shape: [4, 2] } } });
    expect(plan.error.message).toMatch(/dim "in" \(axis 1\) has 3 vs 4/);
    // Positional operands keep the positional message.
    expect(thrown(() => tc.evaluate('a * b', { a: { data: new Float32Array(3) }, b: { data: new Float32Array(4) } })).message).toMatch(/axis 0 has 3 vs 4/);
  });

  it('options.broadcast with named operands is refused by the binary ops and explain as evaluate refuses it (until 0.9.23 ignored, even an invalid one)', () => {
    const a = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['b', 'in'] };
    const v = { data: f32(10, 20, 30), shape: [3], dims: ['in'] };
    const said = (fn) => `${fn}: options.broadcast applies to positional operands; named operands align by name (options.shaping)`;
    const shapes = { a: { dims: ['b', 'in'], shape: [2, 3] }, v: { dims: ['in'], shape: [3] } };
    for (const broadcast of [{ type: 'numpy' }, { type: 'pdpd', axis: 1 }, { type: 'valueOf' }, { axis: 1.5 }]) {
      expect(thrown(() => tc.evaluate('a + v', { a, v }, { broadcast }))).toEqual(new TypeError(said('evaluate')));
      expect(thrown(() => tc.add(a, v, { broadcast }))).toEqual(new TypeError(said('add')));
      expect(thrown(() => tc.less(a, 2, { broadcast }))).toEqual(new TypeError(said('less'))); // a scalar joins a named operand
      const plan = tc.explain({ expression: 'a + v', shapes, broadcast });
      expect([plan.ok, plan.error.name, plan.error.message]).toEqual([false, 'TypeError', said('explain')]);
      expect(tc.compile('a + v').explain(shapes, { broadcast }).error.message).toBe(said('explain'));
    }
    // explain reads options.broadcast as evaluate does: its keys are checked.
    expect(tc.explain({ expression: 'a + v', shapes: { a: [2, 3], v: [3] }, broadcast: { tpye: 'none' } }).error.message).toMatch(/explain: options.broadcast: unknown option "tpye"/);
    expect(thrown(() => tc.evaluate('a + v', { a: { data: a.data, shape: [2, 3] }, v: { data: v.data } }, { broadcast: { tpye: 'none' } })).message).toMatch(/evaluate: options.broadcast: unknown option "tpye"/);
    // No type or axis: by name, as without the option; positional operands still take it.
    expect(Array.from(tc.add(a, v, { broadcast: {} }).data)).toEqual([11, 22, 33, 14, 25, 36]);
    expect(tc.explain({ expression: 'a + v', shapes, broadcast: {} }).ok).toBe(true);
    expect(tc.add({ data: a.data, shape: [2, 3] }, { data: f32(1, 2), shape: [2] }, { broadcast: { type: 'pdpd', axis: 0 } }).shape).toEqual([2, 3]);
    expect(tc.explain({ expression: 'a + v', shapes: { a: [2, 3], v: [2] }, broadcast: { type: 'pdpd', axis: 0 } }).shape).toEqual([2, 3]);
  });

  it('where(cond, a, b) aligns named operands by name (it read them by position), and names the clash', () => {
    const c = { data: Uint8Array.of(1, 0, 1), shape: [3], dims: ['in'] };
    const a = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['b', 'in'] };
    const b = { data: f32(7, 8), shape: [2], dims: ['b'] };
    const r = tc.where(c, a, b);
    const ref = tc.evaluate('where(c, a, b)', { c, a, b });
    expect(r.dims).toEqual(['in', 'b']);
    expect(r.shape).toEqual([3, 2]);
    // in 0: a; in 1: b; in 2: a — over b = 0, 1.
    expect(Array.from(r.data)).toEqual([1, 4, 7, 8, 3, 6]);
    expect(Array.from(r.data)).toEqual(Array.from(ref.data));
    expect(Array.from(tc.where(c, a, 0).data)).toEqual([1, 4, 0, 0, 3, 6]);
    const e = thrown(() => tc.where({ data: Uint8Array.of(1, 0, 1, 1), shape: [4], dims: ['in'] }, a, b));
    expect(e.message).toMatch(/dim "in" \(axis 0\) has 4 vs 3/);
    expect(thrown(() => tc.where(c, { data: f32(1, 2, 3) }, b)).message).toMatch(/where: "a" has no dims while other operands do/);
    // A resident named operand and a resident out.
    const t = tc.tensor(f32(1, 2, 3, 4, 5, 6), [2, 3], { dims: ['b', 'in'] });
    const rt = tc.where(c, t, b);
    expect(rt.dims).toEqual(['in', 'b']);
    expect(Array.from(rt.toArray())).toEqual([1, 4, 7, 8, 3, 6]);
    rt.dispose();
    t.dispose();
  });
});

describe('an axis or k of a wrong type is a TypeError, as every argument of a wrong type (until 0.9.23 INVALID_AXIS)', () => {
  const x = { data: f32(1, 5, 2, 7, 3, 0), shape: [2, 3] };
  const n = { ...x, dims: ['r', 'c'] };
  const kind = (f) => {
    try {
      f();
    } catch (e) {
      return [e.name, e.code ?? null, e.message];
    }
    return null;
  };
  it('booleans, bigints and objects as an axis; a string or bigint as topk\'s k', () => {
    for (const [f, msg] of [
      [() => tc.flip(x, true), 'flip: axis must be an integer axis, got true'],
      [() => tc.squeeze(x, [0n]), 'squeeze: axes[0] must be an integer axis, got 0n'],
      [() => tc.argmax(x, true), 'argmax: an axis is an integer, got true'],
      [() => tc.softmax(n, 1n), 'softmax: an axis is an integer or a dim name, got 1n'],
      [() => tc.logSumExp(x, Int32Array.of(1)), 'logSumExp: an axis is an integer, got an object'],
      [() => tc.topk(x, '2'), 'topk: k must be a number, got "2"'],
    ]) expect(kind(f)).toEqual(['TypeError', null, msg]);
  });
  it('a number that is no axis, or a name that is none, stays INVALID_AXIS; a name without dims says so', () => {
    expect(kind(() => tc.flip(x, 1.5))?.[1]).toBe('INVALID_AXIS');
    expect(kind(() => tc.topk(x, 1.5))?.[1]).toBe('INVALID_AXIS');
    expect(kind(() => tc.argmax(n, 'z'))?.[1]).toBe('INVALID_AXIS');
    expect(kind(() => tc.transpose(x, ['1', 0]))).toEqual(['BroadcastError', 'INVALID_AXIS', 'transpose: axes[0]: "1" is a dim name, and there are no dims']);
    expect(kind(() => tc.flip(n, 'z'))?.[2]).toBe('flip: axis: no dim "z" among [r, c]');
  });
});

describe('refusals name what the caller passed (until 0.9.28 they did not)', () => {
  beforeAll(() => tc.init());
  it('a disposed tensor is named as the call names the operand', () => {
    const t = tc.tensor(new Float32Array(6), [2, 3]);
    const u = tc.tensor(new Float32Array(6), [2, 3]);
    t.dispose();
    const msg = (f) => { try { f(); } catch (e) { return `${e.name}: ${e.message}`; } return 'no error'; };
    expect(msg(() => tc.add(u, t))).toBe('TypeError: add: b has been disposed');
    expect(msg(() => tc.add(u, u, { out: t }))).toBe('TypeError: add: out has been disposed');
    expect(msg(() => tc.sum(t))).toBe('TypeError: sum: x has been disposed');
    expect(msg(() => tc.evaluate('a + 1', { a: t }))).toBe('TypeError: evaluate: a has been disposed');
    expect(msg(() => tc.transpose(t))).toBe('TypeError: transpose: x has been disposed');
    expect(tc.add(u, u).shape).toEqual([2, 3]); // the module goes on
    u.dispose();
  });
  it('expandDims without an axis says axis; tensor and reshape name their options; a coordinate count is a length', () => {
    const x = { data: new Float32Array(6), shape: [2, 3] };
    expect(() => tc.expandDims(x)).toThrow(/^expandDims: axis must be an integer axis, got undefined$/);
    expect(() => tc.tensor(new Float32Array(6), [2, 3], { dims: ['a'] })).toThrow(/^tensor: options has 1 dim names but shape \(2,3\)$/);
    const t = tc.tensor(new Float32Array(6), [2, 3]);
    expect(() => tc.reshape(t, [3, 2], { dims: ['a', 'b'], coords: 5 })).toThrow(/^reshape: options\.coords must be an object/);
    expect(() => tc.reshape(t, [3, 2], { dims: ['a', 'b'], coords: { b: ['p', 'p'] } })).toThrow(/^reshape: options has the coordinate "p" twice in dim "b"/);
    expect(() => tc.tensor(new Float32Array(2), [2], { dims: ['a'], coords: { a: ['p', 'p'] } })).toThrow(/^tensor: options has the coordinate "p" twice in dim "a"/);
    t.dispose();
    expect(() => tc.namedBroadcastShape({ dims: ['a'], shape: [2], coords: { a: ['p'] } }, { dims: ['b'], shape: [1] }))
      .toThrow(/^namedBroadcastShape: left dim "a" has size 2 but coordinates of length 1$/);
  });
  it('a label given twice has the operand\'s axis on every path; a slice bound of a wrong type is a TypeError (until 0.9.28 axis null from add and namedBroadcastShape, INVALID_SHAPE for [1n])', () => {
    const a = { data: new Float32Array(6), shape: [2, 3], dims: ['x', 'y'], coords: { y: ['p', 'q', 'p'] } };
    const b = { data: new Float32Array(3), shape: [3], dims: ['y'], coords: { y: ['p', 'q', 'r'] } };
    const dup = { code: 'INVALID_SHAPE', axis: 1 };
    expect(() => tc.add(a, b)).toThrow(expect.objectContaining(dup));
    expect(() => tc.add(b, a)).toThrow(expect.objectContaining(dup));
    expect(() => tc.namedBroadcastShape({ dims: a.dims, shape: a.shape, coords: a.coords }, { dims: ['y'], shape: [3] })).toThrow(expect.objectContaining(dup));
    expect(() => tc.evaluate('a + b', { a, b })).toThrow(expect.objectContaining(dup));
    const x = { data: new Float32Array(6), shape: [2, 3] };
    for (const e of [1n, '1', true]) expect(() => tc.slice(x, [e]), String(e)).toThrow(TypeError);
    expect(() => tc.slice(x, [1.5])).toThrow(expect.objectContaining({ name: 'BroadcastError', code: 'INVALID_SHAPE', axis: 0 }));
  });
});

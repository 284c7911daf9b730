// The fused-expression API: evaluate(), compile(), explain({ expression, shapes }).
// Every value is checked against the op-by-op composition of the library's own
// functions (or a plain JS computation), bit for bit; every refusal by its class,
// code and position; and after every refusal the engine holds what it held before.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const f32 = (...v) => Float32Array.from(v);
const T = (data, shape) => ({ data, shape });
const bits = (r) => Array.from(r instanceof tc.Tensor ? r.toArray() : r.data);
/** Bit-for-bit equality of two results (Object.is per element), with shape and dtype. */
function same(a, b) {
  expect(a.dtype).toBe(b.dtype);
  expect(a.shape).toEqual(b.shape);
  const x = bits(a);
  const y = bits(b);
  expect(x.length).toBe(y.length);
  x.forEach((v, i) => expect(Object.is(v, y[i]), `element ${i}: ${v} vs ${y[i]}`).toBe(true));
}
const dispose = (...ts) => { for (const t of ts) if (t instanceof tc.Tensor && !t.disposed) t.dispose(); };

// Every test leaves the engine as it found it: no tensor and no byte held.
let base;
beforeAll(() => { base = tc.memory(); });
afterEach(() => {
  const m = tc.memory();
  const was = base;
  base = m; // each test answers for its own leaks only
  expect(m.liveTensors, 'live tensors').toBe(was.liveTensors);
  expect(m.allocatedBytes, 'allocated bytes').toBe(was.allocatedBytes);
  // And the module still computes.
  expect(Array.from(tc.evaluate('a * 2 + b', { a: T(f32(1, 2), [2]), b: 1 }).data)).toEqual([3, 5]);
});

const X = () => T(f32(1, 2, 3, 4, 5, 6), [2, 3]);
const M = () => T(f32(0.5, 1, 1.5), [3]);
const S = () => T(f32(2, 4), [2, 1]);

describe('operand forms', () => {
  it('{ data, shape }: the op-by-op result, as { data, shape, dtype }', () => {
    const r = tc.evaluate('(x - m) / s', { x: X(), m: M(), s: S() });
    expect(r).toEqual({ data: f32(0.25, 0.5, 0.75, 0.875, 1, 1.125), shape: [2, 3], dtype: 'float32' });
    same(r, tc.div(tc.sub(X(), M()), S()));
    expect(r instanceof tc.Tensor).toBe(false);
  });

  it('a resident operand gives a resident Tensor result', () => {
    const x = tc.tensor(f32(1, 2, 3, 4, 5, 6), [2, 3]);
    const r = tc.evaluate('x * x + m', { x, m: M() });
    expect(r).toBeInstanceOf(tc.Tensor);
    expect(r.shape).toEqual([2, 3]);
    expect(Array.from(r.toArray())).toEqual([1.5, 5, 10.5, 16.5, 26, 37.5]);
    dispose(r, x);
  });

  it('numbers take the dtype they meet, stored as a typed array stores them; bigints for 64-bit integers', () => {
    same(tc.evaluate('x * 2.5', { x: T(Int32Array.of(7, -3), [2]) }), tc.mul(T(Int32Array.of(7, -3), [2]), 2.5));
    expect(Array.from(tc.evaluate('x * 2.5', { x: T(Int32Array.of(7, -3), [2]) }).data)).toEqual([14, -6]);
    expect(Array.from(tc.evaluate('x + k', { x: T(f32(1, 2), [2]), k: 0.25 }).data)).toEqual([1.25, 2.25]);
    const big = T(BigInt64Array.of(2n ** 62n, -5n), [2]);
    expect(Array.from(tc.evaluate('x + k', { x: big, k: 3n }).data)).toEqual([2n ** 62n + 3n, -2n]);
    expect(Array.from(tc.evaluate('x * 3', { x: big }).data)).toEqual(Array.from(tc.mul(big, 3).data));
    // A constant subexpression takes the dtype too: 2 * 3 in int8 arithmetic, then the add.
    same(tc.evaluate('x + 2 * 3', { x: T(Int8Array.of(120, 1), [2]) }), tc.add(T(Int8Array.of(120, 1), [2]), 6));
  });

  it('named operands align by name; dims and coords come out on the result', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['batch', 'in'], coords: { in: ['p', 'q', 'r'] } };
    const w = { data: f32(1, 2, 3, 4, 5, 6), shape: [3, 2], dims: ['in', 'out'], coords: { in: ['p', 'q', 'r'] } };
    const r = tc.evaluate('x * w', { x, w });
    expect(r.dims).toEqual(['batch', 'in', 'out']);
    expect(r.coords).toEqual({ in: ['p', 'q', 'r'] });
    same(r, tc.mul(x, w));
    const t = tc.tensor(f32(1, 2, 3), [3], { dims: ['k'], coords: { k: ['a', 'b', 'c'] } });
    const rt = tc.evaluate('t * 2', { t });
    expect(rt).toBeInstanceOf(tc.Tensor);
    expect(rt.dims).toEqual(['k']);
    expect(rt.coords).toEqual({ k: ['a', 'b', 'c'] });
    dispose(rt, t);
  });

  it('names that are Object.prototype members are plain names, read as own properties only', () => {
    const v = T(f32(1, 2), [2]);
    const ops = {};
    for (const n of ['__proto__', 'constructor', 'valueOf', 'hasOwnProperty', 'toString']) Object.defineProperty(ops, n, { value: v, enumerable: true });
    const r = tc.evaluate('__proto__ + constructor * valueOf - hasOwnProperty + toString', ops);
    expect(Array.from(r.data)).toEqual([2, 6]);
    expect(tc.compile('__proto__ + constructor').inputs).toEqual(['__proto__', 'constructor']);
    // Inherited members are not operands.
    expect(() => tc.evaluate('constructor * 2', {})).toThrow(/operands has no own property "constructor"/);
    expect(() => tc.evaluate('valueOf + x', { x: v })).toThrow(TypeError);
    expect(() => tc.evaluate('__proto__ + x', { x: v })).toThrow(/no own property "__proto__"/);
    expect(() => tc.evaluate('x', Object.create({ x: v }))).toThrow(/no own property "x"/);
  });
});

describe('out', () => {
  it('a typed array: the result is written into it', () => {
    const out = new Float32Array(6);
    const r = tc.evaluate('x + m', { x: X(), m: M() }, { out });
    expect(Array.from(out)).toEqual([1.5, 3, 4.5, 4.5, 6, 7.5]);
    expect(r.data).toBe(out);
    expect(() => tc.evaluate('x + m', { x: X(), m: M() }, { out: new Int32Array(6) })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
    // A comparison's result is uint8.
    expect(() => tc.evaluate('x < m', { x: X(), m: M() }, { out: new Float32Array(6) })).toThrow(/uint8/);
  });

  it('a resident tensor, in place where every operand reads the cell it writes', () => {
    const p = tc.tensor(f32(1, 2, 3, 4), [2, 2]);
    const r = tc.evaluate('p * 2 + 1', { p }, { out: p });
    expect(r).toBe(p);
    expect(Array.from(p.toArray())).toEqual([3, 5, 7, 9]);
    dispose(p);
  });

  it('in place where an operand is out read reordered (named dims in another order): made apart, then written, as the ops do (until 0.9.15 refused)', () => {
    // A named out is written after the result's names are checked against its own: the result
    // is made apart, so an operand that is out read in another order is read whole first.
    const t = tc.tensor(f32(1, 2, 3, 4), [2, 2], { dims: ['a', 'b'] });
    const tr = t.reshape([2, 2], { dims: ['b', 'a'] });
    const o = tc.tensor(new Float32Array(4), [2, 2], { dims: ['a', 'b'] });
    tc.evaluate('y + x', { y: t, x: tr }, { out: o });
    expect(Array.from(o.toArray())).toEqual([2, 5, 5, 8]);
    expect(tc.evaluate('y + x', { y: t, x: tr }, { out: t })).toBe(t);
    expect(Array.from(t.toArray())).toEqual([2, 5, 5, 8]);
    const u = tc.tensor(f32(1, 2, 3, 4), [2, 2], { dims: ['a', 'b'] });
    const ur = u.reshape([2, 2], { dims: ['b', 'a'] });
    tc.add(u, ur, { out: u });
    expect(Array.from(u.toArray())).toEqual([2, 5, 5, 8]);
    dispose(o, tr, t, ur, u);
  });
});

describe('options', () => {
  it('broadcast pdpd and none give what the op by op gives, refusals included', () => {
    const x = T(f32(1, 2, 3, 4, 5, 6), [2, 3]);
    const y = T(f32(10, 20), [2]);
    const pdpd = { broadcast: { type: 'pdpd', axis: 0 } };
    same(tc.evaluate('x + y', { x, y }, pdpd), tc.add(x, y, pdpd));
    same(tc.evaluate('x * y - x', { x, y }, pdpd), tc.sub(tc.mul(x, y, pdpd), x, pdpd));
    const none = { broadcast: { type: 'none' } };
    same(tc.evaluate('x + x', { x }, none), tc.add(x, x, none));
    const e1 = (() => { try { tc.add(x, y, none); } catch (e) { return e; } })();
    expect(() => tc.evaluate('x + y', { x, y }, none)).toThrow(expect.objectContaining({ code: e1.code }));
    expect(e1.code).toBe('SHAPE_MISMATCH');
  });

  it('where() plans with numpy whatever the broadcast option', () => {
    const c = T(Uint8Array.of(1, 0, 1), [3]);
    const a = T(f32(1, 2, 3, 4, 5, 6), [2, 3]);
    const b = T(f32(9), [1]);
    same(tc.evaluate('where(c, a, b)', { c, a, b }, { broadcast: { type: 'none' } }), tc.where(c, a, b));
  });

  it('keepdims keeps the reduced axes as 1', () => {
    const r = tc.evaluate('sum(x * 2, [1])', { x: X() }, { keepdims: true });
    expect(r.shape).toEqual([2, 1]);
    same(r, tc.sum(tc.mul(X(), 2), { axes: [1], keepdims: true }));
    expect(() => tc.evaluate('x', { x: X() }, { keepdims: 1 })).toThrow(TypeError);
    expect(() => tc.evaluate('x', { x: X() }, { nope: 1 })).toThrow(TypeError);
  });
});

describe('reductions', () => {
  it('by axis: sum, prod, min, max, mean, negative axes, all axes', () => {
    const x = T(f32(1, -2, 3, 4, 5, -6, 0.5, 8, 9, 10, 11, 12), [2, 2, 3]);
    const m = T(f32(0.25, 2, -1), [3]);
    const e = tc.mul(tc.add(x, m), x);
    for (const op of ['sum', 'prod', 'min', 'max', 'mean']) {
      same(tc.evaluate(`${op}((x + m) * x, [0, 2])`, { x, m }), tc[op](e, { axes: [0, 2] }));
      same(tc.evaluate(`${op}((x + m) * x, [-1])`, { x, m }), tc[op](e, { axes: [-1] }));
      same(tc.evaluate(`${op}((x + m) * x)`, { x, m }), tc[op](e));
    }
    // Integer sums take the reduction's own result dtype.
    const i = T(Int8Array.of(100, 100, 100), [3]);
    same(tc.evaluate('sum(i + 1)', { i }), tc.sum(tc.add(i, 1)));
    same(tc.evaluate('mean(i)', { i }), tc.mean(i));
  });

  it('float sums over many elements (several chunks) are bit-identical to mul then sum', () => {
    const n = 300;
    const k = 700;
    let s = 7;
    const rnd = () => { s = (s * 16807) % 2147483647; return s / 2147483647 - 0.5; };
    const x = T(Float32Array.from({ length: n * k }, rnd), [n, k]);
    const w = T(Float32Array.from({ length: k }, rnd), [k]);
    for (const axes of [null, [0], [1]]) {
      const o = axes ? { axes } : {};
      same(tc.evaluate(`sum(x * w${axes ? `, [${axes}]` : ''})`, { x, w }), tc.sum(tc.mul(x, w), o));
      same(tc.evaluate(`mean(x - w${axes ? `, [${axes}]` : ''})`, { x, w }), tc.mean(tc.sub(x, w), o));
    }
  });

  it("by name: sum(x * w, ['in']) is the contraction sum(mul(x, w), { dims: ['in'] })", () => {
    const x = { data: Float32Array.from({ length: 12 }, (_, i) => i * 0.5 - 2), shape: [3, 4], dims: ['batch', 'in'] };
    const w = { data: Float32Array.from({ length: 8 }, (_, i) => 1 / (i + 1)), shape: [4, 2], dims: ['in', 'out'] };
    const r = tc.evaluate("sum(x * w, ['in'])", { x, w });
    const ref = tc.sum(tc.mul(x, w), { dims: ['in'] });
    expect(r.dims).toEqual(['batch', 'out']);
    same(r, ref);
    expect(r.dims).toEqual(ref.dims);
    expect(() => tc.evaluate("sum(x * w, ['nope'])", { x, w })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    expect(() => tc.evaluate("sum(x * 2, ['in'])", { x: T(f32(1, 2), [2]) })).toThrow(/no dim names/);
  });

  it('keepdims keeps a reduced dim by name, as the reductions do, so the result broadcasts back by name', () => {
    // Issue 37 #3: the kept axis had its size 1 but lost its name, so mul(s, s) read it as [25].
    const x = { data: Float32Array.from({ length: 15 }, (_, i) => i + 1), shape: [3, 5], dims: ['a', 'b'], coords: { a: ['u', 'v', 'w'], b: ['p', 'q', 'r', 's', 't'] } };
    for (const [text, opts] of [["sum(x, ['b'])", { dims: ['b'] }], ["sum(x * 1, ['a'])", { dims: ['a'] }], ['sum(x, [0])', { axes: [0] }], ['max(x, [-1])', { axes: [-1] }]]) {
      const op = text.startsWith('max') ? tc.max : tc.sum;
      const ref = op(x, { ...opts, keepdims: true });
      const r = tc.evaluate(text, { x }, { keepdims: true });
      same(r, ref);
      expect(r.dims, text).toEqual(ref.dims);
      expect(r.coords, text).toEqual(ref.coords);
      const plan = tc.explain({ expression: text, shapes: { x: { dims: ['a', 'b'], shape: [3, 5] } }, keepdims: true });
      expect(plan.dims, text).toEqual(['a', 'b']);
      // Without keepdims the reduced dim goes.
      expect(tc.evaluate(text, { x }).dims, text).toEqual(op(x, opts).dims);
    }
    const s = tc.evaluate("sum(x, ['b'])", { x: { data: f32(1, 2, 3, 4, 5, 6, 7, 8, 9), shape: [3, 3], dims: ['a', 'b'] } }, { keepdims: true });
    const sq = tc.mul(s, s);
    expect(sq.shape).toEqual([3, 1]);
    expect(Array.from(sq.data)).toEqual([36, 225, 576]);
  });

  it('contractions by name over hundreds of elements: every reduction, float32 and float64, bit-identical to mul then reduce', () => {
    let s = 11;
    const rnd = () => { s = (s * 16807) % 2147483647; return s / 2147483647 - 0.5; };
    for (const [b, n, o] of [[8, 300, 40], [3, 1000, 7]]) {
      for (const C of [Float32Array, Float64Array]) {
        const x = { data: C.from({ length: b * n }, rnd), shape: [b, n], dims: ['batch', 'in'] };
        const w = { data: C.from({ length: n * o }, rnd), shape: [n, o], dims: ['in', 'out'] };
        const e = tc.mul(x, w);
        for (const op of ['sum', 'mean', 'prod', 'min', 'max']) same(tc.evaluate(`${op}(x * w, ['in'])`, { x, w }), tc[op](e, { dims: ['in'] }));
      }
    }
  });

  it('a BigInt axis in the text is INVALID_AXIS (the reductions\' axes: [1n], a value of a wrong type, is a TypeError)', () => {
    const x = X();
    for (const text of ['sum(x, 1n)', 'sum(x, -1n)', 'sum(x, [0, 1n])', 'sum(x, (1n))']) {
      expect(() => tc.evaluate(text, { x }), text).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', message: expect.stringMatching(/is not an integer axis/) }));
    }
    expect(() => tc.sum(x, { axes: [1n] })).toThrow(TypeError);
    same(tc.evaluate('sum(x, 1)', { x }), tc.sum(x, { axes: [1] }));
  });

  it('refusals: an axis out of range or repeated; min/max of no elements', () => {
    expect(() => tc.evaluate('sum(x, [2])', { x: X() })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    expect(() => tc.evaluate('sum(x, [1, -1])', { x: X() })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    // Named as written: a huge axis is not shown clamped; a fraction is no integer axis, as sum(x, { axes: 1.5 }) says.
    expect(() => tc.evaluate('sum(x, [0, 1e300])', { x: X() })).toThrow(/sum axis 1e300 \(entry 1\) is out of range/);
    expect(() => tc.evaluate('sum(x, -(0x3))', { x: X() })).toThrow(/sum axis -\(0x3\) \(entry 0\) is out of range/);
    expect(() => tc.evaluate('sum(x, 1.5)', { x: X() })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', message: expect.stringMatching(/sum axis 1.5 \(entry 0\) is not an integer axis/) }));
    expect(() => tc.sum(X(), { axes: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    // More entries than any rank has axes: refused by their count, as the op's axes option is
    // (the engine's generic INVALID_SHAPE before), at the top and in a reduction lifted out of a sum.
    const many = `[${Array(33).fill(1).join(', ')}]`;
    expect(() => tc.sum(X(), { axes: Array(33).fill(1) })).toThrow(/axes has 33 entries, but a shape has at most 32 axes/);
    for (const text of [`sum(x, ${many})`, `x + max(x, ${many}, true)`]) {
      expect(() => tc.evaluate(text, { x: X() }), text).toThrow(expect.objectContaining({
        code: 'INVALID_AXIS', message: expect.stringMatching(/^evaluate: (sum|max) axes has 33 entries, but a shape has at most 32 axes and each may be named once$/),
      }));
    }
    expect(() => tc.evaluate(`sum(x, [${Array(32).fill(1).join(', ')}])`, { x: X() })).toThrow(/sum axis 1 \(entry 1\) is out of range or repeated/);
    // axis and dims null, as the reductions' own axes refusals (§8): the entry is in the message, not in
    // error.axis (until 0.9.23 the entry's index, read as an output axis); explain's report the same.
    const axesRefusals = ['sum(x, [0, 0])', 'sum(x, [0, 1.5])', "sum(x, ['c'])", 'x + max(x, [5], true)'];
    for (const text of axesRefusals) {
      expect(() => tc.evaluate(text, { x: X() }), text).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', axis: null, dims: null }));
      expect(tc.explain({ expression: text, shapes: { x: [2, 3] } }).error, text).toMatchObject({ code: 'INVALID_AXIS', axis: null, dims: null });
    }
    // A dim name repeated is quoted as the name written, not as the axis it stands for (until 0.9.18 "axis 1")
    const named = { data: new Float32Array(6), shape: [2, 3], dims: ['b', 'c'] };
    for (const text of ["sum(x, ['c', 'c'])", "x - max(x, ['c', 'c'], true)"]) {
      expect(() => tc.evaluate(text, { x: named }), text).toThrow(/(sum|max) axis "c" \(entry 1\) is out of range or repeated/);
    }
    for (const text of ["sum(x, ['c', 'c'])", "sum(x, ['d'])"]) {
      expect(() => tc.evaluate(text, { x: named }), text).toThrow(expect.objectContaining({ code: 'INVALID_AXIS', axis: null, dims: null }));
    }
    const z = T(new Float32Array(0), [0, 3]);
    expect(() => tc.evaluate('min(x)', { x: z })).toThrow(/min of no elements has no value/);
    expect(() => tc.evaluate('max(x, [0])', { x: z })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    // Even where the result has no cells either (a kept axis of size 0), as min() refuses it.
    expect(() => tc.min(T(new Float32Array(0), [0, 0]), { axes: [1] })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    expect(() => tc.evaluate('min(x, [1])', { x: T(new Float32Array(0), [0, 0]) })).toThrow(/min over an axis of size 0/);
    expect(() => tc.evaluate('max(x * 2, [2])', { x: T(new Float32Array(0), [0, 4, 0]) })).toThrow(/max over an axis of size 0/);
    expect(() => tc.evaluate('max(x * 2, [2])', { x: T(new Float32Array(0), [3, 4, 0]) })).toThrow(/max over an axis of size 0/);
    same(tc.evaluate('sum(x, [0])', { x: z }), tc.sum(z, { axes: [0] }));
    same(tc.evaluate('prod(x)', { x: z }), tc.prod(z));
  });
});

describe('where, cast, unary ops, dtypes', () => {
  const vals = f32(-2.5, -1, -0, 0, 0.5, 1.5, 2.5, 3, 100, NaN, Infinity, -Infinity);
  const v = () => T(vals, [12]);

  it('every unary op on float32 and float64, by name and by operator', () => {
    for (const op of ['neg', 'abs', 'sign', 'sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh', 'floor', 'ceil', 'round', 'trunc', 'logicalNot', 'isNaN', 'isFinite']) {
      // The result's element 2 is that of -0 (sign(-0) is +0, as np.sign gives it).
      same(tc.evaluate(`${op}(x)`, { x: v() }), tc[op](v()));
      const d = T(Float64Array.from(vals), [12]);
      same(tc.evaluate(`${op}(x)`, { x: d }), tc[op](d));
      // Over more elements than one SIMD vector, with -0 in every lane position.
      const long = T(Float32Array.from({ length: 37 }, (_, i) => vals[i % 12]), [37]);
      same(tc.evaluate(`${op}(x)`, { x: long }), tc[op](long));
    }
    same(tc.evaluate('-x', { x: v() }), tc.neg(v()));
    same(tc.evaluate('!x', { x: v() }), tc.logicalNot(v()));
    same(tc.evaluate('+x', { x: v() }), { ...v(), dtype: 'float32' });
    const i = T(Int16Array.of(-3, 0, 7, 32767), [4]);
    same(tc.evaluate('~i', { i }), tc.bitwiseNot(i));
    same(tc.evaluate('abs(-i)', { i }), tc.abs(tc.neg(i)));
  });

  it('cast: NumPy astype (float to integer truncates), NaN and out-of-range as cast() gives them', () => {
    for (const d of tc.DTYPES) {
      same(tc.evaluate(`cast(x, '${d}')`, { x: v() }), tc.cast(v(), d));
      same(tc.evaluate(`cast(x * 2, '${d}') + cast(x, '${d}')`, { x: v() }), tc.add(tc.cast(tc.mul(v(), 2), d), tc.cast(v(), d)));
    }
    expect(Array.from(tc.evaluate("cast(x, 'int32')", { x: T(f32(-2.7, 2.7), [2]) }).data)).toEqual([-2, 2]);
  });

  it('a subexpression of numbers is computed in the dtype it meets, each number stored first (docs/expressions.md)', () => {
    const xi = T(Int32Array.of(0, 1), [2]);
    expect(Array.from(tc.evaluate('x * (2.5 + 2.5)', { x: xi }).data)).toEqual([0, 4]); // 2 + 2 in int32
    expect(Array.from(tc.evaluate('x * 5', { x: xi }).data)).toEqual([0, 5]);
    expect(Array.from(tc.evaluate('x + 1e300 / 1e300', { x: T(f32(0, 1), [2]) }).data)).toEqual([NaN, NaN]); // Infinity / Infinity in float32
    expect(Array.from(tc.evaluate('x + 18446744073709551621n', { x: xi }).data)).toEqual([0, 1]); // 2^64 + 5: its Number, stored in int32, is 0
    expect(Array.from(tc.evaluate('x + 9223372036854775808n', { x: T(Float64Array.of(0), [1]) }).data)).toEqual([2 ** 63]);
  });

  it('where and c ? a : b, with scalars and three-way broadcasting', () => {
    const c = T(Uint8Array.of(1, 0, 1), [3]);
    const a = T(f32(1, 2, 3, 4, 5, 6), [2, 3]);
    same(tc.evaluate('c ? a : 0', { c, a }), tc.where(c, a, 0));
    same(tc.evaluate('where(a > 2, a, -a)', { a }), tc.where(tc.greater(a, 2), a, tc.neg(a)));
    same(tc.evaluate('a > 2 && a < 5 ? a * 10 : a', { a }), tc.where(tc.logicalAnd(tc.greater(a, 2), tc.less(a, 5)), tc.mul(a, 10), a));
  });
  it('a condition of numbers only is a float64, as JavaScript reads it, not the branches\' dtype (until 0.9.16 0.5 over int32 branches was 0: false)', () => {
    const i = T(Int32Array.of(5, 6), [2]);
    const u = T(Uint8Array.of(1, 0), [2]);
    const f = T(f32(1, 0), [2]);
    const b = T(BigInt64Array.of(1n, 0n), [2]);
    const b2 = T(BigInt64Array.of(7n, 8n), [2]);
    expect(Array.from(tc.evaluate('0.5 ? i : 7', { i }).data)).toEqual([5, 6]);
    expect(Array.from(tc.evaluate('(0 / 0) ? i : 7', { i }).data)).toEqual([5, 6]); // NaN is true, as in where() and NumPy (docs/expressions.md)
    expect(Array.from(tc.evaluate('(u ? 0.5 : 0) ? i : 7', { u, i }).data)).toEqual([5, 7]);
    expect(Array.from(tc.evaluate('where(256, u, 7)', { u }).data)).toEqual([1, 0]); // 256 as uint8 was 0
    expect(Array.from(tc.evaluate('(f ? 0.25 : 0) ? i : -1', { f, i }).data)).toEqual([5, -1]);
    expect(Array.from(tc.compile('(f ? 0.25 : 0) ? i : -1').run({ f, i }).data)).toEqual([5, -1]);
    expect(Array.from(tc.evaluate('trunc(b ? 0.5 : 3) ? b2 : -b2', { b, b2 }).data)).toEqual([-7n, 8n]); // was a TypeError: 0.5 as bigint64
    // an integer-only op there meets float64: refused, naming the node
    expect(() => tc.evaluate('(3 & 1) ? i : 7', { i })).toThrow(/"3 & 1"/);
  });

  it('a comparison or logical op of numbers only compares doubles and gives uint8 (until 0.9.17 a condition of one was refused)', () => {
    const i = T(Int32Array.of(5, 6), [2]);
    const u = T(Uint8Array.of(1, 200), [2]);
    for (const [text, want] of [['(1 < 2) ? i : 7', [5, 6]], ['(0.5 < 0.7) ? i : 7', [5, 6]], ['(0.7 < 0.5) ? i : 7', [7, 7]],
      ['!0 ? i : 7', [5, 6]], ['!0.5 ? i : 7', [7, 7]], ['where(0.2 == 0.2 && 1, i, 7)', [5, 6]], ['isNaN(0 / 0) ? i : 7', [5, 6]]]) {
      expect(Array.from(tc.evaluate(text, { i }).data), text).toEqual(want);
    }
    // uint8, as every comparison: over uint8 it adds; over int32 it is a mix, named
    expect(Array.from(tc.evaluate('u + (0.5 < 0.7)', { u }).data)).toEqual([2, 201]);
    expect(Array.from(tc.evaluate('u * !0.5', { u }).data)).toEqual([0, 0]);
    expect(() => tc.evaluate('i + (1 < 2)', { i })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH', message: expect.stringContaining('mixes int32 and uint8') }));
  });

  it('with a BigInt or an integer-only op among the numbers, a comparison is exact, in bigint64, and gives uint8 (until 0.9.18 refused but in uint8)', () => {
    const i = T(Int32Array.of(5, 6), [2]);
    const b = T(BigInt64Array.of(1n, 2n), [2]);
    for (const [text, vars, want] of [["i + cast(1 < 2n, 'int32')", { i }, [6, 7]], ["i + cast(2n ** 60n + 1n < 2n ** 60n + 2n, 'int32')", { i }, [6, 7]],
      ["i + cast(2 ** 60 + 1 < 2n ** 60n, 'int32')", { i }, [5, 6]], ['(1n < 2) ? i : 7', { i }, [5, 6]], ['(5 & 3) < 2 ? i : 7', { i }, [5, 6]],
      ["b + cast(-1n > 0, 'bigint64')", { b }, [1n, 2n]]]) {
      expect(Array.from(tc.evaluate(text, vars).data), text).toEqual(want);
    }
    // as without a BigInt: uint8 against int32 is a mix, named at the node that mixes
    expect(() => tc.evaluate('i + (1 < 2n)', { i })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH', message: expect.stringContaining('"i + (1 < 2n)"') }));
    expect(() => tc.evaluate("cast(1.5 < 2n, 'int32') + i", { i })).toThrow(/"1.5" \(offset 5\): a number that is not an integer cannot be a bigint64 element/);
  });

  it('cast of numbers only casts a float64, as cast() casts one: truncated, saturated, NaN to 0; a BigInt is stored exactly (until 0.9.17 a number was wrapped)', () => {
    const cases = [
      ['int32', Int32Array, [-1e10, 1e10, 2.9, -2.9, NaN, 2 ** 31]],
      ['uint32', Uint32Array, [1e10, -5, 4294967295.5]],
      ['uint8', Uint8Array, [300, -1, 255.9]],
      ['int8', Int8Array, [200, -200, -0.5]],
      ['uint8clamped', Uint8ClampedArray, [2.5, 3.5, 300]],
      ['bigint64', BigInt64Array, [1e30, -1e30, 1.5, -2.5]],
      ['biguint64', BigUint64Array, [1e30, -1, 7.9]],
      ['float16', Uint16Array, [70000, 1 / 3]],
    ];
    for (const [dt, A, values] of cases) {
      const zero = dt === 'float16' ? { data: new Uint16Array(1), dtype: 'float16' } : { data: new A(1) };
      for (const v of values) {
        const want = tc.cast({ data: Float64Array.of(v) }, dt).data[0]; // cast() of the float64
        const forms = [[`z + cast(c, '${dt}')`, { z: zero, c: v }], [`cast(c * 1, '${dt}') + z`, { z: zero, c: v }]];
        if (Number.isFinite(v)) forms.push([`z + cast(${v}, '${dt}')`, { z: zero }]); // NaN has no literal
        for (const [text, ops] of forms) {
          const got = tc.evaluate(text, ops).data[0];
          expect(Object.is(got, want) || got === want, `${text} with c = ${v}: ${got} vs ${want}`).toBe(true);
        }
      }
    }
    // A BigInt alone: stored as the target stores it, exactly
    const z = { data: new BigInt64Array(1) };
    expect(tc.evaluate("z + cast(0xFFFFFFFFFFFFFFFFn, 'bigint64')", { z }).data[0]).toBe(-1n);
    expect(tc.evaluate("z + cast(c, 'bigint64')", { z, c: 2n ** 62n + 1n }).data[0]).toBe(2n ** 62n + 1n);
    // a subexpression of numbers: a double too (sqrt of numbers was typed as the cast's target: refused)
    expect(tc.evaluate("y + cast(sqrt(2) * 1e10, 'int32')", { y: { data: new Int32Array(1) } }).data[0]).toBe(2147483647);
    // with a BigInt or an integer-only op among the numbers: stored as the target stores them, exactly
    const k = 2n ** 31n + 1n;
    expect(tc.evaluate("z + cast(2n ** 60n + 1n, 'bigint64')", { z }).data[0]).toBe(2n ** 60n + 1n);
    expect(tc.evaluate("z + cast(k * k, 'bigint64')", { z, k }).data[0]).toBe(k * k);
    expect(tc.evaluate("z + cast(0xFFFFFFFFFFFFFFFFn + 0n, 'bigint64')", { z }).data[0]).toBe(-1n);
    expect(tc.evaluate("z + cast(-m, 'bigint64')", { z, m: 2n ** 63n - 1n }).data[0]).toBe(-(2n ** 63n - 1n));
    const y = { data: new Int32Array(1) };
    for (const [text, want] of [['5 & 3', 1], ['5 | 2', 7], ['5 ^ 1', 4], ['~5', -6], ['c & 3', 3]]) {
      expect(tc.evaluate(`y + cast(${text}, 'int32')`, { y, c: 7 }).data[0], text).toBe(want);
    }
  });

  it('a comparison with a BigInt among its numbers is computed as before, in the dtype it meets (not as doubles, which hold 2^60 and 2^60 + 1 alike)', () => {
    const u = { data: Uint8Array.of(1) };
    const k = 2n ** 60n;
    expect(tc.evaluate('u + (k == k + 1n)', { u, k }).data[0]).toBe(1); // 2^60 and 2^60 + 1 are one double
    expect(tc.evaluate('u + (k < k + 1n)', { u, k }).data[0]).toBe(2);
  });

  it('every dtype: arithmetic, comparisons, and the integer-only and float-only ops', () => {
    const mk = (d, vs) => {
      if (d === 'float16') return { data: Uint16Array.from(vs, (q) => [0x0000, 0x3c00, 0x4000, 0x4200, 0xc000, 0x4400][Math.abs(q) % 6]), shape: [vs.length], dtype: 'float16' };
      const C = { float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, bigint64: BigInt64Array, biguint64: BigUint64Array }[d];
      return { data: C.from(vs, (q) => (d.startsWith('big') ? BigInt(q) : q)), shape: [vs.length] };
    };
    for (const d of tc.DTYPES) {
      const a = mk(d, [1, 2, 3, 4, 5, 0]);
      const b = { ...mk(d, [3, 1]), shape: [2, 1] };
      same(tc.evaluate('a * b + a - b', { a, b }), tc.sub(tc.add(tc.mul(a, b), a), b));
      same(tc.evaluate('a / b % 2', { a, b }), tc.rem(tc.div(a, b), 2));
      same(tc.evaluate('minimum(a, b) ** 2 >= maximum(a, b)', { a, b }), tc.greaterEqual(tc.pow(tc.minimum(a, b), 2), tc.maximum(a, b)));
      same(tc.evaluate('floorDiv(a, b) + mod(a, b)', { a, b }), tc.add(tc.floorDiv(a, b), tc.mod(a, b)));
      if (d.startsWith('float')) {
        same(tc.evaluate('atan2(a, b) + hypot(a, b) * sqrt(a)', { a, b }), tc.add(tc.atan2(a, b), tc.mul(tc.hypot(a, b), tc.sqrt(a))));
        expect(() => tc.evaluate('a & b', { a, b })).toThrow(expect.objectContaining({ code: 'DTYPE_MISMATCH' }));
      } else {
        same(tc.evaluate('(a & b) | (a ^ ~b)', { a, b }), tc.bitwiseOr(tc.bitwiseAnd(a, b), tc.bitwiseXor(a, tc.bitwiseNot(b))));
        expect(() => tc.evaluate('sqrt(a)', { a })).toThrow(/it takes float dtypes: cast\(x, 'float32'\) first/);
      }
    }
  });

  it('float16 in Node: Uint16Array bits with dtype float16 in, float16 bits out', () => {
    const a = { data: Uint16Array.of(0x3c00, 0x4000, 0x7c00, 0x7e00), shape: [4], dtype: 'float16' };
    const b = { data: Uint16Array.of(0x3800), shape: [1], dtype: 'float16' };
    const r = tc.evaluate('a * b + 1', { a, b });
    expect(r.dtype).toBe('float16');
    expect(Array.from(r.data)).toEqual([0x3e00, 0x4000, 0x7c00, Array.from(r.data)[3]]);
    expect((r.data[3] & 0x7c00) === 0x7c00 && (r.data[3] & 0x3ff) !== 0).toBe(true); // NaN
    same(r, tc.add(tc.mul(a, b), 1));
  });

  it('zero-size shapes and rank 0', () => {
    const z = T(new Float32Array(0), [2, 0]);
    const r = tc.evaluate('z * m + 1', { z, m: T(f32(3), [1]) });
    expect(r.shape).toEqual([2, 0]);
    expect(r.data.length).toBe(0);
    const s = T(f32(4), []);
    const r0 = tc.evaluate('sqrt(s) * 3 - s', { s });
    expect(r0).toEqual({ data: f32(2), shape: [], dtype: 'float32' });
    same(tc.evaluate('s + x', { s, x: X() }), tc.add(s, X()));
  });
});

describe('compile and explain', () => {
  it('compile: inputs in order of first use, source, run any number of times', () => {
    const e = tc.compile('(x - m) / s + x');
    expect(e.inputs).toEqual(['x', 'm', 's']);
    expect(e.source).toBe('(x - m) / s + x');
    expect(String(e)).toBe('(x - m) / s + x');
    for (let i = 0; i < 3; i++) same(e.run({ x: X(), m: M(), s: S() }), tc.add(tc.div(tc.sub(X(), M()), S()), X()));
    // Other dtypes and shapes through the same compiled expression.
    const xi = T(Int32Array.of(10, 20), [2]);
    same(e.run({ x: xi, m: 1, s: 3 }), tc.add(tc.div(tc.sub(xi, 1), 3), xi));
    expect(() => tc.compile(42)).toThrow(TypeError);
    expect(() => tc.compile('x +')).toThrow(SyntaxError);
  });

  it('explain: every operand aligned to the output, the program, the loop', () => {
    const r = tc.explain({ expression: '(x - m) / s', shapes: { x: [2, 3], m: [3], s: [1] } });
    expect(r.ok).toBe(true);
    expect(r.shape).toEqual([2, 3]);
    expect(r.dtype).toBe('float32');
    expect(r.inputs).toEqual(['x', 'm', 's']);
    expect(r.operands.map((o) => [o.name, o.verdicts])).toEqual([['x', ['equal', 'equal']], ['m', ['new', 'equal']], ['s', ['new', 'stretched']]]);
    expect(r.operands[1].strides).toEqual([0, 1]);
    expect(r.program.map((p) => p.text)).toEqual(['r0 = x (float32)', 'r1 = m (float32)', 'r2 = sub(r0, r1) (float32)', 'r3 = s (float32)', 'r4 = div(r2, r3) (float32)']);
    expect(r.loop.shape).toEqual([2, 3]);
    expect(r.reduce).toBe(null);
    expect(['generated', 'interpreter']).toContain(r.execution);
    // Contiguous operands merge into one loop axis; dtypes and a reduction.
    const c = tc.compile("sum(cast(x, 'float64') * w, [1])").explain({ x: [4, 5], w: [4, 5] }, { dtypes: { x: 'int16', w: 'float64' } });
    expect(c.dtype).toBe('float64');
    expect(c.reduce).toEqual(expect.objectContaining({ op: 'sum', axes: [1] }));
    expect(c.program.map((p) => p.op)).toEqual(['load', 'cast', 'load', 'mul']);
    const m = tc.explain({ expression: 'a + b', shapes: { a: [4, 5], b: [4, 5] } });
    expect(m.loop.shape).toEqual([20]);
    // Named shapes and refusals.
    const n = tc.explain({ expression: 'x * w', shapes: { x: { dims: ['b', 'in'], shape: [2, 3] }, w: { dims: ['in', 'out'], shape: [3, 4] } } });
    expect(n.dims).toEqual(['b', 'in', 'out']);
    expect(n.shape).toEqual([2, 3, 4]);
    // explain() never throws: a refusal is { ok: false, error }.
    const bad = tc.explain({ expression: 'a + b', shapes: { a: [2], b: [3] } });
    expect(bad.ok).toBe(false);
    expect(bad.error).toEqual(expect.objectContaining({ name: 'BroadcastError', code: 'INCOMPATIBLE_DIMS' }));
    expect(bad.error.message).toMatch(/\(2,\) \(3,\)/);
    const syn = tc.explain({ expression: 'a +', shapes: { a: [2] } });
    expect(syn.ok).toBe(false);
    expect(syn.error).toEqual(expect.objectContaining({ name: 'SyntaxError' }));
  });

  it("compile().explain() never throws either: it gives explain({ expression, shapes })'s own answer", () => {
    // Issue 37 #11: compile(e).explain() with no shapes threw a TypeError.
    const e = tc.compile('(x - m) / s');
    const cases = [
      undefined, null, 42, [], { x: [2, 3] }, { x: [2, 3], m: [4], s: [1] }, { x: [2, 3], m: [3], s: [1] },
      { x: [2, -1], m: [3], s: [1] }, { x: { dims: ['a'], shape: [2, 3] }, m: [3], s: 1 },
    ];
    for (const shapes of cases) {
      let r;
      expect(() => { r = e.explain(shapes); }, JSON.stringify(shapes)).not.toThrow();
      expect(r, JSON.stringify(shapes)).toEqual(tc.explain({ expression: e.source, shapes }));
    }
    const none = e.explain();
    expect(none.ok).toBe(false);
    expect(none.error).toEqual(expect.objectContaining({ name: 'TypeError' }));
    expect(none.error.message).toMatch(/shapes must be an object/);
    const clash = e.explain({ x: [2, 3], m: [4], s: [1] });
    expect(clash.error).toEqual(expect.objectContaining({ name: 'BroadcastError', code: 'INCOMPATIBLE_DIMS' }));
    expect(e.explain({ x: [2, 3], m: [3], s: [1] }, { nope: 1 }).error.message).toMatch(/nope/);
    expect(e.explain({ x: [2, 3], m: [3], s: [1] }).shape).toEqual([2, 3]);
    // An expression that reads no tensor has no dtype or shape: refused, not thrown.
    expect(tc.compile('1 + 2').explain({}).error.message).toMatch(/reads no tensor operand/);
  });
});

describe('explain refuses what evaluate refuses, and gives the shape, dtype and dims it gives', () => {
  const z = (shape, dims) => ({ data: new Float32Array(shape.reduce((p, d) => p * d, 1)), shape, ...(dims ? { dims } : {}) });
  /** The refusal of evaluate over `operands` and explain's over `shapes`: one class, code, axis, dims, shapes and message (but the function's name). */
  function sameRefusal(text, operands, shapes, options) {
    let d;
    try { tc.evaluate(text, operands, options); } catch (e) { d = e; }
    expect(d, `evaluate ${text}`).toBeDefined();
    const r = tc.explain({ expression: text, shapes, ...options });
    expect(r.ok, `explain ${text}`).toBe(false);
    const e = r.error;
    expect({ name: e.name, code: e.code, axis: e.axis, dims: e.dims, shapes: e.shapes, message: e.message.replace(/^explain: /, 'evaluate: ') }, text)
      .toEqual({ name: d.name, code: d.code ?? null, axis: d.axis ?? null, dims: d.dims ?? null, shapes: d.shapes ?? [], message: d.message });
    expect(tc.compile(text).explain(shapes, options)).toEqual(r);
    return e;
  }
  /** Both accept: explain says the shape, dtype and dims (or none) of evaluate's result. */
  function sameResult(text, operands, shapes, options) {
    const v = tc.evaluate(text, operands, options);
    const r = tc.explain({ expression: text, shapes, ...options });
    expect(r.ok, `${text}: ${r.error?.message}`).toBe(true);
    expect({ shape: r.shape, dtype: r.dtype, hasDims: 'dims' in r, dims: r.dims }, text).toEqual({ shape: v.shape, dtype: v.dtype, hasDims: 'dims' in v, dims: v.dims });
  }

  it('min, max, argmin and argmax over an axis of size 0: no value, as NumPy (until 0.9.23 explain said ok)', () => {
    const e = sameRefusal('max(x, 0)', { x: z([0, 3]) }, { x: [0, 3] });
    expect(e).toMatchObject({ name: 'BroadcastError', code: 'INVALID_AXIS', axis: null, dims: [0], shapes: [[0, 3]],
      message: 'explain: max over an axis of size 0: max of no elements has no value (sum gives 0, prod 1); reduce with sum or prod, or over axes of nonzero size' });
    sameRefusal('min(x)', { x: z([0]) }, { x: [0] });
    sameRefusal('max(x, 0)', { x: z([0, 0]) }, { x: [0, 0] }); // an empty result too: the reduced axis decides
    sameRefusal('max(x + y, 0)', { x: z([0, 1]), y: z([3]) }, { x: [0, 1], y: [3] });
    sameRefusal('x - max(x, 1, true)', { x: z([3, 0]) }, { x: [3, 0] }); // a reduction inside: its pass
    sameRefusal("max(x, ['a'])", { x: z([0, 3], ['a', 'b']) }, { x: { dims: ['a', 'b'], shape: [0, 3] } });
    expect(sameRefusal('argmax(x, 0)', { x: z([0, 3]) }, { x: [0, 3] }))
      .toMatchObject({ code: 'INVALID_AXIS', axis: 0, dims: [0], shapes: [[0, 3]], message: 'argmax: x (0,3) is empty along the axis' });
    expect(sameRefusal('argmin(x)', { x: z([2, 0]) }, { x: [2, 0] })).toMatchObject({ axis: null, dims: [0] });
    sameRefusal("argmax(x, 'a', true)", { x: z([0, 3], ['a', 'b']) }, { x: { dims: ['a', 'b'], shape: [0, 3] } });
    // Over axes of nonzero size (an empty result), and sum, prod and mean of none: both give a result.
    sameResult('max(x, 1)', { x: z([0, 3]) }, { x: [0, 3] });
    sameResult('max(x, 0)', { x: z([3, 0]) }, { x: [3, 0] });
    sameResult('argmax(x, 1)', { x: z([0, 3]) }, { x: [0, 3] });
    for (const text of ['sum(x, 0)', 'prod(x)', 'mean(x, 0)']) sameResult(text, { x: z([0, 3]) }, { x: [0, 3] });
  });

  it('an operand without dims among named ones: the TypeError evaluate gives, one of rank 0 joins them (until 0.9.23 "Cannot read properties of undefined")', () => {
    const e = sameRefusal('x + y', { x: z([2, 3], ['a', 'b']), y: z([3]) }, { x: { dims: ['a', 'b'], shape: [2, 3] }, y: [3] });
    expect(e).toMatchObject({ name: 'TypeError', message: 'explain: "y" has no dims while other operands do: give every tensor operand dims (named) or none' });
    sameRefusal('x + y', { x: z([], []), y: z([2, 3]) }, { x: { dims: [], shape: [] }, y: [2, 3] });
    sameResult('x + y', { x: z([2, 3], ['a', 'b']), y: z([]) }, { x: { dims: ['a', 'b'], shape: [2, 3] }, y: [] });
    sameResult('x * y + 1', { x: z([], []), y: z([2], ['a']) }, { x: [], y: { dims: ['a'], shape: [2] } });
  });

  it('options refused as evaluate refuses them: shaping without named operands or not a shaping, broadcast null, keepdims not a boolean (until 0.9.23 explain took them)', () => {
    const x = { x: z([2, 3]) };
    const xs = { x: [2, 3] };
    const n = { x: z([2, 3], ['a', 'b']) };
    const ns = { x: { dims: ['a', 'b'], shape: [2, 3] } };
    expect(sameRefusal('x + 1', x, xs, { shaping: 'union' })).toMatchObject({ name: 'TypeError', message: 'explain: options.shaping applies to named operands (with dims) only' });
    sameRefusal('x + 1', x, xs, { shaping: null });
    expect(sameRefusal('x + 1', n, ns, { shaping: 'bogus' })).toMatchObject({ name: 'TypeError', message: "explain: options.shaping must be 'exact', 'intersection' or 'union', got \"bogus\"" });
    // The value given is named, as the element-wise ops name it (until 0.9.27 it was left out).
    expect(sameRefusal('x + 1', n, ns, { shaping: 3 }).message).toMatch(/, got 3$/);
    expect(sameRefusal('x + 1', n, ns, { shaping: {} }).message).toMatch(/, got an object$/);
    expect(sameRefusal('x + 1', x, xs, { broadcast: null })).toMatchObject({ name: 'TypeError', message: 'explain: options.broadcast must be { type, axis }' });
    // keepdims: explain({ ... }) refuses it among its own keys; compile().explain as evaluate words it.
    expect(() => tc.evaluate('sum(x)', x, { keepdims: 1 })).toThrow('evaluate: options.keepdims must be a boolean');
    expect(tc.compile('sum(x)').explain(xs, { keepdims: 1 }).error).toMatchObject({ name: 'TypeError', message: 'explain: options.keepdims must be a boolean' });
    expect(tc.explain({ expression: 'sum(x)', shapes: xs, keepdims: 1 }).error).toMatchObject({ name: 'TypeError', message: 'explain: keepdims must be a boolean' });
    sameResult('x + 1', n, ns, { shaping: 'union' });
    sameResult('sum(x)', x, xs, { keepdims: true });
  });

  it('a rank-0 result of named operands has no dims, as evaluate gives it (until 0.9.23 explain said dims: [])', () => {
    sameResult('x + 1', { x: z([], []) }, { x: { dims: [], shape: [] } });
    sameResult('sum(x)', { x: z([], []) }, { x: { dims: [], shape: [] } });
    sameResult('sum(x)', { x: z([3], ['a']) }, { x: { dims: ['a'], shape: [3] } });
    sameResult("argmax(x, 'a')", { x: z([3], ['a']) }, { x: { dims: ['a'], shape: [3] } });
    sameResult('s = sum(x); x - s', { x: z([3], ['a']) }, { x: { dims: ['a'], shape: [3] } });
    sameResult("argmax(x, 'a', true)", { x: z([3], ['a']) }, { x: { dims: ['a'], shape: [3] } });
    sameResult('sum(x)', { x: z([3], ['a']) }, { x: { dims: ['a'], shape: [3] } }, { keepdims: true });
  });

  it('comparisons of numbers alone: no tensor gives a dtype or shape, refused as evaluate refuses them (until 0.9.23 explain said uint8, shape [])', () => {
    const e = sameRefusal('1 < 2', {}, {});
    expect(e).toMatchObject({ name: 'TypeError', message: 'explain: the expression reads no tensor operand, so nothing gives it a dtype and a shape: pass at least one operand as { data, shape } or a tensor' });
    sameRefusal('x < 2', { x: 3 }, { x: 3 });
    sameRefusal('x == y', { x: 3, y: 2n }, { x: 3, y: 2n });
    sameRefusal('!(x > 1) || x != 2', { x: 3 }, { x: 3 });
    sameRefusal('x + 2', { x: 3 }, { x: 3 });
    sameResult('x < 2', { x: z([2]) }, { x: [2] });
  });
});

describe('refusals: clear errors, never a trap, the engine unharmed', () => {
  const syntax = (text, offset, what) => {
    let e;
    try { tc.evaluate(text, { x: T(f32(1, 2), [2]), y: T(f32(1, 2), [2]) }); } catch (err) { e = err; }
    expect(e, text).toBeInstanceOf(SyntaxError);
    expect(e.offset, `${text}: ${e.message}`).toBe(offset);
    expect(e.message).toMatch(what);
    if (text.length > 65536) return e; // too long: no excerpt
    if (text.length < 80) expect(e.message).toContain(`\n  ${text}`); // the text, and a caret under the span
    expect(e.message).toMatch(/\n *\^+$/);
    return e;
  };

  it('every SyntaxCode: a SyntaxError naming the offset, with the text and a caret', () => {
    syntax('x @ y', 2, /unexpected character "@" \(\\u\{40\}\)/);
    // A character that prints as nothing, or as a plain space, is named by its code (until 0.9.29 only quoted).
    syntax('x\u00a0+ y', 1, /unexpected character "\u00a0" \(\\u\{a0\}\)/);
    syntax('x + \u200by', 4, /unexpected character "\u200b" \(\\u\{200b\}\)/);
    syntax('x + * y', 4, /unexpected "\*"/);
    syntax(')', 0, /unexpected "\)"/);
    syntax('x +', 3, /ends too early/);
    syntax('', 0, /ends too early/);
    syntax('foo(x)', 0, /"foo" is not a function of expressions \(.*, mean, argmax, argmin\)/);
    syntax('softmax(x)', 0, /"softmax" is not a function of expressions/); // a call of its own (until 0.9.23 "not a function of tensorcast")
    syntax('add(x)', 0, /wrong number of arguments/);
    syntax('where(x, x)', 0, /wrong number of arguments/);
    syntax("add(x, 'a')", 7, /cannot stand here/);
    syntax('[1] + x', 0, /cannot stand here/);
    syntax('-x ** 2', 0, /JavaScript refuses -x \*\* 2/);
    syntax('1e + x', 0, /malformed number "1e"/);
    syntax('x + 0x', 4, /malformed number "0x"/);
    syntax('1__0 + x', 0, /malformed number/);
    syntax("cast(x, 'float32)", 8, /unterminated string/);
    syntax('sum(x, 1 + 1)', 7, /"1 \+ 1" is not an axis: a reduction's axes are integer literals/);
    syntax('sum(x, [0, -y])', 11, /"-y" is not an axis/);
    // A reduction inside an expression is a program (program.js): its reduction runs as a pass of its own.
    expect(Array.from(tc.evaluate('sum(x) + 1', { x: T(f32(1, 2), [2]) }).data)).toEqual([4]);
    expect(Array.from(tc.evaluate('x + y * mean(x)', { x: T(f32(1, 3), [2]), y: T(f32(2, 4), [2]) }).data)).toEqual([5, 11]);
    const long = 'x+'.repeat(2100) + 'x';
    syntax(long, 0, /more than 4096 nodes/);
    syntax('('.repeat(300) + 'x' + ')'.repeat(300), 256, /nested more than 256 levels deep/);
    syntax('- '.repeat(300) + 'x', 512, /nested more than 256 levels deep/);
    const many = Array.from({ length: 65 }, (_, i) => `v${i}`).join('+');
    syntax(many, many.indexOf('v64'), /more than 64 distinct operand names/);
    // (-x) ** 2 and 2 ** -x are JavaScript, and fine.
    same(tc.evaluate('(-x) ** 2 + 2 ** -x', { x: T(f32(1, 2), [2]) }), tc.add(tc.pow(tc.neg(T(f32(1, 2), [2])), 2), tc.pow(2, tc.neg(T(f32(1, 2), [2])))));
  });

  const SQRT_DEPTH = 5 * 256 + 4; // the x of the 257th sqrt(
  it('hostile sizes: a 1 MB expression and 100k nested parentheses are refused by length, at once', () => {
    const mb = 'x + '.repeat(262144) + 'x';
    let e = syntax(mb, 0, /the expression is 1048577 characters long; at most 65536/);
    expect(e.message.length).toBeLessThan(200);
    e = syntax('('.repeat(100000) + 'x' + ')'.repeat(100000), 0, /at most 65536/);
    // Deep nesting within the length limit: the depth limit, not a stack overflow.
    syntax('('.repeat(30000) + 'x' + ')'.repeat(30000), 256, /nested more than 256 levels deep/);
    syntax('sqrt('.repeat(10000) + 'x' + ')'.repeat(10000), SQRT_DEPTH, /nested more than 256 levels deep/);
  });

  it('DTYPE_MISMATCH names the node where two dtypes meet, with its offset', () => {
    const x = T(f32(1, 2), [2]);
    const i = T(Int32Array.of(1, 2), [2]);
    let e;
    try { tc.evaluate('x * 2 + (i - 1)', { x, i }); } catch (err) { e = err; }
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e.code).toBe('DTYPE_MISMATCH');
    expect(e.message).toMatch(/"x \* 2 \+ \(i - 1\)" \(offset 0\) mixes float32 and int32/);
    try { tc.evaluate('sqrt(x) * (i + (i < 2))', { x, i }); } catch (err) { e = err; }
    expect(e.message).toMatch(/"i \+ \(i < 2\)" \(offset 11\) mixes int32 and uint8/);
    expect(e.message).toMatch(/cast the uint8 one to int32 \(cast\(\.\.\., 'int32'\)\)/);
    // A comparison's uint8 meets a float: cast it.
    same(tc.evaluate("x * cast(x > 1, 'float32')", { x }), tc.mul(x, tc.cast(tc.greater(x, 1), 'float32')));
    expect(() => tc.evaluate("cast(x, 'float33')", { x })).toThrow(/not a dtype/);
  });

  it('broadcast refusals carry the rule\'s code and the node', () => {
    const a = T(f32(1, 2, 3), [3]);
    const b = T(f32(1, 2), [2]);
    let e;
    try { tc.evaluate('a * 2 + sqrt(b)', { a, b }); } catch (err) { e = err; }
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.message).toMatch(/\(3,\) \(2,\)/);
    const ref = (() => { try { tc.add(a, b); } catch (err) { return err; } })();
    expect(e.code).toBe(ref.code);
    try { tc.evaluate('a + (b * 2)', { a: T(f32(1, 2, 3, 4, 5, 6), [2, 3]), b: T(f32(1, 2), [2]) }, { broadcast: { type: 'pdpd', axis: 1 } }); } catch (err) { e = err; }
    expect(e).toBeInstanceOf(tc.BroadcastError);
  });

  it('missing operands, wrong operand containers, no tensor at all, unknown functions', () => {
    expect(() => tc.evaluate('x + y', { x: X() })).toThrow(/reads "y" but operands has no own property "y"/);
    expect(() => tc.evaluate('x', null)).toThrow(TypeError);
    expect(() => tc.evaluate('x', [X()])).toThrow(TypeError);
    expect(() => tc.evaluate('x', { x: [1, 2] })).toThrow(TypeError);
    expect(() => tc.evaluate('3 * 4', {})).toThrow(/reads no tensor operand/);
    expect(() => tc.evaluate('k + 1', { k: 2 })).toThrow(/reads no tensor operand/);
    expect(() => tc.evaluate('k', { k: 2n })).toThrow(/reads no tensor operand/);
    // A tensor read, but numbers alone where the result takes its dtype: said of that node (until
    // 0.9.18 "reads no tensor operand", which the text does).
    for (const [text, node] of [['where(x < 2, 3, 4)', 'where(x < 2, 3, 4)'], ['(x > 0) ? 1 : -1', '(x > 0) ? 1 : -1']]) {
      expect(() => tc.evaluate(text, { x: X() }), text).toThrow(expect.objectContaining({
        name: 'TypeError', message: expect.stringMatching(new RegExp(`^evaluate: ${JSON.stringify(node).replace(/[()?*+]/g, '\\$&')} \\(offset 0\\) takes no dtype from numbers alone: cast one`)),
      }));
    }
    expect(Array.from(tc.evaluate("where(x < 2, cast(3, 'float32'), 4)", { x: X() }).data)).toEqual([3, 4, 4, 4, 4, 4]);
    expect(() => tc.evaluate('3 + 4', { x: X() })).toThrow(/reads no tensor operand/); // x is not read
    expect(() => tc.evaluate('softmax(x)', { x: X() })).toThrow(SyntaxError);
    expect(() => tc.evaluate(null, {})).toThrow(TypeError);
  });

  it('an operand getter that disposes a resident operand, or calls evaluate, is caught before the engine runs', () => {
    const t = tc.tensor(f32(1, 2, 3), [3]);
    const ops = { get x() { t.dispose(); return T(f32(1, 2, 3), [3]); }, t };
    expect(() => tc.evaluate('t + x', ops)).toThrow(/disposed/);
    const u = tc.tensor(f32(1, 2, 3), [3]);
    const inner = [];
    const ops2 = { u, get y() { inner.push(tc.evaluate('u * 2', { u })); return T(f32(1, 1, 1), [3]); } };
    const r = tc.evaluate('u + y', ops2);
    expect(Array.from(r.toArray())).toEqual([2, 3, 4]);
    expect(Array.from(inner[0].toArray())).toEqual([2, 4, 6]);
    dispose(r, inner[0], u);
  });

  it('after a run of refusals the engine holds what it held and still answers right', () => {
    const m0 = tc.memory();
    const bad = [
      () => tc.evaluate('x +', { x: X() }),
      () => tc.evaluate('x + m', { x: X(), m: T(f32(1, 2), [2]) }),
      () => tc.evaluate('x + i', { x: X(), i: T(Int32Array.of(1), [1]) }),
      () => tc.evaluate('sum(x, [5])', { x: X() }),
      () => tc.evaluate('x', { x: X() }, { out: new Float32Array(5) }),
      () => tc.evaluate('x * 2', { x: X() }, { out: new Uint8Array(6) }),
      () => tc.evaluate('('.repeat(100000), { x: X() }),
    ];
    for (const f of bad) {
      expect(f).toThrow();
      const m = tc.memory();
      expect(m.allocatedBytes).toBe(m0.allocatedBytes);
      expect(m.liveTensors).toBe(m0.liveTensors);
      same(tc.evaluate('x - m', { x: X(), m: M() }), tc.sub(X(), M()));
    }
  });
});

describe('x ** 2 over floats runs as x * x, bit for bit pow', () => {
  it('float32 (random bit patterns, with the specials), float64 and every float16: pow(x, 2) exactly, and generated code', () => {
    let seed = 7;
    const rnd = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed; };
    const bits32 = new Uint32Array(1 << 18);
    for (let i = 0; i < bits32.length; i++) bits32[i] = rnd();
    bits32.set([0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x7f7fffff, 0x5f800000, 0x1f800000]);
    const f32x = new Float32Array(bits32.buffer);
    const f64x = Float64Array.from({ length: 1 << 16 }, (_, i) => (i < 8 ? [0, -0, Infinity, -Infinity, NaN, 5e-324, 1.7976931348623157e308, 1e154][i] : new Float64Array(new Uint32Array([rnd(), rnd()]).buffer)[0]));
    const f16x = Uint16Array.from({ length: 65536 }, (_, i) => i);
    for (const x of [{ data: f32x }, { data: f64x }, { data: f16x, dtype: 'float16' }]) {
      const got = tc.evaluate('x ** 2', { x });
      const want = tc.pow(x, 2);
      expect(got.dtype).toBe(want.dtype);
      const diff = Array.from(got.data).findIndex((v, i) => !Object.is(v, want.data[i]));
      expect(diff, `${want.dtype} at ${diff}: ${got.data[diff]} vs ${want.data[diff]}`).toBe(-1);
      expect(tc.explain({ expression: 'x ** 2', shapes: { x: [4] }, dtypes: { x: want.dtype } }).program.at(-1).op).toBe('mul');
    }
    // Other exponents, and integers, stay pow.
    expect(tc.explain({ expression: 'x ** 3', shapes: { x: [4] } }).program.at(-1).op).toBe('pow');
    expect(tc.explain({ expression: 'x ** 2', shapes: { x: [4] }, dtypes: { x: 'int32' } }).program.at(-1).op).toBe('pow');
  });
});

// float32 exp, expm1, sigmoid, log and tanh are written by the code generator
// (the kernels' operations, in their order): an expression around them runs as
// one generated pass and gives the ops' bits: every float32 bit pattern class
// (random bits, the clamps at 89, -104 and -30, subnormal results and inputs,
// negatives, NaN, ±Inf, ±0, tanh's 0.625, 10 and 2^-13, expm1's 2^-25 and its
// split at n = 25), every row length about the vector and the unrolled steps, a
// broadcast (splat) operand and a strided view; log1p stays on the interpreter,
// with the same bits.
describe('float32 exp, expm1, sigmoid, log and tanh in generated code', () => {
  let seed = 7;
  const rnd = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed; };
  const values = (n) => {
    const u = new Uint32Array(n);
    for (let i = 0; i < n; i++) u[i] = rnd();
    const x = new Float32Array(u.buffer);
    const special = [0, -0, Infinity, -Infinity, NaN, 1e-45, -1e-45, 88.72283, 88.7229, 89, 89.5, -87.33655, -87.5, -103.97, -104, -104.5, 87, -87, 87.0001,
      0.625, -0.625, 0.62499994, 10, -10, 10.000001, 2 ** -13, -(2 ** -13), 1.2e-4, 9.01, -8.66,
      -30, -30.000002, -29.999998, 2 ** -25, -(2 ** -25), 2 ** -24, -(2 ** -24), 17.33, 17.4, -1, -1.0000001, -0.99999994,
      -0.2928932, -0.29289323, 0.41421354, 0.4142136, 1e30, -0.5, 0.5];
    for (let i = 0; i < n; i++) if (i % 3 === 1) x[i] = ((rnd() / 2 ** 32) - 0.5) * 200; else if (i % 7 === 0) x[i] = special[(i / 7) % special.length];
    return x;
  };
  const firstDiff = (a, b) => Array.from(a).findIndex((v, i) => !Object.is(v, b[i]));

  it('exp, sigmoid and log in expressions run generated with the ops\' bits', () => {
    for (const n of [1, 3, 4, 5, 8, 15, 16, 17, 31, 33, 64, 100, 4099]) {
      const x = { data: values(2 * n), shape: [2, n] };
      const m = { data: values(n), shape: [n] };
      const s = { data: f32(0.5, -3), shape: [2, 1] };
      for (const [text, want] of [
        ['exp(x)', () => tc.exp(x)],
        ['exp(x - m) * s', () => tc.mul(tc.exp(tc.sub(x, m)), s)],
        ['exp(x) + exp(-x)', () => tc.add(tc.exp(x), tc.exp(tc.neg(x)))],
        ['sigmoid(x)', () => tc.sigmoid(x)],
        ['x * sigmoid(x * s) + exp(m)', () => tc.add(tc.mul(x, tc.sigmoid(tc.mul(x, s))), tc.exp(m))],
        ['log(x)', () => tc.log(x)],
        ['log(abs(x)) * s', () => tc.mul(tc.log(tc.abs(x)), s)],
        ['-(m * log(x) + (1 - m) * log(1 - x))', () => tc.neg(tc.add(tc.mul(m, tc.log(x)), tc.mul(tc.sub(1, m), tc.log(tc.sub(1, x)))))],
        ['log(exp(x) + 1) - sigmoid(log(m))', () => tc.sub(tc.log(tc.add(tc.exp(x), 1)), tc.sigmoid(tc.log(m)))],
        ['tanh(x)', () => tc.tanh(x)],
        ['tanh(x / 8) * s + tanh(m)', () => tc.add(tc.mul(tc.tanh(tc.div(x, 8)), s), tc.tanh(m))],
        ['x * (1 + tanh(x * 0.8)) * 0.5 - exp(m)', () => tc.sub(tc.mul(tc.mul(x, tc.add(1, tc.tanh(tc.mul(x, 0.8)))), 0.5), tc.exp(m))],
        ['expm1(x)', () => tc.expm1(x)],
        ['where(x > 0, x, expm1(x)) * s + exp(m)', () => tc.add(tc.mul(tc.where(tc.greater(x, 0), x, tc.expm1(x)), s), tc.exp(m))], // an ELU
        ['expm1(x / 4) - expm1(m) * tanh(m)', () => tc.sub(tc.expm1(tc.div(x, 4)), tc.mul(tc.expm1(m), tc.tanh(m)))],
      ]) {
        const shapes = { x: x.shape, m: m.shape, s: s.shape };
        expect(tc.explain({ expression: text, shapes }).execution, text).toBe('generated');
        const got = tc.evaluate(text, { x, m, s }).data;
        const w = want().data;
        const d = firstDiff(got, w);
        expect(d, `${text} n=${n} at ${d}: x=${x.data[d]} ${got[d]} vs ${w[d]}`).toBe(-1);
      }
    }
  });

  it('over a strided view and into a resident out; float64 exp and expm1 stay on the interpreter', () => {
    const data = values(6 * 37);
    const t = tc.tensor(data, [6, 37]);
    const r = tc.slice(t, null, [null, null, -1]); // each row reversed
    const v = tc.transpose(r, [1, 0]);
    const out = tc.tensor(new Float32Array(37 * 6), [37, 6]);
    tc.evaluate('exp(v) * 2', { v }, { out });
    const c = tc.contiguous(v);
    const e = tc.exp(c);
    const want = tc.mul(e, 2);
    expect(firstDiff(out.toArray(), want.toArray())).toBe(-1);
    const x64 = { data: Float64Array.from(values(50), Number), shape: [50] };
    expect(tc.explain({ expression: 'exp(x)', shapes: { x: [50] }, dtypes: { x: 'float64' } }).execution).toBe('interpreter');
    expect(firstDiff(tc.evaluate('exp(x)', { x: x64 }).data, tc.exp(x64).data)).toBe(-1);
    expect(tc.explain({ expression: 'expm1(x) * 2', shapes: { x: [50] }, dtypes: { x: 'float64' } }).execution).toBe('interpreter');
    expect(tc.explain({ expression: 'log1p(x) * 2', shapes: { x: [50] } }).execution).toBe('interpreter');
    for (const f of ['expm1', 'log1p']) {
      tc.evaluate(`${f}(v) * 2`, { v }, { out });
      const y = tc[f](c);
      const w = tc.mul(y, 2);
      expect(firstDiff(out.toArray(), w.toArray()), f).toBe(-1);
      dispose(y, w);
    }
    tc.evaluate('tanh(v) * 2', { v }, { out });
    const th = tc.tanh(c);
    const want3 = tc.mul(th, 2);
    expect(firstDiff(out.toArray(), want3.toArray())).toBe(-1);
    dispose(th, want3);
    tc.evaluate('log(v) * 2', { v }, { out });
    const l = tc.log(c);
    const want2 = tc.mul(l, 2);
    expect(firstDiff(out.toArray(), want2.toArray())).toBe(-1);
    dispose(l, want2);
    dispose(t, r, v, out, c, e, want);
  });
});

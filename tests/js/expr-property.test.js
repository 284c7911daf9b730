// Property test of the fused-expression API: random expression trees (depth ≤ 5)
// over random broadcastable shapes (rank 0–4, with 1s and 0s) and all 12 dtypes,
// evaluated with evaluate() and with the op-by-op composition of the library's
// own functions (add, less, where, cast, neg, sqrt, ...). The two must agree bit
// for bit (Object.is per element, so NaN where NaN and -0 where -0), in shape and
// dtype. A reduction wrapping a random tree is checked against the op-by-op result
// reduced by sum/prod/min/max/mean.
//
// A failing seed prints the expression, the operands' shapes and dtypes: rerun
// one with EXPR_SEED=<seed>.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

// ---- seeded PRNG (mulberry32) ----------------------------------------------------
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (xs) => xs[int(xs.length)];
  return { next, int, pick };
}

// ---- dtypes and their data --------------------------------------------------------
const FLOATS = ['float32', 'float64', 'float16'];
const INTS = ['int8', 'uint8', 'uint8clamped', 'int16', 'uint16', 'int32', 'uint32', 'bigint64', 'biguint64'];
const ALL = [...FLOATS, ...INTS];
const ARRAY = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array,
  uint8clamped: Uint8ClampedArray, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  bigint64: BigInt64Array, biguint64: BigUint64Array,
};
const isFloat = (d) => FLOATS.includes(d);

// float16 bits of a few interesting values (Node 20 has no Float16Array).
const F16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x4000, 0x3800, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x4248, 0xc500, 0x3555, 0x5640];
const FLOAT_VALUES = [0, -0, 1, -1, 2, 0.5, -2.5, 3, 7, -7, 1e-3, 100, 65504, Infinity, -Infinity, NaN, 1e30, -0.75];
const INT_VALUES = [0, 1, 2, 3, -1, -2, 5, 7, -7, 100, -128, 127, 255, 1000, -32768, 65535, 2147483647, -2147483648];

function randomData(r, dtype, n) {
  const A = ARRAY[dtype];
  const a = new A(n);
  for (let i = 0; i < n; i++) {
    if (dtype === 'float16') a[i] = r.next() < 0.5 ? r.pick(F16) : r.int(65536);
    else if (isFloat(dtype)) a[i] = r.next() < 0.6 ? r.pick(FLOAT_VALUES) : (r.next() - 0.5) * 20;
    else if (dtype === 'bigint64') a[i] = r.next() < 0.2 ? r.pick([-(2n ** 63n), 2n ** 63n - 1n, -1n]) : BigInt(r.pick(INT_VALUES) % 1000);
    else if (dtype === 'biguint64') a[i] = r.next() < 0.2 ? r.pick([2n ** 64n - 1n, 2n ** 63n]) : BigInt(Math.abs(r.pick(INT_VALUES) % 1000));
    else a[i] = r.next() < 0.7 ? r.pick(INT_VALUES) : r.int(20) - 10;
  }
  return a;
}

// ---- shapes: an output shape, then each operand a broadcastable suffix of it --------
function randomOutShape(r) {
  const rank = r.int(5);
  const s = [];
  for (let i = 0; i < rank; i++) s.push(r.next() < 0.07 ? 0 : 1 + r.int(4));
  return s;
}
function operandShape(r, out) {
  const rank = r.int(out.length + 1);
  return out.slice(out.length - rank).map((d) => (r.next() < 0.35 ? 1 : d));
}

// ---- random typed trees -------------------------------------------------------------
// A node: { text, ref: () => operand (op by op), dtype, constant? }.
// Binary ops that keep the dtype, by domain; comparisons and logical ops give uint8.
const SAME_ANY = ['add', 'sub', 'mul', 'div', 'rem', 'pow', 'minimum', 'maximum', 'mod', 'floorDiv'];
const SAME_FLOAT = ['atan2', 'hypot'];
const SAME_INT = ['bitwiseAnd', 'bitwiseOr', 'bitwiseXor'];
const BOOL_OPS = ['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual', 'logicalAnd', 'logicalOr', 'logicalXor'];
const SYMBOL = {
  add: '+', sub: '-', mul: '*', div: '/', rem: '%', pow: '**', bitwiseAnd: '&', bitwiseOr: '|', bitwiseXor: '^',
  equal: '==', notEqual: '!=', less: '<', lessEqual: '<=', greater: '>', greaterEqual: '>=', logicalAnd: '&&', logicalOr: '||',
};
const UNARY_ANY = ['neg', 'abs', 'sign', 'floor', 'ceil', 'round', 'trunc'];
const UNARY_FLOAT = ['sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh'];
const UNARY_INT = ['bitwiseNot'];
const UNARY_BOOL = ['logicalNot', 'isNaN', 'isFinite'];
const UNARY_SYMBOL = { neg: '-', logicalNot: '!', bitwiseNot: '~' };

class Gen {
  constructor(r) {
    this.r = r;
    this.inputs = []; // { name, dtype, shape, value }
    this.out = randomOutShape(r);
  }

  /** A new operand of `dtype` (sometimes an existing one of the same dtype). */
  leaf(dtype) {
    const r = this.r;
    const same = this.inputs.filter((i) => i.dtype === dtype);
    if (same.length && r.next() < 0.3) return this.load(r.pick(same));
    const shape = operandShape(r, this.out);
    const n = shape.reduce((a, b) => a * b, 1);
    const data = randomData(r, dtype, n);
    const value = dtype === 'float16' ? { data, shape, dtype } : { data, shape };
    const input = { name: `v${this.inputs.length}`, dtype, shape, value };
    this.inputs.push(input);
    return this.load(input);
  }

  load(input) {
    // Op by op, an operand is itself; as a result it has its dtype.
    return { text: input.name, dtype: input.dtype, ref: () => ({ dtype: input.dtype, ...input.value }) };
  }

  /** A number literal in `dtype`'s range (the op-by-op path gets the same number). */
  constant(dtype) {
    const r = this.r;
    const v = isFloat(dtype) ? r.pick([0, 1, 2, 0.5, 3, 2.5, 10, 0.125, 1e-3]) : r.pick([0, 1, 2, 3, 7, 100]);
    return { text: String(v), dtype, constant: v, ref: () => v };
  }

  /** An expression of result dtype `dtype`, at most `depth` levels. */
  node(dtype, depth) {
    const r = this.r;
    if (depth <= 0 || r.next() < 0.15) return this.leaf(dtype);
    const k = r.next();
    if (dtype === 'uint8' && k < 0.25) return this.boolNode(depth);
    if (k < 0.6) return this.binary(dtype, depth);
    if (k < 0.8) return this.unary(dtype, depth);
    if (k < 0.9) return this.where(dtype, depth);
    return this.cast(dtype, depth);
  }

  binary(dtype, depth) {
    const r = this.r;
    const ops = [...SAME_ANY, ...(isFloat(dtype) ? SAME_FLOAT : SAME_INT)];
    const op = r.pick(ops);
    let a = this.node(dtype, depth - 1);
    let b = r.next() < 0.2 ? this.constant(dtype) : this.node(dtype, depth - 1);
    if (r.next() < 0.3) [a, b] = [b, a];
    return this.call2(op, a, b, dtype);
  }

  call2(op, a, b, dtype) {
    const r = this.r;
    const text = SYMBOL[op] && r.next() < 0.7 ? `(${a.text} ${SYMBOL[op]} ${b.text})` : `${op}(${a.text}, ${b.text})`;
    return { text, dtype, ref: () => binaryRef(op, a, b) };
  }

  boolNode(depth) {
    const r = this.r;
    const d = r.pick(ALL);
    const op = r.pick(BOOL_OPS);
    if (r.next() < 0.3) {
      const u = r.pick(UNARY_BOOL);
      const a = this.node(d, depth - 1);
      return this.call1(u, a, 'uint8');
    }
    let a = this.node(d, depth - 1);
    let b = r.next() < 0.25 ? this.constant(d) : this.node(d, depth - 1);
    if (r.next() < 0.3) [a, b] = [b, a];
    return this.call2(op, a, b, 'uint8');
  }

  unary(dtype, depth) {
    const r = this.r;
    const ops = [...UNARY_ANY, ...(isFloat(dtype) ? UNARY_FLOAT : UNARY_INT)];
    const op = r.pick(ops);
    return this.call1(op, this.node(dtype, depth - 1), dtype);
  }

  call1(op, a, dtype) {
    const r = this.r;
    const text = UNARY_SYMBOL[op] && r.next() < 0.6 ? `(${UNARY_SYMBOL[op]}${a.text})` : `${op}(${a.text})`;
    return { text, dtype, ref: () => tc[op](refOf(a)) };
  }

  where(dtype, depth) {
    const r = this.r;
    const c = r.next() < 0.7 ? this.boolNode(depth - 1) : this.leaf('uint8');
    let a = this.node(dtype, depth - 1);
    let b = r.next() < 0.3 ? this.constant(dtype) : this.node(dtype, depth - 1);
    if (r.next() < 0.3) [a, b] = [b, a];
    const text = r.next() < 0.5 ? `(${c.text} ? ${a.text} : ${b.text})` : `where(${c.text}, ${a.text}, ${b.text})`;
    return { text, dtype, ref: () => whereRef(c, a, b) };
  }

  cast(dtype, depth) {
    const from = this.r.pick(ALL);
    const a = this.node(from, depth - 1);
    return { text: `cast(${a.text}, '${dtype}')`, dtype, ref: () => tc.cast(refOf(a), dtype) };
  }
}

// Op by op. A constant operand is passed as the number it is (a scalar of the
// other operand's dtype, as the element-wise ops take it); a constant never
// meets another constant (the generator puts one on one side only).
function refOf(n) { return n.ref(); }
function binaryRef(op, a, b) {
  if (a.constant !== undefined && b.constant !== undefined) throw new Error('two constants');
  return tc[op](refOf(a), refOf(b));
}
function whereRef(c, a, b) {
  if (a.constant !== undefined && b.constant !== undefined) throw new Error('two constants');
  return tc.where(refOf(c), refOf(a), refOf(b));
}

// The op-by-op path gives a scalar result only if every operand of the root is a number,
// which the generator never builds at the root (a leaf or an op over a tensor).
function randomCase(seed) {
  const r = prng(seed);
  for (;;) {
    const g = new Gen(r);
    const dtype = r.pick(ALL);
    const depth = 1 + r.int(5);
    const root = g.node(dtype, depth);
    if (root.constant !== undefined || g.inputs.length === 0) continue;
    return { g, root, dtype };
  }
}

const describeCase = (seed, g, root, extra = '') => `seed ${seed}: ${root.text}${extra}\n  operands: ${g.inputs.map((i) => `${i.name}: ${i.dtype} (${i.shape.join(',')})`).join(', ')}\n  output shape (${g.out.join(',')})`;

// An error as a failure prints it: its code or name, message, and where a plain TypeError came from.
const describeError = (e) => `${e.code ?? e.name}: ${e.message}${e instanceof TypeError && !/^(evaluate|explain):/.test(e.message) ? `\n${String(e.stack).split('\n').slice(1, 4).join('\n')}` : ''}`;

function sameBits(a, b) {
  if (a.length !== b.length) return `length ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return `element ${i}: ${a[i]} vs ${b[i]}`;
  return null;
}

function compareCase(seed, fused, ref, what) {
  if (fused.dtype !== ref.dtype) return `${what}: dtype ${fused.dtype} vs ${ref.dtype}`;
  if (JSON.stringify(fused.shape) !== JSON.stringify(ref.shape)) return `${what}: shape (${fused.shape}) vs (${ref.shape})`;
  if (fused.data.constructor !== ref.data.constructor) return `${what}: array ${fused.data.constructor.name} vs ${ref.data.constructor.name}`;
  const d = sameBits(fused.data, ref.data);
  return d && `${what}: ${d}`;
}

const operandsOf = (g) => Object.fromEntries(g.inputs.map((i) => [i.name, i.value]));
const SEEDS = process.env.EXPR_SEED ? [Number(process.env.EXPR_SEED)] : Array.from({ length: 2500 }, (_, i) => 1000 + i);

describe('evaluate equals the op-by-op composition (random trees)', () => {
  it(`${SEEDS.length} random trees over random shapes and all 12 dtypes: bit for bit, same shape and dtype`, () => {
    const failures = [];
    const seen = { dtypes: new Set(), ops: new Set(), ran: 0, refused: 0, many: 0, zeroSize: 0, rank0: 0 };
    for (const seed of SEEDS) {
      const { g, root, dtype } = randomCase(seed);
      let ref;
      let refError = null;
      try { ref = root.ref(); } catch (e) { refError = e; }
      let fused;
      let fusedError = null;
      try { fused = tc.evaluate(root.text, operandsOf(g)); } catch (e) { fusedError = e; }
      if (refError || fusedError) {
        // Both refuse, with the same error code, or it is a failure.
        seen.refused++;
        if (!(refError && fusedError && refError.code === fusedError.code)) {
          failures.push(`${describeCase(seed, g, root)}\n  op by op: ${refError ? describeError(refError) : "ok"}; evaluate: ${fusedError ? describeError(fusedError) : "ok"}`);
        }
        continue;
      }
      const d = compareCase(seed, fused, ref, 'result');
      if (d) failures.push(`${describeCase(seed, g, root)}\n  ${d}`);
      if (fused.dtype !== dtype) failures.push(`${describeCase(seed, g, root)}\n  dtype ${fused.dtype}, the tree's dtype is ${dtype}`);
      seen.ran++;
      if (g.inputs.length > 7) seen.many++; // more plain operands than the ops' scratch slots
      for (const i of g.inputs) seen.dtypes.add(i.dtype);
      for (const m of root.text.matchAll(/[a-zA-Z0-9]+\(|[-+*/%<>=!&|^~?]+/g)) seen.ops.add(m[0]);
      if (fused.data.length === 0) seen.zeroSize++;
      if (fused.shape.length === 0) seen.rank0++;
      if (failures.length >= 10) break;
    }
    expect(failures.join('\n\n')).toBe('');
    if (SEEDS.length > 1) {
      // The trees are well typed: nearly all run (a refusal is a clash of broadcast shapes, on both paths).
      expect(seen.ran).toBeGreaterThan(SEEDS.length * 0.9);
      expect(seen.many).toBeGreaterThan(20);
      expect([...seen.dtypes].sort()).toEqual([...ALL].sort());
      expect(seen.zeroSize).toBeGreaterThan(0);
      expect(seen.rank0).toBeGreaterThan(0);
      // Every op the generator knows appears at least once, by name or by its operator.
      for (const op of [...SAME_ANY, ...SAME_FLOAT, ...UNARY_FLOAT, 'where(', 'cast(', '?', '**', '&&', '~', '!']) {
        expect([...seen.ops].some((s) => s.startsWith(op) || s === op || s === `${op}(`), op).toBe(true);
      }
    }
    expect(tc.memory().liveTensors).toBe(0);
  });

  // A reduction wrapping a random tree against the op-by-op result reduced by the
  // library's own reductions. Integer and float results alike are compared bit for bit.
  const REDUCE_SEEDS = process.env.EXPR_SEED ? SEEDS : Array.from({ length: 800 }, (_, i) => 50_000 + i);
  it(`${REDUCE_SEEDS.length} reductions (sum, prod, min, max, mean) of random trees, over all axes, some axes, keepdims: bit for bit`, () => {
    const failures = [];
    let ran = 0;
    const refusals = {};
    for (const seed of REDUCE_SEEDS) {
      const { g, root } = randomCase(seed);
      const r = prng(seed ^ 0x5bd1e995);
      const op = r.pick(['sum', 'prod', 'min', 'max', 'mean']);
      // The axes are drawn for the tree's own rank (its operands may not reach the drawn output rank);
      // one case in 10 names an axis out of range, which both paths must refuse alike.
      let e0 = null;
      try { e0 = root.ref(); } catch { /* refused op by op: the evaluate call below must refuse too */ }
      const rank = e0 ? e0.shape.length : g.out.length;
      let axes = null;
      if (r.next() < 0.1) axes = [rank + r.int(2)];
      else if (rank > 0 && r.next() < 0.7) {
        axes = [];
        for (let a = 0; a < rank; a++) if (r.next() < 0.5) axes.push(r.next() < 0.3 ? a - rank : a);
        if (axes.length === 0) axes.push(r.int(rank));
      }
      const keepdims = r.next() < 0.3;
      const text = `${op}(${root.text}${axes ? `, [${axes.join(', ')}]` : ''})`;
      let ref;
      let refError = null;
      try {
        const e = root.ref();
        ref = tc[op](e, { ...(axes ? { axes } : {}), keepdims });
      } catch (e) { refError = e; }
      let fused;
      let fusedError = null;
      try { fused = tc.evaluate(text, operandsOf(g), { keepdims }); } catch (e) { fusedError = e; }
      const extra = ` [as ${text}, keepdims ${keepdims}]`;
      if (refError || fusedError) {
        const why = (refError ?? fusedError).message.replace(/\n[^]*/, '').replace(/^[^:]*: /, '').slice(0, 60);
        refusals[why] = (refusals[why] ?? 0) + 1;
        if (!(refError && fusedError && refError.code === fusedError.code)) {
          failures.push(`${describeCase(seed, g, root, extra)}\n  op by op: ${refError ? describeError(refError) : "ok"}; evaluate: ${fusedError ? describeError(fusedError) : "ok"}`);
        }
        continue;
      }
      ran++;
      const d = compareCase(seed, fused, ref, op);
      if (d) failures.push(`${describeCase(seed, g, root, extra)}\n  ${d}`);
      if (failures.length >= 10) break;
    }
    expect(failures.join('\n\n')).toBe('');
    if (REDUCE_SEEDS.length > 1) expect(ran, JSON.stringify(refusals)).toBeGreaterThan(REDUCE_SEEDS.length * 0.8);
    expect(tc.memory().liveTensors).toBe(0);
  });
});

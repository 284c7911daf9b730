// Property test of the fused-expression API: random expression trees (depth ≤ 5)
// over random broadcastable shapes (rank 0–4, with 1s and 0s) and all 12 dtypes,
// evaluated with evaluate() and with the op-by-op composition of the library's
// own functions (add, less, where, cast, neg, sqrt, ...). The two must agree bit
// for bit (Object.is per element, so NaN where NaN and -0 where -0), in shape and
// dtype. A reduction wrapping a random tree is checked against the op-by-op result
// reduced by sum/prod/min/max/mean.
//
// Scalars: every dtype against numbers and BigInts at the edges of the 64-bit
// integers (±2^63, ±2^64 and their neighbours, negative numbers over bigint64 and
// biguint64, BigInts beyond 64 bits), as operands and as literals in the text, must
// mean what the same scalar means to the op (swept, then drawn by fast-check).
// Reduction axes in every literal form (decimal, 0x1, -(1), -+1, 1.0, lists, a
// fraction or an out-of-range axis refused as the op refuses it), drawn by fast-check
// against the reductions' own `axes` option.
//
// A failing seed prints the expression, the operands' shapes and dtypes: rerun
// one with EXPR_SEED=<seed>. fast-check prints its own seed and path.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
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


// ---- programs: statements and reductions inside expressions ---------------------------
// Random trees in which a subtree may be a reduction (sum, prod, min, max; mean over floats,
// whose integer mean is float64) over its last axis or its first, keeping the axes (it
// broadcasts back) or dropping them (NumPy's alignment then decides), or a statement of its
// own (`s0 = ...;`, read by name, once or more). The program must equal, bit for bit, the
// same ops called one by one (the library's reductions with { axes, keepdims }), or refuse
// with the same code.
class ProgGen extends Gen {
  constructor(r) {
    super(r);
    this.statements = [];
    this.named = [];
  }

  node(dtype, depth) {
    const r = this.r;
    const k = r.next();
    if (depth > 0 && k < 0.14) return this.reduction(dtype, depth);
    if (depth > 0 && k < 0.22) return this.statement(dtype, depth);
    const same = this.named.filter((n) => n.dtype === dtype);
    if (same.length && k < 0.27) return r.pick(same);
    return super.node(dtype, depth);
  }

  reduction(dtype, depth) {
    const r = this.r;
    const op = r.pick(['sum', 'prod', 'min', 'max', ...(isFloat(dtype) ? ['mean'] : [])]);
    const a = this.node(dtype, depth - 1);
    let rank = 0;
    try { rank = refOf(a).shape.length; } catch { rank = 1; } // refused op by op: the program must refuse too
    const axes = rank === 0 ? null : [r.next() < 0.7 ? -1 : 0];
    const keepdims = r.next() < 0.75;
    const text = `${op}(${a.text}${axes ? `, [${axes[0]}]` : ''}${axes && (keepdims || r.next() < 0.5) ? `, ${keepdims}` : ''})`;
    const kd = axes ? keepdims : false;
    return { text, dtype, ref: () => tc[op](refOf(a), { ...(axes ? { axes } : {}), keepdims: kd }) };
  }

  statement(dtype, depth) {
    const a = this.node(dtype, depth - 1);
    const name = `s${this.statements.length}`;
    this.statements.push(`${name} = ${a.text}`);
    let memo = null;
    const n = { text: name, dtype, ref: () => (memo ??= refOf(a)) };
    this.named.push(n);
    return n;
  }
}

describe('programs (statements, reductions inside) equal the op-by-op composition', () => {
  const PROGRAM_SEEDS = process.env.EXPR_SEED ? SEEDS : Array.from({ length: 1200 }, (_, i) => 90_000 + i);
  it(`${PROGRAM_SEEDS.length} random programs over random shapes and all 12 dtypes: bit for bit, or the same refusal`, () => {
    const failures = [];
    const seen = { ran: 0, refused: 0, programs: 0, statements: 0, nested: 0, dropped: 0, resident: 0 };
    for (const seed of PROGRAM_SEEDS) {
      const r = prng(seed);
      let g;
      let root;
      for (;;) {
        g = new ProgGen(r);
        root = g.node(r.pick(ALL), 2 + r.int(4));
        if (root.constant === undefined && g.inputs.length > 0) break;
      }
      const text = [...g.statements, root.text].join('; ');
      const isProgram = g.statements.length > 0 || /(sum|prod|min|max|mean)\(/.test(root.text);
      if (!isProgram) continue;
      seen.programs++;
      if (g.statements.length) seen.statements++;
      if (/, (true|false)\)/.test(text)) seen.nested++;
      if (/, false\)|\[0\]\)/.test(text)) seen.dropped++;
      // One case in 4 with every operand resident (the passes' results are then resident too, and freed).
      const resident = r.next() < 0.25;
      const made = [];
      const operands = Object.fromEntries(g.inputs.map((i) => {
        if (!resident) return [i.name, i.value];
        const t = tc.tensor(i.value.data, i.value.shape, i.dtype === 'float16' ? { dtype: 'float16' } : undefined);
        made.push(t);
        return [i.name, t];
      }));
      if (resident) seen.resident++;
      let ref;
      let refError = null;
      try { ref = root.ref(); } catch (e) { refError = e; }
      let got;
      let gotError = null;
      try { got = tc.evaluate(text, operands); } catch (e) { gotError = e; }
      const where = `seed ${seed}: ${text}\n  operands: ${g.inputs.map((i) => `${i.name}: ${i.dtype} (${i.shape.join(',')})`).join(', ')}${resident ? ' (resident)' : ''}`;
      if (refError || gotError) {
        seen.refused++;
        if (!(refError && gotError && refError.code === gotError.code)) failures.push(`${where}\n  op by op: ${refError ? describeError(refError) : 'ok'}; evaluate: ${gotError ? describeError(gotError) : 'ok'}`);
      } else {
        seen.ran++;
        const fused = got instanceof tc.Tensor ? { dtype: got.dtype, shape: got.shape, data: got.toArray() } : got;
        const d = compareCase(seed, fused, ref, 'result');
        if (d) failures.push(`${where}\n  ${d}`);
        if (resident && !(got instanceof tc.Tensor)) failures.push(`${where}\n  resident operands, but the result is not a Tensor`);
        if (got instanceof tc.Tensor) got.dispose();
      }
      for (const t of made) t.dispose();
      if (tc.memory().liveTensors !== 0) failures.push(`${where}\n  ${tc.memory().liveTensors} tensors left alive`);
      if (failures.length >= 10) break;
    }
    expect(failures.join('\n\n')).toBe('');
    if (PROGRAM_SEEDS.length > 1) {
      expect(seen.ran).toBeGreaterThan(seen.programs * 0.6);
      for (const k of ['statements', 'nested', 'dropped', 'resident']) expect(seen[k], k).toBeGreaterThan(40);
    }
  });
});

// ---- scalars at the edges of the 64-bit integers --------------------------------------
// A scalar means in evaluate() what it means to the op: operands.js scalarOperand stores a
// number as a typed array of the other operand's dtype stores it (BigInt(v) for the 64-bit
// integers, which refuses a non-integer), and a BigInt as BigInt64Array / BigUint64Array
// store it (modulo 2^64) or, for every other dtype, as its Number(). A literal in the text
// means what the same value passed as an operand means; a negative literal is `-` applied
// to the literal (neg of the stored value), which is the stored negative value for every
// dtype (uint8clamped: both 0).
const TWO63 = 2n ** 63n;
const TWO64 = 2n ** 64n;
const EDGE_BIGINTS = [0n, 1n, -1n, 5n, -3000n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 128n + 7n, 2n ** 1100n, -(2n ** 1100n)];
for (const b of [TWO63, TWO64]) for (const sign of [1n, -1n]) for (const d of [-1n, 0n, 1n]) EDGE_BIGINTS.push(sign * b + d);
const EDGE_NUMBERS = [-1, -2, -3000, -0, 0, 0.5, -0.5, -2.5, 1.5, 255.5, 256, -129, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32 + 3,
  -(2 ** 53), 2 ** 53 + 2, -(2 ** 63), -(2 ** 63) - 4096, 2 ** 63, 2 ** 64, -(2 ** 64), 2 ** 64 + 4096, -(2 ** 64) - 4096,
  1e20, -1e20, 1e300, -1e300, NaN, Infinity, -Infinity];
// The ops a scalar meets (the bitwise ones over integer dtypes only: on floats the op's refusal
// is a TypeError, the expression's a DTYPE_MISMATCH naming the node).
const SCALAR_OPS = ['add', 'sub', 'mul', 'maximum', 'minimum', 'less', 'equal', 'bitwiseXor', 'bitwiseAnd', 'floorDiv'];
const opFor = (op, dtype) => (isFloat(dtype) && op.startsWith('bitwise') ? 'sub' : op);

/** `v` as the text of a literal (`style` picks decimal or hex), or null (NaN and ±Infinity are names, not literals). */
function literalText(v, style) {
  const neg = typeof v === 'bigint' ? v < 0n : v < 0 || Object.is(v, -0);
  const a = neg ? -v : v;
  if (typeof a === 'number' && !Number.isFinite(a)) return null;
  let t;
  if (typeof a === 'bigint') t = style === 1 ? `0x${a.toString(16)}n` : style === 2 ? `0b${a.toString(2)}n` : `${a}n`;
  else t = style === 1 && Number.isInteger(a) && a <= Number.MAX_SAFE_INTEGER ? `0x${a.toString(16)}` : String(a);
  return neg ? `(-${t})` : t;
}

const operandOf = (dtype, data) => (dtype === 'float16' ? { data, shape: [data.length], dtype } : { data, shape: [data.length] });
const SYM = { add: '+', sub: '-', mul: '*', less: '<', equal: '==', bitwiseXor: '^', bitwiseAnd: '&' };

/** evaluate() of `x op k` in `form` against tc[op]: null when they agree (results or refusals). */
function scalarCase(dtype, v, op0, form, style, data) {
  const op = opFor(op0, dtype);
  const X = operandOf(dtype, data);
  const left = form.endsWith('left');
  let text;
  let operands;
  if (form.startsWith('literal')) {
    const lit = literalText(v, style);
    if (lit === null) return null;
    operands = { x: X };
    text = left ? (SYM[op] ? `${lit} ${SYM[op]} x` : `${op}(${lit}, x)`) : (SYM[op] ? `x ${SYM[op]} ${lit}` : `${op}(x, ${lit})`);
  } else {
    operands = { x: X, k: v };
    text = left ? (SYM[op] ? `k ${SYM[op]} x` : `${op}(k, x)`) : (SYM[op] ? `x ${SYM[op]} k` : `${op}(x, k)`);
  }
  let ref;
  let refError = null;
  try { ref = left ? tc[op](v, X) : tc[op](X, v); } catch (e) { refError = e; }
  let got;
  let gotError = null;
  try { got = tc.evaluate(text, operands); } catch (e) { gotError = e; }
  const what = `${dtype} ${text} with k = ${typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : v}, x = [${Array.from(data)}]`;
  if (refError || gotError) {
    if (refError && gotError && refError.constructor === gotError.constructor && refError.code === gotError.code) return null;
    return `${what}\n  op: ${refError ? describeError(refError) : 'ok'}; evaluate: ${gotError ? describeError(gotError) : 'ok'}`;
  }
  const d = compareCase(0, got, ref, 'result');
  return d && `${what}\n  ${d}: [${Array.from(got.data)}] vs op [${Array.from(ref.data)}]`;
}

/** Four elements of `dtype` with its extremes. */
function edgeData(dtype, seed) {
  const r = prng(seed);
  const a = randomData(r, dtype, 4);
  if (dtype === 'bigint64') a[0] = -(2n ** 63n);
  else if (dtype === 'biguint64') a[0] = 2n ** 64n - 1n;
  else if (!isFloat(dtype)) a[0] = 1;
  return a;
}

describe('scalars mean in evaluate() what they mean to the op: numbers and BigInts at ±2^63, ±2^64, over every dtype', () => {
  it(`every dtype × ${EDGE_NUMBERS.length} numbers and ${EDGE_BIGINTS.length} BigInts (±2^63, ±2^64 and ±1 beside them, beyond 64 bits), as operands and as literals`, () => {
    const failures = [];
    let compared = 0;
    for (const dtype of ALL) {
      const data = edgeData(dtype, 7);
      for (const v of [...EDGE_NUMBERS, ...EDGE_BIGINTS]) {
        const k = compared++;
        for (const form of ['operand', 'literal']) {
          const f = scalarCase(dtype, v, SCALAR_OPS[k % SCALAR_OPS.length], form, k % 3, data);
          if (f) failures.push(f);
        }
        // The issue's cases, op by op: add and mul on both sides.
        for (const [op, form] of [['add', 'operand-left'], ['mul', 'literal-left']]) {
          const f = scalarCase(dtype, v, op, form, (k + 1) % 3, data);
          if (f) failures.push(f);
        }
      }
      if (failures.length >= 10) break;
    }
    expect(failures.slice(0, 10).join('\n\n')).toBe('');
    expect(compared).toBe(ALL.length * (EDGE_NUMBERS.length + EDGE_BIGINTS.length));
    expect(tc.memory().liveTensors).toBe(0);
  });

  it('the issue\'s cases: x * k + s over bigint64 with negative numbers; 2^63 over float64; 2^64 + 5 over int32; 0xFFFFFFFFFFFFFFFFn over biguint64', () => {
    const b = { data: BigInt64Array.of(10n, 20n), shape: [2] };
    expect(Array.from(tc.evaluate('x * k + s', { x: b, k: -2, s: -3000 }).data)).toEqual([-3020n, -3040n]);
    expect(Array.from(tc.evaluate('x * -2 + -3000', { x: b }).data)).toEqual([-3020n, -3040n]);
    const f = { data: Float64Array.of(0, 1), shape: [2] };
    expect(Array.from(tc.evaluate('x + k', { x: f, k: 2n ** 63n }).data)).toEqual(Array.from(tc.add(f, 2n ** 63n).data));
    expect(tc.evaluate('x + k', { x: f, k: 2n ** 63n }).data[0]).toBe(2 ** 63);
    expect(tc.evaluate('x + 9223372036854775808n', { x: f }).data[0]).toBe(2 ** 63);
    const i = { data: Int32Array.of(0, 1), shape: [2] };
    expect(Array.from(tc.evaluate('x + k', { x: i, k: 2n ** 64n + 5n }).data)).toEqual([0, 1]);
    expect(Array.from(tc.evaluate('x + 18446744073709551621n', { x: i }).data)).toEqual([0, 1]);
    const u = { data: BigUint64Array.of(5n, 2n ** 64n - 1n), shape: [2] };
    expect(Array.from(tc.evaluate('u & 0xFFFFFFFFFFFFFFFFn', { u }).data)).toEqual([5n, 2n ** 64n - 1n]);
    expect(Array.from(tc.evaluate('u + 0x1_0000_0000_0000_0001n', { u }).data)).toEqual([6n, 0n]);
  });

  it('fast-check: random dtypes, integers and BigInts around ±2^63 and ±2^64, ops and forms', () => {
    const around = (b) => fc.bigInt({ min: b - 4096n, max: b + 4096n });
    const big = fc.oneof(around(TWO63), around(-TWO63), around(TWO64), around(-TWO64), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }));
    const num = fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }),
      big.map((b) => Number(b)),
      fc.double({ noNaN: false }),
      fc.constantFrom(...EDGE_NUMBERS),
    );
    fc.assert(fc.property(
      fc.constantFrom(...ALL), fc.oneof(num, big), fc.constantFrom(...SCALAR_OPS),
      fc.constantFrom('operand', 'operand-left', 'literal', 'literal-left'), fc.nat(2), fc.nat(1000),
      (dtype, v, op, form, style, seed) => {
        const f = scalarCase(dtype, v, op, form, style, edgeData(dtype, seed));
        if (f) throw new Error(f);
      },
    ), { seed: 0x7c0ffee, numRuns: 1500 });
    expect(tc.memory().liveTensors).toBe(0);
  });
});

// ---- reduction axes in every literal form ---------------------------------------------
/** The literal forms of integer axis `a` in an expression's text (each one means `a` in JavaScript). */
function axisForms(a) {
  const m = Math.abs(a);
  const neg = a < 0 || Object.is(a, -0);
  const s = neg ? '-' : '';
  return [
    String(a),
    `${s}0x${m.toString(16)}`, `${s}0X${m.toString(16).toUpperCase()}`, `${s}0o${m.toString(8)}`, `${s}0b${m.toString(2)}`,
    neg ? `-(${m})` : `-(-${m})`, neg ? `-+${m}` : `+${m}`, neg ? `- - -${m}` : `- -${m}`,
    `(${a})`, `((${a}))`, neg ? `- ( ${m} )` : `+ ( ${m} )`, neg ? `-(+(${m}))` : `-(-(+${m}))`,
    `${a}.0`, `${a}.`, `${a}e0`, `${s}${m * 10}e-1`, m === 0 ? `${s}0e5` : `${s}${m}_0e-1`,
  ];
}
/** Fractional axes, as text (each a JS number that is no integer). */
const FRACTIONS = [['1.5', 1.5], ['-0.5', -0.5], ['0.5', 0.5], ['-(1.5)', -1.5], ['-+0.25', -0.25], ['1e-1', 0.1], ['.5', 0.5], ['2.000001', 2.000001]];
/** Axes out of any range the op takes, as text. */
const HUGE = [['1e300', 1e300], ['-1e300', -1e300], ['4294967296', 4294967296], ['-0x8000_0000', -2147483648], ['9007199254740993', 9007199254740992]];

describe('reduction axes in every literal form mean what the same number means to the reductions', () => {
  const X4 = (shape) => ({ data: Float64Array.from({ length: shape.reduce((p, d) => p * d, 1) }, (_, i) => ((i * 7) % 11) - 3.5), shape });

  function axesCase(op, shape, entries, list, keepdims) {
    // entries: [text, value]; a single entry outside a list is `sum(x, a)` and { axes: a }.
    const text = `${op}(x, ${list ? `[${entries.map((e) => e[0]).join(', ')}]` : entries[0][0]})`;
    const axes = list ? entries.map((e) => e[1]) : entries[0][1];
    const X = X4(shape);
    let ref;
    let refError = null;
    try { ref = tc[op](X, { axes, keepdims }); } catch (e) { refError = e; }
    let got;
    let gotError = null;
    try { got = tc.evaluate(text, { x: X }, { keepdims }); } catch (e) { gotError = e; }
    const what = `${text} over (${shape}), keepdims ${keepdims}; op axes ${JSON.stringify(axes)}`;
    if (refError || gotError) {
      if (refError && gotError && refError.code === gotError.code && refError.code === 'INVALID_AXIS') return null;
      return `${what}\n  op: ${refError ? describeError(refError) : 'ok'}; evaluate: ${gotError ? describeError(gotError) : 'ok'}`;
    }
    const d = compareCase(0, got, ref, op);
    return d && `${what}\n  ${d}`;
  }

  it('every form of every axis of ranks 1 to 4, alone and in lists: as the op; fractions and out-of-range axes INVALID_AXIS as the op', () => {
    const failures = [];
    let n = 0;
    for (let rank = 1; rank <= 4; rank++) {
      const shape = [2, 3, 1, 2].slice(0, rank);
      for (let a = -rank - 1; a <= rank; a++) {
        const forms = axisForms(a);
        for (let i = 0; i < forms.length; i++) {
          const op = ['sum', 'prod', 'min', 'max', 'mean'][(n++) % 5];
          const f = axesCase(op, shape, [[forms[i], a]], i % 2 === 1, i % 3 === 0);
          if (f) failures.push(f);
        }
      }
      for (const entry of [...FRACTIONS, ...HUGE]) {
        const f = axesCase('sum', shape, [entry], false, false) ?? axesCase('mean', shape, [['0', 0], entry], true, true);
        if (f) failures.push(f);
      }
    }
    expect(failures.slice(0, 10).join('\n\n')).toBe('');
    expect(n).toBeGreaterThan(200);
  });

  it('the issue\'s cases: sum(x, 1.5) and sum(x, -0.5) are INVALID_AXIS; -0x1, -(1), -+1 and [-(1), 0] fold', () => {
    const x = X4([2, 3]);
    for (const t of ['1.5', '-0.5', '[0, 1.5]', '[-(0.5)]']) {
      let e = null;
      try { tc.evaluate(`sum(x, ${t})`, { x }); } catch (err) { e = err; }
      expect(e, t).toBeInstanceOf(tc.BroadcastError);
      expect(e.code, t).toBe('INVALID_AXIS');
      expect(e.message, t).toMatch(/is not an integer axis/);
    }
    for (const t of ['-0x1', '-(1)', '-+1', '-1']) expect(Array.from(tc.evaluate(`sum(x, ${t})`, { x }).data), t).toEqual(Array.from(tc.sum(x, { axes: -1 }).data));
    expect(Array.from(tc.evaluate('sum(x, [-(1), 0])', { x }).data)).toEqual(Array.from(tc.sum(x, { axes: [-1, 0] }).data));
    // What cannot be an axis is said as such.
    let e = null;
    try { tc.evaluate('sum(x, -x)', { x }); } catch (err) { e = err; }
    expect(e).toBeInstanceOf(SyntaxError);
    expect(e.message).toMatch(/"-x" is not an axis: a reduction's axes are integer literals/);
  });

  it('fast-check: random shapes, reductions, keepdims and lists of axes in random forms (fractions, repeats, out of range)', () => {
    const entry = (rank) => fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: -rank - 1, max: rank }).chain((a) => fc.constantFrom(...axisForms(a)).map((t) => [t, a])) },
      { weight: 1, arbitrary: fc.constantFrom(...FRACTIONS, ...HUGE) },
    );
    const arb = fc.integer({ min: 0, max: 4 }).chain((rank) => fc.record({
      shape: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: rank, maxLength: rank }),
      op: fc.constantFrom('sum', 'prod', 'min', 'max', 'mean'),
      list: fc.boolean(),
      entries: fc.array(entry(rank), { minLength: 1, maxLength: Math.max(1, rank + 1) }),
      keepdims: fc.boolean(),
    }));
    fc.assert(fc.property(arb, ({ shape, op, list, entries, keepdims }) => {
      const f = axesCase(op, shape, list ? entries : entries.slice(0, 1), list, keepdims);
      if (f) throw new Error(f);
    }), { seed: 0xa11e5, numRuns: 600 });
    expect(tc.memory().liveTensors).toBe(0);
  });
});

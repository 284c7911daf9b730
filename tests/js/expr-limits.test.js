// The documented limits of an expression (docs/expressions.md "Errors and limits":
// 65,536 characters, 4,096 nodes, nesting 256 deep), reached in every shape a tree
// can take: a left chain (as deep as it is long: x+x+...+x of 4,096 nodes is 2,047
// levels), a right chain, a balanced tree, nested calls, where and cast chains, a
// reduction around them. At the limit each one runs and equals the op-by-op
// composition (or a plain JS computation); one past it is refused with the
// documented SyntaxError. Nothing traps the wasm instance (a walk that recursed per
// node overflowed its stack from about 900 terms, and every later call trapped too):
// after every case, success or refusal, the engine holds what it held before and
// still computes.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const T = (data, shape) => ({ data, shape });
const X = () => T(Float64Array.of(1, 2, 0.5), [3]);
const xs = [1, 2, 0.5];

let base;
beforeAll(() => { base = tc.memory(); });
afterEach(() => {
  const m = tc.memory();
  const was = base;
  base = m;
  expect(m.liveTensors, 'live tensors').toBe(was.liveTensors);
  expect(m.allocatedBytes, 'allocated bytes').toBe(was.allocatedBytes);
  stillWorks();
});

/** A normal call after whatever came before: the module is usable. */
function stillWorks() {
  expect(Array.from(tc.evaluate('a * 2 + b', { a: T(Float32Array.of(1, 2), [2]), b: 1 }).data)).toEqual([3, 5]);
  expect(Array.from(tc.add(T(Int32Array.of(1, 2), [2]), 3).data)).toEqual([4, 5]);
}

const LIMITS = { chars: 65536, nodes: 4096, depth: 256 };

function limitsAreTheContract() {
  const l = tc.contract().limits;
  expect(l.maxExpressionLength).toBe(LIMITS.chars);
  expect(l.maxExpressionNodes).toBe(LIMITS.nodes);
  expect(l.maxExpressionDepth).toBe(LIMITS.depth);
}

/** evaluate(text) over x = [1, 2, 0.5] (float64), per element against `want(x)`. */
function runs(text, want, operands = { x: X() }) {
  const r = tc.evaluate(text, operands);
  const got = Array.from(r.data);
  const expected = typeof want === 'function' ? xs.map(want) : want;
  expect(got.length, text.slice(0, 60)).toBe(expected.length);
  got.forEach((v, i) => expect(Object.is(v, expected[i]), `${text.slice(0, 60)}…: element ${i}: ${v} vs ${expected[i]}`).toBe(true));
  return r;
}

/** The SyntaxError of a text past a limit, with the documented message. */
function refused(text, message) {
  let e = null;
  try { tc.evaluate(text, { x: X() }); } catch (err) { e = err; }
  expect(e, text.slice(0, 60)).toBeInstanceOf(SyntaxError);
  expect(e.message).toMatch(message);
  stillWorks();
  return e;
}
const TOO_MANY = /more than 4096 nodes/;
const TOO_DEEP = /nested more than 256 levels deep/;

// Trees with their node count and value: { text, nodes, f(x) }.
const leaf = { text: 'x', nodes: 1, f: (x) => x };
const neg = (a) => ({ text: `-(${a.text})`, nodes: a.nodes + 1, f: (x) => -a.f(x) });
const bin = (a, op, b) => ({
  text: `${a.text}${op}${b.text}`, nodes: a.nodes + b.nodes + 1,
  f: op === '+' ? (x) => a.f(x) + b.f(x) : op === '-' ? (x) => a.f(x) - b.f(x) : (x) => a.f(x) * b.f(x),
});
const paren = (a) => ({ ...a, text: `(${a.text})` });
/** A left chain t op t op ... of `n` copies of term t (no parentheses: left-associative). */
function leftChain(t, n, op = '+') {
  let text = t.text;
  for (let i = 1; i < n; i++) text += op + t.text;
  const f = (x) => { let v = t.f(x); const w = t.f(x); for (let i = 1; i < n; i++) v = op === '+' ? v + w : v - w; return v; };
  return { text, nodes: n * t.nodes + (n - 1), f };
}
/** A right chain t op (t op (t op ...)) of `n` copies. */
function rightChain(t, n, op = '-') {
  let text = t.text;
  for (let i = 1; i < n; i++) text = `${t.text}${op}(${text})`;
  const f = (x) => { let v = t.f(x); for (let i = 1; i < n; i++) v = op === '+' ? t.f(x) + v : t.f(x) - v; return v; };
  return { text, nodes: n * t.nodes + (n - 1), f };
}
/** A balanced tree of 2^levels copies of t. */
function balanced(t, levels) {
  if (levels === 0) return t;
  const half = balanced(t, levels - 1);
  return bin(paren(half), levels % 2 ? '+' : '-', paren(half));
}
/** Exactly `nodes` nodes: `tree` (nodes - 1 or fewer) under as many negations as it takes. */
function padTo(tree, nodes) {
  let t = tree;
  while (t.nodes < nodes) t = neg(t);
  expect(t.nodes).toBe(nodes);
  return t;
}

describe('the documented limits, in every tree shape: at the limit it runs, past it a SyntaxError; never a trap', () => {
  it('the limits are the contract\'s', () => {
    limitsAreTheContract();
  });

  it('a left chain x+x+…+x of 4,096 nodes (2,047 levels deep) runs; 4,097 nodes are refused', () => {
    // The issue's case first: 900 terms (1,799 characters) trapped with "memory access out of bounds".
    runs(leftChain(leaf, 900).text, (x) => 900 * x);
    const c = leftChain(leaf, 2048); // 4,095 nodes
    expect(c.nodes).toBe(4095);
    runs(c.text, c.f);
    const at = padTo(leftChain(leaf, 2048), 4096); // -(x+x+...)
    runs(at.text, at.f);
    runs(`-x${'+x'.repeat(2047)}`, (x) => 2046 * x); // 2 + 2 * 2,047 = 4,096 nodes, no parentheses
    refused(`-(-x)${'+x'.repeat(2047)}`, TOO_MANY);
    const e = refused(`x${'+x'.repeat(2048)}`, TOO_MANY);
    // The excerpt under the message shows at most 80 characters of the span it marks (the whole
    // text here, 4,097 characters: it was all printed, with as many carets).
    const [, line, carets] = e.message.split('\n');
    expect(e.length).toBe(4097);
    expect(line).toBe(`  ${'x+'.repeat(40)}…`);
    expect(carets).toBe(`  ${'^'.repeat(80)}`);
    // Every operator level along the chain (each op of the left chain is left-associative).
    for (const op of ['-', '*', '/', '%']) {
      const r = tc.evaluate(`x${`${op}x`.repeat(2047)}`, { x: X() });
      expect(r.shape, op).toEqual([3]);
    }
    // Comparisons and logical ops give uint8: a chain of them over uint8.
    const u = T(Uint8Array.of(0, 1, 7), [3]);
    for (const op of ['<', '==', '!=', '&&', '||', '>=']) {
      const r = tc.evaluate(`x${`${op}x`.repeat(2047)}`, { x: u });
      expect(r.dtype, op).toBe('uint8');
    }
    for (const op of ['&', '|', '^']) {
      const r = tc.evaluate(`x${`${op}x`.repeat(2047)}`, { x: T(Int32Array.of(1, 6, -3), [3]) });
      expect(Array.from(r.data), op).toEqual(op === '^' ? [0, 0, 0] : [1, 6, -3]); // 2,048 x's: x&x = x|x = x; x^x is 0, an even count of them too
    }
  });

  it('a left chain of every op kind, 4,096 nodes, over float64 and int32: equal to the op-by-op composition, bit for bit', () => {
    for (const [dtype, A] of [['float64', Float64Array], ['int32', Int32Array]]) {
      const x = T(A.of(3, -2, 7, 1), [4]);
      const y = T(A.of(1, 2, -1, 0), [4]);
      // x + y - maximum(x, y) + x * y - ...: + and - alternate (one precedence level: left to right),
      // the terms cycle through loads, calls and a product.
      const terms = [
        ['y', 1, () => y], ['maximum(x, y)', 3, () => tc.maximum(x, y)], ['x * y', 3, () => tc.mul(x, y)],
        ['minimum(y, x)', 3, () => tc.minimum(y, x)], ['x', 1, () => x], ['-y', 2, () => tc.neg(y)],
      ];
      let text = 'x';
      let ref = x;
      let nodes = 1;
      for (let k = 0; ; k++) {
        const [term, n, termRef] = terms[k % terms.length];
        if (nodes + n + 1 > 4096) break;
        text += ` ${k % 2 ? '-' : '+'} ${term}`;
        ref = tc[k % 2 ? 'sub' : 'add'](ref, termRef());
        nodes += n + 1;
      }
      expect(nodes).toBeGreaterThanOrEqual(4094);
      const got = tc.evaluate(text, { x, y });
      expect(got.dtype).toBe(dtype);
      expect(Array.from(got.data).map((v, i) => Object.is(v, ref.data[i]))).toEqual([true, true, true, true]);
      // The same program through explain: every instruction there, nothing refused.
      const plan = tc.explain({ expression: text, shapes: { x: [4], y: [4] }, dtypes: { x: dtype, y: dtype } });
      expect(plan.program.length).toBeGreaterThan(2000);
    }
  });

  it('a right chain (x-(x-(…))) is held to the depth limit: at 256 levels it runs, past it a SyntaxError, also at 4,096 nodes', () => {
    // Each level is a '-' operand and a parenthesis: 128 levels.
    const ok = rightChain(leaf, 129);
    runs(ok.text, ok.f);
    refused(rightChain(leaf, 130).text, TOO_DEEP);
    refused(rightChain(leaf, 2048).text, TOO_DEEP); // 4,095 nodes
    // ** is right-associative without parentheses: 256 levels, as op by op.
    const x = X();
    let ref = x;
    for (let i = 0; i < 256; i++) ref = tc.pow(x, ref);
    runs(`x${'**x'.repeat(256)}`, Array.from(ref.data));
    refused(`x${'**x'.repeat(257)}`, TOO_DEEP);
    refused(`x${'**x'.repeat(2047)}`, TOO_DEEP); // 4,095 nodes
  });

  it('a balanced tree of 2,048 leaves (4,095 nodes) and of 4,096 nodes runs; 4,097 nodes are refused', () => {
    const b = balanced(leaf, 11);
    expect(b.nodes).toBe(4095);
    runs(b.text, b.f);
    const at = padTo(b, 4096);
    runs(at.text, at.f);
    refused(neg(at).text, TOO_MANY);
  });

  it('nested calls: 256 deep runs, 257 is refused; a chain of calls to 4,096 nodes runs, 4,097 is refused', () => {
    const nest = (name, n) => `${name}(`.repeat(n) + 'x' + ')'.repeat(n);
    runs(nest('sqrt', 256), (x) => { let v = x; for (let i = 0; i < 256; i++) v = Math.sqrt(v); return v; });
    runs(nest('neg', 256), (x) => x);
    refused(nest('sqrt', 257), TOO_DEEP);
    refused(nest('abs', 4095), TOO_DEEP);
    // maximum(x, x) + ... : 4 nodes a term, 1,024 terms = 4,095 nodes; with a negation 4,096.
    const term = { text: 'maximum(x, x)', nodes: 3, f: (x) => x };
    const c = leftChain(term, 1024);
    expect(c.nodes).toBe(4095);
    runs(c.text, c.f);
    runs(padTo(c, 4096).text, (x) => -1024 * x);
    refused(padTo(c, 4097).text, TOO_MANY);
    // Calls nested 256 deep around a chain as deep as the node limit allows.
    // (each + of the chain is a level too: 255 calls and the chain are 256 levels)
    const inner = leftChain(leaf, 1900);
    runs(nest('neg', 255).replace('x', inner.text), (x) => -1900 * x);
    refused(nest('neg', 256).replace('x', inner.text), TOO_DEEP);
  });

  it('where and cast chains to 4,096 nodes run (and equal op by op); past it a SyntaxError; ?: nested 256 deep', () => {
    const x = T(Float64Array.of(1, 2, 0.5), [3]);
    // where(x > 1, x, 0.5) + ...: 6 nodes a term.
    const w = { text: 'where(x > 1, x, 0.5)', nodes: 6, f: (v) => (v > 1 ? v : 0.5) };
    const cw = leftChain(w, 585);
    expect(cw.nodes).toBe(4094);
    runs(cw.text, cw.f);
    runs(padTo(cw, 4096).text, cw.f);
    refused(padTo(cw, 4097).text, TOO_MANY);
    // x > 1 ? x : 0.5 as operators.
    const q = { text: '(x > 1 ? x : 0.5)', nodes: 6, f: w.f };
    runs(leftChain(q, 585).text, cw.f);
    // cast(cast(x, 'int32'), 'float64') + ...: 5 nodes a term; as op by op.
    const c = { text: "cast(cast(x, 'int32'), 'float64')", nodes: 5, f: (v) => Math.trunc(v) };
    const cc = leftChain(c, 682);
    expect(cc.nodes).toBe(4091);
    runs(cc.text, cc.f);
    runs(padTo(cc, 4096).text, (v) => -cc.f(v)); // five negations
    refused(padTo(cc, 4097).text, TOO_MANY);
    // where(...) nested in the condition of the next, a float32 round trip every other level: as op by op.
    const nested = (n) => {
      let text = 'x';
      let nodes = 1;
      let ref = x;
      for (let i = 0; i < n; i++) {
        const inner = i % 2 ? text : `cast(cast(${text}, 'float32'), 'float64')`;
        const innerNodes = i % 2 ? nodes : nodes + 4;
        text = `where(${inner} > 0.75, x, 1 - ${inner})`;
        nodes = 2 * innerNodes + 6;
        if (i % 2 === 0) ref = tc.cast(tc.cast(ref, 'float32'), 'float64');
        ref = tc.where(tc.greater(ref, 0.75), x, tc.sub(1, ref));
      }
      return { text, nodes, ref };
    };
    // The previous level appears twice in each: 8 levels are 3,146 nodes, 9 are 6,302.
    const n8 = nested(8);
    expect(n8.nodes).toBe(3146);
    runs(n8.text, Array.from(n8.ref.data));
    expect(nested(9).nodes).toBeGreaterThan(4096);
    refused(nested(9).text, TOO_MANY);
    // c ? x : c ? x : ... nests one level per '?': 256 run, 257 are refused.
    const cond = (n) => `${'x > 1 ? x : '.repeat(n)}0.5`;
    runs(cond(256), w.f);
    refused(cond(257), TOO_DEEP);
  });

  it('a reduction around a tree of 4,096 nodes runs (sum, prod, min, max, mean, with axes); 4,097 is refused', () => {
    const x2 = T(Float64Array.of(1, 2, 0.5, 4, -1, 3), [2, 3]);
    // sum(-x+x+...+x): 2 + 2 * 2,046 = 4,094 nodes and the call; with an axis 4,096; with [0] (a number and a list) 4,097.
    const chain = `-x${'+x'.repeat(2046)}`;
    for (const op of ['sum', 'prod', 'min', 'max', 'mean']) {
      const r = tc.evaluate(`${op}(${chain})`, { x: x2 });
      const ref = tc[op](tc.mul(x2, 2045));
      expect(Array.from(r.data), op).toEqual(Array.from(ref.data));
    }
    // With an axis (one number node): 4,096.
    const r = tc.evaluate(`sum(${chain}, -1)`, { x: x2 });
    expect(Array.from(r.data)).toEqual(Array.from(tc.sum(tc.mul(x2, 2045), { axes: -1 }).data));
    refused(`sum(${chain}, [0])`, TOO_MANY);
    runs(`sum(-(${chain}))`, [-2045 * 3.5]); // 4,096
    refused(`sum(-(-(${chain})))`, TOO_MANY);
  });

  it('65,536 characters run (a 4,095-node chain padded with spaces, and one long name); 65,537 are refused by length', () => {
    limitsAreTheContract();
    const c = leftChain({ text: '(x)', nodes: 1, f: (x) => x }, 2048);
    const padded = c.text.replaceAll('+', ' '.repeat(Math.floor((LIMITS.chars - c.text.length) / 2047)) + '+');
    const text = padded + ' '.repeat(LIMITS.chars - padded.length);
    expect(text.length).toBe(LIMITS.chars);
    runs(text, (x) => 2048 * x);
    refused(`${text} `, /the expression is 65537 characters long; at most 65536/);
    const name = `x${'y'.repeat(LIMITS.chars - 6)}`;
    const long = `${name} + 1`;
    expect(long.length).toBe(LIMITS.chars - 1);
    expect(Array.from(tc.evaluate(`${long} `, { [name]: X() }).data)).toEqual([2, 3, 1.5]);
    let e = null;
    try { tc.evaluate(`${long}  `, { [name]: X() }); } catch (err) { e = err; }
    expect(e).toBeInstanceOf(SyntaxError);
    expect(e.message).toMatch(/at most 65536/);
  });

  it('parentheses 256 deep run; around a chain as long as the node limit (its + a level more) 255 run, 256 are refused', () => {
    runs(`${'('.repeat(256)}x${')'.repeat(256)}`, (x) => x);
    const inner = `-x${'+x'.repeat(2047)}`;
    runs(`${'('.repeat(255)}${inner}${')'.repeat(255)}`, (x) => 2046 * x);
    refused(`${'('.repeat(256)}${inner}${')'.repeat(256)}`, TOO_DEEP);
  });

  it('refusals at the limits, one after another, leave every later call working (evaluate, compile, explain, the ops)', () => {
    const bad = [`x${'+x'.repeat(2048)}`, `${'('.repeat(257)}x${')'.repeat(257)}`, 'x'.repeat(LIMITS.chars + 1)];
    for (let round = 0; round < 3; round++) {
      for (const text of bad) {
        expect(() => tc.evaluate(text, { x: X() })).toThrow(SyntaxError);
        expect(() => tc.compile(text)).toThrow(SyntaxError);
        const plan = tc.explain({ expression: text, shapes: { x: [3] } }); // explain never throws: { ok: false, error }
        expect(plan.ok).toBe(false);
        expect(plan.error.name).toBe('SyntaxError');
        stillWorks();
      }
      // And a tree at the limit right after them.
      runs(`-x${'+x'.repeat(2047)}`, (x) => 2046 * x);
      const e = tc.compile(`-x${'+x'.repeat(2047)}`);
      expect(Array.from(e.run({ x: X() }).data)).toEqual([2046, 4092, 1023]);
    }
  });
});

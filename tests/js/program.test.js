// Programs: statements (`m = ...; e = ...; result`) and reductions inside
// expressions, with keepdims (bindings/js/program.js). Each is checked against
// the same ops called one by one, bit for bit; the random programs are in
// expr-property.test.js.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });
afterEach(() => { expect(tc.memory().liveTensors).toBe(0); });

const f32 = (...v) => new Float32Array(v);
const bits = (a) => Array.from(a.data ?? a.toArray(), (v) => (Object.is(v, -0) ? '-0' : String(v)));

/** Logits with a row of large values (a naive exp overflows there), a row with -Infinity, and ties. */
function logits() {
  const data = new Float32Array(4 * 7);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 1.7) * 5;
  data.fill(1000, 7, 10);
  data[15] = -Infinity;
  return { data, shape: [4, 7] };
}

describe('statements and reductions inside expressions', () => {
  const SOFTMAX = 'm = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)';

  it('softmax as a program: the op-by-op composition, bit for bit, and stable over large logits', () => {
    const x = logits();
    const got = tc.evaluate(SOFTMAX, { x });
    const m = tc.max(x, { axes: [-1], keepdims: true });
    const e = tc.exp(tc.sub(x, m));
    const want = tc.div(e, tc.sum(e, { axes: [-1], keepdims: true }));
    expect(got.shape).toEqual([4, 7]);
    expect(got.dtype).toBe('float32');
    expect(bits(got)).toEqual(bits(want));
    expect(got.data.every(Number.isFinite)).toBe(true);
    // Close to the library's own softmax (another summation, not the same bits).
    const s = tc.softmax(x, -1);
    for (let i = 0; i < s.data.length; i++) expect(got.data[i]).toBeCloseTo(s.data[i], 6);
  });

  it('nested reductions without statements: layer norm in one expression', () => {
    const x = logits();
    const g = { data: f32(1, 2, 0.5, -1, 1, 1, 3), shape: [7] };
    const b = { data: f32(0, 0.5, 1, 0, -1, 2, 0), shape: [7] };
    const text = '(x - mean(x, [-1], true)) / sqrt(mean((x - mean(x, [-1], true)) ** 2, [-1], true) + 1e-5) * g + b';
    const got = tc.evaluate(text, { x, g, b });
    const mu = tc.mean(x, { axes: [-1], keepdims: true });
    const d = tc.sub(x, mu);
    const v = tc.mean(tc.pow(d, 2), { axes: [-1], keepdims: true });
    const want = tc.add(tc.mul(tc.div(d, tc.sqrt(tc.add(v, 1e-5))), g), b);
    expect(bits(got)).toEqual(bits(want));
    // The mean written twice is one pass: mean, the variance, the rest.
    expect(tc.explain({ expression: text, shapes: { x: [4, 7], g: [7], b: [7] } }).passes.map((p) => p.expression))
      .toEqual([expect.stringMatching(/^mean\(x, \[-1\]\)$/), expect.stringMatching(/^mean\(\(x - _+t0\) \*\* 2, \[-1\]\)$/), expect.stringMatching(/^\(x - _+t0\) \/ sqrt\(_+t1 \+ 1e-5\) \* g \+ b$/)]);
  });

  it('a reduction\'s chunk takes whole leading axes up to 256 KiB, then as many indices of the next as fit: the same bits on either side of the bound, rows and columns, with and without a last short chunk', () => {
    const fill = (n, k) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + k) * 3 + (i % 7) * 1e-3);
    const cases = [
      // [shape, axes, the chunk axes explain() gives]
      [[64, 1024], [-1], 0], // 256 KiB: one chunk
      [[65, 1024], [-1], 1], // past it: a row a chunk
      [[3, 60, 1000], [-1], 1], // 240 KB rows of axis 1 joined, not axis 0
      [[5, 70, 1000], [-1], 2], // 280 KB: a row a chunk
      [[4, 300, 50], [1], 0], // a middle axis (columns): all of it, 240 KB
      [[30, 300, 50], [1], 1],
      [[7, 1, 3], [0, 2], 0],
      // Past the bound, a chunk takes as many indices of the axis before the reduced ones as fit
      // (the count in brackets), the last of each run what is left.
      [[50176, 3], [-1], 1], // [21845]: 2 whole chunks and 6486 rows
      [[3000, 37], [1], 1], // [1771] and 1229
      [[2, 3000, 37], [-1], 2], // the same in each of 2 outer indices: 4 chunks
      [[3000, 40, 3], [1], 1], // columns: [546] x 5 and 270
      [[129, 512, 4], [1, 2], 1], // [32] x 4 and 1 (a last chunk of one index)
      [[2, 64, 2048], [2], 2], // [32] x 2, no last short chunk
    ];
    for (const [shape, axes, chunkAxes] of cases) {
      const n = shape.reduce((a, b) => a * b, 1);
      const x = { data: fill(n, 1), shape };
      const y = { data: fill(n, 2), shape };
      const text = `sum(x * 2 - y, ${JSON.stringify(axes)}, true)`;
      expect(tc.compile(text).explain({ x: shape, y: shape }).reduce.chunkAxes, `${shape}`).toBe(chunkAxes);
      const want = tc.sum(tc.sub(tc.mul(x, 2), y), { axes, keepdims: true });
      expect(bits(tc.evaluate(text, { x, y })), `sum ${shape} over ${axes}`).toEqual(bits(want));
      const m = tc.evaluate(`mean(x, ${JSON.stringify(axes)})`, { x });
      expect(bits(m), `mean ${shape}`).toEqual(bits(tc.mean(x, { axes })));
    }
  });

  it('a reduction of an operand as it is reads it in place, chunk by chunk: the op\'s bits, every dtype, view and chunk size', () => {
    const cases = [
      // [shape, axes]: one chunk, a row a chunk (past 256 KiB), columns, all axes
      [[6, 9], [-1]], [[65, 1024], [-1]], [[5, 70, 1000], [-1]], [[30, 300, 50], [1]], [[7, 1, 3], [0, 2]], [[300, 20], [0]],
    ];
    const make = { float32: Float32Array, float64: Float64Array, int8: Int8Array, uint16: Uint16Array, int32: Int32Array };
    for (const [shape, axes] of cases) {
      const n = shape.reduce((a, b) => a * b, 1);
      for (const [dtype, C] of Object.entries(make)) {
        const data = C.from({ length: n }, (_, i) => (dtype.startsWith('float') ? Math.sin(i * 0.37) * 3 : (i * 37) % 101 - (dtype === 'uint16' ? 0 : 50)));
        if (dtype.startsWith('float') && n > 4) { data[1] = -0; data[3] = n > 100 ? -Infinity : 0; }
        const x = { data, shape };
        for (const op of ['sum', 'max', 'min', 'mean', 'prod']) {
          const text = `${op}(x, ${JSON.stringify(axes)}, true)`;
          expect(bits(tc.evaluate(text, { x })), `${text} ${dtype} ${shape}`).toEqual(bits(tc[op](x, { axes, keepdims: true })));
        }
      }
      // float16 (its sums in float32, one rounding), a resident operand, and views: a transposed
      // and a flipped one read through their strides, as the op reads them (the same bits as the
      // op on the view, which need not be those of its row-major copy); float16 views as copies.
      const f = { data: Float32Array.from({ length: n }, (_, i) => Math.cos(i * 0.11) * 4), shape };
      const h = tc.cast(f, 'float16');
      expect(bits(tc.evaluate(`sum(x, ${JSON.stringify(axes)})`, { x: h })), `float16 ${shape}`).toEqual(bits(tc.sum(h, { axes })));
      const made = [];
      try {
        const t = tc.tensor(f.data, shape);
        made.push(t);
        const v = tc.transpose(t);
        made.push(v);
        made.push(tc.evaluate(`max(x, ${JSON.stringify(axes)}, true)`, { x: t }), tc.max(t, { axes, keepdims: true }));
        expect(bits(made[2]), `resident ${shape}`).toEqual(bits(made[3]));
        const h16 = tc.cast(t, 'float16');
        made.push(h16);
        const flipped = tc.flip(t);
        made.push(flipped);
        const h16t = tc.transpose(h16);
        made.push(h16t);
        for (const [what, w] of [['transposed', v], ['flipped', flipped], ['float16 transposed', h16t]]) {
          for (const [op, ax] of [['sum', [0]], ['max', [0]], ['mean', [-1]], ['prod', axes]]) {
            const got = tc.evaluate(`${op}(x, ${JSON.stringify(ax)}, true)`, { x: w });
            made.push(got);
            made.push(tc[op](w, { axes: ax, keepdims: true }));
            expect(bits(got), `${op} over ${ax} of a ${what} view of ${shape}`).toEqual(bits(made.at(-1)));
          }
        }
      } finally {
        for (const r of made) r.dispose?.();
      }
    }
  });

  it('without keepdims the reduced axes go (NumPy), and the result broadcasts by trailing alignment', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    // sum over axis 0 gives (3): it broadcasts back over the rows.
    expect(Array.from(tc.evaluate('x / sum(x, [0])', { x }).data)).toEqual(Array.from(tc.div(x, tc.sum(x, { axes: [0] })).data));
    expect(Array.from(tc.evaluate('x / sum(x, [0], false)', { x }).data)).toEqual(Array.from(tc.div(x, tc.sum(x, { axes: [0] })).data));
    // sum over the last axis gives (2): it meets (2,3) at 3, a clash reported as the op reports it.
    let err;
    try { tc.evaluate('x - sum(x, [-1])', { x }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(tc.BroadcastError);
    expect(err.code).toBe('INCOMPATIBLE_DIMS');
    // The message quotes the node and shows the caret as written, not the passes' inner names.
    expect(err.message).toMatch(/^evaluate: "x - sum\(x, \[-1\]\)" \(offset 0\): .*\(2,3\) \(2,\)[^]*\n  x - sum\(x, \[-1\]\)\n  \^{16}$/);
    try { tc.evaluate('m = sum(x, [-1]); x - m', { x }); } catch (e) { err = e; }
    expect(err.message).toMatch(/^evaluate: "x - m" \(offset 18\): [^]*\n  m = sum\(x, \[-1\]\); x - m\n {20}\^{5}$/);
    // A node that begins or ends with a lifted reduction spans all of it (until 0.9.18 one beginning
    // with it began at the end of the reduction's inner name: "1]) + i" (offset 8)).
    const i = { data: Int32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    for (const text of ['sum(x, [1]) + i', 'i * max(x, [0, 1], true)', '2 - (mean(x) + i)', 'exp(sum(x, [1], true)) + i']) {
      const e = (() => { try { tc.evaluate(text, { x, i }); } catch (e2) { return e2; } })();
      expect(e?.code, text).toBe('DTYPE_MISMATCH');
      const node = text.startsWith('2') ? text.slice(5, -1) : text;
      const at = text.indexOf(node);
      expect(e.message, text).toContain(`evaluate: "${node}" (offset ${at}) mixes`);
      expect(e.message.endsWith(`\n  ${text}\n  ${' '.repeat(at)}${'^'.repeat(node.length)}`), e.message).toBe(true);
    }
  });

  it('a name is computed once and read by every later statement; the text need not end with the result alone', () => {
    const x = { data: f32(3, 1, 2), shape: [3] };
    // A last `;` after one statement too (until 0.9.18 only a text with statements or an inner reduction took it).
    for (const [text, want] of [['x + 1;', [4, 2, 3]], ['sum(x) ;', [6]], ['x * x;  ', [9, 1, 4]]]) {
      expect(Array.from(tc.evaluate(text, { x }).data), text).toEqual(want);
      expect(Array.from(tc.compile(text).run({ x }).data), text).toEqual(want);
    }
    expect(() => tc.evaluate('x + 1;;', { x })).toThrow(SyntaxError);
    const r = tc.evaluate('a = x * 2; b = a + 1; c = max(b, [0], true); (b - c) * a;', { x });
    expect(Array.from(r.data)).toEqual([0, -8, -8]);
  });

  it('named operands: a reduction by dim name broadcasts back by name', () => {
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['batch', 'class'] };
    const r = tc.evaluate("e = exp(x - max(x, ['class'])); e / sum(e, ['class'])", { x });
    expect(r.dims).toEqual(['batch', 'class']);
    const s = tc.softmax(x, 'class');
    for (let i = 0; i < 6; i++) expect(r.data[i]).toBeCloseTo(s.data[i], 6);
    // With keepdims the reduced dim stays, of size 1: a shared named dim, never stretched (docs/expressions.md).
    expect(() => tc.evaluate("x - max(x, ['class'], true)", { x })).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_DIMS' }));
    expect(Array.from(tc.evaluate("x - max(x, ['class'])", { x }).data)).toEqual([-2, -1, 0, -2, -1, 0]);
  });

  it('resident operands and out: every pass\'s resident result is freed, the last writes into out', () => {
    const x = tc.tensor(logits().data, [4, 7]);
    const out = tc.tensor(new Float32Array(28), [4, 7]);
    const before = tc.memory().allocatedBytes;
    const r = tc.evaluate(SOFTMAX, { x }, { out });
    expect(r).toBe(out);
    expect(tc.memory().allocatedBytes).toBe(before);
    expect(bits(out)).toEqual(bits(tc.evaluate(SOFTMAX, { x: logits() })));
    const fresh = tc.evaluate(SOFTMAX, { x });
    expect(fresh).toBeInstanceOf(tc.Tensor);
    fresh.dispose();
    // A typed out, and options.keepdims for a last statement that is a reduction without its own.
    const o = new Float32Array(4);
    tc.evaluate('e = exp(x); sum(e, [-1])', { x }, { out: o, keepdims: true });
    expect(Array.from(o)).toEqual(Array.from(tc.sum(tc.exp(logits()), { axes: [-1] }).data));
    x.dispose();
    out.dispose();
  });

  it('a pass that fails frees what the passes before it made, and the library goes on', () => {
    const x = tc.tensor(f32(1, 2, 3, 4, 5, 6), [2, 3]);
    const y = tc.tensor(f32(1, 2), [2]);
    const before = tc.memory().allocatedBytes;
    expect(() => tc.evaluate('m = max(x, [-1], true); e = exp(x - m); e + y', { x, y })).toThrow(tc.BroadcastError);
    expect(tc.memory().allocatedBytes).toBe(before);
    expect(() => tc.evaluate('m = max(x, [-1], true); m + z', { x })).toThrow(/operands has no own property "z"/);
    const r = tc.evaluate('x - max(x, [-1], true)', { x });
    expect(Array.from(r.toArray())).toEqual([-2, -1, 0, -2, -1, 0]);
    r.dispose();
    x.dispose();
    y.dispose();
  });

  it('compile() gives a program its inputs, run() and explain(); explain() lists each pass', () => {
    const P = tc.compile(SOFTMAX);
    expect(P.inputs).toEqual(['x']);
    expect(String(P)).toBe(SOFTMAX);
    const x = logits();
    expect(bits(P.run({ x }))).toEqual(bits(tc.evaluate(SOFTMAX, { x })));
    const ex = tc.explain({ expression: SOFTMAX, shapes: { x: [4, 7] } });
    expect(ex.ok).toBe(true);
    expect(ex.shape).toEqual([4, 7]);
    expect(ex.passes.map((p) => [p.name, p.expression, p.shape, p.keepdims])).toEqual([
      ['m', 'max(x, [-1])', [4, 1], true],
      ['e', 'exp(x - m)', [4, 7], false],
      [expect.stringMatching(/^_+t\d$/), 'sum(e, [-1])', [4, 1], true],
      [null, expect.stringMatching(/^e \/ _+t\d$/), [4, 7], false],
    ]);
    expect(P.explain({ x: [4, 7] }).passes).toHaveLength(4);
    const bad = P.explain({ x: [4, 7, 'q'] });
    expect(bad.ok).toBe(false);
  });

  it('a temporary name never meets an operand of the same name', () => {
    const _t0 = { data: f32(10, 20), shape: [2] };
    const x = { data: f32(1, 2), shape: [2] };
    expect(Array.from(tc.evaluate('x - max(x, [0], true) + _t0', { x, _t0 }).data)).toEqual([9, 20]);
    // explain() shows the temporary names bare, and an operand's own parentheses as written.
    const ex = tc.explain({ expression: 'sum(x, [0]) + (_t0) - sum(x, [0])', shapes: { x: [2], _t0: [2] } });
    expect(ex.passes.map((p) => p.expression)).toEqual(['sum(x, [0])', '__t0 + (_t0) - __t0']);
  });

  it('a reduction right after a name is no call of that name: a SyntaxError, as without the reduction', () => {
    // (0.9.18's first cut wrote a lifted reduction as its name in parentheses there too: `exp sum(x)`
    // ran as exp(sum(x)), and `x - mean max(x, [0], true)` threw an internal TypeError.)
    const x = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3] };
    for (const text of ['exp sum(x)', 'x + sqrt mean(x)', 'where(x > 2, exp sum(x), x)', 'sum sum(x, [0])',
      'x - mean max(x, [0], true)', 'argmax sum(x, [0])', 'y sum(x)', 'cast sum(x)']) {
      expect(() => tc.evaluate(text, { x }), text).toThrow(SyntaxError);
      expect(() => tc.compile(text), text).toThrow(SyntaxError);
      expect(tc.explain({ expression: text, shapes: { x: [2, 3] } }), text).toMatchObject({ ok: false, error: { name: 'SyntaxError' } });
    }
    expect(Array.from(tc.evaluate('x - (max(x, [0], true))', { x }).data)).toEqual([-3, -3, -3, 0, 0, 0]);
  });

  const ERRORS = [
    ['a = x; a = x; a', /"a" is assigned twice, or after it was read at offset 7/],
    ['a = b + x; b = x; a', /"b" is assigned twice, or after it was read at offset 11/],
    ['m = max(x, [-1], 2); m', /third argument \(keepdims\) is true or false at offset 15/],
    ['max(x, [-1], true) +', /the expression ends too early at offset 20/],
    ['m = max(x, [-1], true); e = exp(x - m) +* 2; e', /unexpected "\*" at offset 40/],
    ['a = x', /the last statement is the result, not an assignment at offset 0/],
    // A second `=` is the token refused (until now `x = = y` was called an assignment in the last statement, and
    // `a = b = x; a` blamed its last statement too).
    ['x = = y', /^evaluate: unexpected "=" at offset 4\n/],
    ['a = b = x; a', /^evaluate: unexpected "=" at offset 6\n/],
    // A stray quote: the string it opens ends with its statement (until now it swallowed the `;`s after it, and the
    // first statement was blamed as the last one's assignment at offset 0).
    ["a = x ' + x; b = a * 2; b - x", /^evaluate: unterminated string at offset 6\n/],
    ["a = x + 1; b = a * 2 '; b - x", /^evaluate: unterminated string at offset 21\n/],
    // A `;` inside brackets, a stray token: the syntax error in the statement, not the missing name (until now
    // `(x; - x) / x` was "each statement before the last assigns a name").
    ['(x; - x) / x', /^evaluate: the expression ends too early at offset 2\n/],
    ['sum(x, [0]; 1)', /^evaluate: the expression ends too early at offset 10\n/],
    ['a x = + x; a', /^evaluate: unexpected "x" at offset 2\n/],
    ['x + 1; x', /each statement before the last assigns a name/],
    ['y = argmax(x) + 1; y', /argmax stands only around the whole of the last statement at offset 4/],
    ['argmax(argmax(x, -1))', /argmax stands only around the whole of the last statement at offset 7/],
    ['a = x; argmin(argmax(a))', /argmax stands only around the whole of the last statement at offset 14/],
    ['a = x;; a', /an empty statement at offset 6/],
    // A fourth argument is a wrong count, whatever the third (until 0.9.21 it was blamed on the keepdims).
    ['x - sum(x, [-1], true, 1)', /^evaluate: wrong number of arguments to "sum\(x, \[-1\], true, 1\)" at offset 4\n/],
    ['m = mean(x, [0], false, x, 2); m', /^evaluate: wrong number of arguments to "mean\(x, \[0\], false, x, 2\)" at offset 4\n/],
    ['max(x, [0], false,)', /^evaluate: unexpected "\)" at offset 18\n/],
    ['sum(max(x, [-1], true) + q(x), [0])', /"q" is not a function of expressions.* at offset 25/],
    // The token quoted as the text has it, not as the pass has it (until 0.9.18 "cast(   _t0)", a name of the plan's).
    ['cast(sum(x))', /^evaluate: wrong number of arguments to "cast\(sum\(x\)\)" at offset 0\n/],
    ['x * minimum(max(x, [0]))', /^evaluate: wrong number of arguments to "minimum\(max\(x, \[0\]\)\)" at offset 4\n/],
  ];
  it.each(ERRORS)('%s: a SyntaxError placed in the text', (text, message) => {
    let err;
    try { tc.evaluate(text, { x: { data: f32(1, 2), shape: [2] } }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(SyntaxError);
    expect(err.message).toMatch(message);
    expect(err.offset).toBeGreaterThanOrEqual(0);
    expect(err.offset).toBeLessThanOrEqual(text.length);
  });

  it('argmax / argmin around the last statement: the expression as a pass, then the op, bit for bit', () => {
    const x = logits();
    const label = tc.evaluate('m = max(x, [-1], true); e = exp(x - m); argmax(e / sum(e, [-1], true), -1)', { x });
    const sm = tc.evaluate(SOFTMAX, { x });
    expect(label).toEqual(tc.argmax(sm, -1));
    expect(label.dtype).toBe('int32');
    expect(tc.evaluate('argmin(x * 2, 0, true)', { x })).toEqual(tc.argmin(tc.mul(x, 2), 0, { keepdims: true }));
    expect(tc.evaluate('argmax(x - 1)', { x })).toEqual(tc.argmax(tc.sub(x, 1))); // no axis: into the flattened x
    expect(tc.evaluate('argmax(x, 1)', { x }, { keepdims: true }).shape).toEqual([4, 1]); // keepdims as an option too
    // By dim name; into an Int32Array out; resident in, resident out (and the pass's temporary freed).
    const n = { data: x.data, shape: [4, 7], dims: ['b', 'c'] };
    const named = tc.evaluate("argmax(exp(x), 'c')", { x: n });
    expect([named.dims, Array.from(named.data)]).toEqual([['b'], Array.from(tc.argmax(x, 1).data)]);
    const out = new Int32Array(4);
    expect(tc.evaluate('argmin(x, -1)', { x }, { out }).data).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(tc.argmin(x, -1).data));
    const r = tc.tensor(x.data, x.shape);
    const t = tc.evaluate('argmax(r * r, 1)', { r });
    expect(t).toBeInstanceOf(tc.Tensor);
    expect(Array.from(t.toArray())).toEqual(Array.from(tc.argmax(tc.mul(x, x), 1).data));
    for (const v of [t, r]) v.dispose();
  });

  it('argmax and argmin stand only around the whole last statement; explain() shows them as the last pass', () => {
    const x = logits();
    for (const bad of ['argmax(x) + 1', 'y = argmax(x, 0); y', 'exp(argmin(x, 0))', 'argmax(x, 1.5)', 'argmax(x, 0, 3)', 'argmax(x, 0, true, 1)']) {
      expect(() => tc.evaluate(bad, { x }), bad).toThrow(SyntaxError);
    }
    expect(() => tc.evaluate('argmax(x, 2)', { x })).toThrow(expect.objectContaining({ code: 'INVALID_AXIS' }));
    expect(tc.add(x, 1).shape).toEqual([4, 7]); // the library goes on
    const e = tc.explain({ expression: 'e = exp(x); argmax(e / sum(e, [-1], true), -1)', shapes: { x: [4, 7] } });
    expect(e).toMatchObject({ ok: true, shape: [4], dtype: 'int32' });
    expect(e.passes.map((p) => p.name)).toEqual(['e', '_t1', '_t2', null]);
    expect(e.passes.at(-1)).toMatchObject({ expression: 'argmax(_t2, -1)', shape: [4], dtype: 'int32', broadcastShape: [4, 7], reduce: { op: 'argmax', axes: [1] } });
    // The fields of a plan are there (the pass before it runs the work): the explorer draws them.
    for (const k of ['program', 'loop', 'execution', 'operands']) expect(e[k], k).toEqual(e.passes.at(-2)[k]);
    expect(tc.explain({ expression: "argmax(x, 'c', true)", shapes: { x: { shape: [4, 7], dims: ['b', 'c'] } } })).toMatchObject({ shape: [4, 1], dims: ['b', 'c'] });
    expect(tc.explain({ expression: 'argmax(x, 3)', shapes: { x: [4, 7] } })).toMatchObject({ ok: false });
  });

  it("explain() refuses an argmax axis out of range with the run's error: its message, axis as written, no dims (until now -5 of rank 2 was axis -3, dims [2])", () => {
    const x = logits();
    const n = { ...logits(), dims: ['b', 'c'] };
    const fields = (e) => [e.name, e.code, e.axis, e.dims, e.message];
    for (const [text, ops, shapes] of [['argmax(x, -5)', { x }, { x: [4, 7] }], ['argmin(x - 1, 2, true)', { x }, { x: [4, 7] }],
      ['e = exp(x); argmax(e, -3)', { x }, { x: [4, 7] }], ["argmax(x, 'c')", { x }, { x: [4, 7] }], ['argmax(sum(x), 0)', { x }, { x: [4, 7] }],
      ["argmax(n * 2, 'zz')", { n }, { n: { shape: [4, 7], dims: ['b', 'c'] } }]]) {
      let run = null;
      try { tc.evaluate(text, ops); } catch (e) { run = e; }
      const plan = tc.explain({ expression: text, shapes });
      expect(plan.ok, text).toBe(false);
      expect(fields(plan.error), text).toEqual(fields(run));
    }
  });

  it('two reductions whose texts differ inside a string are two passes (until 0.9.15 spaces in a dim name were dropped and they were computed once)', () => {
    const n = { data: f32(1, 2, 3, 4, 5, 6), shape: [2, 3], dims: ['a b', 'ab'] };
    const got = tc.evaluate("sum(n, ['a b']) - sum(n, ['ab'])", { n });
    const want = tc.sub(tc.sum(n, { dims: ['a b'] }), tc.sum(n, { dims: ['ab'] }));
    expect([got.dims, got.shape, bits(got)]).toEqual([want.dims, want.shape, bits(want)]);
    // The same call written again, the same text, is one pass; spelt with other spaces it is a second (the same values).
    expect(tc.explain({ expression: 'sum(x, [0]) + sum(x, [0])', shapes: { x: [2, 3] } }).passes.map((p) => p.name)).toEqual(['_t0', null]);
    expect(tc.explain({ expression: 'sum(x, [0]) + sum( x,[ 0 ] )', shapes: { x: [2, 3] } }).passes.map((p) => p.name)).toEqual(['_t0', '_t1', null]);
  });

  it('a reduction written twice is one pass only when its text is the same: a twin is never parsed, so "x--y" no longer passes as a twin of "x - -y" (until 0.9.19 accepted, as "x * * y" and "1e - 3" were)', () => {
    const x = { data: f32(1, 2, 3) };
    const y = { data: f32(4, 5, 6) };
    for (const [text, at] of [['sum(x - -y) + sum(x--y)', 19], ['sum(x ** y) + sum(x * * y)', 22], ['sum(x * 1e-3) + sum(x * 1e - 3)', 24]]) {
      expect(() => tc.evaluate(text, { x, y }), text).toThrow(expect.objectContaining({ name: 'SyntaxError', offset: at }));
    }
    expect(bits(tc.evaluate('sum(x - -y) + sum(x - -y)', { x, y }))).toEqual(['42']);
  });

  it('argmax and argmin read each argument as written: "0 1", "tr ue" and an empty argument are refused (until 0.9.19 read as 01, true and the default)', () => {
    const x = { data: f32(1, 5, 3, 4, 2, 6), shape: [2, 3] };
    for (const text of ['argmax(x, 0 1)', 'argmax(x, 1, tr ue)', 'argmax(x, , true)', 'argmin(x, 1 0)']) {
      expect(() => tc.evaluate(text, { x }), text).toThrow(/takes an integer or dim name, then true or false/);
    }
    expect(Array.from(tc.evaluate('argmax( x , -1 , false )', { x }).data)).toEqual([1, 2]);
    expect(tc.evaluate('argmax(x, 1, true)', { x }).shape).toEqual([2, 1]);
  });

  it('"__proto__" is a name like any other in a program: an operand and a statement so named (until now every program refused the operand, and explain() lost the statement\'s dtype)', () => {
    const v = { data: Float64Array.of(1, 2, 3), shape: [3] };
    const ops = JSON.parse('{"__proto__": null}');
    ops.__proto__ = v; // an own property: JSON.parse defined it
    expect(Object.hasOwn(ops, '__proto__')).toBe(true);
    const want = bits(tc.sub(v, tc.max(v, { axes: [0], keepdims: true })));
    for (const text of ['__proto__ - max(__proto__, [0], true)', 'm = max(__proto__, [0], true); __proto__ - m', '__proto__ - max(__proto__, [0], true);']) {
      expect(bits(tc.evaluate(text, ops)), text).toEqual(want);
      expect(bits(tc.compile(text).run(ops)), text).toEqual(want);
      const shapes = JSON.parse('{"__proto__": [3]}');
      const dtypes = JSON.parse('{"__proto__": "float64"}');
      const x = tc.explain({ expression: text, shapes, dtypes });
      expect([x.ok, x.dtype, x.shape], text).toEqual([true, 'float64', [3]]);
    }
    expect(tc.evaluate('argmax(__proto__)', ops).data[0]).toBe(2);
    const x = { data: Float64Array.of(1, 2), shape: [2] };
    const text = '__proto__ = x * 2; __proto__ + 1';
    expect(bits(tc.evaluate(text, { x }))).toEqual(['3', '5']);
    const e = tc.explain({ expression: text, shapes: { x: [2] }, dtypes: { x: 'float64' } });
    expect(e.passes.map((p) => p.dtype)).toEqual(['float64', 'float64']);
    expect(e.dtype).toBe('float64');
  });

  it('`m=!x` assigns (until 0.9.15 `=!` was read as one operator and the statement refused)', () => {
    const x = { data: f32(0, 2, 0) };
    expect(bits(tc.evaluate('m=!x; m', { x }))).toEqual(['1', '0', '1']);
    expect(bits(tc.evaluate('m =!x; m==!x', { x }))).toEqual(['1', '1', '1']);
  });

  it('reductions nested past the depth limit, and a program past the length limit, are SyntaxErrors (until 0.9.15 a RangeError, a TypeError)', () => {
    const x = { data: f32(1, 2, 3) };
    let deep = 'x';
    for (let i = 0; i < 5000; i++) deep = `sum(${deep})`;
    for (const f of [() => tc.evaluate(deep, { x }), () => tc.compile(deep)]) {
      expect(f).toThrow(SyntaxError);
      expect(f).toThrow(/nested more than 256 levels deep at offset/);
    }
    expect(tc.explain({ expression: deep, shapes: { x: [3] } })).toMatchObject({ ok: false, error: { name: 'SyntaxError' } });
    let ok = 'x';
    for (let i = 0; i < 200; i++) ok = `sum(${ok})`;
    expect(bits(tc.evaluate(ok, { x }))).toEqual(['6']);
    const long = `a = x; a +${' '.repeat(70000)}1`;
    expect(() => tc.evaluate(long, { x })).toThrow(/the expression is 70011 characters long; at most 65536/);
    expect(tc.explain({ expression: long, shapes: { x: [3] } })).toMatchObject({ ok: false, error: { name: 'SyntaxError' } });
    expect(bits(tc.add(x, 1))).toEqual(['2', '3', '4']); // the library goes on
  });
});

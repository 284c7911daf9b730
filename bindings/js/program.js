// Programs: statements, and reductions anywhere in an expression.
//
//   m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)
//
// `;` separates statements, `name = expression` gives a value a new name, and
// the last statement is the result. A reduction (sum, prod, min, max, mean)
// may stand anywhere, with a third argument `keepdims` (true keeps the reduced
// axes as 1, so the result broadcasts back; without it they go, as NumPy's).
//
// The text is cut into passes (plan): each reduction inside a statement, the
// innermost first, and each statement is one, and each pass is one run of
// the engine's fused expressions, which fuses the element-wise work inside a
// reduction into it. A later pass reads an earlier one's result by its name,
// so a name is computed once. Each pass is what its ops called one by one
// give, so the program's result is too, bit for bit. expr.js asks plan() once
// per text (its cache): a text with no `;`, `=` or reduction call costs one
// regular-expression test, and a plain expression is then parsed as before.
import { C, none } from './contract.js';
import { excerpt } from './expr-parse.js';
import { Tensor } from './tensor.js';
import { refusedPlan } from './explain.js';
import { argmax, argmin, emptyArg, axisError } from './post.js';

const REDUCE = ['sum', 'prod', 'min', 'max', 'mean'];

// The terminal reductions, around the whole of the last statement:
// `argmax(expr, axis, keepdims)` runs expr as a pass, then post.js's function
// on its result (post.js reaches no expression module: no import circle).
const TERMINAL = { argmax, argmin };

// A token for the cut: a name (k 'n'), a number or string ('0'), a bracket, `,`, `;` or an assignment's `=`
// (itself), any other operator (itself, or 'o' for `==`, `<=` and the like).
const TOKEN = /(["'])(?:(?!\1)[^])*\1|[\w$.]+|[=<>!]=*|\S/g;
const tokens = (text) => Array.from(text.matchAll(TOKEN), ({ 0: s, index: a }) => (
  { s, a, b: a + s.length, k: /["'\d.]/.test(s[0]) ? '0' : /[\w$]/.test(s[0]) ? 'n' : s.length > 1 ? 'o' : s }));

/**
 * The plan of `text`, or null when it is a plain expression (one statement, a
 * reduction only around all of it). Each pass's text is `text` itself from the
 * pass's start to its end, with what stands for something else (a lifted
 * reduction: its name in parentheses; a keepdims argument: nothing) written over
 * in place and padded with spaces, so an offset in a pass is the same offset in
 * `text`, and a node spans in the pass what it spans in `text`.
 */
export function plan(fn, text, host) {
  if (text.length > C.limits.maxExpressionLength || !/[;=]|\b(sum|prod|min|max|mean|argmax|argmin)\s*\(/.test(text)) return null; // (over the limit: the parser refuses it)
  const toks = tokens(text);
  let prefix = '_t';
  while (text.includes(prefix)) prefix = `_${prefix}`;
  const passes = [];
  const seen = new Map(none);
  let program = false;
  const fail = (what, a, b) => {
    const e = SyntaxError(`${fn}: ${what} at offset ${a}${excerpt(text, a, b - a)}`);
    e.offset = a;
    e.length = b - a;
    throw e;
  };
  // A pass over text [a, b) with the replacements `reps` ([{ a, b, s }]).
  const pass = (name, a, b, reps, keepdims) => {
    let src = ' '.repeat(a) + text.slice(a, b);
    for (const r of reps.sort((x, y) => y.a - x.a)) src = src.slice(0, r.a) + r.s.padEnd(r.b - r.a) + src.slice(r.b);
    passes.push({ name, src, keepdims });
    return passes.at(-1);
  };

  // The call whose name is token i, within tokens [i, e): its closing bracket
  // (e when unbalanced) and its top-level commas.
  const extent = (i, e) => {
    let depth = 0;
    let close = i + 1;
    const commas = [];
    for (; close < e; close++) {
      const k = toks[close].k;
      if (k === '(' || k === '[') depth++;
      else if (k === ')' || k === ']') { if (--depth === 0) break; }
      else if (k === ',' && depth === 1) commas.push(close);
    }
    return { close, commas };
  };

  // The reduction calls in tokens [s, e): each lifted into a pass of its own, innermost
  // first, and replaced by its name, except a call that spans [s, e) when `root` (the statement's own).
  // Returns the replacements and that root call.
  const lift = (s, e, root, depth = 0) => {
    if (depth > C.limits.maxExpressionDepth) fail(`nested more than ${C.limits.maxExpressionDepth} levels deep`, toks[s - 2].a, toks[s - 2].b);
    const reps = [];
    let top = null;
    for (let i = s; i < e; i++) {
      const t = toks[i];
      if (t.k !== 'n' || toks[i + 1]?.k !== '(' || !REDUCE.includes(t.s)) continue;
      const { close, commas } = extent(i, e);
      if (close >= e) break; // unbalanced: the engine's parser says where
      const end = commas[0] ?? close;
      const call = { reps: lift(i + 2, end, false, depth + 1).reps, keepdims: undefined };
      if (commas.length > 1) {
        const kd = toks.slice(commas[1] + 1, close).map((x) => x.s).join();
        if (commas.length > 2) continue; // the engine's parser says: wrong number of arguments
        if (!/^(true|false)$/.test(kd)) fail(`${t.s}'s third argument (keepdims) is true or false`, toks[commas[1]].a, toks[close].b);
        call.keepdims = kd === 'true';
        call.reps.push({ a: toks[commas[1]].a, b: toks[close].a, s: '' });
        program = true;
      }
      if (root && i === s && close === e - 1) {
        top = call;
      } else {
        // The same call again (the same text) is the same pass: computed once, and the copy never parsed
        // (so it must be the same text: its tokens alone let 'x--y' pass as a twin of 'x - -y').
        const key = text.slice(t.a, toks[close].b);
        let name = seen.get(key);
        if (name === undefined) {
          seen.set(key, (name = prefix + passes.length));
          pass(name, t.a, toks[close].b, call.reps, call.keepdims);
        }
        // Its name in parentheses, padded to the call's length: a node around it spans, in the pass, what
        // it spans in the text (the parser's spans take the brackets in; explain() shows the name bare).
        // After a name (`exp sum(x)`: a call in parentheses) or where they do not fit with a space, the
        // name alone ends where the call ended (a node ending with it still ends there).
        const n = toks[close].b - t.a;
        reps.push({ a: t.a, b: toks[close].b, s: name.length + 3 > n || toks[i - 1]?.k === 'n' ? name.padStart(n) : `(${name.padEnd(n - 2)})` });
        program = true;
      }
      i = close;
    }
    return { reps, top };
  };

  // argmax / argmin around the whole of the last statement: { fn, s, e (its first argument's tokens), axis, keepdims }.
  function terminal(s, e, last) {
    let r = null;
    for (let i = s; i < e; i++) {
      const t = toks[i];
      if (t.k !== 'n' || toks[i + 1]?.k !== '(' || (t.s !== 'argmax' && t.s !== 'argmin')) continue;
      const { close, commas } = extent(i, e);
      if (r || !last || i !== s || close !== e - 1) fail(`${t.s} stands only around the whole of the last statement`, t.a, toks[Math.min(close, e - 1)].b);
      program = true;
      // An argument as written ('0 1' and 'tr ue' are no integer and no boolean); one left empty is refused.
      const arg = (k) => (commas[k] === undefined ? '' : text.slice(toks[commas[k]].b, toks[commas[k + 1] ?? close].a).trim() || '\0');
      const ax = arg(0);
      const kd = arg(1);
      if (commas.length > 2 || (ax !== '' && !/^(-?\d+|(["'])[^]*\2)$/.test(ax)) || (kd !== '' && !/^(true|false)$/.test(kd))) {
        fail(`${t.s}(x, axis, keepdims) takes an integer or dim name, then true or false`, t.a, toks[close].b);
      }
      r = { fn: t.s, s: i + 2, e: commas[0] ?? close, axis: ax === '' ? undefined : /^-?\d/.test(ax) ? Number(ax) : ax.slice(1, -1), keepdims: kd === '' ? undefined : kd === 'true' };
    }
    return r; // (the loop goes on through r's argument: another argmax there is refused)
  }

  const statements = [];
  for (let i = 0, from = 0; i <= toks.length; i++) {
    if (i < toks.length && toks[i].k !== ';') continue;
    statements.push([from, i]);
    from = i + 1;
  }
  if (statements.length > 1 && statements.at(-1)[0] === toks.length) { // a last `;`: a program, even of one statement (the engine's parser takes no `;`)
    statements.pop();
    program = true;
  }
  statements.forEach(([s, e], n) => {
    const last = n === statements.length - 1;
    let name = null;
    if (!last) program = true;
    if (toks[s]?.k === 'n' && toks[s + 1]?.k === '=') {
      const q = toks.slice(s + 2, e).slice(0, 2).find((t) => t.k === '='); // `x = = y`, `a = b = c`
      if (q) fail('unexpected "="', q.a, q.b);
      if (last) fail('the last statement is the result, not an assignment', toks[s].a, toks[s + 1].b);
      name = toks[s].s;
      s += 2;
    }
    const at = toks[e]?.a ?? text.length;
    if (s >= e) fail('an empty statement', at, at + 1);
    const t = terminal(s, e, last);
    if (t) {
      s = t.s;
      e = t.e;
    }
    const { reps, top } = lift(s, e, true);
    const p = pass(t ? prefix + passes.length : name, toks[s].a, toks[e - 1].b, top === null ? reps : top.reps, top?.keepdims);
    p.at = toks[s - 2];
    if (!(name || last)) p.bad = [toks[s].a, at]; // refused once it parses: a syntax error in it is the better message
    if (t) passes.push({ name: null, terminal: { fn: t.fn, input: p.name, axis: t.axis, keepdims: t.keepdims } });
  });
  if (!program) return null;
  // Each pass compiled (a syntax error shown in `text`); a name is assigned once, and never after it was read.
  const inputs = [];
  const names = new Set(none);
  for (const p of passes) {
    if (p.terminal) continue;
    try {
      // The pass as compiled (cached by its text), shown as the program: an error's offset, its
      // excerpt and the node it quotes are those of `text`.
      p.E = Object.create(host.compile(fn, p.src, text), { source: { value: text } });
    } catch (e) {
      if (e.offset === undefined) throw e;
      fail(/: ([^]*) at offset \d+/.exec(e.message)[1], e.offset, e.offset + e.length);
    }
    if (p.bad) fail('each statement before the last assigns a name', ...p.bad);
    for (const n of p.E.inputs) if (!names.has(n) && !inputs.includes(n)) inputs.push(n);
    if (p.name !== null && (names.has(p.name) || inputs.includes(p.name))) fail(`"${p.name}" is assigned twice, or after it was read`, p.at.a, p.at.b);
    names.add(p.name);
  }
  return new Program(text, passes, inputs, host);
}

/** A program, as compile() gives it: what an Expression offers (expr.js `host`: how one pass runs and is explained). */
class Program {
  constructor(text, passes, inputs, host) {
    this.source = text;
    this.passes = passes;
    this.inputs = Object.freeze(inputs);
    this.host = host;
  }

  run(operands, options) {
    return runProgram(this, 'evaluate', operands, options);
  }

  explain(shapes, options) {
    try {
      return explainProgram(this, 'explain', shapes, options);
    } catch (e) {
      return refusedPlan(e, 'numpy');
    }
  }

  toString() {
    return this.source;
  }
}

/** `values`' own entries for `names` (a missing one is left for the pass to name), in an object with no prototype: "__proto__" is a name. */
function pick(values, names, fn, what) {
  if (values === null || typeof values !== 'object') throw new TypeError(`${fn}: ${what} must be an object`);
  const o = Object.create(null);
  for (const n of names) if (Object.hasOwn(values, n)) o[n] = values[n];
  return o;
}

/**
 * Run the program's passes in order over `operands` (P.host.run runs one). Each result is named for the passes after it; the
 * resident ones are disposed at the end, whatever happens. options.out and
 * options.keepdims are the last pass's; the other options (checked by each
 * pass) every pass's.
 */
function runProgram(P, fn, operands, options) {
  const { out, keepdims, ...rest } = options ?? {};
  const env = pick(operands, P.inputs, fn, 'operands');
  const made = [];
  try {
    for (let i = 0; ; i++) {
      const p = P.passes[i];
      const last = i === P.passes.length - 1;
      const po = { ...rest, keepdims: p.keepdims ?? (last ? keepdims : undefined) };
      if (last) po.out = out;
      const T = p.terminal;
      const r = T ? TERMINAL[T.fn](env[T.input], T.axis, { keepdims: T.keepdims ?? keepdims ?? false, ...(out === undefined ? {} : { out }) })
        : P.host.run(p.E, pick(env, p.E.inputs), po);
      if (last) return r;
      env[p.name] = r;
      made.push(r);
    }
  } finally {
    for (const r of made) if (r instanceof Tensor) r.dispose();
  }
}

/**
 * explain() of a program: each pass's own explanation (P.host.explain, with
 * the shapes and dtypes of the passes before it), in `passes`;
 * the last pass's fields at the top, as for one expression.
 */
export function explainProgram(P, fn, shapesIn, options) {
  const { keepdims, dtypes: dt, ...rest } = options ?? {};
  const shapes = pick(shapesIn, P.inputs, fn, 'shapes');
  const dtypes = pick({ ...dt }, P.inputs);
  const passes = [];
  P.passes.forEach((p, i) => {
    const T = p.terminal;
    if (T) {  // the shape argmax gives: the axis removed (kept as 1 with keepdims; every axis without one)
      const x = passes.at(-1);
      if (x.ok === false) return void passes.push({ ...x, name: null });
      const kd = T.keepdims ?? keepdims ?? false;
      const ax = T.axis === undefined ? null : typeof T.axis === 'string' ? (x.dims ?? []).indexOf(T.axis) : T.axis < 0 ? T.axis + x.shape.length : T.axis;
      if (ax !== null && !(ax >= 0 && ax < x.shape.length)) throw axisError(T.fn, x, T.axis, 'is not one of its axes'); // as the run refuses it
      const axes = ax === null ? x.shape.map((_, a) => a) : [ax];
      emptyArg(T.fn, x.shape, axes); // as the run refuses it
      const keep = (a) => ax !== null && a !== ax;
      const shape = x.shape.flatMap((d, a) => (keep(a) ? [d] : kd ? [1] : []));
      const dims = x.dims && ax !== null ? x.dims.filter((_, a) => a !== ax || kd) : undefined;
      // The pass before it is what runs the work (its program, loop, execution); this one reduces its result.
      const { dims: _, ...rest } = x;
      passes.push({ ...rest, name: null, keepdims: kd, expression: `${T.fn}(${T.input}${T.axis === undefined ? '' : `, ${JSON.stringify(T.axis)}`})`, inputs: [T.input],
        broadcastShape: x.shape, shape, dtype: 'int32', ...(dims?.length ? { dims } : {}), reduce: { op: T.fn, axes, chunkAxes: 0 }, contraction: null });
      return;
    }
    const kd = p.keepdims ?? (i === P.passes.length - 1 && keepdims) ?? false;
    const x = P.host.explain(p.E, pick(shapes, p.E.inputs), { ...rest, dtypes: pick(dtypes, p.E.inputs), keepdims: kd });
    passes.push({ name: p.name, keepdims: kd, ...x, expression: p.src.trim().replace(/\((_+t\d+) +\)/g, '$1').replace(/\s+(?=[,)\]])|(?<=[([])\s+/g, '').replace(/\s+/g, ' ') });
    shapes[p.name] = x.dims ? { dims: x.dims, shape: x.shape } : x.shape;
    dtypes[p.name] = x.dtype;
  });
  return { ...passes.at(-1), expression: P.source, inputs: [...P.inputs], passes };
}

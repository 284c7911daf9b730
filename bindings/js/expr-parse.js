// Expressions, step one: the text parsed once (src/expr/parse.cpp) into what
// every run reuses (its packed text, operand names, literals and reduction),
// and the SyntaxError of a text the engine's parser refuses, with the offset
// and a caret under the token.
import { C } from './contract.js';
import { begin, call, header, requestBuffer } from './execute.js';

// ---- syntax errors ---------------------------------------------------------------------
// SyntaxCode (src/expr/parse.hpp), in order.
const SYNTAX = [
  null,
  (t) => `unexpected character ${quote(t)} (\\u{${t.codePointAt(0).toString(16)}})`, // its code: a no-break or zero-width space shows as nothing
  (t) => `unexpected ${quote(t)}`,
  () => 'the expression ends too early',
  (t) => `${quote(t)} is not a function of expressions (the element-wise ops, unary ops, where, cast, sum, prod, min, max, mean, argmax, argmin)`,
  (t) => `wrong number of arguments to ${quote(t)}`,
  (t) => `${quote(t)} cannot stand here: strings name a dtype (cast's second argument) or a dim (a reduction's axes), and lists hold a reduction's axes`,
  () => 'a unary operator cannot be the left operand of ** (JavaScript refuses -x ** 2): write (-x) ** 2 or -(x ** 2)',
  (t) => `malformed number ${quote(t)}`,
  () => 'unterminated string',
  null, // a reduction inside: not reached (program.js lifts every reduction inside out of its expression)
  () => null, // too long: its own message
  () => `more than ${C.limits.maxExpressionNodes} nodes`,
  () => `nested more than ${C.limits.maxExpressionDepth} levels deep`,
  () => `more than ${C.limits.maxExpressionInputs} distinct operand names`,
  (t) => `${quote(t)} is not an axis: a reduction's axes are integer literals (1, -1, 0x1, -(1)), dim names ('c') or a list of them ([0, -1])`,
];

export const quote = (t) => (t.length > 40 ? `"${t.slice(0, 37)}..."` : JSON.stringify(t));

/** The text around `pos` with a caret under [pos, pos + len). */
export function excerpt(text, pos, len) {
  const from = Math.max(0, pos - 40);
  const to = Math.min(text.length, pos + Math.min(Math.max(len, 1), 40) + 40);
  const line = (from > 0 ? '…' : '') + text.slice(from, to).replace(/[\r\n\t]/g, ' ') + (to < text.length ? '…' : '');
  const lead = (from > 0 ? 1 : 0) + pos - from;
  return `\n  ${line}\n  ${' '.repeat(lead)}${'^'.repeat(Math.max(1, Math.min(len, to - pos)))}`;
}

function syntaxError(fn, text, code, pos, len) {
  const token = text.slice(pos, pos + len);
  const what = SYNTAX[code]?.(token) ?? 'syntax error';
  const e = SyntaxError(`${fn}: ${what} at offset ${pos}${excerpt(text, pos, len)}`);
  e.offset = pos;
  e.length = len;
  return e;
}

// ---- parsing (once per text) -----------------------------------------------------------

/** The text as the request carries it: its length, then UTF-16 units, 4 per double. */
function pack(text) {
  const n = text.length;
  const packed = new Float64Array(1 + Math.ceil(n / 4));
  packed[0] = n;
  const u = new Uint16Array(packed.buffer, 8, Math.ceil(n / 4) * 4);
  for (let i = 0; i < n; i++) u[i] = text.charCodeAt(i);
  return packed;
}

/**
 * A number literal's value as JavaScript gives it (the engine checked its syntax):
 * separators dropped, a BigInt literal's value as a number (Number() of the
 * whole BigInt; its bits modulo 2^64 are the engine's), and in an axis position
 * the signs and parentheses the engine folded into it (`-1`, `-(1)`, `-+0x1`).
 */
function literalValue(t) {
  const s = t.replace(/[\s_]/g, '');
  let b = 0;
  let e = s.length;
  let neg = false;
  for (; s[b] === '-' || s[b] === '+' || s[b] === '('; b++) if (s[b] === '-') neg = !neg;
  while (s[e - 1] === ')') e--;
  const lit = s.slice(b, e);
  const v = lit.endsWith('n') ? Number(BigInt(lit.slice(0, -1))) : Number(lit);
  return neg ? -v : v;
}

export function parseText(fn, text, shown = text) {
  if (text.length > C.limits.maxExpressionLength) {
    const e = SyntaxError(`${fn}: the expression is ${text.length} characters long; at most ${C.limits.maxExpressionLength}`);
    e.offset = 0;
    e.length = 0;
    throw e;
  }
  const packed = pack(text);
  const p = begin(packed.length);
  const h = requestBuffer();
  header(h, C.A.parse, 0, -1, 0);
  h.set(packed, p);
  const res = call(p + packed.length);
  const code = res.next();
  const pos = res.next();
  const len = res.next();
  if (code !== 0) throw syntaxError(fn, shown, code, pos, len); // (a program's pass: its token as the program's text has it)
  const n = res.next();
  const inputs = [];
  for (let k = 0; k < n; k++) {
    const q = res.next();
    inputs.push(text.slice(q, q + res.next()));
  }
  const nLit = res.next();
  const literals = new Float64Array(nLit);
  for (let k = 0; k < nLit; k++) {
    const q = res.next();
    literals[k] = literalValue(text.slice(q, q + res.next()));
  }
  let reduce = null;
  const op = res.next();
  if (op >= 0) {
    const count = res.next();
    let axes = null;
    if (count >= 0) {
      axes = [];
      for (let i = 0; i < count; i++) {
        const kind = res.next();
        const a = res.next();
        const b = res.next();
        axes.push(kind === 1 ? { name: text.slice(a, a + b) } : { value: literalValue(text.slice(a, a + b)), pos: a, len: b });
      }
    }
    reduce = { op: [...C.reduceOps.keys()][op], axes };
  }
  return { packed, inputs, reduce, literals };
}

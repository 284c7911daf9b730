// Text a person typed (dim names, coordinate labels, an expression, and the
// library's messages that quote them) going into the code "Copy as code"
// writes. One function per language and per place: a string literal or a
// comment, in JavaScript or Python. Every interpolation of text into a
// snippet goes through one of them (web/code.js), and every snippet is
// assembled by jsSource / pySource, which escape whatever is left over, so no
// typed character can end a comment or a string early and turn the rest of a
// line into code.
//
// What ends a line: JavaScript's line terminators are LF, CR, U+2028 and
// U+2029 (a `//` comment ends at any of them); Python's tokenizer ends a line
// at LF and CR, refuses NUL, and tools that split text with str.splitlines()
// (consoles, notebooks) also break at VT, FF, U+001C–U+001E, U+0085, U+2028
// and U+2029. So neither language sees any of these raw: every control
// character (C0, DEL, C1), format character (bidi overrides, zero-width
// marks, BOM), line and paragraph separator, surrogate, private-use and
// unassigned code point is written as an escape. Comments also get `*/`
// broken (`*\/`, so a line comment never closes a block comment around it)
// and, in Python, `coding:` / `coding=` (a comment on line 1 or 2 that names
// an encoding changes how the whole file is decoded).
//
// Pure functions, no DOM (unit-tested in web/escape.test.js).

/** Every character the generated code never holds raw. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/gu;

const hex = (n, width) => n.toString(16).toUpperCase().padStart(width, '0');

const JS_SHORT = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r' };
const PY_SHORT = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A JavaScript escape of one code point (a lone surrogate stays one code unit). */
function jsEscape(c) {
  if (JS_SHORT[c]) return JS_SHORT[c];
  const cp = c.codePointAt(0);
  return cp > 0xffff ? `\\u{${hex(cp, 4)}}` : `\\u${hex(cp, 4)}`;
}

/** A Python escape of one code point. */
function pyEscape(c) {
  if (PY_SHORT[c]) return PY_SHORT[c];
  const cp = c.codePointAt(0);
  if (cp <= 0xff) return `\\x${hex(cp, 2)}`;
  return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
}

/**
 * A JavaScript string literal of `s`: single quotes unless `s` holds one and
 * no double quote; backslashes and the quote escaped, and every unsafe
 * character as an escape (\n, \u2028, …).
 */
export function jsString(s) {
  const text = String(s);
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`).replace(UNSAFE, jsEscape);
  return `${q}${body}${q}`;
}

/** A Python string literal of `s` (single-quoted, escaped as jsString is). */
export function pyString(s) {
  const body = String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(UNSAFE, pyEscape);
  return `'${body}'`;
}

/** Comment text for JavaScript: one line, whatever `text` holds. */
export function jsCommentText(text) {
  return String(text).replace(UNSAFE, jsEscape).replace(/\*\//g, '*\\/');
}

/** Comment text for Python: one line, whatever `text` holds. */
export function pyCommentText(text) {
  return String(text).replace(UNSAFE, pyEscape).replace(/\*\//g, '*\\/').replace(/(coding)([:=])/gi, (_, w, c) => `${w}\\x${hex(c.charCodeAt(0), 2)}`);
}

/** A JavaScript line comment: `// text`, on one line. */
export function jsComment(text) {
  return `// ${jsCommentText(text)}`;
}

/** A Python comment: `# text`, on one line. */
export function pyComment(text) {
  return `# ${pyCommentText(text)}`;
}

/**
 * A JavaScript program from its lines (null lines left out). Any unsafe
 * character still raw is written as its \u escape: in a string, a template or
 * a comment, that is the same program; anywhere else it would be a syntax
 * error, never a line break. The generators escape on their own; this is the
 * net under them.
 */
export function jsSource(lines) {
  return lines.filter((l) => l !== null && l !== undefined).join('\n')
    .replace(UNSAFE, (c) => (c === '\n' ? c : `\\u${c.length > 1 ? `{${hex(c.codePointAt(0), 4)}}` : hex(c.charCodeAt(0), 4)}`));
}

/**
 * A Python program from its lines (null lines left out), with the same net as
 * jsSource (Python escapes), and no encoding declaration on its first two lines.
 */
export function pySource(lines) {
  const code = lines.filter((l) => l !== null && l !== undefined).join('\n').replace(UNSAFE, (c) => (c === '\n' ? c : pyEscape(c)));
  // Python reads an encoding from a comment on line 1 or 2 (`# coding: utf-7`, say): never let one stand there.
  return code.split('\n').map((l, i) => (i < 2 && /^[ \t\f]*#/.test(l) ? l.replace(/(coding)([:=])/g, (_, w, c) => `${w}\\x${hex(c.charCodeAt(0), 2)}`) : l)).join('\n');
}

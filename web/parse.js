// What a person types as a shape, parsed: the shape text reader that the page
// state (state.js) and the expression mode (expression.js) share. No DOM, no globals.

/** The longest shape, mapping or operand text the page reads (and a link keeps). */
export const MAX_TEXT = 400;

const INT = /^-?\d+$/;
const INTERVAL = /^\d*\.\.\d*$/;
export const UNKNOWN_RANK = '[...]';

export function stripBrackets(s) {
  const t = s.trim();
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('(') && t.endsWith(')'))) {
    return { inner: t.slice(1, -1), bracketed: true };
  }
  return { inner: t, bracketed: false };
}

/**
 * Parse a shape typed by a person. Accepts `8,1,6,1`, `8 1 6 1`, `[2,3]`,
 * `(3,)`, `()` or `[]` (a scalar), dims `?` and `2..5`, `-1` (meaningful in a
 * Broadcast target), and `[...]` or `...` for a shape of unknown rank.
 * Returns { ok: true, shape } or { ok: false, error }. Never evaluates text.
 */
export function parseShape(text) {
  if (typeof text !== 'string') return { ok: false, error: 'a shape must be text' };
  const t = text.trim();
  if (t === '') return { ok: false, error: 'empty: type dims like 2,3 — or () for a scalar' };
  if (t.length > MAX_TEXT) return { ok: false, error: 'too long' };
  const { inner } = stripBrackets(t);
  if (inner.trim() === '...') return { ok: true, shape: UNKNOWN_RANK };
  if (/[[\]()]/.test(inner)) return { ok: false, error: 'unbalanced or nested brackets: write one shape like [2, 3]' };
  const tokens = inner.split(/[\s,]+/).filter((x) => x !== '');
  if (/,\s*,/.test(inner)) return { ok: false, error: 'an empty dim between two commas' };
  if (/^\s*,/.test(inner)) return { ok: false, error: 'an empty dim before the first comma' };
  const shape = [];
  for (const tok of tokens) {
    if (INT.test(tok)) {
      const n = Number(tok);
      if (!Number.isSafeInteger(n)) return { ok: false, error: `${tok} is too large: dims go up to 2^53−1` };
      shape.push(n === 0 ? 0 : n); // no -0
    } else if (tok === '?') {
      shape.push('?');
    } else if (INTERVAL.test(tok)) {
      shape.push(tok);
    } else {
      return { ok: false, error: `"${tok}" is not a dim: use a number, ? or an interval like 2..5 (names such as batch: the model explorer, tensorcast/model)` };
    }
  }
  if (shape.length > 32) return { ok: false, error: `rank ${shape.length}: at most 32 dims` };
  return { ok: true, shape };
}

/** Parse an axes mapping: `1, 2`, `[1,2]`, or empty for a scalar input. */
export function parseMapping(text) {
  if (typeof text !== 'string') return { ok: false, error: 'an axes mapping must be text' };
  const { inner } = stripBrackets(text);
  if (/[[\]()]/.test(inner)) return { ok: false, error: 'unbalanced or nested brackets' };
  if (/^\s*,|,\s*,/.test(inner)) return { ok: false, error: 'an empty entry before a comma' };
  const tokens = inner.split(/[\s,]+/).filter((x) => x !== '');
  const mapping = [];
  for (const tok of tokens) {
    if (!INT.test(tok) || !Number.isSafeInteger(Number(tok))) {
      return { ok: false, error: `"${tok}" is not an axis: the mapping lists one output axis per input axis, like 1, 2` };
    }
    mapping.push(Number(tok));
  }
  if (mapping.length > 33) return { ok: false, error: 'too many entries' };
  return { ok: true, mapping };
}

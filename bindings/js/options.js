// Option objects: refused when they hold a key the function does not take
// (a misspelling must not silently select a default), and read once.
import { describe } from './operands.js';

const EMPTY = Object.freeze({});
const FLAGS = ['keepdims', 'largest', 'sorted']; // options that are true or false
const BROADCAST_KEYS = ['type', 'axis'];

/**
 * The options the caller passed, as a plain object with only `keys`, each read
 * once. TypeError for a non-object, an unknown own key (listing the accepted
 * ones), or a flag that is not a boolean.
 */
export function readOptions(options, fn, keys) {
  if (options === undefined) return EMPTY;
  checkKeys(options, fn, keys);
  const o = {};
  for (const k of keys) {
    const v = (o[k] = options[k]);
    if (v !== undefined && typeof v !== 'boolean' && FLAGS.includes(k)) throw new TypeError(`${fn}: ${k} must be a boolean`);
  }
  return o;
}

/**
 * TypeError unless `options` is an object whose keys (own and inherited
 * enumerable) are all in `keys`. Runs no getter: the caller then reads each
 * key it takes once, directly (the hot calls; readOptions() for the others).
 */
export function checkKeys(options, fn, keys, suffix = '') {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw notOptions(fn, suffix);
  for (const k in options) {
    // keys[0], the most used option, is accepted without a search.
    if (k !== keys[0] && !keys.includes(k)) throw unknownOption(fn, suffix, k, keys);
  }
}

// The errors of checkKeys, apart: a small function is one V8 inlines into its callers.
function notOptions(fn, suffix) {
  return TypeError(`${fn}${suffix}: options must be an object`);
}

function unknownOption(fn, suffix, k, keys) {
  return TypeError(`${fn}${suffix}: unknown option "${k}"; accepted: ${keys.join(', ')}`);
}

/**
 * options.broadcast `bc`, checked (its keys, without running a getter) for the caller to read its
 * type and axis once: {} when it is not given; a TypeError unless it is { type, axis } (no other key).
 */
export function readBroadcast(bc, fn) {
  if (bc === undefined) return EMPTY;
  if (bc === null || typeof bc !== 'object') throw new TypeError(`${fn}: options.broadcast must be { type, axis }`);
  checkKeys(bc, fn, BROADCAST_KEYS, ': options.broadcast');
  return bc;
}

/** The refusal of a broadcast type or axis given with named operands (§6: they align by name, never by position). */
export const byName = (fn) => TypeError(`${fn}: options.broadcast applies to positional operands; named operands align by name (options.shaping)`);

/**
 * A named choice (rule, mode, shaping): `value` must be one of the map's own
 * keys (never an inherited one such as 'toString'); undefined or null give `dflt`.
 */
export function choose(value, map, dflt, fn, what) {
  const v = value ?? dflt;
  if (typeof v === 'string' && map.has(v)) return v;
  const names = [...map.keys()].map((k) => `'${k}'`);
  throw new TypeError(`${fn}: ${what} must be ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}, got ${describe(v)}`);
}

// The broadcast explorer's pure logic: parsing what a person types, the page
// state and its URL form, the explain() request built from it, suggestions on
// failure, the memory view and the data preview's read indices.
//
// Nothing here decides whether shapes broadcast: every verdict comes from the
// library's explain(). Suggestions are candidates that are only kept after the
// library accepted them (see `suggest`, which is handed the library).
// No DOM, no globals: everything is unit-tested under Vitest in Node.
//
// Shapes are printed and dtypes listed by the library itself (its
// formatShape/formatDim and DTYPES, filled by init()), never by a copy here.
import { formatShape, formatDim, DTYPES, contract, reductionAxes } from 'tensorcast';

export { formatShape, formatDim };

export const OPERAND_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const MAX_OPERANDS = 8;

/** Operand letter: A, B, C, ... */
export function letter(i) {
  return i < OPERAND_LETTERS.length ? OPERAND_LETTERS[i] : `#${i}`;
}

// ---- rules -------------------------------------------------------------------

/** The rules the "Rule" select offers; `group` is its <optgroup>. */
export const RULES = [
  { value: 'numpy', label: 'numpy — NumPy, ONNX', group: 'Element-wise', spec: '§1', hint: 'Right-aligned; a 1 stretches, other dims must be equal. Any number of operands.' },
  { value: 'none', label: 'none — identical shapes only', group: 'Element-wise', spec: '§2', hint: 'OpenVINO NONE: no implicit broadcasting at all.' },
  { value: 'pdpd', label: 'pdpd — PaddlePaddle, with axis', group: 'Element-wise', spec: '§3', hint: 'B is aligned into A at the axis; the result is always A’s shape.' },
  { value: 'to-numpy', label: 'Broadcast numpy — −1 keeps a dim', group: 'Broadcast op: input → target', spec: '§4.1, §5', hint: 'np.broadcast_to; a −1 in the target keeps the input’s dim (MindSpore, torch expand).' },
  { value: 'to-explicit', label: 'Broadcast explicit — axes mapping', group: 'Broadcast op: input → target', spec: '§4.2', hint: 'Input axis i goes to output axis mapping[i].' },
  { value: 'to-bidirectional', label: 'Broadcast bidirectional — Expand', group: 'Broadcast op: input → target', spec: '§4.3', hint: 'ONNX Expand: input * ones(target); the target may grow too.' },
  { value: 'to-pdpd', label: 'Broadcast pdpd — at an axis', group: 'Broadcast op: input → target', spec: '§4.4', hint: 'The input is aligned into the target starting at the axis.' },
  { value: 'named', label: 'named — dims matched by name', group: 'Named dimensions', spec: '§6', hint: 'Missing dims broadcast; a shared dim is never stretched, whatever its size.' },
];
const RULE_VALUES = new Set(RULES.map((r) => r.value));
export const SHAPINGS = ['intersection', 'exact', 'union'];

/**
 * The library's dtypes with their element size and typed-array name, in the
 * engine's order: [{ name, size, array }]. Empty before init().
 */
let dtypeCache = { from: null, list: [] };
export function dtypeList() {
  if (!DTYPES.length) return [];
  if (dtypeCache.from !== DTYPES) { // DTYPES is replaced (not mutated) when init() fills it
    const info = new Map(contract().dtypes.map((d) => [d.name, d]));
    dtypeCache = { from: DTYPES, list: DTYPES.map((name) => ({ name, size: info.get(name)?.size ?? null, array: info.get(name)?.array ?? null })) };
  }
  return dtypeCache.list;
}

/** Bytes per element of a dtype the library knows, else null. */
export function itemSize(dtype) {
  return dtypeList().find((d) => d.name === dtype)?.size ?? null;
}

export function isBroadcastTo(rule) {
  return rule.startsWith('to-');
}

/** How many operands a rule takes: null = any number (numpy), else exactly 2. */
export function operandArity(rule) {
  return rule === 'numpy' ? null : 2;
}

/** Whether the rule has an `axis` (the Axis slider). */
export function usesAxis(rule) {
  return rule === 'pdpd' || rule === 'to-pdpd';
}

/** What each operand is called for a rule: ["A", "B"] or, for the Broadcast op, input and target. */
export function operandRole(rule, i) {
  if (isBroadcastTo(rule)) return i === 0 ? 'input' : i === 1 ? 'target' : 'unused';
  if (rule !== 'numpy' && i >= 2) return 'unused';
  return null;
}

// ---- parsing -----------------------------------------------------------------

const INT = /^-?\d+$/;
const INTERVAL = /^\d*\.\.\d*$/;
export const UNKNOWN_RANK = '[...]';

function stripBrackets(s) {
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
  if (t.length > 400) return { ok: false, error: 'too long' };
  const { inner } = stripBrackets(t);
  if (inner.trim() === '...') return { ok: true, shape: UNKNOWN_RANK };
  if (/[[\]()]/.test(inner)) return { ok: false, error: 'unbalanced or nested brackets: write one shape like [2, 3]' };
  const tokens = inner.split(/[\s,]+/).filter((x) => x !== '');
  if (/,\s*,/.test(inner)) return { ok: false, error: 'an empty dim between two commas' };
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
      return { ok: false, error: `"${tok}" is not a dim: use a number, ? or an interval like 2..5` };
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

const NAME = /^[^\s,{}[\]()]+$/;

/**
 * Parse dim names for a named operand: `x, y`, or with coordinate labels
 * `X{x1,x2}, t`. Returns { ok, dims, coords } (coords null when no labels).
 */
export function parseDimNames(text) {
  if (typeof text !== 'string') return { ok: false, error: 'dim names must be text' };
  let { inner } = stripBrackets(text);
  inner = inner.trim();
  const dims = [];
  let coords = null;
  let i = 0;
  while (i < inner.length) {
    while (i < inner.length && /[\s,]/.test(inner[i])) i++;
    if (i >= inner.length) break;
    let j = i;
    while (j < inner.length && !/[\s,{}]/.test(inner[j])) j++;
    const name = inner.slice(i, j);
    if (!name) return { ok: false, error: `unexpected "${inner[i]}": write names like x, y or X{x1,x2}` };
    if (!NAME.test(name)) return { ok: false, error: `"${name}" is not a dim name` };
    if (dims.includes(name)) return { ok: false, error: `dim name "${name}" appears twice` };
    dims.push(name);
    i = j;
    while (i < inner.length && inner[i] === ' ') i++;
    if (inner[i] === '{') {
      const close = inner.indexOf('}', i);
      if (close < 0) return { ok: false, error: `"{" after ${name} is not closed` };
      const body = inner.slice(i + 1, close);
      if (/[{]/.test(body)) return { ok: false, error: 'nested braces' };
      const labels = body.split(',').map((l) => l.trim()).filter((l) => l !== '');
      coords ??= {};
      coords[name] = labels;
      i = close + 1;
    } else if (inner[i] === '}') {
      return { ok: false, error: 'a "}" without "{"' };
    }
  }
  if (dims.length > 32) return { ok: false, error: 'at most 32 dims' };
  return { ok: true, dims, coords };
}

// ---- formatting --------------------------------------------------------------

/** The text a shape input shows for a shape: `8, 1, 6, 1`; `()` for a scalar. */
export function shapeToText(shape) {
  if (shape === UNKNOWN_RANK) return '[...]';
  if (shape.length === 0) return '()';
  return shape.map(formatDim).join(', ');
}

/** A list of numbers (strides, a mapping) as `[24, 0, 4]`. */
export function formatList(list) {
  return `[${list.map(String).join(', ')}]`;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An exact count as a Number when it is a safe integer, else as a BigInt. */
function exact(b) {
  return b <= MAX_SAFE && b >= -MAX_SAFE ? Number(b) : b;
}

/** Digits in groups of three: "1234567" -> "1,234,567" (exact, never rounded). */
function groupDigits(text) {
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * 1234567 -> "1,234,567". BigInts and decimal strings (explain's `sizeText`)
 * print exactly, whatever their size; only a Number that is not a safe
 * integer (an approximate ratio) uses exponent form.
 */
export function formatCount(n) {
  if (typeof n === 'bigint') return groupDigits(n.toString());
  if (typeof n === 'string' && /^\d+$/.test(n)) return groupDigits(n);
  if (n === null || n === undefined || Number.isNaN(n) || typeof n !== 'number') return '?';
  if (!Number.isFinite(n)) return '∞';
  if (Number.isSafeInteger(n)) return groupDigits(String(n));
  if (n > Number.MAX_SAFE_INTEGER) return n.toExponential(2).replace('e+', 'e');
  return Math.round(n).toLocaleString('en-US');
}

/**
 * The exact element count of a plan: explain's `size` when it is a safe
 * integer, else its `sizeText` as a BigInt; null when there is none (dynamic).
 */
export function planSize(plan) {
  if (!plan) return null;
  if (typeof plan.size === 'number') return plan.size;
  if (typeof plan.sizeText === 'string' && /^\d+$/.test(plan.sizeText)) return exact(BigInt(plan.sizeText));
  return null;
}

/** Bytes in B / KiB / MiB / GiB / TiB / PiB; past 2^53 bytes, the exact count in B. */
export function formatBytes(n) {
  if (typeof n === 'bigint') {
    if (n > MAX_SAFE) return `${groupDigits(n.toString())} B`;
    n = Number(n);
  }
  if (n === null || n === undefined || Number.isNaN(n)) return '?';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return u === 0 ? `${formatCount(v)} B` : `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[u]}`;
}

// ---- state and URL -------------------------------------------------------------

/** The "Copy as code" tabs, in order; the first is the default. */
export const CODE_TABS = ['tensorcast', 'numpy', 'torch', 'openvino'];

/**
 * The page state. Shapes, names and the mapping are kept as the text the
 * person typed, so the URL reproduces exactly what they saw.
 */
export function defaultState() {
  return {
    rule: 'numpy',
    shapes: ['8, 1, 6, 1', '7, 1, 5'],
    names: ['', ''],
    axis: -1,
    mapping: '',
    shaping: 'intersection',
    dtype: 'float32',
    code: CODE_TABS[0],
    backward: false,
  };
}

/**
 * The state as the screen shows it: only what the rule uses. A rule with two
 * operands keeps two shapes; names and shaping belong to named dims, the axis
 * to the pdpd rules, the mapping to explicit mode. Switching rule goes through
 * here, so nothing the new rule does not show lingers (in the page or the URL).
 */
export function canonicalState(state) {
  const d = defaultState();
  const rule = RULE_VALUES.has(state.rule) ? state.rule : d.rule;
  let shapes = [...state.shapes];
  if (operandArity(rule) !== null) shapes = shapes.slice(0, operandArity(rule));
  while (shapes.length < 2) shapes.push('1');
  shapes = shapes.slice(0, MAX_OPERANDS);
  const names = rule === 'named' ? shapes.map((_, i) => state.names[i] ?? '') : shapes.map(() => '');
  return {
    rule,
    shapes,
    names,
    axis: usesAxis(rule) ? state.axis : d.axis,
    mapping: rule === 'to-explicit' ? state.mapping : d.mapping,
    shaping: rule === 'named' ? state.shaping : d.shaping,
    dtype: state.dtype,
    code: CODE_TABS.includes(state.code) ? state.code : d.code,
    backward: state.backward === true,
  };
}

function enc(v) {
  // Keep the characters shapes use readable in the address bar.
  return encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%20/g, '+').replace(/%5B/gi, '[').replace(/%5D/gi, ']')
    .replace(/%7B/gi, '{').replace(/%7D/gi, '}').replace(/%3F/gi, '?');
}

/**
 * State -> query string (without "?"): the canonical state only, defaults
 * left out, so no parameter of another rule survives a switch.
 */
export function stateToQuery(state) {
  const s = canonicalState(state);
  const d = defaultState();
  const parts = [`rule=${enc(s.rule)}`];
  for (const x of s.shapes) parts.push(`s=${enc(x)}`);
  if (s.rule === 'named') for (const n of s.names) parts.push(`n=${enc(n)}`);
  if (s.axis !== d.axis) parts.push(`axis=${s.axis}`);
  if (s.mapping !== d.mapping) parts.push(`map=${enc(s.mapping)}`);
  if (s.shaping !== d.shaping) parts.push(`shaping=${enc(s.shaping)}`);
  if (s.dtype !== d.dtype) parts.push(`dtype=${enc(s.dtype)}`);
  if (s.code !== d.code) parts.push(`code=${enc(s.code)}`);
  if (s.backward) parts.push('back=1');
  return parts.join('&');
}

/**
 * Query string (with or without "?") -> canonical state; anything unknown
 * falls back to the default. The dtype must be one of the library's DTYPES
 * (so call this after init()).
 */
export function stateFromQuery(query) {
  const state = defaultState();
  if (typeof query !== 'string') return state;
  const p = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  if (![...p.keys()].length) return state;
  const rule = p.get('rule');
  if (rule !== null && RULE_VALUES.has(rule)) state.rule = rule;
  const shapes = p.getAll('s').slice(0, MAX_OPERANDS).map((s) => s.slice(0, 400));
  if (shapes.length) state.shapes = shapes;
  while (state.shapes.length < 2) state.shapes.push('1');
  const names = p.getAll('n').slice(0, MAX_OPERANDS).map((s) => s.slice(0, 400));
  state.names = state.shapes.map((_, i) => names[i] ?? '');
  const axis = p.get('axis');
  if (axis !== null && /^-?\d{1,3}$/.test(axis)) state.axis = Number(axis);
  const map = p.get('map');
  if (map !== null) state.mapping = map.slice(0, 400);
  const shaping = p.get('shaping');
  if (shaping !== null && SHAPINGS.includes(shaping)) state.shaping = shaping;
  const dtype = p.get('dtype');
  if (dtype !== null && DTYPES.includes(dtype)) state.dtype = dtype;
  const code = p.get('code');
  if (code !== null && CODE_TABS.includes(code)) state.code = code;
  state.backward = p.get('back') === '1';
  return canonicalState(state);
}

/** A copy of `state` with `patch` applied (arrays are replaced, not merged). */
export function applyPatch(state, patch) {
  const next = { ...state, shapes: [...state.shapes], names: [...state.names], ...patch };
  if (patch.shapes) next.shapes = [...patch.shapes];
  if (patch.names) next.names = [...patch.names];
  while (next.names.length < next.shapes.length) next.names.push('');
  return next;
}

/**
 * Switching to named dims with no names typed: name each axis by its position
 * from the right (d1 is the last axis), so the first view shows how matching by
 * name differs from right-aligned matching. Leaves typed names alone.
 */
export function withDefaultNames(state) {
  if (state.rule !== 'named' || state.names.slice(0, 2).some((n) => n.trim() !== '')) return state;
  const names = [...state.names];
  for (const i of [0, 1]) {
    const p = parseShape(state.shapes[i] ?? '');
    if (!p.ok || !Array.isArray(p.shape)) return state;
    names[i] = p.shape.map((_, k) => `d${p.shape.length - k}`).join(', ');
  }
  return { ...state, names };
}

/**
 * Named dims: the coordinates decide a labelled dim's size. After operand i's
 * dim names changed (from `prevNames`), rewrite its shape so every dim with
 * labels has as many elements as labels; dims without labels keep the size
 * they had (found by name, else by position when the rank is unchanged).
 * When a dim's size is unknown (a new dim without labels) the shape is left
 * as typed, for the person to complete.
 */
export function withNamedSizes(state, i, prevNames = '') {
  if (state.rule !== 'named') return state;
  const nm = parseDimNames(state.names[i] ?? '');
  if (!nm.ok || !nm.coords) return state;
  const old = parseShape(state.shapes[i] ?? '');
  const oldShape = old.ok && Array.isArray(old.shape) ? old.shape : [];
  const prev = parseDimNames(prevNames);
  const byName = new Map();
  if (prev.ok && prev.dims.length === oldShape.length) prev.dims.forEach((d, k) => byName.set(d, oldShape[k]));
  const sizes = nm.dims.map((d, k) => {
    if (nm.coords[d]) return nm.coords[d].length;
    if (byName.has(d)) return byName.get(d);
    return oldShape.length === nm.dims.length ? oldShape[k] : undefined;
  });
  if (sizes.some((x) => x === undefined)) return state;
  const text = shapeToText(sizes);
  if (text === state.shapes[i]) return state;
  const shapes = [...state.shapes];
  shapes[i] = text;
  return { ...state, shapes };
}

/** The operand indices a rule reads from the state. */
export function activeOperands(state) {
  const n = operandArity(state.rule);
  return n === null ? state.shapes.map((_, i) => i) : [0, 1];
}

// ---- the explain() request -------------------------------------------------------

/**
 * Build the explain() request for a state. Returns { ok: true, request } or
 * { ok: false, errors: [{ field, index, message }] } when some input does not parse.
 */
export function buildRequest(state) {
  const errors = [];
  const shapes = [];
  for (const i of activeOperands(state)) {
    const r = parseShape(state.shapes[i] ?? '');
    if (r.ok) shapes.push(r.shape);
    else errors.push({ field: 'shape', index: i, message: `Shape ${letter(i)}: ${r.error}` });
  }
  const rule = state.rule;
  let request;
  if (rule === 'numpy' || rule === 'none') {
    request = { rule, shapes };
  } else if (rule === 'pdpd') {
    request = { rule, shapes, axis: state.axis };
  } else if (isBroadcastTo(rule)) {
    const mode = rule.slice(3);
    request = { rule: 'broadcastTo', mode, shapes };
    if (mode === 'pdpd') request.axis = state.axis;
    if (mode === 'explicit') {
      const m = parseMapping(state.mapping);
      if (m.ok) request.axesMapping = m.mapping;
      else errors.push({ field: 'mapping', index: null, message: `Axes mapping: ${m.error}` });
    }
  } else if (rule === 'named') {
    const operands = [];
    for (const i of [0, 1]) {
      const nm = parseDimNames(state.names[i] ?? '');
      if (!nm.ok) {
        errors.push({ field: 'names', index: i, message: `Dims ${letter(i)}: ${nm.error}` });
        continue;
      }
      const op = { dims: nm.dims };
      const text = (state.shapes[i] ?? '').trim();
      const allLabelled = nm.coords && nm.dims.every((d) => nm.coords[d]);
      // A shape may be left empty when every dim carries coordinate labels.
      const shapeErr = errors.findIndex((e) => e.field === 'shape' && e.index === i);
      if (text === '' && allLabelled) {
        if (shapeErr >= 0) errors.splice(shapeErr, 1);
      } else if (shapeErr < 0) {
        const s = parseShape(text);
        if (s.shape === UNKNOWN_RANK) {
          errors.push({ field: 'shape', index: i, message: `Shape ${letter(i)}: named operands need a known rank` });
          continue;
        }
        op.shape = s.shape;
      }
      if (nm.coords) op.coords = nm.coords;
      operands.push(op);
    }
    request = { rule: 'named', operands, shaping: state.shaping };
  } else {
    errors.push({ field: 'rule', index: null, message: `unknown rule ${rule}` });
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, request };
}

// ---- reading a plan --------------------------------------------------------------

/** One verdict per output axis: clash > stretched > new > equal. */
export function axisVerdict(verdicts, isErrorAxis = false) {
  if (isErrorAxis || verdicts.includes('clash')) return 'clash';
  if (verdicts.includes('stretched')) return 'stretched';
  if (verdicts.includes('new')) return 'new';
  return 'equal';
}

/**
 * Every clashing output axis of a failed plan, ascending: the error's
 * `clashes` list (when the library gives one), its `axis`, and every axis
 * where some operand's verdict is `clash`.
 */
export function clashAxes(plan) {
  const set = new Set();
  if (!plan || plan.ok) return [];
  const e = plan.error;
  if (e && Array.isArray(e.clashes)) for (const a of e.clashes) if (Number.isInteger(a)) set.add(a);
  if (e && Number.isInteger(e.axis)) set.add(e.axis); // the axis the message names
  (plan.axes ?? []).forEach((ax, a) => { if (ax.verdicts.includes('clash')) set.add(a); });
  return [...set].filter((a) => a >= 0 && a < (plan.axes?.length ?? 0)).sort((x, y) => x - y);
}

/**
 * The axes of operand k (its own axis numbers) that its rule drops before
 * aligning it, as explain() reports them (`dropped`: the axes no output axis
 * reads, e.g. PDPD's trailing 1s of B when they overflow). The page greys them
 * and marks them "dropped"; it never works them out itself.
 */
export function droppedAxes(plan, k) {
  const op = plan?.operands?.[k];
  if (!op || !Array.isArray(op.shape) || !Array.isArray(op.dropped)) return [];
  return op.dropped.slice();
}

// ---- the backward view ----------------------------------------------------------

/**
 * The reductionAxes() options (broadcastToShape's) under which operand k of
 * a plan reached the output shape: numpy for the element-wise NumPy rule,
 * pdpd at the axis for PDPD's B, the Broadcast op's own mode (with its
 * mapping or axis). null where the rule never broadcasts the operand, so
 * nothing is summed: NONE (identical shapes) and PDPD's A (it is the output).
 * Named dims are matched by name, not by these options (see backwardView).
 */
export function backwardOptions(request, k) {
  if (!request) return null;
  if (request.rule === 'numpy') return { mode: 'numpy' };
  if (request.rule === 'pdpd') return k === 0 ? null : { mode: 'pdpd', axis: request.axis };
  if (request.rule === 'broadcastTo') {
    const o = { mode: request.mode };
    if (request.mode === 'explicit') o.axesMapping = request.axesMapping;
    if (request.mode === 'pdpd') o.axis = request.axis;
    return o;
  }
  return null;
}

const sameShape = (x, y) => (Array.isArray(x) && Array.isArray(y) ? x.length === y.length && x.every((d, i) => String(d) === String(y[i])) : x !== null && x === y);

/** The text of one operand's way back: "sum over axes [1, 3], then reshape to (8,1,6,1)". */
function backwardText(axes, kept, shape, extra = null) {
  let text;
  if (!axes.length) text = sameShape(kept, shape) ? `nothing to sum: the gradient already has shape ${formatShape(shape)}` : `nothing to sum; reshape to ${formatShape(shape)}`;
  else text = `sum over axes ${formatList(axes)}${sameShape(kept, shape) ? `: that is already ${formatShape(shape)}` : `, then reshape to ${formatShape(shape)}`}`;
  return extra ? `${text}; ${extra}` : text;
}

/** A list of dim names as the page writes them: (x, t). */
const dimList = (dims) => `(${dims.join(', ')})`;

/**
 * The named input unbroadcast() takes to bring a named gradient back to
 * operand k: { dims, shape }, or { dims, coords } when every dim is labelled
 * (the labels give the sizes), or both where only some are.
 */
function namedTarget(request, plan, k) {
  const op = request.operands[k];
  const dims = op.dims.slice();
  const coords = op.coords ? Object.fromEntries(dims.filter((d) => op.coords[d]).map((d) => [d, op.coords[d].slice()])) : null;
  const labelled = coords ? Object.keys(coords).length : 0;
  if (labelled && labelled === dims.length) return { dims, coords };
  const target = { dims, shape: plan.operands[k].shape.slice() };
  if (labelled) target.coords = coords;
  return target;
}

/**
 * The backward view of a plan: for each operand, the output axes a gradient
 * of the result is summed over to come back to that operand's shape — the
 * reversed arrows of its stretched and added axes. The axes are the
 * library's reductionAxes(operand shape, output shape, options) with the
 * rule's options (backwardOptions); where it refuses (a dynamic dim that may
 * or may not be 1, an unknown rank) the entry carries its BroadcastError.
 * Named dims: the output dims (the library's named result) the operand
 * lacks; unbroadcast() takes the gradient by name, with the operand's
 * { dims, shape } or { dims, coords } (`target`), and puts the rest in the
 * operand's order ("then reorder to") and labels.
 *
 * Returns { ok: true, outShape, outDims?, outCoords?, operands: [{ name,
 * shape, axes, kept, options, target?, dims?, reorder?, relabel?, error,
 * text }] }, or { ok: false, reason } when there is nothing to reverse.
 * `options` is what unbroadcast() takes for a positional operand (undefined:
 * the default); `target` its second argument for a named one.
 */
export function backwardView(request, plan) {
  if (!plan || !request) return { ok: false, reason: 'Fix the input to see the backward view.' };
  if (!plan.ok) return { ok: false, reason: 'No backward view for a failed broadcast: there is no result to take a gradient of.' };
  const out = plan.shape;
  const view = { ok: true, outShape: out, operands: null };
  if (request.rule === 'named') {
    view.outDims = (plan.named?.dims ?? plan.dimNames).slice();
    if (plan.named?.coords) view.outCoords = plan.named.coords;
  }
  view.operands = plan.operands.map((op, k) => {
    const entry = { name: op.name, shape: op.shape, axes: null, kept: null, options: undefined, error: null, text: '' };
    if (request.rule === 'named') {
      // By name: the output dims this operand lacks (from the library's named result).
      const outDims = view.outDims;
      const dims = request.operands[k].dims;
      entry.dims = dims;
      entry.target = namedTarget(request, plan, k);
      entry.axes = outDims.map((d, a) => (dims.includes(d) ? null : a)).filter((a) => a !== null);
      const keptDims = outDims.filter((d) => dims.includes(d));
      entry.kept = out.filter((_, a) => !entry.axes.includes(a));
      // What unbroadcast does past the sum: the operand's order, and its labels where they differ from the result's.
      entry.reorder = !sameShape(keptDims, dims);
      const oc = request.operands[k].coords;
      entry.relabel = !!oc && dims.some((d) => oc[d] && !sameShape(oc[d], view.outCoords?.[d]));
      const then = [];
      if (entry.reorder) then.push(`reorder to ${dimList(dims)}`);
      if (entry.relabel) then.push(`align to ${op.name}'s labels`);
      if (entry.axes.length) entry.text = [`sum over axes ${formatList(entry.axes)} ${dimList(entry.axes.map((a) => outDims[a]))}`, ...then.map((t) => `then ${t}`)].join(', ');
      else entry.text = then.length ? `nothing to sum; ${then.join(', then ')}` : `nothing to sum: the gradient already has dims ${dimList(dims)}`;
      return entry;
    }
    const options = backwardOptions(request, k);
    if (options === null) {
      // NONE, PDPD's A: the operand is never broadcast; the result has its shape.
      entry.axes = [];
      entry.kept = Array.isArray(out) ? out.slice() : out;
      entry.options = undefined;
      entry.text = backwardText([], entry.kept, op.shape);
      return entry;
    }
    entry.options = options.mode === 'numpy' ? undefined : options;
    try {
      // The library says which axes, or why not (a dynamic dim that may be 1, an unknown rank).
      entry.axes = reductionAxes(op.shape, out, options);
    } catch (e) {
      entry.error = { code: e.code ?? e.name, message: e.message };
      return entry;
    }
    entry.kept = out.filter((_, a) => !entry.axes.includes(a));
    entry.text = backwardText(entry.axes, entry.kept, op.shape);
    return entry;
  });
  return view;
}

/** Output axis labels: [{ index: 0, negative: -4 }, ...]. */
export function axisLabels(rank) {
  return Array.from({ length: rank }, (_, a) => ({ index: a, negative: a - rank }));
}

/**
 * Right-align a raw shape (e.g. a Broadcast target) under `rank` output
 * columns, for display only: null where the shape has no axis.
 */
export function rightAlign(shape, rank) {
  if (!Array.isArray(shape)) return Array(rank).fill(null);
  const out = Array(rank).fill(null);
  const off = rank - shape.length;
  for (let i = 0; i < shape.length; i++) if (off + i >= 0) out[off + i] = shape[i];
  return out;
}

// ---- memory view ---------------------------------------------------------------

export function product(shape) {
  return shape.reduce((p, d) => p * d, 1);
}

function isStaticShape(shape) {
  return Array.isArray(shape) && shape.every((d) => typeof d === 'number' && d >= 0);
}

/** Row-major strides (in elements) of a contiguous tensor. */
export function contiguousStrides(shape) {
  const s = new Array(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc = exactMul(acc, Math.max(shape[i], 1)); // exact past 2^53 (a BigInt)
  }
  return s;
}

/** Exact product of a static shape: a Number when safe, else a BigInt. */
export function exactProduct(shape) {
  const n = product(shape);
  if (Number.isSafeInteger(n)) return n;
  return exact(shape.reduce((p, d) => p * BigInt(d), 1n));
}

/** a * b or a + b, exact: Numbers while the result is a safe integer, else BigInts. */
function exactMul(a, b) {
  const n = Number(a) * Number(b);
  return Number.isSafeInteger(n) && typeof a === 'number' && typeof b === 'number' ? n : exact(BigInt(a) * BigInt(b));
}
function exactAdd(a, b) {
  const n = Number(a) + Number(b);
  return Number.isSafeInteger(n) && typeof a === 'number' && typeof b === 'number' ? n : exact(BigInt(a) + BigInt(b));
}

/**
 * The memory view of a plan: per operand its own contiguous strides, the
 * broadcast strides the plan gives (0 on stretched and new axes), the bytes it
 * holds, and the bytes a materialised (copied-out) broadcast would take.
 * Every count is exact: a Number while it is a safe integer, a BigInt past
 * 2^53 (the plan's `sizeText` then gives the element count). A plan stride
 * that is not a safe integer (the engine saturates there) is null.
 */
export function memoryView(plan, itemsize) {
  if (!plan || !plan.ok || !plan.static || !Array.isArray(plan.shape)) return null;
  const outElems = planSize(plan);
  if (outElems === null) return null;
  const safe = (x) => (Number.isSafeInteger(x) ? x : null);
  const operands = plan.operands.map((op) => {
    const shape = op.shape;
    const elems = isStaticShape(shape) ? exactProduct(shape) : null;
    const own = isStaticShape(shape) ? contiguousStrides(shape) : null;
    return {
      name: op.name,
      shape,
      strides: own,
      byteStrides: op.strides ? op.strides.map((s) => (safe(s) === null ? null : exactMul(s, itemsize))) : null,
      ownByteStrides: own ? own.map((s) => exactMul(s, itemsize)) : null,
      broadcastStrides: op.strides ? op.strides.map(safe) : null,
      zeroAxes: op.strides ? op.strides.map((s, a) => s === 0 && plan.shape[a] > 1) : null,
      bytesRead: elems === null ? null : exactMul(elems, itemsize),
      bytesCopy: exactMul(outElems, itemsize),
    };
  });
  const read = operands.reduce((s, o) => exactAdd(s, o.bytesRead ?? 0), 0);
  const copy = operands.reduce((s, o) => exactAdd(s, o.bytesCopy), 0);
  const saved = typeof copy === 'number' && typeof read === 'number' ? copy - read : exact(BigInt(copy) - BigInt(read));
  return { operands, outBytes: exactMul(outElems, itemsize), bytesRead: read, bytesCopy: copy, saved };
}

// ---- data preview ------------------------------------------------------------------

export const PREVIEW_LIMIT = 64;

/**
 * Whether the plan is small enough to draw as grids: static, every tensor at
 * most PREVIEW_LIMIT elements, and readable with strides alone (labelled
 * named dims that reorder need a gather, which strides cannot express).
 */
export function previewable(plan, limit = PREVIEW_LIMIT) {
  if (!plan || !plan.ok || !plan.static || !Array.isArray(plan.shape)) return false;
  if (plan.needsGather) return false;
  if (typeof plan.size !== 'number' || plan.size > limit || plan.size < 1) return false;
  return plan.operands.every((op) => op.strides && isStaticShape(op.shape) && product(op.shape) <= limit);
}

/** Flat row-major index -> multi-index. */
export function unravel(index, shape) {
  const out = new Array(shape.length);
  let r = index;
  for (let i = shape.length - 1; i >= 0; i--) {
    const d = shape[i];
    out[i] = d > 0 ? r % d : 0;
    r = d > 0 ? Math.floor(r / d) : 0;
  }
  return out;
}

/**
 * For each operand, which of its elements each output element reads: an
 * Int32Array of plan.size flat indices into the operand.
 *
 * THE ONE PLACE that knows how broadcasting reads memory. Today it walks the
 * output with the plan's strides (0 on stretched axes) from explain(). Once the
 * library has broadcastTo, this becomes
 *   plan.operands.map((op) => broadcastTo(arange(size(op.shape)), plan.shape, …))
 * and nothing else in the page changes.
 */
export function sourceIndexMaps(plan) {
  const shape = plan.shape;
  const rank = shape.length;
  return plan.operands.map((op) => {
    const out = new Int32Array(plan.size);
    const idx = new Array(rank).fill(0);
    for (let flat = 0; flat < plan.size; flat++) {
      let off = 0;
      for (let a = 0; a < rank; a++) off += idx[a] * op.strides[a];
      out[flat] = off;
      for (let a = rank - 1; a >= 0; a--) { // odometer
        if (++idx[a] < shape[a]) break;
        idx[a] = 0;
      }
    }
    return out;
  });
}

/**
 * Split a shape into 2-D slices for drawing: the last two axes are rows and
 * columns, leading axes index the slices. Returns [{ label, prefix, rows, cols, start }].
 */
export function gridSlices(shape) {
  const rank = shape.length;
  const rows = rank >= 2 ? shape[rank - 2] : 1;
  const cols = rank >= 1 ? shape[rank - 1] : 1;
  const lead = shape.slice(0, Math.max(0, rank - 2));
  const nSlices = product(lead);
  const per = rows * cols;
  const slices = [];
  for (let s = 0; s < nSlices; s++) {
    const prefix = unravel(s, lead);
    const label = lead.length ? `[${[...prefix, ...(rank >= 2 ? [':'] : []), ':'].join(', ')}]` : '';
    slices.push({ label, prefix, rows, cols, start: s * per });
  }
  return slices;
}

// ---- suggestions -------------------------------------------------------------------

function combinations(n, k, limit, visit) {
  // Visit k-subsets of 0..n-1 in lexicographic order; stop after `limit`.
  let count = 0;
  const c = Array.from({ length: k }, (_, i) => i);
  if (k > n) return;
  for (;;) {
    if (count++ >= limit) return;
    if (visit(c) === false) return;
    let i = k - 1;
    while (i >= 0 && c[i] === n - k + i) i--;
    if (i < 0) return;
    c[i]++;
    for (let j = i + 1; j < k; j++) c[j] = c[j - 1] + 1;
  }
}

/**
 * Shapes holding the same data in the same order as `shape` — its non-1 dims
 * in order, with 1s inserted or removed — nearest rank first. These are plain
 * reshapes (np.reshape / expand_dims / squeeze), never transposes.
 */
export function reshapeCandidates(shape, maxRank, limit = 400) {
  if (!Array.isArray(shape)) return [];
  const core = shape.filter((d) => d !== 1);
  const r = shape.length;
  const k = core.length;
  const ranks = [];
  for (let t = Math.max(k, 0); t <= Math.min(32, Math.max(maxRank, r)); t++) ranks.push(t);
  ranks.sort((x, y) => Math.abs(x - r) - Math.abs(y - r) || x - y);
  const key = JSON.stringify(shape);
  const out = [];
  const seen = new Set([key]);
  for (const t of ranks) {
    // Prefer the non-1 dims to the left, so trailing 1s come first: [3] -> [3, 1].
    combinations(t, k, limit, (pos) => {
      const s = Array(t).fill(1);
      pos.forEach((p, i) => { s[p] = core[i]; });
      const sk = JSON.stringify(s);
      if (!seen.has(sk)) { seen.add(sk); out.push(s); }
      return out.length < limit;
    });
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Suggestions for a failed plan. `lib` is the library ({ explain }); each
 * candidate is turned into a page state, built into a request exactly as the
 * page does, and kept only if the library's explain() accepts it.
 * Returns up to `max` of [{ kind, text, patch, shape }].
 */
export function suggest(state, result, lib, max = 3) {
  if (!result || result.ok || !result.error) return [];
  const out = [];
  const seen = new Set();
  const code = result.error.code;
  const rule = state.rule;
  const active = activeOperands(state);
  const parsed = active.map((i) => parseShape(state.shapes[i] ?? ''));
  if (rule !== 'named' && parsed.some((p) => !p.ok)) return [];
  const shapes = parsed.map((p) => (p.ok ? p.shape : null));
  const rankOf = (s) => (Array.isArray(s) ? s.length : null);

  const verify = (patch) => {
    const b = buildRequest(applyPatch(state, patch));
    if (!b.ok) return null;
    const r = lib.explain(b.request);
    return r && r.ok ? r : null;
  };
  // Keep a candidate only if the library accepts it (and `accept` likes the result).
  const add = (kind, text, patch, accept) => {
    if (out.length >= max || seen.has(text)) return false;
    const r = verify(patch);
    if (!r || (accept && !accept(r))) return false;
    seen.add(text);
    out.push({ kind, text, patch, shape: r.shape, result: formatShape(r.shape) });
    return true;
  };
  // Another pdpd axis; `asRule` switches an element-wise rule to pdpd too.
  const tryAxes = (rank, asRule) => {
    if (typeof rank !== 'number') return;
    for (let axis = -1; axis <= rank; axis++) {
      if (!asRule && axis === state.axis) continue;
      const text = asRule ? `use rule pdpd with axis ${axis}` : `use axis ${axis}`;
      if (add('axis', text, asRule ? { rule: 'pdpd', axis } : { axis })) return;
    }
  };
  // Reshape operand k (same data, same order: only 1s inserted or removed).
  const tryReshape = (k, name, maxRank, accept, suffix = '') => {
    for (const cand of reshapeCandidates(shapes[k], maxRank)) {
      if (accept && cand.length > maxRank) continue;
      const next = [...state.shapes];
      next[active[k]] = shapeToText(cand);
      if (add('reshape', `reshape ${name} to ${formatShape(cand)}${suffix}`, { shapes: next }, accept)) return true;
    }
    return false;
  };
  const maxRank = Math.max(0, ...shapes.map((s) => rankOf(s) ?? 0));
  const clashFirst = () => {
    const ops = result.error.operands;
    const list = [];
    if (Array.isArray(ops)) for (const k of [ops[1], ops[0]]) if (k >= 0 && k < shapes.length && !list.includes(k)) list.push(k);
    for (let k = shapes.length - 1; k >= 0; k--) if (!list.includes(k)) list.push(k);
    return list;
  };
  // Broadcast op: a reshaped input is only useful if it reaches the target.
  const reachesTarget = (r) => {
    const t = shapes[1];
    return Array.isArray(t) && Array.isArray(r.shape) && r.shape.length === t.length
      && t.every((d, a) => d === -1 || String(d) === String(r.shape[a]));
  };

  if (rule === 'numpy' || rule === 'none') {
    if (rule === 'none') add('rule', 'use rule numpy (implicit broadcasting)', { rule: 'numpy' });
    if (code === 'INVALID_SHAPE') return out;
    // First reshapes that keep the output rank, then (numpy) an outer broadcast.
    const sameRank = (r) => rankOf(r.shape) !== null && r.shape.length <= maxRank;
    let found = false;
    for (const k of clashFirst()) found = tryReshape(k, letter(k), maxRank, sameRank) || found;
    if (shapes.length === 2) tryAxes(rankOf(shapes[0]), true);
    if (!found && rule === 'numpy') {
      for (let k = 0; k < shapes.length && out.length < max; k++) {
        if (tryReshape(k, letter(k), maxRank + 1, null, ' for an outer broadcast')) break;
      }
    }
  } else if (rule === 'pdpd') {
    tryAxes(rankOf(shapes[0]), false);
    tryReshape(1, 'B', maxRank, (r) => String(r.shape) === String(shapes[0]));
    add('rule', 'use rule numpy (there B may enlarge A)', { rule: 'numpy' });
  } else if (rule === 'to-numpy') {
    if (code === 'MINUS_ONE_IN_NEW_AXIS' && Array.isArray(shapes[1]) && result.error.axis !== null) {
      const t = [...shapes[1]];
      t[result.error.axis] = 1;
      add('target', `put a size instead of −1 at axis ${result.error.axis}, e.g. ${formatShape(t)}`, { shapes: [state.shapes[0], shapeToText(t), ...state.shapes.slice(2)] });
      return out;
    }
    tryReshape(0, 'the input', rankOf(shapes[1]) ?? 0, reachesTarget);
    tryMappings(state, shapes, add);
    add('rule', 'use mode bidirectional (the target may grow too)', { rule: 'to-bidirectional' });
  } else if (rule === 'to-explicit') {
    tryMappings(state, shapes, add);
    tryReshape(0, 'the input', rankOf(shapes[1]) ?? 0, reachesTarget);
  } else if (rule === 'to-bidirectional') {
    tryReshape(0, 'the input', maxRank, (r) => rankOf(r.shape) !== null && r.shape.length <= maxRank);
  } else if (rule === 'to-pdpd') {
    tryAxes(rankOf(shapes[1]), false);
    tryReshape(0, 'the input', rankOf(shapes[1]) ?? 0, reachesTarget);
  } else if (rule === 'named') {
    if (state.shaping === 'exact') {
      add('shaping', 'use shaping intersection (keep the labels both sides have)', { shaping: 'intersection' });
      add('shaping', 'use shaping union (an outer join of the labels)', { shaping: 'union' });
    }
    const axis = result.error.axis;
    const dimNames = result.dimNames;
    if (code === 'INCOMPATIBLE_DIMS' && axis !== null && Array.isArray(dimNames)) {
      const name = dimNames[axis];
      const nb = parseDimNames(state.names[1] ?? '');
      if (nb.ok && nb.dims.includes(name) && !(nb.coords && nb.coords[name])) {
        let fresh = `${name}_B`;
        while (nb.dims.includes(fresh)) fresh += '_';
        const renamed = nb.dims.map((d) => (d === name ? fresh : d));
        const text = renamed.map((d) => (nb.coords && nb.coords[d] ? `${d}{${nb.coords[d].join(',')}}` : d)).join(', ');
        add('rename', `if B's "${name}" is a different dimension, rename it to "${fresh}" (then it broadcasts)`, { names: [state.names[0], text, ...state.names.slice(2)] });
      }
    }
  }
  return out;
}

function tryMappings(state, shapes, add) {
  const [input, target] = shapes;
  if (!Array.isArray(input) || !Array.isArray(target)) return;
  if (input.length > target.length || target.length > 16) return;
  const current = parseMapping(state.mapping);
  const cur = current.ok ? JSON.stringify(current.mapping) : '';
  combinations(target.length, input.length, 2000, (m) => {
    if (JSON.stringify(m) === cur && state.rule === 'to-explicit') return true;
    const mapping = m.join(', ');
    const done = add('mapping', state.rule === 'to-explicit' ? `use axes mapping [${mapping}]` : `use mode explicit with axes mapping [${mapping}]`, { rule: 'to-explicit', mapping });
    return !done;
  });
}

// ---- examples -------------------------------------------------------------------

/** One-click examples from the spec (broadcast-rules.md). */
export const EXAMPLES = [
  { id: 'numpy', label: 'NumPy', note: '§1: [8,1,6,1] with [7,1,5]', state: { rule: 'numpy', shapes: ['8, 1, 6, 1', '7, 1, 5'] } },
  { id: 'numpy-small', label: 'NumPy, small', note: '§1: [2,1,3] with [2,1] — try the data preview', state: { rule: 'numpy', shapes: ['2, 1, 3', '2, 1'] } },
  { id: 'clash', label: 'A clash', note: '§1: [3] with [4] is an error', state: { rule: 'numpy', shapes: ['3', '4'] } },
  { id: 'pdpd', label: 'PDPD', note: '§3: A [2,3,4,5], B [3,1], axis 1', state: { rule: 'pdpd', shapes: ['2, 3, 4, 5', '3, 1'], axis: 1 } },
  { id: 'explicit', label: 'Explicit', note: '§4.2: [16] → [1,16,50,50], mapping [1]', state: { rule: 'to-explicit', shapes: ['16', '1, 16, 50, 50'], mapping: '1' } },
  { id: 'explicit-small', label: 'Explicit, small', note: '§4.2: [3,1] → [2,3,3], mapping [1,2]', state: { rule: 'to-explicit', shapes: ['3, 1', '2, 3, 3'], mapping: '1, 2' } },
  { id: 'bidirectional', label: 'Bidirectional', note: '§4.3: [3,1] with [2,1,6] (ONNX Expand)', state: { rule: 'to-bidirectional', shapes: ['3, 1', '2, 1, 6'] } },
  { id: 'mindspore', label: 'MindSpore −1', note: '§5: [3,1,5,1] → [−1,−1,5,6]', state: { rule: 'to-numpy', shapes: ['3, 1, 5, 1', '-1, -1, 5, 6'] } },
  { id: 'named', label: 'Named', note: '§6: X{x1,x2} ⊕ Y{y1,y2}', state: { rule: 'named', shapes: ['2', '2'], names: ['X{x1,x2}', 'Y{y1,y2}'] } },
  { id: 'dynamic', label: 'Dynamic', note: '§7: [?, 3, 1, 2..128] with [?, 3, 2..224, 1]', state: { rule: 'numpy', shapes: ['?, 3, 1, 2..128', '?, 3, 2..224, 1'] } },
];

/** The full state of an example (defaults for what it leaves out). */
export function exampleState(example) {
  const s = applyPatch(defaultState(), example.state);
  s.names = s.shapes.map((_, i) => (example.state.names ? example.state.names[i] ?? '' : ''));
  return s;
}

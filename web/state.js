// The explorer's page state: the rules it offers, parsing what a person
// types, the state and its URL form, the explain() request built from it,
// and the one-click examples. No DOM, no globals (unit-tested in Node).
import { formatDim, DTYPES } from 'tensorcast';
import { DEFAULT_EXPRESSION, DEFAULT_VARS, MAX_EXPRESSION, withExpression, expressionRequest, varsToParams, paramsToVars } from './expression.js';
import { MAX_TEXT, UNKNOWN_RANK, stripBrackets, parseShape, parseMapping } from './parse.js';

export { UNKNOWN_RANK, parseShape, parseMapping };

export const OPERAND_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const MAX_OPERANDS = 8;
/** The longest dim-names text (with coordinate labels) read, typed or from a link alike. */
export const MAX_NAMES = 4000;

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
  { value: 'expression', label: 'expression — a whole formula', group: 'Expressions', spec: '§1', hint: 'Type a JavaScript expression over named operands, e.g. (x - m) / s: every operand is aligned to the output by the NumPy rule, and the engine runs it in one pass.' },
];
const RULE_VALUES = new Set(RULES.map((r) => r.value));
export const SHAPINGS = ['intersection', 'exact', 'union'];
/** What each shaping does, shown under the Shaping select (the select itself shows the name only, so it never clips). */
export const SHAPING_HINTS = {
  intersection: 'Keep the labels both sides have.',
  exact: 'Sizes and labels must be equal.',
  union: 'Outer join of the labels.',
};

export function isBroadcastTo(rule) {
  return rule.startsWith('to-');
}

/** How many operands a rule takes: null = any number (numpy), else exactly 2. */
export function operandArity(rule) {
  return rule === 'numpy' || rule === 'expression' ? null : 2;
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


const NAME = /^[^\s,{}[\]()]+$/;

/**
 * Dim names are whatever a person typed, `__proto__`, `constructor` and
 * `toString` included. `obj[name] = v` with name `__proto__` sets the
 * object's prototype instead of adding a key, so an object keyed by dim
 * names (coords, handed to the library as a plain object) gets its keys
 * through defineProperty, always own ones; and it is read through
 * labelsOf(), an own-key lookup, so `coords.constructor` (Object) or
 * `coords.toString` never pass for labels.
 */
function setOwn(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return obj;
}

/** The labels of dim `name` in a coords object (own keys only), else undefined. */
function labelsOf(coords, name) {
  return coords && Object.hasOwn(coords, name) ? coords[name] : undefined;
}

/**
 * Parse dim names for a named operand: `x, y`, or with coordinate labels
 * `X{x1,x2}, t`. Returns { ok, dims, coords } (coords null when no labels).
 */
export function parseDimNames(text) {
  if (typeof text !== 'string') return { ok: false, error: 'dim names must be text' };
  if (text.length > MAX_NAMES) return { ok: false, error: `too long: at most ${MAX_NAMES} characters` };
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
      setOwn(coords, name, labels);
      i = close + 1;
    } else if (inner[i] === '}') {
      return { ok: false, error: 'a "}" without "{"' };
    }
  }
  if (dims.length > 32) return { ok: false, error: 'at most 32 dims' };
  return { ok: true, dims, coords };
}

/** The text a shape input shows for a shape: `8, 1, 6, 1`; `()` for a scalar. */
export function shapeToText(shape) {
  if (shape === UNKNOWN_RANK) return '[...]';
  if (shape.length === 0) return '()';
  return shape.map(formatDim).join(', ');
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
    shapes: ['8,1,6,1', '7,1,5'],
    names: ['', ''],
    axis: -1,
    mapping: '',
    shaping: 'intersection',
    dtype: 'float32',
    code: CODE_TABS[0],
    backward: false,
    expr: DEFAULT_EXPRESSION,
    vars: DEFAULT_VARS.map((v) => [...v]),
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
    backward: rule !== 'expression' && state.backward === true,
    // Expression mode's text and operand rows (kept while another rule is shown; only expression mode writes them to the URL).
    expr: typeof state.expr === 'string' ? state.expr.slice(0, MAX_EXPRESSION) : d.expr,
    vars: Array.isArray(state.vars) ? state.vars.map(([n, t]) => [String(n), String(t)]) : d.vars,
  };
}

/**
 * One query value for the address bar: percent-encoded (a space is %20, a
 * `+` %2B, `&` `#` `=` `%` always encoded), but the characters shapes use,
 * `,` `?` `.` `[` `]` `{` `}` `:` `-` `/`, stay readable, so `s=2,3` and
 * `s=?,3,2..128` read as typed. URLSearchParams reads it back, and still
 * reads the `+` that older links used for a space.
 */
export function encodeQueryValue(v) {
  return encodeURIComponent(v).replace(/%(2C|3F|5B|5D|7B|7D|3A|2F)/gi, (m) => decodeURIComponent(m));
}
const enc = encodeQueryValue;

/**
 * State -> query string (without "?"): the canonical state only, defaults
 * left out, so no parameter of another rule survives a switch.
 */
export function stateToQuery(state) {
  const s = canonicalState(state);
  const d = defaultState();
  const parts = [`rule=${enc(s.rule)}`];
  if (s.rule === 'expression') {
    parts.push(`e=${enc(s.expr)}`);
    for (const v of varsToParams(s.vars)) parts.push(`v=${enc(v)}`);
  } else for (const x of s.shapes) parts.push(`s=${enc(x)}`);
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
  const shapes = p.getAll('s').slice(0, MAX_OPERANDS).map((s) => s.slice(0, MAX_TEXT));
  if (shapes.length) state.shapes = shapes;
  while (state.shapes.length < 2) state.shapes.push('1');
  const names = p.getAll('n').slice(0, MAX_OPERANDS).map((s) => s.slice(0, MAX_NAMES + 1)); // past the limit: refused as typed
  state.names = state.shapes.map((_, i) => names[i] ?? '');
  const axis = p.get('axis');
  if (axis !== null && /^(-1|\d{1,3})$/.test(axis)) state.axis = Number(axis); // -1 or an axis: what the slider can show
  const map = p.get('map');
  if (map !== null) state.mapping = map.slice(0, MAX_TEXT);
  const shaping = p.get('shaping');
  if (shaping !== null && SHAPINGS.includes(shaping)) state.shaping = shaping;
  const dtype = p.get('dtype');
  if (dtype !== null && DTYPES.includes(dtype)) state.dtype = dtype;
  const code = p.get('code');
  if (code !== null && CODE_TABS.includes(code)) state.code = code;
  state.backward = p.get('back') === '1';
  const vars = paramsToVars(p.getAll('v'));
  if (vars.length) state.vars = vars;
  const expr = p.get('e');
  // The operand rows follow the expression's inputs (the library's parse), with the shapes the link
  // gives: the link's expression, or in expression mode the default one (a link may leave it out).
  if (expr !== null || state.rule === 'expression') return canonicalState(withExpression(state, expr ?? state.expr));
  return canonicalState(state);
}

/**
 * Switch to `rule`, as the Rule select does: the canonical state of the new
 * rule, and the operands it cannot take set aside instead of lost. A rule of
 * two operands keeps A and B; C, D… go to `setAside` (with their dim names),
 * and come back, after the operands then on screen, when a rule of any
 * number of operands (numpy) is chosen again. Returns { state, setAside,
 * note }: `note` says what was set aside or restored (null when nothing was).
 */
export function switchRule(state, rule, setAside = []) {
  // Expression mode has its own operand rows (vars): the other rules' shapes wait, untouched, for their
  // return, and so do the operands set aside (leaving it, they come back as from any rule).
  if (rule === 'expression') return { state: canonicalState({ ...state, rule }), setAside, note: null };
  const arity = operandArity(RULE_VALUES.has(rule) ? rule : defaultState().rule);
  let next = { ...state, rule, shapes: [...state.shapes], names: [...state.names] };
  let kept = setAside.slice();
  let note = null;
  if (arity !== null && state.shapes.length > arity) {
    const gone = state.shapes.slice(arity).map((shape, i) => ({ shape, names: state.names[arity + i] ?? '' }));
    kept = [...gone, ...kept].slice(0, MAX_OPERANDS);
    const list = gone.map((g, i) => `${letter(arity + i)} (${g.shape})`).join(', ');
    const name = RULES.find((r) => r.value === rule)?.label.split(' — ')[0] ?? rule;
    note = `${name} takes ${arity} operands: ${list} ${gone.length === 1 ? 'is' : 'are'} set aside. Switch back to numpy to get ${gone.length === 1 ? 'it' : 'them'} back.`;
  } else if (arity === null && kept.length) {
    const room = MAX_OPERANDS - next.shapes.length;
    const back = kept.slice(0, Math.max(0, room));
    next.shapes.push(...back.map((g) => g.shape));
    next.names.push(...back.map(() => ''));
    note = `Restored ${back.map((g, i) => `${letter(state.shapes.length + i)} (${g.shape})`).join(', ')}.`;
    kept = [];
    if (!back.length) note = null;
  }
  return { state: canonicalState(next), setAside: kept, note };
}

/** A copy of `state` with `patch` applied (arrays are replaced, not merged). */
export function applyPatch(state, patch) {
  const next = { ...state, shapes: [...state.shapes], names: [...state.names], ...patch };
  if (patch.shapes) next.shapes = [...patch.shapes];
  if (patch.names) next.names = [...patch.names];
  if (patch.vars) next.vars = patch.vars.map((v) => [...v]);
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
    if (labelsOf(nm.coords, d)) return labelsOf(nm.coords, d).length;
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
  if (state.rule === 'expression') return expressionRequest(state);
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
      const allLabelled = nm.coords && nm.dims.every((d) => labelsOf(nm.coords, d));
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

// ---- examples -------------------------------------------------------------------

/** One-click examples from the spec (broadcast-rules.md). */
export const EXAMPLES = [
  { id: 'numpy', label: 'NumPy', note: '§1: [8,1,6,1] with [7,1,5]', state: { rule: 'numpy', shapes: ['8,1,6,1', '7,1,5'] } },
  { id: 'numpy-small', label: 'NumPy, small', note: '§1: [2,1,3] with [2,1] — try the data preview', state: { rule: 'numpy', shapes: ['2,1,3', '2,1'] } },
  { id: 'clash', label: 'A clash', note: '§1: [3] with [4] is an error', state: { rule: 'numpy', shapes: ['3', '4'] } },
  { id: 'pdpd', label: 'PDPD', note: '§3: A [2,3,4,5], B [3,1], axis 1', state: { rule: 'pdpd', shapes: ['2,3,4,5', '3,1'], axis: 1 } },
  { id: 'explicit', label: 'Explicit', note: '§4.2: [16] → [1,16,50,50], mapping [1]', state: { rule: 'to-explicit', shapes: ['16', '1,16,50,50'], mapping: '1' } },
  { id: 'explicit-small', label: 'Explicit, small', note: '§4.2: [3,1] → [2,3,3], mapping [1,2]', state: { rule: 'to-explicit', shapes: ['3,1', '2,3,3'], mapping: '1,2' } },
  { id: 'bidirectional', label: 'Bidirectional', note: '§4.3: [3,1] with [2,1,6] (ONNX Expand)', state: { rule: 'to-bidirectional', shapes: ['3,1', '2,1,6'] } },
  { id: 'mindspore', label: 'MindSpore −1', note: '§5: [3,1,5,1] → [−1,−1,5,6]', state: { rule: 'to-numpy', shapes: ['3,1,5,1', '-1,-1,5,6'] } },
  { id: 'named', label: 'Named', note: '§6: X{x1,x2} ⊕ Y{y1,y2}', state: { rule: 'named', shapes: ['2', '2'], names: ['X{x1,x2}', 'Y{y1,y2}'] } },
  { id: 'expr-norm', label: 'Expression', note: '(x − m) / s: a normalisation, one pass', state: { rule: 'expression', expr: '(x - m) / s', vars: [['x', '2,3'], ['m', '3'], ['s', '2,1']] } },
  { id: 'expr-sum', label: 'Expression, sum', note: 'sum(x * w, [1]): a contraction without the temporary', state: { rule: 'expression', expr: 'sum(x * w, [1])', vars: [['x', '2,3'], ['w', '3']] } },
  { id: 'expr-softmax', label: 'Softmax', note: 'a program: max, exp(x − m), sum and the division, pass by pass', state: { rule: 'expression', expr: 'm = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)', vars: [['x', '2,4']] } },
  { id: 'expr-clash', label: 'Expression, clash', note: 'a * b + c where b and c do not broadcast', state: { rule: 'expression', expr: 'a * b + c', vars: [['a', '2,3'], ['b', '3'], ['c', '2']] } },
  { id: 'dynamic', label: 'Dynamic', note: '§7: [?, 3, 1, 2..128] with [?, 3, 2..224, 1]', state: { rule: 'numpy', shapes: ['?,3,1,2..128', '?,3,2..224,1'] } },
];

/** The full state of an example (defaults for what it leaves out). */
export function exampleState(example) {
  const s = applyPatch(defaultState(), example.state);
  s.names = s.shapes.map((_, i) => (example.state.names ? example.state.names[i] ?? '' : ''));
  return s;
}

// "Copy as code": the page's current state as the equivalent call in
// tensorcast, NumPy, PyTorch and OpenVINO — or a sentence saying that the
// framework has no such rule.
//
// tensorcast's snippet is built from the very request the page hands to
// explain(), so running it reproduces what is on screen. The other
// frameworks' snippets are transcriptions; where a framework lacks the rule
// (NumPy has no PDPD, no axes mapping, no named dims) and the plan succeeded,
// the snippet gets the same result from that framework's own broadcasting
// after a reshape read from the plan (where the rule put each input dim):
// nothing here decides a broadcast.
//
// Every snippet that can allocate its tensors runs on the data preview's own
// values (views.js previewValues: each input holds arange(size) in the
// preview's dtype) and prints what the page shows: the result's shape and
// its values, row-major.
//
// With the backward view on, every tab holds the way back instead: the
// result's gradient holds arange(size) (as the backward preview draws it),
// and each operand's gradient is it summed back: tensorcast's unbroadcast()
// with the options the backward view (logic.js) read from the rule (named
// dims by name, unbroadcast(grad, { dims, shape | coords })); NumPy's sum
// over the view's axes and a reshape; PyTorch's sum_to_size; OpenVINO's
// ReduceSum and Reshape (it has no such call).
//
// Pure functions (no DOM), unit-tested in web/code.test.js.
import { backwardView, previewDtype, forwardOptions, dataTarget, PREVIEW_LIMIT } from './logic.js';
import { jsString, pyString, jsComment, pyComment, jsSource, pySource } from './escape.js';

export const CODE_LABELS = { tensorcast: 'tensorcast', numpy: 'NumPy', torch: 'PyTorch', openvino: 'OpenVINO' };

// The largest tensors a snippet allocates; past these it stays at the shape level.
const DATA_LIMIT = 1e7;

const isStatic = (s) => Array.isArray(s) && s.every((d) => typeof d === 'number' && d >= 0);
const count = (s) => s.reduce((p, d) => p * d, 1);
const small = (s) => isStatic(s) && count(s) <= DATA_LIMIT;

// ---- literals ------------------------------------------------------------------

const IDENT = /^[A-Za-z_$][\w$]*$/;


/**
 * An object literal's key for `k`, always an own property of the object the
 * literal builds. Keys come from dim names a person typed (coords), so any
 * string: identifier-like names stay bare, others are quoted. `__proto__` is
 * the exception: `{ __proto__: v }` and `{ '__proto__': v }` both set the
 * literal's prototype instead of adding a key; only a computed key
 * `['__proto__']: v` makes an own property.
 */
export function jsKey(k) {
  if (k === '__proto__') return `[${jsString(k)}]`;
  return IDENT.test(k) ? k : jsString(k);
}

/** A JavaScript literal for plain data: [8, 1], 'x', { dims: ['x'] }. */
export function jsLiteral(v) {
  if (Array.isArray(v)) return `[${v.map(jsLiteral).join(', ')}]`;
  if (typeof v === 'string') return jsString(v);
  if (v && typeof v === 'object') {
    const parts = Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${jsKey(k)}: ${jsLiteral(x)}`);
    return parts.length ? `{ ${parts.join(', ')} }` : '{}';
  }
  return String(v);
}

/**
 * A JavaScript literal laid out for reading: one line when it fits in `width`
 * characters, else one key per line (and one element per line for arrays of
 * objects).
 */
export function jsBlock(v, width = 80, indent = '') {
  const flat = jsLiteral(v);
  if (flat.length + indent.length <= width || v === null || typeof v !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (!v.some((x) => x && typeof x === 'object' && !Array.isArray(x))) return flat;
    return `[\n${v.map((x) => `${inner}${jsBlock(x, width, inner)},`).join('\n')}\n${indent}]`;
  }
  const lines = Object.entries(v).filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${inner}${jsKey(k)}: ${jsBlock(x, width, inner)},`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** A Python tuple: (8, 1, 6, 1), (3,), (). */
export function pyTuple(shape) {
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(', ')})`;
}

/** An OpenVINO Python shape: [8, 1] static, else an ov.PartialShape of ov.Dimension. */
function ovShape(shape) {
  if (!Array.isArray(shape)) return 'ov.PartialShape.dynamic()';
  if (isStatic(shape)) return `[${shape.join(', ')}]`;
  const dim = (d) => {
    if (typeof d === 'number') return `ov.Dimension(${d})`;
    if (d === '?') return 'ov.Dimension()';
    const [lo, hi] = d.split('..');
    return `ov.Dimension(${lo === '' ? 0 : lo}, ${hi === '' ? -1 : hi})`;
  };
  return `ov.PartialShape([${shape.map(dim).join(', ')}])`;
}

/** An OpenVINO C++ shape: ov::PartialShape{2, 3} (Dimension objects for dynamic dims). */
function ovCppShape(shape) {
  if (!Array.isArray(shape)) return 'ov::PartialShape::dynamic()';
  const dim = (d) => {
    if (typeof d === 'number') return String(d);
    if (d === '?') return 'ov::Dimension::dynamic()';
    const [lo, hi] = d.split('..');
    return `ov::Dimension(${lo === '' ? 0 : lo}, ${hi === '' ? -1 : hi})`;
  };
  return `ov::PartialShape{${shape.map(dim).join(', ')}}`;
}

// ---- dtypes ------------------------------------------------------------------------

// tensorcast dtype -> [NumPy, PyTorch, OpenVINO (Python ov.Type / C++ ov::element)], with a note where the twin differs.
const DTYPE_MAP = {
  float32: ['float32', 'float32', 'f32'],
  float64: ['float64', 'float64', 'f64'],
  int8: ['int8', 'int8', 'i8'],
  uint8: ['uint8', 'uint8', 'u8'],
  uint8clamped: ['uint8', 'uint8', 'u8', 'uint8clamped has no twin here: uint8 (no clamping)'],
  int16: ['int16', 'int16', 'i16'],
  uint16: ['uint16', 'uint16', 'u16'],
  int32: ['int32', 'int32', 'i32'],
  uint32: ['uint32', 'uint32', 'u32'],
  bigint64: ['int64', 'int64', 'i64'],
  biguint64: ['uint64', 'uint64', 'u64'],
  float16: ['float16', 'float16', 'f16'],
};

// OpenVINO element type -> C++ element type (for reading an ov::Tensor's data).
const CPP_TYPE = { f16: 'ov::float16', f32: 'float', f64: 'double', i8: 'int8_t', u8: 'uint8_t', i16: 'int16_t', u16: 'uint16_t', i32: 'int32_t', u32: 'uint32_t', i64: 'int64_t', u64: 'uint64_t' };
const isIntDtype = (name) => /int/.test(name);

function dtypeOf(dtype, k) {
  const m = DTYPE_MAP[dtype];
  if (!m) return { name: ['float32', 'float32', 'f32'][k], note: `${dtype} has no twin here: float32` };
  const torchNote = k === 1 && ['uint16', 'uint32', 'uint64'].includes(m[1]) ? `torch.${m[1]} has limited operator support` : null;
  return { name: m[k], note: m[3] ?? torchNote };
}

// ---- the state's parts ----------------------------------------------------------------

const VAR = 'abcdefgh';

/**
 * Everything a generator needs: the request the page hands to explain() and
 * the plan it returned. Returns null when the input does not parse.
 */
function parts(built, plan) {
  if (!built || !built.ok || !plan) return null;
  const req = built.request;
  const shapes = req.rule === 'named' ? plan.operands.map((o) => o.shape) : req.shapes;
  return { req, plan, shapes, ok: plan.ok === true };
}

// Every snippet is assembled by its language's source function (escape.js): text typed on the page
// reaches the code only through jsString / jsComment / pyString / pyComment, and the source
// functions escape any line terminator left raw. C++ (OpenVINO's PDPD) takes no typed text.
const cppSource = (lines) => lines.filter((l) => l !== null).join('\n');

// ---- data and printing -------------------------------------------------------------

const BIG_ARRAYS = new Set(['BigInt64Array', 'BigUint64Array']);

// float16 has a typed array only where the runtime has Float16Array (not Node 20): its snippets
// take the README's two forms, a Float16Array there and the bits in a Uint16Array marked
// dtype: 'float16' elsewhere, both made by the library's cast() (float32 values rounded to
// nearest even, as a Float16Array store rounds) and printed through cast() to float64.
const isHalf = (dt) => dt.name === 'float16';
/** `, dtype: 'float16'` in an operand literal where the data may be float16 bits. */
const dtypeField = (dt) => (isHalf(dt) ? ", dtype: 'float16'" : '');
/** The names a snippet on data imports beyond its calls: cast for float16. */
const dataImports = (dt) => (isHalf(dt) ? ['cast'] : []);

/** The lines before a snippet's data: the float16 helpers, or the note that the preview falls back to another dtype. */
function dataPrelude(dt) {
  if (!isHalf(dt)) return [fallbackNote(dt)];
  return [
    jsComment("float16: a Float16Array where the runtime has one, elsewhere (Node 20) its bits in a Uint16Array marked dtype: 'float16' (the README's float16 section);"),
    jsComment('cast() makes either from float32 values, rounding as a Float16Array store does, and reads either back as numbers.'),
    "const half = (n, from = 0) => cast({ data: Float32Array.from({ length: n }, (_, i) => i + from), shape: [n] }, 'float16').data;",
    "const numbers = (t) => cast({ data: t.data, shape: [t.data.length], dtype: 'float16' }, 'float64').data;",
  ];
}

/** arange(n) as the copied code writes it: the preview's own construction (views.js arange). */
function arangeCode(n, dt) {
  if (isHalf(dt)) return `half(${n})`;
  return BIG_ARRAYS.has(dt.array) ? `${dt.array}.from({ length: ${n} }, (_, i) => BigInt(i))` : `${dt.array}.from({ length: ${n} }, (_, i) => i)`;
}

/** An operand literal (its `data: null` first) with `data` filled in by the code `dataCode`. */
function filled(operand, dataCode) {
  const lit = jsLiteral(operand);
  if (!lit.startsWith('{ data: null')) throw new Error('an operand literal starts with its data');
  return `{ data: ${dataCode}${lit.slice('{ data: null'.length)}`;
}

/**
 * The line that prints a data result as the page shows it: its name, shape
 * (and dims), then its values row-major; past the preview's size, the first
 * eight values.
 */
function logLine(v, size, named = false, dt = null) {
  const data = dt && isHalf(dt) ? `numbers(${v})` : `${v}.data`;
  const vals = size <= PREVIEW_LIMIT ? `\${${data}.join(' ')}` : `\${${data}.subarray(0, 8).join(' ')} …`;
  const dims = named ? ` dims (\${${v}.dims.join(', ')})` : '';
  return `console.log(\`${v} \${formatShape(${v}.shape)}${dims}: ${vals}\`);`;
}

const fallbackNote = (dt) => (dt.fallback ? jsComment(`${dt.fallback} has no typed array in this runtime: the data preview computes in ${dt.name}, and so does this code.`) : null);

const PREVIEW_NOTE = 'It runs on the data preview\'s values (each input holds arange(size)) and prints the result\'s shape and values as the preview shows them.';
const BACK_NOTE = 'The gradient of the result holds arange(size), as the backward data preview draws it; each operand\'s gradient printed is the one the preview shows.';

/**
 * Whether a forward snippet can run on data: a plan that succeeded, static,
 * with the result and every operand (the Broadcast op's input, not its
 * target, which may hold −1) small enough to allocate.
 */
function runnable(p) {
  const { plan } = p;
  return p.ok && plan.static && typeof plan.size === 'number' && plan.size <= DATA_LIMIT && plan.operands.every((o) => small(o.shape));
}

// ---- tensorcast ---------------------------------------------------------------------

function tensorcastCode(p, dt) {
  const { req, plan } = p;
  const lines = [];
  const names = [];
  const dataLines = [];
  let call = null;
  const canRun = runnable(p);
  if (canRun) {
    const opts = forwardOptions(req);
    const o = opts ? `, ${jsLiteral(opts)}` : '';
    if (req.rule === 'broadcastTo') {
      dataLines.push(`const x = { data: ${arangeCode(count(req.shapes[0]), dt)}, shape: ${jsLiteral(req.shapes[0])}${dtypeField(dt)} };`);
      call = `broadcastTo(x, ${jsLiteral(dataTarget(plan, req))}${o})`;
      names.push('broadcastTo');
    } else if (req.rule === 'named') {
      req.operands.forEach((op, k) => {
        const shape = plan.operands[k].shape;
        dataLines.push(`const ${VAR[k]} = ${filled({ data: null, shape, dims: op.dims, coords: op.coords, dtype: isHalf(dt) ? 'float16' : undefined }, arangeCode(count(shape), dt))};`);
      });
      call = `add(a, b${o})`;
      names.push('add');
    } else if (req.shapes.length >= 2) {
      req.shapes.forEach((s, k) => dataLines.push(`const ${VAR[k]} = { data: ${arangeCode(count(s), dt)}, shape: ${jsLiteral(s)}${dtypeField(dt)} };`));
      call = req.shapes.slice(1).reduce((acc, _, k) => `add(${acc}, ${VAR[k + 1]}${o})`, 'a');
      names.push('add');
    }
  }
  if (call) names.push(...dataImports(dt));
  lines.push(`import { init, explain${names.map((n) => `, ${n}`).join('')}, formatShape } from 'tensorcast';`, '', 'await init();');
  lines.push(`const plan = explain(${jsBlock(req, 64)});`);
  if (p.ok) lines.push(jsComment(`plan.shape: ${jsLiteral(plan.shape)}`));
  else lines.push(jsComment(`plan.ok === false, plan.error.code: ${jsLiteral(plan.error?.code ?? plan.error?.name ?? 'error')}`));
  if (call) {
    lines.push('', jsComment('The same broadcast on the data preview\'s values: each input holds arange(size).'), ...dataPrelude(dt), ...dataLines,
      `const out = ${call};`, logLine('out', plan.size, req.rule === 'named', dt));
  } else {
    lines.push(p.ok ? 'console.log(\'result\', formatShape(plan.shape));' : 'console.log(plan.error.code, plan.error.message);');
  }
  const why = call ? ` ${PREVIEW_NOTE}` : p.ok ? ' The shapes are dynamic or too large to allocate here, so it prints the shape only.' : '';
  return { lang: 'js', code: jsSource(lines), note: `The exact call behind this page: explain() returns the plan drawn above.${why}` };
}

// ---- tensorcast, expression mode -----------------------------------------------------

// Words a module (strict code) cannot bind with const: reserved words, strict-mode ones, await, eval and arguments.
const RESERVED = new Set(('break case catch class const continue debugger default delete do else enum export extends false finally for function if '
  + 'import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface '
  + 'package private protected public await eval arguments').split(' '));

/**
 * A const name for each operand of an expression: the operand's own name when
 * it can be one (an identifier that is no reserved word and not one of the
 * snippet's own names, `taken`), else v0, v1, … (never one of the others).
 */
function bindings(names, taken) {
  const used = new Set(taken);
  const bare = names.map((n) => IDENT.test(n) && !RESERVED.has(n) && !used.has(n));
  names.forEach((n, k) => { if (bare[k]) used.add(n); });
  return names.map((n, k) => {
    if (bare[k]) return n;
    let v = `v${k}`;
    while (used.has(v)) v = `_${v}`;
    used.add(v);
    return v;
  });
}

/** 1, 2, 3, … as the copied code writes it: the expression preview's own construction (expression.js ones). */
function onesCode(n, dt) {
  if (isHalf(dt)) return `half(${n}, 1)`;
  return BIG_ARRAYS.has(dt.array) ? `${dt.array}.from({ length: ${n} }, (_, i) => BigInt(i + 1))` : `${dt.array}.from({ length: ${n} }, (_, i) => i + 1)`;
}

/**
 * Expression mode: tensorcast's evaluate() on the data preview's values
 * (each operand holds 1, 2, 3, … in the preview's dtype), printing the
 * result as the preview shows it; past the data limit, compile().explain()
 * at the shape level. The other frameworks have no such call here.
 */
function expressionCode(tab, state, built, plan) {
  if (tab !== 'tensorcast') {
    return { lang: 'text', code: null, note: `Expression mode copies as tensorcast's evaluate(): its syntax is JavaScript's, and ${CODE_LABELS[tab] ?? tab} has no one-pass call for a whole expression. Pick the tensorcast tab.` };
  }
  if (!built || !built.ok || !plan) return { lang: 'text', code: null, note: 'Fix the input to see the code.' };
  const text = state.expr;
  const req = built.request;
  const dt = previewDtype(state.dtype);
  const names = Object.keys(req.shapes);
  const sizes = names.map((n) => count(req.shapes[n]));
  const out = plan.ok ? plan.expr : null;
  const canRun = !!out && sizes.every((n) => n <= DATA_LIMIT) && count(out.shape) <= DATA_LIMIT;
  const lines = [];
  if (canRun) {
    const odt = previewDtype(out.dtype); // the result's dtype: a comparison's uint8, a cast's, …
    const helpers = isHalf(odt) && !isHalf(dt) ? odt : dt; // the float16 helpers when operands or result need them
    lines.push(`import { ${['init', 'evaluate', ...dataImports(helpers), 'formatShape'].join(', ')} } from 'tensorcast';`, '', 'await init();', jsComment("The data preview's values: each operand holds 1, 2, 3, …"), ...dataPrelude(helpers));
    const vars = bindings(names, ['init', 'evaluate', 'cast', 'formatShape', 'out', 'half', 'numbers']);
    names.forEach((n, k) => lines.push(`const ${vars[k]} = { data: ${onesCode(sizes[k], dt)}, shape: ${jsLiteral(req.shapes[n])}${dtypeField(dt)} };`));
    const obj = names.map((n, k) => (vars[k] === n ? n : `${jsKey(n)}: ${vars[k]}`)).join(', ');
    lines.push(`const out = evaluate(${jsString(text)}, { ${obj} });`);
    lines.push(jsComment(`out: ${jsLiteral(out.shape)} ${out.dtype}, ${out.execution === 'generated' ? 'generated wasm' : 'interpreted'}`));
    lines.push(logLine('out', count(out.shape), false, odt));
    return { lang: 'js', code: jsSource(lines), note: `The expression on the data preview's values (each operand holds 1, 2, 3, …): it prints the result's shape and values as the preview shows them.` };
  }
  lines.push(`import { init, compile, formatShape } from 'tensorcast';`, '', 'await init();', `const expr = compile(${jsString(text)});`);
  lines.push(`const info = expr.explain(${jsBlock(req.shapes, 64)}${state.dtype === 'float32' ? '' : `, { dtypes: ${jsLiteral(Object.fromEntries(names.map((n) => [n, state.dtype])))} }`});`);
  if (out) lines.push('console.log(formatShape(info.shape), info.dtype, info.execution);');
  else if (plan.kind === 'syntax') lines.push(jsComment(`throws ${plan.error?.name ?? 'SyntaxError'}: ${String(plan.error?.first ?? plan.error?.message ?? '').split('\n')[0]}`)); // compile() throws it
  else {
    // explain() never throws: the refusal is its answer (evaluate() would throw it).
    lines.push('console.log(info.ok, info.error.code ?? info.error.name, info.error.message.split(\'\\n\')[0]);');
    lines.push(jsComment(`→ false ${plan.error?.code ?? plan.error?.name ?? 'an error'} ${String(plan.error?.first ?? plan.error?.message ?? '').split('\n')[0]}`));
  }
  return { lang: 'js', code: jsSource(lines), note: out ? 'The shapes are too large to allocate here, so it explains them without data.' : plan.kind === 'syntax' ? 'The expression does not parse: compile() throws the error shown above.' : 'The expression is refused: explain() answers with the error shown above (evaluate() would throw it).' };
}

// ---- tensorcast, backward -------------------------------------------------------------

const varName = (name) => name.replace(/[^\w$]/g, '_').replace(/^./, (c) => c.toUpperCase());

function backwardCode(p, dt) {
  const { req, plan } = p;
  const view = backwardView(req, plan);
  if (!view.ok) return { lang: 'js', code: null, note: view.reason };
  if (req.rule === 'named') return namedBackwardCode(view, plan, dt);
  const out = view.outShape;
  const withData = plan.static && isStatic(out) && count(out) <= DATA_LIMIT && view.operands.every((o) => isStatic(o.shape));
  const names = ['reductionAxes'];
  if (withData) names.push('unbroadcast', ...dataImports(dt), 'formatShape');
  const lines = [`import { init, ${names.join(', ')} } from 'tensorcast';`, '', 'await init();',
    jsComment(`The way back: a gradient of the result ${jsLiteral(out)} summed to each operand's shape.`)];
  if (withData) lines.push(jsComment('The gradient holds arange(size), as the backward data preview draws it.'), ...dataPrelude(dt), `const grad = { data: ${arangeCode(count(out), dt)}, shape: ${jsLiteral(out)}${dtypeField(dt)} };`);
  for (const o of view.operands) {
    const v = varName(o.name);
    const opt = o.options ? `, ${jsLiteral(o.options)}` : '';
    const axesCall = `reductionAxes(${jsLiteral(o.shape)}, ${jsLiteral(out)}${opt})`;
    lines.push('');
    if (o.error) {
      lines.push(jsComment(`${o.name}: ${axesCall} throws ${o.error.code}:`), ...String(o.error.message).split('\n').map((l) => jsComment(`  ${l}`)));
      continue;
    }
    lines.push(`const axes${v} = ${axesCall}; ${jsComment(jsLiteral(o.axes))}`);
    if (withData) lines.push(`const grad${v} = unbroadcast(grad, ${jsLiteral(o.shape)}${opt}); ${jsComment(`grad${v}.shape: ${jsLiteral(o.shape)}`)}`, logLine(`grad${v}`, count(o.shape), false, dt));
    else lines.push(`console.log('axes${v}', axes${v});`);
  }
  const noData = withData ? ` ${BACK_NOTE}` : ' The shapes are dynamic or too large to allocate here, so only the axes are computed.';
  return { lang: 'js', code: jsSource(lines), note: `The backward view: unbroadcast() sums the gradient over reductionAxes(), the axes drawn with ← above.${noData}` };
}

// Named dims: the gradient carries the result's dims (and labels), and
// unbroadcast() takes each operand as { dims, shape } or { dims, coords }.
function namedBackwardCode(view, plan, dt) {
  const out = view.outShape;
  const withData = plan.static && isStatic(out) && count(out) <= DATA_LIMIT && view.operands.every((o) => isStatic(o.shape));
  const lines = [`import { ${['init', ...(withData ? ['unbroadcast', ...dataImports(dt), 'formatShape'] : [])].join(', ')} } from 'tensorcast';`, '', 'await init();',
    jsComment(`The way back, by name: a gradient of the result (dims ${view.outDims.join(', ')}) summed to each operand's dims.`)];
  const grad = { data: null, shape: out, dims: view.outDims, coords: view.outCoords, dtype: withData && isHalf(dt) ? 'float16' : undefined };
  const gradLine = `const grad = ${filled(grad, withData ? arangeCode(count(out), dt) : `new ${dt.array}(${isStatic(out) ? count(out) : 0})`)};`;
  if (withData) lines.push(jsComment('The gradient holds arange(size), as the backward data preview draws it.'), ...dataPrelude(dt), gradLine);
  else lines.push(jsComment(gradLine));
  for (const o of view.operands) {
    const v = varName(o.name);
    const call = `unbroadcast(grad, ${jsLiteral(o.target)})`;
    const result = `grad${v}.dims: ${jsLiteral(o.dims)}, grad${v}.shape: ${jsLiteral(o.shape)}`;
    lines.push('', jsComment(`${o.name} ${jsLiteral(o.dims)}: ${o.text}.`));
    if (withData) lines.push(`const grad${v} = ${call}; ${jsComment(result)}`, logLine(`grad${v}`, count(o.shape), true, dt));
    else lines.push(jsComment(`const grad${v} = ${call}; // ${result}`));
  }
  const noData = withData ? ` ${BACK_NOTE}` : ' The shapes are dynamic or too large to allocate here, so the calls are shown, not run.';
  return {
    lang: 'js',
    code: jsSource(lines),
    note: `The backward view, by name: unbroadcast() sums the dims an operand lacks (the axes drawn with ← above) and gives the rest the operand's order and labels.${noData}`,
  };
}

// ---- NumPy and PyTorch ---------------------------------------------------------------

/** Where the rule put operand k's dims: its aligned shape, read from the plan. */
function aligned(plan, k) {
  const op = plan.operands[k];
  return op && Array.isArray(op.aligned) && isStatic(op.aligned) ? op.aligned : null;
}

/** arange(size) reshaped to `shape`, in NumPy or PyTorch. */
function pyArange(lib, shape, dt) {
  return `${lib}.arange(${count(shape)}, dtype=${lib}.${dt}).reshape(${pyTuple(shape)})`;
}

function pyArrays(lib, shapes, dt) {
  return shapes.map((s, k) => `${VAR[k]} = ${pyArange(lib, s, dt)}`);
}

/** Print a result as the page shows it: its name and shape, then its values. */
function pyPrint(lib, v, expr = v) {
  return [`print(${pyString(v)}, ${lib === 'torch' ? `tuple(${expr}.shape)` : `${expr}.shape`})`, `print(${expr})`];
}

const PY_DATA = pyComment('The data preview\'s values: each input holds arange(size).');

/** The Python name of an operand's gradient: grad_a, grad_input. */
const pyGrad = (name) => `grad_${name.toLowerCase().replace(/\W/g, '_')}`;

function pythonCode(lib, p, dtypeName, state) {
  const { req, plan } = p;
  const NAME = lib === 'np' ? 'NumPy' : 'PyTorch';
  const k = lib === 'np' ? 0 : 1;
  const dt = dtypeOf(dtypeName, k);
  const imp = lib === 'np' ? 'import numpy as np' : 'import torch';
  const bshapes = `${lib}.broadcast_shapes`;
  const rule = state.rule;
  const dtNote = dt.note ? pyComment(dt.note) : null;
  const none = (note) => ({ lang: 'python', code: null, note });

  if (rule === 'named') {
    return none(lib === 'np'
      ? 'NumPy has no named dims: it matches axes by position only (xarray adds dims and coordinates on top of NumPy).'
      : 'PyTorch has no broadcasting by name: its named tensors (a prototype) still match dims by position, and carry no coordinates.');
  }
  const shapesIn = req.shapes;
  const dynamic = shapesIn.some((s) => !Array.isArray(s) || s.some((d) => typeof d !== 'number' || (d < 0 && !(rule === 'to-numpy' && d === -1))));
  if (dynamic) return none(`${NAME} has no dynamic dims: ? , intervals and [...] have no ${NAME} shape; every dim must be a number.`);
  if (rule === 'none') return none(`${NAME} always broadcasts: it has no rule that only takes identical shapes (OpenVINO's NONE).`);
  if (state.backward) return pythonBackward(lib, p, dt, dtNote, imp);

  if (rule === 'numpy') {
    const lines = [imp, '', dtNote];
    if (shapesIn.length >= 2 && shapesIn.every(small) && (!p.ok || plan.size <= DATA_LIMIT)) {
      lines.push(PY_DATA, ...pyArrays(lib, shapesIn, dt.name), `out = ${shapesIn.map((_, i) => VAR[i]).join(' + ')}`, ...pyPrint(lib, 'out'));
    } else {
      lines.push(`print(${bshapes}(${shapesIn.map(pyTuple).join(', ')}))`);
    }
    return { lang: 'python', code: pySource(lines), note: null };
  }
  if (rule === 'pdpd') {
    const b = p.ok ? aligned(plan, 1) : null;
    if (!b) return none(`${NAME} has no PDPD broadcasting (B aligned into A at an axis), and these shapes do not broadcast under PDPD: there is no reshape to show.`);
    const lines = [imp, '', dtNote, pyComment(`B ${pyTuple(shapesIn[1])} reshaped to where PDPD puts it (axis ${req.axis}): ${pyTuple(b)}`)];
    if (shapesIn.every(small)) lines.push(PY_DATA, ...pyArrays(lib, shapesIn, dt.name), `out = a + b.reshape(${pyTuple(b)})`, ...pyPrint(lib, 'out'));
    else lines.push(`print(${bshapes}(${pyTuple(shapesIn[0])}, ${pyTuple(b)}))`);
    return { lang: 'python', code: pySource(lines), note: `${NAME} has no PDPD broadcasting: the same result from ${NAME}'s own broadcasting once B is reshaped as the plan aligns it.` };
  }
  // The Broadcast op (input -> target).
  const [input, target] = shapesIn;
  if (!small(input)) return none(`${NAME} broadcasts an array: an input of ${count(input)} elements is too large to allocate here.`);
  const x = `x = ${pyArange(lib, input, dt.name)}`;
  const to = (src, shape) => (lib === 'np' ? `np.broadcast_to(${src}, ${shape})` : `${src}.expand(${shape})`);
  const mode = rule.slice(3);
  const show = pyPrint(lib, 'out');
  if (mode === 'numpy') {
    if (target.includes(-1) && lib === 'np') {
      if (!p.ok) return none('NumPy\'s broadcast_to has no −1 (keep the input\'s dim) in the target, and these shapes do not broadcast: nothing to fill in.');
      return { lang: 'python', code: pySource([imp, '', dtNote, PY_DATA, x, pyComment(`the target ${pyTuple(target)} with its −1 dims filled in from the result`), `out = ${to('x', pyTuple(plan.shape))}`, ...show]), note: 'NumPy\'s broadcast_to has no −1 (keep the input\'s dim) in the target: the target below has them filled in from the plan.' };
    }
    return { lang: 'python', code: pySource([imp, '', dtNote, PY_DATA, x, `out = ${to('x', pyTuple(target))}`, ...show]), note: null };
  }
  if (mode === 'bidirectional') {
    const t = lib === 'np' ? 'np.broadcast_shapes(x.shape, ' : 'torch.broadcast_shapes(x.shape, ';
    return { lang: 'python', code: pySource([imp, '', dtNote, PY_DATA, x, pyComment('bidirectional (ONNX Expand): the target may grow too'), `out = ${to('x', `${t}${pyTuple(target)})`)}`, ...show]), note: null };
  }
  // explicit and pdpd: reshape to the plan's alignment, then broadcast.
  const al = p.ok ? aligned(plan, 0) : null;
  const what = mode === 'explicit' ? `axes mapping (${req.axesMapping ? `[${req.axesMapping.join(', ')}]` : ''})` : `PDPD alignment at an axis (${req.axis})`;
  if (!al) return none(`${NAME} has no ${what}, and these shapes do not broadcast under it: there is no reshape to show.`);
  return {
    lang: 'python',
    code: pySource([imp, '', dtNote, PY_DATA, x, pyComment(`the input reshaped to where the rule puts its dims: ${pyTuple(al)}`), `out = ${to(`x.reshape(${pyTuple(al)})`, pyTuple(plan.shape))}`, ...show]),
    note: `${NAME} has no ${what}: the same result from ${NAME}'s own broadcasting once the input is reshaped as the plan aligns it.`,
  };
}

/**
 * The way back in NumPy (a sum over the view's axes, then a reshape) or
 * PyTorch (sum_to_size; the plan's alignment first where the rule does not
 * right-align the operand), from an upstream gradient holding arange(size).
 */
function pythonBackward(lib, p, dt, dtNote, imp) {
  const { req, plan } = p;
  const view = backwardView(req, plan);
  if (!view.ok) return { lang: 'python', code: null, note: view.reason };
  const out = view.outShape;
  if (!small(out) || !view.operands.every((o) => small(o.shape) && !o.error)) {
    return { lang: 'python', code: null, note: `The gradient of a result of ${isStatic(out) ? count(out) : '?'} elements is too large to allocate here: the tensorcast tab computes its axes.` };
  }
  const lines = [imp, '', dtNote,
    pyComment(`The way back: the gradient of the result ${pyTuple(out)} holds arange(size), as the backward data preview draws it;`),
    pyComment(lib === 'np' ? 'each operand\'s gradient is it summed over the axes marked ← and reshaped to the operand.' : 'each operand\'s gradient is it summed back to the operand\'s size (sum_to_size).'),
    `grad = ${pyArange(lib, out, dt.name)}`];
  let realigned = false;
  view.operands.forEach((o, k) => {
    const v = pyGrad(o.name);
    lines.push('');
    if (lib === 'np') {
      lines.push(o.axes.length
        ? `${v} = grad.sum(axis=${pyTuple(o.axes)}, dtype=grad.dtype).reshape(${pyTuple(o.shape)})`
        : `${v} = grad.reshape(${pyTuple(o.shape)})  ${pyComment('nothing to sum')}`);
    } else {
      // sum_to_size right-aligns the size it is given: where the rule put the operand elsewhere, its aligned shape.
      const al = aligned(plan, k);
      const padded = [...Array(Math.max(0, out.length - o.shape.length)).fill(1), ...o.shape];
      const cast = isIntDtype(dt.name) ? '.to(grad.dtype)' : '';
      if (al && !(padded.length === al.length && padded.every((d, i) => d === al[i]))) {
        realigned = true;
        lines.push(`${v} = grad.sum_to_size(${pyTuple(al)})${cast}.reshape(${pyTuple(o.shape)})  ${pyComment(`${o.name} as the rule aligns it: ${pyTuple(al)}`)}`);
      } else {
        lines.push(`${v} = grad.sum_to_size(${pyTuple(o.shape)})${cast}`);
      }
    }
    lines.push(...pyPrint(lib, v));
  });
  const intNote = lib === 'torch' && isIntDtype(dt.name) ? ' sum_to_size sums integers in int64: .to(grad.dtype) gives the page\'s dtype back (wrapping as tensorcast does).' : '';
  const note = lib === 'np'
    ? `NumPy has no unbroadcast: the gradient is summed over the axes the page marks ← (the library's reductionAxes) with dtype=grad.dtype (tensorcast keeps the gradient's dtype), then reshaped to the operand. ${BACK_NOTE}`
    : `PyTorch's sum_to_size sums to a size it right-aligns${realigned ? '; where the rule aligns an operand otherwise, the size given is the operand as the plan aligns it, then a reshape' : ''}.${intNote} ${BACK_NOTE}`;
  return { lang: 'python', code: pySource(lines), note };
}

// ---- OpenVINO ---------------------------------------------------------------------------

const OV_DATA = pyComment('Run it on the data preview\'s values: each input holds arange(size).');
const npArange = (shape, npName) => `np.arange(${count(shape)}, dtype=np.${npName}).reshape(${pyTuple(shape)})`;
const npInts = (list) => `np.array([${list.join(', ')}], dtype=np.int64)`;

/** Compile a Python OpenVINO model and print its outputs on arange inputs. */
function ovRun(outs, params, paramShapes, npName, labels) {
  const lines = [OV_DATA, `compiled = ov.Core().compile_model(ov.Model([${outs.join(', ')}], [${params.join(', ')}]), "CPU")`,
    `results = compiled([${paramShapes.map((s) => npArange(s, npName)).join(', ')}])`];
  labels.forEach((l, i) => lines.push(`print(${pyString(l)}, results[${i}].shape)`, `print(results[${i}])`));
  return lines;
}

/** C++: compile `out` with its parameters, feed arange data, print the result. */
function ovCppRun(params, shapes, dt) {
  const T = CPP_TYPE[dt.name] ?? 'float';
  const lines = ['', '    // Run it on the data preview\'s values: each input holds arange(size).',
    `    auto model = std::make_shared<ov::Model>(ov::OutputVector{out}, ov::ParameterVector{${params.join(', ')}});`,
    '    ov::Core core;',
    '    auto request = core.compile_model(model, "CPU").create_infer_request();'];
  params.forEach((v, i) => {
    lines.push(`    std::vector<${T}> ${v}_data(${count(shapes[i])});`, `    std::iota(${v}_data.begin(), ${v}_data.end(), ${T}(0));`,
      `    request.set_input_tensor(${i}, ov::Tensor(ov::element::${dt.name}, ov::Shape{${shapes[i].join(', ')}}, ${v}_data.data()));`);
  });
  lines.push('    request.infer();', '    const ov::Tensor result = request.get_output_tensor();',
    '    std::cout << "out " << result.get_shape() << "\\n";',
    `    for (size_t i = 0; i < result.get_size(); ++i) std::cout << +result.data<${T}>()[i] << (i + 1 < result.get_size() ? ' ' : '\\n');`);
  return lines;
}

function ovCpp(includes, body, run) {
  return cppSource([
    '#include <iostream>',
    '#include <numeric>',
    '#include <vector>',
    '#include <openvino/openvino.hpp>',
    ...includes,
    '',
    'int main() {',
    ...body.map((l) => `    ${l}`),
    '    std::cout << out->get_output_partial_shape(0) << "\\n";',
    ...run,
    '    return 0;',
    '}',
  ]);
}

function openvinoBackward(p, dt, npName, dtNote) {
  const { req, plan } = p;
  const view = backwardView(req, plan);
  if (!view.ok) return { lang: 'python', code: null, note: view.reason };
  const err = view.operands.find((o) => o.error);
  if (err) return { lang: 'python', code: null, note: `No ReduceSum to write: the library cannot tell which axes are summed (${err.name}: ${err.error.message}).` };
  const out = view.outShape;
  if (!isStatic(out) || !view.operands.every((o) => isStatic(o.shape))) {
    return { lang: 'python', code: null, note: 'The shapes are dynamic: the ReduceSum axes are the ones the page marks ←, and the Reshape targets are not known here, so no model is written.' };
  }
  const lines = ['import numpy as np', 'import openvino as ov', 'import openvino.opset13 as ops', '', dtNote,
    pyComment(`The way back: the gradient of the result ${pyTuple(out)}; each operand's gradient is ReduceSum over the axes`),
    pyComment('marked ← (the library\'s reductionAxes), then Reshape to the operand.'),
    `grad = ops.parameter([${out.join(', ')}], ov.Type.${dt.name})`];
  const names = view.operands.map((o) => pyGrad(o.name));
  view.operands.forEach((o, k) => {
    const src = o.axes.length ? `ops.reduce_sum(grad, ${npInts(o.axes)}, keep_dims=False)` : 'grad';
    lines.push(`${names[k]} = ops.reshape(${src}, ${npInts(o.shape)}, special_zero=False)`);
  });
  const run = small(out) && count(out) <= DATA_LIMIT;
  if (run) lines.push('', ...ovRun(names, ['grad'], [out], npName, names).map((l) => l.replace('each input holds arange(size)', 'the gradient holds arange(size), as the backward data preview draws it')));
  return {
    lang: 'python',
    code: pySource(lines),
    note: `OpenVINO has no unbroadcast or sum_to_size: the way back is ReduceSum over the axes the page marks ←, then Reshape to the operand.${run ? ` ${BACK_NOTE}` : ''}`,
  };
}

function openvinoCode(p, dtypeName, state) {
  const { req, plan } = p;
  const dt = dtypeOf(dtypeName, 2);
  const npName = dtypeOf(dtypeName, 0).name;
  const rule = state.rule;
  const dtNote = dt.note ? pyComment(dt.note) : null;
  const head = ['import numpy as np', 'import openvino as ov', 'import openvino.opset13 as ops', ''];
  if (rule === 'named') return { lang: 'python', code: null, note: 'OpenVINO has no named dims: its rules match axes by position only.' };
  if (state.backward) return openvinoBackward(p, dt, npName, dtNote);
  const runX = runnable(p);
  if (rule === 'numpy' || rule === 'none') {
    const lines = [...head, dtNote];
    req.shapes.forEach((s, k) => lines.push(`${VAR[k]} = ops.parameter(${ovShape(s)}, ov.Type.${dt.name})`));
    if (req.shapes.length < 2) return { lang: 'python', code: null, note: 'OpenVINO\'s element-wise ops take two operands: add another.' };
    const call = req.shapes.slice(1).reduce((acc, _, k) => `ops.add(${acc}, ${VAR[k + 1]}, auto_broadcast="${rule}")`, 'a');
    lines.push(`out = ${call}`, 'print(out.get_output_partial_shape(0))');
    if (runX) lines.push('', ...ovRun(['out'], req.shapes.map((_, k) => VAR[k]), req.shapes, npName, ['out']));
    return { lang: 'python', code: pySource(lines), note: runX ? PREVIEW_NOTE : null };
  }
  if (rule === 'pdpd') {
    const [a, b] = req.shapes;
    return {
      lang: 'cpp',
      code: ovCpp(['#include <openvino/op/add.hpp>', '#include <openvino/op/parameter.hpp>'], [
        `auto a = std::make_shared<ov::op::v0::Parameter>(ov::element::${dt.name}, ${ovCppShape(a)});`,
        `auto b = std::make_shared<ov::op::v0::Parameter>(ov::element::${dt.name}, ${ovCppShape(b)});`,
        `auto out = std::make_shared<ov::op::v1::Add>(a, b, ov::op::AutoBroadcastSpec(ov::op::AutoBroadcastType::PDPD, ${req.axis}));`,
      ], runX ? ovCppRun(['a', 'b'], [a, b], dt) : []),
      note: `OpenVINO's Python ops.add() takes auto_broadcast by name only, with no axis: the PDPD axis is set in C++ (AutoBroadcastSpec).${runX ? ` ${PREVIEW_NOTE}` : ''}`,
    };
  }
  // Broadcast op.
  const [input, target] = req.shapes;
  const mode = req.mode;
  if (!Array.isArray(target) || !isStatic(target.filter((d) => d !== -1))) {
    return { lang: 'python', code: null, note: 'OpenVINO\'s Broadcast reads its target_shape from a tensor: a target with ? or interval dims has no constant to write here.' };
  }
  let t = target;
  let tNote = null;
  if (target.includes(-1)) {
    if (!p.ok) return { lang: 'python', code: null, note: 'OpenVINO\'s Broadcast has no −1 (keep the input\'s dim) in target_shape, and these shapes do not broadcast: nothing to fill in.' };
    // The dims a −1 keeps are the input's: a ?, an interval or an unknown rank there leaves no number to fill in.
    if (!isStatic(plan.shape)) return { lang: 'python', code: null, note: 'OpenVINO\'s Broadcast has no −1 (keep the input\'s dim) in target_shape, and the input\'s dim it keeps is not a number here: nothing to fill in.' };
    t = plan.shape;
    tNote = pyComment(`target_shape ${pyTuple(target)} with its −1 dims filled in from the result: OpenVINO has no −1 there`);
  }
  const tc = npInts(t);
  if (mode === 'pdpd') {
    return {
      lang: 'cpp',
      code: ovCpp(['#include <openvino/op/broadcast.hpp>', '#include <openvino/op/constant.hpp>', '#include <openvino/op/parameter.hpp>'], [
        `auto x = std::make_shared<ov::op::v0::Parameter>(ov::element::${dt.name}, ${ovCppShape(input)});`,
        `auto target = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{${t.length}}, std::vector<int64_t>{${t.join(', ')}});`,
        `auto out = std::make_shared<ov::op::v3::Broadcast>(x, target, ov::op::BroadcastModeSpec(ov::op::BroadcastType::PDPD, ${req.axis}));`,
      ], runX ? ovCppRun(['x'], [input], dt) : []),
      note: `OpenVINO's Python ops.broadcast() takes the mode by name only, with no axis: the PDPD axis is set in C++ (BroadcastModeSpec).${runX ? ` ${PREVIEW_NOTE}` : ''}`,
    };
  }
  const lines = [...head, dtNote, tNote, `x = ops.parameter(${ovShape(input)}, ov.Type.${dt.name})`];
  if (mode === 'explicit') {
    lines.push(`out = ops.broadcast(x, ${tc}, ${npInts(req.axesMapping ?? [])}, broadcast_spec="EXPLICIT")`);
  } else {
    lines.push(`out = ops.broadcast(x, ${tc}, broadcast_spec="${mode.toUpperCase()}")`);
  }
  lines.push('print(out.get_output_partial_shape(0))');
  if (runX) lines.push('', ...ovRun(['out'], ['x'], [input], npName, ['out']));
  return { lang: 'python', code: pySource(lines), note: runX ? PREVIEW_NOTE : null };
}

// ---- entry ------------------------------------------------------------------------------

/**
 * The snippet for one tab: { lang, code, note } — code is null (with a note
 * saying why) where the framework has no equivalent.
 * @param {string} tab one of CODE_LABELS' keys
 * @param {object} state the page state (rule, dtype, …)
 * @param {{ok: boolean, request?: object}} built buildRequest(state)
 * @param {object} plan explain(built.request)
 * @param {{name: string, array: string}} [dtype] the library's dtype entry
 *   (unused: the snippets take the data preview's dtype, views.js previewDtype)
 */
export function codeFor(tab, state, built, plan, dtype) {
  if (state.rule === 'expression') return expressionCode(tab, state, built, plan);
  const p = parts(built, plan);
  if (!p) return { lang: 'text', code: null, note: 'Fix the input to see the code.' };
  // The data preview's dtype (the page's, unless this runtime has no typed array for it).
  const dt = previewDtype(state.dtype);
  if (tab === 'tensorcast') return state.backward ? backwardCode(p, dt) : tensorcastCode(p, dt);
  if (tab === 'numpy') return pythonCode('np', p, state.dtype, state);
  if (tab === 'torch') return pythonCode('torch', p, state.dtype, state);
  if (tab === 'openvino') return openvinoCode(p, state.dtype, state);
  return { lang: 'text', code: null, note: `unknown tab ${tab}` };
}

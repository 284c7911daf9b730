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
// With the backward view on, the tensorcast tab holds the way back instead:
// reductionAxes() and unbroadcast() per operand, with the options the
// backward view (logic.js) read from the rule; named dims go by name, a
// named gradient and unbroadcast(grad, { dims, shape | coords }).
//
// Pure functions (no DOM), unit-tested in web/code.test.js.
import { backwardView } from './logic.js';

export const CODE_LABELS = { tensorcast: 'tensorcast', numpy: 'NumPy', torch: 'PyTorch', openvino: 'OpenVINO' };

// The largest tensors a snippet allocates; past these it stays at the shape level.
const DATA_LIMIT = 1e7;

const isStatic = (s) => Array.isArray(s) && s.every((d) => typeof d === 'number' && d >= 0);
const count = (s) => s.reduce((p, d) => p * d, 1);
const small = (s) => isStatic(s) && count(s) <= DATA_LIMIT;

// ---- literals ------------------------------------------------------------------

const IDENT = /^[A-Za-z_$][\w$]*$/;

function jsString(s) {
  const j = JSON.stringify(s);
  return s.includes("'") ? j : `'${j.slice(1, -1).replace(/\\"/g, '"')}'`;
}

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
};

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

const header = (lines) => lines.filter((l) => l !== null).join('\n');

// ---- tensorcast ---------------------------------------------------------------------

function tensorcastCode(p, dtype) {
  const { req, plan } = p;
  const lines = [];
  const array = dtype.array ?? 'Float32Array';
  const names = [];
  const dataLines = [];
  let call = null;
  const canRun = p.ok && plan.static && typeof plan.size === 'number' && plan.size <= DATA_LIMIT && p.shapes.every(small);
  if (canRun) {
    if (req.rule === 'broadcastTo') {
      dataLines.push(`const x = { data: new ${array}(${count(req.shapes[0])}), shape: ${jsLiteral(req.shapes[0])} };`);
      const o = { mode: req.mode, axesMapping: req.axesMapping, axis: req.axis };
      call = `broadcastTo(x, ${jsLiteral(req.shapes[1])}, ${jsLiteral(o)})`;
      names.push('broadcastTo');
    } else if (req.rule === 'named') {
      req.operands.forEach((op, k) => {
        const shape = plan.operands[k].shape;
        dataLines.push(`const ${VAR[k]} = ${jsLiteral({ data: null, shape, dims: op.dims, coords: op.coords }).replace('data: null', `data: new ${array}(${count(shape)})`)};`);
      });
      call = `add(a, b${req.shaping !== 'intersection' ? `, ${jsLiteral({ shaping: req.shaping })}` : ''})`;
      names.push('add');
    } else if (req.shapes.length >= 2) {
      req.shapes.forEach((s, k) => dataLines.push(`const ${VAR[k]} = { data: new ${array}(${count(s)}), shape: ${jsLiteral(s)} };`));
      const o = req.rule === 'pdpd' ? `, ${jsLiteral({ broadcast: { type: 'pdpd', axis: req.axis } })}`
        : req.rule === 'none' ? `, ${jsLiteral({ broadcast: { type: 'none' } })}` : '';
      call = req.shapes.slice(1).reduce((acc, _, k) => `add(${acc}, ${VAR[k + 1]}${o})`, 'a');
      names.push('add');
    }
  }
  lines.push(`import { init, explain${names.map((n) => `, ${n}`).join('')} } from 'tensorcast';`, '', 'await init();');
  lines.push(`const plan = explain(${jsBlock(req, 64)});`);
  if (p.ok) lines.push(`// plan.shape: ${jsLiteral(plan.shape)}`);
  else lines.push(`// plan.ok === false, plan.error.code: ${jsLiteral(plan.error?.code ?? plan.error?.name ?? 'error')}`);
  if (call) {
    lines.push('', '// The same broadcast on data (the preview\'s op):', ...dataLines, `const out = ${call};`, `// out.shape: ${jsLiteral(plan.shape)}`);
  }
  return { lang: 'js', code: header(lines), note: 'The exact call behind this page: explain() returns the plan drawn above.' };
}

// ---- tensorcast, backward -------------------------------------------------------------

const varName = (name) => name.replace(/[^\w$]/g, '_').replace(/^./, (c) => c.toUpperCase());

function backwardCode(p, dtype) {
  const { req, plan } = p;
  const view = backwardView(req, plan);
  if (!view.ok) return { lang: 'js', code: null, note: view.reason };
  if (req.rule === 'named') return namedBackwardCode(view, plan, dtype);
  const out = view.outShape;
  const array = dtype.array ?? 'Float32Array';
  const withData = plan.static && isStatic(out) && count(out) <= DATA_LIMIT && view.operands.every((o) => isStatic(o.shape));
  const names = ['reductionAxes'];
  if (withData) names.push('unbroadcast');
  const lines = [`import { init, ${names.join(', ')} } from 'tensorcast';`, '', 'await init();',
    `// The way back: a gradient of the result ${jsLiteral(out)} summed to each operand's shape.`];
  if (withData) lines.push(`const grad = { data: new ${array}(${count(out)}), shape: ${jsLiteral(out)} };`);
  for (const o of view.operands) {
    const v = varName(o.name);
    const opt = o.options ? `, ${jsLiteral(o.options)}` : '';
    const axesCall = `reductionAxes(${jsLiteral(o.shape)}, ${jsLiteral(out)}${opt})`;
    lines.push('');
    if (o.error) {
      lines.push(`// ${o.name}: ${axesCall} throws ${o.error.code}:`, `//   ${o.error.message}`);
      continue;
    }
    lines.push(`const axes${v} = ${axesCall}; // ${jsLiteral(o.axes)}`);
    if (withData) lines.push(`const grad${v} = unbroadcast(grad, ${jsLiteral(o.shape)}${opt}); // grad${v}.shape: ${jsLiteral(o.shape)}`);
  }
  const noData = withData ? '' : ' The shapes are dynamic or too large to allocate here, so only the axes are computed.';
  return { lang: 'js', code: header(lines), note: `The backward view: unbroadcast() sums the gradient over reductionAxes(), the axes drawn with ← above.${noData}` };
}

// Named dims: the gradient carries the result's dims (and labels), and
// unbroadcast() takes each operand as { dims, shape } or { dims, coords }.
function namedBackwardCode(view, plan, dtype) {
  const out = view.outShape;
  const array = dtype.array ?? 'Float32Array';
  const withData = plan.static && isStatic(out) && count(out) <= DATA_LIMIT && view.operands.every((o) => isStatic(o.shape));
  const lines = [`import { init${withData ? ', unbroadcast' : ''} } from 'tensorcast';`, '', 'await init();',
    `// The way back, by name: a gradient of the result (dims ${view.outDims.join(', ')}) summed to each operand's dims.`];
  const grad = { data: null, shape: out, dims: view.outDims, coords: view.outCoords };
  const gradLine = `const grad = ${jsLiteral(grad).replace('data: null', `data: new ${array}(${isStatic(out) ? count(out) : 0})`)};`;
  lines.push(withData ? gradLine : `// ${gradLine}`);
  for (const o of view.operands) {
    const v = varName(o.name);
    const call = `unbroadcast(grad, ${jsLiteral(o.target)})`;
    const result = `grad${v}.dims: ${jsLiteral(o.dims)}, grad${v}.shape: ${jsLiteral(o.shape)}`;
    lines.push('', `// ${o.name} ${jsLiteral(o.dims)}: ${o.text}.`);
    lines.push(withData ? `const grad${v} = ${call}; // ${result}` : `// const grad${v} = ${call}; // ${result}`);
  }
  const noData = withData ? '' : ' The shapes are dynamic or too large to allocate here, so the calls are shown, not run.';
  return {
    lang: 'js',
    code: header(lines),
    note: `The backward view, by name: unbroadcast() sums the dims an operand lacks (the axes drawn with ← above) and gives the rest the operand's order and labels.${noData}`,
  };
}

// ---- NumPy and PyTorch ---------------------------------------------------------------

/** Where the rule put operand k's dims: its aligned shape, read from the plan. */
function aligned(plan, k) {
  const op = plan.operands[k];
  return op && Array.isArray(op.aligned) && isStatic(op.aligned) ? op.aligned : null;
}

function pyArrays(lib, shapes, dt) {
  return shapes.map((s, k) => (lib === 'np'
    ? `${VAR[k]} = np.zeros(${pyTuple(s)}, dtype=np.${dt})`
    : `${VAR[k]} = torch.zeros(${pyTuple(s)}, dtype=torch.${dt})`));
}

function pythonCode(lib, p, dtypeName, state) {
  const { req, plan } = p;
  const NAME = lib === 'np' ? 'NumPy' : 'PyTorch';
  const k = lib === 'np' ? 0 : 1;
  const dt = dtypeOf(dtypeName, k);
  const imp = lib === 'np' ? 'import numpy as np' : 'import torch';
  const bshapes = `${lib}.broadcast_shapes`;
  const rule = state.rule;
  const dtNote = dt.note ? `# ${dt.note}` : null;
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

  if (rule === 'numpy') {
    const lines = [imp, '', dtNote, `print(${bshapes}(${shapesIn.map(pyTuple).join(', ')}))`];
    if (shapesIn.length >= 2 && shapesIn.every(small) && (!p.ok || plan.size <= DATA_LIMIT)) {
      lines.push(...pyArrays(lib, shapesIn, dt.name), `out = ${shapesIn.map((_, i) => VAR[i]).join(' + ')}`, 'print(out.shape)');
    }
    return { lang: 'python', code: header(lines), note: null };
  }
  if (rule === 'pdpd') {
    const b = p.ok ? aligned(plan, 1) : null;
    if (!b) return none(`${NAME} has no PDPD broadcasting (B aligned into A at an axis), and these shapes do not broadcast under PDPD: there is no reshape to show.`);
    const lines = [imp, '', dtNote, `# B ${pyTuple(shapesIn[1])} reshaped to where PDPD puts it (axis ${req.axis}): ${pyTuple(b)}`, `print(${bshapes}(${pyTuple(shapesIn[0])}, ${pyTuple(b)}))`];
    if (shapesIn.every(small)) lines.push(...pyArrays(lib, shapesIn, dt.name), `out = a + b.reshape(${pyTuple(b)})`, 'print(out.shape)');
    return { lang: 'python', code: header(lines), note: `${NAME} has no PDPD broadcasting: the same result from ${NAME}'s own broadcasting once B is reshaped as the plan aligns it.` };
  }
  // The Broadcast op (input -> target).
  const [input, target] = shapesIn;
  if (!small(input)) return none(`${NAME} broadcasts an array: an input of ${count(input)} elements is too large to allocate here.`);
  const x = lib === 'np' ? `x = np.zeros(${pyTuple(input)}, dtype=np.${dt.name})` : `x = torch.zeros(${pyTuple(input)}, dtype=torch.${dt.name})`;
  const to = (src, shape) => (lib === 'np' ? `np.broadcast_to(${src}, ${shape})` : `${src}.expand(${shape})`);
  const mode = rule.slice(3);
  if (mode === 'numpy') {
    if (target.includes(-1) && lib === 'np') {
      if (!p.ok) return none('NumPy\'s broadcast_to has no −1 (keep the input\'s dim) in the target, and these shapes do not broadcast: nothing to fill in.');
      return { lang: 'python', code: header([imp, '', dtNote, x, `# the target ${pyTuple(target)} with its −1 dims filled in from the result`, `out = ${to('x', pyTuple(plan.shape))}`, 'print(out.shape)']), note: 'NumPy\'s broadcast_to has no −1 (keep the input\'s dim) in the target: the target below has them filled in from the plan.' };
    }
    return { lang: 'python', code: header([imp, '', dtNote, x, `out = ${to('x', pyTuple(target))}`, 'print(out.shape)']), note: null };
  }
  if (mode === 'bidirectional') {
    const t = lib === 'np' ? 'np.broadcast_shapes(x.shape, ' : 'torch.broadcast_shapes(x.shape, ';
    return { lang: 'python', code: header([imp, '', dtNote, x, `# bidirectional (ONNX Expand): the target may grow too`, `out = ${to('x', `${t}${pyTuple(target)})`)}`, 'print(out.shape)']), note: null };
  }
  // explicit and pdpd: reshape to the plan's alignment, then broadcast.
  const al = p.ok ? aligned(plan, 0) : null;
  const what = mode === 'explicit' ? `axes mapping (${req.axesMapping ? `[${req.axesMapping.join(', ')}]` : ''})` : `PDPD alignment at an axis (${req.axis})`;
  if (!al) return none(`${NAME} has no ${what}, and these shapes do not broadcast under it: there is no reshape to show.`);
  return {
    lang: 'python',
    code: header([imp, '', dtNote, x, `# the input reshaped to where the rule puts its dims: ${pyTuple(al)}`, `out = ${to(`x.reshape(${pyTuple(al)})`, pyTuple(target))}`, 'print(out.shape)']),
    note: `${NAME} has no ${what}: the same result from ${NAME}'s own broadcasting once the input is reshaped as the plan aligns it.`,
  };
}

// ---- OpenVINO ---------------------------------------------------------------------------

function openvinoCode(p, dtypeName, state) {
  const { req, plan } = p;
  const dt = dtypeOf(dtypeName, 2);
  const rule = state.rule;
  const dtNote = dt.note ? `# ${dt.note}` : null;
  const head = ['import numpy as np', 'import openvino as ov', 'import openvino.opset13 as ops', ''];
  if (rule === 'named') return { lang: 'python', code: null, note: 'OpenVINO has no named dims: its rules match axes by position only.' };
  if (rule === 'numpy' || rule === 'none') {
    const lines = [...head.filter((l) => l !== 'import numpy as np'), dtNote];
    req.shapes.forEach((s, k) => lines.push(`${VAR[k]} = ops.parameter(${ovShape(s)}, ov.Type.${dt.name})`));
    if (req.shapes.length < 2) return { lang: 'python', code: null, note: 'OpenVINO\'s element-wise ops take two operands: add another.' };
    const call = req.shapes.slice(1).reduce((acc, _, k) => `ops.add(${acc}, ${VAR[k + 1]}, auto_broadcast="${rule}")`, 'a');
    lines.push(`out = ${call}`, 'print(out.get_output_partial_shape(0))');
    return { lang: 'python', code: header(lines), note: null };
  }
  if (rule === 'pdpd') {
    const [a, b] = req.shapes;
    return {
      lang: 'cpp',
      code: header([
        '#include <openvino/openvino.hpp>',
        '#include <openvino/op/add.hpp>',
        '#include <openvino/op/parameter.hpp>',
        '',
        `auto a = std::make_shared<ov::op::v0::Parameter>(ov::element::${dt.name}, ${ovCppShape(a)});`,
        `auto b = std::make_shared<ov::op::v0::Parameter>(ov::element::${dt.name}, ${ovCppShape(b)});`,
        `auto out = std::make_shared<ov::op::v1::Add>(a, b, ov::op::AutoBroadcastSpec(ov::op::AutoBroadcastType::PDPD, ${req.axis}));`,
        '// out->get_output_partial_shape(0)',
      ]),
      note: 'OpenVINO\'s Python ops.add() takes auto_broadcast by name only, with no axis: the PDPD axis is set in C++ (AutoBroadcastSpec).',
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
    t = plan.shape;
    tNote = `# target_shape ${pyTuple(target)} with its −1 dims filled in from the result: OpenVINO has no −1 there`;
  }
  const tc = `np.array([${t.join(', ')}], dtype=np.int64)`;
  if (mode === 'pdpd') {
    return {
      lang: 'cpp',
      code: header([
        '#include <openvino/openvino.hpp>',
        '#include <openvino/op/broadcast.hpp>',
        '#include <openvino/op/constant.hpp>',
        '#include <openvino/op/parameter.hpp>',
        '',
        `auto x = std::make_shared<ov::op::v0::Parameter>(ov::element::${dt.name}, ${ovCppShape(input)});`,
        `auto target = ov::op::v0::Constant::create(ov::element::i64, ov::Shape{${t.length}}, std::vector<int64_t>{${t.join(', ')}});`,
        `auto out = std::make_shared<ov::op::v3::Broadcast>(x, target, ov::op::BroadcastModeSpec(ov::op::BroadcastType::PDPD, ${req.axis}));`,
        '// out->get_output_partial_shape(0)',
      ]),
      note: 'OpenVINO\'s Python ops.broadcast() takes the mode by name only, with no axis: the PDPD axis is set in C++ (BroadcastModeSpec).',
    };
  }
  const lines = [...head, dtNote, tNote, `x = ops.parameter(${ovShape(input)}, ov.Type.${dt.name})`];
  if (mode === 'explicit') {
    lines.push(`out = ops.broadcast(x, ${tc}, np.array([${(req.axesMapping ?? []).join(', ')}], dtype=np.int64), broadcast_spec="EXPLICIT")`);
  } else {
    lines.push(`out = ops.broadcast(x, ${tc}, broadcast_spec="${mode.toUpperCase()}")`);
  }
  lines.push('print(out.get_output_partial_shape(0))');
  return { lang: 'python', code: header(lines), note: null };
}

// ---- entry ------------------------------------------------------------------------------

/**
 * The snippet for one tab: { lang, code, note } — code is null (with a note
 * saying why) where the framework has no equivalent.
 * @param {string} tab one of CODE_LABELS' keys
 * @param {object} state the page state (rule, dtype, …)
 * @param {{ok: boolean, request?: object}} built buildRequest(state)
 * @param {object} plan explain(built.request)
 * @param {{name: string, array: string}} dtype the library's dtype entry
 */
export function codeFor(tab, state, built, plan, dtype) {
  const p = parts(built, plan);
  if (!p) return { lang: 'text', code: null, note: 'Fix the input to see the code.' };
  if (tab === 'tensorcast') return state.backward ? backwardCode(p, dtype ?? { name: state.dtype }) : tensorcastCode(p, dtype ?? { name: state.dtype });
  if (tab === 'numpy') return pythonCode('np', p, state.dtype, state);
  if (tab === 'torch') return pythonCode('torch', p, state.dtype, state);
  if (tab === 'openvino') return openvinoCode(p, state.dtype, state);
  return { lang: 'text', code: null, note: `unknown tab ${tab}` };
}

// Expressions: explain(), the alignment of every operand to the result, the
// program and the loop the engine would run for given shapes; it never runs data.
import { C } from './contract.js';
import { mod } from './loader.js';
import { checkKeys, readBroadcast } from './options.js';
import { encode, readResultNames, refusal, keepdimsOf, NO_TENSOR, noDims, ruleOf, noValue } from './expr-codec.js';
import { begin, call, header, requestBuffer } from './execute.js';
import { copyShape, checkShape, readNamed, checkLabels } from './operands.js';

function explainCall(s, key) {
  const p = begin(1 + key.length);
  const h = requestBuffer();
  const b = p - C.REQ_LEN;
  header(h, C.A.explainExpression, s.rule, s.axis, s.values.length);
  h[b + C.REQ.shaping] = s.shaping;
  h[b + C.REQ.keepdims] = s.keepdims ? 1 : 0;
  h[p] = key.length;
  for (let i = 0; i < key.length; i++) h[p + 1 + i] = key[i];
  return call(p + 1 + key.length);
}

/** { name: shape | { dims, shape, coords } } as snapshot values (number inputs: a number). */
function readShapes(E, fn, shapesIn, dtypesIn) {
  if (shapesIn === null || typeof shapesIn !== 'object' || Array.isArray(shapesIn)) throw new TypeError(`${fn}: shapes must be an object { operandName: shape }`);
  const values = [];
  for (const name of E.inputs) {
    if (!Object.hasOwn(shapesIn, name)) throw new TypeError(`${fn}: the expression reads "${name}" but shapes has no own property "${name}"`);
    const v = shapesIn[name];
    let dt = 'float32';
    if (dtypesIn !== undefined && dtypesIn !== null && Object.hasOwn(dtypesIn, name)) dt = dtypesIn[name];
    if (typeof v === 'number' || typeof v === 'bigint') { values.push(v); continue; }
    const dtype = C.dtypeByName.get(dt);
    if (!dtype) throw new TypeError(`${fn}: dtypes.${name} must be one of ${C.dtypes.map((d) => d.name).join(', ')}`);
    if (Array.isArray(v)) {
      const shape = copyShape(v, `${fn}: shapes.${name}`);
      checkShape(shape, false, [shape]);
      values.push({ shape, dtype });
    } else {
      const n = readNamed(v, name, fn);
      checkLabels(fn, name, n.dims, n.labels, [n.sizes]); // as evaluate refuses them
      values.push({ shape: n.sizes, dtype, dims: n.dims, labels: n.labels, named: true });
    }
  }
  return values;
}

export function explainExpr(E, fn, shapesIn, options) {
  mod();
  let dtypesIn;
  let bc;
  let shapingIn;
  let keepdims = false;
  if (options !== undefined) {
    checkKeys(options, fn, ['dtypes', 'broadcast', 'shaping', 'keepdims']);
    dtypesIn = options.dtypes;
    bc = options.broadcast;
    shapingIn = options.shaping;
    keepdims = keepdimsOf(options.keepdims, fn);
  }
  // options.broadcast read as evaluate reads it: explain refuses what a run would.
  const { type: typeIn, axis: axisIn } = readBroadcast(bc, fn);
  const values = readShapes(E, fn, shapesIn, dtypesIn);
  const named = values.some((v) => v.named);
  if (!values.some((v) => typeof v === 'object')) throw TypeError(NO_TENSOR(fn));
  // As a run: every tensor operand has dims when one has, but one of rank 0, which joins them.
  if (named) {
    values.forEach((v, k) => {
      if (typeof v !== 'object' || v.named) return;
      if (v.shape.length !== 0) throw noDims(fn, E.inputs[k]);
      v.dims = [];
    });
  }
  const s = { values, dest: null, rule: C.numpy, axis: -1, shaping: 0, keepdims, named, shapes: null };
  ruleOf(fn, s, typeIn, axisIn, shapingIn);
  const { key, interned } = encode(E, fn, s);
  const res = explainCall(s, key);
  if (res.status !== 0) throw refusal(E, fn, s, res, interned);
  const shape = res.shape();
  const dtype = C.dtypes[res.next()].name;
  const root = res.shape();
  const rootRank = root.length;
  const names = readResultNames(res, interned, keepdims && E.reduce !== null);
  const dims = named ? names.dims : null;
  const nSlots = res.next();
  const slots = [];
  for (let k = 0; k < nSlots; k++) {
    const input = res.next();
    const srcAxis = [];
    const strides = [];
    for (let a = 0; a < rootRank; a++) {
      const sa = res.next();
      srcAxis.push(sa < 0 ? null : sa);
      strides.push(res.next());
    }
    slots.push({ input, srcAxis, strides });
  }
  const nCode = res.next();
  const program = [];
  const CODES = ['load', 'constant', 'binary', 'unary', 'select', 'cast'];
  for (let i = 0; i < nCode; i++) {
    const f = [];
    for (let j = 0; j < 10; j++) f.push(res.next());
    const [code, op, dt, out, cond, ra, rb, rc, value, pos] = f;
    const ins = { op: CODES[code], dtype: C.dtypes[out].name, pos };
    if (code === 0) { ins.operand = E.inputs[slots[ra].input]; ins.slot = ra; }
    else if (code === 1) ins.value = value;
    else if (code === 2) { ins.op = C.ops[op].name; ins.args = [ra, rb]; ins.inputDtype = C.dtypes[dt].name; }
    else if (code === 3) { ins.op = C.unaryOps[op].name; ins.args = [ra]; ins.inputDtype = C.dtypes[dt].name; }
    else if (code === 4) { ins.op = 'where'; ins.args = [ra, rb, rc]; ins.condDtype = C.dtypes[cond].name; }
    else { ins.op = 'cast'; ins.args = [ra]; ins.from = C.dtypes[dt].name; }
    program.push(ins);
  }
  const lr = res.next();
  const lshape = [];
  for (let a = 0; a < lr; a++) lshape.push(res.next());
  const lstrides = [];
  for (let sl = 0; sl < 1 + nSlots; sl++) {
    const st = [];
    for (let a = 0; a < lr; a++) st.push(res.next());
    lstrides.push(st);
  }
  const gen = res.next();
  const rop = res.next();
  const mask = res.next();
  const prefix = res.next();
  let contraction = null;
  const kernel = res.next();
  if (kernel === 1) {
    const [row, m, k, n, a, b, cols] = [0, 0, 0, 0, 0, 0, 0].map(() => res.next());
    contraction = { order: row ? 'row' : 'col', m, k, n, a: E.inputs[a], b: E.inputs[b], panel: { rows: k, columns: cols } };
  } else if (kernel === 2) { // product rows: m results of k terms, the factors a, b, c
    const [m, k, a, b, c] = [0, 0, 0, 0, 0].map(() => res.next());
    contraction = { order: 'row', m, k, n: 1, a: E.inputs[a], b: E.inputs[b], c: E.inputs[c], panel: null };
  }
  const operands = slots.map((sl) => {
    const v = values[sl.input];
    const aligned = sl.srcAxis.map((sa) => (sa === null ? 1 : v.shape[sa]));
    const verdicts = sl.srcAxis.map((sa, a) => (sa === null ? 'new' : aligned[a] === 1 && root[a] !== 1 ? 'stretched' : 'equal'));
    return { name: E.inputs[sl.input], shape: v.shape, ...(v.dims ? { dims: v.dims } : {}), srcAxis: sl.srcAxis, aligned, verdicts, strides: sl.strides };
  });
  const axesReduced = [];
  for (let a = 0; a < rootRank; a++) if (Math.floor(mask / 2 ** a) % 2 === 1) axesReduced.push(a);
  const op = rop >= 0 ? [...C.reduceOps.keys()][rop] : null;
  // min and max of no elements: a run refuses them (no identity, as NumPy), whatever else the result holds.
  if ((op === 'min' || op === 'max') && axesReduced.some((a) => root[a] === 0)) throw noValue(E, fn, s);
  return {
    ok: true,
    expression: E.source,
    inputs: [...E.inputs],
    broadcastShape: root,
    shape,
    dtype,
    ...(dims?.length ? { dims } : {}), // none when every dim is reduced: an unnamed scalar, as a run gives
    operands,
    program: program.map((ins, i) => ({ register: i, ...ins, text: programLine(ins, i) })),
    loop: { shape: lshape, strides: lstrides },
    execution: gen !== 0 ? 'generated' : 'interpreter',
    reduce: op ? { op, axes: axesReduced, chunkAxes: prefix } : null,
    contraction,
  };
}

function programLine(ins, i) {
  const r = (k) => `r${k}`;
  switch (ins.op) {
    case 'load': return `r${i} = ${ins.operand} (${ins.dtype})`;
    case 'constant': return `r${i} = ${ins.value} (${ins.dtype})`;
    case 'cast': return `r${i} = cast(${r(ins.args[0])}, '${ins.dtype}')`;
    default: return `r${i} = ${ins.op}(${ins.args.map(r).join(', ')}) (${ins.dtype})`;
  }
}

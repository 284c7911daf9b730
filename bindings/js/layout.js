// Layout functions, NumPy's names and semantics: transpose, slice, flip,
// squeeze and expandDims return a view (a resident tensor's: a Tensor over the
// same memory; a plain operand's: { data, shape, strides, offset } over the
// same array), never a copy; concat, stack and contiguous write a new
// row-major result (or `out`). Every call reads views in place (operands.js
// reads a plain view's strides, execute.js hands them to the engine).
import { mod } from './loader.js';
import { BroadcastError, formatShape, outLengthError, cannotHold } from './errors.js';
import { C, none } from './contract.js';
import { readOptions } from './options.js';
import { readOperand, settle, readNames, readOut, commitError, taLength, product, describe, rankTooLarge, readList, mayShare, taSet, isU16, nameKey, namedFrom, checkLabels, rowMajor, isRowMajor } from './operands.js';
import { Tensor, viewOf, makeTensor } from './tensor.js';
import { checkOverlap, view, malloc, free, fresh, copyView, committable, arrayLike, sameNames, checkOutNames } from './execute.js';
import { materialise } from './ops.js';

// ---- reading the operand -------------------------------------------------------------

/**
 * The view `x` is, read once: its record, shape, strides and offset (a
 * resident one's relative to its element 0; a plain one's into its data) and
 * its names ({ dims, labels } or null).
 */
function source(x, fn, label = 'x') {
  mod();
  const what = `${fn}: ${label}`;
  const o = readOperand(x, what); // a non-object: its TypeError (notOperand)
  if (!o.resident) {
    readNames(o, label, fn); // its messages put `${fn}: ` before the label
    settle(o, what);
  }
  const names = o.dims !== undefined ? { dims: o.dims.slice(), labels: o.labels ? o.labels.slice() : o.dims.map(() => null) } : null;
  return { o, shape: o.shape.slice(), strides: (o.strides ?? rowMajor(o.shape)).slice(), offset: o.resident ? 0 : o.offset, names };
}

/** The view `v` (a source() with a new shape, strides, offset and names) as what the caller gets. */
function finish(v) {
  const o = v.o;
  const coords = coordsOf(v.names);
  if (o.resident) {
    if (!committable(o)) throw commitError(o, 'x');
    return viewOf(o, v.shape, v.names?.dims, coords, isRowMajor(v.shape, v.strides) ? null : v.strides, o.ptr + v.offset * o.dtype.size);
  }
  const r = { data: o.data, shape: v.shape, strides: v.strides, offset: v.offset };
  if (o.dtype.half && isU16(o.data)) r.dtype = 'float16';
  if (v.names) {
    r.dims = v.names.dims;
    if (coords) r.coords = coords;
  }
  return r;
}

function coordsOf(names) {
  if (names === null || !names.labels.some((l) => l)) return undefined;
  const c = {};
  names.dims.forEach((d, i) => { if (names.labels[i]) c[String(d)] = names.labels[i]; });
  return c;
}

const axisError = (msg, axis, dims) => new BroadcastError(msg, { code: 'INVALID_AXIS', axis, dims });
const shapeError = (msg, shape, axis, dims) => new BroadcastError(msg, { code: 'INVALID_SHAPE', shapes: shape ? [shape] : [], axis, dims });

/**
 * Axis `a` of a rank-`r` view: an integer in [-r, r) (negative from the end),
 * or, for a named view, a dim name. `entry` names it in the message.
 */
function axisOf(a, r, names, fn, entry) {
  if (typeof a === 'string' || (typeof a !== 'number' && names !== null)) {
    const i = names === null ? -1 : names.dims.findIndex((d) => nameKey(d) === a); // a dim name as a string
    if (i < 0) {
      throw axisError(`${fn}: ${entry}: ${names === null ? `${describe(a)} is a dim name, and there are no dims` : `no dim ${describe(a)} among [${names.dims.join(', ')}]`}`, null, null);
    }
    return i;
  }
  if (typeof a !== 'number') throw TypeError(`${fn}: ${entry} must be an integer axis, got ${describe(a)}`); // a wrong type
  if (!Number.isInteger(a)) throw axisError(`${fn}: ${entry} must be an integer axis, got ${describe(a)}`, null, null);
  if (a < -r || a >= r) throw axisError(`${fn}: ${entry} ${a} is out of range for a view of rank ${r} (${r ? `axes -${r} to ${r - 1}` : 'it has no axes'})`, a, [r]);
  return a < 0 ? a + r : a;
}

/** A list of axes (a number, a name or an array of them; undefined / null: `all`), each once. */
function axesOf(axes, r, names, fn, all) {
  if (axes === undefined || axes === null) return all;
  const list = readList(axes, fn, 'axes', (v) => !Array.isArray(v)); // longer than any rank: refused by its length (2^32 - 1 holes)
  const seen = new Set(none);
  return list.map((a, i) => {
    const k = axisOf(a, r, names, fn, Array.isArray(axes) ? `axes[${i}]` : 'axis');
    if (seen.has(k)) throw axisError(`${fn}: axis ${k} is given twice`, k, [r]);
    seen.add(k);
    return k;
  });
}


// ---- views ---------------------------------------------------------------------------

/**
 * The axes of `x` in the order `axes` gives (numpy.transpose): reversed when
 * omitted; each axis once, negative from the end, or dim names of a named view.
 */
export function transpose(x, axes) {
  const v = source(x, 'transpose');
  const r = v.shape.length;
  const rev = [...v.shape.keys()].reverse();
  const perm = axesOf(axes, r, v.names, 'transpose', rev);
  if (perm.length !== r) {
    throw axisError(`transpose: ${perm.length} axes for rank ${r}: give each axis once`, null, [perm.length, r]);
  }
  return picked(v, perm);
}

/** The view `v` with its axes `axes` only, in that order (transpose, squeeze). */
function picked(v, axes) {
  const at = (list) => axes.map((a) => list[a]);
  return finish({ o: v.o, offset: v.offset, shape: at(v.shape), strides: at(v.strides), names: v.names && { dims: at(v.names.dims), labels: at(v.names.labels) } });
}

/**
 * NumPy's basic indexing, one spec per leading axis: a number (an index: the
 * axis goes; negative from the end), null (the whole axis), [start, stop,
 * step] (undefined / null for the defaults, negative indices, clamped, steps
 * of either sign) or its text ('::-1'); or one string of them all,
 * '1:3, ::-1, 0'. Axes past the specs are whole.
 */
export function slice(x, ...specs) {
  const v = source(x, 'slice');
  if (specs.length === 1 && typeof specs[0] === 'string') specs = parseSpecs(specs[0]);
  else if (specs.some((t) => typeof t === 'string')) specs = specs.map((t, a) => (typeof t === 'string' ? oneSpec(t, a) : t)); // '::-1' for one axis
  const r = v.shape.length;
  if (specs.length > r) {
    throw shapeError(`slice: ${specs.length} specs for a view of rank ${r} ${formatShape(v.shape)}: at most one per axis`, v.shape, null, [specs.length, r]);
  }
  const shape = [];
  const strides = [];
  const dims = [];
  const labels = [];
  let offset = v.offset;
  for (let a = 0; a < r; a++) {
    const n = v.shape[a];
    const st = v.strides[a];
    const spec = a < specs.length ? specs[a] : null;
    if (typeof spec === 'number') {
      if (!Number.isInteger(spec)) throw shapeError(`slice: spec ${a} is ${spec}: an index is an integer`, v.shape, a, null);
      const i = spec < 0 ? spec + n : spec;
      if (i < 0 || i >= n) throw shapeError(`slice: index ${spec} is out of range for axis ${a} of size ${n}`, v.shape, a, [spec, n]);
      offset += i * st;
      continue;
    }
    let start;
    let stop;
    let step;
    if (spec === null || spec === undefined) {
      start = 0; stop = n; step = 1;
    } else if (Array.isArray(spec)) {
      if (spec.length > 3) throw shapeError(`slice: spec ${a} has ${spec.length} entries; a range is [start, stop, step]`, v.shape, a, null);
      [start, stop, step] = range(spec, n, a, v.shape);
    } else {
      throw new TypeError(`slice: spec ${a} must be a number, null or [start, stop, step], got ${describe(spec)}`);
    }
    const len = step > 0 ? (start < stop ? Math.floor((stop - start - 1) / step) + 1 : 0)
      : (stop < start ? Math.floor((start - stop - 1) / -step) + 1 : 0);
    if (len > 0) offset += start * st;
    shape.push(len);
    strides.push(len > 1 ? st * step : st);
    if (v.names) {
      dims.push(v.names.dims[a]);
      const l = v.names.labels[a];
      labels.push(l ? Array.from({ length: len }, (_, k) => l[start + k * step]) : null);
    }
  }
  return finish({ o: v.o, offset, shape, strides, names: v.names && { dims, labels } });
}

/** [start, stop, step] of a range spec over an axis of size n, as Python's slice.indices(n). */
function range(spec, n, a, shape) {
  const pick = (e, i) => {
    if (e === undefined || e === null) return null;
    if (!Number.isInteger(e)) { // not a number at all: a TypeError, as any argument of a wrong type (§8)
      const m = `slice: spec ${a}[${i}] is ${describe(e)}: start, stop and step are integers (or null)`;
      throw typeof e === 'number' ? shapeError(m, shape, a, null) : TypeError(m);
    }
    return e;
  };
  let start = pick(spec[0], 0);
  let stop = pick(spec[1], 1);
  const step = pick(spec[2], 2) ?? 1;
  if (step === 0) throw shapeError(`slice: spec ${a} has step 0`, shape, a, [0]);
  if (step > 0) {
    start = start === null ? 0 : start < 0 ? Math.max(start + n, 0) : Math.min(start, n);
    stop = stop === null ? n : stop < 0 ? Math.max(stop + n, 0) : Math.min(stop, n);
  } else {
    start = start === null ? n - 1 : start < 0 ? Math.max(start + n, -1) : Math.min(start, n - 1);
    stop = stop === null ? -1 : stop < 0 ? Math.max(stop + n, -1) : Math.min(stop, n - 1);
  }
  return [start, stop, step];
}

/** Axis `a`'s spec as text ('::-1', '1:', '0'). */
function oneSpec(text, a) {
  const r = parseSpecs(text, a);
  if (r.length !== 1) throw shapeError(`slice: ${describe(text)} is ${r.length} specs, in place of one axis's`, null, a, null);
  return r[0];
}

/** '1:3, ::-1, 0' as specs: [[1, 3], [null, null, -1], 0]; `at`: the axis of the first (messages count from it). */
function parseSpecs(text, at = 0) {
  if (text.trim() === '') return [];
  return text.split(',').map((part, i) => {
    i += at;
    const p = part.trim();
    const num = (t) => {
      const s = t.trim();
      if (s === '') return null;
      if (!/^[+-]?\d+$/.test(s)) throw shapeError(`slice: ${describe(text)}: spec ${i} is not an index or start:stop:step`, null, i, null);
      return Number(s);
    };
    if (!p.includes(':')) {
      const v = num(p);
      if (v === null) throw shapeError(`slice: ${describe(text)}: spec ${i} is empty (use : for the whole axis)`, null, i, null);
      return v;
    }
    const f = p.split(':');
    if (f.length > 3) throw shapeError(`slice: ${describe(text)}: spec ${i} (${describe(p)}) has more than two colons`, null, i, null);
    return f.map(num);
  });
}

/** The elements of `x` in reverse order along `axes` (all when omitted), numpy.flip. */
export function flip(x, axes) {
  const v = source(x, 'flip');
  const r = v.shape.length;
  const list = axesOf(axes, r, v.names, 'flip', [...v.shape.keys()]);
  let offset = v.offset;
  const strides = v.strides.slice();
  const labels = v.names ? v.names.labels.slice() : null;
  for (const a of list) {
    if (v.shape[a] > 0) offset += (v.shape[a] - 1) * strides[a];
    strides[a] = -strides[a];
    if (labels && labels[a]) labels[a] = labels[a].slice().reverse();
  }
  return finish({ o: v.o, offset, shape: v.shape, strides, names: v.names && { dims: v.names.dims, labels } });
}

/** `x` without its size-1 axes (`axes`: only those, each of size 1), numpy.squeeze. */
export function squeeze(x, axes) {
  const v = source(x, 'squeeze');
  const r = v.shape.length;
  const list = axesOf(axes, r, v.names, 'squeeze', null);
  const drop = new Set(list ?? v.shape.map((d, i) => (d === 1 ? i : -1)).filter((i) => i >= 0));
  for (const a of drop) {
    if (v.shape[a] !== 1) throw axisError(`squeeze: axis ${a} has size ${v.shape[a]}; only an axis of size 1 can be squeezed`, a, [v.shape[a]]);
  }
  const keep = [...v.shape.keys()].filter((i) => !drop.has(i));
  return picked(v, keep);
}

/**
 * `x` with a new axis of size 1 at `axis` (or at each of an array of axes),
 * numpy.expand_dims: axes of the result, negative from its end. A named view
 * names the new axes: options.dims (one name per new axis).
 */
export function expandDims(x, axis, options) {
  const o = readOptions(options, 'expandDims', ['dims']);
  const v = source(x, 'expandDims');
  const r = v.shape.length + (Array.isArray(axis) ? axis.length : 1);
  if (r > C.limits.maxRank) throw rankTooLarge(r);
  const list = Array.isArray(axis) ? Array.from(axis) : [axis];
  // A number is `axis` in messages, a list's entries `axes[i]`; no axis is refused as NumPy refuses it.
  const at = axis == null ? [axisOf(axis, r, null, 'expandDims', 'axis')] : axesOf(axis, r, null, 'expandDims', null);
  let newDims = null;
  if (v.names) {
    if (o.dims === undefined) throw new TypeError("expandDims: x has dims: name the new axis, expandDims(x, axis, { dims: ['name'] })");
    newDims = Array.isArray(o.dims) ? Array.from(o.dims) : [o.dims];
    if (newDims.length !== list.length) throw new TypeError(`expandDims: ${list.length} new axes but ${newDims.length} names in options.dims`);
  } else if (o.dims !== undefined) {
    throw unnamedNewAxis('expandDims');
  }
  const shape = [];
  const strides = [];
  const dims = [];
  const labels = [];
  let k = 0;
  for (let a = 0; a < r; a++) {
    const j = at.indexOf(a);
    if (j >= 0) {
      shape.push(1);
      strides.push(0);
      if (newDims) { dims.push(newDims[j]); labels.push(null); }
    } else {
      shape.push(v.shape[k]);
      strides.push(v.strides[k]);
      if (v.names) { dims.push(v.names.dims[k]); labels.push(v.names.labels[k]); }
      k++;
    }
  }
  if (v.names) namedFrom(dims, null, shape, 'the result', 'expandDims'); // a new name already a dim: refused
  return finish({ o: v.o, offset: v.offset, shape, strides, names: v.names && { dims, labels } });
}

// ---- materialising -------------------------------------------------------------------

/**
 * A row-major copy of `x`: a new resident tensor for a resident one, a new
 * { data, shape } for a plain one (or into options.out).
 */
export function contiguous(x, options) {
  const o = readOptions(options, 'contiguous', ['out']);
  const v = source(x, 'contiguous');
  return gatherInto('contiguous', [v], -1, v.shape, o.out, v.names);
}

/**
 * numpy.concatenate: `xs` (one dtype, one rank, the same dims but on `axis`)
 * one after another along `axis` (default 0), into a new row-major result
 * (resident when any input is) or options.out.
 */
export function concat(xs, axis, options) {
  const o = readOptions(options, 'concat', ['out']);
  const vs = sources(xs, 'concat');
  const r = vs[0].shape.length;
  const a = axisOf(axis ?? 0, r, vs[0].names, 'concat', 'axis');
  const shape = vs[0].shape.slice();
  let total = 0;
  vs.forEach((v, i) => {
    if (v.shape.length !== r) throw shapeError(`concat: xs[${i}] has rank ${v.shape.length}, xs[0] rank ${r}: every input has one rank`, v.shape, null, [v.shape.length, r]);
    for (let k = 0; k < r; k++) {
      if (k !== a && v.shape[k] !== shape[k]) {
        throw shapeError(`concat: xs[${i}] ${formatShape(v.shape)} and xs[0] ${formatShape(vs[0].shape)} differ on axis ${k} (${v.shape[k]} vs ${shape[k]}); only axis ${a} may differ`, v.shape, k, [v.shape[k], shape[k]]);
      }
    }
    total += v.shape[a];
  });
  shape[a] = total;
  return gatherInto('concat', vs, a, shape, o.out, joinNames(vs, a, 'concat'));
}

/**
 * numpy.stack: `xs` (one dtype, one shape) along a new axis `axis` (default
 * 0, an axis of the result). Named inputs name it: options.dims.
 */
export function stack(xs, axis, options) {
  const o = readOptions(options, 'stack', ['out', 'dims']);
  const vs = sources(xs, 'stack');
  const r = vs[0].shape.length + 1;
  const a = axisOf(axis ?? 0, r, null, 'stack', 'axis');
  vs.forEach((v, i) => {
    if (v.shape.length !== r - 1 || v.shape.some((d, k) => d !== vs[0].shape[k])) {
      const k = v.shape.findIndex((d, j) => d !== vs[0].shape[j]);
      throw shapeError(`stack: xs[${i}] ${formatShape(v.shape)} and xs[0] ${formatShape(vs[0].shape)} differ: every input has one shape`, v.shape, k >= 0 ? k : null, null);
    }
  });
  // Each input as a view with the new axis (size 1), then concatenated along it.
  const ins = (list, e) => [...list.slice(0, a), e, ...list.slice(a)];
  const ex = vs.map((v) => ({
    ...v,
    shape: ins(v.shape, 1),
    strides: ins(v.strides, 0),
    names: v.names && { dims: ins(v.names.dims, o.dims), labels: ins(v.names.labels, null) },
  }));
  const named = vs.some((v) => v.names);
  if (named === (o.dims === undefined)) throw named ? TypeError('stack: the inputs have dims: name the new axis, stack(xs, axis, { dims: \'name\' })') : unnamedNewAxis('stack');
  const shape = ex[0].shape.slice();
  shape[a] = vs.length;
  return gatherInto('stack', ex, a, shape, o.out, joinNames(ex, a, 'stack'));
}

// (A name given to inputs without dims would be dropped: refused, as the reverse is.)
const unnamedNewAxis = (fn) => TypeError(`${fn}: options.dims names the new axis of inputs with dims, and these have none`);

function sources(xs, fn) {
  if (!Array.isArray(xs) || xs.length === 0) throw new TypeError(`${fn}: xs must be a non-empty array of operands`);
  const vs = Array.from(xs, (x, i) => source(x, fn, `xs[${i}]`));
  const dt = vs[0].o.dtype;
  vs.forEach((v, i) => {
    if (v.o.dtype !== dt) {
      throw new BroadcastError(`${fn}: xs[${i}] is ${v.o.dtype.name} and xs[0] ${dt.name}: every input has one dtype (cast first)`,
        { code: 'DTYPE_MISMATCH', shapes: [v.shape], dims: [v.o.dtype.name, dt.name] });
    }
  });
  return vs;
}

/** The names of inputs joined along axis `a`: kept when every input has the same dims; the joined axis's labels concatenated when all have them. */
function joinNames(vs, a, fn) {
  const first = vs[0].names;
  // Inputs join by position: named ones must name their axes alike (1 and '1' alike), and all or none be named.
  const i = vs.findIndex((v) => !v.names !== !first || (first && (v.names.dims.length !== first.dims.length || v.names.dims.some((d, k) => nameKey(d) !== nameKey(first.dims[k])))));
  if (i >= 0) throw new BroadcastError(`${fn}: xs[${i}] and xs[0] have other dims; give all the same dims, or none`, { code: 'INCOMPATIBLE_DIMS' });
  if (!first) return null;
  // Off the joined axis, a dim's labels are those of the inputs that label it (alike), as the ops take them.
  const labels = first.dims.map((_, k) => vs.find((v) => v.names.labels[k])?.names.labels[k] ?? null);
  vs.forEach((v, i) => {
    const d = sameNames(first.dims, v.names.labels.map((l, k) => (k === a || !l ? null : labels[k])), first.dims, v.names.labels.map((l, k) => (k === a ? null : l)));
    if (d) throw new BroadcastError(`${fn}: xs[${i}] labels dim "${first.dims[d.axis]}" unlike an input before it`, { code: 'INCOMPATIBLE_DIMS', axis: d.axis });
  });
  labels[a] = vs.every((v) => v.names.labels[a]) ? vs.flatMap((v) => v.names.labels[a]) : null;
  checkLabels(fn, 'the result', first.dims, labels, []);
  return { dims: first.dims.slice(), labels };
}

/**
 * The views `vs` one after another along axis `a` (-1: one view) into a new
 * row-major result of `shape`, or into `outIn` (a typed array or a resident
 * tensor, a view too): resident when any input or out is.
 */
function gatherInto(fn, vs, a, shape, outIn, names) {
  const dt = vs[0].o.dtype;
  if (shape.length > C.limits.maxRank) throw rankTooLarge(shape.length); // stack of rank-32 inputs
  if (names) namedFrom(names.dims, null, shape, 'the result', fn); // stack's new name already a dim: refused
  const dest = readOut(outIn, fn);
  const size = product(shape);
  if (dest !== null) {
    if (names) checkOutNames(fn, dest, names.dims, names.labels, shape); // a resident out with dims is read by them (a typed one has none)
    if (dest.dtype !== dt && !(dt.half && !dest.resident && isU16(dest.data))) {
      throw cannotHold(fn, dest, dt, [shape]);
    }
    const have = dest.resident ? dest.size : taLength.call(dest.data);
    if (have !== size) {
      throw outLengthError(fn, have, shape, size);
    }
  }
  const resident = dest !== null ? dest.resident : vs.some((v) => v.o.resident);
  // One resident view (no names, 1000 elements or more) into wasm memory, row-major: the engine's copy,
  // which reads a transposed view in tiles (10x the JS loop's speed at [1024,1024]).
  if (a < 0 && size > 999 && vs[0].o.resident && !names && resident && dest?.strides == null) {
    return materialise(vs[0].o, shape, {}, dest, fn);
  }
  vs.forEach((v, i) => { if (!committable(v.o)) throw commitError(v.o, a < 0 ? `${fn}: x` : `${fn}: xs[${i}]`); });
  let dstStrides = rowMajor(shape);
  if (dest !== null && dest.resident) {
    if (!committable(dest)) throw commitError(dest, `${fn}: out`);
    checkOverlap(dest, vs.map((v) => v.o), fn);
    if (dest.strides !== null) {
      // A view as out: written through its strides, so it takes a result of its own shape.
      if (dest.shape.length !== shape.length || dest.shape.some((d, i) => d !== shape[i])) {
        throw new BroadcastError(`${fn}: out is a view ${formatShape(dest.shape)}; the result is ${formatShape(shape)}`, { code: 'LENGTH_MISMATCH', shapes: [shape], dims: [dest.size, size] });
      }
      dstStrides = dest.strides;
    }
  }
  // Into a typed array (out's, or new), or wasm memory (a resident out's, or a new block).
  const es = dt.size;
  const data = resident ? null : dest !== null ? dest.data : fresh(dt, size); // the runtime's form, whatever the inputs'
  const ptr = !resident ? 0 : dest !== null ? dest.ptr : malloc(size * es);
  // A typed out over the buffer a plain operand reads: gathered apart, then copied in (as NumPy's
  // copyto), so no element is read after it was written.
  const into = data !== null && vs.some((v) => !v.o.resident && mayShare(v.o.data, data)) ? arrayLike(data, dt, size) : data; // (a new array shares no buffer)
  try {
    let at = 0;
    for (const v of vs) {
      const heap = view(dt); // after the allocation (memory may have grown)
      copyView(v.o.resident ? heap : v.o.data, v.o.resident ? v.o.ptr / es + v.offset : v.offset, v.shape, v.strides,
        into ?? heap, into !== null ? at : ptr / es + at, dstStrides);
      if (a >= 0) at += v.shape[a] * dstStrides[a];
    }
    if (into !== data) taSet.call(data, into);
  } catch (e) {
    if (resident && dest === null) free(ptr);
    throw e;
  }
  const coords = coordsOf(names);
  if (resident) return dest !== null ? dest.tensor : makeTensor(ptr, shape, dt, names?.dims, coords);
  const r = { data, shape };
  if (dt.half && isU16(data)) r.dtype = 'float16'; // bits, into a new array or out
  if (names) { r.dims = names.dims; if (coords) r.coords = coords; } // into a typed out too, as the ops keep them
  return r;
}

// The layout functions as Tensor methods, t.transpose(axes) = transpose(t, axes)
// (not enumerable, as a class's own).
for (const [k, f] of Object.entries({ transpose, slice, flip, squeeze, expandDims, contiguous })) {
  Object.defineProperty(Tensor.prototype, k, { value(...args) { return f(this, ...args); }, writable: true, configurable: true });
}

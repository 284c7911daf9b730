// An ONNX model (protobuf, onnx.proto's field numbers) read into plain objects:
// the graph, its nodes, attributes, initializers, inputs, outputs and
// value_info, and every subgraph. Initializer data is not copied: a tensor
// keeps where its bytes are, and only small integer tensors (shapes, axes,
// pads: what shape inference needs) are decoded. One pass over the bytes.
import { INTERVAL, UNKNOWN_RANK } from './operands.js';

const TYPE_NAMES = ['undefined', 'float32', 'uint8', 'int8', 'uint16', 'int16', 'int32', 'int64', 'string', 'bool',
  'float16', 'float64', 'uint32', 'uint64', 'complex64', 'complex128', 'bfloat16'];
/** The ONNX element type number's name (TensorProto.DataType). */
export const elemTypeName = (t) => TYPE_NAMES[t] ?? `type ${t}`;

/** The most elements of an integer tensor whose values are decoded (shape inference's values). */
export const MAX_VALUES = 1024;

class Reader {
  constructor(bytes) {
    this.b = bytes;
    this.p = 0;
  }

  /**
   * A varint as a Number: exact to 2^53, then rounded; int64 negatives (ten bytes) are negative.
   * `exact`: a value past 2^53 - 1 either way is a BigInt, the value the file has. More than ten
   * bytes is no varint (protobuf's parsers refuse it too).
   */
  varint(exact = false) {
    const b = this.b;
    let x = 0;
    let mul = 1;
    for (let k = 0; k < 7; k++) {
      const c = b[this.p++];
      if (c === undefined) throw new RangeError('truncated');
      x += (c & 0x7f) * mul;
      if (c < 0x80) return x;
      mul *= 128;
    }
    // Past 49 bits: exactly, through BigInt, read as a signed int64.
    let big = BigInt(x);
    let shift = 49n;
    for (;;) {
      const c = b[this.p++];
      if (c === undefined) throw new RangeError('truncated');
      big |= BigInt(c & 0x7f) << shift;
      if (c < 0x80) break;
      if (shift === 63n) throw new RangeError('a varint longer than 10 bytes');
      shift += 7n;
    }
    const v = BigInt.asIntN(64, big);
    return exact && (v > SAFE || v < -SAFE) ? v : Number(v);
  }

  /** The end offset of a length-delimited field's bytes. */
  len() {
    const n = this.varint();
    const end = this.p + n;
    if (n < 0 || end > this.b.length) throw new RangeError('truncated');
    return end;
  }

  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.p += 8;
    else if (wire === 2) this.p = this.len();
    else if (wire === 5) this.p += 4;
    else throw new RangeError(`wire type ${wire}`);
    if (this.p > this.b.length) throw new RangeError('truncated');
  }

  string(end) {
    return decoder.decode(this.b.subarray(this.p, (this.p = end)));
  }

  /** Repeated integers, packed or not, appended to `out` (`exact`: as varint(true) reads them). */
  ints(wire, out, exact = false) {
    if (wire === 2) {
      const end = this.len();
      while (this.p < end) out.push(this.varint(exact));
      if (this.p !== end) throw new RangeError('a packed varint runs past its field');
    } else {
      out.push(this.varint(exact));
    }
  }

  /** A little-endian float32 (`size` 4) or float64 (8) at the read position. */
  float(size) {
    if (this.p + size > this.b.length) throw new RangeError('truncated');
    const v = new DataView(this.b.buffer, this.b.byteOffset + this.p, size);
    this.p += size;
    return size === 4 ? v.getFloat32(0, true) : v.getFloat64(0, true);
  }

  /**
   * Packed floats (`size` 4) or doubles (8) appended to `out`; only the first `most` bytes' worth
   * are decoded. A length that is not a whole number of them is damage, as protobuf's parsers say.
   */
  floats(size, out, most = Infinity) {
    const end = this.len();
    const bytes = end - this.p;
    if (bytes % size) throw new RangeError(`a packed ${size === 4 ? 'float' : 'double'} field of ${bytes} bytes, not a whole number of ${size}-byte values`);
    if (bytes > most) this.p = end;
    while (this.p < end) out.push(this.float(size));
  }

  /** Each field of the message ending at `end`: fn(field, wire). fn reads or skips the value. */
  fields(end, fn) {
    while (this.p < end) {
      const key = this.varint();
      // Field numbers run from 1 to 2^29 - 1: a key outside is no field (protobuf's parsers refuse it).
      if (!(key >= 8 && key <= 0xffffffff)) throw new RangeError(key >= 0 && key < 8 ? 'field number 0' : 'a field number past 2^29 - 1');
      const wire = key & 7;
      const field = Math.floor(key / 8);
      fn(field, wire);
    }
    if (this.p !== end) throw new RangeError('a field runs past its message');
  }
}

const decoder = new TextDecoder();
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const emptyTensor = () => ({ name: '', dims: [], dataType: 0, int64: [], int32: [], raw: null, floats: [], doubles: [], uint64: [], external: false });

/**
 * A TensorProto; `into`: the tensor an earlier occurrence of the same field read (protobuf merges a
 * message field given twice: repeated fields append, scalars take the last). Dims and 64-bit values
 * past 2^53 - 1 stay BigInts (varint(true)), so that a message can name them as the file has them.
 */
function tensor(r, end, into = null) {
  const t = into ?? emptyTensor();
  r.fields(end, (f, w) => {
    if (f === 1) { r.ints(w, t.dims, true); if (t.dims.some((d) => typeof d === 'bigint')) bigDims = true; }
    else if (f === 2 && w === 0) t.dataType = r.varint();
    else if (f === 8 && w === 2) t.name = r.string(r.len());
    else if (f === 7) { if (t.int64.length <= MAX_VALUES) r.ints(w, t.int64, true); else r.skip(w); }
    else if (f === 5) { if (t.int32.length <= MAX_VALUES) r.ints(w, t.int32); else r.skip(w); }
    else if (f === 9 && w === 2) { const e = r.len(); t.raw = { start: r.p, end: e }; r.p = e; }
    else if (f === 4 && w === 2) r.floats(4, t.floats, 4 * MAX_VALUES);
    else if (f === 4 && w === 5) t.floats.push(r.float(4));
    else if (f === 10 && w === 2) r.floats(8, t.doubles, 8 * MAX_VALUES); // double_data (float64), packed
    else if (f === 10 && w === 1) t.doubles.push(r.float(8));
    else if (f === 11) { if (t.uint64.length <= MAX_VALUES) r.ints(w, t.uint64, true); else r.skip(w); } // uint64_data (uint32, uint64)
    else if (f === 14 && w === 0) t.external = r.varint() === 1;
    else r.skip(w);
  });
  return t;
}

function dimension(r, end) {
  let d = '?';
  r.fields(end, (f, w) => {
    // dim_value and dim_param are a oneof: the last one given is the dim.
    // a dim_value past 2^53 - 1 stays a BigInt (a Number would round it): infer.js refuses it by the value in the file
    if (f === 1 && w === 0) { d = r.varint(true); if (typeof d === 'bigint') bigDims = true; }
    // a name ('' or blanks: unnamed; so is a text this library reads as another dim, an interval '2..5', '[...]'
    // or a merged 'a|b' (the dim of a ⊕ b): ONNX's names are opaque)
    else if (f === 2 && w === 2) { const s = r.string(r.len()).trim(); d = s !== '' && s !== UNKNOWN_RANK && !INTERVAL.test(s) && !s.includes('|') ? s : '?'; }
    else r.skip(w);
  });
  return d;
}

// Types nested deeper than this (a sequence of a sequence of …, two messages a level) are refused, as
// protobuf's parsers refuse messages nested past 100: one clear TypeError, not the JS stack's limit (which varies).
const MAX_TYPE_NESTING = 50;

/**
 * A TypeProto: { kind: 'tensor', elemType, shape (null: unknown rank) } for a tensor (or sparse
 * tensor); a sequence's or optional's `elem`; { kind } otherwise. `into`: what an earlier occurrence
 * of the same field read. Its kinds are a oneof: another kind replaces it; the same kind again is
 * merged as protobuf merges a message given twice (a shape given twice has the dims of both, as
 * `dim` is repeated; an elem_type given twice merges too).
 */
function typeProto(r, end, depth = 0, into = null) {
  if (depth > MAX_TYPE_NESTING) throw new TypeError(`inferShapes: not a model onnx can read (a type nested deeper than ${MAX_TYPE_NESTING}, at byte ${r.p})`);
  let out = into ?? { kind: 'other', field: 0, elemType: 0, shape: null };
  r.fields(end, (f, w) => {
    if ((f === 1 || f === 8) && w === 2) {
      const e = r.len();
      if (out.field !== f) out = { kind: 'tensor', field: f, elemType: 0, shape: null };
      r.fields(e, (g, v) => {
        if (g === 1 && v === 0) out.elemType = r.varint();
        else if (g === 2 && v === 2) {
          const se = r.len();
          const shape = out.shape ?? [];
          r.fields(se, (h, u) => { if (h === 1 && u === 2) shape.push(dimension(r, r.len())); else r.skip(u); });
          out.shape = shape;
        } else r.skip(v);
      });
    } else if ((f === 4 || f === 9) && w === 2) {
      // a sequence or an optional: { elem_type: TypeProto } (field 1)
      const e = r.len();
      if (out.field !== f) out = { kind: f === 4 ? 'sequence' : 'optional', field: f, elemType: 0, shape: null, elem: null };
      r.fields(e, (g, v) => { if (g === 1 && v === 2) out.elem = typeProto(r, r.len(), depth + 1, out.elem); else r.skip(v); });
    } else if (f === 5 && w === 2) {
      out = { kind: 'map', field: 5, elemType: 0, shape: null };
      r.skip(w);
    } else r.skip(w);
  });
  return out;
}

function valueInfo(r, end) {
  const v = { name: '', type: { kind: 'other', field: 0, elemType: 0, shape: null } };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) v.name = r.string(r.len());
    else if (f === 2 && w === 2) v.type = typeProto(r, r.len(), 0, v.type); // given twice: merged
    else r.skip(w);
  });
  return v;
}

function attribute(r, end) {
  const a = { name: '', type: 0, f: undefined, i: undefined, s: undefined, t: undefined, g: undefined, floats: [], ints: [], strings: [], graphs: [] };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) a.name = r.string(r.len());
    else if (f === 20 && w === 0) a.type = r.varint();
    else if (f === 2 && w === 5) a.f = r.float(4);
    else if (f === 3 && w === 0) a.i = r.varint();
    else if (f === 4 && w === 2) a.s = r.string(r.len());
    else if (f === 5 && w === 2) a.t = tensor(r, r.len(), a.t); // a message given twice: merged
    else if (f === 6 && w === 2) a.g = graph(r, r.len(), a.g);
    else if (f === 8) r.ints(w, a.ints);
    else if (f === 9 && w === 2) a.strings.push(r.string(r.len()));
    else if (f === 11 && w === 2) a.graphs.push(graph(r, r.len()));
    else if (f === 14 && w === 2) a.tp = typeProto(r, r.len(), 0, a.tp); // a TypeProto (Optional's `type`)
    else if (f === 22 && w === 2) a.sparse = sparseTensor(r, r.len()); // a SparseTensorProto (Constant's `sparse_value`)
    else if (f === 21 && w === 2) a.ref = r.string(r.len()); // in a function body: the caller's attribute of that name
    else if (f === 7 && w === 2) r.floats(4, a.floats);
    else if (f === 7 && w === 5) a.floats.push(r.float(4)); // unpacked (proto2: onnx's own writers)
    else r.skip(w);
  });
  return a;
}

function node(r, end) {
  const n = { name: '', opType: '', domain: '', inputs: [], outputs: [], attrs: new Map() };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) n.inputs.push(r.string(r.len()));
    else if (f === 2 && w === 2) n.outputs.push(r.string(r.len()));
    else if (f === 3 && w === 2) n.name = r.string(r.len());
    else if (f === 4 && w === 2) n.opType = r.string(r.len());
    else if (f === 7 && w === 2) n.domain = r.string(r.len());
    else if (f === 5 && w === 2) { const a = attribute(r, r.len()); n.attrs.set(a.name, a); }
    else r.skip(w);
  });
  return n;
}

// Graphs nested deeper than this (the main one, then If, Loop, Scan bodies) are refused: protobuf's parsers, onnx's
// and onnxruntime's, stop at 100 nested messages, 3 a subgraph (graph, node, attribute).
const MAX_NESTING = 32;
let nesting = 0; // graphs open in the read (readOnnx starts it at 0)
let bigDims = false; // a dim_value (or a tensor's dim) past 2^53 - 1 was read (readOnnx starts it false)

/** A SparseTensorProto as a tensor without data: its dims (field 3), its values' name and type (field 1's). */
function sparseTensor(r, end) {
  const t = emptyTensor();
  let values = null;
  r.fields(end, (h, u) => {
    if (h === 1 && u === 2) values = tensor(r, r.len(), values);
    else if (h === 3) { r.ints(u, t.dims, true); if (t.dims.some((d) => typeof d === 'bigint')) bigDims = true; }
    else r.skip(u);
  });
  if (values) { t.name = values.name; t.dataType = values.dataType; }
  return t;
}

/** A GraphProto; `into`: the graph an earlier occurrence of the same field read (merged into it, as protobuf does). */
function graph(r, end, into = null) {
  if (++nesting > MAX_NESTING) throw new TypeError(`inferShapes: not a model onnx can read (graphs nested deeper than ${MAX_NESTING}: the main graph and ${MAX_NESTING - 1} levels of subgraphs are read, at byte ${r.p})`);
  const g = into ?? { name: '', nodes: [], initializers: [], inputs: [], outputs: [], valueInfo: [] };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) g.nodes.push(node(r, r.len()));
    else if (f === 2 && w === 2) g.name = r.string(r.len());
    else if (f === 5 && w === 2) g.initializers.push(tensor(r, r.len()));
    else if (f === 15 && w === 2) g.initializers.push(sparseTensor(r, r.len()));
    else if (f === 11 && w === 2) g.inputs.push(valueInfo(r, r.len()));
    else if (f === 12 && w === 2) g.outputs.push(valueInfo(r, r.len()));
    else if (f === 13 && w === 2) g.valueInfo.push(valueInfo(r, r.len()));
    else r.skip(w);
  });
  nesting--;
  return g;
}

function opsetId(r, end, into) {
  let domain = '';
  let version = 0;
  r.fields(end, (g, v) => {
    if (g === 1 && v === 2) domain = r.string(r.len());
    else if (g === 2 && v === 0) version = r.varint();
    else r.skip(v);
  });
  into[domain === 'ai.onnx' ? '' : domain] = version;
}

/** A model-local function (FunctionProto): its name, domain, inputs, outputs, attributes' defaults, nodes and opsets. */
function func(r, end) {
  const fn = { name: '', domain: '', inputs: [], outputs: [], defaults: new Map(), nodes: [], opsets: {} };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) fn.name = r.string(r.len());
    else if (f === 10 && w === 2) fn.domain = r.string(r.len());
    else if (f === 4 && w === 2) fn.inputs.push(r.string(r.len()));
    else if (f === 5 && w === 2) fn.outputs.push(r.string(r.len()));
    else if (f === 11 && w === 2) { const a = attribute(r, r.len()); fn.defaults.set(a.name, a); }
    else if (f === 7 && w === 2) fn.nodes.push(node(r, r.len()));
    else if (f === 9 && w === 2) opsetId(r, r.len(), fn.opsets);
    else r.skip(w);
  });
  return fn;
}

const NOT_ONNX = 'inferShapes: not an ONNX model';

/**
 * True unless `bytes` are no ONNX model (readOnnx's "not an ONNX model": damaged as protobuf, or
 * without ir_version or graph): model-entry asks it of bytes that begin as an .xml does, since a
 * protobuf may begin so too (0x20 0x3c is model_version 60, 0x0a 0x3c a field of 60 bytes).
 */
export function readsAsOnnx(bytes) {
  try {
    readOnnx(bytes);
  } catch (e) {
    if (e instanceof TypeError && e.message.startsWith(NOT_ONNX)) return false;
  }
  return true;
}

/**
 * The model in `bytes` (a Uint8Array): { irVersion, opsets: {domain: version},
 * graph, functions, bigDims }. `bigDims`: some dim_value is past 2^53 - 1 (a BigInt in its
 * shape). Throws a TypeError when the bytes are not an ONNX model.
 */
export function readOnnx(bytes) {
  const r = new Reader(bytes);
  const m = { irVersion: 0, opsets: {}, graph: null, producer: '', functions: [], bigDims: false };
  nesting = 0;
  bigDims = false;
  try {
    r.fields(bytes.length, (f, w) => {
      if (f === 1 && w === 0) m.irVersion = r.varint();
      else if (f === 2 && w === 2) m.producer = r.string(r.len());
      else if (f === 8 && w === 2) opsetId(r, r.len(), m.opsets);
      else if (f === 7 && w === 2) m.graph = graph(r, r.len(), m.graph); // given twice: merged
      else if (f === 25 && w === 2) m.functions.push(func(r, r.len()));
      else r.skip(w);
    });
  } catch (e) {
    if (e instanceof RangeError) throw new TypeError(`${NOT_ONNX} (the protobuf is damaged: ${e.message} at byte ${r.p})`);
    throw e;
  }
  if (m.graph === null || m.irVersion === 0) throw new TypeError(`${NOT_ONNX} (no ir_version or graph)`);
  m.bigDims = bigDims;
  return m;
}

// Little-endian element readers by kind (OpenVINO's element_type names; ONNX's data types map to them):
// [bytes per element, read(view, offset, exact)]. Integers past 2^53 are rounded, as shape values are
// Numbers; `exact`: they stay BigInts, the values the file has (a message names them).
const wide = (x, exact) => (exact && (x > SAFE || x < -SAFE) ? x : Number(x));
const READ = {
  i64: [8, (v, o, exact) => wide(v.getBigInt64(o, true), exact)], u64: [8, (v, o, exact) => wide(v.getBigUint64(o, true), exact)],
  i32: [4, (v, o) => v.getInt32(o, true)], u32: [4, (v, o) => v.getUint32(o, true)],
  i16: [2, (v, o) => v.getInt16(o, true)], u16: [2, (v, o) => v.getUint16(o, true)],
  i8: [1, (v, o) => v.getInt8(o)], u8: [1, (v, o) => v.getUint8(o)], boolean: [1, (v, o) => v.getUint8(o)],
  f32: [4, (v, o) => v.getFloat32(o, true)], f64: [8, (v, o) => v.getFloat64(o, true)],
};
const ONNX_KIND = { 1: 'f32', 2: 'u8', 3: 'i8', 4: 'u16', 5: 'i16', 6: 'i32', 7: 'i64', 9: 'boolean', 11: 'f64', 12: 'u32', 13: 'u64' };
/** The integer kinds of READ (what the IR's Broadcast constants may be). */
export const INTEGER_KINDS = new Set(['i64', 'u64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8', 'boolean']);

/**
 * The `byteLength` bytes at `offset` of `buf` (a Uint8Array) as elements of
 * `kind` (a READ key), Numbers (`exact`: a 64-bit integer past 2^53 a BigInt);
 * null for another kind, a range outside `buf` or a length that is not a whole
 * number of elements.
 */
export function readElements(buf, offset, byteLength, kind, exact = false) {
  const r = READ[kind];
  if (!r || offset < 0 || byteLength < 0 || offset + byteLength > buf.byteLength || byteLength % r[0]) return null;
  const [size, read] = r;
  const view = new DataView(buf.buffer, buf.byteOffset + offset, byteLength);
  const out = new Array(byteLength / size);
  for (let k = 0; k < out.length; k++) out[k] = read(view, k * size, exact);
  return out;
}

/**
 * The values of an integer tensor (int32, int64, uint8..., bool; float32 and float64 too: Range's
 * scalars) as Numbers, a 64-bit one past 2^53 - 1 either way as a BigInt (the value the file has: a
 * message names it so; onnx-ops' shape functions read it as a Number), or null when it is not one,
 * is stored outside the file, or has more than MAX_VALUES elements (its dims' count, whatever its
 * data holds). `bytes` is the model's buffer (raw_data points into it).
 */
export function tensorValues(t, bytes) {
  if (t.external || t.dims.some((d) => typeof d === 'bigint')) return null;
  let n = 1;
  for (const d of t.dims) n *= d;
  if (!(n <= MAX_VALUES)) return null;
  const dt = t.dataType;
  if (t.raw) {
    const kind = ONNX_KIND[dt];
    if (kind === undefined || t.raw.end - t.raw.start !== n * READ[kind][0]) return null;
    return readElements(bytes, t.raw.start, t.raw.end - t.raw.start, kind, true);
  }
  // uint64_data holds uint32 and uint64 (read as int64: one past 2^63 is negative, its value 2^64 more)
  const src = dt === 7 ? t.int64 : dt === 1 ? t.floats : dt === 11 ? t.doubles
    : dt === 12 || dt === 13 ? t.uint64.map((d) => (d < 0 ? wide(BigInt.asUintN(64, BigInt(d)), true) : d))
      : [2, 3, 4, 5, 6, 9].includes(dt) ? t.int32 : null;
  if (src === null) return null;
  if (src.length !== n) return n === 0 ? [] : null;
  return src.slice();
}

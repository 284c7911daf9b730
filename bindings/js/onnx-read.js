// An ONNX model (protobuf, onnx.proto's field numbers) read into plain objects:
// the graph, its nodes, attributes, initializers, inputs, outputs and
// value_info, and every subgraph. Initializer data is not copied: a tensor
// keeps where its bytes are, and only small integer tensors (shapes, axes,
// pads: what shape inference needs) are decoded. One pass over the bytes.

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
   * `exact`: a value past 2^53 - 1 either way is a BigInt, the value the file has.
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
      if (c === undefined || shift > 70n) throw new RangeError('truncated');
      big |= BigInt(c & 0x7f) << shift;
      if (c < 0x80) break;
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

  /** Repeated integers, packed or not, appended to `out`. */
  ints(wire, out) {
    if (wire === 2) {
      const end = this.len();
      while (this.p < end) out.push(this.varint());
    } else {
      out.push(this.varint());
    }
  }

  /** Each field of the message ending at `end`: fn(field, wire). fn reads or skips the value. */
  fields(end, fn) {
    while (this.p < end) {
      const key = this.varint();
      const wire = key & 7;
      const field = Math.floor(key / 8);
      fn(field, wire);
    }
    if (this.p !== end) throw new RangeError('a field runs past its message');
  }
}

const decoder = new TextDecoder();
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function tensor(r, end) {
  const t = { name: '', dims: [], dataType: 0, int64: [], int32: [], raw: null, floats: [], doubles: [], uint64: [], external: false };
  r.fields(end, (f, w) => {
    if (f === 1) r.ints(w, t.dims);
    else if (f === 2 && w === 0) t.dataType = r.varint();
    else if (f === 8 && w === 2) t.name = r.string(r.len());
    else if (f === 7) { if (t.int64.length <= MAX_VALUES) r.ints(w, t.int64); else r.skip(w); }
    else if (f === 5) { if (t.int32.length <= MAX_VALUES) r.ints(w, t.int32); else r.skip(w); }
    else if (f === 9 && w === 2) { const e = r.len(); t.raw = { start: r.p, end: e }; r.p = e; }
    else if (f === 4 && w === 2) {
      const e = r.len();
      if (e - r.p <= 4 * MAX_VALUES) for (let o = r.p; o + 4 <= e; o += 4) t.floats.push(new DataView(r.b.buffer, r.b.byteOffset + o, 4).getFloat32(0, true));
      r.p = e;
    } else if (f === 4 && w === 5) { t.floats.push(new DataView(r.b.buffer, r.b.byteOffset + r.p, 4).getFloat32(0, true)); r.p += 4; }
    else if (f === 10 && w === 2) { // double_data (float64), packed
      const e = r.len();
      if (e - r.p <= 8 * MAX_VALUES) for (let o = r.p; o + 8 <= e; o += 8) t.doubles.push(new DataView(r.b.buffer, r.b.byteOffset + o, 8).getFloat64(0, true));
      r.p = e;
    } else if (f === 10 && w === 1) { t.doubles.push(new DataView(r.b.buffer, r.b.byteOffset + r.p, 8).getFloat64(0, true)); r.p += 8; }
    else if (f === 11) { if (t.uint64.length <= MAX_VALUES) r.ints(w, t.uint64); else r.skip(w); } // uint64_data (uint32, uint64)
    else if (f === 14 && w === 0) t.external = r.varint() === 1;
    else r.skip(w);
  });
  return t;
}

function dimension(r, end) {
  let d = '?';
  r.fields(end, (f, w) => {
    // a dim_value past 2^53 - 1 stays a BigInt (a Number would round it): infer.js refuses it by the value in the file
    if (f === 1 && w === 0) { d = r.varint(true); if (typeof d === 'bigint') bigDims = true; }
    else if (f === 2 && w === 2) { const s = r.string(r.len()).trim(); if (s !== '') d = s; } // a name ('' or blanks: unnamed)
    else r.skip(w);
  });
  return d;
}

// Types nested deeper than this (a sequence of a sequence of …, two messages a level) are refused, as
// protobuf's parsers refuse messages nested past 100: one clear TypeError, not the JS stack's limit (which varies).
const MAX_TYPE_NESTING = 50;

function typeProto(r, end, depth = 0) {
  // { elemType, shape (null: unknown rank) } for a tensor; { kind } otherwise.
  if (depth > MAX_TYPE_NESTING) throw new TypeError(`inferShapes: not a model onnx can read (a type nested deeper than ${MAX_TYPE_NESTING}, at byte ${r.p})`);
  let out = { kind: 'other', elemType: 0, shape: null };
  r.fields(end, (f, w) => {
    if ((f === 1 || f === 8) && w === 2) {
      const e = r.len();
      out = { kind: 'tensor', elemType: 0, shape: null };
      r.fields(e, (g, v) => {
        if (g === 1 && v === 0) out.elemType = r.varint();
        else if (g === 2 && v === 2) {
          const se = r.len();
          const shape = [];
          r.fields(se, (h, u) => { if (h === 1 && u === 2) shape.push(dimension(r, r.len())); else r.skip(u); });
          out.shape = shape;
        } else r.skip(v);
      });
    } else if ((f === 4 || f === 9) && w === 2) {
      // a sequence or an optional: { elem_type: TypeProto } (field 1)
      const e = r.len();
      out = { kind: f === 4 ? 'sequence' : 'optional', elemType: 0, shape: null, elem: null };
      r.fields(e, (g, v) => { if (g === 1 && v === 2) out.elem = typeProto(r, r.len(), depth + 1); else r.skip(v); });
    } else if (f === 5 && w === 2) {
      out = { kind: 'map', elemType: 0, shape: null };
      r.skip(w);
    } else r.skip(w);
  });
  return out;
}

function valueInfo(r, end) {
  const v = { name: '', type: { kind: 'other', elemType: 0, shape: null } };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) v.name = r.string(r.len());
    else if (f === 2 && w === 2) v.type = typeProto(r, r.len());
    else r.skip(w);
  });
  return v;
}

function attribute(r, end) {
  const a = { name: '', type: 0, f: undefined, i: undefined, s: undefined, t: undefined, g: undefined, floats: [], ints: [], strings: [], graphs: [] };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) a.name = r.string(r.len());
    else if (f === 20 && w === 0) a.type = r.varint();
    else if (f === 2 && w === 5) { a.f = new DataView(r.b.buffer, r.b.byteOffset + r.p, 4).getFloat32(0, true); r.p += 4; }
    else if (f === 3 && w === 0) a.i = r.varint();
    else if (f === 4 && w === 2) a.s = r.string(r.len());
    else if (f === 5 && w === 2) a.t = tensor(r, r.len());
    else if (f === 6 && w === 2) a.g = graph(r, r.len());
    else if (f === 8) r.ints(w, a.ints);
    else if (f === 9 && w === 2) a.strings.push(r.string(r.len()));
    else if (f === 11 && w === 2) a.graphs.push(graph(r, r.len()));
    else if (f === 21 && w === 2) a.ref = r.string(r.len()); // in a function body: the caller's attribute of that name
    else if (f === 7 && w === 2) { const e = r.len(); while (r.p < e) { a.floats.push(new DataView(r.b.buffer, r.b.byteOffset + r.p, 4).getFloat32(0, true)); r.p += 4; } }
    else if (f === 7 && w === 5) { a.floats.push(new DataView(r.b.buffer, r.b.byteOffset + r.p, 4).getFloat32(0, true)); r.p += 4; } // unpacked (proto2: onnx's own writers)
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
let bigDims = false; // a dim_value past 2^53 - 1 was read (readOnnx starts it false)

function graph(r, end) {
  if (++nesting > MAX_NESTING) throw new TypeError(`inferShapes: not a model onnx can read (graphs nested deeper than ${MAX_NESTING}: the main graph and ${MAX_NESTING - 1} levels of subgraphs are read, at byte ${r.p})`);
  const g = { name: '', nodes: [], initializers: [], inputs: [], outputs: [], valueInfo: [] };
  r.fields(end, (f, w) => {
    if (f === 1 && w === 2) g.nodes.push(node(r, r.len()));
    else if (f === 2 && w === 2) g.name = r.string(r.len());
    else if (f === 5 && w === 2) g.initializers.push(tensor(r, r.len()));
    else if (f === 15 && w === 2) {
      // a sparse initializer: its dims (field 3) and its values' name (field 1's name)
      const e = r.len();
      const t = { name: '', dims: [], dataType: 0, int64: [], int32: [], raw: null, floats: [], doubles: [], uint64: [], external: false };
      r.fields(e, (h, u) => {
        if (h === 1 && u === 2) { const v = tensor(r, r.len()); t.name = v.name; t.dataType = v.dataType; } else if (h === 3) r.ints(u, t.dims); else r.skip(u);
      });
      g.initializers.push(t);
    } else if (f === 11 && w === 2) g.inputs.push(valueInfo(r, r.len()));
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

/**
 * The model in `bytes` (a Uint8Array): { irVersion, opsets: {domain: version},
 * graph, functions, bigDims }. `bigDims`: some dim_value is past 2^53 - 1 (a BigInt in
 * its shape). Throws a TypeError when the bytes are not an ONNX model.
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
      else if (f === 7 && w === 2) m.graph = graph(r, r.len());
      else if (f === 25 && w === 2) m.functions.push(func(r, r.len()));
      else r.skip(w);
    });
  } catch (e) {
    if (e instanceof RangeError) throw new TypeError(`inferShapes: not an ONNX model (the protobuf is damaged: ${e.message} at byte ${r.p})`);
    throw e;
  }
  if (m.graph === null || m.irVersion === 0) throw new TypeError('inferShapes: not an ONNX model (no ir_version or graph)');
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
 * scalars) as Numbers, or null when it is not one, is stored outside the file, or has more than
 * MAX_VALUES elements. `bytes` is the model's buffer (raw_data points into it).
 */
export function tensorValues(t, bytes) {
  let n = 1;
  for (const d of t.dims) n *= d;
  if (!(n <= MAX_VALUES) || t.external) return null;
  const dt = t.dataType;
  if (t.raw) {
    const kind = ONNX_KIND[dt];
    if (kind === undefined || t.raw.end - t.raw.start !== n * READ[kind][0]) return null;
    return readElements(bytes, t.raw.start, t.raw.end - t.raw.start, kind);
  }
  // uint64_data holds uint32 and uint64 (read as int64: one past 2^63 is negative, 2^64 from its value)
  const src = dt === 7 ? t.int64 : dt === 1 ? t.floats : dt === 11 ? t.doubles : dt === 12 || dt === 13 ? t.uint64.map((d) => (d < 0 ? d + 2 ** 64 : d))
    : [2, 3, 4, 5, 6, 9].includes(dt) ? t.int32 : null;
  if (src === null) return null;
  if (src.length !== n) return n === 0 ? [] : null;
  return src.slice();
}

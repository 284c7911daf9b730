// Tiny ONNX models (Add / Mul / Expand / ReduceSum, element-wise chains, opset 13) written as protobuf bytes by
// hand: no python, no protobuf library. Field numbers are those of onnx.proto3.
//
//   ModelProto      1 ir_version, 2 producer_name, 7 graph, 8 opset_import
//   OperatorSetId   1 domain, 2 version
//   GraphProto      1 node, 2 name, 5 initializer, 11 input, 12 output
//   NodeProto       1 input, 2 output, 3 name, 4 op_type
//   ValueInfoProto  1 name, 2 type
//   TypeProto       1 tensor_type { 1 elem_type, 2 shape { 1 dim { 1 dim_value } } }
//   TensorProto     1 dims, 2 data_type, 8 name, 9 raw_data

export const ONNX_TYPE = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, float64: 11 };

const enc = new TextEncoder();

function varint(n) {
  // n: non-negative integer or bigint (int64 fields)
  let v = BigInt(n);
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return out;
}

const key = (field, wire) => varint((field << 3) | wire);
const fVarint = (field, n) => [...key(field, 0), ...varint(n)];
const fBytes = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];
const fString = (field, s) => fBytes(field, [...enc.encode(s)]);

function valueInfo(name, dtype, shape) {
  const dims = shape.flatMap((d) => fBytes(1, fVarint(1, d)));
  const tensorType = [...fVarint(1, ONNX_TYPE[dtype]), ...fBytes(2, dims)];
  return [...fString(1, name), ...fBytes(2, fBytes(1, tensorType))];
}

function int64Initializer(name, values) {
  const raw = new Uint8Array(values.length * 8);
  const dv = new DataView(raw.buffer);
  values.forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
  return [...fVarint(1, values.length), ...fVarint(2, ONNX_TYPE.int64), ...fString(8, name), ...fBytes(9, [...raw])];
}

function model(graph) {
  return Uint8Array.from([
    ...fVarint(1, 7), // ir_version 7 (opset 13 era)
    ...fString(2, 'tensorcast-bench'),
    ...fBytes(7, graph),
    ...fBytes(8, [...fString(1, ''), ...fVarint(2, 13)]),
  ]);
}

/** C = op(A, B) with A, B of the given shapes and dtype; op is 'Add' | 'Mul' | 'Sub' | 'Div'. */
export function binaryModel(op, shapeA, shapeB, shapeC, dtype = 'float32') {
  const node = [...fString(1, 'A'), ...fString(1, 'B'), ...fString(2, 'C'), ...fString(3, 'n0'), ...fString(4, op)];
  const graph = [
    ...fBytes(1, node),
    ...fString(2, `${op.toLowerCase()}_graph`),
    ...fBytes(11, valueInfo('A', dtype, shapeA)),
    ...fBytes(11, valueInfo('B', dtype, shapeB)),
    ...fBytes(12, valueInfo('C', dtype, shapeC)),
  ];
  return model(graph);
}

/** Y = Expand(X, shape) with the target shape as an int64 initializer. */
export function expandModel(shapeX, target, dtype = 'float32') {
  const node = [...fString(1, 'X'), ...fString(1, 'S'), ...fString(2, 'Y'), ...fString(3, 'n0'), ...fString(4, 'Expand')];
  const graph = [
    ...fBytes(1, node),
    ...fString(2, 'expand_graph'),
    ...fBytes(5, int64Initializer('S', target)),
    ...fBytes(11, valueInfo('X', dtype, shapeX)),
    ...fBytes(12, valueInfo('Y', dtype, target)),
  ];
  return model(graph);
}

/**
 * Y = ReduceSum(X, axes) (opset 13: the axes are an int64 input, here an
 * initializer; omitted for a sum over all axes), keepdims 0 or 1.
 *   AttributeProto  1 name, 3 i, 20 type (INT = 2);  NodeProto 5 attribute
 */
export function reduceSumModel(shapeX, axes, keepdims, dtype = 'float32') {
  const rank = shapeX.length;
  const norm = axes === null ? shapeX.map((_, i) => i) : axes.map((a) => (a + rank) % rank);
  const shapeY = keepdims ? shapeX.map((d, i) => (norm.includes(i) ? 1 : d)) : shapeX.filter((_, i) => !norm.includes(i));
  const attr = [...fString(1, 'keepdims'), ...fVarint(3, keepdims ? 1 : 0), ...fVarint(20, 2)];
  const node = [...fString(1, 'X'), ...(axes === null ? [] : fString(1, 'axes')), ...fString(2, 'Y'), ...fString(3, 'n0'), ...fString(4, 'ReduceSum'), ...fBytes(5, attr)];
  const graph = [
    ...fBytes(1, node),
    ...fString(2, 'reducesum_graph'),
    ...(axes === null ? [] : fBytes(5, int64Initializer('axes', norm))),
    ...fBytes(11, valueInfo('X', dtype, shapeX)),
    ...fBytes(12, valueInfo('Y', dtype, shapeY)),
  ];
  return { bytes: model(graph), shapeY };
}

/**
 * A chain of element-wise nodes: nodes [[op, [inputs], output], ...] over graph
 * inputs { name: shape } ([] a scalar) with one graph output `output` of `shapeY`.
 */
export function chainModel(nodes, inputs, output, shapeY, dtype = 'float32') {
  const graph = [
    ...nodes.flatMap(([op, ins, out], k) => fBytes(1, [...ins.flatMap((i) => fString(1, i)), ...fString(2, out), ...fString(3, `n${k}`), ...fString(4, op)])),
    ...fString(2, 'chain_graph'),
    ...Object.entries(inputs).flatMap(([name, shape]) => fBytes(11, valueInfo(name, dtype, shape))),
    ...fBytes(12, valueInfo(output, dtype, shapeY)),
  ];
  return model(graph);
}

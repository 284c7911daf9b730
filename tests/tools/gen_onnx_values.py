#!/usr/bin/python3
# Small ONNX models whose shapes depend on values a node changes or on a subgraph's
# semantics (tests/js/model.test.js, 'shape values and subgraphs'): written into
# tests/fixtures/onnx/values/ with Debian's onnx (1.12), each printed beside what
# onnx's strict inference (data_prop) says of it. Usage: /usr/bin/python3 tests/tools/gen_onnx_values.py
import os, numpy as np
from onnx import helper as h, TensorProto as TP, numpy_helper as nh, shape_inference
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'onnx', 'values')
os.makedirs(OUT, exist_ok=True)
I = lambda n, t, s: h.make_tensor_value_info(n, t, s)
i64 = lambda n, v: nh.from_array(np.array(v, np.int64), n)
f32 = lambda n, v: nh.from_array(np.array(v, np.float32), n)
def save(name, nodes, ins, outs, opset, inits=(), vi=()):
    m = h.make_model(h.make_graph(nodes, name, ins, outs, initializer=list(inits), value_info=list(vi)), opset_imports=[h.make_opsetid('', opset)])
    open(os.path.join(OUT, f'{name}.onnx'), 'wb').write(m.SerializeToString())
    try:
        im = shape_inference.infer_shapes(m, strict_mode=True, data_prop=True)
    except Exception as e:  # onnx 1.12's own inference may refuse what NumPy and the runtimes take
        print(name, 'onnx refuses:', str(e).splitlines()[-1])
        return
    print(name, 'onnx:', {v.name: [d.dim_value or d.dim_param or '?' for d in v.type.tensor_type.shape.dim] if v.type.tensor_type.HasField('shape') else None for v in list(im.graph.value_info) + list(im.graph.output)})
# A cast to an integer type truncates shape values (Resize sizes = Cast(Mul(Cast(Shape(x)[2:4]), 1.5)) is 7, not 7.5)
save('cast_resize', [h.make_node('Shape', ['x'], ['s']), h.make_node('Slice', ['s', 'b', 'e'], ['hw']),
    h.make_node('Cast', ['hw'], ['hwf'], to=TP.FLOAT), h.make_node('Mul', ['hwf', 'k'], ['hws']),
    h.make_node('Cast', ['hws'], ['hwi'], to=TP.INT64), h.make_node('Concat', ['nc', 'hwi'], ['sizes'], axis=0),
    h.make_node('Resize', ['x', '', '', 'sizes'], ['y'], mode='nearest')],
    [I('x', TP.FLOAT, [1, 3, 5, 5])], [I('y', TP.FLOAT, None)], 13, [i64('b', [2]), i64('e', [4]), f32('k', [1.5]), i64('nc', [1, 3])])
save('cast_reshape', [h.make_node('Cast', ['f'], ['t'], to=TP.INT64), h.make_node('Reshape', ['x', 't'], ['y'])],
    [I('x', TP.FLOAT, [6])], [I('y', TP.FLOAT, None)], 13, [f32('f', [2.7, 3.9])])
save('cast_bool', [h.make_node('Cast', ['s'], ['b'], to=TP.BOOL), h.make_node('Cast', ['b'], ['t'], to=TP.INT64),
    h.make_node('ConstantOfShape', ['t'], ['y'])], [], [I('y', TP.FLOAT, None)], 13, [i64('s', [1, 3])])
# Squeeze-13 and Split-13 whose axes or sizes are an input of unknown values: no shape (not all 1s squeezed, not an even split)
save('squeeze_unknown_axes', [h.make_node('Squeeze', ['x', 'ax'], ['y'])], [I('x', TP.FLOAT, [1, 3, 1]), I('ax', TP.INT64, [1])], [I('y', TP.FLOAT, None)], 13)
save('split_unknown_sizes', [h.make_node('Split', ['x', 's'], ['a', 'b'])], [I('x', TP.FLOAT, [4]), I('s', TP.INT64, [2])], [I('a', TP.FLOAT, None), I('b', TP.FLOAT, None)], 13)
# The other outputs of BatchNormalization (training: one per channel) and LayerNormalization (the normalised axes as 1)
save('batchnorm_training', [h.make_node('BatchNormalization', ['x', 'sc', 'b', 'm', 'v'], ['y', 'rm', 'rv'], training_mode=1)],
    [I('x', TP.FLOAT, [2, 3, 4, 5])], [I('y', TP.FLOAT, None), I('rm', TP.FLOAT, None), I('rv', TP.FLOAT, None)], 15, [f32(n, np.ones(3)) for n in 'sc b m v'.split()])
save('layernorm_stats', [h.make_node('LayerNormalization', ['x', 'sc'], ['y', 'mean', 'isd'], axis=-1)],
    [I('x', TP.FLOAT, [2, 3, 4])], [I('y', TP.FLOAT, None), I('mean', TP.FLOAT, None), I('isd', TP.FLOAT, None)], 17, [f32('sc', np.ones(4))])
# Scan: the body sees each scan input without its scan axis; scan outputs stack along scan_output_axes
body = h.make_graph([h.make_node('Add', ['s_in', 'x_t'], ['s_out']), h.make_node('Identity', ['s_out'], ['y_t'])], 'body',
    [I('s_in', TP.FLOAT, None), I('x_t', TP.FLOAT, None)], [I('s_out', TP.FLOAT, None), I('y_t', TP.FLOAT, None)])
save('scan', [h.make_node('Scan', ['s0', 'xs'], ['sf', 'ys'], body=body, num_scan_inputs=1)],
    [I('s0', TP.FLOAT, [4]), I('xs', TP.FLOAT, ['T', 4])], [I('sf', TP.FLOAT, None), I('ys', TP.FLOAT, None)], 11)
# An initializer that is also a graph input is a default the caller may replace: the declared dims hold
save('initializer_input', [h.make_node('Add', ['x', 'w'], ['y'])], [I('x', TP.FLOAT, ['N', 4]), I('w', TP.FLOAT, ['N', 4])],
    [I('y', TP.FLOAT, None)], 13, [f32('w', np.zeros((3, 4)))])
# A name a non-broadcasting node gives that the file declares as a number: that number from there on
save('declared_after_transpose', [h.make_node('Transpose', ['x'], ['t'], perm=[1, 0]), h.make_node('Add', ['t', 'k'], ['y'])],
    [I('x', TP.FLOAT, ['N', 3]), I('k', TP.FLOAT, ['K'])], [I('y', TP.FLOAT, None)], 13, vi=[I('t', TP.FLOAT, [3, 4])])
# Constant value_floats as onnx writes it (proto2: unpacked floats), broadcast by an Add; Upsample-7's scales attribute too
save('constant_value_floats', [h.make_node('Constant', [], ['c'], value_floats=[1., 2., 3.]), h.make_node('Add', ['x', 'c'], ['y'])],
    [I('x', TP.FLOAT, [2, 3])], [I('y', TP.FLOAT, None)], 17)
save('upsample7_scales', [h.make_node('Upsample', ['x'], ['y'], scales=[1., 1., 2.5, 0.5])], [I('x', TP.FLOAT, [1, 3, 5, 7])], [I('y', TP.FLOAT, None)], 7)
# A cast of shape values wraps into a narrow integer type and rounds to float16; a name cast to bool is unknown
for to, tag in ((TP.UINT8, 'u8'), (TP.INT8, 'i8'), (TP.INT16, 'i16'), (TP.FLOAT16, 'f16')):
    save(f'cast_{tag}_shape', [h.make_node('Shape', ['x'], ['s']), h.make_node('Cast', ['s'], ['n'], to=to), h.make_node('Cast', ['n'], ['t'], to=TP.INT64),
        h.make_node('ConstantOfShape', ['t'], ['y'])], [I('x', TP.FLOAT, [300, 2049, 40000])], [I('y', TP.FLOAT, None)], 13)
save('cast_bool_name', [h.make_node('Shape', ['x'], ['s']), h.make_node('Cast', ['s'], ['b'], to=TP.BOOL), h.make_node('Cast', ['b'], ['t'], to=TP.INT64),
    h.make_node('ConstantOfShape', ['t'], ['y'])], [I('x', TP.FLOAT, ['N', 3])], [I('y', TP.FLOAT, None)], 13)
# Neg and Abs on shape values; ConstantOfShape and Expand whose shape input has a known length, its values not known
save('neg_shape', [h.make_node('Shape', ['x'], ['s']), h.make_node('Neg', ['s'], ['n']), h.make_node('Neg', ['n'], ['p']), h.make_node('Abs', ['n'], ['a']),
    h.make_node('ConstantOfShape', ['p'], ['y']), h.make_node('ConstantOfShape', ['a'], ['z'])], [I('x', TP.FLOAT, [2, 'N'])], [I('y', TP.FLOAT, None), I('z', TP.FLOAT, None)], 13)
save('shape_values_unknown', [h.make_node('ConstantOfShape', ['s'], ['y']), h.make_node('Expand', ['x', 's'], ['e'])],
    [I('x', TP.FLOAT, [1, 'N', 3, 1]), I('s', TP.INT64, [5])], [I('y', TP.FLOAT, None), I('e', TP.FLOAT, None)], 13)
# Ops whose output shapes follow from the inputs' shapes and attributes (onnx-ops.js moreShapes, einsumPlan)
save('einsum', [h.make_node('Einsum', ['a', 'b'], ['bmm'], equation='bij,bjk->bik'), h.make_node('Einsum', ['c', 'd'], ['ell'], equation='...ij,...jk'),
    h.make_node('Einsum', ['e'], ['diag'], equation='ii->i')],
    [I('a', TP.FLOAT, [2, 3, 4]), I('b', TP.FLOAT, [2, 4, 5]), I('c', TP.FLOAT, [3, 1, 2, 4]), I('d', TP.FLOAT, [2, 4, 6]), I('e', TP.FLOAT, [3, 3])],
    [I('bmm', TP.FLOAT, None), I('ell', TP.FLOAT, None), I('diag', TP.FLOAT, None)], 12)
save('losses', [h.make_node('SoftmaxCrossEntropyLoss', ['s', 'l'], ['sce', 'logp'], reduction='none'), h.make_node('SoftmaxCrossEntropyLoss', ['s', 'l'], ['scem']),
    h.make_node('NegativeLogLikelihoodLoss', ['x', 't'], ['nll'], reduction='none'), h.make_node('NegativeLogLikelihoodLoss', ['x', 't'], ['nllm'])],
    [I('s', TP.FLOAT, [3, 5, 2]), I('l', TP.INT64, [3, 2]), I('x', TP.FLOAT, [4, 5]), I('t', TP.INT64, [4])],
    [I(n, TP.FLOAT, None) for n in ['sce', 'logp', 'scem', 'nll', 'nllm']], 13)
save('onehot_gathernd_det', [h.make_node('OneHot', ['i', 'depth', 'vals'], ['oh'], axis=1), h.make_node('GatherND', ['g', 'gi'], ['gnd'], batch_dims=1),
    h.make_node('Det', ['m'], ['det']), h.make_node('Unique', ['u'], ['uy', 'ui', 'uinv', 'uc'], axis=0)],
    [I('i', TP.INT64, [2, 3]), I('g', TP.FLOAT, [2, 3, 4]), I('gi', TP.INT64, [2, 2]), I('m', TP.FLOAT, [2, 3, 3]), I('u', TP.FLOAT, [3, 4])],
    [I(n, TP.FLOAT, None) for n in ['oh', 'gnd', 'det', 'uy', 'ui', 'uinv', 'uc']], 13, [i64('depth', [10]), f32('vals', [0, 1])])
save('signal', [h.make_node('DFT', ['sig'], ['spec'], onesided=1), h.make_node('HannWindow', ['wlen'], ['win']),
    h.make_node('STFT', ['long', 'step', 'win'], ['stft'])],
    [I('sig', TP.FLOAT, [1, 8, 1]), I('long', TP.FLOAT, [1, 64, 1])], [I(n, TP.FLOAT, None) for n in ['spec', 'win', 'stft']], 17,
    [i64('wlen', 16), i64('step', 8)])

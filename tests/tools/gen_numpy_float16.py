#!/usr/bin/python3
"""Write tests/fixtures/numpy_float16.json: float16 cases whose expected
values NumPy computed: every element-wise op (scalar operands too),
broadcastTo, where, the reductions (sum, prod, min, max, mean; with
dtype='float32' too) and unbroadcast.

Run with Debian's interpreter, which has numpy (apt-get install python3-numpy):
    /usr/bin/python3 tests/tools/gen_numpy_float16.py
tests/js/data-float16.test.js replays the file through the built package
(Node 20: the Uint16Array-bits form) and compares bit for bit (any NaN
equals any NaN).

A file of its own (not numpy_data.json / numpy_reduce.json): their cases and
random draws stay exactly as they were, and their replays stay per dtype.

Mappings (the library's contract, as in gen_numpy_fixtures.py):
  - float rem is np.fmod (JS %), mod is np.remainder, floorDiv np.floor_divide;
  - comparisons and logical ops give uint8 0/1;
  - NumPy computes a float16 op in float32 and rounds to float16 once (its
    half loops): the library does the same;
  - reductions: the library reduces float16 in float32 and rounds once. NumPy's
    own float16 add.reduce may round to float16 between steps of a strided
    reduction, so the expected value is NumPy's float32 reduction of the same
    float16 values, stored as float16 (x.sum(axis, dtype=float32).astype(float16);
    np.mean does exactly this for float16). min / max are NumPy's own.
    As in gen_numpy_reduce_fixtures.py, NumPy's min/max of a +0/-0 pair is
    not held to the sign of zero: such cases carry `anyZeroSign` (a sum of
    -0 terms is +0 in both, NumPy's starting from +0).
Values are float16 bits (integers 0..65535); uint8 results are 0/1.
"""
import json
import math
import os
import random

import numpy as np

SEED = 20261126
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'numpy_float16.json')
rng = random.Random(SEED)
F16 = np.float16

OPS = {
    'add': np.add, 'sub': np.subtract, 'mul': np.multiply, 'div': np.divide, 'rem': np.fmod, 'pow': np.power,
    'minimum': np.minimum, 'maximum': np.maximum,
    'equal': np.equal, 'notEqual': np.not_equal, 'less': np.less, 'lessEqual': np.less_equal,
    'greater': np.greater, 'greaterEqual': np.greater_equal,
    'logicalAnd': np.logical_and, 'logicalOr': np.logical_or, 'logicalXor': np.logical_xor,
    'mod': np.remainder, 'floorDiv': np.floor_divide, 'atan2': np.arctan2, 'hypot': np.hypot,
}
BOOL = {'equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual', 'logicalAnd', 'logicalOr', 'logicalXor'}
MAX = 48


def dim():
    return rng.choice([1, 1, 2, 2, 3, 3, 4, 0])


def size(s):
    return int(np.prod(s, dtype=np.int64)) if s else 1


def out_shape():
    while True:
        s = [dim() for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4]))]
        if size(s) <= MAX:
            return s


def operand_of(out):
    s = out[rng.randint(0, len(out)):] if out and rng.random() < 0.4 else list(out)
    return [1 if rng.random() < 0.35 else d for d in s]


def value(op=None, role='a'):
    r = rng.random()
    if op not in ('minimum', 'maximum') and r < 0.05:
        return rng.choice([0.0, -0.0])
    if r < 0.09:
        return rng.choice([math.nan, math.inf, -math.inf, 65504.0, -65504.0, 6e-8, 3e-5, 60000.0])
    if op == 'pow':
        if role == 'a':
            return rng.choice([0.5, 1.5, 2.0, 3.0, -2.0, 0.25, 10.0, -1.5, 1.001])
        return rng.choice([0.0, 1.0, 2.0, 3.0, -1.0, 0.5, -2.0, 2.5, 7.0])
    v = round(rng.uniform(-20, 20), rng.choice([0, 1, 2, 3]))
    return 0.0 if v == 0 else v


def array(shape, op=None, role='a'):
    return np.array([value(op, role) for _ in range(size(shape))], dtype=F16).reshape(shape)


def bits(a):
    return [int(v) for v in np.ascontiguousarray(a, dtype=F16).reshape(-1).view(np.uint16)]


def enc(a, dt='float16'):
    a = np.asarray(a)
    if dt == 'float16':
        return {'shape': list(a.shape), 'bits': bits(a)}
    if dt == 'uint8':
        return {'shape': list(a.shape), 'data': [int(v) for v in a.astype(np.uint8).reshape(-1)]}
    f = a.astype(np.float32).reshape(-1)
    return {'shape': list(a.shape), 'bits32': [int(v) for v in f.view(np.uint32)]}


cases = []
with np.errstate(all='ignore'):
    for op, fn in OPS.items():
        for _ in range(10):
            out = out_shape()
            a = array(operand_of(out), op, 'a')
            b = array(operand_of(out), op, 'b')
            if op in ('minimum', 'maximum'):  # NumPy leaves the order of a +0/-0 pair open
                b = np.where((a == 0) & (b == 0), F16(1), b).astype(F16)
            r = fn(a, b)
            odt = 'uint8' if op in BOOL else 'float16'
            cases.append({'family': 'binary', 'op': op, 'a': enc(a), 'b': enc(b), 'outDtype': odt, 'out': enc(r, odt)})
        for _ in range(3):
            a = array(out_shape(), op, 'a')
            s = value(op, 'b')
            if op in ('minimum', 'maximum') and s == 0:
                s = 1.5
            if not math.isfinite(s):
                s = 2.5
            r = fn(a, F16(s))
            odt = 'uint8' if op in BOOL else 'float16'
            cases.append({'family': 'scalar', 'op': op, 'a': enc(a), 'scalar': s, 'outDtype': odt, 'out': enc(r, odt)})
    for _ in range(12):
        target = out_shape()
        x = array(operand_of(target))
        cases.append({'family': 'broadcastTo', 'x': enc(x), 'target': target,
                      'out': enc(np.broadcast_to(x, target))})
    for _ in range(12):
        out = out_shape()
        cs = operand_of(out)
        cond = np.array([rng.choice([0, 1]) for _ in range(size(cs))], dtype=np.uint8).reshape(cs)
        a = array(operand_of(out))
        b = array(operand_of(out))
        cases.append({'family': 'where', 'cond': enc(cond, 'uint8'), 'a': enc(a), 'b': enc(b),
                      'out': enc(np.where(cond != 0, a, b))})
    # float16 conditions: truthiness is != 0 (NaN true, -0 false)
    c16 = np.array([0.0, -0.0, math.nan, 1.0, -3.5, 6e-8], dtype=F16)
    a = array([6])
    b = array([6])
    cases.append({'family': 'where', 'cond': enc(c16), 'condDtype': 'float16', 'a': enc(a), 'b': enc(b),
                  'out': enc(np.where(c16 != 0, a, b))})
    for op in ('sum', 'prod', 'min', 'max', 'mean'):
        for k in range(14):
            while True:
                s = [rng.choice([1, 2, 3, 4, 5]) for _ in range(rng.choice([1, 1, 2, 2, 3]))]
                if size(s) <= MAX:
                    break
            x = np.array([value('pow' if op == 'prod' else None) if rng.random() < 0.1 or op != 'prod'
                          else rng.choice([0.5, 1.5, -2.0, 1.25, 0.75]) for _ in range(size(s))], dtype=F16).reshape(s)
            if op == 'prod':
                x = np.where(np.isfinite(x) & (np.abs(x) > 8), F16(1.5), x).astype(F16)
            axis = None if rng.random() < 0.3 else rng.sample(range(len(s)), rng.randint(1, len(s)))
            ax = None if axis is None else tuple(axis)
            keep = rng.random() < 0.3
            as32 = k % 4 == 3  # dtype: 'float32'
            if op in ('min', 'max'):
                r = (np.amin if op == 'min' else np.amax)(x, axis=ax, keepdims=keep)
                if as32:
                    r = r.astype(np.float32)
            elif op == 'mean':
                r = np.mean(x, axis=ax, keepdims=keep, dtype=np.float32)
            else:
                r = (np.sum if op == 'sum' else np.prod)(x, axis=ax, keepdims=keep, dtype=np.float32)
            odt = 'float32' if as32 else 'float16'
            if not as32:
                r = np.asarray(r).astype(F16)
            c = {'family': 'reduce', 'op': op, 'x': enc(x), 'keepdims': keep, 'outDtype': odt, 'out': enc(r, odt)}
            if axis is not None:
                c['axis'] = axis
            if as32:
                c['dtype'] = 'float32'
            if op in ('min', 'max') and bool((np.signbit(x) & (x == 0)).any()):
                c['anyZeroSign'] = True
            cases.append(c)
    for _ in range(10):
        out = [rng.choice([1, 2, 3, 4]) for _ in range(rng.choice([1, 2, 3]))]
        ins = operand_of(out)
        g = array(out)
        g = np.where(np.isfinite(g), g, F16(1)).astype(F16)
        lead = len(out) - len(ins)
        axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(ins) if d == 1 and out[lead + i] != 1)
        r = g.astype(np.float32).sum(axis=axes, keepdims=True) if axes else g.astype(np.float32)
        r = r.reshape(ins).astype(F16)
        cases.append({'family': 'unbroadcast', 'g': enc(g), 'inShape': ins, 'out': enc(r)})

with open(OUT, 'w') as f:
    json.dump({'numpy': np.__version__, 'seed': SEED, 'cases': cases}, f, separators=(',', ':'))
    f.write('\n')
print(f'{len(cases)} cases -> {OUT}')

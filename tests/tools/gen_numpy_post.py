#!/usr/bin/python3
"""Write tests/fixtures/numpy_post.json: softmax, logSoftmax, logSumExp,
argmax, argmin and top-k, computed by NumPy.

Run with Debian's interpreter, which has numpy (apt-get install python3-numpy):
    /usr/bin/python3 tests/tools/gen_numpy_post.py
tests/js/post.test.js replays the file through the built package.

  arg   np.argmax / np.argmin along every axis and flattened (keepdims too),
        every dtype (uint8clamped as uint8; float16's bits), with ties, NaN,
        +-inf, -0 and the integer extremes: compared exactly.
  topk  NumPy has none: a stable sort by (rank, index), NaN above +inf, -0 as
        +0, largest and smallest, every axis, every dtype: exactly.
  soft  softmax, logSoftmax (every axis) and logSumExp (axis lists, keepdims)
        of float32, float64 and float16, computed in float64 by NumPy and
        rounded to the dtype; the test allows a few ulps (the float32
        transcendentals are within 2 ulp: src/kernels/fast_f32.hpp).
Values are JSON numbers, except NaN/Infinity/-Infinity/-0 and 64-bit
integers, which are strings.
"""
import json
import math
import os
import random

import numpy as np

# The dtypes and the JSON encoding of values: the unary generator's (the test decodes them alike).
from gen_numpy_unary import DTYPES, FLOATS, enc

SEED = 20261128
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'numpy_post.json')
rng = random.Random(SEED)

SHAPES = [[7], [3, 4], [2, 3, 4], [1, 5, 1]]


def values(dt, n):
    t = DTYPES[dt]
    if dt in FLOATS:
        pool = [0.0, -0.0, 1.0, -1.0, 2.5, 2.5, -7.25, 100.0, 0.001, float('inf'), float('-inf'), float('nan')]
        vals = [rng.choice(pool) if rng.random() < 0.3 else round(rng.uniform(-20, 20), 3) for _ in range(n)]
        return np.array(vals, dtype=t)
    info = np.iinfo(t)
    pool = [int(info.min), int(info.max), 0, 1, 1, 2]
    vals = [rng.choice(pool) if rng.random() < 0.4 else rng.randint(int(max(info.min, -1000)), int(min(info.max, 1000))) for _ in range(n)]
    return np.array(vals, dtype=t)


def finite_values(dt, n):
    t = DTYPES[dt]
    return np.array([round(rng.uniform(-30, 30), 2) if rng.random() < 0.9 else rng.choice([0.0, -0.0, 50.0]) for _ in range(n)], dtype=t)


def arg_cases():
    cases = []
    for dt in DTYPES:
        for shape in SHAPES:
            x = values(dt, int(np.prod(shape))).reshape(shape)
            for axis in [None] + list(range(len(shape))):
                for keep in (False, True):
                    if axis is None and keep:
                        continue
                    for fn, f in (('argmax', np.argmax), ('argmin', np.argmin)):
                        r = f(x, axis=axis, keepdims=keep) if axis is not None else f(x)
                        rs = list(np.shape(r))
                        cases.append({'fn': fn, 'dtype': dt, 'shape': shape, 'x': enc(dt, x), 'axis': axis, 'keepdims': keep,
                                      'want': [int(v) for v in np.asarray(r).reshape(-1)], 'wantShape': rs})
    return cases


def rank_key(v, dt, largest):
    if dt in FLOATS:
        f = float(v)
        if math.isnan(f):
            return (0,) if largest else (2,)
        return (1, -f) if largest else (1, f)
    return (1, -int(v)) if largest else (1, int(v))


def topk_cases():
    cases = []
    for dt in DTYPES:
        for shape in SHAPES[:3]:
            x = values(dt, int(np.prod(shape))).reshape(shape)
            for axis in range(len(shape)):
                n = shape[axis]
                for k in sorted({0, 1, min(2, n), n}):
                    for largest in (True, False):
                        xm = np.moveaxis(x, axis, -1)
                        vals = np.empty(xm.shape[:-1] + (k,), dtype=x.dtype)
                        idx = np.empty(xm.shape[:-1] + (k,), dtype=np.int32)
                        for pos in np.ndindex(*xm.shape[:-1]):
                            row = xm[pos]
                            order = sorted(range(n), key=lambda i: (rank_key(row[i], dt, largest), i))[:k]
                            vals[pos] = row[order]
                            idx[pos] = order
                        cases.append({'fn': 'topk', 'dtype': dt, 'shape': shape, 'x': enc(dt, x), 'axis': axis, 'k': k, 'largest': largest,
                                      'values': enc(dt, np.moveaxis(vals, -1, axis)), 'indices': [int(v) for v in np.moveaxis(idx, -1, axis).reshape(-1)],
                                      'wantShape': list(np.moveaxis(vals, -1, axis).shape)})
    return cases


def soft_cases():
    cases = []
    for dt in FLOATS:
        for shape in SHAPES + [[4, 300]]:
            x = finite_values(dt, int(np.prod(shape))).reshape(shape)
            x64 = x.astype(np.float64)
            for axis in range(len(shape)):
                m = np.max(x64, axis=axis, keepdims=True)
                e = np.exp(x64 - m)
                s = np.sum(e, axis=axis, keepdims=True)
                cases.append({'fn': 'softmax', 'dtype': dt, 'shape': shape, 'x': enc(dt, x), 'axis': axis, 'want': enc(dt, (e / s).astype(x.dtype))})
                cases.append({'fn': 'logSoftmax', 'dtype': dt, 'shape': shape, 'x': enc(dt, x), 'axis': axis, 'want': enc(dt, (x64 - m - np.log(s)).astype(x.dtype))})
            axes_lists = [None, [len(shape) - 1], [0]] + ([[0, len(shape) - 1]] if len(shape) > 2 else [])
            for axes in axes_lists:
                for keep in (False, True):
                    ax = tuple(axes) if axes is not None else None
                    m = np.max(x64, axis=ax, keepdims=True)
                    r = m + np.log(np.sum(np.exp(x64 - m), axis=ax, keepdims=True))
                    if not keep:
                        r = np.squeeze(r, axis=ax) if ax is not None else r.reshape(())
                    cases.append({'fn': 'logSumExp', 'dtype': dt, 'shape': shape, 'x': enc(dt, x), 'axes': axes, 'keepdims': keep,
                                  'want': enc(dt, np.asarray(r).astype(x.dtype)), 'wantShape': list(np.shape(r))})
    return cases


def main():
    doc = {'generator': 'tests/tools/gen_numpy_post.py', 'numpy': np.__version__, 'seed': SEED,
           'arg': arg_cases(), 'topk': topk_cases(), 'soft': soft_cases()}
    with open(OUT, 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    print(f"wrote {OUT}: {len(doc['arg'])} arg, {len(doc['topk'])} topk, {len(doc['soft'])} soft cases")


if __name__ == '__main__':
    main()

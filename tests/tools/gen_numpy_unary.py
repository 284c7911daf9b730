#!/usr/bin/python3
"""Write tests/fixtures/numpy_unary.json: the unary ops and cast, computed by
NumPy.

Run with Debian's interpreter, which has numpy (apt-get install python3-numpy):
    /usr/bin/python3 tests/tools/gen_numpy_unary.py
tests/js/unary.test.js replays the file through the built package.

Families:
  unary  every op of src/kernels/unary.def on every dtype NumPy has that the op
         takes (float16 included), over special values (+-0, +-inf, NaN,
         halves for round, subnormals, INT_MIN, max) and random ones
  cast   astype between every pair of dtypes, over values whose NumPy result
         is defined (in range for the target; integer -> integer also wraps,
         which NumPy defines)

The library's documented choices where NumPy has none or differs:
  - floor/ceil/round/trunc return integers unchanged (NumPy 1.x gives float64);
  - uint8clamped (no NumPy dtype) is uint8, except that neg is a clamped store
    of -x (0) and a cast to it clamps (round half to even from floats): these
    expectations are computed here, not by NumPy;
  - float results are compared exactly, except the transcendentals (exp,
    expm1, log, log1p, sin, cos, tan, tanh, sigmoid), which the test allows
    1 ulp (2 for the float32 ones the library computes in float32: exp,
    expm1, log, log1p, tanh, sigmoid);
    their float32 and float16 expectations are NumPy's float64 result rounded
    to float32 (then float16), see unary_expected().

Values are JSON numbers, except NaN/Infinity/-Infinity/-0 and all 64-bit
integers, which are strings; float16 values are their bits ({"bits": [...]}).
"""
import json
import math
import os
import random

import numpy as np

SEED = 20251126
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'numpy_unary.json')
rng = random.Random(SEED)

DTYPES = {
    'float32': np.float32, 'float64': np.float64, 'int8': np.int8, 'uint8': np.uint8,
    'uint8clamped': np.uint8, 'int16': np.int16, 'uint16': np.uint16, 'int32': np.int32,
    'uint32': np.uint32, 'bigint64': np.int64, 'biguint64': np.uint64, 'float16': np.float16,
}
FLOATS = ('float32', 'float64', 'float16')
OPS = ['neg', 'abs', 'sign', 'sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh',
       'floor', 'ceil', 'round', 'trunc', 'logicalNot', 'bitwiseNot', 'isNaN', 'isFinite', 'sigmoid']
FLOAT_ONLY = {'sqrt', 'exp', 'expm1', 'log', 'log1p', 'sin', 'cos', 'tan', 'tanh', 'sigmoid'}
BOOL = {'logicalNot', 'isNaN', 'isFinite'}
TRANSCENDENTAL = FLOAT_ONLY - {'sqrt'}
NP = {
    'neg': np.negative, 'abs': np.absolute, 'sign': np.sign, 'sqrt': np.sqrt, 'exp': np.exp, 'expm1': np.expm1,
    'log': np.log, 'log1p': np.log1p, 'sin': np.sin, 'cos': np.cos, 'tan': np.tan, 'tanh': np.tanh,
    'floor': np.floor, 'ceil': np.ceil, 'round': np.round, 'trunc': np.trunc, 'logicalNot': np.logical_not,
    'bitwiseNot': np.invert, 'isNaN': np.isnan, 'isFinite': np.isfinite,
    # NumPy has no sigmoid (SciPy's expit): 1 / (1 + exp(-x)), as exp(x) / (1 + exp(x)) below 0.
    'sigmoid': lambda x: np.where(x < 0, np.exp(np.minimum(x, 0)) / (1 + np.exp(np.minimum(x, 0))), 1 / (1 + np.exp(-np.maximum(x, 0)))),
}


def float_values(dt):
    t = DTYPES[dt]
    fi = np.finfo(t)
    special = [0.0, -0.0, math.inf, -math.inf, math.nan, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 1.0, -1.0,
               0.49999997, 1e-7, -3e-8, float(fi.tiny), float(fi.tiny) / 4, float(fi.max), -float(fi.max),
               float(fi.eps), 2.0 ** 23 + 0.5 if dt != 'float16' else 1024.5, 100.25, -7.75, 1e4, -1e4, 0.75, 3.0]
    if dt == 'float64':
        special += [1e300, -1e300, 2.0 ** 52 + 0.5, 4503599627370497.0, 1e-310]
    rand = [round(rng.uniform(-30, 30), rng.choice([0, 1, 2, 3, 6])) for _ in range(40)]
    rand += [rng.uniform(0, 1e-3) for _ in range(6)] + [rng.uniform(-700, 700) if dt == 'float64' else rng.uniform(-80, 80) for _ in range(6)]
    with np.errstate(all='ignore'):
        return np.array(special + rand, dtype=np.float64).astype(t)


def int_values(dt):
    t = DTYPES[dt]
    ii = np.iinfo(t)
    lo, hi = int(ii.min), int(ii.max)
    vals = [0, 1, hi, hi - 1, lo, lo + 1 if lo else 2, 2, 7, 100 % (hi + 1)]
    if lo < 0:
        vals += [-1, -2, -7]
    vals += [rng.randint(lo, hi) for _ in range(24)]
    vals += [rng.randint(max(lo, -20), min(hi, 20)) for _ in range(8)]
    return np.array(vals, dtype=t)


def values(dt):
    return float_values(dt) if dt in FLOATS else int_values(dt)


def enc(dt, arr):
    arr = np.asarray(arr).reshape(-1)
    if dt == 'float16':
        return {'bits': [int(v) for v in arr.astype(np.float16).view(np.uint16)]}
    out = []
    for v in arr.tolist():
        if dt in ('bigint64', 'biguint64'):
            out.append(str(int(v)))
        elif isinstance(v, bool):
            out.append(int(v))
        elif isinstance(v, float):
            if math.isnan(v):
                out.append('NaN')
            elif math.isinf(v):
                out.append('Infinity' if v > 0 else '-Infinity')
            elif v == 0 and math.copysign(1, v) < 0:
                out.append('-0')
            else:
                out.append(v)
        else:
            out.append(int(v))
    return out


def unary_expected(op, dt, x):
    if dt == 'uint8clamped' and op == 'neg':
        return np.zeros_like(x)
    if op in ('floor', 'ceil', 'round', 'trunc') and dt not in FLOATS:
        return x.copy()
    if op in TRANSCENDENTAL and dt != 'float64':
        # NumPy's own float32 loops (SIMD) are up to 3 ulp from the rounded
        # result (exp 2, log 3, measured on NumPy 1.24); the library computes
        # float32 in double and rounds once. The expectation is NumPy's float64
        # result rounded to float32 (and float16 from that float32, as the
        # library's float16 goes through its float32 kernel): within 1 ulp.
        with np.errstate(all='ignore'):
            r = NP[op](x.astype(np.float64)).astype(np.float32)
        return r.astype(x.dtype)
    if dt == 'float16' and op not in BOOL:
        # NumPy computes float16 ops in float32 and rounds once (its half loops).
        with np.errstate(all='ignore'):
            r = NP[op](x)
        return r.astype(np.float16)
    with np.errstate(all='ignore'):
        r = NP[op](x)
    return r.astype(np.uint8) if op in BOOL else r.astype(x.dtype)


def unary_cases():
    cases = []
    for op in OPS:
        for dt in DTYPES:
            if op in FLOAT_ONLY and dt not in FLOATS:
                continue
            if op == 'bitwiseNot' and dt in FLOATS:
                continue
            x = values(dt)
            want = unary_expected(op, dt, x)
            cases.append({'op': op, 'dtype': dt, 'x': enc(dt, x), 'want': enc('uint8' if op in BOOL else dt, want)})
    return cases


def in_range(to, x_float):
    """Values NumPy casts without overflow to `to` (floats: strictly inside, fractions kept)."""
    if to in FLOATS:
        return x_float
    ii = np.iinfo(DTYPES[to])
    return [v for v in x_float if not math.isnan(v) and ii.min - 1 < v < ii.max + 1 and abs(v) < 2 ** 62]


def clamped(v):
    if math.isnan(v) or v <= 0:
        return 0
    if v >= 255:
        return 255
    return int(np.rint(v))


def cast_cases():
    cases = []
    for fr in DTYPES:
        for to in DTYPES:
            if fr in FLOATS:
                base = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49, 1.0, -1.0, 3.7, -3.7, 100.0, 127.5, 254.5, 255.4, 7.25]
                base += [round(rng.uniform(-1e4, 1e4), 2) for _ in range(12)]
                base += [round(rng.uniform(-300, 300), 1) for _ in range(8)]
                if to in FLOATS:
                    base += [math.inf, -math.inf, math.nan, 1e-5, 65504.0, 70000.0, 1e20, 3.0e-8, 1e-40]
                    if fr == 'float64':
                        base += [1.0000000596046448, 0.1, 2049.0000000001, 1e300]
                if to == 'uint8clamped':
                    base += [math.nan, math.inf, -math.inf, 300.0, -5.0]
                with np.errstate(all='ignore'):
                    x = np.array(base, dtype=np.float64).astype(DTYPES[fr])
                keep = [v for v in x.tolist() if to == 'uint8clamped' or to in FLOATS or v in in_range(to, [v])]
                x = np.array(keep, dtype=DTYPES[fr])
            else:
                x = int_values(fr)
            if to == 'uint8clamped':
                want = np.array([clamped(float(v)) for v in x.tolist()], dtype=np.uint8)
            else:
                with np.errstate(all='ignore'):
                    want = x.astype(DTYPES[to])
            cases.append({'from': fr, 'to': to, 'x': enc(fr, x), 'want': enc(to, want)})
    return cases


def main():
    doc = {
        'generator': 'tests/tools/gen_numpy_unary.py',
        'numpy': np.__version__,
        'seed': SEED,
        'unary': unary_cases(),
        'cast': cast_cases(),
    }
    with open(OUT, 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    print(f"wrote {OUT}: {len(doc['unary'])} unary cases, {len(doc['cast'])} cast cases")


if __name__ == '__main__':
    main()

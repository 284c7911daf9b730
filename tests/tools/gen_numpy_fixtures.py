#!/usr/bin/python3
"""Write tests/fixtures/numpy_data.json: data cases (element-wise ops,
broadcastTo, where) whose expected values NumPy computed.

Run with Debian's interpreter, which has numpy (apt-get install python3-numpy):
    /usr/bin/python3 tests/tools/gen_numpy_fixtures.py
tests/js/data-numpy.test.js replays the file through the built package.

Families:
  binary       a <op> b with NumPy broadcasting (and `none` / `pdpd`, whose
               B is reshaped into A's rank first, spec §3), every dtype and op
  scalar       a <op> s, s a JS number (a scalar of a's dtype)
  broadcastTo  every Broadcast-op mode, -1 targets (§4, §5)
  where        np.where(cond, a, b), three-way broadcasting

What NumPy computes is the library's contract, with these mappings (the
library's documented choices, where NumPy has none or differs):
  - integer div truncates toward zero, x / 0 = 0, INT_MIN / -1 wraps;
    NumPy's floor_divide floors, so the truncated quotient is computed as
    (a - fmod(a, b)) // b on safe divisors;
  - integer rem is fmod (JS %, sign of the dividend), x % 0 = 0;
  - float rem is np.fmod (JS %), not np.remainder;
  - float pow is computed in float64 and rounded to the dtype, as a JS loop
    storing Math.pow into a Float32Array does;
  - integer pow only with exponents >= 0 (NumPy refuses negative ones);
  - uint8clamped (no NumPy dtype) is computed in float64 and stored like a
    Uint8ClampedArray: NaN -> 0, clamp to [0, 255], round half to even;
  - comparisons and logical ops give uint8 0/1; truthiness is != 0, NaN true;
  - minimum/maximum never see a +0/-0 pair (NumPy leaves that order open).

Values are JSON numbers, except NaN/Infinity/-Infinity/-0 and all 64-bit
integers, which are strings. Arrays stay small (at most 48 elements) so the
file stays a reviewable size.
"""
import json
import math
import os
import random

import numpy as np

SEED = 20251122
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'numpy_data.json')
rng = random.Random(SEED)

DTYPES = {
    'float32': np.float32, 'float64': np.float64, 'int8': np.int8, 'uint8': np.uint8,
    'uint8clamped': np.uint8, 'int16': np.int16, 'uint16': np.uint16, 'int32': np.int32,
    'uint32': np.uint32, 'bigint64': np.int64, 'biguint64': np.uint64,
}
FLOATS = ('float32', 'float64')
OPS = ['add', 'sub', 'mul', 'div', 'rem', 'pow', 'minimum', 'maximum',
       'equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual',
       'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor']
BOOL_OPS = set(OPS[8:17])
BITWISE = set(OPS[17:])
# Ops added later are generated after the others, so the earlier cases (and
# their random draws) stay exactly as they were.
LATER_OPS = ['mod', 'floorDiv', 'atan2', 'hypot']
FLOAT_ONLY = {'atan2', 'hypot'}
MAX_ELEMS = 48


# ---- shapes ----------------------------------------------------------------------
def dim():
    return rng.choice([1, 1, 1, 2, 2, 3, 3, 4, 0])


def size(s):
    return int(np.prod(s, dtype=np.int64)) if s else 1


def out_shape():
    while True:
        s = [dim() for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6]))]
        if size(s) <= MAX_ELEMS:
            return s


def operand_of(out):
    """A shape that broadcasts to `out`: leading axes dropped, dims set to 1."""
    s = out[rng.randint(0, len(out)):] if out and rng.random() < 0.4 else list(out)
    return [1 if rng.random() < 0.35 else d for d in s]


# ---- values ------------------------------------------------------------------------
def info(dt):
    return np.iinfo(DTYPES[dt]) if dt not in FLOATS else None


def value(dt, op=None, role='a'):
    if dt in FLOATS:
        r = rng.random()
        if op not in ('minimum', 'maximum') and r < 0.04:
            return rng.choice([0.0, -0.0])
        if r < 0.07:
            return rng.choice([math.nan, math.inf, -math.inf])
        if op == 'pow':
            if role == 'a':
                return rng.choice([0.5, 1.5, 2.0, 3.0, -2.0, 0.25, 10.0, -1.5])
            return rng.choice([0.0, 1.0, 2.0, 3.0, -1.0, 0.5, -2.0, 2.5])
        v = round(rng.uniform(-20, 20), rng.choice([0, 1, 2, 3]))
        return 0.0 if v == 0 else v  # never a -0 from rounding (min/max)
    lo, hi = int(info(dt).min), int(info(dt).max)
    if op == 'pow' and role == 'b':
        return rng.randint(0, 9) if rng.random() < 0.9 else rng.randint(10, 70)
    if op == 'pow':
        return rng.randint(max(lo, -5), min(hi, 7))
    r = rng.random()
    if r < 0.12:
        return rng.choice([lo, hi, 0, 1]) if lo == 0 else rng.choice([lo, hi, 0, -1, 1])
    if r < 0.6:
        return rng.randint(max(lo, -20), min(hi, 20))
    return rng.randint(lo, hi)


def array(dt, shape, op=None, role='a'):
    vals = [value(dt, op, role) for _ in range(size(shape))]
    if dt in FLOATS:
        return np.array(vals, dtype=DTYPES[dt]).reshape(shape)
    return np.array(vals, dtype=DTYPES[dt]).reshape(shape)


def enc(dt, arr):
    out = []
    for v in np.asarray(arr).reshape(-1).tolist():
        if dt in ('bigint64', 'biguint64'):
            out.append(str(int(v)))
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


def tensor(dt, arr):
    return {'shape': list(arr.shape), 'data': enc(dt, arr)}


# ---- the element semantics, in NumPy ---------------------------------------------
def clamped_store(x):
    """A float64 array stored into a Uint8ClampedArray."""
    x = np.where(np.isnan(x), 0, x)
    return np.rint(np.clip(x, 0, 255)).astype(np.uint8)


def np_op(op, dt, a, b):
    with np.errstate(all='ignore'):
        if dt == 'uint8clamped':
            fa, fb = a.astype(np.float64), b.astype(np.float64)
            if op in ('add', 'sub', 'mul', 'div'):
                return clamped_store({'add': np.add, 'sub': np.subtract, 'mul': np.multiply,
                                      'div': np.true_divide}[op](fa, fb))
            if op == 'pow':
                return clamped_store(np.power(fa, fb))
            if op == 'floorDiv':  # a Uint8ClampedArray store of Math.floor(a / b), like div
                return clamped_store(np.floor(fa / fb))
            # rem, mod, min/max, comparisons, logical, bitwise: as uint8
        if op == 'mod':
            return np.mod(a, b)  # the divisor's sign; x % 0 = 0 for integers, NaN for floats
        if op == 'floorDiv':
            return np.floor_divide(a, b)
        if op == 'atan2':
            return np.arctan2(a, b)
        if op == 'hypot':
            return np.hypot(a, b)
        if op == 'add':
            return a + b
        if op == 'sub':
            return a - b
        if op == 'mul':
            return a * b
        if dt in FLOATS:
            if op == 'div':
                return a / b
            if op == 'rem':
                return np.fmod(a, b)
            if op == 'pow':
                return np.power(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)
        else:
            signed = np.issubdtype(a.dtype, np.signedinteger)
            zero = np.zeros_like(b)
            one = np.ones_like(b)
            bad = (b == 0) | ((b == b.dtype.type(-1)) if signed else (b != b))
            safe = np.where(bad, one, b)
            if op == 'rem':
                return np.where(bad, zero, np.fmod(a, safe))  # x % 0 = 0, x % -1 = 0
            if op == 'div':
                q = (a - np.fmod(a, safe)) // safe
                if signed:
                    q = np.where(b == b.dtype.type(-1), np.negative(a), q)  # INT_MIN / -1 wraps
                return np.where(b == 0, zero, q)
            if op == 'pow':
                return np.power(a, b)
        if op == 'minimum':
            return np.minimum(a, b)
        if op == 'maximum':
            return np.maximum(a, b)
        cmp = {'equal': np.equal, 'notEqual': np.not_equal, 'less': np.less, 'lessEqual': np.less_equal,
               'greater': np.greater, 'greaterEqual': np.greater_equal,
               'logicalAnd': np.logical_and, 'logicalOr': np.logical_or, 'logicalXor': np.logical_xor}
        if op in cmp:
            return cmp[op](a, b).astype(np.uint8)
        return {'bitwiseAnd': np.bitwise_and, 'bitwiseOr': np.bitwise_or, 'bitwiseXor': np.bitwise_xor}[op](a, b)


def out_dtype(op, dt):
    return 'uint8' if op in BOOL_OPS else dt


# ---- families -------------------------------------------------------------------------
def gen_binary(dt, op):
    rule = rng.choice(['numpy'] * 6 + ['none', 'pdpd'])
    out = out_shape()
    if rule == 'none':
        sa = sb = out
    elif rule == 'pdpd':
        sa = out
        axis = rng.randint(0, len(sa))
        span = sa[axis:axis + rng.randint(0, len(sa) - axis)]
        sb = [1 if rng.random() < 0.3 else d for d in span] + [1] * rng.choice([0, 0, 1])
    else:
        sa, sb = operand_of(out), operand_of(out)
        if rng.random() < 0.5:
            sa, sb = sb, sa
    a = array(dt, sa, op, 'a')
    b = array(dt, sb, op, 'b')
    c = {'family': 'binary', 'op': op, 'dtype': dt, 'a': tensor(dt, a), 'b': tensor(dt, b)}
    bb = b
    if rule == 'pdpd':
        c['broadcast'] = {'type': 'pdpd', 'axis': axis}
        trimmed = list(sb)
        while trimmed and trimmed[-1] == 1:
            trimmed.pop()
        b2 = [1] * axis + trimmed + [1] * (len(sa) - axis - len(trimmed))
        bb = b.reshape(b2)
    elif rule == 'none':
        c['broadcast'] = {'type': 'none'}
    if rng.random() < 0.06 and rule == 'numpy':  # a clash: NumPy refuses
        wrong = list(sb) + [5]
        c['b'] = tensor(dt, array(dt, wrong, op, 'b'))
        try:
            np.broadcast_shapes(a.shape, tuple(wrong))
        except ValueError:
            c['error'] = 'INCOMPATIBLE_DIMS'
            return c
        return None
    r = np_op(op, dt, a, bb)
    c['out'] = tensor(out_dtype(op, dt), np.asarray(r))
    c['outDtype'] = out_dtype(op, dt)
    return c


def gen_scalar(dt, op):
    sa = out_shape()
    a = array(dt, sa, op, 'a')
    s = array(dt, [], op, 'b')
    r = np_op(op, dt, a, s)
    return {'family': 'scalar', 'op': op, 'dtype': dt, 'a': tensor(dt, a), 'scalar': enc(dt, s)[0],
            'out': tensor(out_dtype(op, dt), np.asarray(r)), 'outDtype': out_dtype(op, dt)}


def gen_broadcast_to(dt):
    mode = rng.choice(['numpy', 'numpy', 'explicit', 'bidirectional', 'pdpd'])
    target = out_shape()
    c = {'family': 'broadcastTo', 'dtype': dt, 'mode': mode}
    if mode == 'numpy':
        s = operand_of(target)
        x = array(dt, s)
        t = list(target)
        off = len(t) - len(s)
        for i in range(len(s)):  # -1 keeps the input's dim (§5)
            if rng.random() < 0.25:
                t[off + i] = -1
        resolved = [s[i - off] if t[i] == -1 else t[i] for i in range(len(t))]
        r = np.broadcast_to(x, tuple(resolved))
    elif mode == 'explicit':
        mapping = sorted(rng.sample(range(len(target)), rng.randint(0, len(target))))
        s = [1 if rng.random() < 0.35 else target[m] for m in mapping]
        x = array(dt, s)
        reshaped = [1] * len(target)
        for i, m in enumerate(mapping):
            reshaped[m] = s[i]
        r = np.broadcast_to(x.reshape(reshaped), tuple(target))
        c['axesMapping'] = mapping
        t = target
    elif mode == 'bidirectional':
        s = operand_of(target)
        t = [1 if rng.random() < 0.3 else d for d in target]  # 1s in the target take the input's dim
        t = t[rng.randint(0, len(t)):] if rng.random() < 0.3 else t
        x = array(dt, s)
        try:
            r = np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(t)))
        except ValueError:
            return None
    else:
        axis = rng.randint(0, len(target))
        s = [1 if rng.random() < 0.35 else d for d in target[axis:axis + rng.randint(0, len(target) - axis)]]
        x = array(dt, s)
        b2 = [1] * axis + s + [1] * (len(target) - axis - len(s))
        r = np.broadcast_to(x.reshape(b2), np.broadcast_shapes(tuple(b2), tuple(target)))
        c['axis'] = axis
        t = target
    c['x'] = tensor(dt, x)
    c['target'] = t
    c['out'] = tensor(dt, np.array(r, order='C'))  # (ascontiguousarray would make a 0-d result 1-d)
    return c


def gen_where(dt):
    out = out_shape()
    cdt = rng.choice(['uint8', 'float32', 'int32', 'float64', 'bigint64'])
    sc, sa, sb = operand_of(out), operand_of(out), operand_of(out)
    cond = np.array([rng.choice([0, 1, 0, 2, -1]) if cdt not in FLOATS else rng.choice([0.0, 1.0, -0.0, math.nan, 0.5])
                     for _ in range(size(sc))], dtype=DTYPES[cdt]).reshape(sc) if cdt != 'uint8' else \
        np.array([rng.choice([0, 1, 7]) for _ in range(size(sc))], dtype=np.uint8).reshape(sc)
    a, b = array(dt, sa), array(dt, sb)
    r = np.where(cond, a, b)
    return {'family': 'where', 'dtype': dt, 'condDtype': cdt, 'cond': tensor(cdt, cond), 'a': tensor(dt, a),
            'b': tensor(dt, b), 'out': tensor(dt, np.asarray(r))}


def main():
    cases = []
    for dt in DTYPES:
        for op in OPS:
            if op in BITWISE and dt in FLOATS:
                continue
            n = 0
            while n < 3:
                c = gen_binary(dt, op)
                if c:
                    cases.append(c)
                    n += 1
            cases.append(gen_scalar(dt, op))
        n = 0
        while n < 6:
            c = gen_broadcast_to(dt)
            if c:
                cases.append(c)
                n += 1
        for _ in range(3):
            cases.append(gen_where(dt))
    for dt in DTYPES:
        for op in LATER_OPS:
            if op in FLOAT_ONLY and dt not in FLOATS:
                continue
            n = 0
            while n < 4:
                c = gen_binary(dt, op)
                if c:
                    cases.append(c)
                    n += 1
            cases.append(gen_scalar(dt, op))
    doc = {
        'generator': 'tests/tools/gen_numpy_fixtures.py',
        'numpy': np.__version__,
        'seed': SEED,
        'cases': cases,
    }
    with open(OUT, 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    print(f'wrote {len(cases)} cases to {os.path.relpath(OUT)}')


if __name__ == '__main__':
    main()

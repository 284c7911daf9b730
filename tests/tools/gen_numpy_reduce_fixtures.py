#!/usr/bin/python3
"""Write tests/fixtures/numpy_reduce.json: reduction cases (sum, prod, min,
max, mean) whose expected values NumPy computed (issue 13).

Run with Debian's interpreter, which has numpy (apt-get install python3-numpy):
    /usr/bin/python3 tests/tools/gen_numpy_reduce_fixtures.py
tests/js/reduce-numpy.test.js replays the file through the built package,
each case on plain data and on a resident tensor, with keepdims false and true.

Groups of cases:
  grid       every reduction x every dtype x shapes of rank 0 … 4 (a size-1
             axis, odd inner lengths 37 and 1023 to cross SIMD widths) x axes
             (all, [], single positive / negative, as a number and as a list,
             several, non-adjacent, unsorted); small integer-valued data, so
             every float result is exact
  random     float32/float64 data uniform in [0.5, 1.5): sum, mean and prod
             are compared with a relative tolerance (`tol`), min/max exactly
  fullrange  integers drawn over the whole dtype range: sums and products wrap
  wrap       hand-picked overflowing sums and products of every integer dtype
  dtype      `dtype` accumulation: int8 as int32 / float64 / bigint64, uint8 as
             uint32, float32 as float64, int32 as int32 (wrapping), mean of
             int8 as float32, float64 summed as int32 (each element truncated)
  special    NaN, ±Infinity, ±0 in float sum/prod/min/max/mean
  empty      zero-size inputs ([0], [3,0], [0,4], [2,0,3], [0,0]) over
             several axes: sum 0, prod 1, mean NaN, min/max refused exactly
             when NumPy refuses (a reduced axis of size 0, even when the
             result has no elements either: those carry `emptyResult`)
  refusal    bad axes (out of range, duplicates incl. -1 / rank-1 aliasing,
             rank 0), non-integer axes, dtype names the library does not know

Mapping (NumPy is the contract; where NumPy has no counterpart, the
library's documented rule):
  - integer sum/prod are computed with dtype= the input's dtype (NumPy's own
    default would promote to int64): they wrap exactly like the library;
  - mean of integers is NumPy's default (float64 accumulation and result);
  - uint8clamped (no NumPy dtype) is uint8 for min, max and mean; its sum and
    prod are computed exactly (Python integers) and clamped to 0 … 255, as a
    Uint8ClampedArray store of the result (README: uint8clamped results are
    what a Uint8ClampedArray store gives) — NOT uint8's wraparound;
  - NumPy's min/max of a +0/-0 pair (the library's: -0 below +0, as
    Math.min / Math.max) is not held to the sign of zero: such cases carry
    `anyZeroSign`. Sums and means are: NumPy's starts from +0, so a sum of
    -0 terms is +0, and so is the library's;
  - refusals: NumPy raises AxisError / ValueError / TypeError; the library
    a BroadcastError (code INVALID_AXIS; `axis` the zero-size axis for an
    empty min/max, null for a bad `axes` entry) or a TypeError (unknown dtype
    names, non-list axes). The generator asserts NumPy refuses each too
    (except the dtype names, which NumPy spells differently).

Values are JSON numbers, except NaN/Infinity/-Infinity/-0 and all 64-bit
integers, which are strings. Inputs and result data are stored once
(`inputs`, `outputs`) and cases refer to them by index; `out: "input"` (axes
[] on a larger input) means the result is the input's data, checked here.
`shape` is NumPy's result shape without keepdims; with keepdims it is the
input's shape with the reduced axes 1 (checked here against NumPy).
"""
import json
import math
import os
import random
import warnings

import numpy as np

SEED = 20251313
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'numpy_reduce.json')
rng = random.Random(SEED)

DTYPES = {
    'int8': np.int8, 'uint8': np.uint8, 'uint8clamped': np.uint8, 'int16': np.int16, 'uint16': np.uint16,
    'int32': np.int32, 'uint32': np.uint32, 'float32': np.float32, 'float64': np.float64,
    'bigint64': np.int64, 'biguint64': np.uint64,
}
FLOATS = ('float32', 'float64')
BIG = ('bigint64', 'biguint64')
OPS = ['sum', 'prod', 'min', 'max', 'mean']
UFUNC = {'sum': np.add, 'prod': np.multiply, 'min': np.minimum, 'max': np.maximum}


# ---- encoding ---------------------------------------------------------------------
def enc(dt, arr):
    out = []
    for v in np.asarray(arr).reshape(-1).tolist():
        if dt in BIG:
            out.append(str(int(v)))
        elif isinstance(v, float):
            if math.isnan(v):
                out.append('NaN')
            elif math.isinf(v):
                out.append('Infinity' if v > 0 else '-Infinity')
            elif v == 0 and math.copysign(1, v) < 0:
                out.append('-0')
            elif v == int(v) and abs(v) < 2 ** 53:
                out.append(int(v))
            else:
                out.append(v)
        else:
            out.append(int(v))
    return out


INPUTS = []
INPUT_INDEX = {}
OUTPUTS = []
OUTPUT_INDEX = {}


def add_output(dt, arr):
    data = enc(dt, arr)
    key = (dt, json.dumps(data))
    if key not in OUTPUT_INDEX:
        OUTPUT_INDEX[key] = len(OUTPUTS)
        OUTPUTS.append(data)
    return OUTPUT_INDEX[key]


def add_input(dt, arr):
    key = (dt, arr.shape, arr.tobytes())
    if key not in INPUT_INDEX:
        INPUT_INDEX[key] = len(INPUTS)
        INPUTS.append({'dtype': dt, 'shape': list(arr.shape), 'data': enc(dt, arr)})
    return INPUT_INDEX[key]


# ---- NumPy ------------------------------------------------------------------------
def np_axes(axes):
    if axes is None:
        return None
    if isinstance(axes, int):
        return axes
    return tuple(axes)


def reduce_np(op, dt, x, axes, keepdims, acc):
    """NumPy's result; acc is the library dtype name of the result."""
    ax = np_axes(axes)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        if op == 'mean':
            if acc == 'uint8clamped':
                raise NotImplementedError
            return np.mean(x, axis=ax, dtype=DTYPES[acc], keepdims=keepdims)
        if acc == 'uint8clamped':
            if dt in FLOATS:
                raise NotImplementedError
            # each element stored into a Uint8ClampedArray, then the exact result clamped
            xc = np.asarray(np.clip(x.astype(object), 0, 255), dtype=object).reshape(x.shape)
            if op in ('min', 'max'):
                return UFUNC[op].reduce(xc.astype(np.uint8), axis=ax, keepdims=keepdims)
            r = UFUNC[op].reduce(xc, axis=ax, keepdims=keepdims)
            r = np.asarray(r, dtype=object)
            return np.asarray(np.clip(r, 0, 255), dtype=object).reshape(r.shape).astype(np.uint8)
        return UFUNC[op].reduce(x, axis=ax, dtype=DTYPES[acc], keepdims=keepdims)


def result_dtype(op, dt, acc):
    if acc is not None:
        return acc
    if op == 'mean' and dt not in FLOATS:
        return 'float64'
    return dt


CASES = []


def norm_axes(axes, rank):
    if axes is None:
        return list(range(rank))
    a = [axes] if isinstance(axes, int) else list(axes)
    return [v % rank for v in a]


def case(group, op, dt, x, axes=None, acc=None, tol=0, note=None):
    """One case of a refusal-free reduction; NumPy must not refuse it (unless
    min/max of an empty extent, which becomes a refusal case)."""
    out_dt = result_dtype(op, dt, acc)
    c = {'group': group, 'op': op, 'dtype': dt, 'x': add_input(dt, x)}
    if axes is not None:
        c['axes'] = axes
    if acc is not None:
        c['accDtype'] = acc
    try:
        r = np.asarray(reduce_np(op, dt, x, axes, False, out_dt))
        rk = np.asarray(reduce_np(op, dt, x, axes, True, out_dt))
    except ValueError as e:
        assert op in ('min', 'max') and 'zero-size' in str(e), (op, dt, x.shape, axes, e)
        reduced = norm_axes(axes, x.ndim)
        zero = [a for a in range(x.ndim) if a in reduced and x.shape[a] == 0]
        c['error'] = 'INVALID_AXIS'
        c['errorAxis'] = zero[0]
        if 0 in [d for a, d in enumerate(x.shape) if a not in reduced] or (axes == [] and x.size == 0):
            # the result has no elements either: NumPy still refuses
            c['emptyResult'] = True
            c['numpy'] = f'ValueError: {e}'
        CASES.append(c)
        return c
    assert np.array_equal(r.reshape(-1), rk.reshape(-1), equal_nan=True) if r.dtype != object else True
    c['outDtype'] = out_dt
    c['shape'] = list(r.shape)
    reduced = norm_axes(axes, x.ndim)
    assert list(rk.shape) == [1 if a in reduced else d for a, d in enumerate(x.shape)]
    if axes == [] and x.size > 8:
        # reduces nothing: the input itself, in the result's dtype (checked here)
        same = x.astype(DTYPES[out_dt]) if out_dt != 'uint8clamped' else x
        assert r.shape == x.shape and np.array_equal(r, same, equal_nan=out_dt in FLOATS), (op, dt, out_dt)
        c['out'] = 'input'
    else:
        c['out'] = add_output(out_dt, r)
    if tol:
        c['tol'] = tol
    if out_dt in FLOATS and op in ('min', 'max') and x.dtype.kind == 'f' and np.any((x == 0) & np.signbit(x)):
        c['anyZeroSign'] = True
    if note:
        c['note'] = note
    CASES.append(c)
    return c


def refusal(group, op, dt, x, axes, error, error_axis=None, kind='BroadcastError', acc=None, numpy_refuses=True):
    c = {'group': group, 'op': op, 'dtype': dt, 'x': add_input(dt, x), 'error': error, 'errorKind': kind}
    if axes is not None:  # no axes: the key left out (null is an axes option of its own: every axis)
        c['axes'] = axes
    if kind == 'BroadcastError':
        c['errorAxis'] = error_axis
    if acc is not None:
        c['accDtype'] = acc
    if numpy_refuses:
        try:
            # as a tuple: NumPy's reductions take a bare 0 or -1 on a 0-d array
            # (a legacy quirk; axis=(0,) is refused there, and np.mean refuses 0)
            ax = tuple(axes) if isinstance(axes, list) else (axes,)
            UFUNC.get(op, np.add).reduce(x, axis=ax)
        except (ValueError, TypeError, np.AxisError) as e:
            c['numpy'] = f'{type(e).__name__}: {e}'
        else:
            raise AssertionError(f'NumPy accepts {op} {dt} {x.shape} {axes}')
    CASES.append(c)


# ---- data ---------------------------------------------------------------------------
def size(s):
    return int(np.prod(s, dtype=np.int64)) if s else 1


def small(dt, shape, for_prod=False):
    n = size(shape)
    if for_prod:
        if dt in FLOATS:
            vals = [rng.choice([1, 1, -1, 2, 0.5, -2, -0.5]) for _ in range(n)]
        elif np.iinfo(DTYPES[dt]).min < 0:
            vals = [rng.choice([1, 1, 1, -1, -1, 2, 3]) for _ in range(n)]
        else:
            vals = [rng.choice([1, 1, 1, 2, 3]) for _ in range(n)]
    elif dt in FLOATS:
        vals = [rng.randint(-8, 8) for _ in range(n)]
    elif np.iinfo(DTYPES[dt]).min < 0:
        vals = [rng.randint(-5, 5) for _ in range(n)]
    else:
        vals = [rng.randint(0, 9) for _ in range(n)]
    return np.array(vals, dtype=DTYPES[dt]).reshape(shape)


def full_range(dt, shape):
    i = np.iinfo(DTYPES[dt])
    vals = [rng.choice([int(i.min), int(i.max), 0, 1]) if rng.random() < 0.1 else rng.randint(int(i.min), int(i.max))
            for _ in range(size(shape))]
    return np.array(vals, dtype=DTYPES[dt]).reshape(shape)


def axes_sets(rank):
    if rank == 0:
        return [None, []]
    s = [None, [], 0, [rank - 1], -1, [-rank]]
    if rank >= 2:
        s += [[0, rank - 1], [-1, 0], list(range(rank))[::-1], [1]]
    if rank >= 3:
        s += [[0, 2], [-3, -1], [1, 2]]
    if rank >= 4:
        s += [[1, 3], [0, 2, 3], [3, 0]]
    out = []
    for a in s:
        if a not in out:
            out.append(a)
    return out


GRID_SHAPES = [[], [1], [37], [1023], [3, 37], [37, 3], [4, 1, 6], [2, 3, 5], [2, 3, 1, 5], [3, 1, 2, 17]]


def gen_grid():
    for dt in DTYPES:
        for shape in GRID_SHAPES:
            x = small(dt, shape)
            xp = small(dt, shape, for_prod=True)
            for op in OPS:
                for axes in axes_sets(len(shape)):
                    case('grid', op, dt, xp if op == 'prod' else x, axes)
    # rows longer than the kernels' 4 KiB blocks (int8: 4096 elements)
    for dt in ('int8', 'float32', 'float64'):
        x = small(dt, [4099])
        xp = small(dt, [4099], for_prod=True)
        for op in OPS:
            case('grid', op, dt, xp if op == 'prod' else x, None)
    for dt in ('int8', 'float32'):
        x = small(dt, [2, 2053])
        for op in ('sum', 'min', 'max', 'mean'):
            for axes in (None, 1):
                case('grid', op, dt, x, axes)


def gen_random():
    for dt in FLOATS:
        tol_sum = 1e-6 if dt == 'float32' else 1e-12
        tol_prod = 1e-4 if dt == 'float32' else 1e-12
        for shape in [[1023], [3, 37], [2, 257], [5, 4, 33]]:
            x = np.array([rng.uniform(0.5, 1.5) for _ in range(size(shape))], dtype=DTYPES[dt]).reshape(shape)
            for op in OPS:
                for axes in [None, 0, -1, [0, -1]] if len(shape) > 1 else [None, 0]:
                    case('random', op, dt, x, axes, tol=tol_prod if op == 'prod' else tol_sum if op in ('sum', 'mean') else 0)


def gen_fullrange():
    for dt in DTYPES:
        if dt in FLOATS:
            continue
        x = full_range(dt, [3, 37])
        for op in OPS:
            for axes in [None, 0, 1]:
                case('fullrange', op, dt, x, axes)


def gen_wrap():
    def arr(dt, vals, shape=None):
        a = np.array(vals, dtype=object).astype(DTYPES[dt])
        return a.reshape(shape) if shape else a
    w = [
        ('int8', 'sum', [100] * 200), ('int8', 'sum', [127, 1]), ('int8', 'sum', [-128, -1]), ('int8', 'prod', [3] * 10),
        ('int8', 'prod', [-128, -1]), ('int8', 'prod', [16, 16, 3]),
        ('uint8', 'sum', [200, 100]), ('uint8', 'sum', [255] * 37), ('uint8', 'prod', [16, 17]), ('uint8', 'prod', [3] * 37),
        ('uint8clamped', 'sum', [200, 100]), ('uint8clamped', 'sum', [255] * 37), ('uint8clamped', 'prod', [16, 17]),
        ('uint8clamped', 'prod', [3] * 37), ('uint8clamped', 'prod', [200, 100, 0]),
        ('int16', 'sum', [30000, 30000]), ('int16', 'sum', [-32768] * 3), ('int16', 'prod', [181, 181]), ('int16', 'prod', [7] * 37),
        ('uint16', 'sum', [65535, 2]), ('uint16', 'prod', [256, 257]), ('uint16', 'prod', [5] * 37),
        ('int32', 'sum', [2 ** 31 - 1, 1]), ('int32', 'sum', [2 ** 30] * 37), ('int32', 'prod', [65536, 65536]),
        ('int32', 'prod', [46341, 46341]), ('int32', 'prod', [-3] * 37), ('int32', 'prod', [-2 ** 31, -1]),
        ('uint32', 'sum', [2 ** 32 - 1, 2]), ('uint32', 'sum', [3000000000] * 37), ('uint32', 'prod', [65536, 65537]),
        ('uint32', 'prod', [3] * 37),
        ('bigint64', 'sum', [2 ** 62, 2 ** 62]), ('bigint64', 'sum', [2 ** 63 - 1] * 37), ('bigint64', 'prod', [2 ** 32 + 1, 2 ** 32 + 1]),
        ('bigint64', 'prod', [-3] * 41), ('bigint64', 'prod', [-2 ** 63, -1]),
        ('biguint64', 'sum', [2 ** 64 - 1, 1]), ('biguint64', 'sum', [2 ** 64 - 1] * 37), ('biguint64', 'prod', [2 ** 32, 2 ** 32 + 3]),
        ('biguint64', 'prod', [3] * 41),
    ]
    for dt, op, vals in w:
        case('wrap', op, dt, arr(dt, vals))
    # along an axis, odd inner length: every column wraps
    for dt in ('int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'bigint64', 'biguint64', 'uint8clamped'):
        i = np.iinfo(DTYPES[dt])
        big = int(i.max) - 2
        x = np.array([big - (k % 5) for k in range(4 * 37)], dtype=object).astype(DTYPES[dt]).reshape(4, 37)
        for axes in (0, 1, None):
            case('wrap', 'sum', dt, x, axes)
            case('wrap', 'prod', dt, x, axes)
    # mean of integers accumulates in float64: no wraparound
    case('wrap', 'mean', 'int8', arr('int8', [100] * 200))
    case('wrap', 'mean', 'int32', arr('int32', [2 ** 31 - 1] * 37))
    case('wrap', 'mean', 'uint32', arr('uint32', [2 ** 32 - 1] * 37))


def gen_dtype():
    i8 = small('int8', [3, 37])
    i8big = np.array([rng.choice([100, 127, -128, 90]) for _ in range(3 * 37)], dtype=np.int8).reshape(3, 37)
    for x in (i8, i8big):
        for acc in ('int32', 'float64', 'bigint64', 'int16', 'float32'):
            for axes in (None, 0, 1):
                case('dtype', 'sum', 'int8', x, axes, acc=acc)
        for axes in (None, 1):
            case('dtype', 'prod', 'int8', x, axes, acc='bigint64')
            case('dtype', 'prod', 'int8', x, axes, acc='float64')
            case('dtype', 'mean', 'int8', x, axes, acc='float32', tol=1e-6)
            case('dtype', 'mean', 'int8', x, axes, acc='float64')
            case('dtype', 'min', 'int8', x, axes, acc='int32')
            case('dtype', 'max', 'int8', x, axes, acc='float64')
    u8 = np.array([rng.randint(0, 255) for _ in range(2 * 1023)], dtype=np.uint8).reshape(2, 1023)
    for axes in (None, 0, 1):
        case('dtype', 'sum', 'uint8', u8, axes, acc='uint32')
        case('dtype', 'sum', 'uint8', u8, axes, acc='uint16')
        case('dtype', 'sum', 'uint8', u8, axes, acc='biguint64')
        case('dtype', 'sum', 'uint8clamped', u8, axes, acc='uint32')
    f32 = np.array([rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3) for _ in range(3 * 257)], dtype=np.float32).reshape(3, 257)
    for axes in (None, 0, 1):
        case('dtype', 'sum', 'float32', f32, axes, acc='float64', tol=1e-9)
        case('dtype', 'mean', 'float32', f32, axes, acc='float64', tol=1e-9)
    f32i = small('float32', [3, 37])
    for axes in (None, 0, 1):
        case('dtype', 'sum', 'float32', f32i, axes, acc='float64')
        case('dtype', 'prod', 'float32', small('float32', [3, 37], True), axes, acc='float64')
    i32 = np.array([rng.choice([2 ** 31 - 1, 2 ** 30, -2 ** 31, 123456789]) for _ in range(4 * 9)], dtype=np.int32).reshape(4, 9)
    for axes in (None, 0, 1):
        case('dtype', 'sum', 'int32', i32, axes, acc='int32')
        case('dtype', 'sum', 'int32', i32, axes, acc='bigint64')
        case('dtype', 'sum', 'int32', i32, axes, acc='float64')
    # float data accumulated as an integer: NumPy casts each element (truncation toward zero)
    f64 = np.array([1.7, 2.6, -1.5, -0.5, 3.99, 100.25], dtype=np.float64).reshape(2, 3)
    for axes in (None, 0, 1):
        case('dtype', 'sum', 'float64', f64, axes, acc='int32')
    # integer mean with an integer dtype: integer sum, divided, truncated
    i8m = np.array([1, 2, -1, -2, 100, 100, 100, 5], dtype=np.int8).reshape(4, 2)
    for axes in (None, 0, 1):
        case('dtype', 'mean', 'int8', i8m, axes, acc='int32')
        case('dtype', 'mean', 'int8', i8m, axes, acc='int8')
    # bigints to float
    b = np.array([2 ** 53 + 1, -5, 7, 2 ** 40], dtype=np.int64)
    case('dtype', 'sum', 'bigint64', b, acc='float64')
    # elements converted to the accumulation dtype first (NumPy's casting='unsafe'):
    # float -> bigint64 truncates, wider integers wrap into narrower ones
    case('dtype', 'sum', 'float64', np.array([1.7, 2.6, -1.5, 100.25, -7.99], dtype=np.float64), acc='bigint64')
    case('dtype', 'sum', 'bigint64', np.array([300, -200, 5, 2 ** 40 + 3], dtype=np.int64), acc='int8')
    case('dtype', 'max', 'int16', np.array([[200, 127, -129], [383, 1, 2]], dtype=np.int16), 1, acc='int8')
    case('dtype', 'min', 'int8', np.array([-1, 2, 5], dtype=np.int8), acc='uint8')
    case('dtype', 'sum', 'uint32', np.array([2 ** 32 - 1, 2 ** 31, 7], dtype=np.uint32), acc='float32', tol=1e-7)
    # into uint8clamped: each element stored as a Uint8ClampedArray would, the sum clamped
    case('dtype', 'sum', 'uint8', np.array([200, 100, 7], dtype=np.uint8), acc='uint8clamped')
    case('dtype', 'sum', 'int8', np.array([-5, 3, 4], dtype=np.int8), acc='uint8clamped')


def gen_special():
    S = [math.nan, math.inf, -math.inf, 0.0, -0.0]
    for dt in FLOATS:
        for trial in range(3):
            vals = []
            for _ in range(4 * 9):
                r = rng.random()
                vals.append(rng.choice(S) if r < 0.25 else float(rng.randint(-4, 4)))
            x = np.array(vals, dtype=DTYPES[dt]).reshape(4, 9)
            for op in OPS:
                for axes in (None, 0, 1):
                    case('special', op, dt, x, axes)
        fixed = [
            [1, math.nan, -3], [math.nan, 5], [math.inf, -math.inf], [math.inf, 1, 2], [-math.inf, -1], [-0.0, -0.0],
            [0.0, -0.0], [-0.0, 1.0], [math.inf, 0.0], [math.nan] * 37, [1.0] * 36 + [math.nan],
            [math.inf] * 40 + [-math.inf], [-0.0] * 37, [-1.0] * 37, [3.0e38, 3.0e38], [1e-30, 1e-30],
        ]
        for vals in fixed:
            x = np.array(vals, dtype=DTYPES[dt])
            for op in OPS:
                case('special', op, dt, x)
        # a NaN in one column only, odd inner length
        x = np.arange(3 * 37, dtype=DTYPES[dt]).reshape(3, 37)
        x[1, 20] = math.nan
        x[2, 36] = -math.inf
        for op in OPS:
            for axes in (0, 1):
                case('special', op, dt, x, axes)


def gen_empty():
    shapes = [[0], [3, 0], [0, 4], [2, 0, 3], [0, 0]]
    for dt in ('int8', 'uint8clamped', 'uint16', 'int32', 'float32', 'float64', 'biguint64'):
        for shape in shapes:
            x = np.zeros(shape, dtype=DTYPES[dt])
            r = len(shape)
            sets = [None, [], 0, -1] + ([[0, 1], 1] if r >= 2 else []) + ([[0, 2], [1, 2], 2] if r >= 3 else [])
            for op in OPS:
                for axes in sets:
                    case('empty', op, dt, x, axes)


def gen_refusal():
    for dt in ('float32', 'int8', 'bigint64', 'uint8clamped'):
        x2 = small(dt, [2, 3])
        x1 = small(dt, [37])
        x0 = small(dt, [])
        x4 = small(dt, [2, 1, 3, 2])
        for op in OPS:
            for x, axes in [(x2, 2), (x2, -3), (x2, [0, 2]), (x2, [0, 0]), (x2, [1, -1]), (x2, [-1, 1]), (x2, [0, -2]),
                            (x2, [0, 1, 0]), (x1, [0, -1]), (x1, [-1, 0]), (x1, 1), (x1, -2), (x0, 0), (x0, -1), (x0, [0]),
                            (x4, 4), (x4, [3, -1]), (x4, [0, 2, -4])]:
                refusal('refusal', op, dt, x, axes, 'INVALID_AXIS', None)
    # non-integer axes: NumPy refuses them too (TypeError)
    x2 = small('float64', [2, 3])
    for axes in ([1.5], 0.5):
        refusal('refusal', 'sum', 'float64', x2, axes, 'INVALID_AXIS', None)
    # dtype names the library does not know: a TypeError (float16 is one of its dtypes; int64 is bigint64 there)
    for acc in ('float8', 'int64', 'bool', 'complex64', 'Float32Array'):
        refusal('refusal', 'sum', 'float64', x2, None, 'TypeError', kind='TypeError', acc=acc, numpy_refuses=False)


def main():
    gen_grid()
    gen_random()
    gen_fullrange()
    gen_wrap()
    gen_dtype()
    gen_special()
    gen_empty()
    gen_refusal()
    doc = {
        'generator': 'tests/tools/gen_numpy_reduce_fixtures.py',
        'numpy': np.__version__,
        'seed': SEED,
        'inputs': INPUTS,
        'outputs': OUTPUTS,
        'cases': CASES,
    }
    with open(OUT, 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    groups = {}
    for c in CASES:
        groups[c['group']] = groups.get(c['group'], 0) + 1
    print(f'{len(CASES)} cases, {len(INPUTS)} inputs, {len(OUTPUTS)} outputs, {os.path.getsize(OUT)} bytes: {groups}')


if __name__ == '__main__':
    main()

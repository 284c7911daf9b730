#!/usr/bin/python3
"""Generate tests/fixtures/views-numpy.json: NumPy's answers for the "views"
feature (strided operands and the NumPy-style layout functions transpose,
slice, flip, squeeze, expandDims, concat, stack), and for ops whose operands
are such views.

Rerun (Debian's interpreter has numpy: apt-get install -y python3-numpy; a
pyenv `python3` on PATH may not):

    /usr/bin/python3 scripts/gen-view-fixtures.py            # writes tests/fixtures/views-numpy.json
    /usr/bin/python3 scripts/gen-view-fixtures.py --stdout   # the same bytes on stdout

The RNGs are seeded (SEED below; Python's random.Random for structure,
numpy.random.default_rng for data), so a rerun with the same NumPy gives the
same bytes. Every expectation is what NumPy computes; the generator asserts
its own encodings round-trip, that each slice `text` indexes exactly as its
`specs`, that every refusal is refused by NumPy too, and that every strided
operand reads as NumPy's as_strided view of it.

File layout (compact JSON, one case per line):
    {"generator": "scripts/gen-view-fixtures.py", "numpy": "<version>",
     "seed": <int>, "cases": [<case>, ...]}

ARRAY (an input or an expectation):
    {"dtype": D, "shape": [..], "data": [..]}     elements in C (row-major) order
    D is a library dtype name: float32 float64 float16 int8 uint8 uint8clamped
    int16 uint16 int32 uint32 bigint64 biguint64.
      - float32/float64: JSON numbers, exact (a float32 is a double too; the
        generator writes the shortest repr that round-trips). -0 appears as
        -0.0. No NaN or Infinity anywhere in the file.
      - float16: no "data"; "bits": [..] the uint16 bit patterns instead.
      - bigint64/biguint64: decimal strings ("-9223372036854775808").
      - uint8clamped: generated as NumPy uint8, labelled for the
        Uint8ClampedArray dtype (layout cases, and cast targets).
      - all other integers: JSON numbers.
    Comparison results ("less") are dtype "uint8", 0/1.

STRIDED OPERAND (section 3 only): a plain strided view over a 1-D buffer
    {"dtype": D, "data": [..base buffer..], "shape": [..],
     "strides": [..], "offset": k}
    strides and offset in ELEMENTS (NumPy's byte strides / itemsize); element
    [i0, i1, ..] is data[offset + i0*strides[0] + i1*strides[1] + ..]. Strides
    may be negative; a stride is 0 (or arbitrary) only on a dim of size 1;
    about one operand in ten overlaps itself (a stride smaller than the dims
    inside it need), which is fine for reading. Every index reached lies in
    [0, data.length).

STEP (a layout function applied to the current value; used in chains and views):
    {"fn": "transpose", "axes": [..] | null}
    {"fn": "slice", "specs": [..], "text"?: "..."}
    {"fn": "flip", "axes": [..] | int | null}
    {"fn": "squeeze", "axes": [..] | int | null}
    {"fn": "expandDims", "axis": int}

VIEW OPERAND (section 2): {"x": ARRAY, "steps": [STEP, ..]}  (steps may be []:
    the array as it is). The operand is x with the steps applied in order.

SLICE SPECS: one entry per leading axis (fewer entries than dims: the rest
    whole): an integer (an index; negative counts from the end; the axis
    goes), null (the whole axis) or [start, stop, step] with null for a
    default: Python/NumPy basic slicing, starts and stops clamped, negative
    steps, empty results. "text" (on about half the slice cases and steps)
    says the same as `specs` in Python's subscript syntax without the
    brackets: "1:3, ::-1, 0" (":" for a null spec; separators ", " or ","
    or " , "); the generator checks that eval("x[" + text + "]") equals
    the result of specs. No ellipsis, no newaxis.

CASES (each has "id"; a refusal has "error" in place of "expect", and
"numpyError", the class of NumPy's exception, for information):
 1. Layout functions, every dtype, ranks 0..4 with dims of 0 and 1:
    {"fn": "transpose", "x": A, "axes": [..] | null, "expect": B}
        null is NumPy's default (reverse); entries may be negative.
    {"fn": "slice", "x": A, "specs": [..], "text"?: "..", "expect": B}
    {"fn": "flip", "x": A, "axes": [..] | int | null, "expect": B}   null: all axes
    {"fn": "squeeze", "x": A, "axes": [..] | int | null, "expect": B} null: every 1
    {"fn": "expandDims", "x": A, "axis": int, "expect": B}  axis in [-(r+1), r]
    {"fn": "concat", "xs": [A1, ..], "axis": int, "expect": B}  numpy.concatenate
    {"fn": "stack", "xs": [A1, ..], "axis": int, "expect": B}
    {"fn": "chain", "x": A, "steps": [STEP, ..], "expect": B}   views of views
    Refusal codes (ids start "layout-error/"):
      INVALID_AXIS   an axis out of range (transpose/flip/squeeze/expandDims/
                     concat/stack), repeated axes (also -1 with r-1), a
                     transpose axes list of the wrong length, squeeze of a
                     dim that is not 1;
      INVALID_SHAPE  concat inputs that differ off the axis or in rank, stack
                     inputs of different shapes, a slice with more specs than
                     dims, an integer slice index out of range, a slice step 0.
    (Not generated: concat of rank-0 arrays, concat/stack of no arrays.)
 2. Ops over views (float32, float64, int32, uint8, some bigint64, float16),
    operands are VIEW OPERANDs built from random chains of steps:
    {"fn": "binary", "op": "add"|"sub"|"mul"|"maximum"|"less",
     "a": VIEW, "b": VIEW, "expect": C}      NumPy broadcasting; both the same
        dtype; integers wrap (NumPy's same-dtype ufuncs); less: uint8 0/1.
    {"fn": "reduce", "op": "sum"|"max"|"min"|"mean"|"prod", "x": VIEW,
     "axes": [..] | null, "keepdims": bool, "expect": C}
        axes may be negative, unsorted, or [] (no reduction); null: all.
        Integer sum/prod are np.sum/np.prod(x, dtype=x.dtype): the result keeps
        the input dtype and wraps (NumPy's default would give int64). mean only
        of floats. Float inputs are small integers (prod: +-1, +-2, +-0.5) so
        every partial sum/product is exact in any order (float16 prods reduce
        at most 14 elements); max/min/mean never reduce a zero-size axis.
    {"fn": "unary", "op": "neg"|"abs"|"sqrt", "x": VIEW, "expect": C}
        neg/abs of signed and float dtypes; sqrt of float64 exact squares.
    {"fn": "cast", "to": D, "x": VIEW, "expect": C}    NumPy astype, only where a
        JS typed-array store agrees: float->int in range (truncation), int->int
        (wraps), int->float (round to nearest), float64->float32 and
        float32->float16 (round to nearest even), float64->float16 of values
        exact in float32 only; to uint8clamped: np.clip(np.rint(x), 0, 255) for
        floats and np.clip(x, 0, 255) for integers (Uint8ClampedArray's store;
        NumPy has no such dtype).
    {"fn": "evaluate", "expression": E, "operands": {"a": VIEW, "b": VIEW
     [, "c": VIEW]}, "expect": C}   E one of "a * b + 1", "(a - b) / 2",
        "maximum(a, b)", "a + b * c"; float32 and float64 only, computed op by
        op in the operands' dtype (float32: rounded to float32 after each op,
        no fused multiply-add); some float32/float64 cases use full-precision
        random values so that the per-op rounding shows.
 3. Random strided operands (ids start "strided/"), float32/float64/int32:
    {"fn": "binary", "op": "add"|"sub"|"mul", "a": STRIDED, "b": STRIDED, "expect": C}
    {"fn": "reduce", "op": "sum", "x": STRIDED, "axes": [..] | null,
     "keepdims": bool, "expect": C}        (int32: dtype=int32 as above)
    {"fn": "evaluate", "expression": "a * 2 - b", "operands": {"a": STRIDED,
     "b": STRIDED}, "expect": C}           (int32 wraps)

Facts from NumPy only; nothing here is copied from another project.
"""
import json
import os
import random
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided

SEED = 20250611
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'fixtures', 'views-numpy.json')

pr = random.Random(SEED)            # structure: shapes, axes, specs, steps
rng = np.random.default_rng(SEED)   # data

DT = {
    'float32': np.float32, 'float64': np.float64, 'float16': np.float16,
    'int8': np.int8, 'uint8': np.uint8, 'uint8clamped': np.uint8,
    'int16': np.int16, 'uint16': np.uint16, 'int32': np.int32, 'uint32': np.uint32,
    'bigint64': np.int64, 'biguint64': np.uint64,
}
ALL_DTYPES = ['float32', 'float64', 'float16', 'int8', 'uint8', 'uint8clamped', 'int16',
              'uint16', 'int32', 'uint32', 'bigint64', 'biguint64']
FLOATS = ('float16', 'float32', 'float64')
BIG = ('bigint64', 'biguint64')

CASES = []


def add_case(case):
    CASES.append(case)


def prod(shape):
    p = 1
    for d in shape:
        p *= d
    return p


# ---- encoding -----------------------------------------------------------------------
def dec(obj):
    """The NumPy array an encoded ARRAY stands for (used to check enc)."""
    dt = DT[obj['dtype']]
    if obj['dtype'] == 'float16':
        return np.array(obj['bits'], dtype=np.uint16).view(np.float16).reshape(obj['shape'])
    if obj['dtype'] in BIG:
        return np.array([int(v) for v in obj['data']], dtype=dt).reshape(obj['shape'])
    return np.array(obj['data'], dtype=dt).reshape(obj['shape'])


def same_bits(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def enc(a, name):
    a = np.asarray(a)
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    assert a.dtype == np.dtype(DT[name]), (a.dtype, name)
    flat = a.copy(order="C").reshape(-1)
    out = {'dtype': name, 'shape': [int(d) for d in a.shape]}
    if name == 'float16':
        assert np.all(np.isfinite(flat))
        out['bits'] = [int(v) for v in flat.view(np.uint16)]
    elif name in BIG:
        out['data'] = [str(int(v)) for v in flat]
    elif name in FLOATS:
        assert np.all(np.isfinite(flat))
        out['data'] = [float(v) for v in flat]
    else:
        out['data'] = [int(v) for v in flat]
    assert same_bits(dec(out), a.copy(order="C")), name
    return out


# ---- data -----------------------------------------------------------------------------
def _distinct(n, draw, span):
    vals, seen = [], set()
    while len(vals) < n:
        v = draw()
        if v in seen and len(seen) < span:
            continue
        seen.add(v)
        vals.append(v)
    return vals


def layout_data(name, shape):
    """Distinct-ish values over the dtype's range, so a misplaced element shows."""
    n = prod(shape)
    dt = DT[name]
    if name == 'float16':
        def draw():
            sign = int(rng.integers(0, 2))
            exp = int(rng.integers(0, 31))          # never 31: no Infinity/NaN
            man = int(rng.integers(0, 1024))
            return (sign << 15) | (exp << 10) | man
        bits = _distinct(n, draw, 1 << 15)
        return np.array(bits, dtype=np.uint16).view(np.float16).reshape(shape)
    if name == 'float32':
        ks = _distinct(n, lambda: int(rng.integers(-512, 513)), 1025)
        return (np.array(ks, dtype=np.float64) / 8).astype(np.float32).reshape(shape)
    if name == 'float64':
        ks = _distinct(n, lambda: int(rng.integers(-2 ** 20, 2 ** 20)), 2 ** 21)
        a = np.array(ks, dtype=np.float64) / 1024
        if n > 3 and pr.random() < 0.3:
            a[pr.randrange(n)] = -0.0
        return a.reshape(shape)
    info = np.iinfo(dt)
    span = int(info.max) - int(info.min) + 1
    vals = _distinct(n, lambda: int(rng.integers(int(info.min), int(info.max), dtype=dt, endpoint=True)), span)
    return np.array(vals, dtype=dt).reshape(shape)


def op_data(name, shape, kind='elem'):
    """Values for ops. kind: elem (binary/unary/evaluate/max/min), sum (small
    integers: exact partial sums in any order), prod (+-1, +-2, +-0.5 / small
    integers), rich (full-precision floats), sqrt (float64 exact squares),
    cast-* (see cast cases)."""
    n = prod(shape)
    dt = DT[name]
    if name in FLOATS:
        if kind == 'sum':
            a = rng.integers(-8, 9, n).astype(np.float64)
        elif kind == 'prod':
            a = np.array([1, -1, 2, -2, 0.5, -0.5, 1, -1])[rng.integers(0, 8, n)]
        elif kind == 'rich':
            a = rng.standard_normal(n) * 4
        elif kind == 'sqrt':
            a = (rng.integers(0, 41, n) / 4.0) ** 2
        else:
            a = rng.integers(-64, 65, n) / 8.0
        return a.astype(dt).reshape(shape)
    if kind == 'prod':
        lo = 0 if name.startswith('u') or name.startswith('bigu') else -3
        return rng.integers(lo, 4, n).astype(dt).reshape(shape)
    info = np.iinfo(dt)
    if name in ('int8', 'uint8', 'uint8clamped', 'int16', 'uint16'):
        return rng.integers(int(info.min), int(info.max), n, dtype=dt, endpoint=True).reshape(shape)
    if name in ('int32', 'uint32'):
        small = rng.integers(-1000 if name == 'int32' else 0, 1001, n).astype(dt)
    else:
        small = rng.integers(-10 ** 12 if name == 'bigint64' else 0, 10 ** 12, n, dtype=dt)
    full = rng.integers(int(info.min), int(info.max), n, dtype=dt, endpoint=True)
    pick = rng.random(n) < 0.2
    return np.where(pick, full, small).astype(dt).reshape(shape)


# ---- layout functions in NumPy -----------------------------------------------------------
def spec_index(s):
    if s is None:
        return slice(None)
    if isinstance(s, int):
        return s
    return slice(*s)


def spec_text(s):
    if s is None:
        return ':'
    if isinstance(s, int):
        return str(s)
    a, b, c = s
    t = ('' if a is None else str(a)) + ':' + ('' if b is None else str(b))
    if c is not None:
        t += ':' + str(c)
    return t


def specs_text(specs):
    sep = pr.choice([', ', ', ', ',', ' , '])
    return sep.join(spec_text(s) for s in specs)


def np_axes(axes):
    if axes is None or isinstance(axes, int):
        return axes
    return tuple(axes)


def apply_step(x, step):
    fn = step['fn']
    if fn == 'transpose':
        r = np.transpose(x, np_axes(step['axes']))
    elif fn == 'slice':
        r = x[tuple(spec_index(s) for s in step['specs'])]
        if 'text' in step:
            alt = eval('x[' + step['text'] + ']', {'x': x})   # noqa: S307 (our own text)
            assert same_bits(np.asarray(alt), np.asarray(r)), step
    elif fn == 'flip':
        r = np.flip(x, np_axes(step['axes']))
    elif fn == 'squeeze':
        r = np.squeeze(x, np_axes(step['axes']))
    elif fn == 'expandDims':
        r = np.expand_dims(x, step['axis'])
    else:
        raise ValueError(fn)
    r = np.asarray(r)
    assert r.dtype == x.dtype
    return r


def apply_steps(x, steps):
    for s in steps:
        x = apply_step(x, s)
    return x


def numpy_refuses(fn):
    """The class name of NumPy's exception; asserts NumPy does refuse."""
    try:
        fn()
    except (ValueError, IndexError, TypeError) as e:
        return type(e).__name__
    raise AssertionError('NumPy accepted a case meant as a refusal')


# ---- random parameters --------------------------------------------------------------
def neg_axis(a, r):
    """a, or the same axis counted from the end."""
    return a - r if pr.random() < 0.35 else a


def rand_perm_axes(r):
    p = list(range(r))
    pr.shuffle(p)
    if p == list(range(r))[::-1] and pr.random() < 0.5:
        return p, None
    return p, [neg_axis(a, r) for a in p]


def rand_flip_axes(r):
    c = pr.random()
    if c < 0.2:
        return None
    if c < 0.45 and r > 0:
        return neg_axis(pr.randrange(r), r)
    k = pr.randint(0, r)
    axes = pr.sample(range(r), k)
    return [neg_axis(a, r) for a in axes]


def rand_squeeze_axes(shape):
    r = len(shape)
    ones = [i for i, d in enumerate(shape) if d == 1]
    c = pr.random()
    if not ones or c < 0.25:
        return None
    if c < 0.5:
        return neg_axis(pr.choice(ones), r)
    k = pr.randint(0 if c < 0.55 else 1, len(ones))
    axes = pr.sample(ones, k)
    return [neg_axis(a, r) for a in axes]


def rand_specs(shape):
    r = len(shape)
    k = r if pr.random() < 0.5 else pr.randint(0, r)
    specs = []
    for i in range(k):
        n = shape[i]
        c = pr.random()
        if c < 0.15:
            specs.append(None)
        elif c < 0.35 and n > 0:
            specs.append(pr.randint(-n, n - 1))
        else:
            step = pr.choice([None, None, 1, 2, 3, -1, -1, -2, -3])

            def pos():
                return None if pr.random() < 0.35 else pr.randint(-n - 3, n + 3)
            specs.append([pos(), pos(), step])
    return specs


def rand_specs_mostly_nonempty(shape):
    """rand_specs, drawn again (up to 6 times) when it selects nothing, so that
    about one result in five of a non-empty input is empty."""
    for _ in range(6):
        specs = rand_specs(shape)
        got = np.zeros(shape)[tuple(spec_index(s) for s in specs)]
        if np.size(got) > 0 or prod(shape) == 0 or pr.random() < 0.2:
            break
    return specs


def rand_step(shape):
    """A random valid step for a value of this shape (forward)."""
    r = len(shape)
    opts = ['transpose', 'slice', 'slice', 'flip']
    if 1 in shape:
        opts.append('squeeze')
    if r < 5:
        opts.append('expandDims')
    fn = pr.choice(opts)
    if fn == 'transpose':
        return {'fn': fn, 'axes': rand_perm_axes(r)[1]}
    if fn == 'flip':
        return {'fn': fn, 'axes': rand_flip_axes(r)}
    if fn == 'squeeze':
        return {'fn': fn, 'axes': rand_squeeze_axes(shape)}
    if fn == 'expandDims':
        return {'fn': fn, 'axis': pr.randint(-(r + 1), r)}
    step = {'fn': 'slice', 'specs': rand_specs_mostly_nonempty(shape)}
    if step['specs'] and pr.random() < 0.5:
        step['text'] = specs_text(step['specs'])
    return step


def rand_chain(x, n):
    """n random valid steps from x, one after the other: (the steps, NumPy's result)."""
    steps, v = [], x
    for _k in range(n):
        st = rand_step(list(v.shape))
        v = apply_step(v, st)
        steps.append(st)
    return steps, v


# ---- views of a given shape (built backwards from the result) -------------------------------
def inv_slice_dim(m):
    """(n, spec): a spec that takes exactly m elements of an axis of n."""
    if pr.random() < 0.2:
        return m, None
    step = pr.choice([1, 1, 2, -1, -1, -2, 3, None])
    st = 1 if step is None else step
    need = (m - 1) * abs(st) + 1 if m > 0 else 0
    n = need + pr.randint(0, 2)
    cands = [None] + list(range(-n - 2, n + 3))
    for _ in range(600):
        a, b = pr.choice(cands), pr.choice(cands)
        if len(range(*slice(a, b, step).indices(n))) == m:
            return n, [a, b, step]
    if st > 0:
        return n, [0, (m - 1) * st + 1, step]
    return n, [n - 1, None if n - 1 - m * -st < 0 else n - 1 - m * -st, step]


def inv_slice(shape):
    inp, specs = [], []
    for m in shape:
        if pr.random() < 0.15:
            k = pr.randint(1, 3)
            specs.append(pr.randint(-k, k - 1))
            inp.append(k)
        n, s = inv_slice_dim(m)
        specs.append(s)
        inp.append(n)
    if pr.random() < 0.1:
        k = pr.randint(1, 3)
        specs.append(pr.randint(-k, k - 1))
        inp.append(k)
    while specs and specs[-1] is None and pr.random() < 0.6:
        specs.pop()
    return inp, specs


def build_view(target, nsteps, max_base=128):
    """(base shape, steps) such that applying steps to a base of that shape
    gives exactly `target`."""
    target = list(target)
    for _attempt in range(400):
        shape, steps = list(target), []
        for _ in range(nsteps):
            r = len(shape)
            opts = ['transpose', 'slice', 'slice', 'flip']
            if r < 5:
                opts.append('squeeze')
            if 1 in shape:
                opts.append('expandDims')
            fn = pr.choice(opts)
            if fn == 'transpose':
                p, axes = rand_perm_axes(r)
                inp = [0] * r
                for i in range(r):
                    inp[p[i]] = shape[i]
                steps.insert(0, {'fn': fn, 'axes': axes})
                shape = inp
            elif fn == 'flip':
                steps.insert(0, {'fn': fn, 'axes': rand_flip_axes(r)})
            elif fn == 'squeeze':
                nins = pr.randint(1, 2 if r < 4 else 1)
                total = r + nins
                pos = sorted(pr.sample(range(total), nins))
                it = iter(shape)
                inp = [1 if i in pos else next(it) for i in range(total)]
                c = pr.random()
                if 1 not in shape and c < 0.3:
                    axes = None
                elif nins == 1 and c < 0.6:
                    axes = neg_axis(pos[0], total)
                else:
                    axes = [neg_axis(a, total) for a in pr.sample(pos, nins)]
                steps.insert(0, {'fn': fn, 'axes': axes})
                shape = inp
            elif fn == 'expandDims':
                j = pr.choice([i for i, d in enumerate(shape) if d == 1])
                steps.insert(0, {'fn': fn, 'axis': neg_axis(j, r)})
                shape = shape[:j] + shape[j + 1:]
            else:
                inp, specs = inv_slice(shape)
                step = {'fn': 'slice', 'specs': specs}
                if specs and pr.random() < 0.5:
                    step['text'] = specs_text(specs)
                steps.insert(0, step)
                shape = inp
        if prod(shape) > max_base or len(shape) > 6:
            continue
        probe = np.arange(prod(shape)).reshape(shape)
        assert list(apply_steps(probe, steps).shape) == target, (shape, steps, target)
        return shape, steps
    raise AssertionError('no view found for %r' % (target,))


def view_operand(name, target, kind='elem', nsteps=None, max_base=128):
    if nsteps is None:
        nsteps = pr.choice([0, 1, 1, 2, 2, 3, 3, 4])
    base_shape, steps = build_view(target, nsteps, max_base)
    x = op_data(name, base_shape, kind)
    v = apply_steps(x, steps)
    assert list(v.shape) == list(target)
    return {'x': enc(x, name), 'steps': steps}, v


def rand_result_shape(max_size=48, allow_zero=True):
    while True:
        r = pr.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
        shape = [pr.choice([1, 2, 2, 3, 3, 4, 5]) for _ in range(r)]
        if allow_zero and r > 0 and pr.random() < 0.06:
            shape[pr.randrange(r)] = 0
        if prod(shape) <= max_size:
            return shape


def bcast_pair(R):
    A, B = list(R), list(R)
    for i in range(len(R)):
        c = pr.random()
        if c < 0.2:
            A[i] = 1
        elif c < 0.4:
            B[i] = 1
    if pr.random() < 0.3 and A:
        A = A[pr.randint(1, len(A)):]
    elif pr.random() < 0.3 and B:
        B = B[pr.randint(1, len(B)):]
    return A, B


# ---- 1. layout functions ----------------------------------------------------------------
LAYOUT_SHAPES = [
    [], [1], [5], [0], [2, 3], [3, 1], [1, 4], [0, 3], [2, 0], [1, 1],
    [2, 3, 4], [1, 3, 1], [3, 0, 2], [2, 1, 3], [4, 1, 1],
    [2, 1, 3, 2], [1, 2, 1, 3], [2, 2, 2, 2], [3, 1, 1, 1], [1, 0, 2, 1],
]
SHAPES_WITH_ONES = [s for s in LAYOUT_SHAPES if 1 in s]


class Rotor:
    """Cycles through a list from a random start, so that every dtype meets
    every shape over the functions."""
    def __init__(self, items):
        self.items = items
        self.i = pr.randrange(len(items))

    def next(self):
        v = self.items[self.i % len(self.items)]
        self.i += 1
        return list(v)


def layout_cases():
    fixed_slices = [
        ([5], [[5, 2, 1]]), ([5], [[-100, 100, None]]), ([5], [[None, None, -1]]),
        ([5], [[10, None, -1]]), ([5], [[-10, None, -1]]), ([5], [[None, -10, -1]]),
        ([2, 3, 4], [[1, 3, None], [None, None, -1], 0]), ([2, 3, 4], [-1]),
        ([2, 3, 4], [None, 2]), ([2, 3, 4], [0, -1, -2]), ([1, 2, 1, 3], [[None, None, 2], None, 0, [2, 0, -1]]),
        ([0, 3], [[None, None, -1], [1, None, None]]), ([3, 0, 2], [1, [None, None, -2]]),
        ([2, 3], []), ([], []), ([4, 1, 1], [[3, 0, -2]]),
    ]
    for di, name in enumerate(ALL_DTYPES):
        rot = Rotor(LAYOUT_SHAPES)
        n = 0

        def cid(fn):
            nonlocal n
            n += 1
            return 'layout/%s/%s/%d' % (fn, name, n)

        # transpose
        for _ in range(6):
            s = rot.next()
            x = layout_data(name, s)
            axes = rand_perm_axes(len(s))[1] if pr.random() < 0.75 else None
            e = np.transpose(x, np_axes(axes))
            add_case({'id': cid('transpose'), 'fn': 'transpose', 'x': enc(x, name), 'axes': axes, 'expect': enc(e, name)})
        # slice: two hand-picked, eight random
        picks = [fixed_slices[(2 * di) % len(fixed_slices)], fixed_slices[(2 * di + 1) % len(fixed_slices)]]
        for _ in range(8):
            s = rot.next()
            picks.append((s, rand_specs_mostly_nonempty(s)))
        for s, specs in picks:
            x = layout_data(name, s)
            step = {'fn': 'slice', 'specs': specs}
            if specs and pr.random() < 0.5:
                step['text'] = specs_text(specs)
            e = apply_step(x, step)
            c = {'id': cid('slice'), 'fn': 'slice', 'x': enc(x, name), 'specs': specs}
            if 'text' in step:
                c['text'] = step['text']
            c['expect'] = enc(e, name)
            add_case(c)
        # flip
        for _ in range(4):
            s = rot.next()
            x = layout_data(name, s)
            axes = rand_flip_axes(len(s))
            e = np.flip(x, np_axes(axes))
            add_case({'id': cid('flip'), 'fn': 'flip', 'x': enc(x, name), 'axes': axes, 'expect': enc(np.asarray(e), name)})
        # squeeze
        srot = Rotor(SHAPES_WITH_ONES)
        for k in range(4):
            s = srot.next() if k < 3 else rot.next()
            x = layout_data(name, s)
            axes = rand_squeeze_axes(s)
            e = np.squeeze(x, np_axes(axes))
            add_case({'id': cid('squeeze'), 'fn': 'squeeze', 'x': enc(x, name), 'axes': axes, 'expect': enc(np.asarray(e), name)})
        # expandDims
        for _ in range(3):
            s = rot.next()
            x = layout_data(name, s)
            axis = pr.randint(-(len(s) + 1), len(s))
            e = np.expand_dims(x, axis)
            add_case({'id': cid('expandDims'), 'fn': 'expandDims', 'x': enc(x, name), 'axis': axis, 'expect': enc(e, name)})
        # concat
        for _ in range(3):
            r = pr.randint(1, 4)
            s = [pr.choice([1, 2, 3]) for _ in range(r)]
            ax = pr.randrange(r)
            xs = []
            for _k in range(pr.randint(1, 3) if pr.random() < 0.15 else pr.randint(2, 3)):
                t = list(s)
                t[ax] = pr.choice([0, 1, 2, 3])
                xs.append(layout_data(name, t))
            axis = neg_axis(ax, r)
            e = np.concatenate(xs, axis=axis)
            add_case({'id': cid('concat'), 'fn': 'concat', 'xs': [enc(a, name) for a in xs], 'axis': axis, 'expect': enc(e, name)})
        # stack
        for _ in range(3):
            r = pr.randint(0, 3)
            s = [pr.choice([0, 1, 2, 3]) if pr.random() < 0.15 else pr.choice([1, 2, 3]) for _ in range(r)]
            xs = [layout_data(name, s) for _k in range(pr.randint(1, 3))]
            axis = pr.randint(-(r + 1), r)
            e = np.stack(xs, axis=axis)
            add_case({'id': cid('stack'), 'fn': 'stack', 'xs': [enc(a, name) for a in xs], 'axis': axis, 'expect': enc(e, name)})
        # chains
        for _ in range(5):
            s = rot.next()
            if len(s) < 2:
                s = [2, 3, 4] if pr.random() < 0.5 else [3, 1, 4]
            x = layout_data(name, s)
            steps, v = rand_chain(x, pr.randint(2, 4))
            add_case({'id': cid('chain'), 'fn': 'chain', 'x': enc(x, name), 'steps': steps, 'expect': enc(v, name)})


def layout_error_cases():
    n = 0
    names = ALL_DTYPES

    def arr(shape):
        nonlocal n
        name = names[n % len(names)]
        return name, layout_data(name, shape)

    def emit(fn, code, fields, numpy_call):
        nonlocal n
        n += 1
        why = numpy_refuses(numpy_call)
        c = {'id': 'layout-error/%s/%d' % (fn, n), 'fn': fn}
        c.update(fields)
        c['error'] = code
        c['numpyError'] = why
        add_case(c)

    # transpose
    for shape, axes in [([2, 3], [0, 2]), ([2, 3], [0, -3]), ([2, 3], [0, 0]), ([2, 3], [1, -1]),
                        ([2, 3, 4], [0, 1, -2]), ([2, 3], [0]), ([2, 3], [0, 1, 2]), ([], [0]), ([4], [1])]:
        name, x = arr(shape)
        emit('transpose', 'INVALID_AXIS', {'x': enc(x, name), 'axes': axes},
             lambda x=x, axes=axes: np.transpose(x, tuple(axes)))
    # flip
    for shape, axes in [([2, 3], 2), ([2, 3], -3), ([2, 3], [0, 0]), ([2, 3], [0, -2]), ([], 0), ([3], [1])]:
        name, x = arr(shape)
        emit('flip', 'INVALID_AXIS', {'x': enc(x, name), 'axes': axes},
             lambda x=x, axes=axes: np.flip(x, np_axes(axes)))
    # squeeze
    for shape, axes in [([2, 1, 3], 0), ([2, 1, 3], [1, 2]), ([1, 3], 2), ([1, 3], -3), ([1, 1], [0, 0]),
                        ([1, 1, 2], [1, -2]), ([0, 1], 0)]:
        name, x = arr(shape)
        emit('squeeze', 'INVALID_AXIS', {'x': enc(x, name), 'axes': axes},
             lambda x=x, axes=axes: np.squeeze(x, np_axes(axes)))
    # expandDims
    for shape, axis in [([2, 3], 3), ([2, 3], -4), ([], 1), ([], -2), ([0], 5)]:
        name, x = arr(shape)
        emit('expandDims', 'INVALID_AXIS', {'x': enc(x, name), 'axis': axis},
             lambda x=x, axis=axis: np.expand_dims(x, axis))
    # concat
    for shapes, axis, code in [([[2, 3], [2, 3]], 2, 'INVALID_AXIS'), ([[2, 3], [2, 3]], -3, 'INVALID_AXIS'),
                               ([[2, 3], [3, 3]], 1, 'INVALID_SHAPE'), ([[2, 3], [2, 4], [2, 3]], 0, 'INVALID_SHAPE'),
                               ([[2, 3], [2, 3, 1]], 0, 'INVALID_SHAPE'), ([[2], [2, 1]], 0, 'INVALID_SHAPE'),
                               ([[1, 0], [1, 2]], 0, 'INVALID_SHAPE')]:
        name = names[n % len(names)]
        xs = [layout_data(name, s) for s in shapes]
        emit('concat', code, {'xs': [enc(a, name) for a in xs], 'axis': axis},
             lambda xs=xs, axis=axis: np.concatenate(xs, axis=axis))
    # stack
    for shapes, axis, code in [([[2, 3], [2, 3]], 3, 'INVALID_AXIS'), ([[2, 3], [2, 3]], -4, 'INVALID_AXIS'),
                               ([[], []], 1, 'INVALID_AXIS'), ([[2, 3], [3, 2]], 0, 'INVALID_SHAPE'),
                               ([[2], [2, 1]], 0, 'INVALID_SHAPE'), ([[2, 3], [2, 3], [2, 0]], 1, 'INVALID_SHAPE'),
                               ([[], [1]], 0, 'INVALID_SHAPE')]:
        name = names[n % len(names)]
        xs = [layout_data(name, s) for s in shapes]
        emit('stack', code, {'xs': [enc(a, name) for a in xs], 'axis': axis},
             lambda xs=xs, axis=axis: np.stack(xs, axis=axis))
    # slice (all INVALID_SHAPE)
    for shape, specs in [([2, 3], [0, 0, 0]), ([], [0]), ([], [None]), ([3], [None, None]),
                         ([2, 3], [2]), ([2, 3], [-3]), ([2, 3], [None, 3]), ([2, 3], [0, -4]), ([0, 3], [0]),
                         ([2, 3], [[None, None, 0]]), ([2, 3], [None, [1, 2, 0]])]:
        name, x = arr(shape)
        idx = tuple(spec_index(s) for s in specs)
        fields = {'x': enc(x, name), 'specs': specs}
        if specs and len(CASES) % 2 == 0:
            fields['text'] = specs_text(specs)
            t = fields['text']
            numpy_refuses(lambda x=x, t=t: eval('x[' + t + ']', {'x': x}))
        emit('slice', 'INVALID_SHAPE', fields, lambda x=x, idx=idx: x[idx])
    # chains failing at a later step (the error of that step)
    chains = [
        ([2, 3, 4], [{'fn': 'slice', 'specs': [0]}, {'fn': 'transpose', 'axes': [0, 1, 2]}], 'INVALID_AXIS'),
        ([2, 1, 3], [{'fn': 'transpose', 'axes': None}, {'fn': 'squeeze', 'axes': 0}], 'INVALID_AXIS'),
        ([2, 3], [{'fn': 'expandDims', 'axis': 0}, {'fn': 'slice', 'specs': [0, 0, 0, 0]}], 'INVALID_SHAPE'),
        ([4, 3], [{'fn': 'slice', 'specs': [[None, None, 2]]}, {'fn': 'slice', 'specs': [2]}], 'INVALID_SHAPE'),
        ([2, 3], [{'fn': 'flip', 'axes': None}, {'fn': 'flip', 'axes': [1, -1]}], 'INVALID_AXIS'),
        ([2, 3], [{'fn': 'squeeze', 'axes': None}, {'fn': 'expandDims', 'axis': 3}], 'INVALID_AXIS'),
    ]
    for shape, steps, code in chains:
        name, x = arr(shape)
        emit('chain', code, {'x': enc(x, name), 'steps': steps}, lambda x=x, steps=steps: apply_steps(x, steps))


# ---- 2. ops over views ------------------------------------------------------------------
OP_DTYPES = ['float32', 'float64', 'int32', 'uint8', 'float32', 'float64', 'int32', 'uint8', 'bigint64', 'float16']


def view_op_cases():
    n = 0

    def cid(*parts):
        nonlocal n
        n += 1
        return 'view/' + '/'.join(parts) + '/%d' % n

    # binary
    ufunc = {'add': np.add, 'sub': np.subtract, 'mul': np.multiply, 'maximum': np.maximum, 'less': np.less}
    for op in ['add', 'sub', 'mul', 'maximum', 'less']:
        for k in range(20):
            name = OP_DTYPES[k % len(OP_DTYPES)]
            big = k == 7
            R = rand_result_shape(max_size=256 if big else 48)
            sa, sb = bcast_pair(R)
            a, va = view_operand(name, sa, max_base=512 if big else 128)
            b, vb = view_operand(name, sb, max_base=512 if big else 128)
            if not a['steps'] and not b['steps']:
                a, va = view_operand(name, sa, nsteps=2)
            e = ufunc[op](va, vb)
            add_case({'id': cid('binary', op, name), 'fn': 'binary', 'op': op, 'a': a, 'b': b,
                      'expect': enc(e, 'uint8' if op == 'less' else name)})
    # reduce
    red_dtypes = {'sum': OP_DTYPES, 'prod': OP_DTYPES, 'max': OP_DTYPES, 'min': OP_DTYPES,
                  'mean': ['float32', 'float64', 'float16']}
    for op in ['sum', 'max', 'min', 'mean', 'prod']:
        dts = red_dtypes[op]
        for k in range(16 if op != 'mean' else 12):
            name = dts[k % len(dts)]
            for _attempt in range(100):
                S = rand_result_shape(max_size=48, allow_zero=op in ('sum', 'prod'))
                r = len(S)
                c = pr.random()
                if c < 0.2:
                    axes = None
                elif c < 0.27:
                    axes = []
                else:
                    axes = [neg_axis(a, r) for a in pr.sample(range(r), pr.randint(1, r))] if r else None
                reduced = prod(S) if axes is None else prod([S[a % r] for a in axes]) if r else 1
                if op == 'prod' and name == 'float16' and reduced > 14:
                    continue
                break
            kind = {'sum': 'sum', 'mean': 'sum', 'prod': 'prod'}.get(op, 'elem')
            xo, v = view_operand(name, S, kind)
            keepdims = pr.random() < 0.4
            ax = np_axes(axes)
            if op == 'sum':
                e = np.sum(v, axis=ax, keepdims=keepdims, dtype=v.dtype)
            elif op == 'prod':
                e = np.prod(v, axis=ax, keepdims=keepdims, dtype=v.dtype)
            elif op == 'max':
                e = np.max(v, axis=ax, keepdims=keepdims)
            elif op == 'min':
                e = np.min(v, axis=ax, keepdims=keepdims)
            else:
                e = np.mean(v, axis=ax, keepdims=keepdims)
            e = np.asarray(e)
            add_case({'id': cid('reduce', op, name), 'fn': 'reduce', 'op': op, 'x': xo, 'axes': axes,
                      'keepdims': keepdims, 'expect': enc(e, name)})
    # unary
    un = [('neg', ['float32', 'float64', 'int32', 'bigint64', 'float16', 'int8', 'float32', 'int32']),
          ('abs', ['float32', 'float64', 'int32', 'bigint64', 'float16', 'int16', 'float64', 'int32']),
          ('sqrt', ['float64'] * 8)]
    for op, dts in un:
        for k, name in enumerate(dts):
            S = rand_result_shape()
            xo, v = view_operand(name, S, 'sqrt' if op == 'sqrt' else 'elem')
            e = {'neg': np.negative, 'abs': np.abs, 'sqrt': np.sqrt}[op](v)
            add_case({'id': cid('unary', op, name), 'fn': 'unary', 'op': op, 'x': xo, 'expect': enc(e, name)})
    # cast
    casts = [('float64', 'float32', 'rich'), ('float32', 'float64', 'rich'), ('float64', 'int32', 'cast-trunc'),
             ('float32', 'int32', 'cast-trunc'), ('float64', 'uint8clamped', 'cast-clamp'),
             ('float32', 'uint8clamped', 'cast-clamp'), ('int32', 'float32', 'cast-bigint32'),
             ('int32', 'float64', 'elem'), ('int32', 'uint8', 'elem'), ('int32', 'int8', 'elem'),
             ('int32', 'uint8clamped', 'elem'), ('int32', 'bigint64', 'elem'), ('uint8', 'float32', 'elem'),
             ('uint8', 'int32', 'elem'), ('float16', 'float32', 'elem'), ('float32', 'float16', 'cast-f16'),
             ('float64', 'float16', 'cast-f16'), ('bigint64', 'float64', 'cast-big'), ('int32', 'uint32', 'elem'),
             ('float64', 'uint8', 'cast-u8')]
    for k in range(30):
        src, to, kind = casts[k % len(casts)]
        S = rand_result_shape()
        base_shape, steps = build_view(S, pr.choice([1, 2, 3]))
        m = prod(base_shape)
        if kind == 'rich':
            x = op_data(src, base_shape, 'rich')
        elif kind == 'cast-trunc':
            x = (rng.integers(-4000, 4000, m) / 8.0 * rng.choice([1, 1000], m)).astype(DT[src])
        elif kind == 'cast-clamp':
            x = (rng.integers(-80, 1200, m) / 4.0).astype(DT[src])
        elif kind == 'cast-bigint32':
            x = rng.integers(-2 ** 31, 2 ** 31, m, dtype=np.int32)
        elif kind == 'cast-f16':
            # float16's whole range, subnormals included, never past its largest (65504)
            x = np.clip(rng.standard_normal(m) * np.exp2(rng.integers(-20, 15, m)), -65000, 65000)
            x = x.astype(np.float32).astype(DT[src])
        elif kind == 'cast-big':
            x = rng.integers(-2 ** 63, 2 ** 63, m, dtype=np.int64, endpoint=False)
        elif kind == 'cast-u8':
            x = (rng.integers(0, 2048, m) / 8.0).astype(DT[src])
        else:
            x = op_data(src, base_shape, 'elem')
        x = np.asarray(x).reshape(base_shape)
        v = apply_steps(x, steps)
        if to == 'uint8clamped':
            if src in FLOATS:
                e = np.clip(np.rint(v), 0, 255).astype(np.uint8)
            else:
                e = np.clip(v, 0, 255).astype(np.uint8)
        else:
            e = v.astype(DT[to])
        if to == 'float16':
            assert np.all(np.isfinite(e))
        add_case({'id': cid('cast', src, to), 'fn': 'cast', 'to': to, 'x': {'x': enc(x, src), 'steps': steps},
                  'expect': enc(e, to)})
    # evaluate
    exprs = ['a * b + 1', '(a - b) / 2', 'maximum(a, b)', 'a + b * c']
    for ex in exprs:
        for k in range(8):
            name = ['float32', 'float64'][k % 2]
            dt = DT[name]
            kind = 'rich' if k % 4 >= 2 else 'elem'
            R = rand_result_shape(max_size=24 if kind == 'rich' else 48)
            sa, sb = bcast_pair(R)
            shapes = {'a': sa, 'b': sb}
            if 'c' in ex:
                shapes['c'] = bcast_pair(R)[pr.randrange(2)]
            ops, vals = {}, {}
            for key, s in shapes.items():
                ops[key], vals[key] = view_operand(name, s, kind, max_base=64 if kind == 'rich' else 128)
            a, b = vals['a'], vals['b']
            if ex == 'a * b + 1':
                e = np.multiply(a, b) + dt(1)
            elif ex == '(a - b) / 2':
                e = np.subtract(a, b) / dt(2)
            elif ex == 'maximum(a, b)':
                e = np.maximum(a, b)
            else:
                e = a + np.multiply(b, vals['c'])
            add_case({'id': cid('evaluate', name), 'fn': 'evaluate', 'expression': ex, 'operands': ops,
                      'expect': enc(e, name)})


# ---- 3. random strided operands -------------------------------------------------------------
def make_strided(name, shape, kind='elem'):
    r = len(shape)
    strides = [0] * r
    order = list(range(r))
    pr.shuffle(order)                     # memory order, outermost first
    acc = 1
    for ax in reversed(order):
        d = shape[ax]
        if d == 1:
            strides[ax] = pr.choice([0, acc, pr.randint(-6, 6)])
            continue
        step = pr.choice([1, 1, 2, 3])
        strides[ax] = acc * step
        acc = acc * step * max(d, 1) + pr.choice([0, 0, 1, 2])
        if pr.random() < 0.35:
            strides[ax] = -strides[ax]
    big = [i for i in range(r) if shape[i] > 1]
    if big and pr.random() < 0.1:            # a self-overlapping operand
        i = pr.choice(big)
        strides[i] = pr.choice([1, -1, 2])
    if 0 in shape:
        offset = pr.randint(0, 3)
        length = offset + 1 + pr.randint(0, 3)
    else:
        lo = sum((d - 1) * s for d, s in zip(shape, strides) if s < 0)
        hi = sum((d - 1) * s for d, s in zip(shape, strides) if s > 0)
        offset = -lo + pr.randint(0, 3)
        length = offset + hi + 1 + pr.randint(0, 3)
    base = op_data(name, [length], kind)
    item = base.dtype.itemsize
    v = np.array(as_strided(base[offset:], shape=tuple(shape), strides=tuple(s * item for s in strides),
                            writeable=False))
    # the same elements by index arithmetic
    if prod(shape):
        idx = np.full(tuple(shape), offset, dtype=np.int64)
        for k in range(r):
            sh = [1] * r
            sh[k] = shape[k]
            idx = idx + np.arange(shape[k]).reshape(sh) * strides[k]
        assert idx.min() >= 0 and idx.max() < length
        assert same_bits(base[idx], v)
    o = enc(base, name)
    op = {'dtype': name, 'data': o['data'], 'shape': list(shape), 'strides': strides, 'offset': offset}
    return op, v


def strided_cases():
    n = 0
    dts = ['float32', 'float64', 'int32']

    def cid(*parts):
        nonlocal n
        n += 1
        return 'strided/' + '/'.join(parts) + '/%d' % n

    plan = [('add', 40), ('mul', 40), ('sub', 40), ('sum', 50), ('evaluate', 30)]
    for op, count in plan:
        for k in range(count):
            name = dts[k % 3]
            big = k % 13 == 12
            if op == 'sum':
                S = rand_result_shape(max_size=128 if big else 32)
                x, v = make_strided(name, S, 'sum')
                r = len(S)
                c = pr.random()
                if c < 0.2 or not r:
                    axes = None
                else:
                    axes = [neg_axis(a, r) for a in pr.sample(range(r), pr.randint(1, r))]
                keepdims = pr.random() < 0.4
                e = np.asarray(np.sum(v, axis=np_axes(axes), keepdims=keepdims, dtype=v.dtype))
                add_case({'id': cid('sum', name), 'fn': 'reduce', 'op': 'sum', 'x': x, 'axes': axes,
                          'keepdims': keepdims, 'expect': enc(e, name)})
                continue
            R = rand_result_shape(max_size=128 if big else 32)
            sa, sb = bcast_pair(R)
            a, va = make_strided(name, sa)
            b, vb = make_strided(name, sb)
            if op == 'evaluate':
                e = np.multiply(va, DT[name](2)) - vb
                add_case({'id': cid('evaluate', name), 'fn': 'evaluate', 'expression': 'a * 2 - b',
                          'operands': {'a': a, 'b': b}, 'expect': enc(e, name)})
            else:
                e = {'add': np.add, 'mul': np.multiply, 'sub': np.subtract}[op](va, vb)
                add_case({'id': cid(op, name), 'fn': 'binary', 'op': op, 'a': a, 'b': b, 'expect': enc(e, name)})


# ---- 4. reshape of views -------------------------------------------------------------------
def rand_shape_of(n):
    """A random shape holding n > 0 elements: n cut into factors, some merged, 1s put in."""
    fs = []
    while n > 1:
        d = pr.choice([d for d in range(2, n + 1) if n % d == 0])
        fs.append(d)
        n //= d
    pr.shuffle(fs)
    out = []
    for d in fs:
        if out and pr.random() < 0.4:
            out[-1] *= d
        else:
            out.append(d)
    for _ in range(pr.randint(0, 2)):
        out.insert(pr.randint(0, len(out)), 1)
    return out


def reshape_cases():
    """A chain of layout steps, then a reshape: NumPy's result, whether it is a
    view of the input (NumPy reshapes a view without a copy wherever strides can
    read it in the new shape), and then its strides in elements (None for a dim
    of 1, whose stride never moves)."""
    n = 0
    for k in range(240):
        name = ALL_DTYPES[k % len(ALL_DTYPES)]
        s = [pr.randint(1, 4) for _ in range(pr.randint(1, 4))]
        if k % 40 == 39:
            s[pr.randrange(len(s))] = 0
        x = layout_data(name, s)
        steps, v = rand_chain(x, pr.randint(1, 3))
        size = prod(list(v.shape))
        target = rand_shape_of(size) if size else pr.choice([[0], [0, 3], [2, 0, 1]])
        if target and size and pr.random() < 0.3:
            target[pr.randrange(len(target))] = -1
        e = v.reshape(target)
        view = size == 0 or np.shares_memory(e, v)  # the reshape's own copy or not (an index to a 0-d value copies in NumPy's chain)
        strides = [st // e.itemsize if d != 1 else None for d, st in zip(e.shape, e.strides)] if view and size else None
        n += 1
        add_case({'id': 'reshape/%s/%d' % (name, n), 'fn': 'reshape', 'x': enc(x, name), 'steps': steps,
                  'shape': target, 'view': bool(view), 'strides': strides, 'expect': enc(e.copy(order='C'), name)})


# ---- main ---------------------------------------------------------------------------------
def main():
    with np.errstate(over='ignore'):       # integer wraparound is intended
        layout_cases()
        layout_error_cases()
        view_op_cases()
        strided_cases()
        reshape_cases()
    ids = [c['id'] for c in CASES]
    assert len(set(ids)) == len(ids)
    head = '{"generator":"scripts/gen-view-fixtures.py","numpy":%s,"seed":%d,"cases":[\n' % (
        json.dumps(np.__version__), SEED)
    body = ',\n'.join(json.dumps(c, separators=(',', ':'), allow_nan=False) for c in CASES)
    text = head + body + '\n]}\n'
    counts = {}
    for c in CASES:
        key = ('strided ' if c['id'].startswith('strided/') else '') + c['fn'] + (' (error)' if 'error' in c else '')
        counts[key] = counts.get(key, 0) + 1
    for k in sorted(counts):
        print('%-22s %d' % (k, counts[k]), file=sys.stderr)
    print('%-22s %d cases, %d bytes' % ('total', len(CASES), len(text.encode())), file=sys.stderr)
    if '--stdout' in sys.argv[1:]:
        sys.stdout.write(text)
    else:
        with open(OUT, 'w', encoding='utf-8', newline='\n') as f:
            f.write(text)


if __name__ == '__main__':
    main()

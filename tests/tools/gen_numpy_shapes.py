#!/usr/bin/python3
"""Write tests/fixtures/numpy_shapes.json: random broadcasting cases whose
expected results come from NumPy itself (Debian's python3-numpy).

Run with Debian's interpreter, which has numpy:
    /usr/bin/python3 tests/tools/gen_numpy_shapes.py

Families, and what NumPy computes for each (spec sections in brackets):
  numpy          np.broadcast_shapes(*shapes), 0-6 operands              [§1]
  to_numpy       np.broadcast_to(input, target)                           [§4.1]
  bidirectional  np.broadcast_shapes(input, target)                       [§4.3]
  explicit       input reshaped with 1s inserted at the target axes the
                 mapping leaves out, then np.broadcast_to(that, target)   [§4.2]
  pdpd           B's trailing 1s trimmed, B reshaped into A's rank at
                 `axis`; np.broadcast_to(B', A.shape) must succeed and
                 np.broadcast_shapes(A, B') must equal A.shape            [§3]
Only cases whose NumPy meaning is the spec's are generated: no -1 targets
(NumPy rejects them), explicit mappings that are valid (strictly increasing,
in range: otherwise there is no reshape), pdpd axes where B fits into A. A
NumPy ValueError becomes INCOMPATIBLE_DIMS, or RANK_MISMATCH when the target
has fewer dims than the input (the one refusal NumPy makes on rank alone).

Element counts must fit NumPy's intp, so huge dims are used sparingly.
"""
import json
import os
import random
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided

SEED = 20250611
PER_FAMILY = 1000
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'numpy_shapes.json')

rng = random.Random(SEED)


def dim():
    r = rng.random()
    if r < 0.35:
        return 1
    if r < 0.45:
        return 0
    if r < 0.90:
        return rng.randint(2, 5)
    if r < 0.98:
        return rng.randint(6, 64)
    return rng.choice([2**31 - 1, 2**31, 10**6, 2**40])


def shape(max_rank=8):
    return [dim() for _ in range(rng.randint(0, max_rank))]


def derive(base):
    """Leading axes dropped, some dims turned into 1, sometimes one changed."""
    s = base[rng.randint(0, len(base)):] if base and rng.random() < 0.6 else list(base)
    s = [1 if rng.random() < 0.35 else d for d in s]
    if s and rng.random() < 0.25:
        s[rng.randrange(len(s))] = dim()
    return s


def related(n):
    if rng.random() < 0.3:
        return [shape() for _ in range(n)]
    base = shape()
    return [derive(base) for _ in range(n)]


def fits_intp(*shapes):
    limit = 2**62
    for s in shapes:
        p = 1
        for d in s:
            p *= max(d, 1)
        if p >= limit:
            return False
    return True


def view(s):
    """An array of shape s that owns no memory (every stride 0)."""
    return as_strided(np.zeros(1, dtype=np.int8), shape=tuple(s), strides=(0,) * len(s))


def np_broadcast_shapes(*shapes):
    try:
        return list(np.broadcast_shapes(*[tuple(s) for s in shapes])), None
    except ValueError:
        return None, 'INCOMPATIBLE_DIMS'


def np_broadcast_to(inp, target):
    try:
        return list(np.broadcast_to(view(inp), tuple(target)).shape), None
    except ValueError:
        return None, 'RANK_MISMATCH' if len(target) < len(inp) else 'INCOMPATIBLE_DIMS'


def case(out, error, **args):
    c = dict(args)
    if error is None:
        c['out'] = out
    else:
        c['error'] = error
    return c


def gen_numpy():
    shapes = related(rng.randint(0, 6))
    if not fits_intp(*shapes):
        return None
    out, err = np_broadcast_shapes(*shapes)
    if out is not None and not fits_intp(out):
        return None
    return case(out, err, shapes=shapes)


def gen_to_numpy():
    target, inp = related(2)
    if rng.random() < 0.5:  # mostly: input derived from the target
        inp = derive(target)
    if not fits_intp(inp, target):
        return None
    out, err = np_broadcast_to(inp, target)
    return case(out, err, input=inp, target=target)


def gen_bidirectional():
    inp, target = related(2)
    if not fits_intp(inp, target):
        return None
    out, err = np_broadcast_shapes(inp, target)
    if out is not None and not fits_intp(out):
        return None
    return case(out, err, input=inp, target=target)


def gen_explicit():
    target = shape()
    mapping = sorted(rng.sample(range(len(target)), rng.randint(0, len(target))))
    inp = [1 if rng.random() < 0.35 else target[m] for m in mapping]
    if inp and rng.random() < 0.3:
        inp[rng.randrange(len(inp))] = dim()
    if not fits_intp(inp, target):
        return None
    reshaped = [1] * len(target)
    for i, m in enumerate(mapping):
        reshaped[m] = inp[i]
    out, err = np_broadcast_to(reshaped, target)
    assert err != 'RANK_MISMATCH'
    return case(out, err, input=inp, target=target, axesMapping=mapping)


def gen_pdpd():
    a = shape()
    if rng.random() < 0.7 and a:  # B: a window of A, with 1s and sometimes trailing 1s
        start = rng.randint(0, len(a))
        b = derive(a[start:start + rng.randint(0, len(a) - start)]) if rng.random() < 0.3 else \
            [1 if rng.random() < 0.35 else d for d in a[start:start + rng.randint(0, len(a) - start)]]
        if b and rng.random() < 0.25:
            b[rng.randrange(len(b))] = dim()
        b = b + [1] * rng.choice([0, 0, 1, 2])
        axis = start if rng.random() < 0.5 else None
    else:
        b = shape(4)
        axis = rng.randint(0, len(a)) if rng.random() < 0.5 else None
    eff = len(a) - len(b) if axis is None else axis  # spec §3.1: before trimming
    trimmed = list(b)
    while trimmed and trimmed[-1] == 1:
        trimmed.pop()
    if eff < 0 or eff + len(trimmed) > len(a):
        return None  # no reshape: RANK_MISMATCH has no NumPy meaning
    if not fits_intp(a, b):
        return None
    b2 = [1] * eff + trimmed + [1] * (len(a) - eff - len(trimmed))
    to, err = np_broadcast_to(b2, a)
    both, _ = np_broadcast_shapes(a, b2)
    ok = err is None and both == a
    c = {'a': a, 'b': b}
    if axis is not None:
        c['axis'] = axis
    if ok:
        c['out'] = to
    else:
        c['error'] = 'INCOMPATIBLE_DIMS'
    return c


FAMILIES = {
    'numpy': gen_numpy,
    'to_numpy': gen_to_numpy,
    'bidirectional': gen_bidirectional,
    'explicit': gen_explicit,
    'pdpd': gen_pdpd,
}


def main():
    out = {
        'about': 'Generated by tests/tools/gen_numpy_shapes.py with /usr/bin/python3; expected results computed by NumPy. Do not edit by hand.',
        'numpy_version': np.__version__,
        'seed': SEED,
    }
    for name, gen in FAMILIES.items():
        cases, seen = [], set()
        while len(cases) < PER_FAMILY:
            c = gen()
            if c is None:
                continue
            key = json.dumps(c, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            cases.append(c)
        out[name] = cases
    # One case per line: reviewable diffs, small file.
    lines = ['{']
    keys = list(out)
    for i, k in enumerate(keys):
        end = ',' if i < len(keys) - 1 else ''
        v = out[k]
        if isinstance(v, list):
            lines.append(f'  {json.dumps(k)}: [')
            lines += [f'    {json.dumps(c, separators=(",", ":"))}' + (',' if j < len(v) - 1 else '') for j, c in enumerate(v)]
            lines.append(f'  ]{end}')
        else:
            lines.append(f'  {json.dumps(k)}: {json.dumps(v)}{end}')
    lines.append('}')
    with open(OUT, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    counts = {k: len(v) for k, v in out.items() if isinstance(v, list)}
    errors = {k: sum('error' in c for c in v) for k, v in out.items() if isinstance(v, list)}
    print(f'wrote {os.path.relpath(OUT)}: {counts}, errors {errors}', file=sys.stderr)


if __name__ == '__main__':
    main()

# Inputs and correctly rounded float64 results (200-bit mpmath) of every float64
# function the library takes from the JS engine's Math (and of sigmoid, built on
# Math.exp, and hypot, the C library's), for tools/f64-accuracy.mjs, which
# measures the library against them (docs/accuracy.md, README "Precision").
# Usage: python3 tools/f64_refs.py OUT.bin
# OUT.bin: one JSON line {"fns": [[name, arity], ...], "n": N}, then per function
# N first inputs (and N second ones for a function of two), then N results,
# little-endian float64.
import json
import random
import struct
import sys

import mpmath

mpmath.mp.prec = 200
N = 100000


def mixed(lo, hi):
    return lambda: random.choice([random.uniform(lo, hi), random.uniform(-1, 1), random.uniform(-0.1, 0.1), random.gauss(0, 5)])


def positive():
    return random.choice([random.uniform(0, 1), random.uniform(1, 100), 10 ** random.uniform(-300, 300), random.uniform(0.9, 1.1)])


def above_minus_one():
    return random.choice([random.uniform(-1, 1), random.uniform(-0.1, 0.1), 10 ** random.uniform(-300, 300), random.uniform(1, 100)])


M = mpmath
FNS = {
    'exp': (mixed(-700, 700), M.exp),
    'expm1': (mixed(-40, 700), M.expm1),
    'log': (positive, M.log),
    'log1p': (above_minus_one, M.log1p),
    'sin': (mixed(-1e6, 1e6), M.sin),
    'cos': (mixed(-1e6, 1e6), M.cos),
    'tan': (mixed(-1e6, 1e6), M.tan),
    'tanh': (mixed(-20, 20), M.tanh),
    'sigmoid': (mixed(-40, 40), lambda x: 1 / (1 + M.exp(-x))),
}


def base():
    return random.choice([random.uniform(0, 2), random.uniform(0, 100), 10 ** random.uniform(-30, 30), -random.randint(1, 50)])


def exponent():
    return random.choice([random.uniform(-10, 10), random.uniform(-100, 100), float(random.randint(-40, 40))])


def pw(x, y):  # a negative base takes only whole exponents (the others are NaN, as in C)
    return M.power(x, y) if x >= 0 or y == int(y) else M.nan


# Functions of two: (draw first, draw second, function); atan2(a, b) is the angle of (b, a), as Math.atan2.
FNS2 = {
    'atan2': (mixed(-1e6, 1e6), mixed(-1e6, 1e6), M.atan2),
    'pow': (base, exponent, pw),
    'hypot': (mixed(-1e300, 1e300), mixed(-1e6, 1e6), M.hypot),
}

random.seed(1)
pack = lambda vs: struct.pack('<%dd' % N, *vs)
with open(sys.argv[1], 'wb') as f:
    f.write((json.dumps({'fns': [[k, 1] for k in FNS] + [[k, 2] for k in FNS2], 'n': N}) + '\n').encode())
    for name, (draw, fn) in FNS.items():
        xs = [draw() for _ in range(N)]
        f.write(pack(xs) + pack([float(fn(M.mpf(x))) for x in xs]))
    for name, (draw_a, draw_b, fn) in FNS2.items():
        xs = [draw_a() for _ in range(N)]
        ys = [draw_b() for _ in range(N)]
        f.write(pack(xs) + pack(ys) + pack([float(fn(M.mpf(x), M.mpf(y))) for x, y in zip(xs, ys)]))

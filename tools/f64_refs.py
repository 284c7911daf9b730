# Inputs and correctly rounded float64 results (200-bit mpmath) of every float64
# unary function the library takes from the JS engine's Math (and of sigmoid,
# built on Math.exp), for tools/f64-accuracy.mjs, which measures the library
# against them (docs/accuracy.md). Usage: python3 tools/f64_refs.py OUT.bin
# OUT.bin: one JSON line {"fns": [...], "n": N}, then per function N inputs and
# N results, little-endian float64.
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

random.seed(1)
with open(sys.argv[1], 'wb') as f:
    f.write((json.dumps({'fns': list(FNS), 'n': N}) + '\n').encode())
    for name, (draw, fn) in FNS.items():
        xs = [draw() for _ in range(N)]
        refs = [float(fn(M.mpf(x))) for x in xs]
        f.write(struct.pack('<%dd' % N, *xs) + struct.pack('<%dd' % N, *refs))

#!/usr/bin/env python3
"""The coefficients of exp's polynomial (src/kernels/fast_f32.hpp, kExpQ).

exp(r) = 1 + r + r^2 q(r) on |r| <= ln2/2, q of degree 4 with its constant
term 1/2 exact. The other four are fitted so that the largest error of
r^2 q(r), counted in float32 ulps of exp(r), is smallest (iteratively
reweighted least squares on Chebyshev nodes, which tends to the minimax
fit), then rounded to float32, and the float32 neighbours of the three
highest (up to 4 steps each way) searched for a smaller largest error.
Prints the coefficients, highest power first, and the largest error in
ulps of exp(r) and of expm1(r) (expm1 reads the same polynomial).

    python3 tools/fit_exp_q.py        (needs numpy)

The float32 results over every input are measured by tools/f32_accuracy.cpp
(npm run accuracy): docs/accuracy.md.
"""
import itertools

import numpy as np

H = np.log(2) / 2 * 1.0005  # |r| after the reduction, with its rounding


def q(r):
    """(expm1(r) - r) / r^2 in double; its Taylor series near 0."""
    r = np.asarray(r, dtype=np.float64)
    out = np.empty_like(r)
    near = np.abs(r) < 1e-3
    s = r[near]
    out[near] = 0.5 + s / 6 + s**2 / 24 + s**3 / 120 + s**4 / 720 + s**5 / 5040
    f = r[~near]
    out[~near] = (np.expm1(f) - f) / f**2
    return out


def ulp(v):
    return np.spacing(np.abs(v).astype(np.float32)).astype(np.float64)


GRID = np.linspace(-H, H, 400001)
QG = q(GRID)
UE = ulp(np.expm1(GRID))
UY = ulp(np.exp(GRID))


def errors(c):
    """Largest |r^2 (q - p)| in ulps of exp(r) and of expm1(r)."""
    d = GRID**2 * (QG - np.polyval(np.asarray(c, dtype=np.float64), GRID))
    return np.max(np.abs(d) / UY), np.max(np.abs(d) / np.where(UE > 0, UE, 1))


def fit():
    x = np.cos(np.pi * (np.arange(8000) + 0.5) / 8000) * H
    wx = x**2 / ulp(np.exp(x))
    w = np.ones_like(x)
    for _ in range(120):
        a = np.vander(x, 5)[:, :4] * (wx * w)[:, None]
        b = wx * (q(x) - 0.5) * w
        c4, *_ = np.linalg.lstsq(a, b, rcond=None)
        c = np.append(c4, 0.5)
        e = np.abs(wx * (q(x) - np.polyval(c, x)))
        w = w * (e / e.max() + 1e-4) ** 0.5
        w /= w.max()
    return c


def main():
    c32 = fit().astype(np.float32)
    best = (errors(c32)[0], c32.copy())
    for steps in itertools.product(range(-4, 5), repeat=3):
        t = c32.copy()
        for k, s in enumerate(steps):
            for _ in range(abs(s)):
                t[k] = np.nextafter(t[k], np.float32(np.inf if s > 0 else -np.inf))
        e = errors(t)[0]
        if e < best[0]:
            best = (e, t.copy())
    c = best[1]
    print('kExpQ =', ', '.join(f'{float(v)!r}f' for v in c))
    ey, em = errors(c)
    print(f'largest error: {ey:.3f} ulp of exp(r), {em:.3f} ulp of expm1(r)')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""How far NumPy's float64 transcendentals lie from tensorcast's (the JS engine's Math.*).

tensorcast's float64 sin, cos, tan, exp, expm1, log, log1p and tanh are bit for bit
Math.* (tests/js/unary.test.js holds that); this compares Math.* in Node with NumPy on
100,000 inputs per function and prints the largest distance in float64 values (ulp) and
the share of inputs that differ. NumPy picks SIMD code by the CPU, so the figures are the
machine's. Usage: python3 tools/f64_vs_numpy.py  (needs NumPy and `node` on PATH)
"""
import os
import subprocess
import tempfile

import numpy as np

FUNCS = ['sin', 'cos', 'tan', 'exp', 'expm1', 'tanh', 'log', 'log1p']
NODE = r'''
const fs = require('fs');
const [dir, ...fns] = process.argv.slice(1);
for (const f of fns) {
  const x = new Float64Array(fs.readFileSync(`${dir}/${f}.in`).buffer.slice(0));
  fs.writeFileSync(`${dir}/${f}.out`, Buffer.from(Float64Array.from(x, Math[f]).buffer));
}
'''


def main():
    rng = np.random.default_rng(2026)
    wide = np.concatenate([rng.uniform(-700, 700, 50_000), rng.uniform(-10, 10, 50_000)])
    inputs = {f: (np.abs(wide) + 1e-300 if f.startswith('log') else wide) for f in FUNCS}
    with tempfile.TemporaryDirectory() as d:
        for f, x in inputs.items():
            with open(os.path.join(d, f + '.in'), 'wb') as fh:
                fh.write(x.tobytes())
        subprocess.run(['node', '-e', NODE, d, *FUNCS], check=True)
        print(f'NumPy {np.__version__}; function, largest distance (ulp), share of inputs that differ')
        for f, x in inputs.items():
            with open(os.path.join(d, f + '.out'), 'rb') as fh:
                js = np.frombuffer(fh.read(), dtype=np.float64)
            with np.errstate(all='ignore'):
                ref = getattr(np, f)(x)
            both = np.isfinite(ref) & np.isfinite(js)
            dist = np.abs(ref[both].view(np.int64) - js[both].view(np.int64))
            print(f'{f:6} {int(dist.max())} ulp  {np.count_nonzero(dist) / dist.size:.1%}')


if __name__ == '__main__':
    main()

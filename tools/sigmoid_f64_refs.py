# Inputs and correctly rounded float64 sigmoid values (200-bit mpmath) for
# tools/sigmoid-f64.mjs, which measures the library's float64 sigmoid against
# them (docs/accuracy.md). Usage: python3 tools/sigmoid_f64_refs.py OUT.bin
import random
import struct
import sys

import mpmath

mpmath.mp.prec = 200
random.seed(1)
xs = [random.choice([random.uniform(-40, 40), random.uniform(-1, 1), random.uniform(-0.1, 0.1), random.gauss(0, 5)])
      for _ in range(100000)]
refs = [float(1 / (1 + mpmath.exp(-mpmath.mpf(x)))) for x in xs]
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<%dd' % len(xs), *xs) + struct.pack('<%dd' % len(refs), *refs))

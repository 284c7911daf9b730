// The wasm build's kernels: every SIMD128 kernel of the registries (element-wise
// and where's select) swept over lengths 1 … 9 vector widths (+1: past two
// steps of the four-vector main loop, and every tail) against its
// scalar reference, run through the registry test hooks; then every dtype ×
// op × inner loop (both contiguous, second scalar, first scalar, strided), and
// where in every form, through the public API against a plain JS loop. (Natively both sides are the reference:
// tests/cpp/kernels_test.cpp.)
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { runKernel, selectKernels, runSelectKernel } from '../../dist/introspect.js';
import { DTYPES, OPS, CTORS, rng, randomArray, apply, same, defined, outDtype, isFloat } from './data-oracle.js';
import { halfBits } from '../../dist/operands.js';
import { FULL_ENGINE } from './full-engine.js';

// Every reference kept (full-engine.js): this file sweeps SIMD kernels against them.
beforeAll(async () => { await tc.init({ wasmUrl: FULL_ENGINE }); });

const SIZE = { float32: 4, float64: 8, int8: 1, uint8: 1, uint8clamped: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, bigint64: 8, biguint64: 8, float16: 2 };
// float16 kernels are swept here on their bits (Node 20 has no Float16Array): any
// bits now and then (NaN, ±Infinity, subnormals), else halves of small values.
const isNanHalf = (h) => (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
function randomHalfBits(r, n) {
  const a = new Uint16Array(n);
  for (let i = 0; i < n; i++) a[i] = r() < 0.25 ? Math.floor(r() * 65536) : halfBits(Math.round((r() * 40 - 20) * 100) / 100);
  return a;
}

describe('kernel registry (wasm build)', () => {
  it('names every kernel by the grammar <dtype>_<op>_<vv|vs|sv>__<scalar|wasmsimd>', () => {
    const ks = tc.kernels();
    expect(ks.length).toBeGreaterThan(600);
    const names = new Set(ks.map((k) => k.name));
    expect(names.size).toBe(ks.length);
    for (const k of ks) expect(k.name).toMatch(/^(f32|f64|i8|u8|u8c|i16|u16|i32|u32|i64|u64|f16)_[a-z0-9_]+_(vv|vs|sv)__(scalar|wasmsimd)$/);
    // Every defined (dtype, op) has a reference in all three forms.
    const refs = ks.filter((k) => !k.simd);
    let pairs = 0;
    for (const dt of DTYPES) for (const op of OPS) if (defined(dt, op)) pairs++;
    // float16: every float op (bitwise ops refused, as for the other floats), each with a SIMD form
    // (the float32 kernel between SIMD128 conversions).
    const f16 = OPS.filter((op) => defined('float32', op));
    pairs += f16.length;
    for (const op of f16) for (const f of ['vv', 'vs', 'sv']) expect(ks.some((k) => k.simd && k.name === `f16_${tc.contract().ops.find((o) => o.name === op).kernel}_${f}__wasmsimd`), `f16 ${op} ${f}`).toBe(true);
    expect(ks.some((k) => k.name.startsWith('f16_bitwise'))).toBe(false);
    expect(refs.length).toBe(pairs * 3);
    // The hot ones have SIMD: float32/float64/int32/uint8 arithmetic, compare, min/max, bitwise.
    const simd = new Set(ks.filter((k) => k.simd).map((k) => `${k.dtype} ${k.op} ${k.form}`));
    for (const dt of ['float32', 'float64', 'int32', 'uint8']) {
      for (const op of ['add', 'sub', 'minimum', 'maximum', 'equal', 'less', 'greaterEqual', 'logicalAnd']) {
        for (const f of ['vv', 'vs', 'sv']) expect(simd.has(`${dt} ${op} ${f}`), `${dt} ${op} ${f}`).toBe(true);
      }
    }
    for (const f of ['vv', 'vs', 'sv']) {
      expect(simd.has(`float32 mul ${f}`)).toBe(true);
      expect(simd.has(`float32 div ${f}`)).toBe(true);
      expect(simd.has(`int32 bitwiseXor ${f}`)).toBe(true);
    }
  });

  it('every SIMD kernel equals its scalar reference at every length 1 … 9 vector widths + 1', () => {
    const ks = tc.kernels();
    const ref = new Map(ks.filter((k) => !k.simd).map((k) => [`${k.dtype} ${k.op} ${k.form}`, k]));
    const r = rng(99);
    let swept = 0;
    for (const k of ks.filter((x) => x.simd)) {
      const R = ref.get(`${k.dtype} ${k.op} ${k.form}`);
      expect(R, k.name).toBeDefined();
      const odt = outDtype(k.dtype, k.op);
      // Bool kernels produce 16 results per step whatever the lane width.
      const width = odt === 'uint8' && k.dtype !== 'uint8' ? 16 : 16 / SIZE[k.dtype];
      // The main loop takes four vectors a step: 9 widths run it twice, then the one-vector loop, then the tail.
      const maxN = Math.max(9 * width + 1, 49);
      const half = k.dtype === 'float16';
      for (let n = 1; n <= (half ? 2 * 256 + 9 : maxN); n += half && n > 40 ? 37 : 1) { // float16: past a conversion block
        const a = half ? randomHalfBits(r, n) : randomArray(r, k.dtype, n, k.op, 'a');
        const b = half ? randomHalfBits(r, n) : randomArray(r, k.dtype, n, k.op, 'b');
        // Equal operands now and then, so equal/less-equal see ties.
        if (r() < 0.3) for (let i = 0; i < n; i += 2) b[i] = a[i];
        const OutCtor = odt === 'float16' ? Uint16Array : CTORS[odt];
        const got = runKernel(k.index, a, b, new OutCtor(n), n);
        const want = runKernel(R.index, a, b, new OutCtor(n), n);
        if (odt === 'float16') {
          for (let i = 0; i < n; i++) {
            if (isNanHalf(want[i]) ? !isNanHalf(got[i]) : got[i] !== want[i]) throw new Error(`${k.name} n=${n} element ${i}: SIMD bits ${got[i]}, reference ${want[i]}`);
          }
          swept++;
          continue;
        }
        for (let i = 0; i < n; i++) {
          const ok = isFloat(odt) && Number.isNaN(want[i]) ? Number.isNaN(got[i]) : Object.is(got[i], want[i]);
          if (!ok) throw new Error(`${k.name} n=${n} element ${i}: SIMD ${got[i]}, reference ${want[i]} (a ${a[k.form === 'sv' ? 0 : i]}, b ${b[k.form === 'vs' ? 0 : i]})`);
        }
        swept++;
      }
    }
    expect(swept).toBeGreaterThan(10000);
  });
});

describe('select kernels (where)', () => {
  it('are named x<bits>_where_<vv|vs|sv|ss>__<isa>, with a reference and a SIMD kernel for every width and form', () => {
    const ks = selectKernels();
    const names = ks.map((k) => k.name);
    for (const w of ['x8', 'x16', 'x32', 'x64']) {
      for (const f of ['vv', 'vs', 'sv', 'ss']) {
        expect(names).toContain(`${w}_where_${f}__scalar`);
        expect(names).toContain(`${w}_where_${f}__wasmsimd`);
      }
    }
  });

  it('every SIMD select kernel equals its reference at every length 1 … 49', () => {
    const ks = selectKernels();
    const ref = new Map(ks.filter((k) => !k.simd).map((k) => [`${k.width} ${k.form}`, k]));
    const r = rng(5);
    let swept = 0;
    for (const k of ks.filter((x) => x.simd)) {
      const R = ref.get(`${k.width} ${k.form}`);
      for (let n = 1; n <= 49; n++) {
        const mask = Uint8Array.from({ length: n }, () => (r() < 0.5 ? 0 : r.int(1, 255)));
        const x = Uint8Array.from({ length: n * k.width }, () => r.int(0, 255));
        const y = Uint8Array.from({ length: n * k.width }, () => r.int(0, 255));
        const got = runSelectKernel(k.index, mask, x, y, new Uint8Array(n * k.width), n);
        const want = runSelectKernel(R.index, mask, x, y, new Uint8Array(n * k.width), n);
        expect(Array.from(got), `${k.name} n=${n}`).toEqual(Array.from(want));
        // And both are what a byte loop selects.
        const xs = k.form === 'sv' || k.form === 'ss';
        const ys = k.form === 'vs' || k.form === 'ss';
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < k.width; j++) {
            const src = mask[i] ? x[(xs ? 0 : i) * k.width + j] : y[(ys ? 0 : i) * k.width + j];
            if (got[i * k.width + j] !== src) throw new Error(`${k.name} n=${n} element ${i} byte ${j}`);
          }
        }
        swept++;
      }
    }
    expect(swept).toBe(16 * 49);
  });

  for (const dt of DTYPES) {
    it(`where on ${dt}: four forms, conditions of three dtypes, lengths 1 … 48`, () => {
      const r = rng(11 + DTYPES.indexOf(dt));
      for (const cdt of ['uint8', 'float32', 'bigint64']) {
        for (const form of ['vv', 'vs', 'sv', 'ss']) {
          for (let n = 1; n <= 48; n++) {
            const cond = randomArray(r, cdt, n);
            const x = randomArray(r, dt, form === 'sv' || form === 'ss' ? 1 : n);
            const y = randomArray(r, dt, form === 'vs' || form === 'ss' ? 1 : n);
            const res = tc.where({ data: cond }, { data: x, shape: [x.length] }, { data: y, shape: [y.length] });
            expect(res.shape).toEqual([n]);
            for (let i = 0; i < n; i++) {
              const want = cond[i] != 0 ? x[x.length === 1 ? 0 : i] : y[y.length === 1 ? 0 : i]; // eslint-disable-line eqeqeq
              if (!Object.is(res.data[i], want) && !(Number.isNaN(want) && Number.isNaN(res.data[i]))) {
                throw new Error(`where ${dt} cond ${cdt} ${form} n=${n} element ${i}: got ${res.data[i]}, want ${want}`);
              }
            }
          }
        }
      }
    });
  }
});

describe('every dtype × op × inner loop through the API vs a JS loop', () => {
  // [a shape, b shape, dims] for length n, and how output element i reads a and b.
  const FORMS = {
    contiguous: (n) => ({ sa: [n], sb: [n], ia: (i) => i, ib: (i) => i }),
    secondScalar: (n) => ({ sa: [2, n], sb: [2, 1], ia: (i) => i, ib: (i) => Math.floor(i / n) }),
    firstScalar: (n) => ({ sa: [1], sb: [n], ia: () => 0, ib: (i) => i }),
    // Named dims in another order: B is read with a stride of 2 (strided inner loop).
    strided: (n) => ({ sa: [2, n], sb: [n, 2], dims: [['x', 'y'], ['y', 'x']], ia: (i) => i, ib: (i) => (i % n) * 2 + Math.floor(i / n) }),
  };

  for (const dt of DTYPES) {
    it(`${dt}: every op, lengths 1 … 48, four inner loops`, () => {
      const r = rng(7 + DTYPES.indexOf(dt));
      let checked = 0;
      for (const op of OPS) {
        if (!defined(dt, op)) continue;
        for (const [form, make] of Object.entries(FORMS)) {
          for (let n = 1; n <= 48; n += form === 'strided' ? 5 : 1) {
            const f = make(n);
            const a = randomArray(r, dt, f.sa.reduce((p, d) => p * d, 1), op, 'a');
            const b = randomArray(r, dt, f.sb.reduce((p, d) => p * d, 1), op, 'b');
            const A = { data: a, shape: f.sa, ...(f.dims ? { dims: f.dims[0] } : {}) };
            const B = { data: b, shape: f.sb, ...(f.dims ? { dims: f.dims[1] } : {}) };
            const res = tc[op](A, B);
            expect(res.dtype).toBe(outDtype(dt, op));
            const len = Math.max(a.length, b.length);
            expect(res.data.length).toBe(len);
            for (let i = 0; i < len; i++) {
              const want = apply(dt, op, a[f.ia(i)], b[f.ib(i)]);
              if (!same(dt, op, res.data[i], want)) {
                throw new Error(`${dt} ${op} ${form} n=${n} element ${i}: got ${res.data[i]}, want ${want} (a ${a[f.ia(i)]}, b ${b[f.ib(i)]})`);
              }
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(100);
    });
  }
});

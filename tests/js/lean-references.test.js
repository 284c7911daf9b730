// The shipped module is lean (src/kernels/simd_coverage.hpp): each kernel slot
// holds one kernel, the SIMD one where SIMD128 has the instructions, else the
// scalar reference; every reference the SIMD kernels shadow lives only in the
// test build (full-engine.js), where the sweeps read it. Checked from both
// sides where the shipped module lists its kernels (kernels(), the
// element-wise ones: the other registries are listed by the test build
// alone), and in the test build for every registry.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as tc from '../../dist/node.js';
import { selectKernels, reduceKernels, unaryKernels, castKernels } from '../../dist/introspect.js';
import { FULL_ENGINE } from './full-engine.js';

beforeAll(async () => { await tc.init(); });

const key = {
  binary: (k) => `${k.dtype} ${k.op} ${k.form}`,
  select: (k) => `${k.width} ${k.form}`,
  reduce: (k) => `${k.dtype} ${k.op} ${k.shape}`,
  unary: (k) => `${k.dtype} ${k.op}`,
  cast: (k) => `${k.from} ${k.to}`,
};
const lists = () => ({ binary: tc.kernels() });

// The full module's listings, from a child process (one engine per process).
function fullLists() {
  const dist = new URL('../../dist/', import.meta.url).href;
  const code = `
    import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
    const tc = await import('${dist}node.js');
    const i = await import('${dist}introspect.js');
    await tc.init({ wasmBinary: readFileSync(new URL('${FULL_ENGINE.href}')) });
    process.stdout.write(JSON.stringify({ binary: tc.kernels(), select: i.selectKernels(), reduce: i.reduceKernels(),
      unary: i.unaryKernels(), cast: i.castKernels() }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

describe('lean references (the shipped module)', () => {
  it('holds exactly one kernel per slot: SIMD where one exists, else the scalar reference', () => {
    for (const [kind, ks] of Object.entries(lists())) {
      const seen = new Map();
      for (const k of ks) {
        const s = key[kind](k);
        expect(seen.has(s), `${kind} ${s} twice (${k.name})`).toBe(false);
        seen.set(s, k);
      }
      expect(ks.length, kind).toBeGreaterThan(0);
    }
    // The test hooks' listings are not shipped.
    for (const list of [selectKernels, reduceKernels, unaryKernels, castKernels]) {
      expect(() => list()).toThrow(/test build/);
    }
  });

  it('lists the same slots as the full module, each with the kernel the full module dispatches to', () => {
    const shipped = lists();
    expect(readFileSync(FULL_ENGINE).length).toBeGreaterThan(readFileSync(new URL('../../dist/tensorcast.wasm', import.meta.url)).length);
    const full = fullLists();
    // where's select: a SIMD kernel for every width and form, in the test build too.
    expect(full.select.filter((k) => k.simd).map(key.select).sort()).toEqual([...new Set(full.select.map(key.select))].sort());
    for (const kind of Object.keys(key)) {
      const bySlot = new Map();
      for (const k of full[kind]) {
        const s = key[kind](k);
        const prev = bySlot.get(s);
        if (!prev || k.simd) bySlot.set(s, k); // dispatch: SIMD first
      }
      // Every slot of the full module is in the shipped one (where it lists them), with the same kernel name.
      if (shipped[kind]) {
        expect(shipped[kind].length, kind).toBe(bySlot.size);
        for (const k of shipped[kind]) expect(k.name, kind).toBe(bySlot.get(key[kind](k))?.name);
      }
      expect(bySlot.size, kind).toBeGreaterThan(0);
      // And the full module keeps a reference for every slot.
      const refs = new Set(full[kind].filter((k) => !k.simd).map(key[kind]));
      if (kind !== 'select') for (const s of bySlot.keys()) expect(refs.has(s), `${kind} ${s}`).toBe(true);
    }
  });

  it('runs a SIMD kernel at every tail length (the padded tail) with the results of the plain JS loop', () => {
    // Same-shape float32 operands: div's vv kernel, the shipped one (f32_div_vv__wasmsimd).
    expect(tc.kernels().find((x) => x.name === 'f32_div_vv__wasmsimd')).toBeDefined();
    for (let n = 1; n <= 40; n++) {
      const a = Float32Array.from({ length: n }, (_, i) => i * 0.37 - 3);
      const b = Float32Array.from({ length: n }, (_, i) => (i % 5) - 2);
      const out = tc.div({ data: a, shape: [n] }, { data: b, shape: [n] }).data;
      for (let i = 0; i < n; i++) expect(Object.is(out[i], Math.fround(a[i] / b[i])), `n=${n} i=${i}`).toBe(true);
    }
  });
});

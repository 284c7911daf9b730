// What the engine holds and which kernels it has: memory(), the kernel
// registries (from embind) and the hooks the kernel sweeps run them through.
import { mod } from './loader.js';
import { slot, scratchInUse, releaseScratch } from './heap.js';
import { liveTensorCount } from './tensor.js';

/** What the engine holds, like tf.memory(). */
export function memory() {
  const M = mod();
  return {
    wasmHeapBytes: M.HEAPU8.length,
    allocatedBytes: M._tc_allocated_bytes() - scratchInUse(),
    scratchBytes: scratchInUse(),
    liveTensors: liveTensorCount(),
  };
}

export { releaseScratch };

/** Every element-wise kernel in this build: { index, name, dtype, op, form, simd }. */
export function kernels() {
  return mod().kernels();
}

/** The select (where) kernels of this build: { index, name, width (bytes), form, simd } (test hook). */
export function selectKernels() {
  return mod().selectKernels();
}

/** Run registry kernel `index` on typed arrays (test hook): out = a (op) b over n elements. */
export function runKernel(index, a, b, out, n) {
  const M = mod();
  const pa = slot(0, Math.max(a.byteLength, 1));
  const pb = slot(1, Math.max(b.byteLength, 1));
  const po = slot(3, Math.max(out.byteLength, 1));
  M.HEAPU8.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), pa);
  M.HEAPU8.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), pb);
  if (M._tc_kernel_run(index, pa, pb, po, n) !== 0) throw new RangeError(`no kernel ${index}`);
  out.set(new out.constructor(M.HEAPU8.buffer, po, out.length));
  return out;
}

/** Run select kernel `index` (test hook): out[i] = mask[i] ? x[i] : y[i] over n elements (Uint8Array views of the bytes). */
export function runSelectKernel(index, mask, x, y, out, n) {
  const M = mod();
  const pm = slot(0, Math.max(mask.byteLength, 1));
  const px = slot(1, Math.max(x.byteLength, 1));
  const py = slot(2, Math.max(y.byteLength, 1));
  const po = slot(3, Math.max(out.byteLength, 1));
  M.HEAPU8.set(mask, pm);
  M.HEAPU8.set(x, px);
  M.HEAPU8.set(y, py);
  if (M._tc_select_run(index, pm, px, py, po, n) !== 0) throw new RangeError(`no select kernel ${index}`);
  out.set(M.HEAPU8.subarray(po, po + out.byteLength));
  return out;
}

/** The unary kernels of this build: { index, name, dtype, op, simd } (test hook). */
export function unaryKernels() {
  return mod().unaryKernels();
}

/** The cast kernels of this build: { index, name, from, to, simd } (test hook). */
export function castKernels() {
  return mod().castKernels();
}

/** Run unary kernel `index` (test hook): out = op(input) over n elements; `inPlace` runs it with out at input's address. */
export function runUnaryKernel(index, input, out, n, inPlace = false) {
  return runOne(mod()._tc_unary_kernel_run, 'unary', index, input, out, n, inPlace);
}

/** Run cast kernel `index` (test hook): out = input converted, over n elements. */
export function runCastKernel(index, input, out, n) {
  return runOne(mod()._tc_cast_kernel_run, 'cast', index, input, out, n, false);
}

function runOne(run, what, index, input, out, n, inPlace) {
  const M = mod();
  const pi = slot(0, Math.max(input.byteLength, 1));
  const po = inPlace ? pi : slot(3, Math.max(out.byteLength, 1));
  M.HEAPU8.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength), pi);
  if (run(index, pi, po, n) !== 0) throw new RangeError(`no ${what} kernel ${index}`);
  out.set(new out.constructor(M.HEAPU8.buffer, po, out.length));
  return out;
}

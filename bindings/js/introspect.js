// What the engine holds and which kernels it has: memory(), the kernel
// registries (read from the module's memory: tc_listing() in
// bindings/wasm/contract.cpp for kernels(); the other registries and the hooks
// the kernel sweeps run them through are the test build's,
// bindings/wasm/test_hooks.cpp).
import { mod, cString } from './loader.js';
import { liveTensorCount } from './tensor.js';
import { none } from './contract.js';
import { slot, scratchInUse, releaseScratch } from './execute.js';

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

/**
 * Registry `which` as [{ index, name, ...fields, simd }], read through `list`:
 * 0 (the element-wise kernels) from tc_listing(), the others from
 * tc_test_listing() (testListing(): the test build, tensorcast-full.wasm; the
 * shipped module has none, and the page carries no word of it). Each
 * record is five uint32: the name's address, three fields, 1 for SIMD; `fields`
 * names the fields in order, a name starting with '#' being a number (select's
 * width) and any other the address of a name. Names repeat (every kernel of
 * a dtype names it), so each address is decoded once.
 */
function listing(which, fields, list = mod()._tc_listing) {
  const M = mod();
  const n = list(which, 0, 0);
  const p = slot(0, Math.max(n * 20, 1));
  list(which, p, n);
  const r = M.HEAPU32.slice(p >>> 2, (p >>> 2) + n * 5); // copied: decoding allocates nothing in wasm, but stay independent of the slot
  const names = new Map(none);
  const name = (q) => {
    let t = names.get(q);
    if (t === undefined) names.set(q, (t = cString(M, q, 'kernel name')));
    return t;
  };
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const o = { index: i, name: name(r[i * 5]) };
    fields.forEach((f, k) => {
      const v = r[i * 5 + 1 + k];
      if (f[0] === '#') o[f.slice(1)] = v;
      else o[f] = name(v);
    });
    o.simd = r[i * 5 + 4] !== 0;
    out[i] = o;
  }
  return out;
}

/** Registry `which` of the test build's tc_test_listing() (test hooks). */
function testListing(which, fields) {
  const list = mod()._tc_test_listing;
  if (!list || !(list(which, 0, 0) >= 0)) throw new Error(`tensorcast: the engine has no kernel listing ${which} (the test build, tensorcast-full.wasm, lists them all)`);
  return listing(which, fields, list);
}

/** Every element-wise kernel in this build: { index, name, dtype, op, form, simd }. */
export function kernels() {
  return listing(0, ['dtype', 'op', 'form']);
}

/** The select (where) kernels of this build: { index, name, width (bytes), form, simd } (test hook). */
export function selectKernels() {
  return testListing(1, ['#width', 'form']);
}

/** The reduction kernels of this build: { index, name, dtype, op, shape (row | col), simd } (test hook). */
export function reduceKernels() {
  return testListing(2, ['dtype', 'op', 'shape']);
}

/** Run registry kernel `index` on typed arrays (test hook; the test build only, tensorcast-full.wasm): out = a (op) b over n elements. */
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
  return testListing(3, ['dtype', 'op']);
}

/** The cast kernels of this build: { index, name, from, to, simd } (test hook). */
export function castKernels() {
  return testListing(4, ['from', 'to']);
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

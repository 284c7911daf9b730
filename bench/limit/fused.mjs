// The fused-expression limit (bench/limit/fused.cpp) from JS, the same in Node
// and in a page: instantiate the compiled module, copy operands into its own
// memory once, and call a loop. Environment-neutral.

/**
 * Instantiate the compiled fused.wasm (a WebAssembly.Module), asynchronously:
 * a page may not instantiate a module over 4 KB synchronously on its main thread.
 */
export async function instantiateLimit(module) {
  const inst = await WebAssembly.instantiate(module, {});
  if (typeof inst.exports._initialize === 'function') inst.exports._initialize();
  return inst;
}

/**
 * Helpers over an instance of fused.wasm (from instantiateLimit): the
 * allocations of the caller are forgotten first.
 * Returns { put(f32) -> ptr, zeros(n) -> ptr, read(ptr, n) -> Float32Array copy, exports }.
 */
export function fusedLimit(instance) {
  const ex = instance.exports;
  ex.reset();
  const alloc = (bytes) => {
    const p = ex.alloc(bytes);
    if (!p) throw new Error(`fused limit: could not allocate ${bytes} bytes`);
    return p;
  };
  return {
    exports: ex,
    put(data) {
      const p = alloc(data.byteLength);
      new Float32Array(ex.memory.buffer, p, data.length).set(data);
      return p;
    },
    zeros(n) {
      const p = alloc(n * 4);
      new Float32Array(ex.memory.buffer, p, n).fill(0);
      return p;
    },
    read(p, n) {
      return new Float32Array(ex.memory.buffer, p, n).slice();
    },
  };
}

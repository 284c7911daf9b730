// For the child processes that fill WebAssembly memory (heap-2g-child.mjs,
// heap-reserve-child.mjs): memory filled with the library's own blocks, the
// largest first, halving down to 1 byte, without writing them (4 GB is
// filled in seconds). `M` is the module (loader.js mod()). Returns the
// blocks' addresses, for M._tc_free.
export function fillMemory(M) {
  const blocks = [];
  for (let size = 2 ** 30; size >= 1; size /= 2) {
    for (;;) {
      const p = M._tc_malloc(size) >>> 0;
      if (p === 0) break;
      blocks.push(p);
    }
  }
  return blocks;
}

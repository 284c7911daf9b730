// Where the engine's generated code runs. The engine writes a small wasm
// module per expression program and loop form (src/expr/wasmgen.cpp) and asks
// JS, through two imports (bindings/wasm/expr_call.cpp), to compile it once
// and to run it. The module imports the engine's own memory, so it reads the
// operands and writes the result in place: JS moves no data. Compiling needs
// what loading the engine needs already (CSP 'wasm-unsafe-eval'); no JS is
// generated, and `new Function` is never used.

/** A fresh store of compiled modules for one engine instance (loader.js install()). */
export function generatedCode() {
  const runs = [];
  const stats = { modules: 0, bytes: 0, compileMs: 0, refused: 0, streamed: 0, chunks: 0 }; // streamed, chunks: execute.js streamed()
  return {
    stats,
    /** Compile module `id` from its bytes; false when the runtime refuses it (the engine then interprets). */
    compile(id, bytes, memory) {
      const t0 = typeof performance !== 'undefined' ? performance.now() : 0;
      try {
        const m = new WebAssembly.Module(bytes);
        const inst = new WebAssembly.Instance(m, { env: { memory } });
        runs[id] = inst.exports.run;
      } catch {
        stats.refused++;
        return false;
      }
      stats.modules++;
      stats.bytes += bytes.length;
      if (typeof performance !== 'undefined') stats.compileMs += performance.now() - t0;
      return true;
    },
    run(id, desc) {
      runs[id](desc);
    },
    /** Module `id`'s run function (execute.js runExpr calls it itself for a repeated run). */
    fn(id) {
      return runs[id];
    },
  };
}

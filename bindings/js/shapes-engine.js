// The engine of tensorcast/shapes: the rules without the kernels
// (tensorcast-shapes.wasm, CMakeLists.txt's tensorcast_shapes_wasm). Put in
// engine.js's place when the shapes bundles are built (scripts/entries.mjs);
// see engine.js.

// As in engine.js.
export const FULL = false;
export const FILE = 'tensorcast-shapes.wasm';

export const ENGINE = Object.freeze({
  build: 'shapes',
  file: FILE,
  url: () => new URL('./tensorcast-shapes.wasm', import.meta.url),
  exports: ['__wasm_call_ctors', 'tc_contract', 'tc_version', 'tc_request', 'tc_call', 'tc_shapes_only'],
});

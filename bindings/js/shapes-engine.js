// The engine of tensorcast/shapes: the rules without the kernels (the glue
// tensorcast-shapes.mjs and tensorcast-shapes.wasm, CMakeLists.txt's
// tensorcast_shapes_wasm). Put in engine.js's place when the shapes bundles
// are built (scripts/entries.mjs); see engine.js.
import create from './tensorcast-shapes.mjs';

export const ENGINE = Object.freeze({
  build: 'shapes',
  create,
  file: 'tensorcast-shapes.wasm',
  url: () => new URL('./tensorcast-shapes.wasm', import.meta.url),
});

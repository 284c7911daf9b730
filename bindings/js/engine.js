// Which engine this copy of the API loads: the full build (the Emscripten glue
// tensorcast.mjs and tensorcast.wasm beside it). The tensorcast/shapes bundles
// are built with shapes-engine.js in this file's place (scripts/entries.mjs),
// so both entries share every other module and each loads its own engine.
import create from './tensorcast.mjs';

/** The build loader.js checks a module's contract against, its glue, and its .wasm. */
export const ENGINE = Object.freeze({
  build: 'full',
  create,
  file: 'tensorcast.wasm',
  // A literal new URL(..., import.meta.url): bundlers see it and ship the file.
  url: () => new URL('./tensorcast.wasm', import.meta.url),
});

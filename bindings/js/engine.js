// Which engine this copy of the API loads: the full build (tensorcast.wasm,
// with the kernels). The tensorcast/shapes bundles are built with
// shapes-engine.js in this file's place (scripts/entries.mjs), so both entries
// share every other module and each loads its own engine.

// FULL and FILE are ENGINE's build and file as constants of their own: a minifier
// folds them into what loader.js says and drops what only the other build says.
export const FULL = true;
export const FILE = 'tensorcast.wasm';

/** The build loader.js checks a module's contract against, its .wasm, and the exports its JS calls. */
export const ENGINE = Object.freeze({
  build: 'full',
  file: FILE,
  // A literal new URL(..., import.meta.url): bundlers see it and ship the file.
  url: () => new URL('./tensorcast.wasm', import.meta.url),
  exports: ['__wasm_call_ctors', 'tc_contract', 'tc_version', 'tc_request', 'tc_call', 'tc_malloc', 'tc_free', 'tc_rerun_binary'],
});

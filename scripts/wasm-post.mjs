// The post-link step of both modules (CMakeLists.txt), in place:
//   node scripts/wasm-post.mjs <module.wasm>
// 0. Binaryen's -Oz once more (wasm-opt, Emscripten's own): emcc's last steps
//    after its optimiser (dropping unused exports and imports) leave code that
//    one more round removes (the engine 0.15 KB smaller gzipped); a module
//    that has names (a --profiling-funcs build) keeps them;
// 1. nearby data segments joined (scripts/wasm-data.mjs);
// 2. functions laid out for gzip (scripts/wasm-order.mjs);
// 3. each v128 constant used more than once moved into an immutable global
//    (scripts/wasm-consts.mjs: a load where an engine rebuilt the constant at
//    each use; after step 0, whose optimiser would fold them back);
// 4. the target_features section dropped: it tells linkers and wasm-opt which
//    features the code uses (step 0 names them itself), no engine reads it
//    (81 bytes of the gzipped engine).
// Each result must validate; a module a step does not read stays as it was.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { joinDataSegments, uleb, wasmSections } from './wasm-data.mjs';
import { reorderFunctions } from './wasm-order.mjs';
import { globalizeConstants } from './wasm-consts.mjs';

const file = process.argv[2];
const features = ['--enable-simd', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals'];
// A custom section's name: its first bytes (a length, then the name).
const customName = (b, start) => { const [n, i] = uleb(b, start); return b.subarray(i, i + n).toString(); };
const linked = readFileSync(file);
const named = wasmSections(linked).some(({ id, start }) => id === 0 && customName(linked, start) === 'name');
const opt = spawnSync('wasm-opt', [...features, '-Oz', ...(named ? ['--debuginfo'] : []), file, '-o', file], { encoding: 'utf8' });
if (opt.error || opt.status !== 0) console.warn(`${file}: wasm-opt -Oz did not run (${opt.error?.message ?? opt.stderr.trim()}); the module stays as emcc linked it`);
let bytes = readFileSync(file);
const joined = joinDataSegments(bytes);
if (joined !== null) {
  if (!WebAssembly.validate(joined)) throw new Error(`${file}: the module with joined data segments does not validate`);
  bytes = joined;
}
const ordered = reorderFunctions(bytes);
if (ordered === null) {
  console.warn(`${file}: scripts/wasm-order.mjs does not read this module; its functions keep the linker's order`);
} else {
  if (!WebAssembly.validate(ordered)) throw new Error(`${file}: the module with its functions reordered does not validate`);
  bytes = ordered;
}
const globalized = globalizeConstants(bytes);
if (globalized !== null) {
  if (!WebAssembly.validate(globalized)) throw new Error(`${file}: the module with its constants in globals does not validate`);
  bytes = globalized;
}
const targetFeatures = wasmSections(bytes).find(({ id, start }) => id === 0 && customName(bytes, start) === 'target_features');
if (targetFeatures) {
  const dropped = Buffer.concat([bytes.subarray(0, targetFeatures.from), bytes.subarray(targetFeatures.end)]);
  if (!WebAssembly.validate(dropped)) throw new Error(`${file}: the module without its target_features section does not validate`);
  bytes = dropped;
}
writeFileSync(file, bytes);

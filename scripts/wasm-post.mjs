// The post-link step of both modules (CMakeLists.txt), in place:
//   node scripts/wasm-post.mjs <module.wasm>
// 1. nearby data segments joined (scripts/wasm-data.mjs);
// 2. functions laid out for gzip (scripts/wasm-order.mjs).
// Each result must validate; a module a step does not read stays as it was.
import { readFileSync, writeFileSync } from 'node:fs';
import { joinDataSegments } from './wasm-data.mjs';
import { reorderFunctions } from './wasm-order.mjs';

const file = process.argv[2];
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
writeFileSync(file, bytes);

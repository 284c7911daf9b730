// Build bench/limit/fused.cpp (the fused-expression limit, issue 22) into a
// stand-alone wasm module with em++ (Debian's Emscripten):
//   em++ -O3 -msimd128 -mbulk-memory -ffp-contract=off -sSTANDALONE_WASM --no-entry
// No imports; it exports its own memory, a bump allocator and the loops.
//   node bench/limit/build.mjs [dir]     prints the directory holding fused.wasm
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE = path.join(here, 'fused.cpp');
export const EXPORTS = ['alloc', 'reset', 'chain_a_inner', 'chain_a_plane', 'chain_b', 'contract', 'gemm', 'gemm_scratch_floats', 'bilinear', 'add', 'tadd'];

export function flags() {
  return [
    '-O3', '-msimd128', '-mbulk-memory', '-ffp-contract=off',
    '-sSTANDALONE_WASM', '--no-entry', '-sALLOW_MEMORY_GROWTH=1', '-sINITIAL_MEMORY=1MB', '-sTOTAL_STACK=64KB',
    `-sEXPORTED_FUNCTIONS=${EXPORTS.map((e) => `_${e}`).join(',')}`,
  ];
}

/** Build fused.wasm into `dir` (made if missing); returns dir. Throws if em++ is missing or fails. */
export function build(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tensorcast-limit-'))) {
  fs.mkdirSync(dir, { recursive: true });
  const args = [...flags(), SOURCE, '-o', path.join(dir, 'fused.wasm')];
  // Debian's emscripten runs its JS optimiser (at -O2 and above) with the system node, which needs Debian's node modules.
  const r = spawnSync('em++', args, { encoding: 'utf8', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
  if (r.error) throw new Error(`em++ did not run: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`em++ ${args.join(' ')} exited with ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' / ')}`);
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(build(process.argv[2] ? path.resolve(process.argv[2]) : undefined));
}

// Build bench/boundary/measure.cpp twice with em++, into `dir`:
//   measure-de0.{mjs,wasm}  -sDYNAMIC_EXECUTION=0, as tensorcast ships (CSP-safe:
//                           embind's invokers are generic closures)
//   measure-de1.{mjs,wasm}  -sDYNAMIC_EXECUTION=1 (embind writes each invoker
//                           with new Function), for reference
// The other flags are tensorcast's link flags (CMakeLists.txt) that matter for
// a call: -O3, --bind, ES6 module, web/worker, emmalloc, TEXTDECODER=2.
//   node bench/boundary/build.mjs [dir]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE = path.join(here, 'measure.cpp');

export function flags(de) {
  return [
    '-O3', '--bind', '-mbulk-memory',
    '-sMODULARIZE=1', '-sEXPORT_ES6=1', '-sEXPORT_NAME=createMeasure',
    '-sENVIRONMENT=web,worker', `-sDYNAMIC_EXECUTION=${de}`, '-sFILESYSTEM=0',
    '-sALLOW_MEMORY_GROWTH=1', '-sMALLOC=emmalloc',
    '-sEXPORTED_RUNTIME_METHODS=[]', '-sINCOMING_MODULE_JS_API=[wasmBinary,instantiateWasm,locateFile]',
    '-sTEXTDECODER=2',
  ];
}

/** Build both variants into `dir` (made if missing); returns dir. */
export function build(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tensorcast-boundary-'))) {
  fs.mkdirSync(dir, { recursive: true });
  for (const de of [0, 1]) {
    const out = path.join(dir, `measure-de${de}.mjs`);
    const args = [...flags(de), SOURCE, '-o', out];
    // Debian's emscripten runs its JS optimiser with the system node, which needs Debian's node modules.
    const r = spawnSync('em++', args, { stdio: 'inherit', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`em++ ${args.join(' ')} exited with ${r.status}`);
  }
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(build(process.argv[2] ? path.resolve(process.argv[2]) : undefined));
}

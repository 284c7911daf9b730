// The embind-vs-raw cases in a fresh Node process:
//   node bench/boundary/node-child.mjs <build dir> [--quick]
// prints one JSON line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { instantiate, runBoundary } from './cases.mjs';
import { clockStep } from '../lib/wall.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [dir, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');

async function load(mjs, wasm) {
  const factory = (await import(pathToFileURL(mjs).href)).default;
  return instantiate(factory, await WebAssembly.compile(fs.readFileSync(wasm)));
}
const de0 = await load(path.join(dir, 'measure-de0.mjs'), path.join(dir, 'measure-de0.wasm'));
const de1 = await load(path.join(dir, 'measure-de1.mjs'), path.join(dir, 'measure-de1.wasm'));
// tensorcast's own module, as the library loads it (its loader, not Emscripten glue: the engine has none).
const dist = path.join(here, '..', '..', 'dist');
const loader = await import(pathToFileURL(path.join(dist, 'loader.js')).href);
loader.initSync({ wasmBinary: fs.readFileSync(path.join(dist, 'tensorcast.wasm')) });
const real = loader.mod();

const r = await runBoundary({ de0, de1, real }, quick ? { runs: 7, warmupMs: 40 } : {});
r.env = { name: 'Node', version: process.version, clockStepMs: clockStep() };
process.stdout.write(JSON.stringify(r) + '\n');
process.exit(0);

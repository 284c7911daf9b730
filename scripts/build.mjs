// Build the WebAssembly module with CMake + Emscripten, and lay out dist/:
// both engines' .wasm (no Emscripten glue: loader.js is their host), the JS
// API with its types, and the broadcast
// explorer (dist/explorer/, the static page `npx tensorcast explore` serves).
import { cpSync, mkdirSync, readdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { root, run, ensureEmscripten, emEnv, isMain } from './lib.mjs';
import { entries } from './entries.mjs';

export function build({ quiet = false } = {}) {
  ensureEmscripten();
  const bdir = path.join(root, 'build', 'wasm');
  if (!existsSync(path.join(bdir, 'CMakeCache.txt'))) {
    run('emcmake', ['cmake', '-S', root, '-B', bdir, '-DCMAKE_BUILD_TYPE=Release'], { env: emEnv, stdio: quiet ? 'ignore' : 'inherit' });
  }
  run('cmake', ['--build', bdir, '-j2'], { env: emEnv });
  const dist = path.join(root, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  // Both modules (one CMake build, the rule objects compiled once per module):
  // the full engine, and tensorcast/shapes' (the rules without the kernels).
  for (const f of ['tensorcast.wasm', 'tensorcast-shapes.wasm']) cpSync(path.join(bdir, f), path.join(dist, f));
  const js = path.join(root, 'bindings', 'js');
  for (const f of readdirSync(js)) if (/\.(js|d\.ts)$/.test(f)) cpSync(path.join(js, f), path.join(dist, f));
  entries(dist); // tensorcast/inline, the CommonJS builds and their .d.cts (scripts/entries.mjs)
  // The page bundles the library just laid out (Vite, about a second). In a
  // child process, so that build() stays synchronous for its callers.
  run(process.execPath, [path.join(root, 'scripts', 'web.mjs'), path.join(dist, 'explorer')]);
  console.log('built dist/');
}

if (isMain(import.meta.url)) build();

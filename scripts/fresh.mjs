// Is a build output up to date? `npm start` reuses dist/ and the page build
// when every output file is newer than every input file (mtimes), instead of
// running Emscripten and Vite again.
//
//   import { isFresh, startPlan } from './fresh.mjs';
//   isFresh({ inputs: ['src', 'bindings'], outputs: ['dist'], required: ['dist/index.js'] })
import { statSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { root as repoRoot } from './lib.mjs';

/** Every file under `p` (a file or a directory), skipping names `skip` matches. */
export function listFiles(p, skip = () => false) {
  if (!existsSync(p)) return [];
  const st = statSync(p);
  if (!st.isDirectory()) return skip(p) ? [] : [p];
  const out = [];
  for (const e of readdirSync(p, { withFileTypes: true })) {
    const f = path.join(p, e.name);
    if (skip(f)) continue;
    if (e.isDirectory()) out.push(...listFiles(f, skip));
    else if (e.isFile()) out.push(f);
  }
  return out;
}

/**
 * Whether the outputs are up to date: every `required` file exists, the
 * outputs hold at least one file, and the oldest output file is at least as
 * new as the newest input file. Paths are relative to `root`.
 * @returns {{fresh: boolean, reason: string}}
 */
export function checkFresh({ inputs, outputs, required = [], skip = () => false, root = repoRoot }) {
  const abs = (p) => path.resolve(root, p);
  const missing = required.filter((f) => !existsSync(abs(f)));
  if (missing.length) return { fresh: false, reason: `${missing.join(', ')} missing` };
  const outFiles = outputs.flatMap((p) => listFiles(abs(p)));
  if (!outFiles.length) return { fresh: false, reason: `${outputs.join(', ')} empty` };
  let oldest = Infinity;
  for (const f of outFiles) oldest = Math.min(oldest, statSync(f).mtimeMs);
  let newest = -Infinity;
  let newestFile = null;
  for (const f of inputs.flatMap((p) => listFiles(abs(p), skip))) {
    const m = statSync(f).mtimeMs;
    if (m > newest) { newest = m; newestFile = f; }
  }
  if (newest > oldest) return { fresh: false, reason: `${path.relative(root, newestFile)} is newer than ${outputs.join(', ')}` };
  return { fresh: true, reason: `${outputs.join(', ')} newer than ${inputs.join(', ')}` };
}

export function isFresh(spec) {
  return checkFresh(spec).fresh;
}

// What `npm start` builds, and from what. The version is read from package.json
// into the engine (CMakeLists.txt), so package.json is an input of dist/.
export const LIB = {
  inputs: ['src', 'bindings', 'CMakeLists.txt', 'package.json', 'scripts/build.mjs', 'scripts/entries.mjs', 'scripts/wasm-post.mjs', 'scripts/wasm-data.mjs', 'scripts/wasm-order.mjs'],
  outputs: ['dist'],
  required: ['dist/index.js', 'dist/node.js', 'dist/tensorcast.wasm', 'dist/tensorcast-shapes.js', 'dist/tensorcast-shapes.wasm'],
};
// The page (dist/explorer) is built from web/ and the library in dist/ (not from itself).
export const WEB = {
  inputs: ['web', 'dist'],
  outputs: ['dist/explorer'],
  required: ['dist/explorer/index.html'],
  // The page's unit tests are not part of it, and dist/explorer is its output.
  skip: (f) => /\.test\.js$/.test(f) || /(^|[\\/])dist[\\/]explorer$/.test(f),
};

/**
 * What `npm start` must do: rebuild the library, the page, both or neither.
 * The page depends on dist/, so a library rebuild always rebuilds the page.
 * @returns {{lib: {fresh: boolean, reason: string}, web: {fresh: boolean, reason: string}}}
 */
export function startPlan({ root = repoRoot, force = false } = {}) {
  const lib = force ? { fresh: false, reason: 'rebuild asked for' } : checkFresh({ ...LIB, root });
  const web = force || !lib.fresh ? { fresh: false, reason: force ? 'rebuild asked for' : 'dist/ is rebuilt' } : checkFresh({ ...WEB, root });
  return { lib, web };
}

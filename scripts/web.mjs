// Bundle the broadcast explorer (web/index.html) and the model explorer
// (web/model.html) with Vite into a static folder: by
// default dist/explorer, the page that ships in the npm package (served by
// `npx tensorcast explore` and `npm start`). The page imports the library from
// dist/, so dist/ must be built first (scripts/build.mjs runs this after it).
//
//   import { buildWeb } from './web.mjs';  await buildWeb(outDir);
//   node scripts/web.mjs [outDir]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './lib.mjs';

export const EXPLORER_OUT = path.join(root, 'dist', 'explorer');

/** Bundle web/ into `outDir` (default dist/explorer) with Vite's JS API; returns `outDir`. */
export async function buildWeb(outDir = EXPLORER_OUT) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    configFile: path.join(root, 'web', 'vite.config.js'),
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
  // The model explorer (model.html), into the same folder: its own bundle, on tensorcast/model.
  await viteBuild({
    configFile: path.join(root, 'web', 'vite.model.config.js'),
    build: { outDir, emptyOutDir: false },
    logLevel: 'warn',
  });
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? EXPLORER_OUT);
  await buildWeb(out);
  console.log(`built the explorer into ${path.relative(root, out) || '.'}/`);
}

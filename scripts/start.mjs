// `npm start`: build the library (dist/), bundle the broadcast explorer with
// Vite into build/web, and serve it on 127.0.0.1 ($PORT or 8080).
import path from 'node:path';
import { root, ensureNodeModules } from './lib.mjs';
import { build } from './build.mjs';
import { serve } from './serve.mjs';

/** Bundle web/ into `outDir` (default build/web) with Vite's JS API. */
export async function buildWeb(outDir = path.join(root, 'build', 'web')) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    configFile: path.join(root, 'web', 'vite.config.js'),
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
  return outDir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNodeModules();
  build();
  const out = await buildWeb();
  console.log(`built the explorer into ${path.relative(root, out)}/`);
  const port = Number(process.env.PORT ?? 8080);
  const { url } = await serve(out, port);
  console.log(`broadcast explorer: ${url}`);
}

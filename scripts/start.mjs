// `npm start`: build the library (dist/) and bundle the broadcast explorer
// with Vite into build/web — each only when its inputs changed since the last
// build (scripts/fresh.mjs compares mtimes) — and serve it on 127.0.0.1
// ($PORT or 8080). `npm start -- --rebuild` (or TENSORCAST_REBUILD=1) always
// rebuilds both.
import path from 'node:path';
import { root, ensureNodeModules } from './lib.mjs';
import { serve } from './serve.mjs';
import { startPlan } from './fresh.mjs';

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
  const force = process.argv.includes('--rebuild') || Boolean(process.env.TENSORCAST_REBUILD);
  const plan = startPlan({ force });
  if (plan.lib.fresh) {
    console.log(`dist/ is up to date (${plan.lib.reason}): not rebuilding it`);
  } else {
    console.log(`building dist/ (${plan.lib.reason})`);
    const { build } = await import('./build.mjs');
    build();
  }
  const out = path.join(root, 'build', 'web');
  if (plan.web.fresh) {
    console.log(`build/web is up to date (${plan.web.reason}): not rebuilding the explorer`);
  } else {
    await buildWeb(out);
    console.log(`built the explorer into ${path.relative(root, out)}/`);
  }
  const port = Number(process.env.PORT ?? 8080);
  const { url } = await serve(out, port);
  console.log(`broadcast explorer: ${url}`);
}

// `npm start`: build the library (dist/) and the broadcast explorer
// (dist/explorer, the page that ships in the npm package) — each only when its
// inputs changed since the last build (scripts/fresh.mjs compares mtimes) —
// and serve the page on 127.0.0.1 ($PORT or 8080) with bin/serve.mjs, the
// server `npx tensorcast explore` uses. `npm start -- --rebuild` (or
// TENSORCAST_REBUILD=1) always rebuilds both. Whatever it installs (npm
// packages, Debian's emscripten) it names before installing; without apt-get
// it prints the manual steps and exits 1 (scripts/lib.mjs).
import path from 'node:path';
import { root, ensureNodeModules, isMain } from './lib.mjs';
import { serve, listenErrorMessage } from '../bin/serve.mjs';
import { startPlan } from './fresh.mjs';
import { buildWeb, EXPLORER_OUT } from './web.mjs';

export { buildWeb };

if (isMain(import.meta.url)) {
  const portText = String(process.env.PORT ?? 8080).trim();
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    console.error(`npm start: PORT must be a port number from 0 to 65535 (0: any free port), not "${process.env.PORT}"`);
    process.exit(1);
  }
  ensureNodeModules();
  const force = process.argv.includes('--rebuild') || Boolean(process.env.TENSORCAST_REBUILD);
  const plan = startPlan({ force });
  const out = EXPLORER_OUT;
  if (!plan.lib.fresh) {
    console.log(`building dist/ and the explorer (${plan.lib.reason})`);
    const { build } = await import('./build.mjs');
    build(); // the page too, into dist/explorer
  } else {
    console.log(`dist/ is up to date (${plan.lib.reason}): not rebuilding it`);
    if (plan.web.fresh) {
      console.log(`${path.relative(root, out)} is up to date (${plan.web.reason}): not rebuilding the explorer`);
    } else {
      console.log(`building the explorer (${plan.web.reason})`);
      await buildWeb(out);
      console.log(`built the explorer into ${path.relative(root, out)}/`);
    }
  }
  try {
    const { url } = await serve(out, port);
    console.log(`broadcast explorer: ${url}`);
  } catch (e) {
    console.error(`npm start: ${listenErrorMessage(e, '127.0.0.1', port, 'run PORT=N npm start for another port, or PORT=0 npm start for any free one')}`);
    process.exit(1);
  }
}

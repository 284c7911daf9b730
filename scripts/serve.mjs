// The explorer's static server lives in bin/serve.mjs (it ships in the npm
// package, for `npx tensorcast explore`); this re-exports it for the scripts,
// tests and benchmarks, and serves a folder from the command line:
//
//   node scripts/serve.mjs [dir] [port]     (dir: dist/explorer; port: $PORT or 8080)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, listenErrorMessage } from '../bin/serve.mjs';

export * from '../bin/serve.mjs';

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dir = process.argv[2] || path.join(here, '..', 'dist', 'explorer');
  const port = Number(process.argv[3] ?? process.env.PORT ?? 8080);
  try {
    const { url } = await serve(dir, port);
    console.log(`serving ${path.resolve(dir)} at ${url}`);
  } catch (e) {
    console.error(`scripts/serve.mjs: ${listenErrorMessage(e, '127.0.0.1', port, 'name another port as the second argument (0 for any free port)')}`);
    process.exit(1);
  }
}

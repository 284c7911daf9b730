// The tarball users get: pack it, install it into an empty project, import it
// from Node (ESM), bundle it with Vite (the installed package, resolved by
// name), and check it holds only what it needs.
import { mkdtempSync, writeFileSync, rmSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, capture } from './lib.mjs';

function fail(msg) {
  console.error(`pack-smoke: ${msg}`);
  process.exit(1);
}

const dir = mkdtempSync(path.join(tmpdir(), 'tensorcast-pack-'));
try {
  const packed = capture('npm', ['pack', '--json', '--pack-destination', dir]);
  if (packed.status !== 0) fail(packed.stderr);
  const info = JSON.parse(packed.stdout)[0];
  const files = info.files.map((f) => f.path);
  for (const need of ['dist/node.js', 'dist/index.js', 'dist/index.d.ts', 'dist/tensorcast.mjs', 'dist/tensorcast.wasm', 'package.json', 'README.md']) {
    if (!files.includes(need)) fail(`tarball lacks ${need}`);
  }
  const stray = files.filter((f) => /^(tests|src|bench|build|web|scripts|bindings)\//.test(f));
  if (stray.length) fail(`tarball carries files users do not need: ${stray.join(', ')}`);
  const app = path.join(dir, 'app');
  capture('mkdir', ['-p', app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'smoke', version: '1.0.0', type: 'module', private: true }));
  const inst = capture('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(dir, info.filename)], { cwd: app });
  if (inst.status !== 0) fail(inst.stderr);
  writeFileSync(path.join(app, 'main.js'), `
import { init, broadcastShapes, BroadcastError } from 'tensorcast';
await init();
const s = broadcastShapes([8, 1, 6, 1], [7, 1, 5]);
if (JSON.stringify(s) !== '[8,7,6,5]') throw new Error('wrong shape ' + JSON.stringify(s));
try { broadcastShapes([3], [4]); throw new Error('no error'); } catch (e) { if (!(e instanceof BroadcastError) || e.code !== 'INCOMPATIBLE_DIMS') throw e; }
console.log('pack-smoke: installed tarball imports and computes', JSON.stringify(s));
`);
  const r = capture('node', ['main.js'], { cwd: app });
  process.stdout.write(r.stdout);
  if (r.status !== 0) fail(r.stderr);
  // A browser app bundled by Vite from the installed package: the wasm must be
  // emitted as an asset and referenced by the bundle (new URL(..., import.meta.url)).
  writeFileSync(path.join(app, 'index.html'), '<!doctype html><script type="module" src="./web.js"></script>');
  writeFileSync(path.join(app, 'web.js'), `import { init, broadcastShapes, add } from 'tensorcast';
await init();
document.title = JSON.stringify([broadcastShapes([2, 1], [3]), Array.from(add({ data: Float32Array.of(1, 2) }, 1).data)]);
`);
  const { build } = await import('vite');
  await build({
    root: app, base: './', logLevel: 'warn', configFile: false,
    build: { outDir: path.join(app, 'out'), emptyOutDir: true, target: 'es2022' },
  });
  const assets = readdirSync(path.join(app, 'out', 'assets'));
  const wasm = assets.find((f) => f.endsWith('.wasm'));
  const js = assets.filter((f) => f.endsWith('.js'));
  if (!wasm) fail(`the Vite build emitted no .wasm asset (${assets.join(', ')})`);
  if (!js.some((f) => readFileSync(path.join(app, 'out', 'assets', f), 'utf8').includes(wasm))) fail(`no bundle references ${wasm}`);
  if (js.some((f) => readFileSync(path.join(app, 'out', 'assets', f), 'utf8').includes(root))) fail('the bundle holds a path of the build machine');
  console.log(`pack-smoke: Vite bundled the installed package: ${assets.join(', ')}`);
  console.log(`pack-smoke: ${files.length} files, ${info.size} bytes packed`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The package outside Node: its browser entry loaded as plain ESM in Chromium
// (the glue finds tensorcast.wasm beside itself), inside a module Worker (given
// a compiled WebAssembly.Module), and bundled by Vite — all under a CSP with no
// 'unsafe-eval'. tensorcast/shapes too: as plain ESM beside the full entry in one page,
// and bundled by Vite by its package name.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, packageSite } from './chromium.js';
import { build as viteBuild } from 'vite';
import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = path.join(root, 'build', 'package-site');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'";

const page = (script) => `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>pending</title><script type="module" src="./${script}"></script></head><body></body></html>`;

// Runs in the browser: the result lands in document.title.
const mainJs = `import { init, broadcastShapes, broadcastToShape, BroadcastError } from './pkg/index.js';
await init();
let code = '';
try { broadcastShapes([3], [4]); } catch (e) { code = e instanceof BroadcastError ? e.code : 'wrong:' + e; }
document.title = JSON.stringify({ a: broadcastShapes([8, 1, 6, 1], [7, 1, 5]), b: broadcastToShape([3, 1, 5, 1], [-1, -1, 5, 6]), code });
`;
const workerHostJs = `const mod = await WebAssembly.compileStreaming(fetch('./pkg/tensorcast.wasm'));
const w = new Worker('./worker.js', { type: 'module' });
w.onmessage = (e) => { document.title = JSON.stringify(e.data); };
w.onerror = (e) => { document.title = 'worker error: ' + e.message; };
w.postMessage(mod);
`;
const workerJs = `import { init, broadcastShapes } from './pkg/index.js';
self.onmessage = async (e) => {
  await init({ module: e.data });
  self.postMessage({ a: broadcastShapes([2, 1, 6], [3, 1]) });
};
`;
// tensorcast/shapes as plain ESM (its bundle finds tensorcast-shapes.wasm beside itself), next to the full
// entry in the same page: each loads its own engine, and they answer alike.
const shapesJs = `import * as shapes from './pkg/tensorcast-shapes.js';
import * as full from './pkg/index.js';
await shapes.init();
let code = '';
try { shapes.broadcastShapes([3], [4]); } catch (e) { code = e instanceof shapes.BroadcastError ? e.code + ': ' + e.message : 'wrong:' + e; }
const before = full.isReady();
await full.init();
let fullCode = '';
try { full.broadcastShapes([3], [4]); } catch (e) { fullCode = e.code + ': ' + e.message; }
const req = { rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 };
document.title = JSON.stringify({
  a: shapes.broadcastShapes([8, 1, 6, 1], [7, 1, 5]), axes: shapes.reductionAxes([3, 1], [2, 3, 5]),
  build: shapes.contract().build, before, code, same: code === fullCode,
  explain: JSON.stringify(shapes.explain(req)) === JSON.stringify(full.explain(req)),
  wasm: performance.getEntriesByType('resource').map((r) => r.name.split('/').pop()).filter((n) => n.endsWith('.wasm')).sort(),
});
`;
// tensorcast/shapes bundled by Vite, imported by its package name.
const viteShapesMain = `import { init, broadcastToShape, explain } from 'tensorcast/shapes';
await init();
document.title = JSON.stringify({ b: broadcastToShape([16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] }), ok: explain({ shapes: [[2, 1], [3]] }).ok });
`;
const viteMain = `import { init, broadcastShapes } from 'tensorcast';
await init();
document.title = JSON.stringify({ a: broadcastShapes([256, 256, 3], [3]) });
`;

let server;
let url;
let browser;

beforeAll(async () => {
  packageSite(site);
  writeFileSync(path.join(site, 'main.html'), page('main.js'));
  writeFileSync(path.join(site, 'main.js'), mainJs);
  writeFileSync(path.join(site, 'worker.html'), page('worker-host.js'));
  writeFileSync(path.join(site, 'worker-host.js'), workerHostJs);
  writeFileSync(path.join(site, 'worker.js'), workerJs);
  writeFileSync(path.join(site, 'shapes.html'), page('shapes.js'));
  writeFileSync(path.join(site, 'shapes.js'), shapesJs);
  // A Vite app that imports the package by name, as a user's bundle would.
  const app = path.join(root, 'build', 'package-vite-app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  writeFileSync(path.join(app, 'index.html'), page('main.js'));
  writeFileSync(path.join(app, 'main.js'), viteMain);
  await viteBuild({
    root: app, base: './', logLevel: 'error', configFile: false,
    resolve: { alias: { tensorcast: path.join(root, 'dist', 'index.js') } },
    build: { outDir: path.join(site, 'vite'), emptyOutDir: true, target: 'es2022' },
  });
  const shapesApp = path.join(root, 'build', 'package-vite-shapes-app');
  rmSync(shapesApp, { recursive: true, force: true });
  mkdirSync(shapesApp, { recursive: true });
  writeFileSync(path.join(shapesApp, 'index.html'), page('main.js'));
  writeFileSync(path.join(shapesApp, 'main.js'), viteShapesMain);
  await viteBuild({
    root: shapesApp, base: './', logLevel: 'error', configFile: false,
    resolve: { alias: { 'tensorcast/shapes': path.join(root, 'dist', 'tensorcast-shapes.js') } },
    build: { outDir: path.join(site, 'vite-shapes'), emptyOutDir: true, target: 'es2022' },
  });
  ({ server, url } = await serve(site, 0));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
});

async function titleOf(pathname) {
  const p = await browser.newPage();
  const problems = [];
  p.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  p.on('pageerror', (e) => problems.push(String(e)));
  await p.goto(new URL(pathname, url).href);
  await p.waitForFunction(() => document.title !== 'pending', null, { timeout: 20_000 });
  const t = await p.title();
  await p.close();
  return { title: t, problems };
}

describe('the package in a browser', () => {
  it('loads as plain ESM and finds its wasm beside the glue', async () => {
    const { title, problems } = await titleOf('/main.html');
    expect(problems).toEqual([]);
    expect(JSON.parse(title)).toEqual({ a: [8, 7, 6, 5], b: [3, 1, 5, 6], code: 'INCOMPATIBLE_DIMS' });
  });

  it('runs in a module Worker from a compiled WebAssembly.Module', async () => {
    const { title, problems } = await titleOf('/worker.html');
    expect(problems).toEqual([]);
    expect(JSON.parse(title)).toEqual({ a: [2, 3, 6] });
  });

  it('tensorcast/shapes loads as plain ESM beside the full entry: its own engine, the same answers', async () => {
    const { title, problems } = await titleOf('/shapes.html');
    expect(problems).toEqual([]);
    const r = JSON.parse(title);
    expect(r).toMatchObject({ a: [8, 7, 6, 5], axes: [0, 2], build: 'shapes', before: false, same: true, explain: true });
    expect(r.code).toMatch(/^INCOMPATIBLE_DIMS: /);
    expect(r.wasm).toEqual(['tensorcast-shapes.wasm', 'tensorcast.wasm']);
  });

  it('tensorcast/shapes bundles with Vite: only its own .wasm is emitted, and it runs', async () => {
    const assets = readdirSync(path.join(site, 'vite-shapes', 'assets'));
    expect(assets.filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/-[\w-]{8}\.wasm$/, '.wasm'))).toEqual(['tensorcast-shapes.wasm']);
    const { title, problems } = await titleOf('/vite-shapes/index.html');
    expect(problems).toEqual([]);
    expect(JSON.parse(title)).toEqual({ b: [1, 16, 50, 50], ok: true });
  });

  it('bundles with Vite, which emits the .wasm as an asset', async () => {
    const assets = readdirSync(path.join(site, 'vite', 'assets'));
    expect(assets.some((f) => f.endsWith('.wasm'))).toBe(true);
    const { title, problems } = await titleOf('/vite/index.html');
    expect(problems).toEqual([]);
    expect(JSON.parse(title)).toEqual({ a: [256, 256, 3] });
  });
});

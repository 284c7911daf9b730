// The tarball users get, used the ways users use it. `npm pack`, then install
// the .tgz into fresh temp projects and check, each as its own test:
//   - the tarball holds what it needs (LICENSE included) and nothing else;
//   - Node: ESM import, `tensorcast/inline`, a plain .cjs script (require + initSync),
//     `tensorcast/shapes` (import + init, require + initSync; its own .wasm only);
//   - Jest 30 in its default CommonJS mode: require('tensorcast') + initSync();
//   - the explorer: `npx tensorcast --help`, and `npx tensorcast explore --port 0`
//     on a PATH without Emscripten serving the page that ships in the tarball,
//     which computes in Chromium; the same folder hosted under a sub-path;
//   - the declarations: tsc --noEmit over tests/types/ probes under module
//     resolutions bundler, node16 and nodenext and a browser-only lib, with
//     TypeScript 7 and 5, and every runtime export declared;
//   - browsers: a small app bundled by Vite, webpack, esbuild and Rollup (the
//     default entry with the README recipe where the bundler does not copy the
//     .wasm; `tensorcast/inline` with none), run in Chromium over loopback,
//     checking the numbers it computes; a CommonJS app bundled for the browser
//     (require resolves to the inline build there); and the error a page gets
//     without the recipe.
// Vite, webpack, esbuild and TypeScript are the root's devDependencies (pinned in
// package-lock.json). Rollup and Jest cannot be: the registry this project
// uses lacks some of their platform packages, so `npm ci` would refuse the
// lock. They are installed, at pinned versions, into build/pack-smoke-tools
// (kept while the pins do not change; npm's cache serves a fresh machine's
// second run). Each tool runs against the temp projects, which hold only the tarball.
// Prints one line per check and closes with `pack-smoke: N passed, M failed`;
// exits non-zero on any failure.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readdirSync, readFileSync, cpSync, existsSync, symlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, capture } from './lib.mjs';
import { serve } from './serve.mjs';

const results = [];
const t0 = Date.now();
const secs = (t) => ((Date.now() - t) / 1000).toFixed(1);

/** Run one check: `fn` throws to fail, and may return a note to print. */
async function check(name, fn) {
  const t = Date.now();
  try {
    const note = await fn();
    results.push({ name, ok: true });
    console.log(`pack-smoke: ok   ${name} (${secs(t)} s)${note ? ` — ${note}` : ''}`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`pack-smoke: FAIL ${name} (${secs(t)} s)\n${String(e?.stack ?? e).split('\n').map((l) => `    ${l}`).join('\n')}`);
  }
}

function must(cond, msg) {
  if (!cond) throw new Error(msg);
}

/** Run a command; throw with its output unless it exits 0. */
function sh(cmd, args, opts = {}) {
  const r = capture(cmd, args, { timeout: 180_000, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}\n${r.stdout}\n${r.stderr}`.trim());
  return r.stdout;
}

const write = (file, text) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** A fresh project in `dir` with the tarball installed (no registry: the package has no dependencies). */
function project(dir, pkg) {
  write(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), version: '1.0.0', private: true, ...pkg }, null, 2));
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', '--no-package-lock', tarball], { cwd: dir });
  return dir;
}

const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);

// Rollup and Jest, at pinned versions, in a project of their own (see the top).
const TOOLS = { '@rollup/plugin-node-resolve': '16.0.3', jest: '30.5.2', rollup: '4.68.7' };
const toolsDir = path.join(root, 'build', 'pack-smoke-tools');
function installTools() {
  const want = JSON.stringify(TOOLS);
  const stamp = path.join(toolsDir, 'node_modules', '.pack-smoke-tools.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return 'already installed';
  rmSync(toolsDir, { recursive: true, force: true });
  write(path.join(toolsDir, 'package.json'), JSON.stringify({ name: 'pack-smoke-tools', private: true, devDependencies: TOOLS }, null, 2));
  sh('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline'], { cwd: toolsDir, timeout: 600_000 });
  writeFileSync(stamp, want);
  return 'installed now';
}
const toolRequire = createRequire(path.join(toolsDir, 'package.json'));

const work = mkdtempSync(path.join(tmpdir(), 'tensorcast-pack-'));
let tarball = '';
let files = [];
let browser = null;
try {
  // ---- the tarball --------------------------------------------------------------------
  // PACK_SMOKE_PACKAGE: pack another copy of the package (a staged dist/) instead of the repository.
  const packed = capture('npm', ['pack', '--json', '--pack-destination', work], { cwd: process.env.PACK_SMOKE_PACKAGE || root });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const info = JSON.parse(packed.stdout)[0];
  tarball = path.join(work, info.filename);
  files = info.files.map((f) => f.path);

  await check('tarball contents', () => {
    const need = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/broadcast-rules.md', 'docs/expressions.md', 'docs/explorer.md', 'docs/boundary.md',
      'dist/index.js', 'dist/node.js', 'dist/inline.js', 'dist/node.cjs', 'dist/inline.cjs', 'dist/tensorcast.wasm',
      'dist/index.d.ts', 'dist/data.d.ts', 'dist/inline.d.ts', 'dist/index.d.cts', 'dist/data.d.cts', 'dist/inline.d.cts', 'dist/wasm-url.d.ts',
      // tensorcast/shapes: its bundles (browser, Node, require), its engine and its declarations.
      'dist/tensorcast-shapes.js', 'dist/tensorcast-shapes-node.js', 'dist/tensorcast-shapes.cjs', 'dist/tensorcast-shapes.wasm',
      'dist/shapes-entry.d.ts', 'dist/shapes-entry.d.cts',
      // tensorcast/model: its bundles and declarations (its engine is tensorcast-shapes.wasm).
      'dist/tensorcast-model.js', 'dist/tensorcast-model-node.js', 'dist/tensorcast-model.cjs', 'dist/model-entry.d.ts', 'dist/model-entry.d.cts'];
    // The explorer: the command, its server, and the built page with its assets beside it.
    need.push('bin/tensorcast.mjs', 'bin/cli.mjs', 'bin/serve.mjs', 'dist/explorer/index.html',
      'dist/explorer/model.html', 'dist/explorer/samples/attention.onnx', 'dist/explorer/samples/checks.onnx');
    const missing = need.filter((f) => !files.includes(f));
    must(missing.length === 0, `the tarball lacks ${missing.join(', ')}`);
    const page = files.filter((f) => f.startsWith('dist/explorer/'));
    for (const ext of ['.js', '.css', '.wasm']) must(page.some((f) => f.startsWith('dist/explorer/assets/') && f.endsWith(ext)), `the tarball's explorer has no assets/*${ext}: ${page.join(', ')}`);
    const manifest = JSON.parse(readFileSync(path.join(process.env.PACK_SMOKE_PACKAGE || root, 'package.json'), 'utf8'));
    must(manifest.bin?.tensorcast === 'bin/tensorcast.mjs', `package.json bin is ${JSON.stringify(manifest.bin)}`);
    // The guides ship (errors and the README cite them: tests/js/package-links.test.js reads
    // every link); nothing else of docs/ (the screenshot is linked from the repository).
    const stray = files.filter((f) => /^(tests|src|bench|build|web|scripts|bindings|docs|node_modules)\//.test(f) && !/^docs\/[\w-]+\.md$/.test(f));
    must(stray.length === 0, `the tarball carries files users do not need: ${stray.join(', ')}`);
    // Every module of dist/ it carries is one an export loads, or one that such a module imports (the model and
    // shapes entries are bundles: their source modules stay out).
    const dist = path.join(process.env.PACK_SMOKE_PACKAGE || root, 'dist');
    const reached = new Set();
    const reach = (f) => {
      if (reached.has(f) || !/\.c?js$/.test(f)) return;
      reached.add(f);
      for (const m of readFileSync(path.join(dist, f), 'utf8').matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"]\.\/([\w.-]+)['"]/g)) reach(m[1]);
    };
    JSON.stringify(manifest.exports).replace(/"\.\/dist\/([\w.-]+)"/g, (_, f) => reach(f));
    const unreached = files.filter((f) => /^dist\/[\w.-]+\.c?js$/.test(f) && !reached.has(f.slice(5)));
    must(unreached.length === 0, `the tarball carries modules no export loads: ${unreached.join(', ')}`);
    must(/Apache License[\s\S]*Version 2\.0/.test(readFileSync(path.join(process.env.PACK_SMOKE_PACKAGE || root, 'LICENSE'), 'utf8')), 'LICENSE is not the Apache-2.0 text');
    const pageBytes = info.files.filter((f) => f.path.startsWith('dist/explorer/')).reduce((n, f) => n + f.size, 0);
    return `${files.length} files, ${info.size} bytes packed, ${info.unpackedSize} unpacked (the explorer: ${page.length} files, ${pageBytes} bytes)`;
  });

  // ---- Node -----------------------------------------------------------------------------
  const app = project(path.join(work, 'app'), { type: 'module' });
  await check('node ESM import', () => {
    write(path.join(app, 'main.js'), `import { init, broadcastShapes, BroadcastError, add } from 'tensorcast';
await init();
const s = broadcastShapes([8, 1, 6, 1], [7, 1, 5]);
if (JSON.stringify(s) !== '[8,7,6,5]') throw new Error('wrong shape ' + JSON.stringify(s));
try { broadcastShapes([3], [4]); throw new Error('no error'); } catch (e) { if (!(e instanceof BroadcastError) || e.code !== 'INCOMPATIBLE_DIMS') throw e; }
console.log(JSON.stringify(Array.from(add({ data: Float32Array.of(1, 2), shape: [2, 1] }, { data: Float32Array.of(10, 20, 30) }).data)));
`);
    const out = sh('node', ['main.js'], { cwd: app }).trim();
    must(out === '[11,21,31,12,22,32]', `printed ${out}`);
  });
  await check('node ESM tensorcast/inline (initSync, no file read)', () => {
    write(path.join(app, 'inline.js'), `import { initSync, broadcastShapes, hypot } from 'tensorcast/inline';
initSync();
console.log(JSON.stringify([broadcastShapes([2, 1], [3]), Array.from(hypot({ data: Float64Array.of(3, 5) }, 4).data)]));
`);
    // Moving the package's .wasm away proves the inline entry does not read it.
    const wasm = path.join(app, 'node_modules', 'tensorcast', 'dist', 'tensorcast.wasm');
    cpSync(wasm, `${wasm}.away`);
    rmSync(wasm);
    try {
      const out = sh('node', ['inline.js'], { cwd: app }).trim();
      must(out === '[[2,3],[5,6.4031242374328485]]', `printed ${out}`);
    } finally {
      cpSync(`${wasm}.away`, wasm);
      rmSync(`${wasm}.away`);
    }
  });
  await check('plain .cjs script: require + initSync', () => {
    write(path.join(app, 'script.cjs'), `const tc = require('tensorcast');
tc.initSync();
const t = tc.tensor(Int32Array.of(1, 2, 3, 4, 5, 6), tc.broadcastShapes([2, 1], [3]));
const r = tc.mul(t, { data: Int32Array.of(10, 20, 30) });
const inline = require('tensorcast/inline');
inline.initSync();
console.log(JSON.stringify([Array.from(r.toArray()), String(t), inline.broadcastShapes([4, 1], [1, 5])]));
t.dispose(); t.dispose();
`);
    const out = sh('node', ['script.cjs'], { cwd: app }).trim();
    must(out === '[[10,40,90,40,100,180],"Tensor int32 (2,3) [1, 2, 3, 4, 5, 6]",[4,5]]', `printed ${out}`);
  });

  await check('tensorcast/shapes in Node: import + init(), require + initSync(), reading tensorcast-shapes.wasm only', () => {
    write(path.join(app, 'shapes.js'), `import { init, broadcastShapes, reductionAxes, explain, contract, BroadcastError } from 'tensorcast/shapes';
import { createRequire } from 'node:module';
await init();
let code = '';
try { broadcastShapes([3], [4]); } catch (e) { code = e instanceof BroadcastError ? e.code : String(e); }
const cjs = createRequire(import.meta.url)('tensorcast/shapes');
cjs.initSync();
console.log(JSON.stringify([broadcastShapes([8, 1, 6, 1], [7, 1, 5]), reductionAxes([3, 1], [2, 3, 5]), explain({ shapes: [[2, 1], [3]] }).shape,
  contract().build, code, cjs.broadcastToShape([3, 1, 5, 1], [-1, -1, 5, 6]), typeof cjs.add]));
`);
    // Moving the full engine away proves the shapes entry loads only its own.
    const wasm = path.join(app, 'node_modules', 'tensorcast', 'dist', 'tensorcast.wasm');
    cpSync(wasm, `${wasm}.away`);
    rmSync(wasm);
    try {
      const out = sh('node', ['shapes.js'], { cwd: app }).trim();
      must(out === '[[8,7,6,5],[0,2],[2,3],"shapes","INCOMPATIBLE_DIMS",[3,1,5,6],"undefined"]', `printed ${out}`);
    } finally {
      cpSync(`${wasm}.away`, wasm);
      rmSync(`${wasm}.away`);
    }
  });

  await check('tensorcast/model in Node: import + init(), require + initSync(); symbols and inferShapes', () => {
    cpSync(path.join(root, 'tests', 'fixtures', 'onnx', 'built', 'sym_meets_3_and_5.onnx'), path.join(app, 'model.onnx'));
    write(path.join(app, 'model.js'), `import { init, inferShapes, broadcastShapes } from 'tensorcast/model';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
await init();
const r = inferShapes(readFileSync('model.onnx'));
const cjs = createRequire(import.meta.url)('tensorcast/model');
cjs.initSync();
console.log(JSON.stringify([broadcastShapes(['N', 1], [3]), r.nodes.map((n) => n.output.shape), r.symbols[0].values, cjs.broadcastShapes(['N'], ['M'])]));
`);
    const out = sh('node', ['model.js'], { cwd: app }).trim();
    must(out === '[["N",3],[[3,2],[5,2]],[1],["M|N"]]', `printed ${out}`);
  });

  // ---- the explorer's command, on a PATH without Emscripten ---------------------------
  // A directory holding only node, npm, npx and sh (links to this machine's), so
  // no emcc, em++ or emcmake can be found: the command must not need them.
  const bareBin = path.join(work, 'path-without-emscripten');
  mkdirSync(bareBin);
  for (const tool of ['node', 'npm', 'npx', 'sh']) {
    const where = capture('sh', ['-c', `command -v ${tool}`]).stdout.trim();
    must(where, `${tool} is not on PATH`);
    symlinkSync(where, path.join(bareBin, tool));
  }
  // npx as a user types it (`npx --no tensorcast --help` would print npx's own help);
  // offline, so that nothing can be fetched: the package is installed.
  const bareEnv = { PATH: bareBin, HOME: process.env.HOME ?? work, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
  const npx = (args, opts = {}) => capture(path.join(bareBin, 'npx'), args, { cwd: app, timeout: 60_000, ...opts, env: bareEnv });
  await check('npx tensorcast --help (a PATH without emscripten)', () => {
    for (const tool of ['emcc', 'em++', 'emcmake', 'cmake']) {
      must(capture(path.join(bareBin, 'sh'), ['-c', `command -v ${tool}`], { env: bareEnv }).status !== 0, `${tool} is reachable on the test's PATH`);
    }
    const help = npx(['tensorcast', '--help']);
    must(help.status === 0 && /^Usage: tensorcast explore \[--port N\] \[--host H\] \[--open\]/.test(help.stdout), `--help: ${help.status}\n${help.stdout}${help.stderr}`);
    const bad = npx(['tensorcast', 'explore', '--prot', '1']);
    must(bad.status === 2 && bad.stderr.includes('unknown option --prot') && bad.stderr.includes('Usage:'), `an unknown flag: ${bad.status}\n${bad.stderr}`);
    return 'no emcc, em++, emcmake or cmake on PATH';
  });

  // ---- Jest 30, default (CommonJS) mode ---------------------------------------------------
  await check(`tools: ${Object.entries(TOOLS).map(([k, v]) => `${k}@${v}`).join(', ')}`, installTools);
  await check('jest 30 default CommonJS mode: require + initSync', () => {
    const dir = project(path.join(work, 'jest'), { scripts: { test: 'jest' } });
    write(path.join(dir, 'broadcast.test.js'), `const { initSync, broadcastShapes, add, BroadcastError } = require('tensorcast');
beforeAll(() => initSync());
test('the require condition', () => {
  expect(require.resolve('tensorcast')).toMatch(/dist[\\\\/]node\\.cjs$/);
});
test('shapes', () => {
  expect(broadcastShapes([8, 1, 6, 1], [7, 1, 5])).toEqual([8, 7, 6, 5]);
  expect(() => broadcastShapes([3], [4])).toThrow(BroadcastError);
});
test('data', () => {
  expect(Array.from(add({ data: Float32Array.of(1, 2) }, 1).data)).toEqual([2, 3]);
});
`);
    const r = capture('node', [path.join(toolsDir, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--rootDir', dir, '--cacheDirectory', path.join(work, 'jest-cache'), '--watchman=false'], { cwd: dir, timeout: 180_000 });
    const tests = /Tests:\s+(.*)/.exec(r.stderr)?.[1] ?? '?';
    must(r.status === 0, `jest exited with ${r.status}\n${r.stdout}\n${r.stderr}`);
    must(/3 passed, 3 total/.test(tests), `jest ran: ${tests}`);
    return `jest: ${tests}; require('tensorcast') is dist/node.cjs`;
  });

  // ---- the declarations ---------------------------------------------------------------
  const typesDir = project(path.join(work, 'types'), { type: 'module' });
  cpSync(path.join(root, 'tests', 'types'), typesDir, { recursive: true });
  // Every name the runtime exports (ESM, inline, CommonJS) must be declared.
  const names = JSON.parse(sh('node', ['-e', `(async () => {
  const esm = Object.keys(await import('tensorcast')).sort();
  const inline = Object.keys(await import('tensorcast/inline')).sort();
  const cjs = Object.keys(require('tensorcast')).filter((k) => k !== '__esModule').sort();
  const shapes = Object.keys(await import('tensorcast/shapes')).sort();
  const shapesCjs = Object.keys(require('tensorcast/shapes')).filter((k) => k !== '__esModule').sort();
  const model = Object.keys(await import('tensorcast/model')).sort();
  const modelCjs = Object.keys(require('tensorcast/model')).filter((k) => k !== '__esModule').sort();
  console.log(JSON.stringify({ esm, inline, cjs, shapes, shapesCjs, model, modelCjs }));
})()`], { cwd: typesDir }));
  await check('runtime exports: ESM, inline and CommonJS alike', () => {
    must(JSON.stringify(names.esm) === JSON.stringify(names.cjs), `require('tensorcast') exports differ from the ESM entry: ${names.cjs.join(',')} vs ${names.esm.join(',')}`);
    must(JSON.stringify(names.esm) === JSON.stringify(names.inline), `tensorcast/inline exports differ: ${names.inline.join(',')}`);
    must(JSON.stringify(names.shapes) === JSON.stringify(names.shapesCjs), `require('tensorcast/shapes') exports differ: ${names.shapesCjs.join(',')} vs ${names.shapes.join(',')}`);
    const foreign = names.shapes.filter((n) => !names.esm.includes(n));
    must(foreign.length === 0, `tensorcast/shapes exports names the full entry lacks: ${foreign.join(', ')}`);
    must(JSON.stringify(names.model) === JSON.stringify(names.modelCjs), `require('tensorcast/model') exports differ: ${names.modelCjs.join(',')} vs ${names.model.join(',')}`);
    const lacking = names.shapes.filter((n) => !names.model.includes(n));
    must(lacking.length === 0, `tensorcast/model lacks names of tensorcast/shapes: ${lacking.join(', ')}`);
    return `${names.esm.length} names`;
  });
  write(path.join(typesDir, 'exports.ts'), `// Generated by pack-smoke: every name the runtime exports, used once (a missing declaration fails).
import * as esm from 'tensorcast';
import * as inline from 'tensorcast/inline';
import * as shapes from 'tensorcast/shapes';
import * as model from 'tensorcast/model';
export const declared = [
${names.esm.map((n) => `  esm.${n},`).join('\n')}
${names.inline.map((n) => `  inline.${n},`).join('\n')}
${names.shapes.map((n) => `  shapes.${n},`).join('\n')}
${names.model.map((n) => `  model.${n},`).join('\n')}
];
// tensorcast/model: names as dims, and the report's types.
export const named: model.Dim[] | '[...]' = model.broadcastShapes(['batch', 1], [3]);
export const statuses: ('ok' | 'clash' | 'declared-mismatch' | 'unknown')[] = model.inferShapes(new Uint8Array(0)).nodes.map((n) => n.status);
// tensorcast/shapes has the full entry's declarations for what it has.
export const shaped: number[] = shapes.broadcastShapes([2, 1], [3]);
export const axes: number[] = shapes.reductionAxes([3, 1], [2, 3, 5], { mode: 'numpy' });
export const build: 'full' | 'shapes' = shapes.contract().build;
`);
  const configs = ['bundler', 'node16', 'nodenext', 'browser'];
  // TypeScript 7 (native) checks each setting on its own in about a second.
  const tsc7 = bin('typescript', 'bin/tsc');
  const v7 = sh('node', [tsc7, '--version'], { cwd: typesDir }).trim();
  for (const cfg of configs) {
    await check(`tsc ${cfg} (TypeScript 7)`, () => {
      sh('node', [tsc7, '-p', `tsconfig.${cfg}.json`], { cwd: typesDir });
      return v7;
    });
  }
  // TypeScript 5 (what most projects still use) checks all four settings in one
  // build-mode process (the libs parsed once); on a failure, each again to name it.
  const tsc5 = bin('typescript5', 'bin/tsc');
  const v5 = sh('node', [tsc5, '--version'], { cwd: typesDir }).trim();
  const t5 = Date.now();
  const all5 = capture('node', [tsc5, '-b', ...configs.map((c) => `tsconfig.${c}.json`)], { cwd: typesDir, timeout: 180_000 });
  const took5 = secs(t5);
  for (const cfg of configs) {
    await check(`tsc ${cfg} (TypeScript 5)`, () => {
      if (all5.status !== 0) sh('node', [tsc5, '-p', `tsconfig.${cfg}.json`], { cwd: typesDir });
      return `${v5}; the four settings in one tsc -b, ${took5} s`;
    });
  }

  // ---- browsers: bundled apps in Chromium -------------------------------------------------
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  // The explorer the tarball ships, as a user opens it: served by `npx tensorcast
  // explore --port 0` from the installed package, typed into in Chromium.
  /** Open the explorer at `url`; type two shapes; return what its status says, and what went wrong. */
  async function useExplorer(url) {
    const ctx = await browser.newContext();
    try {
      const p = await ctx.newPage();
      const problems = [];
      const wasm = [];
      p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      p.on('console', (m) => { if (m.type() === 'error') problems.push(`console.error: ${m.text()}`); });
      p.on('response', (r) => {
        if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
        if (/\.wasm$/.test(r.url())) wasm.push(`${r.url().slice(url.length)} (${r.headers()['content-type']})`);
      });
      await p.goto(url);
      await p.waitForSelector('html[data-ready="true"]', { timeout: 15_000 });
      const status = p.getByRole('status');
      await status.locator('.status-shape[data-shape="(8,7,6,5)"]').waitFor({ timeout: 5_000 });
      await p.getByLabel('Shape A').fill('[2, 1, 6]');
      await p.getByLabel('Shape B').fill('3,1');
      await status.locator('.status-shape[data-shape="(2,3,6)"]').waitFor({ timeout: 5_000 });
      return { text: (await status.textContent()).replace(/\s+/g, ' ').trim(), problems, wasm };
    } finally {
      await ctx.close();
    }
  }
  await check('npx tensorcast explore --port 0 (a PATH without emscripten): the page computes in Chromium', async () => {
    const t = Date.now();
    // In a process group of its own, so that Ctrl+C (SIGINT to the group, as a
    // terminal sends it) reaches npx, its shell and the server alike.
    const child = spawn(path.join(bareBin, 'npx'), ['tensorcast', 'explore', '--port', '0'], { cwd: app, env: bareEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let url = null;
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      url = await new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no URL printed in 20 s:\n${out}`)), 20_000);
        child.stdout.on('data', () => {
          const m = /the broadcast explorer is at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m) { clearTimeout(t); resolve(m[1]); }
        });
        exited.then((e) => { clearTimeout(t); reject(new Error(`npx exited (${JSON.stringify(e)}):\n${out}`)); });
      });
      const served = secs(t);
      const r = await useExplorer(url);
      must(r.problems.length === 0, `the page reported: ${r.problems.join('; ')}`);
      must(r.wasm.length === 1 && r.wasm[0].startsWith('assets/') && r.wasm[0].endsWith('(application/wasm)'), `the engine came from ${r.wasm.join(', ') || 'nowhere'}`);
      return `serving after ${served} s at ${url}; status: "${r.text.slice(0, 80)}"; fetched ${r.wasm[0]}`;
    } finally {
      const group = (sig) => { try { process.kill(-child.pid, sig); } catch { /* gone */ } };
      group('SIGINT');
      const e = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 5_000))]);
      if (e === 'still running') group('SIGKILL');
      // Ctrl+C stopped the server itself, not only npx.
      const alive = url && await fetch(url).then(() => true, () => false);
      group('SIGKILL');
      must(!alive, `the server at ${url} still answers after Ctrl+C`);
    }
  });
  await check('the explorer folder hosted anywhere: copied under a sub-path of another static server', async () => {
    const site = path.join(work, 'static-host');
    cpSync(path.join(app, 'node_modules', 'tensorcast', 'dist', 'explorer'), path.join(site, 'tools', 'broadcast'), { recursive: true });
    const { server, url } = await serve(site, 0);
    try {
      const r = await useExplorer(`${url}tools/broadcast/`);
      must(r.problems.length === 0, `the page reported: ${r.problems.join('; ')}`);
      return `status: "${r.text.slice(0, 60)}"`;
    } finally {
      await new Promise((res) => server.close(res));
    }
  });

  // The app: shapes, plain data and a resident tensor; the numbers land in document.title.
  const EXPECT = JSON.stringify({ s: [2, 3], d: [11, 21, 31, 12, 22, 32], t: 'Tensor float32 (3,) [10, 20, 30]' });
  const appJs = (from, initArg = '') => `import { init, broadcastShapes, add, tensor } from '${from}';
async function main() {
  await init(${initArg});
  const t = tensor(Float32Array.of(10, 20, 30));
  const d = add({ data: Float32Array.of(1, 2), shape: [2, 1] }, t).toArray();
  document.title = JSON.stringify({ s: broadcastShapes([2, 1], [3]), d: Array.from(d), t: String(t) });
  t.dispose();
}
main().catch((e) => { document.title = 'error: ' + (e && e.message); });
`;
  const html = (script, classic = false) => `<!doctype html><html><head><meta charset="utf-8"><title>pending</title>
<script ${classic ? 'defer' : 'type="module"'} src="${script}"></script></head><body></body></html>`;

  /** Serve `dir`, open `page` in Chromium, return { title, wasmRequests, errors }. */
  async function run(dir, page = 'index.html') {
    const { server, url } = await serve(dir, 0);
    const ctx = await browser.newContext();
    try {
      const p = await ctx.newPage();
      const wasmRequests = [];
      const errors = [];
      p.on('request', (r) => { if (/\.wasm(\?|$)/.test(r.url())) wasmRequests.push(r.url().slice(url.length - 1)); });
      p.on('pageerror', (e) => errors.push(e.message));
      await p.goto(url + page);
      await p.waitForFunction(() => document.title !== 'pending', null, { timeout: 30_000 });
      return { title: await p.title(), wasmRequests, errors };
    } finally {
      await ctx.close();
      await new Promise((r) => server.close(r));
    }
  }
  const wasmFiles = (dir) => readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.wasm'));
  /** The page computed the right numbers; the inline entry fetched no .wasm. */
  async function expectApp(dir, { inline = false, page } = {}) {
    const r = await run(dir, page);
    must(r.title === EXPECT, `the page says ${r.title}${r.errors.length ? `; errors: ${r.errors.join('; ')}` : ''}`);
    if (inline) must(r.wasmRequests.length === 0, `the inline entry fetched ${r.wasmRequests.join(', ')}`);
    return `${r.wasmRequests.length ? `fetched ${r.wasmRequests.join(', ')}` : 'no .wasm fetched'}; emitted ${wasmFiles(dir).join(', ') || 'no .wasm'}`;
  }
  const src = (name, text) => write(path.join(app, 'src', name), text);
  src('default.js', appJs('tensorcast'));
  src('inline.js', appJs('tensorcast/inline'));
  src('wasm-url.js', appJs('tensorcast', "{ wasmUrl: '/static/engine/tensorcast.wasm' }"));
  src('file-loader.js', `import wasmUrl from 'tensorcast/tensorcast.wasm';\n${appJs('tensorcast', '{ wasmUrl }')}`);
  const dist = path.join(app, 'node_modules', 'tensorcast', 'dist');

  // Vite: emits the .wasm as an asset by itself (new URL(..., import.meta.url)).
  const { build: vite } = await import('vite');
  for (const entry of ['default', 'inline']) {
    await check(`vite ${entry === 'default' ? 'default entry' : 'tensorcast/inline'} in Chromium`, async () => {
      const dir = path.join(work, `vite-${entry}`);
      write(path.join(app, `vite-${entry}.html`), html(`./src/${entry}.js`));
      await vite({
        root: app, base: './', logLevel: 'silent', configFile: false,
        build: { outDir: dir, emptyOutDir: true, target: 'es2022', rollupOptions: { input: path.join(app, `vite-${entry}.html`) } },
      });
      const js = readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(dir, 'assets', f), 'utf8'));
      must(!js.some((t) => t.includes(root) || t.includes(app)), 'the bundle holds a path of the build machine');
      if (entry === 'default') must(wasmFiles(dir).length > 0, 'Vite emitted no .wasm asset');
      return expectApp(dir, { inline: entry === 'inline', page: `vite-${entry}.html` });
    });
  }

  // webpack 5: emits the .wasm as an asset by itself (new URL(..., import.meta.url)).
  const webpack = (await import('webpack')).default;
  for (const entry of ['default', 'inline']) {
    await check(`webpack ${entry === 'default' ? 'default entry' : 'tensorcast/inline'} in Chromium`, async () => {
      const dir = path.join(work, `webpack-${entry}`);
      const stats = await new Promise((resolve, reject) => webpack({
        mode: 'production', context: app, entry: `./src/${entry}.js`, target: 'web', devtool: false,
        output: { path: dir, filename: 'main.js', clean: true },
        // Terser over the inline entry's 0.6 MB of text proves nothing and costs seconds.
        optimization: { minimize: entry === 'default' },
        performance: { hints: false }, infrastructureLogging: { level: 'error' },
      }, (err, s) => (err ? reject(err) : resolve(s))));
      must(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
      write(path.join(dir, 'index.html'), html('main.js', true));
      if (entry === 'default') must(wasmFiles(dir).length > 0, 'webpack emitted no .wasm asset');
      return expectApp(dir, { inline: entry === 'inline' });
    });
  }

  // esbuild: emits no .wasm. Recipes: copy it beside the bundle, or import it with the file loader.
  const esbuild = await import('esbuild');
  const esb = (entry, dir, extra = {}) => esbuild.build({
    entryPoints: [path.join(app, 'src', `${entry}.js`)], absWorkingDir: app, bundle: true, format: 'esm', platform: 'browser',
    target: 'es2022', minify: true, outfile: path.join(dir, 'app.js'), logLevel: 'silent', ...extra,
  });
  await check('esbuild default entry + tensorcast.wasm copied beside the bundle, in Chromium', async () => {
    const dir = path.join(work, 'esbuild-default');
    await esb('default', dir);
    cpSync(path.join(dist, 'tensorcast.wasm'), path.join(dir, 'tensorcast.wasm'));
    write(path.join(dir, 'index.html'), html('app.js'));
    return expectApp(dir);
  });
  await check("esbuild default entry + init({ wasmUrl }) from --loader:.wasm=file, in Chromium", async () => {
    const dir = path.join(work, 'esbuild-file-loader');
    await esb('file-loader', dir, { loader: { '.wasm': 'file' }, assetNames: 'assets/[name]-[hash]' });
    write(path.join(dir, 'index.html'), html('app.js'));
    must(wasmFiles(dir).length === 1, `esbuild emitted ${wasmFiles(dir).join(', ') || 'no .wasm'}`);
    return expectApp(dir);
  });
  await check('esbuild tensorcast/inline (no recipe) in Chromium', async () => {
    const dir = path.join(work, 'esbuild-inline');
    await esb('inline', dir);
    write(path.join(dir, 'index.html'), html('app.js'));
    must(wasmFiles(dir).length === 0, 'unexpected .wasm in the output');
    return expectApp(dir, { inline: true });
  });
  await check('esbuild default entry without the recipe: a load error naming the URL, the status and the fix', async () => {
    const dir = path.join(work, 'esbuild-no-recipe');
    await esb('default', dir);
    write(path.join(dir, 'index.html'), html('app.js'));
    const r = await run(dir);
    must(/^error: /.test(r.title), `expected a load error, the page says ${r.title}`);
    for (const want of ['tensorcast.wasm', '404', 'wasmUrl', 'tensorcast/inline']) must(r.title.includes(want), `the load error does not mention ${want}: ${r.title}`);
    must(!/Aborted\(|ASSERTIONS/.test(r.title), `Emscripten's abort text reached the user: ${r.title}`);
    return r.title.slice(7, 140) + '…';
  });

  // CommonJS bundled for the browser: `require` outside Node resolves to the inline build.
  await check("esbuild CommonJS app for the browser: require('tensorcast') + initSync(), in Chromium", async () => {
    const dir = path.join(work, 'esbuild-cjs-browser');
    src('cjs-browser.cjs', `const { initSync, broadcastShapes, add, tensor } = require('tensorcast');
initSync();
const t = tensor(Float32Array.of(10, 20, 30));
const d = add({ data: Float32Array.of(1, 2), shape: [2, 1] }, t).toArray();
document.title = JSON.stringify({ s: broadcastShapes([2, 1], [3]), d: Array.from(d), t: String(t) });
`);
    await esbuild.build({
      entryPoints: [path.join(app, 'src', 'cjs-browser.cjs')], absWorkingDir: app, bundle: true, format: 'iife', platform: 'browser',
      target: 'es2022', minify: true, outfile: path.join(dir, 'app.js'), logLevel: 'silent',
    });
    write(path.join(dir, 'index.html'), html('app.js', true));
    must(wasmFiles(dir).length === 0, 'unexpected .wasm in the output');
    return expectApp(dir, { inline: true });
  });

  // Rollup + @rollup/plugin-node-resolve: emits no .wasm. Recipe: init({ wasmUrl }) where it is served.
  let rollup = null;
  let nodeResolve = null;
  const loadRollup = () => {
    rollup ??= toolRequire('rollup').rollup;
    nodeResolve ??= toolRequire('@rollup/plugin-node-resolve').nodeResolve;
  };
  const roll = async (entry, dir) => {
    loadRollup();
    const bundle = await rollup({ input: path.join(app, 'src', `${entry}.js`), plugins: [nodeResolve({ browser: true })], logLevel: 'silent' });
    await bundle.write({ dir, format: 'es', entryFileNames: 'app.js' });
    await bundle.close();
  };
  await check('rollup default entry + init({ wasmUrl }), in Chromium', async () => {
    const dir = path.join(work, 'rollup-wasm-url');
    await roll('wasm-url', dir);
    cpSync(path.join(dist, 'tensorcast.wasm'), path.join(dir, 'static', 'engine', 'tensorcast.wasm'));
    write(path.join(dir, 'index.html'), html('app.js'));
    return expectApp(dir);
  });
  await check('rollup tensorcast/inline (no recipe) in Chromium', async () => {
    const dir = path.join(work, 'rollup-inline');
    await roll('inline', dir);
    write(path.join(dir, 'index.html'), html('app.js'));
    must(wasmFiles(dir).length === 0, 'unexpected .wasm in the output');
    return expectApp(dir, { inline: true });
  });
} catch (e) {
  // A failure outside any check (npm pack, an install, launching Chromium) fails the run.
  results.push({ name: 'setup', ok: false });
  console.log(`pack-smoke: FAIL setup\n${String(e?.stack ?? e)}`);
} finally {
  if (browser) await browser.close().catch(() => {});
  if (!process.env.PACK_SMOKE_KEEP) rmSync(work, { recursive: true, force: true });
  else console.log(`pack-smoke: kept ${work}`);
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`pack-smoke: took ${secs(t0)} s`);
console.log(`pack-smoke: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

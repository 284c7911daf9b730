// package.json's "sideEffects" as production bundlers read it. Three modules
// change shared state when they load: layout.js and reshape.js add the Tensor
// methods (t.transpose(), t.reshape(), ...) and expr.js hands explain() its
// expression explainer. An app that imports none of their functions by name
// still needs them: with "sideEffects": false every bundler dropped them, and
// t.reshape was "not a function". Listing only those three is not enough
// either: rolldown (Vite 8), Rollup, webpack and Parcel then skip them when the
// index.js that imports them is itself marked free of side effects. Here an
// app importing only { init, tensor, explain } from 'tensorcast' is bundled
// with tree-shaking by esbuild and rolldown, for the browser and for Node, and run.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, symlinkSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
const esbuild = createRequire(import.meta.url)('esbuild');
let dir;

// The app: the engine's bytes are passed in, so no bundler has to ship the .wasm.
const APP = `import { readFileSync } from 'node:fs';
import { init, tensor, explain } from 'tensorcast';
await init({ wasmBinary: readFileSync(${JSON.stringify(path.join(repo, 'dist', 'tensorcast.wasm'))}) });
const t = tensor(Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3]);
const out = {};
for (const [k, f] of Object.entries({ reshape: () => t.reshape([3, 2]), transpose: () => t.transpose(), flip: () => t.flip(0) })) {
  try { const r = f(); out[k] = { shape: r.shape, data: Array.from(r.toArray()) }; } catch (e) { out[k] = e.message; }
}
const x = explain({ expression: 'x * 2 + y', shapes: { x: [2, 1], y: [3] } });
out.explain = x.ok ? x.shape : x.error.message;
console.log(JSON.stringify(out));
`;

// A project with the package installed (a link to this repository: the
// bundlers resolve it to its real path, so they read this package.json).
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tc-side-effects-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(repo, path.join(dir, 'node_modules', 'tensorcast'), 'dir');
  writeFileSync(path.join(dir, 'app.mjs'), APP);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundle(tool, platform) {
  const out = path.join(dir, `${tool}-${platform}.mjs`);
  const entry = path.join(dir, 'app.mjs');
  if (tool === 'esbuild') {
    await esbuild.build({ entryPoints: [entry], bundle: true, format: 'esm', platform, external: ['node:*'], minify: true, outfile: out, logLevel: 'silent' });
  } else {
    const { rolldown } = await import(pathToFileURL(path.join(repo, 'node_modules', 'rolldown', 'dist', 'index.mjs')).href);
    const b = await rolldown({ input: entry, platform, external: [/^node:/], logLevel: 'silent' });
    await b.write({ file: out, format: 'esm', minify: true });
    await b.close();
  }
  return JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' }));
}

describe('an app bundled with tree-shaking, importing only { init, tensor, explain }', () => {
  it('lists files that ship', () => {
    expect(Array.isArray(pkg.sideEffects)).toBe(true);
    for (const f of pkg.sideEffects) expect(existsSync(path.join(repo, f)), f).toBe(true);
  });

  for (const tool of ['esbuild', 'rolldown']) {
    for (const platform of ['browser', 'node']) {
      it(`${tool}, ${platform}: the Tensor methods and explain() of an expression work`, async () => {
        const r = await bundle(tool, platform);
        expect(r.reshape).toEqual({ shape: [3, 2], data: [1, 2, 3, 4, 5, 6] });
        expect(r.transpose).toEqual({ shape: [3, 2], data: [1, 4, 2, 5, 3, 6] });
        expect(r.flip).toEqual({ shape: [2, 3], data: [4, 5, 6, 1, 2, 3] });
        expect(r.explain).toEqual([2, 3]);
      });
    }
  }
});

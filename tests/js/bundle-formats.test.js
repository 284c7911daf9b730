// The ESM entries bundled into a format without import.meta (esbuild's cjs and
// iife): the default wasm URL cannot be made there, and the error says what to
// pass instead (it was a bare "Invalid URL" TypeError). README, Bundlers.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const esbuild = createRequire(import.meta.url)('esbuild');
let dir;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tc-formats-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundle `code` (importing `entry`) as `format` for `platform`, run it in Node, and return what it printed. */
function run(entry, code, format, platform) {
  const src = path.join(dir, `app-${format}-${platform}.mjs`);
  writeFileSync(src, `import * as tc from ${JSON.stringify(path.join(repo, 'dist', entry))};\n${code}`);
  const out = path.join(dir, `app-${format}-${platform}.${format === 'cjs' ? 'cjs' : 'js'}`);
  esbuild.buildSync({ entryPoints: [src], bundle: true, format, platform, outfile: out, logLevel: 'silent' });
  return execFileSync(process.execPath, [out], { encoding: 'utf8' }).trim();
}

const REPORT = `
const say = (e) => console.log(e.constructor.name + ': ' + e.message);
let sync = null;
try { tc.initSync(); sync = 'loaded'; } catch (e) { sync = e; }
tc.init().then(() => console.log('loaded'), say).then(() => sync === 'loaded' ? console.log(sync) : say(sync));
`;

describe('an ESM entry bundled without import.meta', () => {
  it('Node entry as CommonJS: init() and initSync() name the file and the fix', () => {
    const lines = run('node.js', REPORT, 'cjs', 'node').split('\n');
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(l).toMatch(/^Error: tensorcast: /);
      expect(l).toContain('cannot find tensorcast.wasm: this bundle has no import.meta.url');
      expect(l).toContain('init({ wasmUrl })');
      expect(l).toContain('tensorcast/inline');
    }
  });
  it('tensorcast/shapes and tensorcast/model as CommonJS: the fix names their own file, not tensorcast/inline', () => {
    // tensorcast/inline has neither inferShapes nor named dims: it is no fix for these entries.
    for (const entry of ['tensorcast-shapes-node.js', 'tensorcast-model-node.js']) {
      const lines = run(entry, REPORT, 'cjs', 'node').split('\n');
      expect(lines).toHaveLength(2);
      for (const l of lines) {
        expect(l).toContain('cannot find tensorcast-shapes.wasm: this bundle has no import.meta.url');
        expect(l).toContain('init({ wasmUrl })');
        expect(l).not.toContain('tensorcast/inline');
      }
    }
  });
  it('browser entry as an IIFE: init() rejects naming the file and the recipe', () => {
    const out = run('index.js', 'tc.init().then(() => console.log("loaded"), (e) => console.log(e.constructor.name + ": " + e.message));', 'iife', 'browser');
    expect(out).toMatch(/^Error: tensorcast: /);
    expect(out).toContain('could not load the engine from tensorcast.wasm (Invalid URL');
    expect(out).toContain('init({ wasmUrl })');
    expect(out).toContain('tensorcast/inline');
  });
  it('with wasmUrl given, both load and compute', () => {
    const wasm = path.join(repo, 'dist', 'tensorcast.wasm');
    const out = run('node.js', `tc.init({ wasmUrl: ${JSON.stringify(wasm)} }).then(() => console.log(tc.add({ data: Float32Array.of(1, 2), shape: [2, 1] }, { data: Float32Array.of(10, 20), shape: [2] }).data.join(',')));`, 'cjs', 'node');
    expect(out).toBe('11,21,12,22');
  });
});

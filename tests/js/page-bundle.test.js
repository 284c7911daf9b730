// The page's bundle as bench/lib/size.mjs measures it (dist/index.js bundled and
// minified by rolldown). Its minifier writes `/* @__PURE__ */` before a built-in
// constructor whose arguments it deems side-effect free (`new Map()`, `new
// Float64Array(1)`, a returned `new TypeError(...)`): 16 bytes each, and about
// 120 of the page's gzipped bytes when 41 of them stood in it. The library
// writes those as `new Map(none)`, `Float64Array.of(0)` and `TypeError(...)`
// (see contract.js); this test finds a new one.
import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the page bundle', () => {
  it('carries no pure comment of the minifier', async () => {
    const rd = path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs');
    expect(existsSync(rd), 'rolldown (a devDependency) is installed').toBe(true);
    const { rolldown } = await import(pathToFileURL(rd).href);
    const b = await rolldown({ input: path.join(root, 'dist', 'index.js'), platform: 'browser', logLevel: 'silent' });
    const code = (await b.generate({ format: 'esm', minify: true })).output[0].code;
    await b.close();
    expect(code.length).toBeGreaterThan(100000);
    const found = [...code.matchAll(/.{0,60}@__PURE__.{0,60}/g)].map((m) => m[0]);
    expect(found, 'write these without the comment: new Map(none), Float64Array.of(0), TypeError(...) when returned').toEqual([]);
  });
});

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

let minified = null;
async function pageCode() {
  if (minified !== null) return minified;
  const rd = path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs');
  expect(existsSync(rd), 'rolldown (a devDependency) is installed').toBe(true);
  const { rolldown } = await import(pathToFileURL(rd).href);
  const b = await rolldown({ input: path.join(root, 'dist', 'index.js'), platform: 'browser', logLevel: 'silent' });
  minified = (await b.generate({ format: 'esm', minify: true })).output[0].code;
  await b.close();
  return minified;
}

describe('the page bundle', () => {
  it('carries no pure comment of the minifier', async () => {
    const code = await pageCode();
    expect(code.length).toBeGreaterThan(100000);
    const found = [...code.matchAll(/.{0,60}@__PURE__.{0,60}/g)].map((m) => m[0]);
    expect(found, 'write these without the comment: new Map(none), Float64Array.of(0), TypeError(...) when returned').toEqual([]);
  });

  // Modules far apart in the bundle (more than gzip's 32 KB window) pay for a
  // copied message or loop in full: each of these is one function, called by
  // the modules that need it.
  it('holds one copy of the refusals and the integer-array comparison its modules share', async () => {
    const code = await pageCode();
    const count = (re) => code.match(re)?.length ?? 0;
    expect(count(/shapes in one call: at most/g), 'rules.js checkCount (broadcastShapes, explain)').toBe(1);
    expect(count(/must be \{ data, shape \} or a resident tensor, got \$\{\w+===null/g), 'operands.js notOperand (layout.js reads through it)').toBe(1);
    expect(count(/for\(let (\w+)=0;\1<(\w+)\.length;\1\+\+\)if\(\2\[\1\]!==(\w+)\[\1\]\)return!1;return!0/g), 'execute.js sameInts (execute.js, expr.js)').toBe(1);
  });
});

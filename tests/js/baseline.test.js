// The browsers the README promises ("Chrome and Edge N+, Firefox N+, Safari N+")
// against the language features the shipped JavaScript uses. The floor comes
// from the engine (SIMD128 and its companions); the JavaScript must not raise it
// unsaid. Each feature below is found in the minified bundles by its spelling,
// with the first version of each browser that has it (MDN's compatibility
// tables). A new feature is added to the list when the code starts to use one.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

// [what, a pattern in minified code, Chrome, Firefox, Safari]
const FEATURES = [
  ['logical assignment (||= &&= ??=)', /\|\|=|&&=|\?\?=/, 85, 79, 14],
  ['private class fields (#x)', /[^\w$]#[A-Za-z_$][\w$]*[;=]/, 74, 90, 14.1],
  ['private brand checks (#x in o)', /[(!]#[A-Za-z_$][\w$]*\s+in\s/, 91, 90, 15],
  ['Array.prototype.at', /\.at\(-?[\w$]+\)/, 92, 90, 15.4],
  ['Object.hasOwn', /Object\.hasOwn\(/, 93, 92, 15.4],
  ['class static blocks', /static\s*\{/, 94, 93, 16.4],
  ['structuredClone()', /structuredClone\(/, 98, 94, 15.4],
  ['Array.prototype.findLast / findLastIndex', /\.findLast(Index)?\(/, 97, 104, 15.4],
  ['change-array-by-copy (toSorted, toReversed, toSpliced)', /\.to(Sorted|Reversed|Spliced)\(/, 110, 115, 16],
  ['Object.groupBy / Map.groupBy', /(Object|Map)\.groupBy\(/, 117, 119, 17.4],
  ['Promise.withResolvers', /Promise\.withResolvers\(/, 119, 121, 17.4],
  ['Array.fromAsync', /Array\.fromAsync\(/, 121, 115, 16.4],
  ['String.prototype.isWellFormed / toWellFormed', /\.(is|to)WellFormed\(/, 111, 119, 16.4],
];

function floors() {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const m = /Chrome and Edge (\d+)\+, Firefox (\d+)\+, Safari ([\d.]+)\+/.exec(readme);
  expect(m, 'README.md states "Chrome and Edge N+, Firefox N+, Safari N+"').not.toBeNull();
  return { chrome: Number(m[1]), firefox: Number(m[2]), safari: Number(m[3]) };
}

async function bundle(entry) {
  const rd = path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs');
  expect(existsSync(rd), 'rolldown (a devDependency) is installed').toBe(true);
  const { rolldown } = await import(pathToFileURL(rd).href);
  const b = await rolldown({ input: path.join(root, 'dist', entry), platform: 'browser', logLevel: 'silent' });
  const code = (await b.generate({ format: 'esm', minify: true })).output[0].code;
  await b.close();
  return code;
}

/** The features `code` uses that a browser at the floor lacks: ["what (Chrome c, ...)"]. */
function above(code, f) {
  return FEATURES.filter(([, re, c, ff, s]) => re.test(code) && (c > f.chrome || ff > f.firefox || s > f.safari))
    .map(([what, , c, ff, s]) => `${what} (Chrome ${c}, Firefox ${ff}, Safari ${s})`);
}

describe('the browsers the README promises', () => {
  it('the engine sets the floor: no browser is older than WebAssembly SIMD128 (Chrome 91, Firefox 89, Safari 16.4)', () => {
    const f = floors();
    expect(f.chrome).toBeGreaterThanOrEqual(91);
    expect(f.firefox).toBeGreaterThanOrEqual(89);
    expect(f.safari).toBeGreaterThanOrEqual(16.4);
  });

  for (const entry of ['index.js', 'inline.js', 'shapes-entry.js', 'model-entry.js']) {
    it(`dist/${entry}, bundled, uses nothing newer than the floor`, async () => {
      const code = await bundle(entry);
      expect(code.length).toBeGreaterThan(1000);
      expect(above(code, floors())).toEqual([]);
    });
  }

  it('the explorer pages built from web/ use nothing newer than the floor', () => {
    const dir = path.join(root, 'dist', 'explorer', 'assets');
    const files = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.js')) : [];
    expect(files.length, 'dist/explorer is built (npm test builds it)').toBeGreaterThan(0);
    const f = floors();
    for (const n of files) expect(above(readFileSync(path.join(dir, n), 'utf8'), f), n).toEqual([]);
  });

  it('each pattern finds its feature and only it', () => {
    const hits = (src) => FEATURES.filter(([, re]) => re.test(src)).map(([w]) => w);
    expect(hits('class A{static{x()}}')).toEqual(['class static blocks']);
    expect(hits('let a=b.at(-1)')).toEqual(['Array.prototype.at']);
    expect(hits('Object.hasOwn(a,b)')).toEqual(['Object.hasOwn']);
    expect(hits('a.findLastIndex(f)')).toEqual(['Array.prototype.findLast / findLastIndex']);
    expect(hits('class B{#e;m(t){return!(#e in t)}}')).toEqual(['private class fields (#x)', 'private brand checks (#x in o)']);
    expect(hits('a||=b')).toEqual(['logical assignment (||= &&= ??=)']);
    expect(hits('throw TypeError(`sent through postMessage or structuredClone: tensors stay`)')).toEqual([]);
    expect(hits('a.atLeast(1);x.toString()')).toEqual([]);
    // A browser at the floor lacks what arrived after it.
    expect(above('a.findLast(f)', { chrome: 94, firefox: 93, safari: 16.4 })).toHaveLength(1);
    expect(above('class A{static{}}', { chrome: 93, firefox: 93, safari: 16.4 })).toHaveLength(1);
    expect(above('class A{static{}}', { chrome: 94, firefox: 93, safari: 16.4 })).toEqual([]);
  });
});

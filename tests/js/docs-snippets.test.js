// Every ```js / ```ts block of README.md, CONTRIBUTING.md and docs/*.md runs,
// as a user would paste it, against the built package (dist/), and prints what
// its comments say.
//
// Conventions (CONTRIBUTING.md, "Code blocks in the docs"):
// - A block is a whole program: its own imports and `await init()`. Imports of
//   'tensorcast' run dist/node.js (what Node resolves), 'tensorcast/inline'
//   dist/inline.js, 'tensorcast/shapes' dist/tensorcast-shapes-node.js. ```ts
//   blocks are stripped of their types (esbuild) first.
// - Each console.log call carries its expected output on its last line as a
//   comment, `// → value` (or `//=> value`); the n-th such comment is the n-th
//   call's output. Values are compared as util.inspect prints them (strings
//   as they are), ignoring whitespace and a typed array's `(length)`; a value
//   that ends in `…` matches an output that starts with the rest.
// - ```ts blocks are also type-checked (TypeScript 5.9, strict, against
//   dist/index.d.ts), so a `// @ts-expect-error` line in one is a checked claim.
// - A block must not throw (show an error with try/catch and log its message),
//   and a `// →` comment with no console.log call to print it fails the block.
// - ```js no-run (or ```ts no-run) marks a block that is not meant to run here
//   (bundler configuration, browser-only code); use it sparingly.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import os from 'node:os';
import { transformSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const ENTRIES = {
  tensorcast: path.join(dist, 'node.js'),
  'tensorcast/inline': path.join(dist, 'inline.js'),
  'tensorcast/shapes': path.join(dist, 'tensorcast-shapes-node.js'),
  'tensorcast/model': path.join(dist, 'tensorcast-model-node.js'),
};
const RUN_LANGS = new Set(['js', 'javascript', 'mjs', 'ts', 'typescript']);
const TS_LANGS = new Set(['ts', 'typescript']);

function markdownFiles() {
  const files = ['README.md', 'CONTRIBUTING.md'].filter((f) => fs.existsSync(path.join(root, f)));
  const docs = path.join(root, 'docs');
  for (const f of fs.readdirSync(docs).sort()) if (f.endsWith('.md')) files.push(`docs/${f}`);
  return files;
}

/** Fenced blocks of a Markdown text: { lang, flags, code, line }. */
export function extractBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) body.push(lines[j++]);
    blocks.push({ lang: open[3].toLowerCase(), flags: open[4].trim().split(/\s+/).filter(Boolean), code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The `// → value` comments of a block, in order, with their line in the block. */
export function expectations(code) {
  const out = [];
  code.split('\n').forEach((l, i) => {
    const m = /\/\/\s*(?:→|=>)\s?(.*)$/.exec(l);
    if (m) out.push({ value: m[1].trim(), line: i + 1 });
  });
  return out;
}

const TYPED = /\b((?:Big)?(?:Int|Uint|Float)(?:8|16|32|64)(?:Clamped)?Array)\(\d+\)/g;
/** The form outputs are compared in: no whitespace, no typed-array lengths. */
export function normalize(s) {
  return s.replace(TYPED, '$1').replace(/\s+/g, '');
}

const ELLIPSIS = /^(…|\.\.\.)|(…|\.\.\.)$/g;
/** Whether `actual` (as printed) is `expected`: `…x` ends with x, `x…` starts with it, `…x…` contains it. */
export function matches(expected, actual) {
  const e = expected.trim();
  const head = e.startsWith('…') || e.startsWith('...');
  const tail = e.endsWith('…') || e.endsWith('...');
  const want = normalize(e.replace(ELLIPSIS, ''));
  const got = normalize(actual);
  if (head && tail) return got.includes(want);
  if (tail) return got.startsWith(want);
  if (head) return got.endsWith(want);
  return got === want;
}

/** Named imports of the package in a block: [{ from, names }]. */
function packageImports(code) {
  const out = [];
  const re = /import\s*(?:type\s+)?\{([^}]*)\}\s*from\s*['"](tensorcast(?:\/inline|\/shapes|\/model)?)['"]/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (/import\s+type\s*\{/.test(m[0])) continue;
    const names = m[1].split(',').map((s) => s.trim()).filter(Boolean)
      .filter((s) => !s.startsWith('type '))
      .map((s) => s.split(/\s+as\s+/)[0].trim());
    out.push({ from: m[2], names });
  }
  return out;
}

const PRELUDE = `import * as __util from 'node:util';
console.log = (...args) => {
  const text = __util.formatWithOptions({ depth: Infinity, breakLength: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }, ...args);
  process.stdout.write('\\u0001' + JSON.stringify(text) + '\\n');
};
`;

function rewriteImports(code) {
  return code.replace(/(from\s*|import\s*\(\s*)(['"])(tensorcast(?:\/inline|\/shapes|\/model)?)\2/g,
    (_, pre, q, spec) => `${pre}${q}${pathToFileURL(ENTRIES[spec]).href}${q}`);
}

function run(block) {
  let code = block.code;
  if (TS_LANGS.has(block.lang)) {
    code = transformSync(code, { loader: 'ts', format: 'esm', target: 'es2022' }).code;
  }
  const src = PRELUDE + rewriteImports(code);
  const r = spawnSync(process.execPath, ['--input-type=module', '-'], { input: src, encoding: 'utf8', cwd: root, timeout: 60_000 });
  const logs = [];
  const other = [];
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('\u0001')) logs.push(JSON.parse(line.slice(1)));
    else if (line) other.push(line);
  }
  return { status: r.status, signal: r.signal, logs, stderr: r.stderr, other };
}

/** Type-check the ts blocks as one program (strict, lib es2022 + dom, no @types): diagnostics per block. */
function typecheck(blocks) {
  const require = createRequire(import.meta.url);
  const ts = require('typescript5');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tc-docs-'));
  const files = blocks.map((b, i) => {
    const f = path.join(dir, `block${i}.ts`);
    fs.writeFileSync(f, b.code);
    return f;
  });
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
    skipLibCheck: true, baseUrl: root,
    paths: { tensorcast: ['dist/index.d.ts'], 'tensorcast/inline': ['dist/inline.d.ts'], 'tensorcast/shapes': ['dist/shapes-entry.d.ts'], 'tensorcast/model': ['dist/model-entry.d.ts'] },
  });
  const out = new Map();
  for (const [i, f] of files.entries()) {
    const sf = program.getSourceFile(f);
    const diags = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    out.set(blocks[i], diags.map((d) => {
      const { line } = d.file ? d.file.getLineAndCharacterOfPosition(d.start) : { line: -1 };
      return `${blocks[i].file}:${blocks[i].line + line + 1}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

const exported = {};
for (const [spec, file] of Object.entries(ENTRIES)) {
  exported[spec] = fs.existsSync(file) ? new Set(Object.keys(await import(pathToFileURL(file).href))) : new Set();
}

const all = [];
for (const file of markdownFiles()) {
  for (const b of extractBlocks(fs.readFileSync(path.join(root, file), 'utf8'))) {
    if (RUN_LANGS.has(b.lang)) all.push({ ...b, file });
  }
}

describe('docs code blocks', () => {
  const tsBlocks = all.filter((b) => TS_LANGS.has(b.lang) && !b.flags.includes('no-run'));
  let tsDiagnostics;
  const diagnosticsOf = (b) => (tsDiagnostics ??= typecheck(tsBlocks)).get(b);

  it('finds the blocks to run (README has a quick start)', () => {
    const readme = all.filter((b) => b.file === 'README.md' && !b.flags.includes('no-run'));
    expect(readme.length).toBeGreaterThanOrEqual(5);
    // Blocks that print nothing prove little: most must check their output.
    const checked = readme.filter((b) => expectations(b.code).length > 0);
    expect(checked.length).toBeGreaterThanOrEqual(readme.length - 1);
  });

  it('every relative link of the docs names a file that exists', () => {
    const broken = [];
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split('#')[0];
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!fs.existsSync(path.resolve(root, path.dirname(file), target))) broken.push(`${file}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the comparison ignores layout only', () => {
    expect(matches('Float32Array [1, 2]', 'Float32Array(2) [ 1, 2 ]')).toBe(true);
    expect(matches('Float32Array [1, 2]', 'Float32Array(2) [ 1, 3 ]')).toBe(false);
    expect(matches('{ a: 1, … ', '{ a: 1, b: 2 }')).toBe(true);
    expect(matches('[2, 3]', '[ 2, 3, 1 ]')).toBe(false);
    expect(matches('…back to (3,)…', 'x: cannot sum (4,2) back to (3,): axis 1')).toBe(true);
    expect(matches('…back to (3,)', 'cannot sum (4,2) back to (3,): axis 1')).toBe(false);
    expect(expectations('console.log(1); // → 1\nconsole.log(2); //=> 2\n// plain')).toEqual([{ value: '1', line: 1 }, { value: '2', line: 2 }]);
  });

  for (const b of all) {
    const name = `${b.file}:${b.line} (${b.lang}${b.flags.length ? ' ' + b.flags.join(' ') : ''})`;
    if (b.flags.includes('no-run')) {
      it.skip(name, () => {});
      continue;
    }
    it(name, () => {
      // A function the block imports that dist/ does not export: say so, by name.
      for (const { from, names } of packageImports(b.code)) {
        const missing = names.filter((n) => !exported[from].has(n));
        if (missing.length) {
          throw new Error(`${name} imports ${missing.join(', ')} from '${from}', which ${path.relative(root, ENTRIES[from])} does not export (is dist/ built from this branch?)`);
        }
      }
      if (TS_LANGS.has(b.lang)) {
        const diags = diagnosticsOf(b);
        if (diags.length) throw new Error(`${name} does not type-check:\n  ${diags.join('\n  ')}`);
      }
      const want = expectations(b.code);
      const r = run(b);
      if (r.status !== 0) {
        throw new Error(`${name} threw (exit ${r.status ?? r.signal}); printed so far:\n${r.logs.join('\n')}\n--- stderr ---\n${r.stderr.trim()}`);
      }
      const report = [];
      const n = Math.max(want.length, r.logs.length);
      for (let i = 0; i < n; i++) {
        const w = want[i];
        const got = r.logs[i];
        if (!w) report.push(`console.log #${i + 1} printed ${JSON.stringify(got)} but has no \`// →\` comment`);
        else if (got === undefined) report.push(`${b.file}:${b.line + w.line}: expected ${JSON.stringify(w.value)}, but nothing more was printed (a \`// →\` comment needs a console.log)`);
        else if (!matches(w.value, got)) report.push(`${b.file}:${b.line + w.line}: expected ${JSON.stringify(w.value)}\n    printed  ${JSON.stringify(got)}`);
      }
      if (report.length) throw new Error(`${name}:\n  ${report.join('\n  ')}`);
    });
  }
});

// tests/types/probe-results.ts, the type probe that also runs: type-checked here
// (TypeScript 5.9, strict, against dist/'s declarations, as docs-snippets checks
// the docs' ts blocks; pack-smoke checks it again, with every probe, under each
// tsconfig and TypeScript 7), then stripped of its types and run against
// dist/node.js, so that each call's declared result and what it returns are
// held to the one expectation the probe writes down.
import { describe, it, expect, beforeAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { init } from '../../dist/node.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const probe = path.join(root, 'tests', 'types', 'probe-results.ts');
const reports = path.join(root, 'tests', 'types', 'probe-reports.ts');

beforeAll(async () => {
  await init();
});

/** The probe's diagnostics under strict, lib `lib` (es2022: no Float16Array, so float16 data is a Uint16Array), and `options`. */
function diagnostics(lib, file = probe, options = {}) {
  const ts = createRequire(import.meta.url)('typescript5');
  const program = ts.createProgram([file], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib, types: [], skipLibCheck: true, baseUrl: root,
    paths: { tensorcast: ['dist/index.d.ts'], 'tensorcast/model': ['dist/model-entry.d.ts'] }, ...options,
  });
  const sf = program.getSourceFile(file);
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => {
    const { line } = sf.getLineAndCharacterOfPosition(d.start);
    return `${path.basename(file)}:${line + 1}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** The probe stripped of its types, importing dist/'s entries, imported. */
async function load(file, use) {
  const dist = (f) => pathToFileURL(path.join(root, 'dist', f)).href;
  const js = transformSync(fs.readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' }).code
    .replace(/from\s*(['"])tensorcast\1/g, `from '${dist('node.js')}'`)
    .replace(/from\s*(['"])tensorcast\/model\1/g, `from '${dist('tensorcast-model-node.js')}'`);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tc-results-')), path.basename(file).replace(/\.ts$/, '.mjs'));
  fs.writeFileSync(out, js);
  try {
    return await use(await import(pathToFileURL(out).href));
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

describe('declared results match the runtime (tests/types/probe-results.ts)', () => {
  it('type-checks under strict, with and without Float16Array in the lib, also with exactOptionalPropertyTypes', () => {
    expect(diagnostics(['lib.es2022.d.ts'])).toEqual([]);
    expect(diagnostics(['lib.esnext.d.ts'])).toEqual([]);
    expect(diagnostics(['lib.es2022.d.ts'], probe, { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true })).toEqual([]);
  }, 60_000);

  it('returns at run time what the types declare', async () => {
    await load(probe, ({ results }) => {
      // onnxruntime's untyped Tensor (a session's output), as the probe types it: float32 here.
      expect(results({ type: 'float32', dims: [2, 3], data: Float32Array.of(1, 2, 3, 4, 5, 6) })).toEqual([]);
    });
  });
});

// tests/types/probe-reports.ts: explain()'s and inferShapes()' reports, their keys as
// declared (tsc holds its lists to keyof) and as the runtime gives them.
describe("the reports' declared keys match the runtime (tests/types/probe-reports.ts)", () => {
  beforeAll(async () => {
    await (await import('../../dist/tensorcast-model-node.js')).init();
  });

  it('type-checks under strict, also with exactOptionalPropertyTypes', () => {
    expect(diagnostics(['lib.es2022.d.ts'], reports)).toEqual([]);
    expect(diagnostics(['lib.esnext.d.ts'], reports, { exactOptionalPropertyTypes: true })).toEqual([]);
  }, 60_000);

  it('gives at run time no key the types do not declare', async () => {
    await load(reports, ({ results }) => expect(results()).toEqual([]));
  });
});

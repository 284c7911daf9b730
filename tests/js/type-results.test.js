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

beforeAll(async () => {
  await init();
});

/** The probe's diagnostics under strict, lib `lib` (es2022: no Float16Array, so float16 data is a Uint16Array). */
function diagnostics(lib) {
  const ts = createRequire(import.meta.url)('typescript5');
  const program = ts.createProgram([probe], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib, types: [], skipLibCheck: true, baseUrl: root,
    paths: { tensorcast: ['dist/index.d.ts'] },
  });
  const sf = program.getSourceFile(probe);
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => {
    const { line } = sf.getLineAndCharacterOfPosition(d.start);
    return `probe-results.ts:${line + 1}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('declared results match the runtime (tests/types/probe-results.ts)', () => {
  it('type-checks under strict, with and without Float16Array in the lib', () => {
    expect(diagnostics(['lib.es2022.d.ts'])).toEqual([]);
    expect(diagnostics(['lib.esnext.d.ts'])).toEqual([]);
  }, 60_000);

  it('returns at run time what the types declare', async () => {
    const js = transformSync(fs.readFileSync(probe, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' }).code
      .replace(/from\s*(['"])tensorcast\1/g, `from '${pathToFileURL(path.join(root, 'dist', 'node.js')).href}'`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tc-results-')), 'probe-results.mjs');
    fs.writeFileSync(file, js);
    try {
      const { results } = await import(pathToFileURL(file).href);
      // onnxruntime's untyped Tensor (a session's output), as the probe types it: float32 here.
      expect(results({ type: 'float32', dims: [2, 3], data: Float32Array.of(1, 2, 3, 4, 5, 6) })).toEqual([]);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

// `npm test`: install what is missing, build, then run every suite — native
// ctest (rule engine, kernels), Vitest (JS API against dist/, browser tests in
// Debian's Chromium), the npm-pack smoke test — and close with one plain
// "N passed, N failed" line.
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { root, run, capture, aptInstall, ensureNodeModules } from './lib.mjs';
import { build } from './build.mjs';

const results = [];
function record(suite, passed, failed) {
  results.push({ suite, passed, failed });
  console.log(`\n[${suite}] ${passed} passed, ${failed} failed\n`);
}

aptInstall(['cmake', 'g++', 'libgtest-dev', 'emscripten', 'chromium']);
ensureNodeModules();
build();

// ---- native: rule engine and kernels under GoogleTest ----------------------
{
  const bdir = path.join(root, 'build', 'native');
  run('cmake', ['-S', root, '-B', bdir, '-DCMAKE_BUILD_TYPE=Release']);
  run('cmake', ['--build', bdir, '-j2']);
  const r = capture('ctest', ['--test-dir', bdir, '--output-on-failure', '-j2']);
  process.stdout.write(r.stdout.split('\n').filter((l) => !/Test +#\d+: .* Passed/.test(l)).join('\n'));
  process.stderr.write(r.stderr);
  const m = /(\d+)% tests passed, (\d+) tests failed out of (\d+)/.exec(r.stdout);
  if (!m) record('ctest', 0, 1);
  else record('ctest', Number(m[3]) - Number(m[2]), Number(m[2]));
}

// ---- JS API and browser tests under Vitest ------------------------------------
{
  mkdirSync(path.join(root, 'build'), { recursive: true });
  const out = path.join(root, 'build', 'vitest.json');
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`], { allowFail: true });
  if (!existsSync(out)) record('vitest', 0, 1);
  else {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    // A suite that fails to load has no tests in it: count it as a failure.
    const brokenFiles = j.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
    record('vitest', j.numPassedTests, j.numFailedTests + brokenFiles + (j.numTotalTests === 0 ? 1 : 0));
  }
}

// ---- the published tarball installs and imports ------------------------------
{
  const status = run('node', ['scripts/pack-smoke.mjs'], { allowFail: true });
  record('pack-smoke', status === 0 ? 1 : 0, status === 0 ? 0 : 1);
}

const passed = results.reduce((s, r) => s + r.passed, 0);
const failed = results.reduce((s, r) => s + r.failed, 0);
console.log(results.map((r) => `${r.suite}: ${r.passed} passed, ${r.failed} failed`).join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

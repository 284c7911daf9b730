// One version everywhere: package.json declares it; the engine's
// contract().version is built from it (CMakeLists.txt reads package.json and
// passes it to contract.cpp), package-lock.json repeats it, and CHANGELOG.md's
// newest dated release is it.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../../dist/node.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (f) => readFileSync(path.join(root, f), 'utf8');
const { version } = JSON.parse(read('package.json'));

beforeAll(async () => { await tc.init(); });

/** [major, minor, patch] of a plain semantic version. */
const parts = (v) => v.split('.').map(Number);
const newer = (a, b) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

describe('one version', () => {
  it('package.json declares a semantic version', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it("contract().version is package.json's (the engine is built from it)", () => {
    expect(tc.contract().version).toBe(version);
  });
  it('no other file declares it: CMakeLists.txt and contract.cpp read it, package-lock.json repeats it', () => {
    const cmake = read('CMakeLists.txt');
    expect(cmake).toMatch(/string\(JSON TC_VERSION GET \$\{TC_PACKAGE_JSON\} version\)/);
    expect(cmake).not.toMatch(/project\([^)]*VERSION\s+\d/);
    expect(read('bindings/wasm/contract.cpp')).not.toMatch(/"\d+\.\d+\.\d+"/);
    const lock = JSON.parse(read('package-lock.json'));
    expect([lock.version, lock.packages[''].version]).toEqual([version, version]);
  });
  it("CHANGELOG.md: an empty Unreleased on top, then dated releases, newest first, the newest package.json's", () => {
    const text = read('CHANGELOG.md');
    const heads = [...text.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(heads[0]).toBe('[Unreleased]');
    // Entries belong to the release that ships them: what main holds is package.json's
    // version, so Unreleased holds nothing (a change lands with its version's entry).
    const unreleased = text.slice(text.indexOf('## [Unreleased]') + '## [Unreleased]'.length, text.indexOf(`## [${heads[1]?.slice(1)}`));
    expect(unreleased.trim(), 'entries under [Unreleased]: they ship in package.json\'s version, so list them there').toBe('');
    const releases = heads.slice(1).map((h) => {
      const m = /^\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/.exec(h);
      expect(m, `"## ${h}" is not "## [x.y.z] - YYYY-MM-DD"`).not.toBeNull();
      expect(Number.isNaN(Date.parse(m[2]))).toBe(false);
      return { v: m[1], date: m[2] };
    });
    expect(releases.length).toBeGreaterThan(0);
    expect(releases[0].v).toBe(version);
    for (let i = 1; i < releases.length; i++) {
      expect(newer(releases[i - 1].v, releases[i].v), `${releases[i - 1].v} after ${releases[i].v}`).toBe(true);
      expect(releases[i - 1].date >= releases[i].date, `${releases[i - 1].v} dated before ${releases[i].v}`).toBe(true);
    }
    // Every heading has its link.
    for (const h of ['Unreleased', ...releases.map((r) => r.v)]) expect(text).toMatch(new RegExp(`^\\[${h.replace(/\./g, '\\.')}\\]: https://`, 'm'));
    expect(text).toMatch(new RegExp(`^\\[Unreleased\\]: .*/compare/v${version.replace(/\./g, '\\.')}\\.\\.\\.HEAD$`, 'm'));
  });
});

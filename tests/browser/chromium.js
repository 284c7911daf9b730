// Debian's Chromium under playwright-core, with the flags this machine needs
// (no sandbox as root; no background networking, which a closed network refuses).
// One place for the browser tests; never a downloaded browser.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { beforeAll, afterAll } from 'vitest';
import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

/** A headless Chromium for a test file. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Make `site` afresh, holding the built package (dist/) as pkg/, as a page loads it. */
export function packageSite(site) {
  rmSync(site, { recursive: true, force: true });
  mkdirSync(site, { recursive: true });
  cpSync(path.join(root, 'dist'), path.join(site, 'pkg'), { recursive: true });
}

/**
 * A page of one module script over the package (build/<name>/main.html,
 * served, with a Chromium). The script is `body` inside the frame every such
 * page needs: `tc` (the package's browser entry) imported and `init()`ed,
 * `out` an empty object the body fills, any throw kept as out.error, then
 * window.__result = out and the title 'done'. `imports` go above (module
 * imports of ./pkg/...), `setup` between `out` and the try (helpers the body
 * calls). result(timeout) loads the page once for every test that asks and
 * returns its window.__result; close() ends the page's server and browser.
 */
export async function scriptPage(name, { imports = '', setup = '', body }) {
  const site = path.join(root, 'build', name);
  packageSite(site);
  const mainJs = `import * as tc from './pkg/index.js';
${imports}
const out = {};
${setup}
try {
  await tc.init();
${body}
} catch (e) { out.error = String(e && e.stack || e); }
document.title = 'done';
window.__result = out;
`;
  writeFileSync(path.join(site, 'main.html'), '<!doctype html><html><head><meta charset="utf-8"><title>pending</title><script type="module" src="./main.js"></script></head><body></body></html>');
  writeFileSync(path.join(site, 'main.js'), mainJs);
  const { server, url } = await serve(site, 0);
  const browser = await launchChromium();
  let result = null; // the one page load's result, for every test that reads it
  const load = async (timeout) => {
    const p = await browser.newPage();
    try {
      await p.goto(`${url}/main.html`);
      await p.waitForFunction(() => document.title === 'done', null, { timeout });
      return await p.evaluate(() => window.__result);
    } finally {
      await p.close();
    }
  };
  return {
    result(timeout) {
      if (result === null) result = load(timeout);
      return result;
    },
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * scriptPage() for the tests of one file: made before them (beforeAll),
 * closed after (afterAll). Returns { result(timeout) } at once.
 */
export function sharedScriptPage(name, script) {
  let page = null;
  beforeAll(async () => {
    page = await scriptPage(name, script);
  });
  afterAll(async () => {
    await page?.close();
  });
  return { result: (timeout) => page.result(timeout) };
}

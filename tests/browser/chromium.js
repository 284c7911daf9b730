// Debian's Chromium under playwright-core, with the flags this machine needs
// (no sandbox as root; no background networking, which a closed network refuses).
// One place for the browser tests; never a downloaded browser.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
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
 * served, with a Chromium): result(timeout) loads it, waits for the script to
 * set the title to 'done' and returns its window.__result (the page is loaded
 * once: later calls give the same result); close() ends both.
 */
export async function scriptPage(name, mainJs) {
  const site = path.join(root, 'build', name);
  packageSite(site);
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

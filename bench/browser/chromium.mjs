// Headless Chromium for the bench: Debian's /usr/bin/chromium driven by
// playwright-core, pages served over 127.0.0.1 by scripts/serve.mjs from a
// staging directory of symlinks (/dist, /bench and, if given, /boundary and
// the `mounts`: /<name> for each { name: dir }).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(benchDir, '..');

export const CHROMIUM = process.env.TENSORCAST_BENCH_CHROMIUM || '/usr/bin/chromium';
export const FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic',
];

/**
 * Start Chromium and the server; returns { open(query) -> result, version, close() }.
 * open() loads bench/browser/page.html?<query> in a fresh page and waits for its result.
 */
export async function startChromium({ boundaryDir = null, mounts = {}, timeoutMs = 10 * 60 * 1000 } = {}) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set TENSORCAST_BENCH_CHROMIUM)`);
  const { chromium } = await import('playwright-core');
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'tensorcast-bench-www-'));
  fs.symlinkSync(path.join(root, 'dist'), path.join(stage, 'dist'));
  fs.symlinkSync(benchDir, path.join(stage, 'bench'));
  if (boundaryDir) fs.symlinkSync(path.resolve(boundaryDir), path.join(stage, 'boundary'));
  for (const [name, dir] of Object.entries(mounts)) fs.symlinkSync(path.resolve(dir), path.join(stage, name));
  const { server, url } = await serve(stage, 0);
  // headless: false because --headless=new is passed explicitly (playwright would add its own --headless).
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: false, args: FLAGS });
  const version = browser.version();
  return {
    version,
    async open(query) {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(`${url}bench/browser/page.html?${query}`);
        await page.waitForFunction(() => window.__result || window.__error, null, { timeout: timeoutMs, polling: 500 });
        const err = await page.evaluate(() => window.__error);
        if (err) throw new Error(`page ${query}: ${err}`);
        return await page.evaluate(() => window.__result);
      } catch (e) {
        if (errors.length) e.message += ` (page errors: ${errors.join('; ')})`;
        throw e;
      } finally {
        await page.close();
      }
    },
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
      fs.rmSync(stage, { recursive: true, force: true });
    },
  };
}

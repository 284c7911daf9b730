// Headless Chromium for the bench: Debian's /usr/bin/chromium driven by
// playwright-core, pages served over 127.0.0.1 from a set of mounts (/dist,
// /bench and, if given, /boundary and the `mounts`: /<name> for each
// { name: dir }).
//
// The mounts are served by serveMounts() below, not by scripts/serve.mjs from a
// staging folder of symlinks as before: since 4d83b2f (issue 37) that server
// never follows a symlink out of its folder (403), which is right for what it
// ships for and refused every file of such a stage.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIME, resolveInside, urlFor } from '../../scripts/serve.mjs';

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
  const all = { dist: path.join(root, 'dist'), bench: benchDir, ...(boundaryDir ? { boundary: path.resolve(boundaryDir) } : {}) };
  for (const [name, dir] of Object.entries(mounts)) all[name] = path.resolve(dir);
  const { server, url } = await serveMounts(all);
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
    },
  };
}

/**
 * Serve each { name: dir } at /<name>/ on 127.0.0.1 (a free port): GET and
 * HEAD, .wasm as application/wasm (bin/serve.mjs's MIME table), a path never
 * above its mount (resolveInside); what lies in a mount is served wherever its
 * symlinks lead (bench/node_modules, a worktree's dist). Bench use only.
 */
export function serveMounts(mounts) {
  const server = http.createServer((req, res) => {
    const send = (code, text) => { res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' }); res.end(text); };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
    const m = /^\/([^/?#]+)(\/[^?#]*)?/.exec(req.url || '/');
    const dir = m && Object.hasOwn(mounts, m[1]) ? mounts[m[1]] : null;
    const file = dir && resolveInside(dir, m[2] || '/');
    if (!file) {
      if (req.url === '/favicon.ico') { res.writeHead(204); return res.end(); }
      return send(404, 'not found');
    }
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return send(404, 'not found');
      res.writeHead(200, { 'content-type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream', 'content-length': st.size, 'cache-control': 'no-cache' });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({ server, url: urlFor('127.0.0.1', server.address().port) });
    });
  });
}

// A tiny static file server for the built explorer (node:http, no
// dependencies). Binds 127.0.0.1 only, serves .wasm as application/wasm (so
// WebAssembly.instantiateStreaming works) and never leaves its directory.
// An HTML page's own Content-Security-Policy (its <meta http-equiv>) is also
// sent as a response header, with `frame-ancestors 'none'` added: a <meta>
// policy cannot set frame-ancestors, so only the header stops framing.
//
//   import { serve } from './serve.mjs';
//   const { server, url } = await serve('build/web', 0);   // 0: a free port
//
//   node scripts/serve.mjs [dir] [port]
import http from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** What every response may not be framed by (and what a page's header adds to its meta policy). */
export const FRAME_ANCESTORS = "frame-ancestors 'none'";

/**
 * The Content-Security-Policy of an HTML document: its <meta http-equiv> policy
 * (the first one) with frame-ancestors 'none' added; frame-ancestors alone
 * when the page has none.
 */
export function pageCsp(html) {
  let meta = null;
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']?content-security-policy["']?/i.test(tag)) continue;
    const m = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    if (m) { meta = (m[1] ?? m[2]).trim(); break; }
  }
  if (!meta) return FRAME_ANCESTORS;
  const directives = meta.split(';').map((d) => d.trim()).filter((d) => d && !/^frame-ancestors\b/i.test(d));
  return [...directives, FRAME_ANCESTORS].join('; ');
}

/** Resolve a URL path inside `root`, or null if it would leave it. */
export function resolveInside(root, urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  if (p.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + p));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  return full;
}

/**
 * Serve `dir` on 127.0.0.1:`port` (0 picks a free port).
 * @returns {Promise<{server: import('node:http').Server, url: string}>}
 */
export function serve(dir, port = 8080) {
  const root = path.resolve(dir);
  const server = http.createServer(async (req, res) => {
    const send = (code, text) => {
      res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-security-policy': FRAME_ANCESTORS });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
    let file = resolveInside(root, req.url || '/');
    if (!file) return send(403, 'forbidden');
    try {
      let st = await stat(file);
      if (st.isDirectory()) {
        file = path.join(file, 'index.html');
        st = await stat(file);
      }
      const ext = path.extname(file).toLowerCase();
      const type = MIME[ext] || 'application/octet-stream';
      const headers = {
        'content-type': type,
        'content-length': st.size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'content-security-policy': FRAME_ANCESTORS,
        'x-frame-options': 'DENY', // for browsers without frame-ancestors
      };
      if (ext === '.html') {
        const html = await readFile(file);
        headers['content-security-policy'] = pageCsp(html.toString('utf8'));
        headers['content-length'] = html.length;
        res.writeHead(200, headers);
        return res.end(req.method === 'HEAD' ? undefined : html);
      }
      res.writeHead(200, headers);
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
    } catch {
      // Browsers ask for /favicon.ico on their own; a page without one should
      // not get a 404 in its console.
      if (req.url === '/favicon.ico') {
        res.writeHead(204, { 'cache-control': 'no-cache' });
        return res.end();
      }
      send(404, 'not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const { port: p } = server.address();
      resolve({ server, url: `http://127.0.0.1:${p}/` });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dir = process.argv[2] || path.join(here, '..', 'build', 'web');
  const port = Number(process.argv[3] ?? process.env.PORT ?? 8080);
  const { url } = await serve(dir, port);
  console.log(`serving ${path.resolve(dir)} at ${url}`);
}

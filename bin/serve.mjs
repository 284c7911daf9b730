// The explorer's static file server: node:http, no dependencies. It ships in
// the npm package (`npx tensorcast explore`, bin/tensorcast.mjs) and is the one
// `npm start`, the browser tests and the benchmarks use too (scripts/serve.mjs
// re-exports it). Binds 127.0.0.1 unless told otherwise, serves .wasm as
// application/wasm (so WebAssembly.instantiateStreaming works) and never leaves
// its directory. An HTML page's own Content-Security-Policy (its <meta
// http-equiv>) is also sent as a response header, with `frame-ancestors 'none'`
// added: a <meta> policy cannot set frame-ancestors, so only the header stops
// framing.
//
//   import { serve } from './serve.mjs';
//   const { server, url } = await serve('dist/explorer', 0);   // 0: a free port
//   await serve(dir, 8080, { host: '0.0.0.0' });                // every interface
import http from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';

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

/** The URL a browser on this machine uses for a server bound to `host`:`port`. */
export function urlFor(host, port) {
  let h = host;
  if (h === '0.0.0.0') h = '127.0.0.1'; // bound to every interface: this machine is one of them
  else if (h === '::') h = '[::1]';
  else if (h.includes(':')) h = `[${h}]`; // an IPv6 literal
  return `http://${h}:${port}/`;
}

/** Whether `host` is this machine only (a loopback name or address). */
export function isLoopback(host) {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * What went wrong when listening failed, and what to do: `fix` names the way
 * this caller takes another port (e.g. 'pass --port N, or --port 0 for any free port').
 */
export function listenErrorMessage(e, host, port, fix) {
  const where = `${host}:${port}`;
  switch (e?.code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use on ${host} (another server is listening there): ${fix}`;
    case 'EACCES':
      return `not allowed to listen on ${where} (ports below 1024 need privileges): ${fix}`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine, so nothing can listen on ${where}: pass a local address (127.0.0.1, the default; 0.0.0.0 for every interface)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host name ${host}: pass an address (127.0.0.1, the default; 0.0.0.0 for every interface)`;
    default:
      return `cannot listen on ${where}: ${e?.message ?? e}`;
  }
}

/**
 * Serve `dir` on `host`:`port` (127.0.0.1 unless told; port 0 picks a free
 * port). Rejects with the listen error (its `code`, e.g. EADDRINUSE) when the
 * port cannot be had; listenErrorMessage() words it.
 * @param {string} dir
 * @param {number} [port]
 * @param {{host?: string}} [options]
 * @returns {Promise<{server: import('node:http').Server, url: string, host: string, port: number}>}
 */
export function serve(dir, port = 8080, { host = '127.0.0.1' } = {}) {
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
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: p } = server.address();
      resolve({ server, url: urlFor(host, p), host, port: p });
    });
  });
}

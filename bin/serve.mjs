// The explorer's static file server: node:http, no dependencies. It ships in
// the npm package (`npx tensorcast explore`, bin/tensorcast.mjs) and is the one
// `npm start`, the browser tests and the benchmarks use too (scripts/serve.mjs
// re-exports it). Binds 127.0.0.1 unless told otherwise, serves .wasm as
// application/wasm (so WebAssembly.instantiateStreaming works) and never leaves
// its directory, not even through a symlink (a file whose real path lies outside
// is refused). An HTML page's own Content-Security-Policy (its <meta
// http-equiv>) is also sent as a response header, with `frame-ancestors 'none'`
// added: a <meta> policy cannot set frame-ancestors, so only the header stops
// framing.
//
//   import { serve } from './serve.mjs';
//   const { server, url } = await serve('dist/explorer', 0);   // 0: a free port
//   await serve(dir, 8080, { host: '0.0.0.0' });                // every interface
import http from 'node:http';
import net from 'node:net';
import { createReadStream } from 'node:fs';
import { stat, readFile, realpath } from 'node:fs/promises';
import { pipeline } from 'node:stream';
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

/**
 * Where a request target points inside `root`: `{ file, slash }` (`slash`: the
 * path ends in '/', so it names a folder), or `{ status }` when it names no
 * file here: 400 for a malformed target (bad percent-encoding, a NUL), 404 for
 * a segment holding an encoded '/' or '\\' (no file's name has one), 403 for
 * a path that leaves `root`. An absolute-form target (`http://host/p`, RFC 9112
 * §3.2.2) is read as its path.
 */
export function locate(root, target) {
  let raw = String(target).split('#')[0].split('?')[0];
  if (!raw.startsWith('/')) {
    try {
      raw = new URL(raw).pathname;
    } catch {
      return { status: 400 };
    }
  }
  let segments;
  try {
    segments = raw.split('/').map(decodeURIComponent);
  } catch {
    return { status: 400 };
  }
  if (segments.some((g) => g.includes('\0'))) return { status: 400 };
  if (segments.some((g) => g.includes('/') || g.includes('\\'))) return { status: 404 };
  const file = path.resolve(root, '.' + path.posix.normalize('/' + segments.join('/')));
  if (file !== root && !file.startsWith(root + path.sep)) return { status: 403 };
  return { file, slash: raw.endsWith('/') };
}

/** Resolve a URL path inside `root`, or null if it names nothing there (see locate()). */
export function resolveInside(root, urlPath) {
  return locate(root, urlPath).file ?? null;
}

/** The URL a browser on this machine uses for a server bound to `host`:`port`. */
export function urlFor(host, port) {
  let h = host;
  if (h === '0.0.0.0') h = '127.0.0.1'; // bound to every interface: this machine is one of them
  else if (h === '::') h = '[::1]';
  else if (h.includes(':')) h = `[${h}]`; // an IPv6 literal
  return `http://${h}:${port}/`;
}

/**
 * An IPv4 address as the system's resolver reads it (inet_aton: one to four
 * parts, each decimal, octal with a leading 0 or hex with 0x, the last part
 * filling the remaining bytes, so `127.1` is 127.0.0.1), as a 32-bit number;
 * null when `text` is not one.
 */
export function ipv4Number(text) {
  const parts = String(text).split('.');
  if (parts.length > 4) return null;
  const nums = [];
  for (const p of parts) {
    let n;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length > 2 ? parseInt(p.slice(2), 16) : 0;
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9][0-9]*$/.test(p)) n = Number(p);
    else return null;
    nums.push(n);
  }
  const last = nums.pop();
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return null;
  return nums.reduce((acc, n, i) => acc + n * 2 ** (8 * (3 - i)), last);
}

/** The eight 16-bit groups of an IPv6 address (brackets, a zone id and an embedded IPv4 tail allowed); null when it is not one. */
function ipv6Groups(text) {
  let t = String(text).replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!net.isIPv6(t)) return null;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (v4) {
    const n = ipv4Number(v4[1]);
    t = `${t.slice(0, -v4[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = t.includes('::') ? t.split('::') : [t, null];
  const hs = head ? head.split(':') : [];
  const ts = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : Array(8 - hs.length - ts.length).fill('0');
  return [...hs, ...fill, ...ts].map((g) => parseInt(g, 16));
}

/**
 * Whether `host` is this machine only: `localhost`, any IPv4 address in
 * 127.0.0.0/8 in any form the resolver takes (127.0.0.1, 127.1, 0x7f.1,
 * 2130706433), `::1` however written, or an IPv4-mapped 127.x.y.z
 * (::ffff:127.0.0.1).
 */
export function isLoopback(host) {
  const h = String(host).toLowerCase().replace(/\.$/, '');
  if (h === 'localhost') return true;
  const n = ipv4Number(h);
  if (n !== null) return n >>> 24 === 127;
  const g = ipv6Groups(h);
  if (!g) return false;
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  return g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && g[6] >>> 8 === 127; // ::ffff:127.x.y.z
}

/**
 * What went wrong when listening failed, and what to do: `fix` names the way
 * this caller takes another port (e.g. 'pass --port N, or --port 0 for any free port').
 */
export function listenErrorMessage(e, host, port, fix) {
  const where = `${String(host).includes(':') ? `[${host}]` : host}:${port}`; // an IPv6 literal in brackets
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
  // The folder as the file system resolves it (itself maybe reached through a symlink), read once.
  let realRoot = null;
  /** The real path of `file` when it lies inside the folder, else null. */
  const realInside = async (file) => {
    realRoot ??= await realpath(root);
    const real = await realpath(file);
    return real === realRoot || real.startsWith(realRoot + path.sep) ? real : null;
  };
  // Headers up to 2 MiB (Chromium's longest URL): the explorer keeps its state in
  // the link, and a link it writes (long dim names, many operands) outgrows
  // Node's default 16 KiB, which would answer the page's own reload with 431.
  const server = http.createServer({ maxHeaderSize: 2 ** 21 }, async (req, res) => {
    const plain = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-security-policy': FRAME_ANCESTORS };
    const send = (code, more) => {
      res.writeHead(code, { ...plain, ...more });
      res.end(code === 204 || req.method === 'HEAD' ? undefined : `${http.STATUS_CODES[code].toLowerCase()}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { allow: 'GET, HEAD' });
    const where = locate(root, req.url || '/');
    if (where.status) return send(where.status);
    let file = where.file;
    try {
      let st = await stat(file);
      // A symlink inside the folder may point out of it: serve only what really lies inside.
      let real = await realInside(file);
      if (!real) return send(403);
      if (st.isDirectory()) {
        // A folder's page loads its assets relative to the folder: its URL must end in '/'.
        if (!where.slash) {
          // Written from the resolved path, so the target stays on this server (never `//host/`).
          // The root itself (`/.`, `/assets/..`) is `/`, not `//` (a scheme-relative URL with no host).
          const q = /\?[^#]*/.exec(req.url)?.[0] ?? '';
          const rel = path.relative(root, file);
          return send(301, { location: `/${rel && `${rel.split(path.sep).map(encodeURIComponent).join('/')}/`}${q}` });
        }
        file = path.join(file, 'index.html');
        st = await stat(file);
        real = await realInside(file); // index.html may be a symlink too
        if (!real) return send(403);
      } else if (where.slash) {
        return send(404); // a file's name with a '/' after it: the page's relative URLs would miss
      }
      // Only regular files: a FIFO or a device would hold a thread (and the request) forever.
      if (!st.isFile()) return send(404);
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
        const html = await readFile(real);
        headers['content-security-policy'] = pageCsp(html.toString('utf8'));
        headers['content-length'] = html.length;
        res.writeHead(200, headers);
        return res.end(req.method === 'HEAD' ? undefined : html);
      }
      res.writeHead(200, headers);
      if (req.method === 'HEAD') return res.end();
      // pipeline, not pipe: a client that goes away mid-file closes the file too.
      pipeline(createReadStream(real), res, () => {});
    } catch (e) {
      if (res.headersSent) return res.destroy();
      const missing = ['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'].includes(e?.code);
      // Browsers ask for /favicon.ico on their own; a page without one should
      // not get a 404 in its console.
      if (missing && where.file === path.join(root, 'favicon.ico')) return send(204, { 'cache-control': 'no-cache' });
      send(missing ? 404 : e?.code === 'EACCES' || e?.code === 'EPERM' ? 403 : 500);
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

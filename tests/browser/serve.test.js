// bin/serve.mjs (re-exported by scripts/serve.mjs): the explorer's static
// server (no dependencies), the page's CSP sent as a header too; scripts/fresh.mjs:
// when `npm start` may reuse dist/ and the page build (dist/explorer).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync, utimesSync, symlinkSync, readdirSync, readlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { serve, resolveInside, pageCsp, FRAME_ANCESTORS, urlFor, isLoopback, listenErrorMessage } from '../../scripts/serve.mjs';
import * as shipped from '../../bin/serve.mjs';
import { checkFresh, startPlan, LIB, WEB } from '../../scripts/fresh.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PAGE_META = "default-src 'self'; script-src 'self'; object-src 'none'";

let dir;
let server;
let url;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tc-serve-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
  mkdirSync(path.join(dir, 'page'));
  writeFileSync(path.join(dir, 'page', 'index.html'), `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${PAGE_META}"><title>p</title>`);
  writeFileSync(path.join(dir, 'assets', 'a.js'), 'export const a = 1;');
  writeFileSync(path.join(dir, 'assets', 'b.mjs'), 'export const b = 1;');
  writeFileSync(path.join(dir, 'assets', 'e.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(path.join(dir, 'assets', 's.css'), 'body{}');
  ({ server, url } = await serve(dir, 0));
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

// Raw requests, so paths like /../ reach the server unnormalised.
function get(p, method = 'GET') {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: p, method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve()', () => {
  it('binds 127.0.0.1 on a free port', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(server.address().address).toBe('127.0.0.1');
    expect(server.address().port).toBeGreaterThan(0);
  });
  it('serves index.html for a directory', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/html; charset=utf-8');
    expect(r.body.toString()).toContain('<title>x</title>');
  });
  it.each([
    ['/assets/a.js', 'text/javascript; charset=utf-8'],
    ['/assets/b.mjs', 'text/javascript; charset=utf-8'],
    ['/assets/e.wasm', 'application/wasm'],
    ['/assets/s.css', 'text/css; charset=utf-8'],
    ['/assets/a.js?v=1#x', 'text/javascript; charset=utf-8'],
  ])('%s is %s', async (p, type) => {
    const r = await get(p);
    expect(r.status).toBe(200);
    expect(r.type).toBe(type);
  });
  it('answers HEAD without a body and refuses other methods', async () => {
    const h = await get('/assets/e.wasm', 'HEAD');
    expect(h.status).toBe(200);
    expect(h.body.length).toBe(0);
    expect((await get('/', 'POST')).status).toBe(405);
  });
  it('404s what is missing; an absent favicon is an empty 204', async () => {
    expect((await get('/nope.js')).status).toBe(404);
    expect((await get('/favicon.ico')).status).toBe(204);
  });
  it('sends the page\'s CSP as a header too, with frame-ancestors \'none\' (a <meta> cannot set it)', async () => {
    const r = await get('/page/');
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toBe(`${PAGE_META}; frame-ancestors 'none'`);
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.body.toString()).toContain('http-equiv="Content-Security-Policy"'); // the meta stays
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    const head = await get('/page/index.html', 'HEAD');
    expect(head.headers['content-security-policy']).toBe(`${PAGE_META}; frame-ancestors 'none'`);
    expect(head.body.length).toBe(0);
    // Pages without a meta policy, other files and errors still refuse framing.
    expect((await get('/')).headers['content-security-policy']).toBe(FRAME_ANCESTORS);
    expect((await get('/assets/a.js')).headers['content-security-policy']).toBe(FRAME_ANCESTORS);
    expect((await get('/nope.js')).headers['content-security-policy']).toBe(FRAME_ANCESTORS);
  });
  it('takes the explorer\'s policy from its own <meta>, so header and meta never drift apart', () => {
    const html = readFileSync(path.join(repo, 'web', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)[1];
    expect(pageCsp(html)).toBe(`${meta}; frame-ancestors 'none'`);
    expect(meta).not.toContain('frame-ancestors');
    expect(pageCsp(`<meta content="default-src 'none'; frame-ancestors *" http-equiv='content-security-policy'>`)).toBe(`default-src 'none'; frame-ancestors 'none'`);
    expect(pageCsp('<title>no policy</title>')).toBe(FRAME_ANCESTORS);
  });
  it('never leaves its directory', async () => {
    for (const p of ['/../package.json', '/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2fetc%2fpasswd']) {
      const r = await get(p);
      expect([403, 404]).toContain(r.status);
      expect(r.body.toString()).not.toContain('root:');
    }
    expect(resolveInside('/srv/site', '/../x')).toBe('/srv/site/x');
    expect(resolveInside('/srv/site', '/%00')).toBeNull();
    expect(resolveInside('/srv/site', '/%E0%A4%A')).toBeNull();
  });
  it('never follows a symlink out of its directory (a file or a folder), but serves one that stays inside', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'tc-serve-outside-'));
    try {
      writeFileSync(path.join(outside, 'secret.txt'), 'SECRET-OUTSIDE');
      writeFileSync(path.join(outside, 'index.html'), '<title>SECRET-OUTSIDE</title>');
      symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'leak.txt'));
      symlinkSync(outside, path.join(dir, 'leakdir'));
      symlinkSync(path.join(dir, 'assets', 'a.js'), path.join(dir, 'alias.js')); // inside: fine
      for (const p of ['/leak.txt', '/leakdir/secret.txt', '/leakdir/', '/leakdir']) {
        for (const method of ['GET', 'HEAD']) {
          const r = await get(p, method);
          expect([403, 404], `${method} ${p}`).toContain(r.status);
          expect(r.body.toString(), p).not.toContain('SECRET-OUTSIDE');
          expect(r.headers['content-length'], p).not.toBe(String('SECRET-OUTSIDE'.length));
        }
      }
      const ok = await get('/alias.js');
      expect(ok.status).toBe(200);
      expect(ok.body.toString()).toBe('export const a = 1;');
    } finally {
      for (const f of ['leak.txt', 'leakdir', 'alias.js']) rmSync(path.join(dir, f), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
  it('serves a folder that is itself reached through a symlink', async () => {
    const link = path.join(tmpdir(), `tc-serve-link-${process.pid}-${Date.now()}`);
    symlinkSync(dir, link);
    const s = await serve(link, 0);
    try {
      const r = await fetch(`${s.url}assets/a.js`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('export const a = 1;');
    } finally {
      await new Promise((r) => s.server.close(r));
      rmSync(link, { force: true });
    }
  });
});

// A raw request line, as written (absolute-form targets, bytes Node's client would not send).
function rawGet(line) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const sock = net.connect(Number(u.port), u.hostname, () => sock.write(`${line}\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`));
    const chunks = [];
    sock.on('data', (c) => chunks.push(c));
    sock.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    sock.on('error', reject);
  });
}

/** Open descriptors of this process on `file` (the server runs in this process). */
function openOn(file) {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

describe('serve(): the edges of HTTP', () => {
  it('closes the file when a client goes away mid-download (pipe() left it open, one descriptor per aborted request)', async () => {
    const big = path.join(dir, 'assets', 'big.wasm');
    writeFileSync(big, Buffer.alloc(8 << 20, 7));
    try {
      const u = new URL(url);
      for (let i = 0; i < 10; i++) {
        await new Promise((resolve) => {
          const req = http.get({ host: u.hostname, port: u.port, path: '/assets/big.wasm' }, (res) => {
            res.once('data', () => { req.destroy(); resolve(); });
          });
          req.on('error', resolve);
        });
      }
      let left = openOn(big);
      for (let t = 0; t < 100 && left > 0; t++) {
        await new Promise((r) => setTimeout(r, 20));
        left = openOn(big);
      }
      expect(left).toBe(0);
      expect((await get('/')).status).toBe(200);
    } finally {
      rmSync(big, { force: true });
    }
  });
  it('takes a link as long as the explorer writes (headers past Node\'s 16 KiB default)', async () => {
    const r = await get(`/?n=${'%D0%B4'.repeat(20000)}`);
    expect(r.status).toBe(200);
    expect(r.body.toString()).toContain('<title>x</title>');
  });
  it('names a file only without a trailing slash, and a folder only with one (a redirect adds it, on this server)', async () => {
    expect((await get('/assets/a.js/')).status).toBe(404);
    expect((await get('/index.html/')).status).toBe(404);
    const r = await get('/page?x=1');
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe('/page/?x=1');
    const s = await get('//page');
    expect(s.status).toBe(301);
    expect(s.headers.location).toBe('/page/');
  });
  it('redirects the folder itself, named without its slash (/., /assets/..), to /, never to // (a URL with no host)', async () => {
    for (const p of ['/.', '/%2e', '/..', '/assets/..', '/assets/%2e%2e']) {
      const r = await get(p);
      expect(r.status, p).toBe(301);
      expect(r.headers.location, p).toBe('/');
    }
    expect((await get('/.?x=//evil.example')).headers.location).toBe('/?x=//evil.example');
  });
  it('refuses an encoded separator: /assets/..%2findex.html is no file here (it was index.html, its assets then missed)', async () => {
    for (const p of ['/assets/..%2findex.html', '/assets%2fa.js', '/assets%5ca.js']) expect((await get(p)).status, p).toBe(404);
  });
  it('serves regular files only: a FIFO in the folder is a 404, not a request (and a thread) held forever', async () => {
    const fifo = path.join(dir, 'p.txt');
    execFileSync('mkfifo', [fifo]);
    try {
      for (let i = 0; i < 5; i++) expect((await get('/p.txt')).status).toBe(404);
      expect((await get('/assets/a.js')).status).toBe(200);
    } finally {
      rmSync(fifo, { force: true });
    }
  });
  it('answers a malformed target 400, a method it lacks 405 with Allow, and an absolute-form target as its path', async () => {
    expect((await get('/%E0%A4%A')).status).toBe(400);
    expect((await get('/%00')).status).toBe(400);
    const post = await get('/', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const abs = await rawGet(`GET ${url}assets/a.js HTTP/1.1`);
    expect(abs).toMatch(/^HTTP\/1\.1 200 /);
    expect(abs).toContain('export const a = 1;');
    const fav = await get('/favicon.ico');
    expect(fav.status).toBe(204);
    expect(fav.headers['x-content-type-options']).toBe('nosniff');
    expect(fav.headers['content-security-policy']).toBe(FRAME_ANCESTORS);
  });
  it('an IPv6 host in a listen error is written in brackets', () => {
    expect(listenErrorMessage({ code: 'EOTHER', message: 'x' }, 'fe80::1', 0, '')).toBe('cannot listen on [fe80::1]:0: x');
    expect(listenErrorMessage({ code: 'EOTHER', message: 'x' }, '127.0.0.1', 0, '')).toBe('cannot listen on 127.0.0.1:0: x');
  });
});

describe('one server: the one the package ships', () => {
  it('scripts/serve.mjs is bin/serve.mjs, re-exported', () => {
    expect(serve).toBe(shipped.serve);
    expect(resolveInside).toBe(shipped.resolveInside);
  });
  it('names the URL a browser here uses, for any host it binds', () => {
    expect(urlFor('127.0.0.1', 80)).toBe('http://127.0.0.1:80/');
    expect(urlFor('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080/');
    expect(urlFor('::', 8080)).toBe('http://[::1]:8080/');
    expect(urlFor('::1', 1)).toBe('http://[::1]:1/');
    expect(urlFor('localhost', 3)).toBe('http://localhost:3/');
    expect([isLoopback('127.0.0.1'), isLoopback('::1'), isLoopback('localhost'), isLoopback('0.0.0.0'), isLoopback('192.168.1.2')]).toEqual([true, true, true, false, false]);
  });
  it('knows every spelling of a loopback host, as the resolver reads it (127.1 is 127.0.0.1)', async () => {
    const loop = ['127.1', '127.0.1', '127.0.0.2', '127.255.255.254', '0x7f.1', '0177.0.0.1', '2130706433', '0x7f000001', '2130706432', '127.256', 'LOCALHOST', 'localhost.',
      '::1', '[::1]', '0:0:0:0:0:0:0:1', '::0:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:127.1.2.3'];
    const not = ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '126.255.255.255', '192.168.1.2', '1.127.0.0', '0x80.1', '2130706431', '4294967296',
      '127.0.256.1', '127.0.0.1.1', '127.0.0.1x', 'localhost.example', 'example.com', '::2', '::ffff:10.0.0.1', '::ffff:8.8.8.8', 'fe80::1', '1::1', ''];
    for (const h of loop) expect(isLoopback(h), h).toBe(true);
    for (const h of not) expect(isLoopback(h), h).toBe(false);
    // The system's own reading agrees: what a server bound to each IPv4 spelling reports as its address.
    for (const h of ['127.1', '0x7f.1', '2130706433', '127.0.1']) {
      const s = await serve(dir, 0, { host: h });
      try {
        expect(isLoopback(s.server.address().address), h).toBe(true);
        expect(s.server.address().address.startsWith('127.')).toBe(true);
      } finally {
        await new Promise((r) => s.server.close(r));
      }
    }
  });
  it('refuses a port in use with a message naming the port and the fix', async () => {
    const port = Number(new URL(url).port);
    const e = await serve(dir, port).then(() => null, (x) => x);
    expect(e?.code).toBe('EADDRINUSE');
    expect(listenErrorMessage(e, '127.0.0.1', port, 'pass --port N')).toBe(`port ${port} is already in use on 127.0.0.1 (another server is listening there): pass --port N`);
  });
  it('serves on another loopback host when told', async () => {
    const s = await serve(dir, 0, { host: '::1' }).catch((e) => e);
    if (s instanceof Error) return expect(s.code).toBe('EADDRNOTAVAIL'); // a machine without IPv6
    try {
      expect(s.url).toBe(`http://[::1]:${s.port}/`);
      const body = await fetch(s.url).then((r) => r.text());
      expect(body).toContain('<title>x</title>');
    } finally {
      await new Promise((r) => s.server.close(r));
    }
  });
});

describe('fresh(): npm start reuses an up-to-date dist/ and page build', () => {
  let tree;
  const touch = (rel, t) => {
    const f = path.join(tree, rel);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, rel);
    utimesSync(f, t, t);
  };
  beforeAll(() => {
    tree = mkdtempSync(path.join(tmpdir(), 'tc-fresh-'));
    for (const f of ['src/core/a.cpp', 'bindings/js/index.js', 'CMakeLists.txt', 'package.json', 'scripts/build.mjs', 'web/main.js', 'web/logic.test.js']) touch(f, 1000);
    for (const f of LIB.required) touch(f, 2000);
    touch('dist/explorer/index.html', 3000);
    touch('dist/explorer/assets/x.js', 3000);
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('reuses both when every output is newer than every input', () => {
    const p = startPlan({ root: tree });
    expect(p.lib.fresh).toBe(true);
    expect(p.web.fresh).toBe(true);
    expect(startPlan({ root: tree, force: true }).lib.fresh).toBe(false);
  });
  it('rebuilds the page (only) when web/ changed; a test file does not count', () => {
    touch('web/logic.test.js', 4000);
    expect(startPlan({ root: tree }).web.fresh).toBe(true);
    touch('web/style.css', 4000);
    const p = startPlan({ root: tree });
    expect(p.lib.fresh).toBe(true);
    expect(p.web).toEqual({ fresh: false, reason: 'web/style.css is newer than dist/explorer' });
    touch('web/style.css', 1000);
  });
  it('the page in dist/explorer is not an input of itself, and package.json (the version) is one of dist/', () => {
    touch('dist/explorer/assets/late.js', 5000); // newer than everything: must not make the page stale
    expect(startPlan({ root: tree }).web.fresh).toBe(true);
    rmSync(path.join(tree, 'dist', 'explorer', 'assets', 'late.js'));
    touch('package.json', 2500);
    expect(startPlan({ root: tree }).lib).toEqual({ fresh: false, reason: 'package.json is newer than dist' });
    touch('package.json', 1000);
  });
  it('rebuilds both when src/, bindings/ or CMakeLists.txt changed', () => {
    for (const f of ['src/core/a.cpp', 'bindings/js/index.js', 'CMakeLists.txt']) {
      touch(f, 2500);
      const p = startPlan({ root: tree });
      expect(p.lib.fresh, f).toBe(false);
      expect(p.lib.reason).toBe(`${f} is newer than dist`);
      expect(p.web.fresh).toBe(false);
      touch(f, 1000);
    }
    expect(startPlan({ root: tree }).lib.fresh).toBe(true);
  });
  it('rebuilds the page when dist/ is newer than it, and both when an output is missing', () => {
    touch('dist/index.js', 3500);
    expect(startPlan({ root: tree }).web.fresh).toBe(false);
    touch('dist/index.js', 2000);
    rmSync(path.join(tree, 'dist', 'tensorcast.wasm'));
    expect(startPlan({ root: tree }).lib).toEqual({ fresh: false, reason: 'dist/tensorcast.wasm missing' });
    touch('dist/tensorcast.wasm', 2000);
    expect(checkFresh({ ...WEB, root: tree }).fresh).toBe(true);
  });
});

// scripts/serve.mjs: the explorer's static server (no dependencies).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { serve, resolveInside } from '../../scripts/serve.mjs';

let dir;
let server;
let url;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tc-serve-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
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
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
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
});

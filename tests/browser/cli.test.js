// The `tensorcast` command the package ships (bin/tensorcast.mjs, bin/cli.mjs):
// `tensorcast explore` serving dist/explorer, its flags and its errors; and
// what `npm start` says before it installs anything, or instead of installing
// where there is no apt-get (scripts/lib.mjs). The page in a browser, from a
// packed tarball, is scripts/pack-smoke.mjs's check.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync, readFileSync, existsSync, chmodSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, openCommand, UsageError, USAGE, EXPLORER_DIR } from '../../bin/cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(root, 'bin', 'tensorcast.mjs');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

let tmp;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'tc-cli-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Run the bin to completion. */
function runBin(args, env = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Start the bin as a server; resolves once it printed its URL (or exited). */
function startBin(args, env = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no URL after 15 s: ${stdout} ${stderr}`)), 15_000);
    const look = () => {
      const m = /the broadcast explorer is at (http:\/\/\S+)/.exec(stdout);
      if (m) { clearTimeout(t); resolve(m[1]); }
    };
    child.stdout.on('data', look);
    exited.then(() => { clearTimeout(t); resolve(null); });
  });
  return { child, ready, exited, out: () => stdout, err: () => stderr };
}

describe('tensorcast command line', () => {
  it('parses explore, its flags (--flag v and --flag=v) and $PORT', () => {
    expect(parseArgs(['explore'], {})).toEqual({ command: 'explore', port: 8080, host: '127.0.0.1', open: false });
    expect(parseArgs(['explore', '--port', '0', '--open', '--host=0.0.0.0'], {})).toEqual({ command: 'explore', port: 0, host: '0.0.0.0', open: true });
    expect(parseArgs(['--port=9000', 'explore'], {}).port).toBe(9000);
    // An IPv6 address written as in a URL: listen() takes it without the brackets (until 0.9.28: "cannot resolve the host name [::1]").
    expect(parseArgs(['explore', '--host', '[::1]'], {}).host).toBe('::1');
    expect(parseArgs(['explore', '--host=[fe80::1%eth0]'], {}).host).toBe('fe80::1%eth0');
    expect(parseArgs(['explore'], { PORT: '3000' }).port).toBe(3000);
    expect(parseArgs(['explore', '--port', '4000'], { PORT: '3000' }).port).toBe(4000);
    expect(parseArgs(['--help'], {}).command).toBe('help');
    expect(parseArgs(['explore', '-h'], {}).command).toBe('help');
    expect(parseArgs(['--version'], {}).command).toBe('version');
  });
  it.each([
    [[], /no command given/],
    [['serve'], /unknown command "serve"/],
    [['explore', '--frob'], /unknown option --frob/],
    [['explore', '-x'], /unknown option -x/],
    [['explore', 'more'], /unexpected argument "more"/],
    [['explore', '--port'], /--port needs a value/],
    [['explore', '--port', '--open'], /--port needs a value/],
    [['explore', '--port', 'http'], /--port must be a port number from 0 to 65535, not "http"/],
    [['explore', '--port', '65536'], /not 65536/],
    [['explore', '--port', '99999999999999999999'], /not 99999999999999999999$/],
    [['explore', '--port=070000'], /not 070000$/],
    [['explore', '--port', '-1'], /--port needs a value|not "-1"/],
    [['explore', '--port', '1.5'], /not "1.5"/],
    [['explore', '--port', '1', '--port', '2'], /--port is given twice/],
    [['explore', '--open=yes'], /--open takes no value/],
    [['--help=yes'], /^--help takes no value$/],
    [['explore', '--version=1'], /^--version takes no value$/],
    [['explore', '--host='], /--host needs a value/],
  ])('refuses %j', (argv, msg) => {
    expect(() => parseArgs(argv, {})).toThrow(UsageError);
    expect(() => parseArgs(argv, {})).toThrow(msg);
  });
  it('refuses a bad $PORT by name', () => {
    expect(() => parseArgs(['explore'], { PORT: 'eighty' })).toThrow('PORT must be a port number from 0 to 65535, not "eighty"');
  });
  it('opens the browser with the system opener, and says why not where there is none', () => {
    const url = 'http://127.0.0.1:1/';
    expect(openCommand(url, { platform: 'darwin', env: {} })).toEqual({ cmd: 'open', args: [url] });
    expect(openCommand(url, { platform: 'win32', env: {} })).toMatchObject({ cmd: 'cmd', args: ['/c', 'start', '""', url] });
    expect(openCommand(url, { platform: 'linux', env: { DISPLAY: ':0' } })).toEqual({ cmd: 'xdg-open', args: [url] });
    expect(openCommand(url, { platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' } })).toEqual({ cmd: 'xdg-open', args: [url] });
    expect(openCommand(url, { platform: 'linux', env: {} }).reason).toMatch(/no graphical session/);
  });

  it('--help prints the usage and exits 0; -v the version', () => {
    const r = runBin(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(USAGE);
    expect(r.stdout).toMatch(/tensorcast explore \[--port N\] \[--host H\] \[--open\]/);
    expect(runBin(['-v']).stdout.trim()).toBe(pkg.version);
  });
  it('an unknown flag is an error with the usage, exit status 2', () => {
    const r = runBin(['explore', '--prot', '8000']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tensorcast: unknown option --prot\n\nUsage: tensorcast explore/);
  });

  describe('explore', () => {
    beforeAll(() => {
      if (!existsSync(path.join(EXPLORER_DIR, 'index.html'))) throw new Error('dist/explorer is not built: run npm run build');
    });
    it('--port 0 serves dist/explorer on a free port, prints the URL, stops on Ctrl+C', async () => {
      const s = startBin(['explore', '--port', '0']);
      const url = await s.ready;
      expect(url, s.err()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(s.out()).toContain(`tensorcast ${pkg.version}: the broadcast explorer is at ${url}`);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'$/);
      const html = await page.text();
      expect(html).toBe(readFileSync(path.join(EXPLORER_DIR, 'index.html'), 'utf8'));
      const js = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)[1];
      expect((await fetch(url + js)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      const traversal = await fetch(url + '%2e%2e/%2e%2e/package.json');
      expect(traversal.status).toBe(404);
      s.child.kill('SIGINT');
      expect(await s.exited).toEqual({ code: 0, signal: null });
    });
    it('warns that other machines can open the page only when the host it bound is not loopback (127.1 is)', async () => {
      for (const [host, warned] of [['127.1', false], ['localhost', false], ['127.0.0.1', false], ['0.0.0.0', true]]) {
        const s = startBin(['explore', '--port', '0', '--host', host]);
        const url = await s.ready;
        try {
          expect(url, `${host}: ${s.err()}`).toMatch(/^http:\/\//);
          // The bin prints its lines together once it listens: wait for the last one.
          for (let i = 0; i < 100 && !s.out().includes('press Ctrl+C'); i++) await new Promise((r) => setTimeout(r, 50));
          expect(s.out(), host).toContain('press Ctrl+C to stop');
          expect(s.out().includes('other machines that can reach this one can open the page too'), host).toBe(warned);
        } finally {
          s.child.kill('SIGTERM');
          await s.exited;
        }
      }
    });
    it('a port in use: exit 1 and a message suggesting --port', async () => {
      const first = startBin(['explore', '--port', '0']);
      const url = await first.ready;
      try {
        const port = new URL(url).port;
        const r = runBin(['explore', '--port', port]);
        expect(r.status).toBe(1);
        expect(r.stderr.trim()).toBe(`tensorcast: port ${port} is already in use on 127.0.0.1 (another server is listening there): pass --port N for another port, or --port 0 for any free one`);
      } finally {
        first.child.kill('SIGTERM');
        await first.exited;
      }
    });
    it('--open runs the system opener with the URL, and says so when there is none', async () => {
      const bin = path.join(tmp, 'opener');
      mkdirSync(bin, { recursive: true });
      const log = path.join(tmp, 'opened.txt');
      writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > '${log}'\n`);
      chmodSync(path.join(bin, 'xdg-open'), 0o755);
      const wait = async (s, text) => {
        for (let i = 0; i < 100 && !s.out().includes(text); i++) await new Promise((r) => setTimeout(r, 50));
        return s.out();
      };
      // Linux only: the opener is looked up on PATH (darwin's open, Windows' start are not faked here).
      if (process.platform !== 'linux') return;
      const opened = startBin(['explore', '--port', '0', '--open'], { PATH: `${bin}:/usr/bin:/bin`, DISPLAY: ':99' });
      const url = await opened.ready;
      expect(await wait(opened, 'opened it')).toContain('opened it in your browser');
      expect(readFileSync(log, 'utf8').trim()).toBe(url);
      opened.child.kill('SIGTERM');
      await opened.exited;

      const none = startBin(['explore', '--port', '0', '--open'], { PATH: path.join(tmp, 'empty'), DISPLAY: ':99' });
      const url2 = await none.ready;
      expect(await wait(none, 'yourself')).toContain(`could not open a browser: xdg-open is not installed (not found on PATH). Open ${url2} yourself.`);
      none.child.kill('SIGTERM');
      await none.exited;

      const headless = startBin(['explore', '--port', '0', '--open'], { DISPLAY: '', WAYLAND_DISPLAY: '', BROWSER: '' });
      const url3 = await headless.ready;
      expect(await wait(headless, 'yourself')).toContain(`could not open a browser: no graphical session here (DISPLAY and WAYLAND_DISPLAY are unset). Open ${url3} yourself.`);
      headless.child.kill('SIGTERM');
      await headless.exited;
    });
    it('a missing page says how to build it', async () => {
      const { main } = await import('../../bin/cli.mjs');
      const err = [];
      const status = await main(['explore', '--port', '0'], { dir: path.join(tmp, 'nowhere'), out: () => {}, err: (t) => err.push(t) });
      expect(status).toBe(1);
      expect(err.join('\n')).toMatch(/the explorer page is missing: .*nowhere[\\/]index\.html does not exist\.\nIn a clone of the repository, `npm run build` builds it/);
    });
  });
});

// scripts/lib.mjs, run in a child with a PATH of our making: `sh` (has() needs
// it) and whatever fake tools the case wants; dpkg absent, so every package counts as missing.
describe('npm start installs nothing unannounced', () => {
  const lib = path.join(root, 'scripts', 'lib.mjs');
  function pathWith(name, tools) {
    const dir = path.join(tmp, name);
    mkdirSync(dir, { recursive: true });
    symlinkSync('/bin/sh', path.join(dir, 'sh'));
    for (const [tool, script] of Object.entries(tools)) {
      writeFileSync(path.join(dir, tool), `#!/bin/sh\n${script}\n`);
      chmodSync(path.join(dir, tool), 0o755);
    }
    return dir;
  }
  const runLib = (code, PATH) => spawnSync(process.execPath, ['--input-type=module', '-e', `import * as lib from ${JSON.stringify(lib)};\n${code}`], {
    encoding: 'utf8', timeout: 20_000, env: { ...process.env, PATH, npm_lifecycle_event: 'start' },
  });

  it('without apt-get: prints the manual steps and exits 1 (and emcc is really absent from that PATH)', () => {
    const PATH = pathWith('no-apt', {});
    expect(spawnSync('/bin/sh', ['-c', 'command -v emcc'], { env: { PATH } }).status).not.toBe(0);
    const r = runLib("lib.ensureEmscripten(); console.log('went on');", PATH);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('went on');
    expect(r.stderr).toContain('npm start: apt-get is not available on this system, so these cannot be installed for you:\n  emscripten: emcc, the C++-to-WebAssembly compiler');
    expect(r.stderr).toContain('  cmake: the build system');
    expect(r.stderr).toContain('./emsdk install 3.1.6 && ./emsdk activate 3.1.6');
    expect(r.stderr).toContain('Only want the explorer? It needs no build: npx tensorcast explore');
  });
  it('with apt-get: names the packages, what they are for and the command, before running it', () => {
    const PATH = pathWith('fake-apt', {
      'apt-get': 'echo "FAKE apt-get $*"',
      sudo: 'exec "$@"', // when the suite runs as a user
      emcc: 'exit 0',
    });
    const r = runLib("lib.aptInstall(['chromium', 'cmake']);", PATH);
    expect(r.status, r.stderr).toBe(0);
    const say = r.stdout.indexOf('npm start: installing 2 Debian packages this needs:\n  chromium: the browser');
    const update = r.stdout.indexOf('FAKE apt-get update');
    const install = r.stdout.indexOf('FAKE apt-get install -y --no-install-recommends chromium cmake');
    expect(say).toBeGreaterThanOrEqual(0);
    expect(r.stdout).toMatch(/with: (sudo )?apt-get update && (sudo )?apt-get install -y --no-install-recommends chromium cmake/);
    expect(update).toBeGreaterThan(say);
    expect(install).toBeGreaterThan(update);
  });
  it('npm ci: says why and what before running it', () => {
    const dir = path.join(tmp, 'clone');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', devDependencies: { vite: '1', vitest: '1' } }));
    writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ packages: { '': {}, 'node_modules/vite': {}, 'node_modules/vitest': {}, 'node_modules/esbuild': {} } }));
    const PATH = pathWith('fake-npm', { npm: 'echo "FAKE npm $*"' });
    const r = runLib(`lib.ensureNodeModules(${JSON.stringify(dir)});`, PATH);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('npm start: node_modules/ is not installed:\ninstalling the 3 npm packages package-lock.json pins into node_modules/ (the dev tools: vite, vitest;\n'
      + 'no browser is downloaded) with: npm ci --no-audit --no-fund\nFAKE npm ci --no-audit --no-fund\n');
  });
  it('node_modules/ is compared with the lock by content: a new root version installs nothing; another pinned version does', async () => {
    const { nodeModulesStale } = await import('../../scripts/lib.mjs');
    const dir = path.join(tmp, 'stale');
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    const lock = (root, vite, extra = {}) => JSON.stringify({ version: root, packages: { '': { version: root }, 'node_modules/vite': { version: vite }, 'node_modules/@esbuild/win32-x64': { version: '1', optional: true }, ...extra } });
    writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: { 'node_modules/vite': { version: '8.0.0' } } }));
    writeFileSync(path.join(dir, 'package-lock.json'), lock('0.3.0', '8.0.0'));
    expect(nodeModulesStale(dir)).toBeNull(); // an absent optional package (another platform's) is fine
    writeFileSync(path.join(dir, 'package-lock.json'), lock('9.9.9', '8.0.0'));
    expect(nodeModulesStale(dir)).toBeNull();
    writeFileSync(path.join(dir, 'package-lock.json'), lock('0.3.0', '8.1.0'));
    expect(nodeModulesStale(dir)).toBe('vite 8.0.0 is installed, package-lock.json pins 8.1.0');
    writeFileSync(path.join(dir, 'package-lock.json'), lock('0.3.0', '8.0.0', { 'node_modules/vitest': { version: '4.1.0' } }));
    expect(nodeModulesStale(dir)).toBe('vitest is not installed');
    writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ packages: { '': {} } }));
    expect(nodeModulesStale(dir)).toBe('vite is installed but package-lock.json no longer has it');
  });
  it('a node_modules/ that is a link (shared by worktrees) is never emptied by npm ci from here', () => {
    const shared = path.join(tmp, 'shared-modules');
    mkdirSync(shared, { recursive: true });
    writeFileSync(path.join(shared, 'keep.txt'), 'other checkouts use this');
    const dir = path.join(tmp, 'worktree');
    mkdirSync(dir, { recursive: true });
    symlinkSync(shared, path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', devDependencies: { vite: '1' } }));
    writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ packages: { '': {}, 'node_modules/vite': { version: '1.0.0' } } }));
    const log = path.join(tmp, 'npm-ran.txt');
    const PATH = pathWith('fake-npm-2', { npm: `echo ran > '${log}'` });
    const r = runLib(`lib.ensureNodeModules(${JSON.stringify(dir)});`, PATH);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`npm start: node_modules/ is not installed, but node_modules/ is a link to ${shared}, which other checkouts may share:`);
    expect(r.stderr).toContain(`Run npm ci in ${tmp}`);
    expect(existsSync(log)).toBe(false);
    expect(readFileSync(path.join(shared, 'keep.txt'), 'utf8')).toBe('other checkouts use this');
  });
  it('npm start, npm run build and scripts/entries.mjs run in a clone whose path has a space or is reached through a symlink (they did nothing, exit 0)', () => {
    const clone = path.join(tmp, 'My Projects', 'tensorcast');
    for (const d of ['scripts', 'bin']) cpSync(path.join(root, d), path.join(clone, d), { recursive: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules')); // esbuild, for entries.mjs
    const link = path.join(tmp, 'linked-clone');
    symlinkSync(clone, link);
    const PATH = pathWith('no-emcc', {});
    const script = (dir, name, args = [], env = {}) => spawnSync(process.execPath, [path.join(dir, 'scripts', name), ...args], {
      encoding: 'utf8', timeout: 20_000, env: { ...process.env, PATH, ...env },
    });
    for (const dir of [clone, link]) {
      const start = script(dir, 'start.mjs', [], { PORT: 'abc' });
      expect(start.status, dir).toBe(1);
      expect(start.stderr).toContain('npm start: PORT must be a port number');
      const build = script(dir, 'build.mjs');
      expect(build.status, dir).toBe(1);
      expect(build.stderr).toContain('emscripten: emcc');
      const entries = script(dir, 'entries.mjs', [path.join(tmp, 'no-dist')]);
      expect(entries.status, dir).toBe(1);
      expect(entries.stderr).toContain('no-dist');
    }
  });
});

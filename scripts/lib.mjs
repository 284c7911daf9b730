// Shared by the build, test and start scripts: run commands, and install what
// a fresh Debian 12 machine lacks (emscripten, npm dependencies, chromium),
// each time saying what and why first; where there is no apt-get, the manual
// steps instead, and exit 1.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, lstatSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts, env: { ...process.env, ...(opts.env || {}) } });
  if (r.error) throw r.error;
  if (r.status !== 0 && !opts.allowFail) {
    console.error(`\n${cmd} ${args.join(' ')} exited with ${r.status}`);
    process.exit(r.status || 1);
  }
  return r.status;
}

export function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, ...opts, env: { ...process.env, ...(opts.env || {}) } });
  return { status: r.status, stdout: r.stdout || '', stderr: r.stderr || '' };
}

export function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

// What each Debian package the scripts may install is for: said before installing it.
export const APT_WHY = {
  emscripten: 'emcc, the C++-to-WebAssembly compiler (Emscripten 3.1.x) that builds the engine',
  cmake: 'the build system of the engine and its native tests',
  'g++': 'the native C++ compiler (GoogleTest suites)',
  'libgtest-dev': 'GoogleTest, the native test framework',
  chromium: 'the browser the page and package tests run in',
  'clang-14': 'clang, for the libFuzzer harness',
  'libclang-rt-14-dev': "clang's sanitizer and libFuzzer runtimes",
};

// Where to get a package by hand, when this machine has no apt-get.
const MANUAL = {
  emscripten: [
    'Emscripten 3.1.x (https://emscripten.org/docs/getting_started/downloads.html):',
    '  git clone https://github.com/emscripten-core/emsdk.git && cd emsdk',
    '  ./emsdk install 3.1.6 && ./emsdk activate 3.1.6 && source ./emsdk_env.sh',
    '  (emcc must be on PATH when you run the command again)',
  ],
};

/**
 * Whether the module at `metaUrl` is the script node was started with
 * (`node scripts/start.mjs`), however its path is spelled: one with a space or
 * a `%` is percent-encoded in the URL, and a folder reached through a symlink
 * is resolved in it (Node runs the real file).
 */
export function isMain(metaUrl) {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1]) === fileURLToPath(metaUrl);
  } catch {
    return false; // argv[1] names no file: not a script run by node
  }
}

/** Who is asking, for messages: `npm start`, `npm test`, or the script's name. */
function caller() {
  const event = process.env.npm_lifecycle_event;
  if (event) return event === 'start' || event === 'test' ? `npm ${event}` : `npm run ${event}`;
  return path.basename(process.argv[1] ?? 'tensorcast');
}

/** The text printed instead of installing `missing` where apt-get cannot run. */
export function manualSteps(missing, why) {
  const lines = [`${caller()}: ${why}, so these cannot be installed for you:`];
  for (const p of missing) lines.push(`  ${p}: ${APT_WHY[p] ?? 'a Debian package'}`);
  lines.push('', 'Install them with your system\'s package manager (the names above are Debian\'s), then run the command again.');
  for (const p of missing) if (MANUAL[p]) lines.push('', ...MANUAL[p]);
  if (missing.includes('emscripten')) {
    lines.push('', 'Only want the explorer? It needs no build: npx tensorcast explore');
  }
  return lines.join('\n');
}

const dpkgHas = (p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status === 0;

let aptUpdated = false;
/**
 * Install the Debian packages of `pkgs` that are missing, with apt-get (sudo
 * when not root), after saying which and what for. Where apt-get (or, not as
 * root, sudo) is absent, print the manual steps and exit 1.
 */
export function aptInstall(pkgs) {
  const missing = pkgs.filter((p) => !dpkgHas(p));
  if (missing.length === 0) return;
  const root = process.getuid && process.getuid() === 0;
  let cannot = null;
  if (!has('apt-get')) cannot = 'apt-get is not available on this system';
  else if (!root && !has('sudo')) cannot = 'installing needs root, and sudo is not available';
  if (cannot) {
    console.error(manualSteps(missing, cannot));
    process.exit(1);
  }
  const sudo = root ? [] : ['sudo'];
  const apt = (...args) => (root ? ['apt-get', args] : ['sudo', ['apt-get', ...args]]);
  const env = { env: { DEBIAN_FRONTEND: 'noninteractive' } };
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  console.log([
    `${caller()}: installing ${missing.length === 1 ? 'a Debian package' : `${missing.length} Debian packages`} this needs:`,
    ...missing.map((p) => `  ${p}: ${APT_WHY[p] ?? 'a Debian package'}`),
    `with: ${[...sudo, 'apt-get', ...(aptUpdated ? [] : ['update', '&&', ...sudo, 'apt-get']), ...install].join(' ')}${root ? '' : ' (sudo may ask for your password)'}`,
  ].join('\n'));
  if (!aptUpdated) {
    run(...apt('update'), env);
    aptUpdated = true;
  }
  run(...apt(...install), env);
}

/** What the engine's build needs on PATH: emcc (Emscripten) and cmake. */
export function ensureEmscripten() {
  const need = [];
  if (!has('emcc')) need.push('emscripten');
  if (!has('cmake')) need.push('cmake');
  if (need.length) aptInstall(need);
}

/**
 * Why node_modules/ does not match package-lock.json, or null when it does:
 * every package the lock pins is installed at its version (optional ones, such
 * as other platforms' binaries, may be absent) and nothing else is, as npm's
 * own record of the install (node_modules/.package-lock.json) says. By
 * content, not by time: a lock whose only change is the root's version, or a
 * fresh checkout, installs nothing.
 */
export function nodeModulesStale(dir = root) {
  const hidden = path.join(dir, 'node_modules', '.package-lock.json');
  if (!existsSync(hidden)) return 'node_modules/ is not installed';
  const want = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).packages ?? {};
  let have;
  try {
    have = JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {};
  } catch {
    return 'node_modules/.package-lock.json is unreadable';
  }
  const name = (k) => k.replace(/^.*node_modules\//, '');
  for (const [k, l] of Object.entries(want)) {
    if (k === '' || l.link) continue;
    const h = have[k];
    if (!h) {
      if (l.optional || l.devOptional) continue;
      return `${name(k)} is not installed`;
    }
    if (h.version !== l.version) return `${name(k)} ${h.version} is installed, package-lock.json pins ${l.version}`;
  }
  for (const k of Object.keys(have)) if (k !== '' && !want[k]) return `${name(k)} is installed but package-lock.json no longer has it`;
  return null;
}

/**
 * `npm ci` when node_modules/ does not match package-lock.json, after saying
 * why and what it installs. A node_modules/ that is a link (a worktree sharing
 * another checkout's) is never reinstalled from here: `npm ci` would empty the
 * directory it points to; the message says where to run it instead, and exits 1.
 */
export function ensureNodeModules(dir = root) {
  const why = nodeModulesStale(dir);
  if (!why) return;
  const nm = path.join(dir, 'node_modules');
  if (existsSync(nm) && lstatSync(nm).isSymbolicLink()) {
    const target = realpathSync(nm);
    console.error(`${caller()}: ${why}, but node_modules/ is a link to ${target}, which other checkouts may share:\n`
      + `not reinstalling it from here (npm ci would empty it). Run npm ci in ${path.dirname(target)}, or replace the link with a directory of this checkout's own.`);
    process.exit(1);
  }
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const lock = path.join(dir, 'package-lock.json');
  const count = Object.keys(JSON.parse(readFileSync(lock, 'utf8')).packages ?? {}).filter((k) => k).length;
  console.log([
    `${caller()}: ${why}:`,
    `installing the ${count} npm packages package-lock.json pins into node_modules/ (the dev tools: ${Object.keys(pkg.devDependencies ?? {}).join(', ')};`,
    'no browser is downloaded) with: npm ci --no-audit --no-fund',
  ].join('\n'));
  run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir });
}

// Debian's emscripten runs its JS optimiser with the system node, which needs
// Debian's node modules (acorn) on NODE_PATH.
export const emEnv = { NODE_PATH: '/usr/share/nodejs' };

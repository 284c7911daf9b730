// Shared by the build, test and start scripts: run commands, and install what
// a fresh Debian 12 machine lacks (emscripten, npm dependencies, chromium).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
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

let aptUpdated = false;
export function aptInstall(pkgs) {
  const missing = pkgs.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  console.log(`installing Debian packages: ${missing.join(' ')}`);
  if (!aptUpdated) {
    run(sudo[0] || 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'update'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
    aptUpdated = true;
  }
  run(sudo[0] || 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', ...missing], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

export function ensureEmscripten() {
  if (!has('emcc')) aptInstall(['emscripten']);
}

export function ensureNodeModules() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  // Missing, or older than the lock (a dependency was added since): install.
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(path.join(root, 'package-lock.json')).mtimeMs) {
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

// Debian's emscripten runs its JS optimiser with the system node, which needs
// Debian's node modules (acorn) on NODE_PATH.
export const emEnv = { NODE_PATH: '/usr/share/nodejs' };

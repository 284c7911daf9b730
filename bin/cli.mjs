// The `tensorcast` command (bin/tensorcast.mjs runs main()):
//
//   npx tensorcast explore [--port N] [--host H] [--open]
//
// serves the broadcast explorer that ships in the package (dist/explorer/, a
// static folder built by `npm run build`) with bin/serve.mjs: nothing is built,
// nothing is downloaded, no Emscripten is needed. Dependency-free, like the server.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, listenErrorMessage, isLoopback } from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where the built page is in the package (or in a clone after `npm run build`). */
export const EXPLORER_DIR = path.join(here, '..', 'dist', 'explorer');

export const DEFAULT_PORT = 8080;

export const USAGE = `Usage: tensorcast explore [--port N] [--host H] [--open]
       tensorcast --help | --version

  explore      serve the broadcast explorer, the page that ships in this
               package, until Ctrl+C (nothing is built or downloaded)

Options:
  --port N     the port to listen on (default: $PORT, else ${DEFAULT_PORT});
               0 picks a free port
  --host H     the address to listen on (default 127.0.0.1: this machine only;
               0.0.0.0: every interface, so others on the network can open it)
  --open       open the page in the system browser
  -h, --help   show this text
  -v, --version  print the package's version

The page is a static folder, node_modules/tensorcast/dist/explorer/: copy it to
any static host to publish it.`;

/** A mistake on the command line: printed with the usage, exit status 2. */
export class UsageError extends Error {}

function parsePort(text, from) {
  if (!/^\d+$/.test(String(text).trim())) throw new UsageError(`${from} must be a port number from 0 to 65535, not "${text}"`);
  const port = Number(text);
  if (port > 65535) throw new UsageError(`${from} must be a port number from 0 to 65535, not ${String(text).trim()}`);
  return port;
}

/**
 * The command line as { command, port, host, open } (command: 'explore',
 * 'help' or 'version'). `env.PORT` is the default port. Throws UsageError on a
 * missing command, an unknown command or flag, a flag given twice or a bad value.
 */
export function parseArgs(argv, env = process.env) {
  const opts = { command: null, port: undefined, host: undefined, open: false };
  const seen = new Set();
  const once = (flag) => {
    if (seen.has(flag)) throw new UsageError(`${flag} is given twice`);
    seen.add(flag);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help' || arg === 'help') return { ...opts, command: 'help' };
    if (arg === '-v' || arg === '--version') return { ...opts, command: 'version' };
    const m = /^(--[a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (m) {
      const [, flag, inline] = m;
      const value = () => {
        if (inline !== undefined) return inline;
        const next = argv[++i];
        if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
        return next;
      };
      if (flag === '--port') {
        once(flag);
        opts.port = parsePort(value(), '--port');
      } else if (flag === '--host') {
        once(flag);
        // An IPv6 address as a URL writes it ([::1]) is the address inside the brackets.
        opts.host = value().replace(/^\[([^\]]*:[^\]]*)\]$/, '$1');
        if (!opts.host) throw new UsageError('--host needs a value');
      } else if (flag === '--open') {
        if (inline !== undefined) throw new UsageError('--open takes no value');
        once(flag);
        opts.open = true;
      } else if (flag === '--help' || flag === '--version') {
        throw new UsageError(`${flag} takes no value`);
      } else {
        throw new UsageError(`unknown option ${flag}`);
      }
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}`);
    } else if (opts.command === null) {
      if (arg !== 'explore') throw new UsageError(`unknown command "${arg}" (the command is explore)`);
      opts.command = arg;
    } else {
      throw new UsageError(`unexpected argument "${arg}"`);
    }
  }
  if (opts.command === null) throw new UsageError('no command given (the command is explore)');
  if (opts.port === undefined) opts.port = env.PORT !== undefined && env.PORT !== '' ? parsePort(env.PORT, 'PORT') : DEFAULT_PORT;
  opts.host ??= '127.0.0.1';
  return opts;
}

/**
 * How this system opens a URL in its browser: [command, args, spawn options],
 * or { reason } when it cannot (a Linux without a graphical session: xdg-open
 * would fall back to a text browser in this terminal).
 */
export function openCommand(url, { platform = process.platform, env = process.env } = {}) {
  if (platform === 'darwin') return { cmd: 'open', args: [url] };
  if (platform === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '""', url], options: { windowsVerbatimArguments: true } };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY && !env.BROWSER) {
    return { reason: 'no graphical session here (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  return { cmd: 'xdg-open', args: [url] };
}

/**
 * Open `url` in the system browser. Resolves to null when the opener exited 0
 * (or still runs after 3 s), or to the reason it could not (never rejects).
 */
export function openBrowser(url, { platform, env = process.env } = {}) {
  const how = openCommand(url, { platform, env });
  if (how.reason) return Promise.resolve(how.reason);
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(how.cmd, how.args, { stdio: 'ignore', detached: true, env, ...how.options });
    } catch (e) {
      resolve(`${how.cmd} did not start (${e.code ?? e.message})`);
      return;
    }
    child.on('error', (e) => resolve(e.code === 'ENOENT' ? `${how.cmd} is not installed (not found on PATH)` : `${how.cmd} did not start (${e.code ?? e.message})`));
    child.on('exit', (code, signal) => resolve(code === 0 ? null : `${how.cmd} ${signal ? `was stopped by ${signal}` : `exited with status ${code}`}`));
    child.unref();
    // Some openers only return when the browser they started closes: still
    // running after a while, it has started one.
    setTimeout(() => resolve(null), 3000).unref();
  });
}

function version() {
  return JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8')).version;
}

/**
 * Run the command line. Resolves to an exit status when the command is done
 * (help, version, an error), or to null while the explorer is being served
 * (the server keeps the process alive until SIGINT or SIGTERM).
 */
export async function main(argv, { out = console.log, err = console.error, env = process.env, dir = EXPLORER_DIR, platform } = {}) {
  let opts;
  try {
    opts = parseArgs(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`tensorcast: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.command === 'help') {
    out(USAGE);
    return 0;
  }
  if (opts.command === 'version') {
    out(version());
    return 0;
  }
  if (!existsSync(path.join(dir, 'index.html'))) {
    err(`tensorcast: the explorer page is missing: ${path.join(dir, 'index.html')} does not exist.\n` +
      'In a clone of the repository, `npm run build` builds it (or `npm start` builds and serves it).');
    return 1;
  }
  let served;
  try {
    served = await serve(dir, opts.port, { host: opts.host });
  } catch (e) {
    err(`tensorcast: ${listenErrorMessage(e, opts.host, opts.port, 'pass --port N for another port, or --port 0 for any free one')}`);
    return 1;
  }
  const { server, url } = served;
  out(`tensorcast ${version()}: the broadcast explorer is at ${url}`);
  // What the server really bound (127.1 is 127.0.0.1, localhost one of its addresses), not how the host was spelled.
  if (!isLoopback(server.address()?.address ?? opts.host)) out(`listening on ${opts.host}: other machines that can reach this one can open the page too`);
  out('press Ctrl+C to stop');
  const stop = () => {
    server.close();
    server.closeAllConnections?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (opts.open) {
    const why = await openBrowser(url, { platform, env });
    if (why) out(`could not open a browser: ${why}. Open ${url} yourself.`);
    else out('opened it in your browser');
  }
  return null;
}

// embind vs raw export, measured: builds bench/boundary/measure.cpp (two
// builds, see build.mjs) into a temp directory, then times the same calls in a
// fresh Node process and in a headless Chromium page, plus tensorcast's own
// module (raw exports only, no embind): _tc_version(), and
// _tc_version() with its text decoded, as the loader reads it.
//   node bench/boundary/run.mjs [--quick] [--dir=<build dir, reused if built>] [--json=file] [--no-chromium]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (...a) => process.stderr.write(`[boundary] ${a.join(' ')}\n`);

export async function runBoundarySuite({ quick = false, dir = null, chromium = true } = {}) {
  const out = { node: null, chromium: null, errors: [] };
  const made = !dir;
  try {
    if (!dir || !fs.existsSync(path.join(dir, 'measure-de1.wasm'))) dir = build(dir ?? undefined);
  } catch (e) {
    out.errors.push(`em++ build failed: ${e.message.split('\n')[0]}`);
    return out;
  }
  const r = spawnSync(process.execPath, [path.join(here, 'node-child.mjs'), dir, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', maxBuffer: 64 << 20 });
  try {
    out.node = JSON.parse(r.stdout.trim().split('\n').pop());
    log('Node: done');
  } catch {
    out.errors.push(`Node failed: ${(r.stderr || '').trim().split('\n').slice(-3).join(' / ')}`);
  }
  if (chromium) {
    const { startChromium } = await import('../browser/chromium.mjs');
    let ch = null;
    try {
      ch = await startChromium({ boundaryDir: dir });
      out.chromiumVersion = ch.version;
      out.chromium = await ch.open(`suite=boundary${quick ? '&quick=1' : ''}`);
      log('Chromium: done');
    } catch (e) {
      out.errors.push(`Chromium failed: ${e.message.split('\n')[0]}`);
    } finally {
      if (ch) await ch.close();
    }
  }
  if (made) fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (k) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
  const r = await runBoundarySuite({ quick: args.includes('--quick'), dir: opt('dir') ? path.resolve(opt('dir')) : null, chromium: !args.includes('--no-chromium') });
  const { boundarySection } = await import('../browser/report.mjs');
  process.stdout.write(boundarySection(r, { command: 'node bench/boundary/run.mjs' }).join('\n') + '\n');
  if (opt('json')) fs.writeFileSync(opt('json'), JSON.stringify(r, null, 1));
}

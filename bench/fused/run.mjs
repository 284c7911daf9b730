// The fused-expression rows (issue 22) in Node and headless Chromium: builds
// the limit (bench/limit/fused.cpp, em++) into a temp directory, then runs each
// group of bench/fused/groups.mjs in a fresh Node process and a fresh page, one
// after the other, group by group (as bench/browser/run.mjs does).
//   node bench/fused/run.mjs [--quick] [--groups=chain-a-row,cold,...] [--no-chromium] [--clock=wall] [--json=file]
// Node times min(wall, process CPU) per batch unless --clock=wall; a page, wall time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUSED_GROUPS } from './groups.mjs';
import { build } from '../limit/build.mjs';
import { nodeThenPage } from '../browser/run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (...a) => process.stderr.write(`[fused] ${a.join(' ')}\n`);

export async function runFusedSuite({ quick = false, groups = FUSED_GROUPS, chromium = true, clock = 'min' } = {}) {
  const out = { node: {}, chromium: {}, chromiumVersion: null, errors: [] };
  let dir = null;
  try {
    dir = build();
  } catch (e) {
    out.errors.push(`the limit (bench/limit/fused.cpp) did not build, its column is n/a: ${e.message.split('\n')[0]}`);
    log(out.errors.at(-1));
  }
  let ch = null;
  if (chromium) {
    try {
      const { startChromium } = await import('../browser/chromium.mjs');
      ch = await startChromium(dir ? { mounts: { limit: dir } } : {});
      out.chromiumVersion = ch.version;
    } catch (e) {
      out.errors.push(`Chromium did not start: ${e.message.split('\n')[0]}`);
      log(out.errors.at(-1));
    }
  }
  await nodeThenPage(groups, {
    child: path.join(here, 'node-child.mjs'), childArgs: () => [dir ?? '-', ...(quick ? ['--quick'] : []), ...(clock === 'wall' ? ['--clock=wall'] : [])],
    query: (g) => `suite=fused&group=${g}&tf=1${dir ? '&limit=1' : ''}${quick ? '&quick=1' : ''}`, ch, out, log,
  });
  if (ch) await ch.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.find((a) => a.startsWith('--json='));
  const groupsArg = args.find((a) => a.startsWith('--groups='));
  const r = await runFusedSuite({ quick: args.includes('--quick'), chromium: !args.includes('--no-chromium'), clock: args.includes('--clock=wall') ? 'wall' : 'min', ...(groupsArg ? { groups: groupsArg.slice(9).split(',') } : {}) });
  const { fusedSection } = await import('./report.mjs');
  process.stdout.write(fusedSection(r).join('\n') + '\n');
  if (json) fs.writeFileSync(json.slice(7), JSON.stringify(r, null, 1));
}

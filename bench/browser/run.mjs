// The per-call sets and the main kernel sets in Node and in headless Chromium,
// with the same code (bench/browser/groups.mjs) and the same wall-clock timing
// (bench/lib/wall.mjs). Each group runs in a fresh Node process and in a fresh
// page, one after the other (Node, then Chromium, group by group), so that a
// change in the machine's load reaches both columns; every group carries a
// plain-JS control.
//   node bench/browser/run.mjs [--quick] [--json=file] [--no-tf] [--groups=sum-all,unb-nchw,...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS } from './groups.mjs';
import { startChromium } from './chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (...a) => process.stderr.write(`[browser] ${a.join(' ')}\n`);

/**
 * Each group in a fresh Node process (`node <child> <group> ...childArgs(group)`,
 * whose last line of stdout is the group's JSON) and then, if Chromium is up
 * (`ch`), in a fresh page (`ch.open(query(group))`), group by group, so that a
 * change in the machine's load reaches both columns. Fills out.node[group] and
 * out.chromium[group]; a failure goes to out.errors and the next group runs.
 */
export async function nodeThenPage(groups, { child, childArgs, query, ch, out, log }) {
  for (const g of groups) {
    const r = spawnSync(process.execPath, [child, g, ...childArgs(g)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    try {
      out.node[g] = JSON.parse(r.stdout.trim().split('\n').pop());
      log(`Node ${g}: done`);
    } catch {
      out.errors.push(`Node ${g} failed: ${(r.stderr || '').trim().split('\n').slice(-3).join(' / ')}`);
      log(out.errors.at(-1));
    }
    if (!ch) continue;
    try {
      out.chromium[g] = await ch.open(query(g));
      log(`Chromium ${g}: done`);
    } catch (e) {
      out.errors.push(`Chromium ${g} failed: ${e.message.split('\n')[0]}`);
      log(out.errors.at(-1));
    }
  }
}

export async function runBrowserSuite({ quick = false, tf = true, groups = GROUPS } = {}) {
  const out = { node: {}, chromium: {}, chromiumVersion: null, errors: [] };
  let ch = null;
  try {
    ch = await startChromium();
    out.chromiumVersion = ch.version;
  } catch (e) {
    out.errors.push(`Chromium did not start: ${e.message.split('\n')[0]}`);
    log(out.errors.at(-1));
  }
  await nodeThenPage(groups, {
    child: path.join(here, 'node-child.mjs'), childArgs: () => (quick ? ['--quick'] : []),
    query: (g) => `suite=group&group=${g}${tf ? '&tf=1' : ''}${quick ? '&quick=1' : ''}`, ch, out, log,
  });
  // init() in fresh pages: import of dist/index.js (16 modules, unbundled) and init() (fetch + compile + instantiate).
  out.init = [];
  if (ch && !groups.includes('percall')) await ch.close();
  else if (ch) {
    for (let i = 0; i < (quick ? 3 : 9); i++) {
      try {
        out.init.push((await ch.open('suite=init')).env);
      } catch (e) {
        out.errors.push(`Chromium init page failed: ${e.message.split('\n')[0]}`);
        break;
      }
    }
    await ch.close();
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.find((a) => a.startsWith('--json='));
  const groupsArg = args.find((a) => a.startsWith('--groups='));
  const r = await runBrowserSuite({ quick: args.includes('--quick'), tf: !args.includes('--no-tf'), ...(groupsArg ? { groups: groupsArg.slice(9).split(',') } : {}) });
  const { browserSection } = await import('./report.mjs');
  process.stdout.write(browserSection(r).join('\n') + '\n');
  if (json) fs.writeFileSync(json.slice(7), JSON.stringify(r, null, 1));
}

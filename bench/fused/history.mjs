// The chains' ratio targets (issue 22) over the saved runs (bench/runs/*.json,
// their `fused` summaries): per target, the median of the runs' ratios, their
// range and in how many runs it was met; then per run, the targets it missed.
// A run counts only where it has the ratio (a run before a case existed does not).
//   node bench/fused/history.mjs [--from=2026-11-26T1743] [--to=2026-11-26T2235]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chainTargets } from './report.mjs';
import { median } from '../lib/timing.mjs';

const runsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'runs');
const arg = (k) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const from = arg('from') ?? '';
const to = arg('to') ?? '\uffff';

const runs = fs.readdirSync(runsDir)
  .filter((f) => f.endsWith('.json') && f.slice(0, -5) >= from && f.slice(0, -5) <= to)
  .sort()
  .map((f) => ({ name: f.slice(0, -5), fused: JSON.parse(fs.readFileSync(path.join(runsDir, f), 'utf8')).fused }))
  .filter((r) => r.fused);
if (runs.length === 0) {
  console.log(`no saved run with fused figures in ${runsDir} between ${from || 'the first'} and ${to === '\uffff' ? 'the last' : to}`);
  process.exit(0);
}

const targets = chainTargets();
const ratio = (run, [, side, g, key]) => run.fused[side]?.[g]?.[key];
const x2 = (v) => `${v.toFixed(2)}×`;

console.log(`${runs.length} runs, ${runs[0].name} to ${runs.at(-1).name}\n`);
console.log('| target | median | range | met |\n| --- | ---: | --- | ---: |');
for (const t of targets) {
  const xs = runs.map((r) => ratio(r, t)).filter((v) => v !== undefined);
  if (xs.length === 0) continue;
  const met = xs.filter((v) => v <= t[4]).length;
  console.log(`| ${t[0]} | ${x2(median(xs))} | ${x2(Math.min(...xs))}–${x2(Math.max(...xs))} | ${met} of ${xs.length} |`);
}
console.log('');
for (const r of runs) {
  const missed = targets.filter((t) => ratio(r, t) !== undefined && ratio(r, t) > t[4]);
  const absent = targets.filter((t) => ratio(r, t) === undefined).length;
  const note = absent ? ` (${absent} not measured)` : '';
  console.log(`- ${r.name}: ${missed.length === 0 ? 'every target met' : `missed ${missed.map((t) => `${t[0]}: ${x2(ratio(r, t))}`).join('; ')}`}${note}`);
}

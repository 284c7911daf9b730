// The contraction targets (issue 40) over the saved runs of the gemm groups
// (bench/runs/gemm/*.json, each written by
//   node bench/fused/run.mjs --groups=gemm-256,gemm-1024,gemm-batched,gemm-2dim,gemm-small --json=bench/runs/gemm/<stamp>.json
// ): per target, the median of the runs' ratios, their range and in how many
// runs it was met; each run's ratio is itself the median of its interleaved rounds.
//   node bench/fused/gemm-history.mjs [--from=2026-11-28T1900] [--to=2026-11-29T0100]
// (--to: runs whose name sorts before it)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gemmTargets } from './report.mjs';
import { median } from '../lib/timing.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'runs', 'gemm');
const from = process.argv.find((a) => a.startsWith('--from='))?.slice(7) ?? '';
const to = process.argv.find((a) => a.startsWith('--to='))?.slice(5) ?? '\uffff';
const runs = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
  .filter((f) => f.endsWith('.json') && f.slice(0, -5) >= from && f.slice(0, -5) < to)
  .sort()
  .map((f) => ({ name: f.slice(0, -5), r: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
if (runs.length === 0) {
  console.log(`no saved run in ${dir}`);
  process.exit(0);
}
const x2 = (v) => `${v.toFixed(2)}×`;
console.log(`Contraction targets over ${runs.length} saved runs (${runs.map((r) => r.name).join(', ')}):`);
console.log('');
console.log('| target | limit | median (range) | runs met |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, side, g, key, lim] of gemmTargets()) {
  const xs = runs.map(({ r }) => r[side]?.[g]?.ratios?.[key]).filter((v) => v !== undefined);
  if (xs.length === 0) { console.log(`| ${name} | ${lim}× | — | 0/0 |`); continue; }
  const met = xs.filter((v) => v <= lim).length;
  console.log(`| ${name} | ${lim}× | ${x2(median(xs))} (${x2(Math.min(...xs))}–${x2(Math.max(...xs))}) | ${met}/${xs.length} |`);
}
// The time of each case, median over the runs (ms), for the note.
console.log('');
console.log('| group | case | Node ms | Chromium ms |');
console.log('| --- | --- | ---: | ---: |');
const groups = [...new Set(runs.flatMap(({ r }) => Object.keys(r.node ?? {})))];
for (const g of groups) {
  const ids = [...new Set(runs.flatMap(({ r }) => Object.keys(r.node?.[g]?.cases ?? {})))].filter((id) => id !== 'control');
  for (const id of ids) {
    const v = (side) => { const xs = runs.map(({ r }) => r[side]?.[g]?.cases?.[id]?.median).filter((q) => q !== undefined); return xs.length ? median(xs).toPrecision(3) : '—'; };
    console.log(`| ${g} | ${id} | ${v('node')} | ${v('chromium')} |`);
  }
}

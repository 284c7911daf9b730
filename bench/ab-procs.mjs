// Builds side by side, each in its own Node processes, alternating: the small
// call [3,1]+[1,4] (e2e: typed arrays in, a fresh array out; resident: tensors
// in, a resident `out`; wasm: the resident call's request sent to the raw
// export again, the engine's share), broadcastShapes rank 4 (the same pair,
// and varied: 8 pairs in turn, each call planning afresh), and e2eShared: e2e
// called from a loop shared by every case, as npm run bench calls it (V8 then
// cannot inline the call into the loop). Per process the minimum of 15 batches
// of 20k calls; reported: the minimum and the median over 5 rounds.
// In one process (bench/ab.mjs) two copies of the same build can differ by
// 10% (JIT code placement); separate processes do not.
//   node bench/ab-procs.mjs <dist dir> [<dist dir> ...] [--rounds=N]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { perCallCases } from './lib/percall.mjs';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
if (args[0] === '--child') {
  const cases = await perCallCases(args[1]);
  const r = {};
  for (const [k, f] of Object.entries(cases)) {
    f.prepare?.();
    for (let i = 0; i < 100000; i++) f();
    let best = Infinity;
    for (let j = 0; j < 15; j++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 20000; i++) f();
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 20000);
    }
    r[k] = best;
  }
  // e2e again, called from one loop that every case goes through, as npm run
  // bench times them: a call site that sees many functions, which V8 does not
  // inline into the loop (above, each case has a loop of its own).
  const batch = (f, k) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < k; i++) f();
    return Number(process.hrtime.bigint() - t0) / k;
  };
  for (const k of ['resident', 'shapes', 'varied', 'e2e']) for (let j = 0; j < 5; j++) batch(cases[k], 20000);
  r.e2eShared = Infinity;
  for (let j = 0; j < 15; j++) r.e2eShared = Math.min(r.e2eShared, batch(cases.e2e, 20000));
  console.log(JSON.stringify(r));
} else {
  const rounds = Number(args.find((x) => x.startsWith('--rounds='))?.slice(9) ?? 5);
  const dirs = args.filter((x) => !x.startsWith('--')).map((d) => path.resolve(d));
  if (!dirs.length) throw new Error('usage: node bench/ab-procs.mjs <dist dir> [<dist dir> ...] [--rounds=N]');
  const runs = dirs.map(() => ({ e2e: [], resident: [], shapes: [], varied: [], wasm: [], e2eShared: [] })); // perCallCases' order, then e2eShared
  for (let i = 0; i < rounds; i++) {
    dirs.forEach((d, j) => {
      const o = JSON.parse(execFileSync(process.execPath, [self, '--child', d], { encoding: 'utf8' }).trim().split('\n').pop());
      for (const k in o) runs[j][k].push(o[k]);
    });
  }
  console.log(`| build | ${Object.keys(runs[0]).map((k) => `${k} ns (min / median)`).join(' | ')} |`);
  console.log(`| --- | ${Object.keys(runs[0]).map(() => '---:').join(' | ')} |`);
  dirs.forEach((d, j) => {
    const cells = Object.values(runs[j]).map((v) => { const s = [...v].sort((x, y) => x - y); return `${s[0].toFixed(0)} / ${s[s.length >> 1].toFixed(0)}`; });
    console.log(`| ${path.relative(process.cwd(), d) || d} | ${cells.join(' | ')} |`);
  });
}

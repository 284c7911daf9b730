// Builds side by side on large element-wise calls with typed arrays (a fresh
// array out, or a typed `out`), each build in its own Node processes, in turn:
// float32 [1024,1024] with [1024] (row), [1024,1] (column), [1024,1024]
// (same), [1024,1] with [1,1024] (outer), [8,64,56,56] with [1,64,1,1] (NCHW)
// and [1024,1024] times a number (scalar); neg and cast to int32 of [1024,1024]. Per process and case, the median
// of 15 batches of 10 calls (clock: the smaller of wall and process CPU time,
// as npm run bench); reported per build: the median over the rounds.
//   node bench/ab-large.mjs <dist dir> [<dist dir> ...] [--rounds=N] [--out]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeData, numel } from './lib/workloads.mjs';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);

if (args[0] === '--child') {
  const tc = await import(path.resolve(args[1], 'node.js'));
  await tc.init();
  const withOut = args[2] === 'out';
  const t = (shape, seed) => ({ data: makeData('float32', numel(shape), seed), shape });
  const x = t([1024, 1024], 1);
  const cases = {
    row: ['add', x, t([1024], 2)],
    column: ['add', x, t([1024, 1], 3)],
    same: ['add', x, t([1024, 1024], 4)],
    outer: ['add', t([1024, 1], 5), t([1, 1024], 6)],
    nchw: ['add', t([8, 64, 56, 56], 7), t([1, 64, 1, 1], 8)],
    scalar: ['mul', x, 0.5],
    neg: ['neg', x],
    'cast int32': ['cast', x, 'int32'],
  };
  const r = {};
  for (const [k, [op, a, b]] of Object.entries(cases)) {
    const n = Math.max(a.data.length, typeof b === 'object' ? b.data.length : 0, k === 'outer' ? 1 << 20 : 0);
    const opts = withOut ? { out: op === 'cast' ? new Int32Array(n) : new Float32Array(n) } : undefined;
    const f = op === 'neg' ? () => tc.neg(a, opts) : op === 'cast' ? () => tc.cast(a, b, opts) : () => tc[op](a, b, opts);
    for (let i = 0; i < 20; i++) f();
    const ts = [];
    for (let j = 0; j < 15; j++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 10; i++) f();
      const wall = Number(process.hrtime.bigint() - t0) / 1e4;
      const c = process.cpuUsage(c0);
      ts.push(Math.min(wall, (c.user + c.system) / 10));
    }
    ts.sort((p, q) => p - q);
    r[k] = ts[7];
  }
  process.stdout.write(JSON.stringify(r));
} else {
  const dists = args.filter((a) => !a.startsWith('--'));
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 5);
  const mode = args.includes('--out') ? 'out' : 'fresh';
  const all = dists.map(() => []);
  for (let round = 0; round < rounds; round++) {
    dists.forEach((d, i) => all[i].push(JSON.parse(execFileSync(process.execPath, [self, '--child', d, mode], { encoding: 'utf8' }))));
  }
  const med = (v) => v.slice().sort((p, q) => p - q)[v.length >> 1];
  console.log(`${mode === 'out' ? 'typed out' : 'a fresh array out'}, µs per call, median over ${rounds} rounds (per round: median of 15 batches)`);
  const keys = Object.keys(all[0][0]);
  console.log(['case', ...dists.map((d) => path.basename(path.resolve(d)))].join('\t'));
  for (const k of keys) console.log([k, ...all.map((rs) => med(rs.map((r) => r[k])).toFixed(0))].join('\t'));
  if (dists.length === 2) {
    for (const k of keys) {
      const ratios = all[1].map((r, i) => r[k] / all[0][i][k]);
      console.log(`${k}: ${path.basename(path.resolve(dists[1]))} ÷ ${path.basename(path.resolve(dists[0]))} per round ${ratios.map((v) => v.toFixed(2)).join(' ')}, median ${med(ratios).toFixed(2)}`);
    }
  }
}

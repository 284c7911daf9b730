// Two builds' small calls in one process, in both load orders: the [3,1]+[1,4]
// add (typed arrays and resident with `out`), broadcastShapes (one rank-4 pair,
// and 8 pairs in turn: every call plans), a small compiled evaluate and the
// [1,64] x [64,64] contraction; 15 interleaved rounds a process, `--runs`
// processes each order (default 3). The module loaded second runs a few per
// cent apart from the first whichever build it is, so each ratio (B ÷ A) is
// the geometric mean over both orders, with every run's ratio beside it.
//   node bench/ab-small.mjs <dist A> <dist B> [--runs=3]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const child = args[0] === '--child';
const dirs = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));

if (child) {
  const mods = [];
  for (const d of dirs) { const tc = await import(pathToFileURL(path.join(d, 'node.js')).href); await tc.init(); mods.push(tc); }
  const pairs = [[[8, 1, 6, 1], [7, 1, 5]], [[256, 256, 3], [3]], [[5, 4], [1]], [[15, 3, 5], [15, 1, 5]], [[1, 2, 3, 4], [4, 1, 1, 1]], [[2, 1, 4], [3, 1]], [[6, 1, 8], [1, 7, 1]], [[9, 1, 1, 2], [1, 5, 3, 1]]];
  const cases = (tc) => {
    const a = new Float32Array([1, 2, 3]), b = new Float32Array([10, 20, 30, 40]);
    const pa = { data: a, shape: [3, 1] }, pb = { data: b, shape: [1, 4] };
    const ta = tc.tensor(a, [3, 1]), tb = tc.tensor(b, [1, 4]), o = { out: tc.tensor(new Float32Array(12), [3, 4]) };
    const X = tc.tensor(new Float32Array(64).map((_, i) => i / 64), [1, 64], { dims: ['b', 'in'] });
    const W = tc.tensor(new Float32Array(4096).map((_, i) => (i % 7) / 7), [64, 64], { dims: ['in', 'out'] });
    const co = { out: tc.tensor(new Float32Array(64), [1, 64], { dims: ['b', 'out'] }) };
    let k = 0;
    return {
      'add typed': () => tc.add(pa, pb), 'add resident': () => tc.add(ta, tb, o),
      'broadcastShapes': () => tc.broadcastShapes([8, 1, 6, 1], [7, 1, 5]),
      'broadcastShapes, 8 in turn': () => { const p = pairs[k++ & 7]; return tc.broadcastShapes(p[0], p[1]); },
      'evaluate (a + b) * a - b': () => tc.evaluate('(a + b) * a - b', { a: ta, b: tb }, o),
      'contraction [1,64] x [64,64]': () => tc.evaluate("sum(x * w, ['in'])", { x: X, w: W }, co),
    };
  };
  const cs = mods.map(cases);
  const names = Object.keys(cs[0]);
  const t = cs.map(() => Object.fromEntries(names.map((n) => [n, []])));
  for (let round = 0; round < 15; round++) for (const n of names) for (let m = 0; m < cs.length; m++) {
    const fn = cs[m][n];
    const N = n.startsWith('contraction') ? 1000 : 5000;
    for (let i = 0; i < 300; i++) fn();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) fn();
    t[m][n].push((performance.now() - t0) / N * 1e6);
  }
  const med = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };
  // Per case: the second build's time over the first's, the median over the rounds; and each build's median ns.
  console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, { ratio: med(t[1][n].map((v, i) => v / t[0][n][i])), ns: [med(t[0][n]), med(t[1][n])] }]))));
} else {
  if (dirs.length !== 2) throw new Error('usage: node bench/ab-small.mjs <dist A> <dist B> [--runs=3]');
  const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice(7) ?? 3);
  const self = fileURLToPath(import.meta.url);
  const logs = {};
  const ns = {};
  for (let r = 0; r < runs; r++) {
    for (const [first, second, flip] of [[dirs[0], dirs[1], false], [dirs[1], dirs[0], true]]) {
      const p = spawnSync(process.execPath, [self, '--child', first, second], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(p.stderr);
      for (const [n, { ratio, ns: [x, y] }] of Object.entries(JSON.parse(p.stdout.trim().split('\n').pop()))) {
        (logs[n] ??= []).push(Math.log(flip ? 1 / ratio : ratio)); // B ÷ A either way
        (ns[n] ??= [[], []])[0].push(flip ? y : x);
        ns[n][1].push(flip ? x : y);
      }
    }
  }
  const med = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };
  console.log(`A: ${dirs[0]}\nB: ${dirs[1]}\n${runs} processes each load order, 15 interleaved rounds each\n`);
  console.log('| call | A ns | B ns | B ÷ A (geometric mean) | each run |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [n, v] of Object.entries(logs)) {
    const g = Math.exp(v.reduce((s, x) => s + x, 0) / v.length);
    console.log(`| ${n} | ${med(ns[n][0]).toFixed(0)} | ${med(ns[n][1]).toFixed(0)} | ${g.toFixed(3)} | ${v.map((x) => Math.exp(x).toFixed(2)).join(' ')} |`);
  }
}

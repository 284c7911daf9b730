// Builds side by side, each in its own Node processes, alternating: the small
// call [3,1]+[1,4] (e2e: typed arrays in, a fresh array out; resident: tensors
// in, a resident `out`; wasm: the resident call's request sent to the raw
// export again, the engine's share), broadcastShapes rank 4 (the same pair,
// and varied: 8 pairs in turn, each call planning afresh). Per process the minimum of
// 15 batches of 20k calls; reported: the minimum and the median over 5 rounds.
// In one process (bench/ab.mjs) two copies of the same build can differ by
// 10% (JIT code placement); separate processes do not.
//   node bench/ab-procs.mjs <dist dir> [<dist dir> ...] [--rounds=N]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
if (args[0] === '--child') {
  const tc = await import(pathToFileURL(path.join(args[1], 'node.js')).href);
  await tc.init();
  const A = new Float32Array([1, 2, 3]);
  const B = new Float32Array([10, 20, 30, 40]);
  const a = { data: A, shape: [3, 1] };
  const b = { data: B, shape: [1, 4] };
  const none = {};
  const ta = tc.tensor(A, [3, 1]);
  const tb = tc.tensor(B, [1, 4]);
  const opts = { out: tc.tensor(new Float32Array(12), [3, 4]) };
  if (Array.from(tc.add(a, b, none).data).join() !== '11,21,31,41,12,22,32,42,13,23,33,43') throw new Error('add is wrong');
  // wasm: the raw export alone, answering the resident call's request again
  // (its plan cached): the engine's side of the resident figure.
  tc.add(ta, tb, opts);
  const M = (await import(pathToFileURL(path.join(args[1], 'loader.js')).href)).mod();
  const { C } = await import(pathToFileURL(path.join(args[1], 'contract.js')).href);
  const raw = M._tc_call;
  const len = C.REQ_LEN + 6; // the header and two rank-2 shapes
  if (M.HEAPF64[raw(len) >>> 3] !== 0) throw new Error('the captured request is not answered Ok');
  const pairs = Array.from({ length: 8 }, (_, k) => [[8, 1, 6 + k, 1], [1, 7, 1, 5 + k]]); // every call plans
  let turn = 0;
  const cases = {
    e2e: () => tc.add(a, b, none).data,
    resident: () => tc.add(ta, tb, opts),
    shapes: () => tc.broadcastShapes([8, 1, 6, 1], [7, 1, 5]),
    varied: () => { const p = pairs[turn++ & 7]; return tc.broadcastShapes(p[0], p[1]); },
    wasm: () => raw(len),
  };
  const r = {};
  for (const [k, f] of Object.entries(cases)) {
    for (let i = 0; i < 100000; i++) f();
    let best = Infinity;
    for (let j = 0; j < 15; j++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 20000; i++) f();
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 20000);
    }
    r[k] = best;
  }
  console.log(JSON.stringify(r));
} else {
  const rounds = Number(args.find((x) => x.startsWith('--rounds='))?.slice(9) ?? 5);
  const dirs = args.filter((x) => !x.startsWith('--')).map((d) => path.resolve(d));
  if (!dirs.length) throw new Error('usage: node bench/ab-procs.mjs <dist dir> [<dist dir> ...] [--rounds=N]');
  const runs = dirs.map(() => ({ e2e: [], resident: [], shapes: [], varied: [], wasm: [] }));
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

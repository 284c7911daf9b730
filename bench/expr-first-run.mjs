// The first run of a long expression against its next runs: `x + f(x * 1) + f(x * 2) + …`
// (the constants 1..7 in turn) over 1,000 float32, for f = exp and sqrt, a fresh
// process per case (V8 keeps compiled modules per process). Reported: the
// first and the second run, in ms.
//   node bench/expr-first-run.mjs [dist dir] [--terms=64,128,256,512,800]
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const [, dist, fn, n] = args;
  const tc = await import(pathToFileURL(path.join(dist, 'node.js')).href);
  await tc.init();
  const N = 1000;
  const x = { data: new Float32Array(N).map((_, i) => i / N), shape: [N] };
  let text = 'x';
  for (let i = 0; i < Number(n); i++) text += ` + ${fn}(x * ${(i % 7) + 1})`;
  const f = tc.compile(text);
  const ms = [];
  for (let r = 0; r < 2; r++) {
    const t = performance.now();
    f.run({ x });
    ms.push(performance.now() - t);
  }
  console.log(JSON.stringify({ ms }));
} else {
  const dist = path.resolve(args.find((a) => !a.startsWith('--')) ?? 'dist');
  const terms = (args.find((a) => a.startsWith('--terms='))?.slice(8) ?? '64,128,256,512,800').split(',').map(Number);
  console.log('f      terms   first ms   second ms');
  for (const fn of ['exp', 'sqrt']) {
    for (const n of terms) {
      const p = spawnSync(process.execPath, [new URL(import.meta.url).pathname, '--child', dist, fn, String(n)], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(p.stderr);
      const r = JSON.parse(p.stdout.trim().split('\n').pop());
      console.log(`${fn.padEnd(6)} ${String(n).padStart(5)} ${r.ms[0].toFixed(1).padStart(10)} ${r.ms[1].toFixed(2).padStart(11)}`);
    }
  }
}

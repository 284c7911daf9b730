// Builds side by side on float32 transcendentals, alone and inside
// expressions: 1M elements resident into a resident `out` (exp, log, tanh,
// sigmoid; exp(x - 1) * 2, 1 / (1 + exp(-x)), log(p) * 2 - 1, a binary
// cross-entropy's terms, expm1(x) * 2, log1p(p) * 2, softplus and an ELU), exp of -1e9 (underflow), softmax [32,1000] into `out`,
// plain and with 3 of 4 logits masked (-1e9). Both builds in one
// Node process, then both in one headless Chromium page (each its own
// WebAssembly instance), rounds interleaved with the order turned each round;
// reported: ms per call, the median over the rounds, and B ÷ A.
//   node bench/ab-expr.mjs <dist dir A> <dist dir B> [--rounds=N]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, FLAGS, serveMounts } from './browser/chromium.mjs';

const args = process.argv.slice(2);
const dists = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 9);
if (dists.length !== 2) throw new Error('usage: node bench/ab-expr.mjs <dist dir A> <dist dir B> [--rounds=N]');

// Runs in Node and, as its source text, in the page: `load(i)` imports build i.
async function suite(load, rounds) {
  const libs = [];
  for (let i = 0; i < 2; i++) { const tc = await load(i); await tc.init(); libs.push(tc); }
  const N = 1 << 20;
  const X = new Float32Array(N);
  const P = new Float32Array(N);
  for (let i = 0; i < N; i++) { X[i] = ((i * 7919) % 20000) / 1000 - 10; P[i] = ((i * 104729) % 10000 + 1) / 101 / 100; }
  const S = libs.map((tc) => ({
    tc, x: tc.tensor(X, [N]), p: tc.tensor(P, [N]), y: tc.tensor(P.map((_, i) => (i % 3 ? 0 : 1)), [N]),
    o: { out: tc.tensor(new Float32Array(N), [N]) },
    t: tc.tensor(X.subarray(0, 32000), [32, 1000]), o2: { out: tc.tensor(new Float32Array(32000), [32, 1000]) },
    // logits with a mask: 3 of 4 entries -1e9 (exp of their x - max underflows to +0)
    tm: tc.tensor(X.subarray(0, 32000).map((v, i) => (i % 4 ? -1e9 : v)), [32, 1000]),
    low: tc.tensor(new Float32Array(N).fill(-1e9), [N]),
  }));
  const cases = {
    exp: (s) => s.tc.exp(s.x, s.o),
    log: (s) => s.tc.log(s.p, s.o),
    tanh: (s) => s.tc.tanh(s.x, s.o),
    sigmoid: (s) => s.tc.sigmoid(s.x, s.o),
    'exp(x - 1) * 2': (s) => s.tc.evaluate('exp(x - 1) * 2', { x: s.x }, s.o),
    '1 / (1 + exp(-x))': (s) => s.tc.evaluate('1 / (1 + exp(-x))', { x: s.x }, s.o),
    'log(p) * 2 - 1': (s) => s.tc.evaluate('log(p) * 2 - 1', { p: s.p }, s.o),
    'cross-entropy': (s) => s.tc.evaluate('-(y * log(p) + (1 - y) * log(1 - p))', { y: s.y, p: s.p }, s.o),
    'expm1(x) * 2': (s) => s.tc.evaluate('expm1(x) * 2', { x: s.x }, s.o),
    'log1p(p) * 2': (s) => s.tc.evaluate('log1p(p) * 2', { p: s.p }, s.o),
    'softplus log1p(exp(x))': (s) => s.tc.evaluate('log1p(exp(x))', { x: s.x }, s.o),
    'ELU where(x > 0, x, expm1(x))': (s) => s.tc.evaluate('where(x > 0, x, expm1(x))', { x: s.x }, s.o),
    'softmax [32,1000] x8': (s) => { for (let i = 0; i < 8; i++) s.tc.softmax(s.t, -1, s.o2); },
    'softmax [32,1000] masked x8': (s) => { for (let i = 0; i < 8; i++) s.tc.softmax(s.tm, -1, s.o2); },
    'exp of -1e9': (s) => s.tc.exp(s.low, s.o),
  };
  const med = (a) => { const v = [...a].sort((p, q) => p - q); return v[v.length >> 1]; };
  const rows = [];
  for (const [name, f] of Object.entries(cases)) {
    const t = [[], []];
    for (let r = 0; r < rounds; r++) {
      for (const j of r % 2 ? [1, 0] : [0, 1]) {
        for (let i = 0; i < 2; i++) f(S[j]);
        const t0 = performance.now();
        for (let i = 0; i < 10; i++) f(S[j]);
        t[j].push((performance.now() - t0) / 10);
      }
    }
    rows.push([name, med(t[0]), med(t[1])]);
  }
  return rows;
}

const print = (env, rows) => {
  console.log(`\n${env}: ms per call, medians of ${rounds} rounds (A ${dists[0]}, B ${dists[1]})`);
  console.log('| case | A | B | B ÷ A |\n| --- | ---: | ---: | ---: |');
  for (const [name, a, b] of rows) console.log(`| ${name} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)}× |`);
};

print('Node', await suite((i) => import(pathToFileURL(path.join(dists[i], 'node.js')).href), rounds));

// The page: the two dists served at /d0/ and /d1/ (bench/browser/chromium.mjs), a blank document of that origin.
const { server, url } = await serveMounts({ d0: dists[0], d1: dists[1] });
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: false, args: FLAGS });
try {
  const page = await browser.newPage();
  await page.goto(`${url}d0/`);
  print('Chromium', await page.evaluate(`(${suite.toString()})((i) => import('/d' + i + '/index.js'), ${rounds})`));
} finally {
  await browser.close();
  await new Promise((r) => server.close(r));
}

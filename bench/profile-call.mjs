// Where one call spends its time, in Node or in headless Chromium: a sampling
// profile (the V8 CPU profiler; in the page over the DevTools protocol) of a
// loop of the call, each function's self time, largest first. Wasm functions
// appear as wasm-function[N], N their index in the module (imports first); a
// build linked with --profiling-funcs names them.
//
//   node bench/profile-call.mjs <call> [--shape=RxC] [--dist=dir] [--env=node|chromium] [--seconds=3] [--top=14]
//
// <call>, on a float32 resident tensor t of that shape (values in [-10, 10])
// and a resident `out` of the same shape: softmax, logSoftmax, exp, log, tanh,
// sigmoid (each `f(t, ..., { out })`), max or sum along the last axis (keepdims,
// into a column), argmax (last axis), topk (5).
//   node bench/profile-call.mjs softmax --shape=8x32000 --env=chromium
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { CHROMIUM, FLAGS, serveMounts } from './browser/chromium.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d;
const call = args.find((a) => !a.startsWith('--'));
const CALLS = ['softmax', 'logSoftmax', 'exp', 'log', 'tanh', 'sigmoid', 'max', 'sum', 'argmax', 'topk'];
if (!CALLS.includes(call)) throw new Error(`usage: node bench/profile-call.mjs <${CALLS.join('|')}> [--shape=RxC] [--dist=dir] [--env=node|chromium]`);
const [R, C] = opt('shape', '32x1000').split('x').map(Number);
const dist = path.resolve(opt('dist', path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')));
const env = opt('env', 'node');
const seconds = Number(opt('seconds', 3));
const top = Number(opt('top', 14));

// Runs in Node and, as its source text, in the page: the loop's setup, then `run` (the timed loop).
async function setup(tc, R, C, call) {
  await tc.init();
  const X = new Float32Array(R * C);
  for (let i = 0; i < X.length; i++) X[i] = (((i * 7919) % 10007) / 10007 - 0.5) * 20;
  const t = tc.tensor(X, [R, C]);
  const o = { out: tc.tensor(new Float32Array(R * C), [R, C]) };
  const col = { out: tc.tensor(new Float32Array(R), [R, 1]), axes: [-1], keepdims: true };
  const f = {
    softmax: () => tc.softmax(t, -1, o), logSoftmax: () => tc.logSoftmax(t, -1, o),
    exp: () => tc.exp(t, o), log: () => tc.log(t, o), tanh: () => tc.tanh(t, o), sigmoid: () => tc.sigmoid(t, o),
    max: () => tc.max(t, col), sum: () => tc.sum(t, col),
    argmax: () => tc.argmax(t, 1).dispose(), topk: () => { const r = tc.topk(t, 5); r.values.dispose(); r.indices.dispose(); },
  }[call];
  const loop = (ms) => { let n = 0; const t0 = performance.now(); while (performance.now() - t0 < ms) { f(); n++; } return ((performance.now() - t0) / n) * 1000; };
  loop(1500); // warm: every function tiered up
  return loop;
}

function table(profile, usPerCall) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples = new Map();
  for (const s of profile.samples) samples.set(s, (samples.get(s) ?? 0) + 1);
  const self = new Map();
  let total = 0;
  for (const [id, c] of samples) {
    const { functionName, url } = byId.get(id).callFrame;
    const k = `${functionName || '(anonymous)'} ${url.split('/').pop()}`.trim();
    self.set(k, (self.get(k) ?? 0) + c);
    total += c;
  }
  console.log(`${call} [${R},${C}] in ${env}: ${usPerCall.toFixed(1)} µs per call (profiled), self time:`);
  for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * c) / total).toFixed(1).padStart(5)}%  ${((usPerCall * c) / total).toFixed(2).padStart(8)} µs  ${k}`);
  }
}

if (env === 'node') {
  const tc = await import(pathToFileURL(path.join(dist, 'node.js')).href);
  const loop = await setup(tc, R, C, call);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  const us = loop(seconds * 1000);
  const { profile } = await session.post('Profiler.stop');
  table(profile, us);
} else if (env === 'chromium') {
  const { server, url } = await serveMounts({ dist });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: false, args: FLAGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}dist/`);
    await page.evaluate(`(async () => { window.loop = await (${setup.toString()})(await import('/dist/index.js'), ${R}, ${C}, ${JSON.stringify(call)}); })()`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
    const us = await page.evaluate(`window.loop(${seconds * 1000})`);
    const { profile } = await cdp.send('Profiler.stop');
    table(profile, us);
  } finally {
    await browser.close();
    await new Promise((r) => server.close(r));
  }
} else {
  throw new Error(`--env is node or chromium, got ${env}`);
}

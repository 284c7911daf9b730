// The page side of bench/browser/run.mjs and bench/boundary/run.mjs.
//   page.html?suite=group&group=percall[&tf=1][&quick=1]   one group of groups.mjs
//   page.html?suite=boundary[&quick=1]                      the embind-vs-raw cases
//   page.html?suite=init                                    import + init() of dist/index.js
//   page.html?suite=fused&group=chain-b[&tf=1][&limit=1][&quick=1]   one group of bench/fused/groups.mjs
//   page.html?suite=views&group=tadd[&dist=d0][&tf=1][&limit=1][&quick=1]   one group of bench/views/groups.mjs, tensorcast from /<dist>/index.js
// Sets window.__result (or window.__error) when done.
import { clockStep } from '../lib/wall.mjs';

const q = new URLSearchParams(location.search);
const quick = q.get('quick') === '1';
const pause = () => new Promise((r) => setTimeout(r, 0));

function script(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(s);
  });
}

async function loadTf() {
  const base = '/bench/node_modules/@tensorflow/';
  await script(`${base}tfjs-core/dist/tf-core.min.js`);
  await script(`${base}tfjs-backend-wasm/dist/tf-backend-wasm.min.js`);
  const tf = globalThis.tf;
  tf.wasm.setWasmPaths(`${base}tfjs-backend-wasm/dist/`);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.enableProdMode();
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: setBackend(wasm) failed');
  await tf.ready();
  return tf;
}

/** TensorFlow.js on its wasm backend, or null; env.tf says which build or why not. */
async function tfFor(env) {
  try {
    const tf = await loadTf();
    env.tf = `tfjs-wasm ${tf.version_core}, SIMD ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? 'on' : 'off'}, threads ${tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'on' : 'off'}`;
    return tf;
  } catch (e) {
    env.tf = `tfjs-wasm did not load: ${e.message}`;
    return null;
  }
}

async function main() {
  const suite = q.get('suite');
  const env = { name: 'Chromium', version: navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent, crossOriginIsolated: globalThis.crossOriginIsolated === true };
  if (suite === 'init') {
    const t0 = performance.now();
    const tc = await import('/dist/index.js');
    const t1 = performance.now();
    await tc.init();
    const t2 = performance.now();
    if (tc.add({ data: new Float32Array([1, 2, 3]), shape: [3, 1] }, { data: new Float32Array([10, 20]), shape: [1, 2] }).data.join() !== '11,21,12,22,13,23') throw new Error('wrong answer after init()');
    return { env: { ...env, importMs: t1 - t0, initMs: t2 - t1 } };
  }
  if (suite === 'group') {
    const t0 = performance.now();
    const tc = await import('/dist/index.js');
    const t1 = performance.now();
    await tc.init();
    const t2 = performance.now();
    Object.assign(env, { importMs: t1 - t0, initMs: t2 - t1 });
    const tf = q.get('tf') === '1' ? await tfFor(env) : null;
    const { runGroup } = await import('./groups.mjs');
    const r = await runGroup(q.get('group'), { tc, tf }, { pause, ...(quick ? { runs: 7, warmupMs: 60 } : {}) });
    env.clockStepMs = clockStep();
    r.env = env;
    return r;
  }
  if (suite === 'fused') {
    const tc = await import('/dist/index.js');
    await tc.init();
    Object.assign(env, { evaluate: typeof tc.evaluate === 'function', compile: typeof tc.compile === 'function' });
    const tf = q.get('tf') === '1' ? await tfFor(env) : null;
    const limit = q.get('limit') === '1' ? await WebAssembly.compileStreaming(fetch('/limit/fused.wasm')) : null;
    const { runFusedGroup } = await import('../fused/groups.mjs');
    const r = await runFusedGroup(q.get('group'), { tc, tf, limit }, { pause, ...(quick ? { runs: 7, warmupMs: 60 } : {}) });
    env.clockStepMs = clockStep();
    r.env = env;
    return r;
  }
  if (suite === 'views') {
    const dist = q.get('dist') || 'dist';
    if (!/^[A-Za-z0-9_-]+$/.test(dist)) throw new Error(`bad dist ${dist}`);
    const tc = await import(`/${dist}/index.js`);
    await tc.init();
    const { runViewGroup, NEEDS, USES_TF } = await import('../views/groups.mjs');
    const group = q.get('group');
    // tfjs only where the group runs (an older build skips the view groups).
    const runs = (NEEDS[group] ?? []).every((f) => typeof tc[f] === 'function');
    const tf = runs && USES_TF.has(group) && q.get('tf') === '1' ? await tfFor(env) : null;
    const limit = q.get('limit') === '1' ? await WebAssembly.compileStreaming(fetch('/limit/fused.wasm')) : null;
    const r = await runViewGroup(group, { tc, tf, where: 'chromium', limit }, { pause, ...(quick ? { runs: 5, warmupMs: 60 } : {}) });
    env.clockStepMs = clockStep();
    r.env = env;
    return r;
  }
  if (suite === 'boundary') {
    const { instantiate, runBoundary } = await import('../boundary/cases.mjs');
    const load = async (mjs, wasm) => instantiate((await import(mjs)).default, await WebAssembly.compileStreaming(fetch(wasm)));
    const de0 = await load('/boundary/measure-de0.mjs', '/boundary/measure-de0.wasm');
    const de1 = await load('/boundary/measure-de1.mjs', '/boundary/measure-de1.wasm');
    const loader = await import('/dist/loader.js'); // tensorcast's module as the library loads it (no Emscripten glue)
    await loader.init({ wasmUrl: '/dist/tensorcast.wasm' });
    const real = loader.mod();
    const r = await runBoundary({ de0, de1, real }, { pause, ...(quick ? { runs: 7, warmupMs: 40 } : {}) });
    env.clockStepMs = clockStep();
    r.env = env;
    return r;
  }
  throw new Error(`unknown suite ${suite}`);
}

main().then((r) => { window.__result = r; }, (e) => { window.__error = String(e && e.stack ? e.stack : e); });

// Wall-clock timing that runs the same in Node and in a browser page: warm-up,
// batch calibration, then interleaved runs in a rotating order, as
// bench/lib/timing.mjs does, but with `performance.now()` only (a page has no
// process CPU clock). Used by the Node/Chromium comparison (bench/browser/)
// and the embind-vs-raw measurement (bench/boundary/).
//
// A busy machine slows every case of a run alike; each group of cases carries
// a plain-JS control so that the load shows in the table.
import { median, quantile, medianRatio } from './timing.mjs';

export { median, quantile, medianRatio };

export let sink = null;

function timeBatch(fn, k, now) {
  let r = null;
  const t0 = now();
  for (let i = 0; i < k; i++) r = fn();
  const t1 = now();
  sink = r;
  return ((t1 - t0) * 1e6) / k; // ns per call
}

// The same for a case whose fn returns a promise (awaited call by call).
async function timeBatchAsync(fn, k, now) {
  let r = null;
  const t0 = now();
  for (let i = 0; i < k; i++) r = await fn();
  const t1 = now();
  sink = r;
  return ((t1 - t0) * 1e6) / k;
}

/** Warm a case up (≥ warmupMs, ≥ 10 calls) and return a batch size of about batchMs. */
async function calibrate(fn, { warmupMs, batchMs, now, isAsync }) {
  const time = isAsync ? timeBatchAsync : timeBatch;
  let k = 1;
  let spent = 0;
  let calls = 0;
  while (calls < 10 || spent < warmupMs) {
    const t0 = now();
    await time(fn, k, now);
    const ms = now() - t0;
    spent += ms;
    calls += k;
    if (ms < 2) k *= 2;
    if (calls > 5e7) break;
  }
  let per = Infinity;
  for (let i = 0; i < 3; i++) per = Math.min(per, await time(fn, k, now));
  return Math.max(1, Math.round((batchMs * 1e6) / Math.max(per, 1)));
}

/**
 * cases: [{ id, fn, async }] (async: fn returns a promise, awaited per call).
 * Returns { [id]: ns per call, one entry per run }.
 * `pause` (optional, async) runs between runs (a page yields to its event loop).
 * `cpu` (optional, Node: the process's CPU time in ms): each timed batch then
 * counts min(wall, CPU), the clock of bench/lib/timing.mjs (a batch preempted
 * by another process keeps the time it would have taken alone).
 * `shuffle` (optional): each run takes the cases in a fresh order (a fixed
 * sequence of permutations), not the list rotated. Rotation keeps every
 * case behind the same one, so a case over large data that follows one over
 * other data always starts with cold caches (40-70 µs a call on a 1M-element
 * add, measured), and the case after it always warm.
 */
export async function measureWall(cases, { runs, warmupMs, batchMs, now = () => performance.now(), pause, cpu, shuffle = false }) {
  const k = new Map();
  for (const c of cases) {
    k.set(c.id, await calibrate(c.fn, { warmupMs, batchMs, now, isAsync: !!c.async }));
    if (pause) await pause();
  }
  const out = Object.fromEntries(cases.map((c) => [c.id, []]));
  let seed = 12345;
  for (let r = 0; r < runs; r++) {
    const order = cases.map((_, j) => (j + r) % cases.length);
    if (shuffle) {
      for (let j = order.length - 1; j > 0; j--) { // Fisher-Yates over an LCG: the same orders every time
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const q = seed % (j + 1);
        [order[j], order[q]] = [order[q], order[j]];
      }
    }
    for (let j = 0; j < cases.length; j++) {
      const c = cases[order[j]];
      const kc = k.get(c.id);
      const c0 = cpu ? cpu() : 0;
      const t = c.async ? await timeBatchAsync(c.fn, kc, now) : timeBatch(c.fn, kc, now);
      out[c.id].push(cpu ? Math.min(t, ((cpu() - c0) * 1e6) / kc) : t);
    }
    if (pause) await pause();
  }
  return out;
}

/** { median, p25, p75, runs } of a list, divided by `per`. */
export function stats(xs, per = 1) {
  return { median: median(xs) / per, p25: quantile(xs, 0.25) / per, p75: quantile(xs, 0.75) / per, runs: xs.length };
}

/** The smallest step performance.now() shows here (ms): a page that is not cross-origin isolated gets a coarse clock. */
export function clockStep(now = () => performance.now()) {
  let best = Infinity;
  for (let i = 0; i < 20; i++) {
    const t0 = now();
    let t1 = now();
    while (t1 === t0) t1 = now();
    best = Math.min(best, t1 - t0);
  }
  return best;
}

// Timing: warm-up, batch calibration, interleaved runs, medians.
//
// Every case of a workload set is timed in the same process. One *run* times
// one batch of every case, in an order that rotates from run to run, so that a
// noisy neighbour slows all cases of a run alike; ratios are taken within a
// run and the table reports the median over runs of those ratios. No GC is
// forced between batches (a forced full GC resets V8's inline caches and
// distorts the per-call sets); batches are long enough that each case pays,
// in steady state, for the garbage it makes.

/** Median of numbers (NaN for an empty list). */
export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function quantile(xs, q) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const p = (s.length - 1) * q;
  const lo = Math.floor(p);
  const hi = Math.ceil(p);
  return s[lo] + (s[hi] - s[lo]) * (p - lo);
}

// Results land here so that no call can be dropped as dead code.
export let sink = null;

// Two clocks per batch: wall (process.hrtime.bigint) and the process's CPU
// time (process.cpuUsage: user + system, every thread of the process). A third
// figure, `min`, is the smaller of the two. On an idle machine it is the wall
// time (CPU time can exceed wall time when V8 scavenges in parallel or a
// library works on a helper thread); when another process preempts the batch
// on this shared machine, the CPU clock stops while the wall clock runs on, and
// the CPU time — the time the batch would have taken alone — is used.
function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

/** Time `k` calls of fn; returns { wall, cpu, min } nanoseconds per call. */
async function timeBatch(fn, isAsync, k) {
  let r = null;
  let t0;
  let c0;
  let t1;
  let c1;
  if (isAsync) {
    c0 = cpuNs();
    t0 = process.hrtime.bigint();
    for (let i = 0; i < k; i++) r = await fn();
    t1 = process.hrtime.bigint();
    c1 = cpuNs();
  } else {
    c0 = cpuNs();
    t0 = process.hrtime.bigint();
    for (let i = 0; i < k; i++) r = fn();
    t1 = process.hrtime.bigint();
    c1 = cpuNs();
  }
  sink = r;
  const wall = Number(t1 - t0) / k;
  const cpu = (c1 - c0) / k;
  return { wall, cpu, min: Math.min(wall, cpu) };
}

/**
 * Warm a case up and pick its batch size so that one batch takes about
 * `batchMs`. Returns the batch size.
 */
export async function calibrate(c, { warmupMs, batchMs }) {
  // Warm-up: at least 10 calls and at least warmupMs of calls.
  let k = 1;
  let spent = 0;
  let calls = 0;
  while (calls < 10 || spent < warmupMs * 1e6) {
    const { wall } = await timeBatch(c.fn, c.async, k);
    spent += wall * k;
    calls += k;
    if (wall * k < 2e6) k *= 2; // grow batches until each is ~2 ms
    if (calls > 5e7) break;
  }
  // Batch size: from the best of three measured batches (a preempted batch
  // would make the batches too short).
  let per = Infinity;
  for (let i = 0; i < 3; i++) per = Math.min(per, (await timeBatch(c.fn, c.async, k)).wall);
  return Math.max(1, Math.round((batchMs * 1e6) / Math.max(per, 1)));
}

/**
 * Time every case `runs` times, interleaved. cases: [{ id, fn, async }].
 * Returns { wall, cpu, min }, each { [id]: number[] } of ns per call, one
 * entry per run.
 */
export async function measure(cases, { runs, warmupMs, batchMs, onProgress }) {
  const batches = new Map();
  for (const c of cases) batches.set(c.id, await calibrate(c, { warmupMs, batchMs }));
  const lists = () => Object.fromEntries(cases.map((c) => [c.id, []]));
  const out = { wall: lists(), cpu: lists(), min: lists() };
  for (let r = 0; r < runs; r++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[(j + r) % cases.length];
      const t = await timeBatch(c.fn, c.async, batches.get(c.id));
      for (const k of ['wall', 'cpu', 'min']) out[k][c.id].push(t[k]);
    }
    if (onProgress) onProgress(r + 1, runs);
  }
  return out;
}

/** Median over runs of the per-run ratio a[r] / b[r]. */
export function medianRatio(a, b) {
  const n = Math.min(a.length, b.length);
  const rs = [];
  for (let i = 0; i < n; i++) rs.push(a[i] / b[i]);
  return median(rs);
}

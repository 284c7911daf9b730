// The per-call cases of one build, as bench/ab.mjs and bench/ab-procs.mjs time
// them (the same inputs as the `small` and `shapes` sets of npm run bench):
//   e2e       add of [3,1] and [1,4] float32 typed arrays, a fresh array out
//   resident  the same add on resident tensors into a resident `out`
//   shapes    broadcastShapes([8,1,6,1], [1,7,1,5]), the same pair every call
//   varied    8 pairs in turn: every call plans afresh
//   wasm      the raw export answering the resident call's request again (its
//             plan cached): the engine's share of a first `resident` call
//             (a repeated one is made by tc_rerun_binary: no request)
// Each case is checked once before it is returned.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const WANT = '11,21,31,41,12,22,32,42,13,23,33,43';

export async function perCallCases(dir) {
  const load = (f) => import(pathToFileURL(path.join(dir, f)).href);
  const tc = await load('node.js');
  await tc.init();
  const a = new Float32Array([1, 2, 3]);
  const b = new Float32Array([10, 20, 30, 40]);
  const sa = [3, 1];
  const sb = [1, 4];
  const none = {};
  const ta = tc.tensor(a, sa);
  const tb = tc.tensor(b, sb);
  const tout = tc.tensor(new Float32Array(12), [3, 4]);
  const opts = { out: tout };
  const pairs = Array.from({ length: 8 }, (_, k) => [[8, 1, 6 + k, 1], [1, 7, 1, 5 + k]]);
  let turn = 0;
  const cases = {
    e2e: () => tc.add({ data: a, shape: sa }, { data: b, shape: sb }, none).data,
    resident: () => tc.add(ta, tb, opts),
    shapes: () => tc.broadcastShapes([8, 1, 6, 1], [1, 7, 1, 5]),
    varied: () => { const p = pairs[turn++ & 7]; return tc.broadcastShapes(p[0], p[1]); },
  };
  if (Array.from(cases.e2e()).join() !== WANT) throw new Error(`${dir}: add is wrong`);
  cases.resident();
  if (Array.from(tout.toArray()).join() !== WANT) throw new Error(`${dir}: resident add is wrong`);
  if (cases.shapes().join() !== '8,7,6,5') throw new Error(`${dir}: broadcastShapes is wrong`);
  // wasm re-sends the request buffer's content: prepare() (called before the
  // case is warmed up and timed) makes that the resident call's request, the
  // header and two rank-2 shapes; any other call in between would replace it.
  const M = (await load('loader.js')).mod();
  const { C } = await load('contract.js');
  const raw = M._tc_call;
  const len = C.REQ_LEN + 6;
  cases.wasm = () => raw(len);
  // The resident call is made again by tc_rerun_binary (execute.js runBinary) once
  // answered: a call into another out first makes the next one send its request.
  const other = tc.tensor(new Float32Array(12), [3, 4]);
  cases.wasm.prepare = () => {
    tc.add(ta, tb, { out: other });
    cases.resident();
    if (M.HEAPF64[raw(len) >>> 3] !== 0) throw new Error(`${dir}: the resident request is not answered Ok`);
  };
  cases.wasm.prepare();
  return cases;
}

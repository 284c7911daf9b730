// Replays tests/fixtures/numpy_shapes.json — random cases whose expected
// shapes NumPy computed (tests/tools/gen_numpy_shapes.py, Debian's
// python3-numpy) — through the JS API. One test per family; a mismatch names
// the first failing case.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { numpyCorpus, numpyFamilies } from './shape-cases.js';

beforeAll(async () => { await tc.init(); });

const corpus = numpyCorpus;
const FAMILIES = numpyFamilies(tc);

function outcome(call, c) {
  try {
    return { out: call(c) };
  } catch (e) {
    if (!(e instanceof tc.BroadcastError)) throw e;
    return { error: e.code, message: e.message };
  }
}

describe(`NumPy ${corpus.numpy_version} corpus`, () => {
  for (const [family, call] of Object.entries(FAMILIES)) {
    const cases = corpus[family];
    it(`${family}: ${cases.length} cases`, () => {
      expect(cases.length).toBeGreaterThanOrEqual(500);
      expect(cases.some((c) => 'error' in c)).toBe(true);
      expect(cases.some((c) => 'out' in c)).toBe(true);
      let checked = 0;
      for (let i = 0; i < cases.length; i++) {
        const c = cases[i];
        const got = outcome(call, c);
        const want = 'error' in c ? { error: c.error } : { out: c.out };
        const same = 'error' in c ? got.error === c.error : JSON.stringify(got.out) === JSON.stringify(c.out);
        if (!same) {
          expect.fail(`${family} case ${i} ${JSON.stringify(c)}: NumPy says ${JSON.stringify(want)}, tensorcast ${JSON.stringify(got)}`);
        }
        checked++;
      }
      expect(checked).toBe(cases.length);
    });
  }
});

// The expression cache keeps no tensor alive (issue 37, item 8). A compiled
// expression (cached by its text, or held by the caller from compile()) and
// the one-op expression of a large element-wise call (expr-large.js) remember
// their last run's inputs to send the same key again; a resident operand must
// not stay reachable from there, or the FinalizationRegistry never frees a
// tensor dropped without dispose().
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';

describe('the expression cache and collected tensors', () => {
  it('a tensor used once by evaluate, compile().run or a large op, then dropped, is collected and its memory freed', () => {
    const script = `
      const tc = await import(${JSON.stringify(new URL('../../dist/node.js', import.meta.url).href)});
      await tc.init();
      const settle = async (cond) => { for (let i = 0; i < 100 && !cond(); i++) { gc(); await new Promise((r) => setTimeout(r, 5)); } };
      const m0 = tc.memory();
      const d = () => [tc.memory().liveTensors - m0.liveTensors, tc.memory().allocatedBytes - m0.allocatedBytes];
      const N = 1 << 20; // 4 MiB of float32
      const out = {};
      const compiled = tc.compile('x * y - 1'); // held: the compiled expression outlives its operands
      const row = { data: new Float32Array(1024).fill(3), shape: [1024] };
      const paths = {
        // a resident result, dropped with its operand
        evaluate: () => tc.evaluate('x * 2 + 1', { x: tc.tensor(new Float32Array(N).fill(1), [1024, 1024]) }),
        evaluateOut: () => tc.evaluate('x - y', { x: tc.tensor(new Float32Array(N), [1024, 1024]), y: row }, { out: new Float32Array(N) }),
        compileRun: () => compiled.run({ x: tc.tensor(new Float32Array(N), [1024, 1024]), y: row }, { out: new Float32Array(N) }),
        compileRunTwice: () => {
          const t = tc.tensor(new Float32Array(N), [1024, 1024]);
          compiled.run({ x: t, y: 2 }, { out: new Float32Array(N) });
          return compiled.run({ x: t, y: 2 }, { out: new Float32Array(N) });
        },
        // 1 MiB or more: run as the one-op expression of add, neg, cast and where (expr-large.js)
        largeAdd: () => tc.add(tc.tensor(new Float32Array(N), [1024, 1024]), row, { out: new Float32Array(N) }),
        largeNeg: () => tc.neg(tc.tensor(new Float32Array(N), [1024, 1024]), { out: new Float32Array(N) }),
        largeCast: () => tc.cast(tc.tensor(new Float32Array(N), [1024, 1024]), 'float64', { out: new Float64Array(N) }),
        largeWhere: () => tc.where({ data: new Uint8Array(1024), shape: [1024] }, tc.tensor(new Float32Array(N), [1024, 1024]), row, { out: new Float32Array(N) }),
      };
      for (const [name, run] of Object.entries(paths)) {
        out[name + 'Shape'] = run().shape; // the result (a Tensor for the first) dropped too
        await settle(() => d()[0] === 0 && d()[1] === 0);
        out[name] = d();
      }
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toBe('');
    const got = JSON.parse(r.stdout);
    const shape = [1024, 1024];
    expect(got).toEqual({
      evaluate: [0, 0], evaluateShape: shape,
      evaluateOut: [0, 0], evaluateOutShape: shape,
      compileRun: [0, 0], compileRunShape: shape,
      compileRunTwice: [0, 0], compileRunTwiceShape: shape,
      largeAdd: [0, 0], largeAddShape: shape,
      largeNeg: [0, 0], largeNegShape: shape,
      largeCast: [0, 0], largeCastShape: shape,
      largeWhere: [0, 0], largeWhereShape: shape,
    });
  });
});

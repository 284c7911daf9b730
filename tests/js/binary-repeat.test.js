// An element-wise call made again with the same request: runBinary sends it as
// tc_rerun_binary (the cached plan, no request written or read). Every call must
// give what a first call gives, whatever came before it: the same buffers with
// new contents, other shapes over the same scratch, other dtypes, rules, outs
// and ops, more shapes than the plan cache holds, refusals and disposed tensors.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { mod } from '../../dist/loader.js';

beforeAll(async () => { await tc.init(); });

const data = (r) => Array.from(r instanceof tc.Tensor ? r.toArray() : r.data);
/** a (shape sa) + b (shape sb) with NumPy broadcasting, in plain JS (float64, then `round`). */
function plainAdd(a, sa, b, sb, round = Math.fround) {
  const r = Math.max(sa.length, sb.length);
  const pa = [...Array(r - sa.length).fill(1), ...sa];
  const pb = [...Array(r - sb.length).fill(1), ...sb];
  const so = pa.map((d, i) => Math.max(d, pb[i]));
  const n = so.reduce((p, d) => p * d, 1);
  const out = [];
  for (let i = 0; i < n; i++) {
    let rem = i;
    let ia = 0;
    let ib = 0;
    let sta = 1;
    let stb = 1;
    for (let ax = r - 1; ax >= 0; ax--) {
      const c = rem % so[ax];
      rem = Math.floor(rem / so[ax]);
      if (pa[ax] !== 1) ia += c * sta;
      if (pb[ax] !== 1) ib += c * stb;
      sta *= pa[ax];
      stb *= pb[ax];
    }
    out.push(round(a[ia] + b[ib]));
  }
  return out;
}
const seq = (n, k) => Float32Array.from({ length: n }, (_, i) => ((i * k) % 17) - 8);

describe('an element-wise call made again', () => {
  it('reads new contents of the same resident tensors, and writes the same out', () => {
    const a = tc.tensor(seq(3, 1), [3, 1]);
    const b = tc.tensor(seq(4, 3), [1, 4]);
    const out = tc.tensor(new Float32Array(12), [3, 4]);
    try {
      for (let i = 0; i < 6; i++) {
        const va = seq(3, i + 2);
        const vb = seq(4, 2 * i + 1);
        tc.mul({ data: va, shape: [3, 1] }, 1, { out: a });
        tc.mul({ data: vb, shape: [1, 4] }, 1, { out: b });
        expect(tc.add(a, b, { out })).toBe(out);
        expect(data(out)).toEqual(plainAdd(va, [3, 1], vb, [1, 4]));
      }
    } finally {
      a.dispose();
      b.dispose();
      out.dispose();
    }
  });

  it('tells apart requests over the same scratch: shapes, dtypes, rules and ops', () => {
    const x = seq(4, 5);
    const y = seq(4, 7);
    for (let i = 0; i < 4; i++) {
      // The same sizes, the same scratch slots: [4,1] + [1,4] and [1,4] + [4,1] differ only by shape.
      expect(data(tc.add({ data: x, shape: [4, 1] }, { data: y, shape: [1, 4] }))).toEqual(plainAdd(x, [4, 1], y, [1, 4]));
      expect(data(tc.add({ data: x, shape: [1, 4] }, { data: y, shape: [4, 1] }))).toEqual(plainAdd(x, [1, 4], y, [4, 1]));
      // Another dtype of the same element size.
      const xi = Int32Array.from(x);
      const yi = Int32Array.from(y);
      expect(data(tc.add({ data: xi, shape: [4, 1] }, { data: yi, shape: [1, 4] }))).toEqual(plainAdd(xi, [4, 1], yi, [1, 4], (v) => v | 0));
      // Another op on the same request.
      expect(data(tc.sub({ data: x, shape: [4, 1] }, { data: y, shape: [1, 4] })))
        .toEqual(plainAdd(x, [4, 1], Float32Array.from(y, (v) => -v), [1, 4]));
      // Another rule: pdpd aligns B at axis 0.
      const p = tc.add({ data: x, shape: [4, 1] }, { data: y, shape: [4] }, { broadcast: { type: 'pdpd', axis: 0 } });
      expect(p.shape).toEqual([4, 1]);
      expect(data(p)).toEqual(Array.from(x, (v, k) => Math.fround(v + y[k])));
      expect(data(tc.add({ data: x, shape: [4, 1] }, { data: y, shape: [4] }))).toEqual(plainAdd(x, [4, 1], y, [4]));
    }
  });

  it('stays right when more shapes pass than the plan cache holds', () => {
    const shapes = [[[2, 3], [3]], [[3, 1], [1, 2]], [[5], [1]], [[2, 2, 2], [2, 1]], [[6, 1], [6]], [[1, 7], [7, 1]]];
    for (let round = 0; round < 3; round++) {
      for (const [sa, sb] of shapes) {
        const na = sa.reduce((p, d) => p * d, 1);
        const nb = sb.reduce((p, d) => p * d, 1);
        const a = seq(na, round + 3);
        const b = seq(nb, round + 5);
        for (let i = 0; i < 2; i++) expect(data(tc.add({ data: a, shape: sa }, { data: b, shape: sb }))).toEqual(plainAdd(a, sa, b, sb));
      }
    }
  });

  it('refuses what a first call refuses', () => {
    const a = { data: seq(3, 1), shape: [3, 1] };
    const b = { data: seq(4, 1), shape: [1, 4] };
    const o = new Float32Array(12);
    tc.add(a, b, { out: o });
    tc.add(a, b, { out: o });
    expect(() => tc.add(a, b, { out: new Float32Array(11) })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    expect(() => tc.add(a, b, { out: new Float32Array(12 + 1) })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    const ta = tc.tensor(seq(3, 2), [3, 1]);
    const out = tc.tensor(new Float32Array(12), [3, 4]);
    tc.add(ta, b, { out });
    tc.add(ta, b, { out });
    expect(data(out)).toEqual(plainAdd(seq(3, 2), [3, 1], seq(4, 1), [1, 4]));
    ta.dispose();
    expect(() => tc.add(ta, b, { out })).toThrow(/disposed/);
    // In place where it is safe (out is operand a, read as it is written), again and again.
    const x = tc.tensor(new Float32Array(12).fill(1), [3, 4]);
    try {
      for (let i = 0; i < 3; i++) tc.add(x, b, { out: x });
      expect(data(x)).toEqual(Array.from({ length: 12 }, (_, k) => 1 + 3 * seq(4, 1)[k % 4]));
      // Broadcast in place is refused, also after the same call went through into another out.
      const y = tc.tensor(seq(4, 1), [1, 4]);
      try {
        tc.add(x, y, { out });
        expect(() => tc.add(x, y, { out: y })).toThrow();
      } finally {
        y.dispose();
      }
    } finally {
      x.dispose();
      out.dispose();
    }
  });

  it('is answered by the engine only for the plan it still holds', () => {
    const M = mod();
    // No plan: refused; a dtype or op out of range: refused (nothing runs).
    expect(M._tc_rerun_binary(-1, 0, 0, 0, 0, 0, 0)).toBe(1);
    expect(M._tc_rerun_binary(9, 0, 0, 0, 0, 0, 0)).toBe(1);
    expect(M._tc_rerun_binary(0, 1e300, 0, 0, 0, 0, 0)).toBe(1);
    expect(M._tc_rerun_binary(0, 1, 99, 0, 0, 0, 0)).toBe(1);
    expect(M._tc_rerun_binary(0, 1, 0, 99, 0, 0, 0)).toBe(1);
  });
});

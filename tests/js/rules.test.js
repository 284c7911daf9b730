// The shape API: one block per rule family of the spec, plus the error
// contract (codes, axis, dims, messages), argument checking and explain().
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

function caught(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a throw');
}

describe('init', () => {
  it('is idempotent and returns the same promise', async () => {
    const p1 = tc.init();
    const p2 = tc.init();
    expect(p1).toBe(p2);
    await p1;
    expect(tc.isReady()).toBe(true);
  });
});

describe('§1 numpy', () => {
  it.each([
    [[[2, 1, 6], [3, 1]], [2, 3, 6]],
    [[[8, 1, 6, 1], [7, 1, 5]], [8, 7, 6, 5]],
    [[[1, 0], [0, 1]], [0, 0]],
    [[[], [2, 3]], [2, 3]],
    [[[5], [1, 1, 1], [4, 1]], [1, 4, 5]],
    [[[1e12, 1e12], [1]], [1e12, 1e12]],
    [[[2 ** 53 - 1], [1]], [2 ** 53 - 1]],
  ])('%j -> %j', (shapes, out) => {
    expect(tc.broadcastShapes(...shapes)).toEqual(out);
  });
  it('no operands gives a scalar', () => expect(tc.broadcastShapes()).toEqual([]));
  it('returns plain number arrays', () => {
    const r = tc.broadcastShapes(Int32Array.from([2, 1]), [3]);
    expect(Array.isArray(r)).toBe(true);
    expect(r).toEqual([2, 3]);
  });
  it('reports the clashing axis and dims', () => {
    const e = caught(() => tc.broadcastShapes([3], [4]));
    expect(e).toBeInstanceOf(tc.BroadcastError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('BroadcastError');
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.axis).toBe(0);
    expect(e.dims).toEqual([3, 4]);
    expect(e.shapes).toEqual([[3], [4]]);
    expect(e.message).toBe('operands could not be broadcast together with shapes (3,) (4,): axis 0 has 3 vs 4');
  });
  it('0 against 5 is a clash, 0 against 1 is not', () => {
    expect(caught(() => tc.broadcastShapes([0], [5])).code).toBe('INCOMPATIBLE_DIMS');
    expect(tc.broadcastShapes([0], [1])).toEqual([0]);
  });
  it('names the operands when there are more than two', () => {
    const e = caught(() => tc.broadcastShapes([1, 2], [3, 1], [3, 2], [10, 5]));
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.message).toMatch(/axis \d has \d+ vs \d+ \([A-D] vs [A-D]\)/);
  });
});

describe('§2 none', () => {
  it('identical shapes pass', () => expect(tc.autoBroadcastShape([2, 3], [2, 3], { type: 'none' })).toEqual([2, 3]));
  it('no rank padding', () => {
    const e = caught(() => tc.autoBroadcastShape([2, 4], [1, 2, 4], { type: 'none' }));
    expect(e.code).toBe('SHAPE_MISMATCH');
  });
  it('a 1 is not a wildcard', () => {
    const e = caught(() => tc.autoBroadcastShape([2, 1], [2, 3], { type: 'none' }));
    expect(e.code).toBe('SHAPE_MISMATCH');
    expect(e.axis).toBe(1);
    expect(e.dims).toEqual([1, 3]);
  });
  it('dynamic dims merge (intersection); an unknown rank takes the other shape, which it must equal (docs §2)', () => {
    expect(tc.autoBroadcastShape(['2..5', '?', 3], ['4..8', 4, '?'], { type: 'none' })).toEqual(['4..5', 4, 3]);
    expect(caught(() => tc.autoBroadcastShape(['2..3'], ['4..8'], { type: 'none' })).code).toBe('SHAPE_MISMATCH');
    expect(tc.autoBroadcastShape('[...]', [5, '1..'], { type: 'none' })).toEqual([5, '1..']);
    expect(tc.autoBroadcastShape([5, '1..'], '[...]', { type: 'none' })).toEqual([5, '1..']);
    expect(tc.autoBroadcastShape('[...]', '[...]', { type: 'none' })).toBe('[...]');
  });
});

describe('§3 pdpd', () => {
  it.each([
    [[2, 3, 4, 5], [3, 1], 1, [2, 3, 4, 5]],
    [[2, 3, 4, 5], [4, 5], undefined, [2, 3, 4, 5]],
    [[2, 3, 4, 5], [], undefined, [2, 3, 4, 5]],
    [[2, 3], [3, 1, 1], 1, [2, 3]], // trailing 1s trimmed: accepted (OpenVINO's inference rejects)
    [[2, 0, 4], [1], 1, [2, 0, 4]], // B's 1 stretches to 0
  ])('A %j B %j axis %j -> %j', (a, b, axis, out) => {
    expect(tc.autoBroadcastShape(a, b, { type: 'pdpd', axis })).toEqual(out);
  });
  it('B may never enlarge A', () => {
    const e = caught(() => tc.autoBroadcastShape([2, 1], [0], { type: 'pdpd', axis: 1 }));
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.axis).toBe(1);
    expect(e.dims).toEqual([1, 0]);
  });
  it('the spec example fails', () => {
    expect(caught(() => tc.autoBroadcastShape([8, 1, 6, 1], [7, 1, 5], { type: 'pdpd', axis: 1 })).code).toBe('INCOMPATIBLE_DIMS');
  });
  it('the default axis is computed before trimming', () => {
    // rank(A) - rank(B) = 3 - 3 = 0, B trimmed to [3]: A[0] = 2 vs 3 -> error at axis 0
    const e = caught(() => tc.autoBroadcastShape([2, 3, 4], [3, 1, 1], { type: 'pdpd' }));
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.axis).toBe(0);
    expect(tc.autoBroadcastShape([3, 3, 4], [3, 1, 1], { type: 'pdpd' })).toEqual([3, 3, 4]);
  });
  it('B out-ranking A with the default axis', () => {
    expect(caught(() => tc.autoBroadcastShape([3], [2, 3], { type: 'pdpd' })).code).toBe('RANK_MISMATCH');
  });
  it.each([-2, 5])('axis %i is out of range', (axis) => {
    expect(caught(() => tc.autoBroadcastShape([2, 3, 4, 5], [3, 1], { type: 'pdpd', axis })).code).toBe('INVALID_AXIS');
  });
  it('non-integer axis', () => {
    expect(caught(() => tc.autoBroadcastShape([2, 3], [3], { type: 'pdpd', axis: 0.5 })).code).toBe('INVALID_AXIS');
    expect(caught(() => tc.autoBroadcastShape([2, 3], [3], { type: 'pdpd', axis: '1' }))).toBeInstanceOf(TypeError);
  });
});

describe('§4 broadcastToShape', () => {
  it('numpy: exactly the target', () => {
    expect(tc.broadcastToShape([3, 1], [2, 3, 6])).toEqual([2, 3, 6]);
    expect(tc.broadcastToShape([1], [0])).toEqual([0]);
    expect(tc.broadcastToShape([], [0])).toEqual([0]); // MindSpore's code rejects; its docs, NumPy, torch accept
  });
  it('numpy: 0 -> 1 and 3 -> 1 fail; lower target rank fails', () => {
    expect(caught(() => tc.broadcastToShape([0], [1])).code).toBe('INCOMPATIBLE_DIMS');
    expect(caught(() => tc.broadcastToShape([3], [1])).code).toBe('INCOMPATIBLE_DIMS');
    expect(caught(() => tc.broadcastToShape([3], [])).code).toBe('RANK_MISMATCH');
  });
  it('explicit', () => {
    expect(tc.broadcastToShape([16], [1, 16, 50, 50], { mode: 'explicit', axesMapping: [1] })).toEqual([1, 16, 50, 50]);
    expect(tc.broadcastToShape([3, 1], [2, 3, 3], { mode: 'explicit', axesMapping: [1, 2] })).toEqual([2, 3, 3]);
    expect(tc.broadcastToShape([], [2, 3], { mode: 'explicit', axesMapping: [] })).toEqual([2, 3]);
    expect(tc.broadcastToShape([], [1, 2], { mode: 'explicit', axesMapping: [0] })).toEqual([1, 2]);
  });
  it.each([
    [[3, 4], [3, 4, 5], [1, 1], 'duplicate'],
    [[3, 4], [4, 3, 5], [1, 0], 'unsorted'],
    [[3, 4], [3, 4], [0, 2], 'out of range'],
    [[3, 4], [3, 4], [0], 'wrong length'],
    [[3, 4], [3, 4], [0, -1], 'negative'],
    [[3, 4], [3, 4], [0, 1.5], 'fractional'],
  ])('explicit %j -> %j mapping %j (%s) is INVALID_AXES_MAPPING', (input, target, axesMapping) => {
    expect(caught(() => tc.broadcastToShape(input, target, { mode: 'explicit', axesMapping })).code).toBe('INVALID_AXES_MAPPING');
  });
  it('explicit without a mapping is a TypeError', () => {
    expect(caught(() => tc.broadcastToShape([3], [3], { mode: 'explicit' }))).toBeInstanceOf(TypeError);
  });
  it('bidirectional', () => {
    expect(tc.broadcastToShape([3, 1], [2, 1, 6], { mode: 'bidirectional' })).toEqual([2, 3, 6]);
    expect(tc.broadcastToShape([1, 3, 1], [3, 1], { mode: 'bidirectional' })).toEqual([1, 3, 1]);
    const e = caught(() => tc.broadcastToShape([4, 3, 2], [8, 6, 4], { mode: 'bidirectional' }));
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.axis).toBe(2);
    expect(e.dims).toEqual([2, 4]);
  });
  it('pdpd', () => {
    expect(tc.broadcastToShape([3, 1], [2, 3, 6], { mode: 'pdpd', axis: 1 })).toEqual([2, 3, 6]);
    expect(tc.broadcastToShape([3, 6], [2, 1, 1], { mode: 'pdpd' })).toEqual([2, 3, 6]);
    expect(caught(() => tc.broadcastToShape([3, 1, 1], [2, 3], { mode: 'pdpd' })).code).toBe('RANK_MISMATCH');
  });
});

describe('§5 -1 targets', () => {
  it.each([
    [[2, 1], [-1, 2], [2, 2]],
    [[3, 1, 5, 1], [-1, -1, 5, 6], [3, 1, 5, 6]],
    [[1, 8, 1], [4, -1, 5], [4, 8, 5]],
    [[1], [-1], [1]],
  ])('%j to %j -> %j', (input, target, out) => {
    expect(tc.broadcastToShape(input, target)).toEqual(out);
  });
  it('-1 in a new axis', () => {
    const e = caught(() => tc.broadcastToShape([1, 5, 9], [3, -1, 4, 1, 5, 9]));
    expect(e.code).toBe('MINUS_ONE_IN_NEW_AXIS');
    expect(e.axis).toBe(1);
  });
  it('-1 is only a target notation', () => {
    expect(caught(() => tc.broadcastToShape([-1], [3])).code).toBe('INVALID_SHAPE');
    expect(caught(() => tc.broadcastToShape([3], [-1], { mode: 'bidirectional' })).code).toBe('INVALID_SHAPE');
    expect(caught(() => tc.broadcastToShape([3], [-2])).code).toBe('INVALID_SHAPE');
  });
});

describe('§6 named dims', () => {
  it('missing dims are inserted, left order then right new', () => {
    expect(tc.namedBroadcastShape({ dims: ['x'], shape: [2] }, { dims: ['y'], shape: [3] })).toEqual({ dims: ['x', 'y'], shape: [2, 3] });
    expect(tc.namedBroadcastShape({ dims: ['b', 'c'], shape: [2, 3] }, { dims: ['c', 'a', 'b'], shape: [3, 4, 2] })).toEqual({ dims: ['b', 'c', 'a'], shape: [2, 3, 4] });
  });
  it('a shared size-1 dim is never stretched', () => {
    const e = caught(() => tc.namedBroadcastShape({ dims: ['x'], shape: [1] }, { dims: ['x'], shape: [3] }));
    expect(e.code).toBe('INCOMPATIBLE_DIMS');
    expect(e.axis).toBe(0);
    expect(e.dims).toEqual([1, 3]);
  });
  it('labels: intersection by default, exact on request, union', () => {
    const X = { dims: ['X'], coords: { X: ['x1', 'x2', 'x3'] } };
    const Y = { dims: ['X'], coords: { X: ['x3', 'x1', 'x9'] } };
    expect(tc.namedBroadcastShape(X, Y)).toEqual({ dims: ['X'], shape: [2], coords: { X: ['x1', 'x3'] } });
    expect(caught(() => tc.namedBroadcastShape(X, Y, { shaping: 'exact' })).code).toBe('INCOMPATIBLE_DIMS');
    expect(tc.namedBroadcastShape(X, Y, { shaping: 'union' })).toEqual({ dims: ['X'], shape: [4], coords: { X: ['x1', 'x2', 'x3', 'x9'] } });
  });
  it('an empty intersection is size 0, not an error', () => {
    expect(tc.namedBroadcastShape({ dims: ['t'], coords: { t: [1, 2] } }, { dims: ['t'], coords: { t: [3] } }).shape).toEqual([0]);
  });
  it('labels 1 and "1" are different coordinates', () => {
    expect(tc.namedBroadcastShape({ dims: ['t'], coords: { t: [1] } }, { dims: ['t'], coords: { t: ['1'] } }).shape).toEqual([0]);
  });
  it('scalars broadcast against anything', () => {
    expect(tc.namedBroadcastShape({ dims: [], shape: [] }, { dims: ['k'], shape: [5] })).toEqual({ dims: ['k'], shape: [5] });
  });
  it('duplicate dim names are invalid', () => {
    expect(caught(() => tc.namedBroadcastShape({ dims: ['x', 'x'], shape: [2, 2] }, { dims: [], shape: [] })).code).toBe('INVALID_SHAPE');
  });
  it('dims and shape must agree', () => {
    expect(caught(() => tc.namedBroadcastShape({ dims: ['x'], shape: [2, 2] }, { dims: [], shape: [] })).code).toBe('INVALID_SHAPE');
    expect(caught(() => tc.namedBroadcastShape({ dims: ['x'], shape: [2], coords: { x: ['a'] } }, { dims: [] })).code).toBe('INVALID_SHAPE');
  });
});

describe('§7 partial shapes', () => {
  it('intervals merge like OpenVINO', () => {
    expect(tc.broadcastShapes(['?', 4, 1, 6, '1..6', '2..6'], ['?', 1, 5, 6, '5..8', '5..8'])).toEqual(['?', 4, 5, 6, '5..8', '5..6']);
    expect(tc.broadcastShapes([2, '3..5', '?', '..5', '6..'], [2, '3..4', 8])).toEqual([2, '3..5', 2, '3..4', 8]);
  });
  it('unknown rank in gives unknown rank out', () => {
    expect(tc.broadcastShapes('[...]', [3, 2, 4])).toBe('[...]');
    expect(tc.broadcastToShape([2, 4], '[...]', { mode: 'bidirectional' })).toBe('[...]');
  });
  it('unknown rank does not hide a clash among the shapes of known rank (until 0.9.18 any \'[...]\' made it "[...]")', () => {
    for (const [shapes, axis] of [[[[3], [4], '[...]'], 0], [['[...]', [2, 3], [4, 3]], 0], [[[5, 1], '[...]', [7, 2, 3]], 1]]) {
      const e = caught(() => tc.broadcastShapes(...shapes));
      expect(e.code).toBe('INCOMPATIBLE_DIMS');
      expect(e.axis).toBe(axis); // counted as the shapes of known rank align
      expect(tc.explain({ rule: 'numpy', shapes }).ok).toBe(false);
      expect(tc.explain({ rule: 'numpy', shapes }).error.code).toBe('INCOMPATIBLE_DIMS');
    }
    expect(caught(() => tc.broadcastShapes([3], [4], '[...]')).dims).toEqual([3, 4]);
    expect(tc.broadcastShapes('[...]', [2, 3], [1, 3], ['?', '2..4'])).toBe('[...]');
  });
  it('PDPD: an axis below -1 is refused whatever the rank (until 0.9.18 an unknown rank let it through)', () => {
    expect(caught(() => tc.autoBroadcastShape('[...]', [3], { type: 'pdpd', axis: -2 })).code).toBe('INVALID_AXIS');
    expect(caught(() => tc.broadcastToShape([3], '[...]', { mode: 'pdpd', axis: -5 })).code).toBe('INVALID_AXIS');
    expect(tc.autoBroadcastShape('[...]', [3], { type: 'pdpd', axis: 4 })).toBe('[...]');
    expect(tc.broadcastToShape([3], '[...]', { mode: 'pdpd', axis: -1 })).toBe('[...]');
  });
  it('a static mismatch under dynamic dims still fails', () => {
    expect(caught(() => tc.broadcastShapes([1, 2, '?'], [1, 3, 3])).code).toBe('INCOMPATIBLE_DIMS');
  });
  it('explicit: an input dim that can be neither 1 nor the target\'s is refused, as OpenVINO refuses it (until 0.9.16 only static dims were compared)', () => {
    const ex = (input, target, axesMapping) => tc.broadcastToShape(input, target, { mode: 'explicit', axesMapping });
    for (const [input, target, axesMapping, axis] of [[[2], ['3..5'], [0], 0], [['4..'], [1], [0], 0], [[16], [1, '17..20', 50], [1], 1], [[0], ['1..3'], [0], 0]]) {
      const e = caught(() => ex(input, target, axesMapping));
      expect(e.code).toBe('INCOMPATIBLE_DIMS');
      expect(e.axis).toBe(axis);
      expect(e.operands).toEqual([0, -1]);
      expect(tc.explain(input, target, { mode: 'explicit', axesMapping }).ok).toBe(false);
      expect(caught(() => tc.reductionAxes(input, target, { mode: 'explicit', axesMapping })).code).toBe('INCOMPATIBLE_DIMS');
    }
    expect(ex(['2..4'], ['3..5'], [0])).toEqual(['3..5']); // they may meet
    expect(ex(['..4'], [7], [0])).toEqual([7]); // it may be 1
    expect(ex(['?'], [7], [0])).toEqual([7]);
    expect(ex([3], ['?'], [0])).toEqual(['?']);
  });
  it('an interval collapsing to one value prints as a number', () => {
    expect(tc.broadcastShapes(['4..4'])).toEqual([4]);
  });
});

describe('argument checking', () => {
  it.each([
    ['a string', 'abc'], ['null', null], ['undefined', undefined], ['an object', { length: 2 }], ['a number', 3],
  ])('a shape that is %s is a TypeError', (_, s) => {
    expect(caught(() => tc.broadcastShapes(s))).toBeInstanceOf(TypeError);
  });
  it.each([
    [-1], [1.5], [NaN], [Infinity], ['abc'], [2 ** 53], [null], [3n], ['5..2'],
  ])('dim %s is INVALID_SHAPE', (d) => {
    const e = caught(() => tc.broadcastShapes([2, d]));
    expect(e.code).toBe('INVALID_SHAPE');
    expect(e.axis).toBe(1);
  });
  it('more than 32 dims is INVALID_SHAPE, 32 is fine', () => {
    expect(caught(() => tc.broadcastShapes(new Array(33).fill(1))).code).toBe('INVALID_SHAPE');
    expect(tc.broadcastShapes(new Array(32).fill(1))).toEqual(new Array(32).fill(1));
  });
  it('unknown rule names are TypeErrors', () => {
    expect(caught(() => tc.autoBroadcastShape([1], [1], { type: 'numpyy' }))).toBeInstanceOf(TypeError);
    expect(caught(() => tc.broadcastToShape([1], [1], { mode: 'expand' }))).toBeInstanceOf(TypeError);
    expect(caught(() => tc.namedBroadcastShape({ dims: [] }, { dims: [] }, { shaping: 'outer' }))).toBeInstanceOf(TypeError);
  });
  it('an unknown rule, mode or shaping that is an object is named as one, never [object Object] (nor a crash on a null prototype)', () => {
    const bare = Object.create(null);
    expect(() => tc.broadcastToShape([2], [2], { mode: {} })).toThrow(/mode must be 'numpy', 'explicit', 'bidirectional' or 'pdpd', got an object$/);
    expect(() => tc.broadcastToShape([2], [2], { mode: bare })).toThrow(/mode must be .* got an object$/);
    expect(() => tc.autoBroadcastShape([2], [2], { type: ['pdpd'] })).toThrow(/type must be 'numpy', 'none' or 'pdpd', got an array$/);
    expect(() => tc.namedBroadcastShape({ dims: [] }, { dims: [] }, { shaping: bare })).toThrow(/shaping must be .* got an object$/);
    expect(() => tc.broadcastTo({ data: new Float32Array(2) }, [2], { mode: 5n })).toThrow(/got 5n$/);
    expect(tc.explain({ rule: bare, shapes: [[2], [2]] }).error.message).toBe("explain: unknown rule an object; use 'numpy', 'none', 'pdpd', 'broadcastTo' or 'named'");
    expect(tc.explain({ rule: 'broadcastTo', shapes: [[2], [2]], mode: {} }).error.message).toMatch(/got an object$/);
  });
  it('many operands (more than fit the initial scratch)', () => {
    const shapes = Array.from({ length: 400 }, (_, i) => (i % 2 ? [1, 2] : [3, 1].concat([]).slice(0, 2)));
    expect(tc.broadcastShapes(...shapes)).toEqual([3, 2]);
  });
  it('the engine stays usable after every kind of failure', () => {
    const bad = [
      () => tc.broadcastShapes([3], [4]), () => tc.broadcastShapes([NaN]), () => tc.broadcastShapes(null),
      () => tc.broadcastToShape([1, 5], [-1, 3, 5]), () => tc.autoBroadcastShape([1], [2], { type: 'none' }),
      () => tc.broadcastToShape([2], [2], { mode: 'explicit', axesMapping: [5] }),
    ];
    for (let i = 0; i < 200; i++) for (const f of bad) expect(() => f()).toThrow();
    expect(tc.broadcastShapes([8, 1, 6, 1], [7, 1, 5])).toEqual([8, 7, 6, 5]);
  });
});

describe('explain', () => {
  it('pdpd plan: alignment, strides with 0 where stretched, verdicts, merged loop', () => {
    const p = tc.explain({ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 });
    expect(p.ok).toBe(true);
    expect(p.shape).toEqual([2, 3, 4, 5]);
    const [A, B] = p.operands;
    expect(A.strides).toEqual([60, 20, 5, 1]);
    expect(B.srcAxis).toEqual([null, 0, 1, null]);
    expect(B.strides).toEqual([0, 1, 0, 0]);
    expect(B.verdicts).toEqual(['new', 'equal', 'stretched', 'new']);
    expect(p.axes.map((a) => a.negative)).toEqual([-4, -3, -2, -1]);
    expect(p.loop.shape).toEqual([2, 3, 20]);
    expect(p.loop.strides).toEqual([[60, 20, 1], [0, 1, 0]]);
  });
  it('dropped: the axes the rule drops before aligning, from the engine (PDPD trims B\'s trailing 1s)', () => {
    const q = tc.explain({ rule: 'pdpd', shapes: [[2, 3, 4, 5], [3, 1]], axis: 1 });
    expect(q.operands[1].dropped).toEqual([1]);
    expect(q.operands[1].srcAxis).toEqual([null, 0, 1, null]); // a dropped 1 inside A is still mapped (stretched)
    expect(q.operands[0].dropped).toEqual([]);
    expect(tc.explain({ rule: 'broadcastTo', mode: 'pdpd', axis: 1, shapes: [[3, 1], [2, 3, 4, 5]] }).operands[0].dropped).toEqual([]); // the op's pdpd mode trims nothing
    const p = tc.explain({ rule: 'pdpd', shapes: [[2, 3], [3, 1, 1]], axis: 1 });
    expect(p.ok).toBe(true);
    expect(p.operands[1].dropped).toEqual([1, 2]);
    const f = tc.explain({ rule: 'pdpd', shapes: [[2, 3], [4, 1, 1]], axis: 1 });
    expect(f.ok).toBe(false);
    expect(f.operands[1].dropped).toEqual([1, 2]); // a refused plan that placed B says so too
    expect(tc.explain({ shapes: [[2, 1], [3]] }).operands.map((o) => o.dropped)).toEqual([[], []]);
  });
  it('row broadcast merges to one contiguous inner loop', () => {
    const p = tc.explain({ shapes: [[1024, 1024], [1024]] });
    expect(p.loop).toEqual({ shape: [1024, 1024], strides: [[1024, 1], [0, 1]], inner: 'contiguous' });
    expect(tc.explain({ shapes: [[6, 7], [6, 7]] }).loop.shape).toEqual([42]);
    expect(tc.explain({ shapes: [[1024, 1024], [1024, 1]] }).loop.inner).toBe('second-scalar');
  });
  it('a failure keeps the alignment and marks the clash', () => {
    const p = tc.explain({ rule: 'numpy', shapes: [[8, 1, 6, 1], [7, 2, 5]] });
    expect(p.ok).toBe(false);
    expect(p.error.code).toBe('INCOMPATIBLE_DIMS');
    expect(p.error.axis).toBe(2);
    expect(p.operands[1].verdicts[2]).toBe('clash');
    expect(p.loop).toBe(null);
  });
  it('broadcastTo and named', () => {
    const p = tc.explain({ rule: 'broadcastTo', mode: 'explicit', shapes: [[16], [1, 16, 50, 50]], axesMapping: [1] });
    expect(p.ok).toBe(true);
    expect(p.operands[0].verdicts).toEqual(['new', 'equal', 'new', 'new']);
    const n = tc.explain({ rule: 'named', operands: [{ dims: ['x'], shape: [2] }, { dims: ['y', 'x'], shape: [3, 2] }] });
    expect(n.ok).toBe(true);
    expect(n.named).toEqual({ dims: ['x', 'y'], shape: [2, 3] });
    expect(n.operands[1].strides).toEqual([1, 2]); // permuted: x is B's axis 1
  });
  it('never throws', () => {
    for (const req of [null, 5, 'x', {}, { rule: 'nope' }, { rule: 'pdpd', shapes: [[1]] }, { shapes: [[NaN]] }, { rule: 'named' }]) {
      const r = tc.explain(req);
      expect(r.ok).toBe(false);
      expect(typeof r.error.message).toBe('string');
    }
  });
});

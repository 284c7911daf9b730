// A repeated expression run over large plain operands goes a chunk at a time
// (bindings/js/execute.js streamed(), from runExpr): each chunk's operand rows
// are copied into scratch, the generated module runs on the chunk, the chunk
// is copied out. Every such run must give, bit for bit, what the engine's run
// in one piece gives (the first run) and what op by op gives: every chunk axis
// (the row, a middle axis with steps above it, the outermost), operands
// broadcast on the chunk axis, resident operands and outs mixed in, typed
// outs, outs sharing memory with an operand, memory growth between runs.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';
import { streamPlan, CHUNK, STREAM_MIN } from '../../dist/execute.js';
import { slot, fresh } from '../../dist/execute.js';
import { C } from '../../dist/contract.js';
import { counted, fill, firstDiff } from './stream-helpers.js';

beforeAll(async () => { await tc.init(); });

const numel = (s) => s.reduce((p, d) => p * d, 1);
const chainB = {
  text: 'a*b + c*d - e',
  make: (seed) => ({
    a: { data: fill(Float32Array, 1024 * 1024, seed), shape: [1024, 1024] },
    b: { data: fill(Float32Array, 1024, seed + 1), shape: [1024] },
    c: { data: fill(Float32Array, 1024, seed + 2), shape: [1024, 1] },
    d: { data: fill(Float32Array, 1024 * 1024, seed + 3), shape: [1024, 1024] },
    e: 0.75,
  }),
  opByOp: (o) => tc.sub(tc.add(tc.mul(o.a, o.b), tc.mul(o.c, o.d)), o.e),
};

describe('a repeated large run, a chunk at a time', () => {
  it('gives the one-piece run and op by op, bit for bit, run after run (chain B: chunks of rows)', () => {
    const E = tc.compile(chainB.text);
    for (let round = 0; round < 3; round++) {
      const o = chainB.make(10 * round);
      const ref = chainB.opByOp(o);
      const [r, streamed, chunks] = counted(() => E.run(o));
      expect(r.shape).toEqual([1024, 1024]);
      expect(r.dtype).toBe('float32');
      expect(firstDiff(r, ref)).toBe(-1);
      // The first run is the engine's, in one piece; every later one goes in chunks.
      expect(streamed).toBe(round === 0 ? 0 : 1);
      if (round > 0) expect(chunks).toBeGreaterThan(4);
    }
  });

  it('makes a new result larger than its operands without asking the engine twice (an outer product)', () => {
    // The first run learns the result's size ("out too small", then the run); the second is
    // answered at once and remembered; from the third on JS repeats it, a chunk at a time.
    const E = tc.compile('a * b + 1');
    const a = { data: fill(Float32Array, 1024, 1), shape: [1024, 1] };
    const b = { data: fill(Float32Array, 1024, 2), shape: [1, 1024] };
    const ref = tc.add(tc.mul(a, b), 1);
    const streamed = [];
    for (let i = 0; i < 4; i++) {
      const [r, n] = counted(() => E.run({ a, b }));
      expect(firstDiff(r, ref)).toBe(-1);
      streamed.push(n);
    }
    expect(streamed).toEqual([0, 0, 1, 1]);
  });

  it('writes a typed out, a resident out, and reads resident operands in place', () => {
    const E = tc.compile(chainB.text);
    const o = chainB.make(7);
    const ref = chainB.opByOp(o);
    E.run(o);
    const typed = new Float32Array(1024 * 1024);
    for (let i = 0; i < 2; i++) {
      typed.fill(5);
      const [r, streamed] = counted(() => E.run(o, { out: typed }));
      expect(r.data).toBe(typed);
      expect(firstDiff(typed, ref)).toBe(-1);
      if (i > 0) expect(streamed).toBe(1);
    }
    const ta = tc.tensor(o.a.data, o.a.shape);
    const out = tc.tensor(new Float32Array(1024 * 1024), [1024, 1024]);
    try {
      for (let i = 0; i < 3; i++) {
        // a resident, d plain (copied per chunk), the result written into the resident out chunk by chunk
        const [r, streamed] = counted(() => E.run({ ...o, a: ta }, { out }));
        expect(r).toBe(out);
        expect(firstDiff(out, ref)).toBe(-1);
        if (i > 0) expect(streamed).toBe(1);
        // a resident, a fresh result
        const [f] = counted(() => E.run({ ...o, a: ta }));
        expect(firstDiff(f, ref)).toBe(-1);
      }
    } finally {
      ta.dispose();
      out.dispose();
    }
  });

  it('cuts a middle axis and steps over the axes above it (NCHW)', () => {
    const E = tc.compile('(x - m) / s');
    const shapes = { x: [8, 64, 56, 56], m: [1, 64, 1, 1], s: [1, 64, 1, 1] };
    for (let round = 0; round < 3; round++) {
      const o = Object.fromEntries(Object.entries(shapes).map(([k, sh], i) => [k, { data: fill(Float32Array, numel(sh), round * 5 + i), shape: sh }]));
      const ref = tc.div(tc.sub(o.x, o.m), o.s);
      const [r, streamed, chunks] = counted(() => E.run(o));
      expect(firstDiff(r, ref)).toBe(-1);
      if (round > 0) {
        expect(streamed).toBe(1);
        expect(chunks % 8).toBe(0); // the same chunks in each of the 8 outer steps
      }
    }
  });

  it('cuts the row itself when a run is one long row (float64)', () => {
    const E = tc.compile('x * y + 1');
    for (let round = 0; round < 3; round++) {
      const o = { x: { data: fill(Float64Array, 300001, round), shape: [300001] }, y: { data: fill(Float64Array, 300001, round + 9), shape: [300001] } };
      const ref = tc.add(tc.mul(o.x, o.y), 1);
      const [r, streamed, chunks] = counted(() => E.run(o));
      expect(r.dtype).toBe('float64');
      expect(firstDiff(r, ref)).toBe(-1);
      if (round > 0) {
        expect(streamed).toBe(1);
        expect(chunks).toBe(Math.ceil(300001 / Math.floor(CHUNK / 24))); // 8 bytes each of x, y and the result per element
      }
    }
  });

  it('copies an operand broadcast over the steps above the chunk axis once per step', () => {
    const E = tc.compile('x - y * 2');
    for (let round = 0; round < 3; round++) {
      const o = { x: { data: fill(Float32Array, 4 * 100003, round), shape: [4, 100003] }, y: { data: fill(Float32Array, 100003, round + 1), shape: [100003] } };
      const ref = tc.sub(o.x, tc.mul(o.y, 2));
      const [r, streamed] = counted(() => E.run(o));
      expect(firstDiff(r, ref)).toBe(-1);
      if (round > 0) expect(streamed).toBe(1);
    }
  });

  it('keeps integer and boolean results exact', () => {
    const cases = [
      { text: 'a + b', o: (s) => ({ a: { data: fill(Int16Array, 1000 * 1100, s), shape: [1000, 1100] }, b: { data: fill(Int16Array, 1100, s + 1), shape: [1100] } }), ref: (o) => tc.add(o.a, o.b), dtype: 'int16' },
      { text: 'a * 3 - b', o: (s) => ({ a: { data: fill(Int32Array, 700 * 800, s), shape: [700, 800] }, b: { data: fill(Int32Array, 700, s + 2), shape: [700, 1] } }), ref: (o) => tc.sub(tc.mul(o.a, 3), o.b), dtype: 'int32' },
      { text: 'a > b', o: (s) => ({ a: { data: fill(Float32Array, 600 * 700, s), shape: [600, 700] }, b: { data: fill(Float32Array, 600 * 700, s + 3), shape: [600, 700] } }), ref: (o) => tc.greater(o.a, o.b), dtype: 'uint8' },
    ];
    for (const c of cases) {
      const E = tc.compile(c.text);
      let streamedRuns = 0;
      for (let round = 0; round < 3; round++) {
        const o = c.o(round * 3);
        const [r, streamed] = counted(() => E.run(o));
        expect(r.dtype).toBe(c.dtype);
        expect(firstDiff(r, c.ref(o))).toBe(-1);
        streamedRuns += streamed;
      }
      expect(streamedRuns, c.text).toBe(2);
    }
  });

  it('runs in one piece when out shares memory with an operand, and is right', () => {
    const E = tc.compile('x * 2 + 1');
    const n = 1 << 19;
    const x = fill(Float32Array, n, 3);
    E.run({ x: { data: x, shape: [n] } });
    for (let i = 0; i < 2; i++) {
      const before = x.slice();
      const [r, streamed] = counted(() => E.run({ x: { data: x, shape: [n] } }, { out: x }));
      expect(r.data).toBe(x);
      expect(streamed).toBe(0);
      expect(firstDiff(x, tc.add(tc.mul({ data: before, shape: [n] }, 2), 1))).toBe(-1);
    }
    // out a view of the same buffer, 16 elements on: every operand element is read before any is written.
    const buf = fill(Float32Array, n + 16, 4);
    const xs = buf.subarray(16);
    const outs = buf.subarray(0, n);
    const F = tc.compile('x - 1');
    F.run({ x: { data: xs, shape: [n] } }, { out: outs });
    const before = xs.slice();
    const [, streamed] = counted(() => F.run({ x: { data: xs, shape: [n] } }, { out: outs }));
    expect(streamed).toBe(0);
    expect(firstDiff(outs, tc.sub({ data: before, shape: [n] }, 1))).toBe(-1);
  });

  it('stays right across memory growth between runs, and leaves nothing allocated', () => {
    tc.releaseScratch();
    const was = tc.memory().allocatedBytes;
    const E = tc.compile(chainB.text);
    const o = chainB.make(21);
    const ref = chainB.opByOp(o);
    E.run(o);
    const heap = tc.memory().wasmHeapBytes;
    const big = tc.tensor(new Float32Array(heap / 4 + (1 << 20)), [heap / 4 + (1 << 20)]); // the heap must grow
    try {
      expect(tc.memory().wasmHeapBytes).toBeGreaterThan(heap);
      const [r, streamed] = counted(() => E.run(o));
      expect(streamed).toBe(1);
      expect(firstDiff(r, ref)).toBe(-1);
    } finally {
      big.dispose();
    }
    tc.releaseScratch();
    expect(tc.memory().allocatedBytes).toBe(was);
  });

  it('agrees with the one-piece run on random shapes, broadcasts and dtypes', () => {
    let seed = 12345;
    const rnd = (n) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const dtypes = [['float32', Float32Array], ['float64', Float64Array], ['int32', Int32Array], ['uint8', Uint8Array]];
    let streamedRuns = 0;
    for (let c = 0; c < 12; c++) {
      const rank = 1 + rnd(4);
      const out = [];
      // Output dims whose product is about 2^19 to 2^20 elements.
      let left = 1 << (19 + rnd(2));
      for (let i = 0; i < rank; i++) {
        const d = i === rank - 1 ? left : Math.max(1, Math.min(left, 2 + rnd(200)));
        out.push(d);
        left = Math.max(1, Math.floor(left / d));
      }
      const [dn, ctor] = dtypes[rnd(dtypes.length)];
      // x the full shape; y broadcast on a random subset of axes (and maybe of lower rank).
      const ys = out.map((d) => (rnd(3) === 0 ? 1 : d)).slice(rnd(rank));
      const o = { x: { data: fill(ctor, numel(out), c), shape: out, dtype: dn }, y: { data: fill(ctor, numel(ys), c + 50), shape: ys, dtype: dn } };
      const E = tc.compile('(x - y) * y + x');
      const first = E.run(o);
      const ref = tc.add(tc.mul(tc.sub(o.x, o.y), o.y), o.x);
      expect(firstDiff(first, ref), `${dn} ${JSON.stringify(out)} ${JSON.stringify(ys)}`).toBe(-1);
      const [again, streamed] = counted(() => E.run(o));
      expect(firstDiff(again, first), `${dn} ${JSON.stringify(out)} ${JSON.stringify(ys)}`).toBe(-1);
      streamedRuns += streamed;
    }
    expect(streamedRuns).toBeGreaterThan(6);
  });
});

describe('scratch slots', () => {
  it('start 2064 bytes into a page from 4 KiB on, and give back all they took', () => {
    tc.releaseScratch();
    const was = tc.memory();
    expect(was.scratchBytes).toBe(0);
    for (const bytes of [4096, 5000, 300000, 1 << 20, 3 << 20]) {
      const p = slot(2, bytes);
      expect(p % 4096, `${bytes} bytes`).toBe(2064);
      expect(slot(2, 64)).toBe(p); // a smaller need is met by the same slot
    }
    expect(tc.memory().scratchBytes).toBeGreaterThanOrEqual(3 << 20);
    tc.releaseScratch();
    expect(tc.memory().scratchBytes).toBe(0);
    expect(tc.memory().allocatedBytes).toBe(was.allocatedBytes);
  });
});

describe('a new result array', () => {
  it('is of its dtype, its length and a buffer of its own, small or large (every dtype)', () => {
    for (const d of C.dtypes) {
      for (const n of [0, 3, 16383, (1 << 16) / d.size, 300001]) {
        const a = fresh(d, n);
        const b = fresh(d, n);
        expect(a, `${d.name} ${n}`).toBeInstanceOf(d.ctor);
        expect(a.length).toBe(n);
        expect(a.byteOffset).toBe(0);
        expect(a.buffer.byteLength).toBe(n * d.size);
        expect(a.buffer).not.toBe(b.buffer);
        if (n > 0) {
          b[n - 1] = d.big ? 2n : 2; // (a large one's contents are unspecified until written)
          a[n - 1] = d.big ? 1n : 1;
          expect(b[n - 1]).toBe(d.big ? 2n : 2); // not one memory
        }
      }
    }
  });

  it('comes back with every element written when its memory was used before (a chunked run)', () => {
    // In Node a large new result is not zeroed first (Buffer.allocUnsafeSlow): memory freed by
    // arrays filled with a pattern is what it may get. Every element must be the run's.
    const E = tc.compile('x * 2 - y');
    const x = { data: fill(Float32Array, 1024 * 1024, 3), shape: [1024, 1024] };
    const y = { data: fill(Float32Array, 1024, 4), shape: [1024] };
    const ref = tc.sub(tc.mul(x, 2), y);
    for (let round = 0; round < 6; round++) {
      for (let k = 0; k < 4; k++) new Uint8Array(Buffer.allocUnsafeSlow(4 << 20).buffer).fill(0xa5);
      const [r, streamed] = counted(() => E.run({ x, y }));
      expect(firstDiff(r, ref), `round ${round}`).toBe(-1);
      if (round > 0) expect(streamed).toBe(1);
    }
  });

  it('reads each operand after a run that had one resident tensor as two operands (until 0.9.15 it read the first twice)', () => {
    // The memo's slots are matched to operands by the address each read: T given as x and as y
    // leaves two at one address, and a later run with y a plain array read T for it, run after
    // run. Such a memo now runs in one piece; the large element-wise ops go the same way.
    const n = 262144;
    const T = tc.tensor(new Float32Array(n).fill(1), [n]);
    const Y = { data: fill(Float32Array, n, 7), shape: [n] };
    const out = new Float32Array(n);
    try {
      for (const [f, ref] of [
        [(x, y) => tc.evaluate('x - y', { x, y }, { out }), (x, y) => tc.sub(x, y)],
        [(x, y) => tc.sub(x, y, { out }), (x, y) => tc.sub(x, y)],
      ]) {
        f(T, T);
        for (const [x, y] of [[T, Y], [Y, T], [T, Y]]) {
          const want = ref(x, y);
          const got = f(x, y);
          const w = want instanceof tc.Tensor ? want.toArray() : want.data;
          if (want instanceof tc.Tensor) want.dispose();
          expect(firstDiff({ data: got.data }, { data: w })).toBe(-1);
        }
      }
    } finally {
      T.dispose();
    }
  });

  it('gives a resident operand a resident result after a run into a typed out (until 0.9.15 a plain one)', () => {
    const n = 262144;
    const U = tc.tensor(fill(Float32Array, n, 2), [n]);
    const X = { data: fill(Float32Array, n, 3), shape: [n] };
    const ref = tc.add(X, { data: U.toArray() });
    try {
      for (let round = 0; round < 3; round++) {
        const r = tc.evaluate('x + y', { x: X, y: U });
        expect(r).toBeInstanceOf(tc.Tensor);
        expect(firstDiff({ data: r.toArray() }, ref)).toBe(-1);
        r.dispose();
        tc.evaluate('x + y', { x: X, y: U }, { out: new Float32Array(n) });
      }
    } finally {
      U.dispose();
    }
  });
});

describe('streamPlan', () => {
  // A descriptor (wasmgen.hpp): R, n, rows, counts, per slot (ptr, row stride, outer strides), R counters.
  const desc = (n, counts, slots) => {
    const R = counts.length;
    const w = [R, n, counts.reduce((p, d) => p * d, 1), ...counts];
    for (const s of slots) w.push(s.ptr, s.row, ...s.outer);
    for (let j = 0; j < R; j++) w.push(0);
    return Int32Array.from(w);
  };

  it('takes whole axes from the row up while they fit, then k steps of the next', () => {
    // [64 outer, 8 middle, 1024 row] float32, output and x dense: 8 bytes per element.
    const d = desc(1024, [8, 64], [{ ptr: 64, row: 4, outer: [4096, 32768] }, { ptr: 128, row: 4, outer: [4096, 32768] }]);
    const es = [4, 4];
    const p = streamPlan(d, es, 256 << 10);
    expect(p).toEqual({ t: 2, k: 4 }); // a step of the outer axis is 8 * 1024 elements * 8 bytes = 64 KiB
    expect(es).toEqual([4, 4]);
  });

  it('cuts the row when one row is over the budget', () => {
    const d = desc(1 << 20, [], [{ ptr: 64, row: 8, outer: [] }, { ptr: 128, row: 8, outer: [] }]);
    expect(streamPlan(d, [8, 8], 1 << 16)).toEqual({ t: 0, k: 4096 });
  });

  it('drops an input whose chunk is not one run of its data, and refuses such an output', () => {
    // y broadcast along the row (stride 0) and read along the chunk axis: its chunk spans one element per row.
    const d = desc(1024, [1024], [{ ptr: 64, row: 4, outer: [4096] }, { ptr: 128, row: 0, outer: [8] }]);
    const es = [4, 4];
    expect(streamPlan(d, es, 1 << 16)).toEqual({ t: 1, k: 8 });
    expect(es).toEqual([4, 0]);
    const transposed = desc(1024, [1024], [{ ptr: 64, row: 4096, outer: [4] }]);
    expect(streamPlan(transposed, [4], 1 << 16)).toBe(null);
  });

  it('runs in one piece what fits in one chunk, and when nothing is copied', () => {
    const d = desc(100, [10], [{ ptr: 64, row: 4, outer: [400] }]);
    expect(streamPlan(d, [4], 1 << 16)).toBe(null);
    expect(streamPlan(desc(1 << 20, [], [{ ptr: 64, row: 4, outer: [] }]), [0], 1 << 16)).toBe(null);
    expect(STREAM_MIN).toBeGreaterThan(CHUNK);
  });
});

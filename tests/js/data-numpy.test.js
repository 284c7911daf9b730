// Replays tests/fixtures/numpy_data.json — element-wise ops, broadcastTo and
// where on every dtype, expected values computed by NumPy
// (tests/tools/gen_numpy_fixtures.py, Debian's python3-numpy) — through the
// built package. One test per (family, dtype); a failure names the case.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const fixture = JSON.parse(readFileSync(new URL('../fixtures/numpy_data.json', import.meta.url), 'utf8'));

const CTORS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, bigint64: BigInt64Array, biguint64: BigUint64Array,
};
const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

function decodeValue(dtype, v) {
  if (dtype === 'bigint64' || dtype === 'biguint64') return BigInt(v);
  return typeof v === 'string' ? SPECIAL[v] : v;
}

function decode(dtype, t) {
  const C = CTORS[dtype];
  const data = new C(t.data.length);
  for (let i = 0; i < t.data.length; i++) data[i] = decodeValue(dtype, t.data[i]);
  return { data, shape: t.shape };
}

// Bit-exact, except: any NaN equals any NaN; float64 pow, and atan2 and
// hypot in either float dtype, may differ from glibc's (NumPy) in the last
// place (atan2 is the host's Math.atan2, hypot and pow musl's).
function sameValue(dtype, op, got, want) {
  if (typeof want === 'bigint') return got === want;
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (Object.is(got, want)) return true;
  if (op === 'pow' && dtype === 'float64' && Number.isFinite(want)) {
    return Math.abs(got - want) <= Math.abs(want) * 2 ** -52;
  }
  if ((op === 'atan2' || op === 'hypot') && Number.isFinite(want)) {
    return Math.abs(got - want) <= Math.abs(want) * (dtype === 'float32' ? 2 ** -23 : 2 ** -52);
  }
  return false;
}

function check(c, res) {
  const want = decode(c.outDtype ?? c.dtype, c.out);
  expect(res.dtype, 'dtype').toBe(c.outDtype ?? c.dtype);
  expect(res.data).toBeInstanceOf(CTORS[c.outDtype ?? c.dtype]);
  expect(res.shape, 'shape').toEqual(want.shape);
  expect(res.data.length).toBe(want.data.length);
  for (let i = 0; i < want.data.length; i++) {
    if (!sameValue(c.dtype, c.op, res.data[i], want.data[i])) {
      throw new Error(`element ${i}: got ${res.data[i]}, NumPy ${want.data[i]}\n${JSON.stringify(c)}`);
    }
  }
}

function run(c) {
  switch (c.family) {
    case 'binary': {
      const a = decode(c.dtype, c.a);
      const b = decode(c.dtype, c.b);
      return tc[c.op](a, b, c.broadcast ? { broadcast: c.broadcast } : undefined);
    }
    case 'scalar':
      return tc[c.op](decode(c.dtype, c.a), decodeValue(c.dtype, c.scalar));
    case 'broadcastTo': {
      const o = { mode: c.mode };
      if (c.axesMapping) o.axesMapping = c.axesMapping;
      if (c.axis !== undefined) o.axis = c.axis;
      return tc.broadcastTo(decode(c.dtype, c.x), c.target, o);
    }
    case 'where':
      return tc.where(decode(c.condDtype, c.cond), decode(c.dtype, c.a), decode(c.dtype, c.b));
    default:
      throw new Error(`unknown family ${c.family}`);
  }
}

const groups = new Map();
for (const c of fixture.cases) {
  const k = `${c.family} ${c.dtype}`;
  if (!groups.has(k)) groups.set(k, []);
  groups.get(k).push(c);
}

describe(`NumPy data fixtures (numpy ${fixture.numpy}, ${fixture.cases.length} cases)`, () => {
  it('covers every family, dtype and op', () => {
    const fams = new Set(fixture.cases.map((c) => c.family));
    expect([...fams].sort()).toEqual(['binary', 'broadcastTo', 'scalar', 'where']);
    expect(new Set(fixture.cases.map((c) => c.dtype)).size).toBe(11);
    expect(new Set(fixture.cases.filter((c) => c.op).map((c) => c.op)).size).toBe(tc.contract().ops.length); // every op of the engine's table
    expect(fixture.cases.some((c) => c.error)).toBe(true);
  });

  for (const [k, cases] of groups) {
    it(`${k}: ${cases.length} cases`, () => {
      let ran = 0;
      for (const c of cases) {
        if (c.error) {
          let err = null;
          try { run(c); } catch (e) { err = e; }
          expect(err, JSON.stringify(c)).toBeInstanceOf(tc.BroadcastError);
          expect(err.code).toBe(c.error);
        } else {
          check(c, run(c));
        }
        ran++;
      }
      expect(ran).toBe(cases.length);
    });
  }
});

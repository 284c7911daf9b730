// float16 bits <-> numbers, for runtimes without Float16Array (Node 20): the
// library's scalars and the display of float16 bits. The engine's conversions
// (src/kernels/half.hpp) are the same algorithm; these agree with them bit for bit.
const f32 = Float32Array.of(0); // (not `new Float32Array(1)`: see contract.js's `none`)
const u32 = new Uint32Array(f32.buffer);

/**
 * The float16 nearest `v` (ties to even), as its 16 bits: one rounding (through
 * float32 with round-to-odd). Overflow gives ±Infinity, NaN a quiet NaN.
 * @param {number} v
 * @returns {number}
 */
export function halfBits(v) {
  f32[0] = v;
  let b = u32[0];
  if (f32[0] !== v && v === v) { // inexact in float32: round to odd, so that one rounding remains
    if (Math.abs(f32[0]) > Math.abs(v)) b = (b - 1) >>> 0;
    b = (b | 1) >>> 0;
  }
  const sign = (b >>> 16) & 0x8000;
  const f = b & 0x7fffffff;
  if (f >= 0x47800000) return sign | (f > 0x7f800000 ? 0x7e00 | ((f >>> 13) & 0x3ff) : 0x7c00);
  if (f < 0x38800000) { // a subnormal or zero half: float32's adder rounds it
    u32[0] = f;
    f32[0] += 0.5;
    return sign | (u32[0] - 0x3f000000);
  }
  return sign | ((f + 0xc8000fff + ((f >>> 13) & 1)) >>> 13);
}

/**
 * The number float16 bits `h` hold (exact).
 * @param {number} h
 * @returns {number}
 */
export function halfValue(h) {
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  const s = h & 0x8000 ? -1 : 1;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return e === 0 ? s * m * 2 ** -24 : s * (1024 + m) * 2 ** (e - 25);
}

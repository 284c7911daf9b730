// scripts/wasm-consts.mjs, the post-link step that moves repeated v128
// constants into immutable globals: the module computes what it did, each
// repeated constant is read from its global (the index space after the
// imported and the defined globals), and what must stay stays (the zero and
// all-ones vectors, a constant used once, a shuffle's 16 lane bytes).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { globalizeConstants } from '../../scripts/wasm-consts.mjs';
import { encU as leb, wasmSections, uleb } from '../../scripts/wasm-data.mjs';

const section = (id, body) => [id, ...leb(body.length), ...body];
const str = (s) => [...leb(s.length), ...Buffer.from(s)];
const vec = (items) => [...leb(items.length), ...items.flat()];
const I32 = 0x7f;
const V128 = 0x7b;

const bytesOf = (...lanes) => [...new Uint8Array(Int32Array.from(lanes).buffer)];
const A = bytesOf(3, 5, 7, 11); // used three times, in two functions
const B = bytesOf(-2, 40, 0, 9); // used twice, inside a block
const ONCE = bytesOf(1000, 2000, 3000, 4000);
const ALSO_ONCE = bytesOf(6, 60, 600, 6000);
const ZERO = bytesOf(0, 0, 0, 0);
const ONES = bytesOf(-1, -1, -1, -1);
const vconst = (b) => [0xfd, 12, ...b];
const lane = (k) => [0xfd, 27, k]; // i32x4.extract_lane k
const add = [0xfd, 174, 1]; // i32x4.add (sub-opcode 174: two LEB bytes)

// One imported global (env.g: i32 = 1000, index 0), one defined (index 1), four functions () -> i32:
//   f0: lane 1 of A + A + lane 2 of (B + ONCE), the B inside a block
//   f1: lane 3 of A + lane 0 of B + lane 0 of ONES (-1) + lane 0 of ZERO + global 0 + global 1
//   f2: lane 5 of an i8x16.shuffle whose 16 lane bytes are A's bytes (no constant)
//   f3: lane 1 of ALSO_ONCE
function testModule() {
  const types = section(1, vec([[0x60, 0, 1, I32]]));
  const imports = section(2, vec([[...str('env'), ...str('g'), 3, I32, 0]]));
  const funcs = section(3, vec([[0], [0], [0], [0]]));
  const global = section(6, vec([[I32, 0, 0x41, 7, 0x0b]]));
  const exports = section(7, vec([[...str('f0'), 0, 0], [...str('f1'), 0, 1], [...str('f2'), 0, 2], [...str('f3'), 0, 3]]));
  const body = (locals, code) => { const b = [...vec(locals), ...code, 0x0b]; return [...leb(b.length), ...b]; };
  const shuffleLanes = A.map((b) => b & 15); // a valid shuffle: every lane byte below 32
  const code = section(10, vec([
    body([], [
      ...vconst(A), ...vconst(A), ...add, ...lane(1),
      0x02, V128, ...vconst(B), ...vconst(ONCE), ...add, 0x0b, ...lane(2), 0x6a,
    ]),
    body([], [
      ...vconst(A), ...lane(3), ...vconst(B), ...lane(0), 0x6a, ...vconst(ONES), ...lane(0), 0x6a,
      ...vconst(ZERO), ...lane(0), 0x6a, 0x23, 0, 0x6a, 0x23, 1, 0x6a,
    ]),
    body([], [...vconst(ZERO), ...vconst(ONES), 0xfd, 13, ...shuffleLanes, 0xfd, 21, 5]),
    body([], [...vconst(ALSO_ONCE), ...lane(1)]),
  ]));
  return Buffer.from(Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...types, ...imports, ...funcs, ...global, ...exports, ...code]));
}

function run(bytes) {
  const g = new WebAssembly.Global({ value: 'i32', mutable: false }, 1000);
  const { exports: e } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { g } });
  return [e.f0(), e.f1(), e.f2(), e.f3()];
}

// The code section's bytes; how often `b` (a byte pattern) occurs in them.
const codeOf = (bytes) => { const s = wasmSections(bytes).find((x) => x.id === 10); return bytes.subarray(s.start, s.end); };
const count = (hay, b) => { let n = 0; for (let i = hay.indexOf(Buffer.from(b)); i >= 0; i = hay.indexOf(Buffer.from(b), i + 1)) n++; return n; };

describe('repeated v128 constants in immutable globals', () => {
  const mod = testModule();

  it('the test module runs', () => {
    expect(WebAssembly.validate(mod)).toBe(true);
    // f0: 5 + 5 + (0 + 3000); f1: 11 + (-2) + (-1) + 0 + 1000 + 7; f2: shuffle lane 5 = byte (A[5] & 15) of the zero vector
    expect(run(mod)).toEqual([3010, 1015, 0, 60]);
  });

  it('computes the same, the repeated constants read from globals after the imported and defined ones', () => {
    const out = globalizeConstants(mod);
    expect(out).not.toBeNull();
    expect(WebAssembly.validate(out)).toBe(true);
    expect(run(out)).toEqual(run(mod));
    const code = codeOf(out);
    // A (3 uses) and B (2 uses) left the code: global 2 is A (the most used), global 3 is B
    expect(count(code, vconst(A))).toBe(0);
    expect(count(code, vconst(B))).toBe(0);
    expect(count(code, [0x23, 2, 0x23, 2])).toBe(1);
    expect(count(code, [0x02, V128, 0x23, 3])).toBe(1);
    // the globals section holds them: the defined global, then A, then B (immutable v128)
    const gs = wasmSections(out).find((x) => x.id === 6);
    const globals = out.subarray(gs.start, gs.end);
    expect(uleb(globals, 0)[0]).toBe(3);
    expect(count(globals, [V128, 0, ...vconst(A), 0x0b])).toBe(1);
    expect(count(globals, [V128, 0, ...vconst(B), 0x0b])).toBe(1);
    // left as they were: the zero and all-ones vectors, the constant used once, the shuffle's lane bytes
    expect(count(code, vconst(ZERO))).toBe(2);
    expect(count(code, vconst(ONES))).toBe(2);
    expect(count(code, vconst(ONCE))).toBe(1);
    expect(count(code, vconst(ALSO_ONCE))).toBe(1);
    expect(count(code, [0xfd, 13, ...A.map((b) => b & 15)])).toBe(1);
    // a second run finds nothing more to move
    expect(globalizeConstants(out)).toBeNull();
  });

  it('gives null for a module without a repeated constant, or with code it has no rule for', () => {
    const onlyOnce = globalizeConstants(globalizeConstants(mod));
    expect(onlyOnce).toBeNull();
    const bad = Buffer.from(mod);
    bad[bad.indexOf(Buffer.from([...vconst(ALSO_ONCE), ...lane(1)]))] = 0x06; // an opcode the step has no rule for
    expect(globalizeConstants(bad)).toBeNull();
  });

  it('the built engine: no repeated constant left in its code, each in a global', () => {
    const wasm = readFileSync(fileURLToPath(new URL('../../dist/tensorcast.wasm', import.meta.url)));
    expect(globalizeConstants(wasm)).toBeNull();
    const gs = wasmSections(wasm).find((x) => x.id === 6);
    expect(uleb(wasm, gs.start)[0]).toBeGreaterThan(20); // the float32 exp, log and sigmoid constants among them
  });
});

// scripts/wasm-order.mjs, the post-link step that lays functions out for gzip:
// a reordered module computes what the linked one did (calls, the function
// table, exports and the start function all follow their functions), and
// immediates that happen to hold a call's opcode are left alone.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { reorderFunctions } from '../../scripts/wasm-order.mjs';
import { encU as leb, encS32 as sleb, wasmSections, uleb } from '../../scripts/wasm-data.mjs';

const section = (id, body) => [id, ...leb(body.length), ...body];
const str = (s) => [...leb(s.length), ...Buffer.from(s)];
const vec = (items) => [...leb(items.length), ...items.flat()];
const I32 = 0x7f;

// One import (env.base: () -> i32) and five functions, all () -> i32 except set () -> ():
//   f0 (index 1): env.base() + 10
//   f1 (index 2): f0() + 1
//   f2 (index 3): call_indirect table[k] for k = 0, 1, summed
//   f3 (index 4): lane 5 of a v128.const whose bytes are 0x10 (call) and 0xd2 (ref.func),
//                 plus an i8x16.shuffle of it and an i32.const 16: immediates, not calls
//   set (index 5): the start function writes 7 to global 0
function testModule() {
  const types = section(1, vec([[0x60, 0, 1, I32], [0x60, 0, 0]]));
  const imports = section(2, vec([[...str('env'), ...str('base'), 0, 0]]));
  const funcs = section(3, vec([[0], [0], [0], [0], [1]]));
  const table = section(4, vec([[0x70, 0, 2]]));
  const memory = section(5, vec([[0, 1]]));
  const global = section(6, vec([[I32, 1, 0x41, 0, 0x0b]]));
  const exports = section(7, vec([
    [...str('f1'), 0, 2], [...str('f2'), 0, 3], [...str('f3'), 0, 4], [...str('g'), 3, 0],
  ]));
  const start = section(8, leb(5));
  const elems = section(9, vec([[0, 0x41, 0, 0x0b, ...vec([[2], [1]])]])); // table[0] = f1, table[1] = f0
  const consts = [0x10, 0xd2, 0x10, 0x10, 0xd2, 0x10, 0x10, 0x10, 0xd2, 0x10, 0x10, 0x10, 0x10, 0xd2, 0x10, 0x10];
  const body = (locals, code) => { const b = [...vec(locals), ...code, 0x0b]; return [...leb(b.length), ...b]; };
  const code = section(10, vec([
    body([], [0x10, 0, 0x41, 10, 0x6a]),
    body([], [0x10, 1, 0x41, 1, 0x6a]),
    body([], [0x41, 0, 0x11, 0, 0, 0x41, 1, 0x11, 0, 0, 0x6a]),
    body([[1, 0x7b]], [
      0xfd, 12, ...consts, 0x22, 0, // v128.const; local.tee 0
      0x20, 0, 0xfd, 13, ...consts.map((c) => c & 0x0f), // i8x16.shuffle with lane indices 0 and 2
      0xfd, 21, 5, // i8x16.extract_lane_s 5
      0x20, 0, 0xfd, 22, 3, 0x6a, // + i8x16.extract_lane_u 3
      0x41, ...sleb(16), 0x6a, // + 16
      0x02, 0x40, 0x0b, // an empty block (depth)
    ]),
    body([], [0x41, 7, 0x24, 0]),
  ]));
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...types, ...imports, ...funcs, ...table, ...memory,
    ...global, ...exports, ...start, ...elems, ...code]);
}

function run(bytes) {
  const { exports: e } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { base: () => 100 } });
  return { f1: e.f1(), f2: e.f2(), f3: e.f3(), g: e.g.value };
}

describe('laying functions out for gzip', () => {
  const mod = testModule();

  it('the test module runs: calls, call_indirect through the table, SIMD immediates, the start function', () => {
    expect(WebAssembly.validate(mod)).toBe(true);
    // f3: lane 5 of the shuffle is lane 0x10 & 15 = 0 of the constant (16), lane 3 of the constant is 16, + 16
    expect(run(mod)).toEqual({ f1: 111, f2: 111 + 110, f3: 48, g: 7 });
  });

  it('every order of the functions computes the same: calls, table, exports and start follow them', () => {
    const want = run(mod);
    const orders = [[4, 3, 2, 1, 0], [1, 0, 4, 2, 3], [2, 4, 0, 3, 1], [3, 1, 4, 0, 2]];
    for (const order of orders) {
      const out = reorderFunctions(Buffer.from(mod), order);
      expect(out).not.toBeNull();
      expect(WebAssembly.validate(out)).toBe(true);
      expect(Buffer.compare(out, Buffer.from(mod))).not.toBe(0);
      expect(run(out)).toEqual(want);
    }
    expect(run(reorderFunctions(Buffer.from(mod)))).toEqual(want); // the default order
  });

  it('the identity order gives the module back byte for byte, immediates untouched', () => {
    expect(Buffer.compare(reorderFunctions(Buffer.from(mod), [0, 1, 2, 3, 4]), Buffer.from(mod))).toBe(0);
  });

  it('refuses an order that is not a permutation, and gives null for code it has no rule for', () => {
    expect(() => reorderFunctions(Buffer.from(mod), [0, 1, 2, 3])).toThrow(RangeError);
    expect(() => reorderFunctions(Buffer.from(mod), [0, 1, 2, 3, 3])).toThrow(RangeError);
    // a body with an opcode the step has no rule for (0x06, the old exceptions proposal's try)
    const bad = Buffer.from(mod);
    const at = bad.indexOf(Buffer.from([0x41, 7, 0x24, 0, 0x0b]));
    bad[at] = 0x06;
    expect(reorderFunctions(bad, [4, 3, 2, 1, 0])).toBeNull();
  });

  it('the name section of a profiling link follows its functions', () => {
    // alpha (index 0) calls beta (index 1), which traps: the stack names both
    const body = (code) => { const b = [0, ...code, 0x0b]; return [...leb(b.length), ...b]; };
    const names = [...str('name'), 1, ...((sub) => [...leb(sub.length), ...sub])(vec([[0, ...str('alpha')], [1, ...str('beta')]]))];
    const m = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
      ...section(1, vec([[0x60, 0, 0]])), ...section(3, vec([[0], [0]])), ...section(7, vec([[...str('a'), 0, 0]])),
      ...section(10, vec([body([0x10, 1]), body([0x00])])), ...section(0, names)]);
    const stack = (bytes) => {
      try { new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.a(); } catch (e) { return e.stack; }
      return '';
    };
    const before = stack(m);
    expect(before).toMatch(/beta[\s\S]*alpha/);
    const after = reorderFunctions(Buffer.from(m), [1, 0]);
    expect(Buffer.compare(after, Buffer.from(m))).not.toBe(0);
    expect(stack(after)).toMatch(/beta[\s\S]*alpha/);
    // the names moved with the bodies: without the renumbering the stack would read alpha, then beta
    const unnamed = Buffer.from(after.subarray(0, after.length - (names.length + 2)));
    expect(WebAssembly.validate(unnamed)).toBe(true);
    expect(stack(unnamed)).not.toMatch(/beta/);
  });

  it('the default order puts a template\'s instances together though their locals differ', () => {
    // p and q run the same code (q declares a local, as another dtype's instance may); r runs other code.
    // By bytes alone r would sit between them: a body's bytes start with its locals.
    const body = (locals, code) => { const b = [...vec(locals), ...code, 0x0b]; return [...leb(b.length), ...b]; };
    const m = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
      ...section(1, vec([[0x60, 0, 1, I32]])), ...section(3, vec([[0], [0], [0]])),
      ...section(7, vec([[...str('r'), 0, 0], [...str('q'), 0, 1], [...str('p'), 0, 2]])),
      ...section(10, vec([body([], [0x41, 6]), body([[1, I32]], [0x41, 5]), body([], [0x41, 5])]))]);
    const out = reorderFunctions(Buffer.from(m));
    expect(WebAssembly.validate(out)).toBe(true);
    const e = WebAssembly.Module.exports(new WebAssembly.Module(out)).map((x) => x.name);
    const { exports: f } = new WebAssembly.Instance(new WebAssembly.Module(out));
    expect([f.p(), f.q(), f.r()]).toEqual([5, 5, 6]);
    // the export section keeps its order; each export's function index is what moved
    const at = Object.fromEntries(e.map((name, k) => [name, exportIndex(out, k)]));
    expect(Math.abs(at.p - at.q)).toBe(1);
  });

  it('the built engine: the same module, every function kept, smaller gzipped than the link order', () => {
    const wasm = readFileSync(fileURLToPath(new URL('../../dist/tensorcast.wasm', import.meta.url)));
    const fn = wasmSections(wasm).find((s) => s.id === 3);
    const [count] = uleb(wasm, fn.start);
    expect(count).toBeGreaterThan(800); // the lean module (simd_coverage.hpp): ~900 functions
    // the identity order reads and writes every body of the engine back unchanged
    expect(Buffer.compare(reorderFunctions(wasm, [...Array(count).keys()]), wasm)).toBe(0);
    // shuffled, the module grows gzipped; laid out again (the default order), it is as small as the build's
    const order = [...Array(count).keys()];
    for (let i = count - 1, r = 12345; i > 0; i--) {
      r = (r * 1103515245 + 12345) % 2 ** 31;
      const j = r % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const shuffled = reorderFunctions(wasm, order);
    const again = reorderFunctions(shuffled);
    expect(WebAssembly.validate(shuffled) && WebAssembly.validate(again)).toBe(true);
    const gz = (b) => gzipSync(b, { level: 9 }).length;
    expect(gz(shuffled)).toBeGreaterThan(gz(wasm) + 2048);
    expect(gz(again)).toBeLessThan(gz(wasm) + 256);
  });
});

/** The function index of the module's k-th export. */
function exportIndex(bytes, k) {
  const ex = wasmSections(bytes).find((s) => s.id === 7);
  let [, p] = uleb(bytes, ex.start);
  for (let i = 0; ; i++) {
    const [l, q] = uleb(bytes, p);
    const [idx, r] = uleb(bytes, q + l + 1);
    if (i === k) return idx;
    p = r;
  }
}

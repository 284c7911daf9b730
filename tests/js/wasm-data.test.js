// scripts/wasm-data.mjs, the post-link step that joins nearby data segments:
// the joined module starts with the same memory, byte for byte.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { joinDataSegments, encU as leb, encS32 as sleb } from '../../scripts/wasm-data.mjs';

const section = (id, body) => [id, ...leb(body.length), ...body];

/** A module with one exported memory (2 pages) and these active segments [offset, bytes]. */
function moduleWith(segs, dataCount = true) {
  const data = [...leb(segs.length)];
  for (const [off, bytes] of segs) data.push(0, 0x41, ...sleb(off), 0x0b, ...leb(bytes.length), ...bytes);
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(5, [1, 0, 2]), // memory: min 2 pages
    ...section(7, [1, 3, ...[0x6d, 0x65, 0x6d], 2, 0]), // export "mem"
    ...(dataCount ? section(12, leb(segs.length)) : []),
    ...section(11, data),
  ]);
}

function memoryOf(bytes) {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  return new Uint8Array(inst.exports.mem.buffer).slice();
}

const bytes = (n, seed) => Array.from({ length: n }, (_, i) => (i * 37 + seed) & 0xff || 1);

describe('joining data segments', () => {
  it('joins segments a few bytes apart and keeps the memory image', () => {
    const segs = [[1024, bytes(23, 1)], [1060, bytes(5, 2)], [1070, bytes(100, 3)], [5000, bytes(9, 4)], [70000, bytes(40, 5)]];
    const before = moduleWith(segs);
    const after = joinDataSegments(Buffer.from(before));
    expect(after).not.toBeNull();
    expect(WebAssembly.validate(after)).toBe(true);
    // 1024, 1060 and 1070 join; 5000 is 3830 bytes past them (over the 1 KiB gap); 70000 further.
    expect(memoryOf(after)).toEqual(memoryOf(before));
    expect(after.length).toBeLessThan(before.length + 1024 + 64);
  });

  it('works without a data count section, and leaves a module with nothing to join alone', () => {
    const segs = [[16, bytes(8, 7)], [30, bytes(8, 8)]];
    const before = moduleWith(segs, false);
    const after = joinDataSegments(Buffer.from(before));
    expect(WebAssembly.validate(after)).toBe(true);
    expect(memoryOf(after)).toEqual(memoryOf(before));
    expect(joinDataSegments(Buffer.from(moduleWith([[16, bytes(8, 9)]])))).toBeNull();
    expect(joinDataSegments(Buffer.from(moduleWith([[16, bytes(8, 9)], [4096, bytes(8, 9)]])))).toBeNull();
  });

  it('the built engine has had its segments joined (the link step ran)', () => {
    const wasm = readFileSync(fileURLToPath(new URL('../../dist/tensorcast.wasm', import.meta.url)));
    expect(joinDataSegments(wasm)).toBeNull();
  });
});

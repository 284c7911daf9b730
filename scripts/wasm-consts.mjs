// Post-link step, third part (scripts/wasm-post.mjs runs it): each v128
// constant the code uses more than once becomes an immutable global, and each
// of its v128.const instructions a global.get of it.
//
// Why: an engine may build a v128.const anew where it is used, in every pass
// of a loop (Chromium's V8 does, judging by the times below), and a float32
// exp, log, tanh or sigmoid step uses 15 to 30 of them; a global.get of an
// immutable global is one load. Measured on the engine
// (node bench/views.mjs --groups=unary,post-32x1000 --dist=<before>
// --dist=dist, 2 runs; after ÷ before), 1M float32 resident in headless
// Chromium: exp 0.77x, log 0.79x, tanh 0.85x, sigmoid 0.86x, softmax
// [32,1000] 0.86x; in Node 0.88-0.98x (none slower). The module is smaller
// too: a global.get is 2 bytes where the constant was 18, and each global
// holds its 16 bytes once (the engine: 67 globals for 612 of its 776
// constants, 8.4 KB smaller raw, 87 B gzipped).
//
// Left as they are: the zero and all-ones vectors (engines make those with one
// instruction) and a constant used once (its global would cost more bytes
// than it saves). Binaryen would fold the globals back into constants
// (simplify-globals), so this runs after the last wasm-opt.
import { uleb, encU, wasmSections } from './wasm-data.mjs';
import { mapBody, imports, codeBodies, section, Unsupported } from './wasm-order.mjs';

const hex = (b) => Buffer.from(b).toString('hex');
const plain = (b) => b.every((x) => x === 0) || b.every((x) => x === 0xff);

/**
 * The module with its repeated v128 constants in globals; null for a module
 * the step does not read, or that has no constant to move.
 */
export function globalizeConstants(bytes) {
  try {
    return globalize(bytes);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

function globalize(bytes) {
  const sections = wasmSections(bytes);
  const find = (id) => sections.find((s) => s.id === id);
  const imp = find(2), glob = find(6), code = find(10);
  if (!code || !glob) return null;
  const nImported = imports(bytes, imp).globals; // the global index space starts with the imported globals
  const [nGlobals, globalsAt] = uleb(bytes, glob.start);
  const bodies = codeBodies(bytes, code);
  const same = (f) => f;
  // First pass: how often each constant is used.
  const uses = new Map();
  for (const body of bodies) {
    mapBody(body, same, (c) => {
      if (!plain(c)) uses.set(hex(c), (uses.get(hex(c)) ?? 0) + 1);
      return null;
    });
  }
  // The globals, the most used first (the smallest indices).
  const moved = [...uses].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (moved.length === 0) return null;
  const index = new Map(moved.map(([c], k) => [c, nImported + nGlobals + k]));
  const out = [Buffer.from(bytes.subarray(0, 8))];
  for (const s of sections) {
    if (s.id === 6) {
      const added = moved.map(([c]) => Buffer.from([0x7b, 0x00, 0xfd, 0x0c, ...Buffer.from(c, 'hex'), 0x0b]));
      out.push(section(6, Buffer.concat([Buffer.from(encU(nGlobals + moved.length)), Buffer.from(bytes.subarray(globalsAt, s.end)), ...added])));
    } else if (s.id === 10) {
      const parts = [Buffer.from(encU(bodies.length))];
      for (const body of bodies) {
        const b = mapBody(body, same, (c) => index.get(hex(c)) ?? null);
        parts.push(Buffer.from(encU(b.length)), Buffer.from(b));
      }
      out.push(section(10, Buffer.concat(parts)));
    } else {
      out.push(Buffer.from(bytes.subarray(s.from, s.end)));
    }
  }
  return Buffer.concat(out);
}

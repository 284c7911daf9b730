// The memory-traffic limit, measured in the same process as the libraries.
//
// An element-wise op must read the bytes of its operands (a stretched operand
// only once) and write the bytes of its output: R bytes read, W written. A
// copy of n bytes reads n and writes n. The limit is the time of one copy of
//     B = max(W, (R + W) / 2)
// bytes: it moves at least as many bytes as the op does (R + W in all, and at
// least W written), so a kernel that only moves its data runs in about the
// same time. Kernel mode: wasm `memory.copy` (a tiny module whose bytes are
// written below). End to end: `new Uint8Array(B).set(src)` in JS — a fresh
// output array plus TypedArray.prototype.set of the same bytes.

// (module
//   (import "m" "mem" (memory 1))
//   (func (export "copy") (param $dst i32) (param $src i32) (param $n i32)
//     local.get 0 local.get 1 local.get 2 memory.copy)
//   (func (export "fill") (param $dst i32) (param $v i32) (param $n i32)
//     local.get 0 local.get 1 local.get 2 memory.fill))
const WASM = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  // type section: one type (i32, i32, i32) -> ()
  0x01, 0x07, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00,
  // import section: "m" "mem" memory, limits { min 1 }
  0x02, 0x0a, 0x01, 0x01, 0x6d, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01,
  // function section: two functions of type 0
  0x03, 0x03, 0x02, 0x00, 0x00,
  // export section: "copy" -> func 0, "fill" -> func 1
  0x07, 0x0f, 0x02,
  0x04, 0x63, 0x6f, 0x70, 0x79, 0x00, 0x00,
  0x04, 0x66, 0x69, 0x6c, 0x6c, 0x00, 0x01,
  // code section: two bodies
  0x0a, 0x1a, 0x02,
  0x0c, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfc, 0x0a, 0x00, 0x00, 0x0b, // memory.copy
  0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfc, 0x0b, 0x00, 0x0b, // memory.fill
]);

let mod = null;
function wasmModule() {
  if (!mod) mod = new WebAssembly.Module(WASM);
  return mod;
}

/** Bytes the limit copies for an op that reads `readBytes` and writes `writeBytes`. */
export function limitBytes(readBytes, writeBytes) {
  return Math.max(writeBytes, Math.ceil((readBytes + writeBytes) / 2));
}

/**
 * A limit for an op moving (readBytes, writeBytes).
 * Returns { bytes, kernel(): memory.copy, e2e(): fresh array + set, verify() }.
 */
export function makeLimit(readBytes, writeBytes) {
  const bytes = limitBytes(readBytes, writeBytes);
  const align = (n) => Math.ceil(n / 4096) * 4096;
  const pages = Math.ceil((align(bytes) * 2 + 65536) / 65536);
  const memory = new WebAssembly.Memory({ initial: pages });
  const inst = new WebAssembly.Instance(wasmModule(), { m: { mem: memory } });
  const { copy, fill } = inst.exports;
  const src = 0;
  const dst = align(bytes);
  fill(src, 7, bytes);
  fill(dst, 1, bytes);
  const jsSrc = new Uint8Array(bytes).fill(3);
  return {
    bytes,
    kernel: () => copy(dst, src, bytes),
    e2e: () => {
      const o = new Uint8Array(bytes);
      o.set(jsSrc);
      return o;
    },
    /** True when both copies really moved the bytes. */
    verify() {
      fill(dst, 1, bytes);
      copy(dst, src, bytes);
      const v = new Uint8Array(memory.buffer, dst, bytes);
      const o = this.e2e();
      return v[0] === 7 && v[bytes - 1] === 7 && v[bytes >> 1] === 7 && o[0] === 3 && o[bytes - 1] === 3;
    },
  };
}

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

// What a wasm SIMD128 loop can do with the same bytes: a copy of 64 bytes a step
// (four v128.load / v128.store pairs), the body an element-wise kernel would
// have without its arithmetic. memory.copy is the engine's native memmove,
// which a wasm loop cannot match for large buffers (it may use wider vectors
// and stores that skip the cache); this row shows how far that gap is here.
// (module
//   (import "m" "mem" (memory 1))
//   (func (export "vcopy") (param $dst i32) (param $src i32) (param $n i32)
//     (local $end i32)
//     (local.set $end (i32.add (local.get $src) (local.get $n)))
//     (block (loop
//       (br_if 1 (i32.ge_u (local.get $src) (local.get $end)))
//       (v128.store offset=0  (local.get $dst) (v128.load offset=0  (local.get $src)))   ;; and at 16, 32, 48
//       (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
//       (local.set $src (i32.add (local.get $src) (i32.const 64)))
//       (br 0)))))
const SIMD_BODY = [
  0x01, 0x01, 0x7f, // one local i32 ($end)
  0x20, 0x01, 0x20, 0x02, 0x6a, 0x21, 0x03, // end = src + n
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x01, 0x20, 0x03, 0x4f, 0x0d, 0x01, // br_if 1 (src >= end)
  ...[0x00, 0x10, 0x20, 0x30].flatMap((off) => [0x20, 0x00, 0x20, 0x01, 0xfd, 0x00, 0x04, off, 0xfd, 0x0b, 0x04, off]),
  0x20, 0x00, 0x41, 0xc0, 0x00, 0x6a, 0x21, 0x00, // dst += 64
  0x20, 0x01, 0x41, 0xc0, 0x00, 0x6a, 0x21, 0x01, // src += 64
  0x0c, 0x00, 0x0b, 0x0b, 0x0b, // br 0, end loop, end block, end func
];
const SIMD_WASM = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x07, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00, // type (i32, i32, i32) -> ()
  0x02, 0x0a, 0x01, 0x01, 0x6d, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01, // import "m" "mem"
  0x03, 0x02, 0x01, 0x00, // one function
  0x07, 0x09, 0x01, 0x05, 0x76, 0x63, 0x6f, 0x70, 0x79, 0x00, 0x00, // export "vcopy"
  0x0a, SIMD_BODY.length + 2, 0x01, SIMD_BODY.length, ...SIMD_BODY,
]);
let simdMod = null;

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
  if (!simdMod) simdMod = new WebAssembly.Module(SIMD_WASM);
  const { vcopy } = new WebAssembly.Instance(simdMod, { m: { mem: memory } }).exports;
  const simdBytes = Math.ceil(bytes / 64) * 64; // within the aligned regions below
  const src = 0;
  const dst = align(bytes);
  fill(src, 7, bytes);
  fill(dst, 1, bytes);
  const jsSrc = new Uint8Array(bytes).fill(3);
  return {
    bytes,
    kernel: () => copy(dst, src, bytes),
    simd: () => vcopy(dst, src, simdBytes),
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
      const copied = v[0] === 7 && v[bytes - 1] === 7 && v[bytes >> 1] === 7 && o[0] === 3 && o[bytes - 1] === 3;
      fill(dst, 1, bytes);
      vcopy(dst, src, simdBytes);
      return copied && v[0] === 7 && v[bytes - 1] === 7 && v[bytes >> 1] === 7;
    },
  };
}

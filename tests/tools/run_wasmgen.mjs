// Runs generated expression modules for tests/cpp/wasmgen_test.cpp.
//   node run_wasmgen.mjs <dir>
// <dir>/cases.txt: one case a line, "<name> <desc>"; per case <name>.wasm (the
// module) and <name>.mem (the memory image). For each: WebAssembly.validate,
// a fresh WebAssembly.Memory holding the image, the module instantiated over
// it, run(desc), and the memory's first image-size bytes written to <name>.out.
// <dir>/results.txt: "<name> ok" or "<name> invalid" or "<name> error <message>".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const lines = readFileSync(join(dir, 'cases.txt'), 'utf8').split('\n').filter(Boolean);
const results = [];
for (const line of lines) {
  const [name, desc] = line.split(' ');
  try {
    const bytes = readFileSync(join(dir, `${name}.wasm`));
    if (!WebAssembly.validate(bytes)) {
      let why = '';
      try { new WebAssembly.Module(bytes); } catch (e) { why = String(e.message).replace(/\s+/g, ' '); }
      results.push(`${name} invalid ${why}`);
      continue;
    }
    const image = readFileSync(join(dir, `${name}.mem`));
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(image.length / 65536)) });
    new Uint8Array(memory.buffer).set(image);
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
    instance.exports.run(Number(desc));
    writeFileSync(join(dir, `${name}.out`), new Uint8Array(memory.buffer, 0, image.length));
    results.push(`${name} ok`);
  } catch (e) {
    results.push(`${name} error ${String(e && e.message).replace(/\s+/g, ' ')}`);
  }
}
writeFileSync(join(dir, 'results.txt'), results.join('\n') + '\n');

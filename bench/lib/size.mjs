// What a page downloads: gzip -9 of each file, summed (as a server sends them).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { wasmSections as sections, uleb } from '../../scripts/wasm-data.mjs';

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

function files(list) {
  let raw = 0;
  let gzip = 0;
  for (const f of list) {
    const b = fs.readFileSync(f);
    raw += b.length;
    gzip += gz(b);
  }
  return { raw, gzip };
}

/** Minified ESM bundle of `code` (imports resolved from bench/node_modules) via the root's rolldown. */
async function bundle(root, benchDir, name, code) {
  const rd = path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs');
  if (!fs.existsSync(rd)) return null;
  const { rolldown } = await import(pathToFileURL(rd).href);
  const dir = path.join(benchDir, 'node_modules', '.tensorcast-bench');
  fs.mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(entry, code);
  const b = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent' });
  const out = await b.generate({ format: 'esm', minify: true });
  await b.close();
  const js = Buffer.from(out.output[0].code);
  return { raw: js.length, gzip: gz(js) };
}

/** Relative ES module imports reachable from dist/<entry>, as file names (sorted). */
export function importGraph(dir, entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    const re = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.\/[^'"]+)['"]/g;
    for (let m = re.exec(src); m; m = re.exec(src)) {
      const g = path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]));
      if (fs.existsSync(path.join(dir, g))) todo.push(g);
    }
  }
  return [...seen].sort();
}

/** The sections of a wasm module: [{ id, name, bytes }] (custom sections by their own name). */
function wasmSections(buf) {
  const names = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'data count'];
  return sections(buf).map(({ id, start, end }) => {
    let name = names[id] ?? `section ${id}`;
    if (id === 0) {
      const [n, i] = uleb(buf, start);
      name = `custom "${buf.subarray(i, i + n).toString()}"`;
    }
    return { id, name, bytes: buf.subarray(start, end) };
  });
}

/**
 * What the tensorcast page payload is made of: each JS module of dist/index.js's
 * import graph minified on its own (its relative imports left external), and
 * the wasm's sections (code, data, the function table,
 * the rest), each gzipped alone. Parts gzipped apart sum to a little more than
 * the bundle (each loses the others' context); the table is for seeing where
 * the bytes are, the total row above is the budget's figure.
 */
export async function parts(root, benchDir) {
  const rd = path.join(root, 'node_modules', 'rolldown', 'dist', 'index.mjs');
  if (!fs.existsSync(rd)) return [];
  const { rolldown } = await import(pathToFileURL(rd).href);
  const dist = path.join(root, 'dist');
  const rows = [];
  for (const f of importGraph(dist, 'index.js')) {
    const b = await rolldown({ input: path.join(dist, f), platform: 'browser', logLevel: 'silent', external: (id) => id.startsWith('.') });
    const o = await b.generate({ format: 'esm', minify: true });
    await b.close();
    const js = Buffer.from(o.output[0].code);
    rows.push({ part: `JS: ${f}`, raw: js.length, gzip: gz(js) });
  }
  const wasm = fs.readFileSync(path.join(dist, 'tensorcast.wasm'));
  let restRaw = 0;
  const rest = [];
  for (const sec of wasmSections(wasm)) {
    if (sec.id === 10 || sec.id === 11 || sec.id === 9) {
      const what = sec.id === 10 ? 'code (every function)' : sec.id === 11 ? 'data (tables, strings; the C library\'s exp/pow tables)' : 'element (the function table: kernel pointers)';
      rows.push({ part: `wasm: ${what}`, raw: sec.bytes.length, gzip: gz(sec.bytes) });
    } else {
      restRaw += sec.bytes.length;
      rest.push(sec.bytes);
    }
  }
  rows.push({ part: 'wasm: the other sections (types, imports, exports, ...)', raw: restRaw, gzip: gz(Buffer.concat(rest)) });
  return rows;
}

/**
 * The row of an entry bundle that runs on tensorcast-shapes.wasm: dist/<file>
 * bundled and minified + the wasm (null before a build that has it).
 */
async function shapesWasmEntry(root, benchDir, file, name, what) {
  const dist = path.join(root, 'dist');
  if (!fs.existsSync(path.join(dist, file))) return null;
  const wasm = files([path.join(dist, 'tensorcast-shapes.wasm')]);
  const min = await bundle(root, benchDir, file.replace(/\.js$/, ''), `export * from ${JSON.stringify(path.join(dist, file))};`).catch(() => null);
  if (!min) return null;
  return { name, what, raw: min.raw + wasm.raw, gzip: min.gzip + wasm.gzip, glueGzip: min.gzip, wasmGzip: wasm.gzip };
}

/** The row of tensorcast/shapes: dist/tensorcast-shapes.js bundled and minified + tensorcast-shapes.wasm (null before a build that has it). */
export function shapesSize(root, benchDir) {
  return shapesWasmEntry(root, benchDir, 'tensorcast-shapes.js', 'tensorcast/shapes',
    'minified bundle of dist/tensorcast-shapes.js (the shapes API) + tensorcast-shapes.wasm');
}

/**
 * tensorcast/model's rows: the entry as a page ships it (dist/tensorcast-model.js
 * bundled and minified + tensorcast-shapes.wasm), and the model explorer page
 * (dist/explorer/model.html and the assets it loads: its JS, its worker, CSS
 * and the wasm, each gzipped). [] before a build that has them.
 */
export async function modelSize(root, benchDir) {
  const dist = path.join(root, 'dist');
  const rows = [];
  const entry = await shapesWasmEntry(root, benchDir, 'tensorcast-model.js', 'tensorcast/model',
    'minified bundle of dist/tensorcast-model.js (the shapes API, symbols, inferShapes, the ONNX and IR readers) + tensorcast-shapes.wasm');
  if (entry) rows.push(entry);
  const explorer = path.join(dist, 'explorer');
  const assets = path.join(explorer, 'assets');
  if (fs.existsSync(path.join(explorer, 'model.html')) && fs.existsSync(assets)) {
    const own = fs.readdirSync(assets).filter((f) => /^(model|model-worker)-.*\.(js|css)$/.test(f) || /^tensorcast-shapes-.*\.wasm$/.test(f));
    const js = files([path.join(explorer, 'model.html'), ...own.filter((f) => !f.endsWith('.wasm')).map((f) => path.join(assets, f))]);
    const w = files(own.filter((f) => f.endsWith('.wasm')).map((f) => path.join(assets, f)));
    rows.push({
      name: 'model explorer page', what: `dist/explorer/model.html + ${own.join(', ')} (each gzipped)`,
      raw: js.raw + w.raw, gzip: js.gzip + w.gzip, glueGzip: js.gzip, wasmGzip: w.gzip,
    });
  }
  return rows;
}

export async function sizes(root, benchDir) {
  const pkgDir = (p) => path.join(benchDir, 'node_modules', p);
  const rows = [];
  const dist = path.join(root, 'dist');
  // The files a page loads: dist/index.js and what it imports, followed from the
  // source (not a glob of dist/, which also holds the Node entry and, in some
  // builds, an inline variant carrying the wasm as text).
  const glue = importGraph(dist, 'index.js');
  const tcGlue = files(glue.map((f) => path.join(dist, f)));
  const tcWasm = files([path.join(dist, 'tensorcast.wasm')]);
  // As a page ships it: the whole JS API bundled and minified (as the peers'
  // .min.js files are), plus the wasm. The unminified files are listed too.
  const min = await bundle(root, benchDir, 'tensorcast', `export * from ${JSON.stringify(path.join(dist, 'index.js'))};`).catch(() => null);
  if (min) {
    rows.push({
      name: 'tensorcast', what: 'minified bundle of dist/index.js (the JS API, the engine\'s host side included) + tensorcast.wasm',
      raw: min.raw + tcWasm.raw, gzip: min.gzip + tcWasm.gzip, glueGzip: min.gzip, wasmGzip: tcWasm.gzip,
    });
  }
  // tensorcast/shapes (issue 23: ≤ 30 KB gzipped): its browser entry bundled and minified the same
  // way + tensorcast-shapes.wasm.
  const shapesRow = await shapesSize(root, benchDir);
  if (shapesRow) rows.push(shapesRow);
  // tensorcast/model (issue 39): its own entry, so the main entry does not grow.
  rows.push(...await modelSize(root, benchDir));
  rows.push({
    name: min ? 'tensorcast (unminified files)' : 'tensorcast', what: `dist/{${glue.join(',')}} + tensorcast.wasm, each gzipped`,
    raw: tcGlue.raw + tcWasm.raw, gzip: tcGlue.gzip + tcWasm.gzip, glueGzip: tcGlue.gzip, wasmGzip: tcWasm.gzip,
  });
  {
    const core = path.join(pkgDir('@tensorflow/tfjs-core'), 'dist', 'tf-core.min.js');
    const be = path.join(pkgDir('@tensorflow/tfjs-backend-wasm'), 'dist');
    const g = files([core, path.join(be, 'tf-backend-wasm.min.js')]);
    const wsm = files([path.join(be, 'tfjs-backend-wasm-simd.wasm')]);
    rows.push({ name: 'tfjs-wasm', what: 'tf-core.min.js + tf-backend-wasm.min.js + tfjs-backend-wasm-simd.wasm', raw: g.raw + wsm.raw, gzip: g.gzip + wsm.gzip, glueGzip: g.gzip, wasmGzip: wsm.gzip });
  }
  {
    const d = path.join(pkgDir('onnxruntime-web'), 'dist');
    const g = files([path.join(d, 'ort.wasm.min.mjs')]);
    const wsm = files([path.join(d, 'ort-wasm-simd-threaded.wasm')]);
    rows.push({ name: 'ort-web', what: 'ort.wasm.min.mjs + ort-wasm-simd-threaded.wasm', raw: g.raw + wsm.raw, gzip: g.gzip + wsm.gzip, glueGzip: g.gzip, wasmGzip: wsm.gzip });
  }
  try {
    const s = await bundle(root, benchDir, 'stdlib', [
      "import ctor from '@stdlib/ndarray/ctor';",
      "import broadcastArrays from '@stdlib/ndarray/broadcast-arrays';",
      "import broadcastArray from '@stdlib/ndarray/broadcast-array';",
      "import binary from '@stdlib/ndarray/base/binary';",
      "import assign from '@stdlib/ndarray/base/assign';",
      "import broadcastShapes from '@stdlib/ndarray/base/broadcast-shapes';",
      'globalThis.__keep = [ctor, broadcastArrays, broadcastArray, binary, assign, broadcastShapes];',
    ].join('\n'));
    if (s) rows.push({ name: '@stdlib/ndarray', what: 'minified bundle of the modules used here (ctor, broadcast-array(s), base/binary, base/assign, base/broadcast-shapes)', ...s, glueGzip: s.gzip, wasmGzip: 0 });
  } catch (e) {
    rows.push({ name: '@stdlib/ndarray', what: `bundle failed: ${e.message.split('\n')[0]}` });
  }
  try {
    const s = await bundle(root, benchDir, 'ndarray', "import nd from 'ndarray'; import ops from 'ndarray-ops'; globalThis.__keep = [nd, ops];");
    if (s) rows.push({ name: 'ndarray-ops', what: 'minified bundle of ndarray + ndarray-ops', ...s, glueGzip: s.gzip, wasmGzip: 0 });
  } catch (e) {
    rows.push({ name: 'ndarray-ops', what: `bundle failed: ${e.message.split('\n')[0]}` });
  }
  return rows;
}

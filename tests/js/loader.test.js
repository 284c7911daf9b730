// Loading the engine: one engine per copy of the library, whatever the order of
// init() and initSync() calls, and a failed load that leaves nothing behind.
//
// Each test loads a library of its own: dist/ copied into a temporary
// directory and imported from there (a query string on the import would only
// make the entry file fresh; loader.js beneath it would be shared).
import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const ENGINE = readFileSync(path.join(dist, 'tensorcast.wasm'));

const dirs = [];
/** A fresh copy of the library: its Node entry, and its browser entry (same loader). */
async function fresh({ all = false } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tensorcast-loader-'));
  dirs.push(dir);
  cpSync(dist, dir, { recursive: true, filter: (f) => all || f === dist || /\.(m?js|wasm)$/.test(f) && !f.endsWith('inline.js') });
  const node = await import(pathToFileURL(path.join(dir, 'node.js')).href);
  const browser = await import(pathToFileURL(path.join(dir, 'index.js')).href);
  return { node, browser, dir };
}

// No rejection may go unhandled, in any test.
const unhandled = [];
const onUnhandled = (e) => { unhandled.push(e); };
beforeAll(() => { process.on('unhandledRejection', onUnhandled); });
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(async () => {
  await ticks();
  vi.restoreAllMocks();
  const seen = unhandled.splice(0).map(String);
  expect(seen).toEqual([]);
});

/** Let pending loads run on (a few macrotasks: compile and instantiate finish off the main thread). */
async function ticks(n = 5) {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 5));
}

/** Nothing may reach the console while a module fails to start; tests that need it silence it here. */
function quiet() {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
}

/** The promise's outcome, without letting it go unhandled: ['ok', v] or ['err', e], with a count of settlements. */
function watch(p) {
  const w = { calls: 0, outcome: null };
  w.done = p.then((v) => { w.calls++; w.outcome = ['ok', v]; }, (e) => { w.calls++; w.outcome = ['err', e]; });
  return w;
}

/** The library works, on one engine: shapes, tensors made now and before, memory(). */
function works(tc, before = []) {
  expect(tc.isReady()).toBe(true);
  expect(tc.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
  const a = tc.tensor(new Float64Array([1, 2, 3]));
  const b = tc.tensor(new Float64Array([10, 20, 30]), [1, 3]);
  expect(Array.from(tc.add(a, b).toArray())).toEqual([11, 22, 33]);
  for (const t of before) expect(Array.from(tc.add(t, a).toArray())).toEqual(Array.from(t.toArray(), (x, i) => x + [1, 2, 3][i]));
  const m = tc.memory();
  expect(m.liveTensors).toBeGreaterThanOrEqual(3);
  expect(m.allocatedBytes).toBeGreaterThan(0);
  expect(tc.DTYPES).toContain('float64');
  expect(tc.contract().dtypes.length).toBe(tc.DTYPES.length);
}

/** Nothing loaded, nothing left: every entry refuses with the call-init() message. */
function idle(tc) {
  expect(tc.isReady()).toBe(false);
  expect(tc.DTYPES).toEqual([]);
  expect(() => tc.contract()).toThrow(/call `await init\(\)`/);
  expect(() => tc.broadcastShapes([1], [2])).toThrow(/call `await init\(\)`/);
  expect(() => tc.memory()).toThrow(/call `await init\(\)`/);
}

// ---- WebAssembly modules by hand --------------------------------------------

const leb = (n) => { const o = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; o.push(b); } while (n); return o; };
const str = (s) => [...leb(s.length), ...new TextEncoder().encode(s)];
const vec = (items) => [...leb(items.length), ...items.flat()];
const section = (id, body) => (body === null ? [] : [id, ...leb(body.length), ...body]);

/**
 * A module of () -> () functions: `imports` ([module, name] function imports),
 * `funcs` (each an instruction list), `exports` ([name, kind, index]),
 * optional memory, table and start function.
 */
function wasm({ imports = [], funcs = [], exports = [], memory = false, table = false, start = null }) {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, 0x00, 0x00]])),
    ...section(2, imports.length ? vec(imports.map(([m, n]) => [...str(m), ...str(n), 0x00, 0x00])) : null),
    ...section(3, funcs.length ? vec(funcs.map(() => [0x00])) : null),
    ...section(4, table ? vec([[0x70, 0x00, 0x00]]) : null),
    ...section(5, memory ? vec([[0x00, 0x01]]) : null),
    ...section(7, exports.length ? vec(exports.map(([n, kind, i]) => [...str(n), { function: 0, table: 1, memory: 2 }[kind], ...leb(i)])) : null),
    ...section(8, start === null ? null : leb(start)),
    ...section(10, funcs.length ? vec(funcs.map((code) => { const b = [0x00, ...code, 0x0b]; return [...leb(b.length), ...b]; })) : null),
  ]);
}

const UNREACHABLE = 0x00;
const CALL = 0x10;
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

/**
 * A module shaped like the engine (the same export names and kinds, read off
 * the real tensorcast.wasm), whose every function runs `code`; with `abort`,
 * it imports the engine's abort() (env.abort, as the engine names it) as function 0.
 */
function engineShaped(code = [], { abort = false, start = false, without = null } = {}) {
  const real = WebAssembly.Module.exports(new WebAssembly.Module(ENGINE)).filter((e) => e.name !== without);
  const imports = [];
  if (abort) imports.push(['env', 'abort']);
  const fns = real.filter((e) => e.kind === 'function');
  const funcs = fns.map(() => code);
  const base = imports.length;
  const exports = real.map((e) => [e.name, e.kind, e.kind === 'function' ? base + fns.indexOf(e) : 0]);
  return wasm({ imports, funcs, exports, memory: true, table: true, start: start ? base : null });
}

// ---- the tests ----------------------------------------------------------------

describe('one engine per library', () => {
  it('two concurrent init() calls share one promise and one instance', async () => {
    const { node, browser } = await fresh();
    const p1 = node.init();
    const p2 = browser.init({ wasmBinary: ENGINE }); // the other entry, another source: same load
    const p3 = node.init({ wasmUrl: 'http://127.0.0.1:1/never-fetched.wasm' });
    expect(p2).toBe(p1);
    expect(p3).toBe(p1);
    let t1; let t2;
    const after1 = p1.then(() => { t1 = node.tensor(new Float64Array([1, 2, 3])); });
    const after2 = p2.then(() => { t2 = browser.tensor(new Float64Array([4, 5, 6])); });
    await Promise.all([after1, after2]);
    // Each entry's functions on the other's tensors: one heap.
    expect(Array.from(browser.add(t1, t2).toArray())).toEqual([5, 7, 9]);
    expect(Array.from(node.mul(t2, t1).toArray())).toEqual([4, 10, 18]);
    expect(node.init()).toBe(p1);
    expect(browser.init()).toBe(p1);
    works(node, [t1, t2]);
    works(browser, [t1, t2]);
  });

  it('init() pending, then initSync(): initSync() installs the engine and the pending init() resolves to it', async () => {
    const { node } = await fresh();
    const p = node.init();
    expect(node.isReady()).toBe(false);
    node.initSync();
    expect(node.isReady()).toBe(true);
    const before = node.tensor(new Float64Array([7, 8, 9]));
    const w = watch(p);
    await p;
    await ticks(); // the pending load's own instance, had it been made, would have arrived by now
    expect(w.outcome).toEqual(['ok', undefined]);
    expect(node.init()).toBe(p);
    node.initSync(); // idempotent
    works(node, [before]);
  });

  it('initSync() while the pending init() is instantiating: its instance is dropped, never installed', async () => {
    const { node } = await fresh();
    const module = new WebAssembly.Module(ENGINE);
    const instantiate = WebAssembly.instantiate;
    const made = [];
    vi.spyOn(WebAssembly, 'instantiate').mockImplementation((...args) => {
      const r = instantiate.apply(WebAssembly, args);
      made.push(r);
      return r;
    });
    const p = node.init({ module });
    for (let i = 0; i < 10 && made.length === 0; i++) await Promise.resolve();
    expect(made.length).toBe(1); // the pending load is now waiting for its instance
    node.initSync({ wasmBinary: ENGINE });
    const t = node.tensor(new Float64Array([1, 1, 1]));
    await made[0]; // the pending load's instance arrives: it must not replace the engine
    await p;
    await ticks();
    works(node, [t]);
  });

  it('a pending init() that would have failed resolves once initSync() has loaded the engine, with no rejection', async () => {
    const { node } = await fresh();
    const p = node.init({ wasmUrl: 'http://127.0.0.1:1/tensorcast.wasm' }); // refused connection, later
    const w = watch(p);
    node.initSync();
    await w.done;
    await ticks(10);
    expect(w.outcome).toEqual(['ok', undefined]);
    expect(w.calls).toBe(1);
    works(node);
  });

  it('an initSync() that throws during a pending init() changes nothing: that init() goes on', async () => {
    const { node } = await fresh();
    const p = node.init();
    expect(() => node.initSync({ wasmBinary: EMPTY_MODULE })).toThrow(/not the tensorcast engine/);
    expect(() => node.initSync({ wasmBinary: new Uint8Array([1, 2, 3]) })).toThrow(/not WebAssembly/);
    expect(node.isReady()).toBe(false);
    expect(node.init()).toBe(p);
    await p;
    works(node);
  });
});

describe('a failed load rejects once, leaves nothing, and is retried from scratch', () => {
  const FAILURES = [
    ['an empty (valid) WebAssembly module', () => ({ wasmBinary: EMPTY_MODULE }), /not the tensorcast engine: it lacks .*tc_call .*a memory/],
    ['a module exporting other names', () => ({ wasmBinary: wasm({ funcs: [[]], exports: [['tc_call', 'function', 0], ['memory', 'memory', 0]], memory: true }) }),
      /not the tensorcast engine: it lacks .*tc_request/],
    ['a module importing what tensorcast does not provide', () => ({ wasmBinary: wasm({ imports: [['env', 'nope']], exports: [['f', 'function', 0]] }) }),
      /not the tensorcast engine: .*it imports env\.nope \(function\), which tensorcast does not provide/],
    ['garbage bytes', () => ({ wasmBinary: new Uint8Array([1, 2, 3, 4, 5]) }), /options\.wasmBinary is not WebAssembly/],
    ['empty bytes', () => ({ wasmBinary: new Uint8Array(0) }), /options\.wasmBinary is not WebAssembly .*0 bytes/],
    ['an empty ArrayBuffer', () => ({ wasmBinary: new ArrayBuffer(0) }), /is not WebAssembly/],
    ['a truncated engine', () => ({ wasmBinary: ENGINE.subarray(0, 1000) }), /is not WebAssembly/],
    ['a compiled foreign module', () => ({ module: new WebAssembly.Module(EMPTY_MODULE) }), /not the tensorcast engine/],
    // The full build calls it from the start: a module without it is refused by name.
    ['the engine without the binary rerun export', () => ({ wasmBinary: engineShaped([], { without: 'tc_rerun_binary' }) }),
      /not the tensorcast engine: it lacks tc_rerun_binary \(function\)/],
    ['an engine-shaped module whose start function traps (instantiation fails)', () => ({ wasmBinary: engineShaped([UNREACHABLE], { start: true }) }),
      /could not be instantiated \(RuntimeError/],
    ['an engine-shaped module whose constructors trap', () => ({ wasmBinary: engineShaped([UNREACHABLE]) }), /the engine failed to start \(RuntimeError/],
    ['an engine-shaped module that calls abort() while starting', () => ({ wasmBinary: engineShaped([CALL, 0], { abort: true }) }), /failed to start .*Aborted/],
    ['an engine-shaped module that gives no contract', () => ({ wasmBinary: engineShaped([]) }), /gives no contract \(its address is undefined\): it is not the tensorcast engine/],
    ['a file that does not exist', () => ({ wasmUrl: '/nonexistent/tensorcast.wasm' }), /could not load the engine from file:\/\/\/nonexistent/],
    ['a fetch that fails', () => ({ wasmUrl: 'http://127.0.0.1:1/tensorcast.wasm' }), /could not load the engine from http:\/\/127\.0\.0\.1:1/],
  ];

  it.each(FAILURES)('init() with %s: one clear rejection, then init() works', async (_, options, message) => {
    quiet();
    const { node } = await fresh();
    const p = node.init(options());
    const again = node.init(); // while loading: the same load, the same rejection
    expect(again).toBe(p);
    const w1 = watch(p);
    const w2 = watch(again);
    await Promise.all([w1.done, w2.done]);
    await ticks();
    expect(w1.calls).toBe(1);
    expect(w1.outcome[0]).toBe('err');
    expect(w1.outcome[1]).toBeInstanceOf(Error);
    expect(w1.outcome[1].message).toMatch(/^tensorcast: /);
    expect(w1.outcome[1].message).toMatch(message);
    expect(w2.outcome[1]).toBe(w1.outcome[1]);
    idle(node);
    const retry = node.init(); // not the dead promise: a new load
    expect(retry).not.toBe(p);
    await retry;
    works(node);
  });

  it.each(FAILURES.filter(([, o]) => o().wasmUrl === undefined))('initSync() with %s: throws, stays idle, then initSync() works', async (_, options, message) => {
    quiet();
    const { node } = await fresh();
    let thrown = null;
    try { node.initSync(options()); } catch (e) { thrown = e; }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown.message).toMatch(/^tensorcast: /);
    expect(thrown.message).toMatch(message);
    idle(node);
    await expect(node.init({ wasmBinary: new Uint8Array(0) })).rejects.toThrow(/not WebAssembly/); // idle: a new load, failing too
    idle(node);
    node.initSync();
    works(node);
  });

  it('initSync() after a failed init() works, and the browser entry after a failed Node one', async () => {
    quiet();
    const { node, browser } = await fresh();
    await expect(node.init({ wasmBinary: EMPTY_MODULE })).rejects.toThrow(/not the tensorcast engine/);
    await expect(browser.init({ wasmBinary: engineShaped([UNREACHABLE]) })).rejects.toThrow(/failed to start/);
    idle(node);
    idle(browser);
    browser.initSync({ wasmBinary: ENGINE });
    works(node);
    works(browser);
    await expect(node.init()).resolves.toBeUndefined();
  });

  it('the browser entry: initSync() with no source is a TypeError and changes nothing', async () => {
    const { browser } = await fresh();
    expect(() => browser.initSync()).toThrow(TypeError);
    idle(browser);
    const p = browser.init({ module: new WebAssembly.Module(ENGINE) });
    expect(() => browser.initSync()).toThrow(TypeError);
    await p;
    works(browser);
    browser.initSync(); // once ready: nothing to do, no source needed
  });

  it('options of the wrong type throw a TypeError in every state, without disturbing a load', async () => {
    const { node, browser } = await fresh();
    expect(() => node.init({ wasmURL: 'x' })).toThrow(TypeError);
    const p = node.init();
    expect(() => node.init({ module: 3 })).toThrow(TypeError);
    expect(() => node.initSync({ wasmBinary: 'x' })).toThrow(TypeError);
    // initSync fetches nothing: wasmUrl is none of its options (until 0.9.23 taken, and listed as accepted)
    for (const entry of [node, browser]) expect(() => entry.initSync({ wasmUrl: 'x' })).toThrow(new TypeError('initSync: unknown option "wasmUrl"; accepted: wasmBinary, module'));
    expect(() => node.init({ wasmURL: 'x' })).toThrow('accepted: wasmUrl, wasmBinary, module');
    await p;
    expect(() => node.init(null)).toThrow(TypeError);
    expect(() => node.initSync(5)).toThrow(TypeError);
    works(node);
  });
});

describe('the loader in the generated entries', () => {
  it('node.cjs, inline.js and inline.cjs (built from these files by scripts/entries.mjs) load one engine each', async () => {
    const { dir } = await fresh({ all: true });
    const { entries } = await import(pathToFileURL(path.join(root, 'scripts/entries.mjs')).href);
    entries(dir); // regenerates the copies' entries from the copied loader, as the build does
    const require = createRequire(path.join(dir, 'x.cjs'));
    const cjs = require(path.join(dir, 'node.cjs'));
    const p = cjs.init();
    cjs.initSync();
    await p;
    works(cjs);
    const inlineCjs = require(path.join(dir, 'inline.cjs'));
    await expect(inlineCjs.init({ wasmBinary: EMPTY_MODULE })).rejects.toThrow(/not the tensorcast engine/);
    inlineCjs.initSync();
    works(inlineCjs);
    const inline = await import(pathToFileURL(path.join(dir, 'inline.js')).href);
    const q = inline.init();
    expect(inline.init()).toBe(q);
    await q;
    works(inline);
  });
});

// Node's wasmUrl: a string without a URL scheme is a file path, read as it is
// written (it was parsed as a URL: '#' began a fragment, '%41' was read as 'A',
// C:\ was a scheme "c:"); a URL, or a string with a scheme, stays a URL.
describe('Node: options.wasmUrl as a file path', () => {
  let base;
  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'tensorcast-paths-'));
    dirs.push(base);
    for (const d of ['a#b', 'pct%41']) {
      mkdirSync(path.join(base, d));
      cpSync(path.join(dist, 'tensorcast.wasm'), path.join(base, d, 'tensorcast.wasm'));
    }
  });

  it.each(['a#b', 'pct%41'])('a directory named %s: by absolute path, relative path and file: URL', async (d) => {
    const file = path.join(base, d, 'tensorcast.wasm');
    for (const wasmUrl of [file, path.relative(process.cwd(), file), pathToFileURL(file), pathToFileURL(file).href]) {
      const { node } = await fresh();
      await node.init({ wasmUrl });
      works(node);
    }
  });

  it('a Windows drive path is a path, not a URL scheme', async () => {
    const { node } = await fresh();
    const wasmUrl = 'C:\\engines\\tensorcast.wasm';
    const e = await node.init({ wasmUrl }).catch((x) => x);
    expect(e.message).toContain(`could not load the engine from ${pathToFileURL(path.resolve(wasmUrl)).href} (ENOENT); check options.wasmUrl`);
  });
});

// The package's own engine file missing (a bundled Node app that did not copy
// it): the error names the file and how to provide it.
describe('Node: the engine file missing beside the entry', () => {
  it('init() and initSync() name the URL, the reason and the fix', async () => {
    const { node, dir } = await fresh();
    rmSync(path.join(dir, 'tensorcast.wasm'));
    const href = pathToFileURL(path.join(dir, 'tensorcast.wasm')).href;
    const e = await node.init().catch((x) => x);
    expect(() => node.initSync()).toThrow(e.message);
    expect(e.message).toContain(`could not load the engine from ${href} (ENOENT); `);
    for (const fix of ['copy tensorcast.wasm', 'beside the bundle', 'init({ wasmUrl })', 'initSync({ wasmBinary })', 'tensorcast/inline']) expect(e.message).toContain(fix);
    idle(node);
  });
});

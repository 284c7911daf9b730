// The JavaScript view of the engine's contract. Nothing here is a copy: every
// table is built at init() from what the module declares (src/core/contract.def,
// src/kernels/dtypes.def, src/kernels/ops.def, read from its memory), and
// checked against what JS itself knows (each typed array's element size).
// `new Map(none)`, not `new Map()` (a Set, an empty typed array: the same): the page's minifier
// marks the latter pure with a comment, 16 bytes each (tests/js/page-bundle.test.js). For the
// same reason a returned error is `TypeError(...)`, which is `new TypeError(...)` without it.
export const none = [];
export const C = {
  ready: false,
  dtypes: [],          // [{ id, name, short, array, kind, size, ctor, float, big, half, bits }]
  dtypeByName: new Map(none),
  dtypeByTag: new Map(none), // typed-array constructor name -> dtype
  ops: [],             // [{ id, name, kernel, bool, domain, simd }]
  opByName: new Map(none),
  unaryOps: [],        // [{ id, name, kernel, bool, domain, simd }] (unary.def)
  unaryOpByName: new Map(none),
  reduceOps: new Map(none), // reduction name -> number
  reduceAcc: new Map(none), // reduction name -> [input dtype id] -> result dtype (no `dtype` option)
  statuses: [],        // status number -> code
  signals: {},         // outTooSmall, outOverlaps
  verdicts: [],
  inner: [],
  rules: new Map(none),    // "family:name" -> rule number
  types: new Map(none),    // element-wise rule name -> rule number
  modes: new Map(none),    // Broadcast-op mode -> rule number
  named: -1,           // the named rule
  numpy: -1,           // the element-wise NumPy rule (the default)
  A: {},               // action name -> number
  actions: new Map(none),  // name -> action number
  shapings: new Map(none), // name -> shaping number
  limits: {},
  REQ: {},             // request header field -> index
  REQ_LEN: 0,
  RESP: {},            // response head field -> index
  RESP_LEN: 0,
};

// C before any contract, what clearContract() restores (commit() replaces these
// empty Maps and arrays, it never fills them, so they stay empty).
const EMPTY = { ...C };

/** The dtype names of this build, in the engine's order (filled by init()). */
export let DTYPES = Object.freeze([]);

function indexOf(list) {
  const o = {};
  list.forEach((f, i) => { o[f] = i; });
  return Object.freeze(o);
}

/**
 * Read and check the module's contract without touching C or DTYPES; returns
 * commit(), which installs it in one step (plain assignments: it cannot throw).
 * A contract that does not read (a foreign or mismatched module) throws here,
 * and C stays as it was.
 */
// An element-wise or unary op of the contract, [name, domain, kernel, bool], the entries it
// leaves out or gives as 0 their defaults (contract.cpp, op_json).
const op = ([name, domain, kernel, bool], id, simd) => Object.freeze({ id, name, kernel: kernel || name, bool: bool === 1, domain: domain || 'any', simd });

export function readContract(M, build = 'full') {
  // One JSON text in the module's memory (bindings/wasm/contract.cpp, loader.js): an array of the parts, in this order.
  const [have, statuses, signals, verdicts, inner, ruleRows, actions, shapings, limits, req, resp, dtypeRows, ops, unaryOps, reduceOps, reduceAcc] = JSON.parse(M.contract());
  // "full" (the kernels) or "shapes" (tensorcast/shapes: the rules, no dtypes, ops or reductions).
  if (have !== build) {
    const [is, want] = [have, build].map((b) => (b === 'shapes' ? "tensorcast-shapes.wasm, the engine of 'tensorcast/shapes'" : "tensorcast.wasm, the engine of 'tensorcast'"));
    throw new Error(`tensorcast: this module is ${is}; this entry needs ${want}: pass that file (its bytes, a module compiled from them, or its URL)`);
  }
  const n = {}; // the next C, built aside
  // Each dtype is [name, short, array, kind, size] (contract.cpp).
  n.dtypes = dtypeRows.map(([name, short, array, kind, size], id) => {
    // float16 where the runtime has no Float16Array (Node 20): its bits, in a Uint16Array.
    const half = name === 'float16';
    const bits = half && typeof globalThis.Float16Array !== 'function';
    const ctor = bits ? Uint16Array : globalThis[array];
    if (typeof ctor !== 'function' || ctor.BYTES_PER_ELEMENT !== size) {
      throw new Error(`tensorcast: the engine's dtype ${name} (${array}, ${size} bytes) does not match this JavaScript engine`);
    }
    return Object.freeze({ id, name, short, array, kind, size, ctor,
      float: kind === 'float', big: kind === 'bigint' || kind === 'biguint', half, bits,
      loop: !half && kind !== 'bigint' && kind !== 'biguint' }); // copied element by element when small (execute.js)
  });
  n.dtypeByName = new Map(n.dtypes.map((d) => [d.name, d]));
  // Typed-array tag -> dtype; a Uint16Array is uint16 (float16 bits only where an operand says dtype: 'float16').
  n.dtypeByTag = new Map(n.dtypes.filter((d) => !d.bits).map((d) => [d.array, d]));
  // Which dtypes have a SIMD kernel for an op (any form), in dtype order: a bit per dtype from the module.
  const simd = (unary, id) => {
    const bits = M._tc_simd_dtypes(unary, id);
    return Object.freeze(n.dtypes.filter((d) => (bits >>> d.id) & 1).map((d) => d.name));
  };
  n.ops = ops.map((o, id) => op(o, id, simd(0, id)));
  n.opByName = new Map(n.ops.map((o) => [o.name, o]));
  // Unary ops (unary.def): the same fields as ops.
  n.unaryOps = unaryOps.map((o, id) => op(o, id, simd(1, id)));
  n.unaryOpByName = new Map(n.unaryOps.map((o) => [o.name, o]));
  n.reduceOps = new Map(reduceOps.map((r, i) => [r, i]));
  // reduceAcc.get(name)[dtype id]: the result dtype of a reduction without `dtype`.
  n.reduceAcc = new Map(reduceOps.map((r, i) => [r, Object.freeze(reduceAcc[i].map((d) => n.dtypes[d]))]));
  n.statuses = Object.freeze(statuses);
  n.signals = Object.freeze(signals);
  n.verdicts = Object.freeze(verdicts);
  n.inner = Object.freeze(inner);
  // Each rule is [id, name, family] (contract.cpp).
  const rules = ruleRows.map(([id, name, family]) => ({ id, name, family }));
  n.rules = new Map(rules.map((r, i) => [`${r.family}:${r.name}`, i]));
  n.ruleList = Object.freeze(rules.map((r) => Object.freeze(r)));
  n.types = new Map(rules.map((r, i) => [r, i]).filter(([r]) => r.family === 'elementwise').map(([r, i]) => [r.name, i]));
  n.modes = new Map(rules.map((r, i) => [r, i]).filter(([r]) => r.family === 'to').map(([r, i]) => [r.name, i]));
  n.named = rules.findIndex((r) => r.family === 'named');
  n.numpy = n.types.get('numpy');
  n.actions = new Map(actions.map((a, i) => [a, i]));
  n.A = Object.freeze(Object.fromEntries(actions.map((a, i) => [a, i])));
  n.shapings = new Map(shapings.map((s, i) => [s, i]));
  n.limits = Object.freeze(limits);
  n.REQ = indexOf(req);
  n.REQ_LEN = req.length;
  n.RESP = indexOf(resp);
  n.RESP_LEN = resp.length;
  n.build = have;
  n.version = M.version();
  n.ready = true;
  const dtypes = Object.freeze(n.dtypes.map((d) => d.name));
  return () => {
    Object.assign(C, n);
    DTYPES = dtypes;
  };
}

/** Put C and DTYPES back as they were before any contract (a load that failed after commit()). */
export function clearContract() {
  for (const k of Object.keys(C)) if (!(k in EMPTY)) delete C[k];
  Object.assign(C, EMPTY);
  DTYPES = Object.freeze([]);
}

/** The contract as the engine declared it (a plain copy, for tools and the cross-check test). */
export function contract() {
  if (!C.ready) throw new Error('tensorcast: call `await init()` (or initSync()) before using the library');
  return {
    version: C.version,
    build: C.build,
    statuses: [...C.statuses],
    dtypes: C.dtypes.map(({ name, short, array, kind, size }) => ({ name, short, array, kind, size })),
    ops: C.ops.map(({ name, kernel, bool, domain, simd }) => ({ name, kernel, result: bool ? 'bool' : 'same', domain, simd: [...simd] })),
    unaryOps: C.unaryOps.map(({ name, kernel, bool, domain, simd }) => ({ name, kernel, result: bool ? 'bool' : 'same', domain, simd: [...simd] })),
    verdicts: [...C.verdicts],
    inner: [...C.inner],
    rules: C.ruleList.map((r) => ({ ...r })),
    shapings: [...C.shapings.keys()],
    limits: { ...C.limits },
  };
}

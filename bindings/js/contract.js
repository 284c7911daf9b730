// The JavaScript view of the engine's contract. Nothing here is a copy: every
// table is built at init() from what the module declares (src/core/contract.def,
// src/kernels/dtypes.def, src/kernels/ops.def, handed over by embind), and
// checked against what JS itself knows (each typed array's element size).
export const C = {
  ready: false,
  dtypes: [],          // [{ id, name, short, array, kind, size, ctor, float, big }]
  dtypeByName: new Map(),
  dtypeByTag: new Map(), // typed-array constructor name -> dtype
  ops: [],             // [{ id, name, kernel, bool, domain, simd }]
  opByName: new Map(),
  reduceOps: new Map(), // reduction name -> number
  reduceAcc: new Map(), // reduction name -> [input dtype id] -> result dtype (no `dtype` option)
  statuses: [],        // status number -> code
  signals: {},         // outTooSmall, outOverlaps
  verdicts: [],
  inner: [],
  rules: new Map(),    // "family:name" -> rule number
  types: new Map(),    // element-wise rule name -> rule number
  modes: new Map(),    // Broadcast-op mode -> rule number
  namedRule: -1,
  numpyRule: -1,       // the element-wise NumPy rule (the default)
  A: {},               // action name -> number
  actions: new Map(),  // name -> action number
  shapings: new Map(), // name -> shaping number
  limits: {},
  REQ: {},             // request header field -> index
  REQ_LEN: 0,
  RESP: {},            // response head field -> index
  RESP_LEN: 0,
};

/** The dtype names of this build, in the engine's order (filled by init()). */
export let DTYPES = Object.freeze([]);

function indexOf(list) {
  const o = {};
  list.forEach((f, i) => { o[f] = i; });
  return Object.freeze(o);
}

/** Build C from the module's contract() (once, at init). */
export function buildContract(M) {
  const c = JSON.parse(M.contract()); // one JSON text (bindings/wasm/contract.cpp)
  C.dtypes = c.dtypes.map((d, id) => {
    const ctor = globalThis[d.array];
    if (typeof ctor !== 'function' || ctor.BYTES_PER_ELEMENT !== d.size) {
      throw new Error(`tensorcast: the engine's dtype ${d.name} (${d.array}, ${d.size} bytes) does not match this JavaScript engine`);
    }
    return Object.freeze({ id, name: d.name, short: d.short, array: d.array, kind: d.kind, size: d.size, ctor,
      float: d.kind === 'float', big: d.kind === 'bigint' || d.kind === 'biguint' });
  });
  C.dtypeByName = new Map(C.dtypes.map((d) => [d.name, d]));
  C.dtypeByTag = new Map(C.dtypes.map((d) => [d.array, d]));
  C.ops = c.ops.map((o, id) => Object.freeze({ id, name: o.name, kernel: o.kernel, bool: o.result === 'bool', domain: o.domain, simd: Object.freeze(o.simd) }));
  C.opByName = new Map(C.ops.map((o) => [o.name, o]));
  C.reduceOps = new Map(c.reduceOps.map((n, i) => [n, i]));
  // reduceAcc.get(name)[dtype id]: the result dtype of a reduction without `dtype`.
  C.reduceAcc = new Map(c.reduceOps.map((n, i) => [n, Object.freeze(c.reduceAcc[i].map((d) => C.dtypes[d]))]));
  C.statuses = Object.freeze(c.statuses.slice());
  C.signals = Object.freeze({ ...c.signals });
  C.verdicts = Object.freeze(c.verdicts.slice());
  C.inner = Object.freeze(c.inner.slice());
  C.rules = new Map(c.rules.map((r, i) => [`${r.family}:${r.name}`, i]));
  C.ruleList = Object.freeze(c.rules.map((r) => Object.freeze({ ...r })));
  C.types = new Map(c.rules.map((r, i) => [r, i]).filter(([r]) => r.family === 'elementwise').map(([r, i]) => [r.name, i]));
  C.modes = new Map(c.rules.map((r, i) => [r, i]).filter(([r]) => r.family === 'to').map(([r, i]) => [r.name, i]));
  C.namedRule = c.rules.findIndex((r) => r.family === 'named');
  C.numpyRule = C.types.get('numpy');
  C.actions = new Map(c.actions.map((a, i) => [a, i]));
  C.A = Object.freeze(Object.fromEntries(c.actions.map((a, i) => [a, i])));
  C.shapings = new Map(c.shapings.map((s, i) => [s, i]));
  C.limits = Object.freeze({ ...c.limits });
  C.REQ = indexOf(c.request);
  C.REQ_LEN = c.request.length;
  C.RESP = indexOf(c.response);
  C.RESP_LEN = c.response.length;
  C.version = M.version();
  C.ready = true;
  DTYPES = Object.freeze(C.dtypes.map((d) => d.name));
  return c;
}

/** The contract as the engine declared it (a plain copy, for tools and the cross-check test). */
export function contract() {
  if (!C.ready) throw new Error('tensorcast: call `await init()` (or initSync()) before using the library');
  return {
    version: C.version,
    statuses: [...C.statuses],
    dtypes: C.dtypes.map(({ name, short, array, kind, size }) => ({ name, short, array, kind, size })),
    ops: C.ops.map(({ name, kernel, bool, domain, simd }) => ({ name, kernel, result: bool ? 'bool' : 'same', domain, simd: [...simd] })),
    verdicts: [...C.verdicts],
    inner: [...C.inner],
    rules: C.ruleList.map((r) => ({ ...r })),
    shapings: [...C.shapings.keys()],
    limits: { ...C.limits },
  };
}

// The best plain-JavaScript broadcasting I can write: NumPy shape rule, the
// operands' strides with 0 on stretched axes, adjacent axes merged, and an
// inner loop specialised on its two strides (both contiguous / one operand
// constant along the row / general), generated per op and per dtype so that
// every loop stays monomorphic. Materialising uses TypedArray set/fill for the
// rows and copyWithin doubling for repeated blocks — memcpy from JS.

/** NumPy broadcasting of two shapes. */
export function broadcastShapes(a, b) {
  const n = Math.max(a.length, b.length);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const da = i - n + a.length >= 0 ? a[i - n + a.length] : 1;
    const db = i - n + b.length >= 0 ? b[i - n + b.length] : 1;
    if (da === db || db === 1) out[i] = da;
    else if (da === 1) out[i] = db;
    else throw new Error(`shapes [${a}] and [${b}] do not broadcast (axis ${i}: ${da} vs ${db})`);
  }
  return out;
}

function stridesFor(shape, outShape) {
  const n = outShape.length;
  const s = new Array(n).fill(0);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    const o = i + n - shape.length;
    s[o] = shape[i] === 1 && outShape[o] !== 1 ? 0 : acc;
    acc *= shape[i];
  }
  return s;
}

/**
 * The merged loop: dims (outer to inner) and, per operand, element strides.
 * Size-1 axes are dropped; axis i-1 merges into i when every operand's
 * stride satisfies s[i-1] == s[i] * dims[i].
 */
export function plan(outShape, shapes) {
  const strides = shapes.map((s) => stridesFor(s, outShape));
  const dims = [];
  const st = shapes.map(() => []);
  for (let i = 0; i < outShape.length; i++) {
    if (outShape[i] === 1) continue;
    const k = dims.length;
    if (k > 0 && strides.every((s, j) => s[i] * outShape[i] === st[j][k - 1] || (s[i] === 0 && st[j][k - 1] === 0))) {
      // merge axis i into the previous one
      for (let j = 0; j < strides.length; j++) st[j][k - 1] = strides[j][i];
      dims[k - 1] *= outShape[i];
      continue;
    }
    dims.push(outShape[i]);
    for (let j = 0; j < strides.length; j++) st[j].push(strides[j][i]);
  }
  if (dims.length === 0) {
    dims.push(1);
    for (const s of st) s.push(0);
  }
  return { dims, strides: st };
}

const OPS = { add: '+', sub: '-', mul: '*', div: '/' };
const kernels = new Map();

/** A fresh (monomorphic) kernel for op and dtype. */
function rowKernel(op, dtype) {
  const key = `${op}:${dtype}`;
  if (kernels.has(key)) return kernels.get(key);
  const o = OPS[op];
  // eslint-disable-next-line no-new-func
  const f = new Function('A', 'oa', 'B', 'ob', 'O', 'oo', 'n', 'sa', 'sb', `
    if (sa === 1 && sb === 1) { for (let i = 0; i < n; i++) O[oo + i] = A[oa + i] ${o} B[ob + i]; }
    else if (sa === 1 && sb === 0) { const b = B[ob]; for (let i = 0; i < n; i++) O[oo + i] = A[oa + i] ${o} b; }
    else if (sa === 0 && sb === 1) { const a = A[oa]; for (let i = 0; i < n; i++) O[oo + i] = a ${o} B[ob + i]; }
    else { for (let i = 0; i < n; i++) O[oo + i] = A[oa + i * sa] ${o} B[ob + i * sb]; }
  `);
  // eslint-disable-next-line no-new-func
  const driver = new Function('row', `return function run(A, B, O, dims, sa, sb) {
    const r = dims.length - 1;
    const n = dims[r], ia = sa[r], ib = sb[r];
    if (r === 0) { row(A, 0, B, 0, O, 0, n, ia, ib); return; }
    if (r === 1) {
      const m = dims[0], ja = sa[0], jb = sb[0];
      for (let i = 0, oa = 0, ob = 0, oo = 0; i < m; i++, oa += ja, ob += jb, oo += n) row(A, oa, B, ob, O, oo, n, ia, ib);
      return;
    }
    const idx = new Array(r).fill(0);
    let oa = 0, ob = 0, oo = 0;
    for (;;) {
      row(A, oa, B, ob, O, oo, n, ia, ib);
      oo += n;
      let k = r - 1;
      for (; k >= 0; k--) {
        oa += sa[k]; ob += sb[k];
        if (++idx[k] < dims[k]) break;
        oa -= sa[k] * dims[k]; ob -= sb[k] * dims[k]; idx[k] = 0;
      }
      if (k < 0) return;
    }
  };`)(f);
  kernels.set(key, driver);
  return driver;
}

const CTORS = { float32: Float32Array, float64: Float64Array, int32: Int32Array, uint8: Uint8Array, int8: Int8Array, int16: Int16Array, uint16: Uint16Array, uint32: Uint32Array };

/** out = a op b with NumPy broadcasting; allocates out when not given. */
export function binary(op, dtype, a, shapeA, b, shapeB, out) {
  const outShape = broadcastShapes(shapeA, shapeB);
  const p = plan(outShape, [shapeA, shapeB]);
  if (!out) out = new CTORS[dtype](outShape.reduce((x, y) => x * y, 1));
  rowKernel(op, dtype)(a, b, out, p.dims, p.strides[0], p.strides[1]);
  return out;
}

/** A broadcast op with its plan made once (kernel mode). */
export function binaryPrepared(op, dtype, shapeA, shapeB) {
  const outShape = broadcastShapes(shapeA, shapeB);
  const p = plan(outShape, [shapeA, shapeB]);
  const run = rowKernel(op, dtype);
  return (a, b, out) => run(a, b, out, p.dims, p.strides[0], p.strides[1]);
}

const scalarKernels = new Map();
/** out = a op s (s a number). */
export function scalar(op, dtype, a, s, out) {
  const key = `${op}:${dtype}`;
  let f = scalarKernels.get(key);
  if (!f) {
    // eslint-disable-next-line no-new-func
    f = new Function('A', 's', 'O', `const n = A.length; for (let i = 0; i < n; i++) O[i] = A[i] ${OPS[op]} s; return O;`);
    scalarKernels.set(key, f);
  }
  return f(a, s, out || new CTORS[dtype](a.length));
}

/** Materialise x (shape) broadcast to target (NumPy rule). */
export function broadcastTo(dtype, x, shape, target, out) {
  const outShape = broadcastShapes(shape, target);
  if (outShape.length !== target.length || outShape.some((d, i) => d !== target[i])) throw new Error('cannot broadcast');
  const n = target.reduce((p, d) => p * d, 1);
  if (!out) out = new CTORS[dtype](n);
  const { dims, strides: [sx] } = plan(target, [shape]);
  // Leading axes along which x is constant repeat one block: build the block,
  // then double it with copyWithin.
  let lead = 0;
  while (lead < dims.length - 1 && sx[lead] === 0) lead++;
  const reps = dims.slice(0, lead).reduce((p, d) => p * d, 1);
  const block = n / reps;
  fillBlock(x, out, dims.slice(lead), sx.slice(lead));
  for (let have = block; have < n;) {
    const take = Math.min(have, n - have);
    out.copyWithin(have, 0, take);
    have += take;
  }
  return out;
}

function fillBlock(x, out, dims, sx) {
  const r = dims.length - 1;
  const n = dims[r];
  const s = sx[r];
  const row = (ox, oo) => {
    if (s === 1) out.set(x.subarray(ox, ox + n), oo);
    else if (s === 0) out.fill(x[ox], oo, oo + n);
    else for (let i = 0; i < n; i++) out[oo + i] = x[ox + i * s];
  };
  if (r === 0) return row(0, 0);
  const idx = new Array(r).fill(0);
  let ox = 0;
  let oo = 0;
  for (;;) {
    row(ox, oo);
    oo += n;
    let k = r - 1;
    for (; k >= 0; k--) {
      ox += sx[k];
      if (++idx[k] < dims[k]) break;
      ox -= sx[k] * dims[k];
      idx[k] = 0;
    }
    if (k < 0) return;
  }
}

const copyKernels = new Map();
/**
 * Materialise with element loops only (no TypedArray set/fill/copyWithin):
 * the merged plan, the inner loop specialised on its stride (1 / 0 / other).
 */
export function broadcastToLoop(dtype, x, shape, target, out) {
  const n = target.reduce((p, d) => p * d, 1);
  if (!out) out = new CTORS[dtype](n);
  const { dims, strides: [sx] } = plan(target, [shape]);
  let run = copyKernels.get(dtype);
  if (!run) {
    // eslint-disable-next-line no-new-func
    run = new Function('X', 'O', 'dims', 'sx', `
      const r = dims.length - 1;
      const n = dims[r], s = sx[r];
      const row = (ox, oo) => {
        if (s === 1) { for (let i = 0; i < n; i++) O[oo + i] = X[ox + i]; }
        else if (s === 0) { const v = X[ox]; for (let i = 0; i < n; i++) O[oo + i] = v; }
        else { for (let i = 0; i < n; i++) O[oo + i] = X[ox + i * s]; }
      };
      if (r === 0) { row(0, 0); return; }
      const idx = new Array(r).fill(0);
      let ox = 0, oo = 0;
      for (;;) {
        row(ox, oo);
        oo += n;
        let k = r - 1;
        for (; k >= 0; k--) {
          ox += sx[k];
          if (++idx[k] < dims[k]) break;
          ox -= sx[k] * dims[k];
          idx[k] = 0;
        }
        if (k < 0) return;
      }
    `);
    copyKernels.set(dtype, run);
  }
  run(x, out, dims, sx);
  return out;
}

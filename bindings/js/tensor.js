// Resident tensors: data copied into wasm memory once, read in place by every
// op. Only the library makes a Tensor (tensor() and op results); what it holds
// is private, and its dims and coords are the library's own copies.
import { C } from './contract.js';
import { mod } from './loader.js';
import { BroadcastError, formatShape } from './errors.js';
import { readOptions } from './options.js';
import { bindTensor, handleOf, operand, reach, TENSOR_MARK, declaredDtype, notTypedArray, lengthError, taLength, isForeignTensor, foreignTensor, readOrt, ortDtype, halfValue, readNamed, checkLabels, readStaticShape, product, rowMajor } from './operands.js';
import { view, viewFor, heapCopy, malloc, free, copyView } from './execute.js';

export { handleOf };

const TOKEN = Symbol('tensorcast.Tensor');
let liveTensors = 0;
// A tensor's memory is its own until a view of it is made (reshape): then an
// allocation record { ptr, count } is shared by the tensor and every view over
// the same memory, each live Tensor counting once, and the memory is freed
// when the last one is disposed (or collected). A tensor without views keeps
// no record (nothing more is allocated per tensor in the hot path).
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((held) => {
    // Safety net only: the tensor was collected without dispose(). `held` is
    // its pointer, or the allocation record it shares with views.
    liveTensors--;
    const ptr = typeof held === 'number' ? held : --held.count === 0 ? held.ptr : 0;
    if (ptr !== 0) {
      try { mod()._tc_free(ptr); } catch { /* module gone */ }
    }
  })
  : null;
const disposeSymbol = Symbol.dispose ?? Symbol.for('Symbol.dispose');
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/** The allocation record a tensor shares with its views (made at its first view). */
let sharedAlloc;
/** A tensor's record even once disposed (its shape, dtype and names stay readable), or null for anything else. */
export let metaOf;

/** A tensor resident in WebAssembly memory (made by `tensor()` and by ops on resident operands). */
export class Tensor {
  // The library's record of this tensor: what operands and `out` read. One
  // object for the tensor's life (no allocation per use); null once disposed.
  // Nothing in the library writes to it.
  #h;
  // The allocation record shared with every view over the same memory; null
  // while the tensor has had no view (its memory is then its own).
  #alloc;

  static {
    // The reading stage (operands.js) reads tensors through these, and the running one (execute.js) makes them.
    bindTensor((x, what, of = '') => {
      // instanceof first: a cheap no for plain objects (a private-name check on
      // every operand's map is not). A tensor whose prototype was swapped is not one.
      if (!(x instanceof Tensor) || !(#h in x)) return null;
      if (x.#h === null) throw new TypeError(`${what ?? 'tensorcast: this tensor'}${of} has been disposed`);
      return x.#h;
    }, (t) => t.#h !== null, (x) => x instanceof Tensor, makeTensor);
    sharedAlloc = (t) => {
      if (t.#alloc === null) {
        t.#alloc = { ptr: t.#h.ptr, count: 1 };
        t.#h.shared = true;
        // The safety net now holds the shared record, not the bare pointer.
        if (registry) {
          registry.unregister(t);
          registry.register(t, t.#alloc, t);
        }
      }
      return t.#alloc;
    };
    metaOf = (x) => (x instanceof Tensor && #h in x ? x.#h ?? x.#gone : null);
  }

  /** Marks tensors of every tensorcast instance (see isForeignTensor). */
  get [TENSOR_MARK]() { return true; }

  /** @internal Only the library makes tensors: use tensor(data, shape). */
  constructor(token, ptr, shape, dtype, dims, coords, alloc, strides) {
    if (token !== TOKEN) throw new TypeError('tensorcast: use tensor(data, shape) to make a Tensor');
    // The record is private (handleOf is the library's own) and not frozen: a
    // frozen object or array has another V8 map than a plain operand's, and the
    // hot path would see two shapes of everything. Its getters hand out copies.
    const sh = shape.slice();
    const ds = dims ? Object.freeze(dims.slice()) : undefined;
    const cs = coords ? Object.freeze(Object.fromEntries(Object.entries(coords).map(([k, v]) => [k, Object.freeze(v.slice())]))) : undefined;
    const h = this.#h = operand(true, ptr, null, sh, dtype, product(sh), ds,
      ds ? Object.freeze(ds.map((d) => cs?.[String(d)] ?? null)) : undefined, cs, this, false);
    if (strides) { // a view that is not row-major (layout.js), and the elements it reaches from ptr: [lo, lo + span)
      const [lo, hi] = reach(sh, strides) ?? [0, -1];
      h.strides = strides.slice();
      h.lo = lo;
      h.span = hi - lo + 1;
    }
    if (alloc) h.shared = true;
    this.#alloc = alloc ?? null;
    if (alloc) alloc.count++;
    liveTensors++;
    registry?.register(this, alloc ?? ptr, this);
  }

  // Shape, dtype and names stay readable after dispose(); the data does not.
  #meta() { return this.#h ?? this.#gone; }
  #gone = null;

  get shape() { return this.#meta().shape.slice(); }
  get dtype() { return this.#meta().dtype.name; }
  get size() { return this.#meta().size; }
  get byteLength() { return this.#meta().size * this.#meta().dtype.size; }
  get disposed() { return this.#h === null; }
  get dims() { const d = this.#meta().dims; return d ? d.slice() : undefined; }
  get coords() { return this.#meta().coords; }

  /** Copy the data out into a new typed array (a view's elements in row-major order). */
  toArray() {
    const h = handleOf(this);
    const off = h.ptr / h.dtype.size;
    if (h.strides !== null) return copyView(view(h.dtype), off, h.shape, h.strides, new h.dtype.ctor(h.size), 0, null);
    return heapCopy(h.dtype, off, h.size);
  }

  /** Element strides of this tensor (row-major unless it is a view made by transpose, slice, flip, …). */
  get strides() {
    const m = this.#meta();
    return m.strides !== null ? m.strides.slice() : rowMajor(m.shape);
  }

  /**
   * The single value of a size-1 tensor (any shape: [], [1], [1, 1], ...), as
   * a JS number (a bigint for bigint64 / biguint64). Any other size is a
   * BroadcastError (INVALID_SHAPE) naming the size: reduce first (sum(t).item()) or copy all out with toArray().
   */
  item() {
    const h = handleOf(this);
    if (h.size !== 1) {
      throw new BroadcastError(`item(): the tensor ${formatShape(h.shape)} has ${h.size} elements, and item() reads a tensor of exactly one; `
        + 'reduce it first (sum(t).item(), mean(t).item()) or copy every element out with toArray()',
      { code: 'INVALID_SHAPE', shapes: [h.shape.slice()], dims: [h.size, 1] });
    }
    const v = view(h.dtype)[h.ptr / h.dtype.size];
    return h.dtype.bits ? halfValue(v) : v; // float16 held as bits where the runtime has no Float16Array
  }

  /**
   * Free the wasm memory now (once no view of it, see reshape(), is alive).
   * Disposing again does nothing (using it afterwards throws).
   */
  dispose() {
    if (this.#h === null) return;
    registry?.unregister(this);
    const a = this.#alloc;
    if (a === null) free(this.#h.ptr);
    else if (--a.count === 0) free(a.ptr);
    this.#gone = this.#h;
    this.#h = null;
    liveTensors--;
  }

  [disposeSymbol]() {
    this.dispose();
  }

  /** `Tensor float32 [2,3] [1, 2, 3, 4, 5, 6]` (the first 8 values). */
  toString() {
    const m = this.#meta();
    const head = `Tensor ${m.dtype.name} ${formatShape(m.shape)}${m.dims ? ` dims [${m.dims.join(', ')}]` : ''}`;
    if (this.#h === null) return `${head} (disposed)`;
    const off = m.ptr / m.dtype.size;
    const head8 = m.strides !== null ? this.toArray().subarray(0, 8) : view(m.dtype).subarray(off, off + Math.min(m.size, 8));
    const first = Array.from(head8, m.dtype.bits ? (h) => String(halfValue(h)) : String);
    return `${head} [${first.join(', ')}${m.size > 8 ? `, … ${m.size - 8} more` : ''}]`;
  }

  toJSON() {
    const m = this.#meta();
    return { dtype: m.dtype.name, shape: m.shape.slice(), ...(m.dims ? { dims: m.dims.slice() } : {}), disposed: this.#h === null };
  }

  [inspectSymbol]() {
    return this.toString();
  }

  get [Symbol.toStringTag]() { return 'Tensor'; }
}

/** Make a Tensor over `bytes` at `ptr` (the library's own allocation). */
export function makeTensor(ptr, shape, dtype, dims, coords) {
  return new Tensor(TOKEN, ptr, shape, dtype, dims, coords);
}

/**
 * A new Tensor over the memory of the tensor whose record is `h` (a view: it
 * shares the allocation, which is freed when the last tensor over it is
 * disposed), with `shape` (of h.size elements) and the given names.
 */
export function viewOf(h, shape, dims, coords, strides = null, ptr = h.ptr) {
  return new Tensor(TOKEN, ptr, shape, h.dtype, dims, coords, sharedAlloc(h.tensor), strides);
}

/**
 * `t` (a fresh result tensor the library made and nobody else holds) with
 * names: a view with them over its memory, `t` itself disposed (no copy).
 */
export function renamed(t, dims, coords) {
  const h = handleOf(t);
  const v = viewOf(h, h.shape, dims, coords);
  t.dispose();
  return v;
}

export function liveTensorCount() {
  return liveTensors;
}

/**
 * The names a tensor is made with (options { dims, coords } of tensor() and
 * reshape()), read once and checked against its static `shape`: { dims,
 * coords } (coords undefined when no dim has labels). `fn` names the call.
 */
export function readTensorNames(named, shape, fn) {
  const nd = readNamed({ dims: named.dims, shape, coords: named.coords }, 'options', fn);
  checkLabels(fn, 'options', nd.dims, nd.labels, [shape]);
  let coords;
  if (nd.labels.some((l) => l)) coords = Object.fromEntries(nd.dims.map((d, i) => [String(d), nd.labels[i]]).filter(([, l]) => l));
  return { dims: nd.dims, coords };
}

function tensorOfTensor(data) {
  if (isForeignTensor(data)) return foreignTensor('tensor(data)');
  return TypeError('tensor(data): data is already a Tensor. To give it another shape use reshape(t, shape) or t.reshape(shape) '
    + '(a view, no copy); to copy it, tensor(t.toArray(), shape)');
}

/**
 * Copy data into wasm memory once; ops on resident tensors read it in place.
 * @param {ArrayBufferView | {type: string, dims: readonly number[], data: ArrayBufferView}} data
 *   a typed array, or an onnxruntime Tensor (its data, of the dtype its type is read as)
 * @param {number[]} [shape] defaults to [data.length] (an onnxruntime Tensor: its dims)
 * @param {{dims?: (string|number)[], coords?: object}} [options]
 */
export function tensor(data, shape, options) {
  mod();
  // Every user value first (options, shape, dims: getters run now, once), the data's length last.
  const o = readOptions(options, 'tensor', ['dims', 'coords', 'dtype']);
  if (data instanceof Tensor || isForeignTensor(data)) throw tensorOfTensor(data);
  let ort = null;
  if (!ArrayBuffer.isView(data)) {
    // An onnxruntime Tensor: its data, its type, and its dims as the default shape.
    ort = data !== null && typeof data === 'object' && !Array.isArray(data) ? readOrt(data) : null;
    if (ort === null) throw notTypedArray(data, 'tensor(data)');
    data = ort.data;
    if (o.dtype !== undefined) throw new TypeError(`tensor: options.dtype is for a typed array; an onnxruntime Tensor's dtype is its type ('${ort.type}')`);
    if (shape === undefined) shape = ort.dims;
  }
  const dt = ort ? ortDtype(data, ort.type, 'tensor(data)') : declaredDtype(data, o.dtype, 'tensor: options');
  if (!dt) throw notTypedArray(data, 'tensor(data)');
  let s = shape === undefined ? null : readStaticShape(shape, 'tensor(shape)');
  let named = null;
  if (o.dims !== undefined) named = { dims: o.dims, coords: o.coords };
  else if (o.coords !== undefined) throw new TypeError('tensor: coords need dims (name the dims the coords label)');
  const len = taLength.call(data);
  if (s === null) s = [len];
  const n = product(s);
  if (n !== len) throw lengthError('tensor', 'tensor(data)', data, len, s, n);
  let dims;
  let coords;
  if (named) {
    ({ dims, coords } = readTensorNames(named, s, 'tensor'));
    if (taLength.call(data) !== len) throw new TypeError('tensor(data): the data changed length while its dims were read');
  }
  const bytes = n * dt.size;
  if (bytes > C.limits.maxBytes) {
    throw new BroadcastError(`tensor: ${bytes} bytes do not fit WebAssembly memory`, { code: 'TOO_LARGE', shapes: [s] });
  }
  const ptr = malloc(bytes);
  // From here the block is this call's: whatever fails gives it back.
  try {
    if (n > 0) (dt.half ? viewFor(dt, data) : view(dt)).set(data, ptr / dt.size);
    return makeTensor(ptr, s, dt, dims, coords);
  } catch (e) {
    free(ptr);
    throw e;
  }
}

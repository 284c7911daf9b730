// softmax, logSoftmax and logSumExp along an axis (post.js: how an axis is
// read into a contiguous block and written back). Apart from post.js because
// float16 goes through cast, whose module reaches the expressions: post.js
// stays free of them, so program.js can run argmax as an expression's last pass.
import { mod } from './loader.js';
import { handleOf } from './operands.js';
import { makeTensor } from './tensor.js';
import { cast } from './unary.js';
import { read, block, emit, check } from './post.js';
import { view, malloc, free } from './execute.js';
import { domainRefusal } from './errors.js';

// They take float dtypes only, refused as the float-only element-wise and unary ops refuse the others.
const FLOAT_ONLY = { domain: 'float' };

/** softmax (mode 0), logSoftmax (1), logSumExp (2, over axes) of x, read as `fn` reads it. */
function soft(x, axesIn, options, fn, mode) {
  const { X, axes, dest, o } = read(x, axesIn, options, fn, mode < 2 ? ['out'] : ['out', 'keepdims'], mode > 1);
  const keep = mode < 2 ? 'k' : o.keepdims ? 1 : 0;
  const refused = domainRefusal(FLOAT_ONLY, fn, X.dtype, X.shape);
  if (refused !== null) throw refused;
  const half = X.dtype.half;
  const b = block(X, axes, fn, half);
  const temps = b.own ? [b.ptr] : b.t ? [b.t] : []; // blocks to free, tensors to dispose
  try {
    let ptr = b.ptr;
    let dt = X.dtype;
    if (half) { // in float32, rounded once at the end (as the float16 ops are)
      if (b.own) temps[0] = makeTensor(b.ptr, [X.size], dt);
      const t = cast(temps[0], 'float32');
      temps.push(t);
      ({ ptr, dtype: dt } = handleOf(t));
    }
    const k = mode === 2 ? 1 : b.n;
    // Straight into a resident out that is the result's own contiguous block (not x's memory: logSoftmax reads x twice).
    if (mode < 2 && !half && dest !== null && dest.resident && dest.strides === null && !dest.dims && !dest.shared && dest.ptr !== X.ptr
      && dest.dtype === dt && dest.size === X.size && b.inOrder) {
      if (X.size > 0) check(mod()._tc_softmax(ptr, dest.ptr, b.rows, b.n, dt.id, mode), fn);
      return dest.tensor;
    }
    // softmax of a block of its own (a copy of x) runs in place: half the memory touched.
    let q = mode === 0 && (b.own || b.t) && !half ? ptr : malloc(b.rows * k * dt.size);
    if (q !== ptr) temps.push(q);
    if (b.rows > 0 && b.n > 0) check(mod()._tc_softmax(ptr, q, b.rows, b.n, dt.id, mode), fn);
    else if (mode === 2) view(dt).fill(-Infinity, q / dt.size, q / dt.size + b.rows); // log of an empty sum
    if (half) {
      temps[temps.length - 1] = makeTensor(q, [b.rows * k], dt);
      const t = cast(temps[temps.length - 1], 'float16');
      temps.push(t);
      ({ ptr: q, dtype: dt } = handleOf(t));
    }
    return emit(q, dt, X, b.perm, axes, k, keep, dest, fn, temps);
  } finally {
    for (const t of temps) if (typeof t === 'number') free(t); else t.dispose();
  }
}

/**
 * softmax along `axis` (default the last; a dim name for named operands):
 * exp(x - max) * (1 / sum(exp(x - max))), the same bits as those ops called
 * one by one (a row scaled by its sum's reciprocal, within 1 ulp of dividing).
 * Float dtypes (float16 computed in float32, rounded once).
 */
export function softmax(x, axis, options) {
  return soft(x, axis, options, 'softmax', 0);
}

/** log(softmax(x)) along `axis`, as (x - max) - log(sum(exp(x - max))): stable. */
export function logSoftmax(x, axis, options) {
  return soft(x, axis, options, 'logSoftmax', 1);
}

/**
 * log(sum(exp(x))) over `axes` (default all; numbers or dim names), without
 * overflow: m + log(sum(exp(x - m))), m the max (0 where it is not finite).
 * options.keepdims keeps the reduced axes as 1.
 */
export function logSumExp(x, axes, options) {
  return soft(x, axes, options, 'logSumExp', 2);
}

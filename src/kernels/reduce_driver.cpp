// The reduction driver: axes to a merged loop, the loop to row and col kernel
// calls, partial results combined pairwise. See reduce.hpp for the contract.
//
//   [8, 64, 56, 56] keeping axis 1 -> loop [8, 64, 3136] (R, K, R)
//   -> for each of the 8 outer indices: 64 row-kernel calls of 3136 elements
//      give a partial row of 64 results; the 8 partial rows are combined
//      pairwise (binary counter) into the output. One pass over the data.
//   [1024, 1024] keeping axis 1 -> loop [1024, 1024] (R, K): one col call.
//   [1024, 1024] keeping axis 0 -> loop [1024, 1024] (K, R): 1024 row calls.
#include <cstdint>
#include <cstring>
#include <limits>
#include "core/pod_vector.hpp"

#include "driver.hpp"
#include "half.hpp"
#include "reduce.hpp"
#include "scalar_ops.hpp"

namespace tc {

// ---- axes ----------------------------------------------------------------------------
Status normalize_axes(int rank, const i64* axes, int n, std::uint64_t& mask, Error& err) {
  err = Error{};
  mask = 0;
  if (rank < 0 || rank > kMaxRank) {
    err.code = Status::InvalidShape;
    return err.code;
  }
  for (int i = 0; i < n; ++i) {
    const i64 v = axes[i];
    const i64 a = v < 0 ? v + rank : v;
    const bool in_range = v >= -static_cast<i64>(rank) && v < rank;
    if (!in_range || (mask >> a & 1u)) {
      err.code = Status::InvalidAxis;
      err.axis = i;
      err.detail = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : static_cast<int>(v);
      err.dim_a = Dim::fixed(rank);
      mask = 0;
      return err.code;
    }
    mask |= std::uint64_t{1} << a;
  }
  return Status::Ok;
}

Status reduce_out_shape(const Shape& in, std::uint64_t mask, bool keepdims, Shape& out) {
  if (!in.rank_known() || in.rank < 0 || in.rank > kMaxRank) return Status::InvalidShape;
  if (in.rank < 64 && (mask >> in.rank) != 0) return Status::InvalidAxis;
  out = Shape{};
  for (int a = 0; a < in.rank; ++a) {
    if (mask >> a & 1u) {
      if (keepdims) out.push(Dim::fixed(1));
    } else {
      out.push(in.dims[a]);
    }
  }
  return Status::Ok;
}

i64 reduce_count(const Shape& in, std::uint64_t mask) {
  i64 n = 1;
  for (int a = 0; a < in.rank; ++a)
    if (mask >> a & 1u) n = sat_mul(n, in.dims[a].lo);
  return n;
}

// ---- the driver ------------------------------------------------------------------------
namespace {

// Partial results of `width` elements combined pairwise as they arrive (a
// binary counter: two partials of the same level merge into one of the next),
// then the rest from the newest to the oldest.
class PairStack {
 public:
  PairStack(BinaryKernel merge, size_t es) : merge_(merge), es_(es) {}

  // Room for `pushes` partials of `width` elements.
  void reset(size_t width, size_t pushes) {
    width_ = width;
    depth_ = 0;
    int levels = 2;
    while (pushes > 1) { pushes >>= 1; ++levels; }
    const size_t need = static_cast<size_t>(levels) * width * es_;
    if (buf_.size() < need) buf_.resize(need);
  }
  // Where the next partial goes.
  void* slot() { return at(depth_); }
  void commit() {
    level_[depth_++] = 0;
    while (depth_ >= 2 && level_[depth_ - 1] == level_[depth_ - 2]) {
      merge_(at(depth_ - 2), at(depth_ - 1), at(depth_ - 2), width_);
      ++level_[depth_ - 2];
      --depth_;
    }
  }
  void finish(void* out) {
    for (int i = depth_ - 1; i >= 2; --i) merge_(at(i - 1), at(i), at(i - 1), width_);
    if (depth_ >= 2) merge_(at(0), at(1), out, width_);
    else if (depth_ == 1) std::memcpy(out, at(0), width_ * es_);
  }

 private:
  char* at(int i) { return buf_.data() + static_cast<size_t>(i) * width_ * es_; }
  BinaryKernel merge_;
  size_t es_;
  size_t width_ = 0;
  int depth_ = 0;
  int level_[72] = {};
  PodVector<char> buf_;
};

// An odometer over a list of (extent, stride) axes: the element offsets of
// every index tuple in row-major order.
struct Axes {
  int n = 0;
  i64 ext[kMaxRank];
  i64 stride[kMaxRank];
  i64 count() const {
    i64 c = 1;
    for (int i = 0; i < n; ++i) c *= ext[i];
    return c;
  }
  template <typename F>
  void each(F&& f) const {
    // Only the axes in use are cleared (LLVM makes this a memory.fill, which
    // V8 runs as a call out of the module; none when n is 0). Not `= {0}`: a
    // 256-byte memory.fill on every call.
    i64 idx[kMaxRank];
    for (int d = 0; d < n; ++d) idx[d] = 0;
    i64 off = 0;
    const i64 total = count();
    for (i64 k = 0; k < total; ++k) {
      f(off);
      for (int d = n - 1; d >= 0; --d) {
        off += stride[d];
        if (++idx[d] < ext[d]) break;
        off -= stride[d] * ext[d];
        idx[d] = 0;
      }
    }
  }
};

// Bytes of acc-typed scratch for converted elements.
constexpr size_t kConvBytes = 32768;

struct Run {
  DType in_dt, acc_dt;
  size_t es_in, es_acc;
  bool convert;
  ReduceRowKernel row;
  ReduceColKernel col;
  BinaryKernel merge;
  const char* x;
  char* out;
  PodVector<char> scratch;

  PodVector<char> gathered;  // a view's strided elements, before their conversion

  const char* in_at(i64 elem) const { return x + elem * static_cast<i64>(es_in); }

  // Elements that fit the scratch: kConvBytes of either dtype.
  i64 cap() const { return static_cast<i64>(kConvBytes / (es_in > es_acc ? es_in : es_acc)); }

  // n (<= cap()) input elements from `off`, `s` apart, as contiguous acc-typed
  // elements: in place where they already are, else gathered and converted.
  char* to(char* dst, i64 off, i64 s, i64 n) {
    const char* src = in_at(off);
    if (s != 1) {
      char* g = convert ? gathered.data() : dst;
      for (i64 i = 0; i < n; ++i) std::memcpy(g + i * static_cast<i64>(es_in), src + i * s * static_cast<i64>(es_in), es_in);
      src = g;
    }
    if (convert) convert_elements(in_dt, acc_dt, src, dst, static_cast<size_t>(n));
    else if (s == 1) std::memcpy(dst, src, static_cast<size_t>(n) * es_in);
    return dst;
  }

  // One row of c input elements, `s` apart (1: contiguous), to one acc-typed result.
  void row_of(i64 off, i64 c, i64 s, void* dst, PairStack* chunks) {
    if (!convert && s == 1) {
      row(in_at(off), static_cast<size_t>(c), dst);
      return;
    }
    const i64 k0 = cap();
    if (c <= k0) {
      row(to(scratch.data(), off, s, c), static_cast<size_t>(c), dst);
      return;
    }
    chunks->reset(1, static_cast<size_t>((c + k0 - 1) / k0));
    for (i64 i = 0; i < c; i += k0) {
      const i64 k = c - i < k0 ? c - i : k0;
      row(to(scratch.data(), off + i * s, s, k), static_cast<size_t>(k), chunks->slot());
      chunks->commit();
    }
    chunks->finish(dst);
  }
};

}  // namespace

Status run_reduce(const Shape& in, std::uint64_t mask, ReduceOp op, DType in_dt, DType acc_dt, const void* in_data,
                  void* out, Error* err, const i64* in_strides) {
  Error local;
  Error& e = err ? *err : local;
  e = Error{};
  auto fail = [&](Status s, int axis, int detail, Dim d) {
    e.code = s;
    e.axis = axis;
    e.detail = detail;
    e.dim_a = d;
    e.operand_a = 0;
    return s;
  };
  if (op >= ReduceOp::count || in_dt >= DType::count || acc_dt >= DType::count)
    return fail(Status::DtypeMismatch, -1, -1, Dim{-1, -1});
  if (!in.is_static() || in.rank > kMaxRank) return fail(Status::InvalidShape, -1, -1, Dim{-1, -1});
  const int rank = in.rank;
  if (in_strides != nullptr) {  // a view that is row-major after all: the contiguous path
    i64 acc = 1;
    bool row_major = true;
    for (int a = rank - 1; a >= 0; --a) {
      if (in.dims[a].lo != 1 && in_strides[a] != acc) row_major = false;
      acc *= in.dims[a].lo;
    }
    if (row_major) in_strides = nullptr;
  }
  // float16 results go through a contiguous float16 copy (below): the caller gives a row-major input.
  if (acc_dt == DType::f16 && in_strides != nullptr) return fail(Status::InvalidShape, -1, -1, Dim{-1, -1});
  if (acc_dt == DType::f16) {
    // float16 results are computed in float32 and rounded once on store (as
    // NumPy does): inputs of another dtype are first stored as float16 (a
    // typed-array store), then the float32 reduction of those, then the round.
    if (in_dt != DType::f16) {
      i64 n = 1;
      for (int a = 0; a < in.rank; ++a) n *= in.dims[a].lo;
      PodVector<Half> h(static_cast<size_t>(n));
      convert_elements(in_dt, DType::f16, in_data, h.data(), static_cast<size_t>(n));
      return run_reduce(in, mask, op, DType::f16, DType::f16, h.data(), out, err);
    }
    i64 n_out = 1;
    for (int a = 0; a < in.rank; ++a)
      if (!(a < 64 && (mask >> a & 1u))) n_out *= in.dims[a].lo;
    PodVector<float> acc(static_cast<size_t>(n_out));
    const Status s = run_reduce(in, mask, op, DType::f16, DType::f32, in_data, acc.data(), &e);
    if (s == Status::Ok) find_float_to_half()(acc.data(), static_cast<uint16_t*>(out), acc.size());
    return s;
  }
  if (rank < 64 && (mask >> rank) != 0) {
    int bit = rank;
    while (!(mask >> bit & 1u)) ++bit;
    return fail(Status::InvalidAxis, bit, -1, Dim{-1, -1});
  }
  i64 out_size = 1, count = 1;
  int zero_axis = -1;
  for (int a = 0; a < rank; ++a) {
    const i64 d = in.dims[a].lo;
    if (mask >> a & 1u) {
      count *= d;
      if (d == 0 && zero_axis < 0) zero_axis = a;
    } else {
      out_size *= d;
    }
  }
  const ReduceOp kop = reduce_kernel_op(op);
  // min/max of no elements has no value, even where the result has no cells
  // either ([0, 0] over axis 0 gives [0]): NumPy refuses both.
  if (count == 0 && kop != ReduceOp::sum && kop != ReduceOp::prod)
    return fail(Status::InvalidAxis, zero_axis, kDetailEmptyReduction, Dim::fixed(0));
  if (out_size == 0) return Status::Ok;
  if (count == 0) {
    switch (kop) {
      case ReduceOp::sum:
        fill_value(acc_dt, out, out_size, op == ReduceOp::mean ? std::numeric_limits<double>::quiet_NaN() : 0.0);
        return Status::Ok;
      case ReduceOp::prod: fill_value(acc_dt, out, out_size, 1.0); return Status::Ok;
      default: return fail(Status::InvalidAxis, zero_axis, kDetailEmptyReduction, Dim::fixed(0));
    }
  }

  // Merged loop: size-1 axes dropped, neighbours that are both reduced or both
  // kept merged (a view's: only where contiguous). stride: each merged axis's
  // element stride in the input (its innermost axis's).
  int m = 0;
  i64 len[kMaxRank];
  bool red[kMaxRank];
  i64 stride[kMaxRank];
  {
    i64 own[kMaxRank];
    i64 acc = 1;
    for (int a = rank - 1; a >= 0; --a) {
      own[a] = in_strides ? in_strides[a] : acc;
      acc *= in.dims[a].lo;
    }
    for (int a = 0; a < rank; ++a) {
      const i64 d = in.dims[a].lo;
      if (d == 1) continue;
      const bool r = (mask >> a & 1u) != 0;
      if (m > 0 && red[m - 1] == r && stride[m - 1] == own[a] * d) {
        len[m - 1] *= d;
        stride[m - 1] = own[a];
      } else {
        len[m] = d;
        red[m] = r;
        stride[m] = own[a];
        ++m;
      }
    }
  }
  if (m == 0) {  // one element: keep it
    len[0] = 1;
    red[0] = false;
    stride[0] = 1;
    m = 1;
  }

  Run run;
  run.in_dt = in_dt;
  run.acc_dt = acc_dt;
  run.es_in = dtype_size(in_dt);
  run.es_acc = dtype_size(acc_dt);
  run.convert = in_dt != acc_dt;
  run.row = find_reduce_row(acc_dt, kop);
  run.col = find_reduce_col(acc_dt, kop);
  run.merge = find_kernel(acc_dt, reduce_merge_op(kop), Form::vv);
  run.x = static_cast<const char*>(in_data);
  run.out = static_cast<char*>(out);
  if (!run.row || !run.col || !run.merge) return fail(Status::DtypeMismatch, -1, -1, Dim{-1, -1});
  if (run.convert || in_strides) run.scratch.resize(kConvBytes);
  if (run.convert && in_strides) run.gathered.resize(kConvBytes);

  // t: the innermost kept axis (-1: everything is reduced).
  int t = m - 1;
  while (t >= 0 && red[t]) --t;
  const bool r_inner = t < m - 1;
  const i64 b = t >= 0 ? len[t] : 1;       // results per segment
  const i64 c = r_inner ? len[m - 1] : 1;  // R-inner: row length
  const i64 ks = t >= 0 ? stride[t] : 0;   // the stride between results' inputs (K-inner: along the row)
  const i64 cs = r_inner ? stride[m - 1] : 1;
  // K-inner: the R axis before t is the rows of the col kernel.
  const bool has_rows = !r_inner && t >= 1 && red[t - 1];
  const i64 a = has_rows ? len[t - 1] : 1;
  // Every other axis: kept ones (all before t) are segments, reduced ones
  // partials. Row-major, those are the axes before t (R-inner) or t - 1; a
  // view's axes that do not merge may also stand between (kept beside kept,
  // reduced beside reduced), and go the same way.
  const int row_axis = r_inner ? m - 1 : has_rows ? t - 1 : -1;
  Axes seg, combos;  // outer kept axes (segments), outer reduced axes (partials)
  for (int d = 0; d < m; ++d) {
    if (d == t || d == row_axis) continue;
    Axes& ax = red[d] ? combos : seg;
    ax.ext[ax.n] = len[d];
    ax.stride[ax.n] = stride[d];
    ++ax.n;
  }
  const i64 p = combos.count();
  PairStack stack(run.merge, run.es_acc);
  PairStack chunks(run.merge, run.es_acc);
  const i64 esa = static_cast<i64>(run.es_acc);
  i64 s = 0;  // segment index
  // After either order: a float sum's -0 results become +0 (NumPy's sums start
  // from +0), and a mean divides.
  const auto finish = [&] {
    if (kop == ReduceOp::sum) sum_zero_sign(acc_dt, out, out_size);
    if (op == ReduceOp::mean) divide_elements(acc_dt, out, out_size, count);
    return Status::Ok;
  };

  // Many rows shorter than the row kernel's accumulators (64 bytes of them),
  // which it folds element by element in order: tiles of them transposed
  // into the scratch and reduced as columns, whose leaf folds its rows in that
  // same order (reduce_pairwise.hpp col_pairwise: up to 64 bytes of rows), so
  // the row kernel's bits at a call per tile, not per row ([50176, 3] summed
  // over its rows: 0.41 ms, 5x a plain-JS loop).
  if (r_inner && p == 1 && !run.convert && c * esa < 64 && b >= 8) {
    const i64 w = static_cast<i64>(kConvBytes) / (c * esa);
    run.scratch.resize(kConvBytes);
    seg.each([&](i64 seg_off) {
      for (i64 j0 = 0; j0 < b; j0 += w) {
        const i64 n = b - j0 < w ? b - j0 : w;
        gather_tile(run.scratch.data(), run.in_at(seg_off + j0 * ks), ks, cs, run.es_in, c, n);
        run.col(run.scratch.data(), static_cast<size_t>(c), static_cast<size_t>(n), static_cast<size_t>(n),
                run.out + (s * b + j0) * esa);
      }
      ++s;
    });
    return finish();
  }
  if (r_inner) {
    seg.each([&](i64 seg_off) {
      char* dst = run.out + s * b * esa;
      if (p == 1) {
        for (i64 k = 0; k < b; ++k) run.row_of(seg_off + k * ks, c, cs, dst + k * esa, &chunks);
      } else {
        stack.reset(static_cast<size_t>(b), static_cast<size_t>(p));
        combos.each([&](i64 off) {
          char* v = static_cast<char*>(stack.slot());
          for (i64 k = 0; k < b; ++k) run.row_of(seg_off + off + k * ks, c, cs, v + k * esa, &chunks);
          stack.commit();
        });
        stack.finish(dst);
      }
      ++s;
    });
    return finish();
  }

  // K-inner: blocks of `a` rows of `b` elements (`ks` apart), rows `rs` apart.
  const i64 rs = has_rows ? stride[t - 1] : b;
  if (!run.convert && ks == 1 && rs >= b) {
    seg.each([&](i64 seg_off) {
      char* dst = run.out + s * b * esa;
      if (p == 1) {
        run.col(run.in_at(seg_off), static_cast<size_t>(a), static_cast<size_t>(b), static_cast<size_t>(rs), dst);
      } else {
        stack.reset(static_cast<size_t>(b), static_cast<size_t>(p));
        combos.each([&](i64 off) {
          run.col(run.in_at(seg_off + off), static_cast<size_t>(a), static_cast<size_t>(b), static_cast<size_t>(rs),
                  stack.slot());
          stack.commit();
        });
        stack.finish(dst);
      }
      ++s;
    });
  } else {
    // Converted (or gathered) tiles of at most kConvBytes: wc columns by ar rows.
    const i64 cap = run.cap();
    const i64 wc = b < cap / 8 ? b : cap / 8;
    const i64 ar = cap / wc;
    seg.each([&](i64 seg_off) {
      for (i64 j0 = 0; j0 < b; j0 += wc) {
        const i64 w = b - j0 < wc ? b - j0 : wc;
        stack.reset(static_cast<size_t>(w), static_cast<size_t>(p * ((a + ar - 1) / ar)));
        combos.each([&](i64 off) {
          for (i64 r0 = 0; r0 < a; r0 += ar) {
            const i64 rr = a - r0 < ar ? a - r0 : ar;
            for (i64 r = 0; r < rr; ++r) run.to(run.scratch.data() + r * w * esa, seg_off + off + (r0 + r) * rs + j0 * ks, ks, w);
            run.col(run.scratch.data(), static_cast<size_t>(rr), static_cast<size_t>(w), static_cast<size_t>(w),
                    stack.slot());
            stack.commit();
          }
        });
        stack.finish(run.out + (s * b + j0) * esa);
      }
      ++s;
    });
  }
  return finish();
}

}  // namespace tc

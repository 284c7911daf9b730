// Scalar reference reduction kernels: the oracle every SIMD reduction kernel
// is tested against, and the fallback where no SIMD kernel exists. They follow
// the order of reduce_pairwise.hpp exactly (the SIMD kernels do too).
// Registry and dispatch over both tables: reduce_registry.cpp.
#include <array>
#include <utility>

#include "reduce_pairwise.hpp"
#include "simd_coverage.hpp"

namespace tc {

namespace {

// ---- row -------------------------------------------------------------------------
// Float sums and products: blocks combined by the binary counter, then the
// lanes halved (reduce_pairwise.hpp). Returns the result of x[0, *end).
template <DType D, ReduceOp op>
typename Storage<D>::T ref_row_blocks(const typename Storage<D>::T* x, size_t n, size_t* end) {
  using T = typename Storage<D>::T;
  constexpr size_t L = reduce::kLanes<T>;
  constexpr size_t K = reduce::kRowAcc<T>;
  constexpr size_t V = reduce::kRowVecs;
  constexpr size_t B = reduce::kRowBlock<T>;
  using Vec = std::array<T, L>;
  auto merge = [](const Vec& a, const Vec& b) {
    Vec v;
    for (size_t l = 0; l < L; ++l) v[l] = reduce::apply<D, op>(a[l], b[l]);
    return v;
  };
  reduce::PairCounter<Vec> counter;
  size_t i = 0;
  while (n - i >= K) {
    const size_t m = n - i >= B ? B : (n - i) / K * K;
    T acc[K];
    for (size_t k = 0; k < K; ++k) acc[k] = x[i + k];
    for (size_t j = K; j < m; j += K)
      for (size_t k = 0; k < K; ++k) acc[k] = reduce::apply<D, op>(acc[k], x[i + j + k]);
    for (size_t st = 1; st < V; st *= 2)  // the vectors, lane-wise, as a tree
      for (size_t v = 0; v + st < V; v += 2 * st)
        for (size_t l = 0; l < L; ++l) acc[v * L + l] = reduce::apply<D, op>(acc[v * L + l], acc[(v + st) * L + l]);
    Vec w;
    for (size_t l = 0; l < L; ++l) w[l] = acc[l];
    counter.push(w, merge);
    i += m;
  }
  Vec w = counter.total(merge);
  for (size_t s = L / 2; s >= 1; s /= 2)
    for (size_t l = 0; l < s; ++l) w[l] = reduce::apply<D, op>(w[l], w[l + s]);
  *end = i;
  return w[0];
}

template <DType D, ReduceOp op>
void ref_row(const void* px, size_t n, void* out) {
  using T = typename Storage<D>::T;
  const T* x = static_cast<const T*>(px);
  T r = x[0];
  size_t i = 1;
  if constexpr (reduce::order_matters<D, op>()) {
    if (n >= reduce::kRowAcc<T>) r = ref_row_blocks<D, op>(x, n, &i);
  }
  // the last elements one by one (or, for ops where the order does not
  // matter, all of them)
  for (; i < n; ++i) r = reduce::apply<D, op>(r, x[i]);
  *static_cast<T*>(out) = r;
}

// ---- col -------------------------------------------------------------------------
// Float sums and products in the skeleton's order per column (leaves walk
// whole rows, 64 columns at a time); the rest row after row. Both keep the
// reference cache-friendly where it is the fallback.
template <DType D, ReduceOp op>
void ref_col(const void* px, size_t rows, size_t n, size_t stride, void* po) {
  using T = typename Storage<D>::T;
  const T* x = static_cast<const T*>(px);
  T* dst = static_cast<T*>(po);
  if constexpr (!reduce::order_matters<D, op>()) {  // any order: row after row
    for (size_t j = 0; j < n; ++j) dst[j] = x[j];
    for (size_t i = 1; i < rows; ++i)
      for (size_t j = 0; j < n; ++j) dst[j] = reduce::apply<D, op>(dst[j], x[i * stride + j]);
  } else {
    auto leaf = [](const T* p, size_t r, size_t w, size_t st, T* d, bool into) {
      T acc[64];  // up to 64 columns at a time, rows combined in order
      for (size_t j0 = 0; j0 < w; j0 += 64) {
        const size_t c = w - j0 < 64 ? w - j0 : 64;
        for (size_t j = 0; j < c; ++j) acc[j] = p[j0 + j];
        for (size_t i = 1; i < r; ++i) {
          const T* row = p + i * st + j0;
          for (size_t j = 0; j < c; ++j) acc[j] = reduce::apply<D, op>(acc[j], row[j]);
        }
        for (size_t j = 0; j < c; ++j) d[j0 + j] = into ? reduce::apply<D, op>(d[j0 + j], acc[j]) : acc[j];
      }
    };
    auto merge = [](T* d, const T* t, size_t w) {
      for (size_t j = 0; j < w; ++j) d[j] = reduce::apply<D, op>(d[j], t[j]);
    };
    reduce::col_run<T>(x, rows, n, stride, dst, leaf, merge);
  }
}

// ---- tables: [dtype][kernel op] ----------------------------------------------------
constexpr size_t kOps = static_cast<size_t>(kReduceKernelOps);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;

template <size_t I>
constexpr ReduceRowKernel ref_row_entry() {
  constexpr DType D = static_cast<DType>(I / kOps);
  constexpr ReduceOp O = static_cast<ReduceOp>(I % kOps);
  if constexpr (D == DType::f16) return nullptr;  // float16 reduces in float32 (run_reduce)
  else if constexpr (simd::kLean && simd::reduce<D, O>()) return nullptr;
  else return &ref_row<reduce::kernel_dtype<D, O>(), O>;
}
template <size_t I>
constexpr ReduceColKernel ref_col_entry() {
  constexpr DType D = static_cast<DType>(I / kOps);
  constexpr ReduceOp O = static_cast<ReduceOp>(I % kOps);
  if constexpr (D == DType::f16) return nullptr;  // float16 reduces in float32 (run_reduce)
  else if constexpr (simd::kLean && simd::reduce<D, O>()) return nullptr;
  else return &ref_col<reduce::kernel_dtype<D, O>(), O>;
}
template <size_t... I>
constexpr std::array<ReduceRowKernel, kEntries> make_row_table(std::index_sequence<I...>) {
  return {ref_row_entry<I>()...};
}
template <size_t... I>
constexpr std::array<ReduceColKernel, kEntries> make_col_table(std::index_sequence<I...>) {
  return {ref_col_entry<I>()...};
}

}  // namespace

const ReduceRowKernel* reduce_reference_row_table() {
  static constexpr std::array<ReduceRowKernel, kEntries> table = make_row_table(std::make_index_sequence<kEntries>{});
  return table.data();
}
const ReduceColKernel* reduce_reference_col_table() {
  static constexpr std::array<ReduceColKernel, kEntries> table = make_col_table(std::make_index_sequence<kEntries>{});
  return table.data();
}

#if !defined(TC_HAVE_SIMD)
const ReduceRowKernel* reduce_simd_row_table() { return nullptr; }
const ReduceColKernel* reduce_simd_col_table() { return nullptr; }
ExpSumRowKernel find_exp_sum_row(DType) { return nullptr; }
ProductRowKernel find_product_row(DType) { return nullptr; }
#endif

}  // namespace tc

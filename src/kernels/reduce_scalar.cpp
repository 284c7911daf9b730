// Scalar reference reduction kernels: the oracle every SIMD reduction kernel
// is tested against, and the fallback where no SIMD kernel exists. They follow
// the order of reduce_pairwise.hpp exactly (the SIMD kernels do too).
// Registry and dispatch over both tables: reduce_registry.cpp.
#include <array>
#include <utility>

#include "reduce_pairwise.hpp"

namespace tc {

namespace {

// ---- row -------------------------------------------------------------------------
template <DType D, ReduceOp op>
typename Storage<D>::T ref_row_leaf(const typename Storage<D>::T* x, size_t n) {
  using T = typename Storage<D>::T;
  constexpr size_t L = reduce::kLanes<T>;
  constexpr size_t K = reduce::kRowAcc<T>;
  if (n < K) {
    T r = x[0];
    for (size_t i = 1; i < n; ++i) r = reduce::apply<D, op>(r, x[i]);
    return r;
  }
  T acc[K];
  for (size_t k = 0; k < K; ++k) acc[k] = x[k];
  size_t i = K;
  for (; i + K <= n; i += K)
    for (size_t k = 0; k < K; ++k) acc[k] = reduce::apply<D, op>(acc[k], x[i + k]);
  T w[L];
  for (size_t l = 0; l < L; ++l)
    w[l] = reduce::apply<D, op>(reduce::apply<D, op>(acc[l], acc[L + l]),
                                reduce::apply<D, op>(acc[2 * L + l], acc[3 * L + l]));
  for (size_t s = L / 2; s >= 1; s /= 2)
    for (size_t l = 0; l < s; ++l) w[l] = reduce::apply<D, op>(w[l], w[l + s]);
  T r = w[0];
  for (; i < n; ++i) r = reduce::apply<D, op>(r, x[i]);
  return r;
}

template <DType D, ReduceOp op>
void ref_row(const void* px, size_t n, void* out) {
  using T = typename Storage<D>::T;
  const T* x = static_cast<const T*>(px);
  auto leaf = [](const T* p, size_t m) { return ref_row_leaf<D, op>(p, m); };
  auto f = [](T a, T b) { return reduce::apply<D, op>(a, b); };
  T r;
  if constexpr (reduce::is_pairwise<D, op>()) r = reduce::row_pairwise<T>(x, n, leaf, f);
  else r = leaf(x, n);
  *static_cast<T*>(out) = r;
}

// ---- col -------------------------------------------------------------------------
// Row by row (the order per column is the skeleton's; walking whole rows keeps
// the reference cache-friendly where it is the fallback).
template <DType D, ReduceOp op>
void ref_col(const void* px, size_t rows, size_t n, size_t stride, void* po) {
  using T = typename Storage<D>::T;
  auto leaf = [](const T* x, size_t r, size_t w, size_t st, T* dst) {
    for (size_t j = 0; j < w; ++j) dst[j] = x[j];
    for (size_t i = 1; i < r; ++i) {
      const T* row = x + i * st;
      for (size_t j = 0; j < w; ++j) dst[j] = reduce::apply<D, op>(dst[j], row[j]);
    }
  };
  auto merge = [](T* dst, const T* t, size_t w) {
    for (size_t j = 0; j < w; ++j) dst[j] = reduce::apply<D, op>(dst[j], t[j]);
  };
  reduce::col_run<T>(static_cast<const T*>(px), rows, n, stride, static_cast<T*>(po), leaf, merge);
}

// ---- tables: [dtype][kernel op] ----------------------------------------------------
constexpr size_t kOps = static_cast<size_t>(kReduceKernelOps);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;

template <size_t I>
constexpr ReduceRowKernel ref_row_entry() {
  return &ref_row<static_cast<DType>(I / kOps), static_cast<ReduceOp>(I % kOps)>;
}
template <size_t I>
constexpr ReduceColKernel ref_col_entry() {
  return &ref_col<static_cast<DType>(I / kOps), static_cast<ReduceOp>(I % kOps)>;
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
#endif

}  // namespace tc

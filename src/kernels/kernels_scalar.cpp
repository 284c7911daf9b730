// Scalar reference kernels: the oracle every SIMD kernel is tested against,
// and the fallback where no SIMD kernel exists. Same section order as
// kernels_wasmsimd.cpp: element loop, table, select (where) loop and table.
// The registry and dispatch over both tables are in registry.cpp.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "scalar_ops.hpp"

#if defined(__clang__)
#define TC_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define TC_SCALAR_LOOP
#endif

namespace tc {

// ---- element loop --------------------------------------------------------------
// One strided loop per (dtype, op); the three forms are thin entry points
// into it (stride 0 = a scalar operand), which keeps the wasm small.
template <DType D, Op op>
[[gnu::noinline]] void ref_loop(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n) {
  using T = typename Storage<D>::T;
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  auto* o = static_cast<OutT<D, op>*>(po);
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) o[i] = ops::apply<D, op>(a[i * sa], b[i * sb]);
}

template <DType D, Op op, Form f>
void ref_kernel(const void* pa, const void* pb, void* po, size_t n) {
  ref_loop<D, op>(pa, f == Form::sv ? 0 : 1, pb, f == Form::vs ? 0 : 1, po, n);
}

// ---- table: [dtype][op][form] ----------------------------------------------------
constexpr size_t kOps = static_cast<size_t>(Op::count);
constexpr size_t kForms = static_cast<size_t>(Form::count);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps * kForms;

template <size_t I>
constexpr BinaryKernel ref_entry() {
  constexpr DType D = static_cast<DType>(I / (kOps * kForms));
  constexpr Op O = static_cast<Op>((I / kForms) % kOps);
  constexpr Form F = static_cast<Form>(I % kForms);
  if constexpr (!defined_for(D, O)) return nullptr;
  else return &ref_kernel<kernel_dtype(D, O), O, F>;
}

template <size_t... I>
constexpr std::array<BinaryKernel, kEntries> make_ref_table(std::index_sequence<I...>) {
  return {ref_entry<I>()...};
}

const BinaryKernel* reference_table() {
  static constexpr std::array<BinaryKernel, kEntries> table = make_ref_table(std::make_index_sequence<kEntries>{});
  return table.data();
}

// ---- select (where) ------------------------------------------------------------------
// One loop per element width; x and y strides are 0 (one element) or 1.
template <typename U, SelectForm F>
void ref_select(const uint8_t* m, const void* px, const void* py, void* po, size_t n) {
  const U* x = static_cast<const U*>(px);
  const U* y = static_cast<const U*>(py);
  U* o = static_cast<U*>(po);
  constexpr size_t sx = (F == SelectForm::sv || F == SelectForm::ss) ? 0 : 1;
  constexpr size_t sy = (F == SelectForm::vs || F == SelectForm::ss) ? 0 : 1;
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) o[i] = m[i] ? x[i * sx] : y[i * sy];
}

constexpr size_t kSelectForms = static_cast<size_t>(SelectForm::count);

template <typename U>
constexpr std::array<SelectKernel, kSelectForms> ref_select_row() {
  return {&ref_select<U, SelectForm::vv>, &ref_select<U, SelectForm::vs>, &ref_select<U, SelectForm::sv>,
          &ref_select<U, SelectForm::ss>};
}

const SelectKernel* reference_select_table() {
  static const std::array<std::array<SelectKernel, kSelectForms>, 4> table = {
      ref_select_row<uint8_t>(), ref_select_row<uint16_t>(), ref_select_row<uint32_t>(), ref_select_row<uint64_t>()};
  return table[0].data();
}

#if !defined(TC_HAVE_SIMD)
const BinaryKernel* simd_table() { return nullptr; }
const BinaryKernel* simd_swapped_sv_table() { return nullptr; }
const SelectKernel* simd_select_table() { return nullptr; }
#endif

}  // namespace tc

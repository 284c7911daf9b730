// Scalar reference kernels: the oracle every SIMD kernel is tested against,
// and the fallback where no SIMD kernel exists (a lean build keeps only the
// fallbacks: simd_coverage.hpp). Same section order as
// kernels_wasmsimd.cpp: element loop, table, select (where) loop and table.
// The registry and dispatch over both tables are in registry.cpp.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "half.hpp"
#include "scalar_ops.hpp"
#include "simd_coverage.hpp"

#if defined(__clang__)
#define TC_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define TC_SCALAR_LOOP
#endif

namespace tc {

// ---- element loop --------------------------------------------------------------
// One strided loop per (dtype, op): the three forms are its strides (0 = a
// scalar operand), so the table holds it for each form and no entry points.
template <DType D, Op op>
[[gnu::noinline]] void ref_loop(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n) {
  using T = typename Storage<D>::T;
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  auto* o = static_cast<OutT<D, op>*>(po);
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) o[i] = ops::apply<D, op>(a[i * sa], b[i * sb]);
}

// ---- float16: through the float32 kernels -------------------------------------------
void half_to_float_reference(const uint16_t* src, float* dst, size_t n) {
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) dst[i] = half_to_float(src[i]);
}
void float_to_half_reference(const float* src, uint16_t* dst, size_t n) {
  TC_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) dst[i] = float_to_half(src[i]);
}

// Blocks of 256 elements (3 KiB of float32 scratch on the stack): the float32
// kernel runs whole blocks, so its SIMD loop runs where the build has one. A
// one-element operand is converted once and passed with stride 0.
void f16_via_f32(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n, bool boolean,
                 BinaryLoop k32, HalfToFloatFn up, FloatToHalfFn down) {
  constexpr size_t kBlock = 256;
  float xa[kBlock], xb[kBlock], xo[kBlock];
  const auto* a = static_cast<const uint16_t*>(pa);
  const auto* b = static_cast<const uint16_t*>(pb);
  if (!sa) xa[0] = half_to_float(a[0]);
  if (!sb) xb[0] = half_to_float(b[0]);
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t c = n - i < kBlock ? n - i : kBlock;
    if (sa) up(a + i, xa, c);
    if (sb) up(b + i, xb, c);
    if (boolean) {
      k32(xa, sa, xb, sb, static_cast<uint8_t*>(po) + i, c);
    } else {
      k32(xa, sa, xb, sb, xo, c);
      down(xo, static_cast<uint16_t*>(po) + i, c);
    }
  }
}

template <Op op>
void f16_ref_loop(const void* pa, size_t sa, const void* pb, size_t sb, void* po, size_t n) {
  f16_via_f32(pa, sa, pb, sb, po, n, is_bool_op(op), find_reference(DType::f32, op, Form::vv).loop,
              &half_to_float_reference, &float_to_half_reference);
}

// ---- table: [dtype][op] ------------------------------------------------------------
constexpr size_t kOps = static_cast<size_t>(Op::count);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;

template <size_t I>
constexpr BinaryLoop ref_entry() {
  constexpr DType D = static_cast<DType>(I / kOps);
  constexpr Op O = static_cast<Op>(I % kOps);
  if constexpr (!defined_for(D, O) || (simd::kLean && simd::binary<D, O>())) return nullptr;
  else if constexpr (D == DType::f16) return &f16_ref_loop<O>;
  else return &ref_loop<kernel_dtype(D, O), O>;
}

template <size_t... I>
constexpr std::array<BinaryLoop, kEntries> make_ref_table(std::index_sequence<I...>) {
  return {ref_entry<I>()...};
}

const BinaryLoop* reference_table() {
  static constexpr std::array<BinaryLoop, kEntries> table = make_ref_table(std::make_index_sequence<kEntries>{});
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
  if constexpr (simd::kLean) {  // every width and form has a SIMD kernel
    static constexpr std::array<SelectKernel, 4 * kSelectForms> none = {};
    return none.data();
  }
  static const std::array<std::array<SelectKernel, kSelectForms>, 4> table = {
      ref_select_row<uint8_t>(), ref_select_row<uint16_t>(), ref_select_row<uint32_t>(), ref_select_row<uint64_t>()};
  return table[0].data();
}

#if !defined(TC_HAVE_SIMD)
const BinaryLoop* simd_table() { return nullptr; }
const SelectKernel* simd_select_table() { return nullptr; }
TileGather find_tile_gather32() { return nullptr; }
HalfToFloatFn find_half_to_float() { return &half_to_float_reference; }
FloatToHalfFn find_float_to_half() { return &float_to_half_reference; }
#endif

}  // namespace tc

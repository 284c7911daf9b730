// Scalar reference kernels: the oracle every SIMD kernel is tested against,
// and the fallback where no SIMD kernel exists. Same section order as
// kernels_wasmsimd.cpp: element loop, table, select (where) loop and table;
// then the registry glue, which only this file has.
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
  else return &ref_kernel<D, O, F>;
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
constexpr size_t kSelectEntries = 4 * kSelectForms;  // [width 1, 2, 4, 8][form]

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

// ---- registry glue -------------------------------------------------------------------
const BinaryKernel* simd_table();         // kernels_wasmsimd.cpp (or nullptr natively)
const SelectKernel* simd_select_table();  // likewise

namespace {
size_t slot(DType dt, Op op, Form f) {
  return (static_cast<size_t>(dt) * kOps + static_cast<size_t>(op)) * kForms + static_cast<size_t>(f);
}
}  // namespace

BinaryKernel find_reference(DType dt, Op op, Form form) {
  if (dt >= DType::count || op >= Op::count || form >= Form::count) return nullptr;
  return reference_table()[slot(dt, op, form)];
}

BinaryKernel find_kernel(DType dt, Op op, Form form) {
  if (dt >= DType::count || op >= Op::count || form >= Form::count) return nullptr;
  const BinaryKernel* simd = simd_table();
  if (simd && simd[slot(dt, op, form)]) return simd[slot(dt, op, form)];
  return reference_table()[slot(dt, op, form)];
}

const char* dtype_name(DType dt) {
  static const char* names[] = {"f32", "f64", "i8", "u8", "u8c", "i16", "u16", "i32", "u32", "i64", "u64"};
  return dt < DType::count ? names[static_cast<int>(dt)] : "?";
}

const char* op_name(Op op) {
  static const char* names[] = {"add", "sub", "mul", "div", "rem", "pow", "minimum", "maximum",
                                "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                                "logical_and", "logical_or", "logical_xor",
                                "bitwise_and", "bitwise_or", "bitwise_xor"};
  return op < Op::count ? names[static_cast<int>(op)] : "?";
}

size_t dtype_size(DType dt) {
  static const size_t sizes[] = {4, 8, 1, 1, 1, 2, 2, 4, 4, 8, 8};
  return dt < DType::count ? sizes[static_cast<int>(dt)] : 0;
}

bool op_yields_bool(Op op) { return is_bool_op(op); }
bool op_defined(DType dt, Op op) { return dt < DType::count && op < Op::count && defined_for(dt, op); }

const KernelInfo* kernel_registry(size_t* count) {
  static std::vector<std::string> names;
  static std::vector<KernelInfo> infos;
  if (infos.empty()) {
    static const char* forms[] = {"vv", "vs", "sv"};
    const BinaryKernel* simd = simd_table();
    for (int pass = 0; pass < 2; ++pass) {
      const BinaryKernel* table = pass == 0 ? reference_table() : simd;
      if (!table) continue;
      for (size_t i = 0; i < kEntries; ++i) {
        if (!table[i]) continue;
        const DType d = static_cast<DType>(i / (kOps * kForms));
        const Op o = static_cast<Op>((i / kForms) % kOps);
        const Form f = static_cast<Form>(i % kForms);
        names.push_back(std::string(dtype_name(d)) + "_" + op_name(o) + "_" + forms[static_cast<int>(f)] +
                        (pass == 0 ? "__scalar" : "__wasmsimd"));
        infos.push_back(KernelInfo{nullptr, d, o, f, pass == 1, table[i]});
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names[i].c_str();
  }
  *count = infos.size();
  return infos.data();
}

namespace {
int width_slot(size_t es) { return es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : es == 8 ? 3 : -1; }
}  // namespace

SelectKernel find_select_reference(size_t es, SelectForm form) {
  const int w = width_slot(es);
  if (w < 0 || form >= SelectForm::count) return nullptr;
  return reference_select_table()[static_cast<size_t>(w) * kSelectForms + static_cast<size_t>(form)];
}

SelectKernel find_select(size_t es, SelectForm form) {
  const int w = width_slot(es);
  if (w < 0 || form >= SelectForm::count) return nullptr;
  const size_t i = static_cast<size_t>(w) * kSelectForms + static_cast<size_t>(form);
  const SelectKernel* simd = simd_select_table();
  return simd && simd[i] ? simd[i] : reference_select_table()[i];
}

const SelectInfo* select_registry(size_t* count) {
  static std::vector<std::string> names;
  static std::vector<SelectInfo> infos;
  if (infos.empty()) {
    static const char* forms[] = {"vv", "vs", "sv", "ss"};
    static const char* widths[] = {"x8", "x16", "x32", "x64"};
    for (int pass = 0; pass < 2; ++pass) {
      const SelectKernel* table = pass == 0 ? reference_select_table() : simd_select_table();
      if (!table) continue;
      for (size_t i = 0; i < kSelectEntries; ++i) {
        if (!table[i]) continue;
        names.push_back(std::string(widths[i / kSelectForms]) + "_where_" + forms[i % kSelectForms] +
                        (pass == 0 ? "__scalar" : "__wasmsimd"));
        infos.push_back(SelectInfo{nullptr, size_t{1} << (i / kSelectForms), static_cast<SelectForm>(i % kSelectForms),
                                   pass == 1, table[i]});
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names[i].c_str();
  }
  *count = infos.size();
  return infos.data();
}

#if !defined(TC_HAVE_SIMD)
const BinaryKernel* simd_table() { return nullptr; }
const SelectKernel* simd_select_table() { return nullptr; }
#endif

}  // namespace tc

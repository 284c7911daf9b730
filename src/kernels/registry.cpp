// The kernel registry and dispatch: every kernel of this build, reference
// and SIMD, listed once with its name in the naming grammar (kernels.hpp).
// Dispatch, the native tests, the JS listing (tc_listing) and the benchmarks all
// read these lists; names and sizes come from dtypes.def and ops.def.
#include "core/pod_vector.hpp"

#include "gemm.hpp"
#include "kernels.hpp"
#include "name_pool.hpp"

namespace tc {

const BinaryLoop* reference_table();       // kernels_scalar.cpp
const SelectKernel* reference_select_table();
const BinaryLoop* simd_table();            // kernels_wasmsimd.cpp (nullptr natively)
const SelectKernel* simd_select_table();

namespace {
constexpr size_t kOps = static_cast<size_t>(Op::count);
constexpr size_t kForms = static_cast<size_t>(Form::count);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;  // [dtype][op]: one loop, every form
constexpr size_t kSelectForms = static_cast<size_t>(SelectForm::count);
constexpr size_t kSelectEntries = 4 * kSelectForms;

bool in_range(DType dt, Op op) {
  return static_cast<int>(dt) >= 0 && dt < DType::count && static_cast<int>(op) >= 0 && op < Op::count;
}
size_t slot(DType dt, Op op) { return static_cast<size_t>(dt) * kOps + static_cast<size_t>(op); }
}  // namespace

BinaryKernel find_reference(DType dt, Op op, Form form) {
  if (!in_range(dt, op) || form >= Form::count) return nullptr;
  return {reference_table()[slot(dt, op)], form};
}

bool has_simd_kernel(DType dt, Op op) {
  const BinaryLoop* simd = simd_table();
  return simd && in_range(dt, op) && simd[slot(dt, op)];
}

BinaryKernel find_kernel(DType dt, Op op, Form form) {
  if (!in_range(dt, op) || form >= Form::count) return nullptr;
  const BinaryLoop* simd = simd_table();
  if (simd && simd[slot(dt, op)]) return {simd[slot(dt, op)], form};
  return {reference_table()[slot(dt, op)], form};
}

namespace {
struct DTypeInfo {
  const char* short_name;
  const char* js_name;
  const char* array;
  const char* kind;
  size_t size;
};
constexpr DTypeInfo kDTypes[] = {
#define TC_DTYPE(e, name, ctype, array, kind) {#e, name, array, kind, sizeof(ctype)},
#include "dtypes.def"
};
constexpr const char* kOpNames[] = {
#define TC_OP(e, js, result, domain) #e,
#include "ops.def"
};
}  // namespace

const char* dtype_name(DType dt) { return dt < DType::count ? kDTypes[static_cast<int>(dt)].short_name : "?"; }
const char* dtype_js_name(DType dt) { return dt < DType::count ? kDTypes[static_cast<int>(dt)].js_name : "?"; }
const char* dtype_array_name(DType dt) { return dt < DType::count ? kDTypes[static_cast<int>(dt)].array : "?"; }
const char* dtype_kind(DType dt) { return dt < DType::count ? kDTypes[static_cast<int>(dt)].kind : "?"; }
const char* op_name(Op op) { return op < Op::count ? kOpNames[static_cast<int>(op)] : "?"; }
const char* form_name(Form f) {
  static const char* const names[] = {"vv", "vs", "sv"};
  return f < Form::count ? names[static_cast<int>(f)] : "?";
}
const char* select_form_name(SelectForm f) {
  static const char* const names[] = {"vv", "vs", "sv", "ss"};
  return f < SelectForm::count ? names[static_cast<int>(f)] : "?";
}


const KernelInfo* kernel_registry(size_t* count) {
  static NamePool names;
  static PodVector<KernelInfo> infos;
  if (infos.empty()) {
    const BinaryLoop* simd = simd_table();
    for (int pass = 0; pass < 2; ++pass) {
      const BinaryLoop* table = pass == 0 ? reference_table() : simd;
      if (!table) continue;
      for (size_t i = 0; i < kEntries * kForms; ++i) {
        const size_t e = i / kForms;  // each form of the entry's one loop
        if (!table[e]) continue;
        const DType d = static_cast<DType>(e / kOps);
        const Op o = static_cast<Op>(e % kOps);
        const Form f = static_cast<Form>(i % kForms);
        names.add({dtype_name(d), "_", op_name(o), "_", form_name(f), pass == 0 ? "__scalar" : "__wasmsimd"});
        infos.push_back(KernelInfo{nullptr, d, o, f, pass == 1, BinaryKernel{table[e], f}});
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names.at(i);
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
  static NamePool names;
  static PodVector<SelectInfo> infos;
  if (infos.empty()) {
    static const char* widths[] = {"x8", "x16", "x32", "x64"};
    for (int pass = 0; pass < 2; ++pass) {
      const SelectKernel* table = pass == 0 ? reference_select_table() : simd_select_table();
      if (!table) continue;
      for (size_t i = 0; i < kSelectEntries; ++i) {
        if (!table[i]) continue;
        names.add({widths[i / kSelectForms], "_where_", select_form_name(static_cast<SelectForm>(i % kSelectForms)), pass == 0 ? "__scalar" : "__wasmsimd"});
        infos.push_back(SelectInfo{nullptr, size_t{1} << (i / kSelectForms), static_cast<SelectForm>(i % kSelectForms),
                                   pass == 1, table[i]});
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names.at(i);
  }
  *count = infos.size();
  return infos.data();
}


#if !defined(TC_HAVE_SIMD)
GemmFn find_gemm(DType) { return nullptr; }  // gemm_wasmsimd.cpp
#endif

}  // namespace tc

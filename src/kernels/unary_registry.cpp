// The unary and cast kernel registries and dispatch: every kernel of this
// build, reference and SIMD, listed once with its name in the grammar of
// kernels.hpp (f32_sqrt__wasmsimd, cast_f32_i32__scalar). Dispatch, the
// tests (tc_unary_kernel_run, tc_cast_kernel_run) and the JS listings read them.
#include "core/pod_vector.hpp"

#include "name_pool.hpp"
#include "unary_ops.hpp"

namespace tc {

namespace {
constexpr size_t kUOps = static_cast<size_t>(UnaryOp::count);
constexpr size_t kDT = static_cast<size_t>(DType::count);
constexpr const char* kUnaryNames[] = {
#define TC_UNARY(e, js, result, domain) #e,
#include "unary.def"
};
size_t uslot(DType dt, UnaryOp op) { return static_cast<size_t>(dt) * kUOps + static_cast<size_t>(op); }
size_t cslot(DType from, DType to) { return static_cast<size_t>(from) * kDT + static_cast<size_t>(to); }
}  // namespace

const char* unary_op_name(UnaryOp op) { return op < UnaryOp::count ? kUnaryNames[static_cast<int>(op)] : "?"; }

UnaryKernel find_unary_reference(DType dt, UnaryOp op) {
  if (dt >= DType::count || op >= UnaryOp::count) return nullptr;
  return unary_reference_table()[uslot(dt, op)];
}

UnaryKernel find_unary(DType dt, UnaryOp op) {
  if (dt >= DType::count || op >= UnaryOp::count) return nullptr;
  const UnaryKernel* simd = unary_simd_table();
  if (simd && simd[uslot(dt, op)]) return simd[uslot(dt, op)];
  return unary_reference_table()[uslot(dt, op)];
}

bool has_simd_unary(DType dt, UnaryOp op) {
  const UnaryKernel* simd = unary_simd_table();
  return simd && dt < DType::count && op < UnaryOp::count && static_cast<int>(dt) >= 0 && static_cast<int>(op) >= 0 &&
         simd[uslot(dt, op)];
}

UnaryKernel find_cast_reference(DType from, DType to) {
  if (from >= DType::count || to >= DType::count) return nullptr;
  return cast_reference_table()[cslot(from, to)];
}

UnaryKernel find_cast(DType from, DType to) {
  if (from >= DType::count || to >= DType::count) return nullptr;
  const UnaryKernel* simd = cast_simd_table();
  if (simd && simd[cslot(from, to)]) return simd[cslot(from, to)];
  return cast_reference_table()[cslot(from, to)];
}

const UnaryKernelInfo* unary_registry(size_t* count) {
  static NamePool names;
  static PodVector<UnaryKernelInfo> infos;
  if (infos.empty()) {
    for (int pass = 0; pass < 2; ++pass) {
      const UnaryKernel* table = pass == 0 ? unary_reference_table() : unary_simd_table();
      if (!table) continue;
      for (size_t i = 0; i < kDT * kUOps; ++i) {
        if (!table[i]) continue;
        const DType d = static_cast<DType>(i / kUOps);
        const UnaryOp o = static_cast<UnaryOp>(i % kUOps);
        names.add({dtype_name(d), "_", unary_op_name(o), pass == 0 ? "__scalar" : "__wasmsimd"});
        infos.push_back(UnaryKernelInfo{nullptr, d, o, DType::count, pass == 1, table[i]});
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names.at(i);
  }
  *count = infos.size();
  return infos.data();
}

const UnaryKernelInfo* cast_registry(size_t* count) {
  static NamePool names;
  static PodVector<UnaryKernelInfo> infos;
  if (infos.empty()) {
    for (int pass = 0; pass < 2; ++pass) {
      const UnaryKernel* table = pass == 0 ? cast_reference_table() : cast_simd_table();
      if (!table) continue;
      for (size_t i = 0; i < kDT * kDT; ++i) {
        if (!table[i]) continue;
        const DType f = static_cast<DType>(i / kDT), t = static_cast<DType>(i % kDT);
        names.add({"cast_", dtype_name(f), "_", dtype_name(t), pass == 0 ? "__scalar" : "__wasmsimd"});
        infos.push_back(UnaryKernelInfo{nullptr, f, UnaryOp::count, t, pass == 1, table[i]});
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names.at(i);
  }
  *count = infos.size();
  return infos.data();
}

}  // namespace tc

// The reduction kernel registry and dispatch: every reduction kernel of this
// build, reference and SIMD, listed once with its name in the grammar of
// reduce.hpp. Dispatch, the tests and (later) the JS registry read it.
#include "core/pod_vector.hpp"

#include "name_pool.hpp"
#include "reduce.hpp"

namespace tc {

const ReduceRowKernel* reduce_reference_row_table();  // reduce_scalar.cpp
const ReduceColKernel* reduce_reference_col_table();
const ReduceRowKernel* reduce_simd_row_table();  // reduce_wasmsimd.cpp (nullptr natively)
const ReduceColKernel* reduce_simd_col_table();

namespace {
constexpr size_t kOps = static_cast<size_t>(kReduceKernelOps);
constexpr size_t kEntries = static_cast<size_t>(DType::count) * kOps;

bool slot(DType dt, ReduceOp op, size_t& i) {
  if (dt >= DType::count || !reduce_has_kernels(op)) return false;
  i = static_cast<size_t>(dt) * kOps + static_cast<size_t>(op);
  return true;
}

constexpr const char* kReduceNames[] = {
#define TC_REDUCE_OP(e, kernel, merge) #e,
#include "reduce_ops.def"
};
}  // namespace

const char* reduce_op_name(ReduceOp op) { return op < ReduceOp::count ? kReduceNames[static_cast<int>(op)] : "?"; }
const char* reduce_shape_name(ReduceShape s) {
  return s == ReduceShape::row ? "row" : s == ReduceShape::col ? "col" : "?";
}

ReduceRowKernel find_reduce_row_reference(DType dt, ReduceOp op) {
  size_t i;
  return slot(dt, op, i) ? reduce_reference_row_table()[i] : nullptr;
}
ReduceColKernel find_reduce_col_reference(DType dt, ReduceOp op) {
  size_t i;
  return slot(dt, op, i) ? reduce_reference_col_table()[i] : nullptr;
}
ReduceRowKernel find_reduce_row(DType dt, ReduceOp op) {
  size_t i;
  if (!slot(dt, op, i)) return nullptr;
  const ReduceRowKernel* simd = reduce_simd_row_table();
  return simd && simd[i] ? simd[i] : reduce_reference_row_table()[i];
}
ReduceColKernel find_reduce_col(DType dt, ReduceOp op) {
  size_t i;
  if (!slot(dt, op, i)) return nullptr;
  const ReduceColKernel* simd = reduce_simd_col_table();
  return simd && simd[i] ? simd[i] : reduce_reference_col_table()[i];
}

const ReduceKernelInfo* reduce_registry(size_t* count) {
  static NamePool names;
  static PodVector<ReduceKernelInfo> infos;
  if (infos.empty()) {
    for (int pass = 0; pass < 2; ++pass) {
      const ReduceRowKernel* rows = pass == 0 ? reduce_reference_row_table() : reduce_simd_row_table();
      const ReduceColKernel* cols = pass == 0 ? reduce_reference_col_table() : reduce_simd_col_table();
      const char* isa = pass == 0 ? "__scalar" : "__wasmsimd";
      for (size_t i = 0; i < kEntries; ++i) {
        const DType d = static_cast<DType>(i / kOps);
        const ReduceOp o = static_cast<ReduceOp>(i % kOps);
        if (rows && rows[i]) {
          names.add({dtype_name(d), "_", reduce_op_name(o), "_row", isa});
          infos.push_back(ReduceKernelInfo{nullptr, d, o, ReduceShape::row, pass == 1, rows[i], nullptr});
        }
        if (cols && cols[i]) {
          names.add({dtype_name(d), "_", reduce_op_name(o), "_col", isa});
          infos.push_back(ReduceKernelInfo{nullptr, d, o, ReduceShape::col, pass == 1, nullptr, cols[i]});
        }
      }
    }
    for (size_t i = 0; i < infos.size(); ++i) infos[i].name = names.at(i);
  }
  *count = infos.size();
  return infos.data();
}

}  // namespace tc

// libFuzzer harness for the data path over views (src/kernels: run_binary,
// run_map, run_copy, run_where, run_reduce), under ASan + UBSan (CMake
// TC_FUZZ=ON, beside rules_fuzz):
//
//   cmake --preset fuzz && cmake --build --preset fuzz
//   build/fuzz/views_fuzz build/fuzz/views-corpus -max_total_time=60 -max_len=512
//
// Each operand is a strided view (any stride: reversed, stepped, zero,
// overlapping) of its own exact-size heap block, so that a read outside the
// view's span is an ASan report; the output is an exact-size block too. A
// plan restrided to the views must give the bytes the same call gives on
// row-major copies of them (NaNs compare as NaNs).
//
// Input (a short input reads as zeros):
//   u8 action % 5: 0 binary, 1 map (unary op or cast), 2 copy, 3 where, 4 reduce
//   u8 dtype % 12, u8 op (binary / unary op, or cast target), u8 cond dtype
//   operands (1 to 3): u8 rank % 5, per axis u8 dim, u8 stride kind
//     dim:    < 0xe0: % 7 (0..6); else 100 + % 40 (past one tile)
//     stride: bits 0-1: 0 row-major, 1 twice that, 2 zero, 3 (int8) next byte;
//             bit 2: negated
//   reduce: u8 axes mask
//   the rest: element values (cycled)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/plan.hpp"
#include "kernels/driver.hpp"
#include "kernels/kernels.hpp"
#include "kernels/reduce.hpp"
#include "rules/rules.hpp"
#include "views.hpp"

using namespace tc;
using namespace tc::fuzz;

namespace {

constexpr i64 kMaxElems = 2048;  // per view and per result: fast runs, and float16 sums of +-1 stay exact

bool read_view(Bytes& b, View& v, int rank_cap) {
  const int rank = b.u8() % (rank_cap + 1);
  v.shape.rank = rank;
  int step[kMaxRank], custom[kMaxRank];
  bool flip[kMaxRank];
  i64 elems = 1;
  for (int a = 0; a < rank; ++a) {
    const uint8_t d = b.u8();
    const i64 dim = d < 0xe0 ? d % 7 : 100 + d % 40;
    const uint8_t kind = b.u8();
    step[a] = kind & 3;
    flip[a] = kind & 4;
    custom[a] = step[a] == 3 ? static_cast<int8_t>(b.u8()) : 0;
    v.shape.dims[a] = Dim::fixed(dim);
    if (dim && elems > kMaxElems / dim) return false;
    elems *= dim;
  }
  lay_out(v, step, flip, custom);
  return true;
}

// The view's block holds exactly its span (nothing when it has no elements),
// filled from the input's tail; `safe` keeps float values where every order of
// a sum or product gives one answer (-1, -0, 0, 1).
void fill_view(View& v, DType dt, const uint8_t* data, size_t n, size_t& at, bool safe) {
  const size_t es = dtype_size(dt);
  const i64 span = v.elems ? v.hi - v.lo + 1 : 0;
  unsigned char* p = fill_block(v, es, data, n, at);
  if (safe && is_float_dtype(dt)) {
    static const double kVals[4] = {-1.0, -0.0, 0.0, 1.0};
    for (i64 i = 0; i < span; ++i) {
      unsigned char* e = p + static_cast<size_t>(i) * es;
      store_float(dt, e, kVals[e[0] & 3]);
    }
  }
}

void check_same(DType dt, const std::vector<unsigned char>& got, const std::vector<unsigned char>& want) {
  CHECK(got.size() == want.size());
  const size_t es = dtype_size(dt);
  for (size_t i = 0; i < got.size(); i += es) CHECK(same_element(dt, got.data() + i, want.data() + i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes b{data, data + size};
  const int action = b.u8() % 5;
  const DType dt = static_cast<DType>(b.u8() % static_cast<int>(DType::count));
  const uint8_t opb = b.u8();
  const DType cond_dt = static_cast<DType>(b.u8() % static_cast<int>(DType::count));
  const int n_ops = action == 0 ? 2 : action == 3 ? 3 : 1;
  View v[3];
  for (int k = 0; k < n_ops; ++k)
    if (!read_view(b, v[k], 4)) return 0;
  const uint8_t mask_byte = b.u8();
  const uint8_t* values = b.p;
  const size_t n_values = static_cast<size_t>(b.end - b.p);
  size_t at = 0;
  const size_t es = dtype_size(dt);
  Error err;

  if (action == 4) {  // reduce
    const ReduceOp op = static_cast<ReduceOp>(opb % static_cast<int>(ReduceOp::count));
    const DType acc = (opb >> 4) & 1 ? reduce_default_acc(op, dt) : static_cast<DType>((opb >> 5) % static_cast<int>(DType::count));
    const bool exact = op == ReduceOp::min || op == ReduceOp::max;
    fill_view(v[0], dt, values, n_values, at, !exact);
    // Conversions to a float accumulator must stay exact in any order too.
    if (!exact && is_float_dtype(acc) && !is_float_dtype(dt)) return 0;
    // A float16 result needs a row-major input (reduce_driver.cpp; JS gives it a copy).
    if (acc == DType::f16) return 0;
    const std::uint64_t mask = v[0].shape.rank ? mask_byte & ((1u << v[0].shape.rank) - 1) : 0;
    i64 n_out = 1;
    for (int a = 0; a < v[0].shape.rank; ++a)
      if (!(mask >> a & 1u)) n_out *= v[0].shape.dims[a].lo;
    const size_t ob = static_cast<size_t>(n_out) * dtype_size(acc);
    Out got(ob), want(ob);
    const std::vector<unsigned char> copy = gather(v[0], es);
    Error e1, e2;
    const Status s1 = run_reduce(v[0].shape, mask, op, dt, acc, v[0].first, got.p.get(), &e1, v[0].strides);
    const Status s2 = run_reduce(v[0].shape, mask, op, dt, acc, copy.data(), want.p.get(), &e2);
    CHECK(s1 == s2);
    if (s1 == Status::Ok) check_same(acc, got.bytes(), want.bytes());
    return 0;
  }

  const size_t cs = dtype_size(cond_dt);
  for (int k = 0; k < n_ops; ++k) fill_view(v[k], action == 3 && k == 0 ? cond_dt : dt, values, n_values, at, false);
  Shape shapes[3];
  for (int k = 0; k < n_ops; ++k) shapes[k] = v[k].shape;
  Plan plan, flat;
  if (broadcast_numpy(shapes, n_ops, plan, err) != Status::Ok) return 0;
  CHECK(broadcast_numpy(shapes, n_ops, flat, err) == Status::Ok);
  CHECK(plan.is_static);
  if (plan.out_size > kMaxElems) return 0;
  for (int k = 0; k < n_ops; ++k) restride(plan, k, v[k].strides);
  rebuild_loop(plan);
  std::vector<unsigned char> copies[3];
  for (int k = 0; k < n_ops; ++k) copies[k] = gather(v[k], action == 3 && k == 0 ? cs : es);
  const size_t n_out = static_cast<size_t>(plan.out_size);

  switch (action) {
    case 0: {
      const Op op = static_cast<Op>(opb % static_cast<int>(Op::count));
      if (!op_defined(dt, op)) return 0;
      const DType odt = op_yields_bool(op) ? DType::u8 : dt;
      Out got(n_out * dtype_size(odt)), want(n_out * dtype_size(odt));
      const Status s1 = run_binary(plan, dt, op, v[0].first, v[1].first, got.p.get());
      const Status s2 = run_binary(flat, dt, op, copies[0].data(), copies[1].data(), want.p.get());
      CHECK(s1 == s2);
      if (s1 == Status::Ok) check_same(odt, got.bytes(), want.bytes());
      break;
    }
    case 1: {
      UnaryKernel fn;
      DType odt;
      if (opb & 0x80) {
        odt = static_cast<DType>(opb % static_cast<int>(DType::count));
        fn = find_cast(dt, odt);
      } else {
        const UnaryOp op = static_cast<UnaryOp>(opb % static_cast<int>(UnaryOp::count));
        if (!unary_defined(dt, op)) return 0;
        fn = find_unary(dt, op);
        odt = unary_yields_bool(op) ? DType::u8 : dt;
      }
      CHECK(fn != nullptr);
      Out got(n_out * dtype_size(odt)), want(n_out * dtype_size(odt));
      const Status s1 = run_map(plan, es, dtype_size(odt), fn, v[0].first, got.p.get());
      const Status s2 = run_map(flat, es, dtype_size(odt), fn, copies[0].data(), want.p.get());
      CHECK(s1 == s2);
      if (s1 == Status::Ok) check_same(odt, got.bytes(), want.bytes());
      break;
    }
    case 2: {
      Out got(n_out * es), want(n_out * es);
      const Status s1 = run_copy(plan, es, v[0].first, got.p.get());
      const Status s2 = run_copy(flat, es, copies[0].data(), want.p.get());
      CHECK(s1 == s2);
      if (s1 == Status::Ok) CHECK(got.bytes() == want.bytes());
      break;
    }
    case 3: {
      Out got(n_out * es), want(n_out * es);
      const Status s1 = run_where(plan, cond_dt, es, v[0].first, v[1].first, v[2].first, got.p.get());
      const Status s2 = run_where(flat, cond_dt, es, copies[0].data(), copies[1].data(), copies[2].data(), want.p.get());
      CHECK(s1 == s2);
      if (s1 == Status::Ok) CHECK(got.bytes() == want.bytes());
      break;
    }
  }
  return 0;
}

// Views in the engine: a plan restrided to an operand's own strides (any
// sign), run by run_binary, run_map, run_copy and run_where, and a reduction
// over a strided input (run_reduce with strides), each equal to the same call
// on a row-major copy of the view. Under ASan these also check that the tiles
// of a strided inner axis read and write nothing outside their buffers.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "kernels/driver.hpp"
#include "kernels/reduce.hpp"
#include "rules/rules.hpp"

namespace {

using tc::DType;
using tc::i64;
using tc::Plan;
using tc::Shape;

// A view of `base` (element 0 at `offset`) as a row-major copy.
std::vector<float> gather(const std::vector<float>& base, const std::vector<i64>& shape, const std::vector<i64>& strides,
                          i64 offset) {
  i64 n = 1;
  for (i64 d : shape) n *= d;
  std::vector<float> out(static_cast<size_t>(n));
  std::vector<i64> idx(shape.size(), 0);
  for (i64 k = 0; k < n; ++k) {
    i64 off = offset;
    for (size_t a = 0; a < shape.size(); ++a) off += idx[a] * strides[a];
    out[static_cast<size_t>(k)] = base[static_cast<size_t>(off)];
    for (int a = static_cast<int>(shape.size()) - 1; a >= 0; --a) {
      if (++idx[static_cast<size_t>(a)] < shape[static_cast<size_t>(a)]) break;
      idx[static_cast<size_t>(a)] = 0;
    }
  }
  return out;
}

Shape shape_of(const std::vector<i64>& s) { return tc::make_shape(s.begin(), s.end()); }

struct View {
  std::vector<i64> shape, strides;
  i64 offset;
};

// A random view of a buffer: a permutation of a random shape, some axes
// stepped by 2 or reversed.
View random_view(std::mt19937& rng, i64& need) {
  const int rank = 1 + static_cast<int>(rng() % 4);
  std::vector<i64> dims(static_cast<size_t>(rank));
  for (auto& d : dims) d = 1 + static_cast<i64>(rng() % 40);
  if (rank >= 2 && rng() % 3 == 0) dims[static_cast<size_t>(rank - 1)] = 100 + static_cast<i64>(rng() % 60);  // past one tile
  std::vector<i64> row(static_cast<size_t>(rank));
  i64 acc = 1;
  for (int a = rank - 1; a >= 0; --a) {
    row[static_cast<size_t>(a)] = acc;
    acc *= dims[static_cast<size_t>(a)];
  }
  need = acc;
  View v{{}, {}, 0};
  std::vector<int> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (int a : perm) {
    i64 d = dims[static_cast<size_t>(a)], s = row[static_cast<size_t>(a)];
    if (d > 2 && rng() % 3 == 0) {  // every second element
      d = (d + 1) / 2;
      s *= 2;
    }
    if (rng() % 3 == 0) {  // reversed
      v.offset += (d - 1) * s;
      s = -s;
    }
    v.shape.push_back(d);
    v.strides.push_back(s);
  }
  return v;
}

TEST(Views, BinaryMapCopyAndWhereOverRandomViewsEqualTheRowMajorCopy) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    i64 need = 0;
    const View v = random_view(rng, need);
    std::vector<float> base(static_cast<size_t>(need));
    for (size_t i = 0; i < base.size(); ++i) base[i] = static_cast<float>(static_cast<int>(i % 97) - 48);
    const std::vector<float> copy = gather(base, v.shape, v.strides, v.offset);
    // b: the view's last axis, broadcast against it.
    std::vector<float> b(static_cast<size_t>(v.shape.back()));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i) * 0.5f;
    const Shape shapes[2] = {shape_of(v.shape), shape_of({v.shape.back()})};
    Plan plan, flat;
    tc::Error err;
    ASSERT_EQ(tc::broadcast_numpy(shapes, 2, plan, err), tc::Status::Ok);
    ASSERT_EQ(tc::broadcast_numpy(shapes, 2, flat, err), tc::Status::Ok);
    tc::restride(plan, 0, v.strides.data());
    tc::rebuild_loop(plan);
    const float* a0 = base.data() + v.offset;
    std::vector<float> got(copy.size() + 8, -1.0f), want(copy.size() + 8, -1.0f);
    ASSERT_EQ(tc::run_binary(plan, DType::f32, tc::Op::add, a0, b.data(), got.data()), tc::Status::Ok);
    ASSERT_EQ(tc::run_binary(flat, DType::f32, tc::Op::add, copy.data(), b.data(), want.data()), tc::Status::Ok);
    EXPECT_EQ(got, want) << "trial " << trial;
    // One operand: a unary op, a cast and a copy read the view alone.
    Plan one, one_flat;
    ASSERT_EQ(tc::broadcast_numpy(shapes, 1, one, err), tc::Status::Ok);
    ASSERT_EQ(tc::broadcast_numpy(shapes, 1, one_flat, err), tc::Status::Ok);
    tc::restride(one, 0, v.strides.data());
    tc::rebuild_loop(one);
    std::fill(got.begin(), got.end(), -1.0f);
    std::fill(want.begin(), want.end(), -1.0f);
    ASSERT_EQ(tc::run_map(one, 4, 4, tc::find_unary(DType::f32, tc::UnaryOp::neg), a0, got.data()), tc::Status::Ok);
    ASSERT_EQ(tc::run_map(one_flat, 4, 4, tc::find_unary(DType::f32, tc::UnaryOp::neg), copy.data(), want.data()), tc::Status::Ok);
    {
      size_t k = 0;
      while (k < got.size() && got[k] == want[k]) ++k;
      std::string sh, st;
      for (size_t a = 0; a < v.shape.size(); ++a) sh += std::to_string(v.shape[a]) + ",", st += std::to_string(v.strides[a]) + ",";
      EXPECT_EQ(k, got.size()) << "neg, trial " << trial << " shape " << sh << " strides " << st << " first difference at " << k << " of " << copy.size();
    }
    std::vector<double> g64(copy.size() + 8, -1.0), w64(copy.size() + 8, -1.0);
    ASSERT_EQ(tc::run_map(one, 4, 8, tc::find_cast(DType::f32, DType::f64), a0, g64.data()), tc::Status::Ok);
    ASSERT_EQ(tc::run_map(one_flat, 4, 8, tc::find_cast(DType::f32, DType::f64), copy.data(), w64.data()), tc::Status::Ok);
    EXPECT_EQ(g64, w64) << "cast, trial " << trial;
    std::fill(got.begin(), got.end(), -1.0f);
    ASSERT_EQ(tc::run_copy(one, 4, a0, got.data()), tc::Status::Ok);
    EXPECT_TRUE(std::equal(copy.begin(), copy.end(), got.begin())) << "copy, trial " << trial;
    EXPECT_EQ(got[copy.size()], -1.0f);  // nothing written past the result
  }
}

TEST(Views, ReductionsOverRandomViewsEqualTheRowMajorCopy) {
  std::mt19937 rng(11);
  const tc::ReduceOp ops[] = {tc::ReduceOp::sum, tc::ReduceOp::max, tc::ReduceOp::min, tc::ReduceOp::mean};
  for (int trial = 0; trial < 300; ++trial) {
    i64 need = 0;
    const View v = random_view(rng, need);
    std::vector<float> base(static_cast<size_t>(need));
    for (size_t i = 0; i < base.size(); ++i) base[i] = static_cast<float>(static_cast<int>((i * 7) % 19) - 9);
    const std::vector<float> copy = gather(base, v.shape, v.strides, v.offset);
    const Shape in = shape_of(v.shape);
    std::uint64_t mask = rng() % (std::uint64_t{1} << in.rank);
    if (mask == 0) mask = 1;
    const tc::ReduceOp op = ops[trial % 4];
    for (DType acc : {DType::f32, DType::f64}) {
      i64 n_out = 1;
      for (int a = 0; a < in.rank; ++a)
        if (!(mask >> a & 1u)) n_out *= in.dims[a].lo;
      const size_t bytes = static_cast<size_t>(n_out) * tc::dtype_size(acc) + 16;
      std::vector<unsigned char> got(bytes, 0xAB), want(bytes, 0xAB);
      const tc::Status s1 = tc::run_reduce(in, mask, op, DType::f32, acc, base.data() + v.offset, got.data(), nullptr, v.strides.data());
      const tc::Status s2 = tc::run_reduce(in, mask, op, DType::f32, acc, copy.data(), want.data());
      ASSERT_EQ(s1, s2);
      EXPECT_EQ(got, want) << "trial " << trial << " mask " << mask << " acc " << static_cast<int>(acc);
    }
  }
}

}  // namespace

// kernels/reduce*: the reduction registry, kernels, order contract and driver.
// Natively every reduction kernel is a scalar reference; where the build has
// SIMD kernels (wasm with -msimd128), the sweep below checks each one against
// its reference bit for bit. The references are checked against the order
// documented in reduce_pairwise.hpp (transcribed independently here) and
// against naive loops in wide arithmetic.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/driver.hpp"
#include "kernels/half.hpp"
#include "kernels/reduce.hpp"
#include "kernels/reduce_pairwise.hpp"
#include "kernels/scalar_ops.hpp"
#include "rules/reduction_axes.hpp"
#include "test_util.hpp"

namespace {

using namespace tct;
using tc::DType;
using tc::ReduceOp;

constexpr int kDTypes = static_cast<int>(DType::count);
constexpr ReduceOp kKernelOps[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::min, ReduceOp::max};
constexpr ReduceOp kAllOps[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::min, ReduceOp::max, ReduceOp::mean};

template <DType D>
using T_ = typename tc::Storage<D>::T;
template <DType D>
using DT = std::integral_constant<DType, D>;

// Every dtype with reduction kernels: all but float16, which reduces in float32
// (run_reduce converts; its own tests are at the end of this file).
template <typename F>
void for_each_dtype(F&& f) {
#define TC_DTYPE(e, name, ctype, array, kind) \
  if constexpr (DType::e != DType::f16) f(DT<DType::e>{});
#include "kernels/dtypes.def"
}

template <typename T>
bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a || b != b) return a != a && b != b;
  }
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Values for a dtype: floats in [lo, hi) with an occasional +-0 / integer;
// integers of every bit pattern (sums and products wrap).
template <DType D>
std::vector<T_<D>> random_values(size_t n, std::mt19937& rng, double lo = -4, double hi = 4) {
  using T = T_<D>;
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng));
    } else {
      std::uint64_t bits = (static_cast<std::uint64_t>(rng()) << 32) ^ rng();
      std::memcpy(&x, &bits, sizeof(T));
    }
  }
  return v;
}

// ---- registry ------------------------------------------------------------------------
TEST(ReduceRegistry, EveryDtypeAndOpHasARowAndAColReference) {
  size_t n = 0;
  const tc::ReduceKernelInfo* k = tc::reduce_registry(&n);
  ASSERT_GT(n, 0u);
  std::set<std::string> names;
  size_t simd = 0;
  for (size_t i = 0; i < n; ++i) {
    names.insert(k[i].name);
    const bool is_row = k[i].shape == tc::ReduceShape::row;
    EXPECT_EQ(is_row, k[i].row != nullptr) << k[i].name;
    EXPECT_EQ(!is_row, k[i].col != nullptr) << k[i].name;
    const std::string want = std::string(tc::dtype_name(k[i].dtype)) + "_" + tc::reduce_op_name(k[i].op) + "_" +
                             tc::reduce_shape_name(k[i].shape) + (k[i].simd ? "__wasmsimd" : "__scalar");
    EXPECT_EQ(want, k[i].name);
    if (k[i].simd) {
      ++simd;
      if (is_row) EXPECT_EQ(tc::find_reduce_row(k[i].dtype, k[i].op), k[i].row) << "dispatch prefers SIMD";
      else EXPECT_EQ(tc::find_reduce_col(k[i].dtype, k[i].op), k[i].col) << "dispatch prefers SIMD";
    }
  }
  EXPECT_EQ(names.size(), n) << "kernel names are unique";
  EXPECT_EQ(n - simd, static_cast<size_t>(kDTypes - 1) * 4 * 2) << "11 dtypes x 4 ops x {row, col} references";
  for (int d = 0; d < kDTypes; ++d)
    for (ReduceOp op : kKernelOps) {
      const auto dt = static_cast<DType>(d);
      if (dt == DType::f16) {  // float16 reduces in float32: no kernels of its own
        EXPECT_EQ(tc::find_reduce_row(dt, op), nullptr);
        EXPECT_EQ(tc::find_reduce_col(dt, op), nullptr);
        continue;
      }
      for (const char* shape : {"row", "col"}) {
        const std::string name =
            std::string(tc::dtype_name(dt)) + "_" + tc::reduce_op_name(op) + "_" + shape + "__scalar";
        EXPECT_EQ(names.count(name), 1u) << name;
      }
      EXPECT_NE(tc::find_reduce_row_reference(dt, op), nullptr);
      EXPECT_NE(tc::find_reduce_col_reference(dt, op), nullptr);
    }
  EXPECT_EQ(tc::find_reduce_row(DType::f32, ReduceOp::mean), nullptr) << "mean has no kernels of its own";
  EXPECT_EQ(tc::find_reduce_row(DType::count, ReduceOp::sum), nullptr);
  EXPECT_EQ(tc::reduce_kernel_op(ReduceOp::mean), ReduceOp::sum);
  EXPECT_EQ(tc::reduce_merge_op(ReduceOp::min), tc::Op::minimum);
  EXPECT_STREQ(tc::reduce_op_name(ReduceOp::mean), "mean");
  EXPECT_EQ(tc::kReduceKernelOps, 4);
}

// ---- SIMD kernels against their references (wherever a SIMD table exists) ------------
template <DType D>
void sweep_simd_entry(const tc::ReduceKernelInfo& k, std::mt19937& rng, int& swept) {
  using T = T_<D>;
  constexpr size_t L = 16 / sizeof(T);
  if (k.shape == tc::ReduceShape::row) {
    const tc::ReduceRowKernel ref = tc::find_reduce_row_reference(D, k.op);
    std::vector<size_t> lengths;
    for (size_t n = 1; n <= 9 * 4 * L; ++n) lengths.push_back(n);  // 1 .. 9 steps of 4 vectors
    for (size_t n : {size_t{4096 / sizeof(T)}, size_t{4096 / sizeof(T) + 1}, size_t{8192 / sizeof(T) + 5 * L + 3},
                     size_t{3 * 4096 / sizeof(T) + 4 * L}, size_t{5000}, size_t{70001}})
      lengths.push_back(n);
    for (size_t n : lengths) {
      // products of values near 1 stay finite; sums and extrema take any value
      std::vector<T> x = k.op == ReduceOp::prod ? random_values<D>(n, rng, 0.9, 1.1) : random_values<D>(n, rng);
      T got, want;
      k.row(x.data(), n, &got);
      ref(x.data(), n, &want);
      ASSERT_TRUE(same_value(got, want)) << k.name << " n " << n;
      ++swept;
    }
  } else {
    const tc::ReduceColKernel ref = tc::find_reduce_col_reference(D, k.op);
    for (size_t rows : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1030})
      for (size_t n = 1; n <= 9 * 4 * L + 3; n += (rows > 100 ? 7 : 1)) {
        const size_t stride = n + (rows % 3);  // contiguous rows and padded rows
        std::vector<T> x = k.op == ReduceOp::prod ? random_values<D>(rows * stride, rng, 0.9, 1.1)
                                                  : random_values<D>(rows * stride, rng);
        std::vector<T> got(n + 4), want(n + 4);
        const T guard = static_cast<T>(77);
        for (size_t j = n; j < n + 4; ++j) got[j] = want[j] = guard;
        k.col(x.data(), rows, n, stride, got.data());
        ref(x.data(), rows, n, stride, want.data());
        for (size_t j = 0; j < n + 4; ++j)
          ASSERT_TRUE(same_value(got[j], want[j])) << k.name << " rows " << rows << " n " << n << " column " << j;
        ++swept;
      }
  }
}

TEST(ReduceSimdSweep, EverySimdKernelEqualsItsReferenceAtEveryLength) {
  size_t n = 0;
  const tc::ReduceKernelInfo* k = tc::reduce_registry(&n);
  std::mt19937 rng(2024);
  int swept = 0, kernels = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!k[i].simd) continue;
    ++kernels;
    for_each_dtype([&](auto d) {
      if (d.value == k[i].dtype) sweep_simd_entry<decltype(d)::value>(k[i], rng, swept);
    });
  }
  if (kernels == 0) GTEST_LOG_(INFO) << "no SIMD reduction kernels in this build (native): sweep skipped";
  else GTEST_LOG_(INFO) << kernels << " SIMD reduction kernels, " << swept << " cases";
}

// ---- the order contract of reduce_pairwise.hpp, transcribed independently --------------
// float32 / float64 sums and products: the references must follow it exactly.
template <typename T, typename F>
T contract_row(const T* x, size_t n, F f) {
  const size_t L = 16 / sizeof(T), K = 4 * L, B = 64 * K;
  if (n < K) {
    T r = x[0];
    for (size_t i = 1; i < n; ++i) r = f(r, x[i]);
    return r;
  }
  // blocks -> one vector each
  std::vector<std::vector<T>> blocks;
  size_t i = 0;
  while (n - i >= K) {
    const size_t m = std::min(B, (n - i) / K * K);
    std::vector<T> acc(x + i, x + i + K);
    for (size_t j = K; j < m; j += K)
      for (size_t k = 0; k < K; ++k) acc[k] = f(acc[k], x[i + j + k]);
    std::vector<T> w(L);
    for (size_t l = 0; l < L; ++l) {
      auto v = [&](size_t q) { return acc[q * L + l]; };
      w[l] = f(f(v(0), v(1)), f(v(2), v(3)));
    }
    blocks.push_back(w);
    i += m;
  }
  // the binary counter
  auto merge = [&](const std::vector<T>& a, const std::vector<T>& b) {
    std::vector<T> v(L);
    for (size_t l = 0; l < L; ++l) v[l] = f(a[l], b[l]);
    return v;
  };
  std::vector<std::pair<int, std::vector<T>>> stack;
  for (auto& blk : blocks) {
    std::vector<T> v = blk;
    int level = 0;
    while (!stack.empty() && stack.back().first == level) {
      v = merge(stack.back().second, v);
      stack.pop_back();
      ++level;
    }
    stack.push_back({level, v});
  }
  std::vector<T> w = stack.back().second;
  for (size_t k = stack.size() - 1; k-- > 0;) w = merge(stack[k].second, w);
  for (size_t s = L / 2; s > 0; s /= 2)
    for (size_t l = 0; l < s; ++l) w[l] = f(w[l], w[l + s]);
  T r = w[0];
  for (; i < n; ++i) r = f(r, x[i]);
  return r;
}
template <typename T, typename F>
T contract_col(const T* x, size_t rows, size_t stride, F f) {  // one column
  constexpr size_t R = 64 / sizeof(T);  // leaves: float32 16 rows, float64 8
  if (rows <= R) {
    T r = x[0];
    for (size_t i = 1; i < rows; ++i) r = f(r, x[i * stride]);
    return r;
  }
  size_t h = rows / 2;
  h -= h % R;
  if (h < R) h = R;
  return f(contract_col(x, h, stride, f), contract_col(x + h * stride, rows - h, stride, f));
}

template <DType D>
void check_order_contract(ReduceOp op) {
  using T = T_<D>;
  auto f = [op](T a, T b) { return op == ReduceOp::sum ? a + b : a * b; };
  std::mt19937 rng(5 + static_cast<int>(D) * 3 + static_cast<int>(op));
  for (size_t n : {1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129, 255, 256, 257, 511, 512, 513, 1000, 1024, 1025, 4099, 33333, 100003}) {
    std::vector<T> x = op == ReduceOp::prod ? random_values<D>(n, rng, 0.97, 1.03) : random_values<D>(n, rng);
    T got;
    tc::find_reduce_row_reference(D, op)(x.data(), n, &got);
    ASSERT_TRUE(same_value(got, contract_row<T>(x.data(), n, f))) << tc::dtype_name(D) << " row n " << n;
  }
  for (size_t rows : {1, 5, 8, 9, 16, 17, 32, 33, 47, 100, 1024, 1100}) {
    const size_t n = 13, stride = 17;
    std::vector<T> x = op == ReduceOp::prod ? random_values<D>(rows * stride, rng, 0.97, 1.03)
                                            : random_values<D>(rows * stride, rng);
    std::vector<T> got(n);
    tc::find_reduce_col_reference(D, op)(x.data(), rows, n, stride, got.data());
    for (size_t j = 0; j < n; ++j)
      ASSERT_TRUE(same_value(got[j], contract_col<T>(x.data() + j, rows, stride, f)))
          << tc::dtype_name(D) << " col rows " << rows << " column " << j;
  }
}

TEST(ReduceOrder, FloatSumsAndProductsFollowTheDocumentedOrder) {
  check_order_contract<DType::f32>(ReduceOp::sum);
  check_order_contract<DType::f32>(ReduceOp::prod);
  check_order_contract<DType::f64>(ReduceOp::sum);
  check_order_contract<DType::f64>(ReduceOp::prod);
}

// ---- naive reductions in wide arithmetic -----------------------------------------------
struct Expect {
  std::vector<long double> value;  // floats: the exact-ish result; integers: unused
  std::vector<long double> scale;  // floats: the error scale (sum of |terms|, or |result|)
  std::vector<std::uint64_t> bits;  // integers: the expected bits (wrapped / clamped)
};

// Terms per output element (converted to A), in input order.
template <DType I, DType A>
std::vector<std::vector<T_<A>>> gather_terms(const Shape& s, std::uint64_t mask, const std::vector<T_<I>>& x) {
  i64 out_size = 1;
  for (int a = 0; a < s.rank; ++a)
    if (!(mask >> a & 1u)) out_size *= s.dims[a].lo;
  std::vector<std::vector<T_<A>>> terms(static_cast<size_t>(out_size));
  std::vector<i64> idx(static_cast<size_t>(s.rank), 0);
  for (size_t e = 0; e < x.size(); ++e) {
    i64 o = 0;
    for (int a = 0; a < s.rank; ++a)
      if (!(mask >> a & 1u)) o = o * s.dims[a].lo + idx[static_cast<size_t>(a)];
    T_<A> t;
    tc::convert_elements(I, A, &x[e], &t, 1);
    terms[static_cast<size_t>(o)].push_back(t);
    for (int a = s.rank - 1; a >= 0; --a) {
      if (++idx[static_cast<size_t>(a)] < s.dims[a].lo) break;
      idx[static_cast<size_t>(a)] = 0;
    }
  }
  return terms;
}

template <DType A>
T_<A> naive_one(const std::vector<T_<A>>& t, ReduceOp op, long double* exact, long double* scale) {
  using T = T_<A>;
  if (op == ReduceOp::min || op == ReduceOp::max) {
    T r = t[0];
    for (size_t i = 1; i < t.size(); ++i)
      r = op == ReduceOp::min ? tc::ops::apply<A, tc::Op::minimum>(r, t[i]) : tc::ops::apply<A, tc::Op::maximum>(r, t[i]);
    return r;
  }
  const bool prod = op == ReduceOp::prod;
  if constexpr (std::is_floating_point_v<T>) {
    long double v = prod ? 1 : 0, sc = 0;
    for (T x : t) {
      v = prod ? v * x : v + x;
      sc += std::fabs(static_cast<long double>(x));
    }
    if (op == ReduceOp::mean) {
      v /= static_cast<long double>(t.size());
      sc /= static_cast<long double>(t.size());
    }
    *exact = v;
    *scale = prod ? std::fabs(v) : sc;
    return static_cast<T>(v);
  } else if constexpr (A == DType::u8c) {
    std::uint64_t v = prod ? 1 : 0;
    for (T x : t) v = prod ? (v * x > 255 ? 256 : v * x) : v + x;  // saturate, exact below 256
    if (v > 255) v = 255;
    if (op == ReduceOp::mean) {
      const double q = static_cast<double>(v) / static_cast<double>(t.size());
      T r;
      tc::convert_elements(DType::f64, A, &q, &r, 1);
      return r;
    }
    return static_cast<T>(v);
  } else {
    std::uint64_t v = prod ? 1 : 0;
    for (T x : t) {
      const std::uint64_t u = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(x));
      const std::uint64_t s = std::is_signed_v<T> ? static_cast<std::uint64_t>(static_cast<std::int64_t>(x)) : u;
      v = prod ? v * s : v + s;
    }
    const T wrapped = static_cast<T>(static_cast<std::make_unsigned_t<T>>(v));
    if (op == ReduceOp::mean) {
      const double q = static_cast<double>(wrapped) / static_cast<double>(t.size());
      T r;
      tc::convert_elements(DType::f64, A, &q, &r, 1);
      return r;
    }
    return wrapped;
  }
}

// run_reduce against the naive loop for one (shape, mask, op).
template <DType I, DType A>
void check_reduce(const Shape& s, std::uint64_t mask, ReduceOp op, const std::vector<T_<I>>& x) {
  using T = T_<A>;
  const auto terms = gather_terms<I, A>(s, mask, x);
  std::vector<T> got(terms.size() + 1);
  const T guard = static_cast<T>(99);
  got.back() = guard;
  Error err;
  const Status st = tc::run_reduce(s, mask, op, I, A, x.data(), got.data(), &err);
  const std::string what = std::string(tc::reduce_op_name(op)) + " " + tc::dtype_name(I) + "->" + tc::dtype_name(A) +
                           " " + str(s) + " mask " + std::to_string(mask);
  const bool empty_set = !terms.empty() && terms[0].empty();
  if (empty_set) {
    if (op == ReduceOp::min || op == ReduceOp::max) {
      ASSERT_EQ(st, Status::InvalidAxis) << what;
      EXPECT_EQ(err.detail, tc::kDetailEmptyReduction) << what;
      return;
    }
    ASSERT_EQ(st, Status::Ok) << what;
    for (size_t i = 0; i < terms.size(); ++i) {
      if (op == ReduceOp::mean && std::is_floating_point_v<T>) ASSERT_TRUE(std::isnan(static_cast<double>(got[i]))) << what;
      else ASSERT_EQ(static_cast<double>(got[i]), op == ReduceOp::prod ? 1.0 : 0.0) << what;
    }
    return;
  }
  ASSERT_EQ(st, Status::Ok) << what << " " << str(err);
  ASSERT_TRUE(same_value(got.back(), guard)) << what << ": wrote past the output";
  for (size_t i = 0; i < terms.size(); ++i) {
    long double exact = 0, scale = 0;
    const T want = naive_one<A>(terms[i], op, &exact, &scale);
    if constexpr (std::is_floating_point_v<T>) {
      if (op == ReduceOp::min || op == ReduceOp::max) {
        ASSERT_TRUE(same_value(got[i], want)) << what << " at " << i;
      } else {
        const long double tol = (sizeof(T) == 4 ? 2e-6L : 1e-14L) * (scale + std::numeric_limits<T>::min());
        ASSERT_LE(std::fabs(static_cast<long double>(got[i]) - exact), tol)
            << what << " at " << i << ": " << got[i] << " vs " << static_cast<double>(exact);
      }
    } else {
      ASSERT_EQ(got[i], want) << what << " at " << i;
    }
  }
}

std::vector<Shape> driver_shapes() {
  return {S({}), S({37}), S({2, 3, 4, 5}), S({1, 7, 1, 9}), S({4, 1, 33, 2, 3}), S({3, 70}), S({70, 3}),
          S({2, 300}), S({300, 2}), S({5, 0, 3})};
}

template <DType D>
void check_dtype_all_axes() {
  std::mt19937 rng(99 + static_cast<int>(D));
  for (const Shape& s : driver_shapes()) {
    const size_t n = static_cast<size_t>(tc::shape_size(s));
    for (ReduceOp op : kAllOps) {
      const auto x = op == ReduceOp::prod ? random_values<D>(n, rng, 0.9, 1.1) : random_values<D>(n, rng);
      for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << s.rank); ++mask) {
        if (op == ReduceOp::mean) {
          check_reduce<D, (std::is_floating_point_v<T_<D>> ? D : DType::f64)>(s, mask, op, x);
        } else {
          check_reduce<D, D>(s, mask, op, x);
        }
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(ReduceDriver, EveryOpDtypeAndAxesSetMatchesANaiveLoop) {
  for_each_dtype([](auto d) {
    check_dtype_all_axes<decltype(d)::value>();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  });
}

TEST(ReduceDriver, AccumulationDtypes) {
  std::mt19937 rng(31);
  const std::vector<Shape> shapes = {S({6, 50}), S({3, 9000}), S({20, 3000}), S({4, 3, 5, 7}), S({2, 70000})};
  for (const Shape& s : shapes) {
    const size_t n = static_cast<size_t>(tc::shape_size(s));
    const auto i8 = random_values<DType::i8>(n, rng);
    const auto u8 = random_values<DType::u8>(n, rng);
    const auto f32 = random_values<DType::f32>(n, rng);
    const auto f64 = random_values<DType::f64>(n, rng, -300, 300);
    const auto i64 = random_values<DType::i64>(n, rng);
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << s.rank); ++mask) {
      for (ReduceOp op : {ReduceOp::sum, ReduceOp::max, ReduceOp::mean}) {
        check_reduce<DType::i8, DType::i32>(s, mask, op, i8);
        check_reduce<DType::i8, DType::f64>(s, mask, op, i8);
        check_reduce<DType::u8, DType::u8c>(s, mask, op, u8);
        check_reduce<DType::u8, DType::u16>(s, mask, op, u8);
        check_reduce<DType::f32, DType::f64>(s, mask, op, f32);
        check_reduce<DType::f64, DType::f32>(s, mask, op, f64);
        check_reduce<DType::f64, DType::i32>(s, mask, op, f64);
        check_reduce<DType::i64, DType::f64>(s, mask, op, i64);
        check_reduce<DType::i64, DType::u8>(s, mask, op, i64);
        ASSERT_FALSE(::testing::Test::HasFatalFailure());
      }
    }
  }
}

TEST(ReduceDriver, Int8SummedAsInt32DoesNotWrap) {
  std::vector<std::int8_t> x(200, 100);
  std::int8_t wrapped = 0;
  std::int32_t wide = 0;
  double as_f64 = 0;
  ASSERT_EQ(tc::run_reduce(S({200}), 1, ReduceOp::sum, DType::i8, DType::i8, x.data(), &wrapped), Status::Ok);
  ASSERT_EQ(tc::run_reduce(S({200}), 1, ReduceOp::sum, DType::i8, DType::i32, x.data(), &wide), Status::Ok);
  ASSERT_EQ(tc::run_reduce(S({200}), 1, ReduceOp::sum, DType::i8, DType::f64, x.data(), &as_f64), Status::Ok);
  EXPECT_EQ(wrapped, 32) << "20000 mod 256 (an Int8Array store)";
  EXPECT_EQ(wide, 20000);
  EXPECT_EQ(as_f64, 20000.0);
}

// ---- integer semantics -----------------------------------------------------------------------
TEST(ReduceSemantics, IntegersWrapClampedSaturates) {
  std::vector<std::uint8_t> u(300, 200);
  std::uint8_t r = 0;
  ASSERT_EQ(tc::run_reduce(S({300}), 1, ReduceOp::sum, DType::u8, DType::u8, u.data(), &r), Status::Ok);
  EXPECT_EQ(r, static_cast<std::uint8_t>(60000 % 256));
  ASSERT_EQ(tc::run_reduce(S({300}), 1, ReduceOp::sum, DType::u8c, DType::u8c, u.data(), &r), Status::Ok);
  EXPECT_EQ(r, 255) << "a Uint8ClampedArray store of 60000";
  std::vector<std::uint8_t> p = {16, 16, 0};
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::prod, DType::u8c, DType::u8c, p.data(), &r), Status::Ok);
  EXPECT_EQ(r, 0) << "the exact product is 0";
  p = {16, 16, 1};
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::prod, DType::u8c, DType::u8c, p.data(), &r), Status::Ok);
  EXPECT_EQ(r, 255);
  std::vector<std::int32_t> big(3, INT32_MAX);
  std::int32_t s = 0;
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::sum, DType::i32, DType::i32, big.data(), &s), Status::Ok);
  EXPECT_EQ(s, static_cast<std::int32_t>(3u * static_cast<std::uint32_t>(INT32_MAX)));
  std::vector<std::int16_t> m(5, 300);
  std::int16_t q = 0;
  ASSERT_EQ(tc::run_reduce(S({5}), 1, ReduceOp::prod, DType::i16, DType::i16, m.data(), &q), Status::Ok);
  EXPECT_EQ(q, static_cast<std::int16_t>(static_cast<std::uint16_t>(2430000000000ull & 0xFFFF)));
  std::vector<std::uint64_t> u64 = {~std::uint64_t{0}, 2};
  std::uint64_t su = 0;
  ASSERT_EQ(tc::run_reduce(S({2}), 1, ReduceOp::sum, DType::u64, DType::u64, u64.data(), &su), Status::Ok);
  EXPECT_EQ(su, 1u);
  std::vector<std::int64_t> i64 = {INT64_MIN, -1, 5};
  std::int64_t mn = 0, mx = 0;
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::min, DType::i64, DType::i64, i64.data(), &mn), Status::Ok);
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::max, DType::i64, DType::i64, i64.data(), &mx), Status::Ok);
  EXPECT_EQ(mn, INT64_MIN);
  EXPECT_EQ(mx, 5);
}

TEST(ReduceSemantics, ConversionIsATypedArrayStore) {
  auto to = [](DType dt, double v) {
    std::uint64_t bits = 0;
    tc::convert_elements(DType::f64, dt, &v, &bits, 1);
    return bits;
  };
  EXPECT_EQ(to(DType::i32, 3.7), 3u);
  EXPECT_EQ(static_cast<std::int32_t>(to(DType::i32, -3.7)), -3);
  EXPECT_EQ(to(DType::i32, std::nan("")), 0u);
  EXPECT_EQ(to(DType::i32, INFINITY), 0u);
  EXPECT_EQ(to(DType::i32, 1e10), 1410065408u) << "1e10 mod 2^32";
  EXPECT_EQ(to(DType::u8, 300), 44u);
  EXPECT_EQ(to(DType::u8, -1), 255u);
  EXPECT_EQ(to(DType::u8c, 2.5), 2u) << "half to even";
  EXPECT_EQ(to(DType::u8c, 3.5), 4u);
  EXPECT_EQ(to(DType::u8c, -5), 0u);
  EXPECT_EQ(to(DType::u8c, 1e9), 255u);
  EXPECT_EQ(to(DType::u8c, std::nan("")), 0u);
  EXPECT_EQ(to(DType::u64, -1), ~std::uint64_t{0});
  EXPECT_EQ(static_cast<std::int64_t>(to(DType::i64, -12345.9)), -12345);
  std::int16_t s = -300;
  std::uint8_t c = 0;
  tc::convert_elements(DType::i16, DType::u8c, &s, &c, 1);
  EXPECT_EQ(c, 0);
  tc::convert_elements(DType::i16, DType::u8, &s, &c, 1);
  EXPECT_EQ(c, static_cast<std::uint8_t>(-300 & 0xFF));
  std::int64_t big = (std::int64_t{1} << 53) + 1;
  float f = 0;
  tc::convert_elements(DType::i64, DType::f32, &big, &f, 1);
  EXPECT_EQ(f, 9007199254740992.0f);
}

// ---- floats: NaN, signed zeros, accuracy ------------------------------------------------------
template <DType D>
void check_nan_and_zeros() {
  using T = T_<D>;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (size_t n : {1, 3, 17, 64, 65, 300, 5000})
    for (size_t pos : {size_t{0}, n / 2, n - 1}) {
      std::vector<T> x(n, T(1));
      x[pos] = nan;
      for (ReduceOp op : kAllOps) {
        T r = 0;
        ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, op, D, D, x.data(), &r), Status::Ok);
        ASSERT_TRUE(std::isnan(r)) << tc::reduce_op_name(op) << " n " << n << " NaN at " << pos;
      }
      // columns: a NaN in one column poisons that column only
      std::vector<T> cols(n * 3, T(2));
      cols[pos * 3 + 1] = nan;
      T out[3];
      for (ReduceOp op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max}) {
        ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n), 3}), 1, op, D, D, cols.data(), out), Status::Ok);
        EXPECT_FALSE(std::isnan(out[0]));
        EXPECT_TRUE(std::isnan(out[1])) << tc::reduce_op_name(op) << " rows " << n;
        EXPECT_FALSE(std::isnan(out[2]));
      }
    }
  // -0 below +0, as Math.min / Math.max; a sum (and mean) of -0s is +0, as NumPy's,
  // which starts from its identity +0 (np.sum([-0.0]) is 0.0), rows and columns
  for (size_t n : {2, 40, 300}) {
    std::vector<T> z(n, T(0));
    z[n / 2] = -T(0);
    T mn = 1, mx = 1;
    ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, ReduceOp::min, D, D, z.data(), &mn), Status::Ok);
    EXPECT_TRUE(mn == 0 && std::signbit(mn)) << "n " << n;
    std::vector<T> nz(n, -T(0));
    nz[n - 1] = T(0);
    ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, ReduceOp::max, D, D, nz.data(), &mx), Status::Ok);
    EXPECT_TRUE(mx == 0 && !std::signbit(mx)) << "n " << n;
    std::vector<T> neg(n, -T(0));
    T s = 1;
    ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, ReduceOp::sum, D, D, neg.data(), &s), Status::Ok);
    EXPECT_TRUE(s == 0 && !std::signbit(s)) << "n " << n;
    s = 1;
    ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, ReduceOp::mean, D, D, neg.data(), &s), Status::Ok);
    EXPECT_TRUE(s == 0 && !std::signbit(s)) << "mean, n " << n;
    T c2[2] = {1, 1};
    ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n / 2), 2}), 1, ReduceOp::sum, D, D, neg.data(), c2), Status::Ok);
    EXPECT_TRUE(c2[0] == 0 && !std::signbit(c2[0]) && c2[1] == 0 && !std::signbit(c2[1])) << "columns, n " << n;
    T p = 1;  // a product keeps the sign of its factors: (-0)^n
    ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, ReduceOp::prod, D, D, neg.data(), &p), Status::Ok);
    EXPECT_TRUE(p == 0 && std::signbit(p) == (n % 2 == 1)) << "prod, n " << n;
  }
  {  // reducing only axes of size 1 copies, and still sums from +0
    T one = -T(0), r1 = 1;
    ASSERT_EQ(tc::run_reduce(S({1, 1}), 2, ReduceOp::sum, D, D, &one, &r1), Status::Ok);
    EXPECT_TRUE(r1 == 0 && !std::signbit(r1));
  }
  // infinities
  std::vector<T> inf = {1, std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
  T r = 0;
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::sum, D, D, inf.data(), &r), Status::Ok);
  EXPECT_TRUE(std::isnan(r));
  ASSERT_EQ(tc::run_reduce(S({3}), 1, ReduceOp::max, D, D, inf.data(), &r), Status::Ok);
  EXPECT_EQ(r, std::numeric_limits<T>::infinity());
}

TEST(ReduceSemantics, NaNPropagatesAndSignedZerosOrder) {
  check_nan_and_zeros<DType::f32>();
  check_nan_and_zeros<DType::f64>();
}

TEST(ReduceAccuracy, SumOf2To20Float32UniformIsWithin1e6) {
  const size_t n = size_t{1} << 20;
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> x(n);
  for (auto& v : x) v = u(rng);
  long double exact = 0;
  for (float v : x) exact += v;
  float running = 0;  // what one float32 accumulator gives, for the log
  for (float v : x) running += v;
  float got = 0;
  ASSERT_EQ(tc::run_reduce(S({static_cast<i64>(n)}), 1, ReduceOp::sum, DType::f32, DType::f32, x.data(), &got),
            Status::Ok);
  const double rel = static_cast<double>(std::fabs((got - exact) / exact));
  const double rel_running = static_cast<double>(std::fabs((running - exact) / exact));
  EXPECT_LT(rel, 1e-6);
  GTEST_LOG_(INFO) << "relative error: pairwise " << rel << ", one running float32 accumulator " << rel_running;
  // the row kernel itself, and the same data as [1024, 1024] summed over both axes
  float k = 0;
  tc::find_reduce_row(DType::f32, ReduceOp::sum)(x.data(), n, &k);
  EXPECT_EQ(k, got);
  float all2 = 0;
  ASSERT_EQ(tc::run_reduce(S({1024, 1024}), 3, ReduceOp::sum, DType::f32, DType::f32, x.data(), &all2), Status::Ok);
  EXPECT_EQ(all2, got) << "merged into one row";
}

TEST(ReduceAccuracy, ColumnSumsOf1024RowsArePairwise) {
  const size_t rows = 1024, cols = 1024;
  std::mt19937 rng(777);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> x(rows * cols);
  for (auto& v : x) v = u(rng);
  std::vector<float> got(cols);
  ASSERT_EQ(tc::run_reduce(S({1024, 1024}), 1, ReduceOp::sum, DType::f32, DType::f32, x.data(), got.data()),
            Status::Ok);
  double worst = 0, worst_running = 0;
  for (size_t j = 0; j < cols; ++j) {
    long double exact = 0;
    float running = 0;
    for (size_t i = 0; i < rows; ++i) {
      exact += x[i * cols + j];
      running += x[i * cols + j];
    }
    worst = std::max(worst, static_cast<double>(std::fabs((got[j] - exact) / exact)));
    worst_running = std::max(worst_running, static_cast<double>(std::fabs((running - exact) / exact)));
  }
  EXPECT_LT(worst, 5e-7);
  GTEST_LOG_(INFO) << "worst column: pairwise " << worst << ", one running accumulator " << worst_running;
}

// The fused col skeleton (the SIMD col kernels: merges folded into the leaves)
// gives the reference's bits at every row count, also where the tree is
// uneven and where columns are cut into several chunks.
template <typename T, ReduceOp op>
void check_fused_col(DType dt, std::mt19937& rng, int& checked) {
  const tc::ReduceColKernel ref = tc::find_reduce_col_reference(dt, op);
  ASSERT_NE(ref, nullptr);
  auto f = [](T a, T b) { return op == ReduceOp::sum ? a + b : a * b; };
  auto leaf = [&](const T* x, size_t r, size_t w, size_t st, T* d, const T* const* pend, int np) {
    for (size_t j = 0; j < w; ++j) {
      T a = x[j];
      for (size_t i = 1; i < r; ++i) a = f(a, x[i * st + j]);
      for (int k = np - 1; k >= 0; --k) a = f(pend[k][j], a);
      d[j] = a;
    }
  };
  std::uniform_real_distribution<double> u(op == ReduceOp::sum ? -1.0 : 0.9, op == ReduceOp::sum ? 1.0 : 1.1);
  const size_t row_counts[] = {1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 33, 40, 63, 64, 65, 100, 127, 128, 129,
                               255, 256, 257, 999, 1024, 1025, 3001};
  for (size_t rows : row_counts) {
    for (size_t n : {size_t{1}, size_t{5}, size_t{37}, size_t{3000}}) {
      if (rows * n > 1u << 20) continue;
      const size_t stride = n + 3;
      std::vector<T> x(rows * stride);
      for (auto& v : x) v = static_cast<T>(u(rng));
      std::vector<T> want(n), got(n);
      ref(x.data(), rows, n, stride, want.data());
      tc::reduce::col_run_fused<T>(x.data(), rows, n, stride, got.data(), leaf, tc::reduce::kColLeafRows<T>);
      ASSERT_EQ(std::memcmp(want.data(), got.data(), n * sizeof(T)), 0)
          << tc::reduce_op_name(op) << " rows " << rows << " n " << n;
      ++checked;
    }
  }
}

TEST(ReduceOrder, FusedColSkeletonGivesTheReferenceBits) {
  std::mt19937 rng(4242);
  int checked = 0;
  check_fused_col<float, ReduceOp::sum>(DType::f32, rng, checked);
  check_fused_col<float, ReduceOp::prod>(DType::f32, rng, checked);
  check_fused_col<double, ReduceOp::sum>(DType::f64, rng, checked);
  check_fused_col<double, ReduceOp::prod>(DType::f64, rng, checked);
  EXPECT_GT(checked, 300);
  EXPECT_EQ(tc::reduce::col_fused_depth(1024, tc::reduce::kColLeafRows<float>), 6);  // leaves of 16
  EXPECT_EQ(tc::reduce::col_fused_depth(1024, tc::reduce::kColLeafRows<double>), 7);  // leaves of 8
}

TEST(ReduceAccuracy, UnbroadcastNCHWToC) {
  // [8, 64, 56, 56] -> [1, 64, 1, 1]: loop (R 8, K 64, R 3136)
  const Shape s = S({8, 64, 56, 56});
  const size_t n = static_cast<size_t>(tc::shape_size(s));
  std::vector<float> x(n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& v : x) v = u(rng);
  std::vector<float> got(64);
  ASSERT_EQ(tc::run_reduce(s, 0b1101, ReduceOp::sum, DType::f32, DType::f32, x.data(), got.data()), Status::Ok);
  for (size_t c = 0; c < 64; ++c) {
    long double exact = 0, scale = 0;
    for (size_t b = 0; b < 8; ++b)
      for (size_t i = 0; i < 3136; ++i) {
        exact += x[(b * 64 + c) * 3136 + i];
        scale += std::fabs(x[(b * 64 + c) * 3136 + i]);
      }
    ASSERT_LE(std::fabs(got[c] - exact), 1e-7L * scale) << "channel " << c;
  }
}

// ---- empty reductions, axes, shapes -----------------------------------------------------------
TEST(ReduceEmpty, SumZeroProdOneMinMaxRefused) {
  const Shape s = S({0, 3});
  float out[3] = {7, 7, 7};
  ASSERT_EQ(tc::run_reduce(s, 1, ReduceOp::sum, DType::f32, DType::f32, nullptr, out), Status::Ok);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[2], 0.0f);
  ASSERT_EQ(tc::run_reduce(s, 1, ReduceOp::prod, DType::f32, DType::f32, nullptr, out), Status::Ok);
  EXPECT_EQ(out[1], 1.0f);
  ASSERT_EQ(tc::run_reduce(s, 1, ReduceOp::mean, DType::f32, DType::f32, nullptr, out), Status::Ok);
  EXPECT_TRUE(std::isnan(out[0]));
  for (ReduceOp op : {ReduceOp::min, ReduceOp::max}) {
    Error err;
    ASSERT_EQ(tc::run_reduce(s, 1, op, DType::f32, DType::f32, nullptr, out, &err), Status::InvalidAxis);
    EXPECT_EQ(err.code, Status::InvalidAxis);
    EXPECT_EQ(err.detail, tc::kDetailEmptyReduction);
    EXPECT_EQ(err.axis, 0);
    EXPECT_DIM(err.dim_a, D(0));
    EXPECT_EQ(tc::run_reduce(s, 1, op, DType::f32, DType::f32, nullptr, out), Status::InvalidAxis) << "err optional";
  }
  // an empty result over a non-empty reduced extent is fine even for min: nothing to compute
  EXPECT_EQ(tc::run_reduce(s, 2, ReduceOp::min, DType::f32, DType::f32, nullptr, nullptr), Status::Ok);
  // but a zero reduced extent is refused even when the result is empty too (NumPy: [0,0] over axis 0)
  for (std::uint64_t mask : {1u, 2u}) {
    Error err;
    EXPECT_EQ(tc::run_reduce(S({0, 0}), mask, ReduceOp::max, DType::i8, DType::i8, nullptr, nullptr, &err), Status::InvalidAxis) << mask;
    EXPECT_EQ(err.axis, mask == 1u ? 0 : 1);
    EXPECT_EQ(tc::run_reduce(S({0, 0}), mask, ReduceOp::sum, DType::i8, DType::i8, nullptr, nullptr), Status::Ok) << "sum of none is 0";
  }
  EXPECT_EQ(tc::run_reduce(S({3, 0}), 3, ReduceOp::min, DType::f32, DType::f32, nullptr, out), Status::InvalidAxis);
  std::int32_t i[3] = {7, 7, 7};
  ASSERT_EQ(tc::run_reduce(S({3, 0}), 2, ReduceOp::prod, DType::i32, DType::i32, nullptr, i), Status::Ok);
  EXPECT_EQ(i[0], 1);
  EXPECT_EQ(i[2], 1);
  ASSERT_EQ(tc::run_reduce(S({3, 0}), 2, ReduceOp::mean, DType::i32, DType::i32, nullptr, i), Status::Ok);
  EXPECT_EQ(i[1], 0) << "NaN stored to an integer";
}

TEST(ReduceAxes, NormalizeAxes) {
  std::uint64_t mask = 0;
  Error err;
  const i64 a[] = {-1, 0};
  ASSERT_EQ(tc::normalize_axes(4, a, 2, mask, err), Status::Ok);
  EXPECT_EQ(mask, 0b1001u);
  const i64 dup[] = {1, -3};
  ASSERT_EQ(tc::normalize_axes(4, dup, 2, mask, err), Status::InvalidAxis) << "-3 is axis 1 again";
  EXPECT_EQ(err.axis, 1) << "the entry's index";
  EXPECT_EQ(err.detail, -3) << "its value";
  EXPECT_EQ(mask, 0u);
  const i64 out[] = {0, 4};
  ASSERT_EQ(tc::normalize_axes(4, out, 2, mask, err), Status::InvalidAxis);
  EXPECT_EQ(err.axis, 1);
  EXPECT_EQ(err.detail, 4);
  const i64 neg[] = {-5};
  ASSERT_EQ(tc::normalize_axes(4, neg, 1, mask, err), Status::InvalidAxis);
  EXPECT_EQ(err.detail, -5);
  const i64 huge[] = {INT64_MAX};
  ASSERT_EQ(tc::normalize_axes(4, huge, 1, mask, err), Status::InvalidAxis);
  EXPECT_EQ(err.detail, INT32_MAX);
  const i64 zero[] = {0};
  EXPECT_EQ(tc::normalize_axes(0, zero, 1, mask, err), Status::InvalidAxis) << "a scalar has no axis 0";
  ASSERT_EQ(tc::normalize_axes(0, nullptr, 0, mask, err), Status::Ok);
  EXPECT_EQ(mask, 0u);
  const i64 all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
                     26, 27, 28, 29, 30, -1};
  ASSERT_EQ(tc::normalize_axes(32, all, 32, mask, err), Status::Ok);
  EXPECT_EQ(mask, 0xFFFFFFFFu);
  EXPECT_EQ(tc::normalize_axes(33, nullptr, 0, mask, err), Status::InvalidShape);
}

TEST(ReduceAxes, OutShapeCountAndRefusals) {
  Shape out;
  ASSERT_EQ(tc::reduce_out_shape(S({2, 3, 4}), 0b101, false, out), Status::Ok);
  EXPECT_SHAPE(out, S({3}));
  ASSERT_EQ(tc::reduce_out_shape(S({2, 3, 4}), 0b101, true, out), Status::Ok);
  EXPECT_SHAPE(out, S({1, 3, 1}));
  EXPECT_EQ(tc::reduce_out_shape(S({2, 3}), 0b100, false, out), Status::InvalidAxis);
  EXPECT_EQ(tc::reduce_out_shape(U(), 0, false, out), Status::InvalidShape);
  EXPECT_EQ(tc::reduce_count(S({2, 3, 4}), 0b101), 8);
  EXPECT_EQ(tc::reduce_count(S({2, 3, 4}), 0), 1);
  EXPECT_EQ(tc::reduce_default_acc(ReduceOp::mean, DType::i8), DType::f64);
  EXPECT_EQ(tc::reduce_default_acc(ReduceOp::mean, DType::f32), DType::f32);
  EXPECT_EQ(tc::reduce_default_acc(ReduceOp::sum, DType::i8), DType::i8);
  float o = 0;
  const float x[6] = {1, 2, 3, 4, 5, 6};
  Error err;
  EXPECT_EQ(tc::run_reduce(S({2, 3}), 0b100, ReduceOp::sum, DType::f32, DType::f32, x, &o, &err), Status::InvalidAxis);
  EXPECT_EQ(err.axis, 2);
  EXPECT_EQ(tc::run_reduce(P({Q}), 1, ReduceOp::sum, DType::f32, DType::f32, x, &o), Status::InvalidShape);
  EXPECT_EQ(tc::run_reduce(S({6}), 1, ReduceOp::count, DType::f32, DType::f32, x, &o), Status::DtypeMismatch);
  EXPECT_EQ(tc::run_reduce(S({6}), 1, ReduceOp::sum, DType::count, DType::f32, x, &o), Status::DtypeMismatch);
  // keepdims changes nothing in the data: a scalar and an all-ones shape give one element
  ASSERT_EQ(tc::run_reduce(S({}), 0, ReduceOp::max, DType::f32, DType::f32, x, &o), Status::Ok);
  EXPECT_EQ(o, 1.0f);
  ASSERT_EQ(tc::run_reduce(S({1, 1}), 0b11, ReduceOp::mean, DType::f32, DType::f32, x + 4, &o), Status::Ok);
  EXPECT_EQ(o, 5.0f);
}

// ---- the backward direction end to end ----------------------------------------------------------
// unbroadcast(broadcastTo(x, out), in) = x times the number of copies of each element.
TEST(ReduceUnbroadcast, SumOverReductionAxesOfABroadcastGivesXTimesTheCopies) {
  std::mt19937 rng(8);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int out_rank = static_cast<int>(rng() % 5);
    Shape out;
    for (int i = 0; i < out_rank; ++i) out.push(D(static_cast<i64>(rng() % 4)));
    const int in_rank = static_cast<int>(rng() % static_cast<unsigned>(out_rank + 1));
    const int mode = static_cast<int>(rng() % 3);
    const int offset = mode == 0 ? out_rank - in_rank : static_cast<int>(rng() % static_cast<unsigned>(out_rank - in_rank + 1));
    Shape in;
    std::vector<i64> mapping;
    for (int i = 0; i < in_rank; ++i) {
      in.push(rng() % 3 == 0 ? D(1) : out.dims[offset + i]);
      mapping.push_back(offset + i);
    }
    const auto m = mode == 0 ? tc::BroadcastToMode::numpy : mode == 1 ? tc::BroadcastToMode::explicit_ : tc::BroadcastToMode::pdpd;
    Plan plan;
    Error err;
    const Status fs = mode == 0   ? tc::broadcast_to_numpy(in, out, plan, err)
                      : mode == 1 ? tc::broadcast_to_explicit(in, out, mapping.data(), in_rank, true, plan, err)
                                  : tc::broadcast_to_pdpd(in, out, offset, plan, err);
    ASSERT_EQ(fs, Status::Ok) << str(in) << " -> " << str(out);
    std::uint64_t mask = 0;
    ASSERT_EQ(tc::reduction_axes(in, out, m, offset, mapping.data(), in_rank, mask, err), Status::Ok);
    const size_t n_in = static_cast<size_t>(tc::shape_size(in)), n_out = static_cast<size_t>(tc::shape_size(out));
    std::vector<std::int32_t> x(n_in);
    for (auto& v : x) v = static_cast<std::int32_t>(rng() % 1000) - 500;
    std::vector<std::int32_t> big(n_out + 1), back(n_in + 1, -7);
    ASSERT_EQ(tc::run_copy(plan, 4, x.data(), big.data()), Status::Ok);
    ASSERT_EQ(tc::run_reduce(out, mask, ReduceOp::sum, DType::i32, DType::i32, big.data(), back.data()), Status::Ok);
    // copies of each element: the product of the summed output dims (0 when one is 0)
    const i64 copies = n_in ? tc::reduce_count(out, mask) : 0;
    for (size_t i = 0; i < n_in; ++i)
      ASSERT_EQ(back[i], x[i] * copies) << str(in) << " -> " << str(out) << " mode " << mode << " at " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 400);
}

// ---- float16: reduced in float32, rounded once on store --------------------------------
TEST(ReduceDriver, Float16ReducesInFloat32AndRoundsOnce) {
  std::mt19937 rng(1616);
  for (const Shape& s : {S({7}), S({3, 5}), S({2, 3, 4}), S({4, 1, 300}), S({0, 3}), S({3, 0})}) {
    const size_t n = static_cast<size_t>(tc::shape_size(s));
    std::vector<tc::Half> h(n);
    std::vector<float> f(n);
    std::vector<double> d(n);
    for (size_t i = 0; i < n; ++i) {
      h[i].bits = tc::float_to_half(std::uniform_real_distribution<float>(-4, 4)(rng));
      if (i % 11 == 3) h[i].bits = 0x8000;  // -0
      f[i] = tc::half_to_float(h[i].bits);
      d[i] = f[i];
    }
    for (ReduceOp op : kAllOps)
      for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << s.rank); ++mask) {
        std::vector<float> want(n + 4);
        Error e32;
        const Status s32 = tc::run_reduce(s, mask, op, DType::f32, DType::f32, f.data(), want.data(), &e32);
        std::vector<tc::Half> got(n + 4, tc::Half{0x1234});
        Error e16;
        const Status s16 = tc::run_reduce(s, mask, op, DType::f16, DType::f16, h.data(), got.data(), &e16);
        ASSERT_EQ(s16, s32);
        if (s32 != Status::Ok) {
          EXPECT_EQ(e16.detail, e32.detail);
          continue;
        }
        Shape out;
        ASSERT_EQ(tc::reduce_out_shape(s, mask, false, out), Status::Ok);
        const size_t m = static_cast<size_t>(tc::shape_size(out));
        for (size_t i = 0; i < m; ++i) {
          const uint16_t w = tc::float_to_half(want[i]);
          if (std::isnan(want[i])) ASSERT_TRUE(std::isnan(tc::half_to_float(got[i].bits)));
          else ASSERT_EQ(got[i].bits, w) << tc::reduce_op_name(op) << " " << str(s) << " mask " << mask << " i " << i;
        }
        EXPECT_EQ(got[m].bits, 0x1234) << "wrote past the output " << tc::reduce_op_name(op) << " " << str(s) << " mask " << mask << " m " << m;
        // float16 in, float32 out: the float32 reduction of the same values.
        std::vector<float> got32(n + 4);
        ASSERT_EQ(tc::run_reduce(s, mask, op, DType::f16, DType::f32, h.data(), got32.data()), Status::Ok);
        for (size_t i = 0; i < m; ++i)
          ASSERT_TRUE(std::memcmp(&got32[i], &want[i], 4) == 0 || (std::isnan(got32[i]) && std::isnan(want[i])));
        // float64 in, float16 out: each input stored as float16 first (exact here), then as above.
        std::vector<tc::Half> got64(n + 4);
        ASSERT_EQ(tc::run_reduce(s, mask, op, DType::f64, DType::f16, d.data(), got64.data()), Status::Ok);
        for (size_t i = 0; i < m; ++i) ASSERT_TRUE(got64[i].bits == got[i].bits || std::isnan(want[i]));
      }
  }
  EXPECT_EQ(tc::reduce_default_acc(ReduceOp::mean, DType::f16), DType::f16);
  EXPECT_EQ(tc::reduce_default_acc(ReduceOp::sum, DType::f16), DType::f16);
  // 2048 + 1 + 1 ... in float16 steps would stay 2048; in float32 the sum is exact, rounded once.
  std::vector<tc::Half> x(9, tc::Half{tc::float_to_half(1.0f)});
  x[0].bits = tc::float_to_half(2048.0f);
  tc::Half r;
  ASSERT_EQ(tc::run_reduce(S({9}), 1, ReduceOp::sum, DType::f16, DType::f16, x.data(), &r), Status::Ok);
  EXPECT_EQ(tc::half_to_float(r.bits), 2056.0f);
}

TEST(Convert, Float16FromAndToEveryDtype) {
  const double vals[] = {0.0, -0.0, 1.0, -2.5, 65504.0, 65520.0, 1e-8, 3.0e-8, 300.7, -129.0};
  for (double v : vals) {
    tc::Half h;
    tc::convert_elements(DType::f64, DType::f16, &v, &h, 1);
    EXPECT_EQ(h.bits, tc::double_to_half(v)) << v;
    double back;
    tc::convert_elements(DType::f16, DType::f64, &h, &back, 1);
    EXPECT_EQ(back, static_cast<double>(tc::half_to_float(h.bits)));
    int32_t i;
    tc::convert_elements(DType::f16, DType::i32, &h, &i, 1);
    EXPECT_EQ(i, static_cast<int32_t>(std::isinf(back) ? 0 : std::trunc(back))) << v;
  }
  const int32_t big = 70000;
  tc::Half h;
  tc::convert_elements(DType::i32, DType::f16, &big, &h, 1);
  EXPECT_EQ(h.bits, 0x7c00) << "70000 overflows float16";
  const float fs[] = {1.0f, 0.1f, -3.0e-8f, 65519.0f};
  tc::Half hs[4];
  tc::convert_elements(DType::f32, DType::f16, fs, hs, 4);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(hs[k].bits, tc::float_to_half(fs[k]));
}

}  // namespace

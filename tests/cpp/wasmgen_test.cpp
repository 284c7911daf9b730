// The expression code generator (src/expr/wasmgen.cpp): programs built by
// hand, their modules generated, run in Node over a memory image
// (tests/tools/run_wasmgen.mjs, one node process per batch of cases) and
// compared bit for bit (NaN where NaN) with the same program evaluated here by
// a scalar interpreter over the references (scalar_ops.hpp ops::apply, the
// unary semantics of unary.def, cast: float -> int truncates toward zero, NaN
// gives 0, out of range saturates; int -> float rounds to nearest). Every
// module is also checked by WebAssembly.validate, and every byte of the image
// outside the output (and the odometer's scratch words) must come back as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "expr/wasmgen.hpp"
#include "kernels/fast_f32.hpp"
#include "kernels/scalar_ops.hpp"

namespace {

using namespace tc;
using namespace tc::expr;
using u64 = std::uint64_t;

// ---- values as bits -------------------------------------------------------------------
template <class T>
T get(u64 b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T>
u64 put(T v) {
  u64 b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <DType D>
using DT = std::integral_constant<DType, D>;

template <class F>
u64 with_dtype(DType d, F&& f) {
  switch (d) {
    case DType::f32: return f(DT<DType::f32>{});
    case DType::f64: return f(DT<DType::f64>{});
    case DType::i8: return f(DT<DType::i8>{});
    case DType::u8: return f(DT<DType::u8>{});
    case DType::u8c: return f(DT<DType::u8c>{});
    case DType::i16: return f(DT<DType::i16>{});
    case DType::u16: return f(DT<DType::u16>{});
    case DType::i32: return f(DT<DType::i32>{});
    case DType::u32: return f(DT<DType::u32>{});
    default: ADD_FAILURE() << "dtype outside the test's set"; return 0;
  }
}

// ---- the references -------------------------------------------------------------------
template <DType D>
u64 binary_ref(Op op, u64 ab, u64 bb) {
  using T = typename Storage<D>::T;
  const T a = get<T>(ab), b = get<T>(bb);
  switch (op) {
#define TC_CASE(o) \
  case Op::o: return put(ops::apply<D, Op::o>(a, b));
    TC_CASE(add) TC_CASE(sub) TC_CASE(mul) TC_CASE(minimum) TC_CASE(maximum) TC_CASE(equal) TC_CASE(not_equal)
    TC_CASE(less) TC_CASE(less_equal) TC_CASE(greater) TC_CASE(greater_equal) TC_CASE(logical_and)
    TC_CASE(logical_or) TC_CASE(logical_xor)
#undef TC_CASE
    case Op::div:
      if constexpr (is_float_dtype(D)) return put(ops::apply<D, Op::div>(a, b));
      break;
    case Op::bitwise_and:
      if constexpr (!is_float_dtype(D)) return put(ops::apply<D, Op::bitwise_and>(a, b));
      break;
    case Op::bitwise_or:
      if constexpr (!is_float_dtype(D)) return put(ops::apply<D, Op::bitwise_or>(a, b));
      break;
    case Op::bitwise_xor:
      if constexpr (!is_float_dtype(D)) return put(ops::apply<D, Op::bitwise_xor>(a, b));
      break;
    default: break;
  }
  ADD_FAILURE() << "no reference for op " << op_name(op);
  return 0;
}

// unary.def's semantics: integers wrap, round is half to even, sign gives +0 for either zero and NaN for NaN.
template <DType D>
u64 unary_ref(UnaryOp u, u64 ab) {
  using T = typename Storage<D>::T;
  const T x = get<T>(ab);
  auto b = [](bool v) { return put<std::uint8_t>(v ? 1 : 0); };
  if constexpr (is_float_dtype(D)) {
    switch (u) {
      case UnaryOp::neg: return put<T>(-x);
      case UnaryOp::abs: return put<T>(std::fabs(x));
      case UnaryOp::sign: return put<T>(x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x);  // +0 for -0 (np.sign)
      case UnaryOp::sqrt: return put<T>(std::sqrt(x));
      case UnaryOp::floor: return put<T>(std::floor(x));
      case UnaryOp::ceil: return put<T>(std::ceil(x));
      case UnaryOp::round: return put<T>(std::nearbyint(x));
      case UnaryOp::trunc: return put<T>(std::trunc(x));
      case UnaryOp::logical_not: return b(x == 0);
      case UnaryOp::is_nan: return b(x != x);
      case UnaryOp::is_finite: return b(std::isfinite(x));
      case UnaryOp::exp:  // float32: the kernels' algorithms, one float at a time
        if constexpr (D == DType::f32) return put<float>(f32m::exp<f32m::S>(x));
        break;
      case UnaryOp::sigmoid:
        if constexpr (D == DType::f32) return put<float>(f32m::sigmoid<f32m::S>(x));
        break;
      case UnaryOp::log:
        if constexpr (D == DType::f32) return put<float>(f32m::log<f32m::S>(x));
        break;
      case UnaryOp::expm1:
        if constexpr (D == DType::f32) return put<float>(f32m::expm1<f32m::S>(x));
        break;
      case UnaryOp::tanh:
        if constexpr (D == DType::f32) return put<float>(f32m::tanh<f32m::S>(x));
        break;
      default: break;
    }
  } else {
    const std::uint32_t w = static_cast<std::uint32_t>(x);
    switch (u) {
      case UnaryOp::neg: return put<T>(static_cast<T>(0u - w));
      case UnaryOp::abs:
        if constexpr (std::is_signed_v<T>) return put<T>(x < 0 ? static_cast<T>(0u - w) : x);
        return put<T>(x);
      case UnaryOp::sign:
        if constexpr (std::is_signed_v<T>) return put<T>(static_cast<T>((x > 0) - (x < 0)));
        return put<T>(static_cast<T>(x != 0));
      case UnaryOp::floor: case UnaryOp::ceil: case UnaryOp::round: case UnaryOp::trunc: return put<T>(x);
      case UnaryOp::logical_not: return b(x == 0);
      case UnaryOp::bitwise_not: return put<T>(static_cast<T>(~w));
      case UnaryOp::is_nan: return b(false);
      case UnaryOp::is_finite: return b(true);
      default: break;
    }
  }
  ADD_FAILURE() << "no reference for unary op " << static_cast<int>(u);
  return 0;
}

template <DType F, DType To>
u64 cast_ref(u64 ab) {
  using FT = typename Storage<F>::T;
  using TT = typename Storage<To>::T;
  const FT v = get<FT>(ab);
  if constexpr (std::is_floating_point_v<TT>) {
    return put<TT>(static_cast<TT>(v));  // nearest
  } else if constexpr (To == DType::u8c && F != DType::u8c) {  // a Uint8ClampedArray store
    if constexpr (std::is_floating_point_v<FT>) {
      if (!(v > 0)) return put<TT>(0);  // NaN, zeros, negatives
      if (v >= 255) return put<TT>(255);
      return put<TT>(static_cast<TT>(std::nearbyint(static_cast<double>(v))));  // ties even
    } else {
      const std::int64_t i = static_cast<std::int64_t>(v);
      return put<TT>(static_cast<TT>(i < 0 ? 0 : i > 255 ? 255 : i));
    }
  } else if constexpr (std::is_floating_point_v<FT>) {
    const double d = static_cast<double>(v);
    if (d != d) return put<TT>(0);
    const double t = std::trunc(d);
    if (t <= static_cast<double>(std::numeric_limits<TT>::min())) return put<TT>(std::numeric_limits<TT>::min());
    if (t >= static_cast<double>(std::numeric_limits<TT>::max())) return put<TT>(std::numeric_limits<TT>::max());
    return put<TT>(static_cast<TT>(t));
  } else {
    return put<TT>(static_cast<TT>(v));  // wraps
  }
}

bool truthy(DType d, u64 v) {
  switch (d) {
    case DType::f32: return get<float>(v) != 0;
    case DType::f64: return get<double>(v) != 0;
    default: return (v & ((dtype_size(d) == 8 ? 0 : (u64{1} << (8 * dtype_size(d)))) - 1)) != 0;
  }
}

u64 constant_bits(const Instr& in) {
  switch (in.out) {
    case DType::f32: return put<float>(static_cast<float>(in.value));
    case DType::f64: return put<double>(in.value);
    default: return static_cast<u64>(in.bits) & ((u64{1} << (8 * dtype_size(in.out))) - 1);
  }
}

// ---- program builders -----------------------------------------------------------------
struct B {
  Program p;
  int load(int input, DType d) {
    Instr in{Code::load};
    in.a = input;
    in.dtype = in.out = d;
    if (input >= p.inputs) p.inputs = input + 1;
    return push(in);
  }
  int cf(DType d, double v) {  // a float constant
    Instr in{Code::constant};
    in.dtype = in.out = d;
    in.value = v;
    return push(in);
  }
  int ci(DType d, std::int64_t v) {  // an integer constant
    Instr in{Code::constant};
    in.dtype = in.out = d;
    in.bits = v;
    in.value = static_cast<double>(v);
    return push(in);
  }
  int bin(Op op, int a, int b) {
    Instr in{Code::binary};
    in.op = static_cast<std::uint8_t>(op);
    in.dtype = p.code[a].out;
    in.out = op_yields_bool(op) ? DType::u8 : in.dtype;
    in.a = a;
    in.b = b;
    return push(in);
  }
  int un(UnaryOp u, int a) {
    Instr in{Code::unary};
    in.op = static_cast<std::uint8_t>(u);
    in.dtype = p.code[a].out;
    const bool boolean = u == UnaryOp::logical_not || u == UnaryOp::is_nan || u == UnaryOp::is_finite;
    in.out = boolean ? DType::u8 : in.dtype;
    in.a = a;
    return push(in);
  }
  int sel(int c, int x, int y) {
    Instr in{Code::select};
    in.cond = p.code[c].out;
    in.dtype = in.out = p.code[x].out;
    in.a = c;
    in.b = x;
    in.c = y;
    return push(in);
  }
  int cast(int a, DType to) {
    Instr in{Code::cast};
    in.dtype = p.code[a].out;
    in.out = to;
    in.a = a;
    return push(in);
  }
  int push(const Instr& in) {
    p.code.push_back(in);
    return static_cast<int>(p.code.size()) - 1;
  }
};

// The scalar interpreter: one element, the references.
u64 eval(const Program& p, const std::vector<u64>& inputs) {
  std::vector<u64> r(p.code.size());
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const Instr& in = p.code[i];
    switch (in.code) {
      case Code::load: r[i] = inputs[in.a]; break;
      case Code::constant: r[i] = constant_bits(in); break;
      case Code::binary:
        r[i] = with_dtype(in.dtype, [&](auto d) { return binary_ref<decltype(d)::value>(static_cast<Op>(in.op), r[in.a], r[in.b]); });
        break;
      case Code::unary:
        r[i] = with_dtype(in.dtype, [&](auto d) { return unary_ref<decltype(d)::value>(static_cast<UnaryOp>(in.op), r[in.a]); });
        break;
      case Code::select: r[i] = truthy(in.cond, r[in.a]) ? r[in.b] : r[in.c]; break;
      case Code::cast:
        r[i] = with_dtype(in.dtype, [&](auto f) {
          return with_dtype(in.out, [&](auto t) { return cast_ref<decltype(f)::value, decltype(t)::value>(r[in.a]); });
        });
        break;
    }
  }
  return r.back();
}

// ---- values ---------------------------------------------------------------------------
u64 random_value(DType d, std::mt19937& rng) {
  const unsigned pick = rng() % 4;
  if (d == DType::f32 || d == DType::f64) {
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.75, -7.25,
                                      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                                      2147483647.5, -2147483648.75, -2147483904.0, 2147483648.0, 4294967295.5,
                                      4294967296.0, 1e30, -1e30, 1e-40, 255.5, -128.5};
    double v;
    if (pick < 2) v = specials[rng() % (sizeof specials / sizeof *specials)];
    else if (pick == 2) v = std::uniform_real_distribution<double>(-100, 100)(rng);
    else v = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), static_cast<int>(rng() % 80) - 40);
    if (d == DType::f32) {
      if (pick == 1 && rng() % 4 == 0) return put<std::uint32_t>(static_cast<std::uint32_t>(rng()));  // any bits
      return put<float>(static_cast<float>(v));
    }
    if (pick == 1 && rng() % 4 == 0) return (u64{rng()} << 32) | rng();
    return put<double>(v);
  }
  const unsigned bits = 8 * static_cast<unsigned>(dtype_size(d));
  const u64 mask = (u64{1} << bits) - 1;
  const u64 top = u64{1} << (bits - 1);
  static const std::int64_t small[] = {0, 1, -1, 2, -2, 3, 7, -7, 100, -100};
  u64 v;
  if (pick == 0) v = static_cast<u64>(small[rng() % 10]);
  else if (pick == 1) {
    const u64 edges[] = {top, top - 1, top + 1, mask, mask - 1, 0};
    v = edges[rng() % 6];
  } else v = (u64{rng()} << 32) | rng();
  return v & mask;
}

// ---- cases: a loop form, an image, a descriptor ---------------------------------------
struct Case {
  std::string name;
  Program p;
  LoopForm form;
  PodVector<std::uint8_t> module;
  std::vector<std::uint8_t> image, expected;
  std::uint32_t desc = 0, scratch = 0, scratch_bytes = 0, out_ptr = 0, out_bytes = 0;
  DType out = DType::f32;
};

void write(std::vector<std::uint8_t>& img, std::uint32_t at, u64 v, std::size_t n) { std::memcpy(&img[at], &v, n); }
u64 read(const std::vector<std::uint8_t>& img, std::uint32_t at, std::size_t n) {
  u64 v = 0;
  std::memcpy(&v, &img[at], n);
  return v;
}

// Lays out the inputs (each with random broadcast outer axes; strided inputs
// with an inner stride of 2, 3 or -2 elements), the output and the descriptor;
// fills them with values and guard bytes; computes the expected image.
bool build(Case& c, const std::vector<int>& counts, int n, std::mt19937& rng) {
  const Program& p = c.p;
  const int R = static_cast<int>(counts.size()), S = p.inputs + 1;
  c.form.rank = R;
  std::vector<DType> dt(S, DType::u8);
  c.out = dt[0] = p.result();
  for (const Instr& in : p.code)
    if (in.code == Code::load) dt[1 + in.a] = in.dtype;
  std::vector<std::int64_t> inner(S), ptr(S);
  std::vector<std::vector<std::int64_t>> outer(S, std::vector<std::int64_t>(R));
  std::vector<std::uint8_t>& img = c.image;
  img.assign(64, 0);
  auto reserve = [&](std::int64_t bytes) {  // a region after 16 guard bytes, at an element-aligned place
    std::uint32_t at = static_cast<std::uint32_t>(img.size()) + 16;
    at = (at + 7) & ~7u;
    at += 4 * (rng() % 3);  // not always 16-byte aligned
    img.resize(at + bytes + 16);
    for (std::size_t i = at - 16; i < img.size(); ++i) img[i] = static_cast<std::uint8_t>(rng());
    return at;
  };
  const std::uint32_t words = 3 + R + S * (2 + R) + R;
  c.desc = reserve(4 * words);
  for (int s = 0; s < S; ++s) {
    const std::int64_t es = static_cast<std::int64_t>(dtype_size(dt[s]));
    const InnerForm f = s == 0 ? InnerForm::contiguous : c.form.inputs[s - 1];
    inner[s] = f == InnerForm::contiguous ? es : f == InnerForm::splat ? 0 : es * std::array<int, 3>{2, 3, -2}[rng() % 3];
    std::int64_t span = inner[s] == 0 ? es : std::abs(inner[s]) * n;
    for (int j = 0; j < R; ++j) {
      const bool broadcast = s > 0 && rng() % 3 == 0;
      outer[s][j] = broadcast ? 0 : span;
      if (!broadcast) span *= counts[j];
    }
    const std::int64_t lo = inner[s] < 0 ? inner[s] * (n - 1) : 0;
    const std::uint32_t at = reserve(span + es);
    ptr[s] = at - lo;
    if (s > 0)
      for (std::int64_t b = 0; b + es <= span + es; b += es) write(img, at + static_cast<std::uint32_t>(b), random_value(dt[s], rng), es);
  }
  c.out_ptr = static_cast<std::uint32_t>(ptr[0]);
  std::int64_t rows = 1;
  for (int v : counts) rows *= v;
  c.out_bytes = static_cast<std::uint32_t>(rows * n * dtype_size(c.out));
  // the descriptor
  std::vector<std::int32_t> d = {R, n, static_cast<std::int32_t>(rows)};
  for (int v : counts) d.push_back(v);
  for (int s = 0; s < S; ++s) {
    d.push_back(static_cast<std::int32_t>(ptr[s]));
    d.push_back(static_cast<std::int32_t>(inner[s]));
    for (int j = 0; j < R; ++j) d.push_back(static_cast<std::int32_t>(outer[s][j]));
  }
  c.scratch = c.desc + 4 * static_cast<std::uint32_t>(d.size());
  c.scratch_bytes = 4 * R;
  for (int j = 0; j < R; ++j) d.push_back(0);
  std::memcpy(&img[c.desc], d.data(), 4 * d.size());
  // the expected image
  c.expected = img;
  std::vector<int> idx(R, 0);
  std::vector<u64> in(p.inputs);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (int i = 0; i < n; ++i) {
      std::vector<std::int64_t> at(S);
      for (int s = 0; s < S; ++s) {
        at[s] = ptr[s] + i * inner[s];
        for (int j = 0; j < R; ++j) at[s] += idx[j] * outer[s][j];
      }
      for (int k = 0; k < p.inputs; ++k) in[k] = read(img, static_cast<std::uint32_t>(at[1 + k]), dtype_size(dt[1 + k]));
      write(c.expected, static_cast<std::uint32_t>(at[0]), eval(p, in), dtype_size(c.out));
    }
    for (int j = 0; j < R && ++idx[j] == counts[j]; ++j) idx[j] = 0;
  }
  return generate(p, c.form, c.module);
}

std::string hex(u64 v, std::size_t n) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%0*llx", static_cast<int>(2 * n), static_cast<unsigned long long>(v));
  return b;
}

class Batch {
 public:
  // A case of program p over a random layout; names it `name`.
  void add(const std::string& name, const Program& p, std::vector<InnerForm> forms, std::vector<int> counts, int n) {
    Case c;
    c.name = "c" + std::to_string(cases_.size());
    label_.push_back(name);
    c.p = p;
    c.form.inputs.assign(forms.data(), forms.data() + forms.size());
    if (!build(c, counts, n, rng_)) {
      ADD_FAILURE() << name << ": generate() refused a program it should emit";
      return;
    }
    cases_.push_back(std::move(c));
  }
  // Random forms, rank 0..3 with counts 1..3, n 1..37.
  void add_random(const std::string& name, const Program& p) {
    std::vector<InnerForm> forms(p.inputs);
    for (auto& f : forms) {
      const unsigned r = rng_() % 6;
      f = r < 3 ? InnerForm::contiguous : r < 5 ? InnerForm::splat : InnerForm::strided;
    }
    std::vector<int> counts(rng_() % 4);
    for (auto& v : counts) v = 1 + static_cast<int>(rng_() % 3);
    add(name, p, forms, counts, 1 + static_cast<int>(rng_() % 37));
  }
  std::mt19937& rng() { return rng_; }
  std::size_t size() const { return cases_.size(); }

  // Runs every case in one node process and checks it.
  void run() {
    namespace fs = std::filesystem;
    char tmpl[] = "/tmp/tc_wasmgen_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const fs::path dir = tmpl;
    {
      std::ofstream list(dir / "cases.txt");
      for (const Case& c : cases_) {
        list << c.name << ' ' << c.desc << '\n';
        std::ofstream(dir / (c.name + ".wasm"), std::ios::binary)
            .write(reinterpret_cast<const char*>(c.module.data()), static_cast<std::streamsize>(c.module.size()));
        std::ofstream(dir / (c.name + ".mem"), std::ios::binary)
            .write(reinterpret_cast<const char*>(c.image.data()), static_cast<std::streamsize>(c.image.size()));
      }
    }
    const std::string cmd = std::string("\"") + TC_NODE_EXE + "\" \"" + TC_SOURCE_DIR +
                            "/tests/tools/run_wasmgen.mjs\" \"" + dir.string() + "\"";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::map<std::string, std::string> results;
    {
      std::ifstream in(dir / "results.txt");
      std::string line;
      while (std::getline(in, line)) {
        const auto sp = line.find(' ');
        results[line.substr(0, sp)] = line.substr(sp + 1);
      }
    }
    int failures = 0;
    for (std::size_t i = 0; i < cases_.size() && failures < 20; ++i) {
      const Case& c = cases_[i];
      const std::string& label = label_[i];
      if (results[c.name] != "ok") {
        ADD_FAILURE() << label << " (" << c.name << "): " << results[c.name];
        ++failures;
        continue;
      }
      std::ifstream in(dir / (c.name + ".out"), std::ios::binary);
      std::vector<std::uint8_t> got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (got.size() != c.image.size()) {
        ADD_FAILURE() << label << ": image size " << got.size();
        ++failures;
        continue;
      }
      std::memcpy(&got[c.scratch], &c.expected[c.scratch], c.scratch_bytes);  // the odometer's counters
      const std::size_t es = dtype_size(c.out);
      for (std::uint32_t b = 0; b < got.size(); ++b) {
        if (got[b] == c.expected[b]) continue;
        if (b >= c.out_ptr && b < c.out_ptr + c.out_bytes) {
          const std::uint32_t e = c.out_ptr + (b - c.out_ptr) / static_cast<std::uint32_t>(es) * static_cast<std::uint32_t>(es);
          const u64 want = read(c.expected, e, es), have = read(got, e, es);
          const bool nan = (c.out == DType::f32 && std::isnan(get<float>(want)) && std::isnan(get<float>(have))) ||
                           (c.out == DType::f64 && std::isnan(get<double>(want)) && std::isnan(get<double>(have)));
          if (nan) {
            b = e + static_cast<std::uint32_t>(es) - 1;
            continue;
          }
          ADD_FAILURE() << label << " (" << c.name << ", n " << read(c.image, c.desc + 4, 4) << ", rank "
                        << c.form.rank << "): element " << (e - c.out_ptr) / es << " is " << hex(have, es)
                        << ", the reference gives " << hex(want, es);
        } else {
          ADD_FAILURE() << label << " (" << c.name << "): byte " << b << " outside the output was written";
        }
        ++failures;
        break;
      }
    }
    if (failures == 0) fs::remove_all(dir);
    else std::fprintf(stderr, "wasmgen_test: the failing cases' files are in %s\n", dir.c_str());
  }

 private:
  std::vector<Case> cases_;
  std::vector<std::string> label_;
  std::mt19937 rng_{20261126};
};

bool contains(const PodVector<std::uint8_t>& m, std::initializer_list<std::uint8_t> seq) {
  return std::search(m.begin(), m.end(), seq.begin(), seq.end()) != m.end();
}

const DType kDtypes[] = {DType::f32, DType::f64, DType::i8, DType::u8, DType::i16, DType::u16, DType::i32, DType::u32};
bool is_f(DType d) { return d == DType::f32 || d == DType::f64; }

Program chain_a(DType d = DType::f32) {  // (x - m) / s
  B b;
  const int x = b.load(0, d), m = b.load(1, d);
  const int t = b.bin(Op::sub, x, m);
  b.bin(Op::div, t, b.load(2, d));
  return b.p;
}
Program chain_b(DType d = DType::f32) {  // a*b + c*d - e
  B b;
  const int ab = b.bin(Op::mul, b.load(0, d), b.load(1, d));
  const int cd = b.bin(Op::mul, b.load(2, d), b.load(3, d));
  b.bin(Op::sub, b.bin(Op::add, ab, cd), b.load(4, d));
  return b.p;
}

// ---- tests ----------------------------------------------------------------------------

TEST(Wasmgen, ChainsEveryRankAndRowLength) {
  Batch batch;
  const InnerForm C = InnerForm::contiguous, P = InnerForm::splat, T = InnerForm::strided;
  for (int rank = 0; rank <= 3; ++rank)
    for (int n = 1; n <= 37; ++n) {
      std::vector<int> counts(rank);
      for (int j = 0; j < rank; ++j) counts[j] = 1 + (n + j) % 3;
      const std::string at = " rank " + std::to_string(rank) + " n " + std::to_string(n);
      batch.add("chain A x,m,s contiguous" + at, chain_a(), {C, C, C}, counts, n);
      batch.add("chain A m,s splat" + at, chain_a(), {C, P, P}, counts, n);
      batch.add("chain A x strided" + at, chain_a(), {T, C, P}, counts, n);
      batch.add("chain A float64" + at, chain_a(DType::f64), {C, P, C}, counts, n);
      batch.add("chain B" + at, chain_b(), {C, C, P, C, P}, counts, n);
      batch.add("chain B strided" + at, chain_b(), {C, T, P, T, P}, counts, n);
    }
  for (int i = 0; i < 40; ++i) {
    batch.add_random("chain A random form", chain_a());
    batch.add_random("chain B random form", chain_b());
  }
  batch.run();
}

TEST(Wasmgen, ChainsGetTheSimdBody) {
  PodVector<std::uint8_t> m;
  const InnerForm C = InnerForm::contiguous, P = InnerForm::splat;
  ASSERT_TRUE(generate(chain_a(), LoopForm{1, {C, P, P}}, m));
  EXPECT_TRUE(contains(m, {0xFD, 0xE5, 0x01}));  // f32x4.sub
  EXPECT_TRUE(contains(m, {0xFD, 0xE7, 0x01}));  // f32x4.div
  EXPECT_TRUE(contains(m, {0xFD, 0x13}));        // f32x4.splat (m and s, once per row)
  EXPECT_TRUE(contains(m, {0xFD, 0x0B, 0x00, 0x30}));  // v128.store offset=48: the fourth vector of a step
  EXPECT_LE(m.size(), 720u);  // small: compiled per expression
  ASSERT_TRUE(generate(chain_a(), LoopForm{1, {C, C, C}}, m));
  EXPECT_TRUE(contains(m, {0xFD, 0xE7, 0x01}));
  ASSERT_TRUE(generate(chain_b(), LoopForm{2, {C, C, P, C, P}}, m));
  EXPECT_TRUE(contains(m, {0xFD, 0xE6, 0x01}));  // f32x4.mul
  EXPECT_TRUE(contains(m, {0xFD, 0xE4, 0x01}));  // f32x4.add
  EXPECT_TRUE(contains(m, {0xFD, 0xE5, 0x01}));  // f32x4.sub
  // A strided input: one element at a time, no SIMD body.
  ASSERT_TRUE(generate(chain_a(), LoopForm{1, {InnerForm::strided, C, C}}, m));
  EXPECT_FALSE(contains(m, {0xFD, 0xE7, 0x01}));
  // The module's frame: magic, version, the memory import, the "run" export.
  ASSERT_GE(m.size(), 8u);
  EXPECT_EQ(m[0], 0x00);
  EXPECT_EQ(m[1], 'a');
  EXPECT_TRUE(contains(m, {0x03, 'e', 'n', 'v', 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00, 0x00}));
  EXPECT_TRUE(contains(m, {0x03, 'r', 'u', 'n', 0x00, 0x00}));
}

// The SIMD loop's shapes: U vectors per step (4, or 2 for long programs), then
// one vector per step, then the scalar tail. Row lengths around each boundary
// (U * L, L and their multiples), for 4-byte lanes (L 4), 8-byte lanes (L 2),
// boolean results (stored L bytes per vector) and uint8 conditions (read L
// bytes per vector), with rows that start at every cursor offset the odometer
// gives.
TEST(Wasmgen, UnrolledLoopBoundaries) {
  Batch batch;
  const InnerForm C = InnerForm::contiguous, P = InnerForm::splat;
  const int lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 19, 20, 21, 23, 24, 25, 31, 32, 33,
                         35, 36, 37, 47, 48, 49, 63, 64, 65, 67, 68, 69, 71, 72, 73};
  // a long program (more than kUnrollFourMax instructions): two vectors per step
  B lng;
  {
    int v = lng.load(0, DType::f32);
    const int y = lng.load(1, DType::f32);
    for (int i = 0; i < 20; ++i) v = lng.bin(i % 2 ? Op::add : Op::mul, v, i % 3 ? y : lng.cf(DType::f32, 0.5 + i));
  }
  ASSERT_GT(lng.p.code.size(), 24u);
  B cmp;  // a boolean result: x < y
  cmp.bin(Op::less, cmp.load(0, DType::f32), cmp.load(1, DType::f32));
  B cmp64;
  cmp64.bin(Op::greater_equal, cmp64.load(0, DType::f64), cmp64.load(1, DType::f64));
  B cond;  // a uint8 condition: where(c, x, y)
  cond.sel(cond.load(0, DType::u8), cond.load(1, DType::i32), cond.load(2, DType::i32));
  B cond64;
  cond64.sel(cond64.load(0, DType::i8), cond64.load(1, DType::f64), cond64.load(2, DType::f64));
  for (int n : lengths)
    for (const std::vector<int>& counts : {std::vector<int>{}, std::vector<int>{3}, std::vector<int>{2, 2}}) {
      const std::string at = " n " + std::to_string(n) + " rank " + std::to_string(counts.size());
      batch.add("chain A" + at, chain_a(), {C, C, C}, counts, n);
      batch.add("chain A splat" + at, chain_a(), {C, P, P}, counts, n);
      batch.add("chain A float64" + at, chain_a(DType::f64), {C, C, P}, counts, n);
      batch.add("chain B" + at, chain_b(), {C, C, P, C, P}, counts, n);
      batch.add("chain B int32" + at, chain_b(DType::i32), {C, C, P, C, P}, counts, n);
      batch.add("long program" + at, lng.p, {C, C}, counts, n);
      batch.add("long program splat" + at, lng.p, {C, P}, counts, n);
      batch.add("x < y" + at, cmp.p, {C, C}, counts, n);
      batch.add("x >= y float64" + at, cmp64.p, {C, P}, counts, n);
      batch.add("where(u8, x, y)" + at, cond.p, {C, C, P}, counts, n);
      batch.add("where(i8, x, y) float64" + at, cond64.p, {C, C, C}, counts, n);
    }
  batch.run();
  // Both loops are there: the unrolled one's last offsets (a long program: 2 vectors)
  PodVector<std::uint8_t> m;
  ASSERT_TRUE(generate(chain_a(), LoopForm{1, {C, C, C}}, m));
  EXPECT_TRUE(contains(m, {0xFD, 0x00, 0x00, 0x30}));  // v128.load offset=48
  ASSERT_TRUE(generate(lng.p, LoopForm{1, {C, C}}, m));
  EXPECT_TRUE(contains(m, {0xFD, 0x0B, 0x00, 0x10}));   // v128.store offset=16
  EXPECT_FALSE(contains(m, {0xFD, 0x0B, 0x00, 0x20}));  // no third vector
  ASSERT_TRUE(generate(cmp.p, LoopForm{0, {C, C}}, m));
  EXPECT_TRUE(contains(m, {0xFD, 0x5A, 0x00, 0x0C, 0x00}));  // v128.store32_lane offset=12: the fourth mask
}

TEST(Wasmgen, EveryBinaryOpEveryDtype) {
  const Op ops_[] = {Op::add, Op::sub, Op::mul, Op::div, Op::minimum, Op::maximum, Op::equal, Op::not_equal,
                     Op::less, Op::less_equal, Op::greater, Op::greater_equal, Op::logical_and, Op::logical_or,
                     Op::logical_xor, Op::bitwise_and, Op::bitwise_or, Op::bitwise_xor};
  Batch batch;
  for (DType d : kDtypes)
    for (Op op : ops_) {
      if (is_f(d) ? (op >= Op::bitwise_and && op <= Op::bitwise_xor) : op == Op::div) continue;
      B b;
      b.bin(op, b.load(0, d), b.load(1, d));
      ASSERT_TRUE(can_generate(b.p)) << op_name(op) << " " << dtype_name(d);
      const std::string name = std::string(op_name(op)) + " " + dtype_name(d);
      for (int i = 0; i < 4; ++i) batch.add_random(name, b.p);
      // both inputs the same register: x op x (NaN, -0 against itself)
      B s;
      const int x = s.load(0, d);
      s.bin(op, x, x);
      batch.add_random(name + " x op x", s.p);
    }
  batch.run();
}

TEST(Wasmgen, EveryUnaryOpEveryDtype) {
  const UnaryOp ops_[] = {UnaryOp::neg, UnaryOp::abs, UnaryOp::sign, UnaryOp::sqrt, UnaryOp::floor, UnaryOp::ceil,
                          UnaryOp::round, UnaryOp::trunc, UnaryOp::logical_not, UnaryOp::bitwise_not,
                          UnaryOp::is_nan, UnaryOp::is_finite};
  Batch batch;
  for (DType d : kDtypes)
    for (UnaryOp u : ops_) {
      if (is_f(d) ? u == UnaryOp::bitwise_not : u == UnaryOp::sqrt) continue;
      B b;
      b.un(u, b.load(0, d));
      ASSERT_TRUE(can_generate(b.p)) << static_cast<int>(u) << " " << dtype_name(d);
      for (int i = 0; i < 5; ++i) batch.add_random("unary " + std::to_string(static_cast<int>(u)) + " " + dtype_name(d), b.p);
    }
  batch.run();
}

// float32 exp and sigmoid are emitted as fast_f32.hpp's operations (the
// kernels' bits): alone, inside a chain, twice in one step, over random values
// (the clamps at 89 and -104, subnormal results, NaN, any bits) in every input
// form, and where every lane takes the short path (exp_near).
TEST(Wasmgen, Float32Exp) {
  Batch batch;
  const DType f = DType::f32;
  B a;
  a.un(UnaryOp::exp, a.load(0, f));
  B chain;  // exp(x - m) * s
  chain.bin(Op::mul, chain.un(UnaryOp::exp, chain.bin(Op::sub, chain.load(0, f), chain.load(1, f))), chain.load(2, f));
  B twice;  // exp(x) + exp(-x): two in one step share the temporaries
  const int x = twice.load(0, f);
  twice.bin(Op::add, twice.un(UnaryOp::exp, x), twice.un(UnaryOp::exp, twice.un(UnaryOp::neg, x)));
  B wide;  // exp(x * 100): most lanes past the near range
  wide.un(UnaryOp::exp, wide.bin(Op::mul, wide.load(0, f), wide.cf(f, 100)));
  B sig;  // sigmoid(x), x * sigmoid(x * 10) and sigmoid(x) + exp(x): exp's locals shared
  sig.un(UnaryOp::sigmoid, sig.load(0, f));
  B silu;
  const int y = silu.load(0, f);
  silu.bin(Op::mul, y, silu.un(UnaryOp::sigmoid, silu.bin(Op::mul, y, silu.cf(f, 10))));
  B both;
  const int z = both.load(0, f);
  both.bin(Op::add, both.un(UnaryOp::sigmoid, z), both.un(UnaryOp::exp, z));
  B near;  // exp(80 x / (|x| + 1)) and its sigmoid: every lane within 86 of 0 (the short path; NaN from +-inf)
  const int v = near.load(0, f);
  const int w = near.bin(Op::mul, near.bin(Op::div, v, near.bin(Op::add, near.un(UnaryOp::abs, v), near.cf(f, 1))), near.cf(f, 80));
  near.bin(Op::add, near.un(UnaryOp::exp, w), near.un(UnaryOp::sigmoid, w));
  for (const B* b : {&a, &chain, &twice, &wide, &sig, &silu, &both, &near}) {
    ASSERT_TRUE(can_generate(b->p));
    for (int i = 0; i < 24; ++i) batch.add_random("float32 exp and sigmoid", b->p);
  }
  batch.run();
}

// float32 log is emitted as fast_f32.hpp's operations too: alone, in a chain
// (a binary cross-entropy's terms), beside exp (their locals shared), over
// random bits (subnormals, zeros, negatives, NaN, +-Inf) in every input form.
TEST(Wasmgen, Float32Log) {
  Batch batch;
  const DType f = DType::f32;
  B a;
  a.un(UnaryOp::log, a.load(0, f));
  B bce;  // t * log(p) + (1 - t) * log(1 - p)
  const int p = bce.load(0, f), t = bce.load(1, f);
  bce.bin(Op::add, bce.bin(Op::mul, t, bce.un(UnaryOp::log, p)),
          bce.bin(Op::mul, bce.bin(Op::sub, bce.cf(f, 1), t), bce.un(UnaryOp::log, bce.bin(Op::sub, bce.cf(f, 1), p))));
  B mixed;  // log(exp(x) + 1) and sigmoid(log(x)): exp's and log's locals in one step
  const int x = mixed.load(0, f);
  mixed.bin(Op::add, mixed.un(UnaryOp::log, mixed.bin(Op::add, mixed.un(UnaryOp::exp, x), mixed.cf(f, 1))),
            mixed.un(UnaryOp::sigmoid, mixed.un(UnaryOp::log, x)));
  B abs;  // log(|x|): every positive float, subnormals included
  abs.un(UnaryOp::log, abs.un(UnaryOp::abs, abs.load(0, f)));
  for (const B* b : {&a, &bce, &mixed, &abs}) {
    ASSERT_TRUE(can_generate(b->p));
    for (int i = 0; i < 24; ++i) batch.add_random("float32 log", b->p);
  }
  batch.run();
}

// float32 tanh is emitted as fast_f32.hpp's operations too: alone (random bits:
// zeros, subnormals, tiny, NaN, +-Inf, both of its branches, past 10), scaled so
// most lanes take the polynomial or expm1's branches, in a chain, beside exp and
// log (their locals shared).
TEST(Wasmgen, Float32Tanh) {
  Batch batch;
  const DType f = DType::f32;
  B a;
  a.un(UnaryOp::tanh, a.load(0, f));
  B mid;  // tanh(x / (|x| + 1) * 12): every lane in (-12, 12), either side of 0.625 and of expm1's split
  const int v = mid.load(0, f);
  mid.un(UnaryOp::tanh, mid.bin(Op::mul, mid.bin(Op::div, v, mid.bin(Op::add, mid.un(UnaryOp::abs, v), mid.cf(f, 1))),
                                mid.cf(f, 12)));
  B gelu;  // x * (1 + tanh(0.8 x)) / 2 and tanh(x) + exp(x) + log(|x|)
  const int x = gelu.load(0, f);
  gelu.bin(Op::mul, gelu.bin(Op::mul, x, gelu.bin(Op::add, gelu.cf(f, 1), gelu.un(UnaryOp::tanh, gelu.bin(Op::mul, x, gelu.cf(f, 0.8))))),
           gelu.cf(f, 0.5));
  B mixed;
  const int y = mixed.load(0, f);
  mixed.bin(Op::add, mixed.bin(Op::add, mixed.un(UnaryOp::tanh, y), mixed.un(UnaryOp::exp, y)),
            mixed.un(UnaryOp::log, mixed.un(UnaryOp::abs, y)));
  for (const B* b : {&a, &mid, &gelu, &mixed}) {
    ASSERT_TRUE(can_generate(b->p));
    for (int i = 0; i < 24; ++i) batch.add_random("float32 tanh", b->p);
  }
  batch.run();
}

// float32 expm1 is emitted as fast_f32.hpp's operations too: alone (random
// bits: zeros, subnormals, tiny, NaN, +-Inf, both branches and both clamps),
// scaled so most lanes fall in (-40, 100) (either side of its split at n = 25
// and of -30), an ELU's negative side beside softplus (log1p on the
// interpreter's side of the program), and beside tanh, exp and log (their
// locals shared).
TEST(Wasmgen, Float32Expm1) {
  Batch batch;
  const DType f = DType::f32;
  B e;
  e.un(UnaryOp::expm1, e.load(0, f));
  B es;  // expm1(x / (|x| + 1) * 70 + 30): lanes in (-40, 100)
  const int v = es.load(0, f);
  es.un(UnaryOp::expm1, es.bin(Op::add, es.bin(Op::mul, es.bin(Op::div, v, es.bin(Op::add, es.un(UnaryOp::abs, v), es.cf(f, 1))),
                                              es.cf(f, 70)), es.cf(f, 30)));
  B elu;  // where(x > 0, x, expm1(x)) * 1.05
  const int x = elu.load(0, f);
  elu.bin(Op::mul, elu.sel(elu.bin(Op::greater, x, elu.cf(f, 0)), x, elu.un(UnaryOp::expm1, x)), elu.cf(f, 1.05));
  B mixed;  // tanh(x) + expm1(x) * exp(-|x|) + log(|x|)
  const int y = mixed.load(0, f);
  mixed.bin(Op::add, mixed.bin(Op::add, mixed.un(UnaryOp::tanh, y),
                               mixed.bin(Op::mul, mixed.un(UnaryOp::expm1, y), mixed.un(UnaryOp::exp, mixed.un(UnaryOp::neg, mixed.un(UnaryOp::abs, y))))),
            mixed.un(UnaryOp::log, mixed.un(UnaryOp::abs, y)));
  for (const B* b : {&e, &es, &elu, &mixed}) {
    ASSERT_TRUE(can_generate(b->p));
    for (int i = 0; i < 24; ++i) batch.add_random("float32 expm1", b->p);
  }
  batch.run();
}

TEST(Wasmgen, Selects) {
  Batch batch;
  const DType conds[] = {DType::u8, DType::i8, DType::f32, DType::f64, DType::i32, DType::u32, DType::i16};
  const DType values[] = {DType::f32, DType::f64, DType::i32, DType::u32, DType::i8, DType::u16};
  for (DType c : conds)
    for (DType v : values) {
      B b;
      b.sel(b.load(0, c), b.load(1, v), b.load(2, v));
      for (int i = 0; i < 3; ++i) batch.add_random(std::string("where ") + dtype_name(c) + " " + dtype_name(v), b.p);
    }
  // conditions computed in the program: where(x < y, x, y), where(x != x, 0, x), where(!(x > 0), -x, x)
  for (DType d : {DType::f32, DType::f64, DType::i32, DType::u32}) {
    B b;
    const int x = b.load(0, d), y = b.load(1, d);
    b.sel(b.bin(Op::less, x, y), x, y);
    B n;
    const int z = n.load(0, d);
    n.sel(n.bin(Op::not_equal, z, z), is_f(d) ? n.cf(d, 0) : n.ci(d, 0), z);
    B g;
    const int w = g.load(0, d);
    g.sel(g.un(UnaryOp::logical_not, g.bin(Op::greater, w, is_f(d) ? g.cf(d, 0) : g.ci(d, 0))), g.un(UnaryOp::neg, w), w);
    for (int i = 0; i < 6; ++i) {
      batch.add_random(std::string("where(x < y, x, y) ") + dtype_name(d), b.p);
      batch.add_random(std::string("where(x != x, 0, x) ") + dtype_name(d), n.p);
      batch.add_random(std::string("where(!(x > 0), -x, x) ") + dtype_name(d), g.p);
    }
  }
  batch.run();
}

TEST(Wasmgen, Casts) {
  Batch batch;
  for (DType f : kDtypes)
    for (DType t : kDtypes) {
      B b;
      b.cast(b.load(0, f), t);
      ASSERT_TRUE(can_generate(b.p)) << dtype_name(f) << " -> " << dtype_name(t);
      for (int i = 0; i < 6; ++i) batch.add_random(std::string("cast ") + dtype_name(f) + " -> " + dtype_name(t), b.p);
    }
  // float -> 8/16-bit integers around their bounds: 127.9, 128, -128.9, -129, 255.5, 256, 65535.9, ...
  for (DType f : {DType::f32, DType::f64})
    for (DType t : {DType::i8, DType::u8, DType::i16, DType::u16}) {
      B b;
      b.cast(b.bin(Op::mul, b.load(0, f), b.cf(f, 300.25)), t);
      for (int i = 0; i < 4; ++i) batch.add_random(std::string("cast(x * 300.25) ") + dtype_name(f) + " -> " + dtype_name(t), b.p);
    }
  // a boolean to numbers: cast(x < y, 'float32') * x
  for (DType d : {DType::f32, DType::f64, DType::i32, DType::u32}) {
    B b;
    const int x = b.load(0, d);
    b.bin(Op::mul, b.cast(b.bin(Op::less, x, b.load(1, d)), d), x);
    for (int i = 0; i < 6; ++i) batch.add_random(std::string("cast(x < y) * x ") + dtype_name(d), b.p);
  }
  // uint8clamped from and to every dtype (the SIMD body where the other is a lane dtype),
  // floats around the bounds and the .5 ties (x * 300.25 + 0.5), and widened and narrowed again
  for (DType o : kDtypes) {
    for (int dir = 0; dir < 2; ++dir) {
      const DType f = dir ? DType::u8c : o, t = dir ? o : DType::u8c;
      B b;
      b.cast(b.load(0, f), t);
      ASSERT_TRUE(can_generate(b.p)) << dtype_name(f) << " -> " << dtype_name(t);
      for (int i = 0; i < 6; ++i) batch.add_random(std::string("cast ") + dtype_name(f) + " -> " + dtype_name(t), b.p);
    }
  }
  for (DType f : {DType::f32, DType::f64})
    for (DType t : {DType::u8c, DType::u8}) {
      B b;
      b.cast(b.bin(Op::add, b.bin(Op::mul, b.load(0, f), b.cf(f, 300.25)), b.cf(f, 0.5)), t);
      for (int i = 0; i < 4; ++i) batch.add_random(std::string("cast(x * 300.25 + 0.5) ") + dtype_name(f) + " -> " + dtype_name(t), b.p);
      B w;
      w.cast(w.bin(Op::mul, w.cast(w.load(0, t), f), w.cf(f, 1.5)), t);
      for (int i = 0; i < 4; ++i) batch.add_random(std::string("cast(cast(x) * 1.5) ") + dtype_name(t) + " <-> " + dtype_name(f), w.p);
    }
  // through another width: float32 -> float64 -> int32 -> float32
  {
    B b;
    b.cast(b.cast(b.cast(b.load(0, DType::f32), DType::f64), DType::i32), DType::f32);
    for (int i = 0; i < 6; ++i) batch.add_random("f32 -> f64 -> i32 -> f32", b.p);
  }
  batch.run();
}

TEST(Wasmgen, ConstantsAndBooleans) {
  Batch batch;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::f32, DType::f64}) {
    B b;  // x * 2.5 + -0 - NaN-free; then minimum with NaN constant
    const int x = b.load(0, d);
    b.bin(Op::add, b.bin(Op::mul, x, b.cf(d, 2.5)), b.cf(d, -0.0));
    B n;
    n.bin(Op::maximum, n.load(0, d), n.cf(d, nan));
    B z;  // minimum(x, -0), maximum(x, +0)
    const int y = z.load(0, d);
    z.bin(Op::maximum, z.bin(Op::minimum, y, z.cf(d, -0.0)), z.cf(d, 0.0));
    B k;  // a constant program: no load at all
    k.cf(d, 0.1);
    for (int i = 0; i < 6; ++i) {
      batch.add_random(std::string("x * 2.5 + -0 ") + dtype_name(d), b.p);
      batch.add_random(std::string("maximum(x, NaN) ") + dtype_name(d), n.p);
      batch.add_random(std::string("maximum(minimum(x, -0), 0) ") + dtype_name(d), z.p);
      batch.add(std::string("constant ") + dtype_name(d), k.p, {}, {2}, 1 + i * 5);
    }
  }
  for (DType d : kDtypes) {
    if (is_f(d)) continue;
    B b;  // (x + 100) ^ -7  wraps
    const int x = b.load(0, d);
    b.bin(Op::bitwise_xor, b.bin(Op::add, x, b.ci(d, 100)), b.ci(d, -7));
    for (int i = 0; i < 4; ++i) batch.add_random(std::string("(x + 100) ^ -7 ") + dtype_name(d), b.p);
  }
  // booleans: logical ops over float comparisons and uint8 inputs, stored as uint8
  for (DType d : {DType::f32, DType::f64, DType::i32}) {
    B b;
    const int x = b.load(0, d), y = b.load(1, d), c = b.load(2, DType::u8);
    const int lt = b.bin(Op::less, x, y), ne = b.bin(Op::not_equal, x, y);
    b.bin(Op::logical_or, b.bin(Op::logical_and, lt, c), b.bin(Op::logical_xor, ne, b.un(UnaryOp::logical_not, x)));
    B t;  // logicalAnd(x, true) with a uint8 constant
    t.bin(Op::logical_and, t.un(UnaryOp::is_finite, t.load(0, d)), t.ci(DType::u8, 1));
    for (int i = 0; i < 8; ++i) {
      batch.add_random(std::string("(x < y && c) || (x != y ^ !x) ") + dtype_name(d), b.p);
      batch.add_random(std::string("isFinite(x) && 1 ") + dtype_name(d), t.p);
    }
  }
  {
    B b;  // uint8 logic alone
    b.un(UnaryOp::logical_not, b.bin(Op::logical_xor, b.load(0, DType::u8), b.load(1, DType::u8)));
    B i8;
    i8.bin(Op::logical_or, i8.un(UnaryOp::logical_not, i8.load(0, DType::i8)), i8.ci(DType::u8, 0));
    for (int i = 0; i < 8; ++i) {
      batch.add_random("!(u8 xor u8)", b.p);
      batch.add_random("!i8 || 0", i8.p);
    }
  }
  {
    B b;  // an unused input, one input loaded twice
    b.load(0, DType::f32);
    const int x = b.load(1, DType::f32);
    b.bin(Op::mul, x, b.load(1, DType::f32));
    b.p.inputs = 3;
    for (int i = 0; i < 8; ++i) batch.add_random("unused inputs, x loaded twice", b.p);
  }
  batch.run();
}

// A program that only reads: a copy (broadcastTo), every dtype and form, the
// result register being the input itself (a splat input's row value included).
TEST(Wasmgen, Copies) {
  Batch batch;
  for (DType d : kDtypes) {
    B b;
    b.load(0, d);
    for (InnerForm f : {InnerForm::contiguous, InnerForm::splat, InnerForm::strided})
      for (int n : {1, 3, 4, 5, 16, 17, 33}) batch.add(std::string("copy ") + dtype_name(d), b.p, {f}, {2, 3}, n);
  }
  batch.run();
}

// Random programs over one dtype: any mix of the emitted ops, selects and constants.
TEST(Wasmgen, RandomPrograms) {
  Batch batch;
  std::mt19937& rng = batch.rng();
  for (int t = 0; t < 300; ++t) {
    const DType d = std::array<DType, 5>{DType::f32, DType::f64, DType::i32, DType::u32, DType::i16}[t % 5];
    const bool f = is_f(d);
    B b;
    std::vector<int> vals, bools;
    const int inputs = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < inputs; ++k) vals.push_back(b.load(k, d));
    const int steps = 1 + static_cast<int>(rng() % 8);
    for (int s = 0; s < steps; ++s) {
      auto any = [&] { return vals[rng() % vals.size()]; };
      const unsigned r = rng() % 10;
      if (r < 4) {
        const Op arith[] = {Op::add, Op::sub, Op::mul, f ? Op::div : Op::bitwise_xor, Op::minimum, Op::maximum};
        vals.push_back(b.bin(arith[rng() % 6], any(), any()));
      } else if (r < 6) {
        const UnaryOp un[] = {UnaryOp::neg, UnaryOp::abs, UnaryOp::sign, f ? UnaryOp::sqrt : UnaryOp::bitwise_not,
                              UnaryOp::floor, UnaryOp::round};
        vals.push_back(b.un(un[rng() % 6], any()));
      } else if (r < 8) {
        const Op cmp[] = {Op::less, Op::greater_equal, Op::equal, Op::logical_or};
        bools.push_back(b.bin(cmp[rng() % 4], any(), any()));
      } else if (r == 8) {
        vals.push_back(f ? b.cf(d, std::ldexp(static_cast<double>(rng() % 200) - 100, -3)) : b.ci(d, static_cast<int>(rng() % 200) - 100));
      } else if (!bools.empty()) {
        vals.push_back(b.sel(bools[rng() % bools.size()], any(), any()));
      }
    }
    if (rng() % 4 == 0 && !bools.empty()) b.bin(Op::logical_and, bools.back(), bools.front());  // a uint8 result
    else if (b.p.code.back().out != d) b.sel(static_cast<int>(b.p.code.size()) - 1, vals.back(), vals.front());
    ASSERT_TRUE(can_generate(b.p));
    batch.add_random("random program " + std::to_string(t) + " " + dtype_name(d), b.p);
  }
  batch.run();
}

TEST(Wasmgen, RefusesWhatItCannotEmitExactly) {
  PodVector<std::uint8_t> m{1, 2, 3};
  auto refused = [&](const Program& p) {
    m.assign(3, 1);
    LoopForm form{1, PodVector<InnerForm>(static_cast<std::size_t>(p.inputs), InnerForm::contiguous)};
    const bool gen = generate(p, form, m);
    return !can_generate(p) && !gen && m.empty();
  };
  // binary ops without an exact wasm sequence, on floats and integers
  for (Op op : {Op::rem, Op::pow, Op::mod, Op::floor_div}) {
    for (DType d : {DType::f32, DType::f64, DType::i32, DType::u32}) {
      B b;
      b.bin(op, b.load(0, d), b.load(1, d));
      EXPECT_TRUE(refused(b.p)) << op_name(op) << " " << dtype_name(d);
    }
  }
  for (Op op : {Op::atan2, Op::hypot}) {
    B b;
    b.bin(op, b.load(0, DType::f32), b.load(1, DType::f32));
    EXPECT_TRUE(refused(b.p)) << op_name(op);
  }
  for (DType d : {DType::i8, DType::u8, DType::i16, DType::u16, DType::i32, DType::u32}) {  // integer division traps on / 0
    B b;
    b.bin(Op::div, b.load(0, d), b.load(1, d));
    EXPECT_TRUE(refused(b.p)) << "div " << dtype_name(d);
  }
  for (UnaryOp u : {UnaryOp::exp, UnaryOp::expm1, UnaryOp::log, UnaryOp::log1p, UnaryOp::sin, UnaryOp::cos,
                    UnaryOp::tan, UnaryOp::tanh}) {
    B b;
    b.un(u, b.load(0, DType::f64));
    EXPECT_TRUE(refused(b.p)) << static_cast<int>(u);
    if (u == UnaryOp::exp || u == UnaryOp::expm1 || u == UnaryOp::log || u == UnaryOp::tanh)
      continue;  // emitted in float32 (Float32Exp, Float32Expm1, Float32Log, Float32Tanh)
    B g;
    g.un(u, g.load(0, DType::f32));
    EXPECT_TRUE(refused(g.p)) << static_cast<int>(u) << " float32";
  }
  // dtypes: 64-bit integers and float16, anywhere
  for (DType d : {DType::i64, DType::u64, DType::f16}) {
    B b;
    b.bin(Op::add, b.load(0, d), b.load(1, d));
    EXPECT_TRUE(refused(b.p)) << dtype_name(d);
    B l;
    l.load(0, d);
    EXPECT_TRUE(refused(l.p)) << "load " << dtype_name(d);
    B c;
    c.cast(c.load(0, DType::f32), d);
    EXPECT_TRUE(refused(c.p)) << "cast to " << dtype_name(d);
    B s;
    s.sel(s.load(0, d), s.load(1, DType::f32), s.load(2, DType::f32));
    EXPECT_TRUE(refused(s.p)) << "condition " << dtype_name(d);
  }
  // bitwise ops on floats, sqrt on integers (not defined)
  {
    B b;
    b.bin(Op::bitwise_and, b.load(0, DType::f32), b.load(1, DType::f32));
    EXPECT_TRUE(refused(b.p));
    B s;
    s.un(UnaryOp::sqrt, s.load(0, DType::i32));
    EXPECT_TRUE(refused(s.p));
  }
  // malformed programs: empty, a forward register, a dtype that does not match its register,
  // a load beyond the inputs, one input loaded as two dtypes
  EXPECT_TRUE(refused(Program{}));
  {
    B b;
    b.load(0, DType::f32);
    b.bin(Op::add, 0, 0);
    b.p.code[1].b = 1;
    EXPECT_TRUE(refused(b.p));
    B m2;
    const int x = m2.load(0, DType::f32), y = m2.load(1, DType::f64);
    m2.bin(Op::add, x, x);
    m2.p.code[2].b = y;
    EXPECT_TRUE(refused(m2.p));
    B l;
    l.load(0, DType::f32);
    l.p.code[0].a = 1;
    EXPECT_TRUE(refused(l.p));
    B t;
    t.load(0, DType::f32);
    t.load(0, DType::i32);
    EXPECT_TRUE(refused(t.p));
    B o;  // a comparison claiming a float32 result
    o.bin(Op::less, o.load(0, DType::f32), o.load(1, DType::f32));
    o.p.code[2].out = DType::f32;
    EXPECT_TRUE(refused(o.p));
  }
  // a form that does not fit the program: generate() false, the bytes cleared
  {
    PodVector<std::uint8_t> out{9};
    EXPECT_TRUE(can_generate(chain_a()));
    EXPECT_FALSE(generate(chain_a(), LoopForm{1, {InnerForm::contiguous}}, out));
    EXPECT_TRUE(out.empty());
    out = {9};
    EXPECT_FALSE(generate(chain_a(), LoopForm{-1, PodVector<InnerForm>(3)}, out));
    EXPECT_TRUE(out.empty());
    out = {9};
    EXPECT_FALSE(generate(chain_a(), LoopForm{32, PodVector<InnerForm>(3)}, out));
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(generate(chain_a(), LoopForm{31, PodVector<InnerForm>(3)}, out));
  }
}

}  // namespace

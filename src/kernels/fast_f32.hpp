// float32 exp, expm1, log, log1p, tanh and sigmoid: each written once, over a
// lane type, so the scalar reference (S: one float) and the SIMD128 kernel
// (V: four lanes, unary_wasmsimd.cpp) run the same operations in the same
// order and agree bit for bit. Every step is one IEEE float32 operation
// (no fused multiply-add: SIMD128 has none), every branch a select.
//
// The algorithms are the classic ones (Cody-Waite reduction and a short
// polynomial; log's and tanh's coefficients are Cephes' float32 ones, exp's
// are fitted below, kExpQ): exp reduces
// x = n ln2 + r (|r| <= ln2/2) and scales by 2^n in two steps, so results
// that are subnormal round once; log splits x = 2^e m (m in [sqrt(1/2),
// sqrt(2))) from the bits; log1p uses x itself as log's reduced argument near
// 0 and corrects log(1 + x) by the rounding of 1 + x elsewhere; expm1 is
// 2^n expm1(r) + (2^n - 1) (from n = 25 on, exp(x)); tanh a polynomial below 0.625, else
// expm1(2|x|) / (expm1(2|x|) + 2) with x's sign; sigmoid 1 / (1 + exp(-x))
// for x >= 0 and exp(x) / (1 + exp(x)) below (no overflow either side).
// No f32x4.min/max or trunc_sat (V8 lowers them to long sequences): pmin/pmax
// clamp, and 1.5 * 2^23 added and taken away rounds to an integer.
//
// The errors against the correctly rounded result, over every float32 input,
// are measured by tests/cpp/fast_f32_test.cpp (a dense sample in CI) and
// tools/f32_accuracy.cpp (all 2^32: npm run accuracy): see docs/accuracy.md.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace tc::f32m {

// ---- lanes ---------------------------------------------------------------------------------
struct S {  // one float
  using F = float;
  using I = int32_t;
  using M = bool;
  static F f(float c) { return c; }
  static I i(int32_t c) { return c; }
  static F add(F a, F b) { return a + b; }
  static F sub(F a, F b) { return a - b; }
  static F mul(F a, F b) { return a * b; }
  static F div(F a, F b) { return a / b; }
  static I bits(F a) {
    I r;
    std::memcpy(&r, &a, 4);
    return r;
  }
  static F from(I a) {
    F r;
    std::memcpy(&r, &a, 4);
    return r;
  }
  static I iadd(I a, I b) { return static_cast<I>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
  static I isub(I a, I b) { return static_cast<I>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b)); }
  static I shl(I a, int s) { return static_cast<I>(static_cast<uint32_t>(a) << s); }
  static I sar(I a, int s) { return a >> s; }
  static I band(I a, I b) { return a & b; }
  static I bor(I a, I b) { return a | b; }
  static M lt(F a, F b) { return a < b; }
  static M eq(F a, F b) { return a == b; }
  static M ne(F a, F b) { return a != b; }
  static M mor(M a, M b) { return a || b; }
  static F sel(M m, F a, F b) { return m ? a : b; }
  static F pmin(F a, F b) { return b < a ? b : a; }
  static F pmax(F a, F b) { return a < b ? b : a; }
};

#if defined(__wasm_simd128__)
struct V {  // four floats
  using F = v128_t;
  using I = v128_t;
  using M = v128_t;
  static F f(float c) { return wasm_f32x4_splat(c); }
  static I i(int32_t c) { return wasm_i32x4_splat(c); }
  static F add(F a, F b) { return wasm_f32x4_add(a, b); }
  static F sub(F a, F b) { return wasm_f32x4_sub(a, b); }
  static F mul(F a, F b) { return wasm_f32x4_mul(a, b); }
  static F div(F a, F b) { return wasm_f32x4_div(a, b); }
  static I bits(F a) { return a; }
  static F from(I a) { return a; }
  static I iadd(I a, I b) { return wasm_i32x4_add(a, b); }
  static I isub(I a, I b) { return wasm_i32x4_sub(a, b); }
  static I shl(I a, int s) { return wasm_i32x4_shl(a, s); }
  static I sar(I a, int s) { return wasm_i32x4_shr(a, s); }
  static I band(I a, I b) { return wasm_v128_and(a, b); }
  static I bor(I a, I b) { return wasm_v128_or(a, b); }
  static M lt(F a, F b) { return wasm_f32x4_lt(a, b); }
  static M eq(F a, F b) { return wasm_f32x4_eq(a, b); }
  static M ne(F a, F b) { return wasm_f32x4_ne(a, b); }
  static M mor(M a, M b) { return wasm_v128_or(a, b); }
  static F sel(M m, F a, F b) { return wasm_v128_bitselect(a, b, m); }
  static F pmin(F a, F b) { return wasm_f32x4_pmin(a, b); }
  static F pmax(F a, F b) { return wasm_f32x4_pmax(a, b); }
};

#endif

// ---- the functions ----------------------------------------------------------------------
constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: x + kMagic - kMagic rounds x to an integer (|x| < 2^22)
constexpr int32_t kMagicBits = 0x4B400000;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f;  // 9 bits: n * kLn2Hi is exact for |n| <= 2^15
constexpr float kLn2Lo = -2.12194440e-4f;
// exp's clamps: past kExpHi the result is +inf, below kExpLo +0.
constexpr float kExpHi = 89.0f;
constexpr float kExpLo = -104.0f;
// q(r) = (expm1(r) - r) / r^2 (exp_q), degree 4, its coefficients from the
// highest power down: fitted, with 1/2 exact, to exp(r) = 1 + r + r^2 q(r) in
// float32 ulps of the result: within 0.05 ulp of it on |r| <= ln2/2, and of
// expm1(r) within 0.26 ulp (tools/fit_exp_q.py). Cephes' degree 5 (0.014 and
// 0.055) took a polynomial step more: 1M exp 1.02-1.11x this time, sigmoid 1.06-1.10x.
constexpr float kExpQ[5] = {0.0013851393014192581f, 0.008366779424250126f, 0.041667383164167404f,
                            0.16666541993618011f, 0.5f};

// exp's reduction of x (clamped): n (a float integer), its bits as an int, r = x - n ln2.
template <class L>
struct Reduced {
  typename L::F n, r;
  typename L::I ni;
};
template <class L>
Reduced<L> reduce(typename L::F x) {
  const auto t = L::add(L::mul(x, L::f(kLog2e)), L::f(kMagic));
  const auto n = L::sub(t, L::f(kMagic));
  auto r = L::sub(x, L::mul(n, L::f(kLn2Hi)));
  r = L::sub(r, L::mul(n, L::f(kLn2Lo)));
  return {n, r, L::isub(L::bits(t), L::i(kMagicBits))};
}

// expm1(r) - r over r^2, |r| <= ln2/2 (exp(r) = 1 + r + r^2 q(r)).
template <class L>
typename L::F exp_q(typename L::F r) {
  auto p = L::f(kExpQ[0]);
  for (int k = 1; k < 5; ++k) p = L::add(L::mul(p, r), L::f(kExpQ[k]));
  return p;
}

// 2^k for k in [-126, 127], from the bits.
template <class L>
typename L::F pow2(typename L::I k) {
  return L::from(L::shl(L::iadd(k, L::i(127)), 23));
}

// exp where |x| <= 86 (a SIMD kernel's common case, below): the clamps are
// no-ops there, n lies in [-124, 124] and y in [0.7, 1.42), so y 2^n is a
// normal float, exact: y's bits with n added to the exponent field, and
// ni << 23 is n << 23 (the magic's bits leave past bit 31). The same bits as
// exp() in two integer steps, not a multiply and three (1M exp 0.98x the
// time, softmax over [8,32000] 0.96x; from -86.99 down n may be -126, y 2^n subnormal).
template <class L>
typename L::F exp_near(typename L::F x) {
  const auto d = reduce<L>(x);
  const auto r2 = L::mul(d.r, d.r);
  const auto y = L::add(L::add(L::mul(r2, exp_q<L>(d.r)), d.r), L::f(1.0f));
  return L::from(L::iadd(L::bits(y), L::shl(d.ni, 23)));
}
#if defined(__wasm_simd128__)
// All-ones lanes where exp_near gives exp()'s bits: |x| <= 86 (NaN: none).
inline v128_t exp_near_lanes(v128_t x) { return wasm_f32x4_le(wasm_f32x4_abs(x), wasm_f32x4_splat(86.0f)); }
#endif

template <class L>
typename L::F exp(typename L::F x) {
  // Past 89 the result is +inf (x clamped to 89); from -104 down it is +0 (NaN
  // passes). Below -104, +0 is put in place of a result computed from x = 0,
  // not from x = -104, whose last product underflows to that +0: x86 takes a
  // microcode assist for each such product (a row of -1e9, a mask, ran 11x
  // slower than one of -50). The same bits as clamping to -104.
  const auto low = L::lt(x, L::f(kExpLo));
  x = L::sel(low, L::f(0.0f), L::pmin(x, L::f(kExpHi)));
  const auto d = reduce<L>(x);
  const auto r2 = L::mul(d.r, d.r);
  const auto y = L::add(L::add(L::mul(r2, exp_q<L>(d.r)), d.r), L::f(1.0f));
  // n in [-150, 128]: 2^n as two factors, each a normal float; y 2^k1 is exact.
  const auto k1 = L::sar(d.ni, 1);
  return L::sel(low, L::f(0.0f), L::mul(L::mul(y, pow2<L>(k1)), pow2<L>(L::isub(d.ni, k1))));
}

// expm1's clamp below (the result is -1 from there) and its tiny bound (below
// it, x itself; src/expr/wasmgen.cpp reads both); log1p's range where log(1 + x)
// is computed from x itself, and its tiny bound.
constexpr float kExpm1Lo = -30.0f;
constexpr float kExpm1Tiny = 0x1p-25f;
constexpr float kLog1pLo = -0.2928932f;
constexpr float kLog1pHi = 0.41421354f;
constexpr float kLog1pTiny = 0x1p-24f;

template <class L>
typename L::F expm1(typename L::F x) {
  // Below -30 the result is -1; from n = 25 on, exp(x) - 1 rounds as exp(x).
  const auto xc = L::pmax(L::pmin(x, L::f(kExpHi)), L::f(kExpm1Lo));
  const auto d = reduce<L>(xc);
  const auto r2 = L::mul(d.r, d.r);
  const auto em = L::add(L::mul(r2, exp_q<L>(d.r)), d.r);  // expm1(r)
  const auto s = pow2<L>(d.ni);  // n <= 24 where it is used
  const auto small = L::add(L::mul(s, em), L::sub(s, L::f(1.0f)));
  const auto k1 = L::sar(d.ni, 1);
  const auto big = L::mul(L::mul(L::add(em, L::f(1.0f)), pow2<L>(k1)), pow2<L>(L::isub(d.ni, k1)));
  const auto r = L::sel(L::lt(L::f(24.5f), d.n), big, small);
  // |x| < 2^-25 (zeros and subnormals too): x itself.
  const auto ax = L::from(L::band(L::bits(x), L::i(0x7fffffff)));
  return L::sel(L::lt(ax, L::f(kExpm1Tiny)), x, r);
}

// log_core's polynomial, its coefficients from the highest power down.
constexpr float kLogP[9] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                            -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                            2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
// log_finite's split: t = bits(x) - kLogCut, its exponent k = t >> 23, m = x / 2^k.
constexpr int32_t kLogCut = 0x3f3504f3;  // the bits of sqrt(1/2)
constexpr int32_t kExpMask = static_cast<int32_t>(0xff800000u);

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1], plus e ln2.
template <class L>
typename L::F log_core(typename L::F f, typename L::F e) {
  const auto z = L::mul(f, f);
  auto p = L::f(kLogP[0]);
  for (int k = 1; k < 9; ++k) p = L::add(L::mul(p, f), L::f(kLogP[k]));
  auto y = L::mul(L::mul(p, f), z);
  y = L::add(y, L::mul(e, L::f(kLn2Lo)));
  y = L::add(y, L::mul(z, L::f(-0.5f)));
  return L::add(L::add(f, y), L::mul(e, L::f(kLn2Hi)));
}

// log of x > 0 finite (subnormals too), without the special cases.
template <class L>
typename L::F log_finite(typename L::F x) {
  const auto sub = L::lt(x, L::f(0x1p-126f));
  x = L::sel(sub, L::mul(x, L::f(0x1p23f)), x);  // exact
  // m = x / 2^k in [sqrt(1/2), sqrt(2)): k from the bits, offset so the cut is at sqrt(1/2).
  const auto t = L::isub(L::bits(x), L::i(kLogCut));
  const auto k = L::sar(t, 23);
  const auto m = L::from(L::isub(L::bits(x), L::band(t, L::i(kExpMask))));
  auto e = L::sub(L::from(L::iadd(k, L::i(kMagicBits))), L::f(kMagic));  // float(k), exact
  e = L::sel(sub, L::sub(e, L::f(23.0f)), e);
  return log_core<L>(L::sub(m, L::f(1.0f)), e);  // m - 1 exact
}

// log where x is a positive normal float (a SIMD kernel's common case,
// below): log_finite without the subnormal scaling, and no special case
// applies: the same bits as log().
template <class L>
typename L::F log_normal(typename L::F x) {
  const auto t = L::isub(L::bits(x), L::i(kLogCut));
  const auto m = L::from(L::isub(L::bits(x), L::band(t, L::i(kExpMask))));
  const auto e = L::sub(L::from(L::iadd(L::sar(t, 23), L::i(kMagicBits))), L::f(kMagic));
  return log_core<L>(L::sub(m, L::f(1.0f)), e);
}
#if defined(__wasm_simd128__)
// All-ones lanes where log_normal gives log()'s bits: a positive normal float (NaN: none).
inline v128_t log_normal_lanes(v128_t x) {
  return wasm_v128_and(wasm_f32x4_ge(x, wasm_f32x4_splat(0x1p-126f)), wasm_f32x4_lt(x, wasm_f32x4_splat(__builtin_inff())));
}
#endif

template <class L>
typename L::F log(typename L::F x) {
  auto r = log_finite<L>(x);
  r = L::sel(L::eq(x, L::f(0.0f)), L::f(-__builtin_inff()), r);
  r = L::sel(L::eq(x, L::f(__builtin_inff())), x, r);
  return L::sel(L::mor(L::lt(x, L::f(0.0f)), L::ne(x, x)), L::f(__builtin_nanf("")), r);
}

template <class L>
typename L::F log1p(typename L::F x) {
  // Near 0, x is log's reduced argument as it is (exact).
  const auto near = log_core<L>(x, L::f(0.0f));
  // Else log(u), u = 1 + x rounded, + (x - (u - 1)) / u (u - 1 is exact where it counts).
  const auto u = L::add(L::f(1.0f), x);
  const auto c = L::div(L::sub(x, L::sub(u, L::f(1.0f))), u);
  const auto far = L::add(log_finite<L>(u), c);
  const auto in = L::mor(L::lt(x, L::f(kLog1pLo)), L::lt(L::f(kLog1pHi), x));
  auto r = L::sel(in, far, near);
  r = L::sel(L::eq(x, L::f(-1.0f)), L::f(-__builtin_inff()), r);
  r = L::sel(L::eq(x, L::f(__builtin_inff())), x, r);
  r = L::sel(L::mor(L::lt(x, L::f(-1.0f)), L::ne(x, x)), L::f(__builtin_nanf("")), r);
  const auto ax = L::from(L::band(L::bits(x), L::i(0x7fffffff)));
  return L::sel(L::lt(ax, L::f(kLog1pTiny)), x, r);  // zeros, subnormals, tiny: x
}

// tanh's polynomial below |x| 0.625 (kTanhSmall), from the highest power; past
// kTanhCap tanh rounds to 1; below kTanhTiny it is x (src/expr/wasmgen.cpp reads these).
constexpr float kTanhP[5] = {-5.70498872745E-3f, 2.06390887954E-2f, -5.37397155531E-2f, 1.33314422036E-1f,
                             -3.33332819422E-1f};
constexpr float kTanhCap = 10.0f;
constexpr float kTanhSmall = 0.625f;
constexpr float kTanhTiny = 0x1p-13f;

template <class L>
typename L::F tanh(typename L::F x) {
  const auto sign = L::band(L::bits(x), L::i(static_cast<int32_t>(0x80000000u)));
  const auto a = L::from(L::band(L::bits(x), L::i(0x7fffffff)));
  // |x| < 0.625: x + x^3 p(x^2).
  const auto z = L::mul(x, x);
  auto p = L::f(kTanhP[0]);
  for (int k = 1; k < 5; ++k) p = L::add(L::mul(p, z), L::f(kTanhP[k]));
  const auto small = L::add(L::mul(L::mul(p, z), x), x);
  // Else t / (t + 2), t = expm1(2|x|) (past 10, tanh rounds to 1; NaN passes).
  const auto t = expm1<L>(L::mul(L::pmin(a, L::f(kTanhCap)), L::f(2.0f)));
  const auto big = L::from(L::bor(L::bits(L::div(t, L::add(t, L::f(2.0f)))), sign));
  const auto r = L::sel(L::lt(a, L::f(kTanhSmall)), small, big);
  return L::sel(L::lt(a, L::f(kTanhTiny)), x, r);  // zeros, subnormals, tiny: x
}

// Near: exp_near for exp(-|x|), where every lane has |x| <= 86 (the same bits).
template <class L, bool Near = false>
typename L::F sigmoid(typename L::F x) {
  const auto a = L::from(L::band(L::bits(x), L::i(0x7fffffff)));
  const auto m = L::sub(L::f(0.0f), a);
  const auto e = Near ? exp_near<L>(m) : exp<L>(m);  // exp(-|x|) in (0, 1]
  const auto d = L::add(L::f(1.0f), e);
  return L::sel(L::lt(x, L::f(0.0f)), L::div(e, d), L::div(L::f(1.0f), d));
}

}  // namespace tc::f32m

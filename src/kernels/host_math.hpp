// The double functions the engine takes from its host: sin, cos, tan, atan2,
// exp, expm1, log, log1p, tanh and pow of doubles. The host's Math in the
// WebAssembly build, the C library in native builds.
//
// In the wasm module these are imports bound to Math.sin, Math.exp, ... themselves
// (bindings/wasm/math.js). V8 compiles an import of sin, cos or tan into a
// direct call of its own fdlibm port (24 vs 27 ns for musl's sin); the others
// it calls as JS functions. So the module carries none of musl's argument
// reduction (__rem_pio2 and its 2/pi table, ~5 KB of the gzipped module) and
// none of its exp, expm1, log1p, tanh and pow with their tables (exp_data,
// pow_log_data: 5.1 KB of the gzipped module). The price, 1M float64 resident,
// after / before (node bench/views.mjs --groups=unary, medians of 5 runs):
// Node exp 2.2x, tanh 2.4x, pow 1.4x, log 0.89x; Chromium exp 1.3x, tanh 1.9x,
// pow 0.37x, log 0.42x. float32 has its own exp, expm1, log, log1p and tanh
// (fast_f32.hpp) and takes only pow from here. The results are Math's bit for
// bit (tests/js/unary.test.js), within 1 ulp of glibc (NumPy).
#pragma once

#include <cmath>

#if defined(__EMSCRIPTEN__)
extern "C" {
double tc_math_sin(double);
double tc_math_cos(double);
double tc_math_tan(double);
double tc_math_atan2(double, double);
double tc_math_exp(double);
double tc_math_expm1(double);
double tc_math_log(double);
double tc_math_log1p(double);
double tc_math_tanh(double);
double tc_math_pow(double, double);
}
#endif

namespace tc::host {

#if defined(__EMSCRIPTEN__)
inline double sin(double x) { return tc_math_sin(x); }
inline double cos(double x) { return tc_math_cos(x); }
inline double tan(double x) { return tc_math_tan(x); }
inline double atan2(double y, double x) { return tc_math_atan2(y, x); }
inline double exp(double x) { return tc_math_exp(x); }
inline double expm1(double x) { return tc_math_expm1(x); }
inline double log(double x) { return tc_math_log(x); }
inline double log1p(double x) { return tc_math_log1p(x); }
inline double tanh(double x) { return tc_math_tanh(x); }
// C's pow, where it and JS's Math.pow differ: 1 ** y is 1 for every y (NaN
// too) and (-1) ** +-Infinity is 1 (NumPy's answers; Math.pow says NaN).
inline double pow(double x, double y) {
  if (x == 1 || (x == -1 && y - y != 0 && y == y)) return 1;
  return tc_math_pow(x, y);
}
#else
inline double sin(double x) { return std::sin(x); }
inline double cos(double x) { return std::cos(x); }
inline double tan(double x) { return std::tan(x); }
inline double atan2(double y, double x) { return std::atan2(y, x); }
inline double exp(double x) { return std::exp(x); }
inline double expm1(double x) { return std::expm1(x); }
inline double log(double x) { return std::log(x); }
inline double log1p(double x) { return std::log1p(x); }
inline double tanh(double x) { return std::tanh(x); }
inline double pow(double x, double y) { return std::pow(x, y); }
#endif

}  // namespace tc::host

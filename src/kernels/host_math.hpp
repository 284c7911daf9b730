// sin, cos, tan and atan2 of doubles: the host's Math in the WebAssembly
// build, the C library in native builds.
//
// In the wasm module these four are imports bound to Math.sin, Math.cos,
// Math.tan and Math.atan2 themselves (bindings/wasm/math.js). V8 compiles an
// import that is one of these builtins into a direct call of its own fdlibm
// port, so they cost what musl's versions cost (measured: 24 vs 27 ns for
// sin), and the module carries no argument reduction: musl's __rem_pio2 and
// its 2/pi table were about 5 KB of the gzipped module. The results are
// Math's bit for bit (tests/js/unary.test.js), within 1 ulp of glibc (NumPy).
// exp, log, pow and the others stay musl's: through an import they measured
// 2-5x slower (V8 calls those as ordinary JS functions).
#pragma once

#include <cmath>

#if defined(__EMSCRIPTEN__)
extern "C" {
double tc_math_sin(double);
double tc_math_cos(double);
double tc_math_tan(double);
double tc_math_atan2(double, double);
}
#endif

namespace tc::host {

#if defined(__EMSCRIPTEN__)
inline double sin(double x) { return tc_math_sin(x); }
inline double cos(double x) { return tc_math_cos(x); }
inline double tan(double x) { return tc_math_tan(x); }
inline double atan2(double y, double x) { return tc_math_atan2(y, x); }
#else
inline double sin(double x) { return std::sin(x); }
inline double cos(double x) { return std::cos(x); }
inline double tan(double x) { return std::tan(x); }
inline double atan2(double y, double x) { return std::atan2(y, x); }
#endif

}  // namespace tc::host

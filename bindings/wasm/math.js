// The host functions the engine imports (src/kernels/host_math.hpp): Math's
// own builtins, not wrappers (V8 calls its fdlibm port of sin, cos and tan directly).
mergeInto(LibraryManager.library, {
  tc_math_sin: '=Math.sin', tc_math_sin__sig: 'dd',
  tc_math_cos: '=Math.cos', tc_math_cos__sig: 'dd',
  tc_math_tan: '=Math.tan', tc_math_tan__sig: 'dd',
  tc_math_atan2: '=Math.atan2', tc_math_atan2__sig: 'ddd',
  tc_math_exp: '=Math.exp', tc_math_exp__sig: 'dd',
  tc_math_expm1: '=Math.expm1', tc_math_expm1__sig: 'dd',
  tc_math_log: '=Math.log', tc_math_log__sig: 'dd',
  tc_math_log1p: '=Math.log1p', tc_math_log1p__sig: 'dd',
  tc_math_tanh: '=Math.tanh', tc_math_tanh__sig: 'dd',
  tc_math_pow: '=Math.pow', tc_math_pow__sig: 'ddd',
});

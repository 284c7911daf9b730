// The host functions the engine imports (src/kernels/host_math.hpp): Math's
// own builtins, not wrappers, so that V8 calls its fdlibm port directly.
mergeInto(LibraryManager.library, {
  tc_math_sin: '=Math.sin', tc_math_sin__sig: 'dd',
  tc_math_cos: '=Math.cos', tc_math_cos__sig: 'dd',
  tc_math_tan: '=Math.tan', tc_math_tan__sig: 'dd',
  tc_math_atan2: '=Math.atan2', tc_math_atan2__sig: 'ddd',
});

// The functions the engine imports from JS, declared for the link (it refuses
// an undefined symbol that no JS library names). Their JS is loader.js's
// host(), not this file's: the glue emcc writes beside the .wasm is not
// shipped, and the link keeps the wasm's import and export names unminified
// (-sDECLARE_ASM_MODULE_EXPORTS=0, CMakeLists.txt) so that host() can find them.
//   tc_math_*: the host's Math builtins (src/kernels/host_math.hpp);
//   tc_gen_compile, tc_gen_run: generated code (bindings/wasm/expr_call.cpp).
mergeInto(LibraryManager.library, {
  tc_math_sin__sig: 'dd', tc_math_sin: function () {},
  tc_math_cos__sig: 'dd', tc_math_cos: function () {},
  tc_math_tan__sig: 'dd', tc_math_tan: function () {},
  tc_math_atan2__sig: 'ddd', tc_math_atan2: function () {},
  tc_math_exp__sig: 'dd', tc_math_exp: function () {},
  tc_math_expm1__sig: 'dd', tc_math_expm1: function () {},
  tc_math_log__sig: 'dd', tc_math_log: function () {},
  tc_math_log1p__sig: 'dd', tc_math_log1p: function () {},
  tc_math_tanh__sig: 'dd', tc_math_tanh: function () {},
  tc_math_pow__sig: 'ddd', tc_math_pow: function () {},
  tc_gen_compile__sig: 'iiii', tc_gen_compile: function () {},
  tc_gen_run__sig: 'vii', tc_gen_run: function () {},
});

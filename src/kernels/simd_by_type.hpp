// One value per dtype, chosen at compile time in a template over `D`: the
// SIMD128 files (element-wise and reduction kernels) pick their lane types and
// intrinsics with it. wasm SIMD builds only.
#pragma once

#define TC_BY_TYPE(vf32, vf64, vi8, vu8, vi16, vu16, vi32, vu32, vi64, vu64) \
  if constexpr (D == DType::f32) return vf32;                             \
  else if constexpr (D == DType::f64) return vf64;                        \
  else if constexpr (D == DType::i8) return vi8;                          \
  else if constexpr (D == DType::u8 || D == DType::u8c) return vu8;       \
  else if constexpr (D == DType::i16) return vi16;                        \
  else if constexpr (D == DType::u16) return vu16;                        \
  else if constexpr (D == DType::i32) return vi32;                        \
  else if constexpr (D == DType::u32) return vu32;                        \
  else if constexpr (D == DType::i64) return vi64;                        \
  else return vu64;

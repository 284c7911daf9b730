// The test build of the engine, build/wasm/tensorcast-full.wasm (CMakeLists.txt;
// never shipped): the shipped module's objects with every scalar reference kept
// (src/kernels/simd_coverage.hpp), for the files that sweep each SIMD kernel
// against its reference through the registry hooks. Dispatch is the same in
// both modules: a SIMD kernel where one exists, else the reference.
export const FULL_ENGINE = new URL('../../build/wasm/tensorcast-full.wasm', import.meta.url);

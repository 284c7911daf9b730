// The accuracy of the float32 transcendentals (src/kernels/fast_f32.hpp) over
// float32 inputs, against the correctly rounded result (long double, rounded
// once to float32): per function the largest distance in ulps, how many
// inputs give another result than the correctly rounded one, and the worst
// input. Every 2^32 input by default; --step=N takes every Nth bit pattern.
//
//   npm run accuracy [-- --step=N] [-- fn ...]
//   (c++ -O2 -std=c++17 -pthread -I src tools/f32_accuracy.cpp -o build/f32_accuracy, then run it)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "kernels/f32_reference.hpp"

int main(int argc, char** argv) {
  uint64_t step = 1;
  std::vector<std::string> want;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--step=", 7) == 0) step = std::strtoull(argv[i] + 7, nullptr, 10);
    else want.emplace_back(argv[i]);
  }
  if (step == 0) step = 1;
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  std::printf("| function | inputs | max error (ulp) | not correctly rounded | worst input |\n| --- | ---: | ---: | ---: | --- |\n");
  for (const auto& f : tc::f32ref::kFunctions) {
    if (!want.empty()) {
      bool found = false;
      for (auto& w : want) found = found || w == f.name;
      if (!found) continue;
    }
    std::vector<tc::f32ref::Tally> parts(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        const uint64_t count = ((1ull << 32) + step - 1) / step;  // inputs 0, step, 2 step, ... below 2^32
        const uint64_t per = (count + threads - 1) / threads;
        const uint64_t from = t * per * step, to = std::min<uint64_t>((t + 1) * per * step, 1ull << 32);
        parts[t] = tc::f32ref::sweep(f, from, to, step);
      });
    }
    for (auto& th : pool) th.join();
    tc::f32ref::Tally all;
    for (auto& p : parts) all.merge(p);
    std::printf("| %s | %llu | %u | %llu | %a (%.9g) |\n", f.name, static_cast<unsigned long long>(all.n), all.max_ulp,
                static_cast<unsigned long long>(all.inexact), all.worst, all.worst);
    std::fflush(stdout);
  }
  return 0;
}

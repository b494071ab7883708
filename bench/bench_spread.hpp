#pragma once
// Google Benchmark reports a repeated benchmark's mean, median, standard deviation and
// coefficient of variation; the benchmarks here add the fastest and the slowest run, so that
// docs/benchmarks.md can give each figure as median (min-max).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

namespace banklab::bench {

// For ->Apply(with_spread) on a benchmark's registration.
inline void with_spread(benchmark::internal::Benchmark* b) {
  b->ComputeStatistics("min", [](const std::vector<double>& v) {
     return *std::min_element(v.begin(), v.end());
   })->ComputeStatistics("max", [](const std::vector<double>& v) {
    return *std::max_element(v.begin(), v.end());
  });
}

}  // namespace banklab::bench

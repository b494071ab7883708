#pragma once
// What the benchmarks share: this thread's CPU clock (what other processes on a shared machine
// do not stretch, unlike the wall clock) and the median, min and max of repeated runs.
#include <time.h>

#include <algorithm>
#include <vector>

namespace banklab::bench {

// This thread's CPU time in milliseconds.
inline double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

struct Spread {
  double median = 0, min = 0, max = 0;
};

inline Spread spread(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {values[values.size() / 2], values.front(), values.back()};
}

}  // namespace banklab::bench

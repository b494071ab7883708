// banklab_bench_solve: how long a full solve() takes for a 128x128 tile and three access
// families (issue 14's target: at most 100 ms on the development machine).
//
//   banklab_bench_solve [REPEATS]      (default 7)
//
// Each workload runs solve() REPEATS times after one warm-up call; the median, min and max of
// the runs are printed in ms, for this thread's CPU clock (what other processes on a shared
// machine do not stretch) and for the wall clock. The layouts tried and the patterns the core
// analysed are printed with them, so a faster figure that searched less is visible.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/bench_timing.hpp"
#include "core/solve/solve.hpp"

namespace {

using namespace banklab;

using bench::Spread;
using bench::spread;
using bench::thread_cpu_ms;

AccessFamily family(const char* text) {
  return *parse_family(text);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const std::vector<AccessFamily> three = {family("row:16:st"), family("column"),
                                           family("ldmatrix.x4")};
  std::printf("%-52s %6s %6s   %-22s %s\n", "solve(), 128x128, row:16:st + column + ldmatrix.x4",
              "tried", "counts", "CPU ms: median (min-max)", "wall ms");
  for (DType dtype : kAllDTypes) {
    const SolveRequest q{dtype, 128, 128, three, std::nullopt};
    const Expected<SolveResult> warm = solve(q);
    if (!warm) {
      std::fprintf(stderr, "banklab_bench_solve: %s\n", warm.error().c_str());
      return 1;
    }
    std::vector<double> cpu, wall;
    for (int r = 0; r < repeats; ++r) {
      const double cpu0 = thread_cpu_ms();
      const auto wall0 = std::chrono::steady_clock::now();
      const Expected<SolveResult> result = solve(q);
      wall.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0)
              .count());
      cpu.push_back(thread_cpu_ms() - cpu0);
      if (!result || result->candidates.empty()) return 1;
    }
    const Spread c = spread(cpu);
    const Spread w = spread(wall);
    char cpu_text[48];
    std::snprintf(cpu_text, sizeof cpu_text, "%.1f (%.1f-%.1f)", c.median, c.min, c.max);
    std::printf("  %-50s %6d %6d   %-22s %.1f (%.1f-%.1f)\n", dtype_c_name(dtype).data(),
                warm->layouts_tried, warm->analyses, cpu_text, w.median, w.min, w.max);
  }
  std::printf("target: <= 100 ms per solve (%d runs each)\n", repeats);
  return 0;
}

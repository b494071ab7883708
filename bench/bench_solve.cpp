// banklab_bench_solve: how long a full solve() takes for a 128x128 tile and three access
// families (issue 14's target: at most 100 ms on the development machine), on Google Benchmark.
//
//   banklab_bench_solve [--benchmark_repetitions=7 --benchmark_report_aggregates_only=true]
//
// One benchmark per dtype; one iteration is one solve() (the search, every family counted, the
// ranking, every candidate's spellings), after one warm-up call that also checks it answers.
// Google Benchmark reads the wall clock ("Time") and this thread's CPU clock ("CPU", what other
// processes on a shared machine do not stretch). The layouts tried and the patterns the core
// analysed are reported as counters, so a faster figure that searched less is visible.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench/bench_spread.hpp"
#include "core/solve/solve.hpp"

namespace banklab::bench {
namespace {

void solve_128x128(benchmark::State& state, DType dtype) {
  const std::vector<AccessFamily> three = {*parse_family("row:16:st"), *parse_family("column"),
                                           *parse_family("ldmatrix.x4")};
  const SolveRequest q{dtype, 128, 128, three, std::nullopt};
  const Expected<SolveResult> warm = solve(q);
  if (!warm || warm->candidates.empty()) {
    state.SkipWithError(warm ? "no candidate" : warm.error().c_str());
    return;
  }
  for (auto _ : state) {
    const Expected<SolveResult> result = solve(q);
    if (!result || result->candidates.empty()) {
      state.SkipWithError("a solve() failed after the warm-up");
      break;
    }
    benchmark::DoNotOptimize(result->candidates.front());
  }
  state.counters["tried"] = warm->layouts_tried;
  state.counters["counts"] = warm->analyses;
  state.SetLabel("row:16:st + column + ldmatrix.x4; target <= 100 ms");
}

void register_solves() {
  for (const DType dtype : kAllDTypes) {
    benchmark::RegisterBenchmark(("solve/" + std::string(dtype_name(dtype)) + "/128x128").c_str(),
                                 [dtype](benchmark::State& state) { solve_128x128(state, dtype); })
        ->Unit(benchmark::kMillisecond)
        ->Apply(with_spread);
  }
}

}  // namespace
}  // namespace banklab::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  banklab::bench::register_solves();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

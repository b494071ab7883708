// banklab_bench_core: the time of one full analysis of a 32-lane access (issue 2's target: at
// most 2 us), on Google Benchmark.
//
//   banklab_bench_core [--benchmark_repetitions=7 --benchmark_report_aggregates_only=true]
//
// One iteration is one access (or scenario, or batch line), taken in turn from the workload's
// list, so the time per iteration is the time per access. Google Benchmark reads the wall clock
// ("Time") and this thread's CPU clock ("CPU"): on a shared machine other processes stretch the
// wall time but not the CPU time, so the CPU figure is the one to compare across runs. Repeated,
// each benchmark also reports its min and max (bench_spread.hpp). Every result goes through
// DoNotOptimize, so the compiler cannot drop the work. The batch files for timing `banklab
// analyze --batch` as a whole process come from banklab_write_batch (write_batch.cpp).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_patterns.hpp"
#include "bench/bench_spread.hpp"
#include "core/banklab.hpp"

namespace banklab::bench {
namespace {

constexpr const char* kTarget = "target: one full analysis <= 2000 ns";

// Runs `one(item)` once per iteration, over `items` in turn.
template <class T, class One>
void each_in_turn(benchmark::State& state, const std::vector<T>& items, One one) {
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(one(items[i]));
    if (++i == items.size()) i = 0;
  }
  state.counters["items"] = static_cast<double>(items.size());
  state.SetLabel(kTarget);
}

void analyze_each(benchmark::State& state, const std::vector<WarpAccess>& accesses) {
  each_in_turn(state, accesses, [](const WarpAccess& a) { return analyze(a).wavefront_count(); });
}

void analyze_presets(benchmark::State& state) {
  static const std::vector<WarpAccess> accesses = preset_accesses();
  analyze_each(state, accesses);
}

void analyze_strided(benchmark::State& state) {
  static const std::vector<WarpAccess> accesses = strided_accesses();
  analyze_each(state, accesses);
}

void analyze_random(benchmark::State& state) {
  static const std::vector<WarpAccess> accesses = random_accesses(4096, 1);
  analyze_each(state, accesses);
}

// The full scenario path: tile checks, the 32 addresses, access checks, analysis.
void evaluate_presets(benchmark::State& state) {
  static const std::vector<Scenario> scenarios = [] {
    std::vector<Scenario> valid;
    for (const Preset& p : presets()) {
      if (evaluate(p.scenario).ok()) valid.push_back(p.scenario);
    }
    return valid;
  }();
  each_in_turn(state, scenarios,
               [](const Scenario& s) { return evaluate(s).analysis->wavefront_count(); });
}

// What `analyze --batch` does per line, without the process: parse, check, analyze, append
// the JSON.
void batch_line(benchmark::State& state) {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> out;
    for (const WarpAccess& a : random_accesses(4096, 1)) out.push_back(to_string(a));
    return out;
  }();
  std::string json;
  each_in_turn(state, lines, [&json](const std::string& line) {
    const Expected<WarpAccess> a = parse_pattern_line(line);
    const std::vector<Diagnostic> diagnostics = check_access(*a);
    json.clear();
    append_json(json, analyze(*a), diagnostics);
    return json.size();
  });
}

}  // namespace
}  // namespace banklab::bench

using namespace banklab::bench;

BENCHMARK(analyze_presets)->Apply(with_spread);
BENCHMARK(analyze_strided)->Apply(with_spread);
BENCHMARK(analyze_random)->Apply(with_spread);
BENCHMARK(evaluate_presets)->Apply(with_spread);
BENCHMARK(batch_line)->Apply(with_spread);

BENCHMARK_MAIN();

// banklab_bench_core: the time of one full analysis of a 32-lane access, and a writer of batch
// files for timing `banklab analyze --batch` as a whole process.
//
//   banklab_bench_core [--repeat R]                          time the workloads below
//   banklab_bench_core --write-batch FILE [--lines N] [--seed S]
//
// Each workload runs its accesses in a loop long enough (about 50 ms) for the clock to be
// exact, R times; the median of the R runs is the figure, min and max show the noise. Both the
// wall clock and this thread's CPU clock are read: on a shared machine other processes stretch
// the wall time but not the CPU time, so the CPU figure is the one to compare across runs. The
// results feed a sink that is printed, so the compiler cannot drop the work.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "app/frontend/args.hpp"
#include "bench/bench_patterns.hpp"
#include "bench/bench_timing.hpp"
#include "core/banklab.hpp"

namespace banklab::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Workload {
  std::string_view name;
  std::size_t items = 0;               // analyses per pass
  std::function<std::int64_t()> pass;  // one pass over all items; returns a checksum
};

using bench::Spread;
using bench::spread;

// This thread's CPU time in nanoseconds.
double thread_cpu_ns() {
  return bench::thread_cpu_ms() * 1e6;
}

struct Timing {
  Spread cpu_ns, wall_ns;  // per item
};

Timing time_workload(const Workload& w, int repeats, std::int64_t& sink) {
  // Calibrate: enough passes per run for about 50 ms.
  const double start = thread_cpu_ns();
  sink += w.pass();
  const double once = thread_cpu_ns() - start;
  const int passes = std::max(1, static_cast<int>(5e7 / std::max(once, 1.0)));
  const double items = static_cast<double>(passes) * static_cast<double>(w.items);

  std::vector<double> cpu, wall;
  for (int r = 0; r < repeats; ++r) {
    const double cpu0 = thread_cpu_ns();
    const auto wall0 = Clock::now();
    for (int p = 0; p < passes; ++p) sink += w.pass();
    wall.push_back(std::chrono::duration<double, std::nano>(Clock::now() - wall0).count() / items);
    cpu.push_back((thread_cpu_ns() - cpu0) / items);
  }
  return {spread(cpu), spread(wall)};
}

std::vector<Scenario> valid_preset_scenarios() {
  std::vector<Scenario> scenarios;
  for (const Preset& p : presets()) {
    if (evaluate(p.scenario).ok()) scenarios.push_back(p.scenario);
  }
  return scenarios;
}

int run_timings(int repeats) {
  const std::vector<WarpAccess> preset = preset_accesses();
  const std::vector<WarpAccess> strided = strided_accesses();
  const std::vector<WarpAccess> random = random_accesses(4096, 1);
  const std::vector<Scenario> scenarios = valid_preset_scenarios();
  std::vector<std::string> lines;
  for (const WarpAccess& a : random) lines.push_back(to_string(a));

  const auto analyze_all = [](const std::vector<WarpAccess>& accesses) {
    return [&accesses] {
      std::int64_t sum = 0;
      for (const WarpAccess& a : accesses) sum += analyze(a).wavefront_count();
      return sum;
    };
  };
  std::string json;
  const Workload workloads[] = {
      {"analyze(): preset accesses", preset.size(), analyze_all(preset)},
      {"analyze(): strided accesses, every width", strided.size(), analyze_all(strided)},
      {"analyze(): random accesses", random.size(), analyze_all(random)},
      {"evaluate(): preset scenarios (addresses, checks, analysis)", scenarios.size(),
       [&] {
         std::int64_t sum = 0;
         for (const Scenario& s : scenarios) sum += evaluate(s).analysis->wavefront_count();
         return sum;
       }},
      {"one batch line: parse, check, analyze, append JSON", lines.size(),
       [&] {
         std::int64_t sum = 0;
         for (const std::string& line : lines) {
           const Expected<WarpAccess> a = parse_pattern_line(line);
           const std::vector<Diagnostic> diagnostics = check_access(*a);
           json.clear();
           append_json(json, analyze(*a), diagnostics);
           sum += static_cast<std::int64_t>(json.size());
         }
         return sum;
       }},
  };

  std::printf("%-58s %5s   %-20s %s\n", "ns per access: median (min-max) of the runs", "items",
              "CPU", "wall");
  std::int64_t sink = 0;
  for (const Workload& w : workloads) {
    const Timing t = time_workload(w, repeats, sink);
    char cpu[32];
    std::snprintf(cpu, sizeof cpu, "%.0f (%.0f-%.0f)", t.cpu_ns.median, t.cpu_ns.min, t.cpu_ns.max);
    std::printf("%-58.*s %5zu   %-20s %.0f (%.0f-%.0f)\n", static_cast<int>(w.name.size()),
                w.name.data(), w.items, cpu, t.wall_ns.median, t.wall_ns.min, t.wall_ns.max);
  }
  std::printf("target: one full analysis <= 2000 ns   (%d runs each; checksum %lld)\n", repeats,
              static_cast<long long>(sink));
  return 0;
}

// The batch file: the presets' and the strided accesses first, then random ones up to `lines`.
int write_batch(const std::string& path, std::size_t lines, std::uint64_t seed) {
  std::vector<WarpAccess> accesses = preset_accesses();
  const std::vector<WarpAccess> strided = strided_accesses();
  accesses.insert(accesses.end(), strided.begin(), strided.end());
  accesses.resize(std::min(accesses.size(), lines));
  const std::vector<WarpAccess> random = random_accesses(lines - accesses.size(), seed);
  accesses.insert(accesses.end(), random.begin(), random.end());

  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "banklab_bench_core: cannot create %s\n", path.c_str());
    return 1;
  }
  std::string text;
  for (const WarpAccess& a : accesses) {
    text += to_string(a);
    text += '\n';
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) {
    std::fprintf(stderr, "banklab_bench_core: cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %zu patterns to %s\n", accesses.size(), path.c_str());
  return 0;
}

constexpr frontend::FlagSpec kFlags[] = {
    {"repeat", "R", "runs of each workload; the median is the figure    (default 7)"},
    {"write-batch", "FILE", "write a batch file for 'banklab analyze --batch' instead"},
    {"lines", "N", "patterns in the batch file                         (default 100000)"},
    {"seed", "S", "seed of its random patterns                        (default 1)"},
};
constexpr frontend::CommandSyntax kSyntax{
    .flags = kFlags,
    .program = "banklab_bench_core",
    .usage =
        "usage: banklab_bench_core [--repeat R]\n"
        "       banklab_bench_core --write-batch FILE [--lines N] [--seed S]\n",
    .description =
        "Times one full analysis of a 32-lane access (median of R runs), or writes a batch file\n"
        "of N patterns for 'banklab analyze --batch'.\n"};

int run(std::span<const std::string_view> words) {
  const Expected<frontend::Args> args = frontend::parse_args(kSyntax, words);
  if (!args) {
    std::fprintf(stderr, "banklab_bench_core: %s\n", args.error().c_str());
    return 2;
  }
  if (args->help()) {
    std::fputs(frontend::help_text(kSyntax).c_str(), stdout);
    return 0;
  }
  int repeat = 7;
  std::optional<std::string> batch;
  std::size_t lines = 100000;
  std::uint64_t seed = 1;
  const Expected<void> read = frontend::FlagReader(*args)
                                  .integer("repeat", repeat, 1, 1000)
                                  .text("write-batch", batch)
                                  .integer("lines", lines, 1, 100'000'000)
                                  .integer("seed", seed, 0, INT64_MAX)
                                  .done();
  if (!read) {
    std::fprintf(stderr, "banklab_bench_core: %s\n", read.error().c_str());
    return 2;
  }
  if (batch) return write_batch(*batch, lines, seed);
  return run_timings(repeat);
}

}  // namespace
}  // namespace banklab::bench

int main(int argc, char** argv) {
  const std::vector<std::string_view> words(argv + 1, argv + argc);
  return banklab::bench::run(words);
}

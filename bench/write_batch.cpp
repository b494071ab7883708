// banklab_write_batch: a batch file for timing `banklab analyze --batch` as a whole process
// (docs/benchmarks.md): the presets' and the strided accesses of banklab_bench_core first, then
// random ones (bench_patterns.hpp) up to N lines. The same --seed writes the same file.
//
//   banklab_write_batch FILE [--lines N] [--seed S]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/frontend/args.hpp"
#include "bench/bench_patterns.hpp"
#include "core/banklab.hpp"

namespace banklab::bench {
namespace {

int write_batch(const std::string& path, std::size_t lines, std::uint64_t seed) {
  std::vector<WarpAccess> accesses = preset_accesses();
  const std::vector<WarpAccess> strided = strided_accesses();
  accesses.insert(accesses.end(), strided.begin(), strided.end());
  accesses.resize(std::min(accesses.size(), lines));
  const std::vector<WarpAccess> random = random_accesses(lines - accesses.size(), seed);
  accesses.insert(accesses.end(), random.begin(), random.end());

  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "banklab_write_batch: cannot create %s\n", path.c_str());
    return 1;
  }
  std::string text;
  for (const WarpAccess& a : accesses) {
    text += to_string(a);
    text += '\n';
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) {
    std::fprintf(stderr, "banklab_write_batch: cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %zu patterns to %s\n", accesses.size(), path.c_str());
  return 0;
}

constexpr frontend::FlagSpec kFlags[] = {
    {"lines", "N", "patterns in the batch file                         (default 100000)"},
    {"seed", "S", "seed of its random patterns                        (default 1)"},
};
constexpr frontend::CommandSyntax kSyntax{
    .flags = kFlags,
    .min_positionals = 1,
    .max_positionals = 1,
    .positional_name = "FILE",
    .program = "banklab_write_batch",
    .usage = "usage: banklab_write_batch FILE [--lines N] [--seed S]\n",
    .description =
        "Writes a batch file of N patterns for 'banklab analyze --batch': the presets' and\n"
        "strided accesses, then random ones.\n"};

int run(std::span<const std::string_view> words) {
  const Expected<frontend::Args> args = frontend::parse_args(kSyntax, words);
  if (!args) {
    std::fprintf(stderr, "banklab_write_batch: %s\n", args.error().c_str());
    return 2;
  }
  if (args->help()) {
    std::fputs(frontend::help_text(kSyntax).c_str(), stdout);
    return 0;
  }
  std::size_t lines = 100000;
  std::uint64_t seed = 1;
  const Expected<void> read = frontend::FlagReader<kSyntax>(*args)
                                  .integer("lines", lines, 1, 100'000'000)
                                  .integer("seed", seed, 0, INT64_MAX)
                                  .done();
  if (!read) {
    std::fprintf(stderr, "banklab_write_batch: %s\n", read.error().c_str());
    return 2;
  }
  return write_batch(args->positionals().front(), lines, seed);
}

}  // namespace
}  // namespace banklab::bench

int main(int argc, char** argv) {
  const std::vector<std::string_view> words(argv + 1, argv + argc);
  return banklab::bench::run(words);
}

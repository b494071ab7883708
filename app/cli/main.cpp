// banklab: the command line. main() picks the command from the table below, parses its flags,
// answers --help, and runs it. Exit status: 0 ok, 2 bad input (one line on stderr naming the
// problem), 1 when the environment fails (a file that cannot be read, a write that fails).
//
// [SECTION] The commands
// [SECTION] Choosing the command
// [SECTION] Messages and main
#include <cstdio>
#include <exception>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/analyze_code.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/frontend/args.hpp"
#include "app/frontend/scenario_flags.hpp"
#include "core/base/version.hpp"

namespace banklab::cli {
namespace {

// [SECTION] The commands

struct Command {
  frontend::CommandSyntax syntax;  // the flags, positionals and --help text (args.hpp)
  std::string_view summary;        // one line for `banklab --help`
  int (*run)(const frontend::Args&);
};

const Command kCommands[] = {
    {kAnalyze, "count the wavefronts of one access, a raw pattern or a batch of them", run_analyze},
    {kSolve, "find the cheapest conflict-free pad or swizzle for how a tile is accessed",
     run_solve},
    {kPresets, "list the lesson's scenarios by name", run_presets},
    {kExplain, "derive a scenario's bank conflicts step by step, as the lesson does", run_explain},
    {kExport, "write a view as SVG, the lane table as CSV/Markdown, the derivation", run_export},
    {kScan, "every shared-memory access of a .cu file's kernels, counted and ranked", run_scan},
    {kDesc, "wgmma/tcgen05 matrix descriptors: decode, encode, check against TMA", run_desc},
    {kTrace, "every shared-memory access of one launch of a real program, counted and measured",
     run_trace_command},
    {kDrill, "practise predicting conflicts: questions, answers on stdin, a score", run_drill},
    {kLesson, "the guided lessons: list them, show one with its numbers, check a lesson file",
     run_lesson},
    {kValidate, "measure wavefronts on the GPU and compare them with the model", run_validate},
    {kGpuBench, "time and verify the lesson's kernels on the GPU against the copy roof",
     run_gpu_bench},
};

// [SECTION] Choosing the command

void print_overview(std::FILE* to) {
  std::fputs(
      "usage: banklab COMMAND [flags]     banklab COMMAND --help     banklab --version\n\n"
      "Shared-memory bank conflicts, counted exactly as an H100/H200 counts wavefronts.\n\n"
      "Commands:\n",
      to);
  for (const Command& c : kCommands) {
    std::fprintf(to, "  %-10.*s %.*s\n", static_cast<int>(c.syntax.command.size()),
                 c.syntax.command.data(), static_cast<int>(c.summary.size()), c.summary.data());
  }
}

int dispatch(std::span<const std::string_view> words) {
  if (words.empty()) {
    print_overview(stderr);
    return kExitBadInput;
  }
  const std::string_view first = words.front();
  if (first == "--help" || first == "-h") {
    print_overview(stdout);
    return kExitOk;
  }
  if (first == "--version") {
    std::fputs(version_text("banklab").c_str(), stdout);  // version, commit, data folder
    return kExitOk;
  }
  for (const Command& c : kCommands) {
    if (c.syntax.command != first) continue;
    const Expected<frontend::Args> args = frontend::parse_args(c.syntax, words.subspan(1));
    if (!args) return bad_input(args.error());
    if (args->help()) {
      print(frontend::help_text(c.syntax));
      return kExitOk;
    }
    return c.run(*args);
  }
  return bad_input("unknown command '" + std::string(first) + "' (see 'banklab --help')");
}

}  // namespace

namespace {

// [SECTION] Messages and main

// One line on stderr, whatever the message holds: its control bytes (a newline from a file's
// text, say) are shown as \xNN.
void print_error(std::string_view message) {
  const std::string line = shown(message, std::string_view::npos);
  std::fprintf(stderr, "banklab: %s\n", line.c_str());
}

}  // namespace

int bad_input(std::string_view message) {
  print_error(message);
  return kExitBadInput;
}

void print(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

int failure(std::string_view message) {
  print_error(message);
  return kExitFailure;
}

}  // namespace banklab::cli

int main(int argc, char** argv) {
  using namespace banklab::cli;
  const std::vector<std::string_view> words(argv + 1, argv + argc);
  try {
    int status = dispatch(words);
    // Output goes to a pipe or a file as often as to a terminal: a full disk or a closed pipe
    // must not pass for success.
    const bool written = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
    if (!written && status != kExitFailure) status = failure("cannot write the output");
    return status;
  } catch (const std::bad_alloc&) {
    return failure("out of memory");
  } catch (const std::exception& e) {
    return failure(std::string("internal error: ") + e.what());
  }
}

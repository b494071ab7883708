#pragma once
// The subcommands of `banklab`, one function each, one file each (cmd_<name>.cpp).
//
// To add a command:
//   1. declare `int run_<name>(const frontend::Args& args);` below;
//   2. in syntax.hpp, declare its flags and --help text as a CommandSyntax (args.hpp); in main.cpp,
//      add a row to kCommands: the syntax, a one-line summary for `banklab --help`, and run_<name>;
//   3. add cmd_<name>.cpp to the banklab executable in app/cli/CMakeLists.txt.
//
//   constexpr FlagSpec kDrillFlags[] = {
//       {"count", "N", "how many questions                                   (default 10)"},
//       {"json", "", "one JSON object a question"},
//   };
//   constexpr CommandSyntax kDrill{
//       .command = "drill", .flags = kDrillFlags,
//       .groups = kScenarioGroups,  // optional: the scenario flags, read by scenario_flags()
//       .description = "Asks how many wavefronts ...\n",  // the usage line is generated
//       .footer = "Examples:\n  banklab drill --count 5\n"};
//   {kDrill, "practise counting wavefronts", run_drill},  // the row in kCommands
//
// main() has parsed the words (an unknown flag, a missing value, a repeated flag, a surplus
// positional never reach run_<name>) and answered --help before run_<name> is called. The
// command's first line reads its flags into its options struct with a FlagReader<kName> (args.hpp;
// a flag name its syntax does not declare does not compile):
// every value typed, ranges and choices checked, one sentence naming the flag for the first bad
// one; the rest of the command reads only the struct. A bad value or combination is reported
// with bad_input(), which prints one line on stderr and returns kExitBadInput.
//
//   struct DrillOptions { int count = 10; bool json = false; };
//   Expected<DrillOptions> read_options(const frontend::Args& args) {
//     DrillOptions o;
//     return frontend::FlagReader<kDrill>(args).integer("count", o.count, 1, 1000).flag("json",
//     o.json)
//         .result(o);
//   }
//   int run_drill(const frontend::Args& args) {
//     const Expected<DrillOptions> o = read_options(args);
//     if (!o) return bad_input(o.error());
//     ...
#include <string>
#include <string_view>

#include "app/frontend/args.hpp"
#include "app/frontend/scenario_flags.hpp"

namespace banklab::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the environment failed: a file, the GPU, a write
inline constexpr int kExitBadInput = 2;  // the user's input broke a rule; stderr says which

// "banklab: <message>" on stderr, one line; the return values are the exit codes above.
int bad_input(std::string_view message);
int failure(std::string_view message);

// Writes all of text to standard output; main() reports a failed write as kExitFailure.
void print(std::string_view text);

int run_analyze(const frontend::Args& args);        // cmd_analyze.cpp
int run_drill(const frontend::Args& args);          // cmd_drill.cpp
int run_gpu_bench(const frontend::Args& args);      // cmd_gpu_bench.cpp
int run_presets(const frontend::Args& args);        // cmd_presets.cpp
int run_solve(const frontend::Args& args);          // cmd_solve.cpp
int run_explain(const frontend::Args& args);        // cmd_explain.cpp
int run_lesson(const frontend::Args& args);         // cmd_lesson.cpp
int run_validate(const frontend::Args& args);       // cmd_validate.cpp
int run_export(const frontend::Args& args);         // cmd_export.cpp
int run_scan(const frontend::Args& args);           // cmd_scan.cpp
int run_trace_command(const frontend::Args& args);  // cmd_trace.cpp (trace_run.hpp has run_trace)
int run_desc(const frontend::Args& args);           // cmd_desc.cpp

}  // namespace banklab::cli

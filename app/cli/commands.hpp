#pragma once
// The subcommands of `banklab`, one function each, one file each (cmd_<name>.cpp).
//
// To add a command:
//   1. declare `int run_<name>(const Args& args);` below;
//   2. add a row to kCommands in main.cpp: its name, one-line summary, usage text, the flags it
//      accepts (the parser rejects any other), its positional arguments, and run_<name>;
//   3. add cmd_<name>.cpp to the banklab executable in app/cli/CMakeLists.txt.
// main() has parsed the flags and answered --help before run_<name> is called; the command
// still checks the values (numbers, names, combinations) and reports a bad one with
// bad_input(), which prints one line on stderr and returns kExitBadInput.
#include <string>
#include <string_view>

#include "args.hpp"
#include "banklab/access.hpp"
#include "banklab/expected.hpp"
#include "banklab/scenario.hpp"

namespace banklab::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the environment failed: a file, the GPU, a write
inline constexpr int kExitBadInput = 2;  // the user's input broke a rule; stderr says which

// "banklab: <message>" on stderr, one line; the return values are the exit codes above.
int bad_input(std::string_view message);
int failure(std::string_view message);

// Writes all of text to standard output; main() reports a failed write as kExitFailure.
void print(std::string_view text);

// "'x' is not a preset; the presets are fp32-naive, fp32-pad1, ...": for every command that
// takes a preset name.
std::string unknown_preset(std::string_view name);  // cmd_presets.cpp

int run_analyze(const Args& args);   // cmd_analyze.cpp
// analyze's two ways of naming one access, also read by gpu-bench --pattern (cmd_analyze.cpp):
// the scenario flags (--preset, --dtype, --tile, --pad, --swizzle, --access, --index, --width,
// --op, --lanes) and the raw form (--op, --width, --offsets, --lanes).
Expected<Scenario> scenario_from_flags(const Args& args);
Expected<WarpAccess> access_from_flags(const Args& args);
int run_gpu_bench(const Args& args);  // cmd_gpu_bench.cpp
int run_presets(const Args& args);   // cmd_presets.cpp
int run_solve(const Args& args);     // cmd_solve.cpp
int run_explain(const Args& args);   // cmd_explain.cpp
int run_validate(const Args& args);  // cmd_validate.cpp

}  // namespace banklab::cli

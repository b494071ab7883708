#pragma once
// The one argument grammar of banklab (each subcommand), banklab-gui and banklab_bench_core.
// The words are split by CLI11 (Debian's libcli11-dev, header-only); the flags, their help
// lines and the usage text are declared once, here, as data, and --help is generated from them.
//
//   banklab analyze --dtype bf16 --tile=32x32 --pad 2 --index -1 --json
//           ^^^^^^^ command, chosen by main() before parse_args() sees the rest
//                   ^^^^^^^^^^^^ "--flag value"
//                                ^^^^^^^^^^^^^ "--flag=value"
//                                                       ^^^^^^^^^ a negative number is a value
//                                                                 ^^^^^^ a switch: no value
//
// A word that does not start with "-" is a positional argument ("-" alone is one too: it names
// standard input). "--" ends the flags; everything after it is positional. Every error is one
// sentence naming the flag and what was wrong; the program prints it as "banklab: ..." (one
// line) and exits 2.
//
// How a command declares its flags (see app/cli/commands.hpp for the whole recipe):
//
//   constexpr FlagSpec kDrillFlags[] = {
//       {"count", "N", "how many questions                         (default 10)"},
//       {"seed", "S", "seed of the random questions                (default 1)"},
//       {"json", "", "one JSON object a question"},
//   };
//   const CommandSyntax kDrill{.command = "drill", .flags = kDrillFlags,
//                              .description = "Asks ...", .footer = "Examples:\n  ..."};
//   ...
//   int run_drill(const Args& args) {
//     const Expected<std::int64_t> n = args.integer("count", 10, 1, 1000);
//     if (!n) return bad_input(n.error());
//     if (args.has("json")) ...
//   }
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.hpp"
#include "core/base/format.hpp"

namespace banklab::frontend {

struct FlagSpec {
  std::string_view name;        // without the dashes: "dtype"
  std::string_view value_name;  // "D" for --dtype D; empty for a switch such as --json
  std::string_view help = {};   // the --help line(s): what it does, "(default ...)"
  char short_name = 0;          // 'o' for -o as well as --output; 0 for none
  bool takes_value() const { return !value_name.empty(); }
};

// Flags shown together under a heading in --help ("Scenario form: ..."), such as the scenario
// flags that analyze, explain, gpu-bench and banklab-gui share (scenario_flags.hpp).
struct FlagGroup {
  std::string_view title;
  std::span<const FlagSpec> flags;
};

// What a command accepts and how its --help reads. --help and -h are accepted by every command
// and need no entry.
struct CommandSyntax {
  std::string_view command = {};         // "analyze": used in messages; empty for a whole program
  std::span<const FlagSpec> flags = {};  // listed under "Flags:" (or flags_title)
  int min_positionals = 0;
  int max_positionals = 0;
  std::string_view positional_name = {};  // "PRESET": used in messages and the usage line
  std::string_view program = "banklab";
  // --help: the usage line(s), a paragraph, the flags (groups first, then `flags`), a footer.
  // An empty usage is generated from the flags: "usage: banklab presets [--json]".
  std::span<const FlagGroup> groups = {};
  std::string_view usage = {};
  std::string_view description = {};
  std::string_view flags_title = {};
  std::string_view footer = {};                       // examples, notes
  std::span<const std::string_view> repeatable = {};  // flags that may be given more than once
};

class Args {
 public:
  std::string_view command() const { return command_; }
  bool help() const { return help_; }

  bool has(std::string_view flag) const;
  // The value of a flag that takes one, if it was given.
  std::optional<std::string_view> value(std::string_view flag) const;
  // Every value of a repeatable flag, in command-line order.
  std::vector<std::string_view> values(std::string_view flag) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  // The flags given, in command-line order (names without dashes).
  std::vector<std::string_view> given() const;

  // The flag's value as a whole decimal number in [min, max]; `fallback` when it is absent.
  Expected<std::int64_t> integer(std::string_view flag, std::int64_t fallback, std::int64_t min,
                                 std::int64_t max) const;

 private:
  friend Expected<Args> parse_args(const CommandSyntax& syntax,
                                   std::span<const std::string_view> tokens);
  std::string_view command_;
  bool help_ = false;
  std::vector<std::pair<std::string, std::string>> flags_;  // name, value ("" for a switch)
  std::vector<std::string> positionals_;
};

// tokens: the words after the command name (after the program name for a whole program).
Expected<Args> parse_args(const CommandSyntax& syntax, std::span<const std::string_view> tokens);

// The text of `PROGRAM COMMAND --help`, generated from the syntax by CLI11's formatter.
std::string help_text(const CommandSyntax& syntax);

// A whole decimal number in [min, max], or a sentence naming `what` and the text.
Expected<std::int64_t> parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                                     std::int64_t max);

// shown() and quote(), for messages that echo user text: core/base/format.hpp.
using banklab::quote;
using banklab::shown;

}  // namespace banklab::frontend

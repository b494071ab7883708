#pragma once
// The command line of one subcommand, parsed against the flags that subcommand declares.
//
//   banklab analyze --dtype bf16 --tile=32x32 --pad 2 --json
//           ^^^^^^^ command, chosen by main() before parse_args() sees the rest
//                   ^^^^^^^^^^^^ "--flag value"
//                                ^^^^^^^^^^^^^ "--flag=value"
//                                                      ^^^^^^ a switch: takes no value
//
// Anything that does not start with "--" is a positional argument ("-" alone is one too: it
// names standard input). "--" ends the flags; everything after it is positional. Negative
// numbers ("--index -1") are values, not flags, because only "--" introduces a flag.
//
// The parser knows no command; each command's row in main.cpp lists its flags. Every error is
// one sentence naming the flag and what was wrong, so main() can print it on one line and exit 2.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "banklab/expected.hpp"

namespace banklab::cli {

struct FlagSpec {
  std::string_view name;        // without the dashes: "dtype"
  std::string_view value_name;  // "D" for --dtype D; empty for a switch such as --json
  bool takes_value() const { return !value_name.empty(); }
};

// What a command accepts. --help and -h are accepted by every command and need no entry.
struct CommandSyntax {
  std::string_view command = {};  // "analyze": used in error messages
  std::span<const FlagSpec> flags = {};
  int min_positionals = 0;
  int max_positionals = 0;
  std::string_view positional_name = {};  // "PRESET": used in error messages
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

// tokens: the words after the command name.
Expected<Args> parse_args(const CommandSyntax& syntax, std::span<const std::string_view> tokens);

// A whole decimal number in [min, max], or a sentence naming `what` and the text.
Expected<std::int64_t> parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                                     std::int64_t max);

}  // namespace banklab::cli

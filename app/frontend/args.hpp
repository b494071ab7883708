#pragma once
// The one argument grammar of banklab (each subcommand), banklab-gui and banklab_write_batch.
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
// A command declares its flags as data (a CommandSyntax, below), and reads them into a typed
// options struct on the first line of its run (see app/cli/commands.hpp for the whole recipe):
//
//   constexpr FlagSpec kDrillFlags[] = {
//       {"count", "N", "how many questions                         (default 10)"},
//       {"json", "", "one JSON object a question"},
//   };
//   struct DrillOptions { int count = 10; bool json = false; };
//   Expected<DrillOptions> read_options(const Args& args) {
//     DrillOptions o;
//     return FlagReader<kDrill>(args).integer("count", o.count, 1, 1000).flag("json", o.json)
//         .result(o);  // kDrill: the command's CommandSyntax, which declares both flags
//   }
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
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

// The flag of that name among the syntax's flags and groups, or nullptr. constexpr: FlagName
// below asks it when the program is compiled.
constexpr const FlagSpec* find_flag(std::span<const FlagSpec> flags, std::string_view name) {
  for (const FlagSpec& f : flags)
    if (f.name == name) return &f;
  return nullptr;
}
constexpr const FlagSpec* find_flag(const FlagGroup& group, std::string_view name) {
  return find_flag(group.flags, name);
}
constexpr const FlagSpec* find_flag(std::span<const FlagGroup> groups, std::string_view name) {
  for (const FlagGroup& g : groups)
    if (const FlagSpec* f = find_flag(g, name)) return f;
  return nullptr;
}
constexpr const FlagSpec* find_flag(const CommandSyntax& syntax, std::string_view name) {
  if (const FlagSpec* f = find_flag(syntax.flags, name)) return f;
  return find_flag(syntax.groups, name);
}

// A flag's name, checked when the program is compiled against the syntaxes that declare the
// command's flags (a CommandSyntax; or the FlagGroups, or the FlagSpec array, that a reader
// shared by several commands reads): a name none of them declares does not compile, as
// scenario_flag() does for the scenario keys. Written as a string literal where a flag is read:
//
//   using Flag = frontend::FlagName<kAnalyze>;
//   if (args.has(Flag("batch"))) ...
//   frontend::FlagReader<kDrill>(args).integer("count", o.count, 1, 1000)  // the same check
template <const auto&... Syntaxes>
struct FlagName {
  template <std::size_t N>
  consteval FlagName(const char (&text)[N]) : name(text, N - 1) {  // NOLINT: implicit on purpose
    if (((find_flag(Syntaxes, name) == nullptr) && ...))
      throw "FlagName: a flag the command's syntax does not declare";
  }
  operator std::string_view() const { return name; }  // NOLINT: reads as the name it is
  friend constexpr bool operator==(const FlagName& f, std::string_view other) {
    return f.name == other;
  }

  std::string_view name;
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
  // Whether the command's syntax declares the flag: what FlagReader asserts of every name.
  bool declares(std::string_view flag) const;

 private:
  friend Expected<Args> parse_args(const CommandSyntax& syntax,
                                   std::span<const std::string_view> tokens);
  const CommandSyntax* syntax_ = nullptr;  // the syntax parsed with, which outlives the Args
  std::string_view command_;
  bool help_ = false;
  std::vector<std::pair<std::string, std::string>> flags_;  // name, value ("" for a switch)
  std::vector<std::string> positionals_;
};

// tokens: the words after the command name (after the program name for a whole program).
Expected<Args> parse_args(const CommandSyntax& syntax, std::span<const std::string_view> tokens);

// The text of `PROGRAM COMMAND --help`, generated from the syntax by CLI11's formatter.
std::string help_text(const CommandSyntax& syntax);

// Reads a command's flags into the typed fields of its options struct, in the order the reads
// are written: the first value that cannot be read is the error (a sentence naming the flag),
// and every read after it is skipped. A flag that is absent leaves its field as it was (the
// default). Every name is checked when compiled against the syntaxes given (FlagName), and
// when run against the syntax the words were parsed with (asserted: the reader of the right
// command).
//
//   FlagReader<kDrill>(args).value("level", o.level, read_level)      // Read: text -> Expected<T>
//                   .integer("count", o.count, 1, 1000)       // a whole number in a range
//                   .text("output", o.output)                 // the text as given
//                   .flag("json", o.json)                     // a switch
//                   .done();                                  // the first error, or ok
template <const auto&... Syntaxes>
class FlagReader {
 public:
  using Name = FlagName<Syntaxes...>;

  explicit FlagReader(const Args& args) : args_(args) {}

  // --name V, read by `read` (text -> Expected<T>); into a T or an optional<T>.
  template <class T, class Read>
  FlagReader& value(Name name, T& field, Read read) {
    if (const auto text = next(name)) {
      Expected<T> v = read(*text);
      if (v) {
        field = std::move(*v);
      } else {
        error_ = Error{v.error()};
      }
    }
    return *this;
  }
  template <class T, class Read>
  FlagReader& value(Name name, std::optional<T>& field, Read read) {
    T v{};
    const bool given = args_.has(name);
    value(name, v, read);
    if (given && !error_) field = std::move(v);
    return *this;
  }
  // --name V given one or more times: each V read, in command-line order. A read that gives a
  // list (--let j=0,k=1 gives two values) adds every item of it.
  template <class T, class Read>
  FlagReader& each(Name name, std::vector<T>& field, Read read) {
    if (!next(name)) return *this;
    for (std::string_view text : args_.values(name)) {
      auto v = read(text);
      if (!v) {
        error_ = Error{v.error()};
        break;
      }
      if constexpr (std::is_same_v<decltype(v), Expected<std::vector<T>>>) {
        field.insert(field.end(), std::make_move_iterator(v->begin()),
                     std::make_move_iterator(v->end()));
      } else {
        field.push_back(std::move(*v));
      }
    }
    return *this;
  }
  // --name V: the text as given.
  FlagReader& text(Name name, std::string& field) {
    if (const auto text = next(name)) field = std::string(*text);
    return *this;
  }
  FlagReader& text(Name name, std::optional<std::string>& field) {
    if (const auto text = next(name)) field = std::string(*text);
    return *this;
  }
  // --name N: a whole number in [min, max] ("--count must be between 1 and 1000, got '0'").
  template <class Int>
  FlagReader& integer(Name name, Int& field, std::int64_t min, std::int64_t max) {
    return value(name, field, [&](std::string_view text) -> Expected<Int> {
      const Expected<std::int64_t> n = parse_integer(text, "--" + std::string(name.name), min, max);
      if (!n) return Error{n.error()};
      return static_cast<Int>(*n);
    });
  }
  template <class Int>
  FlagReader& integer(Name name, std::optional<Int>& field, std::int64_t min, std::int64_t max) {
    Int n{};
    const bool given = args_.has(name);
    integer(name, n, min, max);
    if (given && !error_) field = n;
    return *this;
  }
  // --name: a switch, true when given.
  FlagReader& flag(Name name, bool& field) {
    assert(args_.declares(name) && "FlagReader: a flag the command's syntax does not declare");
    if (!error_) field = args_.has(name);
    return *this;
  }

  // The first value that could not be read, or ok.
  Expected<void> done() const {
    if (error_) return *error_;
    return {};
  }
  // The options the reads filled in, or the first value that could not be read:
  // `return FlagReader<kPresets>(args).flag("json", o.json).result(o);`
  template <class Options>
  Expected<Options> result(const Options& options) const {
    if (error_) return *error_;
    return options;
  }

 private:
  // The flag's value when it is given and no read before it failed.
  std::optional<std::string_view> next(Name name) const {
    assert(args_.declares(name) && "FlagReader: a flag the command's syntax does not declare");
    if (error_) return std::nullopt;
    return args_.value(name);
  }

  const Args& args_;
  std::optional<Error> error_;
};

// A reader for FlagReader::value() from a parser that gives an optional: the value, or
// `message` followed by the text quoted ("--level expects weak, hire or strong-hire, got ").
template <class Parse>
auto choice(Parse parse, std::string_view message) {
  return [parse, message](std::string_view text) {
    using T = typename decltype(parse(text))::value_type;
    const std::optional<T> v = parse(text);
    if (!v) return Expected<T>(Error{std::string(message) + quote(text)});
    return Expected<T>(*v);
  };
}

}  // namespace banklab::frontend

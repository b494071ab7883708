// The argument parser on its own: every way a flag can be written, and every way it can be
// written wrong.
#include <doctest/doctest.h>

#include <optional>
#include <string_view>
#include <vector>

#include "app/frontend/args.hpp"
#include "app/frontend/scenario_flags.hpp"
#include "core/model/dtype.hpp"

namespace banklab::frontend {
namespace {

constexpr FlagSpec kFlags[] = {{"pad", "P"}, {"dtype", "D"}, {"batch", "FILE"}, {"json", ""}};
constexpr CommandSyntax kSyntax{.command = "demo",
                                .flags = kFlags,
                                .min_positionals = 0,
                                .max_positionals = 1,
                                .positional_name = "NAME"};

// A command whose flags a FlagReader reads into typed fields.
constexpr FlagSpec kTypedFlags[] = {{"dtype", "D"}, {"pad", "P"}, {"index", "N"}, {"json", ""}};
constexpr CommandSyntax kTypedSyntax{.command = "typed", .flags = kTypedFlags};

Expected<Args> parse(std::vector<std::string_view> words, const CommandSyntax& syntax = kSyntax) {
  return parse_args(syntax, words);
}

TEST_CASE("A flag's value can follow it as the next word or after an equals sign") {
  SUBCASE("--flag value") {
    const auto args = parse({"--pad", "4", "--dtype", "bf16"});
    REQUIRE(args);
    CHECK(args->value("pad") == "4");
    CHECK(args->value("dtype") == "bf16");
  }
  SUBCASE("--flag=value") {
    const auto args = parse({"--pad=4", "--dtype=bf16"});
    REQUIRE(args);
    CHECK(args->value("pad") == "4");
    CHECK(args->value("dtype") == "bf16");
  }
  SUBCASE("a value may itself contain an equals sign") {
    const auto args = parse({"--dtype=a=b"});
    REQUIRE(args);
    CHECK(args->value("dtype") == "a=b");
  }
  SUBCASE("negative numbers and a lone dash are values, not flags") {
    const auto args = parse({"--pad", "-3", "--batch", "-"});
    REQUIRE(args);
    CHECK(args->value("pad") == "-3");
    CHECK(args->value("batch") == "-");
  }
}

TEST_CASE("Switches, positionals and the given flags are reported as written") {
  const auto args = parse({"name", "--json", "--pad", "1"});
  REQUIRE(args);
  CHECK(args->command() == "demo");
  CHECK(args->has("json"));
  CHECK_FALSE(args->has("dtype"));
  CHECK_FALSE(args->value("dtype").has_value());
  REQUIRE(args->positionals().size() == 1);
  CHECK(args->positionals()[0] == "name");
  CHECK(args->given() == std::vector<std::string_view>{"json", "pad"});
}

TEST_CASE("A double dash ends the flags") {
  const auto args = parse({"--json", "--", "--pad"});
  REQUIRE(args);
  CHECK(args->has("json"));
  CHECK_FALSE(args->has("pad"));
  REQUIRE(args->positionals().size() == 1);
  CHECK(args->positionals()[0] == "--pad");
}

TEST_CASE("Help is recognised in both spellings and skips the positional checks") {
  for (std::string_view spelling : {"--help", "-h"}) {
    CAPTURE(spelling);
    const auto args = parse({"one", "two", "three", spelling});
    REQUIRE(args);
    CHECK(args->help());
  }
  const auto plain = parse({});
  REQUIRE(plain);
  CHECK_FALSE(plain->help());
}

TEST_CASE("Malformed command lines give one sentence that names the problem") {
  constexpr CommandSyntax kNoPositionals{.command = "bare", .flags = kFlags};
  constexpr CommandSyntax kOnePreset{.command = "one",
                                     .flags = kFlags,
                                     .min_positionals = 1,
                                     .max_positionals = 1,
                                     .positional_name = "PRESET"};
  struct Case {
    const char* what;
    std::vector<std::string_view> words;
    const CommandSyntax* syntax;
    std::string_view error;
  };
  const Case cases[] = {
      {"unknown flag",
       {"--padd", "1"},
       &kSyntax,
       "unknown flag --padd for 'demo' (see 'banklab demo --help')"},
      {"single-dash option",
       {"-p"},
       &kSyntax,
       "unknown option '-p' for 'demo': flags are spelled --name (see 'banklab demo --help')"},
      {"missing value at the end",
       {"--pad"},
       &kSyntax,
       "missing value for --pad (expected --pad P)"},
      {"missing value before another flag",
       {"--pad", "--json"},
       &kSyntax,
       "missing value for --pad (expected --pad P)"},
      {"empty value after an equals sign",
       {"--pad="},
       &kSyntax,
       "missing value for --pad (expected --pad P)"},
      {"a value given to a switch",
       {"--json=yes"},
       &kSyntax,
       "--json is a switch and takes no value, got 'yes'"},
      {"a flag given twice", {"--pad", "1", "--pad=2"}, &kSyntax, "--pad is given twice"},
      {"too many positionals",
       {"a", "b"},
       &kSyntax,
       "unexpected argument 'b' after NAME (see 'banklab demo --help')"},
      {"a positional where none is taken",
       {"x"},
       &kNoPositionals,
       "'bare' takes no arguments, got 'x' (see 'banklab bare --help')"},
      {"a required positional missing",
       {"--json"},
       &kOnePreset,
       "'one' needs PRESET (see 'banklab one --help')"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    const auto args = parse(c.words, *c.syntax);
    REQUIRE_FALSE(args);
    CHECK(args.error() == c.error);
  }
}

TEST_CASE("Numbers are whole, decimal and inside their range") {
  SUBCASE("accepted") {
    CHECK(*parse_integer("0", "--pad", 0, 10) == 0);
    CHECK(*parse_integer("10", "--pad", 0, 10) == 10);
    CHECK(*parse_integer("+7", "--pad", 0, 10) == 7);
    CHECK(*parse_integer("-5", "--index", -10, 10) == -5);
  }
  SUBCASE("not a number") {
    for (std::string_view text : {"", "x", "1.5", "3x", "0x10", " 4", "+", "-"}) {
      CAPTURE(text);
      const auto n = parse_integer(text, "--pad", 0, 10);
      REQUIRE_FALSE(n);
      CHECK(n.error() == "--pad expects a whole number, got '" + std::string(text) + "'");
    }
  }
  SUBCASE("out of range") {
    const auto high = parse_integer("11", "--pad", 0, 10);
    REQUIRE_FALSE(high);
    CHECK(high.error() == "--pad must be between 0 and 10, got 11");
    const auto huge = parse_integer("99999999999999999999", "--pad", 0, 10);
    REQUIRE_FALSE(huge);
    CHECK(huge.error() == "--pad must be between 0 and 10, got 99999999999999999999");
  }
  SUBCASE("through a FlagReader: an absent flag keeps the field's default") {
    const auto args = parse({"--pad", "3"}, kTypedSyntax);
    REQUIRE(args);
    int pad = 0;
    int index = 42;
    CHECK(FlagReader<kTypedSyntax>(*args)
              .integer("pad", pad, 0, 8)
              .integer("index", index, 0, 100)
              .done());
    CHECK(pad == 3);
    CHECK(index == 42);
    const Expected<void> bad = FlagReader<kTypedSyntax>(*args).integer("pad", pad, 0, 2).done();
    REQUIRE_FALSE(bad);
    CHECK(bad.error() == "--pad must be between 0 and 2, got 3");
  }
}

// FlagName and FlagReader look a name up in the syntax in a consteval constructor: a name the
// syntax does not declare is a compile error (FlagName<kTypedSyntax>("colour") does not
// compile). The lookup they make, checked when this file compiles:
static_assert(find_flag(kTypedSyntax, "pad") == &kTypedFlags[1]);
static_assert(find_flag(kTypedSyntax, "colour") == nullptr);
static_assert(find_flag(kScenarioGroup, "swizzle") != nullptr);
static_assert(find_flag(kScenarioGroups, "offsets") != nullptr);  // the raw form's group
static_assert(find_flag(kTypedFlags, "json") == &kTypedFlags[3]);
static_assert(FlagName<kTypedSyntax, kScenarioGroup>("tile") == std::string_view("tile"));

TEST_CASE("A FlagReader reads typed fields in order; the first bad value is the error") {
  const auto args =
      parse({"--dtype", "fp128", "--pad", "x", "--index", "5", "--json"}, kTypedSyntax);
  REQUIRE(args);
  struct Options {
    std::optional<DType> dtype;
    int pad = 0;
    std::optional<int> index;
    bool json = false;
  } o;
  const auto read_dtype = choice(parse_dtype, "--dtype expects fp8, bf16, fp32 or fp64, got ");
  // The pad is read first here: its error wins, and nothing after it is read.
  const Expected<Options> first = FlagReader<kTypedSyntax>(*args)
                                      .integer("pad", o.pad, 0, 8)
                                      .value("dtype", o.dtype, read_dtype)
                                      .integer("index", o.index, 0, 100)
                                      .flag("json", o.json)
                                      .result(o);
  REQUIRE_FALSE(first);
  CHECK(first.error() == "--pad expects a whole number, got 'x'");
  CHECK_FALSE(o.dtype);
  CHECK_FALSE(o.index);
  CHECK_FALSE(o.json);
  // In another order, the dtype's choice names its text.
  const Expected<Options> second =
      FlagReader<kTypedSyntax>(*args).value("dtype", o.dtype, read_dtype).result(o);
  REQUIRE_FALSE(second);
  CHECK(second.error() == "--dtype expects fp8, bf16, fp32 or fp64, got 'fp128'");
  const auto good = parse({"--dtype", "bf16", "--index=5", "--json"}, kTypedSyntax);
  REQUIRE(good);
  const Expected<Options> read = FlagReader<kTypedSyntax>(*good)
                                     .value("dtype", o.dtype, read_dtype)
                                     .integer("index", o.index, 0, 100)
                                     .flag("json", o.json)
                                     .result(o);
  REQUIRE(read);
  CHECK(read->dtype == DType::bf16);
  CHECK(read->index == 5);
  CHECK(read->json);
}

}  // namespace
}  // namespace banklab::frontend

namespace banklab::frontend {

TEST_CASE("A repeatable flag keeps every value in order; the others are still refused twice") {
  static constexpr FlagSpec kFlags[] = {{"access", "FAMILY"}, {"json", ""}};
  static constexpr std::string_view kRepeatable[] = {"access"};
  const CommandSyntax syntax{.command = "solve", .flags = kFlags, .repeatable = kRepeatable};
  const std::vector<std::string_view> words = {"--access", "row:16:st", "--access=column",
                                               "--json"};
  const Expected<Args> args = parse_args(syntax, words);
  REQUIRE(args);
  CHECK(args->values("access") == std::vector<std::string_view>{"row:16:st", "column"});
  CHECK(*args->value("access") == "row:16:st");
  CHECK(args->values("json") == std::vector<std::string_view>{""});
  const std::vector<std::string_view> twice = {"--json", "--json"};
  const Expected<Args> refused = parse_args(syntax, twice);
  REQUIRE_FALSE(refused);
  CHECK(refused.error() == "--json is given twice");
  for (const std::vector<std::string_view>& missing :
       {std::vector<std::string_view>{"--access", "column", "--access"},
        std::vector<std::string_view>{"--access", "--access", "column"}}) {
    const Expected<Args> no_value = parse_args(syntax, missing);
    REQUIRE_FALSE(no_value);
    CHECK(no_value.error() == "missing value for --access (expected --access FAMILY)");
  }
}

}  // namespace banklab::frontend

// The argument parser on its own: every way a flag can be written, and every way it can be
// written wrong.
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "args.hpp"

namespace banklab::cli {
namespace {

constexpr FlagSpec kFlags[] = {{"pad", "P"}, {"dtype", "D"}, {"batch", "FILE"}, {"json", ""}};
constexpr CommandSyntax kSyntax{.command = "demo",
                                .flags = kFlags,
                                .min_positionals = 0,
                                .max_positionals = 1,
                                .positional_name = "NAME"};

Expected<Args> parse(std::vector<std::string_view> words,
                     const CommandSyntax& syntax = kSyntax) {
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
  SUBCASE("unknown flag") {
    const auto args = parse({"--padd", "1"});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "unknown flag --padd for 'demo' (see 'banklab demo --help')");
  }
  SUBCASE("single-dash option") {
    const auto args = parse({"-p"});
    REQUIRE_FALSE(args);
    CHECK(args.error() ==
          "unknown option '-p' for 'demo': flags are spelled --name (see 'banklab demo --help')");
  }
  SUBCASE("missing value at the end") {
    const auto args = parse({"--pad"});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "missing value for --pad (expected --pad P)");
  }
  SUBCASE("missing value before another flag") {
    const auto args = parse({"--pad", "--json"});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "missing value for --pad (expected --pad P)");
  }
  SUBCASE("empty value after an equals sign") {
    const auto args = parse({"--pad="});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "missing value for --pad");
  }
  SUBCASE("a value given to a switch") {
    const auto args = parse({"--json=yes"});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "--json is a switch and takes no value, got 'yes'");
  }
  SUBCASE("a flag given twice") {
    const auto args = parse({"--pad", "1", "--pad=2"});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "--pad is given twice");
  }
  SUBCASE("too many positionals") {
    const auto args = parse({"a", "b"});
    REQUIRE_FALSE(args);
    CHECK(args.error() == "unexpected argument 'b' after NAME (see 'banklab demo --help')");
  }
  SUBCASE("a positional where none is taken") {
    constexpr CommandSyntax kNoPositionals{.command = "bare", .flags = kFlags};
    const auto args = parse({"x"}, kNoPositionals);
    REQUIRE_FALSE(args);
    CHECK(args.error() == "'bare' takes no arguments, got 'x' (see 'banklab bare --help')");
  }
  SUBCASE("a required positional missing") {
    constexpr CommandSyntax kOne{.command = "one",
                                 .flags = kFlags,
                                 .min_positionals = 1,
                                 .max_positionals = 1,
                                 .positional_name = "PRESET"};
    const auto args = parse({"--json"}, kOne);
    REQUIRE_FALSE(args);
    CHECK(args.error() == "'one' needs PRESET (see 'banklab one --help')");
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
  SUBCASE("through Args, with the fallback for an absent flag") {
    const auto args = parse({"--pad", "3"});
    REQUIRE(args);
    CHECK(*args->integer("pad", 0, 0, 8) == 3);
    CHECK(*args->integer("dtype", 42, 0, 100) == 42);
    const auto bad = args->integer("pad", 0, 0, 2);
    REQUIRE_FALSE(bad);
    CHECK(bad.error() == "--pad must be between 0 and 2, got 3");
  }
}

}  // namespace
}  // namespace banklab::cli

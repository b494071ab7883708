// Scenario files (app/frontend/scenario_file.hpp): save then open gives the same Scenario, and a
// bad file is reported as FILE:LINE with what is wrong, never read when it is not a regular
// file or too large.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/frontend/scenario_file.hpp"
#include "app/frontend/scenario_flags.hpp"
#include "core/model/presets.hpp"

namespace banklab::frontend {
namespace {

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("banklab_scenario_" + std::to_string(::getpid()) + "_" + name);
}

// What --scenario FILE opens.
Expected<Scenario> open_file(const std::filesystem::path& path) {
  return scenario_from_flags(ScenarioFlags{.file = path.string()});
}

Expected<Scenario> open_text(const std::string& text, const std::string& name = "file.txt") {
  const std::filesystem::path path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  Expected<Scenario> s = open_file(path);
  std::filesystem::remove(path);
  return s;
}

// Every preset, and variations on them that touch every field the flags can set.
std::vector<Scenario> scenarios() {
  std::vector<Scenario> all;
  for (const Preset& p : presets()) all.push_back(p.scenario);
  Scenario s;
  s.tile = {DType::bf16, 16, 48, 3, {}};
  s.tile.swizzle = *parse_swizzle("cute:3,4,3");
  s.pattern = AccessPattern::row;
  s.op = Op::st;
  s.width = 8;
  s.index = -2;
  s.lane_mask = 0x0F0F00FFu;
  all.push_back(s);
  s.tile.swizzle = *parse_swizzle("tma64");
  s.pattern = AccessPattern::matrix;
  s.op = Op::stmatrix_x4;
  s.width = 0;
  all.push_back(s);
  Scenario raw;
  raw.pattern = AccessPattern::raw;
  raw.op = Op::ld;
  raw.width = 8;
  for (int lane = 0; lane < kWarpSize; ++lane)
    raw.raw_offsets[lane] = lane % 3 == 0 ? -1 : 8 * lane;
  raw.lane_mask = 0x7FFFFFFEu;  // lanes off whose offsets are kept as written
  all.push_back(raw);
  raw.op = Op::ldmatrix_x2;
  raw.width = 16;
  all.push_back(raw);
  return all;
}

TEST_CASE("A saved scenario opens as the same Scenario") {
  const std::filesystem::path path = temp_path("round_trip.txt");
  for (const Scenario& s : scenarios()) {
    CAPTURE(describe(s));
    const Expected<void> saved = write_scenario_file(path.string(), s);
    REQUIRE(saved);
    const Expected<Scenario> back = open_file(path);
    INFO(scenario_file_text(s));
    REQUIRE(back);
    CHECK(*back == s);
  }
  std::filesystem::remove(path);
}

TEST_CASE("The file is text a person reads: a comment header, then one key = value a line") {
  Scenario s;
  s.tile.dtype = DType::bf16;
  s.tile.pad = 1;
  s.index = 3;
  CHECK(scenario_file_text(s) ==
        "# BankLab scenario: bf16 tile[32][33], column 3, ld 2 B per lane\n"
        "# Open it with: banklab analyze --scenario FILE  or  banklab-gui --scenario FILE\n"
        "dtype = \"bf16\"\ntile = \"32x32\"\npad = 1\nswizzle = \"none\"\n"
        "access = \"column\"\nindex = 3\nop = \"ld\"\nlanes = 0xffffffff\n");
  // Hand-written: blank lines, comments, spaces, CRLF, a byte-order mark; the rest defaults.
  const Expected<Scenario> typed =
      open_text("\xEF\xBB\xBF# mine\r\n\r\n  dtype=\"bf16\" \r\npad = 1\nindex = 3 # col\n");
  REQUIRE(typed);
  CHECK(*typed == s);
}

TEST_CASE("A file in the form before TOML (values without quotes) opens as it always did") {
  Scenario s;
  s.tile = {DType::bf16, 16, 48, 3, *parse_swizzle("cute:3,4,3")};
  s.pattern = AccessPattern::row;
  s.op = Op::st;
  s.width = 8;
  s.index = -2;
  s.lane_mask = 0x0F0F00FFu;
  const Expected<Scenario> old = open_text(
      "# BankLab scenario: written by BankLab before its files were TOML\n"
      "dtype = bf16\ntile = 16x48\npad = 3\nswizzle = cute:3,4,3\naccess = row\nindex = -2\n"
      "op = st\nwidth = 8\nlanes = 0x0f0f00ff\n");
  REQUIRE(old);
  CHECK(*old == s);
  Scenario raw;
  raw.pattern = AccessPattern::raw;
  raw.op = Op::ld;
  raw.width = 4;
  std::string offsets;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    raw.raw_offsets[lane] = 4 * lane;
    offsets += (lane ? "," : "") + std::to_string(4 * lane);
  }
  const Expected<Scenario> old_raw =
      open_text("op = ld\nwidth = 4\noffsets = " + offsets + "\nlanes = 0xffffffff\n");
  REQUIRE(old_raw);
  CHECK(*old_raw == raw);
}

TEST_CASE("A bad scenario file is reported as FILE:LINE: what is wrong") {
  const std::string name = temp_path("bad.txt").string();
  struct Case {
    const char* text;
    std::string error;
  };
  const Case cases[] = {
      {"dtype = bf16\npad = two\n", name + ":2: --pad expects a whole number, got 'two'"},
      {"pad = 1\ndtype = \"fp128\"\n", name + ":2: --dtype expects fp8, bf16"},
      {"pad = 1.5\n", name + ":1: --pad expects a whole number, got '1.5'"},
      {"# c\nfrobnicate = 1\n",
       name + ":2: unknown key 'frobnicate'; the keys are the scenario flags"},
      {"dtype = bf16\n\ndtype = fp32\n", name + ":3: dtype is given twice"},
      {"pad\n", name + ":1: expected 'key = value', got 'pad'"},
      {"pad =\n", name + ":1: pad has no value"},
      {"scenario = other.txt\n", name + ":1: unknown key 'scenario'"},
      {"access = ldmatrix.x4\nop = ld\n", name + ":2: --op ld does not match --access ldmatrix.x4"},
      {"offsets = 0,4\nwidth = 4\n", name + ":1: --offsets: got 2 offsets"},
      {"tile = 32x32\noffsets = 0\n", name + ":1: --tile belongs to the scenario form"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.text));
    const Expected<Scenario> s = open_text(c.text, "bad.txt");
    REQUIRE_FALSE(s);
    CAPTURE(s.error());
    CHECK(s.error().starts_with(c.error));
  }
}

TEST_CASE("Only a regular file of at most 64 KiB is read") {
  CHECK(open_file("/dev/zero").error() == "/dev/zero: not a regular file");
  CHECK(open_file("/").error() == "/: a folder, not a scenario file");
  const std::filesystem::path fifo = temp_path("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(open_file(fifo).error().ends_with(": not a regular file"));  // and it does not hang
  std::filesystem::remove(fifo);
  const Expected<Scenario> big = open_text("# " + std::string(70'000, 'x') + "\n", "big.txt");
  REQUIRE_FALSE(big);
  CHECK(big.error().ends_with(": larger than 65536 bytes"));
  CHECK(open_file(temp_path("missing")).error().find("cannot open the scenario file") !=
        std::string::npos);
}

TEST_CASE("Flags given beside --scenario override its lines; a bad line is still its error") {
  const std::filesystem::path path = temp_path("override.txt");
  Scenario s;
  s.tile.pad = 4;
  REQUIRE(write_scenario_file(path.string(), s));
  const std::string word = "--scenario=" + path.string();
  const std::vector<std::string_view> words{word, "--pad", "1", "--index=5"};
  constexpr CommandSyntax kSyntax{.command = "open", .groups = kScenarioGroups};
  const Expected<Args> args = parse_args(kSyntax, words);
  REQUIRE(args);
  const Expected<Scenario> opened = scenario_from_flags(scenario_flags(*args));
  REQUIRE(opened);
  CHECK(opened->tile.pad == 1);
  CHECK(opened->index == 5);
  std::ofstream(path, std::ios::binary) << "dtype = bf16\npad = two\n";
  const Expected<Scenario> bad =
      scenario_from_flags(ScenarioFlags{.file = path.string(), .keys = {{0, "pad", "1"}}});
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == path.string() + ":2: --pad expects a whole number, got 'two'");
  std::filesystem::remove(path);
}

TEST_CASE("A scenario that cannot be written says so, and leaves no file behind") {
  const Expected<void> saved = write_scenario_file("/nonexistent-dir/s.txt", Scenario{});
  REQUIRE_FALSE(saved);
  CHECK(saved.error().starts_with("/nonexistent-dir/s.txt: cannot create it: "));
  // Never replaced: a file that is not a regular one (a device, a folder).
  const Expected<void> device = write_scenario_file("/dev/null", Scenario{});
  REQUIRE_FALSE(device);
  CHECK(device.error() == "/dev/null: not a regular file; a scenario is written to a file");
  CHECK(std::filesystem::is_character_file("/dev/null"));
}

}  // namespace
}  // namespace banklab::frontend

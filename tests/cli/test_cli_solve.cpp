// banklab solve as a user meets it: the JSON shape of issue 14, the ranking re-counted through
// `banklab analyze` with each candidate's own flags, the text report, and exit status 2 with one
// line for every kind of bad input.
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

constexpr const char* kLesson = "--dtype fp32 --tile 32x32 --access row:16:st --access column";

nlohmann::json solve_json(const std::string& arguments) {
  const Run run = run_banklab("solve " + arguments + " --json");
  INFO("banklab solve ", arguments, " --json\nstderr: ", run.err);
  REQUIRE(run.status == 0);
  CHECK(run.err.empty());
  return parse_json(run);
}

std::string joined(const nlohmann::json& args) {
  std::string out;
  for (const auto& a : args) out += " " + a.get<std::string>();
  return out;
}

// The wavefronts `banklab analyze` counts for `access` at every index 0..count-1.
int analyze_sum(const std::string& layout_flags, const std::string& access, int count) {
  int sum = 0;
  for (int n = 0; n < count; ++n) {
    const Run run = run_banklab("analyze --dtype fp32 --tile 32x32" + layout_flags + " " + access +
                                " --index " + std::to_string(n) + " --json");
    INFO(layout_flags, " ", access, " ", n, "\nstderr: ", run.err);
    REQUIRE(run.status == 0);
    sum += parse_json(run).at("wavefronts").get<int>();
  }
  return sum;
}

}  // namespace

TEST_CASE("solve --json has the shape of issue 14, best first") {
  const nlohmann::json j = solve_json(kLesson);
  REQUIRE(j.at("candidates").is_array());
  REQUIRE(j.at("rejected").is_array());
  REQUIRE(j.at("candidates").size() > 10);
  for (const auto& c : j.at("candidates")) {
    CHECK(c.at("layout").is_string());
    CHECK(c.at("args").is_array());
    CHECK(c.at("total_wavefronts").is_number_integer());
    CHECK(c.at("total_ideal_wavefronts").is_number_integer());
    CHECK(c.at("overhead_bytes").is_number_integer());
    REQUIRE(c.at("families").size() == 2);
    int total = 0;
    for (const auto& f : c.at("families")) {
      CHECK(f.at("access").is_string());
      CHECK(f.at("ideal_wavefronts").is_number_integer());
      total += f.at("wavefronts").get<int>();
    }
    CHECK(total == c.at("total_wavefronts").get<int>());
  }
  for (const auto& r : j.at("rejected")) {
    CHECK(r.at("layout").is_string());
    CHECK(r.at("args").is_array());
    CHECK(r.at("reason").is_string());
  }
  const auto& best = j.at("candidates")[0];
  CHECK(best.at("layout") == "float tile[32][32] xor");
  CHECK(best.at("args") == nlohmann::json::array({"--swizzle", "xor"}));
  CHECK(best.at("families")[0].at("access") == "row:16:st");
  CHECK(best.at("families")[1].at("access") == "column:ld");
}

TEST_CASE("the first candidates count the same through analyze, with their own flags") {
  // Re-verifies the ranking's numbers by the path a user would take: each candidate's args
  // passed to `banklab analyze`, every row store (row N = 0..31: one warp stores a row of 32
  // floats) and every column read (N = 0..31).
  const nlohmann::json j = solve_json("--dtype fp32 --tile 32x32 --access row:st --access column");
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& c = j.at("candidates")[i];
    const std::string flags = joined(c.at("args"));
    CAPTURE(flags);
    CHECK(analyze_sum(flags, "--access row --op st", 32) ==
          c.at("families")[0].at("wavefronts").get<int>());
    CHECK(analyze_sum(flags, "--access column", 32) ==
          c.at("families")[1].at("wavefronts").get<int>());
  }
}

TEST_CASE("solve's text names the winner, its other spellings and why pad 1 is out") {
  const Run run = run_banklab(std::string("solve ") + kLesson);
  REQUIRE(run.status == 0);
  CHECK(run.out.find("1. float tile[32][32] xor   [--swizzle xor]") != std::string::npos);
  CHECK(run.out.find("also cute (elements): --swizzle cute-elem:5,0,5") != std::string::npos);
  CHECK(run.out.find("pad 1: conflict-free column reads, but 16-byte row stores become "
                     "misaligned: 132-byte rows") != std::string::npos);
  const Run help = run_banklab("solve --help");
  REQUIRE(help.status == 0);
  CHECK(help.out.find("cute:B,M,S swizzles byte offsets") != std::string::npos);
  CHECK(help.out.find("cute-elem:B,M,S swizzles element indices") != std::string::npos);
}

TEST_CASE("bad solve input: one line on stderr, exit status 2") {
  struct Case {
    const char* arguments;
    const char* message;
  };
  const Case cases[] = {
      {"--access column", "two or more access families"},
      {"--access column --access diagonal", "unknown kind 'diagonal'"},
      {"--access column --access row --max-overhead -1", "--max-overhead must be between 0"},
      {"--access column --access row --tile 32", "--tile: bad tile size '32'"},
      {"--access column --access ldmatrix.x4 --tile 12x32", "multiple of 8 rows"},
      {"--access column --access row --dtype fp128", "--dtype expects"},
      {"--access column --access row --pad 1", "unknown flag --pad for 'solve'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.arguments);
    const Run run = run_banklab(std::string("solve ") + c.arguments);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK(run.err.find(c.message) != std::string::npos);
    CHECK(run.err.find('\n') == run.err.size() - 1);
  }
}

TEST_CASE("analyze takes the new notations and a narrow TMA box") {
  const Run elem = run_banklab(
      "analyze --dtype bf16 --tile 64x64 --swizzle cute-elem:3,3,3 --access ldmatrix.x4 --json");
  REQUIRE(elem.status == 0);
  CHECK(parse_json(elem).at("wavefronts") == 4);
  const Run triton = run_banklab(
      "analyze --dtype bf16 --tile 64x64 --swizzle triton:8,1,8 --access ldmatrix.x4 --json");
  REQUIRE(triton.status == 0);
  CHECK(parse_json(triton).at("wavefronts") == 4);
  const Run narrow = run_banklab("analyze --dtype bf16 --tile 32x16 --swizzle tma128 --json");
  CHECK(narrow.status == 0);
  const Run negative =
      run_banklab("analyze --dtype fp32 --tile 32x32 --swizzle cute-elem:2,0,-2 --json");
  CHECK(negative.status == 0);
}

}  // namespace banklab::test

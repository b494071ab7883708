// The banklab executable as a user meets it: the lesson's numbers through --json, the text
// report, help and version, and a one-line error with exit status 2 for every kind of bad input.
//
// [SECTION] Running banklab
// [SECTION] The lesson's numbers
// [SECTION] JSON, presets and the text report
// [SECTION] Help, bad input and exits
// [SECTION] Presets and explain
// [SECTION] Flags and saved scenarios
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "core/model/presets.hpp"
#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

// [SECTION] Running banklab

// `banklab analyze <arguments> --json`, checked to succeed; returns the parsed object.
nlohmann::json analyze_json(const std::string& arguments) {
  const Run run = run_banklab("analyze " + arguments + " --json");
  INFO("banklab analyze ", arguments, " --json\nstderr: ", run.err);
  REQUIRE(run.status == 0);
  CHECK(run.err.empty());
  return parse_json(run);
}

// A scenario's wavefronts and bank conflicts, for one column of the tile.
struct Counts {
  int wavefronts;
  int conflicts;
};

Counts column_counts(const std::string& scenario, int column) {
  const nlohmann::json j =
      analyze_json(scenario + " --access column --index " + std::to_string(column));
  return {j.at("wavefronts").get<int>(), j.at("bank_conflicts").get<int>()};
}

// The lesson states these counts for every column c of the 32, not just one.
void check_every_column(const std::string& scenario, int wavefronts, int conflicts) {
  for (int c = 0; c < 32; ++c) {
    CAPTURE(c);
    const Counts n = column_counts(scenario, c);
    CHECK(n.wavefronts == wavefronts);
    CHECK(n.conflicts == conflicts);
  }
}

// A bad command line: exit status 2, nothing on stdout, and exactly one line on stderr that
// starts with "banklab: " and contains `names` (the flag or the rule it broke).
void check_rejected(const std::string& arguments, std::string_view names) {
  const Run run = run_banklab(arguments);
  INFO("banklab ", arguments, "\nstdout: ", run.out, "\nstderr: ", run.err);
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK(run.err.starts_with("banklab: "));
  CHECK(run.err.find('\n') == run.err.size() - 1);
  CHECK(run.err.find(names) != std::string::npos);
}

// [SECTION] The lesson's numbers

TEST_CASE("The lesson's fp32 numbers hold for every column") {
  SUBCASE("float tile[32][32]: bank c for every lane, 32-way, 32 wavefronts") {
    check_every_column("--dtype fp32 --tile 32x32 --pad 0", 32, 31);
  }
  SUBCASE("float tile[32][33]: bank (r + c) mod 32, 1 wavefront") {
    check_every_column("--dtype fp32 --tile 32x32 --pad 1", 1, 0);
  }
  SUBCASE("float tile[32][36]: bank (4r + c) mod 32, 8 banks, 4-way") {
    check_every_column("--dtype fp32 --tile 32x32 --pad 4", 4, 3);
  }
  SUBCASE("float tile[32][32] stored at column c ^ r: 32 banks, 1 wavefront") {
    check_every_column("--dtype fp32 --tile 32x32 --swizzle xor", 1, 0);
  }
}

TEST_CASE("The row-wise writes of the lesson are conflict-free, padded or not") {
  for (int pad : {0, 1}) {
    for (int r = 0; r < 32; ++r) {
      CAPTURE(pad);
      CAPTURE(r);
      const nlohmann::json j = analyze_json("--pad " + std::to_string(pad) +
                                            " --access row --op st --index " + std::to_string(r));
      CHECK(j.at("wavefronts") == 1);
    }
  }
}

TEST_CASE("The lesson's bf16 numbers hold, with the odd-column exception for 33 elements") {
  SUBCASE("bf16 tile[32][32]: 2 banks for 32 lanes, 16-way") {
    check_every_column("--dtype bf16 --pad 0", 16, 15);
  }
  SUBCASE("bf16 tile[32][33]: conflict-free for even columns, 2-way for odd ones (measured)") {
    for (int c = 0; c < 32; ++c) {
      CAPTURE(c);
      CHECK(column_counts("--dtype bf16 --pad 1", c).wavefronts == (c % 2 == 0 ? 1 : 2));
    }
  }
  SUBCASE("bf16 tile[32][34]: 17-word rows, conflict-free") {
    check_every_column("--dtype bf16 --pad 2", 1, 0);
  }
}

TEST_CASE("The lesson's fp64 and 16-byte chunk numbers hold") {
  SUBCASE("double tile[32][32] column: 32 wavefronts against an ideal of 2") {
    check_every_column("--dtype fp64", 32, 30);
  }
  SUBCASE("double tile[32][33] column: 2 wavefronts, the floor for 256 bytes") {
    check_every_column("--dtype fp64 --pad 1", 2, 0);
  }
  SUBCASE("ldmatrix.x4 over 128-byte rows: 8 rows of a chunk pile on 4 banks, 32 wavefronts") {
    const nlohmann::json j = analyze_json("--dtype bf16 --tile 8x64 --access ldmatrix.x4");
    CHECK(j.at("wavefronts") == 32);
    CHECK(j.at("bank_conflicts") == 28);
  }
  SUBCASE("the same with the 128-byte TMA swizzle: 4 wavefronts, one per matrix") {
    const nlohmann::json j =
        analyze_json("--dtype bf16 --tile 8x64 --swizzle tma128 --access ldmatrix.x4");
    CHECK(j.at("wavefronts") == 4);
    CHECK(j.at("bank_conflicts") == 0);
  }
}

TEST_CASE("Raw offsets give the measured counts of docs/hardware-rules.md") {
  // Offsets of lane L: f(L) for L = 0..31, as the comma list --offsets takes.
  const auto offsets = [](auto f) {
    std::string list;
    for (int l = 0; l < 32; ++l) list += (l ? "," : "") + std::to_string(f(l));
    return list;
  };
  struct Row {
    const char* pattern;
    std::string op;
    int width;
    std::string list;
    int wavefronts;
    int conflicts;
  };
  const Row rows[] = {
      {"float[32][32] column", "ld", 4, offsets([](int l) { return 128 * l; }), 32, 31},
      {"float[32][36] column", "st", 4, offsets([](int l) { return 144 * l; }), 4, 3},
      {"all lanes one 8-byte address, load", "ld", 8, offsets([](int) { return 0; }), 1, 0},
      {"all lanes one 8-byte address, store", "st", 8, offsets([](int) { return 0; }), 2, 0},
      {"all lanes one 16-byte address, load", "ld", 16, offsets([](int) { return 0; }), 2, 0},
      {"lanes alternate 0 and 128, 16-byte store", "st", 16,
       offsets([](int l) { return 128 * (l % 2); }), 8, 4},
      {"lanes 0-15 active, 128 L", "ld", 4, offsets([](int l) { return l < 16 ? 128 * l : -1; }),
       16, 15},
      {"ldmatrix.x4 chunk-swizzled 128-byte rows", "ldmatrix.x4", 16,
       offsets([](int l) { return 128 * (l % 8) + 16 * ((l / 8) ^ (l % 8)); }), 4, 0},
  };
  for (const Row& row : rows) {
    CAPTURE(row.pattern);
    const nlohmann::json j = analyze_json("--op " + row.op + " --width " +
                                          std::to_string(row.width) + " --offsets " + row.list);
    CHECK(j.at("wavefronts") == row.wavefronts);
    CHECK(j.at("bank_conflicts") == row.conflicts);
  }
}

TEST_CASE("--lanes switches lanes off in the raw form too") {
  std::string column;  // float tile[32][32], column 0: lane L at byte 128 L
  for (int l = 0; l < 32; ++l) column += (l ? "," : "") + std::to_string(128 * l);
  const nlohmann::json j = analyze_json("--op ld --width 4 --lanes 0x000000ff --offsets " + column);
  CHECK(j.at("wavefronts") == 8);
  CHECK(j.at("active_lanes") == 8);
  CHECK(j.at("lanes").at(8).at("active") == false);
}

// [SECTION] JSON, presets and the text report

TEST_CASE("The JSON of an analysis carries the fields scripts rely on") {
  const nlohmann::json j = analyze_json("--pad 1 --index 5");
  CHECK(j.at("ok") == true);
  CHECK(j.at("wavefronts") == 1);
  CHECK(j.at("ideal_wavefronts") == 1);
  CHECK(j.at("bank_conflicts") == 0);
  CHECK(j.at("diagnostics").is_array());
  REQUIRE(j.at("lanes").size() == 32);
  // Lane 7 reads element (7, 5) of float tile[32][33]: byte 4 * (33 * 7 + 5), bank (7 + 5).
  const nlohmann::json& lane = j.at("lanes").at(7);
  CHECK(lane.at("row") == 7);
  CHECK(lane.at("col") == 5);
  CHECK(lane.at("byte") == 4 * (33 * 7 + 5));
  CHECK(lane.at("banks").at(0) == 12);
}

TEST_CASE("A preset is a starting point that flags override") {
  SUBCASE("as it is") {
    CHECK(analyze_json("--preset fp32-pad4").at("wavefronts") == 4);
  }
  SUBCASE("with another pad") {
    CHECK(analyze_json("--preset fp32-pad4 --pad 1").at("wavefronts") == 1);
  }
  SUBCASE("a matrix preset switched to a column read drops its ldmatrix op and width") {
    const nlohmann::json j = analyze_json("--preset ldmatrix-plain --access column");
    CHECK(j.at("op") == "ld");
    CHECK(j.at("width") == 2);
  }
  SUBCASE("inactive lanes from --lanes") {
    CHECK(analyze_json("--preset fp32-naive --lanes 0000ffff").at("wavefronts") == 16);
    CHECK(analyze_json("--preset fp32-naive --lanes 0x1").at("wavefronts") == 1);
  }
}

TEST_CASE("The text report shows the lane table, the bank grid and the explanation") {
  const Run run = run_banklab("analyze --dtype fp32 --pad 0 --index 3");
  REQUIRE(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out.find("wavefronts 32, ideal 1, bank conflicts 31 (a 32-way conflict)") !=
        std::string::npos);
  CHECK(run.out.find("lane    r       c      byte  words") != std::string::npos);
  CHECK(run.out.find("wavefront | bank") != std::string::npos);
  // 32 wavefront rows, lane L alone in bank 3 of wavefront L.
  CHECK(run.out.find("\n  31  p0  |  .  .  . 31  .  .") != std::string::npos);
}

// [SECTION] Help, bad input and exits

TEST_CASE("Help, version and the command list") {
  SUBCASE("banklab --help lists every command and exits 0") {
    const Run run = run_banklab("--help");
    CHECK(run.status == 0);
    for (const char* command : {"analyze", "presets", "explain"}) {
      CAPTURE(command);
      CHECK(run.out.find(std::string("  ") + command + " ") != std::string::npos);
    }
  }
  SUBCASE("each command answers --help and -h with its usage") {
    for (const char* command : {"analyze", "presets", "explain"}) {
      for (const char* flag : {"--help", "-h"}) {
        CAPTURE(command);
        CAPTURE(flag);
        const Run run = run_banklab(std::string(command) + " " + flag);
        CHECK(run.status == 0);
        CHECK(run.out.starts_with(std::string("usage: banklab ") + command));
      }
    }
  }
  SUBCASE("--version") {
    const Run run = run_banklab("--version");
    CHECK(run.status == 0);
    // The version, the commit, and the data folder in use (the build tree's assets/ here).
    CHECK(run.out.starts_with(std::string("banklab ") + BANKLAB_VERSION + " (commit "));
    CHECK(run.out.find(")\ndata: ") != std::string::npos);
    CHECK(run.out.ends_with("assets\n"));
  }
  SUBCASE("no command at all is bad input, with the command list on stderr") {
    const Run run = run_banklab("");
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK(run.err.find("analyze") != std::string::npos);
  }
}

TEST_CASE("Bad input exits 2 with one line naming the problem") {
  SUBCASE("command line") {
    check_rejected("frobnicate", "unknown command 'frobnicate'");
    check_rejected("analyze --padd 1", "unknown flag --padd");
    check_rejected("analyze --pad", "missing value for --pad");
    check_rejected("analyze --pad two", "--pad expects a whole number, got 'two'");
    check_rejected("analyze --index 1e3", "--index expects a whole number");
    check_rejected("analyze --json=1", "--json is a switch");
    check_rejected("presets extra", "'presets' takes no arguments");
    check_rejected("explain a b", "unexpected argument 'b'");
  }
  SUBCASE("values") {
    check_rejected("analyze --dtype fp128", "--dtype expects fp8, bf16, fp32 or fp64");
    check_rejected("analyze --access diagonal", "--access expects row, column");
    check_rejected("analyze --access custom", "give the 32 byte offsets with --offsets");
    check_rejected("analyze --access raw", "give the 32 byte offsets with --offsets");
    check_rejected("analyze --op ldmatrix.x4", "--op ldmatrix.x4 is a matrix op");
    check_rejected("analyze --access ldmatrix.x4 --op st", "does not match --access");
    // Regression: the width was ignored, where the raw form rejects it.
    check_rejected("analyze --access ldmatrix.x4 --width 4",
                   "--width 4 does not fit --access ldmatrix.x4, which moves one 16-byte row");
    std::string rows;
    for (int lane = 0; lane < 32; ++lane) rows += (lane ? "," : "") + std::to_string(16 * lane);
    check_rejected("analyze --op ldmatrix.x4 --width 4 --offsets " + rows,
                   "moves one 16-byte row per address; width 4 is not possible");
    check_rejected("analyze --lanes zz", "--lanes expects a hexadecimal lane mask");
    check_rejected("analyze --lanes 1ffffffff", "more than 32 bits");
    check_rejected("analyze --preset nope", "'nope' is not a preset; the presets are fp32-naive");
    check_rejected("explain nope", "'nope' is not a preset");
  }
  SUBCASE("mixed forms") {
    check_rejected("analyze --batch - --pad 1", "--pad cannot be combined with --batch");
    check_rejected("analyze --offsets 0 --tile 32x32", "--tile belongs to the scenario form");
    check_rejected("analyze --op ld --offsets 0,4", "--offsets needs --width");
    check_rejected("analyze --batch /nonexistent/patterns.txt", "cannot open --batch file");
    check_rejected("analyze --batch /", "--batch '/' is a folder, not a file");
  }
  SUBCASE("rules of the model, in core's words") {
    // The lesson's own example: float4 stores into 132-byte rows are misaligned.
    check_rejected("analyze --pad 1 --access row --op st --width 16 --index 1",
                   "a 16-byte access must be 16-byte aligned");
    check_rejected("analyze --op ld --width 4 --offsets 0,4", "got 2 offsets");
    check_rejected("analyze --op ld --width 3 --offsets 0", "--width: bad width '3'");
    check_rejected("analyze --tile 0x32", "each side must be between 1 and 4096");
    check_rejected("analyze --tile 3", "--tile: bad tile size '3'");
    check_rejected("analyze --pad -1", "pad -1 is out of range");
    check_rejected("analyze --index 40", "column index 40 is outside the tile");
    check_rejected("analyze --swizzle cute:3,4", "--swizzle: bad swizzle 'cute:3,4'");
    check_rejected("analyze --swizzle xor --tile 32x24", "only when C is a power of two");
  }
}

TEST_CASE("Messages show user text cut to 60 characters, control bytes escaped") {
  // Regression: a huge token came back whole, and escape bytes reached the terminal.
  const std::string long_text(100'000, 'q');
  for (const std::string flag : {"--dtype", "--tile", "--swizzle", "--width", "--lanes", "--op"}) {
    CAPTURE(flag);
    const Run run = run_banklab("analyze " + flag + " \"$(printf '\\033[31m')" + long_text + "\"");
    check_rejected("analyze " + flag + " \"$(printf '\\033[31m')" + long_text + "\"", "\\x1b[31m");
    CHECK(run.err.find('\x1b') == std::string::npos);
    CHECK(run.err.find(std::string(60, 'q') + "\u2026") == std::string::npos);  // 5 + 55 shown
    CHECK(run.err.find(std::string(55, 'q') + "\u2026") != std::string::npos);
    CHECK(run.err.size() < 400);
  }
  const Run batch = run_banklab("analyze --batch -", "\x1b[2J" + long_text + " 4 0\n");
  CHECK(batch.err.find('\x1b') == std::string::npos);
  CHECK(batch.err.size() < 400);
}

TEST_CASE("gpu-bench checks every argument before it looks for a GPU") {
  // Regression: a misaligned --offsets pattern was refused only after the GPU was found, so a
  // machine without one said "no GPU" instead of naming the mistake.
  std::string misaligned;
  for (int lane = 0; lane < 32; ++lane) misaligned += (lane ? "," : "") + std::to_string(lane + 1);
  check_rejected("gpu-bench --pattern --op ld --width 4 --offsets " + misaligned,
                 "a 4-byte access must be 4-byte aligned");
  check_rejected("gpu-bench --size 70000", "--size must be between 1 and 65536");
  check_rejected("gpu-bench --pattern --access ldmatrix.x4 --width 8", "does not fit --access");
  // A flag of the scenario form beside raw offsets was ignored; it is refused, as analyze does.
  std::string aligned;
  for (int lane = 0; lane < 32; ++lane) aligned += (lane ? "," : "") + std::to_string(4 * lane);
  check_rejected("gpu-bench --pattern --op ld --width 4 --offsets " + aligned + " --dtype bf16",
                 "--dtype belongs to the scenario form");
  // Without --pattern, every flag of core's key table names an access, but --dtype and --pad,
  // which the transpose suite reads too.
  check_rejected("gpu-bench --swizzle tma128", "--swizzle describes an access: add --pattern");
  check_rejected("gpu-bench --dtype bf16 --lanes ff", "--lanes describes an access");
  check_rejected("gpu-bench --scenario s.txt", "--scenario describes an access");
  check_rejected("gpu-bench --pad 1 --offsets 0", "--offsets describes an access");
}

TEST_CASE("With --json a rejected input also prints its diagnostics as JSON on stdout") {
  const Run run = run_banklab("analyze --pad 1 --access row --op st --width 16 --index 1 --json");
  CHECK(run.status == 2);
  CHECK(run.err.starts_with("banklab: "));
  const nlohmann::json j = parse_json(run);
  CHECK(j.at("ok") == false);
  REQUIRE_FALSE(j.at("diagnostics").empty());
  CHECK(j.at("diagnostics").at(0).at("severity") == "error");
}

TEST_CASE("An output that cannot be written is an environment failure: exit 1") {
  for (const char* command : {"presets", "explain", "analyze --pad 1", "analyze --json", "--help",
                              "--version", "analyze --help", "explain --preset x --help"}) {
    CAPTURE(command);
    const Run run = run_banklab(std::string(command) + " > /dev/full");
    CHECK(run.status == 1);
    CHECK(run.err == "banklab: cannot write the output\n");
  }
}

// [SECTION] Presets and explain

TEST_CASE("presets --json is a list of objects with a name, and every preset explains") {
  const Run list = run_banklab("presets --json");
  REQUIRE(list.status == 0);
  const nlohmann::json presets_json = parse_json(list);
  REQUIRE(presets_json.is_array());
  REQUIRE(presets_json.size() == presets().size());
  for (const nlohmann::json& p : presets_json) {
    REQUIRE(p.is_object());
    const std::string name = p.at("name").get<std::string>();
    CAPTURE(name);
    const Run text = run_banklab("explain " + name);
    CHECK(text.status == 0);
    CHECK(text.out.starts_with(name + ": "));
    const Run json = run_banklab("explain " + name + " --json");
    CHECK(json.status == 0);
    const nlohmann::json x = parse_json(json);
    const int expected = p.at("expected_wavefronts").get<int>();
    // A negative expectation marks a preset whose lesson is the diagnostic.
    if (expected > 0) {
      CHECK(x.at("wavefronts") == expected);
      CHECK(x.at("explanation").at("steps").is_array());
    } else {
      CHECK(x.at("ok") == false);
    }
  }
}

TEST_CASE("explain with no preset explains the default one") {
  const Run run = run_banklab("explain");
  CHECK(run.status == 0);
  CHECK(run.out.starts_with(std::string(kDefaultPreset) + ": "));
}

// A note is said once: in the diagnostics above the derivation, not again below it (explain
// bf16-256-pad2 printed the 48 KB static limit twice).
TEST_CASE("explain and analyze say each note once") {
  const auto count = [](const std::string& text, const std::string& part) {
    int n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
      ++n;
    return n;
  };
  const std::string limit = "a static __shared__ array may take";
  const Run big = run_banklab("explain bf16-256-pad2");
  REQUIRE(big.status == 0);
  CHECK(count(big.out, limit) == 1);
  CHECK(count(big.out, "note [static-limit]: ") == 1);
  const Run permuted =
      run_banklab("analyze --tile 32x64 --swizzle xor --access row --op st --width 16");
  REQUIRE(permuted.status == 0);
  CHECK(count(permuted.out, "must reorder the elements in registers") == 1);
}

TEST_CASE("explain takes the scenario flags of analyze, and says the same numbers") {
  const char* scenario = "--dtype bf16 --pad 1 --access column --index 3";
  const Run run = run_banklab(std::string("explain ") + scenario + " --json");
  REQUIRE(run.status == 0);
  const nlohmann::json x = parse_json(run);
  const nlohmann::json a = analyze_json(scenario);
  CHECK(x.at("wavefronts") == a.at("wavefronts"));
  CHECK(x.at("explanation") == a.at("explanation"));
  CHECK(x.at("scenario").at("dtype") == "bf16");
  // --preset NAME alone reads like PRESET: the title and the lesson.
  CHECK(run_banklab("explain --preset bf16-pad1").out == run_banklab("explain bf16-pad1").out);
  check_rejected("explain bf16-pad1 --pad 2", "give a PRESET or the scenario flags, not both");
}

// [SECTION] Flags and saved scenarios

TEST_CASE("Every flag reads as --flag value and as --flag=value, negative numbers as values") {
  CHECK(analyze_json("--dtype=bf16 --pad=1 --index=3") ==
        analyze_json("--dtype bf16 --pad 1 --index 3"));
  check_rejected("analyze --index -1", "column index -1 is outside the tile");
  check_rejected("analyze --index=-1", "column index -1 is outside the tile");
}

TEST_CASE("analyze --save-scenario writes a file that --scenario opens to the same answer") {
  const TempFile file("");
  const std::string path = "'" + file.path().string() + "'";
  for (const std::string& flags : std::vector<std::string>{
           "--preset ldmatrix-swizzled",
           "--dtype bf16 --pad 1 --access column --index 3 --lanes 0xffff",
           "--op st --width 8 --offsets " +
               std::string("0,-1,16,24,32,40,48,56,64,72,80,88,96,104,") +
               "112,120,128,136,144,152,160,168,176,184,192,200,208,216,224,232,240,248"}) {
    CAPTURE(flags);
    const Run saved = run_banklab("analyze " + flags + " --save-scenario " + path + " --json");
    REQUIRE(saved.status == 0);
    const Run opened = run_banklab("analyze --scenario " + path + " --json");
    REQUIRE(opened.status == 0);
    const nlohmann::json a = parse_json(saved);
    const nlohmann::json b = parse_json(opened);
    CHECK(b.at("wavefronts") == a.at("wavefronts"));
    CHECK(b.at("lanes") == a.at("lanes"));
    CHECK(run_banklab("explain --scenario " + path).status == 0);
  }
  check_rejected("analyze --scenario /dev/zero", "/dev/zero: not a regular file");
  const Run refused = run_banklab("analyze --save-scenario /dev/null");
  CHECK(refused.status == 1);
  CHECK(refused.err == "banklab: /dev/null: not a regular file; a scenario is written to a file\n");
}

TEST_CASE("Help is generated from the declared flags: every flag is listed with its value") {
  for (const char* command : {"analyze", "explain", "gpu-bench"}) {
    CAPTURE(command);
    const Run run = run_banklab(std::string(command) + " --help");
    REQUIRE(run.status == 0);
    for (const char* flag :
         {"--preset NAME", "--dtype D", "--tile RxC", "--pad P", "--swizzle S", "--access A",
          "--index N", "--width BYTES", "--op OP", "--lanes MASK", "--offsets LIST", "--json"}) {
      CAPTURE(flag);
      CHECK(run.out.find(std::string("\n  ") + flag) != std::string::npos);
    }
  }
  CHECK(run_banklab("analyze --help").out.find("  --batch FILE ") != std::string::npos);
  CHECK(run_banklab("presets --help").out.starts_with("usage: banklab presets [--json]\n"));
}

TEST_CASE("presets prints one entry per preset") {
  const Run run = run_banklab("presets");
  REQUIRE(run.status == 0);
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    CHECK(run.out.find(std::string(p.name) + " ") != std::string::npos);
  }
}

}  // namespace
}  // namespace banklab::test

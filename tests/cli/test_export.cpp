// banklab export as a user runs it: what it writes, where, and how it fails.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/cli/run_banklab.hpp"

using banklab::test::Run;
using banklab::test::run_banklab;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void check_export_rejected(const std::string& arguments, const std::string& message) {
  CAPTURE(arguments);
  const Run run = run_banklab(arguments);
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK(run.err == "banklab: " + message + "\n");
}

}  // namespace

TEST_CASE("export writes each view as SVG and the tables as CSV and Markdown, to stdout or -o") {
  const Run svg = run_banklab("export --preset fp32-naive --what banks");
  REQUIRE(svg.status == 0);
  CHECK(svg.out.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
  CHECK(svg.out.ends_with("</svg>\n"));
  CHECK(svg.out.find("32-way bank conflict") != std::string::npos);

  const fs::path out = fs::temp_directory_path() / ("banklab-export-" + std::to_string(::getpid()));
  for (const char* flags :
       {"--preset fp32-naive --what banks", "--preset broadcast --what lanes --theme dark",
        "--dtype bf16 --pad 1 --index 3 --what tile --physical --palette colour-blind",
        "--preset fp64-pad1 --what table", "--preset fp64-pad1 --what table --format md",
        "--preset bf16-pad1-odd --what derivation"}) {
    CAPTURE(flags);
    const Run to_stdout = run_banklab(std::string("export ") + flags);
    REQUIRE(to_stdout.status == 0);
    const Run to_file = run_banklab(std::string("export ") + flags + " -o " + out.string());
    REQUIRE(to_file.status == 0);
    CHECK(to_file.out.empty());
    CHECK(slurp(out) == to_stdout.out);
  }
  fs::remove(out);

  const Run csv =
      run_banklab("export --op ld --width 4 --offsets " +
                  std::string("0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,") +
                  "64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124 --what table");
  REQUIRE(csv.status == 0);
  CHECK(std::ranges::count(csv.out, '\n') == 33);
  CHECK(csv.out.find("\n31,1,,,,124,31,31,0,0\n") != std::string::npos);
}

TEST_CASE("export --tile-view both draws the logical and physical tiles under their captions") {
  const Run both = run_banklab("export --preset fp32-xor --what tile --tile-view both");
  REQUIRE(both.status == 0);
  CHECK(both.out.find(">logical: elements as indexed</text>") != std::string::npos);
  CHECK(both.out.find(">physical: slots as stored</text>") != std::string::npos);
  std::size_t heatmaps = 0;
  for (auto at = both.out.find("class=\"heatmap\""); at != std::string::npos;
       at = both.out.find("class=\"heatmap\"", at + 1)) {
    ++heatmaps;
  }
  CHECK(heatmaps == 2);
  // --physical is --tile-view physical.
  CHECK(run_banklab("export --preset fp32-xor --what tile --physical").out ==
        run_banklab("export --preset fp32-xor --what tile --tile-view physical").out);
  CHECK(run_banklab("export --preset fp32-xor --what tile").out ==
        run_banklab("export --preset fp32-xor --what tile --tile-view logical").out);
  check_export_rejected("export --what tile --tile-view sideways",
                        "--tile-view is logical, physical or both; got 'sideways'");
  check_export_rejected("export --what tile --tile-view both --physical",
                        "--physical is --tile-view physical; give one of them, not both");
  check_export_rejected("export --what lanes --tile-view both",
                        "--tile-view picks the tile's picture; it needs --what tile");
}

TEST_CASE("export refuses what it cannot write, naming the rule, and a failed write exits 1") {
  check_export_rejected("export --preset fp32-naive",
                        "--what is needed: banks, lanes, tile, table or derivation");
  check_export_rejected("export --what chart",
                        "--what is banks, lanes, tile, table or derivation; got "
                        "'chart'");
  check_export_rejected("export --what banks --format csv",
                        "--what banks is written as svg, not 'csv'");
  check_export_rejected("export --what table --format svg",
                        "--what table is written as csv or md, not 'svg'");
  check_export_rejected("export --what table --theme dark",
                        "--theme shapes a figure (--what banks, lanes or tile)");
  check_export_rejected("export --what banks --physical",
                        "--physical shows the tile as stored; it needs --what tile");
  check_export_rejected("export --what banks --size 10x10",
                        "--size's width must be between 320 and 16384, got 10");
  check_export_rejected("export --what lanes --palette pastel",
                        "--palette is 'standard' or 'colour-blind'; got 'pastel'");
  // The core's own sentence, after what could not be exported: a refused access has no lane
  // table (its figures draw the misaligned rows instead: "a refused access is drawn").
  const Run misaligned = run_banklab("export --preset fp32-pad1-vec16-store --what table");
  CHECK(misaligned.status == 2);
  CHECK(
      misaligned.err.starts_with("banklab: cannot export the table: lane 8: a 16-byte access "
                                 "must be 16-byte aligned"));

  const Run no_folder = run_banklab("export --what banks -o /nonexistent-banklab/x.svg");
  CHECK(no_folder.status == 1);
  CHECK(no_folder.err.starts_with("banklab: /nonexistent-banklab/x.svg: cannot create it: "));
  const Run device = run_banklab("export --what table -o /dev/null");
  CHECK(device.status == 1);
  CHECK(device.err == "banklab: /dev/null: not a regular file; an export is written to a file\n");
  const Run full = run_banklab("export --what derivation > /dev/full");
  CHECK(full.status == 1);
  CHECK(full.err == "banklab: cannot write the output\n");
}

TEST_CASE("export draws a refused access: the tile, its misaligned rows marked, the arithmetic") {
  // 132-byte rows and 16-byte stores: 24 of the 32 rows start off a 16-byte boundary.
  for (const char* what : {"banks", "lanes", "tile"}) {
    CAPTURE(what);
    const Run run =
        run_banklab(std::string("export --preset fp32-pad1-vec16-store --what ") + what);
    REQUIRE(run.status == 0);
    CHECK(run.err.empty());
    CHECK(run.out.find("row starts off a 16-byte boundary") != std::string::npos);  // legend
    CHECK(run.out.find("132 mod 16 = 4") != std::string::npos);  // the arithmetic
    // A hatched bar either side of each misaligned row, in the highlight role.
    std::size_t bars = 0;
    for (auto at = run.out.find("class=\"highlight\""); at != std::string::npos;
         at = run.out.find("class=\"highlight\"", at + 1)) {
      ++bars;
    }
    CHECK(bars == 2 * 24u);
  }
}

// banklab scan: a corpus file read, its kernels ranked in text and JSON, the measured counts
// beside them with --ncu-csv, and every bad input an error with its exit status.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

const std::string kCorpus = std::string(BANKLAB_SOURCE_DIR) + "/tests/scan/";

TEST_CASE("scan prints each kernel's accesses ranked by excess, with the block's origin") {
  const Run run = run_banklab("scan " + kCorpus + "corpus/transpose.cu");
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out.find("transpose.cu:9: kernel transpose_naive, block 32x8x1 (the launch on line "
                     "43), grid 8x8x1") != std::string::npos);
  CHECK(
      run.out.find("   19  ld               4     32        1024      32     992  32-way  warp 0, "
                   "trip 0 of j\n") != std::string::npos);
  CHECK(run.out.find("kernel transpose_padded") != std::string::npos);
}

TEST_CASE("every command's help continues a flag's description under its first line") {
  // A description's second line was indented by hand for a column the formatter does not use:
  // the formatter's 20 columns and 41 spaces put `--block`'s "with a constant block, else
  // __launch_bounds__)" at column 61. No help has a line there (tables and right-aligned
  // defaults start elsewhere).
  const std::string under(20, ' ');
  for (const char* command : {"analyze", "solve", "presets", "explain", "export", "scan", "desc",
                              "trace", "drill", "lesson", "validate", "gpu-bench"}) {
    const std::string name = command;
    CAPTURE(name);
    const Run run = run_banklab(name + " --help");
    REQUIRE(run.status == 0);
    std::istringstream lines(run.out);
    std::string line;
    while (std::getline(lines, line)) {
      CAPTURE(line);
      CHECK(line.find_first_not_of(' ') != 61);
    }
  }
  const Run scan = run_banklab("scan --help");
  for (const char* continued : {"with a constant block, else __launch_bounds__)",
                                "parameters, blockIdx.x (may be repeated)",
                                "ncu -i REPORT --page source --csv --print-source cuda,sass",
                                "load and store widths against the PTX"}) {
    CHECK(scan.out.find("\n" + under + continued + "\n") != std::string::npos);
  }
  const Run export_help = run_banklab("export --help");
  CHECK(export_help.out.find("\n" + under + "(default: the first named)\n") != std::string::npos);
}

TEST_CASE("scan counts one block as one block") {
  const TempFile cu(
      "__global__ void k() {\n"
      "  __shared__ float s[32];\n"
      "  s[threadIdx.x] = 1;\n"
      "}\nint main() { k<<<1, 32>>>(); k<<<2, 32>>>(); }\n");
  const Run one = run_banklab("scan " + cu.path().string());
  REQUIRE(one.status == 0);
  CHECK(one.out.find("(Nsight Compute counts the whole grid: 1 block)") != std::string::npos);
  const Run two = run_banklab("scan " + cu.path().string() + " --grid 2");
  CHECK(two.out.find("(Nsight Compute counts the whole grid: 2 blocks)") != std::string::npos);
}

TEST_CASE("scan reads analyze's block spelling and every --let, each a list") {
  const TempFile cu(
      "__global__ void k(int n, int m, int q) {\n"
      "  __shared__ float s[128];\n"
      "  s[(threadIdx.x * n + m + q) % 128] = 1;\n"
      "}\n");
  const std::string scan = "scan " + cu.path().string() + " --block 32x2 --let n=2,m=1";
  const Run both = run_banklab(scan + " --let q=0");
  INFO(both.err);
  REQUIRE(both.status == 0);
  CHECK(both.out.find("kernel k, block 32x2x1 (--block)") != std::string::npos);
  CHECK(both.out.find("2-way") != std::string::npos);
  // Without the second --let, q has no value: the first list alone was read.
  const Run first = run_banklab(scan);
  CHECK(first.out.find("give it a value with --let q=VALUE") != std::string::npos);
}

TEST_CASE("scan --json: one object a kernel, the shape the issue gives") {
  const Run run = run_banklab("scan " + kCorpus + "corpus/reduce.cu --json");
  REQUIRE(run.status == 0);
  std::istringstream lines(run.out);
  std::string line;
  int kernels = 0;
  while (std::getline(lines, line)) {
    const nlohmann::json k = nlohmann::json::parse(line);
    ++kernels;
    CHECK(k["block"] == nlohmann::json::array({256, 1, 1}));
    for (const auto& l : k["lines"]) {
      for (const char* field : {"line", "op", "width", "instructions", "wavefronts",
                                "ideal_wavefronts", "excess_wavefronts", "worst_ways", "notes"}) {
        CHECK(l.contains(field));
      }
      CHECK(l["worst"].contains("warp"));
      CHECK(l["worst"].contains("iteration"));
      CHECK(l["excess_wavefronts"].get<int>() ==
            l["wavefronts"].get<int>() - l["ideal_wavefronts"].get<int>());
    }
    CHECK(k["unevaluated"].is_array());
    if (k["kernel"] == "reduce_interleaved") {
      // sdata[index] += sdata[index + s]: two loads and a store, 6720 excess measured over the
      // 64 blocks of the grid.
      int excess = 0, entries = 0;
      for (const auto& l : k["lines"]) {
        if (l["line"] != 29) continue;
        excess += l["excess_wavefronts"].get<int>();
        ++entries;
      }
      CHECK(entries == 3);
      CHECK(excess == 105);
    }
  }
  CHECK(kernels == 4);
}

TEST_CASE("scan --ncu-csv puts the measured counts beside the prediction, line by line") {
  const Run run =
      run_banklab("scan " + kCorpus + "corpus/ldmatrix.cu --kernel ldmatrix_plain --ncu-csv " +
                  kCorpus + "measured/ldmatrix_plain.csv");
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(
      run.out.find("   21        4096       4096          512          512           3584          "
                   "3584  agrees\n") != std::string::npos);
  CHECK(run.out.find("this line calls ldmatrix_x4(), inlined") != std::string::npos);
  CHECK(run.out.find("2 of 2 evaluated lines agree with the measurement") != std::string::npos);
  const Run json = run_banklab("scan " + kCorpus +
                               "corpus/ldmatrix.cu --kernel ldmatrix_plain --json --ncu-csv " +
                               kCorpus + "measured/ldmatrix_plain.csv");
  const nlohmann::json k = parse_json(json);
  CHECK(k["ncu"]["agreeing_lines"] == 2);
  CHECK(k["ncu"]["blocks"] == 8);
  // A template's instance: ncu names it "void traits_tile<Attention>(const __half *, float *)",
  // which was "the CSV has no measurement of traits_tile".
  const Run instance =
      run_banklab("scan " + kCorpus + "corpus/storage.cu --kernel traits_tile --ncu-csv " +
                  kCorpus + "measured/traits_tile.csv");
  REQUIRE(instance.status == 0);
  CHECK(instance.out.find("predicted times 1 block:\n") != std::string::npos);
  CHECK(instance.out.find("2 of 2 evaluated lines agree with the measurement") !=
        std::string::npos);
}

TEST_CASE("scan refuses bad input with one line and status 2, a missing file with status 1") {
  CHECK(run_banklab("scan /nonexistent.cu").status == 1);
  const Run block = run_banklab("scan " + kCorpus + "corpus/transpose.cu --block 64,32");
  CHECK(block.status == 2);
  CHECK(block.err.find("--block 64x32x1 is not one CUDA launches: a block has at most 1024 "
                       "threads, this one 2048") != std::string::npos);
  const Run kernel = run_banklab("scan " + kCorpus + "corpus/transpose.cu --kernel nope");
  CHECK(kernel.status == 2);
  CHECK(kernel.err.find("no such kernel in transpose.cu (its kernels: transpose_naive, "
                        "transpose_padded)") != std::string::npos);
  const Run let = run_banklab("scan " + kCorpus + "corpus/transpose.cu --let threadIdx.x=3");
  CHECK(let.status == 2);
  CHECK(let.err.find("built in") != std::string::npos);
  const TempFile csv("not a csv\n");
  const Run bad_csv =
      run_banklab("scan " + kCorpus + "corpus/transpose.cu --ncu-csv " + csv.path().string());
  CHECK(bad_csv.status == 2);
  CHECK(bad_csv.err.find("Nsight Compute's source page") != std::string::npos);
  const TempFile empty("");
  const Run none = run_banklab("scan " + empty.path().string());
  CHECK(none.status == 2);
  CHECK(none.err.find("has no __global__ kernel") != std::string::npos);
}

TEST_CASE("scan shows a file's control characters as text, in its name and its lines") {
  // ESC ] 0 ; ... BEL sets the terminal's title; ESC [ 31 m turns it red.
  const std::string escape = "\x1b]0;pwned\x07";
  const TempFile file("__global__ void k() { __shared__ float s[32]; s[threadIdx.x] = 1; } // " +
                      escape + "\nint main() { k<<<1, 32>>>(); }\n");
  const std::string named = file.path().string() + "\x1b[31m.cu";
  std::filesystem::copy_file(file.path(), named);
  const Run run = run_banklab("scan '" + named + "'");
  std::filesystem::remove(named);
  REQUIRE(run.status == 0);
  CHECK(run.out.find('\x1b') == std::string::npos);
  CHECK(run.out.find('\x07') == std::string::npos);
  CHECK(run.out.find("\\x1b[31m.cu:1: kernel k") != std::string::npos);
  CHECK(run.out.find("// \\x1b]0;pwned\\x07") != std::string::npos);
  // JSON escapes what it quotes itself and stays JSON.
  const Run json = run_banklab("scan " + file.path().string() + " --json");
  CHECK(json.out.find('\x1b') == std::string::npos);
  CHECK(parse_json(json)["kernel"] == "k");
  // An error's source line, on standard error.
  const TempFile bad("__global__ void k() { " + escape + " }}}\n");
  const Run error = run_banklab("scan " + bad.path().string());
  CHECK(error.status == 2);
  CHECK(error.err.find('\x1b') == std::string::npos);
}

TEST_CASE("scan --check-widths compiles with nvcc and checks each line against its PTX") {
  const Run run = run_banklab("scan " + kCorpus + "corpus/widths.cu --check-widths");
  INFO(run.err);
  if (run.status != 0) {  // a machine without CUDA: said, with the status of a missing tool
    CHECK(run.status == 1);
    CHECK(run.err.find("--check-widths needs nvcc") != std::string::npos);
    return;
  }
  CHECK(run.out.find("   19  ld      8  agrees   the PTX has 2 x ld.shared.f32: adjacent, which "
                     "ptxas merges into the 8-byte access counted\n") != std::string::npos);
  CHECK(run.out.find("DIFFERS") == std::string::npos);
  CHECK(run.out.find("4 of 4 checked lines agree with the PTX") != std::string::npos);
  const Run piped = run_banklab("scan - --check-widths", "__global__ void k() {}");
  CHECK(piped.status == 2);
}

}  // namespace
}  // namespace banklab::test

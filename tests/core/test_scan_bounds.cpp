// The scan on hostile files (issue 32): every input ends, in bounded time and memory, with its
// counts or a clear error; nothing crashes. Each case is one a user found crashing or running
// away, at the size that did.
#include <doctest/doctest.h>

#include <string>

#include "core/code/machine.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"

namespace banklab {
namespace {

std::string repeat(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// A file whose kernel k runs `body` in one block of `threads` threads.
std::string file_with(const std::string& body, int threads = 32) {
  return "__global__ void k() {\n" + body + "\n}\nint main() { k<<<1, " + std::to_string(threads) +
         ">>>(); }\n";
}

ScanResult scan_text(const std::string& text, ScanOptions options = {}) {
  return scan_source({"hostile.cu", text}, options);
}

// The file's one kernel, scanned without an error of the file.
KernelScan only_kernel(const std::string& text, ScanOptions options = {}) {
  ScanResult r = scan_text(text, options);
  REQUIRE_MESSAGE(!r.error, (r.error ? r.error->message : ""));
  REQUIRE(r.kernels.size() == 1);
  return std::move(r.kernels[0]);
}

// The error of the whole file (its message), failing the test where there is none.
std::string file_error(const std::string& text) {
  const ScanResult r = scan_text(text);
  REQUIRE(r.error.has_value());
  return r.error->message;
}

bool has_reason(const KernelScan& k, const std::string& part) {
  for (const ScanProblem& p : k.unevaluated)
    if (p.reason.find(part) != std::string::npos) return true;
  return false;
}

// ---- Calls: a return whose value calls another function. ----

TEST_CASE("a return whose value calls a function keeps its value (it was a use-after-free)") {
  // The reproducer: f's return evaluates g(n), which grows the machine's call stack
  // under the reference f's return held.
  const KernelScan k = only_kernel(
      "__device__ int g(int n) { return n; }\n"
      "__device__ int f(int n) { return g(n); }\n" +
      file_with("__shared__ float t[32][33];\nt[threadIdx.x][f(0)] = 1;"));
  REQUIRE(k.lines.size() == 1);
  CHECK(k.unevaluated.empty());
  CHECK(k.lines[0].instructions == 1);
  CHECK(k.lines[0].worst_ways == 1);  // rows of 33 words: column 0 is on 32 banks
  // The longer variant (it aborted in malloc): a chain of 30 calls, each returning the next's
  // value plus one, used three times in one index.
  std::string chain = "__device__ int f0(int n) { return n; }\n";
  for (int i = 1; i < 30; ++i) {
    chain += "__device__ int f" + std::to_string(i) + "(int n) { return f" + std::to_string(i - 1) +
             "(n) + 1; }\n";
  }
  const KernelScan deep = only_kernel(chain + file_with("__shared__ float t[32][96];\n"
                                                        "int a = f29(0) + f29(1) + f20(f10(2));\n"
                                                        "t[threadIdx.x][a] = 1;"));
  REQUIRE(deep.lines.size() == 1);
  CHECK(deep.unevaluated.empty());
  // Column 29 + 30 + 32 = 91 of rows of 96 words: every row starts on bank 0, 32-way.
  CHECK(deep.lines[0].worst_ways == 32);
}

// ---- Nesting: every parser and the machine, bounded with a message. ----

TEST_CASE("3,000 nested subscripts or parentheses in a file: the statement is not evaluated") {
  // In a file (...) and [...] hold comma expressions, which started counting their depth from 0
  // again: the stack overflowed.
  const std::string subscripts = repeat("a[", 3000) + "0" + repeat("]", 3000);
  const std::string parentheses = repeat("(", 3000) + "0" + repeat(")", 3000);
  for (const std::string& deep : {subscripts, parentheses}) {
    const KernelScan k =
        only_kernel("__global__ void k(int* a) {\n__shared__ int s[32];\ns[threadIdx.x] = " + deep +
                    ";\n}\nint main() { k<<<1, 32>>>(0); }\n");
    CHECK(k.lines.empty());
    REQUIRE(k.unevaluated.size() == 1);
    CHECK(k.unevaluated[0].line == 3);
    CHECK(k.unevaluated[0].reason == "the expression nests deeper than 200 levels");
  }
}

TEST_CASE("10,000 nested braces, ifs, fors or else-ifs: an error of the file, not a crash") {
  const std::string message =
      "statements nest deeper than 256 levels (blocks, if, else if and loops inside one another)";
  const std::string access = "s[threadIdx.x] = 1;";
  const std::string shared = "__shared__ int s[32];\n";
  CHECK(file_error(file_with(shared + repeat("{", 10000) + access + repeat("}", 10000))) ==
        message);
  CHECK(file_error(file_with(shared + repeat("if (threadIdx.x < 32) ", 10000) + access)) ==
        message);
  CHECK(file_error(file_with(shared + repeat("for (int i = 0; i < 1; ++i) ", 10000) + access)) ==
        message);
  CHECK(file_error(file_with(shared + "if (threadIdx.x == 0) s[0] = 1;\n" +
                             repeat("else if (threadIdx.x == 1) s[1] = 1;\n", 10000))) == message);
  // 250 levels are read and run.
  const KernelScan k =
      only_kernel(file_with(shared + repeat("{", 250) + access + repeat("}", 250)));
  REQUIRE(k.lines.size() == 1);
  CHECK(k.lines[0].instructions == 1);
}

TEST_CASE("an #if with 20,000 parentheses: an error of the file") {
  CHECK(file_error("#if " + repeat("(", 20000) + "1" + repeat(")", 20000) + "\n#endif\n" +
                   file_with("")) == "#if: the condition nests deeper than 200 levels");
  // 100 levels are evaluated.
  const ScanResult r = scan_text("#if " + repeat("(", 100) + "0" + repeat(")", 100) +
                                 "\n#error\n#endif\n" + file_with(""));
  CHECK(!r.error);
}

TEST_CASE("a chain of calls of deeply nested code: the access is not evaluated, with why") {
  // Each function nests 20 additions around the next call: 32 calls deep, too deep to run on
  // the machine's stack, which the parsers alone (per function) do not bound.
  std::string chain = "__device__ int f0(int n) { return n; }\n";
  for (int i = 1; i < 31; ++i) {
    chain += "__device__ int f" + std::to_string(i) + "(int n) { return " + repeat("1 + (", 20) +
             "f" + std::to_string(i - 1) + "(n)" + repeat(")", 20) + " - 20; }\n";
  }
  const KernelScan k =
      only_kernel(chain + file_with("__shared__ int s[32];\ns[f30(threadIdx.x) % 32] = 1;"));
  CHECK(k.lines.empty());
  CHECK(has_reason(k, "nest deeper than 512 levels"));
}

// ---- The preprocessor: expansion bounded in size. ----

TEST_CASE("macros that expand without end stop at the budget, with the macro named") {
  // A 6 KB F(F(F(...))) took 1.3 GB: each level expands its argument again.
  CHECK(file_error("#define F(x) x\nint v = " + repeat("F(", 2000) + "1" + repeat(")", 2000) +
                   ";\n" + file_with("")) ==
        "#define F: the macros expand to more than 400000 tokens in all");
  // A chain of 4,000 macros, each naming the one before, used 40 times, took 3.3 GB.
  std::string chain = "#define M0 1\n";
  for (int i = 1; i < 4000; ++i)
    chain += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + "\n";
  const std::string uses = repeat("M3999 + ", 39) + "M3999";
  CHECK(file_error(chain + file_with("int v = " + uses + ";"))
            .ends_with(": macros expand inside one another deeper than 1024 levels"));
  // A chain of 1,000 is expanded.
  std::string short_chain = "#define M0 1\n";
  for (int i = 1; i < 1000; ++i)
    short_chain += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + "\n";
  const KernelScan k = only_kernel(short_chain + file_with("__shared__ int s[32];\n"
                                                           "s[(threadIdx.x + M999) % 32] = 1;"));
  REQUIRE(k.lines.size() == 1);
}

// ---- The work: bounded a file; loops whose trips are alike counted once. ----

TEST_CASE("two 4096-trip loops are counted exactly, at once (they took 2.9 GB and 20 s)") {
  const KernelScan k = only_kernel(file_with(
      "__shared__ float s[32];\n"
      "for (int i = 0; i < 4096; ++i) for (int j = 0; j < 4096; ++j) s[threadIdx.x] += 1;"));
  REQUIRE(k.lines.size() == 2);  // the load and the store of +=
  for (const ScanLine& l : k.lines) {
    CHECK(l.instructions == 4096 * 4096);
    CHECK(l.wavefronts == 4096 * 4096);
    CHECK(l.notes.empty());
  }
  CHECK(k.notes.empty());
}

// The same kernel twice: its tile loop as written, and under #pragma unroll, which the machine
// steps trip by trip (a loop nvcc unrolls is never counted once). The counts must be equal.
void check_counted_once_equals_stepped(const std::string& body, int threads) {
  const KernelScan once = only_kernel(file_with(body, threads));
  const KernelScan stepped = only_kernel(file_with("#pragma unroll\n" + body, threads));
  REQUIRE(once.lines.size() == stepped.lines.size());
  REQUIRE(!once.lines.empty());
  for (std::size_t i = 0; i < once.lines.size(); ++i) {
    INFO("entry " << i << ", line " << once.lines[i].line);
    CHECK(once.lines[i].line + 1 == stepped.lines[i].line);  // the pragma's line
    CHECK(once.lines[i].instructions == stepped.lines[i].instructions);
    CHECK(once.lines[i].wavefronts == stepped.lines[i].wavefronts);
    CHECK(once.lines[i].ideal_wavefronts == stepped.lines[i].ideal_wavefronts);
    CHECK(once.lines[i].worst_wavefronts == stepped.lines[i].worst_wavefronts);
    CHECK(once.lines[i].typical_wavefronts == stepped.lines[i].typical_wavefronts);
    CHECK(once.lines[i].width == stepped.lines[i].width);
  }
  CHECK(once.unevaluated.size() == stepped.unevaluated.size());
}

TEST_CASE("a loop whose trips issue the same accesses counts exactly what stepping counts") {
  // A tiled SGEMM's loop over K's tiles: the shared addresses do not depend on t, the global
  // ones and the accumulator do; the inner k loop is unrolled and its loads merge.
  check_counted_once_equals_stepped(
      "__shared__ float As[16][16];\n__shared__ float Bs[16][17];\n"
      "const int tx = threadIdx.x, ty = threadIdx.y;\nfloat acc = 0;\n"
      "for (int t = 0; t < 64; ++t) {\n"
      "  As[ty][tx] = 1.0f * t;\n  Bs[ty][tx] = 2.0f;\n  __syncthreads();\n"
      "  for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];\n  __syncthreads();\n}",
      256);
  // A guard that depends on the thread, not on the trip; a nested loop of its own bound.
  check_counted_once_equals_stepped(
      "__shared__ int s[64][33];\nint m = 0;\n"
      "for (int kv = 0; kv < 40; ++kv) {\n"
      "  if (threadIdx.x % 3 == 0) s[threadIdx.x][threadIdx.x % 33] = kv;\n"
      "  for (int j = 0; j < 40; ++j) m = max(m, s[j][threadIdx.x % 33]);\n}",
      64);
}

TEST_CASE("loops whose trips differ are stepped: the counts stay exact") {
  // The index depends on the trip; the trips differ from lane to lane; an integer carried
  // from trip to trip is used after the loop.
  const KernelScan k = only_kernel(
      file_with("__shared__ int s[64];\n"
                "for (int t = 0; t < 100; ++t) s[(threadIdx.x + t) % 64] = 1;\n"
                "for (int i = threadIdx.x; i < 100; i += 32) s[i % 64] = 2;\n"
                "int base = 0;\nfor (int t = 0; t < 100; ++t) { s[threadIdx.x] = 3; base += 1; }\n"
                "s[(threadIdx.x + base) % 64] = 4;"));
  CHECK(k.unevaluated.empty());
  int found = 0;
  for (const ScanLine& l : k.lines) {
    if (l.line == 3) CHECK(l.instructions == 100);
    if (l.line == 4) CHECK(l.instructions == 4);  // lanes 0..3 take a fourth trip
    if (l.line == 6) CHECK(l.instructions == 100);
    if (l.line == 7) CHECK(l.worst_ways == 1);  // base is 100: followed past its loop
    found += l.line >= 3 && l.line <= 7 ? 1 : 0;
  }
  CHECK(found == 4);
}

TEST_CASE(
    "the work of a file is bounded: the kernel that spends it says so, the rest are not run") {
  // Each kernel steps 32 warps through 1000 trips whose index depends on the trip: 32,000
  // statements; the budget (a tenth of the default, for a quick test) is spent by the seventh.
  std::string file;
  std::string launches;
  for (int i = 0; i < 20; ++i) {
    file += "__global__ void k" + std::to_string(i) +
            "() {\n__shared__ int s[1024];\n"
            "for (int t = 0; t < 1000; ++t) s[(threadIdx.x + t) % 1024] = t;\n}\n";
    launches += "k" + std::to_string(i) + "<<<1, 1024>>>(); ";
  }
  ScanOptions options;
  options.max_steps = 200'000;
  const ScanResult r = scan_text(file + "int main() { " + launches + "}\n", options);
  REQUIRE(!r.error);
  REQUIRE(r.kernels.size() == 20);
  CHECK(!r.kernels[0].error);
  CHECK(r.kernels[0].lines.at(0).instructions == 32 * 1000);
  int stopped = 0, not_run = 0;
  for (const KernelScan& k : r.kernels) {
    for (const std::string& n : k.notes)
      stopped += n.starts_with("the run stopped at the scan's work budget") ? 1 : 0;
    not_run += k.error && k.error->starts_with("not scanned: the kernels before it") ? 1 : 0;
  }
  CHECK(stopped == 1);
  CHECK(not_run > 0);
  CHECK(stopped + not_run < 20);
}

// ---- Nsight Compute's CSV: bounded in size, its numbers in range. ----

// A source page of k.cu with one CUDA line row: line number, then the four counts.
std::string csv_with_row(const std::string& line, const std::string& counts) {
  return "\"File Path\",\"/x/k.cu\"\n\"Function Name\",\"k()\"\n"
         "\"Line No\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts Shared\","
         "\"L1 Wavefronts Shared Ideal\",\"L1 Wavefronts Shared Excessive\"\n\"" +
         line + "\",\"s[i] = 0;\"," + counts + "\n";
}

TEST_CASE("a CSV's line numbers and counts out of range are refused, naming the CSV's line") {
  const auto good = parse_ncu_source_csv(csv_with_row("3", "\"1\",\"32\",\"1\",\"31\""));
  REQUIRE_MESSAGE(good.has_value(), good.error());
  CHECK((*good)[0].files[0].lines[0].wavefronts == 32);
  // 4294967315 was cut to an int: line 19.
  CHECK(parse_ncu_source_csv(csv_with_row("4294967315", "\"1\",\"32\",\"1\",\"31\"")).error() ==
        "line 4 of the CSV: \"Line No\" is 4294967315, not a count from 1 to 2147483647");
  CHECK(parse_ncu_source_csv(csv_with_row("0", "\"1\",\"32\",\"1\",\"31\"")).error() ==
        "line 4 of the CSV: \"Line No\" is 0, not a count from 1 to 2147483647");
  // A negative count was shown as measured.
  CHECK(parse_ncu_source_csv(csv_with_row("3", "\"1\",\"-32\",\"1\",\"31\"")).error() ==
        "line 4 of the CSV: \"L1 Wavefronts Shared\" is -32, not a count from 0 to 2147483647");
  CHECK(parse_ncu_source_csv(csv_with_row("3", "\"1\",\"32\",\"x\",\"31\"")).error() ==
        "line 4 of the CSV: \"L1 Wavefronts Shared Ideal\" is x, not a count from 0 to "
        "2147483647");
  // A row of fewer fields than its header (a file of 1s after a header took 1.6 GB).
  const std::string header_only = csv_with_row("3", "\"1\",\"32\",\"1\",\"31\"");
  CHECK(parse_ncu_source_csv(header_only + "1\n1\n").error() ==
        "line 5 of the CSV has 1 fields, fewer than the 6 of its \"Line No\" header");
  // Past the size of any one kernel's page, refused before it is split into lines.
  const std::string huge(kMaxNcuCsvBytes + 1, '1');
  CHECK(parse_ncu_source_csv(huge).error().starts_with("the CSV has 16777217 bytes, more than"));
}

// ---- The launch: within CUDA's limits, no overflow. ----

TEST_CASE("a launch beyond CUDA's limits is an error of its kernel; --block and --grid too") {
  const std::string access = "__shared__ float s[32];\ns[threadIdx.x % 32] = 1;\n";
  const auto launched = [&](const std::string& config) {
    return only_kernel("__global__ void k() {\n" + access + "}\nint main() { k<<<" + config +
                       ">>>(); }\n");
  };
  // dim3(65536, 65537) overflowed the block's thread count: 2048 instructions.
  const KernelScan wide = launched("1, dim3(65536, 65537)");
  REQUIRE(wide.error);
  CHECK(*wide.error ==
        "the launch on line 5's block 65536x65537x1 is not one CUDA launches: a block's x is 1 to "
        "1024");
  CHECK(*launched("1, dim3(64, 32)").error ==
        "the launch on line 5's block 64x32x1 is not one CUDA launches: a block has at most 1024 "
        "threads, this one 2048");
  CHECK(*launched("1, dim3(1, 1, 128)").error ==
        "the launch on line 5's block 1x1x128 is not one CUDA launches: a block's z is 1 to 64");
  CHECK(*launched("dim3(1, 70000), 32").error ==
        "the launch on line 5's grid 1x70000x1 is not one CUDA launches: a grid's y is 1 to 65535");
  // The largest grid: its blocks fit a 64-bit count.
  ScanOptions largest;
  largest.grid = std::array<int, 3>{2147483647, 65535, 65535};
  const KernelScan most = only_kernel(file_with(access), largest);
  CHECK(most.blocks() == std::int64_t{2147483647} * 65535 * 65535);
  ScanOptions beyond;
  beyond.grid = std::array<int, 3>{2147483647, 2147483647, 3};
  const ScanResult refused = scan_text(file_with(access), beyond);
  REQUIRE(refused.error);
  CHECK(refused.error->message ==
        "the grid 2147483647x2147483647x3 is not one CUDA launches: a grid's y is 1 to 65535");
  beyond.grid.reset();
  beyond.block = std::array<int, 3>{1, 1, 65};
  CHECK(scan_text(file_with(access), beyond).error->message ==
        "the block 1x1x65 is not one CUDA launches: a block's z is 1 to 64");
}

TEST_CASE("predicted counts times the largest grid that overflow are an error, not a number") {
  ScanOptions largest;
  largest.grid = std::array<int, 3>{2147483647, 65535, 65535};
  const KernelScan k =
      only_kernel(file_with("__shared__ float s[1024];\ns[threadIdx.x * 32 % 1024] = 1;"), largest);
  REQUIRE(k.lines.size() == 1);
  CHECK(k.lines[0].wavefronts == 32);
  const auto measured = parse_ncu_source_csv(csv_with_row("3", "\"1\",\"32\",\"1\",\"31\""));
  REQUIRE(measured.has_value());
  const std::string source =
      file_with("__shared__ float s[1024];\ns[threadIdx.x * 32 % 1024] = 1;");
  CHECK(compare(k, (*measured)[0], "k.cu", source).error() ==
        "line 3's wavefronts times the grid's 9223090559730712575 blocks are more than a 64-bit "
        "count holds");
}

// ---- --let: a value the scan would not use is refused. ----

TEST_CASE("--let for a #define, a constexpr, a typo or gridDim.x=0 is refused") {
  const std::string file =
      "#define N 64\nconstexpr int M = 4;\n"
      "__global__ void k(int n) {\n__shared__ float s[64];\n"
      "s[(threadIdx.x + blockIdx.x + gridDim.x) % N] = n + M;\n}\n"
      "int main() { k<<<1, 32>>>(3); }\n";
  const auto refusal = [&](const std::string& name, std::int64_t value) {
    ScanOptions o;
    o.lets = {{name, value}};
    const ScanResult r = scan_text(file, o);
    return r.error ? r.error->message : std::string("accepted");
  };
  CHECK(refusal("N", 1) == "--let N: the file #defines N itself; change the #define instead");
  CHECK(refusal("M", 2) == "--let M: the file gives M its value itself; change it there");
  CHECK(refusal("nn", 3) ==
        "--let nn: the file uses no name nn (the names it leaves open: n, blockIdx.x, gridDim.x)");
  CHECK(refusal("gridDim.x", 0) ==
        "--let gridDim.x: gridDim.x is 1 to 2147483647 in a launch CUDA makes, not 0");
  CHECK(refusal("blockIdx.y", 0) ==
        "--let blockIdx.y: the file uses no name blockIdx.y (the names it leaves open: n, "
        "blockIdx.x, gridDim.x)");
  CHECK(refusal("n", 7) == "accepted");
  CHECK(refusal("blockIdx.x", 5) == "accepted");
  CHECK(refusal("gridDim.x", 65536) == "accepted");
}

}  // namespace
}  // namespace banklab

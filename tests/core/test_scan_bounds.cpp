// The scan on hostile files (issue 32): every input ends, in bounded time and memory, with its
// counts or a clear error; nothing crashes. Each case is one a user found crashing or running
// away, at the size that did.
#include <doctest/doctest.h>

#include <string>

#include "core/code/machine.hpp"
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

}  // namespace
}  // namespace banklab

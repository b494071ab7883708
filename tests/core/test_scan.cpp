// The scan of whole kernels (core/code/scan.hpp): the corpus of tests/scan/corpus/ against
// Nsight Compute's counts measured on an H200 (tests/scan/measured/, profiled by
// tests/scan/profile-corpus.sh), every line the scan evaluates equal to the measurement; then
// the machine's rules one by one on small kernels, and the CSV reader.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/code/machine.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/ptx_widths.hpp"
#include "core/code/scan.hpp"

namespace banklab {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kCorpus = std::string(BANKLAB_SOURCE_DIR) + "/tests/scan/";

KernelScan scan_one(const std::string& source, const std::string& kernel,
                    ScanOptions options = {}) {
  options.kernel = kernel;
  const ScanResult r = scan_source({"kernel.cu", source}, options);
  REQUIRE_MESSAGE(!r.error, (r.error ? r.error->message : ""));
  REQUIRE(r.kernels.size() == 1);
  REQUIRE_MESSAGE(!r.kernels[0].error, *r.kernels[0].error);
  return r.kernels[0];
}

const ScanLine* entry(const KernelScan& k, int line, Op op) {
  for (const ScanLine& l : k.lines)
    if (l.line == line && l.op == op) return &l;
  return nullptr;
}

// The worst n-way of the line's first access of that op; 0 where the line has none.
int ways(const KernelScan& k, int line, Op op) {
  const ScanLine* l = entry(k, line, op);
  return l != nullptr ? l->worst_ways : 0;
}

// ---- The corpus against the H200. ----

struct CorpusKernel {
  const char* file;
  const char* kernel;
  int evaluated_lines;  // lines the scan counts: each must equal Nsight Compute's
};

const CorpusKernel kCorpusKernels[] = {
    {"transpose", "transpose_naive", 2},
    {"transpose", "transpose_padded", 2},
    {"reduce", "reduce_divergent", 3},
    {"reduce", "reduce_interleaved", 3},
    {"reduce", "reduce_sequential", 3},
    {"reduce", "reduce_unrolled", 9},
    {"sgemm", "sgemm_tiled", 3},
    {"ldmatrix", "ldmatrix_plain", 2},
    {"ldmatrix", "ldmatrix_swizzled", 2},
    {"histogram", "histogram256", 2},
    {"stencil", "stencil_1d", 4},
    {"cp_async", "cp_async_double_buffer", 4},
    {"extern_shared", "extern_two_arrays", 3},
    {"structs", "struct_fields", 2},
    {"structs", "struct_aligned", 3},
    {"structs", "struct_copy", 2},
    {"aliases", "reference_row", 2},
    {"aliases", "pointer_to_local", 2},
    {"aliases", "pointer_select", 3},
    {"aliases", "file_scope_extern", 2},
    {"widths", "merge_two_trips", 3},
    {"widths", "volatile_four", 2},
    {"widths", "transpose_bf16", 2},
    {"widths", "transpose_rows", 2},
    {"widths", "multi_line", 4},
    {"unrolled", "sgemm_outer_k", 4},
    {"unrolled", "two_level", 2},
    {"unrolled", "half_pairs", 3},
    {"unrolled", "typedef_fields", 2},
    {"unrolled", "sixty_four_trips", 1},
    {"shapes", "float4_tile", 4},
    {"shapes", "conv_halo", 2},
    {"shapes", "blelloch_scan", 1},
    {"shapes", "flash_tile", 1},
    {"storage", "shared_storage", 5},
    {"storage", "attention_tiles", 4},
    {"storage", "row_pointers", 3},
    {"storage", "traits_tile", 2},
    {"storage", "warp_softmax", 2},
};

// A SASS instruction as a load or store and the bytes a lane moves: LDS 4, LDS.64 8, LDS.128
// 16, LDS.U16 2, STS.U8 1; width 0 for one that is no plain LDS or STS (LDSM, LDGSTS, ...).
std::pair<bool, int> sass_access(std::string_view sass) {
  if (sass.starts_with("@")) sass.remove_prefix(std::min(sass.find(' '), sass.size()));  // @!P1
  while (sass.starts_with(' ')) sass.remove_prefix(1);
  const bool load = sass.starts_with("LDS");
  if (!load && !sass.starts_with("STS")) return {false, 0};
  const std::string_view suffix = sass.substr(3, sass.find(' ') - 3);
  if (suffix.empty()) return {load, 4};
  if (suffix == ".64") return {load, 8};
  if (suffix == ".128") return {load, 16};
  if (suffix == ".U16" || suffix == ".S16") return {load, 2};
  if (suffix == ".U8" || suffix == ".S8") return {load, 1};
  return {load, 0};
}

TEST_CASE("every line the scan evaluates in the corpus equals Nsight Compute's H200 counts") {
  int lines = 0;
  for (const CorpusKernel& m : kCorpusKernels) {
    const std::string kernel_name = m.kernel;
    CAPTURE(kernel_name);
    const std::string file = std::string(m.file) + ".cu";
    const std::string source = read(kCorpus + "corpus/" + file);
    ScanOptions options;
    options.kernel = m.kernel;
    const ScanResult r = scan_source({file, source}, options);
    REQUIRE(!r.error);
    REQUIRE(r.kernels.size() == 1);
    const KernelScan& k = r.kernels[0];
    REQUIRE(!k.error);
    const auto csv = parse_ncu_source_csv(read(kCorpus + "measured/" + m.kernel + ".csv"));
    REQUIRE_MESSAGE(csv.has_value(), csv.error());
    REQUIRE(csv->size() == 1);
    const auto c = compare(k, csv->front(), file, source);
    REQUIRE_MESSAGE(c.has_value(), c.error());
    for (const LineComparison& l : c->lines) {
      CAPTURE(l.line);
      CAPTURE(l.explanation);
      if (!l.evaluated) {
        // Never silent: a line the hardware measured that the scan does not count is listed as
        // not evaluated, or calls an inlined function whose own lines are compared.
        CHECK((l.explanation.starts_with("not evaluated: ") ||
               l.explanation.starts_with("this line calls ")));
        continue;
      }
      CHECK(l.predicted_wavefronts == l.measured_wavefronts);
      CHECK(l.predicted_ideal == l.measured_ideal);
      CHECK(l.predicted_excess == l.measured_excess);
      CHECK(l.agrees);
    }
    // The widths the scan gives each evaluated line's loads and stores are the SASS
    // instructions' that Nsight Compute measured there (LDS.64 where two trips merge, LDS.U16
    // where none do). A line listed as not evaluated claims no width (a merge not decided).
    std::set<int> evaluated;
    for (const LineComparison& l : c->lines)
      if (l.evaluated) evaluated.insert(l.line);
    for (const MeasuredLine& measured : csv->front().files.front().lines) {
      if (!evaluated.contains(measured.line)) continue;
      std::set<std::pair<bool, int>> sass, predicted;
      for (const std::string& i : measured.shared_instructions)
        if (const auto access = sass_access(i); access.second > 0) sass.insert(access);
      for (const ScanLine& l : k.lines) {
        if (l.line == measured.line && (l.op == Op::ld || l.op == Op::st) && !l.cp_async)
          predicted.emplace(l.op == Op::ld, l.width);
      }
      const auto text = [](const std::set<std::pair<bool, int>>& widths) {
        std::string out;
        for (const auto& [load, w] : widths) out += (load ? " ld" : " st") + std::to_string(w);
        return out;
      };
      CAPTURE(measured.line);
      if (!predicted.empty()) CHECK(text(predicted) == text(sass));
    }
    CHECK(c->evaluated_lines() == m.evaluated_lines);
    lines += c->evaluated_lines();
  }
  CHECK(lines == 107);
}

TEST_CASE("the corpus's lessons, as the scan reports them") {
  // The naive transpose's column read is 32-way; padding removes it.
  const std::string transpose = read(kCorpus + "corpus/transpose.cu");
  const KernelScan naive = scan_one(transpose, "transpose_naive");
  CHECK(naive.block == std::array<int, 3>{32, 8, 1});
  CHECK(naive.block_from == "the launch on line 43");
  CHECK(naive.grid == std::array<int, 3>{8, 8, 1});
  REQUIRE(naive.lines.size() == 2);
  CHECK(naive.lines[0].line == 19);  // sorted by excess
  CHECK(naive.lines[0].worst_ways == 32);
  CHECK(naive.lines[0].instructions == 32);  // 8 warps, 4 iterations of j
  CHECK(naive.lines[0].loops == std::vector<std::string>{"j"});
  CHECK(scan_one(transpose, "transpose_padded").lines[0].excess_wavefronts == 0);
  // reduce_unrolled takes its block from __launch_bounds__ (its launch's block is argv's).
  const KernelScan unrolled = scan_one(read(kCorpus + "corpus/reduce.cu"), "reduce_unrolled");
  CHECK(unrolled.block_from == "__launch_bounds__ on line 56");
  // a[i] += a[i + s]: two loads and a store, one entry each.
  int on_48 = 0;
  for (const ScanLine& l : unrolled.lines) on_48 += l.line == 48 ? 1 : 0;
  CHECK(on_48 == 3);
  // SGEMM: As[ty][k] over the unrolled k loop becomes four 16-byte loads, as nvcc makes it.
  const KernelScan sgemm = scan_one(read(kCorpus + "corpus/sgemm.cu"), "sgemm_tiled");
  const ScanLine* as = nullptr;
  for (const ScanLine& l : sgemm.lines)
    if (l.line == 21 && l.array == "As") as = &l;
  REQUIRE(as != nullptr);
  CHECK(as->width == 16);
  REQUIRE(!as->notes.empty());
  CHECK(as->notes[0].find("as written, 1024 wavefronts in 1024 instructions") != std::string::npos);
  // The histogram's data-dependent atomic is listed, not guessed.
  const KernelScan histogram = scan_one(read(kCorpus + "corpus/histogram.cu"), "histogram256");
  REQUIRE(histogram.unevaluated.size() == 1);
  CHECK(histogram.unevaluated[0].line == 11);
  // ldmatrix.x4 on 128-byte rows: 8 rows of each matrix on one bank group, 32 wavefronts.
  const std::string ldmatrix = read(kCorpus + "corpus/ldmatrix.cu");
  // The scans are named: entry() points into them.
  const KernelScan plain_scan = scan_one(ldmatrix, "ldmatrix_plain");
  const ScanLine* plain = entry(plain_scan, 21, Op::ldmatrix_x4);
  REQUIRE(plain != nullptr);
  CHECK(plain->worst_wavefronts == 32);
  CHECK(plain->worst_ways == 8);
  const KernelScan swizzled_scan = scan_one(ldmatrix, "ldmatrix_swizzled");
  const ScanLine* swizzled = entry(swizzled_scan, 21, Op::ldmatrix_x4);
  REQUIRE(swizzled != nullptr);
  CHECK(swizzled->worst_wavefronts == 4);
  // cp.async's shared side is a 16-byte store; the extern buffer is sized by the launch.
  const KernelScan copy = scan_one(read(kCorpus + "corpus/cp_async.cu"), "cp_async_double_buffer");
  const ScanLine* async = entry(copy, 22, Op::st);
  REQUIRE(async != nullptr);
  CHECK(async->cp_async);
  CHECK(async->width == 16);
  const KernelScan carved =
      scan_one(read(kCorpus + "corpus/extern_shared.cu"), "extern_two_arrays");
  CHECK(entry(carved, 12, Op::st)->worst_ways == 2);
}

// ---- The machine's rules, one small kernel each. ----

// A kernel of one block of `threads` threads, launched by the file itself.
std::string kernel(const std::string& body, int threads = 32, const std::string& params = "") {
  return "__global__ void k(" + params + ") {\n" + body + "\n}\n" + "int main() { k<<<1, " +
         std::to_string(threads) + ">>>(); }\n";
}

TEST_CASE("if and else split the warp; the lanes reconverge after them") {
  const KernelScan k = scan_one(kernel("__shared__ float s[128];\n"
                                       "if (threadIdx.x < 16) s[threadIdx.x] = 0;\n"
                                       "else s[threadIdx.x + 64] = 1;\n"
                                       "s[threadIdx.x * 2] = 2;"),
                                "k");
  REQUIRE(k.lines.size() == 3);
  const ScanLine* then = entry(k, 3, Op::st);
  const ScanLine* otherwise = entry(k, 4, Op::st);
  const ScanLine* after = entry(k, 5, Op::st);
  REQUIRE((then && otherwise && after));
  CHECK(then->instructions == 1);
  CHECK(otherwise->instructions == 1);
  CHECK(after->worst_ways == 2);  // all 32 lanes again, two words a bank
}

TEST_CASE("a variable declared in a branch is made anew: the other lanes' values do not count") {
  // Before, `if (t < d) { const int ai = ...; }` was "ai holds different kinds of values (or
  // places) in different lanes" and its accesses unevaluated in the trips where more lanes
  // took the branch than before (a Blelloch scan's down-sweep, shapes.cu lines 72-74).
  const KernelScan k = scan_one(kernel("__shared__ float temp[256];\n"
                                       "const int t = threadIdx.x;\n"
                                       "for (int d = 1; d < 256; d *= 2) {\n"
                                       "  if (t < d) {\n"
                                       "    const int ai = 2 * t;\n"
                                       "    temp[ai] = 1.0f;\n"
                                       "  }\n"
                                       "}",
                                       128),
                                "k");
  CHECK(k.unevaluated.empty());
  // Warp w's lanes take the branch from d = 32w + 1 on: 8 trips of warp 0 (d = 1..128), two
  // of warp 1 (d = 64, 128), one of warps 2 and 3.
  CHECK(entry(k, 7, Op::st)->instructions == 8 + 2 + 1 + 1);
  const KernelScan scan = scan_one(read(kCorpus + "corpus/shapes.cu"), "blelloch_scan");
  for (const ScanProblem& p : scan.unevaluated)
    CHECK(p.reason.find("different kinds") == std::string::npos);
}

TEST_CASE("loops run each lane its own trips; break, continue and return leave the mask") {
  ScanOptions keep;
  keep.keep_instances = true;
  const KernelScan k = scan_one(kernel("__shared__ float s[1024];\n"
                                       "for (int i = 0; i < threadIdx.x % 4; ++i) {\n"
                                       "  if (i == 2 && threadIdx.x == 7) continue;\n"
                                       "  s[i * 32 + threadIdx.x] = 0;\n"
                                       "}\n"
                                       "if (threadIdx.x >= 8) return;\n"
                                       "s[threadIdx.x] = 1;"),
                                "k", keep);
  const ScanLine* loop = entry(k, 5, Op::st);
  REQUIRE(loop != nullptr);
  REQUIRE(loop->instances.size() == 3);                  // i = 0, 1, 2
  CHECK(std::popcount(loop->instances[0].lanes) == 24);  // tid % 4 > 0
  CHECK(std::popcount(loop->instances[1].lanes) == 16);  // tid % 4 > 1
  CHECK(std::popcount(loop->instances[2].lanes) == 7);   // tid % 4 == 3, less lane 7
  CHECK(loop->instances[2].iteration == std::vector<std::int32_t>{2});
  const ScanLine* tail = entry(k, 8, Op::st);
  REQUIRE(tail != nullptr);
  CHECK(tail->instances[0].lanes == 0xFFu);
}

TEST_CASE("a value the file does not give is reported with the name to --let, never guessed") {
  const std::string source = kernel(
      "__shared__ float s[64];\n"
      "if (threadIdx.x < n) s[threadIdx.x * stride] = 0;",
      32, "int n, int stride");
  const KernelScan unknown = scan_one(source, "k");
  CHECK(unknown.lines.empty());
  REQUIRE(unknown.unevaluated.size() == 1);
  CHECK(unknown.unevaluated[0].line == 3);
  CHECK(unknown.unevaluated[0].reason ==
        "n is a kernel parameter: give it a value with --let n=VALUE");
  CHECK(!unknown.unevaluated[0].error);
  ScanOptions given;
  given.lets = {{"n", 32}, {"stride", 2}};
  const KernelScan known = scan_one(source, "k", given);
  REQUIRE(known.lines.size() == 1);
  CHECK(known.lines[0].worst_ways == 2);
  CHECK(known.unevaluated.empty());
  // A launch with constant arguments gives them too.
  const KernelScan launched = scan_one(
      "__global__ void k(int stride) { __shared__ float s[128]; s[threadIdx.x * stride] = 0; }\n"
      "int main() { const int w = 4; k<<<1, 32>>>(w); }",
      "k");
  REQUIRE(launched.lines.size() == 1);
  CHECK(launched.lines[0].worst_ways == 4);
}

// The lines of a scan the rule "counted right or listed" puts under "not evaluated".
std::vector<int> unevaluated_lines(const KernelScan& k) {
  std::vector<int> lines;
  for (const ScanProblem& p : k.unevaluated) lines.push_back(p.line);
  return lines;
}

TEST_CASE(
    "what the scan cannot follow makes the accesses it affects unevaluated, never miscounted") {
  // A function the file only declares may write what it is given by reference (issue 32: the
  // row was taken as 0, a 1-way read of what the H200 counts 32-way).
  const KernelScan declared =
      scan_one("__device__ void pick_row(int& r);\n" + kernel("__shared__ float t[32][32];\n"
                                                              "int row = 0;\n"
                                                              "pick_row(row);\n"
                                                              "t[row][0] = 1;"),
               "k");
  CHECK(declared.lines.empty());
  REQUIRE(unevaluated_lines(declared) == std::vector<int>{6});
  CHECK(declared.unevaluated[0].reason ==
        "pick_row() is only declared in the file: BankLab cannot see what it does");
  // A function BankLab does not know, given a variable's address.
  const KernelScan escaped = scan_one(kernel("__shared__ float t[32][32];\n"
                                             "int row = 0;\n"
                                             "fill(&row);\n"
                                             "t[row][0] = 1;"),
                                      "k");
  CHECK(escaped.lines.empty());
  CHECK(unevaluated_lines(escaped) == std::vector<int>{5});
  // A loop bound that is no name the file defines.
  const KernelScan bound =
      scan_one(kernel("__shared__ float s[64];\n"
                      "float sum = 0;\n"
                      "for (int i = 0; i < N; ++i) sum += s[threadIdx.x + i];\n"
                      "s[threadIdx.x] = sum;"),
               "k");
  REQUIRE(bound.lines.size() == 1);
  CHECK(bound.lines[0].line == 5);
  CHECK(unevaluated_lines(bound) == std::vector<int>{4});
  // A pointer whose lanes point into different arrays, and one a statement BankLab cannot read
  // changed: the accesses through them are listed, not dropped.
  const KernelScan apart = scan_one(kernel("__shared__ float a[64], b[64];\n"
                                           "float* p = (threadIdx.x & 1) ? a : b;\n"
                                           "p[threadIdx.x] = 0;\n"
                                           "float* q = a;\n"
                                           "switch (threadIdx.y) { case 1: q = b; }\n"
                                           "q[threadIdx.x] = 1;"),
                                    "k");
  CHECK(apart.lines.empty());
  CHECK(unevaluated_lines(apart) == std::vector<int>{4, 6, 7});
  // Two variables one pointer may point to, written through it: both unknown afterwards.
  const KernelScan either = scan_one(kernel("__shared__ float t[32][33];\n"
                                            "int r = 0, c = 0;\n"
                                            "int* p = (threadIdx.x & 1) ? &r : &c;\n"
                                            "*p = threadIdx.x;\n"
                                            "t[r][c] = 1;"),
                                     "k");
  CHECK(either.lines.empty());
  CHECK(unevaluated_lines(either) == std::vector<int>{6});
  // A pointer read from shared memory points anywhere: what is written through it is listed.
  const KernelScan loaded = scan_one(
      "struct Node { Node* next; float v; };\n" + kernel("__shared__ Node nodes[32];\n"
                                                         "nodes[threadIdx.x].next->v = 1;"),
      "k");
  CHECK(entry(loaded, 4, Op::ld) != nullptr);  // the pointer itself, 8 bytes
  CHECK(unevaluated_lines(loaded) == std::vector<int>{4});
  // Through a pointer to a pointer to a local.
  const KernelScan twice = scan_one(kernel("__shared__ float t[32][32];\n"
                                           "int r = 0;\n"
                                           "int* p = &r;\n"
                                           "int** pp = &p;\n"
                                           "**pp = threadIdx.x;\n"
                                           "t[r][0] = 1;"),
                                    "k");
  REQUIRE(twice.lines.size() == 1);
  CHECK(twice.lines[0].worst_ways == 32);  // r = threadIdx.x: a column
  CHECK(twice.unevaluated.empty());
  // A statement that fails part way leaves what it assigns unknown, not stale.
  const KernelScan failed = scan_one(kernel("__shared__ float t[32][33];\n"
                                            "int r = 0;\n"
                                            "r = threadIdx.x, t[0][0].x = 1;\n"
                                            "t[r][0] = 1;"),
                                     "k");
  CHECK(failed.lines.empty());
  CHECK(unevaluated_lines(failed) == std::vector<int>{4, 5});
  // A struct of a header BankLab does not read: its size is unknown, its accesses listed.
  const KernelScan opaque = scan_one(kernel("__shared__ Foo s[32];\n"
                                            "s[threadIdx.x].x = 0;"),
                                     "k");
  CHECK(opaque.lines.empty());
  CHECK(unevaluated_lines(opaque) == std::vector<int>{2, 3});
}

TEST_CASE("structs, references and shared variables, counted as nvcc lays them out") {
  // An array member at its offset: v[1] of a 16-byte struct is a stride of four words.
  const KernelScan member =
      scan_one("struct R { float v[4]; };\n" + kernel("__shared__ R r[32];\n"
                                                      "r[threadIdx.x].v[1] = 0;"),
               "k");
  REQUIRE(member.lines.size() == 1);
  CHECK(member.lines[0].worst_ways == 4);
  // A 12-byte struct copied: no 16-byte access fits it, so its three floats one by one.
  const KernelScan tri =
      scan_one("struct Tri { float x, y, z; };\n" + kernel("__shared__ Tri tris[32];\n"
                                                           "Tri q = tris[threadIdx.x];"),
               "k");
  REQUIRE(tri.lines.size() == 1);
  CHECK(tri.lines[0].width == 4);
  CHECK(tri.lines[0].instructions == 3);
  CHECK(tri.lines[0].wavefronts == 3);
  // sizeof and alignment: char then double is 16 bytes, the double at 8.
  const KernelScan aligned = scan_one(
      "struct C { char tag; double d; };\n" + kernel("__shared__ C c[32];\n"
                                                     "__shared__ float f[32 * sizeof(C)];\n"
                                                     "c[threadIdx.x].d = 0;\n"
                                                     "f[threadIdx.x * sizeof(C) / 4] = 0;"),
      "k");
  REQUIRE(aligned.lines.size() == 2);
  REQUIRE(entry(aligned, 5, Op::st) != nullptr);
  CHECK(entry(aligned, 5, Op::st)->width == 8);
  CHECK(entry(aligned, 5, Op::st)->wavefronts == 4);  // 32 lanes x 8 bytes, 16 apart: 512 bytes
  REQUIRE(entry(aligned, 6, Op::st) != nullptr);
  CHECK(entry(aligned, 6, Op::st)->worst_ways == 4);
  // A reference to an element, a shared variable, a reference parameter.
  const KernelScan refs = scan_one("__device__ void set(int& v) { v = threadIdx.x; }\n" +
                                       kernel("__shared__ float s[64];\n"
                                              "__shared__ float total;\n"
                                              "float& x = s[threadIdx.x * 2];\n"
                                              "x = 1;\n"
                                              "if (threadIdx.x == 0) total = x;\n"
                                              "int i = 0;\n"
                                              "set(i);\n"
                                              "s[i * 2] = 2;"),
                                   "k");
  CHECK(refs.unevaluated.empty());
  REQUIRE(refs.lines.size() == 4);
  CHECK(entry(refs, 6, Op::st)->worst_ways == 2);    // x = 1 stores s[2t]
  CHECK(entry(refs, 7, Op::st)->instructions == 1);  // total, by warp 0's lane 0
  CHECK(entry(refs, 10, Op::st)->worst_ways == 2);   // set(i) made i threadIdx.x
}

TEST_CASE("typedef'd structs and structs of a function are laid out; two of one name are not") {
  // typedef struct { ... } Point; was "Point has no size BankLab knows", and the parse error
  // of `const Point p = ...` hid the next line's read of points.
  const std::string typedefed =
      "typedef struct {\n  float a;\n  float b;\n} Point;\n"
      "__global__ void k(float* out) {\n"
      "  __shared__ Point points[64];\n"
      "  points[threadIdx.x].b = 1.0f;\n"
      "  const Point p = points[threadIdx.x ^ 1];\n"
      "  const float x = points[(threadIdx.x + 2) % 64].a;\n"
      "  out[threadIdx.x] = p.a + x;\n"
      "}\nint main() { k<<<1, 64>>>(nullptr); }\n";
  const KernelScan t = scan_one(typedefed, "k");
  CHECK(t.unevaluated.empty());
  CHECK(entry(t, 7, Op::st)->worst_ways == 2);  // a float of an 8-byte struct: 2-way
  CHECK(entry(t, 8, Op::ld)->width == 8);       // the whole struct: one LDS.64
  CHECK(entry(t, 9, Op::ld)->worst_ways == 2);
  // typedef struct TAG NAME; and a struct defined in the kernel.
  const KernelScan tagged = scan_one(
      "struct Cell { float v; int k; float w; };\ntypedef struct Cell C;\n"
      "__global__ void k() {\n"
      "  struct Local { float x; float y; float z; float w; };\n"
      "  __shared__ C cells[32];\n  __shared__ Local quads[32];\n"
      "  cells[threadIdx.x].w = 0;\n  quads[threadIdx.x].y = 0;\n"
      "}\nint main() { k<<<1, 32>>>(); }\n",
      "k");
  CHECK(tagged.unevaluated.empty());
  CHECK(entry(tagged, 7, Op::st)->worst_ways == 1);  // a stride of 3 words: every bank once
  CHECK(entry(tagged, 8, Op::st)->worst_ways == 4);
  // Two kernels' structs of one name: BankLab does not scope names, so neither is laid out.
  const std::string twice =
      "__global__ void a() { struct P { float x; }; __shared__ P s[32]; s[threadIdx.x].x = 0; }\n"
      "__global__ void b() { struct P { float x, y; }; __shared__ P s[32]; s[threadIdx.x].y = 0; "
      "}\n"
      "int main() { a<<<1, 32>>>(); b<<<1, 32>>>(); }\n";
  const KernelScan first = scan_one(twice, "a");
  CHECK(first.lines.empty());
  REQUIRE(!first.unevaluated.empty());
  CHECK(first.unevaluated[0].reason.find("two structs of the file are named P") !=
        std::string::npos);
}

TEST_CASE("a struct's array members of two dimensions are indexed with their own rows") {
  // CUTLASS's and FlashAttention's SharedStorage: sm.a[t][0] was "this is already one element
  // of sm: it has no subscript", and every access of such a kernel went unevaluated.
  const std::string storage =
      "struct Storage { float a[32][33]; float b[64]; float c[8][32]; };\n"
      "__global__ void k(float* out) {\n"
      "  __shared__ Storage sm;\n"
      "  __shared__ Storage arr[2];\n"
      "  const int t = threadIdx.x;\n"
      "  sm.a[t][0] = 1.f;\n"
      "  sm.c[t % 8][0] = 1.f;\n"
      "  arr[1].a[t][0] = 1.f;\n"
      "  auto& row = sm.a[3];\n"
      "  row[t] = 2.f;\n"
      "  out[t] = sm.a[0][t] + sm.b[t];\n"
      "  sm.c[t][0] = 3.f;\n"
      "}\nint main() { k<<<1, 32>>>(nullptr); }\n";
  const KernelScan k = scan_one(storage, "k");
  CHECK(ways(k, 6, Op::st) == 1);  // rows of 33 floats: every bank once
  CHECK(ways(k, 7, Op::st) == 8);  // rows of 32: 8 rows, one bank
  CHECK(ways(k, 8, Op::st) == 1);  // an element of an array of structs
  CHECK(ways(k, 10, Op::st) == 1);
  CHECK(std::count_if(k.lines.begin(), k.lines.end(), [](const ScanLine& l) {
          return l.line == 11 && l.op == Op::ld && l.worst_ways == 1;
        }) == 2);
  // The member's own bounds are checked: c has 8 rows.
  REQUIRE(k.unevaluated.size() == 1);
  CHECK(k.unevaluated[0].line == 12);
  CHECK(k.unevaluated[0].reason.find("outside Storage::c's first dimension [8]") !=
        std::string::npos);
  // reinterpret_cast<Storage&>(raw) names the shared bytes: it was a copy of the whole struct
  // ("1120 members copied", not evaluated), and r.b[2t] = 3 after it was dropped, silently.
  const KernelScan cast = scan_one(
      "struct Storage { float a[32][33]; float b[64]; };\n"
      "__global__ void k() {\n"
      "  __shared__ float raw[32 * 33 + 64];\n"
      "  Storage& r = reinterpret_cast<Storage&>(raw);\n"
      "  r.b[threadIdx.x * 2] = 3.f;\n"
      "  reinterpret_cast<Storage&>(raw).a[threadIdx.x][0] = 4.f;\n"
      "}\nint main() { k<<<1, 32>>>(); }\n",
      "k");
  CHECK(cast.unevaluated.empty());
  CHECK(ways(cast, 5, Op::st) == 2);
  CHECK(ways(cast, 6, Op::st) == 1);
  // A function returning a reference returns the place, and a method of a shared struct, which
  // BankLab does not read, is listed with what goes through it. get(sm).a[t][1] = 3 was "a
  // whole Smem of 1056 members copied" on the return's line and nothing on its own;
  // sm.at(t, 0) = 1 and the read of sm.at(0, t) were dropped, silently.
  const KernelScan calls = scan_one(
      "struct Smem {\n"
      "  float a[32][33];\n"
      "  __device__ float& at(int r, int c) { return a[r][c]; }\n"
      "};\n"
      "__device__ Smem& get(Smem& s) { return s; }\n"
      "__global__ void k(float* out) {\n"
      "  __shared__ Smem sm;\n"
      "  sm.at(threadIdx.x, 0) = 1.f;\n"
      "  get(sm).a[threadIdx.x][1] = 3.f;\n"
      "  out[threadIdx.x] = sm.at(0, threadIdx.x);\n"
      "}\nint main() { k<<<1, 32>>>(nullptr); }\n",
      "k");
  CHECK(ways(calls, 9, Op::st) == 1);
  std::set<int> listed;
  for (const ScanProblem& p : calls.unevaluated) listed.insert(p.line);
  CHECK(listed == std::set<int>{8, 10});
}

TEST_CASE("unions and structs inside structs, and a template's tile sizes from a struct") {
  // The SharedStorage of two phases: a union of the phases' tiles, named, anonymous or of a
  // type defined inside; each was "a member of S BankLab cannot read", every access with it.
  // Cfg::kRows of a template type parameter given Traits was "Cfg::kRows is not defined".
  const std::string nested =
      "struct Traits { static constexpr int kRows = 8; static const int kCols = 32; };\n"
      "struct S {\n"
      "  union { float a[32][33]; float b[16][64]; };\n"
      "  union Phase { float c[32][32]; int d[8]; } p;\n"
      "  struct Inner { int x; float y[4]; } in[32];\n"
      "  Phase q;\n"
      "};\n"
      "template <typename Cfg>\n"
      "__global__ void k() {\n"
      "  __shared__ S s;\n"
      "  __shared__ float t2[Cfg::kRows][Cfg::kCols + 1];\n"
      "  s.a[threadIdx.x][0] = 1.f;\n"
      "  s.b[threadIdx.x % 16][threadIdx.x * 2] = 1.f;\n"
      "  s.p.c[threadIdx.x][0] = 2.f;\n"
      "  s.in[threadIdx.x].y[1] = 2.f;\n"
      "  s.q.c[0][threadIdx.x] = 3.f;\n"
      "  t2[threadIdx.x % Cfg::kRows][threadIdx.x / Cfg::kRows] = 3.f;\n"
      "}\nint main() { k<Traits><<<1, 32>>>(); }\n";
  const KernelScan k = scan_one(nested, "k");
  CHECK(k.unevaluated.empty());
  CHECK(ways(k, 12, Op::st) == 1);   // rows of 33 words
  CHECK(ways(k, 13, Op::st) == 2);   // 2t in rows of 64 (the union's other member)
  CHECK(ways(k, 14, Op::st) == 32);  // rows of 32
  CHECK(ways(k, 15, Op::st) == 1);   // Inner is 5 words
  CHECK(ways(k, 16, Op::st) == 1);
  // Rows of 33 words: t2[r][c] is on bank r + c, and r + c = 3 four times (r < 8, c < 4).
  CHECK(ways(k, 17, Op::st) == 4);
  REQUIRE(k.lines.size() == 6);
}

TEST_CASE("pointers to arrays, as parameters, locals and casts, index rows of their bound") {
  // half (*dst)[kHeadDim + kPad] as a parameter was "expected a parameter, found '('" and
  // exit status 2 for the whole file.
  const std::string rows =
      "constexpr int kHeadDim = 64;\nconstexpr int kPad = 8;\n"
      "__device__ void load_rows(float (*dst)[kHeadDim + kPad], const float* src) {\n"
      "  dst[threadIdx.x][0] = src[threadIdx.x];\n"
      "}\n"
      "__global__ void k(const float* src) {\n"
      "  extern __shared__ float smem[];\n"
      "  __shared__ float tile[32][kHeadDim + kPad];\n"
      "  load_rows(tile, src);\n"
      "  float (*rows)[33] = reinterpret_cast<float (*)[33]>(smem);\n"
      "  rows[threadIdx.x][1] = 1.f;\n"
      "  float (*plain)[32] = (float (*)[32])smem;\n"
      "  plain[threadIdx.x][0] = 2.f;\n"
      "  rows[1][threadIdx.x + 1] = 3.f;\n"
      "  plain[threadIdx.x][40] = 4.f;\n"
      "}\nint main() { k<<<1, 32, 64 * 33 * 4>>>(nullptr); }\n";
  const KernelScan k = scan_one(rows, "k");
  CHECK(ways(k, 4, Op::st) == 8);    // rows of 72 floats: 8 banks apart
  CHECK(ways(k, 11, Op::st) == 1);   // rows of 33
  CHECK(ways(k, 13, Op::st) == 32);  // rows of 32
  CHECK(ways(k, 14, Op::st) == 1);
  CHECK((entry(k, 14, Op::st) != nullptr && entry(k, 14, Op::st)->wavefronts == 1));
  // A row's bound is checked as an array's: plain's rows have 32 elements.
  REQUIRE(k.unevaluated.size() == 1);
  CHECK(k.unevaluated[0].line == 15);
  CHECK(k.unevaluated[0].reason.find("[32]") != std::string::npos);
  // A reference to an array, a parameter (a parse error of the file before) and a local: it
  // names the row it is bound to. A struct member of such a type is not read, and says so.
  const KernelScan refs = scan_one(
      "struct P { float (*rows)[33]; int x; };\n"
      "__device__ void f(float (&row)[33]) { row[threadIdx.x] = 1.f; }\n"
      "__global__ void k() {\n"
      "  __shared__ float t[32][32];\n"
      "  __shared__ P p[4];\n"
      "  float (&r)[32] = t[1];\n"
      "  r[threadIdx.x] = 2.f;\n"
      "  f(reinterpret_cast<float (*)[33]>(&t[0][0])[threadIdx.x % 16]);\n"
      "  p[threadIdx.x % 4].x = 1;\n"
      "}\nint main() { k<<<1, 32>>>(); }\n",
      "k");
  CHECK(ways(refs, 7, Op::st) == 1);
  // Element t of row t % 16 of rows of 33: bank (t % 16 + t) % 32, each twice.
  CHECK(ways(refs, 2, Op::st) == 2);
  REQUIRE(refs.unevaluated.size() == 2);  // the declaration and the access
  CHECK(refs.unevaluated[1].line == 9);
  CHECK(refs.unevaluated[1].reason.find("cannot lay P out") != std::string::npos);
}

TEST_CASE("merges only where nvcc makes them: whole runs of adjacent trips, never volatile") {
  // Three adjacent trips: no whole run of two or four.
  const KernelScan three =
      scan_one(kernel("__shared__ float a[128];\n"
                      "float s = 0;\n"
                      "for (int i = 0; i < 3; i++) s += a[threadIdx.x * 4 + i];\n"
                      "a[threadIdx.x] = s;"),
               "k");
  CHECK(entry(three, 4, Op::ld)->width == 4);
  CHECK(entry(three, 4, Op::ld)->instructions == 3);
  // What ptxas makes of the third (LDS.64 and LDS, or three LDS) was not measured: listed,
  // and the entry says why once.
  CHECK(unevaluated_lines(three) == std::vector<int>{4});
  REQUIRE(entry(three, 4, Op::ld)->notes.size() == 1);
  CHECK(entry(three, 4, Op::ld)->notes[0].starts_with("the width is not decided: "));
  // A volatile array: each trip its own LDS.
  const KernelScan held =
      scan_one(kernel("volatile __shared__ float v[128];\n"
                      "float s = 0;\n"
                      "for (int i = 0; i < 4; i++) s += v[threadIdx.x * 4 + i];\n"
                      "v[threadIdx.x] = s;"),
               "k");
  CHECK(entry(held, 4, Op::ld)->width == 4);
  CHECK(entry(held, 4, Op::ld)->wavefronts == 16);
  // The same words read twice with nothing between: listed, as nvcc may issue no second load.
  const KernelScan twice = scan_one(kernel("__shared__ float a[64];\n"
                                           "float x = a[threadIdx.x];\n"
                                           "float y = a[threadIdx.x];\n"
                                           "__syncthreads();\n"
                                           "float z = a[threadIdx.x];"),
                                    "k");
  CHECK(entry(twice, 3, Op::ld) != nullptr);
  CHECK(entry(twice, 4, Op::ld) == nullptr);
  CHECK(entry(twice, 6, Op::ld) != nullptr);  // after a barrier, loaded again
  CHECK(unevaluated_lines(twice) == std::vector<int>{4});
}

// The SASS of tests/scan/sass/merges.cu (nvcc 13.0.88 -O3 -lineinfo -arch=sm_90, disassembled
// with nvdisasm -g on the H200 machine): for each kernel, each line's LDS/STS instructions.
std::map<std::string, std::map<int, std::vector<std::string>>> sass_by_kernel(
    const std::string& text) {
  std::map<std::string, std::map<int, std::vector<std::string>>> out;
  std::string kernel;
  int line = 0;
  std::istringstream in(text);
  for (std::string row; std::getline(in, row);) {
    if (row.starts_with(".text._Z") && row.ends_with(":")) {
      std::size_t at = 8, length = 0;
      while (at < row.size() && std::isdigit(static_cast<unsigned char>(row[at])) != 0)
        length = length * 10 + static_cast<std::size_t>(row[at++] - '0');
      kernel = row.substr(at, length);
    } else if (const std::size_t l = row.find("\", line "); l != std::string::npos) {
      line = std::stoi(row.substr(l + 8));
    } else if (const std::size_t op = row.find_first_of("LS", row.find("*/"));
               !kernel.empty() && row.find("*/") != std::string::npos && op != std::string::npos &&
               (row.compare(op, 3, "LDS") == 0 || row.compare(op, 3, "STS") == 0)) {
      out[kernel][line].push_back(row.substr(op, row.find(' ', op) - op));
    }
  }
  return out;
}

TEST_CASE("each line's instructions are the SASS's: merges across loops, none of 2-byte trips") {
  // Every kernel of merges.cu is one warp and, but for h_partial4, straight-line code in its
  // SASS: each line evaluated must issue exactly the SASS's instructions there, of its widths.
  const std::string source = read(kCorpus + "sass/merges.cu");
  const auto sass = sass_by_kernel(read(kCorpus + "sass/merges.sass"));
  REQUIRE(sass.size() == 7);
  ScanOptions one_warp;
  one_warp.block = std::array<int, 3>{32, 1, 1};
  // Named copies, not structured bindings: clang 14 (the sanitized build's) cannot capture a
  // binding in CAPTURE's lambda.
  for (const auto& kernel_lines : sass) {
    const std::string& name = kernel_lines.first;
    CAPTURE(name);
    const KernelScan k = scan_one(source, name, one_warp);
    const std::vector<int> listed = unevaluated_lines(k);
    for (const auto& line_instructions : kernel_lines.second) {
      const int line = line_instructions.first;
      const auto& instructions = line_instructions.second;
      CAPTURE(line);
      if (std::find(listed.begin(), listed.end(), line) != listed.end()) continue;
      if (name == "h_outer_two" && line == 56) continue;  // nvcc gives its loads the barrier's line
      std::multiset<std::string> predicted, measured(instructions.begin(), instructions.end());
      for (const ScanLine& l : k.lines) {
        if (l.line != line) continue;
        const std::string op = l.op == Op::ld ? "LDS" : "STS";
        const std::string suffix = l.width == 16  ? ".128"
                                   : l.width == 8 ? ".64"
                                   : l.width == 2 ? ".U16"
                                   : l.width == 1 ? (l.op == Op::ld ? ".S8" : ".U8")
                                                  : "";
        for (std::int64_t i = 0; i < l.instructions; ++i) predicted.insert(op + suffix);
      }
      CHECK(predicted == measured);
    }
  }
  // What the SASS shows that the scan cannot know, it lists: a loop unrolled by 4 made LDS.64
  // where LDS.128 was possible, a 64-trip loop with no pragma was unrolled whole (sixteen
  // LDS.128), and two places a[2t] and a[2t + 1] became one STS.64 on the second's line.
  CHECK(unevaluated_lines(scan_one(source, "h_partial4", one_warp)) == std::vector<int>{8});
  CHECK(unevaluated_lines(scan_one(source, "h_sixtyfour", one_warp)) == std::vector<int>{16});
  CHECK(unevaluated_lines(scan_one(source, "h_two_sites", one_warp)) ==
        std::vector<int>{37, 38, 40, 41});
}

TEST_CASE("a merge across the outer unrolled loop: the SGEMM tile of the H200 trace") {
  // nvcc merged four trips of the outer k loop of As[ty + 8 * i][k] into one LDS.128 (Nsight
  // Compute on the H200, assets/traces/sgemm_tile.json: line 27 4,096 wavefronts in 4 blocks,
  // 8 LDS.128 in the SASS of a tile); the scan merged the inner i loop's trips only, whose
  // addresses are rows apart, and counted 2,048 LDS a block.
  const KernelScan k = scan_one(
      read(std::string(BANKLAB_SOURCE_DIR) + "/tests/trace/programs/sgemm_tile.cu"), "sgemm_tile");
  const ScanLine* as = entry(k, 27, Op::ld);
  REQUIRE(as != nullptr);
  CHECK(as->width == 16);
  CHECK(as->instructions == 512);
  CHECK(as->wavefronts * 4 == 4096);
  CHECK(as->ideal_wavefronts * 4 == 4096);
  REQUIRE(!as->notes.empty());
  CHECK(as->notes[0].starts_with(
      "nvcc merges this 4-byte load of adjacent trips of the unrolled loop (k) into 16-byte "
      "loads (LDS.128): 1024 wavefronts in 512 instructions"));
  CHECK(entry(k, 26, Op::ld)->wavefronts * 4 == 2048);
  CHECK(entry(k, 21, Op::st)->wavefronts * 4 == 256);
  CHECK(k.unevaluated.empty());
  // Two loops whose trips are adjacent only together (2k + i): the eight loads of a thread are
  // one run, as the sixteen of h_sixteen, which ptxas made four LDS.128.
  const KernelScan both = scan_one(kernel("__shared__ float a[256];\n"
                                          "float s = 0;\n"
                                          "for (int k = 0; k < 4; k++)\n"
                                          "  for (int i = 0; i < 2; i++)\n"
                                          "    s += a[threadIdx.x * 8 + 2 * k + i];\n"
                                          "a[threadIdx.x] = s;"),
                                   "k");
  CHECK(entry(both, 6, Op::ld)->width == 16);
  CHECK(entry(both, 6, Op::ld)->instructions == 2);
  // 8-byte trips adjacent and aligned for 16: not measured, listed.
  const KernelScan pairs =
      scan_one(kernel("__shared__ double d[64];\n"
                      "double s = 0;\n"
                      "for (int i = 0; i < 2; i++) s += d[threadIdx.x * 2 + i];\n"
                      "d[threadIdx.x] = s;"),
               "k");
  CHECK(entry(pairs, 4, Op::ld)->instructions == 2);
  CHECK(unevaluated_lines(pairs) == std::vector<int>{4});
}

TEST_CASE("__device__ functions, shuffles, macros and #if run as the compiler reads them") {
  const KernelScan k = scan_one(
      "#define ROW 33\n"
      "#define IDX(r, c) ((r) * ROW + (c))\n"
      "#if __CUDA_ARCH__ >= 900\n"
      "#define SWZ(r, c) ((c) ^ ((r) % 8))\n"
      "#else\n"
      "#define SWZ(r, c) (c)\n"
      "#endif\n"
      "__device__ int lane_of(int t) { return t % 32; }\n" +
          kernel("__shared__ float s[32 * 33];\n"
                 "int lane = lane_of(threadIdx.x);\n"
                 "int partner = __shfl_xor_sync(0xffffffff, lane, 1);\n"
                 "s[IDX(partner, 0)] = 0;\n"
                 "s[IDX(0, SWZ(lane, 0))] = 1;"),
      "k");
  const ScanLine* column = entry(k, 13, Op::st);
  REQUIRE(column != nullptr);
  CHECK(column->worst_ways == 1);  // rows 33 words apart: 32 banks
  const ScanLine* swizzled = entry(k, 14, Op::st);
  REQUIRE(swizzled != nullptr);
  CHECK(swizzled->worst_wavefronts == 1);  // lanes on 8 words of one row
  CHECK(k.inlined_calls == std::vector<std::pair<int, std::string>>{{11, "lane_of"}});
}

TEST_CASE("host code with types of namespaces BankLab does not read is passed over") {
  // A host function taking const std::vector<float>& stopped the whole file ("expected a
  // parameter, found '::'") before qualified names were read as a parameter's type.
  const KernelScan k = scan_one(
      "void fill(const std::vector<float>& v, std::size_t n, util::Box<int>* b) {}\n"
      "std::vector<float> make(int n) { return std::vector<float>(n); }\n"
      "__global__ void k() {\n"
      "  __shared__ float tile[32][32];\n"
      "  tile[threadIdx.x][0] = 1.0f;\n"
      "}\n"
      "int main() { k<<<1, 32>>>(); }\n",
      "k");
  const ScanLine* column = entry(k, 5, Op::st);
  REQUIRE(column != nullptr);
  CHECK(column->worst_ways == 32);
}

TEST_CASE("template parameters from the launch, from defaults, from --let") {
  const std::string source =
      "template <int STRIDE, int PAD = 0>\n"
      "__global__ void k() {\n"
      "  __shared__ float s[32 * (STRIDE + PAD)];\n"
      "  s[threadIdx.x * (STRIDE + PAD)] = 0;\n"
      "}\n"
      "int main() { k<8><<<1, 32>>>(); }\n";
  CHECK(scan_one(source, "k").lines[0].worst_ways == 8);
  ScanOptions pad;
  pad.lets = {{"PAD", 1}};
  CHECK(scan_one(source, "k", pad).lines[0].worst_ways == 1);  // 9 words apart
}

TEST_CASE("the block from a dim3, from --block; with none, the kernel says what to give") {
  const std::string body = "__shared__ float s[1024]; s[threadIdx.y * 32 + threadIdx.x] = 0;";
  const std::string dim3_launch = "__global__ void k() { " + body +
                                  " }\nint main() { dim3 b(32, 4); dim3 g(2); k<<<g, b>>>(); }\n";
  const KernelScan k = scan_one(dim3_launch, "k");
  CHECK(k.block == std::array<int, 3>{32, 4, 1});
  CHECK(k.grid == std::array<int, 3>{2, 1, 1});
  CHECK(k.lines[0].instructions == 4);
  ScanOptions block;
  block.block = {{64, 1, 1}};
  CHECK(scan_one(dim3_launch, "k", block).lines[0].instructions == 2);
  const ScanResult none = scan_source({"k.cu", "__global__ void k() { " + body + " }"}, {});
  REQUIRE(none.kernels.size() == 1);
  REQUIRE(none.kernels[0].error);
  CHECK(none.kernels[0].error->find("give --block") != std::string::npos);
  ScanOptions missing;
  missing.kernel = "nope";
  const ScanResult named = scan_source({"k.cu", dim3_launch}, missing);
  REQUIRE(named.error);
  CHECK(named.error->message == "--kernel nope: no such kernel in k.cu (its kernels: k)");
}

TEST_CASE("errors of the code are errors of their line; the scan goes on past them") {
  const KernelScan k =
      scan_one(kernel("__shared__ float s[32];\n"
                      "__shared__ float t[64];\n"
                      "s[threadIdx.x + 1] = 0;\n"
                      "float4 v = *reinterpret_cast<float4*>(&t[threadIdx.x + 1]);\n"
                      "switch (threadIdx.x) { case 0: s[0] = 1; }\n"
                      "t[threadIdx.x] = 2;"),
               "k");
  REQUIRE(k.unevaluated.size() == 3);
  CHECK(k.unevaluated[0].line == 4);
  CHECK(k.unevaluated[0].error);
  CHECK(k.unevaluated[0].reason.find("index 32 is outside s's first dimension") !=
        std::string::npos);
  CHECK(k.unevaluated[1].line == 5);
  CHECK(k.unevaluated[1].reason.find("aligned to 16 bytes") != std::string::npos);
  CHECK(k.unevaluated[2].line == 6);
  CHECK(k.unevaluated[2].reason == "'switch' is not read by BankLab");
  REQUIRE(k.lines.size() == 1);
  CHECK(k.lines[0].line == 7);
}

TEST_CASE("a loop past its bound is counted for its first trips, and says so") {
  const KernelScan k = scan_one(kernel("__shared__ float s[32];\n"
                                       "for (int i = 0; i < 100000; ++i) s[threadIdx.x] = i;"),
                                "k");
  REQUIRE(k.lines.size() == 1);
  CHECK(k.lines[0].instructions == code::Machine::kMaxTrips);
  REQUIRE(!k.lines[0].notes.empty());
  CHECK(k.lines[0].notes.back().find("ran past 4096 iterations") != std::string::npos);
}

TEST_CASE("vector elements, asm ld.shared and a warp with no lane that takes part") {
  const KernelScan k = scan_one(
      kernel(
          "__shared__ float4 v[64];\n"
          "__shared__ float f[256];\n"
          "float x = v[threadIdx.x % 32].y;\n"
          "float4 w;\n"
          "unsigned a = __cvta_generic_to_shared(&f[threadIdx.x % 32 * 4]);\n"
          "asm volatile(\"ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\" : \"=f\"(w.x), \"=f\"(w.y), "
          "\"=f\"(w.z), \"=f\"(w.w) : \"r\"(a));\n"
          "if (threadIdx.x < 32) f[threadIdx.x] = 0;",
          64),
      "k");
  const ScanLine* component = entry(k, 4, Op::ld);
  REQUIRE(component != nullptr);
  CHECK(component->width == 4);
  CHECK(component->worst_ways == 4);  // .y of 16-byte elements: every fourth word
  const ScanLine* vector = entry(k, 7, Op::ld);
  REQUIRE(vector != nullptr);
  CHECK(vector->width == 16);
  CHECK(vector->worst_wavefronts == 4);
  const ScanLine* guarded = entry(k, 8, Op::st);
  REQUIRE(guarded != nullptr);
  CHECK(guarded->instructions == 1);  // warp 1 has no lane below 32: it issues nothing
}

// ---- Nsight Compute's CSV. ----

TEST_CASE("a statement over two lines matches Nsight Compute on either of its lines") {
  const std::string source = kernel(
      "__shared__ float s[64];\n"
      "s[threadIdx.x * 2] =\n"
      "    1;");
  const KernelScan k = scan_one(source, "k");
  REQUIRE(k.lines.size() == 1);
  CHECK(k.lines[0].line == 3);
  CHECK(k.lines[0].statement_first == 3);
  CHECK(k.lines[0].statement_last == 4);
  // Measured on the statement's second line: its totals agree, and both lines say so.
  MeasuredKernel measured{"k()", {{"kernel.cu", {}}}};
  MeasuredLine second;
  second.line = 4;
  second.wavefronts = 2;
  second.ideal = 1;
  second.excessive = 1;
  measured.files[0].lines.push_back(second);
  const auto c = compare(k, measured, "kernel.cu", source);
  REQUIRE(c.has_value());
  REQUIRE(c->lines.size() == 2);
  for (const LineComparison& l : c->lines) {
    CHECK(l.agrees);
    CHECK(l.explanation.starts_with("one statement over lines 3-4"));
  }
  // Measured elsewhere, or with other counts: it differs.
  measured.files[0].lines[0].excessive = 0;
  CHECK(!compare(k, measured, "kernel.cu", source)->lines[0].agrees);
}

TEST_CASE("the scan's widths agree with nvcc's PTX line by line, and a wrong one is said") {
  const std::string source = read(kCorpus + "corpus/widths.cu");
  const auto ptx = parse_ptx(read(kCorpus + "ptx/widths.ptx"), "widths.cu");
  REQUIRE_MESSAGE(ptx.has_value(), ptx.error());
  REQUIRE(ptx->size() == 5);
  CHECK((*ptx)[0].name == "merge_two_trips");
  const PtxKernel& merge = (*ptx)[0];
  const PtxKernel& held = (*ptx)[1];
  REQUIRE(held.name == "volatile_four");
  int volatile_loads = 0;
  for (const PtxAccess& a : held.accesses) volatile_loads += a.is_volatile && a.line == 29 ? 1 : 0;
  CHECK(volatile_loads == 4);
  const auto agree = [](const std::vector<WidthCheck>& checks) {
    return std::all_of(checks.begin(), checks.end(),
                       [](const WidthCheck& c) { return c.checked && c.agrees; });
  };
  for (const PtxKernel& k : *ptx) {
    CAPTURE(k.name);
    const std::vector<WidthCheck> checks = check_widths(scan_one(source, k.name), k);
    CHECK(!checks.empty());
    CHECK(agree(checks));
  }
  // What the scan said before issue 32: a 2-trip loop as LDS.128, a volatile one merged.
  KernelScan wrong = scan_one(source, "merge_two_trips");
  for (ScanLine& l : wrong.lines)
    if (l.line == 19) l.width = 16;
  std::vector<WidthCheck> checks = check_widths(wrong, merge);
  CHECK(!agree(checks));
  KernelScan merged = scan_one(source, "volatile_four");
  for (ScanLine& l : merged.lines)
    if (l.line == 29) l.width = 16;
  checks = check_widths(merged, held);
  REQUIRE(checks.size() == 2);
  CHECK(checks[1].line == 29);
  CHECK(!checks[1].agrees);
  CHECK(checks[1].detail ==
        "the PTX has 4 x ld.volatile.shared.f32, not the 16-byte access the scan counts");
  // A PTX access on a line the scan neither counts nor lists is said.
  KernelScan dropped = scan_one(source, "merge_two_trips");
  std::erase_if(dropped.lines, [](const ScanLine& l) { return l.line == 15; });
  checks = check_widths(dropped, merge);
  REQUIRE(!checks.empty());
  CHECK(checks[0].line == 15);
  CHECK(checks[0].width == 0);
  CHECK(!checks[0].agrees);
  // A PTX without the file's line table is refused.
  CHECK(!parse_ptx(".visible .entry k()\n{\n}\n", "widths.cu").has_value());
}

TEST_CASE("public kernels' shapes: widths as nvcc's PTX has them, or listed") {
  // tests/scan/corpus/unrolled.cu and shapes.cu (an SGEMM step over the outer k loop, float4
  // tiles, a convolution with its halo, a Blelloch scan, a flash-attention tile loop) against
  // nvcc 13.0.88's PTX: every line checked agrees; what the PTX cannot settle is listed.
  for (const std::string name : {"unrolled", "shapes", "storage"}) {
    CAPTURE(name);
    const std::string source = read(kCorpus + "corpus/" + name + ".cu");
    const auto ptx = parse_ptx(read(kCorpus + "ptx/" + name + ".ptx"), name + ".cu");
    REQUIRE_MESSAGE(ptx.has_value(), ptx.error());
    REQUIRE(ptx->size() == (name == "shapes" ? 4u : 5u));
    for (const PtxKernel& k : *ptx) {
      CAPTURE(k.name);
      const KernelScan scan = scan_one(source, k.name);
      for (const WidthCheck& c : check_widths(scan, k)) {
        CAPTURE(c.line);
        CAPTURE(c.detail);
        CHECK((c.agrees || !c.checked));
      }
    }
  }
  const std::string unrolled = read(kCorpus + "corpus/unrolled.cu");
  const KernelScan sgemm = scan_one(unrolled, "sgemm_outer_k");
  CHECK(entry(sgemm, 25, Op::ld)->width == 16);  // four trips of the outer k loop
  CHECK(entry(sgemm, 25, Op::ld)->instructions == 512);
  CHECK(entry(scan_one(unrolled, "two_level"), 38, Op::ld)->width == 16);
  CHECK(entry(scan_one(unrolled, "half_pairs"), 48, Op::ld)->instructions == 2);
  CHECK(unevaluated_lines(scan_one(unrolled, "typedef_fields")) == std::vector<int>{60, 61});
  CHECK(unevaluated_lines(scan_one(unrolled, "sixty_four_trips")) == std::vector<int>{73});
  const std::string shapes = read(kCorpus + "corpus/shapes.cu");
  const KernelScan conv = scan_one(shapes, "conv_halo");
  CHECK(entry(conv, 46, Op::ld)->width == 4);  // adjacent, but odd lanes are not aligned
  CHECK(entry(conv, 46, Op::ld)->unmerged == "lane 1 of warp 0 is at byte 4, not 16-byte aligned");
  const KernelScan scan = scan_one(shapes, "blelloch_scan");
  const std::vector<int> listed = unevaluated_lines(scan);
  for (const int line : {55, 56, 62})  // temp[2t], temp[2t + 1]; temp[bi] += temp[ai] at d = 128
    CHECK(std::find(listed.begin(), listed.end(), line) != listed.end());
  const KernelScan flash = scan_one(shapes, "flash_tile");
  CHECK(entry(flash, 105, Op::ld)->width == 16);  // Vs[j][d]: a broadcast, 16 bytes at a time
  // The copy loop has no pragma: nvcc unrolled it by 8 into 32 plain STS a thread (2,048
  // wavefronts a line, measured), where a merge would have made 512. Qs[row][d] is the same on
  // every trip of j: nvcc loaded it once (eight LDS.128), not 64 times. Both listed.
  CHECK(unevaluated_lines(flash) == std::vector<int>{90, 91, 92, 100});
  for (const int line : {90, 91, 92}) {
    CAPTURE(line);
    CHECK(entry(flash, line, Op::st)->width == 4);
    CHECK(entry(flash, line, Op::st)->wavefronts == 2048);
  }
  CHECK(entry(flash, 100, Op::ld)->array == "Ks");  // the line's other load, still counted
  CHECK(entry(flash, 100, Op::ld)->wavefronts == 2048);
}

TEST_CASE("a loop with no pragma that stores: its merges are not decided") {
  // flash_tile's copy loop (issue 32): 32 trips, no pragma, adjacent 4-byte stores. The scan
  // counted four trips as one STS.128; nvcc unrolled by 8 and ptxas kept 32 STS a thread.
  const std::string body =
      "__shared__ float a[32][32];\n"
      "const int row = threadIdx.x;\n"
      "PRAGMA\n"
      "for (int d = 0; d < 32; ++d) a[row][d] = in[row * 32 + d];\n"
      "__syncthreads();\n"
      "out[row] = a[0][row];";
  const auto scan = [&](const std::string& pragma) {
    std::string code = body;
    code.replace(code.find("PRAGMA"), 6, pragma);
    return scan_one(kernel(code, 32, "const float* in, float* out"), "k");
  };
  const KernelScan plain = scan("");
  const ScanLine* store = entry(plain, 5, Op::st);
  REQUIRE(store != nullptr);
  CHECK(store->width == 4);          // counted as written
  CHECK(store->instructions == 32);  // one STS a trip
  CHECK(unevaluated_lines(plain) == std::vector<int>{5});
  REQUIRE(!plain.unevaluated.empty());
  CHECK(plain.unevaluated[0].reason.starts_with(
      "nvcc may unroll the loop d (32 trips, no #pragma unroll) and merge"));
  // With #pragma unroll the loop is unrolled whole: the merge is counted.
  const KernelScan whole = scan("#pragma unroll");
  CHECK(entry(whole, 5, Op::st)->width == 16);
  CHECK(entry(whole, 5, Op::st)->instructions == 8);
  CHECK(whole.unevaluated.empty());
  // A loop with no pragma that only loads merges as measured (an SGEMM k loop, 2-trip sums).
  const KernelScan loads = scan_one(kernel("__shared__ float a[32][32];\n"
                                           "float s = 0;\n"
                                           "for (int d = 0; d < 32; ++d) s += a[threadIdx.x][d];\n"
                                           "a[0][threadIdx.x] = s;"),
                                    "k");
  CHECK(entry(loads, 4, Op::ld)->width == 16);
  CHECK(loads.unevaluated.empty());
}

TEST_CASE("a load the same on every trip of a loop that stores nothing to it: may be hoisted") {
  // flash_tile's score (issue 32): Qs[row][d] does not depend on j; nvcc loaded it once, the
  // scan counted it on each of the 64 trips (34,816 wavefronts for the line, 2,560 measured).
  const auto scan = [](const std::string& inside) {
    return scan_one(kernel("__shared__ float q[32][32];\n"
                           "__shared__ float k[64][32];\n"
                           "__shared__ float o[32];\n"
                           "float s = 0;\n"
                           "for (int j = 0; j < 64; ++j) {\n"
                           "#pragma unroll\n"
                           "  for (int d = 0; d < 32; ++d) s += q[threadIdx.x][d] * k[j][d];\n" +
                           inside +
                           "}\n"
                           "o[threadIdx.x] = s;"),
                    "k");
  };
  const KernelScan hoisted = scan("");
  CHECK(unevaluated_lines(hoisted) == std::vector<int>{8});
  REQUIRE(hoisted.unevaluated.size() == 1);
  CHECK(hoisted.unevaluated[0].reason.starts_with(
      "nvcc may hoist this load out of loop j (64 trips)"));
  const ScanLine* line = entry(hoisted, 8, Op::ld);
  REQUIRE(line != nullptr);
  CHECK(line->array == "k");  // k[j][d] changes with j: still counted, 8 LDS.128 a trip
  CHECK(line->instructions == 64 * 8);
  // A store to another array does not stop the hoist; a barrier, a store that may write q
  // (the same array, or through a pointer) or a call does: then every trip loads.
  CHECK(unevaluated_lines(scan("o[threadIdx.x] = s;\n")) == std::vector<int>{8});
  for (const std::string inside :
       {"__syncthreads();\n", "q[0][threadIdx.x] = s;\n", "float* p = &o[0];\np[1] = s;\n"}) {
    CAPTURE(inside);
    const KernelScan every_trip = scan(inside);
    const auto it = std::find_if(every_trip.lines.begin(), every_trip.lines.end(),
                                 [](const ScanLine& l) { return l.line == 8 && l.array == "q"; });
    REQUIRE(it != every_trip.lines.end());
    CHECK(it->instructions == 64 * 8);
    for (const ScanProblem& p : every_trip.unevaluated)
      CHECK(p.reason.find("hoist") == std::string::npos);
  }
}

TEST_CASE("the source page's CSV: sections, line and SASS rows, quotes ncu does not escape") {
  const std::string csv =
      "\"File Path\",\"/x/k.cu\"\n"
      "\"Function Name\",\"k(int)\"\n"
      "\"Line No\",\"Source\",\"Address\",\"Source\",\"Instructions Executed\",\"L1 Wavefronts "
      "Shared Excessive\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
      "\"3\",\"  printf(\"a\",\"b\"); s[i] = 0;\",\"-\",\"-\",\"64\",\"31\",\"32\",\"1\"\n"
      "\"\",\"\",\"0x10\",\"      STS [R2], RZ\",\"1\",\"31\",\"32\",\"1\"\n";
  const auto kernels = parse_ncu_source_csv(csv);
  REQUIRE_MESSAGE(kernels.has_value(), kernels.error());
  REQUIRE(kernels->size() == 1);
  CHECK((*kernels)[0].name() == "k");
  // A template's instance, as ncu names it: its return type and template arguments go.
  CHECK(MeasuredKernel{"void traits_tile<Attention>(const __half *, float *)", {}}.name() ==
        "traits_tile");
  CHECK(MeasuredKernel{"void k<a<1>, 2>(int)", {}}.name() == "k");
  // As the demangler gives a traced kernel: the same name, so trace --ncu-csv finds it.
  CHECK(kernel_base_name("void traits_tile<Attention>(__half const*, float*)") == "traits_tile");
  const MeasuredLine& line = (*kernels)[0].files.at(0).lines.at(0);
  CHECK(line.line == 3);
  CHECK(line.source == "  printf(\"a\",\"b\"); s[i] = 0;");
  CHECK(line.wavefronts == 32);
  CHECK(line.ideal == 1);
  CHECK(line.excessive == 31);
  CHECK(line.shared_instructions == std::vector<std::string>{"STS (1 executed, 32 wavefronts)"});
  CHECK(parse_ncu_source_csv("\"Line No\",\"Source\"\n\"1\",\"x\"\n").error().find("before its") !=
        std::string::npos);
  CHECK(parse_ncu_source_csv("").error().find("no kernel") != std::string::npos);
}

}  // namespace
}  // namespace banklab

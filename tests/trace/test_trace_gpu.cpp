// banklab trace on the GPU (label gpu): every kernel of the scan corpus (tests/scan/corpus, each
// file built with -lineinfo as scan_corpus_FILE) traced and compared line by line with Nsight
// Compute's Source page of the same kernel (tests/scan/measured): every line equal. Kernels with
// inlined device functions and the data-dependent histogram whose atomics the static scan cannot
// evaluate are traced and measured live by ncu: every line equal.
//
// With BANKLAB_TRACE_TEST_KEEP=FOLDER each trace is also written there (FOLDER/KERNEL.json), so a
// line that differs can be read afterwards on any machine: `banklab trace --open FILE --lanes N`.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

const std::string kCorpus = std::string(BANKLAB_SOURCE_DIR) + "/tests/scan/corpus/";
const std::string kMeasured = std::string(BANKLAB_SOURCE_DIR) + "/tests/scan/measured/";
const std::string kPrograms = std::string(TRACE_PROGRAM_DIR) + "/";

// " -o FOLDER/KERNEL.json" where BANKLAB_TRACE_TEST_KEEP names a folder, else nothing.
std::string keep_trace(const std::string& kernel) {
  const char* folder = std::getenv("BANKLAB_TRACE_TEST_KEEP");
  if (folder == nullptr || *folder == '\0') return "";
  return " -o '" + std::string(folder) + "/" + kernel + ".json'";
}

// Every line of the kernel's file that either side counts agrees; returns how many were compared.
// A failure is a failed check, never the end of the test: the kernels after it are traced too.
int check_every_line_agrees(const Run& run) {
  INFO(run.err);
  CHECK(run.status == 0);
  const nlohmann::json j = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  const bool measured = j.is_object() && j.contains("measured") && j["measured"].contains("lines");
  CHECK_MESSAGE(measured, "no measured lines in the output: ", run.out);
  if (run.status != 0 || !measured) return 0;
  INFO(j["measured"].dump());
  int compared = 0;
  for (const nlohmann::json& l : j["measured"]["lines"]) {
    if (l["predicted_wavefronts"] == 0 && l["measured_wavefronts"] == 0) continue;
    INFO("line " << l["line"] << ": traced " << l["predicted_wavefronts"] << " ("
                 << l["predicted_ideal"] << " ideal), measured " << l["measured_wavefronts"] << " ("
                 << l["measured_ideal"] << " ideal): " << l["explanation"]);
    CHECK(l["agrees"] == true);
    ++compared;
  }
  CHECK(compared > 0);
  return compared;
}

// Every kernel of the scan corpus, with the file (tests/scan/corpus/FILE.cu) that defines it.
std::map<std::string, std::string> corpus_kernels() {
  const std::regex kernel(R"(__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)\s*\()");
  std::map<std::string, std::string> kernels;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
    if (entry.path().extension() != ".cu") continue;
    const std::string source = read_file(entry.path());
    for (std::sregex_iterator m(source.begin(), source.end(), kernel), end; m != end; ++m)
      kernels[(*m)[1]] = entry.path().stem().string();
  }
  return kernels;
}

TEST_CASE("every kernel of the scan corpus traced agrees with Nsight Compute on every line") {
  const std::map<std::string, std::string> kernels = corpus_kernels();
  REQUIRE(kernels.size() >= 34);  // the corpus as profiled on the H200 (profile-corpus.sh)
  for (const auto& [kernel, file] : kernels) {
    INFO(kernel << " (tests/scan/corpus/" << file << ".cu)");
    // Each kernel of the corpus has its Nsight Compute truth: a new one is profiled first.
    REQUIRE(std::filesystem::exists(kMeasured + kernel + ".csv"));
    const int compared = check_every_line_agrees(
        run_banklab("trace --json --kernel " + kernel + " --ncu-csv " + kMeasured + kernel +
                    ".csv" + keep_trace(kernel) + " -- " + kPrograms + "scan_corpus_" + file));
    MESSAGE(kernel << ": " << compared << " lines compared");
  }
}

// Device functions inlined into the kernel: reduce_unrolled's warp_reduce (lines 48-53, called
// on line 65) and ldmatrix's ldmatrix_x4 (line 21, called on lines 38 and 57). Their lines come
// from the cubin's inlining rows (core/record/cubin_lines.hpp). Compared above with the Source
// pages of the corpus's own build, and here with Nsight Compute run by the trace itself on the
// binary traced, since where an inlined body's first instruction falls is the compiler's choice.
TEST_CASE("inlined device functions traced agree with Nsight Compute on every line") {
  const std::pair<const char*, const char*> kernels[] = {{"reduce", "reduce_unrolled"},
                                                         {"ldmatrix", "ldmatrix_plain"},
                                                         {"ldmatrix", "ldmatrix_swizzled"}};
  for (const auto& [program, kernel] : kernels) {
    INFO(kernel);
    const Run run = run_banklab(std::string("trace --json --kernel ") + kernel +
                                keep_trace(std::string(kernel) + ".live") + " -- " + kPrograms +
                                "scan_corpus_" + program);
    if (check_every_line_agrees(run) == 0) continue;
    // The body's own lines are among those compared, each with wavefronts on both sides.
    const nlohmann::json j = parse_json(run);
    const int body_line = std::string(program) == "reduce" ? 48 : 21;
    bool body = false;
    for (const nlohmann::json& l : j["measured"]["lines"])
      body = body || (l["line"] == body_line && l["measured_wavefronts"] > 0);
    CHECK(body);
  }
}

TEST_CASE("a data-dependent histogram, not evaluated by the scan, traced agrees with ncu") {
  const std::string source =
      std::string(BANKLAB_SOURCE_DIR) + "/tests/trace/programs/histogram_skewed.cu";
  const Run scan = run_banklab("scan " + source);
  REQUIRE(scan.status == 0);
  CHECK(scan.out.find("not evaluated:") != std::string::npos);
  const Run run =
      run_banklab("trace --json --kernel histogram_skewed --launch 1" +
                  keep_trace("histogram_skewed") + " -- " + kPrograms + "trace_histogram_skewed");
  INFO(run.err);
  REQUIRE(run.status == 0);
  const nlohmann::json j = parse_json(run);
  INFO(j["measured"].dump());
  // Its four atomicAdd calls (lines 15-18) are one inlined body each: every line on its own.
  int compared = 0;
  for (const nlohmann::json& l : j["measured"]["lines"]) {
    if (l["predicted_wavefronts"] == 0 && l["measured_wavefronts"] == 0) continue;
    INFO("line " << l["line"] << ": traced " << l["predicted_wavefronts"] << ", measured "
                 << l["measured_wavefronts"]);
    CHECK(l["agrees"] == true);
    const int line = l["line"];
    if (line >= 15 && line <= 18) CHECK(l["measured_wavefronts"] > 0);
    ++compared;
  }
  CHECK(compared >= 6);  // lines 11, 15, 16, 17, 18 and 21
}

// Bounded and safe (issue 35, Build 5), on trace_transpose_timed at 64x64 (4 blocks of 8 warps,
// 4 stores and 4 loads each: 256 shared-memory warp-instructions a launch): a cap keeps the first
// records and says so; the program's output passes through (on stderr under --json, so that
// stdout stays one JSON value); its exit status is banklab's; without the injection library,
// one line and exit status 1.
TEST_CASE("a capped trace, the program's output and status, a missing injection library") {
  const std::string program = kPrograms + "trace_transpose_timed";
  const Run capped = run_banklab("trace --json --no-measure --max-records 100 --kernel " +
                                 std::string("transpose_timed -- ") + program + " 64");
  INFO(capped.err);
  REQUIRE(capped.status == 0);
  const nlohmann::json j = parse_json(capped);
  CHECK(j["trace"]["recorded"] == 100);
  CHECK(j["trace"]["executed"] == 256);
  bool says_capped = false;
  for (const nlohmann::json& note : j["notes"])
    says_capped = says_capped || note.get<std::string>().find("--max-records") != std::string::npos;
  CHECK(says_capped);
  CHECK(capped.err.find("launch 6: ") != std::string::npos);

  const Run text = run_banklab("trace --no-measure --kernel transpose_timed -- " + program + " 64");
  CHECK(text.status == 0);
  CHECK(text.out.find("launch 6: ") != std::string::npos);
  CHECK(text.out.find("trace of transpose_timed") != std::string::npos);

  // The size refused before any launch: the program's message and status, and banklab's line.
  const Run refused = run_banklab("trace --no-measure -- " + program + " 31");
  CHECK(refused.status == 2);
  CHECK(refused.err.find("transpose_timed: the size must be") != std::string::npos);
  CHECK(refused.err.find("banklab: ") != std::string::npos);

  const Run no_library =
      run_shell("BANKLAB_TRACE_LIBRARY=/nonexistent/libbanklab_trace.so '" +
                std::string(BANKLAB_EXE) + "' trace --no-measure -- " + program + " 64");
  CHECK(no_library.status == 1);
  CHECK(no_library.err ==
        "banklab: no CUDA toolkit: /nonexistent/libbanklab_trace.so is missing\n");
}

}  // namespace
}  // namespace banklab::test

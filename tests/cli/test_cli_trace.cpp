// banklab trace without a GPU: a trace file opens (--open) in text and JSON, with one
// instruction's lanes and the static scan beside it; a file that is not a usable trace, or a
// missing one, is one line and exit status 1; the shipped traces (assets/traces) open.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/model/analysis.hpp"
#include "core/record/trace.hpp"
#include "tests/cli/run_banklab.hpp"
#include "tests/trace/trace_fixture.hpp"

namespace banklab::test {
namespace {

TEST_CASE("trace --open prints the lines ranked by excess, as scan does") {
  const TempFile file(record::trace_json(fixture_trace()));
  const Run run = run_banklab("trace --open " + file.path().string());
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out.find("trace of demo(float*), launch 0, grid 2x1x1, block 32x2x1") !=
        std::string::npos);
  const int column = analyze(fixture_trace().accesses[0].access).wavefront_count();
  CHECK(run.out.find("    4  st               4      4         " + std::to_string(4 * column)) !=
        std::string::npos);
  CHECK(run.out.find("32-way  block 0, warp 0, run 0") != std::string::npos);
  CHECK(run.out.find("STS: tile[threadIdx.x][0] = 1.0f;") != std::string::npos);
  CHECK(run.out.find("measured: ") != std::string::npos);
  CHECK(run.out.find("line 6") == std::string::npos);
  CHECK(run.out.find("    4  st") < run.out.find("    6  ld"));
}

TEST_CASE("trace --open --json: the scan's fields, the trace's and measured") {
  const TempFile file(record::trace_json(fixture_trace()));
  const Run run = run_banklab("trace --open " + file.path().string() + " --json --lanes 4");
  REQUIRE(run.status == 0);
  const nlohmann::json j = parse_json(run);
  CHECK(j["kernel"] == "demo(float*)");
  CHECK(j["lines"][0]["line"] == 4);
  CHECK(j["lines"][0]["worst_ways"] == 32);
  CHECK(j["trace"]["file"] == "/work/demo.cu");
  CHECK(j["trace"]["recorded"] == 8);
  CHECK(j["measured"].contains("not_measured"));
  CHECK(j["lanes"]["offsets"][1] == 1024 + 128);
}

TEST_CASE("trace --open --lanes shows one instruction's 32 lanes; --source puts the scan beside") {
  const TempFile file(record::trace_json(fixture_trace()));
  const TempFile source(kFixtureSource);
  const Run run = run_banklab("trace --open " + file.path().string() + " --lanes 4:2 --source " +
                              source.path().string());
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out.find("line 4, STS: block 1, warp 0, run 0") != std::string::npos);
  CHECK(run.out.find("the static scan of") != std::string::npos);
  CHECK(run.out.find("same") != std::string::npos);
  const Run none = run_banklab("trace --open " + file.path().string() + " --lanes 5");
  CHECK(none.status == 2);
}

// attention_scores' line 37 holds two loads: vs[j][d], which the scan counts, and ps[lane][j],
// which it leaves not evaluated (nvcc may hoist it out of the i loop). The line's row said
// "DIFFERS" and no more; it names what the scan left out.
TEST_CASE("trace --source: a line the scan counted in part says what it left out") {
  const std::string root = std::string(BANKLAB_SOURCE_DIR);
  const Run run = run_banklab("trace --open " + root + "/assets/traces/attention_scores.json" +
                              " --source " + root + "/tests/trace/programs/attention_scores.cu");
  INFO(run.err);
  REQUIRE(run.status == 0);
  // Its launch is one block: "times 1 block", not "1 blocks".
  CHECK(run.out.find("the static scan of attention_scores.cu (times 1 block) beside") !=
        std::string::npos);
  const std::size_t row = run.out.find("\n   37  ", run.out.find("the static scan of"));
  REQUIRE(row != std::string::npos);
  const std::string line37 = run.out.substr(row + 1, run.out.find('\n', row + 1) - row - 1);
  CHECK(line37.find("DIFFERS; the rest not evaluated: nvcc may hoist this load") !=
        std::string::npos);
}

TEST_CASE("trace --open: a file that is not a usable trace is one line, exit status 1") {
  record::Trace t = fixture_trace();
  t.accesses[0].wavefronts = 1;  // not what the model gives for a column
  const TempFile bad(record::trace_json(t));
  for (const std::string& path : {bad.path().string(), std::string("/nonexistent/trace.json")}) {
    const Run run = run_banklab("trace --open " + path);
    CHECK(run.status == 1);
    CHECK(run.out.empty());
    CHECK(run.err.find('\n') == run.err.size() - 1);
  }
  CHECK(run_banklab("trace").status == 2);
  CHECK(run_banklab("trace --open x.json -- ./program").status == 2);
}

// They are made on the H200 by kernels/trace/make_traces.sh and ship in the Debian package, so
// they name the program and its sources relative to the folder they were made in (no build path)
// and the commit that made them.
TEST_CASE("the shipped traces open without a GPU and name no build path") {
  const std::filesystem::path folder = std::string(BANKLAB_SOURCE_DIR) + "/assets/traces";
  int opened = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    const Run run = run_banklab("trace --open " + entry.path().string());
    INFO(entry.path().string() << ": " << run.err);
    CHECK(run.status == 0);
    CHECK(run.out.find("device:  NVIDIA H200") != std::string::npos);
    std::ifstream in(entry.path());
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const Expected<record::Trace> t = record::parse_trace(text);
    REQUIRE_MESSAGE(t, t.error());
    CHECK(t->program.starts_with("build-trace/"));
    CHECK(t->commit.size() == 12);
    CHECK(t->commit.find_first_not_of("0123456789abcdef") == std::string::npos);
    // The tree's files relative to it; the CUDA toolkit's headers where the toolkit is.
    const auto tree_or_toolkit = [](const std::string& path) {
      return path.starts_with("tests/") || path.starts_with("/usr/local/cuda/");
    };
    for (const record::TraceSource& source : t->sources) CHECK(source.path.starts_with("tests/"));
    for (const record::TraceMeasuredLine& line : t->measured) CHECK(tree_or_toolkit(line.file));
    for (const record::TraceInstruction& instruction : t->instructions) {
      for (const record::TraceLocation& place : instruction.where)
        CHECK(tree_or_toolkit(place.file));
      for (const record::TraceLocation& place : instruction.counted_at)
        CHECK(tree_or_toolkit(place.file));
    }
    ++opened;
  }
  CHECK(opened == 3);
}

}  // namespace
}  // namespace banklab::test

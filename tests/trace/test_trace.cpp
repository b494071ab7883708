// Traces without a GPU (label nogpu): the file round-trips and a changed count, a bad index or
// a foreign file is refused with one sentence; nvdisasm's listing is read into offsets and SASS;
// a trace is told per line as the scan tells a kernel (app/frontend/trace_view), and compared
// with Nsight Compute's lines as it counts them.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "app/frontend/trace_view.hpp"
#include "core/model/analysis.hpp"
#include "core/record/trace.hpp"
#include "tests/trace/trace_fixture.hpp"

using namespace banklab;
using namespace banklab::record;

TEST_CASE("a trace round-trips through its file") {
  const Trace t = test::fixture_trace();
  const Expected<Trace> back = parse_trace(trace_json(t));
  REQUIRE_MESSAGE(back, back.error());
  CHECK(trace_json(*back) == trace_json(t));
  CHECK(back->accesses.size() == 8);
  CHECK(back->accesses[0].wavefronts == analyze(t.accesses[0].access).wavefront_count());
}

TEST_CASE("a trace file whose count is not the model's is refused") {
  Trace t = test::fixture_trace();
  t.accesses[1].wavefronts += 1;
  const Expected<Trace> back = parse_trace(trace_json(t));
  REQUIRE_FALSE(back);
  CHECK(back.error().find("trace.accesses[1]") != std::string::npos);
  CHECK(back.error().find("the model gives") != std::string::npos);
}

TEST_CASE("a trace file with an index outside what it indexes is refused") {
  Trace t = test::fixture_trace();
  t.accesses[2].instruction = 7;
  CHECK_FALSE(parse_trace(trace_json(t)));
  t = test::fixture_trace();
  t.accesses[0].warp = 2;  // 64 threads: warps 0 and 1
  const Expected<Trace> back = parse_trace(trace_json(t));
  REQUIRE_FALSE(back);
  CHECK(back.error().find("trace.accesses[0].warp is 2; it must be 0 to 1") != std::string::npos);
  t = test::fixture_trace();
  t.cap = 3;  // fewer than it holds
  CHECK_FALSE(parse_trace(trace_json(t)));
}

TEST_CASE("text that is not a trace gives one sentence") {
  for (const char* text :
       {"", "{", "[]", "{\"format\":\"banklab-gpu-recording\"}",
        "{\"format\":\"banklab-trace\",\"version\":2}",
        "{\"format\":\"banklab-trace\",\"version\":1}",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"}) {
    const Expected<Trace> t = parse_trace(text);
    REQUIRE_FALSE(t);
    CHECK(t.error().find('\n') == std::string::npos);
    CHECK(t.error().find("trace") != std::string::npos);
  }
}

TEST_CASE("nvdisasm's listing gives each instruction's offset and text") {
  const char* listing =
      "\t.section\t.text._Z4demoPf,\"ax\",@progbits\n"
      ".text._Z4demoPf:\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
      "        /*0050*/                   STS [R2+UR4], R5 ;\n"
      "        /*0090*/              @!P0 LDS R4, [R3+UR4] ;\n"
      "\t.section\t.text._Z5otherv,\"ax\",@progbits\n"
      ".text._Z5otherv:\n"
      "        /*0000*/                   EXIT ;\n";
  const auto lines = parse_sass_listing(listing, "_Z4demoPf");
  REQUIRE(lines);
  REQUIRE(lines->size() == 3);
  CHECK((*lines)[1].offset == 0x50);
  CHECK((*lines)[1].text == "STS [R2+UR4], R5");
  CHECK((*lines)[2].offset == 0x90);
  CHECK((*lines)[2].text == "@!P0 LDS R4, [R3+UR4]");
  TraceInstruction in{0x90, (*lines)[2].text, {}, {}};
  CHECK(in.opcode() == "LDS");
  CHECK_FALSE(parse_sass_listing(listing, "_Z7missingv"));
}

TEST_CASE("a trace is told per line, ranked by excess, as the scan tells a kernel") {
  const Trace t = test::fixture_trace();
  const frontend::TraceView v = frontend::view_of(t);
  CHECK(v.file == "/work/demo.cu");
  CHECK(v.source == test::kFixtureSource);
  REQUIRE(v.scan.lines.size() == 2);
  const ScanLine& worst = v.scan.lines[0];
  CHECK(worst.line == 4);
  CHECK(worst.op == Op::st);
  CHECK(worst.instructions == 4);
  CHECK(worst.wavefronts == 4 * analyze(t.accesses[0].access).wavefront_count());
  CHECK(worst.worst_ways == 32);
  CHECK(worst.instances.size() == 4);
  CHECK(v.scan.lines[1].line == 6);
  CHECK(v.scan.lines[1].excess_wavefronts == 0);
  CHECK_FALSE(v.measured);
  CHECK(frontend::describe_trace_place(t, 3, 0) == "block 1, warp 1, run 0");
}

// An unrolled loop leaves one line many copies of an instruction (attention_scores' line 37:
// 256 LDS): the note names each offset where they are few, else their number and span. Listed
// one by one, they filled the Kernel window's pane at 1280x720 and left the source no room.
TEST_CASE("a line's instruction offsets are listed where few, counted and spanned where many") {
  Trace t = test::fixture_trace();
  const TraceAccess load = t.accesses[1];
  REQUIRE(t.instructions[static_cast<std::size_t>(load.instruction)].offset == 0x90);
  const auto copies_of_the_load = [&](int copies) {
    for (int i = 1; i < copies; ++i) {
      TraceInstruction copy = t.instructions[static_cast<std::size_t>(load.instruction)];
      copy.offset += 0x10 * i;
      t.instructions.push_back(copy);
      TraceAccess a = load;
      a.instruction = static_cast<int>(t.instructions.size()) - 1;
      t.accesses.push_back(a);
    }
    t.executed = static_cast<std::int64_t>(t.accesses.size());
    const frontend::TraceView v = frontend::view_of(t);
    const auto line6 = std::ranges::find(v.scan.lines, 6, &ScanLine::line);
    REQUIRE(line6 != v.scan.lines.end());
    REQUIRE_FALSE(line6->notes.empty());
    return line6->notes.front();
  };
  CHECK(copies_of_the_load(8) ==
        "LDS at +0x0090, +0x00a0, +0x00b0, +0x00c0, +0x00d0, +0x00e0, +0x00f0, +0x0100 in "
        "_Z4demoPf");
  t = test::fixture_trace();
  CHECK(copies_of_the_load(9) == "LDS at 9 offsets from +0x0090 to +0x0110 in _Z4demoPf");
  CHECK(frontend::view_of(t).scan.lines.front().notes.front() == "STS at +0x0050 in _Z4demoPf");
}

TEST_CASE("a trace's measured lines stand beside its own, line by line") {
  Trace t = test::fixture_trace();
  t.measured_by = "a test";
  t.measured = {{"/somewhere/else/demo.cu", 4, 8, 128, 4, 124},
                {"/somewhere/else/demo.cu", 6, 8, 4, 4, 0}};
  frontend::TraceView v = frontend::view_of(t);
  REQUIRE(v.measured);
  CHECK(v.measured->agreeing_lines() == 2);
  t.measured[0].wavefronts = 64;
  t.measured[0].excessive = 60;
  v = frontend::view_of(t);
  REQUIRE(v.measured);
  CHECK(v.measured->agreeing_lines() == 1);
}

TEST_CASE("an inlined call's first instruction is compared at the call and in the body") {
  // Line 4's store as the first instruction of a function inlined from line 2: the line table
  // gives its address both lines, and Nsight Compute counts it at both; the trace's own view
  // keeps it on line 4 alone.
  Trace t = test::fixture_trace();
  t.instructions[0].where = {{"/work/demo.cu", 4}, {"/work/demo.cu", 2}};
  t.instructions[0].counted_at = {{"/work/demo.cu", 2}, {"/work/demo.cu", 4}};
  std::int64_t store = 0, store_ideal = 0;
  for (const TraceAccess& a : t.accesses) {
    if (a.instruction != 0) continue;
    store += a.wavefronts;
    store_ideal += a.ideal;
  }
  t.measured_by = "a test";
  t.measured = {{"demo.cu", 2, 4, store, store_ideal, store - store_ideal},
                {"demo.cu", 4, 4, store, store_ideal, store - store_ideal},
                {"demo.cu", 6, 8, 4, 4, 0}};
  const frontend::TraceView v = frontend::view_of(t);
  CHECK(std::ranges::none_of(v.scan.lines, [](const ScanLine& l) { return l.line == 2; }));
  REQUIRE(v.measured);
  CHECK(v.measured->agreeing_lines() == 3);
  const LineComparison& call = v.measured->lines.front();
  CHECK(call.line == 2);
  CHECK(call.predicted_wavefronts == store);
  CHECK(call.explanation.find("0 wavefronts are the line's own") != std::string::npos);
  CHECK(v.measured->lines[1].explanation.empty());
}

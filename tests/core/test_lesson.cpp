// Lessons as data: the shipped files load, every step fills, the texts state no number of
// their own, and a malformed file gives FILE:LINE and a reason, never a crash.
//
// [SECTION] Reading and writing lessons
// [SECTION] The shipped lessons
// [SECTION] Limits, the audit and the tracks' claims
// [SECTION] Malformed lessons and parts of a step
// [SECTION] Measured figures
// [SECTION] The handout and the lessons folder
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/base/format.hpp"
#include "core/code/code_view.hpp"
#include "core/code/kernel_code.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/model/shared_limits.hpp"
#include "core/model/swizzle.hpp"
#include "core/report/explain.hpp"
#include "core/teach/drill.hpp"
#include "core/teach/lesson.hpp"
#include "core/teach/measured.hpp"

namespace banklab {
namespace {

// [SECTION] Reading and writing lessons

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One step wrapped in a lesson, for the error cases.
std::string lesson_with(const std::string& step) {
  return "title = \"t\"\n[[step]]\n" + step;  // [[step]] is line 2, its first key line 3
}

std::string error_of(const std::string& toml) {
  const Expected<Lesson> l = parse_lesson(toml, "bad.toml");
  REQUIRE_FALSE(l.has_value());
  return l.error();
}

}  // namespace

// [SECTION] The shipped lessons

TEST_CASE("the shipped lessons load, and every step's scenario and text fill") {
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE_MESSAGE(catalogue.has_value(), (catalogue ? "" : catalogue.error()));
  CHECK(catalogue->problems.empty());
  const std::vector<Lesson>* lessons = &catalogue->lessons;
  const std::regex unfilled(R"(\{[a-z_]+(:[A-Za-z0-9-]+)?\})");
  std::set<std::string> names;
  for (const Lesson& l : *lessons) names.insert(l.name);
  CHECK(names ==
        std::set<std::string>{"descriptor", "interview", "ldmatrix", "measure", "transpose"});
  for (const Lesson& l : *lessons) {
    CAPTURE(l.name);
    CHECK_FALSE(l.title.empty());
    CHECK(l.steps.size() >= 5);
    for (const LessonStep& step : l.steps) {
      CAPTURE(step.title);
      const FilledStep f = fill_step(step);
      CHECK_FALSE(std::regex_search(f.text, unfilled));  // every placeholder filled
      CHECK_FALSE(f.text.empty());
      // A scenario that breaks a rule is there to show the rule: the step says so.
      if (!f.study.evaluation.ok())
        CHECK((step.text.find("{error}") != std::string::npos || step.misaligned_rows));
      for (int lane : f.highlights.lanes) CHECK((lane >= 0 && lane < 32));
      for (int bank : f.highlights.banks) CHECK((bank >= 0 && bank < 32));
      for (int row : f.highlights.rows) CHECK((row >= 0 && row < f.study.scenario.tile.rows));
    }
  }
}

TEST_CASE("a lesson text states no count of its own: results are placeholders") {
  // "4-way", "32 wavefronts", "3.0%", "bank 5", "8 banks": a number the core must give; and a
  // byte count, a limit or an alignment ("128 bytes", "48 KB", "aligned to 16", "16-byte
  // aligned"): the core's limits and TMA's alignments give those.
  const std::regex stated(
      R"((\d+-way)|(\d+ wavefront)|(\d+(\.\d+)? ?%)|(bank \d)|(\d+ banks?\b)|(\d+ (B|KB|bytes)\b)|(\d+KB))"
      R"(|(aligned to \d)|(\d+-byte (aligned|boundary|alignment)))");
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE(catalogue.has_value());
  for (const Lesson& l : catalogue->lessons)
    for (const LessonStep& step : l.steps) {
      CAPTURE(l.name);
      CAPTURE(step.text);
      std::smatch m;
      const bool found = std::regex_search(step.text, m, stated);
      CAPTURE(m.str());
      CHECK_FALSE(found);
    }
}

TEST_CASE("placeholders are filled from the core, for the lanes that collide") {
  const Scenario s = *scenario_from_words(std::vector<std::string>{"--pad", "4"});
  const Study st = study(s);
  const Expected<std::string> t = fill_text(
      "{busiest_lanes} want bank {busiest_bank}: {ways}-way, {wavefronts} for {ideal}; "
      "stride {stride}, gcd {gcd}, {stride_banks} banks; pad {pad_bytes} B "
      "({pad_percent}%); lane 8: word {word:8}, bank {bank:8}; {{literal}}",
      st);
  REQUIRE(t.has_value());
  CHECK(*t ==
        "lanes 0, 8, 16 and 24 want bank 0: 4-way, 4 for 1; stride 36, gcd 4, 8 banks; pad "
        "512 B (11.1%); lane 8: word 288, bank 0; {literal}");
  LessonStep step;
  step.scenario = s;
  step.text = "x";
  step.busiest_lanes = step.busiest_banks = true;
  const FilledStep f = fill_step(step);
  CHECK(f.highlights.lanes == std::vector<int>{0, 8, 16, 24});
  CHECK(f.highlights.banks == std::vector<int>{0});
}

// [SECTION] Limits, the audit and the tracks' claims

TEST_CASE("what lessons say about limits and alignment is the core's") {
  const Scenario s = *scenario_from_words(std::vector<std::string>{"--preset", "fp32-naive"});
  const Study st = study(s);
  const auto fill = [&](const std::string& text) { return fill_text(text, st).value(); };
  // TMA: the destination is aligned to the swizzle's period, the 128 B of an unswizzled box
  // otherwise; the XORed bits are the period's row bits.
  for (const char* mode : {"tma32", "tma64", "tma128"}) {
    CAPTURE(mode);
    const SwizzleSpec sw = parse_swizzle(mode).value();
    const Swizzle z = sw.byte_swizzle(1);
    const std::int64_t period = std::int64_t{1} << z.period_log2();
    CHECK(fill(std::string("{tma_alignment:") + mode + "}") == std::to_string(period));
    // The swizzle reads absolute address bits: a tile that starts on the period keeps every
    // byte's pattern, one that starts half a period later does not.
    bool shifted_differs = false;
    for (std::int64_t x = 0; x < period; x += 16) {
      CHECK(z(period + x) - period == z(x));
      shifted_differs = shifted_differs || z(period / 2 + x) - period / 2 != z(x);
    }
    CHECK(shifted_differs);
  }
  CHECK(fill("{tma_alignment:none}") == std::to_string(kTmaAlignmentBytes));
  CHECK(fill("{tma_alignment:tma128} {tma_bits:tma128} {tma_chunk_bits:tma128}") == "1024 7-9 4-6");
  CHECK(fill("{tma_bits:tma64} {tma_bits:tma32}") == "7-8 7");
  CHECK(fill_text("{tma_bits:none}", st).error().find("XORs no address bits") != std::string::npos);
  CHECK(fill_text("{tma_alignment:xor}", st).error().find("MODE is none") != std::string::npos);
  // The shared-memory limits, in KB, are where check_shared_bytes() draws its lines.
  CHECK(fill("{shared_limit:static} {shared_limit:block} {shared_limit:sm}") == "48 227 228");
  const std::int64_t kb = 1024;
  CHECK(check_shared_bytes(48 * kb, SharedDeclaration::static_array, "t"));
  CHECK_FALSE(check_shared_bytes(48 * kb + 1, SharedDeclaration::static_array, "t"));
  CHECK(check_shared_bytes(227 * kb, SharedDeclaration::extern_array, "t"));
  CHECK_FALSE(check_shared_bytes(227 * kb + 1, SharedDeclaration::extern_array, "t"));
  CHECK(fill_text("{shared_limit:grid}", st).error().find("static, block or sm") !=
        std::string::npos);
}

// The statements the content audit (issue 23) found wrong, each with the rule that would have
// caught it, over every step of every track as a student reads it.
TEST_CASE("the audit's statements stay corrected in every track") {
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE(catalogue.has_value());
  const auto has = [](const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
  };
  bool tma_alignment_taught = false;
  for (const Lesson& l : catalogue->lessons) {
    for (const LessonStep& step : l.steps) {
      // As a student reads it: one line, and the wrong phrasings below in any case.
      std::string text = fill_step(step).text;
      std::replace(text.begin(), text.end(), '\n', ' ');
      std::string lower = text;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      const std::string period =
          std::to_string(parse_swizzle("tma128").value().tma_alignment_bytes());
      CAPTURE(l.name);
      CAPTURE(text);
      // Wrong or unclear phrasings, as they were: TMA and WGMMA take unswizzled dense layouts
      // too; a bf16x2 store faults; nothing is marked in the CLI; "the core" reads as a GPU core.
      for (const char* wrong : {"dense swizzled layouts", "fault or split", "marked rows",
                                "the core refuses", "both need rows aligned", "wider mode"})
        CHECK_FALSE(has(lower, wrong));
      // Issue 34's overclaims, as they were: a transpose "bound by HBM" (the recording shows
      // the conflict-free tile short of the fast kernel), TMA ruling out padding "altogether"
      // (a box row is a multiple of 16 bytes: a wider box makes an aligned pitch), WGMMA
      // reading "dense layouts only" (its descriptor has LBO, SBO and a base offset), a
      // swizzle that agrees "only" on its boundary, a shuffle "as fast" (never measured).
      for (const char* wrong : {"bound by hbm", "rules out padding altogether",
                                "dense layouts only", "agree only when", "simpler and as fast"})
        CHECK_FALSE(has(lower, wrong));
      // WGMMA's layouts come with the descriptor's strides.
      if (has(text, "WGMMA") && has(text, "dense")) CHECK(has(text, "SBO"));
      // A TMA box: its row rule, with the core's number.
      if (has(text, "TMA") && has(text, "box row"))
        CHECK(has(text, ("multiple of " + std::to_string(kTmaBoxRowMultipleBytes)).c_str()));
      // extern __shared__ past the static limit: only after the opt-in.
      if (has(text, "extern __shared__")) CHECK(has(text, "cudaFuncSetAttribute"));
      // A conflict HBM hides: the recording's fast kernel beside it, conflict-free not the roof.
      if (has(step.text, "{measured:fp32-aligned-pad}"))
        CHECK(has(step.text, "{measured:fp32-fast}"));
      // The Source page by its columns, and the stalls that show a conflict costs time.
      if (has(text, "Source page shows"))
        for (const char* part : {"L1 Wavefronts Shared Excessive", "L1 Wavefronts Shared Ideal",
                                 "Stall MIO Throttle", "Short Scoreboard", "op_ldgsts"})
          CHECK(has(text, part));
      // TMA writing a 128B-swizzled tile: only at a destination aligned to the swizzle's period.
      if (has(text, "TMA writes") && has(text, "128B")) CHECK(has(text, period.c_str()));
      tma_alignment_taught = tma_alignment_taught ||
                             (has(text, ("aligned to " + period).c_str()) && has(text, "bits 7-9"));
      // A float4 fill and TMA in one breath: float4 needs aligned rows, TMA a dense box at an
      // aligned address (not "rows aligned to 16 bytes" for both).
      if (has(text, "float4") && has(text, "TMA")) {
        CHECK(has(text, "dense"));
        CHECK(has(text, ("aligned to " + std::to_string(kTmaAlignmentBytes)).c_str()));
      }
      // A packed bf16 pair store into a misaligned row faults; the compiler does not split it.
      if ((has(text, "bf16x2") || has(text, "__nv_bfloat162")) && has(text, "misaligned"))
        CHECK((has(text, "faults") && has(text, "does not split")));
      // HBM's copy roof counts read plus write: a comparison with the banks is per transposed byte.
      if (has(step.text, "{measured:fp32-copy}")) {
        CHECK(has(step.text, "{hbm_transpose_tbps}"));
        CHECK(has(text, "per transposed byte"));
      }
    }
  }
  CHECK(tma_alignment_taught);
  // Sectors against banks, the floor broken by packing, and cp.async's shared side are taught.
  std::string all;
  for (const Lesson& l : catalogue->lessons)
    for (const LessonStep& step : l.steps) all += fill_step(step).text + "\n";
  std::replace(all.begin(), all.end(), '\n', ' ');
  CHECK(has(all, (std::to_string(kGlobalSectorBytes) + "-byte sectors").c_str()));
  CHECK(has(all, "are packed"));
  CHECK(has(all, "LDGSTS"));
  CHECK(has(all, "--block"));
  // The preset one-liners too.
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    CHECK(std::string(p.lesson).find("put 8 rows in every word's bank") == std::string::npos);
  }
}

// A step written as code (issue 34): the core evaluates the declaration and the access for the
// block and warp given, as `banklab analyze --decl ... --expr ... --block ... --warp ...` does.
TEST_CASE("a step written as code: the warp the core forms, its threads, and bad code") {
  const std::string step =
      "title = \"s\"\n"
      "args = [\"--decl\", \"__shared__ float tile[32][33];\", \"--expr\", "
      "\"tile[threadIdx.x][threadIdx.y]\", \"--block\", \"16x16\", \"--warp\", \"1\"]\n"
      "text = \"{block} {block_x} {warp}: {warp_threads}; lane 16 is {thread:16} on {index:16}; "
      "{access}; {wavefronts}\"\n";
  const Expected<Lesson> l = parse_lesson(lesson_with(step), "code.toml");
  REQUIRE_MESSAGE(l.has_value(), (l ? "" : l.error()));
  const LessonStep& st = l->steps.front();
  REQUIRE(st.code.has_value());
  // The same offsets as the code form of analyze gives for that warp.
  KernelParams params;
  params.block = {16, 16, 1};
  params.warp = 1;
  const CodeSource sources[] = {{"--decl", "__shared__ float tile[32][33];"},
                                {"--expr", "tile[threadIdx.x][threadIdx.y]"}};
  const CodeResult r = evaluate_code(sources, params);
  REQUIRE(r.code.has_value());
  CHECK(st.scenario == r.code->scenario);
  const FilledStep f = fill_step(st);
  const std::string wavefronts = std::to_string(evaluate(st.scenario).analysis->wavefront_count());
  CHECK(f.text ==
        "16x16 16 1: threadIdx.x 0-15 at threadIdx.y 2 and 3; lane 16 is (0, 3) on tile[0][3]; "
        "tile[threadIdx.x][threadIdx.y]; " +
            wavefronts + "\n");
  CHECK(describe_step(f) ==
        "tile[threadIdx.x][threadIdx.y] on __shared__ float tile[32][33], block 16x16, warp 1");
  // A deep block names its rows by (y, z).
  const std::string deep =
      "title = \"s\"\nargs = [\"--decl\", \"__shared__ float t[64];\", \"--expr\", "
      "\"t[threadIdx.x + 8 * threadIdx.y]\", \"--block\", \"8x2x4\"]\ntext = \"{warp_threads}\"\n";
  const Expected<Lesson> d = parse_lesson(lesson_with(deep), "deep.toml");
  REQUIRE_MESSAGE(d.has_value(), (d ? "" : d.error()));
  CHECK(fill_step(d->steps.front()).text ==
        "threadIdx.x 0-7 at (threadIdx.y, threadIdx.z) (0, 0), (1, 0), (0, 1) and (1, 1)\n");
  // Bad code, flags and placeholders: FILE:LINE and what is wrong.
  const auto with_args = [](const std::string& args, const std::string& text = "t") {
    return lesson_with("title = \"s\"\nargs = [" + args + "]\ntext = \"" + text + "\"\n");
  };
  CHECK(error_of(with_args("\"--decl\", \"__shared__ float t[32];\"")) ==
        "bad.toml:4: the code: the code form needs both --decl (the __shared__ declaration) and "
        "--expr (the access)");
  CHECK(error_of(with_args("\"--decl\", \"__shared__ float t[32];\", \"--expr\", \"t[k]\""))
            .starts_with("bad.toml:4: the code: --expr:1:"));
  CHECK(error_of(with_args("\"--expr\", \"t[0]\", \"--decl\", \"__shared__ float t[32];\", "
                           "\"--pad\", \"1\""))
            .starts_with("bad.toml:4: the code: --pad cannot be combined with --decl/--expr"));
  CHECK(error_of(with_args("\"--expr\", \"t[0]\", \"--decl\", \"__shared__ float t[32];\", "
                           "\"--block\", \"0x4\""))
            .starts_with("bad.toml:4: the code: --block: "));
  CHECK(error_of(with_args("\"--expr\", \"t[0]\", \"--decl\", \"__shared__ float t[32];\", "
                           "\"--warp\", \"3\""))
            .find("warp 3 is not in the block") != std::string::npos);
  CHECK(error_of(with_args("\"--expr\", \"t[0]\", \"--decl\", \"__shared__ float t[32];\", "
                           "\"--warp\""))
            .starts_with("bad.toml:4: the code: --warp needs a value"));
  CHECK(error_of(with_args("\"--dtype\", \"fp32\"", "{block}"))
            .starts_with("bad.toml:5: {block}: only a step written as code"));
}

// The transpose track's 2-D block steps: a 16-wide block's warp spans two columns of 16 rows,
// so the pad of one leaves a conflict, and the pad the second step shows is conflict-free in
// every warp of the block.
TEST_CASE("warp composition for 2-D blocks, as the transpose track teaches it") {
  const Expected<Lesson> lesson = find_lesson("transpose");
  REQUIRE(lesson.has_value());
  std::vector<const LessonStep*> blocks;
  for (const LessonStep& st : lesson->steps)
    if (st.code && st.code->params.block[0] != kWarpSize) blocks.push_back(&st);
  REQUIRE(blocks.size() == 2);
  for (const LessonStep* st : blocks) {
    CAPTURE(st->title);
    const KernelCode& k = st->code->code;
    const int block_x = st->code->params.block[0];
    // "32 / blockDim.x" columns a warp, each of blockDim.x rows: the second subscript.
    std::set<std::int64_t> columns, rows;
    for (const LaneCode& lane : k.lanes) {
      REQUIRE(lane.active);
      CHECK(lane.thread[0] < block_x);
      rows.insert(lane.indices[0]);
      columns.insert(lane.indices[1]);
    }
    CHECK(columns.size() == static_cast<std::size_t>(kWarpSize / block_x));
    CHECK(rows.size() == static_cast<std::size_t>(block_x));
  }
  const Analysis padded = *evaluate(blocks[0]->scenario).analysis;
  CHECK(blocks[0]->code->code.array.dims.back() == kWarpSize + 1);  // the pad of one
  CHECK(padded.max_ways > 1);
  // Every warp of the block, as --warp all checks: conflict-free.
  CHECK(blocks[1]->code->params.warp == kAllWarps);
  for (int w = 0; w < blocks[1]->code->code.warp_count; ++w) {
    KernelParams p = blocks[1]->code->params;
    p.warp = w;
    const CodeSource sources[] = {{"--decl", blocks[1]->code->decl},
                                  {"--expr", blocks[1]->code->expr}};
    const CodeResult r = evaluate_code(sources, p);
    REQUIRE(r.code.has_value());
    CHECK(evaluate(r.code->scenario).analysis->bank_conflicts() == 0);
  }
}

// The measure track's packing steps: the load packs and its ideal is below bytes over a
// wavefront; the same addresses stored do not pack.
TEST_CASE("load packing with its source, and the same addresses stored") {
  const Expected<Lesson> lesson = find_lesson("measure");
  REQUIRE(lesson.has_value());
  const LessonStep* load = nullptr;
  const LessonStep* store = nullptr;
  for (const LessonStep& st : lesson->steps) {
    if (!st.code) continue;
    (st.scenario.op == Op::ld ? load : store) = &st;
  }
  REQUIRE(load != nullptr);
  REQUIRE(store != nullptr);
  CHECK(load->scenario.raw_offsets == store->scenario.raw_offsets);
  const Analysis ld = *evaluate(load->scenario).analysis;
  const Analysis st = *evaluate(store->scenario).analysis;
  CHECK(ld.packed);
  CHECK(ld.ideal_wavefronts * kWavefrontBytes < ld.requested_bytes);
  CHECK(ld.bank_conflicts() > 0);
  CHECK_FALSE(st.packed);
  CHECK(st.ideal_wavefronts * kWavefrontBytes == st.requested_bytes);
  CHECK(st.bank_conflicts() == 0);
  const std::string text = fill_step(*load).text;
  for (const char* source : {"docs/hardware-rules.md", "docs/gpu-results.md",
                             "core/validate/corpus.cpp", "NVIDIA documents no packing"})
    CHECK(text.find(source) != std::string::npos);
}

// Every Nsight Compute name a lesson or a drill states is one the H200's Nsight Compute has
// (tests/scan/check-counter-names.sh, its output in tests/scan/measured/counter-names.txt):
// metrics by their base name, "op_X" suffixes as a shared-memory metric of that operation,
// and the Source page's columns by their header.
TEST_CASE("the counters the lessons and drills name exist on the H200") {
  const std::filesystem::path measured =
      std::filesystem::path(BANKLAB_SOURCE_DIR) / "tests/scan/measured";
  const std::string listed = read(measured / "counter-names.txt");
  const std::string columns = read(measured / "counter-names-source-columns.txt");
  REQUIRE(listed.find("# missing:") != std::string::npos);
  std::string texts;
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE(catalogue.has_value());
  for (const Lesson& l : catalogue->lessons)
    for (const LessonStep& step : l.steps) texts += fill_step(step).text + "\n";
  for (DrillLevel level : kAllDrillLevels)
    for (int i = 0; i < 300; ++i) {
      const Question q = make_question(level, 11, i);
      texts += q.text + "\n";
      for (const Choice& c : q.choices) texts += c.text + " " + c.why + "\n";
    }
  const auto whole_word = [](const std::string& hay, const std::string& word) {
    return std::regex_search(hay, std::regex("(^|[^A-Za-z0-9_])" + word + "($|[^A-Za-z0-9_])"));
  };
  const std::regex metric(R"(\b(l1tex|smsp|sm)__[a-z0-9_]+)");
  const std::regex op(R"(\bop_([a-z]+)\b)");
  int metrics = 0, ops = 0;
  for (auto m = std::sregex_iterator(texts.begin(), texts.end(), metric);
       m != std::sregex_iterator(); ++m, ++metrics) {
    CAPTURE(m->str());
    CHECK(whole_word(listed, m->str()));
  }
  for (auto m = std::sregex_iterator(texts.begin(), texts.end(), op); m != std::sregex_iterator();
       ++m, ++ops) {
    CAPTURE(m->str());
    CHECK(listed.find("_mem_shared_" + m->str()) != std::string::npos);
  }
  CHECK(metrics > 10);
  CHECK(ops > 10);
  for (const char* column : {"L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal",
                             "L1 Wavefronts Shared Excessive", "stall_mio", "stall_short_sb"}) {
    CAPTURE(column);
    CHECK(texts.find(column) != std::string::npos);
    CHECK(columns.find(std::string("\"") + column + "\"\n") != std::string::npos);
  }
}

// Interview step 3 names the partners that pack and those that do not: the core agrees.
TEST_CASE("load packing as the interview track teaches it: partners L ^ 1 and L ^ 2 only") {
  for (const int width : {8, 16}) {
    for (const int partner : {1, 2, 3, 4, 8, 16}) {
      for (const Op op : {Op::ld, Op::st}) {
        CAPTURE(width);
        CAPTURE(partner);
        WarpAccess a;
        a.op = op;
        a.width = width;
        for (int lane = 0; lane < 32; ++lane)
          a.offsets[lane] = std::int64_t{16} * std::min(lane, lane ^ partner);
        const Analysis r = analyze(a);
        CHECK(r.packed == (op == Op::ld && (partner == 1 || partner == 2)));
      }
    }
  }
  const Expected<Lesson> interview = find_lesson("interview");
  REQUIRE(interview.has_value());
  bool taught = false;
  for (const LessonStep& step : interview->steps)
    taught = taught || (step.text.find("(L ^ 3, L ^ 4, L ^ 8, L ^ 16)") != std::string::npos &&
                        step.text.find("L ^ 1 (or, failing") != std::string::npos &&
                        step.text.find("Stores never pack") != std::string::npos);
  CHECK(taught);
}

TEST_CASE("the whole transpose kernel: warp w takes rows w, w + 8, ..., as the lesson says") {
  const Expected<Lesson> lesson = find_lesson("transpose");
  REQUIRE(lesson.has_value());
  const auto step = std::ranges::find_if(lesson->steps, [](const LessonStep& st) {
    return st.text.find("{transpose_kernel}") != std::string::npos;
  });
  REQUIRE(step != lesson->steps.end());
  const FilledStep f = fill_step(*step);
  CHECK(f.text.find("Warp 3 takes rows 3, 11, 19 and 27") != std::string::npos);
  CHECK(f.study.scenario.index == 3);  // "warp 3 at j = 3"
  for (const char* pad : {"0", "1"}) {
    for (const char* swizzle : {"none", "xor"}) {
      if (std::string(pad) == "1" && std::string(swizzle) == "xor") continue;
      CAPTURE(pad);
      CAPTURE(swizzle);
      const Scenario column = *scenario_from_words(
          std::vector<std::string>{"--dtype", "fp32", "--pad", pad, "--swizzle", swizzle});
      const TransposeKernel k = transpose_kernel(column.tile).value();
      const std::string decl = shared_declaration(column.tile, 0);
      // Every warp of the 32 x 8 block, every j its loop takes: the kernel's row write and column
      // read, evaluated as CUDA, are the core's row and column accesses at index j.
      for (int warp = 0; warp < kTransposeBlockRows; ++warp) {
        for (int j = warp; j < 32; j += kTransposeBlockRows) {
          CAPTURE(warp);
          CAPTURE(j);
          KernelParams params;
          params.block = {32, kTransposeBlockRows, 1};
          params.warp = warp;
          params.lets = {{"j", j}};
          for (const bool write : {true, false}) {
            const CodeSource code[] = {
                {"decl", decl},
                {"expr", write ? k.write_element + " = v;" : "v = " + k.read_element + ";"}};
            const CodeResult r = evaluate_code(code, params);
            REQUIRE_MESSAGE(r.code, (r.error ? r.error->message : ""));
            Scenario want = column;
            want.index = j;
            if (write) {
              want.pattern = AccessPattern::row;
              want.op = Op::st;
            }
            const Evaluation we = evaluate(want);
            REQUIRE(we.ok());
            for (int lane = 0; lane < 32; ++lane) {
              CHECK(r.code->lanes[lane].thread == std::array<int, 3>{lane, warp, 0});
              CHECK(r.code->lanes[lane].byte == we.analysis->access.offsets[lane]);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("misaligned rows are data, for the padding-fails steps") {
  LessonStep step;
  step.scenario = *scenario_from_words(
      std::vector<std::string>{"--pad", "1", "--access", "row", "--op", "st", "--width", "16"});
  step.text = "{pitch_bytes} mod {width} = {row_step}; {misaligned_rows} rows; {error}";
  step.misaligned_rows = true;
  const FilledStep f = fill_step(step);
  CHECK_FALSE(f.study.evaluation.ok());
  CHECK(f.text.starts_with("132 mod 16 = 4; 24 rows; lane 8: a 16-byte access"));
  CHECK(f.highlights.rows.size() == 24);
  CHECK(f.highlights.rows.front() == 1);
}

// [SECTION] Malformed lessons and parts of a step

TEST_CASE("a malformed lesson gives FILE:LINE and what is wrong") {
  struct Case {
    std::string toml;
    std::string error;
  };
  const std::string ok_step = "title = \"s\"\nargs = []\ntext = \"x\"\n";
  for (const Case& c : std::vector<Case>{
           {"title = \"t\"\n[[step]\n", "bad.toml:2: "},
           {"title = \"t\"\n", "bad.toml:1: the lesson has no [[step]]"},
           {"[[step]]\n" + ok_step, "bad.toml:1: the lesson has no 'title'"},
           {"title = \"t\"\ncolour = 1\n[[step]]\n" + ok_step, "bad.toml:2: unknown key 'colour'"},
           {lesson_with("title = \"s\"\ntext = \"x\"\n"), "bad.toml:2: the step has no 'args'"},
           {lesson_with("title = \"s\"\nargs = [\"--pad\", \"x\"]\ntext = \"x\"\n"),
            "bad.toml:4: the scenario: --pad expects a whole number, got 'x'"},
           {lesson_with("title = \"s\"\nargs = [\"--colour\", \"red\"]\ntext = \"x\"\n"),
            "bad.toml:4: the scenario: --colour is not a scenario flag"},
           {lesson_with("title = \"s\"\nargs = [\"--tile\", \"8x0\"]\ntext = \"x\"\n"),
            "bad.toml:4: the scenario's tile: tile 8x0"},
           {lesson_with("title = \"s\"\nargs = []\ntext = \"\"\"\nfine\nthen {nope}\n\"\"\"\n"),
            "bad.toml:7: {nope}: unknown placeholder"},
           {lesson_with("title = \"s\"\nargs = []\ntext = \"{bank:40}\"\n"),
            "bad.toml:5: {bank:40}: the lane must be a number 0..31"},
           {lesson_with("title = \"s\"\nargs = []\ntext = \"{ways\"\n"),
            "bad.toml:5: '{' without its '}'"},
           {lesson_with("title = \"s\"\nargs = [\"--pad\", \"1\", \"--width\", \"16\", "
                        "\"--access\", \"row\"]\ntext = \"{wavefronts}\"\n"),
            "bad.toml:5: {wavefronts}: needs a scenario the core can analyse"},
           {lesson_with(ok_step + "lanes = [0, 32]\n"), "bad.toml:6: 'lanes' holds numbers 0..31"},
           {lesson_with(ok_step + "rows = \"everything\"\n"), "bad.toml:6: 'rows' must be"},
           {lesson_with(ok_step + "elements = [[0, 40]]\n"), "bad.toml:6: each element is"},
           {lesson_with(ok_step + "size = 3\n"), "bad.toml:6: unknown key 'size' in a step"},
           {lesson_with("title = 3\nargs = []\ntext = \"x\"\n"), "bad.toml:3: 'title' must be"},
           {lesson_with(ok_step + "show = [\"bank view\"]\n"),
            "bad.toml:6: 'show' takes: banks, lanes, tile, tiles, code, compare"},
           {lesson_with(ok_step + "show = []\n"), "bad.toml:6: 'show' must be a list of: banks"},
           {lesson_with(ok_step + "show = [\"compare\"]\n"),
            "bad.toml:2: 'compare' lists the presets shown beside the step"},
           {lesson_with(ok_step + "compare = [\"fp32-pad1\"]\n"),
            "bad.toml:2: 'compare' lists the presets shown beside the step"},
           {lesson_with(ok_step + "show = [\"compare\"]\ncompare = [\"fp32-pad7\"]\n"),
            "bad.toml:7: 'compare' takes preset names (banklab presets lists them), not "
            "'fp32-pad7'"},
       }) {
    CAPTURE(c.toml);
    const std::string error = error_of(c.toml);
    CAPTURE(error);
    CHECK(error.starts_with(c.error));
    CHECK(error.find('\n') == std::string::npos);
  }
}

TEST_CASE("a step names what its slide shows, and the presets it is compared with") {
  const Expected<Lesson> l = parse_lesson(
      lesson_with("title = \"s\"\nargs = []\ntext = \"x\"\nshow = [\"tiles\", \"compare\"]\n"
                  "compare = [\"fp32-pad1\", \"fp32-xor\"]\n"),
      "ok.toml");
  REQUIRE(l);
  const FilledStep f = fill_step(l->steps.front());
  CHECK(f.show == std::vector<std::string>{"tiles", "compare"});
  REQUIRE(f.compare.size() == 2u);
  CHECK(f.compare[0].first == "fp32-pad1");
  CHECK(f.compare[0].second.scenario.tile.pad == 1);
  CHECK(f.compare[1].second.scenario.tile.swizzle.kind == SwizzleKind::xor_columns);
  // A step that names nothing leaves the choice to the slide.
  const Expected<Lesson> plain =
      parse_lesson(lesson_with("title = \"s\"\nargs = []\ntext = \"x\"\n"), "ok.toml");
  REQUIRE(plain);
  CHECK(fill_step(plain->steps.front()).show.empty());
}

TEST_CASE("text is reflowed into paragraphs, code lines kept") {
  CHECK(reflow("one\ntwo\n\nthree\n    code(1);\n    code(2);\nfour\n", 0) ==
        "one two\n\nthree\n    code(1);\n    code(2);\nfour\n");
  CHECK(reflow("aaa bbb ccc ddd", 8) == "aaa bbb\nccc ddd\n");
}

TEST_CASE("every placeholder is documented") {
  const std::string lessons_doc =
      read(std::filesystem::path(BANKLAB_SOURCE_DIR) / "docs/lessons.md");
  for (const Placeholder& p : placeholders()) {
    CAPTURE(p.name);
    CHECK(lessons_doc.find("{" + std::string(p.name) + "}") != std::string::npos);
  }
}

// [SECTION] Measured figures

TEST_CASE("measured figures come from the shipped recording, and only from it") {
  const Expected<Measurements>& m = recorded();
  REQUIRE_MESSAGE(m.has_value(), (m ? "" : m.error()));
  CHECK(m->file.ends_with("recordings/nvidia-h200.json"));
  // The recording read here on its own, as the lessons must print it.
  std::ifstream in(std::filesystem::path(BANKLAB_SOURCE_DIR) /
                   "assets/recordings/nvidia-h200.json");
  const nlohmann::json rec = nlohmann::json::parse(in);
  const auto result = [&](const std::string& dtype, const std::string& name) {
    for (const nlohmann::json& suite : rec["suites"])
      if (suite["dtype"] == dtype)
        for (const nlohmann::json& r : suite["results"])
          if (r["name"] == name) return r;
    FAIL("no result " << name);
    return nlohmann::json{};
  };
  const double copy = result("fp32", "fp32-copy")["gbps"].get<double>();
  const double clock = rec["sweep"]["measured_sm_clock_mhz"].get<double>();
  const int sms = rec["device"]["sm_count"].get<int>();
  const Scenario s = *scenario_from_words(std::vector<std::string>{"--preset", "fp32-naive"});
  const Study st = study(s);
  const auto fill = [&](const char* text) { return fill_text(text, st).value(); };
  for (const char* name : {"fp32-naive", "fp32-padded", "fp32-aligned-pad", "bf16-naive"}) {
    CAPTURE(name);
    const std::string dtype = std::string(name).substr(0, 4);
    CHECK(fill((std::string("{measured:") + name + "}").c_str()) ==
          format("%.1f %%", 100 * result(dtype, name)["fraction_of_copy"].get<double>()));
  }
  CHECK(fill("{measured:fp32-copy}") == format("%.0f GB/s", copy));
  CHECK(fill("{measured:sm-clock}") == format("%.0f MHz", clock));
  for (const nlohmann::json& p : rec["sweep"]["patterns"]) {
    const long ways = std::lround(p["predicted_ratio"].get<double>());
    CHECK(fill(("{measured:sweep-" + std::to_string(ways) + "way}").c_str()) ==
          format("%.3f", p["cycles_per_access"].get<double>()));
  }
  // The machine, and the transpose per transposed byte: HBM half the copy roof, the banks
  // SMs x 128 B x clock / (1 + 32) for this 32-way read, hidden up to 2 S / copy - 1.
  const double shared = sms * 128.0 * clock * 1e6 / 1e12;
  CHECK(fill("{sm_count} SMs, {smem_tbps} TB/s") ==
        std::to_string(sms) + " SMs, " + format("%.1f", shared) + " TB/s");
  CHECK(fill("{hbm_transpose_tbps} {smem_transpose_tbps} {hidden_ways}") ==
        format("%.2f %.2f %.1f", copy / 2000, shared / 33, 2 * shared * 1000 / copy - 1));
  // Figures of older runs (docs/gpu-results.md's history) are not what the lessons quote.
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE(catalogue.has_value());
  for (const Lesson& l : catalogue->lessons)
    for (const LessonStep& step : l.steps)
      for (const char* old : {"41.5 / 41.3", "82.2 / 81.8", "4205 GB/s"})
        CHECK(fill_step(step).text.find(old) == std::string::npos);
  // docs/lessons.md lists every key with the recording's value.
  const std::string doc = read(std::filesystem::path(BANKLAB_SOURCE_DIR) / "docs/lessons.md");
  for (const MeasuredFigure& f : m->figures) {
    CAPTURE(f.key);
    CHECK(doc.find("| `{measured:" + f.key + "}` | " + f.value + " |") != std::string::npos);
  }
  // The figures are read through the recording's one codec (core/record/recording.hpp), checked
  // as a replay is: an error names the file, then the first problem as the codec words it.
  const auto refusal = [](const std::string& text) {
    const Expected<Measurements> bad = parse_measurements(text, "x.json");
    REQUIRE_FALSE(bad.has_value());
    return bad.error();
  };
  CHECK(refusal("{\"device\": {}}") ==
        "x.json: not a usable BankLab GPU recording: it is JSON, but not a BankLab GPU recording "
        "(no \"format\": \"banklab-gpu-recording\")");
  nlohmann::json nameless = rec;
  nameless["device"].erase("name");
  CHECK(refusal(nameless.dump()) ==
        "x.json: not a usable BankLab GPU recording: recording.device.name is missing");
  // A figure that does not follow from the others is refused, never quoted.
  nlohmann::json inflated = rec;
  inflated["suites"][0]["results"][1]["fraction_of_copy"] = 0.99;
  CHECK(refusal(inflated.dump())
            .starts_with("x.json: not a usable BankLab GPU recording: "
                         "recording.suites[0].results[1].fraction_of_copy is 0.99, but gbps / the "
                         "copy roof's gbps gives "));
  // A recording the codec accepts but without the fp32 run the lessons compare with.
  nlohmann::json no_fp32 = rec;
  no_fp32["suites"] = nlohmann::json::array();
  for (const nlohmann::json& suite : rec["suites"])
    if (suite["dtype"] != "fp32") no_fp32["suites"].push_back(suite);
  CHECK(refusal(no_fp32.dump()) ==
        "x.json: not a BankLab recording with the lesson's figures: no fp32 copy roof in its "
        "suites");
}

}  // namespace banklab

namespace banklab {

// [SECTION] The handout and the lessons folder

TEST_CASE("the Markdown handout has every step's heading, image and text, code fenced") {
  const Expected<Lesson> lesson = find_lesson("transpose");
  REQUIRE(lesson.has_value());
  std::vector<std::string> images;
  for (std::size_t i = 0; i < lesson->steps.size(); ++i)
    images.push_back("step-" + std::to_string(i + 1) + ".png");
  const std::string md = to_markdown(*lesson, images);
  for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
    CAPTURE(i);
    const FilledStep f = fill_step(lesson->steps[i]);
    const std::size_t heading = md.find("## " + std::to_string(i + 1) + ". " + f.title + "\n");
    REQUIRE(heading != std::string::npos);
    CHECK(md.find("![Step " + std::to_string(i + 1) + "](" + images[i] + ")", heading) ==
          md.find('\n', heading) + 2);
    // The first line of the step's text, as it is (prose lines are one paragraph each).
    CHECK(md.find(f.text.substr(0, f.text.find('\n')), heading) != std::string::npos);
  }
  CHECK(md.find("\n```\nfloat v;\nv = tile[threadIdx.x][0];\n```\n") != std::string::npos);
}

TEST_CASE("a lessons folder with a bad file, a FIFO and a folder: the good lessons load") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("banklab-lessons-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path shipped = *lessons_dir();
  fs::copy_file(shipped / "interview.toml", dir / "interview.toml");
  std::ofstream(dir / "broken.toml") << "title = \"t\n";
  REQUIRE(::mkfifo((dir / "fifo.toml").c_str(), 0600) == 0);  // read, it would never end
  fs::create_directories(dir / "folder.toml");
  std::ofstream(dir / "notes.txt") << "not a lesson";

  const Expected<LessonCatalogue> catalogue = load_lessons(dir);
  REQUIRE(catalogue.has_value());
  REQUIRE(catalogue->lessons.size() == 1);
  CHECK(catalogue->lessons[0].name == "interview");
  REQUIRE(catalogue->problems.size() == 3);  // sorted by file name
  CHECK(catalogue->problems[0].starts_with((dir / "broken.toml").string() + ":1: "));
  CHECK(catalogue->problems[1] == (dir / "fifo.toml").string() + ": not a regular file");
  CHECK(catalogue->problems[2] == (dir / "folder.toml").string() + ": a folder, not a lesson file");

  CHECK(load_lesson(dir / "folder.toml").error() ==
        (dir / "folder.toml").string() + ": a folder, not a lesson file");
  CHECK_FALSE(load_lessons(dir / "missing").has_value());
  fs::remove_all(dir);
}

TEST_CASE("a copied lesson that keeps its name is refused, naming both files (issue 36)") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("banklab-lesson-names-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path shipped = *lessons_dir();
  fs::copy_file(shipped / "transpose.toml", dir / "transpose.toml");
  fs::copy_file(shipped / "transpose.toml", dir / "aaa.toml");  // copied, not renamed
  fs::copy_file(shipped / "interview.toml", dir / "my-interview.toml");
  fs::copy_file(shipped / "interview.toml", dir / "zz-interview.toml");

  const Expected<LessonCatalogue> catalogue = load_lessons(dir);
  REQUIRE(catalogue.has_value());
  REQUIRE(catalogue->lessons.size() == 2);
  // The lesson in NAME.toml keeps the name, even when another file sorts before it; without
  // such a file, the first by file name does.
  CHECK(catalogue->lessons[0].name == "interview");
  CHECK(catalogue->lessons[0].file == (dir / "my-interview.toml").string());
  CHECK(catalogue->lessons[1].name == "transpose");
  CHECK(catalogue->lessons[1].file == (dir / "transpose.toml").string());
  REQUIRE(catalogue->problems.size() == 2);
  CHECK(catalogue->problems[0] ==
        (dir / "aaa.toml").string() + ": the lesson name 'transpose' is already " +
            (dir / "transpose.toml").string() + "'s; give this lesson a name of its own");
  CHECK(catalogue->problems[1].starts_with((dir / "zz-interview.toml").string() +
                                           ": the lesson name 'interview' is already " +
                                           (dir / "my-interview.toml").string()));
  fs::remove_all(dir);
}

}  // namespace banklab

// Recordings without a GPU (label nogpu): a recording round-trips (written, read back, the same
// tables), and a corrupt, truncated, huge, foreign or wrongly typed file gives one clear
// sentence, never a crash. The shipped H200 recordings load and pass their own bars.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/frontend/gpu_recording.hpp"
#include "app/frontend/recording_text.hpp"
#include "core/model/analysis.hpp"
#include "core/record/recording_check.hpp"

using namespace banklab;
using namespace banklab::record;
using namespace banklab::frontend;  // reading and printing recordings

namespace {

WarpAccess column(int stride_words) {
  WarpAccess a;
  a.op = Op::ld;
  a.width = 4;
  for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = 4LL * stride_words * lane;
  return a;
}

PatternResult pattern(const WarpAccess& a, double cycles) {
  PatternResult r;
  r.access = a;
  r.predicted_wavefronts = analyze(a).wavefront_count();
  r.baseline_wavefronts = 1;
  r.warps_per_sm = 64;
  r.cycles_per_access = cycles;
  r.baseline_cycles_per_access = 1.0007;
  r.ns_per_access = cycles / 1.962;
  r.wavefronts_per_clock = r.predicted_wavefronts / cycles;
  r.measured_ratio = cycles / 1.0007;
  r.predicted_ratio = r.predicted_wavefronts;
  r.verified = true;
  return r;
}

// A recording with every part filled, the numbers awkward on purpose (many decimals).
Recording sample() {
  Recording r;
  r.created_utc = "2026-11-30T21:40:05Z";
  r.commit = "68dc26b0a1b2";
  r.driver = "580.159.04";
  r.device.availability = Availability::available;
  r.device.name = "NVIDIA H200";
  r.device.cc_major = 9;
  r.device.sm_count = 132;
  r.device.sm_clock_khz = 1980000;
  r.device.memory_clock_khz = 3201000;
  r.device.memory_bus_bits = 6144;
  r.device.memory_bytes = 150'110'011'392ULL;
  r.device.shared_memory_per_sm = 233472;
  r.device.l2_bytes = 62914560;
  SuiteReport s;
  s.status = RunStatus::ok;
  s.device = r.device;
  s.options.dtype = DType::fp32;
  s.options.rows = s.options.cols = 16384;
  s.options.pad = 1;
  s.options.repetitions = 30;
  s.sm_clock_mhz = 1962.123456789;
  for (const auto& [name, role, gbps] : {std::tuple{"copy16", VariantRole::roof, 4205.123456789},
                                         std::tuple{"fp32-fast", VariantRole::fast, 4073.987654321},
                                         std::tuple{"fp32-cublas", VariantRole::library, 3937.5}}) {
    VariantResult v;
    v.name = name;
    v.role = role;
    v.lesson = "what it shows, with \"quotes\" and a tab\t";
    v.tile = "float tile[64][64]";
    v.bytes_moved = 2147483648LL;
    v.ms = 2147483648.0 / gbps / 1e6;
    v.ms_min = v.ms * 0.99;
    v.ms_max = v.ms * 1.01;
    v.gbps = gbps;
    v.fraction_of_copy = gbps / 4205.123456789;
    v.verified = true;
    s.results.push_back(v);
  }
  s.results.back().verified = false;
  s.results.back().detail = "element (3, 5) is 7, expected 8; 12 wrong";
  s.notes.push_back("fp64-cublas left out: cuBLAS could not be loaded");
  r.suites.push_back(s);
  r.sweep.report.status = RunStatus::ok;
  r.sweep.report.sm_clock_mhz = 1962.5;
  for (const int stride : {33, 34, 32}) {
    r.sweep.labels.push_back("float tile[32][" + std::to_string(stride) + "], column read");
    r.sweep.report.results.push_back(
        pattern(column(stride), stride == 32 ? 32.016 : (stride == 34 ? 2.0021 : 1.0011)));
  }
  r.lesson = r.sweep;
  r.lesson.labels[0] = "fp32-pad1: a label";
  r.lesson.report.results[1].verified = false;
  r.lesson.report.results[1].detail = "3 wrong; first: thread 7 summed 1, expected 2";
  PatternCrossCheck c;
  c.access = column(33);
  c.access.offsets[5] = kInactiveLane;
  c.counted_instructions = 130572288;
  c.hardware_instructions = 130572288;
  c.counted_cycles_per_access = 4.0016;
  c.hardware_cycles_per_access = 4.0071234;
  c.hardware_wavefronts = 522289156;
  c.hardware_wavefronts_per_clock = 0.9983;
  c.agrees = true;
  r.cross_check = {c, c};
  r.cross_check[1].hardware_instructions = 1;  // read back, its verdict is the rule's
  r.cross_check[1].agrees = false;
  r.cross_check[1].detail =
      "the benchmark counts 130572288 instructions of the measured class, the hardware 1";
  r.validate = {2294 + 2000, 2294 + 2000, 0, 0, 2000, 1, 8.25};
  return r;
}

std::string text_of(const Recording& r) {
  std::string out;
  append_recording_text(out, r);
  return out;
}

std::filesystem::path temp_file(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / ("banklab-test-" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

}  // namespace

TEST_CASE("a recording written and read back prints the same tables") {
  const Recording r = sample();
  const std::string json = recording_json(r);
  const Expected<Recording> back = parse_recording(json);
  REQUIRE_MESSAGE(back.has_value(), (back ? "" : back.error()));
  CHECK(text_of(*back) == text_of(r));
  CHECK(recording_json(*back) == json);  // and writes the same file again
  CHECK(back->device.name == "NVIDIA H200");
  CHECK(back->suites.at(0).results.at(1).gbps == doctest::Approx(4073.987654321).epsilon(1e-12));
  CHECK(back->suites.at(0).results.at(0).lesson == r.suites[0].results[0].lesson);
  CHECK(back->cross_check.at(0).access == r.cross_check[0].access);
  CHECK_FALSE(back->cross_check.at(0).access.active(5));
  CHECK(back->validate.agree == 4294);
  // What the tables say, so that equal texts are not two empty strings.
  const std::string text = text_of(*back);
  CHECK(text.find("Recorded 2026-11-30T21:40:05Z on NVIDIA H200 (driver 580.159.04") == 0);
  CHECK(text.find("fp32-fast") != std::string::npos);
  CHECK(text.find("4294 patterns, 4294 agree") != std::string::npos);
  // The reversal paragraph, as the GUI writes it, with the recorded numbers.
  CHECK(text.find("  Shared memory: 132 SMs x 128 B per clock at 1962 MHz") != std::string::npos);
}

TEST_CASE("gpu-bench --json writes the device and the patterns as a recording holds them") {
  // gpu-bench --json wrote both by hand, with other keys (rated_sm_clock_mhz) and a string for
  // the access: now through the recording's lists of fields, the same text a recording has.
  const Recording r = sample();
  const std::string file = recording_json(r);
  std::string device;
  JsonWriter d(device);
  write_device_json(d, r.device);
  CHECK(file.find("\"device\":" + device) != std::string::npos);
  std::string lesson;
  JsonWriter l(lesson);
  l.begin_object();
  write_patterns_fields(l, r.lesson);
  l.end_object();
  CHECK(file.find("\"lesson\":" + lesson) != std::string::npos);
  CHECK(lesson.find("\"patterns\":[") != std::string::npos);
}

TEST_CASE("a row that is not verified shows no figure, only why") {
  const std::string text = text_of(sample());
  CHECK(text.find("3 wrong; first: thread 7") != std::string::npos);
  const auto row = text.find("float tile[32][34], column read");  // verified in the sweep
  REQUIRE(row != std::string::npos);
  CHECK(text.find("yes", row) < text.find('\n', row));
  // In the lesson the same row is wrong: dashes where its figures would be.
  const auto wrong = text.find("float tile[32][34], column read", row + 1);
  REQUIRE(wrong != std::string::npos);
  const std::string line = text.substr(wrong, text.find('\n', wrong) - wrong);
  CHECK(line.find(" - ") != std::string::npos);
  CHECK(line.find("WRONG") != std::string::npos);
  CHECK(line.find("1.001") == std::string::npos);
}

TEST_CASE("a corrupt, foreign or wrongly typed recording gives one clear sentence") {
  const std::string json = recording_json(sample());
  const auto fails_with = [](const std::string& text, const std::string& words) {
    const Expected<Recording> r = parse_recording(text);
    REQUIRE_FALSE(r.has_value());
    CAPTURE(r.error());
    CHECK(r.error().find(words) != std::string::npos);
    CHECK(r.error().find('\n') == std::string::npos);
  };
  SUBCASE("every truncation") {
    for (std::size_t n = 0; n < json.size() - 1; n += 7) {
      CAPTURE(n);
      CHECK_FALSE(parse_recording(json.substr(0, n)).has_value());
    }
  }
  SUBCASE("not JSON") {
    fails_with("\x89PNG\r\n\x1a\n\0\0", "not valid JSON");
  }
  SUBCASE("foreign JSON") {
    fails_with(R"({"wavefronts": 4, "lanes": [0, 1]})", "not a BankLab GPU recording");
    fails_with("[1, 2, 3]", "not a BankLab GPU recording");
  }
  SUBCASE("another version") {
    std::string v = json;
    v.replace(v.find("\"version\":1"), 11, "\"version\":7");
    fails_with(v, "format version 7");
  }
  SUBCASE("a field of the wrong type names its path") {
    std::string v = json;
    const auto at = v.find("\"gbps\":");
    v.replace(at, v.find(',', at) - at, "\"gbps\":\"fast\"");
    fails_with(v, "recording.suites[0].results[0].gbps is not a number");
  }
  SUBCASE("a missing field names its path") {
    std::string v = json;
    v.replace(v.find("\"sm_count\""), 10, "\"sm_kount\"");
    fails_with(v, "recording.device.sm_count is missing");
  }
  SUBCASE("a number out of range") {
    std::string v = json;
    const auto at = v.find("\"warps_per_sm\":");
    v.replace(at, v.find(',', at) - at, "\"warps_per_sm\":99999999999999");
    fails_with(v, "warps_per_sm is out of range");
  }
  SUBCASE("an access the core refuses") {
    std::string v = json;
    const auto at = v.find("\"offsets\":[0,");
    v.replace(at, 13, "\"offsets\":[2,");
    fails_with(v, "is not a valid access");
  }
  SUBCASE("a figure above the shared-memory pipe's limit") {
    Recording r = sample();
    r.sweep.report.results[0] = pattern(column(33), 0.2834);  // 1 wavefront in 0.28 clocks
    fails_with(recording_json(r),
               "claims 3.529 wavefronts per clock, more than the "
               "shared-memory pipe serves");
  }
  SUBCASE("nesting deeper than a recording has") {
    fails_with(std::string(100000, '[') + std::string(100000, ']'), "nests deeper");
  }
}

TEST_CASE("a recording file that is missing or huge is refused before it is parsed") {
  const Expected<Recording> missing = load_recording("/nonexistent/banklab.json");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().find("/nonexistent/banklab.json") != std::string::npos);

  const auto huge = temp_file("huge.json", std::string(kMaxRecordingBytes + 1, ' '));
  const Expected<Recording> big = load_recording(huge);
  REQUIRE_FALSE(big.has_value());
  CHECK(big.error().ends_with(": larger than 16777216 bytes"));
  std::filesystem::remove(huge);

  const auto good = temp_file("good.json", recording_json(sample()));
  CHECK(load_recording(good).has_value());
  std::filesystem::remove(good);
}

TEST_CASE("a recording's figures are recomputed or range-checked, never taken on its word") {
  const auto refused = [](const Recording& r, const std::string& words) {
    const Expected<Recording> back = parse_recording(recording_json(r));
    REQUIRE_FALSE(back.has_value());
    CAPTURE(back.error());
    CHECK(back.error().find(words) != std::string::npos);
  };
  SUBCASE("sizes, clocks and rates no run has") {
    Recording r = sample();
    r.suites[0].options.rows = -1;
    refused(r, "recording.suites[0].rows is -1; it must be 1 to 1048576");
    r.suites[0].options.rows = 0;
    refused(r, "recording.suites[0].rows is 0;");
    r = sample();
    r.suites[0].sm_clock_mhz = -5;
    refused(r, "recording.suites[0].measured_sm_clock_mhz is -5 MHz; it must be 1 to 10000 MHz");
    r = sample();
    r.sweep.report.sm_clock_mhz = -5;
    refused(r, "recording.sweep.measured_sm_clock_mhz is -5 MHz");
    r = sample();
    r.suites[0].results[1].gbps = 1e308;  // a 300-digit number in the file
    refused(r, "recording.suites[0].results[1].gbps is 1e+308, but bytes_moved / ms gives 4073.99");
    r = sample();
    for (VariantResult& v : r.suites[0].results) {  // consistent, and impossible: 2e9 GB/s
      v.ms = v.ms_min = v.ms_max = 1e-6;
      v.gbps = double(v.bytes_moved) / (v.ms * 1e6);
      v.fraction_of_copy = 1;
    }
    refused(r, "recording.suites[0].results[0].gbps is 2147483648 GB/s; it must be 0 to 100000");
    r = sample();
    r.sweep.report.results[0].warps_per_sm = 0;
    refused(r, "recording.sweep.patterns[0].warps_per_sm is 0; it must be 1 to 64");
  }
  SUBCASE("the model's counts are the core's") {
    Recording r = sample();
    r.sweep.report.results[2].predicted_wavefronts = 7;  // float tile[32][32]'s column: 32
    refused(r,
            "recording.sweep.patterns[2].predicted_wavefronts is 7, but the core counts 32 for "
            "ld 4 0,128,");
  }
  SUBCASE("a cross-check agrees by its counts, not by its flag") {
    Recording r = sample();
    r.cross_check[0].counted_instructions = 16220192;
    r.cross_check[0].hardware_instructions = 1;
    r.cross_check[0].agrees = true;
    r.cross_check[0].detail = "";
    const Expected<Recording> back = parse_recording(recording_json(r));
    REQUIRE(back.has_value());
    CHECK_FALSE(back->cross_check[0].agrees);
    CHECK(back->cross_check[0].detail ==
          "the benchmark counts 16220192 instructions of the measured class, the hardware 1");
    CHECK_FALSE(recording_passes(*back));
    CHECK(text_of(*back).find("the hardware 1\n") != std::string::npos);
  }
  SUBCASE("validate's mismatches make the recording fail") {
    Recording r = sample();
    r.cross_check.pop_back();  // the one that disagrees
    r.suites[0].results.back().verified = true;
    r.lesson.report.results[1].verified = true;
    const Expected<Recording> good = parse_recording(recording_json(r));
    REQUIRE(good.has_value());
    CHECK(recording_passes(*good));
    r.validate = {4294, 3995, 299, 0, 2000, 1, 8.25};
    const Expected<Recording> back = parse_recording(recording_json(r));
    REQUIRE(back.has_value());
    CHECK_FALSE(recording_passes(*back));
  }
  SUBCASE("texts: escape sequences shown as \\xNN, and no text longer than a recording writes") {
    Recording r = sample();
    r.device.name = "NVIDIA H200\x1b]0;pwned\x07\x1b[31m";
    r.sweep.labels[0] = "a label\u009b2J";
    const Expected<Recording> back = parse_recording(recording_json(r));
    REQUIRE(back.has_value());
    const std::string text = text_of(*back);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find('\x07') == std::string::npos);
    CHECK(text.find("\u009b") == std::string::npos);
    CHECK(text.find("on NVIDIA H200\\x1b]0;pwned\\x07\\x1b[31m (driver") != std::string::npos);
    r.driver = std::string(5000, 'x');
    refused(r, "recording.driver is 5000 bytes long; a recording's texts are at most 4096");
  }
}

#pragma once
// A recording: one whole run of the GPU suite (every dtype's transposes with cuBLAS, the
// lesson's sweep, every preset's pattern, the microbenchmark's cross-check against the hardware
// counters, validate's totals), written as one JSON file with the device, the driver, the clocks,
// the date and the project's commit. `banklab gpu-bench --record FILE` writes one,
// `--replay FILE` prints it, the GUI's GPU window draws one on a machine without a GPU, and the
// lessons quote the shipped one's figures (core/teach/measured.hpp).
//
// The file is written and read through one list of fields per structure (recording.cpp), and
// what is read is checked before anything is shown (recording_check.hpp). Reading a file, and
// what only a live run knows (the driver, the build's commit, the time), are the front end's
// (app/frontend/gpu_recording.hpp); the tables for people are app/frontend/recording_text.hpp.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/base/json_writer.hpp"
#include "core/record/device.hpp"
#include "core/record/results.hpp"

namespace banklab::record {

// banklab validate's totals, as recorded.
struct ValidateTotals {
  std::int64_t patterns = 0;
  std::int64_t agree = 0;
  std::int64_t mismatch = 0;
  std::int64_t unmeasured = 0;
  std::int64_t random_count = 0;
  std::int64_t seed = 0;
  double seconds = 0;
};

// A microbenchmark run with a label per pattern ("float tile[32][33], column read").
struct LabelledPatterns {
  std::vector<std::string> labels;  // one per report.results
  PatternReport report;
};

struct Recording {
  std::string created_utc;  // "2026-11-30T21:40:05Z"
  std::string commit;       // the project's commit the build came from
  std::string driver;       // the NVIDIA driver's version ("580.159.04"), or "unknown"
  DeviceInfo device;
  std::vector<SuiteReport> suites;             // one per dtype, fp8 to fp64
  LabelledPatterns sweep;                      // the lesson's sweep (gpu::conflict_sweep())
  LabelledPatterns lesson;                     // every preset that evaluates
  std::vector<PatternCrossCheck> cross_check;  // the lesson's runs against the counters
  ValidateTotals validate;
};

// The largest recording read (a real one is about 100 KB): a larger file is refused unread.
inline constexpr std::uintmax_t kMaxRecordingBytes = 16u << 20;

// What `gpu-bench --json` prints, with the keys and the precision of a recording, through its
// lists of fields: one suite as a JSON object (per dtype); the device as one; a microbenchmark's
// labelled patterns as the fields of the object being written (its measured clock and
// "patterns": what a recording's "sweep" and "lesson" hold; a row without a label gets its
// access as one).
void write_suite_json(JsonWriter& w, const SuiteReport& r);
void write_device_json(JsonWriter& w, const DeviceInfo& d);
void write_patterns_fields(JsonWriter& w, const LabelledPatterns& p);

// The recording as JSON text (one object, a newline at the end).
std::string recording_json(const Recording& r);
// Reads what recording_json() wrote. A file that is not JSON, not a BankLab recording, of
// another version, or has a field missing or of the wrong type gives one sentence naming the
// first problem (with the field's path), never a crash; then every figure is checked against
// what can be recomputed and what is possible (recording_check.hpp).
Expected<Recording> parse_recording(std::string_view json);

}  // namespace banklab::record

#pragma once
// A recording: one whole run of the GPU suite (every dtype's transposes with cuBLAS, the
// lesson's sweep, every preset's pattern, the microbenchmark's cross-check against the hardware
// counters, validate's totals), written as one JSON file with the device, the driver, the clocks,
// the date and the project's commit. `banklab gpu-bench --record FILE` writes one,
// `--replay FILE` prints it, and the GUI's GPU window draws one on a machine without a GPU.
//
// The tables are printed by the functions below, from the same structures for a live run and a
// replayed one, so both print the same text. Plain C++: no CUDA type reaches this header.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/base/json_writer.hpp"
#include "core/teach/reversal.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"
#include "kernels/gpu_measure.hpp"

namespace banklab::gpu {

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
  LabelledPatterns sweep;                      // conflict_sweep()
  LabelledPatterns lesson;                     // every preset that evaluates
  std::vector<PatternCrossCheck> cross_check;  // the lesson's runs against the counters
  ValidateTotals validate;
};

// The largest recording read (a real one is about 100 KB): a larger file is refused unread.
inline constexpr std::uintmax_t kMaxRecordingBytes = 16u << 20;

// One suite as a JSON object (what `gpu-bench --json` prints per dtype, and a recording holds).
void write_suite_json(JsonWriter& w, const SuiteReport& r);

// The recording as JSON text (one object, a newline at the end).
std::string recording_json(const Recording& r);
// Reads what recording_json() wrote. A file that is not JSON, not a BankLab recording, of
// another version, or has a field missing or of the wrong type gives one sentence naming the
// first problem (with the field's path), never a crash; then every figure is checked against
// what can be recomputed and what is possible (recording_check.hpp).
Expected<Recording> parse_recording(std::string_view json);
// The file at `path` (`-`: standard input), checked as above; only a regular file of at most
// kMaxRecordingBytes is read (file_io.hpp).
Expected<Recording> load_recording(const std::filesystem::path& path);

// ---------------------------------------------------------------------------------------------
// What the lesson says about a suite (the GUI and the CLI alike).

// What the core predicts for the shared-memory access a transpose kernel makes: its preset, with
// the run's pad when the kernel's tile is the padded one. Empty when the kernel names no preset.
struct SharedAccessCost {
  std::string preset;
  int wavefronts = 0;
  int ideal = 0;
  int ways = 0;  // the worst phase: "an n-way conflict"
};
std::optional<SharedAccessCost> variant_cost(const VariantResult& r, int pad);

// The numbers of the reversal paragraph (core's reversal_lines()) from a suite, and from a
// microbenchmark that holds the 32-way column read; empty when the suite's copy roof is not a
// verified result.
std::optional<ReversalRun> reversal_run(const SuiteReport& suite, const PatternReport* loop);

// The NVIDIA driver's version from /proc/driver/nvidia/version, or "unknown".
std::string driver_version();
// The project's commit this build came from (set at configure time; "unknown" without git).
std::string build_commit();
// "2026-11-30T21:40:05Z", now.
std::string utc_now();

// ---------------------------------------------------------------------------------------------
// The tables, for people: what `banklab gpu-bench` prints live and from a recording.

// "NVIDIA H200, sm_90, ...; SM clock 1962 MHz measured during the run".
std::string device_line(const DeviceInfo& d, double measured_mhz);
// The suite's table, then the reversal paragraph with its numbers (`loop`, if given, adds the
// 32-way read's slowdown in the shared-memory-bound loop).
void append_suite_text(std::string& out, const SuiteReport& r, const PatternReport* loop = nullptr);
void append_patterns_text(std::string& out, const LabelledPatterns& p);
void append_cross_check_text(std::string& out, const std::vector<PatternCrossCheck>& checks);
void append_validate_text(std::string& out, const ValidateTotals& v);
// The whole recording: where and when it was made, then every table above.
void append_recording_text(std::string& out, const Recording& r);

}  // namespace banklab::gpu

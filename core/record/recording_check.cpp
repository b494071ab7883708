#include "core/record/recording_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/format.hpp"
#include "core/model/analysis.hpp"
#include "core/model/layout.hpp"
#include "core/record/results.hpp"

namespace banklab::record {
namespace {

// The bounds no real run comes near, so that only a file's invention falls outside them.
constexpr double kMaxClockMhz = 10000;         // today's GPUs boost to about 2 GHz
constexpr double kMaxGbps = 100000;            // 100 TB/s: 20x an H200's HBM3e
constexpr double kMaxCyclesPerAccess = 1e6;    // a 32-way conflict costs 32 (ldmatrix.x4: 128)
constexpr double kMaxMs = 1e7;                 // a launch of almost three hours
constexpr int kMaxWarpsPerSm = 64;             // a Hopper SM holds at most 64 resident warps
constexpr int kMaxTransposeSide = 1 << 20;     // gpu-bench --size takes up to 65536 a side
constexpr std::int64_t kMaxBytes = 1LL << 50;  // a petabyte
constexpr double kRelative = 1e-6;             // a recomputed figure against the written one
                                               // (written with 9 decimals)

struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string item(const std::string& path, std::string_view key, std::size_t i) {
  return path + "." + std::string(key) + "[" + std::to_string(i) + "]";
}

// A number as a message states it: whole numbers in full (1048576), others in six digits.
std::string number(double value) {
  return std::abs(value) < 1e15 && value == std::floor(value) ? format("%.0f", value)
                                                              : format("%g", value);
}

// A number of a kind: between lo and hi, finite.
void within(const std::string& path, double value, double lo, double hi, std::string_view unit) {
  if (!(value >= lo && value <= hi)) {
    const std::string u(unit);
    throw Refused(path + " is " + number(value) + u + "; it must be " + number(lo) + " to " +
                  number(hi) + u);
  }
}

// A figure the file states that follows from others it states: it must be what they give.
void follows(const std::string& path, double stored, double recomputed, std::string_view how) {
  if (!(std::abs(stored - recomputed) <= kRelative * std::abs(recomputed) + 1e-9)) {
    throw Refused(path + " is " + number(stored) + ", but " + std::string(how) + " gives " +
                  number(recomputed));
  }
}

void text(const std::string& path, const std::string& value) {
  if (value.size() > kMaxRecordedText) {
    throw Refused(path + " is " + std::to_string(value.size()) +
                  " bytes long; a recording's texts " + "are at most " +
                  std::to_string(kMaxRecordedText));
  }
}

void check_device(const DeviceInfo& d, const std::string& path) {
  text(path + ".name", d.name);
  within(path + ".cc_major", d.cc_major, 1, 99, "");
  within(path + ".cc_minor", d.cc_minor, 0, 9, "");
  within(path + ".sm_count", d.sm_count, 1, 1024, "");
  within(path + ".rated_sm_clock_khz", d.sm_clock_khz, 1, kMaxClockMhz * 1000, " kHz");
  within(path + ".memory_clock_khz", d.memory_clock_khz, 0, kMaxClockMhz * 1000, " kHz");
  within(path + ".memory_bus_bits", d.memory_bus_bits, 0, 65536, "");
  within(path + ".shared_memory_per_sm", d.shared_memory_per_sm, 0, 16 << 20, " B");
  within(path + ".l2_bytes", d.l2_bytes, 0, 1 << 30, " B");
}

void check_suite(const SuiteReport& s, const std::string& path) {
  const TransposeOptions& o = s.options;
  within(path + ".rows", o.rows, 1, kMaxTransposeSide, "");
  within(path + ".cols", o.cols, 1, kMaxTransposeSide, "");
  within(path + ".pad", o.pad, 0, kMaxTilePad, "");
  within(path + ".repetitions", o.repetitions, 1, 1e6, "");
  within(path + ".measured_sm_clock_mhz", s.sm_clock_mhz, 1, kMaxClockMhz, " MHz");
  for (std::size_t i = 0; i < s.results.size(); ++i) {
    const VariantResult& v = s.results[i];
    const std::string p = item(path, "results", i);
    for (const auto& [key, value] : {std::pair{".name", &v.name},
                                     {".lesson", &v.lesson},
                                     {".tile", &v.tile},
                                     {".preset", &v.preset},
                                     {".detail", &v.detail}}) {
      text(p + key, *value);
    }
    within(p + ".bytes_moved", double(v.bytes_moved), 1, double(kMaxBytes), " B");
    within(p + ".ms", v.ms, 1e-6, kMaxMs, " ms");
    within(p + ".ms_min", v.ms_min, 1e-6, v.ms * (1 + kRelative), " ms");
    within(p + ".ms_max", v.ms_max, v.ms * (1 - kRelative), kMaxMs, " ms");
    const double gbps = double(v.bytes_moved) / (v.ms * 1e6);
    follows(p + ".gbps", v.gbps, gbps, "bytes_moved / ms");
    within(p + ".gbps", v.gbps, 0, kMaxGbps, " GB/s");
    follows(p + ".fraction_of_copy", v.fraction_of_copy, v.gbps / s.results.front().gbps,
            "gbps / the copy roof's gbps");
  }
  for (std::size_t i = 0; i < s.notes.size(); ++i) text(item(path, "notes", i), s.notes[i]);
}

void check_patterns(const LabelledPatterns& patterns, const std::string& path) {
  within(path + ".measured_sm_clock_mhz", patterns.report.sm_clock_mhz, 1, kMaxClockMhz, " MHz");
  for (std::size_t i = 0; i < patterns.report.results.size(); ++i) {
    const PatternResult& r = patterns.report.results[i];
    const std::string p = item(path, "patterns", i);
    text(p + ".label", patterns.labels[i]);
    text(p + ".detail", r.detail);
    // Counts of the model: the core's, exactly.
    const int predicted = analyze(r.access).wavefront_count();
    const int baseline = analyze(conflict_free_baseline(r.access)).wavefront_count();
    const std::string model = ", but the core counts ";
    if (r.predicted_wavefronts != predicted) {
      throw Refused(p + ".predicted_wavefronts is " + std::to_string(r.predicted_wavefronts) +
                    model + std::to_string(predicted) + " for " + to_string(r.access));
    }
    if (r.baseline_wavefronts != baseline) {
      throw Refused(p + ".baseline_wavefronts is " + std::to_string(r.baseline_wavefronts) + model +
                    std::to_string(baseline) + " for its conflict-free baseline");
    }
    // What was measured, then what follows from it.
    within(p + ".warps_per_sm", r.warps_per_sm, 1, kMaxWarpsPerSm, "");
    within(p + ".cycles_per_access", r.cycles_per_access, 1e-3, kMaxCyclesPerAccess, "");
    within(p + ".baseline_cycles_per_access", r.baseline_cycles_per_access, 1e-3,
           kMaxCyclesPerAccess, "");
    within(p + ".ns_per_access", r.ns_per_access, 1e-6, kMaxCyclesPerAccess, " ns");
    follows(p + ".wavefronts_per_clock", r.wavefronts_per_clock, predicted / r.cycles_per_access,
            "predicted_wavefronts / cycles_per_access");
    follows(p + ".measured_ratio", r.measured_ratio,
            r.cycles_per_access / r.baseline_cycles_per_access,
            "cycles_per_access / baseline_cycles_per_access");
    follows(p + ".predicted_ratio", r.predicted_ratio, double(predicted) / baseline,
            "predicted_wavefronts / baseline_wavefronts");
    // The same guard as a live run: a figure above the pipe's limit is never a result.
    const double baseline_rate = baseline / r.baseline_cycles_per_access;
    if (r.verified &&
        !(std::max(r.wavefronts_per_clock, baseline_rate) <= kMaxWavefrontsPerClock)) {
      throw Refused(p + " claims " +
                    format("%.3f", std::max(r.wavefronts_per_clock, baseline_rate)) +
                    " wavefronts per clock, more than the shared-memory pipe serves");
    }
  }
}

void check_cross_check(std::vector<PatternCrossCheck>& checks) {
  for (std::size_t i = 0; i < checks.size(); ++i) {
    PatternCrossCheck& c = checks[i];
    const std::string p = item("recording", "cross_check", i);
    within(p + ".counted_instructions", double(c.counted_instructions), 0, double(kMaxBytes), "");
    within(p + ".hardware_instructions", double(c.hardware_instructions), 0, double(kMaxBytes), "");
    within(p + ".counted_cycles_per_access", c.counted_cycles_per_access, 0, kMaxCyclesPerAccess,
           "");
    within(p + ".hardware_cycles_per_access", c.hardware_cycles_per_access, 0, kMaxCyclesPerAccess,
           "");
    within(p + ".hardware_wavefronts", double(c.hardware_wavefronts), 0, double(kMaxBytes), "");
    within(p + ".hardware_wavefronts_per_clock", c.hardware_wavefronts_per_clock, 0, 1e6, "");
    text(p + ".detail", c.detail);
    // Whether it agrees is the rule's, from the counts: never the file's word.
    const Expected<void> agreement = check_agreement(c);
    c.agrees = agreement.has_value();
    c.detail = agreement ? std::string() : agreement.error();
  }
}

void check_validate(const ValidateTotals& v) {
  const std::string p = "recording.validate";
  for (const auto& [key, value] : {std::pair{".patterns", v.patterns},
                                   {".agree", v.agree},
                                   {".mismatch", v.mismatch},
                                   {".unmeasured", v.unmeasured},
                                   {".random_count", v.random_count}}) {
    within(p + key, double(value), 0, double(kMaxBytes), "");
  }
  if (v.seed < 0) throw Refused(p + ".seed is " + std::to_string(v.seed) + "; seeds are from 0");
  within(p + ".seconds", v.seconds, 0, kMaxMs, " s");
  if (v.agree + v.mismatch + v.unmeasured != v.patterns) {
    throw Refused(p + ": agree + mismatch + unmeasured is not the number of patterns");
  }
}

}  // namespace

Expected<void> check_recording(Recording& r) {
  try {
    text("recording.created_utc", r.created_utc);
    text("recording.commit", r.commit);
    text("recording.driver", r.driver);
    check_device(r.device, "recording.device");
    for (std::size_t i = 0; i < r.suites.size(); ++i) {
      check_suite(r.suites[i], item("recording", "suites", i));
    }
    check_patterns(r.sweep, "recording.sweep");
    check_patterns(r.lesson, "recording.lesson");
    check_cross_check(r.cross_check);
    check_validate(r.validate);
  } catch (const Refused& refused) {
    return Error{refused.what()};
  }
  return {};
}

bool recording_passes(const Recording& r) {
  bool ok = r.validate.patterns > 0 && r.validate.agree == r.validate.patterns;
  for (const SuiteReport& s : r.suites) {
    for (const VariantResult& v : s.results) ok = ok && v.verified;
  }
  for (const LabelledPatterns* p : {&r.sweep, &r.lesson}) {
    for (const PatternResult& x : p->report.results) ok = ok && x.verified;
  }
  for (const PatternCrossCheck& c : r.cross_check) ok = ok && c.agrees;
  return ok;
}

}  // namespace banklab::record

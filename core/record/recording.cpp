// Recordings as JSON: one list of fields per structure, walked by the writer (the project's
// JsonWriter) and by the reader (core/base/json_fields.hpp, on nlohmann-json), so that every
// field is named once.
//
// [SECTION] The fields
// [SECTION] Writing
// [SECTION] Reading
// [SECTION] The public functions
#include "core/record/recording.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>
#include <utility>

#include "core/base/diagnostic.hpp"
#include "core/base/json_fields.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/access.hpp"
#include "core/model/dtype.hpp"
#include "core/model/hardware.hpp"
#include "core/record/record_fields.hpp"
#include "core/record/recording_check.hpp"

namespace banklab::record {
namespace {

constexpr std::string_view kFormat = "banklab-gpu-recording";
constexpr int kVersion = 1;
constexpr int kMaxDepth = 16;  // a recording nests 5 deep; deeper text is refused unbuilt

std::optional<VariantRole> parse_role(std::string_view text) {
  for (const VariantRole r :
       {VariantRole::roof, VariantRole::teaching, VariantRole::fast, VariantRole::library}) {
    if (role_name(r) == text) return r;
  }
  return std::nullopt;
}

}  // namespace

// [SECTION] The fields
// Outside the unnamed namespace: the readers and writers (record_fields.hpp) find them by
// argument-dependent lookup, in this namespace.
// The fields, in the order the file holds them, as lists of core/base/json_fields.hpp's kinds
// (f(key, field), f.choice, f.object, f.list, f.check) and the lanes of an access. `f` is a
// FieldWriter or a FieldReader. The lists take their structure by reference for the reader's sake;
// the writer walks a copy of what it is given (recording_json(), write_suite_json()).

template <class F>
void fields(F& f, DeviceInfo& d) {
  f("name", d.name);
  f("cc_major", d.cc_major);
  f("cc_minor", d.cc_minor);
  f("sm_count", d.sm_count);
  f("rated_sm_clock_khz", d.sm_clock_khz);
  f("memory_clock_khz", d.memory_clock_khz);
  f("memory_bus_bits", d.memory_bus_bits);
  f("memory_bytes", d.memory_bytes);
  f("shared_memory_per_sm", d.shared_memory_per_sm);
  f("l2_bytes", d.l2_bytes);
}

template <class F>
void fields(F& f, VariantResult& v) {
  f("name", v.name);
  f.choice("role", v.role, role_name, parse_role, "roof, teaching, fast or library");
  f("lesson", v.lesson);
  f("tile", v.tile);
  f("preset", v.preset);
  f("uses_pad", v.uses_pad);
  f("bytes_moved", v.bytes_moved);
  f("ms", v.ms);
  f("ms_min", v.ms_min);
  f("ms_max", v.ms_max);
  f("gbps", v.gbps);
  f("fraction_of_copy", v.fraction_of_copy);
  f("verified", v.verified);
  f("detail", v.detail);
}

template <class F>
void fields(F& f, SuiteReport& r) {
  f.choice("dtype", r.options.dtype, dtype_name, parse_dtype, "fp8, bf16, fp32 or fp64");
  f("rows", r.options.rows);
  f("cols", r.options.cols);
  f("pad", r.options.pad);
  f("repetitions", r.options.repetitions);
  f("measured_sm_clock_mhz", r.sm_clock_mhz);
  f.list("results", r.results);
  f.check([&] {
    return r.results.empty() ? std::string(".results is empty: a suite starts with its copy roof")
                             : std::string();
  });
  f.list("notes", r.notes);
}

template <class F>
void fields(F& f, PatternResult& r) {
  fields(f, r.access);
  f("predicted_wavefronts", r.predicted_wavefronts);
  f("baseline_wavefronts", r.baseline_wavefronts);
  f("warps_per_sm", r.warps_per_sm);
  f("cycles_per_access", r.cycles_per_access);
  f("baseline_cycles_per_access", r.baseline_cycles_per_access);
  f("ns_per_access", r.ns_per_access);
  f("wavefronts_per_clock", r.wavefronts_per_clock);
  f("measured_ratio", r.measured_ratio);
  f("predicted_ratio", r.predicted_ratio);
  f("verified", r.verified);
  f("detail", r.detail);
}

// A pattern row is its label, then its result: labels[i] belongs to report.results[i] (the
// writer's copy has a label for every result, see with_every_label()).
template <class F>
void fields(F& f, LabelledPatterns& p) {
  f("measured_sm_clock_mhz", p.report.sm_clock_mhz);
  std::size_t row = 0;
  f.list("patterns", p.report.results, [&](auto& g, PatternResult& r) {
    if (p.labels.size() <= row) p.labels.resize(row + 1);
    g("label", p.labels[row++]);
    fields(g, r);
  });
}

template <class F>
void fields(F& f, PatternCrossCheck& c) {
  fields(f, c.access);
  f("counted_instructions", c.counted_instructions);
  f("hardware_instructions", c.hardware_instructions);
  f("counted_cycles_per_access", c.counted_cycles_per_access);
  f("hardware_cycles_per_access", c.hardware_cycles_per_access);
  f("hardware_wavefronts", c.hardware_wavefronts);
  f("hardware_wavefronts_per_clock", c.hardware_wavefronts_per_clock);
  f("agrees", c.agrees);
  f("detail", c.detail);
}

template <class F>
void fields(F& f, ValidateTotals& v) {
  f("patterns", v.patterns);
  f("agree", v.agree);
  f("mismatch", v.mismatch);
  f("unmeasured", v.unmeasured);
  f("random_count", v.random_count);
  f("seed", v.seed);
  f("seconds", v.seconds);
}

// After "format" and "version", which the reader checks before anything else.
template <class F>
void fields(F& f, Recording& r) {
  f("created_utc", r.created_utc);
  f("commit", r.commit);
  f("driver", r.driver);
  f.object("device", r.device);
  f.list("suites", r.suites);
  f.object("sweep", r.sweep);
  f.object("lesson", r.lesson);
  f.list("cross_check", r.cross_check);
  f.object("validate", r.validate);
}

namespace {

// [SECTION] Writing

// One structure as a JSON object through its list of fields; the writer walks a copy.
template <class T>
void write_object(JsonWriter& w, T copy) {
  FieldWriter f(w);
  w.begin_object();
  fields(f, copy);
  w.end_object();
}

// Rows without a label get their access as one, as the tables print them.
LabelledPatterns with_every_label(LabelledPatterns p) {
  for (std::size_t i = p.labels.size(); i < p.report.results.size(); ++i) {
    p.labels.push_back(to_string(p.report.results[i].access));
  }
  return p;
}

// [SECTION] Reading
// Reading: every field through the reader (core/base/json_fields.hpp), which names the field's
// path on a mismatch.

using nlohmann::json;

constexpr RecordFormat kRecordingFormat{"GPU recording", "recording", kFormat, kVersion, kMaxDepth};

Recording read_recording(const json& j) {
  FieldReader f = open_record(j, kRecordingFormat);
  Recording r;
  fields(f, r);
  // What a file does not hold: every run in it ran, on its device.
  r.device.availability = Availability::available;
  for (SuiteReport& s : r.suites) {
    s.status = RunStatus::ok;
    s.device = r.device;
  }
  for (PatternReport* p : {&r.sweep.report, &r.lesson.report}) {
    p->status = RunStatus::ok;
    p->device = r.device;
  }
  return r;
}

}  // namespace

// [SECTION] The public functions

void write_suite_json(JsonWriter& w, const SuiteReport& r) {
  write_object(w, r);
}

void write_device_json(JsonWriter& w, const DeviceInfo& d) {
  write_object(w, d);
}

void write_patterns_fields(JsonWriter& w, const LabelledPatterns& p) {
  LabelledPatterns copy = with_every_label(p);
  FieldWriter f(w);
  fields(f, copy);
}

std::string recording_json(const Recording& r) {
  Recording copy = r;
  copy.sweep = with_every_label(std::move(copy.sweep));
  copy.lesson = with_every_label(std::move(copy.lesson));
  std::string out;
  JsonWriter w(out);
  FieldWriter f(w);
  w.begin_object().field("format", kFormat).field("version", kVersion);
  fields(f, copy);
  w.end_object();
  out += '\n';
  return out;
}

Expected<Recording> parse_recording(std::string_view text) {
  return read_record<Recording>(text, kRecordingFormat, [](const json& j) -> Expected<Recording> {
    Recording r = read_recording(j);
    if (const Expected<void> usable = check_recording(r); !usable) {
      return Error{"not a usable BankLab GPU recording: " + usable.error()};
    }
    return r;
  });
}

}  // namespace banklab::record

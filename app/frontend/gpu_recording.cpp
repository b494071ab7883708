// Recordings: written with the project's JsonWriter, read with nlohmann-json, printed as tables.
#include "app/frontend/gpu_recording.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "app/frontend/file_io.hpp"
#include "app/frontend/recording_check.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/analysis.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"

namespace banklab::gpu {
namespace {

constexpr std::string_view kFormat = "banklab-gpu-recording";
constexpr int kVersion = 1;
constexpr int kDecimals = 9;   // every real number: far below what any table prints
constexpr int kMaxDepth = 16;  // a recording nests 5 deep; deeper text is refused unparsed

// ---------------------------------------------------------------------------------------------
// Writing

void write_access(JsonWriter& w, const WarpAccess& a) {
  w.field("op", op_name(a.op)).field("width", a.width).key("offsets").begin_array();
  for (const std::int64_t o : a.offsets) {
    if (o == kInactiveLane) {
      w.null();
    } else {
      w.value(o);
    }
  }
  w.end_array();
}

void write_device(JsonWriter& w, const DeviceInfo& d) {
  w.key("device")
      .begin_object()
      .field("name", d.name)
      .field("cc_major", d.cc_major)
      .field("cc_minor", d.cc_minor)
      .field("sm_count", d.sm_count)
      .field("rated_sm_clock_khz", d.sm_clock_khz)
      .field("memory_clock_khz", d.memory_clock_khz)
      .field("memory_bus_bits", d.memory_bus_bits)
      .field("memory_bytes", d.memory_bytes)
      .field("shared_memory_per_sm", d.shared_memory_per_sm)
      .field("l2_bytes", d.l2_bytes)
      .end_object();
}

}  // namespace

void write_suite_json(JsonWriter& w, const SuiteReport& r) {
  const TransposeOptions& o = r.options;
  w.begin_object()
      .field("dtype", dtype_name(o.dtype))
      .field("rows", o.rows)
      .field("cols", o.cols)
      .field("pad", o.pad)
      .field("repetitions", o.repetitions)
      .field("measured_sm_clock_mhz", r.sm_clock_mhz, kDecimals)
      .key("results")
      .begin_array();
  for (const VariantResult& v : r.results) {
    w.begin_object()
        .field("name", v.name)
        .field("role", role_name(v.role))
        .field("lesson", v.lesson)
        .field("tile", v.tile)
        .field("preset", v.preset)
        .field("uses_pad", v.uses_pad)
        .field("bytes_moved", v.bytes_moved)
        .field("ms", v.ms, kDecimals)
        .field("ms_min", v.ms_min, kDecimals)
        .field("ms_max", v.ms_max, kDecimals)
        .field("gbps", v.gbps, kDecimals)
        .field("fraction_of_copy", v.fraction_of_copy, kDecimals)
        .field("verified", v.verified)
        .field("detail", v.detail)
        .end_object();
  }
  w.end_array().key("notes").begin_array();
  for (const std::string& note : r.notes) w.value(note);
  w.end_array().end_object();
}

namespace {

void write_patterns(JsonWriter& w, const LabelledPatterns& p) {
  w.begin_object()
      .field("measured_sm_clock_mhz", p.report.sm_clock_mhz, kDecimals)
      .key("patterns")
      .begin_array();
  for (std::size_t i = 0; i < p.report.results.size(); ++i) {
    const PatternResult& r = p.report.results[i];
    w.begin_object().field("label", i < p.labels.size() ? p.labels[i] : to_string(r.access));
    write_access(w, r.access);
    w.field("predicted_wavefronts", r.predicted_wavefronts)
        .field("baseline_wavefronts", r.baseline_wavefronts)
        .field("warps_per_sm", r.warps_per_sm)
        .field("cycles_per_access", r.cycles_per_access, kDecimals)
        .field("baseline_cycles_per_access", r.baseline_cycles_per_access, kDecimals)
        .field("ns_per_access", r.ns_per_access, kDecimals)
        .field("wavefronts_per_clock", r.wavefronts_per_clock, kDecimals)
        .field("measured_ratio", r.measured_ratio, kDecimals)
        .field("predicted_ratio", r.predicted_ratio, kDecimals)
        .field("verified", r.verified)
        .field("detail", r.detail)
        .end_object();
  }
  w.end_array().end_object();
}

void write_cross_check(JsonWriter& w, const std::vector<PatternCrossCheck>& checks) {
  w.key("cross_check").begin_array();
  for (const PatternCrossCheck& c : checks) {
    w.begin_object();
    write_access(w, c.access);
    w.field("counted_instructions", c.counted_instructions)
        .field("hardware_instructions", c.hardware_instructions)
        .field("counted_cycles_per_access", c.counted_cycles_per_access, kDecimals)
        .field("hardware_cycles_per_access", c.hardware_cycles_per_access, kDecimals)
        .field("hardware_wavefronts", c.hardware_wavefronts)
        .field("hardware_wavefronts_per_clock", c.hardware_wavefronts_per_clock, kDecimals)
        .field("agrees", c.agrees)
        .field("detail", c.detail)
        .end_object();
  }
  w.end_array();
}

// ---------------------------------------------------------------------------------------------
// Reading: every field through one of these, which name the field's path on a mismatch.

using nlohmann::json;

struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json& at(const json& j, const std::string& path, std::string_view key) {
  if (!j.is_object()) throw Bad(path + " is not an object");
  const auto it = j.find(key);
  if (it == j.end()) throw Bad(path + "." + std::string(key) + " is missing");
  return *it;
}

template <class T>
T get(const json& j, const std::string& path, std::string_view key) {
  const json& v = at(j, path, key);
  const std::string where = path + "." + std::string(key);
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw Bad(where + " is not true or false");
    return v.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) throw Bad(where + " is not a string");
    return v.get<std::string>();
  } else if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number()) throw Bad(where + " is not a number");
    return v.get<double>();
  } else {
    if (!v.is_number_integer()) throw Bad(where + " is not a whole number");
    const auto n = v.get<std::int64_t>();
    if (n < std::int64_t(std::numeric_limits<T>::min()) ||
        (n > 0 && std::uint64_t(n) > std::uint64_t(std::numeric_limits<T>::max()))) {
      throw Bad(where + " is out of range");
    }
    return static_cast<T>(n);
  }
}

const json& array_at(const json& j, const std::string& path, std::string_view key) {
  const json& v = at(j, path, key);
  if (!v.is_array()) throw Bad(path + "." + std::string(key) + " is not a list");
  return v;
}

std::string item(const std::string& path, std::string_view key, std::size_t i) {
  return path + "." + std::string(key) + "[" + std::to_string(i) + "]";
}

WarpAccess read_access(const json& j, const std::string& path) {
  WarpAccess a;
  const auto op = parse_op(get<std::string>(j, path, "op"));
  if (!op) throw Bad(path + ".op is not an op BankLab knows");
  a.op = *op;
  a.width = get<int>(j, path, "width");
  const json& offsets = array_at(j, path, "offsets");
  if (offsets.size() != a.offsets.size()) throw Bad(path + ".offsets does not hold 32 lanes");
  for (std::size_t lane = 0; lane < a.offsets.size(); ++lane) {
    const json& o = offsets[lane];
    if (o.is_null()) {
      a.offsets[lane] = kInactiveLane;
    } else if (o.is_number_integer() && o.get<std::int64_t>() >= 0 &&
               o.get<std::int64_t>() < kSharedMemoryBytes) {
      a.offsets[lane] = o.get<std::int64_t>();
    } else {
      throw Bad(item(path, "offsets", lane) + " is not a byte offset in shared memory or null");
    }
  }
  if (const std::string e = first_error(check_access(a)); !e.empty()) {
    throw Bad(path + " is not a valid access: " + e);
  }
  return a;
}

DeviceInfo read_device(const json& j, const std::string& path) {
  DeviceInfo d;
  d.availability = Availability::available;
  d.name = get<std::string>(j, path, "name");
  d.cc_major = get<int>(j, path, "cc_major");
  d.cc_minor = get<int>(j, path, "cc_minor");
  d.sm_count = get<int>(j, path, "sm_count");
  d.sm_clock_khz = get<int>(j, path, "rated_sm_clock_khz");
  d.memory_clock_khz = get<int>(j, path, "memory_clock_khz");
  d.memory_bus_bits = get<int>(j, path, "memory_bus_bits");
  d.memory_bytes = get<std::uint64_t>(j, path, "memory_bytes");
  d.shared_memory_per_sm = get<int>(j, path, "shared_memory_per_sm");
  d.l2_bytes = get<int>(j, path, "l2_bytes");
  return d;
}

VariantRole read_role(const json& j, const std::string& path) {
  const std::string text = get<std::string>(j, path, "role");
  for (const VariantRole r :
       {VariantRole::roof, VariantRole::teaching, VariantRole::fast, VariantRole::library}) {
    if (role_name(r) == text) return r;
  }
  throw Bad(path + ".role is not roof, teaching, fast or library");
}

SuiteReport read_suite(const json& j, const std::string& path) {
  SuiteReport r;
  r.status = RunStatus::ok;
  const auto dtype = parse_dtype(get<std::string>(j, path, "dtype"));
  if (!dtype) throw Bad(path + ".dtype is not fp8, bf16, fp32 or fp64");
  r.options.dtype = *dtype;
  r.options.rows = get<int>(j, path, "rows");
  r.options.cols = get<int>(j, path, "cols");
  r.options.pad = get<int>(j, path, "pad");
  r.options.repetitions = get<int>(j, path, "repetitions");
  r.sm_clock_mhz = get<double>(j, path, "measured_sm_clock_mhz");
  const json& results = array_at(j, path, "results");
  if (results.empty()) throw Bad(path + ".results is empty: a suite starts with its copy roof");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string p = item(path, "results", i);
    VariantResult& v = r.results.emplace_back();
    v.name = get<std::string>(results[i], p, "name");
    v.role = read_role(results[i], p);
    v.lesson = get<std::string>(results[i], p, "lesson");
    v.tile = get<std::string>(results[i], p, "tile");
    v.preset = get<std::string>(results[i], p, "preset");
    v.uses_pad = get<bool>(results[i], p, "uses_pad");
    v.bytes_moved = get<std::int64_t>(results[i], p, "bytes_moved");
    v.ms = get<double>(results[i], p, "ms");
    v.ms_min = get<double>(results[i], p, "ms_min");
    v.ms_max = get<double>(results[i], p, "ms_max");
    v.gbps = get<double>(results[i], p, "gbps");
    v.fraction_of_copy = get<double>(results[i], p, "fraction_of_copy");
    v.verified = get<bool>(results[i], p, "verified");
    v.detail = get<std::string>(results[i], p, "detail");
  }
  const json& notes = array_at(j, path, "notes");
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (!notes[i].is_string()) throw Bad(item(path, "notes", i) + " is not a string");
    r.notes.push_back(notes[i].get<std::string>());
  }
  return r;
}

LabelledPatterns read_patterns(const json& j, const std::string& path) {
  LabelledPatterns p;
  p.report.status = RunStatus::ok;
  p.report.sm_clock_mhz = get<double>(j, path, "measured_sm_clock_mhz");
  const json& list = array_at(j, path, "patterns");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string q = item(path, "patterns", i);
    const json& x = list[i];
    p.labels.push_back(get<std::string>(x, q, "label"));
    PatternResult& r = p.report.results.emplace_back();
    r.access = read_access(x, q);
    r.predicted_wavefronts = get<int>(x, q, "predicted_wavefronts");
    r.baseline_wavefronts = get<int>(x, q, "baseline_wavefronts");
    r.warps_per_sm = get<int>(x, q, "warps_per_sm");
    r.cycles_per_access = get<double>(x, q, "cycles_per_access");
    r.baseline_cycles_per_access = get<double>(x, q, "baseline_cycles_per_access");
    r.ns_per_access = get<double>(x, q, "ns_per_access");
    r.wavefronts_per_clock = get<double>(x, q, "wavefronts_per_clock");
    r.measured_ratio = get<double>(x, q, "measured_ratio");
    r.predicted_ratio = get<double>(x, q, "predicted_ratio");
    r.verified = get<bool>(x, q, "verified");
    r.detail = get<std::string>(x, q, "detail");
  }
  return p;
}

std::vector<PatternCrossCheck> read_cross_check(const json& j) {
  std::vector<PatternCrossCheck> checks;
  const json& list = array_at(j, "recording", "cross_check");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string q = item("recording", "cross_check", i);
    const json& x = list[i];
    PatternCrossCheck& c = checks.emplace_back();
    c.access = read_access(x, q);
    c.counted_instructions = get<std::int64_t>(x, q, "counted_instructions");
    c.hardware_instructions = get<std::int64_t>(x, q, "hardware_instructions");
    c.counted_cycles_per_access = get<double>(x, q, "counted_cycles_per_access");
    c.hardware_cycles_per_access = get<double>(x, q, "hardware_cycles_per_access");
    c.hardware_wavefronts = get<std::int64_t>(x, q, "hardware_wavefronts");
    c.hardware_wavefronts_per_clock = get<double>(x, q, "hardware_wavefronts_per_clock");
    c.agrees = get<bool>(x, q, "agrees");
    c.detail = get<std::string>(x, q, "detail");
  }
  return checks;
}

ValidateTotals read_validate(const json& j, const std::string& path) {
  ValidateTotals v;
  v.patterns = get<std::int64_t>(j, path, "patterns");
  v.agree = get<std::int64_t>(j, path, "agree");
  v.mismatch = get<std::int64_t>(j, path, "mismatch");
  v.unmeasured = get<std::int64_t>(j, path, "unmeasured");
  v.random_count = get<std::int64_t>(j, path, "random_count");
  v.seed = get<std::int64_t>(j, path, "seed");
  v.seconds = get<double>(j, path, "seconds");
  return v;
}

// Deeper nesting than a recording has is refused before the parser sees it.
bool nests_too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

Recording read_recording(const json& j) {
  const std::string root = "recording";
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != kFormat) {
    throw Bad("it is JSON, but not a BankLab GPU recording (no \"format\": \"" +
              std::string(kFormat) + "\")");
  }
  const int version = get<int>(j, root, "version");
  if (version != kVersion) {
    throw Bad("it is a recording of format version " + std::to_string(version) +
              "; this BankLab reads version " + std::to_string(kVersion));
  }
  Recording r;
  r.created_utc = get<std::string>(j, root, "created_utc");
  r.commit = get<std::string>(j, root, "commit");
  r.driver = get<std::string>(j, root, "driver");
  r.device = read_device(at(j, root, "device"), root + ".device");
  const json& suites = array_at(j, root, "suites");
  for (std::size_t i = 0; i < suites.size(); ++i) {
    r.suites.push_back(read_suite(suites[i], item(root, "suites", i)));
    r.suites.back().device = r.device;
  }
  r.sweep = read_patterns(at(j, root, "sweep"), root + ".sweep");
  r.lesson = read_patterns(at(j, root, "lesson"), root + ".lesson");
  r.sweep.report.device = r.lesson.report.device = r.device;
  r.cross_check = read_cross_check(j);
  r.validate = read_validate(at(j, root, "validate"), root + ".validate");
  return r;
}

std::string two_digits(int n) {
  return format("%02d", n);
}

}  // namespace

std::string recording_json(const Recording& r) {
  std::string out;
  JsonWriter w(out);
  w.begin_object()
      .field("format", kFormat)
      .field("version", kVersion)
      .field("created_utc", r.created_utc)
      .field("commit", r.commit)
      .field("driver", r.driver);
  write_device(w, r.device);
  w.key("suites").begin_array();
  for (const SuiteReport& s : r.suites) write_suite_json(w, s);
  w.end_array();
  w.key("sweep");
  write_patterns(w, r.sweep);
  w.key("lesson");
  write_patterns(w, r.lesson);
  write_cross_check(w, r.cross_check);
  const ValidateTotals& v = r.validate;
  w.key("validate")
      .begin_object()
      .field("patterns", v.patterns)
      .field("agree", v.agree)
      .field("mismatch", v.mismatch)
      .field("unmeasured", v.unmeasured)
      .field("random_count", v.random_count)
      .field("seed", v.seed)
      .field("seconds", v.seconds, kDecimals)
      .end_object();
  w.end_object();
  out += '\n';
  return out;
}

Expected<Recording> parse_recording(std::string_view text) {
  if (nests_too_deep(text)) {
    return Error{"not a BankLab GPU recording: its JSON nests deeper than " +
                 std::to_string(kMaxDepth) + " levels"};
  }
  try {
    const json j = json::parse(text.begin(), text.end());
    Recording r = read_recording(j);
    if (const std::string problem = check_recording(r); !problem.empty()) {
      return Error{"not a usable BankLab GPU recording: " + problem};
    }
    return r;
  } catch (const Bad& bad) {
    return Error{"not a usable BankLab GPU recording: " + std::string(bad.what())};
  } catch (const json::parse_error& e) {
    return Error{"not a BankLab GPU recording: not valid JSON (" + std::string(e.what()) + ")"};
  } catch (const json::exception& e) {
    return Error{"not a usable BankLab GPU recording: " + std::string(e.what())};
  }
}

Expected<Recording> load_recording(const std::filesystem::path& path) {
  const Expected<std::string> text =
      frontend::read_input_file(path.string(), kMaxRecordingBytes, "recording");
  if (!text) return Error{text.error()};
  Expected<Recording> r = parse_recording(*text);
  if (!r) return Error{quote(frontend::input_name(path.string())) + ": " + r.error()};
  return r;
}

std::optional<SharedAccessCost> variant_cost(const VariantResult& r, int pad) {
  if (r.preset.empty()) return std::nullopt;
  const Preset* preset = find_preset(r.preset);
  if (!preset) return std::nullopt;
  Scenario scenario = preset->scenario;
  if (r.uses_pad) scenario.tile.pad = pad;
  const Evaluation e = evaluate(scenario);
  if (!e.ok()) return std::nullopt;
  return SharedAccessCost{r.preset, e.analysis->wavefront_count(), e.analysis->ideal_wavefronts,
                          e.analysis->max_ways};
}

std::optional<ReversalRun> reversal_run(const SuiteReport& suite, const PatternReport* loop) {
  if (!suite.ok() || suite.results.empty() || suite.results.front().role != VariantRole::roof ||
      !suite.results.front().verified) {
    return std::nullopt;
  }
  ReversalRun run;
  run.sm_count = suite.device.sm_count;
  run.lane_bytes = dtype_bytes(suite.options.dtype);
  run.clock_measured = suite.sm_clock_mhz > 0;
  run.clock_mhz = run.clock_measured ? suite.sm_clock_mhz : suite.device.sm_clock_khz / 1000.0;
  run.copy_gbps = suite.results.front().gbps;
  for (const VariantResult& r : suite.results) {
    if (r.role != VariantRole::teaching || !r.verified) continue;
    if (const auto cost = variant_cost(r, suite.options.pad)) {
      run.teaching.push_back({r.name, r.gbps, r.fraction_of_copy, cost->ways});
    }
  }
  if (loop && loop->ok()) {
    for (const PatternResult& p : loop->results) {
      if (p.verified && p.predicted_wavefronts == kBankCount && p.baseline_wavefronts == 1) {
        run.loop_32_way_ratio = p.measured_ratio;
        break;
      }
    }
  }
  return run;
}

std::string driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string word, last;
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ...": the first word made
  // of digits and dots.
  while (in >> word) {
    if (!word.empty() && word.find_first_not_of("0123456789.") == std::string::npos &&
        word.find('.') != std::string::npos) {
      return word;
    }
  }
  return "unknown";
}

std::string build_commit() {
  return BANKLAB_COMMIT;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  return std::to_string(tm.tm_year + 1900) + "-" + two_digits(tm.tm_mon + 1) + "-" +
         two_digits(tm.tm_mday) + "T" + two_digits(tm.tm_hour) + ":" + two_digits(tm.tm_min) + ":" +
         two_digits(tm.tm_sec) + "Z";
}

// ---------------------------------------------------------------------------------------------
// The tables

namespace {

// A text of a recording as the tables print it: its control bytes as \xNN, so that a device
// name or a label from a file cannot set the terminal's title or colours.
std::string printable(std::string_view text) {
  return shown(text, std::string_view::npos);
}

}  // namespace

std::string device_line(const DeviceInfo& d, double measured_mhz) {
  return printable(device_summary(d)) + "; SM clock " + format("%.0f", measured_mhz) +
         " MHz measured during the run\n";
}

void append_suite_text(std::string& out, const SuiteReport& r, const PatternReport* loop) {
  const TransposeOptions& o = r.options;
  const VariantResult& roof = r.results.front();
  out += std::string(dtype_name(o.dtype)) + ", " + std::to_string(o.rows) + " x " +
         std::to_string(o.cols) + ": " +
         format("%.3f", static_cast<double>(roof.bytes_moved) / 1e9) +
         " GB moved per variant (read + write); roof: " + printable(roof.name) + " at " +
         format("%.0f", roof.gbps) + " GB/s\n";
  append_format(out, "  %-18s %9s %9s %9s  %-8s  %s\n", "variant", "GB/s", "of copy", "ms",
                "verified", "shared tile");
  for (const VariantResult& v : r.results) {
    append_format(out, "  %-18s %9.1f %8.1f%% %9.4f  %-8s  %s\n", printable(v.name).c_str(), v.gbps,
                  100 * v.fraction_of_copy, v.ms, v.verified ? "yes" : "WRONG",
                  printable(v.tile).c_str());
    if (!v.verified) out += "    " + printable(v.detail) + "\n";
  }
  for (const std::string& note : r.notes) out += "  (" + printable(note) + ")\n";
  if (const auto run = reversal_run(r, loop)) {
    for (const std::string& line : reversal_lines(run)) out += "  " + printable(line) + "\n";
  }
}

void append_patterns_text(std::string& out, const LabelledPatterns& p) {
  out += "Time per warp-wide instruction per SM, every SM full of warps replaying it:\n";
  append_format(out, "  %-60s %10s %9s %9s %10s %9s %9s  %s\n", "pattern", "wavefronts",
                "clk/instr", "ns/instr", "wf/clock", "measured", "predicted", "verified");
  for (std::size_t i = 0; i < p.report.results.size(); ++i) {
    const PatternResult& r = p.report.results[i];
    const std::string label = printable(i < p.labels.size() ? p.labels[i] : to_string(r.access));
    if (r.verified) {
      append_format(out, "  %-60.60s %10d %9.3f %9.3f %10.3f %8.2fx %8.2fx  yes\n", label.c_str(),
                    r.predicted_wavefronts, r.cycles_per_access, r.ns_per_access,
                    r.wavefronts_per_clock, r.measured_ratio, r.predicted_ratio);
    } else {
      // A wrong row is no result: no figure of it is shown, only why.
      append_format(out, "  %-60.60s %10d %9s %9s %10s %9s %8.2fx  WRONG\n", label.c_str(),
                    r.predicted_wavefronts, "-", "-", "-", "-", r.predicted_ratio);
      out += "    " + printable(r.detail) + "\n";
    }
  }
  out +=
      "  (measured and predicted: against the conflict-free baseline of the same op, width and "
      "lanes)\n";
}

void append_cross_check_text(std::string& out, const std::vector<PatternCrossCheck>& checks) {
  if (checks.empty()) {
    out += "The cross-check against the hardware counters: not part of this recording\n";
    return;
  }
  out +=
      "The microbenchmark's accounting against the hardware counters (CUPTI), one launch per "
      "run:\n";
  append_format(out, "  %-44s %14s %14s %9s %9s %9s  %s\n", "run", "instructions", "(hardware)",
                "clk/instr", "(hw)", "hw wf/clk", "agrees");
  for (const PatternCrossCheck& c : checks) {
    append_format(out, "  %-44.44s %14lld %14lld %9.3f %9.3f %9.3f  %s\n",
                  to_string(c.access).c_str(), static_cast<long long>(c.counted_instructions),
                  static_cast<long long>(c.hardware_instructions), c.counted_cycles_per_access,
                  c.hardware_cycles_per_access, c.hardware_wavefronts_per_clock,
                  c.agrees ? "yes" : "NO");
    if (!c.agrees) out += "    " + printable(c.detail) + "\n";
  }
}

void append_validate_text(std::string& out, const ValidateTotals& v) {
  if (v.patterns == 0) {
    out += "banklab validate: not part of this recording\n";
    return;
  }
  append_format(out,
                "banklab validate (%lld random patterns, seed %lld): %lld patterns, %lld agree, "
                "%lld mismatch, %lld unmeasured: %.2f%% agreement, in %.1f s\n",
                static_cast<long long>(v.random_count), static_cast<long long>(v.seed),
                static_cast<long long>(v.patterns), static_cast<long long>(v.agree),
                static_cast<long long>(v.mismatch), static_cast<long long>(v.unmeasured),
                v.patterns ? 100.0 * double(v.agree) / double(v.patterns) : 0.0, v.seconds);
}

void append_recording_text(std::string& out, const Recording& r) {
  out += "Recorded " + printable(r.created_utc) + " on " + printable(r.device.name) + " (driver " +
         printable(r.driver) + ", BankLab commit " + printable(r.commit) + ")\n";
  const double clock = r.suites.empty() ? r.sweep.report.sm_clock_mhz : r.suites[0].sm_clock_mhz;
  out += device_line(r.device, clock);
  for (const SuiteReport& s : r.suites) append_suite_text(out, s, &r.sweep.report);
  out += "\nThe lesson's sweep:\n";
  append_patterns_text(out, r.sweep);
  out += "\nThe lesson's patterns:\n";
  append_patterns_text(out, r.lesson);
  out += "\n";
  append_cross_check_text(out, r.cross_check);
  out += "\n";
  append_validate_text(out, r.validate);
}

}  // namespace banklab::gpu

// banklab gpu-bench: the GPU suite from the command line (what the GUI's "Run on GPU" runs).
//
//   gpu-bench [--dtype D|all] [--size N|RxC] [--reps R] [--pad P] [--variant NAME] [--json]
//       every transpose variant of each dtype against the same run's copy kernel
//   gpu-bench --pattern <analyze's scenario or raw flags> [--reps R] [--json]
//       the shared-memory microbenchmark for one access against its conflict-free baseline
//   gpu-bench --sweep [--reps R] [--json]
//       the lesson's sweep: float tile[32][S] column reads, 1- to 32-way
//   gpu-bench --record FILE [--size N|RxC] [--reps R]
//       the whole suite (every dtype, the sweep, every preset's pattern with the cross-check
//       against the hardware counters, validate's totals) into one JSON file, then its tables
//   gpu-bench --replay FILE
//       the tables of a recording, exactly as the live run printed them; no GPU needed
//
// Without a usable GPU it prints one line saying why (no device, no driver, not built) and
// exits 1. A variant whose output is wrong is printed as wrong and also makes the exit 1.
//
// [SECTION] The device and errors
// [SECTION] The transpose suite
// [SECTION] The microbenchmark
// [SECTION] Recordings
// [SECTION] The command
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/frontend/file_io.hpp"
#include "app/frontend/gpu_recording.hpp"
#include "app/frontend/recording_text.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/record/recording_check.hpp"
#include "core/validate/corpus.hpp"
#include "core/validate/model_match.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_measure.hpp"

namespace banklab::cli {
namespace {

// The command's flag names, checked against its syntax when compiled (args.hpp).
using Flag = frontend::FlagName<kGpuBench>;

constexpr Flag kSuiteFlags[] = {"size", "variant"};

// [SECTION] The device and errors

// The run did not happen: say why in one line (exit 1 for the environment, 2 for the input).
int not_run(record::RunStatus status, const std::string& error) {
  return status == record::RunStatus::bad_input ? bad_input(error) : failure(error);
}

// [SECTION] The transpose suite

// --size N or RxC: the input matrix.
Expected<Cell> read_size(std::string_view text) {
  if (text.find_first_of("xX") != std::string_view::npos) {
    const Expected<Cell> cell = parse_tile_size(text);
    if (!cell) return Error{"--size: " + cell.error()};
    return cell;
  }
  const Expected<std::int64_t> n = parse_integer(text, "--size", 1, 65536);
  if (!n) return Error{n.error()};
  return Cell{static_cast<int>(*n), static_cast<int>(*n)};
}

// --dtype D or all.
Expected<std::vector<DType>> read_dtypes(std::string_view text) {
  if (text == "all") return std::vector<DType>(std::begin(kAllDTypes), std::end(kAllDTypes));
  if (const auto d = parse_dtype(text)) return std::vector<DType>{*d};
  return Error{"--dtype expects fp8, bf16, fp32, fp64 or all, got '" + std::string(text) + "'"};
}

// Which run the flags ask for.
enum class Form { suite, pattern, sweep, record, replay };

struct GpuBenchOptions {
  Form form = Form::suite;
  std::string file;  // --record FILE, --replay FILE
  // The transpose suite (and --record's).
  Cell size{16384, 16384};
  int reps = 20;  // timed launches a variant; 7 a pattern
  int pad = -1;   // the *-padded variant's pad; -1: the conflict-free one
  std::vector<DType> dtypes{std::begin(kAllDTypes), std::end(kAllDTypes)};
  std::optional<std::string> variant;
  // --pattern: the access, as analyze takes it.
  frontend::ScenarioFlags scenario;
  bool json = false;
};

// The form, every flag checked to belong to it (a flag of another form is an error, never
// silently ignored), then the values.
Expected<GpuBenchOptions> read_options(const frontend::Args& args) {
  GpuBenchOptions o;
  const auto only = [&](std::initializer_list<Flag> allowed,
                        const std::string& message) -> Expected<void> {
    for (const std::string_view flag : args.given()) {
      if (std::find(allowed.begin(), allowed.end(), flag) == allowed.end()) {
        return Error{message + std::string(flag)};
      }
    }
    return {};
  };
  if (args.has(Flag("record")) && args.has(Flag("replay"))) {
    return Error{"--record and --replay are two forms: give one"};
  }
  Expected<void> fits;
  if (args.has(Flag("record"))) {
    o.form = Form::record;
    fits = only({"record", "size", "reps"},
                "--record runs the whole suite and takes only --size and --reps, not --");
  } else if (args.has(Flag("replay"))) {
    o.form = Form::replay;
    fits = only({"replay"}, "--replay prints a recording and takes no other flag, not --");
  } else if (args.has(Flag("pattern")) && args.has(Flag("sweep"))) {
    return Error{"--pattern and --sweep are two forms: give one"};
  } else if (args.has(Flag("pattern")) || args.has(Flag("sweep"))) {
    o.form = args.has(Flag("sweep")) ? Form::sweep : Form::pattern;
    o.reps = 7;
    for (const Flag flag : kSuiteFlags) {
      if (args.has(flag)) {
        return Error{"--" + std::string(flag) +
                     " belongs to the transpose suite, not to --pattern/--sweep"};
      }
    }
    if (o.form == Form::sweep) {
      fits = only({"sweep", "reps", "json"},
                  "--sweep runs a fixed set of patterns and takes only --reps and --json, not --");
    }
  } else {
    // Every scenario flag (core's key table, and --scenario) describes an access, but --dtype
    // and --pad, which the transpose suite reads too.
    const frontend::ScenarioFlags given = frontend::scenario_flags(args);
    if (given.file) return Error{"--scenario describes an access: add --pattern"};
    for (const KeyValue& k : given.keys) {
      if (k.key != "dtype" && k.key != "pad") {
        return Error{"--" + k.key + " describes an access: add --pattern"};
      }
    }
  }
  if (!fits) return Error{fits.error()};
  if (o.form == Form::pattern) o.scenario = frontend::scenario_flags(args);
  frontend::FlagReader<kGpuBench> read(args);
  read.text("record", o.file).text("replay", o.file).flag("json", o.json);
  if (o.form == Form::suite || o.form == Form::record) {
    read.value("size", o.size, read_size)
        .integer("reps", o.reps, 1, 1000)
        .integer("pad", o.pad, -1, 64)
        .value("dtype", o.dtypes, read_dtypes)
        .text("variant", o.variant);
  } else {
    read.integer("reps", o.reps, 1, 1000);
  }
  if (const Expected<void> done = read.done(); !done) return Error{done.error()};
  if (o.variant && o.dtypes.size() != 1) {
    return Error{"--variant names a variant of one dtype: give --dtype too"};
  }
  return o;
}

// The suites the options ask for, one per dtype, every option checked before the GPU is looked
// for: a bad one is the user's to fix on any machine, with or without a GPU.
Expected<std::vector<record::TransposeOptions>> suite_options(const GpuBenchOptions& options) {
  std::vector<record::TransposeOptions> suites;
  for (const DType d : options.dtypes) {
    record::TransposeOptions& o = suites.emplace_back();
    o.dtype = d;
    o.rows = options.size.row;
    o.cols = options.size.col;
    o.repetitions = options.reps;
    o.pad = options.pad;
    if (Expected<void> valid = gpu::check_options(o); !valid) return Error{valid.error()};
    if (const auto& v = options.variant) {
      o.variants.emplace_back(*v);
      // A build without the kernels lists none, and says so when asked to run.
      const std::vector<gpu::VariantInfo> known = gpu::transpose_variants(d);
      if (!known.empty() && std::ranges::find(known, *v, &gpu::VariantInfo::name) == known.end()) {
        std::string names;
        for (const gpu::VariantInfo& k : known)
          names += (names.empty() ? "" : ", ") + std::string(k.name);
        return Error{quote(*v) + " is not a " + std::string(dtype_name(d)) +
                     " variant; the variants are " + names};
      }
    }
  }
  return suites;
}

int run_suite(const GpuBenchOptions& options) {
  const auto asked = suite_options(options);
  if (!asked) return bad_input(asked.error());
  const std::vector<record::TransposeOptions>& suites = *asked;
  std::string out;
  JsonWriter w(out);
  bool all_verified = true;
  bool first = true;
  const bool json = options.json;
  if (json) w.begin_object();
  for (const record::TransposeOptions& o : suites) {
    const record::SuiteReport r = gpu::run_transpose_suite(o);
    if (!r.ok()) return not_run(r.status, r.error);
    if (first) {
      if (json) {
        w.key("device");
        record::write_device_json(w, r.device);  // each suite has its measured clock
        w.key("suites").begin_array();
      } else {
        out += frontend::device_line(r.device, r.sm_clock_mhz);
      }
    }
    if (json) {
      record::write_suite_json(w, r);
    } else {
      frontend::append_suite_text(out, r);
    }
    for (const record::VariantResult& v : r.results) all_verified = all_verified && v.verified;
    first = false;
  }
  if (json) {
    w.end_array().end_object();
    out += '\n';
  }
  print(out);
  return all_verified ? kExitOk : kExitFailure;
}

// [SECTION] The microbenchmark

struct Labelled {
  std::string label;
  WarpAccess access;
};

std::vector<Labelled> sweep_patterns() {
  std::vector<Labelled> sweep;
  for (const WarpAccess& a : gpu::conflict_sweep()) {
    const std::int64_t stride_words = a.offsets[1] / kBankWidthBytes;
    sweep.push_back({"float tile[32][" + std::to_string(stride_words) + "], column read", a});
  }
  return sweep;
}

Expected<std::vector<Labelled>> patterns_from_flags(const GpuBenchOptions& o) {
  if (o.form == Form::sweep) return sweep_patterns();
  if (o.scenario.has(named_key("offsets").name)) {  // the raw form
    const Expected<WarpAccess> a = frontend::access_from_flags(o.scenario);
    if (!a) return Error{a.error()};
    if (const std::string e = first_error(check_access(*a)); !e.empty()) return Error{e};
    return std::vector<Labelled>{{to_string(*a), *a}};
  }
  const Expected<Scenario> s = frontend::scenario_from_flags(o.scenario);
  if (!s) return Error{s.error()};
  const Evaluation e = evaluate(*s);
  if (!e.ok()) return Error{first_error(e.diagnostics)};
  return std::vector<Labelled>{{describe(*s), e.analysis->access}};
}

int run_patterns(const GpuBenchOptions& o) {
  const auto patterns = patterns_from_flags(o);
  if (!patterns) return bad_input(patterns.error());

  std::vector<WarpAccess> accesses;
  for (const Labelled& p : *patterns) accesses.push_back(p.access);
  gpu::PatternOptions options;
  options.repetitions = o.reps;
  const record::PatternReport r = gpu::run_pattern_benchmark(accesses, options);
  if (!r.ok()) return not_run(r.status, r.error);

  record::LabelledPatterns shown{{}, r};
  for (const Labelled& p : *patterns) shown.labels.push_back(p.label);
  bool all_verified = true;
  for (const record::PatternResult& p : r.results) all_verified = all_verified && p.verified;
  std::string out;
  if (o.json) {
    // The device and the patterns with a recording's keys (its "device", and "sweep"/"lesson").
    JsonWriter w(out);
    w.begin_object().key("device");
    record::write_device_json(w, r.device);
    record::write_patterns_fields(w, shown);
    w.end_object();
    out += '\n';
  } else {
    out += frontend::device_line(r.device, r.sm_clock_mhz);
    frontend::append_patterns_text(out, shown);
  }
  print(out);
  return all_verified ? kExitOk : kExitFailure;
}

// [SECTION] Recordings

constexpr std::int64_t kRecordValidateCount = 2000;  // random patterns after the fixed corpus
constexpr std::int64_t kRecordValidateSeed = 1;

record::ValidateTotals validate_totals(std::string& error) {
  record::ValidateTotals v;
  v.random_count = kRecordValidateCount;
  v.seed = kRecordValidateSeed;
  const std::vector<CorpusEntry> corpus = validation_corpus(
      {.random_count = std::size_t(kRecordValidateCount), .seed = kRecordValidateSeed});
  std::vector<WarpAccess> accesses;
  for (const CorpusEntry& e : corpus) accesses.push_back(e.access);
  const auto start = std::chrono::steady_clock::now();
  const auto measured = gpu::measure(accesses);
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!measured) {
    error = "measurement failed: " + measured.error();
    return v;
  }
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const Analysis a = analyze(accesses[i]);
    const ModelMatch match = judge(a.wavefront_count(), a.bank_conflicts(), (*measured)[i]).match;
    ++v.patterns;
    v.agree += match == ModelMatch::agree;
    v.mismatch += match == ModelMatch::disagree;
    v.unmeasured += match == ModelMatch::unmeasured;
  }
  return v;
}

// The lesson's patterns: every preset whose access the microbenchmark can replay.
std::vector<Labelled> lesson_patterns() {
  std::vector<Labelled> lesson;
  for (const Preset& p : presets()) {
    const Evaluation e = evaluate(p.scenario);
    if (e.ok())
      lesson.push_back({std::string(p.name) + ": " + describe(p.scenario), e.analysis->access});
  }
  return lesson;
}

// Runs one microbenchmark set; the cross-check (when asked) runs it under the counters.
Expected<record::LabelledPatterns> run_labelled(const std::vector<Labelled>& patterns, int reps,
                                                std::vector<record::PatternCrossCheck>* checks) {
  std::vector<WarpAccess> accesses;
  record::LabelledPatterns run;
  for (const Labelled& p : patterns) {
    accesses.push_back(p.access);
    run.labels.push_back(p.label);
  }
  gpu::PatternOptions options;
  options.repetitions = reps;
  if (checks) {
    auto checked = gpu::cross_check_patterns(accesses, options);
    if (!checked)
      return Error{"the cross-check against the hardware counters failed: " + checked.error()};
    run.report = std::move(checked->benchmark);
    *checks = std::move(checked->runs);
  } else {
    run.report = gpu::run_pattern_benchmark(accesses, options);
    if (!run.report.ok()) return Error{run.report.error};
  }
  return run;
}

int record(const GpuBenchOptions& options) {
  const std::string& file = options.file;
  const auto suites = suite_options(options);
  if (!suites) return bad_input(suites.error());
  record::Recording r;
  r.device = gpu::query_device();
  if (!r.device.ok()) return failure(r.device.detail);
  r.created_utc = frontend::utc_now();
  r.commit = frontend::build_commit();
  r.driver = frontend::driver_version();
  for (const record::TransposeOptions& o : *suites) {
    std::fprintf(stderr, "banklab: recording the %s transposes\n",
                 std::string(dtype_name(o.dtype)).c_str());
    record::SuiteReport s = gpu::run_transpose_suite(o);
    if (!s.ok()) return not_run(s.status, s.error);
    r.suites.push_back(std::move(s));
  }
  std::fprintf(stderr, "banklab: recording the sweep, the lesson's patterns and the cross-check\n");
  auto sweep = run_labelled(sweep_patterns(), 9, nullptr);
  if (!sweep) return failure(sweep.error());
  auto lesson = run_labelled(lesson_patterns(), 7, &r.cross_check);
  if (!lesson) return failure(lesson.error());
  r.sweep = std::move(*sweep);
  r.lesson = std::move(*lesson);
  std::fprintf(stderr, "banklab: recording validate's totals\n");
  std::string error;
  r.validate = validate_totals(error);
  if (!error.empty()) return failure(error);

  const std::string json = record::recording_json(r);
  if (frontend::is_standard_stream(file)) {  // `-`: the recording is the output
    print(json);
    return record::recording_passes(r) ? kExitOk : kExitFailure;
  }
  if (const Expected<void> saved = frontend::replace_file(file, json); !saved)
    return failure(saved.error());
  // What is printed is what was written, read back: a replay prints the same tables.
  const Expected<record::Recording> written = record::parse_recording(json);
  if (!written) return failure("the recording just written does not read back: " + written.error());
  std::string text;
  frontend::append_recording_text(text, *written);
  text += "(recorded in " + file + ")\n";
  print(text);
  return record::recording_passes(*written) ? kExitOk : kExitFailure;
}

int replay(const GpuBenchOptions& o) {
  const Expected<record::Recording> r = frontend::load_recording(o.file);
  if (!r) return bad_input(r.error());
  std::string text;
  frontend::append_recording_text(text, *r);
  print(text);
  // As the run that recorded it: a result that failed its check is a failed run.
  if (!record::recording_passes(*r)) {
    return failure(
        "the recording holds a failed check: a row marked WRONG or NO above, or "
        "validate's mismatches");
  }
  return kExitOk;
}

}  // namespace

// [SECTION] The command

int run_gpu_bench(const frontend::Args& args) {
  const Expected<GpuBenchOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  switch (o->form) {
    case Form::record:
      return record(*o);
    case Form::replay:
      return replay(*o);
    case Form::pattern:
    case Form::sweep:
      return run_patterns(*o);
    case Form::suite:
      return run_suite(*o);
  }
  return kExitFailure;  // every form is handled above
}

}  // namespace banklab::cli

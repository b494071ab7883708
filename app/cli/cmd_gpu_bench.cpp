// banklab gpu-bench: the GPU suite from the command line (what the GUI's "Run on GPU" runs).
//
//   gpu-bench [--dtype D|all] [--size N|RxC] [--reps R] [--pad P] [--variant NAME] [--json]
//       every transpose variant of each dtype against the same run's copy kernel
//   gpu-bench --pattern <analyze's scenario or raw flags> [--reps R] [--json]
//       the shared-memory microbenchmark for one access against its conflict-free baseline
//   gpu-bench --sweep [--reps R] [--json]
//       the lesson's sweep: float tile[32][S] column reads, 1- to 32-way
//
// Without a usable GPU it prints one line saying why (no device, no driver, not built) and
// exits 1. A variant whose output is wrong is printed as wrong and also makes the exit 1.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "banklab/format.hpp"
#include "banklab/gpu_bench.hpp"
#include "banklab/json_writer.hpp"
#include "commands.hpp"

namespace banklab::cli {
namespace {

constexpr std::string_view kPatternFlags[] = {"scenario", "preset", "tile", "swizzle", "access",
                                              "index",    "width",  "op",   "lanes",   "offsets"};
constexpr std::string_view kSuiteFlags[] = {"size", "variant"};

std::string device_line(const gpu::DeviceInfo& d, double measured_mhz) {
  return gpu::device_summary(d) + "; SM clock " + format("%.0f", measured_mhz) +
         " MHz measured during the run\n";
}

void write_device(JsonWriter& w, const gpu::DeviceInfo& d, double measured_mhz) {
  w.key("device")
      .begin_object()
      .field("name", d.name)
      .field("sm_count", d.sm_count)
      .field("rated_sm_clock_mhz", d.sm_clock_khz / 1000)
      .field("measured_sm_clock_mhz", measured_mhz, 1)
      .field("memory_bytes", d.memory_bytes)
      .end_object();
}

// The run did not happen: say why in one line (exit 1 for the environment, 2 for the input).
int not_run(gpu::RunStatus status, const std::string& error) {
  return status == gpu::RunStatus::bad_input ? bad_input(error) : failure(error);
}

// ---------------------------------------------------------------------------------------------
// The transpose suite

Expected<std::pair<int, int>> parse_size(const Args& args) {
  const auto text = args.value("size");
  if (!text) return std::pair{16384, 16384};
  if (text->find_first_of("xX") != std::string_view::npos) {
    const Expected<Cell> cell = parse_tile_size(*text);
    if (!cell) return Error{"--size: " + cell.error()};
    return std::pair{cell->row, cell->col};
  }
  const Expected<std::int64_t> n = parse_integer(*text, "--size", 1, 65536);
  if (!n) return Error{n.error()};
  return std::pair{static_cast<int>(*n), static_cast<int>(*n)};
}

void append_suite_text(std::string& out, const gpu::SuiteReport& r) {
  const gpu::TransposeOptions& o = r.options;
  const gpu::VariantResult& roof = r.results.front();
  out += std::string(dtype_name(o.dtype)) + ", " + std::to_string(o.rows) + " x " +
         std::to_string(o.cols) + ": " +
         format("%.3f", static_cast<double>(roof.bytes_moved) / 1e9) +
         " GB moved per variant (read + write); roof: " + roof.name + " at " +
         format("%.0f", roof.gbps) + " GB/s\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-18s %9s %9s %9s  %-8s  %s\n", "variant", "GB/s", "of copy",
                "ms", "verified", "shared tile");
  out += line;
  for (const gpu::VariantResult& v : r.results) {
    std::snprintf(line, sizeof line, "  %-18s %9.1f %8.1f%% %9.4f  %-8s  %s\n", v.name.c_str(),
                  v.gbps, 100 * v.fraction_of_copy, v.ms, v.verified ? "yes" : "WRONG",
                  v.tile.c_str());
    out += line;
    if (!v.verified) out += "    " + v.detail + "\n";
  }
  for (const std::string& note : r.notes) out += "  (" + note + ")\n";
}

void write_suite(JsonWriter& w, const gpu::SuiteReport& r) {
  const gpu::TransposeOptions& o = r.options;
  w.begin_object()
      .field("dtype", dtype_name(o.dtype))
      .field("rows", o.rows)
      .field("cols", o.cols)
      .field("pad", o.pad)
      .field("repetitions", o.repetitions)
      .field("measured_sm_clock_mhz", r.sm_clock_mhz, 1)
      .key("results")
      .begin_array();
  for (const gpu::VariantResult& v : r.results) {
    w.begin_object()
        .field("name", v.name)
        .field("role", gpu::role_name(v.role))
        .field("lesson", v.lesson)
        .field("tile", v.tile)
        .field("bytes_moved", v.bytes_moved)
        .field("ms", v.ms, 6)
        .field("ms_min", v.ms_min, 6)
        .field("ms_max", v.ms_max, 6)
        .field("gbps", v.gbps, 2)
        .field("fraction_of_copy", v.fraction_of_copy, 5)
        .field("verified", v.verified)
        .field("detail", v.detail)
        .end_object();
  }
  w.end_array().key("notes").begin_array();
  for (const std::string& note : r.notes) w.value(note);
  w.end_array().end_object();
}

int run_suite(const Args& args) {
  const auto size = parse_size(args);
  if (!size) return bad_input(size.error());
  const Expected<std::int64_t> reps = args.integer("reps", 20, 1, 1000);
  if (!reps) return bad_input(reps.error());
  const Expected<std::int64_t> pad = args.integer("pad", -1, -1, 64);
  if (!pad) return bad_input(pad.error());

  std::vector<DType> dtypes;
  const std::string_view dtype_text = args.value("dtype").value_or("all");
  if (dtype_text == "all") {
    dtypes.assign(std::begin(kAllDTypes), std::end(kAllDTypes));
  } else if (const auto d = parse_dtype(dtype_text)) {
    dtypes.push_back(*d);
  } else {
    return bad_input("--dtype expects fp8, bf16, fp32, fp64 or all, got '" +
                     std::string(dtype_text) + "'");
  }
  if (args.has("variant") && dtypes.size() != 1) {
    return bad_input("--variant names a variant of one dtype: give --dtype too");
  }

  std::string out;
  JsonWriter w(out);
  bool all_verified = true;
  bool first = true;
  const bool json = args.has("json");
  if (json) w.begin_object();
  // Every option is checked before the GPU is looked for: a bad one is the user's to fix on
  // any machine, with or without a GPU.
  std::vector<gpu::TransposeOptions> suites;
  for (const DType d : dtypes) {
    gpu::TransposeOptions& o = suites.emplace_back();
    o.dtype = d;
    o.rows = size->first;
    o.cols = size->second;
    o.repetitions = static_cast<int>(*reps);
    o.pad = static_cast<int>(*pad);
    if (const std::string rule = gpu::check_options(o); !rule.empty()) return bad_input(rule);
    if (const auto v = args.value("variant")) {
      o.variants.emplace_back(*v);
      // A build without the kernels lists none, and says so when asked to run.
      const std::vector<gpu::VariantInfo> known = gpu::transpose_variants(d);
      if (!known.empty() && std::ranges::find(known, *v, &gpu::VariantInfo::name) == known.end()) {
        std::string names;
        for (const gpu::VariantInfo& k : known)
          names += (names.empty() ? "" : ", ") + std::string(k.name);
        return bad_input(quote(*v) + " is not a " + std::string(dtype_name(d)) +
                         " variant; the variants are " + names);
      }
    }
  }
  for (const gpu::TransposeOptions& o : suites) {
    const gpu::SuiteReport r = gpu::run_transpose_suite(o);
    if (!r.ok()) return not_run(r.status, r.error);
    if (first) {
      if (json) {
        write_device(w, r.device, r.sm_clock_mhz);
        w.key("suites").begin_array();
      } else {
        out += device_line(r.device, r.sm_clock_mhz);
      }
    }
    if (json) {
      write_suite(w, r);
    } else {
      append_suite_text(out, r);
    }
    for (const gpu::VariantResult& v : r.results) all_verified = all_verified && v.verified;
    first = false;
  }
  if (json) {
    w.end_array().end_object();
    out += '\n';
  }
  print(out);
  return all_verified ? kExitOk : kExitFailure;
}

// ---------------------------------------------------------------------------------------------
// The microbenchmark

struct Labelled {
  std::string label;
  WarpAccess access;
};

Expected<std::vector<Labelled>> patterns_from_flags(const Args& args) {
  if (args.has("sweep")) {
    std::vector<Labelled> sweep;
    for (const WarpAccess& a : gpu::conflict_sweep()) {
      const std::int64_t stride_words = a.offsets[1] / kBankWidthBytes;
      sweep.push_back({"float tile[32][" + std::to_string(stride_words) + "], column read", a});
    }
    return sweep;
  }
  if (args.has("offsets")) {
    const Expected<WarpAccess> a = access_from_flags(args);
    if (!a) return Error{a.error()};
    if (const std::string e = first_error(check_access(*a)); !e.empty()) return Error{e};
    return std::vector<Labelled>{{to_string(*a), *a}};
  }
  const Expected<Scenario> s = scenario_from_flags(args);
  if (!s) return Error{s.error()};
  const Evaluation e = evaluate(*s);
  if (!e.ok()) return Error{first_error(e.diagnostics)};
  return std::vector<Labelled>{{describe(*s), e.analysis->access}};
}

int run_patterns(const Args& args) {
  for (const std::string_view flag : kSuiteFlags) {
    if (args.has(flag))
      return bad_input("--" + std::string(flag) +
                       " belongs to the transpose suite, not to --pattern/--sweep");
  }
  if (args.has("sweep")) {
    for (const std::string_view flag : args.given()) {
      if (flag != "sweep" && flag != "reps" && flag != "json") {
        return bad_input(
            "--sweep runs a fixed set of patterns and takes only --reps and --json, not --" +
            std::string(flag));
      }
    }
  }
  const auto patterns = patterns_from_flags(args);
  if (!patterns) return bad_input(patterns.error());
  const Expected<std::int64_t> reps = args.integer("reps", 7, 1, 1000);
  if (!reps) return bad_input(reps.error());

  std::vector<WarpAccess> accesses;
  for (const Labelled& p : *patterns) accesses.push_back(p.access);
  gpu::PatternOptions options;
  options.repetitions = static_cast<int>(*reps);
  const gpu::PatternReport r = gpu::run_pattern_benchmark(accesses, options);
  if (!r.ok()) return not_run(r.status, r.error);

  std::string out;
  bool all_verified = true;
  if (args.has("json")) {
    JsonWriter w(out);
    w.begin_object();
    write_device(w, r.device, r.sm_clock_mhz);
    w.key("patterns").begin_array();
    for (std::size_t i = 0; i < r.results.size(); ++i) {
      const gpu::PatternResult& p = r.results[i];
      w.begin_object()
          .field("label", (*patterns)[i].label)
          .field("access", to_string(p.access))
          .field("predicted_wavefronts", p.predicted_wavefronts)
          .field("baseline_wavefronts", p.baseline_wavefronts)
          .field("warps_per_sm", p.warps_per_sm)
          .field("cycles_per_access", p.cycles_per_access, 4)
          .field("baseline_cycles_per_access", p.baseline_cycles_per_access, 4)
          .field("ns_per_access", p.ns_per_access, 4)
          .field("wavefronts_per_clock", p.wavefronts_per_clock, 4)
          .field("measured_ratio", p.measured_ratio, 4)
          .field("predicted_ratio", p.predicted_ratio, 4)
          .field("verified", p.verified)
          .field("detail", p.detail)
          .end_object();
      all_verified = all_verified && p.verified;
    }
    w.end_array().end_object();
    out += '\n';
  } else {
    out += device_line(r.device, r.sm_clock_mhz);
    out += "Time per warp-wide instruction per SM, every SM full of warps replaying it:\n";
    char line[320];
    std::snprintf(line, sizeof line, "  %-60s %10s %9s %9s %10s %9s %9s  %s\n", "pattern",
                  "wavefronts", "clk/instr", "ns/instr", "wf/clock", "measured", "predicted",
                  "verified");
    out += line;
    for (std::size_t i = 0; i < r.results.size(); ++i) {
      const gpu::PatternResult& p = r.results[i];
      std::snprintf(line, sizeof line, "  %-60.60s %10d %9.3f %9.3f %10.3f %8.2fx %8.2fx  %s\n",
                    (*patterns)[i].label.c_str(), p.predicted_wavefronts, p.cycles_per_access,
                    p.ns_per_access, p.wavefronts_per_clock, p.measured_ratio, p.predicted_ratio,
                    p.verified ? "yes" : "WRONG");
      out += line;
      if (!p.verified) out += "    " + p.detail + "\n";
      all_verified = all_verified && p.verified;
    }
    out +=
        "  (measured and predicted: against the conflict-free baseline of the same op, width and "
        "lanes)\n";
  }
  print(out);
  return all_verified ? kExitOk : kExitFailure;
}

}  // namespace

int run_gpu_bench(const Args& args) {
  if (args.has("pattern") && args.has("sweep")) {
    return bad_input("--pattern and --sweep are two forms: give one");
  }
  if (args.has("pattern") || args.has("sweep")) return run_patterns(args);
  for (const std::string_view flag : kPatternFlags) {
    if (args.has(flag)) {
      return bad_input("--" + std::string(flag) + " describes an access: add --pattern");
    }
  }
  return run_suite(args);
}

}  // namespace banklab::cli

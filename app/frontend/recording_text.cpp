// The tables of a GPU run, and what the lesson says about a suite, from the core's model.
#include "app/frontend/recording_text.hpp"

#include "core/base/format.hpp"
#include "core/model/analysis.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"

namespace banklab::frontend {

using namespace record;  // the recording's structures (core/record/)

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

}  // namespace banklab::frontend

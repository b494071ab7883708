#include "gpu_panel.hpp"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <ctime>

#include "banklab/format.hpp"
#include "banklab/hardware.hpp"
#include "banklab/presets.hpp"

namespace banklab::gui {
namespace {

std::string wall_clock_now() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[16];
  std::strftime(text, sizeof text, "%H:%M:%S", &local);
  return text;
}

RunRecord* find_run(GpuPanel& p, int id) {
  const auto it = std::find_if(p.runs.begin(), p.runs.end(),
                               [id](const RunRecord& r) { return r.id == id; });
  return it == p.runs.end() ? nullptr : &*it;
}

// The shared-memory access a teaching kernel performs is its preset's, with the pad the run
// used when the kernel's tile is the padded one.
std::optional<SharedAccessCost> variant_cost(const gpu::VariantInfo& info, int pad) {
  if (info.preset.empty()) return std::nullopt;
  const Preset* preset = find_preset(info.preset);
  if (!preset) return std::nullopt;
  Scenario scenario = preset->scenario;
  if (info.uses_pad) scenario.tile.pad = pad;
  const Evaluation e = evaluate(scenario);
  if (!e.ok()) return std::nullopt;
  SharedAccessCost cost;
  cost.preset = std::string(info.preset);
  cost.wavefronts = e.analysis->wavefront_count();
  cost.ideal = e.analysis->ideal_wavefronts;
  cost.ways = e.analysis->max_ways;
  return cost;
}

void attach_costs(RunRecord& run, const GpuBackend& backend) {
  run.costs.clear();
  const gpu::SuiteReport& suite = *run.suite;
  const std::vector<gpu::VariantInfo> table = backend.variants(suite.options.dtype);
  for (const gpu::VariantResult& r : suite.results) {
    const auto info = std::find_if(table.begin(), table.end(),
                                   [&](const gpu::VariantInfo& v) { return v.name == r.name; });
    run.costs.push_back(info == table.end() ? std::nullopt
                                            : variant_cost(*info, suite.options.pad));
  }
}

// The lesson's figures, used when the run has no measurement of its own to offer.
constexpr double kLessonSharedTbps = 29.0;  // 132 SMs x 128 B/clock at 1.7 GHz
constexpr double kLessonHbmTbps = 3.35;     // HBM3 of an H100 SXM
// End-to-end slowdowns below this are within run-to-run noise: the conflict is hidden.
constexpr double kVisibleSlowdown = 1.10;

}  // namespace

std::string fixed(double value, int decimals) {
  return format("%.*f", decimals, value);
}

// --------------------------------------------------------------------------------------------
// Results coming back.

void poll(GpuPanel& p) {
  if (!p.worker) {
    p.worker = std::make_unique<GpuWorker>(p.backend);
    p.worker->submit(DeviceJob{});
  }
  for (GpuResult& result : p.worker->drain()) apply(p, std::move(result));
}

void apply(GpuPanel& p, GpuResult result) {
  struct Apply {
    GpuPanel& p;
    void operator()(DeviceDone& d) {
      p.device = std::move(d.device);
      p.measure_support = std::move(d.measure);
    }
    void operator()(SuiteDone& d) {
      // A run that found no GPU tells the panel what state the GPU is in now.
      if (d.report.status == gpu::RunStatus::unavailable) p.device = d.report.device;
      RunRecord* run = find_run(p, d.run);
      if (!run) return;
      run->suite = std::move(d.report);
      attach_costs(*run, p.backend);
      run->reversal = reversal_lines(*run);
    }
    void operator()(PatternsDone& d) {
      RunRecord* run = find_run(p, d.run);
      if (!run) return;
      run->patterns = std::move(d.report);
      run->reversal = reversal_lines(*run);
    }
    void operator()(MeasureDone& d) {
      if (!p.measurement || p.measurement->id != d.measurement) return;
      MeasureRecord& m = *p.measurement;
      m.done = true;
      if (!d.result) {
        m.error = d.result.error();
      } else if (d.result->size() != 1) {
        m.error = "measure() returned " + std::to_string(d.result->size()) +
                  " measurements for the one access asked";
      } else {
        m.measured = std::move(d.result->front());
      }
    }
  };
  std::visit(Apply{p}, result);
}

// --------------------------------------------------------------------------------------------
// Starting jobs.

std::string run_blocker(const GpuPanel& p) {
  if (!p.worker) return "the GPU worker has not started yet";
  if (p.worker->busy()) return "a GPU job is running; wait for it or cancel it";
  if (!p.device) return "still asking the driver which GPU is there";
  if (!p.device->ok()) return "no GPU to run on: " + device_summary(*p.device);
  return {};
}

std::string measure_blocker(const GpuPanel& p) {
  if (std::string why = run_blocker(p); !why.empty()) return why;
  if (!p.measure_support || !p.measure_support->ok) {
    return "this GPU cannot be measured here: " +
           (p.measure_support ? p.measure_support->reason : std::string("not known yet"));
  }
  return {};
}

std::string start_run(GpuPanel& p, const Scenario& current) {
  if (std::string why = run_blocker(p); !why.empty()) return why;
  RunRecord run;
  run.id = p.next_id;
  run.started = wall_clock_now();
  run.options.dtype = current.tile.dtype;
  run.options.rows = run.options.cols = p.side;
  run.options.repetitions = p.repetitions;
  // The padded teaching kernel uses the pad on screen; a tile without one gets the dtype's
  // smallest conflict-free pad.
  run.options.pad = current.tile.pad > 0 ? current.tile.pad : -1;
  if (std::string why = gpu::check_options(run.options); !why.empty()) {
    return "cannot run the transpose suite for the tile on screen: " + why;
  }
  run.pattern = describe(current);

  RunJob job;
  job.run = run.id;
  job.suite = run.options;
  const Expected<WarpAccess> access = build_access(current, nullptr, nullptr);
  if (access) {
    job.patterns.push_back(*access);
    run.pattern_included = true;
  } else {
    run.pattern_skipped = access.error();
  }
  for (const WarpAccess& a : gpu::conflict_sweep()) job.patterns.push_back(a);

  if (!p.worker->submit(std::move(job))) return "a GPU job is running; wait for it or cancel it";
  ++p.next_id;
  p.runs.push_back(std::move(run));
  p.selected_run = static_cast<int>(p.runs.size()) - 1;
  p.show_tab = GpuTab::transpose;
  return {};
}

std::string start_measure(GpuPanel& p, const Scenario& current) {
  if (std::string why = measure_blocker(p); !why.empty()) return why;
  const Expected<WarpAccess> access = build_access(current, nullptr, nullptr);
  if (!access) return "the pattern on screen cannot be measured: " + access.error();

  MeasureRecord m;
  m.id = p.next_id;
  m.scenario = current;
  m.pattern = describe(current);
  m.access = *access;
  const Analysis predicted = analyze(m.access);
  m.predicted_wavefronts = predicted.wavefront_count();
  m.predicted_ideal = predicted.ideal_wavefronts;
  m.predicted_conflicts = predicted.bank_conflicts();

  if (!p.worker->submit(MeasureJob{m.id, {m.access}})) {
    return "a GPU job is running; wait for it or cancel it";
  }
  ++p.next_id;
  p.measurement = std::move(m);
  p.show_tab = GpuTab::measure;
  return {};
}

void cancel(GpuPanel& p) {
  if (p.worker) p.worker->cancel();
}

// --------------------------------------------------------------------------------------------
// What the panel says.

Agreement compare(const MeasureRecord& m) {
  Agreement a;
  if (!m.done) return a;
  a.verdict = Agreement::Verdict::failed;
  const gpu::Measurement& hw = m.measured;
  if (!m.error.empty()) {
    a.message = "the measurement failed: " + m.error;
  } else if (!hw.ok) {
    a.message = "the hardware could not measure this access: " + hw.error;
  } else if (hw.instructions != 1) {
    a.message = "the counters saw " + std::to_string(hw.instructions) +
                " shared-memory instructions of the measured class, not 1, so they do not "
                "isolate this access";
  } else if (!hw.verified) {
    a.message = "the bytes the instruction moved differ from the CPU replay, so the counts are "
                "not of this access";
  } else if (hw.wavefronts != m.predicted_wavefronts ||
             hw.bank_conflicts != m.predicted_conflicts) {
    a.verdict = Agreement::Verdict::disagree;
    a.message = "DISAGREEMENT: the model predicts " + std::to_string(m.predicted_wavefronts) +
                " wavefronts and " + std::to_string(m.predicted_conflicts) +
                " bank conflicts; the hardware counted " + std::to_string(hw.wavefronts) +
                " wavefronts and " + std::to_string(hw.bank_conflicts) + " bank conflicts";
  } else {
    a.verdict = Agreement::Verdict::agree;
    a.message = "the hardware agrees: " + std::to_string(hw.wavefronts) + " wavefronts, " +
                std::to_string(hw.bank_conflicts) + " bank conflicts";
  }
  return a;
}

// The model behind the sentences: the whole GPU's shared memory serves SMs x 128 B per clock.
// A transpose's column read with a k-way conflict is served at 1/k of that, and the kernel runs
// at HBM speed for as long as that stays above the copy roof: up to k = shared / copy.
std::vector<std::string> reversal_lines(const RunRecord& run) {
  std::vector<std::string> lines;
  const bool measured = run.suite && run.suite->ok() && !run.suite->results.empty() &&
                        run.suite->results.front().role == gpu::VariantRole::roof &&
                        run.suite->results.front().verified;
  if (!measured) {
    lines.push_back(
        "The reversal condition: a large transpose is bound by HBM, not by shared memory. "
        "132 SMs x 128 B per clock at 1.7 GHz is about " + fixed(kLessonSharedTbps, 0) +
        " TB/s of shared memory against " + fixed(kLessonHbmTbps, 2) +
        " TB/s of HBM3, so a 2-way conflict (about " + fixed(kLessonSharedTbps / 2, 1) +
        " TB/s left) hides behind HBM, and a 32-way one (under 1 TB/s) does not.");
    lines.push_back("Run on GPU to see it with this GPU's numbers.");
    return lines;
  }
  const gpu::SuiteReport& suite = *run.suite;
  assert(run.costs.size() == suite.results.size() && "attach_costs() runs before the sentences");
  const gpu::DeviceInfo& d = suite.device;
  const bool clock_measured = suite.sm_clock_mhz > 0;
  const double clock_mhz = clock_measured ? suite.sm_clock_mhz : d.sm_clock_khz / 1000.0;
  const double shared_gbps = double(d.sm_count) * kWavefrontBytes * clock_mhz / 1000.0;
  const double copy_gbps = suite.results.front().gbps;
  const double hidden_up_to = copy_gbps > 0 ? shared_gbps / copy_gbps : 0;
  lines.push_back("Shared memory: " + std::to_string(d.sm_count) + " SMs x " +
                  std::to_string(kWavefrontBytes) + " B per clock at " + fixed(clock_mhz, 0) +
                  " MHz (" + (clock_measured ? "measured during the run" : "rated") + ") = " +
                  fixed(shared_gbps / 1000, 1) + " TB/s. This run's copy roof: " +
                  fixed(copy_gbps / 1000, 2) + " TB/s.");
  lines.push_back("A k-way conflict on the column read leaves the shared-memory side " +
                  fixed(shared_gbps / 1000, 1) + "/k TB/s: above the copy roof up to about k = " +
                  fixed(hidden_up_to, 1) +
                  ", where HBM hides it; beyond that the banks set the time.");

  // The teaching variants by predicted conflict: the fastest conflict-free one as the baseline,
  // the worst conflict, and the worst one the model expects HBM to hide.
  const gpu::VariantResult* clean = nullptr;
  const gpu::VariantResult* worst = nullptr;
  int worst_ways = 1;
  const gpu::VariantResult* mild = nullptr;
  int mild_ways = 1;
  for (std::size_t i = 0; i < suite.results.size(); ++i) {
    const gpu::VariantResult& r = suite.results[i];
    if (r.role != gpu::VariantRole::teaching || !r.verified || !run.costs[i]) continue;
    const int ways = run.costs[i]->ways;
    if (ways <= 1 && (!clean || r.gbps > clean->gbps)) clean = &r;
    if (ways > worst_ways) {
      worst = &r;
      worst_ways = ways;
    }
    if (ways > 1 && ways < hidden_up_to && ways > mild_ways) {
      mild = &r;
      mild_ways = ways;
    }
  }
  if (!clean) return lines;
  // What the model expects, then what the run shows: a slowdown under kVisibleSlowdown is
  // within the noise of an end-to-end timing, i.e. hidden.
  const auto versus = [&](const gpu::VariantResult& r, int ways) {
    const double slowdown = clean->gbps / r.gbps;
    return r.name + " (" + std::to_string(ways) + "-way; the model says " +
           (ways < hidden_up_to ? "HBM hides it" : "it shows") + "): " + fixed(r.gbps, 0) +
           " GB/s, " + fixed(100 * r.fraction_of_copy, 0) + "% of copy, " +
           fixed(slowdown, 2) + "x the time of the conflict-free " + clean->name + " (" +
           fixed(clean->gbps, 0) + " GB/s): " +
           (slowdown < kVisibleSlowdown ? "hidden." : "it shows.");
  };
  if (worst && worst != mild) lines.push_back(versus(*worst, worst_ways));
  if (mild) lines.push_back(versus(*mild, mild_ways));
  if (run.patterns && run.patterns->ok()) {
    const auto& results = run.patterns->results;
    const auto k32 = std::find_if(results.begin(), results.end(), [](const gpu::PatternResult& r) {
      return r.verified && r.predicted_wavefronts == kBankCount && r.baseline_wavefronts == 1;
    });
    if (k32 != results.end()) {
      lines.push_back("In the shared-memory-bound loop, with no HBM to hide behind, the 32-way "
                      "read takes " + fixed(k32->measured_ratio, 1) +
                      "x the conflict-free time (predicted 32x).");
    }
  }
  return lines;
}

}  // namespace banklab::gui

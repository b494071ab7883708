#include "app/gui/state/gpu_state.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string_view>
#include <utility>

#include "app/frontend/file_io.hpp"
#include "core/base/data_dir.hpp"
#include "core/base/format.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"
#include "core/validate/model_match.hpp"

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

RunRecord* find_run(GpuState& p, int id) {
  const auto it =
      std::find_if(p.runs.begin(), p.runs.end(), [id](const RunRecord& r) { return r.id == id; });
  return it == p.runs.end() ? nullptr : &*it;
}

// The costs come with each result (its preset), so a recording made elsewhere gets the same.
void attach_costs(RunRecord& run) {
  run.costs.clear();
  for (const record::VariantResult& r : run.suite->results) {
    run.costs.push_back(frontend::variant_cost(r, run.suite->options.pad));
  }
}

// No GPU here and nothing on screen yet: the shipped recording (the H200's, if there are
// several), so the window shows real results rather than "No run yet".
void show_shipped_recording(GpuState& p) {
  const std::vector<std::filesystem::path> files = shipped_recordings();
  if (files.empty()) return;
  const auto h200 =
      std::find_if(std::begin(files), std::end(files),
                   [](const std::filesystem::path& f) { return f.stem() == "nvidia-h200"; });
  const std::filesystem::path& file = h200 != files.end() ? *h200 : files.front();
  const Expected<void> shown = open_recording(p, file);
  p.results_message = shown ? "No GPU here: showing " + file.filename().string() +
                                  ", recorded on a real GPU (the rows say where and when)"
                            : shown.error();
}

// "cudaErrorInsufficientDriver" and its kin, said for people.
std::string cuda_error_in_words(const std::string& detail) {
  static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {"cudaErrorInsufficientDriver",
       "the NVIDIA driver is older than this build's CUDA runtime needs: update the driver"},
      {"cudaErrorNoDevice", "the NVIDIA driver found no GPU on this machine"},
      {"cudaErrorDevicesUnavailable",
       "every GPU is busy in exclusive mode or switched off for compute"},
      {"cudaErrorSystemDriverMismatch",
       "the driver's kernel module and its library are different versions: reboot or "
       "reinstall the driver"},
      {"cudaErrorInitializationError", "the driver could not start the GPU"},
      {"cudaErrorOperatingSystem", "the operating system refused the driver's call"},
      {"cudaErrorNoKernelImageForDevice", "this build has no code for this GPU's architecture"},
      {"cudaErrorCompatNotSupportedOnDevice",
       "the CUDA forward-compatibility package does not support this GPU"},
  };
  for (const auto& [name, words] : kWords) {
    if (detail.find(name) != std::string::npos) return std::string(words);
  }
  return "";
}

}  // namespace

std::string shown_run(const GpuState& p) {
  if (p.selected_run < 0 || p.selected_run >= static_cast<int>(p.runs.size())) return "";
  const RunRecord& run = p.runs[static_cast<std::size_t>(p.selected_run)];
  return run.recorded.empty() ? "measured here" : run.recorded;
}

std::string no_gpu_in_words(const record::DeviceInfo& d) {
  if (std::string words = cuda_error_in_words(d.detail); !words.empty()) return words;
  switch (d.availability) {
    case record::Availability::no_driver:
      return "no NVIDIA driver this build can use (none installed, or one older than CUDA 13)";
    case record::Availability::no_device:
      return d.detail.find("BANKLAB_FORCE_NO_GPU") != std::string::npos
                 ? "BANKLAB_FORCE_NO_GPU=1 hides the GPU"
                 : "the NVIDIA driver found no GPU on this machine";
    case record::Availability::not_built:
      return "this build of BankLab was made without CUDA (nvcc was not found when it was "
             "built)";
    case record::Availability::error:
      return "the driver answered with an error (below)";
    case record::Availability::available:
      break;
  }
  return "";
}

std::string fixed(double value, int decimals) {
  return format("%.*f", decimals, value);
}

// --------------------------------------------------------------------------------------------
// Results coming back.

void poll(GpuState& p) {
  if (!p.worker) {
    p.worker = std::make_unique<GpuWorker>(p.backend, p.wake_ui);
    p.worker->submit(DeviceJob{});
  }
  for (GpuResult& result : p.worker->drain()) apply(p, std::move(result));
}

void apply(GpuState& p, GpuResult result) {
  struct Apply {
    GpuState& p;
    void operator()(DeviceDone& d) {
      p.device = std::move(d.device);
      p.measure_support = std::move(d.measure);
      if (!p.device->ok() && p.runs.empty()) show_shipped_recording(p);
    }
    void operator()(SuiteDone& d) {
      // A run that found no GPU tells the panel what state the GPU is in now.
      if (d.report.status == record::RunStatus::unavailable) p.device = d.report.device;
      RunRecord* run = find_run(p, d.run);
      if (!run) return;
      run->suite = std::move(d.report);
      attach_costs(*run);
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

Expected<void> can_run(const GpuState& p) {
  if (!p.worker) return Error{"the GPU worker has not started yet"};
  if (p.worker->busy()) return Error{"a GPU job is running; wait for it or cancel it"};
  if (!p.device) return Error{"still asking the driver which GPU is there"};
  if (!p.device->ok()) return Error{"no GPU to run on: " + device_summary(*p.device)};
  return {};
}

Expected<void> can_measure(const GpuState& p) {
  if (Expected<void> can = can_run(p); !can) return can;
  if (!p.measure_support || !p.measure_support->ok) {
    return Error{"this GPU cannot be measured here: " +
                 (p.measure_support ? p.measure_support->reason : std::string("not known yet"))};
  }
  return {};
}

Expected<void> start_run(GpuState& p, const Scenario& current) {
  if (Expected<void> can = can_run(p); !can) return can;
  RunRecord run;
  run.id = p.next_id;
  run.started = wall_clock_now();
  run.options.dtype = current.tile.dtype;
  run.options.rows = run.options.cols = p.side;
  run.options.repetitions = p.repetitions;
  // The padded teaching kernel uses the pad on screen; a tile without one gets the dtype's
  // smallest conflict-free pad.
  run.options.pad = current.tile.pad > 0 ? current.tile.pad : -1;
  if (const Expected<void> valid = gpu::check_options(run.options); !valid) {
    return Error{"cannot run the transpose suite for the tile on screen: " + valid.error()};
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

  if (!p.worker->submit(std::move(job)))
    return Error{"a GPU job is running; wait for it or cancel it"};
  ++p.next_id;
  p.runs.push_back(std::move(run));
  p.selected_run = static_cast<int>(p.runs.size()) - 1;
  p.show_tab = GpuTab::transpose;
  return {};
}

Expected<void> start_measure(GpuState& p, const Scenario& current) {
  if (Expected<void> can = can_measure(p); !can) return can;
  const Expected<WarpAccess> access = build_access(current, nullptr, nullptr);
  if (!access) return Error{"the pattern on screen cannot be measured: " + access.error()};

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
    return Error{"a GPU job is running; wait for it or cancel it"};
  }
  ++p.next_id;
  p.measurement = std::move(m);
  p.show_tab = GpuTab::measure;
  return {};
}

void cancel(GpuState& p) {
  if (p.worker) p.worker->cancel();
}

// --------------------------------------------------------------------------------------------
// What the panel says.

Agreement compare(const MeasureRecord& m) {
  Agreement a;
  if (!m.done) return a;
  a.status = Agreement::Status::failed;
  if (!m.error.empty()) {
    a.message = "the measurement failed: " + m.error;
    return a;
  }
  // Whether it matches, and its sentence, are the core's, the same as `banklab validate` gives.
  Judgement j = judge(m.predicted_wavefronts, m.predicted_conflicts, m.measured);
  if (j.match == ModelMatch::agree) a.status = Agreement::Status::agree;
  if (j.match == ModelMatch::disagree) a.status = Agreement::Status::disagree;
  a.message = std::move(j.message);
  return a;
}

// --------------------------------------------------------------------------------------------
// Recordings.

std::filesystem::path recordings_dir() {
  const Expected<std::filesystem::path> data = data_dir();
  return data ? *data / "recordings" : std::filesystem::path();
}

std::vector<std::filesystem::path> shipped_recordings() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(recordings_dir(), ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void show_recording(GpuState& p, const record::Recording& r) {
  // "2026-11-30T21:15:00Z" as people read it: "2026-11-30 21:15:00 UTC".
  std::string when = r.created_utc;
  if (when.size() == 20 && when[10] == 'T' && when.back() == 'Z') {
    when = when.substr(0, 10) + " " + when.substr(11, 8) + " UTC";
  }
  const std::string label = "recorded on " + r.device.name + ", " + when + " (driver " + r.driver +
                            ", BankLab " + r.commit + ")";
  // One microbenchmark for every row: the lesson's patterns, then the sweep, with their labels.
  record::PatternReport patterns = r.lesson.report;
  std::vector<std::string> labels = r.lesson.labels;
  patterns.results.insert(patterns.results.end(), r.sweep.report.results.begin(),
                          r.sweep.report.results.end());
  labels.insert(labels.end(), r.sweep.labels.begin(), r.sweep.labels.end());
  int selected = -1;
  for (const record::SuiteReport& suite : r.suites) {
    RunRecord run;
    run.id = p.next_id++;
    run.started = r.created_utc;
    run.recorded = label;
    run.options = suite.options;
    run.pattern = "the lesson's patterns and the sweep, as recorded";
    run.suite = suite;
    run.patterns = patterns;
    run.pattern_labels = labels;
    attach_costs(run);
    run.reversal = reversal_lines(run);
    p.runs.push_back(std::move(run));
    if (selected < 0 || suite.options.dtype == DType::fp32) {
      selected = static_cast<int>(p.runs.size()) - 1;
    }
  }
  p.selected_run = selected;
  p.show_tab = GpuTab::transpose;
}

Expected<void> open_recording(GpuState& p, const std::filesystem::path& file) {
  const Expected<record::Recording> r = frontend::load_recording(file);
  if (!r) return Error{r.error()};
  if (r->suites.empty()) return Error{quote(file.string()) + " holds no transpose suite to show"};
  show_recording(p, *r);
  return {};
}

Expected<void> save_recording(const GpuState& p, const std::filesystem::path& file) {
  record::Recording r;
  const RunRecord* patterns = nullptr;
  for (const RunRecord& run : p.runs) {
    if (!run.recorded.empty() || !run.suite || !run.suite->ok()) continue;
    const auto same = std::find_if(r.suites.begin(), r.suites.end(), [&](const auto& s) {
      return s.options.dtype == run.suite->options.dtype;
    });
    if (same != r.suites.end()) {
      *same = *run.suite;  // the latest run of a dtype replaces the earlier
    } else {
      r.suites.push_back(*run.suite);
    }
    if (run.patterns && run.patterns->ok()) patterns = &run;
  }
  if (r.suites.empty()) return Error{"no finished run of this session to save: Run on GPU first"};
  r.device = r.suites.front().device;
  r.created_utc = frontend::utc_now();
  r.commit = frontend::build_commit();
  r.driver = frontend::driver_version();
  r.sweep.report.status = r.lesson.report.status = record::RunStatus::ok;
  if (patterns) {
    // The run's microbenchmark: the pattern on screen (if it was included), then the sweep.
    const auto& results = patterns->patterns->results;
    const std::size_t first_sweep = patterns->pattern_included ? 1 : 0;
    r.sweep.report.sm_clock_mhz = r.lesson.report.sm_clock_mhz = patterns->patterns->sm_clock_mhz;
    for (std::size_t i = 0; i < results.size(); ++i) {
      record::LabelledPatterns& part = i < first_sweep ? r.lesson : r.sweep;
      part.report.results.push_back(results[i]);
      part.labels.push_back(i < first_sweep ? patterns->pattern : to_string(results[i].access));
    }
  }
  return frontend::replace_file(file.string(), record::recording_json(r));
}

std::vector<std::string> reversal_lines(const RunRecord& run) {
  if (!run.suite) return banklab::reversal_lines(std::nullopt);
  const record::PatternReport* loop = run.patterns ? &*run.patterns : nullptr;
  return banklab::reversal_lines(frontend::reversal_run(*run.suite, loop));
}

}  // namespace banklab::gui

// The GPU window without a display and without a GPU: the worker's threading (results in order,
// one job at a time, progress, cancel, a clean join) against a scripted GPU, the panel's logic
// on top of it, the real backend's no-GPU state on this machine, and the plots' axis arithmetic.
//
// [SECTION] A scripted GPU and waiting
// [SECTION] The worker's thread
// [SECTION] Run and Measure on GPU
// [SECTION] Without a GPU
// [SECTION] Plots
// [SECTION] Presets, --gpu and the window's tabs
// [SECTION] The shipped recordings
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/panels/gpu_panel.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/gpu_worker.hpp"
#include "app/gui/views/plot.hpp"
#include "core/model/analysis.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/headless_imgui.hpp"
#include "tests/gui/refusal.hpp"

using namespace banklab;
using namespace banklab::gui;
using banklab::gui::test::refusal;

namespace {

// [SECTION] A scripted GPU and waiting

// Polls a condition that another thread makes true; false after 10 s (a hung worker).
template <class Condition>
bool eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Polls the panel, as the UI does once a frame, until its job is done and every result applied.
bool settle(GpuState& p) {
  const bool done = eventually([&] {
    poll(p);
    return !p.busy();
  });
  poll(p);
  return done;
}

record::DeviceInfo scripted_device() {
  record::DeviceInfo d;
  d.availability = record::Availability::available;
  d.name = "Scripted H200";
  d.cc_major = 9;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.memory_clock_khz = 2619000;
  d.memory_bus_bits = 6144;
  d.memory_bytes = std::uint64_t{141} << 30;
  d.shared_memory_per_sm = 228 * 1024;
  d.l2_bytes = 60 << 20;
  return d;
}

record::VariantResult variant(std::string name, record::VariantRole role, double gbps,
                              bool verified) {
  record::VariantResult r;
  r.name = std::move(name);
  r.role = role;
  r.bytes_moved = std::int64_t{2} * 16384 * 16384 * 4;
  r.gbps = gbps;
  r.ms = double(r.bytes_moved) / (gbps * 1e6);
  r.fraction_of_copy = gbps / 3900.0;
  r.verified = verified;
  if (!verified) r.detail = "element (3, 7) differs from the CPU reference";
  return r;
}

// A GPU that answers from a script: the fp32 figures of the H200 measurements the project
// started from (measured-h200.md, not in this repository), a vec16 kernel that fails verification,
// microbenchmark times of one clock per wavefront, and counters equal to the model plus
// `measure_offset`. Its suite can block until released or cancelled, to hold a job in flight.
struct ScriptedGpu {
  std::atomic<bool> block_suite{false};
  std::atomic<bool> release{false};
  std::atomic<bool> saw_cancel{false};
  std::atomic<int> suite_calls{0};
  std::atomic<int> pattern_calls{0};
  int measure_offset = 0;
  std::mutex mutex;
  std::vector<WarpAccess> benchmarked;  // the accesses of the last run_patterns call

  static std::vector<gpu::VariantInfo> variants(DType) {
    using R = record::VariantRole;
    return {
        {"fp32-copy", DType::fp32, R::roof, "roof", "", false},
        {"fp32-naive", DType::fp32, R::teaching, "32-way", "fp32-naive", false},
        {"fp32-padded", DType::fp32, R::teaching, "padded", "fp32-pad1", true},
        {"fp32-aligned-pad", DType::fp32, R::teaching, "4-way", "fp32-pad4", false},
        {"fp32-vec16", DType::fp32, R::teaching, "4-way", "fp32-pad4-vec16-store", false},
        {"fp32-fast", DType::fp32, R::fast, "fast", "", false},
        {"fp32-cublas", DType::fp32, R::library, "cuBLAS", "", false},
    };
  }

  GpuBackend backend() {
    GpuBackend b;
    b.query_device = scripted_device;
    b.measure_support = [] { return gpu::MeasureSupport{scripted_device(), true, ""}; };
    b.variants = variants;
    b.run_suite = [this](const record::TransposeOptions& o, const gpu::ProgressFn& progress,
                         const std::atomic<bool>* cancel) {
      ++suite_calls;
      record::SuiteReport r;
      r.device = scripted_device();
      r.options = o;
      if (r.options.pad < 0) r.options.pad = 1;
      r.sm_clock_mhz = 1980;
      if (progress) progress(gpu::Progress{3, 9, "fp32-padded"});
      while (block_suite && !release) {
        if (cancel && *cancel) {
          saw_cancel = true;
          r.status = record::RunStatus::cancelled;
          r.error = "cancelled";
          return r;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      using R = record::VariantRole;
      r.status = record::RunStatus::ok;
      r.results = {variant("fp32-copy", R::roof, 3900, true),
                   variant("fp32-naive", R::teaching, 1372, true),
                   variant("fp32-padded", R::teaching, 2470, true),
                   variant("fp32-aligned-pad", R::teaching, 2464, true),
                   variant("fp32-vec16", R::teaching, 2600, false),
                   variant("fp32-fast", R::fast, 3760, true),
                   variant("fp32-cublas", R::library, 3640, true)};
      // The suite names each kernel's preset, as run_transpose_suite() does from its table.
      for (record::VariantResult& v : r.results) {
        for (const gpu::VariantInfo& info : variants(o.dtype)) {
          if (info.name != v.name) continue;
          v.preset = std::string(info.preset);
          v.uses_pad = info.uses_pad;
        }
      }
      return r;
    };
    b.run_patterns = [this](std::span<const WarpAccess> accesses, const gpu::PatternOptions&,
                            const gpu::ProgressFn&, const std::atomic<bool>*) {
      ++pattern_calls;
      {
        std::lock_guard lock(mutex);
        benchmarked.assign(accesses.begin(), accesses.end());
      }
      record::PatternReport r;
      r.status = record::RunStatus::ok;
      r.device = scripted_device();
      r.sm_clock_mhz = 1980;
      for (const WarpAccess& a : accesses) {
        record::PatternResult p;
        p.access = a;
        p.predicted_wavefronts = analyze(a).wavefront_count();
        p.baseline_wavefronts = analyze(record::conflict_free_baseline(a)).wavefront_count();
        p.cycles_per_access = p.predicted_wavefronts;
        p.baseline_cycles_per_access = p.baseline_wavefronts;
        p.measured_ratio = p.cycles_per_access / p.baseline_cycles_per_access;
        p.predicted_ratio = double(p.predicted_wavefronts) / p.baseline_wavefronts;
        p.verified = true;
        r.results.push_back(p);
      }
      return r;
    };
    b.measure = [this](std::span<const WarpAccess> accesses, const gpu::MeasureProgress&,
                       const std::atomic<bool>*) -> Expected<std::vector<gpu::Measurement>> {
      std::vector<gpu::Measurement> out;
      for (const WarpAccess& a : accesses) {
        const Analysis x = analyze(a);
        gpu::Measurement m;
        m.ok = m.verified = true;
        m.instructions = 1;
        m.wavefronts = x.wavefront_count() + measure_offset;
        m.bank_conflicts = x.bank_conflicts() + measure_offset;
        out.push_back(m);
      }
      return out;
    };
    return b;
  }
};

Scenario preset_scenario(std::string_view name) {
  const Preset* p = find_preset(name);
  REQUIRE(p != nullptr);
  return p->scenario;
}

// Whether the window drew anything in this colour in the last frame (a banner, a bar, a point).
bool window_drew(const char* window, ImU32 colour) {
  const ImDrawData* data = ImGui::GetDrawData();
  for (int i = 0; i < data->CmdListsCount; ++i) {
    const ImDrawList* list = data->CmdLists[i];
    if (!list->_OwnerName || std::string_view(list->_OwnerName) != window) continue;
    for (const ImDrawVert& v : list->VtxBuffer) {
      if (v.col == colour) return true;
    }
  }
  return false;
}

bool mentions(const std::vector<std::string>& lines, std::string_view text) {
  for (const std::string& line : lines) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

// [SECTION] The worker's thread

TEST_CASE("a job's progress fraction runs over all its stages") {
  JobProgress p;
  p.stage_count = 2;
  CHECK(p.fraction() == doctest::Approx(0.0));
  p.step = gpu::Progress{3, 9, "x"};
  CHECK(p.fraction() == doctest::Approx(1.0 / 6.0));
  p.stage_index = 1;
  p.step = gpu::Progress{9, 9, "x"};
  CHECK(p.fraction() == doctest::Approx(1.0));
  SUBCASE("a stage with no steps yet counts as its start") {
    p.step = gpu::Progress{};
    CHECK(p.fraction() == doctest::Approx(0.5));
  }
}

TEST_CASE("the worker posts a run's results in order and is idle again") {
  ScriptedGpu gpu;
  GpuWorker worker(gpu.backend());
  RunJob job;
  job.run = 7;
  job.patterns = gpu::conflict_sweep();
  REQUIRE(worker.submit(job));
  REQUIRE(eventually([&] { return !worker.busy(); }));
  std::vector<GpuResult> results = worker.drain();
  REQUIRE(results.size() == 2);
  REQUIRE(std::holds_alternative<SuiteDone>(results[0]));
  REQUIRE(std::holds_alternative<PatternsDone>(results[1]));
  CHECK(std::get<SuiteDone>(results[0]).run == 7);
  CHECK(std::get<SuiteDone>(results[0]).report.ok());
  CHECK(std::get<PatternsDone>(results[1]).run == 7);
  CHECK(std::get<PatternsDone>(results[1]).report.results.size() == job.patterns.size());
  CHECK(worker.drain().empty());

  SUBCASE("a run without patterns has only the suite") {
    REQUIRE(worker.submit(RunJob{8, {}, {}, {}}));
    REQUIRE(eventually([&] { return !worker.busy(); }));
    results = worker.drain();
    REQUIRE(results.size() == 1);
    CHECK(std::get<SuiteDone>(results[0]).run == 8);
    CHECK(gpu.pattern_calls == 1);
  }
}

TEST_CASE("the worker wakes the UI after each result and when the job ends") {
  // The app at rest draws nothing: without these calls a result would wait for the next input.
  ScriptedGpu gpu;
  std::mutex mutex;
  std::vector<std::string> seen;  // at each call: the results waiting, and whether still busy
  GpuWorker* self = nullptr;
  std::atomic<int> calls{0};
  GpuWorker worker(gpu.backend(), [&] {
    ++calls;
    std::lock_guard lock(mutex);
    seen.push_back(self && self->busy() ? "busy" : "idle");
  });
  self = &worker;
  RunJob job;
  job.run = 3;
  job.patterns = gpu::conflict_sweep();
  REQUIRE(worker.submit(job));
  REQUIRE(eventually([&] { return calls == 3; }));  // the suite, the patterns, the end
  std::lock_guard lock(mutex);
  CHECK(seen.back() == "idle");  // the last call comes once busy() is false
  CHECK(worker.drain().size() == 2);

  SUBCASE("a panel hands its wake_ui to the worker it creates") {
    GpuState panel;
    panel.backend = gpu.backend();
    std::atomic<int> woken{0};
    panel.wake_ui = [&] { ++woken; };
    poll(panel);  // creates the worker, which asks for the device
    REQUIRE(eventually([&] { return woken == 2; }));  // the answer, the end of the job
    CHECK(settle(panel));
    CHECK(panel.device.has_value());
  }
}

TEST_CASE("the worker takes one job at a time and reports its progress") {
  ScriptedGpu gpu;
  gpu.block_suite = true;
  GpuWorker worker(gpu.backend());
  REQUIRE(worker.submit(RunJob{1, {}, gpu::conflict_sweep(), {}}));
  REQUIRE(eventually([&] { return worker.progress().step.step == 3; }));
  const JobProgress progress = worker.progress();
  CHECK(progress.job == "Run on GPU");
  CHECK(progress.stage == "transpose suite");
  CHECK(progress.stage_count == 2);
  CHECK(progress.step.steps == 9);
  CHECK(progress.step.what == "fp32-padded");
  CHECK(worker.busy());
  CHECK_FALSE(worker.submit(DeviceJob{}));  // refused, not queued
  gpu.release = true;
  REQUIRE(eventually([&] { return !worker.busy(); }));
  CHECK(worker.drain().size() == 2);
  CHECK(gpu.suite_calls == 1);
  CHECK(worker.submit(DeviceJob{}));
  REQUIRE(eventually([&] { return !worker.busy(); }));
  const std::vector<GpuResult> results = worker.drain();
  REQUIRE(results.size() == 1);
  CHECK(std::get<DeviceDone>(results[0]).device.name == "Scripted H200");
}

TEST_CASE("cancel stops the suite and the microbenchmark never starts") {
  ScriptedGpu gpu;
  gpu.block_suite = true;
  GpuWorker worker(gpu.backend());
  worker.cancel();  // while idle: no effect on the next job
  REQUIRE(worker.submit(RunJob{1, {}, gpu::conflict_sweep(), {}}));
  REQUIRE(eventually([&] { return worker.progress().step.step == 3; }));
  CHECK_FALSE(gpu.saw_cancel);
  worker.cancel();
  CHECK(worker.cancelling());
  REQUIRE(eventually([&] { return !worker.busy(); }));
  CHECK(gpu.saw_cancel);
  CHECK(gpu.pattern_calls == 0);
  const std::vector<GpuResult> results = worker.drain();
  REQUIRE(results.size() == 2);
  CHECK(std::get<SuiteDone>(results[0]).report.status == record::RunStatus::cancelled);
  const record::PatternReport& patterns = std::get<PatternsDone>(results[1]).report;
  CHECK(patterns.status == record::RunStatus::cancelled);
  CHECK(patterns.results.empty());
  CHECK_FALSE(worker.cancelling());

  SUBCASE("the next job starts with the flag lowered") {
    gpu.release = true;
    REQUIRE(worker.submit(RunJob{2, {}, gpu::conflict_sweep(), {}}));
    REQUIRE(eventually([&] { return !worker.busy(); }));
    const std::vector<GpuResult> next = worker.drain();
    REQUIRE(next.size() == 2);
    CHECK(std::get<SuiteDone>(next[0]).report.ok());
    CHECK(gpu.pattern_calls == 1);
  }
}

TEST_CASE("destroying the worker cancels a running job and joins its thread") {
  ScriptedGpu gpu;
  gpu.block_suite = true;
  {
    GpuWorker worker(gpu.backend());
    REQUIRE(worker.submit(RunJob{1, {}, {}, {}}));
    REQUIRE(eventually([&] { return worker.progress().step.step == 3; }));
  }
  CHECK(gpu.saw_cancel);
  CHECK(gpu.suite_calls == 1);
}

// [SECTION] Run and Measure on GPU

TEST_CASE("Run on GPU benchmarks the pattern on screen and the conflict sweep") {
  ScriptedGpu gpu;
  GpuState p;
  p.backend = gpu.backend();
  CHECK(refusal(can_run(p)) == "the GPU worker has not started yet");
  REQUIRE(settle(p));
  REQUIRE(p.device);
  CHECK(p.device->ok());
  CHECK(can_run(p));
  CHECK(can_measure(p));

  const Scenario naive = preset_scenario("fp32-naive");
  REQUIRE(start_run(p, naive));
  REQUIRE(p.runs.size() == 1);
  CHECK(p.selected_run == 0);
  REQUIRE(settle(p));
  const RunRecord& run = p.runs[0];
  CHECK(run.pattern == describe(naive));
  CHECK(run.pattern_included);
  CHECK(run.options.dtype == DType::fp32);
  CHECK(run.options.rows == 16384);
  CHECK(run.options.pad == -1);  // tile[32][32]: the dtype's default pad
  {
    std::lock_guard lock(gpu.mutex);
    const std::vector<WarpAccess> sweep = gpu::conflict_sweep();
    REQUIRE(gpu.benchmarked.size() == sweep.size() + 1);
    CHECK(gpu.benchmarked[0] == *build_access(naive, nullptr, nullptr));
    for (std::size_t i = 0; i < sweep.size(); ++i) {
      CAPTURE(i);
      CHECK(gpu.benchmarked[i + 1] == sweep[i]);
    }
  }
  REQUIRE(run.suite);
  REQUIRE(run.patterns);
  REQUIRE(run.costs.size() == run.suite->results.size());

  SUBCASE("each teaching kernel carries its preset's predicted conflict") {
    CHECK_FALSE(run.costs[0]);  // the copy has no shared memory
    REQUIRE(run.costs[1]);
    CHECK(run.costs[1]->ways == 32);
    REQUIRE(run.costs[2]);
    CHECK(run.costs[2]->ways == 1);  // fp32-pad1 at the run's pad 1
    REQUIRE(run.costs[3]);
    CHECK(run.costs[3]->ways == 4);
  }
  SUBCASE("the reversal condition is told with the run's own numbers") {
    // 132 SMs x 128 B x 1980 MHz = 33.5 TB/s; a 3.9 TB/s copy transposes 1.95 TB/s. Per
    // transposed byte the banks give 33.5 / (1 + k): hidden up to k = 2 x 33.5 / 3.9 - 1 = 16.2.
    CHECK(mentions(run.reversal, "1980 MHz (measured during the run) = 33.5 TB/s"));
    CHECK(mentions(run.reversal, "HBM transposes 1.95 TB/s of matrix"));
    CHECK(mentions(run.reversal, "about k = 16.2"));
    CHECK(mentions(run.reversal,
                   "fp32-naive (32-way; the model says it shows): 1372 GB/s, 35% of copy, 1.80x "
                   "the time of the conflict-free fp32-padded (2470 GB/s): it shows."));
    CHECK(mentions(run.reversal,
                   "fp32-aligned-pad (4-way; the model says HBM hides it): 2464 GB/s, 63% of "
                   "copy, 1.00x the time of the conflict-free fp32-padded (2470 GB/s): hidden."));
    CHECK(mentions(run.reversal, "the 32-way read takes 32.0x"));
    CHECK_FALSE(mentions(run.reversal, "fp32-vec16"));  // it failed verification
  }
  SUBCASE("a second run is a second row of the history") {
    p.side = 4096;
    REQUIRE(start_run(p, preset_scenario("fp32-pad4")));
    REQUIRE(settle(p));
    REQUIRE(p.runs.size() == 2);
    CHECK(p.selected_run == 1);
    CHECK(p.runs[1].id != p.runs[0].id);
    CHECK(p.runs[1].options.rows == 4096);
    CHECK(p.runs[1].options.pad == 4);  // the pad on screen
  }
}

TEST_CASE("Run on GPU leaves out a pattern that breaks a rule and says why") {
  ScriptedGpu gpu;
  GpuState p;
  p.backend = gpu.backend();
  REQUIRE(settle(p));
  Scenario bad = preset_scenario("fp32-naive");
  bad.index = 40;  // float tile[32][32] has columns 0..31
  REQUIRE(start_run(p, bad));
  REQUIRE(settle(p));
  CHECK_FALSE(p.runs[0].pattern_included);
  CHECK_FALSE(p.runs[0].pattern_skipped.empty());
  std::lock_guard lock(gpu.mutex);
  CHECK(gpu.benchmarked.size() == gpu::conflict_sweep().size());

  SUBCASE("and Measure on GPU refuses it") {
    const std::string why = refusal(start_measure(p, bad));
    CHECK(why.rfind("the pattern on screen cannot be measured: ", 0) == 0);
    CHECK_FALSE(p.measurement);
  }
}

TEST_CASE("Measure on GPU sets the hardware's counts beside the prediction") {
  ScriptedGpu gpu;
  GpuState p;
  const Scenario naive = preset_scenario("fp32-naive");  // 32 wavefronts, 31 conflicts

  SUBCASE("agreeing") {
    p.backend = gpu.backend();
    REQUIRE(settle(p));
    REQUIRE(start_measure(p, naive));
    REQUIRE(p.measurement);
    CHECK(compare(*p.measurement).status == gui::Agreement::Status::pending);
    REQUIRE(settle(p));
    CHECK(p.measurement->predicted_wavefronts == 32);
    CHECK(p.measurement->predicted_conflicts == 31);
    const gui::Agreement a = compare(*p.measurement);
    CHECK(a.status == gui::Agreement::Status::agree);
    CHECK(a.message == "the hardware agrees: 32 wavefronts, 31 bank conflicts");
  }
  SUBCASE("disagreeing, loudly and with both numbers") {
    gpu.measure_offset = 1;
    p.backend = gpu.backend();
    REQUIRE(settle(p));
    REQUIRE(start_measure(p, naive));
    REQUIRE(settle(p));
    const gui::Agreement a = compare(*p.measurement);
    CHECK(a.status == gui::Agreement::Status::disagree);
    CHECK(a.message ==
          "DISAGREEMENT: the model predicts 32 wavefronts and 31 bank conflicts; "
          "the hardware counted 33 wavefronts and 32 bank conflicts");
  }
}

TEST_CASE("a measurement that does not isolate the access is not compared") {
  MeasureRecord m;
  m.done = true;
  m.predicted_wavefronts = 4;
  m.predicted_conflicts = 3;
  m.measured.ok = m.measured.verified = true;
  m.measured.wavefronts = 4;
  m.measured.bank_conflicts = 3;
  m.measured.instructions = 1;
  CHECK(compare(m).status == gui::Agreement::Status::agree);
  SUBCASE("two instructions counted") {
    m.measured.instructions = 2;
    CHECK(compare(m).status == gui::Agreement::Status::failed);
    CHECK(compare(m).message.find("saw 2 shared-memory instructions") != std::string::npos);
  }
  SUBCASE("bytes not verified") {
    m.measured.verified = false;
    CHECK(compare(m).status == gui::Agreement::Status::failed);
  }
  SUBCASE("the whole call failed") {
    m.error = "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
    CHECK(compare(m).status == gui::Agreement::Status::failed);
    CHECK(compare(m).message == "the measurement failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
  }
}

TEST_CASE("a result for a measurement that was replaced is dropped") {
  GpuState p;
  p.measurement = MeasureRecord{};
  p.measurement->id = 5;
  apply(p, MeasureDone{4, std::vector<gpu::Measurement>(1)});
  CHECK_FALSE(p.measurement->done);
  apply(p, MeasureDone{5, Error{"no GPU"}});
  CHECK(p.measurement->done);
  CHECK(p.measurement->error == "no GPU");
}

// [SECTION] Without a GPU

TEST_CASE("without a GPU the panel shows the state and starts nothing") {
  if (gpu::query_device().ok()) {
    MESSAGE("this machine has a GPU: the no-GPU state cannot be seen here");
    return;
  }
  GpuState p;  // the real banklab::gpu of this build
  REQUIRE(settle(p));
  REQUIRE(p.device);
  const record::DeviceInfo& d = *p.device;
  CHECK_FALSE(d.ok());
  CHECK((d.availability == record::Availability::not_built ||
         d.availability == record::Availability::no_driver ||
         d.availability == record::Availability::no_device));
  CHECK_FALSE(d.detail.empty());
  CHECK(device_summary(d).rfind(std::string(record::availability_name(d.availability)) + ": ", 0) ==
        0);
  REQUIRE(p.measure_support);
  CHECK_FALSE(p.measure_support->ok);
  CHECK_FALSE(p.measure_support->reason.empty());

  const Scenario naive = preset_scenario("fp32-naive");
  CHECK(refusal(start_run(p, naive)).rfind("no GPU to run on: ", 0) == 0);
  CHECK(refusal(start_measure(p, naive)).rfind("no GPU to run on: ", 0) == 0);
  CHECK_FALSE(p.measurement);
  // The window opened on the shipped recording, labelled as recorded, not on "No run yet".
  REQUIRE_FALSE(p.runs.empty());
  for (const RunRecord& r : p.runs) CHECK(r.recorded.starts_with("recorded on NVIDIA H200"));
  CHECK(shown_run(p).starts_with("recorded on NVIDIA H200"));
  CHECK(p.results_message.find("nvidia-h200.json") != std::string::npos);
  // The reason in words for people, not the CUDA call's name.
  const std::string words = no_gpu_in_words(d);
  CHECK_FALSE(words.empty());
  CHECK(words.find("cudaError") == std::string::npos);

  SUBCASE("and the backend answers a job with the same state, not a crash") {
    GpuWorker worker(real_gpu_backend());
    REQUIRE(worker.submit(RunJob{1, {}, gpu::conflict_sweep(), {}}));
    REQUIRE(eventually([&] { return !worker.busy(); }));
    std::vector<GpuResult> results = worker.drain();
    REQUIRE(results.size() == 2);
    const record::SuiteReport& suite = std::get<SuiteDone>(results[0]).report;
    CHECK(suite.status == record::RunStatus::unavailable);
    CHECK_FALSE(suite.error.empty());
    CHECK(suite.results.empty());
    CHECK(std::get<PatternsDone>(results[1]).report.status == record::RunStatus::unavailable);

    REQUIRE(worker.submit(MeasureJob{2, gpu::conflict_sweep()}));
    REQUIRE(eventually([&] { return !worker.busy(); }));
    results = worker.drain();
    REQUIRE(results.size() == 1);
    const auto& measured = std::get<MeasureDone>(results[0]).result;
    CHECK_FALSE(measured.has_value());
    CHECK_FALSE(measured.error().empty());
  }
}

TEST_CASE("why there is no GPU is said in words, the CUDA error's name left to the details") {
  record::DeviceInfo d;
  d.availability = record::Availability::no_driver;
  d.detail =
      "no CUDA driver (or one older than CUDA 13): cudaGetDeviceCount: "
      "cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime "
      "version)";
  CHECK(no_gpu_in_words(d) ==
        "the NVIDIA driver is older than this build's CUDA runtime needs: update the driver");
  d.detail = "no CUDA device: BANKLAB_FORCE_NO_GPU=1 hides the GPU";
  d.availability = record::Availability::no_device;
  CHECK(no_gpu_in_words(d) == "BANKLAB_FORCE_NO_GPU=1 hides the GPU");
  d.detail = "no CUDA device: cudaGetDeviceCount found 0 devices";
  CHECK(no_gpu_in_words(d) == "the NVIDIA driver found no GPU on this machine");
  d.availability = record::Availability::not_built;
  d.detail.clear();
  CHECK(no_gpu_in_words(d).starts_with("this build of BankLab was made without CUDA"));
  // A GPU with a scripted answer of "no device" opens the recording too; one that is there
  // opens on nothing until a run.
  GpuState none;
  none.backend = real_gpu_backend();
  none.backend.query_device = [] {
    record::DeviceInfo info;
    info.availability = record::Availability::no_device;
    info.detail = "no CUDA device: cudaGetDeviceCount found 0 devices";
    return info;
  };
  REQUIRE(settle(none));
  CHECK_FALSE(none.runs.empty());
  ScriptedGpu scripted;
  GpuState there;
  there.backend = scripted.backend();
  REQUIRE(settle(there));
  CHECK(there.runs.empty());
  CHECK(shown_run(there).empty());
}

// [SECTION] Plots

TEST_CASE("axis ticks are round steps of 1, 2 or 5 inside the span") {
  SUBCASE("bandwidth up to 4000 GB/s") {
    CHECK(nice_step(4000.0, 6) == doctest::Approx(1000.0));
    const std::vector<Tick> ticks = nice_ticks(0.0, 4000.0, 6);
    REQUIRE(ticks.size() == 5);
    CHECK(ticks.front().text == "0");
    CHECK(ticks.back().value == doctest::Approx(4000.0));
    CHECK(ticks.back().text == "4000");
  }
  SUBCASE("a span that needs decimals") {
    const std::vector<Tick> ticks = nice_ticks(0.1, 0.95, 6);
    REQUIRE(ticks.size() == 4);
    CHECK(ticks[0].text == "0.2");
    CHECK(ticks[3].text == "0.8");
  }
  SUBCASE("never more ticks than asked, and two at least when four are allowed") {
    for (double span : {0.003, 0.7, 1.0, 9.99, 33.6, 250.0, 4212.0, 1e6}) {
      for (int count = 2; count <= 12; ++count) {
        CAPTURE(span);
        CAPTURE(count);
        const std::vector<Tick> ticks = nice_ticks(0.0, span, count);
        CHECK(static_cast<int>(ticks.size()) <= count);
        if (count >= 4) CHECK(ticks.size() >= 2);
        const double step = nice_step(span, count);
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        CHECK((mantissa == doctest::Approx(1.0) || mantissa == doctest::Approx(2.0) ||
               mantissa == doctest::Approx(5.0)));
      }
    }
  }
  SUBCASE("an axis end is rounded up onto a tick") {
    CHECK(round_up_to_tick(4212.0, 11) == doctest::Approx(4500.0));
    CHECK(round_up_to_tick(33.6, 8) == doctest::Approx(35.0));
    CHECK(round_up_to_tick(40.0, 6) == doctest::Approx(40.0));
  }
}

TEST_CASE("plot coordinates grow right and up, categories down from the top") {
  PlotMapping m;
  m.min = ImVec2(100.0f, 50.0f);
  m.max = ImVec2(500.0f, 250.0f);
  m.x_lo = 0.0;
  m.x_hi = 40.0;
  m.y_lo = 0.0;
  m.y_hi = 20.0;
  CHECK(m.to_screen(0.0, 0.0).x == doctest::Approx(100.0f));
  CHECK(m.to_screen(0.0, 0.0).y == doctest::Approx(250.0f));
  CHECK(m.to_screen(40.0, 20.0).x == doctest::Approx(500.0f));
  CHECK(m.to_screen(40.0, 20.0).y == doctest::Approx(50.0f));
  CHECK(m.to_screen(10.0, 5.0).x == doctest::Approx(200.0f));
  CHECK(m.to_screen(10.0, 5.0).y == doctest::Approx(200.0f));
  SUBCASE("a categorical y axis of four rows") {
    m.y_lo = -0.5;
    m.y_hi = 3.5;
    m.y_down = true;
    CHECK(m.y_pixels(0.0) == doctest::Approx(75.0f));  // the first row on top
    CHECK(m.y_pixels(3.0) == doctest::Approx(225.0f));
  }
}

// [SECTION] Presets, --gpu and the window's tabs

TEST_CASE("every transpose kernel that names a preset gets the core's predicted conflict") {
  // The kernels' own table (empty in a build without CUDA, which has no kernels to list).
  const GpuBackend real = real_gpu_backend();
  GpuState p;
  p.backend = real;
  for (const DType dtype : kAllDTypes) {
    CAPTURE(dtype_name(dtype));
    const std::vector<gpu::VariantInfo> table = real.variants(dtype);
    if (table.empty()) {
      MESSAGE("this build has no transpose kernels to check");
      continue;
    }
    RunRecord run;
    run.id = static_cast<int>(p.runs.size()) + 1;
    p.runs.push_back(run);
    record::SuiteReport report;
    report.status = record::RunStatus::ok;
    report.options.dtype = dtype;
    report.options.pad = gpu::default_pad(dtype);
    for (const gpu::VariantInfo& v : table) {
      record::VariantResult r;
      r.name = std::string(v.name);
      r.role = v.role;
      r.preset = std::string(v.preset);  // as run_transpose_suite() fills them
      r.uses_pad = v.uses_pad;
      report.results.push_back(r);
    }
    apply(p, SuiteDone{run.id, report});
    const RunRecord& applied = p.runs.back();
    REQUIRE(applied.costs.size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
      CAPTURE(table[i].name);
      CHECK(applied.costs[i].has_value() == !table[i].preset.empty());
      if (!applied.costs[i]) continue;
      CHECK(applied.costs[i]->preset == table[i].preset);
      // At the default pad the padded kernel's column read is the floor.
      if (table[i].uses_pad) CHECK(applied.costs[i]->wavefronts == applied.costs[i]->ideal);
    }
  }
}

TEST_CASE("--gpu opens the GPU window") {
  const std::string_view with[] = {"--preset", "fp32-naive", "--gpu"};
  const Expected<Options> on = parse_options(with);
  REQUIRE(on.has_value());
  CHECK(on->gpu);
  const std::string_view without[] = {"--preset", "fp32-naive"};
  const Expected<Options> off = parse_options(without);
  REQUIRE(off.has_value());
  CHECK_FALSE(off->gpu);
  CHECK(usage().find("--gpu") != std::string::npos);
}

TEST_CASE("the GPU window draws each tab's results in the app, with no display") {
  constexpr const char* kWindow = "GPU: run and measure";
  HeadlessImGui imgui;
  ScriptedGpu gpu;
  gpu.measure_offset = 1;  // the hardware disagrees
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  s.gpu->backend = gpu.backend();
  s.user.views.gpu = true;
  const Palette& c = palette(s.user.settings.theme);
  imgui.frame(s);  // the window's first frame starts the worker and asks for the device
  REQUIRE(s.gpu->worker);
  REQUIRE(settle(*s.gpu));
  REQUIRE(start_run(*s.gpu, s.user.scenario));
  REQUIRE(settle(*s.gpu));

  SUBCASE("Transpose: the wrong kernel is named in red, the conflict-free bars in green") {
    imgui.frame(s);
    CHECK_FALSE(s.gpu->show_tab);  // brought to the front once
    CHECK(window_drew(kWindow, c.error));
    CHECK(window_drew(kWindow, c.cell_served));
    const PlotColours k = plot_colours(c);
    CHECK(window_drew(kWindow, k.fast));        // the fast kernel's bar
    CHECK(window_drew(kWindow, k.library));     // cuBLAS's bar
    CHECK(window_drew(kWindow, k.roof));        // the copy's bar
    CHECK(window_drew(kWindow, c.ideal_line));  // the copy roof
    // Blue and purple mean a broadcast and a phase boundary in the views, never a kernel.
    CHECK_FALSE(window_drew(kWindow, c.note));
    CHECK_FALSE(window_drew(kWindow, c.phase_line));
  }
  SUBCASE("Microbenchmark: the pattern on screen is a highlighted point") {
    s.gpu->show_tab = GpuTab::microbenchmark;
    imgui.frame(s);  // ImGui selects the tab at the next frame's layout
    imgui.frame(s);
    CHECK(window_drew(kWindow, plot_colours(c).on_screen));
    CHECK(window_drew(kWindow, plot_colours(c).sweep));
    CHECK_FALSE(window_drew(kWindow, c.error));
  }
  SUBCASE("Measure: a disagreement is a red banner") {
    REQUIRE(start_measure(*s.gpu, s.user.scenario));
    REQUIRE(settle(*s.gpu));
    imgui.frame(s);
    imgui.frame(s);
    CHECK(compare(*s.gpu->measurement).status == gui::Agreement::Status::disagree);
    CHECK(window_drew(kWindow, c.error));
    CHECK_FALSE(window_drew(kWindow, c.cell_served));
  }
  SUBCASE("closed, the window draws nothing") {
    s.user.views.gpu = false;
    imgui.frame(s);
    CHECK_FALSE(window_drew(kWindow, c.error));
  }
}

// [SECTION] The shipped recordings

TEST_CASE("the shipped recordings open, each dtype a history row labelled as recorded") {
  const std::vector<std::filesystem::path> shipped = shipped_recordings();
  REQUIRE_FALSE(shipped.empty());
  for (const std::filesystem::path& file : shipped) {
    CAPTURE(file.string());
    GpuState p;
    REQUIRE(open_recording(p, file));
    REQUIRE(p.runs.size() == std::size(kAllDTypes));
    const RunRecord& shown = p.runs.at(static_cast<std::size_t>(p.selected_run));
    CHECK(shown.options.dtype == DType::fp32);  // the lesson's dtype is shown first
    for (const RunRecord& run : p.runs) {
      CHECK(run.recorded.rfind("recorded on NVIDIA H200, ", 0) == 0);
      REQUIRE(run.suite);
      CHECK(run.suite->results.front().role == record::VariantRole::roof);
      // The costs come from the recording's own preset names, with no kernels in this build:
      // every dtype's naive kernel names its preset.
      REQUIRE(run.costs.size() == run.suite->results.size());
      REQUIRE(run.costs.size() > 1);
      CHECK(run.suite->results[1].name.ends_with("-naive"));
      REQUIRE(run.costs[1]);
      CHECK(run.costs[1]->wavefronts > run.costs[1]->ideal);
      REQUIRE(run.patterns);
      CHECK(run.pattern_labels.size() == run.patterns->results.size());
    }
    // The paragraph on when a conflict matters uses the recorded numbers, as for a live run.
    REQUIRE(shown.reversal.size() >= 4);
    CHECK(shown.reversal[0].rfind("Shared memory: 132 SMs x 128 B per clock", 0) == 0);
    CHECK(shown.reversal[2].rfind("fp32-naive (32-way; the model says it shows)", 0) == 0);
  }
  GpuState p;
  CHECK(refusal(open_recording(p, "/nonexistent/recording.json")).find("/nonexistent") !=
        std::string::npos);
  CHECK(p.runs.empty());
}

TEST_CASE("the GPU window draws a recording's plots with no display") {
  constexpr const char* kWindow = "GPU: run and measure";
  HeadlessImGui imgui;
  ScriptedGpu gpu;
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  s.gpu->backend = gpu.backend();
  s.user.views.gpu = true;
  const Palette& c = palette(s.user.settings.theme);
  const std::vector<std::filesystem::path> shipped = shipped_recordings();
  REQUIRE_FALSE(shipped.empty());
  REQUIRE(open_recording(*s.gpu, shipped.front()));

  SUBCASE("Transpose: the recorded banner, the conflict-free bars, the roof") {
    imgui.frame(s);
    CHECK(window_drew(kWindow, c.note));                   // the recorded banner
    CHECK(window_drew(kWindow, c.cell_served));            // conflict-free teaching kernels
    CHECK(window_drew(kWindow, c.ideal_line));             // the copy roof
    CHECK(window_drew(kWindow, plot_colours(c).library));  // cuBLAS
  }
  SUBCASE("Microbenchmark: every recorded pattern a point, none wrong") {
    s.gpu->show_tab = GpuTab::microbenchmark;
    imgui.frame(s);
    imgui.frame(s);
    CHECK(window_drew(kWindow, plot_colours(c).sweep));
    CHECK(window_drew(kWindow, c.ideal_line));
    CHECK_FALSE(window_drew(kWindow, c.error));
  }
}

#include "app/gui/state/gpu_worker.hpp"

#include <algorithm>

namespace banklab::gui {

GpuBackend real_gpu_backend() {
  GpuBackend b;
  b.query_device = gpu::query_device;
  b.measure_support = gpu::measure_support;
  b.variants = gpu::transpose_variants;
  b.run_suite = gpu::run_transpose_suite;
  b.run_patterns = gpu::run_pattern_benchmark;
  b.measure = gpu::measure;
  return b;
}

double JobProgress::fraction() const {
  if (stage_count <= 0) return 0.0;
  double within = 0.0;
  if (step.steps > 0) within = std::clamp(double(step.step) / step.steps, 0.0, 1.0);
  return std::clamp((stage_index + within) / stage_count, 0.0, 1.0);
}

std::string_view job_title(const GpuJob& job) {
  struct Title {
    std::string_view operator()(const DeviceJob&) const { return "Device query"; }
    std::string_view operator()(const RunJob&) const { return "Run on GPU"; }
    std::string_view operator()(const MeasureJob&) const { return "Measure on GPU"; }
  };
  return std::visit(Title{}, job);
}

bool GpuWorker::submit(GpuJob job) {
  std::lock_guard lock(mutex_);
  if (busy_ || stopping_) return false;
  cancel_ = false;
  busy_ = true;
  progress_ = JobProgress{};
  progress_.job = std::string(job_title(job));
  pending_ = std::move(job);
  wake_.notify_one();
  return true;
}

void GpuWorker::cancel() {
  std::lock_guard lock(mutex_);
  if (busy_) cancel_ = true;
}

bool GpuWorker::busy() const {
  std::lock_guard lock(mutex_);
  return busy_;
}

bool GpuWorker::cancelling() const {
  std::lock_guard lock(mutex_);
  return busy_ && cancel_;
}

JobProgress GpuWorker::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

void GpuWorker::run_pending() {
  GpuJob job;
  {
    std::lock_guard lock(mutex_);
    if (!pending_) return;
    job = std::move(*pending_);
    pending_.reset();
  }
  std::visit([this](const auto& j) { execute(j); }, job);
  {
    std::lock_guard lock(mutex_);
    busy_ = false;
  }
  if (posted_) posted_();  // the UI shows the job ended (busy() is false now)
}

void GpuWorker::post(GpuResult result) {
  results_.post(std::move(result));
  if (posted_) posted_();
}

void GpuWorker::enter_stage(int index, int count, std::string stage) {
  std::lock_guard lock(mutex_);
  progress_.stage = std::move(stage);
  progress_.stage_index = index;
  progress_.stage_count = count;
  progress_.step = gpu::Progress{};
}

void GpuWorker::set_step(const gpu::Progress& step) {
  std::lock_guard lock(mutex_);
  progress_.step = step;
}

void GpuWorker::execute(const DeviceJob&) {
  enter_stage(0, 1, "asking the driver");
  DeviceDone done;
  done.device = backend_.query_device();
  done.measure = backend_.measure_support();
  post(std::move(done));
}

void GpuWorker::execute(const RunJob& job) {
  const gpu::ProgressFn on_step = [this](const gpu::Progress& p) { set_step(p); };
  const int stages = job.patterns.empty() ? 1 : 2;

  enter_stage(0, stages, "transpose suite");
  post(SuiteDone{job.run, backend_.run_suite(job.suite, on_step, &cancel_)});
  if (job.patterns.empty()) return;

  enter_stage(1, stages, "shared-memory microbenchmark");
  PatternsDone patterns{job.run, {}};
  if (cancel_) {
    // The suite stopped on the flag; starting the next stage would ignore the user.
    patterns.report.status = record::RunStatus::cancelled;
    patterns.report.error = "cancelled before the microbenchmark started";
  } else {
    patterns.report = backend_.run_patterns(job.patterns, job.pattern_options, on_step, &cancel_);
  }
  post(std::move(patterns));
}

void GpuWorker::execute(const MeasureJob& job) {
  enter_stage(0, 1, "reading the wavefront counters");
  const gpu::MeasureProgress on_batch = [this](std::size_t done, std::size_t total) {
    set_step(gpu::Progress{static_cast<int>(done), static_cast<int>(total), "accesses"});
  };
  post(MeasureDone{job.measurement, backend_.measure(job.accesses, on_batch, &cancel_)});
}

}  // namespace banklab::gui

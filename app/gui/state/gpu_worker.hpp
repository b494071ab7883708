#pragma once
// The GPU window's worker: one thread that runs GPU jobs, so the UI never waits on the GPU.
//
//   UI thread                            worker thread
//   submit(job)  ----- one job slot ---> runs it through the backend (banklab::gpu)
//   progress()   <---- mutex ----------- the backend's progress callback
//   cancel()     ----- atomic flag ----> the backend checks it between launches
//   drain()      <---- result queue ---- post(result) as each part of the job finishes
//
// On the desktop the worker is a thread (gpu_worker_thread.cpp); the browser edition has no
// threads and runs a submitted job inside the next drain() (app/web/gpu_worker_inline.cpp), the
// same code below either way.
//
// One job at a time: there is one GPU, and two timed runs sharing it would time each other.
// Results travel as values, never as callbacks into the panel, so the queue holds no pointer
// into UI state and the panel may move. The destructor raises cancel and joins the thread.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"
#include "kernels/gpu_measure.hpp"

namespace banklab::gui {

// Values posted by one thread and taken by another, in order. The UI takes them all once a
// frame, so the lock is held for a push_back or a swap, never while a result is applied.
template <class T>
class PostQueue {
 public:
  void post(T value) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(value));
  }
  std::vector<T> take_all() {
    std::lock_guard lock(mutex_);
    return std::exchange(items_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<T> items_;
};

// The GPU entry points the worker (and the panel, for the variant table) calls. The app uses
// real_gpu_backend(); the tests put a scripted GPU in its place to check the worker's threading
// without one.
struct GpuBackend {
  std::function<record::DeviceInfo()> query_device;
  std::function<gpu::MeasureSupport()> measure_support;
  std::function<std::vector<gpu::VariantInfo>(DType)> variants;  // the transpose table
  std::function<record::SuiteReport(const record::TransposeOptions&, const gpu::ProgressFn&,
                                    const std::atomic<bool>*)>
      run_suite;
  std::function<record::PatternReport(std::span<const WarpAccess>, const gpu::PatternOptions&,
                                      const gpu::ProgressFn&, const std::atomic<bool>*)>
      run_patterns;
  std::function<Expected<std::vector<gpu::Measurement>>(
      std::span<const WarpAccess>, const gpu::MeasureProgress&, const std::atomic<bool>*)>
      measure;

  // Every entry point set: a worker asserts it when it starts (a missing one would be called
  // on the first job).
  bool complete() const {
    return query_device && measure_support && variants && run_suite && run_patterns && measure;
  }
};

// banklab::gpu and banklab::gpu_measure as built: with CUDA they drive the device, without it
// they answer "not built".
GpuBackend real_gpu_backend();

// ---------------------------------------------------------------------------------------------
// Jobs and their results.

struct DeviceJob {};  // ask the driver what is there, and whether measure() can run

// "Run on GPU": the transpose suite, then the microbenchmark of the given patterns.
struct RunJob {
  int run = 0;  // the history row the results belong to
  record::TransposeOptions suite;
  std::vector<WarpAccess> patterns;
  gpu::PatternOptions pattern_options;
};

// "Measure on GPU": the hardware's wavefront and conflict counters for each access.
struct MeasureJob {
  int measurement = 0;
  std::vector<WarpAccess> accesses;
};

using GpuJob = std::variant<DeviceJob, RunJob, MeasureJob>;

struct DeviceDone {
  record::DeviceInfo device;
  gpu::MeasureSupport measure;
};
struct SuiteDone {
  int run = 0;
  record::SuiteReport report;
};
struct PatternsDone {
  int run = 0;
  record::PatternReport report;
};
struct MeasureDone {
  int measurement = 0;
  Expected<std::vector<gpu::Measurement>> result;
};

using GpuResult = std::variant<DeviceDone, SuiteDone, PatternsDone, MeasureDone>;

// Where the running job is: a job has stages (the suite, then the microbenchmark), each with
// the backend's own step count.
struct JobProgress {
  std::string job;  // "Run on GPU"
  std::string stage;
  int stage_index = 0;
  int stage_count = 1;
  gpu::Progress step;

  double fraction() const;  // 0 .. 1 over the whole job
};

std::string_view job_title(const GpuJob& job);

class GpuWorker {
 public:
  // posted: called on the worker's thread after each result is posted and when a job ends
  // (the UI sleeps until asked for a frame); may be empty.
  explicit GpuWorker(GpuBackend backend, std::function<void()> posted = {});
  ~GpuWorker();
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  // False, and the job dropped, when a job is still pending or running.
  bool submit(GpuJob job);
  // Stops the running job between launches; what finished before is still posted.
  void cancel();
  bool busy() const;  // a job was submitted and has not posted its last result yet
  bool cancelling() const;
  JobProgress progress() const;
  // The results posted since the last call, oldest first. UI thread, once a frame.
  std::vector<GpuResult> drain();

 private:
  void loop();         // the worker thread: waits for a job, runs it, until stopping_
  void run_pending();  // takes the pending job, if any, runs it and clears busy_
  void execute(const DeviceJob& job);
  void execute(const RunJob& job);
  void execute(const MeasureJob& job);
  void enter_stage(int index, int count, std::string stage);
  void set_step(const gpu::Progress& step);

  void post(GpuResult result);

  GpuBackend backend_;
  std::function<void()> posted_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<GpuJob> pending_;  // guarded by mutex_
  bool busy_ = false;              // guarded by mutex_
  bool stopping_ = false;          // guarded by mutex_
  JobProgress progress_;           // guarded by mutex_
  std::atomic<bool> cancel_{false};
  PostQueue<GpuResult> results_;
  std::thread thread_;  // declared last: it starts once every member it uses exists
};

}  // namespace banklab::gui

// Where the GPU worker's jobs run on the desktop: one thread of their own, started with the
// worker and joined when it goes (gpu_worker.hpp). The browser edition has no threads and runs
// them in drain() instead (app/web/gpu_worker_inline.cpp).
#include <cassert>

#include "app/gui/state/gpu_worker.hpp"
#include "app/gui/state/worker_loop.hpp"

namespace banklab::gui {

GpuWorker::GpuWorker(GpuBackend backend, std::function<void()> posted)
    : backend_(std::move(backend)), posted_(std::move(posted)) {
  assert(backend_.complete() && "every backend entry point must be set");
  thread_ = std::thread([this] { loop(); });
}

GpuWorker::~GpuWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    pending_.reset();
  }
  cancel_ = true;
  wake_.notify_one();
  thread_.join();
}

std::vector<GpuResult> GpuWorker::drain() {
  return results_.take_all();
}

void GpuWorker::loop() {
  serve_pending(mutex_, wake_, stopping_, pending_, [this] { run_pending(); });
}

}  // namespace banklab::gui

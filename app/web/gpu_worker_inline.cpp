// Where the GPU worker's jobs run in the browser edition: the page has no threads, so a job
// submitted runs inside the next drain(), on the frame after the click (gpu_worker.hpp). The
// browser build has no CUDA, so the only job that runs is the device query, which answers at
// once ("not built"); the buttons that would start a GPU run are disabled by it.
#include <cassert>

#include "app/gui/state/gpu_worker.hpp"

namespace banklab::gui {

GpuWorker::GpuWorker(GpuBackend backend, std::function<void()> posted)
    : backend_(std::move(backend)), posted_(std::move(posted)) {
  assert(backend_.complete() && "every backend entry point must be set");
}

GpuWorker::~GpuWorker() = default;

std::vector<GpuResult> GpuWorker::drain() {
  run_pending();
  return results_.take_all();
}

}  // namespace banklab::gui

// Where the Kernel window's scans run on the desktop: one thread of their own, started with the
// worker and joined when it goes (scan_worker.hpp). The browser edition has no threads and runs
// them in take() instead (app/web/scan_worker_inline.cpp).
#include "app/gui/state/scan_worker.hpp"
#include "app/gui/state/worker_loop.hpp"

namespace banklab::gui {

ScanWorker::ScanWorker(std::function<void()> posted, ScanFunction scan)
    : posted_(std::move(posted)), scan_(std::move(scan)) {
  thread_ = std::thread([this] { loop(); });
}

ScanWorker::~ScanWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    pending_.reset();
    wanted_ = 0;
    if (running_stop_) running_stop_->store(true);
  }
  wake_.notify_one();
  thread_.join();
}

std::optional<ScanDone> ScanWorker::take() {
  return take_done();
}

void ScanWorker::loop() {
  serve_pending(mutex_, wake_, stopping_, pending_, [this] { run_pending(); });
}

}  // namespace banklab::gui

#include "app/gui/state/scan_worker.hpp"

#include <utility>

namespace banklab::gui {

void ScanWorker::submit(ScanRequest request) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  wanted_ = ++submitted_;
  scanning_ = request.name;
  since_ = std::chrono::steady_clock::now();
  pending_ = std::move(request);
  done_.reset();
  if (running_stop_) running_stop_->store(true);  // replaced: its result would be dropped
  wake_.notify_one();
}

void ScanWorker::cancel() {
  std::lock_guard lock(mutex_);
  wanted_ = 0;
  pending_.reset();
  done_.reset();
  if (running_stop_) running_stop_->store(true);
}

bool ScanWorker::busy() const {
  std::lock_guard lock(mutex_);
  return wanted_ != 0;
}

std::string ScanWorker::scanning() const {
  std::lock_guard lock(mutex_);
  return scanning_;
}

double ScanWorker::seconds() const {
  std::lock_guard lock(mutex_);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
}

void ScanWorker::run_pending() {
  ScanRequest request;
  std::uint64_t number = 0;
  {
    std::lock_guard lock(mutex_);
    if (!pending_) return;
    request = std::move(*pending_);
    pending_.reset();
    number = submitted_;
    running_stop_ = std::make_shared<std::atomic<bool>>(false);
    request.options.stop = running_stop_.get();
  }
  ScanResult result = scan_({request.name, request.text}, request.options);
  {
    std::lock_guard lock(mutex_);
    running_stop_.reset();
    request.options.stop = nullptr;
    if (number != wanted_) return;  // cancelled, or another scan submitted since
    done_ = ScanDone{std::move(request), std::move(result)};
    wanted_ = 0;
  }
  if (posted_) posted_();
}

std::optional<ScanDone> ScanWorker::take_done() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, std::nullopt);
}

}  // namespace banklab::gui

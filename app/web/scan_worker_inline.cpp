// Where the Kernel window's scans run in the browser edition: the page has no threads, so a
// scan submitted runs inside the next take(), on the frame after the one that asked
// (scan_worker.hpp); the frame between shows that it is scanning.
#include "app/gui/state/scan_worker.hpp"

namespace banklab::gui {

ScanWorker::ScanWorker(std::function<void()> posted, ScanFunction scan)
    : posted_(std::move(posted)), scan_(std::move(scan)) {}

ScanWorker::~ScanWorker() = default;

std::optional<ScanDone> ScanWorker::take() {
  run_pending();
  return take_done();
}

}  // namespace banklab::gui

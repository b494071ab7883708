#pragma once
// The Kernel window's scans, off the frame. core's scan of a whole file (scan_source()) may take
// seconds on a large or hostile file, and the frame must not wait for it: the window shows the
// scan's progress and a Cancel button meanwhile, and takes the result when it is posted.
//
//   UI thread                                worker
//   submit(request)  ---- one pending slot --> scan_source(request)
//   take()           <--- the result --------- posted with its request's number
//   cancel()         ---- stop flag ---------> the running scan stops at its next statement
//
// Cancel gives the window back at once and sets the running scan's stop flag
// (ScanOptions::stop), which core reads before each statement it runs: the worker is free again
// within a statement or two (or once the file is parsed, which its bounds keep short), and drops
// what the stopped scan returns; a new submit() does the same to the scan it replaces. On the
// desktop the worker is a thread
// (scan_worker_thread.cpp); the browser edition has no threads and runs a submitted scan inside
// the next take() (app/web/scan_worker_inline.cpp), the same code below either way.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/code/scan.hpp"

namespace banklab::gui {

struct ScanRequest {
  std::string path;  // the file as opened
  std::string name;  // its file name, as the scan's messages say it
  std::string text;  // the file's text (read by the caller, at most kMaxScanSourceBytes)
  ScanOptions options;
  bool new_file = false;  // opening a file (else the open file scanned again with new names)
};

struct ScanDone {
  ScanRequest request;
  ScanResult result;
};

// What scans a file: core's scan_source() in the app; the tests put a scripted scan in its
// place to hold one running for as long as they need.
using ScanFunction = std::function<ScanResult(const CodeSource&, const ScanOptions&)>;

class ScanWorker {
 public:
  // posted: called on the worker's thread when a result is posted (the UI at rest draws nothing
  // until asked for a frame); may be empty.
  explicit ScanWorker(std::function<void()> posted = {}, ScanFunction scan = scan_source);
  ~ScanWorker();  // stops a running scan, waits for it to end, then joins
  ScanWorker(const ScanWorker&) = delete;
  ScanWorker& operator=(const ScanWorker&) = delete;

  // Scans `request` next; the scan submitted before is dropped, pending or running.
  void submit(ScanRequest request);
  // Drops the scan submitted last: busy() is false at once, its result never comes, and a
  // running scan is told to stop.
  void cancel();
  // A scan was submitted, and is neither done nor cancelled.
  bool busy() const;
  // The name of the file being scanned and the seconds since it was submitted (the progress the
  // window shows; the scan has no steps to count).
  std::string scanning() const;
  double seconds() const;
  // The scan submitted last, once it is done (then busy() is false). UI thread, once a frame.
  std::optional<ScanDone> take();

 private:
  void loop();         // the worker thread: waits for a request, scans, until stopping_
  void run_pending();  // scans the pending request, if any, and posts it unless dropped
  std::optional<ScanDone> take_done();  // the posted result, once

  std::function<void()> posted_;
  ScanFunction scan_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<ScanRequest> pending_;  // guarded by mutex_, as all below
  std::optional<ScanDone> done_;
  std::uint64_t submitted_ = 0;  // requests submitted so far: the last one's number
  std::uint64_t wanted_ = 0;     // the number whose result is awaited; 0: none
  std::string scanning_;
  std::chrono::steady_clock::time_point since_;
  std::shared_ptr<std::atomic<bool>> running_stop_;  // the running scan's stop flag, if one runs
  bool stopping_ = false;
  std::thread thread_;  // declared last: it starts once every member it uses exists
};

}  // namespace banklab::gui

#pragma once
// The loop of a desktop worker thread with one pending slot (the GPU worker's, the scan
// worker's): wait until a job is pending or the worker stops, run it outside the lock, again.
// `run_pending` takes the job from the slot under the same mutex.
#include <condition_variable>
#include <mutex>
#include <optional>

namespace banklab::gui {

template <class Job, class Run>
void serve_pending(std::mutex& mutex, std::condition_variable& wake, const bool& stopping,
                   const std::optional<Job>& pending, Run run_pending) {
  for (;;) {
    {
      std::unique_lock lock(mutex);
      wake.wait(lock, [&] { return stopping || pending.has_value(); });
      if (stopping) return;
    }
    run_pending();
  }
}

}  // namespace banklab::gui

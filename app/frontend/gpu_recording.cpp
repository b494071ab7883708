// Recordings read from files, and what a live run stamps on one (gpu_recording.hpp).
#include "app/frontend/gpu_recording.hpp"

#include <chrono>
#include <ctime>
#include <fstream>

#include "app/frontend/file_io.hpp"
#include "core/base/format.hpp"

namespace banklab::frontend {

using namespace record;  // the recording's structures (core/record/)
namespace {

std::string two_digits(int n) {
  return format("%02d", n);
}

}  // namespace

Expected<Recording> load_recording(const std::filesystem::path& path) {
  const Expected<std::string> text =
      frontend::read_input_file(path.string(), kMaxRecordingBytes, "recording");
  if (!text) return Error{text.error()};
  Expected<Recording> r = parse_recording(*text);
  if (!r) return Error{quote(frontend::input_name(path.string())) + ": " + r.error()};
  return r;
}

std::string driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string word;
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ...": the first word made
  // of digits and dots.
  while (in >> word) {
    if (!word.empty() && word.find_first_not_of("0123456789.") == std::string::npos &&
        word.find('.') != std::string::npos) {
      return word;
    }
  }
  return "unknown";
}

std::string build_commit() {
  return BANKLAB_COMMIT;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  return std::to_string(tm.tm_year + 1900) + "-" + two_digits(tm.tm_mon + 1) + "-" +
         two_digits(tm.tm_mday) + "T" + two_digits(tm.tm_hour) + ":" + two_digits(tm.tm_min) + ":" +
         two_digits(tm.tm_sec) + "Z";
}

}  // namespace banklab::frontend

#pragma once
// Recordings as the front ends use them: read from a file (or standard input), and stamped with
// what only a live run knows (the driver, the build's commit, the time). The recording itself,
// its one codec and its checks are the core's (core/record/recording.hpp); its tables for people
// are recording_text.hpp.
#include <filesystem>
#include <string>

#include "core/base/expected.hpp"
#include "core/record/recording.hpp"

namespace banklab::frontend {

// The file at `path` (`-`: standard input), read through parse_recording() and so checked; only a
// regular file of at most kMaxRecordingBytes is read (file_io.hpp).
Expected<record::Recording> load_recording(const std::filesystem::path& path);

// The NVIDIA driver's version from /proc/driver/nvidia/version, or "unknown".
std::string driver_version();
// The project's commit this build came from (set at configure time; "unknown" without git).
std::string build_commit();
// "2026-11-30T21:40:05Z", now.
std::string utc_now();

}  // namespace banklab::frontend

#pragma once
// The files the programs read and write for a user: scenario files, exports, recordings,
// screenshots, banklab-gui's settings and imgui.ini.
//
// Reading: `-` is standard input, anything else a regular file of bounded size
// (core/base/file_read.hpp: a FIFO, a device or a huge file is refused, never waited on).
//
// Writing, the way a careful tool writes (what `docs/cli.md` promises, "How files are written"):
//   - a symbolic link is followed: the file it names is replaced, the link stays a link;
//   - a file this user may not write (mode 0444, another user's) is refused, as the shell's
//     `>` refuses it, never replaced behind its owner's back;
//   - a file is replaced whole or not at all: the bytes go to an unnamed temporary file in the
//     same folder (O_TMPFILE), which is flushed to disk, given the old file's mode and owner,
//     and only then named and renamed over the old one; a program killed mid-write (Ctrl-C, a
//     full disk, SIGKILL) leaves the old file and no temporary file behind, and the name's
//     length does not matter (the temporary one is short);
//   - a file with other hard links, or whose owner this user cannot give a new file, is
//     rewritten in place (truncated, then written), so every link sees the new bytes and the
//     owner stays; that write is not atomic;
//   - a pipe or a device is written in place.
// Every write and the close are checked, so a full disk is reported, not taken for success.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

namespace banklab::frontend {

// `-` as a file argument: standard input to read from, or standard output to write to.
inline bool is_standard_stream(std::string_view path) {
  return path == "-";
}

// A file argument as messages name it: "standard input" for `-`, else the path (shown()).
std::string input_name(std::string_view path);

// The whole input: standard input for `-` (at most once per process: a second `-` is an error,
// since the first one took everything), else the regular file at path (read_regular_file()).
// At most max_bytes either way.
Expected<std::string> read_input_file(const std::string& path, std::size_t max_bytes,
                                      std::string_view what);

// Makes path hold bytes, written as the header says, or "PATH: cannot write it:
// Permission denied", "PATH: cannot create it: No space left on device", ...
Expected<void> replace_file(const std::string& path, std::string_view bytes);

}  // namespace banklab::frontend

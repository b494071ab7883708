#pragma once
// Reading and writing the small text files the programs keep (scenario files, banklab-gui's
// settings and imgui.ini, screenshots): a file is read only when it is regular and at most a
// given size, so a FIFO, a device or a huge file is refused rather than waited on or loaded;
// a file is written whole or not at all (a temporary file beside it, renamed), checked to the
// close, so a full disk is reported, not taken for success.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

namespace banklab::frontend {

// The whole file, if it is a regular file of at most max_bytes. The error is "PATH: cannot open
// the WHAT: REASON", "PATH: not a regular file" or "PATH: larger than N bytes".
Expected<std::string> read_regular_file(const std::string& path, std::size_t max_bytes,
                                        std::string_view what);

// Writes bytes to path. A regular file (or a new one) is replaced by a rename of a temporary
// file written beside it; anything else (a pipe, /dev/stdout) is written in place. Either way
// every write and the close are checked: "PATH: cannot write it: No space left on device".
Expected<void> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace banklab::frontend

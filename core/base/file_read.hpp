#pragma once
// Reading what a user hands the programs (lesson files, scenario files, recordings, settings,
// standard input) in bounded memory and time. A file is read only when it is a regular file of
// at most a given size, opened without blocking, so a FIFO, a device, a folder or a huge (even
// sparse) file is refused at once rather than waited on or loaded; a stream is read up to the
// same kind of limit and refused past it, so `cat /dev/zero | banklab ...` ends with a message.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

namespace banklab {

// The whole file, if it is a regular file of at most max_bytes. `what` names it in the errors
// ("lesson file"): "PATH: cannot open the WHAT: REASON", "PATH: a folder, not a WHAT",
// "PATH: not a regular file", "PATH: larger than N bytes", "PATH: cannot read: REASON".
Expected<std::string> read_regular_file(const std::string& path, std::size_t max_bytes,
                                        std::string_view what);

// Everything an open descriptor gives until its end, if that is at most max_bytes: "NAME:
// longer than N bytes" as soon as the next byte would pass the limit (nothing more is read),
// "NAME: cannot read: REASON" (a closed descriptor: Bad file descriptor).
Expected<std::string> read_stream(int fd, std::size_t max_bytes, std::string_view name);

}  // namespace banklab

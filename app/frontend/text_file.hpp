#pragma once
// Writing a whole file or nothing: the text goes to a temporary file beside `path`, is flushed
// and closed (a full disk shows up there), then renamed over `path`. banklab's scenario files
// and exports and banklab-gui's File menu write through it.
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

namespace banklab::frontend {

// "PATH: cannot create it: No space left on device", or true. A path that exists and is not a
// regular file (a folder, a device, a pipe) is refused, never replaced: "PATH: not a regular
// file; <what> is written to a file" (what: "a scenario", "an export").
Expected<void> write_text_file(const std::string& path, std::string_view text,
                               std::string_view what);

}  // namespace banklab::frontend

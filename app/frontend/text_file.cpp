#include "app/frontend/text_file.hpp"

#include <sys/stat.h>

#include "app/frontend/file_io.hpp"
#include "core/base/format.hpp"

namespace banklab::frontend {

Expected<void> write_text_file(const std::string& path, std::string_view text,
                               std::string_view what) {
  // The file is replaced by a rename: never do that to a device, a pipe or a folder.
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    return Error{shown(path, 200) + ": not a regular file; " + std::string(what) +
                 " is written to a file"};
  }
  return replace_file(path, text);
}

}  // namespace banklab::frontend

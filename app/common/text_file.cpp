#include "text_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "banklab/format.hpp"

namespace banklab::cli {

Expected<bool> write_text_file(const std::string& path, std::string_view text,
                               std::string_view what) {
  // The file is replaced by a rename: never do that to a device, a pipe or a folder.
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    return Error{shown(path, 200) + ": not a regular file; " + std::string(what) +
                 " is written to a file"};
  }
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  const auto fail = [&](std::string_view step) {
    const std::string message =
        shown(path, 200) + ": cannot " + std::string(step) + ": " + std::strerror(errno);
    std::remove(temporary.c_str());
    return Error{message};
  };
  std::FILE* out = std::fopen(temporary.c_str(), "wb");
  if (out == nullptr) return fail("create it");
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  if (std::fclose(out) != 0 || !written) return fail("write it");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) return fail("replace it");
  return true;
}

}  // namespace banklab::cli

#include "app/frontend/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/base/format.hpp"

namespace banklab::frontend {

Expected<std::string> read_regular_file(const std::string& path, std::size_t max_bytes,
                                        std::string_view what) {
  const std::string where = shown(path, 200) + ": ";
  // O_NONBLOCK: opening a FIFO with no writer must not wait; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return Error{where + "cannot open the " + std::string(what) + ": " + std::strerror(errno)};
  }
  struct stat info {};
  std::string text;
  std::string problem;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    problem = "not a regular file";
  } else if (static_cast<std::size_t>(info.st_size) > max_bytes) {
    problem = "larger than " + std::to_string(max_bytes) + " bytes";
  } else {
    text.resize(max_bytes + 1);
    std::size_t size = 0;
    ssize_t n = 0;
    while (size < text.size() && (n = ::read(fd, text.data() + size, text.size() - size)) != 0) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        problem = std::string("cannot read: ") + std::strerror(errno);
        break;
      }
      size += static_cast<std::size_t>(n);
    }
    text.resize(size);
    if (size > max_bytes) problem = "it grew past " + std::to_string(max_bytes) + " bytes";
  }
  ::close(fd);
  if (!problem.empty()) return Error{where + problem};
  return text;
}

Expected<void> write_file_atomically(const std::string& path, std::string_view bytes) {
  struct stat info {};
  const bool in_place = ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
  const std::string target = in_place ? path : path + ".tmp" + std::to_string(::getpid());
  const auto fail = [&](std::string_view what) {
    const std::string message =
        shown(path, 200) + ": cannot " + std::string(what) + ": " + std::strerror(errno);
    if (!in_place) std::remove(target.c_str());
    return Error{message};
  };
  std::FILE* out = std::fopen(target.c_str(), "wb");
  if (out == nullptr) return fail(in_place ? "open it" : "create it");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  const bool flushed = std::fflush(out) == 0;
  if (std::fclose(out) != 0 || !written || !flushed) return fail("write it");
  if (!in_place && std::rename(target.c_str(), path.c_str()) != 0) return fail("replace it");
  return {};
}

}  // namespace banklab::frontend

#include "core/base/file_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/base/format.hpp"

namespace banklab {
namespace {

// Reads until the end or until max_bytes + 1 bytes are in, whichever comes first: one byte past
// the limit is enough to know it was passed. "" or the reason reading failed.
std::string read_bounded(int fd, std::size_t max_bytes, std::string& text) {
  text.clear();
  // Grown as the bytes come, not reserved up front: a 16 MiB limit costs 16 MiB only when
  // that much arrives.
  std::size_t size = 0;
  for (;;) {
    if (size == text.size())
      text.resize(std::min(max_bytes + 1, std::max<std::size_t>(4096, 2 * size)));
    if (size == text.size()) break;  // max_bytes + 1 read
    const ssize_t n = ::read(fd, text.data() + size, text.size() - size);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      text.resize(size);
      return std::string("cannot read: ") + std::strerror(errno);
    }
    size += static_cast<std::size_t>(n);
  }
  text.resize(size);
  return {};
}

}  // namespace

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
  if (::fstat(fd, &info) != 0) {
    problem = std::string("cannot read: ") + std::strerror(errno);
  } else if (S_ISDIR(info.st_mode)) {
    problem = "a folder, not a " + std::string(what);
  } else if (!S_ISREG(info.st_mode)) {
    problem = "not a regular file";
  } else if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    problem = "larger than " + std::to_string(max_bytes) + " bytes";
  } else {
    problem = read_bounded(fd, max_bytes, text);
    if (problem.empty() && text.size() > max_bytes) {
      problem = "it grew past " + std::to_string(max_bytes) + " bytes";
    }
  }
  ::close(fd);
  if (!problem.empty()) return Error{where + problem};
  return text;
}

Expected<std::string> read_stream(int fd, std::size_t max_bytes, std::string_view name) {
  std::string text;
  const std::string problem = read_bounded(fd, max_bytes, text);
  if (!problem.empty()) return Error{std::string(name) + ": " + problem};
  if (text.size() > max_bytes) {
    return Error{std::string(name) + ": longer than " + std::to_string(max_bytes) + " bytes"};
  }
  return text;
}

}  // namespace banklab

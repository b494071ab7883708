#include "app/frontend/file_io.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>

#include "core/base/file_read.hpp"
#include "core/base/format.hpp"

namespace banklab::frontend {
namespace {

// Closes a descriptor when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  // The close's own result: on some file systems a failed write shows up only here.
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

// The signals that end a program from outside (Ctrl-C, kill, a closed terminal), held back while
// a temporary file has a name, so that it never outlives an interrupted write.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, signal);
    pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

// The file a path names once its symbolic links are followed (at most 40, as the kernel allows):
// a write replaces what the link points to and keeps the link. A dangling link gives the path
// it points to, which the write then creates, as the shell's `>` does.
Expected<std::string> follow_links(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
    std::string target(4096, '\0');
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0) return Error{std::strerror(errno)};
    target.resize(static_cast<std::size_t>(n));
    const std::size_t slash = path.rfind('/');
    if (!target.starts_with('/') && slash != std::string::npos) {
      target = path.substr(0, slash + 1) + target;
    }
    path = std::move(target);
  }
  return Error{std::strerror(ELOOP)};
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// All of bytes to fd, through short writes and interruptions; 0 or the errno.
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// A fresh short name in folder for the temporary file: ".banklab-" and 12 hex digits.
std::string temporary_name(const std::string& folder) {
  static std::atomic<std::uint64_t> counter{0};
  std::uint64_t x =
      static_cast<std::uint64_t>(::getpid()) << 32 ^ counter++ ^
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;  // splitmix64's finaliser
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return folder + "/" + format(".banklab-%012llx", static_cast<unsigned long long>(x >> 16));
}

// What went wrong, for the message: the step ("create it", "write it", "replace it") and errno.
struct Failure {
  const char* step;
  int error;
};

// Truncates and writes the file itself: for pipes, devices, hard-linked files and files whose
// owner a new file could not keep.
std::optional<Failure> write_in_place(const std::string& path, std::string_view bytes) {
  Descriptor fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (fd.get() < 0) return Failure{"open it", errno};
  if (const int error = write_all(fd.get(), bytes)) return Failure{"write it", error};
  if (fd.close() != 0) return Failure{"write it", errno};
  return std::nullopt;
}

// Names the unnamed temporary file fd and renames it over target, with the ending signals held
// back for the moment it has a name.
std::optional<Failure> name_and_rename(int fd, const std::string& target) {
  const std::string proc_path = "/proc/self/fd/" + std::to_string(fd);
  const SignalsHeld held;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = temporary_name(folder_of(target));
    if (::linkat(AT_FDCWD, proc_path.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      if (errno == EEXIST) continue;
      return Failure{"create it", errno};
    }
    if (::rename(name.c_str(), target.c_str()) != 0) {
      const int error = errno;
      ::unlink(name.c_str());
      return Failure{"replace it", error};
    }
    return std::nullopt;
  }
  return Failure{"create it", EEXIST};
}

// The temporary file for target: unnamed where the file system can (O_TMPFILE), else a short
// fresh name (then signals are held by the caller until it is renamed). -1 with errno set.
int open_temporary(const std::string& target, std::string& name) {
  const std::string folder = folder_of(target);
  const int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = temporary_name(folder);
    const int named = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (named >= 0 || errno != EEXIST) return named;
  }
  return -1;
}

// Whether a new file can be given old's owner and group: root can give any; another user can
// keep only their own user and a group they belong to.
bool can_keep_owner(const struct stat& old) {
  if (::geteuid() == 0) return true;
  if (old.st_uid != ::geteuid()) return false;
  if (old.st_gid == ::getegid()) return true;
  gid_t groups[256];
  const int n = ::getgroups(256, groups);
  return std::find(groups, groups + std::max(n, 0), old.st_gid) != groups + std::max(n, 0);
}

// Writes bytes into a temporary file beside target and renames it over target. `old` is the
// file being replaced (nullptr: a new file): its mode and owner pass to the new one.
std::optional<Failure> replace_by_rename(const std::string& target, std::string_view bytes,
                                         const struct stat* old) {
  std::string name;  // set when the temporary file has a name from the start
  std::optional<SignalsHeld> held(std::in_place);  // until the file is known to be unnamed
  Descriptor fd(open_temporary(target, name));
  if (fd.get() < 0) return Failure{"create it", errno};
  if (name.empty()) held.reset();
  const auto fail = [&](const char* step, int error) {
    if (!name.empty()) ::unlink(name.c_str());
    return Failure{step, error};
  };
  if (old != nullptr) {
    if ((old->st_uid != ::geteuid() || old->st_gid != ::getegid()) &&
        ::fchown(fd.get(), old->st_uid, old->st_gid) != 0) {
      return fail("write it", errno);
    }
    if (::fchmod(fd.get(), old->st_mode & 07777) != 0) return fail("write it", errno);
  }
  if (const int error = write_all(fd.get(), bytes)) return fail("write it", error);
  if (::fsync(fd.get()) != 0) return fail("write it", errno);
  if (name.empty()) {
    const std::optional<Failure> named = name_and_rename(fd.get(), target);
    if (fd.close() != 0 && !named) return Failure{"write it", errno};
    return named;
  }
  if (fd.close() != 0) return fail("write it", errno);
  if (::rename(name.c_str(), target.c_str()) != 0) return fail("replace it", errno);
  return std::nullopt;
}

}  // namespace

std::string input_name(std::string_view path) {
  return is_standard_stream(path) ? "standard input" : shown(path, 200);
}

Expected<std::string> read_input_file(const std::string& path, std::size_t max_bytes,
                                      std::string_view what) {
  if (!is_standard_stream(path)) return read_regular_file(path, max_bytes, what);
  static std::atomic<bool> taken{false};
  if (taken.exchange(true)) {
    return Error{"-: standard input is read once, and an earlier argument already took it"};
  }
  return read_stream(STDIN_FILENO, max_bytes, "standard input");
}

Expected<void> replace_file(const std::string& path, std::string_view bytes) {
  const auto error = [&](Failure f) {
    return Error{shown(path, 200) + ": cannot " + f.step + ": " + std::strerror(f.error)};
  };
  const Expected<std::string> target = follow_links(path);
  if (!target) return Error{shown(path, 200) + ": cannot write it: " + target.error()};
  struct stat old {};
  std::optional<Failure> failed;
  if (::stat(target->c_str(), &old) != 0) {
    if (errno != ENOENT) return error(Failure{"write it", errno});
    failed = replace_by_rename(*target, bytes, nullptr);
  } else if (::access(target->c_str(), W_OK) != 0) {
    // Refused as the shell's `>` refuses it (root may write anything, as there).
    return error(Failure{"write it", errno});
  } else if (S_ISREG(old.st_mode) && old.st_nlink == 1 && can_keep_owner(old)) {
    failed = replace_by_rename(*target, bytes, &old);
    // A folder that takes no new file (not writable): the file itself still can be written.
    if (failed && failed->error == EACCES) failed = write_in_place(*target, bytes);
  } else {
    failed = write_in_place(*target, bytes);
  }
  if (failed) return error(*failed);
  return {};
}

}  // namespace banklab::frontend

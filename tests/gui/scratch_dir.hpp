#pragma once
// A folder of its own for a test that writes files: a fresh one under the system's temporary
// folder for each ScratchDir (the process ID and a count in its name), removed with everything
// in it at the end, its permissions given back first (some tests take them away).
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace banklab::gui::test {

struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("banklab-gui-test-" + std::to_string(::getpid()) + "-" + std::to_string(next()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

 private:
  static int next() {
    static int n = 0;
    return n++;
  }
};

}  // namespace banklab::gui::test

#pragma once
// Runs the banklab executable under test as a process, the way a user or a script does, and
// captures what it printed and how it exited.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace banklab::test {

struct Run {
  int status = -1;  // the exit status; -1 when the process did not exit normally
  std::string out;  // standard output
  std::string err;  // standard error
};

// `arguments` is a shell command line after the program name ("analyze --pad 1"); `input` is
// fed to standard input.
Run run_banklab(std::string_view arguments, std::string_view input = {});
// Any shell command line (a copy of banklab, a pipeline, `setpriv ... banklab`), run the same way:
// `input` on the standard input of its last command, its standard error captured.
Run run_shell(std::string_view command, std::string_view input = {});

// A file's bytes ("" when it cannot be read).
std::string read_file(const std::filesystem::path& path);

// The output of a --json run; fails the test (REQUIRE) when it is not a single JSON value.
nlohmann::json parse_json(const Run& run);

// A file with the given content in the temporary directory, deleted when it goes out of scope.
class TempFile {
 public:
  explicit TempFile(std::string_view content);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace banklab::test

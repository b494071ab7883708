#include "tests/cli/run_banklab.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace banklab::test {
namespace {

// Unique within the run (a counter) and across concurrent runs (the process id).
std::filesystem::path fresh_path() {
  static std::atomic<int> counter{0};
  return std::filesystem::temp_directory_path() /
         ("banklab_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
}

}  // namespace

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TempFile::TempFile(std::string_view content) : path_(fresh_path()) {
  std::ofstream out(path_, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  REQUIRE_MESSAGE(out.good(), "cannot write the temporary file ", path_.string());
}

TempFile::~TempFile() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

Run run_shell(std::string_view command_line, std::string_view input) {
  const TempFile stdin_file(input);
  const TempFile stderr_file("");
  // Grouped, so that a pipeline's first command gets the input and its own redirections win.
  const std::string command = "{ " + std::string(command_line) + "\n} < '" +
                              stdin_file.path().string() + "' 2> '" + stderr_file.path().string() +
                              "'";
  Run run;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE_MESSAGE(pipe != nullptr, "popen failed for: ", command);
  char block[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(block, 1, sizeof block, pipe)) > 0) run.out.append(block, n);
  const int wait_status = ::pclose(pipe);
  run.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  run.err = read_file(stderr_file.path());
  return run;
}

Run run_banklab(std::string_view arguments, std::string_view input) {
  return run_shell(std::string("'") + BANKLAB_EXE + "' " + std::string(arguments), input);
}

nlohmann::json parse_json(const Run& run) {
  INFO("stdout: ", run.out);
  INFO("stderr: ", run.err);
  const nlohmann::json value = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  REQUIRE_FALSE(value.is_discarded());
  return value;
}

}  // namespace banklab::test

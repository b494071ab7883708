// banklab's files as a hostile user hands them over (issue 22): `-` for every file argument,
// reads that stay bounded (/dev/zero, a 50 GB sparse file, a FIFO), writes that behave like a
// careful tool's (read-only files, modes, links, a kill mid-write, long names), and a lessons
// folder with a bad file in it. Each case failed before its fix.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "core/base/data_dir.hpp"
#include "core/teach/lesson.hpp"
#include "tests/cli/run_banklab.hpp"

namespace banklab::test {
namespace {

namespace fs = std::filesystem;

void spit(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh empty folder, removed with everything in it at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    static std::atomic<int> counter{0};
    path = fs::temp_directory_path() /
           ("banklab-files-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  // The names in the folder, sorted: what a write left behind.
  std::string listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const std::string& n : names) out += n + "\n";
    return out;
  }
};

const std::string kExe = std::string("'") + BANKLAB_EXE + "'";

}  // namespace

TEST_CASE("- is standard input or output for every file argument banklab takes") {
  TempDir dir;
  SUBCASE("export -o - writes to standard output and no file named -") {
    const Run to_stdout = run_banklab("export --preset fp32-naive --what table");
    const Run dash = run_banklab("export --preset fp32-naive --what table -o -");
    REQUIRE(dash.status == 0);
    CHECK(dash.out == to_stdout.out);
    CHECK_FALSE(fs::exists("-"));
  }
  SUBCASE("--save-scenario - into --scenario -, for analyze, explain and export") {
    const std::string save = "analyze --dtype bf16 --pad 1 --index 3 --save-scenario - | " + kExe;
    const Run saved = run_banklab("analyze --dtype bf16 --pad 1 --index 3 --save-scenario -");
    REQUIRE(saved.status == 0);
    CHECK(saved.out.starts_with("# BankLab scenario: bf16 tile[32][33], column 3"));
    CHECK(saved.out.find("\npad = 1\n") != std::string::npos);
    CHECK_FALSE(fs::exists("-"));
    for (const std::string command : {"analyze --json", "explain --json", "export --what banks"}) {
      CAPTURE(command);
      const Run piped = run_banklab(save + " " + command + " --scenario -");
      const Run plain = run_banklab(command + " --dtype bf16 --pad 1 --index 3");
      CHECK(piped.status == 0);
      CHECK(piped.err.empty());
      CHECK(piped.out == plain.out);
    }
    // Flags beside it still override the file's lines; a bad line names standard input.
    const Run override = run_banklab("analyze --scenario - --pad 2 --json", saved.out);
    CHECK(parse_json(override)["scenario"]["pad"] == 2);
    const Run bad = run_banklab("analyze --scenario -", "pad = two\n");
    CHECK(bad.status == 2);
    CHECK(bad.err == "banklab: standard input:1: --pad expects a whole number, got 'two'\n");
  }
  SUBCASE("lesson check - reads the lesson from standard input") {
    const Run ok = run_banklab("lesson check -", read_file(*lessons_dir() / "transpose.toml"));
    CHECK(ok.status == 0);
    CHECK(ok.out.starts_with("standard input: transpose, "));
    const Run bad = run_banklab("lesson check -", "title = \"t\n");
    CHECK(bad.status == 2);
    CHECK(bad.err.starts_with("banklab: standard input:1: "));
  }
}

TEST_CASE("reads are bounded: /dev/zero, a huge sparse file and a FIFO are refused at once") {
  TempDir dir;
  const fs::path sparse = dir.path / "huge.toml";
  {
    const int fd = ::open(sparse.c_str(), O_WRONLY | O_CREAT, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, 50LL << 30) == 0);  // 50 GB, no block on disk
    ::close(fd);
  }
  const fs::path fifo = dir.path / "fifo.toml";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  struct Case {
    std::string args;
    std::string error;
  };
  const Case cases[] = {
      {"lesson check /dev/zero", "banklab: /dev/zero: not a regular file\n"},
      {"lesson check " + sparse.string(),
       "banklab: " + sparse.string() + ": larger than 1048576 bytes\n"},
      {"lesson check " + fifo.string(), "banklab: " + fifo.string() + ": not a regular file\n"},
      {"lesson check " + dir.path.string(),
       "banklab: " + dir.path.string() + ": a folder, not a lesson file\n"},
      {"analyze --scenario " + sparse.string(),
       "banklab: " + sparse.string() + ": larger than 65536 bytes\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const auto start = std::chrono::steady_clock::now();
    const Run run = run_banklab(c.args);
    CHECK(run.status == 2);
    CHECK(run.err == c.error);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));  // a guard
  }
  // Standard input past its limit: nothing more is read, and the reason is given.
  const Run endless = run_banklab("lesson check - < /dev/zero");
  CHECK(endless.status == 2);
  CHECK(endless.err == "banklab: standard input: longer than 1048576 bytes\n");
}

TEST_CASE("export -o writes as a careful tool: modes, links, read-only files, kills, long names") {
  TempDir dir;
  const fs::path file = dir.path / "banks.svg";
  const std::string export_to = "export --preset fp32-naive --what banks -o ";
  const std::string svg = run_banklab("export --preset fp32-naive --what banks").out;
  REQUIRE(svg.size() > 8192);

  SUBCASE("a file's own mode is kept") {
    spit(file, "old");
    REQUIRE(::chmod(file.c_str(), 0640) == 0);
    spit(file, "old");
    REQUIRE(run_banklab(export_to + file.string()).status == 0);
    CHECK(read_file(file) == svg);
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0640);
  }
  SUBCASE("a symbolic link stays a link; the file it names is replaced") {
    spit(file, "old");
    const fs::path link = dir.path / "link.svg";
    fs::create_symlink("banks.svg", link);
    REQUIRE(run_banklab(export_to + link.string()).status == 0);
    CHECK(fs::is_symlink(link));
    CHECK(read_file(file) == svg);
  }
  SUBCASE("a hard link sees the new bytes") {
    spit(file, "old");
    const fs::path other = dir.path / "other.svg";
    fs::create_hard_link(file, other);
    REQUIRE(run_banklab(export_to + file.string()).status == 0);
    CHECK(read_file(other) == svg);
    CHECK(fs::hard_link_count(file) == 2);
  }
  SUBCASE("a read-only file is refused, as the shell's > refuses it") {
    spit(file, "old");
    REQUIRE(::chmod(file.c_str(), 0444) == 0);
    REQUIRE(::chmod(dir.path.c_str(), 0777) == 0);
    // Root may write anything; the rule is the one an ordinary user meets, so run as one.
    const std::string as_user = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 "
                                                   "--clear-groups "
                                                 : "";
    const Run run = run_shell(as_user + kExe + " " + export_to + file.string());
    CHECK(run.status == 1);
    CHECK(run.err == "banklab: " + file.string() + ": cannot write it: Permission denied\n");
    CHECK(read_file(file) == "old");
  }
  SUBCASE("killed mid-write (file size limit: SIGXFSZ), the old file stays and nothing else") {
    spit(file, "old");
    const std::string before = dir.listing();
    const std::string command = "ulimit -f 8; exec " + kExe + " " + export_to + file.string();
    CHECK(std::system(("sh -c \"" + command + "\" 2>/dev/null").c_str()) != 0);
    CHECK(dir.listing() == before);
    CHECK(read_file(file) == "old");
  }
  SUBCASE("a name of 254 bytes, valid on every Linux file system, is written") {
    const fs::path long_name = dir.path / (std::string(250, 'n') + ".svg");
    const Run run = run_banklab(export_to + long_name.string());
    CHECK(run.err.empty());
    CHECK(run.status == 0);
    CHECK(read_file(long_name) == svg);
    CHECK(dir.listing() == long_name.filename().string() + "\n");
  }
}

TEST_CASE("a bad file in the lessons folder is named, and the good lessons are still listed") {
  // A copy of banklab in PREFIX/bin finds its data in PREFIX/share/banklab (core/base/data_dir).
  TempDir prefix;
  fs::create_directories(prefix.path / "bin");
  const fs::path exe = prefix.path / "bin" / "banklab";
  fs::copy_file(BANKLAB_EXE, exe);
  const std::string run_copy = "env -u BANKLAB_DATA_DIR '" + exe.string() + "' ";

  SUBCASE("no data folder: the installation's fault, exit 1") {
    for (const char* args : {"lesson list", "lesson show transpose"}) {
      CAPTURE(args);
      const Run run = run_shell(run_copy + args);
      CHECK(run.status == 1);
      CHECK(run.err.starts_with("banklab: BankLab's data folder was not found"));
    }
  }
  SUBCASE("a malformed file, a FIFO and a folder named x.toml beside the good lessons") {
    const fs::path lessons = prefix.path / "share" / "banklab" / "lessons";
    fs::create_directories(lessons);
    for (const char* name : {"interview.toml", "transpose.toml"}) {
      fs::copy_file(*lessons_dir() / name, lessons / name);
    }
    // The lessons quote the shipped recording's figures: it is part of the data folder.
    fs::create_directories(lessons.parent_path() / "recordings");
    fs::copy_file(lessons_dir()->parent_path() / "recordings" / "nvidia-h200.json",
                  lessons.parent_path() / "recordings" / "nvidia-h200.json");
    spit(lessons / "broken.toml", "title = \"t\n");
    REQUIRE(::mkfifo((lessons / "fifo.toml").c_str(), 0600) == 0);
    fs::create_directories(lessons / "folder.toml");
    const Run list = run_shell(run_copy + "lesson list");
    CHECK(list.status == 1);
    CHECK(list.out.find("interview  (") != std::string::npos);
    CHECK(list.out.find("transpose  (") != std::string::npos);
    const std::string folder = lessons.string() + "/";
    CHECK(list.err.find("banklab: " + folder + "broken.toml:1: ") != std::string::npos);
    CHECK(list.err.find("banklab: " + folder +
                        "fifo.toml: not a regular file (left out of the list)\n") !=
          std::string::npos);
    CHECK(list.err.find("banklab: " + folder +
                        "folder.toml: a folder, not a lesson file (left out of the list)\n") !=
          std::string::npos);
    // A good lesson still opens; the bad one says why it cannot.
    CHECK(run_shell(run_copy + "lesson show transpose").status == 0);
    const Run broken = run_shell(run_copy + "lesson show broken");
    CHECK(broken.status == 2);
    CHECK(broken.err.starts_with("banklab: " + folder + "broken.toml:1: "));
  }
}

TEST_CASE("gpu-bench --replay checks what it reads, and - reads standard input") {
  const fs::path shipped = *data_dir() / "recordings" / "nvidia-h200.json";
  const std::string json = read_file(shipped);
  REQUIRE_FALSE(json.empty());
  SUBCASE("--replay - prints what --replay FILE prints") {
    const Run file = run_banklab("gpu-bench --replay '" + shipped.string() + "'");
    const Run dash = run_banklab("gpu-bench --replay -", json);
    CHECK(dash.out == file.out);
    CHECK(dash.status == file.status);
    CHECK(dash.out.starts_with("Recorded "));
  }
  TempDir dir;
  // The shipped recording with one field changed, replayed.
  const auto replay = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = nlohmann::json::parse(json);
    change(j);
    const fs::path file = dir.path / "changed.json";
    spit(file, j.dump());
    return run_banklab("gpu-bench --replay '" + file.string() + "'");
  };
  SUBCASE("impossible figures are refused with their path (exit 2)") {
    const Run rows = replay([](nlohmann::json& j) { j["suites"][0]["rows"] = -1; });
    CHECK(rows.status == 2);
    CHECK(rows.err.find("recording.suites[0].rows is -1; it must be 1 to 1048576") !=
          std::string::npos);
    const Run clock = replay([](nlohmann::json& j) { j["sweep"]["measured_sm_clock_mhz"] = -5; });
    CHECK(clock.status == 2);
    const Run gbps =
        replay([](nlohmann::json& j) { j["suites"][0]["results"][0]["gbps"] = 1e308; });
    CHECK(gbps.status == 2);
    const Run predicted = replay([](nlohmann::json& j) {
      for (nlohmann::json& p : j["lesson"]["patterns"]) p["predicted_wavefronts"] = 7;
    });
    CHECK(predicted.status == 2);
    CHECK(predicted.err.find("predicted_wavefronts is 7, but the core counts ") !=
          std::string::npos);
  }
  SUBCASE("a cross-check's verdict and validate's mismatches fail the replay (exit 1)") {
    const Run cross = replay([](nlohmann::json& j) {
      j["cross_check"][1]["hardware_instructions"] = 1;
      j["cross_check"][1]["agrees"] = true;
    });
    CHECK(cross.status == 1);
    CHECK(cross.out.find("instructions of the measured class, the hardware 1\n") !=
          std::string::npos);
    const Run mismatches = replay([](nlohmann::json& j) {
      const std::int64_t patterns = j["validate"]["patterns"];
      j["validate"]["agree"] = patterns - 299;
      j["validate"]["mismatch"] = 299;
    });
    CHECK(mismatches.status == 1);
    CHECK(mismatches.out.find(" 299 mismatch, ") != std::string::npos);
    CHECK(mismatches.err.starts_with("banklab: the recording holds a failed check"));
  }
  SUBCASE("an escape sequence in a text reaches the terminal as \\xNN, never raw") {
    const Run escape = replay([](nlohmann::json& j) {
      j["device"]["name"] = "NVIDIA H200\x1b]0;pwned\x07\x1b[2J";
      j["lesson"]["patterns"][0]["label"] = "label\u009b31m";
    });
    CHECK(escape.out.find('\x1b') == std::string::npos);
    CHECK(escape.out.find('\x07') == std::string::npos);
    CHECK(escape.out.find("\u009b") == std::string::npos);
    CHECK(escape.out.find("on NVIDIA H200\\x1b]0;pwned\\x07\\x1b[2J (driver") != std::string::npos);
  }
}

}  // namespace banklab::test

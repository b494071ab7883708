// banklab-gui as a program, under Xvfb: it always starts, whatever its settings folder holds (a
// NaN zoom, a corrupt imgui.ini, a FIFO, a link to /dev/zero), and a file it cannot write makes
// it exit 1 with the reason. No fixed delay decides a result: a started app is recognised by
// the warnings it prints before its first frame, then stopped with SIGTERM, which must be what
// ends it (an abort or a segfault would end it first).
//
// [SECTION] Running the app
// [SECTION] Displays, settings folders, files and windows
// [SECTION] Settings it cannot trust
// [SECTION] Saving, the window's size and standard input
// [SECTION] Lessons and scans it cannot read
#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

// [SECTION] Running the app

struct Run {
  int status = -1;  // exit status, or 128 + signal
  std::string log;
};

// banklab-gui (or any command) started through sh, its stdout and stderr in one pipe.
class App {
 public:
  explicit App(const std::string& command) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::dup2(fds[1], 1);
      ::dup2(fds[1], 2);
      ::close(fds[0]);
      ::close(fds[1]);
      ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    out_ = fds[0];
  }
  ~App() {
    if (pid_ > 0) finish(SIGKILL);
  }
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& log() const { return log_; }

  // Reads the output until every string of `texts` has appeared (true) or the output ends or
  // `guard` passes with nothing new (false). A guard, not a measurement.
  bool wait_for(const std::vector<std::string>& texts, int guard_ms = 120000) {
    const auto seen = [&] {
      for (const std::string& t : texts)
        if (log_.find(t) == std::string::npos) return false;
      return true;
    };
    while (!seen()) {
      if (!read_some(guard_ms)) return false;
    }
    return true;
  }

  // Sends the signal (none: 0), reads the rest of the output and reaps the process.
  Run finish(int signal) {
    if (signal != 0) ::kill(pid_, signal);
    // An app that does not end (a FIFO read) is killed after two minutes.
    if (!drain(120000)) {
      ::kill(pid_, SIGKILL);
      drain(120000);
    }
    ::close(out_);
    int raw = 0;
    ::waitpid(pid_, &raw, 0);
    pid_ = -1;
    return Run{WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), log_};
  }

 private:
  // One read of the output, waiting at most guard_ms; false at its end or when nothing came.
  bool read_some(int guard_ms) {
    pollfd wait{out_, POLLIN, 0};
    char buf[4096];
    if (::poll(&wait, 1, guard_ms) != 1) return false;
    const ssize_t n = ::read(out_, buf, sizeof buf);
    if (n <= 0) return false;
    log_.append(buf, static_cast<std::size_t>(n));
    return true;
  }
  // Reads until the output ends (true) or nothing came for guard_ms (false).
  bool drain(int guard_ms) {
    pollfd wait{out_, POLLIN, 0};
    char buf[4096];
    for (;;) {
      if (::poll(&wait, 1, guard_ms) != 1) return false;
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n <= 0) return true;
      log_.append(buf, static_cast<std::size_t>(n));
    }
  }

  pid_t pid_ = -1;
  int out_ = -1;
  std::string log_;
};

// Runs `command`; when every string of `wait_for` has appeared in its output, waits a second
// and sends SIGTERM. With nothing to wait for, it runs to its end.
Run run_until(const std::string& command, const std::vector<std::string>& wait_for) {
  App app(command);
  if (wait_for.empty()) return app.finish(0);
  const bool started = app.wait_for(wait_for);
  if (started) std::this_thread::sleep_for(std::chrono::seconds(1));  // a few frames; never decides
  return app.finish(started ? SIGTERM : SIGKILL);
}

// [SECTION] Displays, settings folders, files and windows

void require_display() {
  const char* display = std::getenv("DISPLAY");
  REQUIRE_MESSAGE((display && *display), "DISPLAY is not set: run under Xvfb (label xvfb)");
}

struct ConfigDir {
  fs::path root = fs::temp_directory_path() / ("banklab-gui-startup-" + std::to_string(::getpid()));
  fs::path dir = root / "banklab";
  ConfigDir() { fs::create_directories(dir); }
  ~ConfigDir() { fs::remove_all(root); }
  std::string command() const {
    return "env XDG_CONFIG_HOME=" + root.string() + " " + BANKLAB_GUI_EXE;
  }
};

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// xdotool (Debian's xdotool, a test package) with these arguments; its standard output.
std::string xdotool(const std::string& arguments) {
  std::FILE* pipe = ::popen(("xdotool " + arguments + " 2>/dev/null").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  ::pclose(pipe);
  return out;
}

// The X window of a running app (xdotool waits for it to appear).
std::string window_of(const App& app) {
  const std::string found =
      xdotool("search --sync --onlyvisible --pid " + std::to_string(app.pid()));
  return found.substr(0, found.find('\n'));
}

// Polls `done` every 100 ms for up to `seconds`: for a state another process reaches.
template <class Done>
bool eventually(Done done, int seconds = 30) {
  for (int i = 0; i < seconds * 10; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

// Types an answer and Enter into the Drill window of `app` (the answer box has the keyboard
// focus), once its first frames are drawn.
void type_answer(const App& app, const std::string& answer) {
  const std::string window = window_of(app);
  REQUIRE_FALSE(window.empty());
  std::this_thread::sleep_for(std::chrono::seconds(2));  // its first frames; never decides
  // Enter held across frames: ImGui 1.86 reads keys as held or not once a frame, so a press and
  // release between two frames (xdotool's `key`) would not be seen.
  // (`type` takes every word after it as text, so Enter is a command of its own.)
  xdotool("windowfocus --sync " + window + " type --delay 50 " + answer);
  xdotool("windowfocus --sync " + window + " keydown Return sleep 0.3 keyup Return");
}

}  // namespace

// [SECTION] Settings it cannot trust

TEST_CASE("banklab-gui starts with a NaN zoom and a corrupt imgui.ini, and repairs both") {
  require_display();
  ConfigDir c;
  write(c.dir / "banklab-gui.conf", "zoom = nan\ntheme = light\nlater = 1\n");
  write(c.dir / "imgui.ini", "[Table][0x12345678,-5]\nColumn 0  Width=3\n");
  Run r = run_until(c.command(), {"got 'nan'", "left out of the window layout"});
  CAPTURE(r.log);
  CHECK(r.status == 128 + SIGTERM);
  std::ifstream in(c.dir / "banklab-gui.conf");
  std::string conf((std::istreambuf_iterator<char>(in)), {});
  CHECK(conf.find("zoom = 1\n") != std::string::npos);
  CHECK(conf.find("theme = \"light\"\n") != std::string::npos);  // written back as TOML
  CHECK(conf.find("later = 1\n") != std::string::npos);
}

TEST_CASE("banklab-gui starts when its settings file is a FIFO or a link to /dev/zero") {
  require_display();
  for (bool fifo : {true, false}) {
    CAPTURE(fifo);
    ConfigDir c;
    fs::path conf = c.dir / "banklab-gui.conf";
    if (fifo) {
      REQUIRE(::mkfifo(conf.c_str(), 0600) == 0);
    } else {
      fs::create_symlink("/dev/zero", conf);
    }
    Run r = run_until(c.command(),
                      {"not a regular file; using the defaults", "settings will not be kept"});
    CAPTURE(r.log);
    CHECK(r.status == 128 + SIGTERM);
  }
}

TEST_CASE("a screenshot or geometry file that cannot be written is exit 1 with the reason") {
  require_display();
  std::string png =
      (fs::temp_directory_path() / ("banklab-gui-startup-" + std::to_string(::getpid()) + ".png"))
          .string();
  for (const std::string& args :
       {std::string("--screenshot /dev/full"), "--screenshot " + png + " --geometry /dev/full"}) {
    CAPTURE(args);
    Run r = run_until(std::string(BANKLAB_GUI_EXE) + " --size 320x240 " + args, {});
    CAPTURE(r.log);
    CHECK(r.status == 1);
    CHECK(r.log.find("/dev/full: cannot write it: No space left on device") != std::string::npos);
  }
  fs::remove(png);
}

TEST_CASE("a settings file the app refused to read is left exactly as it was (issue 22)") {
  require_display();
  ConfigDir c;
  // 81 KB: a drill record and 1,500 comment lines, over the 64 KiB the app reads.
  std::string text =
      "theme = light\nzoom = 2\ndrill_level = hire\ndrill_right = 40\n"
      "drill_answered = 50\ndrill_streak = 3\ndrill_best_streak = 9\n";
  while (text.size() < 81 * 1024) text += "# a comment line the user keeps, fifty-odd bytes long\n";
  write(c.dir / "banklab-gui.conf", text);
  Run r = run_until(c.command(), {"larger than 65536 bytes; using the defaults, and the file is "
                                  "left as it is",
                                  "settings will not be kept"});
  CAPTURE(r.log);
  CHECK(r.status == 128 + SIGTERM);
  CHECK(read(c.dir / "banklab-gui.conf") == text);
}

TEST_CASE("with HOME=/nonexistent the app creates no folder above its own (issue 22)") {
  require_display();
  const fs::path home =
      fs::temp_directory_path() / ("banklab-gui-nohome-" + std::to_string(::getpid()));
  REQUIRE_FALSE(fs::exists(home));
  Run r = run_until("env -u XDG_CONFIG_HOME HOME=" + home.string() + " " + BANKLAB_GUI_EXE,
                    {"settings will not be kept: cannot create " + home.string() +
                     "/.config/banklab: " + home.string() + " is not a folder"});
  CAPTURE(r.log);
  CHECK(r.status == 128 + SIGTERM);
  CHECK_FALSE(fs::exists(home));
  fs::remove_all(home);
}

TEST_CASE("a settings warning shows a NUL byte and an escape sequence, never cut or raw") {
  require_display();
  ConfigDir c;
  write(c.dir / "banklab-gui.conf", std::string("theme = da\0rk\x1b[2J\n", 18));
  Run r = run_until(c.command(), {"theme is 'dark' or 'light', got 'da\\x00rk\\x1b[2J'"});
  CAPTURE(r.log);
  CHECK(r.status == 128 + SIGTERM);
  CHECK(r.log.find('\x1b') == std::string::npos);
}

// [SECTION] Saving, the window's size and standard input

TEST_CASE("a drill answer is saved at once: SIGTERM loses nothing, two apps add up (issue 22)") {
  require_display();
  ConfigDir c;
  const fs::path conf = c.dir / "banklab-gui.conf";
  const auto answered = [&](int n) {
    return [&, n] {
      return read(conf).find("drill_answered = " + std::to_string(n) + "\n") != std::string::npos;
    };
  };
  // Two apps on one settings file, each answering one weak question (a number).
  const std::string command = c.command() + " --drill weak --drill-seed 3";
  App first(command);
  App second(command);
  type_answer(first, "1");
  CHECK(eventually(answered(1)));
  type_answer(second, "1");
  CHECK(eventually(answered(2)));  // merged, not the second's own count of 1
  const Run a = first.finish(SIGTERM);
  const Run b = second.finish(SIGTERM);
  CAPTURE(a.log);
  CAPTURE(b.log);
  CHECK(a.status == 128 + SIGTERM);  // ended by the signal, after saving
  CHECK(b.status == 128 + SIGTERM);
  CHECK(answered(2)());
}

TEST_CASE("a window resized to 32767x32767 is put back within the size limit (issue 22)") {
  require_display();
  ConfigDir c;
  App app(c.command());
  const std::string window = window_of(app);
  REQUIRE_FALSE(window.empty());
  xdotool("windowsize " + window + " 32767 32767");
  const auto width = [&] {
    const std::string geometry = xdotool("getwindowgeometry " + window);
    const std::size_t at = geometry.find("Geometry: ");
    return at == std::string::npos ? -1 : std::atoi(geometry.c_str() + at + 10);
  };
  CHECK(eventually([&] { return width() > 0 && width() <= 7680; }));
  CHECK(::kill(app.pid(), 0) == 0);  // still running
  const Run r = app.finish(SIGTERM);
  CAPTURE(r.log);
  CHECK(r.status == 128 + SIGTERM);
}

// Issue 33: `xdotool key` sends a press and its release back to back, as a presentation
// clicker does; under ImGui 1.86's own key handling both often landed between two frames and
// the tap was lost, the first one after launch most of all (the first frames are the slowest).
// Each tap here is a zoom step, which the app saves to its settings file at once: four taps,
// the first sent as soon as the window is mapped, must make 1.5 exactly. 50 ms between taps:
// GLFW on X11 takes a release and a press of the same key less than 20 ms apart for the
// keyboard's auto-repeat (one key held), as a clicker's taps never are.
TEST_CASE("every key tap counts, the first after launch too (issue 33)") {
  require_display();
  ConfigDir c;
  const fs::path conf = c.dir / "banklab-gui.conf";
  App app(c.command());
  const std::string window = window_of(app);
  REQUIRE_FALSE(window.empty());
  xdotool("windowfocus --sync " + window + " key --delay 50 equal equal equal equal");
  const auto zoom_is = [&](const std::string& zoom) {
    return [&, zoom] { return read(conf).find("zoom = " + zoom + "\n") != std::string::npos; };
  };
  CHECK(eventually(zoom_is("1.5")));
  // Then a tap of the other key, alone: one step back.
  xdotool("windowfocus --sync " + window + " key minus");
  CHECK(eventually(zoom_is("1.375")));
  const Run r = app.finish(SIGTERM);
  CAPTURE(r.log);
  CHECK(r.status == 128 + SIGTERM);
}

TEST_CASE("--scenario - and --gpu-results - read standard input (issue 22)") {
  require_display();
  const fs::path dir =
      fs::temp_directory_path() / ("banklab-gui-dash-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string shot = std::string(BANKLAB_GUI_EXE) + " --size 640x400 --screenshot ";
  const Run piped = run_until("sh -c \"printf 'dtype = bf16\\npad = 1\\nindex = 3\\n' | " + shot +
                                  (dir / "piped.png").string() + " --scenario -\"",
                              {});
  const Run flags =
      run_until(shot + (dir / "flags.png").string() + " --dtype bf16 --pad 1 --index 3", {});
  CAPTURE(piped.log);
  CHECK(piped.status == 0);
  CHECK(flags.status == 0);
  CHECK(read(dir / "piped.png") == read(dir / "flags.png"));
  // --gpu-results - likewise: the GPU window on the shipped recording, from a pipe.
  const Run recording = run_until(shot + (dir / "gpu.png").string() + " --gpu-results - < " +
                                      BANKLAB_SOURCE_DIR + "/assets/recordings/nvidia-h200.json",
                                  {});
  CAPTURE(recording.log);
  CHECK(recording.status == 0);
  fs::remove_all(dir);
}

// [SECTION] Lessons and scans it cannot read

TEST_CASE("a FIFO and a bad file in the lessons folder neither hang nor hide the lessons") {
  require_display();
  // A copy of banklab-gui in PREFIX/bin finds its data in PREFIX/share/banklab.
  const fs::path prefix =
      fs::temp_directory_path() / ("banklab-gui-lessons-" + std::to_string(::getpid()));
  const fs::path lessons = prefix / "share" / "banklab" / "lessons";
  fs::create_directories(prefix / "bin");
  fs::create_directories(lessons);
  fs::copy_file(BANKLAB_GUI_EXE, prefix / "bin" / "banklab-gui");
  fs::copy_file(fs::path(BANKLAB_SOURCE_DIR) / "assets/lessons/transpose.toml",
                lessons / "transpose.toml");
  // The lessons quote the shipped recording's figures: it is part of the data folder.
  fs::create_directories(lessons.parent_path() / "recordings");
  fs::copy_file(fs::path(BANKLAB_SOURCE_DIR) / "assets/recordings/nvidia-h200.json",
                lessons.parent_path() / "recordings" / "nvidia-h200.json");
  // Read in name order: the FIFO first (reading it would never end), then the broken file.
  REQUIRE(::mkfifo((lessons / "a-fifo.toml").c_str(), 0600) == 0);
  write(lessons / "broken.toml", "title = \"t\n");
  // The screenshot draws the Lesson window, which lists the lessons; then a lesson opens.
  const std::string exe = "env -u BANKLAB_DATA_DIR " + (prefix / "bin" / "banklab-gui").string();
  const Run shot = run_until(exe + " --screenshot " + (prefix / "shot.png").string(), {});
  CAPTURE(shot.log);
  CHECK(shot.status == 0);
  const Run lesson =
      run_until(exe + " --lesson transpose --screenshot " + (prefix / "lesson.png").string(), {});
  CAPTURE(lesson.log);
  CHECK(lesson.status == 0);
  const Run bad =
      run_until(exe + " --lesson broken --screenshot " + (prefix / "bad.png").string(), {});
  CHECK(bad.status == 2);
  CHECK(bad.log.find((lessons / "broken.toml").string() + ":1: ") != std::string::npos);
  fs::remove_all(prefix);
}

TEST_CASE("--scan with a file it cannot scan, or --line without an access, is exit 2 with why") {
  const fs::path dir =
      fs::temp_directory_path() / ("banklab-gui-scan-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "broken.cu") << "__global__ void k() {\n  __shared__ float s[32;\n}\n";
  const std::string transpose =
      (fs::path(BANKLAB_SOURCE_DIR) / "tests" / "scan" / "corpus" / "transpose.cu").string();
  const std::pair<std::string, std::string> cases[] = {
      {"--scan " + (dir / "missing.cu").string(), "--scan: " + (dir / "missing.cu").string()},
      {"--scan " + dir.string(), "a folder, not a kernel source"},
      {"--scan " + (dir / "broken.cu").string(), "broken.cu:4:1: error:"},
      {"--scan " + transpose + " --line 11", "--line: line 11 of " + transpose},
      {"--line 3", "--line goes with --scan FILE.cu"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const Run r = run_until(std::string(BANKLAB_GUI_EXE) + " " + args, {});
    CAPTURE(r.log);
    CHECK(r.status == 2);
    CHECK(r.log.find(message) != std::string::npos);
  }
  fs::remove_all(dir);
}

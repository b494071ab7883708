// banklab-gui as a program, under Xvfb: it always starts, whatever its settings folder holds (a
// NaN zoom, a corrupt imgui.ini, a FIFO, a link to /dev/zero), and a file it cannot write makes
// it exit 1 with the reason. No fixed delay decides a result: a started app is recognised by
// the warnings it prints before its first frame, then stopped with SIGTERM, which must be what
// ends it (an abort or a segfault would end it first).
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
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Run {
  int status = -1;  // exit status, or 128 + signal
  std::string log;
};

// Runs `command` through sh with stdout and stderr in a pipe; when every string of
// `wait_for` has appeared in its output, waits a second and sends SIGTERM.
Run run_until(const std::string& command, const std::vector<std::string>& wait_for) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  Run r;
  char buf[4096];
  bool sent = false;
  ssize_t n = -1;
  // A guard, not a measurement: an app that hangs (a FIFO read) is killed after two minutes.
  pollfd wait{fds[0], POLLIN, 0};
  while (::poll(&wait, 1, 120000) == 1 && (n = ::read(fds[0], buf, sizeof buf)) > 0) {
    r.log.append(buf, static_cast<std::size_t>(n));
    bool all_seen = !wait_for.empty();
    for (const std::string& w : wait_for) all_seen = all_seen && r.log.find(w) != std::string::npos;
    if (all_seen && !sent) {
      std::this_thread::sleep_for(std::chrono::seconds(1));  // a few frames; never decides
      ::kill(pid, SIGTERM);
      sent = true;
    }
  }
  if (n != 0) ::kill(pid, SIGKILL);  // the guard fired
  ::close(fds[0]);
  int raw = 0;
  ::waitpid(pid, &raw, 0);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  return r;
}

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

}  // namespace

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

#include "app/gui/platform/stop_signals.hpp"

#include <csignal>
#include <initializer_list>

namespace banklab::gui {
namespace {

// A signal handler can only leave a note: this is it (the one global of the app's platform).
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void note_stop_signal(int signal) {
  g_stop_signal = signal;
}

}  // namespace

void catch_stop_signals() {
  struct sigaction action {};
  action.sa_handler = note_stop_signal;
  action.sa_flags = SA_RESETHAND;  // a second signal takes the default action: the app ends
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

int stop_signal() {
  return g_stop_signal;
}

void end_by_stop_signal() {
  const int signal = g_stop_signal;
  if (signal == 0) return;
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace banklab::gui

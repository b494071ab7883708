#pragma once
// Ctrl-C, `kill` and a closed terminal (SIGINT, SIGTERM, SIGHUP) end banklab-gui the way File >
// Quit does: the handler only notes the signal, the frame loop sees it within half a second
// (its longest wait for input) and leaves, and the cleanup saves the settings and the window
// layout. The signal is then raised again with its default action, so the app still ends as
// killed by it for whoever sent it (a shell, a test, systemd). A second signal before that ends
// it at once: the handler runs once.
namespace banklab::gui {

void catch_stop_signals();
// The signal that asked the app to stop, or 0.
int stop_signal();
// When a stop signal arrived: raises it again with its default action (the process ends here).
void end_by_stop_signal();

}  // namespace banklab::gui

#!/usr/bin/env bash
# Runs a suite that opens windows (label xvfb) under an X server of its own: an Xvfb that picks
# the first free display number itself and writes it to a file descriptor when it accepts
# connections (-displayfd), so two of them never choose the same number, however many start at
# once. The window suites then run side by side under `ctest -j`; on one shared display they
# had to take it one at a time (glfwInit() failed once when two started together under load),
# which left the longest of them to run alone at the end (issue 36).
#
#   tests/own_display.sh COMMAND [ARGS...]
#
# Without Xvfb (a developer's machine with a display and no xvfb package) the command runs on
# $DISPLAY as it is. The command's exit status is this script's.
set -uo pipefail

if ! command -v Xvfb >/dev/null; then
  if [ -z "${DISPLAY:-}" ]; then
    echo "own_display.sh: no Xvfb (Debian's xvfb) and no DISPLAY to run $1 on" >&2
    exit 1
  fi
  exec "$@"
fi

work=$(mktemp -d)
# -noreset: an X server resets when its last client leaves, and a suite that starts one program
# after another would find it resetting now and then ("Failed to open display", seen once under
# load in test_gui_render).
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp -noreset 3>"$work/display" \
  >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
trap 'kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 143' TERM INT  # (CTest's timeout) the server stopped too
# Up to 30 s for the server (a loaded machine), stopping early if it has gone.
for _ in $(seq 300); do
  [ -s "$work/display" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || break
  sleep 0.1
done
if [ ! -s "$work/display" ]; then
  echo "own_display.sh: Xvfb did not start; its output:" >&2
  cat "$work/xvfb.log" >&2
  exit 1
fi
DISPLAY=:$(head -1 "$work/display") "$@"

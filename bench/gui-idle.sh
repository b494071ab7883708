#!/usr/bin/env bash
# banklab-gui at rest: the CPU time it takes while nobody touches it (issue 27: at most 1 % of a
# core over 20 s, whatever window is open).
#
#   bench/gui-idle.sh [--settle S] [--seconds N] BINARY [ARGS...]
#
# Starts BINARY ARGS on $DISPLAY with a settings folder of its own (so neither the user's
# settings nor the window layout play a part), lets it start and draw its first frames for
# --settle seconds (default 5), then reads the process's CPU time, user + system ticks of all its
# threads (llvmpipe's included), from /proc/PID/stat at the start and at the end of --seconds
# (default 20), and prints one line:
#
#   idle 20 s: 3 ticks = 0.03 s of CPU = 0.15 % of a core: banklab-gui --preset fp32-pad1
#
# Ticks count the time the process ran, not the time it waited for a core, so an idle process
# reads the same on a loaded machine: a deterministic measure where wall-clock timing is not.
set -euo pipefail
settle=5
seconds=20
while [ $# -gt 0 ]; do
  case $1 in
    --settle) settle=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ]; then
  echo "usage: bench/gui-idle.sh [--settle S] [--seconds N] BINARY [ARGS...]" >&2
  exit 2
fi
[ -n "${DISPLAY:-}" ] || { echo "gui-idle: DISPLAY is not set (start Xvfb first)" >&2; exit 2; }
config=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$config"' EXIT
XDG_CONFIG_HOME=$config "$@" >"$config/out.txt" 2>&1 &
pid=$!

# utime + stime: fields 14 and 15 of /proc/PID/stat, counted after the ") " that ends the name.
ticks() {
  local stat
  stat=$(cat "/proc/$pid/stat") || { echo "gui-idle: $1 exited early:" >&2; cat "$config/out.txt" >&2; exit 1; }
  stat=${stat##*) }
  # shellcheck disable=SC2086
  set -- $stat
  echo $((${12} + ${13}))
}

sleep "$settle"
before=$(ticks "$1")
sleep "$seconds"
after=$(ticks "$1")
hz=$(getconf CLK_TCK)
used=$((after - before))
awk -v t="$used" -v hz="$hz" -v s="$seconds" -v what="$*" 'BEGIN {
  printf "idle %d s: %d ticks = %.2f s of CPU = %.2f %% of a core: %s\n", s, t, t / hz, 100 * t / hz / s, what
}'

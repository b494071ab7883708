#!/usr/bin/env bash
# Frame times of two banklab-gui builds, paired: `--bench-frames` of each in turn, so both see
# the same load on a shared machine (wall-clock figures there scale with the load; compare the
# two columns of one run, not runs taken at different times).
#
#   bench/gui-frames-paired.sh [--rounds R] [--frames N] BEFORE AFTER [ARGS...]
#
# Runs BEFORE then AFTER with `--bench-frames N ARGS` (default 300 frames), R times (default 3),
# on $DISPLAY, and prints one line per run: the median CPU time to build and submit a frame,
# the mean wall time and frames/s, and the 1-minute load average it ran under.
set -euo pipefail
rounds=3
frames=300
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: bench/gui-frames-paired.sh [--rounds R] [--frames N] BEFORE AFTER [ARGS...]" >&2
  exit 2
fi
[ -n "${DISPLAY:-}" ] || { echo "gui-frames-paired: DISPLAY is not set" >&2; exit 2; }
before=$1
after=$2
shift 2
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
echo "round build  build+submit median  wall mean  frames/s  load: $*"
for ((r = 1; r <= rounds; r++)); do
  for which in before after; do
    binary=$before
    [ "$which" = after ] && binary=$after
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$(XDG_CONFIG_HOME=$config "$binary" --bench-frames "$frames" "$@")
    build=$(sed -n 's/^frame, CPU (build + submit): mean [0-9.]* ms, median \([0-9.]*\).*/\1/p' <<<"$out")
    wall=$(sed -n 's/^frame, wall (with swap): mean \([0-9.]*\) ms.*=> \([0-9.]*\) frames.*/\1 \2/p' <<<"$out")
    printf "%5d %-6s %12s ms %13s ms %9s %6s\n" "$r" "$which" "$build" "${wall% *}" "${wall#* }" "$load"
  done
done

#!/usr/bin/env bash
# The test command's time against its budget on a 2-core machine (issue 36): at most 15 minutes
# from a fresh clone (packages installed too), at most 5 minutes run again on the same clone.
# A benchmark, not a test: it runs scripts/test.sh in the clone it belongs to and reads the
# phase times that the command writes (build/test-phases.tsv), or reads a finished run's file.
#
#   bench/test-command.sh fresh|again            run scripts/test.sh, then compare
#   bench/test-command.sh fresh|again FILE.tsv   compare a finished run's phases
#
# It prints every phase with its share of the time, the total against the budget and, for a
# phase over its own budget (below), which one; exit status 1 when the total is over budget.
# The budgets are for 2 cores (nproc); on another machine size the figures are printed but not
# judged. A phase's time counts the wall clock, so other work on the machine adds to it: say
# what else ran when recording a figure (docs/testing.md).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-}
case $mode in
  fresh) total_budget=900 ;;
  again) total_budget=300 ;;
  *)
    echo "usage: bench/test-command.sh fresh|again [PHASES.tsv]" >&2
    exit 2
    ;;
esac

# Each phase's share of the budget, by the start of its name (the rest is unbudgeted): from a
# fresh clone the builds dominate, run again the suites and the fuzzing.
phase_budget() {
  local name=$1
  if [ "$mode" = fresh ]; then
    case $name in
      "Debian packages: the build's"*) echo 90 ;;
      "Debian packages: the later"*) echo 30 ;;  # waited for: the rest installs during the build
      "build "*) echo 300 ;;
      "the suites that need no GPU"*) echo 110 ;;
      "the browser edition: build"*) echo 150 ;;
      "the browser edition in headless"*) echo 90 ;;
      "sanitized build"*) echo 200 ;;
      "core suites under"*) echo 60 ;;
      "fuzz targets"*) echo 25 ;;
      *) echo "" ;;
    esac
  else
    case $name in
      "build "* | "the browser edition: build"* | "sanitized build"*) echo 15 ;;
      "the suites that need no GPU"*) echo 110 ;;
      "the browser edition in headless"*) echo 90 ;;
      "core suites under"*) echo 60 ;;
      "fuzz targets"*) echo 25 ;;
      *) echo "" ;;
    esac
  fi
}

log=${2:-}
if [ -z "$log" ]; then
  start=$(date +%s)
  bash "$root/scripts/test.sh"
  echo "bench/test-command.sh: scripts/test.sh took $(($(date +%s) - start)) s"
  log=$root/build/test-phases.tsv
fi
[ -f "$log" ] || { echo "bench/test-command.sh: no phase times in $log" >&2; exit 2; }

judged=0
[ "$(nproc)" = 2 ] && judged=1
total=$(awk -F'\t' '{ s += $1 } END { printf "%.0f", s }' "$log")
over=0
printf '%-92s %8s %8s\n' "phase ($mode run, $(nproc) cores)" seconds budget
while IFS=$'\t' read -r seconds name; do
  budget=$(phase_budget "$name")
  mark=""
  if [ -n "$budget" ] && [ "$judged" = 1 ] && awk -v s="$seconds" -v b="$budget" 'BEGIN { exit !(s > b) }'; then
    mark="  over its budget"
  fi
  printf '%-92s %8s %8s%s\n' "${name:0:92}" "$seconds" "${budget:--}" "$mark"
done <"$log"
printf '%-92s %8s %8s\n' "all phases" "$total" "$total_budget"
if [ "$judged" = 1 ] && [ "$total" -gt "$total_budget" ]; then over=1; fi
if [ "$judged" = 0 ]; then
  echo "bench/test-command.sh: the budgets are for 2 cores; this machine has $(nproc): not judged"
elif [ "$over" = 1 ]; then
  echo "bench/test-command.sh: $total s, over the $mode budget of $total_budget s"
  exit 1
else
  echo "bench/test-command.sh: $total s, within the $mode budget of $total_budget s"
fi

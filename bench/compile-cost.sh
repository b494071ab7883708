#!/usr/bin/env bash
# What each translation unit costs to compile, in CPU seconds (issue 36): a compiler launcher
# that runs the compile under /usr/bin/time and appends "user<TAB>sys<TAB>output" to a log, and a
# report that sums the log by target. Wall clocks on a shared machine vary with its load; CPU
# seconds (user + sys) much less, so compare builds by these.
#
#   BANKLAB_COMPILE_COST_LOG=/tmp/cost.tsv cmake -S . -B build-cost ... \
#     -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/bench/compile-cost.sh" \
#     -DCMAKE_CUDA_COMPILER_LAUNCHER="$PWD/bench/compile-cost.sh"
#   BANKLAB_COMPILE_COST_LOG=/tmp/cost.tsv cmake --build build-cost
#   bench/compile-cost.sh --report /tmp/cost.tsv [N]   # the total, by target, the N dearest units
#
# Set CCACHE_DISABLE=1 (or use no ccache launcher) to measure what a fresh machine pays.
set -euo pipefail

if [ "${1:-}" = --report ]; then
  log=$2 count=${3:-25}
  awk -F'\t' '{ s = $1 + $2; total += s; n++
                target = $3; sub(/\/CMakeFiles\/.*/, "", target); sub(/.*\//, "", target)
                if (match($3, /CMakeFiles\/[^\/]*\.dir/)) target = substr($3, RSTART + 11, RLENGTH - 15)
                by[target] += s }
       END { printf "%.1f CPU s in %d compiles\n", total, n
             for (t in by) printf "%8.1f  %s\n", by[t], t | "sort -rn | head -40" }' "$log"
  echo "the $count dearest translation units:"
  awk -F'\t' '{ printf "%8.1f  %s\n", $1 + $2, $3 }' "$log" | sort -rn | head -"$count"
  exit 0
fi

: "${BANKLAB_COMPILE_COST_LOG:?set BANKLAB_COMPILE_COST_LOG to the log file}"
output=unknown
previous=""
for arg in "$@"; do
  [ "$previous" = -o ] && output=$arg
  previous=$arg
done
exec /usr/bin/time -f "%U	%S	$output" -a -o "$BANKLAB_COMPILE_COST_LOG" "$@"

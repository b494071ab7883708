#!/usr/bin/env bash
# -O3 (Release's default) against -O2: builds the programs and the suites twice (no GUI, no
# CUDA, no benchmarks), then times the core's longest CPU-bound suites of each, pinned to one
# core, alternating, three rounds; prints each tree's build time and each suite's mean CPU
# seconds (user + sys). Logs under $OUT (default: a new temporary folder). Run from the
# repository root; headers that are not installed from BANKLAB_EXTRA_INCLUDE's folder (as on the
# GPU machine, docs/testing.md "Not taken, measured"). A benchmark, not a test.
set -u
OUT=${OUT:-$(mktemp -d)}
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/setup.sh"  # banklab_include_args
for lvl in O3 O2; do
  cmake -S . -B "build-$lvl" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBANKLAB_BUILD_GUI=OFF \
    -DBANKLAB_BUILD_CUDA=OFF -DBANKLAB_BUILD_BENCH=OFF "${banklab_include_args[@]}" \
    "-DCMAKE_CXX_FLAGS_RELEASE=-$lvl -DNDEBUG" >"$OUT/cfg-$lvl.log" 2>&1 || exit 1
  /usr/bin/time -f "$lvl build wall %e user %U sys %S" cmake --build "build-$lvl" -j"$(nproc)" \
    >"$OUT/build-$lvl.log" 2>&1 || { tail -30 "$OUT/build-$lvl.log"; exit 1; }
  tail -1 "$OUT/build-$lvl.log"
done
for round in 1 2 3; do
  for lvl in O3 O2; do
    for t in test_core_drill_strategies test_core_drill test_core_layout test_core_scenario test_core_scan; do
      exe=$(find "build-$lvl/tests" -name "$t" -type f | head -1)
      [ -n "$exe" ] || continue
      /usr/bin/time -f "$round $lvl $t %U %S %e" taskset -c "${BANKLAB_BENCH_CPU:-1}" "$exe" \
        >/dev/null 2>>"$OUT/times.txt"
    done
  done
done
# Each level's and suite's mean CPU seconds over the rounds (the suites' own output has lines too).
grep -v '^\[' "$OUT/times.txt" |
  awk 'NF == 6 { cpu[$2 " " $3] += $4 + $5; n[$2 " " $3]++ }
       END { for (k in cpu) printf "%s %.2f\n", k, cpu[k] / n[k] }' | sort -k2,2 -k1,1

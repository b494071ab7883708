#!/usr/bin/env bash
# Checks on a GPU machine (nvcc and ncu on the PATH) that the Nsight Compute names the lessons
# and drills state exist there, and keeps what it saw (issue 34):
#
#   tests/scan/check-counter-names.sh OUT-FOLDER
#
# 1. `ncu --query-metrics --chip gh100`: every base metric of Hopper; the shared-memory ones are
#    kept (OUT/shared-metrics.txt), among them the per-operation counters (op_ld, op_st,
#    op_ldgsts, op_atom, op_gmma ...) and the stall reasons (mio_throttle, short_scoreboard).
# 2. The scan corpus's cp.async kernel (corpus/cp_async.cu, cp_async_double_buffer) profiled
#    with the full set: its raw page (every metric collected, with its value: the op_ldgsts
#    wavefronts of its LDGSTS) and the header of its Source page (the columns L1 Wavefronts
#    Shared, ... Ideal, ... Excessive and the stall columns).
# 3. Each name of the list below looked up in those outputs: "found" or "MISSING"; the exit
#    status is the number missing. OUT/log.txt has every command with its exit status.
# tests/scan/measured/counter-names.txt keeps the H200's answer; tests/core/test_lesson.cpp
# checks that every counter name a lesson or drill text states is in it.
set -u
out=${1:?usage: check-counter-names.sh OUT-FOLDER}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log=$out/log.txt
run() {
  echo "\$ $*" >>"$log"
  "$@" >>"$log" 2>&1
  echo "[exit $?]" >>"$log"
}
run nvidia-smi -L
run ncu --version
echo "\$ ncu --query-metrics --chip gh100" >>"$log"
ncu --query-metrics --chip gh100 >"$out/query-metrics.txt" 2>&1
echo "[exit $?]" >>"$log"
grep -E 'mem_shared|stalled_(mio_throttle|short_scoreboard)' "$out/query-metrics.txt" \
  >"$out/shared-metrics.txt"
run nvcc -O3 -lineinfo -arch=sm_90 -o "$out/cp_async" "$here/corpus/cp_async.cu"
run ncu --clock-control none --set full --import-source yes -k cp_async_double_buffer -c 1 -f \
  -o "$out/cp_async" "$out/cp_async"
echo "\$ ncu -i cp_async.ncu-rep --page raw --csv" >>"$log"
ncu -i "$out/cp_async.ncu-rep" --page raw --csv >"$out/raw.csv" 2>&1
echo "[exit $?]" >>"$log"
echo "\$ ncu -i cp_async.ncu-rep --page source --csv --print-source sass" >>"$log"
ncu -i "$out/cp_async.ncu-rep" --page source --csv --print-source sass >"$out/source.csv" 2>&1
echo "[exit $?]" >>"$log"
# The raw page as "name = value" lines (its first row the names, the third the values).
python3 - "$out/raw.csv" >"$out/raw-shared.txt" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
names, values = rows[0], rows[2] if len(rows) > 2 else []
for n, v in zip(names, values):
    if "mem_shared" in n or "stalled_mio" in n or "stalled_short" in n:
        print(n, "=", v)
EOF
missing=0
# look NAME FILE: whether NAME occurs in FILE as a whole name.
look() {
  if grep -q -w -- "$1" "$2"; then
    echo "found   $1  ($(basename "$2"))"
  else
    echo "MISSING $1  ($(basename "$2"))"
    missing=$((missing + 1))
  fi
}
{
  echo "# ncu: $(ncu --version | tail -1)"
  for op in ld st ldgsts atom gmma; do
    look "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op" "$out/query-metrics.txt"
    look "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op" "$out/query-metrics.txt"
  done
  for m in smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st \
           smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared \
           smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal \
           smsp__pcsamp_warps_issue_stalled_mio_throttle \
           smsp__pcsamp_warps_issue_stalled_short_scoreboard; do
    look "$m" "$out/query-metrics.txt"
  done
  look l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum "$out/raw.csv"
  head -c 20000 "$out/source.csv" | grep -m1 '"Source"' | tr ',' '\n' >"$out/source-columns.txt"
  for c in '"L1 Wavefronts Shared"' '"L1 Wavefronts Shared Ideal"' \
           '"L1 Wavefronts Shared Excessive"' '"stall_mio"' '"stall_short_sb"'; do
    if grep -qx -- "$c" "$out/source-columns.txt"; then echo "found   $c  (source columns)"
    else echo "MISSING $c  (source columns)"; missing=$((missing + 1)); fi
  done
  echo "# the shared-memory metrics of ncu --query-metrics --chip gh100:"
  cat "$out/shared-metrics.txt"
  echo "# cp_async_double_buffer's raw page, its shared-memory and stall metrics:"
  cat "$out/raw-shared.txt"
  echo "# missing: $missing"
} >"$out/counter-names.txt"
cat "$out/counter-names.txt" >>"$log"
exit "$missing"

#!/usr/bin/env bash
# Makes the shipped traces (assets/traces/) on a GPU machine, measures the trace's overhead and
# runs banklab trace's GPU tests: builds BankLab without the GUI (where the headers that are not
# Debian packages come from BANKLAB_EXTRA_INCLUDE, as for scripts/test.sh), traces the second
# launch of each program of tests/trace/programs with Nsight Compute measuring the same launch,
# and writes the traces, their text and a log into OUT-FOLDER (default: $OUT, else
# ./trace-out). Run from the repository's root, so the traces name the programs and sources
# relative to it:
#
#   BANKLAB_COMMIT=$(git rev-parse --short=12 HEAD) BANKLAB_EXTRA_INCLUDE=.device-include \
#     kernels/trace/make_traces.sh [OUT-FOLDER]
#
# BANKLAB_COMMIT names the commit the traces are made by where the tree is a copy without its
# git history (the GPU machine's). Then copy OUT-FOLDER/*.json into assets/traces/. The log
# records every command and its exit status; overhead.txt holds the overhead runs' output:
# tests/trace/programs/transpose_timed.cu at 4096x4096 (2^20 shared-memory warp-instructions a
# launch), alone and then with its second launch traced, every launch timed on the GPU
# (docs/trace.md, "Overhead").
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-${OUT:-$here/trace-out}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/log.txt
run_into() {  # FILE COMMAND...: the command, its output and its exit status appended to FILE
  local file=$1
  shift
  echo "\$ $*" >>"$file"
  "$@" >>"$file" 2>&1
  echo "[exit $?]" >>"$file"
}
run() { run_into "$log" "$@"; }
source "$here/scripts/setup.sh"  # banklab_include_args
set +e  # setup.sh stops at the first failure; here each step is logged and the next one runs
cd "$here"
run nvidia-smi -L
commit_args=()
if [[ -n ${BANKLAB_COMMIT:-} ]]; then commit_args=(-DBANKLAB_COMMIT="$BANKLAB_COMMIT"); fi
run cmake -S . -B build-trace -G Ninja -DCMAKE_BUILD_TYPE=Release -DBANKLAB_BUILD_GUI=OFF \
  -DBANKLAB_BUILD_TESTS=ON -DBANKLAB_BUILD_BENCH=OFF "${commit_args[@]}" "${banklab_include_args[@]}"
run cmake --build build-trace -j "$(nproc)" --target banklab test_trace_gpu trace_histogram_skewed \
  trace_sgemm_tile trace_attention_scores trace_transpose_timed
banklab=build-trace/app/cli/banklab
for program in histogram_skewed sgemm_tile attention_scores; do
  run timeout 60 "$banklab" trace --kernel "$program" --launch 1 -o "$out/$program.json" \
    --source "tests/trace/programs/$program.cu" -- "build-trace/kernels/trace/programs/trace_$program"
  "$banklab" trace --open "$out/$program.json" --source "tests/trace/programs/$program.cu" \
    >"$out/$program.txt" 2>&1
done
# The overhead: the program alone, then with its second launch traced (every record kept).
timed=build-trace/kernels/trace/programs/trace_transpose_timed
run_into "$out/overhead.txt" timeout 60 "$timed" 4096
run_into "$out/overhead.txt" timeout 120 "$banklab" trace --kernel transpose_timed --launch 1 \
  --no-measure --max-records 2097152 -- "$timed" 4096
run timeout 260 ctest --test-dir build-trace -L '^gpu$' -R trace -V
echo "make_traces: done" >>"$log"

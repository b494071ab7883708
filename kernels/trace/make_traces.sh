#!/usr/bin/env bash
# Makes the shipped traces (assets/traces/) on a GPU machine and runs banklab trace's GPU tests:
# builds BankLab without the GUI (where the headers that are not Debian packages come from
# BANKLAB_EXTRA_INCLUDE, as for scripts/test.sh), traces the second launch of each program of
# tests/trace/programs with Nsight Compute measuring the same launch, and writes the traces,
# their text and a log into OUT-FOLDER (default: $OUT, else ./trace-out):
#
#   BANKLAB_EXTRA_INCLUDE=.device-include kernels/trace/make_traces.sh [OUT-FOLDER]
#
# Then copy OUT-FOLDER/*.json into assets/traces/. The log records every command and its exit
# status; the text of each trace holds the traced and untraced launch times (docs/trace.md).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-${OUT:-$here/trace-out}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/log.txt
run() {
  echo "\$ $*" >>"$log"
  "$@" >>"$log" 2>&1
  echo "[exit $?]" >>"$log"
}
source "$here/scripts/setup.sh"  # banklab_include_args
set +e  # setup.sh stops at the first failure; here each step is logged and the next one runs
cd "$here"
run nvidia-smi -L
run cmake -S . -B build-trace -G Ninja -DCMAKE_BUILD_TYPE=Release -DBANKLAB_BUILD_GUI=OFF \
  -DBANKLAB_BUILD_TESTS=ON -DBANKLAB_BUILD_BENCH=OFF "${banklab_include_args[@]}"
run cmake --build build-trace -j "$(nproc)" --target banklab test_trace_gpu trace_histogram_skewed \
  trace_sgemm_tile trace_attention_scores
banklab=build-trace/app/cli/banklab
for program in histogram_skewed sgemm_tile attention_scores; do
  run timeout 60 "$banklab" trace --kernel "$program" --launch 1 -o "$out/$program.json" \
    --source "tests/trace/programs/$program.cu" -- "build-trace/kernels/trace/programs/trace_$program"
  "$banklab" trace --open "$out/$program.json" --source "tests/trace/programs/$program.cu" \
    >"$out/$program.txt" 2>&1
done
run timeout 170 ctest --test-dir build-trace -L gpu -R trace --output-on-failure
echo "make_traces: done" >>"$log"

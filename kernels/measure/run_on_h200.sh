#!/usr/bin/env bash
# Everything the measurement backend needs from the GPU machine, in one call (device time is
# scarce): build, check the SASS of every probe kernel, run the GPU tests, cross-check one
# pattern per op class with Nsight Compute, and run `banklab validate`. Logs go to $OUT.
#
#   kernels/measure/run_on_h200.sh [RANDOM_COUNT] [SEED]      (from the repository root)
#
# doctest travels in .device-carry/include (the GPU machine has no Debian packages):
#   mkdir -p .device-carry/include && cp -r /usr/include/doctest .device-carry/include/
set -uo pipefail
count=${1:-8000}
seed=${2:-1}
out=${OUT:-/tmp/banklab-measure-out}
build=build-h200-measure
mkdir -p "$out"
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }

step "device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/device.txt"

step "configure and build (GUI off)"
cmake -S . -B "$build" -G Ninja -DBANKLAB_BUILD_GUI=OFF -DBANKLAB_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Release \
  >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j16 --target banklab banklab-probe test_measure test_measure_gpu \
  >>"$out/build.log" 2>&1
build_status=$?
tail -5 "$out/build.log"
[ "$build_status" -eq 0 ] || { echo "build failed: see build.log"; exit 1; }

step "SASS: the one measured instruction per kernel"
# Each probe kernel must hold exactly one instruction of its measured class: LDS*/LDSM for the
# loads, STS*/STSM for the stores (the other class only fills or reads back).
obj=$(find "$build" -name 'probe_kernels.cu.o' | head -1)
cuobjdump -sass "$obj" >"$out/sass.txt" 2>&1
awk '/Function :/ { fn = $3 }
     / (LDS|LDSM|STS|STSM)[. ]/ { for (i = 1; i <= NF; ++i) if ($i ~ /^(LDS|LDSM|STS|STSM)/) { op = $i; sub(/;$/, "", op); n[fn " " op]++ } }
     END { for (k in n) print n[k], k }' "$out/sass.txt" | sort -k2 |
  { if command -v cu++filt >/dev/null; then cu++filt; else cat; fi; } | tee "$out/sass_summary.txt"

step "GPU tests"
"$build/tests/gpu/test_measure" 2>&1 | tail -3
"$build/tests/gpu/test_measure_gpu" 2>&1 | tee "$out/test_measure_gpu.log" | tail -25

step "Nsight Compute cross-check (one pattern per class, measured from outside the process)"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_shared_stsm.sum
for pattern in \
  "ld 4 $(for l in $(seq 0 31); do printf '%d,' $((128 * l)); done | sed 's/,$//')" \
  "st 16 $(for l in $(seq 0 31); do printf '%d,' $((128 * (l % 2))); done | sed 's/,$//')" \
  "ldmatrix.x4 16 $(for l in $(seq 0 31); do printf '%d,' $((64 * (l % 8) + 16 * (l / 8))); done | sed 's/,$//')"; do
  echo "--- $pattern"
  timeout 120 ncu --clock-control none --metrics "$metrics" "$build/kernels/measure/banklab-probe" "$pattern" 2>&1 |
    grep -E "verified|predicted|wavefronts|conflicts|inst_executed|ERR|error" | tee -a "$out/ncu.log"
done

step "banklab validate --count $count --seed $seed"
# The whole report goes to the file first (a pipe into head would cut it short), then its head.
timeout 480 "$build/app/cli/banklab" validate --count "$count" --seed "$seed" >"$out/validate.txt" 2>&1
echo "validate exit status $?"
head -40 "$out/validate.txt"
echo "(full text: validate.txt)"

step "banklab validate --count 0 --json (the fixed corpus, as JSON)"
"$build/app/cli/banklab" validate --count 0 --json >"$out/validate.json" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["patterns"], "patterns,", d["agree"], "agree,", len(d["disagreements"]), "disagreements")' "$out/validate.json"
step "done"

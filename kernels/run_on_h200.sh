#!/usr/bin/env bash
# Everything the GPU kernels need from the GPU machine, in one call (device time is scarce):
# the GPU tests, the same tests under compute-sanitizer memcheck and racecheck, the transpose
# suite for every dtype at 16384 x 16384, the microbenchmark sweep (1- to 32-way) and a few
# presets, the paired tuning measurements (banklab_transpose_tuning), and the SASS checks of
# the kernels. Logs go to $OUT; docs/gpu-results.md records the figures.
#
#   kernels/run_on_h200.sh [SIZE] [REPS]          (from the repository root)
#
# Binaries built on the developer machine travel in .device-carry/kernels-bin (the script
# uses them when they run there) and doctest in .device-carry/include for building there:
#   cmake --build build-kernels --target banklab test_gpu_kernels banklab_transpose_tuning
#   mkdir -p .device-carry/kernels-bin .device-carry/include
#   cp build-kernels/app/cli/banklab build-kernels/tests/gpu/test_gpu_kernels \
#     build-kernels/kernels/banklab_transpose_tuning .device-carry/kernels-bin/
#   cp -r /usr/include/doctest .device-carry/include/
set -uo pipefail
size=${1:-16384}
reps=${2:-30}
out=${OUT:-/tmp/banklab-kernels-out}
mkdir -p "$out"
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }

step "device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv |
  tee "$out/summary.txt"

step "binaries"
bin=.device-carry/kernels-bin
if ! { "$bin/banklab" --version && "$bin/test_gpu_kernels" --list-test-cases >/dev/null &&
  "$bin/banklab_transpose_tuning" --help >/dev/null; }; then
  echo "the carried binaries do not run here: building (GUI off)"
  build=build-h200-kernels
  cmake -S . -B "$build" -G Ninja -DBANKLAB_BUILD_GUI=OFF -DBANKLAB_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Release \
    >"$out/build.log" 2>&1 &&
    cmake --build "$build" -j16 --target banklab test_gpu_kernels banklab_transpose_tuning \
      >>"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
  bin=$out/bin
  mkdir -p "$bin"
  cp "$build/app/cli/banklab" "$build/tests/gpu/test_gpu_kernels" \
    "$build/kernels/banklab_transpose_tuning" "$bin/"
fi

step "SASS of the kernels"
# Fast kernels: 16-byte global and shared accesses (LDG.E.128, STS.128, LDS.128 or LDS for
# fp8, STG.E.128); no kernel may touch local memory (LDL/STL).
cuobjdump -sass "$bin/banklab" >"$out/sass_full.txt" 2>&1
awk '/Function :/ { fn = $3 }
     /(LDG|STG|LDS|STS|LDSM|STSM|LDL|STL)[.A-Z0-9]* / {
       for (i = 1; i <= NF; ++i) if ($i ~ /^(LDG|STG|LDS|STS|LDSM|STSM|LDL|STL)/) {
         op = $i; sub(/;$/, "", op); n[fn "  " op]++ } }
     END { for (k in n) print n[k], k }' "$out/sass_full.txt" |
  c++filt | grep -E "transpose_fast|copy16|replay" | sort -k2 >"$out/sass.txt"
grep -E "transpose_fast" "$out/sass.txt"
echo "local memory (LDL/STL) in any kernel: $(grep -cE ' (LDL|STL)' "$out/sass_full.txt")"
rm -f "$out/sass_full.txt"

step "GPU tests"
"$bin/test_gpu_kernels" 2>&1 | tee "$out/tests.log" | tail -4

step "compute-sanitizer memcheck and racecheck"
for tool in memcheck racecheck; do
  echo "--- $tool" | tee -a "$out/sanitizer.log"
  timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin/test_gpu_kernels" \
    >>"$out/sanitizer.log" 2>&1
  echo "exit status: $?" | tee -a "$out/sanitizer.log"
  tail -4 "$out/sanitizer.log"
done

step "transpose suite, $size x $size, $reps repetitions (twice: the second run shows the spread)"
"$bin/banklab" gpu-bench --dtype all --size "$size" --reps "$reps" 2>&1 | tee "$out/bench.txt"
"$bin/banklab" gpu-bench --dtype all --size "$size" --reps "$reps" --json >"$out/bench.json" 2>&1
echo "second run: bench.json"

step "microbenchmark: the lesson's sweep and presets"
"$bin/banklab" gpu-bench --sweep --reps 9 2>&1 | tee -a "$out/bench.txt"
for preset in fp32-naive fp32-pad1 fp32-pad4 broadcast bf16-naive fp64-naive fp64-pad1 \
  fp8-naive ldmatrix-plain ldmatrix-swizzled stmatrix-plain stmatrix-swizzled \
  broadcast-16B-store; do
  "$bin/banklab" gpu-bench --pattern --preset "$preset" --reps 5 2>&1 | tail -2 | head -1 |
    tee -a "$out/bench.txt"
done
step "tuning: the paired measurements behind the fast kernels"
"$bin/banklab_transpose_tuning" 2>&1 | tee "$out/tuning.txt"
step "done"

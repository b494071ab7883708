#!/usr/bin/env bash
# First look on the GPU machine (run from the repository root): builds the injection library and
# the callbacks by hand, traces the programs, and brings back the raw folders, the line tables
# and the sanitizer's headers. Replaced by the CMake build once the facts are known.
set -u
out=${OUT:?}
san=/usr/local/cuda/compute-sanitizer
mkdir -p "$out/include" "$out/raw" "$out/bin"
cp "$san"/include/*.h "$out/include/" 2>/dev/null
ls "$san" >"$out/sanitizer-ls.txt" 2>&1
b=$out/bin
{
  nvcc --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch -arch=sm_90 \
    -I"$san/include" -I. -o "$b/patches.fatbin" kernels/trace/trace_patches.cu
  echo "fatbin exit $?"
  g++ -std=c++20 -O2 -shared -fPIC -I"$san/include" -I/usr/local/cuda/include -I. \
    kernels/trace/trace_inject.cpp -L"$san" -lsanitizer-public -L/usr/local/cuda/lib64/stubs -lcuda \
    -Wl,-rpath,"$san" -o "$b/libbanklab_trace.so"
  echo "inject exit $?"
} >"$out/build.txt" 2>&1
for f in kernels/trace/programs/*.cu tests/scan/corpus/*.cu; do
  (cd "$(dirname "$f")" && nvcc -O3 -lineinfo -arch=sm_90 -o "$b/$(basename "${f%.cu}")" "$(basename "$f")") &
done
wait
# trace NAME PROGRAM KERNEL LAUNCH [extra env]
trace() {
  local d=$out/raw/$1
  mkdir -p "$d"
  local t0=$(date +%s%N)
  env BANKLAB_TRACE_DIR="$d" BANKLAB_TRACE_KERNEL="$3" BANKLAB_TRACE_LAUNCH="$4" \
    BANKLAB_TRACE_MAX_RECORDS=1000000 BANKLAB_TRACE_PATCHES="$b/patches.fatbin" \
    BANKLAB_TRACE_TIME_LAUNCHES=1 timeout 8 env LD_PRELOAD="$b/libbanklab_trace.so" "$b/$2" >"$d/stdout.txt" 2>"$d/stderr.txt"
  echo "exit $? wall_ms $(( ($(date +%s%N) - t0) / 1000000 ))" >>"$d/status.txt"
  [ -f "$d/module.cubin" ] && nvdisasm --print-line-info "$d/module.cubin" >"$d/lines.txt" 2>&1
  [ -f "$d/module.cubin" ] && nvdisasm --print-line-info-inline "$d/module.cubin" >"$d/lines-inline.txt" 2>&1
}
trace histogram_skewed histogram_skewed histogram_skewed 1
trace sgemm_tile sgemm_tile sgemm_tile 1
trace attention_scores attention_scores attention_scores 1
trace histogram256 histogram histogram256 0
trace transpose_naive transpose transpose_naive 0
trace ldmatrix_plain ldmatrix ldmatrix_plain 0
trace cp_async cp_async cp_async_double_buffer 0
trace reduce_unrolled reduce reduce_unrolled 0
for p in histogram_skewed sgemm_tile attention_scores; do
  t0=$(date +%s%N)
  timeout 8 "$b/$p" >/dev/null; echo "$p untraced wall_ms $(( ($(date +%s%N) - t0) / 1000000 ))" >>"$out/walls.txt"
done
ncu --version >"$out/ncu-version.txt" 2>&1
nvdisasm --help >"$out/nvdisasm-help.txt" 2>&1
for p in histogram_skewed sgemm_tile attention_scores; do
  t0=$(date +%s%N)
  timeout 25 ncu --section SourceCounters --import-source yes -k "$p" --launch-skip 1 -c 1 -f -o "$out/$p" "$b/$p" >"$out/$p.ncu.txt" 2>&1
  echo "$p ncu exit $? wall_ms $(( ($(date +%s%N) - t0) / 1000000 ))" >>"$out/walls.txt"
  ncu -i "$out/$p.ncu-rep" --page source --csv --print-source cuda,sass >"$out/$p.csv" 2>"$out/$p.csv.err"
  rm -f "$out/$p.ncu-rep"
done
nvidia-smi -L >"$out/smi.txt" 2>&1; cat /proc/driver/nvidia/version >>"$out/smi.txt"
cd "$out" && tar czf all.tgz raw include *.csv *.txt && rm -rf raw include bin

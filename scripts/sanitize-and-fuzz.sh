#!/usr/bin/env bash
# The core under AddressSanitizer + UndefinedBehaviorSanitizer, then a bounded libFuzzer run over
# the parsers and the analyzer (tests/fuzz/). Called by scripts/test.sh after the normal suites;
# fails on any test failure, sanitizer report, crash or leak. About 5 minutes on 2 cores from
# scratch, much less when the build folders already exist.
#
#   BANKLAB_ASAN_DIR       build folder for the sanitized core suites (default: build-asan)
#   BANKLAB_FUZZ_DIR       build folder for the fuzz target (default: build-fuzz)
#   BANKLAB_FUZZ_SECONDS   how long the fuzzer runs (default: 60)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
asan_dir=${BANKLAB_ASAN_DIR:-$root/build-asan}
fuzz_dir=${BANKLAB_FUZZ_DIR:-$root/build-fuzz}
fuzz_seconds=${BANKLAB_FUZZ_SECONDS:-60}
jobs=$(nproc)

# Release keeps assertions in this project (the top-level CMakeLists.txt strips -DNDEBUG); -O1 -g
# keeps the sanitized code fast enough and its stack traces readable. Neither build needs the
# GUI or CUDA.
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g"
        -DBANKLAB_SANITIZE=address,undefined -DBANKLAB_BUILD_GUI=OFF -DBANKLAB_BUILD_CUDA=OFF)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

echo "== core suites under AddressSanitizer + UndefinedBehaviorSanitizer ($asan_dir)"
cmake -S "$root" -B "$asan_dir" "${common[@]}" -DBANKLAB_BUILD_TESTS=ON >/dev/null
# Build only the suites labelled core: their executables are named after their tests.
mapfile -t suites < <(ctest --test-dir "$asan_dir" -N -L '^core$' | sed -n 's/^ *Test *#[0-9]*: //p')
[ ${#suites[@]} -gt 0 ] || { echo "BankLab: no core suites found in $asan_dir" >&2; exit 1; }
targets=()
for suite in "${suites[@]}"; do targets+=(--target "$suite"); done
cmake --build "$asan_dir" -j"$jobs" "${targets[@]}"
ctest --test-dir "$asan_dir" -L '^core$' --output-on-failure -j"$jobs"

echo "== libFuzzer over the parsers and the analyzer for ${fuzz_seconds}s ($fuzz_dir)"
cmake -S "$root" -B "$fuzz_dir" "${common[@]}" -DCMAKE_CXX_COMPILER=clang++ -DBANKLAB_FUZZ=ON \
  -DBANKLAB_BUILD_TESTS=OFF >/dev/null
cmake --build "$fuzz_dir" -j"$jobs" --target banklab_fuzz_core
# New inputs go to a corpus inside the build folder; the shipped seeds are only read.
mkdir -p "$fuzz_dir/corpus" "$fuzz_dir/artifacts"
"$fuzz_dir/tests/fuzz/banklab_fuzz_core" -max_total_time="$fuzz_seconds" -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$fuzz_dir/artifacts/" \
  -dict="$root/tests/fuzz/parsers.dict" \
  "$fuzz_dir/corpus" "$root/tests/fuzz/corpus"
echo "BankLab: sanitizers and fuzzer found nothing"

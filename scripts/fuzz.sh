#!/usr/bin/env bash
# Long fuzzing for developers (CI runs only the bounded, fixed-seed run of
# scripts/sanitize-and-fuzz.sh). Builds the fuzz target with ASan + UBSan (clang), then fuzzes
# from the shipped corpus plus a corpus kept between runs, until a crash or the time is up.
#
#   scripts/fuzz.sh [SECONDS] [TARGET]   (default 3600 s, 0 = until stopped; TARGET core (the
#                                        default) or kernel_code)
#
#   BANKLAB_FUZZ_DIR    build folder (default: build-fuzz: the compares instrumented, which
#                       guide the mutations); the kept corpus is $dir/corpus-TARGET and crashes
#                       land in $dir/artifacts/
#   BANKLAB_FUZZ_JOBS   parallel fuzzing processes (default: 1)
#
# A crash: replay it with
#   build-fuzz/tests/fuzz/banklab_fuzz_TARGET build-fuzz/artifacts/crash-*
# fix the cause, and copy the file into the target's corpus under a name that says what it was
# (docs/testing.md), so that every later CI run replays it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"  # banklab_configure_sanitized

root=$BANKLAB_ROOT
fuzz_dir=${BANKLAB_FUZZ_DIR:-$root/build-fuzz}
seconds=${1:-3600}
target=${2:-core}
case $target in
  core) corpus=corpus dict=parsers.dict ;;
  kernel_code) corpus=corpus_kernel_code dict=kernel_code.dict ;;
  *) echo "BankLab: unknown fuzz target '$target': core or kernel_code" >&2; exit 2 ;;
esac
fuzz_jobs=${BANKLAB_FUZZ_JOBS:-1}

banklab_configure_sanitized "$fuzz_dir" -DCMAKE_CXX_COMPILER=clang++ -DBANKLAB_FUZZ=ON \
  -DBANKLAB_BUILD_TESTS=OFF -DBANKLAB_FUZZ_TRACE_CMP=ON
cmake --build "$fuzz_dir" -j"$(nproc)" --target "banklab_fuzz_$target"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$fuzz_dir/corpus-$target" "$fuzz_dir/artifacts" "$fuzz_dir/logs"
cd "$fuzz_dir/logs"  # -jobs writes fuzz-N.log into the current folder
"$fuzz_dir/tests/fuzz/banklab_fuzz_$target" -max_total_time="$seconds" -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -jobs="$fuzz_jobs" -workers="$fuzz_jobs" \
  -artifact_prefix="$fuzz_dir/artifacts/" -dict="$root/tests/fuzz/$dict" \
  "$fuzz_dir/corpus-$target" "$root/tests/fuzz/$corpus"

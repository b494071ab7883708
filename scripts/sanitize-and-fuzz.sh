#!/usr/bin/env bash
# The core under AddressSanitizer + UndefinedBehaviorSanitizer, then each fuzz target
# (tests/fuzz/: the parsers and the analyzer, the kernel-code parser): every file of its corpus
# replayed, then a bounded libFuzzer run with a fixed seed and a fixed number of inputs, from
# the corpus only, so that two runs try the same inputs (deterministic: no time limit, no corpus kept from
# an earlier run). Called by scripts/test.sh after the normal suites; fails on any test failure,
# sanitizer report, crash or leak. The long, open-ended fuzzing is scripts/fuzz.sh.
#
#   BANKLAB_ASAN_DIR       build folder for the sanitized core suites (default: build-asan)
#   BANKLAB_FUZZ_DIR       build folder for the fuzz target (default: build-fuzz)
#   BANKLAB_FUZZ_RUNS      inputs each bounded run tries (default: 20000; scripts/fuzz.sh runs longer)
#   BANKLAB_FUZZ_SEED      its seed (default: 1)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"  # banklab_include_args

root=$BANKLAB_ROOT
asan_dir=${BANKLAB_ASAN_DIR:-$root/build-asan}
fuzz_dir=${BANKLAB_FUZZ_DIR:-$root/build-fuzz}
fuzz_runs=${BANKLAB_FUZZ_RUNS:-20000}
fuzz_seed=${BANKLAB_FUZZ_SEED:-1}
jobs=$(nproc)

# Release keeps assertions in this project (the top-level CMakeLists.txt strips -DNDEBUG); -O1 -g
# keeps the sanitized code fast enough and its stack traces readable. Neither build needs the
# GUI, CUDA or the benchmarks.
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g"
        -DBANKLAB_SANITIZE=address,undefined -DBANKLAB_BUILD_GUI=OFF -DBANKLAB_BUILD_CUDA=OFF
        -DBANKLAB_BUILD_BENCH=OFF
        "${banklab_include_args[@]}")
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

# The fuzz targets: each one's corpus folder and dictionary in tests/fuzz/.
fuzz_targets=("banklab_fuzz_core corpus parsers.dict"
              "banklab_fuzz_kernel_code corpus_kernel_code kernel_code.dict")
cmake -S "$root" -B "$fuzz_dir" "${common[@]}" -DCMAKE_CXX_COMPILER=clang++ -DBANKLAB_FUZZ=ON \
  -DBANKLAB_BUILD_TESTS=OFF >/dev/null
fuzz_build=()
for entry in "${fuzz_targets[@]}"; do fuzz_build+=(--target "${entry%% *}"); done
cmake --build "$fuzz_dir" -j"$jobs" "${fuzz_build[@]}"
# Without address-space randomisation where the machine allows it: a target that hashes or
# orders pointers (the kernel-code parser's) then also tries the same inputs on every run.
fixed_layout=()
if setarch "$(uname -m)" -R true 2>/dev/null; then fixed_layout=(setarch "$(uname -m)" -R); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$fuzz_dir/artifacts"
for entry in "${fuzz_targets[@]}"; do
  read -r target corpus dict <<<"$entry"
  echo "== $target: $corpus replayed, then $fuzz_runs inputs from seed $fuzz_seed ($fuzz_dir)"
  fuzzer=$fuzz_dir/tests/fuzz/$target
  # Every corpus file once, as given (a crash found earlier stays fixed).
  "$fuzzer" -runs=1 "$root/tests/fuzz/$corpus"/*
  # New inputs go to a fresh folder; the shipped corpus is only read. A crash is written to
  # $fuzz_dir/artifacts/ (docs/testing.md says how to replay it and keep it in the corpus).
  # -use_cmp=0: the values of compares (pointers among them) steer the mutations otherwise, and
  # two runs with one seed then differ; without it they try the same inputs, reach the same
  # coverage, and agree.
  mkdir "$work/$target"
  "${fixed_layout[@]}" "$fuzzer" -seed="$fuzz_seed" -runs="$fuzz_runs" -use_cmp=0 -timeout=20 \
    -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$fuzz_dir/artifacts/" \
    -dict="$root/tests/fuzz/$dict" "$work/$target" "$root/tests/fuzz/$corpus"
done
echo "BankLab: sanitizers and fuzzers found nothing"

#!/usr/bin/env bash
# The core under AddressSanitizer + UndefinedBehaviorSanitizer, then each fuzz target
# (tests/fuzz/: the parsers and the analyzer, the kernel-code parser): every file of its corpus
# replayed, then a libFuzzer run from a fixed seed, bounded in time, from the shipped corpus only
# (no corpus kept from an earlier run). Called by scripts/test.sh after the normal suites; fails
# on any test failure, sanitizer report, crash or leak. The long, open-ended fuzzing is
# scripts/fuzz.sh.
#
# One tree (banklab_configure_sanitized in setup.sh), built by clang: the core compiled once,
# with ASan + UBSan and libFuzzer's coverage (-fsanitize=fuzzer-no-link, without the compares'
# hooks, which -use_cmp=0 below leaves unused), linked into the core's suites and into both fuzz
# targets. Until issue 36 the suites had a GCC tree of their own, the core compiled twice; clang's
# build of the suites found two bugs that GCC's had hidden (docs/testing.md). The two targets
# fuzz at once, one per core, each for BANKLAB_FUZZ_SECONDS: 20 s, a smoke run that meets the
# command's 5-minute budget run again (docs/testing.md); the campaigns that find new bugs are
# scripts/fuzz.sh's.
#
#   BANKLAB_SANITIZE_DIR   the build folder (default: build-sanitize)
#   BANKLAB_FUZZ_SECONDS   how long each target fuzzes after its corpus (default: 20)
#   BANKLAB_FUZZ_RUNS      a number of inputs instead of a time (to compare two runs input for
#                          input: the same seed and number give the same inputs; docs/testing.md)
#   BANKLAB_FUZZ_SEED      the seed (default: 1)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"  # banklab_configure_sanitized, banklab_phase

root=$BANKLAB_ROOT
dir=${BANKLAB_SANITIZE_DIR:-$root/build-sanitize}
fuzz_seconds=${BANKLAB_FUZZ_SECONDS:-20}
fuzz_seed=${BANKLAB_FUZZ_SEED:-1}
jobs=$(nproc)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The fuzz targets: each one's corpus folder and dictionary in tests/fuzz/.
fuzz_targets=("banklab_fuzz_core corpus parsers.dict"
              "banklab_fuzz_kernel_code corpus_kernel_code kernel_code.dict")

build_sanitized() {
  banklab_configure_sanitized "$dir" -DCMAKE_CXX_COMPILER=clang++ -DBANKLAB_FUZZ=ON \
    -DBANKLAB_FUZZ_TRACE_CMP=OFF -DBANKLAB_BUILD_TESTS=ON
  # The suites labelled core (their executables are named after their tests) and the targets.
  mapfile -t suites < <(ctest --test-dir "$dir" -N -L '^core$' | sed -n 's/^ *Test *#[0-9]*: //p')
  [ ${#suites[@]} -gt 0 ] || { echo "BankLab: no core suites found in $dir" >&2; exit 1; }
  local targets=()
  for suite in "${suites[@]}"; do targets+=(--target "$suite"); done
  for entry in "${fuzz_targets[@]}"; do targets+=(--target "${entry%% *}"); done
  cmake --build "$dir" -j"$jobs" "${targets[@]}"
}

# One target: its corpus replayed, every file once, as given (a crash found earlier stays
# fixed), then the fuzzing from the fixed seed. New inputs go to a fresh folder; the shipped
# corpus is only read. A crash is written to $dir/artifacts/ (docs/testing.md says how to replay
# it and keep it in the corpus). -use_cmp=0: the values of compares (pointers among them) would
# steer the mutations, and two runs with one seed would differ even over the same inputs.
fuzz_one() {
  local target=$1 corpus=$2 dict=$3 fuzzer=$dir/tests/fuzz/$1 bound
  bound=(-max_total_time="$fuzz_seconds")
  [ -n "${BANKLAB_FUZZ_RUNS:-}" ] && bound=(-runs="$BANKLAB_FUZZ_RUNS")
  "$fuzzer" -runs=1 "$root/tests/fuzz/$corpus"/* &&
    mkdir "$work/$target" &&
    "${fixed_layout[@]}" "$fuzzer" -seed="$fuzz_seed" "${bound[@]}" -use_cmp=0 -timeout=20 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
      -dict="$root/tests/fuzz/$dict" "$work/$target" "$root/tests/fuzz/$corpus"
}

# Both targets at once, each into a log of its own, printed whole (not interleaved) when done.
fuzz_all() {
  local pids=() failed=0 i target
  for entry in "${fuzz_targets[@]}"; do
    read -r target _ <<<"$entry"
    # shellcheck disable=SC2086  # the entry is three words on purpose
    fuzz_one $entry >"$work/$target.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    read -r target _ <<<"${fuzz_targets[$i]}"
    if wait "${pids[$i]}"; then
      echo "-- $target: $(grep -m1 -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$target.log")"
      grep '^stat::' "$work/$target.log" | tr '\n' ' ' || true
      echo
    else
      failed=1
      echo "-- $target FAILED:"
      cat "$work/$target.log"
    fi
  done
  return "$failed"
}

banklab_phase "sanitized build (clang, ASan + UBSan: the core's suites and the fuzz targets)" \
  build_sanitized
banklab_phase "core suites under ASan + UBSan" \
  ctest --test-dir "$dir" -L '^core$' --output-on-failure -j"$jobs"
# Without address-space randomisation where the machine allows it: a target that hashes or
# orders pointers (the kernel-code parser's) then also tries the same inputs on every run.
fixed_layout=()
if setarch "$(uname -m)" -R true 2>/dev/null; then fixed_layout=(setarch "$(uname -m)" -R); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dir/artifacts"
banklab_phase "fuzz targets: corpus replayed, then ${BANKLAB_FUZZ_RUNS:-$fuzz_seconds s}${BANKLAB_FUZZ_RUNS:+ inputs} from seed $fuzz_seed, both at once" \
  fuzz_all
echo "BankLab: sanitizers and fuzzers found nothing"

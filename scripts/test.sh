#!/usr/bin/env bash
# The whole test suite, set up from scratch if need be: installs the Debian packages, builds
# everything (the CUDA kernels too when nvcc is there), and runs
#   1. every suite that needs no GPU, with BANKLAB_FORCE_NO_GPU=1 so that the no-GPU checks see
#      no GPU on any machine (the suites that open windows each under an Xvfb of its own,
#      tests/own_display.sh; the browser edition's test under one this script starts);
#   2. with a usable NVIDIA GPU (nvidia-smi lists one and `banklab gpu-bench` runs on it), the
#      suites labelled gpu: every kernel against its CPU reference, the measurement, a short
#      `banklab validate`;
#   3. the browser edition: built by scripts/web.sh and driven in Debian's headless Chromium
#      against this build's banklab and banklab-gui (tests/web/test_web.mjs; needs the GUI);
#   4. the core under AddressSanitizer + UndefinedBehaviorSanitizer, the fuzz corpus replayed and
#      a fixed-seed bounded libFuzzer run (scripts/sanitize-and-fuzz.sh; needs clang).
# Where packages cannot be installed (the GPU machine: BANKLAB_NO_INSTALL=1, or no apt/root),
# it uses what is there: the GUI is built only when its libraries are present, and headers that
# are not installed come from BANKLAB_EXTRA_INCLUDE (see README.md).
#
# Each phase prints its time as it ends, and the last lines list them all with the total
# (docs/testing.md records them on a fresh machine and run again; bench/test-command.sh checks
# them against this machine size's budget). Run again on the same clone, it rebuilds only what
# changed (the sanitized tree and the browser edition too) and fuzzes for the same fixed time.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

command_start=$(date +%s)
mkdir -p "$BANKLAB_BUILD_DIR"
export BANKLAB_PHASE_LOG=$BANKLAB_BUILD_DIR/test-phases.tsv  # the phases' times, for the end
: >"$BANKLAB_PHASE_LOG"
print_phases() {
  echo "BankLab: the test command's phases (seconds):"
  sed 's/^/  /' "$BANKLAB_PHASE_LOG"
  echo "BankLab: $(($(date +%s) - command_start)) s in all"
}

# Packages in two steps. What the build and the suites need first; then, in the background while
# the programs build (a compile that keeps both cores busy, where installing mostly waits on the
# network and the disk), what only the later phases use: clang for the sanitizers, clang-format,
# the browser edition's emscripten and Chromium (npm where node came without it; Debian's nodejs
# does), and Dear ImGui's source package. On a fresh Debian 12 that second step is most of the
# downloading (docs/testing.md, "How long it takes").
# shellcheck disable=SC2046,SC2086  # lists of packages, word-split on purpose
banklab_phase "Debian packages: the build's and the suites'" \
  banklab_install_packages $BANKLAB_PACKAGES_BUILD $BANKLAB_PACKAGES_GUI $BANKLAB_PACKAGES_TEST
later_packages_log=$BANKLAB_BUILD_DIR/later-packages.log
# shellcheck disable=SC2046,SC2086
{
  banklab_install_packages $BANKLAB_PACKAGES_CHECKS $BANKLAB_PACKAGES_WEB $BANKLAB_PACKAGES_WEB_TEST \
    $(command -v npm >/dev/null || echo npm)
  if [ -z "$(banklab_no_install_reason)" ] && command -v emcc >/dev/null; then
    banklab_fetch_imgui_source || echo "BankLab: ImGui's source was not fetched; scripts/web.sh tries again"
  fi
} >"$later_packages_log" 2>&1 &
later_packages_pid=$!
# Waits for the background step and shows what it printed.
wait_for_later_packages() {
  local status=0
  wait "$later_packages_pid" || status=$?
  sed 's/^/  /' "$later_packages_log"
  [ "$status" = 0 ] || echo "BankLab: installing the later phases' packages ended with status $status" >&2
}

gui=ON
if ! banklab_gui_available; then
  gui=OFF
  echo "BankLab: no GUI libraries (ImGui, GLFW, GL) here: building and testing without the GUI" >&2
fi
BANKLAB_CMAKE_ARGS="-DBANKLAB_BUILD_TESTS=ON -DBANKLAB_BUILD_GUI=$gui ${BANKLAB_CMAKE_ARGS:-}" \
  banklab_phase "build (the programs, the suites, the benchmarks)" banklab_build
# Before the suites: the package test installs the .deb with apt-get on CI, which needs dpkg's lock.
banklab_phase "Debian packages: the later phases' (installed during the build)" wait_for_later_packages
if command -v clang-format >/dev/null; then
  banklab_phase "the house style (.clang-format)" bash "$BANKLAB_ROOT/scripts/check-format.sh"
else
  echo "BankLab: format check skipped: no clang-format (it is installed wherever packages can be)"
fi

xvfb_pid=""
if [ "$gui" = ON ] && [ -z "${DISPLAY:-}" ]; then
  export DISPLAY=:97
  Xvfb "$DISPLAY" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  # An Xvfb that has already gone (a test's window server crash) is no failure of the command:
  # under errexit a failing kill here would turn a passed run's status into 1.
  trap '[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do [ -e /tmp/.X11-unix/X97 ] && break; sleep 0.1; done
  [ -e /tmp/.X11-unix/X97 ] || { echo "BankLab: Xvfb did not start on $DISPLAY" >&2; exit 1; }
fi

jobs=$(nproc)
BANKLAB_FORCE_NO_GPU=1 banklab_phase "the suites that need no GPU (BANKLAB_FORCE_NO_GPU=1)" \
  ctest --test-dir "$BANKLAB_BUILD_DIR" --output-on-failure -LE '^gpu$' -j"$jobs"

# A usable GPU: the driver lists one, this build has the kernels, and the project's own device
# query (gpu-bench on a tiny transpose) runs on it.
gpu_reason=""
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  gpu_reason="nvidia-smi lists no GPU"
elif ! ctest --test-dir "$BANKLAB_BUILD_DIR" -N -L '^gpu$' | grep -q 'Test *#'; then
  gpu_reason="this build has no CUDA kernels (no nvcc found)"
elif ! probe=$("$BANKLAB_BUILD_DIR/app/cli/banklab" gpu-bench --dtype fp32 --size 64 2>&1); then
  gpu_reason="banklab cannot use it: $(printf '%s' "$probe" | tail -1)"
fi
if [ -z "$gpu_reason" ]; then
  banklab_phase "the GPU suites on $(nvidia-smi -L | head -1)" \
    ctest --test-dir "$BANKLAB_BUILD_DIR" --output-on-failure -L '^gpu$'
else
  echo "BankLab: GPU suites skipped: $gpu_reason"
fi

# The browser edition: the page is compared with the desktop app under the Xvfb above. Beside
# Debian's packages it downloads Dear ImGui's source package (scripts/web.sh) and the test's
# pinned npm packages (npm ci). Where nothing may be installed (the GPU machine: no network) it
# runs only on what is already here; otherwise it is skipped with one line saying why.
web_reason=""
no_install=$(banklab_no_install_reason)
if [ "$gui" != ON ]; then
  web_reason="no GUI here to compare the page with"
else
  for tool in emcc chromium npm; do
    command -v "$tool" >/dev/null ||
      web_reason="no $tool here${no_install:+ and nothing is installed ($no_install)}"
  done
  if [ -z "$web_reason" ] && [ -n "$no_install" ]; then
    [ -f "$BANKLAB_IMGUI_SOURCE_DIR/imgui.cpp" ] ||
      web_reason="ImGui's source package is not fetched and nothing is downloaded ($no_install)"
    [ -d "$BANKLAB_ROOT/tests/web/node_modules/puppeteer-core" ] ||
      web_reason="tests/web's npm packages are not installed and nothing is downloaded ($no_install)"
  fi
fi
# The test's npm packages as package-lock.json pins them, installed again only when the lock
# changed (npm ci starts by deleting node_modules).
web_test_packages() {
  local web=$BANKLAB_ROOT/tests/web stamp=$BANKLAB_ROOT/tests/web/node_modules/.banklab-lock
  if [ -n "$no_install" ] || cmp -s "$web/package-lock.json" "$stamp"; then return 0; fi
  (cd "$web" && npm ci --ignore-scripts --no-audit --no-fund)
  cp "$web/package-lock.json" "$stamp"
}
# The page against the desktop programs (tests/web/test_web.mjs), then the HTML deck a lecturer
# opens (banklab-gui --export-dir: sizes, keys, clicks, notes): one phase, both always run.
web_browser_tests() {
  local status=0
  node "$BANKLAB_ROOT/tests/web/test_web.mjs" "$BANKLAB_ROOT/build-web" \
    "$BANKLAB_BUILD_DIR/app/cli/banklab" "$BANKLAB_BUILD_DIR/app/gui/banklab-gui" \
    "$BANKLAB_BUILD_DIR/web-test" || status=1
  node "$BANKLAB_ROOT/tests/web/test_deck.mjs" "$BANKLAB_BUILD_DIR/app/gui/banklab-gui" \
    "$BANKLAB_BUILD_DIR/deck-test" || status=1
  return $status
}
if [ -z "$web_reason" ]; then
  banklab_phase "the browser edition: build (scripts/web.sh)" bash "$BANKLAB_ROOT/scripts/web.sh"
  banklab_phase "the browser edition: the test's npm packages" web_test_packages
  banklab_phase "the browser edition in headless Chromium (tests/web, the deck)" web_browser_tests
else
  echo "BankLab: browser edition skipped: $web_reason"
fi

if command -v clang++ >/dev/null; then
  bash "$BANKLAB_ROOT/scripts/sanitize-and-fuzz.sh"
else
  echo "BankLab: sanitizers and fuzzer skipped: no clang++ (it is installed wherever packages can be)"
fi
print_phases

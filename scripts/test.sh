#!/usr/bin/env bash
# The whole test suite, set up from scratch if need be: installs the Debian packages, builds
# everything (the CUDA kernels too when /usr/local/cuda is there), starts Xvfb for the GUI tests
# when there is no display, runs every CTest suite that needs no GPU, then the core under
# AddressSanitizer + UndefinedBehaviorSanitizer and a bounded libFuzzer run.
# The GPU suites (label gpu) run on a GPU machine: kernels/run_on_h200.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

banklab_install_packages $BANKLAB_PACKAGES_BUILD $BANKLAB_PACKAGES_GUI $BANKLAB_PACKAGES_TEST
banklab_build

xvfb_pid=""
if [ -z "${DISPLAY:-}" ]; then
  export DISPLAY=:97
  Xvfb "$DISPLAY" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  trap '[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null' EXIT
  for _ in $(seq 100); do [ -e /tmp/.X11-unix/X97 ] && break; sleep 0.1; done
  [ -e /tmp/.X11-unix/X97 ] || { echo "BankLab: Xvfb did not start on $DISPLAY" >&2; exit 1; }
fi

ctest --test-dir "$BANKLAB_BUILD_DIR" --output-on-failure -LE '^gpu$' -j"$(nproc)"
bash "$BANKLAB_ROOT/scripts/sanitize-and-fuzz.sh"

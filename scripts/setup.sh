#!/usr/bin/env bash
# Installs what BankLab needs from Debian 12 (only what is missing), then configures and builds
# it in ./build. Sourced by run.sh and test.sh; safe to run again.
#
#   BANKLAB_BUILD_DIR   where to build (default: build)
#   BANKLAB_CMAKE_ARGS  extra arguments for cmake's configure step
set -euo pipefail

BANKLAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BANKLAB_BUILD_DIR=${BANKLAB_BUILD_DIR:-$BANKLAB_ROOT/build}

# Packages by purpose: building, the GUI, the tests (Xvfb for the GUI tests, clang for the
# fuzzer), and fonts the app prefers.
BANKLAB_PACKAGES_BUILD="g++ cmake ninja-build pkg-config libcli11-dev"
BANKLAB_PACKAGES_GUI="libimgui-dev libglfw3-dev libgl-dev libstb-dev fonts-dejavu-core"
BANKLAB_PACKAGES_TEST="doctest-dev nlohmann-json3-dev xvfb xauth clang libclang-rt-14-dev"

banklab_install_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "BankLab: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null ||
      { echo "BankLab: need root (or sudo) to install: ${missing[*]}" >&2; return 1; }
    sudo=sudo
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

banklab_build() {
  # shellcheck disable=SC2086  # BANKLAB_CMAKE_ARGS is a list of words on purpose
  cmake -S "$BANKLAB_ROOT" -B "$BANKLAB_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    ${BANKLAB_CMAKE_ARGS:-}
  cmake --build "$BANKLAB_BUILD_DIR" -j"$(nproc)" "$@"
}

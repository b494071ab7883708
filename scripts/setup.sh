#!/usr/bin/env bash
# Installs what BankLab needs from Debian 12 (only what is missing), then configures and builds
# it. Sourced by run.sh and test.sh; safe to run again, in any order, sharing one build folder.
#
#   BANKLAB_BUILD_DIR      where to build (default: build)
#   BANKLAB_CMAKE_ARGS     extra arguments for cmake's configure step
#   BANKLAB_NO_INSTALL=1   never install packages: use what is there (a machine without apt,
#                          root, sudo or network is detected by itself)
#   BANKLAB_EXTRA_INCLUDE  folders (':'-separated) holding headers that are not installed as
#                          Debian packages: doctest/, CLI/, toml++/, nlohmann/ (the GPU machine)
set -euo pipefail

BANKLAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BANKLAB_BUILD_DIR=${BANKLAB_BUILD_DIR:-$BANKLAB_ROOT/build}

# Packages by purpose: building (CLI11, toml++ and nlohmann-json are header-only, help2man
# writes the man pages, Google Benchmark runs the speed benchmarks), the GUI and fonts the app
# prefers, the suites (Xvfb for the GUI tests, xdotool to type into and resize the app's window
# there, dpkg-dev and file for the Debian package's dependencies: CPack's DEB generator needs
# both, and a minimal Debian 12 has neither), and the checks that run after the suites
# (clang for the sanitizers and the fuzzer, clang-format for the house style).
BANKLAB_PACKAGES_BUILD="g++ cmake ninja-build pkg-config libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  help2man libbenchmark-dev"
BANKLAB_PACKAGES_GUI="libimgui-dev libglfw3-dev libgl-dev libstb-dev fonts-dejavu-core"
BANKLAB_PACKAGES_TEST="doctest-dev xvfb xauth xdotool dpkg-dev file"
BANKLAB_PACKAGES_CHECKS="clang clang-format libclang-rt-14-dev"
# The browser edition (scripts/web.sh): emscripten, the header-only libraries and fonts it
# compiles in, dpkg-dev to unpack ImGui's source package, python3 to serve the page; and for its
# test (tests/web), Debian's Chromium (node and npm come with it where they are missing).
BANKLAB_PACKAGES_WEB="emscripten cmake ninja-build libcli11-dev libtomlplusplus-dev
  nlohmann-json3-dev libstb-dev fonts-dejavu-core dpkg-dev python3"
BANKLAB_PACKAGES_WEB_TEST="chromium"
# Where scripts/web.sh builds the browser edition, and Dear ImGui's source (Debian's imgui source
# package, the version the desktop's libimgui-dev is) that it unpacks there.
BANKLAB_WASM_DIR=$BANKLAB_ROOT/build-wasm
BANKLAB_IMGUI_VERSION=1.86+ds
BANKLAB_IMGUI_SOURCE_DIR=$BANKLAB_WASM_DIR/imgui-$BANKLAB_IMGUI_VERSION

# Dear ImGui 1.86 as Debian ships it (the desktop build's libimgui-dev is the same version),
# from its source package: a deb-src entry used for this one download, in a list of our own
# under build-wasm, so the machine's apt configuration is left as it was.
banklab_fetch_imgui_source() {
  local apt_dir apt_options
  if [ ! -f "$BANKLAB_IMGUI_SOURCE_DIR/imgui.cpp" ]; then
    apt_dir=$BANKLAB_WASM_DIR/apt
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
      "http://deb.debian.org/debian bookworm main" >"$apt_dir/sources.list"
    apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=-"
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -q)
    echo "BankLab: fetching Dear ImGui's source (Debian's imgui $BANKLAB_IMGUI_VERSION)"
    apt-get "${apt_options[@]}" update
    (cd "$BANKLAB_WASM_DIR" && apt-get "${apt_options[@]}" source "imgui=$BANKLAB_IMGUI_VERSION-1")
  fi
}

# Why packages cannot be installed here, or nothing when they can.
banklab_no_install_reason() {
  if [ "${BANKLAB_NO_INSTALL:-0}" = 1 ]; then
    echo "BANKLAB_NO_INSTALL=1"
  elif ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
    echo "no apt-get/dpkg-query on this machine"
  elif [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "not root and no sudo"
  fi
}

banklab_missing_packages() {
  command -v dpkg-query >/dev/null || return 0
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      printf '%s ' "$pkg"
  done
}

# Installs the missing packages. Where that cannot be done, says what is missing and goes on
# with what is present: CMake then names anything the build really needs.
banklab_install_packages() {
  local missing reason sudo=""
  missing=$(banklab_missing_packages "$@")
  [ -z "$missing" ] && return 0
  reason=$(banklab_no_install_reason)
  if [ -n "$reason" ]; then
    echo "BankLab: not installing ($reason); missing Debian packages: $missing" >&2
    return 0
  fi
  echo "BankLab: installing $missing"
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  # The package index is updated once a run of the script (test.sh installs in two steps).
  if [ "${banklab_apt_updated:-0}" != 1 ]; then
    $sudo apt-get update -q && banklab_apt_updated=1
  fi
  # On a machine thrown away after the run (CI's, .ci/run), dpkg skips its sync of every file
  # it unpacks: half of a fresh machine's install time (docs/testing.md), at the risk only of
  # a half-written package after a crash, which no one keeps.
  local unsafe_io=()
  if [ "${BANKLAB_THROWAWAY_MACHINE:-0}" = 1 ]; then unsafe_io=(-o Dpkg::Options::=--force-unsafe-io); fi
  # shellcheck disable=SC2086  # $missing is a list of words on purpose
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
    "${unsafe_io[@]}" $missing; then
    echo "BankLab: apt-get could not install $missing; going on with what is present" >&2
  fi
}

# Does this machine have the GUI's libraries (ImGui, GLFW, GL)?
banklab_gui_available() {
  command -v pkg-config >/dev/null && pkg-config --exists imgui glfw3 stb &&
    [ -e /usr/include/GL/gl.h ]
}

# The cmake arguments that put BANKLAB_EXTRA_INCLUDE's folders on the include path (find_path()
# looks there, and every compile sees them as system headers), in the array banklab_include_args;
# the same as compiler flags and a CMake list in banklab_include_flags, banklab_include_path.
banklab_include_args=()
banklab_include_flags=""
banklab_include_path=""
if [ -n "${BANKLAB_EXTRA_INCLUDE:-}" ]; then
  IFS=: read -ra banklab_include_dirs <<<"$BANKLAB_EXTRA_INCLUDE"
  for dir in "${banklab_include_dirs[@]}"; do
    dir=$(cd "$dir" && pwd)  # absolute: cmake runs in the build folder
    banklab_include_flags+="-isystem $dir "
    banklab_include_path+="${banklab_include_path:+;}$dir"
  done
  banklab_include_args=("-DCMAKE_INCLUDE_PATH=$banklab_include_path"
                        "-DCMAKE_CXX_FLAGS=$banklab_include_flags")
fi

# Does this machine have Google Benchmark (libbenchmark-dev), which the benchmarks need?
banklab_bench_available() {
  [ -e /usr/include/benchmark/benchmark.h ] ||
    { command -v pkg-config >/dev/null && pkg-config --exists benchmark; }
}

# The test command's phases, each timed: `banklab_phase NAME COMMAND...` prints "== NAME", runs
# the command (a failure stops the script, as set -e does), then "BankLab: NAME: 12 s", and adds
# "SECONDS<TAB>NAME" to $BANKLAB_PHASE_LOG when it is set (test.sh sets it for itself and the
# scripts it calls; bench/test-command.sh reads it).
banklab_phase() {
  local name=$1 start elapsed
  shift
  echo "== $name"
  start=$(date +%s%N)
  "$@"
  elapsed=$((($(date +%s%N) - start) / 1000000))
  printf -v elapsed '%d.%01d' $((elapsed / 1000)) $((elapsed % 1000 / 100))
  echo "BankLab: $name: $elapsed s"
  if [ -n "${BANKLAB_PHASE_LOG:-}" ]; then printf '%s\t%s\n' "$elapsed" "$name" >>"$BANKLAB_PHASE_LOG"; fi
}

# A sanitized tree in folder $1, with more cmake arguments after it (the compiler, the fuzz
# targets, the tests): ASan + UBSan on everything it builds. scripts/sanitize-and-fuzz.sh builds
# the core's suites and the fuzz targets in one (clang, libFuzzer; the compares not
# instrumented), scripts/fuzz.sh's long campaigns in another (the compares instrumented for
# libFuzzer). Release keeps assertions in this project; -O1 keeps the sanitized code fast
# enough, and line tables (-gline-tables-only) are all the sanitizers' stack traces read (the
# function, file and line of each frame): full debug information (-g) cost about a fifth of
# the tree's compile time (issue 36, docs/testing.md). No GUI, CUDA or benchmarks.
banklab_configure_sanitized() {
  local dir=$1
  shift
  cmake -S "$BANKLAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only" -DBANKLAB_SANITIZE=address,undefined \
    -DBANKLAB_BUILD_GUI=OFF -DBANKLAB_BUILD_CUDA=OFF -DBANKLAB_BUILD_BENCH=OFF \
    "${banklab_include_args[@]}" "$@" >/dev/null
}

# Configures and builds. Every setting that run.sh and test.sh differ on (tests, GUI) is passed
# each time, so either script can follow the other in the same build folder. The benchmarks are
# built where their library is (everywhere packages can be installed), left out elsewhere.
banklab_build() {
  local bench=ON
  if ! banklab_bench_available; then
    bench=OFF
    echo "BankLab: no Google Benchmark (libbenchmark-dev) here: building without the benchmarks" >&2
  fi
  # shellcheck disable=SC2086  # BANKLAB_CMAKE_ARGS is a list of words on purpose
  cmake -S "$BANKLAB_ROOT" -B "$BANKLAB_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBANKLAB_BUILD_BENCH=$bench "${banklab_include_args[@]}" ${BANKLAB_CMAKE_ARGS:-}
  cmake --build "$BANKLAB_BUILD_DIR" -j"$(nproc)" "$@"
}

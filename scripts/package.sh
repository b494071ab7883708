#!/usr/bin/env bash
# The Debian package, in one command: installs what building it needs, builds banklab and
# banklab-gui in build-package/ (without CUDA and without the tests; see
# cmake/BankLabPackaging.cmake for why), and writes build-package/banklab_<version>_<arch>.deb.
#   sudo apt install ./build-package/banklab_*.deb
#
#   BANKLAB_PACKAGE_DIR   the build folder (default: build-package); the .deb is written there
#   BANKLAB_CMAKE_ARGS    extra arguments for cmake's configure step
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

banklab_install_packages $BANKLAB_PACKAGES_BUILD $BANKLAB_PACKAGES_GUI dpkg-dev
dir=${BANKLAB_PACKAGE_DIR:-$BANKLAB_ROOT/build-package}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Source and build paths are mapped away, so that no build path ends up in the binaries
# (assert messages name their source file).
flags="$banklab_include_flags -ffile-prefix-map=$BANKLAB_ROOT/=banklab/ -ffile-prefix-map=$dir/=build/"
# shellcheck disable=SC2086  # BANKLAB_CMAKE_ARGS is a list of words on purpose
cmake -S "$BANKLAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBANKLAB_BUILD_TESTS=OFF -DBANKLAB_BUILD_GUI=ON -DBANKLAB_BUILD_CUDA=OFF \
  "-DCMAKE_INCLUDE_PATH=$banklab_include_path" "-DCMAKE_CXX_FLAGS=$flags" ${BANKLAB_CMAKE_ARGS:-}
cmake --build "$dir" -j"$(nproc)"
rm -f "$dir"/banklab_*.deb
(cd "$dir" && cpack -G DEB)
ls "$dir"/banklab_*.deb

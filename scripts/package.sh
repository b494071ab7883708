#!/usr/bin/env bash
# The Debian package, in one command: installs what building it needs, builds banklab and
# banklab-gui in build-package/ (with the CUDA kernels and the measurement when nvcc is found;
# without the tests), and writes build-package/banklab_<version>_<arch>.deb.
#   sudo apt install ./build-package/banklab_*.deb
#
#   BANKLAB_PACKAGE_DIR         the build folder (default: build-package); the .deb is written there
#   BANKLAB_PACKAGE_CONFIGURED  1: that folder is a build tree configured already (tests/package
#                               packages the test command's build/ so): package it as it is,
#                               without configuring it again
#   BANKLAB_CMAKE_ARGS          extra arguments for cmake's configure step
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

banklab_install_packages $BANKLAB_PACKAGES_BUILD $BANKLAB_PACKAGES_GUI dpkg-dev file
dir=${BANKLAB_PACKAGE_DIR:-$BANKLAB_ROOT/build-package}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ "${BANKLAB_PACKAGE_CONFIGURED:-0}" != 1 ]; then
  # shellcheck disable=SC2086  # BANKLAB_CMAKE_ARGS is a list of words on purpose
  cmake -S "$BANKLAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBANKLAB_BUILD_TESTS=OFF -DBANKLAB_BUILD_GUI=ON -DBANKLAB_BUILD_CUDA=ON \
    "${banklab_include_args[@]}" \
    ${BANKLAB_CMAKE_ARGS:-}
fi
rm -f "$dir"/banklab_*.deb
# The package target builds what is out of date, then runs CPack (cmake/BankLabPackaging.cmake).
cmake --build "$dir" -j"$(nproc)" --target package
ls "$dir"/banklab_*.deb

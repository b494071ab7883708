#!/usr/bin/env bash
# The app, set up from scratch if need be: installs the Debian packages for building and for
# the GUI (not the test packages: the tests are configured off here), builds banklab and
# banklab-gui, and opens the app on the default lesson (fp32 tile[32][32], column read).
# Arguments go to the app, e.g. scripts/run.sh --preset bf16-pad1-odd --theme light
# It shares ./build with scripts/test.sh: either may run first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

banklab_install_packages $BANKLAB_PACKAGES_BUILD $BANKLAB_PACKAGES_GUI
BANKLAB_CMAKE_ARGS="-DBANKLAB_BUILD_TESTS=OFF -DBANKLAB_BUILD_GUI=ON ${BANKLAB_CMAKE_ARGS:-}" \
  banklab_build --target banklab-gui banklab
exec "$BANKLAB_BUILD_DIR/app/gui/banklab-gui" "$@"

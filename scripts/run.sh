#!/usr/bin/env bash
# The app, set up from scratch if need be: installs the Debian packages, builds, and opens
# banklab-gui on the default lesson (fp32 tile[32][32], column read). Arguments go to the app,
# e.g. scripts/run.sh --preset bf16-pad1-odd --theme light
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

banklab_install_packages $BANKLAB_PACKAGES_BUILD $BANKLAB_PACKAGES_GUI
banklab_build --target banklab-gui banklab
exec "$BANKLAB_BUILD_DIR/app/gui/banklab-gui" "$@"

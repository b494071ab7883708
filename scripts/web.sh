#!/usr/bin/env bash
# The browser edition, set up from scratch if need be: installs what it needs from Debian 12
# (emscripten, the header-only libraries, the fonts), fetches Dear ImGui's source from Debian's
# imgui source package, builds the same core and views for WebAssembly and WebGL 2
# (CMakePresets.json's "web" preset, in ./build-wasm) and writes the page to ./build-web:
#   index.html  banklab.js  banklab.wasm  banklab.data
# a static folder that any web server (or GitHub Pages) serves as it is.
#
#   scripts/web.sh            build ./build-web
#   scripts/web.sh --serve    build, then serve it on 127.0.0.1 and print the address
#                             (BANKLAB_WEB_PORT, default 8000; Ctrl-C stops it)
#
# Opening a lesson step by link: http://127.0.0.1:8000/#lesson=transpose&step=6 (docs/web.md).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

serve=0
case "${1:-}" in
  "") ;;
  --serve) serve=1 ;;
  *)
    echo "usage: scripts/web.sh [--serve]" >&2
    exit 2
    ;;
esac

BANKLAB_SITE_DIR=$BANKLAB_ROOT/build-web
banklab_install_packages $BANKLAB_PACKAGES_WEB

# emcc runs JavaScript tools that need Debian's acorn; a node that is not Debian's (NodeSource's,
# say) does not look in Debian's module folder by itself.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

banklab_fetch_imgui_source

# Configured once; from then on ninja re-runs CMake itself when a CMakeLists.txt changed, and
# rebuilds only what changed since the last build.
if [ ! -f "$BANKLAB_WASM_DIR/build.ninja" ]; then
  cmake --preset web -S "$BANKLAB_ROOT" -DBANKLAB_IMGUI_SOURCE_DIR="$BANKLAB_IMGUI_SOURCE_DIR"
fi
cmake --build "$BANKLAB_WASM_DIR" --target banklab-web -j"$(nproc)"
echo "BankLab: the page is in $BANKLAB_SITE_DIR ($(du -sh "$BANKLAB_SITE_DIR" | cut -f1))"

if [ "$serve" = 1 ]; then
  port=${BANKLAB_WEB_PORT:-8000}
  echo "BankLab: serving it at http://127.0.0.1:$port/ (Ctrl-C stops)"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$BANKLAB_SITE_DIR"
fi

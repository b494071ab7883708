#!/usr/bin/env bash
# The Debian package as a user gets it (issue 17): built by scripts/package.sh in BUILD_DIR,
# its metadata read with dpkg-deb, unpacked with dpkg -x into a temporary root, and the
# installed programs run from there, outside the source tree. Needs an X display for the GUI's
# screenshot (scripts/test.sh starts Xvfb), or xvfb-run.
#   tests/package/test_package.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?usage: test_package.sh BUILD_DIR}
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qF -- "$2" <<<"$1" || fail "$3: expected '$2' in: $1"; }

mkdir -p "$build"
build=$(cd "$build" && pwd)
echo "== scripts/package.sh in $build"
BANKLAB_NO_INSTALL=1 BANKLAB_PACKAGE_DIR=$build bash "$root/scripts/package.sh" \
  >"$build/package.log" 2>&1 || { tail -40 "$build/package.log"; fail "scripts/package.sh failed"; }
debs=("$build"/banklab_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one banklab_*.deb in $build"
deb=${debs[0]}
echo "package: $deb"

echo "== metadata (dpkg-deb -I)"
dpkg-deb -I "$deb"
project_version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ "$(dpkg-deb -f "$deb" Package)" = banklab ] || fail "the package is not named banklab"
version=$(dpkg-deb -f "$deb" Version)
[[ $version == "$project_version"* ]] || fail "version $version does not start with $project_version"
if commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null) &&
  [ "$(git -C "$root" rev-parse --show-toplevel)" = "$root" ]; then
  [[ $version == *".$commit" ]] || fail "version $version does not end with the commit $commit"
fi
depends=$(dpkg-deb -f "$deb" Depends)
has "$depends" libglfw3 "Depends"
has "$depends" libgl1 "Depends"
has "$depends" libstdc++6 "Depends"
if grep -qiE 'cuda|cupti|nvidia|-dev\b' <<<"$depends"; then fail "Depends names a build or CUDA package: $depends"; fi

echo "== files (dpkg-deb -c)"
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/banklab ./usr/bin/banklab-gui ./usr/share/applications/banklab-gui.desktop \
  ./usr/share/icons/hicolor/scalable/apps/banklab.svg ./usr/share/icons/hicolor/256x256/apps/banklab.png \
  ./usr/share/banklab/shaders/quads.frag ./usr/share/man/man1/banklab.1.gz \
  ./usr/share/man/man1/banklab-gui.1.gz; do
  grep -qxF "$f" <<<"$files" || fail "the package lacks $f"
done
for data in lessons recordings; do
  if [ -d "$root/assets/$data" ]; then
    grep -q "^./usr/share/banklab/$data/." <<<"$files" || fail "the package lacks share/banklab/$data"
  fi
done
if grep -v '^./usr/' <<<"$files" | grep -qv '^./$'; then fail "files outside /usr: $files"; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
echo "== no build path in the installed files"
if grep -rlF -e "$root" -e "$build" "$tmp/root"; then fail "build paths embedded in the files above"; fi
for page in "$tmp"/root/usr/share/man/man1/*.gz; do
  zcat "$page" | grep -q '^\.TH' || fail "$page is not a man page"
  if zcat "$page" | grep -qF -e "$root" -e "$build"; then fail "$page names a build path"; fi
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$tmp/root/usr/share/applications/banklab-gui.desktop"
fi

echo "== the installed programs, run from $tmp"
cd "$tmp"
unset BANKLAB_DATA_DIR
bin=$tmp/root/usr/bin
data=$tmp/root/usr/share/banklab
out=$("$bin/banklab" --version)
echo "$out"
has "$out" "banklab $project_version (commit " "banklab --version"
has "$out" "data: $data" "banklab --version"
out=$("$bin/banklab" explain fp32-naive)
has "$out" "32-way bank conflict" "banklab explain fp32-naive"
if "$bin/banklab" --help | grep -q '^ *lesson '; then
  out=$("$bin/banklab" lesson list)
  # Every lesson of the sources, read from the installed share/banklab/lessons.
  for lesson in "$root"/assets/lessons/*.toml; do
    [ -e "$lesson" ] || continue
    name=$(basename "$lesson" .toml)
    grep -q "^$name " <<<"$out" || fail "banklab lesson list does not list $name: $out"
  done
  echo "banklab lesson list: $(wc -l <<<"$out") lessons"
fi
status=0
out=$("$bin/banklab" gpu-bench --dtype fp32 --size 64 2>&1) || status=$?
[ "$status" -eq 1 ] || fail "banklab gpu-bench exited $status without CUDA: $out"
has "$out" "no CUDA" "banklab gpu-bench, the package having no CUDA"
out=$("$bin/banklab-gui" --version)
has "$out" "data: $data" "banklab-gui --version"
shot=(--preset fp32-naive --screenshot "$tmp/shot.png")
if [ -n "${DISPLAY:-}" ]; then
  "$bin/banklab-gui" "${shot[@]}"
else
  xvfb-run -a -s "-screen 0 1920x1080x24" "$bin/banklab-gui" "${shot[@]}"
fi
[ "$(head -c 8 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
  fail "banklab-gui --screenshot wrote no PNG"
echo "screenshot: $(stat -c %s "$tmp/shot.png") bytes"
echo "BankLab: the package installs and runs"

#!/usr/bin/env bash
# The Debian package as a user gets it (issue 17), made from BUILD_DIR, a configured build tree
# (tests/package/CMakeLists.txt passes the test command's build/), by scripts/package.sh: the
# package target builds what is out of date, then CPack writes the .deb. Its metadata is read
# with dpkg-deb and its files, unpacked with dpkg -x, are checked for build paths. Then the
# installed programs are run from outside the source tree:
#   - on a throwaway machine (BANKLAB_THROWAWAY_MACHINE=1, which .ci/run sets), as root: the
#     package is installed with apt-get as a user installs it, run from /usr/bin, purged, and
#     every path it had installed is checked to be gone;
#   - anywhere else: from the dpkg -x root; nothing is installed into the system.
# HAVE_CUDA (ON or OFF) says whether the tree has the CUDA kernels; either way the installed GPU
# commands must exit 1 with one line saying why there is no GPU to use here. Needs an X display
# for the GUI's screenshot (CTest gives it an Xvfb of its own: tests/own_display.sh), or
# xvfb-run.
#   tests/package/test_package.sh BUILD_DIR HAVE_CUDA
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?usage: test_package.sh BUILD_DIR HAVE_CUDA}
have_cuda=${2:?usage: test_package.sh BUILD_DIR HAVE_CUDA}
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qF -- "$2" <<<"$1" || fail "$3: expected '$2' in: $1"; }

build=$(cd "$build" && pwd)
echo "== scripts/package.sh in $build"
BANKLAB_NO_INSTALL=1 BANKLAB_PACKAGE_DIR=$build BANKLAB_PACKAGE_CONFIGURED=1 \
  bash "$root/scripts/package.sh" >"$build/package.log" 2>&1 ||
  { tail -40 "$build/package.log"; fail "scripts/package.sh failed"; }
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
  [[ $version == *".$commit" ]] ||
    fail "version $version does not end with HEAD's commit $commit (the commit is read when cmake configures: configure $build again, as scripts/test.sh does)"
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
  ./usr/share/man/man1/banklab-gui.1.gz ./usr/share/doc/banklab/copyright; do
  grep -qxF "$f" <<<"$files" || fail "the package lacks $f"
done
for data in lessons recordings traces; do
  if [ -d "$root/assets/$data" ]; then
    grep -q "^./usr/share/banklab/$data/." <<<"$files" || fail "the package lacks share/banklab/$data"
  fi
done
if grep -v '^./usr/' <<<"$files" | grep -qv '^./$'; then fail "files outside /usr: $files"; fi

tmp=$(mktemp -d)
installed_here=0
cleanup() {
  # A test that failed after installing leaves the machine as it found it.
  if [ "$installed_here" = 1 ] && dpkg -s banklab >/dev/null 2>&1; then dpkg --purge banklab >/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
dpkg-deb -x "$deb" "$tmp/root"
echo "== no build path in the package's files, no CUDA library needed to start"
if grep -rlF -e "$root" -e "$build" "$tmp/root"; then fail "build paths embedded in the files above"; fi
for page in "$tmp"/root/usr/share/man/man1/*.gz; do
  zcat "$page" | grep -q '^\.TH' || fail "$page is not a man page"
  if zcat "$page" | grep -qF -e "$root" -e "$build"; then fail "$page names a build path"; fi
done
for program in banklab banklab-gui; do
  if needed=$(ldd "$tmp/root/usr/bin/$program" | grep -E 'libcuda|libcupti|libcublas|libnvperf'); then
    fail "$program links a CUDA library, so it would not start without CUDA: $needed"
  fi
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$tmp/root/usr/share/applications/banklab-gui.desktop"
fi

# A GPU command where no GPU can be used: exit status 1, nothing on stdout, one line on stderr
# saying why. A GPU on this machine is hidden (BANKLAB_FORCE_NO_GPU=1); without one, the real
# reason is read (no driver, no device). A package with the kernels never says CUDA is missing.
check_gpu_command() {
  local bin=$1 status=0 stdout stderr
  shift
  local gpu_env=(-u BANKLAB_FORCE_NO_GPU)
  if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    gpu_env=(BANKLAB_FORCE_NO_GPU=1)
  fi
  stdout=$(env "${gpu_env[@]}" "$bin/banklab" "$@" 2>"$tmp/stderr") || status=$?
  stderr=$(cat "$tmp/stderr")
  echo "banklab $*: exit $status: $stderr"
  [ "$status" -eq 1 ] || fail "banklab $* exited $status without a usable GPU: $stdout $stderr"
  [ -z "$stdout" ] || fail "banklab $* wrote to stdout without a usable GPU: $stdout"
  [ "$(wc -l <"$tmp/stderr")" -eq 1 ] || fail "banklab $*: expected one line on stderr: $stderr"
  if [ "$have_cuda" = ON ]; then
    grep -qE '^banklab: no CUDA (driver|device)' <<<"$stderr" ||
      fail "banklab $* (a package with the kernels): expected no CUDA driver or device: $stderr"
  else
    has "$stderr" "banklab: this build of BankLab has no CUDA" "banklab $* (no kernels)"
  fi
}

# The installed programs, run from $tmp with BANKLAB_DATA_DIR unset: banklab and banklab-gui in
# BIN, their data in DATA.
run_installed() {
  local bin=$1 data=$2 out
  echo "== the installed programs in $bin, run from $tmp"
  (
    cd "$tmp"
    unset BANKLAB_DATA_DIR
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
    # Every shipped trace opens from the installed share/banklab/traces, with no GPU.
    for trace in "$root"/assets/traces/*.json; do
      [ -e "$trace" ] || continue
      out=$("$bin/banklab" trace --open "$data/traces/$(basename "$trace")") ||
        fail "banklab trace --open of the installed $(basename "$trace") failed"
      has "$out" "device:  NVIDIA H200" "banklab trace --open $(basename "$trace")"
    done
    check_gpu_command "$bin" gpu-bench --dtype fp32 --size 64
    check_gpu_command "$bin" validate --count 0
    out=$("$bin/banklab-gui" --version)
    has "$out" "data: $data" "banklab-gui --version"
    shot=(--preset fp32-naive --screenshot "$tmp/shot.png")
    rm -f "$tmp/shot.png"
    if [ -n "${DISPLAY:-}" ]; then
      "$bin/banklab-gui" "${shot[@]}"
    else
      xvfb-run -a -s "-screen 0 1920x1080x24" "$bin/banklab-gui" "${shot[@]}"
    fi
    [ "$(head -c 8 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
      fail "banklab-gui --screenshot wrote no PNG"
    echo "screenshot: $(stat -c %s "$tmp/shot.png") bytes"
  )
}

# Why the package is not installed into this system, or nothing when it is.
system_install_skipped() {
  if [ "${BANKLAB_THROWAWAY_MACHINE:-0}" != 1 ]; then
    echo "BANKLAB_THROWAWAY_MACHINE is not 1 (only .ci/run, on CI's fresh machine, says the machine may be changed)"
  elif [ "$(id -u)" -ne 0 ]; then
    echo "not root"
  elif ! command -v apt-get >/dev/null; then
    echo "no apt-get"
  fi
}

# Installed as a user installs it, run, purged: every path it installed must be gone after,
# except folders that were there before (/usr/bin, ...).
install_run_purge() {
  local status path
  status=$(dpkg-query -W -f='${Status}' banklab 2>/dev/null || true)
  if [ -n "$status" ] && [[ $status != *" not-installed" ]]; then
    fail "banklab is already on this machine (dpkg: $status); the test will not replace it: purge it (dpkg --purge banklab) or unset BANKLAB_THROWAWAY_MACHINE"
  fi
  local -A existed=()
  while read -r path; do
    path=${path#.}
    path=${path%/}  # dpkg-deb -c writes ./usr/bin/, dpkg -L /usr/bin
    [ -n "$path" ] || continue
    if [ -e "$path" ] || [ -L "$path" ]; then
      if [ ! -d "$path" ] || [ -L "$path" ]; then
        fail "$path, a file of the package, is already on this machine; the test will not replace it"
      fi
      existed[$path]=1
    fi
  done <<<"$files"

  echo "== apt-get install $deb"
  installed_here=1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" \
    >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; fail "apt-get install of the package failed"; }
  dpkg -s banklab | grep -qx 'Status: install ok installed' || fail "dpkg -s banklab: not installed"
  local listed
  listed=$(dpkg -L banklab)
  echo "dpkg -L banklab: $(wc -l <<<"$listed") paths"
  run_installed /usr/bin /usr/share/banklab
  if grep -qx /usr/share/man/man1/banklab.1.gz <<<"$listed" && command -v man >/dev/null; then
    man -P cat banklab 2>/dev/null | grep -q 'banklab - count CUDA shared-memory bank conflicts' ||
      fail "man banklab does not show the installed page"
    echo "man banklab: the installed page"
  fi

  echo "== dpkg --purge banklab"
  dpkg --purge banklab >"$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log"; fail "dpkg --purge banklab failed"; }
  if dpkg -s banklab >/dev/null 2>&1; then fail "dpkg -s banklab still knows it after the purge"; fi
  local left=()
  while read -r path; do
    [ "$path" = /. ] || [ -n "${existed[$path]:-}" ] && continue
    if [ -e "$path" ] || [ -L "$path" ]; then left+=("$path"); fi
  done <<<"$listed"
  [ ${#left[@]} -eq 0 ] || fail "the purge left behind: ${left[*]}"
  echo "purged: none of the $(wc -l <<<"$listed") paths it listed is left but the ${#existed[@]} folders that were there before"
}

reason=$(system_install_skipped)
if [ -z "$reason" ]; then
  install_run_purge
else
  echo "BankLab: not installed into the system: $reason; the programs run from the dpkg -x root"
  run_installed "$tmp/root/usr/bin" "$tmp/root/usr/share/banklab"
fi
echo "BankLab: the package installs and runs"

#!/usr/bin/env bash
# The package on the GPU machine, in one call: the README's test command on this tree, the
# hardware counters read through CUPTI loaded with dlopen (also with the loader's cache off, so
# that the toolkit's own copy is the one found), then the Debian package built on the
# development machine (scripts/package.sh, with CUDA) unpacked and run as installed: validate
# and the whole gpu-bench from its usr/bin. Logs in $OUT; docs/gpu-results.md has the figures.
#
#   scripts/package.sh                 (development machine; copy the .deb into pkg/ of the tree)
#   scripts/check-package-on-gpu.sh COMMIT     (GPU machine, from the repository root)
#
# The GPU machine has no Debian -dev packages: carry .device-include as the README says.
set -u
commit=${1:?usage: check-package-on-gpu.sh COMMIT, the commit of this tree for --version}
out=${OUT:?set OUT to the folder for the logs}

BANKLAB_NO_INSTALL=1 BANKLAB_EXTRA_INCLUDE=.device-include \
  BANKLAB_CMAKE_ARGS=-DBANKLAB_COMMIT=$commit scripts/test.sh >"$out/test.log" 2>&1
echo "test.sh rc=$?" >>"$out/test.log"
{
  ldd build/app/cli/banklab
  echo "CUDA libraries linked (cupti, cudart, libcuda, cublas):"
  ldd build/app/cli/banklab | grep -cE 'cupti|cudart|libcuda|cublas'
} >"$out/ldd.txt" 2>&1
build/app/cli/banklab validate --count 0 >"$out/validate.txt" 2>&1
echo "validate rc=$?" >>"$out/validate.txt"
env -u LD_LIBRARY_PATH /lib64/ld-linux-x86-64.so.2 --inhibit-cache \
  build/app/cli/banklab validate --count 0 >"$out/validate-nocache.txt" 2>&1
echo "validate (loader cache off) rc=$?" >>"$out/validate-nocache.txt"

deb=$(ls "$PWD"/pkg/banklab_*.deb)
root=$(mktemp -d)
mkdir -p "$root/r"
if command -v dpkg-deb >/dev/null; then
  dpkg-deb -x "$deb" "$root/r"
else
  (cd "$root" && ar x "$deb" && tar -xf data.tar.* -C r)
fi
cd "$root" || exit 1
{
  echo "package: $(basename "$deb")"
  r/usr/bin/banklab --version
  r/usr/bin/banklab explain fp32-naive | head -n 3
  r/usr/bin/banklab validate | tail -n 16
  echo "installed validate rc=${PIPESTATUS[0]}"
  r/usr/bin/banklab gpu-bench --size 16384 --reps 50 --record "$out/package-gpu-bench.json"
  echo "installed gpu-bench rc=$?"
} >"$out/package.txt" 2>&1

tail -n 1 "$out/test.log"
grep -E "tests passed|GPU suites" "$out/test.log"
tail -n 1 "$out/ldd.txt"
tail -n 1 "$out/validate.txt" "$out/validate-nocache.txt"
grep -vE '^\s*$' "$out/package.txt" | head -n 80

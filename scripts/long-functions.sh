#!/usr/bin/env bash
# Lists every function of the tree's C++ and CUDA sources longer than a limit (120 lines, the
# house rule; or the first argument), longest first, as "LINES FILE:LINE NAME". A function's
# lines run from its signature to its closing brace, as universal-ctags (Debian's
# universal-ctags) reports them; a doctest TEST_CASE is not a function to ctags and is not
# listed. Exit status 1 when any is listed, so that it can gate a change:
#
#   scripts/long-functions.sh          # the house rule
#   scripts/long-functions.sh 100      # what is close to it
set -euo pipefail
limit=${1:-120}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
command -v ctags >/dev/null || { echo "long-functions: needs ctags (universal-ctags)" >&2; exit 2; }
long=$(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' |
  xargs ctags --languages=C++,CUDA --kinds-C++=f --kinds-CUDA=f --fields=+ne -o - 2>/dev/null |
  awk -F'\t' -v limit="$limit" '{
    line = ""; end = ""
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^line:/) line = substr($i, 6)
      if ($i ~ /^end:/) end = substr($i, 5)
    }
    if (line != "" && end != "" && end - line + 1 > limit) printf "%d %s:%s %s\n", end - line + 1, $2, line, $1
  }' | sort -rn)
[ -z "$long" ] && exit 0
echo "$long"
exit 1

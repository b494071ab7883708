#!/usr/bin/env bash
# The house style is .clang-format: every C++ and CUDA source the repository tracks must already
# be formatted by it. Prints the files that are not, and exits 1; `--fix` formats them in place.
# scripts/test.sh runs this first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' 2>/dev/null || true)
if [ ${#files[@]} -eq 0 ]; then
  # Not a git checkout (an archive): every source under the project's folders.
  mapfile -t files < <(find app core kernels tests bench -type f \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
fi
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "BankLab: ${#unformatted[@]} file(s) differ from .clang-format (scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "BankLab: ${#files[@]} sources follow .clang-format"

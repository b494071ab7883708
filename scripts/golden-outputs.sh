#!/usr/bin/env bash
# Writes everything BankLab promises byte for byte, for one build, into a folder: for every
# preset its explanation, analysis (text and JSON), its scenario saved and analysed again from
# the file, and every export (SVG views in both themes, CSV, Markdown); a scenario file in the
# form before TOML, read; every lesson shown (text and Markdown) and checked; the shipped
# recording replayed; solve and drill runs with fixed inputs; `presets --json`; every swizzle
# kind, and spellings it refuses, over four dtypes, six tiles and three accesses, analysed and
# explained; the refusals and notes the checks word. The saved scenario files themselves are kept too (scenario-*.txt): their text is
# what a refactor of the file format shows changed. A
# refactor that must not change output is checked by running this for the build before and the
# build after and diffing the two folders:
#
#   scripts/golden-outputs.sh OLD/app/cli/banklab /tmp/golden-before
#   scripts/golden-outputs.sh NEW/app/cli/banklab /tmp/golden-after
#   diff -r /tmp/golden-before /tmp/golden-after && echo identical
#
# Every command's exit status is recorded beside its output, so a changed status shows too.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: scripts/golden-outputs.sh PATH/TO/banklab OUTPUT-FOLDER" >&2
  exit 2
fi
banklab=$(realpath "$1")
out=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -x "$banklab" ] || { echo "golden-outputs: $1 is not an executable" >&2; exit 2; }
mkdir -p "$out"
out=$(realpath "$out")
cd "$out" || exit 2

# run NAME ARGS...: stdout to NAME.out, stderr to NAME.err, the exit status to NAME.status.
run() {
  local name=$1
  shift
  "$banklab" "$@" >"$name.out" 2>"$name.err" </dev/null
  echo $? >"$name.status"
}

run presets presets
run presets-json presets --json
mapfile -t presets < <("$banklab" presets --json | grep -o '"name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/')
for p in "${presets[@]}"; do
  run "explain-$p" explain "$p"
  run "analyze-$p" analyze --preset "$p"
  run "analyze-json-$p" analyze --preset "$p" --json
  for what in banks lanes tile; do
    for theme in dark light; do
      run "export-$p-$what-$theme" export --preset "$p" --what "$what" --format svg \
        --theme "$theme" -o "export-$p-$what-$theme.svg"
    done
  done
  run "export-$p-tile-both" export --preset "$p" --what tile --tile-view both -o "export-$p-tile-both.svg"
  run "export-$p-table-csv" export --preset "$p" --what table --format csv -o "export-$p-table.csv"
  run "export-$p-table-md" export --preset "$p" --what table --format md -o "export-$p-table.md"
  run "export-$p-derivation" export --preset "$p" --what derivation -o "export-$p-derivation.md"
  run "save-$p" analyze --preset "$p" --save-scenario "scenario-$p.txt"
  run "reopen-$p" analyze --scenario "scenario-$p.txt" --json
done
# A scenario file as BankLab wrote them before they were TOML (values without quotes).
printf '%s\n' "# BankLab scenario: bf16 tile[32][33], column 3, ld 2 B per lane" \
  "dtype = bf16" "tile = 32x32" "pad = 1" "swizzle = none" "access = column" "index = 3" \
  "op = ld" "lanes = 0xffffffff" >old-form.scenario
run old-form analyze --scenario old-form.scenario
rm old-form.scenario
mapfile -t lessons < <("$banklab" lesson list | awk '{print $1}')
for l in "${lessons[@]}"; do
  run "lesson-$l" lesson show "$l"
  run "lesson-md-$l" lesson show "$l" --markdown
done
for f in "$root"/assets/lessons/*.toml; do
  run "lesson-check-$(basename "$f" .toml)" lesson check "$f"
done
run replay gpu-bench --replay "$root/assets/recordings/nvidia-h200.json"
run solve-fp32 solve --dtype fp32 --tile 32x32 --access row:16:st --access column
run solve-bf16 solve --dtype bf16 --tile 64x64 --access ldmatrix.x4
for level in weak hire strong-hire; do
  printf '32\n1\n--pad 1\n' | "$banklab" drill --level "$level" --count 3 --seed 7 \
    >"drill-$level.out" 2>"drill-$level.err"
  echo $? >"drill-$level.status"
done
# Every swizzle kind, valid and refused, through what prints it: analyze (text, JSON: the
# spellings in other notations), explain (the formula, the code form of the access).
swizzles=(none xor cute:3,4,3 cute:2,0,-2 cute-elem:3,3,3 tma32 tma64 tma128 triton:8,1,8
  triton:2,2,4 cute:3,3,3 cute:1,4,1 cute:3,1,3 cute:4,4,4 cute-elem:3,0,3 triton:0,1,8 xor:1
  cute:1,2 cute-elem:a,b,c triton:8,1 swizzle)
for dtype in fp32 bf16 fp8 fp64; do
  for tile in 32x32 64x64 32x16 16x64 8x8 24x24; do
    for access in column row ldmatrix.x4; do
      for sw in "${swizzles[@]}"; do
        name="swizzle-$dtype-$tile-$access-${sw//[:,]/_}"
        run "$name" analyze --dtype "$dtype" --tile "$tile" --access "$access" --swizzle "$sw" --json
        run "$name-text" analyze --dtype "$dtype" --tile "$tile" --access "$access" --swizzle "$sw"
        run "$name-explain" explain --dtype "$dtype" --tile "$tile" --access "$access" --swizzle "$sw"
      done
    done
  done
  for pad in 1 4; do
    for sw in xor tma128 cute:3,4,3 triton:8,1,8; do
      run "swizzle-$dtype-pad$pad-${sw//[:,]/_}" explain --dtype "$dtype" --pad "$pad" --swizzle "$sw"
    done
  done
done
run solve-fp32-json solve --dtype fp32 --tile 32x32 --access row:16:st --access column --json
run solve-bf16-json solve --dtype bf16 --tile 64x64 --access row:16:st --access ldmatrix.x4 --json
run solve-fp8 solve --dtype fp8 --tile 64x128 --access row:16:st --access column
# Refusals and notes whose sentences the checks write: an index off the tile, a width the
# hardware lacks, ldmatrix on a short tile, a tile above 48 KB (the static-limit note) and above
# 227 KB, families that do not fit the tile, options out of range, a recording that lies.
run refuse-index analyze --dtype fp32 --access column --index 40
run refuse-width analyze --dtype fp32 --access row --width 3
run refuse-matrix analyze --dtype bf16 --tile 4x64 --access ldmatrix.x4
run note-static analyze --dtype fp32 --tile 128x128
run refuse-block analyze --dtype fp64 --tile 256x256
run refuse-code analyze --decl "__shared__ double t[128][128];" --expr "t[threadIdx.x][0]"
run refuse-family solve --dtype fp32 --tile 32x30 --access row:16:st --access column:16
run refuse-family-matrix solve --dtype fp32 --tile 12x12 --access ldmatrix.x4 --access column
run refuse-gpu-options gpu-bench --size 0x16
sed '0,/"rows":16384/s//"rows":-1/' "$root/assets/recordings/nvidia-h200.json" >lying-recording.json
run refuse-recording gpu-bench --replay lying-recording.json
rm lying-recording.json
run code analyze --decl "__shared__ float tile[32][33];" --expr "v = tile[threadIdx.x][j]" --let j=3
run offsets analyze --op ld --width 16 --offsets "$(seq -s, 0 128 3968)"
echo "golden-outputs: $(ls | wc -l) files in $out"

#!/usr/bin/env bash
# The instructions one frame of banklab-gui costs, counted by callgrind: the same count for the
# same binary and arguments on every run, where wall-clock time on a shared machine is not.
#
#   bench/gui-frame-instructions.sh BINARY [ARGS...]      e.g. --preset bf16-256-pad2 --size 1920x1080
#
# Runs `BINARY --bench-frames N ARGS` under valgrind --tool=callgrind for N = 3 and N = 13 on
# $DISPLAY, with llvmpipe drawing on the main thread (LP_NUM_THREADS=0) and Mesa's shader cache
# off (both runs compile the same shaders), and prints the difference divided by 10, in millions
# of instructions per frame:
#
#   build + submit  ImGui's new frame, the app (draw_app), ImGui's render, our upload and the
#                   submission: what the benchmark's "CPU (build + submit)" line times;
#   of which app    draw_app() alone: the windows and views;
#   of which GL     the submission: ImGui's OpenGL backend (the driver: vertex work, binning, our
#                   GL batches), and in builds with window pictures (app/gui/render/
#                   window_pictures.hpp) all of WindowPictures::update() and draw(), which call it;
#   whole frame     the whole process: the above, llvmpipe's rasterising, presenting.
#
# Each run takes minutes (valgrind runs llvmpipe's JIT-compiled shaders too).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bench/gui-frame-instructions.sh BINARY [ARGS...]" >&2
  exit 2
fi
[ -n "${DISPLAY:-}" ] || { echo "gui-frame-instructions: DISPLAY is not set" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "gui-frame-instructions: needs valgrind" >&2; exit 2; }
binary=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Inclusive instructions of each function whose name starts with one of the patterns, summed;
# the program's total with "TOTAL".
count() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | awk -v want="$2" '
    BEGIN { n = split(want, names, "|") }
    /PROGRAM TOTALS/ && want == "TOTAL" { gsub(",", "", $1); print $1; exit }
    {
      line = $0
      sub(/^ *[0-9,]+ *\([^)]*\) *[^:]*:/, "", line)
      for (i = 1; i <= n; i++) if (index(line, names[i]) == 1 && !(names[i] in seen)) {
        seen[names[i]] = 1; v = $1; gsub(",", "", v); sum += v
      }
    }
    END { if (want != "TOTAL") print sum + 0 }'
}

for n in 3 13; do
  LP_NUM_THREADS=0 MESA_SHADER_CACHE_DISABLE=true XDG_CONFIG_HOME=$work \
    valgrind --tool=callgrind --callgrind-out-file="$work/$n.out" \
    "$binary" --bench-frames "$n" "$@" >"$work/$n.txt" 2>"$work/$n.err" ||
    { echo "gui-frame-instructions: the run failed:" >&2; cat "$work/$n.err" >&2; exit 1; }
done
# The submission: where the frame's draw data goes to GL.
submit='ImGui_ImplOpenGL3_RenderDrawData('
if grep -q 'WindowPictures::draw(' "$work/13.out"; then
  submit='banklab::gui::WindowPictures::update(|banklab::gui::WindowPictures::draw('
fi
build="ImGui_ImplOpenGL3_NewFrame()|ImGui_ImplGlfw_NewFrame()|ImGui::NewFrame()|banklab::gui::draw_app(|ImGui::Render()|banklab::gui::GlRenderer::upload(|$submit"
per_frame() {
  local a b
  a=$(count "$work/3.out" "$1")
  b=$(count "$work/13.out" "$1")
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (b - a) / 10 / 1e6 }'
}
echo "$(basename "$binary") $*: millions of instructions per frame"
echo "  build + submit  $(per_frame "$build")"
echo "  of which app    $(per_frame 'banklab::gui::draw_app(')"
echo "  of which GL     $(per_frame "$submit")"
echo "  whole frame     $(per_frame TOTAL)"
grep -E "ImGui vertices" "$work/13.txt" | sed 's/^/  /'

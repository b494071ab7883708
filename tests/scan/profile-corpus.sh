#!/usr/bin/env bash
# Profiles the scan corpus (tests/scan/corpus/*.cu) with Nsight Compute on a GPU machine and
# writes, for every kernel, the Source page as CSV: what `banklab scan FILE.cu --ncu-csv CSV`
# reads and what tests/scan/measured/ ships. Run it where nvcc and ncu are (the H200 machine):
#
#   tests/scan/profile-corpus.sh OUT-FOLDER [FILE:KERNEL ...]
#
# With FILE:KERNEL pairs (structs:struct_fields), only those kernels (and their files) are
# profiled; without, every kernel of the corpus.
#
# For each file: nvcc -O3 -lineinfo -arch=sm_90 (the line table ncu needs to sum SASS
# instructions per CUDA line); for each kernel: one ncu run of that kernel alone with the full
# set of sections and the source imported into the report, then the report's Source page
# printed as CSV at CUDA-line level (csv/KERNEL.cuda.csv) and at SASS level (which instruction
# each line became: LDS, LDS.64, LDSM, LDGSTS, ...), and its Details page. OUT-FOLDER/log.txt
# records every command with its exit status; OUT-FOLDER gets bin/, csv/, sass/ and rep/.
set -u
out=${1:?usage: profile-corpus.sh OUT-FOLDER [FILE:KERNEL ...]}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"/{bin,csv,sass,rep}
out=$(cd "$out" && pwd)
log=$out/log.txt
# run COMMAND...: runs it, appends the command, its output and its exit status to the log.
run() {
  echo "\$ $*" >>"$log"
  "$@" >>"$log" 2>&1
  echo "[exit $?]" >>"$log"
}
run nvidia-smi -L
run nvcc --version
run ncu --version
ncu --help >"$out/ncu-help.txt" 2>&1
# file:kernel pairs, in the order of the files.
kernels=(transpose:transpose_naive transpose:transpose_padded
         reduce:reduce_divergent reduce:reduce_interleaved reduce:reduce_sequential
         reduce:reduce_unrolled sgemm:sgemm_tiled ldmatrix:ldmatrix_plain
         ldmatrix:ldmatrix_swizzled histogram:histogram256 stencil:stencil_1d
         cp_async:cp_async_double_buffer extern_shared:extern_two_arrays
         structs:struct_fields structs:struct_aligned aliases:reference_row
         aliases:pointer_to_local aliases:pointer_select aliases:file_scope_extern
         structs:struct_copy widths:merge_two_trips widths:volatile_four widths:transpose_bf16
         widths:transpose_rows widths:multi_line
         unrolled:sgemm_outer_k unrolled:two_level unrolled:half_pairs unrolled:typedef_fields
         unrolled:sixty_four_trips shapes:float4_tile shapes:conv_halo shapes:blelloch_scan
         shapes:flash_tile storage:shared_storage storage:attention_tiles storage:row_pointers
         storage:traits_tile storage:warp_softmax)
[ $# -gt 0 ] && kernels=("$@")
# The files of those kernels, each once.
files=()
for pair in "${kernels[@]}"; do
  [[ " ${files[*]} " == *" ${pair%%:*}.cu "* ]] || files+=("${pair%%:*}.cu")
done
cd "$here/corpus"
for f in "${files[@]}"; do
  name=${f%.cu}
  # The line table and SASS built in the folder of the source, so that ncu finds the file.
  nvcc -O3 -lineinfo -arch=sm_90 -Xptxas -v -o "$out/bin/$name" "$f" >"$out/bin/$name.build.txt" 2>&1 &
done
wait
for f in "${files[@]}"; do
  name=${f%.cu}
  run "$out/bin/$name"
  cuobjdump -sass "$out/bin/$name" >"$out/sass/$name.sass.txt" 2>&1
done
for pair in "${kernels[@]}"; do
  file=${pair%%:*}
  kernel=${pair#*:}
  # The kernel by its name, a template's instance too (traits_tile<Attention>).
  run ncu --clock-control none --set full --import-source yes -k "regex:^$kernel(<.*)?\$" -c 1 -f \
    -o "$out/rep/$kernel" "$out/bin/$file"
done
# export REPORT KERNEL FORM SUFFIX: the report's Source page as CSV, FORM being what
# --print-source takes ("" for ncu's default), into csv/KERNEL.SUFFIX.csv.
export_source() {
  local args=(-i "$1" --page source --csv)
  [ -n "$3" ] && args+=(--print-source "$3")
  ncu "${args[@]}" >"$out/csv/$2.$4.csv" 2>"$out/csv/$2.$4.err"
  echo "\$ ncu ${args[*]} [exit $?]" >"$out/csv/$2.$4.status"
}
# The Source page per CUDA line (what banklab reads), per SASS instruction (which instruction
# each line became: LDS, LDS.64, LDSM, LDGSTS, ...), both mixed, and ncu's default; and the
# Details page. The exports read the reports only: in parallel.
for pair in "${kernels[@]}"; do
  kernel=${pair#*:}
  rep=$out/rep/$kernel.ncu-rep
  export_source "$rep" "$kernel" cuda cuda &
  export_source "$rep" "$kernel" sass sass &
  export_source "$rep" "$kernel" cuda,sass mixed &
  export_source "$rep" "$kernel" "" default &
  (ncu -i "$rep" --page details --csv >"$out/csv/$kernel.details.csv" 2>&1) &
done
wait
cat "$out"/csv/*.status >>"$log"
echo "profile-corpus: done" >>"$log"

#pragma once
// What each command of banklab accepts and how its --help reads, as data (a CommandSyntax a
// command: args.hpp). main.cpp's table of commands parses with them; each command's
// cmd_<name>.cpp reads its flags with FlagReader<kName>, so that a flag name the syntax does
// not declare does not compile.
#include <string_view>

#include "app/frontend/args.hpp"
#include "app/frontend/code_flags.hpp"
#include "app/frontend/scenario_flags.hpp"

namespace banklab::cli {

inline constexpr frontend::FlagSpec kBatchFlags[] = {
    {"batch", "FILE", "the file to read, or - for standard input"},
    {"summary", "",
     "each pattern's counts only (wavefronts, ideal, conflicts, ...), without\n"
     "its 32 lane records: for scripts that want totals"}};
inline constexpr frontend::FlagSpec kAnalyzeFlags[] = {
    {"json", "", "one JSON object instead of the lane table, bank grid and explanation"},
    {"save-scenario", "FILE",
     "also write the scenario to FILE, for --scenario FILE here and in\n"
     "banklab-gui (plain text: key = value lines); - prints it instead\n"
     "of the analysis"}};
inline constexpr frontend::FlagGroup kAnalyzeGroups[] = {
    frontend::kScenarioGroup,
    frontend::kOffsetsGroup,
    frontend::kCodeGroup,
    // One source line per printed line, as the help shows them.
    {"Batch form: one pattern a line, \"OP WIDTH o0,...,o31\" (blank lines and lines\n"
     "starting with '#' are skipped). One JSON object a line comes out per pattern, in\n"
     "order; a bad line gives an object with \"ok\": false, its line number and the reason,\n"
     "and the rest still runs. The exit status is 2 if any line was bad.",
     kBatchFlags},
};

inline constexpr frontend::CommandSyntax kAnalyze{
    .command = "analyze",
    .flags = kAnalyzeFlags,
    .groups = kAnalyzeGroups,
    .usage =
        R"(usage: banklab analyze [--preset NAME] [--dtype D] [--tile RxC] [--pad P] [--swizzle S]
                       [--access A] [--index N] [--width BYTES] [--op ld|st] [--lanes MASK]
                       [--json]
       banklab analyze --op OP --width BYTES --offsets o0,...,o31 [--lanes MASK] [--json]
       banklab analyze --batch FILE|- [--summary] [--json]
       banklab analyze --decl CODE --expr CODE [--block XxYxZ] [--warp W|all]
                       [--let NAME=V,...] [--op OP] [--smem BYTES] [--json]
)",
    .description =
        R"(Counts the wavefronts of one warp-wide shared-memory instruction, exactly as an H100/H200
does, and shows which lane hits which bank in which wavefront.
)",
    .flags_title = "Output:",
    .footer = R"(Examples:
  banklab analyze --dtype fp32 --tile 32x32 --pad 1 --access column --index 5
  banklab analyze --preset bf16-pad1 --index 3 --json
  banklab analyze --op ld --width 8 --offsets 0,8,16,...  (all 32)
  banklab analyze --batch patterns.txt > results.jsonl
  banklab analyze --batch patterns.txt --summary | jq -s 'map(.wavefronts) | add'
  banklab analyze --dtype bf16 --pad 1 --index 3 --save-scenario bf16.txt
  banklab analyze --scenario bf16.txt --pad 2
  banklab analyze --decl "__shared__ float tile[32][33];" \
                  --expr "tile[threadIdx.x][threadIdx.y + j]" --block 32x8 --let j=0
)"};

inline constexpr frontend::FlagSpec kPresetsFlags[] = {
    {"json", "", "a JSON list of objects, each with at least \"name\""}};
inline constexpr frontend::CommandSyntax kPresets{
    .command = "presets",
    .flags = kPresetsFlags,
    .description =
        R"(Lists every scenario of the lesson by name, with the wavefronts the lesson claims and what it
teaches. Any name works with 'banklab explain NAME' and 'banklab analyze --preset NAME'.
)"};

inline constexpr frontend::FlagSpec kExplainFlags[] = {
    {"json", "", "the scenario, its analysis and the explanation as one JSON object"}};
inline constexpr frontend::CommandSyntax kExplain{
    .command = "explain",
    .flags = kExplainFlags,
    .max_positionals = 1,
    .positional_name = "PRESET",
    .groups = frontend::kScenarioGroups,
    .usage = R"(usage: banklab explain [PRESET] [--json]
       banklab explain <the scenario or raw flags of 'analyze'> [--json]
)",
    .description =
        R"(Derives a scenario's result the way the lesson does: element -> byte -> word -> bank, the
bank expression, the distinct banks, the n-way conflict, the wavefronts against the floor the
request size forces, and where the lesson's shortcut does not hold. PRESET defaults to
fp32-naive; 'banklab presets' lists them all. The scenario flags describe any other access.
)",
    .flags_title = "Output:",
    .footer = R"(Examples:
  banklab explain bf16-pad1
  banklab explain --dtype bf16 --pad 1 --access column --index 3
)"};

inline constexpr frontend::FlagSpec kLessonFlags[] = {
    {"json", "", "with list: a JSON list of {\"name\", \"title\", \"summary\", \"steps\"}"},
    {"markdown", "", "with show: the lesson as one Markdown handout, code in fenced blocks"},
};
inline constexpr frontend::CommandSyntax kLesson{
    .command = "lesson",
    .flags = kLessonFlags,
    .min_positionals = 1,
    .max_positionals = 2,
    .positional_name = "list|show NAME|check FILE",
    .usage = R"(usage: banklab lesson list [--json]
       banklab lesson show NAME [--markdown]
       banklab lesson check FILE
)",
    .description =
        R"(The guided tracks of assets/lessons (one TOML file per track; docs/lessons.md describes the
format). Every number in a step's text is filled in by the core from the step's scenario.
  list              every lesson: name, number of steps, title; a file that does not load is
                    named on stderr with its mistake, the others listed (exit status 1)
  show NAME         every step of the lesson: title, scenario and text, numbers filled in
  check FILE        reads a lesson file (- for standard input) and checks its keys, every
                    step's scenario and every placeholder; exit status 2 with FILE:LINE: what
                    is wrong
)",
    .flags_title = "Output:",
    .footer = R"(Examples:
  banklab lesson show transpose
  banklab lesson show interview --markdown > interview.md
)"};

inline constexpr frontend::FlagSpec kValidateFlags[] = {
    {"count", "N", "random patterns after the fixed ones                   (default 8000)"},
    {"seed", "S", "seed of the random patterns                            (default 1)"},
    {"json", "", "one JSON object: the tallies and every disagreement"},
};
inline constexpr frontend::CommandSyntax kValidate{
    .command = "validate",
    .flags = kValidateFlags,
    .description =
        R"(Measures a corpus of accesses on the GPU and compares each with the model: the wavefronts and
bank conflicts the hardware counted (Nsight Compute's l1tex shared-memory counters, read
in-process through CUPTI) against the ones 'banklab analyze' predicts. The corpus: every
preset, strides of 1..64 words for every width, column reads of padded and swizzled tiles,
ldmatrix/stmatrix on 64/80/128/144-byte rows, then N random patterns (random offsets, small
address pools, lane pairs l^1..l^16 on one address, idle lanes) over every op and width.
Prints agreement by op and width and by family, then every disagreement in full. Exit status
0 when all agree, 1 otherwise or when there is no GPU to measure on.
)"};

inline constexpr frontend::FlagSpec kGpuSuiteFlags[] = {
    {"dtype", "D", "fp8, bf16, fp32, fp64 or all                          (default all)"},
    {"size", "N|RxC", "the input matrix, N x N or R x C; any size works      (default 16384)"},
    {"pad", "P", "the pad of the *-padded variant, in elements  (default: conflict-free)"},
    {"variant", "NAME", "run only this variant (and the copy roof); needs one --dtype"},
};
inline constexpr frontend::FlagSpec kGpuPatternFlags[] = {
    {"pattern", "",
     "the access as 'banklab analyze' takes it: the scenario or raw flags below\n"
     "(with --dtype and --pad, listed above)"},
    {"sweep", "", "column reads of float tile[32][S], S = 33, 34, 36, 40, 48, 32 (1-32 way)"},
};
inline constexpr frontend::FlagSpec kGpuRecordFlags[] = {
    {"record", "FILE",
     "run the whole suite (every dtype, the sweep, every preset's pattern, the\n"
     "microbenchmark against the hardware counters, validate's totals) and write it to FILE\n"
     "(- prints the JSON instead of the tables)"},
    {"replay", "FILE",
     "print a recording's tables, as the live run printed them (no GPU needed), its figures\n"
     "checked against what the core recomputes; - reads it from standard input"},
};
inline constexpr frontend::FlagSpec kGpuBenchFlags[] = {
    {"reps", "R", "timed launches, median reported    (default 20 a variant, 7 a pattern)"},
    {"json", "", "one JSON object instead of the table"},
};
inline constexpr frontend::FlagGroup kGpuBenchGroups[] = {
    {"Transpose suite (the default): every variant of each dtype (teaching tiles, the fast "
     "kernel,\n"
     "and for fp32 and fp64 cuBLAS's geam where libcublas loads) against a 16-byte-per-thread "
     "copy\n"
     "of the same bytes in the same run, the HBM roof. Prints GB/s (bytes read + written over the\n"
     "median time), the fraction of the copy, the shared tile.",
     kGpuSuiteFlags},
    {"Microbenchmark: every warp of every SM replays one warp-wide instruction in a loop bound by\n"
     "the shared-memory pipe; prints SM clocks and ns per instruction, wavefronts per clock, and\n"
     "the time against the conflict-free baseline next to the predicted wavefront ratio.",
     kGpuPatternFlags},
    {"Recordings: one JSON file holds a whole run with its device, driver, clocks, date and "
     "commit\n(assets/recordings/ ships one made on an H200).",
     kGpuRecordFlags},
    frontend::kScenarioGroup,
    frontend::kOffsetsGroup,
};
inline constexpr frontend::CommandSyntax kGpuBench{
    .command = "gpu-bench",
    .flags = kGpuBenchFlags,
    .groups = kGpuBenchGroups,
    .usage = R"(usage: banklab gpu-bench [--dtype D|all] [--size N|RxC] [--reps R] [--pad P]
                         [--variant NAME] [--json]
       banklab gpu-bench --pattern <the scenario or raw flags of 'analyze'> [--reps R] [--json]
       banklab gpu-bench --sweep [--reps R] [--json]
       banklab gpu-bench --record FILE [--size N|RxC] [--reps R]
       banklab gpu-bench --replay FILE
)",
    .description =
        R"(Runs the lesson on the GPU (the first CUDA device). Every kernel's output is poisoned before
and checked against a CPU reference after; a wrong one is printed as WRONG and the exit
status is 1. Without a usable GPU, one line says why (no device, no driver, not built) and
the exit status is 1.
)",
    .flags_title = "Both:",
    .footer = R"(Examples:
  banklab gpu-bench --dtype fp32 --size 16384
  banklab gpu-bench --dtype bf16 --size 1000x3001 --variant bf16-fast
  banklab gpu-bench --pattern --preset fp32-naive
  banklab gpu-bench --record h200.json
  banklab gpu-bench --replay assets/recordings/nvidia-h200.json
  banklab gpu-bench --pattern --op ldmatrix.x4 --offsets 0,128,256,... (all 32)
)"};

inline constexpr frontend::FlagSpec kSolveFlags[] = {
    frontend::kDtypeFlag,
    frontend::kTileFlag,
    {"access", "FAMILY",
     "KIND[:WIDTH][:OP], given two or more times; a family is that access at\n"
     "every index a kernel performs over the whole tile:\n"
     "  row       the tile walked row-major, WIDTH bytes per lane\n"
     "  column    lane L takes row L (of each 32-row block), WIDTH bytes\n"
     "  ldmatrix.x1|x2|x4, stmatrix.x4   8 rows x 16-byte chunks\n"
     "WIDTH: 1, 2, 4, 8 or 16 bytes (default the element size); OP: ld or st\n"
     "(default ld). E.g. row:16:st  column  ldmatrix.x4"},
    {"max-overhead", "BYTES", "reject layouts that waste more bytes than this (padding, TMA gap)"},
    {"top", "N", "candidates and rejections printed                      (default 10)"},
    {"json", "", "{\"candidates\": [...], \"rejected\": [...]}, every candidate, best first"},
};
inline constexpr std::string_view kSolveRepeatable[] = {"access"};
inline constexpr frontend::CommandSyntax kSolve{
    .command = "solve",
    .flags = kSolveFlags,
    .usage = R"(usage: banklab solve [--dtype D] [--tile RxC] --access FAMILY --access FAMILY ...
                     [--max-overhead BYTES] [--top N] [--json]
)",
    .description =
        R"(The inverse question: which pad or swizzle makes every way the tile is accessed conflict-free,
keeps the vector and matrix accesses legal, and wastes the fewest bytes. Tries row pads, the
xor swizzle, CuTe swizzles (over bytes and over elements), the TMA 32/64/128B modes and
Triton's swizzled shared layouts; counts every instruction of every family as an H100/H200
does; ranks by wavefronts over the ideal, then bytes of overhead, then simplicity.
)",
    .footer =
        R"(Units, as each tool counts them: --pad in elements; cute:B,M,S swizzles byte offsets;
cute-elem:B,M,S swizzles element indices (in bytes M + log2 of the element size);
triton:VEC,PERPHASE,MAXPHASE counts VEC in elements and PERPHASE in rows.

Examples:
  banklab solve --dtype fp32 --tile 32x32 --access row:16:st --access column
  banklab solve --dtype bf16 --tile 64x64 --access row:16:st --access ldmatrix.x4 --json
)",
    .repeatable = kSolveRepeatable};

inline constexpr frontend::FlagSpec kDrillFlags[] = {
    {"level", "L",
     "weak: the basics (a lane's bank, which access conflicts, the pad of one)\n"
     "hire: the Hire bar: float tiles of any width and pad, the stride rule,\n"
     "      fixes, whether a conflict behind HBM is worth a fix\n"
     "strong-hire: the Strong Hire bar: bf16/fp8, 8/16-byte phases and load\n"
     "      packing, float4 and TMA fills, ldmatrix, swizzles, the Nsight\n"
     "      counters, designing a swizzle and its alignment"},
    {"seed", "N", "the questions' seed; the same seed asks the same questions (default: new)"},
    {"count", "K", "how many questions, 1 to 1000                           (default 5)"},
    {"verbose", "", "after each answer, the bank view and the derivation as well"},
    {"json", "",
     "print the questions instead, one JSON object a line: kind, family,\n"
     "args (analyze's flags), lane (bank asks), question, answer (a number;\n"
     "the flags of one fix or design that works; true/false for worth; a\n"
     "letter for choice), choices (choice asks)"},
};
inline constexpr frontend::CommandSyntax kDrill{
    .command = "drill",
    .flags = kDrillFlags,
    .usage =
        "usage: banklab drill [--level weak|hire|strong-hire] [--seed N] [--count K]\n"
        "                     [--verbose] [--json]\n",
    .description =
        R"(Practice: K questions about one warp-wide access each, drawn from the seed, answered on
standard input one line each (so a script can answer them). Without --level it starts at the
first level, weak. After each answer, a few lines that fit a 24-row terminal: the arithmetic
behind it, the command that shows it, the common mistake the answer matches if any, and last
right or wrong (--verbose adds the bank view and the derivation). At the end, the score and
where it places you on the lesson's rubric (80% right at a level places you there). A line
that is not an answer, or an answer of another kind than the question asks (a swizzle where
it asks for a pad), is asked again; the end of the input ends the drill.
)",
    .footer =
        R"(Answers: a whole number (wavefronts, n-way, bank); yes or no (worth); a fix as flags, e.g.
--pad 2 or --swizzle tma128 (any fix that works is right); a letter (choice); a design as
--swizzle S --align BYTES.

Examples:
  banklab drill
  banklab drill --level hire --verbose
  printf '32\n1\n' | banklab drill --level weak --seed 7 --count 2
  banklab drill --level strong-hire --seed 3 --count 20 --json
)"};

inline constexpr frontend::FlagSpec kExportFlags[] = {
    {"what", "WHAT", "banks, lanes or tile (a figure); table or derivation (text)"},
    {"format", "F",
     "svg for a figure; csv or md for the table; md for the derivation\n"
     "(default: the first named)"},
    {"output", "FILE", "write FILE (whole or not at all) instead of standard output (- is it)",
     'o'},
    {"size", "WxH", "the figure's page in pixels                (default 1280x720)"},
    {"font", "PX", "the figure's text size in pixels; labels shrink to fit cells (default 16)"},
    {"theme", "T", "dark, or light for slides and paper          (default light)"},
    {"palette", "P", "standard, or colour-blind (Okabe-Ito)        (default standard)"},
    {"tile-view", "V",
     "--what tile: logical (elements as indexed), physical (slots as stored)\n"
     "or both side by side (default logical)"},
    {"physical", "", "--what tile: the slots as stored (--tile-view physical)"},
};
inline constexpr frontend::CommandSyntax kExport{
    .command = "export",
    .flags = kExportFlags,
    .groups = frontend::kScenarioGroups,
    .usage = R"(usage: banklab export (--preset NAME | scenario flags | --scenario FILE)
                      --what banks|lanes|tile|table|derivation [--format svg|csv|md]
                      [-o FILE] [--size WxH] [--font PX] [--theme T] [--palette P]
                      [--tile-view logical|physical|both]
)",
    .description =
        R"(Writes one scenario for slides and documents, without a display: the bank view, the lane
map or the tile as SVG (vector, text as text, the same layout banklab-gui draws), the lane
table as CSV (one row per lane) or Markdown, the derivation as Markdown. Red means a conflict
and nothing else. Exit status 1 when the file cannot be written.
)",
    .flags_title = "Export:",
    .footer = R"(Examples:
  banklab export --preset fp32-naive --what banks -o fp32-naive-banks.svg
  banklab export --preset broadcast --what lanes --palette colour-blind -o broadcast.svg
  banklab export --dtype bf16 --pad 1 --index 3 --what table --format md
  banklab export --scenario bf16.txt --what derivation -o bf16.md
)"};

inline constexpr frontend::FlagSpec kScanFlags[] = {
    {"kernel", "NAME", "scan this kernel only                        (default: every kernel)"},
    {"block", "X[,Y[,Z]]",
     "the block's threads                         (default: the file's launch\n"
     "with a constant block, else __launch_bounds__)"},
    {"grid", "X[,Y[,Z]]", "the grid, for gridDim and the measured totals (default: the launch's)"},
    {"let", "NAME=V[,...]",
     "values of names the file leaves open: kernel parameters, template\n"
     "parameters, blockIdx.x (may be repeated)"},
    {"smem", "BYTES", "the launch's dynamic shared memory, which sizes extern arrays"},
    {"ncu-csv", "FILE",
     "Nsight Compute's source page of the same kernel, measured:\n"
     "ncu -i REPORT --page source --csv --print-source "
     "cuda,sass"},
    {"check-widths", "",
     "compile the file with nvcc -ptx -lineinfo and check each line's\n"
     "load and store widths against the PTX"},
    {"json", "", "one JSON object a kernel, one a line"},
};
inline constexpr std::string_view kScanRepeatable[] = {"let"};
inline constexpr frontend::CommandSyntax kScan{
    .command = "scan",
    .flags = kScanFlags,
    .min_positionals = 1,
    .max_positionals = 1,
    .positional_name = "FILE.cu",
    .usage = R"(usage: banklab scan FILE.cu [--kernel NAME] [--block X[,Y[,Z]]] [--grid X[,Y[,Z]]]
                    [--let NAME=VALUE]... [--smem BYTES] [--ncu-csv REPORT.csv]
                    [--check-widths] [--json]
)",
    .description =
        R"(Runs each kernel of a CUDA file for every warp of its block and every iteration of its
loops, and counts the wavefronts of every shared-memory access as an H100/H200 does: loads,
stores, +=, vector casts, ldmatrix/stmatrix and cp.async (in asm or as intrinsics), under their
if guards. Each access gets its instructions, wavefronts, ideal and excess wavefronts for the
whole block, the worst instruction and where it ran; accesses are sorted by excess. What cannot
be evaluated (an index read from memory, a parameter with no value) is listed with the reason.
With --ncu-csv the measured counts of each line stand beside the prediction, and every line
where they differ says why where the cause is known. With --check-widths each line's load and
store widths are checked against nvcc's own PTX (nvcc must be installed).
)",
    .flags_title = "Scan:",
    .footer = R"(Examples:
  banklab scan transpose.cu
  banklab scan reduce.cu --kernel reduce_interleaved --json
  banklab scan sgemm.cu --let n=1024 --block 16,16
  banklab scan transpose.cu --kernel transpose_naive --ncu-csv transpose_naive.csv
  banklab scan widths.cu --check-widths
)",
    .repeatable = kScanRepeatable};

inline constexpr frontend::FlagSpec kDescFlags[] = {
    {"arch", "A", "sm90 (wgmma) or sm100 (tcgen05)   (default sm90; decode: from bits 46-48)"},
    {"major", "M", "K or MN: how the operand is laid out                    (default K)"},
    {"dtype", "D", "fp8, bf16 or fp32 (tf32): the element size             (default bf16)"},
    {"swizzle", "S", "none, 32b, 64b, 128b, 128b-atom32 (sm100 only)"},
    {"start", "BYTES", "the start address in shared memory                  (default 0)"},
    {"lbo", "BYTES", "the leading dimension byte offset                   (default 0)"},
    {"sbo", "BYTES", "the stride dimension byte offset                    (default 0)"},
    {"base-offset", "N", "the base offset field, 0 to 7                     (default 0)"},
    {"fill", "SWIZZLE",
     "agree: how the producer swizzles the tile: tma32, tma64, tma128, none\n"
     "(TMA), or cute:B,M,S, cute-elem:B,M,S, xor (STS/stmatrix)"},
    {"box", "RxC",
     "agree: one box in elements: rows along MN (K-major) or K\n"
     "(MN-major), columns along the contiguous dimension"},
    {"boxes", "N", "agree: boxes side by side along the contiguous dimension (default 1)"},
    {"dest", "BYTES", "agree: where the producer writes the first box (default --start)"},
    {"k-step", "S", "agree: the k-step --svg draws                          (default 0)"},
    {"svg", "FILE", "agree: draw the tile, the chunks k-step S reads, SBO and LBO, as SVG"},
    {"json", "", "one JSON object: the fields, the layout, the rules (and the verdict)"},
};
inline constexpr frontend::CommandSyntax kDesc{
    .command = "desc",
    .flags = kDescFlags,
    .min_positionals = 1,
    .max_positionals = 2,
    .positional_name = "ACTION",
    .usage = R"(usage: banklab desc decode 0xWORD [--arch A] [--major K|MN] [--dtype D] [--json]
       banklab desc encode --arch A --major K|MN --swizzle S --start B --lbo B --sbo B
                           [--base-offset N] [--dtype D] [--json]
       banklab desc agree <encode's flags> --fill SWIZZLE --box RxC [--boxes N] [--dest B]
)",
    .description =
        R"(The 64-bit matrix descriptor through which wgmma (sm90) and tcgen05.mma (sm100) read an
operand from shared memory: every field, the canonical layout it means in CuTe notation, and
every rule it breaks with the fix. 'agree' fills the tile as TMA or an epilogue would and checks,
element by element and k-step by k-step (the start advanced as CUTLASS advances it), whether the
descriptor reads what was written; a mismatch names the first wrong core matrix and a descriptor
that reads the fill.
)",
    .footer = R"(Examples:
  banklab desc decode 0x4000004000010000
  banklab desc encode --arch sm90 --major K --swizzle 128b --start 0 --lbo 16 --sbo 1024
  banklab desc agree --major K --swizzle 128b --sbo 1024 --fill tma128 --box 64x64
  banklab desc agree --major K --swizzle 64b --sbo 512 --fill tma128 --box 64x64 --json
)"};

inline constexpr frontend::FlagSpec kTraceFlags[] = {
    {"kernel", "NAME", "the kernel to trace                        (default: the first launched)"},
    {"launch", "N", "which of its launches, counting from 0       (default 0)"},
    {"max-records", "N",
     "keep at most N warp-instructions; the rest are counted, not kept\n"
     "(default 1048576)"},
    {"no-measure", "", "do not run Nsight Compute on the same launch"},
    {"ncu-csv", "FILE", "the hardware's counts from this Source page CSV instead of running ncu"},
    {"source", "FILE.cu", "the static scan of FILE.cu beside the trace, line by line"},
    {"lanes", "LINE[:N]", "the 32 lanes of one instruction of LINE (default: its worst)"},
    {"output", "FILE", "write the trace to FILE (JSON), to open later with --open", 'o'},
    {"open", "FILE", "print a trace file made earlier, on any machine (no GPU needed)"},
    {"json", "", "one JSON object: the scan's fields, \"trace\" and \"measured\""},
};
inline constexpr frontend::CommandSyntax kTrace{
    .command = "trace",
    .flags = kTraceFlags,
    .min_positionals = 0,
    .max_positionals = 4096,
    .positional_name = "PROGRAM [ARGS...]",
    .usage =
        R"(usage: banklab trace [--kernel NAME] [--launch N] [--json] [-o FILE.json] -- PROGRAM [ARGS...]
       banklab trace --open FILE.json [--json] [--lanes LINE[:N]] [--source FILE.cu]
)",
    .description =
        R"(Runs PROGRAM with BankLab's injection library (Compute Sanitizer's patching API), which
records every shared-memory access of one launch of one kernel: each lane's address, the
instruction and the warp. Each warp-instruction is counted by the same model as scan and
analyze, attributed to its CUDA line (build the program with nvcc -lineinfo), and the lines are
ranked by the wavefronts their conflicts add. Where profiling counters are allowed, Nsight
Compute measures the same launch and each line's measured counts stand beside the model's.
Only the chosen launch records; the program's output and exit status pass through.
Needs an NVIDIA GPU and the CUDA toolkit; without them it says which, and exits 1.
)",
    .flags_title = "Trace:",
    .footer = R"(Examples:
  nvcc -O3 -lineinfo -arch=sm_90 -o hist histogram.cu
  banklab trace --kernel histogram256 -o hist.json -- ./hist
  banklab trace --open assets/traces/attention_scores.json --lanes 40
  banklab trace --open hist.json --source histogram.cu
)"};

}  // namespace banklab::cli

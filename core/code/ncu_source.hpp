#pragma once
// Nsight Compute's Source page, measured, beside the scan's prediction for the same kernel.
//
// The page is read in the form the installed ncu (2025.3.1 on the H200) writes with
//
//   ncu --set full --import-source yes -k KERNEL -o report ./program
//   ncu -i report.ncu-rep --page source --csv --print-source cuda,sass > report.csv
//
// (--print-source cuda alone prints the source without metrics: "metric correlation with source
// is available in sass, and cuda,sass source view", ncu --help). The CSV has one section per
// source file of the kernel ("File Path", "Function Name", a header row), and in each a row per
// CUDA line ("Line No", "Source", then the metrics summed over the line's SASS instructions)
// followed by a row per SASS instruction. Quotes inside the source text are not escaped, so a
// row is split at its '","' separators from both ends, the surplus given to the source text.
//
// What is compared, per line of the scanned file: "L1 Wavefronts Shared", "... Ideal" and
// "... Excessive", against the scan's totals for the line times the blocks of the grid.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/code/scan.hpp"

namespace banklab {

struct MeasuredLine {
  int line = 0;
  std::string source;
  std::int64_t instructions = 0;                 // every SASS instruction of the line, executed
  std::int64_t wavefronts = 0;                   // L1 Wavefronts Shared
  std::int64_t ideal = 0;                        // L1 Wavefronts Shared Ideal
  std::int64_t excessive = 0;                    // L1 Wavefronts Shared Excessive
  std::vector<std::string> shared_instructions;  // "LDS.128 (4096 executed, 8192 wavefronts)"
};

struct MeasuredFile {
  std::string path;  // as the profiled machine named it
  std::vector<MeasuredLine> lines;
};

struct MeasuredKernel {
  std::string function;  // "transpose_naive(float *, const float *, int, int)"
  std::vector<MeasuredFile> files;
  std::string name() const;  // the function's name alone: "transpose_naive"
};

// A kernel's name alone, from its signature as ncu or the demangler gives it:
// "transpose_naive(float *, ...)" is transpose_naive, "void traits_tile<Attention>(const __half
// *, float *)" traits_tile (the return type and template arguments go).
std::string kernel_base_name(std::string_view function);

// The largest CSV read: a source page of one kernel is a few MB at most (the corpus's are 20 to
// 100 KB); a larger file is refused before it is read into lines.
inline constexpr std::size_t kMaxNcuCsvBytes = 16 << 20;

// Every kernel of a Source page CSV; the error names the line that is not of that form: a row
// with fewer fields than its header, a line number or a count that is not a number from 0 (1
// for a line) to INT32_MAX.
Expected<std::vector<MeasuredKernel>> parse_ncu_source_csv(std::string_view csv);

// One line of the scanned file: predicted and measured, and why they differ where they do.
struct LineComparison {
  int line = 0;
  bool evaluated = false;  // the scan counted this line (and could evaluate all of it)
  std::int64_t predicted_wavefronts = 0, predicted_ideal = 0, predicted_excess = 0;
  std::int64_t measured_wavefronts = 0, measured_ideal = 0, measured_excess = 0;
  bool agrees = false;
  std::string explanation;  // where they differ, or where the measurement was found elsewhere
};

struct KernelComparison {
  std::int64_t blocks = 1;            // the predictions are per block, times this
  std::string measured_file;          // the CSV section matched to the scanned file
  std::vector<LineComparison> lines;  // by line
  int evaluated_lines() const;
  int agreeing_lines() const;  // of the evaluated ones
};

// The scan of one kernel beside its measurement. `file_name` is the scanned file's name (its
// section in the CSV is the one whose path ends with it), `source` its text.
Expected<KernelComparison> compare(const KernelScan& scan, const MeasuredKernel& measured,
                                   std::string_view file_name, std::string_view source);

}  // namespace banklab

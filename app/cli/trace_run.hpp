#pragma once
// `banklab trace`'s live half: runs the user's program with BankLab's injection library
// preloaded (kernels/trace), reads back what it recorded for the chosen launch, maps each
// instruction to its CUDA line with nvdisasm, counts every warp-instruction with the model, and
// measures the same launch with Nsight Compute where profiling counters are allowed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/record/trace.hpp"

namespace banklab::cli {

struct TraceRunOptions {
  std::vector<std::string> command;  // the program and its arguments
  std::string kernel;                // a kernel's name; empty: the first kernel launched
  std::int64_t launch = 0;           // which launch of it, from 0
  std::int64_t cap = record::kDefaultTraceCap;
  bool measure = true;                 // run Nsight Compute on the same launch
  std::optional<std::string> ncu_csv;  // else read its Source page from this file
  // The program's standard output goes to standard error: the trace's JSON is on standard
  // output, and a program's own lines there would make it unreadable.
  bool program_output_to_stderr = false;
};

struct TraceRun {
  std::optional<record::Trace> trace;  // none when the launch was never reached
  int program_status = 0;              // the program's exit status (128 + N after signal N)
  std::string error;                   // why there is no trace, one line
};

// Errors before the program runs (no GPU, no toolkit, no injection library) are one line.
Expected<TraceRun> run_trace(const TraceRunOptions& options);

}  // namespace banklab::cli

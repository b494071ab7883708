#pragma once
// A trace (core/record/trace.hpp) told as `banklab scan` tells a kernel, so that the command
// line prints it with the scan's text and JSON and the app's Kernel window draws it: the
// traced kernel's source file, its lines ranked by the wavefronts their conflicts add, each with
// every warp-instruction's 32 lanes, and Nsight Compute's counts of the same launch beside them.
//
//   a line      one per CUDA line, op, width and SASS opcode (an unrolled loop's copies of one
//               LDS are one line); without -lineinfo one per SASS instruction, at line 0
//   the file    the file the kernel is in: the outermost place of its instructions
//   a place     an instruction's innermost place in that file (an inlined helper's line when
//               the helper is in the file, else the line that called it, where Nsight Compute
//               also shows it)
//   warps       ScanInstance::warp is the launch's warp: block * warps_per_block + warp;
//               ScanInstance::iteration holds one number, the warp's n-th run of the instruction
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/code/ncu_source.hpp"
#include "core/code/scan.hpp"
#include "core/record/trace.hpp"

namespace banklab::frontend {

struct TraceView {
  std::string file;    // the kernel's source file, as the trace names it ("" without line info)
  std::string source;  // its text when the trace carries it, else empty
  KernelScan scan;     // every line, with its instances (ScanOptions::keep_instances's form)
  std::optional<KernelComparison> measured;  // the hardware beside it, when measured
  std::string not_measured;                  // why not, when not
};

TraceView view_of(const record::Trace& trace);

// "block 3, warp 5, run 2": where one warp-instruction of a trace's line ran.
std::string describe_trace_place(const record::Trace& trace, int launch_warp, std::int64_t run);

// The measured lines of one kernel of an Nsight Compute Source page, as a trace keeps them.
std::vector<record::TraceMeasuredLine> measured_lines(const MeasuredKernel& kernel);

// The trace's measured lines as the Source page's kernel compare() reads.
MeasuredKernel measured_kernel(const record::Trace& trace);

}  // namespace banklab::frontend

#pragma once
// A GPU run for people: what `banklab gpu-bench` prints live and from a recording, and what the
// lesson says about a suite (the GUI and the CLI alike). The tables are printed from the same
// structures for a live run and a replayed one, so both print the same text.
#include <optional>
#include <string>

#include "app/frontend/gpu_recording.hpp"
#include "core/teach/reversal.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"
#include "kernels/gpu_measure.hpp"

namespace banklab::frontend {

// ---------------------------------------------------------------------------------------------
// What the lesson says about a suite (the GUI and the CLI alike).

// What the core predicts for the shared-memory access a transpose kernel makes: its preset, with
// the run's pad when the kernel's tile is the padded one. Empty when the kernel names no preset.
struct SharedAccessCost {
  std::string preset;
  int wavefronts = 0;
  int ideal = 0;
  int ways = 0;  // the worst phase: "an n-way conflict"
};
std::optional<SharedAccessCost> variant_cost(const record::VariantResult& r, int pad);

// The numbers of the reversal paragraph (core's reversal_lines()) from a suite, and from a
// microbenchmark that holds the 32-way column read; empty when the suite's copy roof is not a
// verified result.
std::optional<ReversalRun> reversal_run(const record::SuiteReport& suite,
                                        const record::PatternReport* loop);

// ---------------------------------------------------------------------------------------------
// The tables, for people: what `banklab gpu-bench` prints live and from a recording.

// "NVIDIA H200, sm_90, ...; SM clock 1962 MHz measured during the run".
std::string device_line(const record::DeviceInfo& d, double measured_mhz);
// The suite's table, then the reversal paragraph with its numbers (`loop`, if given, adds the
// 32-way read's slowdown in the shared-memory-bound loop).
void append_suite_text(std::string& out, const record::SuiteReport& r,
                       const record::PatternReport* loop = nullptr);
void append_patterns_text(std::string& out, const record::LabelledPatterns& p);
void append_cross_check_text(std::string& out,
                             const std::vector<record::PatternCrossCheck>& checks);
void append_validate_text(std::string& out, const record::ValidateTotals& v);
// The whole recording: where and when it was made, then every table above.
void append_recording_text(std::string& out, const record::Recording& r);

}  // namespace banklab::frontend

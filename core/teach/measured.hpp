#pragma once
// The project's own H200 figures that lessons quote, read from one source: the shipped
// recording, data_dir()/recordings/nvidia-h200.json (`banklab gpu-bench --record`, replayed by
// `banklab gpu-bench --replay` and the app's GPU window). A lesson names a figure as
// {measured:KEY}; the machine's SMs and clock also set {smem_tbps} and the per-byte comparison
// of the reversal. Keys:
//
//   NAME              a transpose of the recording (fp32-naive, bf16-padded, fp64-fast, ...):
//                     its bandwidth as a share of the same run's copy roof, "41.1 %"
//   DTYPE-copy        that run's copy roof (read + write), "4254 GB/s"
//   sweep-Nway        clocks per warp read in the shared-memory-bound loop, "32.016"
//   sm-clock          the SM clock measured during that loop, "1972 MHz"
//   sm-count          the SMs, "132"
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"

namespace banklab {

struct MeasuredFigure {
  std::string key;    // "fp32-naive"
  std::string value;  // "41.1 %": what the lesson prints
  std::string what;   // what was measured, for docs/lessons.md and `banklab lesson placeholders`
};

struct Measurements {
  std::string file;  // where they were read from
  std::string device;
  int sm_count = 0;
  double sm_clock_mhz = 0;  // measured during the shared-memory-bound loop
  double copy_gbps = 0;     // the fp32 run's copy roof: bytes read plus bytes written
  std::vector<MeasuredFigure> figures;

  const MeasuredFigure* find(std::string_view key) const;
  // Shared memory of the whole GPU, conflict-free: SMs x 128 B per clock at the measured clock.
  double shared_tbps() const;
};

// The figures of a recording's text, read and checked by the recording's one codec
// (core/record/recording.hpp: record::parse_recording); an error names the file and its first
// problem, as the codec words it, or the figure a lesson needs that the recording lacks.
Expected<Measurements> parse_measurements(std::string_view json, const std::string& file);

inline constexpr std::string_view kShippedRecording = "recordings/nvidia-h200.json";
// The shipped recording's figures, read once per process.
const Expected<Measurements>& recorded();

}  // namespace banklab

#pragma once
// The lesson's reversal condition ("when does a conflict matter"), as sentences: a large
// transpose is bound by HBM, not by shared memory, so a conflict hides behind HBM for as long as
// the shared-memory side stays above the copy roof. With a run's numbers (SMs, the SM clock
// measured during the run, the copy roof, the teaching kernels' bandwidths and conflicts) it says
// what that run showed; without them, the lesson's H100 figures. The GUI's GPU window and
// `banklab gpu-bench` print the same sentences.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/hardware.hpp"

namespace banklab {

// The lesson's figures, used when there is no run to take numbers from: an H100 SXM's 132 SMs,
// each serving one 128-byte wavefront per clock at an assumed 1.7 GHz, against its HBM3.
inline constexpr int kLessonSms = 132;
inline constexpr double kLessonClockHz = 1.7e9;
inline constexpr std::string_view kLessonClockText = "1.7 GHz";  // kLessonClockHz, as said
inline constexpr double kLessonSharedTbps =
    kLessonSms * static_cast<double>(kWavefrontBytes) * kLessonClockHz / 1e12;  // 28.7
inline constexpr double kLessonHbmTbps = 3.35;
// End-to-end slowdowns below this are within run-to-run noise: the conflict is hidden.
inline constexpr double kVisibleSlowdown = 1.10;

// The two sides of a transpose compared per transposed byte, as the lesson does. HBM reads every
// byte once and writes it once, so a copy roof (bytes read plus written) transposes half of
// itself. Shared memory stores every byte once (the row write, conflict-free) and loads it once
// (the column read, `read_cost` wavefronts for each conflict-free one), and a conflict-free
// wavefront carries min(32 e, 128) bytes for e-byte lanes (64 B for bf16: half the banks' width
// idle):
//
//   shared side = shared_tbps x min(32 e, 128) / 128 / (1 + read_cost)
//   HBM side    = copy_tbps / 2
//
// float tile[32][32] on the H200 (33.3 TB/s, 4.25 TB/s copy): 33.3 / 33 = 1.01 TB/s against
// 2.13: the banks set the time, about 2x (measured: 41 % of copy against 82 % padded).
double transposed_shared_tbps(double shared_tbps, int lane_bytes, double read_cost);
double transposed_hbm_tbps(double copy_tbps);
// The deepest read cost HBM still hides: where the two sides meet.
double hidden_read_cost(double shared_tbps, int lane_bytes, double copy_tbps);

struct ReversalRun {
  int sm_count = 0;
  int lane_bytes = 4;    // the element size of the run's dtype: bytes per lane of its column read
  double clock_mhz = 0;  // the SM clock: measured during the run, else the rated one
  bool clock_measured = false;
  double copy_gbps = 0;  // the run's copy roof
  struct Kernel {
    std::string name;  // "fp32-padded"
    double gbps = 0;
    double fraction_of_copy = 0;
    int ways = 1;  // the predicted conflict of its column read (1 = none)
  };
  std::vector<Kernel> teaching;  // the verified teaching kernels whose access the core knows
  // The 32-way column read's time against its conflict-free baseline in the shared-memory-bound
  // loop (the microbenchmark), when the run has it.
  std::optional<double> loop_32_way_ratio;
};

// run empty: the lesson's figures and an invitation to run on a GPU.
std::vector<std::string> reversal_lines(const std::optional<ReversalRun>& run);

}  // namespace banklab

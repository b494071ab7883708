#include "core/teach/reversal.hpp"

#include <algorithm>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"

namespace banklab {
namespace {

std::string fixed(double value, int decimals) {
  return format("%.*f", decimals, value);
}

// Bytes a conflict-free wavefront carries for lanes of `lane_bytes`: 32 lanes, at most 128 B.
double bytes_per_wavefront(int lane_bytes) {
  return std::min(double{kWarpSize} * lane_bytes, double{kWavefrontBytes});
}

}  // namespace

double transposed_shared_tbps(double shared_tbps, int lane_bytes, double read_cost) {
  return shared_tbps * bytes_per_wavefront(lane_bytes) / kWavefrontBytes / (1 + read_cost);
}

double transposed_hbm_tbps(double copy_tbps) {
  return copy_tbps / 2;
}

double hidden_read_cost(double shared_tbps, int lane_bytes, double copy_tbps) {
  // shared x f / (1 + k) = copy / 2  <=>  k = 2 shared f / copy - 1
  return 2 * shared_tbps * bytes_per_wavefront(lane_bytes) / kWavefrontBytes / copy_tbps - 1;
}

// The model behind the sentences: the whole GPU's shared memory serves SMs x 128 B per clock,
// and a transpose moves every byte through it twice (a row write, a column read) and through
// HBM twice (a read, a write). Per transposed byte, a k-way column read leaves shared memory
// shared / (1 + k) (for 4-byte lanes) against HBM's copy / 2, and the kernel runs at HBM speed
// while the first stays above the second.
std::vector<std::string> reversal_lines(const std::optional<ReversalRun>& run) {
  std::vector<std::string> lines;
  if (!run) {
    const double hbm = transposed_hbm_tbps(kLessonHbmTbps);
    lines.push_back(
        "The reversal condition: a large transpose is bound by HBM, not by shared memory. "
        "132 SMs x 128 B per clock at 1.7 GHz is about " +
        fixed(kLessonSharedTbps, 1) + " TB/s of shared memory against " + fixed(kLessonHbmTbps, 2) +
        " TB/s of HBM3. Per transposed byte, HBM reads and writes it (" + fixed(hbm, 2) +
        " TB/s of matrix) and shared memory stores and loads it: a 2-way column read leaves " +
        fixed(transposed_shared_tbps(kLessonSharedTbps, 4, 2), 1) +
        " TB/s, hidden behind HBM; a 32-way one " +
        fixed(transposed_shared_tbps(kLessonSharedTbps, 4, 32), 2) + " TB/s, the bottleneck.");
    lines.push_back("Run on GPU to see it with this GPU's numbers.");
    return lines;
  }
  const double shared_tbps = double(run->sm_count) * kWavefrontBytes * run->clock_mhz / 1e6;
  const double copy_tbps = run->copy_gbps / 1000;
  const double hidden_up_to =
      run->copy_gbps > 0 ? hidden_read_cost(shared_tbps, run->lane_bytes, copy_tbps) : 0;
  lines.push_back("Shared memory: " + std::to_string(run->sm_count) + " SMs x " +
                  std::to_string(kWavefrontBytes) + " B per clock at " + fixed(run->clock_mhz, 0) +
                  " MHz (" + (run->clock_measured ? "measured during the run" : "rated") + ") = " +
                  fixed(shared_tbps, 1) + " TB/s. This run's copy roof: " + fixed(copy_tbps, 2) +
                  " TB/s, read plus write, so HBM transposes " +
                  fixed(transposed_hbm_tbps(copy_tbps), 2) + " TB/s of matrix.");
  lines.push_back(
      "Per transposed byte, shared memory stores it once (the row write) and loads it once (the "
      "column read): a k-way read leaves " +
      fixed(transposed_shared_tbps(shared_tbps, run->lane_bytes, 0) * 2, 1) +
      "/(1 + k) TB/s of matrix, above HBM's up to about k = " + fixed(hidden_up_to, 1) +
      ", where HBM hides it; beyond that the banks set the time.");

  // The fastest conflict-free kernel as the baseline, the worst conflict, and the worst one
  // the model expects HBM to hide.
  const ReversalRun::Kernel* clean = nullptr;
  const ReversalRun::Kernel* worst = nullptr;
  const ReversalRun::Kernel* mild = nullptr;
  for (const ReversalRun::Kernel& k : run->teaching) {
    if (k.ways <= 1 && (!clean || k.gbps > clean->gbps)) clean = &k;
    if (k.ways > 1 && (!worst || k.ways > worst->ways)) worst = &k;
    if (k.ways > 1 && k.ways < hidden_up_to && (!mild || k.ways > mild->ways)) mild = &k;
  }
  if (!clean) return lines;
  // What the model expects, then what the run shows: a slowdown under kVisibleSlowdown is
  // within the noise of an end-to-end timing, i.e. hidden.
  const auto versus = [&](const ReversalRun::Kernel& k) {
    const double slowdown = clean->gbps / k.gbps;
    return k.name + " (" + std::to_string(k.ways) + "-way; the model says " +
           (k.ways < hidden_up_to ? "HBM hides it" : "it shows") + "): " + fixed(k.gbps, 0) +
           " GB/s, " + fixed(100 * k.fraction_of_copy, 0) + "% of copy, " + fixed(slowdown, 2) +
           "x the time of the conflict-free " + clean->name + " (" + fixed(clean->gbps, 0) +
           " GB/s): " + (slowdown < kVisibleSlowdown ? "hidden." : "it shows.");
  };
  if (worst && worst != mild) lines.push_back(versus(*worst));
  if (mild) lines.push_back(versus(*mild));
  if (run->loop_32_way_ratio) {
    lines.push_back(
        "In the shared-memory-bound loop, with no HBM to hide behind, the 32-way "
        "read takes " +
        fixed(*run->loop_32_way_ratio, 1) + "x the conflict-free time (predicted 32x).");
  }
  return lines;
}

}  // namespace banklab

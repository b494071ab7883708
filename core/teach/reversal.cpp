#include "core/teach/reversal.hpp"

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"

namespace banklab {
namespace {

std::string fixed(double value, int decimals) {
  return format("%.*f", decimals, value);
}

}  // namespace

// The model behind the sentences: the whole GPU's shared memory serves SMs x 128 B per clock.
// A transpose's column read with a k-way conflict is served at 1/k of that, and the kernel runs
// at HBM speed for as long as that stays above the copy roof: up to k = shared / copy.
std::vector<std::string> reversal_lines(const std::optional<ReversalRun>& run) {
  std::vector<std::string> lines;
  if (!run) {
    lines.push_back(
        "The reversal condition: a large transpose is bound by HBM, not by shared memory. "
        "132 SMs x 128 B per clock at 1.7 GHz is about " +
        fixed(kLessonSharedTbps, 0) + " TB/s of shared memory against " + fixed(kLessonHbmTbps, 2) +
        " TB/s of HBM3, so a 2-way conflict (about " + fixed(kLessonSharedTbps / 2, 1) +
        " TB/s left) hides behind HBM, and a 32-way one (under 1 TB/s) does not.");
    lines.push_back("Run on GPU to see it with this GPU's numbers.");
    return lines;
  }
  const double shared_gbps = double(run->sm_count) * kWavefrontBytes * run->clock_mhz / 1000.0;
  const double hidden_up_to = run->copy_gbps > 0 ? shared_gbps / run->copy_gbps : 0;
  lines.push_back("Shared memory: " + std::to_string(run->sm_count) + " SMs x " +
                  std::to_string(kWavefrontBytes) + " B per clock at " + fixed(run->clock_mhz, 0) +
                  " MHz (" + (run->clock_measured ? "measured during the run" : "rated") +
                  ") = " + fixed(shared_gbps / 1000, 1) +
                  " TB/s. This run's copy roof: " + fixed(run->copy_gbps / 1000, 2) + " TB/s.");
  lines.push_back("A k-way conflict on the column read leaves the shared-memory side " +
                  fixed(shared_gbps / 1000, 1) +
                  "/k TB/s: above the copy roof up to about k = " + fixed(hidden_up_to, 1) +
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

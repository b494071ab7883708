// A build without CUDA cannot measure: measure_support() and measure() say so, and the app
// shows it as the GPU's state.
#include "kernels/gpu_measure.hpp"

namespace banklab::gpu {

MeasureSupport measure_support() {
  MeasureSupport s;
  s.device = query_device();  // Availability::not_built, with the sentence saying why
  s.reason = s.device.detail;
  return s;
}

Expected<std::vector<Measurement>> measure(std::span<const WarpAccess>, const MeasureProgress&,
                                           const std::atomic<bool>*) {
  return Error{measure_support().reason};
}

Expected<PatternCrossCheckReport> cross_check_patterns(std::span<const WarpAccess>,
                                                       PatternOptions) {
  return Error{measure_support().reason};
}

}  // namespace banklab::gpu

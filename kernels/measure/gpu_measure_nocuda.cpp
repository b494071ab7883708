// A build without CUDA cannot measure: measure_support() and measure() say so, and the app
// shows it as the GPU's state.
#include "banklab/gpu_measure.hpp"

namespace banklab::gpu {

MeasureSupport measure_support() {
  MeasureSupport s;
  s.device = query_device();
  s.reason = "no GPU to measure on: " + std::string(availability_name(s.device.availability)) +
             " (this build of BankLab has no CUDA support: rebuild with the CUDA toolkit, nvcc "
             "and CUPTI, installed to measure on a GPU)";
  return s;
}

Expected<std::vector<Measurement>> measure(std::span<const WarpAccess>, const MeasureProgress&,
                                           const std::atomic<bool>*) {
  return Error{measure_support().reason};
}

}  // namespace banklab::gpu

#pragma once
// The GPU a run ran on, as a recording holds it and the app shows it: plain data, no CUDA type.
// The GPU library (kernels/gpu_device.hpp) fills it from the driver; a recording carries it
// (core/record/recording.hpp). "No GPU" is a state, not an error: every caller shows it and
// carries on.
#include <cstdint>
#include <string>
#include <string_view>

namespace banklab::record {

enum class Availability : std::uint8_t {
  available,
  no_device,  // a driver, but no CUDA device
  no_driver,  // no CUDA driver installed (libcuda missing) or too old
  not_built,  // this build of BankLab has no CUDA support
  error,      // anything else; detail says what the CUDA call returned
};

std::string_view availability_name(Availability a);  // "available", "no device", ...

struct DeviceInfo {
  Availability availability = Availability::not_built;
  std::string detail;  // the CUDA call and its error text when not available
  std::string name;    // "NVIDIA H200"
  int ordinal = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;  // the rated maximum SM clock
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
  std::uint64_t memory_bytes = 0;
  int shared_memory_per_sm = 0;
  int l2_bytes = 0;

  bool ok() const { return availability == Availability::available; }
};

// One line for people: "NVIDIA H200, sm_90, 132 SMs at up to 1980 MHz, 139.8 GiB of memory
// (...)", or why there is no GPU ("no driver: ..."). Memory sizes are binary (GiB, MiB, KiB), as
// nvidia-smi and the CUDA samples print them.
std::string device_summary(const DeviceInfo& d);

}  // namespace banklab::record

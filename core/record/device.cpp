#include "core/record/device.hpp"

#include "core/base/format.hpp"

namespace banklab::record {

std::string_view availability_name(Availability a) {
  switch (a) {
    case Availability::available:
      return "available";
    case Availability::no_device:
      return "no device";
    case Availability::no_driver:
      return "no driver";
    case Availability::not_built:
      return "not built";
    case Availability::error:
      return "error";
  }
  return "unknown";
}

std::string device_summary(const DeviceInfo& d) {
  if (!d.ok()) {
    std::string text(availability_name(d.availability));
    if (!d.detail.empty()) text += ": " + d.detail;
    return text;
  }
  return d.name + ", sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ", " +
         std::to_string(d.sm_count) + " SMs at up to " + std::to_string(d.sm_clock_khz / 1000) +
         " MHz, " + format("%.1f", static_cast<double>(d.memory_bytes) / (1u << 30)) +
         " GiB of memory (" + std::to_string(d.memory_bus_bits) + "-bit bus at " +
         std::to_string(d.memory_clock_khz / 1000) + " MHz), " +
         std::to_string(d.shared_memory_per_sm / 1024) + " KiB shared memory per SM, " +
         std::to_string(d.l2_bytes >> 20) + " MiB L2";
}

}  // namespace banklab::record

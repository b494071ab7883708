#pragma once
// The GPU as the rest of BankLab sees it: a plain C++ header, no CUDA types. What a device is
// (DeviceInfo, its availability and one-line summary) is plain data a recording holds too, so it
// lives in core (core/record/device.hpp); this library asks the driver for it.
#include "core/record/device.hpp"

namespace banklab::gpu {

// Cheap after the first call; safe to call from any thread.
record::DeviceInfo query_device();

}  // namespace banklab::gpu

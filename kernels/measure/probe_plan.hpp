#pragma once
// From a WarpAccess to the measured kernel's plan, and back from its output to the hardware's
// counts.
#include <cstdint>
#include <span>
#include <string>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "kernels/measure/probe.hpp"

namespace banklab::gpu::detail {

// The plan for an access that passed check_access(). Offsets are moved down by a multiple of
// 1024 bytes when the access would not fit in one block's 227 KB: that keeps every bank, every
// word's identity and every alignment, so the counts do not change. An access spanning more
// than a block can hold is an error.
Expected<ProbePlan> plan_probe(const WarpAccess& access);

// Done when `out` is what the access must have produced; otherwise the first wrong byte.
// Stores to one byte from several lanes may leave any of their values.
Expected<void> verify_probe(const WarpAccess& access, const ProbePlan& plan,
                            std::span<const std::uint8_t> out);

}  // namespace banklab::gpu::detail

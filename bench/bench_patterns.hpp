#pragma once
// The accesses the benchmark times: every preset's access, strided walks of every width, and
// random aligned offsets with idle lanes and shared addresses, so the figure covers cheap
// conflict-free phases and 32-deep conflicts alike.
#include <cstdint>
#include <random>
#include <vector>

#include "core/model/access.hpp"

namespace banklab::bench {

// Every access here passes check_access: the benchmark times analysis, not diagnostics.
std::vector<WarpAccess> preset_accesses();
std::vector<WarpAccess> strided_accesses();
std::vector<WarpAccess> random_accesses(std::size_t count, std::uint64_t seed);

}  // namespace banklab::bench

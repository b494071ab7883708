#pragma once
// A recording is a file from anywhere, so nothing in it is shown on its word (issue 22). After
// it is read (recording.hpp), every figure it holds is held to what can be known without a
// GPU:
//   - recomputed and compared: each pattern's predicted and baseline wavefronts (the core's
//     analyze() of the access and of its conflict-free baseline), its ratios and wavefronts per
//     clock (from its own cycles), each transpose's GB/s (bytes over time) and fraction of the
//     copy roof; a figure that does not follow from the others refuses the file;
//   - recomputed and used: whether each cross-check agrees, from its counts by the rule a live run
//     applies (record::check_agreement()), whatever its `agrees` says;
//   - range-checked: sizes, clocks, times, rates (no more than any memory or SM can do), counts
//     and texts (at most kMaxRecordedText bytes; the tables show their control bytes as \xNN).
#include <cstddef>
#include <string>

#include "core/base/expected.hpp"
#include "core/record/recording.hpp"

namespace banklab::record {

inline constexpr std::size_t kMaxRecordedText = 4096;

// Done when the recording holds up, else its first problem with the field's path
// ("recording.suites[0].rows is -1; a transpose has 1 to 1048576 rows"). Sets each cross-check's
// agrees and detail from its counts.
Expected<void> check_recording(Recording& r);

// Whether every result in it passed its own checks: every transpose and pattern verified, every
// cross-check agreeing, validate without a mismatch. `gpu-bench --record` and `--replay` exit 1
// when it does not.
bool recording_passes(const Recording& r);

}  // namespace banklab::record

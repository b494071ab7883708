#pragma once
// The model against the hardware: what the GPU counted for one access (gpu::measure() fills
// this), and whether it matches the model, with the one sentence that `banklab validate`,
// `banklab gpu-bench --record` and the GUI's "Measure on GPU" all give for it (`banklab
// validate --json` keeps the field's old name, "verdict").
#include <cstdint>
#include <string>

namespace banklab {

// What the hardware counted for one access.
struct HardwareCount {
  bool ok = false;    // the counters were read and the bytes verified
  std::string error;  // when !ok: why this access could not be measured
  std::int64_t wavefronts = 0;
  std::int64_t bank_conflicts = 0;
  // Warp-level shared-memory instructions of the measured class in the kernel: 1 proves the
  // counters saw the measured instruction alone.
  std::int64_t instructions = 0;
  // The bytes the instruction moved were checked against a CPU replay of the access.
  bool verified = false;
};

enum class ModelMatch : std::uint8_t {
  agree,       // the same wavefronts and bank conflicts as the model
  disagree,    // both counted and isolated, and different from the model
  unmeasured,  // no count that isolates this access: not read, not verified, or not alone
};

struct Judgement {
  ModelMatch match = ModelMatch::unmeasured;
  std::string message;  // one sentence with the numbers
};

// predicted: analyze()'s wavefront_count() and bank_conflicts() for the access.
Judgement judge(std::int64_t wavefronts, std::int64_t conflicts, const HardwareCount& hw);

}  // namespace banklab

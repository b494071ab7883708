#include "core/validate/model_match.hpp"

namespace banklab {

Judgement judge(std::int64_t wavefronts, std::int64_t conflicts, const HardwareCount& hw) {
  Judgement j;
  if (!hw.ok) {
    j.message = "the hardware could not measure this access: " + hw.error;
  } else if (hw.instructions != 1) {
    j.message = "the counters saw " + std::to_string(hw.instructions) +
                " shared-memory instructions of the measured class, not 1, so they do not "
                "isolate this access";
  } else if (!hw.verified) {
    j.message =
        "the bytes the instruction moved differ from the CPU replay, so the counts are not of "
        "this access";
  } else if (hw.wavefronts != wavefronts || hw.bank_conflicts != conflicts) {
    j.match = ModelMatch::disagree;
    j.message = "DISAGREEMENT: the model predicts " + std::to_string(wavefronts) +
                " wavefronts and " + std::to_string(conflicts) +
                " bank conflicts; the hardware counted " + std::to_string(hw.wavefronts) +
                " wavefronts and " + std::to_string(hw.bank_conflicts) + " bank conflicts";
  } else {
    j.match = ModelMatch::agree;
    j.message = "the hardware agrees: " + std::to_string(hw.wavefronts) + " wavefronts, " +
                std::to_string(hw.bank_conflicts) + " bank conflicts";
  }
  return j;
}

}  // namespace banklab

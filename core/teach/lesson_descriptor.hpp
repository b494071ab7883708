#pragma once
// A lesson step that reads its tile through a matrix descriptor: the Descriptor Lab's question
// (core/model/descriptor_agreement.hpp) put to the step's scenario. The tile, which TMA fills
// (its swizzle is a TMA mode), is one box at `dest`, a K-major wgmma / tcgen05 operand of the
// tile's element type, read through `desc` at k-step `k_step` -- what the app's Descriptor
// window shows. The same tile read as an MN-major operand (`major`) has its rows along K and its
// columns along MN; `boxes` of it side by side along the columns make the operand wider (an
// MN-major operand two 128-byte atoms wide, so that LBO counts). A step names it as the flags
// of `banklab desc agree`:
//
//   descriptor = ["--arch", "sm90", "--swizzle", "64b", "--sbo", "512", "--k-step", "1"]
//
// (--arch, --major, --swizzle, --start, --lbo, --sbo, --base-offset, --dest, --boxes, --k-step;
// the start is the destination unless given). The {desc_...} placeholders of its text are filled
// from check_agreement(), so a text about descriptors states no number by hand either.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"
#include "core/model/descriptor_agreement.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

struct StepDescriptor {
  MatrixDescriptor desc{MmaArch::sm90, DescSwizzle::b128, 0, 16, 1024, 0, false};
  std::int64_t dest = 0;  // where TMA's first box lands in shared memory
  int k_step = 0;         // the instruction drawn (0-based)
  OperandMajor major = OperandMajor::k;
  int boxes = 1;  // TMA boxes side by side along the tile's columns, box j at dest + j * box size

  friend bool operator==(const StepDescriptor&, const StepDescriptor&) = default;
};

// The tile as the producer's fill (`boxes` boxes from dest) and as the operand (its major-ness,
// its dtype).
inline constexpr int kMaxStepBoxes = 8;
OperandFill step_fill(const StepDescriptor& d, const TileLayout& tile);
OperandShape step_operand(const StepDescriptor& d, const TileLayout& tile);
DescriptorAgreement step_agreement(const StepDescriptor& d, const TileLayout& tile);

// The step's `descriptor` words read against its scenario: the tile must be one TMA fills, the
// swizzle mode must exist on the architecture, every value in its field's range, the k-step
// one the tile holds.
Expected<StepDescriptor> parse_step_descriptor(std::span<const std::string> words,
                                               const Scenario& s);

// The verdict in one line, for a slide's header: "the descriptor reads all 4096 elements where
// TMA wrote them", "the descriptor misreads 4032 of 4096 elements", or "not compared: WHY".
std::string descriptor_verdict(const StepDescriptor& d, const TileLayout& tile);
// The reader in one line: "wgmma (sm90) descriptor 0x4000004000000000: K-major, 128-Byte
// swizzle, LBO 0, SBO 1024, start 0, k-step 0".
std::string describe_descriptor(const StepDescriptor& d);

// The value of placeholder {name} or {name:arg} when it is a descriptor one (its name starts
// with "desc_"), or nullopt; an error when the step has no descriptor or cannot give it.
std::optional<Expected<std::string>> descriptor_value(std::string_view name, std::string_view arg,
                                                      const Scenario& s, const StepDescriptor* d);

}  // namespace banklab

#pragma once
// The Strong Hire drill's descriptor questions: a tile TMA wrote, read by wgmma through a matrix
// descriptor (core/model/descriptor_agreement.hpp). Four forms, each a choice among four
// answers written the same way, every one graded by the Descriptor Lab:
//
//   decode      a descriptor word: which swizzle, LBO and SBO it holds (decode());
//   which-reads which of four descriptors reads what TMA wrote (check_agreement(), exactly one
//               agrees; LBO drawn at random on every option, since a K-major swizzled
//               descriptor ignores it);
//   base-offset a 128B box TMA put off its 1024-byte boundary: the base offset that reads it
//               (suggest_descriptor(): 0, as the H200 measured; docs/descriptor-lab.md);
//   k-advance   the start address of k-step s (the agreement's DescriptorIterator starts).
//
// drill_generate.cpp turns a draw into a question (the "descriptor" family of strong-hire).
#include <string>
#include <vector>

#include "core/teach/drill.hpp"

namespace banklab::drill_detail {

struct DescriptorDraw {
  Scenario s;  // the tile TMA fills, with an ldmatrix read of it (the question's bank view)
  std::string premise;
  std::string ask;
  std::vector<Choice> choices;    // the right one first
  std::vector<Mistake> intended;  // the mistakes it is built to catch, in order
};

DescriptorDraw descriptor_drill(SplitMix64& rng);

}  // namespace banklab::drill_detail
